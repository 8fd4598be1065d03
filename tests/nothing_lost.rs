//! Nothing lost: over a large generated input whose URIs are known (text,
//! offsets, line and column), the scanner finds exactly those, through the
//! slice iterator, through `scan_reader` with random read sizes, and through
//! the binary; and `-j1` and `-jN` print the same bytes over
//! `../shared/corpus/`.
#![cfg(feature = "cli")]

mod common;

use std::io::{self, Read};

use common::{Dir, Rng, TestCommand};

use uriscan::{Found, Scanner};

/// What the generator put in, for one URI.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Known {
    uri: String,
    start: usize,
    end: usize,
    line: u64,
    column: u64,
}

impl Known {
    fn of(f: &Found<'_>) -> Known {
        Known {
            uri: f.as_str().to_owned(),
            start: f.span().start,
            end: f.span().end,
            line: f.line(),
            column: f.column(),
        }
    }
}

/// Builds about `size` bytes of text mixing URIs in every form the scanner
/// knows (bare, trimmed, bracketed, wrapped, `URL:`, quoted, mailto, CJK
/// around) with text that holds none, separated by spaces, LF, CRLF and
/// blank lines; returns it with the URIs it holds.
struct Gen {
    text: Vec<u8>,
    known: Vec<Known>,
    line: u64,
    line_start: usize,
}

impl Gen {
    fn put(&mut self, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.text.len() + i + 1;
            }
        }
        self.text.extend_from_slice(bytes);
    }

    /// Puts `parts` (the URI as written, possibly wrapped) and records that
    /// it reads as `uri`.
    fn uri(&mut self, parts: &[&str], uri: String) {
        let start = self.text.len();
        let (line, column) = (self.line, (start - self.line_start + 1) as u64);
        for p in parts {
            self.put(p.as_bytes());
        }
        let end = self.text.len();
        self.known.push(Known {
            uri,
            start,
            end,
            line,
            column,
        });
    }

    fn generate(size: usize, seed: u64) -> Gen {
        let mut g = Gen {
            text: Vec::with_capacity(size + 4096),
            known: Vec::new(),
            line: 1,
            line_start: 0,
        };
        let mut rng = Rng(seed);
        let mut i = 0u64;
        while g.text.len() < size {
            i += 1;
            let u = format!("http://n{i}.example/p/{}", rng.below(1 << 20));
            match rng.below(10) {
                0 => {
                    g.put(b"see ");
                    g.uri(&[&u], u.clone());
                    g.put(b" now");
                }
                1 => {
                    g.put(b"(");
                    g.uri(&[&u], u.clone());
                    g.put(b").");
                }
                2 => {
                    g.put(b"x <");
                    g.uri(&[&u], u.clone());
                    g.put(b"> y");
                }
                3 => {
                    let (a, b) = (format!("https://n{i}.example/"), format!("w/{i}"));
                    g.put(b"wrapped <");
                    g.uri(&[&a, "\n   ", &b], format!("{a}{b}"));
                    g.put(b">");
                }
                4 => {
                    g.put(b"<URL:");
                    g.uri(&[&u], u.clone());
                    g.put(b">");
                }
                5 => {
                    let q = format!("{u}.");
                    g.put(b"quoted \"");
                    g.uri(&[&q], q.clone());
                    g.put(b"\" ok");
                }
                6 => {
                    let m = format!("mailto:user{i}@n.example");
                    g.put(b"mail ");
                    g.uri(&[&m], m.clone());
                    g.put(b", ok");
                }
                7 => g.put(
                    format!("Re: 12:30 C:\\x key:value <u@e.org> <{i}@mid.example>").as_bytes(),
                ),
                8 => {
                    g.put("\u{3000}".as_bytes());
                    g.uri(&[&u], u.clone());
                    g.put("\u{3002}".as_bytes());
                }
                _ => {
                    let n = rng.below(400) as usize;
                    g.put(&b"a".repeat(n));
                }
            }
            let sep: &[u8] = match rng.below(5) {
                0 | 1 => b" ",
                2 => b"\n",
                3 => b"\r\n",
                _ => b"\n\n",
            };
            g.put(sep);
        }
        g
    }
}

/// A reader over a slice giving reads of pseudo-random sizes in `1..=max`.
struct Chunked<'a> {
    data: &'a [u8],
    max: u64,
    rng: Rng,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.rng.below(self.max) as usize)
            .min(buf.len())
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn stream(scanner: &Scanner, rdr: impl Read) -> Vec<Known> {
    let mut out = Vec::new();
    scanner
        .scan_reader(rdr, |f: &Found<'_>| {
            out.push(Known::of(f));
            Ok(true)
        })
        .unwrap();
    out
}

/// The first difference, for a readable failure on 300,000 items.
fn assert_same(got: &[Known], want: &[Known], what: &str) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: item {i} differs:\n got  {:?}\n want {:?}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{what}: count");
}

