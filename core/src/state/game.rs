//! The game's own commands, behind [`AppCore::game`]: a new game, the human's move, undo and
//! redo here; records in `records.rs`, the position editor in `setup.rs`, the choices of the
//! Swap / Swap2 opening phase in `swap.rs`. Each makes its change through the one path of a
//! change of the position (`position.rs`), so none can leave a hook out.

use wuzi::Rule;

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::clock::GameClock;
use crate::settings::check_size;
use crate::state::{fresh_game, AppCore, NewGameOptions};
use crate::store::SETTINGS_FILE;
use crate::view::{GameSetup, GameView};

/// The commands that change the game itself (new game, move, undo, redo, records, the editor,
/// the opening phase's choices), borrowed from [`AppCore::game`].
#[derive(Debug)]
pub struct GameHandle<'a> {
    pub(super) core: &'a mut AppCore,
}

impl AppCore {
    /// The game's commands: new game, move, undo, redo, records, the editor, opening choices.
    pub fn game(&mut self) -> GameHandle<'_> {
        GameHandle { core: self }
    }
}

impl GameHandle<'_> {
    /// Starts a new game; the options also become the defaults for the next one.
    ///
    /// # Errors
    /// [`Error::BadArgument`] for a size the engine does not play; nothing changes then.
    pub fn new_game(&mut self, options: NewGameOptions) -> Result<GameView> {
        let mut settings = self.core.settings.clone();
        settings.mode = options.mode.unwrap_or(settings.mode);
        settings.rule = options.rule.unwrap_or(settings.rule);
        settings.size = options.size.unwrap_or(settings.size);
        settings.level = options.level.unwrap_or(settings.level);
        settings.human_color = options.human_color.unwrap_or(settings.human_color);
        settings.renju_opening = options.renju_opening.unwrap_or(settings.renju_opening);
        settings.opening_rule = options.opening_rule.unwrap_or(settings.opening_rule);
        check_size(settings.size)?;
        let opening = match settings.rule {
            Rule::Renju => settings.renju_opening.opening(crate::random::random_u64()),
            Rule::Freestyle | Rule::Standard => None,
        };

        // A new game starts without analysis; the UI turns it on again where it wants it.
        self.core
            .change_position(Change::Replaced { analysis_off: true }, |core| {
                core.session.game = match opening {
                    Some(o) => o
                        .game(settings.size)
                        .unwrap_or_else(|_| fresh_game(settings.rule, settings.size)),
                    None => fresh_game(settings.rule, settings.size),
                };
                core.clock
                    .reset(GameClock::new(&core.session.game, settings.time_limit()));
                core.session.setup = GameSetup::from_settings(
                    &settings,
                    core.session.setup.game_id.wrapping_add(1),
                    &core.session.game,
                    opening,
                );
                if settings != core.settings {
                    core.settings = settings;
                    core.save(&[SETTINGS_FILE]);
                }
                Ok(())
            })?;
        Ok(self.core.view())
    }

    /// The human plays `point` in the position `(game_id, move_number)` they saw.
    ///
    /// # Errors
    /// `stale` for an old position, `gameOver`, `notYourTurn` while the computer is to move,
    /// `badArgument` / `offBoard` / `occupied` / `forbidden` for the point. Nothing changes then.
    pub fn play(&mut self, point: &str, game_id: u64, move_number: usize) -> Result<GameView> {
        self.core.check_live(game_id, move_number)?;
        if self
            .core
            .session
            .setup
            .computer_to_move(&self.core.session.game)
        {
            return Err(Error::NotYourTurn);
        }
        let p = self.core.session.parse_point(point)?;
        // A hint for the previous position is of no use any more: the path cancels it.
        self.core
            .change_position(Change::Played { by_human: true }, |core| {
                core.session.play(p)
            })?;
        Ok(self.core.view())
    }

    /// Takes back the last move; against the computer, its reply and the human's move before it.
    pub fn undo(&mut self) -> GameView {
        self.core.clock().check_flag();
        let core = &mut *self.core;
        if !core.session.setup.can_undo(&core.session.game) || core.clock.flag().is_some() {
            return core.view();
        }
        // The thinking so far stays with whoever was thinking: in the opening phase the side
        // of the role that acts, not of the stone's colour (the path banks it).
        let _ = core.change_position(Change::Undone, |core| {
            core.session.undo();
            Ok(())
        });
        core.view()
    }

    /// Replays the last undone move; against the computer, also the computer's reply after it.
    pub fn redo(&mut self) -> GameView {
        self.core.clock().check_flag();
        let core = &mut *self.core;
        if !core.session.setup.can_redo(&core.session.game) || core.clock.flag().is_some() {
            return core.view();
        }
        let _ = core.change_position(Change::Redone, |core| {
            core.session.redo();
            Ok(())
        });
        core.view()
    }
}
