//! Adversarial inputs for the scanner, generated on the fly.
//!
//! Each [`Case`] is a list of segments, each a short unit repeated up to a
//! byte length; [`Case::reader`] streams it through `io::Read` without ever
//! holding more than one unit, so a 1 GB input costs no memory. Shared by
//! `examples/hostile` (time and peak RSS, by hand or `benches/hostile.sh`)
//! and `tests/hostile.rs` (the same inputs, scaled down, in CI).

use std::io;

const MB: u64 = 1_000_000;

/// How many URIs a case must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Exactly this many, at full size; scaled cases are built so that the
    /// count follows from the segments (see [`Case::expected`]).
    PerUnit {
        /// Index of the segment whose units each hold `per` URIs.
        segment: usize,
        /// URIs per unit.
        per: u64,
    },
    /// None at all.
    Nothing,
    /// Any number: the input holds one giant candidate (or text in an
    /// encoding the scanner does not read); only time and memory are checked.
    Any,
}

/// One adversarial input.
#[derive(Clone, Debug)]
pub struct Case {
    /// Short name, used on the command line and in reports.
    pub name: &'static str,
    /// What the input is, for the report.
    pub what: &'static str,
    /// `(unit, length in bytes)`: the unit repeated until `length` bytes
    /// (the last repetition cut short if needed).
    pub segments: Vec<(Vec<u8>, u64)>,
    /// What the scanner must find.
    pub expect: Expect,
}

impl Case {
    /// Total length in bytes.
    pub fn size(&self) -> u64 {
        self.segments.iter().map(|(_, n)| n).sum()
    }

    /// The number of URIs this case must give, when [`Expect`] fixes it.
    pub fn expected(&self) -> Option<u64> {
        match self.expect {
            Expect::PerUnit { segment, per } => {
                let (unit, n) = &self.segments[segment];
                Some(n / unit.len() as u64 * per)
            }
            Expect::Nothing => Some(0),
            Expect::Any => None,
        }
    }

    /// Streams the input.
    pub fn reader(&self) -> CaseReader<'_> {
        // Each unit repeated to at least 64 KiB, so that a read copies big
        // blocks even when the unit is one byte (the generator must not be
        // what is measured).
        let blocks = self
            .segments
            .iter()
            .map(|(unit, _)| unit.repeat((64 << 10) / unit.len() + 1))
            .collect();
        CaseReader {
            case: self,
            blocks,
            segment: 0,
            done: 0,
        }
    }
}

/// Streams a [`Case`]; see [`Case::reader`].
#[derive(Debug)]
pub struct CaseReader<'c> {
    case: &'c Case,
    /// Per segment, its unit repeated a whole number of times.
    blocks: Vec<Vec<u8>>,
    segment: usize,
    /// Bytes of the current segment already given.
    done: u64,
}

impl io::Read for CaseReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let Some((_, len)) = self.case.segments.get(self.segment) else {
                break;
            };
            if self.done == *len {
                self.segment += 1;
                self.done = 0;
                continue;
            }
            let block = &self.blocks[self.segment];
            let at = (self.done % block.len() as u64) as usize;
            let take = (block.len() - at)
                .min(buf.len() - n)
                .min((len - self.done) as usize);
            buf[n..n + take].copy_from_slice(&block[at..at + take]);
            n += take;
            self.done += take as u64;
        }
        Ok(n)
    }
}

fn seg(unit: &[u8], len: u64) -> (Vec<u8>, u64) {
    (unit.to_vec(), len)
}

/// As [`seg`], rounded down to whole units, so that the count is exact.
fn whole(unit: &[u8], len: u64) -> (Vec<u8>, u64) {
    let n = unit.len() as u64;
    (unit.to_vec(), len / n * n)
}

