//! Analysis mode in the app state, behind [`AppCore::analysis`]: the position on screen handed
//! to [`crate::parts::analysis::Analysis`] (`parts/analysis.rs`), which owns the running job.

use crate::error::{Error, Result};
use crate::parts::analysis::AnalysisJob;
use crate::state::AppCore;

/// Analysis mode, borrowed from [`AppCore::analysis`]: a job begun for a position shown, asked
/// between its rounds whether it is still wanted, and analysis turned off.
#[derive(Debug)]
pub struct AnalysisHandle<'a> {
    core: &'a mut AppCore,
}

impl AppCore {
    /// Analysis mode: begin a job, ask whether it is current, stop.
    pub fn analysis(&mut self) -> AnalysisHandle<'_> {
        AnalysisHandle { core: self }
    }
}

impl AnalysisHandle<'_> {
    /// Starts analysing the position after the first `move_number` moves of game `game_id`
    /// (the current position, or an earlier one shown in review); the analysis before it is
    /// cancelled.
    ///
    /// # Errors
    /// `stale` for another game or more moves than the game has, `gameOver` if that position
    /// is finished (there is nothing to analyse). Nothing changes then.
    pub fn begin(&mut self, game_id: u64, move_number: usize) -> Result<AnalysisJob> {
        let core = &mut *self.core;
        if game_id != core.session.setup.game_id || move_number > core.session.game.moves().len() {
            return Err(Error::Stale);
        }
        // Replayed from the game's start (a set-up position's stones included), so the job
        // carries no redo list and an earlier position (review) is built like the current one.
        let game = core.session.replayed(move_number)?;
        if game.result().is_some() {
            return Err(Error::GameOver);
        }
        Ok(core.analysis.begin(game, game_id, move_number))
    }

    /// Whether `job`'s rounds are still wanted: it is the latest analysis and its position has
    /// not changed.
    #[must_use]
    pub fn is_current(&self, job: &AnalysisJob) -> bool {
        self.core.analysis.is_current(job)
    }

    /// Turns analysis off: the running job stops, and moves played from now on no longer
    /// count as analysed.
    pub fn stop(&mut self) {
        self.core.analysis.stop();
    }

    /// Whether analysis is on (started and not stopped since the last new game).
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.core.analysis.is_on()
    }
}
