//! One seekable input cut into segments (`uriscan::Segments`), each found
//! and scanned on its own, in any order, with its own positional reads: the
//! URIs, in segment order and with each segment's lines moved by the line
//! breaks of the segments before it, are exactly those of one scan over the
//! whole, whatever the segment size, the reads and the text.

mod common;
#[allow(dead_code)]
#[path = "../examples/hostile/gen.rs"]
mod gen;

use std::fs;
use std::io::{self, Read};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use uriscan::{mail, Found, ReadAt, Scanner, Segments};

/// What a scan reports, owned, for comparisons: the URI, its span, line
/// and column, and in mail the line of its message.
type Record = (String, usize, usize, u64, u64, Option<u64>);

fn record(f: &Found<'_>, lines_before: u64) -> Record {
    let s = f.span();
    (
        f.as_str().to_string(),
        s.start,
        s.end,
        f.line() + lines_before,
        f.column(),
        f.message().map(|m| m.message_line() + lines_before),
    )
}

/// Bytes read at most `step` at a time, as a file read by the kernel in
/// pieces may be.
struct Trickle<'a> {
    text: &'a [u8],
    step: usize,
}

impl ReadAt for Trickle<'_> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let n = buf.len().min(self.step);
        self.text.read_at(&mut buf[..n], offset)
    }
}

/// How a segment is scanned: as text or as mail.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Text,
    Mail,
}

/// What the segments of `text` (cut about every `size` bytes, read at
/// most `step` bytes at a time) give, in order, each scanned in reverse
/// order of the segments (no segment needs the one before it), and how many
/// segments were not empty.
fn segmented(
    scanner: &Scanner,
    text: &[u8],
    size: u64,
    step: usize,
    mode: Mode,
) -> (Vec<Record>, usize) {
    let input = Trickle { text, step };
    let len = text.len() as u64;
    let segments = match mode {
        Mode::Text => Segments::new(&input, len),
        Mode::Mail => mail::message_segments(&input, len),
    }
    .segment_size(size);
    let mut found = Vec::new();
    for k in (0..segments.count()).rev() {
        let mut records = Vec::new();
        let mut sink = |f: &Found<'_>| {
            records.push(record(f, 0));
            Ok(true)
        };
        let end = segments.segment(k).unwrap().map(|segment| match mode {
            Mode::Text => segment.scan(scanner, &mut sink).unwrap(),
            Mode::Mail => mail::scan_segment(scanner, segment, &mut sink).unwrap(),
        });
        found.push((end, records));
    }
    found.reverse();
    let (mut out, mut lines, mut bytes, mut nonempty) = (Vec::new(), 0, 0, 0);
    for (end, records) in found {
        let Some(end) = end else {
            assert!(records.is_empty());
            continue;
        };
        nonempty += 1;
        out.extend(records.into_iter().map(|mut r| {
            r.3 += lines;
            r.5 = r.5.map(|l| l + lines);
            r
        }));
        lines += end.lines;
        bytes += end.bytes;
    }
    assert_eq!(bytes, len, "the segments cover the input");
    assert_eq!(lines, memchr::memchr_iter(b'\n', text).count() as u64);
    (out, nonempty)
}

fn whole(scanner: &Scanner, text: &[u8], mode: Mode) -> Vec<Record> {
    let mut out = Vec::new();
    let sink = |f: &Found<'_>| {
        out.push(record(f, 0));
        Ok(true)
    };
    match mode {
        Mode::Text => scanner.scan_slice(text, sink).unwrap(),
        Mode::Mail => mail::scan_mail(scanner, text, sink).unwrap(),
    }
    out
}

#[test]
fn the_corpus_concatenated_gives_the_whole_at_every_segment_size() {
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
        let whole = whole(&scanner, &text, Mode::Text);
        assert!(whole.len() > 100_000);
        for (size, step) in [
            (4 << 10, usize::MAX),
            (61 << 10, 1000),
            (1 << 20, usize::MAX),
            (7 << 20, 4096),
        ] {
            let (found, n) = segmented(&scanner, &text, size, step, Mode::Text);
            assert!(
                n as u64 > text.len() as u64 / size / 2,
                "{n} segments of {size}"
            );
            common::assert_same_as_whole(&found, &whole, &format!("segments of {size} bytes"));
        }
    }
}

#[test]
fn mail_archives_cut_at_messages_give_the_whole() {
    let Some(dir) = common::shared("corpus/mail") else {
        return;
    };
    let scanner = Scanner::new();
    let (mut mboxes, mut segments) = (0, 0);
    for file in common::files_under(&dir) {
        let text = fs::read(&file).unwrap();
        if !text.starts_with(b"From ") || text.len() < 200_000 {
            continue;
        }
        mboxes += 1;
        let whole = whole(&scanner, &text, Mode::Mail);
        for size in [16 << 10, 100_000] {
            let (found, n) = segmented(&scanner, &text, size, usize::MAX, Mode::Mail);
            segments += n;
            common::assert_same_as_whole(&found, &whole, &format!("{} at {size}", file.display()));
        }
    }
    assert!(mboxes > 10, "{mboxes} mbox files");
    assert!(
        segments > 10 * mboxes,
        "{segments} segments of {mboxes} mbox files"
    );
}

