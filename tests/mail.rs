//! Mail reading: whole messages cut from `../shared/corpus/mail/` (in
//! `fixtures/mail/`) with the URIs expected from each part, and the whole
//! mail corpus checked for quoted-printable artifacts.

mod common;

use std::fs;
use std::path::Path;

use common::{stdout, Dir, TestCommand};
use uriscan::mail;
use uriscan::{Found, Scanner};

/// What mail mode finds in `bytes`, a line each: the file line and column
/// where the URI was written, its part, the URI.
fn scan(bytes: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    mail::scan_mail(&Scanner::new(), bytes, |f: &Found<'_>| {
        let part = f.message().expect("found in a message").part();
        lines.push(format!(
            "{}:{} {} {}",
            f.line(),
            f.column(),
            part,
            f.as_str()
        ));
        Ok(true)
    })
    .unwrap();
    lines
}

#[test]
fn fixtures_give_their_expected_uris() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        assert!(mail::looks_like_mail(&bytes), "{}", path.display());
        let want = fs::read_to_string(path.with_extension("expected")).unwrap();
        assert_eq!(scan(&bytes).join("\n") + "\n", want, "{}", path.display());
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[test]
fn header_fields_far_apart_among_colons_that_hold_none_are_each_read() {
    // A block searched at once: fields that hold a URI (one in an encoded
    // word, one after a JSON `:\/`, one whose `:` is a JSON `\u003a`) far apart, between fields whose colons
    // end no scheme (times, DKIM's name lists, `Re:`), and two URIs in
    // one field.
    let mut message = Vec::new();
    for hop in 0..6 {
        message.extend_from_slice(
            format!(
                "Received: from h{hop}.example ([10.0.0.{hop}]) by mx.example\n\t\
                 with ESMTP id x{hop}; Tue, 20 Aug 2002 10:15:3{hop} +0100\n"
            )
            .as_bytes(),
        );
    }
    message.extend_from_slice(
        b"DKIM-Signature: v=1; a=rsa-sha256; h=from:to:subject:date:message-id;\n\
          \tb=abc\n\
          List-Archive: <https://lists.example/archive/>\n\
          Date: Tue, 20 Aug 2002 10:15:32 +0100\n\
          Subject: Re: =?utf-8?Q?see_http://a.example/=C3=A9t=C3=A9?= now\n\
          X-Times: 10:15:32 11:15:32 12:15:32 13:15:32 14:15:32 15:15:32 16:15:32\n\
          X-Json: {\"u\":\"https:\\/\\/j.example\\/p\"}\n\
          X-Escaped: {\"u\":\"https\\u003a\\/\\/k.example\\/\"}\n\
          X-Two: <mailto:a@b.example> and <ftp://f.example/x>\n\
          \n\
          body\n",
    );
    let uris: Vec<String> = scan(&message)
        .iter()
        .map(|line| line.rsplit(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(
        uris,
        [
            "https://lists.example/archive/",
            "http://a.example/%C3%A9t%C3%A9",
            "https://j.example/p",
            "https://k.example/",
            "mailto:a@b.example",
            "ftp://f.example/x",
        ]
    );
}

#[test]
fn a_uri_whose_colon_is_a_json_escape_is_found_in_a_field_and_a_body() {
    // A JSON array of strings holds no `:` of its own: the escaped one is
    // the only one there is.
    let message = b"From: a@b.example\n\
        X-J: [\"https\\u003a\\/\\/h.example\\/\"]\n\
        \n\
        [\"https\\u003A\\/\\/b.example\\/\"]\n";
    assert_eq!(
        scan(message),
        [
            "2:8 header:X-J https://h.example/",
            "4:3 text/plain https://b.example/"
        ]
    );
}

#[test]
fn text_in_a_legacy_charset_is_converted_so_its_iris_come_whole() {
    // One message of each path: a text/plain body read without the MIME
    // parser, a multipart walked, and a multipart and a text/plain body
    // the MIME parser reads (their `Content-Type` holds a comment); with
    // Latin-1 (quoted-printable),
    // Shift_JIS (8bit), an encoded word, and UTF-8 labelled Latin-1.
    let mut mbox = b"From a Mon Jan  1 00:00:00 2024\n\
        Subject: =?ISO-8859-1?Q?voir_http://a.example/caf=E9?=\n\
        Content-Type: text/plain; charset=iso-8859-1\n\
        Content-Transfer-Encoding: quoted-printable\n\
        \n\
        see http://b.example/na=EFve now\n\
        \n\
        From a Mon Jan  1 00:00:00 2024\n\
        Content-Type: multipart/alternative; boundary=b\n\
        \n\
        --b\n\
        Content-Type: text/html; charset=shift_jis\n\
        \n\
        <a href=\"http://c.example/"
        .to_vec();
    mbox.extend_from_slice(b"\x93\xfa\x96\x7b\">x</a>\n--b\n");
    // (Its last line is Latin-1: only that line's bytes are read so.)
    mbox.extend_from_slice(
        "Content-Type: text/plain; charset=iso-8859-1\n\nutf-8 http://d.example/é labelled Latin-1\n"
            .as_bytes(),
    );
    mbox.extend_from_slice(b"> na\xefve\n--b--\n\n");
    mbox.extend_from_slice(
        b"From a Mon Jan  1 00:00:00 2024\n\
        Content-Type: multipart/mixed; boundary=\"c\" (a comment)\n\
        \n\
        --c\n\
        Content-Type: text/plain; charset=windows-1252\n\
        \n\
        see http://e.example/\xe0 now\n\
        --c--\n\
        \n\
        From a Mon Jan  1 00:00:00 2024\n\
        Content-Type: text/plain; charset=iso-8859-1 (Latin 1)\n\
        \n\
        see http://f.example/\xe8 now\n",
    );
    assert_eq!(
        scan(&mbox),
        [
            "2:30 header:Subject http://a.example/caf%C3%A9",
            "6:5 text/plain http://b.example/na%C3%AFve",
            "14:10 text/html http://c.example/%E6%97%A5%E6%9C%AC",
            "18:7 text/plain http://d.example/%C3%A9",
            "28:5 text/plain http://e.example/%C3%A0",
            "34:5 text/plain http://f.example/%C3%A8",
        ]
    );
}

#[test]
fn a_part_whose_content_type_lacks_its_semicolon_is_labelled_by_its_type() {
    // The MIME parser reads `plain charset=us-ascii` as the subtype (of
    // its copy, which writes `xharset`): the label is the type alone.
    for (message, line) in [
        (
            &b"From: a@b\nContent-Type: TEXT/PLAIN charset=US-ASCII\n\nsee http://x.example/\n"[..],
            4,
        ),
        (
            b"From: a@b\nContent-Type: multipart/mixed; boundary=B\n\n--B\n\
          Content-Type: text/plain charset=us-ascii\n\nsee http://x.example/\n--B--\n",
            7,
        ),
    ] {
        assert_eq!(
            scan(message),
            [format!("{line}:5 text/plain http://x.example/")]
        );
    }
}

#[test]
fn quoted_printable_soft_breaks_are_joined_and_base64_is_read() {
    let qp = fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/mail/quoted-printable.eml"
    ))
    .unwrap();
    let uris = scan(&qp);
    assert!(uris
        .iter()
        .any(|u| u
            .ends_with("https://lists.ettus.com/empathy/thread/3G73TSCWNNMMHDV3RRXZYTSJP7SP4JDU")));
    assert!(!uris.iter().any(|u| u.ends_with('=')), "{uris:?}");
    // The plain-text reading of the same bytes is cut at the soft break.
    let plain: Vec<String> = Scanner::new()
        .find_iter(&qp)
        .map(|f| f.as_str().to_string())
        .collect();
    assert!(plain.iter().any(|u| u.ends_with("/thread/3=")));
    let b64 = fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/mail/base64.eml"
    ))
    .unwrap();
    assert!(scan(&b64)
        .iter()
        .any(|u| u == "98:69 text/plain https://files.ettus.com/manual/page_devices.html"));
    assert_eq!(
        Scanner::new()
            .find_iter(&b64)
            .filter(|f| f.as_str().contains("page_devices"))
            .count(),
        0
    );
}

