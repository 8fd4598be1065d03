//! The inside of `<...>`: whitespace, mail quote prefixes, page breaks and
//! line-end hyphens removed, so that a URI wrapped over lines comes back
//! whole (RFC 3986 Appendix C).

use std::borrow::Cow;
use std::ops::Range;

use super::chars;
use super::core::NeedMore;
use crate::uri::table::{URI, URI_BUT_COLON};

/// The result of reading the inside of angle brackets from a URI's first byte.
#[derive(Debug, PartialEq, Eq)]
pub enum Angle {
    /// The closing `>` was found and everything before it was URI bytes or
    /// removable text. `pieces` are the ranges of URI bytes, in order.
    Closed(Unwrapped),
    /// Not a bracketed URI: a byte that cannot be in a URI, a blank line
    /// that is not a page break, a line of another quote depth, or the end
    /// of the input. `page_break_failed_at` is where the read failed when
    /// it had crossed a page break (whose lines may hold any text).
    NotUri { page_break_failed_at: Option<usize> },
    /// No `>` within the limit, every byte up to it being URI bytes or
    /// removable text: a candidate too long to look at.
    TooLong,
    /// The input ended (not at end of stream) before this could be decided.
    NeedMore,
}

/// The URI bytes found inside a bracket pair.
///
/// # Invariants
///
/// `pieces` is non-empty, its ranges are non-empty, increasing and
/// disjoint; `close` is the offset of the closing `>` or `"` after the
/// last piece (for a bare URI joined at a hyphen, the last piece's end).
#[derive(Debug, PartialEq, Eq)]
pub struct Unwrapped {
    pub pieces: Pieces,
    pub close: usize,
    /// Offsets of `-` bytes that ended a line (the hyphen rule).
    pub line_end_hyphens: Vec<usize>,
}

/// Ranges of URI bytes, in order. The first is held apart, so that a URI
/// written on one line (most of them) costs no allocation.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    first: Option<Range<usize>>,
    rest: Vec<Range<usize>>,
}

impl Pieces {
    /// The pieces `pieces`, in order.
    pub fn of(pieces: impl IntoIterator<Item = Range<usize>>) -> Pieces {
        let mut all = Pieces::default();
        for piece in pieces {
            all.push(piece);
        }
        all
    }

    fn push(&mut self, piece: Range<usize>) {
        if self.first.is_none() {
            self.first = Some(piece);
        } else {
            self.rest.push(piece);
        }
    }

    /// How many pieces there are.
    pub fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }

    /// Returns true if and only if there is none.
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// The pieces, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Range<usize>> + Clone {
        self.first.iter().chain(&self.rest)
    }
}

impl Unwrapped {
    /// The text of one reading, with or without its line-end hyphens, and
    /// the span it covers in `hay` (from its first byte to its last).
    pub fn reading<'h>(&self, hay: &'h [u8], keep_hyphens: bool) -> (Cow<'h, [u8]>, Range<usize>) {
        // Without their line-end hyphen when it is dropped (a piece may end
        // up empty).
        let mut pieces = self
            .pieces
            .iter()
            .map(|p| {
                let drop = !keep_hyphens && self.line_end_hyphens.contains(&(p.end - 1));
                p.start..p.end - usize::from(drop)
            })
            .filter(|p| !p.is_empty());
        // INVARIANT: the first piece starts with the scheme, never a `-`.
        let first = pieces.next().expect("the first piece holds the scheme");
        let Some(last) = pieces.clone().last() else {
            return (Cow::Borrowed(&hay[first.clone()]), first);
        };
        let span = first.start..last.end;
        let mut joined = Vec::with_capacity(span.len());
        for piece in std::iter::once(first).chain(pieces) {
            joined.extend_from_slice(&hay[piece]);
        }
        (Cow::Owned(joined), span)
    }
}

