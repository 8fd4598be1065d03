//! Faults: the `uriscan` binary and the streaming library keep working,
//! report what failed, and exit with the right code when files cannot be
//! read, vanish, loop, block, have names that are not UTF-8, when stdout is
//! full or closed, on SIGINT, and over thousands of files.
//!
//! The plain cases (a missing file, an unreadable file for a non-root user,
//! a FIFO in a tree, `head -1`, `/dev/full` with one line) are in
//! `tests/cli.rs`; these go further. Every run of the binary goes through
//! `common::TestCommand`, which fails a run that hangs or panics.
#![cfg(feature = "cli")]

mod common;

#[allow(dead_code)]
#[path = "../examples/hostile/gen.rs"]
mod gen;

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use common::{assert_no_panic, stderr, stdout, wait_bounded, Dir, TestCommand};
use uriscan::{Found, Scanner};

#[cfg(unix)]
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

// ---------------------------------------------------------------- library

/// A reader that interrupts every other read, then fails after `fail_at`
/// bytes (if set).
struct Flaky<'a> {
    data: &'a [u8],
    given: usize,
    fail_at: Option<usize>,
    calls: u64,
}

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls % 2 == 0 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.fail_at.is_some_and(|f| self.given >= f) {
            return Err(io::Error::other("disk on fire"));
        }
        let stop = self.fail_at.unwrap_or(self.data.len()).min(self.data.len());
        let n = buf.len().min(97).min(stop - self.given);
        buf[..n].copy_from_slice(&self.data[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

fn sample(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| {
            format!("item {i}: <http://example.org/{i}/\n  more> and https://x.example/{i}.\n")
        })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn interrupted_reads_are_retried() {
    let data = sample(2000);
    let scanner = Scanner::new();
    let want: Vec<String> = scanner
        .find_iter(&data)
        .map(|f| f.as_str().to_owned())
        .collect();
    assert_eq!(want.len(), 4000);
    let mut got = Vec::new();
    let rdr = Flaky {
        data: &data,
        given: 0,
        fail_at: None,
        calls: 0,
    };
    scanner
        .scan_reader(rdr, |f: &Found<'_>| {
            got.push(f.as_str().to_owned());
            Ok(true)
        })
        .unwrap();
    assert_eq!(got, want);
}

#[test]
fn a_read_error_is_returned_after_the_uris_before_it() {
    let data = sample(2000);
    let fail_at = data.len() / 2;
    let scanner = Scanner::new();
    let mut got = Vec::new();
    let rdr = Flaky {
        data: &data,
        given: 0,
        fail_at: Some(fail_at),
        calls: 0,
    };
    let err = scanner
        .scan_reader(rdr, |f: &Found<'_>| {
            got.push(f.span());
            Ok(true)
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "disk on fire");
    // Everything that ended well before the failure was delivered, in order.
    let before: Vec<_> = scanner
        .find_iter(&data[..fail_at])
        .map(|f| f.span())
        .filter(|s| s.end + 100 < fail_at)
        .collect();
    assert!(before.len() > 1000);
    assert_eq!(&got[..before.len()], &before[..]);
}

#[test]
fn a_sink_can_stop_the_scan_or_fail_it() {
    let data = sample(100);
    let scanner = Scanner::new();
    let mut seen = 0;
    scanner
        .scan_reader(&data[..], |_: &Found<'_>| {
            seen += 1;
            Ok(seen < 7)
        })
        .unwrap();
    assert_eq!(seen, 7);
    let mut seen = 0;
    let err = scanner
        .scan_reader(&data[..], |_: &Found<'_>| {
            seen += 1;
            if seen == 3 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            Ok(true)
        })
        .unwrap_err();
    assert_eq!((seen, err.kind()), (3, io::ErrorKind::BrokenPipe));
}

// ---------------------------------------------------------------- binary

