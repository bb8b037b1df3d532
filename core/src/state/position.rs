//! The one path every change of the position takes (issue 25 §2): a move, undo, redo, a new
//! game, an imported record, a set-up position, a choice of the opening phase or a fallen
//! flag. [`AppCore::change_position`] runs the change and then every hook in one place: the
//! search for the old position is cancelled, the analysis job too (or analysis turned off),
//! a review that no longer fits is dropped, the clock banks, records or gives back the moves'
//! time and is synced, a finished game is counted once, and the game is saved. A mutator only
//! says what kind of change it made; it cannot leave a hook out.
//!
//! In debug builds [`AppCore::view`] checks that the position it shows is the one the hooks
//! last ran for, so a change made past this path fails every test that looks at the game.

use crate::error::Result;
use crate::parts::change::{Change, Position};
use crate::settings::{HumanResult, Mode};
use crate::state::AppCore;
use crate::store::{GAME_FILE, STATS_FILE};

impl AppCore {
    /// The current position as the hooks see it.
    pub(crate) fn position(&self) -> Position {
        (
            self.session.game_id,
            self.game.moves().len(),
            self.game.moves().last().copied(),
            self.game.to_move(),
            self.session.swap,
        )
    }

    /// Runs `edit`, a change of the position of the kind `change`, then every hook for it. If
    /// `edit` fails it must have changed nothing, and no hook runs.
    ///
    /// # Errors
    /// As `edit`'s.
    pub(crate) fn change_position<T>(
        &mut self,
        change: Change,
        edit: impl FnOnce(&mut AppCore) -> Result<T>,
    ) -> Result<T> {
        // The thinking under way belongs to the side whose time ran before the change.
        let (before, side, now) = (self.game.moves().len(), self.clock_side(), self.time.now());
        let out = edit(self)?;
        let after = self.game.moves().len();
        // Whatever was searched, analysed or reviewed was for the position before.
        self.searches.cancel();
        match change {
            Change::Replaced { analysis_off: true } => self.analysis.stop(),
            Change::Decided => {}
            _ => self.analysis.cancel_job(),
        }
        match change {
            Change::Replaced { .. } => self.reviews.clear(),
            Change::Decided => {}
            _ => self.reviews.position_changed(&self.game),
        }
        match change {
            // An opening stone's time is its placer's (`GameClock` owners), whatever its
            // colour; one search that placed several gives its time to the first.
            Change::Played { .. } => {
                for _ in before..after {
                    self.clock.record_move(now);
                }
            }
            // Undo takes the moves back, not the time, and redo gives it back to them.
            Change::Undone => {
                self.clock.bank(side, now);
                for _ in after..before {
                    self.clock.take_back();
                }
            }
            Change::Redone => {
                self.clock.bank(side, now);
                for _ in before..after {
                    self.clock.replay();
                }
            }
            // A new game brings its own clock; a choice banks its chooser's time itself.
            Change::Replaced { .. } | Change::Decided | Change::FlagFell => {}
        }
        if matches!(change, Change::Played { by_human: true } | Change::Redone) {
            self.mark_analysed();
        }
        self.sync_clock();
        self.hooked = self.position();
        self.count_and_save();
        Ok(out)
    }

    /// Saves the game, and counts a game against the computer that just ended (on the board or
    /// on time) in the statistics, once.
    fn count_and_save(&mut self) {
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
}
