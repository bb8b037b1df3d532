//! Static evaluation: learned values of every point's pattern combination, plus the threats
//! on the board.
//!
//! Every empty point carries, for each colour, the combination of its four line patterns
//! (what that colour would make in each direction by playing there, see
//! [`crate::ai::pattern`]). The evaluation for the side to move is
//!
//! ```text
//! eval = round((Σ_points W[me][to move][combo_me(point)]
//!               + Σ_points W[opponent][waiting][combo_op(point)]) / CELL_RESOLUTION)
//!      + T[me][threat mask]
//! ```
//!
//! where `W` has one value per colour, per "is this colour to move", and per combination of
//! four patterns (a multiset: [`COMBOS`] of them), and `T` one value per set of threats each
//! side can make next (see [`threat_mask`]). Both sums are kept up to date by
//! [`Position`] on every move, so the evaluation costs a few loads. Under renju a point
//! forbidden to black counts as combination rank 0 for black and its threats leave black's
//! mask (see [`EvalTerms`]): the referee is asked only about the few points whose patterns
//! allow a forbidden move.
//!
//! The values are fitted to game results and search scores by logistic regression
//! (`wuzi-tools tune`: module `tune` of the `wuzi-tools` crate, `tools/`): the evaluation is
//! in units where a position scoring `e` wins with probability `1 / (1 + exp(-e / SCALE))`.
//! Each rule has its own table, read from `src/ai/weights/<rule>.txt`.

use crate::ai::net::CELL_WORDS;
use crate::ai::position::{ForbiddenPoints, Position, Threat};
use crate::Color;

pub use crate::ai::weights::{
    combo_patterns, combo_rank, install_weights, weights, Weights, WeightsError, CELL_RESOLUTION,
    COMBOS, MASKS,
};

/// Largest static evaluation magnitude, well below the mate band.
pub const EVAL_LIMIT: i32 = 10_000;

/// Evaluation units per logit: a score of `SCALE` wins about 73% of the time.
pub const SCALE: f64 = 200.0;

/// The threats one side can make with its next move, as four bits: a four, a four-three, an
/// open three, a double three.
#[must_use]
pub fn side_threats(pos: &Position, c: Color) -> usize {
    threat_bits(|t| pos.count(c, t))
}

/// [`side_threats`] from the number of points of each class.
fn threat_bits(count: impl Fn(Threat) -> u32) -> usize {
    let four = count(Threat::Four) + count(Threat::FourThree) > 0;
    let four_three = count(Threat::FourThree) > 0;
    let three = count(Threat::Three) + count(Threat::ThreeThree) > 0;
    let three_three = count(Threat::ThreeThree) > 0;
    usize::from(four)
        | usize::from(four_three) << 1
        | usize::from(three) << 2
        | usize::from(three_three) << 3
}

/// The threat mask of a position: the side to move's [`side_threats`] in the low four bits,
/// the opponent's in the high four.
#[must_use]
pub fn threat_mask(pos: &Position) -> usize {
    let me = pos.to_move();
    side_threats(pos, me) | side_threats(pos, me.other()) << 4
}

/// The threat mask when black cannot play the points in `dead` (renju): their threats do not
/// count.
fn threat_mask_without(pos: &Position, dead: &ForbiddenPoints) -> usize {
    let black = threat_bits(|t| pos.count(Color::Black, t) - dead.threats[t as usize]);
    let white = side_threats(pos, Color::White);
    match pos.to_move() {
        Color::Black => black | white << 4,
        Color::White => white | black << 4,
    }
}

/// What the evaluation sees of a position: its threat mask and, for each colour, the
/// evaluation weights summed over the empty points as if that colour were to move or waiting.
/// Under renju, a point forbidden to black counts for black as a point where it makes
/// nothing (combination rank 0), and its threats are dropped from black's mask: a shape black
/// can only complete through a forbidden point is dead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    /// See [`threat_mask`].
    pub mask: usize,
    /// The forbidden points found (0 outside renju).
    pub dead: ForbiddenPoints,
}

