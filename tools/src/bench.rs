//! The deterministic search bench (`wuzi-tools bench`): fixed positions searched to a fixed
//! depth.
//!
//! The total node count is a fingerprint of the search's behaviour: any change to move
//! ordering, pruning or evaluation changes it, so it is recorded in `docs/bench-nodes.txt` and
//! a change shows up in review. Nodes per second is the speed figure.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi::ai::openings::piskvork_openings;
use wuzi::{Engine, Game, Level, Limits, Rule};

/// Positions searched by [`run`]: the first openings of the bundled list, on 15×15 under
/// freestyle and renju alternately.
pub const BENCH_POSITIONS: usize = 12;

/// The bench's totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth of every search.
    pub depth: u32,
    /// Search threads per position.
    pub threads: usize,
    /// Total nodes (search plus threat search, all threads).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The bench positions as games.
#[must_use]
pub fn positions() -> Vec<Game> {
    piskvork_openings()
        .iter()
        .filter_map(|o| o.points(15))
        .take(BENCH_POSITIONS)
        .enumerate()
        .filter_map(|(i, pts)| {
            let rule = if i % 2 == 0 {
                Rule::Freestyle
            } else {
                Rule::Renju
            };
            Game::from_moves(rule, 15, &pts).ok()
        })
        .collect()
}

/// Searches every bench position to `depth` at Master strength (uncapped depth, no evaluation
/// noise) with a fresh engine each time (single thread, no time limit), so the node count is
/// the same on every machine.
#[must_use]
pub fn run(depth: u32) -> BenchReport {
    run_threads(depth, 1)
}

/// [`run`] with `threads` search threads (Lazy SMP) per position. With more than one thread
/// each search ends when any thread completes `depth`, so the elapsed time is the
/// time-to-depth, the usual Lazy SMP measure; the node count then varies from run to run.
#[must_use]
pub fn run_threads(depth: u32, threads: usize) -> BenchReport {
    let threads = threads.clamp(1, wuzi::MAX_THREADS);
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let start = Instant::now();
    let games = positions();
    for game in &games {
        let mut engine = Engine::new(16);
        engine.set_threads(threads);
        nodes += engine.search(game, Level::Master, limits, &cancel, 0).nodes;
    }
    BenchReport {
        positions: games.len(),
        depth,
        threads,
        nodes,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let a = run(3);
        let b = run(3);
        assert_eq!(a.positions, BENCH_POSITIONS);
        assert_eq!((a.nodes, a.depth), (b.nodes, b.depth));
        assert!(a.nodes > 1000);
        assert_eq!(a.threads, 1);
    }
}
