//! The scanning core, driven by the slice iterator, [`Scanner::scan_slice`]
//! and the stream reader alike: from each `:` in the input, it finds the
//! scheme before it and reads the candidate that scheme starts
//! ([`super::candidate`]), then reports what it found.
//!
//! # The step protocol
//!
//! A driver owns a [`Core`] and shows it the input through a [`Window`]:
//! the bytes it holds, their absolute offset, and whether the input ends
//! with them. Each [`Core::step`] looks at the next `:` that may end a
//! scheme, reports what the candidate there gives, and says what happened:
//! [`Step::Progress`] (call again), [`Step::Exhausted`] (no `:` left in the
//! window), [`Step::NeedMore`] (the window ends before the next `:` can be
//! decided) or [`Step::Stopped`] (the receiver asked to stop).
//!
//! # Invariants
//!
//! What the core decides for a `:` depends only on the [`LOOKBACK`] bytes
//! before it and on the bytes up to `max_candidate_len` + [`SLACK`] after
//! the candidate's first byte. When those bytes are not all in the window
//! and the input has not ended, it answers [`Step::NeedMore`] without
//! deciding anything (and without changing its state), so a reader that
//! supplies them gets exactly the answer the slice iterator gets.
//!
//! [`Scanner::scan_slice`]: super::Scanner::scan_slice

use std::io;

use super::chars;
use super::colons::{ends_address_scheme, ColonFinder, Sides};
use super::run::Run;
use super::schemes::Scheme;
use super::{Found, Scanner, Sink};
use crate::uri::table::{SCHEME, URI};

/// How far before a `:` the core looks (scheme, `URL:`, `<`, quote prefix).
pub const LOOKBACK: usize = 256;

/// How far past `max_candidate_len` the core may look (page-break lines).
pub const SLACK: usize = 1024;

/// A view of the input: `hay` starts at absolute offset `offset`.
#[derive(Clone, Copy, Debug)]
pub struct Window<'h> {
    pub hay: &'h [u8],
    pub offset: usize,
    /// True when `hay` ends where the input ends.
    pub eof: bool,
}

/// The window ended (not at the end of the input) before a decision.
#[derive(Debug)]
pub struct NeedMore;

/// What one call of [`Core::step`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Looked at one `:` (and may have reported what it starts).
    Progress,
    /// The window ends before the next `:` can be decided.
    NeedMore,
    /// No `:` is left in the window.
    Exhausted,
    /// The receiver asked to stop, or failed (its error is returned).
    Stopped,
}

/// Where the core sends what it finds. Implemented once for every [`Sink`]
/// (the adapter below) and by the slice iterator's queue.
pub trait Report<'h> {
    /// A URI (or, on request, an invalid candidate). `Ok(false)` stops.
    fn found(&mut self, found: Found<'h>) -> io::Result<bool>;

    /// A candidate longer than the limit, given up on: its first byte's
    /// absolute offset and its line. `Ok(false)` stops.
    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool>;
}

/// The one adapter from the core to a [`Sink`].
pub struct ToSink<'a, S: ?Sized>(pub &'a mut S);

impl<'h, S: Sink + ?Sized> Report<'h> for ToSink<'_, S> {
    #[inline]
    fn found(&mut self, found: Found<'h>) -> io::Result<bool> {
        self.0.found(&found)
    }

    #[inline]
    fn too_long(&mut self, start: usize, line: u64) -> io::Result<bool> {
        self.0.too_long(start, line)
    }
}

/// The scanning state carried from one step to the next.
///
/// # Invariants
///
/// Every offset is absolute. `pos` only grows; `lines` has counted the line
/// breaks before `lines.counted`, which is at most the start of any
/// candidate not yet read.
#[derive(Debug)]
pub struct Core<'s> {
    pub(super) scanner: &'s Scanner,
    /// The next byte to look for a `:` from.
    pub pos: usize,
    /// The run of URI bytes being read, and what is known about it.
    pub(super) run: Run,
    /// True while skipping the rest of a run of URI bytes that was too long
    /// to be a candidate: it is given up whole, not scanned from inside.
    pub(super) in_long_run: bool,
    /// No `<` before this offset is read as a bracket: an angle-bracket
    /// read that crossed a page break failed here, and the only `<` it
    /// passed over sit in the page break's own lines (see
    /// [`super::candidate`]).
    pub(super) angles_from: usize,
    /// The mail quote prefix of the line that starts at `.0`: its length.
    pub(super) quote: Option<(usize, usize)>,
    pub lines: Lines,
    colons: ColonFinder,
}

