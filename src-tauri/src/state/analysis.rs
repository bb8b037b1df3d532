//! Analysis mode: the engine thinks about the position on screen in the background, in rounds
//! of growing budgets, until the position changes or the player turns it off.
//!
//! [`AppCore::begin_analysis`] hands out an [`AnalysisJob`] (a copy of the position, a cancel
//! flag and a generation number) and cancels the one before it; the command layer runs the
//! job's rounds on the blocking pool with its own engine, never holding the state lock while
//! it searches, so a tap is never kept waiting. Every change of the position (a move, undo,
//! redo, a new game, an import) raises the running job's cancel flag: its round stops at once
//! and nothing more is sent for it. A round is sent only if [`AppCore::analysis_current`]
//! still says yes, and the UI drops any update whose generation or position it no longer shows.

use std::time::Duration;

use wuzi::ai::review::expected_score;

use super::*;
use crate::view::{AnalysisLine, AnalysisUpdate};

/// The budget of each round (all lines together): the first answer comes quickly, later ones
/// are deeper; after the last the analysis rests (about 20 s of work in all).
pub const ROUND_BUDGETS_MS: [u64; 7] = [150, 300, 600, 1200, 2400, 4800, 9600];

/// Lines (distinct first moves) per round: the candidates marked on the board.
pub const ANALYSIS_LINES: usize = 3;

/// A running analysis, as the state knows it.
#[derive(Debug)]
pub(super) struct RunningAnalysis {
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

impl AppCore {
    /// Starts analysing the position after the first `move_number` moves of game `game_id`
    /// (the current position, or an earlier one shown in review); the analysis before it is
    /// cancelled.
    ///
    /// # Errors
    /// `stale` for another game or more moves than the game has, `gameOver` if that position
    /// is finished (there is nothing to analyse). Nothing changes then.
    pub fn begin_analysis(&mut self, game_id: u64, move_number: usize) -> Result<AnalysisJob> {
        if game_id != self.session.game_id || move_number > self.game.moves().len() {
            return Err(Error::Stale);
        }
        // Replayed from the game's start (a set-up position's stones included), so the job
        // carries no redo list and an earlier position (review) is built like the current one.
        let game = self.replayed(move_number)?;
        if game.result().is_some() {
            return Err(Error::GameOver);
        }
        self.cancel_analysis_job();
        self.analysis_generation += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        self.analysis = Some(RunningAnalysis {
            generation: self.analysis_generation,
            cancel: Arc::clone(&cancel),
        });
        self.analysis_on = true;
        Ok(AnalysisJob {
            game,
            game_id,
            move_number,
            generation: self.analysis_generation,
            cancel,
        })
    }

    /// Whether `job`'s rounds are still wanted: it is the latest analysis and its position has
    /// not changed.
    #[must_use]
    pub fn analysis_current(&self, job: &AnalysisJob) -> bool {
        !job.cancelled()
            && self
                .analysis
                .as_ref()
                .is_some_and(|a| a.generation == job.generation)
    }

    /// Turns analysis off: the running job stops, and moves played from now on no longer
    /// count as analysed.
    pub fn stop_analysis(&mut self) {
        self.cancel_analysis_job();
        self.analysis_on = false;
    }

    /// Whether analysis is on (started and not stopped since the last new game).
    #[must_use]
    pub const fn analysis_on(&self) -> bool {
        self.analysis_on
    }

    /// Stops the running job (the position it analyses is gone); analysis stays on, and the
    /// UI starts the next job for the new position.
    pub(super) fn cancel_analysis_job(&mut self) {
        if let Some(running) = self.analysis.take() {
            running.cancel.store(true, Ordering::SeqCst);
        }
    }
}
