//! Scanning one input as the command line does: skip it when it looks
//! binary (if asked), decide mail or plain text from its first 8 KiB, then
//! scan it, sending each URI to an [`Out`].

use std::io::{self, Read};

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use uriscan::mail::{self, Messages};
use uriscan::{HyphenMode, Scanner};

use crate::found::{Found, Places};

/// How many bytes are looked at to call an input binary (a NUL) and to
/// tell whether it is mail: the command line's probe.
const PROBE: usize = 8 * 1024;

/// What a scan call was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    scanner: Scanner,
    /// `Some(yes)` forces mail reading on or off; `None` decides per input.
    mail: Option<bool>,
    /// Give nothing for an input with a NUL in its first [`PROBE`] bytes.
    skip_binary: bool,
}

impl Options {
    /// Options from the keyword arguments of the Python functions.
    ///
    /// # Errors
    ///
    /// `ValueError` for a `hyphen` other than `keep`, `drop` or `both`.
    pub fn new(
        mail: Option<bool>,
        any_scheme: bool,
        hyphen: &str,
        skip_binary: bool,
    ) -> PyResult<Options> {
        let hyphen = match hyphen {
            "keep" => HyphenMode::Keep,
            "drop" => HyphenMode::Drop,
            "both" => HyphenMode::Both,
            other => {
                return Err(PyValueError::new_err(format!(
                    "hyphen must be 'keep', 'drop' or 'both', not {other:?}"
                )))
            }
        };
        let scanner = Scanner::builder()
            .any_scheme(any_scheme)
            .hyphen(hyphen)
            .build();
        Ok(Options {
            scanner,
            mail,
            skip_binary,
        })
    }

    /// Returns true if and only if an input starting with `probe` is to be
    /// skipped as binary.
    fn skips(&self, probe: &[u8]) -> bool {
        self.skip_binary && probe.contains(&0)
    }

    /// Returns true if and only if an input starting with `probe` is read
    /// as mail.
    fn reads_as_mail(&self, probe: &[u8]) -> bool {
        self.mail.unwrap_or_else(|| mail::looks_like_mail(probe))
    }
}

/// Receives what a scan finds, in order.
pub trait Out {
    /// Called for each URI; return `Ok(false)` to stop the scan.
    fn found(&mut self, found: Found) -> io::Result<bool>;

    /// Called for a problem that did not stop the scan.
    fn warning(&mut self, warning: String);
}

/// What a scan found, collected.
#[derive(Debug, Default)]
pub struct Collected {
    /// The URIs, in order.
    pub found: Vec<Found>,
    /// The warnings, in order.
    pub warnings: Vec<String>,
}

impl Out for Collected {
    fn found(&mut self, found: Found) -> io::Result<bool> {
        self.found.push(found);
        Ok(true)
    }

    fn warning(&mut self, warning: String) {
        self.warnings.push(warning);
    }
}

/// Scans `data`, held whole in memory.
///
/// # Errors
///
/// The first error `out` returns.
pub fn scan_slice(opts: &Options, data: &[u8], out: &mut dyn Out) -> io::Result<()> {
    let probe = &data[..data.len().min(PROBE)];
    if opts.skips(probe) {
        return Ok(());
    }
    let mut to_out = ToOut::new(out);
    if opts.reads_as_mail(probe) {
        mail::scan_mail(&opts.scanner, data, &mut to_out)?;
    } else {
        opts.scanner.scan_slice(data, &mut to_out)?;
    }
    to_out.finish(&opts.scanner);
    Ok(())
}

/// Scans what `rdr` gives, streamed: memory is bounded whatever the
/// input's size (see the library's `Scanner::scan_reader` and
/// `mail::scan_mail`).
///
/// # Errors
///
/// A read error, or the first error `out` returns.
pub fn scan_reader<R: Read>(opts: &Options, mut rdr: R, out: &mut dyn Out) -> io::Result<()> {
    let mut probe = Vec::with_capacity(PROBE);
    (&mut rdr).take(PROBE as u64).read_to_end(&mut probe)?;
    if opts.skips(&probe) {
        return Ok(());
    }
    let mut to_out = ToOut::new(out);
    if opts.reads_as_mail(&probe) {
        let messages = Messages::with_prefix(probe, rdr);
        mail::scan_messages(&opts.scanner, messages, &mut to_out)?;
    } else {
        let rdr = io::Cursor::new(probe).chain(rdr);
        opts.scanner.scan_reader(rdr, &mut to_out)?;
    }
    to_out.finish(&opts.scanner);
    Ok(())
}

/// The library's sink, for plain text and mail alike: URIs go to `out`
/// (with their place in a message, in mail), warnings about malformed mail
/// as they come, and over-long candidates are counted and reported once at
/// the end, as the command line does.
struct ToOut<'a> {
    out: &'a mut dyn Out,
    places: Places,
    too_long: u64,
}

impl<'a> ToOut<'a> {
    fn new(out: &'a mut dyn Out) -> ToOut<'a> {
        ToOut {
            out,
            places: Places::default(),
            too_long: 0,
        }
    }

    /// Reports the over-long candidates met, with the limit in force.
    fn finish(self, scanner: &Scanner) {
        if self.too_long > 0 {
            self.out.warning(format!(
                "{} candidate(s) longer than {} KiB skipped",
                self.too_long,
                scanner.max_candidate_len() / 1024
            ));
        }
    }
}

impl uriscan::Sink for &mut ToOut<'_> {
    fn found(&mut self, f: &uriscan::Found<'_>) -> io::Result<bool> {
        let place = f.message().map(|m| self.places.of(m));
        self.out.found(Found::new(f, place))
    }

    fn too_long(&mut self, _start: usize, _line: u64) -> io::Result<bool> {
        self.too_long += 1;
        Ok(true)
    }

    fn warning(&mut self, line: u64, warning: &str) -> io::Result<bool> {
        self.out
            .warning(format!("message at line {line}: {warning}"));
        Ok(true)
    }
}
