//! The encoding a document declares for itself: an HTML `<meta>` or an
//! XML declaration, read in the document's first bytes as a browser reads
//! them (the HTML Standard's "prescan a byte stream to determine its
//! encoding" and "get an XML encoding" algorithms, section 13.2.3.2).

use encoding_rs::{Encoding, WINDOWS_1252, X_USER_DEFINED};

/// How far into a document a `<meta>` that declares its encoding is looked
/// for (the HTML Standard's prescan reads 1024 bytes).
const PRESCAN_LEN: usize = 1024;

/// The encoding an HTML document that starts with `head` declares: the
/// first `<meta charset>`, or `<meta http-equiv="Content-Type"
/// content="…; charset=…">`, in its first 1024 bytes, outside comments;
/// else its XML declaration's (XHTML). `None` when it declares none, or a
/// label the Encoding Standard does not know.
pub(super) fn by_html(head: &[u8]) -> Option<&'static Encoding> {
    prescan(&head[..head.len().min(PRESCAN_LEN)]).or_else(|| by_xml(head))
}

/// The encoding an XML document that starts with `head` declares in its
/// XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`), which
/// must start the document.
pub(super) fn by_xml(head: &[u8]) -> Option<&'static Encoding> {
    let rest = head.strip_prefix(b"<?xml")?;
    let decl = &rest[..memchr::memchr(b'>', rest)?];
    let at = memchr::memmem::find(decl, b"encoding")? + b"encoding".len();
    let after = skip_blanks(decl, at);
    let after = skip_blanks(decl, (decl.get(after) == Some(&b'=')).then_some(after + 1)?);
    let quote = *decl.get(after).filter(|&&q| q == b'"' || q == b'\'')?;
    let value = &decl[after + 1..];
    let value = &value[..memchr::memchr(quote, value)?];
    if value.iter().any(|&b| b <= b' ') {
        return None;
    }
    Encoding::for_label(value).map(as_declared)
}

/// The HTML Standard's prescan of `head`, already cut to its first 1024
/// bytes.
fn prescan(head: &[u8]) -> Option<&'static Encoding> {
    let mut at = 0;
    while at < head.len() {
        let rest = &head[at..];
        if rest.starts_with(b"<!--") {
            // To the `>` of the first `-->`, whose dashes may be the
            // comment's own (`<!-->`).
            at += memchr::memmem::find(&rest[2..], b"-->").map_or(rest.len(), |p| p + 4);
        } else if starts_meta(rest) {
            at += 5;
            if let Some(encoding) = meta(head, &mut at) {
                return Some(encoding);
            }
        } else if rest.len() > 1 && rest[0] == b'<' && is_tag_start(&rest[1..]) {
            // Another tag: its name, then its attributes, passed over.
            at += rest
                .iter()
                .position(|&b| b.is_ascii_whitespace() || b == b'>')
                .unwrap_or(rest.len());
            while attribute(head, &mut at).is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            at += memchr::memchr(b'>', rest).unwrap_or(rest.len());
        }
        at += 1;
    }
    None
}

/// Returns true if `rest` starts a `<meta` tag: `<meta` in any case, then
/// a blank or `/`.
fn starts_meta(rest: &[u8]) -> bool {
    rest.len() > 5
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (rest[5].is_ascii_whitespace() || rest[5] == b'/')
}

/// Returns true if `rest`, after a `<`, starts a tag's name: a letter, or
/// `/` and a letter.
fn is_tag_start(rest: &[u8]) -> bool {
    let name = rest.strip_prefix(b"/").unwrap_or(rest);
    name.first().is_some_and(u8::is_ascii_alphabetic)
}

/// The encoding the attributes of a `<meta>` starting at `at` declare, if
/// they declare one; `at` is left after them.
fn meta(head: &[u8], at: &mut usize) -> Option<&'static Encoding> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    // `Some(true)`: the charset came from `content`, which counts only
    // with `http-equiv="content-type"`.
    let mut need_pragma = None;
    let mut charset = None;
    while let Some((name, value)) = attribute(head, at) {
        if seen.contains(&name) {
            continue;
        }
        match &name[..] {
            b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
            b"content" if charset.is_none() => {
                if let Some(label) = charset_in_content(&value) {
                    charset = Encoding::for_label(label);
                    need_pragma = Some(true);
                }
            }
            b"charset" if charset.is_none() => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    match need_pragma {
        Some(true) if !got_pragma => None,
        Some(_) => charset.map(as_declared),
        None => None,
    }
}

/// The next attribute of a tag from `at`, its name in lower case, its
/// value as written (quotes removed); `None` at the tag's `>` or the
/// end, where `at` is left.
fn attribute(head: &[u8], at: &mut usize) -> Option<(Vec<u8>, Vec<u8>)> {
    while *at < head.len() && (head[*at].is_ascii_whitespace() || head[*at] == b'/') {
        *at += 1;
    }
    if *at >= head.len() || head[*at] == b'>' {
        return None;
    }
    let mut name = vec![head[*at].to_ascii_lowercase()];
    *at += 1;
    // The name, up to `=`, a blank, `/` or `>`.
    while *at < head.len() {
        match head[*at] {
            b'=' | b'/' | b'>' => break,
            b if b.is_ascii_whitespace() => break,
            b => name.push(b.to_ascii_lowercase()),
        }
        *at += 1;
    }
    *at = skip_blanks(head, *at);
    if head.get(*at) != Some(&b'=') {
        return Some((name, Vec::new()));
    }
    *at = skip_blanks(head, *at + 1);
    let mut value = Vec::new();
    match head.get(*at) {
        Some(&quote @ (b'"' | b'\'')) => {
            let len = memchr::memchr(quote, &head[*at + 1..])?;
            value.extend(
                head[*at + 1..*at + 1 + len]
                    .iter()
                    .map(u8::to_ascii_lowercase),
            );
            *at += len + 2;
        }
        Some(b'>') | None => {}
        Some(_) => {
            while *at < head.len() && !head[*at].is_ascii_whitespace() && head[*at] != b'>' {
                value.push(head[*at].to_ascii_lowercase());
                *at += 1;
            }
        }
    }
    Some((name, value))
}

/// The label after `charset=` in a `<meta content>` value ("extract a
/// character encoding from a meta element").
fn charset_in_content(content: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    loop {
        let at = from + find_ignoring_case(&content[from..], b"charset")? + b"charset".len();
        let after = skip_blanks(content, at);
        if content.get(after) != Some(&b'=') {
            from = after;
            continue;
        }
        let start = skip_blanks(content, after + 1);
        let value = &content[start..];
        return match value.first() {
            Some(&quote @ (b'"' | b'\'')) => {
                memchr::memchr(quote, &value[1..]).map(|end| &value[1..1 + end])
            }
            Some(_) => {
                let end = value
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b == b';');
                Some(&value[..end.unwrap_or(value.len())])
            }
            None => None,
        };
    }
}

