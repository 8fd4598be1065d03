//! The `uriscan` binary, run as a user runs it.

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use common::{stderr, stdout, Dir, TestCommand};

const SAMPLE: &str = "Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\nbut you can probably pick it up from <ftp://foo.example.\ncom/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\nietf/uri/historical.html#WARNING>.\nAgain: http://www.w3.org/Addressing/ and mailto:jim@example.org.\n";

#[test]
fn plain_output_and_exit_codes() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    d.create("none.txt", "no links here: 12:30, Re: C:\\x\n");
    let o = d.command().args(["a.txt"]).run();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "http://www.w3.org/Addressing/\nftp://foo.example.com/rfc/\nhttp://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING\nhttp://www.w3.org/Addressing/\nmailto:jim@example.org\n"
    );
    let o = d.command().args(["none.txt"]).run();
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
}

#[test]
fn stdin_and_dash() {
    let d = Dir::new();
    for args in [&[][..], &["-"][..]] {
        let o = d
            .command()
            .args(args)
            .stdin(b"see <http://a.org/x>\n")
            .run();
        assert_eq!(stdout(&o), "http://a.org/x\n");
        assert_eq!(o.status.code(), Some(0));
    }
}

#[test]
fn grep_style_prefixes() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    d.create("b.txt", "x\n  http://b.org/\n");
    let o = d.command().args(["-n", "--column", "a.txt", "b.txt"]).run();
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "a.txt:1:29:http://www.w3.org/Addressing/");
    assert_eq!(lines[1], "a.txt:2:39:ftp://foo.example.com/rfc/");
    assert_eq!(lines[5], "b.txt:2:3:http://b.org/");
    let o = d.command().args(["--no-filename", "a.txt", "b.txt"]).run();
    assert!(stdout(&o).starts_with("http://www.w3.org/Addressing/\n"));
    let o = d.command().args(["-H", "b.txt"]).run();
    assert_eq!(stdout(&o), "b.txt:http://b.org/\n");
}

#[test]
fn json_lines() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    let o = d.command().args(["--json", "a.txt"]).run();
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    let r = &rows[1];
    assert_eq!(r["path"], "a.txt");
    assert_eq!(r["uri"], "ftp://foo.example.com/rfc/");
    assert_eq!(
        (r["line"].as_u64(), r["column"].as_u64()),
        (Some(2), Some(39))
    );
    assert_eq!(r["delimiter"], "angle");
    assert_eq!(
        (
            r["wrapped"].as_bool(),
            r["url_prefix"].as_bool(),
            r["hyphen_break"].as_bool()
        ),
        (Some(true), Some(false), Some(false))
    );
    let (start, end) = (
        r["start"].as_u64().unwrap() as usize,
        r["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&SAMPLE[start..end], "ftp://foo.example.\ncom/rfc/");
    assert_eq!(rows[0]["delimiter"], "quote");
    assert_eq!(rows[4]["delimiter"], "none");
    assert!(rows[0].get("valid").is_none());
    // stdin has a null path
    let o = d.command().args(["--json"]).stdin(b"http://a.org/\n").run();
    let row: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(row["path"].is_null());
}

/// `--json` writes its objects by hand: each line is exactly what
/// serde_json makes of the same object (keys sorted, same escapes), over
/// every kind of record the fixtures give (text, mail with message ids and
/// parts, documents with relative links, IRIs, invalid candidates).
#[test]
fn json_lines_are_what_serde_json_writes() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let d = Dir::new();
    // A name and a candidate to escape, and an invalid candidate.
    let name = if cfg!(unix) {
        "q\"uote\\d\t.txt"
    } else {
        "invalid.txt"
    };
    d.create(
        name,
        "bad http://example.com:8a/ good <http://a.org/\"q\">\n",
    );
    let o = d
        .command()
        .args(["--json", "--invalid", "--iri", "uri", "-j1", "."])
        .arg(&fixtures)
        .run();
    let out = stdout(&o);
    let mut keys = std::collections::BTreeSet::new();
    for line in out.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        keys.extend(value.as_object().unwrap().keys().cloned());
        assert_eq!(serde_json::to_string(&value).unwrap(), line);
    }
    for key in [
        "error",
        "iri",
        "message_id",
        "part",
        "in_code",
        "relative",
        "resolved",
    ] {
        assert!(keys.contains(key), "no record has {key:?}: {keys:?}");
    }
}

#[test]
fn unique_applies_to_invalid_candidates_too() {
    let d = Dir::new();
    d.create(
        "a.txt",
        "http://a.org/x%zz and http://a.org/x%zz, http://a.org/ http://a.org/\n",
    );
    d.create("b.txt", "again http://a.org/x%zz\n");
    let o = d
        .command()
        .args(["-u", "--invalid", "--no-filename", "a.txt", "b.txt"])
        .run();
    assert_eq!(
        stdout(&o),
        "http://a.org/x%zz\t(invalid: invalid percent-encoding at byte 14)\nhttp://a.org/\n"
    );
}

#[test]
fn invalid_candidates_on_request() {
    let d = Dir::new();
    d.create("a.txt", "bad http://example.com:8a/ good http://ok.org/\n");
    let o = d.command().args(["--json", "--invalid", "a.txt"]).run();
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["valid"], false);
    assert_eq!(rows[0]["error"], "invalid port at byte 20");
    assert_eq!(rows[1]["valid"], true);
    let o = d.command().args(["a.txt"]).run();
    assert_eq!(stdout(&o), "http://ok.org/\n");
}

#[test]
fn unique_count_scheme_null() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    d.create("b.txt", "http://www.w3.org/Addressing/ https://x.org/\n");
    let o = d
        .command()
        .args(["-u", "a.txt", "b.txt", "--no-filename"])
        .run();
    assert_eq!(stdout(&o).lines().count(), 5);
    assert!(stdout(&o).ends_with("mailto:jim@example.org\nhttps://x.org/\n"));
    let o = d.command().args(["-c", "a.txt", "b.txt"]).run();
    assert_eq!(stdout(&o), "a.txt:5\nb.txt:2\ntotal:7\n");
    let o = d
        .command()
        .args(["--scheme", "HTTPS,ftp", "a.txt", "b.txt", "--no-filename"])
        .run();
    assert_eq!(stdout(&o), "ftp://foo.example.com/rfc/\nhttps://x.org/\n");
    let o = d.command().args(["-0", "b.txt"]).run();
    assert_eq!(
        stdout(&o),
        "http://www.w3.org/Addressing/\0https://x.org/\0"
    );
    let o = d
        .command()
        .args(["--scheme", "not a scheme", "b.txt"])
        .run();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn hyphen_and_any_scheme_flags() {
    let d = Dir::new();
    d.create("a.txt", "<http://a.org/some-\n  thing> key:value\n");
    assert_eq!(
        stdout(&d.command().args(["a.txt"]).run()),
        "http://a.org/some-thing\n"
    );
    assert_eq!(
        stdout(&d.command().args(["--hyphen", "drop", "a.txt"]).run()),
        "http://a.org/something\n"
    );
    assert_eq!(
        stdout(&d.command().args(["--hyphen", "both", "a.txt"]).run()),
        "http://a.org/some-thing\nhttp://a.org/something\n"
    );
    assert_eq!(
        stdout(&d.command().args(["--any-scheme", "a.txt"]).run()),
        "http://a.org/some-thing\nkey:value\n"
    );
}

#[test]
fn color_only_when_asked_or_on_a_terminal() {
    let d = Dir::new();
    d.create("a.txt", "http://a.org/\n");
    let o = d
        .command()
        .args(["--color", "always", "-n", "-H", "a.txt"])
        .run();
    assert_eq!(
        stdout(&o),
        "\x1b[35ma.txt\x1b[0m:\x1b[32m1\x1b[0m:http://a.org/\n"
    );
    let o = d.command().args(["-n", "-H", "a.txt"]).run();
    assert_eq!(stdout(&o), "a.txt:1:http://a.org/\n", "never in a pipe");
    let o = d
        .command()
        .args(["--color", "always", "--json", "a.txt"])
        .run();
    assert!(!stdout(&o).contains('\x1b'), "never in JSON");
}

#[test]
fn errors_are_reported_and_the_run_goes_on() {
    let d = Dir::new();
    d.create("a.txt", "http://a.org/\n");
    d.create("z.txt", "http://z.org/\n");
    let o = d.command().args(["a.txt", "missing.txt", "z.txt"]).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "a.txt:http://a.org/\nz.txt:http://z.org/\n");
    assert_eq!(
        stderr(&o),
        "uriscan: missing.txt: no such file or directory\n"
    );
    let o = d.command().args(["--no-such-flag"]).run();
    assert_eq!(o.status.code(), Some(2));
}

