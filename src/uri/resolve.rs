//! Reference resolution (RFC 3986 section 5.2) and `remove_dot_segments`.

use std::fmt;

use super::{IriRef, UriRef};

/// Why a reference could not be resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveError {
    /// The base has no scheme: section 5.1 requires an absolute base.
    RelativeBase,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::RelativeBase => f.write_str("base URI has no scheme"),
        }
    }
}

impl std::error::Error for ResolveError {}

/// The [`Components`] of a [`UriRef`] or an [`IriRef`] (their accessors
/// have the same names and types).
macro_rules! components_of {
    ($reference:expr) => {{
        let r = $reference;
        Components {
            scheme: r.scheme(),
            authority: r.authority(),
            path: r.path(),
            query: r.query(),
            fragment: r.fragment(),
        }
    }};
}

impl UriRef<'_> {
    /// Resolves `reference` against `self` as the base URI (section 5.2.2,
    /// strict), and returns the target URI as recomposed by section 5.3.
    ///
    /// A fragment of the base is ignored. The result always parses.
    ///
    /// # Errors
    ///
    /// [`ResolveError::RelativeBase`] when the base has no scheme.
    ///
    /// ```
    /// use uriscan::UriRef;
    ///
    /// let base = UriRef::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.resolve(&UriRef::parse("../g")?)?, "http://a/b/g");
    /// assert_eq!(base.resolve(&UriRef::parse("?y")?)?, "http://a/b/c/d;p?y");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(&self, reference: &UriRef<'_>) -> Result<String, ResolveError> {
        resolve(&components_of!(self), &components_of!(reference))
    }
}

impl IriRef<'_> {
    /// Resolves `reference` against `self` as the base IRI, by the
    /// algorithm of [`UriRef::resolve`], as RFC 3987 section 6.5 says
    /// (non-ASCII characters are kept as written), and returns the target
    /// IRI. The result always parses as an IRI.
    ///
    /// # Errors
    ///
    /// [`ResolveError::RelativeBase`] when the base has no scheme.
    ///
    /// ```
    /// use uriscan::IriRef;
    ///
    /// let base = IriRef::parse("https://例え.jp/文書/索引.html")?;
    /// let target = base.resolve(&IriRef::parse("../パス/ページ")?)?;
    /// assert_eq!(target, "https://例え.jp/パス/ページ");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(&self, reference: &IriRef<'_>) -> Result<String, ResolveError> {
        resolve(&components_of!(self), &components_of!(reference))
    }
}

/// The five components of a URI or IRI reference, which resolution reads.
struct Components<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// Section 5.2.2, strict: the target of `r` against `base`.
fn resolve(base: &Components<'_>, r: &Components<'_>) -> Result<String, ResolveError> {
    let Some(base_scheme) = base.scheme else {
        return Err(ResolveError::RelativeBase);
    };
    let mut path = String::with_capacity(base.path.len() + r.path.len() + 16);
    let (scheme, authority, query);
    if let Some(s) = r.scheme {
        scheme = s;
        authority = r.authority;
        remove_dot_segments(r.path, &mut path);
        query = r.query;
    } else {
        scheme = base_scheme;
        if r.authority.is_some() {
            authority = r.authority;
            remove_dot_segments(r.path, &mut path);
            query = r.query;
        } else {
            authority = base.authority;
            if r.path.is_empty() {
                path.push_str(base.path);
                query = r.query.or(base.query);
            } else {
                if r.path.starts_with('/') {
                    remove_dot_segments(r.path, &mut path);
                } else {
                    remove_dot_segments(&merge(base, r.path), &mut path);
                }
                query = r.query;
            }
        }
    }
    Ok(recompose(scheme, authority, &path, query, r.fragment))
}

/// Section 5.2.3: the reference's path appended to all but the last segment
/// of the base's path (or to `/` when the base has an authority and an
/// empty path).
fn merge(base: &Components<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    let base_path = base.path;
    let keep = base_path.rfind('/').map_or(0, |slash| slash + 1);
    let mut merged = String::with_capacity(keep + path.len());
    merged.push_str(&base_path[..keep]);
    merged.push_str(path);
    merged
}

/// Section 5.3, plus one repair: a path that starts with `//` where there
/// is no authority would read back as an authority, so it gets a `/.` in
/// front (which `remove_dot_segments` maps back to the same path).
fn recompose(
    scheme: &str,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut out = String::with_capacity(scheme.len() + path.len() + 16);
    out.push_str(scheme);
    out.push(':');
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    } else if path.starts_with("//") {
        out.push_str("/.");
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Section 5.2.4: interprets and removes the `.` and `..` segments of
/// `input`, appending the result to `out`.
pub(crate) fn remove_dot_segments(mut input: &str, out: &mut String) {
    let floor = out.len();
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest; // A
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest; // A
        } else if input.starts_with("/./") {
            input = &input[2..]; // B
        } else if input == "/." {
            input = "/"; // B
        } else if input.starts_with("/../") {
            input = &input[3..]; // C
            pop_segment(out, floor);
        } else if input == "/.." {
            input = "/"; // C
            pop_segment(out, floor);
        } else if input == "." || input == ".." {
            input = ""; // D
        } else {
            // E: the first segment, with its leading "/" if any.
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |p| from + p);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
}

/// Removes the last segment and its preceding `/` (if any) from `out`,
/// never going below `floor`.
fn pop_segment(out: &mut String, floor: usize) {
    let cut = out[floor..].rfind('/').map_or(floor, |p| floor + p);
    out.truncate(cut);
}
