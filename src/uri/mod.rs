//! The strict RFC 3986 URI-reference parser, with resolution and normalization.
//!
//! [`UriRef`] is a zero-copy view: the input plus the offsets of its
//! components. Parsing follows the Appendix A grammar exactly, in one pass,
//! without allocating.
//!
//! # Conformance
//!
//! - **Grammar**: `URI-reference` of Appendix A, nothing more and nothing
//!   less. Non-ASCII bytes, controls, space, `"`, `<`, `>`, `\`, `^`, backtick,
//!   `{`, `|` and `}` are errors anywhere; so are `%` without two hex digits,
//!   `[` or `]` outside an
//!   IP-literal, a second `#`, non-digits in the port, and a colon in the
//!   first segment of a relative path (section 4.2). IRIs (RFC 3987) and
//!   IPv6 zone identifiers (RFC 6874) are not URIs and are rejected; IRIs
//!   have their own parser, [`IriRef`], with the mappings between the two.
//! - **Host kinds**: a host that matches `IPv4address` is
//!   [`HostKind::Ipv4`]; anything else that matches `reg-name` (including
//!   `256.256.256.256` and `01.2.3.4`) is [`HostKind::RegName`], as the
//!   grammar's first-match rule says (section 3.2.2).
//! - **Absent versus empty**: `None` means the delimiter is absent, `Some("")`
//!   that it is present with nothing after it: `s:` has no query, `s:?` an
//!   empty one; `file:///x` has an empty host. The path is always present,
//!   possibly empty.
//! - **`is_absolute`** means "has a scheme" (the reference is a `URI`, not a
//!   `relative-ref`). The grammar's `absolute-URI` also excludes a fragment;
//!   [`UriRef::resolve`] accepts a base with a fragment and ignores it, as
//!   section 5.1 allows.
//! - **Resolution** is the strict algorithm of section 5.2 (the non-strict
//!   same-scheme variant is not applied), with `remove_dot_segments` of
//!   5.2.4 and recomposition of 5.3. When the result of 5.3 would not parse
//!   back to the same components (a path starting with `//` and no
//!   authority, as `f:/a` + `.//g` gives), `/.` is put in front of the path,
//!   the repair WHATWG URL and most libraries use.
//! - **Normalization** applies section 6.2.2 everywhere (scheme and host to
//!   lower case, percent-encoding hex digits to upper case, percent-encoded
//!   unreserved characters decoded, dot segments removed from the path of
//!   references that have a scheme, an authority or an absolute path) and
//!   section 6.2.3 for `http`, `https`, `ws`, `wss` and `ftp` (an empty or
//!   default port is removed and an empty path with an authority becomes
//!   `/`). Dot segments of a relative-path reference (`../a`) are kept: they
//!   change its meaning.

mod error;
mod host;
mod iri;
mod normalize;
mod parse;
pub(crate) mod percent;
mod resolve;
pub(crate) mod table;
pub(crate) mod ucs;

pub use self::error::{ParseError, ParseErrorKind};
pub use self::host::HostKind;
pub use self::iri::IriRef;
pub use self::parse::is_scheme;
pub(crate) use self::parse::scheme as scheme_end;
pub use self::percent::percent_decode;
pub use self::resolve::ResolveError;

/// Component offsets of a parsed reference.
///
/// # Invariants
///
/// Offsets are increasing in this order and lie within the input:
/// `scheme_end` (the `:`), the authority (`start` is just past `//`),
/// `path`, `query_start` (just past `?`), `fragment_start` (just past `#`).
/// The query ends at the `#` or the end of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Meta {
    scheme_end: Option<usize>,
    authority: Option<Authority>,
    path: (usize, usize),
    query_start: Option<usize>,
    fragment_start: Option<usize>,
}

/// Offsets of the authority's parts.
///
/// # Invariants
///
/// `start <= userinfo_end < host.0 <= host.1 <= port_start - 1 <= end`;
/// `userinfo_end` is the offset of the `@`, `port_start` is just past the `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Authority {
    start: usize,
    userinfo_end: Option<usize>,
    host: (usize, usize),
    host_kind: HostKind,
    port_start: Option<usize>,
    end: usize,
}

