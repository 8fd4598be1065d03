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
    /// before it parses it, by the rule a document's reader follows too
    /// ([`LinkReading::MAIL`]): the blanks around it left out, and ASCII
    /// tabs and line breaks in it too; past the authority (a host with a
    /// space is no host: the scanner ends the URI there), what a browser
    /// percent-encodes (a space, U+00A0 NO-BREAK SPACE, `|`, …, but for
    /// quotes, `<` and `>`) and, past the first `?` or `#`, `[` and `]`,
    /// percent-encoded. Each byte appended is placed at the source of the
    /// byte it reads (`%20` at the space; `%C2` and `%A0` each at its
    /// byte, which for `&nbsp;` is the whole reference).
    /// Mail scans such a value, and the scanner then reads it whole
    /// (`href="…/a/b⏎/c.html"`, `?subject=send more info`,
    /// `?family=Roboto|Open+Sans`).
    #[cfg(feature = "mail")]
    pub fn link_value(&mut self, value: &Reading) {
        let lead = value.text.len() - value.text.trim_ascii_start().len();
        let link = &value.text[lead..lead + value.text.trim_ascii().len()];
        let authority = authority_unbroken(link);
        let mut passed = Passed::default();
        for (i, &b) in link.iter().enumerate() {
            let read = LinkReading::MAIL.byte(link, i, &authority, &mut passed);
            if read == LinkByte::Remove {
                continue;
            }
            let (src, src_end) = value.map.byte(lead + i);
            let src_len = (src_end - src) as u32;
            if read == LinkByte::Encode {
                self.map.push(self.text.len(), src, 3, src_len);
                self.text.extend_from_slice(&percent_encoded(b));
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

    /// Appends `bytes`, copied from offset `src`, as code.
    #[cfg(feature = "docs")]
    pub fn copy_code(&mut self, bytes: &[u8], src: usize) {
        let start = self.text.len();
        self.copy(bytes, src);
        self.mark_code(start);
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

/// Returns true if and only if the byte `b` is one a browser takes
/// wherever it stands in a link but RFC 3986 allows nowhere, which is
/// percent-encoded to make the link a URI: a space, `"`, `` ` ``, `|`,
/// `^`, `<`, `>` (rustdoc's anchors: `#impl-From<T>-for-A`), and C0
/// controls and DEL. (Browsers encode all but `|` and some of `^`
/// themselves.)
pub(crate) const fn browser_encodes(b: u8) -> bool {
    matches!(b, b' ' | b'"' | b'`' | b'|' | b'^' | b'<' | b'>' | 0x7F) || b.is_ascii_control()
}

/// How a browser reads a link's value before it parses it (the WHATWG URL
/// Standard), byte by byte ([`LinkReading::byte`]), made a URI-reference
/// where that is all it lacks: ASCII tabs and line breaks are left out;
/// past the authority (a host is the parser's to refuse: `exa mple.com`),
/// what [`browser_encodes`] is percent-encoded (but for the scanner's
/// delimiters, when they are kept), and so are U+00A0 NO-BREAK SPACE (`&nbsp;`, which a
/// browser neither trims nor ends a link at: `%C2%A0`), `[` and `]` (a
/// query's `a[]=1`, a path's `…/pull/496]`: only an IP literal, in the
/// authority, may hold them; before the first `?` or `#`, only when
/// delimiters are not kept) and, when asked, a `#` past the first. The blanks around a value are
/// its reader's to trim first (which leaves U+00A0: a browser trims only
/// C0 controls and spaces).
///
/// Mail's reading of a link attribute ([`Reading::link_value`],
/// [`LinkReading::MAIL`]) and a document's (`doc`'s `as_browsers_read`,
/// [`LinkReading::DOCUMENT`]) are this one rule; they differ only in its
/// two switches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinkReading {
    /// Whether what the scanner reads as the end of a URI is kept as
    /// written rather than encoded: `"`, `` ` ``, `<`, `>`, and `[` and `]`
    /// before the first `?` or `#`. In a link's value that mail scans they
    /// are a script's quotes (`href='javascript:go("http://a.example/x",
    /// 700)'`) or the seams of a value a converter mangled
    /// (`href="https://a.example/i.png]&lt;https://a.example/"`), where
    /// one URI ends, as the scanner reads them.
    keep_delimiters: bool,
    /// Whether a `#` past the first is percent-encoded (matrix.to's
    /// `#/#room:server`): a document's links are parsed whole, while
    /// mail's scanner reads such a `#` as `%23` itself.
    encode_second_hash: bool,
}

/// What a [`LinkReading`] does with one byte of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinkByte {
    /// Kept as written.
    Keep,
    /// Left out (an ASCII tab or line break).
    Remove,
    /// Percent-encoded: `%` and two upper-case hex digits
    /// ([`percent_encoded`]).
    Encode,
}

/// What a [`LinkReading`] has passed in a link, which changes how it reads
/// the bytes after.
///
/// # Invariants
///
/// `fragment` implies `query`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Passed {
    /// The first `?` or `#`: `[` and `]` after it are encoded, by either
    /// reading.
    query: bool,
    /// The first `#`: a `#` after it is encoded, when asked.
    fragment: bool,
}

impl LinkReading {
    /// Mail's reading of a link attribute's value, which the scanner then
    /// scans ([`Reading::link_value`]).
    #[cfg(feature = "mail")]
    pub const MAIL: LinkReading = LinkReading {
        keep_delimiters: true,
        encode_second_hash: false,
    };

    /// A document's reading of a link, which is then parsed whole (`doc`'s
    /// `as_browsers_read`).
    #[cfg(feature = "docs")]
    pub const DOCUMENT: LinkReading = LinkReading {
        keep_delimiters: false,
        encode_second_hash: true,
    };

    /// What is done with `link[i]`, where `authority` is the authority of
    /// `link` (offsets of `link`; empty when it has none) and `passed`
    /// what this reading has passed in `link` so far: every ASCII byte
    /// before `i` (the only ones that change it: `?` and `#`) is read
    /// through this method, in order and with the same `passed`, which it
    /// updates.
    ///
    /// Only ASCII bytes are removed, and the bytes of a character are
    /// kept alike or encoded alike (U+00A0's two): a reading of UTF-8 is
    /// UTF-8. A link none of whose bytes
    /// [`LinkReading::may_read_otherwise`] is read as written.
    pub fn byte(
        self,
        link: &[u8],
        i: usize,
        authority: &std::ops::Range<usize>,
        passed: &mut Passed,
    ) -> LinkByte {
        let b = link[i];
        let read = match b {
            b'\t' | b'\n' | b'\r' => return LinkByte::Remove,
            _ if authority.contains(&i) => LinkByte::Keep,
            b'#' if self.encode_second_hash && passed.fragment => LinkByte::Encode,
            b'[' | b']' if passed.query || !self.keep_delimiters => LinkByte::Encode,
            // A server template's opening (`<?php`, `<%=`) is no link's:
            // left for the parser to refuse, as a template's braces are.
            b'<' if matches!(link.get(i + 1), Some(b'?' | b'%')) => LinkByte::Keep,
            // U+00A0, whichever of its bytes this is.
            NBSP_LEAD if link.get(i + 1) == Some(&NBSP_TRAIL) => LinkByte::Encode,
            NBSP_TRAIL if i > 0 && link[i - 1] == NBSP_LEAD => LinkByte::Encode,
            _ if self.encodes(b) => LinkByte::Encode,
            _ => LinkByte::Keep,
        };
        passed.query |= matches!(b, b'?' | b'#');
        passed.fragment |= b == b'#';
        read
    }

    /// Returns true if and only if [`LinkReading::byte`] may read `b`, or
    /// the character it starts, otherwise than as written (remove or
    /// encode it) somewhere in a link. A link without any such byte is
    /// read as written, and has no blanks around it to trim (each blank
    /// is one). Mail's table of it lets most links pass untouched; a test
    /// checks it against the rule.
    #[cfg(any(feature = "mail", test))]
    pub const fn may_read_otherwise(self, b: u8) -> bool {
        matches!(b, b'\t' | b'\n' | b'\r' | b'[' | b']' | NBSP_LEAD)
            || b == b'#' && self.encode_second_hash
            || self.encodes(b)
    }

    /// [`LinkReading::may_read_otherwise`] for each byte, as a table (mail
    /// asks it of every byte of every link).
    #[cfg(feature = "mail")]
    pub const fn read_otherwise_table(self) -> [bool; 256] {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = self.may_read_otherwise(b as u8);
            b += 1;
        }
        table
    }

    /// Returns true if and only if this reading encodes `b` past the
    /// authority, wherever it stands there.
    const fn encodes(self, b: u8) -> bool {
        browser_encodes(b) && !(self.keep_delimiters && matches!(b, b'"' | b'`' | b'<' | b'>'))
    }
}

