//! The RFC 3986 Appendix C scanner (skeleton: the scanner issue fills this in).
//!
//! API contract the CLI and mail reading build on: a [`Scanner`] built once by
//! a [`ScannerBuilder`], [`Scanner::find_iter`] over a slice and
//! [`Scanner::scan_reader`] over any `io::Read`, both yielding [`Found`].

use std::borrow::Cow;
use std::io;

use crate::span::Span;
use crate::uri::ParseError;

/// What bounded a found URI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Delimiter {
    /// `<...>`.
    Angle,
    /// `"..."`.
    Quote,
    /// Nothing: a bare URI bounded by whitespace or punctuation.
    None,
}

/// How to read a line break right after a `-` inside angle brackets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HyphenMode {
    /// Keep the hyphen and join (the default; `hyphen_break` is set).
    #[default]
    Keep,
    /// Drop the hyphen and join.
    Drop,
    /// Report both readings.
    Both,
}

/// One URI (or, on request, one invalid candidate) found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'h> {
    text: Cow<'h, str>,
    span: Span,
    line: u64,
    column: u64,
    delimiter: Delimiter,
    wrapped: bool,
    url_prefix: bool,
    hyphen_break: bool,
    error: Option<ParseError>,
}

impl<'h> Found<'h> {
    /// The URI text (ASCII for every valid URI).
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The URI text as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }
    /// Byte span in the input, delimiters excluded (offsets from the start of the stream).
    pub fn span(&self) -> Span {
        self.span
    }
    /// 1-based line of the first byte.
    pub fn line(&self) -> u64 {
        self.line
    }
    /// 1-based column of the first byte, counted in bytes.
    pub fn column(&self) -> u64 {
        self.column
    }
    /// What bounded the URI.
    pub fn delimiter(&self) -> Delimiter {
        self.delimiter
    }
    /// Returns true if and only if whitespace (or a quote prefix, a page break) was removed.
    pub fn is_wrapped(&self) -> bool {
        self.wrapped
    }
    /// Returns true if and only if a `URL:` prefix was stripped.
    pub fn has_url_prefix(&self) -> bool {
        self.url_prefix
    }
    /// Returns true if and only if a line break right after `-` was joined.
    pub fn has_hyphen_break(&self) -> bool {
        self.hyphen_break
    }
    /// The parse error, for an invalid candidate (only reported on request).
    pub fn error(&self) -> Option<ParseError> {
        self.error
    }
}

/// Receives what [`Scanner::scan_reader`] finds; return `Ok(false)` to stop.
pub trait Sink {
    /// Called for each found URI, in order of appearance.
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool>;
}

impl<F: FnMut(&Found<'_>) -> io::Result<bool>> Sink for F {
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
        self(found)
    }
}

/// Configures and builds a [`Scanner`].
#[derive(Clone, Debug, Default)]
pub struct ScannerBuilder {
    any_scheme: bool,
    hyphen: HyphenMode,
    report_invalid: bool,
}

impl ScannerBuilder {
    /// A builder with the defaults.
    pub fn new() -> ScannerBuilder {
        ScannerBuilder::default()
    }
    /// Accept any syntactically valid scheme, not only known ones, before `:` without `//`.
    pub fn any_scheme(&mut self, yes: bool) -> &mut Self {
        self.any_scheme = yes;
        self
    }
    /// How to read a line break after `-` inside angle brackets.
    pub fn hyphen(&mut self, mode: HyphenMode) -> &mut Self {
        self.hyphen = mode;
        self
    }
    /// Also report candidates that fail the parser, with their error.
    pub fn report_invalid(&mut self, yes: bool) -> &mut Self {
        self.report_invalid = yes;
        self
    }
    /// Builds the scanner.
    pub fn build(&self) -> Scanner {
        Scanner {
            config: self.clone(),
        }
    }
}

/// Finds URIs in text. Build once, reuse; `Clone + Send + Sync`.
#[derive(Clone, Debug)]
pub struct Scanner {
    config: ScannerBuilder,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new()
    }
}

impl Scanner {
    /// A scanner with the default configuration.
    pub fn new() -> Scanner {
        ScannerBuilder::new().build()
    }
    /// A builder, to configure a scanner.
    pub fn builder() -> ScannerBuilder {
        ScannerBuilder::new()
    }
    /// Iterates over the URIs in `haystack`, in order of appearance.
    pub fn find_iter<'s, 'h>(&'s self, haystack: &'h [u8]) -> FindIter<'s, 'h> {
        FindIter {
            scanner: self,
            haystack,
        }
    }
    /// Scans everything `rdr` gives, calling `sink` for each URI, in bounded memory.
    /// The results equal those of [`Scanner::find_iter`] over the same bytes.
    pub fn scan_reader<R: io::Read, S: Sink>(&self, rdr: R, sink: S) -> io::Result<()> {
        let _ = (rdr, sink, &self.config);
        todo!("scanner issue")
    }
}

/// Iterator over the URIs in a slice; see [`Scanner::find_iter`].
#[derive(Debug)]
pub struct FindIter<'s, 'h> {
    scanner: &'s Scanner,
    haystack: &'h [u8],
}

impl<'s, 'h> Iterator for FindIter<'s, 'h> {
    type Item = Found<'h>;
    fn next(&mut self) -> Option<Found<'h>> {
        let _ = (self.scanner, self.haystack);
        todo!("scanner issue")
    }
}
