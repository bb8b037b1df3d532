//! The computer's and the hint's searches as jobs run off the lock: a [`SearchJob`] carries a
//! copy of the position and everything the engine needs, and [`Searches`] owns the one running
//! slot, so an answer is accepted only for the search that is still wanted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use wuzi::ai::swap2::{ColourChoice, ThreeStoneChoice};
use wuzi::{Engine, Game, Level, Limits, Point, SearchResult};

use crate::error::{Error, Result};
use crate::parts::opening::Choice;

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// The computer's reply, played when it arrives.
    Move,
    /// Advice for the side to move, only reported.
    Hint,
}

/// A search to run off the lock: a copy of the position and everything the engine needs.
#[derive(Debug)]
pub struct SearchJob {
    pub(crate) game: Game,
    pub(crate) level: Level,
    pub(crate) limits: Limits,
    pub(crate) seed: u64,
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) game_id: u64,
    pub(crate) move_number: usize,
    /// The computer's action in the opening phase, when that is what it is asked for.
    pub(crate) opening: Option<OpeningTask>,
}

impl SearchJob {
    /// The flag that cancels this search, for [`Searches::abandon`].
    #[must_use]
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Runs the search; returns early (with the best move so far) once cancelled.
    pub fn run(&self, engine: &mut Engine) -> SearchResult {
        engine.search(&self.game, self.level, self.limits, &self.cancel, self.seed)
    }
}

/// The one search slot: at most one search (the computer's move or a hint) runs at a time.
#[derive(Debug, Default)]
pub struct Searches {
    running: Option<Arc<AtomicBool>>,
}

impl Searches {
    /// Takes the slot and hands out the cancel flag of the search that now holds it.
    ///
    /// # Errors
    /// [`Error::Busy`] while another search runs.
    pub fn begin(&mut self) -> Result<Arc<AtomicBool>> {
        if self.running.is_some() {
            return Err(Error::Busy);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(Arc::clone(&cancel));
        Ok(cancel)
    }

    /// Takes the finished `job` off the slot.
    ///
    /// # Errors
    /// [`Error::Cancelled`] if it was cancelled meanwhile.
    pub fn end(&mut self, job: &SearchJob) -> Result<()> {
        self.abandon(&job.cancel);
        if job.cancel.load(Ordering::SeqCst) {
            return Err(Error::Cancelled);
        }
        Ok(())
    }

    /// Frees the slot if it still holds this search (it may already be cancelled and
    /// replaced); the command layer calls it when a search failed to return at all.
    pub fn abandon(&mut self, job_cancel: &Arc<AtomicBool>) {
        if self
            .running
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, job_cancel))
        {
            self.running = None;
        }
    }

    /// Stops the running search, if any; its answer will be rejected as `cancelled`.
    pub fn cancel(&mut self) {
        if let Some(cancel) = self.running.take() {
            cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a search runs.
    #[must_use]
    pub const fn is_running(&self) -> bool {
        self.running.is_some()
    }
}

/// What the computer does when it acts in the phase, decided when its search is handed out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningTask {
    /// Propose stones 1–3 (the computer opens on an empty board).
    Propose,
    /// Answer three stones: Swap2's three-way choice.
    AfterThree,
    /// Pick a colour with white to move (Swap after three stones, Swap2 after five).
    Colour,
    /// Place one stone of the phase with an ordinary search (only after a save that stopped
    /// in the middle of the computer's stones, which it otherwise places at once).
    Stone,
}

/// The computer's action in the phase: a choice (if one is due), then stones in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningAction {
    /// The choice made, first.
    pub choice: Option<Choice>,
    /// The stones placed after it.
    pub stones: Vec<Point>,
}

/// A computer turn's answer: a move of the game, or an action of the opening phase.
#[derive(Clone, Debug)]
pub enum ComputerAnswer {
    /// The search's move.
    Move(SearchResult),
    /// The phase's action; `None` when the search was cancelled before it decided.
    Opening(Option<OpeningAction>),
}

