//! `io::Read` over a Python binary file: each read calls its `read`
//! method, attached to the interpreter only for that call.

use std::io::{self, Read};

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

/// The most asked of one `read` call, so a caller's large buffer does not
/// make Python allocate as large a `bytes`.
const MAX_READ: usize = 256 * 1024;

/// A Python binary file (anything with `read(n)` giving `bytes`), read
/// from Rust. A Python exception raised by `read` travels inside the
/// `io::Error` and is raised again as itself.
#[derive(Debug)]
pub struct PyReader {
    file: Py<PyAny>,
}

impl PyReader {
    /// Reads `file`, which must have a `read` method.
    ///
    /// # Errors
    ///
    /// `TypeError` when `file` has no `read` method.
    pub fn new(file: &Bound<'_, PyAny>) -> PyResult<PyReader> {
        if !file.hasattr(intern!(file.py(), "read"))? {
            return Err(PyTypeError::new_err(
                "expected a binary file (an object with a read method)",
            ));
        }
        Ok(PyReader {
            file: file.clone().unbind(),
        })
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = buf.len().min(MAX_READ);
        Python::attach(|py| {
            let chunk = self
                .file
                .bind(py)
                .call_method1(intern!(py, "read"), (want,))?;
            copy_chunk(&chunk, &mut buf[..want])
        })
        .map_err(io::Error::from)
    }
}

/// Copies what a `read` call returned into `buf`; returns its length.
fn copy_chunk(chunk: &Bound<'_, PyAny>, buf: &mut [u8]) -> PyResult<usize> {
    let owned;
    let bytes: &[u8] = if let Ok(b) = chunk.cast::<PyBytes>() {
        b.as_bytes()
    } else if let Ok(b) = chunk.cast::<PyByteArray>() {
        owned = b.to_vec();
        &owned
    } else {
        return Err(PyTypeError::new_err(format!(
            "expected a binary file: read() returned {}, not bytes",
            chunk.get_type().name()?
        )));
    };
    let Some(dest) = buf.get_mut(..bytes.len()) else {
        return Err(PyTypeError::new_err(format!(
            "read({}) returned {} bytes",
            buf.len(),
            bytes.len()
        )));
    };
    dest.copy_from_slice(bytes);
    Ok(bytes.len())
}

/// A reader whose reads, interrupted by a signal (`EINTR`: Ctrl-C while a
/// FIFO or a terminal is quiet), run Python's signal handlers instead of
/// being retried: an exception they raise (`KeyboardInterrupt`) ends the
/// scan and is raised again as itself. (Only the thread that receives the
/// signal sees `EINTR`; the main thread, on Linux, for a signal sent to
/// the process.)
#[derive(Debug)]
pub struct Interruptible<R>(pub R);

impl<R: Read> Read for Interruptible<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    Python::attach(|py| py.check_signals()).map_err(io::Error::from)?;
                }
                read => return read,
            }
        }
    }
}
