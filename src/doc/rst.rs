//! What a reader sees of a reStructuredText document (`*.rst`): its text
//! with code told apart and comments left out, and the links its markup
//! names. A link checker fed a project's docs wants the links a reader can
//! follow, not the hosts of its examples.
//!
//! One pass over the lines, as docutils reads them, for what bears on
//! links (the rest is text, scanned as it is written):
//!
//! - **Code**: a literal block (the block after a paragraph that ends
//!   with `::`, indented deeper than the paragraph's body, or quoted: each
//!   line starting with the same mark), the content of a code directive (`code-block`,
//!   `code`, `sourcecode`, `doctest`, `testcode`, …; see
//!   [`is_code_directive`]), a doctest block (`>>>`), an inline literal
//!   (` ``…`` `) and the text of a code role (`:code:`, `:samp:`, …).
//! - **Comments** (`.. ` followed by nothing a directive, target,
//!   substitution or footnote starts with, and the block indented under
//!   it) are not read, as an HTML comment is not.
//! - **Links**: an embedded URI (`` `text <https://…>`_ ``, `__` too), a
//!   hyperlink target (`.. _name: https://…`, `__ https://…`), an image's
//!   or figure's URI and its `:target:`. reST removes the whitespace in
//!   them, so one wrapped over lines, or written with a space, is one link
//!   (`<https://a.example/guide/ install.html>`). A reference to another
//!   target (`<name_>`, `.. _a: b_`) is not a link. A target's name and a
//!   reference's embedded URI are not text; its label is.
//! - **Escapes**: a backslash escape stands for the byte it escapes; in
//!   text an escaped blank is removed with its backslash, in a link it is
//!   kept (`a\ b` is `a%20b`), as docutils reads them.
//!
//! *Judgement calls:* comments are not links a reader sees, whatever they
//! hold (a licence's URL in a file header, a badge commented out). The
//! roles Sphinx turns into links (`:pep:`, `:rfc:`, `:doc:`) name no URI
//! as written, and bare e-mail addresses are not URIs: none is made up.
//! Grid tables' borders and CR-only line ends are not read as docutils
//! reads them (none was seen in 7,386 real files).

use std::ops::Range;

use super::lines::{Line, NextMatch};
use crate::reading::{Reading, Reference};
use crate::span::Span;

/// Returns what a reader sees of the reST source `rst`.
pub(crate) fn read(rst: &[u8]) -> Reading {
    let mut reader = Reader {
        src: rst,
        out: Reading {
            text: Vec::with_capacity(rst.len()),
            ..Reading::default()
        },
    };
    reader.blocks();
    reader.out
}

/// Returns true if the content of the directive `name` is code: shown
/// as written, an example (Sphinx's and docutils' code directives, doctest
/// and IPython's).
fn is_code_directive(name: &[u8]) -> bool {
    matches!(
        name,
        b"code"
            | b"code-block"
            | b"sourcecode"
            | b"literalinclude"
            | b"doctest"
            | b"testcode"
            | b"testoutput"
            | b"testsetup"
            | b"testcleanup"
            | b"ipython"
            | b"jupyter-execute"
            | b"productionlist"
            | b"math"
    )
}

/// Returns true if the role `name` marks its text as code.
fn is_code_role(name: &[u8]) -> bool {
    matches!(
        name,
        b"code" | b"literal" | b"samp" | b"file" | b"command" | b"program" | b"kbd" | b"envvar"
    )
}

struct Reader<'a> {
    src: &'a [u8],
    out: Reading,
}

