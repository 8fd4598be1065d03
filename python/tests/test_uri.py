"""parse, resolve and normalize through the Python package: the RFC
examples, absent versus empty, errors, and parity with ``uriscan parse``
and ``uriscan normalize`` over the shared test vectors."""

import json
import subprocess

import pytest

import uriscan
from conftest import shared

# RFC 3986 section 5.4.1 and 5.4.2, base "http://a/b/c/d;p?q".
RESOLUTION = {
    "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/", "/g": "http://a/g", "//g": "http://g",
    "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s", "": "http://a/b/c/d;p?q",
    "../..": "http://a/", "../../../g": "http://a/g", "/./g": "http://a/g",
    "g.": "http://a/b/c/g.", "..g": "http://a/b/c/..g",
    "./../g": "http://a/b/g", "g;x=1/../y": "http://a/b/c/y",
    "g#s/../x": "http://a/b/c/g#s/../x", "http:g": "http:g",
}


def test_components_keep_absent_and_empty_apart():
    u = uriscan.parse("ldap://[2001:db8::7]/c=GB?objectClass?one")
    assert (u.scheme, u.host, u.host_kind, u.port, u.path, u.query, u.fragment) == (
        "ldap", "[2001:db8::7]", "ipv6", None, "/c=GB", "objectClass?one", None,
    )
    assert (uriscan.parse("s:").query, uriscan.parse("s:?").query) == (None, "")
    assert (uriscan.parse("s:#").fragment, uriscan.parse("file:///x").host) == ("", "")
    u = uriscan.parse("https://user@example.com:8080/a?q=1#top")
    assert (u.userinfo, u.port, u.port_number, u.is_absolute) == ("user", "8080", 8080, True)
    assert not uriscan.parse("../a").is_absolute
    assert uriscan.UriRef("http://a/b") == uriscan.parse("http://a/b")
    assert str(u) == "https://user@example.com:8080/a?q=1#top"


def test_errors_carry_index_and_kind():
    for text, index, kind in [
        ("http://[::1/x", 7, "unclosed_ip_literal"),
        ("http://example.com:8a/", 20, "port"),
        ("a:b/%zz", 4, "percent_encoding"),
        ("a:b c", 3, "path"),
        ("x:y#a#b", 5, "fragment"),
        ("1a:b", 2, "colon_in_first_segment"),
        ("http://é.org/", 7, "host"),
    ]:
        with pytest.raises(uriscan.UriError) as err:
            uriscan.parse(text)
        assert (err.value.index, err.value.kind) == (index, kind), text
        assert isinstance(err.value, ValueError)
        assert f"at byte {index}" in str(err.value)


def test_resolution_follows_section_5_4():
    for reference, target in RESOLUTION.items():
        assert uriscan.resolve("http://a/b/c/d;p?q", reference) == target, reference
    assert uriscan.parse("http://a/b/c/d;p?q").resolve("../g") == "http://a/b/g"
    with pytest.raises(ValueError, match="no scheme"):
        uriscan.resolve("/relative/base", "g")
    with pytest.raises(uriscan.UriError):
        uriscan.resolve("http://a/", "a b")


def test_normalization():
    assert uriscan.normalize("HTTP://Example.COM:80/%7euser/./a/../b") == "http://example.com/~user/b"
    assert uriscan.parse("hTtp://A/%7e").normalize() == "http://a/~"
    with pytest.raises(uriscan.UriError):
        uriscan.normalize("http://[::1")


def vector_inputs(name, key):
    """The distinct inputs of a shared vectors file that fit on one line."""
    records = json.loads((shared("vectors") / name).read_text())[key]
    inputs = dict.fromkeys(r["input"] for r in records)
    return [s for s in inputs if "\n" not in s and "\r" not in s]


def run_cli(cli, command, inputs):
    out = subprocess.run(
        [cli, command], input="\n".join(inputs).encode() + b"\n",
        capture_output=True, check=False,
    )
    return out.stdout.decode().splitlines()


def test_parse_equals_the_command_over_the_vectors(cli):
    inputs = vector_inputs("combined_parse.json", "parse")
    lines = run_cli(cli, "parse", inputs)
    assert len(lines) == len(inputs)
    for text, line in zip(inputs, lines):
        want = json.loads(line)
        if want["valid"]:
            got = uriscan.parse(text).as_dict()
            assert got == {k: v for k, v in want.items() if k in got}, text
        else:
            with pytest.raises(uriscan.UriError) as err:
                uriscan.parse(text)
            assert (str(err.value), err.value.index) == (want["error"], want["index"]), text


def test_normalize_equals_the_command_over_the_vectors(cli):
    inputs = vector_inputs("combined_normalize.json", "normalize")
    valid = []
    for text in inputs:
        try:
            valid.append((text, uriscan.normalize(text)))
        except uriscan.UriError:
            pass
    # The command prints the valid ones only (errors go to stderr).
    assert run_cli(cli, "normalize", [t for t, _ in valid]) == [n for _, n in valid]
