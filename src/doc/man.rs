//! What a reader sees of a man page's roff source: its text, with roff's
//! escapes read as roff reads them, so that `http://ftp\&.de\&.debian.org/`
//! is one URI and `\fIftp://ftp.gnu.org/\fP` starts at its scheme.
//!
//! - `\-` is `-`, `\e` and `\\` are `\`, `\.` is `.`, `\ ` and `\~` are a
//!   space; `\&`, `\:`, `\%`, `\|`, `\^`, `\/`, `\,`, `\c` are nothing.
//! - Font, size and colour changes (`\fB`, `\f(CW`, `\f[BI]`, `\s-1`,
//!   `\m[red]`) are nothing; so are string and register interpolations
//!   (`\*(lq`, `\n[x]`) but the quotes of pod2man and man-pages
//!   (`\*(lq`, `\*(rq`, `\*(Aq`), and escapes with a quoted argument
//!   (`\h'1m'`, `\w'…'`).
//! - Special characters (`\(aq`, `\(dq`, `\(ti`, `\[hy]`, …) are the ASCII
//!   they stand for where there is one (`'`, `"`, `~`, `-`, …), otherwise
//!   a space; comments (`\"`, `\#`, `.\"`) are nothing.
//! - A request or macro line (`.B text`, `.UR http://…`) gives its
//!   arguments; its name is read as a space.
//!
//! Any other escape `\x` is `x`.

use crate::reading::Reading;

/// Returns what a reader sees of the roff source `roff`.
pub(crate) fn read(roff: &[u8]) -> Reading {
    let mut out = Reading {
        text: Vec::with_capacity(roff.len()),
        ..Reading::default()
    };
    let mut at = 0;
    while at < roff.len() {
        let end = memchr::memchr(b'\n', &roff[at..]).map_or(roff.len(), |p| at + p + 1);
        line(roff, at, end, &mut out);
        at = end;
    }
    out
}

/// Reads the line `roff[start..end]` (with its `\n`, if any).
fn line(roff: &[u8], start: usize, end: usize, out: &mut Reading) {
    let mut at = start;
    if matches!(roff.get(at), Some(b'.' | b'\'')) {
        // A request or macro: its name is read as a space.
        at += 1;
        at += roff[at..end]
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        if roff[at..end].starts_with(b"\\\"") {
            return; // a comment line
        }
        at += roff[at..end]
            .iter()
            .take_while(|b| !b.is_ascii_whitespace())
            .count();
        out.separator(b' ', at);
    }
    while at < end {
        let Some(p) = memchr::memchr(b'\\', &roff[at..end]) else {
            out.copy(&roff[at..end], at);
            return;
        };
        out.copy(&roff[at..at + p], at);
        at += p;
        at = escape(roff, at, end, out);
    }
}

/// Reads the escape at `roff[at] == b'\\'`, in a line ending at `end`;
/// returns where the text after it starts.
fn escape(roff: &[u8], at: usize, end: usize, out: &mut Reading) -> usize {
    let Some(&c) = roff.get(at + 1).filter(|_| at + 1 < end) else {
        return end; // `\` at the end of a line joins it with the next
    };
    if c == b'\n' {
        return at + 2; // an escaped newline joins the lines
    }
    let after = at + 2;
    let nothing = |len: usize| after + len;
    match c {
        b'-' | b'.' | b'\'' | b'`' => {
            out.decoded(&[c], at, 2);
            after
        }
        b'e' | b'\\' => {
            out.decoded(b"\\", at, 2);
            after
        }
        b' ' | b'~' | b'0' => {
            out.decoded(b" ", at, 2);
            after
        }
        b'&' | b':' | b'%' | b'|' | b'^' | b'/' | b',' | b'c' | b'!' | b')' => after,
        b'"' => end - usize::from(roff[end - 1] == b'\n'), // a comment
        b'#' => end,                                       // a comment, with its newline
        b'f' | b'F' | b's' | b'm' | b'M' | b'n' | b'g' | b'k' | b'z' => {
            let mut len = name_len(roff, after, end);
            if c == b's' && matches!(roff.get(after), Some(b'+' | b'-')) {
                len = 1 + name_len(roff, after + 1, end);
            }
            nothing(len)
        }
        b'*' => {
            let len = name_len(roff, after, end);
            let name = name_of(&roff[after..after + len]);
            match name {
                b"lq" | b"rq" | b"Lq" | b"Rq" => out.decoded(b"\"", at, 2 + len),
                b"Aq" | b"aq" => out.decoded(b"'", at, 2 + len),
                _ => {}
            }
            nothing(len)
        }
        b'(' | b'[' => {
            let len = name_len(roff, at + 1, end);
            let name = name_of(&roff[at + 1..at + 1 + len]);
            out.decoded(special(name), at, 1 + len);
            at + 1 + len
        }
        b'h' | b'v' | b'w' | b'o' | b'X' | b'l' | b'L' | b'D' | b'b' | b'x' | b'Z' | b'R'
        | b'A' | b'B' | b'N' | b'C' | b'V' | b'Y' | b'S' => {
            // An argument in quotes (or another delimiter), left out.
            match roff.get(after) {
                Some(&d) if after < end && !d.is_ascii_alphanumeric() || d == b'\'' => {
                    let close = roff[after + 1..end].iter().position(|&b| b == d);
                    close.map_or(end, |p| after + 1 + p + 1)
                }
                _ => after,
            }
        }
        _ => {
            out.decoded(&[c], at, 2);
            after
        }
    }
}

