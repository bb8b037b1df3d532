//! `SWAP2BOARD`: the opener's three stones and the chooser's answers, by the engine's Swap2
//! policy.

use super::reply::{gomocup_points, rif_points};
use super::think::is_legal;
use super::{BrainSession, Reply, Response, Swap2Decision, Task};
use crate::ai::openings::piskvork_openings;
use crate::ai::swap2::{ColourChoice, ThreeStoneChoice};
use crate::gomocup::command::Coord;
use crate::{Game, Point, Rule};

impl BrainSession {
    /// `SWAP2BOARD` (the Gomocup Swap2 protocol), answered with the engine's Swap2 policy
    /// ([`crate::ai::swap2`], the same as the app's computer):
    /// - no stones: the opener's three stones, a known opening its search calls balanced;
    /// - three stones (black, white, black; white to move): `SWAP` (take black), white's
    ///   fourth stone, or two more stones (white, black) that hand the choice back;
    /// - five stones (white to move): `SWAP` or white's sixth stone.
    ///
    /// Each is a search on the driver's worker thread ([`ThinkKind`]), within the usual
    /// per-move budget.
    pub(super) fn swap2(&mut self, coords: &[Coord]) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        let (rule, size) = (g.rule(), g.size());
        let mut stones = Vec::with_capacity(coords.len());
        for &c in coords {
            match self.point(c) {
                Ok(p) => stones.push(p),
                Err(e) => return self.answer(Reply::Error(format!("SWAP2BOARD {e}"))),
            }
        }
        match stones.len() {
            0 => {
                let seed = self.swap2_seed;
                self.swap2_seed = self.swap2_seed.wrapping_add(1);
                // Answered if the search brings nothing usable: the first table opening, in
                // the policy's seeded order, that fits and avoids the markers.
                let openings = piskvork_openings();
                let n = openings.len();
                let fallback = (0..n).find_map(|k| {
                    let o = &openings[(seed as usize).wrapping_add(k) % n];
                    o.points(size)
                        .filter(|pts| opening_game(rule, size, &self.markers, pts).is_some())
                });
                let Some(fallback) = fallback else {
                    return self.answer(Reply::Error(
                        "SWAP2BOARD: no opening fits this board".into(),
                    ));
                };
                self.game = Some(Game::new(rule, size).expect("size was accepted before"));
                self.request(Task::Opening { fallback }, seed)
            }
            n @ (3 | 5) => match Game::from_moves(rule, size, &stones) {
                Ok(game) if game.result().is_none() => {
                    self.game = Some(game);
                    self.think(|_| Task::Choice {
                        after_three: n == 3,
                    })
                }
                Ok(_) => self.answer(Reply::Error(
                    "SWAP2BOARD: the stones already hold a five".into(),
                )),
                Err(e) => self.answer(Reply::Error(format!("SWAP2BOARD: {e}"))),
            },
            n => self.answer(Reply::Error(format!(
                "SWAP2BOARD with {n} stones: expected 0, 3 or 5"
            ))),
        }
    }

    /// Swap2's opening stones: the policy's if they are three free, legal stones that end
    /// nothing, else the fallback opening. The game becomes those three stones.
    pub(super) fn finish_opening(
        &mut self,
        decision: Option<Swap2Decision>,
        fallback: Vec<Point>,
        replies: &mut Vec<Reply>,
    ) -> Reply {
        let game = self.game.as_ref().expect("finish checks for a game");
        let (rule, size) = (game.rule(), game.size());
        let proposed = match decision {
            Some(Swap2Decision::Opening(stones)) => {
                match opening_game(rule, size, &self.markers, &stones) {
                    Some(g) => Some((stones, g)),
                    None => {
                        replies.push(Reply::Debug(format!(
                            "the proposed opening {} is not playable here; proposing the fallback",
                            gomocup_points(&stones)
                        )));
                        None
                    }
                }
            }
            other => {
                replies.push(Reply::Debug(format!(
                    "{}; proposing the fallback opening",
                    missing(other.as_ref())
                )));
                None
            }
        };
        let (stones, g) = match proposed {
            Some(p) => p,
            None => match opening_game(rule, size, &self.markers, &fallback) {
                Some(g) => (fallback, g),
                // Checked when the request was made, on the same board.
                None => return Reply::Error("SWAP2BOARD: no opening fits this board".into()),
            },
        };
        replies.push(Reply::Message(format!(
            "swap2: opening {}",
            rif_points(&stones, size)
        )));
        self.game = Some(g);
        Reply::Stones(stones)
    }

    /// A Swap2 choice with white to move: `SWAP`, white's stone, or (after three stones) two
    /// more stones, each stone checked as a move is; `SWAP` when the policy gave nothing usable.
    pub(super) fn finish_choice(
        &mut self,
        decision: Option<Swap2Decision>,
        after_three: bool,
        replies: &mut Vec<Reply>,
    ) -> Reply {
        let game = self.game.as_ref().expect("finish checks for a game");
        let size = game.size();
        let stones = match decision {
            Some(
                Swap2Decision::AfterThree(ThreeStoneChoice::TakeBlack)
                | Swap2Decision::Colour(ColourChoice::Black),
            ) => Vec::new(),
            Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlayWhite(p))) if after_three => {
                vec![p]
            }
            Some(Swap2Decision::Colour(ColourChoice::White(p))) if !after_three => vec![p],
            Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo(two))) if after_three => {
                two.to_vec()
            }
            other => {
                replies.push(Reply::Debug(format!(
                    "{}; answering SWAP",
                    missing(other.as_ref())
                )));
                Vec::new()
            }
        };
        if stones.is_empty() {
            replies.push(Reply::Message("swap2: takes black (SWAP)".into()));
            return Reply::Swap;
        }
        // Every stone must be playable in turn: free, unmarked, not forbidden to its colour.
        let mut after = game.clone();
        for &p in &stones {
            if !is_legal(&after, &self.markers, p) || after.try_play(p).is_err() {
                replies.push(Reply::Debug(format!(
                    "the policy gave the illegal {}; answering SWAP",
                    gomocup_points(&stones)
                )));
                return Reply::Swap;
            }
        }
        if stones.len() == 2 && after.result().is_some() {
            replies.push(Reply::Debug(format!(
                "the two stones {} end the game; answering SWAP",
                gomocup_points(&stones)
            )));
            return Reply::Swap;
        }
        replies.push(Reply::Message(if stones.len() == 2 {
            format!(
                "swap2: places {} and hands the choice of colour back",
                rif_points(&stones, size)
            )
        } else {
            format!("swap2: keeps white and plays {}", rif_points(&stones, size))
        }));
        self.game = Some(after);
        if stones.len() == 2 {
            Reply::Stones(stones)
        } else {
            Reply::Move(stones[0])
        }
    }
}

/// The game of a Swap2 opening's three stones under `rule` on a `size` board: `None` unless
/// they are three, on free unmarked points, legal, and end nothing.
fn opening_game(rule: Rule, size: u8, markers: &[Point], stones: &[Point]) -> Option<Game> {
    if stones.len() != 3 || stones.iter().any(|p| markers.contains(p)) {
        return None;
    }
    Game::from_moves(rule, size, stones)
        .ok()
        .filter(|g| g.result().is_none())
}

/// Why a Swap2 request has no usable decision: none came, or one for another request kind.
fn missing(decision: Option<&Swap2Decision>) -> String {
    match decision {
        None => "no Swap2 decision in time".to_string(),
        Some(d) => format!("a Swap2 decision of the wrong kind ({d:?})"),
    }
}

#[cfg(test)]
mod tests;
