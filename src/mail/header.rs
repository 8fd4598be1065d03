//! The header block of a message, read raw: its fields (to be scanned as
//! they are), its `Message-ID`, and how its body gives its text: as it is,
//! through one transfer decoding, or through the MIME parser.
//!
//! Reading the header block here rather than through `mail-parser` keeps
//! every header's bytes (a value that is not UTF-8 is still scanned) and
//! lets the MIME parser skip all headers but the MIME ones, which is where
//! most of its time went (`Received` chains).

use super::mime::names_wide_charset;

/// One header field: its name and its raw value, folded lines included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    /// The name, as written (empty for a line of the header block that is
    /// not a field: it is still scanned).
    pub name: &'a [u8],
    pub value: &'a [u8],
}

/// A message split at the end of its header block.
#[derive(Debug)]
pub struct Head<'a> {
    pub fields: Vec<Field<'a>>,
    /// The header block: the text of every field, in order, without the
    /// blank line that ends it. Each field's name and value are slices of
    /// it.
    pub block: &'a [u8],
    /// Everything after the blank line that ends the header block.
    pub body: &'a [u8],
    /// The `Message-ID`, without its angle brackets.
    pub message_id: Option<&'a str>,
}

/// How a message's body gives its text.
///
/// The first three are a body that is one `text/plain` part, not
/// `format=flowed`, in an ASCII-compatible charset: its URIs are those of
/// its bytes once transfer-decoded and converted from that charset (see
/// `charset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// Sent as it is: 7bit, 8bit, binary, or no transfer encoding named.
    Plain,
    /// Sent quoted-printable.
    QuotedPrintable,
    /// Sent in base64.
    Base64,
    /// Anything else (another type, a multipart, `format=flowed`, UTF-16,
    /// an unknown transfer encoding): the MIME parser reads it.
    Mime,
}

impl Coding {
    /// How a body with these header fields gives its text. Two
    /// `Content-Transfer-Encoding` fields that disagree leave it to the
    /// MIME parser.
    fn of(fields: &[Field<'_>]) -> Coding {
        let mut transfer = None;
        for field in fields {
            if field.name.eq_ignore_ascii_case(b"content-type") {
                if !is_plain_text(field.value) {
                    return Coding::Mime;
                }
            } else if field
                .name
                .eq_ignore_ascii_case(b"content-transfer-encoding")
            {
                let this = Coding::of_transfer(field.value);
                if transfer.replace(this).is_some_and(|before| before != this) {
                    return Coding::Mime;
                }
            }
        }
        transfer.unwrap_or(Coding::Plain)
    }

    /// The coding a `Content-Transfer-Encoding` value names, with any
    /// comment around it (RFC 2045 section 6.1 allows them:
    /// `quoted-printable (sent by foo)`) left out.
    pub fn of_transfer(value: &[u8]) -> Coding {
        let blanked;
        let value = if memchr::memchr(b'(', value).is_some() {
            let mut copy = value.to_vec();
            blank_comments(&mut copy);
            blanked = copy;
            &blanked
        } else {
            value
        };
        let value = value.trim_ascii();
        let is = |name: &str| value.eq_ignore_ascii_case(name.as_bytes());
        if is("7bit") || is("8bit") || is("binary") {
            Coding::Plain
        } else if is("quoted-printable") {
            Coding::QuotedPrintable
        } else if is("base64") {
            Coding::Base64
        } else {
            Coding::Mime
        }
    }
}

/// Blanks the comments of a field's `value` (`(...)`, nested or not, a
/// `\` in one quoting the byte after it, to the end of the value when one
/// is not closed): each of their bytes but line breaks becomes a space, so
/// the value keeps its length and lines. For a value without quoted
/// strings (a `Content-Transfer-Encoding`'s token): a `(` in one would be
/// taken for a comment's.
pub(super) fn blank_comments(value: &mut [u8]) {
    let (mut depth, mut quoted) = (0usize, false);
    for b in value {
        let was = *b;
        if (depth > 0 && !matches!(was, b'\r' | b'\n')) || was == b'(' {
            *b = b' ';
        }
        if std::mem::take(&mut quoted) {
            continue;
        }
        match was {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b'\\' if depth > 0 => quoted = true,
            _ => {}
        }
    }
}

impl<'a> Head<'a> {
    /// Splits `raw` at the blank line (`\n\n` or `\n\r\n`) that ends its
    /// header block, reading the fields on the way: a field runs to the
    /// next line that does not start with a space or a tab. A line with no
    /// `:` (not a field) is kept with an empty name, so that its text is
    /// scanned too. A message with no blank line is all header.
    pub fn parse(raw: &'a [u8]) -> Head<'a> {
        let mut head = Head {
            // Mailing lists' messages have some 50 fields.
            fields: Vec::with_capacity(64),
            block: raw,
            body: &raw[raw.len()..],
            message_id: None,
        };
        // INVARIANT: `field` is the start of the field that the line at
        // `at` continues, if any.
        let mut field = None;
        let mut at = 0;
        let mut line_ends = memchr::memchr_iter(b'\n', raw);
        while at < raw.len() {
            let line_end = line_ends.next().map_or(raw.len(), |p| p + 1);
            let line = &raw[at..line_end];
            if line == b"\n" || line == b"\r\n" {
                head.block = &raw[..at];
                head.body = &raw[line_end..];
                break;
            }
            if !matches!(line[0], b' ' | b'\t') || field.is_none() {
                if let Some(start) = field.replace(at) {
                    head.add(&raw[start..at]);
                }
            }
            at = line_end;
        }
        if let Some(start) = field {
            head.add(&raw[start..at]);
        }
        head
    }

    /// How the body gives its text, by the MIME fields.
    pub fn coding(&self) -> Coding {
        Coding::of(&self.fields)
    }

    /// The transfer encoding its `Content-Transfer-Encoding` field names
    /// (the first one), whatever the type.
    pub fn transfer_coding(&self) -> Coding {
        self.fields
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(b"content-transfer-encoding"))
            .map_or(Coding::Plain, |f| Coding::of_transfer(f.value))
    }

