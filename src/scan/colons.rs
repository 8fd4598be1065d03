//! The search for the `:` every candidate hangs on: the scan's hottest
//! loop. Needs nothing but memchr and `std::arch`, so that
//! `benches/triggers.rs` measures this very code against aho-corasick (it
//! includes the file).

/// Finds the `:` bytes of the input that may end a scheme.
///
/// Colons often come a few bytes apart (times, mail headers, JSON keys,
/// IPv6 addresses): the next [`ColonFinder::NEAR`] bytes are looked at a
/// word at a time first, and any `:` there is returned. Farther on, most
/// colons cannot end a scheme: a scheme's `:` is followed by a URI byte
/// (or an IRI's non-ASCII character), and most are followed by a space or
/// a line break (`Subject: `, `Note: `). On x86-64 with AVX2 the far
/// search tests the byte after each `:` in a vector loop ([`far_avx2`])
/// and passes over such colons without stopping; elsewhere memchr finds
/// every `:`. Colons that fail the test of their sides also come in runs:
/// times (`10:05:03`), JSON keys
/// (`"id":`). After one, the caller asks for [`Sides::Both`]: the vector
/// loop then also tests the byte before each `:` and passes over those
/// too. It asks for [`Sides::After`] otherwise, as testing the byte before
/// costs more than it saves where most colons pass (CSS's `font-size:`,
/// C++'s `std::`).
///
/// # Contract
///
/// [`ColonFinder::next`] returns a `:` at or after `from`, and every `:`
/// it passes over cannot end a scheme: it is the first byte of `hay` (no
/// byte before it), or the byte after it is at most `0x20` (no URI byte,
/// and no byte of a non-ASCII character, which may start an IRI's path:
/// `mailto:üser@…`), or, with [`Sides::Both`], the byte before it is no
/// scheme byte (ASCII letters and digits, `+`, `-`, `.`) or both are
/// digits (`12:30`). The last byte of `hay`, unless it is also the first,
/// is never passed over (the caller decides on a `:` whose next byte is
/// not in the window yet). So a caller that turns away every such `:` (the
/// core's `may_end_scheme`, which also turns away a `:` at the window's
/// start) sees the same colons either way. (A `:` before a non-ASCII byte
/// after a letter that ends no address scheme, `Note:重要`, is turned
/// away by `may_end_scheme`, one table lookup each: testing it here too,
/// byte by byte, cost more instructions than it saved, 10% more on
/// Japanese text full of such colons.)
#[derive(Clone, Copy, Debug)]
pub(super) struct ColonFinder {
    #[cfg(target_arch = "x86_64")]
    avx2: bool,
}

impl ColonFinder {
    /// How far past the last `:` the next is looked for a word at a time.
    /// 16 (two words) against 32, 24 and 8, in three runs of `cargo bench
    /// --bench scan_rounds`: 16 was ahead in every folder, by 2 to 9%
    /// against linkify (the instructions are within 0.3%: what differs is
    /// the branches); 8 sends too many near colons to the far search (logs
    /// 10% behind).
    const NEAR: usize = 16;

    pub(super) fn new() -> ColonFinder {
        ColonFinder {
            #[cfg(target_arch = "x86_64")]
            avx2: std::is_x86_feature_detected!("avx2"),
        }
    }

    /// The offset of the first `:` of `hay` at or after `from`, less those
    /// the far search may pass over, testing `sides` (see the contract
    /// above).
    #[inline]
    pub(super) fn next(&self, hay: &[u8], from: usize, sides: Sides) -> Option<usize> {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
        const COLONS: u64 = u64::from_ne_bytes([b':'; 8]);
        let Some(near) = hay.get(from..from + Self::NEAR) else {
            return self.far(hay, from, sides);
        };
        for (i, word) in near.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            // The lowest byte flagged is the first `:` (a flag above a zero
            // byte of `x` may be false; none below it is).
            let x = word ^ COLONS;
            let flags = x.wrapping_sub(ONES) & !x & HIGHS;
            if flags != 0 {
                return Some(from + 8 * i + flags.trailing_zeros() as usize / 8);
            }
        }
        self.far(hay, from + Self::NEAR, sides)
    }

    /// The far search alone: the first `:` at or after `from` that may
    /// end a scheme by the bytes `sides` names, or an earlier one. For
    /// text whose colons are close together but mostly fail the test of
    /// their sides (a mail's header block), where [`ColonFinder::next`]
    /// would stop at each.
    #[inline]
    pub(super) fn far(&self, hay: &[u8], from: usize, sides: Sides) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `far_avx2` needs AVX2, and `avx2` is true only when
            // the CPU has it (detected in `new`).
            return unsafe { far_avx2(hay, from, sides) };
        }
        // memchr stops at every `:`, whatever `sides` asks.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = sides;
        memchr::memchr(b':', &hay[from..]).map(|p| from + p)
    }
}