impl<'s> Core<'s> {
    /// A core at the start of the input.
    pub fn new(scanner: &'s Scanner) -> Core<'s> {
        Core::starting_at(scanner, 0, 1, 0)
    }

    /// A core that starts scanning at absolute offset `pos`, on line
    /// `line` (1-based), which starts at absolute offset `line_start`. The
    /// window must hold the [`LOOKBACK`] bytes before `pos`, or start at
    /// offset 0.
    pub fn starting_at(scanner: &'s Scanner, pos: usize, line: u64, line_start: usize) -> Core<'s> {
        Core {
            scanner,
            pos,
            run: Run::default(),
            in_long_run: false,
            angles_from: 0,
            quote: None,
            colons: ColonFinder::new(),
            lines: Lines {
                line,
                line_start,
                counted: pos,
                count: scanner.config.line_numbers,
            },
        }
    }

    /// This core, counting no lines (see
    /// [`ScannerBuilder::line_numbers`](super::ScannerBuilder::line_numbers)),
    /// for a caller that places what is found itself.
    #[cfg(feature = "mail")]
    pub(crate) fn without_line_numbers(mut self) -> Core<'s> {
        self.lines.count = false;
        self
    }

    /// Looks at the next `:` at or after `pos` and reports what it starts.
    /// `win` must hold the [`LOOKBACK`] bytes before `pos` (or start at
    /// offset 0).
    ///
    /// # Errors
    ///
    /// The first error `report` returns (the step is then
    /// [`Step::Stopped`]).
    pub fn step<'h, R: Report<'h>>(
        &mut self,
        win: &Window<'h>,
        report: &mut R,
    ) -> io::Result<Step> {
        let hay = win.hay;
        let mut from = self.pos - win.offset;
        if self.in_long_run {
            // The skip may have stopped inside a character, at the end of the
            // last window or at the candidate limit: its rest is run too.
            let inside = hay[from..]
                .iter()
                .take(3)
                .take_while(|&&b| b & 0xC0 == 0x80)
                .count();
            let len = inside + chars::run_len(&hay[from + inside..], &URI, !win.eof);
            crate::work::examined(len + 1);
            from += len;
            self.pos = win.offset + from;
            if from == hay.len() && !win.eof {
                return Ok(Step::Exhausted); // the run goes on in the next window
            }
            self.in_long_run = false;
        }
        let scheme = match self.next_scheme(win, from) {
            Ok(Some(scheme)) => scheme,
            Ok(None) => {
                self.pos = win.offset + hay.len();
                return Ok(Step::Exhausted);
            }
            Err(at) => {
                self.pos = win.offset + at;
                return Ok(Step::NeedMore);
            }
        };
        let mut outcome = Outcome::Continue;
        match self.read_candidate(
            win,
            scheme,
            &mut Emit {
                report,
                outcome: &mut outcome,
            },
        ) {
            Ok(resume) => self.pos = win.offset + resume,
            Err(NeedMore) => {
                debug_assert!(
                    matches!(outcome, Outcome::Continue),
                    "reported, then asked for more"
                );
                self.pos = win.offset + scheme.colon;
                return Ok(Step::NeedMore);
            }
        }
        match outcome {
            Outcome::Continue => Ok(Step::Progress),
            Outcome::Stop => Ok(Step::Stopped),
            Outcome::Failed(err) => Err(err),
        }
    }

    /// Finds the next `:` at or after `from` whose scheme starts a
    /// candidate. `Ok(None)` when the window holds none; `Err(at)` when the
    /// `:` at `at` cannot be decided before the window grows.
    ///
    /// Most `:` in text cannot end a scheme: a space or a line end follows
    /// (`Note: `, `From: `), no scheme byte precedes, or digits stand on
    /// both sides (`12:30`). They, and the colons with no scheme before
    /// them, are passed over here, in one loop.
    fn next_scheme(&self, win: &Window<'_>, from: usize) -> Result<Option<Scheme>, usize> {
        let hay = win.hay;
        let mut at = from;
        // Colons that fail the test of their sides come in runs (times,
        // JSON keys): after one, the search tests both sides itself.
        let mut sides = Sides::following(true);
        while let Some(colon) = self.colons.next(hay, at, sides) {
            crate::work::examined(colon + 1 - at);
            at = colon + 1;
            let (Some(&before), Some(&after)) =
                (colon.checked_sub(1).map(|i| &hay[i]), hay.get(at))
            else {
                // At the very start, or at the window's end.
                if colon == 0 || win.eof {
                    continue;
                }
                return Err(colon);
            };
            let passed = may_end_scheme(before, after);
            sides = Sides::following(passed);
            if !passed {
                continue;
            }
            match Scheme::before(win, colon, self.scanner.config.any_scheme) {
                Ok(Some(scheme)) => return Ok(Some(scheme)),
                Ok(None) => {}
                Err(NeedMore) => return Err(colon),
            }
        }
        crate::work::examined(hay.len() - at);
        Ok(None)
    }

    /// The line and byte column of absolute offset `at`, counting line
    /// breaks up to it.
    pub(super) fn position(&mut self, win: &Window<'_>, at: usize) -> (u64, u64) {
        self.lines.advance(win, at);
        self.lines.position(at)
    }
}

/// Returns true if and only if a `:` between `before` and `after` may end
/// a scheme: a scheme byte before it, a URI byte after it, not digits on
/// both sides (`12:30`), and a non-ASCII byte after it only after the last
/// letter of an address scheme (`mailto:üser@…`: [`Scheme::before`] turns
/// away every other `:` glued to non-ASCII text, `Note:重要`, which CJK
/// text is full of). One branch for the four tests, taken for most colons.
#[inline]
fn may_end_scheme(before: u8, after: u8) -> bool {
    let (before, after) = (SIDES[usize::from(before)], SIDES[usize::from(after)]);
    (before & SCHEME_BYTE != 0)
        & (after & URI_BYTE != 0)
        & (before & after & DIGIT == 0)
        & ((after & NON_ASCII == 0) | (before & ADDRESS_END != 0))
}

/// Returns true if `text`, scanned as a whole input, may hold a candidate:
/// it has a [`candidate_colon`] or an [`escaped_colon`]. When false, its
/// scan reports nothing. Most header fields that hold a `:` hold only
/// times (`Date`, `Received`), and are passed over with this.
#[cfg(any(feature = "mail", test))]
pub(crate) fn may_hold_candidate(text: &[u8]) -> bool {
    candidate_colon(text, 0).is_some() || escaped_colon(text, 0).is_some()
}

/// The offset of the first `:` written as a JSON escape (`\u003a` or
/// `\u003A`) in `text` at or after `from`: a JSON string's
/// `https\u003a\/\/…` is decoded before it is scanned, and its scheme's
/// `:` is no `:` byte of `text`.
#[cfg(any(feature = "mail", test))]
pub(crate) fn escaped_colon(text: &[u8], mut from: usize) -> Option<usize> {
    // A `\` is rare in most text (mail headers): memchr finds each, a
    // search for the whole escape cost more than it saved.
    while let Some(at) = memchr::memchr(b'\\', text.get(from..)?) {
        let escape = from + at;
        let rest = &text[escape + 1..];
        if rest.starts_with(b"u003") && matches!(rest.get(4), Some(b'a' | b'A')) {
            return Some(escape);
        }
        from = escape + 1;
    }
    None
}

/// The offset of the first `:` of `text` (scanned as a whole input) at or
/// after `from` that a candidate may hang on: one with a byte on each side
/// that may end a scheme ([`may_end_scheme`]), or with a scheme byte
/// before and a `\` after (a JSON string's `https:\/\/`, decoded before
/// it is scanned: decoding turns no byte that is not a scheme byte into
/// one). With AVX2 the colon finder's far search tests both sides 64
/// bytes at a time and passes over the colons that fail without stopping
/// (field names' `Subject: `, times), so a whole header block is searched
/// at once.
#[cfg(any(feature = "mail", test))]
pub(crate) fn candidate_colon(text: &[u8], mut from: usize) -> Option<usize> {
    let finder = ColonFinder::new();
    // The finder passes over only colons that fail this test (its
    // contract with `Sides::Both`).
    while from < text.len() {
        let colon = finder.far(text, from, Sides::Both)?;
        from = colon + 1;
        if colon > 0
            && text.get(colon + 1).is_some_and(|&after| {
                let before = text[colon - 1];
                may_end_scheme(before, after)
                    || (after == b'\\' && SIDES[usize::from(before)] & SCHEME_BYTE != 0)
            })
        {
            return Some(colon);
        }
    }
    None
}

/// [`SIDES`]: a byte that may end a scheme.
const SCHEME_BYTE: u8 = 1;
/// [`SIDES`]: a byte that may follow a scheme's `:` (a URI byte, or a
/// byte of an IRI's non-ASCII character).
const URI_BYTE: u8 = 2;
/// [`SIDES`]: an ASCII digit (digits on both sides: `12:30`).
const DIGIT: u8 = 4;
/// [`SIDES`]: a byte of a non-ASCII character.
const NON_ASCII: u8 = 8;
/// [`SIDES`]: the last letter of an address scheme, in any case
/// ([`ends_address_scheme`]).
const ADDRESS_END: u8 = 16;

/// What each byte may be beside a `:` that ends a scheme.
const SIDES: [u8; 256] = {
    let mut sides = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if SCHEME.contains(byte) {
            sides[b] |= SCHEME_BYTE;
        }
        if URI.contains(byte) || byte >= 0x80 {
            sides[b] |= URI_BYTE;
        }
        if byte.is_ascii_digit() {
            sides[b] |= DIGIT;
        }
        if byte >= 0x80 {
            sides[b] |= NON_ASCII;
        }
        if ends_address_scheme(byte) {
            sides[b] |= ADDRESS_END;
        }
        b += 1;
    }
    sides
};

