//! `Found`: one URI found, with the fields of the command line's `--json`.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use uriscan::encoding::Places as TextPlaces;
use uriscan::{Delimiter, InMessage};

/// Where a URI found in mail stands; shared by the URIs of one part.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MailPlace {
    /// The message's `Message-ID`, without angle brackets.
    pub message_id: Option<String>,
    /// The line of the input where the message starts.
    pub message_line: u64,
    /// Where in the message: `text/plain`, `header:List-Id`, `raw`, ...
    pub part: String,
}

/// One URI found in the input, with the fields of ``uriscan --json``.
///
/// ``start`` and ``end`` are the byte offsets of the URI's first byte and
/// one past its last (delimiters excluded), ``line`` and ``column`` are
/// 1-based (``column`` in bytes). ``delimiter`` is ``"angle"``, ``"quote"``
/// or ``"none"``. In mail mode ``message_id``, ``message_line`` and
/// ``part`` are set (otherwise they are ``None``), and the positions are
/// still those of the input, where the URI's text was written, encoded (a
/// quoted-printable URI's span covers its ``=3D`` and soft line breaks).
#[pyclass(frozen, eq, hash, module = "uriscan")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Found {
    /// The URI, unwrapped and validated.
    #[pyo3(get)]
    pub uri: String,
    /// The IRI as written, when ``uri`` is the URI it maps to
    /// (``iri="uri"``), or the reference as written when a ``#`` in its
    /// fragment is read as ``%23`` (any ``iri``); ``None`` otherwise.
    #[pyo3(get)]
    pub iri: Option<String>,
    /// Byte offset of the URI's first byte.
    #[pyo3(get)]
    pub start: usize,
    /// Byte offset one past the URI's last byte.
    #[pyo3(get)]
    pub end: usize,
    /// 1-based line.
    #[pyo3(get)]
    pub line: u64,
    /// 1-based column, in bytes.
    #[pyo3(get)]
    pub column: u64,
    /// `angle`, `quote` or `none`.
    #[pyo3(get)]
    pub delimiter: &'static str,
    /// True if the URI was wrapped over lines.
    #[pyo3(get)]
    pub wrapped: bool,
    /// True if the URI had the old `URL:` prefix.
    #[pyo3(get)]
    pub url_prefix: bool,
    /// True if a line break after `-` was joined keeping the hyphen.
    #[pyo3(get)]
    pub hyphen_break: bool,
    /// Where in a message, for input read as mail.
    pub mail: Option<Arc<MailPlace>>,
    /// What a link of a document is, for input read as one.
    pub doc: Option<DocLink>,
}

/// What a link of a document is (HTML, Markdown, a man page).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocLink {
    /// It stands in code (a code span or block, `<code>`, `<pre>`).
    pub in_code: bool,
    /// It is written without a scheme.
    pub relative: bool,
    /// Its target, when a base resolved it.
    pub resolved: Option<String>,
}

impl Found {
    /// A URI found by the library; `mail` is where in a message, for one
    /// found in mail.
    pub fn new(f: &uriscan::Found<'_>, mail: Option<Arc<MailPlace>>) -> Found {
        Found {
            uri: f.as_str().to_string(),
            iri: f.iri().filter(|&iri| iri != f.as_str()).map(str::to_string),
            start: f.span().start,
            end: f.span().end,
            line: f.line(),
            column: f.column(),
            delimiter: delimiter_name(f.delimiter()),
            wrapped: f.is_wrapped(),
            url_prefix: f.has_url_prefix(),
            hyphen_break: f.has_hyphen_break(),
            mail,
            doc: None,
        }
    }

    /// This URI, found as `f` in decoded text, placed in the input's bytes
    /// by `places` (unchanged when the text was not decoded).
    pub fn placed(self, f: &uriscan::Found<'_>, places: Option<&TextPlaces>) -> Found {
        match places {
            Some(places) => {
                let at = places.place(f);
                Found {
                    start: at.span.start,
                    end: at.span.end,
                    line: at.line,
                    column: at.column,
                    ..self
                }
            }
            None => self,
        }
    }

    /// A link of a document, reported as `uri` (its target, or as written).
    pub fn from_link(link: &uriscan::doc::Link, uri: &str) -> Found {
        Found {
            uri: uri.to_string(),
            doc: Some(DocLink {
                in_code: link.is_in_code(),
                relative: link.is_relative(),
                resolved: link.resolved().map(str::to_string),
            }),
            ..Found::new(link.found(), None)
        }
    }
}

