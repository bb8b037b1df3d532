//! The save writer, the Tauri host's [`Store`] for the core: one thread writes the save files,
//! so no command waits for the disk.
//!
//! Commands queue a snapshot (the file's finished bytes) and return at once. The writer takes
//! everything queued, writes it with [`Storage`]'s atomic replace, and repeats:
//! - the newest snapshot of a file wins: one queued while an older one still waits replaces it,
//!   so a burst of moves costs one write, not one per move;
//! - files reach the disk in the order of their latest queueing, so a batch queued as "stats,
//!   then game" is written in that order (what `AppCore` relies on: a finished game's stats
//!   reach the disk before the game that says it was counted);
//! - a snapshot whose write fails is tried again at the head of the next batch (unless a newer
//!   snapshot of the same file replaces it), not in a loop against a full disk; the other files
//!   of its batch are still written, so one file that cannot be written never stops the others;
//! - [`Saver::flush`] gives a [`SaveTicket`] that waits until everything queued before it is on
//!   disk and says whether it got there; dropping the [`Saver`] drains the queue first.
//!
//! The window this leaves: a command's reply can reach the UI before its snapshot is on disk.
//! The writer starts at once, so the window is one atomic write (a few milliseconds; the
//! `play_latency` measurement in docs/architecture.md). A crash inside it loses that last change
//! and nothing else: the file on disk is the previous complete snapshot, never a mix.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use wuzi_core::store::{SaveTicket as CoreTicket, Store};

use crate::storage::{write_atomic, Storage};

/// How many failed batches [`SaveTicket::wait`] can still report; older failures are only logged.
const FAILURES_KEPT: usize = 16;

