//! Scanning an `io::Read` in bounded memory: a buffer that rolls over the
//! input (ripgrep's `LineBuffer::roll`), feeding the same core as the slice
//! iterator.

use std::io::{self, Read};

use super::core::{Core, Step, ToSink, Window, LOOKBACK, SLACK};
use super::json::{self, Placing, StreamDecoder};
use super::{Scanner, Sink};
use crate::source_map::SourceMap;

/// How many bytes one read asks for, at least.
const READ_SIZE: usize = 64 * 1024;

/// Scans everything `rdr` gives, in reads of `read_size` bytes (0 for the
/// default), with a buffer of at most
/// `LOOKBACK + max_candidate_len + SLACK + max(read_size, READ_SIZE)` bytes,
/// and 64 KiB more when it decodes JSON escapes (the line it holds back).
///
/// # Invariants
///
/// `buf[..end]` holds the input from absolute offset `offset`, its lines
/// read whole decoded as text (`text.held` bytes; see `json.rs`) and then
/// the line not yet read whole as it was read (of which the core is shown
/// what decoding leaves as it is, up to `text.shown`); it always holds the
/// [`LOOKBACK`] bytes before `state.pos` (or starts at offset 0), which is
/// what the core needs to decide like the slice iterator does (see
/// [`super::core`]), and the held line whole.
pub(crate) fn scan_reader<R: Read, S: Sink>(
    scanner: &Scanner,
    rdr: R,
    sink: S,
    read_size: usize,
) -> io::Result<()> {
    scan_reader_from(
        scanner,
        Resume::default(),
        rdr,
        sink,
        read_size,
        EndLine::NotNeeded,
    )
    .map(drop)
}

/// Whether a scan of a reader tells the line its input ends on, which
/// takes counting the line breaks after the last URI found: a segment
/// needs it (the next segment's lines count on from there), a whole input
/// does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndLine {
    Needed,
    NotNeeded,
}

/// Where a scan of a reader starts, when not at the start of its input:
/// the reader's first byte is at absolute offset `pos`, on line `line`
/// that starts at absolute offset `line_start`, and `before` holds the
/// input's bytes just before `pos` (at most [`LOOKBACK`] of them; fewer
/// only when the input starts there).
pub(crate) struct Resume<'a> {
    pub before: &'a [u8],
    pub pos: usize,
    pub line: u64,
    pub line_start: usize,
}

impl Default for Resume<'_> {
    /// The start of the input.
    fn default() -> Self {
        Resume {
            before: &[],
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }
}

/// [`scan_reader`] from where `resume` says; returns, when `end_line` says
/// so, the line the input ends on (where the scan stopped, when the sink
/// stopped it), else the line of the last URI found.
pub(crate) fn scan_reader_from<R: Read, S: Sink>(
    scanner: &Scanner,
    resume: Resume<'_>,
    rdr: R,
    sink: S,
    read_size: usize,
    end_line: EndLine,
) -> io::Result<u64> {
    debug_assert!(resume.before.len() <= LOOKBACK);
    // 0 asks for the default.
    let read_size = if read_size == 0 { READ_SIZE } else { read_size };
    let capacity = LOOKBACK
        + scanner.config.max_candidate_len
        + SLACK
        + read_size.max(READ_SIZE)
        + json::held_room(scanner.config.json_escapes);
    let mut buf = take_buffer(capacity);
    buf[..resume.before.len()].copy_from_slice(resume.before);
    let result = scan_with_buffer(scanner, resume, rdr, sink, read_size, end_line, &mut buf);
    give_back_buffer(buf);
    result
}

