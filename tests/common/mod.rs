//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Returns `../shared/<sub>` beside the project root, when it exists.
///
/// A user's fresh clone has no `../shared/`: then this prints a notice and
/// returns `None`, so the test skips. `.ci/run` sets `URISCAN_REQUIRE_SHARED`,
/// which turns the absence into a failure.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join(sub);
    if dir.exists() {
        return Some(dir);
    }
    if std::env::var_os("URISCAN_REQUIRE_SHARED").is_some() {
        panic!(
            "{} is missing and URISCAN_REQUIRE_SHARED is set",
            dir.display()
        );
    }
    eprintln!("note: skipping, {} is absent", dir.display());
    None
}

/// Everything `scan_reader` finds in `text` with reads of `read_size`
/// bytes, owned, for comparisons with the slice iterator.
pub fn stream_scan(
    scanner: &uriscan::Scanner,
    text: &[u8],
    read_size: usize,
) -> Vec<uriscan::Found<'static>> {
    let mut all = Vec::new();
    scanner
        .scan_reader_with_read_size(
            text,
            |f: &uriscan::Found<'_>| {
                all.push(f.clone().into_owned());
                Ok(true)
            },
            read_size,
        )
        .unwrap();
    all
}

/// Every file under `dir`, recursively, sorted (so runs compare).
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
