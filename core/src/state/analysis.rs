//! Analysis mode in the app state: the position on screen handed to [`Analysis`]
//! (`parts/analysis.rs`), which owns the running job.

use crate::error::{Error, Result};
use crate::parts::analysis::AnalysisJob;
use crate::state::AppCore;

impl AppCore {
    /// Starts analysing the position after the first `move_number` moves of game `game_id`
    /// (the current position, or an earlier one shown in review); the analysis before it is
    /// cancelled.
    ///
    /// # Errors
    /// `stale` for another game or more moves than the game has, `gameOver` if that position
    /// is finished (there is nothing to analyse). Nothing changes then.
    pub fn begin_analysis(&mut self, game_id: u64, move_number: usize) -> Result<AnalysisJob> {
        if game_id != self.session.game_id || move_number > self.game.moves().len() {
            return Err(Error::Stale);
        }
        // Replayed from the game's start (a set-up position's stones included), so the job
        // carries no redo list and an earlier position (review) is built like the current one.
        let game = self.replayed(move_number)?;
        if game.result().is_some() {
            return Err(Error::GameOver);
        }
        Ok(self.analysis.begin(game, game_id, move_number))
    }

    /// Whether `job`'s rounds are still wanted: it is the latest analysis and its position has
    /// not changed.
    #[must_use]
    pub fn analysis_current(&self, job: &AnalysisJob) -> bool {
        self.analysis.is_current(job)
    }

    /// Turns analysis off: the running job stops, and moves played from now on no longer
    /// count as analysed.
    pub fn stop_analysis(&mut self) {
        self.analysis.stop();
    }

    /// Whether analysis is on (started and not stopped since the last new game).
    #[must_use]
    pub const fn analysis_on(&self) -> bool {
        self.analysis.is_on()
    }
}
