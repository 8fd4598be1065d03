//! Half-open byte ranges into a haystack.

use std::ops::Range;

/// A half-open byte range `start..end` into some input.
///
/// # Invariants
///
/// `start <= end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// Creates a span; `start` must not exceed `end`.
    #[inline]
    pub fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end, "span start {start} > end {end}");
        Span { start, end }
    }

    /// Returns the number of bytes covered.
    #[inline]
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Returns true if and only if the span covers no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Returns the span as a `Range<usize>`, for slicing.
    #[inline]
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for Span {
    #[inline]
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}
