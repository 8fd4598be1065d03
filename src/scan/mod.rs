//! The RFC 3986 Appendix C scanner: finds the URIs in text, in one pass.
//!
//! Build a [`Scanner`] once (it is `Clone + Send + Sync`) and reuse it:
//! [`Scanner::find_iter`] iterates over a slice, [`Scanner::scan_reader`]
//! streams any `io::Read` in bounded memory with exactly the same results.
//!
//! ```
//! use uriscan::{Delimiter, Scanner};
//!
//! let text = b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",
//! but you can probably pick it up from <ftp://foo.example.
//! com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/
//! ietf/uri/historical.html#WARNING>.";
//! let scanner = Scanner::new();
//! let uris: Vec<_> = scanner.find_iter(text).collect();
//! assert_eq!(uris[0].as_str(), "http://www.w3.org/Addressing/");
//! assert_eq!(uris[0].delimiter(), Delimiter::Quote);
//! assert_eq!(uris[1].as_str(), "ftp://foo.example.com/rfc/");
//! assert!(uris[1].is_wrapped());
//! assert_eq!((uris[1].line(), uris[1].column()), (2, 39));
//! assert_eq!(uris[2].as_str(), "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING");
//! ```
//!
//! # Conformance
//!
//! Each rule, and the judgement calls in it:
//!
//! 1. **Angle brackets.** `<...>` holding a URI gives that URI, whatever it
//!    ends with (`<http://example.org/a.>` keeps its dot). Whitespace runs
//!    that contain a line break are removed (the URI was wrapped); so are,
//!    on the continuation lines, the mail quote prefix (`>`, `>>`, `> >`) of
//!    the line where the URI starts, and a paginated text's page break
//!    (blank lines, footer line, form feed, header line). *Judgement call:*
//!    a space inside a line (`<http://x.org/ for details>`) means the
//!    brackets hold prose, not a wrapped URI, and the text is read by the
//!    bare rules instead. A `URL:` prefix (any case, with or without
//!    whitespace after it) is stripped. The `>` must come within
//!    `max_candidate_len` bytes, before any blank line that is not a page
//!    break, and before any byte that cannot be in a URI; otherwise the
//!    `<` is not a bracket, and the text is read by the bare rules. So are
//!    brackets whose content does not parse (HTML tags, e-mail addresses,
//!    message-ids): `<a href="http://x.org/">` gives `http://x.org/`.
//! 2. **Hyphen rule.** A line break right after `-` inside brackets is
//!    joined, with all whitespace around it; the hyphen is kept and
//!    [`Found::has_hyphen_break`] is set ([`HyphenMode`] gives the other
//!    readings). A U+2010 HYPHEN or U+00AD SOFT HYPHEN at the end of a line
//!    inside brackets is a typesetter's: it is dropped and the parts joined.
//! 3. **Double quotes.** `"..."` around a URI with no whitespace gives it
//!    whole, punctuation included; so does one whose lines end in `-` (the
//!    hyphen rule, as in brackets: `"http://www.kernel-` / `notes.org"`,
//!    indentation skipped). Anything else is read by the bare rules, and a
//!    bare URI whose line ends in `-` is joined with the next line's first
//!    word (past a mail quote prefix of the same depth) when that reads as
//!    its rest (it holds a `/`, `.`, `?`, `#`, `=`, `&` or `%` and no `:`):
//!    `http://www.rfc-` / `editor.org/rfc.html`. *Judgement call:* a word of
//!    prose after the break (`well-` / `known`) is not joined; over the RFCs
//!    and mail of our corpus every join made was right.
//! 4. **Bare URIs** start at a scheme at a word boundary and end before
//!    whitespace or any character that cannot be in a URI or an IRI (but one
//!    that runs into a `{` is a template, RFC 6570's
//!    `http://x.org/search{?q}` or a program's `http://${host}/`, and gives
//!    nothing: not `http://$`), or before a `)` or `]` with no opening
//!    partner after its start: nothing after such a bracket belongs to it,
//!    so `(http://a.org/)(http://b.org/)` holds two URIs and a Markdown
//!    badge `[![alt](IMG)](LINK)` gives both `IMG` and `LINK`, while
//!    `…/Rust_(programming_language)` keeps its pair. One opened by `'` ends
//!    at the next `'` (`xmlns='urn:x'/>`, `open('http://x.org/','w')`: `'`
//!    is a sub-delim, so the run goes on past it). Then `. , ; : ! ? *` (and
//!    `...`), an opening `(` or `[`, and a `'` with no other `'` before it
//!    in the URI (but right before it) are trimmed from the end (so
//!    `…/blah_'quoted'` keeps its pair), and a `_` when a `_` opened the URI
//!    (Markdown's `_…_`), and a run of four or more `_`: a rule line glued
//!    to the URI (a mailing list's footer separator after a quoted-printable
//!    soft break). Text glued before a scheme with `.` is not part of it
//!    (`post.https://x.org/` gives `https://x.org/`), nor are letters glued
//!    to `http://` or `https://` in a scheme nobody uses
//!    (`Seehttps://x.org/`, `forumhttp://`, the last byte of a Shift-JIS or
//!    Big5 character read undecoded). *Judgement call:* the bracket rule
//!    cuts where linkify's only trims, because a closing bracket a URI did
//!    not open is far more often the text's than the URI's (every such case
//!    read over our corpora and `/usr/share/doc` was the text's:
//!    `(http://x.org/)'s`, `[mailto:a@b]On Behalf Of`).
//! 5. **Schemes.** Any valid scheme followed by `://` starts a candidate,
//!    but one of a single letter (`C://temp` is a Windows drive). Without
//!    `//`, only known schemes do (the IANA registry's permanent and
//!    provisional ones and uri(7)'s, any case; see
//!    [`ScannerBuilder::any_scheme`]), and those that are also common words
//!    must have their specification's shape (a `mailto:` has an `@`, a
//!    `urn:` a namespace, a `tel:` a `+` and digits or a local number's
//!    `;phone-context=`, `info:` a `namespace/`, `tag:` an
//!    `authority,date:`; `message:`, `session:`, `service:` and a few others
//!    count only with `//`). A scheme followed by whitespace (`News: …`) is
//!    never a URI; neither is `URL:` itself. *Judgement call:* a known
//!    scheme's name followed by a number is a service and its port
//!    (`redis:6379`; but `oid:2`, `facetime:14085551234`), followed by an
//!    account line's fields a user (`man:x:6:12:…` in `/etc/passwd`), and
//!    after a `/` and before the next path or a variable the end of a path
//!    in a list (`MANPATH=/usr/share/man:/usr/local/man`). A scheme glued to a digit is
//!    the end of a word (`04bb:0528`, `1abc://foo`), unless the digit ends
//!    an escape (`=A0https://…`: quoted-printable read undecoded).
//! 6. **Validation.** Every candidate is parsed by [`UriRef`]; an invalid
//!    one is not reported, nor "repaired" into a shorter one
//!    ([`ScannerBuilder::report_invalid`] reports it with its error).
//!    *Judgement call:* a `#` inside a fragment, which RFC 3986 does not
//!    allow, is read as `%23`, as browsers read it and as documents' links
//!    are read (`https://matrix.to/#/#room:example.org` gives
//!    `https://matrix.to/#/%23room:example.org`; `…/bithacks.html##ValueInWord`
//!    gives `…#%23ValueInWord`); not after a scheme alone (`gs://#a#/b`, a
//!    placeholder) nor in text with a character reference (`r&#xE9;sum&#xE9;`).
//! 7. **IRIs** (RFC 3987). Non-ASCII letters, marks, digits and symbols
//!    continue a candidate in every reading (bare, quoted, in brackets);
//!    Unicode whitespace and punctuation end it (U+3000, `、。，．：；！？`,
//!    the full-width and CJK brackets, NBSP, zero-width space, the bidi
//!    controls, `…`, curly quotes, `«»`; the list is
//!    `uri::ucs::is_word_char`'s; but a hyphen or en dash followed by a
//!    letter or digit goes on, as in `…/wiki/Navier–Stokes_equations`),
//!    and so does a byte that does not start
//!    a valid UTF-8 character (text in another encoding, read undecoded).
//!    So a URI is never cut at its first non-ASCII character into a shorter,
//!    different one (`http://müller.de/` is not `http://m`): the candidate
//!    is read whole, then parsed as an IRI ([`crate::IriRef`]) and
//!    reported as [`IriMode`] says (by default, as the URI it maps to:
//!    `http://xn--mller-kva.de/`). *Judgement call:* letters glued after a
//!    URI belong to it (`http://x.jp/を参照` is one IRI, as RFC 3987 reads
//!    it; Japanese puts no space there, and the alternative, cutting at a
//!    change of script, would cut real IRIs such as
//!    `https://ja.wikipedia.org/wiki/東京`). *Judgement call:* without
//!    `//`, a non-ASCII character right after the scheme's `:` starts an
//!    IRI only in an address with an `@` (`mailto:用户@例子.广告`, `xmpp:`,
//!    `sip:`, `im:`, `pres:`, `jabber:`): a known scheme's name glued to
//!    non-ASCII text is far more often a label and its value (`Tip:設定…`,
//!    `Data:東京,大阪`, German `Im:Übrigen`).
//! 8. Relative references and bare `www.example.com` are not reported.
//! 9. **JSON strings.** In a line of JSON (a log's `{"url":"https:\/\/…"}`,
//!    a pretty-printed member), the escapes of its strings are read as what
//!    they stand for (`\/`, `\u0026`, `\"`), and the URI is reported with
//!    the span of what was written: see [`ScannerBuilder::json_escapes`].
//!    *Judgement call:* `\n` in a JSON string is read as a blank, so that
//!    lines count as written.
//!
//! Lines are counted by `\n` (so CRLF text counts right; a lone CR does not
//! end a line) and columns in bytes, both from 1.
//!
//! [`UriRef`]: crate::UriRef