/// Mixed line ends around bare, angle-bracketed and wrapped URIs: 4 URIs
/// per unit (`http://crlf.example/a`, `http://cr.example/b`,
/// `http://lone-cr.example/c`, `http://mixed.example/cd`). A lone CR ends a
/// bare URI but is not a line break (the scanner's documented reading), so
/// the wrapped one is wrapped with CRLF and LF.
const LINE_ENDS: &[u8] = b"see http://crlf.example/a\r\nthen <http://cr.example/b>\rand \
    http://lone-cr.example/c\rnext <http://\r\n mixed.example/\r\n c\n d>\n\r\n";

/// `text` in UTF-16LE with a byte-order mark.
fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        out.extend_from_slice(&u.to_le_bytes());
    }
    out
}

/// The shapes made to defeat linear time, each a unit repeated to `len`
/// bytes: runs of brackets, quotes and punctuation after a URI, glued URI
/// runs that end in a byte the parser rejects, long words before `:`,
/// deep and mixed quote prefixes, unclosed brackets and quotes, hyphen
/// breaks, line continuations, `URL:` runs, page breaks that hold
/// brackets of their own.
pub fn shapes(len: u64) -> Vec<Case> {
    let glued = |unit: &str, n: usize, end: &str| unit.repeat(n) + end;
    let quoted = "> >> ".repeat(20);
    let per_unit = |per| Expect::PerUnit { segment: 0, per };
    let shape = |name, what, unit: String, expect| Case {
        name,
        what,
        segments: vec![whole(unit.as_bytes(), len)],
        expect,
    };
    vec![
        shape(
            "close-parens",
            "`http://a/` then 60,000 `)`",
            format!("see http://a/{}\n", ")".repeat(60_000)),
            per_unit(1),
        ),
        shape(
            "dot-parens",
            "`http://a/` then `.)` x 30,000",
            format!("http://a/{}\n", ".)".repeat(30_000)),
            per_unit(1),
        ),
        shape(
            "glued-bracket",
            "`http://a/` x 7,000 then `[x ` (markup's `[` and what follows it are trimmed: one URI)",
            glued("http://a/", 7_000, "[x "),
            per_unit(1),
        ),
        shape(
            "hash-fragment",
            "`http://a/#` and 2,000 `#`, then a space (each `#` past the first is read as `%23`: one URI)",
            glued("http://a/#", 1, &"#".repeat(2_000)) + " ",
            per_unit(1),
        ),
        shape(
            "query-brackets",
            "`http://a/?q[]=1&` and 2,000 `a[]=1&`, then a space (a query's brackets are read as `%5B`, `%5D`: one URI)",
            glued("http://a/?q[]=1&", 1, &"a[]=1&".repeat(2_000)) + " ",
            per_unit(1),
        ),
        shape(
            "glued-open-square",
            "`http://a/[` x 7,000 then `] `",
            glued("http://a/[", 7_000, "] "),
            Expect::Nothing,
        ),
        shape(
            "close-open",
            "`http://a/)(` glued, each cut at its `)`",
            "http://a/)(".to_string(),
            per_unit(1),
        ),
        shape(
            "glued-quotes",
            "`http://a/'` x 7,000 then `[x `",
            glued("http://a/'", 7_000, "[x "),
            Expect::Nothing,
        ),
        shape(
            "glued-percent",
            "`http://a/` x 7,000 then `%zz `",
            glued("http://a/", 7_000, "%zz "),
            Expect::Nothing,
        ),
        shape(
            "glued-hash",
            "`http://a/#` x 6,000 then a space",
            glued("http://a/#", 6_000, " "),
            per_unit(1),
        ),
        shape(
            "glued-ipv6",
            "`http://[::` x 6,000 then a space",
            glued("http://[::", 6_000, " "),
            Expect::Nothing,
        ),
        shape(
            "glued-mailto",
            "`mailto:a.` x 7,000 (no `@`) then a space",
            glued("mailto:a.", 7_000, " "),
            Expect::Nothing,
        ),
        shape(
            "long-word",
            "60,000 letters, then `.http://x/`",
            format!("{}.http://x/ ", "a".repeat(60_000)),
            per_unit(1),
        ),
        shape(
            "quote-prefix",
            "a URI wrapped under a quote prefix 60 deep, mixed `> >>`",
            format!("{quoted}see <http://a.org/b/\n{quoted}c/d>\n"),
            per_unit(1),
        ),
        shape(
            "unclosed-angle",
            "`<http://a/b/` lines, never closed",
            "<http://a/b/\n".to_string(),
            per_unit(1),
        ),
        shape(
            "unclosed-quote",
            "`\"http://a/b` words, never closed",
            "\"http://a/b ".to_string(),
            per_unit(1),
        ),
        shape(
            "hyphen-breaks",
            "`<http://a/b-` wrapped over hyphen breaks",
            "<http://a/b-\n c-\n d>\n".to_string(),
            per_unit(1),
        ),
        shape(
            "quoted-hyphens",
            "`\"http://a/b-` wrapped over hyphen breaks to a `\"`",
            "\"http://a/b-\n c-\n d\"\n".to_string(),
            per_unit(1),
        ),
        shape(
            "quoted-hyphen-open",
            "`\"http://a/b-` then a line of prose, never closed",
            "\"http://a/b-\nnot a uri\n".to_string(),
            per_unit(1),
        ),
        shape(
            "bare-hyphens",
            "`http://a/b-` and the rest of it on the next line",
            "see http://a/b-\nc/d.html\n".to_string(),
            per_unit(1),
        ),
        shape(
            "line-continuations",
            "`http://a/b\\` continued over two lines that end in `\\`",
            "see http://a/b\\\nc/d\\\n  e.html\n".to_string(),
            per_unit(1),
        ),
        shape(
            "quoted-continuations",
            "`\"http://a/b\\` continued over lines that end in `\\` to a `\"`",
            "\"http://a/b\\\n c\\\n d\"\n".to_string(),
            per_unit(1),
        ),
        shape(
            "failing-continuations",
            "`http://a/%zz\\` and a continuation line, never a URI",
            "http://a/%zz\\\nc/d\\\n".to_string(),
            Expect::Nothing,
        ),
        shape(
            "quoted-angle-continuations",
            "`\"<http://a/%zz\\` and an indented continuation line, read three ways",
            "\"<http://a/%zz\\\n  x/y\\\n".to_string(),
            Expect::Nothing,
        ),
        shape(
            "prefixed-continuations",
            "the same in a mail reply, `> \"<http://a/%zz\\` and `>   x/y\\`",
            "> \"<http://a/%zz\\\n>   x/y\\\n".to_string(),
            Expect::Nothing,
        ),
        shape(
            "glued-iri",
            "`http://ü.de/東` x 3,000 then `%zz `: one run of IRIs, each failing",
            glued("http://ü.de/東", 3_000, "%zz "),
            Expect::Nothing,
        ),
        shape(
            "glued-iri-whole",
            "`http://ü.de/東` x 3,000 then a space: one IRI, not a URI with --iri off",
            glued("http://ü.de/東", 3_000, " "),
            per_unit(1),
        ),
        shape(
            "glued-iri-port",
            "`http://a:1ü/` x 4,000 (a port with a letter) then a space",
            glued("http://a:1ü/", 4_000, " "),
            Expect::Nothing,
        ),
        shape(
            "japanese-text",
            "Japanese prose with an IRI, a URI and full-width punctuation",
            "見て http://例え.jp/パス。詳細はhttps://ja.wikipedia.org/wiki/東京を参照（http://x.org/）、\n"
                .to_string(),
            per_unit(3),
        ),
        shape(
            "url-runs",
            "`URL:` x 10,000 then a URI",
            glued("URL:", 10_000, "http://a/ <URL:URL:http://b/>\n"),
            per_unit(2),
        ),
        shape(
            "nested-delimiters",
            "`([{\"<` x 10,000 around a URI",
            glued("([{\"<", 10_000, "http://a/") + &">\"}])".repeat(10_000) + "\n",
            per_unit(1),
        ),
        shape(
            "json-escapes",
            "a JSON line whose URI is `\\/` x 20,000",
            format!("{{\"u\":\"http:\\/\\/a{}\"}}\n", "\\/".repeat(20_000)),
            per_unit(1),
        ),
        shape(
            "json-unended",
            "a JSON line of `\\/` x 30,000 whose string never ends",
            format!("{{\"u\":\"http:{}\n", "\\/".repeat(30_000)),
            Expect::Nothing,
        ),
        shape(
            "page-breaks",
            "a wrapped `<` across a page break whose footer holds a `<`",
            "<http://a/\n\n\nfooter <http://x/\n\x0c\nheader\n  b/\n\nnot a page break\n"
                .to_string(),
            per_unit(2),
        ),
    ]
}