impl Reader<'_> {
    /// The line that starts at `start`, if the source goes on there.
    fn line(&self, start: usize) -> Option<Line> {
        Line::starting(self.src, start)
    }

    /// The lines from `from` up to `to`.
    fn lines(&self, from: usize, to: usize) -> impl Iterator<Item = Line> + '_ {
        std::iter::successors(self.line(from), move |l| self.line(l.next))
            .take_while(move |l| l.start < to)
    }

    /// Reads the lines, block by block. Every function that reads a block
    /// returns where the line after it starts, past every line it looked
    /// at but the last, so that each line is looked at a bounded number of
    /// times.
    fn blocks(&mut self) {
        let mut at = 0;
        // The indentation of the paragraph's body, after a paragraph ending
        // with `::` (and blank lines): a literal block is indented deeper,
        // or quoted at it.
        let mut literal_after: Option<usize> = None;
        while let Some(line) = self.line(at) {
            if line.is_blank() {
                self.copy(line.start, line.next);
                at = line.next;
                continue;
            }
            if let Some(base) = literal_after.take() {
                if line.indent > base {
                    at = self.code_block(line, base);
                    continue;
                }
                if line.indent == base && self.src[line.text].is_ascii_punctuation() {
                    at = self.quoted_block(line);
                    continue;
                }
            }
            let text = &self.src[line.text..line.end];
            at = if is_explicit_markup(text) {
                self.explicit_markup(line)
            } else if text.starts_with(b"__ ") {
                self.target(line, line.text + 3)
            } else if text == b">>>" || text.starts_with(b">>> ") {
                // A doctest block runs to the next blank line.
                let end = self.paragraph_end(line);
                self.code(line.start, end);
                end
            } else {
                let end = self.paragraph_end(line);
                self.inline(line.start, end);
                let last = self.lines(line.start, end).last().unwrap_or(line);
                if self.src[..last.end].ends_with(b"::") {
                    let body = self.body_indent(line);
                    let last_indent = if last.start == line.start {
                        body
                    } else {
                        last.indent
                    };
                    literal_after = Some(body.min(last_indent));
                }
                end
            };
        }
    }

    /// Where the paragraph whose first line is `first` ends: at the next
    /// blank line (a `..` line within it is its text, as docutils reads it).
    fn paragraph_end(&self, first: Line) -> usize {
        self.lines(first.next, self.src.len())
            .find(Line::is_blank)
            .map_or(self.src.len(), |l| l.start)
    }

    /// Where the block indented deeper than `indent` that follows the line
    /// ending at `from` ends: past its last line that is not blank, before
    /// the first line after it that is not blank and not indented deeper
    /// (blank lines at its end are left after it).
    fn indented_end(&self, from: usize, indent: usize) -> usize {
        let mut end = from;
        for l in self.lines(from, self.src.len()) {
            if !l.is_blank() {
                if l.indent <= indent {
                    break;
                }
                end = l.next;
            }
        }
        end
    }

    /// Reads the literal block whose first line is `first`, after a
    /// paragraph whose body is indented `base` columns: code, up to the
    /// first line indented no deeper than that.
    fn code_block(&mut self, first: Line, base: usize) -> usize {
        let end = self.indented_end(first.next, base);
        self.code(first.start, end);
        end
    }

    /// Reads the quoted literal block whose first line is `first` (each
    /// line starts with the punctuation it starts with, not indented):
    /// code, up to the first line that does not.
    fn quoted_block(&mut self, first: Line) -> usize {
        let quote = self.src[first.text];
        let end = self
            .lines(first.next, self.src.len())
            .find(|l| l.is_blank() || l.indent != first.indent || self.src[l.text] != quote)
            .map_or(self.src.len(), |l| l.start);
        self.code(first.start, end);
        end
    }

    /// The column where the body of the paragraph whose first line is
    /// `first` starts: past a list item's bullet or enumerator, or a
    /// field's name, and the blanks after it (`- Install it::` has its
    /// body at 2).
    fn body_indent(&self, first: Line) -> usize {
        let text = &self.src[first.text..first.end];
        let marker = match text {
            [b'-' | b'*' | b'+', b' ', ..] => 1,
            [b'#', b'.', b' ', ..] => 2,
            [letter, b'.' | b')', b' ', ..] if letter.is_ascii_alphabetic() => 2,
            [b':', name @ ..] => memchr::memmem::find(name, b": ").map_or(0, |p| p + 2),
            _ => {
                let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
                match text[digits..] {
                    [b'.' | b')', b' ', ..] if digits > 0 => digits + 1,
                    _ => 0,
                }
            }
        };
        if marker == 0 {
            return first.indent;
        }
        let blanks = text[marker..].iter().take_while(|&&b| b == b' ').count();
        first.indent + marker + blanks
    }

    /// Reads the explicit markup block (`.. …`) whose first line is `line`.
    fn explicit_markup(&mut self, line: Line) -> usize {
        let rest = &self.src[line.text + 2..line.end];
        let body = rest.trim_ascii_start();
        let body_at = line.end - body.len();
        if body.starts_with(b"_") {
            if let Some(value) = target_value(self.src, body_at, line.end) {
                return self.target(line, value);
            }
        }
        if body.starts_with(b"[") {
            // A footnote or a citation: text.
            self.inline(line.start, line.next);
            return line.next;
        }
        let directive_at = match body.strip_prefix(b"|") {
            // A substitution definition names its directive after `|name|`.
            Some(sub) => memchr::memchr(b'|', sub).map(|p| {
                let after = &self.src[body_at + p + 2..line.end];
                line.end - after.trim_ascii_start().len()
            }),
            None => Some(body_at),
        };
        if let Some((name, argument)) =
            directive_at.and_then(|at| directive(self.src, at, line.end))
        {
            let name = &self.src[name];
            if name == b"image" || name == b"figure" {
                return self.image(line, argument);
            }
            self.inline(line.start, line.next);
            if is_code_directive(name) {
                let end = self.indented_end(line.next, line.indent);
                self.code(line.next, end);
                return end;
            }
            // Any other directive's argument and content are text.
            return line.next;
        }
        // A comment, with the block indented under it; an empty one
        // followed by a blank line holds nothing.
        let end = if body.is_empty() && self.line(line.next).is_none_or(|l| l.is_blank()) {
            line.next
        } else {
            self.indented_end(line.next, line.indent)
        };
        self.out.separator(b'\n', line.start);
        end
    }

    /// Reads the hyperlink target on `line` whose value starts at `value`
    /// (`.. _name: VALUE`, `__ VALUE`), with its continuation lines.
    fn target(&mut self, line: Line, value: usize) -> usize {
        let end = self.continuation_end(line.next, line.indent, |_| true);
        self.link_over_lines(line, value, end);
        end
    }

    /// Adds the link written from `value` to the end of `line` and on the
    /// lines after it up to `end` (a target's, an image's argument, an
    /// option's value), which stand for nothing in the text.
    fn link_over_lines(&mut self, line: Line, value: usize, end: usize) {
        let lines = self.lines(line.next, end).map(|l| l.text..l.end);
        let pieces: Vec<_> = std::iter::once(value..line.end).chain(lines).collect();
        self.reference(pieces, None);
        self.out.separator(b'\n', line.start);
    }

    /// Where the lines from `from` on that continue a line indented
    /// `indent` columns end: at a blank line, a line not indented deeper,
    /// or one that `continues` refuses. Only the lines it takes, and the
    /// one after them, are looked at.
    fn continuation_end(
        &self,
        from: usize,
        indent: usize,
        continues: impl Fn(&Line) -> bool,
    ) -> usize {
        self.lines(from, self.src.len())
            .find(|l| l.is_blank() || l.indent <= indent || !continues(l))
            .map_or(self.src.len(), |l| l.start)
    }

    /// Reads an image or figure directive on `line`, whose argument (its
    /// URI) starts at `argument`: the argument, over the lines up to a
    /// blank one or an option, and the `:target:` option are links; the
    /// other options are text. Returns where its options end: a figure's
    /// caption, after a blank line, is read as text, as any directive's
    /// content (a nested figure in it is read where it stands).
    fn image(&mut self, line: Line, argument: usize) -> usize {
        let is_option = |l: &Line| self.src[l.text..l.end].starts_with(b":");
        let options = self.continuation_end(line.next, line.indent, |l| !is_option(l));
        self.link_over_lines(line, argument, options);
        let mut at = options;
        while let Some(option) = self
            .line(at)
            .filter(|l| !l.is_blank() && l.indent > line.indent)
        {
            let value_end = self.continuation_end(option.next, option.indent, |_| true);
            let text = &self.src[option.text..option.end];
            match text.strip_prefix(b":target:") {
                Some(rest) => {
                    let value = option.end - rest.trim_ascii_start().len();
                    self.link_over_lines(option, value, value_end);
                }
                None => self.inline(option.start, value_end),
            }
            at = value_end;
        }
        at
    }

    /// Adds the link written in the source ranges `pieces` (a target's or
    /// an embedded URI's lines), with the whitespace reST removes left out
    /// (a line break kept as `\n`, which a browser's reading removes, so
    /// that the link is known to be wrapped); `label` is the stretch of
    /// text that is its label. An empty one, or one that names another
    /// target (`name_`), is no link.
    fn reference(&mut self, pieces: impl IntoIterator<Item = Range<usize>>, label: Option<Span>) {
        let src = self.src;
        let mut value = Vec::new();
        let mut source: Option<Span> = None;
        // Whether the last byte of `value` was escaped (`\_`).
        let mut escaped = false;
        for piece in pieces {
            crate::work::examined(piece.len());
            let mut k = piece.start;
            while k < piece.end {
                // A backslash escape stands for the byte after it, a blank
                // too (`a\ b` is `a b`); other blanks are left out.
                let (byte, len) = match src[k] {
                    b'\\' if k + 1 < piece.end => (src[k + 1], 2),
                    b if b.is_ascii_whitespace() => {
                        k += 1;
                        continue;
                    }
                    b => (b, 1),
                };
                if let Some(s) = source.filter(|s| s.end < k) {
                    if memchr::memchr(b'\n', &src[s.end..k]).is_some() {
                        value.push(b'\n');
                    }
                }
                value.push(byte);
                escaped = len == 2;
                source = Some(Span::new(source.map_or(k, |s| s.start), k + len));
                k += len;
            }
        }
        let Some(source) = source else {
            return;
        };
        let value = String::from_utf8_lossy(&value).into_owned();
        if !escaped && names_a_target(&value) {
            return;
        }
        self.out.refs.push(Reference {
            value,
            source,
            label: label.filter(|l| l.start < l.end),
        });
    }

    /// Appends `src[from..to]` as it is.
    fn copy(&mut self, from: usize, to: usize) {
        self.out.copy(&self.src[from..to], from);
    }

    /// Appends `src[from..to]` as code.
    fn code(&mut self, from: usize, to: usize) {
        self.out.copy_code(&self.src[from..to], from);
    }

    /// Appends the text `src[from..to]` (whole lines) with its inline
    /// markup read: literals and code roles are code, an embedded URI is a
    /// link (its label text), the rest is copied.
    fn inline(&mut self, from: usize, to: usize) {
        let src = self.src;
        let mut copied = from;
        let mut at = from;
        let mut literal_ends = NextMatch::new(move |k| literal_end(src, k, to));
        let mut interpreted_ends = NextMatch::new(move |k| interpreted_end(src, k, to));
        while let Some(p) = memchr::memchr2(b'`', b'\\', &src[at..to]) {
            crate::work::examined(p + 1);
            let tick = at + p;
            at = tick + 1;
            if src[tick] == b'\\' {
                // A backslash escape: the byte after it, as written, but a
                // blank, removed with it (`H\ :sub:`2`\ O`); one that ends a
                // line is left as written (a line continuation).
                let Some(&escaped) = src.get(tick + 1).filter(|_| tick + 1 < to) else {
                    continue;
                };
                if matches!(escaped, b'\n' | b'\r') {
                    continue;
                }
                self.copy(copied, tick);
                let decoded: &[u8] = if matches!(escaped, b' ' | b'\t') {
                    b""
                } else {
                    &src[tick + 1..tick + 2]
                };
                self.out.decoded(decoded, tick, 2);
                copied = tick + 2;
                at = copied;
                continue;
            }
            if !starts_inline_markup(src, from, tick) {
                continue;
            }
            if src.get(tick + 1) == Some(&b'`') {
                // An inline literal: ``…``.
                let Some(close) = literal_ends.at_or_after(tick + 3) else {
                    at = tick + 2;
                    continue;
                };
                self.copy(copied, tick);
                self.out.separator(b' ', tick);
                self.code(tick + 2, close);
                self.out.separator(b' ', close);
                copied = close + 2;
                at = copied;
                continue;
            }
            let Some(close) = interpreted_ends.at_or_after(tick + 2) else {
                continue;
            };
            let role = role_before(src, copied, tick);
            let after = close + 1;
            let link_suffix = match &src[after..to] {
                s if s.starts_with(b"__") => 2,
                s if s.starts_with(b"_") => 1,
                _ => 0,
            };
            let content = tick + 1..close;
            if let Some(role) = role
                .clone()
                .filter(|r| is_code_role(&src[r.start + 1..r.end - 1]))
            {
                self.copy(copied, role.start);
                self.out.separator(b' ', role.start);
                self.code(content.start, content.end);
                self.out.separator(b' ', close);
                copied = after;
                at = after;
                continue;
            }
            // Interpreted text is read whole, as docutils reads it: a
            // backquote in it opens nothing.
            at = after + link_suffix;
            // A role's `<…>` names what the role refers to (`:doc:`, `:ref:`):
            // only a hyperlink reference embeds a URI.
            if link_suffix == 0 || role.is_some() {
                continue;
            }
            let Some(lt) = embedded_start(src, content.clone()) else {
                continue;
            };
            // `label <URI>`_: the label is text, the URI a link.
            let label_end = src[content.start..lt].trim_ascii_end().len() + content.start;
            self.copy(copied, tick);
            self.out.separator(b' ', tick);
            let label_start = self.out.text.len();
            self.copy(content.start, label_end);
            let label = Span::new(label_start, self.out.text.len());
            self.reference(std::iter::once(lt + 1..close - 1), Some(label));
            self.out.separator(b' ', lt);
            copied = after + link_suffix;
            at = copied;
        }
        self.copy(copied, to);
    }
}

