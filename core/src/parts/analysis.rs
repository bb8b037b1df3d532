//! Analysis mode: the engine thinks about the position on screen in the background, in rounds
//! of growing budgets, until the position changes or the player turns it off.
//!
//! [`Analysis`] owns the running job: [`Analysis::begin`] hands out an [`AnalysisJob`] (a copy
//! of the position, a cancel flag and a generation number) and cancels the one before it; the
//! command layer runs the job's rounds on the blocking pool with its own engine
//! ([`AnalysisJob::run_rounds`]), never holding the state lock while
//! it searches, so a tap is never kept waiting. Every change of the position (a move, undo,
//! redo, a new game, an import) raises the running job's cancel flag: its round stops at once
//! and nothing more is sent for it. A round is sent only if [`Analysis::is_current`]
//! still says yes, and the UI drops any update whose generation or position it no longer shows.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use wuzi::ai::review::expected_score;
use wuzi::{Color, Engine, Game, Limits, SearchResult};

use crate::parts::engine::EngineSlot;
use crate::view::{AnalysisLine, AnalysisUpdate};

/// The budget of each round (all lines together): the first answer comes quickly, later ones
/// are deeper; after the last the analysis rests (about 20 s of work in all).
pub const ROUND_BUDGETS_MS: [u64; 7] = [150, 300, 600, 1200, 2400, 4800, 9600];

/// Lines (distinct first moves) per round: the candidates marked on the board.
pub const ANALYSIS_LINES: usize = 3;

/// A running analysis, as [`Analysis`] knows it.
#[derive(Debug)]
struct RunningAnalysis {
    generation: u64,
    cancel: Arc<AtomicBool>,
}

/// An analysis to run off the lock.
#[derive(Debug)]
pub struct AnalysisJob {
    game: Game,
    game_id: u64,
    move_number: usize,
    generation: u64,
    cancel: Arc<AtomicBool>,
}

impl AnalysisJob {
    /// Its generation: `start_analysis`'s answer, carried by every update.
    #[must_use]
    pub const fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether the job was cancelled (the position changed, or the analysis was stopped).
    #[must_use]
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// Runs round `round` (0-based, below [`ROUND_BUDGETS_MS`]`.len()`) and describes it, or
    /// `None` if it was cancelled meanwhile (a cut-short round is never shown).
    pub fn run_round(&self, engine: &mut Engine, round: usize) -> Option<AnalysisUpdate> {
        let budget = Duration::from_millis(ROUND_BUDGETS_MS[round]);
        let lines = engine.analyze(
            &self.game,
            ANALYSIS_LINES,
            Limits::time(budget),
            &self.cancel,
            self.generation,
        );
        if self.cancelled() {
            return None;
        }
        Some(self.update(&lines, round))
    }

    /// Runs the rounds with `engine`, handing each finished one to `send` while `wanted` says
    /// the job is still current; stops when the job is cancelled, `send` fails (the webview is
    /// gone), the engine panics or the rounds are done.
    pub fn run_rounds(
        &self,
        engine: &mut EngineSlot,
        mut wanted: impl FnMut(&AnalysisJob) -> bool,
        mut send: impl FnMut(AnalysisUpdate) -> bool,
    ) {
        for round in 0..ROUND_BUDGETS_MS.len() {
            let Some(Some(update)) = engine.run(|e| self.run_round(e, round)) else {
                return;
            };
            if !wanted(self) || !send(update) {
                return;
            }
        }
    }

    /// The update for the `lines` found in round `round`.
    #[must_use]
    pub fn update(&self, lines: &[SearchResult], round: usize) -> AnalysisUpdate {
        let size = self.game.size();
        let to_move = self.game.to_move();
        let for_black = |score: i32| {
            if to_move == Color::Black {
                score
            } else {
                -score
            }
        };
        let nodes: u64 = lines.iter().map(|r| r.nodes).sum();
        let elapsed: Duration = lines.iter().map(|r| r.elapsed).sum();
        let black_score = lines.first().map_or(0, |r| for_black(r.score));
        AnalysisUpdate {
            generation: self.generation,
            game_id: self.game_id,
            move_number: self.move_number,
            to_move,
            round: u32::try_from(round + 1).unwrap_or(u32::MAX),
            done: round + 1 == ROUND_BUDGETS_MS.len(),
            depth: lines.iter().map(|r| r.depth).max().unwrap_or(0),
            nodes,
            nps: u64::try_from(u128::from(nodes) * 1000 / elapsed.as_millis().max(1))
                .unwrap_or(u64::MAX),
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            black_score,
            black_win: expected_score(black_score),
            lines: lines
                .iter()
                .filter_map(|r| {
                    Some(AnalysisLine {
                        point: r.best?.rif(size).to_string(),
                        score: r.score,
                        black_score: for_black(r.score),
                        win: expected_score(r.score),
                        depth: r.depth,
                        verdict: r.verdict.into(),
                        pv: r.pv.iter().map(|p| p.rif(size).to_string()).collect(),
                    })
                })
                .collect(),
        }
    }
}

/// Analysis as the app core owns it: whether it is on, and the running job, if any.
#[derive(Debug, Default)]
pub struct Analysis {
    /// The running job, if any.
    running: Option<RunningAnalysis>,
    /// The generation of the latest job handed out.
    generation: u64,
    /// Analysis was started and not stopped since the last new game: moves played now mark
    /// the game as analysed.
    on: bool,
}

impl Analysis {
    /// Hands out a job analysing `game` (position `move_number` of game `game_id`) and cancels
    /// the one before it; analysis is on from now.
    pub fn begin(&mut self, game: Game, game_id: u64, move_number: usize) -> AnalysisJob {
        self.cancel_job();
        self.generation += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(RunningAnalysis {
            generation: self.generation,
            cancel: Arc::clone(&cancel),
        });
        self.on = true;
        AnalysisJob {
            game,
            game_id,
            move_number,
            generation: self.generation,
            cancel,
        }
    }

    /// Whether `job`'s rounds are still wanted: it is the latest job and its position has not
    /// changed.
    #[must_use]
    pub fn is_current(&self, job: &AnalysisJob) -> bool {
        !job.cancelled()
            && self
                .running
                .as_ref()
                .is_some_and(|a| a.generation == job.generation)
    }

    /// Turns analysis off: the running job stops.
    pub fn stop(&mut self) {
        self.cancel_job();
        self.on = false;
    }

    /// Whether analysis is on (started and not stopped since the last new game).
    #[must_use]
    pub const fn is_on(&self) -> bool {
        self.on
    }

    /// Stops the running job (the position it analyses is gone); analysis stays on, and the
    /// UI starts the next job for the new position.
    pub fn cancel_job(&mut self) {
        if let Some(running) = self.running.take() {
            running.cancel.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_job_or_a_change_cancels_the_one_before_and_stop_turns_analysis_off() {
        let mut a = Analysis::default();
        assert!(!a.is_on());
        let game = Game::new(wuzi::Rule::Renju, 15).unwrap();
        let first = a.begin(game.clone(), 1, 0);
        assert!(a.is_on() && a.is_current(&first));
        let second = a.begin(game.clone(), 1, 0);
        assert!(second.generation() > first.generation());
        assert!(first.cancelled() && !a.is_current(&first) && a.is_current(&second));
        a.cancel_job();
        assert!(second.cancelled() && !a.is_current(&second) && a.is_on());
        let third = a.begin(game, 1, 0);
        a.stop();
        assert!(third.cancelled() && !a.is_on());
    }
}
