//! Scanner rules, case by case, in marked-up text: `|` marks where each
//! found URI's span starts and ends in the input (the markers are removed
//! before scanning), and the list gives the URIs expected, in order.
//! Every case is also run every other way the library scans (`scan_slice`,
//! `scan_reader` with tiny reads, mail mode): see `common::scan_every_way`.

mod common;

use uriscan::{Delimiter, Found, HyphenMode, IriMode, Scanner};

/// Removes the `|` markers; returns the text and the marked spans.
fn unmark(marked: &str) -> (String, Vec<(usize, usize)>) {
    let mut text = String::new();
    let mut marks = Vec::new();
    for (i, part) in marked.split('|').enumerate() {
        if i > 0 {
            marks.push(text.len());
        }
        text.push_str(part);
    }
    assert!(marks.len() % 2 == 0, "odd number of markers in {marked:?}");
    (text, marks.chunks(2).map(|c| (c[0], c[1])).collect())
}

/// Everything a scan found, owned, for comparisons.
fn slice_scan(scanner: &Scanner, text: &[u8]) -> Vec<Found<'static>> {
    scanner.find_iter(text).map(Found::into_owned).collect()
}

/// Checks one case with `scanner`, and that streaming agrees.
fn check(scanner: &Scanner, marked: &str, want: &[&str]) -> Vec<Found<'static>> {
    let (text, spans) = unmark(marked);
    let found = slice_scan(scanner, text.as_bytes());
    let got: Vec<&str> = found.iter().map(|f| f.as_str()).collect();
    assert_eq!(got, want, "URIs of {marked:?}");
    let got_spans: Vec<(usize, usize)> = found
        .iter()
        .map(|f| (f.span().start, f.span().end))
        .collect();
    let mut want_spans = spans.clone();
    if want_spans.len() < got_spans.len() {
        // `HyphenMode::Both` reports two readings over one span.
        want_spans = got_spans.clone();
        assert!(spans.iter().all(|s| want_spans.contains(s)));
    }
    assert_eq!(got_spans, want_spans, "spans of {marked:?}");
    assert_eq!(
        common::scan_every_way(scanner, text.as_bytes()).found,
        found,
        "{marked:?}"
    );
    found
}

macro_rules! t {
    ($marked:expr, [$($uri:expr),* $(,)?]) => {
        check(&Scanner::new(), $marked, &[$($uri),*])
    };
}

#[test]
fn rule1_angle_brackets() {
    t!("see <|http://example.org/a.|>.", ["http://example.org/a."]);
    t!(
        "<|http://a.org/very/\n     long/path|>",
        ["http://a.org/very/long/path"]
    );
    t!("<|http://a.org/x/\r\n\tyz|> ok", ["http://a.org/x/yz"]);
    t!("<URL:|http://a.org/|>", ["http://a.org/"]);
    t!("<url: |http://a.org/|>", ["http://a.org/"]);
    t!("<URL:\n  |ftp://a.org/x|>", ["ftp://a.org/x"]);
    t!(
        "> see <|http://a.org/very/\n> long/path|>",
        ["http://a.org/very/long/path"]
    );
    t!(
        ">> see <|http://a.org/very/\n>> long/path|>",
        ["http://a.org/very/long/path"]
    );
    t!(
        "> > see <|http://a.org/very/\n> > long/path|>",
        ["http://a.org/very/long/path"]
    );
    t!(
        ">see <|http://a.org/very/\n>long/path|>",
        ["http://a.org/very/long/path"]
    );
    // A blank line ends the search: the `<` is not a bracket.
    t!("<|http://a.org/x/|\n\nnext paragraph>", ["http://a.org/x/"]);
    // Nor before the URI: a `<` a paragraph before brackets nothing (it
    // took in the `).` the bare rules leave out).
    t!("see <\n\n|http://a.org/y|).>", ["http://a.org/y"]);
    t!("see <URL:\n \n|http://a.org/y|).>", ["http://a.org/y"]);
    t!("see <\r\n\r\n|http://a.org/y|).>", ["http://a.org/y"]);
    // Not a URI inside: the text is still read by the other rules.
    t!("<a href=\"|http://x.org/|\">", ["http://x.org/"]);
    t!("<|http://x.org/| for details>", ["http://x.org/"]);
    t!("<user@example.com> <1234.5678@mail.example.net>", []);
    t!("<|mailto:user@example.com|>", ["mailto:user@example.com"]);
    t!("<|http://a.org/|>", ["http://a.org/"]);
    t!("<\n |http://a.org/x|\n>", ["http://a.org/x"]);
}

#[test]
fn rule1_page_break_inside_brackets() {
    let marked = "see <|http://www.example.com/some/\n\n\n\nDoe                      Informational                     [Page 7]\n\x0c\nRFC 9999                  Some Title                    May 2020\n\n\n   path/file.txt|>.";
    let found = t!(marked, ["http://www.example.com/some/path/file.txt"]);
    assert!(found[0].is_wrapped());
}

#[test]
fn rule2_hyphen() {
    let found = t!(
        "<|http://a.org/some-\n   thing|>",
        ["http://a.org/some-thing"]
    );
    assert!(found[0].has_hyphen_break() && found[0].is_wrapped());
    let drop = Scanner::builder().hyphen(HyphenMode::Drop).build();
    check(
        &drop,
        "<|http://a.org/some-\n   thing|>",
        &["http://a.org/something"],
    );
    let both = Scanner::builder().hyphen(HyphenMode::Both).build();
    check(
        &both,
        "<|http://a.org/some-\n   thing|>",
        &["http://a.org/some-thing", "http://a.org/something"],
    );
    let found = t!(
        "<|http://a.org/type\u{2010}\nsetting|>",
        ["http://a.org/typesetting"]
    );
    assert!(!found[0].has_hyphen_break());
    t!(
        "<|http://a.org/soft\u{ad}\n  hyphen|>",
        ["http://a.org/softhyphen"]
    );
    // A hyphen inside a line is just a hyphen.
    let found = t!("<|http://a.org/a-b|>", ["http://a.org/a-b"]);
    assert!(!found[0].has_hyphen_break() && !found[0].is_wrapped());
}

/// The hyphen rule holds for a double-quoted URI too: uri(7)'s own
/// example, which the formatter broke after `kernel-` (issue 12, item 8).
#[test]
fn rule2_hyphen_inside_double_quotes() {
    let text = "( 例: \"|http://www.kernel-\nnotes.org|\") か";
    let found = t!(text, ["http://www.kernel-notes.org"]);
    assert!(found[0].has_hyphen_break() && found[0].is_wrapped());
    assert_eq!(found[0].delimiter(), Delimiter::Quote);
    let drop = Scanner::builder().hyphen(HyphenMode::Drop).build();
    check(&drop, text, &["http://www.kernelnotes.org"]);
    let both = Scanner::builder().hyphen(HyphenMode::Both).build();
    check(
        &both,
        text,
        &["http://www.kernel-notes.org", "http://www.kernelnotes.org"],
    );
    t!(
        "\"|http://a.org/x-\r\n   y-\n\tz|\"",
        ["http://a.org/x-y-z"]
    );
    // No closing quote on the next line: the first line is read bare.
    t!("\"|http://a.org/x-|\nnot a uri\"", ["http://a.org/x-"]);
    // In a mail reply, past the next line's quote prefix of the same
    // depth, as for a bare URI (and read as quoted); a line of another
    // depth is not joined.
    let found = t!(
        "> > see \"|http://www.rfc-\n> >  editor.org/rfc.html|\" ok",
        ["http://www.rfc-editor.org/rfc.html"]
    );
    assert_eq!(found[0].delimiter(), Delimiter::Quote);
    t!(
        "> \"|http://a.org/long-\n> name|\"",
        ["http://a.org/long-name"]
    );
    t!("> \"|http://a.org/p-|\n>> q/r.html\"", ["http://a.org/p-"]);
}

