//! Text encodings: input in UTF-16 or a legacy encoding decoded to UTF-8
//! before it is scanned, as ripgrep does, with every URI found placed back
//! in the input's own bytes.
//!
//! ```
//! use std::io::Read;
//! use uriscan::encoding::{DecodeReader, TextEncoding};
//! use uriscan::Scanner;
//!
//! // "see http://a.example/" in UTF-16LE, after its byte-order mark.
//! let mut input = vec![0xFF, 0xFE];
//! input.extend("see http://a.example/\n".encode_utf16().flat_map(u16::to_le_bytes));
//!
//! let decoding = TextEncoding::default().decoding_for(&input).expect("a BOM");
//! assert_eq!(decoding.name(), "UTF-16LE");
//! let mut text = DecodeReader::new(&input[..], decoding);
//! let places = text.places();
//! let mut decoded = Vec::new();
//! text.read_to_end(&mut decoded)?;
//! assert_eq!(decoded, b"see http://a.example/\n");
//!
//! let found = Scanner::new().find_iter(&decoded).next().expect("a URI");
//! assert_eq!((found.span().start, found.column()), (4, 5));
//! let placed = places.place(&found);
//! // In the input: after the BOM (2 bytes) and 4 characters of 2 bytes.
//! assert_eq!((placed.span.start, placed.span.end), (10, 44));
//! assert_eq!((placed.line, placed.column), (1, 11));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is decoded
//!
//! [`TextEncoding`] says how inputs are read, as ripgrep's `-E`: by
//! default (`auto`), an input that starts with a UTF-16LE or UTF-16BE
//! byte-order mark is decoded from UTF-16 and a UTF-8 one is skipped; every
//! other input is scanned as the bytes it is. `none` never looks for a BOM.
//! A WHATWG label (`latin1`, `shift_jis`, `euc-jp`, `utf-16le`, ...; the
//! [Encoding Standard]'s list) decodes every input from that encoding,
//! unless it starts with a BOM, which wins (ripgrep's rule too). A label
//! for UTF-8 decodes nothing: the bytes are scanned as they are (after a
//! BOM), invalid UTF-8 included. Malformed sequences decode to U+FFFD
//! (not a character of a URI: it ends one).
//!
//! A document may declare its own encoding
//! ([`TextEncoding::decoding_for_document`]), and in `auto` an HTML or XML
//! document without a BOM is decoded from the one it declares, as a
//! browser decodes it: HTML by the first `<meta charset>` or `<meta
//! http-equiv="Content-Type" content="…; charset=…">` in its first 1024
//! bytes, outside comments (the HTML Standard's prescan), else by an XML
//! declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`); XML by its
//! XML declaration. A declared UTF-16 is read as UTF-8, as browsers read
//! it (the bytes that declared it were ASCII). *Judgement call:* a
//! document whose first bytes hold text beyond ASCII that is UTF-8 is
//! read as UTF-8, whatever it declares. Pages saved as UTF-8 that still
//! say `iso-8859-1` are common, and Latin-1 text rarely makes valid UTF-8
//! by chance; a browser would show such a page garbled (`cafÃ©`), and its
//! IRIs would map to URIs no one wrote. A document of ASCII alone in its
//! first bytes follows its declaration.
//!
//! # Where a URI found in decoded text is
//!
//! The decoder remembers where each decoded byte came from in a
//! `SourceMap` (`src/source_map.rs`, the map of mail and documents, reused:
//! a run of decoded characters of `n` bytes each coming from `m` input
//! bytes each is one piece of it), and [`Places::place`] maps a find's
//! span through it, and its column from the start of its line in the
//! input, so that `start` and `end` are the bytes of the URI as encoded in
//! the input (`dd` them out and decode them, and that is the URI) and the
//! column is counted in the input's bytes (a BOM included, on the first
//! line). Lines are counted by `\n` in the decoded text, which for every
//! encoding decoded here is the input's own count. The map is exact:
//!
//! - UTF-16: each character of 1 to 3 UTF-8 bytes comes from 2 input
//!   bytes, each of 4 from a surrogate pair of 4 (an unpaired surrogate
//!   decodes to U+FFFD from its 2 bytes);
//! - single-byte encodings (Latin-1 is windows-1252, KOI8-R, ...): each
//!   character from 1 byte;
//! - the multi-byte ones (Shift_JIS, EUC-JP, GBK, gb18030, Big5, EUC-KR):
//!   ASCII text outside a character is copied; a run of other bytes is
//!   decoded at once when it gives one character for each of its
//!   sequences, whose lengths their first bytes give, and no U+FFFD (then
//!   each character came from its sequence); else, as always for the
//!   stateful ISO-2022-JP, its bytes are fed to the decoder one at a time,
//!   so that the bytes each character came from are known (an escape
//!   sequence, which decodes to nothing, belongs to no character; after a
//!   malformed sequence, the ASCII byte the decoder reads again is its
//!   own).
//!
//! Memory stays bounded: a [`DecodeReader`] decodes 64 KiB of input at a
//! time, and once told what reads it ([`Places::for_stream`]) it
//! forgets where the bytes that reader can no longer report came from.
//!
//! [Encoding Standard]: https://encoding.spec.whatwg.org/#names-and-labels

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read};
use std::rc::Rc;

use encoding_rs::{
    Decoder, Encoding, BIG5, EUC_JP, EUC_KR, GB18030, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8,
};

#[cfg(feature = "docs")]
mod declared;

#[cfg(feature = "docs")]
use crate::doc::DocKind;
use crate::scan::{Found, Scanner};
use crate::source_map::SourceMap;
use crate::span::Span;

/// How many input bytes are decoded at a time.
const RAW_SIZE: usize = 64 * 1024;

