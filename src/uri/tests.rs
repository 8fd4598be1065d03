//! Unit tests of the parser: one table per concern, RFC examples included.

use super::*;

/// `t!(input, scheme, authority, path, query, fragment)`: a valid reference
/// and its components (`None` = absent).
macro_rules! t {
    ($input:expr, $scheme:expr, $auth:expr, $path:expr, $query:expr, $frag:expr) => {{
        let u = UriRef::parse($input).unwrap_or_else(|e| panic!("{:?}: {e}", $input));
        assert_eq!(
            (u.scheme(), u.authority(), u.path(), u.query(), u.fragment()),
            ($scheme, $auth, $path, $query, $frag),
            "{:?}",
            $input
        );
    }};
}

/// `bad!(input, index, kind)`: an invalid reference and its error.
macro_rules! bad {
    ($input:expr, $index:expr, $kind:ident) => {{
        let e = UriRef::parse($input).expect_err($input);
        assert_eq!(
            (e.index(), e.kind()),
            ($index, ParseErrorKind::$kind),
            "{:?}: {e}",
            $input
        );
    }};
}

#[test]
fn rfc_1_1_2_examples() {
    t!(
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        Some("ftp"),
        Some("ftp.is.co.za"),
        "/rfc/rfc1808.txt",
        None,
        None
    );
    t!(
        "http://www.ietf.org/rfc/rfc2396.txt",
        Some("http"),
        Some("www.ietf.org"),
        "/rfc/rfc2396.txt",
        None,
        None
    );
    t!(
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        Some("ldap"),
        Some("[2001:db8::7]"),
        "/c=GB",
        Some("objectClass?one"),
        None
    );
    t!(
        "mailto:John.Doe@example.com",
        Some("mailto"),
        None,
        "John.Doe@example.com",
        None,
        None
    );
    t!(
        "news:comp.infosystems.www.servers.unix",
        Some("news"),
        None,
        "comp.infosystems.www.servers.unix",
        None,
        None
    );
    t!(
        "tel:+1-816-555-1212",
        Some("tel"),
        None,
        "+1-816-555-1212",
        None,
        None
    );
    t!(
        "telnet://192.0.2.16:80/",
        Some("telnet"),
        Some("192.0.2.16:80"),
        "/",
        None,
        None
    );
    t!(
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        Some("urn"),
        None,
        "oasis:names:specification:docbook:dtd:xml:4.1.2",
        None,
        None
    );
}

#[test]
fn rfc_3_example_and_absent_versus_empty() {
    t!(
        "foo://example.com:8042/over/there?name=ferret#nose",
        Some("foo"),
        Some("example.com:8042"),
        "/over/there",
        Some("name=ferret"),
        Some("nose")
    );
    t!(
        "urn:example:animal:ferret:nose",
        Some("urn"),
        None,
        "example:animal:ferret:nose",
        None,
        None
    );
    t!("s:", Some("s"), None, "", None, None);
    t!("s:?", Some("s"), None, "", Some(""), None);
    t!("s:#", Some("s"), None, "", None, Some(""));
    t!("s:?#", Some("s"), None, "", Some(""), Some(""));
    t!("", None, None, "", None, None);
    t!("//", None, Some(""), "", None, None);
    t!(
        "file:///etc/hosts",
        Some("file"),
        Some(""),
        "/etc/hosts",
        None,
        None
    );
    t!("?q#f", None, None, "", Some("q"), Some("f"));
    t!("a/b:c", None, None, "a/b:c", None, None);
    t!("/a:b", None, None, "/a:b", None, None);
    t!("./a:b", None, None, "./a:b", None, None);
    t!(
        "x:?a?b/c#d?/",
        Some("x"),
        None,
        "",
        Some("a?b/c"),
        Some("d?/")
    );
    t!("g+s.-1://h", Some("g+s.-1"), Some("h"), "", None, None);
}

