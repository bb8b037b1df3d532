//! [`Engine`]: the AI's public entry point.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::ai::level::{Level, Limits};
use crate::ai::params::Params;
use crate::ai::position::{Position, Threat};
use crate::ai::search::{Config, Heuristics, Searcher, ThreadResult, MATE, MATE_BOUND};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::Table;
use crate::ai::verdict::Verdict;
use crate::{Board, Color, Game, Point, Rule};
use beginner::beginner;
use smp::Helper;

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
///
/// Master searches with several threads when it has a time limit (Lazy SMP over the shared
/// transposition table, see [`Engine::set_threads`]); every other search is single-threaded.
#[derive(Debug)]
pub struct Engine {
    tt: Table,
    threats: ThreatSearch,
    heur: Heuristics,
    /// Requested search threads; 0 = automatic.
    threads: usize,
    /// Per-helper state, kept across searches like the main thread's.
    helpers: Vec<Helper>,
    /// Search constants (tuning runs change them).
    params: Params,
}

/// Most search threads an engine uses, whatever is asked.
pub const MAX_THREADS: usize = 64;

/// Most threads the automatic setting uses: phones have 6-8 cores and beyond 8 a Lazy SMP
/// search gains little per thread.
const AUTO_THREADS_CAP: usize = 8;

/// The automatic thread count, asked of the system once: on Linux
/// `available_parallelism` reads cgroup files on every call.
fn auto_threads() -> usize {
    static AUTO: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *AUTO.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(AUTO_THREADS_CAP)
    })
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

/// Easy's evaluation noise. The fitted renju tables made Easy's depth-2 search nearly as
/// good as Medium's (Medium scored 52.5% against it with noise ±60); ±300 restores the
/// ladder step (renju, 40 games, seeds 1-3: Medium 87.5%, 82.5%, 80.0%; Easy against
/// Beginner 100%, 95%, 97.5%).
const EASY_NOISE: i32 = 300;

impl Engine {
    /// An engine whose transposition table uses about `tt_mib` MiB (at least 1).
    #[must_use]
    pub fn new(tt_mib: usize) -> Engine {
        Engine {
            tt: Table::new(tt_mib),
            threats: ThreatSearch::new(1 << 18),
            heur: Heuristics::default(),
            threads: 0,
            helpers: Vec::new(),
            params: Params::default(),
        }
    }

