//! Printing, in input order: plain `path:line:column:uri`, JSON Lines, or
//! counts; `-u` and the totals live here, where the order is known, and so
//! do the line numbers of segments (each counts its lines from 1: they are
//! moved here by the line breaks of the segments printed before).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;

use crate::args::{Config, Format};
use crate::batch::{self, Batch, Entry};
use crate::search::{Event, Summary, Unit, Warning};
use crate::walk::Input;

const PATH_COLOR: &[u8] = b"\x1b[35m";
const NUMBER_COLOR: &[u8] = b"\x1b[32m";
const RESET: &[u8] = b"\x1b[0m";

/// Totals for `--stats` and the exit code.
#[derive(Debug, Default)]
pub struct Totals {
    /// Inputs scanned (not binary, no error).
    pub files: u64,
    /// Inputs skipped as binary.
    pub binary: u64,
    /// Inputs that could not be read, and errors met by the walk.
    pub errors: u64,
    /// Bytes scanned.
    pub bytes: u64,
    /// URIs printed (or counted).
    pub uris: u64,
    /// Over-long candidates given up on.
    pub too_long: u64,
}

impl Totals {
    /// The `--stats` line, for a run that took `secs` seconds.
    pub fn stats(&self, secs: f64) -> String {
        let mb = self.bytes as f64 / 1e6;
        let rate = if secs > 0.0 { mb / secs } else { 0.0 };
        format!(
            "{} files scanned, {} binary skipped, {} errors; {:.1} MB, {} URIs, {} over-long candidates skipped in {:.3} s ({:.0} MB/s)",
            self.files, self.binary, self.errors, mb, self.uris, self.too_long, secs, rate
        )
    }
}

/// Writes what the scans found.
///
/// # Invariants
///
/// The units of an input are printed in order, each after the last one of
/// the input before; `line_base` is the number of line breaks of the
/// segments of the input being printed that came before the one being
/// printed, and `segments` what they summed to.
pub struct Printer<'c, W: Write> {
    out: W,
    cfg: &'c Config,
    /// With `-u`, the valid URIs printed so far.
    seen: HashSet<String>,
    /// With `-u --invalid`, the invalid candidates printed so far: kept
    /// apart from `seen`, so a candidate's text never hides a URI's.
    seen_invalid: HashSet<String>,
    /// URIs printed for the input being printed (for `-c`).
    in_input: u64,
    line_base: u64,
    segments: Summary,
    /// The path of the input being printed as JSON, once rendered (empty
    /// before its first record).
    json_path: Vec<u8>,
    /// Inputs printed (the walk's errors are not inputs).
    pub inputs: usize,
    pub totals: Totals,
}

impl<'c, W: Write> Printer<'c, W> {
    pub fn new(out: W, cfg: &'c Config) -> Self {
        Printer {
            out,
            cfg,
            seen: HashSet::new(),
            seen_invalid: HashSet::new(),
            in_input: 0,
            line_base: 0,
            segments: Summary::default(),
            json_path: Vec::new(),
            inputs: 0,
            totals: Totals::default(),
        }
    }

    /// Prints one event of `unit`'s scan; a write error ends the program
    /// (see [`crate::messages::exit_on_write_error`]).
    pub fn event(&mut self, unit: &Unit, event: Event) {
        // After a segment that could not be read, the input's scan stops
        // there, as one stream's does.
        if self.segments.error.is_some() && !matches!(event, Event::Done(_)) {
            return;
        }
        let input = &unit.input;
        let result = match event {
            Event::Records(records) => self.records(input, records),
            Event::Warning(warning) => self.warning(input, &warning),
            Event::Waiting => self.out.flush(),
            Event::Done(summary) if !summary.ends_input() => {
                self.segment_done(summary);
                Ok(())
            }
            Event::Done(summary) => {
                let summary = self.merge_segments(summary);
                self.line_base = 0;
                self.json_path.clear();
                self.inputs += usize::from(!unit.is_walk_error());
                self.done(input, summary)
            }
        };
        if let Err(err) = result {
            crate::messages::exit_on_write_error(err);
        }
    }

