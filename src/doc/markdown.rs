//! What a reader sees of a Markdown document, as `pulldown-cmark` (a
//! CommonMark parser, with GitHub's tables, footnotes, strikethrough and
//! task lists) reads it: link and image destinations, reference
//! definitions and autolinks as references; the text, with backslash
//! escapes and entities undone, to scan; code spans and blocks marked as
//! code; HTML read by the HTML reader.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::html::{self, LinkAttributes};
use crate::reading::{Reading, Reference};
use crate::span::Span;

/// Returns what a reader sees of the Markdown document `md`.
///
/// *Judgement call:* bytes that are not UTF-8 (which CommonMark does not
/// define) are each read as U+001A, one byte for one, so that every
/// position stays that of the file.
pub(crate) fn read(md: &[u8]) -> Reading {
    let owned;
    let src: &str = match std::str::from_utf8(md) {
        Ok(s) => s,
        Err(_) => {
            owned = one_for_one(md);
            &owned
        }
    };
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let parser = Parser::new_ext(src, options).into_offset_iter();
    let mut reader = Reader {
        src: src.as_bytes(),
        out: Reading {
            text: Vec::with_capacity(md.len()),
            ..Reading::default()
        },
        last_text_end: None,
        uri_emphasis: None,
        after_code: false,
        word_marks: (0, None, None),
        code_block: false,
        html_code: 0,
        html_block: None,
        links: Vec::new(),
        open_anchor: None,
    };
    for (_, def) in parser.reference_definitions().iter() {
        let at = memchr::memmem::find(&reader.src[def.span.clone()], b"]:")
            .map_or(def.span.start, |p| def.span.start + p + 2);
        let source = destination(reader.src, at..def.span.end, &def.dest, [at]);
        reader.out.refs.push(Reference {
            value: def.dest.to_string(),
            source,
            label: None,
        });
    }
    for (event, range) in parser {
        reader.event(event, range);
    }
    // Markdown has no pages either, and the values of its inline HTML are
    // followed by its own text (see `html::without_page_breaks`).
    html::without_page_breaks(&mut reader.out.text);
    reader.out
}

/// The word a gap of markup follows ([`Reader::last_word`]).
#[derive(Clone, Copy)]
struct Word {
    start: usize,
    has_colon: bool,
}

/// Returns true if `next`, the text after emphasis delimiters that follow
/// a word with a `:` (a bare URI's), goes on with that URI, with more than
/// punctuation: GitHub reads a bare URL before its emphasis, so
/// `https://docs.python.org/3/library/__main__.html` is one link there,
/// where CommonMark reads `__main__` as strong; a delimiter after the URI
/// (`**https://a.example/**.`) ends it, as the URI's trailing punctuation
/// (unless it closes one written inside it, `…#object.__init__`).
fn continues_a_uri(next: &[u8]) -> bool {
    next.split(u8::is_ascii_whitespace)
        .next()
        .unwrap_or_default()
        .iter()
        .any(|&b| b.is_ascii_alphanumeric() || b == b'/')
}

/// `md` with each byte that is not part of a UTF-8 character replaced by
/// U+001A.
fn one_for_one(md: &[u8]) -> String {
    let mut s = String::with_capacity(md.len());
    for chunk in md.utf8_chunks() {
        s.push_str(chunk.valid());
        s.extend(std::iter::repeat_n('\u{1a}', chunk.invalid().len()));
    }
    s
}

/// The parser's events turned into a [`Reading`].
struct Reader<'s> {
    src: &'s [u8],
    out: Reading,
    /// Where the last text read ends in the source, while no block ended
    /// since: text that follows it directly (past an escape's `\`) joins
    /// it, otherwise a space stands for the markup between.
    last_text_end: Option<usize>,
    /// The emphasis delimiters last kept inside a bare URI (their source),
    /// and where they were written in the text: the same delimiters
    /// close them, at the URI's end too.
    uri_emphasis: Option<(Range<usize>, usize)>,
    /// The text read last is a code span's (markup after it is not
    /// inside a bare URI: `` `https://a.example/`**x** ``).
    after_code: bool,
    /// Where the last blank and the last `:` of the text stand, as far as
    /// it was looked at (`.0`): the word a gap follows is known without
    /// reading it again.
    word_marks: (usize, Option<usize>, Option<usize>),
    /// Inside a code block.
    code_block: bool,
    /// How many inline HTML `<code>` and `<pre>` tags are open (each inline
    /// tag comes in an event of its own: the text between is Markdown's).
    html_code: usize,
    /// The source of the HTML block being read.
    html_block: Option<Range<usize>>,
    /// The links and images open: their reference (an index in
    /// `out.refs`), if they name one here, or their destination, if a
    /// definition names it; and where their text starts.
    links: Vec<(Result<usize, Option<String>>, usize)>,
    /// An inline HTML `<a>` not closed yet: its reference (an index in
    /// `out.refs`) and where its text starts. (Each inline tag is read on
    /// its own: the `</a>` that gives its label comes in another event.)
    open_anchor: Option<(usize, usize)>,
}

