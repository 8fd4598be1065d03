//! URIs found, on their way to the printer in batches; with `--json`, each
//! record's line rendered by the thread that found it.
//!
//! A JSON line is rendered as its URI is found, on the scanning thread,
//! but for what only the printer knows: the line numbers (a segment counts
//! its lines from its own start, and the printer moves them on by the line
//! breaks of the segments before it) and the path (the same for every
//! record of an input: the printer renders it once). The printer writes
//! the rendered pieces around them ([`Entry::write_json`]). Formatted by
//! the printer, under its lock, a run's JSON was formatted on one thread at
//! a time while the others waited for the lock.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use uriscan::Delimiter;

use crate::args::{Config, Format};

/// How many records travel to the printer together: a batch's records are
/// allocated whole at its first (growing them record by record copied them
/// over and over), and stay under the size whose free makes the allocator
/// consolidate its free lists (64 KiB).
const BATCH: usize = 256;
const _: () = assert!(BATCH * std::mem::size_of::<Kept>() < 64 * 1024);

/// URIs found, in order: what the printer reads of each, their text in one
/// string (not a string per URI: allocating and freeing one, often on
/// another thread when the batch is held for its turn, cost more than the
/// copy), and with `--json` their lines rendered in one buffer.
///
/// # Invariants
///
/// Each of `kept` says where its URI and JSON line are in `text` and
/// `json`; `json` is empty unless the records were rendered.
#[derive(Debug, Default)]
pub struct Batch {
    kept: Vec<Kept>,
    text: String,
    json: Vec<u8>,
    /// The pool of the thread that fills it ([`POOLS`]).
    pool: usize,
}

/// What the printer reads of a [`Record`]: the rest of it is rendered into
/// its JSON line, if anything, as it is pushed, and dropped there, on the
/// thread that made it.
#[derive(Debug)]
struct Kept {
    uri: Range<usize>,
    line: u64,
    column: u64,
    error: Option<String>,
    json: Option<JsonPieces>,
}

/// A record's JSON line in its batch's `json`, rendered but for its line
/// numbers and path: `start..line` comes before its line number,
/// `line..path` before its path (holding, in mail, the number of the line
/// its message starts on, and where it goes), `path..end` after its path.
#[derive(Clone, Copy, Debug)]
struct JsonPieces {
    start: usize,
    line: usize,
    message_line: Option<(usize, u64)>,
    path: usize,
    end: usize,
}

/// Batches printed, for the threads that filled them to empty and fill
/// again ([`Batch::recycle`]), one pool per thread (past [`POOLS_LEN`]
/// threads, some share one). A batch is allocated once, not for every
/// [`BATCH`] URIs: freeing batches, often on another thread than the one
/// that allocated them, made glibc's allocator give memory back to the
/// system and fault it in again (twice the system time at `-j2` on one
/// large file). And a batch is emptied by the thread that filled it: what
/// its records own (the error of an invalid one) is freed where it was
/// allocated, as glibc's allocator locks the arena of a chunk freed by
/// another thread (see `parallel::Done`); emptied by the printing thread,
/// records that still held their mail place, IRI and resolved link cost 5%
/// at `-j2 --json` over the corpus tree (160 against 152 ms, alternating
/// runs).
static POOLS: [Mutex<Vec<Batch>>; POOLS_LEN] = [const { Mutex::new(Vec::new()) }; POOLS_LEN];

/// How many pools of batches there are.
const POOLS_LEN: usize = 16;

thread_local! {
    /// This thread's pool of batches.
    static POOL: usize = {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed) % POOLS_LEN
    };
}

/// How many printed batches a pool keeps for reuse, at most.
const SPARE_LIMIT: usize = 64;

/// How records are made ready for the printer as they are found: with
/// `--json`, their lines rendered.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    json: bool,
    /// `--invalid`: the error and validity of each record are shown.
    invalid: bool,
    /// What ends a line (`-0`).
    terminator: u8,
}

impl Form {
    pub fn of(cfg: &Config) -> Form {
        Form {
            json: cfg.format == Format::Json,
            invalid: cfg.invalid,
            terminator: cfg.terminator,
        }
    }
}

