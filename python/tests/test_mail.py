"""Mail reading through the Python package: detection as the command line
does it, decoding, message and part fields, positions in the input,
warnings. test_parity.py compares every field with the command line's."""

import io

import pytest

import uriscan

MBOX = (
    b"From a Mon Jan 1 00:00:00 2024\n"
    b"Message-ID: <m1@x>\n"
    b"List-Archive: <https://lists.example.org/archive/>\n"
    b"Subject: a\n"
    b"Content-Type: text/plain\n"
    b"Content-Transfer-Encoding: quoted-printable\n"
    b"\n"
    b"see <https://example.org/very/long/pa=\nth?x=3D1>\n"
    b"\n"
    b"From b Mon Jan 1 00:00:00 2024\n"
    b"Subject: b\n"
    b"From: q@r\n"
    b"\n"
    b"http://two.example/\n"
)


def places(found):
    return [(f.message_line, f.message_id, f.part, f.uri) for f in found]


def test_an_mbox_is_read_as_mail():
    want = [
        (1, "m1@x", "header:List-Archive", "https://lists.example.org/archive/"),
        (1, "m1@x", "text/plain", "https://example.org/very/long/path?x=1"),
        (11, None, "text/plain", "http://two.example/"),
    ]
    assert places(uriscan.scan(MBOX)) == want
    assert places(uriscan.scan(MBOX, mail=True)) == want
    assert places(uriscan.iter_scan(io.BytesIO(MBOX))) == want
    assert list(uriscan.scan(MBOX)[0].as_dict())[-3:] == ["message_id", "message_line", "part"]


def test_positions_are_those_of_the_input():
    # As in plain text: where the URI is written, encoded; the span of the
    # quoted-printable one covers its soft line break and its =3D.
    found = uriscan.scan(MBOX)
    assert [(f.line, f.column) for f in found] == [(3, 16), (8, 6), (15, 1)]
    assert [MBOX[f.start : f.end] for f in found] == [
        b"https://lists.example.org/archive/",
        b"https://example.org/very/long/pa=\nth?x=3D1",
        b"http://two.example/",
    ]
    assert list(uriscan.iter_scan(io.BytesIO(MBOX))) == found


def test_mail_false_reads_the_raw_text():
    found = uriscan.scan(MBOX, mail=False)
    assert {f.part for f in found} == {None}
    assert "https://example.org/very/long/pa=th?x=3D1" in [f.uri for f in found]


def test_a_single_message_is_recognized_by_its_header_block():
    eml = b"From: x@y\nSubject: a\nContent-Type: text/html\n\n<a href=\"http://x.org/?a=1&amp;b=2\">x</a>\n"
    assert places(uriscan.scan(eml)) == [(1, None, "text/html", "http://x.org/?a=1&b=2")]
    # Prose that merely starts with a field-like line is not mail.
    prose = b"Subject: a\nthis is not a header http://x.org/?a=1&amp;b=2\n"
    assert [f.part for f in uriscan.scan(prose)] == [None]


def test_mail_is_recognized_after_a_byte_order_mark_and_streamed(tmp_path):
    path = tmp_path / "box"
    path.write_bytes(b"\xef\xbb\xbf" + MBOX * 2000)
    found = uriscan.scan_file(path)
    assert len(found) == 6000 and {f.part for f in found} == {"header:List-Archive", "text/plain"}
    with open(path, "rb") as fh:
        assert list(uriscan.iter_scan(fh)) == found


def test_malformed_mail_is_scanned_with_a_warning():
    broken = b"Subject: a\nFrom: x@y\nContent-Transfer-Encoding: base64\n\nsee http://x.org/a !\n"
    with pytest.warns(uriscan.ScanWarning, match="message at line 1"):
        found = uriscan.scan(broken)
    assert places(found) == [(1, None, "text/plain", "http://x.org/a")]
    with pytest.warns(uriscan.ScanWarning, match="message at line 1"):
        assert list(uriscan.iter_scan(io.BytesIO(broken))) == found


def test_too_long_candidates_in_mail_are_warned_about():
    eml = b"From: x@y\nSubject: a\n\nx http://a.org/" + b"a" * 70000 + b" y http://b.org/\n"
    with pytest.warns(uriscan.ScanWarning, match="1 candidate.* of 64 KiB or more"):
        found = uriscan.scan(eml)
    assert places(found) == [(1, None, "text/plain", "http://b.org/")]


def test_a_nul_in_mail_does_not_make_it_binary(tmp_path):
    # An attachment sent as `binary` may hold a NUL: mail is read whole,
    # as the command line reads it, even with skip_binary.
    mbox = MBOX.replace(b"see <", b"\x00 see <", 1)
    want = ["https://lists.example.org/archive/", "https://example.org/very/long/path?x=1", "http://two.example/"]
    assert [f.uri for f in uriscan.scan(mbox, skip_binary=True)] == want
    path = tmp_path / "box.mbox"
    path.write_bytes(mbox)
    assert [f.uri for f in uriscan.scan_file(path, skip_binary=True)] == want
    assert uriscan.scan(b"\x00http://blob.example/\n", skip_binary=True) == []
