//! Reading mail as mail: each message of an mbox (or a single RFC 5322
//! message) is decoded before it is scanned, so that quoted-printable soft
//! line breaks, `=3D`, base64 and `format=flowed` no longer cut or hide
//! URIs.
//!
//! ```
//! use uriscan::{mail, Scanner};
//!
//! let mbox = b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: hi\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nSee https://example.org/a?b=3D1&c=\n=3D2 now.\n";
//! let mut uris = Vec::new();
//! mail::scan_mail(&Scanner::new(), &mbox[..], &mut |f: &mail::MailFound<'_>| {
//!     uris.push((f.found.as_str().to_string(), f.part.to_string(), f.message_line));
//!     Ok(true)
//! })?;
//! assert_eq!(uris, [("https://example.org/a?b=1&c=2".to_string(), "text/plain".to_string(), 1)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Conformance
//!
//! - **Recognition** ([`looks_like_mail`]): an mbox starts with a `From `
//!   line; a single message starts with a header block holding at least two
//!   of the usual fields (`From`, `To`, `Subject`, `Date`, `Message-ID`,
//!   `Received`, …).
//! - **Messages** are split at `From ` lines that follow a blank line (and
//!   at the first line); `>From ` lines lose one `>` (mboxrd). A message is
//!   held whole to be decoded, up to 16 MiB: past that (a huge attachment,
//!   a generated file that starts with `From `) the message and the rest of
//!   the input are scanned as raw text, streamed, with a warning, so memory
//!   stays bounded whatever the input.
//! - **Headers** are read raw, as bytes (a value that is not UTF-8 is
//!   still scanned), and every field's value is scanned
//!   (`List-Unsubscribe`, `List-Archive`, but also a `Subject` that names a
//!   page), labelled `header:NAME`. *Judgement call:* RFC 2047 encoded
//!   words are not decoded (a URI is never written in one).
//! - **Bodies**: a message that is one `text/plain` part (not
//!   `format=flowed`, in an ASCII-compatible charset) is scanned as it is,
//!   or once undone its quoted-printable or base64, without converting its
//!   charset: URIs are ASCII, which every such charset keeps as it is
//!   (*judgement call*: positions are then those of the part's bytes in
//!   its own charset, not in UTF-8). One whose transfer encoding is broken
//!   goes to the MIME parser like the others. Any other message goes
//!   through `mail-parser`, which is given only its MIME fields: text parts
//!   are decoded (transfer encoding, charset to UTF-8), `format=flowed`
//!   lines are joined (RFC 3676, `delsp=yes` honoured), and the text is
//!   scanned by the Appendix C rules, labelled with its type
//!   (`text/plain`, `text/enriched`, …). HTML parts give the values of
//!   their URL attributes (`href`, `src`, `action`, `background`, `cite`,
//!   `srcset`, …; not `xmlns`) and their text, with character references
//!   decoded, as `text/html`. Parts that are not text (images, archives)
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
//!   problem is reported to [`MailSink::warning`].
//! - **Parallel scanning**: [`scan_mail`] reads one message at a time. To
//!   scan the messages of one input on several threads, split it with
//!   [`Messages`] and give each [`RawMessage`] to [`scan_message`]; the
//!   `uriscan` command does so for a single input, in groups of about
//!   4 MiB, keeping the order of the file.
//! - **Positions**: a URI in mail is placed by its message (the line where
//!   the message starts, its `Message-ID`) and its part; line and column
//!   within a decoded part say nothing about the file, so
//!   [`MailFound::found`]'s own positions are relative to the decoded part.

mod header;
mod html;
mod mbox;
mod undeclared;

use std::borrow::Cow;
use std::io::{self, Read};
use std::sync::OnceLock;

use mail_parser::decoders::base64::base64_decode;
use mail_parser::decoders::quoted_printable::quoted_printable_decode;
use mail_parser::{Encoding, Message, MessageParser, MimeHeaders, PartType};

use crate::scan::{Found, Scanner};

use self::header::{Coding, Head};
pub use self::mbox::{looks_like_mail, Item, Messages, RawMessage, MAX_MESSAGE};

