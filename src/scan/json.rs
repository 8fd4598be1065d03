//! The escapes of JSON strings read as what they stand for, so that a URI
//! a JSON log wrote escaped is found whole: Go's `encoding/json` writes
//! `&`, `<` and `>` as `\u0026`, `\u003c` and `\u003e`, PHP's `json_encode`
//! writes `/` as `\/`, and any encoder writes `"` as `\"`.
//!
//! # What is decoded
//!
//! A line's JSON strings are read from its first `"` when that is its
//! first byte after blanks (a member of pretty-printed JSON), or else from
//! the first `"` that follows a `{` or `[` and blanks (a JSON log line, with
//! or without a prefix: `app[12]: {"msg":...}`), or a `[` and the numbers,
//! `true`, `false` and `null` its array starts with (`[1732612345,"…"]`).
//! From there, each `"` opens
//! a string, which ends at the next `"` not escaped. Only the escapes of a
//! string that ends on its line, at most [`MAX_LINE`] bytes after it
//! opens, are decoded; in a line longer than that, its strings start
//! within its first [`MAX_LINE`] bytes, or the line has none (a minified
//! JSON file of megabytes on one line is decoded string by string, in
//! bounded memory, see [`LongLine`]):
//!
//! - `\"`, `\\`, `\/` and `\uXXXX` (a surrogate pair as one character, a
//!   lone surrogate as U+FFFD) become the character they stand for;
//! - `\t` becomes a tab, and `\b`, `\f`, `\n`, `\r` and every `\u` escape
//!   of an ASCII control character become a space: the decoded text has the
//!   input's lines, so lines count the same in both. *Judgement call:* a
//!   line break in a JSON string is a blank, not a line break, for the
//!   hyphen rule and `<...>` too;
//! - anything else after `\` is left as it is;
//! - a string that holds JSON (its text starts with `{` or `[`: Docker's
//!   `json-file` log wraps each line an application wrote in one) has its
//!   own strings decoded too, by the same rules, three levels deep at
//!   most: `{"log":"{\"url\":\"https:\\/\\/a.example\\/\"}\n"}` gives
//!   `https://a.example/`.
//!
//! So `{"url":"https:\/\/a.example\/?x=1\u0026y=2"}` gives
//! `https://a.example/?x=1&y=2`, while a C string's `"http://a.example/\n"`
//! (no `{"` before it) is read as written, which gives the same URI.
//!
//! # Why decoding keeps every safe cut
//!
//! Decoding changes only bytes strictly inside a string that ends on its
//! line, never a line break, and never makes a line blank (a decoded line
//! holds its strings' quotes). So the last token of a line either holds a
//! string's closing `"` (written as it is, not a URI byte) and every byte
//! after it as written, or was not decoded at all; the bytes before its
//! blanks are as written too (a blank inside a string is followed, in the
//! same token or a later one, by the string's `"`). What `is_safe_cut`
//! judges of a line (its last token, what precedes it, form feeds, a line
//! end `-` or `\`) is the same of the input and of its decoded text, and a cut at
//! a line break starts a line, where decoding starts afresh: segments and
//! chunks cut the input where its decoded text may be cut, and decode each
//! on its own to the text the whole decodes to. A scan that starts at a
//! cut looks back past its line break only over blanks, to a `<` or
//! `URL:`, which in a decoded line is after its last string, as written.

use std::io;

use super::{Found, Sink};
use crate::source_map::SourceMap;
use crate::span::Span;

/// The longest line read whole for its strings, in bytes (its `\n` not
/// counted), and the longest string decoded, from its opening quote to its
/// closing one: a scan of a stream holds back the line it has not read
/// whole up to this, and in a longer line, the string not yet closed.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// One escape of a line: its bytes `at..at + len`, which stand for
/// `text[..text_len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Escape {
    at: usize,
    len: usize,
    text: [u8; 4],
    text_len: usize,
}

const fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// Where the strings of `line` start being read: its first byte after
/// blanks if that is `"`, else the first `"` after a `{` or `[` and
/// blanks, or after a `[` and the numbers, `true`, `false` and `null` it
/// starts with (`[1732612345,"https:\/\/…"]`).
fn strings_start(line: &[u8]) -> Option<usize> {
    let first = line.iter().position(|&b| !is_blank(b))?;
    if line[first] == b'"' {
        return Some(first);
    }
    let mut from = first;
    while let Some(i) = memchr::memchr2(b'{', b'[', &line[from..]) {
        let array = line[from + i] == b'[';
        from += i + 1;
        let mut next = from + line[from..].iter().position(|&b| !is_blank(b))?;
        if array {
            next = after_scalars(line, next);
        }
        if line.get(next) == Some(&b'"') {
            return Some(next);
        }
    }
    None
}

