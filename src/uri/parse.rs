//! Recursive descent over the Appendix A grammar, one function per rule.
//!
//! The parser makes one forward pass, never allocates and never panics: it
//! works on bytes. As a URI parser (`IRI = false`) it accepts only ASCII;
//! as an IRI parser (RFC 3987, `IRI = true`) it accepts, where the URI
//! grammar has `unreserved`, a whole UTF-8 `ucschar` (and in the query an
//! `iprivate`) too ([`super::ucs`]). Either way a successful parse proves
//! the input is valid UTF-8.

use super::error::{ParseError, ParseErrorKind as Kind};
use super::host::{is_ipv4, is_ipv6, is_ipvfuture, HostKind};
use super::table::{is_hex, Table, PATH, QUERY, SCHEME, USERINFO};
use super::ucs;
use super::{Authority, Meta};

/// Parses a `URI-reference` (with `IRI`, an `IRI-reference`: the same
/// rules, with the `i` rules' characters) into component offsets.
///
/// ```text
/// URI-reference = URI / relative-ref
/// URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
/// relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
/// ```
pub(super) fn uri_reference<const IRI: bool>(s: &[u8]) -> Result<Meta, ParseError> {
    let scheme_end = scheme(s);
    let mut i = scheme_end.map_or(0, |end| end + 1);

    // hier-part / relative-part: "//" authority path-abempty, or a path alone.
    let authority = if s[i..].starts_with(b"//") {
        let a = authority::<IRI>(s, i + 2)?;
        i = a.end;
        Some(a)
    } else {
        None
    };
    let path_start = i;
    i = path::<IRI>(s, i, authority.is_none() && scheme_end.is_none())?;
    let path_end = i;

    let query_start = if s.get(i) == Some(&b'?') {
        i = component::<IRI>(s, i + 1, (&QUERY, true), b"#", Kind::Query)?;
        Some(path_end + 1)
    } else {
        None
    };
    let fragment_start = if s.get(i) == Some(&b'#') {
        let start = i + 1;
        i = component::<IRI>(s, start, (&QUERY, false), b"", Kind::Fragment)?;
        Some(start)
    } else {
        None
    };
    debug_assert_eq!(i, s.len(), "every byte belongs to a component");
    Ok(Meta {
        scheme_end,
        authority,
        path: (path_start, path_end),
        query_start,
        fragment_start,
    })
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, followed by `":"`.
///
/// Returns the offset of the `:` when the input starts with a scheme; a
/// first segment that is not a scheme leaves the input to the relative-ref
/// rules (where a colon in it is an error).
pub(crate) fn scheme(s: &[u8]) -> Option<usize> {
    let first = *s.first()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let len = 1 + s[1..].iter().take_while(|&&b| SCHEME.contains(b)).count();
    (s.get(len) == Some(&b':')).then_some(len)
}

/// Returns true if and only if `s` is a whole `scheme`.
pub fn is_scheme(s: &[u8]) -> bool {
    match s.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic() && rest.iter().all(|&b| SCHEME.contains(b))
        }
        None => false,
    }
}

/// ```text
/// authority = [ userinfo "@" ] host [ ":" port ]
/// host      = IP-literal / IPv4address / reg-name
/// port      = *DIGIT
/// ```
///
/// `start` is just past the `//`. The authority ends at the first `/`, `?`,
/// `#` or the end of input; userinfo cannot hold `@`, and reg-name cannot hold
/// `:`, so the first `@` ends the userinfo and the first `:` after the host
/// starts the port.
///
/// One pass with the userinfo class (a superset of reg-name, port digits
/// and `:`) finds where the userinfo or the host-and-port ends; the host and
/// port are then told apart at their first `:`.
fn authority<const IRI: bool>(s: &[u8], start: usize) -> Result<Authority, ParseError> {
    let mut i = run::<IRI>(s, start, (&USERINFO, false))?;
    let userinfo_end = if s.get(i) == Some(&b'@') {
        let at = i;
        i = if s.get(at + 1) == Some(&b'[') {
            at + 1
        } else {
            run::<IRI>(s, at + 1, (&USERINFO, false))?
        };
        Some(at)
    } else {
        None
    };
    let host_start = userinfo_end.map_or(start, |at| at + 1);
    let (host_end, host_kind) = if i == host_start && s.get(i) == Some(&b'[') {
        let (end, kind) = ip_literal(s, host_start)?;
        i = run::<IRI>(s, end, (&USERINFO, false))?;
        if i > end && s[end] != b':' {
            return Err(error(end, Kind::Host));
        }
        (end, kind)
    } else {
        let host_end =
            host_start + memchr::memchr(b':', &s[host_start..i]).unwrap_or(i - host_start);
        let kind = if is_ipv4(&s[host_start..host_end]) {
            HostKind::Ipv4
        } else {
            HostKind::RegName
        };
        (host_end, kind)
    };
    // `i` stopped at a byte outside the userinfo class: it must end the
    // authority.
    if let Some(&b) = s.get(i) {
        if !matches!(b, b'/' | b'?' | b'#') {
            // An `@` later in the authority (before its `/`, `?` or `#`)
            // makes this byte part of a userinfo. Looked for only up to
            // the authority's end, so that a text of many failing
            // candidates is not searched to its end for each.
            let authority_rest = s[i..]
                .iter()
                .take_while(|&&c| !matches!(c, b'/' | b'?' | b'#'))
                .count();
            crate::work::examined(authority_rest);
            let later_at =
                userinfo_end.is_none() && memchr::memchr(b'@', &s[i..i + authority_rest]).is_some();
            let kind = if later_at { Kind::Userinfo } else { Kind::Host };
            return Err(error(i, kind));
        }
    }
    let port_start = if host_end < i {
        debug_assert_eq!(s[host_end], b':');
        let port = &s[host_end + 1..i];
        if let Some(bad) = port.iter().position(|b| !b.is_ascii_digit()) {
            return Err(error(host_end + 1 + bad, Kind::Port));
        }
        Some(host_end + 1)
    } else {
        None
    };
    Ok(Authority {
        start,
        userinfo_end,
        host: (host_start, host_end),
        host_kind,
        port_start,
        end: i,
    })
}

