//! Conformance harness over the shared RFC 3986 test vectors
//! (`../shared/vectors/`, see its README).
//!
//! Every case must give the strict RFC 3986 answer, or be listed with its
//! reason in `fixtures/uri/expected_failures.txt` (one `section<TAB>key<TAB>
//! reason` per line), which the harness also keeps honest: a listed case
//! that passes is an error.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::ops::Not;
use std::path::Path;

use serde_json::Value;
use uriscan::{is_scheme, HostKind, IriRef, UriRef};

fn load(dir: &Path, file: &str, key: &str) -> Vec<Value> {
    let text = fs::read_to_string(dir.join(file)).expect(file);
    let v: Value = serde_json::from_str(&text).expect(file);
    v[key].as_array().expect(key).clone()
}

fn expected_failures(section: &str) -> BTreeSet<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/uri/expected_failures.txt"
    );
    fs::read_to_string(path)
        .expect("expected_failures.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let (s, key, reason) = (parts.next()?, parts.next()?, parts.next());
            assert!(
                reason.is_some_and(|r| !r.trim().is_empty()),
                "no reason: {l}"
            );
            (s == section).then(|| key.to_string())
        })
        .collect()
}

/// Checks `failures` (keys of failing cases) against the expected list.
fn compare(section: &str, total: usize, failures: Vec<(String, String)>) {
    let expected = expected_failures(section);
    let failing: BTreeSet<String> = failures.iter().map(|(k, _)| k.clone()).collect();
    let unexpected: Vec<_> = failures
        .iter()
        .filter(|(k, _)| !expected.contains(k))
        .collect();
    let fixed: Vec<_> = expected.difference(&failing).collect();
    for (key, why) in &unexpected {
        eprintln!("unexpected\t{section}\t{key}\t{why}");
    }
    eprintln!(
        "{section}: {total} cases, {} expected failures",
        expected.len()
    );
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{section}: {} unexpected failures (listed above), listed but passing: {fixed:#?}",
        unexpected.len()
    );
}

/// Wraps `input` so the whole-reference parser checks it against `rule`.
fn matches_rule(rule: &str, input: &str) -> bool {
    let parse = |s: String| UriRef::parse(&s).ok().map(|u| UriRefOwned::from(&u));
    match rule {
        "URI-reference" => UriRef::parse(input).is_ok(),
        "URI" => UriRef::parse(input).is_ok_and(|u| u.is_absolute()),
        "absolute-URI" => {
            UriRef::parse(input).is_ok_and(|u| u.is_absolute() && u.fragment().is_none())
        }
        "relative-ref" => UriRef::parse(input).is_ok_and(|u| u.is_relative()),
        "scheme" => is_scheme(input.as_bytes()),
        "IPv6address" | "IPvFuture" => parse(format!("s://[{input}]/")).is_some_and(|u| {
            let kind = if rule == "IPv6address" {
                HostKind::Ipv6
            } else {
                HostKind::IpvFuture
            };
            u.host.as_deref() == Some(&format!("[{input}]")) && u.host_kind == Some(kind)
        }),
        "IPv4address" => parse(format!("s://{input}/")).is_some_and(|u| {
            u.host.as_deref() == Some(input) && u.host_kind == Some(HostKind::Ipv4)
        }),
        "dec-octet" => {
            !input.contains('.') && matches_rule("IPv4address", &format!("{input}.0.0.0"))
        }
        "reg-name" => parse(format!("s://{input}/"))
            .is_some_and(|u| u.host.as_deref() == Some(input) && !input.starts_with('[')),
        "host" => parse(format!("s://{input}/")).is_some_and(|u| u.host.as_deref() == Some(input)),
        "authority" => {
            parse(format!("s://{input}/")).is_some_and(|u| u.authority.as_deref() == Some(input))
        }
        "userinfo" => {
            parse(format!("s://{input}@h/")).is_some_and(|u| u.userinfo.as_deref() == Some(input))
        }
        "port" => {
            parse(format!("s://h:{input}/")).is_some_and(|u| u.port.as_deref() == Some(input))
        }
        "query" => parse(format!("s:?{input}")).is_some_and(|u| u.query.as_deref() == Some(input)),
        "fragment" => {
            parse(format!("s:#{input}")).is_some_and(|u| u.fragment.as_deref() == Some(input))
        }
        other => panic!("unknown rule {other}"),
    }
}

