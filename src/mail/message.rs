//! One message, its parts as text to scan, and where their bytes stand in
//! the input: every part keeps the maps from its decoded text back to the
//! message (see [`SourceMap`]), and the message knows its offset and line
//! in the input, so that a URI found in a decoded part is reported at the
//! line and column of the file where its text was written.

use std::borrow::Cow;
use std::io;
use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

use mail_parser::{MessageParser, MimeHeaders, PartType};
use memchr::memmem;

use super::charset;
use super::decode::{self, Decoded};
use super::header::{Coding, Head};
use super::mime;
use super::structure::{self, Structure};
use crate::html::{self, LinkAttributes};
use crate::scan::{
    candidate_colon, escaped_colon, may_hold_candidate, Core, Found, InMessage, Scanner, Sink,
    Window,
};
use crate::source_map::SourceMap;
use crate::span::Span;

/// A message of the input (or a piece of raw text of a message too large
/// to be decoded; see [`Message::is_raw`]).
pub struct Message {
    /// Holds the message's bytes at `range`: its own, or, when `lent`, the
    /// buffer of the [`super::Messages`] it comes from, lent to be scanned
    /// without a copy and taken back after (`Messages::each_lent`).
    buf: Vec<u8>,
    range: Range<usize>,
    lent: bool,
    reading: Reading,
}

/// How a message is read, and where its bytes stand in the input.
#[derive(Debug)]
pub(super) enum Reading {
    /// Decoded as mail.
    Mail {
        /// The line of the input where the message starts (its `From `
        /// line in an mbox).
        line: u64,
        /// The line of the input of `bytes[0]`.
        first_line: u64,
        /// The offset in the input of `bytes[0]`.
        offset: usize,
        /// Where a `>` of a `>From ` line was taken out before (offsets in
        /// `bytes`), in order.
        unescaped: Vec<usize>,
    },
    /// A piece of a message too large to decode, scanned as raw text from
    /// `bytes[from]` (the bytes before it are the end of the piece before,
    /// only looked back into).
    Raw {
        line: u64,
        /// True for the message's first piece.
        first: bool,
        from: usize,
        /// The line of the input of `bytes[from]`, and the offset where
        /// that line starts.
        first_line: u64,
        line_start: usize,
        /// The offset in the input of `bytes[0]`.
        offset: usize,
    },
}

/// Its bytes and how it is read (not the rest of a buffer it was lent).
impl std::fmt::Debug for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Message")
            .field("bytes", &self.bytes())
            .field("reading", &self.reading)
            .finish()
    }
}

impl Message {
    pub(super) fn new(bytes: Vec<u8>, reading: Reading) -> Message {
        Message {
            range: 0..bytes.len(),
            buf: bytes,
            lent: false,
            reading,
        }
    }

    /// The message at `buf[range]`, in a buffer lent to it.
    pub(super) fn lent(buf: Vec<u8>, range: Range<usize>, reading: Reading) -> Message {
        Message {
            buf,
            range,
            lent: true,
            reading,
        }
    }

    /// The buffer it was lent, if it was.
    pub(super) fn into_lent(self) -> Option<Vec<u8>> {
        self.lent.then_some(self.buf)
    }

    /// The line of the input where the message starts (its `From ` line
    /// in an mbox).
    pub fn line(&self) -> u64 {
        match self.reading {
            Reading::Mail { line, .. } | Reading::Raw { line, .. } => line,
        }
    }

