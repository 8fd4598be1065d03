"""The scanner through the Python package: a shared subset of the Rust
scanner tables (tests/scan.rs, same marked-up cases), every case re-run
through ``iter_scan`` with tiny reads, and what the binding adds (input
types, options, streaming, the GIL, warnings, errors)."""

import io
import itertools
import os
import threading
import time
import warnings
from pathlib import Path

import pytest

import uriscan

# (marked-up text, URIs expected): `|` marks where each URI's span starts
# and ends; the markers are removed before scanning. From tests/scan.rs.
CASES = [
    ("see <|http://example.org/a.|>.", ["http://example.org/a."]),
    ("<|http://a.org/very/\n     long/path|>", ["http://a.org/very/long/path"]),
    ("<|http://a.org/x/\r\n\tyz|> ok", ["http://a.org/x/yz"]),
    ("<URL:|http://a.org/|>", ["http://a.org/"]),
    ("<URL:\n  |ftp://a.org/x|>", ["ftp://a.org/x"]),
    ("> see <|http://a.org/very/\n> long/path|>", ["http://a.org/very/long/path"]),
    ("<|http://a.org/x/|\n\nnext paragraph>", ["http://a.org/x/"]),
    ('<a href="|http://x.org/|">', ["http://x.org/"]),
    ("<user@example.com> <1234.5678@mail.example.net>", []),
    ("<|mailto:user@example.com|>", ["mailto:user@example.com"]),
    (
        "see <|http://www.example.com/some/\n\n\n\nDoe                      "
        "Informational                     [Page 7]\n\x0c\nRFC 9999         "
        "         Some Title                    May 2020\n\n\n   path/file.txt|>.",
        ["http://www.example.com/some/path/file.txt"],
    ),
    ("<|http://a.org/some-\n   thing|>", ["http://a.org/some-thing"]),
    ("<|http://a.org/type\u2010\nsetting|>", ["http://a.org/typesetting"]),
    ('href="|http://x.org/a.|"', ["http://x.org/a."]),
    ('"see |http://x.org/a|. now"', ["http://x.org/a"]),
    ("Go to |http://x.org/a|.", ["http://x.org/a"]),
    ("(|http://x.org/a|).", ["http://x.org/a"]),
    (
        "|https://en.wikipedia.org/wiki/Rust_(programming_language)|",
        ["https://en.wikipedia.org/wiki/Rust_(programming_language)"],
    ),
    ("one: |http://a.org/|, two: |ftp://b.org/x|; three!", ["http://a.org/", "ftp://b.org/x"]),
    # Letters glued after a URI belong to it: an IRI, given as its URI.
    ("日本語|http://example.jp/パスです|", ["http://example.jp/%E3%83%91%E3%82%B9%E3%81%A7%E3%81%99"]),
    ("「|http://example.jp/a|」。", ["http://example.jp/a"]),
    (
        "mail |mailto:fred@example.com|, |urn:ietf:rfc:3986|, |tel:+1-816-555-1212|.",
        ["mailto:fred@example.com", "urn:ietf:rfc:3986", "tel:+1-816-555-1212"],
    ),
    ("Re: Note: 12:30 C:\\dir key:value v1.2.3:beta", []),
    ("info:pending mailto:nobody message:hello session:abc", []),
    ("http://[::1/x http://example.com:8a/ http://x.org/%zz", []),
    ("see /a/b.html, ../x and www.example.com or ftp.example.org", []),
    (
        '      Yes, Jim, I found it under "|http://www.w3.org/Addressing/|",\n'
        "      but you can probably pick it up from <|ftp://foo.example.\n"
        "      com/rfc/|>.  Note the warning in <|http://www.ics.uci.edu/pub/\n"
        "      ietf/uri/historical.html#WARNING|>.\n",
        [
            "http://www.w3.org/Addressing/",
            "ftp://foo.example.com/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
        ],
    ),
    ("\x00\x01|http://a.org/|\x00", ["http://a.org/"]),
]


def unmark(marked):
    """The text without its `|` markers (UTF-8), and the marked spans in
    bytes."""
    text, marks = b"", []
    for i, part in enumerate(marked.split("|")):
        if i > 0:
            marks.append(len(text))
        text += part.encode()
    assert len(marks) % 2 == 0, marked
    return text, list(zip(marks[::2], marks[1::2]))


