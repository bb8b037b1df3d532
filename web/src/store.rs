//! The core's documents in the browser: the page reads them from its storage before the worker
//! starts and hands them over; every write the core makes is kept here and passed on to the
//! page (`web-host.js`), which stores it (`localStorage`, one key per document) in the order it
//! was made. A worker cannot reach `localStorage` itself.

use std::fmt;
use std::io;

use wuzi_core::store::{MemoryStore, SaveTicket, Store};

/// Passes a document on to the page: its name and text, or `None` to remove it.
pub type Forward = Box<dyn Fn(&str, Option<&str>) + Send>;

/// The documents the page gave, and the page to pass the writes on to.
pub struct WebStore {
    docs: MemoryStore,
    forward: Forward,
}

impl fmt::Debug for WebStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebStore")
            .field("docs", &self.docs.names())
            .finish_non_exhaustive()
    }
}

impl WebStore {
    /// The store of the documents `docs` (name, text) found in the page's storage.
    #[must_use]
    pub fn new(docs: impl IntoIterator<Item = (String, String)>, forward: Forward) -> WebStore {
        let store = MemoryStore::new();
        for (name, text) in docs {
            store.put(&name, text);
        }
        WebStore {
            docs: store,
            forward,
        }
    }
}

impl Store for WebStore {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        self.docs.read(name)
    }

    fn set_aside(&self, name: &str) {
        let before = self.docs.names();
        self.docs.set_aside(name);
        for aside in self.docs.names() {
            if !before.contains(&aside) {
                if let Some(bytes) = self.docs.get(&aside) {
                    (self.forward)(&aside, Some(&String::from_utf8_lossy(&bytes)));
                }
            }
        }
        (self.forward)(name, None);
    }

    fn write(&self, batch: Vec<(&'static str, Vec<u8>)>) {
        for (name, bytes) in &batch {
            (self.forward)(name, Some(&String::from_utf8_lossy(bytes)));
        }
        self.docs.write(batch);
    }

    /// The page stores each document as its message arrives, before the reply that follows.
    fn flush(&self) -> SaveTicket {
        SaveTicket::done()
    }
}