/// Returns true if a line whose text is `text` starts explicit markup
/// (`..` and a blank, or `..` alone).
fn is_explicit_markup(text: &[u8]) -> bool {
    text == b".." || text.starts_with(b".. ")
}

/// Where the value of the hyperlink target whose name starts at
/// `src[at] == b'_'` starts (`_name: VALUE`, `` _`a name`: VALUE ``,
/// `__: VALUE`), in a line ending at `end`; `None` when no `:` ends its
/// name (a comment).
fn target_value(src: &[u8], at: usize, end: usize) -> Option<usize> {
    let name = &src[at + 1..end];
    let colon = if name.starts_with(b"`") {
        let close = memchr::memchr(b'`', &name[1..])? + 1;
        (name.get(close + 1) == Some(&b':')).then_some(close + 1)?
    } else {
        let mut k = 0;
        loop {
            let c = k + memchr::memchr(b':', &name[k..])?;
            let escaped = c > 0 && name[c - 1] == b'\\';
            if !escaped && name.get(c + 1).is_none_or(u8::is_ascii_whitespace) {
                break c;
            }
            k = c + 1;
        }
    };
    let value = at + 1 + colon + 1;
    Some(end - src[value..end].trim_ascii_start().len())
}

/// The name of the directive written at `src[at..end]` (`name:: argument`)
/// and where its argument starts, if it is one.
fn directive(src: &[u8], at: usize, end: usize) -> Option<(Range<usize>, usize)> {
    let text = &src[at..end];
    let len = memchr::memmem::find(text, b"::")?;
    let name_ok = len > 0
        && text[..len]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-_+.:".contains(&b));
    let after = at + len + 2;
    if !name_ok
        || src[after..end]
            .first()
            .is_some_and(|b| !b.is_ascii_whitespace())
    {
        return None;
    }
    Some((at..at + len, end - src[after..end].trim_ascii_start().len()))
}

