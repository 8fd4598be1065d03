//! Helpers shared by the integration tests: the shared corpus, scanning
//! helpers, and a temporary directory and command builder to run the
//! `uriscan` binary with ([`Dir`], [`TestCommand`], as ripgrep's
//! `tests/util.rs`), used by every test that runs it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod standalone;
// Not every test crate that includes `common` uses them.
#[allow(unused_imports)]
pub use standalone::{crlf, shared, Rng};

/// Everything `scan_reader` finds in `text` with reads of `read_size`
/// bytes, owned, for comparisons with the slice iterator.
pub fn stream_scan(
    scanner: &uriscan::Scanner,
    text: &[u8],
    read_size: usize,
) -> Vec<uriscan::Found<'static>> {
    let mut all = Vec::new();
    scanner
        .scan_reader_with_read_size(
            text,
            |f: &uriscan::Found<'_>| {
                all.push(f.clone().into_owned());
                Ok(true)
            },
            read_size,
        )
        .unwrap();
    all
}

/// What a scan reports, in every way a user may run it: found URIs (owned)
/// and the offsets of the over-long candidates given up.
#[derive(Debug, Default, PartialEq)]
pub struct Reported {
    pub found: Vec<uriscan::Found<'static>>,
    pub too_long: Vec<usize>,
}

impl uriscan::Sink for &mut Reported {
    fn found(&mut self, f: &uriscan::Found<'_>) -> std::io::Result<bool> {
        self.found.push(f.clone().into_owned());
        Ok(true)
    }
    fn too_long(&mut self, start: usize, _line: u64) -> std::io::Result<bool> {
        self.too_long.push(start);
        Ok(true)
    }
}

/// The header put before a text to scan it as a message in mail mode.
const MAIL_HEADER: &str = "From: tester@example.org\nContent-Type: text/plain\n\n";

/// Scans `text` every way the library offers and checks that they agree:
/// `find_iter`, `scan_slice`, `scan_reader` with reads of 1, 2, 7, 64 bytes
/// and the default, and (with the `mail` feature) `mail::scan_mail` with
/// `text` as the body of a text/plain message (whose URIs are then placed
/// in the message, after its header). Returns what `scan_slice` reported.
pub fn scan_every_way(scanner: &uriscan::Scanner, text: &[u8]) -> Reported {
    let mut slice = Reported::default();
    scanner.scan_slice(text, &mut slice).unwrap();
    let iter: Vec<_> = scanner.find_iter(text).map(|f| f.into_owned()).collect();
    assert_eq!(iter, slice.found, "find_iter against scan_slice");
    for size in [1, 2, 7, 64, 0] {
        let mut stream = Reported::default();
        scanner
            .scan_reader_with_read_size(text, &mut stream, size)
            .unwrap();
        assert_eq!(stream, slice, "scan_reader with reads of {size} bytes");
    }
    #[cfg(feature = "mail")]
    same_in_mail(scanner, text, &slice);
    slice
}

/// Checks that `mail::scan_mail` finds in `text`, as the body of a
/// text/plain message, what `slice` reports, placed after the header.
#[cfg(feature = "mail")]
fn same_in_mail(scanner: &uriscan::Scanner, text: &[u8], slice: &Reported) {
    let mut mail = Reported::default();
    let message = [MAIL_HEADER.as_bytes(), text].concat();
    uriscan::mail::scan_mail(scanner, &message[..], &mut mail).unwrap();
    let shift = MAIL_HEADER.len();
    let header_lines = MAIL_HEADER.matches('\n').count() as u64;
    let placed = |f: &uriscan::Found<'_>, shift: usize, lines: u64| {
        let span = f.span();
        (
            f.as_str().to_string(),
            (span.start - shift, span.end - shift),
            (f.line() - lines, f.column()),
            (
                f.delimiter(),
                f.is_wrapped(),
                f.has_url_prefix(),
                f.has_hyphen_break(),
            ),
        )
    };
    let in_mail: Vec<_> = mail
        .found
        .iter()
        .map(|f| placed(f, shift, header_lines))
        .collect();
    let in_text: Vec<_> = slice.found.iter().map(|f| placed(f, 0, 0)).collect();
    assert_eq!(
        in_mail, in_text,
        "mail mode, as the body of a text/plain message"
    );
    let too_long: Vec<usize> = mail.too_long.iter().map(|&at| at - shift).collect();
    assert_eq!(
        too_long, slice.too_long,
        "over-long candidates in mail mode"
    );
}

/// Every file under `dir`, recursively, sorted (so runs compare).
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every file under `dir`, concatenated in sorted order (so runs compare).
pub fn concatenated(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for file in files_under(dir) {
        bytes.extend_from_slice(&std::fs::read(file).unwrap());
    }
    bytes
}

