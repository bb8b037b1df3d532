//! The game's own commands, behind [`AppCore::game`]: a new game, the human's move, undo and
//! redo here; records in `records.rs`, the position editor in `setup.rs`, the choices of the
//! Swap / Swap2 opening phase in `swap.rs`. Each makes its change through the one path of a
//! change of the position (`position.rs`), so none can leave a hook out.

use wuzi::{Point, Rule};

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::clock::GameClock;
use crate::settings::{check_size, Mode};
use crate::state::{fresh_game, AppCore, NewGameOptions};
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
                core.game = match opening {
                    Some(o) => o
                        .game(settings.size)
                        .unwrap_or_else(|_| fresh_game(settings.rule, settings.size)),
                    None => fresh_game(settings.rule, settings.size),
                };
                core.clock = GameClock::new(&core.game, settings.time_limit());
                core.session = GameSetup::from_settings(
                    &settings,
                    core.session.game_id.wrapping_add(1),
                    &core.game,
                    opening,
                );
                if settings != core.settings {
                    core.settings = settings;
                    core.save_settings();
                }
                Ok(())
            })?;
        Ok(self.core.view())
    }

    fn parse_point(&self, text: &str) -> Result<Point> {
        let size = self.core.game.size();
        Point::from_rif(text, size).map_err(|e| match e {
            wuzi::ParsePointError::OffBoard { text, .. } => Error::OffBoard(text),
            other => Error::BadArgument(other.to_string()),
        })
    }

    /// The human plays `point` in the position `(game_id, move_number)` they saw.
    ///
    /// # Errors
    /// `stale` for an old position, `gameOver`, `notYourTurn` while the computer is to move,
    /// `badArgument` / `offBoard` / `occupied` / `forbidden` for the point. Nothing changes then.
    pub fn play(&mut self, point: &str, game_id: u64, move_number: usize) -> Result<GameView> {
        self.core.check_live(game_id, move_number)?;
        if self.core.session.computer_to_move(&self.core.game) {
            return Err(Error::NotYourTurn);
        }
        let p = self.parse_point(point)?;
        let size = self.core.game.size();
        // A hint for the previous position is of no use any more: the path cancels it.
        self.core
            .change_position(Change::Played { by_human: true }, |core| {
                match core.swap_in_progress() {
                    Some(swap) => core.place_opening_stone(swap, p),
                    None => core
                        .game
                        .try_play(p)
                        .map(drop)
                        .map_err(|e| Error::from_play(e, size)),
                }
            })?;
        Ok(self.core.view())
    }

    /// Takes back the last move; against the computer, its reply and the human's move before it.
    pub fn undo(&mut self) -> GameView {
        self.core.check_flag();
        if !self.core.session.can_undo(&self.core.game) || self.core.clock.flag().is_some() {
            return self.core.view();
        }
        // The thinking so far stays with whoever was thinking: in the opening phase the side
        // of the role that acts, not of the stone's colour (the path banks it).
        let _ = self.core.change_position(Change::Undone, |core| {
            if let Some(mut swap) = core.swap_in_progress() {
                // `can_undo` allowed it: one of the human's stones of the stage under way.
                if swap.phase.take_back(&mut core.game).is_ok() {
                    core.session.swap = Some(swap);
                }
                return Ok(());
            }
            match core.session.mode {
                Mode::Local => {
                    core.game.undo();
                }
                Mode::Computer => {
                    // `can_undo` promised a human move after the opening stones, so the loop
                    // stops on it before reaching them.
                    while core.game.moves().len() > core.session.fixed_moves()
                        && core.game.undo().is_some()
                    {
                        // After an undo the side to move is the side that made the undone move.
                        if core.game.to_move() == core.session.human_color {
                            break;
                        }
                    }
                }
            }
            Ok(())
        });
        self.core.view()
    }

    /// Replays the last undone move; against the computer, also the computer's reply after it.
    pub fn redo(&mut self) -> GameView {
        self.core.check_flag();
        if !self.core.session.can_redo(&self.core.game) || self.core.clock.flag().is_some() {
            return self.core.view();
        }
        let _ = self.core.change_position(Change::Redone, |core| {
            if let Some(mut swap) = core.swap_in_progress() {
                if swap.phase.redo(&mut core.game).is_ok() {
                    core.session.swap = Some(swap);
                }
                return Ok(());
            }
            core.game.redo();
            if core.session.mode == Mode::Computer {
                while core.session.computer_to_move(&core.game) && core.game.redo().is_some() {}
            }
            Ok(())
        });
        self.core.view()
    }
}
