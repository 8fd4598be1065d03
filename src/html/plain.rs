//! A tokenizer for the HTML that mail and documents are mostly written
//! in, faster than the general one: it tells the [`Reader`] what html5gum
//! would (its emitter methods, at the same offsets), and gives up where it
//! cannot. Three things it tells differently, for speed: its text and
//! attribute values with where each piece was written
//! ([`Reader::told_text`], [`Reader::told_value`]), so that the reader
//! maps them as it goes instead of aligning them afterwards (exact where
//! the alignment weighs); no attribute name without a value to
//! read; and in mail no value without a link
//! ([`Reader::skips_values_without_links`]). What the reader makes of it
//! is the same.
//!
//! It follows the WHATWG tokenization rules, as html5gum does, for text;
//! start and end tags, their attributes and values (quoted, unquoted,
//! none; the parse errors that change nothing, such as a missing blank
//! between attributes, are read through); comments; doctypes; bogus
//! comments (`<?…>`, `<!…>`, `</1…>`); the raw text of `<style>`,
//! `<iframe>`, `<xmp>`, `<noembed>`, `<noframe>` and `<noscript>`, and the
//! script data of `<script>` (with the `<!--` and `<script>` that hide its
//! end tag or not, [`script_data_end`]); the text of `<title>` and
//! `<textarea>` (RCDATA); CR LF and CR read as LF; and character
//! references: numeric ones (with the Windows-1252 reading of U+0080 to
//! U+009F), and named ones where it can decide them exactly: with a `;`,
//! the names it knows ([`named`]); without one, the legacy names (the
//! only ones the standard reads without `;`, [`legacy`]).
//!
//! It gives up ([`Unusual`]), having told the reader part of the HTML,
//! at anything else: a NUL, a named reference with a `;` it does not know
//! (`&hearts;`, or `&ampx;`, which the standard reads as `&` and `x;`),
//! `<plaintext>`, a comment closed abruptly
//! (`<!-->`, `<!--->`, `--!>`), a tag, comment or doctype the input ends
//! in. The caller then reads the HTML
//! again with html5gum. In test builds every HTML read both ways is
//! compared (`super::tests::assert_same_as_html5gum`).

use html5gum::{Emitter, State};
use memchr::{memchr, memchr2, memchr3, memmem};

use super::Reader;

/// What this reader does not read as html5gum would, met in the HTML.
#[derive(Debug)]
pub(super) struct Unusual;

/// Reads all of `html` into `r` as html5gum would (but for what the module
/// docs say it tells differently), ending with its end of input; or gives
/// up at the first construct it does not know, leaving `r` in part told.
pub(super) fn read(html: &[u8], r: &mut Reader<'_>) -> Result<(), Unusual> {
    if memchr(b'\0', html).is_some() {
        return Err(Unusual);
    }
    r.tells_places = true;
    let mut em = r;
    let mut at = 0;
    let mut state = None;
    loop {
        at = match state {
            None => data(html, at, &mut em)?,
            Some(State::RawText) => raw(html, at, &mut em, false)?,
            Some(State::RcData) => raw(html, at, &mut em, true)?,
            // Script data is no text of the page: only where it ends matters.
            Some(State::ScriptData) => script_data_end(html, at, &em.tag),
            Some(_) => return Err(Unusual),
        };
        if at == html.len() {
            em.emit_eof();
            return Ok(());
        }
        let (end, next) = markup(html, at, &mut em)?;
        at = end;
        state = next;
    }
}

/// Reads text from `at`, in the data state, up to the `<` that starts
/// markup or the end; returns where it stopped.
fn data(html: &[u8], at: usize, em: &mut &mut Reader<'_>) -> Result<usize, Unusual> {
    em.token.position = at;
    em.init_string();
    text_run(html, at, em, true, |p| {
        html.get(p + 1)
            .is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'))
    })
}