/// What the reader needs to know about the text around the brackets.
pub struct Context {
    /// How many `>` the mail quote prefix of the line where the URI starts
    /// has (`>`, `> >`, `>>`), or 0. A continuation line must carry as
    /// many, or none at all.
    pub quote_depth: usize,
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

/// Reads a double-quoted URI wrapped at line-end hyphens (Appendix C's
/// hyphen rule, which holds for any URI, not only one in `<...>`) or at
/// line continuations (a `\` that ends a line, [`line_continuation`]):
/// `start..end` is the quoted candidate's first line of URI bytes, ending
/// in `-` right before a line break or right before such a `\`; each next
/// line's indentation and mail quote prefix are skipped
/// ([`continuation_start`]) and its URI bytes joined, as long as they end
/// so, up to the closing mark `close`. Looks no further than `cx.limit`.
/// `Ok(None)` when the text has not that shape.
pub fn read_quoted(
    hay: &[u8],
    start: usize,
    end: usize,
    close: &[u8],
    cx: &Context,
) -> Result<Option<Unwrapped>, NeedMore> {
    let need_more = |at: usize| {
        if at >= hay.len() && !cx.eof {
            Err(NeedMore)
        } else {
            Ok(None)
        }
    };
    let mut pieces = Pieces::default();
    pieces.push(start..end);
    let mut hyphens = Vec::new();
    let mut end = end;
    loop {
        let (line_end, hyphen) = match line_continuation(hay, end) {
            Some(continuation) => continuation,
            None => return Ok(None),
        };
        let Some(from) = continuation_start(hay, line_end, cx)? else {
            return Ok(None);
        };
        let to = hay.len().min(cx.limit.max(from));
        let i = from + chars::run_len(&hay[from..to], &URI, to < hay.len() || !cx.eof);
        crate::work::examined(i - from + 1);
        if i == from || i >= cx.limit {
            return need_more(i);
        }
        if i + close.len() > hay.len() {
            return need_more(hay.len());
        }
        hyphens.extend(hyphen);
        pieces.push(from..i);
        if hay[i..].starts_with(close) {
            return Ok(Some(Unwrapped {
                pieces,
                close: i,
                line_end_hyphens: hyphens,
            }));
        }
        end = i;
    }
}

/// How the URI bytes that end at `end` (before a byte that is none) go
/// on to the next line, if they may: past a `\` right at `end` that ends
/// the line (a line continuation: a shell's, a C or Rust string's, RFC
/// 8792's folding), the line break standing right after it, with no
/// hyphen; or past a `-` that ends them, the line break at `end`, with the
/// hyphen's offset (the hyphen rule). Whether a line break stands there is
/// [`continuation_start`]'s to find.
pub(super) fn line_continuation(hay: &[u8], end: usize) -> Option<(usize, Option<usize>)> {
    if hay.get(end) == Some(&b'\\') {
        Some((end + 1, None))
    } else if hay[end - 1] == b'-' {
        Some((end, Some(end - 1)))
    } else {
        None
    }
}

/// Where the next lines continue a bare URI whose URI bytes end right
/// before `at`, a `\` (a line continuation: see [`line_continuation`];
/// gcloud's man pages and Python's docstrings wrap long URLs so): the
/// next line's first word, past its indentation and its mail quote prefix
/// ([`continuation_start`]), when it reads as the URI's rest (see
/// [`continues_after_backslash`]), and on to the line after while a word
/// ends in such a `\`. The last word loses the sentence's punctuation.
/// Empty when the first word does not continue the URI.
///
/// `comment` is the comment marker (`#`, `##`, `//`, `///`, `//!`: see
/// [`comment_marker_len`]) that starts the URI's line, if one does: a
/// comment goes on only on a line that starts with the same marker, which
/// is skipped with the blanks after it (`# see http://a/b\` then
/// `#   c/d`), and a line that is not a comment (`x = 1`) does not
/// continue it. A line that starts with a comment marker and a blank or
/// its end continues no other line (`#frag` and `//host` may).
///
/// *Judgement call:* the next line's indentation is dropped, as RFC 8792's
/// folding and Rust's strings drop it and as docstrings mean it
/// (`.. _Name: https://developers.google.com\` then
/// `        /identity/protocols/…`), though a shell keeps it, as a blank
/// between two words. So an indented line goes on only with a word that
/// starts a path, query or fragment (`/`, `?`, `#`) or where the URI
/// stopped mid-way (after `/`, `-`, `.`, `_`, `=`, `?`, `&`, `%`, `#` or
/// `,`: RFC 8792's `…/example-jukebox/\` then `     2016-08-15`): not a
/// shell's next word after a letter (`…/simple\` then `    numpy==1.2`).
/// A URL glued to a shell's `\` with no blank before it was not found in
/// the scripts of this machine.
///
/// Each word holds no `:`, so no scheme and no candidate starts inside
/// one, and only a word that is all of its line's text leads to the next:
/// two reads never cover the same line.
pub fn backslash_continuation(
    hay: &[u8],
    at: usize,
    comment: Option<&[u8]>,
    cx: &Context,
) -> Result<Vec<Range<usize>>, NeedMore> {
    let mut pieces = Vec::new();
    let mut at = at;
    while let Some(mut from) = continuation_start(hay, at + 1, cx)? {
        // The marker a comment's lines start with, or none of them; what
        // follows it is in `hay`, or the input ends.
        let marker_len = comment_marker_len(&hay[from..]);
        if from + (marker_len + 1).max(3) > hay.len() && !cx.eof {
            return Err(NeedMore);
        }
        // Blanks right after the line break, or more than one after a
        // quote prefix (`>   x`), are indentation.
        let line_start = at + 2 + usize::from(hay[at + 1] == b'\r');
        let prefix = &hay[line_start..from];
        let is_blank = |b: &u8| matches!(b, b' ' | b'\t');
        let indented = prefix.first().is_some_and(is_blank)
            || prefix
                .windows(2)
                .any(|w| is_blank(&w[0]) && is_blank(&w[1]));
        let goes_on_mid_way = b"/-._=?&%#,".contains(&hay[at - 1])
            || hay.get(from).is_some_and(|b| b"/?#".contains(b));
        match comment {
            Some(marker) if marker_len == marker.len() && hay[from..].starts_with(marker) => {
                from += marker.len();
                from += hay[from..]
                    .iter()
                    .take_while(|&&b| b == b' ' || b == b'\t')
                    .count();
            }
            Some(_) => break,
            None if marker_len > 0
                && matches!(
                    hay.get(from + marker_len),
                    None | Some(b' ' | b'\t' | b'\r' | b'\n')
                ) =>
            {
                break
            }
            None => {}
        }
        // The blanks after a comment's marker may run to the end of `hay`.
        if from == hay.len() && !cx.eof {
            return Err(NeedMore);
        }
        if indented && comment.is_none() && !goes_on_mid_way {
            break;
        }
        // A chain that reaches the candidate limit is not read: its first
        // line is reported alone, as before a chain was read at all.
        if from >= cx.limit {
            return Ok(Vec::new());
        }
        let limit = hay.len().min(cx.limit);
        // A word with a `:` (most often a URI of its own after a chain) is
        // turned away at its `:`, before it is measured.
        let before_colon = URI_BUT_COLON.run_len(&hay[from..limit]);
        crate::work::examined(before_colon + 1);
        if hay.get(from + before_colon) == Some(&b':') {
            break;
        }
        let measured = super::trim::measure(&hay[from..limit], limit < hay.len() || !cx.eof);
        let end = from + measured.len;
        let word = &hay[from..end];
        // A word that cannot be the URI's rest whatever follows is told
        // without more input (the line after a chain is most often a URI
        // or a command of its own).
        if !may_continue_after_backslash(word) {
            break;
        }
        if end == hay.len() && !cx.eof {
            return Err(NeedMore);
        }
        if end >= cx.limit {
            return Ok(Vec::new());
        }
        let goes_on = hay.get(end) == Some(&b'\\') && ends_line(hay, end + 1, cx.eof)?;
        let len = match goes_on {
            true => word.len(),
            false => super::trim::trimmed_len(word, None, |j| word[..j].contains(&b'\'')),
        };
        if !continues_after_backslash(&word[..len]) {
            break;
        }
        pieces.push(from..from + len);
        if !goes_on {
            break;
        }
        at = end;
    }
    Ok(pieces)
}

/// The length of the comment marker `text` starts with: a run of `#`
/// (`#`, `##`), or `//` and the `/` after it or a `!` (`//`, `///`,
/// `//!`); 0 when it starts with none.
pub fn comment_marker_len(text: &[u8]) -> usize {
    match text {
        [b'#', ..] => text.iter().take_while(|&&b| b == b'#').count(),
        [b'/', b'/', b'!', ..] => 3,
        [b'/', b'/', ..] => text.iter().take_while(|&&b| b == b'/').count(),
        _ => 0,
    }
}

/// Returns true if and only if a line break (`\n` or `\r\n`) stands at
/// `at`; `Err` when the input may hold one but `hay` ends first.
fn ends_line(hay: &[u8], at: usize, eof: bool) -> Result<bool, NeedMore> {
    match &hay[at.min(hay.len())..] {
        [b'\n', ..] | [b'\r', b'\n', ..] => Ok(true),
        [] | [b'\r'] if !eof => Err(NeedMore),
        _ => Ok(false),
    }
}

/// Returns true if and only if `word`, the first of a line after a line
/// that ends in `\`, less the sentence's punctuation when it ends its
/// URI, reads as the rest of the URI before the `\`: it starts with a
/// letter, a digit, `/`, `.`, `?`, `#`, `%` or `_` (not `-`, a command's
/// option), holds a URI's punctuation (`sk-1`, `2016-08-15`, `is.com/x`:
/// not a word of prose after a Markdown hard break, `Next`, `I'm`, a list's
/// `2.`), and no `:` (not a URI of its own).
fn continues_after_backslash(word: &[u8]) -> bool {
    may_continue_after_backslash(word) && word.iter().any(|b| b"/.-_%=?#&~+,;".contains(b))
}

/// What [`continues_after_backslash`] asks of a word that more input may
/// lengthen: its first byte and no `:`.
fn may_continue_after_backslash(word: &[u8]) -> bool {
    let starts = word
        .first()
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b"/.?#%_".contains(&b));
    starts && !word.contains(&b':')
}

