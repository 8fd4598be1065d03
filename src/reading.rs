//! What a reader sees of a marked-up text (an HTML part of a mail, an HTML,
//! Markdown or roff document): the text to scan by the Appendix C rules,
//! where each of its bytes was written, which stretches of it are code,
//! and the links the markup names.

use crate::source_map::SourceMap;
use crate::span::Span;

/// Text being built from a source, and where each byte of it came from.
///
/// # Invariants
///
/// `code` holds disjoint, sorted spans of `text`; `map` maps every offset
/// of `text` into the source.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    /// The text to scan.
    pub text: Vec<u8>,
    /// Where each byte of `text` was written.
    pub map: SourceMap,
    /// The stretches of `text` that are code (code spans and blocks).
    pub code: Vec<Span>,
    /// The link destinations the markup names, in no particular order.
    pub refs: Vec<Reference>,
    /// The labels of links whose destination is named elsewhere (a
    /// Markdown reference link's, at its definition), with that
    /// destination: a URI found in one that is it is not reported twice.
    pub labels: Vec<(Span, String)>,
    /// The base URI the document names for itself (HTML `<base href>`).
    pub base: Option<String>,
}

/// A link destination named by markup (`href`, `src`, a Markdown link's
/// destination or reference definition): a URI reference, relative or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reference {
    /// The reference, decoded (character references, backslash escapes).
    pub value: String,
    /// Where it was written in the source.
    pub source: Span,
    /// The stretch of `Reading::text` that is the link's label (the text
    /// of an `<a>`, a Markdown link's text): a URI found there that is
    /// the reference itself is not reported twice.
    pub label: Option<Span>,
}

impl Reading {
    /// Appends `bytes`, copied from offset `src`.
    #[cfg(feature = "docs")]
    pub fn copy(&mut self, bytes: &[u8], src: usize) {
        crate::source_map::append_copy(&mut self.text, &mut self.map, bytes, src);
    }

    /// Appends `bytes` that stand for the `src_len` bytes at `src`.
    #[cfg(feature = "docs")]
    pub fn decoded(&mut self, bytes: &[u8], src: usize, src_len: usize) {
        if !bytes.is_empty() {
            self.map
                .push(self.text.len(), src, bytes.len() as u32, src_len as u32);
            self.text.extend_from_slice(bytes);
        }
    }

    /// Appends a separator that stands for nothing of the source (placed
    /// at `src`): a tag or a line break never glues two words.
    pub fn separator(&mut self, byte: u8, src: usize) {
        self.map.push(self.text.len(), src, 1, 0);
        self.text.push(byte);
    }