/// What a component may hold as itself: its ASCII bytes, and (for an IRI)
/// whether `iprivate` characters too.
type Class<'t> = (&'t Table, bool);

/// Skips `class` bytes (for an IRI, characters) and valid
/// percent-encodings from `i`; returns the offset of the first other byte
/// (or the end).
#[inline]
fn run<const IRI: bool>(s: &[u8], i: usize, class: Class<'_>) -> Result<usize, ParseError> {
    let from = i;
    let result = run_from::<IRI>(s, i, class);
    crate::work::examined(result.unwrap_or_else(|e| e.index) + 1 - from);
    result
}

#[inline]
fn run_from<const IRI: bool>(
    s: &[u8],
    mut i: usize,
    (table, private): Class<'_>,
) -> Result<usize, ParseError> {
    loop {
        i += table.run_len(&s[i..]);
        let Some(&b) = s.get(i) else {
            break;
        };
        if b == b'%' {
            if !(i + 2 < s.len() && is_hex(s[i + 1]) && is_hex(s[i + 2])) {
                return Err(error(i, Kind::PercentEncoding));
            }
            i += 3;
        } else if IRI && b >= 0x80 {
            match ucs::decode(&s[i..]) {
                Some((c, len)) if ucs::is_iri_char(c, private) => i += len,
                _ => break,
            }
        } else {
            break;
        }
    }
    Ok(i)
}

/// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`
///
/// `start` is the offset of the `[`; returns the offset just past the `]`.
fn ip_literal(s: &[u8], start: usize) -> Result<(usize, HostKind), ParseError> {
    let auth_end = start
        + s[start..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(s.len() - start);
    crate::work::examined(auth_end - start);
    let auth = &s[..auth_end];
    let Some(close) = auth[start..].iter().position(|&b| b == b']') else {
        return Err(error(start, Kind::UnclosedIpLiteral));
    };
    let inside = &auth[start + 1..start + close];
    let kind = if matches!(inside.first(), Some(b'v' | b'V')) {
        if !is_ipvfuture(inside) {
            return Err(error(start + 1, Kind::IpvFuture));
        }
        HostKind::IpvFuture
    } else {
        if !is_ipv6(inside) {
            return Err(error(start + 1, Kind::Ipv6));
        }
        HostKind::Ipv6
    };
    Ok((start + close + 1, kind))
}

/// The path rules, which differ only in where they may start:
///
/// ```text
/// path-abempty  = *( "/" segment )                 ; after an authority
/// path-absolute = "/" [ segment-nz *( "/" segment ) ]
/// path-rootless = segment-nz *( "/" segment )      ; after a scheme
/// path-noscheme = segment-nz-nc *( "/" segment )   ; a relative-ref
/// path-empty    = 0<pchar>
/// segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
/// ```
///
/// Every form is a run of `pchar` and `/`; an authority already took any
/// leading `//`, so only `path-noscheme` needs a rule of its own: its first
/// segment has no `:`. Returns the offset where the path ends (`?`, `#` or
/// the end of input).
fn path<const IRI: bool>(s: &[u8], start: usize, noscheme: bool) -> Result<usize, ParseError> {
    let end = component::<IRI>(s, start, (&PATH, false), b"?#", Kind::Path)?;
    if noscheme {
        let first_segment = s[start..end].split(|&b| b == b'/').next().unwrap_or(&[]);
        if let Some(colon) = first_segment.iter().position(|&b| b == b':') {
            return Err(error(start + colon, Kind::ColonInFirstSegment));
        }
    }
    Ok(end)
}

/// Checks `s[start..]` against `class` (plus `pct-encoded`) up to the
/// first byte in `stops` (or the end), and returns where it stopped.
#[inline]
fn component<const IRI: bool>(
    s: &[u8],
    start: usize,
    class: Class<'_>,
    stops: &[u8],
    kind: Kind,
) -> Result<usize, ParseError> {
    let i = run::<IRI>(s, start, class)?;
    match s.get(i) {
        Some(b) if !stops.contains(b) => Err(error(i, kind)),
        _ => Ok(i),
    }
}

#[cold]
#[inline(never)]
fn error(index: usize, kind: Kind) -> ParseError {
    ParseError { index, kind }
}