/// Where the array elements written at `line[at..]` that are numbers,
/// `true`, `false` or `null`, each followed by blanks, a `,` and blanks,
/// end: the start of the first other element.
fn after_scalars(line: &[u8], mut at: usize) -> usize {
    let is_number_byte = |b: &u8| b.is_ascii_digit() || b"+-.eE".contains(b);
    loop {
        let rest = &line[at..];
        let word = [&b"true"[..], b"false", b"null"]
            .into_iter()
            .find(|word| rest.starts_with(word));
        // A number starts with a digit, or `-` and a digit.
        let number = rest.strip_prefix(b"-").unwrap_or(rest);
        let len = match word {
            Some(word) => word.len(),
            None if number.first().is_some_and(u8::is_ascii_digit) => rest
                .iter()
                .position(|b| !is_number_byte(b))
                .unwrap_or(rest.len()),
            None => 0,
        };
        let mut end = at + len;
        while line.get(end).is_some_and(|&b| is_blank(b)) {
            end += 1;
        }
        if len == 0 || line.get(end) != Some(&b',') {
            return at;
        }
        at = end + 1;
        while line.get(at).is_some_and(|&b| is_blank(b)) {
            at += 1;
        }
    }
}

/// How deep JSON held in a JSON string is decoded: a Docker `json-file`
/// log wraps each line an application wrote, itself JSON, in a string
/// (`{"log":"{\"url\":\"https:\\/\\/a.example\\/\"}\n"}`).
const NESTING: usize = 3;

/// Pushes onto `out` the escapes of the string `string[from..]` (its
/// quotes left out). When what the string holds is JSON (it starts with a
/// `{` or `[`) and `depth` allows, the escapes of its own strings are
/// decoded too: each is one escape of `string` (`\\\/` stands for `/`),
/// in place of the escapes it is written with.
fn string_escapes(string: &[u8], from: usize, out: &mut Vec<Escape>, depth: usize) {
    let first = out.len();
    let mut j = from;
    while let Some(k) = memchr::memchr(b'\\', &string[j..]) {
        let at = j + k;
        match escape_at(string, at) {
            Some(e) => {
                j = at + e.len;
                out.push(e);
            }
            None => j = at + 2,
        }
    }
    let holds_json = string[from..]
        .iter()
        .find(|&&b| !is_blank(b))
        .is_some_and(|&b| b == b'{' || b == b'[');
    if depth == 0 || !holds_json || out.len() == first {
        return;
    }
    // The string's text, and for each of its bytes the bytes of `string`
    // it was written with.
    let mut text = Vec::with_capacity(string.len() - from);
    let mut written = Vec::with_capacity(string.len() - from);
    let mut at = from;
    for e in &out[first..] {
        text.extend_from_slice(&string[at..e.at]);
        written.extend((at..e.at).map(|p| (p, p + 1)));
        text.extend_from_slice(&e.text[..e.text_len]);
        written.extend(std::iter::repeat_n((e.at, e.at + e.len), e.text_len));
        at = e.at + e.len;
    }
    text.extend_from_slice(&string[at..]);
    written.extend((at..string.len()).map(|p| (p, p + 1)));
    crate::work::examined(string.len() - from);
    let mut inner = Vec::new();
    LongLine::start(&text).read(&text, true, &mut inner, depth - 1);
    if inner.is_empty() {
        return;
    }
    // Each inner escape replaces the escapes it is written with.
    let outer: Vec<Escape> = out.drain(first..).collect();
    let mut outer = outer.into_iter().peekable();
    for e in inner {
        let (start, end) = (written[e.at].0, written[e.at + e.len - 1].1);
        while let Some(o) = outer.next_if(|o| o.at < end) {
            if o.at < start {
                out.push(o);
            }
        }
        out.push(Escape {
            at: start,
            len: end - start,
            ..e
        });
    }
    out.extend(outer);
}

