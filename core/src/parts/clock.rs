//! The game clock (issue 10 §4): each side's thinking time, per move, with an optional time
//! limit per side (plus an increment per move), kept with the saved game.
//!
//! [`GameClock`] is plain data that never reads the time itself: every method takes `now`, and
//! the app core reads it from its [`TimeSource`], which tests replace by a fake they advance by
//! hand. So the accounting is exact and testable without sleeping.
//!
//! The model, as a strong player expects it:
//! - the clock starts with the game's first stone (as chess clocks do: the first move is free,
//!   and a game left untouched on screen does not tick) and runs for the side to move, for the
//!   computer as for a person;
//! - it stops when the game ends, and pauses while the app is in the background or a sheet is
//!   open (the UI says so with `set_clock_paused`);
//! - each move keeps the time its side spent on it; stones the clock did not see (a loaded
//!   record, an opening's stones, a game saved before the clock existed) have none;
//! - undo takes the moves back, not the time: what was spent on them stays on their side's
//!   total ([`GameClock::take_back`]), and redo puts it back on the replayed moves — so a side's
//!   time never runs backwards and undo is no way to win time;
//! - with a limit, a side whose remaining time reaches zero loses on time, whoever is to move;
//! - in a Swap / Swap2 opening phase (`swap.rs`) the time is the players', not the stones':
//!   it runs for whoever acts (choices included), each opening stone's time is its placer's
//!   (the opener places a white stone on its own time), and until the colours are decided the
//!   opener's time is black's and the chooser's white's — the colours they would play if nobody
//!   swapped. When the opener ends up white, the times change sides with their players
//!   ([`GameClock::swap_sides`]). A flag falls in the phase as after it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

use serde::{Deserialize, Serialize};
use wuzi::{Color, Game};

/// Where the clock reads the time: the system's monotonic clock, or a fake that tests move.
#[derive(Clone, Debug)]
pub struct TimeSource {
    base: Instant,
    fake_ms: Option<Arc<AtomicU64>>,
}

impl TimeSource {
    /// The system's monotonic clock.
    #[must_use]
    pub fn system() -> TimeSource {
        TimeSource {
            base: Instant::now(),
            fake_ms: None,
        }
    }

    /// A clock that stands still until the returned handle advances it (in milliseconds).
    #[must_use]
    pub fn fake() -> (TimeSource, Arc<AtomicU64>) {
        let ms = Arc::new(AtomicU64::new(0));
        let source = TimeSource {
            base: Instant::now(),
            fake_ms: Some(Arc::clone(&ms)),
        };
        (source, ms)
    }

    /// Now.
    #[must_use]
    pub fn now(&self) -> Instant {
        match &self.fake_ms {
            Some(ms) => self.base + Duration::from_millis(ms.load(Ordering::SeqCst)),
            None => Instant::now(),
        }
    }
}

/// A time limit: `base_ms` per side for the game, and `increment_ms` added after each of its
/// moves (Fischer).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimeLimit {
    /// Time per side for the whole game, in milliseconds.
    pub base_ms: u64,
    /// Added to a side's time after each of its moves, in milliseconds.
    pub increment_ms: u64,
}

/// One game's clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    limit: Option<TimeLimit>,
    /// Who played the first move (black, unless the game started from a set-up position).
    first: Color,
    /// Whose time the first moves were, where that is not their colour: a Swap / Swap2
    /// opening's stones, by ply (`SwapGame::clock_owners`). Later moves are their colour's.
    owners: Vec<Color>,
    /// The time spent on each move of the game, in order; `None` where the clock did not see
    /// the move.
    moves: Vec<Option<u64>>,
    /// The times of the moves taken back, the last one taken back last: redo replays them.
    redo: Vec<Option<u64>>,
    /// Time each side spent that belongs to no move on the board: moves taken back, thinking
    /// interrupted by an undo. It still counts against the side.
    extra_ms: [u64; 2],
    /// The side to move's time on its current move, up to the last pause or `since`.
    pending_ms: u64,
    /// Running since this instant (for the side to move); `None` while stopped.
    since: Option<Instant>,
    /// The side whose time ran out.
    flag: Option<Color>,
}