/// Which bytes beside each `:` the far search tests before it stops there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sides {
    /// The byte after it: a URI byte.
    After,
    /// Both: a scheme byte before it, a URI byte after it, and not digits
    /// on both sides.
    Both,
}

impl Sides {
    /// What to test for the colons after one whose sides `passed` the
    /// caller's own test: both sides after a failure (failures come in
    /// runs), the byte after only after a pass.
    #[inline]
    pub(super) fn following(passed: bool) -> Sides {
        if passed {
            Sides::After
        } else {
            Sides::Both
        }
    }
}

/// Returns true if and only if a `:` followed by `next` (`None`: the end
/// of the input seen so far) may end a scheme: `next` is above the space,
/// as every URI byte and every byte of a non-ASCII character is, or
/// unknown.
#[inline]
fn may_follow_scheme(next: Option<&u8>) -> bool {
    next.is_none_or(|&b| b > b' ')
}

/// Whether `b` is the last letter of a scheme whose `:` a non-ASCII
/// character may follow right away, in any case: the scanner's address
/// schemes (`mailto`, `xmpp`, `jabber`, `sip`, `sips`, `im`, `pres`: an
/// internationalized address, `mailto:üser@…`) end in `o`, `p`, `r`, `s`
/// or `m` (a test in `schemes.rs` keeps the two in step). The core's
/// test of a colon's sides turns away every other `:` glued to non-ASCII
/// text (`Note:重要`: CJK text puts no space after a colon).
#[inline]
pub(super) const fn ends_address_scheme(b: u8) -> bool {
    matches!(b | 0x20, b'o' | b'p' | b'r' | b's' | b'm')
}

/// The far search with AVX2: the first `:` at or after `from` (and after
/// the first byte of `hay`) that may end a scheme by the bytes `sides`
/// names, 64 bytes per round. Each byte is compared with `:`, and the byte
/// after it with the space as unsigned bytes (ASCII above the space and
/// non-ASCII bytes are greater, control bytes are not); with
/// [`Sides::Both`], a round that keeps a colon then tests the bytes before
/// its colons ([`scheme_side_avx2`]). The last 64 bytes go to memchr,
/// tested for the byte after only.
///
/// The test of the byte after, measured in `cargo bench --bench
/// scan_rounds` (15 rounds, one run of each build, one after the other,
/// on an AMD EPYC; against the memchr search that stopped at every `:`):
/// `find_iter` against linkify on the RFCs from 0.85x to 0.93x (without
/// line numbers 1.00x to 1.08x), on the mail folders from 1.38x to 1.52x
/// (the spam corpus 1.23x to 1.34x), on all of the corpus from 1.27x to
/// 1.43x; the logs, whose colons are mostly in times (`13:55:36`) and after
/// JSON keys (`"id":`), level. The test of the byte before, against the
/// search without it, in one process, rounds alternating (21 rounds, an
/// Intel Xeon): asked after a `:` that failed its sides, `find_iter` 1.27x
/// as fast on the logs, 1.06x on linux-uvc-devel, 1.03x on all of the
/// corpus, level elsewhere (0.99x to 1.02x); asked always, 1.32x on the
/// logs but 0.94x on usrp-users, whose colons mostly pass it (`font-size:`,
/// `std::`) and then pay for it. An earlier try on the AMD EPYC that
/// passed over digits on both sides in every round lost on the RFCs and
/// gained nothing on the logs. The same loop with SSE2 (16 bytes a compare)
/// gained on mail but lost on the RFCs and the logs.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_avx2(hay: &[u8], from: usize, sides: Sides) -> Option<usize> {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_testz_si256,
    };
    // A `:` at `hay[0]` has no byte before it to test: it ends no scheme.
    let mut i = from.max(1).min(hay.len());
    while i + 65 <= hay.len() {
        // SAFETY: the CPU has AVX2 (this function's own condition), and
        // `1 <= i` and `i + 32 + 33 <= hay.len()`.
        let (low, high) = unsafe { (kept_avx2(hay, i), kept_avx2(hay, i + 32)) };
        let any = _mm256_or_si256(low, high);
        if _mm256_testz_si256(any, any) == 0 {
            let (low, high) = match sides {
                Sides::After => (low, high),
                // SAFETY: as above.
                Sides::Both => unsafe {
                    (
                        _mm256_and_si256(low, scheme_side_avx2(hay, i)),
                        _mm256_and_si256(high, scheme_side_avx2(hay, i + 32)),
                    )
                },
            };
            let low = u64::from(_mm256_movemask_epi8(low) as u32);
            let high = u64::from(_mm256_movemask_epi8(high) as u32);
            let kept = low | high << 32;
            if kept != 0 {
                return Some(i + kept.trailing_zeros() as usize);
            }
        }
        i += 64;
    }
    // The last bytes (all of a short input, such as a mail header's
    // field): memchr, whose short searches cost less than a loop here.
    while let Some(p) = memchr::memchr(b':', &hay[i..]) {
        let at = i + p;
        if may_follow_scheme(hay.get(at + 1)) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// The colons among the 32 bytes of `hay` at `at` that [`far_avx2`] keeps
/// first (those followed by a byte above the space), as a vector mask (a
/// byte of ones for each).
///
/// # Safety
///
/// The CPU must have AVX2, and `at + 33 <= hay.len()`: the two loads read
/// `hay[at..at + 32]` and `hay[at + 1..at + 33]`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn kept_avx2(hay: &[u8], at: usize) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_set1_epi8, _mm256_xor_si256,
    };
    debug_assert!(at + 33 <= hay.len());
    // SAFETY: both 32-byte reads are inside `hay` (this function's own
    // condition); `loadu` takes any alignment.
    let (bytes, next) = unsafe {
        let ptr = hay.as_ptr().add(at);
        (
            _mm256_loadu_si256(ptr.cast::<__m256i>()),
            _mm256_loadu_si256(ptr.add(1).cast::<__m256i>()),
        )
    };
    // Above the space as an unsigned byte: flipping the top bit of both
    // sides makes the signed compare an unsigned one.
    let top = _mm256_set1_epi8(i8::MIN);
    _mm256_and_si256(
        _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(b':' as i8)),
        _mm256_cmpgt_epi8(
            _mm256_xor_si256(next, top),
            _mm256_set1_epi8((b' ' ^ 0x80) as i8),
        ),
    )
}