/// Returns true if the link `value` (its `_` not escaped) names another
/// target (`name_`, a reference name and `_`), not a URI.
fn names_a_target(value: &str) -> bool {
    value.ends_with('_') && !value.contains([':', '/'])
}

/// Returns true if the backquote at `tick` may start inline markup: at the
/// start of the text (`from`), or after whitespace or an opening mark
/// (reST's inline markup recognition rules, simplified).
fn starts_inline_markup(src: &[u8], from: usize, tick: usize) -> bool {
    if src.get(tick + 1).is_none_or(u8::is_ascii_whitespace) {
        return false;
    }
    let before = if tick == from {
        None
    } else {
        Some(src[tick - 1])
    };
    match before {
        None => true,
        // The end of a role's name: `:name:` just before.
        Some(b':') => true,
        Some(b) => b.is_ascii_whitespace() || b"'\"([{<-/".contains(&b),
    }
}

/// Returns true if inline markup may end before `at`, in text that ends at
/// `to`: at the text's end, or before whitespace or punctuation that may
/// follow it (reST's inline markup recognition rules; any byte of a
/// character beyond ASCII is taken for punctuation).
fn ends_inline_markup(src: &[u8], at: usize, to: usize) -> bool {
    at >= to || {
        let b = src[at];
        b.is_ascii_whitespace() || b >= 0x80 || b"-.,:;!?\\/'\")]}>".contains(&b)
    }
}