/// Reads the raw text (RAWTEXT, or RCDATA when `references`) after the
/// start tag the reader last told, up to its end tag or the end; returns
/// where it stopped.
fn raw(
    html: &[u8],
    at: usize,
    em: &mut &mut Reader<'_>,
    references: bool,
) -> Result<usize, Unusual> {
    // The reader's `emit_current_tag` began the string at the tag's end.
    let name = em.tag.clone();
    text_run(html, at, em, references, |p| ends_raw_text(html, p, &name))
}

/// Reads text from `at` up to the first `<` at which `starts_markup`
/// holds, or the end, with its character references when `references`;
/// returns where it stopped. Any other `<` is text.
fn text_run(
    html: &[u8],
    mut at: usize,
    em: &mut &mut Reader<'_>,
    references: bool,
    starts_markup: impl Fn(usize) -> bool,
) -> Result<usize, Unusual> {
    let mut buf = [0; 4];
    loop {
        // What ends a piece told as written: a `<`, a CR (read as LF), and
        // a `&` where references are read.
        let found = if references {
            memchr3(b'<', b'&', b'\r', &html[at..])
        } else {
            memchr2(b'<', b'\r', &html[at..])
        };
        let Some(i) = found else {
            em.told_text(&html[at..], at, html.len(), true);
            return Ok(html.len());
        };
        let p = at + i;
        em.told_text(&html[at..p], at, p, true);
        match html[p] {
            b'\r' => {
                at = line_end(html, p, html.len());
                em.told_text(b"\n", p, at, false);
            }
            b'&' => {
                let (decoded, end) = reference(html, p, false, &mut buf)?;
                // A `&` that starts no reference stands for itself.
                em.told_text(decoded, p, end, decoded == &html[p..end]);
                at = end;
            }
            _ if starts_markup(p) => return Ok(p),
            _ => {
                em.told_text(b"<", p, p + 1, true);
                at = p + 1;
            }
        }
    }
}

/// Where the script data from `at` ends: at the `<` of the end tag of
/// `name` (`script`) that closes it, or at the end of the input; as the
/// WHATWG script data states read it, which html5gum follows. A `<!--`
/// starts text like a comment's (escaped), which `-->` ends, and where a
/// `<script` starts text that even the end tag does not end (double
/// escaped) until `</script`. The text read on the way is told nothing:
/// nobody reads it.
fn script_data_end(html: &[u8], at: usize, name: &[u8]) -> usize {
    #[derive(PartialEq)]
    enum Escape {
        None,
        Single,
        Double,
    }
    let mut escape = Escape::None;
    // How many `-` come right before `i` (2 for two or more).
    let mut dashes = 0;
    let mut i = at;
    loop {
        if escape == Escape::None {
            let Some(p) = memchr(b'<', &html[i..]) else {
                return html.len();
            };
            let lt = i + p;
            if ends_raw_text(html, lt, name) {
                return lt;
            }
            // After `<!--` the state is the one after `--` (`<!-->` ends
            // at once).
            (i, escape, dashes) = if html[lt + 1..].starts_with(b"!--") {
                (lt + 4, Escape::Single, 2)
            } else {
                (lt + 1, Escape::None, 0)
            };
            continue;
        }
        let Some(p) = memchr3(b'-', b'<', b'>', &html[i..]) else {
            return html.len();
        };
        let j = i + p;
        if j > i {
            dashes = 0;
        }
        match html[j] {
            b'-' => {
                dashes = (dashes + 1).min(2);
                i = j + 1;
            }
            b'>' => {
                if dashes == 2 {
                    escape = Escape::None;
                }
                dashes = 0;
                i = j + 1;
            }
            _ => {
                dashes = 0;
                // A `<` (its state reads the byte after it again unless
                // it takes it).
                i = j + 1;
                let slash = html.get(i) == Some(&b'/');
                if escape == Escape::Single && slash && ends_raw_text(html, j, name) {
                    return j;
                }
                // `<script` (escaped) or `</script` (double escaped), then
                // a blank, `/` or `>`, switches between the two.
                let word_at = match (&escape, slash) {
                    (Escape::Single, false) => i,
                    (Escape::Double, true) => i + 1,
                    _ => continue,
                };
                let len = html[word_at..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphabetic())
                    .count();
                if len == 0 && escape == Escape::Single {
                    continue;
                }
                i = word_at + len;
                if html
                    .get(i)
                    .is_some_and(|&b| is_blank(b) || b == b'/' || b == b'>')
                {
                    if html[word_at..i].eq_ignore_ascii_case(b"script") {
                        escape = match escape {
                            Escape::Single => Escape::Double,
                            _ => Escape::Single,
                        };
                    }
                    i += 1;
                }
            }
        }
    }
}

