//! The MIME structure of a message, found without the MIME parser: where
//! each leaf part's header block, body and end are, and whether it is text.
//!
//! The MIME parser (`mail-parser`) reads a multipart body byte by byte to
//! find its boundaries, and converts every text part to a `String`: 11% of
//! mail mode's instructions over the shared mail archives, for a structure
//! that most messages write plainly. [`walk`] finds the same structure with
//! one `memmem` search per part, for messages written plainly; for any
//! other (a forwarded message, a digest, UTF-16 text, a header block or
//! `Content-Type` it does not read as simply as the parser would, a
//! boundary missing) it answers `None`, and the MIME parser reads the
//! message as before.
//!
//! It walks the copy the parser is given (see [`super::mime`], which
//! renames some fields, and a body line's text where it reads like one),
//! and finds what the parser finds there, boundary for boundary, because
//! it searches the same way: the parser takes the first `--boundary`
//! after a point, wherever it stands in its line, and ends a part's body
//! at the line break before it (at the `--` itself when it does not start
//! a line). In tests every
//! message walked is read both ways, and the parts compared: the messages
//! of the tests, generated multiparts, and all of the shared mail
//! archives.

use std::sync::LazyLock;

use memchr::memmem;

use encoding_rs::Encoding;

use super::charset;
use super::header::{Field, Head};
use super::mime::{is_mime_field, names_wide_charset, CHARSET_NAMES};

#[cfg(test)]
thread_local! {
    /// How many messages this thread walked and compared with the MIME
    /// parser's reading (in tests).
    pub(super) static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How deep multiparts may nest before the walk leaves the message to the
/// MIME parser (which has no such limit, but reads such a message the
/// same).
const MAX_DEPTH: usize = 32;

/// A message's structure, as the MIME parser gives it for what it is read
/// for: its leaf parts, in order (offsets in the copy walked).
#[derive(Debug)]
pub(super) struct Structure {
    /// The body is a multipart: the text around its parts is scanned too.
    pub multipart: bool,
    /// Where the message's body starts.
    pub body: usize,
    pub leaves: Vec<Leaf>,
}

/// A part that is not a multipart: its header block starts at `header`,
/// its body runs from `body` to `end`.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Leaf {
    pub header: usize,
    pub body: usize,
    pub end: usize,
    /// How it is read, when it is text.
    pub text: Option<TextType>,
}

/// A text part's type, as the scan reads it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TextType {
    /// `text/html`.
    pub html: bool,
    /// Its subtype in lower case, `None` when no `Content-Type` names it
    /// (`text/plain`).
    pub subtype: Option<String>,
    /// `Some(delsp)` for `format=flowed` (not for HTML).
    pub flowed: Option<bool>,
    /// The charset its text is converted from (see `charset`).
    pub charset: Option<&'static Encoding>,
}

/// The structure of the message whose header block is `head`, walked in
/// `copy` (the MIME parser's copy of it, `mime::structure_copy`), when it
/// is written plainly (see the module docs); `None` leaves it to the MIME
/// parser. (A part's transfer encoding is read in the message: the copy
/// hides it.)
pub(super) fn walk(copy: &[u8], head: &Head<'_>) -> Option<Structure> {
    // The parser reads the message's MIME fields (see `mime`): they must
    // read as plainly as a part's.
    let mut mime_fields = head.fields.iter().filter(|f| is_mime_field(f.name));
    if mime_fields.any(|f| has_blank_line(f.value)) || !has_one_of_each(head) {
        return None;
    }
    let body = copy.len() - head.body.len();
    let mut walk = Walk {
        bytes: copy,
        leaves: Vec::new(),
    };
    match Kind::of(&head.fields)? {
        Kind::Multipart { boundary } => {
            walk.multipart(body, &boundary, 0)?;
            Some(Structure {
                multipart: true,
                body,
                leaves: walk.leaves,
            })
        }
        Kind::Leaf(text) => Some(Structure {
            multipart: false,
            body,
            leaves: vec![Leaf {
                header: 0,
                body,
                end: copy.len(),
                text,
            }],
        }),
    }
}

struct Walk<'a> {
    bytes: &'a [u8],
    leaves: Vec<Leaf>,
}