/// Where the next line continues a bare URI that ends in `-` right before
/// `at`, a line break (the hyphen rule outside brackets): the next line's
/// first word, past its indentation and its mail quote prefix (as
/// `<...>` reading skips it: see [`quote_prefix_len`]) and less the
/// sentence's punctuation, when it reads as the rest of a URI (it holds a
/// `/`, `.`, `?`, `#`, `=`, `&` or `%`, starts with a letter or digit, and
/// is not a URI of its own with a `:`). `Ok(None)` when it does not.
pub fn bare_continuation(
    hay: &[u8],
    at: usize,
    cx: &Context,
) -> Result<Option<Range<usize>>, NeedMore> {
    let (limit, eof) = (cx.limit, cx.eof);
    let Some(from) = continuation_start(hay, at, cx)? else {
        return Ok(None);
    };
    let limit = hay.len().min(limit.max(from));
    let measured = super::trim::measure(&hay[from..limit], limit < hay.len() || !eof);
    if from + measured.len == hay.len() && !eof {
        return Err(NeedMore);
    }
    // A word that reaches the candidate limit is not read: the first line
    // is reported alone, not a URI cut at the limit.
    if from + measured.len >= cx.limit {
        return Ok(None);
    }
    let word = &hay[from..from + measured.len];
    let len = super::trim::trimmed_len(word, None, |j| word[..j].contains(&b'\''));
    let word = &word[..len];
    let reads_as_rest = word.first().is_some_and(u8::is_ascii_alphanumeric)
        && !word.contains(&b':')
        && word.iter().any(|b| b"/.?#=&%".contains(b));
    Ok(reads_as_rest.then_some(from..from + len))
}