/// The accessors of a parsed reference's components, for [`UriRef`] and
/// [`IriRef`] alike (both are `input` plus [`Meta`]).
macro_rules! component_accessors {
    () => {
        /// The whole reference, as written.
        #[inline]
        pub fn as_str(&self) -> &'a str {
            self.input
        }

        #[inline]
        fn slice(&self, start: usize, end: usize) -> &'a str {
            &self.input[start..end]
        }

        /// The scheme, without its `:`; `None` for a relative reference.
        #[inline]
        pub fn scheme(&self) -> Option<&'a str> {
            self.meta.scheme_end.map(|end| self.slice(0, end))
        }

        /// The authority, without its leading `//`; `None` when there is no `//`.
        #[inline]
        pub fn authority(&self) -> Option<&'a str> {
            self.meta.authority.map(|a| self.slice(a.start, a.end))
        }

        /// The userinfo, without its `@`; `None` when there is no `@`.
        #[inline]
        pub fn userinfo(&self) -> Option<&'a str> {
            let a = self.meta.authority?;
            a.userinfo_end.map(|at| self.slice(a.start, at))
        }

        /// The host as written (an IP-literal with its brackets); `None` when
        /// there is no authority, `Some("")` for an empty reg-name.
        #[inline]
        pub fn host(&self) -> Option<&'a str> {
            self.meta.authority.map(|a| self.slice(a.host.0, a.host.1))
        }

        /// Which rule the host matched; `None` when there is no authority.
        #[inline]
        pub fn host_kind(&self) -> Option<HostKind> {
            self.meta.authority.map(|a| a.host_kind)
        }

        /// The port as written: digits, possibly none, possibly more than fit
        /// in a `u16`. `None` when there is no `:` after the host.
        #[inline]
        pub fn port(&self) -> Option<&'a str> {
            let a = self.meta.authority?;
            a.port_start.map(|p| self.slice(p, a.end))
        }

        /// The port as a number, when it is present, not empty and fits a `u16`.
        pub fn port_number(&self) -> Option<u16> {
            self.port()?.parse().ok()
        }

        /// The path, possibly empty; never absent.
        #[inline]
        pub fn path(&self) -> &'a str {
            self.slice(self.meta.path.0, self.meta.path.1)
        }

        /// The query, without its `?`; `None` when there is no `?`.
        #[inline]
        pub fn query(&self) -> Option<&'a str> {
            let start = self.meta.query_start?;
            let end = self.meta.fragment_start.map_or(self.input.len(), |f| f - 1);
            Some(self.slice(start, end))
        }

        /// The fragment, without its `#`; `None` when there is no `#`.
        #[inline]
        pub fn fragment(&self) -> Option<&'a str> {
            self.meta
                .fragment_start
                .map(|f| self.slice(f, self.input.len()))
        }

        /// Returns true if and only if the reference has a scheme (it is a `URI`).
        #[inline]
        pub fn is_absolute(&self) -> bool {
            self.meta.scheme_end.is_some()
        }

        /// Returns true if and only if the reference has no scheme (it is a
        /// `relative-ref`).
        #[inline]
        pub fn is_relative(&self) -> bool {
            !self.is_absolute()
        }
    };
}
pub(crate) use component_accessors;

/// A parsed URI-reference: a view of the input with its component offsets.
///
/// Build it with [`UriRef::parse`] or [`UriRef::parse_bytes`]; it borrows the
/// input and never allocates. Components are returned as written (still
/// percent-encoded).
///
/// ```
/// use uriscan::{HostKind, UriRef};
///
/// let uri = UriRef::parse("https://user@example.com:8080/a/b?q=1#top")?;
/// assert_eq!(uri.scheme(), Some("https"));
/// assert_eq!(uri.authority(), Some("user@example.com:8080"));
/// assert_eq!(uri.userinfo(), Some("user"));
/// assert_eq!(uri.host(), Some("example.com"));
/// assert_eq!(uri.host_kind(), Some(HostKind::RegName));
/// assert_eq!(uri.port(), Some("8080"));
/// assert_eq!(uri.port_number(), Some(8080));
/// assert_eq!(uri.path(), "/a/b");
/// assert_eq!(uri.query(), Some("q=1"));
/// assert_eq!(uri.fragment(), Some("top"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UriRef<'a> {
    input: &'a str,
    meta: Meta,
}

impl<'a> UriRef<'a> {
    /// Parses a `URI-reference` (a URI or a relative reference).
    ///
    /// # Errors
    ///
    /// Returns a [`ParseError`] with the offset of the first byte that the
    /// grammar does not allow there.
    ///
    /// ```
    /// use uriscan::UriRef;
    ///
    /// let err = UriRef::parse("http://example.com:8a/").unwrap_err();
    /// assert_eq!(err.to_string(), "invalid port at byte 20");
    /// ```
    pub fn parse(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        let meta = parse::uri_reference::<false>(input.as_bytes())?;
        Ok(UriRef { input, meta })
    }

    /// Parses a `URI-reference` from bytes, which need not be UTF-8.
    ///
    /// Never panics, whatever the bytes: a reference is ASCII, so anything
    /// else is a [`ParseError`] at the first non-ASCII byte.
    ///
    /// # Errors
    ///
    /// As [`UriRef::parse`].
    pub fn parse_bytes(input: &'a [u8]) -> Result<UriRef<'a>, ParseError> {
        let meta = parse::uri_reference::<false>(input)?;
        // INVARIANT: the grammar admits only ASCII bytes, so a successful
        // parse proves the input is UTF-8 and this never fails.
        let input = std::str::from_utf8(input).map_err(|e| ParseError {
            index: e.valid_up_to(),
            kind: ParseErrorKind::Path,
        })?;
        Ok(UriRef { input, meta })
    }

    component_accessors!();
}

impl std::fmt::Display for UriRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.input)
    }
}

#[cfg(test)]
mod tests;
