//! What a reader sees of an AsciiDoc document (`*.adoc`, `*.asciidoc`):
//! its text with code told apart and comments left out, and the links its
//! macros name. A link checker fed a project's docs wants the links a
//! reader can follow, not the hosts of its examples.
//!
//! One pass over the lines, as Asciidoctor reads them, for what bears on
//! links (the rest is text, scanned as it is written):
//!
//! - **Code**: listing (`----`), literal (`....`) and fenced (```` ``` ````)
//!   blocks; a paragraph or open block (`--`) styled `[source…]`,
//!   `[listing]` or `[literal]`; a literal paragraph (its first line
//!   indented, and neither a list item nor a description list term's
//!   description); monospace text (`` `…` ``, ``` ``…`` ```, and
//!   `` `+…+` ``, whose marks are not its text). A two-line title
//!   (`Title` over `-----`, as long give or take one) is no listing.
//! - **Comments** (`//` lines, `////` blocks, a `[comment]` paragraph or
//!   open block) are not read, as an HTML comment is not.
//! - **Links**: the target of a `link:` macro (`link:https://…[text]`,
//!   `link:++https://…++[text]` for one with characters AsciiDoc would
//!   read otherwise), of an image (`image:…[alt]`, `image::…[alt]`) and
//!   of a video or an audio (`video::…[]`, unless a service names it:
//!   `video::id[youtube]`), with the attributes defined before it
//!   substituted; an image's, a video's or an audio's relative target is
//!   under `imagesdir`, as Asciidoctor resolves it. A link's text is its
//!   label. A URL written out, with its text in brackets
//!   (`https://x.org[Text]`) or not, is the scanner's.
//! - **Attributes**: a reference to one defined before it (`:url-repo:
//!   https://…`, then `{url-repo}/issues`, `https://github.com/{org}/x`) is
//!   its value, in text and in a macro's text; one not defined, or
//!   escaped (`\{name}`), is text as written.
//! - **Passthroughs** (`+…+`, `++…++`, `+++…+++`): their content is text
//!   without the marks, read no further.
//!
//! Inline marks are read as Asciidoctor reads constrained ones: a mark
//! opens after a byte that is not a word's (nor `;`, `:`, a quote or a
//! backquote) and before one that is not blank, and closes before a byte
//! that is not a word's, within the paragraph (``` `` ``` closes before
//! any). That goes for `++` and
//! `+++` too, which Asciidoctor opens anywhere: `C++ and C++` and
//! `https://x.org/c++/a++` are no passthroughs here.
//!
//! *Judgement calls:* `xref:` and `<<…>>` name documents and sections,
//! not URIs, and `include::` names a file the document is built from: none
//! is a link. An attribute's definition is text too, so its URI is
//! found where it is defined as well as where it is used. Both branches
//! of a conditional (`ifdef::env-github[]`) are read: which one a reader
//! sees depends on where the document is shown. A definition keeps the
//! attributes it names substituted up to 4 KiB, as does a macro's
//! target, and references, all told, add at most the document's size and
//! 64 KiB to what is read (an escaped one, `\{name}`, adds nothing):
//! definitions naming
//! each other twice double at each level (Asciidoctor runs out of memory
//! on 40 such lines). `*.asc`, which ripgrep's
//! `asciidoc` type also names, is left as text: it names PGP armor at
//! least as often (every `*.asc` on the machine this was written on was a
//! key).

use std::collections::HashMap;
use std::ops::Range;

use super::lines::{Line, NextMatch};
use crate::reading::{Reading, Reference};
use crate::span::Span;

/// Returns what a reader sees of the AsciiDoc source `adoc`.
pub(crate) fn read(adoc: &[u8]) -> Reading {
    let mut reader = Reader {
        src: adoc,
        out: Reading {
            text: Vec::with_capacity(adoc.len()),
            ..Reading::default()
        },
        attributes: HashMap::new(),
        budget: adoc.len() + 64 * 1024,
    };
    reader.blocks();
    reader.out
}

/// What a delimited block holds, by its delimiter line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// Code: a listing, literal or fenced block, or an open block styled
    /// as code.
    Code,
    /// A comment block: not read.
    Comment,
    /// A passthrough block (`++++`): text, read as written.
    Pass,
    /// A block of AsciiDoc (example, sidebar, quote, open, table): its
    /// lines are read as any others.
    Nested,
}

/// The style a block attribute line (`[source,python]`) gives the block
/// after it, as far as links go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Code,
    Comment,
}

struct Reader<'a> {
    src: &'a [u8],
    out: Reading,
    /// The attributes defined so far (`:name: value`), by name.
    /// Their values have the attributes defined before them substituted.
    attributes: HashMap<&'a [u8], Vec<u8>>,
    /// How many bytes attribute references may still add to the text: as
    /// many as the document has, and 64 KiB, so that a reference repeated
    /// cannot make the text to scan many times the document.
    budget: usize,
}

impl<'a> Reader<'a> {
    /// The line that starts at `start`, if the source goes on there.
    fn line(&self, start: usize) -> Option<Line> {
        Line::starting(self.src, start)
    }