/// The [`EvalTerms`] of a position (asks the referee about black's maybe-forbidden points).
#[must_use]
pub fn eval_terms(pos: &mut Position) -> EvalTerms {
    let dead = pos.forbidden_black();
    terms_with(pos, dead)
}

/// [`eval_terms`], also setting the bits of black's forbidden points in `cells` (one bit per
/// padded index).
pub fn eval_terms_marking(pos: &mut Position, cells: &mut [u64; CELL_WORDS]) -> EvalTerms {
    let dead = pos.forbidden_black_cells(cells);
    terms_with(pos, dead)
}

#[inline]
fn terms_with(pos: &Position, dead: ForbiddenPoints) -> EvalTerms {
    let mask = if dead.points == 0 {
        threat_mask(pos)
    } else {
        threat_mask_without(pos, &dead)
    };
    EvalTerms { mask, dead }
}

/// The evaluation for the side to move (see the module docs), clamped to ±[`EVAL_LIMIT`].
/// It depends on the position alone.
#[inline]
#[must_use]
pub fn evaluate(pos: &mut Position) -> i32 {
    evaluate_with_momentum(pos, 0)
}

/// [`evaluate`] with the evaluation's *momentum* (the search's
/// [`Params::momentum`](crate::ai::params::Params::momentum)): the point values' sum moves
/// away from the one of the position before the last move, as the side to move sees it
/// ([`Position::parent_weight_sum`]), by `momentum`/64 of their difference, before the
/// forbidden points are taken out and the sum is rounded. So what the last move changed on
/// the board counts `1 + momentum/64` times. 0 is [`evaluate`]; at the start and after a pass
/// the momentum has nothing to act on. The result depends on the last move as well as the
/// position.
#[inline]
#[must_use]
pub fn evaluate_with_momentum(pos: &mut Position, momentum: i32) -> i32 {
    if pos.has_net() {
        return net_evaluate(pos, momentum);
    }
    let terms = eval_terms(pos);
    tables_eval(pos, &terms, momentum)
}

