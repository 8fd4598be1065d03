//! Scanning one input as the command line does: decode it when it is
//! text in UTF-16 (a byte-order mark says so, or `encoding` names one),
//! skip it when it looks binary (if asked), read it as a document (HTML,
//! Markdown, a man page) when asked to, or decide mail or plain text from
//! its first 8 KiB, then scan it, sending each URI to an [`Out`], placed
//! in the input's own bytes.

use std::ffi::OsString;
use std::io::{self, Read};

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use uriscan::doc::{self, DocKind, LinkFilter};
use uriscan::encoding::{DecodeReader, Decoding, Places, TextEncoding};
use uriscan::mail::{self, Messages};
use uriscan::{HyphenMode, IriMode, IriRef, Scanner};

use crate::found::{Found, Places as MailPlaces};

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
    /// How an input's bytes are read as text (the command line's `-E`).
    encoding: TextEncoding,
    /// How a document is read, when the input is one.
    doc: DocOptions,
    /// The encoding a document declares is followed (`encoding="auto"`);
    /// not for a `str`, whose text Python has already decoded.
    follows_declared: bool,
}

/// The keyword arguments about documents: ``doc``, ``base``,
/// ``relative``, ``fragments``, ``skip_code``.
#[derive(Clone, Debug, Default)]
pub struct DocArgs {
    /// `None` (plain text or mail), `"html"`, `"markdown"`, `"man"`, `"xml"`, `"rst"`,
    /// `"asciidoc"`, or
    /// `"auto"` (by `file_name`, as the command line's `--doc-mode auto`).
    pub doc: Option<String>,
    /// The name of the file scanned, when there is one.
    pub file_name: Option<OsString>,
    /// The document's own URI, against which its relative links resolve.
    pub base: Option<String>,
    /// The command line's `--relative`, `--fragments`, `--skip-code`.
    pub filter: LinkFilter,
}

/// The name of a kind of document, as `doc=` takes it.
pub fn kind_name(kind: DocKind) -> &'static str {
    match kind {
        DocKind::Html => "html",
        DocKind::Markdown => "markdown",
        DocKind::Man => "man",
        DocKind::Xml => "xml",
        DocKind::Rst => "rst",
        DocKind::AsciiDoc => "asciidoc",
    }
}

/// How a document is read: checked [`DocArgs`].
#[derive(Clone, Debug, Default)]
struct DocOptions {
    kind: Option<DocKind>,
    /// An absolute URI (checked).
    base: Option<String>,
    filter: LinkFilter,
}

impl DocOptions {
    fn new(args: DocArgs) -> PyResult<DocOptions> {
        let kind = match args.doc.as_deref() {
            None => None,
            Some("html") => Some(DocKind::Html),
            Some("markdown") => Some(DocKind::Markdown),
            Some("man") => Some(DocKind::Man),
            Some("xml") => Some(DocKind::Xml),
            Some("rst") => Some(DocKind::Rst),
            Some("asciidoc") => Some(DocKind::AsciiDoc),
            Some("auto") => match &args.file_name {
                Some(name) => DocKind::from_file_name(name),
                None => {
                    return Err(PyValueError::new_err(
                        "doc='auto' needs a file's name: give doc=uriscan.doc_kind(path)",
                    ))
                }
            },
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "doc must be None, 'html', 'markdown', 'man', 'xml', 'rst' or 'asciidoc', not {other:?}"
                )))
            }
        };
        if let Some(text) = &args.base {
            let base = IriRef::parse(text)
                .map_err(|e| PyValueError::new_err(format!("base {text:?}: {e}")))?;
            if base.is_relative() {
                return Err(PyValueError::new_err(format!(
                    "base {text:?} is relative: it needs a scheme"
                )));
            }
        }
        Ok(DocOptions {
            kind,
            base: args.base,
            filter: args.filter,
        })
    }

    /// The kind of document an input starting with `probe` is read as: a
    /// man page must also start like roff, as on the command line.
    fn kind_for(&self, probe: &[u8]) -> Option<DocKind> {
        self.kind
            .filter(|&k| k != DocKind::Man || doc::looks_like_roff(probe))
    }
}