/// Every case, at `scale` times the size the reliability issue names
/// (`1.0`: 100 MB of `<`, a 200 MB line, 1 GB of NUL, ...), then the
/// [`shapes`] at 20 MB each.
pub fn cases(scale: f64) -> Vec<Case> {
    let mb = |n: u64| ((n * MB) as f64 * scale) as u64;
    let utf16 = utf16le("Voir http://example.org/utf16 et <https://example.net/x>.\n");
    let mut cases = vec![
        Case {
            name: "lt",
            what: "100 MB of `<`",
            segments: vec![seg(b"<", mb(100))],
            expect: Expect::Nothing,
        },
        Case {
            name: "open-angle",
            what: "100 MB of `<http://a/` (never closed)",
            segments: vec![seg(b"<http://a/", mb(100))],
            expect: Expect::Any,
        },
        Case {
            name: "long-line",
            what: "one 200 MB line: `http://a/` then `a`s",
            segments: vec![seg(b"http://a/", 9), seg(b"a", mb(200))],
            expect: Expect::Any,
        },
        Case {
            name: "parens",
            what: "100 MB of `(`",
            segments: vec![seg(b"(", mb(100))],
            expect: Expect::Nothing,
        },
        Case {
            name: "colons",
            what: "100 MB of `:`",
            segments: vec![seg(b":", mb(100))],
            expect: Expect::Nothing,
        },
        Case {
            name: "schemes",
            what: "100 MB of `http://`",
            segments: vec![seg(b"http://", mb(100))],
            expect: Expect::Any,
        },
        Case {
            name: "percents",
            what: "100 MB of `%`",
            segments: vec![seg(b"%", mb(100))],
            expect: Expect::Nothing,
        },
        Case {
            name: "ipv6-run",
            what: "`<http://` + 50 MB of `[::` + `>`",
            segments: vec![seg(b"<http://", 8), seg(b"[::", mb(50)), seg(b">", 1)],
            expect: Expect::Nothing,
        },
        Case {
            name: "nested-angles",
            what: "50 MB of `<` then 50 MB of `>`",
            segments: vec![seg(b"<", mb(50)), seg(b">", mb(50))],
            expect: Expect::Nothing,
        },
        Case {
            name: "tiny-uris",
            what: "100 MB line of `http://a ` (11 M URIs)",
            segments: vec![whole(b"http://a ", mb(100))],
            expect: Expect::PerUnit { segment: 0, per: 1 },
        },
        Case {
            name: "nul",
            what: "1 GB of NUL",
            segments: vec![seg(b"\0", mb(1000))],
            expect: Expect::Nothing,
        },
        Case {
            name: "line-ends",
            what: "100 MB of CRLF, CR, LF mixed around URIs",
            segments: vec![whole(LINE_ENDS, mb(100))],
            expect: Expect::PerUnit { segment: 0, per: 4 },
        },
        Case {
            name: "utf16",
            what: "100 MB of UTF-16LE text with URIs",
            segments: vec![seg(&utf16, mb(100))],
            expect: Expect::Any,
        },
    ];
    cases.extend(shapes(mb(20)));
    cases
}