/// Whether `html[at..]` (a `<`) starts the end tag of `name`: `</`, the
/// name in any case, then a blank, `/` or `>`.
fn ends_raw_text(html: &[u8], at: usize, name: &[u8]) -> bool {
    let after = at + 2 + name.len();
    html.get(at + 1) == Some(&b'/')
        && html
            .get(at + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
        && html.get(after).is_some_and(|&b| ends_name(b))
}

/// Reads the markup at `html[at]` (a `<` before a letter, `/`, `!` or
/// `?`): a tag, a comment or a doctype. Returns where it ends and the
/// state the tokenizer goes on in (`None`: data).
fn markup(
    html: &[u8],
    at: usize,
    em: &mut &mut Reader<'_>,
) -> Result<(usize, Option<State>), Unusual> {
    em.token.position = at + 1;
    em.start_open_tag();
    match html.get(at + 1) {
        Some(c) if c.is_ascii_alphabetic() => {
            em.init_start_tag();
            tag(html, at + 1, em)
        }
        Some(b'/') if html.get(at + 2).is_some_and(u8::is_ascii_alphabetic) => {
            em.init_end_tag();
            tag(html, at + 2, em)
        }
        Some(b'!') if html[at + 2..].starts_with(b"--") => Ok((comment(html, at + 4, em)?, None)),
        Some(b'!')
            if html
                .get(at + 2..at + 9)
                .is_some_and(|d| d.eq_ignore_ascii_case(b"doctype")) =>
        {
            em.init_doctype();
            let end = memchr(b'>', &html[at + 9..]).ok_or(Unusual)?;
            Ok((at + 9 + end + 1, None))
        }
        // `</>` is nothing at all.
        Some(b'/') if html.get(at + 2) == Some(&b'>') => Ok((at + 3, None)),
        Some(b'/') if at + 2 == html.len() => Err(Unusual),
        // `<?`, `<!` before anything else (`<![CDATA[` too), `</` before
        // anything but a letter: a bogus comment, up to the first `>`.
        Some(b'?' | b'!' | b'/') => {
            em.init_comment();
            let end = memchr(b'>', &html[at + 2..]).map_or(html.len(), |i| at + 2 + i + 1);
            Ok((end, None))
        }
        _ => Err(Unusual),
    }
}

/// Reads a comment whose text starts at `at` (after `<!--`); returns where
/// it ends (after `-->`).
fn comment(html: &[u8], at: usize, em: &mut &mut Reader<'_>) -> Result<usize, Unusual> {
    em.init_comment();
    let rest = &html[at..];
    if rest.starts_with(b">") || rest.starts_with(b"->") {
        return Err(Unusual);
    }
    let close = memmem::find(rest, b"-->").ok_or(Unusual)?;
    if memmem::find(&rest[..close + 3], b"--!>").is_some() {
        return Err(Unusual);
    }
    Ok(at + close + 3)
}

/// The bytes that end a tag's name or an attribute's name.
fn ends_name(b: u8) -> bool {
    is_blank(b) || b == b'/' || b == b'>'
}

/// The blanks between attributes (CR is read as LF).
fn is_blank(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Reads a tag whose name starts at `at` (after `<` or `</`), through its
/// attributes and `>`; returns where it ends and the state the reader
/// says comes next.
fn tag(
    html: &[u8],
    at: usize,
    em: &mut &mut Reader<'_>,
) -> Result<(usize, Option<State>), Unusual> {
    let len = html[at..]
        .iter()
        .position(|&b| ends_name(b))
        .ok_or(Unusual)?;
    push_lowercase(&html[at..at + len], |s| em.push_tag_name(s));
    let mut at = at + len;
    loop {
        while html.get(at).is_some_and(|&b| is_blank(b)) {
            at += 1;
        }
        match html.get(at) {
            None => return Err(Unusual),
            Some(b'>') => {
                em.token.position = at + 1;
                let next = em.emit_current_tag();
                return Ok((at + 1, next));
            }
            // A `/` not before `>` is an error that changes nothing.
            Some(b'/') if html.get(at + 1) != Some(&b'>') => at += 1,
            Some(b'/') => {
                em.set_self_closing();
                em.token.position = at + 2;
                let next = em.emit_current_tag();
                return Ok((at + 2, next));
            }
            Some(_) => at = attribute(html, at, em)?,
        }
    }
}

/// Reads the attribute whose name starts at `at`, with its value if it
/// has one; returns where it ends.
fn attribute(html: &[u8], at: usize, em: &mut &mut Reader<'_>) -> Result<usize, Unusual> {
    // A `=` that starts a name is part of it (`"`, `'` and `<` in one are
    // too, errors that change nothing).
    let first = usize::from(html[at] == b'=');
    let len = first
        + html[at + first..]
            .iter()
            .position(|&b| ends_name(b) || b == b'=')
            .ok_or(Unusual)?;
    let name = &html[at..at + len];
    em.init_attribute();
    let mut at = at + len;
    while html.get(at).is_some_and(|&b| is_blank(b)) {
        at += 1;
    }
    if html.get(at) != Some(&b'=') {
        // No value: the reader makes nothing of the name alone.
        return Ok(at);
    }
    at += 1;
    while html.get(at).is_some_and(|&b| is_blank(b)) {
        at += 1;
    }
    let quote = match html.get(at) {
        Some(&q @ (b'"' | b'\'')) => Some(q),
        // `=` then `>`: no value.
        Some(b'>') => return Ok(at),
        None => return Err(Unusual),
        Some(_) => None,
    };
    // A value the reader would make nothing of is passed over, its name
    // and it not told (`face="Arial"`, `size=2`: telling them cost 3.4% of
    // mail mode's instructions).
    if em.skips_values_without_links() {
        if let Some(end) = end_of_value_without_links(html, at, quote) {
            return Ok(end);
        }
    }
    push_lowercase(name, |s| em.push_attribute_name(s));
    match quote {
        Some(q) => {
            let end = value(html, at + 1, em, |hay| memchr2(q, b'&', hay))?;
            if html.get(end) != Some(&q) {
                return Err(Unusual);
            }
            // What follows (a blank, `/` or `>`; or, missing the blank, the
            // next attribute) is read by the tag.
            Ok(end + 1)
        }
        None => {
            // Unquoted: up to a blank or `>` (`/`, `"`, `'`, `<`, `=` and
            // `` ` `` belong to the value).
            let end = value(html, at, em, |hay| {
                hay.iter()
                    .position(|&b| b == b'&' || is_blank(b) || b == b'>')
            })?;
            if end == html.len() {
                return Err(Unusual);
            }
            Ok(end)
        }
    }
}

/// Where the attribute value at `html[at]` (its opening `quote`, or its
/// first byte when unquoted) ends, past its closing quote, if it holds
/// neither `:` nor `&` and ends before the input does; else `None`.
fn end_of_value_without_links(html: &[u8], at: usize, quote: Option<u8>) -> Option<usize> {
    match quote {
        Some(q) => {
            let close = at + 1 + memchr3(q, b':', b'&', &html[at + 1..])?;
            (html[close] == q).then_some(close + 1)
        }
        None => {
            let end = at
                + html[at..]
                    .iter()
                    .position(|&b| matches!(b, b':' | b'&' | b'>') || is_blank(b))?;
            (!matches!(html[end], b':' | b'&')).then_some(end)
        }
    }
}

/// Reads an attribute value from `at` up to the byte that ends it (or the
/// end), with its character references; returns where it stopped.
/// `stop` finds, in what it is given, the first byte that ends the value
/// or is a `&`.
fn value(
    html: &[u8],
    at: usize,
    em: &mut &mut Reader<'_>,
    stop: impl Fn(&[u8]) -> Option<usize>,
) -> Result<usize, Unusual> {
    em.token.position = at;
    em.init_attribute_value();
    let mut buf = [0; 4];
    let mut piece = at;
    let mut i = at;
    loop {
        let Some(p) = stop(&html[i..]) else {
            i = html.len();
            break;
        };
        i += p;
        if html[i] != b'&' {
            break;
        }
        tell_value_written(em, html, piece, i);
        let (decoded, end) = reference(html, i, true, &mut buf)?;
        // A `&` that starts no reference stands for itself.
        em.told_value(decoded, i, end, decoded == &html[i..end]);
        i = end;
        piece = end;
    }
    tell_value_written(em, html, piece, i);
    Ok(i)
}

/// Where the line end whose CR is `html[cr]` ends, before `to`: past the
/// LF of a CR LF. The tokenizer reads either as LF.
fn line_end(html: &[u8], cr: usize, to: usize) -> usize {
    if cr + 1 < to && html[cr + 1] == b'\n' {
        cr + 2
    } else {
        cr + 1
    }
}

/// Tells the reader `html[from..to]` of an attribute value as written,
/// but for line ends: CR LF and CR are read as LF, as the tokenizer reads
/// them (the LF of a CR LF stands for both bytes, so the value's end is
/// past it).
fn tell_value_written(em: &mut &mut Reader<'_>, html: &[u8], mut from: usize, to: usize) {
    while let Some(i) = memchr(b'\r', &html[from..to]) {
        let cr = from + i;
        em.told_value(&html[from..cr], from, cr, true);
        let end = line_end(html, cr, to);
        em.told_value(b"\n", cr, end, false);
        from = end;
    }
    em.told_value(&html[from..to], from, to, true);
}

/// Hands `name` on in ASCII lower case, as the tokenizer gives names.
fn push_lowercase(name: &[u8], mut push: impl FnMut(&[u8])) {
    if !name.iter().any(u8::is_ascii_uppercase) {
        push(name);
        return;
    }
    for b in name {
        push(&[b.to_ascii_lowercase()]);
    }
}

/// Reads the character reference at `html[at]` (a `&`), in an attribute
/// value when `in_attribute`: what it stands for (in `buf` when decoded)
/// and where it ends. A `&` that starts no reference stands for itself.
pub(super) fn reference<'a>(
    html: &'a [u8],
    at: usize,
    in_attribute: bool,
    buf: &'a mut [u8; 4],
) -> Result<(&'a [u8], usize), Unusual> {
    match html.get(at + 1) {
        Some(b'#') => numeric(html, at, buf),
        Some(c) if c.is_ascii_alphanumeric() => {
            let start = at + 1;
            let len = html[start..]
                .iter()
                .position(|b| !b.is_ascii_alphanumeric())
                .unwrap_or(html.len() - start);
            let word = &html[start..start + len];
            if html.get(start + len) == Some(&b';') {
                // The longest name the text may hold is the whole word
                // with its `;`: known, or unknown to this reader.
                let c = named(word).ok_or(Unusual)?;
                return Ok((c.encode_utf8(buf).as_bytes(), start + len + 1));
            }
            // Without `;`, only a legacy name can match, the longest that
            // starts the word.
            let Some((name_len, c)) = (2..=len.min(LONGEST_LEGACY))
                .rev()
                .find_map(|n| legacy(&word[..n]).map(|c| (n, c)))
            else {
                return Ok((b"&", at + 1));
            };
            let end = start + name_len;
            let next = html.get(end);
            if in_attribute && next.is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric()) {
                // Historical: `?a=1&copy=2` in a URL is not `©`.
                return Ok((&html[at..end], end));
            }
            Ok((c.encode_utf8(buf).as_bytes(), end))
        }
        _ => Ok((b"&", at + 1)),
    }
}

