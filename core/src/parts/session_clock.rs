//! The game session's clock: the [`GameClock`] (`clock.rs`) with where it reads the time and
//! whether the UI paused it, and the rules that tie it to the [`Session`]: it runs while the
//! game is under way, whose time runs (the opening phase's roles included), what a change of
//! the position banks, records or gives back, what a choice of the opening phase does to it,
//! when a flag falls, and the computer's search budget taken from its time.

use std::time::Duration;

use web_time::Instant;
use wuzi::gomocup::TimeControl;
use wuzi::{Color, Level, Limits};

use crate::parts::change::Change;
use crate::parts::clock::{GameClock, SavedClock, TimeSource};
use crate::parts::opening::Side;
use crate::parts::session::Session;
use crate::view::{GameView, ResultView};

/// The game's clock and its time source.
#[derive(Debug)]
pub struct SessionClock {
    clock: GameClock,
    /// Where the clock reads the time (a fake one in tests).
    time: TimeSource,
    /// The UI paused the clock: the app is in the background or a sheet is open.
    paused: bool,
}

/// The clock as it stood before a change of the position, for [`SessionClock::after_change`].
#[derive(Copy, Clone, Debug)]
pub struct Before {
    moves: usize,
    /// The side whose time ran: the thinking under way is its.
    side: Color,
    now: Instant,
}

impl SessionClock {
    /// `clock`, reading `time`, running.
    #[must_use]
    pub fn new(clock: GameClock, time: TimeSource) -> SessionClock {
        SessionClock {
            clock,
            time,
            paused: false,
        }
    }

    /// A new game brings its own `clock` (the pause stays the UI's).
    pub fn reset(&mut self, clock: GameClock) {
        self.clock = clock;
    }

    /// The side whose flag fell, if one did.
    #[must_use]
    pub fn flag(&self) -> Option<Color> {
        self.clock.flag()
    }

    /// Whether the game of `s` is over, on the board or on time.
    #[must_use]
    pub fn over(&self, s: &Session) -> bool {
        s.game.result().is_some() || self.clock.flag().is_some()
    }

    /// The clock for the game file, as of now.
    #[must_use]
    pub fn to_saved(&self) -> SavedClock {
        self.clock.to_saved(self.time.now())
    }

    /// Runs the clock while the game of `s` is under way (from its first stone, or from a
    /// set-up position's start, until its end) and the app is in front of the player; stops it
    /// otherwise.
    pub fn sync(&mut self, s: &Session) {
        self.clock.set_owners(s.setup.clock_owners());
        let under_way = !s.game.moves().is_empty() || s.game.setup().is_some();
        let on = !self.paused && !self.over(s) && under_way;
        self.clock.run(on, self.time.now());
    }

    /// Pauses the clock or lets it run again; says whether that changed anything.
    pub fn set_paused(&mut self, paused: bool, s: &Session) -> bool {
        if self.paused == paused {
            return false;
        }
        self.paused = paused;
        self.sync(s);
        true
    }

    /// Whether the flag of the side whose time runs in `s` falls now (it stays fallen).
    pub fn flag_falls(&mut self, s: &Session) -> bool {
        s.game.result().is_none() && self.clock.check_flag(s.clock_side(), self.time.now())
    }

    /// The clock before a change of the position of `s`.
    #[must_use]
    pub fn before_change(&self, s: &Session) -> Before {
        Before {
            moves: s.game.moves().len(),
            side: s.clock_side(),
            now: self.time.now(),
        }
    }