/// Base64 followed by text that is not base64 (a list footer appended to
/// a one-part message) or cut short (a truncated message) is decoded as
/// far as its lines are base64, the rest read as sent. Both lost every URI
/// of the decoded text (found by a black-box run against urlscan: 10 URLs
/// of two SpamAssassin messages).
#[test]
fn base64_with_text_after_it_or_cut_short_is_decoded_as_far_as_it_goes() {
    // "see http://example.com/page.htm\r\n"
    let footer = "From: a@x\nSubject: t\nContent-Transfer-Encoding: base64\n\n\
                  c2VlIGh0dHA6Ly9leGFtcGxlLmNvbS9wYWdlLmh0bQ0K\n\n--\n\
                  List footer http://list.example/info\n";
    assert_eq!(
        scan(footer.as_bytes()),
        [
            "5:5 text/plain http://example.com/page.htm",
            "8:13 text/plain http://list.example/info"
        ]
    );
    // "hello http://b64.example/path/that/is/long?q=1", its last group
    // cut to two symbols (`MS`, one byte: `1`).
    let cut = "From: a@x\nSubject: t\nContent-Type: multipart/mixed; boundary=Q\n\n--Q\n\
               Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n\
               aGVsbG8gaHR0cDovL2I2NC5leGFtcGxlL3BhdGgvdGhhdC9pcy9sb25nP3E9MS\n";
    assert_eq!(
        parts_and_uris(cut),
        ["text/plain http://b64.example/path/that/is/long?q=1"]
    );
    // Text declared base64 that is not: read as sent, as before.
    let plain = "From: a@x\nContent-Transfer-Encoding: base64\n\nsee http://plain.example/\n";
    assert_eq!(parts_and_uris(plain), ["text/plain http://plain.example/"]);
    // The data ends at its padding, or at a blank line after it: a footer's
    // words are not decoded with it (`Thanks` glued `N` to the URI), and
    // the rest starts a line of its own (`Hello` glued `e` to `urn:`).
    // (From a code review.)
    let padded = "From: a@x\nContent-Transfer-Encoding: base64\n\n\
                  UGxlYXNlIHNlZSBodHRwOi8veC5leGFtcGxlL3BhdGg=\n\nThanks\n-- \n\
                  List http://list.example/\n";
    assert_eq!(
        parts_and_uris(padded),
        [
            "text/plain http://x.example/path",
            "text/plain http://list.example/"
        ]
    );
    let glued = b"From: a@x\nContent-Transfer-Encoding: base64\n\nSGVsbG8\nurn:isbn:123\n";
    let mut any = Vec::new();
    mail::scan_mail(
        &Scanner::builder().any_scheme(true).build(),
        &glued[..],
        |f: &Found<'_>| {
            any.push(f.as_str().to_string());
            Ok(true)
        },
    )
    .unwrap();
    assert_eq!(any, ["urn:isbn:123"]);
    // A group cut short is placed on its own symbols, not past the input's
    // end.
    let short = b"From: a@x\nContent-Transfer-Encoding: base64\n\n\
                  c2VlIGh0dHA6Ly9jdXQuZXhhbXBsZS9hYmM";
    let mut spans = Vec::new();
    mail::scan_mail(&Scanner::new(), &short[..], |f: &Found<'_>| {
        spans.push((f.as_str().to_string(), f.span().end));
        Ok(true)
    })
    .unwrap();
    assert_eq!(spans, [("http://cut.example/abc".to_string(), short.len())]);
}

