//! Splitting mail input into messages: an mbox (mboxrd or mboxo) one
//! message at a time, or a single RFC 5322 message.

use std::io::{self, Read};
use std::ops::Range;

use memchr::memmem;

use super::header::{Field, Head};
use super::message::{Message, Reading};
use crate::scan::{is_safe_cut, read_retrying, ReadAt, Segments, LOOKBACK};

/// How much is read at once.
const CHUNK: usize = 256 * 1024;

/// The largest message decoded as mail: a longer one (a huge attachment, a
/// generated file that starts with `From `) would have to be held whole.
/// It is read as raw text instead, in pieces (see [`Messages`]).
pub const MAX_MESSAGE: usize = 16 << 20;

/// How long a piece of an oversized message is, at most, when a safe cut
/// is found in its second half.
const PIECE: usize = 1 << 20;

/// The messages of an input, one at a time; memory is bounded by the
/// largest message plus one read, not by the input.
///
/// A message ends where a line starting with `From ` follows a blank line;
/// an input that does not start with `From ` is one message. A message
/// longer than [`MAX_MESSAGE`] is not decoded: it comes as pieces of raw
/// text ([`Message::is_raw`]), each cut where the scanner's results do not
/// depend on the cut (a *safe cut*, see `DESIGN.md`), so scanning the
/// pieces gives what scanning the text whole would; after it, messages come
/// as before.
///
/// # Invariants
///
/// `buf[start..]` is input not yet returned; `line` is the 1-based line
/// number of `buf[start]`, `offset` its offset in the input and
/// `line_start` the offset of the start of its line. `buf` keeps the
/// scanner's look-back (`LOOKBACK` bytes) before `start`, for the next raw
/// piece to look back into. `escaped` holds, in increasing order, where
/// in `buf` stands each `>` followed by `From ` that the search for
/// separators has passed since `start`.
pub struct Messages<R> {
    rdr: R,
    buf: Vec<u8>,
    start: usize,
    line: u64,
    offset: usize,
    line_start: usize,
    eof: bool,
    /// Finds `From `: a separator's (after a line break), or an escaped
    /// one's (after a `>`), so that one search finds both.
    from_space: memmem::Finder<'static>,
    escaped: Vec<usize>,
    /// The oversized message being cut into pieces, if any.
    oversized: Option<Oversized>,
}

/// An oversized message being cut into pieces.
#[derive(Clone, Copy, Debug)]
struct Oversized {
    /// The line where it starts.
    line: u64,
    /// True once its first piece was given (the next ones look back into
    /// the piece before them; the first one does not look before the
    /// message).
    started: bool,
}

impl<R: Read> Messages<R> {
    /// Messages of `rdr`: an mbox when its first line starts with `From `,
    /// else one message made of the whole input.
    pub fn new(rdr: R) -> Messages<R> {
        Messages::with_prefix(Vec::new(), rdr)
    }

    /// Messages of `prefix` followed by `rdr`: for a caller that has
    /// already read the start of its input (to tell whether it is mail),
    /// without copying it back into a reader.
    pub fn with_prefix(prefix: Vec<u8>, rdr: R) -> Messages<R> {
        Messages {
            rdr,
            buf: prefix,
            start: 0,
            line: 1,
            offset: 0,
            line_start: 0,
            eof: false,
            from_space: memmem::Finder::new(b"From "),
            escaped: Vec::new(),
            oversized: None,
        }
    }

    /// Messages of a segment of an mbox that starts at a message's start (see
    /// [`message_segments`]): `rdr` starts at absolute offset `offset`, and
    /// lines count from 1 there.
    pub(crate) fn starting_at(rdr: R, offset: usize) -> Messages<R> {
        Messages {
            offset,
            line_start: offset,
            ..Messages::new(rdr)
        }
    }

    /// The line of the first byte not yet returned (after the last
    /// message: the line the input ends on).
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// The reader the messages come from.
    pub(crate) fn reader(&self) -> &R {
        &self.rdr
    }

    /// Hands each message to `scan` in turn, until it returns false or an
    /// error: a message's bytes are not copied out of the buffer but lent
    /// with it, and the buffer is taken back when `scan` returns. (The
    /// iterator's messages own their bytes, which costs a copy of each.)
    /// A panic in `scan` takes the buffer with it: the messages are not
    /// to be read after (every caller owns them, and unwinds past them).
    ///
    /// # Errors
    ///
    /// A read error, or the first error `scan` returns.
    pub(crate) fn each_lent(
        &mut self,
        mut scan: impl FnMut(&Message) -> io::Result<bool>,
    ) -> io::Result<()> {
        while let Some(message) = self.next_or_end(true) {
            let message = message?;
            let go = scan(&message);
            if let Some(buf) = message.into_lent() {
                self.buf = buf;
            }
            if !go? {
                break;
            }
        }
        Ok(())
    }