/// The clock as the UI draws it: times in milliseconds as of the reply; while `running`, the
/// side to move's time goes on from there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    /// Ticking for the side to move now.
    pub running: bool,
    /// The side whose time runs: the side to move, or in a Swap / Swap2 opening phase the side
    /// of whoever acts (the opener's is black's until the colours are decided).
    pub side: Option<Color>,
    /// Black's time spent, this move included when black is to move.
    pub black_ms: u64,
    /// White's time spent.
    pub white_ms: u64,
    /// Black's time left, with a limit (0 once it ran out).
    pub black_left_ms: Option<u64>,
    /// White's time left, with a limit.
    pub white_left_ms: Option<u64>,
    /// Both sides' time: the game's length on the clock.
    pub total_ms: u64,
    /// The limit, if any.
    pub limit: Option<TimeLimit>,
    /// The time spent on each move (`None`: not seen by the clock), in order.
    pub move_ms: Vec<Option<u64>>,
    /// Whose time the first moves were where that is not their colour (a Swap / Swap2
    /// opening's stones, by ply); the later moves' are their colour's.
    pub owners: Vec<Color>,
    /// The side that lost on time.
    pub flag: Option<Color>,
}

/// The clock in the game file. Unknown fields are refused so that a damaged or foreign clock
/// is dropped (the game loads without it) rather than half read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SavedClock {
    limit: Option<TimeLimit>,
    moves: Vec<Option<u64>>,
    #[serde(default)]
    redo: Vec<Option<u64>>,
    #[serde(default)]
    extra_ms: [u64; 2],
    #[serde(default)]
    pending_ms: u64,
    #[serde(default)]
    flag: Option<Color>,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl GameClock {
    /// A clock for `game` whose moves so far it did not see (a new game's opening stones, a
    /// loaded record), with `limit`.
    #[must_use]
    pub fn new(game: &Game, limit: Option<TimeLimit>) -> GameClock {
        GameClock {
            limit,
            first: first_mover(game),
            owners: Vec::new(),
            moves: vec![None; game.moves().len()],
            redo: vec![None; game.redo_moves().len()],
            extra_ms: [0; 2],
            pending_ms: 0,
            since: None,
            flag: None,
        }
    }

    /// The clock read from a save, made to fit `game`: per-move times that do not match its
    /// moves are forgotten (the totals stay), a flag on a game the board already decided is
    /// dropped. `owners` as for [`GameClock::set_owners`]. Stopped; [`GameClock::run`] starts it.
    #[must_use]
    pub fn restore(saved: SavedClock, game: &Game, owners: Vec<Color>) -> GameClock {
        let mut clock = GameClock {
            limit: saved.limit,
            first: first_mover(game),
            owners,
            moves: saved.moves,
            redo: saved.redo,
            extra_ms: saved.extra_ms,
            pending_ms: saved.pending_ms,
            since: None,
            flag: saved.flag.filter(|_| game.result().is_none()),
        };
        if clock.moves.len() != game.moves().len() {
            // Keep what was spent, on the sides' totals.
            for (i, t) in clock.moves.iter().enumerate() {
                let c = clock.color_of(i).index();
                clock.extra_ms[c] = clock.extra_ms[c].saturating_add(t.unwrap_or(0));
            }
            clock.moves = vec![None; game.moves().len()];
        }
        if clock.redo.len() != game.redo_moves().len() {
            clock.redo = vec![None; game.redo_moves().len()];
        }
        clock
    }

    /// What the game file keeps; the time of the move under way up to `now` included.
    #[must_use]
    pub fn to_saved(&self, now: Instant) -> SavedClock {
        SavedClock {
            limit: self.limit,
            moves: self.moves.clone(),
            redo: self.redo.clone(),
            extra_ms: self.extra_ms,
            pending_ms: self.current_ms(now),
            flag: self.flag,
        }
    }

    /// The limit.
    #[must_use]
    pub const fn limit(&self) -> Option<TimeLimit> {
        self.limit
    }

    /// The side that lost on time.
    #[must_use]
    pub const fn flag(&self) -> Option<Color> {
        self.flag
    }

    /// Whether it is running.
    #[must_use]
    pub const fn running(&self) -> bool {
        self.since.is_some()
    }

    /// Whose time the move at `ply` is.
    fn color_of(&self, ply: usize) -> Color {
        if let Some(&owner) = self.owners.get(ply) {
            owner
        } else if ply % 2 == 0 {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The side to move's time on its current move so far.
    fn current_ms(&self, now: Instant) -> u64 {
        let running = self
            .since
            .map_or(0, |s| ms(now.saturating_duration_since(s)));
        self.pending_ms.saturating_add(running)
    }

    /// Starts (or keeps running) the clock at `now` when `on`, stops it otherwise; the time
    /// up to `now` stays with the side to move.
    pub fn run(&mut self, on: bool, now: Instant) {
        let on = on && self.flag.is_none();
        match (on, self.since) {
            (true, None) => self.since = Some(now),
            (false, Some(_)) => {
                self.pending_ms = self.current_ms(now);
                self.since = None;
            }
            _ => {}
        }
    }

    /// Says whose time the opening's first moves are, by ply (empty: each move's colour's).
    pub fn set_owners(&mut self, owners: Vec<Color>) {
        self.owners = owners;
    }

    /// The players change colours (a Swap / Swap2 opener ends up white): the time that
    /// belongs to no move goes with its player. The moves' own times follow their owners, which
    /// the caller changes with [`GameClock::set_owners`]; the move under way stays its thinker's.
    pub fn swap_sides(&mut self) {
        self.extra_ms.swap(0, 1);
        self.flag = self.flag.map(Color::other);
    }

    /// The move just played ends its side's turn at `now`: its time is recorded with it.
    pub fn record_move(&mut self, now: Instant) {
        let spent = self.current_ms(now);
        self.moves.push(Some(spent));
        self.redo.clear();
        self.pending_ms = 0;
        self.since = self.since.map(|_| now);
    }

    /// The side to move's thinking so far belongs to no move any more (an undo or redo is
    /// about to change the side to move): it stays on `to_move`'s total.
    pub fn bank(&mut self, to_move: Color, now: Instant) {
        let spent = self.current_ms(now);
        let c = to_move.index();
        self.extra_ms[c] = self.extra_ms[c].saturating_add(spent);
        self.pending_ms = 0;
        self.since = self.since.map(|_| now);
    }

    /// The last move was taken back: its time waits for a redo, and still counts for its side.
    pub fn take_back(&mut self) {
        let Some(t) = self.moves.pop() else { return };
        let c = self.color_of(self.moves.len()).index();
        self.extra_ms[c] = self.extra_ms[c].saturating_add(t.unwrap_or(0));
        self.redo.push(t);
    }

    /// The move taken back last was played again: its time is its own again.
    pub fn replay(&mut self) {
        let t = self.redo.pop().flatten();
        let c = self.color_of(self.moves.len()).index();
        self.extra_ms[c] = self.extra_ms[c].saturating_sub(t.unwrap_or(0));
        self.moves.push(t);
    }

    /// `color`'s time spent as of `now`, `to_move` being the side to move.
    #[must_use]
    pub fn used_ms(&self, color: Color, to_move: Color, now: Instant) -> u64 {
        let on_moves: u64 = self
            .moves
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.color_of(i) == color)
            .map(|(_, t)| t.unwrap_or(0))
            .sum();
        let current = if color == to_move {
            self.current_ms(now)
        } else {
            0
        };
        on_moves
            .saturating_add(self.extra_ms[color.index()])
            .saturating_add(current)
    }

    /// `color`'s time left as of `now` (negative once overstepped); `None` without a limit.
    #[must_use]
    pub fn left_ms(&self, color: Color, to_move: Color, now: Instant) -> Option<i64> {
        let limit = self.limit?;
        let timed_moves = self
            .moves
            .iter()
            .enumerate()
            .filter(|&(i, t)| t.is_some() && self.color_of(i) == color)
            .count() as u64;
        let allowed = limit
            .base_ms
            .saturating_add(limit.increment_ms.saturating_mul(timed_moves));
        let used = self.used_ms(color, to_move, now);
        let signed = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Some(signed(allowed).saturating_sub(signed(used)))
    }

    /// Whether the side to move ran out of time by `now`; if so the flag falls and the clock
    /// stops with that side's time exactly spent.
    pub fn check_flag(&mut self, to_move: Color, now: Instant) -> bool {
        if self.flag.is_some() {
            return false;
        }
        match self.left_ms(to_move, to_move, now) {
            Some(left) if left <= 0 => {
                // The clock shows 0:00, not the moment someone happened to look.
                let over = u64::try_from(-left).unwrap_or(0);
                self.pending_ms = self.current_ms(now).saturating_sub(over);
                self.since = None;
                self.flag = Some(to_move);
                true
            }
            _ => false,
        }
    }

    /// The clock for the UI as of `now`.
    #[must_use]
    pub fn view(&self, to_move: Color, now: Instant) -> ClockView {
        let black_ms = self.used_ms(Color::Black, to_move, now);
        let white_ms = self.used_ms(Color::White, to_move, now);
        let left = |c| {
            self.left_ms(c, to_move, now)
                .map(|l| u64::try_from(l).unwrap_or(0))
        };
        ClockView {
            running: self.running(),
            side: Some(to_move),
            black_ms,
            white_ms,
            black_left_ms: left(Color::Black),
            white_left_ms: left(Color::White),
            total_ms: black_ms.saturating_add(white_ms),
            limit: self.limit,
            move_ms: self.moves.clone(),
            owners: self.owners.clone(),
            flag: self.flag,
        }
    }
}

fn first_mover(game: &Game) -> Color {
    game.setup().map_or(Color::Black, |s| s.to_move)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::{Point, Rule};

    fn game(moves: &[&str]) -> Game {
        let mut g = Game::new(Rule::Freestyle, 15).unwrap();
        for m in moves {
            g.try_play(Point::from_rif(m, 15).unwrap()).unwrap();
        }
        g
    }

    struct Fake {
        t0: Instant,
        at: u64,
    }

    impl Fake {
        fn new() -> Fake {
            Fake {
                t0: Instant::now(),
                at: 0,
            }
        }
        fn wait(&mut self, ms: u64) -> Instant {
            self.at += ms;
            self.now()
        }
        fn now(&self) -> Instant {
            self.t0 + Duration::from_millis(self.at)
        }
    }

    const FIVE_MIN: TimeLimit = TimeLimit {
        base_ms: 300_000,
        increment_ms: 0,
    };

    #[test]
    fn each_move_keeps_its_time_and_the_sides_add_up() {
        let mut t = Fake::new();
        let mut c = GameClock::new(&game(&[]), None);
        // Black's first stone: the clock was not running.
        c.record_move(t.now());
        c.run(true, t.now());
        c.record_move(t.wait(1500)); // white
        c.record_move(t.wait(4000)); // black
        let v = c.view(Color::White, t.wait(700));
        assert_eq!(v.move_ms, [Some(0), Some(1500), Some(4000)]);
        assert_eq!((v.black_ms, v.white_ms, v.total_ms), (4000, 2200, 6200));
        assert!(v.running && v.black_left_ms.is_none());
    }

    #[test]
    fn a_pause_stops_the_side_to_move() {
        let mut t = Fake::new();
        let mut c = GameClock::new(&game(&["h8"]), None);
        c.run(true, t.now());
        c.run(false, t.wait(1000));
        let stopped = c.view(Color::White, t.wait(60_000));
        assert_eq!(stopped.white_ms, 1000);
        assert!(!stopped.running);
        c.run(true, t.now());
        c.record_move(t.wait(500));
        assert_eq!(c.view(Color::Black, t.now()).move_ms, [None, Some(1500)]);
    }

    #[test]
    fn undo_takes_the_moves_back_but_not_the_time_and_redo_restores_them() {
        let mut t = Fake::new();
        let mut c = GameClock::new(&game(&[]), None);
        c.run(true, t.now());
        c.record_move(t.wait(1000)); // black 1000
        c.record_move(t.wait(2000)); // white 2000
        let before = c.view(Color::Black, t.wait(300));
        // Black thought 300 ms, then took back white's move and its own.
        c.bank(Color::Black, t.now());
        c.take_back();
        c.take_back();
        let after = c.view(Color::Black, t.now());
        assert_eq!((after.black_ms, after.white_ms), (1300, 2000));
        assert_eq!(after.move_ms, []);
        assert_eq!(before.total_ms, after.total_ms);
        // Redo both: the times are the moves' again, nothing counts twice.
        c.bank(Color::Black, t.wait(100));
        c.replay();
        c.replay();
        let redone = c.view(Color::Black, t.now());
        assert_eq!(redone.move_ms, [Some(1000), Some(2000)]);
        assert_eq!((redone.black_ms, redone.white_ms), (1400, 2000));
        // A new move after an undo forgets the moves that could have been redone.
        c.bank(Color::Black, t.now());
        c.take_back();
        c.record_move(t.wait(50));
        assert!(c.redo.is_empty());
    }

    #[test]
    fn the_flag_falls_at_zero_and_not_before() {
        let mut t = Fake::new();
        let mut c = GameClock::new(&game(&["h8"]), Some(FIVE_MIN));
        c.run(true, t.now());
        assert!(!c.check_flag(Color::White, t.wait(299_999)));
        assert_eq!(c.left_ms(Color::White, Color::White, t.now()), Some(1));
        // Noticed late (nobody tapped): the clock still shows exactly the limit spent.
        assert!(c.check_flag(Color::White, t.wait(5_000)));
        let v = c.view(Color::White, t.wait(5_000));
        assert_eq!(v.flag, Some(Color::White));
        assert_eq!(
            (v.white_ms, v.white_left_ms, v.black_left_ms),
            (300_000, Some(0), Some(300_000))
        );
        assert!(!v.running);
        c.run(true, t.now());
        assert!(!c.running(), "a fallen flag keeps the clock stopped");
        assert!(!c.check_flag(Color::White, t.now()), "it falls once");
    }

    #[test]
    fn the_increment_comes_after_each_timed_move() {
        let mut t = Fake::new();
        let limit = TimeLimit {
            base_ms: 10_000,
            increment_ms: 2_000,
        };
        let mut c = GameClock::new(&game(&["h8", "h9", "h10"]), Some(limit));
        c.run(true, t.now());
        c.record_move(t.wait(3_000)); // white, after the untimed opening
        assert_eq!(c.left_ms(Color::White, Color::Black, t.now()), Some(9_000));
        assert_eq!(
            c.left_ms(Color::Black, Color::Black, t.wait(1_000)),
            Some(9_000)
        );
    }

    #[test]
    fn a_saved_clock_comes_back_as_it_was_and_a_mismatched_one_keeps_only_totals() {
        let mut t = Fake::new();
        let g = game(&["h8", "h9"]);
        let mut c = GameClock::new(&game(&[]), Some(FIVE_MIN));
        c.record_move(t.now());
        c.run(true, t.now());
        c.record_move(t.wait(1200));
        let saved = c.to_saved(t.wait(800));
        let json = serde_json::to_string(&saved).unwrap();
        let back = GameClock::restore(serde_json::from_str(&json).unwrap(), &g, Vec::new());
        assert!(!back.running());
        assert_eq!(back.view(Color::Black, t.now()), {
            let mut v = c.view(Color::Black, t.now());
            v.running = false;
            v
        });
        // Three times for a game of two moves: the moves lose them, the sides keep them.
        let mut odd = saved.clone();
        odd.moves.push(Some(5_000));
        let back = GameClock::restore(odd, &g, Vec::new());
        let v = back.view(Color::Black, t.now());
        assert_eq!(v.move_ms, [None, None]);
        assert_eq!((v.black_ms, v.white_ms), (5_800, 1_200));
        // Foreign fields or values of the wrong kind do not read at all.
        for bad in [
            r#"{"limit":null,"moves":[1,2],"bogus":1}"#,
            r#"{"limit":null,"moves":[-1]}"#,
            r#"{"limit":{"baseMs":"x","incrementMs":0},"moves":[]}"#,
        ] {
            assert!(serde_json::from_str::<SavedClock>(bad).is_err(), "{bad}");
        }
    }
}
