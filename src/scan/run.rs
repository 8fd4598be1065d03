//! What the scanner knows about the run of URI bytes it is reading.
//!
//! A run is measured from the first candidate that starts it, up to a byte
//! that is not a URI byte or a closing bracket it did not open (see
//! [`super::trim`]). Every bare candidate that starts inside a run ends
//! inside it, so whatever one candidate taught about the run serves the
//! next candidates in it, and no byte of a run is read again for each of
//! them:
//!
//! - the run's end, found once;
//! - where each later candidate is cut by a closing bracket it did not
//!   open, found for all of them in one pass (see [`Run::bare_end`]);
//! - where the next `@`, `.`, `,` and `'` are, for the scheme shapes and
//!   trimming;
//! - what failed candidates proved about the later ones (see
//!   [`Run::learn`] and [`Run::dooms`]).
//!
//! # Invariants
//!
//! Offsets are absolute. While a run is in use the window holds all of it:
//! it was measured whole before its first candidate was read, and the
//! stream driver rolls its buffer only once no `:` of the window is left,
//! which is past every candidate the run holds.

use std::ops::Range;

use super::trim::{CloseTable, Measured};
use crate::uri::{ParseError, ParseErrorKind};

/// The run of URI bytes being read, and what is known about it.
#[derive(Debug, Default)]
pub struct Run {
    /// The run, or an empty range when none is known.
    span: Range<usize>,
    /// The run holds a closing bracket, so a later candidate may be cut
    /// before the run's end.
    has_close: bool,
    /// Where each later candidate is cut, once one asked.
    closes: CloseTable,
    closes_built: bool,
    /// A `[` or `]` that a candidate failed on outside its authority.
    bracket: Option<BracketFailure>,
    /// Two `#` of one candidate (the second one failed it): every candidate
    /// that holds both fails.
    hashes: Option<(usize, usize)>,
    /// A `%` a candidate failed on: not followed by two hex digits in the
    /// text, so every candidate that holds it fails.
    bad_percent: Option<usize>,
    /// A non-ASCII byte a candidate failed on, where only URIs are wanted
    /// ([`crate::IriMode::Off`]): every candidate that holds it fails.
    non_ascii: Option<usize>,
    /// Where the next of each of [`NEXT_BYTES`] is.
    next: [NextByte; NEXT_BYTES.len()],
    /// True once a candidate of the run was reported invalid (on request):
    /// the candidates inside it are not reported again.
    pub reported_invalid: bool,
}

/// A `[` or `]` at `at`, in a path, query or fragment of the candidate that
/// failed on it, and the last `/`, `?` or `#` before it in that candidate
/// (none when that candidate had no authority and no such byte).
#[derive(Clone, Copy, Debug)]
struct BracketFailure {
    at: usize,
    delimiter: Option<usize>,
}

/// The bytes whose next position is remembered, for the scheme shapes.
const NEXT_BYTES: [u8; 5] = [b'@', b'.', b',', b'\'', b';'];

/// The first position of one byte at or after `from`, in the run.
///
/// # Invariants
///
/// No byte of `from..found.unwrap_or(run end)` is the byte looked for.
#[derive(Clone, Copy, Debug, Default)]
struct NextByte {
    from: usize,
    found: Option<usize>,
    valid: bool,
}

impl Run {
    /// Returns true if and only if `at` (absolute) lies inside the known run.
    #[inline]
    pub fn contains(&self, at: usize) -> bool {
        self.span.contains(&at)
    }

    /// Returns true if and only if the run starts at `at` (absolute): the
    /// candidate there is the run's first.
    #[inline]
    pub fn starts_at(&self, at: usize) -> bool {
        self.span.start == at
    }

    /// Starts a new run at `start` (absolute), as `measured`.
    pub fn start(&mut self, start: usize, measured: Measured) {
        // The table's memory is kept for the next runs.
        let closes = std::mem::take(&mut self.closes);
        *self = Run {
            span: start..start + measured.len,
            has_close: measured.has_close,
            closes,
            ..Run::default()
        };
    }

    /// Where the bare candidate starting at `start` (absolute, in the run)
    /// ends, before trimming: the run's end, or a closing bracket it did
    /// not open. `hay` starts at absolute offset `offset`.
    pub fn bare_end(&mut self, hay: &[u8], offset: usize, start: usize) -> usize {
        debug_assert!(self.contains(start));
        if start == self.span.start || !self.has_close {
            return self.span.end;
        }
        if !self.closes_built {
            self.closes
                .build(&hay[self.span.start - offset..self.span.end - offset]);
            self.closes_built = true;
        }
        self.span.start + self.closes.end(start - self.span.start)
    }