    /// Reads the lines, block by block. Every function that reads a block
    /// returns where the line after it starts, so that each line is looked
    /// at a bounded number of times.
    fn blocks(&mut self) {
        let src = self.src;
        let mut at = 0;
        // The style the last block attribute line gave the next block.
        let mut style: Option<Style> = None;
        // Whether the line starts a block: the first of the document, or
        // one after a blank line or a delimited block.
        let mut starts_block = true;
        // Whether the last paragraph ended with a description list's term.
        let mut after_term = false;
        while let Some(line) = self.line(at) {
            if line.is_blank() {
                self.copy(line.start, line.next);
                at = line.next;
                starts_block = true;
                style = None;
                continue;
            }
            let text = &src[line.text..line.end];
            let term_before = std::mem::take(&mut after_term);
            if line.indent == 0 {
                if let Some(block) = delimiter(text, style) {
                    at = self.delimited(line, block);
                    starts_block = true;
                    style = None;
                    continue;
                }
                if is_comment_line(text) {
                    self.out.separator(b'\n', line.start);
                    at = line.next;
                    continue;
                }
                if is_block_attribute_line(text) {
                    style = block_style(text).or(style);
                    self.copy(line.start, line.next);
                    at = line.next;
                    starts_block = true;
                    continue;
                }
                if starts_block && is_title(text) {
                    // A title is a line of its own; the document's is
                    // followed by its header (attribute entries).
                    self.inline(line.start, line.next);
                    at = line.next;
                    continue;
                }
                let underline = starts_block
                    .then(|| self.line(line.next))
                    .flatten()
                    .filter(|u| is_underline(src, &line, u));
                if let Some(underline) = underline {
                    // A two-line title (`Title` over `-----`).
                    self.inline(line.start, line.next);
                    self.copy(underline.start, underline.next);
                    at = underline.next;
                    continue;
                }
                if let Some((name, value)) = attribute_entry(src, &line) {
                    let value = self
                        .substituted(value.clone())
                        .unwrap_or_else(|| src[value].to_vec());
                    self.attributes.insert(&src[name], value);
                    self.inline(line.start, line.next);
                    at = line.next;
                    continue;
                }
            }
            let (end, last) = self.paragraph_end(line);
            let literal = line.indent > 0 && !is_list_item(text) && !term_before;
            match style.take() {
                _ if !starts_block => self.inline(line.start, end),
                Some(Style::Comment) => self.out.separator(b'\n', line.start),
                Some(Style::Code) => self.code(line.start, end),
                None if literal => self.code(line.start, end),
                None => self.inline(line.start, end),
            }
            // A description list's term alone on its line: the block after
            // it is its description, indented or not.
            let last = &src[last.text..last.end];
            after_term = [&b"::"[..], b";;"].iter().any(|t| last.ends_with(t));
            at = end;
            starts_block = false;
        }
    }

    /// Where the paragraph whose first line is `first` ends, and its last
    /// line: at a blank line, a delimiter, a block attribute line or a
    /// comment line, at the margin.
    fn paragraph_end(&self, first: Line) -> (usize, Line) {
        let mut last = first;
        while let Some(line) = self.line(last.next) {
            let text = &self.src[line.text..line.end];
            let ends = line.is_blank()
                || line.indent == 0
                    && (delimiter(text, None).is_some()
                        || is_comment_line(text)
                        || is_block_attribute_line(text));
            if ends {
                break;
            }
            last = line;
        }
        (last.next, last)
    }

    /// Reads the delimited block whose opening line is `open`, up to the
    /// same line at the margin (or to the end): returns where the line
    /// after it starts. A nested block's lines are left to be read.
    fn delimited(&mut self, open: Line, block: Block) -> usize {
        if block == Block::Nested {
            self.copy(open.start, open.next);
            return open.next;
        }
        let delimiter = &self.src[open.text..open.end];
        // A fenced block opens with its language (```` ```rust ````) and
        // closes with the backquotes alone.
        let closing = if delimiter.starts_with(b"```") {
            &b"```"[..]
        } else {
            delimiter
        };
        let mut close = None;
        let mut at = open.next;
        while let Some(line) = self.line(at) {
            if line.indent == 0 && &self.src[line.text..line.end] == closing {
                close = Some(line);
                break;
            }
            at = line.next;
        }
        let (content_end, end) =
            close.map_or((self.src.len(), self.src.len()), |l| (l.start, l.next));
        match block {
            Block::Comment => self.out.separator(b'\n', open.start),
            Block::Code => {
                self.copy(open.start, open.next);
                self.code(open.next, content_end);
                self.copy(content_end, end);
            }
            Block::Pass => self.copy(open.start, end),
            Block::Nested => unreachable!("a nested block's lines are read one by one"),
        }
        end
    }

    /// Appends `src[from..to]` as it is.
    fn copy(&mut self, from: usize, to: usize) {
        self.out.copy(&self.src[from..to], from);
    }

    /// Appends `src[from..to]` as code.
    fn code(&mut self, from: usize, to: usize) {
        self.out.copy_code(&self.src[from..to], from);
    }

