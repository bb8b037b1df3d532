//! The clock in the app's state, behind [`AppCore::clock`]: the game's
//! [`crate::parts::session_clock::SessionClock`] checked on every command that could act on a
//! fallen flag, paused and let run again. The clock's rules (when it runs, what a change
//! banks, the computer's budget from its time) are the part's.

use crate::parts::change::Change;
use crate::state::AppCore;
use crate::store::GAME_FILE;
use crate::view::GameView;

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
}

impl ClockHandle<'_> {
    /// Checks the side to move's flag, as every command that could act on a fallen flag does
    /// first: if it fell, the game is over now (the search stops, a game against the computer
    /// is counted, the game is saved). Says whether it fell.
    pub fn check_flag(&mut self) -> bool {
        let core = &mut *self.core;
        if !core.clock.flag_falls(&core.session) {
            return false;
        }
        let _ = core.change_position(Change::FlagFell, |_| Ok(()));
        true
    }

    /// The game as it stands on the clock (the UI asks when the time it shows runs out, so a
    /// flag falls even if nobody taps).
    pub fn check(&mut self) -> GameView {
        self.check_flag();
        self.core.view()
    }

    /// Pauses the clock (the app went to the background, a sheet opened) or lets it run again.
    /// A pause also saves the game, with the time up to now.
    pub fn set_paused(&mut self, paused: bool) -> GameView {
        self.check_flag();
        let core = &mut *self.core;
        if core.clock.set_paused(paused, &core.session) && paused {
            core.save(&[GAME_FILE]);
        }
        core.view()
    }
}
