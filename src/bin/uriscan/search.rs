//! Scanning one input, or one segment of a large file: open it
//! (decompressing with `-z`), decode it (`-E`, a byte-order mark), skip it
//! if it looks binary, and stream what the scanner finds to the printer in
//! batches.

use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use uriscan::encoding::{DecodeReader, Decoding, Places};
use uriscan::mail::{self, Message, Messages};
use uriscan::scan::DEFAULT_CHUNK_SIZE;
use uriscan::{Chunk, Chunks, Found, Segments, Sink, Span};

use uriscan::doc::DocKind;

use crate::args::{Config, Format, MailMode};
use crate::batch::{Batch, DocLink, Form, MailPlace, Record};
use crate::documents;
use crate::messages::io_reason;
use crate::walk::Input;

/// How many bytes are looked at for a NUL to call a file binary.
const BINARY_PROBE: usize = 8 * 1024;

/// What the scan of one input (or segment) sends to the printer.
#[derive(Debug)]
pub enum Event {
    /// URIs found, in order.
    Records(Batch),
    /// A problem that did not stop the scan (malformed mail).
    Warning(Warning),
    /// The scan is about to wait for its input (a stream): what was sent
    /// is to be shown now, not when the output's buffer fills.
    Waiting,
    /// The input (or segment) was scanned to its end (or could not be).
    Done(Summary),
}

/// A problem that did not stop the scan.
#[derive(Debug)]
pub struct Warning {
    /// The line of the message it is about, in mail.
    pub line: Option<u64>,
    pub text: String,
}

/// How the scan of one input (or segment) ended.
#[derive(Debug, Default)]
pub struct Summary {
    /// The segment this is the summary of, when the input was cut.
    pub segment: Option<SegmentOf>,
    pub bytes: u64,
    /// How many line breaks a segment holds (the lines of the segments
    /// after it count on from there).
    pub lines: u64,
    /// It looked binary and was skipped.
    pub binary: bool,
    /// It looked binary but was named on the command line: it was scanned
    /// up to its first NUL byte, at this offset (of the input's bytes, for
    /// decoded text).
    pub binary_cut: Option<usize>,
    /// Candidates that reached the scanner's limit, given up on.
    pub too_long: u64,
    /// Why the input could not be read (wholly or in part).
    pub error: Option<String>,
}

impl Summary {
    /// Returns true if and only if nothing of the input comes after what
    /// this summary ends.
    pub fn ends_input(&self) -> bool {
        self.segment.is_none_or(|s| s.k + 1 == s.count)
    }
}

/// One piece of work for a thread: an input, or one segment of a large
/// regular file, or a path the walk could not enter (only to report).
#[derive(Debug)]
pub struct Unit {
    pub input: Arc<Input>,
    /// Which segment, when the input was cut into segments.
    pub segment: Option<SegmentOf>,
    /// Why the walk could not enter or follow the path `input` names.
    walk_error: Option<String>,
}

/// Segment `k` of the `count` segments of a file of `len` bytes, cut as
/// an mbox (between messages) when `mail`, as text otherwise: decided once,
/// by the unit that cut it, from the file's first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentOf {
    pub k: u64,
    pub count: u64,
    pub len: u64,
    pub mail: bool,
}

impl Unit {
    /// The unit that scans `input` (and may cut it into segments, see
    /// [`scan_unit`]).
    pub fn whole(input: Input) -> Unit {
        Unit {
            input: Arc::new(input),
            segment: None,
            walk_error: None,
        }
    }

    /// The unit that reports why the walk could not enter or follow `path`.
    pub fn walk_error(path: PathBuf, reason: String) -> Unit {
        Unit {
            input: Arc::new(Input::Path {
                path,
                named: false,
                regular: false,
            }),
            segment: None,
            walk_error: Some(reason),
        }
    }

    /// Segment `segment.k` of the input of `self`.
    pub fn segment(&self, segment: SegmentOf) -> Unit {
        Unit {
            input: self.input.clone(),
            segment: Some(segment),
            walk_error: None,
        }
    }

    /// Returns true if and only if this unit only reports a path the walk
    /// could not enter or follow.
    pub fn is_walk_error(&self) -> bool {
        self.walk_error.is_some()
    }
}

/// Returns true if and only if `-z` decompresses the file at `path`, by
/// its name.
fn is_compressed(path: &Path, cfg: &Config) -> bool {
    cfg.search_zip
        && path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "gz" | "tgz" | "bz2" | "xz" | "zst"))
}

/// Scans `unit`, sending batches of records to `send` and a summary last
/// (which says which segment it ends, when the input is cut).
///
/// With several threads, a regular file larger than two segments, read as
/// it is (not decompressed, not a document), is cut (standard input too,
/// when it is such a file, unread: [`stdin_file`]): its whole unit hands
/// the segments after the first to `split` (which queues them for other
/// threads) and scans the first. Whether the file is cut, as text or as an
/// mbox, is told by its first bytes, which the whole unit reads before it
/// cuts ([`cut_as`]); a segment carries the answer ([`SegmentOf::mail`])
/// and reads no more than its own bytes and its boundaries'.
pub fn scan_unit(
    unit: &Unit,
    cfg: &Config,
    split: &mut dyn FnMut(SegmentOf),
    send: &mut dyn FnMut(Event),
) {
    let mut segment = unit.segment;
    let result = match (&*unit.input, &unit.walk_error) {
        (_, Some(reason)) => Ok(Summary {
            error: Some(reason.clone()),
            ..Summary::default()
        }),
        (
            Input::Path {
                path,
                named,
                regular,
            },
            None,
        ) => {
            if !*regular && is_shared_stream(&unit.input, cfg) {
                send(Event::Waiting);
            }
            let kind = documents::kind_of(path, cfg);
            if cfg.threads == 1 || kind.is_some() || is_compressed(path, cfg) {
                let how = how(path, *named, *regular, kind, cfg, Split::None);
                open(path, cfg).and_then(|rdr| scan_reader(rdr, cfg, how, send))
            } else {
                let how = how(path, *named, *regular, None, cfg, Split::None);
                File::open(path)
                    .and_then(|file| scan_file(file, how, &mut segment, cfg, split, send))
            }
        }
        // A segment of standard input, which its first unit found to be a
        // file and cut: read at offsets, never as the stream.
        (Input::Stdin, None) if segment.is_some() => stdin_handle().and_then(|file| {
            scan_file(file, stdin_how(Split::None), &mut segment, cfg, split, send)
        }),
        (Input::Stdin, None) => match stdin_file(cfg) {
            Some(file) => scan_file(file, stdin_how(Split::None), &mut segment, cfg, split, send),
            None => {
                if is_shared_stream(&Input::Stdin, cfg) {
                    send(Event::Waiting);
                }
                scan(&Input::Stdin, cfg, Split::None, send)
            }
        },
    };
    let summary = match result {
        Ok(summary) => summary,
        Err(err) => Summary {
            error: Some(io_reason(&err)),
            ..Summary::default()
        },
    };
    send(Event::Done(Summary { segment, ..summary }));
}

