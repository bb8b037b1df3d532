//! Static evaluation from the incremental pattern sums.
//!
//! Every empty point carries, for each colour, a potential score: what its four line patterns
//! and their combination (4-3, 3-3, open four) would be worth if that colour played there
//! (see [`crate::ai::position`]). The evaluation is the side to move's total potential against
//! the opponent's. The side to move weighs more because it gets to realise one of its threats
//! first; the opponent's threats can still be blocked.

use crate::ai::position::{Position, Threat};

/// Largest static evaluation magnitude, well below the mate band.
pub const EVAL_LIMIT: i32 = 10_000;

/// The evaluation for the side to move, in centi-stone-like units (about ±100 per open three).
#[inline]
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.to_move();
    let mine = pos.score_sum(me);
    let theirs = pos.score_sum(me.other());
    // Tempo: threats the side to move can make right now.
    let tempo = 8 * pos.count(me, Threat::Three) as i32
        + 40 * pos.count(me, Threat::ThreeThree) as i32
        + 12 * pos.count(me, Threat::Four) as i32
        + 60 * pos.count(me, Threat::FourThree) as i32;
    ((mine - theirs) / 8 + tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Color, Point, Rule};

    #[test]
    fn more_threats_score_higher() {
        let mut b = Board::new(15).unwrap();
        b.place(Point::new(7, 7), Color::Black);
        b.place(Point::new(8, 7), Color::Black);
        b.place(Point::new(0, 0), Color::White);
        let black = evaluate(&Position::new(&b, Rule::Freestyle, Color::Black));
        let white = evaluate(&Position::new(&b, Rule::Freestyle, Color::White));
        assert!(black > 0, "{black}");
        assert!(white < 0, "{white}");
    }

    #[test]
    fn empty_board_is_even() {
        let b = Board::new(15).unwrap();
        assert_eq!(evaluate(&Position::new(&b, Rule::Renju, Color::Black)), 0);
    }
}
