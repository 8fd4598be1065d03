//! What an HTML part says to a reader: its attribute values that may hold
//! links and its text, with character references decoded. A small tag scanner,
//! not an HTML parser: enough for mail, never a panic on broken markup.
//!
//! It works on bytes, jumping from `<` to `<` and `&` to `&` with memchr;
//! every byte it looks for is ASCII, so it never needs its input to be
//! UTF-8. What it gives comes with a [`SourceMap`] back to the HTML, so a
//! URI found in an attribute is placed where the attribute is.

use memchr::{memchr, memchr2, memchr3};

use crate::source_map::SourceMap;

/// Text being built, and where each byte of it came from in the HTML.
#[derive(Default)]
struct Out {
    text: Vec<u8>,
    map: SourceMap,
}

impl Out {
    /// Appends `bytes`, copied from offset `src`.
    fn copy(&mut self, bytes: &[u8], src: usize) {
        if !bytes.is_empty() {
            self.map.copied(self.text.len(), src);
            self.text.extend_from_slice(bytes);
        }
    }

    /// Appends `bytes` that stand for the `src_len` bytes at `src`.
    fn decoded(&mut self, bytes: &[u8], src: usize, src_len: usize) {
        self.map
            .push(self.text.len(), src, bytes.len() as u32, src_len as u32);
        self.text.extend_from_slice(bytes);
    }

    /// Appends a separator that stands for nothing of the source (placed
    /// at `src`).
    fn separator(&mut self, byte: u8, src: usize) {
        self.map.push(self.text.len(), src, 1, 0);
        self.text.push(byte);
    }
}

/// Where a character reference stands: in an attribute value, a named one
/// without its `;` is left as it is when `=` or a letter or digit follows
/// (the HTML rule that keeps `?a=1&lt=2` a query).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Text,
    Attribute,
}

/// Returns the text to scan for an HTML document, and its map back to
/// `html`: each attribute's value that may hold links on a line of its own, then the text
/// with tags replaced by spaces (so a tag never glues two words),
/// character references decoded. Comments and the content of `<script>`
/// and `<style>` are left out: a reader never sees them.
pub fn scannable_text(html: &[u8]) -> (Vec<u8>, SourceMap) {
    let mut links = Out::default();
    let mut text = Out {
        text: Vec::with_capacity(html.len()),
        map: SourceMap::default(),
    };
    let mut at = 0;
    while let Some(lt) = memchr(b'<', &html[at..]) {
        let lt = at + lt;
        decode_into(html, at..lt, Context::Text, &mut text);
        let Some(gt) = tag_end(&html[lt..]) else {
            at = lt;
            break; // an unclosed `<`: the rest is text
        };
        let gt = lt + gt;
        // The space stands for the tag; placed at its `>`, so that it and
        // the text after it are one piece of the map.
        text.copy(b" ", gt);
        let name_len = html[lt + 1..gt]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(gt - lt - 1);
        let name = &html[lt + 1..lt + 1 + name_len];
        // A comment, declaration or processing instruction has no
        // attributes (`<!-- saved from url=(0022)http://… -->`).
        let markup = matches!(html.get(lt + 1), Some(b'!' | b'?'));
        let values = if markup {
            Vec::new()
        } else {
            link_values(html, lt + 1 + name_len..gt)
        };
        for value in values {
            decode_into(html, value.clone(), Context::Attribute, &mut links);
            links.separator(b'\n', value.end);
        }
        at = gt + 1;
        if name.eq_ignore_ascii_case(b"script") || name.eq_ignore_ascii_case(b"style") {
            at += find_close(&html[at..], name).unwrap_or(html.len() - at);
        }
    }
    decode_into(html, at..html.len(), Context::Text, &mut text);
    links.separator(b'\n', html.len());
    let mut out = links;
    let shift = out.text.len();
    out.map.append(&text.map, shift);
    out.text.extend_from_slice(&text.text);
    (out.text, out.map)
}

/// The offset of the `>` that ends the tag starting at `s[0] == b'<'`,
/// skipping `>` inside quoted attribute values. A comment ends at `-->`,
/// a declaration or processing instruction at the first `>`: they have
/// no quoted values (`<!-- EDITORS' CHOICE -->`).
fn tag_end(s: &[u8]) -> Option<usize> {
    if s.starts_with(b"<!--") {
        return memchr::memmem::find(&s[4..], b"-->").map(|p| 4 + p + 2);
    }
    if matches!(s.get(1), Some(b'!' | b'?')) {
        return memchr(b'>', s);
    }
    let mut at = 1;
    loop {
        at += memchr3(b'>', b'"', b'\'', &s[at..])?;
        let quote = s[at];
        if quote == b'>' {
            return Some(at);
        }
        at += 1;
        at += memchr(quote, &s[at..])? + 1;
    }
}