    /// Appends the text `src[from..to]` (whole lines) with its inline
    /// markup read: monospace is code, a passthrough's content is text
    /// without its marks, a macro's target is a link with its text as
    /// label, an attribute reference is its value.
    fn inline(&mut self, from: usize, to: usize) {
        let src = self.src;
        let mut copied = from;
        let mut at = from;
        // The closes of `` ` ``, ``` `` ```, `+`, `++` and `+++`.
        let mut closes = [(b'`', 1), (b'`', 2), (b'+', 1), (b'+', 2), (b'+', 3)]
            .map(|(mark, run)| NextMatch::new(move |k| close_of(src, mark, run, k, to)));
        let mut ends = MacroEnds::new(src, to);
        while let Some(p) = src[at..to]
            .iter()
            .position(|&b| matches!(b, b'`' | b'+' | b':'))
        {
            crate::work::examined(p + 1);
            let k = at + p;
            at = k + 1;
            let escaped = k > from && src[k - 1] == b'\\';
            match src[k] {
                b':' => {
                    let Some((macro_start, kind)) = macro_before(src, from, k) else {
                        continue;
                    };
                    if macro_start > from && src[macro_start - 1] == b'\\' {
                        continue;
                    }
                    let Some(m) = ends.link_macro(k + 1) else {
                        continue;
                    };
                    self.text_with_attributes(copied, macro_start);
                    copied = m.end;
                    self.link(m, kind);
                    at = copied;
                }
                mark => {
                    if escaped || !opens_constrained(src, from, k) {
                        continue;
                    }
                    // `` `…` ``, ``` ``…`` ```, `+…+`, `++…++`, `+++…+++`.
                    let run = src[k..to]
                        .iter()
                        .take(3)
                        .take_while(|&&b| b == mark)
                        .count();
                    let run = if mark == b'`' { run.min(2) } else { run };
                    let content_start = k + run;
                    let which = usize::from(mark == b'+') * 2 + run - 1;
                    let close = closes[which].at_or_after(content_start);
                    let Some(close) = close else {
                        at = content_start;
                        continue;
                    };
                    crate::work::examined(close - content_start);
                    self.text_with_attributes(copied, k);
                    self.out.separator(b' ', k);
                    if mark == b'`' {
                        let content = &src[content_start..close];
                        let literal = content.len() > 2
                            && content.starts_with(b"+")
                            && content.ends_with(b"+");
                        let shift = usize::from(literal);
                        self.code(content_start + shift, close - shift);
                    } else {
                        self.copy(content_start, close);
                    }
                    self.out.separator(b' ', close);
                    copied = close + run;
                    at = copied;
                }
            }
        }
        self.text_with_attributes(copied, to);
    }

    /// The attribute reference `{name}` at `brace` (within `..to`), if
    /// it is one: not escaped (`\\{name}`), `name` an attribute defined so
    /// far, and the expansion budget allowing its value. Where the
    /// reference ends, and the value, which the budget is charged for.
    /// Every substitution goes through here: at most [`MAX_NAME`] bytes
    /// are looked at a `{`.
    fn reference_at(&mut self, brace: usize, to: usize) -> Option<(usize, Vec<u8>)> {
        let src = self.src;
        if brace > 0 && src[brace - 1] == b'\\' {
            return None;
        }
        let len = src[brace + 1..to]
            .iter()
            .take(MAX_NAME + 1)
            .position(|&b| !is_name_byte(b))?;
        crate::work::examined(len + 1);
        let close = brace + 1 + len;
        if len == 0 || src[close] != b'}' {
            return None;
        }
        let value = self.attributes.get(&src[brace + 1..close])?;
        self.budget = self.budget.checked_sub(value.len())?;
        Some((close + 1, value.clone()))
    }

    /// The attribute references in `src[range]` ([`Reader::reference_at`]),
    /// in order: where each is written, and its value.
    fn references(&mut self, range: Range<usize>) -> Vec<(Range<usize>, Vec<u8>)> {
        let mut found = Vec::new();
        let mut at = range.start;
        while let Some(p) = memchr::memchr(b'{', &self.src[at..range.end]) {
            let brace = at + p;
            at = brace + 1;
            if let Some((end, value)) = self.reference_at(brace, range.end) {
                found.push((brace..end, value));
                at = end;
            }
        }
        found
    }

    /// Appends the text `src[from..to]` with its attribute references
    /// replaced by their values (`{url-repo}/issues`, `link={url-ci}`).
    fn text_with_attributes(&mut self, from: usize, to: usize) {
        let mut copied = from;
        for (written, value) in self.references(from..to) {
            self.copy(copied, written.start);
            self.out.decoded(&value, written.start, written.len());
            copied = written.end;
        }
        self.copy(copied, to);
    }