/// A file the user may not read. As root (where permissions do not stop
/// reads, as in most CI containers) the binary runs as `nobody` through
/// `setpriv`, so the test still tests something.
#[cfg(target_os = "linux")]
#[test]
fn unreadable_file_is_reported_and_the_run_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let d = Dir::new();
    let dir = d.create_dir("tree");
    d.create("tree/a.txt", "http://a.example/\n");
    d.create("tree/b.txt", "http://b.example/\n");
    d.create("tree/c.txt", "http://c.example/\n");
    for p in [d.path(), &dir] {
        fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
    }
    for f in ["a.txt", "c.txt"] {
        fs::set_permissions(dir.join(f), fs::Permissions::from_mode(0o644)).unwrap();
    }
    fs::set_permissions(dir.join("b.txt"), fs::Permissions::from_mode(0o000)).unwrap();
    let as_nobody = fs::read(dir.join("b.txt")).is_ok();
    if as_nobody {
        let setpriv = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
            .status();
        if !setpriv.is_ok_and(|s| s.success()) {
            eprintln!("note: root without setpriv; cannot make a file unreadable, skipping");
            return;
        }
    }
    for j in ["-j1", "-j2"] {
        let mut cmd = if as_nobody {
            d.command_via(&[
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ])
        } else {
            d.command()
        };
        let o = cmd.args([j, "tree"]).assert_exit(2);
        assert_eq!(
            stdout(&o),
            "tree/a.txt:http://a.example/\ntree/c.txt:http://c.example/\n"
        );
        assert_eq!(stderr(&o), "uriscan: tree/b.txt: permission denied\n");
    }
}

/// A read that fails part-way (Linux: reading `/proc/self/mem` at offset 0
/// gives EIO) is reported, and later files are still scanned.
#[cfg(target_os = "linux")]
#[test]
fn a_read_error_is_reported_and_the_run_goes_on() {
    let d = Dir::new();
    d.create("z.txt", "http://z.example/\n");
    for j in ["-j1", "-j2"] {
        let o = d
            .command()
            .args([j, "/proc/self/mem", "z.txt"])
            .assert_exit(2);
        assert_eq!(stdout(&o), "z.txt:http://z.example/\n");
        assert_eq!(stderr(&o), "uriscan: /proc/self/mem: input/output error\n");
    }
}

/// Files deleted while a run walks and reads them: each file is either
/// scanned whole, reported as gone, or was gone before the walk; never
/// half-printed, never a panic.
#[test]
fn files_vanishing_during_the_run() {
    let d = Dir::new();
    let n = 3000;
    for i in 0..n {
        d.create(
            format!("t/{:02}/f{i:05}.txt", i % 50),
            &format!("x http://h.example/{i} y\n"),
        );
    }
    let child = d.command().args(["-j2", "t"]).spawn();
    for i in (0..n).rev().step_by(2) {
        let _ = fs::remove_file(d.path().join(format!("t/{:02}/f{i:05}.txt", i % 50)));
    }
    let o = wait_bounded(child, "vanishing");
    assert_no_panic(&o);
    let out = stdout(&o);
    let err = stderr(&o);
    let mut printed = std::collections::HashSet::new();
    for line in out.lines() {
        let (path, uri) = line.split_once(':').unwrap();
        let i: usize = path
            .rsplit_once("/f")
            .unwrap()
            .1
            .trim_end_matches(".txt")
            .parse()
            .unwrap();
        assert_eq!(uri, format!("http://h.example/{i}"), "{line}");
        assert!(printed.insert(i), "{line} twice");
    }
    let mut gone = 0;
    for line in err.lines() {
        let rest = line
            .strip_prefix("uriscan: t/")
            .unwrap_or_else(|| panic!("{line}"));
        let (path, reason) = rest.split_once(": ").unwrap();
        assert_eq!(reason, "no such file or directory", "{line}");
        let i: usize = path
            .rsplit_once("/f")
            .unwrap()
            .1
            .trim_end_matches(".txt")
            .parse()
            .unwrap();
        assert!(i % 2 == 1 && !printed.contains(&i), "{line}");
        gone += 1;
    }
    // Odd files may be gone; even ones never are.
    assert!((0..n).step_by(2).all(|i| printed.contains(&i)));
    assert_eq!(o.status.code(), Some(if gone > 0 { 2 } else { 0 }), "{err}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_end_and_are_reported() {
    use std::os::unix::fs::symlink;
    let d = Dir::new();
    let t = d.path();
    d.create("tree/a.txt", "http://a.example/\n");
    symlink(".", t.join("tree/up")).unwrap(); // tree/up -> tree: a loop
    symlink("self", t.join("self")).unwrap(); // self -> self

    // Not following links (the default): the loop is not entered at all.
    let o = d.command().arg("tree").run();
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "tree/a.txt:http://a.example/\n".into())
    );

    // Following links: the loop is reported, once.
    let o = d.command().args(["-L", "tree"]).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "tree/a.txt:http://a.example/\n");
    assert_eq!(
        stderr(&o),
        "uriscan: tree/up: symbolic link loop (to tree)\n"
    );

    // A link to itself, named on the command line.
    let o = d.command().args(["self", "tree/a.txt"]).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "tree/a.txt:http://a.example/\n");
    assert_eq!(
        stderr(&o),
        "uriscan: self: too many levels of symbolic links\n"
    );
}

