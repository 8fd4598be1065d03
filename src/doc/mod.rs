//! Documents read as what they are: HTML, Markdown, man pages (roff), XML,
//! reStructuredText and AsciiDoc, for link checkers. Each gives the links its markup names (`href`,
//! `src`, a Markdown link's destination), relative ones resolved against
//! a base (RFC 3986 section 5.2), and the URIs its text holds, found by
//! the Appendix C rules in the text as a reader sees it; every one placed
//! at the line and column of the file where it was written.
//!
//! ```
//! use uriscan::doc::{find_links, DocKind};
//! use uriscan::{IriRef, Scanner};
//!
//! let md = b"See [the guide](../guide.md) and `http://localhost:8080/`.\n\n\
//! [spec]: https://www.rfc-editor.org/rfc/rfc3986\n";
//! let base = IriRef::parse("https://docs.example.org/a/b.md")?;
//! let found = find_links(&Scanner::new(), DocKind::Markdown, md, Some(&base));
//! let links: Vec<_> = found
//!     .links()
//!     .iter()
//!     .map(|l| (l.uri(), l.line(), l.column(), l.is_relative(), l.is_in_code()))
//!     .collect();
//! assert_eq!(
//!     links,
//!     [
//!         ("https://docs.example.org/guide.md", 1, 17, true, false),
//!         ("http://localhost:8080/", 1, 35, false, true),
//!         ("https://www.rfc-editor.org/rfc/rfc3986", 3, 9, false, false),
//!     ]
//! );
//! assert_eq!(found.links()[0].written(), "../guide.md");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Conformance
//!
//! - **HTML** is read by an HTML tokenizer (`html5gum`, the WHATWG
//!   tokenization rules; character references decoded by them). The
//!   values of `href`, `src`, `srcset` (each candidate), `action`, `cite`,
//!   `poster`, `formaction`, `background`, `longdesc`, `<object data>` and
//!   a refresh's URL (a `<meta content>` that is a time and `;`, `0;
//!   url=next.html`) are links, taken whole, less the
//!   blanks around them. `<base href>` (the first) is the document's base
//!   (section 5.1.1); it wins over the base given, against which it is
//!   itself resolved. Other attribute values (but `xmlns` and the `on…`
//!   handlers) and the text are scanned; comments, `<script>` and
//!   `<style>` are not read. Text in `<code>` and `<pre>` is code.
//! - **Markdown** is read by `pulldown-cmark` (CommonMark, with GitHub's
//!   tables, footnotes, strikethrough and task lists). Inline link and
//!   image destinations, reference definitions (each once, where it is
//!   defined: the links that use it name no place of their own) and URI
//!   autolinks are links; e-mail autolinks are not. The text is scanned
//!   with backslash escapes and entities undone (`serde\_json`); code spans
//!   and code blocks are code. HTML blocks and inline HTML are read as
//!   HTML. A destination is placed where it is written, escapes and
//!   entities included (`serde\_json`); one not found so (a title holding
//!   it first, a block quote's `>` before it) is placed at the start of
//!   its link.
//! - **Man pages**: roff escapes are read as roff does before the text is
//!   scanned (see the `man` reader: `\-` is `-`, `\&` is nothing, font
//!   changes are nothing, …).
//! - **XML** (sitemaps, feeds, POMs, XHTML, SVG) is scanned with its
//!   predefined entities and character references decoded (`&amp;` is
//!   `&`), but in comments, CDATA sections and processing instructions,
//!   which XML decodes nothing in. *Judgement call:* XML itself names no
//!   links (an Atom `<link href>` or XHTML's `href` are links by their
//!   vocabularies), so it gives only what its text holds, and no relative
//!   reference is resolved.
//! - **reStructuredText** is read line by line as docutils reads it, for
//!   what bears on links (see the `rst` reader): embedded URIs, hyperlink
//!   targets and image URIs are links, with the whitespace reST removes
//!   from them left out; literal blocks, code directives, doctest blocks,
//!   inline literals and code roles are code; comments are not read.
//! - **AsciiDoc** is read line by line as Asciidoctor reads it, for what
//!   bears on links (see the `asciidoc` reader): the targets of link and
//!   image macros are links, with the attributes defined before them
//!   substituted; listing, literal and fenced blocks, source and literal
//!   paragraphs and monospace are code; comments are not read.
//! - **Links** are read as a browser reads them: ASCII tabs and line
//!   breaks removed, and the characters RFC 3986 allows nowhere but
//!   browsers take (a space, U+00A0 NO-BREAK SPACE, `|`, `"`, `<`, `>`,
//!   `[`, …) percent-encoded
//!   (`<My File.md>` names `My%20File.md`); braces are left, as a
//!   template's (`{{ url }}`), and so is the `<` of `<?php` and `<%=`. Then they must parse as URI
//!   references ([`UriRef`]), or as IRI references, which are reported as
//!   the scanner reports an IRI in text
//!   ([`ScannerBuilder::iri`](crate::ScannerBuilder::iri): the URI it maps
//!   to, with [`Found::iri`](crate::Found::iri) as written, by default);
//!   one that is neither (`%zz`, a template's braces) is left out, or
//!   reported as written with its error when the scanner reports invalid
//!   candidates
//!   ([`ScannerBuilder::report_invalid`](crate::ScannerBuilder::report_invalid))
//!   and its scheme is one a valid link could have (the rules below; no
//!   scheme is a relative reference's, shown as relative ones are). A
//!   URI found in a link's label that is the link cut where the link holds
//!   what browsers encode (`[https://a.example/a^b](https://a.example/a^b)`)
//!   is the link, reported once. An empty one is left out.
//!   An absolute one without `//` whose scheme the scanner does not know
//!   is left out, as in the text (unless
//!   [`ScannerBuilder::any_scheme`](crate::ScannerBuilder::any_scheme)):
//!   *judgement call*, for the rustdoc paths that READMEs generated from
//!   doc comments give as destinations (`[Vec]: alloc::vec::Vec`, which
//!   parses as scheme `alloc`), which no browser or link checker can
//!   follow. A relative one is resolved against the base when there is one
//!   ([`Link::resolved`]). *Judgement call:* an absolute link is reported
//!   as written, not normalized nor resolved (resolution would remove its
//!   dot segments).
//! - **Duplicates**: a URI found in a link's own text that is the link
//!   itself (`<a href="https://x.org/">https://x.org/</a>`, an autolink,
//!   a Markdown reference link's text and its definition) is reported
//!   once, as the link.
//! - **Positions** ([`Link::line`], [`Link::column`], [`Link::span`]) are
//!   those of the document's bytes, escapes, entities and markup
//!   included. Links come in the order of their positions.
//!
//! [`UriRef`]: crate::UriRef