/// The writer thread and its queue.
#[derive(Debug)]
pub struct Saver {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Debug)]
struct Shared {
    storage: Storage,
    queue: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct Queue {
    /// File name and bytes, oldest first; one entry per file.
    pending: Vec<(&'static str, Vec<u8>)>,
    /// The snapshots whose write failed, in order: put back before the next queued batch.
    retry: Vec<(&'static str, Vec<u8>)>,
    /// Snapshots queued so far: a snapshot's ticket is the value after its queueing.
    queued: u64,
    /// Every snapshot with a ticket up to this was written, superseded or failed.
    done: u64,
    /// Ticket ranges of recent batches that failed, with the error.
    failures: VecDeque<(u64, u64, String)>,
    /// The writer is busy with a batch taken off `pending`.
    writing: bool,
    stop: bool,
}

/// Waits for the snapshots queued before it (see [`Saver::flush`]).
#[derive(Debug)]
#[must_use = "a ticket does nothing until waited for"]
pub struct SaveTicket {
    shared: Arc<Shared>,
    upto: u64,
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    // The writer never panics while holding the lock; a poisoned queue is still consistent.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Saver {
    /// A writer for `storage`. If no thread can be started, snapshots are written by the
    /// caller as they are queued: slower, never lost.
    #[must_use]
    pub fn new(storage: Storage) -> Saver {
        let shared = Arc::new(Shared {
            storage,
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("wuzi-save".into())
            .spawn(move || worker.run())
            .map_err(|e| log::error!("no save thread ({e}); saving on the caller's thread"))
            .ok();
        Saver { shared, thread }
    }

    /// The storage written to.
    #[must_use]
    pub fn storage(&self) -> &Storage {
        &self.shared.storage
    }

    /// Queues the files in `batch` (name, bytes), in this order, replacing any older snapshot
    /// of the same files still waiting.
    pub fn queue(&self, batch: Vec<(&'static str, Vec<u8>)>) {
        {
            let mut q = lock(&self.shared.queue);
            if !q.retry.is_empty() {
                let mut retry = std::mem::take(&mut q.retry);
                retry.retain(|(n, _)| !q.pending.iter().any(|(p, _)| p == n));
                retry.append(&mut q.pending);
                q.pending = retry;
            }
            for (name, bytes) in batch {
                q.pending.retain(|(n, _)| *n != name);
                q.pending.push((name, bytes));
                q.queued += 1;
            }
        }
        if self.thread.is_some() {
            self.shared.changed.notify_all();
        } else {
            self.shared.write_pending();
        }
    }

    /// A ticket for everything queued so far.
    pub fn flush(&self) -> SaveTicket {
        SaveTicket {
            shared: Arc::clone(&self.shared),
            upto: lock(&self.shared.queue).queued,
        }
    }
}

/// The core's documents are the data folder's files, written by the save thread.
impl Store for Saver {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        self.storage().read(name)
    }

    fn set_aside(&self, name: &str) {
        self.storage().set_aside(name);
    }

    fn write(&self, batch: Vec<(&'static str, Vec<u8>)>) {
        self.queue(batch);
    }

    fn flush(&self) -> CoreTicket {
        let ticket = Saver::flush(self);
        CoreTicket::waiting(move || ticket.wait())
    }
}

impl Drop for Saver {
    /// Writes what is still queued, then ends the thread.
    fn drop(&mut self) {
        lock(&self.shared.queue).stop = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl SaveTicket {
    /// Blocks until the snapshots queued before the ticket was made are on disk.
    ///
    /// # Errors
    /// The error of the write that failed, if one of them could not be written.
    pub fn wait(self) -> io::Result<()> {
        let mut q = lock(&self.shared.queue);
        while q.done < self.upto {
            q = self
                .shared
                .changed
                .wait(q)
                .unwrap_or_else(PoisonError::into_inner);
        }
        match q
            .failures
            .iter()
            .find(|(from, to, _)| (*from..=*to).contains(&self.upto))
        {
            Some((_, _, e)) => Err(io::Error::other(e.clone())),
            None => Ok(()),
        }
    }
}

impl Shared {
    fn run(&self) {
        loop {
            {
                let mut q = lock(&self.queue);
                while q.pending.is_empty() && !q.stop {
                    q = self.changed.wait(q).unwrap_or_else(PoisonError::into_inner);
                }
                if q.pending.is_empty() {
                    return;
                }
            }
            self.write_pending();
        }
    }

    /// Writes one batch: everything pending now.
    fn write_pending(&self) {
        let (batch, from, upto) = {
            let mut q = lock(&self.queue);
            // The fallback without a thread may be called by two callers at once: one batch
            // at a time keeps the files in queue order.
            while q.writing {
                q = self.changed.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
            q.writing = true;
            (std::mem::take(&mut q.pending), q.done + 1, q.queued)
        };
        let mut failed = None;
        let mut retry = Vec::new();
        for (name, bytes) in batch {
            let path = self.storage.dir().join(name);
            if let Err(e) = write_atomic(&path, &bytes) {
                log::error!("saving {} failed: {e}", path.display());
                failed.get_or_insert_with(|| format!("{name}: {e}"));
                retry.push((name, bytes));
            }
        }
        let mut q = lock(&self.queue);
        // Newer snapshots queued meanwhile win over the ones to try again.
        retry.retain(|(n, _)| !q.pending.iter().any(|(p, _)| p == n));
        q.retry = retry;
        if let Some(e) = failed {
            if q.failures.len() == FAILURES_KEPT {
                q.failures.pop_front();
            }
            q.failures.push_back((from, upto, e));
        }
        q.done = upto;
        q.writing = false;
        drop(q);
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::TempDir;
    use std::fs;

    #[test]
    fn the_newest_snapshot_wins_and_a_flush_waits_for_it() {
        let dir = TempDir::new("saver");
        let saver = Saver::new(Storage::open(&dir.0).unwrap());
        for i in 0..200 {
            saver.queue(vec![
                ("a.json", format!("{i}").into_bytes()),
                ("b.json", format!("b{i}").into_bytes()),
            ]);
        }
        saver.flush().wait().unwrap();
        assert_eq!(fs::read(dir.0.join("a.json")).unwrap(), b"199");
        assert_eq!(fs::read(dir.0.join("b.json")).unwrap(), b"b199");
    }

    #[test]
    fn dropping_the_saver_writes_what_is_queued() {
        let dir = TempDir::new("saver-drop");
        let saver = Saver::new(Storage::open(&dir.0).unwrap());
        saver.queue(vec![("a.json", b"last".to_vec())]);
        drop(saver);
        assert_eq!(fs::read(dir.0.join("a.json")).unwrap(), b"last");
    }

    #[test]
    fn a_failed_write_is_tried_again_with_the_next_batch() {
        let dir = TempDir::new("saver-retry");
        let saver = Saver::new(Storage::open(&dir.0).unwrap());
        let blocker = dir.0.join("stats.json").join("inside");
        fs::create_dir_all(&blocker).unwrap();
        saver.queue(vec![
            ("stats.json", b"counted".to_vec()),
            ("game.json", b"finished".to_vec()),
        ]);
        assert!(saver.flush().wait().is_err());
        // One file that cannot be written does not hold back the others.
        assert_eq!(fs::read(dir.0.join("game.json")).unwrap(), b"finished");
        // The disk recovers; the next change takes the failed snapshot with it.
        fs::remove_dir_all(dir.0.join("stats.json")).unwrap();
        saver.queue(vec![("settings.json", b"s".to_vec())]);
        saver.flush().wait().unwrap();
        assert_eq!(fs::read(dir.0.join("stats.json")).unwrap(), b"counted");
        // A newer snapshot replaces the one waiting to be tried again.
        fs::remove_file(dir.0.join("stats.json")).unwrap();
        fs::create_dir_all(&blocker).unwrap();
        saver.queue(vec![("stats.json", b"old".to_vec())]);
        assert!(saver.flush().wait().is_err());
        fs::remove_dir_all(dir.0.join("stats.json")).unwrap();
        saver.queue(vec![("stats.json", b"new".to_vec())]);
        saver.flush().wait().unwrap();
        assert_eq!(fs::read(dir.0.join("stats.json")).unwrap(), b"new");
    }

    #[test]
    fn a_failed_write_is_reported_to_the_flush_that_covers_it() {
        let dir = TempDir::new("saver-fail");
        let saver = Saver::new(Storage::open(&dir.0).unwrap());
        // A non-empty folder where the file should go: the rename fails.
        fs::create_dir_all(dir.0.join("a.json").join("inside")).unwrap();
        saver.queue(vec![("a.json", b"x".to_vec())]);
        let err = saver.flush().wait().unwrap_err();
        assert!(err.to_string().contains("a.json"), "{err}");
        // A later successful write is reported as such (with the failed one, tried again).
        fs::remove_dir_all(dir.0.join("a.json")).unwrap();
        saver.queue(vec![("b.json", b"y".to_vec())]);
        saver.flush().wait().unwrap();
        // A flush with nothing queued has nothing to wait for.
        let empty = Saver::new(Storage::open(&dir.0).unwrap());
        empty.flush().wait().unwrap();
    }
}
