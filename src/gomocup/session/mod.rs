//! The brain's side of a protocol session: the game, the rule, the clock, and what to answer.
//!
//! [`BrainSession::handle`] applies one parsed line and returns the lines to write plus what comes
//! next: nothing, a search ([`ThinkRequest`]), or the end of the process. The search itself
//! runs elsewhere ([`ThinkRequest::run`], on the driver's worker thread); its result comes back
//! through [`BrainSession::finish`], which checks the answer (never an occupied or marked point,
//! never a forbidden point for black under renju; the request's fallback replaces anything
//! else), plays it and formats the protocol line. Apart from [`ThinkRequest::run`], nothing here
//! blocks or spawns.
//!
//! The commands are handled by concern: `board` (`START`, `BEGIN`, `TURN`, `BOARD`, `TAKEBACK`),
//! `info` (`INFO`, and the problems reported with the next answer), `swap2` (`SWAP2BOARD`),
//! `think` (the search request and the checks on what comes back) and `reply` (the lines
//! written).

mod board;
mod info;
#[cfg(test)]
mod properties;
mod reply;
mod swap2;
#[cfg(test)]
mod testing;
mod think;

use std::time::Duration;

use super::command::{Command, ParseError, Parsed};
use super::time::{tt_mib_for, TimeControl};
use crate::{Game, Point, Rule};

pub use reply::{Reply, ABOUT};
pub use think::{Swap2Decision, ThinkKind, ThinkRequest, Thought};

/// Most `INFO` problems reported as messages after a `START`; later ones are only counted
/// (one "and N more" line per answer), so a flood of bad lines cannot flood the output.
const DEFERRED_MAX: usize = 32;

/// What the driver does after writing [`Response::replies`].
#[derive(Clone, Debug)]
pub enum Next {
    /// Wait for the next line.
    Idle,
    /// Search, then call [`BrainSession::finish`].
    Think(Box<ThinkRequest>),
    /// `END`: exit without writing anything more.
    Quit,
}

/// The answer to one parsed line.
#[derive(Clone, Debug)]
pub struct Response {
    /// Lines to write now, in order.
    pub replies: Vec<Reply>,
    /// What follows.
    pub next: Next,
}

impl Response {
    pub(super) fn idle(replies: Vec<Reply>) -> Response {
        Response {
            replies,
            next: Next::Idle,
        }
    }
}

/// A protocol session: one brain process, possibly several games.
#[derive(Clone, Debug)]
pub struct BrainSession {
    game: Option<Game>,
    rule: Rule,
    /// Field-3 points of the last `BOARD`: no stone of either side, but not playable.
    markers: Vec<Point>,
    clock: TimeControl,
    max_memory: u64,
    /// `INFO thread_num`, 0 when not sent.
    threads: usize,
    /// Match time this brain has spent thinking, for managers that send no `time_left`.
    used: Duration,
    /// `INFO` problems: the manager does not read answers to `INFO`, so they wait for the
    /// next command that has an answer and go out as `MESSAGE`s before it.
    deferred: Vec<String>,
    /// Messages deferred since `START`: past [`DEFERRED_MAX`] they are only counted.
    deferred_total: usize,
    /// Messages dropped and not yet reported.
    dropped: usize,
    next_id: u64,
    /// The outstanding request, if any.
    awaiting: Option<Awaiting>,
    /// Seeds Swap2's opening proposals: drawn once per process and stepped per proposal, so
    /// matches vary.
    swap2_seed: u64,
}

/// The outstanding request: its id and how to answer it.
#[derive(Clone, Debug)]
struct Awaiting {
    id: u64,
    task: Task,
}

/// What an outstanding request must end in, with the answer used when its search brings
/// nothing usable.
#[derive(Clone, Debug)]
enum Task {
    /// A move; `fallback` is a legal quick move.
    Move { fallback: Point },
    /// Swap2's three opening stones; `fallback` is the first table opening that fits.
    Opening { fallback: Vec<Point> },
    /// A Swap2 choice with white to move: after three stones (the two-stone option is open)
    /// or after five. Its fallback is `SWAP`, always a legal answer.
    Choice { after_three: bool },
}

impl Task {
    fn kind(&self) -> ThinkKind {
        match self {
            Task::Move { .. } => ThinkKind::Move,
            Task::Opening { .. } => ThinkKind::Swap2Opening,
            Task::Choice { after_three: true } => ThinkKind::Swap2AfterThree,
            Task::Choice { after_three: false } => ThinkKind::Swap2Colour,
        }
    }

    fn fallback(&self) -> Reply {
        match self {
            Task::Move { fallback } => Reply::Move(*fallback),
            Task::Opening { fallback } => Reply::Stones(fallback.clone()),
            Task::Choice { .. } => Reply::Swap,
        }
    }
}

impl Default for BrainSession {
    fn default() -> BrainSession {
        BrainSession::new()
    }
}

impl BrainSession {
    /// A session before `START`: freestyle, no time limits known.
    #[must_use]
    pub fn new() -> BrainSession {
        BrainSession::with_seed(rand::random())
    }

    /// [`BrainSession::new`] with Swap2 opening proposals seeded from `seed` (one step per
    /// proposal) instead of a random seed, so a session can be replayed.
    #[must_use]
    pub fn with_seed(seed: u64) -> BrainSession {
        BrainSession {
            game: None,
            rule: Rule::Freestyle,
            markers: Vec::new(),
            clock: TimeControl::default(),
            max_memory: 0,
            threads: 0,
            used: Duration::ZERO,
            deferred: Vec::new(),
            deferred_total: 0,
            dropped: 0,
            next_id: 1,
            awaiting: None,
            swap2_seed: seed,
        }
    }