class Trickle(io.RawIOBase):
    """A binary file that gives at most ``size`` bytes per read."""

    def __init__(self, data, size):
        self.data, self.size, self.pos = data, size, 0

    def readable(self):
        return True

    def read(self, n=-1):
        n = self.size if n < 0 else min(n, self.size)
        chunk = self.data[self.pos : self.pos + n]
        self.pos += len(chunk)
        return chunk


@pytest.mark.parametrize("marked,want", CASES)
def test_scanner_rules(marked, want):
    text, spans = unmark(marked)
    found = uriscan.scan(text)
    assert [f.uri for f in found] == want
    assert [(f.start, f.end) for f in found] == spans
    for size in (1, 2, 3, 7, 64):
        assert list(uriscan.iter_scan(Trickle(text, size))) == found, size


def test_str_bytearray_and_bytes_agree():
    text = "日本語 <http://example.jp/\n  a> and http://x.org/b."
    found = uriscan.scan(text.encode())
    assert [f.uri for f in found] == ["http://example.jp/a", "http://x.org/b"]
    assert uriscan.scan(text) == found
    assert uriscan.scan(bytearray(text.encode())) == found
    with pytest.raises(TypeError, match="bytes, bytearray or str"):
        uriscan.scan(["http://x.org/"])


def test_fields_and_as_dict():
    (f,) = uriscan.scan(b"first\r\ns\xc3\xa9cond\n\n  <URL:http://b.org/x-\n y>")
    assert (f.uri, f.line, f.column, f.delimiter) == ("http://b.org/x-y", 4, 8, "angle")
    assert f.wrapped and f.url_prefix and f.hyphen_break
    assert (f.message_id, f.message_line, f.part) == (None, None, None)
    assert list(f.as_dict()) == [
        "line", "column", "start", "end", "uri", "delimiter",
        "wrapped", "url_prefix", "hyphen_break",
    ]
    assert str(f) == f.uri and "http://b.org/x-y" in repr(f)
    assert len({f, uriscan.scan(b"first\r\ns\xc3\xa9cond\n\n  <URL:http://b.org/x-\n y>")[0]}) == 1


def test_lines_and_columns_count_bytes_from_one():
    found = uriscan.scan("first\r\nsécond http://a.org/\n\n  <http://b.org/x\n y>")
    assert [(f.line, f.column) for f in found] == [(2, 9), (4, 4)]


def test_hyphen_and_any_scheme_options():
    text = b"<http://a.org/some-\n   thing>"
    assert [f.uri for f in uriscan.scan(text, hyphen="drop")] == ["http://a.org/something"]
    assert [f.uri for f in uriscan.scan(text, hyphen="both")] == [
        "http://a.org/some-thing",
        "http://a.org/something",
    ]
    assert [f.uri for f in uriscan.scan(b"key:value Re:x")] == []
    assert [f.uri for f in uriscan.scan(b"key:value Re:x", any_scheme=True)] == ["key:value", "Re:x"]
    with pytest.raises(ValueError, match="hyphen"):
        uriscan.scan(b"", hyphen="maybe")


def test_json_escapes_are_decoded_unless_asked_not_to():
    log = b'{"u":"https:\\/\\/a.example\\/q?x=1\\u0026y=2"}\n'
    [found] = uriscan.scan(log)
    assert found.uri == "https://a.example/q?x=1&y=2"
    # The span is that of the escaped text in the input.
    assert log[found.start : found.end] == b"https:\\/\\/a.example\\/q?x=1\\u0026y=2"
    assert [f.uri for f in uriscan.iter_scan(io.BytesIO(log))] == [found.uri]
    assert uriscan.scan(log, json_escapes=False) == []


def test_iris_are_read_whole_and_mapped_as_iri_says():
    text = "見て http://例え.jp/パス。 and http://x.org/"
    [iri, plain] = uriscan.scan(text)
    assert iri.uri == "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"
    assert iri.iri == "http://例え.jp/パス"
    assert iri.as_dict()["iri"] == iri.iri
    assert plain.iri is None and "iri" not in plain.as_dict()
    kept = uriscan.scan(text, iri="keep")
    assert [f.uri for f in kept] == ["http://例え.jp/パス", "http://x.org/"]
    assert kept[0].iri is None
    assert [f.uri for f in uriscan.scan(text, iri="off")] == ["http://x.org/"]
    with pytest.raises(ValueError, match="iri must be"):
        uriscan.scan(text, iri="idna")