/// The escape at `at` (a `\`) of `string` (which ends where the string
/// does), if it is one.
fn escape_at(string: &[u8], at: usize) -> Option<Escape> {
    let one = |b: u8| Escape {
        at,
        len: 2,
        text: [b, 0, 0, 0],
        text_len: 1,
    };
    match string.get(at + 1)? {
        b'"' => Some(one(b'"')),
        b'\\' => Some(one(b'\\')),
        b'/' => Some(one(b'/')),
        b't' => Some(one(b'\t')),
        b'b' | b'f' | b'n' | b'r' => Some(one(b' ')),
        b'u' => {
            let unit = hex4(string, at + 2)?;
            let (c, len) = match unit {
                0xD800..=0xDBFF => match low_surrogate(string, at + 6) {
                    Some(low) => {
                        let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        (char::from_u32(c)?, 12)
                    }
                    None => (char::REPLACEMENT_CHARACTER, 6),
                },
                0xDC00..=0xDFFF => (char::REPLACEMENT_CHARACTER, 6),
                _ => (char::from_u32(unit)?, 6),
            };
            let c = if c.is_ascii_control() { ' ' } else { c };
            let mut text = [0; 4];
            let text_len = c.encode_utf8(&mut text).len();
            Some(Escape {
                at,
                len,
                text,
                text_len,
            })
        }
        _ => None,
    }
}

/// The low surrogate written `\uXXXX` at `at` of `string`, if there is one.
fn low_surrogate(string: &[u8], at: usize) -> Option<u32> {
    if string.get(at..at + 2)? != b"\\u" {
        return None;
    }
    hex4(string, at + 2).filter(|u| (0xDC00..=0xDFFF).contains(u))
}

/// The four hexadecimal digits at `at` of `s`, if they are.
fn hex4(s: &[u8], at: usize) -> Option<u32> {
    let digits = s.get(at..at + 4)?;
    digits.iter().try_fold(0, |n, &d| {
        let v = (d as char).to_digit(16)?;
        Some(n << 4 | v)
    })
}

/// Decodes, in place, the strings of the lines of `buf[from..to]`: each
/// line whole, `from` at a line's start, the last line ending at `to` with
/// or without its `\n`. The decoded text is written from `from`; returns
/// where it ends. `at` and `src` are the absolute offsets of `buf[from]`
/// in the decoded text and in the input; `map` is given a piece for each
/// escape decoded (and the copy after it).
pub(crate) fn decode_lines(
    buf: &mut [u8],
    from: usize,
    to: usize,
    (at, src): (usize, usize),
    map: &mut SourceMap,
) -> usize {
    let mut edit = InPlace::new(from, (at, src));
    let mut next = from;
    let mut found = Vec::new();
    // Each byte is searched for `\` once; each line that holds one is
    // read to its ends, searched for strings and copied, once.
    crate::work::examined(to - from);
    while let Some((line_start, line_end)) = line_with_backslash(buf, next, to) {
        crate::work::examined(3 * (line_end - line_start));
        found.clear();
        line_escapes(&buf[line_start..line_end], &mut found);
        edit.escapes(buf, line_start, &found, map);
        next = line_end;
    }
    edit.finish(buf, to)
}

/// The decoding of `buf` in place, from `from` on: the bytes before `read`
/// are decoded into those before `write` (`write ≤ read`). `at` and `src`
/// are the absolute offsets of `buf[from]` in the decoded text and in the
/// input.
struct InPlace {
    from: usize,
    read: usize,
    write: usize,
    at: usize,
    src: usize,
}

impl InPlace {
    fn new(from: usize, (at, src): (usize, usize)) -> InPlace {
        InPlace {
            from,
            read: from,
            write: from,
            at,
            src,
        }
    }

    /// Decodes `escapes`, whose positions count from `buf[base]`, in order,
    /// none before `read`; gives `map` a piece for each (and the copy
    /// after it).
    fn escapes(&mut self, buf: &mut [u8], base: usize, escapes: &[Escape], map: &mut SourceMap) {
        let (mut read, mut write) = (self.read, self.write);
        for e in escapes {
            let copy = base + e.at - read;
            buf.copy_within(read..read + copy, write);
            (read, write) = (read + copy, write + copy);
            buf[write..write + e.text_len].copy_from_slice(&e.text[..e.text_len]);
            let (at, src) = (self.at + write - self.from, self.src + read - self.from);
            map.push(at, src, e.text_len as u32, e.len as u32);
            (read, write) = (read + e.len, write + e.text_len);
            map.copied(self.at + write - self.from, self.src + read - self.from);
        }
        (self.read, self.write) = (read, write);
    }

    /// Copies the rest of `buf[..to]` after the last escape; returns where
    /// the decoded text of `buf[from..to]` ends.
    fn finish(self, buf: &mut [u8], to: usize) -> usize {
        if self.read != self.write {
            buf.copy_within(self.read..to, self.write);
        }
        self.write + (to - self.read)
    }
}

/// How many bytes more than the core's own a stream's buffer must have
/// room for: the line held back, when JSON escapes are decoded (`on`).
pub(crate) fn held_room(on: bool) -> usize {
    if on {
        MAX_LINE + 1
    } else {
        0
    }
}