    /// Appends `value`, the decoded value of an attribute that is one link
    /// (`href`, `src`, …; placed by its map), as a browser reads it
    /// before it parses it, as a document's reader reads one (`doc`'s
    /// `as_browsers_read`): the blanks around it left out, and ASCII tabs
    /// and line breaks in it too; past the authority (a host with a space
    /// is no host: the scanner ends the URI there), what a browser
    /// percent-encodes ([`browser_encodes`]: a space, `|`, …) and, past the
    /// first `?` or `#`, `[` and `]`, percent-encoded; but for quotes
    /// ([`link_encodes`]). Mail scans such a
    /// value, and the scanner then reads it whole (`href="…/a/b⏎/c.html"`,
    /// `?subject=send more info`, `?family=Roboto|Open+Sans`).
    #[cfg(feature = "mail")]
    pub fn link_value(&mut self, value: &Reading) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let lead = value.text.len() - value.text.trim_ascii_start().len();
        let kept: Vec<usize> = (lead..lead + value.text.trim_ascii().len())
            .filter(|&i| !matches!(value.text[i], b'\t' | b'\n' | b'\r'))
            .collect();
        let link: Vec<u8> = kept.iter().map(|&i| value.text[i]).collect();
        let authority_end = authority_of(&link).end;
        let query = authority_end
            + link[authority_end..]
                .iter()
                .position(|&b| matches!(b, b'?' | b'#'))
                .unwrap_or(link.len() - authority_end);
        for (k, &i) in kept.iter().enumerate() {
            let (src, src_end) = value.map.byte(i);
            let src_len = (src_end - src) as u32;
            let b = link[k];
            let encoded =
                k >= authority_end && link_encodes(b) || k > query && matches!(b, b'[' | b']');
            if encoded {
                self.map.push(self.text.len(), src, 3, src_len);
                self.text.extend_from_slice(&[
                    b'%',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ]);
            } else {
                self.map.push(self.text.len(), src, 1, src_len);
                self.text.push(b);
            }
        }
    }

    /// Appends `decoded`, which a tokenizer read from `source` (written at
    /// offset `src`) by replacing character references (`&amp;`, `&#58;`),
    /// line ends (CR LF and CR read as LF) or single bytes (NUL read as
    /// U+FFFD): each decoded byte is mapped to the source bytes it stands
    /// for. See [`align`].
    pub fn aligned(&mut self, decoded: &[u8], source: &[u8], src: usize) {
        let start = self.text.len();
        self.text.extend_from_slice(decoded);
        self.align_appended(start, source, src);
    }

    /// Appends `decoded`, placed by `map` (from offsets of `decoded`),
    /// which places its first byte (an empty map places it where the
    /// text before it ends).
    pub fn mapped(&mut self, decoded: &[u8], map: &SourceMap) {
        self.map.append(map, self.text.len());
        self.text.extend_from_slice(decoded);
    }

    /// Maps `text[start..]`, appended as a tokenizer decoded it from
    /// `source` (written at offset `src`), as [`Reading::aligned`] does.
    pub fn align_appended(&mut self, start: usize, source: &[u8], src: usize) {
        let Reading { text, map, .. } = self;
        // Most text comes out as it was written: one copy, as `align`
        // finds it (a `&` there may be a reference that decoded to
        // itself, which `align` weighs; tested first, so that text with
        // references is compared once, by `align`).
        if memchr::memchr(b'&', source).is_none() && text[start..] == *source {
            crate::work::examined(source.len());
            if !source.is_empty() {
                map.copied(start, src);
            }
            return;
        }
        align(&text[start..], source, |piece| match piece {
            Piece::Copied { out, from } if !out.is_empty() => {
                map.copied(start + out.start, src + from);
            }
            Piece::Decoded { out, from, len } if !out.is_empty() => {
                map.push(start + out.start, src + from, out.len() as u32, len as u32);
            }
            _ => {}
        });
    }

    /// Appends code: as [`Reading::aligned`], and marks it as code.
    #[cfg(feature = "docs")]
    pub fn aligned_code(&mut self, decoded: &[u8], source: &[u8], src: usize) {
        let start = self.text.len();
        self.aligned(decoded, source, src);
        self.mark_code(start);
    }

    /// Marks the text from `start` to its end as code.
    pub fn mark_code(&mut self, start: usize) {
        let end = self.text.len();
        if start == end {
            return;
        }
        match self.code.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ => self.code.push(Span::new(start, end)),
        }
    }

    /// Returns true if and only if the text at `at` is code.
    #[cfg(feature = "docs")]
    pub fn is_code(&self, at: usize) -> bool {
        let i = self.code.partition_point(|s| s.end <= at);
        self.code.get(i).is_some_and(|s| s.start <= at)
    }

    /// Appends `other`, a reading of another stretch of the same source.
    pub fn append(&mut self, other: Reading) {
        let shift = self.text.len();
        self.mapped(&other.text, &other.map);
        for c in other.code {
            self.code.push(Span::new(c.start + shift, c.end + shift));
        }
        self.refs.extend(other.refs.into_iter().map(|mut r| {
            r.label = r.label.map(|l| Span::new(l.start + shift, l.end + shift));
            r
        }));
        self.labels.extend(
            other
                .labels
                .into_iter()
                .map(|(l, value)| (Span::new(l.start + shift, l.end + shift), value)),
        );
        if self.base.is_none() {
            self.base = other.base;
        }
    }
}