/// The walk reports a path it cannot follow (here dangling links, with
/// `-L`) where the path stands in walk order among the files it found,
/// whatever the threads: the walk goes on while the first files are
/// scanned, so an error cannot wait for the whole walk. It counts the
/// errors (not as inputs) and the run goes on.
#[cfg(unix)]
#[test]
fn walk_errors_are_reported_by_the_walk_in_walk_order() {
    use std::os::unix::fs::symlink;
    let d = Dir::new();
    d.create("tree/a.txt", "http://a.org/\n");
    d.create("tree/c.txt", "http://c.org/\n");
    d.create_dir("tree/b");
    symlink("missing", d.path().join("tree/b/dangling")).unwrap();
    symlink("missing", d.path().join("tree/a-dangling")).unwrap();
    for j in ["-j1", "-j2"] {
        // stdout and stderr in one pipe, to see their order.
        let o = d
            .command_via(&["sh", "-c", "exec \"$0\" \"$@\" 2>&1"])
            .args([j, "-L", "tree"])
            .assert_exit(2);
        assert_eq!(
            stdout(&o),
            "uriscan: tree/a-dangling: no such file or directory\n\
             tree/a.txt:http://a.org/\n\
             uriscan: tree/b/dangling: no such file or directory\n\
             tree/c.txt:http://c.org/\n",
            "{j}"
        );
    }
    let o = d.command().args(["-L", "-c", "tree"]).assert_exit(2);
    assert_eq!(stdout(&o), "tree/a.txt:1\ntree/c.txt:1\ntotal:2\n");
    let o = d.command().args(["-L", "--stats", "tree"]).assert_exit(2);
    assert!(
        stderr(&o).contains("2 files scanned, 0 binary skipped, 2 errors"),
        "{}",
        stderr(&o)
    );
}

#[cfg(unix)]
#[test]
fn unreadable_file() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    let p = d.create("secret.txt", "http://a.org/\n");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&p).is_ok() {
        eprintln!("note: running as a user who can read anything; skipping");
        return;
    }
    let o = d.command().args(["secret.txt"]).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "uriscan: secret.txt: permission denied\n");
}

/// A binary file the walk finds is skipped; one named on the command line
/// is read up to its first NUL, with a note, as ripgrep does (issue 12:
/// it used to give nothing and say nothing); `-a` reads it all.
#[test]
fn binary_files_found_are_skipped_and_named_ones_read_to_their_first_nul() {
    let d = Dir::new();
    d.create_bytes(
        "bin.dat",
        b"see http://before.org/ \x00\x01http://hidden.org/\x00",
    );
    let o = d.command().args(["--stats", "."]).run();
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    assert!(stderr(&o).contains("1 binary skipped"), "{}", stderr(&o));
    let o = d.command().args(["bin.dat"]).run();
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "http://before.org/\n")
    );
    assert_eq!(
        stderr(&o),
        "uriscan: bin.dat: binary file: scanned up to its first NUL byte, at offset 23 (-a scans it all)\n"
    );
    let o = d.command().args(["-a", "bin.dat"]).run();
    assert_eq!(stdout(&o), "http://before.org/\nhttp://hidden.org/\n");
    // Standard input is named too.
    let o = d
        .command()
        .stdin(&b"see http://before.org/ \x00\x01http://hidden.org/"[..])
        .run();
    assert_eq!(stdout(&o), "http://before.org/\n");
    assert!(
        stderr(&o).contains("<stdin>: binary file: scanned up to its first NUL byte, at offset 23")
    );
}

#[test]
fn compressed_files_with_search_zip() {
    use std::io::Write as _;
    let d = Dir::new();
    let text = b"see http://gz.example.org/a\n";
    d.create_gzip("a.txt.gz", text);
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text).unwrap();
    d.create_bytes("b.txt.bz2", &bz.finish().unwrap());
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(text).unwrap();
    d.create_bytes("c.txt.xz", &xz.finish().unwrap());
    d.create_bytes("d.txt.zst", &zstd::encode_all(&text[..], 3).unwrap());
    let o = d
        .command()
        .args([
            "-z",
            "--no-filename",
            "a.txt.gz",
            "b.txt.bz2",
            "c.txt.xz",
            "d.txt.zst",
        ])
        .run();
    assert_eq!(stdout(&o), "http://gz.example.org/a\n".repeat(4));
    assert_eq!(o.status.code(), Some(0));
}