/// The JSON decoding of a stream's roll buffer: `buf[..held]` is decoded
/// text (or text not to be decoded), `buf[held..end]` the text held back,
/// as it was read, which starts at absolute offset `src` of the input: the
/// line not yet read whole, or, in a line longer than [`MAX_LINE`], which
/// is read string by string ([`LongLine`]), the string not yet closed (or
/// nothing). The core is shown `buf[..shown]`: the decoded text and the
/// held text up to its first `\`, which decoding leaves as it is (it
/// changes only escapes and what follows them), so that a URI at a line's
/// end whose reading depends on the next line's first bytes (a line-end
/// `-`) is not held back until that line is whole.
///
/// # Invariants
///
/// `held ≤ shown ≤ end`; `end − held ≤ MAX_LINE`, unless `on` is false;
/// `held` is at a line's start, unless `long` (a line longer than
/// [`MAX_LINE`] is being read: `held` is where its reading stopped, the
/// opening quote of the string held back or the end of what was read);
/// when `blocked`, `buf[shown]` is the held text's first `\`, else
/// `buf[held..shown]` holds none.
#[derive(Debug)]
pub(crate) struct StreamDecoder {
    on: bool,
    pub held: usize,
    pub shown: usize,
    src: usize,
    long: Option<LongLine>,
    blocked: bool,
}

impl StreamDecoder {
    /// The decoding of a buffer that holds `shown` bytes before absolute
    /// offset `src`, a line's start; decoding nothing unless `on`.
    pub fn new(on: bool, shown: usize, src: usize) -> StreamDecoder {
        StreamDecoder {
            on,
            held: shown,
            shown,
            src,
            long: None,
            blocked: false,
        }
    }

    /// The buffer was rolled: its first `by` bytes (at most `held`)
    /// dropped.
    pub fn rolled(&mut self, by: usize) {
        debug_assert!(by <= self.held, "the held line is kept");
        self.held -= by;
        self.shown -= by;
    }

    /// After a read that filled `buf[read..end]` (all of the input, when
    /// `eof`), decodes the lines now whole in place, and the strings now
    /// closed of a line longer than [`MAX_LINE`]; returns where the buffer
    /// now ends. `offset` is the absolute (decoded) offset of `buf[0]`;
    /// `map` is given the pieces of what is decoded. Only the bytes read
    /// are searched for a line break, and for a `\` until the held text's
    /// first (the line held back has no line break), so a line read a byte
    /// at a time costs no more than one read at once (it is decoded once,
    /// when whole; a long line's string, once, when closed).
    pub fn decode(
        &mut self,
        buf: &mut [u8],
        read: usize,
        end: usize,
        eof: bool,
        offset: usize,
        map: &mut SourceMap,
    ) -> usize {
        if !self.on {
            (self.held, self.shown) = (end, end);
            return end;
        }
        let (mut read, mut end) = (read, end);
        if let Some(long) = self.long {
            end = self.read_long(long, buf, read, end, eof, (offset, map));
            if self.long.is_some() {
                self.show(buf, end);
                return end;
            }
            // The bytes after the long line's end were all just read.
            read = self.held;
        }
        let whole = if eof {
            end
        } else {
            let from = read.max(self.held);
            memchr::memrchr(b'\n', &buf[from..end]).map_or(self.held, |p| from + p + 1)
        };
        if whole > self.held {
            let at = (offset + self.held, self.src);
            let decoded = decode_lines(buf, self.held, whole, at, map);
            buf.copy_within(whole..end, decoded);
            end -= whole - decoded;
            self.src += whole - self.held;
            (self.held, self.shown, self.blocked) = (decoded, decoded, false);
            // The line held now was all just read.
            read = decoded;
        }
        if end - self.held > MAX_LINE {
            // A line this long is read string by string, from its start
            // (its bytes before `read` were searched for a line break).
            crate::work::examined(2 * (read.max(self.held) - self.held));
            let long = LongLine::start(&buf[self.held..end]);
            end = self.read_long(long, buf, read, end, eof, (offset, map));
        }
        self.show(buf, end);
        end
    }