/// Scans `file`, read as it is (not decompressed, not a document), in
/// segments when it is a regular file larger than two that is read as
/// text or as an mbox: the unit that finds it so (`segment` is `None`)
/// queues the others with `split` and scans the first, setting `segment`.
fn scan_file(
    mut file: File,
    how: How,
    segment: &mut Option<SegmentOf>,
    cfg: &Config,
    split: &mut dyn FnMut(SegmentOf),
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    if segment.is_none() {
        if how.stream {
            return scan_reader(file, cfg, how, send);
        }
        let probe = read_probe(&mut file)?;
        // A file shorter than the probe is not cut: only a longer one is
        // asked its length.
        let first = match cut_as(cfg, &probe) {
            Some(mail) if probe.len() == BINARY_PROBE => {
                segments_of(&file, probe.len() as u64, mail, cfg)?
            }
            _ => None,
        };
        let Some(first) = first else {
            return scan_read(probe, file, cfg, how, send);
        };
        for k in 1..first.count {
            split(SegmentOf { k, ..first });
        }
        *segment = Some(first);
    }
    let this = segment.expect("a segment, or scanned whole above");
    let summary = scan_segment(&file, this, cfg, send)?;
    if this.k == 0 {
        // Where a read to the end leaves it (standard input's offset is
        // shared with whoever reads it after this run).
        file.seek(io::SeekFrom::End(0))?;
    }
    Ok(summary)
}

/// How an input starting with `probe` may be cut into segments: `Some(false)`
/// as text, `Some(true)` as an mbox (between messages); `None` when it
/// is read whole: it looks binary, is decoded (`-E`, a byte-order mark),
/// or is mail but not an mbox.
fn cut_as(cfg: &Config, probe: &[u8]) -> Option<bool> {
    let mail = reads_as_mail(cfg, probe);
    let binary = !cfg.binary && !mail && memchr::memchr(0, probe).is_some();
    let decoded = !mail && cfg.encoding.decoding_for(probe).is_some();
    let whole = binary || decoded || (mail && !probe.starts_with(b"From "));
    (!whole).then_some(mail)
}

/// Standard input as a file that threads can read at offsets, for its
/// first unit to cut into segments: when several threads are asked for,
/// standard input is named once (`- -` reads it in turn, as a stream: the
/// second finds it read), and it is a regular file (`< big.log`) that
/// nothing has read yet (its offset is 0; a file given part read is
/// scanned from there, as a stream).
fn stdin_file(cfg: &Config) -> Option<File> {
    if cfg.threads == 1 || !stdin_named_once(cfg) {
        return None;
    }
    let file = stdin_handle().ok()?;
    let unread = file.metadata().ok()?.is_file() && (&file).stream_position().ok()? == 0;
    unread.then_some(file)
}

/// Returns true if and only if standard input (`-`) is named once among
/// the paths, not twice or more.
fn stdin_named_once(cfg: &Config) -> bool {
    cfg.paths.iter().filter(|p| p.as_os_str() == "-").count() == 1
}

/// Returns true if and only if `input`, read as a stream (standard input
/// that is not a file it may cut, a named FIFO or device), is one that
/// the command line names more than once: `- -`, `- /dev/stdin`, a FIFO
/// twice. Its units then read in turn: each waits for its turn (sends
/// [`Event::Waiting`]) before it opens or reads, so for the units before
/// it to be done, as with one thread. Otherwise two would read it at once
/// and share its bytes out between them, and one that had taken standard
/// input's lock could wait for its turn while holding it, which the one
/// in turn would wait for: a hang.
#[cfg(unix)]
fn is_shared_stream(input: &Input, cfg: &Config) -> bool {
    use std::os::unix::fs::MetadataExt;
    let id = |meta: std::fs::Metadata| (meta.dev(), meta.ino());
    let stdin = || stdin_handle().and_then(|file| file.metadata()).ok().map(id);
    let named = |path: &Path| {
        if path.as_os_str() == "-" {
            stdin()
        } else {
            std::fs::metadata(path).ok().map(id)
        }
    };
    let this = match input {
        Input::Stdin => stdin(),
        Input::Path { path, .. } => named(path),
    };
    this.is_some()
        && cfg
            .paths
            .iter()
            .filter(|p| named(p) == this)
            .nth(1)
            .is_some()
}

/// Without a file's identity to compare, only standard input named twice
/// is known to be shared.
#[cfg(not(unix))]
fn is_shared_stream(input: &Input, cfg: &Config) -> bool {
    matches!(input, Input::Stdin) && !stdin_named_once(cfg)
}

/// A handle to standard input (a `dup` of it, which shares its offset: the
/// units of its segments read it at offsets only, while its first unit may
/// be reading on).
#[cfg(unix)]
fn stdin_handle() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn stdin_handle() -> io::Result<File> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "standard input read at offsets",
    ))
}

