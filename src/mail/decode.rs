//! Transfer decodings (RFC 2045 quoted-printable and base64) and the
//! joining of `format=flowed` lines (RFC 3676), each giving the decoded
//! text and where each of its bytes came from ([`SourceMap`]), so that a
//! URI found in decoded text is placed where it was written.
//!
//! *Judgement call:* the decoders are lenient, as mail readers are: a
//! malformed body is reported ([`Decoded::malformed`]); quoted-printable
//! is read as far as it decodes (a stray `=` stays as it is, unless a
//! soft line break splits the escape it starts), and base64
//! that breaks its alphabet is decoded as far as its lines are base64,
//! and read as sent from there (a footer after it; if no line is, it is
//! most likely not base64).

use std::ops::Range;

use encoding_rs::Encoding;
use memchr::memchr;

use super::charset;
use crate::source_map::{append_copy, SourceMap};

/// A decoded text and where its bytes came from.
#[derive(Debug)]
pub struct Decoded {
    pub kind: Kind,
    pub text: Vec<u8>,
    /// Decoded offsets to offsets of the source, plus the `base` given.
    pub map: SourceMap,
    /// True when the source broke the encoding's rules somewhere.
    pub malformed: bool,
}

/// Which decoding gave a [`Decoded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    QuotedPrintable,
    Base64,
}

/// Decodes quoted-printable `raw`, found at offset `base` of its source:
/// `=XX` (hex digits of either case) is the byte `XX`, `=` at the end of a
/// line (trailing blanks allowed) is a soft line break, anything else is
/// itself (a stray `=` makes the text malformed).
pub fn quoted_printable(raw: &[u8], base: usize) -> Decoded {
    let mut out = Decoded {
        kind: Kind::QuotedPrintable,
        text: Vec::with_capacity(raw.len()),
        // Each `=` starts at most two pieces (its own and the copy after;
        // a run of escapes is one), but mostly fewer: the room is capped
        // at a piece for 16 bytes (a soft break every 76 bytes starts one).
        map: SourceMap::with_capacity(
            (2 * bytecount::count(raw, b'=') + 1).min(raw.len() / 16 + 16),
        ),
        malformed: false,
    };
    let mut at = 0;
    while let Some(p) = memchr(b'=', &raw[at..]) {
        let eq = at + p;
        out.copy(&raw[at..eq], base + at);
        let rest = &raw[eq + 1..];
        if let [a, b, ..] = rest {
            if let (Some(hi), Some(lo)) = (hex(*a), hex(*b)) {
                out.map.push(out.text.len(), base + eq, 1, 3);
                out.text.push(hi << 4 | lo);
                at = eq + 3;
                continue;
            }
        }
        let blanks = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        match &rest[blanks..] {
            [] => at = raw.len(),
            [b'\n', ..] => at = eq + 1 + blanks + 1,
            [b'\r', b'\n', ..] => at = eq + 1 + blanks + 2,
            _ => {
                out.malformed = true;
                if let Some((byte, len)) = split_escape(rest) {
                    out.map.push(out.text.len(), base + eq, 1, 1 + len as u32);
                    out.text.push(byte);
                    at = eq + 1 + len;
                } else {
                    out.copy(b"=", base + eq);
                    at = eq + 1;
                }
            }
        }
    }
    out.copy(&raw[at..], base + at);
    out
}

/// After a stray `=`, an escape some encoders split with a soft line
/// break (`=` `=\n` `3D`): the byte it stands for and how many bytes of
/// `rest` it takes.
fn split_escape(rest: &[u8]) -> Option<(u8, usize)> {
    let after_break = match rest {
        [b'=', b'\n', ..] => 2,
        [b'=', b'\r', b'\n', ..] => 3,
        _ => return None,
    };
    match rest[after_break..] {
        [a, b, ..] => Some((hex(a)? << 4 | hex(b)?, after_break + 2)),
        _ => None,
    }
}