const SIZE: usize = 16 << 20;

#[test]
fn every_uri_is_found_whatever_the_read_sizes() {
    let g = Gen::generate(SIZE, 0x006e_6f74_6869_6e67);
    assert!(g.known.len() > 150_000, "{}", g.known.len());
    eprintln!("{} URIs in {} bytes", g.known.len(), g.text.len());
    let scanner = Scanner::new();
    let slice: Vec<Known> = scanner.find_iter(&g.text).map(|f| Known::of(&f)).collect();
    assert_same(&slice, &g.known, "find_iter");
    for (max, seed) in [(1 << 20, 1), (65_536, 2), (4096, 3), (300, 4)] {
        let rdr = Chunked {
            data: &g.text,
            max,
            rng: Rng(seed),
        };
        assert_same(
            &stream(&scanner, rdr),
            &g.known,
            &format!("reads up to {max}"),
        );
    }
    // Tiny reads over a prefix (every boundary of its first 256 KiB).
    let cut = g.known.iter().take_while(|k| k.end < 256 << 10).count();
    let prefix = &g.text[..g.known[cut].start];
    for (max, seed) in [(1, 5), (2, 6), (7, 7)] {
        let rdr = Chunked {
            data: prefix,
            max,
            rng: Rng(seed),
        };
        assert_same(
            &stream(&scanner, rdr),
            &g.known[..cut],
            &format!("reads up to {max}"),
        );
    }
}

#[test]
fn the_binary_prints_every_uri() {
    let g = Gen::generate(SIZE, 0x6269_6e61_7279);
    let o = TestCommand::new()
        .arg("--json")
        .stdin(g.text.clone())
        .assert_exit(0);
    let got: Vec<Known> = o
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).unwrap();
            Known {
                uri: v["uri"].as_str().unwrap().to_owned(),
                start: v["start"].as_u64().unwrap() as usize,
                end: v["end"].as_u64().unwrap() as usize,
                line: v["line"].as_u64().unwrap(),
                column: v["column"].as_u64().unwrap(),
            }
        })
        .collect();
    assert_same(&got, &g.known, "uriscan --json on stdin");
}

/// The same text cut into 97 files at arbitrary points, some inside URIs:
/// the URIs wholly inside one file are all printed, once, in order, with
/// any thread count.
#[test]
fn the_binary_loses_nothing_across_many_files() {
    let g = Gen::generate(4 << 20, 0x0066_696c_6573);
    let d = Dir::new();
    let mut cuts: Vec<usize> = (1..97).map(|k| k * g.text.len() / 97).collect();
    cuts.insert(0, 0);
    cuts.push(g.text.len());
    let mut want = Vec::new();
    for (n, w) in cuts.windows(2).enumerate() {
        d.create_bytes(format!("part{n:03}.txt"), &g.text[w[0]..w[1]]);
        // A URI cut by a file boundary may be lost or shortened: the
        // scanner sees two files. Count only URIs well inside one file.
        want.extend(
            g.known
                .iter()
                .filter(|k| k.start >= w[0] + 16 && k.end + 16 <= w[1])
                .map(|k| k.uri.clone()),
        );
    }
    let mut outputs = Vec::new();
    for j in ["-j1", "-j2", "-j7"] {
        let o = d.command().args([j, "--no-filename", "."]).assert_exit(0);
        let got: Vec<String> = String::from_utf8(o.stdout.clone())
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        // Every wanted URI is there, in order (boundary pieces may add some).
        let mut it = got.iter();
        for w in &want {
            assert!(it.any(|g| g == w), "{j}: {w} missing or out of order");
        }
        assert!(
            got.len() <= want.len() + 2 * 96,
            "{j}: {} printed",
            got.len()
        );
        outputs.push(o.stdout);
    }
    assert!(
        outputs.windows(2).all(|w| w[0] == w[1]),
        "thread counts differ"
    );
}

/// `-j1` and `-jN` print the same bytes over the real corpus, in every
/// output mode (`tests/cli.rs` covers `--json -j4`).
#[test]
fn threads_print_identical_bytes_over_the_corpus() {
    let Some(corpus) = common::shared("corpus") else {
        return;
    };
    let modes: [&[&str]; 3] = [
        &["-n", "--column"],
        &["-c"],
        &["-u", "--scheme", "http,https"],
    ];
    for mode in modes {
        let mut first: Option<Vec<u8>> = None;
        for j in ["-j1", "-j2", "-j3"] {
            let o = TestCommand::new()
                .arg(j)
                .args(mode)
                .arg(&corpus)
                .assert_exit(0);
            assert!(
                o.stdout.len() > 1000,
                "{j} {mode:?}: {} bytes",
                o.stdout.len()
            );
            match &first {
                None => first = Some(o.stdout),
                Some(f) => assert!(*f == o.stdout, "{j} {mode:?} differs from -j1"),
            }
        }
    }
}
