//! Where a bare URI ends: at a closing bracket it did not open, and less
//! the punctuation of the sentence around it (RFC 3986 Appendix C; the
//! policy of linkify's `find_url_end`, with its bracket rule made a cut).
//!
//! Two steps, both on the run of URI bytes a candidate starts:
//!
//! 1. **cut** ([`measure`], [`CloseTable`]): a `)` or `]` with
//!    no opening partner after the candidate's start ends it, and nothing
//!    after it belongs to it: `(http://one.org/)(http://two.org/)` holds
//!    two URIs, a Markdown badge `[![a](IMG)](LINK)` gives `IMG`, and
//!    `…/Rust_(programming_language)` keeps its balanced pair;
//! 2. **trim** ([`trimmed_len`]): the sentence's punctuation at the end
//!    goes.

use super::chars;
use crate::uri::table::{URI, URI_BUT_CLOSERS};

/// The brackets of the cut rule: for `b`, the slot of its kind (0 for
/// `()`, 1 for `[]`) and whether it opens. `{}` are no URI bytes.
#[inline]
fn bracket(b: u8) -> Option<(usize, Opens)> {
    match b {
        b'(' => Some((0, Opens::Yes)),
        b'[' => Some((1, Opens::Yes)),
        b')' => Some((0, Opens::No)),
        b']' => Some((1, Opens::No)),
        _ => None,
    }
}

/// Whether a bracket opens or closes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opens {
    Yes,
    No,
}

/// The run of URI bytes a bare candidate is read from, measured from
/// its start ([`measure`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// Its length: up to the first byte that is not a URI byte, or the
    /// first `)` or `]` with no opening partner before it in the run.
    pub len: usize,
    /// True if and only if it holds a `)` or `]` (with its partner): a
    /// candidate starting later in it may be cut there ([`CloseTable`]).
    pub has_close: bool,
}

/// Measures the run of URI characters at the start of `bytes`, cut at its
/// first unopened closing bracket. `more` says that the input goes on
/// past `bytes` (see [`chars::run_len`]).
pub fn measure(bytes: &[u8], more: bool) -> Measured {
    // Most runs hold no closing bracket: they are read once, by the
    // simplest loop, and again only up to where one stands.
    let upto = chars::run_len(bytes, &URI_BUT_CLOSERS, more);
    crate::work::examined(upto + 1);
    if !matches!(bytes.get(upto), Some(b')' | b']')) {
        return Measured {
            len: upto,
            has_close: false,
        };
    }
    // Open brackets so far, by slot (see `bracket`).
    let mut open = [0usize; 2];
    let mut has_close = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            match chars::word_char_len(bytes, i, more) {
                Some(len) => {
                    i += len;
                    continue;
                }
                None => break,
            }
        }
        if !URI.contains(b) {
            break;
        }
        match bracket(b) {
            Some((slot, Opens::Yes)) => open[slot] += 1,
            Some((slot, Opens::No)) => {
                if open[slot] == 0 {
                    break;
                }
                open[slot] -= 1;
                has_close = true;
            }
            None => {}
        }
        i += 1;
    }
    crate::work::examined(i + 1);
    Measured { len: i, has_close }
}

/// [`measure`] of every suffix of a run at once, for the
/// candidates that start inside a run after its first (once one has
/// failed): built in one pass from the end, so a run costs its length
/// however many candidates it holds.
///
/// # Invariants
///
/// After [`CloseTable::build`] of `run` (URI bytes, as [`measure`]d),
/// `ends[i]` is `i + measure(&run[i..]).len`.
#[derive(Debug, Default)]
pub struct CloseTable {
    ends: Vec<u32>,
    /// The unmatched closers of the suffix being read, nearest last, one
    /// stack per kind (kept to reuse their memory).
    stacks: [Vec<u32>; 2],
}

impl CloseTable {
    /// Fills the table for `run`, bytes that are all URI bytes (at most
    /// `u32::MAX` of them: a candidate is limited far below that).
    pub fn build(&mut self, run: &[u8]) {
        let len = u32::try_from(run.len()).expect("a run is shorter than 4 GiB");
        self.ends.clear();
        self.ends.resize(run.len(), len);
        for stack in &mut self.stacks {
            stack.clear();
        }
        for i in (0..run.len()).rev() {
            match bracket(run[i]) {
                Some((slot, Opens::No)) => self.stacks[slot].push(i as u32),
                // The nearest unmatched closer is this opener's partner.
                Some((slot, Opens::Yes)) => {
                    self.stacks[slot].pop();
                }
                None => {}
            }
            let nearest = self.stacks.iter().filter_map(|s| s.last().copied()).min();
            self.ends[i] = nearest.unwrap_or(len);
        }
        crate::work::examined(run.len());
    }