/// Decodes base64 `raw`, found at offset `base` of its source; each
/// decoded byte maps to the group of four symbols that holds it. Line
/// breaks and blanks are skipped; any other byte outside the alphabet, or
/// a group cut short, makes the text malformed.
///
/// A line of whole groups of the alphabet (what encoders write) is decoded
/// four symbols at a time through a table; anything else, a symbol at a
/// time.
pub fn base64(raw: &[u8], base: usize) -> Decoded {
    let mut out = Decoded {
        kind: Kind::Base64,
        text: Vec::with_capacity(raw.len() / 4 * 3),
        map: SourceMap::default(),
        malformed: false,
    };
    let mut group = Group::default();
    let mut line_start = 0;
    // The data has ended ([`data_ends_after`]): a line after that is not
    // base64's.
    let mut ended = false;
    while line_start < raw.len() {
        let line_end = memchr(b'\n', &raw[line_start..]).map_or(raw.len(), |p| line_start + p);
        let line = &raw[line_start..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if is_blank(line) {
            ended |= !out.text.is_empty() || group.filled > 0;
            line_start = line_end + 1;
            continue;
        }
        if ended {
            out.malformed = true;
            break;
        }
        ended = data_ends_after(line);
        let whole = if group.filled == 0 {
            whole_groups(line, &mut out.text)
        } else {
            0
        };
        if whole > 0 {
            out.map
                .push(out.text.len() - whole / 4 * 3, base + line_start, 3, 4);
        }
        for (i, &b) in line.iter().enumerate().skip(whole) {
            group.symbol(b, base + line_start + i, &mut out);
        }
        line_start = line_end + 1;
    }
    group.finish(&mut out);
    out
}

/// Base64 `raw` that breaks its alphabet or goes on past its data's end
/// ([`base64`] found it malformed), read as mail readers read a base64
/// body with text after it (a list's footer appended to a one-part
/// message, a stray boundary, a message cut short): its first lines, those
/// of base64 symbols, padding and blanks alone, up to the data's end (a
/// line that ends in padding, or a blank line after data), decoded (a
/// group their end cuts short gives the bytes it holds whole), then, on a
/// line of its own, the rest as sent. `None` when they decode to nothing:
/// then it is most likely not base64, and is read as sent whole.
///
/// Nothing is lost by decoding those lines (a URI holds a `:`, which is no
/// base64 symbol, so none is written on them), and nothing is made up: a
/// footer's words after the data are not decoded with it.
pub fn base64_then_sent(raw: &[u8]) -> Option<Decoded> {
    let symbols_only = |line: &[u8]| {
        line.iter()
            .all(|&b| BASE64[b as usize] != NOT_BASE64 || b"=\r\n \t".contains(&b))
    };
    let (mut end, mut data, mut ended) = (0, false, false);
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if is_blank(content) {
            ended |= data;
        } else if ended || !symbols_only(content) {
            break;
        } else {
            data = true;
            ended = data_ends_after(content);
        }
        end += line.len();
    }
    let mut out = base64(&raw[..end], 0);
    if out.text.is_empty() {
        return None;
    }
    out.malformed = true;
    if end < raw.len() && out.text.last() != Some(&b'\n') {
        // The decoded text's last word is not glued to the rest's first.
        out.map.push(out.text.len(), end, 1, 0);
        out.text.push(b'\n');
    }
    out.copy(&raw[end..], end);
    Some(out)
}

/// Returns true if `line`, base64's, ends its data: its padding does.
fn data_ends_after(line: &[u8]) -> bool {
    line.trim_ascii_end().ends_with(b"=")
}

/// Returns true if `line` holds nothing but blanks.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Not a base64 symbol, in [`BASE64`].
const NOT_BASE64: u8 = 0xFF;