mod asciidoc;
mod lines;
mod man;
mod markdown;
mod rst;
mod xml;

use std::borrow::Cow;
use std::ffi::OsStr;
use std::io;

use crate::html::{self, LinkAttributes};
use crate::reading::{
    authority_of, browser_encodes, percent_encoded, LinkByte, LinkReading, Passed, Reading,
};
use crate::scan::{Found, Scanner, Sink};
use crate::span::Span;
use crate::uri::percent::hex_pair;
use crate::uri::{IriRef, UriRef};

/// What a document is, and so how it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DocKind {
    /// HTML (`*.html`, `*.htm`).
    Html,
    /// Markdown (`*.md`, `*.markdown`, …).
    Markdown,
    /// A man page's roff source (`*.1` … `*.9`, …).
    Man,
    /// XML (`*.xml`, `*.xhtml`, `*.svg`, …).
    Xml,
    /// reStructuredText (`*.rst`).
    Rst,
    /// AsciiDoc (`*.adoc`, `*.asciidoc`).
    AsciiDoc,
}

impl DocKind {
    /// The kind of document a file named `name` is, by the globs of
    /// ripgrep's file types `html` (`*.htm`, `*.html`, `*.ejs`),
    /// `markdown` (`*.md`, `*.markdown`, `*.mdown`, `*.mdwn`, `*.mkd`,
    /// `*.mkdn`, `*.mdx`), `man` (`*.[0-9lnpx]`,
    /// `*.[0-9][cEFMmpSx]`), `xml` (`*.xml`, `*.xml.dist`, `*.dtd`,
    /// `*.xsl`, `*.xslt`, `*.xsd`, `*.xjb`, `*.rng`, `*.sch`, `*.xhtml`),
    /// `svg` (`*.svg`), `rst` (`*.rst`) and `asciidoc` (`*.adoc`,
    /// `*.asciidoc`; its `*.asc` names PGP armor as often, and is left as
    /// text), compared as they are, case and all; `None` for any other
    /// name.
    ///
    /// Man pages are also named by a section digit and up to eight
    /// letters (`*.3pm`, `*.1ssl`, `*.3perl`, `*.3type`: man-db reads any
    /// suffix after the section's digit). ripgrep's `man` type leaves these
    /// out; read as plain text, their roff escapes end up in what is found
    /// (`\*(Aqhttp://cpan.org\*(Aq` gave `Aqhttp://cpan.org`).
    ///
    /// A name is not enough to call a file a man page (`*.1` also names
    /// rotated logs): check its start with [`looks_like_roff`] too.
    ///
    /// ```
    /// use std::ffi::OsStr;
    /// use uriscan::doc::DocKind;
    ///
    /// assert_eq!(DocKind::from_file_name(OsStr::new("README.md")), Some(DocKind::Markdown));
    /// assert_eq!(DocKind::from_file_name(OsStr::new("uri.7")), Some(DocKind::Man));
    /// assert_eq!(DocKind::from_file_name(OsStr::new("notes.txt")), None);
    /// ```
    pub fn from_file_name(name: &OsStr) -> Option<DocKind> {
        let name = name.as_encoded_bytes();
        if name.ends_with(b".xml.dist") {
            return Some(DocKind::Xml);
        }
        let dot = name.iter().rposition(|&b| b == b'.')?;
        match &name[dot + 1..] {
            b"htm" | b"html" | b"ejs" => Some(DocKind::Html),
            b"markdown" | b"md" | b"mdown" | b"mdwn" | b"mkd" | b"mkdn" | b"mdx" => {
                Some(DocKind::Markdown)
            }
            b"xml" | b"dtd" | b"xsl" | b"xslt" | b"xsd" | b"xjb" | b"rng" | b"sch" | b"xhtml"
            | b"svg" => Some(DocKind::Xml),
            b"rst" => Some(DocKind::Rst),
            b"adoc" | b"asciidoc" => Some(DocKind::AsciiDoc),
            [section] if section.is_ascii_digit() || b"lnpx".contains(section) => {
                Some(DocKind::Man)
            }
            [section, suffix @ ..]
                if section.is_ascii_digit()
                    && (1..=8).contains(&suffix.len())
                    && suffix.iter().all(u8::is_ascii_alphabetic) =>
            {
                Some(DocKind::Man)
            }
            _ => None,
        }
    }
}

/// The most a document may hold to be read as one (16 MiB): the command
/// line reads a larger one as plain text, with a warning, so that memory
/// stays bounded. A document read whole takes 4 to 8 times its size (up to
/// 70 times for markup made to cost, `a*a*a*…` in Markdown) while
/// it is read (the parser's tree, the text, its map): 16 MiB bounds that
/// near mail's bound, a message of 16 MiB. The largest documents on a
/// typical machine (Node.js's one-page API, 8 MiB; rustup's `COPYRIGHT.html`,
/// 14 MiB) fit. The price of the bound: a larger one, read as text, keeps
/// its `&amp;` as written and has no code told apart.
pub const MAX_DOCUMENT_LEN: usize = 16 << 20;

/// The warning for a document larger than [`MAX_DOCUMENT_LEN`], read as
/// plain text (the command line's and the Python package's).
pub const TOO_LARGE_A_DOCUMENT: &str = "larger than 16 MiB: read as plain text, not as a document";

/// Which links of a document are reported, and how: the command line's
/// `--relative`, `--fragments` and `--skip-code`. The default reports the
/// absolute URIs, in code or not, and the relative references a base
/// resolved, as their targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkFilter {
    /// Report a relative reference as written (rather than only its
    /// target, when a base resolved it).
    pub relative: bool,
    /// Report fragment-only references (`#section`).
    pub fragments: bool,
    /// Leave out the links in code ([`Link::is_in_code`]).
    pub skip_code: bool,
}

impl LinkFilter {
    /// The URI reported for `link`, or `None` if it is left out.
    pub fn shown<'l>(&self, link: &'l Link) -> Option<&'l str> {
        if (self.skip_code && link.is_in_code()) || (link.is_fragment() && !self.fragments) {
            return None;
        }
        if !link.is_relative() || self.relative {
            return Some(link.written());
        }
        link.resolved()
    }
}

