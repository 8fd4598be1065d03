//! The non-ASCII characters of RFC 3987 (IRIs): which may appear where.
//!
//! ```text
//! ucschar  = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
//!          / %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD
//!          / %xE1000-EFFFD
//! iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
//! ```
//!
//! `ucschar` may appear wherever `unreserved` may (userinfo, host, path,
//! query, fragment); `iprivate` only in the query. Section 4.1 forbids the
//! bidirectional formatting characters (LRM, RLM, LRE, RLE, PDF, LRO, RLO)
//! in an IRI, though they are `ucschar`s; the isolates that Unicode added
//! later (LRI, RLI, FSI, PDI, U+2066–2069) are forbidden here too, for the
//! same reason.

/// Decodes the UTF-8 character at the start of `bytes`: it and its length,
/// or `None` when the bytes there are not a whole, valid UTF-8 character.
#[inline]
pub(crate) fn decode(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match *bytes.first()? {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..len)?).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// Returns true if and only if `c` is a `ucschar`.
#[inline]
pub(crate) fn is_ucschar(c: char) -> bool {
    let cp = u32::from(c);
    match cp {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0x1_0000..=0xD_FFFF => cp & 0xFFFF <= 0xFFFD,
        0xE_1000..=0xE_FFFD => true,
        _ => false,
    }
}

/// Returns true if and only if `c` is an `iprivate`.
#[inline]
pub(crate) fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD)
}

