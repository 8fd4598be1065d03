//! Documents (HTML, Markdown, man pages): which files are read as one,
//! the URI each has under `--base`, and which of their links are printed.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use ignore::types::TypesBuilder;
use uriscan::doc::{DocKind, Link};
use uriscan::UriRef;

use crate::args::{Config, Docs};

/// The kind of document the file at `path` is, by its name (less a
/// compression suffix with `-z`), or `None` for text.
pub fn kind_of(path: &Path, cfg: &Config) -> Option<DocKind> {
    let types = cfg.docs.kinds.as_ref()?;
    let mut name = PathBuf::from(path.file_name()?);
    if cfg.search_zip
        && matches!(
            name.extension().and_then(|e| e.to_str()),
            Some("gz" | "bz2" | "xz" | "zst")
        )
    {
        name.set_extension("");
    }
    let matched = types.matched(&name, false);
    let def = matched.inner()?.file_type_def()?;
    match def.name() {
        "html" => Some(DocKind::Html),
        "markdown" => Some(DocKind::Markdown),
        "man" => Some(DocKind::Man),
        _ => None,
    }
}

/// The URI of the document at `path` under `--base`: `BASE/REL`, where
/// `REL` is the path from the directory given on the command line that
/// holds it (or its file name, for a file given), each component
/// percent-encoded as a path segment.
pub fn document_uri(docs: &Docs, roots: &[PathBuf], path: &Path) -> Option<String> {
    let base = UriRef::parse(docs.base.as_deref()?).ok()?;
    let rel = roots.iter().find_map(|root| {
        if root == path {
            path.file_name().map(PathBuf::from)
        } else if root.is_dir() {
            match path.strip_prefix(root) {
                Ok(rel) => Some(rel.to_path_buf()),
                // The current directory's files are shown without `./`.
                Err(_) if root == Path::new(".") && path.is_relative() => Some(path.to_path_buf()),
                Err(_) => None,
            }
        } else {
            None
        }
    })?;
    let mut reference = String::new();
    for component in rel.components() {
        let Component::Normal(segment) = component else {
            continue;
        };
        if !reference.is_empty() {
            reference.push('/');
        }
        for &b in segment.as_encoded_bytes() {
            if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
                reference.push(char::from(b));
            } else {
                reference.push_str(&format!("%{b:02X}"));
            }
        }
    }
    // A first segment with a `:` would read as a scheme.
    if reference.split('/').next().is_some_and(|s| s.contains(':')) {
        reference.insert_str(0, "./");
    }
    base.resolve(&UriRef::parse(&reference).ok()?).ok()
}

/// What is printed for `link`: its URI, and whether it is printed at all
/// (`--relative`, `--fragments`, `--skip-code`).
pub fn printed(link: &Link, docs: &Docs) -> Option<String> {
    if (docs.skip_code && link.is_in_code()) || (link.is_fragment() && !docs.fragments) {
        return None;
    }
    if !link.is_relative() {
        return Some(link.written().to_string());
    }
    if docs.relative {
        return Some(link.written().to_string());
    }
    link.resolved().map(str::to_string)
}

/// `--type-list`: each type and its globs.
pub fn type_list(out: &mut impl Write) -> io::Result<()> {
    let mut types = TypesBuilder::new();
    types.add_defaults();
    for def in types.definitions() {
        writeln!(out, "{}: {}", def.name(), def.globs().join(", "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(base: &str) -> Docs {
        Docs {
            kinds: None,
            base: Some(base.to_string()),
            relative: false,
            fragments: false,
            skip_code: false,
        }
    }

    #[test]
    fn a_document_is_placed_under_the_base_by_its_path_from_its_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let base = docs("https://d.example/root/");
        let file = root.join("a").join("b c.md");
        assert_eq!(
            document_uri(&base, std::slice::from_ref(&root), &file).as_deref(),
            Some("https://d.example/root/a/b%20c.md")
        );
        assert_eq!(
            document_uri(&base, std::slice::from_ref(&file), &file).as_deref(),
            Some("https://d.example/root/b%20c.md")
        );
        let colon = root.join("x:y.md");
        assert_eq!(
            document_uri(&base, std::slice::from_ref(&root), &colon).as_deref(),
            Some("https://d.example/root/x:y.md")
        );
        assert_eq!(document_uri(&base, &[], &file), None);
    }
}