/// How far behind what it has read [`Scanner::scan_reader`] may still
/// report, beyond its `max_candidate_len`: its roll buffer holds at most
/// `LOOKBACK + max_candidate_len + SLACK + READ_SIZE` bytes (256, 1 KiB and
/// 64 KiB; see `scan/stream.rs`), and it reports nothing before its
/// buffer's start. 1 MiB leaves room to spare.
const STREAM_MARGIN: usize = 1 << 20;

/// How the inputs' bytes are read as text: `auto` (the default), `none`,
/// or an encoding named by a WHATWG label (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextEncoding(Mode);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    /// Decode by a BOM, if there is one.
    #[default]
    Auto,
    /// Never decode.
    None,
    /// Decode from this encoding, unless a BOM says otherwise.
    Named(&'static Encoding),
}

impl TextEncoding {
    /// The text encoding `label` names: `auto`, `none`, or a label of the
    /// WHATWG Encoding Standard (any case, surrounding whitespace ignored).
    /// `None` for a label it does not know, and for those of its
    /// "replacement" encoding (`iso-2022-kr`, `hz-gb-2312`, ...), which
    /// decodes any input to a single U+FFFD.
    pub fn for_label(label: &str) -> Option<TextEncoding> {
        let trimmed = label.trim();
        if trimmed.eq_ignore_ascii_case("auto") {
            return Some(TextEncoding(Mode::Auto));
        }
        if trimmed.eq_ignore_ascii_case("none") {
            return Some(TextEncoding(Mode::None));
        }
        Encoding::for_label_no_replacement(trimmed.as_bytes()).map(|e| TextEncoding(Mode::Named(e)))
    }

    /// `auto`, `none`, or the canonical name of the encoding (`UTF-16LE`,
    /// `Shift_JIS`, `windows-1252` for `latin1`).
    pub fn name(&self) -> &'static str {
        match self.0 {
            Mode::Auto => "auto",
            Mode::None => "none",
            Mode::Named(e) => e.name(),
        }
    }

    /// How an input that starts with `head` is decoded, or `None` when it
    /// is scanned as the bytes it is. `head` must hold the input's first
    /// 3 bytes (or the whole input, if shorter): a BOM is looked for there.
    pub fn decoding_for(&self, head: &[u8]) -> Option<Decoding> {
        let named = match self.0 {
            Mode::None => return None,
            Mode::Auto => None,
            Mode::Named(e) => Some(e),
        };
        if let Some((encoding, bom)) = Encoding::for_bom(head) {
            return Some(Decoding { encoding, bom });
        }
        match named {
            Some(encoding) if encoding != UTF_8 => Some(Decoding { encoding, bom: 0 }),
            _ => None,
        }
    }

    /// How an input that starts with `head` is decoded, when it is read
    /// as a document of `kind` (`None`: not a document): as
    /// [`decoding_for`](Self::decoding_for) says, and in `auto`, for HTML
    /// or XML that starts with no BOM, from the encoding the document
    /// declares for itself (see the [module docs](self#what-is-decoded)),
    /// unless `head` holds text beyond ASCII that is UTF-8. `head` should
    /// hold the document's first 1024 bytes at least (where a `<meta>` is
    /// looked for); the more it holds, the surer the UTF-8 check.
    #[cfg(feature = "docs")]
    pub fn decoding_for_document(&self, head: &[u8], kind: Option<DocKind>) -> Option<Decoding> {
        let declared = match kind {
            _ if self.0 != Mode::Auto || Encoding::for_bom(head).is_some() => None,
            Some(DocKind::Html) => declared::by_html(head),
            Some(DocKind::Xml) => declared::by_xml(head),
            Some(DocKind::Markdown | DocKind::Man | DocKind::Rst | DocKind::AsciiDoc) | None => {
                None
            }
        };
        let Some(declared) = declared else {
            return self.decoding_for(head);
        };
        (declared != UTF_8 && !is_utf8_beyond_ascii(head)).then_some(Decoding {
            encoding: declared,
            bom: 0,
        })
    }
}

/// Returns true if `head` holds a byte beyond ASCII and is UTF-8 (but
/// for a sequence its end cuts).
#[cfg(feature = "docs")]
fn is_utf8_beyond_ascii(head: &[u8]) -> bool {
    !head.is_ascii()
        && match std::str::from_utf8(head) {
            Ok(_) => true,
            Err(e) => e.error_len().is_none(),
        }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How one input is decoded: from which encoding, after a BOM of how many
/// bytes ([`TextEncoding::decoding_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoding {
    encoding: &'static Encoding,
    bom: usize,
}

impl Decoding {
    /// The encoding's canonical name (`UTF-16LE`, `Shift_JIS`, ...).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// The length of the byte-order mark skipped (0 when there is none).
    pub fn bom_len(&self) -> usize {
        self.bom
    }
}

/// A URI's place in the input, for one found in its decoded text
/// ([`Places::place`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The input bytes its text was decoded from.
    pub span: Span,
    /// Its 1-based line (the same in decoded text as in the input).
    pub line: u64,
    /// Its 1-based column, in the input's bytes from its line's start.
    pub column: u64,
}

/// Where the decoded text of a [`DecodeReader`] came from in its input:
/// a handle to share with the sink that receives what is found in it,
/// while the reader is being read.
#[derive(Clone, Debug)]
pub struct Places(Rc<RefCell<Positions>>);

impl Places {
    /// The input bytes the decoded bytes `span` came from: from where its
    /// first byte came from to where its last byte's source ends.
    ///
    /// # Panics
    ///
    /// In debug builds, when the reader was told to forget the start of
    /// `span` ([`Places::for_stream`]).
    pub fn span(&self, span: Span) -> Span {
        self.0.borrow().span(span)
    }

