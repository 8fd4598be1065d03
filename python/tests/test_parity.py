"""Parity: over every file of ../shared/corpus, what the package finds is
what ``uriscan --json`` (built from the same tree) prints for that file,
record for record, with ``scan`` on the file's bytes, ``scan_file`` and
``iter_scan`` (the first and last told the document type the file's name
gives, as ``scan_file`` finds it); and again with options."""

import pytest

import uriscan
from conftest import cli_json, files_under, shared


@pytest.fixture(scope="module")
def corpus():
    return [str(p) for p in files_under(shared("corpus"))]


def mismatches(files, want, scan):
    """The files whose records differ from ``want``, with both."""
    bad = []
    for path in files:
        got = [f.as_dict() for f in scan(path)]
        if got != want.get(path, []):
            bad.append((path, got[:3], want.get(path, [])[:3]))
    return bad


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def stream(path, **kw):
    with open(path, "rb") as fh:
        return list(uriscan.iter_scan(fh, doc=uriscan.doc_kind(path), **kw))


@pytest.mark.filterwarnings("ignore::uriscan.ScanWarning")
def test_every_corpus_file_equals_the_command(cli, corpus):
    want = cli_json(cli, corpus)
    assert sum(map(len, want.values())) > 100_000
    # The command skips binary files; so do these calls.
    for name, scan in [
        ("scan", lambda p: uriscan.scan(read(p), doc=uriscan.doc_kind(p), skip_binary=True)),
        ("scan_file", lambda p: uriscan.scan_file(p, skip_binary=True)),
        ("iter_scan", lambda p: stream(p, skip_binary=True)),
    ]:
        bad = mismatches(corpus, want, scan)
        assert not bad, f"{name}: {len(bad)} of {len(corpus)} files differ: {bad[:3]}"


@pytest.mark.filterwarnings("ignore::uriscan.ScanWarning")
@pytest.mark.parametrize(
    "flags,kw",
    [
        (["--no-mail"], {"mail": False}),
        (["--mail", "--hyphen", "both"], {"mail": True, "hyphen": "both"}),
        (["--any-scheme", "--hyphen", "drop"], {"any_scheme": True, "hyphen": "drop"}),
        (["--doc-mode", "off"], {"doc": None}),
        (["--iri", "keep"], {"iri": "keep"}),
        (["--iri", "off"], {"iri": "off"}),
    ],
)
def test_options_equal_the_command(cli, corpus, flags, kw):
    want = cli_json(cli, flags + corpus)
    bad = mismatches(corpus, want, lambda p: uriscan.scan_file(p, skip_binary=True, **kw))
    assert not bad, f"{len(bad)} of {len(corpus)} files differ: {bad[:3]}"
