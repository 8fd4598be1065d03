//! Scanning the inputs on `threads` threads while the walk goes on,
//! printing in input order.
//!
//! The walk runs on the calling thread and queues each input as soon as it
//! meets it, numbered in walk order; `threads - 1` workers take what is
//! queued, smallest first, so the first file is scanned while the walk is
//! still listing the rest, and the walk's thread joins them when the walk
//! ends (no more threads than asked for compete for the cores). A worker
//! that opens a large regular file cuts it into segments
//! ([`search::scan_unit`]): it queues the segments after the first, which
//! come before every later input, and scans the first. So one large file
//! keeps every thread busy, and the walk does no more than list names.
//!
//! Units are ordered by their input's number, then their segment's. There
//! is no printing thread: the worker whose unit is next in that order
//! prints as it scans (so a large unit streams out), and the others hold
//! their events until their unit's turn comes; whoever finishes the unit in
//! turn also prints the held units that follow it.
//!
//! What the others hold is bounded ([`HOLD_LIMIT`]): a worker over it waits
//! until its own turn comes or the units in turn drain the backlog, so a
//! slow unit (a huge file, a FIFO) does not make the rest of the run pile
//! up in memory. A stream (a FIFO named among other inputs) that is about
//! to wait for its input ([`Event::Waiting`]) waits for its turn first, so
//! that what it found is printed as soon as its turn comes, not when it
//! next finds something. Neither wait can deadlock. The unit in turn is
//! the smallest unit not yet printed. If a worker scans it, that worker
//! does not wait (it is in turn), and no unit waits for another to be
//! scanned. If it is still queued, it is the smallest queued unit (a
//! segment is queued before its file's first segment is scanned, so before
//! its turn can come), and the worker that printed the unit before it is
//! free, and takes it next. (The one thing units share is a stream named
//! twice, `- -`: each of its units waits for its turn before it takes it,
//! [`search::scan_unit`], so none holds it while it waits.)
//!
//! The units are dropped on the walk's thread, which made them ([`Done`]):
//! glibc's allocator locks the arena of a chunk that another thread frees,
//! and the threads then put each other to sleep.
//!
//! With one thread there is no queue: the walk's thread scans each input as
//! it meets it, whole.
//!
//! A thread that panics ends the run. Its [`Abandon`] guard marks both
//! locks abandoned and wakes every thread waiting on them; each, at its
//! next lock, unwinds without a message of its own ([`Shared`]), so the
//! panic's own message is the one printed, and the program exits with 101.
//! Without it the others would wait forever for the panicked thread's
//! unit.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, LockResult, Mutex, MutexGuard, PoisonError};

use crate::args::Config;
use crate::output::Printer;
use crate::search::{self, Event, SegmentOf, Unit};
use crate::walk::{self, Walked};

/// About how many bytes of found URIs the workers may hold, together, for
/// units whose turn has not come.
const HOLD_LIMIT: usize = 32 << 20;

/// Where a unit stands in the output: its input's number in walk order,
/// then its segment's.
type Key = (usize, u64);

/// Scans every input `cfg` names on `cfg.threads` threads; returns the
/// printer when done.
///
/// # Errors
///
/// An invalid `--glob`, or a thread that could not be started.
///
/// # Panics
///
/// When a thread panics, once every thread has stopped.
pub fn scan_all<'c, W: Write + Send>(
    cfg: &'c Config,
    printer: Printer<'c, W>,
) -> anyhow::Result<Printer<'c, W>> {
    scan_all_by(search::scan_unit, cfg, printer)
}

/// How a unit is scanned: [`search::scan_unit`], but in tests.
type ScanUnit = fn(&Unit, &Config, &mut dyn FnMut(SegmentOf), &mut dyn FnMut(Event));

