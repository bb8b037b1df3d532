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
use crate::parts::change::Change;
use crate::state::AppCore;
use crate::store::{GAME_FILE, STATS_FILE};

impl AppCore {
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
        let before = self.clock.before_change(&self.session);
        let out = edit(self)?;
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
            _ => self.reviews.position_changed(&self.session.game),
        }
        if matches!(change, Change::Played { by_human: true } | Change::Redone) {
            self.session.mark_analysed(self.analysis.is_on());
        }
        // The clock banks, records or gives back the moves' time, and runs or stops.
        self.clock.after_change(change, before, &self.session);
        self.hooked = self.session.position();
        // A game against the computer that just ended (on the board or on time) is counted in
        // the statistics, once. Stats first: a crash between the two writes leaves the count
        // and an older game, whose replayed end `record_game` recognises; the other order
        // would leave a game marked counted that the stats never counted.
        let counted = self.session.to_count(self.clock.flag());
        match counted {
            Some((uid, level, outcome, analysed))
                if self.stats.record_game(uid, level, outcome, analysed) =>
            {
                self.save(&[STATS_FILE, GAME_FILE]);
            }
            _ => self.save(&[GAME_FILE]),
        }
        Ok(out)
    }
}
