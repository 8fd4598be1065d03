//! Which characters a URI written in text is made of: the bytes of a URI,
//! and the non-ASCII characters that read as part of a word (an IRI's, RFC
//! 3987; see [`crate::uri::ucs::is_word_char`]). Every reading of a
//! candidate, bare, quoted or in brackets, runs over these and stops at
//! anything else, so a URI is never cut at a non-ASCII letter: it is read
//! whole, and then is an IRI or not a URI.
//!
//! A byte that does not start a valid UTF-8 character ends a run, as a
//! space does (text in another encoding, read undecoded).

use crate::uri::table::Table;
use crate::uri::ucs;

/// The length of the run of URI characters at the start of `bytes`: bytes
/// of `table`, and non-ASCII word characters.
///
/// `more` says that the input goes on past `bytes`: a character that the
/// end of `bytes` cuts then counts as part of the run, so the run reaches
/// the end and the caller asks for more input before deciding (or, when
/// `bytes` ends at the candidate limit, finds the run too long).
#[inline]
pub fn run_len(bytes: &[u8], table: &Table, more: bool) -> usize {
    let mut i = 0;
    loop {
        i += table.run_len(&bytes[i..]);
        match bytes.get(i) {
            Some(&b) if b >= 0x80 => match word_char_len(bytes, i, more) {
                Some(len) => i += len,
                None => return i,
            },
            _ => return i,
        }
    }
}

/// The length of the non-ASCII word character at `text[at]`, `None` when
/// there is none (see [`run_len`] for `more`); `text[..at]` is what the
/// run holds before it.
///
/// A zero-width joiner or non-joiner is one only when a non-ASCII word
/// character other than a joiner follows it (`می‌خواهم`, an emoji
/// sequence): one at the end of a run joins nothing, and is left out as
/// punctuation is. A dash written inside words (the en dash of
/// `Navier–Stokes`, [`ucs::is_inner_dash`]) is one after a word character
/// (an ASCII letter or digit, or a non-ASCII character of the run, looked
/// at only at a dash) and before a letter or digit of any script, but for one that
/// starts another URI (`…/x–https://b.example/`);
/// punctuation otherwise (`http://a.example/– see`, `…/x.–y`). Found by a
/// black-box run: Wikipedia's `…/wiki/Navier–Stokes_equations` gave
/// `…/wiki/Navier`, a different URI. The look is one character ahead (and
/// a scheme's length, at a dash), so a run of joiners or dashes costs no
/// more than other characters.
///
/// A right single quotation mark (U+2019, [`ucs::is_apostrophe`]) is one
/// after a word character and before a word it joins ([`starts_a_word`]),
/// but for one that starts another URI: `…/wiki/Côte_d’Ivoire`, but
/// `http://example.org’s` ends at the `’` (found by a black-box run:
/// typeset text gave `…/wiki/Côte_d`).
#[inline]
pub fn word_char_len(text: &[u8], at: usize, more: bool) -> Option<usize> {
    let bytes = &text[at..];
    match ucs::decode(bytes) {
        Some((c, len)) if ucs::is_joiner(c) => {
            let rest = &bytes[len..];
            let joins = match ucs::decode(rest) {
                Some((next, _)) => {
                    !next.is_ascii() && ucs::is_word_char(next) && !ucs::is_joiner(next)
                }
                // What follows is still to come.
                None => more && (rest.is_empty() || is_cut_char(rest)),
            };
            joins.then_some(len)
        }
        Some((c, len)) if ucs::is_inner_dash(c) => {
            let rest = &bytes[len..];
            if !follows_word(&text[..at]) || starts_a_uri(rest) {
                return None;
            }
            let joins = match ucs::decode(rest) {
                Some((next, _)) if next.is_ascii() => next.is_ascii_alphanumeric(),
                Some((next, _)) => next.is_alphanumeric(),
                None => more && (rest.is_empty() || is_cut_char(rest)),
            };
            joins.then_some(len)
        }
        Some((c, len)) if ucs::is_apostrophe(c) => {
            let rest = &bytes[len..];
            let joins =
                follows_word(&text[..at]) && !starts_a_uri(rest) && starts_a_word(rest, more);
            joins.then_some(len)
        }
        Some((c, len)) => (!c.is_ascii() && ucs::is_word_char(c)).then_some(len),
        None => (more && is_cut_char(bytes)).then_some(bytes.len()),
    }
}