/// The name `--json` gives a delimiter.
fn delimiter_name(d: Delimiter) -> &'static str {
    match d {
        Delimiter::Angle => "angle",
        Delimiter::Quote => "quote",
        Delimiter::None => "none",
    }
}

/// The places of the URIs found in mail: the URIs of one part share one.
#[derive(Debug, Default)]
pub struct Places {
    /// The place of the last URI, for the next ones of the same part.
    last: Option<Arc<MailPlace>>,
}

impl Places {
    /// The place of a URI found in `m`: the last one's, when it is in the
    /// same part of the same message.
    pub fn of(&mut self, m: &InMessage<'_>) -> Arc<MailPlace> {
        match &self.last {
            Some(p)
                if p.message_line == m.message_line()
                    && p.part == m.part()
                    && p.message_id.as_deref() == m.message_id() =>
            {
                Arc::clone(p)
            }
            _ => Arc::clone(self.last.insert(Arc::new(MailPlace {
                message_id: m.message_id().map(str::to_string),
                message_line: m.message_line(),
                part: m.part().to_string(),
            }))),
        }
    }
}

#[pymethods]
impl Found {
    /// The ``Message-ID`` of the message (without ``<>``), in mail mode.
    #[getter]
    fn message_id(&self) -> Option<&str> {
        self.mail.as_ref()?.message_id.as_deref()
    }

    /// The line where the message starts, in mail mode.
    #[getter]
    fn message_line(&self) -> Option<u64> {
        Some(self.mail.as_ref()?.message_line)
    }

    /// The part of the message (``text/plain``, ``text/html``,
    /// ``header:List-Unsubscribe``, ``epilogue``, ``raw``), in mail mode.
    #[getter]
    fn part(&self) -> Option<&str> {
        Some(&self.mail.as_ref()?.part)
    }

    /// Whether the link stands in code (a Markdown code span or block, an
    /// HTML ``<code>`` or ``<pre>``), for a document; ``None`` otherwise.
    #[getter]
    fn in_code(&self) -> Option<bool> {
        Some(self.doc.as_ref()?.in_code)
    }

    /// Whether the link is written without a scheme (a relative
    /// reference, in a document).
    #[getter]
    fn relative(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| d.relative)
    }

    /// The target of a relative link, resolved against the document's
    /// base; ``None`` when there is none or the link is absolute.
    #[getter]
    fn resolved(&self) -> Option<&str> {
        self.doc.as_ref()?.resolved.as_deref()
    }

    /// The fields as a dict with the keys of ``uriscan --json`` (less
    /// ``path``), in the same order; ``iri`` only when set; the mail keys
    /// only in mail mode, the
    /// document keys (``in_code``; ``relative`` and ``resolved`` when they
    /// apply) only for a document.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("start", self.start)?;
        d.set_item("end", self.end)?;
        d.set_item("uri", &self.uri)?;
        if let Some(iri) = &self.iri {
            d.set_item("iri", iri)?;
        }
        d.set_item("delimiter", self.delimiter)?;
        d.set_item("wrapped", self.wrapped)?;
        d.set_item("url_prefix", self.url_prefix)?;
        d.set_item("hyphen_break", self.hyphen_break)?;
        if let Some(m) = &self.mail {
            d.set_item("message_id", m.message_id.as_deref())?;
            d.set_item("message_line", m.message_line)?;
            d.set_item("part", &m.part)?;
        }
        if let Some(doc) = &self.doc {
            d.set_item("in_code", doc.in_code)?;
            if doc.relative {
                d.set_item("relative", true)?;
                if let Some(resolved) = &doc.resolved {
                    d.set_item("resolved", resolved)?;
                }
            }
        }
        Ok(d)
    }

    /// The URI.
    fn __str__(&self) -> &str {
        &self.uri
    }

    fn __repr__(&self) -> String {
        let mut repr = format!(
            "Found(uri={:?}, line={}, column={}, delimiter={:?}",
            self.uri, self.line, self.column, self.delimiter
        );
        if let Some(part) = self.part() {
            repr.push_str(&format!(", part={part:?}"));
        }
        repr.push(')');
        repr
    }
}
