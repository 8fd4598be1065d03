//! Scanning many inputs on a thread pool while printing in input order.
//!
//! There is no printing thread: the worker whose input is next in order
//! prints as it scans (so a large file streams out), and the others hold
//! their events until that input's turn comes; whoever finishes the input
//! in turn also prints the held inputs that follow it.
//!
//! What the others hold is bounded ([`HOLD_LIMIT`]): a worker over it waits
//! until its own turn comes or the inputs in turn drain the backlog, so a
//! slow first input (a huge file, a FIFO) does not make the rest of the run
//! pile up in memory. The worker whose input is in turn never waits, and
//! rayon runs each worker's inputs in order, so the wait cannot deadlock.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::{Condvar, Mutex};

use rayon::prelude::*;

use crate::args::Config;
use crate::output::Printer;
use crate::search::{self, Event};
use crate::walk::Input;

/// About how many bytes of found URIs the workers may hold, together, for
/// inputs whose turn has not come.
const HOLD_LIMIT: usize = 32 << 20;

/// The printer and what is waiting for it.
///
/// # Invariants
///
/// Every event of the inputs before `next` has been printed; `held` holds
/// the events of finished inputs after `next`, each ending with `Done`,
/// with their size; `holding` is the size of everything held for inputs
/// after `next`, in `held` and in the workers' own buffers.
struct Turn<'c, W: Write> {
    printer: Printer<'c, W>,
    next: usize,
    held: BTreeMap<usize, (Vec<Event>, usize)>,
    holding: usize,
}

/// What holding `event` costs, about, in bytes.
fn size(event: &Event) -> usize {
    match event {
        Event::Records(records) => records
            .iter()
            .map(|r| std::mem::size_of_val(r) + r.uri.len())
            .sum(),
        _ => 0,
    }
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
        holding: 0,
    });
    // Signalled whenever `next` moves or `holding` shrinks.
    let moved = Condvar::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.install(|| {
        inputs.par_iter().enumerate().for_each(|(i, input)| {
            let mut mine: Vec<Event> = Vec::new();
            // The part of `holding` that is in `mine`.
            let mut mine_size = 0;
            search::scan(input, cfg, search::Split::None, &mut |event| {
                let done = matches!(event, Event::Done(_));
                let cost = size(&event);
                mine.push(event);
                let mut t = turn.lock().expect("a printing thread panicked");
                if t.next != i {
                    t.holding += cost;
                    mine_size += cost;
                    while t.holding > HOLD_LIMIT && t.next != i {
                        t = moved.wait(t).expect("a printing thread panicked");
                    }
                }
                if t.next == i {
                    t.holding -= mine_size;
                    mine_size = 0;
                    for event in mine.drain(..) {
                        t.printer.event(input, event);
                    }
                    if done {
                        t.next += 1;
                        print_held(&mut t, inputs);
                    }
                    moved.notify_all();
                } else if done {
                    t.held.insert(i, (std::mem::take(&mut mine), mine_size));
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
    while let Some((events, size)) = t.held.remove(&t.next) {
        t.holding -= size;
        for event in events {
            t.printer.event(&inputs[t.next], event);
        }
        t.next += 1;
    }
}
