//! Everything the binding takes from `uriscan::mail`, in one place: when
//! the library's mail API changes, this module is what follows it.
//!
//! The positions given for a URI found in mail are the command line's:
//! `line` is what its `--json` prints for the URI (today the line where
//! the message starts), `column`, `start` and `end` are the library's.

use std::io::{self, Read};
use std::sync::Arc;

use uriscan::mail::{self, MailFound, MailSink, Messages};
use uriscan::Scanner;

use crate::found::{Found, MailPlace};
use crate::input::Out;

/// Returns true if and only if an input starting with `probe` (its first
/// 8 KiB) is mail, as the command line decides.
pub fn looks_like_mail(probe: &[u8]) -> bool {
    mail::looks_like_mail(probe)
}

/// Scans `prefix` followed by `rest` as mail (an mbox or one message),
/// one message at a time.
///
/// # Errors
///
/// A read error, or the first error `out` returns.
pub fn scan<R: Read>(
    scanner: &Scanner,
    prefix: Vec<u8>,
    rest: R,
    out: &mut dyn Out,
) -> io::Result<()> {
    let messages = Messages::with_prefix(prefix, rest);
    mail::scan_messages(scanner, messages, &mut Places { out, place: None })
}

/// Turns what mail reading finds into [`Found`]s.
struct Places<'a> {
    out: &'a mut dyn Out,
    /// The place of the last URI, for the next ones of the same part.
    place: Option<Arc<MailPlace>>,
}

impl MailSink for Places<'_> {
    fn found(&mut self, m: &MailFound<'_>) -> io::Result<bool> {
        let same = self.place.as_ref().is_some_and(|p| {
            p.message_line == m.message_line
                && p.part == m.part
                && p.message_id.as_deref() == m.message_id
        });
        if !same {
            self.place = Some(Arc::new(MailPlace {
                message_id: m.message_id.map(str::to_string),
                message_line: m.message_line,
                part: m.part.to_string(),
            }));
        }
        self.out.found(Found {
            line: m.message_line,
            mail: self.place.clone(),
            ..Found::plain(&m.found)
        })
    }

    fn warning(&mut self, message_line: u64, warning: &str) {
        self.out
            .warning(format!("message at line {message_line}: {warning}"));
    }
}
