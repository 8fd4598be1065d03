//! What an HTML text says to a reader, as an HTML tokenizer following the
//! WHATWG tokenization rules reads it: its attribute values and its text,
//! with character references decoded by the standard's rules, and each
//! byte mapped back to where it was written. The tokenizer is
//! `plain.rs`'s for the markup it knows (nearly all there is), and
//! [`html5gum`]'s for the rest; both tell the same emitter, `Reader`.
//!
//! Mail's HTML parts and HTML documents (and the HTML inside Markdown)
//! are read here. Comments, `<script>` and `<style>` are left out: a
//! reader never sees them. The tokenizer works on bytes and recovers from
//! any markup, as browsers do, so input that is broken or not UTF-8 is
//! read too.

use std::convert::Infallible;
use std::mem;

use html5gum::{naive_next_state, Emitter, Error, State, Tokenizer};
use memchr::memchr2;

#[cfg(feature = "mail")]
use crate::reading::LinkReading;
use crate::reading::{Reading, Reference};
#[cfg(feature = "mail")]
use crate::scan::DEFAULT_MAX_CANDIDATE_LEN;
use crate::source_map::SourceMap;
use crate::span::Span;

mod plain;

/// What is done with the attributes that name links (`href`, `src`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinkAttributes {
    /// Scanned by the Appendix C rules like every other value (mail: a
    /// relative link in a mail has no base to be resolved against).
    #[cfg(feature = "mail")]
    Scanned,
    /// Taken whole as URI references ([`Reading::refs`]), relative or
    /// not (documents, for link checkers).
    Named,
}

/// Returns what a reader sees of `html`, written at offset `at` of the
/// source: its text, with each tag read as a space (so a tag never glues
/// two words), and each attribute value that may hold links between blank
/// lines. In [`LinkAttributes::Scanned`] mode (mail) the values are where
/// they are written, so that what is found comes in order, a link
/// attribute's as a browser reads it ([`Reading::link_value`]). In
/// [`LinkAttributes::Named`] mode (documents, whose links are sorted
/// after) the values come first, the link attributes go to
/// [`Reading::refs`] instead, `<base href>` to [`Reading::base`], and the
/// text of `<code>` and `<pre>` is marked as code.
pub(crate) fn read(html: &[u8], at: usize, mode: LinkAttributes) -> Reading {
    let mut reader = Reader::new(html, at, mode);
    let mut reading = if plain::read(html, &mut reader).is_ok() {
        let reading = reader.into_reading();
        // Every test that reads HTML checks the two readers agree.
        #[cfg(test)]
        tests::assert_same_as_html5gum(html, at, mode, &reading);
        reading
    } else {
        let mut reader = Reader::new(html, at, mode);
        read_with_html5gum(html, &mut reader);
        reader.into_reading()
    };
    without_page_breaks(&mut reading.text);
    reading
}

/// Reads each form feed of `text` as the blank it is in HTML, which has
/// no pages: the scanner reads over a page break (a blank line with a form
/// feed) in `<...>`, which would join a URI across two attribute values,
/// or a value and the text, apart as they are (each value is followed by
/// a blank line).
pub(crate) fn without_page_breaks(text: &mut [u8]) {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'\x0c', &text[from..]) {
        text[from + i] = b' ';
        from += i + 1;
    }
}

/// Reads `html` into `reader` with html5gum's tokenizer, which reads any
/// input.
fn read_with_html5gum(html: &[u8], reader: &mut Reader<'_>) {
    // Reading a slice never fails.
    let _ = Tokenizer::new_with_emitter(html, reader).finish();
}

impl<'h> Reader<'h> {
    fn new(html: &'h [u8], at: usize, mode: LinkAttributes) -> Reader<'h> {
        Reader {
            html,
            at,
            mode,
            values: Reading::default(),
            text: Reading {
                text: Vec::with_capacity(html.len()),
                // A tag adds at most two pieces (its separator and the
                // copy of the text after), a reference two.
                map: SourceMap::with_capacity(
                    2 * (bytecount::count(html, b'<') + bytecount::count(html, b'&')) + 1,
                ),
                ..Reading::default()
            },
            tag: Vec::new(),
            attribute: Vec::new(),
            raw_text: false,
            tells_places: false,
            code_depth: 0,
            anchor: None,
            token: Token::default(),
        }
    }

    /// The values to scan, then the text.
    fn into_reading(self) -> Reading {
        if self.values.text.is_empty() {
            return self.text;
        }
        let mut out = self.values;
        out.text.reserve_exact(self.text.text.len());
        out.append(self.text);
        out
    }
}

/// The tokenizer's events turned into a [`Reading`].
struct Reader<'h> {
    html: &'h [u8],
    /// Where `html` starts in the source.
    at: usize,
    mode: LinkAttributes,
    /// Attribute values to scan, each followed by a blank line (in
    /// [`LinkAttributes::Named`] mode; mail's go to `text`).
    values: Reading,
    /// The text between tags.
    text: Reading,
    /// The name of the last start tag read (lower case, as the tokenizer
    /// gives).
    tag: Vec<u8>,
    /// The name of the last attribute read.
    attribute: Vec<u8>,
    /// Inside `<script>` or `<style>`: text nobody reads.
    raw_text: bool,
    /// The tokenizer maps each piece of text and of an attribute value as
    /// it tells it ([`Reader::told_text`], [`Reader::told_value`]; the
    /// plain reader does): its runs and values need no alignment with
    /// their source. html5gum tells only the text.
    tells_places: bool,
    /// How many `<code>` and `<pre>` are open.
    code_depth: u32,
    /// The reference of the `<a href>` being read, and where its text
    /// starts in `text`: its label.
    anchor: Option<(usize, usize)>,
    /// The token being read.
    token: Token,
}