thread_local! {
    /// The roll buffer of the last scan on this thread, kept so that
    /// scanning many small files does not allocate and zero a buffer each.
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A zeroed buffer of `capacity` bytes, reusing this thread's spare one.
fn take_buffer(capacity: usize) -> Vec<u8> {
    let mut buf = SPARE.with(|spare| spare.take());
    if buf.len() != capacity {
        buf.clear();
        buf.resize(capacity, 0);
    }
    buf
}

fn give_back_buffer(buf: Vec<u8>) {
    SPARE.with(|spare| spare.set(buf));
}

/// The scan itself, over `buf` (of the capacity computed by
/// [`scan_reader_from`]), which starts with `resume.before`; the rest of
/// its old contents does not matter. Returns the line as
/// [`scan_reader_from`] does.
fn scan_with_buffer<R: Read, S: Sink>(
    scanner: &Scanner,
    resume: Resume<'_>,
    mut rdr: R,
    mut sink: S,
    read_size: usize,
    end_line: EndLine,
    buf: &mut [u8],
) -> io::Result<u64> {
    let capacity = buf.len();
    let mut end = resume.before.len();
    let mut offset = resume.pos - end;
    let mut eof = false;
    let mut core = Core::starting_at(scanner, resume.pos, resume.line, resume.line_start);
    // The core is shown `buf[..text.shown]`: with JSON escapes decoded in
    // the lines read whole, and the next line up to its first `\` (see
    // `json.rs`); what it finds is placed back by the sink.
    let mut text = StreamDecoder::new(scanner.config.json_escapes, end, resume.pos);
    let mut placing = Placing {
        sink: &mut sink,
        map: SourceMap::default(),
    };
    let mut report = ToSink(&mut placing);
    // The candidate the core waits on, if any: see the read loop below.
    let mut pending: Option<Pending> = None;
    loop {
        let win = Window {
            hay: &buf[..text.shown],
            offset,
            eof,
        };
        let need_more = match core.step(&win, &mut report)? {
            Step::Progress => continue,
            Step::Stopped => return Ok(core.lines.line()),
            Step::Exhausted if eof => {
                if end_line == EndLine::Needed {
                    core.lines.advance(&win, offset + text.shown);
                }
                return Ok(core.lines.line());
            }
            Step::Exhausted => false,
            Step::NeedMore => true,
        };
        // Roll: keep the LOOKBACK bytes before `pos`, then read more.
        // The line held back is kept whole: it is decoded from its start.
        let keep_from = (core.pos - offset).saturating_sub(LOOKBACK).min(text.held);
        core.lines.advance(&win, offset + keep_from);
        if keep_from > 0 {
            buf.copy_within(keep_from..end, 0);
        }
        offset += keep_from;
        end -= keep_from;
        text.rolled(keep_from);
        // A find from now on starts in the buffer, and its column is
        // counted from its line's start, which may lie before it (every
        // later find's line starts there or in the buffer).
        report
            .0
            .map
            .forget_before_but(offset, core.lines.line_start);
        // INVARIANT: the core never asks for more than LOOKBACK +
        // max_candidate_len + SLACK bytes around `pos`, so after a roll
        // there is room to read.
        debug_assert!(end < capacity, "the roll buffer is full");
        pending = if need_more {
            Some(Pending::after(pending, core.pos, offset + text.shown))
        } else {
            None
        };
        loop {
            if !report.0.before_read()? {
                return Ok(core.lines.line());
            }
            let want = (end + read_size).min(capacity);
            let n = match read_retrying(&mut rdr, &mut buf[end..want]) {
                Ok(n) => n,
                Err(err) => {
                    // Deliver what the bytes already read decide, then fail.
                    let win = Window {
                        hay: &buf[..text.shown],
                        offset,
                        eof: false,
                    };
                    loop {
                        match core.step(&win, &mut report)? {
                            Step::Progress => continue,
                            Step::Stopped => return Ok(core.lines.line()),
                            _ => return Err(err),
                        }
                    }
                }
            };
            let full = end + n == want;
            let line_break = memchr::memchr(b'\n', &buf[end..end + n]).is_some();
            eof = n == 0;
            end = text.decode(buf, end, end + n, eof, offset, &mut report.0.map);
            let step = match &mut pending {
                None => true,
                Some(p) => p.step_after(offset + text.shown, full, line_break),
            };
            if eof || end == capacity || step {
                break;
            }
        }
    }
}

/// The candidate at `pos` that the core needs more bytes to decide, and
/// when the stream driver steps again to let it try.
///
/// It steps again once the buffer holds twice the bytes it held from
/// `pos` when it last stepped on schedule (at least one more), so the
/// windows a candidate is measured over (and copied in the roll) at least
/// double, and cost together at most twice the last, whatever the read
/// sizes. Between two such steps it steps once early, after a short read
/// (the reader has no more at once: a pipe, a terminal, so the next read
/// may wait) that brings a line break (a log line's end, the next line of
/// a URI wrapped in `<...>` or at a line-end `-`), so that what such a
/// read decides is not held back: at most one more measure per doubling,
/// so all of them cost at most four times the last.
#[derive(Debug)]
struct Pending {
    pos: usize,
    /// The absolute offset the buffer must reach to step on schedule.
    due: usize,
    /// An early step was taken since the last on schedule.
    early: bool,
}

impl Pending {
    /// The state after the core answered `NeedMore` at `pos` with the
    /// input read up to absolute offset `end`, `before` being the state of
    /// the step that answered.
    fn after(before: Option<Pending>, pos: usize, end: usize) -> Pending {
        match before {
            // An early step (one before its due) did not decide it: the
            // schedule stands.
            Some(p) if p.pos == pos && end < p.due => p,
            _ => Pending {
                pos,
                due: end + (end - pos).max(1),
                early: false,
            },
        }
    }

    /// Whether to step again, the buffer now reaching absolute offset
    /// `end` after a read, which brought a line break when `line_break`,
    /// `full` if it filled all the room it was given.
    fn step_after(&mut self, end: usize, full: bool, line_break: bool) -> bool {
        if end >= self.due {
            return true;
        }
        if !full && !self.early && line_break {
            self.early = true;
            return true;
        }
        false
    }
}

/// Reads once, retrying on `Interrupted`.
pub(crate) fn read_retrying<R: Read>(rdr: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match rdr.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read};

    use crate::{Found, Scanner, Sink};

    /// A pipe's reader: each read gives what one write put in (shorter
    /// than the room it is given), then the end.
    struct Writes<'a>(std::slice::Iter<'a, &'a str>);

    impl Read for Writes<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(write) = self.0.next() else {
                return Ok(0);
            };
            assert!(write.len() < buf.len(), "a write the test means to fit");
            buf[..write.len()].copy_from_slice(write.as_bytes());
            Ok(write.len())
        }
    }

    /// The URIs found, and how many there were before each read.
    #[derive(Default)]
    struct Watch {
        found: Vec<String>,
        before_reads: Vec<usize>,
    }

    impl Sink for &mut Watch {
        fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
            self.found.push(found.as_str().to_string());
            Ok(true)
        }

        fn before_read(&mut self) -> io::Result<bool> {
            self.before_reads.push(self.found.len());
            Ok(true)
        }
    }

    /// What a stream's writes decide is given before the next read, which
    /// on a pipe would wait for the next write: a line's URIs as soon as
    /// the line is in, a URI cut by a write once its end is, a URI wrapped
    /// in `<...>` or at a line-end `-` once the line that ends it is.
    #[test]
    fn what_the_bytes_read_decide_is_given_before_the_next_read() {
        // Each write, and how many URIs have been given once it is read.
        let writes = [
            ("see http://a.example/ now\n", 1),
            ("GET /x HTTP/1.1 200 https://b.example/p?q=1\n", 2),
            ("cut http://c.exa", 2),
            ("mple/d and then\n", 3),
            ("wrapped <http://d.example/long-\n", 3),
            ("  path> and last mailto:e@f.example\n", 5),
            ("a bare http://g.example/over-\n", 5),
            ("the-line end\n", 6),
            // The next line's first word decides, before the line is whole
            // (a black-box review found it held until then).
            ("a bare http://h.example/x-\n", 6),
            ("not a continuation", 7),
            (" end\n", 7),
            // A JSON line is decoded once it is whole.
            ("{\"u\":\"https:\\/\\/j.ex", 7),
            ("ample\\/?a=1\\u0026b=2\"}\n", 8),
        ];
        let scanner = Scanner::new();
        let text: Vec<&str> = writes.iter().map(|w| w.0).collect();
        let mut watch = Watch::default();
        scanner
            .scan_reader(Writes(text.iter()), &mut watch)
            .unwrap();
        assert_eq!(
            watch.found,
            scanner
                .find_iter(text.concat().as_bytes())
                .map(|f| f.as_str().to_string())
                .collect::<Vec<_>>()
        );
        assert_eq!(watch.found.len(), 8, "{:?}", watch.found);
        assert_eq!(watch.found[7], "https://j.example/?a=1&b=2");
        // Before the first read, none; before each read after, what the
        // writes read so far give.
        let expected: Vec<usize> = std::iter::once(0)
            .chain(writes.iter().map(|w| w.1))
            .collect();
        assert_eq!(watch.before_reads, expected);
    }

    /// A read that fills all the room it was given, after the core asked
    /// for more, is looked at before the next read, which may wait: a
    /// burst from a pipe, then nothing for a while.
    #[test]
    fn what_a_full_read_decides_is_given_before_the_next_read() {
        /// One short read that ends inside a URI, one that fills the
        /// room with its end and whole lines, then the end.
        struct Burst {
            reads: usize,
            lines: usize,
        }
        impl Read for Burst {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.reads += 1;
                let text: Vec<u8> = match self.reads {
                    1 => b"see http://a.example/lo".to_vec(),
                    2 => {
                        let line = b"then http://c.example/ \n";
                        let mut text = b"ng \n".to_vec();
                        while text.len() + line.len() <= buf.len() {
                            text.extend_from_slice(line);
                            self.lines += 1;
                        }
                        text.resize(buf.len(), b' ');
                        text
                    }
                    _ => Vec::new(),
                };
                buf[..text.len()].copy_from_slice(&text);
                Ok(text.len())
            }
        }
        let mut burst = Burst { reads: 0, lines: 0 };
        let mut watch = Watch::default();
        Scanner::new().scan_reader(&mut burst, &mut watch).unwrap();
        assert!(burst.lines > 1000, "{} lines", burst.lines);
        assert_eq!(watch.found.len(), 1 + burst.lines);
        assert_eq!(watch.before_reads, [0, 0, 1 + burst.lines]);
    }

    /// A sink that stops at a read ends the scan there.
    #[test]
    fn a_sink_that_stops_before_a_read_ends_the_scan() {
        struct StopAtSecond(usize, Vec<String>);
        impl Sink for &mut StopAtSecond {
            fn found(&mut self, found: &Found<'_>) -> io::Result<bool> {
                self.1.push(found.as_str().to_string());
                Ok(true)
            }
            fn before_read(&mut self) -> io::Result<bool> {
                self.0 += 1;
                Ok(self.0 < 3)
            }
        }
        let writes = [
            "http://a.example/\n",
            "http://b.example/\n",
            "http://c.example/\n",
        ];
        let mut sink = StopAtSecond(0, Vec::new());
        Scanner::new()
            .scan_reader(Writes(writes.iter()), &mut sink)
            .unwrap();
        assert_eq!(sink.1, ["http://a.example/", "http://b.example/"]);
    }
}
