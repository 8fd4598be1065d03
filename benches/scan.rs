//! Scanner throughput over the shared corpus, each group with, on the same
//! bytes: a floor that does the least possible work (counting `:` with
//! memchr) and linkify, the usual crate for the job.
//!
//! Run: `cargo bench --bench scan` (needs `../shared/corpus/`).

#[path = "../tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uriscan::Scanner;

/// Every file under `dir`, concatenated (sorted, so runs compare).
fn concat(dir: &Path) -> Vec<u8> {
    common::files_under(dir)
        .iter()
        .flat_map(|f| fs::read(f).unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let scanner = Scanner::new();
    let linkify = linkify::LinkFinder::new();
    for name in ["rfc", "mail", "all"] {
        let bytes = if name == "all" {
            concat(&dir)
        } else {
            concat(&dir.join(name))
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut group = c.benchmark_group(format!("scan/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(10);
        group.bench_function(BenchmarkId::new("floor-memchr-colons", bytes.len()), |b| {
            b.iter(|| memchr::memchr_iter(b':', &bytes).count())
        });
        group.bench_function(BenchmarkId::new("uriscan-find_iter", bytes.len()), |b| {
            b.iter(|| scanner.find_iter(&bytes).count())
        });
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