    /// Reads on, as `long` says, the line longer than [`MAX_LINE`] that
    /// `buf[held..end]` goes on with (`buf[read..end]` not read before):
    /// decodes in place the strings closed in it, and holds back the one
    /// not yet closed; the line's `\n`, or the input's end (`eof`), ends
    /// it. Returns where the buffer now ends. The string held back is
    /// searched from where its search stopped, so each byte is searched
    /// once and copied once, whatever the reads.
    fn read_long(
        &mut self,
        long: LongLine,
        buf: &mut [u8],
        read: usize,
        end: usize,
        eof: bool,
        (offset, map): (usize, &mut SourceMap),
    ) -> usize {
        let from = read.max(self.held);
        let line_end = memchr::memchr(b'\n', &buf[from..end]).map(|p| from + p);
        let ended = line_end.is_some() || eof;
        let text_end = line_end.unwrap_or(end);
        // Searched for the line's end, then (unless no string is left to
        // read) for strings and in them for escapes; copied up to where the
        // reading stopped, and the rest moved, once an escape is decoded.
        crate::work::examined(text_end - from);
        if long != LongLine::Done {
            crate::work::examined(2 * (text_end - from));
        }
        let mut found = Vec::new();
        let (stop, long) = long.read(&buf[self.held..text_end], ended, &mut found, NESTING);
        let stop = self.held + stop;
        if !found.is_empty() {
            crate::work::examined(end - self.held);
        }
        let mut end = end;
        if stop > self.held {
            let mut edit = InPlace::new(self.held, (offset + self.held, self.src));
            edit.escapes(buf, self.held, &found, map);
            let decoded = edit.finish(buf, stop);
            buf.copy_within(stop..end, decoded);
            end -= stop - decoded;
            self.src += stop - self.held;
            (self.held, self.shown, self.blocked) = (decoded, decoded, false);
        }
        self.long = (!ended).then_some(long);
        if line_end.is_some() {
            // The line's `\n` passes.
            (self.held, self.shown, self.blocked) = (self.held + 1, self.held + 1, false);
            self.src += 1;
        }
        end
    }

    /// Shows the core the held text up to its first `\`.
    fn show(&mut self, buf: &[u8], end: usize) {
        if !self.blocked {
            match memchr::memchr(b'\\', &buf[self.shown..end]) {
                Some(p) => (self.shown, self.blocked) = (self.shown + p, true),
                None => self.shown = end,
            }
        }
    }
}

/// The text of `hay` with the strings of its lines from `from` on (a
/// line's start) decoded, and its map (absolute offsets, `hay` starting
/// at `offset`); `None` when nothing is decoded.
pub(crate) fn decode_slice(hay: &[u8], from: usize, offset: usize) -> Option<(Vec<u8>, SourceMap)> {
    let line = first_decoded_line(hay, from)?;
    let mut text = hay.to_vec();
    let mut map = SourceMap::default();
    let at = (offset + line, offset + line);
    let end = decode_lines(&mut text, line, hay.len(), at, &mut map);
    text.truncate(end);
    Some((text, map))
}

/// The start of the first line of `hay` from `from` on (a line's start)
/// that has an escape to decode, if one has: text with a `\` only outside
/// JSON strings (a Windows path, TeX, a C string) is not copied.
fn first_decoded_line(hay: &[u8], from: usize) -> Option<usize> {
    let mut next = from;
    let mut found = Vec::new();
    while let Some((line_start, line_end)) = line_with_backslash(hay, next, hay.len()) {
        crate::work::examined(line_end - next);
        line_escapes(&hay[line_start..line_end], &mut found);
        if !found.is_empty() {
            return Some(line_start);
        }
        next = line_end;
    }
    None
}

/// The line of `buf[..to]` that holds the first `\` of `buf[from..to]`,
/// `from` being a line's start or the `\n` that ends the line before: its
/// start and its end (its `\n`, or `to`).
fn line_with_backslash(buf: &[u8], from: usize, to: usize) -> Option<(usize, usize)> {
    let backslash = from + memchr::memchr(b'\\', &buf[from..to])?;
    let start = memchr::memrchr(b'\n', &buf[from..backslash]).map_or(from, |p| from + p + 1);
    let end = memchr::memchr(b'\n', &buf[backslash..to]).map_or(to, |p| backslash + p);
    Some((start, end))
}

/// Pushes onto `out` the escapes of the strings of `line` (one line,
/// without its `\n`) that are decoded, in order.
fn line_escapes(line: &[u8], out: &mut Vec<Escape>) {
    LongLine::start(line).read(line, true, out, NESTING);
}

