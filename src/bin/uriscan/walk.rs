//! Turns the paths given into the inputs to scan, in order, as the walk
//! meets them (so scanning starts with the first file found, not after the
//! last), and the errors met on the way.
//!
//! The file the output goes to is never read: a run writing into the tree
//! it scans (`uriscan -r docs > docs/links.txt`) would read its own URIs
//! back and write them again, without end. Found by the walk, that file is
//! left out, as ripgrep leaves it out; named on the command line (or given
//! as standard input), it is reported as an error, as grep reports it.
//! Not with `-q`, `-l` or `-c`, whose output holds no URI to read back
//! (grep reads it too).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ignore::overrides::OverrideBuilder;
use ignore::WalkBuilder;

use crate::args::{FileId, Walk};
use crate::messages;

/// One thing to scan.
#[derive(Debug)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file named on the command line (`named`), or found by the walk;
    /// `regular` if it is a regular file (all the walk finds are; a named
    /// one may be a FIFO or a device, read as a stream), as the walk's own
    /// look at it says.
    Path {
        path: PathBuf,
        named: bool,
        regular: bool,
    },
}

/// What the walk meets, in order.
#[derive(Debug)]
pub enum Walked {
    /// An input to scan.
    Input(Input),
    /// A path the walk could not enter or follow, and why.
    Error { path: PathBuf, reason: String },
}

/// Why a path named is not read.
const IS_THE_OUTPUT: &str = "input file is also the output";

/// Expands `paths` in order, giving each input and each error to `each` as
/// it is met: files as given, directories walked recursively, depth first,
/// each directory's entries in order of their names (so the order never
/// depends on the file system: a path comes before another when it does
/// component by component), `-` as standard input. Only regular files found
/// by the walk are kept: FIFOs and devices inside a tree are skipped, while
/// one named on the command line is read as asked. The output file
/// ([`Walk::output`]) is left out of a walk, and reported as an error when
/// named.
///
/// # Errors
///
/// An invalid `--glob`.
pub fn walk(paths: &[PathBuf], walk: &Walk, each: &mut dyn FnMut(Walked)) -> Result<()> {
    for path in paths {
        let stdin = path.as_os_str() == "-";
        let meta = if stdin { None } else { fs::metadata(path).ok() };
        if meta.as_ref().is_some_and(fs::Metadata::is_dir) {
            walk_dir(path, walk, each)?;
        } else if names_output(path, meta.as_ref(), walk) {
            each(Walked::Error {
                path: if stdin {
                    PathBuf::from("<stdin>")
                } else {
                    path.clone()
                },
                reason: IS_THE_OUTPUT.to_string(),
            });
        } else if stdin {
            each(Walked::Input(Input::Stdin));
        } else {
            each(Walked::Input(Input::Path {
                path: path.clone(),
                named: true,
                regular: meta.as_ref().is_some_and(fs::Metadata::is_file),
            }));
        }
    }
    Ok(())
}

/// True if the path named (`-` for standard input), whose metadata is
/// `meta` (`None` for `-`, or when it could not be read), is the output
/// file ([`Walk::output`]).
fn names_output(path: &Path, meta: Option<&fs::Metadata>, walk: &Walk) -> bool {
    let Some(out) = walk.output else {
        return false;
    };
    if path.as_os_str() == "-" {
        return FileId::of_stdin() == Some(out);
    }
    meta.and_then(FileId::of) == Some(out)
}

fn walk_dir(dir: &PathBuf, walk: &Walk, each: &mut dyn FnMut(Walked)) -> Result<()> {
    let mut builder = WalkBuilder::new(dir);
    builder
        .hidden(!walk.hidden)
        .ignore(!walk.no_ignore)
        .git_ignore(!walk.no_ignore)
        .git_global(!walk.no_ignore)
        .git_exclude(!walk.no_ignore)
        .parents(!walk.no_ignore)
        .require_git(false)
        .follow_links(walk.follow)
        // The entries sorted together are those of one directory, so their
        // paths differ only in their names: comparing the paths' bytes
        // orders them by name, without taking each path apart for every
        // comparison (as `sort_by_file_name` does; a quarter of the walk).
        .sort_by_file_path(|a, b| a.as_os_str().cmp(b.as_os_str()));
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
    for entry in builder.build() {
        match entry {
            Ok(entry) => {
                if entry.file_type().is_some_and(|t| t.is_file()) && !is_output(&entry, walk) {
                    each(Walked::Input(Input::Path {
                        path: shown(entry.into_path(), walk),
                        named: false,
                        regular: true,
                    }));
                }
            }
            Err(err) => {
                let path = error_path(&err).unwrap_or_else(|| dir.clone());
                each(Walked::Error {
                    path: shown(path, walk),
                    reason: describe(&err),
                });
            }
        }
    }
    Ok(())
}

/// True if the walk's `entry` is the output file: compared by inode first,
/// which the directory gives without a `stat` (a second file system may
/// reuse the number: then the device tells). A link followed (`-L`) has
/// its target's inode (the walk `stat`s it to follow it).
#[cfg(unix)]
fn is_output(entry: &ignore::DirEntry, walk: &Walk) -> bool {
    walk.output
        .is_some_and(|out| entry.ino() == Some(out.ino()) && out.is(entry.path()))
}

#[cfg(not(unix))]
fn is_output(_entry: &ignore::DirEntry, _walk: &Walk) -> bool {
    false
}

/// True if the single input `paths` names (`-` for standard input) is the
/// output file: it is then walked, which reports it, rather than read as
/// one stream.
pub fn names_the_output(paths: &[PathBuf], walk: &Walk) -> bool {
    match paths {
        [path] if walk.output.is_some() => {
            let meta = (path.as_os_str() != "-").then(|| fs::metadata(path).ok());
            names_output(path, meta.flatten().as_ref(), walk)
        }
        _ => false,
    }
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
