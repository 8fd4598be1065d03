//! Where an input may be cut so that each side is scanned on its own with
//! exactly the answer of one scan over the whole: a *safe cut*.
//!
//! # Why a cut at a safe line break changes nothing
//!
//! What the core decides for a `:` depends on the bytes around it and on
//! where the scan stands (`pos`, and what the current run of URI bytes
//! taught). A cut at offset `at` is safe when no candidate read from
//! before `at` can reach `at` or beyond, whatever it turns out to be:
//!
//! - a bare or quoted candidate is a run of URI bytes, and the line break
//!   before `at` is not one: it ends before `at`, and so does every skip
//!   over a run (`in_long_run`) and every lemma about a run; but for a
//!   candidate whose line ends in `-` (the hyphen rule) or in a line
//!   continuation's `\`, which reads on into the next line: no cut follows
//!   a line that ends in either;
//! - otherwise only a read inside `<...>` crosses line breaks. It passes whole lines
//!   of URI bytes, each but the first with a quote prefix and indentation
//!   first, and a page break's footer and header lines (any text) after a
//!   blank line or a form feed. So if the line before `at` has a byte no
//!   URI holds after which no `<` can start a read, no read from before
//!   that line reaches `at`, and none from inside it either; and if that
//!   line, the one before it and `at`'s own neighbourhood hold no form
//!   feed or blank line, no page break lets a read jump over it.
//!
//! A cut may also stand inside a line, right after a blank that is not
//! followed by a blank, a line end or `>`: no run of URI bytes holds a
//! blank, and a read inside `<...>` crosses a blank within a line only to
//! reach the `>` right after it. The exceptions are the blanks a read
//! skips on its way: those of a quote prefix or indentation at a line's
//! start, those after a comment's marker there (a line continuation's),
//! and any on a page break's footer or header line.
//!
//! Then the scan of the whole, arriving at `at`, stands exactly where a
//! scan that starts at `at` (with the [`LOOKBACK`] bytes before it to look
//! back into) stands, and both go on alike. `cut_tests` checks the claim
//! against the scan of the whole on generated text.
//!
//! [`LOOKBACK`]: super::core::LOOKBACK

use super::chars;
use crate::uri::table::{Table, URI};

/// The URI bytes and `\n`: a run of them holds no byte that could end a
/// line every read stops at ([`may_end_every_read`]).
const URI_OR_LINE_BREAK: Table = URI.with(b'\n');

/// Returns true if and only if `at` is a safe cut of `hay`: a scan may stop
/// before `at` and another start at `at` with the same results as one scan
/// over `hay`. Looks only at the two lines before `at`.
pub(crate) fn is_safe_cut(hay: &[u8], at: usize) -> bool {
    if at == 0 || at > hay.len() {
        return false;
    }
    if matches!(hay[at - 1], b' ' | b'\t') {
        return is_safe_within_line(hay, at);
    }
    if hay[at - 1] != b'\n' {
        return false;
    }
    let line_start = |end: usize| memchr::memrchr(b'\n', &hay[..end]).map_or(0, |p| p + 1);
    let last_start = line_start(at - 1);
    let last = &hay[last_start..at - 1];
    if last.contains(&b'\x0c') {
        return false;
    }
    // The line before must not end a page break's blank lines (the last
    // line would be its footer) nor hold its form feed (the last line
    // would be its header).
    if last_start > 0 {
        let before = &hay[line_start(last_start - 1)..last_start - 1];
        if before.contains(&b'\x0c') || before.iter().all(u8::is_ascii_whitespace) {
            return false;
        }
    }
    ends_every_read(last)
}