#[test]
fn authority_parts_and_host_kinds() {
    let u = UriRef::parse("http://u:p@[v1.fe]:/x").unwrap();
    assert_eq!(u.userinfo(), Some("u:p"));
    assert_eq!(u.host(), Some("[v1.fe]"));
    assert_eq!(u.host_kind(), Some(HostKind::IpvFuture));
    assert_eq!(u.port(), Some(""));
    assert_eq!(u.port_number(), None);
    let u = UriRef::parse("http://@h:99999").unwrap();
    assert_eq!(
        (u.userinfo(), u.host(), u.port()),
        (Some(""), Some("h"), Some("99999"))
    );
    assert_eq!(u.port_number(), None);
    let kinds = [
        ("http://1.2.3.4/", HostKind::Ipv4),
        ("http://256.256.256.256/", HostKind::RegName),
        ("http://01.2.3.4/", HostKind::RegName),
        ("http://[::ffff:1.2.3.4]/", HostKind::Ipv6),
        ("http://ex%41mple.com/", HostKind::RegName),
        ("file:///", HostKind::RegName),
    ];
    for (input, kind) in kinds {
        assert_eq!(
            UriRef::parse(input).unwrap().host_kind(),
            Some(kind),
            "{input}"
        );
    }
    assert_eq!(UriRef::parse("mailto:a@b").unwrap().host(), None);
    assert!(UriRef::parse("s:x").unwrap().is_absolute());
    assert!(UriRef::parse("x").unwrap().is_relative());
}

#[test]
fn errors_say_what_and_where() {
    bad!("http://exa mple.com/", 10, Host);
    bad!("http://example.com:8a/", 20, Port);
    bad!("http://[::1/x", 7, UnclosedIpLiteral);
    bad!("http://[1::2::3]/", 8, Ipv6);
    bad!("http://[1:2:3:4:5:6:7:8:9]/", 8, Ipv6);
    bad!("http://[12345::]/", 8, Ipv6);
    bad!("http://[::256.0.0.1]/", 8, Ipv6);
    bad!("http://[fe80::1%25en0]/", 8, Ipv6);
    bad!("http://[v.x]/", 8, IpvFuture);
    bad!("http://[v1.]/", 8, IpvFuture);
    bad!("http://[::1]x/", 12, Host);
    bad!("http://a]/", 8, Host);
    bad!("http://a[b/", 8, Host);
    bad!("http://a/b[c", 10, Path);
    bad!("http://u@v@h/", 10, Host);
    bad!("http://u[@h/", 8, Userinfo);
    bad!("a%zz", 1, PercentEncoding);
    bad!("a%4", 1, PercentEncoding);
    bad!("a%", 1, PercentEncoding);
    bad!("a:b#c#d", 5, Fragment);
    bad!("1a:b", 2, ColonInFirstSegment);
    bad!(":x", 0, ColonInFirstSegment);
    bad!("a b", 1, Path);
    bad!("s:?a b", 4, Query);
    for (i, c) in "\"<>\\^`{|}\x00\x1f\x7f é".char_indices() {
        let input = format!("http://h/{c}");
        let e = UriRef::parse(&input).expect_err(&input);
        assert_eq!(
            (e.index(), e.kind()),
            (9, ParseErrorKind::Path),
            "{i} {input:?}"
        );
    }
}

#[test]
fn bytes_entry_point_never_panics_on_invalid_utf8() {
    let e = UriRef::parse_bytes(b"http://h/\xff\xfe").unwrap_err();
    assert_eq!((e.index(), e.kind()), (9, ParseErrorKind::Path));
    assert!(UriRef::parse_bytes(b"\xc3").is_err());
    assert_eq!(UriRef::parse_bytes(b"s:x").unwrap().as_str(), "s:x");
}

/// Section 5.4.1 and 5.4.2, all of them.
#[test]
fn rfc_5_4_resolution_examples() {
    let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
    let cases = [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        // 5.4.2 abnormal
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ];
    for (r, want) in cases {
        let got = base.resolve(&UriRef::parse(r).unwrap()).unwrap();
        assert_eq!(got, want, "{r:?}");
    }
}