/// Where the first `` `` `` that may end an inline literal is, from `from`
/// on and before `to`: one after a byte that is not whitespace, and before
/// one that may follow inline markup.
fn literal_end(src: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut k = from;
    while let Some(p) = memchr::memmem::find(src.get(k..to)?, b"``") {
        crate::work::examined(p + 1);
        let close = k + p;
        if !src[close - 1].is_ascii_whitespace() && ends_inline_markup(src, close + 2, to) {
            return Some(close);
        }
        k = close + 1;
    }
    crate::work::examined(to.saturating_sub(k));
    None
}

/// Where the first backquote that may end interpreted text is, from
/// `from` on and before `to`: one after a byte that is neither whitespace
/// nor a backslash, and, with the `_` or `__` of a reference after it,
/// before one that may follow inline markup.
fn interpreted_end(src: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut k = from;
    while let Some(p) = memchr::memchr(b'`', src.get(k..to)?) {
        crate::work::examined(p + 1);
        let close = k + p;
        let suffix = match &src[close + 1..to] {
            [b'_', b'_', ..] => 2,
            [b'_', ..] => 1,
            _ => 0,
        };
        let after = close + 1 + suffix;
        if !src[close - 1].is_ascii_whitespace()
            && src[close - 1] != b'\\'
            && ends_inline_markup(src, after, to)
        {
            return Some(close);
        }
        k = close + 1;
    }
    crate::work::examined(to.saturating_sub(k));
    None
}