/// A URI found in a message.
#[derive(Debug)]
pub struct MailFound<'a> {
    /// The URI, with positions relative to the decoded part.
    pub found: Found<'a>,
    /// The message's `Message-ID`, without angle brackets, if it has one.
    pub message_id: Option<&'a str>,
    /// The 1-based line of the input where the message starts.
    pub message_line: u64,
    /// Where in the message: `text/plain`, `text/html` (or another `text/`
    /// type), `header:List-Archive`, or `raw` for text that could not be
    /// decoded.
    pub part: &'a str,
}

/// Receives what [`scan_mail`] finds; return `Ok(false)` to stop.
pub trait MailSink {
    /// Called for each URI, in order of messages and of parts.
    fn found(&mut self, found: &MailFound<'_>) -> io::Result<bool>;

    /// Called for each problem met (bad base64, unknown charset, a message
    /// that could not be parsed): the message's line, and what was wrong.
    /// Does nothing by default.
    fn warning(&mut self, message_line: u64, warning: &str) {
        let _ = (message_line, warning);
    }
}

impl<F: FnMut(&MailFound<'_>) -> io::Result<bool>> MailSink for F {
    fn found(&mut self, found: &MailFound<'_>) -> io::Result<bool> {
        self(found)
    }
}

/// Scans every message of `rdr` (an mbox or one message), one message at a
/// time: memory is bounded by the largest message ([`MAX_MESSAGE`]).
///
/// To scan the messages of one input on several threads, split it with
/// [`Messages`] and give each message to [`scan_message`].
///
/// # Errors
///
/// A read error, or the first error `sink` returns.
pub fn scan_mail<R: Read, S: MailSink>(scanner: &Scanner, rdr: R, sink: &mut S) -> io::Result<()> {
    scan_messages(scanner, Messages::new(rdr), sink)
}

/// [`scan_mail`] for input already split into `messages`, such as
/// [`Messages::with_prefix`] gives when the start of the input was read to
/// probe it.
///
/// # Errors
///
/// A read error, or the first error `sink` returns.
pub fn scan_messages<R: Read, S: MailSink>(
    scanner: &Scanner,
    mut messages: Messages<R>,
    sink: &mut S,
) -> io::Result<()> {
    loop {
        match messages.next_message()? {
            None => return Ok(()),
            Some(Item::Message(message)) => {
                if !scan_message(scanner, &message, sink)? {
                    return Ok(());
                }
            }
            Some(Item::TooLarge { line }) => {
                return scan_too_large(scanner, messages, line, sink);
            }
        }
    }
}

/// What [`scan_mail`] does after [`Item::TooLarge`]: warns, then streams
/// the rest of the input through the plain scanner in bounded memory,
/// reporting each URI as part `raw` of the message at `line`.
///
/// # Errors
///
/// A read error, or the first error `sink` returns.
pub fn scan_too_large<R: Read, S: MailSink>(
    scanner: &Scanner,
    messages: Messages<R>,
    line: u64,
    sink: &mut S,
) -> io::Result<()> {
    sink.warning(
        line,
        "message larger than 16 MiB: it and the rest of the input are scanned as raw text",
    );
    scanner.scan_reader(messages.into_rest(), |found: &Found<'_>| {
        sink.found(&MailFound {
            found: found.clone(),
            message_id: None,
            message_line: line,
            part: "raw",
        })
    })
}

/// The MIME parser, built once: it parses only the MIME headers (which
/// decoding needs) and skips the others, which [`Head`] reads raw.
fn mime_parser() -> &'static MessageParser {
    static PARSER: OnceLock<MessageParser> = OnceLock::new();
    PARSER.get_or_init(|| {
        MessageParser::new()
            .with_mime_headers()
            .default_header_ignore()
    })
}