/// The first of the segments `file` is cut into (as an mbox when `mail`),
/// or `None` when it is not a regular file larger than two segments, or
/// is not worth cutting ([`Segments::cuts`]); then `file` reads on from
/// `read`, where its reads so far left it.
fn segments_of(file: &File, read: u64, mail: bool, cfg: &Config) -> io::Result<Option<SegmentOf>> {
    let meta = file.metadata()?;
    let (len, size) = (meta.len(), cfg.segment_size);
    if !meta.is_file() || len <= size.saturating_mul(2) {
        return Ok(None);
    }
    let first = SegmentOf {
        k: 0,
        count: len.div_ceil(size),
        len,
        mail,
    };
    if segments(file, first, cfg).cuts()? {
        return Ok(Some(first));
    }
    // A positional read may have moved the file's position (Windows'
    // `seek_read` does).
    let mut file = file;
    file.seek(io::SeekFrom::Start(read))?;
    Ok(None)
}

/// How `file` is cut into the segments `segment` is one of.
fn segments<'f>(file: &'f File, segment: SegmentOf, cfg: &Config) -> Segments<'f, File> {
    let segments = if segment.mail {
        mail::message_segments(file, segment.len)
    } else {
        Segments::new(file, segment.len)
    };
    segments.segment_size(cfg.segment_size)
}

/// The single input `paths` names when it is read as one stream whose work
/// may still be split across threads ([`scan_stream`]): standard input, a
/// file `-z` decompresses, a FIFO, a document. (A single regular file read
/// as it is is cut into segments instead: see [`scan_unit`].)
pub fn single_stream(paths: &[PathBuf], cfg: &Config) -> Option<Input> {
    match paths {
        // Standard input that is a file is cut into segments instead.
        [path] if path.as_os_str() == "-" => stdin_file(cfg).is_none().then_some(Input::Stdin),
        [path] if !path.is_dir() => {
            let regular = path.is_file();
            (is_compressed(path, cfg) || documents::kind_of(path, cfg).is_some() || !regular).then(
                || Input::Path {
                    path: path.clone(),
                    named: true,
                    regular,
                },
            )
        }
        _ => None,
    }
}

/// Scans `input`, a stream, with its work split across the current rayon
/// pool: the messages of mail, the chunks of text of a decompressed file
/// (see [`Split::Parallel`]); sends a summary last.
pub fn scan_stream(input: &Input, cfg: &Config, send: &mut dyn FnMut(Event)) {
    let summary = scan(input, cfg, Split::Parallel, send).unwrap_or_else(|err| Summary {
        error: Some(io_reason(&err)),
        ..Summary::default()
    });
    send(Event::Done(summary));
}

/// Scans `segment` of `file`, as text or as an mbox ([`SegmentOf::mail`]).
fn scan_segment(
    file: &File,
    segment: SegmentOf,
    cfg: &Config,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    let mail = segment.mail;
    let segments = segments(file, segment, cfg);
    debug_assert_eq!(segments.count(), segment.count);
    let Some(this) = segments.segment(segment.k)? else {
        return Ok(Summary::default());
    };
    let mut batch = Batcher::new(cfg, send);
    let mut records = Records::new(cfg, &mut batch);
    let end = if mail {
        mail::scan_segment(&cfg.scanner, this, &mut records)
    } else {
        this.scan(&cfg.scanner, &mut records)
    };
    let too_long = records.too_long;
    batch.flush();
    let end = end?;
    Ok(Summary {
        bytes: end.bytes,
        lines: end.lines,
        too_long,
        ..Summary::default()
    })
}

/// How many bytes of an input are split off and scanned in parallel at a
/// time, when its work is (see [`Split::Parallel`]), at least.
const GROUP_BYTES: usize = 4 << 20;

/// How many messages at most make one such group.
const GROUP_MESSAGES: usize = 1024;

/// How an input's work may be split across threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// One thread scans the whole input.
    None,
    /// The input's work is scanned in parallel on the current rayon pool,
    /// in groups, and sent in the order of the file: the messages of an
    /// input read as mail, the chunks of text ([`uriscan::Chunks`]) of a
    /// regular file. Only for a run with a single input: a worker that waits for
    /// its group inside a pool that also scans other inputs could pick up
    /// one of them, whose turn to print would never come.
    Parallel,
}

/// Scans `input`, sending batches of records to `send`; returns how the
/// scan ended.
fn scan(
    input: &Input,
    cfg: &Config,
    split: Split,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    match input {
        // A stream may be slow or never end (`tail -f`): its text is scanned
        // as it comes, not gathered into chunks.
        Input::Stdin => scan_reader(io::stdin().lock(), cfg, stdin_how(split), send),
        Input::Path {
            path,
            named,
            regular,
        } => {
            let rdr = open(path, cfg)?;
            let kind = documents::kind_of(path, cfg);
            scan_reader(
                rdr,
                cfg,
                how(path, *named, *regular, kind, cfg, split),
                send,
            )
        }
    }
}

/// How standard input is read.
fn stdin_how(split: Split) -> How {
    How {
        doc: None,
        split,
        regular: false,
        named: true,
        stream: stdin_is_stream(),
    }
}

/// Returns true if and only if standard input is not a regular file (a
/// pipe, a terminal), so that its reads may wait.
#[cfg(unix)]
fn stdin_is_stream() -> bool {
    stdin_handle()
        .and_then(|file| file.metadata())
        .map_or(true, |meta| !meta.is_file())
}

/// Without a way to ask, standard input is taken for a stream: a file read
/// so only passes on what it finds more often.
#[cfg(not(unix))]
fn stdin_is_stream() -> bool {
    true
}