/// One link of a document: named by its markup, or found in its text.
///
/// What the scanner would say of it ([`Link::found`]: its text as written,
/// where, and how it was bounded, wrapped or joined), and what the
/// document adds: its target, and whether it stands in code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    found: Found<'static>,
    resolved: Option<String>,
    in_code: bool,
    from_markup: bool,
}

impl Link {
    /// The URI: the resolved form of a relative reference when a base is
    /// known, otherwise the reference as written ([`Link::written`]).
    pub fn uri(&self) -> &str {
        self.resolved.as_deref().unwrap_or(self.written())
    }

    /// The reference as written, decoded (character references, escapes),
    /// and as a browser reads it (a space percent-encoded: see
    /// [`find_links`]); as written alone for one reported invalid.
    pub fn written(&self) -> &str {
        self.found.as_str()
    }

    /// The link as the scanner reports a URI: the reference as written,
    /// placed in the document's bytes (span, line, column), with how the
    /// text bounded it ([`Delimiter::None`](crate::Delimiter::None) for
    /// markup), wrapped or joined it.
    pub fn found(&self) -> &Found<'static> {
        &self.found
    }

    /// The target of a relative reference, resolved against the
    /// document's base (section 5.2); `None` for an absolute URI or when
    /// no base is known.
    pub fn resolved(&self) -> Option<&str> {
        self.resolved.as_deref()
    }

    /// Returns true if and only if the reference as written has no scheme
    /// (a link reported invalid too: see [`find_links`]).
    pub fn is_relative(&self) -> bool {
        crate::uri::scheme_end(self.written().as_bytes()).is_none()
    }

    /// Returns true if and only if the reference as written is a fragment
    /// alone (`#section`), a place in the document itself.
    pub fn is_fragment(&self) -> bool {
        self.written().starts_with('#')
    }

    /// Returns true if and only if it stands in code (a Markdown code span
    /// or block, an HTML `<code>` or `<pre>`, a reST literal or code
    /// block): an example, not a link.
    pub fn is_in_code(&self) -> bool {
        self.in_code
    }

    /// Returns true if and only if the markup names it (`href`, a link's
    /// destination), rather than the text holding it.
    pub fn is_from_markup(&self) -> bool {
        self.from_markup
    }

    /// Where it is written in the document.
    pub fn span(&self) -> Span {
        self.found.span()
    }

    /// The 1-based line where it is written.
    pub fn line(&self) -> u64 {
        self.found.line()
    }

    /// The 1-based byte column where it is written.
    pub fn column(&self) -> u64 {
        self.found.column()
    }
}

/// The links of one document ([`find_links`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocLinks {
    links: Vec<Link>,
    too_long: Vec<(usize, u64)>,
}

impl DocLinks {
    /// The links, in the order of their positions.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The links, owned.
    pub fn into_links(self) -> Vec<Link> {
        self.links
    }

    /// The candidates longer than the scanner's limit, given up on: the
    /// offset and line where each starts in the document.
    pub fn too_long(&self) -> &[(usize, u64)] {
        &self.too_long
    }
}

/// Reads `doc` as a document of kind `kind` and returns its links: those
/// its markup names and those the scanner finds in its text.
///
/// `base` is the document's own URI (or IRI), against which its relative
/// references are resolved (a `<base href>` in the document wins); with
/// none, relative references are returned as written ([`Link::uri`]).
/// With [`IriMode::Keep`](crate::IriMode::Keep), a relative reference is
/// resolved as an IRI against the base as given (RFC 3987 section 6.5),
/// so the target keeps the characters written; otherwise as the URI it
/// maps to, against the URI the base maps to. A `<base href>` may be an
/// IRI in every mode, as `base` may: it names where the document is, not
/// a link to report.
pub fn find_links(
    scanner: &Scanner,
    kind: DocKind,
    doc: &[u8],
    base: Option<&IriRef<'_>>,
) -> DocLinks {
    let reading = match kind {
        DocKind::Html => html::read(doc, 0, LinkAttributes::Named),
        DocKind::Markdown => markdown::read(doc),
        DocKind::Man => man::read(doc),
        DocKind::Xml => xml::read(doc),
        DocKind::Rst => rst::read(doc),
        DocKind::AsciiDoc => asciidoc::read(doc),
    };
    let lines = Lines::new(doc);
    let embedded = reading
        .base
        .as_deref()
        .and_then(|b| embedded_base(&as_browsers_read(b), base));
    let base = match &embedded {
        Some(b) => IriRef::parse(b).ok(),
        None => base.copied(),
    };
    let uri_base = base.map(|b| b.to_uri());
    let uri_base = uri_base.as_deref().and_then(|b| UriRef::parse(b).ok());
    let mut out = DocLinks::default();
    for r in &reading.refs {
        let value = as_browsers_read(&r.value);
        if value.is_empty() {
            continue;
        }
        let (text, iri) = match scanner.parse_named(&value) {
            Ok(parsed) => parsed,
            Err(_) => {
                // Reported as written, with the error of what was written,
                // when its scheme is one a valid link's could be; without
                // its line breaks, which would cut a record in two.
                let written: String = r.value.trim().split(['\t', '\n', '\r']).collect();
                let scheme_ok = scanner.takes_scheme_written(&written);
                if scanner.reports_invalid() && scheme_ok {
                    let error = scanner.parse_named(&written).err();
                    out.links.push(Link {
                        found: Found::named(
                            written,
                            None,
                            error,
                            r.source,
                            lines.position(r.source.start),
                            is_wrapped(&r.value),
                        ),
                        resolved: None,
                        in_code: false,
                        from_markup: true,
                    });
                }
                continue;
            }
        };
        let Ok(iri_ref) = IriRef::parse(&text) else {
            continue;
        };
        let uri = iri_ref.to_uri();
        let Ok(reference) = UriRef::parse(&uri) else {
            continue;
        };
        if !scanner.takes_scheme_of(&reference) {
            continue;
        }
        let resolved = match reference.is_relative() {
            false => None,
            true if scanner.keeps_iris() => base.and_then(|b| b.resolve(&iri_ref).ok()),
            true => uri_base.as_ref().and_then(|b| b.resolve(&reference).ok()),
        };
        let place = lines.position(r.source.start);
        let wrapped = is_wrapped(&r.value);
        out.links.push(Link {
            found: Found::named(text, iri, None, r.source, place, wrapped),
            resolved,
            in_code: false,
            from_markup: true,
        });
    }
    let mut labels: Vec<(Span, &str)> = reading
        .refs
        .iter()
        .filter_map(|r| Some((r.label?, r.value.as_str())))
        .chain(reading.labels.iter().map(|(l, v)| (*l, v.as_str())))
        .collect();
    labels.sort_unstable_by_key(|(l, _)| l.start);
    let mut found = InText {
        reading: &reading,
        labels: &labels,
        lines: &lines,
        out: &mut out,
    };
    // The sink never fails.
    let _ = scanner.scan_slice(&reading.text, &mut found);
    out.links.sort_by_key(|l| (l.span().start, !l.from_markup));
    out
}