impl Options {
    /// Options from the keyword arguments of the Python functions.
    ///
    /// # Errors
    ///
    /// `ValueError` for a `hyphen` other than `keep`, `drop` or `both`, an
    /// `iri` other than `uri`, `keep` or `off`, an `encoding` other than
    /// `auto`, `none` or a WHATWG label, an unknown `doc`, or a `base`
    /// that is not an absolute URI.
    // The keyword arguments of the Python functions.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mail: Option<bool>,
        any_scheme: bool,
        json_escapes: bool,
        hyphen: &str,
        iri: &str,
        skip_binary: bool,
        encoding: &str,
        doc: DocArgs,
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
        let iri = match iri {
            "uri" => IriMode::Uri,
            "keep" => IriMode::Keep,
            "off" => IriMode::Off,
            other => {
                return Err(PyValueError::new_err(format!(
                    "iri must be 'uri', 'keep' or 'off', not {other:?}"
                )))
            }
        };
        let encoding = TextEncoding::for_label(encoding).ok_or_else(|| {
            PyValueError::new_err(format!(
                "encoding must be 'auto', 'none' or a WHATWG label (\"latin1\", \"utf-16le\", ...), not {encoding:?}"
            ))
        })?;
        let scanner = Scanner::builder()
            .any_scheme(any_scheme)
            .json_escapes(json_escapes)
            .hyphen(hyphen)
            .iri(iri)
            .build();
        Ok(Options {
            scanner,
            mail,
            skip_binary,
            encoding,
            doc: DocOptions::new(doc)?,
            follows_declared: true,
        })
    }

    /// These options for text Python has already decoded (a `str`, given
    /// as its UTF-8): the encoding a document declares is not followed.
    pub fn for_decoded_text(self) -> Options {
        Options {
            follows_declared: false,
            ..self
        }
    }

    /// Returns true if and only if an input starting with `probe`, read
    /// as mail when `mail` says so, is to be skipped as binary: mail never
    /// is (an attachment sent as `binary` may hold a NUL).
    fn skips(&self, probe: &[u8], mail: bool) -> bool {
        self.skip_binary && !mail && probe.contains(&0)
    }

    /// Returns true if and only if an input starting with `probe` is read
    /// as mail.
    fn reads_as_mail(&self, probe: &[u8]) -> bool {
        self.mail.unwrap_or_else(|| mail::looks_like_mail(probe))
    }

    /// How an input starting with `probe`, which `looks_like_mail` says
    /// of, is decoded before it is scanned, if it is: when it is not read
    /// as mail (unless it is a document) and its byte-order mark,
    /// `encoding`, or the encoding an HTML or XML document declares names
    /// an encoding to decode (the command line's rule).
    fn decoding(&self, probe: &[u8], looks_like_mail: bool) -> Option<Decoding> {
        let mail = self.doc.kind.is_none() && looks_like_mail;
        let decoding = if self.follows_declared {
            self.encoding.decoding_for_document(probe, self.doc.kind)
        } else {
            self.encoding.decoding_for(probe)
        };
        decoding.filter(|_| !mail)
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
    let looks_like_mail = opts.reads_as_mail(probe);
    if opts.decoding(probe, looks_like_mail).is_some() {
        // Decoded text is streamed, as the command line reads it.
        return scan_reader(opts, data, out);
    }
    if opts.skips(probe, looks_like_mail && opts.doc.kind.is_none()) {
        return Ok(());
    }
    let mut to_out = ToOut::new(out, None);
    if let Some(kind) = opts.doc.kind_for(probe) {
        if data.len() <= doc::MAX_DOCUMENT_LEN {
            scan_document(opts, kind, data, &mut to_out)?;
            to_out.finish(&opts.scanner);
            return Ok(());
        }
        to_out.out.warning(doc::TOO_LARGE_A_DOCUMENT.to_string());
        opts.scanner.scan_slice(data, &mut to_out)?;
    } else if looks_like_mail {
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
/// As on the command line, an input that is not read as mail is decoded
/// first when its byte-order mark (or `encoding`) says so, and what is
/// found in its text is placed in its own bytes.
///
/// # Errors
///
/// A read error, or the first error `out` returns.
pub fn scan_reader<R: Read>(opts: &Options, mut rdr: R, out: &mut dyn Out) -> io::Result<()> {
    let probe = read_probe(&mut rdr)?;
    let looks_like_mail = opts.reads_as_mail(&probe);
    let Some(decoding) = opts.decoding(&probe, looks_like_mail) else {
        return scan_probed(opts, probe, rdr, None, looks_like_mail, out);
    };
    let mut text = DecodeReader::new(io::Cursor::new(probe).chain(rdr), decoding);
    let places = text.places();
    if opts.doc.kind.is_none() {
        places.for_stream(&opts.scanner);
    }
    let probe = read_probe(&mut text)?;
    // Decoded text is not mail (the command line's rule).
    scan_probed(opts, probe, text, Some(places), false, out)
}

/// The first [`PROBE`] bytes of `rdr` (fewer at its end).
fn read_probe<R: Read>(rdr: &mut R) -> io::Result<Vec<u8>> {
    let mut probe = Vec::with_capacity(PROBE);
    rdr.take(PROBE as u64).read_to_end(&mut probe)?;
    Ok(probe)
}

/// [`scan_reader`] for an input whose first bytes, `probe`, were read and
/// `rdr` holds the rest of: its text, decoded and placed by `places`, or
/// its bytes; read as mail when `mail` says so, unless it is a document.
fn scan_probed<R: Read>(
    opts: &Options,
    probe: Vec<u8>,
    mut rdr: R,
    places: Option<Places>,
    mail: bool,
    out: &mut dyn Out,
) -> io::Result<()> {
    if opts.skips(&probe, mail && opts.doc.kind.is_none()) {
        return Ok(());
    }
    let mut to_out = ToOut::new(out, places.clone());
    let kind = opts.doc.kind_for(&probe);
    // Decoded text not read as a document after all (a `.1` file that is
    // not roff) is streamed: its places need not be kept whole.
    if let (None, Some(places)) = (kind, &places) {
        places.for_stream(&opts.scanner);
    }
    if let Some(kind) = kind {
        let mut data = probe;
        let max = doc::MAX_DOCUMENT_LEN;
        (&mut rdr).take(max as u64 + 1).read_to_end(&mut data)?;
        if data.len() <= max {
            scan_document(opts, kind, &data, &mut to_out)?;
        } else {
            to_out.out.warning(doc::TOO_LARGE_A_DOCUMENT.to_string());
            if let Some(places) = &places {
                places.for_stream(&opts.scanner);
            }
            let rdr = io::Cursor::new(data).chain(rdr);
            opts.scanner.scan_reader(rdr, &mut to_out)?;
        }
    } else if mail {
        let messages = Messages::with_prefix(probe, rdr);
        mail::scan_messages(&opts.scanner, messages, &mut to_out)?;
    } else {
        let rdr = io::Cursor::new(probe).chain(rdr);
        opts.scanner.scan_reader(rdr, &mut to_out)?;
    }
    to_out.finish(&opts.scanner);
    Ok(())
}

/// Reads `data` as a document of kind `kind` and sends the links the
/// options ask for, as the command line does.
fn scan_document(
    opts: &Options,
    kind: DocKind,
    data: &[u8],
    to_out: &mut ToOut<'_>,
) -> io::Result<()> {
    let base = opts.doc.base.as_deref().and_then(|b| IriRef::parse(b).ok());
    let found = doc::find_links(&opts.scanner, kind, data, base.as_ref());
    to_out.too_long += found.too_long().len() as u64;
    for link in found.links() {
        if let Some(uri) = opts.doc.filter.shown(link) {
            let found = Found::from_link(link, uri).placed(link.found(), to_out.places.as_ref());
            if !to_out.out.found(found)? {
                break;
            }
        }
    }
    Ok(())
}

/// The library's sink, for plain text and mail alike: URIs go to `out`
/// (with their place in a message, in mail), warnings about malformed mail
/// as they come, and over-long candidates are counted and reported once at
/// the end, as the command line does.
struct ToOut<'a> {
    out: &'a mut dyn Out,
    mail_places: MailPlaces,
    /// Where decoded text came from in the input, when it was decoded.
    places: Option<Places>,
    too_long: u64,
}

impl<'a> ToOut<'a> {
    fn new(out: &'a mut dyn Out, places: Option<Places>) -> ToOut<'a> {
        ToOut {
            out,
            mail_places: MailPlaces::default(),
            places,
            too_long: 0,
        }
    }

    /// Reports the over-long candidates met, with the limit in force.
    fn finish(self, scanner: &Scanner) {
        if self.too_long > 0 {
            self.out.warning(format!(
                "{} candidate(s) of {} KiB or more skipped",
                self.too_long,
                scanner.max_candidate_len() / 1024
            ));
        }
    }
}

impl uriscan::Sink for &mut ToOut<'_> {
    fn found(&mut self, f: &uriscan::Found<'_>) -> io::Result<bool> {
        let place = f.message().map(|m| self.mail_places.of(m));
        self.out
            .found(Found::new(f, place).placed(f, self.places.as_ref()))
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
