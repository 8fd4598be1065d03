"""Text encodings, as the command line's ``-E``: input in UTF-16 (or
after a UTF-8 byte-order mark, or in an encoding named) is decoded before
it is scanned, and what is found is placed in the input's own bytes.
Found by a black-box run: the package scanned such files as bytes (a
UTF-16 file gave nothing; a man page after a BOM was not read as roff)."""

import io

import pytest

import uriscan
from conftest import ROOT, cli_json, files_under

ENCODINGS = ROOT / "fixtures" / "encodings"

UTF16 = "see http://a.example/x and <http://b.example/\n  y>\n".encode("utf-16")

# A page in the encoding its <meta> declares, and a feed in the one its XML
# declaration does: documents are decoded from it.
LATIN1_PAGE = (
    '<meta charset="iso-8859-1"><a href="https://example.org/café">x</a> '
    "https://example.org/naïve\n"
).encode("latin-1")
EUC_KR_FEED = (
    '<?xml version="1.0" encoding="euc-kr"?>\n'
    "<link>http://example.kr/archives/한글.php</link>\n"
).encode("euc-kr")


def every_way(data, path, **kw):
    """What ``scan``, ``scan_file`` and ``iter_scan`` give for ``data``,
    written at ``path``, as dicts; they must agree."""
    path.write_bytes(data)
    doc = uriscan.doc_kind(path)
    got = [f.as_dict() for f in uriscan.scan(data, doc=doc, **kw)]
    assert [f.as_dict() for f in uriscan.scan_file(path, **kw)] == got
    with open(path, "rb") as fh:
        assert [f.as_dict() for f in uriscan.iter_scan(fh, doc=doc, **kw)] == got
    return got


@pytest.mark.parametrize(
    "name,data",
    [
        ("u16.txt", UTF16),
        ("u16be.txt", b"\xfe\xff" + "http://a.example/é\n".encode("utf-16-be")),
        ("bom.1", b"\xef\xbb\xbf.TH X 1\n.SH SEE\nhttp://x.example/a\\-b\n"),
        ("bomcode.md", b'\xef\xbb\xbf    "http://x.example/a"\n\ntext http://y.example/\n'),
        ("u16.html", '<a href="http://h.example/p">x</a>'.encode("utf-16")),
        ("bare-ff-fe.txt", b"\xff\xfehttp://not.utf16.example/\n"),
        ("latin1.html", LATIN1_PAGE),
        ("latin1.txt", LATIN1_PAGE),
        ("euc-kr.xml", EUC_KR_FEED),
    ],
)
def test_decoded_input_equals_the_command(cli, tmp_path, name, data):
    got = every_way(data, tmp_path / name)
    want = cli_json(cli, [tmp_path / name])[str(tmp_path / name)]
    assert got == want


def test_the_fixtures_equal_the_command_with_each_encoding(cli):
    files = [p for p in files_under(ENCODINGS) if p.suffix == ".txt"]
    for label, kw in [("auto", {}), ("none", {"encoding": "none"}), ("latin1", {"encoding": "latin1"}), ("shift_jis", {"encoding": "Shift_JIS"})]:
        want = cli_json(cli, ["-E", label, *files])
        for path in files:
            got = [f.as_dict() for f in uriscan.scan_file(path, **kw)]
            assert got == want.get(str(path), []), (label, path.name)


def test_utf16_positions_are_the_inputs_bytes():
    found = uriscan.scan(UTF16)
    assert [f.uri for f in found] == ["http://a.example/x", "http://b.example/y"]
    text = UTF16[found[0].start : found[0].end].decode("utf-16-le")
    assert text == "http://a.example/x"
    # After the BOM (2 bytes) and "see " (8): column 11 of line 1.
    assert (found[0].line, found[0].column, found[1].wrapped) == (1, 11, True)
    assert uriscan.scan(UTF16, encoding="none") == []
    assert list(uriscan.iter_scan(io.BytesIO(UTF16))) == found


def test_a_bad_encoding_is_a_value_error():
    with pytest.raises(ValueError, match="encoding must be"):
        uriscan.scan(b"x", encoding="klingon")


def test_documents_are_decoded_from_the_encoding_they_declare(tmp_path):
    got = every_way(LATIN1_PAGE, tmp_path / "page.html")
    assert [f["iri"] for f in got] == ["https://example.org/café", "https://example.org/naïve"]
    assert got[0]["uri"] == "https://example.org/caf%C3%A9"
    assert LATIN1_PAGE[got[1]["start"] : got[1]["end"]].decode("latin-1") == got[1]["iri"]
    feed = every_way(EUC_KR_FEED, tmp_path / "feed.xml")
    assert [f["iri"] for f in feed] == ["http://example.kr/archives/한글.php"]
    assert [f.uri for f in uriscan.scan(LATIN1_PAGE, doc="html", encoding="none")] == [
        "https://example.org/na"
    ]


def test_a_str_is_not_decoded_again_by_what_it_declares():
    # Python decoded the text already: é is é, whatever the page says.
    page = '<meta charset="iso-8859-1">' + " " * 9000 + "https://example.org/café\n"
    [found] = uriscan.scan(page, doc="html")
    assert found.iri == "https://example.org/café"
    [as_bytes] = uriscan.scan(page.encode(), doc="html")
    assert as_bytes.iri.startswith("https://example.org/cafÃ")
