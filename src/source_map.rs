//! Where each byte of a decoded text came from in the text it was decoded
//! from: so that a URI found in decoded text (quoted-printable, base64,
//! joined `format=flowed` lines, HTML with character references, a file
//! decoded from UTF-16 or Shift_JIS) is placed at its line and column in
//! the input as it was written.

use std::cell::Cell;

use crate::span::Span;

/// Appends `bytes` to `text`, a decoded text that `map` places, mapped as
/// copied from source offset `src` (nothing for no bytes: a piece that
/// would place nothing).
#[cfg(any(feature = "mail", feature = "docs"))]
pub fn append_copy(text: &mut Vec<u8>, map: &mut SourceMap, bytes: &[u8], src: usize) {
    if !bytes.is_empty() {
        map.copied(text.len(), src);
        text.extend_from_slice(bytes);
    }
}

/// Maps offsets of a decoded text to ranges of its source.
///
/// A map is a list of pieces, each covering the decoded text from its
/// `out` offset to the next piece's: decoded units of `out_unit` bytes
/// that each come from `src_unit` source bytes, in order from `src`
/// (copied text: 1 and 1; a quoted-printable `=3D`: 1 and 3; base64: 3
/// and 4; text the decoder added: `src_unit` 0). An empty map is the
/// identity.
///
/// # Invariants
///
/// Pieces are sorted by `out`, strictly increasing; `out_unit >= 1`.
/// `cursor` is only a hint (any value is correct).
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pieces: Vec<Piece>,
    /// The piece of the last byte looked up: finds are placed in order,
    /// so the next lookup is at or just after it (a binary search of a
    /// JSON log's map, a piece per run of escapes, took 18% of its scan).
    cursor: Cell<usize>,
}

/// Maps are equal when they place every byte alike (whatever their
/// cursors).
impl PartialEq for SourceMap {
    fn eq(&self, other: &SourceMap) -> bool {
        self.pieces == other.pieces
    }
}

impl Eq for SourceMap {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    out: usize,
    src: usize,
    out_unit: u32,
    src_unit: u32,
}

impl SourceMap {
    /// The map of a text whose every byte stands for the source at `at`
    /// (the decoding is not followed byte by byte, as for a charset
    /// conversion left to another crate).
    #[cfg(feature = "mail")]
    pub fn all_at(at: usize) -> SourceMap {
        let mut map = SourceMap::default();
        map.push(0, at, 1, 0);
        map
    }

    /// An empty map (the identity) with room for `pieces` pieces: a
    /// decoder that can count its pieces ahead spares the list's regrowth
    /// (its copies were 2% of mail mode's instructions).
    #[cfg(any(feature = "mail", feature = "docs"))]
    pub fn with_capacity(pieces: usize) -> SourceMap {
        SourceMap {
            pieces: Vec::with_capacity(pieces),
            cursor: Cell::default(),
        }
    }

    /// From decoded offset `out` on, bytes are copied from `src` on.
    pub fn copied(&mut self, out: usize, src: usize) {
        self.push(out, src, 1, 1);
    }

    /// From decoded offset `out` on, each `out_unit` decoded bytes come
    /// from `src_unit` source bytes, in order from `src`. Nothing is added
    /// when the last piece already says so.
    pub fn push(&mut self, out: usize, src: usize, out_unit: u32, src_unit: u32) {
        debug_assert!(out_unit >= 1);
        // A piece at the same offset placed nothing: this one replaces it,
        // and may continue the one before (a run of escapes, each followed
        // by the copy that an escape right after it replaces, is one piece).
        if self.pieces.last().is_some_and(|last| last.out == out) {
            self.pieces.pop();
        }
        if let Some(last) = self.pieces.last() {
            debug_assert!(last.out < out, "pieces come in order");
            if (last.out_unit, last.src_unit) == (out_unit, src_unit) {
                let gone = out - last.out;
                let continues = if out_unit == 1 {
                    src == last.src + gone * src_unit as usize
                } else {
                    gone % out_unit as usize == 0
                        && src == last.src + gone / out_unit as usize * src_unit as usize
                };
                if continues {
                    return;
                }
            }
        }
        self.pieces.push(Piece {
            out,
            src,
            out_unit,
            src_unit,
        });
    }