    /// Where `found`, found in the decoded text, is in the input: the bytes
    /// its text was decoded from, its line, and its column counted in the
    /// input's bytes. The find's column must be that of decoded text (its
    /// start less its line's start, plus one), as the scanner's are.
    pub fn place(&self, found: &Found<'_>) -> Placement {
        let positions = self.0.borrow();
        let span = positions.span(found.span());
        let decoded_line_start = found.span().start + 1 - found.column() as usize;
        let line_start = positions.line_start(decoded_line_start);
        Placement {
            span,
            line: found.line(),
            column: (span.start - line_start.min(span.start) + 1) as u64,
        }
    }

    /// How many bytes of the input were decoded so far (its BOM included).
    pub fn input_len(&self) -> usize {
        self.0.borrow().src_read
    }

    /// Tells the reader that `scanner`'s [`Scanner::scan_reader`] reads
    /// it from now on: it then forgets where the text that scan can no
    /// longer report came from, so that memory stays bounded. (Until then
    /// it remembers all, as a document read whole needs.) Text already
    /// read (a document read whole, then scanned as a stream after all) is
    /// remembered until the reader is that far past it.
    pub fn for_stream(&self, scanner: &Scanner) {
        self.0.borrow_mut().keep = Some(scanner.max_candidate_len() + STREAM_MARGIN);
    }
}

/// What the decoder knows of where its text came from.
///
/// # Invariants
///
/// `map` places every decoded byte from `blocks[0].start` on (earlier
/// pieces may be forgotten); `blocks` are the stretches of decoded text
/// decoded at one time, in order, not yet forgotten; `before` is the start
/// (decoded, input) of the last line that starts in a forgotten block, or
/// of the first line.
#[derive(Debug)]
struct Positions {
    map: SourceMap,
    blocks: VecDeque<Block>,
    before: (usize, usize),
    /// Decoded bytes so far.
    out_len: usize,
    /// Input bytes read and decoded so far (BOM included).
    src_read: usize,
    /// Where in the input the next decoded character comes from.
    src_at: usize,
    /// How far behind the decoded bytes returned places are kept (all,
    /// when `None`; see [`Places::for_stream`]).
    keep: Option<usize>,
}

/// A stretch of decoded text, decoded at one time.
#[derive(Debug)]
struct Block {
    /// Its decoded offset.
    start: usize,
    /// The start (decoded, input) of the last line that starts in it.
    last_line: Option<(usize, usize)>,
}

impl Positions {
    /// Nothing decoded yet, the first character to come from `src_at`
    /// (past a BOM, or a text's offset in its source); nothing read.
    fn from(src_at: usize) -> Positions {
        Positions {
            map: SourceMap::default(),
            blocks: VecDeque::new(),
            before: (0, 0),
            out_len: 0,
            src_read: 0,
            src_at,
            keep: None,
        }
    }

    fn span(&self, span: Span) -> Span {
        debug_assert!(
            self.blocks.front().is_none_or(|b| b.start <= span.start),
            "{span:?} was forgotten"
        );
        let placed = self.map.span(span);
        let end = placed.end.min(self.src_read);
        Span::new(placed.start.min(end), end)
    }

    /// The input offset of the line that starts at decoded `at`: where the
    /// `\n` before it ends in the input (a BOM is on the first line).
    fn line_start(&self, at: usize) -> usize {
        if at == self.before.0 {
            return self.before.1;
        }
        debug_assert!(at > 0);
        self.span(Span::new(at - 1, at)).end
    }

    /// Records the block of decoded text `text` just decoded, at decoded
    /// offset `start` (its pieces already in the map).
    fn add_block(&mut self, start: usize, text: &[u8]) {
        let last_line = memchr::memrchr(b'\n', text).map(|i| {
            let at = start + i + 1;
            (at, self.map.span(Span::new(at - 1, at)).end)
        });
        self.blocks.push_back(Block { start, last_line });
    }

    /// Forgets where the decoded bytes before `horizon` came from, but for
    /// the block that holds it.
    fn forget_before(&mut self, horizon: usize) {
        let mut forgot = false;
        while self.blocks.len() > 1 && self.blocks[1].start <= horizon {
            let gone = self.blocks.pop_front().expect("two blocks");
            if let Some(line) = gone.last_line {
                self.before = line;
            }
            forgot = true;
        }
        if forgot {
            self.map.forget_before(self.blocks[0].start);
        }
    }
}

/// How the decoded text is placed, by kind of encoding.
enum Kind {
    /// UTF-8 after its BOM: copied.
    Copy,
    /// Each decoded character of `n` UTF-8 bytes comes from `units[n - 1]`
    /// input bytes (UTF-16, single-byte encodings).
    Rule { decoder: Decoder, units: [u32; 4] },
    /// The multi-byte encodings: ASCII text outside a character copied,
    /// other bytes decoded a run at a time when each of the run's
    /// characters came from the sequence `sequence` says, else fed to the
    /// decoder one byte at a time.
    Stepwise {
        decoder: Decoder,
        encoding: &'static Encoding,
        /// ASCII bytes read as ASCII when no character is begun.
        ascii: bool,
        /// The length of the well-formed sequence that starts with the
        /// first byte given (and, for gb18030, the second), if known.
        sequence: Option<Sequences>,
        /// Input bytes fed since the last decoded character.
        pending: usize,
    },
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Copy => "Copy",
            Kind::Rule { .. } => "Rule",
            Kind::Stepwise { .. } => "Stepwise",
        })
    }
}

/// How long the well-formed sequences of a multi-byte encoding are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sequences {
    /// A lead byte and its trail byte, or one byte (ASCII, 0x80,
    /// half-width katakana).
    ShiftJis,
    /// `8F` and two bytes (JIS X 0212), `8E` and one (half-width
    /// katakana), a lead byte and one.
    EucJp,
    /// A lead byte and one (EUC-KR, Big5).
    DoubleByte,
    /// A lead byte and a digit start four bytes, a lead byte and another
    /// byte two; `80` is one (the euro sign) (GBK, gb18030).
    Gb18030,
}