    /// Appends the macro `m`: its target is a link (a video's or an
    /// audio's unless a service names it: `video::id[youtube]`), with the
    /// attributes it names substituted, and an image's, a video's or an
    /// audio's relative one under `imagesdir`, as Asciidoctor resolves
    /// them; its text is text, and a link's label.
    fn link(&mut self, m: Macro, kind: MacroKind) {
        let src = self.src;
        self.out.separator(b' ', m.target.start);
        let start = self.out.text.len();
        // The text is what is shown, but when it holds attributes
        // (`[Text,window=_blank]`): then its first one is, up to a `,`. A
        // final `^` opens the link in a new window.
        let text = &src[m.text.clone()];
        let shown = match text.first() {
            Some(b'"') => memchr::memchr(b'"', &text[1..]).map_or(text.len(), |p| p + 2),
            _ if memchr::memchr(b'=', text).is_some() => {
                memchr::memchr(b',', text).unwrap_or(text.len())
            }
            _ => text.len(),
        };
        let caret = usize::from(text[..shown].ends_with(b"^"));
        self.text_with_attributes(m.text.start, m.text.start + shown - caret);
        let label = Span::new(start, self.out.text.len());
        self.text_with_attributes(m.text.start + shown, m.text.end);
        self.out.separator(b' ', m.end - 1);
        let service = matches!(
            text[..shown].trim_ascii(),
            b"youtube" | b"vimeo" | b"wistia"
        );
        if kind == MacroKind::Media && service {
            return;
        }
        let mut value = self
            .substituted(m.target.clone())
            .unwrap_or_else(|| src[m.target.clone()].to_vec());
        if kind != MacroKind::Link {
            if let Some(dir) = self
                .attributes
                .get(&b"imagesdir"[..])
                .filter(|_| is_path(&value))
            {
                let dir = dir.strip_suffix(b"/").unwrap_or(dir);
                value = [dir, b"/", &value].concat();
            }
        }
        self.out.refs.push(Reference {
            value: String::from_utf8_lossy(&value).into_owned(),
            source: Span::new(m.target.start, m.target.end),
            label: (kind == MacroKind::Link && label.start < label.end).then_some(label),
        });
    }

    /// `src[range]` (a macro's target, an attribute's value) with its
    /// attribute references replaced by their values; `None` when that
    /// makes it longer than [`MAX_VALUE`].
    fn substituted(&mut self, range: Range<usize>) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(range.len());
        let mut copied = range.start;
        for (written, value) in self.references(range.clone()) {
            out.extend_from_slice(&self.src[copied..written.start]);
            out.extend_from_slice(&value);
            copied = written.end;
        }
        out.extend_from_slice(&self.src[copied..range.end]);
        (out.len() <= MAX_VALUE).then_some(out)
    }
}

/// The longest attribute name read (`{name}`): longer ones are text.
const MAX_NAME: usize = 64;

/// The longest value an attribute or a macro's target keeps with the
/// attributes it names substituted: a longer one keeps them as written,
/// so that definitions naming each other twice cannot double at each
/// level (26 levels made 136 MB).
const MAX_VALUE: usize = 4096;

/// Returns true if `b` may be in an attribute's name.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Returns true if the reference `value` is a relative path (no scheme,
/// not from the root): an image's, which `imagesdir` is put before.
fn is_path(value: &[u8]) -> bool {
    crate::uri::scheme_end(value).is_none() && !value.starts_with(b"/") && !value.starts_with(b"{")
}

/// Which macro a target is named by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MacroKind {
    /// `link:`, whose text is the link's label.
    Link,
    /// `image:` or `image::`, whose text is its alternative text.
    Image,
    /// `video::` or `audio::`.
    Media,
}

/// Where the parts of the macros in a paragraph end, searched for once
/// each (`NextMatch`): a run of `link:` without a target, or of `image:x[`
/// never closed, would otherwise search to the paragraph's end each time.
struct MacroEnds<'a> {
    src: &'a [u8],
    /// The first `[` or blank: a target's end.
    target_end: NextMatch<Box<dyn Fn(usize) -> Option<usize> + 'a>>,
    /// The first `++`: a `++…++` target's end.
    pluses: NextMatch<Box<dyn Fn(usize) -> Option<usize> + 'a>>,
    /// The first `]` no backslash escapes: a macro's text's end.
    text_end: NextMatch<Box<dyn Fn(usize) -> Option<usize> + 'a>>,
}

impl<'a> MacroEnds<'a> {
    /// The searches within `src[..to]`.
    fn new(src: &'a [u8], to: usize) -> Self {
        MacroEnds {
            src,
            target_end: NextMatch::new(Box::new(move |k| {
                let p = src[k..to]
                    .iter()
                    .position(|&b| b == b'[' || b.is_ascii_whitespace());
                crate::work::examined(p.map_or(to - k, |p| p + 1));
                Some(p.map_or(to, |p| k + p))
            })),
            pluses: NextMatch::new(Box::new(move |k| {
                let p = memchr::memmem::find(&src[k..to], b"++");
                crate::work::examined(p.map_or(to - k, |p| p + 2));
                p.map(|p| k + p)
            })),
            text_end: NextMatch::new(Box::new(move |k| {
                let mut at = k;
                while let Some(p) = memchr::memchr(b']', &src[at..to]) {
                    crate::work::examined(p + 1);
                    let close = at + p;
                    if src[close - 1] != b'\\' {
                        return Some(close);
                    }
                    at = close + 1;
                }
                crate::work::examined(to - at);
                None
            })),
        }
    }

    /// The macro whose target starts at `target` (past `link:`, `image:`,
    /// `image::`, …): `TARGET[TEXT]` or `++TARGET++[TEXT]`, the target
    /// without blanks.
    fn link_macro(&mut self, target: usize) -> Option<Macro> {
        let src = self.src;
        let target = target + usize::from(src.get(target) == Some(&b':'));
        let (written, open) = if src[target..].starts_with(b"++") {
            let close = self.pluses.at_or_after(target + 2)?;
            (target + 2..close, close + 2)
        } else {
            let end = self.target_end.at_or_after(target)?;
            (target..end, end)
        };
        if written.is_empty() || src.get(open) != Some(&b'[') {
            return None;
        }
        let close = self.text_end.at_or_after(open + 1)?;
        Some(Macro {
            target: written,
            text: open + 1..close,
            end: close + 1,
        })
    }
}