    /// Appends the pieces of `other`, the map of a text appended at
    /// decoded offset `at` of this one.
    #[cfg(any(feature = "mail", feature = "docs"))]
    pub fn append(&mut self, other: &SourceMap, at: usize) {
        let mut pieces = other.pieces.iter();
        if let Some(p) = pieces.next() {
            self.push(at + p.out, p.src, p.out_unit, p.src_unit);
        }
        // The others follow the first as they did in `other`.
        self.pieces.extend(pieces.map(|&p| Piece {
            out: at + p.out,
            ..p
        }));
    }

    /// Forgets the pieces that place only decoded bytes before `out`
    /// (a stream's text that will not be asked about: neither a find's
    /// bytes nor its line's start lie before it): the bytes from `out` on
    /// are placed as before. Amortized constant time per piece.
    pub fn forget_before(&mut self, out: usize) {
        let first = self
            .pieces
            .partition_point(|p| p.out <= out)
            .saturating_sub(1);
        // Pieces are dropped in bulk, when they are half the list.
        if first > 0 && 2 * first >= self.pieces.len() {
            self.pieces.drain(..first);
            self.cursor.set(self.cursor.get().saturating_sub(first));
        }
    }

    /// [`SourceMap::forget_before`] `out`, but for the decoded byte at
    /// `keep` (before `out`: a stream's line start, from which a find's
    /// column is counted), which is still placed as before: the piece
    /// that places it is kept, starting at it, and those between it and
    /// `out` are forgotten. (Forgetting only before `keep` kept every
    /// piece of a line of megabytes of JSON escapes.) Amortized constant
    /// time per piece.
    pub fn forget_before_but(&mut self, out: usize, keep: usize) {
        let first = self
            .pieces
            .partition_point(|p| p.out <= out)
            .saturating_sub(1);
        let Some(k) = self
            .pieces
            .partition_point(|p| p.out <= keep)
            .checked_sub(1)
        else {
            // `keep` is before every piece: placed as it is, still.
            return self.forget_before(out);
        };
        if keep >= out || first <= k + 1 || 2 * (first - k) < self.pieces.len() {
            return self.forget_before(keep.min(out));
        }
        let p = self.pieces[k];
        let units = (keep - p.out) / p.out_unit as usize;
        let kept = Piece {
            out: p.out + units * p.out_unit as usize,
            src: p.src + units * p.src_unit as usize,
            ..p
        };
        self.pieces.drain(..first);
        self.pieces.insert(0, kept);
        self.cursor.set(0);
    }

    /// Empties the map (the identity), keeping its room.
    #[cfg(any(feature = "mail", feature = "docs"))]
    pub fn clear(&mut self) {
        self.pieces.clear();
        self.cursor.set(0);
    }

    /// Returns true if and only if the map is the identity (it has no
    /// piece).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The index of the last piece at or before decoded offset `at`:
    /// looked for from the cursor, ahead or back, in steps that double
    /// until one passes `at`, then by halves within the last step. So a
    /// lookup `d` pieces from the last costs about `2 log d`: a find, its
    /// end, and its line's start (back, on the line of the find before).
    fn piece_at(&self, at: usize) -> Option<usize> {
        let pieces = &self.pieces;
        let cursor = self.cursor.get().min(pieces.len().saturating_sub(1));
        let is_before = |p: &Piece| p.out <= at;
        // The answer lies in `low..high`: `pieces[low]` is at or before
        // `at` (when `low` is a piece at all), `pieces[high]` past it.
        let (mut low, mut high, mut step) = (cursor, cursor, 1);
        if pieces.get(cursor).is_some_and(is_before) {
            high = loop {
                match pieces.get(low + step) {
                    Some(p) if is_before(p) => (low, step) = (low + step, 2 * step),
                    Some(_) => break low + step,
                    None => break pieces.len(),
                }
            };
        } else {
            low = loop {
                let Some(back) = high.checked_sub(step) else {
                    break 0;
                };
                if is_before(&pieces[back]) {
                    break back;
                }
                (high, step) = (back, 2 * step);
            };
        }
        let found = (low + pieces[low..high].partition_point(is_before)).checked_sub(1)?;
        self.cursor.set(found);
        Some(found)
    }

