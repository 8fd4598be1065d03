//! Python bindings of `uriscan`: a thin layer over the library's public
//! API, built by maturin into the extension `uriscan._uriscan` of the
//! Python package `uriscan` (see `python/uriscan/`).
//!
//! What each function finds is what the `uriscan` command prints with
//! `--json` for the same bytes: the same scanner, the same 8 KiB probe to
//! tell mail from plain text, the same mail reading, through the library's
//! one sink (all of it in [`input`]). The GIL is released while the
//! library scans; no panic reaches Python (see [`error::guarded`]).

mod error;
mod found;
mod input;
mod iter;
mod reader;
mod uri;

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString};
use uriscan::doc::LinkFilter;

use crate::error::{guarded, warn_all, Failure, InternalError, ScanWarning, UriError};
use crate::found::Found;
use crate::input::{Collected, DocArgs, Options};
use crate::iter::FoundIter;
use crate::reader::{Interruptible, PyReader};
use crate::uri::UriRef;

/// Finds the URIs in ``data`` (``bytes``, ``bytearray``, or ``str``, which
/// is scanned as UTF-8) and returns them in order, as ``Found`` objects.
///
/// ``doc`` reads the input as a document: ``"html"``, ``"markdown"``,
/// ``"man"`` (roff source; read as text unless it starts like roff),
/// ``"xml"`` (references decoded), ``"rst"`` (reStructuredText) or
/// ``"asciidoc"``, as
/// the command line reads a file of that type (``doc_kind`` gives the
/// type of a file's name). A document gives the links its markup names
/// and the URIs its text holds; relative links are resolved against
/// ``base`` (the document's own URI; a ``<base href>`` in it wins) and
/// left out when no base is known, unless ``relative=True`` (then they
/// come as written); fragment-only links (``#top``) only with
/// ``fragments=True``; links in code are left out with ``skip_code=True``.
///
/// ``mail=None`` reads the input as mail (an mbox or one RFC 5322
/// message, decoded part by part) when its first 8 KiB look like mail, as
/// the command line decides; ``True`` or ``False`` forces it.
/// ``any_scheme=True`` accepts any scheme followed by ``:``, not only the
/// registered ones. ``json_escapes=False`` scans JSON strings as written
/// (by default their escapes, ``\\/`` and ``\\u0026``, are read as what
/// they stand for, as the command line does without
/// ``--no-json-escapes``). ``hyphen`` is how a line break right after ``-``
/// inside ``<...>`` is read: ``"keep"`` the hyphen, ``"drop"`` it, or
/// ``"both"`` readings. ``iri`` is what to make of a URI written with
/// non-ASCII characters (an IRI, read whole): ``"uri"`` gives the URI it
/// maps to (``Found.iri`` then holds it as written), ``"keep"`` gives it
/// as written, ``"off"`` leaves it out. ``skip_binary=True`` gives nothing for input with
/// a NUL byte in its first 8 KiB, as the command line does without ``-a``
/// for a file its walk finds (one named on its command line it scans up to
/// the NUL). ``encoding`` is how the bytes are read as text, as the
/// command line's ``-E``: ``"auto"`` decodes input that starts with a
/// UTF-16 byte-order mark and skips a UTF-8 one, ``"none"`` never decodes,
/// and a WHATWG label (``"latin1"``, ``"shift_jis"``, ``"utf-16le"``, ...)
/// decodes from that encoding unless a byte-order mark says otherwise.
/// Input read as mail is not decoded (its parts name their charsets). The
/// positions of what is found in decoded text are those of the input's
/// bytes.
///
/// The GIL is released while scanning ``bytes``. Problems that do not stop
/// the scan (malformed mail) are issued as ``ScanWarning``.
#[pyfunction]
#[pyo3(signature = (
    data, *, mail=None, any_scheme=false, json_escapes=true, hyphen="keep", iri="uri", skip_binary=false, encoding="auto",
    doc=None, base=None, relative=false, fragments=false, skip_code=false
))]
// The keyword arguments of a Python function.
#[allow(clippy::too_many_arguments)]
fn scan<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    mail: Option<bool>,
    any_scheme: bool,
    json_escapes: bool,
    hyphen: &str,
    iri: &str,
    skip_binary: bool,
    encoding: &str,
    doc: Option<String>,
    base: Option<String>,
    relative: bool,
    fragments: bool,
    skip_code: bool,
) -> PyResult<Bound<'py, PyList>> {
    let doc = doc_args(doc, base, relative, fragments, skip_code);
    let mut opts = Options::new(
        mail,
        any_scheme,
        json_escapes,
        hyphen,
        iri,
        skip_binary,
        encoding,
        doc,
    )?;
    let owned;
    let bytes: &[u8] = if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes()
    } else if let Ok(s) = data.cast::<PyString>() {
        opts = opts.for_decoded_text();
        owned = s.to_cow()?.into_owned().into_bytes();
        &owned
    } else if let Ok(b) = data.cast::<PyByteArray>() {
        owned = b.to_vec();
        &owned
    } else {
        return Err(PyTypeError::new_err(format!(
            "scan() takes bytes, bytearray or str, not {}",
            data.get_type().name()?
        )));
    };
    let collected = py.detach(|| {
        let mut c = Collected::default();
        guarded(|| input::scan_slice(&opts, bytes, &mut c)).map(|()| c)
    })?;
    into_list(py, collected)
}

