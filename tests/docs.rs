//! Documents read as what they are: the fixture tree `fixtures/docs/`
//! against its expected links, and each option of the document mode.

mod common;

use std::path::Path;

use common::{stdout, Dir, TestCommand};

/// The fixture tree's links, `PATH:LINE:COLUMN:URI`, with and without a
/// base: the table this checks is `fixtures/docs.expected` and
/// `fixtures/docs.base.expected`.
#[test]
fn fixture_tree_gives_its_expected_links() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for (args, expected) in [
        (&[][..], "docs.expected"),
        (
            &["--base", "https://docs.example.org/"][..],
            "docs.base.expected",
        ),
    ] {
        let o = TestCommand::new()
            .current_dir(fixtures.join("docs"))
            .args(["-n", "--column", "."])
            .args(args)
            .run();
        let want = std::fs::read_to_string(fixtures.join(expected)).unwrap();
        let got = stdout(&o);
        for (g, w) in got.lines().zip(want.lines()) {
            assert_eq!(g, w, "{expected}");
        }
        assert_eq!(got.lines().count(), want.lines().count(), "{expected}");
    }
}

const PAGE: &str = "<base href=\"https://b.example/d/\">\n<a href=\"x.html\">x</a> <a href=\"#top\">t</a>\n<code>http://localhost/</code>\n";
const NOTES: &str = "See [the guide](guide.md#intro), [top](#top) and `http://localhost:8080/`.\n";

/// The links `uriscan ARGS` prints for the two documents above.
fn links(args: &[&str]) -> String {
    let d = Dir::new();
    d.create("page.html", PAGE);
    d.create("notes.md", NOTES);
    d.command()
        .args(["--no-filename"])
        .args(args)
        .arg(".")
        .stdout()
}

#[test]
fn base_resolves_relative_links_under_the_root() {
    assert_eq!(
        links(&["--base", "https://docs.example.org/root"]),
        "https://docs.example.org/root/guide.md#intro\nhttp://localhost:8080/\nhttps://b.example/d/x.html\nhttp://localhost/\n"
    );
    let d = Dir::new();
    let o = d.command().args(["--base", "relative/path", "."]).run();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("--base"),
        "{}",
        common::stderr(&o)
    );
}

/// `--base` may be an IRI; with `--iri keep`, relative IRIs are resolved
/// as IRIs, and the base and the document's path keep their characters
/// (stop 30's black-box review: they came out percent-encoded).
#[test]
fn an_iri_base_and_relative_iris_are_resolved_as_iri_mode_says() {
    let d = Dir::new();
    d.create(
        "文書/索引.html",
        "<a href=\"ページ.html\">p</a> <a href=\"../図.png\">f</a>\n",
    );
    let run = |iri: &str| {
        d.command()
            .args([
                "--no-filename",
                "--iri",
                iri,
                "--base",
                "https://例え.jp/根",
                ".",
            ])
            .stdout()
    };
    assert_eq!(
        run("keep"),
        "https://例え.jp/根/文書/ページ.html\nhttps://例え.jp/根/図.png\n"
    );
    assert_eq!(
        run("uri"),
        "https://xn--r8jz45g.jp/%E6%A0%B9/%E6%96%87%E6%9B%B8/%E3%83%9A%E3%83%BC%E3%82%B8.html\n\
         https://xn--r8jz45g.jp/%E6%A0%B9/%E5%9B%B3.png\n"
    );
    let o = d
        .command()
        .args(["--base", "https://例え.jp/\u{202e}", "."])
        .run();
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("not a valid URI or IRI"));
}

#[test]
fn without_a_base_relative_links_are_left_out_or_printed_as_written() {
    assert_eq!(
        links(&[]),
        "http://localhost:8080/\nhttps://b.example/d/x.html\nhttp://localhost/\n"
    );
    assert_eq!(
        links(&["--relative"]),
        "guide.md#intro\nhttp://localhost:8080/\nx.html\nhttp://localhost/\n"
    );
}

