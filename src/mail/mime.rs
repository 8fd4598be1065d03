//! The copy of a message given to the MIME parser, which is asked for the
//! message's structure only: where each part is, and its type. (Most
//! messages never reach the parser: their structure is walked, see
//! [`super::structure`].)
//!
//! Every text part is decoded by [`super::decode`], which knows where each
//! decoded byte came from; the MIME parser would decode it too (and
//! convert its charset, and base64-decode every attachment), work that was
//! a third of mail mode's. So in the parser's copy, each part's
//! `Content-Transfer-Encoding` field is renamed `Xontent-…`, and so are a
//! text part's `charset` parameter (`xharset`) and its type (`xext/plain`,
//! which the parser keeps as bytes instead of converting to a string):
//! the parser reads such a part as sent. Renaming keeps every length, so the parser's offsets are
//! those of the message; what the fields said is read back from the
//! message itself. Left as they are: forwarded messages (`message/*`) and
//! multiparts, which the parser must decode to read, and text in UTF-16,
//! UTF-32 or UTF-7, which only its conversion makes readable; and text
//! parts after a forwarded message sent encoded ([`hide_decodings`]). In
//! a `Content-Transfer-Encoding` left so, comments are blanked, since the
//! parser would not know the encoding they follow.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem;

use super::charset;
use super::header::{blank_comments, Coding, Head};

/// The message as the MIME parser needs it: the MIME fields (`Content-*`,
/// `MIME-Version`) of the header block, a blank line, the body, with the
/// fields that would make the parser decode renamed. The other fields (a
/// long `Received` chain, DKIM signatures) are left out: the parser would
/// only skip them, byte by byte.
pub fn structure_copy(head: &Head<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(head.body.len() + 512);
    let mut newline: &[u8] = b"\n";
    for field in &head.fields {
        let name = field.name;
        if is_mime_field(name) {
            out.extend_from_slice(name);
            out.push(b':');
            out.extend_from_slice(field.value);
            if field.value.ends_with(b"\r\n") {
                newline = b"\r\n";
            } else if !field.value.ends_with(b"\n") {
                out.extend_from_slice(newline);
            }
        }
    }
    out.extend_from_slice(newline);
    out.extend_from_slice(head.body);
    hide_decodings(&mut out);
    out
}

/// Returns true if the field `name` is one the copy keeps: `Content-*` or
/// `MIME-Version`, any case.
pub(super) fn is_mime_field(name: &[u8]) -> bool {
    name.len() > 8 && name[..8].eq_ignore_ascii_case(b"content-")
        || name.eq_ignore_ascii_case(b"mime-version")
}

/// The fields looked for, at the start of a line, any case.
const CONTENT_TYPE: &[u8] = b"content-type:";
const TRANSFER_ENCODING: &[u8] = b"content-transfer-encoding:";

/// Where each `Content-Type` and `Content-Transfer-Encoding` field of
/// `copy` starts (at a line's start), in order, with which it is.
///
/// Only the lines that start with `c` or `C` are read: two searches, for
/// `\nc` and `\nC`, find them. Before, the first byte of every line of
/// every body was looked at, line by line, and that was 3% of mail mode's
/// instructions.
fn mime_fields(copy: &[u8]) -> Vec<(&'static [u8], usize)> {
    static LINE_OF_C: LazyLock<[memmem::Finder<'static>; 2]> =
        LazyLock::new(|| [b"\nc", b"\nC"].map(memmem::Finder::new));
    let mut found: Vec<_> = LINE_OF_C
        .iter()
        .flat_map(|finder| finder.find_iter(copy))
        .map(|nl| nl + 1)
        .chain(std::iter::once(0))
        .filter_map(|at| mime_field_at(copy, at).map(|name| (name, at)))
        .collect();
    found.sort_unstable_by_key(|&(_, at)| at);
    found
}

/// Which of the fields looked for the line at `at` starts with, if any.
fn mime_field_at(copy: &[u8], at: usize) -> Option<&'static [u8]> {
    let line = &copy[at..];
    [CONTENT_TYPE, TRANSFER_ENCODING]
        .into_iter()
        .find(|name| line.len() >= name.len() && line[..name.len()].eq_ignore_ascii_case(name))
}

