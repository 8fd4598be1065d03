//! What an HTML part says to a reader: the `href` and `src` attribute values
//! and the text, with character references decoded. A small tag scanner,
//! not an HTML parser: enough for mail, never a panic on broken markup.
//!
//! It works on bytes, jumping from `<` to `<` and `&` to `&` with memchr;
//! every byte it looks for is ASCII, so it never needs its input to be
//! UTF-8.

use memchr::{memchr, memchr3};

/// Returns the text to scan for an HTML document: each URL attribute's
/// value on a line of its own, then the text with tags replaced by spaces (so a
/// tag never glues two words), character references decoded. The content
/// of `<script>` and `<style>` is left out.
pub fn scannable_text(html: &[u8]) -> Vec<u8> {
    let mut links = Vec::new();
    let mut text = Vec::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = memchr(b'<', rest) {
        decode_into(&rest[..lt], &mut text);
        rest = &rest[lt..];
        let Some(gt) = tag_end(rest) else {
            break; // an unclosed `<`: the rest is text
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        text.push(b' ');
        let name_len = tag
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(tag.len());
        let name = &tag[..name_len];
        for value in link_values(&tag[name_len..]) {
            decode_into(value, &mut links);
            links.push(b'\n');
        }
        if name.eq_ignore_ascii_case(b"script") || name.eq_ignore_ascii_case(b"style") {
            rest = &rest[find_close(rest, name).unwrap_or(rest.len())..];
        }
    }
    decode_into(rest, &mut text);
    links.push(b'\n');
    links.extend_from_slice(&text);
    links
}

/// The offset of the `>` that ends the tag starting at `s[0] == b'<'`,
/// skipping `>` inside quoted attribute values.
fn tag_end(s: &[u8]) -> Option<usize> {
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

/// The attributes of HTML (4 and 5) whose value is a URL, or a list of
/// URLs (`srcset`, `ping`, `archive`): a mail's links, images, forms,
/// quotations (`cite="mid:…"`) and table backgrounds. `xmlns` names a
/// vocabulary, not a link, and is left out.
const URL_ATTRIBUTES: &[&[u8]] = &[
    b"href",
    b"src",
    b"srcset",
    b"action",
    b"formaction",
    b"background",
    b"cite",
    b"longdesc",
    b"poster",
    b"data",
    b"codebase",
    b"classid",
    b"archive",
    b"usemap",
    b"profile",
    b"manifest",
    b"ping",
    b"lowsrc",
    b"dynsrc",
];

/// The values of the URL attributes ([`URL_ATTRIBUTES`]) among a tag's
/// attributes (what follows its name), in order.
fn link_values(mut attrs: &[u8]) -> Vec<&[u8]> {
    let mut values = Vec::new();
    loop {
        attrs = skip(attrs, |b| b.is_ascii_whitespace() || b == b'/');
        if attrs.is_empty() {
            return values;
        }
        let name_len = attrs
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'=' || b == b'/')
            .unwrap_or(attrs.len())
            .max(1);
        let name = &attrs[..name_len];
        attrs = skip(&attrs[name_len..], |b| b.is_ascii_whitespace());
        let Some(after_eq) = attrs.strip_prefix(b"=") else {
            continue; // an attribute without a value
        };
        attrs = skip(after_eq, |b| b.is_ascii_whitespace());
        let value = match attrs.first() {
            Some(&q @ (b'"' | b'\'')) => {
                let inside = &attrs[1..];
                let len = memchr(q, inside).unwrap_or(inside.len());
                attrs = inside.get(len + 1..).unwrap_or_default();
                &inside[..len]
            }
            _ => {
                let len = attrs
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(attrs.len());
                let value = &attrs[..len];
                attrs = &attrs[len..];
                value
            }
        };
        if URL_ATTRIBUTES
            .iter()
            .any(|url| name.eq_ignore_ascii_case(url))
        {
            values.push(value.trim_ascii());
        }
    }
}

fn skip(s: &[u8], what: impl Fn(u8) -> bool) -> &[u8] {
    &s[s.iter().position(|&b| !what(b)).unwrap_or(s.len())..]
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

/// Appends `s` with its character references (`&amp;`, `&#38;`, `&#x26;`,
/// and the few named ones mail uses) decoded.
fn decode_into(s: &[u8], out: &mut Vec<u8>) {
    let mut rest = s;
    while let Some(amp) = memchr(b'&', rest) {
        out.extend_from_slice(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..]
            .iter()
            .position(|&b| !b.is_ascii_alphanumeric() && b != b'#')
            .map_or(rest.len(), |p| p + 1);
        let name = &rest[1..end];
        let consumed = if rest[end..].starts_with(b";") {
            end + 1
        } else {
            end
        };
        match reference(name) {
            Some(c) => {
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                rest = &rest[consumed..];
            }
            None => {
                out.push(b'&');
                rest = &rest[1..];
            }
        }
    }
    out.extend_from_slice(rest);
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
            <blockquote type=cite cite="mid:q@example.org"><html xmlns:v="urn:schemas-microsoft-com:vml">"#;
        let out = scannable_text(html.as_bytes());
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
                "http://y.org/t&u",
                "http://w.org/",
                "http://n.org/"
            ]
        );
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
