//! The brain's side of a protocol session: the game, the rule, the clock, and what to answer.
//!
//! [`BrainSession::handle`] applies one parsed line and returns the lines to write plus what comes
//! next: nothing, a search ([`ThinkRequest`]), or the end of the process. The search itself
//! runs elsewhere ([`ThinkRequest::run`], on the driver's worker thread); its result comes back
//! through [`BrainSession::finish`], which checks the answer (never an occupied or marked point,
//! never a forbidden point for black under renju; the request's fallback replaces anything
//! else), plays it and formats the protocol line. Apart from [`ThinkRequest::run`], nothing here
//! blocks or spawns.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::command::{self, BoardLine, Command, Coord, Field, Info, ParseError, Parsed};
use super::time::{memory_too_small, tt_mib_for, Budget, TimeControl};
use crate::ai::openings::piskvork_openings;
use crate::ai::swap2::{ColourChoice, ThreeStoneChoice};
use crate::ai::{quick_move, Engine, Level, Limits};
use crate::{forbidden_at, Draw, Game, Point, Rule, MAX_SIZE, MIN_SIZE};

/// Most `INFO` problems reported as messages after a `START`; later ones are only counted
/// (one "and N more" line per answer), so a flood of bad lines cannot flood the output.
const DEFERRED_MAX: usize = 32;

/// The `ABOUT` answer.
pub const ABOUT: &str = concat!(
    "name=\"Wuzi\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"Wuzi developers\", country=\"International\", www=\"",
    env!("CARGO_PKG_REPOSITORY"),
    "\""
);

