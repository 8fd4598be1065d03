//! Reading the candidate a scheme starts, in stages with one job each:
//!
//! 1. **delimit** ([`Candidate::delimiter`]): what bounds it, `<...>`,
//!    `"..."` or nothing, by looking before its scheme;
//! 2. **unwrap** ([`Core::read_angle`], with [`super::unwrap`]): the inside
//!    of angle brackets, whitespace, quote prefixes and page breaks removed;
//! 3. **measure and trim** ([`Core::read_bare`], with [`super::trim`]): the
//!    run of URI bytes, less the sentence's punctuation;
//! 4. **validate** ([`Core::validate_bare`]): the scheme's shape, what the
//!    run's failed candidates proved ([`super::run`]), then the parser;
//! 5. **report** ([`Core::report`]): positions, flags, the receiver.
//!
//! Each stage returns where the next `:` is looked for, or hands the
//! candidate on to the next stage.

use std::borrow::Cow;
use std::ops::Range;

use super::chars;
use super::core::{Core, Emit, NeedMore, Report, Window, LOOKBACK};
use super::schemes::Scheme;
use super::trim::{self, trimmed_len};
use super::unwrap::{self, Angle, Pieces, Unwrapped};
use super::{Delimiter, Found, HyphenMode, IriMode};
use crate::span::Span;
use crate::uri::table::{Table, URI};
use crate::uri::{IriRef, ParseError, ParseErrorKind, UriRef};

/// The candidate being read: its scheme, in its window.
pub(super) struct Candidate<'w, 'h> {
    win: &'w Window<'h>,
    scheme: Scheme,
}

/// What bounds a candidate, found by looking before its scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Around {
    Angle {
        url_prefix: bool,
    },
    /// A quotation mark, closed by these bytes.
    Quote(&'static [u8]),
    None,
}

/// The bytes of a template: a URI's, and the braces of its expressions
/// (RFC 6570's `{id}`, a format string's `{}`).
const URI_OR_BRACES: Table = URI.with(b'{').with(b'}');

/// The quotation marks that delimit as `"..."` does: each opener, and its
/// closer.
const QUOTES: [(&str, &str); 7] = [
    ("\"", "\""),
    ("\u{201C}", "\u{201D}"), // “…”
    ("\u{2018}", "\u{2019}"), // ‘…’
    ("\u{AB}", "\u{BB}"),     // «…»
    ("\u{300C}", "\u{300D}"), // 「…」
    ("\u{300E}", "\u{300F}"), // 『…』
    ("\u{201E}", "\u{201C}"), // „…“
];

/// How a candidate that follows a `"` ends ([`Core::quoted_end`]).
enum QuotedEnd {
    /// At its closing mark, on its own line, at this offset of the window.
    Quote(usize),
    /// At its closing mark, over lines broken after a `-`.
    Wrapped(Unwrapped),
    /// Not at a `"`: it is read as a bare candidate.
    None,
}

/// How a URI was written, for its report.
#[derive(Clone, Copy, Debug)]
struct Flags {
    delimiter: Delimiter,
    wrapped: bool,
    url_prefix: bool,
    hyphen_break: bool,
}

impl Flags {
    fn bare(delimiter: Delimiter) -> Flags {
        Flags {
            delimiter,
            wrapped: false,
            url_prefix: false,
            hyphen_break: false,
        }
    }
}

