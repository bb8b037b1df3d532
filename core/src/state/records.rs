//! Game records, behind [`crate::state::AppCore::game`]: export as a move string or SGF,
//! import as a new game.

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::clock::GameClock;
use crate::state::game::GameHandle;
use crate::state::RecordFormat;
use crate::view::{GameSetup, GameView};

impl GameHandle<'_> {
    /// The game as a record.
    ///
    /// # Errors
    /// [`Error::NeedsSgf`] for a move string of a game from a set-up position: it would hold
    /// only the moves after the setup and load as another game.
    pub fn export_record(&self, format: RecordFormat) -> Result<String> {
        match format {
            RecordFormat::Moves if self.core.session.game.setup().is_some() => Err(Error::NeedsSgf),
            RecordFormat::Moves => Ok(wuzi::notation::write_moves(&self.core.session.game)),
            RecordFormat::Sgf => Ok(wuzi::notation::write_sgf(&self.core.session.game)),
        }
    }

    /// Replaces the game by the one in `text` (a move string or SGF), as a new game. A move
    /// string (or an SGF without `RU`/`SZ`) is read under the current game's rule and size.
    ///
    /// # Errors
    /// [`Error::BadRecord`] if the text is not a record of a legal game; nothing changes then.
    pub fn import_record(&mut self, text: &str) -> Result<GameView> {
        let game = wuzi::notation::parse_record(
            text,
            self.core.session.game.rule(),
            self.core.session.game.size(),
        )
        .map_err(|e| Error::BadRecord(e.to_string()))?;
        // Analysis stays on: the UI starts the next job for the record's position.
        self.core.change_position(
            Change::Replaced {
                analysis_off: false,
            },
            |core| {
                core.session.setup = GameSetup {
                    game_id: core.session.setup.game_id.wrapping_add(1),
                    // A finished record is history, not a game won against the computer now; a
                    // record from a set-up position is practice, like the editor's (`start_setup`).
                    stats_counted: game.result().is_some() || game.setup().is_some(),
                    game_uid: GameSetup::new_uid(),
                    analysed: false,
                    opening: None,
                    swap: None,
                    ..core.session.setup
                };
                core.session.game = game;
                // A record has no clock: its moves stay untimed, and the game goes on without a
                // limit.
                core.clock.reset(GameClock::new(&core.session.game, None));
                Ok(())
            },
        )?;
        Ok(self.core.view())
    }
}