/// [`scan_all`], scanning each unit with `scan_unit`.
fn scan_all_by<'c, W: Write + Send>(
    scan_unit: ScanUnit,
    cfg: &'c Config,
    mut printer: Printer<'c, W>,
) -> anyhow::Result<Printer<'c, W>> {
    if cfg.threads == 1 {
        walk::walk(&cfg.paths, &cfg.walk, &mut |walked| {
            let unit = unit(walked);
            let mut no_split = |_| unreachable!("one thread scans inputs whole");
            scan_unit(&unit, cfg, &mut no_split, &mut |event| {
                printer.event(&unit, event)
            });
        })?;
        return Ok(printer);
    }
    let queue = Queue {
        state: Shared::new(QueueState {
            inputs: VecDeque::new(),
            segments: BTreeMap::new(),
            closed: false,
            busy: 0,
            idle: 0,
            spent: Vec::with_capacity(SPENT_LIMIT),
        }),
        added: Condvar::new(),
    };
    let printing = Printing {
        turn: Shared::new(Turn {
            printer,
            next: (0, 0),
            held: BTreeMap::new(),
            holding: 0,
            waiting: 0,
            spare: Vec::new(),
        }),
        moved: Condvar::new(),
        next: NextSeen::default(),
    };
    let walked = std::thread::scope(|s| {
        // The walk's thread is the last worker, once the walk has ended:
        // never more threads than asked for are running.
        let _abandon = Abandon(&queue, &printing);
        for i in 1..cfg.threads {
            let spawned = std::thread::Builder::new()
                .name(format!("uriscan-{i}"))
                .spawn_scoped(s, || {
                    let _abandon = Abandon(&queue, &printing);
                    work(scan_unit, &queue, &printing, cfg, &mut Done::helper());
                });
            if let Err(err) = spawned {
                // The workers started find the queue closed and empty, and
                // end: the scope waits for them before the error is told.
                queue.close();
                return Err(err.into());
            }
        }
        let mut done = Done::walk();
        let mut seq = 0;
        let walked = walk::walk(&cfg.paths, &cfg.walk, &mut |walked| {
            queue.push((seq, 0), unit(walked), &mut done);
            seq += 1;
        });
        queue.close();
        work(scan_unit, &queue, &printing, cfg, &mut done);
        walked
    });
    walked?;
    let t = printing.turn.into_inner();
    debug_assert!(t.held.is_empty());
    Ok(t.printer)
}

/// The unit of what the walk met: an input, or a path it could not walk
/// (to report where it stands).
fn unit(walked: Walked) -> Unit {
    match walked {
        Walked::Input(input) => Unit::whole(input),
        Walked::Error { path, reason } => Unit::walk_error(path, reason),
    }
}

/// Ends the run when its thread panics: dropped while unwinding, it marks
/// both locks abandoned and wakes every thread waiting on them.
///
/// A thread that panics outside a lock poisons nothing, and leaves its unit
/// neither finished nor printed: the others would wait for it forever, in
/// [`Queue::take`] (the unit counts as busy) or for its turn. Each made
/// first on its thread, the guard is dropped after every lock that thread
/// holds is released, so it cannot wait for a lock of its own.
struct Abandon<'a, 'c, W: Write>(&'a Queue, &'a Printing<'c, W>);

impl<W: Write> Drop for Abandon<'_, '_, W> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.state.abandon();
            self.1.turn.abandon();
            self.0.added.notify_all();
            self.1.moved.notify_all();
        }
    }
}

/// A lock that a panicking thread can abandon ([`Abandon`]): a thread
/// that locks it after that unwinds instead, without a message (the
/// panic's own is the one to read).
struct Shared<T> {
    mutex: Mutex<T>,
    /// Written with the lock held.
    abandoned: AtomicBool,
}

/// What a thread unwinds with when another has panicked.
struct AnotherThreadPanicked;

impl<T> Shared<T> {
    fn new(value: T) -> Self {
        Shared {
            mutex: Mutex::new(value),
            abandoned: AtomicBool::new(false),
        }
    }