/// The components of a parsed reference, owned, for comparisons.
struct UriRefOwned {
    authority: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    host_kind: Option<HostKind>,
    port: Option<String>,
    query: Option<String>,
    fragment: Option<String>,
}

impl From<&UriRef<'_>> for UriRefOwned {
    fn from(u: &UriRef<'_>) -> Self {
        let own = |s: Option<&str>| s.map(str::to_owned);
        UriRefOwned {
            authority: own(u.authority()),
            userinfo: own(u.userinfo()),
            host: own(u.host()),
            host_kind: u.host_kind(),
            port: own(u.port()),
            query: own(u.query()),
            fragment: own(u.fragment()),
        }
    }
}

#[test]
fn parse_vectors() {
    let Some(dir) = common::shared("vectors") else {
        return;
    };
    let cases = load(&dir, "combined_parse.json", "parse");
    let mut failures = Vec::new();
    let mut components_checked = 0;
    for case in &cases {
        let input = case["input"].as_str().unwrap();
        let rule = case["rule"].as_str().unwrap();
        let valid = case["valid"].as_bool().unwrap();
        let key = format!("{rule} {input:?}");
        if matches_rule(rule, input) != valid {
            failures.push((key, format!("want valid={valid}")));
            continue;
        }
        let (Some(c), "URI-reference", true) = (case.get("components"), rule, valid) else {
            continue;
        };
        let u = UriRef::parse(input).unwrap();
        let host_kind = u.host_kind().map(|k| k.as_str());
        let got = [
            ("scheme", u.scheme()),
            ("userinfo", u.userinfo()),
            ("host", u.host()),
            ("host_type", host_kind),
            ("port", u.port()),
            ("path", Some(u.path())),
            ("query", u.query()),
            ("fragment", u.fragment()),
        ];
        // Sources assert only some components: compare those.
        for (name, value) in got {
            let Some(want) = c.get(name) else { continue };
            components_checked += 1;
            if value != want.as_str() {
                failures.push((key.clone(), format!("{name} {value:?} != {want}")));
            }
        }
    }
    eprintln!("parse: checked components of {components_checked} references");
    compare("parse", cases.len(), failures);
}

/// The IRI parser against the IRI suites (oxiri, iri-string) on the
/// non-ASCII cases they hold, and as a superset of the URI parser on every
/// case: a valid URI-reference is a valid IRI-reference with the same
/// components, and its URI is itself.
#[test]
fn iri_parse_vectors() {
    let Some(dir) = common::shared("vectors") else {
        return;
    };
    let cases = load(&dir, "combined_parse.json", "parse");
    let (mut iri_cases, mut supersets) = (0, 0);
    for case in &cases {
        let input = case["input"].as_str().unwrap();
        let rule = case["rule"].as_str().unwrap();
        if let Ok(u) = UriRef::parse(input) {
            let i = IriRef::parse(input).expect(input);
            assert_eq!(
                (
                    u.scheme(),
                    u.authority(),
                    u.host_kind(),
                    u.path(),
                    u.query(),
                    u.fragment()
                ),
                (
                    i.scheme(),
                    i.authority(),
                    i.host_kind(),
                    i.path(),
                    i.query(),
                    i.fragment()
                ),
                "{input:?}"
            );
            assert_eq!(i.to_uri(), input);
            supersets += 1;
        }
        // oxiri's verdicts are on IRIs; iri-string's on its URI types, but
        // the collection notes the inputs its IRI types accept.
        let oxiri = case["source_verdicts"]["oxiri.json"].as_bool();
        let iri_string = case["flags"].as_array().is_some_and(|f| {
            f.iter().any(|f| {
                f.as_str()
                    .is_some_and(|f| f.contains("valid as IRI in source"))
            })
        });
        let iri_verdict = oxiri.or(iri_string.then_some(true));
        let (Some(want), true) = (iri_verdict, input.is_ascii().not()) else {
            continue;
        };
        let got = match rule {
            "URI" => IriRef::parse(input).is_ok_and(|i| i.is_absolute()),
            _ => IriRef::parse(input).is_ok(),
        };
        assert_eq!(got, want, "{rule} {input:?}");
        if let Ok(iri) = IriRef::parse(input) {
            let uri = iri.to_uri();
            assert!(UriRef::parse(&uri).is_ok(), "{input:?} -> {uri}");
        }
        iri_cases += 1;
    }
    eprintln!("iri: {iri_cases} IRI cases agree with their suites; {supersets} URIs are IRIs");
    assert!(iri_cases >= 30, "the IRI cases are in the vectors");
}

