//! Reading mail as mail: each message of an mbox (or a single RFC 5322
//! message) is decoded before it is scanned, so that quoted-printable soft
//! line breaks, `=3D`, base64 and `format=flowed` no longer cut or hide
//! URIs.
//!
//! Scan a whole input with [`scan_mail`], through the same [`Sink`] as
//! plain text; each URI says where it was found ([`Found::message`]) and
//! its line and column are those of the file:
//!
//! ```
//! use uriscan::{mail, Found, Scanner};
//!
//! let mbox = b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: hi\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nSee https://example.org/a?b=3D1&c=\n=3D2 now.\n";
//! let mut uris = Vec::new();
//! mail::scan_mail(&Scanner::new(), &mbox[..], |f: &Found<'_>| {
//!     let place = f.message().expect("found in a message");
//!     uris.push((f.as_str().to_string(), place.part().to_string(), f.line(), f.column()));
//!     Ok(true)
//! })?;
//! assert_eq!(uris, [("https://example.org/a?b=1&c=2".to_string(), "text/plain".to_string(), 6, 5)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Or take the messages and their parts one by one (to scan messages on
//! several threads, or to skip some):
//!
//! ```
//! use uriscan::{mail, Found, Scanner};
//!
//! let scanner = Scanner::new();
//! let mbox = b"From a Mon Jan 1 00:00:00 2024\nList-Archive: <https://lists.example.org/>\n\nSee https://example.org/a\n";
//! let mut found = Vec::new();
//! for message in mail::Messages::new(&mbox[..]) {
//!     let message = message?;
//!     for part in message.parts() {
//!         let label = part.label().into_owned();
//!         part.scan(&scanner, &mut |f: &Found<'_>| {
//!             found.push((label.clone(), f.as_str().to_string(), f.line()));
//!             Ok(true)
//!         })?;
//!     }
//! }
//! assert_eq!(found[0], ("header:List-Archive".to_string(), "https://lists.example.org/".to_string(), 2));
//! assert_eq!(found[1], ("text/plain".to_string(), "https://example.org/a".to_string(), 4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Conformance
//!
//! - **Recognition** ([`looks_like_mail`]): an mbox starts with a `From `
//!   line; a single message starts with a header block holding at least two
//!   of the usual fields (`From`, `To`, `Subject`, `Date`, `Message-ID`,
//!   `Received`, …), and only fields. A judgement call: a line whose name
//!   would start with a digit is taken for a log's time (`13:00:01 …`,
//!   `2026-11-26T13:00:00Z …`), one whose name would start with `{`,
//!   `[` or `"` for a JSON log's line, and one whose name is a log level
//!   (`INFO`, `WARNING`, `ERROR`, `SEVERE`, … in any case; Python's
//!   `WARNING:root:…`) for a log's line, not a field, though RFC 5322 allows
//!   such names; no mail we have seen uses one, and logs start that way. So a
//!   stream's first line decides "not mail" for most logs
//!   ([`looks_like_mail_so_far`]), and it is scanned as it comes.
//! - **Messages** are split at `From ` lines that follow a blank line (and
//!   at the first line); `>From ` lines lose one `>` (mboxrd). A message is
//!   held whole to be decoded, up to 16 MiB ([`MAX_MESSAGE`]): past that (a
//!   huge attachment, a generated file that starts with `From `) the
//!   message is read as raw text, in pieces of a few MiB cut where the
//!   scanner's results do not depend on the cut, with a warning; then the
//!   next messages are read as mail again. Memory stays bounded whatever
//!   the input.
//! - **Headers** are read raw, as bytes (a value that is not UTF-8 is
//!   still scanned), and every field's value is scanned
//!   (`List-Unsubscribe`, `List-Archive`, but also a `Subject` that names a
//!   page), labelled `header:NAME`. RFC 2047 encoded words are decoded
//!   (a client that writes a `Subject` with one non-ASCII letter often
//!   encodes all of it, URI included), and converted from their charset
//!   as bodies are.
//! - **Bodies**: a message that is one `text/plain` part (not
//!   `format=flowed`, in an ASCII-compatible charset) is scanned once
//!   undone its quoted-printable or base64 and converted from its charset
//!   to UTF-8: text in Latin-1, windows-1252, KOI8-R, Shift_JIS,
//!   ISO-2022-JP, GBK, Big5, EUC-KR, … (the WHATWG Encoding Standard's
//!   labels), so that an IRI written in it (`http://x.example/café`) is
//!   found whole. *Judgement calls* (the `charset` module's docs): text
//!   that is well-formed UTF-8 is read as UTF-8 whatever its label says
//!   (mail often mislabels UTF-8), and an unknown label leaves the bytes as
//!   they are; positions are those of the part's bytes in its own charset.
//!   One whose transfer encoding is broken
//!   is reported, and its text scanned as it was sent. Any other message
//!   goes through `mail-parser`, which is given only its MIME fields and
//!   finds the parts; each text part is then decoded the same way (its
//!   transfer encoding undone, its charset converted; UTF-16, UTF-32 and
//!   UTF-7 by the MIME parser, whose conversion only makes them
//!   readable), `format=flowed` lines are joined (RFC 3676,
//!   `delsp=yes` honoured), and the text is scanned by the Appendix C
//!   rules, labelled with its type (`text/plain`, `text/enriched`, …). HTML parts give the values of
//!   their attributes (`href`, `src`, an `<option>`'s `value`, a
//!   `pluginspage`, …; not `xmlns` nor the `on…` event handlers) and
//!   their text (not comments, `<script>` nor `<style>`), with character references
//!   decoded, as `text/html`. Segments that are not text (images, archives)
//!   are skipped. A forwarded message (`message/rfc822`, digests) is read
//!   like the message itself: its headers, then its parts.
//! - *Judgement call:* the **preamble and epilogue** of a multipart, which
//!   MIME readers ignore, are scanned, labelled `preamble` and `epilogue`:
//!   mailing lists append their footer after the closing boundary.
//! - *Judgement call:* text that is **quoted-printable without declaring
//!   it** (spam, archives that lost their MIME headers) is decoded when it
//!   has exactly an encoder's shape: at least one soft line break, and
//!   every `=` an escape of two upper-case hex digits or a soft break.
//!   Plain text fails at its first `a = b` or `?q=1`.
//! - **Malformed mail** never stops a scan: what can be decoded is scanned,
//!   a message that cannot be parsed is scanned as raw text, and each
//!   problem is reported to [`Sink::warning`], with the message's line.
//! - **Parallel scanning**: [`scan_mail`] reads one message at a time. To
//!   scan the messages of one input on several threads, split it with
//!   [`Messages`] and scan each [`Message`] where you like; the `uriscan`
//!   command does so for a single input, in groups of about 4 MiB, keeping
//!   the order of the file.
//! - **Positions**: a URI in mail is reported with its message
//!   ([`Found::message`]: the line where the message starts, its
//!   `Message-ID`, its part) and with the line, column and byte span of the
//!   file where its text was written, encoded: exact for text sent as it
//!   is, quoted-printable (the span covers the `=3D` and soft breaks) and
//!   flowed text; for base64, the line and column of the group of four
//!   characters that holds its first byte; in HTML, where the attribute
//!   value or text holds it. *Judgement call:* a part in UTF-16, UTF-32 or
//!   UTF-7 (converted by the MIME parser, byte by byte out of reach) places
//!   its URIs at the part's start. A URI of a header field folded over
//!   lines is placed at its first byte.

