//! The properties the fuzz targets check, shared with `tests/hostile.rs`
//! (which replays `fuzz/regressions/` and runs a proptest campaign through
//! the same functions), so a crasher found here stays a regression test.
//!
//! Each `check_*` function panics, with a message naming the input, when a
//! property fails; it returns normally otherwise.

use std::io;

use uriscan::{
    Delimiter, Found, HostKind, HyphenMode, IriMode, IriRef, ParseError, Scanner, Sink, Span,
    UriRef,
};

const BASE: &str = "http://a/b/c/d;p?q";
const REFS: &[&str] = &[
    "",
    "g",
    "../g",
    "../../../g",
    "//h",
    "?y",
    "#s",
    "/./g",
    ".",
    "..",
];

/// The parser never panics, and what it accepts is consistent:
///
/// - the components reassemble to the input byte for byte (and the authority
///   to userinfo, host and port);
/// - `parse` and `parse_bytes` agree; an error index lies within the input;
/// - the host kind matches the host's shape, `port_number` matches `port`;
/// - `normalize` gives a reference that parses, is a fixed point and is
///   equivalent to the input;
/// - resolving the input against a base (and refs against the input, when it
///   is absolute) gives a URI that parses.
pub fn check_parse(data: &[u8]) {
    let parsed = UriRef::parse_bytes(data);
    if let Ok(s) = std::str::from_utf8(data) {
        assert_eq!(UriRef::parse(s), parsed, "parse and parse_bytes disagree");
    }
    let uri = match parsed {
        Ok(uri) => uri,
        Err(e) => {
            assert!(
                e.index() <= data.len(),
                "error index {} past {}",
                e.index(),
                data.len()
            );
            let msg = e.to_string();
            assert!(!msg.is_empty() && !msg.starts_with(char::is_uppercase));
            return;
        }
    };
    check_accepted(data, &uri);

    let norm = uri.normalize();
    let n = UriRef::parse(&norm).unwrap_or_else(|e| panic!("normalize gave {norm:?}: {e}"));
    assert_eq!(n.normalize(), norm, "normalize is not idempotent");
    assert!(
        uri.is_equivalent(&n),
        "not equivalent to its normal form {norm:?}"
    );
    assert_eq!(n.is_absolute(), uri.is_absolute());

    let base = UriRef::parse(BASE).unwrap();
    let target = base.resolve(&uri).expect("base is absolute");
    UriRef::parse(&target).unwrap_or_else(|e| panic!("resolve gave {target:?}: {e}"));
    if uri.is_absolute() {
        for r in REFS {
            let r = UriRef::parse(r).unwrap();
            let target = uri.resolve(&r).expect("base is absolute");
            UriRef::parse(&target).unwrap_or_else(|e| panic!("resolve gave {target:?}: {e}"));
        }
    } else {
        assert!(
            uri.resolve(&base).is_err(),
            "a relative base must be refused"
        );
    }
}

fn check_accepted(data: &[u8], uri: &UriRef<'_>) {
    assert_eq!(uri.as_str().as_bytes(), data);
    assert_eq!(uri.to_string().as_bytes(), data);

    let mut whole = String::new();
    if let Some(s) = uri.scheme() {
        assert!(uriscan::is_scheme(s.as_bytes()));
        whole.push_str(s);
        whole.push(':');
    }
    assert_eq!(uri.is_absolute(), uri.scheme().is_some());
    assert_ne!(uri.is_absolute(), uri.is_relative());
    if let Some(a) = uri.authority() {
        whole.push_str("//");
        whole.push_str(a);
        let mut auth = String::new();
        if let Some(u) = uri.userinfo() {
            auth.push_str(u);
            auth.push('@');
        }
        let host = uri.host().expect("an authority has a host");
        auth.push_str(host);
        if let Some(p) = uri.port() {
            assert!(p.bytes().all(|b| b.is_ascii_digit()), "port {p:?}");
            assert_eq!(uri.port_number(), p.parse::<u16>().ok());
            auth.push(':');
            auth.push_str(p);
        } else {
            assert_eq!(uri.port_number(), None);
        }
        assert_eq!(auth, a, "authority does not reassemble");
        let kind = uri.host_kind().expect("an authority has a host kind");
        match kind {
            HostKind::Ipv6 | HostKind::IpvFuture => {
                assert!(host.starts_with('[') && host.ends_with(']'), "{host:?}")
            }
            HostKind::Ipv4 => {
                let octets: Vec<&str> = host.split('.').collect();
                assert_eq!(octets.len(), 4, "{host:?}");
                for o in octets {
                    assert!(
                        o.parse::<u8>().is_ok() && (o == "0" || !o.starts_with('0')),
                        "{host:?}"
                    );
                }
            }
            HostKind::RegName => assert!(!host.contains(['[', ']', ':', '@'])),
        }
    } else {
        assert!(uri.userinfo().is_none() && uri.host().is_none() && uri.port().is_none());
        assert!(uri.host_kind().is_none());
        assert!(
            !uri.path().starts_with("//"),
            "path {:?} without authority",
            uri.path()
        );
    }
    whole.push_str(uri.path());
    if let Some(q) = uri.query() {
        whole.push('?');
        whole.push_str(q);
    }
    if let Some(f) = uri.fragment() {
        assert!(!f.contains('#'));
        whole.push('#');
        whole.push_str(f);
    }
    assert_eq!(whole.as_bytes(), data, "components do not reassemble");
}

