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
//!     uris.push((f.found.as_str().to_string(), f.part.clone(), f.message_line));
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
//! - **Parts**: text parts are decoded (transfer encoding, charset to
//!   UTF-8) by `mail-parser`, `format=flowed` lines are joined (RFC 3676,
//!   `delsp=yes` honoured), and the text is scanned by the Appendix C rules.
//!   HTML parts give their `href` and `src` values and their text, with
//!   character references decoded. Parts that are not text (images,
//!   archives) are skipped. Every header's value is scanned too
//!   (`List-Unsubscribe`, `List-Archive`, but also a `Subject` that names
//!   a page), labelled `header:NAME`.
//! - **Malformed mail** never stops a scan: what can be decoded is scanned,
//!   a message that cannot be parsed is scanned as raw text, and each
//!   problem is reported to [`MailSink::warning`].
//! - **Positions**: a URI in mail is placed by its message (the line where
//!   the message starts, its `Message-ID`) and its part; line and column
//!   within a decoded part say nothing about the file, so
//!   [`MailFound::found`]'s own positions are relative to the decoded part.

mod html;
mod mbox;
mod plain;

use std::borrow::Cow;
use std::io::{self, Read};

use mail_parser::{MessageParser, MimeHeaders, PartType};

use crate::scan::{Found, Scanner};

pub use self::mbox::looks_like_mail;

/// A URI found in a message.
#[derive(Debug)]
pub struct MailFound<'a> {
    /// The URI, with positions relative to the decoded part.
    pub found: Found<'a>,
    /// The message's `Message-ID`, without angle brackets, if it has one.
    pub message_id: Option<String>,
    /// The 1-based line of the input where the message starts.
    pub message_line: u64,
    /// Where in the message: `text/plain`, `text/html`, `header:List-Archive`,
    /// or `raw` for a message that could not be parsed.
    pub part: String,
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

/// Scans every message of `rdr` (an mbox or one message).
///
/// # Errors
///
/// A read error, or the first error `sink` returns.
pub fn scan_mail<R: Read, S: MailSink>(scanner: &Scanner, rdr: R, sink: &mut S) -> io::Result<()> {
    let mut messages = mbox::Messages::new(rdr);
    // Only what decoding needs is parsed; every other header stays raw
    // (parsing `Received` chains costs more than all the rest).
    let parser = MessageParser::new().with_mime_headers().with_message_ids();
    loop {
        match messages.next_message()? {
            None => return Ok(()),
            Some(mbox::Item::Message(raw)) => {
                if !scan_message(scanner, &parser, &raw.bytes, raw.line, sink)? {
                    return Ok(());
                }
            }
            Some(mbox::Item::TooLarge { line }) => {
                sink.warning(
                    line,
                    "message larger than 16 MiB: it and the rest of the input are scanned as raw text",
                );
                return scan_raw_rest(scanner, messages.into_rest(), line, sink);
            }
        }
    }
}

/// Streams the rest of an input through the plain scanner, in bounded
/// memory, reporting each URI as part `raw` of the message at `line`.
fn scan_raw_rest<R: Read, S: MailSink>(
    scanner: &Scanner,
    rest: R,
    line: u64,
    sink: &mut S,
) -> io::Result<()> {
    scanner.scan_reader(rest, |found: &Found<'_>| {
        sink.found(&MailFound {
            found: found.clone(),
            message_id: None,
            message_line: line,
            part: "raw".to_string(),
        })
    })
}