impl Batch {
    /// Adds `record`, whose URI is `uri`, made ready as `form` asks.
    pub fn push(&mut self, uri: &str, record: Record, form: Form) {
        if self.kept.capacity() == 0 {
            *self = Batch::spare();
        }
        let json = form
            .json
            .then(|| render_json(&mut self.json, uri, &record, form));
        self.kept.push(Kept {
            uri: self.text.len()..self.text.len() + uri.len(),
            line: record.line,
            column: record.column,
            error: record.error,
            json,
        });
        self.text.push_str(uri);
    }

    /// Returns true if and only if the batch holds as many records as
    /// travel together: it is to be sent.
    pub fn is_full(&self) -> bool {
        self.kept.len() == BATCH
    }

    /// Returns true if and only if the batch holds no record.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// The batch's records, in order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        self.kept.iter().map(|kept| Entry {
            uri: &self.text[kept.uri.clone()],
            line: kept.line,
            column: kept.column,
            error: kept.error.as_deref(),
            json: kept.json.map(|pieces| (&self.json[..], pieces)),
        })
    }

    /// An empty batch with room for [`BATCH`] records: a printed one of
    /// this thread's pool, emptied here, if any.
    fn spare() -> Batch {
        let pool = POOL.with(|pool| *pool);
        let printed = POOLS[pool].lock().ok().and_then(|mut spare| spare.pop());
        match printed {
            Some(mut batch) => {
                batch.kept.clear();
                batch.text.clear();
                batch.json.clear();
                batch
            }
            None => Batch {
                kept: Vec::with_capacity(BATCH),
                text: String::new(),
                json: Vec::new(),
                pool,
            },
        }
    }

    /// Gives this batch, once printed, back to the pool of the thread that
    /// filled it, which empties it to fill it again.
    pub fn recycle(self) {
        if let Ok(mut spare) = POOLS[self.pool].lock() {
            if spare.len() < SPARE_LIMIT {
                spare.push(self);
            }
        }
    }

    /// About how many bytes the batch holds.
    pub fn size(&self) -> usize {
        self.text.len() + self.json.len() + self.kept.len() * std::mem::size_of::<Kept>()
    }
}

/// One record of a batch, as the printer reads it: its URI, where it was
/// found (its line counted from its segment's start), its error if it is
/// invalid, and with `--json` its line.
pub struct Entry<'b> {
    pub uri: &'b str,
    pub line: u64,
    pub column: u64,
    pub error: Option<&'b str>,
    /// The batch's rendered lines, and where this record's is.
    json: Option<(&'b [u8], JsonPieces)>,
}

impl Entry<'_> {
    /// Writes the record's JSON line, its line numbers moved on by
    /// `line_base`, with `path` (rendered as JSON) as its path.
    ///
    /// # Panics
    ///
    /// If the batch was not filled in the JSON form ([`Form`]).
    pub fn write_json<W: Write>(&self, out: &mut W, line_base: u64, path: &[u8]) -> io::Result<()> {
        let (json, at) = self.json.expect("records rendered as JSON Lines");
        let mut number = itoa::Buffer::new();
        out.write_all(&json[at.start..at.line])?;
        out.write_all(number.format(self.line + line_base).as_bytes())?;
        let mut rest = at.line;
        if let Some((at_message_line, message_line)) = at.message_line {
            out.write_all(&json[rest..at_message_line])?;
            out.write_all(number.format(message_line + line_base).as_bytes())?;
            rest = at_message_line;
        }
        out.write_all(&json[rest..at.path])?;
        out.write_all(path)?;
        out.write_all(&json[at.path..at.end])
    }
}

