//! The charset of a mail text: a text part's `charset` parameter, an
//! encoded word's charset. Text in a charset other than UTF-8 is
//! converted to UTF-8 before it is scanned, each decoded byte placed at
//! the bytes it came from (through `encoding`'s decoders), so that an IRI
//! written in Latin-1 (`http://x.example/café`) or Shift_JIS is found
//! whole, as it is in a UTF-8 message. Left unconverted, its first
//! non-ASCII byte, which is not UTF-8, cut it.
//!
//! Judgement calls:
//!
//! - **Text that is UTF-8 is read as UTF-8**, whatever its label: mail
//!   often labels UTF-8 `iso-8859-1` or `us-ascii`, while text in a
//!   single-byte or East Asian legacy charset that holds a non-ASCII
//!   character is almost never well-formed UTF-8 (`é` in Latin-1 is `E9`,
//!   which UTF-8 never follows with ASCII). So a mislabelled UTF-8 message
//!   gives what it gave before, not mojibake. In a single-byte charset
//!   this holds character by character: a UTF-8 reply labelled Latin-1
//!   that quotes a line in Latin-1 keeps its UTF-8 characters, and only
//!   the bytes that are not UTF-8 are read as Latin-1 (a UTF-8 sequence
//!   that is Latin-1 text, such as `Ã©`, is too rare to weigh). A
//!   multi-byte charset's pairs are more often well-formed UTF-8 by
//!   chance: its text is converted whole, unless all of it is UTF-8.
//! - **Labels are the WHATWG Encoding Standard's**, as browsers and mail
//!   readers take them: `us-ascii` and `iso-8859-1` name windows-1252. A
//!   label it does not know, or none, leaves the bytes as they are. UTF-16,
//!   UTF-32 and UTF-7 parts are the MIME parser's to convert (see `mime`).
//! - **Text glued to an IRI**: converted text is scanned as UTF-8 text is
//!   (an IRI ends at a space or at punctuation of any script), so a
//!   Japanese word written right after a URI, with no space, is read as
//!   part of it in a Shift_JIS or ISO-2022-JP message as in a UTF-8 one.
//!   Before, the first legacy byte ended such a URI; the same message now
//!   gives the same URIs whatever its charset.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use crate::encoding::decode_placed;
use crate::source_map::{append_copy, SourceMap};

/// The encoding a charset label names, when text in it is converted: a
/// label of the Encoding Standard (any case, blanks around ignored) but
/// UTF-8 (scanned as it is), UTF-16 (the MIME parser's) and those of its
/// "replacement" encoding.
pub(super) fn encoding_for(label: &[u8]) -> Option<&'static Encoding> {
    Encoding::for_label_no_replacement(label)
        .filter(|&e| e != UTF_8 && e != UTF_16LE && e != UTF_16BE)
}