/// A cut right after a blank inside a line: no run of URI bytes holds the
/// blank, and a read inside `<...>` that meets a blank with no line break
/// in it goes on only to a `>` right after it. So the cut is safe when the
/// byte at `at` is not a blank, a line end or `>`, and the line is not one
/// a read crosses whole or enters after its start: a page break's footer
/// or header line (after a blank line, or after a form feed), or a blank
/// of the quote prefix and indentation a read skips at a line's start.
fn is_safe_within_line(hay: &[u8], at: usize) -> bool {
    let next_is_text = hay
        .get(at)
        .is_some_and(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c' | b'>'));
    if !next_is_text {
        return false;
    }
    let line_start = memchr::memrchr(b'\n', &hay[..at]).map_or(0, |p| p + 1);
    let before = &hay[line_start..at];
    if before.contains(&b'\x0c') || is_skipped_prefix(before) {
        return false;
    }
    if line_start == 0 {
        return true;
    }
    let last_start = memchr::memrchr(b'\n', &hay[..line_start - 1]).map_or(0, |p| p + 1);
    let last = &hay[last_start..line_start - 1];
    !last.contains(&b'\x0c') && !last.iter().all(u8::is_ascii_whitespace)
}

/// Returns true if and only if `before`, a line's text up to a blank, is
/// what a read over lines skips at a line's start: a mail quote prefix and
/// indentation, and a comment's marker (`#`, `//`, `///`, ...) and the blanks after it
/// (a line continuation's comment: see `unwrap::backslash_continuation`).
fn is_skipped_prefix(before: &[u8]) -> bool {
    let is_blank = |b: &u8| matches!(b, b'>' | b' ' | b'\t');
    let from = before
        .iter()
        .position(|b| !is_blank(b))
        .unwrap_or(before.len());
    let rest = &before[from..];
    let rest = &rest[super::unwrap::comment_marker_len(rest)..];
    rest.iter().all(is_blank)
}

/// The line cuts of `buf` right after a line break at or past `from` that
/// may be safe, in order: the ends of the lines that hold a byte other
/// than URI bytes ([`may_end_every_read`]) before their CR LF or LF. Every
/// other line cut is unsafe, so a search for cuts judges these only, and
/// passes over a file of comma-separated values, base64 or hex at the
/// speed of a byte lookup.
pub(crate) fn line_cuts(buf: &[u8], from: usize) -> impl Iterator<Item = usize> + '_ {
    let mut line = memchr::memrchr(b'\n', &buf[..from]).map_or(0, |p| p + 1);
    std::iter::from_fn(move || loop {
        let other = may_end_every_read(buf, line)?;
        // The `\r` of a CR LF ends the line: [`ends_every_read`] drops it
        // (a line of URI bytes alone, then CR LF, is refused too).
        if buf[other] == b'\r' && buf.get(other + 1) == Some(&b'\n') {
            line = other + 2;
            continue;
        }
        let at = other + memchr::memchr(b'\n', &buf[other..])? + 1;
        line = at;
        if at > from {
            return Some(at);
        }
    })
}

/// The offset of the first byte of `hay`, at or after `from`, that is
/// neither a URI byte (of ASCII) nor `\n`: a blank, a quote prefix's `>`,
/// `"`, `<`, a control, any byte of a non-ASCII character. A line break
/// is a safe cut only after a line that holds such a byte:
/// [`ends_every_read`] refuses a line of URI bytes alone, and
/// [`is_safe_cut`] asks it of every line cut.
fn may_end_every_read(hay: &[u8], from: usize) -> Option<usize> {
    let at = from + URI_OR_LINE_BREAK.run_len(&hay[from..]);
    (at < hay.len()).then_some(at)
}

/// Returns true if and only if no read inside `<...>` can go on past the
/// end of `line` (without its `\n`): see the module docs.
fn ends_every_read(line: &[u8]) -> bool {
    let is_blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    // The quote prefix and indentation, and the trailing blanks.
    let from = line
        .iter()
        .position(|b| !matches!(b, b'>' | b' ' | b'\t'))
        .unwrap_or(line.len());
    let to = line
        .iter()
        .rposition(|b| !is_blank(b))
        .map_or(from, |p| p + 1);
    if from >= to {
        return false;
    }
    let content = &line[from..to];
    // A typesetter's hyphen at the end of a line is joined to the next,
    // and so is a `-` that ends a line of a double-quoted or bare URI, and
    // a line continuation's `\` that ends one in brackets, quotes or bare.
    if content.ends_with("\u{2010}".as_bytes())
        || content.ends_with("\u{ad}".as_bytes())
        || content.ends_with(b"-")
        || content.ends_with(b"\\")
    {
        return false;
    }
    let token_start = content.iter().rposition(is_blank).map_or(0, |p| p + 1);
    let token = &content[token_start..];
    match chars::last_other(token, &URI) {
        // A read that reaches the line's end started after that byte,
        // right after a `<` (or `<` then `URL:`): only if it is one.
        Some(last_other) => token[last_other] != b'<',
        // All URI bytes: a read through them started at the token's start,
        // its `<` (or `<URL:`) ending the token before.
        None => {
            let before = content[..token_start].trim_ascii_end();
            let lower = before.to_ascii_lowercase();
            !before.is_empty() && !before.ends_with(b"<") && !lower.ends_with(b"url:")
        }
    }
}