    /// The next message (lent the buffer when `lend`, see
    /// [`Messages::each_lent`]); a read error ends the messages.
    fn next_or_end(&mut self, lend: bool) -> Option<io::Result<Message>> {
        match self.next_message(lend) {
            Ok(message) => message.map(Ok),
            Err(err) => {
                self.eof = true;
                self.start = self.buf.len();
                self.escaped.clear();
                self.oversized = None;
                Some(Err(err))
            }
        }
    }

    /// The next message, or `None` at the end of the input; lent the
    /// buffer when `lend`, which must be given back before the next call.
    fn next_message(&mut self, lend: bool) -> io::Result<Option<Message>> {
        if let Some(oversized) = self.oversized {
            return self.next_piece(oversized, lend);
        }
        // How far past `start` separators were looked for (relative, as
        // `fill` may move the input to the front of the buffer).
        let mut searched = 0;
        let end = loop {
            if let Some(end) = self.message_end(self.start + searched) {
                break end;
            }
            if self.eof {
                break self.buf.len();
            }
            let unreturned = self.buf.len() - self.start;
            if unreturned > MAX_MESSAGE {
                let oversized = Oversized {
                    line: self.line,
                    started: false,
                };
                self.oversized = Some(oversized);
                return self.next_piece(oversized, lend);
            }
            searched = unreturned.saturating_sub(8);
            self.fill()?;
        };
        if end == self.start {
            return Ok(None);
        }
        let text = &self.buf[self.start..end];
        let line = self.line;
        let from_line = if text.starts_with(b"From ") {
            memchr::memchr(b'\n', text).map_or(text.len(), |nl| nl + 1)
        } else {
            0
        };
        let first_line = line + u64::from(from_line > 0);
        let offset = self.offset + from_line;
        let body = self.start + from_line..end;
        let last = self.eof && end == self.buf.len();
        let escaped = self.escaped_in(body.clone());
        let reading = |unescaped| Reading::Mail {
            line,
            first_line,
            offset,
            unescaped,
        };
        let (bytes, unescaped) = match unescape_from_lines(&self.buf[body.clone()], escaped) {
            Some(unescaped) => {
                self.advance(end);
                unescaped
            }
            None if lend => {
                self.advance(end);
                let buf = std::mem::take(&mut self.buf);
                return Ok(Some(Message::lent(buf, body, reading(Vec::new()))));
            }
            // The last message of the input is handed the buffer instead
            // of a copy (a one-message file is never copied).
            None if last => {
                self.advance(end);
                let mut bytes = std::mem::take(&mut self.buf);
                bytes.truncate(body.end);
                bytes.drain(..body.start);
                self.start = 0;
                (bytes, Vec::new())
            }
            None => {
                let bytes = self.buf[body].to_vec();
                self.advance(end);
                (bytes, Vec::new())
            }
        };
        Ok(Some(Message::new(bytes, reading(unescaped))))
    }

    /// The next piece of the oversized message being cut: up to the
    /// message's end, or to a safe cut.
    fn next_piece(&mut self, oversized: Oversized, lend: bool) -> io::Result<Option<Message>> {
        let mut searched = 0;
        let end = loop {
            let unreturned = self.buf.len() - self.start;
            let message_end = self.message_end(self.start + searched);
            let within = |most: usize| message_end.filter(|&end| end - self.start <= most);
            if let Some(end) = within(PIECE) {
                self.oversized = None;
                break end;
            }
            let cut = if unreturned < PIECE {
                None
            } else {
                // With no safe cut before a piece's length, the piece runs
                // to the message's end, which bounds it as a cut would;
                // a cut past that end would read the next message as raw
                // text.
                self.safe_cut().or_else(|| {
                    within(MAX_MESSAGE)
                        .is_none()
                        .then(|| self.forced_cut())
                        .flatten()
                })
            };
            if let Some(cut) = cut {
                self.oversized = Some(Oversized {
                    started: true,
                    ..oversized
                });
                break cut;
            }
            if let Some(end) = within(MAX_MESSAGE) {
                self.oversized = None;
                break end;
            }
            if self.eof {
                self.oversized = None;
                break self.buf.len();
            }
            searched = unreturned.saturating_sub(8);
            self.fill()?;
        };
        if end == self.start {
            return Ok(None);
        }
        let lead = if oversized.started {
            self.start - self.start.saturating_sub(LOOKBACK)
        } else {
            0
        };
        let piece = self.start - lead..end;
        let reading = Reading::Raw {
            line: oversized.line,
            first: !oversized.started,
            from: lead,
            first_line: self.line,
            offset: self.offset - lead,
            line_start: self.line_start,
        };
        self.advance(end);
        Ok(Some(if lend {
            Message::lent(std::mem::take(&mut self.buf), piece, reading)
        } else {
            Message::new(self.buf[piece].to_vec(), reading)
        }))
    }