/// The role written just before the backquote at `tick` (`:name:`), as
/// the range of `:name:`, if it starts at `from` or after (text before
/// `from` is read already).
fn role_before(src: &[u8], from: usize, tick: usize) -> Option<Range<usize>> {
    if tick < from + 2 || src[tick - 1] != b':' {
        return None;
    }
    let name_end = tick - 1;
    let name_len = src[from..name_end]
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b"-_+.:".contains(&b))
        .count();
    crate::work::examined(name_len + 1);
    let start = name_end - name_len;
    let name = &src[start..name_end];
    // The name runs back to its opening `:` (a domain's `py:func` holds one).
    let open = name.iter().position(|&b| b == b':')?;
    let start = start + open;
    (start + 1 < name_end).then_some(start..tick)
}

/// Where the `<` of the URI embedded at the end of the interpreted text
/// `src[content]` is (`label <URI>`, or `<URI>` alone), if it embeds one.
fn embedded_start(src: &[u8], content: Range<usize>) -> Option<usize> {
    let text = &src[content.clone()];
    if !text.ends_with(b">") {
        return None;
    }
    crate::work::examined(text.len());
    let lt = memchr::memrchr(b'<', text)?;
    let after_blank = lt == 0 || text[lt - 1].is_ascii_whitespace();
    (after_blank && lt + 2 < text.len()).then_some(content.start + lt)
}

#[cfg(test)]
mod tests {
    use super::super::lines::{assert_linear, random_readings, shown, SizedInput};
    use super::*;

    fn read_str(rst: &str) -> (String, Vec<(String, String, Option<String>)>) {
        shown(rst, &read(rst.as_bytes()))
    }

    #[test]
    fn literal_blocks_code_directives_and_doctests_are_code() {
        let rst = "Install it::\n\n    pip install https://example.org/pkg.zip\n\n\
                   Then see https://docs.example.org/.\n\n\
                   .. code-block:: python\n   :linenos:\n\n   requests.get('https://httpbin.org/get')\n\n\
                   >>> fetch('http://localhost:8000/')\n\n\
                   - A list item::\n\n      curl http://in.list/\n\n  back to https://the.item/\n";
        let (text, links) = read_str(rst);
        assert!(links.is_empty(), "{links:?}");
        assert_eq!(
            text,
            "Install it::\n\n[    pip install https://example.org/pkg.zip\n]\n\
             Then see https://docs.example.org/.\n\n\
             .. code-block:: python\n[   :linenos:\n\n   requests.get('https://httpbin.org/get')\n]\n\
             [>>> fetch('http://localhost:8000/')\n]\n\
             - A list item::\n\n[      curl http://in.list/\n]\n  back to https://the.item/\n"
        );
    }

    /// A review's cases, each as docutils reads it.
    #[test]
    fn blocks_end_where_docutils_ends_them() {
        let code = |rst: &str| {
            let reading = read(rst.as_bytes());
            let code: Vec<String> = reading
                .code
                .iter()
                .map(|c| {
                    String::from_utf8_lossy(&reading.text[c.start..c.end])
                        .trim()
                        .to_string()
                })
                .collect();
            let links: Vec<String> = reading.refs.iter().map(|r| r.value.clone()).collect();
            (code, links)
        };
        // A quoted literal block: each line starts with the same mark.
        assert_eq!(
            code("Run this::\n\n%load http://q.example/s.py\n%run it\n\nEnd.\n").0,
            ["%load http://q.example/s.py\n%run it"]
        );
        // A literal block ends at a line no deeper than its paragraph.
        assert_eq!(
            code("Example::\n\n        deep\n    shallower\n\nEnd.\n").0,
            ["deep\n    shallower"]
        );
        // A list item's body starts past its bullet.
        assert_eq!(
            code("- item::\n\n      code\n\n  next para http://c.example/\n").0,
            ["code"]
        );
        assert!(code("- item::\n\n  next para http://c.example/\n")
            .0
            .is_empty());
        // An end-string is followed by a blank or punctuation.
        assert_eq!(
            code("See `a <https://x.example/a`b>`_ and more.\n").1,
            ["https://x.example/a`b"]
        );
        assert_eq!(
            code("Text ``code``x and http://a.example/ ``y``.\n").0,
            ["code``x and http://a.example/ ``y"]
        );
        // A target's value ends at a blank line.
        assert_eq!(
            code(".. _t: https://t.example/\n   more\n\n   code::\n\n       http://c.example/\n").1,
            ["https://t.example/\nmore"]
        );
        // A parsed literal's markup is read; a comment after a paragraph
        // line is the paragraph's.
        assert_eq!(
            code(".. parsed-literal::\n\n   see `t <http://pl.example/>`_\n").1,
            ["http://pl.example/"]
        );
        // A role's name is not read into text read already (an escape).
        assert_eq!(read_str("\\::b:`c`\n").0, "::b:`c`\n");
        assert_eq!(code("\\::code:`c`\n").0, ["c"]);
        let (text, _) = read_str("A paragraph\n.. comment http://c1.example/\n");
        assert_eq!(text, "A paragraph\n.. comment http://c1.example/\n");
    }

