//! The scanner's multi-pattern searches, as the core does them (its own
//! colon search, memchr) against aho-corasick (its packed Teddy searcher,
//! and its automaton), on the bytes of each folder of the shared corpus, as
//! `scan` has them.
//!
//! - **Scheme starts.** The core finds the `:` bytes (a word at a time
//!   near the last one, then a vector loop that passes over those followed
//!   by a space or another control byte, and after a `:` that failed its
//!   sides, those with no scheme byte before: `ColonFinder` in
//!   `src/scan/colons.rs`, compiled in here) and keeps those with a scheme
//!   byte before and a URI byte (or a non-ASCII byte after an address
//!   scheme's last letter: an internationalized address) after, not digits
//!   on both sides. Teddy can put one side's
//!   test in its vector search: a scheme byte and `:` (65 patterns), or
//!   `:` and such a byte (213 patterns; 85 before non-ASCII bytes were
//!   kept, when DESIGN's figures were measured); the other side is
//!   tested as the core does. The automaton finds the known schemes with
//!   their `:`, and `://`, in any case (which the look-back then has to
//!   check again).
//! - **`://`**: memchr's memmem against Teddy.
//! - **`URL:`**, any case: memchr for `:` and a look back, against Teddy
//!   with the 8 spellings.
//!
//! Every variant counts what it found, so that they can be compared.
//!
//! Run: `cargo bench --bench triggers` (needs `../shared/corpus/`).

#[path = "../tests/common/mod.rs"]
mod common;
// The core's own colon search, compiled here: what is measured is the code
// the scanner runs.
#[path = "../src/scan/colons.rs"]
#[allow(dead_code)] // its unit tests' helpers, compiled but not run here
mod colons;

use aho_corasick::{packed, AhoCorasick, AhoCorasickKind, MatchKind};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The known schemes, read from the scanner's own list.
fn known_schemes() -> Vec<String> {
    let source = include_str!("../src/scan/schemes.rs");
    let list = source
        .split("const KNOWN: &[&str] = &[")
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .expect("the list of known schemes");
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// A byte that may follow a scheme's `:`: a URI byte, or a byte of a
/// non-ASCII character (`mailto:üser@…`).
fn may_follow_scheme(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b) || !b.is_ascii()
}

/// The core's quick test of the bytes around the `:` at `colon`.
fn passes(hay: &[u8], colon: usize) -> bool {
    let (Some(&before), Some(&after)) = (colon.checked_sub(1).map(|i| &hay[i]), hay.get(colon + 1))
    else {
        return false;
    };
    is_scheme_byte(before)
        && may_follow_scheme(after)
        && !(before.is_ascii_digit() && after.is_ascii_digit())
        // A non-ASCII byte only after an address scheme's last letter.
        && (after.is_ascii() || colons::ends_address_scheme(before))
}

/// A Teddy searcher for `patterns` (more than 64 of them are allowed).
fn teddy<P: AsRef<[u8]>>(patterns: impl IntoIterator<Item = P>) -> packed::Searcher {
    let mut builder = packed::Config::new()
        .heuristic_pattern_limits(false)
        .builder();
    for pattern in patterns {
        builder.add(pattern);
    }
    builder.build().expect("a packed searcher")
}

fn bench(c: &mut Criterion) {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let colons = colons::ColonFinder::new();
    let scheme_colon = teddy((0..128u8).filter(|&b| is_scheme_byte(b)).map(|b| [b, b':']));
    let colon_uri = teddy(
        (0..=255u8)
            .filter(|&b| may_follow_scheme(b))
            .map(|b| [b':', b]),
    );
    let mut starts: Vec<String> = known_schemes().iter().map(|k| format!("{k}:")).collect();
    starts.push("://".into());
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .match_kind(MatchKind::Standard)
        .build(&starts)
        .unwrap();
    let slashes = memchr::memmem::Finder::new("://");
    let teddy_slashes = teddy(["://"]);
    let url_spellings = (0..8u8).map(|m| {
        let mut s = *b"url:";
        for (i, c) in s.iter_mut().take(3).enumerate() {
            if m >> i & 1 == 1 {
                c.make_ascii_uppercase();
            }
        }
        s
    });
    let teddy_url = teddy(url_spellings);
    for folder in common::CORPUS_FOLDERS {
        let hay = common::concatenated(&dir.join(folder));
        let name = if folder.is_empty() { "all" } else { folder };
        let mut group = c.benchmark_group(format!("triggers/{name}"));
        group.throughput(Throughput::Bytes(hay.len() as u64));
        group.sample_size(10);
        let id = |what: &str| BenchmarkId::new(what, hay.len());
        group.bench_function(id("starts-core"), |b| {
            b.iter(|| {
                // As the core asks (`Sides::following`).
                let (mut n, mut at, mut sides) = (0, 0, colons::Sides::following(true));
                while let Some(colon) = colons.next(&hay, at, sides) {
                    let passed = passes(&hay, colon);
                    n += usize::from(passed);
                    sides = colons::Sides::following(passed);
                    at = colon + 1;
                }
                n
            })
        });
        group.bench_function(id("starts-teddy-scheme-byte-colon"), |b| {
            b.iter(|| {
                let found = scheme_colon.find_iter(&hay);
                found.filter(|m| passes(&hay, m.start() + 1)).count()
            })
        });
        group.bench_function(id("starts-teddy-colon-uri-byte"), |b| {
            b.iter(|| {
                let found = colon_uri.find_iter(&hay);
                found.filter(|m| passes(&hay, m.start())).count()
            })
        });
        group.bench_function(id("starts-aho-corasick-dfa-known-schemes"), |b| {
            b.iter(|| automaton.find_overlapping_iter(&hay[..]).count())
        });
        group.bench_function(id("slashes-memmem"), |b| {
            b.iter(|| slashes.find_iter(&hay).count())
        });
        group.bench_function(id("slashes-teddy"), |b| {
            b.iter(|| teddy_slashes.find_iter(&hay).count())
        });
        group.bench_function(id("url-prefix-memchr"), |b| {
            b.iter(|| {
                memchr::memchr_iter(b':', &hay)
                    .filter(|&c| c >= 3 && hay[c - 3..c].eq_ignore_ascii_case(b"url"))
                    .count()
            })
        });
        group.bench_function(id("url-prefix-teddy"), |b| {
            b.iter(|| teddy_url.find_iter(&hay).count())
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
