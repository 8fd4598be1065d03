//! What a reader sees of an XML document (a sitemap, a feed, a Maven POM,
//! XHTML, SVG, a schema): its text with the references XML defines
//! decoded, so that `<loc>https://a.example/?a=1&amp;b=2</loc>` gives
//! `https://a.example/?a=1&b=2`.
//!
//! - The five predefined entities (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
//!   `&apos;`) and character references (`&#38;`, `&#x26;`) are decoded,
//!   in text and in attribute values. An entity a DTD declares is left as
//!   written (its text is not known without reading the DTD).
//! - Comments, CDATA sections, processing instructions and the document
//!   type declaration are copied as written: XML decodes nothing inside
//!   them (so the URI of a POM's
//!   licence header, in a comment, is found as in plain text).
//! - Nothing else changes: the markup is scanned as written (a tag ends a
//!   bare URI), and so are namespace names
//!   (`xmlns="http://www.w3.org/2000/svg"`), as in plain text. *Judgement
//!   call:* XML names no links the way HTML's `href` does (an Atom
//!   `<link href>`, XHTML's and SVG's `href` are links by their
//!   vocabularies, not by XML), so no relative reference is resolved.

use memchr::memmem;

use crate::reading::Reading;

/// Returns what a reader sees of the XML document `xml`.
pub(crate) fn read(xml: &[u8]) -> Reading {
    let mut out = Reading {
        text: Vec::with_capacity(xml.len()),
        ..Reading::default()
    };
    // `xml[..copied]` is in `out`; `from` is where to look for markup.
    let (mut copied, mut from) = (0, 0);
    while let Some(p) = memchr::memchr2(b'<', b'&', &xml[from..]) {
        let at = from + p;
        if xml[at] == b'<' {
            from = unread_section_end(xml, at).unwrap_or(at + 1);
            continue;
        }
        from = at + 1;
        if let Some((c, len)) = reference(xml, at) {
            out.copy(&xml[copied..at], copied);
            let mut utf8 = [0; 4];
            out.decoded(c.encode_utf8(&mut utf8).as_bytes(), at, len);
            copied = at + len;
            from = copied;
        }
    }
    crate::work::examined(xml.len());
    out.copy(&xml[copied..], copied);
    out
}

/// Where the comment, CDATA section, processing instruction or document
/// type declaration (whose literals XML reads as written) that starts at
/// `xml[at]` (a `<`) ends (the input's end, when it is not closed); `None`
/// for other markup.
fn unread_section_end(xml: &[u8], at: usize) -> Option<usize> {
    let rest = &xml[at..];
    let (open, close): (&[u8], &[u8]) = if rest.starts_with(b"<!DOCTYPE") {
        // An internal subset, in brackets, holds declarations ending in `>`.
        let subset = memchr::memchr2(b'[', b'>', rest).is_some_and(|p| rest[p] == b'[');
        (b"<!DOCTYPE", if subset { b"]>" } else { b">" })
    } else if rest.starts_with(b"<!--") {
        (b"<!--", b"-->")
    } else if rest.starts_with(b"<![CDATA[") {
        (b"<![CDATA[", b"]]>")
    } else if rest.starts_with(b"<?") {
        (b"<?", b"?>")
    } else {
        return None;
    };
    let inside = at + open.len();
    Some(memmem::find(&xml[inside..], close).map_or(xml.len(), |p| inside + p + close.len()))
}

/// The character the reference at `xml[at]` (a `&`) stands for, and its
/// length, if it is a predefined entity or a character reference to a
/// character XML allows (not NUL, a surrogate or beyond U+10FFFF).
fn reference(xml: &[u8], at: usize) -> Option<(char, usize)> {
    // The longest reference read: `&#x10FFFF;` and leading zeros.
    const LONGEST: usize = 12;
    let window = &xml[at + 1..xml.len().min(at + LONGEST)];
    let semi = memchr::memchr(b';', window)?;
    let name = &window[..semi];
    let c = match name {
        b"amp" => '&',
        b"lt" => '<',
        b"gt" => '>',
        b"quot" => '"',
        b"apos" => '\'',
        [b'#', b'x', hex @ ..] if !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit) => {
            number(hex, 16)?
        }
        [b'#', dec @ ..] if !dec.is_empty() && dec.iter().all(u8::is_ascii_digit) => {
            number(dec, 10)?
        }
        _ => return None,
    };
    Some((c, semi + 2))
}

/// The character numbered `digits` in `radix`, if XML 1.0 allows it (its
/// `Char`: tab, line feed, carriage return, and from the space on but the
/// surrogates, U+FFFE and U+FFFF).
fn number(digits: &[u8], radix: u32) -> Option<char> {
    let n = digits.iter().try_fold(0u32, |n, &d| {
        n.checked_mul(radix)?
            .checked_add((d as char).to_digit(radix)?)
    })?;
    char::from_u32(n)
        .filter(|&c| matches!(c, '\t' | '\n' | '\r' | ' '..='\u{FFFD}' | '\u{10000}'..))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn text(xml: &str) -> String {
        String::from_utf8(read(xml.as_bytes()).text).unwrap()
    }

    #[test]
    fn references_are_decoded_outside_comments_cdata_and_instructions() {
        let cases = [
            (
                "<loc>https://a.example/?a=1&amp;b=2</loc>",
                "<loc>https://a.example/?a=1&b=2</loc>",
            ),
            (
                "<a x='&quot;&apos;&lt;&gt;&#38;&#x26;&#X26;&#xe9;'/>",
                "<a x='\"'<>&&&#X26;\u{e9}'/>",
            ),
            // Not references: no `;`, unknown, too long, characters XML
            // 1.0 does not allow.
            (
                "&amp &nbsp; &#x110000; &#0; &#1; &#xD800; &#xFFFE; &#; &#x; & &#0000000000038; &",
                "&amp &nbsp; &#x110000; &#0; &#1; &#xD800; &#xFFFE; &#; &#x; & &#0000000000038; &",
            ),
            // A document type declaration's literals are read as written.
            (
                "<!DOCTYPE x SYSTEM \"a?b&amp;c\"><!DOCTYPE y [<!ENTITY e \"&amp;\">]>&amp;",
                "<!DOCTYPE x SYSTEM \"a?b&amp;c\"><!DOCTYPE y [<!ENTITY e \"&amp;\">]>&",
            ),
            // Read as written: a comment, CDATA, an instruction, unclosed.
            (
                "<!-- &amp; --><![CDATA[&amp;]]><?pi &amp; ?>&amp;",
                "<!-- &amp; --><![CDATA[&amp;]]><?pi &amp; ?>&",
            ),
            ("&lt;<!-- &amp;", "<<!-- &amp;"),
        ];
        for (xml, want) in cases {
            assert_eq!(text(xml), want, "{xml}");
        }
    }

    #[test]
    fn decoded_text_is_placed_where_it_was_written() {
        let xml = b"<u>http://a/?x&amp;y&#xe9;z</u>";
        let r = read(xml);
        assert_eq!(r.text, "<u>http://a/?x&y\u{e9}z</u>".as_bytes());
        // `&` from `&amp;` at 14, `é` from `&#xe9;` at 20, `z` at 26.
        assert_eq!(r.map.span(Span::new(14, 15)), Span::new(14, 19));
        assert_eq!(r.map.span(Span::new(16, 18)), Span::new(20, 26));
        assert_eq!(r.map.span(Span::new(3, 19)), Span::new(3, 27));
    }
}