#[test]
fn relative_json_says_relative_and_resolved() {
    let d = Dir::new();
    d.create("page.html", PAGE);
    let out = d
        .command()
        .args(["--json", "--relative", "page.html"])
        .stdout();
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["uri"], "x.html");
    assert_eq!(first["relative"], true);
    assert_eq!(first["resolved"], "https://b.example/d/x.html");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(2), Some(10))
    );
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["uri"].as_str(), last["in_code"].as_bool()),
        (Some("http://localhost/"), Some(true))
    );
}

#[test]
fn fragments_only_on_request() {
    assert_eq!(
        links(&["--fragments", "--relative"]),
        "guide.md#intro\n#top\nhttp://localhost:8080/\nx.html\n#top\nhttp://localhost/\n"
    );
}

#[test]
fn skip_code_leaves_out_examples() {
    assert_eq!(links(&["--skip-code"]), "https://b.example/d/x.html\n");
}

/// `uriscan -n ARGS fixtures/docs/PAGE`'s output.
fn fixture_links(page: &str, args: &[&str]) -> String {
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/docs")
        .join(page);
    TestCommand::new()
        .args(["-n"])
        .args(args)
        .arg(page)
        .stdout()
}

/// An AsciiDoc page's links (`fixtures/docs/guide/build.adoc`): link
/// macros with attributes substituted and a `++…++` target are links; the
/// listing block, the `[source]` paragraph, the literal paragraph and
/// monospace are code; the comment line and block are not read.
#[test]
fn asciidoc_code_is_told_apart_and_its_macros_are_links() {
    let run = |args: &[&str]| fixture_links("guide/build.adoc", args);
    assert_eq!(
        run(&["--skip-code", "--base", "https://docs.example.org/guide/"]),
        "2:https://github.com/example/example\n\
         3:https://docs.example.org\n\
         5:https://github.com/example/example\n\
         5:https://docs.example.org\n\
         6:https://docs.example.org/guide/getting_started__install.html\n\
         7:https://docs.example.org/guide/changelog.html\n\
         24:https://www.rfc-editor.org/rfc/rfc3986\n\
         30:https://img.shields.io/badge/build-passing-green.svg\n"
    );
    let all = run(&[]);
    for code in [
        "14:https://github.com/example/example.git\n",
        "19:https://httpbin.org/get\n",
        "21:http://localhost:8080/health\n",
        "23:http://localhost:8000\n",
    ] {
        assert!(all.contains(code), "{code}{all}");
    }
    assert!(
        !all.contains("mirror.example") && !all.contains("draft.example"),
        "{all}"
    );
}