impl Walk<'_> {
    /// Walks the multipart whose body starts at `from`, as the MIME parser
    /// does: its first `--boundary`, then part after part, each ended by
    /// the next `--boundary`, until one is followed by `--`. Returns where
    /// that closing `--` ends.
    fn multipart(&mut self, from: usize, boundary: &[u8], depth: usize) -> Option<usize> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let delimiter = [b"--", boundary].concat();
        let finder = memmem::Finder::new(&delimiter);
        let find = |at: usize| finder.find(&self.bytes[at..]).map(|p| at + p);
        // The parser skips blanks and one line break after the first
        // delimiter; the part's header block must start on the next line.
        let mut at = find(from)? + delimiter.len();
        while matches!(self.bytes.get(at), Some(b' ' | b'\t' | b'\r')) {
            at += 1;
        }
        if self.bytes.get(at) != Some(&b'\n') {
            return None;
        }
        at += 1;
        loop {
            let header = at;
            let head = Head::parse(&self.bytes[header..]);
            if !is_plain_block(&head) {
                return None;
            }
            let body = self.bytes.len() - head.body.len();
            let delimiter_at = match Kind::of(&head.fields)? {
                Kind::Multipart { boundary: inner } => {
                    let after = self.multipart(body, &inner, depth + 1)?;
                    find(after)?
                }
                Kind::Leaf(text) => {
                    let next = find(body)?;
                    self.leaves.push(Leaf {
                        header,
                        body,
                        end: part_end(self.bytes, body, next),
                        text,
                    });
                    next
                }
            };
            at = delimiter_at + delimiter.len();
            // After a delimiter: `--` closes the multipart, a line break
            // starts the next part's header block; anything else the
            // parser reads its own way.
            match &self.bytes[at..] {
                [b'-', b'-', ..] => return Some(at + 2),
                [b'\n', ..] => at += 1,
                [b'\r', b'\n', ..] => at += 2,
                _ => return None,
            }
        }
    }
}

/// Where the MIME parser ends a part whose body starts at `body` and whose
/// next delimiter starts at `next`: at the line break before it (its CR
/// LF, or LF), or at the delimiter itself when it does not start a line.
/// Only the body's own bytes count: a delimiter right at `body` ends it
/// empty.
fn part_end(bytes: &[u8], body: usize, next: usize) -> usize {
    if next == body || bytes[next - 1] != b'\n' {
        next
    } else if next >= body + 2 && bytes[next - 2] == b'\r' {
        next - 2
    } else {
        next - 1
    }
}

/// Returns true if the header block `head` is one the MIME parser reads as
/// `Head` does: every line a `Name:` field or its folded continuation,
/// ended by a blank line, no folded line of blanks alone (see
/// [`has_blank_line`]), and at most one `Content-Type` and one
/// `Content-Transfer-Encoding` field.
fn is_plain_block(head: &Head<'_>) -> bool {
    !head.body.is_empty()
        && head
            .fields
            .iter()
            .all(|f| !f.name.is_empty() && !has_blank_line(f.value))
        && has_one_of_each(head)
}

