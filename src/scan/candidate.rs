//! The scanning core, shared by the slice iterator and the stream reader:
//! from each `:` in the input, find the scheme before it, the delimiter
//! around it (`<...>`, `"..."` or none), and where the URI ends.
//!
//! # Invariants
//!
//! What the core decides for a `:` depends only on the [`LOOKBACK`] bytes
//! before it and on the bytes up to `max_candidate_len` + [`SLACK`] after
//! the URI's first byte. When the bytes it needs are not all in the window
//! and the input has not ended, it answers [`Step::NeedMore`] without
//! deciding anything, so a reader that supplies those bytes gets exactly
//! the answer the slice iterator gets.

use std::borrow::Cow;
use std::ops::Range;

use super::schemes;
use super::trim::trimmed_len;
use super::unwrap::{self, Angle};
use super::{Delimiter, Found, HyphenMode, Scanner};
use crate::span::Span;
use crate::uri::table::{SCHEME, URI};
use crate::uri::{ParseErrorKind, UriRef};

/// How far before a `:` the core looks (scheme, `URL:`, `<`, quote prefix).
pub const LOOKBACK: usize = 256;

/// How far past `max_candidate_len` the core may look (page-break lines).
pub const SLACK: usize = 1024;

/// The longest scheme considered.
const MAX_SCHEME: usize = 64;

/// The longest known scheme is shorter than this.
const MAX_KNOWN_SCHEME: usize = 40;

/// The shortest known scheme recognized after glued text.
const MIN_GLUED_SCHEME: usize = 3;

/// A view of the input: `hay` starts at absolute offset `offset`.
pub struct Window<'h> {
    pub hay: &'h [u8],
    pub offset: usize,
    /// True when `hay` ends where the input ends.
    pub eof: bool,
}

/// Scanning state carried from one call of [`Scanner::step`] to the next.
///
/// # Invariants
///
/// Every offset is absolute. `pos` only grows; `lines` has counted the line
/// breaks before `lines.counted`, which is at most the start of any URI not
/// yet reported.
#[derive(Debug, Default)]
pub struct State {
    /// The next byte to look for a `:` from.
    pub pos: usize,
    /// A known run of URI bytes: a bare URI starting inside it ends at its end.
    bare_run: Range<usize>,
    /// True while skipping the rest of a run of URI bytes that was too long
    /// to be a candidate: it is given up whole, not scanned from inside.
    in_long_run: bool,
    pub lines: Lines,
}

/// 1-based line numbers, counted lazily up to each reported URI.
#[derive(Debug)]
pub struct Lines {
    line: u64,
    line_start: usize,
    pub counted: usize,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines {
            line: 1,
            line_start: 0,
            counted: 0,
        }
    }
}

impl Lines {
    /// Counts the line breaks of `win` up to absolute offset `to`.
    pub fn advance(&mut self, win: &Window<'_>, to: usize) {
        if to <= self.counted {
            return;
        }
        let bytes = &win.hay[self.counted - win.offset..to - win.offset];
        let breaks = count_line_breaks(bytes);
        if breaks > 0 {
            self.line += breaks as u64;
            let last = memchr::memrchr(b'\n', bytes).expect("a line break was counted");
            self.line_start = self.counted + last + 1;
        }
        self.counted = to;
    }

    /// The line and byte column of absolute offset `at` (counted already).
    fn position(&self, at: usize) -> (u64, u64) {
        debug_assert!(self.counted == at);
        (self.line, (at - self.line_start + 1) as u64)
    }
}

/// Counts the `\n` bytes of `bytes`, in chunks small enough for byte-wide
/// counters, which the compiler turns into vector code.
fn count_line_breaks(bytes: &[u8]) -> usize {
    const CHUNK: usize = 255;
    let mut total = 0;
    for chunk in bytes.chunks(CHUNK) {
        let in_chunk: u8 = chunk.iter().map(|&b| u8::from(b == b'\n')).sum();
        total += usize::from(in_chunk);
    }
    total
}

