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
        CaseReader {
            case: self,
            segment: 0,
            done: 0,
        }
    }
}

/// Streams a [`Case`]; see [`Case::reader`].
#[derive(Debug)]
pub struct CaseReader<'c> {
    case: &'c Case,
    segment: usize,
    /// Bytes of the current segment already given.
    done: u64,
}

impl io::Read for CaseReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let Some((unit, len)) = self.case.segments.get(self.segment) else {
                break;
            };
            if self.done == *len {
                self.segment += 1;
                self.done = 0;
                continue;
            }
            let at = (self.done % unit.len() as u64) as usize;
            let take = (unit.len() - at)
                .min(buf.len() - n)
                .min((len - self.done) as usize);
            buf[n..n + take].copy_from_slice(&unit[at..at + take]);
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

/// Every case, at `scale` times the size the reliability issue names
/// (`1.0`: 100 MB of `<`, a 200 MB line, 1 GB of NUL, ...).
pub fn cases(scale: f64) -> Vec<Case> {
    let mb = |n: u64| ((n * MB) as f64 * scale) as u64;
    let utf16 = utf16le("Voir http://example.org/utf16 et <https://example.net/x>.\n");
    vec![
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
    ]
}