/// And for a bare URI whose next line's first word reads as its rest
/// (issue 12, item 8): uri(7)'s `HackerWrit-` / `ingStyle.html`. A word
/// of prose, or a URI of its own, is not joined.
#[test]
fn rule2_hyphen_at_the_end_of_a_bare_uri() {
    let text = "Style, |http://www.fwi.uva.nl/~mes/jargon/h/HackerWrit-\ningStyle.html|, for";
    let found = t!(
        text,
        ["http://www.fwi.uva.nl/~mes/jargon/h/HackerWrit-ingStyle.html"]
    );
    assert!(found[0].has_hyphen_break() && found[0].is_wrapped());
    let drop = Scanner::builder().hyphen(HyphenMode::Drop).build();
    check(
        &drop,
        text,
        &["http://www.fwi.uva.nl/~mes/jargon/h/HackerWritingStyle.html"],
    );
    t!(
        "|http://a.org/q-\r\n  r/s.html|.",
        ["http://a.org/q-r/s.html"]
    );
    t!(
        "see |http://a.org/well-|\nknown things",
        ["http://a.org/well-"]
    );
    t!(
        "|http://a.org/p-|\n|http://b.org/|",
        ["http://a.org/p-", "http://b.org/"]
    );
    t!("|http://a.org/x-\nnotes.org|", ["http://a.org/x-notes.org"]);
    // A next line that reaches the candidate limit is not joined: the
    // first line comes alone, not a URI cut at the limit.
    let short = Scanner::builder().max_candidate_len(256).build();
    let long_rest = "b1.".repeat(150);
    check(
        &short,
        &format!("see |http://a.org/aaaa-|\n{long_rest} more"),
        &["http://a.org/aaaa-"],
    );
    // In a mail reply, past the next line's quote prefix of the same
    // depth; a line of another depth is another message's.
    t!(
        ">  link (|http://linux-\n>  uvc.berlios.de/|).\n> > |http://a.org/y-\n> > z/w.html|",
        ["http://linux-uvc.berlios.de/", "http://a.org/y-z/w.html"]
    );
    t!("> |http://a.org/p-|\n>> q/r.html", ["http://a.org/p-"]);
}

#[test]
fn rule3_double_quotes() {
    let found = t!("href=\"|http://x.org/a.|\"", ["http://x.org/a."]);
    assert_eq!(found[0].delimiter(), Delimiter::Quote);
    t!("\"see |http://x.org/a|. now\"", ["http://x.org/a"]);
    t!("\"|http://x.org/a|\".", ["http://x.org/a"]);
}

#[test]
fn rule4_bare_uris_and_punctuation() {
    let found = t!("Go to |http://x.org/a|.", ["http://x.org/a"]);
    assert_eq!(found[0].delimiter(), Delimiter::None);
    t!("(|http://x.org/a|).", ["http://x.org/a"]);
    t!("[text](|http://x.org/a|)", ["http://x.org/a"]);
    t!("'|http://x.org/|'", ["http://x.org/"]);
    t!(
        "|https://en.wikipedia.org/wiki/Rust_(programming_language)|",
        ["https://en.wikipedia.org/wiki/Rust_(programming_language)"]
    );
    t!("wow |http://x.org/a|... really?", ["http://x.org/a"]);
    t!(
        "one: |http://a.org/|, two: |ftp://b.org/x|; three!",
        ["http://a.org/", "ftp://b.org/x"]
    );
    t!("can...|http://bit.ly/x|", ["http://bit.ly/x"]);
    t!("post.|https://x.org/|", ["https://x.org/"]);
    // A URI opened by `'` ends at its partner (`'` is a sub-delim, so the
    // run goes on past it).
    t!(
        "<x xmlns='|urn:ietf:params:xml:ns:xmpp-stanzas|'/> open('|http://x.org/a|','w') it's |http://y.org/it's|",
        ["urn:ietf:params:xml:ns:xmpp-stanzas", "http://x.org/a", "http://y.org/it's"]
    );
    // A template is no URI, nor is what stands before its `{`.
    t!(
        "http://example.com/search{?q,lang} `http://${host}:${port}/` \"https://docs.rs/x/{{version}}\" |http://x.org/a| {b}",
        ["http://x.org/a"]
    );
    // A rule line glued to the URI is not part of it; `__hash__` is.
    t!(
        "|http://www.example.com|______________________\n|https://d.org/#object.__hash__|",
        ["http://www.example.com", "https://d.org/#object.__hash__"]
    );
    // Letters glued to `http` or `https` in a scheme nobody uses: a lost
    // space, a doubled letter, a C string's `\n` (and the trail byte of a
    // Shift-JIS character read undecoded: see the CLI's tests).
    t!(
        "See|https://x.org/a| forum|http://y.org/| h|http://z.org/| \\n|https://n.org/|",
        [
            "https://x.org/a",
            "http://y.org/",
            "http://z.org/",
            "https://n.org/"
        ]
    );
    // Known schemes, and schemes with a separator, stay whole; so do
    // other schemes that end in a known one (`gsiftp`, GridFTP's).
    t!(
        "|shttp://s.org/| |git+https://g.org/r| |persistent-https://p.org/| |gsiftp://h.org/f|",
        [
            "shttp://s.org/",
            "git+https://g.org/r",
            "persistent-https://p.org/",
            "gsiftp://h.org/f"
        ]
    );
    // Letters glued after a URI belong to it (an IRI, see rule 7).
    t!(
        "日本語|http://example.jp/パスです|",
        ["http://example.jp/%E3%83%91%E3%82%B9%E3%81%A7%E3%81%99"]
    );
    t!("「|http://example.jp/a|」。", ["http://example.jp/a"]);
    t!(
        "全角\u{3000}|http://example.jp/a|\u{3000}です",
        ["http://example.jp/a"]
    );
    t!(
        "a |http://x.org/a|\tb |http://y.org/|\n",
        ["http://x.org/a", "http://y.org/"]
    );
}

#[test]
fn rule5_schemes() {
    t!(
        "|s3://bucket/key| |git+ssh://git@host/repo.git| |HTTPS://X.ORG/|",
        [
            "s3://bucket/key",
            "git+ssh://git@host/repo.git",
            "HTTPS://X.ORG/"
        ]
    );
    // A scheme of one letter is a Windows drive, unless any scheme is
    // asked for.
    t!("path.win32.normalize('C:////temp') D://Users/x", []);
    let any = Scanner::builder().any_scheme(true).build();
    check(
        &any,
        "path.win32.normalize('|C:////temp|') |D://Users/x|",
        &["C:////temp", "D://Users/x"],
    );
    t!(
        "mail |mailto:fred@example.com|, |urn:ietf:rfc:3986|, |tel:+1-816-555-1212|.",
        [
            "mailto:fred@example.com",
            "urn:ietf:rfc:3986",
            "tel:+1-816-555-1212"
        ]
    );
    // A local phone number is a URI with its `;phone-context=` only (RFC
    // 3966): without it, a signature's label, or the piece of a number
    // written with spaces.
    t!(
        "TEL:44-7031-946-936. tel:033-12 60 93 |tel:7042;phone-context=example.com|",
        ["tel:7042;phone-context=example.com"]
    );
    // A kernel log's process and id; the piece of a SIP URI before
    // pipermail's ` at `.
    t!(
        "ioctl32(skype:9593): sip:500 at ekiga.net |sip:alice@atlanta.com| |skype:echo123?call|",
        ["sip:alice@atlanta.com", "skype:echo123?call"]
    );
    // Git's object filters; a blob URL names the origin that made it.
    t!(
        "git clone --filter=blob:none x; --filter=blob:limit=1k |blob:https://example.org/550e8400-e29b-41d4|",
        ["blob:https://example.org/550e8400-e29b-41d4"]
    );
    t!(
        "|news:comp.infosystems.www.servers.unix| |data:text/plain,hi| |man:ls(1)|",
        [
            "news:comp.infosystems.www.servers.unix",
            "data:text/plain,hi",
            "man:ls(1)"
        ]
    );
    t!("Re: Note: 12:30 C:\\dir key:value v1.2.3:beta", []);
    t!("News: today. data: none. info: see below. tag: v1", []);
    t!("<user@example.com> and <1234@host>", []);
    t!("info:pending mailto:nobody message:hello session:abc", []);
    // Pieces of other things: IPv6 groups, XML namespaces, mail headers,
    // kernel log tags, a scheme with nothing after it.
    t!("2001:db8:aaa:bbb::1 jabber:client Content-Type:text/plain [drm:edid_is_valid] tv:// <http://>", []);
    // Glued text before a known scheme, but not a compound scheme.
    t!(
        "href=3D|http://x.org/a| and |git+ssh://h/r| and |svn+ssh://h/r|",
        ["http://x.org/a", "git+ssh://h/r", "svn+ssh://h/r"]
    );
    t!(
        "|info:lccn/2002022641| |tag:example.com,2005:x|",
        ["info:lccn/2002022641", "tag:example.com,2005:x"]
    );
    let any = Scanner::builder().any_scheme(true).build();
    check(&any, "|key:value| |Re:x|", &["key:value", "Re:x"]);
}

