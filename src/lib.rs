//! Find URIs in text the way RFC 3986 Appendix C says a careful reader should.
//!
//! `uriscan` has two halves:
//!
//! - [`UriRef`]: a strict, zero-copy RFC 3986 URI-reference parser (Appendix A
//!   grammar) with precise errors, reference resolution (section 5.2) and
//!   normalization and comparison (section 6).
//! - [`Scanner`]: finds the URIs in text — delimited by `<...>`, `"..."` or
//!   whitespace — as described in RFC 3986 Appendix C, in one streaming pass.
//!   Every URI it reports has been validated by [`UriRef`].
//!
//! (Crate docs grow with the parser and scanner: overview, examples,
//! Conformance, Crate features.)

pub mod scan;
mod span;
pub mod uri;

pub use crate::scan::{Delimiter, FindIter, Found, HyphenMode, Scanner, ScannerBuilder, Sink};
pub use crate::span::Span;
pub use crate::uri::{is_scheme, HostKind, ParseError, ParseErrorKind, ResolveError, UriRef};