    /// Locks it; unwinds if it was abandoned.
    fn lock(&self) -> MutexGuard<'_, T> {
        self.unless_abandoned(self.mutex.lock())
    }

    /// Waits on `condvar` with `guard` (of this lock), then as
    /// [`Shared::lock`].
    fn wait<'a>(&'a self, condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        self.unless_abandoned(condvar.wait(guard))
    }

    fn unless_abandoned<'a>(&self, locked: LockResult<MutexGuard<'a, T>>) -> MutexGuard<'a, T> {
        match locked {
            Ok(guard) if !self.abandoned.load(Ordering::Relaxed) => guard,
            _ => std::panic::resume_unwind(Box::new(AnotherThreadPanicked)),
        }
    }

    fn abandon(&self) {
        let _guard = self.mutex.lock().unwrap_or_else(PoisonError::into_inner);
        self.abandoned.store(true, Ordering::Relaxed);
    }

    /// The value, once every thread has ended without a panic (the
    /// scope panics after one: the lock is neither poisoned nor abandoned).
    fn into_inner(self) -> T {
        self.mutex
            .into_inner()
            .expect("no thread panicked: the scope would have")
    }
}

/// The units waiting for a worker.
struct Queue {
    state: Shared<QueueState>,
    /// Signalled when a unit is added or the queue is closed.
    added: Condvar,
}

/// # Invariants
///
/// `inputs` holds whole inputs in walk order; every key in `segments` is
/// smaller than every key in `inputs` (a worker queues the segments of an
/// input it took, so after every input still queued).
struct QueueState {
    /// Whole inputs, as the walk queued them. A queue, not a tree: taking
    /// the first frees nothing, where a tree frees nodes the walk's thread
    /// allocated (see [`Done`] for why that costs).
    inputs: VecDeque<(Key, Unit)>,
    /// The segments of inputs being scanned, queued by their workers.
    segments: BTreeMap<Key, Unit>,
    /// True once the walk has ended: no input will be added.
    closed: bool,
    /// How many workers are scanning a unit: each may still queue the
    /// segments of its file.
    busy: usize,
    /// How many workers wait for a unit (a signal costs a system call:
    /// none is sent when no one waits).
    idle: usize,
    /// Units other threads are done with, for the walk's thread to drop
    /// ([`Done`]); never more than [`SPENT_LIMIT`], so never reallocated.
    spent: Vec<Unit>,
}

/// How many units [`QueueState::spent`] and a thread's [`Done`] hold, at
/// most (past it a thread drops them itself).
const SPENT_LIMIT: usize = 1024;

/// The units a worker is done with. The walk's thread made them, and drops
/// them; another thread hands them over through the queue
/// ([`QueueState::spent`]), where the walk's thread takes them when it
/// queues an input or takes a unit.
///
/// Why: a unit holds its input's path, allocated on the walk's thread.
/// glibc's allocator locks the arena of a chunk freed by another thread,
/// and keeps the chunk in that thread's cache, from which its own
/// allocations (a part's buffers, growing) then come and lock the walk's
/// arena again as they grow; a thread that finds an arena locked sleeps.
/// Freed on the thread that scanned them, they made 200 to 1,150 context
/// switches a run at `-j2` over the corpus tree in mail mode, nearly all
/// futex waits in the allocator; dropped here, 150 to 205, and the run
/// takes 113 ms against 132 (alternating runs).
struct Done {
    units: Vec<Unit>,
    /// True on the walk's thread.
    walk: bool,
}

impl Done {
    fn walk() -> Done {
        Done {
            units: Vec::with_capacity(SPENT_LIMIT),
            walk: true,
        }
    }

    fn helper() -> Done {
        Done {
            units: Vec::with_capacity(SPENT_LIMIT),
            walk: false,
        }
    }

    /// Drops `unit` on the walk's thread, or keeps it for it.
    fn add(&mut self, unit: Unit) {
        if !self.walk && self.units.len() < SPENT_LIMIT {
            self.units.push(unit);
        }
    }

    /// Hands the units kept over to `spent` (a helper), or takes those
    /// there to drop them (the walk's thread, by [`Done::drop_units`] once
    /// the queue is unlocked).
    fn exchange(&mut self, spent: &mut Vec<Unit>) {
        if self.walk {
            // Both lists keep their room: nothing is reallocated or freed.
            std::mem::swap(&mut self.units, spent);
        } else {
            let room = SPENT_LIMIT - spent.len();
            let handed = self.units.len().min(room);
            spent.extend(self.units.drain(..handed));
        }
    }