/// Found in issue 12: a URI as a log or config field's value, right after
/// its name and `:`, was not found; pieces of other things still are not.
#[test]
fn a_known_scheme_with_slashes_after_a_field_name_starts_a_uri() {
    t!(
        "referer:|https://example.com/a| Homepage:|https://x.org/c|",
        ["https://example.com/a", "https://x.org/c"]
    );
    t!(
        "src:|http://a.b/c| dst:|ftp://d.e/f| [ref]:|https://r.org/z|",
        ["http://a.b/c", "ftp://d.e/f", "https://r.org/z"]
    );
    t!(
        "2001:db8:aaa:bbb::1 jabber:server:dialback Re: 12:30 C:\\x",
        []
    );
}

/// A scheme glued to a digit ends a word (a USB id, a typo); after an
/// escape's digit it is text read undecoded (quoted-printable, `%20`).
#[test]
fn a_scheme_glued_to_a_digit_is_not_one_but_after_an_escape() {
    t!("1abc://foo 3ttp://a.com ID 04bb:0528 1http://x.org/", []);
    t!(
        "Chair:=09|http://a11y.org| =C2=A0|https://x.org/a| %20|http://y.org/|",
        ["http://a11y.org", "https://x.org/a", "http://y.org/"]
    );
    t!(
        "a.|http://x.org/| v2.|ftp://y.org/|",
        ["http://x.org/", "ftp://y.org/"]
    );
}

/// Found in the crates' sources and C headers: a known scheme after a
/// variable's sigil or inside an identifier is code, not a URI (Rust
/// macros' fragments, a C bit field); emphasis by `_` still opens one.
#[test]
fn a_scheme_in_code_is_not_one() {
    t!(
        "($dict:expr) => {}; ($cap:tt); __u32 bus_num:8; mem_lvl_num:4,",
        []
    );
    t!(
        "_|mailto:x@y.org|_ $ |http://x.org/| a_|http://y.org/| see _|mailto:z@y.org|_",
        [
            "mailto:x@y.org",
            "http://x.org/",
            "http://y.org/",
            "mailto:z@y.org"
        ]
    );
}

/// Found by a black-box run over logs and `/etc`: a service named like a
/// scheme and its port (`redis:6379`), an account line of `/etc/passwd`,
/// `group` or `shadow` whose user is named like one (`man`, `_apt`), and
/// a path in a list of them (`MANPATH`) are not URIs of the scheme. A
/// number is still one for `oid` and FaceTime (found by the code review),
/// and a `/` in prose is still `or`.
#[test]
fn ports_account_lines_and_path_lists_are_not_uris() {
    t!(
        "ERROR connecting to redis:6379: refused; mongodb:27017, smtp:25.\nREDIS: xmpp:5222",
        []
    );
    // Docker images' tags, a port and a database, a list of hosts: the
    // schemes whose specifications give them `//` need it.
    t!(
        "image: redis:7.2-alpine mongodb:6.0.5 redis:latest rtsp:554/live hosts=redis:6379/0,redis2:6380",
        []
    );
    t!(
        "man:x:6:12:man:/var/cache/man:/usr/sbin/nologin\n_apt:x:42:65534::/nonexistent:/bin/false\nman:*:20228:0:99999:7:::\nman:!:12\nman:$y$j9T$Xy1$Zz2:19000:0:99999:7:::\nman:!$6$ab$cd/e.01:20228::",
        []
    );
    t!(
        "MANPATH=/usr/share/man:/usr/local/man PYTHONPATH=/srv/file:/srv/lib $HOME/man:$MANPATH",
        []
    );
    t!(
        "|oid:2| |facetime:14085551234| |redis://h:6379| an extension/|about:config| |man:ls(1)| |file:/srv/x| |urn:isbn:123|",
        [
            "oid:2",
            "facetime:14085551234",
            "redis://h:6379",
            "about:config",
            "man:ls(1)",
            "file:/srv/x",
            "urn:isbn:123"
        ]
    );
    t!(
        "|redis://cache:6379/0| |mongodb://db.example/app| |rtsp://cam.example/live|",
        [
            "redis://cache:6379/0",
            "mongodb://db.example/app",
            "rtsp://cam.example/live"
        ]
    );
}

/// Placeholders and certificate lines that look like a known scheme
/// (issue 12, item 6) are not URIs of it; the real ones still are.
#[test]
fn placeholders_are_not_uris_of_a_known_scheme() {
    t!("at FILE:LINE_NUMBER, OID:PID, DNS:*.example.org", []);
    t!(
        "|file:///etc/hosts| |file:/tmp/x| |oid:1.3.6.1| |dns:example.org?type=A|",
        [
            "file:///etc/hosts",
            "file:/tmp/x",
            "oid:1.3.6.1",
            "dns:example.org?type=A"
        ]
    );
}

/// Found in issue 12: schemes whose specification gives them an authority
/// were reported without one, or with an empty host.
#[test]
fn schemes_with_an_authority_need_their_slashes_and_host() {
    t!(
        "svn:mergeinfo pop:2 http:443- ftp:x imap:y ICAP:2.0.182.1,Aquarius:18.0.790",
        []
    );
    t!("http://# https:///x http://:80/ wss://?q", []);
    // The `//` wrapped inside angle brackets (RFC 5060's references).
    t!("<|http:/\n   /www.iana.org/a|>", ["http://www.iana.org/a"]);
    let any = Scanner::builder().any_scheme(true).build();
    check(&any, "svn:mergeinfo http:443-", &[]);
    t!(
        "|ldap:///o=University%20of%20Michigan,c=US| |svn://host/repo| |http://h/#f|",
        [
            "ldap:///o=University%20of%20Michigan,c=US",
            "svn://host/repo",
            "http://h/#f"
        ]
    );
}

#[test]
fn rule6_invalid_candidates_are_not_reported() {
    t!("http://[::1/x http://example.com:8a/ http://x.org/%zz", []);
    let scanner = Scanner::builder().report_invalid(true).build();
    let found = check(
        &scanner,
        "|http://example.com:8a/| |http://x.org/%zz| |http://ok.org/|",
        &[
            "http://example.com:8a/",
            "http://x.org/%zz",
            "http://ok.org/",
        ],
    );
    assert_eq!(
        found[0].error().unwrap().to_string(),
        "invalid port at byte 20"
    );
    assert!(found[1].error().is_some() && found[2].error().is_none());
}

/// Found by a black-box run: a template (`{}` of a format string, RFC
/// 6570's `{id}`) was left out even by `--invalid`, which showed a `%s`
/// one. It is reported as the invalid candidate it is, braces and all,
/// and a URI inside it is still found.
#[test]
fn a_template_is_an_invalid_candidate() {
    t!(
        "\"https://crates.io/api/v1/crates/{}\" https://x.example/{id}/y.",
        []
    );
    let scanner = Scanner::builder().report_invalid(true).build();
    // One that reaches the candidate limit is too long to look at.
    let short = Scanner::builder()
        .report_invalid(true)
        .max_candidate_len(256)
        .build();
    check(&short, &format!("http://x/{{{}}}", "y".repeat(300)), &[]);
    let found = check(
        &scanner,
        "\"|https://crates.io/api/v1/crates/{}|\" |https://x.example/{id}/y|. {|http://b.example/|}",
        &[
            "https://crates.io/api/v1/crates/{}",
            "https://x.example/{id}/y",
            "http://b.example/",
        ],
    );
    assert_eq!(found[0].delimiter(), Delimiter::Quote);
    assert_eq!(
        found[1].error().unwrap().to_string(),
        "invalid character in path at byte 18"
    );
    assert!(found[2].error().is_none());
}

/// Found in issue 11: after a parse failure the scan resumed at the
/// failing scheme's `:` + 1 and re-parsed the run for each later scheme;
/// `--invalid` then reported the run once per scheme in it. It is one
/// candidate, reported once, and the URIs after the run are still found.
#[test]
fn a_glued_run_that_fails_is_one_candidate() {
    t!(
        "x http://a/http://b/http://c/[x]y |http://d/|",
        ["http://d/"]
    );
    let scanner = Scanner::builder().report_invalid(true).build();
    check(
        &scanner,
        "x |http://a/http://b/%zz| |http://d/%zz|",
        &["http://a/http://b/%zz", "http://d/%zz"],
    );
}