/// A link attribute in an HTML part is read as a browser reads it, as an
/// HTML document's is: its line breaks left out and its spaces read as
/// `%20`, so the scanner takes it whole; and what is found comes in the
/// order written. Mail cut `src="…/trans.⏎gif"` at the line break and
/// `?subject=send more info` at the space, and gave every link before the
/// text's URIs (a black-box run against urlscan; SpamAssassin's spam is
/// full of both: 202 URIs of the corpus come whole).
#[test]
fn links_in_html_parts_are_read_whole_and_in_order() {
    let message = "From: a@example.com\nSubject: t\nContent-Type: text/html\n\n\
                   <p>Go to http://ex.com/a and <a href=\"http://ex.com/b\">t</a> then http://ex.com/c</p>\n\
                   <img src=\"http://www.example.com/images/trans.\ngif\">\
                   <a href=\"http://www.example.com/a/b\n/c.html\">x</a>\n\
                   <a href=\"mailto:x@example.com?subject=send more info\">y</a> \
                   <a href=\" http://example.com/my file.pdf \">z</a>\n\
                   <img src=\"http://www.scripting.com\n /images/a.gif\">\n";
    assert_eq!(
        scan(message.as_bytes()),
        [
            "5:10 text/html http://ex.com/a",
            "5:39 text/html http://ex.com/b",
            "5:67 text/html http://ex.com/c",
            "6:11 text/html http://www.example.com/images/trans.gif",
            "7:15 text/html http://www.example.com/a/b/c.html",
            "9:10 text/html mailto:x@example.com?subject=send%20more%20info",
            "9:71 text/html http://example.com/my%20file.pdf",
            // A host with a space is no host: the URI ends there.
            "10:11 text/html http://www.scripting.com",
        ]
    );
}

/// A no-break space in an HTML link (`&nbsp;`, or the character itself),
/// within it or at its end, is read as a browser reads it, `%C2%A0`, and
/// the link comes whole, placed where it was written; in the host it ends
/// the link, as a space does. Each link ended at it
/// (`href="http://a.example/x&nbsp;y"` gave `http://a.example/x`).
#[test]
fn a_no_break_space_in_an_html_link_is_read_as_browsers_read_it() {
    let message = "From: a@example.com\nSubject: t\nContent-Type: text/html; charset=utf-8\n\n\
                   <a href=\"http://a.example/x&nbsp;y\">one</a>\n\
                   <a href=\"http://a.example/x&nbsp;\">two</a> <img src=\"http://a.example/i\u{a0}.gif\">\n\
                   <a href=\"http://a.example/p?q=1&nbsp;2#f&nbsp;g\">three</a>\n\
                   <a href=\"http://a.exa&nbsp;mple/p\">four</a>\n";
    assert_eq!(
        scan(message.as_bytes()),
        [
            "5:10 text/html http://a.example/x%C2%A0y",
            "6:10 text/html http://a.example/x%C2%A0",
            "6:54 text/html http://a.example/i%C2%A0.gif",
            "7:10 text/html http://a.example/p?q=1%C2%A02#f%C2%A0g",
            "8:10 text/html http://a.exa",
        ]
    );
}

/// What mail mode finds in `message`, a line each: the part, the URI
/// (no place: a forwarded message sent encoded is placed where its body
/// starts).
fn parts_and_uris(message: &str) -> Vec<String> {
    scan(message.as_bytes())
        .iter()
        .map(|line| {
            line.split_once(' ')
                .expect("place, then part")
                .1
                .to_string()
        })
        .collect()
}

/// A forwarded message sent quoted-printable (RFC 2046 forbids it; mail
/// holds it) whose own text is quoted-printable Latin-1: both encodings
/// and the charset are undone, and the part after it is read as well (its
/// transfer encoding named with a comment), but not the broken attachment
/// after that. The forwarded text's own quoted-printable is broken (`==`),
/// which makes the MIME parser give up on it: it is decoded as far as it
/// goes, as a part's is.
#[test]
fn a_forwarded_message_sent_quoted_printable_has_its_own_encoding_undone() {
    let message = "From: a@example.org\nSubject: fwd\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"XX\"\n\n--XX\nContent-Type: text/plain\n\nsee attached\n--XX\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\nFrom: c@example.org\nSubject: inner\nMIME-Version: 1.0\nContent-Type: text/plain; charset=3Diso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nif a =3D=3D b, caf=3DE9 http://a.example/caf=3DE9/x=3D3D=\n1 end\n--XX\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable (sent by foo)\n\nlast http://b.example/d=E9j=E0\n--XX\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\nAAAA http://raw.example/x !!!! ****\n--XX--\n";
    assert_eq!(
        parts_and_uris(message),
        [
            "text/plain http://a.example/caf%C3%A9/x=1",
            "text/plain http://b.example/d%C3%A9j%C3%A0",
        ]
    );
}