/// Returns true if a field's `value` holds a folded line of blanks alone
/// (the MIME parser reads it as a folded line too; a header block with
/// one is left to it all the same).
fn has_blank_line(value: &[u8]) -> bool {
    value
        .split(|&b| b == b'\n')
        .skip(1)
        .any(|line| !line.is_empty() && line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')))
}

/// Returns true if `head` holds at most one `Content-Type` and one
/// `Content-Transfer-Encoding` field, hidden or not (with two, which one
/// the parser heeds is its own; the copy it is given keeps a block's
/// first encoding only, see `mime`).
fn has_one_of_each(head: &Head<'_>) -> bool {
    let count = |rest_of_name: &[u8]| {
        head.fields
            .iter()
            .filter(|f| {
                matches!(f.name.first(), Some(b'c' | b'C' | b'x' | b'X'))
                    && f.name[1..].eq_ignore_ascii_case(rest_of_name)
            })
            .count()
    };
    count(b"ontent-type") <= 1 && count(b"ontent-transfer-encoding") <= 1
}

/// What a part is, by its `Content-Type`.
enum Kind {
    /// A multipart, with its boundary.
    Multipart { boundary: Vec<u8> },
    /// A part read as it is: text, or not.
    Leaf(Option<TextType>),
}

impl Kind {
    /// The kind of a part with these header fields, or `None` when the
    /// walk leaves the message to the MIME parser: a forwarded message,
    /// a digest (whose parts default to messages), a multipart without a
    /// boundary, text in a charset the parser converts (UTF-16, UTF-32,
    /// UTF-7), or a `Content-Type` not written plainly.
    fn of(fields: &[Field<'_>]) -> Option<Kind> {
        let Some(field) = fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(b"content-type"))
        else {
            return Some(Kind::Leaf(Some(TextType {
                html: false,
                subtype: None,
                flowed: None,
                charset: None,
            })));
        };
        let ct = ContentType::parse(field.value)?;
        let is = |ctype: &[u8]| ct.ctype.eq_ignore_ascii_case(ctype);
        if is(b"multipart") && !ct.subtype.eq_ignore_ascii_case(b"digest") {
            // An empty boundary is no boundary to the parser.
            let boundary = ct.param(b"boundary").filter(|b| !b.is_empty())?;
            Some(Kind::Multipart {
                boundary: boundary.to_vec(),
            })
        } else if is(b"multipart") || is(b"message") {
            None
        } else if is(b"text") || is(b"xext") {
            // (`xext` is a text type the copy hides: see `mime`.) The copy
            // hides a text part's charset and type unless it names a wide
            // charset: the parser then converts it, and the walk leaves
            // it. (The copy renames a value's first `charset` only, and
            // tells a wide one as the walk does here. A value is short: a
            // plain search of its bytes.)
            static CHARSET: LazyLock<memmem::Finder<'static>> =
                LazyLock::new(|| memmem::Finder::new(b"charset"));
            let value = field.value.to_ascii_lowercase();
            let mut charsets = CHARSET.find_iter(&value);
            let wide = charsets
                .next()
                .is_some_and(|at| names_wide_charset(&value[at..]));
            if wide || charsets.next().is_some() {
                return None;
            }
            let html = ct.subtype.eq_ignore_ascii_case(b"html");
            let flowed = (!html
                && ct
                    .param(b"format")
                    .is_some_and(|f| f.eq_ignore_ascii_case(b"flowed")))
            .then(|| {
                ct.param(b"delsp")
                    .is_some_and(|d| d.eq_ignore_ascii_case(b"yes"))
            });
            let charset = CHARSET_NAMES
                .iter()
                .find_map(|name| ct.param(name.as_bytes()))
                .and_then(charset::encoding_for);
            Some(Kind::Leaf(Some(TextType {
                html,
                subtype: Some(lower(ct.subtype)),
                flowed,
                charset,
            })))
        } else {
            Some(Kind::Leaf(None))
        }
    }
}

/// The charset the `Content-Type` of a header block with these fields
/// names, when its text is converted from it (see `charset`): `Some(None)`
/// when there is none to convert from, and `None` when the value is not
/// written plainly (RFC 2231 parameters, comments: the MIME parser reads
/// it).
pub(super) fn charset_of(fields: &[Field<'_>]) -> Option<Option<&'static Encoding>> {
    let Some(field) = fields
        .iter()
        .find(|f| f.name.eq_ignore_ascii_case(b"content-type"))
    else {
        return Some(None);
    };
    let ct = ContentType::parse(field.value)?;
    Some(ct.param(b"charset").and_then(charset::encoding_for))
}

/// The most parameters a `Content-Type` value read by the walk holds (a
/// plain one holds one to three).
const MAX_PARAMS: usize = 16;

/// A `Content-Type` value written plainly: `type/subtype`, then
/// `; name=value` parameters whose values are tokens or quoted strings
/// without escapes. Type, subtype and names as written (they compare in
/// any case).
struct ContentType<'a> {
    ctype: &'a [u8],
    subtype: &'a [u8],
    params: Vec<(&'a [u8], &'a [u8])>,
}

impl<'a> ContentType<'a> {
    /// Reads `value`, or `None` when it holds anything else (comments,
    /// escapes, RFC 2231 parameters, bytes that are not ASCII, a quoted
    /// value with blanks at its ends, a parameter named twice), which the
    /// MIME parser reads its own way.
    fn parse(value: &'a [u8]) -> Option<ContentType<'a>> {
        let mut at = skip_blanks(value, 0);
        let (ctype, after) = token(value, at)?;
        if value.get(after) != Some(&b'/') {
            return None;
        }
        let (subtype, after) = token(value, after + 1)?;
        let mut ct = ContentType {
            ctype,
            subtype,
            params: Vec::new(),
        };
        at = skip_blanks(value, after);
        while at < value.len() {
            if value[at] != b';' {
                return None;
            }
            at = skip_blanks(value, at + 1);
            if at == value.len() {
                break;
            }
            // `name=value`, nothing between (the parser reads a line
            // folded around the `=` its own way).
            let (name, after) = token(value, at)?;
            if value.get(after) != Some(&b'=') || name.contains(&b'*') {
                return None;
            }
            at = after + 1;
            let (param, after) = if value.get(at) == Some(&b'"') {
                let len = memchr::memchr(b'"', &value[at + 1..])?;
                let quoted = &value[at + 1..at + 1 + len];
                // The parser decodes an RFC 2047 encoded word (`=?…?=`)
                // in a quoted value.
                if quoted.trim_ascii().len() != quoted.len()
                    || quoted.windows(2).any(|w| w == b"=?")
                    || quoted
                        .iter()
                        .any(|&b| b == b'\\' || b == b'\n' || b == b'\r' || !b.is_ascii())
                {
                    return None;
                }
                (quoted, at + len + 2)
            } else {
                token(value, at)?
            };
            // A parameter named twice (which one the parser heeds is its
            // own), or more than a plain value holds (each name is
            // compared with those before it).
            if ct.param(name).is_some() || ct.params.len() == MAX_PARAMS {
                return None;
            }
            ct.params.push((name, param));
            at = skip_blanks(value, after);
        }
        Some(ct)
    }

    /// The value of the parameter `name` (any case).
    fn param(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, value)| value)
    }
}

/// The RFC 2045 token at `value[at..]` and where it ends, if one starts
/// there.
fn token(value: &[u8], at: usize) -> Option<(&[u8], usize)> {
    let len = value[at.min(value.len())..]
        .iter()
        .take_while(|&&b| {
            b.is_ascii_graphic()
                && !matches!(
                    b,
                    b'(' | b')'
                        | b'<'
                        | b'>'
                        | b'@'
                        | b','
                        | b';'
                        | b':'
                        | b'\\'
                        | b'"'
                        | b'/'
                        | b'['
                        | b']'
                        | b'?'
                        | b'='
                )
        })
        .count();
    (len > 0).then(|| (&value[at..at + len], at + len))
}

/// `token` in ASCII lower case.
fn lower(token: &[u8]) -> String {
    String::from_utf8(token.to_ascii_lowercase()).expect("a token is ASCII")
}

/// Where the blanks (spaces, tabs, line breaks of folded lines) from `at`
/// end.
fn skip_blanks(value: &[u8], at: usize) -> usize {
    at + value[at.min(value.len())..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .count()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    use super::*;
    use crate::mail::Messages;

    /// The structure walked in the MIME parser's copy of `raw` (a
    /// message), if walked, and that copy; reading its parts also compares
    /// them with the MIME parser's (in tests, every message walked is read
    /// both ways).
    fn walked_copy(raw: &[u8]) -> (Option<Structure>, Vec<u8>) {
        let message = Messages::new(raw).next().expect("a message").unwrap();
        let _ = message.parts();
        let head = Head::parse(raw);
        let copy = super::super::mime::structure_copy(&head);
        (walk(&copy, &head), copy)
    }

    fn walked(raw: &[u8]) -> Option<Structure> {
        walked_copy(raw).0
    }

    #[test]
    fn leaves_end_at_the_line_break_before_the_next_delimiter() {
        let raw = b"Subject: s\nContent-Type: multipart/alternative;\n boundary=\"b 1\"\n\npre --b 2\n--b 1\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nsee http://a.org/\r\n--b 1\nContent-Type: multipart/mixed; boundary=inner\n\n--inner\n\nno header http://b.org/ --inner\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\nAAAA\n--inner--\nafter inner\n--b 1\nContent-Type: TEXT/HTML\n\n<a href=\"http://c.org/\">c</a>\n--b 1--\nepilogue http://d.org/\n";
        let (structure, copy) = walked_copy(raw);
        let structure = structure.expect("walked");
        let at = |s: &str| memmem::find(&copy, s.as_bytes()).unwrap();
        assert!(structure.multipart);
        assert_eq!(structure.body, at("pre --b 2"));
        let text = |html, subtype: Option<&str>, charset: &str| {
            Some(TextType {
                html,
                subtype: subtype.map(String::from),
                flowed: None,
                charset: charset::encoding_for(charset.as_bytes()),
            })
        };
        assert_eq!(
            structure.leaves,
            [
                Leaf {
                    header: at("--b 1\n") + 6,
                    body: at("see"),
                    end: at("\r\n--b 1"),
                    text: text(false, Some("plain"), "iso-8859-1"),
                },
                // No header block: text/plain; ended mid-line, at the `--`.
                Leaf {
                    header: at("--inner\n") + 8,
                    body: at("no header"),
                    end: at(" --inner\n") + 1,
                    text: text(false, None, ""),
                },
                Leaf {
                    header: at("Content-Type: image"),
                    body: at("AAAA"),
                    end: at("AAAA") + 4,
                    text: None,
                },
                // The copy hides a text type: `xEXT/HTML`.
                Leaf {
                    header: at("Content-Type: xEXT"),
                    body: at("<a"),
                    end: at("\n--b 1--"),
                    text: text(true, Some("html"), ""),
                },
            ]
        );
    }

    #[test]
    fn what_is_not_written_plainly_is_left_to_the_mime_parser() {
        let multipart = |head: &str, parts: &str| {
            format!("Content-Type: multipart/mixed; boundary=b\n\n--b\n{head}\n\n{parts}\n--b--\n")
        };
        let left = [
            multipart(
                "Content-Type: message/rfc822",
                "Subject: x\n\nhttp://a.org/",
            ),
            multipart("Content-Type: text/plain; charset=UTF-16", "x"),
            multipart("Content-Type: text/plain; charset=\"utf-32le\"", "x"),
            multipart("Content-Type: text/plain; charset=Utf-7", "x"),
            // The copy renames the first `charset` only: two are left.
            multipart(
                "Content-Type: text/plain; name=\"charset-charset.txt\"; charset=us-ascii",
                "x",
            ),
            multipart("Content-Type: text/plain; title*0=a", "x"),
            multipart("Content-Type: text/plain (a comment)", "x"),
            multipart("Content-Type: text/plain; name=\"a\\\"b\"", "x"),
            multipart("Content-Type: multipart/mixed", "x"),
            multipart("not a field http://a.org/\nContent-Type: text/plain", "x"),
            multipart("Content-Type: text/plain\nContent-Type: text/html", "x"),
            multipart("Content-Type: text/plain\n  ", "x"),
            // A closing delimiter missing; a delimiter followed by more.
            "Content-Type: multipart/mixed; boundary=b\n\n--b\n\nhttp://a.org/\n".into(),
            "Content-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n--bb\n\ny\n--b--\n".into(),
            "Content-Type: multipart/digest; boundary=b\n\n--b\n\nSubject: x\n\ny\n--b--\n".into(),
            // No delimiter at all; an empty boundary.
            "Content-Type: multipart/mixed; boundary=b\n\nhttp://a.org/\n".into(),
            "Content-Type: multipart/mixed; boundary=\"\"\n\n--\n\nx\n----\n".into(),
            multipart("Content-Type: text/plain; format=flowed; format=fixed", "x"),
            multipart("Content-Type: text/plain; name=\" a\"", "x"),
            // An encoded word in a quoted value; a line folded around `=`.
            "Content-Type: multipart/mixed; boundary=\"=?us-ascii?q?b?=\"\n\n--=?us-ascii?q?b?=\n\nx\n--=?us-ascii?q?b?=--\n".into(),
            multipart("Content-Type: text/plain; format=\"=?us-ascii?q?flowed?=\"", "x"),
            "Content-Type: multipart/mixed; boundary=\n \"b\"\n\n--b\n\nx\n--b--\n".into(),
            "Content-Type: multipart/mixed; boundary\n =b\n\n--b\n\nx\n--b--\n".into(),
            format!(
                "Content-Type: multipart/mixed; boundary=b{}\n\n--b\n\nx\n--b--\n",
                (0..17).map(|i| format!("; p{i}=x")).collect::<String>()
            ),
            // Two of a field at the top; a MIME field folded over a blank line.
            "Content-Type: text/html\nContent-Type: text/plain\n\nx\n".into(),
            "Content-Type: multipart/mixed;\n \n boundary=b\n\n--b\n\nx\n--b--\n".into(),
        ];
        for raw in left {
            assert!(walked(raw.as_bytes()).is_none(), "{raw:?}");
        }
        let plain = [
            multipart(
                "Content-Type: text/plain; format=flowed; delsp=yes",
                "a \nb",
            ),
            multipart("Content-type: text/enriched", "x"),
            multipart("", "no header"),
            "Content-Type: text/html; charset=utf-8\n\n<p>http://a.org/</p>\n".into(),
            "Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n\nAAAA\n".into(),
            // A body line that reads like a MIME field is renamed in the
            // copy: a delimiter vanishes from it, or appears in it, and the
            // walk, which walks the copy, sees what the parser sees.
            "Content-Type: multipart/mixed; boundary=xharset\n\n--xharset\n\nhttp://a.org/\nContent-Type: text/plain; a=--charset\n\nhttp://b.org/\n--xharset--\n".into(),
            "Content-Type: multipart/mixed; boundary=c\n\n--c\nContent-Type: text/plain\n\nhttp://a.org/\nContent-Type: text/plain; a=--charset\nX-A: b\n\nhttp://b.org/\n--c--\n".into(),
        ];
        for raw in plain {
            assert!(walked(raw.as_bytes()).is_some(), "{raw:?}");
        }
    }

    /// Every message of the shared mail archives that is walked gives the
    /// parts the MIME parser gives (compared as it is read), and nearly
    /// all of their 3,905 MIME messages are walked.
    #[test]
    fn the_shared_mail_archives_are_walked_as_parsed() {
        let before = COMPARED.with(|n| n.get());
        if !crate::mail::scan_shared_mail_archives() {
            return;
        }
        let walked = COMPARED.with(|n| n.get()) - before;
        assert!(walked > 3_500, "{walked} messages walked");
    }

    /// One part of a generated multipart, or a nested multipart.
    fn part(depth: u32) -> impl Strategy<Value = String> {
        let header = prop::sample::select(vec![
            "",
            "Content-Type: text/plain\n",
            "Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n",
            "Content-Type: text/html; charset=\"utf-8\"\nContent-Transfer-Encoding: base64\n",
            "Content-Type: text/plain; format=flowed\n",
            "Content-Type: image/gif\nContent-Transfer-Encoding: base64\n",
            "Content-Disposition: inline\nContent-Type: application/octet-stream; name=a\n",
            "Content-Type: message/rfc822\n",
        ]);
        let body = prop::collection::vec(
            prop::sample::select(vec![
                "see http://a.org/x=\n",
                "PGEgaHJlZj0iaHR0cDovL2Iub3JnLyI+Yjwv\nYT4K\n",
                "--",
                "--b",
                "-",
                "\n",
                "\r\n",
                " ",
                "Content-Type: text/plain; charset=x\n",
                "<a href=\"http://c.org/\">c</a>",
                "http://d.org/",
                "Subject: s\n",
            ]),
            0..8,
        )
        .prop_map(|pieces| pieces.concat());
        let leaf = (header, body).prop_map(|(h, b)| format!("{h}\n{b}"));
        leaf.prop_recursive(depth, 8, 3, |inner| {
            multipart_body(inner).prop_map(|(boundary, body)| {
                format!("Content-Type: multipart/alternative; boundary=\"{boundary}\"\n\n{body}")
            })
        })
    }

    /// A boundary and a multipart body of parts drawn from `part`, with
    /// what may stand around its delimiters.
    fn multipart_body(
        part: impl Strategy<Value = String>,
    ) -> impl Strategy<Value = (String, String)> {
        let boundary = prop::sample::select(vec!["b", "b2", "=_x", "bb"]);
        let around = prop::sample::select(vec!["", "\n", "\r\n", "text ", "--\n", " \n"]);
        (
            boundary,
            prop::collection::vec((part, around.clone()), 0..4),
            around.clone(),
            around,
        )
            .prop_map(|(boundary, parts, preamble, epilogue)| {
                let mut body = preamble.to_string();
                for (part, after) in parts {
                    body.push_str(&format!("--{boundary}\n{part}{after}\n"));
                }
                body.push_str(&format!("--{boundary}--{epilogue}"));
                (boundary.to_string(), body)
            })
    }

    proptest! {
        #![proptest_config(Config {
            cases: 3_000,
            rng_seed: RngSeed::Fixed(0x6d69_6d65),
            failure_persistence: None,
            ..Config::default()
        })]

        /// Every generated multipart walked gives the MIME parser's parts
        /// (`walked` compares them when it walks).
        #[test]
        fn walked_multiparts_read_as_parsed((boundary, body) in multipart_body(part(3))) {
            let raw = format!("Subject: s\nContent-Type: multipart/mixed; boundary=\"{boundary}\"\n\n{body}");
            walked(raw.as_bytes());
        }
    }
}