#[cfg(test)]
mod cut_tests {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    use super::{is_safe_cut, line_cuts, may_end_every_read};
    use crate::scan::core::{Core, Window, LOOKBACK};
    use crate::{Found, HyphenMode, Scanner};

    /// What one scan reports, owned, for comparisons.
    type Record = (String, usize, usize, u64, u64);

    fn record(f: &Found<'_>) -> Record {
        (
            f.as_str().to_string(),
            f.span().start,
            f.span().end,
            f.line(),
            f.column(),
        )
    }

    /// Scans `hay[from..to]` as a scan that starts at `from` (line `line`)
    /// and ends at `to`, with the lookback bytes before `from` in view.
    fn scan_part(scanner: &Scanner, hay: &[u8], from: usize, to: usize, line: u64) -> Vec<Record> {
        let lead = from.saturating_sub(LOOKBACK);
        let win = Window {
            hay: &hay[lead..to],
            offset: lead,
            eof: true,
        };
        let line_start = memchr::memrchr(b'\n', &hay[..from]).map_or(0, |p| p + 1);
        let mut core = Core::starting_at(scanner, from, line, line_start);
        let mut out = Vec::new();
        let mut sink = |f: &Found<'_>| {
            out.push(record(f));
            Ok(true)
        };
        scanner.scan_window(&win, &mut core, &mut sink).unwrap();
        out
    }

    /// Cuts `hay` at every safe cut and checks that the parts, scanned on
    /// their own, give the scan of the whole. A scanner that decodes JSON
    /// escapes is cut at line breaks only: a cut inside a line is made
    /// only by mail, in the pieces of an oversized message, which are
    /// read as they are cut (see `json.rs`).
    fn check(scanner: &Scanner, hay: &[u8]) {
        let whole = scan_part(scanner, hay, 0, hay.len(), 1);
        let within_lines = !scanner.config.json_escapes;
        let cuts: Vec<usize> = (1..=hay.len())
            .filter(|&at| is_safe_cut(hay, at) && (within_lines || hay[at - 1] == b'\n'))
            .collect();
        let mut parts = Vec::new();
        let mut from = 0;
        for &at in cuts.iter().chain([hay.len()].iter()) {
            let line = 1 + memchr::memchr_iter(b'\n', &hay[..from]).count() as u64;
            parts.extend(scan_part(scanner, hay, from, at, line));
            from = at;
        }
        assert_eq!(
            parts,
            whole,
            "cuts {cuts:?} of {:?}",
            String::from_utf8_lossy(hay)
        );
    }

    /// Lines of text with URIs, brackets, quotes, prefixes, page breaks.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(
            vec![
                &b"http://example.org/a"[..],
                b"mailto:a@b.c",
                b"urn:isbn:1",
                b"URL:",
                b"url: ",
                b"<",
                b">",
                b"> ",
                b">> ",
                b"\"",
                b"(",
                b")",
                b"[",
                b"]",
                b" ",
                b"\n",
                b"\r\n",
                b"\r",
                b"1,2;x=3",
                b"\n\n",
                b"\n\n\nFooter [Page 1]\n\x0cRFC Header\n",
                b"-\n",
                b".",
                b",",
                b"word",
                b"\xe2\x80\x90\n",
                b"\xc2\xad\n",
                b"\x0c",
                b"%zz",
                b"#",
                b"Re:",
                b"\"end\"",
                b"\\\\",
                b"\\n",
                b"\\\n",
                b"\\\n  a/b",
                b"\\\n# a/b",
                b"# ",
            ]
            .into_iter()
            .chain(crate::standalone::JSON_TOKENS)
            .collect::<Vec<_>>(),
        );
        prop::collection::vec(token, 0..60).prop_map(|ts| ts.concat())
    }

    proptest! {
        #![proptest_config(Config {
            cases: 20_000,
            rng_seed: RngSeed::Fixed(0x6375_7473),
            failure_persistence: None,
            ..Config::default()
        })]

        #[test]
        fn scanning_the_parts_of_safe_cuts_gives_the_whole(hay in text(), variant in 0..3u8) {
            let scanner = match variant {
                0 => Scanner::new(),
                1 => Scanner::builder().hyphen(HyphenMode::Both).report_invalid(true).build(),
                _ => Scanner::builder().json_escapes(false).build(),
            };
            check(&scanner, &hay);
        }

        /// `line_cuts` passes over no line end that is a safe cut, from
        /// any offset.
        #[test]
        fn line_cuts_keep_every_safe_line_cut(hay in text()) {
            for from in 0..hay.len() {
                let safe = |at: &usize| is_safe_cut(&hay, *at);
                let every: Vec<usize> = memchr::memchr_iter(b'\n', &hay[from..])
                    .map(|p| from + p + 1)
                    .filter(safe)
                    .collect();
                let kept: Vec<usize> = line_cuts(&hay, from).filter(safe).collect();
                prop_assert_eq!(kept, every, "{:?} from {}", String::from_utf8_lossy(&hay), from);
            }
        }

        /// What lets a search for cuts pass over lines unjudged.
        #[test]
        fn no_line_of_uri_bytes_alone_is_cut_after(hay in text()) {
            for at in 1..=hay.len() {
                if hay[at - 1] != b'\n' {
                    continue;
                }
                let line = memchr::memrchr(b'\n', &hay[..at - 1]).map_or(0, |p| p + 1);
                // Without its line break: LF, or CR LF.
                let end = if at - 1 > line && hay[at - 2] == b'\r' { at - 2 } else { at - 1 };
                if may_end_every_read(&hay[..end], line).is_none() {
                    prop_assert!(!is_safe_cut(&hay, at), "{:?} at {at}", String::from_utf8_lossy(&hay));
                }
            }
        }
    }

    #[test]
    fn which_blanks_are_safe() {
        // `|` marks the cut.
        let safe =
            |text: &str| is_safe_cut(text.replace('|', "").as_bytes(), text.find('|').unwrap());
        assert!(safe("x\nsome |words\n"));
        assert!(!safe("x\nsome  |\n")); // a blank follows
        assert!(!safe("x\n<http://a/ |>\n")); // the `>` a read reaches
        assert!(!safe("<http://a/\n> |b>\n")); // a quote prefix a read skips
        assert!(!safe("<http://a/\n   |b>\n")); // and indentation
        assert!(!safe("<http://a/\n\nFooter |[Page 1]\n\x0cRFC\n  b>")); // a footer
        assert!(!safe("<http://a/\n\nFooter\n\x0cRFC |Header\n  b>")); // a header
    }

    #[test]
    fn which_line_ends_are_safe() {
        let safe = |text: &str| is_safe_cut(text.as_bytes(), text.len());
        assert!(safe("some words here\n"));
        assert!(safe("x\nsee \"quoted\"\n"));
        assert!(safe("x\nGET /a HTTP/1.1\" 200\n"));
        assert!(!safe("x\n<http://a/b/\n"));
        assert!(!safe("x\n< http://a/b/\n"));
        assert!(!safe("x\nsee <URL: http://a/b/\n"));
        assert!(!safe("x\nhttp://a/b/\n")); // a `<` may stand on a line before
        assert!(!safe("\n\nFooter [Page 1]\n")); // a page break's footer
        assert!(!safe("x\n\x0c\nRFC 9999 Header\n")); // and its header
        assert!(!safe("x\n> > \n"));
        assert!(!safe("x\nhttp://a/b\u{2010}\n"));
        assert!(!safe("x\nsee http://a/b\\\n")); // a line continuation
        assert!(!safe("x\n\"http://a/b\\ \r\n"));
        let within = |text: &str, at: usize| is_safe_cut(text.as_bytes(), at);
        assert!(within("see http://a/ now", 4));
        assert!(!within("see http://a/ now", 5)); // inside a word
        assert!(!within("<http://a/ >", 11)); // the blank pads the `>`
        assert!(!within("a  b", 2)); // another blank follows
    }
}
