//! What an HTML part says to a reader: the `href` and `src` attribute values
//! and the text, with character references decoded. A small tag scanner,
//! not an HTML parser: enough for mail, never a panic on broken markup.

/// Returns the text to scan for an HTML document: each `href`/`src` value
/// on a line of its own, then the text with tags replaced by spaces (so a
/// tag never glues two words), character references decoded. The content
/// of `<script>` and `<style>` is left out.
pub fn scannable_text(html: &str) -> String {
    let mut links = String::new();
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        decode_into(&rest[..lt], &mut text);
        rest = &rest[lt..];
        let Some(gt) = tag_end(rest) else {
            decode_into(rest, &mut text);
            rest = "";
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        text.push(' ');
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        for value in link_attributes(tag) {
            decode_into(value, &mut links);
            links.push('\n');
        }
        if name == "script" || name == "style" {
            let close = format!("</{name}");
            match find_ascii_case_insensitive(rest, &close) {
                Some(at) => rest = &rest[at..],
                None => rest = "",
            }
        }
    }
    decode_into(rest, &mut text);
    links.push('\n');
    links.push_str(&text);
    links
}

/// The offset of the `>` that ends the tag starting at `s[0] == '<'`,
/// skipping `>` inside quoted attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The values of the `href` and `src` attributes of a tag's inside.
fn link_attributes(tag: &str) -> Vec<&str> {
    let mut values = Vec::new();
    let lower = tag.to_ascii_lowercase();
    for name in ["href", "src"] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(name).map(|p| from + p) {
            from = at + name.len();
            let before_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
            let after = lower[from..].trim_start();
            if !before_ok || !after.starts_with('=') {
                continue;
            }
            let value_start = tag.len() - after.len() + 1;
            let v = tag[value_start..].trim_start();
            let value = match v.chars().next() {
                Some(q @ ('"' | '\'')) => v[1..].split(q).next().unwrap_or(""),
                _ => v
                    .split(|c: char| c.is_ascii_whitespace() || c == '>')
                    .next()
                    .unwrap_or(""),
            };
            values.push(value.trim());
        }
    }
    values
}

fn find_ascii_case_insensitive(hay: &str, needle: &str) -> Option<usize> {
    hay.as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Appends `s` with its character references (`&amp;`, `&#38;`, `&#x26;`,
/// and the few named ones mail uses) decoded.
fn decode_into(s: &str, out: &mut String) {
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '#')
            .map(|p| p + 1);
        let (name, consumed) = match end {
            Some(e) if rest[e..].starts_with(';') => (&rest[1..e], e + 1),
            Some(e) => (&rest[1..e], e),
            None => (&rest[1..], rest.len()),
        };
        match reference(name) {
            Some(c) => {
                out.push(c);
                rest = &rest[consumed..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

fn reference(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
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
            <a href=http://z.org/ title=x>z</a> &lt;http://w.org/&gt; &#104;ttp://n.org/</p>"#;
        let out = scannable_text(html);
        let found: Vec<String> = crate::Scanner::new()
            .find_iter(out.as_bytes())
            .map(|f| f.as_str().to_string())
            .collect();
        assert_eq!(
            found,
            [
                "http://x.org/a?b=1&c=2",
                "http://x.org/i.png",
                "http://z.org/",
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
            let _ = scannable_text(html);
        }
    }
}