    /// The message as read: without its mbox `From ` line, with `>From `
    /// lines unescaped (for a raw piece, its text and the few bytes before
    /// it that it looks back into).
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }

    /// Returns true if and only if this is a piece of raw text of a message
    /// larger than [`super::MAX_MESSAGE`], which is scanned as it is, not
    /// decoded.
    pub fn is_raw(&self) -> bool {
        matches!(self.reading, Reading::Raw { .. })
    }

    /// The text that is this message's own (a raw piece's without the bytes
    /// before it).
    #[cfg(test)]
    pub(super) fn own_text(&self) -> &[u8] {
        match self.reading {
            Reading::Raw { from, .. } => &self.bytes()[from..],
            Reading::Mail { .. } => self.bytes(),
        }
    }

    /// The message's `Message-ID`, without its angle brackets.
    pub fn message_id(&self) -> Option<&str> {
        match self.reading {
            Reading::Mail { .. } => Head::parse(self.bytes()).message_id,
            Reading::Raw { .. } => None,
        }
    }

    /// The text to scan, part by part: each header field's value, then
    /// the body's text parts decoded (transfer encodings undone,
    /// `format=flowed` lines joined, HTML read for its links and text),
    /// forwarded messages with their own headers, and the text around the
    /// parts of a multipart. A raw piece is one part, `raw`.
    pub fn parts(&self) -> Vec<Part<'_>> {
        let mut list = Vec::new();
        self.each_part(true, &mut |part| {
            list.push(part);
            true
        });
        list
    }

    /// Hands each part (see [`Message::parts`]) to `out` as it is found,
    /// until `out` returns false; without the header fields that cannot
    /// hold a candidate ([`may_hold_candidate`]) unless `all_fields`.
    fn each_part<'m>(&'m self, all_fields: bool, out: &mut dyn FnMut(Part<'m>) -> bool) {
        let mut parts = Parts {
            message: self,
            message_id: None,
            out,
            wanted: true,
            all_fields,
            body_at: 0,
            root_coding: Coding::Plain,
        };
        match self.reading {
            Reading::Raw { from, first, .. } => parts.add(Part {
                message: self,
                message_id: None,
                label: Label::Named("raw"),
                text: Cow::Borrowed(&self.bytes()[from..]),
                maps: Vec::new(),
                base: from,
                warning: first
                    .then_some("message larger than 16 MiB: scanned as raw text, not decoded"),
            }),
            Reading::Mail { .. } => parts.message(),
        }
    }

    /// Scans every part (see [`Message::parts`]), reporting each URI with
    /// its place in the message and in the input, and each problem met to
    /// [`Sink::warning`]. Returns false when the sink asked to stop.
    ///
    /// # Errors
    ///
    /// The first error `sink` returns.
    pub fn scan<S: Sink>(&self, scanner: &Scanner, mut sink: S) -> io::Result<bool> {
        self.scan_into(scanner, &mut sink, &mut String::new())
    }

    /// [`Message::scan`], into a sink the caller keeps. Each part is
    /// scanned as soon as it is found, and dropped. `label` is a buffer
    /// for the labels of the parts, kept from message to message.
    pub(super) fn scan_into<S: Sink + ?Sized>(
        &self,
        scanner: &Scanner,
        sink: &mut S,
        label: &mut String,
    ) -> io::Result<bool> {
        let mut lines = Lines::start(self, scanner.counts_lines());
        let mut outcome = Ok(true);
        // A field that cannot hold a candidate is not made a part.
        self.each_part(false, &mut |part| {
            outcome = match part.warning {
                Some(warning) => sink.warning(self.line(), warning),
                None => Ok(true),
            }
            .and_then(|go| {
                if go {
                    part.scan_into(scanner, sink, &mut lines, label)
                } else {
                    Ok(false)
                }
            });
            matches!(outcome, Ok(true))
        });
        outcome
    }

    /// The offset in the input of `bytes[at]`.
    fn input_offset(&self, at: usize) -> usize {
        match &self.reading {
            Reading::Mail {
                offset, unescaped, ..
            } => offset + at + unescaped.partition_point(|&r| r <= at),
            Reading::Raw { offset, .. } => offset + at,
        }
    }

    /// The offset in the input of the line that starts at `bytes[at]` (a
    /// `>` taken out of it stood at its start).
    fn input_line_start(&self, at: usize) -> usize {
        match &self.reading {
            Reading::Mail {
                offset, unescaped, ..
            } => offset + at + unescaped.partition_point(|&r| r < at),
            Reading::Raw { offset, .. } => offset + at,
        }
    }

    /// The span in the input of `bytes[span]`.
    fn input_span(&self, span: Span) -> Span {
        let start = self.input_offset(span.start);
        let end = if span.is_empty() {
            start
        } else {
            self.input_offset(span.end - 1) + 1
        };
        Span::new(start, end)
    }
}

/// Lines counted in a message read as mail, up to a point: so that the
/// URIs of a message, which come mostly in order, cost one count of its
/// lines between them.
///
/// # Invariants
///
/// `line` is the line of the input of `bytes[at]` (0 when lines are not
/// counted: see [`ScannerBuilder::line_numbers`](crate::ScannerBuilder::line_numbers)),
/// and `line_start` the offset in `bytes` where that line starts.
#[derive(Clone, Copy, Debug)]
struct Lines {
    at: usize,
    line: u64,
    line_start: usize,
    count: bool,
}

impl Lines {
    fn start(message: &Message, count: bool) -> Lines {
        let line = match message.reading {
            Reading::Mail { first_line, .. } if count => first_line,
            _ => 0,
        };
        Lines {
            at: 0,
            line,
            line_start: 0,
            count,
        }
    }

    /// The line (0 when not counted) and byte column in the input of
    /// `message.bytes[at]`.
    fn position(&mut self, message: &Message, at: usize) -> (u64, u64) {
        if at < self.at {
            // HTML gives its attributes' links before its text's: count
            // back from here, or on from the start when that is nearer (or
            // when no lines are counted: only the line's start is wanted).
            if !self.count || at < self.at - at {
                *self = Lines::start(message, self.count);
            } else {
                let between = &message.bytes()[at..self.at];
                let breaks = bytecount::count(between, b'\n');
                if breaks > 0 {
                    self.line -= breaks as u64;
                    self.line_start =
                        memchr::memrchr(b'\n', &message.bytes()[..at]).map_or(0, |nl| nl + 1);
                }
                self.at = at;
            }
        }
        let between = &message.bytes()[self.at..at];
        if self.count {
            self.line += bytecount::count(between, b'\n') as u64;
        }
        if let Some(nl) = memchr::memrchr(b'\n', between) {
            self.line_start = self.at + nl + 1;
        }
        self.at = at;
        let column = message.input_offset(at) - message.input_line_start(self.line_start) + 1;
        (self.line, column as u64)
    }
}