    /// A safe cut in the unreturned input for the end of a piece: the last
    /// one before [`PIECE`] bytes, at least half a piece in, at a line
    /// break if there is one there (a cut inside a line would cut a JSON
    /// line's strings, which are decoded from the line's start: see
    /// `scan/json.rs`), else after a blank.
    fn safe_cut(&self) -> Option<usize> {
        let hay = &self.buf[..];
        let from = self.start + PIECE / 2;
        let to = (self.start + PIECE).min(hay.len() - 1);
        let last_after = |ends: &[u8]| {
            (from..=to)
                .rev()
                .filter(|&at| ends.contains(&hay[at - 1]))
                .find(|&at| is_safe_cut(hay, at))
        };
        last_after(b"\n").or_else(|| last_after(b" \t"))
    }

    /// Where a piece without a safe cut ends, once [`MAX_MESSAGE`] bytes
    /// wait: the last line break before it (a piece must end somewhere:
    /// only a URI wrapped inside `<...>` across that very line break, in
    /// 16 MiB without a safe cut, could be missed), or the whole of it.
    fn forced_cut(&self) -> Option<usize> {
        let hay = &self.buf[..];
        if hay.len() - self.start < MAX_MESSAGE {
            return None;
        }
        let limit = self.start + MAX_MESSAGE;
        Some(memchr::memrchr(b'\n', &hay[self.start..limit]).map_or(limit, |p| self.start + p + 1))
    }

    /// Marks the input up to `end` as returned.
    fn advance(&mut self, end: usize) {
        let text = &self.buf[self.start..end];
        self.line += count_lines(text);
        if let Some(nl) = memchr::memrchr(b'\n', text) {
            self.line_start = self.offset + nl + 1;
        }
        self.offset += text.len();
        self.start = end;
        let passed = self.escaped.partition_point(|&at| at < end);
        self.escaped.drain(..passed);
    }

    /// Where the message at `start` ends (the offset of the next one's
    /// `From ` line), looking for separators (their `\n`) from `from` on;
    /// notes in `escaped` the `>From ` passed on the way.
    fn message_end(&mut self, from: usize) -> Option<usize> {
        let Messages {
            buf,
            start,
            from_space,
            escaped,
            ..
        } = self;
        let (hay, start) = (&buf[..], *start);
        // A `From ` at `start` is this message's own separator line.
        let skip = usize::from(hay[start..].starts_with(b"From "));
        // A separator's `\n` at or after `from`: its `From ` one further.
        let from = (from.max(start + skip) + 1).min(hay.len());
        from_space
            .find_iter(&hay[from..])
            .map(|p| from + p - 1)
            .find(|&before| match hay[before] {
                b'\n' => {
                    // The line before must be blank.
                    let lines = &hay[start..before];
                    lines.ends_with(b"\n") || lines.ends_with(b"\n\r") || lines.is_empty()
                }
                b'>' => {
                    // Noted once, in order, wherever the search passed
                    // before (again after a read, over its last bytes).
                    if let Err(at) = escaped.binary_search(&before) {
                        escaped.insert(at, before);
                    }
                    false
                }
                _ => false,
            })
            .map(|nl| nl + 1)
    }

    /// The `>` of the `>From ` noted in `buf[range]`, as offsets in it.
    fn escaped_in(&self, range: Range<usize>) -> impl Iterator<Item = usize> + '_ {
        let from = range.start;
        self.escaped
            .iter()
            .filter(move |&&at| range.contains(&at))
            .map(move |&at| at - from)
    }

    /// Reads up to [`CHUNK`] more bytes, into the buffer's spare room
    /// (which costs no zeroing when `rdr` is a `File`, or std's wrappers of
    /// one). When that room is short, what was returned already (but the
    /// [`LOOKBACK`] bytes before `start`) is dropped first: then only the
    /// message being read moves, and the buffer stops growing at about
    /// twice [`CHUNK`] plus the longest message.
    fn fill(&mut self) -> io::Result<()> {
        let keep_from = self.start.saturating_sub(LOOKBACK);
        // Move the unreturned input to the front when the buffer is full,
        // or when more than half of it is returned input (so that reading
        // on through an oversized message does not grow the buffer past
        // it; the moves cost the bytes moved at most twice over).
        let full = self.buf.capacity() - self.buf.len() < CHUNK;
        if keep_from > 0 && (full || keep_from >= self.buf.len() / 2) {
            self.buf.drain(..keep_from);
            self.start -= keep_from;
            // Every one is at or after `start`.
            self.escaped.iter_mut().for_each(|at| *at -= keep_from);
        }
        // Room for a whole read at once, rather than `read_to_end`'s
        // doubling from the probe's 8 KiB, which copied the buffer five
        // times over as it grew; but not before the input shows it has
        // more (an input within its probe, most single messages, would
        // get a buffer it never uses).
        let mut more = 0;
        if self.buf.capacity() - self.buf.len() < CHUNK {
            let mut probe = [0; 32];
            more = read_retrying(&mut self.rdr, &mut probe)?;
            if more == 0 {
                self.eof = true;
                return Ok(());
            }
            self.buf.reserve(CHUNK);
            self.buf.extend_from_slice(&probe[..more]);
        }
        let n = (&mut self.rdr)
            .take((CHUNK - more) as u64)
            .read_to_end(&mut self.buf)?;
        if n + more == 0 {
            self.eof = true;
        }
        Ok(())
    }
}

