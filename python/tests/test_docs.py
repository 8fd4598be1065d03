"""Documents (HTML, Markdown, man pages): read as the command line reads
them, with its options; parity with ``uriscan --json`` over the fixture
documentation tree (fixtures/docs, in the repository)."""

import pytest

import uriscan
from conftest import ROOT, cli_json, files_under

DOCS = ROOT / "fixtures" / "docs"
BASE = "https://docs.example.org/"


def test_doc_kind_is_the_command_lines_type_by_name():
    assert uriscan.doc_kind("README.md") == "markdown"
    assert uriscan.doc_kind("site/index.html") == "html"
    assert uriscan.doc_kind("/usr/share/man/man7/uri.7") == "man"
    assert uriscan.doc_kind("pom.xml") == "xml"
    assert uriscan.doc_kind("logo.svg") == "xml"
    assert uriscan.doc_kind("notes.txt") is None
    assert uriscan.doc_kind("README.MD") is None


def test_an_iri_base_resolves_as_the_iri_mode_says():
    md = "[p](ページ.md)\n".encode()
    base = "https://例え.jp/文書/索引.md"
    kept = uriscan.scan(md, doc="markdown", base=base, iri="keep")
    assert [f.uri for f in kept] == ["https://例え.jp/文書/ページ.md"]
    mapped = uriscan.scan(md, doc="markdown", base=base)
    assert [f.uri for f in mapped] == [
        "https://xn--r8jz45g.jp/%E6%96%87%E6%9B%B8/%E3%83%9A%E3%83%BC%E3%82%B8.md"
    ]


def test_a_document_gives_its_links_with_their_fields():
    md = b"See [the guide](../guide.md) and `http://localhost:8080/`.\n"
    found = uriscan.scan(md, doc="markdown", base="https://d.example/a/b.md")
    assert [(f.uri, f.line, f.column) for f in found] == [
        ("https://d.example/guide.md", 1, 17),
        ("http://localhost:8080/", 1, 35),
    ]
    guide, code = found
    assert (guide.relative, guide.resolved, guide.in_code) == (
        True,
        "https://d.example/guide.md",
        False,
    )
    assert (code.relative, code.resolved, code.in_code) == (False, None, True)
    assert guide.as_dict()["resolved"] == "https://d.example/guide.md"
    assert "relative" not in code.as_dict() and code.as_dict()["in_code"] is True
    # As text, the same bytes give only the URI, without document fields.
    (text,) = uriscan.scan(md)
    assert (text.uri, text.in_code, text.relative) == ("http://localhost:8080/", None, False)


def test_the_options_choose_the_links():
    md = b"[a](../a.md) [f](#top) `https://code.example/` https://t.example/\n"
    uris = lambda **kw: [f.uri for f in uriscan.scan(md, doc="markdown", **kw)]
    assert uris() == ["https://code.example/", "https://t.example/"]
    assert uris(relative=True, fragments=True) == [
        "../a.md",
        "#top",
        "https://code.example/",
        "https://t.example/",
    ]
    assert uris(skip_code=True, base="https://d.example/x/") == [
        "https://d.example/a.md",
        "https://t.example/",
    ]


def test_a_man_page_is_read_as_roff_only_when_it_starts_like_one():
    page = b'.TH X 1\n.\\" comment\nSee http://ftp\\&.gnu.org/gnu/\\fR.\n'
    assert [f.uri for f in uriscan.scan(page, doc="man")] == ["http://ftp.gnu.org/gnu/"]
    log = b"GET http://ftp\\&.gnu.org/ 200\n"
    assert [f.uri for f in uriscan.scan(log, doc="man")] == ["http://ftp"]


def test_xml_is_read_with_its_references_decoded():
    xml = b"<loc>https://a.example/?id=7&amp;c=red</loc><!-- https://b.example/?x&amp;y -->\n"
    found = uriscan.scan(xml, doc="xml")
    assert [f.uri for f in found] == ["https://a.example/?id=7&c=red", "https://b.example/?x&amp;y"]
    assert xml[found[0].start : found[0].end] == b"https://a.example/?id=7&amp;c=red"
    assert [f.uri for f in uriscan.scan(xml)][0] == "https://a.example/?id=7&amp;c=red"