mod candidate;
mod chars;
mod chunks;
mod colons;
mod core;
mod cut;
mod json;
mod run;
mod schemes;
pub(crate) mod segments;
mod stream;
mod trim;
mod unwrap;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io;

pub use self::chunks::{Chunk, Chunks, Rest, DEFAULT_CHUNK_SIZE};
#[cfg(feature = "mail")]
pub(crate) use self::core::LOOKBACK;
#[cfg(feature = "mail")]
pub(crate) use self::core::{candidate_colon, escaped_colon, may_hold_candidate};
pub(crate) use self::core::{Core, Window};
use self::core::{Report, Step, ToSink};
#[cfg(feature = "mail")]
pub(crate) use self::cut::is_safe_cut;
pub use self::segments::{ReadAt, Segment, SegmentEnd, Segments, DEFAULT_SEGMENT_SIZE};
#[cfg(feature = "mail")]
pub(crate) use self::stream::read_retrying;

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

/// What to make of a URI written with non-ASCII characters: an IRI (RFC
/// 3987), such as `http://müller.de/straße` or `https://ja.wikipedia.org/wiki/東京`.
///
/// Whatever the mode, such a candidate is read whole (up to a space or a
/// mark of punctuation, see the module docs), never cut at its first
/// non-ASCII character into a shorter URI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IriMode {
    /// Report the URI it maps to ([`crate::IriRef::to_uri`]: UTF-8
    /// percent-encoded, DNS hosts as IDNA A-labels), so every URI reported
    /// is an RFC 3986 URI; [`Found::iri`] gives it as written. The default.
    #[default]
    Uri,
    /// Report it as written, validated as an IRI.
    Keep,
    /// It is not a URI (reported as invalid on request, with the error at
    /// its first non-ASCII byte).
    Off,
}

