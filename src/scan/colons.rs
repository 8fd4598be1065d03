//! The search for the `:` every candidate hangs on: the scan's hottest
//! loop. Needs nothing but memchr, so that `benches/triggers.rs` measures
//! this very code against aho-corasick (it includes the file).

/// Finds the `:` bytes of the input.
///
/// Colons often come a few bytes apart (times, mail headers, JSON keys,
/// IPv6 addresses): the next [`ColonFinder::NEAR`] bytes are looked at a
/// word at a time before memchr, whose call costs more than that, is
/// asked. On x86-64 with AVX2, memchr's AVX2 searcher is built once, so
/// that its calls skip memchr's choice of searcher.
#[derive(Clone, Copy, Debug)]
pub(super) struct ColonFinder {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl ColonFinder {
    /// How far past the last `:` the next is looked for a word at a time.
    /// 16 (two words) against 32, 24 and 8, in three runs of `cargo bench
    /// --bench scan_rounds`: 16 was ahead in every folder, by 2 to 9%
    /// against linkify (the instructions are within 0.3%: what differs is
    /// the branches); 8 sends too many near colons to memchr (logs 10%
    /// behind).
    const NEAR: usize = 16;

    pub(super) fn new() -> ColonFinder {
        ColonFinder {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b':'),
        }
    }

    /// The offset of the first `:` of `hay` at or after `from`.
    #[inline]
    pub(super) fn next(&self, hay: &[u8], from: usize) -> Option<usize> {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
        const COLONS: u64 = u64::from_ne_bytes([b':'; 8]);
        let Some(near) = hay.get(from..from + Self::NEAR) else {
            return self.find(&hay[from..]).map(|p| from + p);
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
        let far = from + Self::NEAR;
        self.find(&hay[far..]).map(|p| far + p)
    }

    #[inline]
    fn find(&self, hay: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = &self.avx2 {
            return avx2.find(hay);
        }
        memchr::memchr(b':', hay)
    }
}