@pytest.mark.parametrize(
    "kw,message",
    [
        ({"doc": "auto"}, "needs a file's name"),
        ({"doc": "pdf"}, "doc must be None"),
        ({"doc": "html", "base": "docs/"}, "is relative"),
        ({"doc": "html", "base": "http://a b/"}, "base"),
    ],
)
def test_bad_document_options_are_value_errors(kw, message):
    with pytest.raises(ValueError, match=message):
        uriscan.scan(b"", **kw)


def test_scan_file_reads_documents_by_name_unless_told_not_to(tmp_path):
    page = tmp_path / "page.md"
    page.write_bytes(b"[x](https://a.example/x) `https://b.example/`\n")
    assert [f.in_code for f in uriscan.scan_file(page)] == [False, True]
    as_text = uriscan.scan_file(page, doc=None)
    assert [(f.uri, f.in_code) for f in as_text] == [
        ("https://a.example/x", None),
        ("https://b.example/", None),
    ]


@pytest.mark.parametrize(
    "flags,kw",
    [
        ([], {}),
        (["--relative", "--fragments"], {"relative": True, "fragments": True}),
        (["--skip-code"], {"skip_code": True}),
        (["--doc-mode", "off"], {"doc": None}),
    ],
)
def test_the_fixture_tree_equals_the_command(cli, flags, kw):
    files = files_under(DOCS)
    want = cli_json(cli, flags + [str(p) for p in files])
    assert sum(map(len, want.values())) > 10
    for path in files:
        got = [f.as_dict() for f in uriscan.scan_file(path, **kw)]
        assert got == want.get(str(path), []), path


def test_a_base_places_each_file_under_it_as_the_command_does(cli):
    want = cli_json(cli, ["--base", BASE, DOCS])
    resolved = 0
    for path in files_under(DOCS):
        own_uri = BASE + path.relative_to(DOCS).as_posix()
        got = [f.as_dict() for f in uriscan.scan_file(path, base=own_uri)]
        assert got == want.get(str(path), []), path
        resolved += sum("resolved" in r for r in got)
    assert resolved >= 5


def test_rst_is_read_with_its_code_and_links_told_apart():
    rst = (
        b"Install it::\n\n    pip install https://example.org/pkg.zip\n\n"
        b"See `the guide <https://docs.example.org/guide/\n  install.html>`_.\n\n"
        b".. This comment names http://www.gnu.org/licenses/\n\n"
        b".. _target: https://target.example/a/\n   b.html\n"
    )
    assert uriscan.doc_kind("index.rst") == "rst"
    found = uriscan.scan(rst, doc="rst")
    assert [(f.uri, f.line, f.in_code) for f in found] == [
        ("https://example.org/pkg.zip", 3, True),
        ("https://docs.example.org/guide/install.html", 5, False),
        ("https://target.example/a/b.html", 10, False),
    ]
    assert [f.uri for f in uriscan.scan(rst, doc="rst", skip_code=True)] == [
        "https://docs.example.org/guide/install.html",
        "https://target.example/a/b.html",
    ]


def test_asciidoc_is_read_with_its_code_and_links_told_apart():
    adoc = (
        b":url-docs: https://docs.example.org/v2\n\n"
        b"Read link:{url-docs}/guide.html[the guide] or link:++https://x.example/a_b_c++[X].\n\n"
        b"----\ncurl https://api.example.com/v1\n----\n\n"
        b"// https://comment.example/\n"
    )
    assert uriscan.doc_kind("README.adoc") == "asciidoc"
    assert uriscan.doc_kind("key.asc") is None
    found = uriscan.scan(adoc, doc="asciidoc")
    assert [(f.uri, f.line, f.in_code) for f in found] == [
        ("https://docs.example.org/v2", 1, False),
        ("https://docs.example.org/v2/guide.html", 3, False),
        ("https://x.example/a_b_c", 3, False),
        ("https://api.example.com/v1", 6, True),
    ]
    assert [f.uri for f in uriscan.scan(adoc, doc="asciidoc", skip_code=True)] == [
        "https://docs.example.org/v2",
        "https://docs.example.org/v2/guide.html",
        "https://x.example/a_b_c",
    ]
