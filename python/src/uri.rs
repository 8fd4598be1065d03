//! `parse`, `resolve`, `normalize`: the library's RFC 3986 parser.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use uriscan::{ParseError, ResolveError, UriRef as Parsed};

use crate::error::{guarded, uri_error};

/// A URI reference, parsed by the RFC 3986 grammar (Appendix A).
///
/// Components are given as written (still percent-encoded). A component
/// whose delimiter is absent is ``None``; one that is present but empty is
/// ``""``: ``s:`` has no query, ``s:?`` an empty one. The path is always
/// present, possibly empty. ``host_kind`` is ``"ipv4"``, ``"ipv6"``,
/// ``"ipvfuture"`` or ``"reg-name"``.
#[pyclass(frozen, eq, hash, module = "uriscan")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UriRef {
    /// The reference as given.
    text: String,
    /// The scheme, without `:`.
    #[pyo3(get)]
    scheme: Option<String>,
    /// The authority, without `//`.
    #[pyo3(get)]
    authority: Option<String>,
    /// The userinfo, without `@`.
    #[pyo3(get)]
    userinfo: Option<String>,
    /// The host (an IP literal with its brackets).
    #[pyo3(get)]
    host: Option<String>,
    /// `ipv4`, `ipv6`, `ipvfuture` or `reg-name`.
    #[pyo3(get)]
    host_kind: Option<&'static str>,
    /// The port as written, without `:`.
    #[pyo3(get)]
    port: Option<String>,
    /// The path.
    #[pyo3(get)]
    path: String,
    /// The query, without `?`.
    #[pyo3(get)]
    query: Option<String>,
    /// The fragment, without `#`.
    #[pyo3(get)]
    fragment: Option<String>,
    /// The port as a number, when it has digits and fits in 16 bits.
    #[pyo3(get)]
    port_number: Option<u16>,
    /// True if the reference has a scheme (it is a URI, not a relative
    /// reference).
    #[pyo3(get)]
    is_absolute: bool,
}

impl UriRef {
    fn new(u: &Parsed<'_>) -> UriRef {
        let own = |s: Option<&str>| s.map(str::to_string);
        UriRef {
            text: u.as_str().to_string(),
            scheme: own(u.scheme()),
            authority: own(u.authority()),
            userinfo: own(u.userinfo()),
            host: own(u.host()),
            host_kind: u.host_kind().map(|k| k.as_str()),
            port: own(u.port()),
            path: u.path().to_string(),
            query: own(u.query()),
            fragment: own(u.fragment()),
            port_number: u.port_number(),
            is_absolute: u.is_absolute(),
        }
    }
}

#[pymethods]
impl UriRef {
    /// Parses ``text``; same as ``uriscan.parse``.
    #[new]
    fn py_new(py: Python<'_>, text: &str) -> PyResult<UriRef> {
        parse(py, text)
    }

    /// Resolves ``reference`` against this URI as the base (RFC 3986
    /// section 5.2, strict); same as ``uriscan.resolve(str(self), ...)``.
    fn resolve(&self, py: Python<'_>, reference: &str) -> PyResult<String> {
        resolve(py, &self.text, reference)
    }

    /// The normalized form (RFC 3986 sections 6.2.2 and 6.2.3).
    fn normalize(&self, py: Python<'_>) -> PyResult<String> {
        normalize(py, &self.text)
    }

    /// The components as a dict, with the keys of ``uriscan parse``.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("scheme", &self.scheme)?;
        d.set_item("authority", &self.authority)?;
        d.set_item("userinfo", &self.userinfo)?;
        d.set_item("host", &self.host)?;
        d.set_item("host_kind", self.host_kind)?;
        d.set_item("port", &self.port)?;
        d.set_item("path", &self.path)?;
        d.set_item("query", &self.query)?;
        d.set_item("fragment", &self.fragment)?;
        Ok(d)
    }

    /// The reference as given.
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("UriRef({:?})", self.text)
    }
}

/// Why a reference was refused.
#[derive(Debug)]
enum Invalid {
    Parse(ParseError),
    Resolve(ResolveError),
}

impl From<ParseError> for Invalid {
    fn from(err: ParseError) -> Invalid {
        Invalid::Parse(err)
    }
}

/// Runs `f` on the library, guarded against panics, and raises what it
/// refuses as `UriError` or `ValueError`.
fn call<T>(py: Python<'_>, f: impl FnOnce() -> Result<T, Invalid>) -> PyResult<T> {
    match guarded(|| Ok(f()))? {
        Ok(value) => Ok(value),
        Err(Invalid::Parse(err)) => Err(uri_error(py, err)),
        Err(Invalid::Resolve(err)) => Err(PyValueError::new_err(err.to_string())),
    }
}

/// Parses a URI reference (a URI or a relative reference) by the RFC 3986
/// grammar, exactly.
///
/// Raises ``UriError`` (a ``ValueError``) with ``index`` (the byte offset
/// of the first byte not allowed, in UTF-8) and ``kind`` when ``text`` is
/// not a URI reference.
#[pyfunction]
pub fn parse(py: Python<'_>, text: &str) -> PyResult<UriRef> {
    call(py, || Ok(UriRef::new(&Parsed::parse(text)?)))
}

/// Resolves ``reference`` against the absolute URI ``base`` (RFC 3986
/// section 5.2, strict) and returns the target URI.
///
/// Raises ``UriError`` when either does not parse, and ``ValueError`` when
/// ``base`` has no scheme.
#[pyfunction]
pub fn resolve(py: Python<'_>, base: &str, reference: &str) -> PyResult<String> {
    call(py, || {
        let base = Parsed::parse(base)?;
        let reference = Parsed::parse(reference)?;
        base.resolve(&reference).map_err(Invalid::Resolve)
    })
}

/// Normalizes a URI reference (RFC 3986 sections 6.2.2 and 6.2.3: case,
/// percent-encoding, dot segments, default ports of http, https, ws, wss
/// and ftp).
///
/// Raises ``UriError`` when ``text`` does not parse.
#[pyfunction]
pub fn normalize(py: Python<'_>, text: &str) -> PyResult<String> {
    call(py, || Ok(Parsed::parse(text)?.normalize()))
}
