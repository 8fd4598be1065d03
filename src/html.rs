//! What an HTML text says to a reader, as an HTML tokenizer
//! ([`html5gum`], which follows the WHATWG tokenization rules) reads it:
//! its attribute values and its text, with character references decoded by
//! the standard's rules, and each byte mapped back to where it was written.
//!
//! Mail's HTML parts and HTML documents (and the HTML inside Markdown)
//! are read here. Comments, `<script>` and `<style>` are left out: a
//! reader never sees them. The tokenizer works on bytes and recovers from
//! any markup, as browsers do, so input that is broken or not UTF-8 is
//! read too.

use std::convert::Infallible;

use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, Error, ForwardingEmitter, Span as HtmlSpan, Tokenizer};
use memchr::memchr2;

use crate::reading::{Reading, Reference};
use crate::span::Span;

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
/// source: first each attribute value that may hold links, on a line of
/// its own, then the text, with each tag read as a space (so a tag never
/// glues two words). In [`LinkAttributes::Named`] mode the link
/// attributes go to [`Reading::refs`] instead, `<base href>` to
/// [`Reading::base`], and the text of `<code>` and `<pre>` is marked as
/// code.
pub(crate) fn read(html: &[u8], at: usize, mode: LinkAttributes) -> Reading {
    let mut reader = Reader {
        html,
        at,
        mode,
        values: Reading::default(),
        text: Reading {
            text: Vec::with_capacity(html.len()),
            ..Reading::default()
        },
        tag: Vec::new(),
        attribute: Vec::new(),
        raw_text: false,
        code_depth: 0,
        anchor: None,
    };
    let mut emitter = CallbackEmitter::new(&mut reader);
    emitter.naively_switch_states(true);
    // Reading a slice never fails.
    let _ = Tokenizer::new_with_emitter(html, Quiet(emitter)).finish();
    if reader.values.text.is_empty() {
        return reader.text;
    }
    let mut out = reader.values;
    out.text.reserve_exact(reader.text.text.len());
    out.append(reader.text);
    out
}

/// An emitter that tells the tokenizer it wants no parse errors, so that
/// it skips checking every byte for them (a control character, a
/// noncharacter): a fifth of its time. The reader ignores errors anyway.
struct Quiet<E>(E);

impl<E: Emitter> ForwardingEmitter for Quiet<E> {
    type Token = E::Token;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.0
    }

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    #[inline]
    fn emit_error(&mut self, _: Error) {}
}

/// The tokenizer's events turned into a [`Reading`].
struct Reader<'h> {
    html: &'h [u8],
    /// Where `html` starts in the source.
    at: usize,
    mode: LinkAttributes,
    /// Attribute values to scan, one per line.
    values: Reading,
    /// The text between tags.
    text: Reading,
    /// The name of the tag being read (lower case, as the tokenizer gives).
    tag: Vec<u8>,
    /// The name of the attribute being read.
    attribute: Vec<u8>,
    /// Inside `<script>` or `<style>`: text nobody reads.
    raw_text: bool,
    /// How many `<code>` and `<pre>` are open.
    code_depth: u32,
    /// The reference of the `<a href>` being read, and where its text
    /// starts in `text`: its label.
    anchor: Option<(usize, usize)>,
}

impl Callback<Infallible, usize> for &mut Reader<'_> {
    fn handle_event(
        &mut self,
        event: CallbackEvent<'_>,
        span: HtmlSpan<usize>,
    ) -> Option<Infallible> {
        let span = Span::new(
            span.start.min(self.html.len()),
            span.end.min(self.html.len()),
        );
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag.clear();
                self.tag.extend_from_slice(name);
                self.text.separator(b' ', self.at + span.start);
            }
            CallbackEvent::AttributeName { name } => {
                self.attribute.clear();
                self.attribute.extend_from_slice(name);
            }
            CallbackEvent::AttributeValue { value } => self.value(value, span),
            CallbackEvent::CloseStartTag { .. } => match self.tag.as_slice() {
                b"script" | b"style" => self.raw_text = true,
                b"code" | b"pre" if self.mode == LinkAttributes::Named => self.code_depth += 1,
                _ => {}
            },
            CallbackEvent::EndTag { name } => {
                match name {
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
            CallbackEvent::String { value } if !self.raw_text => {
                let source = &self.html[span.start..span.end.max(span.start)];
                if self.code_depth > 0 {
                    self.text.aligned_code(value, source, self.at + span.start);
                } else {
                    self.text.aligned(value, source, self.at + span.start);
                }
            }
            _ => {}
        }
        None
    }
}

impl Reader<'_> {
    /// An attribute value, decoded, written at `span` of the HTML.
    fn value(&mut self, value: &[u8], span: Span) {
        let source = &self.html[span.start..span.end.max(span.start)];
        let src = self.at + span.start;
        if self.mode == LinkAttributes::Named {
            if let Some(kind) = link_attribute(&self.tag, &self.attribute) {
                let mut decoded = Reading::default();
                decoded.aligned(value, source, src);
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
        if memchr2(b':', b'&', source).is_some() && may_hold_links(&self.attribute) {
            self.values.aligned(value, source, src);
            self.values.separator(b'\n', src + source.len());
        }
    }
}

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
        // *Judgement call:* any `<meta content>` with a `url=`: the
        // `http-equiv` may come after `content`.
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
            let lower = text.to_ascii_lowercase();
            let Some(p) = memchr::memmem::find(&lower, b"url") else {
                return Vec::new();
            };
            let mut at = p + 3;
            at += text[at..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            if text.get(at) != Some(&b'=') {
                return Vec::new();
            }
            at += 1;
            at += text[at..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
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

    /// The URIs the scanner finds in what a reader sees of `html`.
    fn scanned(html: &[u8], mode: LinkAttributes) -> Vec<String> {
        let r = read(html, 0, mode);
        crate::Scanner::new()
            .find_iter(&r.text)
            .map(|f| f.as_str().to_string())
            .collect()
    }

    #[test]
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
                "http://z.org/",
                "https://f.org/post",
                "http://b.org/bg.gif",
                "mid:q@example.org",
                "http://o.org/jump.html",
                "http://p.org/get",
                "http://e.org/after-comment.gif",
                "http://y.org/t&u",
                "http://w.org/",
                "http://n.org/"
            ]
        );
    }

    /// Found in mail: `href="http://x.org/?a=1&lt=2"` gave
    /// `http://x.org/?a=1`, the `&lt` decoded to `<` inside the value.
    #[test]
    fn a_named_reference_without_semicolon_stays_text_in_an_attribute() {
        let html = br#"<a href="http://x.org/?a=1&lt=2&amp;b=3&gt;">http://y.org/?a&lt=1</a>"#;
        assert_eq!(
            scanned(html, LinkAttributes::Scanned),
            ["http://x.org/?a=1&lt=2&b=3", "http://y.org/?a"]
        );
    }

    #[test]
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

    #[test]
    fn broken_markup_never_panics() {
        for html in [
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
        ] {
            for mode in [LinkAttributes::Scanned, LinkAttributes::Named] {
                let _ = read(html.as_bytes(), 0, mode);
            }
        }
    }
}