/// The folders of the shared corpus that the benches measure apart, as
/// paths under it; `""` is all of it.
pub const CORPUS_FOLDERS: [&str; 8] = [
    "rfc",
    "logs",
    "mail",
    "mail/blinux-list",
    "mail/usrp-users",
    "mail/linux-uvc-devel",
    "mail/spamassassin",
    "",
];

/// Asserts that `found`, what the scan of an input in pieces gave, equals
/// `whole`, what one scan gave, naming the first difference (on the corpus
/// the lists hold 100,000 URIs: a plain `assert_eq!` prints them all).
pub fn assert_same_as_whole<T: PartialEq + std::fmt::Debug>(found: &[T], whole: &[T], what: &str) {
    if found != whole {
        let i = found
            .iter()
            .zip(whole)
            .position(|(a, b)| a != b)
            .unwrap_or(found.len().min(whole.len()));
        panic!(
            "{what}: differs from the whole at URI {i}: {:?} against {:?} ({} and {} URIs)",
            found.get(i),
            whole.get(i),
            found.len(),
            whole.len()
        );
    }
}

/// Lines of text made of URIs, brackets, quotes, prefixes and page
/// breaks, and of the `extra` tokens: what cutting an input into pieces
/// has to get right.
pub fn text_of_tokens(
    extra: &[&'static [u8]],
) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let mut tokens: Vec<&'static [u8]> = vec![
        b"http://example.org/a",
        b"mailto:a@b.c",
        b"<",
        b">",
        b"> ",
        b"\"",
        b"(",
        b")",
        b" ",
        b"\n",
        b"\r\n",
        b"\n\n",
        b"\n\n\nFooter [Page 1]\n\x0cRFC Header\n",
        b"-\n",
        b".",
        b"word",
        b"URL:",
    ];
    tokens.extend_from_slice(&standalone::JSON_TOKENS);
    tokens.extend_from_slice(extra);
    prop::collection::vec(prop::sample::select(tokens), 0..120).prop_map(|ts| ts.concat())
}

// ------------------------------------------------------- the binary, run

/// No run of the binary in a test should take this long; one that does is
/// hung, and is killed and failed (generous, for debug builds on a loaded
/// machine).
pub const HANG: Duration = Duration::from_secs(120);