/// A dangling link followed by the walk (a file that vanished between
/// `readdir` and `stat`) is reported like a missing file. The message was
/// `iO error for operation on tree/dangling: No such file or directory`
/// (`ignore`'s wording, with its first letter lowered).
#[cfg(unix)]
#[test]
fn r6_dangling_symlink_message_is_clean() {
    let d = Dir::new();
    let t = d.path();
    d.create("tree/a.txt", "http://a.example/\n");
    std::os::unix::fs::symlink("missing", t.join("tree/dangling")).unwrap();
    let o = d.command().args(["-L", "tree"]).run();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "tree/a.txt:http://a.example/\n");
    assert_eq!(
        stderr(&o),
        "uriscan: tree/dangling: no such file or directory\n"
    );
}

/// FIFOs and devices found by a walk are skipped (a FIFO with no writer, or
/// `/dev/zero` reached through a followed link, would block or run
/// forever); a FIFO named on the command line is read, as `<(cmd)` needs.
#[cfg(unix)]
#[test]
fn fifos_and_devices() {
    use std::os::unix::fs::symlink;
    let d = Dir::new();
    let t = d.path();
    d.create("tree/a.txt", "http://a.example/\n");
    if !mkfifo(&t.join("tree/pipe")) || !mkfifo(&t.join("given")) {
        eprintln!("note: mkfifo unavailable; skipping");
        return;
    }
    symlink("/dev/zero", t.join("tree/zero")).unwrap();
    symlink("/dev/null", t.join("tree/null")).unwrap();
    for args in [&["tree"][..], &["-L", "tree"], &["-L", "-a", "-j2", "tree"]] {
        let o = d.command().args(args).run();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "tree/a.txt:http://a.example/\n", "{args:?}");
    }

    // Named on the command line: read.
    let given = t.join("given");
    let writer = std::thread::spawn(move || {
        let mut f = fs::OpenOptions::new().write(true).open(given).unwrap();
        f.write_all(b"through a pipe: https://fifo.example/ok\n")
            .unwrap();
    });
    let o = d.command().arg("given").run();
    writer.join().unwrap();
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(0), "https://fifo.example/ok\n".into())
    );

    // `/dev/zero` named on the command line is binary (NULs) and skipped.
    d.command().arg("/dev/zero").assert_exit(1);
}

/// A slow input in turn (a FIFO, written to a line at a time) while the
/// other threads find more than the 32 MiB of records they may hold for
/// later inputs: they hold, then wait for their turn, and the output is
/// still that of one thread, whole and in order.
#[cfg(unix)]
#[test]
fn records_held_past_the_limit_wait_for_their_turn() {
    let d = Dir::new();
    if !mkfifo(&d.path().join("slow")) {
        eprintln!("note: mkfifo unavailable; skipping");
        return;
    }
    // About 50 MiB of JSON records held in all: past the limit.
    for name in ["b.txt", "c.txt"] {
        let text: String = (0..60_000)
            .map(|i| format!("http://h{i}.{name}/\n"))
            .collect();
        d.create(name, &text);
    }
    let run = |threads: &str| {
        let fifo = d.path().join("slow");
        let writer = std::thread::spawn(move || {
            let mut f = fs::OpenOptions::new().write(true).open(fifo).unwrap();
            f.write_all(b"first http://slow.example/a\n").unwrap();
            std::thread::sleep(Duration::from_millis(500));
            f.write_all(b"then http://slow.example/b\n").unwrap();
        });
        let o = d
            .command()
            .args([threads, "--json", "slow", "b.txt", "c.txt"])
            .run();
        writer.join().unwrap();
        o
    };
    let (one, many) = (run("-j1"), run("-j3"));
    assert_eq!(stdout(&one).lines().count(), 120_002);
    assert!(one.stdout == many.stdout, "-j3 differs from -j1");
    assert!(stdout(&many).starts_with("{\"column\":7,"));
}

