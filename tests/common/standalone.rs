//! The helpers of `common` that do not name the crate: in a file of their
//! own, so that the crate's unit tests can include them too (`#[path]`);
//! the rest of `common` names the crate as `uriscan`, which they cannot.

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

/// `text` with every LF made CR LF, as mail travels and Windows writes.
pub fn crlf(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 2);
    for &b in text {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// xorshift64: a deterministic, dependency-free source of test inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Pieces of JSON lines for generated texts: strings opened after `{`,
/// closed before `}`, and the escapes decoded in them.
pub const JSON_TOKENS: [&[u8]; 6] = [b"{\"", b"\"}", b"\\/", b"\\u003c", b"\\u0026", b"\\\""];
