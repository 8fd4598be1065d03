//! The host rules of Appendix A: `IPv4address`, `IPv6address`, `IPvFuture`.
//! (`reg-name` is a plain character class, checked by the parser.)

use super::table::{is_hex, IPVFUTURE_TAIL};

/// The kind of host in an authority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IPv4address`: four `dec-octet`s without leading zeros.
    Ipv4,
    /// `IPv6address` inside `[...]`.
    Ipv6,
    /// `IPvFuture` inside `[...]`.
    IpvFuture,
    /// `reg-name`, possibly empty (as in `file:///etc`).
    RegName,
}

impl HostKind {
    /// A short lowercase name: `ipv4`, `ipv6`, `ipvfuture`, `reg-name`.
    pub fn as_str(self) -> &'static str {
        match self {
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
            HostKind::RegName => "reg-name",
        }
    }
}

/// ```text
/// IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
/// dec-octet   = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
/// ```
pub fn is_ipv4(s: &[u8]) -> bool {
    let mut octets = 0;
    for part in s.split(|&b| b == b'.') {
        octets += 1;
        if octets > 4 || !is_dec_octet(part) {
            return false;
        }
    }
    octets == 4
}

fn is_dec_octet(s: &[u8]) -> bool {
    match s {
        [d] => d.is_ascii_digit(),
        [b'1'..=b'9', d] => d.is_ascii_digit(),
        [b'1', d, e] => d.is_ascii_digit() && e.is_ascii_digit(),
        [b'2', b'0'..=b'4', d] => d.is_ascii_digit(),
        [b'2', b'5', b'0'..=b'5'] => true,
        _ => false,
    }
}

/// ```text
/// IPv6address =                            6( h16 ":" ) ls32
///             /                       "::" 5( h16 ":" ) ls32
///             / [               h16 ] "::" 4( h16 ":" ) ls32
///             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
///             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
///             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
///             / [ *4( h16 ":" ) h16 ] "::"              ls32
///             / [ *5( h16 ":" ) h16 ] "::"              h16
///             / [ *6( h16 ":" ) h16 ] "::"
/// h16  = 1*4HEXDIG
/// ls32 = ( h16 ":" h16 ) / IPv4address
/// ```
///
/// The nine forms come down to: 8 pieces of 16 bits (an IPv4 address counts
/// for two and may only come last) without `::`, or at most 7 with exactly
/// one `::`.
pub fn is_ipv6(s: &[u8]) -> bool {
    let n = s.len();
    let mut i = 0;
    let mut pieces = 0;
    let mut elided = false;
    if s.starts_with(b"::") {
        elided = true;
        i = 2;
        if i == n {
            return true;
        }
    }
    loop {
        let start = i;
        while i < n && is_hex(s[i]) && i - start < 4 {
            i += 1;
        }
        if i < n && (s[i] == b'.' || s[i].is_ascii_hexdigit()) {
            // Either an IPv4 tail, or a fifth hex digit (which fails below).
            if !is_ipv4(&s[start..]) {
                return false;
            }
            pieces += 2;
            break;
        }
        if i == start {
            return false;
        }
        pieces += 1;
        if i == n {
            break;
        }
        if s[i] != b':' {
            return false;
        }
        i += 1;
        if i < n && s[i] == b':' {
            if elided {
                return false;
            }
            elided = true;
            i += 1;
            if i == n {
                break;
            }
        } else if i == n {
            return false;
        }
    }
    if elided {
        pieces <= 7
    } else {
        pieces == 8
    }
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`
/// (`"v"` matches either case, as every ABNF string does).
pub fn is_ipvfuture(s: &[u8]) -> bool {
    let Some((&v, rest)) = s.split_first() else {
        return false;
    };
    if v != b'v' && v != b'V' {
        return false;
    }
    let digits = rest.iter().take_while(|&&b| is_hex(b)).count();
    match rest[digits..].split_first() {
        Some((b'.', tail)) if digits > 0 && !tail.is_empty() => {
            tail.iter().all(|&b| IPVFUTURE_TAIL.contains(b))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! t {
        ($f:ident, $ok:expr, $bad:expr) => {
            for s in $ok {
                assert!($f(s.as_bytes()), "{} should accept {s:?}", stringify!($f));
            }
            for s in $bad {
                assert!(!$f(s.as_bytes()), "{} should reject {s:?}", stringify!($f));
            }
        };
    }

    #[test]
    fn ipv4() {
        t!(
            is_ipv4,
            ["0.0.0.0", "255.255.255.255", "192.0.2.16", "10.9.99.199"],
            [
                "256.0.0.1",
                "1.2.3",
                "1.2.3.4.5",
                "01.2.3.4",
                "1.2.3.04",
                "1..2.3",
                "1.2.3.4.",
                "",
                "a.b.c.d",
                "260.1.1.1",
                "1.2.3.1000"
            ]
        );
    }

    #[test]
    fn ipv6_all_nine_forms() {
        t!(
            is_ipv6,
            [
                "1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:1.2.3.4",
                "::2:3:4:5:6:7:8",
                "::3:4:5:6:7:1.2.3.4",
                "1::3:4:5:6:7:8",
                "1::4:5:6:7:8",
                "1:2::4:5:6:7:8",
                "1:2:3::5:6:7:8",
                "1:2:3:4::6:7:8",
                "1:2:3:4:5::7:8",
                "1:2:3:4:5:6::8",
                "1:2:3:4:5:6:7::",
                "::",
                "::1",
                "1::",
                "::ffff:192.0.2.128",
                "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
                "fe80::1",
                "2001:db8::7",
                "::1.2.3.4"
            ],
            [
                "",
                ":",
                ":::",
                "1:2:3:4:5:6:7",
                "1:2:3:4:5:6:7:8:9",
                "1::2::3",
                "12345::1",
                "1:2:3:4:5:6:7:8::",
                "::1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:7:1.2.3.4",
                "::256.1.1.1",
                "::1.2.3",
                "1.2.3.4::",
                "1.2.3.4:1::",
                ":1::",
                "1:",
                "g::1",
                "fe80::1%25eth0",
                "::1.2.3.4:1"
            ]
        );
    }

    #[test]
    fn ipvfuture() {
        t!(
            is_ipvfuture,
            ["v1.x", "vF.a:b", "V7.!$&'()*+,;=-._~:"],
            ["v.x", "v1.", "v1", "w1.x", "v1.x/y", "v1.[", ""]
        );
    }
}
