//! The computer's side of the opening rules Swap and Swap2 (the Gomocup rule).
//!
//! Under **Swap2** the opener places three stones (black, white, black); the other player
//! then takes black, keeps white and plays the fourth stone, or places two more stones
//! (white, black) and hands the choice of colour back to the opener. Under **Swap** the opener
//! places three stones and the other player picks a colour. In every case the player who
//! chooses white plays next.
//!
//! The computer plays every role with its own Master search:
//! - as the **opener** ([`Engine::propose_opening`]) it tries known three-stone openings in a
//!   seeded order and proposes the first its search scores within [`BALANCED`] of even
//!   (the most balanced one tried when none is);
//! - as the **chooser** ([`Engine::choose_after_three`]) it searches the position for white:
//!   clearly worse for white → it takes black; clearly better → it keeps white and plays the
//!   search's move; close to even → it places two more stones (Swap2 only), white's best move
//!   and the black answer its multi-PV analysis scores closest to even, so the opener faces a
//!   balanced choice;
//! - choosing a **colour** ([`Engine::choose_colour`]: Swap2 after five stones, Swap after
//!   three) it takes white when its search scores white's move at 0 or better, else black.
//!
//! Whatever the limits, the computer never chooses a colour its own search scores below the
//! other one: the choice reads the sign of one score for the side to move.

use std::sync::atomic::AtomicBool;

use crate::ai::openings::piskvork_openings;
use crate::ai::{Engine, Level, Limits};
use crate::{Color, Game, Point, Rule};

/// Scores within this of 0 (evaluation units, 200 per logit: about 68% for the better side)
/// count as balanced.
pub const BALANCED: i32 = 150;

/// How many candidate openings the opener searches at most.
const CANDIDATES: usize = 8;

/// The Swap2 chooser's answer to the opener's three stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreeStoneChoice {
    /// Take black: the opener (now white) plays the fourth stone.
    TakeBlack,
    /// Keep white and play this fourth stone.
    PlayWhite(Point),
    /// Place a white and then a black stone and let the opener choose the colour.
    PlaceTwo([Point; 2]),
}

/// A colour choice with white to move: black, or white with its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// Take black: the other player moves next as white.
    Black,
    /// Take white and play this move.
    White(Point),
}

/// Whether the side to move (white, in every Swap decision) is worse off than the other by a
/// search score for it: then the chooser takes black.
#[must_use]
pub const fn prefers_black(score_for_white: i32) -> bool {
    score_for_white < 0
}

/// The opener's candidates in the order it tries them: the known three-stone openings that
/// fit a `size` board and are legal and undecided under `rule`, starting at `seed`, at most
/// [`CANDIDATES`], each as its game and its stones.
fn candidates(rule: Rule, size: u8, seed: u64) -> impl Iterator<Item = (Game, Vec<Point>)> {
    let openings = piskvork_openings();
    let n = openings.len();
    (0..n)
        .filter_map(move |k| {
            let o = &openings[(seed as usize).wrapping_add(k) % n];
            let points = o.points(size).filter(|p| p.len() == 3)?;
            let game = Game::from_moves(rule, size, &points).ok()?;
            game.result().is_none().then_some((game, points))
        })
        .take(CANDIDATES)
}

