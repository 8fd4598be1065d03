"""Find URIs in text the way RFC 3986 Appendix C says a careful reader should.

The Python face of the ``uriscan`` Rust library and command: what
:func:`scan` finds in some bytes is what ``uriscan --json`` prints for
them, field for field.

>>> import uriscan
>>> [f.uri for f in uriscan.scan(b"see <http://example.org/a/\\n  b>.")]
['http://example.org/a/b']
>>> uriscan.parse("http://a/b?").query
''
>>> uriscan.resolve("http://a/b/c/d;p?q", "../g")
'http://a/b/g'
"""

from ._uriscan import (
    Found,
    FoundIter,
    InternalError,
    ScanWarning,
    UriError,
    UriRef,
    __version__,
    doc_kind,
    iter_scan,
    normalize,
    parse,
    resolve,
    scan,
    scan_file,
)

__all__ = [
    "Found",
    "FoundIter",
    "InternalError",
    "ScanWarning",
    "UriError",
    "UriRef",
    "__version__",
    "doc_kind",
    "iter_scan",
    "normalize",
    "parse",
    "resolve",
    "scan",
    "scan_file",
]
