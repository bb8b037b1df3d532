//! Game review (issue 10 §2): every move of the game judged by the engine, in the background,
//! and kept with the saved game.
//!
//! [`Reviews`] owns the game's finished review and the running job: [`Reviews::begin`] hands
//! out a [`ReviewJob`] (a copy of the moves and a cancel flag); the command layer runs it on the
//! blocking pool with the background engine and reports progress; [`Reviews::keep`] keeps the
//! result if the game is still the one reviewed. A review belongs to a list of moves: once the
//! game's moves differ (a move, undo, a new game), it is dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use wuzi::ai::review::{expected_score, MoveClass, MoveReview};
use wuzi::{Color, Engine, Game, Limits, Point};

use crate::error::{Error, Result};

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
    /// `best`, `good`, `lost`, `inaccuracy`, `mistake`, `blunder` or `missed-win`
    /// ([`MoveClass::name`]).
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
                    && MoveClass::ALL.iter().any(|c| c.name() == r.class)
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

/// The game's review as the app core owns it: the finished one, if any, and the running job's
/// cancel flag, if one runs (at most one at a time).
#[derive(Debug, Default)]
pub struct Reviews {
    kept: Option<GameReview>,
    running: Option<Arc<AtomicBool>>,
}

impl Reviews {
    /// The review loaded with a game (already checked with [`GameReview::fits`]).
    #[must_use]
    pub fn restored(kept: Option<GameReview>) -> Reviews {
        Reviews {
            kept,
            running: None,
        }
    }

    /// Registers a review of `game` (game `game_id`, replayed from its start) and hands it out.
    ///
    /// # Errors
    /// [`Error::Busy`] while another review runs; nothing changes then.
    pub fn begin(&mut self, game: Game, game_id: u64) -> Result<ReviewJob> {
        if self.running.is_some() {
            return Err(Error::Busy);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(Arc::clone(&cancel));
        Ok(ReviewJob {
            game,
            game_id,
            cancel,
        })
    }

    /// Takes the finished `job` off the running slot; says whether it was cancelled.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if it was.
    pub fn end(&mut self, job: &ReviewJob) -> Result<()> {
        self.abandon(&job.cancel);
        if job.cancel.load(Ordering::SeqCst) {
            return Err(Error::Cancelled);
        }
        Ok(())
    }

    /// Keeps what `job` `found` as the review of `game`, if `game` is still the game reviewed.
    ///
    /// # Errors
    /// [`Error::Stale`] for another game or another list of moves; nothing is kept then.
    pub fn keep(
        &mut self,
        job: &ReviewJob,
        found: &[MoveReview],
        game_id: u64,
        game: &Game,
    ) -> Result<()> {
        if game_id != job.game_id
            || game.moves() != job.game.moves()
            || found.len() != job.game.moves().len()
        {
            return Err(Error::Stale);
        }
        let size = game.size();
        let rif = |p: Point| p.rif(size).to_string();
        self.kept = Some(GameReview {
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
        Ok(())
    }

    /// Frees the running slot if it still holds the job with this cancel flag.
    pub fn abandon(&mut self, job_cancel: &Arc<AtomicBool>) {
        if self
            .running
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, job_cancel))
        {
            self.running = None;
        }
    }

    /// Stops the running review; its answer is `cancelled`.
    pub fn cancel(&mut self) {
        if let Some(cancel) = self.running.take() {
            cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a review runs.
    #[must_use]
    pub const fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The review of `game` as it stands, if there is one.
    #[must_use]
    pub fn of(&self, game: &Game) -> Option<&GameReview> {
        let size = game.size();
        self.kept.as_ref().filter(|r| {
            r.moves.len() == game.moves().len()
                && r.moves
                    .iter()
                    .zip(game.moves())
                    .all(|(m, p)| *m == p.rif(size).to_string())
        })
    }

    /// The position changed to `game`: forgets a review that no longer describes its moves,
    /// and stops one under way.
    pub fn position_changed(&mut self, game: &Game) {
        if self.kept.is_some() && self.of(game).is_none() {
            self.kept = None;
        }
        self.cancel();
    }

    /// A new game: forgets the review and stops one under way.
    pub fn clear(&mut self) {
        self.kept = None;
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        let mut g = Game::new(wuzi::Rule::Freestyle, 15).unwrap();
        for m in moves {
            g.try_play(Point::from_rif(m, 15).unwrap()).unwrap();
        }
        g
    }

    fn found(g: &Game) -> Vec<MoveReview> {
        wuzi::ai::review::review(
            &mut Engine::new(1),
            g,
            Limits::nodes(200),
            &AtomicBool::new(false),
            |_, _| {},
        )
    }

    #[test]
    fn one_review_runs_at_a_time_and_a_cancelled_one_is_not_kept() {
        let mut r = Reviews::default();
        let g = game(&["h8"]);
        let job = r.begin(g.clone(), 1).unwrap();
        assert!(r.is_running());
        assert!(matches!(r.begin(g.clone(), 1), Err(Error::Busy)));
        r.cancel();
        assert!(!r.is_running());
        assert!(matches!(r.end(&job), Err(Error::Cancelled)));
        assert!(r.of(&g).is_none());
    }

    #[test]
    fn a_kept_review_shows_only_for_its_moves_and_a_change_drops_it() {
        let mut r = Reviews::default();
        let g = game(&["h8", "i9"]);
        let job = r.begin(g.clone(), 1).unwrap();
        let f = found(&g);
        r.end(&job).unwrap();
        assert!(matches!(r.keep(&job, &f, 2, &g), Err(Error::Stale)));
        assert!(matches!(
            r.keep(&job, &f, 1, &game(&["h8"])),
            Err(Error::Stale)
        ));
        r.keep(&job, &f, 1, &g).unwrap();
        assert_eq!(r.of(&g).unwrap().moves, ["h8", "i9"]);
        let mut undone = g.clone();
        undone.undo();
        // Hidden while the moves differ, dropped once the position changes.
        assert!(r.of(&undone).is_none());
        r.position_changed(&g);
        assert!(r.of(&g).is_some());
        r.position_changed(&undone);
        assert!(r.of(&g).is_none());
    }
}
