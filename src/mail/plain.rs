//! The fast path for messages that need no decoding: one text/plain part
//! in 7bit or 8bit, not flowed. Their URIs are the URIs of their raw bytes
//! (URIs are ASCII, which every 8-bit charset keeps as it is), so MIME
//! parsing is skipped.

/// A message that needs no decoding: its headers and its body.
pub struct Plain<'a> {
    /// `(name, raw value)` of each header, folded lines included.
    pub headers: Vec<(&'a str, &'a [u8])>,
    pub body: &'a [u8],
    /// The `Message-ID`, without its angle brackets.
    pub message_id: Option<&'a str>,
}

/// Returns the message split into headers and body when it needs no
/// decoding, `None` when it must go through the MIME parser.
pub fn split(raw: &[u8]) -> Option<Plain<'_>> {
    let (head, body) = match memchr::memmem::find(raw, b"\n\n") {
        Some(p) => (&raw[..p + 1], &raw[p + 2..]),
        None => match memchr::memmem::find(raw, b"\n\r\n") {
            Some(p) => (&raw[..p + 1], &raw[p + 3..]),
            None => (raw, &raw[raw.len()..]),
        },
    };
    let mut headers: Vec<(&str, &[u8])> = Vec::new();
    let mut message_id = None;
    let mut start = 0;
    while start < head.len() {
        // A header runs to the next line that does not start with a space.
        let mut end = start;
        loop {
            end = memchr::memchr(b'\n', &head[end..]).map_or(head.len(), |p| end + p + 1);
            if end >= head.len() || !matches!(head[end], b' ' | b'\t') {
                break;
            }
        }
        let field = &head[start..end];
        start = end;
        let colon = memchr::memchr(b':', field)?;
        let name = std::str::from_utf8(&field[..colon]).ok()?;
        if name.is_empty() || name.bytes().any(|b| !b.is_ascii_graphic()) {
            return None;
        }
        let value = &field[colon + 1..];
        let text = || String::from_utf8_lossy(value).trim().to_ascii_lowercase();
        if name.eq_ignore_ascii_case("content-type") {
            let ct = text();
            if !ct.starts_with("text/plain")
                || ct.contains("flowed")
                || ct.contains("utf-16")
                || ct.contains("utf-32")
                || ct.contains("utf-7")
            {
                return None;
            }
        } else if name.eq_ignore_ascii_case("content-transfer-encoding") {
            if !matches!(text().as_str(), "7bit" | "8bit" | "binary") {
                return None;
            }
        } else if name.eq_ignore_ascii_case("message-id") {
            let v = std::str::from_utf8(value).ok()?.trim();
            message_id = Some(v.trim_start_matches('<').trim_end_matches('>'));
        }
        headers.push((name, value));
    }
    Some(Plain {
        headers,
        body,
        message_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_messages_that_need_no_decoding_take_the_fast_path() {
        let simple = b"Message-ID: <a@b>\nSubject: see\n http://x.org/\nContent-Type: text/plain; charset=iso-8859-1\n\nbody\n";
        let p = split(simple).expect("simple");
        assert_eq!(p.message_id, Some("a@b"));
        assert_eq!(p.headers.len(), 3);
        assert_eq!(p.headers[1], ("Subject", &b" see\n http://x.org/\n"[..]));
        assert_eq!(p.body, b"body\n");
        for needs_decoding in [
            &b"Content-Type: text/html\n\nx"[..],
            b"Content-Transfer-Encoding: quoted-printable\n\nx",
            b"Content-Type: text/plain; format=flowed\n\nx",
            b"Content-Type: multipart/mixed; boundary=x\n\nx",
            b"not a header line\n\nx",
        ] {
            assert!(
                split(needs_decoding).is_none(),
                "{:?}",
                String::from_utf8_lossy(needs_decoding)
            );
        }
    }
}