/// How the file at `path` is read: named or found by the walk, a regular
/// file or not (as the walk saw it: [`Input::Path`]), a document of `kind`
/// if any ([`documents::kind_of`]).
fn how(
    path: &Path,
    named: bool,
    is_file: bool,
    kind: Option<DocKind>,
    cfg: &Config,
    split: Split,
) -> How {
    How {
        doc: kind.map(|kind| Document {
            kind,
            uri: documents::document_uri(&cfg.docs, &cfg.paths, path),
        }),
        split,
        regular: split == Split::Parallel && is_file,
        named,
        stream: kind.is_none() && !is_compressed(path, cfg) && !is_file,
    }
}

/// Opens a file, through a decompressor when `-z` is on and its name says so.
fn open(path: &Path, cfg: &Config) -> io::Result<Box<dyn Read>> {
    let file = File::open(path)?;
    if !cfg.search_zip {
        return Ok(Box::new(file));
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    Ok(match ext {
        "gz" | "tgz" => Box::new(flate2::read::MultiGzDecoder::new(file)),
        "bz2" => Box::new(bzip2::read::MultiBzDecoder::new(file)),
        "xz" => Box::new(liblzma::read::XzDecoder::new_multi_decoder(file)),
        "zst" => Box::new(zstd::stream::read::Decoder::new(file)?),
        _ => Box::new(file),
    })
}

/// An input to read as a document, if it is one.
struct Document {
    kind: DocKind,
    /// Its URI under `--base`.
    uri: Option<String>,
}

/// How one input is to be read.
struct How {
    /// The document it is, if it is one.
    doc: Option<Document>,
    split: Split,
    /// It is a regular file: its text may be cut into chunks for
    /// [`Split::Parallel`].
    regular: bool,
    /// It was named on the command line (or is standard input), rather
    /// than found by the walk.
    named: bool,
    /// Its reads may wait (a pipe, a terminal, a FIFO named on the command
    /// line; read as it is): see [`scan_reader`].
    stream: bool,
}

/// Scans `rdr` as `how` says.
///
/// An input whose first 8 KiB hold a NUL byte looks binary: without `-a`
/// it is skipped when the walk found it, and scanned up to its first NUL
/// when it was named (as ripgrep does with binary files given to it; the
/// URIs before the NUL are kept, and the printer says where it stopped).
///
/// An input is decoded before anything else looks at it when `-E` (by
/// default, a UTF-16 or UTF-8 byte-order mark) says so, unless it is read
/// as mail: mail names the charset of each of its parts, and the mail
/// reader converts each by its own, with the same decoders. Then the binary check, the roff probe and
/// the scan see the decoded text, and what is found is placed back in the
/// input's bytes. A decoded input is not read as mail, and is scanned on
/// this thread (its text is not cut into chunks for the pool: the places
/// of its text are kept for one stream only).
///
/// A stream ([`How::stream`]: `tail -f log | uriscan`) is scanned as it
/// comes: its first bytes are read only until they decide it is text
/// ([`read_stream_probe`]), the binary check goes on as the text is read
/// ([`UntilNul`]), and what is found is passed on to the printer, and
/// shown, before each read, which may wait; decoded text too (`-E`, a
/// byte-order mark), as it is decoded. Mail from a stream still waits for
/// its first 8 KiB, and for each message.
fn scan_reader<R: Read>(
    mut rdr: R,
    cfg: &Config,
    how: How,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    let probe = if how.stream {
        match read_stream_probe(&mut rdr, cfg)? {
            StreamProbe::Text(probe, decoding) => {
                return scan_text_stream(probe, rdr, decoding, cfg, send)
            }
            StreamProbe::Whole(probe) => probe,
        }
    } else {
        read_probe(&mut rdr)?
    };
    scan_read(probe, rdr, cfg, how, send)
}

/// What the first bytes of a stream decide.
enum StreamProbe {
    /// It is read as text, not mail, from these bytes on: decoded as the
    /// [`Decoding`] says, or as the bytes it is.
    Text(Vec<u8>, Option<Decoding>),
    /// Its first [`BINARY_PROBE`] bytes (fewer at its end), from which it
    /// is read as a file is.
    Whole(Vec<u8>),
}

/// The first bytes of a stream, read a read at a time until
/// [`BINARY_PROBE`] bytes or its end are in, or until those in decide that
/// it is read as text ([`reads_as_text_so_far`]): a log's first line does
/// not wait for 8 KiB more of it.
fn read_stream_probe<R: Read>(rdr: &mut R, cfg: &Config) -> io::Result<StreamProbe> {
    let mut probe = Vec::with_capacity(BINARY_PROBE);
    while probe.len() < BINARY_PROBE {
        if let Some(decoding) = reads_as_text_so_far(cfg, &probe) {
            return Ok(StreamProbe::Text(probe, decoding));
        }
        let start = probe.len();
        probe.resize(BINARY_PROBE, 0);
        let read = loop {
            match rdr.read(&mut probe[start..]) {
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                read => break read,
            }
        };
        probe.truncate(start + *read.as_ref().unwrap_or(&0));
        if read? == 0 {
            break;
        }
    }
    Ok(StreamProbe::Whole(probe))
}

/// Whether an input whose first bytes are `head` is read as text whatever
/// follows, and how it is decoded (`Some(None)`: not at all): it is not
/// mail (`--no-mail`, or not by its looks:
/// [`uriscan::mail::looks_like_mail_so_far`]), and its 3 first bytes are
/// in, which say whether it has a byte-order mark. `None` while that is
/// not known.
fn reads_as_text_so_far(cfg: &Config, head: &[u8]) -> Option<Option<Decoding>> {
    let text = head.len() >= 3
        && match cfg.mail {
            MailMode::Always => false,
            MailMode::Never => true,
            MailMode::Auto => uriscan::mail::looks_like_mail_so_far(head) == Some(false),
        };
    text.then(|| cfg.encoding.decoding_for(head))
}

/// Scans a stream as text, from its first bytes `probe` on, which decided
/// so ([`read_stream_probe`]), passing on what it finds before each read:
/// decoded as `decoding` says (`-E`, a byte-order mark), what is found
/// placed back in the stream's bytes, or as the bytes it is. The binary
/// check goes on as the text is read: a NUL byte among its first
/// [`BINARY_PROBE`] bytes ends the scan there, as it ends the scan of a
/// named input that looks binary ([`scan_reader`]).
fn scan_text_stream<R: Read>(
    probe: Vec<u8>,
    rdr: R,
    decoding: Option<Decoding>,
    cfg: &Config,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    let raw = io::Cursor::new(probe).chain(rdr);
    let (text, places): (Box<dyn Read + '_>, _) = match decoding {
        None => (Box::new(raw), None),
        Some(decoding) => {
            let decoded = DecodeReader::new(raw, decoding);
            let places = decoded.places();
            places.for_stream(&cfg.scanner);
            (Box::new(decoded), Some(places))
        }
    };
    let watched = if cfg.binary { 0 } else { BINARY_PROBE };
    let mut text = UntilNul::new(text, watched);
    let mut batch = Batcher::new(cfg, send);
    let mut records = Records::new(cfg, &mut batch);
    records.places = places.clone();
    records.stream = true;
    let result = cfg.scanner.scan_reader(&mut text, &mut records);
    let too_long = records.too_long;
    batch.flush();
    let nul = text.nul.map(|at| at as usize);
    let bytes = input_bytes(places.as_ref(), nul, text.given);
    result.map(|()| Summary {
        bytes,
        too_long,
        binary_cut: nul.map(|_| bytes as usize),
        ..Summary::default()
    })
}

/// How many bytes of an input were scanned, counted in the input's bytes
/// whether its text was decoded (placed by `places`) or not: up to the
/// NUL of the text at `nul` that ended the scan of a binary input, or all
/// that was read of it (`read`: the text's bytes, when not decoded).
fn input_bytes(places: Option<&Places>, nul: Option<usize>, read: u64) -> u64 {
    match (nul, places) {
        (Some(nul), None) => nul as u64,
        (Some(nul), Some(places)) => places.span(Span::new(nul, nul)).start as u64,
        (None, None) => read,
        (None, Some(places)) => places.input_len() as u64,
    }
}

/// The bytes of a reader up to the first NUL among its first `watched`
/// bytes, if any: the binary check of a stream, made as it is read.
struct UntilNul<R> {
    inner: R,
    watched: u64,
    /// How many bytes it has given.
    given: u64,
    /// The offset of the NUL byte it ended at.
    nul: Option<u64>,
}

impl<R: Read> UntilNul<R> {
    fn new(inner: R, watched: usize) -> UntilNul<R> {
        UntilNul {
            inner,
            watched: watched as u64,
            given: 0,
            nul: None,
        }
    }
}

impl<R: Read> Read for UntilNul<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.nul.is_some() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        let watched = (self.watched.saturating_sub(self.given) as usize).min(n);
        let n = match memchr::memchr(0, &buf[..watched]) {
            Some(nul) => {
                self.nul = Some(self.given + nul as u64);
                nul
            }
            None => n,
        };
        self.given += n as u64;
        Ok(n)
    }
}