/// One stretch of an alignment of decoded text with its source.
enum Piece {
    /// `decoded[out]` is the source from `from` on, byte for byte.
    Copied {
        out: std::ops::Range<usize>,
        from: usize,
    },
    /// `decoded[out]` stands for the `len` source bytes at `from`.
    Decoded {
        out: std::ops::Range<usize>,
        from: usize,
        len: usize,
    },
}

/// How many bytes after a decoded reference must agree with the source
/// for the reading of that reference to be taken.
const RESYNC: usize = 8;

/// Returns true if and only if a browser percent-encodes the byte `b`
/// wherever it stands in a link, where RFC 3986 allows it nowhere: a
/// space, `"`, `` ` ``, `|`, `^`, and C0 controls and DEL.
pub(crate) const fn browser_encodes(b: u8) -> bool {
    matches!(b, b' ' | b'"' | b'`' | b'|' | b'^' | 0x7F) || b.is_ascii_control()
}

/// Returns true if mail's reading of a link percent-encodes `b`
/// ([`Reading::link_value`]): what [`browser_encodes`] says, but for `"`
/// and `` ` ``, which in a link's value are a script's quotes
/// (`href='javascript:go("http://a.example/x", 700)'`): the URI ends
/// there, as the scanner reads quotes.
#[cfg(feature = "mail")]
pub(crate) const fn link_encodes(b: u8) -> bool {
    browser_encodes(b) && !matches!(b, b'"' | b'`')
}

/// Where the authority of the reference `link` is (past `//`, up to the
/// next `/`, `?` or `#`); empty, at 0, when it has none. A browser's
/// reading of a link encodes nothing there (a host is the parser's to
/// refuse: `exa mple.com`).
pub(crate) fn authority_of(link: &[u8]) -> std::ops::Range<usize> {
    let after_scheme = crate::uri::scheme_end(link).map_or(0, |colon| colon + 1);
    if !link[after_scheme..].starts_with(b"//") {
        return 0..0;
    }
    let start = after_scheme + 2;
    let len = link[start..]
        .iter()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(link.len() - start);
    start..start + len
}

/// Aligns `decoded` with the `source` it was decoded from, calling `piece`
/// for each stretch, in order.
///
/// Bytes that agree are copies, except a `&` that starts a character
/// reference the decoder replaced: such a reference is taken to stand for
/// the one or two characters of `decoded` after which the next
/// [`RESYNC`] bytes (up to the next `&`) agree again (`&amp;` → `&`, `&notit` → `¬it`, a `&`
/// left as it is). A backslash escape (`\_`) stands for the byte it
/// escapes. A CR (or CR LF) read as LF, and any other byte the
/// decoder replaced by one character, stand for that character. The
/// alignment is exact for every decoding of this kind; it never fails: if
/// it loses its way, the rest of `decoded` is placed at the source byte
/// where it did.
fn align(decoded: &[u8], source: &[u8], mut piece: impl FnMut(Piece)) {
    let (mut i, mut j) = (0, 0);
    while j < decoded.len() {
        if i >= source.len() {
            piece(Piece::Decoded {
                out: j..decoded.len(),
                from: source.len(),
                len: 0,
            });
            return;
        }
        if source[i] == b'&' {
            if let Some((src_len, out_len)) = reference_at(source, i, decoded, j, 0) {
                piece(Piece::Decoded {
                    out: j..j + out_len,
                    from: i,
                    len: src_len,
                });
                i += src_len;
                j += out_len;
                continue;
            }
        }
        // The run of bytes that agree, up to the next `&` (one here, which
        // is no reference, agrees as any byte does). The `&` is looked for
        // only in the bytes that agree: looking past them, to the end of
        // the source, made every replaced byte (each CR LF of CRLF text) a
        // search to the end, quadratic.
        let most = (source.len() - i).min(decoded.len() - j);
        let agree = common_prefix(&source[i..i + most], &decoded[j..j + most]);
        crate::work::examined(agree + 1);
        let searched = source.get(i + 1..i + agree).unwrap_or_default();
        crate::work::examined(searched.len());
        let run = memchr::memchr(b'&', searched).map_or(agree, |p| p + 1);
        if run > 0 {
            piece(Piece::Copied {
                out: j..j + run,
                from: i,
            });
            i += run;
            j += run;
            continue;
        }
        // A replaced byte: one the decoder is known to replace, or else
        // any byte, standing for one character.
        let (src_len, out_len) =
            replacement(source, i, decoded, j).unwrap_or((1, char_len(decoded, j)));
        piece(Piece::Decoded {
            out: j..j + out_len,
            from: i,
            len: src_len,
        });
        i += src_len;
        j += out_len;
    }
}