mod charset;
mod decode;
mod header;
mod mbox;
mod message;
mod mime;
mod structure;

use std::io::Read;

use crate::scan::segments::to_usize;
use crate::scan::{ReadAt, Scanner, Segment, SegmentEnd, Sink};

pub use self::mbox::{
    looks_like_mail, looks_like_mail_so_far, message_segments, Messages, MAX_MESSAGE,
};
pub use self::message::{Message, Part};

#[cfg(doc)]
use crate::scan::Found;

/// Scans every message of `rdr` (an mbox or one message), one message at a
/// time, reporting to `sink` as [`Scanner::scan_reader`] does for plain
/// text: each URI (with [`Found::message`] set), each over-long candidate,
/// and each problem met ([`Sink::warning`]). Memory is bounded by the
/// largest message decoded ([`MAX_MESSAGE`]).
///
/// # Errors
///
/// A read error (after the URIs of the messages before it), or the first
/// error `sink` returns.
pub fn scan_mail<R: Read, S: Sink>(scanner: &Scanner, rdr: R, sink: S) -> std::io::Result<()> {
    scan_messages(scanner, Messages::new(rdr), sink)
}

/// [`scan_mail`] for input already split into `messages`, such as
/// [`Messages::with_prefix`] gives when the start of the input was read to
/// probe it.
///
/// # Errors
///
/// A read error, or the first error `sink` returns.
pub fn scan_messages<R: Read, S: Sink>(
    scanner: &Scanner,
    mut messages: Messages<R>,
    mut sink: S,
) -> std::io::Result<()> {
    scan_each(scanner, &mut messages, &mut sink)
}

