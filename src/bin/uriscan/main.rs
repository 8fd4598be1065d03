//! `uriscan`: find URIs in files, in parallel, printed in input order.
//!
//! Modules, each importing only modules after it in this list (no circle):
//! main, uri_cmds, parallel, output, search, batch, documents, walk, args,
//! messages (a leaf).

mod args;
mod batch;
mod documents;
mod messages;
mod output;
mod parallel;
mod search;
mod uri_cmds;
mod walk;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Parser;

use crate::args::{Args, Command, Config, Format};
use crate::output::Printer;
use crate::search::Unit;

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    match run(args) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) if messages::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            messages::error(&format!("{err:#}"));
            ExitCode::from(2)
        }
    }
}

/// Runs the command; returns the exit code: 0 if a URI was found and
/// nothing failed (with `-q`, if a URI was found), 2 on an error, else 1.
fn run(args: Args) -> Result<i32> {
    let stdout = io::stdout();
    let mut out = WriteOrExit(io::BufWriter::with_capacity(64 * 1024, stdout.lock()));
    let code = match args.command {
        Some(Command::Parse { uris }) => uri_cmds::parse(uris, &mut out)?,
        Some(Command::Resolve { base, refs }) => uri_cmds::resolve(base, refs, &mut out)?,
        Some(Command::Normalize { uris }) => uri_cmds::normalize(uris, &mut out)?,
        Some(Command::Generate { what }) => uri_cmds::generate(what, &mut out)?,
        None if args.type_list => {
            documents::type_list(&mut out)?;
            0
        }
        None => {
            drop(out);
            let cfg = args.into_config()?;
            return scan(&cfg);
        }
    };
    out.flush()?;
    Ok(code)
}

/// The subcommands' stdout: a failed write ends the program the way the
/// scan's do ([`messages::exit_on_write_error`]), not as an error of the
/// input being processed.
struct WriteOrExit<W>(W);

impl<W: Write> Write for WriteOrExit<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .write(buf)
            .or_else(|e| messages::exit_on_write_error(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().or_else(|e| messages::exit_on_write_error(e))
    }
}

/// Scans every input, in parallel on `cfg.threads` threads, printed in
/// input order as soon as each input's turn comes.
fn scan(cfg: &Config) -> Result<i32> {
    let started = Instant::now();
    let mut printer = Printer::new(io::BufWriter::with_capacity(64 * 1024, io::stdout()), cfg);
    let one_stream = search::single_stream(&cfg.paths, cfg)
        .filter(|_| cfg.threads > 1 && !walk::names_the_output(&cfg.paths, &cfg.walk));
    let mut printer = match one_stream {
        // One stream (stdin, a decompressed file): its messages or its
        // chunks of text are what is split.
        Some(input) => {
            let unit = Unit::whole(input);
            rayon::ThreadPoolBuilder::new()
                .num_threads(cfg.threads)
                .build()?
                .install(|| {
                    search::scan_stream(&unit.input, cfg, &mut |event| printer.event(&unit, event))
                });
            printer
        }
        None => parallel::scan_all(cfg, printer)?,
    };
    if let Err(err) = printer.finish() {
        messages::exit_on_write_error(err);
    }
    let t = &printer.totals;
    if cfg.stats {
        messages::error(&t.stats(started.elapsed().as_secs_f64()));
    }
    Ok(
        if t.uris > 0 && (t.errors == 0 || cfg.format == Format::Quiet) {
            0
        } else if t.errors > 0 {
            2
        } else {
            1
        },
    )
}

#[cfg(test)]
mod tests {
    /// The modules in the order of the module docs, with their sources.
    const MODULES: [(&str, &str); 10] = [
        ("main", include_str!("main.rs")),
        ("uri_cmds", include_str!("uri_cmds.rs")),
        ("parallel", include_str!("parallel.rs")),
        ("output", include_str!("output.rs")),
        ("search", include_str!("search.rs")),
        ("batch", include_str!("batch.rs")),
        ("documents", include_str!("documents.rs")),
        ("walk", include_str!("walk.rs")),
        ("args", include_str!("args.rs")),
        ("messages", include_str!("messages.rs")),
    ];

    /// Each module names (`crate::m` or `super::m`) only modules after it
    /// in [`MODULES`]: the imports have no circle, and `messages` is a
    /// leaf. It imported `output` for `--stats`, which imported it back.
    #[test]
    fn modules_import_only_modules_after_them() {
        for (i, (name, source)) in MODULES.iter().enumerate() {
            for prefix in ["crate::", "super::"] {
                for (at, _) in source.match_indices(prefix) {
                    let rest = &source[at + prefix.len()..];
                    let end = rest
                        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .unwrap_or(rest.len());
                    let used = &rest[..end];
                    if let Some(j) = MODULES.iter().position(|(m, _)| *m == used) {
                        assert!(j > i, "{name} names {used}, which comes before it");
                    }
                }
            }
        }
    }
}