/// How many bytes `a` and `b`, of the same length, start with in common:
/// compared 16 at a time, as text mostly comes out of a tokenizer as it
/// went in.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    debug_assert_eq!(a.len(), b.len());
    let whole = a
        .chunks_exact(16)
        .zip(b.chunks_exact(16))
        .take_while(|(x, y)| <[u8; 16]>::try_from(*x).ok() == <[u8; 16]>::try_from(*y).ok())
        .count()
        * 16;
    whole
        + a[whole..]
            .iter()
            .zip(&b[whole..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// The length of the UTF-8 character at `s[at]` (1 for a byte that does
/// not start one), never past the end of `s`.
fn char_len(s: &[u8], at: usize) -> usize {
    let len = match s[at] {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    };
    len.min(s.len() - at)
}

/// The replacement a decoder is known to make at `source[i]`, if
/// `decoded[j..]` starts with it: how many source bytes it takes and how
/// many decoded bytes it gives. A backslash escape (Markdown's `\_`)
/// stands for the byte it escapes, CR LF or CR is read as LF, NUL as
/// U+FFFD.
fn replacement(source: &[u8], i: usize, decoded: &[u8], j: usize) -> Option<(usize, usize)> {
    let out = &decoded[j..];
    match (source[i], out.first()?) {
        (b'\\', &b) if source.get(i + 1) == Some(&b) => Some((2, 1)),
        (b'\r', b'\n') => Some((1 + usize::from(source.get(i + 1) == Some(&b'\n')), 1)),
        (0, _) if out.starts_with("\u{fffd}".as_bytes()) => Some((1, 3)),
        _ => None,
    }
}

/// Whether the source bytes `src` read as the start of `out`: byte for
/// byte, or through the [`replacement`]s (the text after a reference at a
/// line's end, in CRLF text: `&nbsp;\r\n` is `\u{a0}\n`). A replacement
/// cut off by the end of `src` (a CR whose LF is past it) counts as read.
fn reads_as(src: &[u8], out: &[u8]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < src.len() {
        let (src_len, out_len) = match out.get(j) {
            Some(&b) if b == src[i] => (1, 1),
            Some(_) => match replacement(src, i, out, j) {
                Some(step) => step,
                None => return false,
            },
            None => return false,
        };
        i += src_len;
        j += out_len;
    }
    true
}

/// If the character reference starting at `source[i] == b'&'` was
/// decoded into `decoded[j..]`: how many source bytes it spans and how
/// many decoded bytes it became: the reading that decodes to the fewest
/// characters, then from the longest source (`&notit;` is `¬` for
/// `&not`, then `it;`, as the HTML rules read it).
fn reference_at(
    source: &[u8],
    i: usize,
    decoded: &[u8],
    j: usize,
    depth: u32,
) -> Option<(usize, usize)> {
    let name = source[i + 1..]
        .iter()
        .take(40)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
        .count();
    if name == 0 || j >= decoded.len() {
        return None;
    }
    let semicolon = usize::from(source.get(i + 1 + name) == Some(&b';'));
    let longest = 1 + name + semicolon;
    let one = char_len(decoded, j);
    let two = if j + one < decoded.len() {
        one + char_len(decoded, j + one)
    } else {
        one
    };
    for out_len in [one, two] {
        for src_len in (2..=longest).rev() {
            if source[i..i + src_len] == decoded[j..j + out_len] {
                continue; // that is a copy, not a decoding
            }
            let rest_src = &source[i + src_len..];
            let rest_out = &decoded[j + out_len..];
            // What follows agrees up to the next reference (which is
            // aligned in its turn), or both end.
            let n = rest_src
                .iter()
                .take(RESYNC)
                .take_while(|&&b| b != b'&')
                .count();
            let agree = if rest_src.is_empty() {
                rest_out.is_empty()
            } else if n == 0 {
                // Another `&` follows: a literal one, or a reference that
                // aligns in its turn (looked at a few deep).
                rest_out.first() == Some(&b'&')
                    || depth >= 4
                    || reference_at(source, i + src_len, decoded, j + out_len, depth + 1).is_some()
            } else {
                reads_as(&rest_src[..n], rest_out)
            };
            if agree {
                return Some((src_len, out_len));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `decoded[range]` maps in `source`, through [`Reading::aligned`].
    fn placed(decoded: &str, source: &str, range: std::ops::Range<usize>) -> String {
        let mut r = Reading::default();
        r.aligned(decoded.as_bytes(), source.as_bytes(), 0);
        assert_eq!(r.text, decoded.as_bytes());
        let s = r.map.span(Span::new(range.start, range.end));
        source[s.start..s.end].to_string()
    }

    /// The alignment looks at each byte a bounded number of times, however
    /// many bytes the decoding replaced: CRLF text (every line end a
    /// replaced byte) with few references used to cost a search to the end
    /// of the source per line.
    #[test]
    fn alignment_is_linear_in_replaced_bytes() {
        for lines in [100, 10_000] {
            let line = "see http://a.org/x and more words on the line\r\n";
            let source = format!("{}&amp;{}", line.repeat(lines), line.repeat(lines));
            let decoded = source.replace("\r\n", "\n").replace("&amp;", "&");
            crate::work::take();
            let mut r = Reading::default();
            r.aligned(decoded.as_bytes(), source.as_bytes(), 0);
            let per_byte = crate::work::take() as f64 / source.len() as f64;
            assert!(
                per_byte < 3.0,
                "{lines} lines: {per_byte} bytes examined per byte"
            );
            assert_eq!(placed(&decoded, &source, 4..12), "http://a");
            let amp = decoded.find('&').unwrap();
            assert_eq!(placed(&decoded, &source, amp..amp + 4), "&amp;see");
        }
    }

    #[test]
    fn references_line_ends_and_replaced_bytes_map_to_their_source() {
        assert_eq!(placed("a&b", "a&amp;b", 1..2), "&amp;");
        assert_eq!(placed("a&b", "a&amp;b", 0..3), "a&amp;b");
        assert_eq!(placed("x&y=1", "x&y=1", 1..5), "&y=1");
        assert_eq!(
            placed("?a=1&lt=2&b", "?a=1&lt=2&amp;b", 4..11),
            "&lt=2&amp;b"
        );
        assert_eq!(placed("h:é", "h&#58;&eacute;", 1..4), "&#58;&eacute;");
        assert_eq!(placed("¬it;", "&notit;", 2..5), "it;");
        assert_eq!(placed("a\nb\nc", "a\r\nb\rc", 2..5), "b\rc");
        assert_eq!(placed("a\u{fffd}b", "a\0b", 4..5), "b");
        assert_eq!(placed("&&amp;", "&&amp;amp;", 1..6), "&amp;amp;");
        assert_eq!(placed("&x&y", "&x&y", 2..4), "&y");
        assert_eq!(placed("<<&x", "&lt;&lt;&x", 1..4), "&lt;&x");
        assert_eq!(
            placed("serde_json x", "serde\\_json x", 0..10),
            "serde\\_json"
        );
    }

    /// A reference shortly before a CR LF (`&nbsp;` at a line's end in
    /// CRLF mail) used to be read as a literal `&`, and what followed was
    /// placed a few bytes off, up to the next `&`.
    #[test]
    fn a_reference_before_a_crlf_line_end_is_placed() {
        let source = "a&nbsp;\r\nsee http://x.org/ &amp;b\r\r\nc";
        let decoded = "a\u{a0}\nsee http://x.org/ &b\n\nc";
        assert_eq!(placed(decoded, source, 1..3), "&nbsp;");
        let uri = decoded.find("http").unwrap();
        assert_eq!(placed(decoded, source, uri..uri + 13), "http://x.org/");
        let amp = decoded.find('&').unwrap();
        assert_eq!(placed(decoded, source, amp..amp + 4), "&amp;b\r\r\n");
        assert_eq!(placed("e&\n", "e&amp\r\n", 1..3), "&amp\r\n");
    }

    /// The text after a reference agrees through every replacement the
    /// alignment knows, not only CR LF: a NUL read as U+FFFD, a backslash
    /// escape.
    #[test]
    fn a_reference_before_any_replaced_byte_is_placed() {
        assert_eq!(placed("a\u{a0}\u{fffd}b", "a&nbsp;\0b", 1..3), "&nbsp;");
        assert_eq!(placed("a\u{a0}\u{fffd}b", "a&nbsp;\0b", 6..7), "b");
        assert_eq!(placed("x&_y", "x&amp;\\_y", 1..2), "&amp;");
        assert_eq!(placed("x&_y", "x&amp;\\_y", 2..4), "\\_y");
    }

    /// A link is read as a browser reads it: blanks around it and line
    /// breaks in it left out, a space past the authority as `%20`, each
    /// byte placed where it was written.
    #[test]
    #[cfg(feature = "mail")]
    fn link_values_are_read_as_browsers_read_them() {
        let read = |written: &str| {
            let mut value = Reading::default();
            value.aligned(written.as_bytes(), written.as_bytes(), 100);
            let mut out = Reading::default();
            out.link_value(&value);
            (String::from_utf8(out.text.clone()).unwrap(), out)
        };
        let (text, out) = read(" http://a.example/x/\n  y z?q=a b\t ");
        assert_eq!(text, "http://a.example/x/%20%20y%20z?q=a%20b");
        // `y` is written at 100 + 23, the `%20` before `z` stands for the
        // space at 100 + 24.
        assert_eq!(out.map.span(Span::new(25, 26)), Span::new(123, 124));
        assert_eq!(out.map.span(Span::new(26, 29)), Span::new(124, 125));
        assert_eq!(out.map.span(Span::new(0, text.len())), Span::new(101, 132));
        let (text, _) = read("http://www.scripting.com\n /images/a.gif");
        assert_eq!(
            text, "http://www.scripting.com /images/a.gif",
            "a host with a space"
        );
        let (text, _) = read("mailto:x@example.com?subject=send more");
        assert_eq!(text, "mailto:x@example.com?subject=send%20more");
        let (text, _) = read("https://fonts.example/css?family=Roboto|Open+Sans&a[]=1^2");
        assert_eq!(
            text,
            "https://fonts.example/css?family=Roboto%7COpen+Sans&a%5B%5D=1%5E2"
        );
        let (text, _) = read("http://[::1]/a[b]");
        assert_eq!(
            text, "http://[::1]/a[b]",
            "brackets of a host, and before a query"
        );
        let (text, _) = read(r#"javascript:go("http://a.example/x?t=1", 7)"#);
        assert_eq!(text, r#"javascript:go("http://a.example/x?t=1",%207)"#);
    }

    #[test]
    #[cfg(feature = "docs")]
    fn code_is_marked_and_found() {
        let mut r = Reading::default();
        r.copy(b"text ", 0);
        r.aligned_code(b"code", b"code", 5);
        r.aligned_code(b"more", b"more", 9);
        r.copy(b" text", 13);
        assert_eq!(r.code, [Span::new(5, 13)]);
        assert!(!r.is_code(4) && r.is_code(5) && r.is_code(12) && !r.is_code(13));
    }
}
