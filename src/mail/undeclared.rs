//! Text that is quoted-printable without saying so: a part declared 7bit
//! (or with no transfer encoding at all) whose lines still end in soft
//! breaks and whose `=` are all escapes, as spam and some archives (whose
//! MIME headers were lost) carry. Read as it is, its URIs would come out
//! cut at each soft break and with `=3D` for `=`.

use std::borrow::Cow;

use memchr::memchr_iter;

/// Returns `text` decoded as quoted-printable if it has the exact shape an
/// encoder gives (see [`looks_quoted_printable`]), else `text` as it is.
pub fn decode(text: &[u8]) -> Cow<'_, [u8]> {
    let decoded = looks_quoted_printable(text)
        .then(|| mail_parser::decoders::quoted_printable::quoted_printable_decode(text))
        .flatten();
    decoded.map_or(Cow::Borrowed(text), Cow::Owned)
}

/// Returns true if and only if `text` has at least one soft line break (a
/// line ending in `=`, trailing blanks allowed) and every `=` in it starts
/// an escape of two upper-case hex digits (RFC 2045 6.7) or a soft break.
/// Plain text fails at its first `a = b`, `x == y` or `?q=1`.
fn looks_quoted_printable(text: &[u8]) -> bool {
    let mut soft_breaks = 0;
    for at in memchr_iter(b'=', text) {
        let rest = &text[at + 1..];
        if let [a, b, ..] = rest {
            if is_upper_hex(*a) && is_upper_hex(*b) {
                continue;
            }
        }
        let blanks = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        match &rest[blanks..] {
            [] | [b'\n', ..] | [b'\r', b'\n', ..] => soft_breaks += 1,
            _ => return false,
        }
    }
    soft_breaks > 0
}

fn is_upper_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'A'..=b'F').contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_text_shaped_by_an_encoder_is_decoded() {
        let qp = b"<a href=3D\"http://x.org/?a=3D1&b=3D2\">x</a> see http://x.org/lo=\nng/path\n";
        assert_eq!(
            &*decode(qp),
            b"<a href=\"http://x.org/?a=1&b=2\">x</a> see http://x.org/long/path\n"
        );
        for plain in [
            &b"if a = b then\nsee http://x.org/?q=1\n"[..],
            b"no soft break at all: http://x.org/?id=3D12\n",
            b"x == y =\n",
            b"http://x.org/?q=ab=\ncd\n",
        ] {
            assert!(
                matches!(decode(plain), Cow::Borrowed(_)),
                "{}",
                String::from_utf8_lossy(plain)
            );
        }
    }
}