/// Differential: uriscan's parser and fluent-uri (also strict RFC 3986) agree
/// on the verdict for every input, and on every component when both accept.
///
/// fluent-uri takes `&str`; input that is not UTF-8 must be refused by
/// uriscan (a URI is ASCII).
pub fn check_parse_diff(data: &[u8]) {
    let ours = UriRef::parse_bytes(data);
    let Ok(s) = std::str::from_utf8(data) else {
        assert!(ours.is_err(), "accepted non-UTF-8 {data:?}");
        return;
    };
    let theirs = fluent_uri::UriRef::parse(s);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(
                a.scheme(),
                b.scheme().map(|s| s.as_str()),
                "scheme of {s:?}"
            );
            assert_eq!(
                a.authority(),
                b.authority().map(|a| a.as_str()),
                "authority of {s:?}"
            );
            if let Some(auth) = b.authority() {
                assert_eq!(
                    a.userinfo(),
                    auth.userinfo().map(|u| u.as_str()),
                    "userinfo of {s:?}"
                );
                assert_eq!(a.host(), Some(auth.host()), "host of {s:?}");
                assert_eq!(a.port(), auth.port().map(|p| p.as_str()), "port of {s:?}");
            }
            assert_eq!(a.path(), b.path().as_str(), "path of {s:?}");
            assert_eq!(a.query(), b.query().map(|q| q.as_str()), "query of {s:?}");
            assert_eq!(
                a.fragment(),
                b.fragment().map(|f| f.as_str()),
                "fragment of {s:?}"
            );
        }
        (Err(_), Err(_)) => {}
        _ => panic!(
            "verdicts differ on {s:?}: uriscan {:?}, fluent-uri {:?}",
            ours.map(|_| ()),
            theirs.map(|_| ())
        ),
    }
}

/// Everything the scanner reports about one find, owned, so that finds from
/// [`Scanner::find_iter`] and [`Scanner::scan_reader`] can be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// [`Found::as_str`].
    pub text: String,
    /// [`Found::iri`].
    pub iri: Option<String>,
    /// [`Found::span`].
    pub span: Span,
    /// [`Found::line`].
    pub line: u64,
    /// [`Found::column`].
    pub column: u64,
    /// [`Found::delimiter`].
    pub delimiter: Delimiter,
    /// [`Found::is_wrapped`].
    pub wrapped: bool,
    /// [`Found::has_url_prefix`].
    pub url_prefix: bool,
    /// [`Found::has_hyphen_break`].
    pub hyphen_break: bool,
    /// [`Found::error`].
    pub error: Option<ParseError>,
}

impl Record {
    /// Copies what `found` reports.
    pub fn of(found: &Found<'_>) -> Record {
        Record {
            text: found.as_str().to_owned(),
            iri: found.iri().map(str::to_owned),
            span: found.span(),
            line: found.line(),
            column: found.column(),
            delimiter: found.delimiter(),
            wrapped: found.is_wrapped(),
            url_prefix: found.has_url_prefix(),
            hyphen_break: found.has_hyphen_break(),
            error: found.error(),
        }
    }
}

/// An `io::Read` over a slice that returns reads of pseudo-random sizes in
/// `1..=max` (a xorshift sequence from `seed`), to move buffer boundaries.
#[derive(Debug)]
pub struct Chunked<'a> {
    data: &'a [u8],
    max: usize,
    state: u64,
}