/// Names that are not UTF-8 are printed as their bytes; in JSON they become
/// `{"bytes": BASE64}`, which decodes to the same bytes.
#[cfg(target_os = "linux")]
#[test]
fn paths_that_are_not_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = Dir::new();
    let name = OsStr::from_bytes(b"caf\xe9-\xff\xfe.txt");
    d.create(Path::new("t").join(name), "see http://latin1.example/\n");
    d.create("t/ok.txt", "http://ok.example/\n");

    let o = d.command().arg("t").assert_exit(0);
    let mut want = b"t/caf\xe9-\xff\xfe.txt:http://latin1.example/\n".to_vec();
    want.extend_from_slice(b"t/ok.txt:http://ok.example/\n");
    assert_eq!(o.stdout, want);

    let o = d.command().args(["--json", "t"]).assert_exit(0);
    let lines: Vec<serde_json::Value> = o
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let b64 = lines[0]["path"]["bytes"]
        .as_str()
        .expect("a {\"bytes\"} path");
    assert_eq!(base64_decode(b64), b"t/caf\xe9-\xff\xfe.txt");
    assert_eq!(lines[0]["uri"], "http://latin1.example/");
    assert_eq!(lines[1]["path"], "t/ok.txt");
}

fn base64_decode(s: &str) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = ABC.iter().position(|&a| a == c).expect("base64 digit") as u32;
        bits = bits << 6 | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

/// A full disk on stdout: the write error is reported, exit 2, whether it
/// strikes at the final flush or in the middle of a large parallel run,
/// and for the subcommands too.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stdout() {
    let d = Dir::new();
    for i in 0..8 {
        let body: String = (0..20_000)
            .map(|j| format!("http://f{i}.example/{j}\n"))
            .collect();
        d.create(format!("t/{i}.txt"), &body);
    }
    let runs: [&[&str]; 5] = [
        &["t/0.txt"],
        &["-j1", "t"],
        &["-j2", "--json", "t"],
        &["-c", "t"],
        &["-u", "t"],
    ];
    for args in runs {
        let full = fs::File::create("/dev/full").unwrap();
        let o = d.command().args(args).stdout_to(full).assert_exit(2);
        let err = stderr(&o);
        assert_eq!(
            err, "uriscan: write error: no space left on device\n",
            "{args:?}"
        );
    }
}

/// The subcommands report a full disk like the scan does: one lowercase
/// `uriscan: write error: ...` line. They printed Rust's raw
/// `uriscan: No space left on device (os error 28)`.
#[cfg(target_os = "linux")]
#[test]
fn r6_full_disk_message_for_subcommands() {
    let runs: [&[&str]; 3] = [
        &["parse", "http://a/"],
        &["normalize", "HTTP://A/"],
        &["resolve", "http://a/b", "c"],
    ];
    for args in runs {
        let full = fs::File::create("/dev/full").unwrap();
        let o = TestCommand::new().args(args).stdout_to(full).assert_exit(2);
        assert_eq!(
            stderr(&o),
            "uriscan: write error: no space left on device\n",
            "{args:?}"
        );
    }
}

/// The reader closes the pipe after a few lines, in every output mode and
/// with several threads: a quiet exit 0.
#[test]
fn closed_pipe_in_parallel_runs() {
    let d = Dir::new();
    for i in 0..6 {
        let body: String = (0..50_000)
            .map(|j| format!("<http://p{i}.example/{j}>\n"))
            .collect();
        d.create(format!("t/{i}.txt"), &body);
    }
    let runs: [&[&str]; 4] = [
        &["-j2", "t"],
        &["-j2", "--json", "t"],
        &["-j1", "-u", "-n", "t"],
        &["-j2", "-0", "t"],
    ];
    for args in runs {
        let mut child = d.command().args(args).spawn();
        let mut first = [0u8; 64];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.stdout.take());
        let o = wait_bounded(child, "closed pipe");
        assert_eq!(stderr(&o), "", "{args:?}: no panic, no message");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
    }
}