/// A link macro as written: its target, its text (in brackets) and where
/// it ends (past the `]`).
#[derive(Clone, Debug)]
struct Macro {
    target: Range<usize>,
    text: Range<usize>,
    end: usize,
}

/// The kind of delimited block the line `text` (at the margin) opens, the
/// style given it by the line before taken into account (`[source]` on an
/// open block makes it code).
fn delimiter(text: &[u8], style: Option<Style>) -> Option<Block> {
    if text.starts_with(b"```") {
        return Some(Block::Code);
    }
    if text == b"--" {
        return Some(match style {
            Some(Style::Code) => Block::Code,
            Some(Style::Comment) => Block::Comment,
            None => Block::Nested,
        });
    }
    if text.starts_with(b"|===") || text.starts_with(b",===") {
        return Some(Block::Nested);
    }
    let first = *text.first()?;
    if text.len() < 4 || text.iter().any(|&b| b != first) {
        return None;
    }
    match first {
        b'/' => Some(Block::Comment),
        b'-' | b'.' => Some(Block::Code),
        b'+' => Some(Block::Pass),
        b'=' | b'*' | b'_' => Some(Block::Nested),
        _ => None,
    }
}

/// Returns true if the line `text` is a section title (`= Title`,
/// `== Section`, up to six `=`; `#` as Markdown writes them too).
fn is_title(text: &[u8]) -> bool {
    let marks = text.iter().take_while(|&&b| b == b'=' || b == b'#').count();
    (1..=6).contains(&marks) && text.get(marks) == Some(&b' ')
}

/// Returns true if `underline`, the line after `title`, makes it a
/// two-line title: one of `=`, `-`, `~`, `^` or `+` repeated, as long as
/// the title give or take one character, under a title that holds a word
/// and does not start with `.` (Asciidoctor's rule).
fn is_underline(src: &[u8], title: &Line, underline: &Line) -> bool {
    let marks = &src[underline.start..underline.end];
    let text = &src[title.text..title.end];
    let chars = |bytes: &[u8]| bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    title.indent == 0
        && underline.indent == 0
        && marks.len() >= 2
        && b"=-~^+".contains(&marks[0])
        && marks.iter().all(|&b| b == marks[0])
        && chars(text).abs_diff(marks.len()) < 2
        && !text.starts_with(b".")
        && text.iter().any(|&b| is_word_byte(b))
}

/// Returns true if the line `text` (at the margin) is a comment: `//`,
/// then anything but a third `/` (`///` starts text; `////`, a block).
fn is_comment_line(text: &[u8]) -> bool {
    text.starts_with(b"//") && text.get(2) != Some(&b'/')
}

/// Returns true if the line `text` is a block attribute line (`[…]`), an
/// anchor (`[[id]]`) included.
fn is_block_attribute_line(text: &[u8]) -> bool {
    text.len() >= 2 && text.starts_with(b"[") && text.ends_with(b"]")
}

/// The style the block attribute line `text` names, if it bears on links:
/// its first attribute, up to a `,`, `#`, `.` or `%` (`[source,python]`,
/// `[source%linenums]`).
fn block_style(text: &[u8]) -> Option<Style> {
    let attributes = &text[1..text.len() - 1];
    let len = attributes
        .iter()
        .position(|b| b",#.%".contains(b))
        .unwrap_or(attributes.len());
    match attributes[..len].trim_ascii() {
        b"source" | b"listing" | b"literal" => Some(Style::Code),
        b"comment" => Some(Style::Comment),
        _ => None,
    }
}

/// The name and value of the attribute entry on `line` (`:name: value`,
/// at the margin), as ranges of `src`.
fn attribute_entry(src: &[u8], line: &Line) -> Option<(Range<usize>, Range<usize>)> {
    let text = &src[line.text..line.end];
    let rest = text.strip_prefix(b":")?;
    let len = rest
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))?;
    if len == 0 || rest[len] != b':' {
        return None;
    }
    let name = line.text + 1..line.text + 1 + len;
    let value = &rest[len + 1..];
    let value_start = line.end - value.trim_ascii_start().len();
    Some((name, value_start..line.end))
}

/// Returns true if the line `text` (past its indentation) starts a list
/// item: `* `, `- `, `. `, `1. `, `a. `, `<1> `, or a term (`term::`).
fn is_list_item(text: &[u8]) -> bool {
    let marks = text
        .iter()
        .take_while(|&&b| matches!(b, b'*' | b'.' | b'-'))
        .count();
    let after_marks = text.get(marks);
    if marks > 0 && after_marks.is_none_or(u8::is_ascii_whitespace) {
        return true;
    }
    let ordinal = text
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if ordinal > 0
        && matches!(text.get(ordinal), Some(b'.' | b')'))
        && text.get(ordinal + 1).is_none_or(u8::is_ascii_whitespace)
    {
        return true;
    }
    if text.starts_with(b"<") {
        return text
            .iter()
            .position(|&b| b == b'>')
            .is_some_and(|p| p > 1 && text[1..p].iter().all(u8::is_ascii_digit));
    }
    memchr::memmem::find(text, b"::").is_some_and(|p| {
        let after = &text[p..];
        let colons = after.iter().take_while(|&&b| b == b':').count();
        p > 0 && after.get(colons).is_none_or(u8::is_ascii_whitespace)
    })
}