#[test]
fn segments_start_at_line_breaks_and_messages() {
    let text = "see http://a.org/x\n".repeat(1000);
    let segments = Segments::new(text.as_bytes(), text.len() as u64).segment_size(1000);
    assert_eq!(segments.count(), 19);
    for k in 0..segments.count() {
        let start = segments.segment(k).unwrap().unwrap().start() as usize;
        assert!(start == 0 || text.as_bytes()[start - 1] == b'\n');
        assert!(start >= k as usize * 1000 && start < k as usize * 1000 + 19);
    }
    let mbox = "From a@b Mon Jan  1 00:00:00 2024\n\nsee http://a.org/\nFrom here\n\n".repeat(100);
    let segments = mail::message_segments(mbox.as_bytes(), mbox.len() as u64).segment_size(500);
    for k in 0..segments.count() {
        if let Some(segment) = segments.segment(k).unwrap() {
            assert!(mbox[segment.start() as usize..].starts_with("From a@b"));
        }
    }
    let (found, _) = segmented(&Scanner::new(), mbox.as_bytes(), 500, 7, Mode::Mail);
    common::assert_same_as_whole(
        &found,
        &whole(&Scanner::new(), mbox.as_bytes(), Mode::Mail),
        "mbox",
    );
}

#[test]
fn text_without_a_safe_cut_is_one_segment() {
    // One long line: no line break to cut at.
    let text = format!("x {} <http://a.org/b\n c>", "http://a.org/ ".repeat(2000));
    let (found, n) = segmented(
        &Scanner::new(),
        text.as_bytes(),
        100,
        usize::MAX,
        Mode::Text,
    );
    assert_eq!(n, 1);
    common::assert_same_as_whole(
        &found,
        &whole(&Scanner::new(), text.as_bytes(), Mode::Text),
        "one line",
    );
    // Lines longer than a segment, with cuts only now and then.
    let text = format!("{}\n\n", "http://a.org/ ".repeat(500)).repeat(20);
    let (found, n) = segmented(&Scanner::new(), text.as_bytes(), 1000, 333, Mode::Text);
    assert!(n > 1 && n < 20, "{n} segments");
    common::assert_same_as_whole(
        &found,
        &whole(&Scanner::new(), text.as_bytes(), Mode::Text),
        "long lines",
    );
}

/// Data with no safe cut (lines of URI bytes alone, with LF or CR LF, and
/// lines that each open a `<`) is not worth cutting: its segments would
/// each look through a segment's size for a boundary in vain. Text is, and
/// so is data followed by text, or an mbox whose first message is large;
/// one segment always is.
#[test]
fn only_text_with_a_boundary_is_worth_cutting() {
    let csv: String = (0..2000).map(|i| format!("{i},{},x{i}\n", i * 7)).collect();
    let base64 =
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u\r\n".repeat(300);
    let brackets = "<http://a.example/b\n".repeat(1000);
    let text = "see http://a.org/x, said the log\n".repeat(1000);
    let cuts = |s: &str, size| {
        Segments::new(s.as_bytes(), s.len() as u64)
            .segment_size(size)
            .cuts()
            .unwrap()
    };
    assert!(!cuts(&csv, 4000));
    assert!(!cuts(&base64, 4000));
    assert!(!cuts(&brackets, 4000));
    assert!(cuts(&text, 4000));
    assert!(cuts(&csv, csv.len() as u64));
    // Data, then text past segment 1's reach: cut, as the middle segment
    // finds its start; and its segments give the whole.
    let mixed = format!("{}{}", &csv[..9000], text);
    assert!(cuts(&mixed, 4000));
    let (found, _) = segmented(&Scanner::new(), mixed.as_bytes(), 4000, 333, Mode::Text);
    common::assert_same_as_whole(
        &found,
        &whole(&Scanner::new(), mixed.as_bytes(), Mode::Text),
        "CSV then text",
    );
    // An mbox whose first message (an attachment) outruns segment 1.
    let message = "From a@b Mon Jan  1 00:00:00 2024\n\nsee http://a.org/\n\n";
    let mbox = format!(
        "From a@b Mon Jan  1 00:00:00 2024\n\n{}\n{}",
        base64,
        message.repeat(2000)
    );
    let segments = mail::message_segments(mbox.as_bytes(), mbox.len() as u64).segment_size(8000);
    assert!(segments.count() > 3 && segments.cuts().unwrap());
}

#[test]
fn adversarial_shapes_cut_anywhere_give_the_whole() {
    for case in gen::shapes(20_000) {
        let mut text = Vec::new();
        case.reader().read_to_end(&mut text).unwrap();
        let scanner = Scanner::new();
        let whole = whole(&scanner, &text, Mode::Text);
        for size in [1, 97, 4096] {
            let (found, _) = segmented(&scanner, &text, size, 1000, Mode::Text);
            common::assert_same_as_whole(&found, &whole, &format!("{} at {size}", case.name));
        }
    }
}

/// Lines of text with URIs, brackets, quotes, prefixes, page breaks and
/// mbox separators.
fn text() -> impl Strategy<Value = Vec<u8>> {
    common::text_of_tokens(&[
        b"\n\nFrom a@b Mon Jan  1 00:00:00 2024\n",
        b"\nFrom here\n",
        b"\n\r\nFrom ",
        b"Subject: x\n\n",
    ])
}

proptest! {
    #![proptest_config(Config {
        cases: 3_000,
        rng_seed: RngSeed::Fixed(0x7365_676d),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn segments_scanned_apart_give_the_whole(
        text in text(),
        size in 1u64..64,
        step in 1usize..40,
        mail in any::<bool>(),
    ) {
        let scanner = Scanner::new();
        let mode = if mail { Mode::Mail } else { Mode::Text };
        let mut text = text;
        if mail {
            text.splice(0..0, b"From a@b Mon Jan  1 00:00:00 2024\n".iter().copied());
        }
        let (found, _) = segmented(&scanner, &text, size, step, mode);
        prop_assert_eq!(found, whole(&scanner, &text, mode));
    }
}
