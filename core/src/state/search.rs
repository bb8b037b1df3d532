//! Searches off the lock, behind [`AppCore::search`]: a [`SearchJob`] is handed out, run on
//! the blocking pool, and its answer accepted only for the position it was asked for (the
//! running slot is [`crate::parts::search::Searches`]).

use std::hash::BuildHasher;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use wuzi::{Level, SearchResult};

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::search::{OpeningTask, SearchJob, SearchKind};
use crate::state::{AppCore, HINT_LEVEL};
use crate::view::{GameView, Hint};

/// The computer's and the hint's searches, borrowed from [`AppCore::search`]: a job is begun
/// for the position shown, run by the host without the lock, and its answer finished here
/// only if it still applies (the computer's Swap / Swap2 actions: `swap.rs`).
#[derive(Debug)]
pub struct SearchHandle<'a> {
    pub(super) core: &'a mut AppCore,
}

impl AppCore {
    /// The searches: the computer's turn and the hint, begun here, run by the host, finished
    /// here.
    pub fn search(&mut self) -> SearchHandle<'_> {
        SearchHandle { core: self }
    }
}

impl SearchHandle<'_> {
    /// Registers a search for the position `(game_id, move_number)` and returns it to be run
    /// without the lock.
    ///
    /// # Errors
    /// `stale`, `gameOver`, `notYourTurn` (a move asked while the human is to move), `busy`
    /// while another search runs.
    pub fn begin(
        &mut self,
        kind: SearchKind,
        game_id: u64,
        move_number: usize,
    ) -> Result<SearchJob> {
        self.core.check_live(game_id, move_number)?;
        if kind == SearchKind::Move
            && !self
                .core
                .session
                .setup
                .computer_to_move(&self.core.session.game)
        {
            return Err(Error::NotYourTurn);
        }
        if kind == SearchKind::Hint
            && self
                .core
                .session
                .swap_in_progress()
                .is_some_and(|s| !s.phase.choices().is_empty())
        {
            // A hint names a stone, and a choice is due.
            return Err(Error::ChoiceDue);
        }
        let level = match kind {
            SearchKind::Move => self.core.session.setup.level,
            SearchKind::Hint => HINT_LEVEL,
        };
        let cancel = self.core.searches.begin()?;
        let opening = match kind {
            SearchKind::Move => self.core.session.opening_task(),
            SearchKind::Hint => None,
        };
        Ok(SearchJob {
            game: self.core.session.game.clone(),
            level,
            limits: match (kind, opening) {
                // Every level decides the Swap / Swap2 opening with Master's budget (`swap.rs`),
                // within the time its clock leaves it.
                (SearchKind::Move, Some(task)) if task != OpeningTask::Stone => self
                    .core
                    .clock
                    .limits_on_the_clock(&self.core.session, Level::Master.default_limits(), false),
                (SearchKind::Move, _) => self.core.clock.search_limits(&self.core.session, level),
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
    pub(super) fn end(&mut self, job: &SearchJob) -> Result<()> {
        self.core.searches.end(job)?;
        self.core
            .session
            .check_position(job.game_id, job.move_number)
    }

    /// Frees the running slot if it still holds this search (it may already be cancelled and
    /// replaced); the command layer calls it when a search failed to return at all.
    pub fn abandon(&mut self, job_cancel: &Arc<AtomicBool>) {
        self.core.searches.abandon(job_cancel);
    }

    /// Plays the computer's answer, if it is still wanted.
    ///
    /// # Errors
    /// `cancelled` if the search was cancelled, `stale` if the position changed meanwhile;
    /// nothing is played then.
    pub fn finish_move(&mut self, job: &SearchJob, result: &SearchResult) -> Result<GameView> {
        self.end(job)?;
        // Its time ran out while it thought: the flag falls, and the move comes too late.
        if self.core.clock().check_flag() {
            return Err(Error::GameOver);
        }
        // The engine answers `None` only when no legal move is left, which the referee already
        // scores as a finished game.
        let best = result.best.ok_or(Error::GameOver)?;
        let size = self.core.session.game.size();
        self.core
            .change_position(Change::Played { by_human: false }, |core| {
                core.session
                    .game
                    .try_play(best)
                    .map(drop)
                    .map_err(|e| Error::from_play(e, size))
            })?;
        Ok(self.core.view())
    }

    /// Reports the hint, if it is still for the current position.
    ///
    /// # Errors
    /// `cancelled` or `stale` as for [`SearchHandle::finish_move`].
    pub fn finish_hint(&mut self, job: &SearchJob, result: &SearchResult) -> Result<Hint> {
        self.end(job)?;
        let size = self.core.session.game.size();
        Ok(Hint {
            point: result.best.map(|p| p.rif(size).to_string()),
            verdict: result.verdict.into(),
            score: result.score,
            game_id: job.game_id,
            move_number: job.move_number,
        })
    }

    /// Stops the running search, if any; its answer will be rejected as `cancelled`.
    pub fn cancel(&mut self) {
        self.core.searches.cancel();
    }
}