/// Returns true if `rest`, after an apostrophe, starts a word that the
/// apostrophe joins to the one before it: a letter (of any script), unless
/// the word is an English clitic (`s`, `t`, `d`, `m`, `ll`, `re`, `ve`,
/// any case) that ends there: `example.org’s` is the sentence's
/// possessive. When the text so far ends inside the word (`more`), it
/// joins for now: the run reaches the text's end and is read again with
/// what follows.
fn starts_a_word(rest: &[u8], more: bool) -> bool {
    const CLITICS: [&[u8]; 7] = [b"s", b"t", b"d", b"m", b"ll", b"re", b"ve"];
    match ucs::decode(rest) {
        Some((next, _)) if !next.is_alphabetic() => return false,
        Some(_) => {}
        None => return more && (rest.is_empty() || is_cut_char(rest)),
    }
    let word = rest
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let ends_there = word < rest.len() && {
        // The word ends at a byte that is no letter: ASCII, or the start
        // of a character that is not one.
        let after = &rest[word..];
        after[0].is_ascii() || ucs::decode(after).is_some_and(|(c, _)| !c.is_alphanumeric())
    };
    if word == rest.len() {
        // The text ends inside the word: a clitic or more is to come.
        return more || !CLITICS.iter().any(|c| rest.eq_ignore_ascii_case(c));
    }
    !(ends_there && CLITICS.iter().any(|c| rest[..word].eq_ignore_ascii_case(c)))
}

/// Returns true if and only if the character `before` ends with is an
/// ASCII letter or digit, or a non-ASCII character (in a run, a word
/// character: a run takes in no other).
#[inline]
fn follows_word(before: &[u8]) -> bool {
    before
        .last()
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b >= 0x80)
}

/// Returns true if and only if `bytes` starts with a scheme and `://`.
fn starts_a_uri(bytes: &[u8]) -> bool {
    let scheme = bytes
        .iter()
        .take(32)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    scheme > 0 && bytes[scheme..].starts_with(b"://")
}

/// Returns true if and only if `bytes` is the start of a UTF-8 character
/// that its end cuts: a lead byte and fewer continuation bytes than it
/// announces.
fn is_cut_char(bytes: &[u8]) -> bool {
    let want = match bytes.first() {
        Some(0xC2..=0xDF) => 2,
        Some(0xE0..=0xEF) => 3,
        Some(0xF0..=0xF4) => 4,
        _ => return false,
    };
    bytes.len() < want && bytes[1..].iter().all(|&b| b & 0xC0 == 0x80)
}

/// The offset of the first byte of the last character of `bytes` (whole
/// characters) that is not a URI character (`table` or a word character).
pub fn last_other(bytes: &[u8], table: &Table) -> Option<usize> {
    let mut last = None;
    let mut i = 0;
    while i < bytes.len() {
        let len = run_len(&bytes[i..], table, false);
        i += len;
        if i < bytes.len() {
            last = Some(i);
            i += ucs::decode(&bytes[i..]).map_or(1, |(_, len)| len);
        }
    }
    crate::work::examined(bytes.len());
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uri::table::URI;

    #[test]
    fn runs_go_on_over_words_and_stop_at_punctuation() {
        let len = |s: &[u8], more| run_len(s, &URI, more);
        assert_eq!(len("http://müller.de/x y".as_bytes(), false), 19);
        assert_eq!(len("https://x.org/東京 です".as_bytes(), false), 20);
        assert_eq!(len("http://例え.jp/パス。".as_bytes(), false), 23);
        assert_eq!(len("http://x.org/\u{a0}".as_bytes(), false), 13);
        assert_eq!(len(b"http://x.org/caf\xe9 ", false), 16, "Latin-1");
        // A character cut by the end of the bytes: run on when more come.
        let cut = &"http://x.org/東".as_bytes()[..15];
        assert_eq!(len(cut, true), 15);
        assert_eq!(len(cut, false), 13);
        // A joiner joins two word characters, or waits for what follows.
        let zwnj = "http://x.org/می\u{200C}خواهم \u{200C} http://x.org/a\u{200C}";
        let zwnj = zwnj.as_bytes();
        assert_eq!(len(zwnj, false), 30);
        assert_eq!(len(&zwnj[..20], false), 17, "one at the end");
        assert_eq!(len(&zwnj[..20], true), 20, "one at the end, more to come");
        assert_eq!(len(&zwnj[..21], true), 21, "cut after it");
        assert_eq!(len(&zwnj[31..], false), 0, "before a space");
        assert_eq!(len(&zwnj[35..], false), 14, "at the input's end");
        assert_eq!(len("http://x.org/\u{200C}\u{200C}ه".as_bytes(), false), 13);
    }

    #[test]
    fn last_other_finds_the_last_character_outside_a_uri() {
        assert_eq!(last_other("a<http://ü.de/".as_bytes(), &URI), Some(1));
        assert_eq!(last_other("http://ü.de/。x".as_bytes(), &URI), Some(13));
        assert_eq!(last_other("http://ü.de/".as_bytes(), &URI), None);
        assert_eq!(last_other(b"x\xe9y", &URI), Some(1));
    }
}
