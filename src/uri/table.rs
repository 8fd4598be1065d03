//! Byte classes of the RFC 3986 Appendix A grammar, as const lookup tables.
//!
//! Each table answers "may this byte appear here, as itself?" in one load.
//! `%` is in no table of a grammar rule: percent-encodings (`pct-encoded =
//! "%" HEXDIG HEXDIG`) are checked by the parser, which needs the two bytes
//! after it. (`URI`, the bytes the scanner lets a URI hold, has it.)

/// A set of bytes, built at compile time.
///
/// # Invariants
///
/// Only ASCII bytes are ever members: every rule of the grammar is ASCII.
#[derive(Clone, Copy)]
pub struct Table([bool; 256]);

impl Table {
    /// Returns true if and only if `byte` is in the set.
    #[inline(always)]
    pub const fn contains(&self, byte: u8) -> bool {
        self.0[byte as usize]
    }

    /// The length of the run of bytes of the set at the start of `bytes`.
    ///
    /// Eight bytes at a time while all are in the set, with one branch for
    /// the eight (text in a URI is mostly such runs), then one at a time.
    #[inline]
    pub fn run_len(&self, bytes: &[u8]) -> usize {
        let mut i = 0;
        while let Some(eight) = bytes[i..].first_chunk::<8>() {
            if !eight.iter().fold(true, |all, &b| all & self.contains(b)) {
                break;
            }
            i += 8;
        }
        i + bytes[i..].iter().take_while(|&&b| self.contains(b)).count()
    }

    /// The set with `byte` added.
    pub const fn with(&self, byte: u8) -> Table {
        let mut t = self.0;
        t[byte as usize] = true;
        Table(t)
    }

    /// The set of the bytes in `chars`, plus the ALPHA and DIGIT ranges when asked.
    const fn new(chars: &[u8], alpha: bool, digit: bool) -> Table {
        let mut t = [false; 256];
        let mut i = 0;
        while i < chars.len() {
            t[chars[i] as usize] = true;
            i += 1;
        }
        let mut b = 0usize;
        while b < 128 {
            let c = b as u8;
            if (alpha && c.is_ascii_alphabetic()) || (digit && c.is_ascii_digit()) {
                t[b] = true;
            }
            b += 1;
        }
        Table(t)
    }
}

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
pub const UNRESERVED: Table = Table::new(b"-._~", true, true);

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (the bytes after the first)
pub const SCHEME: Table = Table::new(b"+-.", true, true);

/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`
///
/// Also the class of `reg-name ":" port` as a whole
/// (`reg-name = *( unreserved / pct-encoded / sub-delims )`, `port =
/// *DIGIT`): the parser splits host from port at the first `:`.
pub const USERINFO: Table = Table::new(b"-._~!$&'()*+,;=:", true, true);

/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`, plus `/`,
/// the separator of `segment`s in every path rule.
pub const PATH: Table = Table::new(b"-._~!$&'()*+,;=:@/", true, true);

/// `query = *( pchar / "/" / "?" )`; `fragment` is the same set.
pub const QUERY: Table = Table::new(b"-._~!$&'()*+,;=:@/?", true, true);

/// What may follow `"v" 1*HEXDIG "."` in `IPvFuture`:
/// `1*( unreserved / sub-delims / ":" )`.
pub const IPVFUTURE_TAIL: Table = USERINFO;

/// Every byte that can appear anywhere in a URI-reference: unreserved,
/// gen-delims, sub-delims and `%`. Used by the scanner to find where a
/// candidate ends.
pub const URI: Table = Table::new(b"-._~:/?#[]@!$&'()*+,;=%", true, true);

/// [`URI`] less the closing brackets `)` and `]`: the scanner reads a run
/// of URI bytes up to one of them first (see `scan::trim::measure`).
pub const URI_BUT_CLOSERS: Table = Table::new(b"-._~:/?#[@!$&'(*+,;=%", true, true);

/// [`URI`] less `:`: the scanner turns a word that holds one away at it
/// (see `scan::unwrap::backslash_continuation`).
pub const URI_BUT_COLON: Table = Table::new(b"-._~/?#[]@!$&'()*+,;=%", true, true);

/// Returns true if and only if `b` is a `HEXDIG` (either case).
#[inline(always)]
pub const fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_hold_only_their_rule() {
        for b in 0..=255u8 {
            let unreserved = b.is_ascii_alphanumeric() || b"-._~".contains(&b);
            let sub_delim = b"!$&'()*+,;=".contains(&b);
            assert_eq!(UNRESERVED.contains(b), unreserved, "{b}");
            assert_eq!(
                USERINFO.contains(b),
                unreserved || sub_delim || b == b':',
                "{b}"
            );
            assert_eq!(
                PATH.contains(b),
                unreserved || sub_delim || b":@/".contains(&b),
                "{b}"
            );
            assert_eq!(
                QUERY.contains(b),
                unreserved || sub_delim || b":@/?".contains(&b),
                "{b}"
            );
            assert_eq!(
                URI.contains(b),
                unreserved || sub_delim || b":/?#[]@%".contains(&b),
                "{b}"
            );
            assert_eq!(
                URI_BUT_CLOSERS.contains(b),
                URI.contains(b) && b != b')' && b != b']',
                "{b}"
            );
        }
    }

    #[test]
    fn forbidden_bytes_are_in_no_table() {
        for &b in b" \"<>\\^`{|}\x00\x1f\x7f" {
            assert!(!URI.contains(b) && !QUERY.contains(b), "{b}");
        }
        assert!(!URI.contains(0x80) && !URI.contains(0xff));
    }
}
