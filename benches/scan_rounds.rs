//! The scanner against linkify, on the bytes `scan` measures (each folder
//! of the shared corpus, and all of it), timed in alternating rounds.
//!
//! Criterion (`cargo bench --bench scan`) runs one contender after the
//! other, several seconds each: on a shared machine the speed drifts over
//! seconds, and the drift lands in their ratio (it has shown `find_iter`
//! faster with lines counted than without, which cannot be). Here every
//! round times each contender once, in a different order each round, so
//! the contenders of a round see the same machine; the ratio against
//! linkify is taken within each round and its median printed, with each
//! contender's median throughput.
//!
//! Run: `cargo bench --bench scan_rounds` (needs `../shared/corpus/`);
//! `ROUNDS=N` sets the rounds (15 by default).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use uriscan::Scanner;

/// About how many bytes one timing reads (a small folder is passed over
/// several times), so that a timing is long against the clock's grain.
const BYTES_PER_TIMING: usize = 256 << 20;

/// A contender: its name, and what it does to the bytes, returning how many
/// URIs it found (so that the work cannot be optimized away).
type Contender<'a> = (&'a str, Box<dyn Fn(&[u8], &str) -> usize + 'a>);

fn main() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let lined = Scanner::new();
    let unlined = Scanner::builder().line_numbers(false).build();
    let linkify = linkify::LinkFinder::new();
    let contenders: Vec<Contender<'_>> = vec![
        (
            "floor-memchr-colons",
            Box::new(|bytes, _| memchr::memchr_iter(b':', bytes).count()),
        ),
        (
            "find_iter",
            Box::new(|bytes, _| lined.find_iter(bytes).count()),
        ),
        (
            "find_iter-no-lines",
            Box::new(|bytes, _| unlined.find_iter(bytes).count()),
        ),
        ("linkify", Box::new(|_, text| linkify.links(text).count())),
    ];
    let linkify_index = contenders.len() - 1;
    println!(
        "{rounds} rounds; GiB/s, median of the rounds; against linkify: median of each round's ratio"
    );
    for folder in common::CORPUS_FOLDERS {
        let bytes = common::concatenated(&dir.join(folder));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let passes = (BYTES_PER_TIMING / bytes.len()).max(1);
        // seconds[c][r]: contender c's time in round r.
        let mut seconds = vec![Vec::with_capacity(rounds); contenders.len()];
        for round in 0..=rounds {
            for k in 0..contenders.len() {
                let c = (round + k) % contenders.len();
                let start = Instant::now();
                let mut found = 0;
                for _ in 0..passes {
                    found += (contenders[c].1)(&bytes, &text);
                }
                let elapsed = start.elapsed().as_secs_f64();
                std::hint::black_box(found);
                // Round 0 warms the caches and the branch predictors.
                if round > 0 {
                    seconds[c].push(elapsed);
                }
            }
        }
        let name = if folder.is_empty() { "all" } else { folder };
        println!("{name} ({:.1} MB)", bytes.len() as f64 / 1e6);
        let gib = (bytes.len() * passes) as f64 / f64::from(1u32 << 30);
        for (c, (contender, _)) in contenders.iter().enumerate() {
            let ratios: Vec<f64> = (0..rounds)
                .map(|r| seconds[linkify_index][r] / seconds[c][r])
                .collect();
            println!(
                "  {contender:<20} {:>6.2} GiB/s  {:>5.2}x linkify",
                gib / median(&seconds[c]),
                median(&ratios)
            );
        }
    }
}

/// The median of `values` (not empty).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 0 {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}
