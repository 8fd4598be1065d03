//! Documents (HTML, Markdown, man pages, XML, reST, AsciiDoc): which files are read as one,
//! the URI each has under `--base`, and which of their links are printed.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use ignore::types::TypesBuilder;
use uriscan::doc::DocKind;
use uriscan::{IriRef, UriRef};

use crate::args::{Config, Docs};

/// The kind of document the file at `path` is, by its name (less a
/// compression suffix with `-z`), or `None` for text and with
/// `--doc-mode off`.
pub fn kind_of(path: &Path, cfg: &Config) -> Option<DocKind> {
    if !cfg.docs.enabled {
        return None;
    }
    let mut name = PathBuf::from(path.file_name()?);
    if cfg.search_zip
        && matches!(
            name.extension().and_then(|e| e.to_str()),
            Some("gz" | "bz2" | "xz" | "zst")
        )
    {
        name.set_extension("");
    }
    DocKind::from_file_name(name.as_os_str())
}

/// The URI of the document at `path` under `--base`: `BASE/REL`, where
/// `REL` is the path from the directory given on the command line that
/// holds it (or its file name, for a file given), each component
/// percent-encoded as a path segment; with `--iri keep`, an IRI whose
/// path keeps the names' characters (those [`UriRef::to_iri`] shows).
pub fn document_uri(docs: &Docs, roots: &[PathBuf], path: &Path) -> Option<String> {
    let base = IriRef::parse(docs.base.as_deref()?).ok()?;
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
    let reference = UriRef::parse(&reference).ok()?;
    let reference = match docs.keep_iris {
        true => reference.to_iri(),
        false => reference.as_str().into(),
    };
    base.resolve(&IriRef::parse(&reference).ok()?).ok()
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
    use uriscan::doc::LinkFilter;

    fn docs(base: &str) -> Docs {
        Docs {
            enabled: true,
            base: Some(base.to_string()),
            keep_iris: false,
            filter: LinkFilter::default(),
        }
    }

    /// ripgrep's types that name documents (`svg` is XML).
    const TYPES: [&str; 7] = ["html", "markdown", "man", "xml", "svg", "rst", "asciidoc"];

    /// The library's names for document kinds are ripgrep's types `html`,
    /// `markdown`, `man`, `xml` (with `svg`), `rst` and `asciidoc`, which
    /// `--type-list` shows and `-t` selects, but for man pages named by a
    /// section digit and letters (`*.3pm`), which are read as man pages
    /// and which `-t man` leaves out, as ripgrep's does, and for `*.asc`,
    /// which is more often PGP armor than AsciiDoc, and is read as text.
    #[test]
    fn document_kinds_are_the_walks_file_types() {
        let mut types = TypesBuilder::new();
        types.add_defaults();
        let mut names = vec!["README", ".md", "a.MD", "a.md.gz", "x.3pm", "a.10", "a.1y"];
        let globs: Vec<String> = types
            .definitions()
            .into_iter()
            .filter(|d| TYPES.contains(&d.name()))
            .flat_map(|d| d.globs().to_vec())
            .collect();
        let mut expanded = Vec::new();
        for glob in &globs {
            // Each `[...]` class is tried with each of its members.
            let mut forms = vec![glob.replacen('*', "page", 1)];
            while let Some(open) = forms[0].find('[') {
                let close = open + forms[0][open..].find(']').unwrap();
                forms = forms
                    .iter()
                    .flat_map(|f| {
                        class_members(&f[open + 1..close])
                            .into_iter()
                            .map(|c| format!("{}{c}{}", &f[..open], &f[close + 1..]))
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            expanded.extend(forms);
        }
        assert!(expanded.len() > 100, "{expanded:?}");
        names.extend(expanded.iter().map(String::as_str));
        for t in TYPES {
            types.select(t);
        }
        let types = types.build().unwrap();
        for name in names {
            let matched = types.matched(name, false);
            let by_type = matched.inner().and_then(|g| g.file_type_def());
            let kind = DocKind::from_file_name(std::ffi::OsStr::new(name));
            if by_type.is_none() && kind == Some(DocKind::Man) {
                // The one difference: a section digit and letters
                // (`x.3pm`, `a.1y`) beyond ripgrep's `man` globs.
                let suffix = name.rsplit('.').next().unwrap();
                assert!(
                    suffix.starts_with(|c: char| c.is_ascii_digit())
                        && suffix[1..].chars().all(|c| c.is_ascii_alphabetic()),
                    "{name}"
                );
                continue;
            }
            if name.ends_with(".asc") {
                assert_eq!(kind, None, "{name}");
                continue;
            }
            // ripgrep's `svg` files are XML.
            let type_name = by_type.map(|d| d.name().replace("svg", "xml"));
            assert_eq!(
                type_name,
                kind.map(|k| format!("{k:?}").to_lowercase()),
                "{name}"
            );
        }
    }

    /// The characters of a glob's class: `0-9lnpx` is the digits, `l`,
    /// `n`, `p` and `x`.
    fn class_members(class: &str) -> Vec<char> {
        let chars: Vec<char> = class.chars().collect();
        let mut members = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars.get(i + 1) == Some(&'-') && i + 2 < chars.len() {
                members.extend(chars[i]..=chars[i + 2]);
                i += 3;
            } else {
                members.push(chars[i]);
                i += 1;
            }
        }
        members
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
        // With `--iri keep`, the document's IRI keeps its names' letters
        // (a space is no IRI character), under an IRI base.
        let keep = Docs {
            keep_iris: true,
            ..docs("https://例え.jp/根/")
        };
        let file = root.join("文書").join("ペ ージ.md");
        assert_eq!(
            document_uri(&keep, std::slice::from_ref(&root), &file).as_deref(),
            Some("https://例え.jp/根/文書/ペ%20ージ.md")
        );
    }
}
