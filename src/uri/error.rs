//! Parse errors: what was wrong, and at which byte.

use std::fmt;

/// Why a URI-reference failed to parse, and at which byte.
///
/// `index` is the offset of the first byte that made the input invalid (for
/// an unclosed or malformed IP-literal, the offset of its `[`; for a bad
/// percent-encoding, the offset of its `%`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    pub(crate) index: usize,
    pub(crate) kind: ParseErrorKind,
}

/// What was wrong with a URI-reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A byte not allowed in the userinfo.
    Userinfo,
    /// A byte not allowed in a reg-name host.
    Host,
    /// A port with something other than digits.
    Port,
    /// An IP-literal (`[...]`) without its closing `]`.
    UnclosedIpLiteral,
    /// A malformed IPv6 address inside `[...]`.
    Ipv6,
    /// A malformed IPvFuture inside `[...]` (`v` 1*HEXDIG "." 1*(...)).
    IpvFuture,
    /// A byte not allowed in the path.
    Path,
    /// A colon in the first segment of a relative-path reference, where it
    /// would be read as a scheme delimiter (section 4.2).
    ColonInFirstSegment,
    /// A byte not allowed in the query.
    Query,
    /// A byte not allowed in the fragment (a second `#` among them).
    Fragment,
    /// A `%` not followed by two hexadecimal digits.
    PercentEncoding,
}

impl ParseError {
    /// The byte offset in the input where the error was detected.
    #[inline]
    pub fn index(&self) -> usize {
        self.index
    }

    /// What was wrong.
    #[inline]
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }
}

impl ParseErrorKind {
    fn describe(self) -> &'static str {
        match self {
            ParseErrorKind::Userinfo => "invalid character in userinfo",
            ParseErrorKind::Host => "invalid character in host",
            ParseErrorKind::Port => "invalid port",
            ParseErrorKind::UnclosedIpLiteral => "unclosed '[' of an IP literal",
            ParseErrorKind::Ipv6 => "invalid IPv6 address",
            ParseErrorKind::IpvFuture => "invalid IPvFuture address",
            ParseErrorKind::Path => "invalid character in path",
            ParseErrorKind::ColonInFirstSegment => "colon in the first segment of a relative path",
            ParseErrorKind::Query => "invalid character in query",
            ParseErrorKind::Fragment => "invalid character in fragment",
            ParseErrorKind::PercentEncoding => "invalid percent-encoding",
        }
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.describe(), self.index)
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_a_short_lowercase_sentence() {
        let e = ParseError {
            index: 17,
            kind: ParseErrorKind::Port,
        };
        assert_eq!(e.to_string(), "invalid port at byte 17");
        let e = ParseError {
            index: 3,
            kind: ParseErrorKind::PercentEncoding,
        };
        assert_eq!(e.to_string(), "invalid percent-encoding at byte 3");
    }
}