def test_skip_binary_looks_at_the_first_8_kib_as_the_command_does():
    late_nul = b"x" * 8192 + b"\x00 http://a.org/"
    early_nul = b"\x00 http://a.org/"
    assert [f.uri for f in uriscan.scan(early_nul)] == ["http://a.org/"]
    assert uriscan.scan(early_nul, skip_binary=True) == []
    assert [f.uri for f in uriscan.scan(late_nul, skip_binary=True)] == ["http://a.org/"]
    assert list(uriscan.iter_scan(io.BytesIO(early_nul), skip_binary=True)) == []


def test_scan_file_and_iter_scan_equal_scan(tmp_path):
    text = b"".join(b"line %d <http://h%d.org/a/\n  b> x\n" % (i, i) for i in range(20000))
    path = tmp_path / "big.txt"
    path.write_bytes(text)
    found = uriscan.scan(text)
    assert len(found) == 20000 and found[-1].line == 39999
    assert uriscan.scan_file(path) == found
    assert uriscan.scan_file(str(path)) == found
    with open(path, "rb") as fh:
        assert list(uriscan.iter_scan(fh)) == found


def raised(f, *args):
    """The ``OSError`` that ``f(*args)`` raises."""
    with pytest.raises(OSError) as err:
        f(*args)
    return err.value


@pytest.mark.parametrize(
    "as_given",
    [str, os.fsencode, Path, lambda p: BytesPathLike(os.fsencode(p))],
    ids=["str", "bytes", "Path", "PathLike-bytes"],
)
def test_scan_file_errors_are_opens(tmp_path, as_given):
    # A black-box review found `filename` a Path whatever the path given
    # (`open` gives it as `os.fspath` does: a str stays a str, bytes stay
    # bytes); a directory opens, then fails to read, and a black-box run
    # found its errno and filename None.
    for path in [as_given(str(tmp_path / "missing")), as_given(str(tmp_path))]:
        ours, opens = raised(uriscan.scan_file, path), raised(open, path, "rb")
        assert type(ours) is type(opens), path
        assert (ours.errno, ours.strerror) == (opens.errno, opens.strerror), path
        assert ours.filename == opens.filename == os.fspath(path), path
        assert type(ours.filename) is type(opens.filename), path
        assert str(ours) == str(opens)


class BytesPathLike:
    """An ``os.PathLike`` that gives ``bytes``, as ``open`` takes."""

    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@pytest.mark.parametrize("name", [b"plain.md", b"not-utf8-\xff.md"])
def test_scan_file_takes_every_path_open_takes(tmp_path, name):
    # Found by a black-box review: a bytes path raised TypeError.
    path = os.path.join(os.fsencode(tmp_path), name)
    try:
        with open(path, "wb") as fh:
            fh.write(b"[a](http://a.example/) http://b.example/\n")
    except OSError:
        pytest.skip("the file system refuses a file name that is not UTF-8")
    want = ["http://a.example/", "http://b.example/"]
    for given in [path, os.fsdecode(path), Path(os.fsdecode(path)), BytesPathLike(path)]:
        assert [f.uri for f in uriscan.scan_file(given)] == want, given
        assert uriscan.doc_kind(given) == "markdown", given
    with pytest.raises(TypeError, match="str, bytes or os.PathLike"):
        uriscan.scan_file(7)