/// Text in UTF-16 under the labels other than `utf-16` that mail writes it
/// with (`unicode`, Outlook's; `ucs-2`; `csUnicode`, quoted; `UnicodeFFFE`,
/// big-endian without a BOM) is converted as `utf-16`'s is, whether the
/// message's structure is walked or left to the MIME parser. Before, read
/// as sent, its URIs were lost.
#[test]
fn text_in_utf_16_under_any_of_its_labels_is_converted() {
    let parts = "--XX\nContent-Type: text/plain; charset=unicode\nContent-Transfer-Encoding: base64\n\ncwBlAGUAIABoAHQAdABwADoALwAvAHUAbgBpAGMAbwBkAGUALgBlAHgAYQBtAHAAbABlAC8AcABhAHQAaAAgAG8AawAKAA==\n--XX\nContent-Type: text/plain; charset=ucs-2\nContent-Transfer-Encoding: base64\n\n//5zAGUAZQAgAGgAdAB0AHAAOgAvAC8AdQBjAHMAMgAuAGUAeABhAG0AcABsAGUALwBwAGEAdABoACAAbwBrAAoA\n--XX\nContent-Type: text/plain; charset=\"csUnicode\"\nContent-Transfer-Encoding: base64\n\n//5zAGUAZQAgAGgAdAB0AHAAOgAvAC8AYwBzAHUAbgBpAGMAbwBkAGUALgBlAHgAYQBtAHAAbABlAC8AcABhAHQAaAAgAG8AawAKAA==\n--XX\nContent-Type: text/plain; charset=UnicodeFFFE\nContent-Transfer-Encoding: base64\n\nAHMAZQBlACAAaAB0AHQAcAA6AC8ALwBmAGYAZgBlAC4AZQB4AGEAbQBwAGwAZQAvAHAAYQB0AGgAIABvAGsACg==\n--XX--\n";
    let expected = [
        "text/plain http://unicode.example/path",
        "text/plain http://ucs2.example/path",
        "text/plain http://csunicode.example/path",
        "text/plain http://fffe.example/path",
    ];
    let walked = format!("From: a@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"XX\"\n\n{parts}");
    assert_eq!(parts_and_uris(&walked), expected);
    // A message that is one such part (Outlook's).
    let single = "From: a@example.org\nMIME-Version: 1.0\nContent-Type: text/plain; charset=unicode\nContent-Transfer-Encoding: base64\n\ncwBlAGUAIABoAHQAdABwADoALwAvAHUAbgBpAGMAbwBkAGUALgBlAHgAYQBtAHAAbABlAC8AcABhAHQAaAAgAG8AawAKAA==\n";
    assert_eq!(
        parts_and_uris(single),
        ["text/plain http://unicode.example/path"]
    );
    // A forwarded message is the parser's to read.
    let parsed = format!("From: a@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"YY\"\n\n--YY\nContent-Type: message/rfc822\n\nFrom: b@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"XX\"\n\n{parts}--YY--\n");
    assert_eq!(parts_and_uris(&parsed), expected);
}

/// A part with two `Content-Transfer-Encoding` fields (RFC 2045 allows
/// one) is read by its first, a forwarded message as a text part: as
/// Python's `email` reads them. Before, a forwarded message was read by
/// its last (the MIME parser's choice), and its own quoted-printable text
/// came out as written twice over (`caf=E9/x=3D1`).
#[test]
fn a_part_with_two_transfer_encodings_is_read_by_its_first() {
    let message = "From: a@example.org\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"XX\"\n\n--XX\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\nContent-Transfer-Encoding: 7bit\n\nFrom: c@example.org\nMIME-Version: 1.0\nContent-Type: text/plain; charset=3Diso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nsee http://a.example/caf=3DE9/x=3D3D=\n1 end\n--XX\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\nContent-Transfer-Encoding: 7bit\n\nlast http://b.example/d=E9j=E0=\nx\n--XX--\n";
    assert_eq!(
        parts_and_uris(message),
        [
            "text/plain http://a.example/caf%C3%A9/x=1",
            "text/plain http://b.example/d%C3%A9j%C3%A0x",
        ]
    );
}

/// A forwarded message sent quoted-printable, with a comment after the
/// encoding's name (RFC 2045 allows one): it is decoded as without it, and
/// a URI cut by a soft line break comes whole.
#[test]
fn a_forwarded_message_whose_encoding_has_a_comment_is_decoded() {
    let message = "From: a@example.org\nSubject: fwd\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"OUT\"\n\n--OUT\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable (forwarded)\n\nFrom: c@example.org\nSubject: x\nContent-Type: text/plain; charset=3Diso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nhttp://c.example/caf=3DE9/a=3D3Db http://long.exampl=\n=3D\ne/x\n--OUT--\n";
    assert_eq!(
        parts_and_uris(message),
        [
            "text/plain http://c.example/caf%C3%A9/a=b",
            "text/plain http://long.example/x",
        ]
    );
}

/// The text of a forwarded message sent encoded keeps the comments of
/// what reads like a `Content-Transfer-Encoding` in it, a field of its own
/// header or a line of its body: a URI there is found.
#[test]
fn comments_in_a_forwarded_message_sent_encoded_keep_their_uris() {
    let message = "From: x@example.com\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=X\n\n--X\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\nFrom: a@example.com\nSubject: how to\nContent-Transfer-Encoding: 7bit (by http://gateway.example/)\n\nContent-Transfer-Encoding: 7bit (see http://rfc.example/2045)\nbye http://bye.example/\n--X--\n";
    assert_eq!(
        parts_and_uris(message),
        [
            "header:Content-Transfer-Encoding http://gateway.example/",
            "text/plain http://rfc.example/2045",
            "text/plain http://bye.example/",
        ]
    );
    // An attachment's field renamed for the parser keeps its name.
    let image = message.replace(
        "Subject: how to\n",
        "Subject: how to\nContent-Type: image/png\n",
    );
    assert_eq!(
        parts_and_uris(&image),
        ["header:Content-Transfer-Encoding http://gateway.example/"]
    );
}

