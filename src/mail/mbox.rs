//! Splitting mail input into messages: an mbox (mboxrd or mboxo) one
//! message at a time, or a single RFC 5322 message.

use std::io::{self, BufRead};

/// One message and where it starts.
#[derive(Debug, Default)]
pub struct RawMessage {
    /// The message, without its mbox `From ` line, with `>From ` unescaped.
    pub bytes: Vec<u8>,
    /// 1-based line of the input where the message starts (its `From `
    /// line in an mbox).
    pub line: u64,
}

/// Reads messages one by one from `rdr`; memory is bounded by the largest
/// message, not by the input.
///
/// # Invariants
///
/// `line` is the 1-based number of the next line to read; `pending` holds
/// a `From ` line read ahead (with its number), which starts the next
/// message.
pub struct Messages<R> {
    rdr: R,
    line: u64,
    pending: Option<(Vec<u8>, u64)>,
    done: bool,
}

impl<R: BufRead> Messages<R> {
    /// Messages of `rdr`: an mbox when its first line starts with `From `,
    /// else one message made of the whole input.
    pub fn new(rdr: R) -> Messages<R> {
        Messages {
            rdr,
            line: 1,
            pending: None,
            done: false,
        }
    }

    /// The next message, or `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error of the underlying reader.
    pub fn next_message(&mut self) -> io::Result<Option<RawMessage>> {
        if self.done {
            return Ok(None);
        }
        let mut message = RawMessage::default();
        let mut first = true;
        let mut previous_blank = true;
        loop {
            let (line, number) = match self.pending.take() {
                Some(pending) => pending,
                None => {
                    let mut line = Vec::new();
                    if self.rdr.read_until(b'\n', &mut line)? == 0 {
                        self.done = true;
                        return Ok((!first).then_some(message));
                    }
                    self.line += 1;
                    (line, self.line - 1)
                }
            };
            let is_from = line.starts_with(b"From ");
            if first {
                first = false;
                message.line = number;
                if is_from {
                    continue; // the separator line of this message
                }
            } else if is_from && previous_blank {
                self.pending = Some((line, number));
                return Ok(Some(message));
            }
            previous_blank = line == b"\n" || line == b"\r\n";
            // mboxrd: `>From `, `>>From ` … lose one `>`.
            let quoted = line.iter().take_while(|&&b| b == b'>').count();
            if quoted > 0 && line[quoted..].starts_with(b"From ") {
                message.bytes.extend_from_slice(&line[1..]);
            } else {
                message.bytes.extend_from_slice(&line);
            }
        }
    }
}

/// Returns true if and only if `head` (the first bytes of an input) looks
/// like mail: an mbox (`From ` first line) or a message whose header block
/// starts with header fields and holds at least two of the usual ones.
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
    let mut usual = 0;
    for (i, line) in head.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break; // the end of the header block
        }
        if line[0] == b' ' || line[0] == b'\t' {
            continue; // a folded header line
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return false;
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_graphic()) {
            return false;
        }
        usual += usize::from(USUAL.iter().any(|u| name.eq_ignore_ascii_case(u)));
        if i > 200 {
            break;
        }
    }
    usual >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &str) -> Vec<(u64, String)> {
        let mut messages = Messages::new(input.as_bytes());
        let mut all = Vec::new();
        while let Some(m) = messages.next_message().unwrap() {
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
