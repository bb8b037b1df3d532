//! Handing a search to the driver and playing what comes back: the request, its one
//! blocking call, and the checks on a searched move.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{take_deferred, Awaiting, BrainSession, Next, Reply, Response, Task};
use crate::ai::swap2::{ColourChoice, ThreeStoneChoice};
use crate::ai::{quick_move, Engine, Level, Limits};
use crate::gomocup::time::Budget;
use crate::{forbidden_at, Draw, Game, Point};

/// What a [`ThinkRequest`] asks of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkKind {
    /// The best move for the side to move: [`Engine::search`] at the brain's level.
    Move,
    /// `SWAP2BOARD` with no stones: the opener's three stones, [`Engine::propose_opening`].
    Swap2Opening,
    /// `SWAP2BOARD` with three stones (white to move): take black, play white's fourth stone
    /// or place two more, [`Engine::choose_after_three`].
    Swap2AfterThree,
    /// `SWAP2BOARD` with five stones (white to move): take black or play white's sixth
    /// stone, [`Engine::choose_colour`].
    Swap2Colour,
}

/// A search the driver must run (with [`ThinkRequest::run`]), then report with
/// [`BrainSession::finish`].
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// Matches the request to its [`BrainSession::finish`] call; a result for an older id is
    /// dropped.
    pub id: u64,
    /// What to compute.
    pub kind: ThinkKind,
    /// The position, the brain to move (for [`ThinkKind::Swap2Opening`] the empty board, whose
    /// rule and size the opening is for).
    pub game: Game,
    /// The search's seed: the position's hash for moves and choices (the same position is
    /// played the same way), a per-process sequence for Swap2 openings (matches vary).
    pub seed: u64,
    /// Time for this answer, from when the command arrived ([`TimeControl::budget`](crate::gomocup::TimeControl::budget) for every
    /// kind: the Swap2 policies share it between their searches).
    pub budget: Budget,
    /// Transposition-table size the engine should have (from `INFO max_memory`).
    pub tt_mib: usize,
    /// Search threads (from `INFO thread_num`, sent by some managers such as Yixin-Board);
    /// 0 = the engine's automatic choice (the machine's cores, at most 8).
    pub threads: usize,
    /// The legal answer found without searching, given if the search fails or overruns: a
    /// quick move for [`ThinkKind::Move`], the first table opening that fits for
    /// [`ThinkKind::Swap2Opening`], and `SWAP` (always allowed) for the Swap2 choices.
    pub fallback: Reply,
}

impl ThinkRequest {
    /// Runs the request on `engine` within `limits`, stopping early when `cancel` is raised.
    /// `level` plays [`ThinkKind::Move`]; the Swap2 policies always search at Master, as the
    /// app's computer does, so that a fair opening does not depend on the level.
    ///
    /// This is the one blocking call of the module: the driver runs it on its worker thread,
    /// and its result goes to [`BrainSession::finish`], which checks it.
    pub fn run(
        &self,
        engine: &mut Engine,
        level: Level,
        limits: Limits,
        cancel: &AtomicBool,
    ) -> Thought {
        let started = std::time::Instant::now();
        let (game, seed) = (&self.game, self.seed);
        let swap2 = match self.kind {
            ThinkKind::Move => {
                let r = engine.search(game, level, limits, cancel, seed);
                return Thought {
                    best: r.best,
                    score: r.score,
                    depth: r.depth,
                    nodes: r.nodes,
                    pv: r.pv,
                    verdict: r.verdict.to_string(),
                    elapsed: r.elapsed,
                    swap2: None,
                };
            }
            ThinkKind::Swap2Opening => engine
                .propose_opening(game.rule(), game.size(), limits, cancel, seed)
                .map(Swap2Decision::Opening),
            ThinkKind::Swap2AfterThree => engine
                .choose_after_three(game, limits, cancel, seed)
                .map(Swap2Decision::AfterThree),
            ThinkKind::Swap2Colour => engine
                .choose_colour(game, limits, cancel, seed)
                .map(Swap2Decision::Colour),
        };
        Thought {
            swap2,
            elapsed: started.elapsed(),
            ..Thought::default()
        }
    }
}

/// What a search found, as the protocol reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// The move, if any.
    pub best: Option<Point>,
    /// Score from the brain's point of view.
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Point>,
    /// A short verdict ("black is better").
    pub verdict: String,
    /// Time the search took.
    pub elapsed: Duration,
    /// For a Swap2 request, the policy's decision (`None` when it had none, e.g. cancelled
    /// before deciding); the fields above then stay empty. Ignored for a move.
    pub swap2: Option<Swap2Decision>,
}

/// What the engine's Swap2 policy decided ([`crate::ai::swap2`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Decision {
    /// The opener's three stones (black, white, black).
    Opening(Vec<Point>),
    /// The chooser's answer to three stones.
    AfterThree(ThreeStoneChoice),
    /// The colour choice after five stones.
    Colour(ColourChoice),
}

impl BrainSession {
    /// A searched move, checked and played; the fallback when the search gave none or an
    /// illegal one.
    pub(super) fn finish_move(
        &mut self,
        thought: Option<&Thought>,
        fallback: Point,
        replies: &mut Vec<Reply>,
    ) -> Reply {
        let game = self.game.as_mut().expect("finish checks for a game");
        let searched = thought
            .and_then(|t| t.best)
            .filter(|&p| is_legal(game, &self.markers, p));
        let chosen = match (searched, thought) {
            (Some(p), _) => p,
            (None, Some(t)) => {
                replies.push(Reply::Debug(format!(
                    "search gave {}; playing the fallback move",
                    t.best.map_or("no move".to_string(), |p| format!(
                        "illegal {}",
                        p.gomocup()
                    ))
                )));
                fallback
            }
            (None, None) => {
                replies.push(Reply::Debug(
                    "no search result in time; playing the fallback move".into(),
                ));
                fallback
            }
        };
        if let Some(t) = thought {
            replies.push(Reply::Message(describe(t, game.size())));
        }
        match game.try_play(chosen) {
            Ok(_) => Reply::Move(chosen),
            Err(e) => Reply::Error(format!("cannot play {}: {e}", chosen.gomocup())),
        }
    }