/// One URI (or, on request, one invalid candidate) found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<'h> {
    text: Cow<'h, str>,
    iri: Option<Cow<'h, str>>,
    span: Span,
    line: u64,
    column: u64,
    delimiter: Delimiter,
    wrapped: bool,
    url_prefix: bool,
    hyphen_break: bool,
    error: Option<ParseError>,
    mail: Option<InMessage<'h>>,
}

/// Where in a message a URI was found, for input read as mail (see
/// [`crate::mail`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InMessage<'h> {
    pub(crate) message_id: Option<Cow<'h, str>>,
    pub(crate) message_line: u64,
    pub(crate) part: Cow<'h, str>,
}

impl InMessage<'_> {
    /// The message's `Message-ID`, without its angle brackets, if it has one.
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }
    /// The 1-based line of the input where the message starts (its `From `
    /// line in an mbox).
    pub fn message_line(&self) -> u64 {
        self.message_line
    }
    /// Where in the message: `text/plain`, `text/html` (or another `text/`
    /// type), `header:List-Archive`, `preamble`, `epilogue`, or `raw` for
    /// text that could not be decoded.
    pub fn part(&self) -> &str {
        &self.part
    }
    fn into_owned(self) -> InMessage<'static> {
        InMessage {
            message_id: self.message_id.map(|id| Cow::Owned(id.into_owned())),
            message_line: self.message_line,
            part: Cow::Owned(self.part.into_owned()),
        }
    }
}