/// What one call of [`Scanner::step`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Looked at one `:` (and may have emitted events).
    Progress,
    /// The window ends before the next `:` can be decided.
    NeedMore,
    /// No `:` is left in the window.
    Exhausted,
}

/// What the core reports.
pub enum Event<'h> {
    Found(Found<'h>),
    /// A candidate longer than `max_candidate_len`, given up on: the
    /// absolute offset of its first byte and its line.
    TooLong {
        start: usize,
        line: u64,
    },
}

/// A scheme found before a `:`.
struct Scheme {
    start: usize,
    /// True when `://` follows.
    slashes: bool,
}

/// How a candidate is delimited, found by looking before its scheme.
enum Around {
    Angle { url_prefix: bool },
    Quote,
    None,
}

impl Scanner {
    /// Looks at the next `:` at or after `state.pos` and emits what it
    /// starts. Offsets in `state` are absolute; `win` must hold the
    /// [`LOOKBACK`] bytes before `state.pos` (or start at offset 0).
    pub(crate) fn step<'h>(
        &self,
        win: &Window<'h>,
        state: &mut State,
        emit: &mut impl FnMut(Event<'h>),
    ) -> Step {
        let hay = win.hay;
        let mut from = state.pos - win.offset;
        if state.in_long_run {
            from += hay[from..].iter().take_while(|&&b| URI.contains(b)).count();
            state.pos = win.offset + from;
            if from == hay.len() && !win.eof {
                return Step::Exhausted; // the run goes on in the next window
            }
            state.in_long_run = false;
        }
        // Most `:` in text cannot end a scheme: a space or a line end
        // follows (`Note: `, `From: `), no scheme byte precedes, or digits
        // stand on both sides (`12:30`). They, and the colons with no
        // scheme before them, are passed over here, in one loop.
        let mut colons = memchr::memchr_iter(b':', &hay[from..]).map(|p| from + p);
        let (colon, scheme) = loop {
            let Some(colon) = colons.next() else {
                state.pos = win.offset + hay.len();
                return Step::Exhausted;
            };
            let before = colon.checked_sub(1).map(|i| hay[i]);
            if !before.is_some_and(|b| SCHEME.contains(b)) {
                continue;
            }
            match hay.get(colon + 1) {
                Some(&b) if !URI.contains(b) => continue,
                Some(&b) if b.is_ascii_digit() && before.is_some_and(|b| b.is_ascii_digit()) => {
                    continue
                }
                Some(_) => {}
                None if win.eof => continue,
                None => {
                    state.pos = win.offset + colon;
                    return Step::NeedMore;
                }
            }
            match self.scheme_before(win, colon) {
                Ok(Some(scheme)) => break (colon, scheme),
                Ok(None) => {}
                Err(NeedMore) => {
                    state.pos = win.offset + colon;
                    return Step::NeedMore;
                }
            }
        };
        match self.candidate(win, state, scheme, colon, emit) {
            Ok(resume) => {
                state.pos = win.offset + resume;
                Step::Progress
            }
            Err(NeedMore) => {
                state.pos = win.offset + colon;
                Step::NeedMore
            }
        }
    }