    #[test]
    fn comments_are_not_read() {
        let rst = ".. This file is part of X; see\n   http://www.gnu.org/licenses/\n\n\
                   ..\n   also a comment http://c.example/\n\nText http://t.example/\n\n..\n\n    quoted http://q.example/\n";
        let (text, links) = read_str(rst);
        assert!(links.is_empty());
        assert_eq!(
            text,
            "\n\n\n\nText http://t.example/\n\n\n\n    quoted http://q.example/\n"
        );
    }

    #[test]
    fn embedded_uris_and_targets_are_links_without_their_whitespace() {
        let rst = "See `the guide <https://docs.example.org/guide/\n  install.html#step>`_, \
                   `Join <https://a.example/Join Chat.svg>`__ and `<https://self.example/>`_.\n\
                   A `named`_ reference, `a target <named_>`_, :doc:`Doc <other/page>` and \
                   :pep:`PEP 8 <https://peps.python.org/pep-0008/>`.\n\n\
                   .. _named: https://named.example/a/\n   very/long/path.html\n\
                   .. _`quoted name`: https://quoted.example/\n\
                   .. _indirect: named_\n\
                   .. _internal:\n\n\
                   __ https://anonymous.example/\n";
        let (text, links) = read_str(rst);
        assert_eq!(
            text,
            "See  the guide ,  Join  and   .\n\
             A `named`_ reference,  a target , :doc:`Doc <other/page>` and \
             :pep:`PEP 8 <https://peps.python.org/pep-0008/>`.\n\n\n\n\n\n\n\n"
        );
        let link = |v: &str, w: &str, l: Option<&str>| (v.into(), w.into(), l.map(String::from));
        assert_eq!(
            links,
            [
                link(
                    "https://a.example/JoinChat.svg",
                    "https://a.example/Join Chat.svg",
                    Some("Join")
                ),
                link(
                    "https://anonymous.example/",
                    "https://anonymous.example/",
                    None
                ),
                link(
                    "https://docs.example.org/guide/\ninstall.html#step",
                    "https://docs.example.org/guide/\n  install.html#step",
                    Some("the guide")
                ),
                link(
                    "https://named.example/a/\nvery/long/path.html",
                    "https://named.example/a/\n   very/long/path.html",
                    None
                ),
                link("https://quoted.example/", "https://quoted.example/", None),
                link("https://self.example/", "https://self.example/", None),
            ]
        );
    }

    #[test]
    fn images_and_their_targets_are_links() {
        let rst = ".. image:: https://img.example/badge\n   .svg?branch=main\n   :target: https://ci.example/\n   :alt: see http://alt.example/\n\n\
                   .. |logo| image:: https://img.example/logo.png\n\n\
                   .. figure:: pic.png\n\n   A caption with http://caption.example/\n";
        let (text, links) = read_str(rst);
        assert_eq!(
            text,
            "\n\n   :alt: see http://alt.example/\n\n\n\n\n\n   A caption with http://caption.example/\n"
        );
        let values: Vec<&str> = links.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(
            values,
            [
                "https://ci.example/",
                "https://img.example/badge\n.svg?branch=main",
                "https://img.example/logo.png",
                "pic.png"
            ]
        );
    }

    #[test]
    fn backslash_escapes_are_read_as_docutils_reads_them() {
        let (text, links) = read_str(
            "Bare https://a.example/a\\_b, H\\ :sub:`2`\\ O, \\`not code\\`, ``\\_ in code``.\n\n\
             .. _t: https://b.example/a\\ b\n.. _u: https://u.example/x\\_\n.. _v: name\\_\n\n\
             A `link <https://c.example/x\\ y>`_.\n",
        );
        assert_eq!(
            text,
            "Bare https://a.example/a_b, H:sub:`2`O, `not code`,  [\\_ in code] .\n\n\n\n\n\nA  link .\n"
        );
        let values: Vec<&str> = links.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(
            values,
            [
                "https://b.example/a b",
                "https://c.example/x y",
                "https://u.example/x_",
                "name_"
            ]
        );
    }