/// Finds the URIs in the file at ``path`` (a ``str``, ``bytes`` or
/// ``os.PathLike``, as ``open`` takes), read in bounded memory (the
/// file is streamed, never held whole; a document up to 16 MiB is read
/// whole, a larger one as plain text), and returns them in order. The
/// keyword arguments are those of ``scan``, but ``doc="auto"`` (the
/// default) reads HTML, Markdown and man pages as documents by the file's
/// name, as the command line's ``--doc-mode auto``; ``doc=None`` reads
/// every file as text.
///
/// The GIL is released while the file is read and scanned. Raises
/// ``OSError`` (``FileNotFoundError``, ...) when the file cannot be read.
#[pyfunction]
#[pyo3(signature = (
    path, *, mail=None, any_scheme=false, json_escapes=true, hyphen="keep", iri="uri", skip_binary=false, encoding="auto",
    doc=Some("auto".to_string()), base=None, relative=false, fragments=false, skip_code=false
))]
// The keyword arguments of a Python function.
#[allow(clippy::too_many_arguments)]
fn scan_file<'py>(
    py: Python<'py>,
    path: FsPath<'py>,
    mail: Option<bool>,
    any_scheme: bool,
    json_escapes: bool,
    hyphen: &str,
    iri: &str,
    skip_binary: bool,
    encoding: &str,
    doc: Option<String>,
    base: Option<String>,
    relative: bool,
    fragments: bool,
    skip_code: bool,
) -> PyResult<Bound<'py, PyList>> {
    let FsPath { path, fspath } = path;
    let doc = DocArgs {
        file_name: path.file_name().map(OsStr::to_os_string),
        ..doc_args(doc, base, relative, fragments, skip_code)
    };
    let opts = Options::new(
        mail,
        any_scheme,
        json_escapes,
        hyphen,
        iri,
        skip_binary,
        encoding,
        doc,
    )?;
    let file = py
        .detach(|| File::open(&path))
        .map_err(|err| open_error(&fspath, err))?;
    let collected = py
        .detach(|| {
            let mut c = Collected::default();
            guarded(|| input::scan_reader(&opts, Interruptible(file), &mut c)).map(|()| c)
        })
        .map_err(|failure| match failure {
            // A read that fails (a directory, a disk error) names the file
            // too, as `open` would.
            Failure::Io(err) if err.raw_os_error().is_some() => open_error(&fspath, err),
            failure => failure.into(),
        })?;
    into_list(py, collected)
}

/// Returns an iterator over the URIs of ``binary_file`` (any object whose
/// ``read(n)`` gives ``bytes``: an open file, ``sys.stdin.buffer``, a
/// ``gzip.open`` file, a socket's ``makefile("rb")``), found while it is
/// read, in bounded memory. The keyword arguments are those of ``scan``.
///
/// The file is read and scanned on a worker thread, a few hundred URIs
/// ahead of the consumer. An exception raised by ``read`` is raised again
/// by the iterator.
#[pyfunction]
#[pyo3(signature = (
    binary_file, *, mail=None, any_scheme=false, json_escapes=true, hyphen="keep", iri="uri", skip_binary=false, encoding="auto",
    doc=None, base=None, relative=false, fragments=false, skip_code=false
))]
// The keyword arguments of a Python function.
#[allow(clippy::too_many_arguments)]
fn iter_scan(
    binary_file: &Bound<'_, PyAny>,
    mail: Option<bool>,
    any_scheme: bool,
    json_escapes: bool,
    hyphen: &str,
    iri: &str,
    skip_binary: bool,
    encoding: &str,
    doc: Option<String>,
    base: Option<String>,
    relative: bool,
    fragments: bool,
    skip_code: bool,
) -> PyResult<FoundIter> {
    let doc = doc_args(doc, base, relative, fragments, skip_code);
    let opts = Options::new(
        mail,
        any_scheme,
        json_escapes,
        hyphen,
        iri,
        skip_binary,
        encoding,
        doc,
    )?;
    let reader = PyReader::new(binary_file)?;
    Ok(FoundIter::spawn(opts, reader)?)
}