/// Reads the numeric reference at `html[at]` (`&#`).
fn numeric<'a>(
    html: &'a [u8],
    at: usize,
    buf: &'a mut [u8; 4],
) -> Result<(&'a [u8], usize), Unusual> {
    let hex = matches!(html.get(at + 2), Some(b'x' | b'X'));
    let digits_at = at + 2 + usize::from(hex);
    let radix = if hex { 16 } else { 10 };
    let mut value: u32 = 0;
    let mut end = digits_at;
    while let Some(d) = html.get(end).and_then(|&b| char::from(b).to_digit(radix)) {
        // Past U+10FFFF the value stays out of range.
        value = value.saturating_mul(radix).saturating_add(d).min(0x11_0000);
        end += 1;
    }
    if end == digits_at {
        // No digits: `&#` or `&#x` is text.
        return Ok((&html[at..digits_at], digits_at));
    }
    if html.get(end) == Some(&b';') {
        end += 1;
    }
    let c = match value {
        0 => char::REPLACEMENT_CHARACTER,
        // Read as Windows-1252 (the five it leaves undefined stay).
        0x80..=0x9f => WINDOWS_1252[value as usize - 0x80],
        v => char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER),
    };
    Ok((c.encode_utf8(buf).as_bytes(), end))
}

/// What a numeric reference to U+0080 to U+009F stands for.
const WINDOWS_1252: [char; 32] = [
    '\u{20ac}', '\u{81}', '\u{201a}', '\u{192}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2c6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8d}', '\u{17d}', '\u{8f}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2dc}', '\u{2122}', '\u{161}', '\u{203a}', '\u{153}', '\u{9d}', '\u{17e}', '\u{178}',
];

