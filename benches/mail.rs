//! Mail-mode throughput over `../shared/corpus/mail/`, one core, each
//! folder's files held in memory: `mail::scan_mail` on every file against
//! the plain scanner (`find_iter`, what `--no-mail` does) on the same bytes,
//! and a memchr floor (counting `:`).
//!
//! Run: `cargo bench --bench mail` (needs `../shared/corpus/`).

#[path = "../tests/common/mod.rs"]
mod common;

use std::fs;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use uriscan::mail;
use uriscan::{Found, Scanner};

/// Every file under `dir`, each read whole (sorted, so runs compare).
fn files(dir: &Path) -> Vec<Vec<u8>> {
    common::files_under(dir)
        .iter()
        .map(|p| fs::read(p).unwrap())
        .collect()
}

/// How many URIs mail mode finds in `files`.
fn scan_mail(scanner: &Scanner, files: &[Vec<u8>]) -> usize {
    let mut n = 0;
    for file in files {
        mail::scan_mail(scanner, &file[..], |_: &Found<'_>| {
            n += 1;
            Ok(true)
        })
        .unwrap();
    }
    n
}

fn bench(c: &mut Criterion) {
    let Some(dir) = common::shared("corpus/mail") else {
        return;
    };
    let scanner = Scanner::new();
    for name in [
        "all",
        "blinux-list",
        "usrp-users",
        "linux-uvc-devel",
        "spamassassin",
    ] {
        let files = if name == "all" {
            files(&dir)
        } else {
            files(&dir.join(name))
        };
        let bytes: usize = files.iter().map(Vec::len).sum();
        let mut group = c.benchmark_group(format!("mail/{name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(10);
        group.bench_function(BenchmarkId::new("floor-memchr-colons", bytes), |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|f| memchr::memchr_iter(b':', f).count())
                    .sum::<usize>()
            })
        });
        group.bench_function(BenchmarkId::new("plain-find_iter", bytes), |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|f| scanner.find_iter(f).count())
                    .sum::<usize>()
            })
        });
        group.bench_function(BenchmarkId::new("mail-scan_mail", bytes), |b| {
            b.iter(|| scan_mail(&scanner, &files))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