impl<'a> Chunked<'a> {
    /// Reads `data` in chunks of at most `max` bytes (`max >= 1`).
    pub fn new(data: &'a [u8], max: usize, seed: u64) -> Chunked<'a> {
        Chunked {
            data,
            max: max.max(1),
            state: seed | 1,
        }
    }
}

impl io::Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let want = 1 + (self.state % self.max as u64) as usize;
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a [`Sink`] hears: a find, or a candidate given up on as too long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// [`Sink::found`].
    Found(Record),
    /// [`Sink::too_long`]: the candidate's first byte and its line.
    TooLong(usize, u64),
}

/// Collects every event, in order.
#[derive(Debug, Default)]
pub struct Events(pub Vec<Event>);

impl Sink for &mut Events {
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
        self.0.push(Event::Found(Record::of(found)));
        Ok(true)
    }

    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool> {
        self.0.push(Event::TooLong(start, line));
        Ok(true)
    }
}

/// Everything [`Scanner::scan_reader`] reports over `rdr`.
pub fn scan_stream<R: io::Read>(scanner: &Scanner, rdr: R) -> io::Result<Vec<Event>> {
    let mut events = Events::default();
    scanner.scan_reader(rdr, &mut events)?;
    Ok(events.0)
}

/// Everything [`Scanner::scan_slice`] reports over `haystack`.
pub fn scan_slice(scanner: &Scanner, haystack: &[u8]) -> Vec<Event> {
    let mut events = Events::default();
    scanner
        .scan_slice(haystack, &mut events)
        .expect("the sink never fails");
    events.0
}

/// Builds a scanner from the bits of `cfg`: bit 0 `any_scheme`, bit 1
/// `report_invalid`, bits 2-3 the hyphen mode, bit 4 the smallest
/// `max_candidate_len` (256, so that short inputs reach the limit), bits
/// 5-6 the IRI mode.
pub fn scanner_for(cfg: u8) -> Scanner {
    let hyphen = match (cfg >> 2) & 3 {
        1 => HyphenMode::Drop,
        2 => HyphenMode::Both,
        _ => HyphenMode::Keep,
    };
    let iri = match (cfg >> 5) & 3 {
        1 => IriMode::Keep,
        2 => IriMode::Off,
        _ => IriMode::Uri,
    };
    let mut builder = Scanner::builder();
    builder
        .any_scheme(cfg & 1 != 0)
        .report_invalid(cfg & 2 != 0)
        .hyphen(hyphen)
        .iri(iri);
    if cfg & 16 != 0 {
        builder.max_candidate_len(256);
    }
    builder.build()
}

/// Checks what one find claims about `haystack`:
///
/// - a valid find parses as an absolute URI (with `Found::iri`, the URI of
///   that IRI, or the IRI itself); an invalid one (only with
///   `report_invalid`) fails to parse;
/// - its span is a non-empty range inside the haystack; when nothing was
///   removed (no `wrapped`, `url_prefix` or `hyphen_break` flag) the span's
///   bytes are the URI; otherwise the URI is a subsequence of the span's bytes
///   with the same first and last byte (the scanner only ever removes bytes:
///   whitespace, quote prefixes, page breaks, a dropped hyphen);
/// - line and column (1-based, column in bytes) are those of the span's start.
pub fn check_found(haystack: &[u8], r: &Record) {
    match r.error {
        None => {
            let iri = IriRef::parse(&r.text)
                .unwrap_or_else(|e| panic!("reported {:?} does not parse: {e}", r.text));
            assert!(
                iri.is_absolute(),
                "reported relative reference {:?}",
                r.text
            );
            if let Some(written) = &r.iri {
                // A `#` inside the fragment is read as `%23`, and the
                // query's and fragment's `[` and `]` as `%5B` and `%5D`.
                let written = &match written.split_once('#') {
                    Some((before, fragment)) => {
                        format!("{before}#{}", fragment.replace('#', "%23"))
                    }
                    None => written.clone(),
                };
                let written = &match written.find(['?', '#']) {
                    Some(q) => format!(
                        "{}{}",
                        &written[..q],
                        written[q..].replace('[', "%5B").replace(']', "%5D")
                    ),
                    None => written.clone(),
                };
                let mapped = IriRef::parse(written).expect("an IRI as written").to_uri();
                assert!(
                    r.text == mapped || r.text == *written,
                    "{:?} is neither {written:?} nor its URI",
                    r.text
                );
            } else {
                assert!(r.text.is_ascii(), "{:?} is not a URI", r.text);
            }
        }
        Some(_) => assert!(
            UriRef::parse(&r.text).is_err(),
            "{:?} marked invalid",
            r.text
        ),
    }
    let Span { start, end } = r.span;
    assert!(
        start < end && end <= haystack.len(),
        "span {start}..{end} of {}",
        haystack.len()
    );
    let claimed = &haystack[start..end];
    let text = r.iri.as_deref().unwrap_or(&r.text).as_bytes();
    if !r.wrapped && !r.url_prefix && !r.hyphen_break {
        assert_eq!(claimed, text, "span {start}..{end} is not {:?}", r.text);
    } else {
        assert!(!text.is_empty(), "empty find at {start}..{end}");
        assert_eq!(
            claimed.first(),
            text.first(),
            "span {start}..{end} starts elsewhere"
        );
        assert_eq!(
            claimed.last(),
            text.last(),
            "span {start}..{end} ends elsewhere"
        );
        let mut rest = claimed.iter();
        for b in text {
            assert!(
                rest.any(|c| c == b),
                "{:?} is not within span {start}..{end}",
                r.text
            );
        }
    }
    let before = &haystack[..start];
    let line = 1 + memchr::memchr_iter(b'\n', before).count() as u64;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    assert_eq!(
        (r.line, r.column),
        (line, (start - line_start + 1) as u64),
        "{:?}",
        r.text
    );
}