#[test]
fn resolve_vectors() {
    let Some(dir) = common::shared("vectors") else {
        return;
    };
    let cases = load(&dir, "combined_resolve.json", "resolve");
    let mut failures = Vec::new();
    for case in &cases {
        let (base, r) = (
            case["base"].as_str().unwrap(),
            case["ref"].as_str().unwrap(),
        );
        let key = format!("{base} + {r} strict={}", case["strict"]);
        let want = case["rfc3986_5_2_result"].as_str();
        let uris = (UriRef::parse(base), UriRef::parse(r));
        let got = match &uris {
            (Ok(b), Ok(r)) => b.resolve(r).ok(),
            _ => None,
        };
        // Every URI is an IRI, and IRIs resolve by the same algorithm
        // (RFC 3987 section 6.5): the same target, from every vector.
        if let (Ok(b), Ok(r)) = (IriRef::parse(base), IriRef::parse(r)) {
            let iri = b.resolve(&r).ok();
            if let (Ok(_), Ok(_)) = uris {
                assert_eq!(iri, got, "{key} as IRIs");
            }
            if let Some(iri) = iri {
                assert!(IriRef::parse(&iri).is_ok(), "resolved {iri:?} must parse");
            }
        }
        if got.as_deref() != want {
            failures.push((key, format!("got {got:?}, want {want:?}")));
        } else if let Some(got) = got {
            assert!(UriRef::parse(&got).is_ok(), "resolved {got:?} must parse");
        }
    }
    compare("resolve", cases.len(), failures);
}

#[test]
fn normalize_vectors() {
    let Some(dir) = common::shared("vectors") else {
        return;
    };
    let cases = load(&dir, "combined_normalize.json", "normalize");
    let mut failures = Vec::new();
    let (mut checked, mut no_answer) = (0, 0);
    for case in &cases {
        if !case["mask"].is_null() {
            continue; // a partial normalization (one component only), not 6.2.2
        }
        let input = case["input"].as_str().unwrap();
        let want = case["rfc3986_6_2_2_result_with_dot_removal"]
            .as_str()
            .or(case["rfc3986_6_2_2_result"].as_str());
        if want.is_none() {
            no_answer += 1;
            continue; // the vector has no strict RFC 3986 result to compare
        }
        let Ok(u) = UriRef::parse(input) else {
            failures.push((format!("{input:?}"), "does not parse".into()));
            continue;
        };
        checked += 1;
        let got = u.normalize();
        // Section 6.2.3 goes further than 6.2.2 for http-like schemes: the
        // results must then agree once both are scheme-normalized.
        let agrees = Some(got.as_str()) == want
            || want.and_then(|w| UriRef::parse(w).ok()).is_some_and(|w| {
                matches!(w.scheme(), Some("http" | "https" | "ws" | "wss" | "ftp"))
                    && w.normalize() == got
            });
        if !agrees {
            failures.push((format!("{input:?}"), format!("got {got:?}, want {want:?}")));
        }
    }
    eprintln!(
        "normalize: {checked} whole-reference cases checked, {no_answer} without an RFC result"
    );
    compare("normalize", cases.len(), failures);
}
