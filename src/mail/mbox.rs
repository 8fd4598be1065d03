//! Splitting mail input into messages: an mbox (mboxrd or mboxo) one
//! message at a time, or a single RFC 5322 message.

use std::io::{self, Read};

use memchr::memmem;

use super::header::Head;

/// One message and where it starts.
#[derive(Debug, Default)]
pub struct RawMessage {
    /// The message, without its mbox `From ` line, with `>From ` unescaped.
    pub bytes: Vec<u8>,
    /// 1-based line of the input where the message starts (its `From `
    /// line in an mbox).
    pub line: u64,
}

/// How much is read at once.
const CHUNK: usize = 256 * 1024;

/// The largest message decoded as mail: a longer one (a huge attachment, a
/// generated file that starts with `From `) would have to be held whole.
pub const MAX_MESSAGE: usize = 16 << 20;

/// What [`Messages::next_message`] gives.
#[derive(Debug)]
pub enum Item {
    /// A whole message.
    Message(RawMessage),
    /// A message longer than [`MAX_MESSAGE`] starts at this line; the rest
    /// of the input is left to [`Messages::into_rest`].
    TooLarge { line: u64 },
}

/// Reads messages one by one from `rdr`; memory is bounded by the largest
/// message plus one read, not by the input.
///
/// A message ends where a line starting with `From ` follows a blank line.
///
/// # Invariants
///
/// `buf[start..]` is input not yet returned; `line` is the 1-based line
/// number of `buf[start]`.
pub struct Messages<R> {
    rdr: R,
    buf: Vec<u8>,
    start: usize,
    line: u64,
    eof: bool,
    separator: memmem::Finder<'static>,
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
            eof: false,
            separator: memmem::Finder::new(b"\nFrom "),
        }
    }

    /// The next message, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error of the underlying reader.
    pub fn next_message(&mut self) -> io::Result<Option<Item>> {
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
                return Ok(Some(Item::TooLarge { line: self.line }));
            }
            searched = unreturned.saturating_sub(8);
            self.fill()?;
        };
        if end == self.start {
            return Ok(None);
        }
        let text = &self.buf[self.start..end];
        let line = self.line;
        self.line += count_lines(text);
        let from_line = if text.starts_with(b"From ") {
            memchr::memchr(b'\n', text).map_or(text.len(), |nl| nl + 1)
        } else {
            0
        };
        let body = self.start + from_line..end;
        self.start = end;
        let bytes = match unescape_from_lines(&self.buf[body.clone()]) {
            Some(unescaped) => unescaped,
            // The last message of the input is handed the buffer instead
            // of a copy (a one-message file is never copied).
            None if self.eof && end == self.buf.len() => {
                let mut bytes = std::mem::take(&mut self.buf);
                bytes.truncate(body.end);
                bytes.drain(..body.start);
                self.start = 0;
                bytes
            }
            None => self.buf[body].to_vec(),
        };
        Ok(Some(Item::Message(RawMessage { bytes, line })))
    }

    /// The input not yet returned, as one reader.
    pub fn into_rest(self) -> impl Read {
        let mut unread = io::Cursor::new(self.buf);
        unread.set_position(self.start as u64);
        unread.chain(self.rdr)
    }

    /// Where the message at `start` ends (the offset of the next one's
    /// `From ` line), looking for separators from `from` on.
    fn message_end(&self, from: usize) -> Option<usize> {
        let hay = &self.buf[..];
        // A `From ` at `start` is this message's own separator line.
        let skip = usize::from(hay[self.start..].starts_with(b"From "));
        let from = from.max(self.start + skip);
        self.separator
            .find_iter(&hay[from..])
            .map(|p| from + p)
            .find(|&nl| {
                // The line before must be blank.
                let before = &hay[self.start..nl];
                before.ends_with(b"\n") || before.ends_with(b"\n\r") || before.is_empty()
            })
            .map(|nl| nl + 1)
    }

    /// Reads up to [`CHUNK`] more bytes, into the buffer's spare room
    /// (which costs no zeroing when `rdr` is a `File`, or std's wrappers of
    /// one). When that room is short, what was returned already is dropped
    /// first: then only the message being read moves, and the buffer stops
    /// growing at about twice [`CHUNK`] plus the longest message.
    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 && self.buf.capacity() - self.buf.len() < CHUNK {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let n = (&mut self.rdr)
            .take(CHUNK as u64)
            .read_to_end(&mut self.buf)?;
        if n == 0 {
            self.eof = true;
        }
        Ok(())
    }
}

/// Counts the line breaks of `bytes`.
fn count_lines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// mboxrd: lines `>From `, `>>From ` … lose one `>`. Returns `None` when
/// there is none (the body is its own unescaped text).
fn unescape_from_lines(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut copied = 0;
    for at in memmem::find_iter(body, b">From ") {
        // `at` is the last `>` of a run; the run must start a line.
        let run_start = body[..at]
            .iter()
            .rposition(|&b| b != b'>')
            .map_or(0, |p| p + 1);
        if run_start == 0 || body[run_start - 1] == b'\n' {
            out.reserve(body.len());
            out.extend_from_slice(&body[copied..run_start]);
            copied = run_start + 1;
        }
    }
    if copied == 0 {
        return None;
    }
    out.extend_from_slice(&body[copied..]);
    Some(out)
}

/// Returns true if and only if `head` (the first bytes of an input) looks
/// like mail: an mbox (`From ` first line) or a message whose header block
/// is made of header fields only and holds at least two of the usual ones.
pub fn looks_like_mail(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.starts_with(b"From ") {
        return true;
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
    let usual = fields
        .iter()
        .filter(|f| USUAL.iter().any(|u| f.name.eq_ignore_ascii_case(u)))
        .count();
    // A line that is not a field (prose, a name with a space) has no name.
    usual >= 2 && fields.iter().all(|f| !f.name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &str) -> Vec<(u64, String)> {
        let mut messages = Messages::new(input.as_bytes());
        let mut all = Vec::new();
        while let Some(Item::Message(m)) = messages.next_message().unwrap() {
            all.push((m.line, String::from_utf8(m.bytes).unwrap()));
        }
        all
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
        assert!(whole
            .iter()
            .all(|(_, m)| m.ends_with(b"\nFrom here on, unescaped\n\n")));
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
        // A one-message input is handed over whole, prefix or not.
        let eml = include_bytes!("../../fixtures/mail/base64.eml");
        let from_line = eml.iter().position(|&b| b == b'\n').unwrap() + 1;
        for prefix in [0, 100, eml.len()] {
            let rest = Trickle {
                rest: &eml[prefix..],
                step: 512,
            };
            let got = split_all(Messages::with_prefix(eml[..prefix].to_vec(), rest));
            assert!(got == [(1, eml[from_line..].to_vec())], "prefix {prefix}");
        }
    }

    fn split_all<R: Read>(mut messages: Messages<R>) -> Vec<(u64, Vec<u8>)> {
        let mut all = Vec::new();
        while let Some(Item::Message(m)) = messages.next_message().unwrap() {
            all.push((m.line, m.bytes));
        }
        all
    }

    #[test]
    fn a_single_message_is_one_message() {
        let got = split("Subject: hi\nFrom: a@b\n\nbody\n");
        assert_eq!(got, [(1, "Subject: hi\nFrom: a@b\n\nbody\n".to_string())]);
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
    }
}
