//! A seekable input cut into segments that threads find and scan on their own:
//! no thread reads the input ahead of the others, and no segment waits for the
//! one before it.
//!
//! Segment `k` of an input cut every `size` bytes starts at the *boundary* of
//! `k × size`: the first boundary at or after that offset, where a boundary
//! is a safe cut ([`super::cut`]) for text, a message's start for an mbox.
//! Whether an offset is a boundary is decided by the bytes around it only,
//! never by where a read started, so the thread that scans segment `k` and the
//! one that scans segment `k + 1` find the same offset between them, each with
//! its own positional reads ([`ReadAt`]). A boundary is looked for at most
//! the segment size past its nominal offset; when there is none, that segment is
//! empty and the segment before it runs on to the next boundary found. The
//! boundaries found are in order, so the segments tile the input.
//!
//! Each segment of text is scanned as a stream that starts fresh at its
//! boundary with the [`LOOKBACK`] bytes before it: a safe cut is where a
//! fresh scan stands exactly where the scan of the whole stands, so the
//! segments' URIs, in segment order, are those of one scan over the input. Only
//! the line numbers differ: a segment does not know how many lines come before
//! it, so its lines count from 1 at its start, and [`SegmentEnd::lines`] says
//! how many line breaks it holds, for the caller to add up in segment order.

use std::io::{self, Read};

use super::core::LOOKBACK;
use super::cut::{is_safe_cut, line_cuts};
use super::stream::{scan_reader_from, EndLine, Resume};
use super::{Scanner, Sink};

/// The size segments are cut at, about, by default.
pub const DEFAULT_SEGMENT_SIZE: u64 = 1 << 20;

/// How many bytes before a safe cut its two lines may take, at most, for
/// the cut to be a boundary: a cut is judged by those lines, and a thread
/// looking for the boundary after an offset reads this much before it.
const CUT_REACH: usize = 16 * 1024;

/// How many bytes a search for a boundary reads first (then twice as many
/// each time, up to the segment size).
const FIRST_READ: usize = 16 * 1024;

/// An input that can be read at any offset, from any thread at once: a
/// file, bytes in memory.
pub trait ReadAt {
    /// Reads bytes from absolute offset `offset` into `buf`; returns how
    /// many were read, 0 only at the end of the input (or for an empty
    /// `buf`).
    ///
    /// # Errors
    ///
    /// The error of the read.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let from = usize::try_from(offset).map_or(self.len(), |o| o.min(self.len()));
        let n = buf.len().min(self.len() - from);
        buf[..n].copy_from_slice(&self[from..from + n]);
        Ok(n)
    }
}

#[cfg(unix)]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(self, buf, offset)
    }
}

/// `seek_read` moves the file's position too (to the end of what it read).
#[cfg(windows)]
impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(self, buf, offset)
    }
}

/// Finds the first boundary at or after `from` in `buf`, judging each
/// only by bytes of `buf`; `at_input_start` tells whether `buf` starts
/// where the input does.
type FindBoundary = fn(buf: &[u8], from: usize, at_input_start: bool) -> Option<usize>;

/// How a seekable input is cut into segments that threads find and scan
/// on their own, with positional reads ([`ReadAt`]). Each segment starts
/// at a boundary decided by the bytes around it only (a line break no URI
/// crosses, or a message's start in an mbox), so the segments' URIs, in
/// segment order, are those of one scan over the input; only their lines
/// count from 1 at each segment's start ([`SegmentEnd::lines`] says how
/// many to add).
///
/// ```
/// use uriscan::{Found, Segments, Scanner};
///
/// let text = "see http://a.example/\n".repeat(1000);
/// let segments = Segments::new(text.as_bytes(), text.len() as u64).segment_size(4096);
/// let (mut uris, mut lines) = (Vec::new(), 0);
/// // Any thread may scan any segment; here they are scanned in order.
/// for k in 0..segments.count() {
///     let Some(segment) = segments.segment(k)? else { continue };
///     let end = segment.scan(&Scanner::new(), |f: &Found<'_>| {
///         uris.push((lines + f.line(), f.as_str().to_string()));
///         Ok(true)
///     })?;
///     lines += end.lines;
/// }
/// assert_eq!(uris.len(), 1000);
/// assert_eq!(uris[999], (1000, "http://a.example/".to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Segments<'a, R: ?Sized> {
    input: &'a R,
    /// The input's length when the segments were planned; what is read past
    /// it belongs to the last segment.
    len: u64,
    size: u64,
    find: FindBoundary,
    /// How many bytes before a boundary `find` looks at.
    reach: usize,
}