/// Scans one message; returns false when the sink asked to stop.
fn scan_message<S: MailSink>(
    scanner: &Scanner,
    parser: &MessageParser,
    raw: &[u8],
    line: u64,
    sink: &mut S,
) -> io::Result<bool> {
    if let Some(p) = plain::split(raw) {
        for (name, value) in p.headers {
            if !scan_text(scanner, value, p.message_id, line, Part::Header(name), sink)? {
                return Ok(false);
            }
        }
        return scan_text(
            scanner,
            p.body,
            p.message_id,
            line,
            Part::Named("text/plain"),
            sink,
        );
    }
    let Some(message) = parser.parse(raw) else {
        sink.warning(line, "not a parseable message; scanned as raw text");
        return scan_text(scanner, raw, None, line, Part::Named("raw"), sink);
    };
    let id = message.message_id().map(str::to_string);
    let id = id.as_deref();
    for (name, value) in message.headers_raw() {
        if !scan_text(
            scanner,
            value.as_bytes(),
            id,
            line,
            Part::Header(name),
            sink,
        )? {
            return Ok(false);
        }
    }
    for part in &message.parts {
        if part.is_encoding_problem {
            sink.warning(
                line,
                "a part's transfer encoding is malformed; scanned what could be decoded",
            );
        }
        let (text, label): (Cow<'_, str>, &str) = match &part.body {
            PartType::Text(text) => (
                unflow(Cow::Borrowed(text), part.content_type()),
                "text/plain",
            ),
            PartType::Html(html) => (Cow::Owned(html::scannable_text(html)), "text/html"),
            _ => continue,
        };
        if !scan_text(scanner, text.as_bytes(), id, line, Part::Named(label), sink)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Joins the lines of a `format=flowed` text (RFC 3676): a line ending in a
/// space continues on the next one (losing that space with `delsp=yes`).
fn unflow<'a>(
    text: Cow<'a, str>,
    content_type: Option<&mail_parser::ContentType<'_>>,
) -> Cow<'a, str> {
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
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\r', '\n']);
        let flowed = body.ends_with(' ') && body != "-- ";
        if flowed {
            out.push_str(if delsp { &body[..body.len() - 1] } else { body });
        } else {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

/// Which part of a message a text is, named only when a URI is found in it.
#[derive(Clone, Copy)]
enum Part<'a> {
    Named(&'static str),
    Header(&'a str),
}

impl Part<'_> {
    fn label(self) -> String {
        match self {
            Part::Named(name) => name.to_string(),
            Part::Header(name) => format!("header:{name}"),
        }
    }
}

fn scan_text<S: MailSink>(
    scanner: &Scanner,
    text: &[u8],
    message_id: Option<&str>,
    message_line: u64,
    part: Part<'_>,
    sink: &mut S,
) -> io::Result<bool> {
    for found in scanner.find_iter(text) {
        let f = MailFound {
            found,
            message_id: message_id.map(str::to_string),
            message_line,
            part: part.label(),
        };
        if !sink.found(&f)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(raw: &[u8]) -> Vec<(String, String)> {
        let mut all = Vec::new();
        scan_mail(&Scanner::new(), raw, &mut |f: &MailFound<'_>| {
            all.push((f.part.clone(), f.found.as_str().to_string()));
            Ok(true)
        })
        .unwrap();
        all
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
    fn headers_and_message_positions() {
        let mbox = b"From a Mon Jan 1 00:00:00 2024\nMessage-ID: <m1@x>\nList-Archive: <https://lists.example.org/archive/>\nSubject: a\n\nbody http://one.example/\n\nFrom b Mon Jan 1 00:00:00 2024\nSubject: b\nFrom: q@r\n\nhttp://two.example/\n";
        let mut all = Vec::new();
        scan_mail(&Scanner::new(), &mbox[..], &mut |f: &MailFound<'_>| {
            all.push((
                f.message_line,
                f.message_id.clone(),
                f.part.clone(),
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
    fn attachments_that_are_not_text_are_skipped() {
        let raw = b"Subject: a\nFrom: x@y\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\nhttp://text.example/\n--XX\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\naHR0cDovL2ltYWdlLmV4YW1wbGUv\n--XX--\n";
        assert_eq!(
            uris(raw),
            [("text/plain".into(), "http://text.example/".into())]
        );
    }
}
