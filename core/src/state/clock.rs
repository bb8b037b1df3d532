//! The clock in the app's state, behind [`AppCore::clock`]: the game's
//! [`crate::parts::clock::GameClock`] started and stopped as the game goes, checked on every
//! command that could act on a fallen flag, and the computer's search budget taken from its
//! time.

use std::time::Duration;

use wuzi::gomocup::TimeControl;
use wuzi::{Color, Level, Limits};

use crate::parts::change::Change;
use crate::parts::opening::Side;
use crate::state::AppCore;
use crate::view::{GameView, ResultView};

/// The game clock's commands, borrowed from [`AppCore::clock`]: the flag checked, the clock
/// paused and let run again.
#[derive(Debug)]
pub struct ClockHandle<'a> {
    core: &'a mut AppCore,
}

impl AppCore {
    /// The game clock: its flag checked, paused, let run again.
    pub fn clock(&mut self) -> ClockHandle<'_> {
        ClockHandle { core: self }
    }

    /// Whether the game is over, on the board or on time.
    pub(super) fn over(&self) -> bool {
        self.game.result().is_some() || self.clock.flag().is_some()
    }

    /// The side whose time runs now: the side to move, or in a Swap / Swap2 opening phase the
    /// side of the role that acts (the opener's time is black's until the colours are decided,
    /// the chooser's white's).
    pub(super) fn clock_side(&self) -> Color {
        match self.swap_in_progress().and_then(|s| s.phase.actor()) {
            Some(Side::Opener) => Color::Black,
            Some(Side::Chooser) => Color::White,
            None => self.game.to_move(),
        }
    }

    /// Runs the clock while the game is under way (from its first stone, or from a set-up
    /// position's start, until its end) and the app is in front of the player; stops it
    /// otherwise.
    pub(super) fn sync_clock(&mut self) {
        self.clock.set_owners(self.session.clock_owners());
        let under_way = !self.game.moves().is_empty() || self.game.setup().is_some();
        let on = !self.clock_paused && !self.over() && under_way;
        self.clock.run(on, self.time.now());
    }

    /// Checks the side to move's flag; if it fell, the game is over now: the search stops,
    /// a game against the computer is counted and the game saved. Says whether it fell.
    pub(crate) fn check_flag(&mut self) -> bool {
        if self.game.result().is_some()
            || !self.clock.check_flag(self.clock_side(), self.time.now())
        {
            return false;
        }
        let _ = self.change_position(Change::FlagFell, |_| Ok(()));
        true
    }

    /// Fills in the clock of `view`, and the result when a flag fell.
    pub(super) fn show_clock(&self, view: &mut GameView) {
        view.clock = self.clock.view(self.clock_side(), self.time.now());
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

    /// The computer's search limits at `level`: its level's own budget, and with a time limit
    /// never more than the Gomocup match budget for the time it has left (`TimeControl::budget`);
    /// Master, the level that plays at full strength, takes that budget whole.
    pub(super) fn search_limits(&self, level: Level) -> Limits {
        self.limits_on_the_clock(level.default_limits(), level == Level::Master)
    }

    /// `own` limits for the side whose time runs, with a time limit never more than the match
    /// budget for the time it has left; with `whole`, that budget replaces them. The computer's
    /// Swap / Swap2 decisions use Master's own limits this way (`swap.rs`): a fair opening
    /// without spending a timed game's budget on it.
    pub(super) fn limits_on_the_clock(&self, own: Limits, whole: bool) -> Limits {
        let to_move = self.clock_side();
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
        let budget = control.budget(self.game.moves().len(), Duration::ZERO);
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

impl ClockHandle<'_> {
    /// Checks the side to move's flag, as every command that could act on a fallen flag does
    /// first: if it fell, the game is over now (the search stops, a game against the computer
    /// is counted, the game is saved). Says whether it fell.
    pub fn check_flag(&mut self) -> bool {
        self.core.check_flag()
    }

    /// The game as it stands on the clock (the UI asks when the time it shows runs out, so a
    /// flag falls even if nobody taps).
    pub fn check(&mut self) -> GameView {
        self.core.check_flag();
        self.core.view()
    }

    /// Pauses the clock (the app went to the background, a sheet opened) or lets it run again.
    /// A pause also saves the game, with the time up to now.
    pub fn set_paused(&mut self, paused: bool) -> GameView {
        self.core.check_flag();
        if self.core.clock_paused != paused {
            self.core.clock_paused = paused;
            self.core.sync_clock();
            if paused {
                self.core.save_game();
            }
        }
        self.core.view()
    }
}