/// The kind of document the command line reads a file named as ``path``
/// as (``--doc-mode auto``): ``"html"``, ``"markdown"``, ``"man"``,
/// ``"xml"``, ``"rst"``, ``"asciidoc"``, or ``None`` for text. Only the
/// name counts (ripgrep's file types ``html``, ``markdown``, ``man``,
/// ``xml``, ``svg``, ``rst`` and ``asciidoc``, but ``*.asc``); the file
/// need not exist. Give the result to
/// ``scan``'s ``doc`` when the bytes of a named file are at hand (a
/// Spark ``binaryFile`` row).
#[pyfunction]
fn doc_kind(path: FsPath<'_>) -> Option<&'static str> {
    let name = path.path.file_name()?;
    uriscan::doc::DocKind::from_file_name(name).map(input::kind_name)
}

/// A file's path as `open` takes it: a `str`, `bytes` (on Unix, the file
/// name's own bytes, UTF-8 or not) or an `os.PathLike` giving either.
struct FsPath<'py> {
    path: PathBuf,
    /// The path as `os.fspath` gives it (`str` or `bytes`), which an
    /// `OSError` names, as `open`'s does.
    fspath: Bound<'py, PyAny>,
}

impl<'py> FromPyObject<'_, 'py> for FsPath<'py> {
    type Error = PyErr;

    /// `os.fsdecode` reads `bytes` as Python reads a file name (bytes that
    /// are not UTF-8 become lone surrogates), and PyO3 encodes that `str`
    /// back into the same bytes.
    fn extract(path: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let py = path.py();
        let os = py.import(intern!(py, "os"))?;
        let fspath = os.call_method1(intern!(py, "fspath"), (path,))?;
        let name = os.call_method1(intern!(py, "fsdecode"), (&fspath,))?;
        Ok(FsPath {
            path: name.extract()?,
            fspath,
        })
    }
}

/// The document keyword arguments, gathered.
fn doc_args(
    doc: Option<String>,
    base: Option<String>,
    relative: bool,
    fragments: bool,
    skip_code: bool,
) -> DocArgs {
    DocArgs {
        doc,
        file_name: None,
        base,
        filter: LinkFilter {
            relative,
            fragments,
            skip_code,
        },
    }
}

/// From how many URIs on the cyclic GC is paused while their list is built.
const GC_PAUSE_MIN: usize = 1000;

/// Issues the warnings of a scan, then returns what it found as a list.
///
/// Every `Found` is an object the cyclic GC tracks (as every PyO3 class
/// is), though it can never be part of a cycle: allocating many of them
/// sets off collections that each walk the whole heap, and made scanning a
/// file dense with URIs more than twice as slow. So the GC is paused while
/// the list is built (the GIL is held throughout: no other thread sees
/// it), and resumed only if it was running.
fn into_list(py: Python<'_>, collected: Collected) -> PyResult<Bound<'_, PyList>> {
    warn_all(py, &collected.warnings)?;
    if collected.found.len() < GC_PAUSE_MIN {
        return PyList::new(py, collected.found);
    }
    let gc = py.import(intern!(py, "gc"))?;
    let running = gc.call_method0(intern!(py, "isenabled"))?.is_truthy()?;
    if running {
        gc.call_method0(intern!(py, "disable"))?;
    }
    let list = PyList::new(py, collected.found);
    if running {
        gc.call_method0(intern!(py, "enable"))?;
    }
    list
}

/// The `OSError` subclass for a file that could not be opened, with its
/// `errno`, `strerror` and `filename` (`fspath`), as `open` would raise.
fn open_error(fspath: &Bound<'_, PyAny>, err: io::Error) -> PyErr {
    let Some(code) = err.raw_os_error() else {
        return err.into();
    };
    let strerror = fspath
        .py()
        .import("os")
        .and_then(|os| os.call_method1("strerror", (code,)))
        .and_then(|s| s.extract::<String>())
        .unwrap_or_else(|_| err.to_string());
    PyOSError::new_err((code, strerror, fspath.clone().unbind()))
}

/// The extension module `uriscan._uriscan`, re-exported by `uriscan`.
#[pymodule]
fn _uriscan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(scan_file, m)?)?;
    m.add_function(wrap_pyfunction!(iter_scan, m)?)?;
    m.add_function(wrap_pyfunction!(doc_kind, m)?)?;
    m.add_function(wrap_pyfunction!(uri::parse, m)?)?;
    m.add_function(wrap_pyfunction!(uri::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(uri::normalize, m)?)?;
    m.add_class::<Found>()?;
    m.add_class::<FoundIter>()?;
    m.add_class::<UriRef>()?;
    m.add("UriError", py.get_type::<UriError>())?;
    m.add("ScanWarning", py.get_type::<ScanWarning>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
