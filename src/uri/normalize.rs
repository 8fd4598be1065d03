//! Syntax-based and scheme-based normalization (sections 6.2.2 and 6.2.3),
//! and the equivalence test built on it.

use super::percent::hex_pair;
use super::resolve::remove_dot_segments;
use super::table::UNRESERVED;
use super::UriRef;

/// Default ports of the schemes whose normalization section 6.2.3 applies.
const DEFAULT_PORTS: &[(&str, &str)] = &[
    ("http", "80"),
    ("https", "443"),
    ("ws", "80"),
    ("wss", "443"),
    ("ftp", "21"),
];

impl UriRef<'_> {
    /// Returns the normalized form of the reference (see the module's
    /// Conformance section for exactly what is done).
    ///
    /// ```
    /// use uriscan::UriRef;
    ///
    /// let uri = UriRef::parse("HTTP://www.Example.COM:80/a/./b/../c/%7euser?%3f")?;
    /// assert_eq!(uri.normalize(), "http://www.example.com/a/c/~user?%3F");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize(&self) -> String {
        let mut out = String::with_capacity(self.as_str().len());
        let scheme = self.scheme().map(str::to_ascii_lowercase);
        if let Some(s) = &scheme {
            out.push_str(s);
            out.push(':');
        }
        let default_port = scheme
            .as_deref()
            .and_then(|s| DEFAULT_PORTS.iter().find(|(name, _)| *name == s))
            .map(|&(_, port)| port);
        if self.authority().is_some() {
            out.push_str("//");
            if let Some(u) = self.userinfo() {
                push_normalized(&mut out, u, false);
                out.push('@');
            }
            push_normalized(&mut out, self.host().unwrap_or(""), true);
            if let Some(port) = self.port() {
                let drop = default_port.is_some_and(|d| port.is_empty() || port == d);
                if !drop {
                    out.push(':');
                    out.push_str(port);
                }
            }
        }
        let mut path = String::with_capacity(self.path().len());
        push_normalized(&mut path, self.path(), false);
        let has_dots_to_remove =
            self.is_absolute() || self.authority().is_some() || path.starts_with('/');
        if has_dots_to_remove {
            let before = out.len();
            remove_dot_segments(&path, &mut out);
            if self.authority().is_none() && out[before..].starts_with("//") {
                out.insert_str(before, "/.");
            }
        } else {
            out.push_str(&path);
        }
        if default_port.is_some() && self.authority().is_some() && self.path().is_empty() {
            out.push('/');
        }
        if let Some(q) = self.query() {
            out.push('?');
            push_normalized(&mut out, q, false);
        }
        if let Some(f) = self.fragment() {
            out.push('#');
            push_normalized(&mut out, f, false);
        }
        out
    }

    /// Returns true if and only if the two references have the same
    /// normalized form (section 6.2's ladder up to scheme-based
    /// normalization).
    ///
    /// ```
    /// use uriscan::UriRef;
    ///
    /// let a = UriRef::parse("http://example.com")?;
    /// let b = UriRef::parse("HTTP://EXAMPLE.com:80/")?;
    /// assert!(a.is_equivalent(&b));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_equivalent(&self, other: &UriRef<'_>) -> bool {
        self.normalize() == other.normalize()
    }
}

/// Appends `component` with percent-encodings normalized (unreserved
/// characters decoded, hex digits upper-cased) and, when `lowercase`, every
/// other letter lower-cased.
fn push_normalized(out: &mut String, component: &str, lowercase: bool) {
    let bytes = component.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(byte) = hex_pair(bytes, i) {
            if UNRESERVED.contains(byte) {
                let c = char::from(byte);
                out.push(if lowercase { c.to_ascii_lowercase() } else { c });
            } else {
                out.push('%');
                out.push_str(&component[i + 1..i + 3].to_ascii_uppercase());
            }
            i += 3;
        } else {
            let c = char::from(bytes[i]);
            out.push(if lowercase { c.to_ascii_lowercase() } else { c });
            i += 1;
        }
    }
}