/// A link's value as a browser reads it before it parses it (the WHATWG
/// URL Standard), made a URI-reference where that is all it lacks: blanks
/// and controls around it removed, ASCII tabs and line breaks in it too
/// (`href="https://a.example/docs/\n  page"`), and the characters that RFC
/// 3986 allows nowhere but browsers take, percent-encoded: space
/// (CommonMark's `[d](<My File.md>)`, rendered `My%20File.md`), `"`,
/// `` ` ``, `|` (`?family=Roboto|Open+Sans`), `^`, C0 controls and DEL,
/// and U+00A0 NO-BREAK SPACE (`&nbsp;`, which a browser does not trim
/// either: `%C2%A0`, in every IRI mode, though RFC 3987 allows it in an
/// IRI); `<` and `>` (rustdoc's `#impl-From<T>-for-A`), `[` and `]` (a
/// query's `a[]=1`, a typo's `…/pull/496]`, which a link checker should
/// report broken rather than never see) and a `#` past the first
/// (matrix.to's `#/#room:server`). Nothing is encoded in the authority,
/// where an IP literal's brackets stand: a host with a
/// space is no host. What stays invalid (`%zz`, `\`, braces: a template's)
/// is left as written, for the parser to refuse. A `<base href>` is read
/// so too. Each byte is read by the rule mail reads a link attribute by
/// ([`LinkReading`]), with both its switches set
/// ([`LinkReading::DOCUMENT`]).
///
/// *Judgement calls:* a link in markup is the URI a browser follows, and
/// a link checker needs that one; a URI in plain text is taken as
/// written, bounded by the characters this makes up for. Braces, `<` and
/// `>` are not encoded, though browsers encode them: a link holding them
/// is a template's (`{{version}}`, RFC 6570's `/users/{id}`, ERB's `<%=
/// url %>`) or a type's (a rustdoc path, `Vec<T>`), not one to follow.
fn as_browsers_read(value: &str) -> Cow<'_, str> {
    let value = value.trim_matches(|c: char| c <= ' ');
    let link = value.as_bytes();
    let authority = authority_of(link);
    let reading = LinkReading::DOCUMENT;
    let mut passed = Passed::default();
    let untouched =
        (0..link.len()).all(|i| reading.byte(link, i, &authority, &mut passed) == LinkByte::Keep);
    if untouched {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    let mut passed = Passed::default();
    for (i, c) in value.char_indices() {
        // A character's bytes are read alike (the bytes after its first
        // are neither `?` nor `#`, which alone change how the rest is
        // read), so its first byte says.
        match reading.byte(link, i, &authority, &mut passed) {
            LinkByte::Remove => {}
            LinkByte::Encode => {
                for b in c.encode_utf8(&mut [0; 4]).bytes() {
                    out.extend(percent_encoded(b).map(char::from));
                }
            }
            LinkByte::Keep => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Returns true if and only if the link `value` is written over lines: a
/// line break within it, which [`as_browsers_read`] removes (`wrapped` in
/// what is reported, as for a URI joined from lines of text).
fn is_wrapped(value: &str) -> bool {
    value
        .trim_matches(|c: char| c <= ' ')
        .contains(['\n', '\r'])
}

/// Returns true if and only if the URI `uri`, found in the text of a
/// link's label, is the link whose value is `value`: the same, or cut
/// where the link holds what a browser encodes (`https://a.example/a^b`
/// in the text gives `https://a.example/a`), or what the label shows
/// decoded and the scan stops at (`href="https://a.example/r%20s"`, shown
/// `https://a.example/r s`).
fn is_the_link(uri: &str, value: &str) -> bool {
    value
        .strip_prefix(uri)
        .is_some_and(|rest| match rest.as_bytes() {
            [] => true,
            bytes @ [b'%', ..] => hex_pair(bytes, 0).is_some_and(ends_a_scan),
            [b, ..] => browser_encodes(*b),
        })
}

/// Returns true if and only if a scan of text stops at the byte `b`
/// written as itself: it is no URI character (a space, `"`, `<`, `\`),
/// or it starts a non-ASCII character (which may be punctuation).
fn ends_a_scan(b: u8) -> bool {
    !crate::uri::table::URI.contains(b)
}

/// Returns true if and only if `start`, the start of a file, looks like
/// roff source: one of its first lines is a comment (`.\"`, `'\"`) or a
/// request that starts a man page (`.TH`, `.Dd`, `.so`, `.de`).
///
/// A file's name is not enough to call it a man page: `*.1` also names
/// rotated logs.
pub fn looks_like_roff(start: &[u8]) -> bool {
    start.split(|&b| b == b'\n').take(40).any(|line| {
        [
            &b".\\\""[..],
            b"'\\\"",
            b".TH ",
            b".Dd ",
            b".so ",
            b".de ",
            b".Dt ",
        ]
        .iter()
        .any(|p| line.starts_with(p))
    })
}

/// The base a document names (`<base href>`, a URI or an IRI), resolved
/// against the base given if it is relative; `None` if it cannot be used.
fn embedded_base(named: &str, given: Option<&IriRef<'_>>) -> Option<String> {
    let named_ref = IriRef::parse(named.trim()).ok()?;
    if !named_ref.is_relative() {
        return Some(named_ref.as_str().to_string());
    }
    given?.resolve(&named_ref).ok()
}

/// Turns what the scanner finds in a reading's text into links.
struct InText<'a> {
    reading: &'a Reading,
    /// The labels of the references, and their values, sorted by start.
    /// Labels do not overlap, but for an image inside a link (a badge):
    /// then only one of the two is looked at, and a URI both repeat may be
    /// reported twice.
    labels: &'a [(Span, &'a str)],
    lines: &'a Lines,
    out: &'a mut DocLinks,
}