/// Where the text that continues a URI wrapped after a `-` starts, when
/// the line break stands at `at`: past it, the next line's indentation,
/// and its mail quote prefix when that has the depth of the URI's line
/// (`cx.quote_depth`; see [`quote_prefix_len`]). `Ok(None)` when no line
/// break stands at `at`, or the next line is another message's (another
/// depth) or too long a prefix.
fn continuation_start(hay: &[u8], at: usize, cx: &Context) -> Result<Option<usize>, NeedMore> {
    let mut from = match next_line_text(hay, at) {
        Ok(from) => from,
        Err(i) if i >= hay.len() && !cx.eof => return Err(NeedMore),
        Err(_) => return Ok(None),
    };
    if cx.quote_depth > 0 {
        match quote_prefix_len(hay, from, cx) {
            Ok(len) => from += len,
            Err(Skip::NeedMore) => return Err(NeedMore),
            Err(_) => return Ok(None),
        }
    }
    Ok(Some(from))
}

/// Where the next line's text starts, after the line break (`\n` or
/// `\r\n`) at `at` and the indentation (spaces and tabs) that follows it;
/// `Err` with where a line break was looked for when none stands at `at`.
fn next_line_text(hay: &[u8], at: usize) -> Result<usize, usize> {
    let mut i = at;
    if hay.get(i) == Some(&b'\r') {
        i += 1;
    }
    if hay.get(i) != Some(&b'\n') {
        return Err(i);
    }
    i += 1;
    while i < hay.len() && matches!(hay[i], b' ' | b'\t') {
        i += 1;
    }
    crate::work::examined(i - at);
    Ok(i)
}