    /// Forgets everything learnt in earlier searches (tables, history).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threats.clear();
        self.heur.clear();
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// Sets how many threads Master searches with: `n` (at most [`MAX_THREADS`]), or 0 for
    /// the automatic choice (the default): the machine's available parallelism, at most 8,
    /// when the search has a time limit, one thread otherwise.
    ///
    /// Whatever is set, a search uses one thread when it must be reproducible or keep its
    /// calibrated strength: below Master, and whenever [`Limits::nodes`] is set (a node
    /// budget is a single thread's count, and node-limited searches are deterministic).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.min(MAX_THREADS);
    }

    /// Replaces the search constants (the defaults are what self-play accepted; tuning runs
    /// try others).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// The search constants in use.
    #[must_use]
    pub const fn params(&self) -> &Params {
        &self.params
    }

    /// The thread count set by [`Engine::set_threads`] (0 = automatic).
    #[must_use]
    pub const fn threads(&self) -> usize {
        self.threads
    }

    /// How many threads a search at `level` within `limits` will use.
    #[must_use]
    pub fn threads_for(&self, level: Level, limits: Limits) -> usize {
        if level != Level::Master || limits.nodes.is_some() {
            return 1;
        }
        match self.threads {
            0 if limits.time.is_some() => auto_threads(),
            0 => 1,
            n => n,
        }
    }

    fn config(level: Level, limits: Limits, seed: u64, params: &Params) -> Config {
        let cap = depth_cap(level);
        let max_depth = limits.depth.map_or(cap, |d| d.clamp(1, cap));
        let base = Config {
            max_depth,
            time: limits.time,
            soft: limits.target,
            nodes: limits.nodes,
            root_vcf_depth: 0,
            root_vct: (0, 0),
            extensions: false,
            selective: false,
            root_defence: false,
            width: 12,
            noise: 0,
            seed,
            params: params.clone(),
            exclude: Vec::new(),
        };
        match level {
            Level::Beginner => Config {
                noise: 60,
                width: 10,
                ..base
            },
            Level::Easy => Config {
                noise: EASY_NOISE,
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
                selective: true,
                root_vcf_depth: 255,
                root_vct: (6, 200_000),
                root_defence: true,
                width: 0,
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
        self.search_excluding(board, rule, to_move, level, limits, cancel, seed, &[])
    }

    /// The best lines of the position in `game` for analysis (multi-PV): up to `lines`
    /// results with distinct first moves, best first. Each line is a Master search with the
    /// earlier lines' moves excluded at the root, so a forced win found at the root is the
    /// first line. `limits` is shared equally among the lines (each keeps at least 1 ms and
    /// 1 node); later lines reuse the transposition table. Fewer lines come back when the
    /// position has fewer legal moves or `cancel` is raised; none when the game is over.
    ///
    /// Every line after the first is a move the search ranked. When the opponent threatens
    /// five, only a five of one's own or the block of the one five point holds off the loss;
    /// the search does not rank the other moves (each loses at once), so they are no lines,
    /// and a forced block comes back alone: the only move.
    ///
    /// # Examples
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use wuzi::{Game, Engine, Limits, Point, Rule};
    ///
    /// let mut game = Game::new(Rule::Freestyle, 15).unwrap();
    /// game.try_play(Point::center(15)).unwrap();
    /// let lines = Engine::new(8).analyze(&game, 3, Limits::nodes(30_000), &AtomicBool::new(false), 1);
    /// assert_eq!(lines.len(), 3);
    /// assert!(lines[0].score >= lines[1].score && lines[1].score >= lines[2].score);
    /// ```
    pub fn analyze(
        &mut self,
        game: &Game,
        lines: usize,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
    ) -> Vec<SearchResult> {
        if game.result().is_some() {
            return Vec::new();
        }
        let lines = lines.max(1);
        let share = limits.shared(lines);
        let holds = not_lost_at_once(game);
        let mut exclude: Vec<u16> = Vec::with_capacity(lines);
        let mut out: Vec<SearchResult> = Vec::with_capacity(lines);
        while out.len() < lines && !cancel.load(Ordering::Relaxed) {
            let r = self.search_excluding(
                game.board(),
                game.rule(),
                game.to_move(),
                Level::Master,
                share,
                cancel,
                seed,
                &exclude,
            );
            let Some(best) = r.best else { break };
            if !out.is_empty() && !holds(best) {
                // An unranked move the search settled as a loss: no candidate.
                break;
            }
            exclude.push(Board::index_of(best) as u16);
            out.push(r);
        }
        // Each line had its own search; a later one may score above an earlier one.
        out.sort_by_key(|r| std::cmp::Reverse(r.score));
        out
    }

    /// [`Engine::search_board`] never choosing a root move in `exclude` (padded indices).
    #[allow(clippy::too_many_arguments)]
    fn search_excluding(
        &mut self,
        board: &Board,
        rule: Rule,
        to_move: Color,
        level: Level,
        limits: Limits,
        cancel: &AtomicBool,
        seed: u64,
        exclude: &[u16],
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = Position::new(board, rule, to_move);
        let out = if level == Level::Beginner {
            beginner(&mut pos, seed)
        } else {
            let mut cfg = Engine::config(level, limits, seed, &self.params);
            cfg.exclude = exclude.to_vec();
            let threads = self.threads_for(level, limits);
            if threads <= 1 {
                Searcher::new(cfg, &self.tt, &mut self.threats, &mut self.heur, cancel)
                    .run(&mut pos)
            } else {
                self.smp_search(&mut pos, cfg, threads, cancel)
            }
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

/// Which moves of the side to move in `game` do not lose at once: every move, unless the
/// opponent threatens five; then only the side to move's own fives and, when the opponent
/// has a single five point, its block.
fn not_lost_at_once(game: &Game) -> impl Fn(Point) -> bool {
    let me = game.to_move();
    let op = me.other();
    let pos = Position::new(game.board(), game.rule(), me);
    let threatened = pos.count(op, Threat::Five) > 0;
    let block = if pos.count(op, Threat::Five) == 1 {
        pos.find(op, Threat::Five)
    } else {
        None
    };
    move |p: Point| {
        let i = Board::index_of(p);
        !threatened || pos.threat(me, i) == Threat::Five || block == Some(i)
    }
}

fn verdict_of(out: &ThreadResult, to_move: Color) -> Verdict {
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

mod beginner;
mod smp;
#[cfg(test)]
mod tests;