impl Sequences {
    /// The length of the sequence that starts `s` (one byte, or two to
    /// tell gb18030's four-byte sequences), if well-formed.
    #[inline]
    fn len(self, s: &[u8]) -> usize {
        match (self, s[0]) {
            (Sequences::ShiftJis, 0x81..=0x9F | 0xE0..=0xFC) => 2,
            (Sequences::EucJp, 0x8F) => 3,
            (Sequences::EucJp, 0x8E | 0xA1..=0xFE) => 2,
            (Sequences::DoubleByte, 0x81..=0xFE) => 2,
            (Sequences::Gb18030, 0x81..=0xFE) => match s.get(1) {
                Some(0x30..=0x39) => 4,
                _ => 2,
            },
            _ => 1,
        }
    }
}

/// The length of the UTF-8 character whose first byte is `b`.
fn utf8_len(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

impl Kind {
    fn new(encoding: &'static Encoding) -> Kind {
        let decoder = encoding.new_decoder_without_bom_handling();
        if encoding == UTF_8 {
            Kind::Copy
        } else if encoding == UTF_16LE || encoding == UTF_16BE {
            Kind::Rule {
                decoder,
                units: [2, 2, 2, 4],
            }
        } else if encoding.is_single_byte() {
            Kind::Rule {
                decoder,
                units: [1, 1, 1, 1],
            }
        } else {
            let sequence = if encoding == SHIFT_JIS {
                Some(Sequences::ShiftJis)
            } else if encoding == EUC_JP {
                Some(Sequences::EucJp)
            } else if encoding == EUC_KR || encoding == BIG5 {
                Some(Sequences::DoubleByte)
            } else if encoding == GBK || encoding == GB18030 {
                Some(Sequences::Gb18030)
            } else {
                None // ISO-2022-JP: stateful, every byte fed alone
            };
            Kind::Stepwise {
                decoder,
                encoding,
                ascii: encoding.is_ascii_compatible(),
                sequence,
                pending: 0,
            }
        }
    }

    /// Decodes as much of `src` as fits in `out` (all of it, and what the
    /// decoder holds back, when `last`), placing what it writes in `pos`;
    /// returns how many bytes of `src` it read and of `out` it wrote.
    /// `out` holds at least 3 bytes for each byte of `src`, and 32 more.
    fn decode(
        &mut self,
        src: &[u8],
        last: bool,
        out: &mut [u8],
        pos: &mut Positions,
    ) -> (usize, usize) {
        match self {
            Kind::Copy => {
                let n = src.len().min(out.len());
                pos.map.copied(pos.out_len, pos.src_at);
                out[..n].copy_from_slice(&src[..n]);
                pos.out_len += n;
                pos.src_at += n;
                (n, n)
            }
            Kind::Rule { decoder, units } => {
                let (_, read, written, _) = decoder.decode_to_utf8(src, out, last);
                place_by_rule(&out[..written], *units, pos);
                (read, written)
            }
            Kind::Stepwise {
                decoder,
                encoding,
                ascii,
                sequence,
                pending,
            } => {
                let (mut i, mut w) = (0, 0);
                // Bytes up to here are fed one at a time: a run that did
                // not decode as its sequences say is not tried again.
                let mut stepwise_to = 0;
                let mut one = [0u8; 32];
                while i < src.len() && out.len() - w >= one.len() {
                    if *ascii && *pending == 0 {
                        let n = Encoding::ascii_valid_up_to(&src[i..]).min(out.len() - w);
                        if n > 0 {
                            pos.map.copied(pos.out_len, pos.src_at);
                            out[w..w + n].copy_from_slice(&src[i..i + n]);
                            pos.out_len += n;
                            pos.src_at += n;
                            (i, w) = (i + n, w + n);
                            continue;
                        }
                        if let Some(sequence) = sequence.filter(|_| i >= stepwise_to) {
                            let room = (out.len() - w) / 3;
                            let run = &src[i..i + (src.len() - i).min(room)];
                            let (len, chars) = whole_sequences(run, sequence);
                            if len > 0 {
                                let (_, read, written, _) =
                                    decoder.decode_to_utf8(&run[..len], &mut out[w..], false);
                                let text = &out[w..w + written];
                                if read == len && is_one_each(text, chars) {
                                    place_sequences(text, &run[..len], sequence, pos);
                                    (i, w) = (i + len, w + written);
                                    continue;
                                }
                                // A malformed sequence, or one that reads
                                // as two characters (Big5): again, a byte at
                                // a time, from a decoder that holds nothing,
                                // as the one before the run did.
                                *decoder = encoding.new_decoder_without_bom_handling();
                                stepwise_to = i + len;
                            }
                        }
                    }
                    let (_, read, written, _) =
                        decoder.decode_to_utf8(&src[i..=i], &mut one, false);
                    debug_assert_eq!(read, 1, "one byte's text fits in 32 bytes");
                    *pending += 1;
                    if written > 0 {
                        place_step(&one[..written], Some(src[i]), *pending, pos);
                        out[w..w + written].copy_from_slice(&one[..written]);
                        w += written;
                        *pending = 0;
                    }
                    i += 1;
                }
                if last && i == src.len() {
                    let (_, _, written, _) = decoder.decode_to_utf8(&[], &mut one, true);
                    if written > 0 {
                        place_step(&one[..written], None, *pending, pos);
                        out[w..w + written].copy_from_slice(&one[..written]);
                        w += written;
                        *pending = 0;
                    }
                }
                (i, w)
            }
        }
    }
}

/// The longest start of `run` made of whole non-ASCII sequences (see
/// [`Kind::Stepwise`]): its length, and how many sequences it holds.
fn whole_sequences(run: &[u8], sequence: Sequences) -> (usize, usize) {
    let (mut len, mut count) = (0, 0);
    while len < run.len() && !run[len].is_ascii() {
        let next = len + sequence.len(&run[len..]);
        if next > run.len() {
            break;
        }
        (len, count) = (next, count + 1);
    }
    (len, count)
}

/// Returns true if and only if `text` is `chars` characters, none of them
/// U+FFFD: then each came from one well-formed sequence, whose length its
/// first bytes give.
fn is_one_each(text: &[u8], chars: usize) -> bool {
    let count = text.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    count == chars && memchr::memmem::find(text, "\u{FFFD}".as_bytes()).is_none()
}

/// Places `text`, decoded from the whole sequences `run`, one character
/// for each.
fn place_sequences(text: &[u8], run: &[u8], sequence: Sequences, pos: &mut Positions) {
    let (mut o, mut s) = (0, 0);
    let mut units = (0, 0);
    while o < text.len() {
        let (out_unit, src_unit) = (utf8_len(text[o]), sequence.len(&run[s..]));
        // A piece for each change of units: the map merges pieces that go
        // on, but a run of CJK text need not ask it each time.
        if (out_unit, src_unit) != units {
            units = (out_unit, src_unit);
            pos.map.push(
                pos.out_len + o,
                pos.src_at + s,
                out_unit as u32,
                src_unit as u32,
            );
        }
        o += out_unit;
        s += src_unit;
    }
    pos.out_len += text.len();
    pos.src_at += run.len();
}

/// Places the decoded `text` by the rule `units` (see [`Kind::Rule`]).
fn place_by_rule(text: &[u8], units: [u32; 4], pos: &mut Positions) {
    let mut i = 0;
    // The units of the last piece pushed (see `place_sequences`).
    let mut last = 0;
    while i < text.len() {
        let ascii = Encoding::ascii_valid_up_to(&text[i..]);
        if ascii > 0 {
            pos.map.push(pos.out_len + i, pos.src_at, 1, units[0]);
            pos.src_at += ascii * units[0] as usize;
            i += ascii;
            last = 1;
            continue;
        }
        let len = utf8_len(text[i]);
        let unit = units[len - 1];
        if len != last {
            pos.map.push(pos.out_len + i, pos.src_at, len as u32, unit);
            last = len;
        }
        pos.src_at += unit as usize;
        i += len;
    }
    pos.out_len += text.len();
}

/// Places `text`, decoded when the byte `fed` (none: at the input's end)
/// was fed to a decoder holding `pending - 1` bytes before it (see
/// [`Kind::Stepwise`]). A last ASCII byte equal to the byte fed is that
/// byte, read again after a malformed sequence (or after an escape
/// sequence, which decodes to nothing): it comes from it alone.
fn place_step(text: &[u8], fed: Option<u8>, pending: usize, pos: &mut Positions) {
    let own = fed.is_some_and(|b| b.is_ascii() && text.last() == Some(&b));
    let (head, from) = if own {
        (text.len() - 1, pending - 1)
    } else {
        (text.len(), pending)
    };
    if head > 0 {
        pos.map
            .push(pos.out_len, pos.src_at, head as u32, from as u32);
    }
    if own {
        pos.map.copied(pos.out_len + head, pos.src_at + pending - 1);
    }
    pos.out_len += text.len();
    pos.src_at += pending;
}

/// Decodes all of `bytes` from `encoding` (any but UTF-8; no BOM is
/// looked for) to UTF-8, with the map from each decoded byte to the bytes
/// of `bytes` it came from (plus `base`), placed as a [`DecodeReader`]
/// places them: for a text whose charset is named apart from it (a mail
/// part's `charset`).
#[cfg(feature = "mail")]
pub(crate) fn decode_placed(
    bytes: &[u8],
    encoding: &'static Encoding,
    base: usize,
) -> (Vec<u8>, SourceMap) {
    debug_assert!(encoding != UTF_8, "UTF-8 is scanned as it is");
    let mut positions = Positions::from(base);
    positions.src_read = base + bytes.len();
    let mut kind = Kind::new(encoding);
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 2);
    // Decoded a piece at a time, into room of the size `Kind::decode`
    // asks (3 bytes for each input byte, and 32 more), zeroed once (an
    // encoded word's is small).
    const PIECE: usize = 16 * 1024;
    let mut room = vec![0; 3 * PIECE.min(bytes.len()) + 64];
    let mut at = 0;
    loop {
        let piece = &bytes[at..bytes.len().min(at + PIECE)];
        let last = at + piece.len() == bytes.len();
        let (read, written) = kind.decode(piece, last, &mut room, &mut positions);
        debug_assert_eq!(read, piece.len(), "room for all of it");
        out.extend_from_slice(&room[..written]);
        at += read;
        if last {
            return (out, positions.map);
        }
    }
}

