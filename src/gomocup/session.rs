//! The brain's side of a protocol session: the game, the rule, the clock, and what to answer.
//!
//! [`BrainSession::handle`] applies one parsed line and returns the lines to write plus what comes
//! next: nothing, a search ([`ThinkRequest`]), or the end of the process. The search itself
//! runs elsewhere; its result comes back through [`BrainSession::finish`], which checks the move
//! (never an occupied point, never a forbidden point for black under renju; a quick fallback
//! replaces anything else), plays it and formats the answer. Nothing here blocks or spawns.

use std::fmt;
use std::time::Duration;

use super::command::{self, BoardLine, Command, Coord, Field, Info, ParseError, Parsed};
use super::time::{memory_too_small, tt_mib_for, Budget, TimeControl};
use crate::ai::quick_move;
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
    /// Several stones on one line, `x,y x,y …`: Swap2's opening stones.
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

/// A search the driver must run, then report with [`BrainSession::finish`].
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// Matches the request to its [`BrainSession::finish`] call; a result for an older id is
    /// dropped.
    pub id: u64,
    /// The position, the brain to move.
    pub game: Game,
    /// Time for this move, from when the command arrived.
    pub budget: Budget,
    /// Transposition-table size the engine should have (from `INFO max_memory`).
    pub tt_mib: usize,
    /// Search threads (from `INFO thread_num`, sent by some managers such as Yixin-Board);
    /// 0 = the engine's automatic choice (the machine's cores, at most 8).
    pub threads: usize,
    /// A legal move found without searching, answered if the search fails or overruns.
    pub fallback: Point,
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
    awaiting: Option<(u64, Point)>,
    /// The awaited search decides a Swap2 choice: `SWAP`, or stay and play its move.
    swap2_choice: bool,
    /// Picks Swap2's opening stones; drawn once per process so matches vary.
    swap2_seed: u64,
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
            swap2_choice: false,
            swap2_seed: rand::random(),
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
    /// waiting (or the search failed), `spent` the wall time the move took. Returns the lines
    /// to write (the move last), or nothing for a stale or unknown `id`.
    pub fn finish(&mut self, id: u64, thought: Option<Thought>, spent: Duration) -> Vec<Reply> {
        let Some((want, fallback)) = self.awaiting else {
            return Vec::new();
        };
        if want != id {
            return Vec::new();
        }
        self.awaiting = None;
        self.used += spent;
        let swap2_choice = std::mem::take(&mut self.swap2_choice);
        let Some(game) = self.game.as_mut() else {
            return vec![Reply::Error("no game".into())];
        };
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        // Swap2: the side to move is worse off by its own search, so take the other colour
        // (the rule the app's computer follows too).
        if let Some(t) = thought
            .as_ref()
            .filter(|t| swap2_choice && crate::ai::swap2::prefers_black(t.score))
        {
            replies.push(Reply::Message(format!(
                "swap: {} to move scores {} here",
                game.to_move(),
                t.score
            )));
            replies.push(Reply::Swap);
            return replies;
        }
        let searched = thought
            .as_ref()
            .and_then(|t| t.best)
            .filter(|&p| is_legal(game, &self.markers, p));
        let chosen = match (searched, &thought) {
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
        if let Some(t) = &thought {
            replies.push(Reply::Message(describe(t, game.size())));
        }
        // The brain's own view of the turn, to compare with what the manager measures.
        replies.push(Reply::Debug(format!(
            "answered {} ms after the command",
            spent.as_millis()
        )));
        match game.try_play(chosen) {
            Ok(_) => replies.push(Reply::Move(chosen)),
            Err(e) => replies.push(Reply::Error(format!(
                "cannot play {}: {e}",
                chosen.gomocup()
            ))),
        }
        replies
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

    /// `SWAP2BOARD`: with no stones, proposes three (a Piskvork opening at the centre); with
    /// three or five (black, white, black, …), decides by a search for the side to move —
    /// `SWAP` (take black, the colour that just moved) when that search scores below 0, else
    /// stay with white and play the next stone.
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
                let openings = crate::ai::openings::piskvork_openings();
                let free = |points: &Vec<Point>| points.iter().all(|p| !self.markers.contains(p));
                let n = openings.len() as u64;
                let pick = (0..n).find_map(|k| {
                    let o = &openings[((self.swap2_seed.wrapping_add(k)) % n) as usize];
                    o.points(size)
                        .filter(|pts| pts.len() == 3 && free(pts))
                        .and_then(|pts| Game::from_moves(rule, size, &pts).ok().map(|g| (pts, g)))
                });
                self.swap2_seed = self.swap2_seed.wrapping_add(1);
                match pick {
                    Some((points, game)) => {
                        self.game = Some(game);
                        self.answer(Reply::Stones(points))
                    }
                    None => self.answer(Reply::Error(
                        "SWAP2BOARD: no opening fits this board".into(),
                    )),
                }
            }
            3 | 5 => match Game::from_moves(rule, size, &stones) {
                Ok(game) if game.result().is_none() => {
                    self.game = Some(game);
                    let response = self.think();
                    self.swap2_choice = self.awaiting.is_some();
                    response
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
        self.think()
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
        self.think()
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
                self.think()
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

    fn think(&mut self) -> Response {
        let game = self.game.as_ref().expect("callers check for a game");
        if let Some(result) = game.result() {
            let what = match result.winner {
                Some(c) => format!("{c} has won"),
                None => format!("it is a draw ({})", result.draw.unwrap_or(Draw::FullBoard)),
            };
            return self.answer(Reply::Error(format!("the game is over: {what}")));
        }
        let Some(fallback) = quick_move(game, &self.markers) else {
            return self.answer(Reply::Error("no legal move left".into()));
        };
        let id = self.next_id;
        self.next_id += 1;
        self.awaiting = Some((id, fallback));
        let request = ThinkRequest {
            id,
            game: game.clone(),
            budget: self.clock.budget(game.moves().len(), self.used),
            tt_mib: self.tt_mib(),
            threads: self.threads,
            fallback,
        };
        let mut replies: Vec<Reply> = take_deferred(&mut self.deferred, &mut self.dropped);
        replies.push(Reply::Debug(format!(
            "{} to move, aim {} ms, budget {} ms (cancel {} ms, answer by {} ms), table {} MiB",
            game.to_move(),
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
        assert_eq!(req.fallback, rif("h8"));
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
        assert_eq!(replies.last(), Some(&Reply::Move(req.fallback)));
        assert_ne!(req.fallback, Point::new(7, 7));
        assert!(replies.iter().any(|r| matches!(r, Reply::Debug(_))));
        // No result at all (the driver gave up): also the fallback.
        let req = request(run(&mut s, &["TURN 0,0"]));
        let replies = s.finish(req.id, None, Duration::ZERO);
        assert_eq!(replies.last(), Some(&Reply::Move(req.fallback)));
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
        assert_ne!(req.fallback, Point::new(7, 7));
        let replies = s.finish(req.id, thought(Point::new(7, 7)), Duration::ZERO);
        assert_eq!(replies.last(), Some(&Reply::Move(req.fallback)));
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

    #[test]
    fn swap2_case_1_proposes_three_legal_central_stones() {
        for _ in 0..20 {
            let mut s = started();
            let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
            let Some(Reply::Stones(points)) = o.replies.last() else {
                panic!("expected three stones, got {:?}", o.replies);
            };
            assert_eq!(points.len(), 3);
            let line = o.replies.last().unwrap().to_string();
            assert_eq!(line.split(' ').count(), 3, "{line}");
            let g = Game::from_moves(Rule::Freestyle, 15, points).unwrap();
            assert!(g.result().is_none());
            assert!(points
                .iter()
                .all(|p| p.x().abs_diff(7) <= 4 && p.y().abs_diff(7) <= 4));
        }
    }

    #[test]
    fn swap2_cases_2_and_3_search_the_side_to_move_and_swap_when_it_is_worse() {
        let mut s = started();
        // Case 2: three stones; white is to move and searches.
        let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]);
        let req = request(o);
        assert_eq!(req.game.to_move(), Color::White);
        assert_eq!(req.game.moves().len(), 3);
        // A score below 0 for white: take black.
        let bad = Some(Thought {
            best: Some(Point::new(8, 8)),
            score: -150,
            ..Thought::default()
        });
        let replies = s.finish(req.id, bad.clone(), Duration::from_millis(5));
        assert_eq!(replies.last(), Some(&Reply::Swap), "{replies:?}");
        assert_eq!(Reply::Swap.to_string(), "SWAP");
        // Case 3: five stones, a good score for white: stay and play the sixth stone.
        let o = run(
            &mut s,
            &["SWAP2BOARD", "7,7", "8,7", "9,9", "8,8", "8,6", "DONE"],
        );
        let req = request(o);
        assert_eq!(req.game.moves().len(), 5);
        let good = Some(Thought {
            best: Some(Point::new(6, 8)),
            score: 40,
            ..Thought::default()
        });
        let replies = s.finish(req.id, good, Duration::from_millis(5));
        assert_eq!(
            replies.last(),
            Some(&Reply::Move(Point::new(6, 8))),
            "{replies:?}"
        );
        assert_eq!(s.game().unwrap().moves().len(), 6);
        // A later ordinary move is not a Swap2 choice, whatever its score.
        let o = run(&mut s, &["TURN 0,0"]);
        let req = request(o);
        let replies = s.finish(req.id, bad, Duration::from_millis(5));
        assert!(
            matches!(replies.last(), Some(Reply::Move(_))),
            "{replies:?}"
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
            Just("DONE".to_string()),
            (0u32..16).prop_map(|r| format!("INFO rule {r}")),
            (0u64..3000).prop_map(|t| format!("INFO timeout_turn {t}")),
            Just("ABOUT".to_string()),
            "[ -~]{0,30}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn random_sessions_never_panic_and_only_play_legal_moves(
            lines in proptest::collection::vec(line(), 1..60),
            picks in proptest::collection::vec((0u8..22, 0u8..22), 60),
        ) {
            let mut parser = Parser::new();
            let mut session = BrainSession::new();
            let mut pick = picks.into_iter().cycle();
            for l in &lines {
                for parsed in parser.feed(l) {
                    let outcome = session.handle(parsed);
                    let Next::Think(req) = outcome.next else { continue };
                    // The engine answers some arbitrary point, legal or not.
                    let (x, y) = pick.next().unwrap();
                    let before = req.game.clone();
                    let t = Thought { best: Some(Point::new(x, y)), ..Thought::default() };
                    let replies = session.finish(req.id, Some(t), Duration::ZERO);
                    match replies.last() {
                        Some(Reply::Move(p)) => {
                            prop_assert_eq!(before.check(*p), Ok(()));
                            let after = session.game().unwrap();
                            prop_assert_eq!(after.moves().len(), before.moves().len() + 1);
                        }
                        other => prop_assert!(false, "no move: {:?}", other),
                    }
                }
            }
        }
    }
}