/// The first [`BINARY_PROBE`] bytes of `rdr` (fewer at its end).
fn read_probe<R: Read>(rdr: &mut R) -> io::Result<Vec<u8>> {
    let mut probe = Vec::with_capacity(BINARY_PROBE);
    rdr.take(BINARY_PROBE as u64).read_to_end(&mut probe)?;
    Ok(probe)
}

/// [`scan_reader`] for an input whose first bytes, `probe`, were read
/// ([`read_probe`]) and `rdr` holds the rest of.
fn scan_read<R: Read>(
    probe: Vec<u8>,
    rdr: R,
    cfg: &Config,
    how: How,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    // Asked once: a document that turns out not to be one is read as mail
    // if it looks like mail (see `scan_probed`).
    let looks_like_mail = reads_as_mail(cfg, &probe);
    let mail = how.doc.is_none() && looks_like_mail;
    let kind = how.doc.as_ref().map(|d| d.kind);
    let decoding = cfg.encoding.decoding_for_document(&probe, kind);
    let Some(decoding) = decoding.filter(|_| !mail) else {
        return scan_probed(probe, rdr, cfg, how, None, looks_like_mail, send);
    };
    let mut text = DecodeReader::new(io::Cursor::new(probe).chain(rdr), decoding);
    let places = text.places();
    if how.doc.is_none() {
        places.for_stream(&cfg.scanner);
    }
    let mut probe = Vec::with_capacity(BINARY_PROBE);
    (&mut text)
        .take(BINARY_PROBE as u64)
        .read_to_end(&mut probe)?;
    let how = How {
        split: Split::None,
        ..how
    };
    // Decoded text is not mail (see `scan_reader`).
    scan_probed(probe, text, cfg, how, Some(places), false, send)
}

/// Whether an input starting with `probe` is read as mail (`--mail`,
/// `--no-mail`, or by its looks).
fn reads_as_mail(cfg: &Config, probe: &[u8]) -> bool {
    match cfg.mail {
        MailMode::Always => true,
        MailMode::Never => false,
        MailMode::Auto => uriscan::mail::looks_like_mail(probe),
    }
}

