//! IRIs (RFC 3987): the strict parser, and the mappings between IRIs and
//! URIs (sections 3.1 and 3.2).
//!
//! # Conformance
//!
//! - **Grammar**: `IRI-reference` of section 2.2: RFC 3986's rules, where
//!   `ucschar` may stand wherever `unreserved` may, and `iprivate` in the
//!   query only. The bidirectional formatting characters are forbidden
//!   (section 4.1, a MUST; the isolates U+2066–2069 too). The SHOULDs of
//!   section 4.2 on right-to-left components are not enforced.
//! - **IRI to URI** ([`IriRef::to_uri`], section 3.1): every non-ASCII
//!   character becomes the `%HH` of its UTF-8 bytes; except that, for the
//!   schemes whose host is a DNS name (`http`, `https`, `ws`, `wss`,
//!   `ftp`) the host, and for `mailto` each address's domain, become IDNA
//!   A-labels (UTS 46, non-transitional, with the `idna` crate:
//!   `http://müller.de/` gives `http://xn--mller-kva.de/`), as section 3.1
//!   allows for schemes known to use domain names. *Judgement call:* a
//!   domain that IDNA refuses (with STD3's rules: a label must come out as
//!   letters, digits and `-`) is percent-encoded instead (the general
//!   rule), so every IRI has its URI.
//! - **URI to IRI** ([`UriRef::to_iri`], section 3.2), for display:
//!   percent-encoded UTF-8 is decoded where it stands for a character that
//!   reads as part of a word (a `ucschar` that is not a space, a
//!   punctuation mark or a bidirectional control), so the IRI shown is
//!   found whole again by the scanner; A-labels of DNS hosts are shown as
//!   Unicode.

use std::borrow::Cow;
use std::fmt::Write;

use super::error::ParseError;
use super::host::HostKind;
use super::table::is_hex;
use super::{parse, ucs, Meta, UriRef};

/// The schemes whose host is a DNS name, mapped to IDNA A-labels.
const DNS_HOST_SCHEMES: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

/// A parsed IRI-reference (RFC 3987): a view of the input with its
/// component offsets, as [`UriRef`] is for URIs.
///
/// ```
/// use uriscan::IriRef;
///
/// let iri = IriRef::parse("http://例え.jp/パス?q=東京#章")?;
/// assert_eq!(iri.host(), Some("例え.jp"));
/// assert_eq!(iri.path(), "/パス");
/// assert_eq!(
///     iri.to_uri(),
///     "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%E6%9D%B1%E4%BA%AC#%E7%AB%A0"
/// );
/// assert!(IriRef::parse("http://x/\u{202E}").is_err(), "a bidi override");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IriRef<'a> {
    input: &'a str,
    meta: Meta,
}