/// A forwarded message inside one sent encoded (which the MIME parser
/// reads from the decoded bytes, the inner one in place in them): its
/// header and its text are read, as in one forwarded as it is; so are a
/// digest's messages there.
#[test]
fn a_message_forwarded_in_one_sent_encoded_is_read() {
    let message = "From: x@example.com\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=X\n\n--X\nContent-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\nFrom: a@example.com\nContent-Type: multipart/digest; boundary=3DD\n\n--D\n\nSubject: see http://s.example/\n\nl3 http://l3.example/\n--D\nContent-Type: message/rfc822\n\nSubject: two\n\nand http://l3b.example/caf=3DE9\n--D--\n--X--\n";
    assert_eq!(
        parts_and_uris(message),
        [
            "header:Subject http://s.example/",
            "text/plain http://l3.example/",
            "text/plain http://l3b.example/caf=E9",
        ]
    );
}

/// A digest's part that names no type is a forwarded message (RFC 2046
/// section 5.1.5): sent quoted-printable, its own text is decoded too.
#[test]
fn a_digest_part_sent_quoted_printable_has_its_own_encoding_undone() {
    let message = "From: a@example.org\nSubject: digest\nMIME-Version: 1.0\nContent-Type: multipart/digest; boundary=\"D\"\n\n--D\nContent-Transfer-Encoding: quoted-printable\n\nFrom: c@example.org\nSubject: one\nContent-Type: text/plain; charset=3Diso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nhttp://a.example/caf=3DE9/x=3D3Dy\n--D--\n";
    assert_eq!(
        parts_and_uris(message),
        ["text/plain http://a.example/caf%C3%A9/x=y"]
    );
}

/// URIs of the mail corpus that keep a `=3D` in mail mode because the
/// artifact is in the decoded text itself: a reply that quotes a message's
/// raw quoted-printable, a body encoded twice, a part whose encoding is
/// broken (or declared 8bit but mixed). Anything else with `=3D` is a
/// decoding bug.
const DECODED_TEXT_ARTIFACTS: &[(&str, &str)] = &[
    (
        "linux-uvc-devel/2006-January.txt",
        "http://sourceforge.net/cvs/?group_id=3D22870",
    ),
    (
        "linux-uvc-devel/2012-March.txt",
        "http://openfacts.berlios.de/index-en.phtml?title=3DLinux+UVC",
    ),
    (
        "spamassassin/spam-2/00069.27497d5d2f92837805b67e2bf31dfc71",
        "mailto:sam31t@alloymail=2Ecom?SUBJECT=3DMerchant",
    ),
    (
        "spamassassin/spam-2/00069.27497d5d2f92837805b67e2bf31dfc71",
        "mailto:mbmwpk@netscape=2Enet?subject=3Dremove",
    ),
    (
        "spamassassin/spam-2/00140.f690cb156c0b1223e763ab3c0b340c57",
        "mailto:carment5y@mail=2Ecom?SUBJECT=3DIEG",
    ),
    (
        "spamassassin/spam-2/00140.f690cb156c0b1223e763ab3c0b340c57",
        "mailto:carment5y@usa=2Ecom?subject=3Dremove",
    ),
    (
        "spamassassin/spam-2/00984.9521bd4c46b37f795efb665266cf5ab5",
        "http://www.digitalmortgage.cc/unsubscribe?email=3Djm@netnoteinc.com",
    ),
];

/// Over all of the shared mail corpus, mail mode reports no URI with a
/// quoted-printable `=3D` (encoders write upper-case hex; `q=3d-…` ids are
/// real) but the listed ones, where the plain reading has thousands.
#[test]
fn corpus_mail_has_no_quoted_printable_artifacts() {
    let Some(dir) = common::shared("corpus/mail") else {
        return;
    };
    let files = common::files_under(&dir);
    let (mut mail_uris, mut plain_artifacts) = (0, 0);
    let mut artifacts = Vec::new();
    for file in files {
        let bytes = fs::read(&file).unwrap();
        let name = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for line in scan(&bytes) {
            mail_uris += 1;
            let uri = line.rsplit(' ').next().unwrap();
            if uri.contains("=3D") {
                artifacts.push((name.clone(), uri.to_string()));
            }
        }
        plain_artifacts += Scanner::new()
            .find_iter(&bytes)
            .filter(|f| f.as_str().contains("=3D"))
            .count();
    }
    let expected: Vec<(String, String)> = DECODED_TEXT_ARTIFACTS
        .iter()
        .map(|&(f, u)| (f.to_string(), u.to_string()))
        .collect();
    assert_eq!(artifacts, expected);
    assert!(
        mail_uris > 100_000 && plain_artifacts > 1000,
        "{mail_uris} URIs, {plain_artifacts} artifacts in plain mode"
    );
}