    #[test]
    fn inline_literals_and_code_roles_are_code() {
        let (text, _) = read_str(
            "Run ``curl https://x.example/`` or :code:`wget http://y.example/`, not `http://z.example/`.\n",
        );
        assert_eq!(
            text,
            "Run  [curl https://x.example/]  or  [wget http://y.example/] , not `http://z.example/`.\n"
        );
    }

    /// Each byte is looked at a bounded number of times, whatever the
    /// markup: inline literals and interpreted text opened and never
    /// closed, or all closed by one backquote (a review's input, which
    /// took 25 s for 4 MB), roles, targets and options by the thousand,
    /// figures nested in figures (another, 13 s for 8 MB), deep blocks.
    #[test]
    fn reading_is_linear() {
        let repeated = |unit: &'static str, tail: &'static str| {
            move |n: usize| format!("{}{tail}", unit.repeat(n))
        };
        let nested_figures = |n: usize| {
            let lines: Vec<String> = (0..n)
                .map(|k| format!("{}.. figure:: x\n\n", " ".repeat(k)))
                .collect();
            lines.concat() + "\n"
        };
        let inputs: Vec<SizedInput> = vec![
            ("``a ", Box::new(repeated("``a ", ""))),
            ("`a ", Box::new(repeated("`a ", ""))),
            ("`a … b>`_", Box::new(repeated("`a ", "b>`_"))),
            (":r:`a ", Box::new(repeated(":r:`a ", ""))),
            ("`t <u", Box::new(repeated("`t <u", ""))),
            (".. _a: b", Box::new(repeated(".. _a: b\n", ""))),
            (
                ".. image::",
                Box::new(repeated(".. image:: x\n   :alt: y\n", "")),
            ),
            ("x::", Box::new(repeated("x::\n\n    y\n", ""))),
            (".. c", Box::new(repeated(".. c\n   d\n", ""))),
            ("mixed", Box::new(repeated("a `b <c>`_ ``d`` ", ""))),
            ("escapes", Box::new(repeated("\\_ \\` ", ""))),
            ("escaped target", Box::new(repeated(".. _t: a\\ b\n", ""))),
            ("quoted", Box::new(repeated("x::\n\n> y\n", ""))),
            ("nested figures", Box::new(nested_figures)),
        ];
        assert_linear(read, inputs);
    }

    /// Random documents from pieces of reST (a review's, which found a
    /// panic in the first version of escapes): no panic, every byte copied
    /// is its source's, code spans sorted and disjoint, every link placed
    /// on its bytes.
    #[test]
    fn random_documents_are_read_without_fault() {
        let pieces: &[&[u8]] = &[
            b"`",
            b"``",
            b"<",
            b">",
            b"_",
            b"__",
            b"..",
            b".. ",
            b"::",
            b":",
            b"|",
            b"\n",
            b"\r\n",
            b"\r",
            b"\t",
            b" ",
            b"   ",
            b"http://a.example/x",
            b"https://b/ c",
            "\u{e9}".as_bytes(),
            b"\xff",
            b".. _a: ",
            b".. image:: ",
            b".. figure:: ",
            b":target: ",
            b".. code-block:: py",
            b">>> ",
            b"__ ",
            b".. |s| image:: ",
            b"`a <",
            b">`_",
            b":code:`",
            b":r:`",
            b"\\",
            b"x",
            b"\n\n",
            b"\n   ",
            b"\n      ",
            b".. [1] ",
            b"_`x`: ",
            b"\x00",
            b"- ",
            b"%",
        ];
        for (doc, r, shown) in random_readings(read, pieces, 0x1234_5678, 20_000) {
            for link in &r.refs {
                let written = &doc[link.source.start..link.source.end];
                if written.contains(&b'\\') {
                    continue;
                }
                let written: Vec<u8> = written
                    .iter()
                    .copied()
                    .filter(|b| !b.is_ascii_whitespace())
                    .collect();
                let value: String = link
                    .value
                    .chars()
                    .filter(|c| !c.is_ascii_whitespace())
                    .collect();
                assert_eq!(String::from_utf8_lossy(&written), value, "{shown:?}");
            }
        }
    }

    #[test]
    fn every_byte_is_placed_where_it_was_written() {
        let rst =
            "A ``lit`` and `t <https://x.example/>`_ here.\n\n.. c\n\nEnd http://e.example/\n";
        let reading = read(rst.as_bytes());
        let text = &reading.text;
        let at = memchr::memmem::find(text, b"http://e.example/").unwrap();
        let (src, _) = reading.map.byte(at);
        assert_eq!(&rst[src..][..17], "http://e.example/");
        let here = memchr::memmem::find(text, b"here").unwrap();
        assert_eq!(&rst[reading.map.byte(here).0..][..4], "here");
    }
}