impl<'a> IriRef<'a> {
    /// Parses an `IRI-reference` (an IRI or a relative reference). Every
    /// URI-reference is one.
    ///
    /// # Errors
    ///
    /// Returns a [`ParseError`] with the offset of the first byte that the
    /// grammar does not allow there (for a character, its first byte).
    pub fn parse(input: &'a str) -> Result<IriRef<'a>, ParseError> {
        let meta = parse::uri_reference::<true>(input.as_bytes())?;
        Ok(IriRef { input, meta })
    }

    /// Parses an `IRI-reference` from bytes, which need not be UTF-8: bytes
    /// that are not a whole UTF-8 character are an error where they start.
    ///
    /// # Errors
    ///
    /// As [`IriRef::parse`].
    pub fn parse_bytes(input: &'a [u8]) -> Result<IriRef<'a>, ParseError> {
        let meta = parse::uri_reference::<true>(input)?;
        // INVARIANT: the parser passes a non-ASCII byte only as part of a
        // whole UTF-8 character, so a successful parse proves the input is
        // UTF-8 and this never fails.
        let input = std::str::from_utf8(input).map_err(|e| ParseError {
            index: e.valid_up_to(),
            kind: super::ParseErrorKind::Path,
        })?;
        Ok(IriRef { input, meta })
    }

    super::component_accessors!();

    /// Returns true if and only if the reference is ASCII: a URI-reference.
    pub fn is_uri(&self) -> bool {
        self.input.is_ascii()
    }

    /// The URI this IRI maps to (section 3.1; see the module docs): the
    /// input itself when it is ASCII.
    pub fn to_uri(&self) -> Cow<'a, str> {
        if self.is_uri() {
            return Cow::Borrowed(self.input);
        }
        let idna = self.mapped(true);
        // IDNA output is letters, digits, `-` and `.`: a reg-name. Should
        // it ever not be, the general rule still gives a URI.
        if UriRef::parse(&idna).is_ok() {
            return Cow::Owned(idna);
        }
        Cow::Owned(self.mapped(false))
    }

    fn mapped(&self, idna: bool) -> String {
        let mut out = String::with_capacity(self.input.len() * 3);
        let scheme = self.scheme().map(str::to_ascii_lowercase);
        let dns_host = idna
            && scheme
                .as_deref()
                .is_some_and(|s| DNS_HOST_SCHEMES.contains(&s))
            && self.host_kind() == Some(HostKind::RegName);
        let mailto = idna && scheme.as_deref() == Some("mailto");
        match self.meta.authority {
            Some(a) if dns_host => {
                encode(&mut out, &self.input[..a.host.0]);
                push_domain(&mut out, &self.input[a.host.0..a.host.1]);
                encode(&mut out, &self.input[a.host.1..]);
            }
            _ if mailto => {
                let (path_start, path_end) = self.meta.path;
                encode(&mut out, &self.input[..path_start]);
                for (i, address) in self.input[path_start..path_end].split(',').enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    match address.rsplit_once('@') {
                        Some((local, domain)) => {
                            encode(&mut out, local);
                            out.push('@');
                            push_domain(&mut out, domain);
                        }
                        None => encode(&mut out, address),
                    }
                }
                encode(&mut out, &self.input[path_end..]);
            }
            _ => encode(&mut out, self.input),
        }
        out
    }
}

impl std::fmt::Display for IriRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.input)
    }
}

/// Appends `domain` as IDNA A-labels when it is not ASCII (and holds no
/// percent-encoding), percent-encoded when IDNA refuses it: a label that
/// would hold an ASCII byte other than a letter, a digit or `-` is
/// refused.
fn push_domain(out: &mut String, domain: &str) {
    if domain.is_ascii() || domain.contains('%') {
        return encode(out, domain);
    }
    // STD3's rules: a label is letters, digits and `-` once mapped (a
    // host name's, RFC 1123). Without them IDNA took `:` and `(` into
    // labels (`xn--:-17t…`, from an address glued to CJK text).
    match idna::domain_to_ascii_cow(domain.as_bytes(), idna::AsciiDenyList::STD3) {
        Ok(ascii) => out.push_str(&ascii),
        Err(_) => encode(out, domain),
    }
}

/// Appends `s` with each non-ASCII byte percent-encoded.
fn encode(out: &mut String, s: &str) {
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                write!(out, "%{b:02X}").expect("a String takes every write");
            }
        }
    }
}

impl<'a> UriRef<'a> {
    /// The IRI this URI maps to, for display (RFC 3987 section 3.2; see
    /// [`IriRef`]'s module docs): the input itself when nothing in it
    /// stands for a character that reads as part of a word.
    ///
    /// ```
    /// use uriscan::UriRef;
    ///
    /// let uri = UriRef::parse("http://xn--mller-kva.de/%C3%BCber%20uns%2F?%E2%80%AE")?;
    /// assert_eq!(uri.to_iri(), "http://müller.de/über%20uns%2F?%E2%80%AE");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_iri(&self) -> Cow<'a, str> {
        let input = self.as_str();
        let dns_host = self
            .scheme()
            .is_some_and(|s| DNS_HOST_SCHEMES.iter().any(|d| s.eq_ignore_ascii_case(d)))
            && self.host_kind() == Some(HostKind::RegName);
        let host = self.meta.authority.filter(|_| dns_host).map(|a| a.host);
        let unicode_host = host.and_then(|(start, end)| {
            let host = &input[start..end];
            if !host.to_ascii_lowercase().contains("xn--") {
                return None;
            }
            let (unicode, result) = idna::domain_to_unicode(host);
            (result.is_ok()
                && unicode
                    .chars()
                    .all(|c| c.is_ascii() || ucs::is_word_char(c)))
            .then_some(unicode)
        });
        if unicode_host.is_none() && !input.contains('%') {
            return Cow::Borrowed(input);
        }
        let mut out = String::with_capacity(input.len());
        match (host, unicode_host) {
            (Some((start, end)), Some(unicode)) => {
                decode_words(&mut out, &input[..start]);
                out.push_str(&unicode);
                decode_words(&mut out, &input[end..]);
            }
            _ => decode_words(&mut out, input),
        }
        if out == input {
            Cow::Borrowed(input)
        } else {
            Cow::Owned(out)
        }
    }
}

