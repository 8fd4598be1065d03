//! The inside of `<...>`: whitespace, mail quote prefixes, page breaks and
//! line-end hyphens removed, so that a URI wrapped over lines comes back
//! whole (RFC 3986 Appendix C).

use std::ops::Range;

use crate::uri::table::URI;

/// The result of reading the inside of angle brackets from a URI's first byte.
#[derive(Debug, PartialEq, Eq)]
pub enum Angle {
    /// The closing `>` was found and everything before it was URI bytes or
    /// removable text. `pieces` are the ranges of URI bytes, in order.
    Closed(Unwrapped),
    /// Not a bracketed URI: a byte that cannot be in a URI, a blank line
    /// that is not a page break, or no `>` within the limit.
    NotUri,
    /// The input ended (not at end of stream) before this could be decided.
    NeedMore,
}

/// The URI bytes found inside a bracket pair.
///
/// # Invariants
///
/// `pieces` is non-empty, its ranges are non-empty, increasing and
/// disjoint; `close` is the offset of the `>`, after the last piece.
#[derive(Debug, PartialEq, Eq)]
pub struct Unwrapped {
    pub pieces: Vec<Range<usize>>,
    pub close: usize,
    /// Offsets of `-` bytes that ended a line (the hyphen rule).
    pub line_end_hyphens: Vec<usize>,
}

/// What the reader needs to know about the text around the brackets.
pub struct Context<'a> {
    /// The mail quote prefix of the line the URI starts on (`>`, `> >`,
    /// `>>`, without trailing spaces), or empty.
    pub quote_prefix: &'a [u8],
    /// Offset past which the `>` is not looked for.
    pub limit: usize,
    /// True when `hay` ends where the input ends.
    pub eof: bool,
}

/// Bytes that count as whitespace inside brackets.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c')
}

/// Reads from `start` (the URI's first byte) up to the closing `>`.
pub fn read(hay: &[u8], start: usize, cx: &Context<'_>) -> Angle {
    let mut pieces: Vec<Range<usize>> = Vec::new();
    let mut hyphens = Vec::new();
    let mut i = start;
    let mut piece_start = start;
    loop {
        // The fast path: a run of URI bytes.
        while i < hay.len() && i < cx.limit && URI.contains(hay[i]) {
            i += 1;
        }
        if i >= cx.limit {
            return Angle::NotUri;
        }
        if i >= hay.len() {
            return if cx.eof {
                Angle::NotUri
            } else {
                Angle::NeedMore
            };
        }
        let b = hay[i];
        if b == b'>' {
            if piece_start < i {
                pieces.push(piece_start..i);
            }
            if pieces.is_empty() {
                return Angle::NotUri;
            }
            return Angle::Closed(Unwrapped {
                pieces,
                close: i,
                line_end_hyphens: hyphens,
            });
        }
        // A typesetter's hyphen (U+2010 or U+00AD) at the end of a line is
        // dropped; the parts around it are joined.
        let typographic = match &hay[i..] {
            [0xE2, 0x80, 0x90, ..] => 3,
            [0xC2, 0xAD, ..] => 2,
            [0xE2] | [0xE2, 0x80] | [0xC2] if !cx.eof => return Angle::NeedMore,
            _ => 0,
        };
        let space_at = i + typographic;
        if space_at >= hay.len() {
            return if cx.eof {
                Angle::NotUri
            } else {
                Angle::NeedMore
            };
        }
        if !is_space(hay[space_at]) {
            return Angle::NotUri;
        }
        if piece_start < i {
            pieces.push(piece_start..i);
        }
        match skip_break(hay, space_at, cx) {
            Skip::To(next, had_newline) => {
                // Spaces within a line are not wrapping: the brackets hold
                // prose (`<http://x.org/ for details>`), unless they only
                // pad the closing `>`.
                if !had_newline && (typographic > 0 || hay[next] != b'>') {
                    return Angle::NotUri;
                }
                if typographic == 0 && had_newline && i > start && hay[i - 1] == b'-' {
                    hyphens.push(i - 1);
                }
                i = next;
                piece_start = next;
            }
            Skip::NotUri => return Angle::NotUri,
            Skip::NeedMore => {
                return if cx.eof {
                    Angle::NotUri
                } else {
                    Angle::NeedMore
                }
            }
        }
    }
}

enum Skip {
    /// Continue at this offset; true if a line break was skipped.
    To(usize, bool),
    NotUri,
    NeedMore,
}