/// Scans the messages of `messages` in turn, until the sink stops.
fn scan_each<R: Read, S: Sink>(
    scanner: &Scanner,
    messages: &mut Messages<R>,
    sink: &mut S,
) -> std::io::Result<()> {
    let mut label = String::new();
    messages.each_lent(|message| message.scan_into(scanner, sink, &mut label))
}

/// Scans one segment of an mbox (see [`message_segments`]) as
/// [`scan_mail`] scans the whole: the URIs of its messages, their spans and
/// columns are those of the whole input, and lines count from 1 at the
/// segment's start (in the URIs, in
/// [`InMessage::message_line`](crate::InMessage) and in warnings);
/// [`SegmentEnd::lines`] says how many line breaks the segment holds.
///
/// # Errors
///
/// A read error (after the URIs of the messages before it), or the first
/// error `sink` returns.
pub fn scan_segment<R: ReadAt + ?Sized, S: Sink>(
    scanner: &Scanner,
    segment: Segment<'_, R>,
    mut sink: S,
) -> std::io::Result<SegmentEnd> {
    let start = to_usize(segment.start())?;
    let mut messages = Messages::starting_at(segment, start);
    scan_each(scanner, &mut messages, &mut sink)?;
    Ok(SegmentEnd {
        bytes: messages.reader().bytes_read(),
        lines: messages.line() - 1,
    })
}