impl<'h> Candidate<'_, 'h> {
    /// Its first byte, in the window.
    fn start(&self) -> usize {
        self.scheme.start
    }

    /// The scheme's name.
    fn name(&self) -> &'h [u8] {
        &self.win.hay[self.scheme.start..self.scheme.colon]
    }

    /// An absolute offset, from one in the window.
    fn abs(&self, at: usize) -> usize {
        self.win.offset + at
    }

    /// Returns true if and only if `len` bytes of candidate hold nothing
    /// after `scheme:` (or `scheme://`).
    fn is_empty_after_scheme(&self, end: usize) -> bool {
        end <= self.scheme.colon + 1 + 2 * usize::from(self.scheme.slashes)
    }

    /// Stage 1: looks before the scheme for a quotation mark ([`QUOTES`]),
    /// or for `<` with optional whitespace and an optional `URL:` prefix
    /// between.
    fn delimiter(&self) -> Around {
        let hay = self.win.hay;
        let start = self.start();
        let floor = self.scheme.colon.saturating_sub(LOOKBACK);
        let before = &hay[floor.min(start)..start];
        if let Some((_, close)) = QUOTES
            .iter()
            .find(|(open, _)| before.ends_with(open.as_bytes()))
        {
            return Around::Quote(close.as_bytes());
        }
        // Blanks, up to a blank line: the inside of `<...>` is read no
        // further (see `unwrap`), so a `<` before one brackets nothing.
        let skip_space = |mut i: usize| {
            let mut line_ends = 0;
            while i > floor && matches!(hay[i - 1], b' ' | b'\t' | b'\r' | b'\n') {
                line_ends += usize::from(hay[i - 1] == b'\n');
                if line_ends == 2 {
                    break;
                }
                i -= 1;
            }
            crate::work::examined(start - i + 1);
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
}

impl Core<'_> {
    /// Reads the candidate that `scheme` starts; reports what it gives and
    /// returns where to look for the next `:` (in the window).
    pub(super) fn read_candidate<'h, R: Report<'h>>(
        &mut self,
        win: &Window<'h>,
        scheme: Scheme,
        emit: &mut Emit<'_, R>,
    ) -> Result<usize, NeedMore> {
        let c = Candidate { win, scheme };
        let around = c.delimiter();
        if let Around::Angle { url_prefix } = around {
            if c.abs(c.start()) >= self.angles_from {
                if let Some(resume) = self.read_angle(&c, url_prefix, emit)? {
                    return Ok(resume);
                }
            }
        }
        let close_quote = match around {
            Around::Quote(close) => Some(close),
            _ => None,
        };
        self.read_bare(&c, close_quote, emit)
    }

    /// Stage 2: the inside of `<...>`. Returns where to resume when the
    /// brackets held a URI (or a candidate too long to look at), `None`
    /// when the text is to be read by the bare rules instead.
    fn read_angle<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        url_prefix: bool,
        emit: &mut Emit<'_, R>,
    ) -> Result<Option<usize>, NeedMore> {
        let cx = self.unwrap_context(c);
        match unwrap::read(c.win.hay, c.start(), &cx) {
            Angle::NeedMore => Err(NeedMore),
            Angle::NotUri {
                page_break_failed_at,
            } => {
                if let Some(at) = page_break_failed_at {
                    self.angles_from = c.abs(at);
                }
                Ok(None)
            }
            Angle::TooLong => {
                // Given up whole: its first line is not a URI of its own.
                let start = c.abs(c.start());
                let (line, _) = self.position(c.win, start);
                emit.too_long(start, line);
                self.in_long_run = true;
                Ok(Some(c.start()))
            }
            Angle::Closed(u) => Ok(self
                .validate_unwrapped(c, &u, Delimiter::Angle, url_prefix, emit)
                .then_some(u.close + 1)),
        }
    }

    /// What the `unwrap` readers need to read candidate `c` over lines: the
    /// quote depth of its line, how far it may reach, and whether the input
    /// ends with the window.
    fn unwrap_context(&mut self, c: &Candidate<'_, '_>) -> unwrap::Context {
        unwrap::Context {
            quote_depth: self.quote_depth(c),
            limit: c.start() + self.scanner.config.max_candidate_len,
            eof: c.win.eof,
        }
    }

    /// The depth of the mail quote prefix (`>`, `> >`, `>>`) of the line
    /// where the candidate starts: 0 when there is none, or when the line
    /// starts more than [`LOOKBACK`] bytes before the `:`. Read once per
    /// line.
    fn quote_depth(&mut self, c: &Candidate<'_, '_>) -> usize {
        let start = c.abs(c.start());
        self.lines.advance(c.win, start);
        let line_start = self.lines.line_start;
        if c.abs(c.scheme.colon) - line_start > LOOKBACK {
            return 0;
        }
        if let Some((cached_line, depth)) = self.quote {
            if cached_line == line_start {
                return depth;
            }
        }
        let line = &c.win.hay[line_start - c.win.offset..c.start()];
        let run = line.iter().take_while(|&&b| b == b'>' || b == b' ').count();
        crate::work::examined(run + 1);
        let depth = if line.first() == Some(&b'>') {
            line[..run].iter().filter(|&&b| b == b'>').count()
        } else {
            0
        };
        self.quote = Some((line_start, depth));
        depth
    }

    /// The comment marker (`#`, `//`, `##`, `///`, `//!`) that the line where the candidate
    /// starts starts with, after its indentation: `None` when there is
    /// none, or when the line starts more than [`LOOKBACK`] bytes before
    /// the `:`. Asked after [`Core::quote_depth`], which found the line.
    fn comment_marker<'h>(&self, c: &Candidate<'_, 'h>) -> Option<&'h [u8]> {
        let line_start = self.lines.line_start;
        if c.abs(c.scheme.colon) - line_start > LOOKBACK {
            return None;
        }
        let line = &c.win.hay[line_start - c.win.offset..c.start()];
        crate::work::examined(line.len());
        let text = line.trim_ascii_start();
        let len = unwrap::comment_marker_len(text);
        (len > 0).then(|| &text[..len])
    }

    /// Validates and reports the reading(s) of a candidate read over lines,
    /// in `<...>` or `"..."` (one, or two when a hyphen ends a line and
    /// [`HyphenMode::Both`] asks for both). Returns false, reporting
    /// nothing, when a reading is not a URI.
    fn validate_unwrapped<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        u: &Unwrapped,
        delimiter: Delimiter,
        url_prefix: bool,
        emit: &mut Emit<'_, R>,
    ) -> bool {
        let hyphen = !u.line_end_hyphens.is_empty();
        let readings: &[bool] = match (hyphen, self.scanner.config.hyphen) {
            (false, _) | (true, HyphenMode::Keep) => &[true],
            (true, HyphenMode::Drop) => &[false],
            (true, HyphenMode::Both) => &[true, false],
        };
        let mut texts = [None, None];
        for (text_slot, &keep_hyphens) in texts.iter_mut().zip(readings) {
            let (text, span) = u.reading(c.win.hay, keep_hyphens);
            crate::work::examined(text.len());
            if c.is_empty_after_scheme(c.start() + text.len()) {
                return false;
            }
            let rest_start = c.scheme.colon + 1 - c.start();
            let shaped = |valid: &Valid<'_>| {
                let rest = &valid.written().as_bytes()[rest_start..];
                c.scheme.accepts(
                    c.name(),
                    rest,
                    &mut |b| memchr::memchr(b, rest).is_some(),
                    self.scanner.config.any_scheme,
                )
            };
            let valid = match text {
                Cow::Borrowed(b) => parse(b, self.scanner.config.iri, true).ok().filter(shaped),
                Cow::Owned(ref v) => parse(v, self.scanner.config.iri, true)
                    .ok()
                    .filter(shaped)
                    .map(Valid::into_owned),
            };
            let Some(valid) = valid else {
                return false;
            };
            *text_slot = Some((valid, span));
        }
        let flags = Flags {
            delimiter,
            wrapped: u.pieces.len() > 1,
            url_prefix,
            hyphen_break: hyphen,
        };
        for (valid, span) in texts.into_iter().flatten() {
            self.report(c.win, span, valid, flags, None, emit);
        }
        true
    }

    /// Stage 3: a bare (or quoted, when `close_quote` is its closing
    /// quotation mark) candidate, a run of URI characters: measured once
    /// per run, then trimmed.
    fn read_bare<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        close_quote: Option<&'static [u8]>,
        emit: &mut Emit<'_, R>,
    ) -> Result<usize, NeedMore> {
        let hay = c.win.hay;
        let start = c.start();
        let abs = c.abs(start);
        let max = self.scanner.config.max_candidate_len;
        if !self.run.contains(abs) {
            let limit = hay.len().min(start + max);
            let more = limit < hay.len() || !c.win.eof;
            let measured = trim::measure(&hay[start..limit], more);
            if start + measured.len == hay.len() && !c.win.eof {
                return Err(NeedMore);
            }
            if measured.len >= max {
                let (line, _) = self.position(c.win, abs);
                emit.too_long(abs, line);
                self.in_long_run = true;
                return Ok(start + measured.len);
            }
            self.run.start(abs, measured);
        }
        let offset = c.win.offset;
        // The byte before the candidate: a `'` or a `_` that opened it.
        let opener = start.checked_sub(1).map(|i| hay[i]);
        let run_end = self.run.bare_end(hay, offset, abs) - offset;
        // A URI opened by `'` ends at its partner, as in `xmlns='urn:x'/>`
        // and `open('http://x.org/','w')` (`'` is a sub-delim: the run goes
        // on past it).
        let cut = (opener == Some(b'\''))
            .then(|| self.run.next(hay, offset, b'\'', abs))
            .flatten()
            .map_or(run_end, |q| run_end.min(q - offset));
        // A run that ends at `{` is a template: RFC 6570's
        // `http://x.org/search{?q}`, a program's `http://${host}/`, a
        // `{{version}}`. The URI is not written out, and the text before the
        // `{` is not it (`http://$`, `…/tag/v`).
        if hay.get(cut) == Some(&b'{') {
            if self.scanner.config.report_invalid && !self.run.reported_invalid {
                self.report_template(c, cut, close_quote, emit)?;
            }
            return Ok(c.scheme.colon + 1);
        }
        let quoted_end = if let Some(close) = close_quote {
            match self.quoted_end(c, cut, close)? {
                QuotedEnd::Quote(end) => Some(end),
                QuotedEnd::Wrapped(u) => {
                    if self.validate_unwrapped(c, &u, Delimiter::Quote, false, emit) {
                        return Ok(u.close + 1);
                    }
                    None
                }
                QuotedEnd::None => None,
            }
        } else {
            None
        };
        let (end, delimiter) = match quoted_end {
            Some(end) => (end, Delimiter::Quote),
            None => {
                let emphasis = opener.filter(|&b| b == b'_');
                let run = &mut self.run;
                let quote_before = |i: usize| run.has(hay, offset, b'\'', abs, abs + i);
                let len = trimmed_len(&hay[start..cut], emphasis, quote_before);
                if self.run.starts_at(abs) {
                    // Both rules read the next line once per run; a line
                    // continuation's `\` keeps the punctuation before it
                    // (`http://www.\` then `example.org/`).
                    if len == cut - start {
                        if let Some(resume) = self.read_hyphen_continuation(c, cut, emit)? {
                            return Ok(resume);
                        }
                    }
                    if let Some(resume) = self.read_backslash_continuation(c, cut, emit)? {
                        return Ok(resume);
                    }
                }
                (start + len, Delimiter::None)
            }
        };
        if c.is_empty_after_scheme(end) {
            return Ok(c.scheme.colon + 1);
        }
        // Markup's square brackets after it are read for a bare URI, the
        // first candidate of its run only, and not where a `<` opened (nor
        // where quotes delimit it).
        let markup_brackets =
            delimiter == Delimiter::None && self.run.starts_at(abs) && opener != Some(b'<');
        let flags = Flags::bare(delimiter);
        Ok(self.validate_bare(c, start..end, flags, markup_brackets, emit))
    }

    /// The hyphen rule for a bare candidate whose URI bytes end in `-` at a
    /// line break (`cut`): joined with the next line's first word when that
    /// reads as the URI's rest ([`unwrap::bare_continuation`]). Returns
    /// where to resume when the joined reading(s) were reported. Only the
    /// first candidate of a run tries, so a run's continuation is read once.
    fn read_hyphen_continuation<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        cut: usize,
        emit: &mut Emit<'_, R>,
    ) -> Result<Option<usize>, NeedMore> {
        let hay = c.win.hay;
        if hay[cut - 1] != b'-' {
            return Ok(None);
        }
        let cx = self.unwrap_context(c);
        let Some(next) = unwrap::bare_continuation(hay, cut, &cx)? else {
            return Ok(None);
        };
        let u = Unwrapped {
            pieces: Pieces::of([c.start()..cut, next.clone()]),
            close: next.end,
            line_end_hyphens: vec![cut - 1],
        };
        Ok(self.validate_joined(c, &u, emit))
    }

    /// Validates and reports a bare candidate joined over lines `u`;
    /// returns where to resume (the end of its last piece) when it was.
    fn validate_joined<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        u: &Unwrapped,
        emit: &mut Emit<'_, R>,
    ) -> Option<usize> {
        self.validate_unwrapped(c, u, Delimiter::None, false, emit)
            .then_some(u.close)
    }

    /// The line continuation of a bare candidate whose URI bytes end right
    /// before a `\` that ends its line (`cut`): joined with the next
    /// lines' first words while they read as the URI's rest
    /// ([`unwrap::backslash_continuation`]). Returns where to resume when
    /// the joined reading was reported. Only the first candidate of a run
    /// tries, as for a hyphen.
    fn read_backslash_continuation<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        cut: usize,
        emit: &mut Emit<'_, R>,
    ) -> Result<Option<usize>, NeedMore> {
        let hay = c.win.hay;
        if hay.get(cut) != Some(&b'\\') {
            return Ok(None);
        }
        let cx = self.unwrap_context(c);
        let comment = self.comment_marker(c);
        let next = unwrap::backslash_continuation(hay, cut, comment, &cx)?;
        let Some(close) = next.last().map(|last| last.end) else {
            return Ok(None);
        };
        let u = Unwrapped {
            pieces: Pieces::of(std::iter::once(c.start()..cut).chain(next)),
            close,
            line_end_hyphens: Vec::new(),
        };
        Ok(self.validate_joined(c, &u, emit))
    }

    /// How a candidate that follows a quotation mark ends: its URI
    /// characters, brackets and all, read on from `cut` (where the bare
    /// rules end it) up to the closing mark `close`, maybe over lines
    /// broken after a `-`.
    fn quoted_end(
        &mut self,
        c: &Candidate<'_, '_>,
        cut: usize,
        close: &[u8],
    ) -> Result<QuotedEnd, NeedMore> {
        let hay = c.win.hay;
        let limit = c.start() + self.scanner.config.max_candidate_len;
        let to = hay.len().min(limit);
        let more = chars::run_len(&hay[cut..to], &URI, to < hay.len() || !c.win.eof);
        crate::work::examined(more + 1);
        let end = cut + more;
        if end + close.len() > hay.len() && !c.win.eof {
            return Err(NeedMore);
        }
        if hay[end..].starts_with(close) {
            return Ok(QuotedEnd::Quote(end));
        }
        // Only a line that ends in `-` (the hyphen rule) or in a line
        // continuation's `\` goes on: the quote depth is read for those
        // alone.
        if unwrap::line_continuation(hay, end).is_none() {
            return Ok(QuotedEnd::None);
        }
        let cx = self.unwrap_context(c);
        Ok(
            match unwrap::read_quoted(hay, c.start(), end, close, &cx)? {
                Some(u) => QuotedEnd::Wrapped(u),
                None => QuotedEnd::None,
            },
        )
    }

    /// Reports a template (a run that ends at `{`, `cut`) as an invalid
    /// candidate, on request ([`ScannerBuilder::report_invalid`]): its URI
    /// bytes and braces (`https://crates.io/api/v1/crates/{}`, RFC 6570's
    /// `/users{/id}`), less the sentence's punctuation, up to the closing
    /// quotation mark `close_quote` when it ends there. Once per run, as
    /// for any invalid candidate, and not when it reaches the candidate
    /// limit; the scan resumes after the scheme, as without the request.
    ///
    /// [`ScannerBuilder::report_invalid`]: crate::ScannerBuilder::report_invalid
    fn report_template<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        cut: usize,
        close_quote: Option<&'static [u8]>,
        emit: &mut Emit<'_, R>,
    ) -> Result<(), NeedMore> {
        let hay = c.win.hay;
        let to = hay
            .len()
            .min(c.start() + self.scanner.config.max_candidate_len);
        let end = cut + URI_OR_BRACES.run_len(&hay[cut..to]);
        crate::work::examined(end - cut + 1);
        if end == hay.len() && !c.win.eof {
            return Err(NeedMore);
        }
        // One that runs to the candidate limit is too long to look at.
        if end - c.start() >= self.scanner.config.max_candidate_len {
            return Ok(());
        }
        let quoted = close_quote.filter(|close| hay[end..].starts_with(close));
        let (end, delimiter) = match quoted {
            Some(_) => (end, Delimiter::Quote),
            None => {
                let text = &hay[c.start()..end];
                let len = trimmed_len(text, None, |j| text[..j].contains(&b'\''));
                (c.start() + len, Delimiter::None)
            }
        };
        let text = &hay[c.start()..end];
        if let Err(e) = parse(text, self.scanner.config.iri, true) {
            self.run.reported_invalid = true;
            let invalid = Valid {
                text: String::from_utf8_lossy(text),
                iri: None,
            };
            self.report(
                c.win,
                c.start()..end,
                invalid,
                Flags::bare(delimiter),
                Some(e),
                emit,
            );
        }
        Ok(())
    }

    /// Stage 4: the scheme's shape, what the run's failed candidates
    /// proved, then the parser. Reports the URI (or, on request, the first
    /// invalid candidate of the run) and returns where to resume. With
    /// `markup_brackets`, a candidate that fails on a square bracket is
    /// read again without markup's brackets after it.
    fn validate_bare<'h, R: Report<'h>>(
        &mut self,
        c: &Candidate<'_, 'h>,
        span: Range<usize>,
        flags: Flags,
        markup_brackets: bool,
        emit: &mut Emit<'_, R>,
    ) -> usize {
        let (hay, offset) = (c.win.hay, c.win.offset);
        let colon = c.scheme.colon;
        let next = colon + 1;
        let run = &mut self.run;
        let (rest_from, rest_to) = (offset + next, offset + span.end);
        let shaped = c.scheme.accepts(
            c.name(),
            &hay[next..span.end],
            &mut |b| run.has(hay, offset, b, rest_from, rest_to),
            self.scanner.config.any_scheme,
        );
        if !shaped {
            return next;
        }
        let (start, end) = (c.abs(span.start), c.abs(span.end));
        if self.run.dooms(start, c.abs(colon), c.scheme.slashes, end) {
            return next;
        }
        let text = &hay[span.clone()];
        let mode = self.scanner.config.iri;
        // A query's brackets are read as a browser reads them, but in the
        // first reading of a candidate that may end in markup's.
        let parsed = match parse(text, mode, !markup_brackets) {
            // A bare URI that fails on a square bracket may be followed by
            // markup's (`https://x.org/page[Link text]`, `[/url]`): read
            // once more without them (see `trim::without_markup_brackets`),
            // or, when none end it, with a query's brackets read as a
            // browser reads them. A valid one never costs this, nor does a
            // glued candidate.
            Err(e) if markup_brackets && matches!(text.get(e.index), Some(b'[' | b']')) => {
                let len = trim::without_markup_brackets(text);
                let end = span.start + len;
                if len < text.len() && !c.is_empty_after_scheme(end) {
                    return self.validate_bare(c, span.start..end, flags, false, emit);
                }
                read_as_browsers(text, e, mode, true)
            }
            parsed => parsed,
        };
        match parsed {
            Ok(valid) => {
                let end = span.end;
                self.report(c.win, span, valid, flags, None, emit);
                end
            }
            Err(e) => {
                if self.scanner.config.report_invalid && !self.run.reported_invalid {
                    self.run.reported_invalid = true;
                    let invalid = Valid {
                        text: String::from_utf8_lossy(text),
                        iri: None,
                    };
                    self.report(c.win, span.clone(), invalid, flags, Some(e), emit);
                }
                self.run.learn(text, start, e, mode == IriMode::Off);
                next
            }
        }
    }

    /// Stage 5: reports one URI (or invalid candidate) at `span` of the
    /// window.
    fn report<'h, R: Report<'h>>(
        &mut self,
        win: &Window<'h>,
        span: Range<usize>,
        valid: Valid<'h>,
        flags: Flags,
        error: Option<ParseError>,
        emit: &mut Emit<'_, R>,
    ) {
        let start = win.offset + span.start;
        let (line, column) = self.position(win, start);
        emit.found(Found {
            text: valid.text,
            iri: valid.iri,
            span: Span::new(start, win.offset + span.end),
            line,
            column,
            delimiter: flags.delimiter,
            wrapped: flags.wrapped,
            url_prefix: flags.url_prefix,
            hyphen_break: flags.hyphen_break,
            error,
            mail: None,
        });
    }
}