/// What the tokenizer has told of the token it is reading, kept as
/// html5gum's callback emitter keeps it (the same events, at the same
/// points, with the same spans), but with the text read straight into the
/// reading: a third of the time of reading HTML went to copying it there
/// from the emitter's buffers. (The plain reader tells less: no name of an
/// attribute without a value to read, and in mail no value the reader
/// would make nothing of.)
///
/// # Invariants
///
/// `run` is `Some(start)` when text is being read: `text.text[start..]`
/// (the run of text read since the last tag, comment or doctype, which
/// ends it), written at `run_start..run_end` of the HTML when html5gum
/// tells it (the plain reader maps its runs as it tells them, and leaves
/// `run_end`, and `position` while it tells text, as they were: nothing
/// reads them before it sets them again).
#[derive(Debug, Default)]
struct Token {
    /// The tokenizer's offset in the HTML.
    position: usize,
    run: Option<usize>,
    run_start: usize,
    run_end: usize,
    /// Where the tag, comment or doctype being read starts (its `<`).
    taglike_start: usize,
    /// The kind of tag being read, `Some(true)` for a start tag.
    start_tag: Option<bool>,
    /// The tag's name, until it is reported.
    tag_name: Vec<u8>,
    /// The last start tag's name: `</name>` ends raw text.
    last_start_tag: Vec<u8>,
    /// The attribute's name and value, until they are reported, and where
    /// the value was written.
    attribute_name: Vec<u8>,
    attribute_value: Vec<u8>,
    /// Where each byte of `attribute_value` was written, offsets of the
    /// value to offsets of the source, when the tokenizer tells it
    /// ([`Reader::told_value`]; the plain reader does); else empty. It
    /// places every byte of the value, or none.
    value_map: SourceMap,
    value_start: usize,
    value_end: usize,
}

impl Reader<'_> {
    /// The span `start..end` of the HTML, within it.
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start.min(self.html.len()), end.min(self.html.len()))
    }

    /// Ends the run of text being read, if any. Most calls find none: the
    /// tokenizer ends the token it is reading at every tag, attribute and
    /// piece of an attribute value, so the checks are inlined there.
    #[inline]
    fn end_run(&mut self) {
        if let Some(start) = self.token.run.take() {
            self.read_run(start);
        }
    }

    /// Reads the run of text `text.text[start..]`.
    #[inline(never)]
    fn read_run(&mut self, start: usize) {
        debug_assert!(!self.raw_text, "script and style text makes no run");
        if !self.tells_places {
            let span = self.span(self.token.run_start, self.token.run_end);
            let source = &self.html[span.start..span.end.max(span.start)];
            self.text
                .align_appended(start, source, self.at + span.start);
        }
        if self.code_depth > 0 {
            self.text.mark_code(start);
        }
    }

    /// Text told with where it was written, `html[from..to]` (an empty
    /// piece places nothing): appended as [`Emitter::emit_string`] appends
    /// it, and mapped there ([`map_told`]).
    fn told_text(&mut self, piece: &[u8], from: usize, to: usize, as_written: bool) {
        debug_assert!(self.tells_places);
        let Some(out) = self.append_to_run(piece) else {
            return;
        };
        map_told(
            &mut self.text.map,
            out,
            piece.len(),
            self.at + from,
            to - from,
            as_written,
        );
    }

    /// A piece of an attribute value told with where it was written,
    /// `html[from..to]` (an empty piece tells nothing): pushed as
    /// [`Emitter::push_attribute_value`] pushes it, and mapped as
    /// [`Reader::told_text`] maps text.
    fn told_value(&mut self, piece: &[u8], from: usize, to: usize, as_written: bool) {
        debug_assert!(self.tells_places);
        if piece.is_empty() {
            return;
        }
        let out = self.token.attribute_value.len();
        let map = &mut self.token.value_map;
        map_told(map, out, piece.len(), self.at + from, to - from, as_written);
        self.token.position = to;
        self.append_to_value(piece);
    }

    /// Appends `s` to the value of the attribute being read, which ends
    /// at the tokenizer's position.
    fn append_to_value(&mut self, s: &[u8]) {
        self.attribute_name();
        self.token.attribute_value.extend_from_slice(s);
        self.token.value_end = self.token.position;
    }

    /// Appends `s` to the run of text being read, starting one if none is;
    /// returns where `s` starts in the text. Script and style text is no
    /// text of the page: not even copied (`None`; a run that `<script>` or
    /// `<style>` ends is read before, by `open_start_tag`).
    fn append_to_run(&mut self, s: &[u8]) -> Option<usize> {
        if s.is_empty() || self.raw_text {
            return None;
        }
        let out = self.text.text.len();
        self.token.run.get_or_insert(out);
        self.text.text.extend_from_slice(s);
        Some(out)
    }

    /// Reports the start tag being read once its name is whole.
    #[inline]
    fn open_start_tag(&mut self) {
        self.end_run();
        if self.token.start_tag == Some(true) && !self.token.tag_name.is_empty() {
            self.report_start_tag();
        }
    }

    /// The start tag's name is whole: it is the last start tag now, and
    /// stands as a space in the text.
    #[inline(never)]
    fn report_start_tag(&mut self) {
        let span = self.span(self.token.taglike_start, self.token.position);
        self.tag.clear();
        self.tag.extend_from_slice(&self.token.tag_name);
        self.text.separator(b' ', self.at + span.start);
        self.token.last_start_tag.clear();
        mem::swap(&mut self.token.last_start_tag, &mut self.token.tag_name);
    }

    /// Reports the name of the attribute being read, once whole.
    #[inline]
    fn attribute_name(&mut self) {
        self.open_start_tag();
        if !self.token.attribute_name.is_empty() {
            mem::swap(&mut self.attribute, &mut self.token.attribute_name);
            self.token.attribute_name.clear();
        }
    }

    /// Reports the attribute being read.
    fn attribute(&mut self) {
        self.attribute_name();
        if !self.token.attribute_value.is_empty() {
            let span = self.span(self.token.value_start, self.token.value_end);
            let value = mem::take(&mut self.token.attribute_value);
            let map = mem::take(&mut self.token.value_map);
            self.value(&value, &map, span);
            self.token.attribute_value = value;
            self.token.attribute_value.clear();
            self.token.value_map = map;
            self.token.value_map.clear();
        }
    }
}