/// The first of the two bytes of U+00A0 NO-BREAK SPACE in UTF-8.
const NBSP_LEAD: u8 = 0xC2;

/// The second of the two bytes of U+00A0 NO-BREAK SPACE in UTF-8.
const NBSP_TRAIL: u8 = 0xA0;

/// The byte `b` percent-encoded: `%` and two upper-case hex digits.
pub(crate) const fn percent_encoded(b: u8) -> [u8; 3] {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    [b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]
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

/// Where the authority of `link` is once its ASCII tabs and line breaks
/// are left out, as a browser leaves them out before it parses
/// (`http://a.example⏎/x`): [`authority_of`] the link so read, in offsets
/// of `link` itself, from its first byte to the first kept byte after it
/// (a tab or line break within is left out all the same). A document's
/// reader takes [`authority_of`] the link as written, which differs only
/// where a tab or line break cuts the scheme or its `//`.
#[cfg(feature = "mail")]
fn authority_unbroken(link: &[u8]) -> std::ops::Range<usize> {
    if memchr::memchr3(b'\t', b'\n', b'\r', link).is_none() {
        return authority_of(link);
    }
    let kept: Vec<usize> = (0..link.len())
        .filter(|&i| !matches!(link[i], b'\t' | b'\n' | b'\r'))
        .collect();
    let read: Vec<u8> = kept.iter().map(|&i| link[i]).collect();
    let authority = authority_of(&read);
    let at = |k: usize| kept.get(k).copied().unwrap_or(link.len());
    at(authority.start)..at(authority.end)
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
        // `<`, `>` and a path's `]` end the URI, for the scanner to read.
        let (text, _) = read("https://a.example/i.png]<https://a.example/<b>");
        assert_eq!(text, "https://a.example/i.png]<https://a.example/<b>");
        let (text, _) = read(r#"javascript:go("http://a.example/x?t=1", 7)"#);
        assert_eq!(text, r#"javascript:go("http://a.example/x?t=1",%207)"#);
    }

    /// U+00A0 NO-BREAK SPACE (`&nbsp;`) in a link, or at its end, is read
    /// as a browser reads it, `%C2%A0`, each half placed at the source of
    /// its byte (both at an `&nbsp;`); in the host it is left, and the
    /// scanner ends the URI there. Mail ended each such link at it
    /// (`href="http://a.example/x&nbsp;y"` gave `http://a.example/x`: the
    /// scanner reads U+00A0 as a space).
    #[test]
    #[cfg(feature = "mail")]
    fn a_no_break_space_in_a_link_is_read_as_browsers_read_it() {
        let read = |decoded: &str, written: &str| {
            let mut value = Reading::default();
            value.aligned(decoded.as_bytes(), written.as_bytes(), 100);
            let mut out = Reading::default();
            out.link_value(&value);
            (String::from_utf8(out.text.clone()).unwrap(), out)
        };
        let (text, out) = read("http://a.example/x\u{a0}y", "http://a.example/x&nbsp;y");
        assert_eq!(text, "http://a.example/x%C2%A0y");
        assert_eq!(out.map.span(Span::new(18, 21)), Span::new(118, 124));
        assert_eq!(out.map.span(Span::new(21, 24)), Span::new(118, 124));
        assert_eq!(out.map.span(Span::new(24, 25)), Span::new(124, 125));
        let (text, out) = read("http://a.example/x\u{a0}", "http://a.example/x\u{a0}");
        assert_eq!(
            text, "http://a.example/x%C2%A0",
            "written as UTF-8, at the end"
        );
        assert_eq!(out.map.span(Span::new(18, 21)), Span::new(118, 119));
        assert_eq!(out.map.span(Span::new(21, 24)), Span::new(119, 120));
        let (text, _) = read(
            " http://a.exa\u{a0}mple/p?q=1\u{a0}\u{a0}#\u{a0}\n",
            " http://a.exa&nbsp;mple/p?q=1&nbsp;&nbsp;#&nbsp;\n",
        );
        assert_eq!(text, "http://a.exa\u{a0}mple/p?q=1%C2%A0%C2%A0#%C2%A0");
    }

    /// The readings of links there are: mail's and a document's.
    const LINK_READINGS: &[LinkReading] = &[
        #[cfg(feature = "mail")]
        LinkReading::MAIL,
        #[cfg(feature = "docs")]
        LinkReading::DOCUMENT,
    ];

    /// How `reading` reads each byte of `link`, in order.
    fn read_bytes(reading: LinkReading, link: &[u8]) -> Vec<LinkByte> {
        let authority = authority_of(link);
        let mut passed = Passed::default();
        (0..link.len())
            .map(|i| reading.byte(link, i, &authority, &mut passed))
            .collect()
    }

    /// A byte is read otherwise than as written only where
    /// `may_read_otherwise` says it, or the character it continues, may
    /// be (mail's table of it lets links without any pass untouched),
    /// wherever it stands: in the scheme, the authority, the path, the
    /// query, the fragment, past a second `#`, after U+00A0's first byte.
    #[test]
    fn bytes_are_read_otherwise_only_where_they_may_be() {
        let before: [&[u8]; 8] = [
            b"",
            b"x",
            b"http://a",
            b"http://a/p",
            b"http://a/p?q",
            b"http://a/p#f",
            b"http://a/p?q#f#",
            b"http://a/p\xc2",
        ];
        for &reading in LINK_READINGS {
            for b in 0..=255u8 {
                for prefix in before {
                    let link = [prefix, &[b], b"/y"].concat();
                    let read = read_bytes(reading, &link)[prefix.len()];
                    // The byte after the first of a character that may be.
                    let continues = b & 0xc0 == 0x80
                        && prefix
                            .last()
                            .is_some_and(|&p| p >= 0xc0 && reading.may_read_otherwise(p));
                    assert!(
                        read == LinkByte::Keep || reading.may_read_otherwise(b) || continues,
                        "{reading:?} reads {b:#04x} after {prefix:?} as {read:?}"
                    );
                }
            }
        }
    }

    /// Mail's and a document's readings differ in their two switches
    /// alone: mail keeps quotes (a script's, in a scanned value) and a
    /// second `#` (its scanner reads that one as `%23` itself).
    #[test]
    #[cfg(all(feature = "mail", feature = "docs"))]
    fn mail_and_documents_read_links_alike_but_for_quotes_and_a_second_hash() {
        use LinkByte::{Encode, Keep, Remove};
        let link = b"h://a b/\t\"`#[ #|";
        assert_eq!(
            read_bytes(LinkReading::MAIL, link),
            [
                Keep, Keep, Keep, Keep, Keep, Keep, Keep, Keep, Remove, Keep, Keep, Keep, Encode,
                Encode, Keep, Encode
            ]
        );
        assert_eq!(
            read_bytes(LinkReading::DOCUMENT, link),
            [
                Keep, Keep, Keep, Keep, Keep, Keep, Keep, Keep, Remove, Encode, Encode, Keep,
                Encode, Encode, Encode, Encode
            ]
        );
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