/// Scans an input whose first bytes, `probe`, were read and `rdr` holds
/// the rest of: decoded text placed by `places`, or the input's bytes;
/// read as mail, unless it is a document, when `mail` ([`reads_as_mail`]
/// of an input not decoded).
fn scan_probed<R: Read>(
    probe: Vec<u8>,
    rdr: R,
    cfg: &Config,
    how: How,
    places: Option<Places>,
    mail: bool,
    send: &mut dyn FnMut(Event),
) -> io::Result<Summary> {
    let How {
        doc,
        split,
        regular,
        named,
        stream,
    } = how;
    // Mail is never binary: an attachment sent as `binary` may hold a NUL,
    // and the mail reader reads such a part no further than its parser.
    let reads_mail = mail && doc.is_none();
    let nul = memchr::memchr(0, &probe).filter(|_| !cfg.binary && !reads_mail);
    if nul.is_some() && !named {
        return Ok(Summary {
            binary: true,
            ..Summary::default()
        });
    }
    let probed = probe.len() as u64;
    let mut batch = Batcher::new(cfg, send);
    // The rest of the input, counted by how much of its limit it uses up
    // (std's `Take`, unlike a wrapper of ours, lets `File` read into a
    // buffer's spare room without zeroing it first). A probe shorter than
    // asked for has met the end of the input, and a binary input is read
    // no further than its first NUL: no read is left to make.
    let limit = if probed < BINARY_PROBE as u64 || nul.is_some() {
        0
    } else {
        u64::MAX
    };
    let mut rest = rdr.take(limit);
    let mut records = Records::new(cfg, &mut batch);
    records.places = places.clone();
    records.stream = stream;
    // A man page must also start like roff: `*.1` names rotated logs too.
    let doc = doc.filter(|d| d.kind != DocKind::Man || uriscan::doc::looks_like_roff(&probe));
    // Decoded text not read as a document after all is streamed: its
    // places need not be kept whole (found by a code review).
    if let (None, Some(places)) = (&doc, &places) {
        places.for_stream(&cfg.scanner);
    }
    let result = if let Some(nul) = nul {
        cfg.scanner.scan_slice(&probe[..nul], &mut records)
    } else if let Some(doc) = doc {
        let mut bytes = probe;
        // A document larger than this is read as plain text, so that
        // memory stays bounded.
        let max = uriscan::doc::MAX_DOCUMENT_LEN;
        (&mut rest).take(max as u64).read_to_end(&mut bytes)?;
        if bytes.len() > max {
            records.out.flush();
            (records.out.send)(Event::Warning(Warning {
                line: None,
                text: uriscan::doc::TOO_LARGE_A_DOCUMENT.to_string(),
            }));
            if let Some(places) = &places {
                places.for_stream(&cfg.scanner);
            }
            cfg.scanner
                .scan_reader(io::Cursor::new(bytes).chain(&mut rest), &mut records)
        } else {
            scan_document(&bytes, &doc, &mut records);
            Ok(())
        }
    } else {
        match (mail, split) {
            // The probe starts the buffer messages or chunks are split from.
            (true, Split::Parallel) => {
                let mut messages = Messages::with_prefix(probe, &mut rest);
                scan_in_parallel(&mut messages, &mut records, |m: &Message| m.bytes().len())
            }
            (true, Split::None) => {
                let messages = Messages::with_prefix(probe, &mut rest);
                mail::scan_messages(&cfg.scanner, messages, &mut records)
            }
            (false, Split::Parallel) if regular => {
                let mut chunks = Chunks::with_prefix(probe, &mut rest);
                scan_in_parallel(&mut chunks, &mut records, |c: &Chunk| c.bytes().len()).and_then(
                    |()| {
                        // Text that could not be cut is scanned in one stream.
                        match chunks.into_rest() {
                            Some(rest) => rest.scan(&cfg.scanner, &mut records),
                            None => Ok(()),
                        }
                    },
                )
            }
            (false, _) => cfg
                .scanner
                .scan_reader(io::Cursor::new(probe).chain(&mut rest), &mut records),
        }
    };
    let too_long = records.too_long;
    batch.flush();
    let bytes = input_bytes(places.as_ref(), nul, probed + (limit - rest.limit()));
    let binary_cut = nul.map(|_| bytes as usize);
    result.map(|()| Summary {
        bytes,
        too_long,
        binary_cut,
        ..Summary::default()
    })
}

/// Reads `bytes` as the document `doc` and records its links.
fn scan_document(bytes: &[u8], doc: &Document, records: &mut Records<'_, '_>) {
    let cfg = records.cfg;
    let base = doc
        .uri
        .as_deref()
        .and_then(|b| uriscan::IriRef::parse(b).ok());
    let found = uriscan::doc::find_links(&cfg.scanner, doc.kind, bytes, base.as_ref());
    records.too_long += found.too_long().len() as u64;
    for link in found.links() {
        let Some(uri) = cfg.docs.filter.shown(link) else {
            continue;
        };
        if !keep_scheme(cfg, uri) {
            continue;
        }
        records.out.push(
            uri,
            Record {
                doc: Some(DocLink {
                    in_code: link.is_in_code(),
                    relative: link.is_relative(),
                    resolved: link.resolved().map(str::to_string),
                }),
                ..record(link.found(), None, records.places.as_ref())
            },
        );
    }
}

/// Work split off one input that can be scanned on any thread: a message,
/// a chunk of text.
trait Piece: Sync {
    fn scan(&self, scanner: &uriscan::Scanner, records: &mut Records<'_, '_>);
}

impl Piece for Message {
    fn scan(&self, scanner: &uriscan::Scanner, records: &mut Records<'_, '_>) {
        // The sink never asks to stop: the result is always true.
        let _ = Message::scan(self, scanner, records);
    }
}

impl Piece for Chunk {
    fn scan(&self, scanner: &uriscan::Scanner, records: &mut Records<'_, '_>) {
        let _ = Chunk::scan(self, scanner, records);
    }
}