/// Whether a link may stand in the value of the attribute `name`.
///
/// *Judgement call:* every attribute but `xmlns` (and `xmlns:…`), which
/// names a vocabulary, not a link, and the event handlers (`onclick`, …),
/// which are script, left out as `<script>` is. Links stand in far more than the URL
/// attributes of HTML (`href`, `src`, `action`, `background`, `cite`, …):
/// the `value` of a jump menu's `<option>`, a plugin's `pluginspage`, a
/// refresh's `<meta content="0; url=…">`, an `alt` or `title` text. The
/// scanner reports only URIs, so reading the rest costs nothing in noise;
/// leaving them out lost links that plain reading finds.
fn may_hold_links(name: &[u8]) -> bool {
    let starts = |prefix: &[u8]| {
        name.len() >= prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    !starts(b"xmlns") && !starts(b"on")
}

/// The ranges of `html` holding the values that may hold links
/// ([`may_hold_links`]) among a tag's attributes (`attrs`, what follows
/// its name), in order, without their quotes and surrounding blanks.
fn link_values(html: &[u8], attrs: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let mut values = Vec::new();
    let end = attrs.end;
    let mut at = attrs.start;
    fn skip_from(html: &[u8], at: usize, end: usize, what: impl Fn(u8) -> bool) -> usize {
        at + html[at..end]
            .iter()
            .position(|&b| !what(b))
            .unwrap_or(end - at)
    }
    loop {
        at = skip_from(html, at, end, |b| b.is_ascii_whitespace() || b == b'/');
        if at >= end {
            return values;
        }
        let name_len = html[at..end]
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'=' || b == b'/')
            .unwrap_or(end - at)
            .max(1);
        let name = &html[at..at + name_len];
        at = skip_from(html, at + name_len, end, |b| b.is_ascii_whitespace());
        if html.get(at) != Some(&b'=') || at >= end {
            continue; // an attribute without a value
        }
        at = skip_from(html, at + 1, end, |b| b.is_ascii_whitespace());
        let value = match html[at..end].first() {
            Some(&q @ (b'"' | b'\'')) => {
                let len = memchr(q, &html[at + 1..end]).unwrap_or(end - at - 1);
                let value = at + 1..at + 1 + len;
                at = (at + 2 + len).min(end);
                value
            }
            _ => {
                let len = html[at..end]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(end - at);
                let value = at..at + len;
                at += len;
                value
            }
        };
        // Every URI the scanner reports has a scheme and its `:` (or a
        // `&#58;` standing for it): a value without either holds none.
        let inside = &html[value.clone()];
        let may_hold_a_uri = memchr2(b':', b'&', inside).is_some();
        if may_hold_a_uri && may_hold_links(name) {
            let lead = inside.len() - inside.trim_ascii_start().len();
            let trail = inside.len() - inside.trim_ascii_end().len();
            values.push(value.start + lead..(value.end - trail).max(value.start + lead));
        }
    }
}