    /// Adds the field whose text (name, `:`, value) is `text`.
    fn add(&mut self, text: &'a [u8]) {
        let colon = field_name_end(text);
        let field = match colon {
            Some(c) => Field {
                name: &text[..c],
                value: &text[c + 1..],
            },
            None => Field {
                name: b"",
                value: text,
            },
        };
        if self.message_id.is_none() && field.name.eq_ignore_ascii_case(b"message-id") {
            self.message_id = message_id(field.value);
        }
        self.fields.push(field);
    }
}

/// Where the `:` after the field name `text` starts with is, if it starts
/// with one: RFC 5322 `field-name = 1*ftext` (printable ASCII but `:`).
/// Names are short: they are read byte by byte, up to the first byte that
/// is not `ftext` (one look-up each).
fn field_name_end(text: &[u8]) -> Option<usize> {
    /// Whether each byte is `ftext`.
    const FTEXT: [bool; 256] = {
        let mut ftext = [false; 256];
        let mut b = b'!';
        while b <= b'~' {
            ftext[b as usize] = b != b':';
            b += 1;
        }
        ftext
    };
    let len = text.iter().position(|&b| !FTEXT[usize::from(b)])?;
    (len > 0 && text[len] == b':').then_some(len)
}

/// Returns true if and only if a `Content-Type` value names plain text that
/// needs no decoding: `text/plain`, not flowed, in an ASCII-compatible
/// charset (not a wide one under any of its labels, as `mime` tells them,
/// nor any value that names UTF-16, UTF-32 or UTF-7 anywhere).
fn is_plain_text(value: &[u8]) -> bool {
    let value = value.trim_ascii();
    let lower = value.to_ascii_lowercase();
    let find = |needle: &[u8]| memchr::memmem::find(&lower, needle);
    let wide_charset = find(b"charset").is_some_and(|at| names_wide_charset(&lower[at..]));
    lower.starts_with(b"text/plain")
        && find(b"flowed").is_none()
        && find(b"utf-16").is_none()
        && find(b"utf-32").is_none()
        && find(b"utf-7").is_none()
        && !wide_charset
}

/// The id of a `Message-ID` value: what is inside its first `<...>`, or
/// the trimmed value when it has no brackets.
fn message_id(value: &[u8]) -> Option<&str> {
    let value = value.trim_ascii();
    let id = match memchr::memchr(b'<', value) {
        Some(lt) => {
            let inside = &value[lt + 1..];
            &inside[..memchr::memchr(b'>', inside).unwrap_or(inside.len())]
        }
        None => value,
    };
    let id = std::str::from_utf8(id.trim_ascii()).ok()?;
    (!id.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_body_and_message_id() {
        let raw = b"Message-ID: <a@b>\nSubject: see\n http://x.org/\nContent-Type: text/plain; charset=iso-8859-1\n\nbody\n";
        let head = Head::parse(raw);
        assert_eq!(head.message_id, Some("a@b"));
        assert_eq!(head.fields.len(), 3);
        assert_eq!(
            head.fields[1],
            Field {
                name: b"Subject",
                value: b" see\n http://x.org/\n"
            }
        );
        assert_eq!(head.body, b"body\n");
        assert_eq!(head.coding(), Coding::Plain);
    }

    #[test]
    fn how_the_body_gives_its_text() {
        for (head, coding) in [
            (&b"Subject: x\n\nbody"[..], Coding::Plain),
            (
                b"Content-Type: TEXT/PLAIN; charset=\"iso-8859-1\"\nContent-Transfer-Encoding: 8bit\n\nx",
                Coding::Plain,
            ),
            (
                b"Content-Transfer-Encoding: quoted-printable\n\nx",
                Coding::QuotedPrintable,
            ),
            (
                b"Content-Type: text/plain\r\nContent-Transfer-Encoding: BASE64\r\n\r\nx",
                Coding::Base64,
            ),
            (b"Content-Type: text/html\n\nx", Coding::Mime),
            (b"Content-Type: text/plain; format=flowed\n\nx", Coding::Mime),
            (b"Content-Type: text/plain; charset=UTF-16LE\n\nx", Coding::Mime),
            (b"Content-Type: multipart/mixed; boundary=x\n\nx", Coding::Mime),
            (b"Content-Transfer-Encoding: x-uuencode\n\nx", Coding::Mime),
            // The type decides whatever the order of the fields.
            (
                b"Content-Transfer-Encoding: base64\nContent-Type: image/png\n\nx",
                Coding::Mime,
            ),
            // Two transfer encodings that disagree: left to the MIME parser.
            (
                b"Content-Transfer-Encoding: 7bit\nContent-Transfer-Encoding: base64\n\nx",
                Coding::Mime,
            ),
            // Two that agree (a relay that added its own) are one.
            (
                b"Content-Transfer-Encoding: base64\nContent-Transfer-Encoding: BASE64\n\nx",
                Coding::Base64,
            ),
        ] {
            assert_eq!(
                Head::parse(head).coding(),
                coding,
                "{:?}",
                String::from_utf8_lossy(head)
            );
        }
    }

    #[test]
    fn odd_header_blocks() {
        // No header block at all.
        let head = Head::parse(b"\nhttp://x.org/\n");
        assert!(head.fields.is_empty());
        assert_eq!(head.body, b"http://x.org/\n");
        // A line that is not a field is kept, with an empty name.
        let head = Head::parse(b"Subject: a\nsee http://x.org/ now\r\n\r\nbody");
        assert_eq!(head.fields[1].name, b"");
        assert_eq!(head.fields[1].value, b"see http://x.org/ now\r\n");
        assert_eq!(head.body, b"body");
        // No blank line: all header.
        let head = Head::parse(b"Subject: a\nFrom: b");
        assert_eq!(head.fields.len(), 2);
        assert!(head.body.is_empty());
        assert_eq!(head.block, b"Subject: a\nFrom: b");
        // The block ends before the blank line, CR LF or not.
        assert_eq!(Head::parse(b"A: b\r\n\r\nbody").block, b"A: b\r\n");
        assert_eq!(Head::parse(b"A: b\n\nbody").block, b"A: b\n");
        assert_eq!(Head::parse(b"\r\nbody").block, b"");
        // A value that is not UTF-8 is still a field; a bad id is no id.
        let head = Head::parse(b"Subject: caf\xe9 http://x.org/\nMessage-ID: <\xff>\n\n");
        assert_eq!(head.fields[0].value, b" caf\xe9 http://x.org/\n");
        assert_eq!(head.message_id, None);
        assert_eq!(
            Head::parse(b"Message-Id:\n  <x@y> (added by z)\n\n").message_id,
            Some("x@y")
        );
    }
}