/// Where the macro named before the `:` at `colon` starts, and which it
/// is (`link:`, `image:`, `image::`, `video::`, `audio::`), if one is,
/// after `from` and not in a word.
fn macro_before(src: &[u8], from: usize, colon: usize) -> Option<(usize, MacroKind)> {
    let before = &src[from..colon];
    let (name, kind) = [
        (&b"link"[..], MacroKind::Link),
        (b"image", MacroKind::Image),
        (b"image:", MacroKind::Image),
        (b"video:", MacroKind::Media),
        (b"audio:", MacroKind::Media),
    ]
    .into_iter()
    .find(|(name, _)| before.ends_with(name))?;
    let start = colon - name.len();
    let in_word = start > from && is_word_byte(src[start - 1]);
    (!in_word).then_some((start, kind))
}

/// Returns true if `b` is part of a word, for AsciiDoc's constrained marks
/// (any byte of a character beyond ASCII counts as a letter).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Returns true if the mark at `k` may open constrained text: at the
/// paragraph's start (`from`) or after a byte that is not a word's, nor
/// `;`, `:`, a quote, a backquote or `}`, and before one that is not blank.
fn opens_constrained(src: &[u8], from: usize, k: usize) -> bool {
    let after = src[k..].iter().take(4).find(|&&b| b != src[k]);
    let opens_after = k == from || {
        let b = src[k - 1];
        !is_word_byte(b) && !b";:\"'`}+".contains(&b)
    };
    opens_after && after.is_some_and(|b| !b.is_ascii_whitespace())
}

/// Returns true if constrained text may close before `at` (within
/// `..to`): at the end, or before a byte that is not a word's, nor a quote
/// or a backquote.
fn closes_constrained(src: &[u8], at: usize, to: usize) -> bool {
    at >= to || {
        let b = src[at];
        !is_word_byte(b) && !b"\"'`".contains(&b)
    }
}

/// Where the first `run` marks (`mark`) that may close constrained text
/// are, from `from` on and before `to`: after a byte that is not blank,
/// not followed by another `mark`, and before a byte
/// [`closes_constrained`] allows (``` `` ``` closes before any).
fn close_of(src: &[u8], mark: u8, run: usize, from: usize, to: usize) -> Option<usize> {
    let mut k = from;
    while let Some(p) = memchr::memchr(mark, src.get(k..to)?) {
        crate::work::examined(p + 1);
        let close = k + p;
        let marks_end = close + run;
        if marks_end <= to
            && src[close..marks_end].iter().all(|&b| b == mark)
            && src.get(marks_end) != Some(&mark)
            && !src[close - 1].is_ascii_whitespace()
            && (mark == b'`' && run == 2 || closes_constrained(src, marks_end, to))
        {
            return Some(close);
        }
        k = close + 1;
    }
    crate::work::examined(to.saturating_sub(k));
    None
}

#[cfg(test)]
mod tests {
    use super::super::lines::{
        assert_linear, assert_well_placed, random_readings, shown, SizedInput,
    };
    use super::*;

    fn read_str(adoc: &str) -> (String, Vec<(String, String, Option<String>)>) {
        shown(adoc, &read(adoc.as_bytes()))
    }

    /// The code stretches of `adoc` as read.
    fn code_of(adoc: &str) -> Vec<String> {
        let reading = read(adoc.as_bytes());
        reading
            .code
            .iter()
            .map(|c| String::from_utf8_lossy(&reading.text[c.start..c.end]).into_owned())
            .collect()
    }

    #[test]
    fn delimited_blocks_literal_paragraphs_and_monospace_are_code() {
        let adoc = "= Title\n\nSee https://docs.example.org/.\n\n\
                    ----\ncurl https://api.example.com/v1\n----\n\n\
                    [source,python]\n----\nget('https://httpbin.org/get')\n----\n\n\
                    ....\nhttps://literal.example/\n....\n\n\
                    ```rust\nlet u = \"https://fenced.example/\";\n```\n\n\
                    [source,bash]\nwget https://source-para.example/x\n\n\
                    [source]\n--\nhttps://open.example/\n--\n\n\
                    [literal]\nhttps://literal-para.example/\n\n  \
                    $ indented https://indented.example/\n\n\
                    Use `https://mono.example/` or ``https://unc.example/``x or `+https://lit.example/+`.\n";
        assert_eq!(
            code_of(adoc),
            [
                "curl https://api.example.com/v1\n",
                "get('https://httpbin.org/get')\n",
                "https://literal.example/\n",
                "let u = \"https://fenced.example/\";\n",
                "wget https://source-para.example/x\n",
                "https://open.example/\n",
                "https://literal-para.example/\n",
                "  $ indented https://indented.example/\n",
                "https://mono.example/",
                "https://unc.example/",
                "https://lit.example/",
            ]
        );
        let (text, _) = read_str(adoc);
        assert!(text.contains("See https://docs.example.org/."), "{text}");
    }