/// An input's text, decoded to UTF-8 as a [`Decoding`] says, in pieces:
/// an `io::Read` whose bytes are placed back in the input by its
/// [`Places`].
///
/// Give it the input from its first byte (a BOM included, which it skips).
/// It remembers where all its text came from, unless told, by
/// [`Places::for_stream`], what reads it.
///
/// # Invariants
///
/// `raw[raw_pos..raw_end]` is input read and not yet decoded,
/// `out[out_pos..out_end]` decoded text not yet returned; both buffers
/// keep their length (allocated and zeroed once).
pub struct DecodeReader<R> {
    rdr: R,
    kind: Kind,
    raw: Vec<u8>,
    raw_pos: usize,
    raw_end: usize,
    out: Vec<u8>,
    out_pos: usize,
    out_end: usize,
    /// BOM bytes still to skip.
    bom_left: usize,
    /// The input ended (a read returned 0).
    eof: bool,
    /// Everything is decoded, the decoder's last bytes too.
    done: bool,
    /// Decoded bytes returned so far.
    returned: usize,
    positions: Rc<RefCell<Positions>>,
}

impl<R> fmt::Debug for DecodeReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeReader")
            .field("kind", &self.kind)
            .field("returned", &self.returned)
            .finish_non_exhaustive()
    }
}

