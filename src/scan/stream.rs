//! Scanning an `io::Read` in bounded memory: a buffer that rolls over the
//! input (ripgrep's `LineBuffer::roll`), feeding the same core as the slice
//! iterator.

use std::io::{self, Read};

use super::core::{Core, Step, ToSink, Window, LOOKBACK, SLACK};
use super::{Scanner, Sink};

/// How many bytes one read asks for, at least.
const READ_SIZE: usize = 64 * 1024;

/// Scans everything `rdr` gives, in reads of `read_size` bytes (0 for the
/// default), with a buffer of at most
/// `LOOKBACK + max_candidate_len + SLACK + max(read_size, READ_SIZE)` bytes.
///
/// # Invariants
///
/// `buf[..end]` holds the input from absolute offset `offset`; it always
/// holds the [`LOOKBACK`] bytes before `state.pos` (or starts at offset 0),
/// which is what the core needs to decide like the slice iterator does
/// (see [`super::core`]).
pub(crate) fn scan_reader<R: Read, S: Sink>(
    scanner: &Scanner,
    rdr: R,
    sink: S,
    read_size: usize,
) -> io::Result<()> {
    // 0 asks for the default.
    let read_size = if read_size == 0 { READ_SIZE } else { read_size };
    let capacity = LOOKBACK + scanner.config.max_candidate_len + SLACK + read_size.max(READ_SIZE);
    let mut buf = take_buffer(capacity);
    let result = scan_with_buffer(scanner, rdr, sink, read_size, &mut buf);
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
/// [`scan_reader`]); the buffer's old contents do not matter.
fn scan_with_buffer<R: Read, S: Sink>(
    scanner: &Scanner,
    mut rdr: R,
    mut sink: S,
    read_size: usize,
    buf: &mut [u8],
) -> io::Result<()> {
    let capacity = buf.len();
    let (mut offset, mut end, mut eof) = (0usize, 0usize, false);
    let mut core = Core::new(scanner);
    let mut report = ToSink(&mut sink);
    loop {
        let win = Window {
            hay: &buf[..end],
            offset,
            eof,
        };
        let need_more = match core.step(&win, &mut report)? {
            Step::Progress => continue,
            Step::Stopped => return Ok(()),
            Step::Exhausted if eof => return Ok(()),
            Step::Exhausted => false,
            Step::NeedMore => true,
        };
        // Roll: keep the LOOKBACK bytes before `pos`, then read more.
        let keep_from = (core.pos - offset).saturating_sub(LOOKBACK);
        core.lines.advance(&win, offset + keep_from);
        buf.copy_within(keep_from..end, 0);
        offset += keep_from;
        end -= keep_from;
        // INVARIANT: the core never asks for more than LOOKBACK +
        // max_candidate_len + SLACK bytes around `pos`, so after a roll
        // there is room to read.
        debug_assert!(end < capacity, "the roll buffer is full");
        // After `NeedMore`, read all the core may look at before asking
        // again, so that no candidate is measured more than twice whatever
        // the read sizes; else one read.
        let wanted = if need_more {
            (core.pos - offset + scanner.config.max_candidate_len + SLACK).min(capacity)
        } else {
            end + 1
        };
        loop {
            let want = (end + read_size).min(capacity);
            let n = match read_retrying(&mut rdr, &mut buf[end..want]) {
                Ok(n) => n,
                Err(err) => {
                    // Deliver what the bytes already read decide, then fail.
                    let win = Window {
                        hay: &buf[..end],
                        offset,
                        eof: false,
                    };
                    loop {
                        match core.step(&win, &mut report)? {
                            Step::Progress => continue,
                            Step::Stopped => return Ok(()),
                            _ => return Err(err),
                        }
                    }
                }
            };
            end += n;
            if n == 0 {
                eof = true;
            }
            if eof || end >= wanted {
                break;
            }
        }
    }
}

/// Reads once, retrying on `Interrupted`.
fn read_retrying<R: Read>(rdr: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match rdr.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}