/// One header block's MIME fields: the value of its `Content-Type` and
/// where its first `Content-Transfer-Encoding` field starts.
#[derive(Default)]
struct Block {
    /// Where the block's last field found starts.
    last: usize,
    content_type: Option<Range<usize>>,
    transfer_encoding: Option<usize>,
}

/// Renames, in each header block of `copy`, the fields that would make
/// the MIME parser decode (see the module docs), and the block's
/// `Content-Transfer-Encoding` fields after its first, whatever its part:
/// a part is read by its first, ours as the parser's.
///
/// No text part's fields are renamed after a forwarded message that is
/// itself encoded (a `message/rfc822` part sent quoted-printable, which RFC
/// 2046 forbids but mail holds, or a `message/global` sent in base64): its
/// header blocks are written encoded, and the parser reads them decoded,
/// as the message's own, so that a field renamed there would be renamed in
/// the nested message too, and its text read as sent (`caf=E9` left as it
/// is). The blocks are not nested in the copy, so where the encoded
/// message ends is not known: the parser decodes the text parts after it
/// too (its work only: ours are decoded from the message's own bytes). The
/// other parts' fields are still renamed: their bodies are not read, and
/// the parser's decoding would only find the broken ones, and flag them to
/// be read as text.
fn hide_decodings(copy: &mut [u8]) {
    let mut seen = Seen::default();
    let mut block: Option<Block> = None;
    for (field, at) in mime_fields(copy) {
        if let Some(b) = &block {
            if has_blank_line(&copy[b.last..at]) {
                hide_in_block(copy, block.take().expect("a block"), &mut seen);
            }
        }
        let b = block.get_or_insert_with(Block::default);
        b.last = at;
        if field == CONTENT_TYPE {
            b.content_type = Some(value(copy, at + CONTENT_TYPE.len()));
        } else if b.transfer_encoding.is_some() {
            // A block's first encoding is the one it is read by, as
            // `Head::transfer_coding` reads it; the parser would read the
            // last (RFC 2045 allows one).
            copy[at] = HIDDEN_FIELD;
        } else {
            b.transfer_encoding = Some(at);
        }
    }
    if let Some(b) = block {
        hide_in_block(copy, b, &mut seen);
    }
}

/// What the header blocks before one say of it (see [`hide_decodings`]).
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// A forwarded message sent encoded: text parts' fields are left to
    /// the parser.
    encoded_message: bool,
    /// A `multipart/digest`: a part that names no type may be a forwarded
    /// message (its default type there, RFC 2046 section 5.1.5).
    digest: bool,
}

/// Returns true if and only if `text` holds a blank line (`\n\n` or
/// `\n\r\n`).
fn has_blank_line(text: &[u8]) -> bool {
    memchr::memchr_iter(b'\n', text)
        .any(|nl| matches!(&text[nl + 1..], [b'\n', ..] | [b'\r', b'\n', ..]))
}

/// The value of the field whose name ends at `from`: up to the end of its
/// line and of the folded lines after it.
fn value(copy: &[u8], from: usize) -> Range<usize> {
    let mut end = from;
    loop {
        end = memchr::memchr(b'\n', &copy[end..]).map_or(copy.len(), |p| end + p + 1);
        if !matches!(copy.get(end), Some(b' ' | b'\t')) {
            return from..end;
        }
    }
}