    /// Where a candidate starting at offset `at` of the run ends.
    pub fn end(&self, at: usize) -> usize {
        self.ends[at] as usize
    }
}

/// The shortest run of `_` that [`trimmed_len`] reads as a rule line, not
/// the URI's (`__init__`, `?q=__` keep theirs).
const RULE_LINE: usize = 4;

/// Returns the length of `candidate` (cut by the bracket rule already)
/// once the sentence's punctuation is trimmed from its end.
///
/// Trailing `. , ; : ! ? *` go (so does `...`), and so do an opening `(`
/// or `[` with nothing after it; a `'` goes unless the candidate holds
/// another before it, not right before it (`…/blah_'quoted'` keeps its
/// pair, `…/x''` loses both), as `quote_before(i)` says for the bytes
/// `..i`; a `_` goes when the candidate was opened by `_` (`emphasis`),
/// Markdown's `_…_`, and so does a run of [`RULE_LINE`] or more `_`: a
/// rule line glued to the URI (a mailing list's footer separator, when a
/// quoted-printable soft break or a lost line break took what ended the
/// line). Repeats until nothing changes, so `http://x.org/a'.` loses
/// `'.`.
///
/// # Invariants
///
/// The result is at most `candidate.len()`, and only bytes from the end
/// are removed; each is looked at once.
pub fn trimmed_len(
    candidate: &[u8],
    emphasis: Option<u8>,
    mut quote_before: impl FnMut(usize) -> bool,
) -> usize {
    let mut end = candidate.len();
    while end > 0 {
        let last = candidate[end - 1];
        let drop = match last {
            b'.' | b',' | b';' | b':' | b'!' | b'?' | b'*' | b'(' | b'[' => true,
            // Its partner must hold something between them: `''` is not
            // a pair inside the URI.
            b'\'' => !quote_before((end - 1).saturating_sub(1)),
            b'_' if emphasis == Some(b'_') => true,
            b'_' => {
                let run = candidate[..end]
                    .iter()
                    .rev()
                    .take_while(|&&b| b == b'_')
                    .count();
                if run >= RULE_LINE {
                    end -= run;
                    continue;
                }
                false
            }
            _ => false,
        };
        if !drop {
            break;
        }
        end -= 1;
    }
    crate::work::examined(candidate.len() - end + 1);
    end
}

/// Returns the length of `candidate`, a bare candidate that failed on a
/// square bracket, once markup's square brackets after the URI are
/// trimmed from its end, with the sentence's punctuation around them
/// ([`trimmed_len`]).
///
/// A `[` past where an IP literal may open (right after `//` or `@`)
/// makes a URI invalid, and after a URI it is markup's: AsciiDoc's
/// `https://example.org/page[Link text]`, BBCode's `[url]…[/url]`. So a
/// `[…]` group that ends the candidate goes, and so does the rest from a
/// `[` that no `]` closes (the run ended inside the brackets, at the link
/// text's space), within the last [`MARKUP_TAIL`] bytes. A `[…]` followed
/// by more of the URI (`…/a[1].jpg`, a query's `a[]=1&b=2`) is left, not
/// cut into another URI (a path's leaves it invalid; a query's is read as
/// `%5B`, `%5D`, as browsers read it); and so is a group written as a
/// value (`…;ord=[timestamp]`, a template's). *Judgement call:* `…?ids[]`
/// loses its `[]`, which is rarer than the markup.
///
/// The scanner asks it only of the first candidate of a run, and not in
/// `<…>` or quotes, which say where the URI ends: a run costs
/// [`MARKUP_TAIL`] more at most, however many candidates are glued in it,
/// and a valid URI nothing.
pub fn without_markup_brackets(candidate: &[u8]) -> usize {
    let tail = candidate.len().saturating_sub(MARKUP_TAIL);
    let first_quote = memchr::memchr(b'\'', candidate).unwrap_or(candidate.len());
    crate::work::examined(first_quote);
    let mut end = candidate.len();
    loop {
        end = trimmed_len(&candidate[..end], None, |i| first_quote < i);
        if end <= tail {
            return end;
        }
        let open = match candidate[end - 1] {
            b']' => square_group_start(candidate, tail, end),
            _ => unclosed_square_bracket(candidate, tail, end),
        };
        match open {
            Some(open) => end = open,
            None => return end,
        }
    }
}