/// Scans the pieces `pieces` gives in parallel and sends what each finds
/// in the order of the input, as one thread scanning them in turn would.
/// While one group of pieces is scanned, the next is split off the input;
/// memory holds two groups and the records found in one.
fn scan_in_parallel<P: Piece, I: Iterator<Item = io::Result<P>>>(
    pieces: &mut I,
    records: &mut Records<'_, '_>,
    size: fn(&P) -> usize,
) -> io::Result<()> {
    let cfg = records.cfg;
    let group_bytes = GROUP_BYTES.max(2 * rayon::current_num_threads() * DEFAULT_CHUNK_SIZE);
    let mut group = next_group(pieces, size, group_bytes);
    loop {
        let mut found = Vec::new();
        // This thread reads (the reader need not be `Send`) while the pool
        // scans, then helps it.
        let next = rayon::in_place_scope(|scope| {
            scope.spawn(|_| found = scan_group(&group.pieces, cfg));
            group
                .end
                .is_none()
                .then(|| next_group(pieces, size, group_bytes))
        });
        // The group goes out before any error that ended it.
        records.out.flush();
        for (events, too_long) in found {
            records.too_long += too_long;
            for event in events {
                (records.out.send)(event);
            }
        }
        match group.end {
            None => group = next.expect("a group that did not end has a next one"),
            Some(GroupEnd::Input) => return Ok(()),
            Some(GroupEnd::Error(err)) => return Err(err),
        }
    }
}

/// Pieces split off an input, to be scanned in parallel.
struct Group<P> {
    pieces: Vec<P>,
    /// What ended the group, when it was not its size.
    end: Option<GroupEnd>,
}

/// Why a group of pieces is the last one.
enum GroupEnd {
    /// The input ended (or, for chunks, could not be cut further).
    Input,
    /// Reading failed.
    Error(io::Error),
}

/// Splits off the next `group_bytes` (or [`GROUP_MESSAGES`] pieces).
fn next_group<P, I: Iterator<Item = io::Result<P>>>(
    pieces: &mut I,
    size: fn(&P) -> usize,
    group_bytes: usize,
) -> Group<P> {
    let mut group = Group {
        pieces: Vec::new(),
        end: None,
    };
    let mut bytes = 0;
    while bytes < group_bytes && group.pieces.len() < GROUP_MESSAGES {
        match pieces.next() {
            Some(Ok(piece)) => {
                bytes += size(&piece);
                group.pieces.push(piece);
            }
            None => {
                group.end = Some(GroupEnd::Input);
                break;
            }
            Some(Err(err)) => {
                group.end = Some(GroupEnd::Error(err));
                break;
            }
        }
    }
    group
}

/// Scans each piece of a group on the current pool; returns what each
/// gives, in order, and how many over-long candidates it met.
fn scan_group<P: Piece>(group: &[P], cfg: &Config) -> Vec<(Vec<Event>, u64)> {
    group
        .par_iter()
        .map(|piece| {
            let mut events = Vec::new();
            let mut send = |event| events.push(event);
            let mut batch = Batcher::new(cfg, &mut send);
            let mut records = Records::new(cfg, &mut batch);
            piece.scan(&cfg.scanner, &mut records);
            let too_long = records.too_long;
            batch.flush();
            (events, too_long)
        })
        .collect()
}

/// Records on their way to the printer, sent in batches.
struct Batcher<'a> {
    batch: Batch,
    form: Form,
    send: &'a mut dyn FnMut(Event),
    /// Records were sent since the printer was last asked to show them.
    unshown: bool,
}