/// One line for the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// The brain's move, `x,y`.
    Move(Point),
    /// `ERROR message`: a known command the brain cannot carry out.
    Error(String),
    /// `UNKNOWN message`: a command the brain does not know.
    Unknown(String),
    /// `MESSAGE text`: for the user.
    Message(String),
    /// `DEBUG text`: for the brain's author.
    Debug(String),
    /// The [`ABOUT`] line.
    About,
    /// `SWAP`: under Swap2, the brain takes the colour that has just moved.
    Swap,
    /// Several stones on one line, `x,y x,y …`: Swap2's three opening stones, or the
    /// chooser's two more stones after three.
    Stones(Vec<Point>),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A message must stay one line: a stray line end would be read as the answer.
        let one_line = |s: &str| s.replace(['\r', '\n'], " ");
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(p) => write!(f, "{},{}", p.x(), p.y()),
            Reply::Error(m) => write!(f, "ERROR {}", one_line(m)),
            Reply::Unknown(m) => write!(f, "UNKNOWN {}", one_line(m)),
            Reply::Message(m) => write!(f, "MESSAGE {}", one_line(m)),
            Reply::Debug(m) => write!(f, "DEBUG {}", one_line(m)),
            Reply::About => f.write_str(ABOUT),
            Reply::Swap => f.write_str("SWAP"),
            Reply::Stones(points) => {
                let text: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", p.x(), p.y()))
                    .collect();
                f.write_str(&text.join(" "))
            }
        }
    }
}

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
    /// Time for this answer, from when the command arrived ([`TimeControl::budget`] for every
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
    fn idle(replies: Vec<Reply>) -> Response {
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

    /// A searched move, checked and played; the fallback when the search gave none or an
    /// illegal one.
    fn finish_move(
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

    /// Swap2's opening stones: the policy's if they are three free, legal stones that end
    /// nothing, else the fallback opening. The game becomes those three stones.
    fn finish_opening(
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
    fn finish_choice(
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

    /// Keeps a message for the next answer; a flood of bad `INFO` lines is counted, not
    /// echoed, so the output stays small whatever the input.
    fn defer(&mut self, message: String) {
        if self.deferred_total < DEFERRED_MAX {
            self.deferred_total += 1;
            self.deferred.push(message);
        } else {
            self.dropped += 1;
        }
    }

    fn answer(&mut self, reply: Reply) -> Response {
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        replies.push(reply);
        Response::idle(replies)
    }

    fn no_game(&mut self) -> Response {
        self.answer(Reply::Error("no game: send START first".into()))
    }

    fn start(&mut self, n: u32) -> Response {
        self.deferred_total = 0;
        let size = match u8::try_from(n) {
            Ok(s) if (MIN_SIZE..=MAX_SIZE).contains(&s) => s,
            _ => {
                return self.answer(Reply::Error(format!(
                    "unsupported board size {n} (use {MIN_SIZE} to {MAX_SIZE})"
                )))
            }
        };
        match Game::new(self.rule, size) {
            Ok(g) => {
                self.game = Some(g);
                self.markers.clear();
                self.used = Duration::ZERO;
                self.answer(Reply::Ok)
            }
            Err(e) => self.answer(Reply::Error(e.to_string())),
        }
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(t) => self.clock.turn_ms = Some(t),
            Info::TimeoutMatch(m) => self.clock.match_ms = Some(m),
            Info::TimeLeft(l) => self.clock.time_left_ms = Some(l),
            Info::MaxMemory(m) => {
                self.max_memory = m;
                if memory_too_small(m) {
                    self.defer(format!(
                        "max_memory {m} bytes is below what the brain needs; using a 1 MiB table"
                    ));
                }
            }
            Info::Rule(bits) => self.set_rule(bits),
            // Not in the protocol's list, but Yixin-Board and some managers send it.
            Info::Other { key, value } if key == "thread_num" => match value.parse::<usize>() {
                Ok(n) => self.threads = n,
                Err(_) => self.defer(format!(
                    "ignored INFO thread_num: {} is not a number",
                    command::quote(&value)
                )),
            },
            // game_type, evaluate (debug builds only) and folder change nothing here: the
            // brain plays the same against anyone and keeps no files.
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) | Info::Other { .. } => {}
        }
    }

    fn set_rule(&mut self, bits: u32) {
        let rule = rule_from_bits(bits);
        // The message names what is actually played, whatever the bits asked for.
        let mut unsupported = Vec::new();
        if bits & 8 != 0 {
            unsupported.push("caro (8)".to_string());
        }
        if bits & 2 != 0 && bits != 2 {
            unsupported.push("continuous game (2; the game ends at five)".to_string());
        }
        if bits & !15 != 0 {
            unsupported.push(format!("unknown bits {}", bits & !15));
        }
        if !unsupported.is_empty() {
            self.defer(format!(
                "INFO rule {bits}: {} not supported; playing {rule}",
                unsupported.join(", ")
            ));
        }
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(g) = &self.game {
            // Keep the stones if they are legal under the new rule; otherwise start afresh,
            // as the manager will send the position again anyway.
            let moves = g.moves().to_vec();
            let size = g.size();
            self.game = Some(match Game::from_moves(rule, size, &moves) {
                Ok(g) => g,
                Err(e) => {
                    self.defer(format!(
                        "position is not legal under {rule} ({e}); board cleared"
                    ));
                    Game::new(rule, size).expect("size was accepted before")
                }
            });
        }
    }

    fn point(&self, c: Coord) -> Result<Point, String> {
        let size = self.game.as_ref().map_or(0, Game::size);
        match (u8::try_from(c.x), u8::try_from(c.y)) {
            (Ok(x), Ok(y)) if x < size && y < size => Ok(Point::new(x, y)),
            _ => Err(format!("{c} is off the {size}x{size} board")),
        }
    }

    /// `SWAP2BOARD` (the Gomocup Swap2 protocol), answered with the engine's Swap2 policy
    /// ([`crate::ai::swap2`], the same as the app's computer):
    /// - no stones: the opener's three stones, a known opening its search calls balanced;
    /// - three stones (black, white, black; white to move): `SWAP` (take black), white's
    ///   fourth stone, or two more stones (white, black) that hand the choice back;
    /// - five stones (white to move): `SWAP` or white's sixth stone.
    ///
    /// Each is a search on the driver's worker thread ([`ThinkKind`]), within the usual
    /// per-move budget.
    fn swap2(&mut self, coords: &[Coord]) -> Response {
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

    fn begin(&mut self) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        if !g.moves().is_empty() || !self.markers.is_empty() {
            return self.answer(Reply::Error("BEGIN on a board that is not empty".into()));
        }
        self.think_move()
    }

    fn turn(&mut self, c: Coord) -> Response {
        if self.game.is_none() {
            return self.no_game();
        }
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.answer(Reply::Error(format!("TURN {e}"))),
        };
        if self.markers.contains(&p) {
            return self.answer(Reply::Error(format!("TURN {c}: the point is blocked")));
        }
        let game = self.game.as_mut().expect("checked above");
        if let Err(e) = game.try_play(p) {
            return self.answer(Reply::Error(format!("TURN {c}: {e}")));
        }
        self.think_move()
    }

    fn board(&mut self, lines: &[BoardLine]) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        let (rule, size) = (g.rule(), g.size());
        let mut own = Vec::new();
        let mut opponent = Vec::new();
        let mut markers = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for line in lines {
            let p = match self.point(line.at) {
                Ok(p) => p,
                Err(e) => return self.answer(Reply::Error(format!("BOARD {e}"))),
            };
            if !seen.insert(p) {
                return self.answer(Reply::Error(format!(
                    "BOARD {}: the point is given twice",
                    line.at
                )));
            }
            match line.field {
                Field::Own => own.push(p),
                Field::Opponent => opponent.push(p),
                Field::Marker => markers.push(p),
            }
        }
        // The brain is to move, so it is black exactly when both sides have as many stones.
        let (black, white) = if own.len() == opponent.len() {
            (own, opponent)
        } else if opponent.len() == own.len() + 1 {
            (opponent, own)
        } else {
            return self.answer(Reply::Error(format!(
                "BOARD with {} own and {} opponent stones: the brain cannot be the side to move",
                own.len(),
                opponent.len()
            )));
        };
        // Each side's stones keep the order they were sent in (renju managers send the
        // moves in order; gomoku ones may not, and then any alternation gives the position).
        let moves = interleave(&black, &white);
        match Game::from_moves(rule, size, &moves) {
            Ok(g) => {
                self.game = Some(g);
                self.markers = markers;
                self.think_move()
            }
            Err(e) => self.answer(Reply::Error(format!("BOARD is not a legal position: {e}"))),
        }
    }

    fn takeback(&mut self, c: Coord) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.answer(Reply::Error(format!("TAKEBACK {e}"))),
        };
        if let Some(i) = self.markers.iter().position(|&m| m == p) {
            self.markers.remove(i);
            return self.answer(Reply::Ok);
        }
        let Some(i) = g.moves().iter().position(|&m| m == p) else {
            return self.answer(Reply::Error(format!("TAKEBACK {c}: no stone there")));
        };
        if i + 1 == g.moves().len() {
            self.game.as_mut().expect("checked above").undo();
            return self.answer(Reply::Ok);
        }
        // Not the last move (a gomoku BOARD may have listed stones in any order): remove the
        // stone from its side and rebuild, which works whenever the counts still alternate.
        let (mut black, mut white): (Vec<Point>, Vec<Point>) = (Vec::new(), Vec::new());
        for (j, &m) in g.moves().iter().enumerate() {
            if j != i {
                if j % 2 == 0 {
                    black.push(m);
                } else {
                    white.push(m);
                }
            }
        }
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return self.answer(Reply::Error(format!(
                "TAKEBACK {c}: not the last move, and removing it leaves the sides unbalanced"
            )));
        }
        match Game::from_moves(g.rule(), g.size(), &interleave(&black, &white)) {
            Ok(ng) => {
                self.game = Some(ng);
                self.answer(Reply::Ok)
            }
            Err(e) => self.answer(Reply::Error(format!("TAKEBACK {c}: {e}"))),
        }
    }

    /// A move for the side to move.
    fn think_move(&mut self) -> Response {
        self.think(|quick| Task::Move { fallback: quick })
    }

    /// A search in the current position (a move, or a Swap2 choice with white to move),
    /// unless the game is over or no legal move is left; `task` gets a quick legal move.
    fn think(&mut self, task: impl FnOnce(Point) -> Task) -> Response {
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
    fn request(&mut self, task: Task, seed: u64) -> Response {
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

/// The rule for an `INFO rule` bitmask: bit 4 is renju, and so is the value 2 (Yixin-Board
/// sends 2 for renju, although the protocol text gives bit 2 to continuous games); otherwise
/// bit 1 is exactly five (caro, bit 8, is exactly five too, but its blocked-five rule is not
/// supported).
#[must_use]
fn rule_from_bits(bits: u32) -> Rule {
    if bits & 4 != 0 || bits == 2 {
        Rule::Renju
    } else if bits & (1 | 8) != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
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

fn interleave(black: &[Point], white: &[Point]) -> Vec<Point> {
    let mut out = Vec::with_capacity(black.len() + white.len());
    for i in 0..black.len().max(white.len()) {
        out.extend(black.get(i));
        out.extend(white.get(i));
    }
    out
}

fn is_legal(game: &Game, markers: &[Point], p: Point) -> bool {
    let board = game.board();
    if !board.is_empty_at(p) || markers.contains(&p) {
        return false;
    }
    if game.rule().has_forbidden(game.to_move()) {
        return forbidden_at(&mut board.clone(), p).is_none();
    }
    true
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

/// Stones as the protocol writes them, `x,y x,y`.
fn gomocup_points(points: &[Point]) -> String {
    Reply::Stones(points.to_vec()).to_string()
}

/// Stones in RIF notation (`h8 i9`), for messages.
fn rif_points(points: &[Point], size: u8) -> String {
    let text: Vec<String> = points.iter().map(|p| p.rif(size).to_string()).collect();
    text.join(" ")
}

/// Why a Swap2 request has no usable decision: none came, or one for another request kind.
fn missing(decision: Option<&Swap2Decision>) -> String {
    match decision {
        None => "no Swap2 decision in time".to_string(),
        Some(d) => format!("a Swap2 decision of the wrong kind ({d:?})"),
    }
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
    use super::*;
    use crate::gomocup::Parser;
    use crate::Color;

    fn rif(s: &str) -> Point {
        Point::from_rif(s, 15).unwrap()
    }

    /// Feeds lines; returns the replies of the last one and its `Next`.
    fn run(session: &mut BrainSession, lines: &[&str]) -> Response {
        let mut parser = Parser::new();
        let mut last = Response::idle(Vec::new());
        for l in lines {
            for parsed in parser.feed(l) {
                last = session.handle(parsed);
            }
        }
        last
    }

    fn request(o: Response) -> ThinkRequest {
        match o.next {
            Next::Think(r) => *r,
            other => panic!("expected a search, got {other:?} with {:?}", o.replies),
        }
    }

    fn error(o: &Response) -> &str {
        match o.replies.last() {
            Some(Reply::Error(m)) => m,
            other => panic!("expected ERROR, got {other:?}"),
        }
    }

    fn started() -> BrainSession {
        let mut s = BrainSession::new();
        let o = run(&mut s, &["START 15"]);
        assert_eq!(o.replies, vec![Reply::Ok]);
        s
    }

    fn thought(p: Point) -> Option<Thought> {
        Some(Thought {
            best: Some(p),
            depth: 3,
            nodes: 10,
            ..Thought::default()
        })
    }

    #[test]
    fn reply_lines() {
        assert_eq!(Reply::Move(Point::new(3, 12)).to_string(), "3,12");
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(Reply::Error("a\r\nb".into()).to_string(), "ERROR a  b");
        assert!(Reply::About
            .to_string()
            .starts_with("name=\"Wuzi\", version=\"0.1.0\", author=\"Wuzi developers\""));
    }

    #[test]
    fn start_checks_the_size() {
        let mut s = BrainSession::new();
        assert!(error(&run(&mut s, &["START 99"])).contains("99"));
        assert!(error(&run(&mut s, &["START 4"])).contains("unsupported"));
        assert!(error(&run(&mut s, &["RESTART"])).contains("START"));
        assert!(error(&run(&mut s, &["BEGIN"])).contains("START"));
        assert_eq!(run(&mut s, &["START 20"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().size(), 20);
        assert_eq!(run(&mut s, &["RESTART"]).replies, vec![Reply::Ok]);
        assert!(error(&run(&mut s, &["RECTSTART 20,10"])).contains("rectangular"));
    }

    #[test]
    fn begin_searches_and_finish_plays_the_move() {
        let mut s = started();
        let req = request(run(&mut s, &["BEGIN"]));
        assert_eq!(req.game.moves().len(), 0);
        assert_eq!(req.fallback, Reply::Move(rif("h8")));
        assert!(s.is_thinking());
        let replies = s.finish(req.id, thought(rif("h8")), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Move(Point::new(7, 7))));
        assert!(matches!(&replies[0], Reply::Message(m) if m.contains("depth 3")));
        assert_eq!(s.game().unwrap().moves(), &[rif("h8")]);
        assert!(!s.is_thinking());
        // A second result for the same request is stale.
        assert!(s
            .finish(req.id, thought(rif("a1")), Duration::ZERO)
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

    #[test]
    fn turn_errors_leave_the_game_alone() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        assert!(error(&run(&mut s, &["TURN 7,7"])).contains("occupied"));
        assert!(error(&run(&mut s, &["TURN 8,8"])).contains("occupied"));
        assert!(error(&run(&mut s, &["TURN 15,0"])).contains("off the 15x15"));
        assert!(error(&run(&mut s, &["TURN 4294967295,4294967295"])).contains("off"));
        assert!(error(&run(&mut s, &["TURN 1;2"])).contains("TURN"));
        assert_eq!(s.game().unwrap().moves().len(), 2);
        // And the brain keeps working.
        request(run(&mut s, &["TURN 0,0"]));
    }

    #[test]
    fn busy_while_thinking() {
        let mut s = started();
        let req = request(run(&mut s, &["BEGIN"]));
        assert!(error(&run(&mut s, &["TURN 1,1"])).contains("busy"));
        // INFO still applies during a search.
        run(&mut s, &["INFO timeout_turn 2000"]);
        assert_eq!(s.clock().turn_ms, Some(2000));
        s.finish(req.id, thought(rif("h8")), Duration::ZERO);
        request(run(&mut s, &["TURN 1,1"]));
    }

    #[test]
    fn board_decides_the_colour() {
        let mut s = started();
        // Two each: the brain is black.
        let req = request(run(
            &mut s,
            &["BOARD", "7,7,1", "8,8,2", "7,8,1", "8,7,2", "DONE"],
        ));
        assert_eq!(req.game.to_move(), Color::Black);
        assert_eq!(
            req.game.moves(),
            &[
                Point::new(7, 7),
                Point::new(8, 8),
                Point::new(7, 8),
                Point::new(8, 7)
            ]
        );
        s.finish(req.id, None, Duration::ZERO);
        // One more opponent stone, listed own stones first: the brain is white.
        let req = request(run(&mut s, &["BOARD", "7,8,1", "7,7,2", "8,8,2", "DONE"]));
        assert_eq!(req.game.to_move(), Color::White);
        assert_eq!(req.game.board().get(Point::new(7, 8)), Some(Color::White));
        assert_eq!(req.game.board().get(Point::new(8, 8)), Some(Color::Black));
        s.finish(req.id, None, Duration::ZERO);
        // An empty BOARD: the brain opens as black.
        let req = request(run(&mut s, &["BOARD", "DONE"]));
        assert_eq!(req.game.to_move(), Color::Black);
        s.finish(req.id, None, Duration::ZERO);
    }

    #[test]
    fn bad_boards_are_refused_and_the_old_position_kept() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        let before = s.game().unwrap().moves().to_vec();
        for (lines, want) in [
            (
                vec!["BOARD", "1,1,1", "2,2,1", "DONE"],
                "cannot be the side",
            ),
            (
                vec!["BOARD", "1,1,2", "2,2,2", "3,3,2", "DONE"],
                "cannot be",
            ),
            (vec!["BOARD", "1,1,1", "1,1,2", "DONE"], "twice"),
            (vec!["BOARD", "1,15,1", "2,2,2", "DONE"], "off the"),
            (vec!["BOARD", "1,1,1", "2,2,9", "DONE"], "field"),
            (vec!["BOARD", "1,1", "DONE"], "x,y,field"),
        ] {
            let o = run(&mut s, &lines);
            assert!(error(&o).contains(want), "{lines:?}: {:?}", o.replies);
            assert_eq!(s.game().unwrap().moves(), &before[..]);
        }
    }

    #[test]
    fn a_finished_game_gets_an_error() {
        let mut s = started();
        let o = run(
            &mut s,
            &[
                "BOARD", "0,0,2", "5,5,1", "1,0,2", "5,6,1", "2,0,2", "5,7,1", "3,0,2", "5,8,1",
                "4,0,2", "DONE",
            ],
        );
        assert!(error(&o).contains("over"), "{:?}", o.replies);
    }

    #[test]
    fn markers_are_never_played() {
        let mut s = started();
        let req = request(run(&mut s, &["BOARD", "7,7,3", "DONE"]));
        assert_ne!(req.fallback, Reply::Move(Point::new(7, 7)));
        let replies = s.finish(req.id, thought(Point::new(7, 7)), Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback));
        assert!(error(&run(&mut s, &["TURN 7,7"])).contains("blocked"));
    }

    #[test]
    fn takeback() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        assert!(error(&run(&mut s, &["TAKEBACK 3,3"])).contains("no stone"));
        assert!(error(&run(&mut s, &["TAKEBACK 30,3"])).contains("off"));
        assert_eq!(run(&mut s, &["TAKEBACK 8,8"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().moves(), &[Point::new(7, 7)]);
        assert_eq!(run(&mut s, &["takeback 7,7"]).replies, vec![Reply::Ok]);
        assert!(s.game().unwrap().moves().is_empty());
        // A stone that is not the last move (gomoku BOARD order) can still go if the sides
        // stay balanced afterwards.
        let req = request(run(
            &mut s,
            &["BOARD", "1,1,1", "2,2,1", "3,3,2", "4,4,2", "DONE"],
        ));
        s.finish(req.id, thought(Point::new(9, 9)), Duration::ZERO);
        assert_eq!(run(&mut s, &["TAKEBACK 1,1"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().moves().len(), 4);
        assert_eq!(s.game().unwrap().board().get(Point::new(1, 1)), None);
    }

    #[test]
    fn info_rule_bits() {
        let mut s = started();
        for (bits, rule) in [
            (4, Rule::Renju),
            (0, Rule::Freestyle),
            (2, Rule::Renju),
            (1, Rule::Standard),
            (5, Rule::Renju),
            (0, Rule::Freestyle),
        ] {
            run(&mut s, &[&format!("INFO rule {bits}")]);
            assert_eq!(s.rule(), rule, "rule {bits}");
            assert_eq!(s.game().unwrap().rule(), rule, "rule {bits}");
        }
        // Caro is not supported: exactly five, and a MESSAGE before the next answer.
        assert!(run(&mut s, &["INFO rule 8"]).replies.is_empty());
        assert_eq!(s.rule(), Rule::Standard);
        let o = run(&mut s, &["ABOUT"]);
        assert!(matches!(&o.replies[0], Reply::Message(m) if m.contains("caro")));
        assert_eq!(o.replies.last(), Some(&Reply::About));
        // The message names the rule played, whatever else the bits ask for.
        for (bits, rule) in [
            (12, Rule::Renju),
            (9, Rule::Standard),
            (6, Rule::Renju),
            (16, Rule::Freestyle),
            (17, Rule::Standard),
        ] {
            run(&mut s, &[&format!("INFO rule {bits}")]);
            assert_eq!(s.rule(), rule, "rule {bits}");
            let o = run(&mut s, &["ABOUT"]);
            let Reply::Message(m) = &o.replies[0] else {
                panic!("rule {bits}: {:?}", o.replies)
            };
            assert!(m.ends_with(&format!("playing {rule}")), "rule {bits}: {m}");
        }
    }

    #[test]
    fn bad_info_is_reported_later_as_a_message() {
        let mut s = started();
        let o = run(&mut s, &["INFO timeout_turn soon"]);
        assert!(o.replies.is_empty());
        let o = run(&mut s, &["INFO max_memory 1000"]);
        assert!(o.replies.is_empty());
        let o = run(&mut s, &["BEGIN"]);
        let messages: Vec<&Reply> = o
            .replies
            .iter()
            .filter(|r| matches!(r, Reply::Message(_)))
            .collect();
        assert_eq!(messages.len(), 2, "{:?}", o.replies);
        assert!(matches!(o.next, Next::Think(_)));
    }

    #[test]
    fn time_and_memory_reach_the_request() {
        let mut s = started();
        let req = request(run(
            &mut s,
            &[
                "INFO timeout_turn 1000",
                "INFO timeout_match 100000",
                "INFO time_left 100000",
                "INFO max_memory 83886080",
                "BEGIN",
            ],
        ));
        assert_eq!(req.tt_mib, 32);
        assert_eq!(req.threads, 0);
        assert!(req.budget.give_up_after <= Duration::from_millis(950));
        s.finish(req.id, None, Duration::ZERO);
        let req = request(run(&mut s, &["INFO timeout_turn 0", "TURN 0,0"]));
        assert_eq!(req.budget.search, crate::gomocup::FASTEST_MOVE_TIME);
    }

    #[test]
    fn thread_num_reaches_the_request() {
        let mut s = started();
        let req = request(run(&mut s, &["INFO thread_num 3", "BEGIN"]));
        assert_eq!(req.threads, 3);
        s.finish(req.id, None, Duration::ZERO);
        // A bad value changes nothing and is reported before the next answer.
        let o = run(&mut s, &["INFO thread_num many", "TURN 0,0"]);
        assert!(
            o.replies
                .iter()
                .any(|r| matches!(r, Reply::Message(m) if m.contains("thread_num"))),
            "{:?}",
            o.replies
        );
        assert_eq!(request(o).threads, 3);
    }

    #[test]
    fn end_quits_and_unknown_is_unknown() {
        let mut s = started();
        assert!(matches!(run(&mut s, &["END"]).next, Next::Quit));
        let o = run(&mut s, &["FROB 1"]);
        assert!(matches!(o.replies[..], [Reply::Unknown(_)]));
    }

    /// Runs a request through the real engine, as the driver does, with a node limit so
    /// the answer is reproducible.
    fn run_engine(req: &ThinkRequest, nodes: u64) -> Thought {
        req.run(
            &mut Engine::new(8),
            Level::Master,
            Limits::nodes(nodes),
            &AtomicBool::new(false),
        )
    }

    fn points(xy: &[(u8, u8)]) -> Vec<Point> {
        xy.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    /// `SWAP2BOARD` with these stones, as a started session receives it.
    fn swap2_board(s: &mut BrainSession, stones: &[(u8, u8)]) -> Response {
        let mut lines = vec!["SWAP2BOARD".to_string()];
        lines.extend(stones.iter().map(|(x, y)| format!("{x},{y}")));
        lines.push("DONE".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        run(s, &lines)
    }

    /// Seed 7 is one whose first table opening (h8 i8 g9) the search rejects as unbalanced
    /// at this budget, so the proposal shows that the policy searched.
    const SEED: u64 = 7;
    const OPENING_NODES: u64 = 80_000;

    #[test]
    fn swap2_case_1_proposes_the_policys_balanced_opening() {
        let mut s = BrainSession::with_seed(SEED);
        run(&mut s, &["START 15"]);
        let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
        assert!(
            matches!(o.replies.last(), Some(Reply::Debug(m)) if m.starts_with("swap2 opening")),
            "{:?}",
            o.replies
        );
        let req = request(o);
        assert_eq!(req.kind, ThinkKind::Swap2Opening);
        assert_eq!(req.seed, SEED);
        assert!(req.game.moves().is_empty());
        let table = points(&[(7, 7), (8, 7), (6, 6)]);
        assert_eq!(req.fallback, Reply::Stones(table.clone()));
        // The driver's search is the app's policy, for the same seed and limits.
        let t = run_engine(&req, OPENING_NODES);
        let expected = Engine::new(8)
            .propose_opening(
                Rule::Freestyle,
                15,
                Limits::nodes(OPENING_NODES),
                &AtomicBool::new(false),
                SEED,
            )
            .unwrap();
        assert_ne!(
            expected, table,
            "the search should reject the first opening"
        );
        assert_eq!(t.swap2, Some(Swap2Decision::Opening(expected.clone())));
        let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Stones(expected.clone())));
        let line = replies.last().unwrap().to_string();
        assert_eq!(line.split(' ').count(), 3, "{line}");
        assert!(
            line.split(' ').all(|xy| xy.split(',').count() == 2),
            "{line}"
        );
        assert_eq!(s.game().unwrap().moves(), &expected[..]);
        // The next proposal steps the seed, so a match does not repeat one opening.
        let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
        assert_eq!(req.seed, SEED + 1);
        assert!(s.game().unwrap().moves().is_empty());
    }

    #[test]
    fn swap2_case_1_falls_back_to_the_table_opening() {
        let mut s = BrainSession::with_seed(SEED);
        run(&mut s, &["START 15"]);
        let table = points(&[(7, 7), (8, 7), (6, 6)]);
        // Nothing in time, a proposal on taken or off-table points, or a decision of the
        // wrong kind: the fallback opening goes out, and the game holds it.
        for t in [
            None,
            Some(Thought::default()),
            Some(Thought {
                swap2: Some(Swap2Decision::Opening(points(&[(7, 7), (7, 7), (9, 9)]))),
                ..Thought::default()
            }),
            Some(Thought {
                swap2: Some(Swap2Decision::Opening(points(&[(7, 7), (8, 8)]))),
                ..Thought::default()
            }),
            Some(Thought {
                swap2: Some(Swap2Decision::Colour(ColourChoice::Black)),
                ..Thought::default()
            }),
        ] {
            let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
            let replies = s.finish(req.id, t.clone(), Duration::ZERO);
            assert_eq!(replies.last(), Some(&req.fallback), "{t:?}: {replies:?}");
            assert!(replies
                .iter()
                .any(|r| matches!(r, Reply::Debug(m) if m.contains("fallback"))));
            let Reply::Stones(stones) = &req.fallback else {
                panic!("{:?}", req.fallback)
            };
            assert_eq!(s.game().unwrap().moves(), &stones[..]);
        }
        // The first fallback was the seed's own table opening.
        let mut s = BrainSession::with_seed(SEED);
        run(&mut s, &["START 15"]);
        assert_eq!(
            request(run(&mut s, &["SWAP2BOARD", "DONE"])).fallback,
            Reply::Stones(table)
        );
    }

    #[test]
    fn swap2_proposals_avoid_marked_points() {
        let mut s = BrainSession::with_seed(SEED);
        run(&mut s, &["START 15"]);
        // A BOARD's field-3 points stay blocked until the next START. g6 is one of the
        // policy's stones for this seed (the engine knows nothing of markers).
        let req = request(run(&mut s, &["BOARD", "6,9,3", "DONE"]));
        s.finish(req.id, None, Duration::ZERO);
        let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
        assert_eq!(
            req.fallback,
            Reply::Stones(points(&[(7, 7), (8, 7), (6, 6)]))
        );
        let t = run_engine(&req, OPENING_NODES);
        let Some(Swap2Decision::Opening(proposal)) = &t.swap2 else {
            panic!("{t:?}")
        };
        assert!(proposal.contains(&Point::new(6, 9)), "{proposal:?}");
        let replies = s.finish(req.id, Some(t.clone()), Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback), "{replies:?}");
        // Every table opening starts at the centre: marked, nothing fits, and that is an error.
        let req = request(run(&mut s, &["BOARD", "7,7,3", "DONE"]));
        s.finish(req.id, None, Duration::ZERO);
        let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
        assert!(error(&o).contains("no opening fits"), "{:?}", o.replies);
        assert!(!s.is_thinking());
    }

    /// Black (h8, i7) is far ahead: white's only stone is in the corner.
    const BLACK_AHEAD: [(u8, u8); 3] = [(7, 7), (0, 0), (8, 8)];
    /// Close to even by Master's search (about -90 for white at 20 000 to 80 000 nodes).
    const BALANCED_THREE: [(u8, u8); 3] = [(7, 7), (7, 6), (9, 9)];
    const CHOICE_NODES: u64 = 40_000;

    /// The policy's own answer for `stones`, by a fresh engine with the request's seed.
    fn after_three(stones: &[(u8, u8)], seed: u64) -> ThreeStoneChoice {
        let g = Game::from_moves(Rule::Freestyle, 15, &points(stones)).unwrap();
        Engine::new(8)
            .choose_after_three(
                &g,
                Limits::nodes(CHOICE_NODES),
                &AtomicBool::new(false),
                seed,
            )
            .unwrap()
    }

    #[test]
    fn swap2_case_2_takes_black_when_black_is_clearly_ahead() {
        let mut s = started();
        let req = request(swap2_board(&mut s, &BLACK_AHEAD));
        assert_eq!(req.kind, ThinkKind::Swap2AfterThree);
        assert_eq!(req.game.to_move(), Color::White);
        assert_eq!(req.fallback, Reply::Swap);
        assert_eq!(req.seed, req.game.board().hash());
        let t = run_engine(&req, CHOICE_NODES);
        assert_eq!(
            t.swap2,
            Some(Swap2Decision::AfterThree(ThreeStoneChoice::TakeBlack))
        );
        assert_eq!(
            after_three(&BLACK_AHEAD, req.seed),
            ThreeStoneChoice::TakeBlack
        );
        let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Swap), "{replies:?}");
        assert_eq!(Reply::Swap.to_string(), "SWAP");
        // Taking black plays nothing: the three stones stay.
        assert_eq!(s.game().unwrap().moves(), &points(&BLACK_AHEAD)[..]);
    }

    #[test]
    fn swap2_case_2_places_two_stones_when_the_position_is_balanced() {
        let mut s = started();
        let req = request(swap2_board(&mut s, &BALANCED_THREE));
        let t = run_engine(&req, CHOICE_NODES);
        let ThreeStoneChoice::PlaceTwo([w, b]) = after_three(&BALANCED_THREE, req.seed) else {
            panic!("the policy should place two stones here")
        };
        assert_eq!(
            t.swap2,
            Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                w, b
            ])))
        );
        let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Stones(vec![w, b])));
        // The protocol's option 3: the fourth and fifth stones on one line.
        assert_eq!(
            replies.last().unwrap().to_string(),
            format!("{},{} {},{}", w.x(), w.y(), b.x(), b.y())
        );
        let game = s.game().unwrap();
        assert_eq!(game.moves().len(), 5);
        assert_eq!(&game.moves()[3..], &[w, b]);
        assert_eq!(game.to_move(), Color::White);
        // A later ordinary move is a move again.
        let req = request(run(&mut s, &["TURN 0,0"]));
        assert_eq!(req.kind, ThinkKind::Move);
    }

    #[test]
    fn swap2_case_3_keeps_white_only_when_its_search_says_so() {
        // White's two central stones against black's three corners: keep white and play.
        let white_ahead = [(0, 0), (7, 7), (14, 0), (8, 8), (0, 14)];
        // Black's open three h8-j8, white's stones in corners: take black.
        let black_ahead = [(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)];
        let mut s = started();
        let req = request(swap2_board(&mut s, &white_ahead));
        assert_eq!(req.kind, ThinkKind::Swap2Colour);
        assert_eq!(req.game.moves().len(), 5);
        let t = run_engine(&req, CHOICE_NODES);
        let Some(Swap2Decision::Colour(ColourChoice::White(p))) = t.swap2 else {
            panic!("white is ahead and should be kept: {t:?}")
        };
        let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Move(p)), "{replies:?}");
        assert_eq!(s.game().unwrap().moves().len(), 6);
        let req = request(swap2_board(&mut s, &black_ahead));
        let t = run_engine(&req, CHOICE_NODES);
        assert_eq!(t.swap2, Some(Swap2Decision::Colour(ColourChoice::Black)));
        let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Swap), "{replies:?}");
        assert_eq!(s.game().unwrap().moves().len(), 5);
    }

    #[test]
    fn swap2_choices_answer_swap_for_anything_unusable() {
        let mut s = started();
        let stone = |x, y| Point::new(x, y);
        let decision = |d: Swap2Decision| {
            Some(Thought {
                swap2: Some(d),
                ..Thought::default()
            })
        };
        for (stones, t) in [
            // Nothing in time (the driver gave up, or STOP before a decision).
            (&BALANCED_THREE[..], None),
            (&BALANCED_THREE[..], Some(Thought::default())),
            // White's stone on a taken point.
            (
                &BALANCED_THREE[..],
                decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlayWhite(
                    stone(7, 7),
                ))),
            ),
            // Two stones, the second on the first.
            (
                &BALANCED_THREE[..],
                decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                    stone(3, 3),
                    stone(3, 3),
                ]))),
            ),
            // Two stones after five: not an option there.
            (
                &[(7, 7), (7, 6), (9, 9), (6, 6), (5, 6)][..],
                decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                    stone(3, 3),
                    stone(4, 4),
                ]))),
            ),
            // A proposal where a choice was asked for.
            (
                &BALANCED_THREE[..],
                decision(Swap2Decision::Opening(points(&[(1, 1), (2, 2), (3, 3)]))),
            ),
        ] {
            let req = request(swap2_board(&mut s, stones));
            let before = s.game().unwrap().moves().to_vec();
            let replies = s.finish(req.id, t.clone(), Duration::ZERO);
            assert_eq!(replies.last(), Some(&Reply::Swap), "{t:?}: {replies:?}");
            assert!(
                t.is_none()
                    || replies
                        .iter()
                        .any(|r| matches!(r, Reply::Debug(m) if m.contains("SWAP"))),
                "{replies:?}"
            );
            assert_eq!(s.game().unwrap().moves(), &before[..]);
        }
        // A marked point is never played, as a move or as one of the two stones.
        let req = request(run(&mut s, &["BOARD", "3,3,3", "DONE"]));
        s.finish(req.id, None, Duration::ZERO);
        let req = request(swap2_board(&mut s, &BALANCED_THREE));
        let t = decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
            stone(4, 4),
            stone(3, 3),
        ])));
        assert_eq!(
            s.finish(req.id, t, Duration::ZERO).last(),
            Some(&Reply::Swap)
        );
    }

    #[test]
    fn swap2_refuses_other_counts_and_bad_stones() {
        let mut s = BrainSession::new();
        let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
        assert!(error(&o).contains("START"));
        let mut s = started();
        let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "DONE"]);
        assert!(error(&o).contains("expected 0, 3 or 5"));
        let o = run(&mut s, &["SWAP2BOARD", "7,7", "7,7", "9,9", "DONE"]);
        assert!(error(&o).starts_with("SWAP2BOARD"));
        let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "99,9", "DONE"]);
        assert!(error(&o).starts_with("SWAP2BOARD"));
        let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "9,9", "1,1", "DONE"]);
        assert!(error(&o).contains("expected 0, 3 or 5"));
        // None of these changed the game or started a search.
        assert!(s.game().unwrap().moves().is_empty());
        assert!(!s.is_thinking());
        // Busy while a Swap2 decision is searched, like any other.
        let req = request(swap2_board(&mut s, &BALANCED_THREE));
        assert!(error(&swap2_board(&mut s, &BALANCED_THREE)).contains("busy"));
        s.finish(req.id, None, Duration::ZERO);
        assert!(!s.is_thinking());
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::gomocup::Parser;
    use proptest::prelude::*;

    /// A line a manager (or a broken one) might send.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u32..25).prop_map(|n| format!("START {n}")),
            Just("RESTART".to_string()),
            Just("BEGIN".to_string()),
            (0u32..22, 0u32..22).prop_map(|(x, y)| format!("TURN {x},{y}")),
            (0u32..22, 0u32..22).prop_map(|(x, y)| format!("TAKEBACK {x},{y}")),
            Just("BOARD".to_string()),
            (0u32..22, 0u32..22, 0u32..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
            Just("SWAP2BOARD".to_string()),
            (0u32..22, 0u32..22).prop_map(|(x, y)| format!("{x},{y}")),
            Just("DONE".to_string()),
            (0u32..16).prop_map(|r| format!("INFO rule {r}")),
            (0u64..3000).prop_map(|t| format!("INFO timeout_turn {t}")),
            Just("ABOUT".to_string()),
            "[ -~]{0,30}",
        ]
    }

    /// A line, or a whole `SWAP2BOARD` block of 0, 3 or 5 stones (rarely put together by
    /// chance from single lines).
    fn item() -> impl Strategy<Value = Vec<String>> {
        prop_oneof![
            4 => line().prop_map(|l| vec![l]),
            1 => prop_oneof![Just(0usize), Just(3), Just(5)]
                .prop_flat_map(|n| proptest::collection::vec((3u32..12, 3u32..12), n))
                .prop_map(|stones| {
                    let mut block = vec!["SWAP2BOARD".to_string()];
                    block.extend(stones.iter().map(|(x, y)| format!("{x},{y}")));
                    block.push("DONE".to_string());
                    block
                }),
        ]
    }

    /// What an engine might answer, legal or not: a move, or any Swap2 decision.
    fn thought(pick: &[(u8, u8)], what: u8) -> Thought {
        let p = |i: usize| Point::new(pick[i].0, pick[i].1);
        let swap2 = match what % 7 {
            0 => None,
            1 => Some(Swap2Decision::Opening(vec![p(1), p(2), p(3)])),
            2 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::TakeBlack)),
            3 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlayWhite(p(1)))),
            4 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                p(1),
                p(2),
            ]))),
            5 => Some(Swap2Decision::Colour(ColourChoice::Black)),
            _ => Some(Swap2Decision::Colour(ColourChoice::White(p(1)))),
        };
        Thought {
            best: Some(p(0)),
            swap2,
            ..Thought::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn random_sessions_never_panic_and_only_give_legal_answers(
            items in proptest::collection::vec(item(), 1..60),
            picks in proptest::collection::vec(((0u8..22, 0u8..22), 0u8..7), 60),
        ) {
            let mut parser = Parser::new();
            let mut session = BrainSession::new();
            let mut pick = picks.into_iter().cycle();
            for l in items.iter().flatten() {
                for parsed in parser.feed(l) {
                    let outcome = session.handle(parsed);
                    let Next::Think(req) = outcome.next else { continue };
                    // The engine answers some arbitrary points, legal or not.
                    let points: Vec<(u8, u8)> = (0..4).map(|_| pick.next().unwrap().0).collect();
                    let what = pick.next().unwrap().1;
                    let before = req.game.clone();
                    let t = thought(&points, what);
                    let replies = session.finish(req.id, Some(t), Duration::ZERO);
                    let after = session.game().unwrap();
                    // Every stone answered is played in turn from the position searched.
                    let mut replay = before.clone();
                    let mut play = |stones: &[Point]| -> Result<(), TestCaseError> {
                        for &p in stones {
                            prop_assert_eq!(replay.check(p), Ok(()));
                            replay.try_play(p).unwrap();
                        }
                        Ok(())
                    };
                    match (req.kind, replies.last()) {
                        (ThinkKind::Move, Some(Reply::Move(p))) => play(&[*p])?,
                        (ThinkKind::Swap2Opening, Some(Reply::Stones(s))) => {
                            prop_assert_eq!(s.len(), 3);
                            play(s)?;
                        }
                        (ThinkKind::Swap2AfterThree | ThinkKind::Swap2Colour, Some(Reply::Swap)) => {}
                        (ThinkKind::Swap2AfterThree | ThinkKind::Swap2Colour, Some(Reply::Move(p))) => {
                            play(&[*p])?;
                        }
                        (ThinkKind::Swap2AfterThree, Some(Reply::Stones(s))) => {
                            prop_assert_eq!(s.len(), 2);
                            play(s)?;
                        }
                        (kind, other) => prop_assert!(false, "{:?}: {:?}", kind, other),
                    }
                    prop_assert_eq!(after.moves(), replay.moves());
                }
            }
        }
    }
}