    /// Drops the units taken by [`Done::exchange`] (the walk's thread).
    fn drop_units(&mut self) {
        if self.walk {
            self.units.clear();
        }
    }
}

impl Queue {
    /// Queues the whole input `unit` (at `key`, after every input queued),
    /// and exchanges the units done with (see [`Done`]).
    fn push(&self, key: Key, unit: Unit, done: &mut Done) {
        let mut q = self.state.lock();
        done.exchange(&mut q.spent);
        debug_assert!(key.1 == 0 && q.inputs.back().is_none_or(|(last, _)| *last < key));
        q.inputs.push_back((key, unit));
        self.notify(q);
        done.drop_units();
    }

    /// Queues the segment `unit` (at `key`) of an input being scanned.
    fn push_segment(&self, key: Key, unit: Unit) {
        let mut q = self.state.lock();
        debug_assert!(key.1 > 0);
        q.segments.insert(key, unit);
        self.notify(q);
    }

    /// Unlocks the queue, and wakes a worker waiting for a unit, if any.
    fn notify(&self, q: std::sync::MutexGuard<'_, QueueState>) {
        let idle = q.idle > 0;
        drop(q);
        if idle {
            self.added.notify_one();
        }
    }

    fn close(&self) {
        self.state.lock().closed = true;
        self.added.notify_all();
    }

    /// The smallest queued unit, waiting for one to be added; `None` once
    /// no unit can be: the walk has ended, none is queued, and no worker is
    /// scanning one (which could queue segments). `finished` tells that the
    /// caller has just finished the unit it took before. Exchanges the
    /// units done with (see [`Done`]).
    fn take(&self, finished: bool, done: &mut Done) -> Option<(Key, Unit)> {
        let mut q = self.state.lock();
        q.busy -= usize::from(finished);
        done.exchange(&mut q.spent);
        loop {
            if let Some(entry) = q.segments.pop_first().or_else(|| q.inputs.pop_front()) {
                q.busy += 1;
                drop(q);
                done.drop_units();
                return Some(entry);
            }
            if q.closed && q.busy == 0 {
                drop(q);
                done.drop_units();
                self.added.notify_all();
                return None;
            }
            q.idle += 1;
            q = self.state.wait(&self.added, q);
            q.idle -= 1;
        }
    }
}

/// The printer, behind its lock, and what the workers read to know
/// whether to take it.
struct Printing<'c, W: Write> {
    turn: Shared<Turn<'c, W>>,
    /// Signalled whenever `next` moves or `holding` shrinks.
    moved: Condvar,
    /// [`Turn::next`] as of its last move.
    next: NextSeen,
}

/// [`Turn::next`], readable without the lock, so that a worker whose unit
/// is not in turn holds its events without taking the lock for each one
/// (the printing thread holds it while it prints, and a worker that finds
/// it taken sleeps: 130 futex calls and 27 context switches a run on one
/// large log at `-j2`).
///
/// It is only a hint, read without ordering: the lock decides. A stale or
/// torn read that names the worker's unit makes it take the lock and look;
/// one that does not, when the unit is in turn, makes it hold the event
/// until its next one or its unit's end, when it takes the lock whatever
/// it read.
#[derive(Default)]
struct NextSeen {
    input: AtomicUsize,
    segment: AtomicU64,
}

impl NextSeen {
    fn publish(&self, next: Key) {
        self.input.store(next.0, Ordering::Relaxed);
        self.segment.store(next.1, Ordering::Relaxed);
    }

    /// Returns false when `key` was not in turn as last seen.
    fn may_be(&self, key: Key) -> bool {
        self.input.load(Ordering::Relaxed) == key.0 && self.segment.load(Ordering::Relaxed) == key.1
    }
}

/// How many bytes of events a worker whose unit is not in turn holds
/// before it takes the lock to count them in [`Turn::holding`].
const UNCOUNTED_LIMIT: usize = 1 << 20;

