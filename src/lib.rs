//! Find URIs in text the way RFC 3986 Appendix C says a careful reader
//! should: in mail archives, RFCs and other documents, logs, CI inputs.
//!
//! The crate has two halves:
//!
//! - [`UriRef`]: a strict, zero-copy RFC 3986 parser of URI references
//!   (the Appendix A grammar, exactly), with precise errors
//!   ([`ParseError`]: what, and at which byte), reference resolution
//!   (section 5.2) and normalization and comparison (section 6).
//! - [`Scanner`]: finds the URIs in text, delimited by `<...>`, `"..."` or
//!   whitespace, rejoined when wrapped over lines, trimmed of the sentence
//!   around them, in one pass over a slice or a stream in bounded memory.
//!   Every URI it reports has been validated by [`UriRef`].
//!
//! # Examples
//!
//! Parse a reference and look at its parts:
//!
//! ```
//! use uriscan::{HostKind, UriRef};
//!
//! let uri = UriRef::parse("ldap://[2001:db8::7]/c=GB?objectClass?one")?;
//! assert_eq!(uri.host(), Some("[2001:db8::7]"));
//! assert_eq!(uri.host_kind(), Some(HostKind::Ipv6));
//! assert_eq!(uri.query(), Some("objectClass?one"));
//!
//! let err = UriRef::parse("http://[::1/x").unwrap_err();
//! assert_eq!(err.to_string(), "unclosed '[' of an IP literal at byte 7");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Resolve and normalize:
//!
//! ```
//! use uriscan::UriRef;
//!
//! let base = UriRef::parse("http://a/b/c/d;p?q")?;
//! assert_eq!(base.resolve(&UriRef::parse("../../g")?)?, "http://a/g");
//! assert_eq!(UriRef::parse("HTTP://Example.COM:80/%7euser")?.normalize(), "http://example.com/~user");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Find the URIs in text (build the scanner once, reuse it):
//!
//! ```
//! use uriscan::Scanner;
//!
//! let scanner = Scanner::new();
//! let text = b"See <http://www.ics.uci.edu/pub/\n      ietf/uri/historical.html#WARNING>, or (https://example.org/a).";
//! let uris: Vec<_> = scanner.find_iter(text).map(|f| f.as_str().to_owned()).collect();
//! assert_eq!(uris, ["http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING", "https://example.org/a"]);
//! ```
//!
//! # Conformance
//!
//! The parser follows RFC 3986 Appendix A to the letter; the [`uri`]
//! module lists its judgement calls (host kinds, absent versus empty
//! components, what `is_absolute` means, the one repair resolution makes,
//! what normalization does to relative references). The scanner follows
//! Appendix C; the [`scan`] module documents each rule and judgement call
//! (whitespace inside brackets, the hyphen rule, page breaks, mail quote
//! prefixes, punctuation trimming, which schemes count without `//`).
//! Documents (HTML, Markdown, man pages) are read as what they are by
//! [`doc`], whose docs list what is a link in each and the judgement calls
//! (destinations placed where written, absolute links not normalized,
//! links that do not parse left out, a man page known by a roff start).
//! Text in other encodings is decoded by [`encoding`], whose docs say what
//! is decoded and how offsets are placed back (a BOM wins over a label,
//! as in ripgrep; UTF-8 is never validated).
//!
//! # Crate features
//!
//! - `mail` (default): [`mail`], reading mbox files and RFC 5322 messages
//!   as mail (decoded parts, HTML links), with `mail-parser` and
//!   `html5gum`; it enables `encoding`, whose decoders convert each part
//!   from its charset.
//! - `docs` (default): [`doc`], reading HTML, Markdown and man pages as
//!   documents, relative links resolved, with `html5gum` and
//!   `pulldown-cmark`.
//! - `encoding` (default): [`encoding`], input in UTF-16 (by its byte-order
//!   mark) or a legacy encoding (by a WHATWG label) decoded to UTF-8 as it
//!   is read, each URI found placed back in the input's bytes, with
//!   `encoding_rs`. The command decodes text and documents with it as a
//!   whole, and mail part by part, by each part's own charset.
//! - `cli` (default): what the `uriscan` binary needs (clap, rayon, ignore,
//!   serde_json, the decompressors). The library itself depends only on
//!   `memchr` (and the crates of `mail`, `docs` and `encoding`): use
//!   `default-features = false` to leave the rest out.

#[cfg(any(feature = "mail", feature = "docs"))]
mod html;
#[cfg(any(feature = "mail", feature = "docs"))]
mod reading;
mod source_map;
mod span;
#[cfg(test)]
#[path = "../tests/common/standalone.rs"]
#[allow(dead_code)] // each feature set's unit tests use some of them
mod standalone;
mod work;

#[cfg(feature = "docs")]
pub mod doc;
#[cfg(feature = "encoding")]
pub mod encoding;
#[cfg(feature = "mail")]
pub mod mail;
pub mod scan;
pub mod uri;

pub use crate::scan::{
    Chunk, Chunks, Delimiter, FindIter, Found, HyphenMode, InMessage, IriMode, ReadAt, Scanner,
    ScannerBuilder, Segment, SegmentEnd, Segments, Sink, DEFAULT_MAX_CANDIDATE_LEN,
    LARGEST_MAX_CANDIDATE_LEN,
};
pub use crate::span::Span;
pub use crate::uri::{
    is_scheme, HostKind, IriRef, ParseError, ParseErrorKind, ResolveError, UriRef,
};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