    /// The current game, once `START` was accepted.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The rule in force (set by `INFO rule`).
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The clock as the manager described it.
    #[must_use]
    pub fn clock(&self) -> &TimeControl {
        &self.clock
    }

    /// The transposition-table size the engine should use.
    #[must_use]
    pub fn tt_mib(&self) -> usize {
        tt_mib_for(self.max_memory)
    }

    /// Whether a [`ThinkRequest`] is outstanding.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Applies one parsed line.
    ///
    /// While a search is outstanding the driver should pass only `INFO` lines (they take
    /// effect from the next move) and hold the rest until [`BrainSession::finish`]; a command that
    /// needs the board during a search is answered with an error.
    pub fn handle(&mut self, parsed: Parsed) -> Response {
        let command = match parsed {
            Parsed::Command(c) => c,
            Parsed::Error(ParseError::BadInfo { key, reason }) => {
                self.defer(format!("ignored INFO {key}: {reason}"));
                return Response::idle(Vec::new());
            }
            Parsed::Error(e) => return self.answer(Reply::Error(e.to_string())),
            Parsed::Unknown(m) => return self.answer(Reply::Unknown(m)),
        };
        if let Command::Info(info) = command {
            self.info(info);
            return Response::idle(Vec::new());
        }
        if matches!(command, Command::End) {
            return Response {
                replies: Vec::new(),
                next: Next::Quit,
            };
        }
        if matches!(command, Command::Stop) {
            // Nothing is running (the driver handles STOP during a search itself).
            return Response::idle(Vec::new());
        }
        if self.awaiting.is_some() {
            return self.answer(Reply::Error(
                "busy: the previous move is still being searched".into(),
            ));
        }
        match command {
            Command::Start(n) => self.start(n),
            Command::RectStart { width, height } => self.answer(Reply::Error(format!(
                "rectangular boards are not supported ({width}x{height}); use START"
            ))),
            Command::Restart => match &self.game {
                Some(g) => {
                    let size = g.size();
                    self.start(u32::from(size))
                }
                None => self.no_game(),
            },
            Command::Begin => self.begin(),
            Command::Turn(c) => self.turn(c),
            Command::Board(lines) => self.board(&lines),
            Command::Takeback(c) => self.takeback(c),
            Command::About => self.answer(Reply::About),
            Command::Swap2Board(coords) => self.swap2(&coords),
            Command::Info(_) | Command::End | Command::Stop => unreachable!("handled above"),
        }
    }

    /// Reports the search for request `id`: `thought` is `None` when the driver gave up
    /// waiting (or the search failed), `spent` the wall time the answer took. Returns the lines
    /// to write (the answer last: the request's fallback when the search brought nothing
    /// usable), or nothing for a stale or unknown `id`.
    pub fn finish(&mut self, id: u64, thought: Option<Thought>, spent: Duration) -> Vec<Reply> {
        if self.awaiting.as_ref().map(|a| a.id) != Some(id) {
            return Vec::new();
        }
        let task = self.awaiting.take().expect("checked above").task;
        self.used += spent;
        if self.game.is_none() {
            return vec![Reply::Error("no game".into())];
        }
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        let answer = match task {
            Task::Move { fallback } => self.finish_move(thought.as_ref(), fallback, &mut replies),
            Task::Opening { fallback } => {
                self.finish_opening(thought.and_then(|t| t.swap2), fallback, &mut replies)
            }
            Task::Choice { after_three } => {
                self.finish_choice(thought.and_then(|t| t.swap2), after_three, &mut replies)
            }
        };
        // The brain's own view of the turn, to compare with what the manager measures.
        replies.push(Reply::Debug(format!(
            "answered {} ms after the command",
            spent.as_millis()
        )));
        replies.push(answer);
        replies
    }

    fn answer(&mut self, reply: Reply) -> Response {
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        replies.push(reply);
        Response::idle(replies)
    }

    fn no_game(&mut self) -> Response {
        self.answer(Reply::Error("no game: send START first".into()))
    }
}

/// The deferred messages (see [`BrainSession::defer`]) as `MESSAGE` replies, and how many were
/// dropped.
fn take_deferred(deferred: &mut Vec<String>, dropped: &mut usize) -> Vec<Reply> {
    let mut replies: Vec<Reply> = std::mem::take(deferred)
        .into_iter()
        .map(Reply::Message)
        .collect();
    if *dropped > 0 {
        replies.push(Reply::Message(format!(
            "and {} more such messages",
            std::mem::take(dropped)
        )));
    }
    replies
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn busy_while_thinking() {
        let mut s = started();
        let req = request(run(&mut s, &["BEGIN"]));
        assert!(error(&run(&mut s, &["TURN 1,1"])).contains("busy"));
        // INFO still applies during a search.
        run(&mut s, &["INFO timeout_turn 2000"]);
        assert_eq!(s.clock().turn_ms, Some(2000));
        s.finish(req.id, thought(pt("h8")), Duration::ZERO);
        request(run(&mut s, &["TURN 1,1"]));
    }

    #[test]
    fn end_quits_and_unknown_is_unknown() {
        let mut s = started();
        assert!(matches!(run(&mut s, &["END"]).next, Next::Quit));
        let o = run(&mut s, &["FROB 1"]);
        assert!(matches!(o.replies[..], [Reply::Unknown(_)]));
    }
}