    /// The source range of the decoded byte at `at`.
    pub fn byte(&self, at: usize) -> (usize, usize) {
        let Some(i) = self.piece_at(at) else {
            return (at, at + 1); // before the first piece: unmapped, as is
        };
        let p = self.pieces[i];
        let unit = ((at - p.out) / p.out_unit as usize) * p.src_unit as usize;
        (p.src + unit, p.src + unit + p.src_unit as usize)
    }

    /// The source range of the decoded bytes `span`: from where its first
    /// byte came from to where its last byte's source ends.
    pub fn span(&self, span: Span) -> Span {
        if self.pieces.is_empty() {
            return span;
        }
        let (start, _) = self.byte(span.start);
        let end = if span.is_empty() {
            start
        } else {
            self.byte(span.end - 1).1
        };
        Span::new(start, end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_map_through_copies_escapes_and_groups() {
        // Decoded `ab=c` from `ab=3Dc`: `a`, `b` copied, `=` from 3 bytes.
        let mut qp = SourceMap::default();
        qp.copied(0, 0);
        qp.push(2, 2, 1, 3);
        qp.copied(3, 5);
        assert_eq!(qp.span(Span::new(0, 4)), Span::new(0, 6));
        assert_eq!(qp.span(Span::new(2, 3)), Span::new(2, 5));
        assert_eq!(qp.span(Span::new(3, 4)), Span::new(5, 6));
        // Base64 from offset 10: decoded byte 4 is in the second group.
        let mut b64 = SourceMap::default();
        b64.push(0, 10, 3, 4);
        assert_eq!(b64.span(Span::new(4, 5)), Span::new(14, 18));
        // Copies that go on merge into one piece.
        let mut copy = SourceMap::default();
        copy.copied(0, 7);
        copy.copied(5, 12);
        assert_eq!(copy.pieces.len(), 1);
        // So do escapes back to back, each followed by a copy (`\/\/\/x`).
        let mut escapes = SourceMap::default();
        for i in 0..3 {
            escapes.push(i, 2 * i, 1, 2);
            escapes.copied(i + 1, 2 * i + 2);
        }
        assert_eq!(escapes.pieces.len(), 2);
        assert_eq!(escapes.span(Span::new(1, 4)), Span::new(2, 7));
        #[cfg(feature = "mail")]
        assert_eq!(SourceMap::all_at(3).span(Span::new(5, 9)), Span::new(3, 3));
        assert_eq!(SourceMap::default().span(Span::new(5, 9)), Span::new(5, 9));
    }

    /// Lookups in any order (forward, a few pieces ahead or far, back)
    /// place each byte as a search of the whole map does: the cursor is
    /// only a hint.
    #[test]
    fn lookups_in_any_order_place_alike() {
        // `\/` escapes (2 bytes for 1) every third byte, 300 pieces.
        let mut map = SourceMap::default();
        for i in 0..150 {
            map.push(3 * i, 4 * i, 1, 2);
            map.copied(3 * i + 1, 4 * i + 2);
        }
        let pieces = map.pieces.clone();
        let placed = |at: usize| {
            let p = pieces[pieces.partition_point(|p| p.out <= at) - 1];
            let unit = (at - p.out) / p.out_unit as usize * p.src_unit as usize;
            p.src + unit
        };
        // Forward and back by every stride up to 40 bytes (0 to 27 pieces),
        // then scattered.
        for stride in 1..=40 {
            let forward = (0..450).step_by(stride);
            for at in forward.clone().chain(forward.rev()) {
                assert_eq!(map.span(Span::new(at, at + 1)).start, placed(at), "{at}");
            }
        }
        for at in (0..450).map(|i| i * 211 % 450) {
            assert_eq!(map.span(Span::new(at, at + 1)).start, placed(at), "{at}");
        }
        // Forgetting keeps the cursor a valid hint.
        let mut all = map.clone();
        map.forget_before(300);
        assert_eq!(map.span(Span::new(420, 421)).start, placed(420));
        assert_eq!(map.span(Span::new(301, 302)).start, placed(301));
        // Forgetting but a line's start keeps it placed, and drops the
        // pieces between.
        let pieces = all.pieces.len();
        all.forget_before_but(400, 101);
        assert!(
            all.pieces.len() < pieces / 2,
            "{} of {pieces}",
            all.pieces.len()
        );
        for at in [101, 400, 401, 449] {
            assert_eq!(all.span(Span::new(at, at)).start, placed(at), "{at}");
        }
    }
}