    /// Finds the scheme that ends at `colon`, if one starts a candidate.
    fn scheme_before(&self, win: &Window<'_>, colon: usize) -> Result<Option<Scheme>, NeedMore> {
        let hay = win.hay;
        let floor = colon.saturating_sub(LOOKBACK.min(MAX_SCHEME));
        let mut run = colon;
        while run > floor && SCHEME.contains(hay[run - 1]) {
            run -= 1;
        }
        // A run that goes on past the limit has no word boundary of its own.
        let bounded = run == 0 || !SCHEME.contains(hay[run - 1]);
        if hay.len() < colon + 3 && !win.eof {
            return Err(NeedMore);
        }
        let slashes = hay[colon + 1..].starts_with(b"//");
        let after = hay.get(colon + 1).copied();
        if !slashes && !after.is_some_and(|b| URI.contains(b) && b != b':') {
            return Ok(None); // `News: …`, `data: …`, `Re:` at a line end, `DNS::Net`
        }
        let word = (run..colon).find(|&i| hay[i].is_ascii_alphabetic());
        let Some(word) = word else {
            return Ok(None); // `12:30`
        };
        // A scheme right after another `:` is a piece of something else
        // (`2001:db8:aaa:bbb`, `jabber:server:dialback`), unless that `:`
        // ends the `URL:` prefix.
        if bounded && run > 0 && hay[run - 1] == b':' {
            let url_prefix = run >= 4 && hay[run - 4..run - 1].eq_ignore_ascii_case(b"url");
            if !url_prefix {
                return Ok(None);
            }
        }
        if bounded {
            let name = &hay[word..colon];
            if name.eq_ignore_ascii_case(b"url") {
                return Ok(None); // the `URL:` prefix of Appendix C
            }
            if schemes::is_known(name) {
                return Ok(Some(Scheme {
                    start: word,
                    slashes,
                }));
            }
        }
        // Text glued before a known scheme is not part of it:
        // `post.https://`, `can...http:`, quoted-printable's `=3Dhttp://`.
        // Only after a `.`, a digit or `=3D`: a word's end is not a scheme
        // (`broadcast:`), nor is what follows `+` (`git+ssh://`).
        let glued = (word + 1..colon)
            .filter(|&i| colon - i >= MIN_GLUED_SCHEME && colon - i <= MAX_KNOWN_SCHEME)
            .find(|&i| {
                let after_glue = matches!(hay[i - 1], b'.' | b'0'..=b'9')
                    || (i >= 3 && hay[i - 3..i].eq_ignore_ascii_case(b"=3d"));
                after_glue && hay[i].is_ascii_alphabetic() && schemes::is_known(&hay[i..colon])
            });
        if let Some(start) = glued {
            return Ok(Some(Scheme { start, slashes }));
        }
        let unknown_ok = bounded && (slashes || self.config.any_scheme);
        Ok(unknown_ok.then_some(Scheme {
            start: word,
            slashes,
        }))
    }