impl Reader<'_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Text(text) => {
                self.join(range.start, text.as_bytes());
                self.after_code = false;
                if self.code_block || self.html_code > 0 {
                    self.out
                        .aligned_code(text.as_bytes(), &self.src[range.clone()], range.start);
                } else {
                    self.out
                        .aligned(text.as_bytes(), &self.src[range.clone()], range.start);
                }
                self.last_text_end = Some(range.end);
            }
            Event::Code(code) => {
                self.join(range.start, b"");
                self.after_code = true;
                let inner = code_inside(self.src, range.clone(), code.as_bytes());
                self.out
                    .aligned_code(code.as_bytes(), &self.src[inner.clone()], inner.start);
                self.last_text_end = Some(range.end);
            }
            Event::Html(_) => {
                let block = self.html_block.get_or_insert(range.clone());
                block.end = range.end;
            }
            Event::InlineHtml(_) => {
                let tag = &self.src[range.clone()];
                if let Some((r, start)) = self.open_anchor.take_if(|_| is_tag(tag, b"/a")) {
                    self.out.refs[r].label = Some(Span::new(start, self.out.text.len()));
                }
                let refs_before = self.out.refs.len();
                self.out.separator(b' ', range.start);
                self.out
                    .append(html::read(tag, range.start, LinkAttributes::Named));
                if is_tag(tag, b"a") && self.out.refs.len() > refs_before {
                    self.open_anchor = Some((refs_before, self.out.text.len()));
                }
                // `Text <code>https://a.example/x</code>`: code, as in HTML.
                if is_tag(tag, b"code") || is_tag(tag, b"pre") {
                    self.html_code += 1;
                } else if is_tag(tag, b"/code") || is_tag(tag, b"/pre") {
                    self.html_code = self.html_code.saturating_sub(1);
                }
                self.last_text_end = None;
            }
            Event::SoftBreak | Event::HardBreak => {
                self.out.separator(b'\n', range.start);
                self.last_text_end = None;
            }
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(tag, range),
            _ => self.block_boundary(range.start),
        }
    }

    /// Before `next`, text at `at`: a space for the markup between it and
    /// the text before, if any, unless that markup is emphasis written
    /// inside a bare URI, which is kept (see [`continues_a_uri`]), or
    /// closes such emphasis at the URI's end
    /// (`…/datamodel.html#object.__init__`, where a delimiter opened
    /// inside the URI closes before a blank).
    fn join(&mut self, at: usize, next: &[u8]) {
        if let Some(end) = self.last_text_end {
            let gap = &self.src[end..at.max(end)];
            if gap.is_empty() || gap == b"\\" {
                return;
            }
            let is_emphasis = gap.iter().all(|b| matches!(b, b'*' | b'_' | b'~'));
            let word = if is_emphasis && !self.after_code {
                Some(self.last_word())
            } else {
                None
            };
            let open = self.uri_emphasis.take();
            let closes = open.is_some_and(|(open, written_at)| {
                self.src[open] == *gap && word.is_some_and(|w| w.start <= written_at)
            });
            if closes {
                self.out.aligned(gap, gap, end);
            } else if word.is_some_and(|w| w.has_colon) && continues_a_uri(next) {
                self.uri_emphasis = Some((end..at, self.out.text.len()));
                self.out.aligned(gap, gap, end);
            } else {
                self.out.separator(b' ', end);
            }
        }
    }

    /// The word the text read ends with: where it starts, and whether it
    /// holds a `:` (a scheme's, in a bare URI). The text is looked at
    /// once, from where the last call left off.
    fn last_word(&mut self) -> Word {
        let text = &self.out.text;
        let (seen, mut blank, mut colon) = self.word_marks;
        for (i, &b) in text.iter().enumerate().skip(seen) {
            if b.is_ascii_whitespace() {
                blank = Some(i);
            } else if b == b':' {
                colon = Some(i);
            }
        }
        self.word_marks = (text.len(), blank, colon);
        let start = blank.map_or(0, |b| b + 1);
        Word {
            start,
            has_colon: colon.is_some_and(|c| c >= start),
        }
    }

    /// A block starts or ends at `at`: the text before ends with it.
    fn block_boundary(&mut self, at: usize) {
        if self.out.text.last().is_some_and(|&b| b != b'\n') {
            self.out.separator(b'\n', at);
        }
        self.last_text_end = None;
        self.open_anchor = None;
        self.html_code = 0;
        self.uri_emphasis = None;
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Link {
                link_type,
                dest_url,
                ..
            }
            | Tag::Image {
                link_type,
                dest_url,
                ..
            } => {
                let source = match link_type {
                    LinkType::Inline => {
                        // The text may hold a `](` too (an image in a
                        // link): the destination follows the last that fits.
                        let start = range.start;
                        let after = memchr::memmem::rfind_iter(&self.src[range.clone()], b"](")
                            .map(move |p| start + p + 2);
                        Some(destination(self.src, range.clone(), &dest_url, after))
                    }
                    LinkType::Autolink => Some(Span::new(range.start + 1, range.end - 1)),
                    // A reference link's destination is its definition's,
                    // named there; an e-mail autolink is an address.
                    _ => None,
                };
                let r = match source {
                    Some(source) => {
                        self.out.refs.push(Reference {
                            value: dest_url.to_string(),
                            source,
                            label: None,
                        });
                        Ok(self.out.refs.len() - 1)
                    }
                    None => Err(matches!(
                        link_type,
                        LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut
                    )
                    .then(|| dest_url.to_string())),
                };
                self.links.push((r, self.out.text.len()));
            }
            Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript => {}
            Tag::CodeBlock(_) => {
                self.block_boundary(range.start);
                self.code_block = true;
            }
            Tag::HtmlBlock => {
                self.block_boundary(range.start);
                self.html_block = None;
            }
            _ => self.block_boundary(range.start),
        }
    }

    fn end(&mut self, tag: TagEnd, range: Range<usize>) {
        match tag {
            TagEnd::Link | TagEnd::Image => {
                let label = |start| Span::new(start, self.out.text.len());
                match self.links.pop() {
                    Some((Ok(r), start)) => self.out.refs[r].label = Some(label(start)),
                    Some((Err(Some(dest)), start)) => self.out.labels.push((label(start), dest)),
                    _ => {}
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => {}
            TagEnd::CodeBlock => {
                self.code_block = false;
                self.block_boundary(range.end);
            }
            TagEnd::HtmlBlock => {
                if let Some(block) = self.html_block.take() {
                    self.out.append(html::read(
                        &self.src[block.clone()],
                        block.start,
                        LinkAttributes::Named,
                    ));
                }
                self.block_boundary(range.end);
            }
            _ => self.block_boundary(range.end),
        }
    }
}

/// Returns true if and only if `html` is a tag named `name` (`a`, or `/a`
/// for its end tag), any case: `<a>`, `<a href=…>`, `</a >`.
fn is_tag(html: &[u8], name: &[u8]) -> bool {
    let Some(rest) = html.strip_prefix(b"<") else {
        return false;
    };
    rest.len() > name.len()
        && rest[..name.len()].eq_ignore_ascii_case(name)
        && matches!(rest[name.len()], b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r')
}

/// Where the destination `dest` of the link or definition written at
/// `range` stands in `src`, always a span within `range`:
///
/// - the last occurrence of `dest` there, byte for byte, if any;
/// - else the destination written after the first of `starts` (each just
///   past a link's `](` or a definition's `]:`) where the one written
///   decodes to `dest` (see [`decodes_to`]): the bytes as written, escapes
///   and references included, the `<` and `>` of its `<...>` form not;
/// - else an empty span at the start of `range`.
fn destination(
    src: &[u8],
    range: Range<usize>,
    dest: &str,
    starts: impl IntoIterator<Item = usize>,
) -> Span {
    if let Some(p) = memchr::memmem::rfind(&src[range.clone()], dest.as_bytes()) {
        if !dest.is_empty() {
            return Span::new(range.start + p, range.start + p + dest.len());
        }
    }
    starts
        .into_iter()
        .filter_map(|at| written_destination(&src[..range.end], at))
        .find(|w| decodes_to(&src[w.token.clone()], dest))
        .map_or(Span::new(range.start, range.start), |w| {
            Span::new(w.inner.start, w.inner.end)
        })
}

/// A link destination as written: `token` as it is, `inner` without its
/// `<` and `>`.
struct Written {
    token: Range<usize>,
    inner: Range<usize>,
}

/// The destination written in `src` after `at` and blanks (spaces and
/// tabs, with one line end at most), as CommonMark reads one: `<...>` on
/// one line with no unescaped `<` or `>` inside, or bare, up to a blank,
/// a control character or the `)` that balances (a backslash escapes a
/// parenthesis); `None` where none is.
fn written_destination(src: &[u8], at: usize) -> Option<Written> {
    let blanks = |i: usize| {
        i + src[i..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let mut i = blanks(at);
    i = blanks(match src[i..] {
        [b'\r', b'\n', ..] => i + 2,
        [b'\r' | b'\n', ..] => i + 1,
        _ => i,
    });
    let start = i;
    let escape = |i: usize| src[i] == b'\\' && src.get(i + 1).is_some_and(u8::is_ascii_punctuation);
    if src.get(i) == Some(&b'<') {
        i += 1;
        while i < src.len() {
            match src[i] {
                b'\n' | b'\r' | b'<' => return None,
                b'>' => {
                    return Some(Written {
                        token: start..i + 1,
                        inner: start + 1..i,
                    })
                }
                _ if escape(i) => i += 1,
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    let mut depth = 0usize;
    while i < src.len() {
        match src[i] {
            0..=b' ' => break,
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            _ if escape(i) => i += 1,
            _ => {}
        }
        i += 1;
    }
    (depth == 0).then_some(Written {
        token: start..i,
        inner: start..i,
    })
}

/// Returns true if and only if pulldown-cmark decodes the destination
/// `written` (`<...>` or bare, with backslash escapes and character
/// references) to `dest`: it is read as the destination of a link of its
/// own, so it is decoded as the document's was. A document is parsed for
/// each call, but only destinations not written as they read get here.
fn decodes_to(written: &[u8], dest: &str) -> bool {
    let Ok(written) = std::str::from_utf8(written) else {
        return false;
    };
    let link = format!("[x]({written})");
    Parser::new(&link).any(
        |event| matches!(event, Event::Start(Tag::Link { dest_url, .. }) if *dest_url == *dest),
    )
}

/// The source of a code span's text: inside its backticks, where `code`
/// is written if it is there as it is.
fn code_inside(src: &[u8], range: Range<usize>, code: &[u8]) -> Range<usize> {
    let written = &src[range.clone()];
    let ticks = written.iter().take_while(|&&b| b == b'`').count();
    let inner = range.start + ticks..range.end.saturating_sub(ticks).max(range.start + ticks);
    match memchr::memmem::find(&src[inner.clone()], code) {
        Some(p) if !code.is_empty() => inner.start + p..inner.start + p + code.len(),
        _ => inner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_definitions_autolinks_and_images_are_references() {
        let md = "# T\n\nSee [the guide](../guide.md \"G\"), ![logo](img/logo.png),\n\
                  [ref][r], <https://auto.example/x> and [bare].\n\n\
                  [r]: https://ref.example/a\n[bare]: <b.md>\n";
        let r = read(md.as_bytes());
        let mut refs: Vec<(&str, &str)> = r
            .refs
            .iter()
            .map(|x| (x.value.as_str(), &md[x.source.start..x.source.end]))
            .collect();
        refs.sort();
        assert_eq!(
            refs,
            [
                ("../guide.md", "../guide.md"),
                ("b.md", "b.md"),
                ("https://auto.example/x", "https://auto.example/x"),
                ("https://ref.example/a", "https://ref.example/a"),
                ("img/logo.png", "img/logo.png"),
            ]
        );
    }

    /// The decoded destinations of `md`'s references, each with its
    /// source as written.
    fn written(md: &str) -> Vec<(String, &str)> {
        let mut refs: Vec<(String, &str)> = read(md.as_bytes())
            .refs
            .into_iter()
            .map(|x| (x.value, &md[x.source.start..x.source.end]))
            .collect();
        refs.sort();
        refs
    }

    /// Found in serde_json's README (`[crates.io]:
    /// https://crates.io/crates/serde\_json`): a destination written with
    /// an escape or a reference was placed as an empty span at the start
    /// of its link.
    #[test]
    fn escaped_destinations_are_placed_as_written() {
        let md = "[a]: https://crates.io/crates/serde\\_json\n\n\
                  [wrapped\ntext](https://a.example/a\\_b) [c](https://c.example/?x=1&amp;y=2)\n\
                  ![i](<img/a\\>b&#95;c.png> \"t\") [![b](https://img.example/b\\_1.svg)](https://x.example/x\\_y)\n\
                  [p](https://p.example/V8_\\(JS\\)) [q](https://q.example/a\\\\b) [r][d] <https://auto.example/a&amp;b>\n\n\
                  [d]:\n  <https://d.example/&lowbar;>\n";
        assert_eq!(
            written(md),
            [
                ("https://a.example/a_b".into(), "https://a.example/a\\_b"),
                (
                    "https://auto.example/a&amp;b".into(),
                    "https://auto.example/a&amp;b"
                ),
                (
                    "https://c.example/?x=1&y=2".into(),
                    "https://c.example/?x=1&amp;y=2"
                ),
                (
                    "https://crates.io/crates/serde_json".into(),
                    "https://crates.io/crates/serde\\_json"
                ),
                ("https://d.example/_".into(), "https://d.example/&lowbar;"),
                (
                    "https://img.example/b_1.svg".into(),
                    "https://img.example/b\\_1.svg"
                ),
                (
                    "https://p.example/V8_(JS)".into(),
                    "https://p.example/V8_\\(JS\\)"
                ),
                ("https://q.example/a\\b".into(), "https://q.example/a\\\\b"),
                ("https://x.example/x_y".into(), "https://x.example/x\\_y"),
                ("img/a>b_c.png".into(), "img/a\\>b&#95;c.png"),
            ]
        );
    }

    #[test]
    fn escapes_are_removed_and_code_is_marked() {
        let md = "A http://x.example/serde\\_json link, `http://localhost:8080/` and\n\n\
                  ```\ncurl http://127.0.0.1/\n```\n";
        let r = read(md.as_bytes());
        let found: Vec<(String, bool, &str)> = crate::Scanner::new()
            .find_iter(&r.text)
            .map(|f| {
                let s = r.map.span(f.span());
                (
                    f.as_str().to_string(),
                    r.is_code(f.span().start),
                    &md[s.start..s.end],
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (
                    "http://x.example/serde_json".to_string(),
                    false,
                    "http://x.example/serde\\_json"
                ),
                (
                    "http://localhost:8080/".to_string(),
                    true,
                    "http://localhost:8080/"
                ),
                ("http://127.0.0.1/".to_string(), true, "http://127.0.0.1/"),
            ]
        );
    }

    /// Found by the second black-box run: an inline `<a>` whose text is
    /// its URI gave it twice, its label not being known.
    #[test]
    fn an_inline_anchor_s_text_is_its_label() {
        let md =
            "P <a href=\"http://a.example/\">http://a.example/</a> and <a href=\"b.md\">b</a>.\n";
        let reading = read(md.as_bytes());
        let labels: Vec<_> = reading
            .refs
            .iter()
            .map(|r| {
                let label = r.label.expect("a label");
                (r.value.as_str(), &reading.text[label.start..label.end])
            })
            .collect();
        assert_eq!(
            labels,
            [
                ("http://a.example/", &b"http://a.example/"[..]),
                ("b.md", &b"b"[..])
            ]
        );
    }

    #[test]
    fn html_in_markdown_is_read_as_html() {
        let md = "Text\n\n<div>\n<a href=\"a&amp;b.html\">x</a>\n</div>\n\nInline <img src=\"i.png\"> too.\n";
        let r = read(md.as_bytes());
        let refs: Vec<(&str, &str)> = r
            .refs
            .iter()
            .map(|x| (x.value.as_str(), &md[x.source.start..x.source.end]))
            .collect();
        assert_eq!(refs, [("a&b.html", "a&amp;b.html"), ("i.png", "i.png")]);
    }

    #[test]
    fn text_that_is_not_utf8_keeps_its_positions() {
        let md = b"\xff\xfe http://x.example/ \xc3";
        let r = read(md);
        let f = crate::Scanner::new().find_iter(&r.text).next().unwrap();
        assert_eq!(r.map.span(f.span()), Span::new(3, 20));
    }
}
