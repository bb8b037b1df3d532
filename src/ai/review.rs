//! Game review: every move of a game judged against the engine's own choice in the position
//! before it.
//!
//! Each position of the game is searched once (`limits` each): the search before a move gives
//! the best move and the mover's prospects (`score_before`), the search after it (the next
//! position's search, from the other side) what the move left (`score_after`). The drop in
//! the mover's winning chances classifies the move ([`classify`]); in a lost position the
//! moves to the loss do, and in the opening a move away from the game is at least an
//! inaccuracy ([`gives_away_the_first_move`]).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::ai::engine::{Engine, SearchResult};
use crate::ai::eval::SCALE;
use crate::ai::level::{Level, Limits};
use crate::ai::search::{MATE, MATE_BOUND};
use crate::{Board, Color, Game, Point};

/// How good a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    /// The engine's own choice.
    Best,
    /// Another move that keeps nearly all the winning chances.
    Good,
    /// The position was already lost (a forced loss was proven before the move) and the move
    /// holds out as long as the best defence: neither praised nor blamed.
    Lost,
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
    /// Every class, from best to worst (`Lost` is no judgement and sits after `Good`).
    pub const ALL: [MoveClass; 7] = [
        MoveClass::Best,
        MoveClass::Good,
        MoveClass::Lost,
        MoveClass::Inaccuracy,
        MoveClass::Mistake,
        MoveClass::Blunder,
        MoveClass::MissedWin,
    ];

    /// The lower-case name used in JSON and by the app: `best`, `good`, `lost`, `inaccuracy`,
    /// `mistake`, `blunder`, `missed-win`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Lost => "lost",
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
/// A proven win before and none after is a missed win, whatever else holds. A proven loss
/// before and after is judged by the moves to the loss ([`classify_lost`]). Otherwise the
/// engine's choice, or a proven win at least as fast as the engine's, is best; a move after
/// which the opponent has a proven win while the mover had none is at least a mistake; the
/// rest goes by the drop in expected score.
#[must_use]
pub fn classify(before: i32, after: i32, played_best: bool) -> MoveClass {
    let won = |s: i32| s > MATE_BOUND;
    let lost = |s: i32| s < -MATE_BOUND;
    if won(before) && !won(after) && !played_best {
        return MoveClass::MissedWin;
    }
    if lost(before) && lost(after) {
        return classify_lost(before, after, played_best);
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

/// A move in a lost position (both scores proven losses for the mover), by how long it holds
/// out: the plies until the opponent's five after it, the move itself counted, against the
/// best defence's (the score before). Holding out as long, or being the engine's choice, is
/// [`MoveClass::Lost`]; losing at least twice as fast (a four left unblocked, say) is a
/// mistake; losing sooner by a move or more (two plies) is an inaccuracy.
#[must_use]
pub fn classify_lost(before: i32, after: i32, played_best: bool) -> MoveClass {
    let best_defence = MATE + before;
    let held = MATE + after + 1;
    if played_best || held + 2 > best_defence {
        MoveClass::Lost
    } else if 2 * held <= best_defence {
        MoveClass::Mistake
    } else {
        MoveClass::Inaccuracy
    }
}

/// The opening: moves onto a board of fewer stones than this (the first five moves from an
/// empty board, renju's opening).
pub const OPENING_STONES: usize = 5;

/// How far (in rows and columns) from every stone, or from the centre of an empty board, a
/// move in the opening may be and still take part in the game.
pub const OPENING_REACH: u8 = 2;

/// Whether the move `p` onto `board` gives away the first-move advantage: in the opening
/// ([`OPENING_STONES`]), a move farther than [`OPENING_REACH`] from every stone, or on an
/// empty board from the centre, does nothing for the mover's lines, so the opponent moves
/// next as if it had the first move. The evaluation of a near-empty board barely sees that
/// (a first stone on a1 still scores about as well as h8), so the review floors such a move
/// at an inaccuracy.
#[must_use]
pub fn gives_away_the_first_move(board: &Board, p: Point) -> bool {
    if board.stone_count() >= OPENING_STONES {
        return false;
    }
    let near = |q: Point| p.x().abs_diff(q.x()).max(p.y().abs_diff(q.y())) <= OPENING_REACH;
    if board.stone_count() == 0 {
        return !near(Point::center(board.size()));
    }
    !board.stones().any(|(q, _)| near(q))
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
        let away = gives_away_the_first_move(replay.board(), m);
        let end = replay.try_play(m).ok().flatten();
        let score_after = match (after, end) {
            (Some(r), _) => -r.score,
            (None, Some(result)) if result.winner == Some(color) => MATE - 1,
            (None, Some(result)) if result.winner.is_some() => -(MATE - 1),
            (None, _) => 0,
        };
        let played_best = before.best == Some(m);
        let mut class = classify(before.score, score_after, played_best);
        if away && !played_best {
            class = class.max(MoveClass::Inaccuracy);
        }
        out.push(MoveReview {
            ply: i + 1,
            point: m,
            color,
            class,
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
    use crate::testing::pt;

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
    }

    #[test]
    fn in_a_lost_position_moves_go_by_how_long_they_hold_out() {
        // The best defence loses in 10 plies; after a move the opponent needs 9 more.
        assert_eq!(classify(-(MATE - 10), -(MATE - 9), true), MoveClass::Lost);
        assert_eq!(classify(-(MATE - 10), -(MATE - 9), false), MoveClass::Lost);
        // Holding out longer than the search before saw is no better than lost.
        assert_eq!(classify(-(MATE - 10), -(MATE - 13), false), MoveClass::Lost);
        // A move sooner: an inaccuracy; half as long or less: a mistake.
        assert_eq!(
            classify(-(MATE - 10), -(MATE - 7), false),
            MoveClass::Inaccuracy
        );
        assert_eq!(
            classify(-(MATE - 10), -(MATE - 5), false),
            MoveClass::Inaccuracy
        );
        assert_eq!(
            classify(-(MATE - 10), -(MATE - 4), false),
            MoveClass::Mistake
        );
        // A four left unblocked: the five comes next.
        assert_eq!(
            classify(-(MATE - 4), -(MATE - 1), false),
            MoveClass::Mistake
        );
        // Lost in 2 whatever is played: nothing to choose.
        assert_eq!(classify(-(MATE - 2), -(MATE - 1), false), MoveClass::Lost);
        // The engine's move is not blamed for a shorter loss found after it.
        assert_eq!(classify(-(MATE - 10), -(MATE - 3), true), MoveClass::Lost);
        // A loss seen before that the search after does not confirm: judged as usual.
        assert_eq!(classify(-(MATE - 10), -300, false), MoveClass::Good);
    }

    #[test]
    fn a_move_away_from_the_game_in_the_opening_gives_away_the_first_move() {
        let board = |stones: &str| {
            let mut b = Board::new(15).unwrap();
            for (k, s) in stones.split_whitespace().enumerate() {
                let c = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                b.place(pt(s), c);
            }
            b
        };
        let away = |stones: &str, m: &str| gives_away_the_first_move(&board(stones), pt(m));
        // The first stone: within two of the centre, or not.
        assert!(!away("", "h8") && !away("", "f6") && !away("", "j10"));
        assert!(away("", "a1") && away("", "e8") && away("", "o15"));
        // Later: within two of any stone, or not.
        assert!(!away("h8", "j10") && !away("h8 i9", "k11"));
        assert!(away("h8", "a1") && away("h8 i9", "l12"));
        // After the opening every move takes part.
        assert!(!away("h8 i9 h9 h10 i8", "a1"));
    }

    #[test]
    fn expected_score_is_monotone_and_proven_results_are_certain() {
        assert!((expected_score(0) - 0.5).abs() < 1e-9);
        assert!(expected_score(100) > expected_score(99));
        assert_eq!(expected_score(MATE - 3), 1.0);
        assert_eq!(expected_score(-(MATE - 3)), 0.0);
    }
}