/// The length of the name after an escape such as `\f` or `\*`, at
/// `roff[at]`: one character, `(xx`, or `[name]`.
fn name_len(roff: &[u8], at: usize, end: usize) -> usize {
    match roff.get(at) {
        Some(_) if at >= end => 0,
        Some(b'(') => 3.min(end - at),
        Some(b'[') => roff[at..end]
            .iter()
            .position(|&b| b == b']')
            .map_or(end - at, |p| p + 1),
        Some(b'\n') | None => 0,
        Some(_) => 1,
    }
}

/// The name in a `(xx`, `[name]` or `x` written after an escape.
fn name_of(written: &[u8]) -> &[u8] {
    match written.first() {
        Some(b'(') => &written[1..],
        Some(b'[') => &written[1..written.len().saturating_sub(1).max(1)],
        _ => written,
    }
}

/// What a special character (`\(xx`, `\[name]`) reads as: its ASCII
/// form, or a space.
fn special(name: &[u8]) -> &'static [u8] {
    match name {
        b"aq" | b"cq" | b"oq" => b"'",
        b"dq" | b"lq" | b"rq" | b"Fo" | b"Fc" => b"\"",
        b"ti" | b"ap" => b"~",
        b"ha" | b"a^" => b"^",
        b"ga" => b"`",
        b"hy" | b"mi" | b"en" | b"-" => b"-",
        b"sl" => b"/",
        b"rs" => b"\\",
        b"at" => b"@",
        b"sh" => b"#",
        b"Do" => b"$",
        b"pc" => b".",
        b"lB" => b"[",
        b"rB" => b"]",
        b"lC" => b"{",
        b"rC" => b"}",
        b"la" => b"<",
        b"ra" => b">",
        b"ba" | b"or" => b"|",
        b"eq" => b"=",
        b"pl" => b"+",
        _ => b" ",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    /// The URIs found in what a reader sees of `roff`, each with the
    /// source it was read from.
    fn found(roff: &str) -> Vec<(String, String)> {
        let r = read(roff.as_bytes());
        crate::Scanner::new()
            .find_iter(&r.text)
            .map(|f| {
                let s = r.map.span(f.span());
                (f.as_str().to_string(), roff[s.start..s.end].to_string())
            })
            .collect()
    }

    #[test]
    fn escapes_are_read_as_roff_reads_them() {
        assert_eq!(
            found("See http://ftp\\&.de\\&.debian.org/debian\\-ports/ now.\n"),
            [(
                "http://ftp.de.debian.org/debian-ports/".to_string(),
                "http://ftp\\&.de\\&.debian.org/debian\\-ports/".to_string()
            )]
        );
        assert_eq!(
            found("at \\fIftp://ftp.gnu.org/pub/gnu/bash/\\fP.\n")[0].0,
            "ftp://ftp.gnu.org/pub/gnu/bash/"
        );
        assert_eq!(
            found(".UR https://www.kernel.org/doc/man\\-pages/\n.UE .\n")[0].0,
            "https://www.kernel.org/doc/man-pages/"
        );
        assert_eq!(
            found("\\f(CWhttp://a.example/b\\e.c\\:d\\fR and \\f[B]http://b.example/\\f[]\n")
                .into_iter()
                .map(|(u, _)| u)
                .collect::<Vec<_>>(),
            ["http://a.example/b", "http://b.example/"]
        );
        assert_eq!(
            found(".\\\" http://comment.example/\ntext \\\" http://comment.example/\n"),
            []
        );
        assert_eq!(
            found(".B \"http://q.example/x\\(tiy\"\n")[0].0,
            "http://q.example/x~y"
        );
    }

    #[test]
    fn broken_escapes_never_panic() {
        for roff in [
            "\\", "\\f", "\\(", "\\[", "\\*[", "\\h'", "\\s-", ".", ".\\", "\\\n\\",
        ] {
            let r = read(roff.as_bytes());
            let _ = r.map.span(Span::new(0, r.text.len()));
        }
    }
}