/// A candidate's text that parsed: what is reported, and the IRI as
/// written when it has non-ASCII characters.
pub(super) struct Valid<'t> {
    pub(super) text: Cow<'t, str>,
    pub(super) iri: Option<Cow<'t, str>>,
}

impl Valid<'_> {
    /// The text as written.
    fn written(&self) -> &str {
        self.iri.as_deref().unwrap_or(&self.text)
    }

    fn into_owned(self) -> Valid<'static> {
        Valid {
            text: Cow::Owned(self.text.into_owned()),
            iri: self.iri.map(|iri| Cow::Owned(iri.into_owned())),
        }
    }
}

/// The parser of stage 4: `text` as a URI, or (unless `mode` is
/// [`IriMode::Off`]) as an IRI, reported as `mode` says; with
/// `query_brackets`, a `[` or `]` past the first `?` or `#` is read as a
/// browser reads it.
///
/// *Judgement calls:* a `#` inside a fragment (`https://matrix.to/#/#room:
/// example.org`, `…/bithacks.html##ValueInWord`), which RFC 3986 does not
/// allow, is read as `%23`, as a browser reads such a link and as
/// documents' links are read: the text between its delimiters is one
/// reference, and neither the whole nor its part before the second `#`
/// would be right. Not when the URI before the fragment is a scheme
/// alone (`gs://#bucket#/object`, a placeholder), nor when a `#` follows
/// a `&` (`r&#xE9;sum&#xE9;.html`: character references, which are not a
/// fragment at all). So are a query's and a fragment's `[` and `]`
/// (`%5B`, `%5D`): PHP's `?ids[]=1&ids[]=2`, a presigned URL's
/// `?Token=[token]&Expires=899`, `?track=[02]#wasted-years`, which
/// browsers request so and documents' links are read as; dropping the
/// whole URI, as RFC 3986 would, lost it.
pub(super) fn parse(
    text: &[u8],
    mode: IriMode,
    query_brackets: bool,
) -> Result<Valid<'_>, ParseError> {
    parse_as_written(text, mode)
        .or_else(|error| read_as_browsers(text, error, mode, query_brackets))
}