/// What a part is called in reports (made only when a URI is found in it).
#[derive(Debug)]
enum Label<'m> {
    Named(&'static str),
    /// A header field, by name (empty for a line that is not a field).
    Header(Cow<'m, [u8]>),
    /// A text part, by its MIME type (`text/plain`, `text/enriched`).
    Type(String),
}

impl Label<'_> {
    /// The label of a text part, by its `(type, subtype)` when a
    /// `Content-Type` names it.
    fn of_text(html: bool, ct: Option<(&str, Option<&str>)>) -> Label<'static> {
        // A subtype the parser read on past a missing `;` (`TEXT/PLAIN
        // charset=US-ASCII`, which the parser's copy writes `xharset`)
        // ends at its first blank.
        let ct =
            ct.map(|(ctype, sub)| (ctype, sub.and_then(|s| s.split_ascii_whitespace().next())));
        match ct {
            _ if html => Label::Named("text/html"),
            Some((ctype, Some(sub))) => Label::Type(format!("{ctype}/{sub}").to_ascii_lowercase()),
            Some((ctype, None)) => Label::Type(ctype.to_ascii_lowercase()),
            None => Label::Named("text/plain"),
        }
    }

    fn text(&self) -> Cow<'_, str> {
        match self {
            Label::Named(name) => Cow::Borrowed(name),
            Label::Header(name) if name.is_empty() => Cow::Borrowed("header"),
            Label::Header(_) => {
                let mut text = String::new();
                self.write_into(&mut text);
                Cow::Owned(text)
            }
            Label::Type(mime) => Cow::Borrowed(mime),
        }
    }

    /// Writes [`Label::text`] into `out`, in place of what it held (a
    /// buffer kept from part to part: no allocation per part).
    fn write_into(&self, out: &mut String) {
        out.clear();
        match self {
            Label::Header(name) if !name.is_empty() => {
                out.push_str("header:");
                // A field name is ASCII (`ftext`, see `Head::add`): the
                // fast check passes, the lossy reading is only its
                // fallback.
                match std::str::from_utf8(name) {
                    Ok(name) => out.push_str(name),
                    Err(_) => out.push_str(&String::from_utf8_lossy(name)),
                }
            }
            // Text of its own, never written into `out`.
            _ => out.push_str(&self.text()),
        }
    }
}

/// One text of a message to scan: a header field's value, a decoded body
/// part, the text around a multipart's parts, or a raw piece.
///
/// # Invariants
///
/// Applying `maps` in order, then adding `base`, takes an offset of
/// `text` to the offset of `message.bytes` it came from.
#[derive(Debug)]
pub struct Part<'m> {
    message: &'m Message,
    message_id: Option<&'m str>,
    label: Label<'m>,
    text: Cow<'m, [u8]>,
    maps: Vec<SourceMap>,
    base: usize,
    warning: Option<&'static str>,
}

impl<'m> Part<'m> {
    /// Where in the message: `text/plain`, `text/html` (or another `text/`
    /// type), `header:List-Archive`, `preamble`, `epilogue`, or `raw`.
    pub fn label(&self) -> Cow<'_, str> {
        self.label.text()
    }

    /// The text to scan, decoded.
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// What was wrong with this part, if anything: it is scanned as far as
    /// it could be decoded.
    pub fn warning(&self) -> Option<&str> {
        self.warning
    }

    /// Scans the part's text, reporting each URI with its place: the
    /// message ([`Found::message`]) and the line, column and span where its
    /// text was written in the input. Returns false when the sink asked to
    /// stop.
    ///
    /// # Errors
    ///
    /// The first error `sink` returns.
    pub fn scan<S: Sink>(&self, scanner: &Scanner, mut sink: S) -> io::Result<bool> {
        self.scan_into(
            scanner,
            &mut sink,
            &mut Lines::start(self.message, scanner.counts_lines()),
            &mut String::new(),
        )
    }

    /// [`Part::scan`], into a sink the caller keeps, counting lines with
    /// `lines`; the part's label is written into `label` for its first URI.
    fn scan_into<S: Sink + ?Sized>(
        &self,
        scanner: &Scanner,
        sink: &mut S,
        lines: &mut Lines,
        label: &mut String,
    ) -> io::Result<bool> {
        // Every candidate the scanner reads starts at the `:` after its
        // scheme, written as it is or as a JSON escape: a text without one
        // holds nothing to report.
        if memchr::memchr(b':', &self.text).is_none() && escaped_colon(&self.text, 0).is_none() {
            return Ok(true);
        }
        let mut placed = Placed {
            part: self,
            label,
            labelled: false,
            sink,
            lines,
        };
        if let Reading::Raw {
            from,
            first_line,
            line_start,
            offset,
            ..
        } = self.message.reading
        {
            let win = Window {
                hay: self.message.bytes(),
                offset,
                eof: true,
            };
            let mut core = Core::starting_at(scanner, offset + from, first_line, line_start);
            return scanner.scan_window(&win, &mut core, &mut placed);
        }
        let win = Window {
            hay: &self.text,
            offset: 0,
            eof: true,
        };
        // The lines of the decoded text are not the file's: `Placed`
        // counts those in the message.
        let mut core = Core::new(scanner).without_line_numbers();
        scanner.scan_window(&win, &mut core, &mut placed)
    }

    /// The span of the message's bytes that `span` of the text came from.
    fn message_span(&self, span: Span) -> Span {
        let span = self.maps.iter().fold(span, |s, map| map.span(s));
        Span::new(self.base + span.start, self.base + span.end)
    }
}

/// Reports what the scan of a part finds with its place in the message and
/// in the input.
struct Placed<'p, 'm, S: ?Sized> {
    part: &'p Part<'m>,
    /// The part's label, written for the first URI found (`labelled`).
    label: &'p mut String,
    labelled: bool,
    sink: &'p mut S,
    lines: &'p mut Lines,
}