#[test]
fn rule7_relative_references_and_bare_hosts_are_not_reported() {
    t!(
        "see /a/b.html, ../x and www.example.com or ftp.example.org",
        []
    );
}

#[test]
fn lines_and_columns_count_bytes_from_one() {
    let found = t!(
        "first\r\nsécond |http://a.org/|\n\n  <|http://b.org/x\n y|>",
        ["http://a.org/", "http://b.org/xy"]
    );
    assert_eq!((found[0].line(), found[0].column()), (2, 9));
    assert_eq!((found[1].line(), found[1].column()), (4, 4));
}

/// Found in issue 11: the quote prefix of a wrapped line was compared
/// byte for byte with the first line's, so `> >` did not match `>>` and
/// the URI was cut at the line break.
#[test]
fn a_quote_prefix_matches_by_depth_not_by_bytes() {
    t!(">> <|http://a.org/b/\n> > c/d|>\n", ["http://a.org/b/c/d"]);
    t!(">> <|http://a.org/b/\n>>c/d|>\n", ["http://a.org/b/c/d"]);
    // Another depth is another message: the URI did not go on there, and
    // the first line reads as a bare URI.
    t!("> <|http://a.org/b/|\n>> c/d>\n", ["http://a.org/b/"]);
}

/// A closing bracket the URI did not open ends it, and nothing after it
/// belongs to it (issue 12): two URIs glued by `)(`, a Markdown badge, a
/// link after `]`. Balanced pairs stay, brackets and `'` alike.
#[test]
fn a_closing_bracket_it_did_not_open_ends_a_bare_uri() {
    t!(
        "(|http://one.org/|)(|http://two.org/|)",
        ["http://one.org/", "http://two.org/"]
    );
    t!("|http://example.org/|]()", ["http://example.org/"]);
    t!(
        "[![b](|https://a.org/b.svg|)](|https://c.org/|)",
        ["https://a.org/b.svg", "https://c.org/"]
    );
    t!(
        "(see |https://en.wikipedia.org/wiki/Rust_(lang)|), ok",
        ["https://en.wikipedia.org/wiki/Rust_(lang)"]
    );
    t!("|http://[::1]:8080/a|]", ["http://[::1]:8080/a"]);
    // Inside double quotes the quote ends the URI, brackets or not.
    t!("\"|http://x.org/a)|\"", ["http://x.org/a)"]);
}

#[test]
fn quotes_openers_and_emphasis_at_the_end_of_a_bare_uri() {
    t!(
        "|http://foo.com/blah_blah_'singlequoted'| and",
        ["http://foo.com/blah_blah_'singlequoted'"]
    );
    t!("'|http://x.org/a|'.", ["http://x.org/a"]);
    t!(
        "see |http://x.org/a|( or |http://y.org/|[",
        ["http://x.org/a", "http://y.org/"]
    );
    t!(
        "_|https://x.org/a|_ and *|https://x.org/b|*",
        ["https://x.org/a", "https://x.org/b"]
    );
    t!(
        "__|https://x.org/c|__ **|https://x.org/d|**",
        ["https://x.org/c", "https://x.org/d"]
    );
    t!("|https://x.org/snake_|", ["https://x.org/snake_"]);
}

/// Trimming counted the candidate again for every trailing byte: 60,000
/// `)` took 0.9 s. The answer is the same, in one pass.
#[test]
fn trailing_brackets_and_punctuation_are_trimmed_however_many() {
    let closing = ")".repeat(60_000);
    check(
        &Scanner::new(),
        &format!("|http://a/|{closing}"),
        &["http://a/"],
    );
    let mixed = ".)".repeat(3_000);
    check(
        &Scanner::new(),
        &format!("(see |http://a/b_(c)|{mixed})"),
        &["http://a/b_(c)"],
    );
}

/// RFC 3986 Appendix C, the example paragraph.
#[test]
fn appendix_c_example() {
    let text = "      Yes, Jim, I found it under \"|http://www.w3.org/Addressing/|\",\n      but you can probably pick it up from <|ftp://foo.example.\n      com/rfc/|>.  Note the warning in <|http://www.ics.uci.edu/pub/\n      ietf/uri/historical.html#WARNING|>.\n";
    t!(
        text,
        [
            "http://www.w3.org/Addressing/",
            "ftp://foo.example.com/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING"
        ]
    );
}

#[test]
fn binary_and_invalid_utf8_never_panic() {
    let junk: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    let _ = slice_scan(&Scanner::new(), &junk);
    t!("\u{0}\u{1}|http://a.org/|\u{0}", ["http://a.org/"]);
    let bytes = b"\xff\xfehttp://a.org/\xc3 <http://b.org/\xe2\x80>";
    let found: Vec<_> = Scanner::new()
        .find_iter(bytes)
        .map(|f| f.as_str().to_string())
        .collect();
    assert_eq!(found, ["http://a.org/", "http://b.org/"]);
}

/// Found in issue 11: a `<...>` wrapped over lines and longer than the
/// candidate limit gave its first line as a URI; and mail mode lost
/// over-long candidates silently (`scan_every_way` checks mail too).
#[test]
fn a_wrapped_angle_longer_than_the_limit_is_reported_too_long() {
    let scanner = Scanner::builder().max_candidate_len(256).build();
    let text = format!(
        "x <http://a.org/{}\n  {}> <http://b.org/>",
        "a".repeat(200),
        "b".repeat(200)
    );
    let reported = common::scan_every_way(&scanner, text.as_bytes());
    let found: Vec<&str> = reported.found.iter().map(|f| f.as_str()).collect();
    assert_eq!(found, ["http://b.org/"]);
    assert_eq!(reported.too_long, [3]);
}

#[test]
fn too_long_candidates_are_given_up_and_reported() {
    let scanner = Scanner::builder().max_candidate_len(300).build();
    // The over-long run is given up whole: nothing is reported from inside it.
    let long = format!(
        "x http://a.org/{}/http://c.org/ y http://b.org/",
        "a".repeat(400)
    );
    let mut too_long = Vec::new();
    let mut found = Vec::new();
    struct Collect<'a>(&'a mut Vec<String>, &'a mut Vec<usize>);
    impl uriscan::Sink for Collect<'_> {
        fn found(&mut self, f: &Found<'_>) -> std::io::Result<bool> {
            self.0.push(f.as_str().to_string());
            Ok(true)
        }
        fn too_long(&mut self, start: usize, _line: u64) -> std::io::Result<bool> {
            self.1.push(start);
            Ok(true)
        }
    }
    scanner
        .scan_reader_with_read_size(long.as_bytes(), Collect(&mut found, &mut too_long), 5)
        .unwrap();
    assert_eq!(found, ["http://b.org/"]);
    assert_eq!(too_long, [2]);
    let mut again = (Vec::new(), Vec::new());
    scanner
        .scan_slice(long.as_bytes(), Collect(&mut again.0, &mut again.1))
        .unwrap();
    assert_eq!((again.0, again.1), (found, too_long));
    let every_way = common::scan_every_way(&scanner, long.as_bytes());
    assert_eq!(every_way.too_long, [2]);
}

#[test]
fn scanner_is_built_once_and_shared() {
    fn shareable<T: Clone + Send + Sync + 'static>() {}
    shareable::<Scanner>();
    let scanner = Scanner::new();
    let handles: Vec<_> = (0..2)
        .map(|i| {
            let s = scanner.clone();
            std::thread::spawn(move || s.find_iter(format!("http://h{i}.org/").as_bytes()).count())
        })
        .collect();
    assert!(handles.into_iter().all(|h| h.join().unwrap() == 1));
}