/// `fixtures/encodings/NAME` (written by its `make.py`).
fn encoding_fixture(name: &str) -> Vec<u8> {
    fs::read(format!(
        "{}/fixtures/encodings/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Each JSON record of `o`: its URI, line, column, start and end; and
/// checks that the bytes from start to end, decoded as `encoding`, are the
/// URI (what `dd` cuts out of the file is the URI as encoded there, with
/// the whitespace of a wrapped one).
fn placed_records(
    o: &std::process::Output,
    input: &[u8],
    encoding: &'static encoding_rs::Encoding,
) -> Vec<(String, u64, u64, usize, usize)> {
    let records: Vec<_> = stdout(o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let n = |k: &str| v[k].as_u64().unwrap();
            let uri = v["uri"].as_str().unwrap().to_string();
            (
                uri,
                n("line"),
                n("column"),
                n("start") as usize,
                n("end") as usize,
            )
        })
        .collect();
    for (uri, _, _, start, end) in &records {
        let (text, _) = encoding.decode_without_bom_handling(&input[*start..*end]);
        let unwrapped: String = text.split_whitespace().collect();
        assert_eq!(&unwrapped, uri, "the bytes at {start}..{end}");
    }
    records
}

#[test]
fn utf16_files_with_a_bom_give_their_uris_at_their_bytes_in_the_file() {
    let d = Dir::new();
    for (name, encoding, tag) in [
        ("utf16le-bom.txt", encoding_rs::UTF_16LE, "le"),
        ("utf16be-bom.txt", encoding_rs::UTF_16BE, "be"),
    ] {
        let input = encoding_fixture(name);
        d.create_bytes(format!("walked/{name}"), &input);
        let o = d
            .command()
            .args(["--json", &format!("walked/{name}")])
            .run();
        assert_eq!((o.status.code(), stderr(&o).as_str()), (Some(0), ""));
        // Columns count the file's bytes: the BOM's 2 on line 1, then 2 a
        // character ("«" and "日" too).
        assert_eq!(
            placed_records(&o, &input, encoding),
            [
                (format!("http://example.org/{tag}"), 1, 77, 76, 118),
                (format!("https://example.org/{tag}/angle"), 2, 5, 132, 188),
                (format!("ftp://example.org/{tag}"), 2, 77, 204, 244),
            ]
        );
    }
    // Found by the walk, UTF-16 is text, not binary.
    let o = d.command().args(["--stats", "-c", "walked"]).run();
    assert!(stderr(&o).contains("2 files scanned, 0 binary skipped"));
    assert!(stdout(&o).contains("utf16be-bom.txt:3\n"), "{}", stdout(&o));
    // -E none reads its bytes: NULs, as before.
    let o = d
        .command()
        .args(["-E", "none", "walked/utf16le-bom.txt"])
        .run();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("first NUL byte, at offset 3"));
    // The NUL checked for is that of the decoded text, placed in the file.
    let mut nul = b"\xff\xfe".to_vec();
    let text = "see http://a.example/ \0 http://b.example/";
    nul.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    d.create_bytes("nul.txt", &nul);
    let o = d.command().arg("nul.txt").run();
    assert_eq!(stdout(&o), "http://a.example/\n");
    assert!(
        stderr(&o).contains("first NUL byte, at offset 46 "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_utf8_bom_is_skipped_and_its_bytes_counted_in_the_first_line_columns() {
    let input = encoding_fixture("utf8-bom.txt");
    let d = Dir::new();
    d.create_bytes("bom.txt", &input);
    let o = d.command().args(["-n", "--column", "bom.txt"]).run();
    assert_eq!(
        stdout(&o),
        "1:4:http://example.org/bom\n2:14:http://example.org/bom2\n"
    );
    // Skipped, the BOM no longer hides what follows it: a man page starts
    // like roff, and its escapes are read (`\-` is `-`).
    d.create_bytes(
        "tool.1",
        b"\xef\xbb\xbf.TH TOOL 1\n.SH \"SEE ALSO\"\nhttp://example.org/a\\-b\n",
    );
    let o = d.command().args(["-n", "--column", "tool.1"]).run();
    assert_eq!(stdout(&o), "3:1:http://example.org/a-b\n");
}

/// An IRI in a decoded input: read whole, printed as its URI, placed at
/// its own bytes in the file (`é` is one byte in Latin-1).
#[test]
fn an_iri_in_a_decoded_input_is_whole_and_placed_in_the_file() {
    let d = Dir::new();
    d.create_bytes(
        "l1.txt",
        b"voir http://example.org/caf\xe9 et \xabhttp://x.org/\xbb\n",
    );
    let o = d.command().args(["--json", "-E", "latin1", "l1.txt"]).run();
    let records: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let fields = |v: &serde_json::Value| {
        (
            v["uri"].as_str().unwrap().to_string(),
            v["iri"].as_str().map(str::to_string),
            v["start"].as_u64().unwrap(),
            v["end"].as_u64().unwrap(),
            v["delimiter"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        records.iter().map(fields).collect::<Vec<_>>(),
        [
            (
                "http://example.org/caf%C3%A9".to_string(),
                Some("http://example.org/café".to_string()),
                5,
                28,
                "none".to_string()
            ),
            (
                "http://x.org/".to_string(),
                None,
                33,
                46,
                "quote".to_string()
            ),
        ]
    );
    // Read as bytes, the Latin-1 `é` is no character: it ends the URI.
    let o = d.command().args(["--iri", "keep", "l1.txt"]).run();
    assert_eq!(stdout(&o), "http://example.org/caf\nhttp://x.org/\n");
}

#[test]
fn encoding_flag_decodes_latin1_and_shift_jis_and_places_uris_in_the_file() {
    let d = Dir::new();
    let latin1 = encoding_fixture("latin1.txt");
    d.create_bytes("latin1.txt", &latin1);
    let o = d
        .command()
        .args(["--json", "-E", "latin1", "latin1.txt"])
        .run();
    // One byte a character: "Déjà vu: " is 9 bytes in the file (11 in
    // UTF-8).
    assert_eq!(
        placed_records(&o, &latin1, encoding_rs::WINDOWS_1252),
        [
            ("http://example.org/menu".to_string(), 1, 10, 9, 32),
            ("http://example.org/ref".to_string(), 2, 6, 58, 80),
        ]
    );
    let sjis = encoding_fixture("shift_jis.txt");
    d.create_bytes("sjis.txt", &sjis);
    // Read as bytes, ジ and 「 end in the letters W and u, glued to the
    // scheme: letters glued to `http` are not part of it.
    let o = d.command().arg("sjis.txt").run();
    assert_eq!(stdout(&o), "http://example.jp/\nhttp://example.jp/docs\n");
    let o = d
        .command()
        .args(["--json", "--encoding=shift_jis", "sjis.txt"])
        .run();
    // ホームページ is 12 bytes; line 2 starts at byte 38, and 詳しくは「
    // is 10 bytes.
    assert_eq!(
        placed_records(&o, &sjis, encoding_rs::SHIFT_JIS),
        [
            ("http://example.jp/".to_string(), 1, 13, 12, 30),
            ("http://example.jp/docs".to_string(), 2, 11, 48, 70),
        ]
    );
    // A BOM wins over the label, as in ripgrep.
    let le = encoding_fixture("utf16le-bom.txt");
    d.create_bytes("le.txt", &le);
    let o = d.command().args(["-E", "shift_jis", "-c", "le.txt"]).run();
    assert_eq!(stdout(&o), "3\n");
}

#[test]
fn unknown_encoding_label_is_a_usage_error() {
    let o = TestCommand::new().args(["-E", "klingon", "-"]).run();
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(2), ""));
    assert_eq!(
        stderr(&o),
        "uriscan: --encoding: unknown encoding label \"klingon\" (use auto, none, or a \
         label of the WHATWG Encoding Standard, listed at \
         https://encoding.spec.whatwg.org/#names-and-labels)\n"
    );
}

#[test]
fn decoded_inputs_with_search_zip_documents_and_threads() {
    let d = Dir::new();
    // Decompressed, then decoded: offsets in the decompressed bytes.
    let le = encoding_fixture("utf16le-bom.txt");
    d.create_gzip("le.txt.gz", &le);
    d.create_bytes("le.txt", &le);
    let plain = d.command().args(["--json", "le.txt"]).run();
    let zipped = d.command().args(["--json", "-z", "le.txt.gz"]).run();
    assert_eq!(
        stdout(&zipped).replace("le.txt.gz", "le.txt"),
        stdout(&plain)
    );
    // A document in UTF-16: its markup is read, its link placed in the file.
    let mut html = b"\xff\xfe".to_vec();
    let page = "<p>Lire <a href=\"http://example.org/doc\">la doc</a>, été.</p>\n";
    html.extend(page.encode_utf16().flat_map(u16::to_le_bytes));
    d.create_bytes("page.html", &html);
    let o = d.command().args(["--json", "page.html"]).run();
    assert_eq!(
        placed_records(&o, &html, encoding_rs::UTF_16LE),
        [("http://example.org/doc".to_string(), 1, 37, 36, 80)]
    );
    // One large input: scanned on one thread, whatever -j says, in bounded
    // memory (decoded 64 KiB at a time); every URI placed.
    let text: String = (0..30_000)
        .map(|i| format!("{i} ライン <http://example.org/{i}/\n  wrapped> é\n"))
        .collect();
    let mut big = b"\xff\xfe".to_vec();
    big.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    d.create_bytes("big.txt", &big);
    let one = d.command().args(["--json", "-j1", "big.txt"]).run();
    let two = d.command().args(["--json", "-j2", "big.txt"]).run();
    assert_eq!(stdout(&one), stdout(&two));
    let records = placed_records(&one, &big, encoding_rs::UTF_16LE);
    assert_eq!(records.len(), 30_000);
    let last = &records[29_999];
    assert_eq!(last.0, "http://example.org/29999/wrapped");
    // "29999 ライン <" is 11 characters, 22 bytes.
    assert_eq!((last.1, last.2), (59_999, 23));
}

/// The `(iri or uri, start, end)` of each record of `o`, each checked to
/// be written in `input`'s bytes at `start..end` in `encoding`.
fn placed_iris(
    o: &std::process::Output,
    input: &[u8],
    encoding: &'static encoding_rs::Encoding,
) -> Vec<(String, usize, usize)> {
    let records: Vec<_> = stdout(o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let text = v.get("iri").unwrap_or(&v["uri"]).as_str().unwrap();
            let n = |k: &str| v[k].as_u64().unwrap() as usize;
            (text.to_string(), n("start"), n("end"))
        })
        .collect();
    for (text, start, end) in &records {
        let (written, _) = encoding.decode_without_bom_handling(&input[*start..*end]);
        assert_eq!(&written, text, "the bytes at {start}..{end}");
    }
    records
}

#[test]
fn html_and_xml_documents_are_decoded_from_the_encoding_they_declare() {
    let d = Dir::new();
    // A page saved from an old site, in windows-1252 as it says: its
    // href and its text's IRI were cut at (or lost to) the first byte
    // beyond ASCII.
    let page = "<html><head><meta http-equiv=\"Content-Type\" \
                content=\"text/html; charset=iso-8859-1\"></head>\n\
                <body><a href=\"https://example.org/café\">Café</a>\n\
                « https://example.org/naïve » et “https://example.org/q”</body></html>\n";
    let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode(page);
    d.create_bytes("page.html", &latin1);
    let o = d.command().args(["--json", "page.html"]).run();
    let found = placed_iris(&o, &latin1, encoding_rs::WINDOWS_1252);
    let texts: Vec<_> = found.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        texts,
        [
            "https://example.org/café",
            "https://example.org/naïve",
            "https://example.org/q"
        ]
    );
    assert!(stdout(&o).contains("\"uri\":\"https://example.org/caf%C3%A9\""));
    // `-E none` reads the bytes as they are, as before.
    let o = d.command().args(["-E", "none", "page.html"]).run();
    assert_eq!(
        stdout(&o),
        "https://example.org/na\nhttps://example.org/q\n"
    );
    // The same bytes in a file that is not a document are not decoded.
    d.create_bytes("page.txt", &latin1);
    let o = d.command().args(["page.txt"]).run();
    assert_eq!(
        stdout(&o),
        "https://example.org/caf\nhttps://example.org/na\nhttps://example.org/q\n"
    );

    // A feed in EUC-KR, as its XML declaration says (from chardet's
    // test files of real feeds).
    let feed = "<?xml version=\"1.0\" encoding=\"euc-kr\"?>\n<rss><item>\n\
                <link>http://alogblog.com/blog/archives/2004/11/한글_표시하기.php</link>\n\
                </item></rss>\n";
    let (euc_kr, _, _) = encoding_rs::EUC_KR.encode(feed);
    d.create_bytes("feed.xml", &euc_kr);
    let o = d.command().args(["--json", "feed.xml"]).run();
    let found = placed_iris(&o, &euc_kr, encoding_rs::EUC_KR);
    assert_eq!(
        found.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
        ["http://alogblog.com/blog/archives/2004/11/한글_표시하기.php"]
    );

    // A page saved as UTF-8 that still says iso-8859-1 is read as UTF-8:
    // `café`, not `cafÃ©`.
    let mislabelled = page.replace("iso-8859-1", "ISO-8859-1").into_bytes();
    d.create_bytes("utf8.html", &mislabelled);
    let o = d.command().args(["--json", "utf8.html"]).run();
    let found = placed_iris(&o, &mislabelled, encoding_rs::UTF_8);
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].0, "https://example.org/café");
}

