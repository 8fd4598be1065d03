//! Scanning many inputs on a thread pool while printing in input order.
//!
//! There is no printing thread: the worker whose input is next in order
//! prints as it scans (so a large file streams out), and the others hold
//! their events until that input's turn comes; whoever finishes the input
//! in turn also prints the held inputs that follow it.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::args::Config;
use crate::output::Printer;
use crate::search::{self, Event};
use crate::walk::Input;

/// The printer and what is waiting for it.
///
/// # Invariants
///
/// Every event of the inputs before `next` has been printed; `held` holds
/// the events of finished inputs after `next`, each ending with `Done`.
struct Turn<'c, W: Write> {
    printer: Printer<'c, W>,
    next: usize,
    held: BTreeMap<usize, Vec<Event>>,
}

/// Scans `inputs` on `threads` threads; returns the printer when done.
pub fn scan_all<'c, W: Write + Send>(
    inputs: &[Input],
    cfg: &'c Config,
    printer: Printer<'c, W>,
    threads: usize,
) -> anyhow::Result<Printer<'c, W>> {
    let turn = Mutex::new(Turn {
        printer,
        next: 0,
        held: BTreeMap::new(),
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.install(|| {
        inputs.par_iter().enumerate().for_each(|(i, input)| {
            let mut mine: Vec<Event> = Vec::new();
            search::scan(input, cfg, &mut |event| {
                let done = matches!(event, Event::Done(_));
                mine.push(event);
                let mut t = turn.lock().expect("a printing thread panicked");
                if t.next == i {
                    for event in mine.drain(..) {
                        t.printer.event(input, event);
                    }
                    if done {
                        t.next += 1;
                        print_held(&mut t, inputs);
                    }
                } else if done {
                    t.held.insert(i, std::mem::take(&mut mine));
                }
            });
        });
    });
    let t = turn.into_inner().expect("a printing thread panicked");
    debug_assert!(t.next == inputs.len() && t.held.is_empty());
    Ok(t.printer)
}

/// Prints the held inputs that are now in turn.
fn print_held<W: Write>(t: &mut Turn<'_, W>, inputs: &[Input]) {
    while let Some(events) = t.held.remove(&t.next) {
        for event in events {
            t.printer.event(&inputs[t.next], event);
        }
        t.next += 1;
    }
}