impl<S: Sink + ?Sized> Placed<'_, '_, S> {
    /// Where in the input `span` of the scanned text is, with its line and
    /// column.
    fn place(&mut self, span: Span) -> (Span, u64, u64) {
        let message = self.part.message;
        if message.is_raw() {
            // A raw piece is scanned in input positions already.
            return (span, 0, 0);
        }
        let in_message = self.part.message_span(span);
        let (line, column) = self.lines.position(message, in_message.start);
        (message.input_span(in_message), line, column)
    }
}

impl<S: Sink + ?Sized> Sink for Placed<'_, '_, S> {
    fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
        let (span, line, column) = self.place(found.span());
        let (line, column) = if self.part.message.is_raw() {
            (found.line(), found.column())
        } else {
            (line, column)
        };
        if !self.labelled {
            self.part.label.write_into(self.label);
            self.labelled = true;
        }
        let in_message = InMessage {
            message_id: self.part.message_id.map(Cow::Borrowed),
            message_line: self.part.message.line(),
            part: Cow::Borrowed(self.label.as_str()),
        };
        self.sink
            .found(&found.placed(span, line, column, Some(in_message)))
    }

    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool> {
        if self.part.message.is_raw() {
            return self.sink.too_long(start, line);
        }
        let (span, line, _) = self.place(Span::new(start, start));
        self.sink.too_long(span.start, line)
    }
}

/// The parts of a message, handed on as they are found.
struct Parts<'m, 'o> {
    message: &'m Message,
    message_id: Option<&'m str>,
    /// Takes each part; returns false when it wants no more.
    out: &'o mut dyn FnMut(Part<'m>) -> bool,
    /// False once `out` wanted no more: the rest is not read.
    wanted: bool,
    /// False when the header fields that cannot hold a candidate are left
    /// out.
    all_fields: bool,
    /// Where the body starts in the message, and the transfer encoding its
    /// header names (read by the MIME parser as sent; see [`mime`]).
    body_at: usize,
    root_coding: Coding,
}

/// The warning for a part whose transfer encoding breaks its rules.
const MALFORMED: &str = "a part's transfer encoding is malformed; scanned what could be decoded";

/// Where the bytes the MIME parser read stand in the message: copies of
/// the message's own bytes (`raw[i]` is the message's byte `i + delta`), or
/// bytes decoded from it (a forwarded message that was itself encoded),
/// all placed at the offset `anchor`.
#[derive(Clone, Copy)]
enum Frame<'a> {
    Located { raw: &'a [u8], delta: isize },
    Detached { raw: &'a [u8], anchor: usize },
}

impl<'a> Frame<'a> {
    fn raw(&self) -> &'a [u8] {
        match *self {
            Frame::Located { raw, .. } | Frame::Detached { raw, .. } => raw,
        }
    }

    /// The frame of `inner`, the bytes the MIME parser gave for a forwarded
    /// message whose part body starts at `body` of this frame, and whose
    /// first part's header starts at `first` of what it counts from. The
    /// parser reads a forwarded message in place, its parts' offsets
    /// counting from the start of what it was given, unless the message
    /// was itself encoded: then it parses the decoded bytes on their own
    /// (its offsets count from their start), and they stand where the
    /// part's body does. A message read in place inside one read so gets
    /// bytes of its own (a copy, not a slice of this frame's): its first
    /// part starting at `body` tells that it was read in place, and its
    /// bytes in this frame are returned with the frame, for its header to
    /// be read in place too.
    fn inner(&self, inner: &'a [u8], body: usize, first: usize) -> (Frame<'a>, &'a [u8]) {
        if offset_within(self.raw(), inner).is_some() {
            return (*self, inner);
        }
        if first == body {
            return (*self, &self.raw()[self.clamped(body, body + inner.len())]);
        }
        let anchor = match *self {
            Frame::Located { delta, .. } => (body as isize + delta).max(0) as usize,
            Frame::Detached { anchor, .. } => anchor,
        };
        (Frame::Detached { raw: inner, anchor }, inner)
    }

    /// `from..to` cut to this frame's bytes (the parser's offsets may run
    /// past the end of what it was given).
    fn clamped(&self, from: usize, to: usize) -> Range<usize> {
        let end = self.raw().len();
        from.min(end)..to.min(end)
    }
}

/// The offset of `inner` within `outer`, when it is a slice of it.
fn offset_within(outer: &[u8], inner: &[u8]) -> Option<usize> {
    let (o, i) = (outer.as_ptr() as usize, inner.as_ptr() as usize);
    (i >= o && i + inner.len() <= o + outer.len()).then(|| i - o)
}

/// Marks in a text (offsets), asked about ranges of it in ascending
/// order: whether one lies in each. `seek(from)` finds the first mark at
/// or after `from`; it is called once per range at most, and not for the
/// marks that follow one found in a range.
struct Marks<F: FnMut(usize) -> Option<usize>> {
    /// The first mark at or after the start of the last range asked
    /// about (`None`: there is none).
    next: Option<usize>,
    seek: F,
}

impl<F: FnMut(usize) -> Option<usize>> Marks<F> {
    fn new(mut seek: F) -> Marks<F> {
        Marks {
            next: seek(0),
            seek,
        }
    }