/// Issue 12's table, every row: what a user sees on text as people write
/// it (log fields, IRIs, brackets, quotes, scheme shapes).
#[test]
fn text_as_people_write_it() {
    t!("referer:|https://example.com/a|", ["https://example.com/a"]);
    t!("Homepage:|https://x.org/c|", ["https://x.org/c"]);
    t!(
        "src:|http://a.b/c| dst:|ftp://d.e/f|",
        ["http://a.b/c", "ftp://d.e/f"]
    );
    t!("|http://müller.de/x|", ["http://xn--mller-kva.de/x"]);
    t!(
        "見て |http://例え.jp/パス|。",
        ["http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"]
    );
    t!(
        "|https://ja.wikipedia.org/wiki/東京| です",
        ["https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC"]
    );
    t!(
        "(|http://one.org/|)(|http://two.org/|)",
        ["http://one.org/", "http://two.org/"]
    );
    t!("|http://example.org/|]()", ["http://example.org/"]);
    t!(
        "|http://foo.com/blah_blah_'singlequoted'|",
        ["http://foo.com/blah_blah_'singlequoted'"]
    );
    t!("http://#", []);
    t!(
        "[![b](|https://a.org/b.svg|)](|https://c.org/|)",
        ["https://a.org/b.svg", "https://c.org/"]
    );
    t!("[x]:|https://a.org/b|", ["https://a.org/b"]);
    t!("svn:mergeinfo pop:2 ws:)-.25 http:443-", []);
}

/// A URI written with non-ASCII characters is read whole, up to a space
/// or a mark of punctuation of any script, and is an IRI: never cut at
/// its first non-ASCII character into a shorter URI.
#[test]
fn iris_are_read_whole_and_mapped_to_uris() {
    let found = t!(
        "|http://müller.de/straße| ok",
        ["http://xn--mller-kva.de/stra%C3%9Fe"]
    );
    assert_eq!(found[0].iri(), Some("http://müller.de/straße"));
    let found = t!("|http://x.org/|", ["http://x.org/"]);
    assert_eq!(found[0].iri(), None, "written in ASCII");
    // Japanese punctuation, full-width brackets, NBSP, ideographic space,
    // curly quotes and bidi controls end an IRI; letters glued to it do
    // not (Japanese writes no space after a URI).
    t!(
        "「|http://例え.jp/a|」、（|http://例え.jp/b|）\u{3000}“|http://x.org/ü|”",
        [
            "http://xn--r8jz45g.jp/a",
            "http://xn--r8jz45g.jp/b",
            "http://x.org/%C3%BC"
        ]
    );
    t!(
        "|http://x.org/a|\u{a0}b |http://x.org/ü|\u{200f} |http://x.org/é|…",
        [
            "http://x.org/a",
            "http://x.org/%C3%BC",
            "http://x.org/%C3%A9"
        ]
    );
    t!(
        "詳細は|http://x.jp/を参照|",
        ["http://x.jp/%E3%82%92%E5%8F%82%E7%85%A7"]
    );
    // Found by a black-box review: Persian writes a zero-width non-joiner
    // inside words (`می‌خواهم`), which cut the IRI in two.
    t!(
        "|https://fa.wikipedia.org/wiki/می\u{200C}خواهم| و",
        ["https://fa.wikipedia.org/wiki/%D9%85%DB%8C%E2%80%8C%D8%AE%D9%88%D8%A7%D9%87%D9%85"]
    );
    // A joiner that joins nothing is not the URI's.
    t!(
        "see |https://a.example/path|\u{200C} next (|https://a.example/x|\u{200C})",
        ["https://a.example/path", "https://a.example/x"]
    );
    // Inside brackets and quotes too, wrapped or not.
    t!(
        "<|http://例え.jp/パス/\n  次|> \"|https://ü.de/ä|\"",
        [
            "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9/%E6%AC%A1",
            "https://xn--tda.de/%C3%A4"
        ]
    );
    // An address may start with a non-ASCII character right after its
    // scheme's `:`: an internationalized mail address (RFC 6530), an XMPP
    // or SIP address. Far from the last colon too, where the colon search
    // works a vector at a time (found by a black-box review: it passed
    // over such colons).
    let far = "x".repeat(100);
    t!(
        &format!(
            "{far} |mailto:üser@example.com| <|mailto:用户@例子.广告|> \
             |xmpp:üser@example.com| |urn:isbn:ü12| {far}"
        ),
        [
            "mailto:%C3%BCser@example.com",
            "mailto:%E7%94%A8%E6%88%B7@xn--fsqu00a.xn--4rr70v",
            "xmpp:%C3%BCser@example.com",
            "urn:isbn:%C3%BC12"
        ]
    );
    // Other known schemes glued to non-ASCII text are labels and their
    // values (CJK writes no space after a colon), and an address needs
    // its `@` (the second review of that change).
    t!(
        &format!(
            "{far} Tip:設定画面から通知をオフにできます。Data:東京,大阪 \
             Im:Übrigen [[ar:مصر]] about:設定 mailto:üser im:ü sip:ñame@ x.org {far}"
        ),
        []
    );
    // Text in another encoding, read undecoded, ends a URI as a space does.
    check(
        &Scanner::new(),
        "|http://x.org/caf|\u{fffd}",
        &["http://x.org/caf"],
    );
    let latin1 = b"see http://x.org/caf\xe9 ok";
    let uris: Vec<_> = Scanner::new()
        .find_iter(latin1)
        .map(|f| f.as_str().to_string())
        .collect();
    assert_eq!(uris, ["http://x.org/caf"]);
}

/// Found by a black-box run: an en dash inside a word cut a Wikipedia URL
/// into a different one (`…/wiki/Navier`). A dash written inside words
/// goes on when a letter or digit follows it; the em dash, and a dash
/// before a blank or another dash, end the URI.
#[test]
fn a_dash_inside_a_word_continues_an_iri() {
    t!(
        "|https://en.wikipedia.org/wiki/Navier–Stokes_equations| and |http://c.example/a‑b–東|",
        [
            "https://en.wikipedia.org/wiki/Navier%E2%80%93Stokes_equations",
            "http://c.example/a%E2%80%91b%E2%80%93%E6%9D%B1"
        ]
    );
    t!(
        "see |http://a.example/x|– next, |http://b.example/|—see, |http://d.example/|––x, (|http://e.example/|)–",
        [
            "http://a.example/x",
            "http://b.example/",
            "http://d.example/",
            "http://e.example/"
        ]
    );
    // Not after punctuation, not before another URI (found by a black-box
    // run: the two URIs came out as one).
    t!(
        "|https://a.example/x|–|https://b.example/y| |http://c.example/x|.–y |http://d.example/a|,–b",
        [
            "https://a.example/x",
            "https://b.example/y",
            "http://c.example/x",
            "http://d.example/a"
        ]
    );
}

/// A typeset apostrophe (U+2019) inside a word continues an IRI, but not
/// before an English clitic: `’s` after a URI is the sentence's.
#[test]
fn an_apostrophe_inside_a_word_continues_an_iri() {
    t!(
        "|https://fr.wikipedia.org/wiki/Côte_d’Ivoire| and |http://o.example/O’Reilly_books|, \
         |http://l.example/l’État|",
        [
            "https://fr.wikipedia.org/wiki/C%C3%B4te_d%E2%80%99Ivoire",
            "http://o.example/O%E2%80%99Reilly_books",
            "http://l.example/l%E2%80%99%C3%89tat"
        ]
    );
    t!(
        "|http://example.org|’s page, |http://a.example/x|’ll do, \
         ‘|http://q.example/|’ and |http://b.example/x|’S. \
         |http://c.example/a|’|https://d.example/b| |http://e.example/f|.’g",
        [
            "http://example.org",
            "http://a.example/x",
            "http://q.example/",
            "http://b.example/x",
            "http://c.example/a",
            "https://d.example/b",
            "http://e.example/f"
        ]
    );
}

#[test]
fn iri_modes_keep_or_refuse_what_was_written() {
    let keep = Scanner::builder().iri(IriMode::Keep).build();
    check(
        &keep,
        "見て |http://例え.jp/パス|。",
        &["http://例え.jp/パス"],
    );
    let off = Scanner::builder().iri(IriMode::Off).build();
    check(
        &off,
        "見て http://例え.jp/パス。 |http://x.org/|",
        &["http://x.org/"],
    );
    check(&off, "http://müller.de/x", &[]);
    check(&off, "mailto:üser@example.com", &[]);
    let off_invalid = Scanner::builder()
        .iri(IriMode::Off)
        .report_invalid(true)
        .build();
    let found = check(
        &off_invalid,
        "|http://müller.de/x|",
        &["http://müller.de/x"],
    );
    let error = found[0].error().expect("reported as invalid");
    assert_eq!(
        (error.index(), error.to_string()),
        (8, "invalid character in host at byte 8".to_string())
    );
    // An internationalized address too (the code review of that change).
    let found = check(
        &off_invalid,
        "|mailto:üser@example.com|",
        &["mailto:üser@example.com"],
    );
    assert_eq!(found[0].error().map(|e| e.index()), Some(7));
    // In IRI modes, a candidate that is not an IRI is not cut either.
    let invalid = Scanner::builder().report_invalid(true).build();
    let found = check(&invalid, "|http://x:1ü/|", &["http://x:1ü/"]);
    assert_eq!(found[0].error().map(|e| e.index()), Some(10));
}

