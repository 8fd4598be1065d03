//! Scanner throughput over the shared corpus, one group per folder (and
//! one for all of it), each with, on the same bytes: a floor that does the
//! least possible work (counting `:` with memchr) and linkify, the usual
//! crate for the job. `find_iter` runs twice: with line numbers (the
//! default) and without (`line_numbers(false)`: what linkify gives, spans
//! without lines).
//!
//! On a shared machine the drift between one contender's seconds and the
//! next's lands in their ratio: `benches/scan_rounds.rs` times them in
//! alternating rounds instead.
//!
//! Run: `cargo bench --bench scan` (needs `../shared/corpus/`); one group:
//! `cargo bench --bench scan -- scan/mail/`.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uriscan::Scanner;

fn bench(c: &mut Criterion) {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let scanner = Scanner::new();
    let unlined = Scanner::builder().line_numbers(false).build();
    let linkify = linkify::LinkFinder::new();
    for folder in common::CORPUS_FOLDERS {
        let bytes = common::concatenated(&dir.join(folder));
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = if folder.is_empty() { "all" } else { folder };
        let mut group = c.benchmark_group(format!("scan/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function(BenchmarkId::new("floor-memchr-colons", bytes.len()), |b| {
            b.iter(|| memchr::memchr_iter(b':', &bytes).count())
        });
        group.bench_function(BenchmarkId::new("uriscan-find_iter", bytes.len()), |b| {
            b.iter(|| scanner.find_iter(&bytes).count())
        });
        group.bench_function(
            BenchmarkId::new("uriscan-find_iter-no-lines", bytes.len()),
            |b| b.iter(|| unlined.find_iter(&bytes).count()),
        );
        group.bench_function(BenchmarkId::new("uriscan-scan_reader", bytes.len()), |b| {
            b.iter(|| {
                let mut n = 0usize;
                scanner
                    .scan_reader(&bytes[..], |_: &uriscan::Found<'_>| {
                        n += 1;
                        Ok(true)
                    })
                    .unwrap();
                n
            })
        });
        group.bench_function(BenchmarkId::new("linkify", bytes.len()), |b| {
            b.iter(|| linkify.links(&text).count())
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