/// Renames the fields of one header block that would make the MIME
/// parser decode its part (a text part's only until `seen` tells of a
/// forwarded message sent encoded), and notes in `seen` what the block
/// says of those after it.
fn hide_in_block(copy: &mut [u8], block: Block, seen: &mut Seen) {
    let encoding = block
        .transfer_encoding
        .map(|at| value(copy, at + TRANSFER_ENCODING.len()));
    let content_type = block
        .content_type
        .as_ref()
        .map(|v| copy[v.clone()].trim_ascii().to_ascii_lowercase());
    let forwarded = match &content_type {
        Some(content_type) => content_type.starts_with(b"message/"),
        None => seen.digest,
    };
    if forwarded {
        leave_encoding(copy, encoding.clone(), seen);
        // An encoding not known (`x-uuencode`) counts as one: what that
        // costs is the parser's decoding of the text parts after it.
        let sent_as_is =
            encoding.is_none_or(|encoding| Coding::of_transfer(&copy[encoding]) == Coding::Plain);
        seen.encoded_message |= !sent_as_is;
        return;
    }
    let content_type = content_type.as_deref().unwrap_or(b"text/plain");
    if content_type.starts_with(b"multipart/") {
        seen.digest |= content_type.starts_with(b"multipart/digest");
        return;
    }
    let is_text = content_type.starts_with(b"text/");
    if is_text && seen.encoded_message {
        return;
    }
    let charset = block.content_type.as_ref().and_then(|v| {
        memchr::memmem::find(content_type, b"charset").map(|p| v.start + lead(&copy[v.clone()]) + p)
    });
    if is_text {
        if charset.is_some_and(|at| names_wide_charset(&copy[at..])) {
            leave_encoding(copy, encoding, seen);
            return;
        }
        if let Some(at) = charset {
            copy[at] = b'x';
        }
        if let Some(v) = &block.content_type {
            copy[v.start + lead(&copy[v.clone()])] = b'x'; // `text/` becomes `xext/`
        }
    }
    if let Some(at) = block.transfer_encoding {
        copy[at] = HIDDEN_FIELD;
    }
}

/// Returns true if and only if the parameter `param` starts with (a
/// `charset`, `=`, a label quoted or not) names a wide charset
/// ([`charset::is_wide`]).
pub(super) fn names_wide_charset(param: &[u8]) -> bool {
    let after = &param[param.len().min("charset".len())..];
    let start = after
        .iter()
        .position(|b| !matches!(b, b'=' | b'"' | b' '))
        .unwrap_or(after.len());
    let label = &after[start..];
    let end = label
        .iter()
        .position(|b| matches!(b, b'"' | b';' | b'(') || b.is_ascii_whitespace())
        .unwrap_or(label.len());
    charset::is_wide(&label[..end])
}

/// Leaves a part's `Content-Transfer-Encoding` (the value at `encoding`,
/// if any) for the parser to decode by, its comments blanked: the parser
/// does not know the encoding in `quoted-printable (sent by foo)`, and
/// the part it decodes is a forwarded message, or text only it converts
/// (UTF-16). (A text part's encoding we read ourselves, comments and all.)
/// Not after a forwarded message sent encoded: the text of that message
/// is read from the parser's decoding of this copy, and a comment blanked
/// there would be lost from it (`7bit (see http://a.example/)`). Not a
/// value that holds `--`, where a delimiter may stand (the parser and the
/// walk find one anywhere in a line, and the block may be a body's lines
/// that read like fields).
fn leave_encoding(copy: &mut [u8], encoding: Option<Range<usize>>, seen: &Seen) {
    if let Some(encoding) = encoding.filter(|_| !seen.encoded_message) {
        if memmem::find(&copy[encoding.clone()], b"--").is_none() {
            blank_comments(&mut copy[encoding]);
        }
    }
}

/// Returns true if and only if the MIME parser's part of type `ctype` is
/// a text part: `text`, or `xext` when its type was hidden (see the
/// module docs).
pub fn is_text(ctype: &str) -> bool {
    ctype.eq_ignore_ascii_case("text") || ctype.eq_ignore_ascii_case(HIDDEN_TEXT)
}

