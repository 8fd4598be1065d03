//! One large input cut into chunks that can be scanned in parallel, each
//! on its own, with exactly the results of one scan over the whole.
//!
//! Chunks end at *safe cuts* ([`super::cut`]): a line break after which no
//! scan from before can reach, and where a scan that starts fresh stands
//! exactly where the scan of the whole stands. Each chunk carries the
//! [`LOOKBACK`] bytes before its first byte (what the core looks back
//! into) and the line it starts on, so it is scanned with
//! [`Chunk::scan`] on any thread, in any order; its URIs, in chunk order,
//! are those of [`Scanner::scan_reader`] over the input.
//!
//! Text without a safe cut for long (one line of many megabytes, an
//! unclosed `<` over every line) cannot be cut: when no safe cut is found
//! within [`MAX_SEARCH`] bytes past a chunk's target size, the iterator
//! ends, and [`Chunks::into_rest`] gives the rest of the input, from the
//! end of the last chunk, to scan in one stream. Memory stays bounded by
//! the target size plus [`MAX_SEARCH`] either way.

use std::io::{self, Read};

use super::core::{Core, Window, LOOKBACK};
use super::cut::{is_safe_cut, line_cuts};
use super::stream::{scan_reader_from, EndLine, Resume};
use super::{Scanner, Sink};

/// The size a chunk is cut at, at least, by default.
pub const DEFAULT_CHUNK_SIZE: usize = 1 << 20;

/// How far past a chunk's target size a safe cut is looked for before the
/// input is given up on as not cuttable ([`Chunks::into_rest`]).
pub const MAX_SEARCH: usize = 8 << 20;

/// How many bytes one read asks for.
const READ_SIZE: usize = 256 * 1024;

/// An iterator over the chunks of an input, each ending at a line break
/// no URI crosses, where a fresh scan stands where the scan of the whole
/// does: the URIs of the chunks, each scanned with [`Chunk::scan`] on any
/// thread, in chunk order, are those of [`Scanner::scan_reader`] over the
/// input. When no such line break comes within 8 MiB past a chunk's
/// target size, the iterator ends and [`Chunks::into_rest`] gives the rest
/// of the input, to scan in one stream.
pub struct Chunks<R> {
    rdr: R,
    /// The input from absolute offset `offset`: the [`LOOKBACK`] bytes
    /// before `start` (or all since the input's start), then what is not
    /// yet in a chunk.
    buf: Vec<u8>,
    offset: usize,
    /// Where the next chunk starts, in `buf`.
    start: usize,
    /// The line of `buf[start]`, and the absolute offset where it starts.
    line: u64,
    line_start: usize,
    /// Where the search for a safe cut goes on from, in `buf`.
    searched: usize,
    target: usize,
    max_search: usize,
    eof: bool,
    /// True when no safe cut was found: the rest is [`Chunks::into_rest`].
    stuck: bool,
}

/// A part of the input, ending at a safe cut or at the input's end.
#[derive(Debug)]
pub struct Chunk {
    /// The [`LOOKBACK`] bytes before the chunk (fewer at the input's
    /// start), then the chunk.
    bytes: Vec<u8>,
    /// How many bytes of `bytes` come before the chunk.
    lead: usize,
    /// The absolute offset of `bytes[0]`.
    offset: usize,
    line: u64,
    line_start: usize,
}

/// The rest of an input that could not be cut: see [`Chunks::into_rest`].
pub struct Rest<R> {
    /// As [`Chunks::buf`], from the rest's first byte on.
    buf: Vec<u8>,
    lead: usize,
    offset: usize,
    line: u64,
    line_start: usize,
    rdr: R,
}

impl<R: Read> Chunks<R> {
    /// Chunks of `rdr`, of [`DEFAULT_CHUNK_SIZE`] bytes at least.
    pub fn new(rdr: R) -> Chunks<R> {
        Chunks::with_prefix(Vec::new(), rdr)
    }

    /// Chunks of an input whose first bytes were already read (`prefix`)
    /// and whose rest is `rdr`.
    pub fn with_prefix(prefix: Vec<u8>, rdr: R) -> Chunks<R> {
        Chunks {
            rdr,
            buf: prefix,
            offset: 0,
            start: 0,
            line: 1,
            line_start: 0,
            searched: 0,
            target: DEFAULT_CHUNK_SIZE,
            max_search: MAX_SEARCH,
            eof: false,
            stuck: false,
        }
    }

    /// Sets the size a chunk is cut at, at least (1 byte at least).
    pub fn chunk_size(mut self, bytes: usize) -> Chunks<R> {
        self.target = bytes.max(1);
        self
    }

    /// Sets how far past a chunk's target size a safe cut is looked for.
    #[doc(hidden)]
    pub fn max_search(mut self, bytes: usize) -> Chunks<R> {
        self.max_search = bytes;
        self
    }

    /// The rest of the input when the iterator ended for want of a safe
    /// cut; `None` when it ended with the input (or an error).
    pub fn into_rest(self) -> Option<Rest<R>> {
        let lead = self.start.min(LOOKBACK);
        self.stuck.then(|| Rest {
            buf: self.buf[self.start - lead..].to_vec(),
            lead,
            offset: self.offset + self.start - lead,
            line: self.line,
            line_start: self.line_start,
            rdr: self.rdr,
        })
    }