/// Where `</name` (any case) starts in `s`.
fn find_close(s: &[u8], name: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(p) = memchr(b'<', &s[at..]) {
        at += p;
        let after = &s[at + 1..];
        if after.first() == Some(&b'/')
            && after.len() > name.len()
            && after[1..=name.len()].eq_ignore_ascii_case(name)
        {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// Appends `html[range]` with its character references (`&amp;`,
/// `&#38;`, `&#x26;`, and the few named ones mail uses) decoded.
fn decode_into(html: &[u8], range: std::ops::Range<usize>, context: Context, out: &mut Out) {
    let mut at = range.start;
    while let Some(amp) = memchr(b'&', &html[at..range.end]) {
        let amp = at + amp;
        out.copy(&html[at..amp], at);
        let rest = &html[amp..range.end];
        let end = rest[1..]
            .iter()
            .position(|&b| !b.is_ascii_alphanumeric() && b != b'#')
            .map_or(rest.len(), |p| p + 1);
        let name = &rest[1..end];
        let terminated = rest[end..].starts_with(b";");
        let consumed = end + usize::from(terminated);
        // In an attribute, a named reference without `;` before `=` or an
        // alphanumeric is text (`?a=1&lt=2`).
        let literal = context == Context::Attribute
            && !terminated
            && !name.starts_with(b"#")
            && rest
                .get(end)
                .is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric());
        match reference(name).filter(|_| !literal) {
            Some(c) => {
                out.decoded(c.encode_utf8(&mut [0; 4]).as_bytes(), amp, consumed);
                at = amp + consumed;
            }
            None => {
                out.copy(b"&", amp);
                at = amp + 1;
            }
        }
    }
    out.copy(&html[at..range.end], at);
}

/// The character a reference's name (what is between `&` and `;`) stands
/// for, if it is numeric or one of the names mail uses.
fn reference(name: &[u8]) -> Option<char> {
    if let Some(num) = name.strip_prefix(b"#") {
        let (digits, radix) = match num.strip_prefix(b"x").or(num.strip_prefix(b"X")) {
            Some(hex) => (hex, 16),
            None => (num, 10),
        };
        let code = u32::from_str_radix(std::str::from_utf8(digits).ok()?, radix).ok()?;
        return char::from_u32(code);
    }
    Some(match name {
        b"amp" => '&',
        b"lt" => '<',
        b"gt" => '>',
        b"quot" => '"',
        b"apos" => '\'',
        b"nbsp" => '\u{a0}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_text_with_references_decoded() {
        let html = r#"<p>See <a HREF="http://x.org/a?b=1&amp;c=2">the site</a> or
            <img src='http://x.org/i.png'> http://y.org/t&amp;u.<script>var u="http://no.org/";</script>
            <a href=http://z.org/ title=x>z</a> &lt;http://w.org/&gt; &#104;ttp://n.org/</p>
            <form action="https://f.org/post"><td background='http://b.org/bg.gif'>
            <blockquote type=cite cite="mid:q@example.org"><html xmlns:v="urn:schemas-microsoft-com:vml">
            <option value="http://o.org/jump.html"><embed pluginspage="http://p.org/get">
            <!-- saved from url=(0022)http://internet.e-mail --><?xml:namespace ns="urn:x:y" />
            <img onmouseover="swap('http://s.org/a.gif',1)"><!-- EDITORS' CHOICE -->
            <img src="http://e.org/after-comment.gif"><!-- it's -- still > a comment -->"#;
        let (out, _) = scannable_text(html.as_bytes());
        let found: Vec<String> = crate::Scanner::new()
            .find_iter(&out)
            .map(|f| f.as_str().to_string())
            .collect();
        assert_eq!(
            found,
            [
                "http://x.org/a?b=1&c=2",
                "http://x.org/i.png",
                "http://z.org/",
                "https://f.org/post",
                "http://b.org/bg.gif",
                "mid:q@example.org",
                "http://o.org/jump.html",
                "http://p.org/get",
                "http://e.org/after-comment.gif",
                "http://y.org/t&u",
                "http://w.org/",
                "http://n.org/"
            ]
        );
    }

    /// Found in the issue: `href="http://x.org/?a=1&lt=2"` gave
    /// `http://x.org/?a=1`, the `&lt` decoded to `<` inside the value.
    #[test]
    fn a_named_reference_without_semicolon_stays_text_in_an_attribute() {
        let html = br#"<a href="http://x.org/?a=1&lt=2&amp;b=3&gt;">http://y.org/?a&lt=1</a>"#;
        let (out, _) = scannable_text(html);
        let found: Vec<String> = crate::Scanner::new()
            .find_iter(&out)
            .map(|f| f.as_str().to_string())
            .collect();
        assert_eq!(found, ["http://x.org/?a=1&lt=2&b=3", "http://y.org/?a"]);
    }

    #[test]
    fn every_link_maps_back_to_its_attribute() {
        let html = b"<p>\n<a\n  href='http://x.org/a?b=1&amp;c=2'>x</a> http://t.org/&amp;</p>";
        let (out, map) = scannable_text(html);
        for f in crate::Scanner::new().find_iter(&out) {
            let s = map.span(f.span());
            let written = String::from_utf8_lossy(&html[s.start..s.end]);
            match f.as_str() {
                "http://x.org/a?b=1&c=2" => assert_eq!(written, "http://x.org/a?b=1&amp;c=2"),
                "http://t.org/&" => assert_eq!(written, "http://t.org/&amp;"),
                other => panic!("{other}"),
            }
        }
    }

    #[test]
    fn broken_markup_never_panics() {
        for html in [
            "<",
            "<a href=",
            "<a href='x",
            "&",
            "&#;",
            "&#x110000;",
            "<script>",
            "é<é>é&é;",
        ] {
            let _ = scannable_text(html.as_bytes());
        }
    }
}