/// Returns true if and only if a `[` at `at` in `candidate` stands where
/// an IP literal may open: right after `//`, or after a `@` (userinfo).
fn may_open_ip_literal(candidate: &[u8], at: usize) -> bool {
    candidate[..at].ends_with(b"//") || candidate[..at].ends_with(b"@")
}

/// How far back from a candidate's end markup's square brackets are
/// looked for ([`without_markup_brackets`]): a link text, or a BBCode tag, is
/// shorter; each candidate costs at most this much more, however many
/// start in one run.
const MARKUP_TAIL: usize = 256;

/// Where the last `[` of `candidate[tail..end]` is, if no `]` follows it
/// there and no IP literal may open there. Only the bytes after it are
/// looked at.
///
/// `tail < end`.
fn unclosed_square_bracket(candidate: &[u8], tail: usize, end: usize) -> Option<usize> {
    let found = memchr::memrchr2(b'[', b']', &candidate[tail..end]);
    crate::work::examined(found.map_or(end - tail, |p| end - tail - p));
    let at = tail + found?;
    (candidate[at] == b'[' && !may_open_ip_literal(candidate, at)).then_some(at)
}

/// Where the `[` that opens the `[…]` group that ends `candidate[..end]`
/// (its last byte a `]`) is, if it is in `candidate[tail..end]` and no IP
/// literal may open there. Only the group's bytes are looked at.
///
/// `tail < end`.
fn square_group_start(candidate: &[u8], tail: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in (tail..end).rev() {
        match candidate[i] {
            b']' => depth += 1,
            b'[' => {
                depth -= 1;
                if depth == 0 {
                    crate::work::examined(end - i);
                    let is_value = candidate[..i].ends_with(b"=");
                    return (!is_value && !may_open_ip_literal(candidate, i)).then_some(i);
                }
            }
            _ => {}
        }
    }
    crate::work::examined(end - tail);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The URI a bare candidate gives: cut, then trimmed.
    fn bare(s: &str, emphasis: Option<u8>) -> &str {
        let cut = &s.as_bytes()[..measure(s.as_bytes(), false).len];
        let quote_before = |i: usize| cut[..i].contains(&b'\'');
        &s[..trimmed_len(cut, emphasis, quote_before)]
    }

    /// The URI a bare candidate that failed on a square bracket gives once
    /// markup's brackets are trimmed.
    fn without_markup(s: &str) -> &str {
        let cut = &s.as_bytes()[..measure(s.as_bytes(), false).len];
        &s[..without_markup_brackets(cut)]
    }

    #[test]
    fn trims_sentence_punctuation() {
        let cases = [
            ("http://x.org/a.", "http://x.org/a"),
            ("http://x.org/a...", "http://x.org/a"),
            ("http://x.org/a,", "http://x.org/a"),
            ("http://x.org/a?!", "http://x.org/a"),
            ("http://x.org/'", "http://x.org/"),
            ("http://x.org/a).", "http://x.org/a"),
            ("http://x.org/a)", "http://x.org/a"),
            ("http://x.org/a]", "http://x.org/a"),
            ("http://x.org/a*", "http://x.org/a"),
            ("http://x.org/a(", "http://x.org/a"),
            ("http://x.org/a[.", "http://x.org/a"),
            (
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ),
            (
                "https://en.wikipedia.org/wiki/Rust_(programming_language)).",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ),
            ("http://[::1]/", "http://[::1]/"),
            ("http://x.org/?q=1", "http://x.org/?q=1"),
            ("http://x.org/#", "http://x.org/#"),
            ("http://x.org/(a)(b)).)", "http://x.org/(a)(b)"),
            ("http://one.org/)(http://two.org/", "http://one.org/"),
            ("http://x.org/]()", "http://x.org/"),
            ("http://x.org/b_'quoted'", "http://x.org/b_'quoted'"),
            ("http://x.org/b_'quoted'.", "http://x.org/b_'quoted'"),
            ("http://x.org/b'.", "http://x.org/b"),
            ("https://example.org''", "https://example.org"),
            ("http://example.org/a'b'", "http://example.org/a'b'"),
            ("http://x.org/a_", "http://x.org/a_"),
            (
                "http://x.org/#object.__hash__",
                "http://x.org/#object.__hash__",
            ),
            ("http://x.org/?q=___", "http://x.org/?q=___"),
            ("http://x.org/a____", "http://x.org/a"),
            ("http://x.org/Setting_Up______.", "http://x.org/Setting_Up"),
        ];
        for (input, want) in cases {
            assert_eq!(bare(input, None), want, "{input}");
        }
        assert_eq!(bare("http://x.org/a_", Some(b'_')), "http://x.org/a");
        assert_eq!(bare("http://x.org/a__", Some(b'_')), "http://x.org/a");
        // Markup's brackets are not the sentence's: trimmed only on request.
        assert_eq!(bare("http://x.org/a[b]", None), "http://x.org/a[b]");
    }

    #[test]
    fn markup_brackets_after_a_uri_are_trimmed() {
        let cases = [
            ("https://example.org/a[Example]", "https://example.org/a"),
            ("https://example.org/c[]", "https://example.org/c"),
            ("https://example.org/k[/url]", "https://example.org/k"),
            ("https://example.org/p[Link", "https://example.org/p"),
            ("https://example.org/p.[a[b]][c].", "https://example.org/p"),
            ("https://x.org/#hatch[dropck]", "https://x.org/#hatch"),
            ("http://x.org/a[1].jpg", "http://x.org/a[1].jpg"),
            ("http://x.org/?a[]=1&b=2", "http://x.org/?a[]=1&b=2"),
            (
                "http://x.org/a;ord=[timestamp]?",
                "http://x.org/a;ord=[timestamp]",
            ),
            ("http://[::1]", "http://[::1]"),
            ("http://[::1]/[x]", "http://[::1]/"),
            ("http://u@[::1]", "http://u@[::1]"),
            ("http://[::1", "http://[::1"),
        ];
        for (input, want) in cases {
            assert_eq!(without_markup(input), want, "{input}");
        }
        // Punctuation past the window markup's brackets are looked for in
        // (a review's panic).
        for tail in [".".repeat(300), "_".repeat(300), ",".repeat(257)] {
            assert_eq!(
                without_markup(&format!("http://x.org/a{tail}")),
                "http://x.org/a"
            );
        }
    }

    /// Found by the timing of `http://a/` followed by 60,000 `)`:
    /// each byte trimmed recounted the candidate's brackets. The cut now
    /// stops at the first `)`.
    #[test]
    fn a_closing_run_costs_nothing_past_its_first_bracket() {
        let text = format!("http://a/{}", ")".repeat(60_000));
        crate::work::take();
        assert_eq!(measure(text.as_bytes(), false).len, 9);
        // Read up to the first `)`, then again with the brackets counted.
        assert!(crate::work::take() <= 2 * 10);
    }

    /// The table gives, for every start, what the forward rule gives.
    #[test]
    fn a_run_ends_at_a_non_uri_byte_or_an_unopened_close() {
        let m = |s: &str| measure(s.as_bytes(), false);
        assert_eq!(
            m("http://a/b c"),
            Measured {
                len: 10,
                has_close: false
            }
        );
        assert_eq!(
            m("http://a/(b) c"),
            Measured {
                len: 12,
                has_close: true
            }
        );
        assert_eq!(
            m("http://a/b)(c)"),
            Measured {
                len: 10,
                has_close: false
            }
        );
        assert_eq!(
            m("a[]"),
            Measured {
                len: 3,
                has_close: true
            }
        );
    }

    #[test]
    fn the_table_agrees_with_the_rule_at_every_start() {
        let runs = [
            &b"http://a/(b)c)d]e"[..],
            b"((]])[(])x)",
            b"a)(b)(c)](",
            b"",
            b"plain",
            b"[[[[]]]]]]",
        ];
        let mut table = CloseTable::default();
        for run in runs {
            table.build(run);
            for i in 0..run.len() {
                assert_eq!(
                    table.end(i),
                    i + measure(&run[i..], false).len,
                    "{:?} at {i}",
                    String::from_utf8_lossy(run)
                );
            }
        }
    }
}