impl Engine {
    /// The opener's three stones (black, white, black) for Swap or Swap2 on a `size` board:
    /// a known opening, placed around the centre, that Master's search scores as balanced.
    /// `limits` is the whole budget, shared between the candidates tried. `None` when no
    /// known opening fits the board or `cancel` was raised before any was searched.
    pub fn propose_opening(
        &mut self,
        rule: Rule,
        size: u8,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Option<Vec<Point>> {
        let share = limits.shared(CANDIDATES);
        let mut best: Option<(i32, Vec<Point>)> = None;
        for (game, points) in candidates(rule, size, seed) {
            if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let r = self.search(&game, Level::Master, share, cancel, seed);
            let imbalance = r.score.abs();
            if best.as_ref().map_or(true, |(b, _)| imbalance < *b) {
                best = Some((imbalance, points));
            }
            if imbalance <= BALANCED {
                break;
            }
        }
        best.map(|(_, points)| points)
    }

    /// Swap2's chooser facing three stones (white to move): take black, keep white and play,
    /// or place two more stones (see the module documentation). Returns `None` when the game
    /// is over or white has no legal move.
    pub fn choose_after_three(
        &mut self,
        game: &Game,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Option<ThreeStoneChoice> {
        if game.result().is_some() || game.to_move() != Color::White {
            return None;
        }
        let half = limits.shared(2);
        let r = self.search(game, Level::Master, half, cancel, seed);
        let white = r.best?;
        if r.score < -BALANCED {
            return Some(ThreeStoneChoice::TakeBlack);
        }
        if r.score > BALANCED {
            return Some(ThreeStoneChoice::PlayWhite(white));
        }
        let mut after = game.clone();
        if after.try_play(white).is_err() || after.result().is_some() {
            return Some(ThreeStoneChoice::PlayWhite(white));
        }
        // Black's candidate answers, each scored for black; keep the one closest to even.
        let lines = self.analyze(&after, 3, half, cancel, seed);
        let black = lines.iter().min_by_key(|l| l.score.abs())?.best?;
        Some(ThreeStoneChoice::PlaceTwo([white, black]))
    }

    /// A colour choice with white to move (Swap2 after five stones, Swap after three): white
    /// and its move when the search scores white at 0 or better, else black. `None` when the
    /// game is over or it is black's turn.
    pub fn choose_colour(
        &mut self,
        game: &Game,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Option<ColourChoice> {
        if game.result().is_some() || game.to_move() != Color::White {
            return None;
        }
        let r = self.search(game, Level::Master, limits, cancel, seed);
        if prefers_black(r.score) {
            return Some(ColourChoice::Black);
        }
        r.best.map(ColourChoice::White)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[(u8, u8)]) -> Game {
        let pts: Vec<Point> = moves.iter().map(|&(x, y)| Point::new(x, y)).collect();
        Game::from_moves(Rule::Freestyle, 15, &pts).unwrap()
    }

    fn no() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn the_opening_is_three_legal_central_stones_the_search_calls_balanced() {
        let limits = Limits::nodes(200_000);
        let share = limits.shared(CANDIDATES);
        let mut balanced = 0;
        for seed in 0..4 {
            let stones = Engine::new(8)
                .propose_opening(Rule::Freestyle, 15, limits, &no(), seed)
                .unwrap();
            assert_eq!(stones.len(), 3);
            assert!(stones
                .iter()
                .all(|p| p.x().abs_diff(7) <= 4 && p.y().abs_diff(7) <= 4));
            let g = Game::from_moves(Rule::Freestyle, 15, &stones).unwrap();
            assert!(g.result().is_none());
            // The candidates in the opener's order, each searched with the same budget by a
            // fresh engine (so with the same table state): the proposal is the first one
            // scored within BALANCED, or the most balanced of them when none is.
            let mut e = Engine::new(8);
            let mut scored: Vec<(i32, Vec<Point>)> = Vec::new();
            for (c, points) in candidates(Rule::Freestyle, 15, seed) {
                if scored.last().is_some_and(|s| s.0 <= BALANCED) {
                    break;
                }
                let r = e.search(&c, Level::Master, share, &no(), seed);
                scored.push((r.score.abs(), points));
            }
            let (score, expected) = scored.iter().min_by_key(|s| s.0).unwrap();
            assert_eq!(&stones, expected, "seed {seed}: {scored:?}");
            if *score <= BALANCED {
                balanced += 1;
            }
        }
        // Most seeds find a balanced opening among their candidates.
        assert!(balanced >= 3, "{balanced} of 4 balanced");
        // Deterministic under a node limit.
        let a = Engine::new(8).propose_opening(Rule::Renju, 15, Limits::nodes(80_000), &no(), 3);
        let b = Engine::new(8).propose_opening(Rule::Renju, 15, Limits::nodes(80_000), &no(), 3);
        assert_eq!(a, b);
        // Cancelled before any candidate was searched: nothing to propose.
        let cancelled = AtomicBool::new(true);
        assert!(Engine::new(1)
            .propose_opening(Rule::Freestyle, 15, Limits::nodes(1000), &cancelled, 1)
            .is_none());
    }

    /// White to move, lost: black has two open threes (h8-j8 across, h8-h10 up) and white
    /// only corner stones.
    fn lost_for_white() -> Game {
        game(&[
            (7, 7),
            (0, 0),
            (8, 7),
            (14, 0),
            (9, 7),
            (0, 14),
            (7, 8),
            (14, 14),
            (7, 9),
        ])
    }

    /// White to move, won: white has an open three (g8-i8), black only corner stones.
    fn won_for_white() -> Game {
        game(&[(0, 0), (6, 7), (14, 0), (7, 7), (0, 14), (8, 7), (14, 14)])
    }

    #[test]
    fn the_colour_choice_never_takes_the_side_its_search_calls_lost() {
        let mut e = Engine::new(8);
        let limits = Limits::nodes(100_000);
        let lost = lost_for_white();
        assert_eq!(lost.to_move(), Color::White);
        assert_eq!(
            e.choose_colour(&lost, limits, &no(), 1),
            Some(ColourChoice::Black)
        );
        let won = won_for_white();
        assert_eq!(won.to_move(), Color::White);
        let Some(ColourChoice::White(p)) = e.choose_colour(&won, limits, &no(), 1) else {
            panic!("white wins here and should be kept");
        };
        let mut g = won.clone();
        g.try_play(p).unwrap();
        let r = e.search(&g, Level::Master, limits, &no(), 1);
        assert!(
            r.score < -BALANCED,
            "black should be lost after {p:?}: {}",
            r.score
        );
        // Not white's turn, or the game is over: no choice to make.
        assert_eq!(
            e.choose_colour(&game(&[(7, 7), (8, 8)]), limits, &no(), 1),
            None
        );
        assert!(prefers_black(-1));
        assert!(!prefers_black(0));
    }

    #[test]
    fn the_chooser_takes_black_keeps_white_or_hands_back_a_balanced_choice() {
        let mut e = Engine::new(8);
        let limits = Limits::nodes(120_000);
        assert_eq!(
            e.choose_after_three(&lost_for_white(), limits, &no(), 1),
            Some(ThreeStoneChoice::TakeBlack)
        );
        let Some(ThreeStoneChoice::PlayWhite(p)) =
            e.choose_after_three(&won_for_white(), limits, &no(), 1)
        else {
            panic!("white wins here and should be kept");
        };
        assert!(p == Point::new(5, 7) || p == Point::new(9, 7), "{p:?}");
        // A central opening the search scores near even: any answer is legal, and placing two
        // stones leaves a game in progress with white to move.
        for seed in 0..3 {
            let stones = e
                .propose_opening(Rule::Freestyle, 15, limits, &no(), seed)
                .unwrap();
            let g = Game::from_moves(Rule::Freestyle, 15, &stones).unwrap();
            match e.choose_after_three(&g, limits, &no(), seed).unwrap() {
                ThreeStoneChoice::TakeBlack => {}
                ThreeStoneChoice::PlayWhite(p) => assert!(g.clone().try_play(p).is_ok()),
                ThreeStoneChoice::PlaceTwo([w, b]) => {
                    let mut five = g.clone();
                    five.try_play(w).unwrap();
                    five.try_play(b).unwrap();
                    assert!(five.result().is_none());
                    assert_eq!(five.to_move(), Color::White);
                }
            }
        }
    }
}