/// The second half of [`parse`]: `text`, which failed with `error` (as
/// written, or in a reading without `query_brackets`), read as a browser
/// reads it, when `error` is at a `#` or bracket that reading encodes.
/// Only the bytes from the first `?` or `#` on are read otherwise.
fn read_as_browsers(
    text: &[u8],
    error: ParseError,
    mode: IriMode,
    query_brackets: bool,
) -> Result<Valid<'_>, ParseError> {
    let at = error.index().min(text.len());
    let triggers = match text.get(at) {
        Some(b'#') => memchr::memchr(b'#', &text[..at]).is_some(),
        Some(b'[' | b']') => query_brackets,
        _ => false,
    };
    let query = memchr::memchr2(b'?', b'#', &text[..at]);
    let Some(query) = query.filter(|_| triggers) else {
        return Err(error);
    };
    let mut encoded = text[..query].to_vec();
    // Where each byte of `text` from `query` on starts in `encoded`.
    let mut starts = Vec::with_capacity(text.len() - query);
    let mut first_hash = None;
    // Whether a `#` past the first may be read as `%23`: asked once.
    let mut hash_readable = None;
    for (i, &b) in text.iter().enumerate().skip(query) {
        starts.push(encoded.len());
        match (b, first_hash) {
            (b'#', Some(first)) => {
                if !*hash_readable.get_or_insert_with(|| may_read_hash_in_fragment(text, first)) {
                    return Err(ParseError {
                        index: i,
                        kind: ParseErrorKind::Fragment,
                    });
                }
                encoded.extend_from_slice(b"%23");
            }
            (b'#', None) => {
                first_hash = Some(i);
                encoded.push(b);
            }
            (b'[', _) if query_brackets => encoded.extend_from_slice(b"%5B"),
            (b']', _) if query_brackets => encoded.extend_from_slice(b"%5D"),
            _ => encoded.push(b),
        }
    }
    // A failure past what was read otherwise is the written byte's: what
    // a run learns from it holds for every candidate that holds the byte.
    let valid = parse_as_written(&encoded, mode).map_err(|e| ParseError {
        index: match e.index.checked_sub(query) {
            // Before the query, `encoded` is `text`.
            None => e.index,
            Some(_) => query + starts.partition_point(|&s| s <= e.index) - 1,
        },
        kind: e.kind,
    })?;
    // As written, as an IRI is: the span holds it.
    let written = std::str::from_utf8(text).map_err(|_| error)?;
    Ok(Valid {
        text: Cow::Owned(valid.text.into_owned()),
        iri: Some(Cow::Borrowed(written)),
    })
}