#[test]
fn directory_walk_respects_ignore_files_and_sorts() {
    let d = Dir::new();
    d.create("tree/b.txt", "http://b.org/\n");
    d.create("tree/a.txt", "http://a.org/\n");
    d.create("tree/sub/c.md", "http://c.org/\n");
    d.create("tree/.hidden.txt", "http://hidden.org/\n");
    d.create("tree/skip.log", "http://ignored.org/\n");
    d.create("tree/.gitignore", "*.log\n");
    let o = d.command().args(["--no-filename", "tree"]).run();
    assert_eq!(stdout(&o), "http://a.org/\nhttp://b.org/\nhttp://c.org/\n");
    let o = d
        .command()
        .args(["--no-filename", "--hidden", "--no-ignore", "tree"])
        .run();
    assert_eq!(
        stdout(&o),
        "http://hidden.org/\nhttp://a.org/\nhttp://b.org/\nhttp://ignored.org/\nhttp://c.org/\n"
    );
    let o = d
        .command()
        .args(["--no-filename", "-g", "*.md", "tree"])
        .run();
    assert_eq!(stdout(&o), "http://c.org/\n");
    let o = d.command().args(["tree"]).run();
    assert!(
        stdout(&o).starts_with("tree/a.txt:http://a.org/\n"),
        "a directory turns file names on"
    );
    // Depth first, each directory by name: `sub` and what is in it come
    // before `sub-x.txt` (whose bytes sort before `sub/`, as `-` < `/`).
    d.create("tree/sub-x.txt", "http://x.org/\n");
    d.create("tree/sub/d/e.md", "http://e.org/\n");
    let o = d.command().args(["--no-filename", "tree"]).run();
    assert_eq!(
        stdout(&o),
        "http://a.org/\nhttp://b.org/\nhttp://c.org/\nhttp://e.org/\nhttp://x.org/\n"
    );
}

#[cfg(unix)]
#[test]
fn fifo_in_a_walked_directory_is_skipped() {
    let d = Dir::new();
    d.create("tree/a.txt", "http://a.org/\n");
    let fifo = d.path().join("tree/pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo unavailable; skipping");
        return;
    }
    let o = d.command().args(["tree"]).run();
    assert_eq!(stdout(&o), "tree/a.txt:http://a.org/\n");
}

#[test]
fn output_is_identical_whatever_the_threads() {
    let d = Dir::new();
    for i in 0..40 {
        let body: String = (0..50)
            .map(|j| format!("line {j} <http://h{i}.org/p/{j}>\n"))
            .collect();
        d.create(format!("t/f{i:02}.txt"), &body);
    }
    let one = d.command().args(["-j1", "-n", "t"]).run();
    let many = d.command().args(["-j8", "-n", "t"]).run();
    assert_eq!(one.stdout, many.stdout);
    assert_eq!(stdout(&one).lines().count(), 2000);
}

#[test]
fn closed_pipe_ends_quietly() {
    let d = Dir::new();
    let big: String = (0..200_000)
        .map(|i| format!("http://example.org/{i}\n"))
        .collect();
    d.create("big.txt", &big);
    let mut child = d.command().arg("big.txt").spawn();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let o = common::wait_bounded(child, "closed pipe");
    assert_eq!(&first, b"http://exa");
    assert_eq!(stderr(&o), "", "no panic, no message");
    assert_eq!(o.status.code(), Some(0));
}

#[cfg(target_os = "linux")]
#[test]
fn full_disk_is_a_write_error() {
    let d = Dir::new();
    d.create("a.txt", "http://a.org/\n");
    let full = fs::File::create("/dev/full").unwrap();
    let o = d.command().arg("a.txt").stdout_to(full).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "uriscan: write error: no space left on device\n"
    );
}

#[test]
fn parse_subcommand() {
    let d = Dir::new();
    let o = d
        .command()
        .args(["parse", "--", "s:?", "http://u@[::1]:80/p?q#f", "a b"])
        .run();
    assert_eq!(o.status.code(), Some(1));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["query"], "");
    assert!(rows[0]["fragment"].is_null() && rows[0]["authority"].is_null());
    assert_eq!(rows[0]["path"], "");
    assert_eq!(rows[1]["host"], "[::1]");
    assert_eq!(rows[1]["host_kind"], "ipv6");
    assert_eq!(rows[1]["port"], "80");
    assert_eq!(rows[1]["userinfo"], "u");
    assert_eq!(rows[2]["valid"], false);
    assert_eq!(rows[2]["index"], 1);
    assert_eq!(rows[2]["error"], "invalid character in path at byte 1");
    let o = d
        .command()
        .args(["parse"])
        .stdin(b"http://a/\r\nmailto:x@y\n")
        .run();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn resolve_and_normalize_subcommands() {
    let d = Dir::new();
    let o = d
        .command()
        .args(["resolve", "http://a/b/c/d;p?q", "--", "../g", "?y", "g:h"])
        .run();
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "http://a/b/g\nhttp://a/b/c/d;p?y\ng:h\n")
    );
    let o = d
        .command()
        .args(["resolve", "http://a/b/c/d;p?q"])
        .stdin(b"../../g\n")
        .run();
    assert_eq!(stdout(&o), "http://a/g\n");
    let o = d
        .command()
        .args(["resolve", "http://a/", "x y", "ok"])
        .run();
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(1), "http://a/ok\n")
    );
    assert!(stderr(&o).contains("reference \"x y\": invalid character in path at byte 1"));
    let o = d.command().args(["resolve", "rel/base", "g"]).run();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("base \"rel/base\""));
    let o = d
        .command()
        .args(["normalize", "HTTP://Example.COM:80/a/./b/../%7e"])
        .run();
    assert_eq!(stdout(&o), "http://example.com/a/~\n");
}

#[test]
fn help_version_completions_and_man_page() {
    let d = Dir::new();
    let o = d.command().args(["--help"]).run();
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Examples:"));
    let o = d.command().args(["--version"]).run();
    assert!(stdout(&o).starts_with("uriscan "));
    let o = d.command().args(["generate", "bash"]).run();
    assert!(stdout(&o).contains("_uriscan()"));
    let o = d.command().args(["generate", "man"]).run();
    assert!(stdout(&o).contains(".TH uriscan"));
}

#[test]
fn a_file_named_like_a_subcommand_is_scanned_as_a_path() {
    let d = Dir::new();
    d.create("parse", "http://a.org/\n");
    let o = d.command().args(["./parse"]).run();
    assert_eq!(stdout(&o), "http://a.org/\n");
}

/// The README's first command runs on this sample.
#[test]
fn readme_sample() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/readme-sample.txt");
    let d = Dir::new();
    let o = d.command().args([sample]).run();
    assert_eq!(o.status.code(), Some(0));
    let want = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/readme-sample.expected"
    ))
    .unwrap();
    assert_eq!(stdout(&o), want);
}