/// SIGINT in the middle of a large run stops it at once, by the signal
/// (as grep and ripgrep do), with no panic output.
#[cfg(unix)]
#[test]
fn sigint_during_a_large_run() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = TestCommand::new().args(["-a", "-c"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let case = &gen::cases(100.0)[9]; // 10 GB of tiny URIs: never ends first
        let _ = io::copy(&mut case.reader(), &mut stdin);
    });
    std::thread::sleep(Duration::from_millis(500));
    assert!(child.try_wait().unwrap().is_none(), "ended before SIGINT");
    let t = Instant::now();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = wait_bounded(child, "SIGINT");
    feeder.join().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "took {:?} to stop",
        t.elapsed()
    );
    let status: ExitStatus = o.status;
    assert!(
        status.signal() == Some(2) || status.code() == Some(130),
        "{status:?}"
    );
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

/// Thousands of small files, with few file descriptors allowed: every URI
/// comes out once, in sorted path order, the same for any thread count.
#[cfg(unix)]
#[test]
fn thousands_of_small_files() {
    let d = Dir::new();
    let n = 5000;
    let mut want = Vec::new();
    for i in 0..n {
        let path = format!("t/d{:02}/f{i:05}.txt", i % 40);
        d.create(&path, &format!("Subject: {i}\n\n<https://s.example/{i}>\n"));
        want.push(format!("{path}:3:2:https://s.example/{i}"));
    }
    want.sort();
    let mut outputs = Vec::new();
    for j in ["-j1", "-j2", "-j8"] {
        // `ulimit -n 64`: a leaked descriptor per file would fail fast.
        let o = d
            .command_via(&["sh", "-c", "ulimit -n 64 && exec \"$0\" \"$@\""])
            .args([j, "-n", "--column", "t"])
            .assert_exit(0);
        assert_eq!(stderr(&o), "", "{j}");
        let got: Vec<String> = stdout(&o).lines().map(String::from).collect();
        assert_eq!(got, want, "{j}");
        outputs.push(o.stdout);
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
}

/// VmHWM of a running process, in KiB (Linux).
#[cfg(target_os = "linux")]
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Output order must not cost unbounded memory: while the first input is
/// slow (here a FIFO whose writer waits), the other threads must not pile
/// up the URIs of every later file in memory. The CLI issue asks for flat
/// memory; this bounds what waiting for one slow input may hold.
#[cfg(target_os = "linux")]
#[test]
fn r6_parallel_output_memory_is_bounded_behind_a_slow_input() {
    let d = Dir::new();
    let t = d.path();
    if !mkfifo(&t.join("slow")) {
        eprintln!("note: mkfifo unavailable; skipping");
        return;
    }
    // 4 files of 10 MB, each 1.1 M tiny URIs.
    let unit = b"http://a.example/ ";
    let body = unit.repeat(10_000_000 / unit.len());
    let mut paths: Vec<PathBuf> = vec![t.join("slow")];
    for i in 0..4 {
        let p = t.join(format!("big{i}.txt"));
        fs::write(&p, &body).unwrap();
        paths.push(p);
    }
    let child = TestCommand::new().args(["-j2", "-c"]).args(&paths).spawn();
    let pid = child.id();
    // Let the second thread work through the big files while the first
    // waits on the FIFO.
    let mut peak = 0;
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(8) {
        std::thread::sleep(Duration::from_millis(250));
        let now = peak_rss_kb(pid).unwrap_or(0);
        if now == peak && now > 0 && t0.elapsed() > Duration::from_secs(3) {
            break;
        }
        peak = now;
    }
    let mut w = fs::OpenOptions::new()
        .write(true)
        .open(t.join("slow"))
        .unwrap();
    w.write_all(b"http://slow.example/\n").unwrap();
    drop(w);
    let o = wait_bounded(child, "slow first input");
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        peak < 256 * 1024,
        "peak RSS {peak} KiB while the first input was slow"
    );
}