/// What the receiver said, as the candidate's reports go out.
#[derive(Debug)]
pub(super) enum Outcome {
    Continue,
    Stop,
    Failed(io::Error),
}

/// A [`Report`] and what it said: the candidate stages report through it,
/// and after a stop or an error nothing more reaches the receiver.
pub(super) struct Emit<'a, R> {
    report: &'a mut R,
    outcome: &'a mut Outcome,
}

impl<'h, R: Report<'h>> Emit<'_, R> {
    pub(super) fn found(&mut self, found: Found<'h>) {
        if matches!(self.outcome, Outcome::Continue) {
            *self.outcome = into_outcome(self.report.found(found));
        }
    }

    pub(super) fn too_long(&mut self, start: usize, line: u64) {
        if matches!(self.outcome, Outcome::Continue) {
            *self.outcome = into_outcome(self.report.too_long(start, line));
        }
    }
}

fn into_outcome(result: io::Result<bool>) -> Outcome {
    match result {
        Ok(true) => Outcome::Continue,
        Ok(false) => Outcome::Stop,
        Err(err) => Outcome::Failed(err),
    }
}

/// 1-based line numbers, counted lazily up to each candidate's start, or
/// only the start of the line (for columns) when lines are not counted.
///
/// # Invariants
///
/// `line_start` is where the line holding `counted` starts (an absolute
/// offset), and `line` is its number when `count` (else the number it was
/// given at the start).
#[derive(Debug)]
pub struct Lines {
    line: u64,
    pub line_start: usize,
    pub counted: usize,
    count: bool,
}