/// For each of the 32 bytes of `hay` at `at`, whether the byte before it
/// may end a scheme (an ASCII letter or digit, `+`, `-` or `.`) and the two
/// bytes around it are not both digits, as a vector mask.
///
/// # Safety
///
/// The CPU must have AVX2, `1 <= at` and `at + 33 <= hay.len()`: the two
/// loads read `hay[at - 1..at + 31]` and `hay[at + 1..at + 33]`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn scheme_side_avx2(hay: &[u8], at: usize) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256,
        _mm256_min_epu8, _mm256_or_si256, _mm256_set1_epi8, _mm256_sub_epi8,
    };
    debug_assert!(1 <= at && at + 33 <= hay.len());
    // SAFETY: both 32-byte reads are inside `hay` (this function's own
    // condition); `loadu` takes any alignment.
    let (before, after) = unsafe {
        let ptr = hay.as_ptr().add(at);
        (
            _mm256_loadu_si256(ptr.sub(1).cast::<__m256i>()),
            _mm256_loadu_si256(ptr.add(1).cast::<__m256i>()),
        )
    };
    // The bytes from `low` to `low + span`: `v - low`, wrapping, is at
    // most `span` as an unsigned byte.
    let within = |v: __m256i, low: u8, span: u8| {
        let offset = _mm256_sub_epi8(v, _mm256_set1_epi8(low as i8));
        _mm256_cmpeq_epi8(
            _mm256_min_epu8(offset, _mm256_set1_epi8(span as i8)),
            offset,
        )
    };
    // Setting bit 0x20 lowers ASCII capitals and moves no other byte into
    // `a..=z`.
    let letter = within(_mm256_or_si256(before, _mm256_set1_epi8(0x20)), b'a', 25);
    let digit = within(before, b'0', 9);
    // `+`, `,`, `-`, `.`, less the comma.
    let mark = _mm256_andnot_si256(
        _mm256_cmpeq_epi8(before, _mm256_set1_epi8(b',' as i8)),
        within(before, b'+', 3),
    );
    let scheme_byte = _mm256_or_si256(_mm256_or_si256(letter, digit), mark);
    let digits = _mm256_and_si256(digit, within(after, b'0', 9));
    _mm256_andnot_si256(digits, scheme_byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The finders this machine can run: the one `new` builds, and on
    /// x86-64 the one without AVX2 too.
    fn finders() -> Vec<ColonFinder> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut finders = vec![ColonFinder::new()];
        #[cfg(target_arch = "x86_64")]
        finders.push(ColonFinder { avx2: false });
        finders
    }

    /// A URI byte (RFC 3986's unreserved and reserved bytes and `%`) or a
    /// byte of a non-ASCII character (an IRI's, RFC 3987), the byte after
    /// a `:` that the scanner's next test lets through: written out here,
    /// apart from the code under test.
    fn is_uri_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b) || !b.is_ascii()
    }

    /// A byte a scheme may end in (RFC 3986: `ALPHA / DIGIT / "+" / "-" /
    /// "."`), written out here too.
    fn is_scheme_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"+-.".contains(&b)
    }

    /// Whether the finder must stop at `hay[at]`: a `:` that is the input's
    /// last byte, or that may end a scheme by the bytes on its `sides`.
    fn must_stop(hay: &[u8], at: usize, sides: Sides) -> bool {
        if hay[at] != b':' || at == 0 {
            return false;
        }
        let before = hay[at - 1];
        hay.get(at + 1).is_none_or(|&after| {
            is_uri_byte(after)
                && (sides == Sides::After
                    || is_scheme_byte(before)
                        && !(before.is_ascii_digit() && after.is_ascii_digit()))
        })
    }

    /// Checks `next` against its contract at every start, testing either
    /// sides: what it returns is a `:`, and it passes over no `:` it must
    /// stop at.
    fn check(hay: &[u8]) {
        for finder in finders() {
            for sides in [Sides::After, Sides::Both] {
                check_with(&finder, hay, sides);
            }
        }
    }

    /// Checks `next`, and the far search alone, at every start.
    fn check_with(finder: &ColonFinder, hay: &[u8], sides: Sides) {
        for from in 0..=hay.len() {
            for (search, found) in [
                ("next", finder.next(hay, from, sides)),
                ("far", finder.far(hay, from, sides)),
            ] {
                let end = found.unwrap_or(hay.len());
                if let Some(at) = found {
                    assert_eq!(hay[at], b':', "{search}: {hay:?} from {from}");
                }
                for at in from..end {
                    assert!(
                        !must_stop(hay, at, sides),
                        "{search}: {hay:?} from {from} ({sides:?}): {at} passed over"
                    );
                }
            }
        }
    }

    #[test]
    fn passes_over_only_colons_that_cannot_end_a_scheme() {
        // Colons at every place of the 64-byte rounds and their ends, after
        // and before each kind of byte.
        let befores: [&[u8]; 14] = [
            b"a",
            b"o",
            b"M",
            b"Z",
            b"7",
            b"+",
            b"-",
            b".",
            b",",
            b"\"",
            b"/",
            b"@",
            b"`",
            b"\xc3\xa9",
        ];
        let afters: [&[u8]; 9] = [
            b" ",
            b"\n",
            b"\x7f",
            b"\xc3\xa9",
            b"/",
            b"a",
            b"1",
            b":",
            b"{",
        ];
        for len in [0usize, 1, 2, 15, 16, 17, 63, 64, 65, 66, 97, 128, 130, 200] {
            for at in (0..len).step_by(7).chain(len.checked_sub(1)) {
                for before in befores {
                    for after in afters {
                        let mut hay = vec![b'x'; len];
                        hay[at] = b':';
                        for (k, &b) in before.iter().rev().enumerate() {
                            if let Some(slot) = at.checked_sub(1 + k).map(|i| &mut hay[i]) {
                                *slot = b;
                            }
                        }
                        for (k, &b) in after.iter().enumerate() {
                            if let Some(slot) = hay.get_mut(at + 1 + k) {
                                *slot = b;
                            }
                        }
                        check(&hay);
                    }
                }
            }
        }
        for hay in [&b""[..], b":", b"a:", b"::", b":/"] {
            check(hay);
        }
        // Two colons kept by the vector test in one round, the first
        // glued to non-ASCII text: each is stopped at.
        let mut hay = b"x".repeat(130);
        hay[30..35].copy_from_slice(b"e:\xc3\xa9x");
        hay[50..53].copy_from_slice(b"p:/");
        check(&hay);
        // Dense text: colons before spaces, in times, after quotes, then
        // one that may end a scheme.
        let mut hay = b"Subject: a: b: c: 10:05:03 {\"id\":7} ".repeat(20);
        hay.extend_from_slice(b"see http://x.org/ and: ");
        check(&hay);
    }
}