/// Appends `s` (ASCII, valid URI text) with each percent-encoded UTF-8
/// character that reads as part of a word decoded.
fn decode_words(out: &mut String, s: &str) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if let Some((c, len)) = encoded_char(&b[i..]) {
            if ucs::is_word_char(c) {
                out.push(c);
                i += len;
                continue;
            }
        }
        out.push(char::from(b[i]));
        i += 1;
    }
}

/// The non-ASCII character that percent-encodings at the start of `b`
/// stand for, and how many bytes they take.
fn encoded_char(b: &[u8]) -> Option<(char, usize)> {
    let byte_at = |k: usize| {
        let at = 3 * k;
        (b.get(at) == Some(&b'%') && b.len() > at + 2 && is_hex(b[at + 1]) && is_hex(b[at + 2]))
            .then(|| u8::from_str_radix(std::str::from_utf8(&b[at + 1..at + 3]).ok()?, 16).ok())
            .flatten()
    };
    let first = byte_at(0)?;
    let len = match first {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let mut bytes = [first, 0, 0, 0];
    for (k, slot) in bytes.iter_mut().enumerate().take(len).skip(1) {
        *slot = byte_at(k)?;
    }
    let (c, _) = ucs::decode(&bytes[..len])?;
    Some((c, 3 * len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseErrorKind;

    #[test]
    fn iri_components_hold_ucschar_where_unreserved_may() {
        let iri = IriRef::parse("http://ü:ß@例え.jp:8080/パス/α?q=東京&\u{E000}#章").unwrap();
        assert_eq!(iri.userinfo(), Some("ü:ß"));
        assert_eq!(iri.host(), Some("例え.jp"));
        assert_eq!(iri.port(), Some("8080"));
        assert_eq!(iri.path(), "/パス/α");
        assert_eq!(iri.query(), Some("q=東京&\u{E000}"));
        assert_eq!(iri.fragment(), Some("章"));
    }

    #[test]
    fn iri_errors_name_the_component_and_byte() {
        let bad = |s: &str| {
            let e = IriRef::parse(s).expect_err(s);
            (e.index(), e.kind())
        };
        assert_eq!(bad("http://x/\u{E000}"), (9, ParseErrorKind::Path));
        assert_eq!(bad("http://x/#\u{E000}"), (10, ParseErrorKind::Fragment));
        assert_eq!(bad("http://x:ü/"), (9, ParseErrorKind::Port));
        assert_eq!(bad("http://[v1.ü]/"), (8, ParseErrorKind::IpvFuture));
        assert_eq!(bad("http://x/a\u{200F}b"), (10, ParseErrorKind::Path));
        assert_eq!(bad("http://x/\u{FFFF}"), (9, ParseErrorKind::Path));
        assert_eq!(bad("ü:x"), (2, ParseErrorKind::ColonInFirstSegment));
        let e = IriRef::parse_bytes(b"http://x/\xe6\x9d").unwrap_err();
        assert_eq!((e.index(), e.kind()), (9, ParseErrorKind::Path));
    }

    #[test]
    fn uri_parser_still_refuses_non_ascii() {
        assert_eq!(UriRef::parse("http://x/é").unwrap_err().index(), 9);
        assert!(IriRef::parse("http://x/é").is_ok());
    }

    #[test]
    fn to_uri_percent_encodes_and_uses_a_labels_for_dns_hosts() {
        let map = |s: &str| IriRef::parse(s).unwrap().to_uri().into_owned();
        assert_eq!(map("http://müller.de/x"), "http://xn--mller-kva.de/x");
        assert_eq!(map("HTTPS://Faß.ExAmPlE/"), "HTTPS://xn--fa-hia.example/");
        assert_eq!(map("urn:x:ü"), "urn:x:%C3%BC");
        assert_eq!(map("foo://müller.de/"), "foo://m%C3%BCller.de/");
        assert_eq!(
            map("mailto:jörg@müller.de,x@y.org?subject=ä"),
            "mailto:j%C3%B6rg@xn--mller-kva.de,x@y.org?subject=%C3%A4"
        );
        assert_eq!(map("http://ü:ö@x.org/"), "http://%C3%BC:%C3%B6@x.org/");
        // IDNA refuses a label that starts with a combining mark: the
        // general rule then applies.
        assert_eq!(map("http://\u{301}a.org/"), "http://%CC%81a.org/");
        // And a label that would hold ASCII but letters, digits and `-`:
        // an address glued to the text after it, a reg-name's sub-delims.
        assert_eq!(
            map("mailto:用户@例子.广告議題:予算"),
            "mailto:%E7%94%A8%E6%88%B7@%E4%BE%8B%E5%AD%90.%E5%B9%BF%E5%91%8A\
             %E8%AD%B0%E9%A1%8C:%E4%BA%88%E7%AE%97"
        );
        assert_eq!(
            map("http://例え(x).jp/"),
            "http://%E4%BE%8B%E3%81%88(x).jp/"
        );
        assert_eq!(map("http://a_例.jp/"), "http://a_%E4%BE%8B.jp/");
        // The whole domain, its ASCII labels as they are.
        assert_eq!(
            map("http://例子.under_score.com/"),
            "http://%E4%BE%8B%E5%AD%90.under_score.com/"
        );
        assert!(matches!(
            IriRef::parse("http://x/").unwrap().to_uri(),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn every_mapped_uri_parses_as_a_uri() {
        for s in [
            "http://例え.jp/パス。",
            "http://a.example/AZazÀÖØöø˿ͰͽͿ\u{1FFF}\u{200C}\u{200D}⁰\u{218F}Ⰰ\u{2FEF}、\u{D7FF}﨎﷏ﷰ\u{FFEF}𐀀\u{EFFFD}",
            "ftp://ü:ü@ü.ü:21/ü?ü#ü",
            "mailto:ü@ü@ü",
        ] {
            let uri = IriRef::parse(s).unwrap().to_uri();
            assert!(UriRef::parse(&uri).is_ok(), "{s} -> {uri}");
        }
    }

    #[test]
    fn to_iri_decodes_words_only() {
        let show = |s: &str| UriRef::parse(s).unwrap().to_iri().into_owned();
        assert_eq!(
            show("https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC"),
            "https://ja.wikipedia.org/wiki/東京"
        );
        // A space, an ideographic full stop, a bidi control, half a
        // character and an ASCII escape stay encoded.
        assert_eq!(
            show("http://x/%C2%A0%E3%80%82%E2%80%8F%E6%9D%2F"),
            "http://x/%C2%A0%E3%80%82%E2%80%8F%E6%9D%2F"
        );
        assert_eq!(show("http://xn--r8jz45g.jp/"), "http://例え.jp/");
        assert_eq!(show("foo://xn--r8jz45g.jp/"), "foo://xn--r8jz45g.jp/");
        for s in ["http://example.org/a%20b", "http://x/%zz"] {
            if let Ok(u) = UriRef::parse(s) {
                assert!(matches!(u.to_iri(), Cow::Borrowed(_)), "{s}");
            }
        }
    }

    #[test]
    fn uri_to_iri_to_uri_round_trips() {
        for s in [
            "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC",
            "http://xn--mller-kva.de/%C3%BCber",
            "http://x/%C2%A0a",
        ] {
            let uri = UriRef::parse(s).unwrap();
            let iri = uri.to_iri();
            assert_eq!(IriRef::parse(&iri).unwrap().to_uri(), s, "{iri}");
        }
    }
}