/// Returns true if and only if text in the charset `label` names (any
/// case, blanks around ignored) is the MIME parser's to convert, not ours
/// (see `mime`): UTF-16 under any of its labels (`utf-16le`, `unicode`,
/// `ucs-2`, `csUnicode`, `csutf16`…) and UTF-7 (`utf-7`, `csutf7`); and
/// UTF-32 (`utf-32le`, `ucs-4`), which neither reads (its URIs are lost
/// either way: it is left to the parser, as it always was).
/// Their text is not ASCII-compatible: read as sent, its URIs are lost.
/// (`utf-7-imap`, the encoding of IMAP mailbox names, is no charset to the
/// parser: its text is read as sent, where its ASCII is as it is.)
pub(super) fn is_wide(label: &[u8]) -> bool {
    let label = label.trim_ascii();
    let starts = |prefix: &[u8]| {
        label.len() >= prefix.len() && label[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    // Every wide label starts with `u`, `c` or `iso-10646`: the others,
    // and the most common labels, are told without a look-up.
    let may_be_wide = match label.first().map(u8::to_ascii_lowercase) {
        Some(b'u' | b'c') => {
            !label.eq_ignore_ascii_case(b"utf-8") && !label.eq_ignore_ascii_case(b"us-ascii")
        }
        Some(b'i') => starts(b"iso-10646"),
        _ => false,
    };
    if !may_be_wide {
        return false;
    }
    Encoding::for_label(label).is_some_and(|e| e == UTF_16LE || e == UTF_16BE)
        || starts(b"csutf16")
        || starts(b"utf-32")
        || starts(b"ucs-4")
        || label.eq_ignore_ascii_case(b"utf-7")
        || label.eq_ignore_ascii_case(b"csutf7")
}

/// `text` converted from `encoding` to UTF-8, with the map from the
/// converted text to `base` plus the offset of the bytes of `text` each
/// byte came from; `None` when it reads the same without conversion: text
/// of an ASCII-compatible charset that is ASCII, or well-formed UTF-8
/// (see the module docs), or text in ISO-2022-JP without an escape.
pub(super) fn to_utf8(
    text: &[u8],
    encoding: &'static Encoding,
    base: usize,
) -> Option<(Vec<u8>, SourceMap)> {
    if !encoding.is_ascii_compatible() {
        return memchr::memchr(0x1B, text).map(|_| decode_placed(text, encoding, base));
    }
    // (`is_ascii` first: measured cheaper than `from_utf8` alone.)
    if text.is_ascii() {
        return None;
    }
    let utf8_up_to = std::str::from_utf8(text).err()?.valid_up_to();
    Some(if encoding.is_single_byte() {
        utf8_or_single_byte(text, utf8_up_to, encoding, base)
    } else {
        decode_placed(text, encoding, base)
    })
}

/// `text`, well-formed UTF-8 up to `utf8_up_to`, with its UTF-8
/// characters as they are and each other byte read in the single-byte
/// `encoding` (see the module docs), and its map, as [`to_utf8`] gives
/// them.
fn utf8_or_single_byte(
    text: &[u8],
    utf8_up_to: usize,
    encoding: &'static Encoding,
    base: usize,
) -> (Vec<u8>, SourceMap) {
    // The characters of the bytes 0x80 to 0xFF, one each (U+FFFD for one
    // the encoding leaves unmapped).
    let high: Vec<u8> = (0x80..=0xFF).collect();
    let (high, _) = encoding.decode_without_bom_handling(&high);
    let high: Vec<char> = high.chars().collect();
    debug_assert_eq!(high.len(), 128, "one character a byte");
    let mut out = Vec::with_capacity(text.len() + text.len() / 2);
    let mut map = SourceMap::default();
    // What `to_utf8` checked is not checked again.
    append_copy(&mut out, &mut map, &text[..utf8_up_to], base);
    let mut at = utf8_up_to;
    for chunk in text[utf8_up_to..].utf8_chunks() {
        let valid = chunk.valid().as_bytes();
        append_copy(&mut out, &mut map, valid, base + at);
        at += valid.len();
        for &b in chunk.invalid() {
            // Not UTF-8, so not ASCII: one of `high`.
            let c = high[usize::from(b - 0x80)];
            map.push(out.len(), base + at, c.len_utf8() as u32, 1);
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            at += 1;
        }
    }
    (out, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    #[test]
    fn labels_name_the_standard_s_encodings_but_utf_8_and_utf_16() {
        let name = |label: &[u8]| encoding_for(label).map(Encoding::name);
        assert_eq!(name(b"ISO-8859-1"), Some("windows-1252"));
        assert_eq!(name(b" us-ascii "), Some("windows-1252"));
        assert_eq!(name(b"Shift_JIS"), Some("Shift_JIS"));
        assert_eq!(name(b"iso-2022-jp"), Some("ISO-2022-JP"));
        assert_eq!(name(b"koi8-r"), Some("KOI8-R"));
        for none in [
            &b"utf-8"[..],
            b"UTF8",
            b"utf-16",
            b"utf-16be",
            b"iso-2022-kr",
            b"x-nonsense",
        ] {
            assert_eq!(name(none), None, "{}", String::from_utf8_lossy(none));
        }
    }

    #[test]
    fn wide_charsets_are_utf_16_under_any_label_utf_7_and_utf_32() {
        for wide in [
            &b"utf-16"[..],
            b"UTF-16LE",
            b" utf-16be ",
            b"unicode",
            b"ucs-2",
            b"csUnicode",
            b"iso-10646-ucs-2",
            b"unicodeFFFE",
            b"csutf16le",
            b"utf-7",
            b"csUTF7",
            b"utf-32",
            b"utf-32le",
            b"UCS-4",
        ] {
            assert!(is_wide(wide), "{}", String::from_utf8_lossy(wide));
        }
        for narrow in [
            &b"utf-8"[..],
            b"unicode-1-1-utf-8",
            b"utf-7-imap",
            b"iso-8859-1",
            b"x-unknown",
            b"",
        ] {
            assert!(!is_wide(narrow), "{}", String::from_utf8_lossy(narrow));
        }
    }

    #[test]
    fn legacy_text_is_converted_and_placed_at_its_bytes() {
        let latin1 = encoding_for(b"iso-8859-1").unwrap();
        let (text, map) = to_utf8(b"see http://x.example/caf\xE9 now", latin1, 10).unwrap();
        assert_eq!(text, "see http://x.example/café now".as_bytes());
        // `é` (2 bytes) came from the byte `E9`, at 10 + 24.
        assert_eq!(map.span(Span::new(24, 26)), Span::new(34, 35));
        assert_eq!(map.span(Span::new(27, 30)), Span::new(36, 39));

        let sjis = encoding_for(b"shift_jis").unwrap();
        let (text, map) = to_utf8(b"a \x93\xfa\x96\x7b b", sjis, 0).unwrap();
        assert_eq!(text, "a 日本 b".as_bytes());
        assert_eq!(map.span(Span::new(5, 8)), Span::new(4, 6));

        let jis = encoding_for(b"iso-2022-jp").unwrap();
        let (text, _) = to_utf8(b"x \x1b$BF|K\\\x1b(B y", jis, 0).unwrap();
        assert_eq!(text, "x 日本 y".as_bytes());
    }

    #[test]
    fn text_that_reads_the_same_is_left_as_it_is() {
        let latin1 = encoding_for(b"iso-8859-1").unwrap();
        assert!(to_utf8(b"http://x.example/", latin1, 0).is_none());
        // UTF-8 labelled Latin-1, as mail often does.
        assert!(to_utf8("http://x.example/café".as_bytes(), latin1, 0).is_none());
        // ... and with a line in Latin-1 after it: only that line's bytes
        // are read as Latin-1.
        let (text, map) =
            to_utf8(b"http://x.example/caf\xc3\xa9\nna\xefve \x80", latin1, 5).unwrap();
        assert_eq!(text, "http://x.example/café\nnaïve €".as_bytes());
        assert_eq!(map.span(Span::new(20, 22)), Span::new(25, 27));
        assert_eq!(map.span(Span::new(25, 27)), Span::new(30, 31));
        assert_eq!(map.span(Span::new(30, 33)), Span::new(34, 35));
        let jis = encoding_for(b"iso-2022-jp").unwrap();
        assert!(to_utf8(b"http://x.example/", jis, 0).is_none());
    }
}