impl<R: Read> Iterator for Messages<R> {
    type Item = io::Result<Message>;

    /// The next message; a read error ends the messages.
    fn next(&mut self) -> Option<io::Result<Message>> {
        self.next_or_end(false)
    }
}

/// The segments of an mbox of `len` bytes, cut at the starts of messages
/// about every [`DEFAULT_SEGMENT_SIZE`](crate::scan::DEFAULT_SEGMENT_SIZE)
/// bytes (see [`Segments`]); scanned with [`super::scan_segment`].
///
/// A message starts where a line starting with `From ` follows a blank
/// line, as [`Messages`] splits them: whether an offset is one is decided
/// by the three bytes before it and the five after, so every thread finds
/// the same starts.
pub fn message_segments<R: ReadAt + ?Sized>(input: &R, len: u64) -> Segments<'_, R> {
    Segments::with_boundary(input, len, find_message_start, 3)
}

/// The first message start of `buf` at or after `from`: the byte after
/// the `\n` of a `\nFrom ` that ends a blank line (`\n\n` or `\n\r\n`).
fn find_message_start(buf: &[u8], from: usize, _at_input_start: bool) -> Option<usize> {
    let search = from.saturating_sub(1);
    memmem::find_iter(&buf[search..], b"\nFrom ")
        .map(|p| search + p)
        .find(|&nl| {
            let before = &buf[..nl];
            before.ends_with(b"\n") || before.ends_with(b"\n\r")
        })
        .map(|nl| nl + 1)
}

/// Counts the line breaks of `bytes` (with bytecount, as the scanner's
/// lines are: fewer instructions than memchr's count).
fn count_lines(bytes: &[u8]) -> u64 {
    bytecount::count(bytes, b'\n') as u64
}

/// mboxrd: lines `>From `, `>>From ` … lose one `>`. `escaped` are the
/// offsets of every `>From ` in `body` (its `>`), in order. Returns `None`
/// when no such line is there (the body is its own unescaped text), else
/// the text and the offsets (in it) where a `>` was taken out before.
fn unescape_from_lines(
    body: &[u8],
    escaped: impl Iterator<Item = usize>,
) -> Option<(Vec<u8>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut removed = Vec::new();
    let mut copied = 0;
    for at in escaped {
        // `at` is the last `>` of a run; the run must start a line.
        let run_start = body[..at]
            .iter()
            .rposition(|&b| b != b'>')
            .map_or(0, |p| p + 1);
        if run_start == 0 || body[run_start - 1] == b'\n' {
            out.reserve(body.len());
            out.extend_from_slice(&body[copied..run_start]);
            removed.push(out.len());
            copied = run_start + 1;
        }
    }
    if removed.is_empty() {
        return None;
    }
    out.extend_from_slice(&body[copied..]);
    Some((out, removed))
}

/// Returns true if and only if `head` (the first bytes of an input) looks
/// like mail: an mbox (`From ` first line) or a message whose header block
/// is made of header fields only and holds at least two of the usual ones.
pub fn looks_like_mail(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.starts_with(b"From ") {
        // An mbox's `From_` line (a sender, then a date), or a header
        // block right after it; not prose that starts with "From the …".
        let (line, rest) = match memchr::memchr(b'\n', head) {
            Some(nl) => (&head[..nl], &head[nl + 1..]),
            None => (head, &b""[..]),
        };
        return is_from_line(line) || starts_with_field(rest);
    }
    const USUAL: &[&[u8]] = &[
        b"from",
        b"to",
        b"subject",
        b"date",
        b"message-id",
        b"received",
        b"return-path",
        b"mime-version",
        b"content-type",
        b"delivered-to",
        b"reply-to",
        b"cc",
        b"x-mailer",
    ];
    let fields = Head::parse(head).fields;
    // Two are enough: the names of a long header are not all compared.
    let usual = fields
        .iter()
        .filter(|f| USUAL.iter().any(|u| f.name.eq_ignore_ascii_case(u)))
        .take(2)
        .count();
    usual == 2 && !fields.iter().any(is_not_of_mail)
}