/// Skips a whitespace run at `i`, with the quote prefixes of the lines it
/// starts and, when it holds a blank line, the page break it must then be.
fn skip_break(hay: &[u8], mut i: usize, cx: &Context<'_>) -> Skip {
    let mut newlines = 0;
    let mut form_feed = false;
    loop {
        while i < hay.len() && i < cx.limit && is_space(hay[i]) {
            newlines += usize::from(hay[i] == b'\n');
            form_feed |= hay[i] == b'\x0c';
            i += 1;
            let prefix = cx.quote_prefix;
            if hay[i - 1] == b'\n' && !prefix.is_empty() {
                if hay.len() - i < prefix.len() && !cx.eof {
                    return Skip::NeedMore;
                }
                if hay[i..].starts_with(prefix) {
                    i += prefix.len();
                }
            }
        }
        if i >= hay.len() || i >= cx.limit {
            return if i >= cx.limit || cx.eof {
                Skip::NotUri
            } else {
                Skip::NeedMore
            };
        }
        if newlines < 2 || form_feed {
            return Skip::To(i, newlines > 0);
        }
        // A blank line: only a page break may stand here (footer line, form
        // feed, header line); anything else ends the bracket search.
        match page_break_end(hay, i, cx) {
            Ok(Some(after)) => {
                i = after;
                form_feed = true;
            }
            Ok(None) => return Skip::NotUri,
            Err(()) => return Skip::NeedMore,
        }
    }
}

/// The longest footer or header line of a page break, in bytes.
const MAX_PAGE_LINE: usize = 200;

/// At `i`, the start of a line after a blank line: if a page footer line,
/// a form feed and a page header line follow, returns the offset just after
/// the header line. `Err` when the input ends before it is decided.
fn page_break_end(hay: &[u8], i: usize, cx: &Context<'_>) -> Result<Option<usize>, ()> {
    // Everything is looked for within a few lines of `i`.
    let bound = i + 3 * MAX_PAGE_LINE;
    let line_end = |from: usize| -> Result<Option<usize>, ()> {
        let window = &hay[from..hay.len().min(from + MAX_PAGE_LINE)];
        match memchr::memchr(b'\n', window) {
            Some(p) => Ok(Some(from + p + 1)),
            None if window.len() < MAX_PAGE_LINE && !cx.eof => Err(()),
            None => Ok(None),
        }
    };
    // The footer line, unless the form feed comes first.
    let mut j = if hay[i] == b'\x0c' {
        i
    } else {
        match line_end(i)? {
            Some(after) => after,
            None => return Ok(None),
        }
    };
    while j < hay.len() && j < bound && matches!(hay[j], b'\r' | b'\n' | b' ' | b'\t') {
        j += 1;
    }
    if j >= bound {
        return Ok(None);
    }
    if j >= hay.len() {
        return if cx.eof { Ok(None) } else { Err(()) };
    }
    if hay[j] != b'\x0c' {
        return Ok(None);
    }
    j += 1;
    while j < hay.len() && j < bound && matches!(hay[j], b'\r' | b'\n') {
        j += 1;
    }
    if j >= bound {
        return Ok(None);
    }
    if j >= hay.len() {
        return if cx.eof { Ok(None) } else { Err(()) };
    }
    // The header line.
    line_end(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unwrap(text: &str) -> Option<String> {
        let hay = text.as_bytes();
        let start = text.find('<').unwrap() + 1;
        let start = start + hay[start..].iter().take_while(|b| is_space(**b)).count();
        let cx = Context {
            quote_prefix: if text.starts_with('>') { b">" } else { b"" },
            limit: hay.len(),
            eof: true,
        };
        match read(hay, start, &cx) {
            Angle::Closed(u) => Some(u.pieces.iter().map(|r| &text[r.clone()]).collect()),
            _ => None,
        }
    }

    #[test]
    fn joins_wrapped_lines() {
        assert_eq!(
            unwrap("<http://a/b/\n   c/d>").as_deref(),
            Some("http://a/b/c/d")
        );
        assert_eq!(
            unwrap("<http://a/b/ \r\n\tc>").as_deref(),
            Some("http://a/b/c")
        );
        assert_eq!(
            unwrap("> <http://a/b/\n> c/d>").as_deref(),
            Some("http://a/b/c/d")
        );
        assert_eq!(
            unwrap("<http://a/b\u{2010}\nc>").as_deref(),
            Some("http://a/bc")
        );
        assert_eq!(
            unwrap("<http://a/b\u{ad}\n  c>").as_deref(),
            Some("http://a/bc")
        );
        assert_eq!(
            unwrap("<http://a/b- \n c>").as_deref(),
            Some("http://a/b-c")
        );
    }

    #[test]
    fn page_breaks_are_skipped_blank_lines_are_not() {
        let text = "<http://a/b/\n\n\nDoe  Informational  [Page 3]\n\x0c\nRFC 9999  Title  May 2020\n\n\n   c>";
        assert_eq!(unwrap(text).as_deref(), Some("http://a/b/c"));
        assert_eq!(unwrap("<http://a/b/\n\nnew paragraph>"), None);
        assert_eq!(unwrap("<http://a/b c\"d>"), None);
        assert_eq!(unwrap("<http://a/b"), None);
        assert_eq!(unwrap("<http://a/b\u{2010}c>"), None);
        assert_eq!(unwrap("<http://a/ for details>"), None);
        assert_eq!(unwrap("<http://a/b  >").as_deref(), Some("http://a/b"));
    }
}