#[test]
fn cli_reads_mail_by_content_and_reports_message_fields() {
    let qp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/mail/quoted-printable.eml"
    );
    let rows: Vec<serde_json::Value> = TestCommand::new()
        .args(["--json", qp])
        .stdout()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let body = rows
        .iter()
        .find(|r| r["part"] == "text/plain")
        .expect("a text/plain URI");
    // `line` and `column` are where the URI was written in the file (here
    // quoted-printable, cut by a soft break), the message's start apart.
    assert_eq!(body["message_line"], 1);
    assert_eq!((&body["line"], &body["column"]), (&89.into(), &1.into()));
    let file = fs::read_to_string(qp).unwrap();
    let (start, end) = (
        body["start"].as_u64().unwrap(),
        body["end"].as_u64().unwrap(),
    );
    let written = &file[start as usize..end as usize];
    assert!(file.lines().nth(88).unwrap().starts_with(&written[..30]));
    assert_eq!(
        written.replace("=\n", "").replace("=3D", "="),
        body["uri"].as_str().unwrap()
    );
    assert!(body["message_id"]
        .as_str()
        .is_some_and(|id| !id.is_empty() && !id.starts_with('<')));
    assert!(rows.iter().any(|r| r["part"]
        .as_str()
        .is_some_and(|p| p.starts_with("header:List-"))));
    let raw = TestCommand::new()
        .args(["--no-mail", "--json", qp])
        .stdout();
    assert!(!raw.contains("\"part\""));
    assert!(raw.contains("/thread/3="));
}

/// An mbox of `n` messages of every kind mail mode reads: plain text,
/// quoted-printable with a soft break inside a URI, multipart with an HTML
/// alternative, and a broken quoted-printable part that raises a warning.
fn generated_mbox(n: usize) -> (Vec<u8>, Vec<String>) {
    let mut mbox = Vec::new();
    let mut want = Vec::new();
    for i in 0..n {
        mbox.extend_from_slice(b"From a@example.org Mon Jan  1 00:00:00 2024\n");
        let m = match i % 4 {
            0 => {
                want.push(format!("http://plain.example/{i}"));
                format!("Message-ID: <m{i}@x>\nSubject: s\n\nsee http://plain.example/{i} now\n")
            }
            1 => {
                want.push(format!("http://qp.example/{i}/long?a=1"));
                format!("Message-ID: <m{i}@x>\nContent-Transfer-Encoding: quoted-printable\n\n<http://qp.example/{i}/lo=\nng?a=3D1>\n")
            }
            2 => {
                want.push(format!("http://text.example/{i}"));
                want.push(format!("http://html.example/{i}?a=1&b=2"));
                format!("Message-ID: <m{i}@x>\nContent-Type: multipart/alternative; boundary=B\n\n--B\nContent-Type: text/plain\n\nhttp://text.example/{i}\n--B\nContent-Type: text/html\n\n<a href=\"http://html.example/{i}?a=1&amp;b=2\">x</a>\n--B--\n")
            }
            _ => {
                want.push(format!("http://broken.example/{i}"));
                format!("Message-ID: <m{i}@x>\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nhttp://broken.example/{i} ==\n--B--\n")
            }
        };
        mbox.extend_from_slice(m.as_bytes());
        mbox.push(b'\n');
    }
    (mbox, want)
}

/// Mail is never binary: an attachment sent as `binary` may hold a NUL,
/// which made a walk skip the whole mbox (exit 1, no message) and a named
/// one stop at the NUL, losing every later message (a black-box run). A
/// file that is not mail with a NUL is still skipped.
#[test]
fn a_nul_in_a_binary_attachment_does_not_make_mail_binary() {
    let d = Dir::new();
    let mut mbox = b"From a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\
        Content-Type: multipart/mixed; boundary=B\n\n--B\n\
        Content-Type: text/plain\n\nsee http://one.example/a\n--B\n\
        Content-Type: application/octet-stream\nContent-Transfer-Encoding: binary\n\n"
        .to_vec();
    mbox.extend_from_slice(b"\x00\x01\x02binary\x00\n--B--\n\n");
    mbox.extend_from_slice(
        b"From b@x Mon Jan  1 00:00:00 2024\nSubject: two\n\nhttp://two.example/b\n",
    );
    d.create_bytes("mail/box.mbox", &mbox);
    d.create_bytes("mail/blob.bin", b"\x00http://blob.example/\n");
    let o = d.command().args(["-j1", "mail"]).run();
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (
            Some(0),
            "mail/box.mbox:http://one.example/a\nmail/box.mbox:http://two.example/b\n"
        )
    );
    let named = d.command().args(["-j2", "mail/box.mbox"]).run();
    assert_eq!(
        stdout(&named),
        "http://one.example/a\nhttp://two.example/b\n"
    );
    assert_eq!(String::from_utf8_lossy(&named.stderr), "");
}