/// How far the strings of a line have been read. A slice reads a line in
/// one piece; a stream reads one longer than [`MAX_LINE`], which it cannot
/// hold whole, piece by piece, holding back at most the string not yet
/// closed, and so decodes the same strings. From where the line's strings
/// start ([`strings_start`], in its first [`MAX_LINE`] bytes), each `"`
/// opens a string, which ends at the next `"` not escaped; a string that
/// closes at most [`MAX_LINE`] bytes after its opening quote has its
/// escapes decoded (in a line no longer than that, every string does).
///
/// Positions are counted from the start of the piece read next, which is
/// where the last piece's reading stopped ([`LongLine::read`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LongLine {
    /// Between strings: the next `"` from `next` on opens one.
    Outside { next: usize },
    /// In a string that opened at `quote`, searched for its closing quote
    /// up to `next` (past an escape's second byte).
    Open { quote: usize, next: usize },
    /// In a string longer than [`MAX_LINE`], whose escapes are not
    /// decoded: searched up to `next`, as above.
    Passing { next: usize },
    /// No string is read in the rest of the line.
    Done,
}

impl LongLine {
    /// The reading of the line whose first bytes are `line` (at least
    /// [`MAX_LINE`] of them, or all of the line).
    fn start(line: &[u8]) -> LongLine {
        match strings_start(&line[..line.len().min(MAX_LINE)]) {
            Some(quote) => LongLine::Open {
                quote,
                next: quote + 1,
            },
            None => LongLine::Done,
        }
    }

    /// Reads the strings of `text`, the next piece of the line (without its
    /// `\n`), which is all of the rest of the line when `ended`; pushes
    /// onto `out` the escapes of the strings that close in it (positions
    /// in `text`), and of the JSON a string holds `depth` levels deep (see
    /// [`string_escapes`]). Returns where the reading stopped, with the
    /// reading from there: the end of `text`, or the opening quote of the
    /// string not yet closed, held back (at most [`MAX_LINE`] bytes before
    /// the end of `text`).
    fn read(
        self,
        text: &[u8],
        ended: bool,
        out: &mut Vec<Escape>,
        depth: usize,
    ) -> (usize, LongLine) {
        let mut state = self;
        loop {
            state = match state {
                LongLine::Done => return (text.len(), LongLine::Done),
                LongLine::Outside { next } => match memchr::memchr(b'"', &text[next..]) {
                    Some(k) => LongLine::Open {
                        quote: next + k,
                        next: next + k + 1,
                    },
                    None if ended => return (text.len(), LongLine::Done),
                    None => return (text.len(), LongLine::Outside { next: 0 }),
                },
                LongLine::Open { next, .. } | LongLine::Passing { next } => {
                    // Searched up to `i`: the end of `text`, or one past
                    // it when the piece ends with an escape's `\`.
                    let mut i = next;
                    let close = loop {
                        match text
                            .get(i..)
                            .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                        {
                            Some(k) if text[i + k] == b'"' => break Some(i + k),
                            Some(k) => i += k + 2,
                            None => {
                                i = i.max(text.len());
                                break None;
                            }
                        }
                    };
                    match (close, state) {
                        (Some(close), LongLine::Open { quote, .. }) => {
                            if close - quote <= MAX_LINE {
                                string_escapes(&text[..close], quote + 1, out, depth);
                            }
                            LongLine::Outside { next: close + 1 }
                        }
                        (Some(close), _) => LongLine::Outside { next: close + 1 },
                        (None, _) if ended => return (text.len(), LongLine::Done),
                        (None, LongLine::Open { quote, .. }) if text.len() - quote <= MAX_LINE => {
                            let next = i - quote;
                            return (quote, LongLine::Open { quote: 0, next });
                        }
                        (None, _) => {
                            let next = i - text.len();
                            return (text.len(), LongLine::Passing { next });
                        }
                    }
                }
            };
        }
    }
}

/// The first line start of `hay` at or after `pos`, where `hay` starts a
/// line.
pub(crate) fn line_start_from(hay: &[u8], pos: usize) -> usize {
    if pos == 0 || hay[pos - 1] == b'\n' {
        return pos;
    }
    memchr::memchr(b'\n', &hay[pos..]).map_or(hay.len(), |p| pos + p + 1)
}

/// `found`, found in decoded text, placed in the input by `map`: its span
/// and its column (counted in the input's bytes) those of what was written.
pub(crate) fn placed<'f>(map: &SourceMap, found: &'f Found<'_>) -> Found<'f> {
    // The line's start first: the map is looked up in order.
    let line_start = found.span().start + 1 - found.column() as usize;
    let line_start = map.span(Span::new(line_start, line_start)).start;
    let span = map.span(found.span());
    let column = (span.start - line_start.min(span.start) + 1) as u64;
    found.placed(span, found.line(), column, None)
}

/// A sink given what is found in decoded text, which passes it on placed in
/// the input by `map`.
pub(crate) struct Placing<'s, S: ?Sized> {
    pub sink: &'s mut S,
    pub map: SourceMap,
}