impl<'h> Found<'h> {
    /// The URI text: ASCII for every valid URI, unless [`IriMode::Keep`]
    /// reports an IRI as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The IRI as written (with its non-ASCII characters), when the URI
    /// was written as one, or the reference as written when a `#` in its
    /// fragment is read as `%23`, or a `[` or `]` in its query or fragment
    /// as `%5B`, `%5D`; `None` for a URI written as it is
    /// reported. Under [`IriMode::Uri`], [`Found::as_str`] is the URI it
    /// maps to.
    pub fn iri(&self) -> Option<&str> {
        self.iri.as_deref()
    }
    /// The URI text as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }
    /// Byte span in the input, delimiters excluded (offsets from the start
    /// of the stream; the end is exclusive). In mail, the span of the URI's
    /// text in the file as it was written, encoded (see [`crate::mail`]).
    pub fn span(&self) -> Span {
        self.span
    }
    /// 1-based line of the first byte (in mail, the line of the file); 0
    /// when the scanner counts no lines ([`ScannerBuilder::line_numbers`]).
    pub fn line(&self) -> u64 {
        self.line
    }
    /// 1-based column of the first byte, counted in bytes.
    pub fn column(&self) -> u64 {
        self.column
    }
    /// Where in a message the URI was found, for input read as mail.
    pub fn message(&self) -> Option<&InMessage<'h>> {
        self.mail.as_ref()
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

impl Found<'_> {
    /// A URI that markup names (a document's `href`): bounded by nothing,
    /// never joined at a hyphen, at `span`, `line` and `column`; `iri`,
    /// the IRI as written when `text` was mapped from one; `error`, the
    /// parser's, for a reference reported though it is neither
    /// ([`ScannerBuilder::report_invalid`]); `wrapped`, whether the markup
    /// wrote it over lines (breaks that a browser removes).
    #[cfg(feature = "docs")]
    pub(crate) fn named(
        text: String,
        iri: Option<String>,
        error: Option<ParseError>,
        span: Span,
        (line, column): (u64, u64),
        wrapped: bool,
    ) -> Found<'static> {
        Found {
            text: Cow::Owned(text),
            iri: iri.map(Cow::Owned),
            span,
            line,
            column,
            delimiter: Delimiter::None,
            wrapped,
            url_prefix: false,
            hyphen_break: false,
            error,
            mail: None,
        }
    }

    /// This find placed elsewhere: its text borrowed, at `span`, `line` and
    /// `column`, in a message when `mail` says so (a document's text, and
    /// text with JSON escapes, are placed in their source this way too).
    pub(crate) fn placed<'a>(
        &'a self,
        span: Span,
        line: u64,
        column: u64,
        mail: Option<InMessage<'a>>,
    ) -> Found<'a> {
        Found {
            text: Cow::Borrowed(&self.text),
            iri: self.iri.as_deref().map(Cow::Borrowed),
            span,
            line,
            column,
            delimiter: self.delimiter,
            wrapped: self.wrapped,
            url_prefix: self.url_prefix,
            hyphen_break: self.hyphen_break,
            error: self.error,
            mail,
        }
    }

    /// Returns the match with its text owned, free of the input's lifetime.
    pub fn into_owned(self) -> Found<'static> {
        Found {
            text: Cow::Owned(self.text.into_owned()),
            iri: self.iri.map(|iri| Cow::Owned(iri.into_owned())),
            mail: self.mail.map(InMessage::into_owned),
            ..self
        }
    }
}

/// Receives what a scan finds, in order of appearance: the one protocol of
/// every scan, of a slice, a stream or mail. (In mail, each part in turn;
/// in an HTML part, the URIs of its attribute values come before those of
/// its text.)
///
/// Closures `FnMut(&Found<'_>) -> io::Result<bool>` are sinks. Returning
/// `Ok(false)` stops the scan; an error stops it and is returned.
pub trait Sink {
    /// Called for each URI found (and, on request, each invalid candidate).
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool>;

