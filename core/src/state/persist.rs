//! What a change writes: the game, settings and statistics snapshots handed to the host's
//! [`Store`] (a change of the position saves through `position.rs`).

use crate::error::{Error, Result};
use crate::state::{AppCore, SavedSession};
use crate::store::{SaveTicket, Store, GAME_FILE, SETTINGS_FILE, STATS_FILE};

impl AppCore {
    /// Queues everything for writing and returns the ticket that waits until it is stored.
    ///
    /// # Errors
    /// [`Error::Io`] if the app has no storage and saves nothing.
    pub fn save_now(&self) -> Result<SaveTicket> {
        self.save(&[SETTINGS_FILE, STATS_FILE, GAME_FILE]);
        self.flush().ok_or_else(|| {
            Error::Io(std::io::Error::other(
                "saving is off: the app has no data folder",
            ))
        })
    }

    /// A ticket for the snapshots already queued (the app's exit waits for it); `None` when
    /// nothing is saved.
    #[must_use]
    pub fn flush(&self) -> Option<SaveTicket> {
        self.store.as_deref().map(Store::flush)
    }

    /// Hands a snapshot of `files` to the store, written in this order. A failed write must not
    /// undo the move the player just made: the store logs it, the next change of the file tries
    /// again, and `save_now` reports its own failure.
    pub(super) fn save(&self, files: &[&'static str]) {
        let Some(store) = &self.store else { return };
        let batch = files
            .iter()
            .filter_map(|&name| {
                let json = match name {
                    SETTINGS_FILE => serde_json::to_vec_pretty(&self.settings),
                    STATS_FILE => serde_json::to_vec_pretty(&self.stats.to_file()),
                    GAME_FILE => serde_json::to_vec_pretty(&SavedSession::new(
                        &self.session,
                        self.reviews.of(&self.session.game),
                        self.clock.to_saved(),
                    )),
                    _ => return None,
                };
                json.map_err(|e| log::error!("cannot write {name}: {e}"))
                    .ok()
                    .map(|bytes| (name, bytes))
            })
            .collect();
        store.write(batch);
    }
}