/// Where `needle` (lower case) first is in `hay`, in any case.
fn find_ignoring_case(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// The encoding a document that declares `encoding` is read in: UTF-8
/// for a UTF-16 (the bytes that declared it were read as ASCII, so it
/// cannot be UTF-16) or the replacement encoding, windows-1252 for
/// x-user-defined (the HTML Standard's rules).
fn as_declared(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding.output_encoding()
    }
}

/// The first offset from `at` that holds no blank.
fn skip_blanks(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|&b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_2, SHIFT_JIS};

    fn html(s: &str) -> Option<&'static str> {
        by_html(s.as_bytes()).map(Encoding::name)
    }

    #[test]
    fn a_meta_charset_is_read() {
        assert_eq!(html(r#"<meta charset="iso-8859-1">"#), Some("windows-1252"));
        assert_eq!(html("<META CHARSET=Shift_JIS>"), Some("Shift_JIS"));
        assert_eq!(html("<meta charset='latin2'/>"), Some("ISO-8859-2"));
        assert_eq!(
            html(r#"<html><head><title>x</title><meta charset = " koi8-r "></head>"#),
            Some("KOI8-R"),
            "blanks around a label are the label's (get an encoding trims them)"
        );
    }

    #[test]
    fn a_content_type_pragma_is_read_only_with_http_equiv() {
        let pragma = r#"<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">"#;
        assert_eq!(by_html(pragma.as_bytes()), Some(ISO_8859_2));
        let reversed = r#"<meta content='text/html;charset="shift_jis"' http-equiv=content-type>"#;
        assert_eq!(by_html(reversed.as_bytes()), Some(SHIFT_JIS));
        assert_eq!(
            html(r#"<meta content="text/html; charset=iso-8859-2">"#),
            None
        );
        assert_eq!(html(r#"<meta name="x" content="charset=latin1">"#), None);
        // The first of `content` and `charset` that names one wins.
        let both =
            r#"<meta http-equiv=content-type content="text/html; charset=latin2" charset=koi8-r>"#;
        assert_eq!(by_html(both.as_bytes()), Some(ISO_8859_2));
    }

    #[test]
    fn what_is_not_a_meta_tag_declares_nothing() {
        assert_eq!(html(r#"<!-- <meta charset="latin1"> --><p>"#), None);
        assert_eq!(html(r#"<!--><meta charset="latin2">"#), Some("ISO-8859-2"));
        assert_eq!(html(r#"<p title='<meta charset="latin1">'>"#), None);
        assert_eq!(html(r#"<metal charset="latin1">"#), None);
        assert_eq!(html(r#"<meta charset="no-such-thing">"#), None);
        assert_eq!(html("<p>no declaration</p>"), None);
        let late = format!("{}<meta charset=latin1>", " ".repeat(PRESCAN_LEN));
        assert_eq!(html(&late), None, "past the first 1024 bytes");
    }

    #[test]
    fn utf_16_declared_in_ascii_is_utf_8() {
        assert_eq!(html("<meta charset=utf-16le>"), Some("UTF-8"));
        assert_eq!(html("<meta charset=x-user-defined>"), Some("windows-1252"));
        assert_eq!(
            by_xml(b"<?xml encoding='x-user-defined'?>"),
            Some(WINDOWS_1252)
        );
        assert_eq!(
            html("<meta charset=iso-2022-kr>"),
            Some("UTF-8"),
            "replacement"
        );
    }

    #[test]
    fn an_xml_declaration_is_read() {
        let decl = br#"<?xml version="1.0" encoding="ISO-8859-1"?><html>"#;
        assert_eq!(by_xml(decl), Some(WINDOWS_1252));
        assert_eq!(by_html(decl), Some(WINDOWS_1252), "XHTML without a <meta>");
        assert_eq!(
            by_xml(b"<?xml version='1.0' encoding = 'Shift_JIS' ?>"),
            Some(SHIFT_JIS)
        );
        assert_eq!(
            by_xml(b"<?xml version=\"1.0\"?><a encoding=\"latin1\">"),
            None
        );
        assert_eq!(
            by_xml(b" <?xml version=\"1.0\" encoding=\"latin1\"?>"),
            None
        );
        assert_eq!(by_xml(b"<?xml encoding=\"latin 1\"?>"), None);
    }
}