/// Returns true if and only if `field` of a header block shows that the
/// block is not mail: a line that is not a field (prose, a name with a
/// space) has no name, a name that starts with a digit is a log's time
/// (`2026-11-26T13:00:00Z`, `13:00:01`), one that starts with `{`, `[` or
/// `"` is a JSON log line's (`{"time":...`), and one that is a log level
/// (`INFO`, `WARNING`, in any case) starts a log line (`INFO: started`,
/// Python's `WARNING:root:...`, Java's `SEVERE: ...`).
fn is_not_of_mail(field: &Field<'_>) -> bool {
    const LOG_LEVELS: &[&[u8]] = &[
        b"trace",
        b"debug",
        b"fine",
        b"info",
        b"notice",
        b"warn",
        b"warning",
        b"error",
        b"err",
        b"severe",
        b"critical",
        b"crit",
        b"fatal",
        b"alert",
        b"emerg",
    ];
    let name = field.name;
    name.first()
        .is_none_or(|&b| b.is_ascii_digit() || matches!(b, b'{' | b'[' | b'"'))
        || LOG_LEVELS
            .iter()
            .any(|level| name.eq_ignore_ascii_case(level))
}

/// What [`looks_like_mail`] says of every input that starts with `head`,
/// when `head` already decides it; `None` while the rest may still decide
/// it either way. The first bytes of a stream that arrive slowly (`tail -f
/// log | uriscan`) can so be scanned as text before `looks_like_mail` has
/// all it looks at.
///
/// It decides once a whole line that starts a field shows the input is not
/// mail (a log line, prose: `Some(false)`), or once the header block has
/// ended (what `looks_like_mail` says of it), or, for an input that starts
/// with `From `, once its first two lines are whole. Lines that are all
/// fields so far wait for more.
pub fn looks_like_mail_so_far(head: &[u8]) -> Option<bool> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    if head.len() < BOM.len() && BOM.starts_with(head) {
        return None;
    }
    let text = head.strip_prefix(BOM).unwrap_or(head);
    if b"From ".starts_with(text) {
        return None;
    }
    if text.starts_with(b"From ") {
        // `looks_like_mail` reads the first line and the start of the
        // second: decided once both are whole.
        let nl = memchr::memchr(b'\n', text)?;
        if is_from_line(&text[..nl]) {
            return Some(true);
        }
        let rest = &text[nl + 1..];
        memchr::memchr(b'\n', rest)?;
        return Some(starts_with_field(rest));
    }
    // Its whole lines: a field's name is read from its first line, which
    // the rest of the input cannot change once it has ended.
    let whole = &text[..memchr::memrchr(b'\n', text).map_or(0, |nl| nl + 1)];
    let ended = whole.starts_with(b"\n")
        || whole.starts_with(b"\r\n")
        || memmem::find(whole, b"\n\n").is_some()
        || memmem::find(whole, b"\n\r\n").is_some();
    if ended {
        return Some(looks_like_mail(head));
    }
    Head::parse(whole)
        .fields
        .iter()
        .any(is_not_of_mail)
        .then_some(false)
}

/// Returns true if and only if `line` (a line that starts with `From `)
/// has the shape of an mbox's separator: a date with a time (`12:08`) and
/// a year (`2011`) after the sender.
fn is_from_line(line: &[u8]) -> bool {
    let digit = |i: usize| line.get(i).is_some_and(u8::is_ascii_digit);
    let has_time = (0..line.len()).any(|i| {
        digit(i) && digit(i + 1) && line.get(i + 2) == Some(&b':') && digit(i + 3) && digit(i + 4)
    });
    // Four digits starting 19 or 20, not within a longer number.
    let has_year = (1..line.len()).any(|i| {
        matches!(line.get(i..i + 2), Some(b"19" | b"20"))
            && digit(i + 2)
            && digit(i + 3)
            && !digit(i - 1)
            && !digit(i + 4)
    });
    has_time && has_year
}