    /// A move for the side to move.
    pub(super) fn think_move(&mut self) -> Response {
        self.think(|quick| Task::Move { fallback: quick })
    }

    /// A search in the current position (a move, or a Swap2 choice with white to move),
    /// unless the game is over or no legal move is left; `task` gets a quick legal move.
    pub(super) fn think(&mut self, task: impl FnOnce(Point) -> Task) -> Response {
        let game = self.game.as_ref().expect("callers check for a game");
        if let Some(result) = game.result() {
            let what = match result.winner {
                Some(c) => format!("{c} has won"),
                None => format!("it is a draw ({})", result.draw.unwrap_or(Draw::FullBoard)),
            };
            return self.answer(Reply::Error(format!("the game is over: {what}")));
        }
        let Some(quick) = quick_move(game, &self.markers) else {
            return self.answer(Reply::Error("no legal move left".into()));
        };
        let task = task(quick);
        // Same position, same seed: a rerun (TAKEBACK then TURN) plays the same way.
        let seed = game.board().hash();
        self.request(task, seed)
    }

    /// Hands `task` to the driver with the budget for the current position.
    pub(super) fn request(&mut self, task: Task, seed: u64) -> Response {
        let game = self.game.as_ref().expect("callers check for a game");
        let id = self.next_id;
        self.next_id += 1;
        let request = ThinkRequest {
            id,
            kind: task.kind(),
            game: game.clone(),
            seed,
            budget: self.clock.budget(game.moves().len(), self.used),
            tt_mib: self.tt_mib(),
            threads: self.threads,
            fallback: task.fallback(),
        };
        self.awaiting = Some(Awaiting { id, task });
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        let what = match request.kind {
            ThinkKind::Move => format!("{} to move", game.to_move()),
            ThinkKind::Swap2Opening => "swap2 opening".to_string(),
            ThinkKind::Swap2AfterThree => "swap2 choice after three stones".to_string(),
            ThinkKind::Swap2Colour => "swap2 choice after five stones".to_string(),
        };
        replies.push(Reply::Debug(format!(
            "{what}, aim {} ms, budget {} ms (cancel {} ms, answer by {} ms), table {} MiB",
            request.budget.target.as_millis(),
            request.budget.search.as_millis(),
            request.budget.cancel_after.as_millis(),
            request.budget.give_up_after.as_millis(),
            request.tt_mib
        )));
        Response {
            replies,
            next: Next::Think(Box::new(request)),
        }
    }
}

pub(super) fn is_legal(game: &Game, markers: &[Point], p: Point) -> bool {
    let board = game.board();
    if !board.is_empty_at(p) || markers.contains(&p) {
        return false;
    }
    if game.rule().has_forbidden(game.to_move()) {
        return forbidden_at(&mut board.clone(), p).is_none();
    }
    true
}

fn describe(t: &Thought, size: u8) -> String {
    let pv: Vec<String> = t.pv.iter().map(|p| p.rif(size).to_string()).collect();
    let ms = t.elapsed.as_millis().max(1);
    format!(
        "depth {} score {} nodes {} time {} ms nps {} verdict {} pv {}",
        t.depth,
        t.score,
        t.nodes,
        t.elapsed.as_millis(),
        u128::from(t.nodes) * 1000 / ms,
        if t.verdict.is_empty() {
            "-"
        } else {
            &t.verdict
        },
        if pv.is_empty() {
            "-".to_string()
        } else {
            pv.join(" ")
        }
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::Color;

    #[test]
    fn begin_searches_and_finish_plays_the_move() {
        let mut s = started();
        let req = request(run(&mut s, &["BEGIN"]));
        assert_eq!(req.game.moves().len(), 0);
        assert_eq!(req.fallback, Reply::Move(pt("h8")));
        assert!(s.is_thinking());
        let replies = s.finish(req.id, thought(pt("h8")), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Move(Point::new(7, 7))));
        assert!(matches!(&replies[0], Reply::Message(m) if m.contains("depth 3")));
        assert_eq!(s.game().unwrap().moves(), &[pt("h8")]);
        assert!(!s.is_thinking());
        // A second result for the same request is stale.
        assert!(s
            .finish(req.id, thought(pt("a1")), Duration::ZERO)
            .is_empty());
        // BEGIN again on a non-empty board is refused.
        assert!(error(&run(&mut s, &["BEGIN"])).contains("not empty"));
    }

    #[test]
    fn an_illegal_search_result_is_replaced_by_the_fallback() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        assert_eq!(req.game.to_move(), Color::White);
        // The engine "answers" the occupied centre: the fallback goes out instead.
        let replies = s.finish(req.id, thought(Point::new(7, 7)), Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback));
        assert_ne!(req.fallback, Reply::Move(Point::new(7, 7)));
        assert!(replies.iter().any(|r| matches!(r, Reply::Debug(_))));
        // No result at all (the driver gave up): also the fallback.
        let req = request(run(&mut s, &["TURN 0,0"]));
        let replies = s.finish(req.id, None, Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback));
        assert_eq!(s.game().unwrap().moves().len(), 4);
    }
}
