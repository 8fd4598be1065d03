//! What the line-based document readers (reST, AsciiDoc) share: a line
//! with its offsets and indentation, and a search remembered so that a
//! marker opened again and again is searched for once.

/// One line of the source, with its offsets in it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    /// Where it starts.
    pub start: usize,
    /// Where its text starts, past its indentation.
    pub text: usize,
    /// Where its text ends (before trailing blanks and `\r\n` or `\n`).
    pub end: usize,
    /// Where the next line starts.
    pub next: usize,
    /// Its indentation, in columns (a tab to the next multiple of 8).
    pub indent: usize,
}

impl Line {
    /// The line of `src` that starts at `start` (`start < src.len()`).
    pub fn at(src: &[u8], start: usize) -> Line {
        let next = memchr::memchr(b'\n', &src[start..]).map_or(src.len(), |p| start + p + 1);
        let mut indent = 0;
        let mut text = start;
        while text < next {
            match src[text] {
                b' ' => indent += 1,
                b'\t' => indent = (indent / 8 + 1) * 8,
                _ => break,
            }
            text += 1;
        }
        let mut end = next;
        while end > text && src[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        crate::work::examined(next - start);
        Line {
            start,
            text,
            end,
            next,
            indent,
        }
    }

    /// The line of `src` that starts at `start`, if `src` goes on there.
    pub fn starting(src: &[u8], start: usize) -> Option<Line> {
        (start < src.len()).then(|| Line::at(src, start))
    }

    pub fn is_blank(&self) -> bool {
        self.text == self.end
    }
}

/// The first place at or after an offset where a search finds what it
/// looks for, remembered: asked of offsets that never decrease, it
/// searches each byte once (an inline literal opened and never closed,
/// again and again, would otherwise search to the paragraph's end each
/// time).
pub(super) struct NextMatch<F: Fn(usize) -> Option<usize>> {
    search: F,
    /// The search last made: from where, and what it found.
    from: usize,
    found: Option<usize>,
}

impl<F: Fn(usize) -> Option<usize>> NextMatch<F> {
    pub fn new(search: F) -> Self {
        NextMatch {
            search,
            from: usize::MAX,
            found: None,
        }
    }

    /// What `search(from)` returns, searched again only when the last
    /// search does not tell it.
    pub fn at_or_after(&mut self, from: usize) -> Option<usize> {
        let told = self.from <= from && self.found.is_none_or(|f| from <= f);
        if !told {
            self.from = from;
            self.found = (self.search)(from);
        }
        self.found
    }
}

/// The text `reading` shows of the source `src`, with each code stretch
/// in `[…]`, and its links: each value, where it is written and its
/// label's text, sorted.
#[cfg(test)]
pub(super) fn shown(
    src: &str,
    reading: &crate::reading::Reading,
) -> (String, Vec<(String, String, Option<String>)>) {
    let mut text = String::new();
    for (i, &b) in reading.text.iter().enumerate() {
        if reading.code.iter().any(|c| c.start == i) {
            text.push('[');
        }
        text.push(char::from(b));
        if reading.code.iter().any(|c| c.end == i + 1) {
            text.push(']');
        }
    }
    let mut links: Vec<_> = reading
        .refs
        .iter()
        .map(|r| {
            (
                r.value.clone(),
                src[r.source.start..r.source.end].to_string(),
                r.label
                    .map(|l| String::from_utf8_lossy(&reading.text[l.start..l.end]).into_owned()),
            )
        })
        .collect();
    links.sort();
    (text, links)
}

/// Asserts what every reading of a document `doc` keeps: each byte of its
/// text placed within `doc`, a byte copied as its source, code stretches
/// sorted, disjoint and within the text. `shown` names the document in a
/// failure.
#[cfg(test)]
pub(super) fn assert_well_placed(doc: &[u8], reading: &crate::reading::Reading, shown: &str) {
    for (i, &b) in reading.text.iter().enumerate() {
        let (s, e) = reading.map.byte(i);
        assert!(s <= e && e <= doc.len(), "{shown:?} {i}");
        if e == s + 1 {
            assert_eq!(doc[s], b, "{shown:?} {i}");
        }
    }
    assert!(
        reading.code.windows(2).all(|w| w[0].end <= w[1].start),
        "{shown:?}"
    );
    assert!(reading
        .code
        .iter()
        .all(|c| c.start < c.end && c.end <= reading.text.len()));
}

/// `count` documents, each of up to 40 of `pieces` drawn at random
/// (xorshift from `seed`: the same documents every run), each read by
/// `read` and checked [`assert_well_placed`]: each document, its reading,
/// and how a failure names it.
#[cfg(test)]
pub(super) fn random_readings<'p>(
    read: fn(&[u8]) -> crate::reading::Reading,
    pieces: &'p [&'p [u8]],
    mut seed: u64,
    count: usize,
) -> impl Iterator<Item = (Vec<u8>, crate::reading::Reading, String)> + 'p {
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count).map(move |_| {
        let mut doc = Vec::new();
        for _ in 0..random() % 40 {
            doc.extend_from_slice(pieces[(random() % pieces.len() as u64) as usize]);
        }
        let shown = String::from_utf8_lossy(&doc).into_owned();
        let reading = read(&doc);
        assert_well_placed(&doc, &reading, &shown);
        (doc, reading, shown)
    })
}

/// An input of a linear-time test: its name, and the input at a size.
#[cfg(test)]
pub(super) type SizedInput<'n> = (&'n str, Box<dyn Fn(usize) -> String>);

/// Asserts that `read` examines a bounded number of bytes per byte of
/// each input, made by each function at two sizes: fewer than 8, and not
/// growing with the size (as a quadratic reading would).
#[cfg(test)]
pub(super) fn assert_linear(
    read: fn(&[u8]) -> crate::reading::Reading,
    inputs: Vec<SizedInput<'_>>,
) {
    for (name, input) in inputs {
        let mut per_byte = Vec::new();
        for n in [100, 3_000] {
            let doc = input(n);
            crate::work::take();
            read(doc.as_bytes());
            per_byte.push(crate::work::take() as f64 / doc.len() as f64);
        }
        assert!(
            per_byte[1] < 8.0,
            "{name}: {per_byte:?} bytes examined per byte"
        );
        assert!(
            per_byte[1] < per_byte[0] * 1.5 + 1.0,
            "{name}: {per_byte:?}"
        );
    }
}