    #[test]
    fn list_items_and_their_lines_are_text() {
        let adoc = "* first https://a.example/\n  wrapped https://b.example/\n\n  \
                    * indented item https://c.example/\n\n\
                    term:: https://d.example/\n\n  1. https://e.example/\n";
        assert!(code_of(adoc).is_empty(), "{:?}", code_of(adoc));
    }

    #[test]
    fn comments_are_not_read() {
        let adoc = "a\n// https://line.example/\nb\n\n////\nhttps://block.example/\n////\n\n\
                    [comment]\nhttps://styled.example/\n\nc https://kept.example/\n\
                    /// not a comment\n";
        let (text, _) = read_str(adoc);
        for gone in ["line", "block", "styled"] {
            assert!(!text.contains(gone), "{gone}: {text:?}");
        }
        assert!(
            text.contains("a\n")
                && text.contains("b\n")
                && text.contains("c https://kept.example/")
                && text.contains("/// not a comment"),
            "{text:?}"
        );
    }

    #[test]
    fn link_macros_and_images_are_links_with_their_text() {
        let adoc =
            "= Doc\n:url-docs: https://docs.example.org/v2\n:url-guide: {url-docs}/guide\n\n\
                    See link:https://a.example/x[the A docs^] and \
                    link:++https://b.example/a_b_c++[B,window=_blank], \
                    link:../up.html[Up, then on], link:{url-guide}/install.html[\"Install, now\"], \
                    {url-docs}[the docs], \\link:https://escaped.example/[no], \
                    image:icons/tip.png[Tip] and {undefined}[x].\n\n\
                    image::https://img.example/big.png[Big]\n";
        let (text, links) = read_str(adoc);
        let label = |s: &str| Some(s.to_string());
        assert_eq!(
            links,
            [
                (
                    "../up.html".into(),
                    "../up.html".into(),
                    label("Up, then on")
                ),
                (
                    "https://a.example/x".into(),
                    "https://a.example/x".into(),
                    label("the A docs")
                ),
                (
                    "https://b.example/a_b_c".into(),
                    "https://b.example/a_b_c".into(),
                    label("B")
                ),
                (
                    "https://docs.example.org/v2/guide/install.html".into(),
                    "{url-guide}/install.html".into(),
                    label("\"Install, now\"")
                ),
                (
                    "https://img.example/big.png".into(),
                    "https://img.example/big.png".into(),
                    None
                ),
                ("icons/tip.png".into(), "icons/tip.png".into(), None),
            ]
        );
        // A link's target is not text; its label and an escaped macro are.
        assert!(!text.contains("a_b_c") && !text.contains("../up"), "{text}");
        assert!(
            text.contains("\\link:https://escaped.example/[no]"),
            "{text}"
        );
        assert!(text.contains("{undefined}[x]"), "{text}");
        // An attribute reference in text is its value, for the scanner.
        assert!(
            text.contains(" https://docs.example.org/v2[the docs]"),
            "{text}"
        );
    }

    /// Found comparing with Asciidoctor over 1,551 real files (git's docs,
    /// packages' READMEs): each case lost URIs.
    #[test]
    fn titles_attributes_descriptions_and_media_are_read_as_asciidoctor_reads_them() {
        // A two-line title is no listing (it made the rest of a file code).
        let adoc = "Title\n-----\n\nSee https://a.example/one.\n\n----\ncode\n----\n";
        assert_eq!(code_of(adoc), ["code\n"]);
        // Attribute references anywhere in text, and in a macro's text.
        let adoc = ":url-repo: https://github.com/o/p\n:gh: o/p\n:imagesdir: ../images\n\n\
                    The {url-repo}/commits/main[history], https://github.com/{gh}/issues \
                    and \\{url-repo}.\n\n\
                    image:badge.svg[CI,link={url-repo}/actions] video::intro.mp4[] \
                    video::dQw4w9WgXcQ[youtube] audio::https://s.example/a.mp3[]\n";
        let (text, links) = read_str(adoc);
        assert!(
            text.contains(
                "The https://github.com/o/p/commits/main[history], https://github.com/o/p/issues \
                 and \\{url-repo}."
            ),
            "{text}"
        );
        assert!(
            text.contains("CI,link=https://github.com/o/p/actions"),
            "{text}"
        );
        let values: Vec<&str> = links.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(
            values,
            [
                "../images/badge.svg",
                "../images/intro.mp4",
                "https://s.example/a.mp3"
            ]
        );
        // A term's description after a blank line is text, not a literal.
        let adoc = "--verbose::\n\n\tSee https://a.example/x.\n\n  literal https://b.example/\n";
        assert_eq!(code_of(adoc), ["  literal https://b.example/\n"]);
    }