/// Curly quotes, guillemets and CJK corner brackets delimit as `"..."`
/// does: the URI is read on to the closing mark, punctuation and all.
#[test]
fn typographic_quotes_delimit_as_double_quotes_do() {
    for marked in [
        "see “|http://x.org/a.|” now",
        "see ‘|http://x.org/a.|’ now",
        "voir «|http://x.org/a.|» ici",
        "siehe „|http://x.org/a.|“ hier",
        "「|http://x.org/a.|」を見て",
        "『|http://x.org/a.|』",
    ] {
        let found = check(&Scanner::new(), marked, &["http://x.org/a."]);
        assert_eq!(found[0].delimiter(), Delimiter::Quote, "{marked}");
    }
    // Not closed by its own mark: read by the bare rules.
    let found = check(&Scanner::new(), "“|http://x.org/a|.", &["http://x.org/a"]);
    assert_eq!(found[0].delimiter(), Delimiter::None);
    // The hyphen rule holds inside them too.
    check(
        &Scanner::new(),
        "“|http://www.kernel-\n   notes.org|”",
        &["http://www.kernel-notes.org"],
    );
}

/// A bad `%` fails the candidates that hold it, not one that a bracket
/// cuts before it.
#[test]
fn a_bad_percent_fails_only_the_candidates_that_hold_it() {
    t!("x http://a/(|http://b/|)%zz y", ["http://b/"]);
    t!("x http://a/http://b/%zz y", []);
}

/// What a scan reports, but for the line: URI, span, column, flags.
type Unlined = (String, (usize, usize), u64, Delimiter, bool, bool, bool);

fn unlined(f: &Found<'_>) -> Unlined {
    let s = f.span();
    (
        f.as_str().to_string(),
        (s.start, s.end),
        f.column(),
        f.delimiter(),
        f.is_wrapped(),
        f.has_url_prefix(),
        f.has_hyphen_break(),
    )
}

/// Without line numbers, every way of scanning (`find_iter`, reads of any
/// size, `scan_slice`, chunks, segments, mail) reports the same URIs,
/// spans and columns, each on line 0; and the text's segments count no
/// line breaks. Over the scan and mail fixtures (real text: logs, mail,
/// RFCs, uri(7) in three languages), as text and as mail.
#[test]
fn without_line_numbers_only_the_lines_change() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let files: Vec<_> = ["scan", "mail"]
        .iter()
        .flat_map(|d| common::files_under(&dir.join(d)))
        .filter(|f| !f.to_string_lossy().ends_with(".expected"))
        .collect();
    assert!(files.len() >= 10);
    let mut found = 0;
    for file in files {
        let text = std::fs::read(&file).unwrap();
        for mut builder in [Scanner::builder(), {
            let mut b = Scanner::builder();
            b.report_invalid(true).hyphen(HyphenMode::Both);
            b
        }] {
            let lined = builder.build();
            let plain = builder.line_numbers(false).build();
            assert!(lined.counts_lines() && !plain.counts_lines());
            let want: Vec<Unlined> = lined.find_iter(&text).map(|f| unlined(&f)).collect();
            found += want.len();
            let got: Vec<Found<'_>> = plain.find_iter(&text).collect();
            assert!(got.iter().all(|f| f.line() == 0), "{}", file.display());
            let got: Vec<Unlined> = got.iter().map(unlined).collect();
            assert_eq!(got, want, "find_iter, {}", file.display());
            for size in [1, 7, 0] {
                let mut streamed = Vec::new();
                plain
                    .scan_reader_with_read_size(
                        &text[..],
                        |f: &Found<'_>| {
                            assert_eq!(f.line(), 0);
                            streamed.push(unlined(f));
                            Ok(true)
                        },
                        size,
                    )
                    .unwrap();
                assert_eq!(streamed, want, "reads of {size}, {}", file.display());
            }
            let segments = uriscan::Segments::new(&text[..], text.len() as u64).segment_size(97);
            let mut segmented = Vec::new();
            for k in 0..segments.count() {
                if let Some(segment) = segments.segment(k).unwrap() {
                    let end = segment
                        .scan(&plain, |f: &Found<'_>| {
                            segmented.push(unlined(f));
                            Ok(true)
                        })
                        .unwrap();
                    assert_eq!(end.lines, 0);
                }
            }
            assert_eq!(segmented, want, "segments, {}", file.display());
            let mut sliced = Vec::new();
            plain
                .scan_slice(&text, |f: &Found<'_>| {
                    assert_eq!(f.line(), 0);
                    sliced.push(unlined(f));
                    Ok(true)
                })
                .unwrap();
            assert_eq!(sliced, want, "scan_slice, {}", file.display());
            let mut chunked = Vec::new();
            let mut chunks = uriscan::Chunks::new(&text[..]).chunk_size(97);
            let mut sink = |f: &Found<'_>| {
                assert_eq!(f.line(), 0);
                chunked.push(unlined(f));
                Ok(true)
            };
            for chunk in chunks.by_ref() {
                chunk.unwrap().scan(&plain, &mut sink).unwrap();
            }
            if let Some(rest) = chunks.into_rest() {
                rest.scan(&plain, &mut sink).unwrap();
            }
            assert_eq!(chunked, want, "chunks, {}", file.display());
            #[cfg(feature = "mail")]
            {
                let mail = |scanner: &Scanner| {
                    let mut out = Vec::new();
                    uriscan::mail::scan_mail(scanner, &text[..], |f: &Found<'_>| {
                        out.push((unlined(f), f.line()));
                        Ok(true)
                    })
                    .unwrap();
                    out
                };
                let (lined_mail, plain_mail) = (mail(&lined), mail(&plain));
                assert_eq!(lined_mail.len(), plain_mail.len());
                for ((a, _), (b, line)) in lined_mail.iter().zip(&plain_mail) {
                    assert_eq!((a, *line), (b, 0), "mail, {}", file.display());
                }
            }
        }
    }
    assert!(found > 100, "{found} URIs");
}

/// Found by a review: a limit near `usize::MAX` overflowed a candidate's
/// bounds (a panic on the second URI of any text); the builder takes a
/// limit past the largest as the largest.
#[test]
fn a_candidate_limit_past_the_largest_is_the_largest() {
    for asked in [usize::MAX, uriscan::LARGEST_MAX_CANDIDATE_LEN + 1] {
        let scanner = Scanner::builder().max_candidate_len(asked).build();
        assert_eq!(
            scanner.max_candidate_len(),
            uriscan::LARGEST_MAX_CANDIDATE_LEN
        );
        let found: Vec<String> = scanner
            .find_iter(b"http://a.example/\nhttp://b.example/\n")
            .map(|f| f.as_str().to_string())
            .collect();
        assert_eq!(found, ["http://a.example/", "http://b.example/"]);
    }
}

