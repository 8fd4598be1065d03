//! One input cut into chunks (`uriscan::Chunks`), each scanned on its own:
//! the URIs, in chunk order, are exactly those of one scan over the whole,
//! on the shared corpus concatenated, at many chunk sizes.

mod common;

use std::fs;

use uriscan::{Chunks, Found, Scanner};

/// What a scan reports, owned, for comparisons.
type Record = (String, usize, usize, u64, u64);

fn record(f: &Found<'_>) -> Record {
    let s = f.span();
    (f.as_str().to_string(), s.start, s.end, f.line(), f.column())
}

fn chunked(scanner: &Scanner, text: &[u8], size: usize) -> (Vec<Record>, usize) {
    let mut out = Vec::new();
    let mut chunks = Chunks::new(text).chunk_size(size);
    let mut n = 0;
    for chunk in chunks.by_ref() {
        n += 1;
        chunk
            .unwrap()
            .scan(scanner, |f: &Found<'_>| {
                out.push(record(f));
                Ok(true)
            })
            .unwrap();
    }
    if let Some(rest) = chunks.into_rest() {
        rest.scan(scanner, |f: &Found<'_>| {
            out.push(record(f));
            Ok(true)
        })
        .unwrap();
    }
    (out, n)
}

#[test]
fn the_corpus_concatenated_gives_the_whole_at_every_chunk_size() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let mut text = Vec::new();
    for file in common::files_under(&dir) {
        text.extend(fs::read(&file).unwrap());
    }
    for scanner in [
        Scanner::new(),
        Scanner::builder()
            .report_invalid(true)
            .any_scheme(true)
            .build(),
    ] {
        let whole: Vec<Record> = scanner.find_iter(&text).map(|f| record(&f)).collect();
        assert!(whole.len() > 100_000);
        for size in [4 << 10, 61 << 10, 1 << 20, 7 << 20] {
            let (found, chunks) = chunked(&scanner, &text, size);
            assert!(chunks > text.len() / size / 2, "{chunks} chunks of {size}");
            if found != whole {
                let i = found
                    .iter()
                    .zip(&whole)
                    .position(|(a, b)| a != b)
                    .unwrap_or(found.len().min(whole.len()));
                panic!(
                    "chunks of {size} bytes differ from the whole at URI {i}: {:?} against {:?} ({} and {} URIs)",
                    found.get(i),
                    whole.get(i),
                    found.len(),
                    whole.len()
                );
            }
        }
    }
}