    /// Called for a candidate that reached the scanner's candidate limit
    /// ([`ScannerBuilder::max_candidate_len`]), which was given up on: the offset of its first byte and its
    /// line. Does nothing by default.
    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool> {
        let _ = (start, line);
        Ok(true)
    }

    /// Called for a problem that did not stop the scan: in mail, a message
    /// or part that could not be decoded as it says (what could be decoded
    /// is scanned), with the line where the message starts. Does nothing by
    /// default.
    fn warning(&mut self, line: u64, warning: &str) -> io::Result<bool> {
        let _ = (line, warning);
        Ok(true)
    }

    /// Called by [`Scanner::scan_reader`] before each read of its reader,
    /// which may wait (a pipe, a terminal, `tail -f`). A sink that holds
    /// what it is given may pass it on here, so that the URIs of a slow
    /// stream come out as its lines arrive. `Ok(false)` stops the scan.
    /// Does nothing by default.
    ///
    /// By then the sink has been given what the bytes read so far decide,
    /// but a candidate they leave open: one whose end has not been read
    /// yet, or that a line-end `-` or an open `<` may carry on to the next
    /// line, waits until the bytes read from it have doubled, or until a
    /// read that comes back short (its reader had no more at once) brings
    /// a line break, once per doubling. So a log's lines come out as they
    /// arrive, and the scan stays linear whatever the read sizes.
    fn before_read(&mut self) -> io::Result<bool> {
        Ok(true)
    }
}

impl<F: FnMut(&Found<'_>) -> io::Result<bool>> Sink for F {
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
        self(found)
    }
}

/// The default [`ScannerBuilder::max_candidate_len`]: 64 KiB.
pub const DEFAULT_MAX_CANDIDATE_LEN: usize = 64 * 1024;

/// The largest [`ScannerBuilder::max_candidate_len`]: 1 GiB. A larger
/// limit would only make [`Scanner::scan_reader`] ask for more memory
/// than a machine has (and near `usize::MAX`, overflow a window's bounds).
pub const LARGEST_MAX_CANDIDATE_LEN: usize = 1 << 30;

/// Configures and builds a [`Scanner`].
#[derive(Clone, Debug)]
pub struct ScannerBuilder {
    any_scheme: bool,
    iri: IriMode,
    hyphen: HyphenMode,
    report_invalid: bool,
    max_candidate_len: usize,
    line_numbers: bool,
    json_escapes: bool,
}

impl Default for ScannerBuilder {
    fn default() -> ScannerBuilder {
        ScannerBuilder {
            any_scheme: false,
            iri: IriMode::Uri,
            hyphen: HyphenMode::Keep,
            report_invalid: false,
            max_candidate_len: DEFAULT_MAX_CANDIDATE_LEN,
            line_numbers: true,
            json_escapes: true,
        }
    }
}

impl ScannerBuilder {
    /// A builder with the defaults.
    pub fn new() -> ScannerBuilder {
        ScannerBuilder::default()
    }

    /// When true, any valid scheme followed by `:` starts a candidate, not
    /// only known ones (`key:value` then counts). Default false.
    pub fn any_scheme(&mut self, yes: bool) -> &mut Self {
        self.any_scheme = yes;
        self
    }

    /// What to make of a URI written with non-ASCII characters (an IRI).
    /// Default [`IriMode::Uri`].
    pub fn iri(&mut self, mode: IriMode) -> &mut Self {
        self.iri = mode;
        self
    }

    /// How to read a line break right after `-` inside angle brackets.
    /// Default [`HyphenMode::Keep`].
    pub fn hyphen(&mut self, mode: HyphenMode) -> &mut Self {
        self.hyphen = mode;
        self
    }

    /// When true, bare and quoted candidates that fail the parser are
    /// reported too, with [`Found::error`] set (and, with the `docs`
    /// feature, a document's links that fail it). Default false.
    pub fn report_invalid(&mut self, yes: bool) -> &mut Self {
        self.report_invalid = yes;
        self
    }

    /// The candidate limit, in bytes (at least 256, at most
    /// [`LARGEST_MAX_CANDIDATE_LEN`]; a value outside is taken as the
    /// nearest bound): a candidate is shorter. A bare one that runs this
    /// long or longer is given up on
    /// and reported to [`Sink::too_long`], and a `<` whose `>` is further
    /// away is not a bracket. It bounds the memory of
    /// [`Scanner::scan_reader`], which is about this plus 66 KiB. Default
    /// [`DEFAULT_MAX_CANDIDATE_LEN`].
    pub fn max_candidate_len(&mut self, bytes: usize) -> &mut Self {
        self.max_candidate_len = bytes.clamp(256, LARGEST_MAX_CANDIDATE_LEN);
        self
    }

