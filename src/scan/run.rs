//! What the scanner knows about the run of URI bytes it is reading.
//!
//! Every bare candidate that starts inside a run of URI bytes ends at the
//! run's end (before trimming), so whatever one candidate taught about the
//! run serves the next candidates in it, and no byte of a run is read again
//! for each of them:
//!
//! - the run's end, found once;
//! - the count of its brackets, for trimming (see [`Run::brackets`]);
//! - where the next `@`, `.` and `,` are, for the scheme shapes;
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

use super::trim::Brackets;
use crate::uri::{ParseError, ParseErrorKind};

/// The run of URI bytes being read, and what is known about it.
#[derive(Debug, Default)]
pub struct Run {
    /// The run, or an empty range when none is known.
    span: Range<usize>,
    /// The brackets of the whole run, counted when the run ends with a
    /// byte that trimming may remove (else no candidate needs them).
    total: Option<Brackets>,
    /// The brackets of `span.start..prefix_end`, the part of the run before
    /// the latest candidate.
    prefix: Brackets,
    prefix_end: usize,
    /// A `[` or `]` that a candidate failed on outside its authority.
    bracket: Option<BracketFailure>,
    /// Two `#` of one candidate (the second one failed it): every candidate
    /// that holds both fails.
    hashes: Option<(usize, usize)>,
    /// Where the next `@`, `.` and `,` are.
    next: [NextByte; 3],
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
const NEXT_BYTES: [u8; 3] = [b'@', b'.', b','];

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

    /// The end of the known run.
    #[inline]
    pub fn end(&self) -> usize {
        self.span.end
    }

    /// Starts a new run, `span` of `bytes` (the run's own bytes).
    pub fn start(&mut self, span: Range<usize>, bytes: &[u8]) {
        debug_assert_eq!(span.len(), bytes.len());
        *self = Run {
            total: super::trim::may_trim(bytes).then(|| Brackets::of(bytes)),
            prefix_end: span.start,
            span,
            ..Run::default()
        };
    }

    /// The brackets of `start..end` of the run, `end` its end; `hay`
    /// starts at absolute offset `offset`. Counts only the bytes between
    /// the previous candidate's start and this one's.
    pub fn brackets(&mut self, hay: &[u8], offset: usize, start: usize) -> Brackets {
        let total = self
            .total
            .expect("brackets are counted for a run that trimming may shorten");
        debug_assert!(self.prefix_end <= start && start <= self.span.end);
        let skipped = &hay[self.prefix_end - offset..start - offset];
        crate::work::examined(skipped.len());
        for &b in skipped {
            self.prefix.add(b);
        }
        self.prefix_end = start;
        total.minus(self.prefix)
    }

    /// Returns true if and only if trimming may shorten the run's candidates.
    #[inline]
    pub fn may_trim(&self) -> bool {
        self.total.is_some()
    }

    /// Returns true if and only if the run holds `byte` in `from..to`
    /// (absolute), for calls whose `from` never decreases within a run.
    pub fn has(&mut self, hay: &[u8], offset: usize, byte: u8, from: usize, to: usize) -> bool {
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
        next.found.is_some_and(|f| f < to)
    }

    /// Records what the failure `error` of the candidate at `start..end`
    /// (absolute; `text` its bytes) proves about the later candidates of
    /// the run. Returns where to look for the next `:` when the failure
    /// spoils every candidate that would contain its byte (a bad
    /// percent-encoding is bad anywhere): just there.
    pub fn learn(&mut self, text: &[u8], start: usize, error: ParseError) -> Option<usize> {
        let at = start + error.index();
        let byte = text.get(error.index()).copied();
        match (error.kind(), byte) {
            (ParseErrorKind::PercentEncoding, _) => Some(at),
            (
                ParseErrorKind::Path | ParseErrorKind::Query | ParseErrorKind::Fragment,
                Some(b'[' | b']'),
            ) => {
                let before = &text[..error.index()];
                let found = memchr::memrchr3(b'/', b'?', b'#', before);
                crate::work::examined(before.len() - found.unwrap_or(0));
                let delimiter = found.map(|p| start + p);
                self.bracket = Some(BracketFailure { at, delimiter });
                None
            }
            (ParseErrorKind::Fragment, Some(b'#')) => {
                let before = &text[..error.index()];
                let found = memchr::memrchr(b'#', before);
                crate::work::examined(before.len() - found.unwrap_or(0));
                if let Some(first) = found {
                    self.hashes = Some((start + first, at));
                }
                None
            }
            _ => None,
        }
    }

    /// Returns true if and only if what the run's failed candidates proved
    /// makes the candidate at `start..end` fail too, without parsing it;
    /// `colon` is its scheme's `:` and `slashes` whether `//` follows.
    ///
    /// The lemmas, from the grammar of RFC 3986 Appendix A:
    ///
    /// - a `[` or `]` is allowed only in an authority's IP literal; so a
    ///   candidate that holds the one a failure found in a path, query or
    ///   fragment fails too, unless that byte is inside its own authority:
    ///   it has `//` and no `/`, `?` or `#` stands between its `//` and the
    ///   byte;
    /// - a `#` starts the fragment and none may follow; so a candidate
    ///   that holds both `#` of a failure fails too.
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
        matches!(self.hashes, Some((first, second)) if holds(first) && holds(second))
    }
}