impl<R: Read> DecodeReader<R> {
    /// A reader of the text of `rdr` (read from the input's first byte)
    /// decoded as `decoding` says.
    pub fn new(rdr: R, decoding: Decoding) -> DecodeReader<R> {
        let kind = Kind::new(decoding.encoding);
        // Room for what one read of input decodes to, and one character
        // more: at most 3 bytes a byte, and what the decoder held back.
        let out_size = 3 * RAW_SIZE + 64;
        let positions = Positions::from(decoding.bom);
        DecodeReader {
            rdr,
            kind,
            raw: vec![0; RAW_SIZE],
            raw_pos: 0,
            raw_end: 0,
            out: vec![0; out_size],
            out_pos: 0,
            out_end: 0,
            bom_left: decoding.bom,
            eof: false,
            done: false,
            returned: 0,
            positions: Rc::new(RefCell::new(positions)),
        }
    }

    /// Where its text came from: share it with the sink that receives
    /// what is found in it.
    pub fn places(&self) -> Places {
        Places(Rc::clone(&self.positions))
    }

    /// Decodes the next piece of input into `out`; false when there is
    /// nothing left to decode.
    fn fill(&mut self) -> io::Result<bool> {
        self.out_pos = 0;
        self.out_end = 0;
        let mut positions = self.positions.borrow_mut();
        if let Some(keep) = positions.keep {
            positions.forget_before(self.returned.saturating_sub(keep));
        }
        let start = positions.out_len;
        while self.out_end == 0 && !self.done {
            if self.raw_pos == self.raw_end && !self.eof {
                let n = loop {
                    match self.rdr.read(&mut self.raw) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        r => break r?,
                    }
                };
                positions.src_read += n;
                self.eof = n == 0;
                let skip = self.bom_left.min(n);
                self.bom_left -= skip;
                (self.raw_pos, self.raw_end) = (skip, n);
            }
            let src = &self.raw[self.raw_pos..self.raw_end];
            let (read, written) = self
                .kind
                .decode(src, self.eof, &mut self.out, &mut positions);
            self.raw_pos += read;
            self.out_end = written;
            if self.eof && self.raw_pos == self.raw_end {
                // `Copy` holds nothing back; the decoders flushed with
                // `last` (and `Stepwise` once all was read).
                self.done = true;
            }
        }
        if self.out_end > 0 {
            positions.add_block(start, &self.out[..self.out_end]);
        }
        Ok(self.out_end > 0)
    }
}