/// Reads from `start` (the URI's first byte) up to the closing `>`.
pub fn read(hay: &[u8], start: usize, cx: &Context) -> Angle {
    let mut pieces = Pieces::default();
    let mut hyphens = Vec::new();
    let mut crossed_page_break = false;
    let not_uri = |at: usize, crossed: bool| Angle::NotUri {
        page_break_failed_at: crossed.then_some(at),
    };
    let mut i = start;
    let mut piece_start = start;
    loop {
        // The fast path: a run of URI bytes.
        let from = i;
        let to = hay.len().min(cx.limit.max(from));
        i = from + chars::run_len(&hay[from..to], &URI, to < hay.len() || !cx.eof);
        crate::work::examined(i - from + 1);
        if i >= cx.limit {
            return Angle::TooLong;
        }
        if i >= hay.len() {
            return if cx.eof {
                not_uri(i, crossed_page_break)
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
                return not_uri(i, crossed_page_break);
            }
            return Angle::Closed(Unwrapped {
                pieces,
                close: i,
                line_end_hyphens: hyphens,
            });
        }
        // A typesetter's hyphen (U+2010 or U+00AD) or a line continuation's
        // `\` at the end of a line is dropped; the parts around it are
        // joined.
        let typographic = match &hay[i..] {
            [0xE2, 0x80, 0x90, ..] => 3,
            [0xC2, 0xAD, ..] => 2,
            [b'\\', ..] => 1,
            [0xE2] | [0xE2, 0x80] | [0xC2] if !cx.eof => return Angle::NeedMore,
            _ => 0,
        };
        let space_at = i + typographic;
        // A line continuation's `\` ends its line (`\ ` is an escaped blank).
        if hay[i] == b'\\' && !matches!(hay.get(space_at), None | Some(b'\n' | b'\r')) {
            return not_uri(i, crossed_page_break);
        }
        if space_at >= hay.len() {
            return if cx.eof {
                not_uri(i, crossed_page_break)
            } else {
                Angle::NeedMore
            };
        }
        if !is_space(hay[space_at]) {
            return not_uri(i, crossed_page_break);
        }
        if piece_start < i {
            pieces.push(piece_start..i);
        }
        match skip_break(hay, space_at, cx, &mut crossed_page_break) {
            Skip::To(next, had_newline) => {
                // Spaces within a line are not wrapping: the brackets hold
                // prose (`<http://x.org/ for details>`), unless they only
                // pad the closing `>`.
                if !had_newline && (typographic > 0 || hay[next] != b'>') {
                    return not_uri(next, crossed_page_break);
                }
                if typographic == 0 && had_newline && i > start && hay[i - 1] == b'-' {
                    hyphens.push(i - 1);
                }
                i = next;
                piece_start = next;
            }
            Skip::NotUri(at) => return not_uri(at, crossed_page_break),
            Skip::TooLong => return Angle::TooLong,
            Skip::NeedMore => {
                return if cx.eof {
                    not_uri(hay.len(), crossed_page_break)
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
    /// Not a bracketed URI: the read failed at this offset.
    NotUri(usize),
    TooLong,
    NeedMore,
}

/// Skips a whitespace run at `i`, with the quote prefixes of the lines it
/// starts and, when it holds a blank line, the page break it must then be
/// (`crossed_page_break` is then set).
fn skip_break(hay: &[u8], mut i: usize, cx: &Context, crossed_page_break: &mut bool) -> Skip {
    let mut newlines = 0;
    let mut form_feed = false;
    loop {
        let from = i;
        while i < hay.len() && i < cx.limit && is_space(hay[i]) {
            newlines += usize::from(hay[i] == b'\n');
            form_feed |= hay[i] == b'\x0c';
            i += 1;
            if hay[i - 1] == b'\n' && cx.quote_depth > 0 {
                match quote_prefix_len(hay, i, cx) {
                    Ok(len) => i += len,
                    Err(skip) => return skip,
                }
            }
        }
        crate::work::examined(i - from + 1);
        if i >= cx.limit {
            return Skip::TooLong;
        }
        if i >= hay.len() {
            return if cx.eof {
                Skip::NotUri(i)
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
                *crossed_page_break = true;
            }
            Ok(None) => return Skip::NotUri(i),
            Err(()) => return Skip::NeedMore,
        }
    }
}

/// At `i`, the start of a continuation line of a URI quoted at depth
/// `cx.quote_depth` (in a mail reply): how many bytes of quote prefix to
/// skip. A line with no `>` in front has none (a mail client may wrap a
/// quoted line without quoting the rest); one with as many `>` as the
/// URI's line is skipped whole; one with one more `>` and nothing after
/// it holds the closing `>` (`> >` ends a URI quoted at depth 1). A line
/// of any other depth belongs to another message: the URI did not go on
/// there.
fn quote_prefix_len(hay: &[u8], i: usize, cx: &Context) -> Result<usize, Skip> {
    let bound = hay.len().min(cx.limit);
    let run = hay[i..bound]
        .iter()
        .take_while(|&&b| b == b'>' || b == b' ' || b == b'\t')
        .count();
    crate::work::examined(run + 1);
    let after = i + run;
    if after >= cx.limit {
        return Err(Skip::TooLong);
    }
    if after >= hay.len() && !cx.eof {
        return Err(Skip::NeedMore);
    }
    let depth = hay[i..after].iter().filter(|&&b| b == b'>').count();
    let line_ends = matches!(&hay[after..], [] | [b'\n', ..] | [b'\r', b'\n', ..]);
    if depth == 0 {
        Ok(0)
    } else if depth == cx.quote_depth {
        Ok(run)
    } else if depth == cx.quote_depth + 1 && line_ends {
        let closer = memchr::memrchr(b'>', &hay[i..after]).expect("the run holds a `>`");
        Ok(closer)
    } else {
        Err(Skip::NotUri(i))
    }
}

/// The longest footer or header line of a page break, in bytes.
const MAX_PAGE_LINE: usize = 200;

/// At `i`, the start of a line after a blank line: if a page footer line,
/// a form feed and a page header line follow, returns the offset just after
/// the header line. `Err` when the input ends before it is decided.
fn page_break_end(hay: &[u8], i: usize, cx: &Context) -> Result<Option<usize>, ()> {
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
            quote_depth: text.bytes().take_while(|&b| b == b'>').count(),
            limit: hay.len(),
            eof: true,
        };
        match read(hay, start, &cx) {
            Angle::Closed(u) => Some(u.pieces.iter().map(|r| &text[r.clone()]).collect()),
            _ => None,
        }
    }

    #[test]
    fn a_read_past_the_limit_is_too_long() {
        let text = format!("<http://a/{}\n  b>", "x".repeat(100));
        let cx = Context {
            quote_depth: 0,
            limit: 50,
            eof: true,
        };
        assert_eq!(read(text.as_bytes(), 1, &cx), Angle::TooLong);
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

    /// Found by reading a quoted reply: the continuation line's prefix was
    /// compared byte for byte, so `> >` under `>>` was taken for the
    /// closing bracket and the URI came out shortened.
    #[test]
    fn quote_prefixes_compare_by_depth() {
        assert_eq!(
            unwrap(">> <http://a.org/b/\n> > c/d>").as_deref(),
            Some("http://a.org/b/c/d")
        );
        // Another depth is another message: not a continuation.
        assert_eq!(unwrap(">> <http://a.org/b/\n> c/d>"), None);
        assert_eq!(unwrap(">> <http://a.org/b/\n>>> c/d>"), None);
        // One more `>` alone on its line is the closing bracket.
        assert_eq!(
            unwrap("> <http://a.org/b/\n> >\n").as_deref(),
            Some("http://a.org/b/")
        );
        // A line the mail client did not quote goes on.
        assert_eq!(
            unwrap("> <http://a.org/b/\nc/d>").as_deref(),
            Some("http://a.org/b/c/d")
        );
    }

    #[test]
    fn page_breaks_are_skipped_blank_lines_are_not() {
        let text = "<http://a/b/\n\n\nDoe  Informational  [Page 3]\n\x0c\nRFC 9999  Title  May 2020\n\n\n   c>";
        assert_eq!(unwrap(text).as_deref(), Some("http://a/b/c"));
        assert_eq!(unwrap("<http://a/b/\n\nnew paragraph>"), None);
        assert_eq!(unwrap("<http://a/b c\"d>"), None);
        assert_eq!(unwrap("<http://a/b"), None);
        // Punctuation is not a URI's (a hyphen inside a word is: an IRI).
        assert_eq!(unwrap("<http://a/b\u{2014}c>"), None);
        assert_eq!(
            unwrap("<http://a/b\u{2010}c>").as_deref(),
            Some("http://a/b\u{2010}c")
        );
        assert_eq!(unwrap("<http://a/ for details>"), None);
        assert_eq!(unwrap("<http://a/b  >").as_deref(), Some("http://a/b"));
    }
}
