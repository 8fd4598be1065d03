//! Property tests of the parser and the scanner (proptest, fixed cases so
//! CI is repeatable; raise PROPTEST_CASES for a longer campaign).

mod common;

use proptest::prelude::*;
use uriscan::{Found, IriRef, Scanner, UriRef};

/// Strings made mostly of URI bytes, with a scheme-like start half the time.
fn uri_like() -> impl Strategy<Value = String> {
    let body = "[a-zA-Z0-9:/?#\\[\\]@!$&'()*+,;=%._~-]{0,40}";
    prop_oneof![
        body.prop_map(|s| s),
        ("(http|ftp|s|urn|mailto|a\\.b\\+c-d)", body).prop_map(|(s, b)| format!("{s}:{b}")),
        ("(http|https|foo)", body).prop_map(|(s, b)| format!("{s}://{b}")),
    ]
}

/// Text with URIs, brackets, quotes, whitespace, punctuation and non-ASCII.
fn text_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        uri_like().prop_map(String::into_bytes),
        Just(b" ".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\n> ".to_vec()),
        Just(b"<".to_vec()),
        Just(b">".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"URL:".to_vec()),
        Just(b"-\n  ".to_vec()),
        Just(b"\n\n\x0c\n".to_vec()),
        Just("\u{2010}\n".as_bytes().to_vec()),
        Just("日本".as_bytes().to_vec()),
        Just(b"\xff\x00".to_vec()),
        Just(b"http://x.org/a".to_vec()),
        Just(b"<http://y.org/b".to_vec()),
    ];
    prop::collection::vec(piece, 0..30).prop_map(|pieces| pieces.concat())
}

fn reassemble(u: &UriRef<'_>) -> String {
    let mut s = String::new();
    if let Some(scheme) = u.scheme() {
        s += scheme;
        s += ":";
    }
    if let Some(authority) = u.authority() {
        let mut a = String::new();
        if let Some(userinfo) = u.userinfo() {
            a += userinfo;
            a += "@";
        }
        a += u.host().unwrap();
        if let Some(port) = u.port() {
            a += ":";
            a += port;
        }
        assert_eq!(a, authority);
        s += "//";
        s += authority;
    }
    s += u.path();
    if let Some(q) = u.query() {
        s += "?";
        s += q;
    }
    if let Some(f) = u.fragment() {
        s += "#";
        s += f;
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parsed_components_reassemble_to_the_input(s in uri_like()) {
        if let Ok(u) = UriRef::parse(&s) {
            prop_assert_eq!(reassemble(&u), s);
        }
    }

    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(u) = UriRef::parse_bytes(&bytes) {
            prop_assert!(u.as_str().is_ascii());
        }
    }

    #[test]
    fn resolution_always_parses(base in uri_like(), r in uri_like()) {
        let (Ok(b), Ok(r)) = (UriRef::parse(&base), UriRef::parse(&r)) else { return Ok(()) };
        if let Ok(target) = b.resolve(&r) {
            prop_assert!(UriRef::parse(&target).is_ok(), "{} + {} = {}", base, r.as_str(), target);
        }
    }

    #[test]
    fn normalization_is_idempotent_and_equivalent(s in uri_like()) {
        if let Ok(u) = UriRef::parse(&s) {
            let n = u.normalize();
            let nu = UriRef::parse(&n).expect("a normalized URI parses");
            prop_assert_eq!(nu.normalize(), n.clone());
            prop_assert!(u.is_equivalent(&nu));
        }
    }

    #[test]
    fn scanner_stream_equals_slice_and_reports_only_valid_uris(
        text in text_like(),
        read_size in 1usize..80,
    ) {
        let scanner = Scanner::new();
        let slice: Vec<Found<'static>> = scanner.find_iter(&text).map(Found::into_owned).collect();
        prop_assert_eq!(&common::stream_scan(&scanner, &text, read_size), &slice);
        for f in &slice {
            prop_assert!(UriRef::parse(f.as_str()).is_ok(), "{:?}", f.as_str());
            let span = &text[f.span().range()];
            // What was written: the IRI, when the URI is its mapping.
            let written = f.iri().unwrap_or(f.as_str()).as_bytes();
            if let Some(iri) = f.iri() {
                // A `#` inside the fragment is read as `%23`, and the
                // query's and fragment's `[` and `]` as `%5B` and `%5D`.
                let iri = match iri.split_once('#') {
                    Some((before, fragment)) => format!("{before}#{}", fragment.replace('#', "%23")),
                    None => iri.to_string(),
                };
                let iri = match iri.find(['?', '#']) {
                    Some(q) => format!(
                        "{}{}",
                        &iri[..q],
                        iri[q..].replace('[', "%5B").replace(']', "%5D")
                    ),
                    None => iri,
                };
                prop_assert_eq!(IriRef::parse(&iri).unwrap().to_uri(), f.as_str());
            }
            if f.is_wrapped() {
                // The URI's bytes appear in order within its span.
                let mut rest = span.iter();
                prop_assert!(written.iter().all(|b| rest.any(|s| s == b)));
                prop_assert_eq!(span.first(), written.first());
            } else if !f.has_hyphen_break() {
                prop_assert_eq!(span, written);
            }
        }
    }

    #[test]
    fn scanner_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let scanner = Scanner::builder().report_invalid(true).any_scheme(true).build();
        let slice: Vec<Found<'static>> = scanner.find_iter(&bytes).map(Found::into_owned).collect();
        prop_assert_eq!(common::stream_scan(&scanner, &bytes, 3), slice);
    }
}