impl Lines {
    /// Counts the line breaks of `win` up to absolute offset `to` (or,
    /// when not counting, finds the last one).
    pub fn advance(&mut self, win: &Window<'_>, to: usize) {
        if to <= self.counted {
            return;
        }
        let bytes = &win.hay[self.counted - win.offset..to - win.offset];
        crate::work::examined(bytes.len());
        if self.count {
            // bytecount's vector loop (AVX2 where the CPU has it, chosen at
            // run time) keeps byte-wide counters: on the corpus it takes a
            // third fewer instructions than memchr's count, which adds up
            // the matches of each vector, on long stretches and short.
            let breaks = bytecount::count(bytes, b'\n');
            if breaks > 0 {
                self.line += breaks as u64;
                let last = memchr::memrchr(b'\n', bytes).expect("a line break was counted");
                self.line_start = self.counted + last + 1;
            }
        } else if let Some(last) = memchr::memrchr(b'\n', bytes) {
            // Only the bytes after the last line break are looked at.
            self.line_start = self.counted + last + 1;
        }
        self.counted = to;
    }

    /// The line holding the offset counted up to (the line given at the
    /// start when lines are not counted).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The line (0 when lines are not counted) and byte column of absolute
    /// offset `at`, on the line counted up to.
    fn position(&self, at: usize) -> (u64, u64) {
        debug_assert!(self.line_start <= at && at <= self.counted);
        let line = if self.count { self.line } else { 0 };
        (line, (at - self.line_start + 1) as u64)
    }
}