/// Returns true if and only if `text` starts with a header field of mail
/// (`Name: value`, the name without blanks), not a log's line
/// ([`is_not_of_mail`]: `ERROR: failed`, `13:00:01 started`).
fn starts_with_field(text: &[u8]) -> bool {
    let line = &text[..memchr::memchr(b'\n', text).unwrap_or(text.len())];
    let Some(colon) = memchr::memchr(b':', line) else {
        return false;
    };
    let field = Field {
        name: &line[..colon],
        value: &line[colon + 1..],
    };
    colon > 0 && field.name.iter().all(u8::is_ascii_graphic) && !is_not_of_mail(&field)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found in issue 12: a README whose first line is "From the XZ Utils
    /// README…" was read as an mbox, every URI reported on line 1.
    #[test]
    fn a_from_line_makes_an_mbox_only_with_its_shape() {
        for mbox in [
            "From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody\n",
            "From MAILER-DAEMON Fri Jul  8 12:08:34 2011\nbody\n",
            "From someone at example.org  Tue Jul  2 10:00:00 2019\n\nbody\n",
            "From a@b\nSubject: x\n\nbody\n",
        ] {
            assert!(looks_like_mail(mbox.as_bytes()), "{mbox:?}");
        }
        for text in [
            "From the XZ Utils README: see https://tukaani.org/xz/\n\nmore\n",
            "From 2019 on, the project moved.\n",
            "From here: http://a.org/\n",
            // Prose then a log's lines: a level, a time.
            "From the start we saw http://a.example/x\nERROR: failed http://b.example/y\n",
            "From now on\n13:00:01 started http://a.example/\n",
        ] {
            assert!(!looks_like_mail(text.as_bytes()), "{text:?}");
        }
    }

    fn split(input: &str) -> Vec<(u64, String)> {
        Messages::new(input.as_bytes())
            .map(|m| {
                let m = m.unwrap();
                (m.line(), String::from_utf8(m.bytes().to_vec()).unwrap())
            })
            .collect()
    }

    #[test]
    fn splits_an_mbox_and_unescapes_from_lines() {
        let mbox = "From a@b Mon Jan 1 00:00:00 2024\nSubject: one\n\nbody\n>From the start\n\nFrom c@d Tue Jan 2 00:00:00 2024\nSubject: two\n\nbody2\nFrom inside a paragraph is not a separator\n";
        let got = split(mbox);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(
            got[0],
            (1, "Subject: one\n\nbody\nFrom the start\n\n".to_string())
        );
        assert_eq!(got[1].0, 7);
        assert!(got[1].1.starts_with("Subject: two\n"));
    }

    /// A reader that gives at most `step` bytes per read, as a pipe may.
    struct Trickle<'a> {
        rest: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.rest.len());
            buf[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_same_messages_whatever_the_reads_and_the_prefix() {
        let mut mbox = Vec::new();
        for eml in [
            &include_bytes!("../../fixtures/mail/base64.eml")[..],
            include_bytes!("../../fixtures/mail/quoted-printable.eml"),
            include_bytes!("../../fixtures/mail/html-only.eml"),
        ]
        .iter()
        .cycle()
        .take(90)
        {
            // Each starts with its `From ` line.
            mbox.extend_from_slice(eml);
            mbox.extend_from_slice(b"\n>From here on, unescaped\n\n");
        }
        // Over 2 * CHUNK, so that returned input is dropped on the way.
        assert!(mbox.len() > 2 * CHUNK);
        let whole = split_all(Messages::new(&mbox[..]));
        assert_eq!(whole.len(), 90);
        assert_lent_as_owned(&mbox);
        assert!(whole
            .iter()
            .all(|(_, m)| m.ends_with(b"\nFrom here on, unescaped\n\n")));
        // Without the escaped lines, messages are lent.
        let plain = String::from_utf8_lossy(&mbox).replace(">From here on", "From here on");
        assert_lent_as_owned(plain.as_bytes());
        for step in [1, 7, 4096, 100_000] {
            for prefix in [0, 3, 8192] {
                let messages = Messages::with_prefix(
                    mbox[..prefix].to_vec(),
                    Trickle {
                        rest: &mbox[prefix..],
                        step,
                    },
                );
                assert!(split_all(messages) == whole, "step {step}, prefix {prefix}");
            }
        }
    }

    fn split_all<R: Read>(messages: Messages<R>) -> Vec<(u64, Vec<u8>)> {
        messages
            .map(|m| {
                let m = m.unwrap();
                (m.line(), m.bytes().to_vec())
            })
            .collect()
    }

    /// What each message of `mbox` is, shows (`Debug`) and what its scan
    /// finds: the same whether its bytes are lent ([`Messages::each_lent`]) or its own
    /// (the iterator's); and lending stops when asked to.
    fn assert_lent_as_owned(mbox: &[u8]) {
        let scanner = crate::Scanner::new();
        let seen = |m: &Message| {
            let mut found = Vec::new();
            let mut sink = |f: &crate::Found<'_>| {
                found.push(format!("{f:?}"));
                Ok(true)
            };
            m.scan(&scanner, &mut sink).unwrap();
            (
                m.line(),
                m.is_raw(),
                m.bytes().to_vec(),
                m.own_text().to_vec(),
                found,
                format!("{m:?}"),
            )
        };
        let owned: Vec<_> = Messages::new(mbox).map(|m| seen(&m.unwrap())).collect();
        let mut lent = Vec::new();
        Messages::new(mbox)
            .each_lent(|m| {
                lent.push(seen(m));
                Ok(true)
            })
            .unwrap();
        assert!(lent == owned, "lent messages differ from owned ones");
        let mut first = 0;
        Messages::new(mbox)
            .each_lent(|_| {
                first += 1;
                Ok(false)
            })
            .unwrap();
        assert_eq!(first, 1);
    }

    /// The `>From ` a search passes are noted once each, in order, even
    /// when a search starts before where an earlier one did.
    #[test]
    fn escaped_lines_are_noted_once_in_order() {
        let text = b"Subject: x\n\n>From a\n>From b\n>From c\n".to_vec();
        let at = |line: &[u8]| memmem::find(&text, line).unwrap();
        let (a, b, c) = (at(b">From a"), at(b">From b"), at(b">From c"));
        let mut messages = Messages::with_prefix(text.clone(), &b""[..]);
        assert_eq!(messages.message_end(b), None);
        assert_eq!(messages.escaped, [b, c]);
        assert_eq!(messages.message_end(0), None);
        assert_eq!(messages.escaped, [a, b, c]);
    }

    /// A `>From ` line is unescaped wherever a read ends in or near it:
    /// the search for separators passes again over the last bytes of each
    /// read, and must note it once (twice, and the unescaping would cut at
    /// the same place twice over).
    #[test]
    fn an_escaped_line_where_a_read_ends_is_unescaped_once() {
        let from_line = b"From a@b Mon Jan 1 00:00:00 2024\n";
        for gt in CHUNK - 12..CHUNK + 4 {
            let mut mbox = from_line.to_vec();
            mbox.resize(gt - 1, b'x');
            mbox.extend_from_slice(b"\n>>From here\n\nFrom c@d Tue Jan 2 00:00:00 2024\n\n");
            let got = split_all(Messages::new(&mbox[..]));
            let mut first = mbox[from_line.len()..gt].to_vec();
            first.extend_from_slice(b">From here\n\n");
            assert_eq!(got.len(), 2, "> at {gt}");
            assert!(got[0].1 == first, "> at {gt}");
            assert_lent_as_owned(&mbox);
        }
    }

    #[test]
    fn a_single_message_is_one_message() {
        let got = split("Subject: hi\nFrom: a@b\n\nbody\n");
        assert_eq!(got, [(1, "Subject: hi\nFrom: a@b\n\nbody\n".to_string())]);
    }

    /// An oversized message comes as raw pieces cut at safe cuts, with
    /// nothing lost or repeated, and the messages after it as messages.
    #[test]
    fn an_oversized_message_comes_in_pieces_then_messages_resume() {
        let mut mbox = b"From a Mon Jan 1 00:00:00 2024\nSubject: big\n\n".to_vec();
        let mut i = 0;
        while mbox.len() < MAX_MESSAGE + PIECE {
            mbox.extend_from_slice(format!("line {i} with http://x.org/{i} in it\n").as_bytes());
            i += 1;
        }
        mbox.extend_from_slice(
            b"\nFrom b Mon Jan 1 00:00:00 2024\nSubject: after\n\nhttp://after.org/\n",
        );
        let messages: Vec<Message> = Messages::new(&mbox[..]).map(Result::unwrap).collect();
        assert_lent_as_owned(&mbox);
        let (raw, mail): (Vec<_>, Vec<_>) = messages.iter().partition(|m| m.is_raw());
        assert!(raw.len() >= 5, "{} pieces", raw.len());
        assert!(raw
            .iter()
            .all(|m| m.line() == 1 && m.bytes().len() <= PIECE + LOOKBACK));
        assert_eq!(mail.len(), 1);
        assert!(mail[0].bytes().starts_with(b"Subject: after"));
        // The pieces' own text, end to end, is the oversized message.
        let own: Vec<u8> = raw.iter().flat_map(|m| m.own_text().to_vec()).collect();
        let second = mbox.len() - mail[0].bytes().len() - "From b Mon Jan 1 00:00:00 2024\n".len();
        assert!(own == mbox[..second], "pieces do not add up");
        // Cut at line breaks, where there are safe ones, not after a blank
        // inside a line (a JSON line's strings are decoded whole).
        assert!(raw.iter().all(|m| m.own_text().ends_with(b"\n")));
    }

    /// An oversized message with no safe cut (lines of URI bytes alone)
    /// is cut where it must be, and its last piece ends at the message's
    /// end: it ran on to the input's end, and the messages after it came
    /// as raw text (a black-box run's 34 MB mbox of `yyy…` lines; `-j2`,
    /// which cuts the file at message starts, read them as mail).
    #[test]
    fn an_oversized_message_without_safe_cuts_ends_at_its_end() {
        let mut mbox = b"From a Mon Jan 1 00:00:00 2024\nSubject: big\n\n".to_vec();
        let line = [b'y'; 70];
        while mbox.len() < MAX_MESSAGE + 3 * PIECE {
            mbox.extend_from_slice(&line);
            mbox.push(b'\n');
        }
        let second = mbox.len() + 1;
        mbox.extend_from_slice(
            b"\nFrom b Mon Jan 1 00:00:00 2024\nSubject: after\n\nhttp://after.org/\n",
        );
        let messages: Vec<Message> = Messages::new(&mbox[..]).map(Result::unwrap).collect();
        assert_lent_as_owned(&mbox);
        let (raw, mail): (Vec<_>, Vec<_>) = messages.iter().partition(|m| m.is_raw());
        assert_eq!(mail.len(), 1, "{} raw pieces", raw.len());
        assert!(mail[0].bytes().starts_with(b"Subject: after"));
        let own: Vec<u8> = raw.iter().flat_map(|m| m.own_text().to_vec()).collect();
        assert!(own == mbox[..second], "pieces do not add up");
        assert!(raw
            .iter()
            .all(|m| m.bytes().len() <= MAX_MESSAGE + LOOKBACK));
    }

    /// `looks_like_mail_so_far` never decides otherwise than
    /// `looks_like_mail` does of the whole, and decides a log's first line.
    #[test]
    fn mail_so_far_agrees_with_the_whole() {
        use proptest::prelude::*;
        let pieces = prop::sample::select(vec![
            "From ",
            "From a@b Mon Jan 1 00:00:00 2024",
            "To: x",
            "Subject: y",
            "Date: z",
            "x-a: b",
            "Note",
            ": ",
            ":",
            " ",
            "\t",
            "\n",
            "\r\n",
            "\r",
            "\u{FEFF}",
            "127.0.0.1 - - [26/Nov/2026:13:00:00 +0000] \"GET / HTTP/1.1\"",
            "INFO: started http://a.example/",
            "WARNING:root:x",
            "From the",
            "{\"a\":1}",
            "-",
            "F",
            "Fr",
        ]);
        let input = prop::collection::vec(pieces, 0..24).prop_map(|p| p.concat());
        proptest!(ProptestConfig::with_cases(3_000), |(input in input)| {
            let whole = looks_like_mail(input.as_bytes());
            for end in 0..=input.len() {
                if let Some(so_far) = looks_like_mail_so_far(&input.as_bytes()[..end]) {
                    prop_assert_eq!(so_far, whole, "{:?} of {:?}", end, input);
                }
            }
        });
        for log in [
            &b"127.0.0.1 - - [26/Nov/2026:13:00:00 +0000] \"GET / HTTP/1.1\" 200\n"[..],
            b"Nov 26 13:00:00 host sshd[12]: Accepted key\n",
            b"2026-11-26T13:00:00Z started\n",
            b"{\"time\":\"2026-11-26T13:00:00Z\",\"uri\":\"http://a.example/\"}\n",
            b"\xEF\xBB\xBFplain text\n",
        ] {
            assert_eq!(looks_like_mail_so_far(log), Some(false), "{log:?}");
        }
        let mail = b"Subject: hi\nFrom: a@b\n\nbody";
        assert_eq!(looks_like_mail_so_far(&mail[..12]), None);
        assert_eq!(looks_like_mail_so_far(&mail[..22]), None);
        assert_eq!(looks_like_mail_so_far(&mail[..23]), Some(true));
        assert_eq!(
            looks_like_mail_so_far(b"INFO: one\nWARN: two\n"),
            Some(false)
        );
        assert_eq!(looks_like_mail_so_far(b"Note: one\nX-Two: two\n"), None);
        // A `From ` line decides with its shape, or with the next line.
        assert_eq!(
            looks_like_mail_so_far(b"From a@b Mon Jan 1 00:00:00 2024\n"),
            Some(true)
        );
        let prose = b"From the README: see https://a.example/\nand more\n";
        assert_eq!(looks_like_mail_so_far(&prose[..40]), None);
        assert_eq!(looks_like_mail_so_far(&prose[..45]), None);
        assert_eq!(looks_like_mail_so_far(prose), Some(false));
        assert_eq!(
            looks_like_mail_so_far(b"From a@b\nSubject: x\n"),
            Some(true)
        );
    }

    #[test]
    fn recognizes_mail_by_content() {
        assert!(looks_like_mail(b"From a@b Mon Jan 1 00:00:00 2024\n"));
        assert!(looks_like_mail(
            b"Return-Path: <a@b>\nReceived: from x\n\tby y\nSubject: hi\n\nbody"
        ));
        assert!(!looks_like_mail(b"Subject: only one usual field\n\nbody"));
        assert!(!looks_like_mail(
            b"Note: this is prose\nTo: whom it may concern\nit goes on"
        ));
        assert!(!looks_like_mail(b"   RFC 3986   URI Generic Syntax\n"));
        // A log's times are not field names.
        assert!(!looks_like_mail(
            b"2026-11-26T13:00:00Z x\nFrom: a\nTo: b\n\n"
        ));
        assert!(!looks_like_mail(b"13:00:01 x\nFrom: a\nTo: b\n\n"));
        assert!(!looks_like_mail(b"{\"a\":1}\nFrom: a\nTo: b\n\n"));
        // Nor are a log's levels.
        assert!(!looks_like_mail(b"WARNING:root:x\nFrom: a\nTo: b\n\n"));
        assert!(looks_like_mail(b"Warnings: x\nFrom: a\nTo: b\n\n"));
    }
}