/// The longest legacy name (`frac12`, `middot`).
const LONGEST_LEGACY: usize = 6;

/// The names the standard reads without a `;` too: those of Latin-1
/// (U+00A0 to U+00FF, in order) and the markup characters.
const LATIN1: [&str; 96] = [
    "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf",
    "laquo", "not", "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro",
    "para", "middot", "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
    "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil", "Egrave", "Eacute",
    "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH", "Ntilde", "Ograve", "Oacute",
    "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute",
    "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
    "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml", "eth", "ntilde",
    "ograve", "oacute", "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave", "uacute", "ucirc",
    "uuml", "yacute", "thorn", "yuml",
];

/// The character of a legacy name, which the standard reads with or
/// without a `;`.
fn legacy(name: &[u8]) -> Option<char> {
    let c = match name {
        b"amp" | b"AMP" => '&',
        b"lt" | b"LT" => '<',
        b"gt" | b"GT" => '>',
        b"quot" | b"QUOT" => '"',
        b"COPY" => '\u{a9}',
        b"REG" => '\u{ae}',
        _ => {
            let i = LATIN1.iter().position(|n| n.as_bytes() == name)?;
            char::from(0xa0 + i as u8)
        }
    };
    Some(c)
}

/// The character of the reference `&name;`, for the legacy names and the
/// others mail writes most; `None` for the rest of the standard's 2,231
/// names, which this reader leaves to html5gum.
fn named(name: &[u8]) -> Option<char> {
    if let Some(c) = legacy(name) {
        return Some(c);
    }
    Some(match name {
        b"apos" => '\'',
        b"ensp" => '\u{2002}',
        b"emsp" => '\u{2003}',
        b"thinsp" => '\u{2009}',
        b"zwnj" => '\u{200c}',
        b"zwj" => '\u{200d}',
        b"lrm" => '\u{200e}',
        b"rlm" => '\u{200f}',
        b"ndash" => '\u{2013}',
        b"mdash" => '\u{2014}',
        b"lsquo" => '\u{2018}',
        b"rsquo" => '\u{2019}',
        b"sbquo" => '\u{201a}',
        b"ldquo" => '\u{201c}',
        b"rdquo" => '\u{201d}',
        b"bdquo" => '\u{201e}',
        b"dagger" => '\u{2020}',
        b"Dagger" => '\u{2021}',
        b"bull" => '\u{2022}',
        b"hellip" => '\u{2026}',
        b"permil" => '\u{2030}',
        b"lsaquo" => '\u{2039}',
        b"rsaquo" => '\u{203a}',
        b"euro" => '\u{20ac}',
        b"trade" => '\u{2122}',
        b"larr" => '\u{2190}',
        b"rarr" => '\u{2192}',
        b"OElig" => '\u{152}',
        b"oelig" => '\u{153}',
        b"Scaron" => '\u{160}',
        b"scaron" => '\u{161}',
        b"Yuml" => '\u{178}',
        b"fnof" => '\u{192}',
        b"circ" => '\u{2c6}',
        b"tilde" => '\u{2dc}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{CHECKED, MODES};
    use super::super::{read as read_html, Reader};
    use super::*;
    use crate::standalone::Rng;

    /// Reads `html` both ways (`read_html` checks that html5gum agrees
    /// whenever the plain reader reads it); returns whether the plain
    /// reader did.
    fn check(html: &[u8]) -> bool {
        let before = CHECKED.with(|n| n.get());
        for &mode in MODES {
            read_html(html, 7, mode);
        }
        let read = CHECKED.with(|n| n.get()) - before;
        assert!(read == 0 || read == MODES.len());
        read > 0
    }

    /// Every reference this reader decodes, in text and in attribute
    /// values, with and without `;` and before `=` and letters: the tables
    /// (legacy names, the other names, Windows-1252) against html5gum's.
    #[test]
    fn references_are_read_as_html5gum_reads_them() {
        let mut names: Vec<&str> = LATIN1.to_vec();
        names.extend([
            "amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT", "COPY", "REG",
        ]);
        let others = "apos ensp emsp thinsp zwnj zwj lrm rlm ndash mdash lsquo rsquo sbquo \
                      ldquo rdquo bdquo dagger Dagger bull hellip permil lsaquo rsaquo euro \
                      trade larr rarr OElig oelig Scaron scaron Yuml fnof circ tilde";
        let mut html = String::new();
        for name in &names {
            assert!(legacy(name.as_bytes()).is_some(), "{name}");
            for form in ["&N", "&N;", "&Nx", "&N=", "&N1", "&N."] {
                let r = form.replace('N', name);
                html += &format!("<p>{r} <a title=\"{r}\" href='{r}' alt={r}>{r}</a>\n");
            }
        }
        for name in others.split(' ') {
            assert!(named(name.as_bytes()).is_some(), "{name}");
            html += &format!("<p>&{name}; <a title=\"&{name};\" alt=&{name};>\n");
        }
        for n in (0..0x200).chain([
            0xd7ff,
            0xd800,
            0xdfff,
            0xfffe,
            0x10ffff,
            0x110000,
            0x7fff_ffff,
        ]) {
            html += &format!("&#{n};&#{n} &#x{n:x};&#X{n:X}a<a title='&#{n}=&#x{n:x};'>\n");
        }
        html += "&# &#; &#x; &#xg; &#a; &; & &&amp; &9 a&b=c <a href=\"?a=1&b=2&copy=3&not;\">";
        assert!(check(html.as_bytes()), "the plain reader gave up");
        // Named references it does not know, with `;`: left to html5gum.
        assert!(!check(b"&hearts; &ampx; &notin;"));
    }

    /// Markup made of the pieces that change how a tokenizer reads, at
    /// random: whatever the plain reader reads, html5gum reads alike.
    #[test]
    fn generated_markup_is_read_as_html5gum_reads_it() {
        const PIECES: &[&str] = &[
            "<",
            ">",
            "</",
            "/>",
            "/",
            "=",
            "\"",
            "'",
            "`",
            "!",
            "?",
            "-",
            "--",
            "-->",
            "--!>",
            "<!--",
            "<!-->",
            "<!DOCTYPE html>",
            "<![CDATA[",
            "&",
            "&amp;",
            "&amp",
            "&not",
            "&notit;",
            "&#58;",
            "&#x3a",
            "&#150;",
            "&copy=",
            "&hearts;",
            "a",
            "B",
            "p",
            "href",
            "src",
            "title",
            "style",
            "script",
            "textarea",
            "xmp",
            "plaintext",
            "code",
            "a href",
            "http://x.org/",
            ":",
            " ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\x0c",
            "é",
            "\u{a0}",
            "<p>",
            "</p>",
            "<a href=\"",
            "<style>",
            "</style>",
            "<title>",
            "</title>",
            "<script>",
            "</script>",
            "<base href=",
            "<meta content=\"0; url=",
            "\0",
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut read = 0;
        let cases = 20_000;
        for _ in 0..cases {
            let len = rng.below(24);
            let html: String = (0..len)
                .map(|_| PIECES[rng.below(PIECES.len() as u64) as usize])
                .collect();
            read += usize::from(check(html.as_bytes()));
        }
        // The check above is only as good as the share the plain reader
        // reads.
        assert!(read > cases / 5, "the plain reader read {read} of {cases}");
    }

    /// The HTML parts of the shared mail archives, read as mail mode reads
    /// them: every one the plain reader reads, html5gum reads alike, and it
    /// reads nearly all.
    #[test]
    #[cfg(feature = "mail")]
    fn the_shared_mail_archives_html_is_read_as_html5gum_reads_it() {
        let before = CHECKED.with(|n| n.get());
        if !crate::mail::scan_shared_mail_archives() {
            return;
        }
        let read = CHECKED.with(|n| n.get()) - before;
        assert!(read > 1_500, "the plain reader read {read} HTML parts");
    }

    /// Script data with `<!--` (escaped) and `<script>` in that (double
    /// escaped), which hide `</script>` or not, end where html5gum ends
    /// them: the text after the script is the same (`check` compares).
    #[test]
    fn script_data_ends_where_html5gum_ends_it() {
        let scripts = [
            "<!-- x </script> y",
            "<!--</script>-->",
            "<!--> </script> y",
            "<!---> </script> y",
            "<!-- --> </script> y",
            "<!-- -- > </script> y",
            "<!-- - -> </script> y",
            "<!-- -> <script> </script> y",
            "<!-- - -> <script> </script> y",
            "<!-- --> <script> </script> y",
            "<!-- ---> <script> </script> y",
            "<!--> <script> </script> y",
            "<!-- <script> </script> --> </script> y",
            "<!-- <script> --> </script> y",
            "<!-- <SCRIPT\t> </scRipt\r\n> </script> y",
            "<!-- <script/x </script> y",
            "<!-- <scripts> </script> y",
            "<!-- <script> </scripts> </script> --> </script> y",
            "<!-- <script> </> </script> y",
            "<!-- <script> <!-- </script> --> </script> y",
            "<!-- <script> </script --> </script> y",
            "<!-- <-- </script> y",
            "<!-- <<script> </script> --> </script> y",
            "<!-- </scrip> </script > y",
            "<!-- </script/> y",
            "<!- </script> y",
            "<!-x --> </script> y",
            "<!-- <script>",
            "<!-- ",
            "<!--",
        ];
        for script in scripts {
            let html = format!("<p>a<script>{script}</script>http://after.example/ z");
            assert!(check(html.as_bytes()), "the plain reader gave up: {html:?}");
        }
    }

    #[test]
    fn gives_up_where_it_does_not_know() {
        for html in [
            "a\0b",
            "<plaintext>x",
            "<!-->",
            "<!-- a --!>",
            "<a href='x",
            "<a",
            "<!-- a",
            "<!DOCTYPE",
            "</",
            "&frac;",
        ] {
            let mut reader = Reader::new(html.as_bytes(), 0, MODES[0]);
            assert!(read(html.as_bytes(), &mut reader).is_err(), "{html:?}");
        }
    }
}