impl<S: Sink + ?Sized> Sink for Placing<'_, S> {
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
        if self.map.is_empty() {
            return self.sink.found(found);
        }
        self.sink.found(&placed(&self.map, found))
    }

    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool> {
        let start = self.map.span(Span::new(start, start)).start;
        self.sink.too_long(start, line)
    }

    fn warning(&mut self, line: u64, warning: &str) -> io::Result<bool> {
        self.sink.warning(line, warning)
    }

    fn before_read(&mut self) -> io::Result<bool> {
        self.sink.before_read()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decoded text of `input`, each line whole.
    fn decoded(input: &str) -> String {
        let mut buf = input.as_bytes().to_vec();
        let end = decode_lines(&mut buf, 0, input.len(), (0, 0), &mut SourceMap::default());
        buf.truncate(end);
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn the_escapes_of_json_strings_are_decoded() {
        let cases = [
            (
                r#"{"url":"https:\/\/a.example\/?x=1\u0026y=2"}"#,
                r#"{"url":"https://a.example/?x=1&y=2"}"#,
            ),
            (
                r#"{"m":"see \"http://a.example/\"\n"}"#,
                r#"{"m":"see "http://a.example/" "}"#,
            ),
            (
                r#"  "u": "\u003chttp://a.example/\u003e","#,
                r#"  "u": "<http://a.example/>","#,
            ),
            (
                r#"app[7]: { "k": "a\\b\tc" }"#,
                "app[7]: { \"k\": \"a\\b\tc\" }",
            ),
            // A surrogate pair, a lone one, a control, a non-ASCII letter.
            (
                r#"{"e":"\ud83d\ude00 \udc00 \u0007 \u00e9"}"#,
                "{\"e\":\"\u{1F600} \u{FFFD}   \u{e9}\"}",
            ),
            // Not escapes: unknown, short, outside strings.
            (r#"{"a":"\x \u12 \uZZZZ"}"#, r#"{"a":"\x \u12 \uZZZZ"}"#),
            (r#"{"a":1} \/ "#, r#"{"a":1} \/ "#),
            // JSON held in a string (Docker's json-file log), decoded too,
            // three levels deep at most; a string that holds no JSON is
            // decoded once.
            (
                r#"{"log":"{\"u\":\"https:\\/\\/a.example\\/?x\\u0026y\"}\n","t":1}"#,
                r#"{"log":"{"u":"https://a.example/?x&y"} ","t":1}"#,
            ),
            (
                r#"{"a":"[\"{\\\"b\\\":\\\"{\\\\\\\"c\\\\\\\":\\\\\\\"\\\\\\\\/\\\\\\\"}\\\"}\"]"}"#,
                r#"{"a":"["{"b":"{"c":"/"}"}"]"}"#,
            ),
            (r#"{"a":"x \\/ \"y\""}"#, r#"{"a":"x \/ "y""}"#),
            // An array whose first elements are numbers, `true`, `false`,
            // `null`; not one whose first element is another array, nor a
            // `[` of text.
            (
                r#"[1732612345, -1.5e3 ,true,null,"https:\/\/a.example\/"]"#,
                r#"[1732612345, -1.5e3 ,true,null,"https://a.example/"]"#,
            ),
            (r#"[[1],"\/"]"#, r#"[[1],"\/"]"#),
            (
                r#"[e,"\/"] [-,"\/"] [.5,"\/"]"#,
                r#"[e,"\/"] [-,"\/"] [.5,"\/"]"#,
            ),
            (r#"[1] "\/" [2 "\/""#, r#"[1] "\/" [2 "\/""#),
            // Several lines, each read from its own start.
            (
                "{\"a\":\"\\/\"}\nC: \"x\\/\"\n\"\\/\"",
                "{\"a\":\"/\"}\nC: \"x\\/\"\n\"/\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(decoded(input), want, "{input}");
        }
    }

    #[test]
    fn a_string_not_ended_on_its_line_and_a_line_too_long_are_left_as_written() {
        let unended = "{\"a\":\"x\\/y\n\"}";
        assert_eq!(decoded(unended), unended);
        // The first string ends; the second does not.
        assert_eq!(decoded(r#"{"a":"\/","b":"\/"#), r#"{"a":"/","b":"\/"#);
        let long = format!("{{\"a\":\"\\/{}\"}}", "x".repeat(MAX_LINE));
        assert_eq!(decoded(&long), long);
        let fits = format!("{{\"a\":\"\\/{}\"}}", "x".repeat(MAX_LINE - 10));
        assert_eq!(decoded(&fits), fits.replacen("\\/", "/", 1));
    }

    /// The decoded text of `input` as a stream decodes it, read `size`
    /// bytes at a time into a buffer rolled as a stream rolls it (by up to
    /// `held` bytes, kept aside), and its map. After each read, the
    /// decoder's invariants hold and what it shows is final: the slice's
    /// decoded text `slice`, from an offset that never goes back.
    fn stream_decoded(input: &[u8], size: usize, slice: &[u8]) -> (Vec<u8>, SourceMap) {
        let mut text = StreamDecoder::new(true, 0, 0);
        let mut buf = vec![0; input.len() + 1];
        let (mut end, mut fed, mut rolled) = (0, 0, Vec::new());
        let mut map = SourceMap::default();
        let mut shown_before = 0;
        loop {
            let n = size.min(input.len() - fed);
            buf[end..end + n].copy_from_slice(&input[fed..fed + n]);
            fed += n;
            end = text.decode(&mut buf, end, end + n, n == 0, rolled.len(), &mut map);
            assert!(text.held <= text.shown && text.shown <= end);
            assert!(end - text.held <= MAX_LINE);
            let shown = rolled.len() + text.shown;
            assert!(shown >= shown_before, "shown went back");
            assert_eq!(
                &buf[..text.shown],
                &slice[rolled.len()..shown],
                "shown is final"
            );
            shown_before = shown;
            if n == 0 {
                rolled.extend_from_slice(&buf[..end]);
                return (rolled, map);
            }
            // Roll by half of what is held (a stream keeps its look-back).
            let by = text.held / 2;
            rolled.extend_from_slice(&buf[..by]);
            buf.copy_within(by..end, 0);
            end -= by;
            text.rolled(by);
        }
    }

    /// A stream decodes what a slice decodes, whatever its reads, lines
    /// longer than [`MAX_LINE`] too (read string by string).
    #[test]
    fn a_stream_decodes_as_a_slice_does() {
        let pad = |c: &str, n| c.repeat(n);
        let inputs = [
            format!(
                r#"{{"a":"\/","pad":"{}\"","u":"x\/y"}}"#,
                pad("x", MAX_LINE + 10)
            ),
            format!(
                r#"[{}]"#,
                (0..3000)
                    .map(|i| format!(r#"{{"u":"\/{i}\u0026\\","t":"{}"}}"#, pad("q", i % 40)))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            format!("{}\n{{\"a\":\"\\/\"}}\n", pad("\\/ ", MAX_LINE)),
            format!(r#"{{"a":"{}","b":"\/"}}"#, pad("\\", MAX_LINE / 2 + 3)),
            format!(r#"{{"a":"{}\/","b":"\/"}}"#, pad("y", MAX_LINE - 8)),
            format!("{{\"a\":\"{}\\/\n{{\"b\":\"\\/\"}}", pad("y", MAX_LINE + 8)),
        ];
        for input in &inputs {
            let mut slice = input.as_bytes().to_vec();
            let mut slice_map = SourceMap::default();
            let end = decode_lines(&mut slice, 0, input.len(), (0, 0), &mut slice_map);
            slice.truncate(end);
            assert_ne!(slice, input.as_bytes(), "something is decoded");
            for size in [1, 2, 3, 7, 64, 4096, 70_000, input.len()] {
                let (stream, map) = stream_decoded(input.as_bytes(), size, &slice);
                assert!(
                    stream == slice,
                    "reads of {size}, input of {} bytes",
                    input.len()
                );
                for at in 0..slice.len() {
                    let span = Span::new(at, at + 1);
                    assert_eq!(map.span(span), slice_map.span(span), "reads of {size}");
                }
            }
        }
    }

    #[test]
    fn decoded_bytes_map_back_to_their_escapes() {
        let input = b"x\n{\"u\":\"a\\/b\\u0026c\"}\n";
        let (text, map) = decode_slice(input, 0, 100).unwrap();
        assert_eq!(text, b"x\n{\"u\":\"a/b&c\"}\n");
        // `/` came from `\/` at 10, `&` from `\u0026` at 13, `c` from 19.
        assert_eq!(map.span(Span::new(109, 110)), Span::new(109, 111));
        assert_eq!(map.span(Span::new(111, 112)), Span::new(112, 118));
        assert_eq!(map.span(Span::new(108, 113)), Span::new(108, 119));
        assert_eq!(map.span(Span::new(102, 102)), Span::new(102, 102));
        assert!(decode_slice(b"{\"a\":\"\\x\"}", 0, 0).is_none());
        assert!(decode_slice(b"no escape", 0, 0).is_none());
    }
}