    /// Reads the candidate whose scheme starts at `scheme.start`; emits what
    /// it finds and returns where to look for the next `:`.
    fn candidate<'h>(
        &self,
        win: &Window<'h>,
        state: &mut State,
        scheme: Scheme,
        colon: usize,
        emit: &mut impl FnMut(Event<'h>),
    ) -> Result<usize, NeedMore> {
        let hay = win.hay;
        let start = scheme.start;
        let around = around(hay, start, colon);
        if let Around::Angle { url_prefix } = around {
            let cx = unwrap::Context {
                quote_prefix: quote_prefix(win, start, colon),
                limit: start + self.config.max_candidate_len,
                eof: win.eof,
            };
            match unwrap::read(hay, start, &cx) {
                Angle::NeedMore => return Err(NeedMore),
                Angle::NotUri => {}
                Angle::Closed(u) => {
                    if self.emit_angle(win, state, &scheme, colon, &u, url_prefix, emit) {
                        return Ok(u.close + 1);
                    }
                }
            }
        }
        // Bare (or quoted): a run of URI bytes.
        let abs = win.offset + start;
        let end = if state.bare_run.contains(&abs) {
            state.bare_run.end - win.offset
        } else {
            let limit = hay.len().min(start + self.config.max_candidate_len);
            let len = hay[start..limit]
                .iter()
                .take_while(|&&b| URI.contains(b))
                .count();
            if start + len == hay.len() && !win.eof {
                return Err(NeedMore);
            }
            start + len
        };
        if end - start >= self.config.max_candidate_len {
            state.lines.advance(win, abs);
            let (line, _) = state.lines.position(abs);
            emit(Event::TooLong { start: abs, line });
            state.in_long_run = true;
            return Ok(end);
        }
        state.bare_run = abs..win.offset + end;
        let quoted = matches!(around, Around::Quote) && hay.get(end) == Some(&b'"');
        let (end, delimiter) = if quoted {
            (end, Delimiter::Quote)
        } else {
            (start + trimmed_len(&hay[start..end]), Delimiter::None)
        };
        if end <= colon + 1 + 2 * usize::from(scheme.slashes) {
            return Ok(colon + 1); // nothing after `scheme:` or `scheme://`
        }
        let text = &hay[start..end];
        match UriRef::parse_bytes(text) {
            Ok(uri) if self.shape_ok(&scheme, colon, &hay[..end]) => {
                let text = Cow::Borrowed(uri.as_str());
                emit(Event::Found(self.found(
                    win,
                    state,
                    start..end,
                    text,
                    delimiter,
                    Flags::default(),
                    None,
                )));
                Ok(end)
            }
            Ok(_) => Ok(colon + 1),
            Err(e) => {
                if self.config.report_invalid {
                    let text = String::from_utf8_lossy(text);
                    emit(Event::Found(self.found(
                        win,
                        state,
                        start..end,
                        text,
                        delimiter,
                        Flags::default(),
                        Some(e),
                    )));
                }
                // A bad percent-encoding or a forbidden byte spoils every
                // candidate that would contain it: skip to it.
                let spoiled = matches!(
                    e.kind(),
                    ParseErrorKind::PercentEncoding
                        | ParseErrorKind::Path
                        | ParseErrorKind::Query
                        | ParseErrorKind::Fragment
                ) && !matches!(text[e.index()], b'[' | b']');
                Ok(if spoiled {
                    (start + e.index()).max(colon + 1)
                } else {
                    colon + 1
                })
            }
        }
    }

    /// Emits the URI(s) read inside angle brackets; returns false when the
    /// content is not a URI.
    #[allow(clippy::too_many_arguments)]
    fn emit_angle<'h>(
        &self,
        win: &Window<'h>,
        state: &mut State,
        scheme: &Scheme,
        colon: usize,
        u: &unwrap::Unwrapped,
        url_prefix: bool,
        emit: &mut impl FnMut(Event<'h>),
    ) -> bool {
        let hay = win.hay;
        let hyphen = !u.line_end_hyphens.is_empty();
        let readings: &[bool] = match (hyphen, self.config.hyphen) {
            (false, _) | (true, HyphenMode::Keep) => &[true],
            (true, HyphenMode::Drop) => &[false],
            (true, HyphenMode::Both) => &[true, false],
        };
        let mut texts = Vec::with_capacity(readings.len());
        for &keep_hyphens in readings {
            // The pieces of this reading: without their line-end hyphen
            // when it is dropped (a piece may end up empty).
            let pieces: Vec<Range<usize>> = u
                .pieces
                .iter()
                .map(|p| {
                    let drop = !keep_hyphens && u.line_end_hyphens.contains(&(p.end - 1));
                    p.start..p.end - usize::from(drop)
                })
                .filter(|p| !p.is_empty())
                .collect();
            // INVARIANT: the first piece starts with the scheme, never a `-`.
            let span = pieces[0].start..pieces[pieces.len() - 1].end;
            let text: Cow<'h, [u8]> = if pieces.len() == 1 {
                Cow::Borrowed(&hay[span.clone()])
            } else {
                let mut joined = Vec::with_capacity(span.len());
                for piece in pieces {
                    joined.extend_from_slice(&hay[piece]);
                }
                Cow::Owned(joined)
            };
            let rest_start = colon + 1 - scheme.start;
            let valid = text.len() > rest_start + 2 * usize::from(scheme.slashes)
                && UriRef::parse_bytes(&text).is_ok()
                && (scheme.slashes
                    || schemes::has_required_shape(
                        &hay[scheme.start..colon],
                        &text[rest_start.min(text.len())..],
                    ));
            if !valid {
                return false;
            }
            texts.push((text, span));
        }
        for (text, span) in texts {
            let text = match text {
                Cow::Borrowed(b) => {
                    Cow::Borrowed(std::str::from_utf8(b).expect("a parsed URI is ASCII"))
                }
                Cow::Owned(v) => Cow::Owned(String::from_utf8(v).expect("a parsed URI is ASCII")),
            };
            let flags = Flags {
                wrapped: u.pieces.len() > 1,
                url_prefix,
                hyphen_break: hyphen,
            };
            emit(Event::Found(self.found(
                win,
                state,
                span,
                text,
                Delimiter::Angle,
                flags,
                None,
            )));
        }
        true
    }

    /// For a scheme used without `//`: the shape its specification gives.
    fn shape_ok(&self, scheme: &Scheme, colon: usize, hay: &[u8]) -> bool {
        scheme.slashes
            || self.config.any_scheme && !schemes::is_known(&hay[scheme.start..colon])
            || schemes::has_required_shape(&hay[scheme.start..colon], &hay[colon + 1..])
    }

    #[allow(clippy::too_many_arguments)]
    fn found<'h>(
        &self,
        win: &Window<'h>,
        state: &mut State,
        span: Range<usize>,
        text: Cow<'h, str>,
        delimiter: Delimiter,
        flags: Flags,
        error: Option<crate::uri::ParseError>,
    ) -> Found<'h> {
        let start = win.offset + span.start;
        state.lines.advance(win, start);
        let (line, column) = state.lines.position(start);
        Found {
            text,
            span: Span::new(start, win.offset + span.end),
            line,
            column,
            delimiter,
            wrapped: flags.wrapped,
            url_prefix: flags.url_prefix,
            hyphen_break: flags.hyphen_break,
            error,
        }
    }
}