/// Maps the `len` bytes told at offset `out` to the `src_len` source bytes
/// at `src` they were read from: as a copy when `as_written` (they are
/// their source), else as standing for it (a reference, a CR LF read as
/// LF).
fn map_told(
    map: &mut SourceMap,
    out: usize,
    len: usize,
    src: usize,
    src_len: usize,
    as_written: bool,
) {
    if as_written {
        map.copied(out, src);
    } else {
        map.push(out, src, len as u32, src_len as u32);
    }
}

impl Emitter for &mut Reader<'_> {
    type Token = Infallible;

    #[inline]
    fn move_position(&mut self, offset: isize) {
        self.token.position = self.token.position.saturating_add_signed(offset);
    }

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.token.last_start_tag.clear();
        self.token
            .last_start_tag
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.end_run();
    }

    /// Parse errors are not wanted: the tokenizer then skips checking
    /// every byte for them (a control character, a noncharacter).
    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    #[inline]
    fn emit_error(&mut self, _: Error) {}

    #[inline]
    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    fn init_string(&mut self) {
        if self.token.run.is_none() {
            self.token.run_start = self.token.position;
        }
    }

    fn emit_string(&mut self, s: &[u8]) {
        self.token.run_end = self.token.position;
        self.append_to_run(s);
    }

    fn init_start_tag(&mut self) {
        self.token.tag_name.clear();
        self.token.start_tag = Some(true);
    }

    fn init_end_tag(&mut self) {
        self.token.tag_name.clear();
        self.token.start_tag = Some(false);
    }

    fn init_comment(&mut self) {
        self.end_run();
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        self.attribute();
        match self.token.start_tag {
            Some(true) => {
                self.open_start_tag();
                match self.tag.as_slice() {
                    b"script" | b"style" => self.raw_text = true,
                    b"code" | b"pre" if self.mode == LinkAttributes::Named => self.code_depth += 1,
                    _ => {}
                }
            }
            Some(false) => {
                self.token.last_start_tag.clear();
                let span = self.span(self.token.taglike_start, self.token.position);
                match self.token.tag_name.as_slice() {
                    b"script" | b"style" => self.raw_text = false,
                    b"code" | b"pre" => self.code_depth = self.code_depth.saturating_sub(1),
                    b"a" => {
                        if let Some((r, start)) = self.anchor.take() {
                            self.text.refs[r].label = Some(Span::new(start, self.text.text.len()));
                        }
                    }
                    _ => {}
                }
                self.text.separator(b' ', self.at + span.start);
            }
            None => {}
        }
        // The tokenizer reads on in raw text after `<script>`, `<style>`,
        // `<title>` and their kind, as a browser would.
        let next = naive_next_state(&self.token.last_start_tag);
        if next.is_some() {
            self.init_string();
        }
        next
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    fn push_tag_name(&mut self, s: &[u8]) {
        self.token.tag_name.extend_from_slice(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {
        self.end_run();
    }

    fn init_attribute(&mut self) {
        self.open_start_tag();
        self.attribute();
    }

    fn init_attribute_value(&mut self) {
        self.token.value_start = self.token.position;
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        self.token.attribute_name.extend_from_slice(s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.append_to_value(s);
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn start_open_tag(&mut self) {
        self.token.taglike_start = self.token.position.saturating_sub(1);
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.token.start_tag == Some(false)
            && !self.token.last_start_tag.is_empty()
            && self.token.last_start_tag == self.token.tag_name
    }
}

impl Reader<'_> {
    /// Whether an attribute value holding neither `:` nor `&` (no link)
    /// comes to nothing here, so that a tokenizer need not read it: in
    /// mail, where a value is read only for the URIs the scanner finds in
    /// it ([`Reader::value`]: every URI has its scheme's `:`, or a
    /// reference standing for it).
    fn skips_values_without_links(&self) -> bool {
        #[cfg(feature = "mail")]
        return self.mode == LinkAttributes::Scanned;
        #[cfg(not(feature = "mail"))]
        false
    }

    /// An attribute value, decoded, written at `span` of the HTML; `map`
    /// places it when the tokenizer told where (see [`Token::value_map`]).
    fn value(&mut self, value: &[u8], map: &SourceMap, span: Span) {
        debug_assert_eq!(
            self.tells_places,
            !map.is_empty(),
            "a value is told whole, or not placed"
        );
        let source = &self.html[span.start..span.end.max(span.start)];
        let src = self.at + span.start;
        // Appends the value to `reading`: placed by the map told, else
        // aligned with its source.
        let tells_places = self.tells_places;
        let append = |reading: &mut Reading| {
            if tells_places {
                reading.mapped(value, map);
            } else {
                reading.aligned(value, source, src);
            }
        };
        if self.mode == LinkAttributes::Named {
            let kind = link_attribute(&self.tag, &self.attribute)
                .filter(|&kind| kind != LinkKind::Refresh || refresh_url(value).is_some());
            if let Some(kind) = kind {
                let mut decoded = Reading::default();
                append(&mut decoded);
                for r in references(&decoded, kind) {
                    if kind == LinkKind::Base {
                        self.text.base.get_or_insert(r.value);
                        continue;
                    }
                    if self.tag == b"a" {
                        self.anchor = Some((self.text.refs.len(), self.text.text.len()));
                    }
                    self.text.refs.push(r);
                }
                return;
            }
        }
        // Every URI the scanner reports has a scheme and its `:` (or a
        // `&#58;` standing for it): a value without either holds none.
        if memchr2(b':', b'&', source).is_none() || !may_hold_links(&self.attribute) {
            return;
        }
        // A blank line after each: what is read over lines (`<...>`,
        // `"..."`) does not cross one, so no URI joins two values, or the
        // last and the text.
        let end = src + source.len();
        match self.mode {
            LinkAttributes::Named => {
                append(&mut self.values);
                self.values.separator(b'\n', end);
                self.values.separator(b'\n', end);
            }
            // In mail, the values are read where they are, between blank
            // lines, so that what is found comes in the order written.
            #[cfg(feature = "mail")]
            LinkAttributes::Scanned => {
                self.text.separator(b'\n', src);
                self.text.separator(b'\n', src);
                let is_link = link_attribute(&self.tag, &self.attribute) == Some(LinkKind::Whole);
                // Most links hold nothing a browser reads otherwise:
                // appended as they are. So is one too long to be reported
                // (an inline image's `data:` URI, which costs `link_value`
                // a map piece a byte).
                let read_otherwise = || value.iter().any(|&b| READ_OTHERWISE[usize::from(b)]);
                if is_link && value.len() < DEFAULT_MAX_CANDIDATE_LEN && read_otherwise() {
                    let mut decoded = Reading::default();
                    append(&mut decoded);
                    self.text.link_value(&decoded);
                } else {
                    append(&mut self.text);
                }
                self.text.separator(b'\n', end);
                self.text.separator(b'\n', end);
            }
        }
    }
}

/// The bytes [`Reading::link_value`] may read otherwise than as written
/// ([`LinkReading::may_read_otherwise`]): a link without any is appended
/// as it is (a table: this is asked of every byte of every link in mail's
/// HTML).
#[cfg(feature = "mail")]
const READ_OTHERWISE: [bool; 256] = LinkReading::MAIL.read_otherwise_table();

/// How a link attribute's value holds its references.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkKind {
    /// The whole value is one reference (`href`, `src`, …).
    Whole,
    /// A comma-separated list of `URL [descriptor]` (`srcset`).
    SourceSet,
    /// `<meta http-equiv=refresh content="5; url=…">`: after `url=`.
    Refresh,
    /// `<base href>`: the document's base URI.
    Base,
}

/// Whether the attribute `name` of the tag `tag` names links, and how.
fn link_attribute(tag: &[u8], name: &[u8]) -> Option<LinkKind> {
    Some(match name {
        b"href" if tag == b"base" => LinkKind::Base,
        b"href" | b"src" | b"action" | b"cite" | b"poster" | b"formaction" | b"background"
        | b"longdesc" => LinkKind::Whole,
        b"data" if tag == b"object" => LinkKind::Whole,
        b"srcset" | b"imagesrcset" => LinkKind::SourceSet,
        // *Judgement call:* any `<meta content>` that reads as a refresh's
        // (`refresh_url`): the `http-equiv` may come after `content`.
        b"content" if tag == b"meta" => LinkKind::Refresh,
        _ => return None,
    })
}

/// The references a link attribute's decoded value holds.
fn references(value: &Reading, kind: LinkKind) -> Vec<Reference> {
    let text = &value.text;
    let mut spans = Vec::new();
    match kind {
        LinkKind::Whole | LinkKind::Base => spans.push(trimmed(text, 0, text.len())),
        LinkKind::SourceSet => {
            // Each candidate: blanks, a URL up to a blank, then a
            // descriptor up to a comma (the URL itself may hold commas).
            let mut at = 0;
            while at < text.len() {
                at += text[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace() || **b == b',')
                    .count();
                let len = text[at..]
                    .iter()
                    .take_while(|b| !b.is_ascii_whitespace())
                    .count();
                let mut url = Span::new(at, at + len);
                while url.end > url.start && text[url.end - 1] == b',' {
                    url.end -= 1;
                }
                spans.push(url);
                at += len;
                at += text[at..].iter().take_while(|b| **b != b',').count();
            }
        }
        LinkKind::Refresh => {
            let Some(at) = refresh_url(text) else {
                return Vec::new();
            };
            let mut span = trimmed(text, at, text.len());
            if let Some(&q @ (b'"' | b'\'')) = text.get(span.start) {
                span.start += 1;
                let len = text[span.start..span.end]
                    .iter()
                    .take_while(|b| **b != q)
                    .count();
                span.end = span.start + len;
            }
            spans.push(span);
        }
    }
    spans
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|s| Reference {
            value: String::from_utf8_lossy(&text[s.start..s.end]).into_owned(),
            source: value.map.span(s),
            label: None,
        })
        .collect()
}

/// Where the URL of a refresh's `<meta content>` starts, as HTML reads
/// one (`0; url=next.html`, `0,next.html`, `5`): past a time, `;` or `,`,
/// and `url=` if it is written; `None` when `text` is not a refresh's,
/// which has a time and then nothing, `;` or `,`. Any other value
/// (`og:url`'s and `twitter:image`'s URIs, a date, a price, a description
/// that starts with a number) is read as other attributes are.
/// *Judgement call:* HTML also takes a blank alone after the time (`5
/// url=…`); so would a description (`3 ways to …`), and `http-equiv` may
/// come after `content`, so the separator is required.
fn refresh_url(text: &[u8]) -> Option<usize> {
    let blanks = |at: usize| {
        at + text[at..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    };
    let start = blanks(0);
    let time = text[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b'.')
        .count();
    let mut at = blanks(start + time);
    match text.get(at) {
        _ if time == 0 => return None,
        None => return Some(at),
        Some(b';' | b',') => at = blanks(at + 1),
        Some(_) => return None,
    }
    if text.len() >= at + 3 && text[at..at + 3].eq_ignore_ascii_case(b"url") {
        let equals = blanks(at + 3);
        if text.get(equals) == Some(&b'=') {
            at = blanks(equals + 1);
        }
    }
    Some(at)
}

/// `text[start..end]` less the ASCII whitespace around it.
fn trimmed(text: &[u8], start: usize, end: usize) -> Span {
    let inner = text[start..end].trim_ascii();
    let lead = text[start..end].len() - text[start..end].trim_ascii_start().len();
    Span::new(start + lead, start + lead + inner.len())
}

/// Whether a link may stand in the value of the attribute `name`.
///
/// *Judgement call:* every attribute but `xmlns` (and `xmlns:…`), which
/// names a vocabulary, not a link, and the event handlers (`onclick`, …),
/// which are script, left out as `<script>` is. Links stand in far more than the URL
/// attributes of HTML (`href`, `src`, `action`, `background`, `cite`, …):
/// the `value` of a jump menu's `<option>`, a plugin's `pluginspage`, a
/// refresh's `<meta content="0; url=…">`, an `alt` or `title` text. The
/// scanner reports only URIs, so reading the rest costs nothing in noise;
/// leaving them out lost links that plain reading finds.
fn may_hold_links(name: &[u8]) -> bool {
    !name.starts_with(b"xmlns") && !name.starts_with(b"on")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "mail")]
    use crate::standalone::{crlf, shared};

    /// The ways HTML is read (mail's only with its feature).
    #[cfg(feature = "mail")]
    pub(super) const MODES: &[LinkAttributes] = &[LinkAttributes::Scanned, LinkAttributes::Named];
    #[cfg(not(feature = "mail"))]
    pub(super) const MODES: &[LinkAttributes] = &[LinkAttributes::Named];

    thread_local! {
        /// How many readings of the plain reader this thread checked.
        pub(super) static CHECKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Panics unless html5gum reads `html` as `fast`, what the plain
    /// reader read.
    pub(super) fn assert_same_as_html5gum(
        html: &[u8],
        at: usize,
        mode: LinkAttributes,
        fast: &Reading,
    ) {
        let mut reader = Reader::new(html, at, mode);
        read_with_html5gum(html, &mut reader);
        let slow = reader.into_reading();
        CHECKED.with(|n| n.set(n.get() + 1));
        let source = html;
        let html = String::from_utf8_lossy(html);
        assert_eq!(
            String::from_utf8_lossy(&fast.text),
            String::from_utf8_lossy(&slow.text),
            "text of {html:?}"
        );
        // The plain reader maps each piece of text and of a value as it
        // tells it; html5gum's runs and values are aligned with their
        // source afterwards, which may misread a `&` that starts no
        // reference (`&titletitle`, `&ee&`). The maps may differ only
        // there: at bytes the plain reader places where they were written,
        // in runs where the alignment misplaces some byte. So may the
        // places of the references the values name: where the plain
        // reader's is what was written and html5gum's is not.
        let differ: Vec<usize> = (0..fast.text.len())
            .filter(|&k| fast.map.span(Span::new(k, k + 1)) != slow.map.span(Span::new(k, k + 1)))
            .collect();
        if !differ.is_empty() {
            let fast_exact = placed_exactly(fast, source, at);
            let slow_exact = placed_exactly(&slow, source, at);
            let run = runs_of_text(fast);
            for &k in &differ {
                assert!(
                    fast_exact[k] && (0..run.len()).any(|j| run[j] == run[k] && !slow_exact[j]),
                    "map of {html:?} at {k}: {:?}, {:?}",
                    fast.map,
                    slow.map
                );
            }
        }
        assert_eq!(fast.code, slow.code, "code of {html:?}");
        assert_eq!(fast.refs.len(), slow.refs.len(), "references of {html:?}");
        let written = |r: &Reference| {
            let value = source.get(r.source.start - at..r.source.end - at);
            value.is_some_and(|v| decoded_value(v).is_some_and(|d| d == r.value.as_bytes()))
        };
        for (f, s) in fast.refs.iter().zip(&slow.refs) {
            assert_eq!(
                (&f.value, f.label),
                (&s.value, s.label),
                "reference of {html:?}"
            );
            assert!(
                f.source == s.source || (written(f) && !written(s)),
                "place of a reference of {html:?}: {f:?}, {s:?}"
            );
        }
        assert_eq!(fast.base, slow.base, "base of {html:?}");
    }

    /// An attribute value as written, decoded as a tokenizer reads it:
    /// its references, and CR LF and CR as LF (`None`: a reference the
    /// plain reader does not know).
    fn decoded_value(written: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut buf = [0; 4];
        let mut i = 0;
        while i < written.len() {
            match written[i] {
                b'&' => {
                    let (decoded, end) = plain::reference(written, i, true, &mut buf).ok()?;
                    out.extend_from_slice(decoded);
                    i = end;
                }
                b'\r' => {
                    out.push(b'\n');
                    i += if written.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    };
                }
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        Some(out)
    }

    /// For each byte of `reading`'s text, read from `html` (written at
    /// `at`), whether its map places it where it was written. Each starts
    /// where the byte before it ends (or past markup there: a comment,
    /// `</>`), unless both are of one decoded character. A byte mapped to
    /// no source byte is a separator (a tag's space at its `<`, the line
    /// end at a value's end), after which text may start anywhere. Any
    /// other is its source byte (or the LF of a CR, or of a CR LF), or of
    /// a reference that spans all its source and decodes to text holding
    /// it.
    fn placed_exactly(reading: &Reading, html: &[u8], at: usize) -> Vec<bool> {
        let mut exact = Vec::with_capacity(reading.text.len());
        // The source of the byte before, unless a separator.
        let mut before: Option<(usize, usize)> = None;
        for (k, &b) in reading.text.iter().enumerate() {
            let span = reading.map.span(Span::new(k, k + 1));
            let Some((start, end)) = span.start.checked_sub(at).zip(span.end.checked_sub(at))
            else {
                exact.push(false);
                continue;
            };
            let source = html.get(start..end).unwrap_or_default();
            let follows_before = before
                .is_none_or(|(_, e)| e == start || (e < start && html[e..start].starts_with(b"<")));
            if source.is_empty() {
                exact.push((b == b' ' || b == b'\n') && follows_before);
                before = None;
                continue;
            }
            let one_character = source.len() > 1 && before == Some((start, end));
            let follows = one_character || follows_before;
            let is_source = match source {
                [c] => *c == b || (*c == b'\r' && b == b'\n'),
                b"\r\n" => b == b'\n',
                [b'&', ..] => plain::reference(html, start, false, &mut [0; 4])
                    .is_ok_and(|(decoded, to)| to == end && decoded.contains(&b)),
                _ => false,
            };
            exact.push(follows && is_source);
            before = Some((start, end));
        }
        exact
    }

    /// For each byte of `reading`'s text, the run of text it is in: runs
    /// are parted by separators (bytes mapped to no source byte).
    fn runs_of_text(reading: &Reading) -> Vec<usize> {
        let mut run = 0;
        (0..reading.text.len())
            .map(|k| {
                if reading.map.span(Span::new(k, k + 1)).is_empty() {
                    run += 1;
                }
                run
            })
            .collect()
    }

    /// Text is mapped as the plain reader tells it: a `&` that starts no
    /// reference, before text that repeats its name, is placed where it
    /// was written (aligning the text afterwards took `&title` for a
    /// reference and lost its way in what follows).
    #[test]
    fn text_is_placed_where_it_was_written_past_a_lone_ampersand() {
        let html = b"<p>&titletitle &amp;x &nota&amp; &ee&\r\nhttp://a.example/\r</p>";
        for &mode in MODES {
            let reading = read(html, 5, mode);
            let exact = placed_exactly(&reading, html, 5);
            assert!(exact.iter().all(|&e| e), "{mode:?}: {exact:?}");
        }
    }

    /// Attribute values are mapped as the plain reader tells them, as text
    /// is: past a `&` that starts no reference (`&ee&`, `&titletitle`), a
    /// value's bytes and the reference it names are placed where they
    /// were written (aligning the value afterwards slipped: `urn:x:y` was
    /// placed at its `:`).
    #[test]
    fn values_are_placed_where_they_were_written_past_a_lone_ampersand() {
        let html = b"<p title=\"&ee&tt&urn:x:y\" alt='&titletitle\r\nhttp://a.example/'>\
            <a href=\"&ee&http://b.example/\">b</a><p title=\"&ee&tt&x:&amp;\">\
            <img srcset=\"&ee&tt& 1x,urn:x:y 2x\">";
        let at = 7;
        for &mode in MODES {
            let reading = read(html, at, mode);
            let exact = placed_exactly(&reading, html, at);
            assert!(exact.iter().all(|&e| e), "{mode:?}: {exact:?}");
            for r in &reading.refs {
                let written = &html[r.source.start - at..r.source.end - at];
                assert_eq!(written, r.value.as_bytes(), "{mode:?}");
            }
        }
        let named = read(html, at, LinkAttributes::Named);
        assert_eq!(named.refs.len(), 3, "the href and the srcset's two");
    }

    /// The URIs the scanner finds in what a reader sees of `html`.
    #[cfg(feature = "mail")]
    fn scanned(html: &[u8], mode: LinkAttributes) -> Vec<String> {
        let r = read(html, 0, mode);
        crate::Scanner::new()
            .find_iter(&r.text)
            .map(|f| f.as_str().to_string())
            .collect()
    }

    /// A URI read over lines in one attribute value (`<...>`) takes in
    /// neither the next value nor the text: a blank line ends each value
    /// (a line end joined `<http://a.example/x` and `y:z>` of the next),
    /// a form feed is no page break, and a `<` before a blank line
    /// brackets nothing.
    #[test]
    #[cfg(feature = "mail")]
    fn uris_do_not_join_attribute_values() {
        let html = b"<p title=\"<http://a.example/x\" alt=\"y:z>\">t\
            <img alt='<mailto:b@c.example' title=\"d>\"><p title=\"<http://e.example/\">f>\
            <p title=\"<http://g.example/x&#12;\" alt=\"y:z>\">\
            <p title=\"see: <\" alt=\"http://h.example/y\n/z>\">\
            <p title=\"<http://i.example/x\">\x0cmore/y>";
        for &mode in MODES {
            assert_eq!(
                scanned(html, mode),
                [
                    "http://a.example/x",
                    "mailto:b@c.example",
                    "http://e.example/",
                    "http://g.example/x",
                    "http://h.example/y",
                    "http://i.example/x",
                ],
                "{mode:?}"
            );
        }
    }

    #[test]
    #[cfg(feature = "mail")]
    fn links_and_text_with_references_decoded() {
        let html = r#"<p>See <a HREF="http://x.org/a?b=1&amp;c=2">the site</a> or
            <img src='http://x.org/i.png'> http://y.org/t&amp;u.<script>var u="http://no.org/";</script>
            <a href=http://z.org/ title=x>z</a> &lt;http://w.org/&gt; &#104;ttp://n.org/</p>
            <form action="https://f.org/post"><td background='http://b.org/bg.gif'>
            <blockquote type=cite cite="mid:q@example.org"><html xmlns:v="urn:schemas-microsoft-com:vml">
            <option value="http://o.org/jump.html"><embed pluginspage="http://p.org/get">
            <!-- saved from url=(0022)http://internet.e-mail --><?xml:namespace ns="urn:x:y" />
            <img onmouseover="swap('http://s.org/a.gif',1)"><!-- EDITORS' CHOICE -->
            <img src="http://e.org/after-comment.gif"><!-- it's -- still > a comment -->"#;
        assert_eq!(
            scanned(html.as_bytes(), LinkAttributes::Scanned),
            [
                "http://x.org/a?b=1&c=2",
                "http://x.org/i.png",
                "http://y.org/t&u",
                "http://z.org/",
                "http://w.org/",
                "http://n.org/",
                "https://f.org/post",
                "http://b.org/bg.gif",
                "mid:q@example.org",
                "http://o.org/jump.html",
                "http://p.org/get",
                "http://e.org/after-comment.gif"
            ]
        );
    }

    /// Found in mail: `href="http://x.org/?a=1&lt=2"` gave
    /// `http://x.org/?a=1`, the `&lt` decoded to `<` inside the value.
    #[test]
    #[cfg(feature = "mail")]
    fn a_named_reference_without_semicolon_stays_text_in_an_attribute() {
        let html = br#"<a href="http://x.org/?a=1&lt=2&amp;b=3&gt;">http://y.org/?a&lt=1</a>"#;
        assert_eq!(
            scanned(html, LinkAttributes::Scanned),
            ["http://x.org/?a=1&lt=2&b=3", "http://y.org/?a"]
        );
    }

    #[test]
    #[cfg(feature = "mail")]
    fn every_link_maps_back_to_its_attribute() {
        let html = b"<p>\n<a\n  href='http://x.org/a?b=1&amp;c=2'>x</a> http://t.org/&amp;</p>";
        let r = read(html, 0, LinkAttributes::Scanned);
        let mut seen = 0;
        for f in crate::Scanner::new().find_iter(&r.text) {
            let s = r.map.span(f.span());
            let written = String::from_utf8_lossy(&html[s.start..s.end]);
            seen += 1;
            match f.as_str() {
                "http://x.org/a?b=1&c=2" => assert_eq!(written, "http://x.org/a?b=1&amp;c=2"),
                "http://t.org/&" => assert_eq!(written, "http://t.org/&amp;"),
                other => panic!("{other}"),
            }
        }
        assert_eq!(seen, 2);
    }

    #[test]
    #[cfg(feature = "docs")]
    fn named_links_come_whole_with_their_places() {
        let html = br#"<base href="https://b.example/docs/"><a href=" ../a.html#x ">https://t.example/</a>
<img srcset="img/a.png 1x, img/b,c.png 2x" src='i&amp;j.png'><meta http-equiv="refresh" content="0; URL='next.html'">
<object data="o.svg"></object><code>http://localhost:8080/</code>"#;
        let r = read(html, 10, LinkAttributes::Named);
        assert_eq!(r.base.as_deref(), Some("https://b.example/docs/"));
        let refs: Vec<(&str, &[u8])> = r
            .refs
            .iter()
            .map(|x| {
                (
                    x.value.as_str(),
                    &html[x.source.start - 10..x.source.end - 10],
                )
            })
            .collect();
        assert_eq!(
            refs,
            [
                ("../a.html#x", &b"../a.html#x"[..]),
                ("img/a.png", b"img/a.png"),
                ("img/b,c.png", b"img/b,c.png"),
                ("i&j.png", b"i&amp;j.png"),
                ("next.html", b"next.html"),
                ("o.svg", b"o.svg"),
            ]
        );
        let label = r.refs[0].label.unwrap();
        assert_eq!(&r.text[label.start..label.end], b"https://t.example/");
        let code = memchr::memmem::find(&r.text, b"http://localhost").unwrap();
        assert!(r.is_code(code) && !r.is_code(label.start));
    }

    /// Markup cut short or malformed.
    const BROKEN: [&str; 11] = [
        "<",
        "<a href=",
        "<a href='x",
        "&",
        "&#;",
        "&#x110000;",
        "<script>",
        "é<é>é&é;",
        "<a href='&amp",
        "<meta content='url=",
        "<img srcset=', ,'>",
    ];

    /// What `read` is to give of `html` in `Scanned` mode, built from
    /// html5gum's own callback emitter: the link attribute values it scans
    /// (each followed by a blank line), then the text (each tag a space, script and style
    /// left out), and where each value and each string was written.
    #[cfg(feature = "mail")]
    fn by_callback_emitter(html: &[u8]) -> (Vec<u8>, Vec<(Span, Span)>) {
        use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
        let mut text = Vec::new();
        let mut places = Vec::new();
        let (mut tag, mut attribute, mut raw) = (Vec::new(), Vec::new(), false);
        let mut emitter =
            CallbackEmitter::new(|event: CallbackEvent<'_>, span: html5gum::Span<usize>| {
                let written = Span::new(span.start, span.end);
                match event {
                    CallbackEvent::OpenStartTag { name } => {
                        tag = name.to_vec();
                        text.push(b' ');
                    }
                    CallbackEvent::AttributeName { name } => attribute = name.to_vec(),
                    CallbackEvent::AttributeValue { value } => {
                        let source = &html[span.start..span.end];
                        if memchr2(b':', b'&', source).is_some() && may_hold_links(&attribute) {
                            text.extend_from_slice(b"\n\n");
                            let read = if link_attribute(&tag, &attribute) == Some(LinkKind::Whole)
                            {
                                // As a browser reads it (`link_value`'s
                                // own tests check how).
                                let mut written = Reading::default();
                                written.aligned(value, value, 0);
                                let mut read = Reading::default();
                                read.link_value(&written);
                                read.text
                            } else {
                                value.to_vec()
                            };
                            // A link read otherwise than written is placed
                            // byte by byte; only the text is compared.
                            if read == value {
                                places.push((
                                    Span::new(text.len(), text.len() + value.len()),
                                    written,
                                ));
                            }
                            text.extend_from_slice(&read);
                            text.extend_from_slice(b"\n\n");
                        }
                    }
                    CallbackEvent::CloseStartTag { .. } => {
                        raw |= matches!(&tag[..], b"script" | b"style");
                    }
                    CallbackEvent::EndTag { name } => {
                        raw &= !matches!(name, b"script" | b"style");
                        text.push(b' ');
                    }
                    CallbackEvent::String { value } if !raw => {
                        places.push((Span::new(text.len(), text.len() + value.len()), written));
                        text.extend_from_slice(value);
                    }
                    _ => {}
                }
                None::<Infallible>
            });
        emitter.naively_switch_states(true);
        let _ = Tokenizer::new_with_emitter(html, emitter).finish();
        (text, places)
    }

    /// Our emitter keeps html5gum's callback emitter's state so as to read
    /// the text straight into the reading. Side by side with that emitter,
    /// on markup made to be awkward and on the spam corpus's HTML mail (as
    /// written and with CRLF line ends), it must give the same text and the
    /// same places: an html5gum upgrade that changes when it calls the
    /// emitter fails here. (It found CRLF text misplaced after a reference:
    /// `reads_as` in `reading.rs`.)
    #[test]
    #[cfg(feature = "mail")]
    fn reads_as_html5gums_own_emitter_does() {
        let same = |html: &[u8], name: &str| {
            let ours = read(html, 0, LinkAttributes::Scanned);
            let (text, places) = by_callback_emitter(html);
            assert!(
                ours.text == text,
                "{name:?}: the text differs from html5gum's emitter's"
            );
            for (at, written) in places {
                if !at.is_empty() {
                    assert_eq!(
                        ours.map.span(at),
                        written,
                        "{name:?}: {:?}",
                        String::from_utf8_lossy(&text[at.start..at.end])
                    );
                }
            }
        };
        let awkward = [
            "<p>a<b>b</b>c</p><script>var u='http://x/';</script>d<style>e{}</style>f",
            "<a href='http://x.org/a?b=1&amp;c=2' title=\"t\" href=\"http://dup.org/\">x</a>",
            "<title>t &amp; <b>u</b></title><textarea>http://a.org/&lt;</textarea>",
            "<img src=http://a.org/ alt=x/><br/>&#104;ttp://b.org/ &lt;http://c.org/&gt;",
            "a\r\nb\rc\0d<p\r\nclass='x\r\ny'>e&amp\r\n",
            "<!-- c --><!DOCTYPE html><![CDATA[x]]><?pi?>text</p></ p></>< p>",
            "<plaintext><p>http://p.org/</p>",
        ];
        for html in awkward.into_iter().chain(BROKEN) {
            same(html.as_bytes(), html);
        }
        for site in ["index.html", "about.htm"] {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/docs/site/");
            same(&std::fs::read(format!("{path}{site}")).unwrap(), site);
        }
        let Some(spam) = shared("corpus/mail/spamassassin") else {
            return;
        };
        let mut read_html = 0;
        for dir in std::fs::read_dir(&spam).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(dir).unwrap() {
                let path = file.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                if memchr::memmem::find(&bytes.to_ascii_lowercase(), b"<html").is_some() {
                    same(&bytes, &path.display().to_string());
                    // And as it travels in CRLF mail.
                    same(&crlf(&bytes), &format!("{} in CRLF", path.display()));
                    read_html += 1;
                }
            }
        }
        assert!(read_html > 500, "only {read_html} HTML messages");
    }

    #[test]
    fn broken_markup_never_panics() {
        for html in BROKEN {
            #[cfg(feature = "mail")]
            let _ = read(html.as_bytes(), 0, LinkAttributes::Scanned);
            let _ = read(html.as_bytes(), 0, LinkAttributes::Named);
        }
    }
}
