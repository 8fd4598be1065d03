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
        code_block: false,
        html_block: None,
        links: Vec::new(),
    };
    for (_, def) in parser.reference_definitions().iter() {
        let at = memchr::memmem::find(&reader.src[def.span.clone()], b"]:")
            .map_or(def.span.start, |p| def.span.start + p + 2);
        let source = destination(reader.src, at..def.span.end, &def.dest);
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
    /// Inside a code block.
    code_block: bool,
    /// The source of the HTML block being read.
    html_block: Option<Range<usize>>,
    /// The links and images open: their reference (an index in
    /// `out.refs`), if they name one here, and where their text starts.
    links: Vec<(Option<usize>, usize)>,
}

impl Reader<'_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Text(text) => {
                self.join(range.start);
                if self.code_block {
                    self.out
                        .aligned_code(text.as_bytes(), &self.src[range.clone()], range.start);
                } else {
                    self.out
                        .aligned(text.as_bytes(), &self.src[range.clone()], range.start);
                }
                self.last_text_end = Some(range.end);
            }
            Event::Code(code) => {
                self.join(range.start);
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
                self.out.separator(b' ', range.start);
                self.out.append(html::read(
                    &self.src[range.clone()],
                    range.start,
                    LinkAttributes::Named,
                ));
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

    /// Before text at `at`: a space for the markup between it and the
    /// text before, if any.
    fn join(&mut self, at: usize) {
        if let Some(end) = self.last_text_end {
            let gap = &self.src[end..at.max(end)];
            if !gap.is_empty() && gap != b"\\" {
                self.out.separator(b' ', end);
            }
        }
    }

    /// A block starts or ends at `at`: the text before ends with it.
    fn block_boundary(&mut self, at: usize) {
        if self.out.text.last().is_some_and(|&b| b != b'\n') {
            self.out.separator(b'\n', at);
        }
        self.last_text_end = None;
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
                    LinkType::Inline => Some(destination(self.src, range.clone(), &dest_url)),
                    LinkType::Autolink => Some(Span::new(range.start + 1, range.end - 1)),
                    // A reference link's destination is its definition's,
                    // named there; an e-mail autolink is an address.
                    _ => None,
                };
                let r = source.map(|source| {
                    self.out.refs.push(Reference {
                        value: dest_url.to_string(),
                        source,
                        label: None,
                    });
                    self.out.refs.len() - 1
                });
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
                if let Some((Some(r), start)) = self.links.pop() {
                    self.out.refs[r].label = Some(Span::new(start, self.out.text.len()));
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

/// Where the destination `dest` of the link or definition written at
/// `range` stands: its last occurrence there as written, else (escapes or
/// entities changed it) the start of `range`.
fn destination(src: &[u8], range: Range<usize>, dest: &str) -> Span {
    match memchr::memmem::rfind(&src[range.clone()], dest.as_bytes()) {
        Some(p) if !dest.is_empty() => Span::new(range.start + p, range.start + p + dest.len()),
        _ => Span::new(range.start, range.start),
    }
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
