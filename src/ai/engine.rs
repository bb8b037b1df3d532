//! [`Engine`]: the AI's public entry point.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::ai::level::{Level, Limits};
use crate::ai::position::{Position, Threat};
use crate::ai::search::{Config, Heuristics, Outcome, Searcher, MATE, MATE_BOUND};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::Table;
use crate::ai::verdict::Verdict;
use crate::{Board, Color, Game, Point, Rule};

/// The result of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when no legal move exists.
    pub best: Option<Point>,
    /// Score for the side to move (mate scores are `±(30000 - plies)`).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited, threat searches included.
    pub nodes: u64,
    /// Expected line, starting with `best`.
    pub pv: Vec<Point>,
    /// Short judgement for hints.
    pub verdict: Verdict,
    /// Wall-clock time used.
    pub elapsed: Duration,
}

/// The AI. Owns its transposition and threat tables; reuse one engine across moves.
#[derive(Debug)]
pub struct Engine {
    tt: Table,
    threats: ThreatSearch,
    heur: Heuristics,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(32)
    }
}

/// Deepest iteration each level may reach (Beginner does not search).
const fn depth_cap(level: Level) -> u32 {
    match level {
        Level::Beginner => 1,
        Level::Easy => 2,
        Level::Medium => 2,
        // Calibrated in renju self-play at the default budgets (docs/ladder.md). With the same
        // search, Master's 3x budget buys less than a ply: against an uncapped Hard it scored
        // only 65-67.5%, so Hard stops at depth 4; Medium stops at depth 2 (with its threat
        // extensions) to stay a clear step below that Hard.
        Level::Hard => 4,
        Level::Master => 60,
    }
}

impl Engine {
    /// An engine whose transposition table uses about `tt_mib` MiB (at least 1).
    #[must_use]
    pub fn new(tt_mib: usize) -> Engine {
        Engine {
            tt: Table::new(tt_mib),
            threats: ThreatSearch::new(1 << 18),
            heur: Heuristics::default(),
        }
    }

    /// Forgets everything learnt in earlier searches (tables, history).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threats.clear();
        self.heur.clear();
    }

    fn config(level: Level, limits: Limits, seed: u64) -> Config {
        let cap = depth_cap(level);
        let max_depth = limits.depth.map_or(cap, |d| d.clamp(1, cap));
        let base = Config {
            max_depth,
            time: limits.time,
            nodes: limits.nodes,
            root_vcf_depth: 0,
            root_vct: (0, 0),
            leaf_vcf_depth: 0,
            extensions: false,
            root_defence: false,
            width: 12,
            noise: 0,
            seed,
        };
        match level {
            Level::Beginner | Level::Easy => Config {
                noise: 60,
                width: 10,
                ..base
            },
            Level::Medium => Config {
                extensions: true,
                width: 12,
                noise: 60,
                ..base
            },
            Level::Hard => Config {
                extensions: true,
                root_vcf_depth: 255,
                root_defence: true,
                width: 16,
                noise: 35,
                ..base
            },
            Level::Master => Config {
                extensions: true,
                root_vcf_depth: 255,
                root_vct: (6, 200_000),
                root_defence: true,
                width: 16,
                ..base
            },
        }
    }

    /// Finds a move for the side to move in `game` at `level`, within `limits`.
    ///
    /// Stops when a limit is reached or `cancel` becomes true (polled every 1024 nodes) and
    /// returns the best move found so far. The move is always legal: never occupied, never
    /// forbidden for black under renju, and `None` only when the game is over or no legal
    /// move exists. With a node limit (and no time limit) the result depends only on the
    /// position, the level, the limits and `seed`.
    ///
    /// # Examples
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use wuzi::{Engine, Game, Level, Limits, Point, Rule};
    ///
    /// let mut game = Game::new(Rule::Renju, 15).unwrap();
    /// game.try_play(Point::center(15)).unwrap();
    /// let mut engine = Engine::new(8);
    /// let r = engine.search(&game, Level::Easy, Limits::nodes(5_000), &AtomicBool::new(false), 42);
    /// let reply = r.best.unwrap();
    /// assert!(game.board().is_empty_at(reply));
    /// println!("{} ({})", reply.rif(15), r.verdict);
    /// ```
    pub fn search(
        &mut self,
        game: &Game,
        level: Level,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> SearchResult {
        if let Some(result) = game.result() {
            let verdict = match result.winner {
                Some(color) => Verdict::Win {
                    color,
                    plies: 0,
                    by_fours: false,
                },
                None => Verdict::Eval {
                    score: 0,
                    to_move: game.to_move(),
                },
            };
            return SearchResult {
                best: None,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                verdict,
                elapsed: Duration::ZERO,
            };
        }
        self.search_board(
            game.board(),
            game.rule(),
            game.to_move(),
            level,
            limits,
            cancel,
            seed,
        )
    }

    /// Searches `board` with `to_move` to play under `rule` (see [`Engine::search`]); for
    /// callers that hold a bare board, such as the Gomocup protocol.
    ///
    /// The position is taken as given: the caller makes sure the game is not over.
    #[allow(clippy::too_many_arguments)]
    pub fn search_board(
        &mut self,
        board: &Board,
        rule: Rule,
        to_move: Color,
        level: Level,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = Position::new(board, rule, to_move);
        let out = if level == Level::Beginner {
            beginner(&mut pos, seed)
        } else {
            let cfg = Engine::config(level, limits, seed);
            Searcher::new(cfg, &self.tt, &mut self.threats, &mut self.heur, cancel)
                .run(&mut pos)
        };
        let verdict = verdict_of(&out, to_move);
        SearchResult {
            best: out.best.map(Board::point_of),
            score: out.score,
            depth: out.depth,
            nodes: out.nodes,
            pv: out.pv.iter().map(|&i| Board::point_of(i)).collect(),
            verdict,
            elapsed: start.elapsed(),
        }
    }
}

