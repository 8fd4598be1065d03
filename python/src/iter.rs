//! `FoundIter`: the URIs of a stream, found by a worker thread while
//! Python consumes them, through a bounded channel (memory stays bounded
//! however long the input and however slow the consumer).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::{guarded, warn_all, Failure};
use crate::found::Found;
use crate::input::{self, Options, Out};

/// How many URIs travel to Python together.
const BATCH: usize = 256;

/// How many batches may wait for Python.
const QUEUE: usize = 4;

/// How long the consumer waits for the worker before it runs Python's
/// signal handlers (so that Ctrl-C stops a loop over a quiet pipe).
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// How long a dropped iterator waits for its worker to end before it
/// leaves it to end on its own (a worker blocked in a quiet pipe's `read`
/// ends when that read returns: its next send fails).
const DROP_WAIT: Duration = Duration::from_millis(100);

/// What the worker sends.
#[derive(Debug)]
enum Event {
    /// URIs found, in order.
    Found(Vec<Found>),
    /// A problem that did not stop the scan.
    Warning(String),
    /// The scan failed; nothing follows.
    Failed(Failure),
}

/// An iterator over the URIs of a stream, found as it is read.
///
/// Returned by ``iter_scan``. The input is read and scanned on a worker
/// thread, a few hundred URIs ahead of the consumer; the GIL is held only
/// while the file's ``read`` runs. While it waits for a quiet input (a
/// pipe, ``tail -f``), Ctrl-C raises ``KeyboardInterrupt``. Dropping the
/// iterator stops the worker (one blocked in ``read`` stops once that
/// read returns).
///
/// One ``next`` at a time: one called while another has not returned
/// (another thread's) raises ``ValueError``, as a generator's does.
#[pyclass(module = "uriscan")]
#[derive(Debug)]
pub struct FoundIter {
    /// `None` once the worker has finished and everything was received.
    rx: Mutex<Option<Receiver<Event>>>,
    /// URIs received and not yet returned.
    ready: VecDeque<Found>,
    worker: Option<JoinHandle<()>>,
}

impl FoundIter {
    /// Starts scanning `rdr` on a worker thread.
    ///
    /// # Errors
    ///
    /// When the thread cannot be started.
    pub fn spawn<R: Read + Send + 'static>(opts: Options, rdr: R) -> io::Result<FoundIter> {
        let (tx, rx) = sync_channel(QUEUE);
        let worker = thread::Builder::new()
            .name("uriscan-iter".into())
            .spawn(move || {
                let mut out = Sender {
                    tx,
                    batch: Vec::with_capacity(BATCH),
                };
                let result = guarded(|| input::scan_reader(&opts, rdr, &mut out));
                out.flush();
                if let Err(failure) = result {
                    // The receiver may be gone; then nobody is waiting.
                    let _ = out.tx.send(Event::Failed(failure));
                }
            })?;
        Ok(FoundIter {
            rx: Mutex::new(Some(rx)),
            ready: VecDeque::new(),
            worker: Some(worker),
        })
    }

    /// The next URI, once the worker has sent it; `None` at the end.
    fn next_found(&mut self, py: Python<'_>) -> PyResult<Option<Found>> {
        loop {
            if let Some(found) = self.ready.pop_front() {
                return Ok(Some(found));
            }
            let rx = &self.rx;
            let event = py.detach(|| {
                let guard = rx.lock().unwrap_or_else(|e| e.into_inner());
                guard.as_ref().map(|rx| rx.recv_timeout(SIGNAL_CHECK))
            });
            match event {
                None => return Ok(None),
                Some(Ok(Event::Found(batch))) => self.ready.extend(batch),
                Some(Ok(Event::Warning(warning))) => warn_all(py, &[warning])?,
                Some(Ok(Event::Failed(failure))) => {
                    self.finish(py);
                    return Err(failure.into());
                }
                // The input is quiet: Ctrl-C raises `KeyboardInterrupt`
                // here (the iterator can be read on after it).
                Some(Err(RecvTimeoutError::Timeout)) => py.check_signals()?,
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    self.finish(py);
                    return Ok(None);
                }
            }
        }
    }

    /// Drops the receiver and joins the worker, which has ended or ends
    /// soon (its next send fails and it stops scanning).
    fn finish(&mut self, py: Python<'_>) {
        self.rx.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(worker) = self.worker.take() {
            // Detached, so that a worker waiting to call `read` can run.
            // A panic on the worker was caught there; nothing to re-raise.
            let _ = py.detach(|| worker.join());
        }
    }

    /// Drops the receiver and waits for the worker to end, at most
    /// [`DROP_WAIT`]: one blocked in `read` (a quiet pipe, after Ctrl-C)
    /// is left to end when the read returns.
    fn abandon(&mut self, py: Python<'_>) {
        self.rx.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(worker) = self.worker.take() else {
            return;
        };
        let deadline = Instant::now() + DROP_WAIT;
        let ended = py.detach(|| {
            while !worker.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(1));
            }
            worker.is_finished()
        });
        if ended {
            let _ = py.detach(|| worker.join());
        }
    }
}

#[pymethods]
impl FoundIter {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(slf: &Bound<'_, Self>) -> PyResult<Option<Found>> {
        // Borrowed until `next_found` returns, though that waits for the
        // worker with the GIL released: another thread may call `next`
        // meanwhile.
        let mut this = slf.try_borrow_mut().map_err(|_| {
            PyValueError::new_err(
                "FoundIter already executing: another next() on it has not returned \
                 (share it between threads behind a lock)",
            )
        })?;
        this.next_found(slf.py())
    }
}

impl Drop for FoundIter {
    fn drop(&mut self) {
        if self.worker.is_some() {
            Python::attach(|py| self.abandon(py));
        }
    }
}

/// The worker's [`Out`]: URIs go to Python in batches.
struct Sender {
    tx: SyncSender<Event>,
    batch: Vec<Found>,
}

impl Sender {
    /// Sends the batch; returns false when nobody receives any more.
    fn flush(&mut self) -> bool {
        if self.batch.is_empty() {
            return true;
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
        self.tx.send(Event::Found(batch)).is_ok()
    }
}

impl Out for Sender {
    fn found(&mut self, found: Found) -> io::Result<bool> {
        self.batch.push(found);
        Ok(self.batch.len() < BATCH || self.flush())
    }

    fn warning(&mut self, warning: String) {
        if self.flush() {
            let _ = self.tx.send(Event::Warning(warning));
        }
    }
}