    /// A segment of the input ends: the next one's lines count on from its
    /// last.
    fn segment_done(&mut self, summary: Summary) {
        self.line_base += summary.lines;
        self.segments = self.merge_segments(summary);
    }

    /// `summary` with what the input's segments before it summed to (and
    /// those forgotten).
    fn merge_segments(&mut self, summary: Summary) -> Summary {
        let before = std::mem::take(&mut self.segments);
        Summary {
            segment: summary.segment,
            bytes: before.bytes + summary.bytes,
            lines: 0,
            binary: before.binary || summary.binary,
            binary_cut: before.binary_cut.or(summary.binary_cut),
            too_long: before.too_long + summary.too_long,
            error: before.error.or(summary.error),
        }
    }

    /// Prints a warning about `input` on stderr.
    fn warning(&mut self, input: &Input, warning: &Warning) -> io::Result<()> {
        self.out.flush()?;
        let text = &warning.text;
        crate::messages::error(&match warning.line {
            Some(line) => format!(
                "{}: warning: message at line {}: {text}",
                display(input),
                line + self.line_base
            ),
            None => format!("{}: warning: {text}", display(input)),
        });
        Ok(())
    }

    /// Prints a batch of records of `input`.
    fn records(&mut self, input: &Input, batch: Batch) -> io::Result<()> {
        for entry in batch.entries() {
            let uri = entry.uri;
            if self.cfg.unique {
                let seen = match entry.error {
                    None => &mut self.seen,
                    Some(_) => &mut self.seen_invalid,
                };
                if seen.contains(uri) {
                    continue;
                }
                seen.insert(uri.to_string());
            }
            if entry.error.is_none() {
                self.totals.uris += 1;
                self.in_input += 1;
            }
            match self.cfg.format {
                Format::Plain => self.plain(input, &entry)?,
                Format::Json => self.json(input, &entry)?,
                Format::Count => {}
                Format::Files => {
                    if entry.error.is_none() && self.in_input == 1 {
                        self.path(input)?;
                        self.out.write_all(&[self.cfg.terminator])?;
                    }
                }
                Format::Quiet => {
                    if entry.error.is_none() && !self.cfg.stats {
                        found_quiet();
                    }
                }
            }
        }
        batch.recycle();
        Ok(())
    }

    /// Ends an input: its count (`-c`), its error or binary note.
    fn done(&mut self, input: &Input, summary: Summary) -> io::Result<()> {
        self.totals.bytes += summary.bytes;
        self.totals.too_long += summary.too_long;
        if summary.too_long > 0 {
            self.out.flush()?;
            crate::messages::error(&format!(
                "{}: warning: {} candidate(s) of {} or more skipped",
                display(input),
                summary.too_long,
                size(self.cfg.max_candidate_len)
            ));
        }
        if let Some(reason) = &summary.error {
            self.totals.errors += 1;
            self.out.flush()?;
            crate::messages::error(&format!("{}: {reason}", display(input)));
        } else if summary.binary {
            self.totals.binary += 1;
        } else if let Some(at) = summary.binary_cut {
            self.totals.files += 1;
            self.out.flush()?;
            crate::messages::error(&format!(
                "{}: binary file: scanned up to its first NUL byte, at offset {at} (-a scans it all)",
                display(input)
            ));
        } else {
            self.totals.files += 1;
        }
        if self.cfg.format == Format::Count && summary.error.is_none() && !summary.binary {
            if self.cfg.with_filename {
                self.path_prefix(input)?;
            }
            write!(self.out, "{}", self.in_input)?;
            self.out.write_all(&[self.cfg.terminator])?;
        }
        self.in_input = 0;
        Ok(())
    }