    /// Definitions that name each other twice would double at each level
    /// (26 levels, 136 MB); a reference repeated, multiply the text.
    #[test]
    fn attributes_cannot_blow_the_text_up() {
        let mut adoc = String::from(":a0: https://x.example/\n");
        for level in 1..20 {
            adoc += &format!(":a{level}: {{a{}}}{{a{}}}\n", level - 1, level - 1);
        }
        let mut reader = Reader {
            src: adoc.as_bytes(),
            out: Reading::default(),
            attributes: HashMap::new(),
            budget: usize::MAX,
        };
        reader.blocks();
        let longest = reader.attributes.values().map(Vec::len).max();
        assert!(longest <= Some(MAX_VALUE), "{longest:?}");
        adoc += &"{a19} {a8} link:{a8}{a8}{a8}[x] image:{a8}[y,link={a8}] ".repeat(10_000);
        let reading = read(adoc.as_bytes());
        let refs: usize = reading.refs.iter().map(|r| r.value.len()).sum();
        assert!(
            reading.text.len() + refs < 2 * adoc.len() + 64 * 1024,
            "{} bytes of text and {refs} of links for {}",
            reading.text.len(),
            adoc.len()
        );
        // An escaped reference is text, and costs nothing.
        let escaped = format!(
            ":a: {}\n\n{}{{a}}\n",
            "x".repeat(1000),
            "\\{a} ".repeat(100)
        );
        let (text, _) = read_str(&escaped);
        assert!(text.ends_with(&format!("{}\n", "x".repeat(1000))), "{text}");
    }

    #[test]
    fn passthroughs_are_text_without_their_marks() {
        let (text, links) =
            read_str("A +https://p.example/a_b+ and +++<b>https://q.example/</b>+++ end.\n");
        assert!(links.is_empty());
        assert!(text.contains(" https://p.example/a_b "), "{text}");
        assert!(text.contains(" <b>https://q.example/</b> "), "{text}");
        // Marks in words open nothing: C++ twice, a URL's `++`.
        let source = "C++ and C++ at https://x.org/c++/a++ and a`b`c.\n";
        let (text, _) = read_str(source);
        assert_eq!(text, source);
    }

    #[test]
    fn every_byte_is_placed_where_it_was_written() {
        let adoc =
            "A `mono` and link:https://x.example/[X] here.\n\n// c\n\nEnd http://e.example/\n";
        let reading = read(adoc.as_bytes());
        assert_well_placed(adoc.as_bytes(), &reading, adoc);
        let text = &reading.text;
        let at = memchr::memmem::find(text, b"http://e.example/").unwrap();
        assert_eq!(&adoc[reading.map.byte(at).0..][..17], "http://e.example/");
        let here = memchr::memmem::find(text, b"here").unwrap();
        assert_eq!(&adoc[reading.map.byte(here).0..][..4], "here");
    }

    #[test]
    fn reading_is_linear() {
        let repeated = |unit: &'static str| move |n: usize| unit.repeat(n);
        let inputs: Vec<SizedInput> = vec![
            ("`a ", Box::new(repeated("`a "))),
            ("``a ", Box::new(repeated("``a "))),
            ("+a ", Box::new(repeated("+a "))),
            ("++a ", Box::new(repeated(" ++a "))),
            ("+++a ", Box::new(repeated(" +++a "))),
            ("link:", Box::new(repeated(" link:x[a "))),
            ("link:++", Box::new(repeated(" link:++x "))),
            (
                "{a}[",
                Box::new(|n| format!(":a: b\n{}", " {a}[x ".repeat(n))),
            ),
            ("----", Box::new(repeated("----\nx\n"))),
            ("////", Box::new(repeated("////\nx\n"))),
            ("[source]", Box::new(repeated("[source]\n"))),
            ("pluses", Box::new(|n| "+".repeat(n))),
            ("backquotes", Box::new(|n| "`".repeat(n))),
            ("mixed", Box::new(repeated("a `b` +c+ link:d[e] {f}[g] "))),
            ("link:link:", Box::new(repeated("link:"))),
            ("image:x[", Box::new(repeated("image:x[ "))),
            ("link:++x[", Box::new(repeated("link:++x[ "))),
            ("title", Box::new(repeated("T\n-\n"))),
            ("term", Box::new(repeated("t::\n\n  d\n"))),
            ("{{", Box::new(repeated("{"))),
            (
                "link:{{",
                Box::new(|n| format!(":a: b\nlink:{}[x]", "{a}{".repeat(n))),
            ),
        ];
        assert_linear(read, inputs);
    }

    /// Random documents from pieces of AsciiDoc: no panic, every byte
    /// placed, every link placed on what it was written as.
    #[test]
    fn random_documents_are_read_without_fault() {
        let pieces: &[&[u8]] = &[
            b"`",
            b"``",
            b"+",
            b"++",
            b"+++",
            b"[",
            b"]",
            b"{",
            b"}",
            b"{a}",
            b":a: x\n",
            b"link:",
            b"image:",
            b"image::",
            b"\\",
            b"//",
            b"////\n",
            b"----\n",
            b"....\n",
            b"```\n",
            b"--\n",
            b"[source]\n",
            b"[comment]\n",
            b"\n",
            b"\r\n",
            b"\r",
            b" ",
            b"  ",
            b"\t",
            b"* ",
            b"http://a.example/x",
            b"x",
            b"\xff",
            "\u{e9}".as_bytes(),
            b"\x00",
            b",",
            b"\"",
            b"^",
            b"_",
        ];
        for (doc, r, shown) in random_readings(read, pieces, 0x8765_4321, 20_000) {
            for link in &r.refs {
                let written = &doc[link.source.start..link.source.end];
                if !written.contains(&b'{') {
                    assert_eq!(String::from_utf8_lossy(written), link.value, "{shown:?}");
                }
            }
        }
    }
}
