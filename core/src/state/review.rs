//! Game review in the app state, behind [`AppCore::review`]: the game handed to
//! [`crate::parts::review::Reviews`], which owns the running job and the finished review.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use wuzi::ai::review::MoveReview;

use crate::error::{Error, Result};
use crate::parts::review::{GameReview, ReviewJob};
use crate::settings::Mode;
use crate::state::AppCore;
use crate::store::GAME_FILE;
use crate::view::GameView;

/// Game review, borrowed from [`AppCore::review`]: a job begun for the game shown, run by
/// the host, and its review kept with the game.
#[derive(Debug)]
pub struct ReviewHandle<'a> {
    core: &'a mut AppCore,
}

impl AppCore {
    /// Game review: begin, finish, abandon or cancel the review job, and the review kept.
    pub fn review(&mut self) -> ReviewHandle<'_> {
        ReviewHandle { core: self }
    }
}

impl ReviewHandle<'_> {
    /// Starts reviewing game `game_id` as it stands (`move_number` moves), finished or not; the
    /// running analysis stops, as the review needs the background engine. Reviewing a game in
    /// progress against the computer marks it analysed.
    ///
    /// # Errors
    /// `stale` for another position, `badArgument` for a game without moves, `busy` while a
    /// review runs. Nothing changes then.
    pub fn begin(&mut self, game_id: u64, move_number: usize) -> Result<ReviewJob> {
        self.core.session.check_position(game_id, move_number)?;
        if self.core.session.game.moves().is_empty() {
            return Err(Error::BadArgument("there is no move to review".into()));
        }
        if self.core.reviews.is_running() {
            return Err(Error::Busy);
        }
        // Before anything changes: a refused request leaves the state as it was. Replayed from
        // the game's start, so a set-up position is reviewed from its own stones.
        let game = self
            .core
            .session
            .replayed(self.core.session.game.moves().len())?;
        let job = self.core.reviews.begin(game, game_id)?;
        self.core.analysis.cancel_job();
        // A game still being played against the computer can be reviewed too (a loaded record,
        // say), but the review shows the engine's judgement as analysis does: the game then
        // counts as analysed.
        if self.core.session.setup.mode == Mode::Computer
            && !self.core.clock.over(&self.core.session)
            && !self.core.session.setup.analysed
        {
            self.core.session.setup.analysed = true;
            self.core.save(&[GAME_FILE]);
        }
        Ok(job)
    }

    /// Keeps the finished review of `job` with the game (and queues a save), if it was not
    /// cancelled and the game is still the one reviewed.
    ///
    /// # Errors
    /// `cancelled` or `stale`; nothing is kept then.
    pub fn finish(&mut self, job: &ReviewJob, found: &[MoveReview]) -> Result<GameView> {
        self.core.reviews.end(job)?;
        self.core.reviews.keep(
            job,
            found,
            self.core.session.setup.game_id,
            &self.core.session.game,
        )?;
        self.core.save(&[GAME_FILE]);
        Ok(self.core.view())
    }

    /// Frees the review slot if it still holds this job.
    pub fn abandon(&mut self, job_cancel: &Arc<AtomicBool>) {
        self.core.reviews.abandon(job_cancel);
    }

    /// Stops the running review; its answer is `cancelled`.
    pub fn cancel(&mut self) {
        self.core.reviews.cancel();
    }
}

impl<'a> ReviewHandle<'a> {
    /// The review of the game as it stands, if there is one.
    #[must_use]
    pub fn current(self) -> Option<&'a GameReview> {
        let core: &'a AppCore = self.core;
        core.reviews.of(&core.session.game)
    }
}