/// The name of a field of a forwarded message the parser decoded on its
/// own (from this copy), as it was written: a `Content-Transfer-Encoding`
/// renamed `Xontent-…` here is named as it was (with a capital `C`: the
/// letter renamed is not known).
pub fn unhidden_name(name: &[u8]) -> Vec<u8> {
    let mut name = name.to_vec();
    if name.len() == TRANSFER_ENCODING.len() - 1
        && name[0] == HIDDEN_FIELD
        && name[1..].eq_ignore_ascii_case(&TRANSFER_ENCODING[1..name.len()])
    {
        name[0] = b'C';
    }
    name
}

/// What a hidden `Content-Transfer-Encoding` field's name starts with
/// (`Xontent-…`), for its `C`.
const HIDDEN_FIELD: u8 = b'X';

/// What `text` reads in a hidden text part's type.
const HIDDEN_TEXT: &str = "xext";

/// The names a text part's charset parameter may have in the copy, in
/// the order to look for them: renamed (`xharset`), or its own name when
/// the copy renamed an earlier `charset` of the value (`name="charset.txt";
/// charset=…`).
pub const CHARSET_NAMES: [&str; 2] = ["xharset", "charset"];

/// How many blank bytes `value` starts with (the lowercased copy of the
/// value is trimmed).
fn lead(value: &[u8]) -> usize {
    value.len() - value.trim_ascii_start().len()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// [`mime_fields`] as it was written first: every line's start looked at.
    fn mime_fields_line_by_line(copy: &[u8]) -> Vec<(&'static [u8], usize)> {
        let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', copy).map(|nl| nl + 1));
        starts
            .filter_map(|at| mime_field_at(copy, at).map(|name| (name, at)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// The searches for lines that start with `c` find every field
        /// that a look at each line's start finds, and only those: names in
        /// any case, at the start of the copy and after LF or CR LF, cut
        /// short at its end, and names where no line starts.
        #[test]
        fn mime_fields_are_those_of_a_line_by_line_look(
            pieces in prop::collection::vec(
                prop::sample::select(vec![
                    "content-type:", "Content-Transfer-Encoding:", "CONTENT-TYPE: text/plain",
                    "cOnTeNt-tYpE:", "coNT-", "content-", "Content-Typ", "nt-", "NT-", "nT-",
                    "\n", "\r\n", "\n\n", " ", "x", "-", "Xontent-type:",
                ]),
                0..24,
            )
        ) {
            let copy = pieces.concat().into_bytes();
            prop_assert_eq!(mime_fields(&copy), mime_fields_line_by_line(&copy));
        }
    }

    fn hidden(text: &str) -> String {
        let mut copy = text.as_bytes().to_vec();
        hide_decodings(&mut copy);
        String::from_utf8(copy).unwrap()
    }

    #[test]
    fn decodings_are_hidden_in_text_and_attachments_only() {
        let text = "Content-Type: multipart/mixed; boundary=X\n\n--X\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nbody=\n--X\nContent-type: image/png\ncontent-transfer-encoding: base64\n\nAAAA\n--X\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\nBBBB\n--X\nContent-Type: text/plain;\n charset=\"UTF-16\"\nContent-Transfer-Encoding: base64\n\nCCCC\n--X--\n";
        let want = "Content-Type: multipart/mixed; boundary=X\n\n--X\nContent-Type: xext/plain; xharset=iso-8859-1\nXontent-Transfer-Encoding: quoted-printable\n\nbody=\n--X\nContent-type: image/png\nXontent-transfer-encoding: base64\n\nAAAA\n--X\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\nBBBB\n--X\nContent-Type: text/plain;\n charset=\"UTF-16\"\nContent-Transfer-Encoding: base64\n\nCCCC\n--X--\n";
        assert_eq!(hidden(text), want);
        assert_eq!(hidden(text).len(), text.len());
        // No type is text/plain.
        assert_eq!(
            hidden("Content-Transfer-Encoding: base64\n\nAAAA"),
            "Xontent-Transfer-Encoding: base64\n\nAAAA"
        );
    }

    #[test]
    fn comments_in_transfer_encodings_left_to_the_parser_are_blanked() {
        // Left to the parser: a forwarded message's, a quoted `)` in one.
        assert_eq!(
            hidden("Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable (fwd (by) \\) x)\n\nFrom: a\n"),
            "Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable                \n\nFrom: a\n"
        );
        // Folded, and a comment not closed.
        assert_eq!(
            hidden("Content-Type: message/rfc822\nContent-Transfer-Encoding: (sent\n as) base64 (\n\nAAAA (x)\n"),
            "Content-Type: message/rfc822\nContent-Transfer-Encoding:      \n     base64  \n\nAAAA (x)\n"
        );
        // Renamed (the parser does not read it), or holding `--`, where a
        // delimiter may stand: left as written.
        for (text, want) in [
            (
                "Content-Type: image/png\nContent-Transfer-Encoding: base64 (x)\n\nAAAA\n",
                "Content-Type: image/png\nXontent-Transfer-Encoding: base64 (x)\n\nAAAA\n",
            ),
            (
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: 7bit (--XX--)\n\nFrom: a\n",
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: 7bit (--XX--)\n\nFrom: a\n",
            ),
        ] {
            assert_eq!(hidden(text), want);
        }
    }

    #[test]
    fn a_digest_part_that_names_no_type_is_taken_for_a_forwarded_message() {
        let digest = "Content-Type: multipart/digest; boundary=D\n\n--D\nContent-Transfer-Encoding: quoted-printable\n\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\ncaf=3DE9\n--D--\n";
        assert_eq!(hidden(digest), digest);
        // Outside a digest, a part that names no type is text.
        let mixed = digest.replace("digest", "mixed");
        assert_eq!(
            hidden(&mixed),
            mixed
                .replace(
                    "Content-Type: text/plain\nContent-Transfer",
                    "Content-Type: xext/plain\nXontent-Transfer"
                )
                .replacen("Content-Transfer", "Xontent-Transfer", 1)
        );
    }

    #[test]
    fn no_text_is_hidden_after_a_forwarded_message_sent_encoded() {
        let part = "Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9\n";
        let hid = "Content-Type: xext/plain; xharset=iso-8859-1\nXontent-Transfer-Encoding: quoted-printable\n\ncaf=E9\n";
        let attachment =
            "Content-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\nAAAA\n";
        let forwarded = |encoding: &str| {
            format!("Content-Type: multipart/mixed; boundary=X\n\n--X\n{part}--X\nContent-Type: message/rfc822\nContent-Transfer-Encoding: {encoding}\n\n{part}--X\n{part}--X\n{attachment}--X--\n")
        };
        // A comment in the encoding is blanked.
        let blanked = |encoding: &str| {
            encoding
                .replace("(plain)", "       ")
                .replace("(forwarded)", "           ")
        };
        let attachment_hidden = |copy: String| {
            copy.replace(
                "Content-Transfer-Encoding: base64",
                "Xontent-Transfer-Encoding: base64",
            )
        };
        // Sent as it is: every part of the copy is hidden, the forwarded
        // message's too.
        for encoding in ["7bit", " 8BIT ", "binary", "7bit (plain)"] {
            assert_eq!(
                hidden(&forwarded(encoding)),
                attachment_hidden(forwarded(&blanked(encoding)).replace(part, hid)),
                "{encoding}"
            );
        }
        // Sent encoded (its fields are written encoded, read decoded): the
        // text before it is hidden, none after it, and the attachment is.
        for encoding in ["quoted-printable", "Base64", "quoted-printable (forwarded)"] {
            assert_eq!(
                hidden(&forwarded(encoding)),
                attachment_hidden(forwarded(&blanked(encoding)).replacen(part, hid, 1)),
                "{encoding}"
            );
        }
    }
}
