//! Game review (issue 10 §2): every move of the game judged by the engine, in the background,
//! and kept with the saved game.
//!
//! [`AppCore::begin_review`] hands out a [`ReviewJob`] (a copy of the moves and a cancel flag);
//! the command layer runs it on the blocking pool with the background engine and reports
//! progress; [`AppCore::finish_review`] keeps the result if the game is still the one reviewed.
//! A review belongs to a list of moves: once the game's moves differ (a move, undo, a new game),
//! it is dropped.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use wuzi::ai::review::{expected_score, MoveClass, MoveReview};

use super::*;

/// The time of each position's search; the CLI's default (`wuzi review`), so a 60-move game
/// takes about 18 s.
pub const REVIEW_MS_PER_POSITION: u64 = 300;

/// One reviewed move, as saved and as the UI receives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReviewedMove {
    /// 1 for black's first stone.
    pub ply: usize,
    /// The move played (RIF).
    pub point: String,
    /// Who played it.
    pub color: Color,
    /// `best`, `good`, `inaccuracy`, `mistake`, `blunder` or `missed-win`.
    pub class: String,
    /// The engine's choice in the position before the move (RIF), if any.
    pub best: Option<String>,
    /// The mover's score before the move.
    pub score_before: i32,
    /// The mover's score after it.
    pub score_after: i32,
}

/// A finished review: the moves it judged and the judgement of each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameReview {
    /// The game's moves when it was reviewed (RIF); the review shows only while they are the
    /// game's moves.
    pub moves: Vec<String>,
    /// Search time per position, in milliseconds.
    pub ms_per_position: u64,
    /// One entry per move, in order.
    pub reviewed: Vec<ReviewedMove>,
}

/// The names [`MoveClass::name`] gives, the only classes a saved review may hold.
const CLASSES: [MoveClass; 6] = [
    MoveClass::Best,
    MoveClass::Good,
    MoveClass::Inaccuracy,
    MoveClass::Mistake,
    MoveClass::Blunder,
    MoveClass::MissedWin,
];

impl GameReview {
    /// Whether a review read from a file makes sense for `game`: one entry per move, in order,
    /// naming the moves played, by the right side (moves alternate from a set-up position's
    /// side to move), with a known class. Anything else is dropped on load (the game itself
    /// still loads).
    #[must_use]
    pub fn fits(&self, game: &Game) -> bool {
        let size = game.size();
        let first = game.setup().map_or(Color::Black, |s| s.to_move);
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|p| p.rif(size).to_string())
            .collect();
        self.moves == moves
            && self.reviewed.len() == moves.len()
            && self.reviewed.iter().enumerate().all(|(i, r)| {
                r.ply == i + 1
                    && r.point == moves[i]
                    && r.color == if i % 2 == 0 { first } else { first.other() }
                    && CLASSES.iter().any(|c| c.name() == r.class)
                    && r.best
                        .as_deref()
                        .map_or(true, |b| Point::from_rif(b, size).is_ok())
            })
    }

    /// Black's expected score (0..1) in each position of the game, from the start to the end
    /// (moves + 1 values): the evaluation graph.
    #[must_use]
    pub fn black_chances(&self) -> Vec<f64> {
        let for_black = |color: Color, score: i32| {
            let s = expected_score(score);
            if color == Color::Black {
                s
            } else {
                1.0 - s
            }
        };
        let mut out: Vec<f64> = self
            .reviewed
            .iter()
            .map(|r| for_black(r.color, r.score_before))
            .collect();
        if let Some(last) = self.reviewed.last() {
            out.push(for_black(last.color, last.score_after));
        }
        out
    }
}

/// A review to run off the lock.
#[derive(Debug)]
pub struct ReviewJob {
    game: Game,
    game_id: u64,
    cancel: Arc<AtomicBool>,
}

impl ReviewJob {
    /// The flag that cancels it.
    #[must_use]
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// The number of positions it searches (moves + 1), for progress.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.game.moves().len() + 1
    }

    /// Reviews the game with `engine`, calling `progress(done, total)` after each position;
    /// returns early once cancelled.
    pub fn run(&self, engine: &mut Engine, progress: impl FnMut(usize, usize)) -> Vec<MoveReview> {
        wuzi::ai::review::review(
            engine,
            &self.game,
            Limits::time(Duration::from_millis(REVIEW_MS_PER_POSITION)),
            &self.cancel,
            progress,
        )
    }
}

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
        if self.reviewing.is_some() {
            return Err(Error::Busy);
        }
        // Before anything changes: a refused request leaves the state as it was. Replayed from
        // the game's start, so a set-up position is reviewed from its own stones.
        let game = self.replayed(self.game.moves().len())?;
        self.cancel_analysis_job();
        // A game still being played against the computer can be reviewed too (a loaded record,
        // say), but the review shows the engine's judgement as analysis does: the game then
        // counts as analysed.
        if self.session.mode == Mode::Computer && !self.over() && !self.session.analysed {
            self.session.analysed = true;
            self.save_game();
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.reviewing = Some(Arc::clone(&cancel));
        Ok(ReviewJob {
            game,
            game_id,
            cancel,
        })
    }

    /// Keeps the finished review of `job` with the game (and queues a save), if it was not
    /// cancelled and the game is still the one reviewed.
    ///
    /// # Errors
    /// `cancelled` or `stale`; nothing is kept then.
    pub fn finish_review(&mut self, job: &ReviewJob, found: &[MoveReview]) -> Result<GameView> {
        self.abandon_review(&job.cancel);
        if job.cancel.load(Ordering::SeqCst) {
            return Err(Error::Cancelled);
        }
        self.check_position(job.game_id, job.game.moves().len())?;
        if self.game.moves() != job.game.moves() || found.len() != job.game.moves().len() {
            return Err(Error::Stale);
        }
        let size = self.game.size();
        let rif = |p: Point| p.rif(size).to_string();
        self.review = Some(GameReview {
            moves: job.game.moves().iter().copied().map(rif).collect(),
            ms_per_position: REVIEW_MS_PER_POSITION,
            reviewed: found
                .iter()
                .map(|r| ReviewedMove {
                    ply: r.ply,
                    point: rif(r.point),
                    color: r.color,
                    class: r.class.name().to_string(),
                    best: r.best.map(rif),
                    score_before: r.score_before,
                    score_after: r.score_after,
                })
                .collect(),
        });
        self.save_game();
        Ok(self.view())
    }

    /// Frees the review slot if it still holds this job.
    pub fn abandon_review(&mut self, job_cancel: &Arc<AtomicBool>) {
        if self
            .reviewing
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, job_cancel))
        {
            self.reviewing = None;
        }
    }

    /// Stops the running review; its answer is `cancelled`.
    pub fn cancel_review(&mut self) {
        if let Some(cancel) = self.reviewing.take() {
            cancel.store(true, Ordering::SeqCst);
        }
    }

    /// The review of the game as it stands, if there is one.
    #[must_use]
    pub fn review(&self) -> Option<&GameReview> {
        let size = self.game.size();
        self.review.as_ref().filter(|r| {
            r.moves.len() == self.game.moves().len()
                && r.moves
                    .iter()
                    .zip(self.game.moves())
                    .all(|(m, p)| *m == p.rif(size).to_string())
        })
    }

    /// Forgets a review that no longer describes the game's moves, and stops one under way
    /// for moves that changed.
    pub(super) fn drop_stale_review(&mut self) {
        if self.review.is_some() && self.review().is_none() {
            self.review = None;
        }
        self.cancel_review();
    }
}
