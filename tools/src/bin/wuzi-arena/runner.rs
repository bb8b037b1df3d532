//! Playing pairs on worker threads.
//!
//! Each of `concurrency` workers takes the next pair index from a shared counter and plays
//! both of its games (A black, then B black) from the same opening, so the two games of a
//! pair never run at the same time and a pair's result is complete when it is reported.
//! Openings are used in a seeded random order, wrapping around when there are more pairs
//! than openings, so a run with a given seed plays the same openings in the same pair slots.
//! Results come back to the calling thread over a channel as pairs finish; the caller can
//! stop the run (an SPRT verdict), which aborts the games in flight and drops their pairs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use wuzi::ByColor;

use crate::brain::BrainSpec;
use crate::game::{self, GameConfig, GameRecord};
use crate::openings::Opening;

/// Everything a run needs besides its length.
#[derive(Debug)]
pub struct Arena {
    /// The conditions of every game.
    pub config: GameConfig,
    /// Engine A (the one the report scores).
    pub a: BrainSpec,
    /// Engine B.
    pub b: BrainSpec,
    /// The openings; never empty.
    pub openings: Vec<Opening>,
    /// Worker threads (pairs played at once).
    pub concurrency: usize,
    /// Seed of the opening order.
    pub seed: u64,
}

/// A finished pair.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// 0-based pair index.
    pub index: usize,
    /// Index into [`Arena::openings`].
    pub opening: usize,
    /// `[A as black, B as black]`.
    pub games: [GameRecord; 2],
}

impl PairResult {
    /// A's points in the pair times two (0..=4): the pentanomial bin.
    #[must_use]
    pub fn a_half_points(&self) -> usize {
        let [first, second] = &self.games;
        // First game: A is black; second game: A is white.
        let half = |g: &GameRecord, a: wuzi::Color| match g.winner {
            Some(w) if w == a => 2,
            Some(_) => 0,
            None => 1,
        };
        half(first, wuzi::Color::Black) + half(second, wuzi::Color::White)
    }
}

/// Whether to go on after a pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Play on.
    Continue,
    /// Stop: abort the games in flight and return.
    Stop,
}

impl Arena {
    /// Each engine's `timeout_turn` in ms, A's first ([`GameConfig::turn_of`]).
    #[must_use]
    pub fn turns(&self) -> [u64; 2] {
        [self.config.turn_of(&self.a), self.config.turn_of(&self.b)]
    }

    /// The opening order: every opening index once, shuffled by the seed.
    #[must_use]
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.openings.len()).collect();
        order.shuffle(&mut StdRng::seed_from_u64(self.seed));
        order
    }

    /// Plays up to `pairs` pairs, calling `on_pair` on this thread for each finished one, in
    /// the order they finish.
    pub fn run(&self, pairs: usize, mut on_pair: impl FnMut(PairResult) -> Flow) {
        let order = self.order();
        let next = AtomicUsize::new(0);
        let abort = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<PairResult>();
        thread::scope(|s| {
            for w in 0..self.concurrency.max(1) {
                let tx = tx.clone();
                let (order, next, abort) = (&order, &next, &abort);
                let spawned = thread::Builder::new()
                    .name(format!("worker {w}"))
                    .spawn_scoped(s, move || {
                        self.work(pairs, order, next, abort, &tx);
                    });
                if spawned.is_err() {
                    // Fewer workers than asked only makes the run slower.
                    break;
                }
            }
            drop(tx);
            for result in rx {
                if abort.load(Ordering::Relaxed) {
                    continue;
                }
                if on_pair(result) == Flow::Stop {
                    abort.store(true, Ordering::Relaxed);
                }
            }
        });
    }

    fn work(
        &self,
        pairs: usize,
        order: &[usize],
        next: &AtomicUsize,
        abort: &AtomicBool,
        tx: &mpsc::Sender<PairResult>,
    ) {
        loop {
            if abort.load(Ordering::Relaxed) {
                return;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= pairs {
                return;
            }
            let opening = order[index % order.len()];
            let start = &self.openings[opening].game;
            let a_black = ByColor {
                black: &self.a,
                white: &self.b,
            };
            let b_black = ByColor {
                black: &self.b,
                white: &self.a,
            };
            let Ok(first) = game::play(
                &self.config,
                start,
                a_black,
                &format!("pair{index}-game1"),
                abort,
            ) else {
                return;
            };
            let Ok(second) = game::play(
                &self.config,
                start,
                b_black,
                &format!("pair{index}-game2"),
                abort,
            ) else {
                return;
            };
            let result = PairResult {
                index,
                opening,
                games: [first, second],
            };
            if tx.send(result).is_err() {
                return;
            }
        }
    }
}