    /// When false, lines are not counted: [`Found::line`] is 0 (and so is
    /// [`SegmentEnd::lines`]), while columns are still given. Counting is
    /// a pass over every byte up to each URI; without it the scan only
    /// looks back from a URI to the start of its line (about a fifth less
    /// time over text with few URIs, such as RFCs). Default true.
    pub fn line_numbers(&mut self, yes: bool) -> &mut Self {
        self.line_numbers = yes;
        self
    }

    /// When true, the escapes of JSON strings are read as what they stand
    /// for, so that a URI a JSON log wrote escaped is found whole:
    /// `{"url":"https:\/\/a.example\/?x=1\u0026y=2"}` gives
    /// `https://a.example/?x=1&y=2`, with the span of the escaped text. A
    /// line's strings are read from its first `"` after a `{` or `[` (and
    /// the numbers, `true`, `false` and `null` an array starts with), or
    /// from its start, when it starts with `"`, and only those that end on
    /// their line, at most 64 KiB after they open (a line longer than
    /// that, a minified JSON file, is read string by string, in bounded
    /// memory; mail's pieces of a message over 16 MiB, cut inside such a
    /// line, are read as they are cut); a string that holds JSON
    /// (Docker's `json-file` log) has its own strings decoded too. `\n`
    /// and the other control characters are read as a blank. When false, the text is scanned as
    /// written (`\/` and `\u0026` end a URI). Default true.
    ///
    /// ```
    /// use uriscan::Scanner;
    ///
    /// let log = br#"{"level":"info","url":"https:\/\/a.example\/q?x=1\u0026y=2"}"#;
    /// let found: Vec<_> = Scanner::new().find_iter(log).collect();
    /// assert_eq!(found[0].as_str(), "https://a.example/q?x=1&y=2");
    /// assert_eq!(&log[found[0].span().start..found[0].span().end], br"https:\/\/a.example\/q?x=1\u0026y=2");
    /// ```
    pub fn json_escapes(&mut self, yes: bool) -> &mut Self {
        self.json_escapes = yes;
        self
    }

    /// Builds the scanner.
    pub fn build(&self) -> Scanner {
        Scanner {
            config: self.clone(),
        }
    }
}