/// The printer and what is waiting for it.
///
/// # Invariants
///
/// Every event of the units before `next` has been printed; `held` holds
/// the events of finished units after `next`, each ending with `Done`,
/// with their size; `holding` is the size of everything held for units
/// after `next`, in `held` and in the workers' own buffers, but for what
/// each worker has not counted yet (less than [`UNCOUNTED_LIMIT`]);
/// `waiting` is how many workers wait for `next` to move or `holding` to
/// shrink (a signal costs a system call: none is sent when no one waits).
struct Turn<'c, W: Write> {
    printer: Printer<'c, W>,
    next: Key,
    held: BTreeMap<Key, (Unit, Vec<Event>, usize)>,
    holding: usize,
    waiting: usize,
    /// Emptied lists of events, for the workers to fill again: the list of
    /// a unit held for its turn is often printed, and would be freed, by
    /// another thread than the one that allocated it (see [`Done`] for why
    /// that costs).
    spare: Vec<Vec<Event>>,
}

/// How many emptied lists of events [`Turn::spare`] keeps, at most.
const SPARE_LISTS: usize = 64;

impl<W: Write> Turn<'_, W> {
    /// Prints the events of the unit at `next` (emptying `events`), the
    /// last of them its `Done`, moves on to the next unit, prints the held
    /// ones that are then in turn, and publishes where `next` stands.
    fn print_last(
        &mut self,
        unit: &Unit,
        events: &mut Vec<Event>,
        done: &mut Done,
        seen: &NextSeen,
    ) {
        self.print_unit(unit, events);
        while let Some((unit, mut events, size)) = self.held.remove(&self.next) {
            self.holding -= size;
            self.print_unit(&unit, &mut events);
            self.give_back(events);
            done.add(unit);
        }
        seen.publish(self.next);
    }

    /// Prints all the events of the unit at `next` (emptying `events`)
    /// and moves on (called by [`Turn::print_last`] only, which publishes
    /// the move).
    fn print_unit(&mut self, unit: &Unit, events: &mut Vec<Event>) {
        let mut ends_input = true;
        for event in events.drain(..) {
            if let Event::Done(summary) = &event {
                ends_input = summary.ends_input();
            }
            self.printer.event(unit, event);
        }
        let (input, segment) = self.next;
        self.next = if ends_input {
            (input + 1, 0)
        } else {
            (input, segment + 1)
        };
    }

    /// Keeps the emptied list `events` for [`Turn::take_list`].
    fn give_back(&mut self, events: Vec<Event>) {
        debug_assert!(events.is_empty());
        if self.spare.len() < SPARE_LISTS && events.capacity() > 0 {
            self.spare.push(events);
        }
    }

    /// An empty list of events: an emptied one if any.
    fn take_list(&mut self) -> Vec<Event> {
        self.spare.pop().unwrap_or_default()
    }

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
        Event::Records(batch) => batch.size(),
        _ => 0,
    }
}

