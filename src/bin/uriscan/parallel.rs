//! Scanning the inputs on `threads` threads while the walk goes on,
//! printing in input order.
//!
//! The walk runs on the calling thread and hands each input to a queue as
//! soon as it meets it, as one or more *units* (a large regular file is cut
//! into segments, [`search::units`]), numbered in order. The workers take
//! the units in that order, so the first file is scanned while the walk is
//! still listing the rest, and one large file keeps every thread busy.
//!
//! There is no printing thread: the worker whose unit is next in order
//! prints as it scans (so a large unit streams out), and the others hold
//! their events until that unit's turn comes; whoever finishes the unit in
//! turn also prints the held units that follow it.
//!
//! What the others hold is bounded ([`HOLD_LIMIT`]): a worker over it waits
//! until its own turn comes or the units in turn drain the backlog, so a
//! slow unit (a huge file, a FIFO) does not make the rest of the run pile
//! up in memory. This cannot deadlock: units are taken in order, so the
//! unit in turn has been taken, and the worker scanning it never waits (nor
//! does it wait for any other unit: no unit needs another to be scanned).
//!
//! With one thread there is no queue: the walk's thread scans each input as
//! it meets it.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::sync::{Condvar, Mutex};

use crate::args::Config;
use crate::output::Printer;
use crate::search::{self, Event, Unit};
use crate::walk::{self, Walked};

/// About how many bytes of found URIs the workers may hold, together, for
/// units whose turn has not come.
const HOLD_LIMIT: usize = 32 << 20;

/// Scans every input `cfg` names on `cfg.threads` threads; returns the
/// printer when done.
///
/// # Errors
///
/// An invalid `--glob`, or a thread that could not be started.
pub fn scan_all<'c, W: Write + Send>(
    cfg: &'c Config,
    mut printer: Printer<'c, W>,
) -> anyhow::Result<Printer<'c, W>> {
    if cfg.threads == 1 {
        walk::walk(&cfg.paths, &cfg.walk, &mut |walked| {
            for unit in units(walked, cfg) {
                search::scan_unit(&unit, cfg, &mut |event| printer.event(&unit, event));
            }
        })?;
        return Ok(printer);
    }
    let queue = Queue {
        state: Mutex::new(QueueState {
            units: VecDeque::new(),
            taken: 0,
            closed: false,
            idle: 0,
        }),
        added: Condvar::new(),
    };
    let turn = Mutex::new(Turn {
        printer,
        next: 0,
        held: BTreeMap::new(),
        holding: 0,
        waiting: 0,
    });
    // Signalled whenever `next` moves or `holding` shrinks.
    let moved = Condvar::new();
    let walked = std::thread::scope(|s| {
        for i in 0..cfg.threads {
            std::thread::Builder::new()
                .name(format!("uriscan-{i}"))
                .spawn_scoped(s, || work(&queue, &turn, &moved, cfg))?;
        }
        let mut seq = 0;
        let walked = walk::walk(&cfg.paths, &cfg.walk, &mut |walked| {
            for unit in units(walked, cfg) {
                queue.push(seq, unit);
                seq += 1;
            }
        });
        queue.close();
        walked
    });
    walked?;
    let t = turn.into_inner().expect("a printing thread panicked");
    debug_assert!(t.held.is_empty());
    Ok(t.printer)
}

/// The units of what the walk met: an input's, or one that reports the
/// error of a path it could not walk.
fn units(walked: Walked, cfg: &Config) -> Box<dyn Iterator<Item = Unit>> {
    match walked {
        Walked::Input(input) => Box::new(search::units(input, cfg)),
        Walked::Error { path, reason } => Box::new(std::iter::once(Unit::walk_error(path, reason))),
    }
}

/// The units waiting for a worker, in order.
struct Queue {
    state: Mutex<QueueState>,
    /// Signalled when a unit is added or the queue is closed.
    added: Condvar,
}

/// # Invariants
///
/// `units` holds the units numbered `taken`, `taken + 1`, … in order.
struct QueueState {
    units: VecDeque<Unit>,
    taken: usize,
    /// True once the walk has ended: no unit will be added.
    closed: bool,
    /// How many workers wait for a unit (a signal costs a system call:
    /// none is sent when no one waits).
    idle: usize,
}