#[test]
fn json_escapes_are_read_as_what_they_stand_for() {
    // Go's encoding/json writes `&`, `<`, `>` as `\u0026`, `\u003c`,
    // `\u003e`; the span is what was written, escapes and all.
    t!(
        r#"{"url":"|https://a.example/q?x=1\u0026y=2|"}"#,
        ["https://a.example/q?x=1&y=2"]
    );
    t!(
        r#"{"msg":"moved \u003c|https://old.example/a|\u003e"}"#,
        ["https://old.example/a"]
    );
    // PHP's json_encode writes `/` as `\/`; a syslog prefix before the
    // JSON; escaped quotes delimit.
    t!(
        r#"Nov 26 web app[7]: {"u":"|https:\/\/b.example\/c\/d|","r":"see \"|http://q.example/|\" now"}"#,
        ["https://b.example/c/d", "http://q.example/"]
    );
    // Docker's json-file log holds the JSON an application wrote in a
    // string: its strings are decoded too.
    t!(
        r#"{"log":"{\"url\":\"|https:\\/\\/h.example\\/?a=1\\u0026b=2|\"}\n","stream":"stdout"}"#,
        ["https://h.example/?a=1&b=2"]
    );
    // An array that starts with a time and a flag (found by a black-box
    // review: such a line was not decoded).
    t!(
        r#"[1732612345, true, "|https:\/\/i.example\/?a=1\u0026b=2|"]"#,
        ["https://i.example/?a=1&b=2"]
    );
    // A pretty-printed member, a non-ASCII letter, a line break.
    t!(
        "{\n  \"u\": \"|http:\\/\\/x.org\\/caf\\u00e9|\",\n  \"m\": \"|http://y.org/|\\nnext\"\n}",
        ["http://x.org/caf%C3%A9", "http://y.org/"]
    );
    // Not decoded: a string that does not end on its line, a line that is
    // not JSON (a C string), a backslash outside a string.
    t!(r#"{"u":"|https://a.example/x|\/y"#, ["https://a.example/x"]);
    t!(r#"puts("|http://c.example/|\n");"#, ["http://c.example/"]);
    t!(r#"{"a":1} |http://d.example/|\/e"#, ["http://d.example/"]);
    // Columns count the bytes as written.
    let found = t!(
        r#"{"a":"\/\/\/\u0026","u":"|http://e.example/\/f|"}"#,
        ["http://e.example//f"]
    );
    assert_eq!(found[0].column(), 26);
    let found = t!(
        "x\n{\"a\":\"\\u00e9\\/\",\"u\":\"|http:\\/\\/f.example\\/|\"}",
        ["http://f.example/"]
    );
    assert_eq!((found[0].line(), found[0].column()), (2, 22));
    // A stream that rolls its buffer past the start of a decoded line
    // still counts the column from it (found by a code review: the map of
    // the line's escapes was forgotten, so the column was 1 too large).
    let rolled = format!(
        "{{\"a\":\"\\/\"}}\n{{\"b\":\"\\/\"}} {} <|http://a.example/p/\n q|>\n",
        "x".repeat(300)
    );
    let found = check(&Scanner::new(), &rolled, &["http://a.example/p/q"]);
    assert_eq!((found[0].line(), found[0].column()), (2, 314));
    // And without the option, as written: `\u0026` and `\/` end a URI.
    let raw = Scanner::builder().json_escapes(false).build();
    check(
        &raw,
        r#"{"url":"|https://a.example/q?x=1|\u0026y=2","v":"https:\/\/b.example\/"}"#,
        &["https://a.example/q?x=1"],
    );
}

/// Found by a black-box run: a second `#` (Matrix rooms, `##` anchors)
/// made the whole URI invalid, so nothing was found, while a document's
/// link with it was read as a browser reads it, `%23`.
#[test]
fn a_hash_inside_a_fragment_is_read_as_percent_23() {
    let found = t!(
        "Matrix at |https://matrix.to/#/#pyyaml:yaml.io| or <|https://matrix.to/#/#r:e.org|>.",
        [
            "https://matrix.to/#/%23pyyaml:yaml.io",
            "https://matrix.to/#/%23r:e.org"
        ]
    );
    // As written, as an IRI is.
    assert_eq!(found[0].iri(), Some("https://matrix.to/#/#pyyaml:yaml.io"));
    t!(
        "see |https://graphics.stanford.edu/~seander/bithacks.html##ValueInWord|, \"|http://a.example/b#c#d|\"",
        [
            "https://graphics.stanford.edu/~seander/bithacks.html#%23ValueInWord",
            "http://a.example/b#c%23d"
        ]
    );
    // Not a scheme alone before it, nor character references; nor a `#`
    // after another error.
    t!(
        "gs://#default#/object http://www.example.org/r&#xE9;sum&#xE9;.html http://x.example/#a%zz#b",
        []
    );
}

/// A line longer than 64 KiB (a minified JSON file, an API's answer saved
/// whole) is read string by string: it gave nothing, as a stream holds
/// back at most 64 KiB of a line. Each string closed within 64 KiB of its
/// opening quote is decoded, wherever it stands in the line; a longer one
/// is read as written, and the strings after it are decoded again.
#[test]
fn a_long_json_line_is_decoded_string_by_string() {
    let items: Vec<String> = (0..900)
        .map(|i| format!(r#"{{"id":{i},"url":"|https:\/\/a.example\/item\/{i}?x=1\u0026y|","t":"\"q\" {}"}}"#, "x".repeat(i % 90)))
        .collect();
    let marked = format!(
        "[{}]\n{{\"after\":\"|http:\\/\\/b.example\\/|\"}}\n",
        items.join(",")
    );
    assert!(marked.len() > 70_000);
    let mut want: Vec<String> = (0..900)
        .map(|i| format!("https://a.example/item/{i}?x=1&y"))
        .collect();
    want.push("http://b.example/".into());
    let want: Vec<&str> = want.iter().map(String::as_str).collect();
    check(&Scanner::new(), &marked, &want);
    // A string longer than 64 KiB is read as written (its `\/` ends the
    // URI); the next string is decoded. A `\` escapes whatever follows it,
    // read in any piece: `\"` does not close the long string.
    let long = format!(
        r#"{{"pad":"|http://c.example/|\/{}\"","u":"|http:\/\/g.example\/|"}}"#,
        "x".repeat(70_000)
    );
    check(
        &Scanner::new(),
        &long,
        &["http://c.example/", "http://g.example/"],
    );
    // The long string's neighbours, and a string of JSON in it.
    let long = format!(
        r#"{{"a":"|https:\/\/d.example\/|","pad":"{}","log":"{{\"u\":\"|https:\\/\\/e.example\\/|\"}}"}}"#,
        "y".repeat(70_000)
    );
    check(
        &Scanner::new(),
        &long,
        &["https://d.example/", "https://e.example/"],
    );
    // Strings are looked for in the line's first 64 KiB: after a longer
    // prefix, the line is read as written.
    let late = format!(
        r#"{} {{"u":"|http://f.example/|\/x"}}"#,
        "z ".repeat(40_000)
    );
    check(&Scanner::new(), &late, &["http://f.example/"]);
    // A string still open at the line's end is not decoded; the next
    // line is read from its start.
    let open = format!(
        "{{\"pad\":\"{}\",\"u\":\"|http://h.example/|\\/x\n{{\"v\":\"|http:\\/\\/i.example\\/|\"}}",
        "w".repeat(70_000)
    );
    check(
        &Scanner::new(),
        &open,
        &["http://h.example/", "http://i.example/"],
    );
}

/// Found by a black-box run over configuration files and scripts: JDBC
/// URLs were lost whole (an unknown scheme after a field's `:`), and a
/// minified script's `data:r,handler:n` was a `data:` URI. (A C
/// comment's `*/` glued to a URI stays: trimming it cut more globs,
/// `gs://my-b*/`, `https://docs.rs/regex/1.*/`, `filebeat-*/`, than it
/// freed URIs from comments, one in a Perl header.)
#[test]
fn jdbc_urls_and_data_media_types() {
    t!(
        "url = jdbc:mysql://localhost/jetty\nspring.datasource.url=jdbc:postgresql://db:5432/app\n\
         jdbc:oracle:thin:@//db:1521/orcl jdbc:sqlserver://h:1433;databaseName=x",
        [
            "jdbc:mysql://localhost/jetty",
            "jdbc:postgresql://db:5432/app",
            "jdbc:oracle:thin:@//db:1521/orcl",
            "jdbc:sqlserver://h:1433;databaseName=x"
        ]
    );
    // A program's prefix and a Windows drive are not JDBC URLs.
    t!(
        "url = \"jdbc:mysql://\" + host; \"jdbc:oracle:thin:@\" jdbc:sqlite:C:\\db\\x.db",
        []
    );
    t!(
        "{data:r,handler:n,guid:n.guid} $.ajax({data:t,success:n}) src=data:image/png;base64,iVBORw0 data:,Hello",
        ["data:image/png;base64,iVBORw0", "data:,Hello"]
    );
    t!(
        "list gs://my-b*/ and https://docs.rs/regex/1.*/",
        ["gs://my-b*/", "https://docs.rs/regex/1.*/"]
    );
}

/// A `\` that ends a line continues it (a shell's or a string's line
/// continuation, RFC 8792's folding): gcloud's man pages, Python
/// docstrings and RFCs wrap long URIs so, bare, quoted or in brackets.
/// The next line's indentation goes; a command's option, a word of prose
/// or a URI of its own on the next line does not continue it.
#[test]
fn a_line_continuation_joins_a_wrapped_uri() {
    t!(
        "--license=|https://www.googleapis.com/compute/v1/projects/\\\nsuse-sap-cloud/global/licenses/sles-sap-12| \\\n  --region=x",
        ["https://www.googleapis.com/compute/v1/projects/suse-sap-cloud/global/licenses/sles-sap-12"]
    );
    // Over three lines, the last word less its sentence's punctuation.
    t!(
        "  |https://compute.googleap\\\nis.com/compute/alpha/zones/europe-west4/disks/di\\\r\nsk-1|.\n",
        ["https://compute.googleapis.com/compute/alpha/zones/europe-west4/disks/disk-1"]
    );
    // RFC 8792: the continuation's indentation is not the URI's.
    t!(
        "GET |https://example.com/mymodules/example-jukebox/\\\n         2016-08-15| HTTP/1.1",
        ["https://example.com/mymodules/example-jukebox/2016-08-15"]
    );
    t!(
        "--network=\"|https://www.googleapis.com/v1/projects/my-pro\\\nject/networks/my-network|\" --x",
        ["https://www.googleapis.com/v1/projects/my-project/networks/my-network"]
    );
    t!(
        "xmlns:sr=\"|urn:ietf:params:xml:ns:yang\\\n   :ietf-segment-routing|\">",
        ["urn:ietf:params:xml:ns:yang:ietf-segment-routing"]
    );
    t!(
        "See <|https://cloud.google.com/appengine/docs/python/sockets/\\\n   #limitations|>`_",
        ["https://cloud.google.com/appengine/docs/python/sockets/#limitations"]
    );
    // In a mail reply, past the quote prefix.
    t!(
        "> |https://a.example/very/long/\\\n> path/x.html|\n",
        ["https://a.example/very/long/path/x.html"]
    );
    t!(
        "curl |https://x.example/a/|\\\n  -o file\n|https://example.com/|\\\nNext line of prose.\n\
         |http://a.example/|\\\n|http://b.example/| |http://c.example/x|\\\n\n|http://d.example/|\\ x/y",
        [
            "https://x.example/a/",
            "https://example.com/",
            "http://a.example/",
            "http://b.example/",
            "http://c.example/x",
            "http://d.example/"
        ]
    );
    // The punctuation before the `\` is the URI's.
    t!(
        "schemaLocation=\"|http://www.\\\ngexf.net/1.2draft| |http://x|\"",
        ["http://www.gexf.net/1.2draft", "http://x"]
    );
    // A comment goes on only on a comment's line, past its marker; a line
    // that starts one continues nothing. (Read in short reads with JSON
    // strings as written too: the stream then holds back no line, and a
    // read may end in the blanks after the marker.)
    let blanks = " ".repeat(300);
    check(
        &Scanner::builder().json_escapes(false).build(),
        &format!("# |http://a.example/x.html\\\n#{blanks}#frag|\n|http://b.example/x|\\\n\n"),
        &["http://a.example/x.html#frag", "http://b.example/x"],
    );
    t!(
        "# |http://a.example/x.html\\\n#   #frag|\n# |http://so.example/q/1/dom-\\\n# please/38041194|\n",
        ["http://a.example/x.html#frag", "http://so.example/q/1/dom-please/38041194"]
    );
    t!(
        "    # see |https://a.example/issues/|\\\n    x2 = 1\n|http://b.example/x.html|\\\n# a comment\n",
        ["https://a.example/issues/", "http://b.example/x.html"]
    );
    // Doubled markers (`##`, Rust's `///`) are one; an empty comment line
    // continues nothing.
    t!(
        "## |http://a.example/b\\\n## c/d|\n/// |https://c.example/a\\\n/// b/c|\n|http://e.example/f|\\\n#\nx\n",
        ["http://a.example/bc/d", "https://c.example/ab/c", "http://e.example/f"]
    );
    // In a mail reply, blanks past the quote prefix are indentation.
    t!(
        "> pip install -i |http://a.example/simple|\\\n>     numpy==1.2\n",
        ["http://a.example/simple"]
    );
    // A docstring's indented continuation (reST's hyperlink target); but
    // an indented word after a letter is a shell's next word.
    t!(
        "    .. _ADC: |https://developers.google.com\\\n            /identity/protocols/adc|\n\
         pip install -i |https://pypi.example/simple|\\\n    numpy==1.2\n\
         ENV URL=|https://a.example/x|\\\n    VERSION=1.2\n",
        [
            "https://developers.google.com/identity/protocols/adc",
            "https://pypi.example/simple",
            "https://a.example/x"
        ]
    );
    // Prose after a Markdown hard break, a `\ ` (an escaped blank) in
    // brackets, and a `\` that ends no line.
    t!(
        "Docs: |https://a.example/b|\\\nI'm here\n|http://b.example/c|\\\n2. item\n\
         <|http://c.example/d|\\ \nx/y> |http://d.example/e\\\nf/g|.\\x",
        [
            "https://a.example/b",
            "http://b.example/c",
            "http://c.example/d",
            "http://d.example/ef/g"
        ]
    );
}

/// Square brackets after a bare URI are markup's: AsciiDoc's link text,
/// BBCode's tags. In a path, a group followed by more of the URI, one
/// written as a value, and one inside `<…>` leave the URI invalid, as
/// written; a run of glued URIs has its brackets read for its first
/// candidate only.
#[test]
fn markup_brackets_after_a_bare_uri_are_not_the_uris() {
    t!(
        "See |https://example.org/a|[Example], link:|https://example.org/b|[the B text] \
         and |https://example.org/c|[].\n",
        [
            "https://example.org/a",
            "https://example.org/b",
            "https://example.org/c"
        ]
    );
    t!(
        "[url]|https://example.org/k?x=1&y=2|[/url] [img]|https://example.org/l.png|[/img] \
         [url=|https://example.org/m|]text[/url]\n",
        [
            "https://example.org/k?x=1&y=2",
            "https://example.org/l.png",
            "https://example.org/m"
        ]
    );
    t!(
        "|http://[::1]/x|[y] and |http://u@[::1]|[z].\n",
        ["http://[::1]/x", "http://u@[::1]"]
    );
    t!(
        "http://x.org/a[1].jpg ?a[]=1 http://x.org/ad;ord=[timestamp] <http://x.org/p[q]> \
         \"http://x.org/r[s]\"\n",
        []
    );
}

/// A query's or a fragment's square brackets are read as a browser reads
/// them (`%5B`, `%5D`), in a bare URI, in `<…>` and in quotes: the whole
/// URI was dropped (found by a black-box run against lychee: presigned
/// URLs' `[token]`, PHP's `a[]=1`, a URI library's own docs). Markup's
/// brackets after a query still end the URI; a path's still leave it
/// invalid.
#[test]
fn a_querys_square_brackets_are_read_as_a_browser_reads_them() {
    t!(
        "|https://b.s3.example/k?Token=[token]&Expires=899| and <|http://x.org/?a[]=1&a[]=2|>, \
         \"|http://somewhere.in/time?track=[02]#wasted-years|\" |http://x.org/#f[1]#g|\n\
         |https://x.org/search?q=a|[Search] http://x.org/p[q]?r=[s]\n",
        [
            "https://b.s3.example/k?Token=%5Btoken%5D&Expires=899",
            "http://x.org/?a%5B%5D=1&a%5B%5D=2",
            "http://somewhere.in/time?track=%5B02%5D#wasted-years",
            "http://x.org/#f%5B1%5D%23g",
            "https://x.org/search?q=a"
        ]
    );
    // In a glued run, what a failure teaches about a bracket holds for
    // the later candidates: a path's bracket fails them, a query's does not.
    t!(
        "http://a.example/?x[1]%zz|http://b.example/?y[2]| \
         http://c.example/p[1]|http://d.example/?q[1]|\n",
        ["http://b.example/?y%5B2%5D", "http://d.example/?q%5B1%5D"]
    );
    let found = Scanner::new()
        .find_iter(b"http://x.org/?a[]=1")
        .next()
        .unwrap();
    assert_eq!(found.iri(), Some("http://x.org/?a[]=1"), "as written");
}
