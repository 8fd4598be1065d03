//! The search for the `:` every candidate hangs on: the scan's hottest
//! loop. Needs nothing but memchr and `std::arch`, so that
//! `benches/triggers.rs` measures this very code against aho-corasick (it
//! includes the file).

/// Finds the `:` bytes of the input that may end a scheme.
///
/// Colons often come a few bytes apart (times, mail headers, JSON keys,
/// IPv6 addresses): the next [`ColonFinder::NEAR`] bytes are looked at a
/// word at a time first, and any `:` there is returned. Farther on, most
/// colons cannot end a scheme: a scheme's `:` is followed by a URI byte,
/// and most are followed by a space or a line break (`Subject: `,
/// `Note: `). On x86-64 with AVX2 the far search tests both bytes in one
/// vector loop ([`far_avx2`]) and passes over such colons without
/// stopping; elsewhere memchr finds every `:`.
///
/// # Contract
///
/// [`ColonFinder::next`] returns a `:` at or after `from`, and every `:`
/// it passes over is followed by a byte that is no URI byte (at most
/// `0x20`, or not ASCII). The last byte of `hay` is never passed over (the
/// caller decides on a `:` whose next byte is not in the window yet). So a
/// caller that turns away every `:` not followed by a URI byte sees the
/// same colons either way.
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
    /// the far search may pass over (see the contract above).
    #[inline]
    pub(super) fn next(&self, hay: &[u8], from: usize) -> Option<usize> {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
        const COLONS: u64 = u64::from_ne_bytes([b':'; 8]);
        let Some(near) = hay.get(from..from + Self::NEAR) else {
            return self.far(hay, from);
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
        self.far(hay, from + Self::NEAR)
    }

    /// The far search: the first `:` at or after `from` that may end a
    /// scheme, or an earlier one.
    #[inline]
    fn far(&self, hay: &[u8], from: usize) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `far_avx2` needs AVX2, and `avx2` is true only when
            // the CPU has it (detected in `new`).
            return unsafe { far_avx2(hay, from) };
        }
        memchr::memchr(b':', &hay[from..]).map(|p| from + p)
    }
}

/// Returns true if and only if a `:` followed by `next` (`None`: the end
/// of the input seen so far) may end a scheme: `next` is ASCII above the
/// space, as every URI byte is, or unknown.
#[inline]
fn may_follow_scheme(next: Option<&u8>) -> bool {
    next.is_none_or(|&b| (b' ' + 1..0x80).contains(&b))
}

/// The far search with AVX2: the first `:` at or after `from` for which
/// [`may_follow_scheme`] holds, 64 bytes per round (each byte compared
/// with `:`, and the byte after it with the space as signed bytes: ASCII
/// above the space is greater, control bytes and non-ASCII bytes are not),
/// then with memchr for the last 64 bytes.
///
/// Measured in `cargo bench --bench scan_rounds` (15 rounds, one run of
/// each build, one after the other; against the memchr search that stopped
/// at every `:`), `find_iter` against linkify: on the RFCs from 0.85x to
/// 0.93x (without line numbers 1.00x to 1.08x), on the mail folders from
/// 1.38x to 1.52x (the spam corpus 1.23x to 1.34x), on all of the corpus
/// from 1.27x to 1.43x (2.95 GiB/s; 3.23 without line numbers); the logs,
/// whose colons are mostly in times (`13:55:36`) that it cannot pass over,
/// level (1.23x). Passing over digits on both sides too (one more load and
/// four compares a round) lost on the RFCs and gained nothing on the logs;
/// the same loop with SSE2 (16 bytes a compare) gained on mail but lost on
/// the RFCs and the logs.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_avx2(hay: &[u8], from: usize) -> Option<usize> {
    use std::arch::x86_64::{_mm256_movemask_epi8, _mm256_or_si256, _mm256_testz_si256};
    let mut i = from;
    while i + 65 <= hay.len() {
        // SAFETY: the CPU has AVX2 (this function's own condition), and
        // `i + 32 + 33 <= hay.len()`.
        let (low, high) = unsafe { (kept_avx2(hay, i), kept_avx2(hay, i + 32)) };
        let any = _mm256_or_si256(low, high);
        if _mm256_testz_si256(any, any) == 0 {
            let low = u64::from(_mm256_movemask_epi8(low) as u32);
            let high = u64::from(_mm256_movemask_epi8(high) as u32);
            return Some(i + (low | high << 32).trailing_zeros() as usize);
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

/// The colons among the 32 bytes of `hay` at `at` that [`far_avx2`] keeps,
/// as a vector mask (a byte of ones for each).
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
        _mm256_set1_epi8,
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
    _mm256_and_si256(
        _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(b':' as i8)),
        _mm256_cmpgt_epi8(next, _mm256_set1_epi8(b' ' as i8)),
    )
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

    /// A URI byte (RFC 3986's unreserved and reserved bytes and `%`), the
    /// byte after a `:` that the scanner's next test lets through: written
    /// out here, apart from the code under test.
    fn is_uri_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b)
    }

    /// Checks `next` against its contract at every start: what it returns
    /// is a `:`, and no `:` before it is followed by a URI byte or is the
    /// input's last byte.
    fn check(hay: &[u8]) {
        for finder in finders() {
            check_with(&finder, hay);
        }
    }

    fn check_with(finder: &ColonFinder, hay: &[u8]) {
        for from in 0..=hay.len() {
            let found = finder.next(hay, from);
            let end = found.unwrap_or(hay.len());
            if let Some(at) = found {
                assert_eq!(hay[at], b':', "{hay:?} from {from}");
            }
            for at in from..end {
                let must_stop = hay[at] == b':' && hay.get(at + 1).is_none_or(|&b| is_uri_byte(b));
                assert!(!must_stop, "{hay:?} from {from}: {at} passed over");
            }
        }
    }

    #[test]
    fn passes_over_only_colons_that_cannot_end_a_scheme() {
        // Colons at every place of the 64-byte rounds and their ends,
        // followed by each kind of byte.
        let afters: [&[u8]; 7] = [b" ", b"\n", b"\x7f", b"\xc3\xa9", b"/", b"a", b"1"];
        for len in [0usize, 1, 2, 15, 16, 17, 63, 64, 65, 66, 97, 128, 130, 200] {
            for at in (0..len).step_by(7).chain(len.checked_sub(1)) {
                for after in afters {
                    let mut hay = vec![b'x'; len];
                    hay[at] = b':';
                    for (k, &b) in after.iter().enumerate() {
                        if let Some(slot) = hay.get_mut(at + 1 + k) {
                            *slot = b;
                        }
                    }
                    check(&hay);
                }
            }
        }
        // Dense text: colons before spaces, then one before a URI byte.
        let mut hay = b"Subject: a: b: c: ".repeat(20);
        hay.extend_from_slice(b"see http://x.org/ and: ");
        check(&hay);
    }
}