/// Renders the JSON line of `r`, whose URI is `uri`, at the end of `out`,
/// but for its line numbers and path; returns where its pieces are.
///
/// One object, its keys in sorted order (as serde_json's map sorts them),
/// written straight out: no map is built per URI.
fn render_json(out: &mut Vec<u8>, uri: &str, r: &Record, form: Form) -> JsonPieces {
    let mut number = itoa::Buffer::new();
    let start = out.len();
    out.extend_from_slice(b"{\"column\":");
    out.extend_from_slice(number.format(r.column).as_bytes());
    out.extend_from_slice(match r.delimiter {
        Delimiter::Angle => b",\"delimiter\":\"angle\"",
        Delimiter::Quote => b",\"delimiter\":\"quote\"",
        Delimiter::None => b",\"delimiter\":\"none\"",
    });
    out.extend_from_slice(b",\"end\":");
    out.extend_from_slice(number.format(r.end).as_bytes());
    if let Some(error) = r.error.as_deref().filter(|_| form.invalid) {
        out.extend_from_slice(b",\"error\":");
        json_string(out, error);
    }
    out.extend_from_slice(b",\"hyphen_break\":");
    out.extend_from_slice(json_bool(r.hyphen_break));
    if let Some(d) = &r.doc {
        out.extend_from_slice(b",\"in_code\":");
        out.extend_from_slice(json_bool(d.in_code));
    }
    if let Some(iri) = &r.iri {
        out.extend_from_slice(b",\"iri\":");
        json_string(out, iri);
    }
    out.extend_from_slice(b",\"line\":");
    let line = out.len();
    let mut message_line = None;
    if let Some(m) = &r.mail {
        out.extend_from_slice(b",\"message_id\":");
        match &m.message_id {
            Some(id) => json_string(out, id),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"message_line\":");
        message_line = Some((out.len(), m.message_line));
        out.extend_from_slice(b",\"part\":");
        json_string(out, &m.part);
    }
    out.extend_from_slice(b",\"path\":");
    let path = out.len();
    if let Some(d) = r.doc.as_ref().filter(|d| d.relative) {
        out.extend_from_slice(b",\"relative\":true");
        if let Some(resolved) = &d.resolved {
            out.extend_from_slice(b",\"resolved\":");
            json_string(out, resolved);
        }
    }
    out.extend_from_slice(b",\"start\":");
    out.extend_from_slice(number.format(r.start).as_bytes());
    out.extend_from_slice(b",\"uri\":");
    json_string(out, uri);
    out.extend_from_slice(b",\"url_prefix\":");
    out.extend_from_slice(json_bool(r.url_prefix));
    if form.invalid {
        out.extend_from_slice(b",\"valid\":");
        out.extend_from_slice(json_bool(r.error.is_none()));
    }
    out.extend_from_slice(b",\"wrapped\":");
    out.extend_from_slice(json_bool(r.wrapped));
    out.extend_from_slice(b"}");
    out.push(form.terminator);
    JsonPieces {
        start,
        line,
        message_line,
        path,
        end: out.len(),
    }
}

fn json_bool(b: bool) -> &'static [u8] {
    if b {
        b"true"
    } else {
        b"false"
    }
}