    /// The clock after `change` made `s` what it is now: the moves' time recorded, banked or
    /// given back, and the clock run or stopped for the new position.
    pub fn after_change(&mut self, change: Change, before: Before, s: &Session) {
        let (moves, now) = (s.game.moves().len(), before.now);
        match change {
            // An opening stone's time is its placer's (`GameClock` owners), whatever its
            // colour; one search that placed several gives its time to the first.
            Change::Played { .. } => {
                for _ in before.moves..moves {
                    self.clock.record_move(now);
                }
            }
            // Undo takes the moves back, not the time, and redo gives it back to them.
            Change::Undone => {
                self.clock.bank(before.side, now);
                for _ in moves..before.moves {
                    self.clock.take_back();
                }
            }
            Change::Redone => {
                self.clock.bank(before.side, now);
                for _ in before.moves..moves {
                    self.clock.replay();
                }
            }
            // A new game brings its own clock; a choice banks its chooser's time itself.
            Change::Replaced { .. } | Change::Decided | Change::FlagFell => {}
        }
        self.sync(s);
    }

    /// The clock after `role` made a choice of the opening phase of `s` (the phase is already
    /// the one after it): when it decided the colours and the opener is white, the times change
    /// sides with their players; the choice's thinking stays on the move under way if `role`
    /// `acts_next` (its next stone includes it), else on `role`'s side's total.
    pub fn after_choice(&mut self, s: &Session, role: Side, acts_next: bool) {
        let Some(swap) = s.setup.swap else {
            return;
        };
        if swap.opener_color() == Color::White {
            // Only at the decision: no choice follows it.
            self.clock.swap_sides();
        }
        self.clock.set_owners(swap.clock_owners());
        if !acts_next {
            self.clock.bank(swap.clock_color(role), self.time.now());
        }
    }

    /// Fills in the clock of `view` (of `s`), and the result when a flag fell.
    pub fn show(&self, s: &Session, view: &mut GameView) {
        view.clock = self.clock.view(s.clock_side(), self.time.now());
        if let (None, Some(loser)) = (&view.result, self.clock.flag()) {
            view.result = Some(ResultView {
                winner: Some(loser.other()),
                reason: "time",
                line: Vec::new(),
            });
            view.forbidden.clear();
            view.computer_to_move = false;
            // The flag is final: time spent is never given back.
            view.can_undo = false;
            view.can_redo = false;
        }
    }

    /// The computer's search limits at `level` in `s`: its level's own budget, and with a time
    /// limit never more than the Gomocup match budget for the time it has left
    /// (`TimeControl::budget`); Master, the level that plays at full strength, takes that
    /// budget whole.
    #[must_use]
    pub fn search_limits(&self, s: &Session, level: Level) -> Limits {
        self.limits_on_the_clock(s, level.default_limits(), level == Level::Master)
    }

