//! CRLF line ends (Windows text, and mail as it travels) change nothing of
//! what is found: every URI of an input is found in the same input with
//! each LF made CR LF, on the same line and column, its byte offsets moved
//! on by the CRs before them. HTML parts and documents, quoted-printable
//! and base64 mail, Markdown: each maps what it decodes back to the input,
//! and each must do it exactly in both.

mod common;

use std::path::PathBuf;

use common::{crlf, files_under, shared, Dir};

/// What `--json` says of each URI found under `dir/sub`: the file's name,
/// the URI, its line and column, its start and end offsets.
type Place = (String, String, u64, u64, u64, u64);

fn found(dir: &Dir, sub: &str) -> Vec<Place> {
    let out = dir.command().args(["--json", "-j2", sub]).stdout();
    out.lines()
        .map(|line| {
            let o: serde_json::Value = serde_json::from_str(line).unwrap();
            let path = o["path"].as_str().unwrap();
            let name = path.rsplit('/').next().unwrap().to_string();
            let n = |key: &str| o[key].as_u64().unwrap();
            let uri = o["uri"].as_str().unwrap().to_string();
            (name, uri, n("line"), n("column"), n("start"), n("end"))
        })
        .collect()
}

/// Scans `inputs` as they are and in CRLF, and checks that each URI is
/// found in both at the same place; returns how many were found.
fn assert_crlf_changes_nothing(inputs: &[PathBuf]) -> usize {
    let dir = Dir::new();
    let mut line_ends = std::collections::HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        let bytes = std::fs::read(input).unwrap();
        if bytes.contains(&b'\r') {
            continue;
        }
        let ext = input
            .extension()
            .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
        let name = format!("{i}{ext}");
        dir.create_bytes(format!("lf/{name}"), &bytes);
        dir.create_bytes(format!("crlf/{name}"), &crlf(&bytes));
        let lfs: Vec<u64> = memchr::memchr_iter(b'\n', &bytes)
            .map(|p| p as u64)
            .collect();
        line_ends.insert(name, (input.clone(), lfs));
    }
    let lf = found(&dir, "lf");
    let crs = found(&dir, "crlf");
    let moved: Vec<Place> = lf
        .iter()
        .map(|(name, uri, line, column, start, end)| {
            let lfs = &line_ends[name].1;
            let at = |off: u64| off + lfs.partition_point(|&p| p < off) as u64;
            (
                name.clone(),
                uri.clone(),
                *line,
                *column,
                at(*start),
                at(*end),
            )
        })
        .collect();
    if let Some(i) = (0..moved.len().max(crs.len())).find(|&i| moved.get(i) != crs.get(i)) {
        let input = moved.get(i).or(crs.get(i)).map(|p| &line_ends[&p.0].0);
        panic!(
            "{input:?}: URI {i} of {} (LF) and {} (CRLF) differs:\n  LF, moved: {:?}\n  CRLF:      {:?}",
            moved.len(),
            crs.len(),
            moved.get(i),
            crs.get(i)
        );
    }
    lf.len()
}

#[test]
fn fixtures_in_crlf_give_the_same_uris_at_the_same_places() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut inputs = files_under(&root.join("docs"));
    inputs.extend(
        files_under(&root.join("mail"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "eml")),
    );
    inputs.push(root.join("readme-sample.txt"));
    let found = assert_crlf_changes_nothing(&inputs);
    assert!(found > 50, "only {found} URIs in the fixtures");
}

/// HTML mail, quoted-printable and base64 parts of the spam corpus (every
/// eighth message) and an mbox of a mailing list, with `&nbsp;` and its
/// kind at line ends.
#[test]
fn mail_in_crlf_gives_the_same_uris_at_the_same_places() {
    let Some(mail) = shared("corpus/mail") else {
        return;
    };
    let mut inputs: Vec<PathBuf> = files_under(&mail.join("spamassassin"))
        .into_iter()
        .filter(|p| p.parent() != Some(&*mail.join("spamassassin")))
        .step_by(8)
        .collect();
    inputs.extend(files_under(&mail.join("usrp-users")));
    let found = assert_crlf_changes_nothing(&inputs);
    assert!(found > 5_000, "only {found} URIs in the mail");
}

/// The smallest case of the bug the comparison found (before the fix it
/// failed on this, and on `fontconfig-user.html` of Debian's
/// documentation): a URI after `&nbsp;` at a line end, in HTML.
#[test]
fn a_uri_after_a_reference_at_a_line_end_in_html() {
    let dir = Dir::new();
    let html = dir.create(
        "page.html",
        "<p>Hello&nbsp;\nsee http://x.org/page and more</p>\n",
    );
    let found = assert_crlf_changes_nothing(&[html]);
    assert_eq!(found, 1);
}