/// A reST page's links (`fixtures/docs/guide/usage.rst`): what
/// `--skip-code` keeps is what docutils makes links of and its text
/// holds; its literal block, code directive, doctest and inline literal
/// are code, its comment is not read at all; a target and an embedded
/// URI wrapped over lines come whole.
#[test]
fn rst_code_is_told_apart_and_its_links_come_whole() {
    let run = |args: &[&str]| fixture_links("guide/usage.rst", args);
    assert_eq!(
        run(&["--skip-code"]),
        "7:https://pypi.org/project/example/\n\
         20:https://docs.example.org/guide/gettingstarted.html#install\n\
         22:https://www.rfc-editor.org/rfc/rfc3986\n\
         24:https://github.com/example/example/blob/main/CHANGELOG.rst\n\
         27:https://img.shields.io/pypi/v/example.svg\n\
         28:https://pypi.org/project/example/\n"
    );
    let json = run(&["--json"]);
    let in_code: Vec<&str> = json
        .lines()
        .filter(|l| l.contains("\"in_code\":true"))
        .map(|l| {
            l.split("\"uri\":\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(
        in_code,
        [
            "https://files.example.org/example-1.0.tar.gz",
            "https://httpbin.org/get",
            "http://localhost:8000/",
            "http://not.a.link/"
        ]
    );
    assert!(
        !json.contains("apache.org"),
        "a comment is not read: {json}"
    );
    assert!(json.contains("\"wrapped\":true"), "{json}");
    // As plain text, the comment's URI is found and the wrapped links are cut.
    let plain = run(&["--doc-mode", "off"]);
    assert!(plain.contains("apache.org"), "{plain}");
    assert!(
        plain.contains("20:https://docs.example.org/guide/\n"),
        "{plain}"
    );
}

#[test]
fn doc_mode_off_reads_documents_as_plain_text() {
    assert_eq!(
        links(&["--doc-mode", "off"]),
        "http://localhost:8080/\nhttps://b.example/d/\nhttp://localhost/\n"
    );
}

#[test]
fn types_select_the_files_a_walk_scans() {
    assert_eq!(links(&["-t", "markdown"]), "http://localhost:8080/\n");
    assert_eq!(
        links(&["-T", "markdown"]),
        "https://b.example/d/x.html\nhttp://localhost/\n"
    );
    let list = TestCommand::new().arg("--type-list").stdout();
    assert!(list
        .lines()
        .any(|l| l.starts_with("html: ") && l.contains("*.html")));
    assert!(list
        .lines()
        .any(|l| l.starts_with("markdown: ") && l.contains("*.md")));
    let d = Dir::new();
    let o = d.command().args(["-t", "no-such-type", "."]).run();
    assert_eq!(o.status.code(), Some(2));
}

/// Found on /usr/share/man: `http://ftp\&.de\&.debian.org/` gave
/// `http://ftp`, and `\fIftp://…` was not read at all; a gzipped page is
/// read with -z.
#[test]
fn man_pages_are_read_with_roff_escapes_undone() {
    let page = ".TH T 1\n.SH SEE ALSO\nhttp://ftp\\&.de\\&.debian.org/debian\\-ports/ and \\fIftp://ftp.gnu.org/gnu/\\fP.\n";
    let d = Dir::new();
    d.create("t.1", page);
    d.create_gzip("t.2.gz", page.as_bytes());
    d.create("rotated.log.1", "GET /a\\-b http://x.example/a\\-b\n");
    assert_eq!(
        d.command()
            .args(["-z", "-u", "--no-filename", "."])
            .stdout(),
        "http://x.example/a\nhttp://ftp.de.debian.org/debian-ports/\nftp://ftp.gnu.org/gnu/\n"
    );
}

/// Found on /usr/share/man: 487 pages there are named by a section digit
/// and letters (`Git.3pm`, `CA.pl.1ssl`, `rpc_gss_seccreate.3t`), beyond
/// ripgrep's `man` globs, and were read as plain text: `\*(Aqhttp://…`
/// gave `Aqhttp://…`, and `\-` ended URIs (`https://www.rfc`).
#[test]
fn man_pages_named_by_section_and_letters_are_read_as_man_pages() {
    let page = ".TH Git 3pm\n.SH EXAMPLES\nremote_repository (\\*(Aqhttp://git.or.cz/cogito.git/\\*(Aq);\nSee https://www.rfc\\-editor.org/rfc/rfc3161.html\n";
    let d = Dir::new();
    d.create("Git.3pm", page);
    d.create_gzip("CA.pl.1ssl.gz", page.as_bytes());
    let expected = "http://git.or.cz/cogito.git/\nhttps://www.rfc-editor.org/rfc/rfc3161.html\n";
    for file in ["Git.3pm", "CA.pl.1ssl.gz"] {
        assert_eq!(
            d.command().args(["-z", "--no-filename", file]).stdout(),
            expected,
            "{file}"
        );
    }
    // Not roff, though named like a page: plain text.
    d.create("changes.1b", "a \\-b http://x.example/\\-y\n");
    assert_eq!(
        d.command().args(["--no-filename", "changes.1b"]).stdout(),
        "http://x.example/\n"
    );
}

/// Found in crate READMEs generated from doc comments: rustdoc paths as
/// link destinations are no links, unless --any-scheme asks for them.
#[test]
fn rustdoc_paths_as_destinations_come_only_with_any_scheme() {
    let d = Dir::new();
    d.create(
        "README.md",
        "See [`Vec`] and [the docs](https://docs.rs/x).\n\n[`Vec`]: alloc::vec::Vec\n",
    );
    assert_eq!(
        d.command().args(["--no-filename", "README.md"]).stdout(),
        "https://docs.rs/x\n"
    );
    assert_eq!(
        d.command()
            .args(["--any-scheme", "--no-filename", "README.md"])
            .stdout(),
        "https://docs.rs/x\nalloc::vec::Vec\n"
    );
}

/// Found in serde_json's README (`[crates.io]:
/// https://crates.io/crates/serde\_json`): a Markdown destination written
/// with an escape or a reference is placed where it is written, escapes
/// and references included (it was an empty span at its link's start).
#[test]
fn escaped_markdown_destinations_are_placed_as_written() {
    let d = Dir::new();
    let md = "[a]: https://crates.io/crates/serde\\_json\n\n\
              [wrapped\ntext](https://a.example/a\\_b) [c](https://c.example/?x=1&amp;y=2)\n";
    d.create("notes.md", md);
    let places: Vec<[u64; 4]> = d
        .command()
        .args(["--json", "notes.md"])
        .stdout()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            ["line", "column", "start", "end"].map(|k| v[k].as_u64().unwrap())
        })
        .collect();
    assert_eq!(places, [[1, 6, 5, 41], [4, 7, 58, 80], [4, 35, 86, 116]]);
}