/// Returns true if and only if `c` is a bidirectional formatting character,
/// which an IRI must not hold (section 4.1).
#[inline]
pub(crate) fn is_bidi_format(c: char) -> bool {
    matches!(u32::from(c), 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Returns true if and only if `c` may stand, as itself, in an IRI
/// component: a `ucschar` (or, when `private`, an `iprivate` too) that is
/// not a bidirectional formatting character.
#[inline]
pub(crate) fn is_iri_char(c: char, private: bool) -> bool {
    (is_ucschar(c) || (private && is_iprivate(c))) && !is_bidi_format(c)
}

/// Returns true if and only if `c` (not ASCII) reads as part of a word in
/// running text: an IRI character ([`is_iri_char`], `iprivate` excluded)
/// that is not a space or a mark of punctuation. This is where a URI
/// written in text ends (the scanner) and what is shown decoded (URI to
/// IRI).
///
/// Letters, marks and digits of every script are words; so are the
/// symbols outside the blocks below (emoji included). Not words: Unicode
/// whitespace; Latin-1's punctuation and symbols (NBSP, `«`, `»`, `¡`,
/// `¿`, `·`, `©`, `°`, `×`, `÷`); General Punctuation (U+2000–206F: the
/// typographic spaces, the zero-width space, dashes, curly quotes, `…`,
/// the bidi controls; but the zero-width non-joiner and joiner, U+200C
/// and U+200D, are words: Persian and the Indic scripts write them inside
/// words, and U+200D joins emoji sequences); the arrows, mathematical,
/// technical, box-drawing, geometric and miscellaneous symbols and
/// dingbats (U+2190–2BFF: `→`, `■`, `●`, `★`, list bullets); Supplemental
/// Punctuation; CJK Symbols and Punctuation (U+3000–303F: U+3000, `、`,
/// `。`, `「」`, `『』`, `【】`, `〈〉`, `《》`); the vertical, compatibility
/// and small forms; the full-width punctuation (`（）［］｛｝，．：；！？`)
/// and half-width CJK punctuation; U+FEFF; and the sentence marks of
/// other scripts (Greek `;`, Armenian, Arabic, Devanagari dandas,
/// Myanmar, Ethiopic). *Judgement call:* the blocks are whole (an arrow
/// or a bullet after a URI in Japanese text is far more often the text's
/// than the URI's), and nothing else is excluded (a letter glued after a
/// URI, as Japanese writes `http://x.jp/を参照`, belongs to it, as RFC
/// 3987 reads it).
#[inline]
pub(crate) fn is_word_char(c: char) -> bool {
    is_iri_char(c, false)
        && !c.is_whitespace()
        && !matches!(
            u32::from(c),
            0xA0..=0xBF
                | 0xD7
                | 0xF7
                | 0x37E
                | 0x387
                | 0x55C..=0x55F
                | 0x589
                | 0x60C
                | 0x61B
                | 0x61F
                | 0x66A..=0x66D
                | 0x6D4
                | 0x964
                | 0x965
                | 0x104A
                | 0x104B
                | 0x1361..=0x1368
                | 0x2000..=0x200B
                | 0x200E..=0x206F
                | 0x2190..=0x2BFF
                | 0x2E00..=0x2E7F
                | 0x3000..=0x303F
                | 0xFE10..=0xFE1F
                | 0xFE30..=0xFE6F
                | 0xFEFF
                | 0xFF01..=0xFF0F
                | 0xFF1A..=0xFF20
                | 0xFF3B..=0xFF40
                | 0xFF5B..=0xFF65
        )
}

/// Returns true if and only if `c` is the zero-width non-joiner or joiner
/// (U+200C, U+200D): word characters that join two others (see
/// `scan::chars::word_char_len`).
#[inline]
pub(crate) fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Returns true if and only if `c` is a dash written inside words: the
/// hyphen, the non-breaking hyphen and the en dash (U+2010, U+2011,
/// U+2013; `Navier–Stokes`, `Michelson–Morley`, Wikipedia's titles),
/// which continue a URI when a word character follows them (see
/// `scan::chars::word_char_len`). Not the em dash, which English glues
/// between a URI and the sentence (`http://a.example/—see`).
#[inline]
pub(crate) fn is_inner_dash(c: char) -> bool {
    matches!(c, '\u{2010}' | '\u{2011}' | '\u{2013}')
}

/// Returns true if and only if `c` is the right single quotation mark
/// (U+2019), the apostrophe of typeset text (`Côte_d’Ivoire`, `O’Reilly`),
/// which continues a URI inside a word but not before an English clitic
/// (see `scan::chars::word_char_len`).
#[inline]
pub(crate) fn is_apostrophe(c: char) -> bool {
    c == '\u{2019}'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_have_their_edges() {
        for (c, ucs, private) in [
            ('\u{9F}', false, false),
            ('\u{A0}', true, false),
            ('\u{D7FF}', true, false),
            ('\u{E000}', false, true),
            ('\u{F8FF}', false, true),
            ('\u{F900}', true, false),
            ('\u{FDCF}', true, false),
            ('\u{FDD0}', false, false),
            ('\u{FDEF}', false, false),
            ('\u{FDF0}', true, false),
            ('\u{FFEF}', true, false),
            ('\u{FFF0}', false, false),
            ('\u{1FFFD}', true, false),
            ('\u{1FFFE}', false, false),
            ('\u{E0000}', false, false),
            ('\u{E1000}', true, false),
            ('\u{EFFFD}', true, false),
            ('\u{F0000}', false, true),
            ('\u{10FFFD}', false, true),
            ('\u{10FFFF}', false, false),
        ] {
            assert_eq!(is_ucschar(c), ucs, "{:X}", u32::from(c));
            assert_eq!(is_iprivate(c), private, "{:X}", u32::from(c));
        }
        assert!(!is_iri_char('\u{200E}', true) && !is_iri_char('\u{202E}', true));
        assert!(is_iri_char('é', false) && is_iri_char('\u{E000}', true));
        assert!(!is_iri_char('\u{E000}', false));
    }

    #[test]
    fn words_go_on_and_punctuation_ends_them() {
        for c in "üßé東京パスαБ한글١٢é\u{301}😀Ｇｏ０\u{200C}\u{200D}".chars() {
            assert!(is_word_char(c), "{c:?}");
        }
        for c in "\u{3000}、。，．：；！？（）［］｛｝「」『』【】〈〉《》\u{A0}\u{200B}\u{200E}\u{202A}\u{2066}…“”‘’«»—→●★\u{FEFF}\u{E000}\u{85}।".chars() {
            assert!(!is_word_char(c), "{c:?}");
        }
    }

    #[test]
    fn decode_takes_whole_valid_characters_only() {
        assert_eq!(decode("é!".as_bytes()), Some(('é', 2)));
        assert_eq!(decode("東".as_bytes()), Some(('東', 3)));
        assert_eq!(decode(&"東".as_bytes()[..2]), None);
        assert_eq!(decode(b"\xff"), None);
        assert_eq!(decode(b"\xc0\x80"), None);
        assert_eq!(decode(b"\xed\xa0\x80"), None, "a surrogate");
        assert_eq!(decode(b""), None);
    }
}
