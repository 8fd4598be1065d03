//! One input cut into chunks (`uriscan::Chunks`), each scanned on its own:
//! the URIs, in chunk order, are exactly those of one scan over the whole,
//! whatever the chunk size, the reads and the text: the shared corpus
//! concatenated, the adversarial shapes, generated text.

mod common;
#[allow(dead_code)]
#[path = "../examples/hostile/gen.rs"]
mod gen;

use std::io::{self, Read};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use uriscan::{Chunk, Chunks, Found, Scanner};

/// What a scan reports, owned, for comparisons.
type Record = (String, usize, usize, u64, u64);

fn record(f: &Found<'_>) -> Record {
    let s = f.span();
    (f.as_str().to_string(), s.start, s.end, f.line(), f.column())
}

/// A reader that gives at most `step` bytes a read, as a pipe may.
struct Trickle<'a> {
    text: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// What the chunks of `text` (cut at `size`) and the rest give, in order,
/// and how many chunks there were.
fn chunked(scanner: &Scanner, text: &[u8], size: usize) -> (Vec<Record>, usize) {
    scan_chunks(scanner, Chunks::new(text).chunk_size(size))
}

/// [`chunked`], a safe cut looked for at most `search` bytes past the
/// target size, the input read at most `step` bytes at a time.
fn chunked_in_reads(
    scanner: &Scanner,
    text: &[u8],
    size: usize,
    search: usize,
    step: usize,
) -> (Vec<Record>, usize) {
    let rdr = Trickle { text, step };
    scan_chunks(
        scanner,
        Chunks::new(rdr).chunk_size(size).max_search(search),
    )
}

/// What every chunk of `chunks`, then the rest, give, in order, and how
/// many chunks there were.
fn scan_chunks<R: Read>(scanner: &Scanner, mut chunks: Chunks<R>) -> (Vec<Record>, usize) {
    let mut out = Vec::new();
    let mut n = 0;
    let mut sink = |f: &Found<'_>| {
        out.push(record(f));
        Ok(true)
    };
    for chunk in chunks.by_ref() {
        n += 1;
        chunk.unwrap().scan(scanner, &mut sink).unwrap();
    }
    if let Some(rest) = chunks.into_rest() {
        rest.scan(scanner, &mut sink).unwrap();
    }
    (out, n)
}

fn whole(scanner: &Scanner, text: &[u8]) -> Vec<Record> {
    scanner.find_iter(text).map(|f| record(&f)).collect()
}

#[test]
fn the_corpus_concatenated_gives_the_whole_at_every_chunk_size() {
    let Some(dir) = common::shared("corpus") else {
        return;
    };
    let text = common::concatenated(&dir);
    for scanner in [
        Scanner::new(),
        Scanner::builder()
            .report_invalid(true)
            .any_scheme(true)
            .build(),
    ] {
        let whole = whole(&scanner, &text);
        assert!(whole.len() > 100_000);
        for size in [4 << 10, 61 << 10, 1 << 20, 7 << 20] {
            let (found, chunks) = chunked(&scanner, &text, size);
            assert!(chunks > text.len() / size / 2, "{chunks} chunks of {size}");
            common::assert_same_as_whole(&found, &whole, &format!("chunks of {size} bytes"));
        }
    }
}

#[test]
fn chunks_cover_the_input_and_start_at_line_breaks() {
    let text = "see http://a.org/x\n".repeat(1000);
    let chunks: Vec<Chunk> = Chunks::new(text.as_bytes())
        .chunk_size(1000)
        .map(Result::unwrap)
        .collect();
    assert!(chunks.len() > 10);
    let joined: Vec<u8> = chunks.iter().flat_map(|c| c.bytes().to_vec()).collect();
    assert_eq!(joined, text.as_bytes());
    for c in &chunks {
        assert!(c.offset() == 0 || text.as_bytes()[c.offset() - 1] == b'\n');
    }
    let (found, _) = chunked(&Scanner::new(), text.as_bytes(), 1000);
    assert_eq!(found, whole(&Scanner::new(), text.as_bytes()));
}

#[test]
fn text_without_a_safe_cut_is_left_to_one_stream() {
    // One long line: no line break to cut at.
    let text = format!("x {} <http://a.org/b\n c>", "http://a.org/ ".repeat(2000));
    let (found, n) = chunked_in_reads(&Scanner::new(), text.as_bytes(), 100, 1000, usize::MAX);
    assert_eq!(n, 0);
    assert_eq!(found, whole(&Scanner::new(), text.as_bytes()));
}

#[test]
fn adversarial_shapes_cut_anywhere_give_the_whole() {
    for case in gen::shapes(20_000) {
        let mut text = Vec::new();
        case.reader().read_to_end(&mut text).unwrap();
        for size in [1, 97, 4096] {
            let (found, _) = chunked_in_reads(&Scanner::new(), &text, size, 2048, usize::MAX);
            assert_eq!(
                found,
                whole(&Scanner::new(), &text),
                "{} at {size}",
                case.name
            );
        }
    }
}

/// Lines of text with URIs, brackets, quotes, prefixes, page breaks.
fn text() -> impl Strategy<Value = Vec<u8>> {
    common::text_of_tokens(&[])
}

proptest! {
    #![proptest_config(Config {
        cases: 3_000,
        rng_seed: RngSeed::Fixed(0x6368_756e),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn chunks_scanned_apart_give_the_whole(
        text in text(),
        size in 1usize..64,
        search in 0usize..256,
        step in 1usize..40,
    ) {
        let scanner = Scanner::new();
        let (found, _) = chunked_in_reads(&scanner, &text, size, search, step);
        prop_assert_eq!(found, whole(&scanner, &text));
    }
}