/// One large input is cut into chunks scanned on all threads: the output
/// is byte for byte that of one thread, from a file and from stdin, with
/// URIs wrapped in brackets and quotes across the cuts.
#[test]
fn one_large_input_on_many_threads_prints_what_one_thread_does() {
    let d = Dir::new();
    let mut text = String::new();
    for i in 0..60_000 {
        text.push_str(&match i % 5 {
            0 => format!("line {i} see <http://h{i}.org/a/\n   b/{i}> and \"http://q{i}.org/\".\n"),
            1 => format!("> quoted <http://m{i}.org/x-\n> y> (http://p{i}.org/q)\n"),
            2 => format!(
                "{} http://long{i}.org/{}\n",
                "word ".repeat(i % 40),
                "z".repeat(i % 300)
            ),
            3 => "\n\nFooter [Page 1]\n\x0cRFC Header\n".to_string(),
            _ => format!("URL:http://u{i}.org/ <URL: http://v{i}.org/>\n"),
        });
    }
    assert!(text.len() > 4 * uriscan::scan::DEFAULT_CHUNK_SIZE);
    let path = d.create("big.txt", &text);
    for flags in [&["-n", "--column"][..], &["--json"]] {
        let one = d.command().arg("-j1").args(flags).arg(&path).run();
        let many = d.command().arg("-j3").args(flags).arg(&path).run();
        assert!(one.stdout == many.stdout, "{flags:?}: -j1 and -j3 differ");
        // Segments small enough that every kind of line meets a boundary.
        for size in ["4096", "65537"] {
            let many = d
                .command()
                .args(["-j3", "--segment-size", size])
                .args(flags)
                .arg(&path)
                .run();
            assert!(
                one.stdout == many.stdout,
                "{flags:?}: segments of {size} differ"
            );
        }
        let piped = d
            .command()
            .arg("-j3")
            .args(flags)
            .stdin(text.as_bytes())
            .run();
        assert_eq!(
            stdout(&piped).lines().count(),
            stdout(&one).lines().count(),
            "{flags:?} from stdin"
        );
    }
    let one = d.command().args(["-j1", &path.to_string_lossy()]).run();
    assert!(stdout(&one).lines().count() > 80_000);
}

/// Standard input that is a regular file (`uriscan < big.log`) is cut into
/// segments like a named file, read at offsets while the first unit reads
/// on: the output is that of one thread, and the file is left read to its
/// end. A file read from part way (the rest of what a shell group left) is
/// scanned from there, as a stream; standard input named twice is read in
/// turn, the second time at its end.
#[cfg(unix)]
#[test]
fn standard_input_that_is_a_file_prints_what_one_thread_does() {
    use std::io::{Seek, SeekFrom};
    let d = Dir::new();
    let text: String = (0..20_000)
        .map(|i| match i % 3 {
            0 => format!("line {i} <http://h{i}.org/a/\n   b/{i}> and \"http://q{i}.org/\".\n"),
            1 => format!("URL:http://u{i}.org/ (see http://p{i}.org/q)\n"),
            _ => "\n".to_string(),
        })
        .collect();
    let text_path = d.create("big.txt", &text);
    let mbox: String = (0..2_000)
        .map(|i| {
            format!(
                "From a@b Mon Jan  1 00:00:00 2024\nSubject: {i}\n\nsee <http://m{i}.org/\n x>\n\n"
            )
        })
        .collect();
    let mbox_path = d.create("big.mbox", &mbox);
    let open = |path: &std::path::Path| std::fs::File::open(path).unwrap();
    for (path, flags) in [
        (&text_path, &["-n", "--column"][..]),
        (&text_path, &["--json"]),
        (&mbox_path, &["--json", "-n"]),
    ] {
        let one = d
            .command()
            .arg("-j1")
            .args(flags)
            .stdin_from(open(path))
            .run();
        assert!(stdout(&one).lines().count() >= 2_000, "{flags:?}");
        for size in ["1000", "65537"] {
            let many = d
                .command()
                .args(["-j3", "--segment-size", size])
                .args(flags)
                .stdin_from(open(path))
                .run();
            assert!(
                one.stdout == many.stdout,
                "{flags:?} at {size}: stdout differs"
            );
        }
    }
    let mut part_read = open(&text_path);
    part_read.seek(SeekFrom::Start(100_000)).unwrap();
    let rest = d
        .command()
        .args(["-j3", "--segment-size", "1000", "-n", "--column"])
        .stdin_from(part_read)
        .run();
    let piped = d
        .command()
        .args(["-j1", "-n", "--column"])
        .stdin(&text.as_bytes()[100_000..])
        .run();
    assert!(rest.stdout == piped.stdout, "a file read from part way");
    assert!(!rest.stdout.is_empty());

    // The offset is shared with the caller's handle: a cut scan leaves it
    // at the end, where reading to the end would.
    let file = open(&text_path);
    let mut callers = file.try_clone().unwrap();
    let cut = d
        .command()
        .args(["-j3", "--segment-size", "1000", "-c"])
        .stdin_from(file)
        .run();
    assert_eq!(
        stdout(&cut).trim(),
        stdout(&d.command().args(["-c"]).arg(&text_path).run()).trim()
    );
    assert_eq!(callers.stream_position().unwrap(), text.len() as u64);

    let twice = |j: &str| {
        d.command()
            .args([j, "--segment-size", "1000", "-c", "-", "-"])
            .stdin_from(open(&text_path))
            .run()
    };
    let (one, many) = (twice("-j1"), twice("-j3"));
    assert!(stdout(&one).contains("<stdin>:0\n"), "{}", stdout(&one));
    assert_eq!(stdout(&one), stdout(&many));
}

/// Standard input named many times, a pipe that makes the reader wait
/// between two lines, on many threads: the first `-` reads all of it and
/// the others find it read, as with one thread, also when it is named as
/// `/dev/stdin`. Before each waited for the one before it, a later `-`
/// could take standard input first, then wait for its turn while holding
/// it, and the run hung (about one run in six, with eight `-`); and
/// `/dev/stdin` read at the same time as `-` took some of the lines.
#[test]
fn standard_input_named_many_times_is_read_in_turn() {
    use std::io::Write;
    let d = Dir::new();
    let mut named = vec![["-"; 8].to_vec()];
    if std::path::Path::new("/dev/stdin").exists() {
        named.push(["-", "/dev/stdin", "-", "/dev/stdin"].to_vec());
    }
    for paths in named {
        for _ in 0..20 {
            let mut child = d.command().arg("-j8").args(&paths).spawn();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"see http://a.example/1\n").unwrap();
            std::thread::sleep(Duration::from_millis(20));
            stdin.write_all(b"and http://b.example/2\n").unwrap();
            drop(stdin);
            let o = common::wait_bounded(child, &format!("uriscan -j8 {paths:?}"));
            assert_eq!(
                stdout(&o),
                "<stdin>:http://a.example/1\n<stdin>:http://b.example/2\n",
                "{paths:?}"
            );
        }
    }
}

/// A tree of small and large files, some of which look segmentable but are
/// not read as plain text (binary, UTF-16, one message, compressed): every
/// file is printed whole and in walk order, with its own line numbers,
/// counts and notes, whatever the threads and the segment size.
#[test]
fn large_files_among_small_ones_print_what_one_thread_does() {
    let d = Dir::new();
    let lines = |tag: &str, n: usize| -> String {
        (0..n)
            .map(|i| format!("{tag} {i} <http://{tag}.org/{i}/\n  w> \"http://q.org/{i}\"\n"))
            .collect()
    };
    d.create("t/a-small.txt", "see http://a.org/\n");
    d.create("t/b-big.txt", &lines("b", 3000));
    d.create("t/c/d-big.log", &lines("d", 2000));
    d.create("t/c/e.txt", "and http://e.org/\n");
    let mut binary = lines("bin", 100).into_bytes();
    binary[50] = 0;
    d.create_bytes("t/f-binary.dat", &binary);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(lines("u", 1000).encode_utf16().flat_map(u16::to_le_bytes));
    d.create_bytes("t/g-utf16.txt", &utf16);
    let message = format!("From: a@b.org\nSubject: s\nDate: x\n\n{}", lines("m", 1000));
    d.create("t/h-message.eml", &message);
    let mbox: String = (0..300)
        .map(|i| {
            format!(
                "From a@b Mon Jan  1 00:00:00 2024\nSubject: {i}\n\n{}\n",
                lines("x", 5)
            )
        })
        .collect();
    d.create("t/i.mbox", &mbox);
    d.create_gzip("t/j.txt.gz", lines("z", 1000).as_bytes());
    for flags in [
        &["-n", "--column", "-z"][..],
        &["--json", "-z"],
        &["-c"],
        &["--stats", "-u"],
        &["-n", "--column", "t/f-binary.dat", "t/b-big.txt"],
    ] {
        let one = d.command().arg("-j1").args(flags).arg("t").run();
        assert!(
            stdout(&one).lines().count() > 7,
            "{flags:?}: {}",
            stdout(&one)
        );
        for size in ["1000", "7777"] {
            let many = d
                .command()
                .args(["-j3", "--segment-size", size])
                .args(flags)
                .arg("t")
                .run();
            assert!(
                one.stdout == many.stdout,
                "{flags:?} at {size}: stdout differs"
            );
            let stats = |o: &std::process::Output| {
                let e = stderr(o);
                e.lines()
                    .map(|l| l.split(" in ").next().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                stats(&one),
                stats(&many),
                "{flags:?} at {size}: stderr differs"
            );
        }
    }
}

/// Over the shared corpus, one thread and many print the same bytes.
#[test]
fn corpus_output_is_identical_whatever_the_threads() {
    let Some(corpus) = common::shared("corpus") else {
        return;
    };
    let d = Dir::new();
    let corpus = corpus.to_str().unwrap();
    let one = d.command().args(["-j1", "--json", corpus]).run();
    let many = d.command().args(["-j4", "--json", corpus]).run();
    assert_eq!(one.status.code(), Some(0));
    assert!(one.stdout == many.stdout, "-j1 and -j4 differ");
}

/// A candidate longer than the scanner's limit is given up on and said so.
#[test]
fn over_long_candidates_are_reported() {
    let d = Dir::new();
    d.create(
        "long.txt",
        &format!("x http://a.org/{} http://b.org/\n", "a".repeat(70_000)),
    );
    let o = d.command().args(["--stats", "long.txt"]).run();
    assert_eq!(stdout(&o), "http://b.org/\n");
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("long.txt: warning: 1 candidate(s) of 64 KiB or more skipped"),
        "{err}"
    );
    assert!(err.contains("1 over-long candidates skipped"), "{err}");
}

