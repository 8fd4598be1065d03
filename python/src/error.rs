//! The exceptions and warnings of the package, and the one place where a
//! Rust panic is caught before it can reach Python.

use std::any::Any;
use std::ffi::CString;
use std::io;
use std::panic::{self, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use uriscan::{ParseError, ParseErrorKind};

create_exception!(
    uriscan,
    UriError,
    PyValueError,
    "A URI reference that RFC 3986 does not allow.\n\n\
     ``index`` is the byte offset (in the UTF-8 encoding of the input) of\n\
     the first byte the grammar does not allow there; ``kind`` says what\n\
     was wrong, in snake case (``port``, ``unclosed_ip_literal``, ...)."
);

create_exception!(
    uriscan,
    InternalError,
    PyRuntimeError,
    "A bug in uriscan: the Rust code panicked. The message is the panic's.\n\n\
     It is an ordinary ``Exception`` (a ``RuntimeError``), unlike PyO3's\n\
     ``PanicException``; please report it with the input that caused it."
);

create_exception!(
    uriscan,
    ScanWarning,
    PyUserWarning,
    "A problem that did not stop a scan: malformed mail (a message that\n\
     could not be parsed, bad base64), or candidates that reached the\n\
     scanner's limit, skipped. The command-line tool prints the same\n\
     messages on stderr."
);

/// Why a scan failed.
#[derive(Debug)]
pub enum Failure {
    /// Reading the input failed (or a Python `read` raised, wrapped inside).
    Io(io::Error),
    /// The Rust code panicked, with this message.
    Panic(String),
}

impl Failure {
    /// The Python exception for this failure: the `read` method's own
    /// exception, an `OSError` subclass, or [`InternalError`].
    pub fn into_pyerr(self) -> PyErr {
        match self {
            Failure::Io(err) => PyErr::from(err),
            Failure::Panic(message) => InternalError::new_err(message),
        }
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        failure.into_pyerr()
    }
}

/// Runs `f`, turning a panic into [`Failure::Panic`]: every call from
/// Python into the library goes through here.
pub fn guarded<T>(f: impl FnOnce() -> io::Result<T>) -> Result<T, Failure> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(Failure::Io),
        Err(payload) => Err(Failure::Panic(panic_message(payload.as_ref()))),
    }
}

/// The message a panic was raised with.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "unknown panic"
    };
    format!("uriscan panicked: {message}")
}

/// A [`UriError`] for `err`, with its `index` and `kind` attributes set.
pub fn uri_error(py: Python<'_>, err: ParseError) -> PyErr {
    let exc = UriError::new_err(err.to_string());
    let value = exc.value(py);
    let set = value
        .setattr("index", err.index())
        .and_then(|()| value.setattr("kind", kind_name(err.kind())));
    match set {
        Ok(()) => exc,
        Err(other) => other,
    }
}

/// The snake-case name of a parse error's kind, from its Rust name
/// (`UnclosedIpLiteral` gives `unclosed_ip_literal`), so a kind added to
/// the library is named without a change here.
fn kind_name(kind: ParseErrorKind) -> String {
    let mut name = String::new();
    for (i, c) in format!("{kind:?}").chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                name.push('_');
            }
            name.push(c.to_ascii_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

/// Issues each of `warnings` as a [`ScanWarning`] (which may raise, when
/// warnings are turned into errors).
pub fn warn_all(py: Python<'_>, warnings: &[String]) -> PyResult<()> {
    let category = py.get_type::<ScanWarning>();
    for warning in warnings {
        let message = CString::new(warning.replace('\0', " ")).expect("NUL bytes were replaced");
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_named_in_snake_case() {
        assert_eq!(
            kind_name(ParseErrorKind::UnclosedIpLiteral),
            "unclosed_ip_literal"
        );
        assert_eq!(kind_name(ParseErrorKind::Ipv6), "ipv6");
        assert_eq!(kind_name(ParseErrorKind::Port), "port");
    }

    #[test]
    fn a_panic_becomes_a_failure_with_its_message() {
        let failure = guarded(|| -> io::Result<()> { panic!("boom {}", 42) }).unwrap_err();
        assert!(matches!(failure, Failure::Panic(ref m) if m == "uriscan panicked: boom 42"));
        assert!(matches!(guarded(|| Ok(7)), Ok(7)));
    }
}