#[test]
fn resolution_edge_cases() {
    let resolve = |b: &str, r: &str| {
        UriRef::parse(b)
            .unwrap()
            .resolve(&UriRef::parse(r).unwrap())
    };
    assert_eq!(resolve("f:/a", ".//g").unwrap(), "f:/.//g");
    assert_eq!(resolve("http://a", "g").unwrap(), "http://a/g");
    assert_eq!(resolve("http://a/b#frag", "").unwrap(), "http://a/b");
    assert_eq!(resolve("foo:a/b", "../c").unwrap(), "foo:/c");
    assert_eq!(resolve("a/b", "c"), Err(ResolveError::RelativeBase));
}

#[test]
fn iris_resolve_with_their_characters_kept() {
    let resolve = |b: &str, r: &str| {
        IriRef::parse(b)
            .unwrap()
            .resolve(&IriRef::parse(r).unwrap())
    };
    let base = "https://例え.jp/文書/索引.html?q=東京#章";
    for (r, want) in [
        ("ページ.html", "https://例え.jp/文書/ページ.html"),
        ("../画像/図.png", "https://例え.jp/画像/図.png"),
        ("?q=大阪", "https://例え.jp/文書/索引.html?q=大阪"),
        ("", "https://例え.jp/文書/索引.html?q=東京"),
        ("#節", "https://例え.jp/文書/索引.html?q=東京#節"),
        ("//ü.de/ä", "https://ü.de/ä"),
        ("mailto:üser@例え.jp", "mailto:üser@例え.jp"),
        ("%E3%83%9A", "https://例え.jp/文書/%E3%83%9A"),
    ] {
        assert_eq!(resolve(base, r).unwrap(), want, "{r:?}");
    }
    assert_eq!(resolve("文書/", "a"), Err(ResolveError::RelativeBase));
}

#[test]
fn remove_dot_segments_traces_of_5_2_4() {
    for (input, want) in [
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("/..", "/"),
        ("..", ""),
        ("a/..", "/"),
    ] {
        let mut out = String::new();
        resolve::remove_dot_segments(input, &mut out);
        assert_eq!(out, want, "{input}");
    }
}

/// Section 6.2.2 and 6.2.3 examples, and the limits of normalization.
#[test]
fn normalization() {
    let cases = [
        ("HTTP://www.EXAMPLE.com/", "http://www.example.com/"),
        ("example://a/b/c/%7Bfoo%7D", "example://a/b/c/%7Bfoo%7D"),
        (
            "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
            "example://a/b/c/%7Bfoo%7D",
        ),
        ("http://example.com", "http://example.com/"),
        ("http://example.com:/", "http://example.com/"),
        ("http://example.com:80/", "http://example.com/"),
        ("https://example.com:443", "https://example.com/"),
        ("ftp://h:21/x", "ftp://h/x"),
        ("http://h:8080", "http://h:8080/"),
        ("foo://h:/", "foo://h:/"),
        ("foo://h", "foo://h"),
        ("mailto:Joe@Example.COM", "mailto:Joe@Example.COM"),
        (
            "http://%7Eu%3a@H%c3%A9/%7e?%7e#%7e",
            "http://~u%3A@h%C3%A9/~?~#~",
        ),
        ("http://[FE80::A]/", "http://[fe80::a]/"),
        ("../a/./b", "../a/./b"),
        ("/a/../b", "/b"),
        ("f:/a/..//g", "f:/.//g"),
    ];
    for (input, want) in cases {
        let n = UriRef::parse(input).unwrap().normalize();
        assert_eq!(n, want, "{input}");
        assert_eq!(
            UriRef::parse(&n).unwrap().normalize(),
            n,
            "idempotent: {input}"
        );
    }
    let eq = |a: &str, b: &str| {
        UriRef::parse(a)
            .unwrap()
            .is_equivalent(&UriRef::parse(b).unwrap())
    };
    assert!(eq(
        "http://example.com/%7Esmith/",
        "http://EXAMPLE.com:80/~smith/"
    ));
    assert!(!eq("http://example.com/a", "http://example.com/A"));
    assert!(!eq("http://example.com/%2F", "http://example.com//"));
}