/// Scans one message: its header values, then each text part, decoded.
/// Returns false when the sink asked to stop.
///
/// # Errors
///
/// The first error `sink` returns.
pub fn scan_message<S: MailSink>(
    scanner: &Scanner,
    message: &RawMessage,
    sink: &mut S,
) -> io::Result<bool> {
    let head = Head::parse(&message.bytes);
    let place = Place {
        scanner,
        message_id: head.message_id,
        line: message.line,
    };
    if !place.scan_head(&head, sink)? {
        return Ok(false);
    }
    // A plain text body is decoded here, without the MIME parser; one
    // whose transfer encoding is broken goes to the parser, which reads
    // what it can and says so.
    let text = match head.coding() {
        Coding::Plain => Some(undeclared::decode(head.body)),
        Coding::QuotedPrintable => quoted_printable_decode(head.body).map(Cow::Owned),
        Coding::Base64 => base64_decode(head.body).map(Cow::Owned),
        Coding::Mime => None,
    };
    if let Some(text) = text {
        return place.scan_text(&text, Part::Named("text/plain"), sink);
    }
    let mime = head.mime_message();
    match mime_parser().parse(&mime) {
        Some(parsed) => place.scan_parts(&parsed, sink),
        None => {
            sink.warning(message.line, "not a parseable message; scanned as raw text");
            place.scan_text(head.body, Part::Named("raw"), sink)
        }
    }
}

/// The message being scanned, and what each URI found in it is reported
/// with.
struct Place<'a> {
    scanner: &'a Scanner,
    message_id: Option<&'a str>,
    line: u64,
}