impl Sink for &mut InText<'_> {
    fn found(&mut self, f: &Found<'_>) -> io::Result<bool> {
        let at = f.span();
        let last_before = self.labels.partition_point(|(l, _)| l.start <= at.start);
        let is_its_label = last_before
            .checked_sub(1)
            .map(|i| self.labels[i])
            .is_some_and(|(l, value)| at.end <= l.end && is_the_link(f.as_str(), value));
        if is_its_label {
            return Ok(true);
        }
        let span = self.reading.map.span(f.span());
        let (line, column) = self.lines.position(span.start);
        self.out.links.push(Link {
            found: f.placed(span, line, column, None).into_owned(),
            resolved: None,
            in_code: self.reading.is_code(f.span().start),
            from_markup: false,
        });
        Ok(true)
    }

    fn too_long(&mut self, start: usize, _line: u64) -> io::Result<bool> {
        let at = self.reading.map.span(Span::new(start, start)).start;
        let (line, _) = self.lines.position(at);
        self.out.too_long.push((at, line));
        Ok(true)
    }
}

/// Where each line of a document starts, to give line and column of an
/// offset.
///
/// # Invariants
///
/// `starts[0] == 0`, sorted; `starts[i]` follows the `i`th `\n`.
struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    fn new(doc: &[u8]) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', doc).map(|p| p + 1));
        Lines { starts }
    }

    /// The 1-based line and byte column of the offset `at`.
    fn position(&self, at: usize) -> (u64, u64) {
        let line = self.starts.partition_point(|&s| s <= at);
        let start = self.starts[line - 1];
        (line as u64, (at - start + 1) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IriMode;

    fn links(kind: DocKind, doc: &str, base: Option<&str>) -> Vec<(String, u64, u64)> {
        let base = base.map(|b| IriRef::parse(b).unwrap());
        find_links(&Scanner::new(), kind, doc.as_bytes(), base.as_ref())
            .into_links()
            .into_iter()
            .map(|l| (l.uri().to_string(), l.line(), l.column()))
            .collect()
    }

    /// Found by a black-box run: inline HTML `<code>` in Markdown was not
    /// code, so `--skip-code` printed what it holds (in an HTML file it
    /// is code).
    #[test]
    fn inline_html_code_in_markdown_is_code() {
        let md = "Text <code>https://a.example/x</code> and https://b.example/,\n\
                  <pre>https://c.example/</pre> <CODE class=\"x\">`https://d.example/`</CODE>\n\n\
                  <code>unclosed https://e.example/\n\nnext https://f.example/\n";
        let found = find_links(&Scanner::new(), DocKind::Markdown, md.as_bytes(), None);
        let in_code: Vec<(&str, bool)> = found
            .links()
            .iter()
            .map(|l| (l.uri(), l.is_in_code()))
            .collect();
        assert_eq!(
            in_code,
            [
                ("https://a.example/x", true),
                ("https://b.example/", false),
                ("https://c.example/", true),
                ("https://d.example/", true),
                ("https://e.example/", true),
                ("https://f.example/", false),
            ]
        );
    }

    /// Found by a black-box run: a bare URL in Markdown with `__` or two
    /// `*` in it (`__main__`, docs.rs's `*` for the latest version) was cut
    /// where CommonMark reads emphasis; GitHub reads the URL first.
    #[test]
    fn emphasis_inside_a_bare_uri_is_the_uri_s() {
        let md = "See https://docs.python.org/3/library/__main__.html now,\n\
                  https://docs.rs/rayon/*/rayon/iter/ and https://docs.rs/regex/*/regex/\n\
                  **https://a.example/b**. *https://c.example/d*, _x_ __init__ a:*b* \
                  https://e.example/~~f~~g\n\n\
                  See https://docs.python.org/3/reference/datamodel.html#object.__init__ for it, \
                  https://g.example/_x_ and **https://h.example/_y**.\n\n\
                  Use `https://i.example/`**x** or `https://j.example/`_y_ here\n";
        let found: Vec<(String, u64, u64)> = links(DocKind::Markdown, md, None);
        assert_eq!(
            found,
            [
                (
                    "https://docs.python.org/3/library/__main__.html".into(),
                    1,
                    5
                ),
                ("https://docs.rs/rayon/*/rayon/iter/".into(), 2, 1),
                ("https://docs.rs/regex/*/regex/".into(), 2, 41),
                ("https://a.example/b".into(), 3, 3),
                ("https://c.example/d".into(), 3, 27),
                ("https://e.example/~~f~~g".into(), 3, 68),
                (
                    "https://docs.python.org/3/reference/datamodel.html#object.__init__".into(),
                    5,
                    5
                ),
                ("https://g.example/_x_".into(), 5, 80),
                ("https://h.example/_y".into(), 5, 108),
                // A code span is not a bare URI (found by a code review).
                ("https://i.example/".into(), 7, 6),
                ("https://j.example/".into(), 7, 35),
            ]
        );
    }

    /// Found by a black-box run: links with a space (CommonMark's `<…>`
    /// form), `|` (Google Fonts' families), a query's `[]` or a line break
    /// (a wrapped `href`) were left out; browsers follow them encoded.
    #[test]
    fn a_link_is_read_as_a_browser_reads_it() {
        let html = "<a href=\"https://f.example/css?family=Roboto|Open+Sans\">f</a>\n\
                    <a href=\"docs/My File.html\">d</a> <a href=\"/s?a[]=1\">q</a>\n\
                    <a href=\"https://a.example/docs/\n  page.html\">w</a>\n\
                    <a href=\"http://[::1]/x\">v6</a> <a href=\"/{{version}}/x\">t</a>\n\
                    <a href=\"https://matrix.to/#/#r:s.org\">m</a> <a href=\"http://exa mple.com/\">h</a>";
        assert_eq!(
            links(DocKind::Html, html, None),
            [
                (
                    "https://f.example/css?family=Roboto%7COpen+Sans".into(),
                    1,
                    10
                ),
                ("docs/My%20File.html".into(), 2, 10),
                ("/s?a%5B%5D=1".into(), 2, 44),
                ("https://a.example/docs/%20%20page.html".into(), 3, 10),
                ("http://[::1]/x".into(), 5, 10),
                ("https://matrix.to/#/%23r:s.org".into(), 6, 10),
            ]
        );
        // A `<base href>` with a space is the base a browser takes.
        let based = "<base href=\"http://b.example/my dir/\">\n<a href=\"p q.html\">1</a>";
        assert_eq!(
            links(DocKind::Html, based, Some("https://elsewhere.example/")),
            [("http://b.example/my%20dir/p%20q.html".into(), 2, 10)]
        );
        let md = "[d](<docs/My File.md>) [c](https://c.example/a^b)\n";
        assert_eq!(
            links(DocKind::Markdown, md, Some("https://x.example/r/README.md")),
            [
                ("https://x.example/r/docs/My%20File.md".into(), 1, 6),
                ("https://c.example/a%5Eb".into(), 1, 28),
            ]
        );
    }

    /// Found by a black-box run against lychee: rustdoc's anchors
    /// (`#impl-From<T>-for-A`) and a link with a stray `]` (a CHANGELOG's
    /// `(https://…/pull/496])`) were left out, where browsers follow them
    /// encoded, and a link checker should see the second to report it.
    #[test]
    fn angle_and_square_brackets_in_a_link_are_read_as_a_browser_reads_them() {
        let md = "[From](https://docs.rs/x/struct.A.html#impl-From<T>-for-A)\n\
                  [#496](https://github.com/o/r/pull/496])\n\
                  [v6](http://[::1]:8080/a[1]) [t](/{{version}}/x)\n";
        assert_eq!(
            links(DocKind::Markdown, md, None),
            [
                (
                    "https://docs.rs/x/struct.A.html#impl-From%3CT%3E-for-A".into(),
                    1,
                    8
                ),
                ("https://github.com/o/r/pull/496%5D".into(), 2, 8),
                ("http://[::1]:8080/a%5B1%5D".into(), 3, 6),
            ]
        );
        // A server template is no link (a review found PHP's made one).
        let html = "<a href=\"struct.A.html#impl-From&lt;T&gt;\">f</a>\n\
                    <a href=\"<?php echo $url; ?>\">p</a> <a href=\"/x/<%= id %>\">e</a>";
        assert_eq!(
            links(DocKind::Html, html, Some("https://docs.rs/x/")),
            [(
                "https://docs.rs/x/struct.A.html#impl-From%3CT%3E".into(),
                1,
                10
            )]
        );
    }

    /// U+00A0 NO-BREAK SPACE (`&nbsp;`) past a link's host is read as a
    /// browser reads it, `%C2%A0`, in every IRI mode: it was taken as an
    /// IRI's character, so `--iri keep` gave the link with it as written
    /// (`http://a.example/x&nbsp;` printed as `http://a.example/x` and an
    /// invisible character) and `--iri off` none, or one cut before it.
    #[test]
    fn a_no_break_space_in_a_link_is_encoded_in_every_iri_mode() {
        let html = "<a href=\"http://a.example/x&nbsp;y\">1</a>\n\
                    <a href=\"http://a.example/x&nbsp;\">2</a>\n\
                    <a href=\"/p?q=1&nbsp;2#f\u{a0}g\">3</a>\n";
        for mode in [IriMode::Uri, IriMode::Keep, IriMode::Off] {
            let scanner = Scanner::builder().iri(mode).build();
            let found: Vec<(String, Option<String>)> =
                find_links(&scanner, DocKind::Html, html.as_bytes(), None)
                    .into_links()
                    .into_iter()
                    .map(|l| (l.uri().to_string(), l.found.iri().map(str::to_string)))
                    .collect();
            assert_eq!(
                found,
                [
                    ("http://a.example/x%C2%A0y".to_string(), None),
                    ("http://a.example/x%C2%A0".to_string(), None),
                    ("/p?q=1%C2%A02#f%C2%A0g".to_string(), None),
                ],
                "{mode:?}"
            );
        }
    }

    /// A link written over lines in its markup is reported `wrapped`, as a
    /// URI joined from lines of text is; one on one line is not.
    #[test]
    fn a_link_written_over_lines_is_wrapped() {
        let html = "<a href=\"https://a.example/docs/\n  page\">w</a> \
                    <a href=\" https://b.example/ \n\">b</a>\n\
                    <a href=\"https://c.example/%zz/\r\nx\">c</a>";
        let scanner = Scanner::builder().report_invalid(true).build();
        let wrapped: Vec<(String, bool)> =
            find_links(&scanner, DocKind::Html, html.as_bytes(), None)
                .into_links()
                .into_iter()
                .map(|l| (l.uri().to_string(), l.found().is_wrapped()))
                .collect();
        assert_eq!(
            wrapped,
            [
                ("https://a.example/docs/%20%20page".into(), true),
                ("https://b.example/".into(), false),
                ("https://c.example/%zz/x".into(), true),
            ]
        );
    }

    /// `--invalid` reports a link that still fails, with its error, where
    /// it is written; without it, the link is left out.
    #[test]
    fn an_invalid_link_is_reported_with_its_error_when_asked() {
        let html = "<a href=\"https://a.example/%zz\">p</a> <a href=\"ok.html\">o</a>\n\
                    <a href=\"{{ url_for('x') }}\">t</a> <a href=\"alloc::vec::Vec<T>\">v</a>";
        let invalid = Scanner::builder().report_invalid(true).build();
        let found: Vec<_> = find_links(&invalid, DocKind::Html, html.as_bytes(), None)
            .into_links()
            .into_iter()
            .map(|l| {
                (
                    l.uri().to_string(),
                    l.is_relative(),
                    l.column(),
                    l.found().error().map(|e| e.to_string()),
                )
            })
            .collect();
        // Each as written, the template relative (shown as relative links
        // are: not without `--relative`), the rustdoc path's unknown
        // scheme left out as a valid one's would be.
        assert_eq!(
            found,
            [
                (
                    "https://a.example/%zz".into(),
                    false,
                    10,
                    Some("invalid percent-encoding at byte 18".into())
                ),
                ("ok.html".into(), true, 48, None),
                (
                    "{{ url_for('x') }}".into(),
                    true,
                    10,
                    Some("invalid character in path at byte 0".into())
                ),
            ]
        );
        assert_eq!(
            links(DocKind::Html, html, None),
            [("ok.html".into(), 1, 48)]
        );
    }

    /// Found by the code review: a link cut in its own label by what a
    /// browser encodes came twice, and blanks inside `<…>` were encoded.
    #[test]
    fn a_link_cut_in_its_label_comes_once_and_blanks_around_it_go() {
        let md = "[https://c.example/a^b](https://c.example/a^b) [a](< https://x.example/ >)\n";
        assert_eq!(
            links(DocKind::Markdown, md, None),
            [
                ("https://c.example/a%5Eb".into(), 1, 25),
                ("https://x.example/".into(), 1, 53),
            ]
        );
        // A label that shows its link decoded is cut where the scan stops;
        // one that names another URI (`~` is a URI's) is a link of its own.
        let html = "<a href=\"https://r.example/a%20b\">https://r.example/a b</a>\n\
                    <a href=\"https://r.example/%7Eu\">https://r.example/</a>";
        assert_eq!(
            links(DocKind::Html, html, None),
            [
                ("https://r.example/a%20b".into(), 1, 10),
                ("https://r.example/%7Eu".into(), 2, 10),
                ("https://r.example/".into(), 2, 34),
            ]
        );
    }

    #[test]
    fn an_embedded_base_wins_and_is_itself_resolved() {
        let html = "<base href=\"/v2/\">\n<a href=\"x.html\">https://t.example/</a>";
        assert_eq!(
            links(DocKind::Html, html, Some("https://d.example/a/b.html")),
            [
                ("https://d.example/v2/x.html".to_string(), 2, 10),
                ("https://t.example/".to_string(), 2, 18)
            ]
        );
        assert_eq!(
            links(DocKind::Html, html, None),
            [
                ("x.html".to_string(), 2, 10),
                ("https://t.example/".to_string(), 2, 18)
            ]
        );
    }

    /// Found by a black-box review: a `<meta content>` that is not a
    /// refresh's (Open Graph's `og:url`, `twitter:image`) was taken for one
    /// and, without a `url=`, gave nothing; one with `url=` in its query
    /// gave only what followed it.
    #[test]
    fn a_meta_content_is_a_link_only_when_it_is_a_refresh() {
        let html = "<meta property=\"og:image\" content=\"https://og.example/i.png\">\n\
                    <meta content=\"https://s.example/share?url=https://b.example/\">\n\
                    <meta http-equiv=\"refresh\" content=\"0;next.html\">\n\
                    <meta http-equiv=\"refresh\" content=\" 5 , URL = 'then.html'\">\n\
                    <meta http-equiv=\"refresh\" content=\"5\">\n\
                    <meta property=\"article:published_time\" content=\"2024-01-15\">\n\
                    <meta itemprop=\"price\" content=\"19.99 EUR\">\n\
                    <meta name=\"description\" content=\"3 ways: https://tips.example/w\">\n";
        assert_eq!(
            links(DocKind::Html, html, Some("https://d.example/a/")),
            [
                ("https://og.example/i.png".to_string(), 1, 36),
                (
                    "https://s.example/share?url=https://b.example/".to_string(),
                    2,
                    16
                ),
                ("https://d.example/a/next.html".to_string(), 3, 39),
                ("https://d.example/a/then.html".to_string(), 4, 49),
                ("https://tips.example/w".to_string(), 8, 43),
            ]
        );
    }

    /// Found by a black-box review (`href="http://"` in qemu's docs): a
    /// link whose scheme requires a host and that has none is no link, as
    /// `http://` in text is no URI.
    #[test]
    fn a_link_without_the_host_its_scheme_requires_is_left_out() {
        let empty = "[e](http://) <a href=\"https:///x\">x</a> [f](file:///etc/hosts)\n";
        let links = find_links(&Scanner::new(), DocKind::Markdown, empty.as_bytes(), None);
        let uris: Vec<String> = links
            .into_links()
            .iter()
            .map(|l| l.uri().to_string())
            .collect();
        assert_eq!(uris, ["file:///etc/hosts"], "no host where one is required");
    }

    /// Found by a black-box review: a destination written with non-ASCII
    /// characters (a Wikipedia title, an IDN host) was left out, though
    /// the same text read as plain text gives its URI.
    #[test]
    fn an_iri_destination_is_reported_as_the_scanner_reports_an_iri() {
        let md = "[東京](https://ja.wikipedia.org/wiki/東京) [p](ページ.md)\n\
                  <a href=\"https://例え.jp/ü\">x</a> [bad](<a%zz>)\n";
        let base = IriRef::parse("https://d.example/").unwrap();
        let found = |scanner: &Scanner| -> Vec<(String, Option<String>)> {
            find_links(scanner, DocKind::Markdown, md.as_bytes(), Some(&base))
                .into_links()
                .into_iter()
                .map(|l| (l.uri().to_string(), l.found.iri().map(str::to_string)))
                .collect()
        };
        let own = |s: &str| Some(s.to_string());
        assert_eq!(
            found(&Scanner::new()),
            [
                (
                    "https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC".to_string(),
                    own("https://ja.wikipedia.org/wiki/東京")
                ),
                (
                    "https://d.example/%E3%83%9A%E3%83%BC%E3%82%B8.md".to_string(),
                    own("ページ.md")
                ),
                (
                    "https://xn--r8jz45g.jp/%C3%BC".to_string(),
                    own("https://例え.jp/ü")
                ),
            ]
        );
        // Kept, a relative IRI is resolved as an IRI, against an IRI base
        // too (stop 30's black-box review: it was the URI it maps to).
        let keep = Scanner::builder().iri(IriMode::Keep).build();
        assert_eq!(found(&keep)[0].0, "https://ja.wikipedia.org/wiki/東京");
        assert_eq!(found(&keep)[1].0, "https://d.example/ページ.md");
        let iri_base = IriRef::parse("https://例え.jp/文書/").unwrap();
        let links = find_links(&keep, DocKind::Markdown, md.as_bytes(), Some(&iri_base));
        assert_eq!(links.links()[1].uri(), "https://例え.jp/文書/ページ.md");
        let links = find_links(
            &Scanner::new(),
            DocKind::Markdown,
            md.as_bytes(),
            Some(&iri_base),
        );
        assert_eq!(
            links.links()[1].uri(),
            "https://xn--r8jz45g.jp/%E6%96%87%E6%9B%B8/%E3%83%9A%E3%83%BC%E3%82%B8.md"
        );
        // A `<base href>` may be an IRI too (it was passed over).
        let html = "<base href=\"https://例え.jp/x/\"><a href=\"c\">c</a>";
        let links = find_links(&Scanner::new(), DocKind::Html, html.as_bytes(), Some(&base));
        assert_eq!(links.links()[0].uri(), "https://xn--r8jz45g.jp/x/c");
        let off = Scanner::builder().iri(IriMode::Off).build();
        assert_eq!(found(&off), []);
    }

    /// Found in crate READMEs generated from doc comments: rustdoc's
    /// intra-doc paths as destinations (`litemap`, `yoke`, `ciborium`).
    #[test]
    fn a_destination_with_an_unknown_scheme_and_no_slashes_is_no_link() {
        let md = "Uses [`Vec`] and [`Cow`], [`get`](Yoke::get), [mail](mailto:a@x.example),\n\
                  [urn](urn:isbn:0451450523), [odd](x-app://open) and [rel](a/b.md).\n\n\
                  [`Vec`]: alloc::vec::Vec\n[`Cow`]: alloc::borrow::Cow\n";
        let uris = |scanner: &Scanner| -> Vec<String> {
            find_links(scanner, DocKind::Markdown, md.as_bytes(), None)
                .into_links()
                .into_iter()
                .map(|l| l.uri().to_string())
                .collect()
        };
        assert_eq!(
            uris(&Scanner::new()),
            [
                "mailto:a@x.example",
                "urn:isbn:0451450523",
                "x-app://open",
                "a/b.md"
            ]
        );
        let any = Scanner::builder().any_scheme(true).build();
        assert_eq!(
            uris(&any),
            [
                "Yoke::get",
                "mailto:a@x.example",
                "urn:isbn:0451450523",
                "x-app://open",
                "a/b.md",
                "alloc::vec::Vec",
                "alloc::borrow::Cow"
            ]
        );
        let html = "<a href=\"std::sync::Arc\">Arc</a> <a href=\"tel:+1-555-0100\">call</a>";
        let found = find_links(&Scanner::new(), DocKind::Html, html.as_bytes(), None);
        let uris: Vec<_> = found.links().iter().map(|l| l.uri()).collect();
        assert_eq!(uris, ["tel:+1-555-0100"]);
    }

    #[test]
    fn a_link_found_in_its_own_label_comes_once() {
        let html = "<a href=\"https://x.example/\">https://x.example/</a>";
        assert_eq!(
            links(DocKind::Html, html, None),
            [("https://x.example/".to_string(), 1, 10)]
        );
        let md = "<https://x.example/> [https://y.example/](https://y.example/)";
        assert_eq!(
            links(DocKind::Markdown, md, None),
            [
                ("https://x.example/".to_string(), 1, 2),
                ("https://y.example/".to_string(), 1, 43)
            ]
        );
        // A reference link's (full, shortcut) is its definition's, once.
        let refs = "[https://r.example/][r] and [https://s.example/]\n\n\
                    [r]: https://r.example/\n[https://s.example/]: https://s.example/\n";
        assert_eq!(
            links(DocKind::Markdown, refs, None),
            [
                ("https://r.example/".to_string(), 3, 6),
                ("https://s.example/".to_string(), 4, 23)
            ]
        );
    }

    #[test]
    fn the_filter_reports_what_its_options_ask_for() {
        let md = "[a](../a.md) [f](#top) `https://code.example/` https://t.example/";
        let base = IriRef::parse("https://d.example/x/y.md").unwrap();
        let found = find_links(
            &Scanner::new(),
            DocKind::Markdown,
            md.as_bytes(),
            Some(&base),
        );
        let shown = |filter: LinkFilter| -> Vec<&str> {
            found
                .links()
                .iter()
                .filter_map(|l| filter.shown(l))
                .collect()
        };
        assert_eq!(
            shown(LinkFilter::default()),
            [
                "https://d.example/a.md",
                "https://code.example/",
                "https://t.example/"
            ]
        );
        let all = LinkFilter {
            relative: true,
            fragments: true,
            skip_code: false,
        };
        assert_eq!(
            shown(all),
            [
                "../a.md",
                "#top",
                "https://code.example/",
                "https://t.example/"
            ]
        );
        let no_code = LinkFilter {
            skip_code: true,
            ..LinkFilter::default()
        };
        assert_eq!(
            shown(no_code),
            ["https://d.example/a.md", "https://t.example/"]
        );
        let unresolved = find_links(&Scanner::new(), DocKind::Markdown, md.as_bytes(), None);
        assert!(LinkFilter::default()
            .shown(&unresolved.links()[0])
            .is_none());
    }

    #[test]
    fn kinds_are_named_as_ripgrep_names_them() {
        let kind = |name: &str| DocKind::from_file_name(OsStr::new(name));
        assert_eq!(kind("a.html"), Some(DocKind::Html));
        assert_eq!(kind("a.mkdn"), Some(DocKind::Markdown));
        assert_eq!(kind(".md"), Some(DocKind::Markdown));
        assert_eq!(kind("bash.1"), Some(DocKind::Man));
        assert_eq!(kind("x.3p"), Some(DocKind::Man));
        // Beyond ripgrep's globs: a section digit and a few letters.
        assert_eq!(kind("Git.3pm"), Some(DocKind::Man));
        assert_eq!(kind("CA.pl.1ssl"), Some(DocKind::Man));
        assert_eq!(kind("history.3readline"), Some(DocKind::Man));
        assert_eq!(kind("x.3readlines"), None);
        assert_eq!(kind("a.10"), None);
        assert_eq!(kind("a.1y2"), None);
        assert_eq!(kind("a.pm"), None);
        assert_eq!(kind("a.MD"), None);
        assert_eq!(kind("a.md.gz"), None);
        assert_eq!(kind("pom.xml"), Some(DocKind::Xml));
        assert_eq!(kind("phpunit.xml.dist"), Some(DocKind::Xml));
        assert_eq!(kind("a.xhtml"), Some(DocKind::Xml));
        assert_eq!(kind("logo.svg"), Some(DocKind::Xml));
        assert_eq!(kind("a.XML"), None);
        assert_eq!(kind("a.dist"), None);
        assert_eq!(kind("md"), None);
        assert_eq!(kind("index.rst"), Some(DocKind::Rst));
        assert_eq!(kind("index.RST"), None);
        assert_eq!(kind("index.rest"), None);
    }

    #[test]
    fn lines_and_columns_count_from_one() {
        let lines = Lines::new(b"ab\ncd\n");
        assert_eq!(lines.position(0), (1, 1));
        assert_eq!(lines.position(4), (2, 2));
        assert_eq!(lines.position(6), (3, 1));
    }
}