    /// Returns true if and only if the run holds `byte` in `from..to`
    /// (absolute), for calls whose `from` never decreases within a run.
    pub fn has(&mut self, hay: &[u8], offset: usize, byte: u8, from: usize, to: usize) -> bool {
        self.next(hay, offset, byte, from).is_some_and(|f| f < to)
    }

    /// Where the run's first `byte` at or after `from` (absolute) is, for
    /// calls whose `from` never decreases within a run (one of
    /// [`NEXT_BYTES`]).
    pub fn next(&mut self, hay: &[u8], offset: usize, byte: u8, from: usize) -> Option<usize> {
        let slot = NEXT_BYTES
            .iter()
            .position(|&b| b == byte)
            .expect("only the bytes of NEXT_BYTES are asked for");
        let next = &mut self.next[slot];
        let stale = !next.valid || next.found.is_some_and(|f| f < from) || from < next.from;
        if stale {
            let region = &hay[from - offset..self.span.end - offset];
            let found = memchr::memchr(byte, region);
            crate::work::examined(found.map_or(region.len(), |p| p + 1));
            *next = NextByte {
                from,
                found: found.map(|p| from + p),
                valid: true,
            };
        }
        next.found
    }

    /// Records what the failure `error` of the candidate at `start..end`
    /// (absolute; `text` its bytes) proves about the later candidates of
    /// the run (see [`Run::dooms`]). `ascii_only` says that the candidates
    /// are parsed as URIs, not IRIs.
    pub fn learn(&mut self, text: &[u8], start: usize, error: ParseError, ascii_only: bool) {
        let at = start + error.index();
        let byte = text.get(error.index()).copied();
        match (error.kind(), byte) {
            (ParseErrorKind::PercentEncoding, _) => self.bad_percent = Some(at),
            (_, Some(b)) if ascii_only && !b.is_ascii() => self.non_ascii = Some(at),
            (
                ParseErrorKind::Path | ParseErrorKind::Query | ParseErrorKind::Fragment,
                Some(b'[' | b']'),
            ) => {
                let before = &text[..error.index()];
                let found = memchr::memrchr3(b'/', b'?', b'#', before);
                crate::work::examined(before.len() - found.unwrap_or(0));
                let delimiter = found.map(|p| start + p);
                self.bracket = Some(BracketFailure { at, delimiter });
            }
            (ParseErrorKind::Fragment, Some(b'#')) => {
                let before = &text[..error.index()];
                let found = memchr::memrchr(b'#', before);
                crate::work::examined(before.len() - found.unwrap_or(0));
                if let Some(first) = found {
                    self.hashes = Some((start + first, at));
                }
            }
            _ => {}
        }
    }

    /// Returns true if and only if what the run's failed candidates proved
    /// makes the candidate at `start..end` fail too, without parsing it;
    /// `colon` is its scheme's `:` and `slashes` whether `//` follows.
    ///
    /// The lemmas, from the grammar of RFC 3986 Appendix A:
    ///
    /// - a `[` or `]` is allowed only in an authority's IP literal, and
    ///   the parse reads one past a `?` or `#` as `%5B`, `%5D`; so a
    ///   failure on one is in a path, no `?` or `#` between the failed
    ///   candidate's start and it, nor between a later candidate's, which
    ///   starts after; so a candidate that holds it fails too, unless
    ///   that byte is inside its own authority: it has `//` and no `/`,
    ///   `?` or `#` stands between its `//` and the byte;
    /// - a `#` starts the fragment and none may follow; so a candidate
    ///   that holds both `#` of a failure fails too (the parse reads a
    ///   second `#` as `%23` unless the text holds `&#` or the URI before
    ///   the fragment is a scheme alone, and reports the byte the rest
    ///   fails at when it fails: the bytes from the `#` on, which the
    ///   candidates of a run share, as they share their end);
    /// - a `%` must be followed by two hex digits, and what follows it in
    ///   a candidate that holds it is the text's own bytes (or its end);
    ///   so a candidate that holds a `%` a failure found bad fails too;
    /// - a URI holds no non-ASCII byte; so, parsing URIs only, a candidate
    ///   that holds the one a failure found fails too.
    pub fn dooms(&self, start: usize, colon: usize, slashes: bool, end: usize) -> bool {
        let holds = |at: usize| start <= at && at < end;
        if let Some(BracketFailure { at, delimiter }) = self.bracket {
            if holds(at) {
                let outside_authority = !slashes || delimiter.is_some_and(|d| d >= colon + 3);
                if outside_authority {
                    return true;
                }
            }
        }
        if self.bad_percent.is_some_and(holds) || self.non_ascii.is_some_and(holds) {
            return true;
        }
        matches!(self.hashes, Some((first, second)) if holds(first) && holds(second))
    }
}