/// A worker: takes units until there are none, scans each, and prints
/// what it finds when the unit's turn comes.
fn work<W: Write>(
    scan_unit: ScanUnit,
    queue: &Queue,
    printing: &Printing<'_, W>,
    cfg: &Config,
    done: &mut Done,
) {
    let Printing { turn, moved, next } = printing;
    let mut finished_one = false;
    // The events of the unit being scanned that are not printed yet; kept
    // from unit to unit.
    let mut mine: Vec<Event> = Vec::new();
    while let Some((key, unit)) = queue.take(finished_one, done) {
        finished_one = true;
        // The part of `holding` that is in `mine`, and the size of the
        // rest of `mine`.
        let mut mine_size = 0;
        let mut uncounted = 0;
        let mut finished = None;
        let mut split =
            |segment: SegmentOf| queue.push_segment((key.0, segment.k), unit.segment(segment));
        scan_unit(&unit, cfg, &mut split, &mut |event| {
            let last = matches!(event, Event::Done(_));
            // A stream about to wait for its input waits for its turn
            // first: what it found is printed when its turn comes, not
            // when it next finds something.
            let waits = matches!(event, Event::Waiting);
            uncounted += size(&event);
            mine.push(event);
            if !last && !waits && uncounted < UNCOUNTED_LIMIT && !next.may_be(key) {
                return;
            }
            let mut t = turn.lock();
            if t.next != key {
                t.holding += uncounted;
                mine_size += uncounted;
                uncounted = 0;
                while (waits || t.holding > HOLD_LIMIT) && t.next != key {
                    t.waiting += 1;
                    t = turn.wait(moved, t);
                    t.waiting -= 1;
                }
            }
            if t.next == key {
                t.holding -= mine_size;
                (mine_size, uncounted) = (0, 0);
                if last {
                    t.print_last(&unit, &mut mine, done, next);
                } else {
                    for event in mine.drain(..) {
                        t.printer.event(&unit, event);
                    }
                }
                t.signal(moved);
            } else if last {
                let spare = t.take_list();
                finished = Some((std::mem::replace(&mut mine, spare), mine_size));
            }
        });
        let Some((mut events, size)) = finished else {
            done.add(unit);
            continue;
        };
        let mut t = turn.lock();
        if t.next == key {
            // Its turn came after its last event.
            t.holding -= size;
            t.print_last(&unit, &mut events, done, next);
            t.give_back(events);
            t.signal(moved);
            drop(t);
            done.add(unit);
        } else {
            t.held.insert(key, (unit, events, size));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use clap::Parser;

    use super::*;
    use crate::args::Args;
    use crate::walk::Input;

    /// Scans as [`search::scan_unit`] does, but panics on the input named
    /// `panics`, and on the fifth segment of a file that is cut.
    fn scan_or_panic(
        unit: &Unit,
        cfg: &Config,
        split: &mut dyn FnMut(SegmentOf),
        send: &mut dyn FnMut(Event),
    ) {
        if let Input::Path { path, .. } = &*unit.input {
            assert!(!path.ends_with("panics"), "scanning {}", path.display());
        }
        assert!(unit.segment.is_none_or(|s| s.k != 5), "scanning a segment");
        search::scan_unit(unit, cfg, split, send);
    }

    /// Runs `uriscan ARGS` with [`scan_or_panic`]; returns true if it
    /// panicked, false if it did not, and fails if it has not ended in a
    /// minute.
    fn panics(args: &[&str]) -> bool {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let (sent, received) = mpsc::channel();
        std::thread::spawn(move || {
            let cfg = Args::try_parse_from(std::iter::once("uriscan".into()).chain(args))
                .unwrap()
                .into_config()
                .unwrap();
            let run = std::panic::catch_unwind(|| {
                scan_all_by(scan_or_panic, &cfg, Printer::new(Vec::new(), &cfg)).map(|_| ())
            });
            sent.send(run.is_err()).unwrap();
        });
        received
            .recv_timeout(Duration::from_secs(60))
            .expect("the run has not ended in a minute")
    }

    /// A thread that panics (on a whole input, or on one segment of a file
    /// cut into many) ends the run, whichever thread it is, instead of
    /// leaving the others waiting for its unit. Before [`Abandon`], each of
    /// these runs hung.
    #[test]
    fn a_thread_that_panics_ends_the_run() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..60 {
            let text = format!("file {i}: <http://example.org/{i}>\n");
            std::fs::write(dir.path().join(format!("{i:02}")), text).unwrap();
        }
        std::fs::write(dir.path().join("panics"), "http://example.org/\n").unwrap();
        let large = dir.path().join("large");
        let line = "a line with http://example.org/path in it\n";
        std::fs::write(&large, line.repeat(5_000)).unwrap();
        let (dir, large) = (dir.path().to_str().unwrap(), large.to_str().unwrap());
        for threads in ["2", "3", "4"] {
            assert!(panics(&["-j", threads, dir]), "-j{threads}");
            let cut = ["-j", threads, "--segment-size", "7777", large];
            assert!(panics(&cut), "{cut:?}");
            assert!(!panics(&["-j", threads, large]), "-j{threads} {large}");
        }
    }
}