class Endless(io.RawIOBase):
    """A log that never ends; counts the bytes read."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self):
        return True

    def readinto(self, buf):
        line = b"GET http://example.org/%d ok\n" % self.read_bytes
        n = min(len(buf), len(line))
        buf[:n] = line[:n]
        self.read_bytes += n
        return n


def test_iter_scan_streams_in_bounded_memory():
    source = Endless()
    it = uriscan.iter_scan(source)
    first = list(itertools.islice(it, 5000))
    assert len(first) == 5000 and first[0].uri == "http://example.org/0"
    # Read ahead by at most a few batches and buffers, not the stream.
    assert source.read_bytes < 4 << 20
    del it  # stops the worker; must not hang


def test_iter_scan_raises_what_read_raises():
    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise ConnectionResetError("peer went away")

    with pytest.raises(ConnectionResetError, match="peer went away"):
        list(uriscan.iter_scan(Broken()))


def test_iter_scan_is_read_by_one_thread_at_a_time():
    # Found by a black-box review: a second thread's next() raised
    # RuntimeError("Already borrowed"), and its iter() "Already mutably
    # borrowed". Each thread calls next(iter(it)); the read is slow until
    # one of them has failed, so the other is still waiting in next().
    failed = threading.Event()

    class Slow:
        def __init__(self):
            self.reads = 0

        def read(self, n):
            self.reads += 1
            if self.reads > 1:
                return b""
            failed.wait(5)
            return b"see http://a.example/ "

    it = uriscan.iter_scan(Slow())
    got = []

    def take():
        try:
            got.append(next(iter(it)).uri)
        except ValueError as err:
            got.append(str(err))
            failed.set()

    threads = [threading.Thread(target=take) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(got) == [
        "FoundIter already executing: another next() on it has not returned "
        "(share it between threads behind a lock)",
        "http://a.example/",
    ]
    assert list(it) == []


def test_iter_scan_refuses_text_files(tmp_path):
    (tmp_path / "t.txt").write_text("http://a.org/")
    with open(tmp_path / "t.txt") as fh, pytest.raises(TypeError, match="binary file"):
        list(uriscan.iter_scan(fh))
    with pytest.raises(TypeError, match="read method"):
        uriscan.iter_scan(b"http://a.org/")


def test_too_long_candidates_are_warned_about():
    text = b"x http://a.org/" + b"a" * 70000 + b" y http://b.org/"
    with pytest.warns(uriscan.ScanWarning, match="1 candidate.* of 64 KiB or more"):
        found = uriscan.scan(text)
    assert [f.uri for f in found] == ["http://b.org/"]


def test_the_gil_is_released_while_scanning():
    # Colons everywhere keep the scanner busy; no URI is found.
    text = b"Re: 12:30 key:value C:\\dir x:y\n" * 4_000_000
    gaps, done = [], threading.Event()

    def scan():
        start = time.perf_counter()
        assert uriscan.scan(text, mail=False) == []
        gaps.append(time.perf_counter() - start)
        done.set()

    worker = threading.Thread(target=scan)
    last, longest = time.perf_counter(), 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    (scan_time,) = gaps
    # Holding the GIL would stall this loop for the whole scan.
    assert scan_time > 0.05
    assert longest < scan_time / 2, (longest, scan_time)


def test_warnings_can_be_errors():
    text = b"x http://a.org/" + b"a" * 70000
    with warnings.catch_warnings():
        warnings.simplefilter("error", uriscan.ScanWarning)
        with pytest.raises(uriscan.ScanWarning):
            uriscan.scan(text)


def test_the_gc_is_left_as_it_was():
    import gc

    text = b"see http://a.org/ " * 5000  # enough URIs to pause the GC
    assert gc.isenabled()
    assert len(uriscan.scan(text)) == 5000 and gc.isenabled()
    gc.disable()
    try:
        assert len(uriscan.scan(text)) == 5000 and not gc.isenabled()
    finally:
        gc.enable()


INTERRUPTED = r"""
import os, signal, sys, threading, time
import uriscan
r, w = os.pipe()
path = sys.argv[2]
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    if sys.argv[1] == "iter_scan":
        with os.fdopen(r, "rb", buffering=0) as fh:
            for f in uriscan.iter_scan(fh):
                pass
    else:
        os.mkfifo(path)
        writer = os.open(path, os.O_RDWR)  # so that opening it does not wait
        uriscan.scan_file(path)
except KeyboardInterrupt:
    print("interrupted after %.1f s" % (time.monotonic() - start))
"""


@pytest.mark.parametrize("how", ["iter_scan", "scan_file"])
def test_ctrl_c_stops_a_scan_waiting_on_a_quiet_input(tmp_path, how):
    # Found by a black-box run: SIGINT was ignored until the pipe or FIFO
    # gave data (the wait held no check of Python's signals).
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", INTERRUPTED, how, str(tmp_path / "fifo")],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert run.stdout.startswith("interrupted"), (run.stdout, run.stderr)