/// Finds URIs in text. Build once and reuse; `Clone + Send + Sync`.
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

    /// Returns true if and only if this scanner counts lines
    /// ([`ScannerBuilder::line_numbers`]).
    pub fn counts_lines(&self) -> bool {
        self.config.line_numbers
    }

    /// A reference that markup names (a document's `href`), read as a
    /// candidate's text is: a URI-reference, or an IRI-reference reported
    /// as [`ScannerBuilder::iri`] says. The text to report, and the IRI as
    /// written when the reference is one; the parser's error when it is
    /// neither.
    #[cfg(feature = "docs")]
    pub(crate) fn parse_named(&self, text: &str) -> Result<(String, Option<String>), ParseError> {
        let valid = candidate::parse(text.as_bytes(), self.config.iri, true)?;
        Ok((valid.text.into_owned(), valid.iri.map(Cow::into_owned)))
    }

    /// Returns true if and only if candidates that fail validation are
    /// reported too, with their error ([`ScannerBuilder::report_invalid`]).
    #[cfg(feature = "docs")]
    pub(crate) fn reports_invalid(&self) -> bool {
        self.config.report_invalid
    }

    /// Returns true if and only if IRIs are reported as written
    /// ([`IriMode::Keep`]).
    #[cfg(feature = "docs")]
    pub(crate) fn keeps_iris(&self) -> bool {
        self.config.iri == IriMode::Keep
    }

    /// Returns true if and only if this scanner takes the scheme of `uri`:
    /// any scheme followed by `//`; without `//`, a known scheme, or any
    /// with [`ScannerBuilder::any_scheme`]. A relative reference has no
    /// scheme and passes. This is the rule the scanner applies in text
    /// (`Scheme::before`), without the shapes some known schemes require
    /// there (`Scheme::accepts`): a link in markup is meant as one. But a
    /// scheme that requires a host (`http`, `ftp`, …) must have one:
    /// `href="http://"`, a template's placeholder, names nothing.
    #[cfg(feature = "docs")]
    pub(crate) fn takes_scheme_of(&self, uri: &crate::UriRef<'_>) -> bool {
        match uri.scheme() {
            None => true,
            // `href="http://"`: no host, as the text's `http://` is no URI.
            Some(scheme)
                if schemes::requires_host(scheme.as_bytes())
                    && uri.host().is_none_or(str::is_empty) =>
            {
                false
            }
            Some(scheme) => self.takes_scheme(scheme.as_bytes(), uri.authority().is_some()),
        }
    }

    /// The rule of the two above: a scheme followed by `//` (`slashes`),
    /// or a known one, or any with [`ScannerBuilder::any_scheme`].
    #[cfg(feature = "docs")]
    fn takes_scheme(&self, scheme: &[u8], slashes: bool) -> bool {
        slashes || self.config.any_scheme || schemes::is_known(scheme)
    }

    /// Returns true if and only if this scanner takes the scheme that
    /// `written`, a reference that does not parse, starts with, as
    /// [`Scanner::takes_scheme_of`] takes a parsed one's: none (a
    /// relative reference), or one followed by `//`, or a known one, or
    /// any with [`ScannerBuilder::any_scheme`].
    #[cfg(feature = "docs")]
    pub(crate) fn takes_scheme_written(&self, written: &str) -> bool {
        let Some(colon) = crate::uri::scheme_end(written.as_bytes()) else {
            return true;
        };
        self.takes_scheme(
            &written.as_bytes()[..colon],
            written[colon + 1..].starts_with("//"),
        )
    }

    /// A builder, to configure a scanner.
    pub fn builder() -> ScannerBuilder {
        ScannerBuilder::new()
    }

    /// The longest candidate this scanner looks at, in bytes (see
    /// [`ScannerBuilder::max_candidate_len`]).
    pub fn max_candidate_len(&self) -> usize {
        self.config.max_candidate_len
    }

    /// Iterates over the URIs in `haystack`, in order of appearance.
    /// Candidates that reach the candidate limit are skipped; use
    /// [`Scanner::scan_slice`] to hear about them.
    pub fn find_iter<'s, 'h>(&'s self, haystack: &'h [u8]) -> FindIter<'s, 'h> {
        let decoded = self
            .config
            .json_escapes
            .then(|| json::decode_slice(haystack, 0, 0))
            .flatten();
        FindIter {
            core: Core::new(self),
            haystack,
            decoded,
            queue: VecDeque::new(),
            done: false,
        }
    }

    /// Scans `haystack`, calling `sink` for each URI and each over-long
    /// candidate, in order of appearance.
    ///
    /// # Errors
    ///
    /// The first error `sink` returns.
    pub fn scan_slice<S: Sink>(&self, haystack: &[u8], mut sink: S) -> io::Result<()> {
        let win = Window {
            hay: haystack,
            offset: 0,
            eof: true,
        };
        self.scan_window(&win, &mut Core::new(self), &mut sink)
            .map(|_| ())
    }

    /// Scans the whole of `win` (which must end where its input ends) from
    /// `core`'s position, calling `sink`. Returns false when the sink asked
    /// to stop.
    pub(crate) fn scan_window<S: Sink + ?Sized>(
        &self,
        win: &Window<'_>,
        core: &mut Core<'_>,
        sink: &mut S,
    ) -> io::Result<bool> {
        debug_assert!(win.eof, "a window scanned whole ends with its input");
        if self.config.json_escapes {
            let from = json::line_start_from(win.hay, core.pos - win.offset);
            if let Some((text, map)) = json::decode_slice(win.hay, from, win.offset) {
                let decoded = Window {
                    hay: &text,
                    offset: win.offset,
                    eof: true,
                };
                return self.scan_decoded_window(&decoded, core, &mut json::Placing { sink, map });
            }
        }
        self.scan_decoded_window(win, core, sink)
    }

    /// [`Scanner::scan_window`] of text whose JSON strings are decoded (or
    /// that is not to be decoded).
    fn scan_decoded_window<S: Sink + ?Sized>(
        &self,
        win: &Window<'_>,
        core: &mut Core<'_>,
        sink: &mut S,
    ) -> io::Result<bool> {
        let mut report = ToSink(sink);
        loop {
            match core.step(win, &mut report)? {
                Step::Progress => {}
                Step::Stopped => return Ok(false),
                Step::Exhausted | Step::NeedMore => return Ok(true),
            }
        }
    }

    /// Scans everything `rdr` gives, calling `sink` for each URI, in
    /// bounded memory (see [`ScannerBuilder::max_candidate_len`]). The
    /// results equal those of [`Scanner::scan_slice`] over the same bytes,
    /// whatever the sizes of the reads; span offsets count from the start
    /// of the stream.
    ///
    /// ```
    /// use uriscan::Scanner;
    ///
    /// let mut uris = Vec::new();
    /// let input: &[u8] = b"see <http://example.org/a/\n  b> and mailto:x@y.org.";
    /// Scanner::new().scan_reader(input, |f: &uriscan::Found<'_>| {
    ///     uris.push(f.as_str().to_string());
    ///     Ok(true)
    /// })?;
    /// assert_eq!(uris, ["http://example.org/a/b", "mailto:x@y.org"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A read error (other than `Interrupted`, which is retried), or the
    /// first error `sink` returns.
    pub fn scan_reader<R: io::Read, S: Sink>(&self, rdr: R, sink: S) -> io::Result<()> {
        stream::scan_reader(self, rdr, sink, 0)
    }

    /// [`Scanner::scan_reader`] with reads of at most `read_size` bytes:
    /// for tests that results do not depend on where reads end.
    #[doc(hidden)]
    pub fn scan_reader_with_read_size<R: io::Read, S: Sink>(
        &self,
        rdr: R,
        sink: S,
        read_size: usize,
    ) -> io::Result<()> {
        stream::scan_reader(self, rdr, sink, read_size)
    }
}

