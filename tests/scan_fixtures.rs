//! Real excerpts (`fixtures/scan/*.txt`) and the URIs a careful reader
//! finds in them (`*.expected`, `line:uri` per line), through the slice
//! iterator and the stream reader alike.

use std::fs;
use std::path::Path;

use uriscan::{Found, Scanner};

fn render<'a>(found: impl Iterator<Item = Found<'a>>) -> String {
    found
        .map(|f| format!("{}:{}\n", f.line(), f.as_str()))
        .collect()
}

#[test]
fn fixtures_give_their_expected_uris() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/scan");
    let scanner = Scanner::new();
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = fs::read(&path).unwrap();
        let want = fs::read_to_string(path.with_extension("expected")).unwrap();
        assert_eq!(render(scanner.find_iter(&text)), want, "{}", path.display());
        for size in [1, 7, 4096] {
            let mut streamed = Vec::new();
            scanner
                .scan_reader_with_read_size(
                    &text[..],
                    |f: &Found<'_>| {
                        streamed.push(f.clone().into_owned());
                        Ok(true)
                    },
                    size,
                )
                .unwrap();
            assert_eq!(
                render(streamed.into_iter()),
                want,
                "{} read size {size}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} fixtures");
}