/// One large mbox is scanned message by message on several threads: the
/// output (and the warnings) must be those of one thread, in file order,
/// over several groups of messages, from a file and from stdin.
#[test]
fn cli_scans_the_messages_of_one_mbox_in_parallel_in_file_order() {
    let (mbox, want) = generated_mbox(5000);
    let d = Dir::new();
    let path = d.create_bytes("big.mbox", &mbox);
    let run = |args: &[&str], stdin: bool| {
        let mut cmd = TestCommand::new();
        cmd.args(args);
        if stdin {
            cmd.stdin(&mbox[..]);
        } else {
            cmd.arg(&path);
        }
        let out = cmd.run();
        (stdout(&out), String::from_utf8(out.stderr).unwrap())
    };
    let (one, one_warnings) = run(&["-j1"], false);
    assert_eq!(one.lines().collect::<Vec<_>>(), want);
    assert_eq!(one_warnings.lines().count(), 5000 / 4, "{one_warnings}");
    for (args, stdin) in [(&["-j2"][..], false), (&["-j4"], true)] {
        let (many, many_warnings) = run(args, stdin);
        assert!(many == one, "{args:?} changed the output");
        let strip = |w: &str| w.replace(&path.display().to_string(), "<stdin>");
        assert_eq!(strip(&many_warnings), strip(&one_warnings), "{args:?}");
    }
    let (json_one, _) = run(&["-j1", "--json"], false);
    let (json_many, _) = run(&["-j2", "--json"], false);
    assert!(json_one == json_many);
    // The file cut into segments between messages: warnings and message
    // lines count on from the segments before.
    for size in ["1000", "65536"] {
        let (many, many_warnings) = run(&["-j3", "--segment-size", size], false);
        assert!(many == one, "segments of {size} changed the output");
        assert_eq!(many_warnings, one_warnings, "segments of {size}");
        let (json_many, _) = run(&["-j3", "--json", "--segment-size", size], false);
        assert!(json_one == json_many, "segments of {size} changed the JSON");
    }
}

/// The same URI in the text and the HTML alternative of a message: both
/// parts report it, and `-u` prints it once. `--mail` reads as mail an
/// input that does not look like it.
#[test]
fn cli_unique_across_alternatives_and_forced_modes() {
    let d = Dir::new();
    let alt = d.create(
        "alt.eml",
        "From: a@example.org\nSubject: s\nContent-Type: multipart/alternative; boundary=B\n\n--B\nContent-Type: text/plain\n\nhttps://example.org/page\n--B\nContent-Type: text/html\n\n<a href=\"https://example.org/page\">page</a>\n--B--\n",
    );
    // One usual header field only: not recognized as mail by content.
    let bare = d.create(
        "bare.txt",
        "Content-Transfer-Encoding: quoted-printable\n\n<https://example.org/a?b=3D1&c=\n=3D2>\n",
    );
    let run = |args: &[&str], path: &Path| TestCommand::new().args(args).arg(path).stdout();
    let parts: Vec<String> = run(&["--json"], &alt)
        .lines()
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).unwrap();
            format!(
                "{} {}",
                row["part"].as_str().unwrap(),
                row["uri"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            "text/plain https://example.org/page",
            "text/html https://example.org/page"
        ]
    );
    assert_eq!(run(&["-u"], &alt), "https://example.org/page\n");
    assert_eq!(run(&[], &bare), "https://example.org/a?b=3D1&c==3D2\n");
    assert_eq!(run(&["--mail"], &bare), "https://example.org/a?b=1&c=2\n");
}

/// Returns true if and only if `written`, the bytes of the file that mail
/// mode says a URI came from, holds `uri` as it was encoded: once
/// quoted-printable soft breaks, `=XX` escapes, character references,
/// line breaks and quote prefixes are undone, it starts and ends as the
/// URI does and holds its bytes in order; or, for base64, its groups
/// decode to text that holds the URI. The characters of an IRI that are
/// not ASCII (percent-encoded in `uri`) are not compared: a part's
/// charset writes them its own way.
fn written_holds(written: &[u8], uri: &str) -> bool {
    // A space in an HTML link is read as `%20`, as browsers read it, and
    // so are the other bytes they encode (`|`, `[`, …): compared decoded,
    // on both sides (a link may hold some encoded, some not).
    let read = browser_decoded(uri.as_bytes());
    let uri_read = String::from_utf8(read).expect("ASCII decoded from ASCII");
    uri_read != uri && holds_in_order(&browser_decoded(written), &uri_read)
        || holds_in_order(written, uri)
}

/// `text` with what browsers percent-encode in a link decoded (`%7C` is
/// `|`), and `%20` left out, as spaces are where it is compared.
fn browser_decoded(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let decoded = match text.get(i..i + 3) {
            Some(b"%20") => Some(None),
            Some(b"%22") => Some(Some(b'"')),
            Some(b"%5B") => Some(Some(b'[')),
            Some(b"%5D") => Some(Some(b']')),
            Some(b"%5E") => Some(Some(b'^')),
            Some(b"%60") => Some(Some(b'`')),
            Some(b"%7C") => Some(Some(b'|')),
            _ => None,
        };
        match decoded {
            Some(b) => {
                out.extend(b);
                i += 3;
            }
            None => {
                out.push(text[i]);
                i += 1;
            }
        }
    }
    out
}

/// [`written_holds`], for `uri` as it is.
fn holds_in_order(written: &[u8], uri: &str) -> bool {
    let uri = ascii_of(uri.as_bytes());
    let holds = |text: &[u8]| {
        let text = ascii_of(text);
        let mut rest = text.iter();
        text.first() == uri.first()
            && text.last() == uri.last()
            && uri.iter().all(|b| rest.any(|c| c == b))
    };
    written == uri
        || holds(&references_undone(written))
        || holds(&references_undone(&quoted_printable_undone(written)))
        || {
            // Base64 groups hold bytes before and after the URI, and a
            // legacy charset's characters may hold ASCII bytes: the URI's
            // bytes in order, from its scheme on, within twice its length.
            let text = ascii_of(&references_undone(&base64_decode(written)));
            let first = uri.iter().position(|&b| b == b':').unwrap_or(0) + 1;
            (0..text.len()).any(|at| {
                let within = &text[at..text.len().min(at + 2 * uri.len())];
                let mut rest = within.iter();
                within.starts_with(&uri[..first]) && uri.iter().all(|b| rest.any(|c| c == b))
            })
        }
}

