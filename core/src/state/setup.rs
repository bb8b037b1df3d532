//! The position editor in the app state, behind [`crate::state::AppCore::game`]: a
//! [`SetupRequest`] (`parts/setup.rs`) checked, or started as a new game.

use crate::error::Result;
use crate::parts::change::Change;
use crate::parts::clock::GameClock;
use crate::parts::setup::{SetupPlayers, SetupRequest};
use crate::settings::Mode;
use crate::state::game::GameHandle;
use crate::view::{GameSetup, GameView};

impl GameHandle<'_> {
    /// Whether `request` can start a game; changes nothing either way.
    ///
    /// # Errors
    /// As [`SetupRequest::game`].
    pub fn check_setup(&self, request: &SetupRequest) -> Result<()> {
        request.game().map(drop)
    }

    /// Replaces the game by one starting from `request`, played by `players`, as a new game.
    /// The settings stay as they were: they are the defaults of the next ordinary game. A set-up
    /// position is practice: its result is never counted in the statistics.
    ///
    /// # Errors
    /// As [`SetupRequest::game`]; nothing changes then.
    pub fn start_setup(
        &mut self,
        request: &SetupRequest,
        players: &SetupPlayers,
    ) -> Result<GameView> {
        let game = request.game()?;
        // As after `new_game`: the UI turns analysis on again when the player asked for it.
        self.core
            .change_position(Change::Replaced { analysis_off: true }, |core| {
                core.session.setup = GameSetup {
                    game_id: core.session.setup.game_id.wrapping_add(1),
                    mode: players.mode,
                    level: players.level.unwrap_or(core.settings.level),
                    human_color: players.human_color.unwrap_or(core.settings.human_color),
                    // The empty board with black to move is an ordinary game and counts as one.
                    stats_counted: game.setup().is_some(),
                    game_uid: GameSetup::new_uid(),
                    analysed: false,
                    opening: None,
                    // An edited position starts as it stands: a Swap / Swap2 opening (issue 10 §3)
                    // is for the empty board, and its stones here were the player's own choice.
                    swap: None,
                };
                core.session.game = game;
                // The clock times the moves from the position (its stones have no times) and runs
                // at once: the side to move is already thinking. A time limit is for a game
                // against the computer, where it also bounds the computer's search; between two
                // players and in analysis a set-up position is study, like a loaded record, and
                // has none.
                let limit = match players.mode {
                    Mode::Computer => core.settings.time_limit(),
                    Mode::Local => None,
                };
                core.clock.reset(GameClock::new(&core.session.game, limit));
                Ok(())
            })?;
        Ok(self.core.view())
    }
}
