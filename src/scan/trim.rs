//! Where a bare URI ends: the punctuation of the sentence around it is not
//! part of it (RFC 3986 Appendix C; the policy of linkify's `find_url_end`).

/// Returns the length of `candidate` once the sentence's punctuation is
/// trimmed from its end.
///
/// Trailing `. , ; : ! ? ' *` are removed (so is `...`), and so is a
/// closing `)`, `]` or `}` that has no opening partner inside the
/// candidate; balanced brackets stay (`…/Rust_(programming_language)`).
/// Repeats until nothing changes, so `(http://x.org/a).` loses `).`.
///
/// # Invariants
///
/// The result is at most `candidate.len()`, and only bytes from the end are
/// removed.
pub fn trimmed_len(candidate: &[u8]) -> usize {
    let mut end = candidate.len();
    while end > 0 {
        let last = candidate[end - 1];
        let drop = match last {
            b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*' => true,
            b')' => unbalanced(&candidate[..end], b'(', b')'),
            b']' => unbalanced(&candidate[..end], b'[', b']'),
            b'}' => unbalanced(&candidate[..end], b'{', b'}'),
            _ => false,
        };
        if !drop {
            break;
        }
        end -= 1;
    }
    end
}

/// Returns true if and only if `s` has more `close` than `open` bytes.
fn unbalanced(s: &[u8], open: u8, close: u8) -> bool {
    let (mut opens, mut closes) = (0usize, 0usize);
    for &b in s {
        opens += usize::from(b == open);
        closes += usize::from(b == close);
    }
    closes > opens
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ];
        for (input, want) in cases {
            assert_eq!(&input[..trimmed_len(input.as_bytes())], want, "{input}");
        }
    }
}
