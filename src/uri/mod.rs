//! The strict RFC 3986 URI-reference parser (skeleton: the parser issue fills this in).
//!
//! API contract the rest of the crate builds on:
//! `UriRef::parse(&str)`, `UriRef::parse_bytes(&[u8])`, component accessors,
//! `ParseError { index, kind }`.

use std::fmt;

/// A parsed URI-reference: the input plus component offsets (zero-copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UriRef<'a> {
    input: &'a str,
}

/// The kind of host in an authority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `IPv4address`.
    Ipv4,
    /// `IPv6address` inside `[...]`.
    Ipv6,
    /// `IPvFuture` inside `[...]`.
    IpvFuture,
    /// `reg-name` (possibly empty).
    RegName,
}

/// Why a URI-reference failed to parse, and at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    index: usize,
    kind: ParseErrorKind,
}

/// What was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A byte not allowed where it stands.
    UnexpectedByte,
}

impl ParseError {
    /// The byte offset in the input where the error was detected.
    pub fn index(&self) -> usize {
        self.index
    }
    /// What was wrong.
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unexpected byte at byte {}", self.index)
    }
}

impl std::error::Error for ParseError {}

impl<'a> UriRef<'a> {
    /// Parses a URI-reference.
    pub fn parse(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Self::parse_bytes(input.as_bytes())
    }

    /// Parses a URI-reference from bytes; never panics, whatever the bytes.
    pub fn parse_bytes(input: &'a [u8]) -> Result<UriRef<'a>, ParseError> {
        let _ = input;
        todo!("parser issue")
    }

    /// The whole reference as written.
    pub fn as_str(&self) -> &'a str {
        self.input
    }

    /// The scheme, if any.
    pub fn scheme(&self) -> Option<&'a str> {
        todo!("parser issue")
    }
}
