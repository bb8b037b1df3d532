//! Searches off the lock: a [`SearchJob`] is handed out, run on the blocking pool, and its
//! answer accepted only for the position it was asked for (the running slot is
//! [`crate::parts::search::Searches`]).

use std::hash::BuildHasher;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use wuzi::{Level, SearchResult};

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::search::{OpeningTask, SearchJob, SearchKind};
use crate::state::{AppCore, HINT_LEVEL};
use crate::view::{GameView, Hint};

impl AppCore {
    /// Registers a search for the position `(game_id, move_number)` and returns it to be run
    /// without the lock.
    ///
    /// # Errors
    /// `stale`, `gameOver`, `notYourTurn` (a move asked while the human is to move), `busy`
    /// while another search runs.
    pub fn begin_search(
        &mut self,
        kind: SearchKind,
        game_id: u64,
        move_number: usize,
    ) -> Result<SearchJob> {
        self.check_position(game_id, move_number)?;
        self.check_flag();
        if self.over() {
            return Err(Error::GameOver);
        }
        if kind == SearchKind::Move && !self.session.computer_to_move(&self.game) {
            return Err(Error::NotYourTurn);
        }
        if kind == SearchKind::Hint
            && self
                .swap_in_progress()
                .is_some_and(|s| !s.phase.choices().is_empty())
        {
            // A hint names a stone, and a choice is due.
            return Err(Error::ChoiceDue);
        }
        let level = match kind {
            SearchKind::Move => self.session.level,
            SearchKind::Hint => HINT_LEVEL,
        };
        let cancel = self.searches.begin()?;
        let opening = match kind {
            SearchKind::Move => self.opening_task(),
            SearchKind::Hint => None,
        };
        Ok(SearchJob {
            game: self.game.clone(),
            level,
            limits: match (kind, opening) {
                // Every level decides the Swap / Swap2 opening with Master's budget (`swap.rs`),
                // within the time its clock leaves it.
                (SearchKind::Move, Some(task)) if task != OpeningTask::Stone => {
                    self.limits_on_the_clock(Level::Master.default_limits(), false)
                }
                (SearchKind::Move, _) => self.search_limits(level),
                (SearchKind::Hint, _) => level.default_limits(),
            },
            // Lower levels play with randomness; a fresh seed per search keeps games varied.
            seed: std::collections::hash_map::RandomState::new().hash_one((game_id, move_number)),
            cancel,
            game_id,
            move_number,
            opening,
        })
    }

    /// Takes the finished `job` off the running slot; says whether its answer still applies.
    pub(super) fn end_search(&mut self, job: &SearchJob) -> Result<()> {
        self.searches.end(job)?;
        self.check_position(job.game_id, job.move_number)
    }

    /// Frees the running slot if it still holds this search (it may already be cancelled and
    /// replaced); the command layer calls it when a search failed to return at all.
    pub fn abandon_search(&mut self, job_cancel: &Arc<AtomicBool>) {
        self.searches.abandon(job_cancel);
    }

    /// Plays the computer's answer, if it is still wanted.
    ///
    /// # Errors
    /// `cancelled` if the search was cancelled, `stale` if the position changed meanwhile;
    /// nothing is played then.
    pub fn finish_move(&mut self, job: &SearchJob, result: &SearchResult) -> Result<GameView> {
        self.end_search(job)?;
        // Its time ran out while it thought: the flag falls, and the move comes too late.
        if self.check_flag() {
            return Err(Error::GameOver);
        }
        // The engine answers `None` only when no legal move is left, which the referee already
        // scores as a finished game.
        let best = result.best.ok_or(Error::GameOver)?;
        let size = self.game.size();
        self.change_position(Change::Played { by_human: false }, |core| {
            core.game
                .try_play(best)
                .map(drop)
                .map_err(|e| Error::from_play(e, size))
        })?;
        Ok(self.view())
    }

    /// Reports the hint, if it is still for the current position.
    ///
    /// # Errors
    /// `cancelled` or `stale` as for [`AppCore::finish_move`].
    pub fn finish_hint(&mut self, job: &SearchJob, result: &SearchResult) -> Result<Hint> {
        self.end_search(job)?;
        let size = self.game.size();
        Ok(Hint {
            point: result.best.map(|p| p.rif(size).to_string()),
            verdict: result.verdict.into(),
            score: result.score,
            game_id: job.game_id,
            move_number: job.move_number,
        })
    }

    /// Stops the running search, if any; its answer will be rejected as `cancelled`.
    pub fn cancel_search(&mut self) {
        self.searches.cancel();
    }
}