impl Place<'_> {
    /// Scans each header field's value.
    fn scan_head<S: MailSink>(&self, head: &Head<'_>, sink: &mut S) -> io::Result<bool> {
        for field in &head.fields {
            if !self.scan_text(field.value, Part::Header(field.name), sink)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Scans the parts of a parsed message: text and HTML decoded, nested
    /// messages (`message/rfc822`, digests) with their own headers, and, in
    /// a multipart, the text around the parts (where some mailing lists put
    /// their footer).
    fn scan_parts<S: MailSink>(&self, message: &Message<'_>, sink: &mut S) -> io::Result<bool> {
        let raw = &message.raw_message[..];
        let Some(root) = message.parts.first() else {
            return Ok(true);
        };
        // Where the text outside the parts seen so far starts, in a multipart.
        let mut outside = matches!(root.body, PartType::Multipart(_)).then_some(root.offset_body);
        for part in &message.parts {
            if matches!(part.body, PartType::Multipart(_)) {
                continue;
            }
            if let Some(start) = outside.replace(part.offset_end) {
                if !self.scan_outside(raw, start, part.offset_header, "preamble", sink)? {
                    return Ok(false);
                }
            }
            if part.is_encoding_problem {
                sink.warning(
                    self.line,
                    "a part's transfer encoding is malformed; scanned what could be decoded",
                );
            }
            // Text that was not transfer-decoded may still be
            // quoted-printable that does not say so.
            let as_sent = |bytes| match part.encoding {
                Encoding::None => undeclared::decode(bytes),
                _ => Cow::Borrowed(bytes),
            };
            let ct = part.content_type();
            let more = match &part.body {
                PartType::Text(text) => self.scan_text(
                    &unflow(as_sent(text.as_bytes()), ct),
                    ct.map_or(Part::Named("text/plain"), Part::Mime),
                    sink,
                )?,
                PartType::Html(html) => self.scan_text(
                    &html::scannable_text(&as_sent(html.as_bytes())),
                    Part::Named("text/html"),
                    sink,
                )?,
                PartType::Message(nested) => {
                    self.scan_head(&Head::parse(nested.raw_message()), sink)?
                        && self.scan_parts(nested, sink)?
                }
                // What could not be decoded (a nested message that does not
                // parse) is read as it is.
                PartType::Binary(bytes) | PartType::InlineBinary(bytes)
                    if part.is_encoding_problem =>
                {
                    self.scan_text(bytes, Part::Named("raw"), sink)?
                }
                _ => true,
            };
            if !more {
                return Ok(false);
            }
        }
        match outside {
            Some(start) => self.scan_outside(raw, start, root.offset_end, "epilogue", sink),
            None => Ok(true),
        }
    }

    /// Scans `raw[start..end]`, text of a multipart outside its parts (its
    /// boundary lines, which hold no URI, and the preamble or epilogue),
    /// as it is.
    fn scan_outside<S: MailSink>(
        &self,
        raw: &[u8],
        start: u32,
        end: u32,
        label: &'static str,
        sink: &mut S,
    ) -> io::Result<bool> {
        match raw.get(start as usize..(end as usize).min(raw.len())) {
            Some(text) => self.scan_text(text, Part::Named(label), sink),
            None => Ok(true),
        }
    }

    fn scan_text<S: MailSink>(
        &self,
        text: &[u8],
        part: Part<'_>,
        sink: &mut S,
    ) -> io::Result<bool> {
        // The label is made once, for the first URI found.
        let mut label = None;
        for found in self.scanner.find_iter(text) {
            let label: &str = label.get_or_insert_with(|| part.label());
            let f = MailFound {
                found,
                message_id: self.message_id,
                message_line: self.line,
                part: label,
            };
            if !sink.found(&f)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Joins the lines of a `format=flowed` text (RFC 3676): a line ending in a
/// space continues on the next one (losing that space with `delsp=yes`).
fn unflow<'a>(
    text: Cow<'a, [u8]>,
    content_type: Option<&mail_parser::ContentType<'_>>,
) -> Cow<'a, [u8]> {
    let Some(ct) = content_type else { return text };
    if !ct
        .attribute("format")
        .is_some_and(|f| f.eq_ignore_ascii_case("flowed"))
    {
        return text;
    }
    let delsp = ct
        .attribute("delsp")
        .is_some_and(|d| d.eq_ignore_ascii_case("yes"));
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let flowed = body.ends_with(b" ") && body != b"-- ";
        if flowed {
            out.extend_from_slice(if delsp { &body[..body.len() - 1] } else { body });
        } else {
            out.extend_from_slice(line);
        }
    }
    Cow::Owned(out)
}

/// Which part of a message a text is, named only when a URI is found in it.
#[derive(Clone, Copy)]
enum Part<'a> {
    Named(&'static str),
    /// A header field, by name (empty for a line that is not a field).
    Header(&'a [u8]),
    /// A text part, by its content type.
    Mime(&'a mail_parser::ContentType<'a>),
}

impl Part<'_> {
    fn label(self) -> String {
        match self {
            Part::Named(name) => name.to_string(),
            Part::Header(b"") => "header".to_string(),
            Part::Header(name) => format!("header:{}", String::from_utf8_lossy(name)),
            Part::Mime(ct) => match ct.subtype() {
                Some(sub) => format!("{}/{}", ct.ctype(), sub).to_ascii_lowercase(),
                None => ct.ctype().to_ascii_lowercase(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    impl MailSink for Collect {
        fn found(&mut self, f: &MailFound<'_>) -> io::Result<bool> {
            self.uris
                .push((f.part.to_string(), f.found.as_str().to_string()));
            Ok(true)
        }

        fn warning(&mut self, _line: u64, warning: &str) {
            self.warnings.push(warning.to_string());
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
        // Latin-1 quoted-printable: the URI comes out whole, whatever the
        // charset (it is not decoded: URIs are ASCII).
        let latin1 = b"Subject: a\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9 <http://x.org/lo=\nng?a=3Db>=E9\n";
        assert_eq!(
            uris(latin1),
            [("text/plain".into(), "http://x.org/long?a=b".into())]
        );
        // Broken encodings go to the MIME parser, which scans what it can
        // (the raw text, or what decodes) and says so.
        for (broken, expected) in [
            (
                &b"Subject: a\nContent-Transfer-Encoding: quoted-printable\n\nsee http://x.org/a==3D\n"[..],
                ("text/plain".to_string(), "http://x.org/a==3D".to_string()),
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
        scan_mail(&Scanner::new(), &mbox[..], &mut |f: &MailFound<'_>| {
            all.push((
                f.message_line,
                f.message_id.map(str::to_string),
                f.part.to_string(),
                f.found.as_str().to_string(),
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
