//! `uriscan`: find URIs in files, in parallel, printed in input order.

mod args;
mod messages;
mod output;
mod search;
mod uri_cmds;
mod walk;

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Result;
use clap::Parser;
use rayon::prelude::*;

use crate::args::{Args, Command, Config};
use crate::output::Printer;
use crate::search::Event;
use crate::walk::Input;

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

/// Runs the command; returns the exit code (0 found, 1 none, 2 errors).
fn run(args: Args) -> Result<i32> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let code = match args.command {
        Some(Command::Parse { uris }) => uri_cmds::parse(uris, &mut out)?,
        Some(Command::Resolve { base, refs }) => uri_cmds::resolve(base, refs, &mut out)?,
        Some(Command::Normalize { uris }) => uri_cmds::normalize(uris, &mut out)?,
        Some(Command::Generate { what }) => uri_cmds::generate(what, &mut out)?,
        None => {
            drop(out);
            let cfg = args.into_config()?;
            return scan(&cfg);
        }
    };
    out.flush()?;
    Ok(code)
}

/// Scans every input: in parallel on `cfg.threads` threads, printed by this
/// thread in input order as soon as each input's turn comes.
fn scan(cfg: &Config) -> Result<i32> {
    let started = Instant::now();
    let inputs = walk::inputs(&cfg.paths, &cfg.walk)?;
    let stdout = io::stdout();
    let mut printer = Printer::new(io::BufWriter::with_capacity(64 * 1024, stdout.lock()), cfg);
    if cfg.threads == 1 || inputs.len() == 1 {
        for input in &inputs {
            search::scan(input, cfg, &mut |event| {
                print(&mut printer, input, event);
            });
        }
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads)
            .build()?;
        let (tx, rx) = mpsc::channel::<(usize, Event)>();
        let inputs_ref = &inputs;
        std::thread::scope(|scope| -> Result<()> {
            scope.spawn(move || {
                pool.install(|| {
                    inputs_ref
                        .par_iter()
                        .enumerate()
                        .for_each_with(tx, |tx, (i, input)| {
                            search::scan(input, cfg, &mut |event| {
                                let _ = tx.send((i, event));
                            });
                        });
                });
            });
            // Events of later inputs wait here until every earlier one is done.
            let mut pending: BTreeMap<usize, VecDeque<Event>> = BTreeMap::new();
            let mut head = 0;
            for (i, event) in rx {
                pending.entry(i).or_default().push_back(event);
                while let Some(queue) = pending.get_mut(&head) {
                    let Some(event) = queue.pop_front() else {
                        break;
                    };
                    let done = matches!(event, Event::Done(_));
                    print(&mut printer, &inputs[head], event);
                    if done {
                        pending.remove(&head);
                        head += 1;
                    }
                }
            }
            Ok(())
        })?;
    }
    if let Err(err) = printer.finish(inputs.len()) {
        exit_on_write_error(err);
    }
    let t = &printer.totals;
    if cfg.stats {
        let secs = started.elapsed().as_secs_f64();
        messages::stats(t, secs);
    }
    Ok(if t.errors > 0 {
        2
    } else if t.uris > 0 {
        0
    } else {
        1
    })
}

/// Prints one event; a write error ends the program at once (scans still
/// running elsewhere have no one left to print for).
fn print<W: Write>(printer: &mut Printer<'_, W>, input: &Input, event: Event) {
    let result = match event {
        Event::Records(records) => printer.records(input, records),
        Event::Done(summary) => printer.done(input, summary),
    };
    if let Err(err) = result {
        exit_on_write_error(err);
    }
}

/// A closed pipe (`uriscan big/ | head -1`) ends the program quietly with
/// status 0; any other write error (a full disk) is reported, status 2.
fn exit_on_write_error(err: io::Error) -> ! {
    if err.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    messages::error(&format!("write error: {}", messages::io_reason(&err)));
    std::process::exit(2);
}