    /// Ends the run: the total line of `-c` over several inputs, and a flush.
    pub fn finish(&mut self) -> io::Result<()> {
        if self.cfg.format == Format::Count && self.inputs > 1 {
            write!(self.out, "total:{}", self.totals.uris)?;
            self.out.write_all(&[self.cfg.terminator])?;
        }
        self.out.flush()
    }

    /// `path:`, before a record.
    fn path_prefix(&mut self, input: &Input) -> io::Result<()> {
        self.path(input)?;
        self.out.write_all(b":")
    }

    /// The name of `input`, colored if asked.
    fn path(&mut self, input: &Input) -> io::Result<()> {
        let color = self.cfg.color;
        if color {
            self.out.write_all(PATH_COLOR)?;
        }
        match input {
            Input::Stdin => self.out.write_all(b"<stdin>")?,
            Input::Path { path, .. } => self.out.write_all(&path_bytes(path))?,
        }
        if color {
            self.out.write_all(RESET)?;
        }
        Ok(())
    }

    /// `n:`, colored if asked.
    fn number(&mut self, n: u64) -> io::Result<()> {
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(n).as_bytes();
        if self.cfg.color {
            self.out.write_all(NUMBER_COLOR)?;
            self.out.write_all(digits)?;
            self.out.write_all(RESET)?;
        } else {
            self.out.write_all(digits)?;
        }
        self.out.write_all(b":")
    }

    fn plain(&mut self, input: &Input, entry: &Entry<'_>) -> io::Result<()> {
        if self.cfg.with_filename {
            self.path_prefix(input)?;
        }
        if self.cfg.line_number {
            self.number(entry.line + self.line_base)?;
        }
        if self.cfg.column {
            self.number(entry.column)?;
        }
        self.out.write_all(entry.uri.as_bytes())?;
        if let Some(error) = entry.error {
            write!(self.out, "\t(invalid: {error})")?;
        }
        self.out.write_all(&[self.cfg.terminator])
    }

    /// The JSON line of `entry`, rendered as it was found
    /// ([`crate::batch`]), with its line numbers and path.
    fn json(&mut self, input: &Input, entry: &Entry<'_>) -> io::Result<()> {
        if self.json_path.is_empty() {
            json_path(&mut self.json_path, input);
        }
        entry.write_json(&mut self.out, self.line_base, &self.json_path)
    }
}

/// Appends the path of `input` as JSON: a string, `null` for standard
/// input, or its bytes in base64 when it is not UTF-8, as ripgrep does,
/// so that no path is lost.
fn json_path(out: &mut Vec<u8>, input: &Input) {
    match input {
        Input::Stdin => out.extend_from_slice(b"null"),
        Input::Path { path, .. } => match path.to_str() {
            Some(path) => batch::json_string(out, path),
            None => {
                out.extend_from_slice(b"{\"bytes\":\"");
                out.extend_from_slice(base64(&path_bytes(path)).as_bytes());
                out.extend_from_slice(b"\"}");
            }
        },
    }
}

/// `-q` met a URI: the exit status is known (0, whatever errors came
/// before, as with grep), and nothing is left to print, so the run ends
/// here, without scanning the rest. Inputs before this one in input order
/// have had their errors reported; later ones are not read on.
fn found_quiet() -> ! {
    std::process::exit(0)
}

/// A size in messages: `64 KiB` when it is a whole number of KiB, else
/// `300 bytes`.
fn size(bytes: usize) -> String {
    if bytes % 1024 == 0 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// How an input is named in messages.
pub fn display(input: &Input) -> String {
    match input {
        Input::Stdin => "<stdin>".to_string(),
        Input::Path { path, .. } => path.display().to_string(),
    }
}

/// A path's bytes as the OS holds them (printed faithfully, even when not
/// UTF-8).
fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
    }
}

/// Standard base64 with padding (RFC 4648 section 4).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, want) in cases {
            assert_eq!(base64(input.as_bytes()), want);
        }
    }
}