    /// Whether a mark lies in `range`, which starts at or after the end of
    /// the range last asked about.
    fn any_within(&mut self, range: &Range<usize>) -> bool {
        if self.next.is_some_and(|next| next < range.start) {
            self.next = (self.seek)(range.start);
        }
        self.next.is_some_and(|next| next < range.end)
    }
}

/// The MIME parser, built once: it parses only the MIME headers (which
/// decoding needs) and skips the others, which [`Head`] reads raw.
fn mime_parser() -> &'static MessageParser {
    static PARSER: OnceLock<MessageParser> = OnceLock::new();
    PARSER.get_or_init(|| {
        MessageParser::new()
            .with_mime_headers()
            .default_header_ignore()
    })
}

impl<'m> Parts<'m, '_> {
    /// Hands `part` on, if parts are still wanted.
    fn add(&mut self, part: Part<'m>) {
        if self.wanted {
            self.wanted = (self.out)(part);
        }
    }

    /// The header fields, then the body.
    fn message(&mut self) {
        let bytes = self.message.bytes();
        let head = Head::parse(bytes);
        self.message_id = head.message_id;
        let whole = Frame::Located {
            raw: bytes,
            delta: 0,
        };
        self.head(&head, whole);
        if !self.wanted {
            return;
        }
        let body_at = bytes.len() - head.body.len();
        // A plain text body is decoded here, without the MIME parser,
        // unless its charset is named in a `Content-Type` not written
        // plainly (which the parser reads).
        let decoded = match head.coding() {
            Coding::Plain => Some(decode::undeclared_quoted_printable(head.body, 0)),
            Coding::QuotedPrintable => Some(Some(decode::quoted_printable(head.body, 0))),
            Coding::Base64 => Some(Some(decode::base64(head.body, 0))),
            Coding::Mime => None,
        };
        let read_here = decoded.and_then(|d| Some((d, structure::charset_of(&head.fields)?)));
        if let Some((decoded, charset)) = read_here {
            let text = self.located(head.body, whole);
            let shape = Shape {
                charset,
                ..Shape::default()
            };
            self.text(text, decoded, Label::Named("text/plain"), Some(shape));
            return;
        }
        self.root_coding = head.transfer_coding();
        self.body_at = body_at;
        let mime = mime::structure_copy(&head);
        let mime_head = mime.len() - head.body.len();
        let delta = body_at as isize - mime_head as isize;
        // A structure written plainly is walked; the MIME parser reads the rest.
        match structure::walk(&mime, &head) {
            Some(structure) => {
                #[cfg(test)]
                self.assert_walked_as_parsed(&mime, delta, &structure);
                self.walked(&structure, &mime, delta);
            }
            None => self.parsed(Frame::Located { raw: &mime, delta }),
        }
    }

    /// The body's parts as the MIME parser reads them from `frame`, the
    /// copy of the message it is given (see [`mime`]).
    fn parsed(&mut self, frame: Frame<'_>) {
        match mime_parser().parse(frame.raw()) {
            Some(parsed) => self.mime(&parsed, frame),
            None => {
                let bytes = self.message.bytes();
                let whole = Frame::Located {
                    raw: bytes,
                    delta: 0,
                };
                let mut part = self.slice(whole, self.body_at..bytes.len(), Label::Named("raw"));
                part.warning = Some("not a parseable message; scanned as raw text");
                self.add(part);
            }
        }
    }

    /// The body's parts, from the structure walked in `copy` (the MIME
    /// parser's copy, whose byte `i` is the message's `i + delta`): what
    /// [`Parts::mime`] gives for the same structure parsed.
    fn walked(&mut self, structure: &Structure, copy: &[u8], delta: isize) {
        let frame = Frame::Located { raw: copy, delta };
        let end = copy.len();
        // Where the text outside the parts seen so far starts, in a multipart.
        let mut outside = structure.multipart.then_some(structure.body);
        for leaf in &structure.leaves {
            if !self.wanted {
                return;
            }
            if let Some(start) = outside.replace(leaf.end) {
                self.outside(frame, start..leaf.header, "preamble");
            }
            if let Some(text) = &leaf.text {
                let ct = text.subtype.as_deref().map(|sub| ("text", Some(sub)));
                let label = Label::of_text(text.html, ct);
                let shape = Shape {
                    html: text.html,
                    flowed: text.flowed,
                    malformed: None,
                    charset: text.charset,
                };
                let coding = self.coding_of(delta, leaf.header..leaf.body);
                self.text_body(frame, leaf.body..leaf.end, coding, label, shape);
            }
        }
        if let Some(start) = outside {
            self.outside(frame, start..end, "epilogue");
        }
    }

    /// Panics unless the message's body gives the same parts walked as
    /// parsed (the walk claims to find what the parser finds).
    #[cfg(test)]
    fn assert_walked_as_parsed(&self, copy: &[u8], delta: isize, structure: &Structure) {
        structure::COMPARED.with(|n| n.set(n.get() + 1));
        let read = |walk: bool| {
            let mut parts = Vec::new();
            let mut out = |part: Part<'m>| {
                parts.push(part);
                true
            };
            let mut reader = Parts {
                message: self.message,
                message_id: self.message_id,
                out: &mut out,
                wanted: true,
                all_fields: self.all_fields,
                body_at: self.body_at,
                root_coding: self.root_coding,
            };
            if walk {
                reader.walked(structure, copy, delta);
            } else {
                reader.parsed(Frame::Located { raw: copy, delta });
            }
            parts
        };
        let shown = |parts: &[Part<'_>]| -> Vec<String> {
            parts
                .iter()
                .map(|p| {
                    format!(
                        "{} at {} ({} bytes, {:?}): {:?}",
                        p.label(),
                        p.base,
                        p.text.len(),
                        p.warning,
                        p.maps
                    )
                })
                .collect()
        };
        let (walked, parsed) = (read(true), read(false));
        let same = walked.len() == parsed.len()
            && walked.iter().zip(&parsed).all(|(w, p)| {
                w.label.text() == p.label.text()
                    && w.text == p.text
                    && w.maps == p.maps
                    && w.base == p.base
                    && w.warning == p.warning
            });
        assert!(
            same,
            "the walked structure {structure:?} gives\n{:#?}\nthe MIME parser\n{:#?}\nin {:?}",
            shown(&walked),
            shown(&parsed),
            String::from_utf8_lossy(&self.message.bytes()[..self.message.bytes().len().min(2000)])
        );
    }

    /// Each header field's value, its RFC 2047 encoded words decoded.
    ///
    /// The block is searched once for what few fields hold (an encoded
    /// word's `=?`, a `:` a candidate may hang on, written as it is or as
    /// a JSON escape), and each field is
    /// looked at only when it holds one: most of a mail's bytes are
    /// header fields (a third of the corpus's mail), and a search per
    /// field cost more than reading them.
    fn head(&mut self, head: &Head<'_>, frame: Frame<'_>) {
        static WORD_START: LazyLock<memmem::Finder<'static>> =
            LazyLock::new(|| memmem::Finder::new(b"=?"));
        let block = head.block;
        let mut words = Marks::new(|from| WORD_START.find(&block[from..]).map(|p| from + p));
        let mut colons = Marks::new(|from| candidate_colon(block, from));
        let mut escaped_colons = Marks::new(|from| escaped_colon(block, from));
        for field in &head.fields {
            let within = offset_within(head.block, field.value)
                .map(|start| start..start + field.value.len());
            let within = within.expect("a field is a slice of its block");
            // Its encoded words decoded (RFC 2047), with offsets in it.
            let decoded = if words.any_within(&within) {
                decode::encoded_words(field.value)
            } else {
                None
            };
            // A field whose every `:` fails the core's test (most hold
            // none, or only times: `Date`, `Received`) holds nothing to
            // report: no part is made of it.
            let may_hold = match &decoded {
                Some((text, _)) => may_hold_candidate(text),
                None => colons.any_within(&within) || escaped_colons.any_within(&within),
            };
            if !self.all_fields && !may_hold {
                continue;
            }
            let Some(at) = offset_within(frame.raw(), field.value) else {
                continue;
            };
            let label = match frame {
                Frame::Located { raw, delta } => {
                    let name_at = offset_within(raw, field.name).unwrap_or(at);
                    let name_at = (name_at as isize + delta) as usize;
                    Label::Header(Cow::Borrowed(
                        &self.message.bytes()[name_at..name_at + field.name.len()],
                    ))
                }
                Frame::Detached { .. } => {
                    Label::Header(Cow::Owned(mime::unhidden_name(field.name)))
                }
            };
            let (written, place) = self.located_range(frame, at..at + field.value.len());
            let part = match decoded {
                Some((text, maps)) => self.part(Cow::Owned(text), maps, place, label),
                None => self.part(written, Vec::new(), place, label),
            };
            self.add(part);
        }
    }

    /// The parts of a parsed message: text and HTML decoded, nested
    /// messages (`message/rfc822`, digests) with their own headers, and, in
    /// a multipart, the text around the parts (where some mailing lists put
    /// their footer).
    fn mime(&mut self, message: &mail_parser::Message<'_>, frame: Frame<'_>) {
        let Some(root) = message.parts.first() else {
            return;
        };
        let range = |from: u32, to: u32| frame.clamped(from as usize, to as usize);
        // Where the text outside the parts seen so far starts, in a multipart.
        let mut outside = matches!(root.body, PartType::Multipart(_)).then_some(root.offset_body);
        for part in &message.parts {
            if !self.wanted {
                return;
            }
            if matches!(part.body, PartType::Multipart(_)) {
                continue;
            }
            if let Some(start) = outside.replace(part.offset_end) {
                self.outside(frame, range(start, part.offset_header), "preamble");
            }
            let body = range(part.offset_body, part.offset_end);
            let is_text = part
                .content_type()
                .is_some_and(|ct| mime::is_text(ct.ctype()));
            match &part.body {
                PartType::Text(_) | PartType::Html(_) => self.text_part(part, frame, body),
                PartType::Binary(_) | PartType::InlineBinary(_) if is_text => {
                    self.text_part(part, frame, body)
                }
                PartType::Message(nested) => {
                    let first = nested.parts.first().map_or(0, |p| p.offset_header as usize);
                    let (inner, bytes) = frame.inner(nested.raw_message(), body.start, first);
                    self.head(&Head::parse(bytes), inner);
                    self.mime(nested, inner);
                }
                // What could not be decoded (a nested message that does not
                // parse) is read as it is.
                PartType::Binary(_) | PartType::InlineBinary(_) if part.is_encoding_problem => {
                    let part = self.slice(frame, body, Label::Named("raw"));
                    self.add(part);
                }
                _ => {}
            }
        }
        if let Some(start) = outside {
            self.outside(frame, range(start, root.offset_end), "epilogue");
        }
    }

    /// Text of a multipart outside its parts (its boundary lines, which
    /// hold no URI, and the preamble or epilogue), as it is.
    fn outside(&mut self, frame: Frame<'_>, range: Range<usize>, label: &'static str) {
        if !range.is_empty() {
            let part = self.slice(frame, range, Label::Named(label));
            self.add(part);
        }
    }

    /// A text or HTML part: its transfer encoding undone and its text
    /// converted from its charset (see `charset`; UTF-16, UTF-32 and UTF-7
    /// by the MIME parser), then its flowed lines joined or its HTML read.
    fn text_part(
        &mut self,
        part: &mail_parser::MessagePart<'_>,
        frame: Frame<'_>,
        body: Range<usize>,
    ) {
        let ct = part.content_type();
        let html = matches!(part.body, PartType::Html(_))
            || ct.is_some_and(|ct| ct.subtype().is_some_and(|s| s.eq_ignore_ascii_case("html")));
        let label = Label::of_text(
            html,
            ct.map(|ct| {
                // A hidden type (see `mime`) was `text`.
                let ctype = if mime::is_text(ct.ctype()) {
                    "text"
                } else {
                    ct.ctype()
                };
                (ctype, ct.subtype())
            }),
        );
        let wide_charset = ct
            .and_then(|ct| ct.attribute("charset"))
            .is_some_and(|c| charset::is_wide(c.as_bytes()));
        if wide_charset {
            // Only the MIME parser's conversion makes it ASCII: placed at
            // the part's start.
            let text = match &part.body {
                PartType::Text(t) | PartType::Html(t) => t.as_bytes().to_vec(),
                _ => Vec::new(),
            };
            let anchor = match self.located_range(frame, body.clone()).1 {
                Place::At(at) | Place::Anchored(at) => at,
            };
            let (text, maps) = if html {
                let read = html::read(&text, 0, LinkAttributes::Scanned);
                (read.text, vec![read.map])
            } else {
                (text, Vec::new())
            };
            let part = self.part(Cow::Owned(text), maps, Place::Anchored(anchor), label);
            self.add(part);
            return;
        }
        let coding = self.transfer_coding(part, frame);
        let malformed = part.is_encoding_problem.then_some(MALFORMED);
        let flowed = (!html)
            .then_some(ct)
            .flatten()
            .filter(|ct| {
                ct.attribute("format")
                    .is_some_and(|f| f.eq_ignore_ascii_case("flowed"))
            })
            .map(|ct| {
                ct.attribute("delsp")
                    .is_some_and(|d| d.eq_ignore_ascii_case("yes"))
            });
        let charset = ct
            .and_then(|ct| {
                mime::CHARSET_NAMES
                    .iter()
                    .find_map(|&name| ct.attribute(name))
            })
            .and_then(|label| charset::encoding_for(label.as_bytes()));
        let shape = Shape {
            html,
            flowed,
            malformed,
            charset,
        };
        self.text_body(frame, body, coding, label, shape);
    }

    /// A text part's body, `frame.raw()[body]`, sent in `coding`: decoded
    /// from the message's own bytes (not from the MIME parser's copy, in
    /// which a line of the body that reads like a MIME field is renamed;
    /// see [`mime`]), then read as `shape` says.
    fn text_body(
        &mut self,
        frame: Frame<'_>,
        body: Range<usize>,
        coding: Coding,
        label: Label<'m>,
        shape: Shape,
    ) {
        let (sent, place) = self.located_range(frame, body);
        let decoded = match coding {
            Coding::QuotedPrintable => Some(decode::quoted_printable(&sent, 0)),
            Coding::Base64 => Some(decode::base64(&sent, 0)),
            // Text sent as it is may still be quoted-printable that does
            // not say so.
            Coding::Plain | Coding::Mime => decode::undeclared_quoted_printable(&sent, 0),
        };
        self.text((sent, place), decoded, label, Some(shape));
    }

    /// The transfer encoding of a text part, as its header says: in the
    /// message itself (the MIME parser read it as sent, see [`mime`]), or,
    /// in a forwarded message the parser decoded on its own, in the bytes
    /// it decoded (not as the parser read it: its encoding is `None` when
    /// its decoding failed).
    fn transfer_coding(&self, part: &mail_parser::MessagePart<'_>, frame: Frame<'_>) -> Coding {
        match frame {
            Frame::Detached { raw, .. } => {
                let header = frame.clamped(part.offset_header as usize, part.offset_body as usize);
                Head::parse(&raw[header]).transfer_coding()
            }
            Frame::Located { delta, .. } => self.coding_of(
                delta,
                part.offset_header as usize..part.offset_body as usize,
            ),
        }
    }

    /// The transfer encoding that the header block at `block` of a copy
    /// of the message (whose byte `i` is the message's `i + delta`) names,
    /// read in the message (the copy hides it): the message's own, for its
    /// own header block.
    fn coding_of(&self, delta: isize, block: Range<usize>) -> Coding {
        let start = block.start as isize + delta;
        let end = block.end as isize + delta;
        if start < self.body_at as isize {
            return self.root_coding; // the message's own header
        }
        let block =
            &self.message.bytes()[start as usize..(end as usize).min(self.message.bytes().len())];
        Head::parse(block).transfer_coding()
    }

    /// Adds the text of a part, `text` as sent (with its place), decoded
    /// as `decoded` says when it could be, then read as `shape` says.
    fn text(
        &mut self,
        (sent, place): (Cow<'m, [u8]>, Place),
        decoded: Option<Decoded>,
        label: Label<'m>,
        shape: Option<Shape>,
    ) {
        let shape = shape.unwrap_or_default();
        let mut warning = shape.malformed;
        // A malformed encoding is reported. Quoted-printable is read as far
        // as it decodes (a stray `=` stays as it is); base64 that breaks
        // its alphabet is decoded as far as its lines are base64, and read
        // as sent from there (`decode::base64_then_sent`).
        let (text, mut maps) = match decoded {
            Some(d) if d.malformed && d.kind == decode::Kind::Base64 => {
                warning = Some(MALFORMED);
                match decode::base64_then_sent(&sent) {
                    Some(d) => (Cow::Owned(d.text), vec![d.map]),
                    None => (sent, Vec::new()),
                }
            }
            Some(d) => {
                if d.malformed {
                    warning = Some(MALFORMED);
                }
                (Cow::Owned(d.text), vec![d.map])
            }
            None => (sent, Vec::new()),
        };
        let converted = shape
            .charset
            .and_then(|encoding| charset::to_utf8(&text, encoding, 0));
        let text = match converted {
            Some((converted, map)) => {
                maps.insert(0, map);
                Cow::Owned(converted)
            }
            None => text,
        };
        let text = if shape.html {
            let read = html::read(&text, 0, LinkAttributes::Scanned);
            maps.insert(0, read.map);
            Cow::Owned(read.text)
        } else if let Some(delsp) = shape.flowed {
            let (text, map) = decode::unflow(&text, delsp);
            maps.insert(0, map);
            Cow::Owned(text)
        } else {
            text
        };
        let mut part = self.part(text, maps, place, label);
        part.warning = warning;
        self.add(part);
    }

    /// `frame.raw()[range]` as a part, as it is.
    fn slice(&self, frame: Frame<'_>, range: Range<usize>, label: Label<'m>) -> Part<'m> {
        let (text, place) = self.located_range(frame, range);
        self.part(text, Vec::new(), place, label)
    }

    /// The bytes `range` of `frame`, borrowed from the message when they
    /// are its own, and their place.
    fn located_range(&self, frame: Frame<'_>, range: Range<usize>) -> (Cow<'m, [u8]>, Place) {
        match frame {
            Frame::Located { delta, .. } => {
                let start = (range.start as isize + delta) as usize;
                let end = (range.end as isize + delta) as usize;
                (
                    Cow::Borrowed(&self.message.bytes()[start..end]),
                    Place::At(start),
                )
            }
            Frame::Detached { raw, anchor } => {
                (Cow::Owned(raw[range].to_vec()), Place::Anchored(anchor))
            }
        }
    }

    /// `text`, a slice of `frame`, with its place.
    fn located(&self, text: &[u8], frame: Frame<'_>) -> (Cow<'m, [u8]>, Place) {
        let at = offset_within(frame.raw(), text).expect("a slice of the frame");
        self.located_range(frame, at..at + text.len())
    }

    /// A part of `text`, whose `maps` lead to the text of the frame at
    /// `place`.
    fn part(
        &self,
        text: Cow<'m, [u8]>,
        mut maps: Vec<SourceMap>,
        place: Place,
        label: Label<'m>,
    ) -> Part<'m> {
        let base = match place {
            Place::At(at) => at,
            Place::Anchored(anchor) => {
                maps.push(SourceMap::all_at(0));
                anchor
            }
        };
        Part {
            message: self.message,
            message_id: self.message_id,
            label,
            text,
            maps,
            base,
            warning: None,
        }
    }
}