impl<R: ?Sized> Clone for Segments<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R: ?Sized> Copy for Segments<'_, R> {}

/// One segment of a seekable input: a reader of its bytes, from its boundary
/// to the next one found (or to the input's end).
pub struct Segment<'a, R: ?Sized> {
    input: &'a R,
    start: u64,
    /// Where the segment ends; `None` for the input's end.
    end: Option<u64>,
    /// The next byte to read.
    pos: u64,
    /// The [`LOOKBACK`] bytes before `start` (fewer at the input's start).
    lead: Vec<u8>,
}

/// What the scan of a segment saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentEnd {
    /// How many bytes the segment holds.
    pub bytes: u64,
    /// How many line breaks (`\n`) the segment holds: the segments after it
    /// start that many lines further on. [`Segment::scan`] gives 0 when the
    /// scanner counts no lines
    /// ([`ScannerBuilder::line_numbers`](super::ScannerBuilder::line_numbers));
    /// mail's `scan_segment` always counts them (its warnings name lines).
    pub lines: u64,
}

impl<'a, R: ReadAt + ?Sized> Segments<'a, R> {
    /// The segments of `input`, of `len` bytes, cut at safe cuts about every
    /// [`DEFAULT_SEGMENT_SIZE`] bytes; scanned with [`Segment::scan`].
    pub fn new(input: &'a R, len: u64) -> Segments<'a, R> {
        Segments::with_boundary(input, len, find_cut, CUT_REACH)
    }

    /// The segments of `input`, cut at the boundaries `find` gives, which
    /// look at most `reach` bytes before themselves.
    pub(crate) fn with_boundary(
        input: &'a R,
        len: u64,
        find: FindBoundary,
        reach: usize,
    ) -> Segments<'a, R> {
        Segments {
            input,
            len,
            size: DEFAULT_SEGMENT_SIZE,
            find,
            reach,
        }
    }

    /// Sets the size the input is cut at, about (1 byte at least).
    pub fn segment_size(mut self, bytes: u64) -> Segments<'a, R> {
        self.size = bytes.max(1);
        self
    }

    /// How many segments there are (some may turn out empty): 1 for an empty
    /// input.
    pub fn count(&self) -> u64 {
        self.len.div_ceil(self.size).max(1)
    }

    /// Whether the input is worth cutting: true when one of segments 1,
    /// `count / 2` and `count − 1` starts at a boundary (found within a
    /// segment's size past its nominal offset), or there is one segment
    /// only. An input with no boundary at any of the three most likely has
    /// none anywhere: a file of comma-separated values, base64 or hex is
    /// lines of URI bytes alone, after which no cut is safe, and lines
    /// that each open a `<` never closed are not cut either. Cut, each of
    /// its segments would look through a segment's size for its start and
    /// its end, in vain, and it is scanned faster whole, on one thread.
    /// (Three places, not one: an mbox whose first megabytes are one
    /// message's attachment has its message starts further on.)
    ///
    /// # Errors
    ///
    /// A read error met while looking for a boundary.
    pub fn cuts(&self) -> io::Result<bool> {
        let count = self.count();
        if count == 1 {
            return Ok(true);
        }
        // In order, each once (with two or three segments, some coincide).
        let mut tried = [1, count / 2, count - 1];
        tried.sort_unstable();
        for (i, &k) in tried.iter().enumerate() {
            if (i == 0 || tried[i - 1] != k) && self.boundary(k)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Segment `k` (from 0 to [`Segments::count`]), or `None` when it is empty:
    /// no boundary was found within a segment's size past its nominal start,
    /// or the next segment starts at the same boundary.
    ///
    /// # Errors
    ///
    /// A read error met while looking for its boundaries.
    pub fn segment(&self, k: u64) -> io::Result<Option<Segment<'a, R>>> {
        let Some(start) = self.boundary(k)? else {
            return Ok(None);
        };
        let mut end = None;
        for j in k + 1..self.count() {
            if let Some(at) = self.boundary(j)? {
                end = Some(at);
                break;
            }
        }
        if end == Some(start) {
            return Ok(None);
        }
        let lead_start = start.saturating_sub(LOOKBACK as u64);
        let mut lead = vec![0; (start - lead_start) as usize];
        read_exact_at(self.input, &mut lead, lead_start)?;
        Ok(Some(Segment {
            input: self.input,
            start,
            end,
            pos: start,
            lead,
        }))
    }

    /// Where segment `k` starts: the first boundary at or after `k × size`,
    /// looked for up to `size` bytes past it.
    fn boundary(&self, k: u64) -> io::Result<Option<u64>> {
        let nominal = k.saturating_mul(self.size);
        if nominal == 0 {
            return Ok(Some(0));
        }
        let from = nominal.saturating_sub(self.reach as u64);
        let skip = (nominal - from) as usize;
        let limit = usize::try_from(self.size).unwrap_or(usize::MAX);
        let mut buf = Vec::new();
        let mut want = FIRST_READ.min(limit);
        let mut searched = skip;
        loop {
            let eof = read_up_to(self.input, &mut buf, from, skip + want)?;
            if let Some(at) = (self.find)(&buf, searched, from == 0) {
                return Ok(Some(from + at as u64));
            }
            if eof || want >= limit {
                return Ok(None);
            }
            // A boundary is judged by the bytes before it (and, for a
            // message, the few after its start): all but the last bytes
            // were judged for good.
            searched = buf.len().saturating_sub(8).max(skip);
            want = (want * 2).min(limit);
        }
    }
}

