//! What a change writes: the game, settings and statistics snapshots queued for the
//! [`Saver`], and a finished game counted once.

use crate::error::{Error, Result};
use crate::saver::{SaveTicket, Saver};
use crate::settings::{HumanResult, Mode};
use crate::state::{AppCore, SavedSession};
use crate::storage::{GAME_FILE, SETTINGS_FILE, STATS_FILE};

impl AppCore {
    /// Queues everything for writing and returns the ticket that waits until it is on disk.
    ///
    /// # Errors
    /// [`Error::Io`] if the app has no data folder and saves nothing.
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
        self.saver.as_ref().map(Saver::flush)
    }

    pub(super) fn after_move(&mut self) {
        // The analysed position is gone, and a review of other moves with it.
        self.analysis.cancel_job();
        self.reviews.position_changed(&self.game);
        self.sync_clock();
        // On the board, or on time.
        let winner = match (self.game.result(), self.clock.flag()) {
            (Some(result), _) => Some(result.winner),
            (None, Some(loser)) => Some(Some(loser.other())),
            (None, None) => None,
        };
        if let Some(winner) = winner {
            if self.session.mode == Mode::Computer && !self.session.stats_counted {
                let outcome = match winner {
                    None => HumanResult::Draw,
                    Some(c) if c == self.session.human_color => HumanResult::Win,
                    Some(_) => HumanResult::Loss,
                };
                self.session.stats_counted = true;
                let uid = self.session.game_uid;
                if self
                    .stats
                    .record_game(uid, self.session.level, outcome, self.session.analysed)
                {
                    // Stats first: a crash between the two writes leaves the count and an
                    // older game, whose replayed end `record_game` recognises; the other
                    // order would leave a game marked counted that the stats never counted.
                    self.save(&[STATS_FILE, GAME_FILE]);
                    return;
                }
            }
        }
        self.save_game();
    }

    pub(super) fn save_game(&self) {
        self.save(&[GAME_FILE]);
    }

    pub(super) fn save_settings(&self) {
        self.save(&[SETTINGS_FILE]);
    }

    /// Queues a snapshot of `files` for the save thread, written in this order. A failed write
    /// must not undo the move the player just made: the writer logs it, the next change of the
    /// file tries again, and `save_now` reports its own failure.
    pub(super) fn save(&self, files: &[&'static str]) {
        let Some(saver) = &self.saver else { return };
        let batch = files
            .iter()
            .filter_map(|&name| {
                let json = match name {
                    SETTINGS_FILE => serde_json::to_vec_pretty(&self.settings),
                    STATS_FILE => serde_json::to_vec_pretty(&self.stats.to_file()),
                    GAME_FILE => serde_json::to_vec_pretty(&SavedSession::new(
                        &self.game,
                        &self.session,
                        self.review(),
                        self.clock.to_saved(self.time.now()),
                    )),
                    _ => return None,
                };
                json.map_err(|e| log::error!("cannot write {name}: {e}"))
                    .ok()
                    .map(|bytes| (name, bytes))
            })
            .collect();
        saver.queue(batch);
    }
}
