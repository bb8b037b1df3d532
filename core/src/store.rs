//! Where the core keeps its documents: the game, the settings and the statistics, each a small
//! JSON document that a host stores whole and replaces atomically ([`Store`]).
//!
//! The core decides what a document holds and what a damaged one means ([`load`]: a document
//! that cannot be read, parsed or accepted is set aside and that part starts afresh); the host
//! decides where the bytes go and when they are written: the Tauri app writes files from a save
//! thread, the browser its own storage. [`MemoryStore`] keeps them in memory, for tests.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use serde::de::DeserializeOwned;

/// The current game and who plays it.
pub const GAME_FILE: &str = "game.json";
/// The player's settings.
pub const SETTINGS_FILE: &str = "settings.json";
/// Wins, losses and draws per level.
pub const STATS_FILE: &str = "stats.json";

/// A host's storage for the core's documents.
///
/// A written document replaces the old one atomically: a crash or a full disk leaves either
/// the old or the new document, never a mix.
pub trait Store: Send + fmt::Debug {
    /// The document `name`, or `None` if there is none yet.
    ///
    /// # Errors
    /// If it is there but cannot be read; the core then treats it as damaged.
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>>;

    /// Keeps the damaged document `name` aside (for inspection) so that the next start does
    /// not find it again. Never over a document set aside earlier.
    fn set_aside(&self, name: &str);

    /// Writes the documents of `batch` (name, bytes) in this order, each replacing its old
    /// version. The host may write later (a newer snapshot of a document still waiting then
    /// replaces the older one) but in the order of the calls; a failed write is the host's
    /// to log and retry, and must be reported by the next [`Store::flush`].
    fn write(&self, batch: Vec<(&'static str, Vec<u8>)>);

    /// A ticket that waits until everything written so far is stored.
    fn flush(&self) -> SaveTicket;
}

/// Waits until the documents written before it are stored ([`Store::flush`]).
#[must_use = "a ticket does nothing until waited for"]
pub struct SaveTicket(Option<Box<dyn FnOnce() -> io::Result<()> + Send>>);

impl SaveTicket {
    /// A ticket with nothing to wait for: the store writes as it is told.
    pub fn done() -> SaveTicket {
        SaveTicket(None)
    }

    /// A ticket that waits by calling `wait`.
    pub fn waiting(wait: impl FnOnce() -> io::Result<()> + Send + 'static) -> SaveTicket {
        SaveTicket(Some(Box::new(wait)))
    }

    /// Blocks until the documents are stored.
    ///
    /// # Errors
    /// The error of a write that failed.
    pub fn wait(self) -> io::Result<()> {
        self.0.map_or(Ok(()), |wait| wait())
    }
}

impl fmt::Debug for SaveTicket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "SaveTicket(waiting)"
        } else {
            "SaveTicket(done)"
        })
    }
}

/// What [`load`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Loaded<T> {
    /// No document yet: a first start.
    Missing,
    /// The document was read and accepted.
    Found(T),
    /// The document was unreadable or rejected; it was set aside.
    Damaged,
}

/// Reads `name` as JSON of type `T` and passes it through `accept`, which may still reject it
/// (for example a game whose moves do not replay). A document that cannot be read, parsed or
/// accepted is set aside ([`Store::set_aside`]).
pub fn load<T, U>(store: &dyn Store, name: &str, accept: impl FnOnce(T) -> Option<U>) -> Loaded<U>
where
    T: DeserializeOwned,
{
    let bytes = match store.read(name) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Loaded::Missing,
        Err(e) => {
            log::warn!("{name} cannot be read ({e})");
            store.set_aside(name);
            return Loaded::Damaged;
        }
    };
    match serde_json::from_slice(&bytes).ok().and_then(accept) {
        Some(value) => Loaded::Found(value),
        None => {
            store.set_aside(name);
            Loaded::Damaged
        }
    }
}