    /// `own` limits for the side whose time runs in `s`, with a time limit never more than the
    /// match budget for the time it has left; with `whole`, that budget replaces them. The
    /// computer's Swap / Swap2 decisions use Master's own limits this way: a fair opening
    /// without spending a timed game's budget on it.
    #[must_use]
    pub fn limits_on_the_clock(&self, s: &Session, own: Limits, whole: bool) -> Limits {
        let to_move = s.clock_side();
        let (Some(limit), Some(left)) = (
            self.clock.limit(),
            self.clock.left_ms(to_move, to_move, self.time.now()),
        ) else {
            return own;
        };
        let control = TimeControl {
            turn_ms: None,
            match_ms: Some(limit.base_ms),
            time_left_ms: Some(left),
            increment_ms: limit.increment_ms,
        };
        let budget = control.budget(s.game.moves().len(), Duration::ZERO);
        if whole {
            Limits {
                time: Some(budget.search),
                target: Some(budget.target),
                ..own
            }
        } else {
            Limits {
                time: own.time.map(|t| t.min(budget.search)),
                ..own
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use wuzi::{Game, Point, Rule};

    use super::*;
    use crate::parts::clock::TimeLimit;
    use crate::settings::{Mode, Settings};
    use crate::view::GameSetup;

    fn pt(text: &str) -> Point {
        Point::from_rif(text, 15).unwrap()
    }

    /// A game between two players with `limit`, its clock on a fake time source.
    fn timed(limit: Option<TimeLimit>) -> (Session, SessionClock, Arc<AtomicU64>) {
        let settings = Settings {
            mode: Mode::Local,
            ..Settings::default()
        };
        let game = Game::new(Rule::Freestyle, 15).unwrap();
        let setup = GameSetup::from_settings(&settings, 1, &game, None);
        let (time, ms) = TimeSource::fake();
        let clock = SessionClock::new(GameClock::new(&game, limit), time);
        (Session { game, setup }, clock, ms)
    }

    /// `s` plays `p` through the clock's side of a change.
    fn play(s: &mut Session, c: &mut SessionClock, p: &str) {
        let before = c.before_change(s);
        s.play(pt(p)).unwrap();
        c.after_change(Change::Played { by_human: true }, before, s);
    }

    fn wait(ms: &Arc<AtomicU64>, by: u64) {
        ms.fetch_add(by, Ordering::SeqCst);
    }

    #[test]
    fn the_clock_runs_from_the_first_stone_while_not_paused() {
        let (mut s, mut c, ms) = timed(None);
        c.sync(&s);
        let view = |s: &Session, c: &SessionClock| {
            let mut v = GameView::new(&s.game, &s.setup);
            c.show(s, &mut v);
            v.clock
        };
        assert!(!view(&s, &c).running, "not before the first stone");
        wait(&ms, 500);
        play(&mut s, &mut c, "h8");
        assert!(view(&s, &c).running);
        assert_eq!(
            view(&s, &c).move_ms,
            [Some(0)],
            "black's first stone cost nothing"
        );
        wait(&ms, 700);
        assert!(c.set_paused(true, &s));
        assert!(!c.set_paused(true, &s), "already paused");
        wait(&ms, 5_000);
        assert!(!view(&s, &c).running);
        assert!(c.set_paused(false, &s));
        wait(&ms, 300);
        play(&mut s, &mut c, "h9");
        assert_eq!(
            view(&s, &c).move_ms,
            [Some(0), Some(1_000)],
            "the pause is nobody's"
        );
    }

    #[test]
    fn undo_banks_the_thinking_and_takes_back_the_moves_time() {
        let (mut s, mut c, ms) = timed(None);
        play(&mut s, &mut c, "h8");
        wait(&ms, 2_000);
        play(&mut s, &mut c, "h9");
        wait(&ms, 400);
        let before = c.before_change(&s);
        s.undo();
        c.after_change(Change::Undone, before, &s);
        let mut v = GameView::new(&s.game, &s.setup);
        c.show(&s, &mut v);
        assert_eq!(v.clock.move_ms, [Some(0)]);
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (400, 2_000));
    }

    #[test]
    fn a_flag_falls_once_ends_the_game_and_bounds_the_search() {
        let limit = TimeLimit {
            base_ms: 60_000,
            increment_ms: 0,
        };
        let (mut s, mut c, ms) = timed(Some(limit));
        play(&mut s, &mut c, "h8");
        // Ten minutes of its own, but a minute on the clock: the clock's budget bounds it.
        let own = Limits::time(Duration::from_secs(600));
        let bounded = c.limits_on_the_clock(&s, own, false);
        assert!(
            bounded.time.unwrap() < Duration::from_secs(60),
            "{bounded:?}"
        );
        assert!(c.search_limits(&s, Level::Master).target.is_some());
        wait(&ms, 59_999);
        assert!(!c.flag_falls(&s) && !c.over(&s));
        wait(&ms, 1);
        assert!(c.flag_falls(&s));
        assert!(!c.flag_falls(&s), "it falls once");
        assert_eq!(c.flag(), Some(Color::White));
        assert!(c.over(&s));
        let mut v = GameView::new(&s.game, &s.setup);
        c.show(&s, &mut v);
        let result = v.result.expect("lost on time");
        assert_eq!((result.winner, result.reason), (Some(Color::Black), "time"));
        assert!(!v.can_undo && !v.clock.running);
        // Untimed, the level's own limits stand.
        let (s, c, _) = timed(None);
        assert_eq!(c.limits_on_the_clock(&s, own, true), own);
    }
}
