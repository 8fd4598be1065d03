//! Where the shared corpora and test vectors are: `../shared/` beside the
//! project root. A file of its own, so that the crate's unit tests can
//! include it too (`#[path]`): they cannot use the rest of `common`, which
//! names the crate as `uriscan`.

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