impl<'a> Batcher<'a> {
    fn new(cfg: &Config, send: &'a mut dyn FnMut(Event)) -> Batcher<'a> {
        Batcher {
            batch: Batch::default(),
            form: Form::of(cfg),
            send,
            unshown: false,
        }
    }

    /// Sends what it holds, and asks the printer to show what it was sent
    /// (the scan is about to wait for its input).
    fn show(&mut self) {
        self.flush();
        if std::mem::take(&mut self.unshown) {
            (self.send)(Event::Waiting);
        }
    }

    fn push(&mut self, uri: &str, r: Record) {
        self.batch.push(uri, r, self.form);
        if self.batch.is_full() {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if !self.batch.is_empty() {
            (self.send)(Event::Records(std::mem::take(&mut self.batch)));
            self.unshown = true;
        }
    }
}

/// Turns what a scan finds, in text or in mail, into records, sends the
/// warnings met on, and counts the over-long candidates given up on.
struct Records<'a, 'b> {
    cfg: &'a Config,
    out: &'a mut Batcher<'b>,
    too_long: u64,
    /// The place of the last record found in mail, for the next ones of
    /// the same part.
    place: Option<Arc<MailPlace>>,
    /// Where the text scanned was in the input, when it was decoded.
    places: Option<Places>,
    /// The input is a stream: what is found is shown before each read,
    /// which may wait.
    stream: bool,
}

impl<'a, 'b> Records<'a, 'b> {
    fn new(cfg: &'a Config, out: &'a mut Batcher<'b>) -> Records<'a, 'b> {
        Records {
            cfg,
            out,
            too_long: 0,
            place: None,
            places: None,
            stream: false,
        }
    }

    /// The place of a URI found in a message, shared with the records
    /// before it when they are of the same part.
    fn place(&mut self, m: &uriscan::InMessage<'_>) -> Arc<MailPlace> {
        let same = self.place.as_ref().is_some_and(|p| {
            p.message_line == m.message_line()
                && p.part == m.part()
                && p.message_id.as_deref() == m.message_id()
        });
        if !same {
            self.place = Some(Arc::new(MailPlace {
                message_id: m.message_id().map(str::to_string),
                message_line: m.message_line(),
                part: m.part().to_string(),
            }));
        }
        self.place.clone().expect("a place was just set")
    }
}

impl Sink for &mut Records<'_, '_> {
    fn found(&mut self, f: &Found<'_>) -> io::Result<bool> {
        if keep(self.cfg, f) {
            // Only JSON Lines prints where in a message: the other formats
            // make no place (three allocations a part).
            let place = f
                .message()
                .filter(|_| self.cfg.format == Format::Json)
                .map(|m| self.place(m));
            self.out
                .push(f.as_str(), record(f, place, self.places.as_ref()));
        }
        Ok(true)
    }

    fn too_long(&mut self, _start: usize, _line: u64) -> io::Result<bool> {
        self.too_long += 1;
        Ok(true)
    }

    fn before_read(&mut self) -> io::Result<bool> {
        if self.stream {
            self.out.show();
        }
        Ok(true)
    }

    fn warning(&mut self, line: u64, warning: &str) -> io::Result<bool> {
        self.out.flush();
        (self.out.send)(Event::Warning(Warning {
            line: Some(line),
            text: warning.to_string(),
        }));
        Ok(true)
    }
}

/// `--scheme`: the scheme of a found URI (everything before its first `:`).
fn keep(cfg: &Config, f: &Found<'_>) -> bool {
    keep_scheme(cfg, f.as_str())
}

/// `--scheme`, for the URI `uri`: a relative reference printed as written
/// has no scheme and is kept only when no scheme is asked for.
fn keep_scheme(cfg: &Config, uri: &str) -> bool {
    if cfg.schemes.is_empty() {
        return true;
    }
    let Some((scheme, _)) = uri.split_once(':') else {
        return false;
    };
    cfg.schemes.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// The record of `f`, found in mail at `mail`, or in decoded text placed
/// by `places` in the input.
fn record(f: &Found<'_>, mail: Option<Arc<MailPlace>>, places: Option<&Places>) -> Record {
    let (span, column) = match places {
        Some(places) => {
            let at = places.place(f);
            (at.span, at.column)
        }
        None => (f.span(), f.column()),
    };
    Record {
        iri: f.iri().filter(|&iri| iri != f.as_str()).map(str::to_string),
        line: f.line(),
        column,
        start: span.start,
        end: span.end,
        delimiter: f.delimiter(),
        wrapped: f.is_wrapped(),
        url_prefix: f.has_url_prefix(),
        hyphen_break: f.has_hyphen_break(),
        error: f.error().map(|e| e.to_string()),
        mail,
        doc: None,
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::args::Args;

    /// The bytes `--stats` counts for `path`, and the URIs found in it.
    fn scan_file(path: &Path, flags: &[&str], split: Split) -> (u64, usize) {
        let mut args = vec!["uriscan"];
        args.extend_from_slice(flags);
        let cfg = Args::parse_from(args).into_config().unwrap();
        let mut uris = 0;
        let summary = scan(
            &Input::Path {
                path: path.to_path_buf(),
                named: true,
                regular: true,
            },
            &cfg,
            split,
            &mut |event| match event {
                Event::Records(batch) => uris += batch.entries().count(),
                Event::Done(_) => panic!("scan sends no summary: it returns it"),
                Event::Warning(_) | Event::Waiting => {}
            },
        );
        (summary.unwrap().bytes, uris)
    }

    /// Every byte is counted once, read by the probe or after it, whether
    /// the probe met the end of the file or not.
    #[test]
    fn every_byte_is_counted_once_around_the_probe_size() {
        let dir = tempfile::tempdir().unwrap();
        let mbox = "From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\n".to_string()
            + &"see http://a.example/ now\n".repeat(20_000);
        for len in [
            0,
            100,
            BINARY_PROBE - 1,
            BINARY_PROBE,
            BINARY_PROBE + 1,
            300_000,
        ] {
            let text = &mbox[..len];
            let path = dir.path().join(format!("{len}.mbox"));
            std::fs::write(&path, text).unwrap();
            let whole_lines = text.matches(" now\n").count();
            for (flags, split) in [
                (&["--no-mail"][..], Split::None),
                (&["--mail"], Split::None),
                (&["--mail"], Split::Parallel),
                (&["--no-mail"], Split::Parallel),
            ] {
                let (bytes, uris) = scan_file(&path, flags, split);
                assert_eq!(bytes, len as u64, "{len} bytes, {flags:?} {split:?}");
                assert!(uris >= whole_lines, "{len} bytes, {flags:?} {split:?}");
            }
        }
    }

    /// A reader that gives at most 100 bytes a read, as a slow pipe does.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(100);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// A stream scanned as it comes counts every byte once, and ends at a
    /// NUL among its first 8 KiB (not at one after them), as a file does.
    #[test]
    fn a_stream_counts_its_bytes_and_ends_at_an_early_nul() {
        let cfg = Args::parse_from(["uriscan"]).into_config().unwrap();
        let line = "see http://a.example/ now\n";
        let late = line.repeat(400) + "\0" + line;
        for (text, uris, cut) in [
            (line.repeat(1000), 1000, None),
            (line.repeat(100) + "\0" + &line.repeat(10), 100, Some(2600)),
            (late.clone(), 401, None),
        ] {
            let how = How {
                doc: None,
                split: Split::None,
                regular: false,
                named: true,
                stream: true,
            };
            let mut found = 0;
            let summary = scan_reader(Trickle(text.as_bytes()), &cfg, how, &mut |event| {
                if let Event::Records(batch) = event {
                    found += batch.entries().count();
                }
            })
            .unwrap();
            let bytes = cut.unwrap_or(text.len()) as u64;
            assert_eq!(
                (summary.bytes, summary.binary_cut, found),
                (bytes, cut, uris)
            );
        }
    }

    /// A decoded input is counted in its own bytes, BOM included, whether
    /// its decoded probe met its end or not.
    #[test]
    fn decoded_inputs_count_the_input_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let line = "see http://a.example/ é\n";
        for lines in [
            0,
            1,
            BINARY_PROBE / line.len(),
            1 + BINARY_PROBE / line.len(),
            5000,
        ] {
            let mut utf16 = vec![0xFF, 0xFE];
            utf16.extend(line.repeat(lines).encode_utf16().flat_map(u16::to_le_bytes));
            let path = dir.path().join(format!("{lines}.txt"));
            std::fs::write(&path, &utf16).unwrap();
            for split in [Split::None, Split::Parallel] {
                let (bytes, uris) = scan_file(&path, &[], split);
                assert_eq!((bytes, uris), (utf16.len() as u64, lines), "{lines} lines");
            }
        }
    }
}