/// Iterator over the URIs in a slice; see [`Scanner::find_iter`].
#[derive(Debug)]
pub struct FindIter<'s, 'h> {
    core: Core<'s>,
    haystack: &'h [u8],
    /// The haystack with its JSON strings decoded, and its map, when that
    /// changed it ([`ScannerBuilder::json_escapes`]).
    decoded: Option<(Vec<u8>, crate::source_map::SourceMap)>,
    queue: VecDeque<Found<'h>>,
    done: bool,
}

/// The slice iterator's receiver: URIs wait in a queue until asked for;
/// over-long candidates are skipped.
impl<'h> Report<'h> for VecDeque<Found<'h>> {
    fn found(&mut self, found: Found<'h>) -> io::Result<bool> {
        self.push_back(found);
        Ok(true)
    }

    fn too_long(&mut self, _start: usize, _line: u64) -> io::Result<bool> {
        Ok(true)
    }
}

impl<'h> Iterator for FindIter<'_, 'h> {
    type Item = Found<'h>;

    fn next(&mut self) -> Option<Found<'h>> {
        while self.queue.is_empty() && !self.done {
            self.done = match &self.decoded {
                None => step_once(&mut self.core, self.haystack, &mut self.queue),
                Some((text, map)) => {
                    let mut placed = PlacedQueue {
                        queue: &mut self.queue,
                        map,
                    };
                    step_once(&mut self.core, text, &mut placed)
                }
            };
        }
        self.queue.pop_front()
    }
}

impl std::iter::FusedIterator for FindIter<'_, '_> {}

/// One step of `core` over all of `hay`; true when the scan is done.
fn step_once<'w, R: Report<'w>>(core: &mut Core<'_>, hay: &'w [u8], report: &mut R) -> bool {
    let win = Window {
        hay,
        offset: 0,
        eof: true,
    };
    core.step(&win, report).expect("the queue never fails") != Step::Progress
}

/// The slice iterator's receiver for decoded text: each URI is placed in
/// the haystack, its text owned, and waits in the queue.
struct PlacedQueue<'q, 'h> {
    queue: &'q mut VecDeque<Found<'h>>,
    map: &'q crate::source_map::SourceMap,
}

impl Report<'_> for PlacedQueue<'_, '_> {
    fn found(&mut self, found: Found<'_>) -> io::Result<bool> {
        self.queue
            .push_back(json::placed(self.map, &found).into_owned());
        Ok(true)
    }

    fn too_long(&mut self, _start: usize, _line: u64) -> io::Result<bool> {
        Ok(true)
    }
}
