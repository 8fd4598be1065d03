//! Where a bare URI ends: the punctuation of the sentence around it is not
//! part of it (RFC 3986 Appendix C; the policy of linkify's `find_url_end`).

/// How many of each kind of bracket a text holds: `(`, `[`, `{` and their
/// closing partners, as closing minus opening (so a positive value means a
/// closing bracket has no partner).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Brackets {
    unmatched: [isize; 3],
}

impl Brackets {
    /// Counts the brackets of `text`.
    pub fn of(text: &[u8]) -> Brackets {
        crate::work::examined(text.len());
        Brackets::tally(text)
    }

    /// [`Brackets::of`], not counted as work (for checks of invariants).
    fn tally(text: &[u8]) -> Brackets {
        let mut b = Brackets::default();
        for &byte in text {
            b.add(byte);
        }
        b
    }

    /// Adds one byte to the count.
    #[inline]
    pub fn add(&mut self, byte: u8) {
        match byte {
            b'(' => self.unmatched[0] -= 1,
            b'[' => self.unmatched[1] -= 1,
            b'{' => self.unmatched[2] -= 1,
            b')' => self.unmatched[0] += 1,
            b']' => self.unmatched[1] += 1,
            b'}' => self.unmatched[2] += 1,
            _ => {}
        }
    }

    /// Takes one byte out of the count.
    #[inline]
    pub fn remove(&mut self, byte: u8) {
        match byte {
            b'(' => self.unmatched[0] += 1,
            b'[' => self.unmatched[1] += 1,
            b'{' => self.unmatched[2] += 1,
            b')' => self.unmatched[0] -= 1,
            b']' => self.unmatched[1] -= 1,
            b'}' => self.unmatched[2] -= 1,
            _ => {}
        }
    }

    /// The count of `self` without the bytes counted in `prefix`.
    pub fn minus(self, prefix: Brackets) -> Brackets {
        let mut b = self;
        for (slot, p) in b.unmatched.iter_mut().zip(prefix.unmatched) {
            *slot -= p;
        }
        b
    }

    /// Returns true if and only if the closing bracket `close` has no
    /// opening partner in the counted text (which ends with it).
    fn is_unmatched(&self, close: u8) -> bool {
        let slot = match close {
            b')' => 0,
            b']' => 1,
            _ => 2,
        };
        self.unmatched[slot] > 0
    }
}

/// Returns the length of `candidate` once the sentence's punctuation is
/// trimmed from its end, given `brackets`, the count of its brackets (the
/// caller may know it without counting them again).
///
/// Trailing `. , ; : ! ? ' *` are removed (so is `...`), and so is a
/// closing `)`, `]` or `}` that has no opening partner inside the
/// candidate; balanced brackets stay (`…/Rust_(programming_language)`).
/// Repeats until nothing changes, so `(http://x.org/a).` loses `).`.
///
/// One pass from the end: each byte removed updates the counts, so a run of
/// `)))…` costs its length, not its length squared.
///
/// # Invariants
///
/// The result is at most `candidate.len()`, and only bytes from the end are
/// removed.
pub fn trimmed_len(candidate: &[u8], mut brackets: Brackets) -> usize {
    debug_assert_eq!(brackets, Brackets::tally(candidate));
    let mut end = candidate.len();
    while end > 0 {
        let last = candidate[end - 1];
        let drop = match last {
            b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*' => true,
            b')' | b']' | b'}' => brackets.is_unmatched(last),
            _ => false,
        };
        if !drop {
            break;
        }
        brackets.remove(last);
        end -= 1;
    }
    crate::work::examined(candidate.len() - end + 1);
    end
}

/// Returns true if and only if `text` ends with a byte that trimming may
/// remove (so that its bracket count is needed).
pub fn may_trim(text: &[u8]) -> bool {
    matches!(
        text.last(),
        Some(b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*' | b')' | b']' | b'}')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trim(s: &str) -> &str {
        &s[..trimmed_len(s.as_bytes(), Brackets::of(s.as_bytes()))]
    }

    #[test]
    fn trims_sentence_punctuation() {
        let cases = [
            ("http://x.org/a.", "http://x.org/a"),
            ("http://x.org/a...", "http://x.org/a"),
            ("http://x.org/a,", "http://x.org/a"),
            ("http://x.org/a?!", "http://x.org/a"),
            ("http://x.org/'", "http://x.org/"),
            ("http://x.org/a).", "http://x.org/a"),
            ("http://x.org/a)", "http://x.org/a"),
            ("http://x.org/a]", "http://x.org/a"),
            ("http://x.org/a}", "http://x.org/a"),
            ("http://x.org/a*", "http://x.org/a"),
            (
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ),
            (
                "https://en.wikipedia.org/wiki/Rust_(programming_language)).",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ),
            ("http://[::1]/", "http://[::1]/"),
            ("http://x.org/?q=1", "http://x.org/?q=1"),
            ("http://x.org/#", "http://x.org/#"),
            ("http://x.org/(a)(b)).)", "http://x.org/(a)(b)"),
        ];
        for (input, want) in cases {
            assert_eq!(trim(input), want, "{input}");
        }
    }

    /// Found by the timing of `http://a/` followed by 60,000 `)`:
    /// each byte trimmed recounted the candidate's brackets.
    #[test]
    fn trailing_bracket_run_is_trimmed_in_one_pass() {
        let text = format!("http://a/{}", ")".repeat(60_000));
        let brackets = Brackets::of(text.as_bytes());
        crate::work::take();
        assert_eq!(trimmed_len(text.as_bytes(), brackets), 9);
        assert!(crate::work::take() <= 60_010);
    }

    #[test]
    fn counts_subtract() {
        let all = Brackets::of(b"(a)[b");
        let prefix = Brackets::of(b"(a");
        assert_eq!(all.minus(prefix), Brackets::of(b")[b"));
        assert!(Brackets::of(b"x)").is_unmatched(b')'));
        assert!(!Brackets::of(b"(x)").is_unmatched(b')'));
    }
}
