//! Game review: every move of a game judged against the engine's own choice in the position
//! before it.
//!
//! Each position of the game is searched once (`limits` each): the search before a move gives
//! the best move and the mover's prospects (`score_before`), the search after it (the next
//! position's search, from the other side) what the move left (`score_after`). The drop in
//! the mover's winning chances classifies the move ([`classify`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::ai::engine::{Engine, SearchResult};
use crate::ai::eval::SCALE;
use crate::ai::level::{Level, Limits};
use crate::ai::search::{MATE, MATE_BOUND};
use crate::{Color, Game, Point};

/// How good a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    /// The engine's own choice.
    Best,
    /// Another move that keeps nearly all the winning chances.
    Good,
    /// Gives away a little.
    Inaccuracy,
    /// Gives away a lot, or lets the opponent force a win where a defence existed and the
    /// winning chances were already small.
    Mistake,
    /// Turns a game that was not lost into a lost or nearly lost one.
    Blunder,
    /// A forced win existed and the move let it go.
    MissedWin,
}

impl MoveClass {
    /// The lower-case name used in JSON and by the app: `best`, `good`, `inaccuracy`,
    /// `mistake`, `blunder`, `missed-win`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
            MoveClass::MissedWin => "missed-win",
        }
    }
}

impl std::fmt::Display for MoveClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// 1 for black's first stone.
    pub ply: usize,
    /// The move played.
    pub point: Point,
    /// Who played it.
    pub color: Color,
    /// Its class.
    pub class: MoveClass,
    /// The engine's choice in the position before the move.
    pub best: Option<Point>,
    /// The mover's score before the move (search of that position).
    pub score_before: i32,
    /// The mover's score after the move (the next position's search, negated; a finished
    /// game scores as a five or a draw).
    pub score_after: i32,
}

/// Winning-chance drops (in the mover's expected score, 0..1) at which a move stops being
/// good, an inaccuracy and a mistake.
const GOOD_DROP: f64 = 0.03;
const INACCURACY_DROP: f64 = 0.08;
const MISTAKE_DROP: f64 = 0.20;

/// The expected score (0 = lost, 1 = won) of a search score for the side it belongs to: the
/// evaluation's own logistic scale ([`SCALE`]), proven wins and losses as 1 and 0.
#[must_use]
pub fn expected_score(score: i32) -> f64 {
    if score > MATE_BOUND {
        1.0
    } else if score < -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / SCALE).exp())
    }
}

/// The class of a move from the mover's scores before and after it and whether it was the
/// engine's choice.
///
/// A proven win before and none after is a missed win, whatever else holds. Otherwise the
/// engine's choice, or a proven win at least as fast as the engine's, is best; a move after which the opponent has a proven win while the
/// mover had none is at least a mistake; the rest goes by the drop in expected score.
#[must_use]
pub fn classify(before: i32, after: i32, played_best: bool) -> MoveClass {
    let won = |s: i32| s > MATE_BOUND;
    let lost = |s: i32| s < -MATE_BOUND;
    if won(before) && !won(after) && !played_best {
        return MoveClass::MissedWin;
    }
    // The engine's move, or another proven win at least as fast (two fives, say).
    if played_best || (won(before) && after >= before) {
        return MoveClass::Best;
    }
    let drop = expected_score(before) - expected_score(after);
    let by_drop = if drop <= GOOD_DROP {
        MoveClass::Good
    } else if drop <= INACCURACY_DROP {
        MoveClass::Inaccuracy
    } else if drop <= MISTAKE_DROP {
        MoveClass::Mistake
    } else {
        MoveClass::Blunder
    };
    if lost(after) && !lost(before) {
        by_drop.max(MoveClass::Mistake)
    } else {
        by_drop
    }
}

/// Reviews every move of `game` (its moves from the start; redo moves are ignored): one
/// Master search of `limits` per position. `progress(done, total)` is called after each
/// position. When `cancel` is raised the moves reviewed so far come back.
pub fn review(
    engine: &mut Engine,
    game: &Game,
    limits: Limits,
    cancel: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
) -> Vec<MoveReview> {
    let moves = game.moves();
    // From the set-up position when there is one: its stones are not moves to review.
    let mut replay = game.at_start();
    // searches[i]: the search of the position before move i (i = moves.len(): the end).
    let mut searches: Vec<Option<SearchResult>> = Vec::with_capacity(moves.len() + 1);
    let total = moves.len() + 1;
    for i in 0..=moves.len() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        searches.push(if replay.result().is_some() {
            None
        } else {
            Some(engine.search(&replay, Level::Master, limits, cancel, i as u64))
        });
        if cancel.load(Ordering::Relaxed) {
            // The last search was cut short: do not judge by it.
            searches.pop();
            break;
        }
        progress(i + 1, total);
        if let Some(&m) = moves.get(i) {
            if replay.try_play(m).is_err() {
                break;
            }
        }
    }
    let mut out = Vec::with_capacity(moves.len());
    let mut replay = game.at_start();
    for (i, &m) in moves.iter().enumerate() {
        let (Some(Some(before)), Some(after)) = (searches.get(i), searches.get(i + 1)) else {
            break;
        };
        let color = replay.to_move();
        let end = replay.try_play(m).ok().flatten();
        let score_after = match (after, end) {
            (Some(r), _) => -r.score,
            (None, Some(result)) if result.winner == Some(color) => MATE - 1,
            (None, Some(result)) if result.winner.is_some() => -(MATE - 1),
            (None, _) => 0,
        };
        let played_best = before.best == Some(m);
        out.push(MoveReview {
            ply: i + 1,
            point: m,
            color,
            class: classify(before.score, score_after, played_best),
            best: before.best,
            score_before: before.score,
            score_after,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_choice_is_best_and_drops_grade_the_rest() {
        assert_eq!(classify(50, -400, true), MoveClass::Best);
        assert_eq!(classify(50, 45, false), MoveClass::Good);
        assert_eq!(classify(50, 60, false), MoveClass::Good);
        assert_eq!(classify(50, 0, false), MoveClass::Inaccuracy);
        assert_eq!(classify(50, -100, false), MoveClass::Mistake);
        assert_eq!(classify(50, -400, false), MoveClass::Blunder);
    }

    #[test]
    fn proven_results_override_the_drop() {
        // A win let go.
        assert_eq!(classify(MATE - 9, 300, false), MoveClass::MissedWin);
        assert_eq!(classify(MATE - 9, MATE - 11, false), MoveClass::Good);
        assert_eq!(classify(MATE - 1, MATE - 1, false), MoveClass::Best);
        // Letting the opponent win where no loss was proven: at least a mistake, even when
        // the position was already bad.
        assert_eq!(classify(-900, -(MATE - 7), false), MoveClass::Mistake);
        assert_eq!(classify(0, -(MATE - 7), false), MoveClass::Blunder);
        // Already lost: a quicker loss is no news.
        assert_eq!(classify(-(MATE - 9), -(MATE - 5), false), MoveClass::Good);
    }

    #[test]
    fn expected_score_is_monotone_and_proven_results_are_certain() {
        assert!((expected_score(0) - 0.5).abs() < 1e-9);
        assert!(expected_score(100) > expected_score(99));
        assert_eq!(expected_score(MATE - 3), 1.0);
        assert_eq!(expected_score(-(MATE - 3)), 0.0);
    }
}