impl<R: ReadAt + ?Sized> Segment<'_, R> {
    /// The absolute offset of the segment's first byte.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// How many bytes were read from the segment so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.pos - self.start
    }

    /// Scans the segment as text, calling `sink` as [`Scanner::scan_reader`]
    /// does over the whole input: the spans are the input's, the columns
    /// too, and the lines count from 1 at the segment's start.
    ///
    /// # Errors
    ///
    /// A read error, or the first error `sink` returns.
    pub fn scan<S: Sink>(mut self, scanner: &Scanner, sink: S) -> io::Result<SegmentEnd> {
        let start = to_usize(self.start)?;
        let lead = std::mem::take(&mut self.lead);
        let resume = Resume {
            before: &lead,
            pos: start,
            line: 1,
            line_start: start,
        };
        let last_line = scan_reader_from(scanner, resume, &mut self, sink, 0, EndLine::Needed)?;
        Ok(SegmentEnd {
            bytes: self.bytes_read(),
            lines: last_line - 1,
        })
    }
}

impl<R: ReadAt + ?Sized> Read for Segment<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = match self.end {
            Some(end) => buf
                .len()
                .min(usize::try_from(end - self.pos).unwrap_or(usize::MAX)),
            None => buf.len(),
        };
        let n = self.input.read_at(&mut buf[..room], self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// An absolute offset as a `usize` (the scanner's), or an error on a
/// target where the input is too large to address.
pub(crate) fn to_usize(offset: u64) -> io::Result<usize> {
    usize::try_from(offset).map_err(|_| io::Error::other("input too large to address"))
}

/// Reads into `buf` (which holds the input from `from`) until it holds
/// `len` bytes or the input ends; returns true at the input's end.
fn read_up_to<R: ReadAt + ?Sized>(
    input: &R,
    buf: &mut Vec<u8>,
    from: u64,
    len: usize,
) -> io::Result<bool> {
    let mut have = buf.len();
    buf.resize(len.max(have), 0);
    while have < len {
        match input.read_at(&mut buf[have..], from + have as u64) {
            Ok(0) => {
                buf.truncate(have);
                return Ok(true);
            }
            Ok(n) => have += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(have);
                return Err(e);
            }
        }
    }
    Ok(false)
}

/// Fills `buf` from absolute offset `offset`.
fn read_exact_at<R: ReadAt + ?Sized>(input: &R, buf: &mut [u8], offset: u64) -> io::Result<()> {
    let mut v = Vec::with_capacity(buf.len());
    read_up_to(input, &mut v, offset, buf.len())?;
    if v.len() < buf.len() {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    buf.copy_from_slice(&v);
    Ok(())
}

/// The first safe cut of `buf` right after a line break at or past
/// `from` whose two lines before lie whole within [`CUT_REACH`] bytes
/// before it (or start the input, `at_input_start`): a boundary of text.
///
/// The condition on the two lines is what makes the answer the same for
/// every thread: it depends on the cut's neighbourhood, not on where the
/// thread's read started (which is at least [`CUT_REACH`] before `from`).
fn find_cut(buf: &[u8], from: usize, at_input_start: bool) -> Option<usize> {
    line_cuts(buf, from).find(|&at| {
        let reach_start = at.saturating_sub(CUT_REACH);
        let last_break = memchr::memrchr(b'\n', &buf[reach_start..at - 1]);
        let before_break =
            last_break.and_then(|p| memchr::memrchr(b'\n', &buf[reach_start..reach_start + p]));
        match before_break {
            Some(p) => {
                let nl = reach_start + p;
                is_safe_cut(&buf[nl + 1..], at - nl - 1)
            }
            // The two lines start the input.
            None => at_input_start && at <= CUT_REACH && is_safe_cut(buf, at),
        }
    })
}
