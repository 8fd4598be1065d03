//! Percent-decoding (section 2.1).

use std::borrow::Cow;

use super::table::is_hex;

/// Decodes every `%XX` in `input` into the byte it stands for.
///
/// Borrows the input when it holds no valid percent-encoding; a `%` that is
/// not followed by two hex digits is kept as it is. The result may be any
/// bytes (not necessarily UTF-8).
///
/// ```
/// use std::borrow::Cow;
/// use uriscan::uri::percent_decode;
///
/// assert_eq!(percent_decode(b"a%20b%2Fc"), Cow::Owned::<[u8]>(b"a b/c".to_vec()));
/// assert!(matches!(percent_decode(b"plain"), Cow::Borrowed(_)));
/// ```
pub fn percent_decode(input: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = next_escape(input, 0) else {
        return Cow::Borrowed(input);
    };
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(&input[..first]);
    let mut i = first;
    while i < input.len() {
        match hex_pair(input, i) {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(input[i]);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

/// The offset of the first valid `%XX` at or after `from`.
fn next_escape(input: &[u8], from: usize) -> Option<usize> {
    memchr::memchr_iter(b'%', &input[from..])
        .map(|p| from + p)
        .find(|&p| hex_pair(input, p).is_some())
}

/// The byte encoded by a valid `%XX` at `i`, if there is one.
#[inline]
pub(crate) fn hex_pair(input: &[u8], i: usize) -> Option<u8> {
    match input.get(i..i + 3) {
        Some([b'%', h, l]) if is_hex(*h) && is_hex(*l) => Some(hex_value(*h) << 4 | hex_value(*l)),
        _ => None,
    }
}

#[inline]
fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_borrows_when_nothing_changes() {
        assert_eq!(&*percent_decode(b"%41%7e%7E"), b"A~~");
        assert_eq!(&*percent_decode(b"%e6%b5%8b"), "测".as_bytes());
        assert!(matches!(percent_decode(b"100%"), Cow::Borrowed(_)));
        assert!(matches!(percent_decode(b"%zz%4"), Cow::Borrowed(_)));
        assert_eq!(&*percent_decode(b"%zz%41%4"), b"%zzA%4");
        assert_eq!(&*percent_decode(b"%00"), b"\0");
    }
}