/// Where a text of a frame stands in the message.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// At this offset: its bytes are the message's own.
    At(usize),
    /// Decoded from the message: all of it is placed at this offset.
    Anchored(usize),
}

/// How a decoded text part is read.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    html: bool,
    /// `Some(delsp)` for `format=flowed`.
    flowed: Option<bool>,
    /// The MIME parser found its encoding broken.
    malformed: Option<&'static str>,
    /// The charset its text is converted from (see `charset`).
    charset: Option<&'static encoding_rs::Encoding>,
}

#[cfg(test)]
mod tests {
    use super::Marks;

    #[test]
    fn marks_are_found_in_the_ranges_that_hold_them() {
        let marks = [3, 10, 11, 40];
        let seeks = std::cell::Cell::new(0);
        let mut found = Marks::new(|from| {
            seeks.set(seeks.get() + 1);
            marks.iter().copied().find(|&m| m >= from)
        });
        for (range, holds) in [
            (0..3, false),
            (3..5, true),
            (5..10, false),
            (10..12, true),
            (12..20, false),
            (25..40, false),
            (40..41, true),
            (41..100, false),
            (100..200, false),
        ] {
            assert_eq!(found.any_within(&range), holds, "{range:?}");
        }
        // Once at the start, then only for a range that starts past the
        // mark last found (5.., 12.., 41..): 11 is never sought, and once
        // none is left nothing is.
        assert_eq!(seeks.get(), 4);
    }
}