/// The input ended (not at end of stream) before a decision.
pub struct NeedMore;

#[derive(Default)]
struct Flags {
    wrapped: bool,
    url_prefix: bool,
    hyphen_break: bool,
}

/// Looks before the scheme at `start` for `"`, or `<` with optional
/// whitespace and an optional `URL:` prefix between.
fn around(hay: &[u8], start: usize, colon: usize) -> Around {
    let floor = colon.saturating_sub(LOOKBACK);
    if start > floor && hay[start - 1] == b'"' {
        return Around::Quote;
    }
    let skip_space = |mut i: usize| {
        while i > floor && matches!(hay[i - 1], b' ' | b'\t' | b'\r' | b'\n') {
            i -= 1;
        }
        i
    };
    let mut i = skip_space(start);
    let mut url_prefix = false;
    if i >= floor + 4 && hay[i - 4..i].eq_ignore_ascii_case(b"url:") {
        url_prefix = true;
        i = skip_space(i - 4);
    }
    if i > floor && hay[i - 1] == b'<' {
        Around::Angle { url_prefix }
    } else {
        Around::None
    }
}

/// The mail quote prefix (`>`, `> >`, `>>`) of the line that holds `start`,
/// without trailing spaces; empty when there is none or the line starts
/// more than [`LOOKBACK`] bytes before the `:`.
fn quote_prefix<'h>(win: &Window<'h>, start: usize, colon: usize) -> &'h [u8] {
    let hay = win.hay;
    let floor = colon.saturating_sub(LOOKBACK);
    let line_start = match memchr::memrchr(b'\n', &hay[floor..start]) {
        Some(p) => floor + p + 1,
        None if win.offset + floor == 0 => 0,
        None => return b"",
    };
    let line = &hay[line_start..start];
    let len = line.iter().take_while(|&&b| b == b'>' || b == b' ').count();
    let prefix = &line[..len];
    let trimmed = prefix.len() - prefix.iter().rev().take_while(|&&b| b == b' ').count();
    if prefix.first() == Some(&b'>') {
        &prefix[..trimmed]
    } else {
        b""
    }
}
