//! Turns the paths given into the ordered list of inputs to scan, and
//! reports the errors met on the way.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ignore::overrides::OverrideBuilder;
use ignore::WalkBuilder;

use crate::args::Walk;
use crate::messages;

/// One thing to scan.
#[derive(Debug)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file named on the command line (`named`), or found by the walk.
    Path { path: PathBuf, named: bool },
}

/// What the walk gives: the inputs, in order, and how many errors it met
/// (each already reported on stderr).
#[derive(Debug, Default)]
pub struct Inputs {
    /// The inputs to scan, in order.
    pub list: Vec<Input>,
    /// How many paths could not be walked.
    pub errors: u64,
}

/// Expands `paths` in order: files as given, directories walked
/// recursively with entries in sorted order (so output order never depends
/// on the file system), `-` as standard input. Only regular files found by
/// the walk are kept: FIFOs and devices inside a tree are skipped, while
/// one named on the command line is read as asked.
///
/// A path the walk cannot enter or follow is reported here, as
/// `uriscan: PATH: reason`, and counted; the walk goes on. The errors of
/// one directory are printed when its walk ends, in the same order as its
/// files, so that they too never depend on the file system's order.
pub fn inputs(paths: &[PathBuf], walk: &Walk) -> Result<Inputs> {
    let mut out = Inputs::default();
    for path in paths {
        if path.as_os_str() == "-" {
            out.list.push(Input::Stdin);
        } else if path.is_dir() {
            walk_dir(path, walk, &mut out)?;
        } else {
            out.list.push(Input::Path {
                path: path.clone(),
                named: true,
            });
        }
    }
    Ok(out)
}

fn walk_dir(dir: &PathBuf, walk: &Walk, out: &mut Inputs) -> Result<()> {
    let mut builder = WalkBuilder::new(dir);
    builder
        .hidden(!walk.hidden)
        .ignore(!walk.no_ignore)
        .git_ignore(!walk.no_ignore)
        .git_global(!walk.no_ignore)
        .git_exclude(!walk.no_ignore)
        .parents(!walk.no_ignore)
        .require_git(false)
        .follow_links(walk.follow);
    if let Some(types) = &walk.types {
        builder.types(types.clone());
    }
    if !walk.globs.is_empty() {
        let mut overrides = OverrideBuilder::new(dir);
        for glob in &walk.globs {
            overrides
                .add(glob)
                .with_context(|| format!("invalid glob {glob:?}"))?;
        }
        builder.overrides(overrides.build()?);
    }
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for entry in builder.build() {
        match entry {
            Ok(entry) => {
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    files.push(shown(entry.into_path(), walk));
                }
            }
            Err(err) => {
                let path = error_path(&err).unwrap_or_else(|| dir.clone());
                errors.push((shown(path, walk), describe(&err)));
            }
        }
    }
    // Sorting once here costs a fraction of what the walker's own sorting
    // does, which takes each entry's file name apart for every comparison.
    files.sort_by_cached_key(|path| walk_order_key(path));
    errors.sort_by_cached_key(|(path, _)| walk_order_key(path));
    for (path, reason) in &errors {
        messages::error(&format!("{}: {reason}", path.display()));
    }
    out.errors += errors.len() as u64;
    out.list.extend(
        files
            .into_iter()
            .map(|path| Input::Path { path, named: false }),
    );
    Ok(())
}

/// `path` as printed: without its leading `./` when `.` is scanned because
/// no path was given (see [`Walk::strip_dot_prefix`]).
fn shown(path: PathBuf, walk: &Walk) -> PathBuf {
    if !walk.strip_dot_prefix {
        return path;
    }
    match path.strip_prefix(".") {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
        _ => path,
    }
}

/// A key that sorts paths in the order of a depth-first walk with each
/// directory's entries sorted by name: the path's bytes with each separator
/// made a 0 byte, which no file name holds, so that paths compare component
/// by component (`a/b/c` comes before `a/b-c`, as `b` comes before `b-c`).
fn walk_order_key(path: &Path) -> Vec<u8> {
    let mut key = path.as_os_str().as_encoded_bytes().to_vec();
    for byte in &mut key {
        if std::path::is_separator(char::from(*byte)) {
            *byte = 0;
        }
    }
    key
}

/// The path an `ignore` error is about, if it names one.
fn error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

/// The reason, without the path `error_path` already gives.
fn describe(err: &ignore::Error) -> String {
    match err {
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => describe(err),
        ignore::Error::Loop { ancestor, .. } => {
            format!("symbolic link loop (to {})", ancestor.display())
        }
        ignore::Error::Io(e) => messages::io_reason(e),
        other => other.to_string(),
    }
}