/// Reads every file of the shared mail archives as mail mode does, for
/// the tests that check what each reading compares (in tests) as it goes;
/// false when `../shared/` is absent (the notice is printed).
#[cfg(test)]
pub(crate) fn scan_shared_mail_archives() -> bool {
    let Some(mail) = crate::standalone::shared("corpus/mail") else {
        return false;
    };
    let mut dirs = vec![mail];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let file = std::fs::File::open(&path).unwrap();
                scan_mail(&Scanner::new(), file, |_: &crate::Found<'_>| Ok(true)).unwrap();
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::scan::Found;

    /// The (part, URI) pairs found in `raw`.
    fn uris(raw: &[u8]) -> Vec<(String, String)> {
        uris_and_warnings(raw).0
    }

    /// The (part, URI) pairs found in `raw`, and the warnings.
    fn uris_and_warnings(raw: &[u8]) -> (Vec<(String, String)>, Vec<String>) {
        let mut sink = Collect::default();
        scan_mail(&Scanner::new(), raw, &mut sink).unwrap();
        (sink.uris, sink.warnings)
    }

    #[derive(Default)]
    struct Collect {
        uris: Vec<(String, String)>,
        warnings: Vec<String>,
    }

    impl Sink for &mut Collect {
        fn found(&mut self, f: &Found<'_>) -> io::Result<bool> {
            let part = f.message().expect("found in a message").part();
            self.uris.push((part.to_string(), f.as_str().to_string()));
            Ok(true)
        }

        fn warning(&mut self, _line: u64, warning: &str) -> io::Result<bool> {
            self.warnings.push(warning.to_string());
            Ok(true)
        }
    }

    #[test]
    fn quoted_printable_base64_flowed_and_html() {
        let qp = b"Subject: a\nFrom: x@y\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n<https://example.org/very/long/pa=\nth?x=3D1>\n";
        assert_eq!(
            uris(qp),
            [(
                "text/plain".into(),
                "https://example.org/very/long/path?x=1".into()
            )]
        );
        let b64 = b"Subject: a\nFrom: x@y\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nc2VlIGh0dHA6Ly9oaWRkZW4uZXhhbXBsZS9hIG5vdw==\n";
        assert_eq!(
            uris(b64),
            [("text/plain".into(), "http://hidden.example/a".into())]
        );
        let flowed = b"Subject: a\nFrom: x@y\nContent-Type: text/plain; format=flowed; delsp=yes\n\nsee https://example.org/a- \nb/c now\n";
        assert_eq!(
            uris(flowed),
            [("text/plain".into(), "https://example.org/a-b/c".into())]
        );
        let html = b"Subject: a\nFrom: x@y\nContent-Type: text/html\n\n<a href=\"http://x.org/?a=1&amp;b=2\">x</a>\n";
        assert_eq!(
            uris(html),
            [("text/html".into(), "http://x.org/?a=1&b=2".into())]
        );
    }

    #[test]
    fn a_plain_text_body_is_decoded_without_the_mime_parser_unless_broken() {
        // Latin-1 quoted-printable: the URI comes out whole (the `é`
        // around it, converted, is no part of it).
        let latin1 = b"Subject: a\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9 <http://x.org/lo=\nng?a=3Db>=E9\n";
        assert_eq!(
            uris(latin1),
            [("text/plain".into(), "http://x.org/long?a=b".into())]
        );
        // A broken encoding is reported: quoted-printable is read as far as
        // it decodes (the stray `=` kept), base64 as it was sent.
        for (broken, expected) in [
            (
                &b"Subject: a\nContent-Transfer-Encoding: quoted-printable\n\nsee http://x.org/a==3D\n"[..],
                ("text/plain".to_string(), "http://x.org/a==".to_string()),
            ),
            (
                b"Subject: a\nContent-Transfer-Encoding: base64\n\nsee http://x.org/a !\n",
                ("text/plain".to_string(), "http://x.org/a".to_string()),
            ),
        ] {
            let (found, warnings) = uris_and_warnings(broken);
            assert_eq!(found, [expected], "{}", String::from_utf8_lossy(broken));
            assert_eq!(warnings.len(), 1, "{warnings:?}");
        }
    }

    #[test]
    fn headers_and_message_positions() {
        let mbox = b"From a Mon Jan 1 00:00:00 2024\nMessage-ID: <m1@x>\nList-Archive: <https://lists.example.org/archive/>\nSubject: a\n\nbody http://one.example/\n\nFrom b Mon Jan 1 00:00:00 2024\nSubject: b\nFrom: q@r\n\nhttp://two.example/\n";
        let mut all = Vec::new();
        scan_mail(&Scanner::new(), &mbox[..], |f: &Found<'_>| {
            let m = f.message().unwrap();
            all.push((
                m.message_line(),
                m.message_id().map(str::to_string),
                m.part().to_string(),
                f.as_str().to_string(),
            ));
            Ok(true)
        })
        .unwrap();
        assert_eq!(
            all[0],
            (
                1,
                Some("m1@x".into()),
                "header:List-Archive".into(),
                "https://lists.example.org/archive/".into()
            )
        );
        assert_eq!(
            all[1],
            (
                1,
                Some("m1@x".into()),
                "text/plain".into(),
                "http://one.example/".into()
            )
        );
        assert_eq!(
            all[2],
            (8, None, "text/plain".into(), "http://two.example/".into())
        );
    }

    #[test]
    fn forwarded_messages_and_raw_headers_are_scanned() {
        // A message/rfc822 part: its headers and its body are read too.
        let raw = b"Subject: fwd\nFrom: x@y\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/enriched\n\nsee http://outer.example/\n--XX\nContent-Type: message/rfc822\n\nList-Archive: <http://inner.example/archive/>\nSubject: inner\n\nhttp://inner.example/body\n--XX--\n";
        assert_eq!(
            uris(raw),
            [
                ("text/enriched".into(), "http://outer.example/".into()),
                (
                    "header:List-Archive".into(),
                    "http://inner.example/archive/".into()
                ),
                ("text/plain".into(), "http://inner.example/body".into()),
            ]
        );
        // A URI in an RFC 2047 encoded word, as a client writes a whole
        // Subject that is not ASCII: found, and whole.
        let encoded = b"Subject: =?UTF-8?Q?Caf=C3=A9:_https://q.example/x?=\nX-B: =?utf-8?B?aHR0cDovL2IuZXhhbXBsZS8=?=\nFrom: x@y\n\nbody\n";
        assert_eq!(
            uris(encoded),
            [
                ("header:Subject".into(), "https://q.example/x".into()),
                ("header:X-B".into(), "http://b.example/".into())
            ]
        );
        // A header value that is not UTF-8 is scanned as bytes.
        let latin1 =
            b"Subject: caf\xe9 http://x.org/a\nFrom: x@y\nContent-Transfer-Encoding: base64\n\n\n";
        assert_eq!(
            uris(latin1),
            [("header:Subject".into(), "http://x.org/a".into())]
        );
    }

    #[test]
    fn text_around_the_parts_of_a_multipart_is_scanned() {
        let raw = b"Subject: a\nFrom: x@y\nContent-Type: multipart/mixed; boundary=XX\n\nSee http://preamble.example/\n--XX\nContent-Type: text/plain\n\nhttp://part.example/\n--XX--\n___\nList footer: http://footer.example/\n";
        assert_eq!(
            uris(raw),
            [
                ("preamble".into(), "http://preamble.example/".into()),
                ("text/plain".into(), "http://part.example/".into()),
                ("epilogue".into(), "http://footer.example/".into()),
            ]
        );
    }

    #[test]
    fn a_body_line_that_reads_like_a_mime_field_is_decoded_as_sent() {
        // The forwarded message leaves this one to the MIME parser, whose
        // copy renames `charset` wherever a line reads like a
        // `Content-Type` field; the text is decoded from the message.
        let raw = b"Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nContent-Type: text/plain; see http://x.org/charset=3D1\n\n--b\nContent-Type: message/rfc822\n\nSubject: inner\n\nhttp://inner.org/\n--b--\n";
        assert_eq!(
            uris(raw),
            [
                ("text/plain".into(), "http://x.org/charset=1".into()),
                ("text/plain".into(), "http://inner.org/".into()),
            ]
        );
    }

    #[test]
    fn a_nested_message_the_parser_gives_up_on_is_read_raw() {
        // mail-parser decodes encoded nested messages three deep; the one
        // below that comes back as undecoded bytes, which are scanned.
        let mut raw = Vec::new();
        for name in ["a", "b", "c", "d", "e"] {
            raw.extend_from_slice(
                format!("Subject: {name}\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\n").as_bytes(),
            );
        }
        raw.extend_from_slice(b"Subject: f\n\nhttp://deep.example/\n");
        assert_eq!(uris(&raw), [("raw".into(), "http://deep.example/".into())]);
    }

    #[test]
    fn attachments_that_are_not_text_are_skipped() {
        let raw = b"Subject: a\nFrom: x@y\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\nhttp://text.example/\n--XX\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\naHR0cDovL2ltYWdlLmV4YW1wbGUv\n--XX--\n";
        assert_eq!(
            uris(raw),
            [("text/plain".into(), "http://text.example/".into())]
        );
    }
}