    /// Reads up to [`READ_SIZE`] bytes more into `buf` (into its spare
    /// room, not zeroed first); sets `eof` at the input's end.
    fn fill(&mut self) -> io::Result<()> {
        let n = (&mut self.rdr)
            .take(READ_SIZE as u64)
            .read_to_end(&mut self.buf)?;
        self.eof |= n == 0;
        Ok(())
    }

    /// The end of the next chunk, in `buf`: the first safe cut at or past
    /// its target size, or the input's end. `None` when there is none
    /// within the search's reach.
    fn next_cut(&mut self) -> io::Result<Option<usize>> {
        let from = self.start + self.target;
        while self.buf.len() < from && !self.eof {
            self.fill()?;
        }
        if self.eof && self.buf.len() <= from {
            return Ok(Some(self.buf.len())); // the input ended first
        }
        self.searched = self.searched.max(from);
        loop {
            if let Some(cut) = find_safe_cut(&self.buf, self.searched, self.offset == 0) {
                return Ok(Some(cut));
            }
            // A cut is judged by the lines before it only: the line breaks
            // looked at are judged for good.
            self.searched = self.buf.len();
            if self.eof {
                return Ok(Some(self.buf.len()));
            }
            if self.buf.len() - self.start > self.target + self.max_search {
                return Ok(None);
            }
            self.fill()?;
        }
    }
}

/// The first safe cut of `buf` after a line break at or past `from`,
/// judged only where the two lines before it lie whole in `buf` (or
/// `buf` starts with the input, `at_input_start`).
fn find_safe_cut(buf: &[u8], from: usize, at_input_start: bool) -> Option<usize> {
    line_cuts(buf, from).find(|&at| {
        // The line break ending the line before the last one, then the
        // one before that: the hay starts at a line's start.
        let Some(before_end) = memchr::memrchr(b'\n', &buf[..at - 1]) else {
            return at_input_start && is_safe_cut(buf, at);
        };
        match memchr::memrchr(b'\n', &buf[..before_end]) {
            Some(nl) => is_safe_cut(&buf[nl + 1..], at - nl - 1),
            None => at_input_start && is_safe_cut(buf, at),
        }
    })
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        if self.stuck || (self.eof && self.start == self.buf.len()) {
            return None;
        }
        let cut = match self.next_cut() {
            Ok(Some(cut)) => cut,
            Ok(None) => {
                self.stuck = true;
                return None;
            }
            Err(err) => {
                self.eof = true;
                self.start = self.buf.len();
                return Some(Err(err));
            }
        };
        if cut == self.start {
            return None; // the input ended where the last chunk did
        }
        let lead = self.start.min(LOOKBACK);
        let (line, line_start) = (self.line, self.line_start);
        let text = &self.buf[self.start..cut];
        self.line += memchr::memchr_iter(b'\n', text).count() as u64;
        if let Some(nl) = memchr::memrchr(b'\n', text) {
            self.line_start = self.offset + self.start + nl + 1;
        }
        // The next buffer: the LOOKBACK bytes before the next chunk, and
        // what was read past the cut. The chunk keeps this one, whose
        // first bytes are its lead (`start - lead` is 0 after the first
        // chunk), so the input is copied once, by the read.
        let keep = cut - cut.min(LOOKBACK);
        let mut next = Vec::with_capacity(self.target + 2 * READ_SIZE);
        next.extend_from_slice(&self.buf[keep..]);
        let mut bytes = std::mem::replace(&mut self.buf, next);
        bytes.truncate(cut);
        bytes.drain(..self.start - lead);
        let chunk = Chunk {
            bytes,
            lead,
            offset: self.offset + self.start - lead,
            line,
            line_start,
        };
        self.offset += keep;
        self.start = cut - keep;
        self.searched = self.start;
        Some(Ok(chunk))
    }
}

impl Chunk {
    /// The chunk's bytes (without the bytes before it).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[self.lead..]
    }

    /// The absolute offset of the chunk's first byte in the input.
    pub fn offset(&self) -> usize {
        self.offset + self.lead
    }

    /// Scans the chunk, calling `sink` as [`Scanner::scan_slice`] does;
    /// spans, lines and columns are those of the whole input.
    ///
    /// # Errors
    ///
    /// The first error `sink` returns.
    pub fn scan<S: Sink>(&self, scanner: &Scanner, mut sink: S) -> io::Result<()> {
        let win = Window {
            hay: &self.bytes,
            offset: self.offset,
            eof: true,
        };
        let mut core = Core::starting_at(scanner, self.offset(), self.line, self.line_start);
        scanner.scan_window(&win, &mut core, &mut sink).map(drop)
    }
}

impl<R: Read> Rest<R> {
    /// Scans the rest of the input in one stream, as
    /// [`Scanner::scan_reader`] does; positions are those of the input.
    ///
    /// # Errors
    ///
    /// A read error, or the first error `sink` returns.
    pub fn scan<S: Sink>(self, scanner: &Scanner, sink: S) -> io::Result<()> {
        let resume = Resume {
            before: &self.buf[..self.lead],
            pos: self.offset + self.lead,
            line: self.line,
            line_start: self.line_start,
        };
        let rdr = io::Cursor::new(&self.buf[self.lead..]).chain(self.rdr);
        scan_reader_from(scanner, resume, rdr, sink, 0, EndLine::NotNeeded).map(drop)
    }
}
