//! One game between two brain processes, adjudicated by Wuzi's referee ([`wuzi::Game`]).
//!
//! Both brains are started fresh for every game: a crashed or confused brain cannot leak
//! into the next game, and no brain needs to implement `RESTART` correctly. The referee,
//! not the brains, decides everything: a move off the board, on a stone, or (for black under
//! renju) on a forbidden point loses; a five wins as the rule says (an overline wins under
//! freestyle, never under standard, and only for white under renju); a full board — or,
//! under renju, a board where every empty point is forbidden for black to move — is a draw.
//! A brain that answers garbage, exits, or answers later than its time limit plus the
//! tolerance loses.
//!
//! Time is measured at the manager's side of the pipe: from just before the command that
//! asks for the move (with its `INFO time_left`) is written to the instant the reader thread
//! sees the answer, so pipe latency and the brain's command handling are charged to the
//! brain, as in Gomocup.

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wuzi::{ByColor, Color, Draw, Game, PlayError, Point, Rule};

use crate::brain::{Brain, BrainSpec, Silence};
use crate::protocol::{move_request, rule_bits, Answer};

/// `INFO time_left` when the match time is unlimited.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Longest wait for the answer to the `ABOUT` sent after the `INFO` lines.
pub const ABOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// The fixed conditions of every game of a run.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The rule the referee applies (and tells the brains).
    pub rule: Rule,
    /// The board size.
    pub size: u8,
    /// `timeout_turn` in ms (at least 1), unless a brain has its own ([`BrainSpec::turn_ms`]).
    pub turn_ms: u64,
    /// `timeout_match` in ms per brain and game; `None` for unlimited.
    pub match_ms: Option<u64>,
    /// How much later than its limit a move may arrive before it loses on time.
    pub tolerance_ms: u64,
    /// `INFO thread_num`.
    pub threads: u32,
    /// `INFO max_memory` in bytes.
    pub memory_bytes: u64,
    /// How long a brain may take to answer `START` (loading networks, tables).
    pub start_timeout: Duration,
    /// Where brains' stderr goes, one file per brain and game; nowhere when `None`.
    pub stderr_dir: Option<PathBuf>,
}

impl GameConfig {
    /// `brain`'s `timeout_turn` in ms: its own, else the run's.
    #[must_use]
    pub fn turn_of(&self, brain: &BrainSpec) -> u64 {
        brain.turn_ms.unwrap_or(self.turn_ms)
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A five (as the rule counts it).
    Five,
    /// Black played a point forbidden under renju.
    Forbidden,
    /// A move off the board, on a stone, or an answer that is not a move.
    Illegal,
    /// No answer within the time limit plus the tolerance.
    Timeout,
    /// The brain could not be started, refused `START`, exited or closed its pipes.
    Crash,
    /// No empty point left (or none black may play under renju): a draw.
    Full,
}

impl Reason {
    /// Every reason, in report order.
    pub const ALL: [Reason; 6] = [
        Reason::Five,
        Reason::Forbidden,
        Reason::Illegal,
        Reason::Timeout,
        Reason::Crash,
        Reason::Full,
    ];