/// The scanner never panics; every find passes [`check_found`]; valid finds
/// come in order of their start; `find_iter` gives the finds of
/// `scan_slice`; and scanning through `scan_reader` with reads of 1, 2, 3,
/// 7, 64 and random sizes reports exactly what `scan_slice` reports (finds
/// and over-long candidates).
///
/// `data[0]` picks the configuration ([`scanner_for`]), `data[1..9]` seeds
/// the read sizes, the rest is the haystack.
pub fn check_scan(data: &[u8]) {
    let Some((&cfg, rest)) = data.split_first() else {
        return;
    };
    let (seed, haystack) = rest.split_at(rest.len().min(8));
    let mut seed_bytes = [0u8; 8];
    seed_bytes[..seed.len()].copy_from_slice(seed);
    let seed = u64::from_le_bytes(seed_bytes);
    let scanner = scanner_for(cfg);

    let events = scan_slice(&scanner, haystack);
    let finds: Vec<Record> = events
        .iter()
        .filter_map(|e| match e {
            Event::Found(r) => Some(r.clone()),
            Event::TooLong(..) => None,
        })
        .collect();
    let iter: Vec<Record> = scanner
        .find_iter(haystack)
        .map(|f| Record::of(&f))
        .collect();
    assert_eq!(iter, finds, "find_iter and scan_slice differ");
    let mut last_start = 0;
    for r in &finds {
        check_found(haystack, r);
        if r.error.is_none() {
            assert!(r.span.start >= last_start, "{:?} out of order", r.text);
            last_start = r.span.start;
        }
    }
    let random = 1 + (seed >> 32) as usize % 4096;
    for max in [1, 2, 3, 7, 64, random] {
        let streamed = scan_stream(&scanner, Chunked::new(haystack, max, seed))
            .expect("reading a slice cannot fail");
        assert_eq!(streamed, events, "reads of up to {max} bytes (seed {seed})");
    }
}

/// Mail mode never panics and never fails on a slice, whatever the bytes
/// (malformed headers, bad encodings, broken MIME), and every URI it
/// reports parses as an absolute URI, placed in the input (its line is the
/// line of its span's first byte). The input gets an mbox `From ` line
/// in front when it has none, so that the fuzzer is always in mail mode.
pub fn check_mail(data: &[u8]) {
    let mut input = Vec::with_capacity(data.len() + 48);
    if !data.starts_with(b"From ") {
        input.extend_from_slice(b"From a@example.org Mon Jan  1 00:00:00 2024\n");
    }
    input.extend_from_slice(data);
    let scanner = Scanner::new();
    let sink = |f: &Found<'_>| {
        let uri = UriRef::parse(f.as_str())
            .unwrap_or_else(|e| panic!("mail reported {:?}: {e}", f.as_str()));
        assert!(uri.is_absolute(), "mail reported {:?}", f.as_str());
        let span = f.span();
        assert!(
            span.start <= span.end && span.end <= input.len(),
            "span {span:?} of {} bytes",
            input.len()
        );
        let line = 1 + memchr::memchr_iter(b'\n', &input[..span.start]).count() as u64;
        assert_eq!(f.line(), line, "line of {:?}", f.as_str());
        Ok(true)
    };
    uriscan::mail::scan_mail(&scanner, &input[..], sink).expect("reading a slice cannot fail");
}
