//! Parser speed per URI, on the URIs uriscan finds in the shared corpus,
//! with fluent-uri (a strict RFC 3986 parser) on the same list in the same
//! run.
//!
//! Run: `cargo bench --bench parse` (needs `../shared/corpus/`).

use std::fs;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use uriscan::{Scanner, UriRef};

fn uris() -> Option<Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/rfc");
    if !dir.exists() {
        eprintln!("note: ../shared/corpus is absent; nothing to measure");
        return None;
    }
    let scanner = Scanner::new();
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut list = Vec::new();
    for f in files {
        let bytes = fs::read(f).unwrap();
        list.extend(scanner.find_iter(&bytes).map(|u| u.as_str().to_string()));
    }
    Some(list)
}

fn bench(c: &mut Criterion) {
    let Some(list) = uris() else { return };
    let bytes: usize = list.iter().map(String::len).sum();
    let mut group = c.benchmark_group(format!("parse/{}-corpus-uris", list.len()));
    group.throughput(Throughput::Elements(list.len() as u64));
    eprintln!(
        "{} URIs, {} bytes, {:.1} bytes/URI",
        list.len(),
        bytes,
        bytes as f64 / list.len() as f64
    );
    group.bench_function("uriscan", |b| {
        b.iter(|| list.iter().filter(|u| UriRef::parse(u).is_ok()).count())
    });
    group.bench_function("fluent-uri", |b| {
        b.iter(|| {
            list.iter()
                .filter(|u| fluent_uri::UriRef::parse(u.as_str()).is_ok())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