/// Found by a black-box review: a sitemap's `&amp;` stayed in its URIs,
/// and a feed's `&#38;` made a fragment of the rest of a query. XML is read with its references decoded, but in comments
/// and CDATA sections, as XML reads them; positions are the file's.
#[test]
fn xml_is_read_with_its_references_decoded() {
    let d = Dir::new();
    let xml = "<urlset>\n<url><loc>https://a.example/?id=7&amp;c=red</loc></url>\n\
               <link href=\"https://b.example/f?x=1&#38;y=2\"/>\n\
               <!-- https://c.example/?a=1&amp;b=2 --><![CDATA[https://d.example/?e&amp;f]]>\n</urlset>\n";
    d.create("sitemap.xml", xml);
    d.create(
        "logo.svg",
        "<svg><a href=\"https://e.example/?p&amp;q\"/></svg>\n",
    );
    let o = d.command().args(["-n", "--column", "."]).stdout();
    assert_eq!(
        o,
        "./logo.svg:1:15:https://e.example/?p&q\n\
         ./sitemap.xml:2:11:https://a.example/?id=7&c=red\n\
         ./sitemap.xml:3:13:https://b.example/f?x=1&y=2\n\
         ./sitemap.xml:4:6:https://c.example/?a=1&amp;b=2\n\
         ./sitemap.xml:4:49:https://d.example/?e&amp;f\n"
    );
    // As plain text, the references stay (and the feed's link is not a URI).
    let o = d
        .command()
        .args(["--doc-mode", "off", "sitemap.xml"])
        .stdout();
    assert!(
        o.starts_with("https://a.example/?id=7&amp;c=red\nhttps://b.example/f?x=1&#38;y=2\n"),
        "{o}"
    );
}

/// Scans `html` as a document and as a mail's HTML part, with `-n
/// --column`: each gives `want(line)`, `line` the line its first line is
/// on (the page's first, the message's fourth).
fn placed_in_page_and_mail(html: &str, want: impl Fn(usize) -> String) {
    let d = Dir::new();
    d.create("page.html", html);
    d.create(
        "mail.eml",
        &format!("From: a@b.example\nContent-Type: text/html\n\n{html}"),
    );
    for (file, line) in [("page.html", 1), ("mail.eml", 4)] {
        let got = d.command().args(["-n", "--column", file]).stdout();
        assert_eq!(got, want(line), "{file}");
    }
}

/// A URI after a `&` that starts no character reference, then letters and
/// another `&`, or after markup that is nothing (`</>`), is placed where
/// it was written, in a document and in a mail's HTML part (its text was
/// aligned with its source after reading, which took `&ee` for a
/// reference and slipped a byte: column 2; and placed the URI after `</>`
/// at `</>`: column 2 for 5).
#[test]
fn text_after_a_lone_ampersand_is_placed_where_it_was_written() {
    let html = "a</>http://b.example/ <p>\n&ee&\nhttp://a.example/ &tt&urn:n:0\n";
    placed_in_page_and_mail(html, |line| {
        format!(
            "{line}:5:http://b.example/\n{}:1:http://a.example/\n{}:23:urn:n:0\n",
            line + 2,
            line + 2
        )
    });
}