/// Returns true if a `#` past the first (at `first`) of `text` may be
/// read as `%23`: the URI before the fragment is more than a scheme (not
/// `gs://#bucket#/object`) and `text` holds no character reference
/// (`&#…;`). The same for every such `#`: [`read_as_browsers`] asks it
/// once (asked at each, a fragment of `#` was quadratic).
fn may_read_hash_in_fragment(text: &[u8], first: usize) -> bool {
    let hier_part = text[..first]
        .iter()
        .position(|&b| b == b':')
        .map_or(&text[..first], |colon| &text[colon + 1..first]);
    let is_scheme_alone = hier_part.iter().all(|&b| b == b'/');
    let is_reference = memchr::memmem::find(text, b"&#").is_some();
    crate::work::examined(text.len());
    !is_scheme_alone && !is_reference
}

/// [`parse`], for `text` as it is.
fn parse_as_written(text: &[u8], mode: IriMode) -> Result<Valid<'_>, ParseError> {
    let error = match UriRef::parse_bytes(text) {
        Ok(uri) => {
            return Ok(Valid {
                text: Cow::Borrowed(uri.as_str()),
                iri: None,
            })
        }
        Err(e) => e,
    };
    // The URI grammar stopped before any non-ASCII byte: so does the IRI's.
    if mode == IriMode::Off || text.get(error.index()).is_none_or(u8::is_ascii) {
        return Err(error);
    }
    let iri = IriRef::parse_bytes(text)?;
    let written = Cow::Borrowed(iri.as_str());
    Ok(Valid {
        text: match mode {
            IriMode::Keep => written.clone(),
            _ => iri.to_uri(),
        },
        iri: Some(written),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure past the bytes read as a browser reads them is reported
    /// at the written byte it is at, which a glued run learns from: the
    /// `%` of `%zz`, not where it stands in the encoded text, nor the
    /// bracket that started the reading.
    #[test]
    fn a_failure_past_what_is_read_otherwise_is_placed_as_written() {
        for (text, at) in [
            (&b"http://a.example/?x[1]%zz"[..], 22),
            (b"http://a.example/#x#y[1]%zz", 24),
            (b"http://a.example/#x#y&#1;", 19),
        ] {
            let error = parse(text, IriMode::Uri, true).map(|v| v.text).unwrap_err();
            assert_eq!(error.index(), at, "{}", String::from_utf8_lossy(text));
        }
        let valid = parse(b"http://a.example/?x[1]#y#z[2]", IriMode::Uri, true).unwrap();
        assert_eq!(valid.text, "http://a.example/?x%5B1%5D#y%23z%5B2%5D");
        assert_eq!(valid.iri.as_deref(), Some("http://a.example/?x[1]#y#z[2]"));
    }
}