/// A temporary directory to create files in and run `uriscan` from (as
/// ripgrep's `tests/util.rs` `Dir`). It is removed when dropped.
#[derive(Debug)]
pub struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    /// Creates an empty temporary directory.
    pub fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().unwrap(),
        }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Writes `contents` to `name` (relative to the directory), creating
    /// the directories on the way; returns the file's path.
    pub fn create(&self, name: impl AsRef<Path>, contents: &str) -> PathBuf {
        self.create_bytes(name, contents.as_bytes())
    }

    /// Writes `contents` to `name` (relative to the directory), creating
    /// the directories on the way; returns the file's path.
    pub fn create_bytes(&self, name: impl AsRef<Path>, contents: &[u8]) -> PathBuf {
        let path = self.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Writes `contents` gzipped to `name` (relative to the directory),
    /// as [`Dir::create_bytes`] does; returns the file's path.
    #[cfg(feature = "cli")]
    pub fn create_gzip(&self, name: impl AsRef<Path>, contents: &[u8]) -> PathBuf {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(contents).unwrap();
        self.create_bytes(name, &gz.finish().unwrap())
    }

    /// Creates the directory `name` and its parents; returns its path.
    pub fn create_dir(&self, name: impl AsRef<Path>) -> PathBuf {
        let path = self.path().join(name);
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// `uriscan`, to be run in this directory.
    pub fn command(&self) -> TestCommand {
        let mut cmd = TestCommand::new();
        cmd.current_dir(self.path());
        cmd
    }

    /// `uriscan` run through `prefix` (a program and its first arguments,
    /// such as `setpriv --reuid=65534` or `sh -c SCRIPT`), in this
    /// directory.
    pub fn command_via(&self, prefix: &[&str]) -> TestCommand {
        let mut cmd = TestCommand::via(prefix);
        cmd.current_dir(self.path());
        cmd
    }
}

/// A run of the `uriscan` binary being set up (as ripgrep's `tests/util.rs`
/// `TestCommand`): arguments, environment, stdin, then [`run`] or
/// [`spawn`]. `NO_COLOR` is removed from the environment and stdin is
/// empty (not a terminal) unless set.
///
/// [`run`]: TestCommand::run
/// [`spawn`]: TestCommand::spawn
#[derive(Debug)]
pub struct TestCommand {
    cmd: Command,
    /// What is written to the command's stdin; `None` gives it no stdin
    /// (`/dev/null`).
    stdin: Option<Vec<u8>>,
    /// Where stdout goes instead of a pipe (`/dev/full`), once set.
    stdout: Option<Stdio>,
    /// What stdin is instead of a pipe or nothing (a file), once set.
    stdin_from: Option<Stdio>,
}

impl Default for TestCommand {
    fn default() -> TestCommand {
        TestCommand::new()
    }
}

impl TestCommand {
    /// `uriscan`, run in the test's own directory.
    pub fn new() -> TestCommand {
        TestCommand::from_command(Command::new(env!("CARGO_BIN_EXE_uriscan")))
    }

    /// `uriscan` run through `prefix`: a program and its first arguments,
    /// after which come the binary's path and the arguments given later.
    pub fn via(prefix: &[&str]) -> TestCommand {
        let mut cmd = Command::new(prefix[0]);
        cmd.args(&prefix[1..]).arg(env!("CARGO_BIN_EXE_uriscan"));
        TestCommand::from_command(cmd)
    }

    fn from_command(mut cmd: Command) -> TestCommand {
        cmd.env_remove("NO_COLOR");
        TestCommand {
            cmd,
            stdin: None,
            stdout: None,
            stdin_from: None,
        }
    }

    /// Adds an argument.
    pub fn arg(&mut self, arg: impl AsRef<std::ffi::OsStr>) -> &mut Self {
        self.cmd.arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, A>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = A>,
        A: AsRef<std::ffi::OsStr>,
    {
        self.cmd.args(args);
        self
    }

    /// Sets an environment variable.
    pub fn env(&mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> &mut Self {
        self.cmd.env(key, value);
        self
    }

    /// Sets the directory the command runs in.
    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.cmd.current_dir(dir);
        self
    }

    /// Gives the command `bytes` on stdin (a pipe, closed after them).
    pub fn stdin(&mut self, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.stdin = Some(bytes.into());
        self
    }

    /// Gives the command `from` (an open file) as its stdin.
    pub fn stdin_from(&mut self, from: impl Into<Stdio>) -> &mut Self {
        self.stdin_from = Some(from.into());
        self
    }

    /// Sends the command's stdout to `to` (a file, `/dev/full`) instead of
    /// a pipe; [`Output::stdout`] is then empty.
    pub fn stdout_to(&mut self, to: impl Into<Stdio>) -> &mut Self {
        self.stdout = Some(to.into());
        self
    }

    /// Runs the command to its end and returns what it printed; fails the
    /// test if it panics, dies of a signal or runs longer than [`HANG`].
    pub fn run(&mut self) -> Output {
        let stdin = self.stdin.take();
        let stdin_from = self.stdin_from.take();
        self.cmd
            .stdin(match (&stdin, stdin_from) {
                (Some(_), _) => Stdio::piped(),
                (None, Some(from)) => from,
                (None, None) => Stdio::null(),
            })
            .stdout(self.stdout.take().unwrap_or_else(Stdio::piped))
            .stderr(Stdio::piped());
        let mut child = self.cmd.spawn().unwrap();
        let feeder = stdin.map(|bytes| {
            let mut pipe = child.stdin.take().unwrap();
            // The command may stop reading early (`-q`): a closed pipe is
            // not the test's failure.
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            })
        });
        let o = wait_bounded(child, &format!("{:?}", self.cmd));
        if let Some(feeder) = feeder {
            feeder.join().unwrap();
        }
        assert_no_panic(&o);
        o
    }

    /// Starts the command with stdin, stdout (unless sent elsewhere) and
    /// stderr piped, for a test that writes to it or watches it while it
    /// runs; end it with [`wait_bounded`].
    pub fn spawn(&mut self) -> Child {
        self.cmd
            .stdin(Stdio::piped())
            .stdout(self.stdout.take().unwrap_or_else(Stdio::piped))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Runs the command; returns its stdout as UTF-8.
    pub fn stdout(&mut self) -> String {
        stdout(&self.run())
    }

    /// Runs the command; returns its stderr (lossily decoded).
    pub fn stderr(&mut self) -> String {
        stderr(&self.run())
    }

    /// Runs the command and fails the test unless it exits with `code`;
    /// returns what it printed.
    pub fn assert_exit(&mut self, code: i32) -> Output {
        let o = self.run();
        assert_eq!(
            o.status.code(),
            Some(code),
            "{:?}\nstderr: {}",
            self.cmd,
            stderr(&o)
        );
        o
    }
}

/// What a run printed on stdout, as UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What a run printed on stderr, lossily decoded.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Fails on any sign of a panic or a crash in `o`.
pub fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    assert!(
        o.status.code().is_some(),
        "killed by a signal: {:?}",
        o.status
    );
}

/// Waits for `child` while draining its stdout and stderr, closing its
/// stdin first if the test left it open; kills it and fails the test after
/// [`HANG`].
pub fn wait_bounded(mut child: Child, what: &str) -> Output {
    fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    }
    drop(child.stdin.take());
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let t = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if t.elapsed() > HANG {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("{what}: still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
