"""Type stubs of the extension module; the docstrings are on the objects."""

import os
from typing import BinaryIO, Iterator, Literal, Optional, Protocol, Union

__version__: str

Hyphen = Literal["keep", "drop", "both"]
DocKind = Literal["html", "markdown", "man", "xml", "rst", "asciidoc"]
# What ``open`` takes as a file's path (typeshed's name).
StrOrBytesPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class _Readable(Protocol):
    def read(self, size: int, /) -> Union[bytes, bytearray]: ...

class Found:
    """One URI found, with the fields of ``uriscan --json``."""

    @property
    def uri(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def delimiter(self) -> Literal["angle", "quote", "none"]: ...
    @property
    def wrapped(self) -> bool: ...
    @property
    def url_prefix(self) -> bool: ...
    @property
    def hyphen_break(self) -> bool: ...
    @property
    def iri(self) -> Optional[str]: ...
    @property
    def message_id(self) -> Optional[str]: ...
    @property
    def message_line(self) -> Optional[int]: ...
    @property
    def part(self) -> Optional[str]: ...
    @property
    def in_code(self) -> Optional[bool]: ...
    @property
    def relative(self) -> bool: ...
    @property
    def resolved(self) -> Optional[str]: ...
    def as_dict(self) -> dict[str, Union[str, int, bool, None]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class FoundIter(Iterator[Found]):
    """The URIs of a stream, found as it is read (see ``iter_scan``)."""

    def __iter__(self) -> "FoundIter": ...
    def __next__(self) -> Found: ...

class UriRef:
    """A URI reference parsed by the RFC 3986 grammar."""

    def __init__(self, text: str) -> None: ...
    @property
    def scheme(self) -> Optional[str]: ...
    @property
    def authority(self) -> Optional[str]: ...
    @property
    def userinfo(self) -> Optional[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def host_kind(self) -> Optional[Literal["ipv4", "ipv6", "ipvfuture", "reg-name"]]: ...
    @property
    def port(self) -> Optional[str]: ...
    @property
    def port_number(self) -> Optional[int]: ...
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def is_absolute(self) -> bool: ...
    def resolve(self, reference: str) -> str: ...
    def normalize(self) -> str: ...
    def as_dict(self) -> dict[str, Optional[str]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class UriError(ValueError):
    """A URI reference that RFC 3986 does not allow."""

    index: int
    kind: str

class InternalError(RuntimeError):
    """A bug in uriscan: the Rust code panicked."""

class ScanWarning(UserWarning):
    """A problem that did not stop a scan (malformed mail, over-long candidates)."""

def scan(
    data: Union[bytes, bytearray, str],
    *,
    mail: Optional[bool] = None,
    any_scheme: bool = False,
    json_escapes: bool = True,
    hyphen: Hyphen = "keep",
    iri: Literal["uri", "keep", "off"] = "uri",
    skip_binary: bool = False,
    encoding: str = "auto",
    doc: Optional[DocKind] = None,
    base: Optional[str] = None,
    relative: bool = False,
    fragments: bool = False,
    skip_code: bool = False,
) -> list[Found]: ...
def scan_file(
    path: StrOrBytesPath,
    *,
    mail: Optional[bool] = None,
    any_scheme: bool = False,
    json_escapes: bool = True,
    hyphen: Hyphen = "keep",
    iri: Literal["uri", "keep", "off"] = "uri",
    skip_binary: bool = False,
    encoding: str = "auto",
    doc: Optional[Union[DocKind, Literal["auto"]]] = "auto",
    base: Optional[str] = None,
    relative: bool = False,
    fragments: bool = False,
    skip_code: bool = False,
) -> list[Found]: ...
def iter_scan(
    binary_file: Union[BinaryIO, _Readable],
    *,
    mail: Optional[bool] = None,
    any_scheme: bool = False,
    json_escapes: bool = True,
    hyphen: Hyphen = "keep",
    iri: Literal["uri", "keep", "off"] = "uri",
    skip_binary: bool = False,
    encoding: str = "auto",
    doc: Optional[DocKind] = None,
    base: Optional[str] = None,
    relative: bool = False,
    fragments: bool = False,
    skip_code: bool = False,
) -> FoundIter: ...
def doc_kind(path: StrOrBytesPath) -> Optional[DocKind]: ...
def parse(text: str) -> UriRef: ...
def resolve(base: str, reference: str) -> str: ...
def normalize(text: str) -> str: ...
