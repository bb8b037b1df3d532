//! Game review in the app state: the game handed to [`crate::parts::review::Reviews`], which
//! owns the running job and the finished review.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use wuzi::ai::review::MoveReview;

use crate::error::{Error, Result};
use crate::parts::review::{GameReview, ReviewJob};
use crate::settings::Mode;
use crate::state::AppCore;
use crate::view::GameView;

impl AppCore {
    /// Starts reviewing game `game_id` as it stands (`move_number` moves), finished or not; the
    /// running analysis stops, as the review needs the background engine. Reviewing a game in
    /// progress against the computer marks it analysed.
    ///
    /// # Errors
    /// `stale` for another position, `badArgument` for a game without moves, `busy` while a
    /// review runs. Nothing changes then.
    pub fn begin_review(&mut self, game_id: u64, move_number: usize) -> Result<ReviewJob> {
        self.check_position(game_id, move_number)?;
        if self.game.moves().is_empty() {
            return Err(Error::BadArgument("there is no move to review".into()));
        }
        if self.reviews.is_running() {
            return Err(Error::Busy);
        }
        // Before anything changes: a refused request leaves the state as it was. Replayed from
        // the game's start, so a set-up position is reviewed from its own stones.
        let game = self.replayed(self.game.moves().len())?;
        let job = self.reviews.begin(game, game_id)?;
        self.analysis.cancel_job();
        // A game still being played against the computer can be reviewed too (a loaded record,
        // say), but the review shows the engine's judgement as analysis does: the game then
        // counts as analysed.
        if self.session.mode == Mode::Computer && !self.over() && !self.session.analysed {
            self.session.analysed = true;
            self.save_game();
        }
        Ok(job)
    }

    /// Keeps the finished review of `job` with the game (and queues a save), if it was not
    /// cancelled and the game is still the one reviewed.
    ///
    /// # Errors
    /// `cancelled` or `stale`; nothing is kept then.
    pub fn finish_review(&mut self, job: &ReviewJob, found: &[MoveReview]) -> Result<GameView> {
        self.reviews.end(job)?;
        self.reviews
            .keep(job, found, self.session.game_id, &self.game)?;
        self.save_game();
        Ok(self.view())
    }

    /// Frees the review slot if it still holds this job.
    pub fn abandon_review(&mut self, job_cancel: &Arc<AtomicBool>) {
        self.reviews.abandon(job_cancel);
    }

    /// Stops the running review; its answer is `cancelled`.
    pub fn cancel_review(&mut self) {
        self.reviews.cancel();
    }

    /// The review of the game as it stands, if there is one.
    #[must_use]
    pub fn review(&self) -> Option<&GameReview> {
        self.reviews.of(&self.game)
    }
}