fn verdict_of(out: &Outcome, to_move: Color) -> Verdict {
    if out.score > MATE_BOUND {
        Verdict::Win {
            color: to_move,
            plies: (MATE - out.score) as u32,
            by_fours: out.by_fours,
        }
    } else if out.score < -MATE_BOUND {
        Verdict::Win {
            color: to_move.other(),
            plies: (MATE + out.score) as u32,
            by_fours: false,
        }
    } else {
        Verdict::Eval {
            score: out.score,
            to_move,
        }
    }
}

/// Beginner: one ply of pattern scoring with heavy randomness. It always takes a five, blocks
/// a five, and stops an open four from being made; everything subtler is left to chance.
fn beginner(pos: &mut Position, seed: u64) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed ^ pos.hash());
    let me = pos.to_move();
    let op = me.other();
    let pick = |pos: &Position, i: usize| Outcome {
        best: Some(i),
        score: crate::ai::eval::evaluate(pos),
        depth: 1,
        nodes: 1,
        pv: vec![i],
        by_fours: false,
    };
    if let Some(f) = pos.find(me, Threat::Five) {
        return pick(pos, f);
    }
    let mut cands: Vec<usize> = pos
        .points()
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| pos.is_empty(i) && pos.is_near(i))
        .collect();
    if let Some(b) = pos.find(op, Threat::Five) {
        cands = vec![b];
    } else if pos.count(me, Threat::Flex4) == 0 && pos.count(op, Threat::Flex4) > 0 {
        let blocks: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| pos.threat(op, i) == Threat::Flex4)
            .collect();
        if !blocks.is_empty() {
            cands = blocks;
        }
    }
    cands.retain(|&i| pos.is_legal(me, i));
    if cands.is_empty() {
        let centre = Board::index_of(Point::center(pos.board().size()));
        let any = std::iter::once(centre)
            .chain(pos.points().iter().map(|&i| i as usize))
            .find(|&i| pos.is_empty(i));
        let Some(any) = any.filter(|&i| pos.is_legal(me, i)).or_else(|| {
            let n = pos.points().len();
            (0..n).find_map(|k| {
                let i = pos.points()[k] as usize;
                (pos.is_empty(i) && pos.is_legal(me, i)).then_some(i)
            })
        }) else {
            return Outcome::default();
        };
        return pick(pos, any);
    }
    // Rank by a noisy one-ply score, then pick uniformly among the best few: good moves are
    // likely, the best one is not guaranteed, and nothing beyond one ply is seen.
    let mut scored: Vec<(i32, usize)> = cands
        .iter()
        .map(|&i| {
            let s = pos.cell_score(me, i) + pos.cell_score(op, i) / 2;
            (s * rng.gen_range(30..=100) / 100 + rng.gen_range(0..30), i)
        })
        .collect();
    scored.sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
    let best = scored[rng.gen_range(0..scored.len().min(4))].1;
    pick(pos, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forbidden_at;

    fn assert_send<T: Send>() {}

    #[test]
    fn engine_is_send() {
        assert_send::<Engine>();
    }

    /// Random legal games under every rule: whatever the level, the move is legal, and
    /// `None` only when no legal move exists.
    #[test]
    fn moves_are_always_legal() {
        let mut rng = StdRng::seed_from_u64(99);
        let mut engine = Engine::new(2);
        let cancel = AtomicBool::new(false);
        for (k, rule) in Rule::ALL.into_iter().cycle().take(12).enumerate() {
            let size = [7u8, 9, 15][k % 3];
            let mut game = Game::new(rule, size).unwrap();
            let plies = rng.gen_range(0..usize::from(size) * usize::from(size));
            for _ in 0..plies {
                let empties: Vec<Point> = Point::all(size)
                    .filter(|&p| game.check(p).is_ok())
                    .collect();
                if empties.is_empty() || game.is_over() {
                    break;
                }
                let _ = game.try_play(empties[rng.gen_range(0..empties.len())]);
            }
            if game.is_over() {
                continue;
            }
            let any_legal = Point::all(size).any(|p| game.check(p).is_ok());
            for level in Level::ALL {
                let r = engine.search(&game, level, Limits::nodes(2_000), &cancel, k as u64);
                match r.best {
                    None => assert!(!any_legal, "{rule} {level}: no move\n{}", game.board()),
                    Some(p) => {
                        assert!(game.board().is_empty_at(p), "{level} played on a stone");
                        if rule.has_forbidden(game.to_move()) {
                            let mut b = game.board().clone();
                            assert!(forbidden_at(&mut b, p).is_none(), "{level} forbidden {p:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cancelled_search_still_moves() {
        let mut game = Game::new(Rule::Renju, 15).unwrap();
        game.try_play(Point::center(15)).unwrap();
        let cancel = AtomicBool::new(true);
        let r = Engine::new(1).search(&game, Level::Master, Limits::default(), &cancel, 0);
        assert!(r.best.is_some_and(|p| game.board().is_empty_at(p)));
    }

    #[test]
    fn node_limited_search_is_deterministic() {
        let game = Game::from_moves(
            Rule::Freestyle,
            15,
            &[Point::new(7, 7), Point::new(8, 8), Point::new(8, 6)],
        )
        .unwrap();
        let cancel = AtomicBool::new(false);
        for level in [Level::Easy, Level::Hard, Level::Master] {
            let a = Engine::new(4).search(&game, level, Limits::nodes(20_000), &cancel, 5);
            let b = Engine::new(4).search(&game, level, Limits::nodes(20_000), &cancel, 5);
            assert_eq!(
                (a.best, a.nodes, a.score),
                (b.best, b.nodes, b.score),
                "{level}"
            );
        }
    }

    #[test]
    fn finished_game_has_no_move() {
        let moves: Vec<Point> = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
            (4, 0),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
        let game = Game::from_moves(Rule::Freestyle, 9, &moves).unwrap();
        assert!(game.is_over());
        let r = Engine::new(1).search(
            &game,
            Level::Hard,
            Limits::nodes(100),
            &AtomicBool::new(false),
            0,
        );
        assert_eq!(r.best, None);
        assert_eq!(r.verdict.to_string(), "black wins in 0");
    }
}