impl<R: Read> Read for DecodeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.out_pos == self.out_end && !self.fill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out_end - self.out_pos);
        buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
        self.out_pos += n;
        self.returned += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standalone::Rng;

    /// A text decoded whole by [`decode_placed`], in pieces, gives what
    /// encoding_rs gives, with each character placed at its bytes, also
    /// where a piece ends inside a character or an escape sequence.
    #[cfg(feature = "mail")]
    #[test]
    fn decoded_in_pieces_a_text_is_placed_at_its_bytes() {
        for (label, unit) in [
            ("shift_jis", &b"a\x93\xfa"[..]),
            ("euc-jp", b"a\xc6\xfc"),
            ("iso-2022-jp", b"a\x1b$BF|\x1b(B"),
            ("gb18030", b"a\x81\x30\x81\x30"),
            ("windows-1252", b"a\xe9"),
        ] {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            // Over 16 KiB, the units fall across every offset of a piece's end.
            let input = unit.repeat(3 * 16 * 1024 / unit.len() + 7);
            let (text, map) = decode_placed(&input, encoding, 100);
            let (whole, malformed) = encoding.decode_without_bom_handling(&input);
            assert!(!malformed, "{label}");
            assert!(
                text == whole.as_bytes(),
                "{label}: not what encoding_rs decodes"
            );
            // Each unit decodes to `a` and one character, placed at the
            // unit's bytes after `a` (100 on).
            let char_len = text.len() / (input.len() / unit.len()) - 1;
            for k in 0..input.len() / unit.len() {
                let out = k * (1 + char_len) + 1;
                let span = map.span(Span::new(out, out + char_len));
                let src = 100 + k * unit.len();
                assert_eq!(span.start, src + 1, "{label}: unit {k}");
                assert!(span.end <= src + unit.len(), "{label}: unit {k}");
            }
        }
    }

    fn decoding(label: &str, input: &[u8]) -> Decoding {
        TextEncoding::for_label(label)
            .unwrap()
            .decoding_for(input)
            .unwrap()
    }

    /// The decoded text of `input`, read `size` bytes at a time, and its
    /// places.
    fn decode(label: &str, input: &[u8], size: usize) -> (Vec<u8>, Places) {
        let mut rdr = DecodeReader::new(input, decoding(label, input));
        let places = rdr.places();
        let mut text = Vec::new();
        let mut buf = vec![0; size];
        loop {
            let n = rdr.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            text.extend_from_slice(&buf[..n]);
        }
        (text, places)
    }

    /// Each URI found in `input` decoded as `label` (as written: an IRI's
    /// own text), with the input bytes it was placed at, decoded again,
    /// and its line and column.
    fn placed(label: &str, input: &[u8]) -> Vec<(String, String, u64, u64)> {
        let (text, places) = decode(label, input, 4096);
        let encoding = decoding(label, input).encoding;
        Scanner::new()
            .find_iter(&text)
            .map(|f| {
                let p = places.place(&f);
                let (again, _) = encoding.decode_without_bom_handling(&input[p.span.range()]);
                let written = f.iri().unwrap_or(f.as_str());
                (written.to_string(), again.into_owned(), p.line, p.column)
            })
            .collect()
    }

    #[test]
    fn labels_auto_none_and_unknown() {
        assert_eq!(TextEncoding::default().name(), "auto");
        assert_eq!(TextEncoding::for_label(" AUTO ").unwrap().name(), "auto");
        assert_eq!(TextEncoding::for_label("none").unwrap().name(), "none");
        assert_eq!(
            TextEncoding::for_label("latin1").unwrap().name(),
            "windows-1252"
        );
        assert_eq!(TextEncoding::for_label("sjis").unwrap().name(), "Shift_JIS");
        assert_eq!(TextEncoding::for_label("klingon"), None);
        assert_eq!(TextEncoding::for_label("iso-2022-kr"), None);
    }

    #[test]
    fn a_bom_wins_and_none_looks_for_none() {
        let auto = TextEncoding::default();
        assert_eq!(auto.decoding_for(b"plain"), None);
        assert_eq!(auto.decoding_for(b"\xEF\xBB\xBFa").unwrap().bom_len(), 3);
        assert_eq!(
            auto.decoding_for(b"\xFF\xFEa\0").unwrap().name(),
            "UTF-16LE"
        );
        assert_eq!(
            auto.decoding_for(b"\xFE\xFF\0a").unwrap().name(),
            "UTF-16BE"
        );
        let none = TextEncoding::for_label("none").unwrap();
        assert_eq!(none.decoding_for(b"\xFF\xFEa\0"), None);
        let sjis = TextEncoding::for_label("shift_jis").unwrap();
        assert_eq!(sjis.decoding_for(b"abc").unwrap().name(), "Shift_JIS");
        assert_eq!(
            sjis.decoding_for(b"\xFF\xFEa\0").unwrap().name(),
            "UTF-16LE"
        );
        // UTF-8 is scanned as it is.
        let utf8 = TextEncoding::for_label("utf-8").unwrap();
        assert_eq!(utf8.decoding_for(b"abc"), None);
    }

    /// The text of each sample, in every encoding that can write it, gives
    /// its URIs at bytes that decode to them, on the right line and column,
    /// whatever the size of the reads.
    #[test]
    fn uris_are_placed_at_their_encoded_bytes() {
        let samples = [
            "see http://a.example/x and\n  <https://b.example/y> ok\n",
            "日本語のテキスト http://example.jp/パス 続き\n二行目 ftp://x.example/ です\n",
            "café: http://example.org/caf é\nnaïve mailto:a@b.example.\n",
            "Ωμέγα http://ω.example/ πολύ\n\n\nlast http://z.example/",
            "😀 emoji first http://e.example/😀 and\r\nCRLF http://crlf.example/\r\n",
            "한국어 텍스트 http://kr.example/ 입니다\n",
            "繁體中文 http://tw.example/ 文字\n",
        ];
        let labels = [
            "utf-16le",
            "utf-16be",
            "shift_jis",
            "euc-jp",
            "iso-2022-jp",
            "gb18030",
            "big5",
            "euc-kr",
            "latin1",
            "iso-8859-7",
        ];
        for sample in samples {
            let want: Vec<_> = Scanner::new()
                .find_iter(sample.as_bytes())
                .map(|f| (f.iri().unwrap_or(f.as_str()).to_string(), f.line()))
                .collect();
            for label in labels {
                let encoding = Encoding::for_label(label.as_bytes()).unwrap();
                let (input, _, unmappable) = encoding.encode(sample);
                if unmappable || encoding == UTF_16LE || encoding == UTF_16BE {
                    // encode() writes UTF-8 for UTF-16: done by hand below.
                    if encoding != UTF_16LE && encoding != UTF_16BE {
                        continue;
                    }
                }
                let input: Vec<u8> = if encoding == UTF_16LE {
                    sample.encode_utf16().flat_map(u16::to_le_bytes).collect()
                } else if encoding == UTF_16BE {
                    sample.encode_utf16().flat_map(u16::to_be_bytes).collect()
                } else {
                    input.into_owned()
                };
                let got = placed(label, &input);
                assert_eq!(got.len(), want.len(), "{label}: {sample:?}");
                for ((uri, again, line, column), (want_uri, want_line)) in got.iter().zip(&want) {
                    assert_eq!((uri, line), (want_uri, want_line), "{label}");
                    assert_eq!(again, uri, "{label}: the bytes placed decode to it");
                    // The column: the input bytes of its line before it.
                    let line_text = sample.split('\n').nth(*line as usize - 1).unwrap();
                    let before = &line_text[..line_text.find(uri.as_str()).unwrap()];
                    let (before_bytes, _, _) = encoding.encode(before);
                    let before_len = if encoding == UTF_16LE || encoding == UTF_16BE {
                        before.encode_utf16().count() * 2
                    } else if label == "iso-2022-jp" {
                        // Escape sequences in and out of JIS X 0208.
                        continue;
                    } else {
                        before_bytes.len()
                    };
                    assert_eq!(*column, before_len as u64 + 1, "{label}: {uri}");
                }
            }
        }
    }

    /// Decodes `input` with `kind`, in pieces of `piece` bytes: the text
    /// and the input range of each of its bytes.
    fn decode_with(mut kind: Kind, input: &[u8], piece: usize) -> (Vec<u8>, Vec<Span>) {
        let mut pos = Positions {
            map: SourceMap::default(),
            blocks: VecDeque::new(),
            before: (0, 0),
            out_len: 0,
            src_read: input.len(),
            src_at: 0,
            keep: None,
        };
        let (mut text, mut out) = (Vec::new(), vec![0; 3 * piece + 64]);
        let mut chunks = input.chunks(piece).peekable();
        while let Some(mut chunk) = chunks.next() {
            let last = chunks.peek().is_none();
            loop {
                let (read, written) = kind.decode(chunk, last, &mut out, &mut pos);
                text.extend_from_slice(&out[..written]);
                chunk = &chunk[read..];
                if chunk.is_empty() {
                    break;
                }
            }
        }
        let places = (0..text.len())
            .map(|o| pos.map.span(Span::new(o, o + 1)))
            .collect();
        (text, places)
    }

    /// Runs of whole sequences decoded at once are placed exactly as bytes
    /// fed one at a time are, malformed sequences (which send a run back to
    /// bytes one at a time) and Big5's two-character ones included.
    #[test]
    fn runs_decoded_at_once_are_placed_as_bytes_fed_one_at_a_time() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for encoding in [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GBK, GB18030] {
            let (sample, _, _) = encoding.encode("日本語 http://a.example/ 한국 中文 ｶﾀ €\n");
            let mut input = Vec::new();
            for _ in 0..3000 {
                match rng.below(4) {
                    0 => input.extend_from_slice(&sample),
                    1 => input.extend_from_slice(b" http://x.example/ "),
                    // Big5's two-character sequence; a lead byte before ASCII.
                    2 => input.extend_from_slice(b"\x88\x62\x81a"),
                    _ => input.extend((0..rng.below(6)).map(|_| 0x80 | rng.next() as u8)),
                }
            }
            let reference = |input: &[u8], piece| {
                let mut kind = Kind::new(encoding);
                if let Kind::Stepwise { sequence, .. } = &mut kind {
                    *sequence = None;
                }
                decode_with(kind, input, piece)
            };
            let want = reference(&input, 1 << 20);
            assert_eq!(
                want.0,
                encoding.decode_without_bom_handling(&input).0.as_bytes()
            );
            for piece in [1 << 20, 4096, 7] {
                let got = decode_with(Kind::new(encoding), &input, piece);
                assert!(got == want, "{}, pieces of {piece}", encoding.name());
            }
        }
    }

    #[test]
    fn boms_are_skipped_and_counted_in_columns_on_the_first_line() {
        let mut input = b"\xEF\xBB\xBFhttp://a.example/ x\nhttp://b.example/".to_vec();
        let got = placed("auto", &input);
        assert_eq!((got[0].2, got[0].3), (1, 4));
        assert_eq!((got[1].2, got[1].3), (2, 1));
        input = vec![0xFE, 0xFF];
        input.extend(
            "http://a.example/\nhttp://b.example/"
                .encode_utf16()
                .flat_map(u16::to_be_bytes),
        );
        let got = placed("auto", &input);
        assert_eq!((got[0].2, got[0].3), (1, 3));
        assert_eq!((got[1].2, got[1].3), (2, 1));
    }

    /// Every read size gives the same text; an odd byte at the end of
    /// UTF-16 and a lone surrogate decode to U+FFFD.
    #[test]
    fn reads_of_any_size_give_the_same_text() {
        let mut input = vec![0xFF, 0xFE];
        input.extend(
            "a http://x.example/ é 日本 😀\n"
                .repeat(5000)
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        );
        input.extend([0x00, 0xD8, b'a', 0, 0x41]);
        let (want, _) = decode("auto", &input, 1 << 20);
        assert!(want.ends_with("a\u{FFFD}".as_bytes()));
        for size in [1, 2, 3, 7, 4096] {
            assert_eq!(decode("auto", &input, size).0, want, "reads of {size}");
        }
        let sjis = "日本語 http://x.example/ ｶﾀｶﾅ\n".repeat(5000);
        let (input, _, _) = encoding_rs::SHIFT_JIS.encode(&sjis);
        for size in [1, 7, 1 << 20] {
            assert_eq!(
                decode("sjis", &input, size).0,
                sjis.as_bytes(),
                "reads of {size}"
            );
        }
    }

    /// A stream that forgets what it can no longer report places every URI
    /// right, on lines much longer than what it keeps too.
    #[test]
    fn a_stream_forgets_only_what_it_can_no_longer_report() {
        let scanner = Scanner::builder().max_candidate_len(256).build();
        let keep = scanner.max_candidate_len() + STREAM_MARGIN;
        let long_line = "日本 ".repeat(keep / 5);
        let text = format!(
            "{long_line}http://a.example/ {long_line}\nhttp://b.example/\n{}",
            "x http://c.example/ 日本\n".repeat(keep / 10)
        );
        let mut input = vec![0xFF, 0xFE];
        input.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let want: Vec<_> = Scanner::new()
            .find_iter(text.as_bytes())
            .map(|f| {
                let line = text[..f.span().start].rsplit('\n').next().unwrap();
                (f.line(), 2 * line.encode_utf16().count() as u64 + 1)
            })
            .collect();
        let mut rdr = DecodeReader::new(&input[..], decoding("auto", &input));
        let places = rdr.places();
        places.for_stream(&scanner);
        let mut got = Vec::new();
        scanner
            .scan_reader(&mut rdr, |f: &Found<'_>| {
                let p = places.place(f);
                let (again, _) = UTF_16LE.decode_without_bom_handling(&input[p.span.range()]);
                assert_eq!(again, f.as_str());
                got.push((p.line, p.column - if p.line == 1 { 2 } else { 0 }));
                Ok(true)
            })
            .unwrap();
        assert_eq!(got, want);
        let positions = places.0.borrow();
        assert!(
            positions.blocks.len() < 3 * keep / RAW_SIZE + 3,
            "{}",
            positions.blocks.len()
        );
    }
}