    /// The name in reports and the games file.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Forbidden => "forbidden",
            Reason::Illegal => "illegal",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::Full => "full",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// How many of `moves` were the opening.
    pub opening_len: usize,
    /// Every stone in move order, black first, the opening included.
    pub moves: Vec<Point>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// What exactly happened, for forfeits (`answered "7,7": point 7,7 is already occupied`).
    pub detail: Option<String>,
    /// Each played move's time in ms, in order after the opening (a forfeited move has none).
    pub times_ms: Vec<f64>,
    /// The loser's last `MESSAGE` / `ERROR` / `UNKNOWN` lines, on a forfeit.
    pub messages: Vec<String>,
}

impl GameRecord {
    /// The colour that played `times_ms[i]`.
    #[must_use]
    pub fn mover(&self, i: usize) -> Color {
        Color::to_move_after(self.opening_len + i)
    }
}

#[cfg(test)]
impl GameRecord {
    /// A three-stone game (h8 i7 g9, the opening) that ended as given, for the reports' tests.
    pub(crate) fn sample(winner: Option<Color>, reason: Reason, times: &[f64]) -> GameRecord {
        GameRecord {
            opening_len: 3,
            moves: vec![Point::new(7, 7), Point::new(8, 8), Point::new(6, 6)],
            winner,
            reason,
            detail: None,
            times_ms: times.to_vec(),
            messages: Vec::new(),
        }
    }
}

/// The game was stopped from outside (the SPRT reached a verdict) before it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Aborted;

/// How a game ends early, before the loop's regular exits.
struct Forfeit {
    loser: Color,
    reason: Reason,
    detail: String,
}

/// Plays one game from `start` (the opening, already judged) with `players[c]` as colour `c`.
/// `label` names the game in stderr log files.
///
/// # Errors
/// [`Aborted`] when `abort` was raised before the game ended; both brains are killed.
pub fn play(
    cfg: &GameConfig,
    start: &Game,
    players: ByColor<&BrainSpec>,
    label: &str,
    abort: &AtomicBool,
) -> Result<GameRecord, Aborted> {
    let mut game = start.clone();
    let opening_len = game.moves().len();
    let mut times_ms = Vec::new();
    let mut brains: ByColor<Option<Brain>> = ByColor::default();

    let outcome = run(
        cfg,
        &mut game,
        players,
        label,
        abort,
        &mut brains,
        &mut times_ms,
    );
    let mut record = GameRecord {
        opening_len,
        moves: game.moves().to_vec(),
        winner: None,
        reason: Reason::Full,
        detail: None,
        times_ms,
        messages: Vec::new(),
    };
    match outcome {
        Err(Aborted) => {
            for b in [brains.black.as_mut(), brains.white.as_mut()]
                .into_iter()
                .flatten()
            {
                b.kill();
            }
            return Err(Aborted);
        }
        Ok(Some(f)) => {
            if let Some(b) = brains[f.loser].as_mut() {
                b.drain();
                record.messages = b.messages();
                if f.reason == Reason::Timeout {
                    // It may still be searching: stop it eating the other games' CPU.
                    b.kill();
                }
            }
            record.winner = Some(f.loser.other());
            record.reason = f.reason;
            record.detail = Some(f.detail);
        }
        Ok(None) => {
            // `run` returns `Ok(None)` only once the game is over.
            if let Some(r) = game.result() {
                record.winner = r.winner;
                record.reason = if r.winner.is_some() {
                    Reason::Five
                } else {
                    Reason::Full
                };
                record.detail = r
                    .draw
                    .filter(|&d| d == Draw::NoLegalMove)
                    .map(|d| d.to_string());
            }
        }
    }
    Brain::end_all([brains.black, brains.white].into_iter().flatten().collect());
    Ok(record)
}

/// The game loop: `Ok(None)` when the referee ended the game (a five, a full board, or black
/// with no legal move),
/// `Ok(Some(forfeit))` when a brain lost by breaking the protocol or the rules.
fn run(
    cfg: &GameConfig,
    game: &mut Game,
    players: ByColor<&BrainSpec>,
    label: &str,
    abort: &AtomicBool,
    brains: &mut ByColor<Option<Brain>>,
    times_ms: &mut Vec<f64>,
) -> Result<Option<Forfeit>, Aborted> {
    let forfeit = |loser, reason, detail: String| {
        Ok(Some(Forfeit {
            loser,
            reason,
            detail,
        }))
    };

    // Start both, then wait for both: their initialisations overlap.
    for c in Color::ALL {
        let spec = players[c];
        match Brain::spawn(spec, stderr_file(cfg, label, c, &spec.name)) {
            Ok(b) => brains[c] = Some(b),
            Err(e) => return forfeit(c, Reason::Crash, format!("cannot start: {e}")),
        }
    }
    let start_deadline = Instant::now() + cfg.start_timeout;
    for c in Color::ALL {
        let Some(b) = brains[c].as_mut() else {
            continue;
        };
        if b.send(&format!("START {}\r\n", cfg.size)).is_err() {
            return forfeit(c, Reason::Crash, "exited before START".to_string());
        }
    }
    for c in Color::ALL {
        let Some(b) = brains[c].as_mut() else {
            continue;
        };
        match b.receive(start_deadline) {
            Ok(r) if r.answer == Answer::Ok => {}
            Ok(r) => {
                return forfeit(
                    c,
                    Reason::Crash,
                    format!("answered {:?} to START {}", r.text, cfg.size),
                )
            }
            Err(Silence::Timeout) => {
                return forfeit(
                    c,
                    Reason::Timeout,
                    format!("no answer to START within {:?}", cfg.start_timeout),
                )
            }
            Err(Silence::Closed) => {
                return forfeit(
                    c,
                    Reason::Crash,
                    "exited before answering START".to_string(),
                )
            }
        }
        let about = if players[c].answers_about {
            "ABOUT\r\n"
        } else {
            ""
        };
        if b.send(&format!("{}{about}", info_lines(cfg, players[c])))
            .is_err()
        {
            return forfeit(c, Reason::Crash, "exited after START".to_string());
        }
    }
    // The ABOUT barrier (see `Brain::about`); an answer that does not come in time is
    // drained before the brain's first move.
    let barrier = Instant::now() + cfg.start_timeout.min(ABOUT_TIMEOUT);
    for c in Color::ALL {
        if let Some(b) = brains[c].as_mut().filter(|_| players[c].answers_about) {
            if b.about(barrier) == Err(Silence::Closed) {
                return forfeit(c, Reason::Crash, "exited after START".to_string());
            }
        }
    }

    let opening_len = game.moves().len();
    let mut synced = ByColor::new_with(|_| false);
    let mut used_ms = ByColor::new_with(|_| 0.0f64);
    loop {
        if abort.load(Ordering::Relaxed) {
            return Err(Aborted);
        }
        if game.is_over() {
            return Ok(None);
        }
        let side = game.to_move();
        let Some(brain) = brains[side].as_mut() else {
            return forfeit(side, Reason::Crash, "not running".to_string());
        };
        brain.drain();

        let turn_ms = cfg.turn_of(players[side]);
        let (time_left, limit_ms) = match cfg.match_ms {
            None => (UNLIMITED_TIME_LEFT, turn_ms),
            Some(m) => {
                let left = (m as f64 - used_ms[side]).floor() as i64;
                (left, turn_ms.min(left.max(0) as u64))
            }
        };
        let request = format!(
            "INFO time_left {time_left}\r\n{}",
            move_request(game.moves(), side, synced[side], opening_len)
        );
        let asked = Instant::now();
        let deadline = asked + Duration::from_millis(limit_ms + cfg.tolerance_ms);
        if brain.send(&request).is_err() {
            return forfeit(
                side,
                Reason::Crash,
                "exited (its input is closed)".to_string(),
            );
        }
        synced[side] = true;

        let received = loop {
            match brain.receive(deadline) {
                Ok(r) => {
                    if let Answer::Suggest { x, y } = r.answer {
                        // In Gomocup the manager always accepts the suggestion; the brain then
                        // repeats the move as its answer, on the same clock.
                        if brain.send(&format!("PLAY {x},{y}\r\n")).is_err() {
                            break Err(Silence::Closed);
                        }
                        continue;
                    }
                    break Ok(r);
                }
                Err(e) => break Err(e),
            }
        };
        let r = match received {
            Ok(r) => r,
            Err(Silence::Timeout) => {
                return forfeit(
                    side,
                    Reason::Timeout,
                    format!(
                        "no move within {} ms ({} ms limit + {} ms tolerance)",
                        limit_ms + cfg.tolerance_ms,
                        limit_ms,
                        cfg.tolerance_ms
                    ),
                )
            }
            Err(Silence::Closed) => {
                return forfeit(side, Reason::Crash, "exited while thinking".to_string())
            }
        };
        let ms = r.at.saturating_duration_since(asked).as_secs_f64() * 1000.0;
        times_ms.push(ms);
        used_ms[side] += ms;

        let (x, y) = match r.answer {
            Answer::Move { x, y } => (x, y),
            _ => {
                times_ms.pop();
                return forfeit(
                    side,
                    Reason::Illegal,
                    format!("answered {:?}, which is not a move", r.text),
                );
            }
        };
        let size = u32::from(cfg.size);
        if x >= size || y >= size {
            times_ms.pop();
            return forfeit(
                side,
                Reason::Illegal,
                format!("answered {:?}: off the {size}x{size} board", r.text),
            );
        }
        // Both fit in u8: they are below the board size.
        let p = Point::new(x as u8, y as u8);
        match game.try_play(p) {
            Ok(_) => {}
            Err(e) => {
                times_ms.pop();
                let reason = if matches!(e, PlayError::Forbidden { .. }) {
                    Reason::Forbidden
                } else {
                    Reason::Illegal
                };
                return forfeit(
                    side,
                    reason,
                    format!("answered {:?} ({}): {e}", r.text, p.rif(cfg.size)),
                );
            }
        }
    }
}

/// The `INFO` lines sent to `brain` after `START`, each ending in CR LF.
#[must_use]
pub fn info_lines(cfg: &GameConfig, brain: &BrainSpec) -> String {
    format!(
        "INFO timeout_turn {}\r\nINFO timeout_match {}\r\nINFO max_memory {}\r\n\
         INFO game_type 1\r\nINFO rule {}\r\nINFO thread_num {}\r\n",
        cfg.turn_of(brain),
        cfg.match_ms.unwrap_or(0),
        cfg.memory_bytes,
        rule_bits(cfg.rule),
        cfg.threads,
    )
}

/// The stderr log of one brain in one game, when `--stderr-dir` was given. A file that cannot
/// be created only loses the log, not the game.
fn stderr_file(cfg: &GameConfig, label: &str, color: Color, name: &str) -> Option<File> {
    let dir = cfg.stderr_dir.as_ref()?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    File::create(dir.join(format!("{label}-{color}-{safe}.log"))).ok()
}