impl Queue {
    fn push(&self, seq: usize, unit: Unit) {
        let mut q = self.state.lock().expect("a worker panicked");
        debug_assert_eq!(seq, q.taken + q.units.len());
        q.units.push_back(unit);
        let idle = q.idle > 0;
        drop(q);
        if idle {
            self.added.notify_one();
        }
    }

    fn close(&self) {
        self.state.lock().expect("a worker panicked").closed = true;
        self.added.notify_all();
    }

    /// The next unit in order and its number, waiting for the walk to add
    /// one; `None` once the queue is closed and empty.
    fn take(&self) -> Option<(usize, Unit)> {
        let mut q = self.state.lock().expect("a worker panicked");
        loop {
            if let Some(unit) = q.units.pop_front() {
                q.taken += 1;
                return Some((q.taken - 1, unit));
            }
            if q.closed {
                return None;
            }
            q.idle += 1;
            q = self.added.wait(q).expect("a worker panicked");
            q.idle -= 1;
        }
    }
}

/// The printer and what is waiting for it.
///
/// # Invariants
///
/// Every event of the units before `next` has been printed; `held` holds
/// the events of finished units after `next`, each ending with `Done`,
/// with their size; `holding` is the size of everything held for units
/// after `next`, in `held` and in the workers' own buffers; `waiting` is
/// how many workers wait for `next` to move or `holding` to shrink (a
/// signal costs a system call: none is sent when no one waits).
struct Turn<'c, W: Write> {
    printer: Printer<'c, W>,
    next: usize,
    held: BTreeMap<usize, (Unit, Vec<Event>, usize)>,
    holding: usize,
    waiting: usize,
}

impl<W: Write> Turn<'_, W> {
    /// Wakes the workers waiting for their turn or for room, if any.
    fn signal(&self, moved: &Condvar) {
        if self.waiting > 0 {
            moved.notify_all();
        }
    }
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

/// A worker: takes units in order until there are none, scans each, and
/// prints what it finds when the unit's turn comes.
fn work<W: Write>(queue: &Queue, turn: &Mutex<Turn<'_, W>>, moved: &Condvar, cfg: &Config) {
    while let Some((i, unit)) = queue.take() {
        let mut mine: Vec<Event> = Vec::new();
        // The part of `holding` that is in `mine`.
        let mut mine_size = 0;
        let mut done_unit = None;
        search::scan_unit(&unit, cfg, &mut |event| {
            let done = matches!(event, Event::Done(_));
            let cost = size(&event);
            mine.push(event);
            let mut t = turn.lock().expect("a printing thread panicked");
            if t.next != i {
                t.holding += cost;
                mine_size += cost;
                while t.holding > HOLD_LIMIT && t.next != i {
                    t.waiting += 1;
                    t = moved.wait(t).expect("a printing thread panicked");
                    t.waiting -= 1;
                }
            }
            if t.next == i {
                t.holding -= mine_size;
                mine_size = 0;
                for event in mine.drain(..) {
                    t.printer.event(&unit, event);
                }
                if done {
                    t.next += 1;
                    print_held(&mut t);
                }
                t.signal(moved);
            } else if done {
                done_unit = Some((std::mem::take(&mut mine), mine_size));
            }
        });
        if let Some((events, size)) = done_unit {
            let mut t = turn.lock().expect("a printing thread panicked");
            if t.next == i {
                // Its turn came after its last event.
                t.holding -= size;
                for event in events {
                    t.printer.event(&unit, event);
                }
                t.next += 1;
                print_held(&mut t);
                t.signal(moved);
            } else {
                t.held.insert(i, (unit, events, size));
            }
        }
    }
}

/// Prints the held units that are now in turn.
fn print_held<W: Write>(t: &mut Turn<'_, W>) {
    while let Some((unit, events, size)) = t.held.remove(&t.next) {
        t.holding -= size;
        for event in events {
            t.printer.event(&unit, event);
        }
        t.next += 1;
    }
}