/// A URI read over lines in an attribute value (`<...>`) does not take in
/// the next value, in a document and in a mail's HTML part (each value
/// ended with a line end, which the angle brackets read over: it gave
/// `http://a.example/xy:z`).
#[test]
fn a_uri_in_a_value_does_not_take_in_the_next() {
    let html = "<p title=\"<http://a.example/x\" alt=\"y:z>\">t\n";
    placed_in_page_and_mail(html, |line| format!("{line}:12:http://a.example/x\n"));
    // Nor the text after it, past a form feed (a page break in text),
    // in a page and in Markdown's inline HTML.
    let d = Dir::new();
    d.create(
        "page.html",
        "<p title=\"<http://a.example/x\">\x0cmore/y>\n",
    );
    d.create(
        "notes.md",
        "<span title=\"<http://a.example/x\">\x0cmore/y>\n",
    );
    let got = d.command().args(["-n", "--column", "."]).stdout();
    assert_eq!(
        got,
        "./notes.md:1:15:http://a.example/x\n./page.html:1:12:http://a.example/x\n"
    );
}

/// A URI in an attribute value after a `&` that starts no reference is
/// placed where it was written, in a document and in a mail's HTML part
/// (the value was aligned with its source after reading, which took `&ee`
/// for a reference: column 21 for 18).
#[test]
fn a_value_after_a_lone_ampersand_is_placed_where_it_was_written() {
    let html = "<p title=\"&ee&tt&urn:x:y\">\n<img alt='&titletitle\r\nhttp://a.example/'>\n";
    placed_in_page_and_mail(html, |line| {
        format!("{line}:18:urn:x:y\n{}:1:http://a.example/\n", line + 2)
    });
}

/// A no-break space in a link (`&nbsp;`), within it or at its end, is
/// read as a browser reads it, `%C2%A0`, in a document and in a mail's
/// HTML part, whatever `--iri` says: mail ended the link at it
/// (`href="http://a.example/x&nbsp;y"` gave `http://a.example/x`), and a
/// document took it for an IRI's character (`--iri keep` printed it as
/// written, invisible; `--iri off` left the link out, or cut it).
#[test]
fn a_no_break_space_in_a_link_is_read_as_browsers_read_it() {
    let html =
        "<a href=\"http://a.example/x&nbsp;y\">1</a>\n<a href=\"http://a.example/x&nbsp;\">2</a>\n";
    let d = Dir::new();
    d.create("page.html", html);
    d.create(
        "mail.eml",
        &format!("From: a@b.example\nContent-Type: text/html\n\n{html}"),
    );
    for iri in ["uri", "keep", "off"] {
        for (file, line) in [("page.html", 1), ("mail.eml", 4)] {
            let got = d
                .command()
                .args(["-n", "--column", "--iri", iri, file])
                .stdout();
            assert_eq!(
                got,
                format!(
                    "{line}:10:http://a.example/x%C2%A0y\n{}:10:http://a.example/x%C2%A0\n",
                    line + 1
                ),
                "{file}, --iri {iri}"
            );
        }
    }
}

/// A document larger than 16 MiB is read as plain text, with a warning
/// (read whole, one takes 4 to 8 times its size): its absolute URIs are
/// still found, its relative links not. One of 16 MiB is a document.
#[test]
fn a_document_larger_than_16_mib_is_read_as_text() {
    let limit = uriscan::doc::MAX_DOCUMENT_LEN;
    assert_eq!(limit, 16 << 20);
    let d = Dir::new();
    let head = "[rel](guide.md) and <https://a.example/x>\n";
    for (name, len) in [("fits.md", limit), ("over.md", limit + 1)] {
        let mut text = head.to_string();
        text.push_str(&"z".repeat(len - head.len() - 1));
        text.push('\n');
        assert_eq!(text.len(), len);
        d.create(name, &text);
    }
    let o = d
        .command()
        .args(["--relative", "-n", "fits.md", "over.md"])
        .run();
    assert_eq!(
        stdout(&o),
        "fits.md:1:guide.md\nfits.md:1:https://a.example/x\nover.md:1:https://a.example/x\n"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("over.md: warning: larger than 16 MiB: read as plain text")
            && !stderr.contains("fits.md"),
        "{stderr}"
    );
}