/// The `--mail` help was cut at its first line: "By default, inputs that
/// look like mail are". Both helps now say the whole rule.
#[test]
fn mail_help_reads_whole() {
    let d = Dir::new();
    let short = stdout(&d.command().args(["-h"]).run());
    let line = short.lines().find(|l| l.contains("--mail ")).unwrap();
    assert!(
        line.ends_with(" Read every input as mail, decoding each part before scanning"),
        "{line}"
    );
    let long = stdout(&d.command().args(["--help"]).run());
    assert!(
        long.contains("an input is read as mail when it looks like mail"),
        "{long}"
    );
    assert!(!long.contains("look like mail are"), "{long}");
}

/// The over-long warning gives the limit in force, not the default: with
/// `--max-candidate-len 300`, a 400-byte URI is over-long and said to be
/// longer than 300 bytes (it said 64 KiB whatever the limit).
#[test]
fn over_long_warning_gives_the_configured_limit() {
    let d = Dir::new();
    let long = format!("http://a.org/{}", "a".repeat(400 - 13));
    assert_eq!(long.len(), 400);
    d.create("long.txt", &format!("x {long} http://b.org/\n"));
    let o = d
        .command()
        .args(["--max-candidate-len", "300", "long.txt"])
        .assert_exit(0);
    assert_eq!(stdout(&o), "http://b.org/\n");
    assert_eq!(
        stderr(&o),
        "uriscan: long.txt: warning: 1 candidate(s) of 300 bytes or more skipped\n"
    );
    let o = d.command().arg("long.txt").assert_exit(0);
    assert_eq!(
        (stdout(&o), stderr(&o)),
        (format!("{long}\nhttp://b.org/\n"), String::new())
    );
    let o = d
        .command()
        .args(["--max-candidate-len", "2048", "long.txt"])
        .assert_exit(0);
    assert_eq!(stderr(&o), "");
    d.create(
        "longer.txt",
        &format!("x {long}{} http://b.org/\n", "a".repeat(2000)),
    );
    let o = d
        .command()
        .args(["--max-candidate-len", "2048", "longer.txt"])
        .assert_exit(0);
    assert!(
        stderr(&o).contains("of 2 KiB or more skipped"),
        "{}",
        stderr(&o)
    );
    let o = d
        .command()
        .args(["--max-candidate-len", "100", "long.txt"])
        .assert_exit(2);
    assert_eq!(
        stderr(&o),
        "uriscan: --max-candidate-len must be at least 256\n"
    );
}

#[test]
fn files_with_matches_names_each_input_with_a_uri_once_in_order() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    d.create("none.txt", "no links here\n");
    d.create("b.txt", "http://b.org/ and http://b.org/2\n");
    d.create("bad.txt", "only http://example.com:8a/ here\n");
    let o = d
        .command()
        .args(["-l", "b.txt", "none.txt", "a.txt"])
        .assert_exit(0);
    assert_eq!(stdout(&o), "b.txt\na.txt\n");
    let o = d
        .command()
        .args(["--files-with-matches", "-0", "a.txt", "b.txt"])
        .assert_exit(0);
    assert_eq!(stdout(&o), "a.txt\0b.txt\0");
    // An invalid candidate is not a URI, even when printed with --invalid.
    let o = d
        .command()
        .args(["-l", "--invalid", "none.txt", "bad.txt"])
        .assert_exit(1);
    assert_eq!(stdout(&o), "");
    let o = d
        .command()
        .args(["-l", "missing.txt", "a.txt"])
        .assert_exit(2);
    assert_eq!(stdout(&o), "a.txt\n");
    assert_eq!(
        stderr(&o),
        "uriscan: missing.txt: no such file or directory\n"
    );
    // -u does not hide an input whose URIs all came before.
    d.create("b2.txt", "http://b.org/\n");
    let o = d
        .command()
        .args(["-l", "-u", "b.txt", "b2.txt"])
        .assert_exit(0);
    assert_eq!(stdout(&o), "b.txt\nb2.txt\n");
    let o = d.command().arg("-l").stdin(SAMPLE).assert_exit(0);
    assert_eq!(stdout(&o), "<stdin>\n");
    let o = d
        .command()
        .args(["-l", "--color", "always", "b.txt"])
        .assert_exit(0);
    assert_eq!(stdout(&o), "\x1b[35mb.txt\x1b[0m\n");
    for i in 0..30 {
        let body = if i % 3 == 0 {
            "nothing\n"
        } else {
            "http://x.org/\n"
        };
        d.create(format!("t/f{i:02}.txt"), body);
    }
    let want: String = (0..30)
        .filter(|i| i % 3 != 0)
        .map(|i| format!("t/f{i:02}.txt\n"))
        .collect();
    for j in ["-j1", "-j4"] {
        assert_eq!(
            stdout(&d.command().args([j, "-l", "t"]).assert_exit(0)),
            want
        );
    }
    let o = d.command().args(["-l", "--json", "a.txt"]).assert_exit(2);
    assert_eq!(
        stderr(&o),
        "uriscan: --json and --files-with-matches cannot be used together\n"
    );
}

#[test]
fn quiet_prints_nothing_and_exits_by_what_was_found() {
    let d = Dir::new();
    d.create("a.txt", SAMPLE);
    d.create("none.txt", "no links here\n");
    let quiet = |args: &[&str], code| {
        let o = d.command().arg("-q").args(args).assert_exit(code);
        assert_eq!(stdout(&o), "", "{args:?}");
        stderr(&o)
    };
    assert_eq!(quiet(&["a.txt"], 0), "");
    assert_eq!(quiet(&["none.txt", "a.txt"], 0), "");
    let o = d.command().args(["--quiet", "a.txt"]).assert_exit(0);
    assert_eq!((stdout(&o), stderr(&o)), (String::new(), String::new()));
    assert_eq!(quiet(&["none.txt"], 1), "");
    let missing = "uriscan: missing.txt: no such file or directory\n";
    assert_eq!(quiet(&["none.txt", "missing.txt"], 2), missing);
    // As with grep, a URI found wins over an error met before it ...
    assert_eq!(quiet(&["missing.txt", "a.txt"], 0), missing);
    // ... and the run stops at the first URI: what follows is not read.
    assert_eq!(quiet(&["a.txt", "missing.txt"], 0), "");
    assert_eq!(quiet(&["-j4", "a.txt", "missing.txt"], 0), "");
    // --stats asks for the whole run.
    let err = quiet(&["--stats", "a.txt", "missing.txt"], 0);
    assert!(err.starts_with(missing), "{err}");
    assert!(
        err.contains("1 files scanned, 0 binary skipped, 1 errors"),
        "{err}"
    );
    let o = d.command().args(["-q", "-c", "a.txt"]).assert_exit(2);
    assert_eq!(
        stderr(&o),
        "uriscan: --count and --quiet cannot be used together\n"
    );
}