/// The name a damaged document `name` is kept under: `<name>.corrupt`, then `.corrupt.1`, ….
#[must_use]
pub fn aside_name(name: &str, i: usize) -> String {
    if i == 0 {
        format!("{name}.corrupt")
    } else {
        format!("{name}.corrupt.{i}")
    }
}

/// Documents in memory, written at once; clones share them (a test keeps one to look at what
/// the core wrote, or to damage a document before the next start).
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    docs: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn docs(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Vec<u8>>> {
        self.docs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The document `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Vec<u8>> {
        self.docs().get(name).cloned()
    }

    /// Puts `bytes` as the document `name`.
    pub fn put(&self, name: &str, bytes: impl AsRef<[u8]>) {
        self.docs()
            .insert(name.to_string(), bytes.as_ref().to_vec());
    }

    /// The names of the documents, sorted.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.docs().keys().cloned().collect()
    }
}

impl Store for MemoryStore {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.get(name))
    }

    fn set_aside(&self, name: &str) {
        let mut docs = self.docs();
        if let Some(bytes) = docs.remove(name) {
            let aside = (0..)
                .map(|i| aside_name(name, i))
                .find(|n| !docs.contains_key(n))
                .unwrap_or_default();
            docs.insert(aside, bytes);
        }
    }

    fn write(&self, batch: Vec<(&'static str, Vec<u8>)>) {
        let mut docs = self.docs();
        for (name, bytes) in batch {
            docs.insert(name.to_string(), bytes);
        }
    }

    fn flush(&self) -> SaveTicket {
        SaveTicket::done()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Doc {
        n: u32,
    }

    fn write(store: &dyn Store, name: &'static str, doc: &Doc) {
        store.write(vec![(name, serde_json::to_vec(doc).unwrap())]);
    }

    #[test]
    fn a_document_round_trips() {
        let store = MemoryStore::new();
        assert_eq!(load::<Doc, _>(&store, "a.json", Some), Loaded::Missing);
        write(&store, "a.json", &Doc { n: 7 });
        assert_eq!(load(&store, "a.json", Some), Loaded::Found(Doc { n: 7 }));
        store.flush().wait().unwrap();
    }

    #[test]
    fn a_damaged_or_rejected_document_is_set_aside_never_over_an_earlier_one() {
        let store = MemoryStore::new();
        store.put("a.json", "{\"n\": 7");
        assert_eq!(load::<Doc, _>(&store, "a.json", Some), Loaded::Damaged);
        write(&store, "a.json", &Doc { n: 99 });
        let small = |d: Doc| (d.n < 10).then_some(d);
        assert_eq!(load(&store, "a.json", small), Loaded::Damaged);
        assert_eq!(store.names(), ["a.json.corrupt", "a.json.corrupt.1"]);
        assert_eq!(store.get("a.json.corrupt").unwrap(), b"{\"n\": 7");
        // After the damage a later start sees a first start, not the damage again.
        assert_eq!(load::<Doc, _>(&store, "a.json", Some), Loaded::Missing);
    }

    #[derive(Debug)]
    struct Unreadable(MemoryStore);

    impl Store for Unreadable {
        fn read(&self, _: &str) -> io::Result<Option<Vec<u8>>> {
            Err(io::Error::other("a bad sector"))
        }
        fn set_aside(&self, name: &str) {
            self.0.put(name, "set aside");
        }
        fn write(&self, _: Vec<(&'static str, Vec<u8>)>) {}
        fn flush(&self) -> SaveTicket {
            SaveTicket::waiting(|| Err(io::Error::other("no disk")))
        }
    }

    #[test]
    fn an_unreadable_document_counts_as_damage() {
        let store = Unreadable(MemoryStore::new());
        assert_eq!(load::<Doc, _>(&store, "a.json", Some), Loaded::Damaged);
        assert_eq!(store.0.names(), ["a.json"]);
        assert!(store.flush().wait().is_err());
    }
}