/// `text` without its bytes outside ASCII, and without the
/// percent-encodings of such bytes (`%C3%A9`).
fn ascii_of(text: &[u8]) -> Vec<u8> {
    let mut ascii = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match &text[i..] {
            [b'%', hi, lo, ..] if (b'8'..=b'F').contains(hi) && lo.is_ascii_hexdigit() => i += 3,
            [b, ..] if !b.is_ascii() => i += 1,
            [b, ..] => {
                ascii.push(*b);
                i += 1;
            }
            [] => unreachable!(),
        }
    }
    ascii
}

/// `written` with quoted-printable soft breaks and `=XX` escapes undone.
fn quoted_printable_undone(written: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut sent = Vec::new();
    let mut i = 0;
    while i < written.len() {
        match &written[i..] {
            [b'=', b'\r', b'\n', ..] => i += 3,
            [b'=', b'\n', ..] => i += 2,
            [b'=', a, b, ..] if hex(*a).is_some() && hex(*b).is_some() => {
                sent.push((hex(*a).unwrap() * 16 + hex(*b).unwrap()) as u8);
                i += 3;
            }
            [b, ..] => {
                sent.push(*b);
                i += 1;
            }
            [] => unreachable!(),
        }
    }
    sent
}

/// `sent` with `&amp;` and numeric character references undone, and
/// without line breaks, blanks and quote prefixes.
fn references_undone(sent: &[u8]) -> Vec<u8> {
    let mut text = Vec::new();
    let mut i = 0;
    while i < sent.len() {
        match &sent[i..] {
            [b'&', b'a', b'm', b'p', b';', ..] => {
                text.push(b'&');
                i += 5;
            }
            [b'&', b'#', rest @ ..] if rest.contains(&b';') => {
                let semi = rest.iter().position(|&b| b == b';').unwrap();
                let number = std::str::from_utf8(&rest[..semi]).unwrap_or("");
                let code = match number.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => number.parse().ok(),
                };
                match code.and_then(char::from_u32) {
                    Some(c) => text.extend_from_slice(c.to_string().as_bytes()),
                    None => text.extend_from_slice(b"&#"),
                }
                i += 2 + if code.is_some() { semi + 1 } else { 0 };
            }
            [b, ..] => {
                if !matches!(b, b'\r' | b'\n' | b' ' | b'\t' | b'>') {
                    text.push(*b);
                }
                i += 1;
            }
            [] => unreachable!(),
        }
    }
    text
}

/// Standard base64, skipping line breaks and blanks.
fn base64_decode(text: &[u8]) -> Vec<u8> {
    let value = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let symbols: Vec<u8> = text.iter().filter_map(|&b| value(b)).collect();
    symbols
        .chunks(4)
        .flat_map(|g| {
            let n = g.iter().fold(0u32, |n, &v| n << 6 | u32::from(v)) << (6 * (4 - g.len()));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes[..g.len().saturating_sub(1)].to_vec()
        })
        .collect()
}

/// Checks every URI mail mode finds in `bytes` against the file's own
/// bytes at its span, and its line against the span's first byte; returns
/// how many were checked and the ones placed at a part's start instead
/// (parts in UTF-16, UTF-32 or UTF-7, which only the MIME parser decodes).
fn check_positions(name: &str, bytes: &[u8]) -> (usize, usize) {
    let (mut checked, mut at_part_start) = (0, 0);
    let breaks: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect();
    mail::scan_mail(&Scanner::new(), bytes, |f: &Found<'_>| {
        let span = f.span();
        let before = breaks.partition_point(|&nl| nl < span.start);
        assert_eq!(
            f.line(),
            1 + before as u64,
            "{name}: line of {}",
            f.as_str()
        );
        let line_start = before.checked_sub(1).map_or(0, |i| breaks[i] + 1);
        let column = (span.start - line_start + 1) as u64;
        assert_eq!(f.column(), column, "{name}: column of {}", f.as_str());
        if span.is_empty() {
            at_part_start += 1;
        } else {
            let written = &bytes[span.start..span.end];
            // A `#` read as `%23` is compared as written.
            let text = f.iri().filter(|iri| iri.is_ascii()).unwrap_or(f.as_str());
            assert!(
                written_holds(written, text),
                "{name}: {} placed at {}:{} on {:?}",
                f.as_str(),
                f.line(),
                f.column(),
                String::from_utf8_lossy(written)
            );
        }
        checked += 1;
        Ok(true)
    })
    .unwrap();
    (checked, at_part_start)
}

/// Line numbers mean file lines: every URI of the mail fixtures, and of
/// every file of `../shared/corpus/mail`, is reported at the line, column
/// and span of the file where its text was written (quoted-printable,
/// base64, flowed, HTML, headers, forwarded messages alike).
#[test]
fn every_uri_in_mail_is_placed_where_it_was_written() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mail");
    let mut files = common::files_under(&fixtures);
    if let Some(corpus) = common::shared("corpus/mail") {
        files.extend(common::files_under(&corpus));
    }
    let (mut checked, mut at_part_start) = (0, 0);
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let (c, s) = check_positions(&path.display().to_string(), &bytes);
        checked += c;
        at_part_start += s;
    }
    eprintln!("{checked} URIs placed, {at_part_start} at their part's start");
    assert!(checked > 0);
    assert!(
        at_part_start * 1000 < checked.max(1),
        "{at_part_start} of {checked}"
    );
}