/// `-q` ends the run at the first URI: here stdin stays open after it (a
/// `tail -f`), and the run must end without waiting for its end.
#[test]
fn quiet_stops_at_the_first_uri_without_reading_on() {
    use std::io::Write;
    let mut child = TestCommand::new().arg("-q").spawn();
    let mut stdin = child.stdin.take().unwrap();
    // More than the binary probe and a batch of records.
    stdin
        .write_all("see http://a.org/ here\n".repeat(2000).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let t = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            t.elapsed() < std::time::Duration::from_secs(20),
            "-q still reading after a URI"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    drop(stdin);
    let o = common::wait_bounded(child, "-q");
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), String::new()));
}

/// With no PATH and a terminal on stdin, the current directory is scanned
/// (as ripgrep does), its paths printed without `./`; uriscan used to wait
/// silently for text typed in. `script` gives the run a pseudo-terminal.
#[cfg(target_os = "linux")]
#[test]
fn no_path_and_a_terminal_scans_the_current_directory() {
    let d = Dir::new();
    d.create("a.txt", "http://a.org/\n");
    d.create("sub/b.txt", "see <http://b.org/x>\n");
    let has_script = Command::new("script")
        .args(["-qec", "true", "/dev/null"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_script {
        eprintln!("note: script (util-linux) unavailable; skipping");
        return;
    }
    let o = d
        .command_via(&[
            "sh",
            "-c",
            "exec script -qec \"'$0' --color never\" /dev/null",
        ])
        .assert_exit(0);
    assert_eq!(
        stdout(&o).replace("\r\n", "\n"),
        "a.txt:http://a.org/\nsub/b.txt:http://b.org/x\n"
    );
    // Named, `.` keeps its `./`.
    let o = d.command().arg(".").assert_exit(0);
    assert_eq!(
        stdout(&o),
        "./a.txt:http://a.org/\n./sub/b.txt:http://b.org/x\n"
    );
}

/// With no PATH, stdin that is a pipe or a file is read, not the directory.
#[test]
fn no_path_and_piped_stdin_reads_stdin() {
    let d = Dir::new();
    d.create("a.txt", "http://a.org/\n");
    let o = d.command().stdin("see http://piped.org/\n").assert_exit(0);
    assert_eq!(stdout(&o), "http://piped.org/\n");
    let o = d.command().run();
    assert_eq!((o.status.code(), stdout(&o)), (Some(1), String::new()));
}

/// `generate man` gives one self-contained page: its SUBCOMMANDS section
/// describes each subcommand (usage, what it does, its arguments) instead
/// of pointing to `uriscan-parse(1)` and other pages nothing generates.
#[test]
fn man_page_describes_its_subcommands_itself() {
    let d = Dir::new();
    let page = stdout(&d.command().args(["generate", "man"]).assert_exit(0));
    assert!(!page.contains("uriscan\\-"), "a reference to another page");
    for section in [
        "SYNOPSIS",
        "OPTIONS",
        "SUBCOMMANDS",
        "EXAMPLES",
        "\"EXIT STATUS\"",
    ] {
        let heading = format!("\n.SH {section}\n");
        assert!(page.contains(&heading), "no {section} section");
    }
    for (usage, about) in [
        ("\\fBuriscan parse\\fR [URI]...", "Parse URI references"),
        (
            "\\fBuriscan resolve\\fR <BASE> [REF]...",
            "Resolve references against a base URI",
        ),
        (
            "\\fBuriscan normalize\\fR [URI]...",
            "Print the normalized form of each URI",
        ),
        (
            "\\fBuriscan generate\\fR <WHAT>",
            "Print a shell completion script or the man page",
        ),
    ] {
        let at = page
            .find(&format!(".TP\n{usage}\n{about}"))
            .unwrap_or_else(|| panic!("{usage}"));
        assert!(at > page.find(".SH SUBCOMMANDS").unwrap());
    }
    assert!(
        page.contains("\\fIWHAT\\fR\nWhat to generate: man, bash, zsh, fish, elvish, powershell.")
    );
    assert!(
        page.contains("\\fBuriscan\\fR resolve <BASE> [REF]...\n"),
        "synopsis"
    );
    // groff, where it is installed, reads the page without a warning.
    let groff = Command::new("groff")
        .args(["-man", "-ww", "-z"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    if let Ok(mut groff) = groff {
        use std::io::Write;
        groff
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let o = groff.wait_with_output().unwrap();
        assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
    }
}

/// The file the output goes to is never read back: found by the walk, it
/// is left out (as ripgrep does); named, or given as standard input, it is
/// reported and skipped, with exit code 2 (as grep does). Read, it would
/// give back the URIs written to it, without end: the output is large
/// enough here to reach the file before the walk does. (The runs are
/// limited to 10 MB of output, so that a run that reads it back fails
/// rather than fill the disk.)
#[test]
fn the_output_file_is_not_read_back() {
    let d = Dir::new();
    let many: String = (0..20_000)
        .map(|i| format!("http://a.example/{i}\n"))
        .collect();
    d.create("a.txt", &many);
    let expected: String = many.lines().map(|l| format!("./a.txt:{l}\n")).collect();
    let out = d.path().join("out.txt");
    let limited = || d.command_via(&["sh", "-c", "ulimit -f 20000; exec \"$@\"", "sh"]);
    let append = || fs::OpenOptions::new().append(true).open(&out).unwrap();
    for threads in ["-j1", "-j2"] {
        // `> out.txt`: found by the walk, left out, without a word.
        let o = limited()
            .args([threads, "."])
            .stdout_to(fs::File::create(&out).unwrap())
            .run();
        assert_eq!((o.status.code(), stderr(&o).as_str()), (Some(0), ""));
        assert_eq!(fs::read_to_string(&out).unwrap(), expected, "{threads}");
        // `>> out.txt`, named: reported, and the others read.
        fs::write(&out, "http://before.example/\n").unwrap();
        let o = limited()
            .args([threads, "-H", "out.txt", "./a.txt"])
            .stdout_to(append())
            .run();
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            "uriscan: out.txt: input file is also the output\n"
        );
        let written = fs::read_to_string(&out).unwrap();
        assert_eq!(written, format!("http://before.example/\n{expected}"));
        // Named alone (with several threads, one input is read as a stream
        // whose work is split: it is walked first all the same).
        let o = limited()
            .args([threads, "out.txt"])
            .stdout_to(append())
            .run();
        assert_eq!(o.status.code(), Some(2), "{threads}");
        assert_eq!(
            stderr(&o),
            "uriscan: out.txt: input file is also the output\n"
        );
        // `- < out.txt >> out.txt`, at its start and further on.
        for offset in [0, 10] {
            let mut input = fs::File::open(&out).unwrap();
            std::io::Seek::seek(&mut input, std::io::SeekFrom::Start(offset)).unwrap();
            let o = limited()
                .args([threads, "-"])
                .stdin_from(input)
                .stdout_to(append())
                .run();
            assert_eq!(o.status.code(), Some(2), "{threads} at {offset}");
            assert_eq!(
                stderr(&o),
                "uriscan: <stdin>: input file is also the output\n"
            );
        }
        assert_eq!(fs::read_to_string(&out).unwrap(), written);
        // `-l` and `-c` print no URI: the output is read, as grep reads it.
        let o = limited()
            .args([threads, "-c", "out.txt"])
            .stdout_to(append())
            .run();
        assert_eq!(o.status.code(), Some(0), "{threads}");
        assert_eq!(
            fs::read_to_string(&out).unwrap(),
            format!("{written}20001\n")
        );
        fs::write(&out, &written).unwrap();
    }
}

/// Writes to a running `uriscan` with `flags`, reading stdin from a pipe
/// and writing stdout to one: each step's writes (a moment apart), then
/// checks that the URI they finish is printed before the next step is
/// written; returns what it printed from then to its end.
#[cfg(unix)]
fn printed_as_written<W: AsRef<[u8]> + std::fmt::Debug>(
    d: &Dir,
    flags: &[&str],
    steps: &[(&[W], &str)],
) -> Output {
    use std::io::Write;
    let mut child = d.command().args(flags).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let (rx, reader) = lines_printed(&mut child);
    for (writes, uri) in steps {
        for write in *writes {
            std::thread::sleep(Duration::from_millis(20));
            stdin.write_all(write.as_ref()).unwrap();
            stdin.flush().unwrap();
        }
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(printed) => assert!(
                printed.contains(uri),
                "{flags:?}: {printed:?} for {writes:?}"
            ),
            Err(_) => {
                child.kill().unwrap();
                panic!("{flags:?}: {uri} not printed in 30 s after {writes:?} was written");
            }
        }
    }
    drop(stdin);
    let mut o = common::wait_bounded(child, "a stream");
    // Every line printed is sent once the reader has ended.
    reader.join().unwrap();
    o.stdout = rx
        .try_iter()
        .flat_map(|l| l.into_bytes().into_iter().chain([b'\n']))
        .collect();
    o
}

/// The lines `child` prints, as they come, from a thread that ends with
/// its output.
#[cfg(unix)]
fn lines_printed(
    child: &mut std::process::Child,
) -> (
    std::sync::mpsc::Receiver<String>,
    std::thread::JoinHandle<()>,
) {
    use std::io::{BufRead, BufReader};
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    (rx, reader)
}

/// A stream is scanned as it comes (`tail -f log | uriscan`): each line's
/// URI is printed, to a pipe too, before the next line is written, on one
/// thread or more, in every output form; a URI wrapped in `<...>` over two
/// lines once its second is written, and one cut by a write once its end
/// is; a log whose lines could start a mail header when mail is not asked
/// for (`--no-mail`).
#[cfg(unix)]
#[test]
fn a_stream_s_uris_are_printed_as_its_lines_come() {
    let d = Dir::new();
    let log: [(&[&str], &str); 4] = [
        (
            &["127.0.0.1 - - [26/Nov/2026:13:00:00 +0000] \"GET /a HTTP/1.1\" 200 5 \"http://a.example/ref\"\n"],
            "http://a.example/ref",
        ),
        (
            &["then see <https://b.example/wrapped/\n", "   path> and\n"],
            "https://b.example/wrapped/path",
        ),
        (&["cut https://c.exa", "mple/d\n"], "https://c.example/d"),
        (&["last http://e.example/\n"], "http://e.example/"),
    ];
    for flags in [&["-j1"][..], &["-j2", "-n"], &["--json"]] {
        let o = printed_as_written(&d, flags, &log);
        assert_eq!(
            (stdout(&o), stderr(&o), o.status.code()),
            (String::new(), String::new(), Some(0)),
            "{flags:?}"
        );
    }
    let o = printed_as_written(&d, &["-j3", "-l"], &[(log[0].0, "<stdin>")]);
    assert_eq!(o.status.code(), Some(0));
    // A log's level decides "not mail" on the first line; a log whose
    // lines all look like fields so far is decided by `--no-mail`.
    let info: [(&[&str], &str); 2] = [
        (&["INFO: started http://a.example/\n"], "http://a.example/"),
        (
            &["WARNING:root:slow https://b.example/x\n"],
            "https://b.example/x",
        ),
    ];
    printed_as_written(&d, &[], &info);
    let fields: [(&[&str], &str); 2] = [
        (&["Note: started http://a.example/\n"], "http://a.example/"),
        (&["Step: slow https://b.example/x\n"], "https://b.example/x"),
    ];
    printed_as_written(&d, &["--no-mail"], &fields);
}

/// A stream that is decoded (`-E`, a byte-order mark) is scanned as it
/// comes too, each URI placed in the stream's own bytes.
#[cfg(unix)]
#[test]
fn a_decoded_stream_s_uris_are_printed_as_its_lines_come() {
    let d = Dir::new();
    let latin1: [(&[&[u8]], &str); 2] = [
        (
            &[b"see http://a.example/caf\xe9 first\n"],
            "1:5:http://a.example/caf%C3%A9",
        ),
        (&[b"then http://b.example/\n"], "2:6:http://b.example/"),
    ];
    let o = printed_as_written(&d, &["-E", "latin1", "-n", "--column"], &latin1);
    assert_eq!((stdout(&o), o.status.code()), (String::new(), Some(0)));
    let utf16 =
        |text: &str| -> Vec<u8> { text.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    let first = [&[0xFF, 0xFE][..], &utf16("see http://a.example/x\n")].concat();
    let second = utf16("and http://b.example/y\n");
    let bom: [(&[&[u8]], &str); 2] = [(&[&first], "\"start\":10,"), (&[&second], "\"start\":56,")];
    let o = printed_as_written(&d, &["--json"], &bom);
    assert_eq!((stdout(&o), o.status.code()), (String::new(), Some(0)));
}

/// A stream's binary check is made as it is read: a NUL among its first
/// 8 KiB ends the scan there, after the URIs before it were printed as
/// they came, and the run ends as it does for the same bytes from a file.
#[cfg(unix)]
#[test]
fn a_stream_s_binary_check_goes_on_as_it_is_read() {
    let d = Dir::new();
    let first = "see http://a.example/ first\n";
    let rest = "then a NUL \0 http://b.example/ after it\n";
    let o = printed_as_written(&d, &["-n"], &[(&[first], "http://a.example/")]);
    assert_eq!(stdout(&o), "");
    let mut child = d.command().args(["-n"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    use std::io::Write;
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.write_all(rest.as_bytes()).unwrap();
    drop(stdin);
    let streamed = common::wait_bounded(child, "a binary stream");
    let file = d.create("binary.txt", &format!("{first}{rest}"));
    let from_file = d
        .command()
        .arg("-n")
        .stdin_from(fs::File::open(&file).unwrap())
        .run();
    assert_eq!(stdout(&streamed), "1:http://a.example/\n");
    assert_eq!(
        (stdout(&streamed), stderr(&streamed), streamed.status.code()),
        (
            stdout(&from_file),
            stderr(&from_file),
            from_file.status.code()
        )
    );
    assert!(
        stderr(&streamed).contains("at offset 39"),
        "{}",
        stderr(&streamed)
    );
}

/// Whatever its first bytes decide (text, mail, a byte-order mark,
/// binary), a stream prints what the same bytes from a file print.
#[test]
fn a_stream_prints_what_a_file_with_its_bytes_prints() {
    let d = Dir::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    for dir in ["fixtures/scan", "fixtures/mail", "fixtures/encodings"] {
        let mut files: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.extension().is_some_and(|e| e == "expected" || e == "py"))
            .collect();
        files.sort();
        inputs.extend(files);
    }
    let log = "INFO: one http://a.example/\n".repeat(400);
    inputs.push(d.create("info.log", &log));
    // A NUL within the binary check's 8 KiB, and one after them.
    for (name, lines) in [("nul.txt", 300), ("nul-late.txt", 500)] {
        let text = format!(
            "{}\0 http://b.example/\n",
            "x http://a.example/\n".repeat(lines)
        );
        inputs.push(d.create(name, &text));
    }
    for input in &inputs {
        let bytes = fs::read(input).unwrap();
        for flags in [&["-j1", "--json"][..], &["-j2", "-n", "--column"]] {
            let piped = d.command().args(flags).stdin(bytes.clone()).run();
            let from_file = d
                .command()
                .args(flags)
                .stdin_from(fs::File::open(input).unwrap())
                .run();
            assert_eq!(
                (stdout(&piped), stderr(&piped), piped.status.code()),
                (
                    stdout(&from_file),
                    stderr(&from_file),
                    from_file.status.code()
                ),
                "{input:?} {flags:?}"
            );
        }
    }
}

/// A FIFO named after another input, on several threads, prints what it
/// found as soon as its turn comes (the input before it ends), not when it
/// next finds something.
#[cfg(unix)]
#[test]
fn a_stream_whose_turn_comes_prints_what_it_found_at_once() {
    use std::io::Write;
    let d = Dir::new();
    let (first, second) = (d.path().join("first"), d.path().join("second"));
    for fifo in [&first, &second] {
        let made = Command::new("mkfifo").arg(fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("note: mkfifo unavailable; skipping");
            return;
        }
    }
    for threads in ["-j2", "-j3"] {
        let mut child = d.command().args([threads, "first", "second"]).spawn();
        let (rx, reader) = lines_printed(&mut child);
        // Each open waits for uriscan to open the FIFO for reading.
        let mut writer_2 = fs::OpenOptions::new().write(true).open(&second).unwrap();
        let mut writer_1 = fs::OpenOptions::new().write(true).open(&first).unwrap();
        writer_2.write_all(b"b http://b.example/\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        writer_1.write_all(b"a http://a.example/\n").unwrap();
        drop(writer_1);
        let printed: Vec<String> = (0..2)
            .map_while(|_| rx.recv_timeout(Duration::from_secs(30)).ok())
            .collect();
        assert_eq!(
            printed,
            ["first:http://a.example/", "second:http://b.example/"],
            "{threads}: what second found waits for its next find"
        );
        writer_2.write_all(b"c http://c.example/\n").unwrap();
        drop(writer_2);
        let o = common::wait_bounded(child, "two FIFOs");
        reader.join().unwrap();
        let rest: Vec<String> = rx.try_iter().collect();
        assert_eq!(rest, ["second:http://c.example/"], "{threads}");
        assert_eq!(o.status.code(), Some(0));
    }
}