#[cfg(test)]
#[allow(dead_code)]
#[path = "../../examples/hostile/gen.rs"]
pub(super) mod gen;

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::gen;
    use crate::{Found, HyphenMode, IriMode, Scanner};

    /// What a scan of `text` alone reports, URIs and over-long candidates.
    fn reported(scanner: &Scanner, text: &[u8]) -> usize {
        struct Count(usize);
        impl crate::Sink for &mut Count {
            fn found(&mut self, _: &Found<'_>) -> std::io::Result<bool> {
                self.0 += 1;
                Ok(true)
            }
            fn too_long(&mut self, _: usize, _: u64) -> std::io::Result<bool> {
                self.0 += 1;
                Ok(true)
            }
        }
        let mut count = Count(0);
        scanner.scan_slice(text, &mut count).expect("no sink error");
        count.0
    }

    #[test]
    fn a_text_that_may_hold_no_candidate_reports_nothing() {
        use super::may_hold_candidate;
        // Header fields that hold only times, and the edges of a text.
        for text in [
            &b"Tue, 20 Aug 2002 10:15:32 +0100"[..],
            b"from a.example (b [10.0.0.1]) by c; Tue, 20 Aug 2002 10:15:32",
            b"http:",
            b":http",
            b"Note: see",
            b"",
        ] {
            assert!(!may_hold_candidate(text), "{text:?}");
        }
        for text in [
            &b"<http://a.org/>"[..],
            b"x mailto:a@b.org",
            b"a:b",
            b"{\"u\":\"https\\u003A\\/\\/a.org\\/\"}",
        ] {
            assert!(may_hold_candidate(text), "{text:?}");
        }
        // And on real text, with the scanners that report the most: every
        // line it turns away, and every line's text after each `:`, give
        // nothing.
        let widest = [
            Scanner::builder()
                .any_scheme(true)
                .report_invalid(true)
                .build(),
            Scanner::builder()
                .any_scheme(true)
                .max_candidate_len(8)
                .build(),
        ];
        let mut turned_away = 0;
        for dir in ["fixtures/mail", "fixtures/scan"] {
            for entry in std::fs::read_dir(dir).expect("the fixtures") {
                let path = entry.expect("an entry").path();
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                for line in bytes.split(|&b| b == b'\n') {
                    let pieces = std::iter::once(line)
                        .chain(memchr::memchr_iter(b':', line).map(|c| &line[c..]));
                    for text in pieces.filter(|t| !may_hold_candidate(t)) {
                        turned_away += 1;
                        for scanner in &widest {
                            assert_eq!(reported(scanner, text), 0, "{path:?}: {text:?}");
                        }
                    }
                }
            }
        }
        assert!(turned_away > 100, "only {turned_away} texts turned away");
    }

    #[test]
    fn may_end_scheme_is_its_four_tests_for_every_pair_of_bytes() {
        // Written out here, apart from the table under test.
        let scheme_byte = |b: u8| b.is_ascii_alphanumeric() || b"+-.".contains(&b);
        let uri_byte = |b: u8| {
            b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b) || !b.is_ascii()
        };
        for before in 0..=255u8 {
            for after in 0..=255u8 {
                let model = scheme_byte(before)
                    && uri_byte(after)
                    && !(before.is_ascii_digit() && after.is_ascii_digit())
                    && (after.is_ascii() || b"oprsmOPRSM".contains(&before));
                assert_eq!(
                    super::may_end_scheme(before, after),
                    model,
                    "{before:#x} : {after:#x}"
                );
            }
        }
    }

    proptest::proptest! {
        /// `candidate_colon` finds, from any start, the first `:` that a
        /// byte-by-byte test of its sides keeps, though its search passes
        /// over colons 64 bytes at a time.
        #[test]
        fn candidate_colons_are_those_a_byte_by_byte_test_keeps(
            hay in proptest::collection::vec(
                proptest::sample::select(b"ao1:: \n\\/\"-\xc3\xa9".to_vec()),
                0..300,
            ),
        ) {
            use super::candidate_colon;
            let keeps = |at: usize| {
                hay[at] == b':'
                    && at > 0
                    && hay.get(at + 1).is_some_and(|&after| {
                        let before = hay[at - 1];
                        let scheme_byte = before.is_ascii_alphanumeric() || b"+-.".contains(&before);
                        scheme_byte
                            && (after == b'\\'
                                || (after > b' '
                                    && !b" \n\"".contains(&after)
                                    && (after.is_ascii() || before == b'o')
                                    && !(before.is_ascii_digit() && after.is_ascii_digit())))
                    })
            };
            for from in 0..=hay.len() {
                let model = (from..hay.len()).find(|&at| keeps(at));
                proptest::prop_assert_eq!(candidate_colon(&hay, from), model, "from {}", from);
            }
        }
    }

    /// At most this many bytes are examined per input byte, on any input:
    /// the linear-time claim of `DESIGN.md`, checked by counting. (It was
    /// 8 until line continuations: lines that each fail a chain over the
    /// next, read 61 bytes at a time, examine 9.4.)
    const MAX_EXAMINED_PER_BYTE: f64 = 10.0;

    /// The scanners whose work is counted: every option that changes what
    /// the core does.
    fn scanners() -> Vec<(&'static str, Scanner)> {
        vec![
            ("default", Scanner::new()),
            ("invalid", Scanner::builder().report_invalid(true).build()),
            ("any-scheme", Scanner::builder().any_scheme(true).build()),
            (
                "hyphen-both",
                Scanner::builder().hyphen(HyphenMode::Both).build(),
            ),
            (
                "short-limit",
                Scanner::builder().max_candidate_len(256).build(),
            ),
            ("iri-keep", Scanner::builder().iri(IriMode::Keep).build()),
            ("no-lines", Scanner::builder().line_numbers(false).build()),
            (
                "iri-off",
                Scanner::builder()
                    .iri(IriMode::Off)
                    .report_invalid(true)
                    .build(),
            ),
        ]
    }

    /// Bytes examined per input byte, scanning `text` as a slice and as a
    /// stream, and the URIs found each way.
    fn work_per_byte(scanner: &Scanner, text: &[u8]) -> (f64, f64, usize) {
        crate::work::take();
        let mut slice = 0;
        scanner
            .scan_slice(text, |_: &Found<'_>| {
                slice += 1;
                Ok(true)
            })
            .unwrap();
        let slice_work = crate::work::take() as f64 / text.len() as f64;
        let mut stream = 0;
        scanner
            .scan_reader_with_read_size(
                text,
                |_: &Found<'_>| {
                    stream += 1;
                    Ok(true)
                },
                4096,
            )
            .unwrap();
        let full_reads = crate::work::take() as f64 / text.len() as f64;
        // Reads that come back short, with line breaks in them: the early
        // steps of a stream that may wait (see `stream.rs`).
        let mut short = 0;
        scanner
            .scan_reader(ShortReads(text), |_: &Found<'_>| {
                short += 1;
                Ok(true)
            })
            .unwrap();
        let short_reads = crate::work::take() as f64 / text.len() as f64;
        assert_eq!((slice, slice), (stream, short));
        (slice_work, full_reads.max(short_reads), slice)
    }

    /// A reader whose reads give at most 61 bytes, whatever room they are
    /// given: short reads, as from a pipe that a writer feeds line by line.
    struct ShortReads<'a>(&'a [u8]);

    impl std::io::Read for ShortReads<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(61);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Every adversarial shape, at two sizes sixteen times apart: the
    /// bytes examined per input byte stay under one constant, and the URIs
    /// found are the ones each shape holds.
    #[test]
    fn work_per_input_byte_is_bounded_on_adversarial_shapes() {
        let small = 256 << 10;
        let mut report = Vec::new();
        let mut failures = Vec::new();
        for (one, sixteen) in gen::shapes(small).into_iter().zip(gen::shapes(16 * small)) {
            for case in [one, sixteen] {
                let mut text = Vec::new();
                case.reader().read_to_end(&mut text).unwrap();
                for (config, scanner) in scanners() {
                    let (slice, stream, found) = work_per_byte(&scanner, &text);
                    report.push(format!(
                        "{:<18} {:>9} {config:<12} slice {slice:5.2} stream {stream:5.2} found {found}",
                        case.name,
                        text.len()
                    ));
                    if slice.max(stream) > MAX_EXAMINED_PER_BYTE {
                        failures.push(report.last().unwrap().clone());
                    }
                    let expected = case.expected().map(|n| n as usize);
                    if config == "default" && expected.is_some_and(|n| n != found) {
                        failures.push(format!(
                            "{}: found {found}, expected {expected:?}",
                            case.name
                        ));
                    }
                }
            }
        }
        eprintln!("{}", report.join("\n"));
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