/// The value of each base64 symbol (`=` and every other byte: [`NOT_BASE64`]).
const BASE64: [u8; 256] = {
    let mut table = [NOT_BASE64; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < 64 {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// [`BASE64`] placed for each symbol of a group of four: the value of the
/// symbol at `i` shifted to its bits of the group's 24, and for a byte
/// outside the alphabet a bit above them ([`NOT_IN_GROUP`]). Or-ing the
/// four gives the group's three bytes, or tells that one is not a symbol.
const IN_GROUP: [[u32; 256]; 4] = {
    let mut tables = [[NOT_IN_GROUP; 256]; 4];
    let mut i = 0;
    while i < 4 {
        let mut b = 0;
        while b < 256 {
            if BASE64[b] != NOT_BASE64 {
                tables[i][b] = (BASE64[b] as u32) << (18 - 6 * i);
            }
            b += 1;
        }
        i += 1;
    }
    tables
};

/// In [`IN_GROUP`], the bit of a byte outside the alphabet.
const NOT_IN_GROUP: u32 = 1 << 24;

/// Decodes the whole groups of symbols `line` starts with into `text`,
/// and returns how many bytes of `line` they are (up to the first group
/// that holds a byte outside the alphabet, or is cut short).
fn whole_groups(line: &[u8], text: &mut Vec<u8>) -> usize {
    let start = text.len();
    text.resize(start + line.len() / 4 * 3, 0);
    let mut groups = 0;
    for (g, out) in line.chunks_exact(4).zip(text[start..].chunks_exact_mut(3)) {
        let n = IN_GROUP[0][g[0] as usize]
            | IN_GROUP[1][g[1] as usize]
            | IN_GROUP[2][g[2] as usize]
            | IN_GROUP[3][g[3] as usize];
        if n & NOT_IN_GROUP != 0 {
            break;
        }
        out.copy_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
        groups += 1;
    }
    text.truncate(start + groups * 3);
    groups * 4
}

/// A group of base64 symbols being gathered a symbol at a time.
#[derive(Default)]
struct Group {
    values: [u8; 4],
    filled: usize,
    padding: usize,
    /// The source offset of the group's first symbol.
    start: usize,
}

impl Group {
    /// Takes the symbol `b`, at source offset `at`.
    fn symbol(&mut self, b: u8, at: usize, out: &mut Decoded) {
        let value = match b {
            b'=' => {
                self.padding += 1;
                0
            }
            b'\r' | b' ' | b'\t' => return,
            _ if BASE64[b as usize] == NOT_BASE64 => {
                out.malformed = true;
                return;
            }
            _ => BASE64[b as usize],
        };
        if self.padding > 0 && b != b'=' {
            out.malformed = true; // data after the padding
        }
        if self.filled == 0 {
            self.start = at;
        }
        self.values[self.filled] = value;
        self.filled += 1;
        if self.filled == 4 {
            let [a, b, c, d] = self.values;
            let bytes = [a << 2 | b >> 4, b << 4 | c >> 2, c << 6 | d];
            out.map.push(out.text.len(), self.start, 3, 4);
            out.text
                .extend_from_slice(&bytes[..3 - self.padding.min(2)]);
            self.filled = 0;
            self.padding = 0;
        }
    }
}

impl Group {
    /// Ends the text: a group cut short (malformed) gives the bytes its
    /// symbols hold whole, as if it were padded (`aGk` is `hi`), as
    /// lenient decoders read a body cut short.
    fn finish(&mut self, out: &mut Decoded) {
        if self.filled == 0 {
            return;
        }
        out.malformed = true;
        if self.filled >= 2 && self.padding == 0 {
            let [a, b, c, _] = self.values;
            let bytes = [a << 2 | b >> 4, b << 4 | c >> 2];
            let (out_len, src_len) = (self.filled - 1, self.filled);
            out.map
                .push(out.text.len(), self.start, out_len as u32, src_len as u32);
            out.text.extend_from_slice(&bytes[..out_len]);
        }
        self.filled = 0;
    }
}

impl Decoded {
    /// Appends `bytes`, copied from source offset `src`.
    fn copy(&mut self, bytes: &[u8], src: usize) {
        append_copy(&mut self.text, &mut self.map, bytes, src);
    }
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Joins the lines of a `format=flowed` text (RFC 3676): a line ending in
/// a space continues on the next one (losing that space with `delsp=yes`);
/// the signature separator `-- ` does not. The map gives offsets in `text`.
pub fn unflow(text: &[u8], delsp: bool) -> (Vec<u8>, SourceMap) {
    let mut out = Vec::with_capacity(text.len());
    let mut map = SourceMap::default();
    let mut at = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let flowed = body.ends_with(b" ") && body != b"-- ";
        let kept = if !flowed {
            line
        } else if delsp {
            &body[..body.len() - 1]
        } else {
            body
        };
        append_copy(&mut out, &mut map, kept, at);
        at += line.len();
    }
    (out, map)
}

/// Returns `text` (at offset `base` of its source) decoded as
/// quoted-printable if it has the exact shape an encoder gives although
/// nothing declared it (spam, archives whose MIME headers were lost): at
/// least one soft line break, and every `=` an escape of two upper-case
/// hex digits (RFC 2045 6.7) or a soft break. Plain text fails at its
/// first `a = b`, `x == y` or `?q=1`.
pub fn undeclared_quoted_printable(text: &[u8], base: usize) -> Option<Decoded> {
    let mut soft_breaks = 0;
    for at in memchr::memchr_iter(b'=', text) {
        let rest = &text[at + 1..];
        if let [a, b, ..] = rest {
            if is_upper_hex(*a) && is_upper_hex(*b) {
                continue;
            }
        }
        let blanks = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        match &rest[blanks..] {
            [] | [b'\n', ..] | [b'\r', b'\n', ..] => soft_breaks += 1,
            _ => return None,
        }
    }
    (soft_breaks > 0).then(|| quoted_printable(text, base))
}

fn is_upper_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'A'..=b'F').contains(&b)
}

/// Decodes the RFC 2047 encoded words of a header field's value `raw`
/// (`=?UTF-8?Q?see_https://x.example/?=`, `=?utf-8?B?...?=`), dropping
/// the blanks between two adjacent ones; `None` when it holds none. The
/// map gives offsets in `raw`: each byte of a Q word to its `=XX`, `_` or
/// itself, each of a B word to its base64 group.
///
/// As for bodies, a word in a charset other than UTF-8 is converted to
/// UTF-8 (see `charset`): the maps are then two, applied in order (the
/// converted text's to the decoded words', and that one's to `raw`). A
/// word in UTF-16, UTF-32 or UTF-7, or whose base64 is broken, is left
/// as it was written.
///
/// Mail mode calls it only for the fields that hold a `=?` (the header
/// block is searched for them once, whole: `Parts::head`).
pub fn encoded_words(raw: &[u8]) -> Option<(Vec<u8>, Vec<SourceMap>)> {
    let mut out: Option<(Vec<u8>, SourceMap)> = None;
    // The decoded words in a charset to convert: where they are in the
    // text, and the charset.
    let mut legacy: Vec<(Range<usize>, &'static Encoding)> = Vec::new();
    // Where the text not yet given to `out` starts.
    let mut at = 0;
    for q in memchr::memchr_iter(b'?', raw) {
        if q == 0 || q - 1 < at || raw[q - 1] != b'=' {
            continue;
        }
        let start = q - 1;
        let Some(word) = EncodedWord::at(raw, start) else {
            continue;
        };
        let after_word = out.is_some();
        let (text, map) =
            out.get_or_insert_with(|| (Vec::with_capacity(raw.len()), SourceMap::default()));
        let between = &raw[at..start];
        // Blanks between two encoded words are not text (RFC 2047 6.2).
        let joins_words = after_word && between.iter().all(u8::is_ascii_whitespace);
        if !joins_words {
            append_copy(text, map, between, at);
        }
        let word_start = text.len();
        match word.text {
            WordText::Q(range) => q_word(&raw[range.clone()], range.start, text, map),
            WordText::B(decoded) => {
                map.append(&decoded.map, text.len());
                text.extend_from_slice(&decoded.text);
            }
        }
        if let Some(encoding) = word.charset {
            // A character split across two adjacent words of one charset
            // (as clients that cut words by length write) is converted
            // whole: the words are converted together.
            match legacy.last_mut() {
                Some((range, last)) if range.end == word_start && *last == encoding => {
                    range.end = text.len();
                }
                _ => legacy.push((word_start..text.len(), encoding)),
            }
        }
        at = word.end;
    }
    let (mut text, mut map) = out?;
    append_copy(&mut text, &mut map, &raw[at..], at);
    match convert_words(&text, &legacy) {
        Some((converted, to_words)) => Some((converted, vec![to_words, map])),
        None => Some((text, vec![map])),
    }
}

/// `text` with its words in `legacy` (ranges of it, in order, and their
/// charsets) converted to UTF-8, and the map from it to `text`; `None`
/// when no word needs it.
fn convert_words(
    text: &[u8],
    legacy: &[(Range<usize>, &'static Encoding)],
) -> Option<(Vec<u8>, SourceMap)> {
    let mut out: Option<(Vec<u8>, SourceMap)> = None;
    // Where the text not yet given to `out` starts.
    let mut at = 0;
    for (range, encoding) in legacy {
        let Some((word, word_map)) = charset::to_utf8(&text[range.clone()], encoding, range.start)
        else {
            continue;
        };
        let (converted, map) =
            out.get_or_insert_with(|| (Vec::with_capacity(2 * text.len()), SourceMap::default()));
        append_copy(converted, map, &text[at..range.start], at);
        map.append(&word_map, converted.len());
        converted.extend_from_slice(&word);
        at = range.end;
    }
    let (mut converted, mut map) = out?;
    append_copy(&mut converted, &mut map, &text[at..], at);
    Some((converted, map))
}

/// Appends the text of a Q encoded word (RFC 2047 4.2), found at offset
/// `base` of its source, decoded to `text`, and its places to `map`:
/// quoted-printable's `=XX`, and `_` for a space. It holds no blanks, so
/// no soft line breaks.
fn q_word(raw: &[u8], base: usize, text: &mut Vec<u8>, map: &mut SourceMap) {
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        let escaped = match raw[i + 1..] {
            [hi, lo, ..] if b == b'=' => hex(hi).zip(hex(lo)).map(|(h, l)| h << 4 | l),
            _ => None,
        };
        let (byte, len) = match (b, escaped) {
            (_, Some(byte)) => (byte, 3),
            (b'_', None) => (b' ', 1),
            (b, None) => (b, 1),
        };
        map.push(text.len(), base + i, 1, len);
        text.push(byte);
        i += len as usize;
    }
}

/// An RFC 2047 encoded word, `=?charset?B|Q?text?=`, in a decodable
/// charset (not UTF-16, UTF-32 nor UTF-7), with base64 text that decodes.
struct EncodedWord {
    text: WordText,
    /// The charset its text is converted from, if any (see `charset`).
    charset: Option<&'static Encoding>,
    /// Where it ends in the value, past its `?=`.
    end: usize,
}

/// An encoded word's text: where a Q word's is in the value, and a B
/// word's decoded (to tell that its base64 is whole, it is decoded once).
enum WordText {
    Q(std::ops::Range<usize>),
    B(Decoded),
}

impl EncodedWord {
    /// The encoded word that starts at `start` of `raw` (at its `=?`).
    fn at(raw: &[u8], start: usize) -> Option<EncodedWord> {
        let token = |b: &u8| b.is_ascii_graphic() && *b != b'?';
        let rest = &raw[start + 2..];
        let charset_len = rest.iter().take_while(|b| token(b)).count();
        let charset = &rest[..charset_len];
        let is_base64 = match rest.get(charset_len..charset_len + 3)? {
            [b'?', b'B' | b'b', b'?'] => true,
            [b'?', b'Q' | b'q', b'?'] => false,
            _ => return None,
        };
        let from = start + 2 + charset_len + 3;
        let len = raw[from..].iter().take_while(|b| token(b)).count();
        if charset.is_empty() || raw.get(from + len..from + len + 2) != Some(b"?=") {
            return None;
        }
        // RFC 2231 lets a language follow the charset: `us-ascii*en`.
        let charset = charset.split(|&b| b == b'*').next()?.to_ascii_lowercase();
        if charset::is_wide(&charset) {
            return None;
        }
        let text = if is_base64 {
            let decoded = base64(&raw[from..from + len], from);
            if decoded.malformed {
                return None;
            }
            WordText::B(decoded)
        } else {
            WordText::Q(from..from + len)
        };
        Some(EncodedWord {
            text,
            charset: charset::encoding_for(&charset),
            end: from + len + 2,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    /// The source text of decoded bytes `from..to`.
    fn source<'a>(raw: &'a [u8], d: &Decoded, from: usize, to: usize) -> &'a [u8] {
        let s = d.map.span(Span::new(from, to));
        &raw[s.start..s.end]
    }

    #[test]
    fn quoted_printable_decodes_and_maps_back() {
        let raw = b"see http://x.org/lo=\nng?a=3Db&c=3d1 done=\r\n";
        let d = quoted_printable(raw, 0);
        assert_eq!(d.text, b"see http://x.org/long?a=b&c=1 done");
        assert!(!d.malformed);
        let at = d.text.windows(4).position(|w| w == b"http").unwrap();
        assert_eq!(
            source(raw, &d, at, at + 25),
            b"http://x.org/lo=\nng?a=3Db&c=3d1"
        );
        // An escape split by a soft line break, as some encoders write.
        let raw = b"v==\n3D5 w==\r\n3d";
        let d = quoted_printable(raw, 0);
        assert_eq!((d.text.as_slice(), d.malformed), (&b"v=5 w="[..], true));
        assert_eq!(source(raw, &d, 1, 2), b"==\n3D");
        let d = quoted_printable(b"a == b", 10);
        assert_eq!((d.text.as_slice(), d.malformed), (&b"a == b"[..], true));
        assert_eq!(d.map.span(Span::new(0, 6)), Span::new(10, 16));
    }

    #[test]
    fn base64_decodes_and_maps_each_byte_to_its_group() {
        // "see http://hidden.example/a now" on two lines.
        let raw = b"c2VlIGh0dHA6Ly9oaWRk\nZW4uZXhhbXBsZS9hIG5vdw==\n";
        let d = base64(raw, 0);
        assert_eq!(d.text, b"see http://hidden.example/a now");
        assert!(!d.malformed);
        // `http` starts at decoded byte 4: the second group of line 1.
        assert_eq!(d.map.span(Span::new(4, 5)), Span::new(4, 8));
        // `example` (byte 18) is in the second line's second group.
        assert_eq!(d.map.span(Span::new(18, 19)).start, 25);
        assert!(base64(b"see http://x.org/a !", 0).malformed);
    }

    #[test]
    fn flowed_lines_are_joined_and_mapped() {
        let (text, map) = unflow(b"see https://x.org/a- \nb/c now\n-- \nsig\n", true);
        assert_eq!(text, b"see https://x.org/a-b/c now\n-- \nsig\n");
        assert_eq!(map.span(Span::new(20, 21)), Span::new(22, 23));
    }

    #[test]
    fn only_text_shaped_by_an_encoder_is_decoded_undeclared() {
        let qp = b"<a href=3D\"http://x.org/?a=3D1&b=3D2\">x</a> see http://x.org/lo=\nng/path\n";
        assert_eq!(
            undeclared_quoted_printable(qp, 0).unwrap().text,
            b"<a href=\"http://x.org/?a=1&b=2\">x</a> see http://x.org/long/path\n"
        );
        for plain in [
            &b"if a = b then\nsee http://x.org/?q=1\n"[..],
            b"no soft break at all: http://x.org/?id=3D12\n",
            b"x == y =\n",
            b"http://x.org/?q=ab=\ncd\n",
        ] {
            assert!(
                undeclared_quoted_printable(plain, 0).is_none(),
                "{}",
                String::from_utf8_lossy(plain)
            );
        }
    }

    #[test]
    fn encoded_words_are_decoded_and_mapped_to_what_was_written() {
        let decode = |raw: &[u8]| encoded_words(raw).map(|(text, _)| text);
        // Q: `_` is a space, `=XX` a byte; the blanks between two words go.
        let raw = b"Re: =?utf-8?q?see_http://x.example/a=3Db?= =?UTF-8?Q?c_d?= end";
        let (text, maps) = encoded_words(raw).unwrap();
        let [map] = &maps[..] else {
            panic!("one map: {maps:?}")
        };
        assert_eq!(text, b"Re: see http://x.example/a=bc d end");
        let uri = memchr::memmem::find(&text, b"http").unwrap();
        let span = map.span(Span::new(uri, uri + "http://x.example/a=bc".len()));
        assert_eq!(
            &raw[span.start..span.end],
            b"http://x.example/a=3Db?= =?UTF-8?Q?c"
        );
        // B, and a word labelled in another charset that is ASCII, left as
        // it is.
        assert_eq!(
            decode(b"=?ISO-8859-1?B?c2VlIGh0dHA6Ly95LmV4YW1wbGUv?= ok").unwrap(),
            b"see http://y.example/ ok"
        );
        let (text, maps) = encoded_words(b"x =?utf-8?b?aHR0cDovL3kuZXhhbXBsZS8=?=").unwrap();
        assert_eq!(text, b"x http://y.example/");
        assert_eq!(
            maps[0].span(Span::new(2, 3)),
            Span::new(12, 16),
            "its group"
        );
        // Not encoded words, or ones left as they were written.
        for raw in [
            &b"plain http://x.example/?a=1"[..],
            b"=?utf-16?b?AGgAdAB0AHA=?=",
            b"=?unicode?b?aAB0AHQAcAA=?=",
            b"=?UCS-4?b?AAAAaA==?=",
            b"=?utf-8?b?not*base64?=",
            b"=?utf-8?x?abc?=",
            b"=??q?abc?=",
            b"=?utf-8?q?no end",
            b"=?utf-8?q?a space?=",
        ] {
            assert_eq!(decode(raw), None, "{}", String::from_utf8_lossy(raw));
        }
        // A UTF-8 label that starts like a UTF-16 one.
        assert_eq!(
            decode(b"=?unicode-1-1-utf-8?q?caf=C3=A9?=").unwrap(),
            "café".as_bytes()
        );
        // Blanks between a word and plain text stay.
        assert_eq!(decode(b"=?utf-8?q?a?= b =?utf-8?q?c?=").unwrap(), b"a b c");
    }

    #[test]
    fn encoded_words_in_a_legacy_charset_are_converted_and_placed() {
        // Latin-1 and Shift_JIS words, a UTF-8 one, and plain text.
        let raw = "=?iso-8859-1?q?see_http://x.example/caf=E9?= =?Shift_JIS?B?k/qWew==?= and =?utf-8?q?=C3=A9?= ü".as_bytes();
        let (text, maps) = encoded_words(raw).unwrap();
        assert_eq!(text, "see http://x.example/café日本 and é ü".as_bytes());
        let place = |span: Span| maps.iter().fold(span, |span, map| map.span(span));
        let at = |s: &str| memchr::memmem::find(raw, s.as_bytes()).unwrap();
        let uri = 4..4 + "http://x.example/café".len();
        let span = place(Span::new(uri.start, uri.end));
        assert_eq!(&raw[span.start..span.end], b"http://x.example/caf=E9");
        // `日` came from the first base64 group (`k/qW`).
        let ja = "see http://x.example/café".len();
        assert_eq!(place(Span::new(ja, ja + 3)).start, at("k/qW"));
        // The UTF-8 word and the plain text are as they were.
        let e = text.len() - "é ü".len();
        assert_eq!(place(Span::new(e, e + 2)).start, at("=C3=A9"));
        assert_eq!(place(Span::new(e + 3, e + 5)).start, at("ü"));
        // A character split across two words of one charset (Shift_JIS,
        // ISO-2022-JP) is converted whole, as one split in UTF-8 is.
        for raw in [
            &b"=?shift_jis?Q?=93=FA=96?= =?shift_jis?Q?=7B?="[..],
            b"=?iso-2022-jp?Q?=1B$BF|?= =?iso-2022-jp?Q?K\\=1B(B?=",
            b"=?utf-8?Q?=E6=97=A5=E6=9C?= =?utf-8?Q?=AC?=",
        ] {
            let text = encoded_words(raw).unwrap().0;
            assert_eq!(text, "日本".as_bytes(), "{}", String::from_utf8_lossy(raw));
        }
        // Words labelled Latin-1 that are UTF-8 are read as UTF-8, a
        // character split across two of them too.
        let (text, _) = encoded_words(b"=?iso-8859-1?Q?caf=C3?= =?iso-8859-1?Q?=A9/x?=").unwrap();
        assert_eq!(text, "café/x".as_bytes());
        let (text, maps) = encoded_words(b"=?iso-8859-1?q?caf=C3=A9?=").unwrap();
        assert_eq!((text, maps.len()), ("café".as_bytes().to_vec(), 1));
    }
}