/// [`evaluate_with_momentum`] with a learned network ([`crate::ai::net`]); the momentum acts
/// on the tables' part of a correction network.
#[cold]
fn net_evaluate(pos: &mut Position, momentum: i32) -> i32 {
    let mut dead = [0; CELL_WORDS];
    let terms = eval_terms_marking(pos, &mut dead);
    let Some((v, residual)) = pos.net_value(terms.mask, &dead) else {
        return tables_eval(pos, &terms, momentum);
    };
    let net = (f64::from(v) * SCALE).round() as i32;
    let base = if residual {
        tables_eval(pos, &terms, momentum)
    } else {
        0
    };
    (base + net).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The tables' evaluation (see the module docs) with `momentum` (see
/// [`evaluate_with_momentum`]), clamped to ±[`EVAL_LIMIT`].
#[inline]
fn tables_eval(pos: &Position, terms: &EvalTerms, momentum: i32) -> i32 {
    let me = pos.to_move();
    let op = me.other();
    let w = pos.weights();
    let t = i32::from(w.threat[me.index()][terms.mask]);
    let mut cells = pos.weight_sum(me, true) + pos.weight_sum(op, false);
    if momentum != 0 {
        if let Some(parent) = pos.parent_weight_sum() {
            cells += ((cells - parent) * momentum).div_euclid(64);
        }
    }
    if terms.dead.points > 0 {
        let side = usize::from(me == Color::Black);
        cells += terms.dead.points * i32::from(w.cell[0][side][0]) - terms.dead.w[side];
    }
    (cell_units(cells) + t).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// A sum of point values ([`Weights::cell`], in 1/[`CELL_RESOLUTION`] units) in whole
/// evaluation units, rounded to the nearest (halves up).
#[inline]
#[must_use]
pub fn cell_units(cells: i32) -> i32 {
    (cells + CELL_RESOLUTION / 2).div_euclid(CELL_RESOLUTION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board, Point, Rule};

    #[test]
    fn a_double_three_forbidden_to_black_is_dead() {
        // Black's two twos meet at h8: a double three there, forbidden under renju.
        let mut b = Board::new(15).unwrap();
        for (x, y) in [(5, 7), (6, 7), (7, 5), (7, 6)] {
            b.place(Point::new(x, y), Color::Black);
        }
        for (x, y) in [(0, 0), (14, 14), (0, 14), (14, 0)] {
            b.place(Point::new(x, y), Color::White);
        }
        let h8 = Board::index_of(Point::new(7, 7));
        let double_three = 1 << 3;
        let mut free = Position::new(&b, Rule::Freestyle, Color::Black);
        assert_eq!(free.forbidden_black(), ForbiddenPoints::default());
        assert_ne!(eval_terms(&mut free).mask & double_three, 0);
        let mut renju = Position::new(&b, Rule::Renju, Color::Black);
        assert_eq!(renju.threat(Color::Black, h8), Threat::ThreeThree);
        let dead = renju.forbidden_black();
        assert_eq!(dead.points, 1);
        assert_eq!(dead.threats[Threat::ThreeThree as usize], 1);
        let terms = eval_terms(&mut renju);
        assert_eq!(terms.dead, dead);
        assert_eq!(terms.mask & double_three, 0, "{:#b}", terms.mask);
        // White's view: black's waiting double three is gone from the high bits too.
        let mut white = Position::new(&b, Rule::Renju, Color::White);
        assert_eq!(eval_terms(&mut white).mask & (double_three << 4), 0);
    }

    #[test]
    fn more_threats_score_higher() {
        let mut b = Board::new(15).unwrap();
        b.place(Point::new(7, 7), Color::Black);
        b.place(Point::new(8, 7), Color::Black);
        b.place(Point::new(9, 7), Color::Black);
        b.place(Point::new(0, 0), Color::White);
        let black = evaluate(&mut Position::new(&b, Rule::Freestyle, Color::Black));
        let white = evaluate(&mut Position::new(&b, Rule::Freestyle, Color::White));
        assert!(black > 0, "{black}");
        assert!(white < 0, "{white}");
    }

    #[test]
    fn momentum_scales_what_the_last_move_changed() {
        // A few stones, then white's move: the momentum acts on the point values' change
        // that move made, seen from black (to move).
        let mut b = Board::new(15).unwrap();
        for (x, y, c) in [
            (7, 7, Color::Black),
            (8, 8, Color::White),
            (8, 6, Color::Black),
        ] {
            b.place(Point::new(x, y), c);
        }
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut pos = Position::new(&b, rule, Color::White);
            // No move played through the position: nothing to act on.
            assert_eq!(pos.parent_weight_sum(), None);
            assert_eq!(evaluate_with_momentum(&mut pos, 32), evaluate(&mut pos));
            let (me, op) = (Color::White, Color::Black);
            let before = pos.weight_sum(me, true) + pos.weight_sum(op, false);
            pos.play(Board::index_of(Point::new(6, 8)));
            // Black to move: the parent's sum, seen from black, is minus white's.
            assert_eq!(pos.parent_weight_sum(), Some(-before));
            let now = pos.weight_sum(op, true) + pos.weight_sum(me, false);
            let plain = evaluate(&mut pos);
            assert_eq!(evaluate_with_momentum(&mut pos, 0), plain);
            let t = i32::from(pos.weights().threat[op.index()][threat_mask(&pos)]);
            for m in [-32, 16, 64] {
                let cells = now + ((now + before) * m).div_euclid(64);
                assert_eq!(
                    evaluate_with_momentum(&mut pos, m),
                    (cell_units(cells) + t).clamp(-EVAL_LIMIT, EVAL_LIMIT),
                    "{rule} momentum {m}"
                );
            }
            // After a pass the last stone is the side to move's own: no momentum.
            pos.flip_side();
            assert_eq!(pos.parent_weight_sum(), None);
            assert_eq!(evaluate_with_momentum(&mut pos, 16), evaluate(&mut pos));
            pos.flip_side();
            // Undo brings the position and its evaluation back.
            pos.undo();
            assert_eq!(pos.parent_weight_sum(), None);
        }
    }
}