/// Appends `s` to `out` as a JSON string, quoted and escaped as serde_json
/// escapes it.
pub fn json_string(out: &mut Vec<u8>, s: &str) {
    // serde_json escapes `"`, `\` and the control characters, nothing else:
    // most strings (every valid URI) are copied as they are.
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        serde_json::to_writer(out, s).expect("a string is written to memory");
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// One URI found, as [`Batch::push`] takes it (its text apart).
#[derive(Debug)]
pub struct Record {
    /// The text as written, when it is not the URI (`--iri uri`, or a
    /// fragment's `#` read as `%23`).
    pub iri: Option<String>,
    pub line: u64,
    pub column: u64,
    pub start: usize,
    pub end: usize,
    pub delimiter: Delimiter,
    pub wrapped: bool,
    pub url_prefix: bool,
    pub hyphen_break: bool,
    /// The parse error of an invalid candidate (`--invalid`).
    pub error: Option<String>,
    /// Where in a message, for input read as mail and printed as JSON
    /// Lines, the one format that shows it (`line`, `column`, `start` and
    /// `end` are still those of the file).
    pub mail: Option<Arc<MailPlace>>,
    /// What a link of a document is, for input read as one.
    pub doc: Option<DocLink>,
}

/// What is known of a link found in a document.
#[derive(Debug, PartialEq, Eq)]
pub struct DocLink {
    /// In a code span or block: an example.
    pub in_code: bool,
    /// A relative reference (the URI is then what was written, or its
    /// resolved form).
    pub relative: bool,
    /// The resolved form of a relative reference, when a base is known.
    pub resolved: Option<String>,
}

/// Where a URI found in mail stands (shared by the URIs of one part).
#[derive(Debug, PartialEq, Eq)]
pub struct MailPlace {
    pub message_id: Option<String>,
    pub message_line: u64,
    pub part: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(invalid: bool) -> Form {
        Form {
            json: true,
            invalid,
            terminator: b'\n',
        }
    }

    fn record() -> Record {
        Record {
            iri: None,
            line: 3,
            column: 7,
            start: 40,
            end: 52,
            delimiter: Delimiter::Angle,
            wrapped: true,
            url_prefix: false,
            hyphen_break: true,
            error: None,
            mail: None,
            doc: None,
        }
    }

    /// The line of `r` as the printer writes it.
    fn line_of(uri: &str, r: Record, form: Form, line_base: u64, path: &[u8]) -> String {
        let mut batch = Batch::default();
        batch.push(uri, r, form);
        let mut out = Vec::new();
        for entry in batch.entries() {
            entry.write_json(&mut out, line_base, path).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    /// Every optional key, and both line numbers moved on by the line
    /// base: the line is what serde_json writes of the same object.
    #[test]
    fn rendered_lines_are_serde_json_objects_with_the_printers_numbers() {
        let mail = Arc::new(MailPlace {
            message_id: Some("<a\"b@c>".to_string()),
            message_line: 2,
            part: "1.2 text/html".to_string(),
        });
        let full = Record {
            iri: Some("http://ü.de/".to_string()),
            error: Some("invalid port at byte 9".to_string()),
            mail: Some(mail),
            doc: Some(DocLink {
                in_code: true,
                relative: true,
                resolved: Some("http://b.org/x".to_string()),
            }),
            ..record()
        };
        let line = line_of("x\ty", full, form(true), 100, b"\"dir/a.txt\"");
        let want = serde_json::json!({
            "column": 7, "delimiter": "angle", "end": 52,
            "error": "invalid port at byte 9", "hyphen_break": true,
            "in_code": true, "iri": "http://ü.de/", "line": 103,
            "message_id": "<a\"b@c>", "message_line": 102, "part": "1.2 text/html",
            "path": "dir/a.txt", "relative": true, "resolved": "http://b.org/x",
            "start": 40, "uri": "x\ty", "url_prefix": false, "valid": false,
            "wrapped": true,
        });
        assert_eq!(line, format!("{}\n", serde_json::to_string(&want).unwrap()));

        // The fewest keys: no mail, no document; null message id.
        let line = line_of("http://a.org/", record(), form(false), 0, b"null");
        let want = serde_json::json!({
            "column": 7, "delimiter": "angle", "end": 52, "hyphen_break": true,
            "line": 3, "path": null, "start": 40, "uri": "http://a.org/",
            "url_prefix": false, "wrapped": true,
        });
        assert_eq!(line, format!("{}\n", serde_json::to_string(&want).unwrap()));
        let no_id = Record {
            mail: Some(Arc::new(MailPlace {
                message_id: None,
                message_line: 5,
                part: String::new(),
            })),
            ..record()
        };
        let line = line_of("http://a.org/", no_id, form(false), 1, b"null");
        assert!(
            line.contains(r#""line":4,"message_id":null,"message_line":6,"part":"","path":null"#)
        );
    }

    /// Records of one batch keep their own pieces, and `-0` ends each.
    #[test]
    fn each_record_of_a_batch_is_written_from_its_own_pieces() {
        let mut batch = Batch::default();
        let zero = Form {
            terminator: 0,
            ..form(false)
        };
        for i in 0..3 {
            let r = Record {
                line: i,
                ..record()
            };
            batch.push(&format!("http://h{i}.org/"), r, zero);
        }
        let mut out = Vec::new();
        for entry in batch.entries() {
            entry.write_json(&mut out, 10, b"\"p\"").unwrap();
        }
        let lines: Vec<&[u8]> = out.split(|&b| b == 0).collect();
        assert_eq!(lines.len(), 4);
        for (i, line) in lines[..3].iter().enumerate() {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            assert_eq!(v["uri"], format!("http://h{i}.org/"));
            assert_eq!(v["line"], 10 + i as u64);
        }
    }

    /// The fast path copies only what serde_json would not escape.
    #[test]
    fn json_strings_are_escaped_as_serde_json_escapes_them() {
        let mut cases: Vec<String> = ["", "plain", "q\"", "b\\s", "\u{7f}", "ü", "\u{2028}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        cases.extend((0u8..0x20).map(|b| format!("a{}b", char::from(b))));
        for s in cases {
            let mut out = Vec::new();
            json_string(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
        }
    }
}