/// Three stones for a board no known opening fits (the engine's openings are laid out for
/// boards of 15 and more): around the centre, in the shape of a quiet opening.
fn fallback_opening(size: u8) -> Vec<Point> {
    let c = size / 2;
    vec![
        Point::new(c, c),
        Point::new(c + 1, c - 1),
        Point::new(c + 1, c + 1),
    ]
}

impl SearchJob {
    /// Runs the computer's turn: its opening action when it acts in the phase, else its move.
    pub fn play(&self, engine: &mut Engine) -> ComputerAnswer {
        let Some(task) = self.opening else {
            return ComputerAnswer::Move(self.run(engine));
        };
        // A fair opening is the point of the rule: every level decides it with Master's
        // search at its budget (`SearchHandle::begin` gives the job Master's limits, within
        // what the clock leaves); the level shows in the moves after it.
        let limits = self.limits;
        let (game, cancel, seed) = (&self.game, &*self.cancel, self.seed);
        let action = match task {
            OpeningTask::Propose => {
                let stones = engine
                    .propose_opening(game.rule(), game.size(), limits, cancel, seed)
                    .unwrap_or_else(|| fallback_opening(game.size()));
                Some(OpeningAction {
                    choice: None,
                    stones,
                })
            }
            OpeningTask::AfterThree => engine
                .choose_after_three(game, limits, cancel, seed)
                // `None` only without a legal move for white, which the phase never
                // reaches: black is then the safe answer.
                .or(Some(ThreeStoneChoice::TakeBlack))
                .map(|c| match c {
                    ThreeStoneChoice::TakeBlack => OpeningAction {
                        choice: Some(Choice::Black),
                        stones: Vec::new(),
                    },
                    ThreeStoneChoice::PlayWhite(p) => OpeningAction {
                        choice: Some(Choice::White),
                        stones: vec![p],
                    },
                    ThreeStoneChoice::PlaceTwo(two) => OpeningAction {
                        choice: Some(Choice::PlaceTwo),
                        stones: two.to_vec(),
                    },
                }),
            OpeningTask::Colour => engine
                .choose_colour(game, limits, cancel, seed)
                .or(Some(ColourChoice::Black))
                .map(|c| match c {
                    ColourChoice::Black => OpeningAction {
                        choice: Some(Choice::Black),
                        stones: Vec::new(),
                    },
                    ColourChoice::White(p) => OpeningAction {
                        choice: Some(Choice::White),
                        stones: vec![p],
                    },
                }),
            OpeningTask::Stone => {
                let r = self.run(engine);
                r.best.map(|p| OpeningAction {
                    choice: None,
                    stones: vec![p],
                })
            }
        };
        ComputerAnswer::Opening(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(cancel: Arc<AtomicBool>) -> SearchJob {
        SearchJob {
            game: Game::new(wuzi::Rule::Freestyle, 15).unwrap(),
            level: Level::Beginner,
            limits: Limits::nodes(10),
            seed: 1,
            cancel,
            game_id: 1,
            move_number: 0,
            opening: None,
        }
    }

    #[test]
    fn one_search_at_a_time_and_a_cancelled_one_ends_as_cancelled() {
        let mut s = Searches::default();
        let first = job(s.begin().unwrap());
        assert!(matches!(s.begin(), Err(Error::Busy)));
        s.end(&first).unwrap();
        assert!(!s.is_running());
        let second = job(s.begin().unwrap());
        s.cancel();
        assert!(!s.is_running() && second.cancel.load(Ordering::SeqCst));
        assert!(matches!(s.end(&second), Err(Error::Cancelled)));
        // A stale job never frees a newer search's slot.
        let third = job(s.begin().unwrap());
        s.abandon(&second.cancel_flag());
        assert!(s.is_running());
        s.abandon(&third.cancel_flag());
        assert!(!s.is_running());
    }
}
