//! The game session: the game, who plays it ([`GameSetup`]) and its Swap / Swap2 opening phase
//! (`swap.rs`), with the rules that need nothing else: which position a request is for, who
//! acts, what the human's move, undo and redo do, the opening phase's choices and the
//! computer's actions in it, and the finished game to count in the statistics.
//!
//! It never reads the time, saves or runs a hook: the app state (`state/`) makes every change
//! of a session through its one path of a change of the position, and its clock is
//! `session_clock.rs`.

use wuzi::{Color, Game, Level, Point};

use crate::error::{Error, Result};
use crate::parts::change::Position;
use crate::parts::opening::{Choice, OpeningError, OpeningRule, Side, Stage};
use crate::parts::search::{OpeningAction, OpeningTask};
use crate::parts::swap::SwapGame;
use crate::settings::{HumanResult, Mode};
use crate::view::GameSetup;

/// The IPC error for a refused opening action on a board of `size`.
fn opening_error(e: OpeningError, size: u8) -> Error {
    match e {
        OpeningError::ChoiceDue => Error::ChoiceDue,
        OpeningError::NoChoiceDue => Error::NoChoiceDue,
        OpeningError::Play(e) => Error::from_play(e, size),
        other => Error::BadArgument(other.to_string()),
    }
}

/// A finished game against the computer, to count in the statistics once: its uid, level,
/// the human's result, and whether it was analysed.
pub type Counted = (u64, Level, HumanResult, bool);

/// The game and who plays it, its opening phase included.
#[derive(Clone, Debug)]
pub struct Session {
    /// The game, as the referee keeps it.
    pub game: Game,
    /// Who plays it, its identity and its opening (the Swap / Swap2 phase in `setup.swap`).
    pub setup: GameSetup,
}

impl Session {
    /// The current position as the hooks of a change see it.
    #[must_use]
    pub fn position(&self) -> Position {
        (
            self.setup.game_id,
            self.game.moves().len(),
            self.game.moves().last().copied(),
            self.game.to_move(),
            self.setup.swap,
        )
    }

    /// Whether `(game_id, move_number)`, the position a request was made for, is the current
    /// one.
    ///
    /// # Errors
    /// [`Error::Stale`] if it is not.
    pub fn check_position(&self, game_id: u64, move_number: usize) -> Result<()> {
        if game_id == self.setup.game_id && move_number == self.game.moves().len() {
            Ok(())
        } else {
            Err(Error::Stale)
        }
    }

    /// The game's position after its first `n` moves, replayed from its start (the set-up
    /// position or the empty board) with nothing to redo: what analysis and review search.
    ///
    /// # Errors
    /// As the referee's for a move of the game (never, for a game it accepted).
    pub fn replayed(&self, n: usize) -> Result<Game> {
        let size = self.game.size();
        let mut game = self.game.at_start();
        for &p in self.game.moves().iter().take(n) {
            game.try_play(p).map_err(|e| Error::from_play(e, size))?;
        }
        Ok(game)
    }

    /// The opening phase of the game, while it decides who acts.
    #[must_use]
    pub fn swap_in_progress(&self) -> Option<SwapGame> {
        self.setup.swap.filter(SwapGame::in_progress)
    }

    /// The side whose time runs now: the side to move, or in a Swap / Swap2 opening phase the
    /// side of the role that acts (the opener's time is black's until the colours are decided,
    /// the chooser's white's).
    #[must_use]
    pub fn clock_side(&self) -> Color {
        match self.swap_in_progress().and_then(|s| s.phase.actor()) {
            Some(Side::Opener) => Color::Black,
            Some(Side::Chooser) => Color::White,
            None => self.game.to_move(),
        }
    }

    /// The role that acts in the phase now (the opener when none does: only asked in it).
    #[must_use]
    pub fn clock_side_role(&self) -> Side {
        self.swap_in_progress()
            .and_then(|s| s.phase.actor())
            .unwrap_or(Side::Opener)
    }

    /// What the computer does in the phase now, if it acts in it.
    #[must_use]
    pub fn opening_task(&self) -> Option<OpeningTask> {
        let swap = self.swap_in_progress()?;
        let n = self.game.moves().len();
        Some(match swap.phase.stage() {
            Stage::PlaceThree if n == 0 => OpeningTask::Propose,
            Stage::ChooseAfterThree if swap.phase.rule() == OpeningRule::Swap2 => {
                OpeningTask::AfterThree
            }
            Stage::ChooseAfterThree | Stage::ChooseColour => OpeningTask::Colour,
            _ => OpeningTask::Stone,
        })
    }

    /// The point named `text` (RIF) on the game's board.
    ///
    /// # Errors
    /// `offBoard` for a point off the board, `badArgument` for text that is no point.
    pub fn parse_point(&self, text: &str) -> Result<Point> {
        Point::from_rif(text, self.game.size()).map_err(|e| match e {
            wuzi::ParsePointError::OffBoard { text, .. } => Error::OffBoard(text),
            other => Error::BadArgument(other.to_string()),
        })
    }

    /// The human's stone at `p`: a move of the game, or a stone of the opening phase.
    ///
    /// # Errors
    /// `occupied` / `forbidden` / `gameOver` from the referee, `choiceDue` while the phase
    /// waits for a choice. Nothing changes then.
    pub fn play(&mut self, p: Point) -> Result<()> {
        let size = self.game.size();
        match self.swap_in_progress() {
            Some(mut swap) => {
                swap.phase
                    .place(&mut self.game, p)
                    .map_err(|e| opening_error(e, size))?;
                self.setup.swap = Some(swap);
                Ok(())
            }
            None => self
                .game
                .try_play(p)
                .map(drop)
                .map_err(|e| Error::from_play(e, size)),
        }
    }

    /// Takes back what undo takes back, once [`GameSetup::can_undo`] said it may: in the
    /// opening phase one of the human's stones of the stage under way; between two players the
    /// last move; against the computer its reply and the human's move before it.
    pub fn undo(&mut self) {
        if let Some(mut swap) = self.swap_in_progress() {
            // `can_undo` allowed it: one of the human's stones of the stage under way.
            if swap.phase.take_back(&mut self.game).is_ok() {
                self.setup.swap = Some(swap);
            }
            return;
        }
        match self.setup.mode {
            Mode::Local => {
                self.game.undo();
            }
            Mode::Computer => {
                // `can_undo` promised a human move after the opening stones, so the loop
                // stops on it before reaching them.
                while self.game.moves().len() > self.setup.fixed_moves()
                    && self.game.undo().is_some()
                {
                    // After an undo the side to move is the side that made the undone move.
                    if self.game.to_move() == self.setup.human_color {
                        break;
                    }
                }
            }
        }
    }

    /// Replays what redo replays, once [`GameSetup::can_redo`] said it may: the last undone
    /// move, and against the computer its reply after it.
    pub fn redo(&mut self) {
        if let Some(mut swap) = self.swap_in_progress() {
            if swap.phase.redo(&mut self.game).is_ok() {
                self.setup.swap = Some(swap);
            }
            return;
        }
        self.game.redo();
        if self.setup.mode == Mode::Computer {
            while self.setup.computer_to_move(&self.game) && self.game.redo().is_some() {}
        }
    }

    /// The phase after the human's `choice`, checked but not yet kept.
    ///
    /// # Errors
    /// `noChoiceDue` without a phase or while stones are due, `notYourTurn` when the computer
    /// is to choose, `badArgument` for a choice the stage does not offer.
    pub fn human_choice(&self, choice: Choice) -> Result<SwapGame> {
        let mut swap = self.swap_in_progress().ok_or(Error::NoChoiceDue)?;
        if swap.phase.choices().is_empty() {
            return Err(Error::NoChoiceDue);
        }
        if !swap.human_acts(self.setup.mode) {
            return Err(Error::NotYourTurn);
        }
        swap.phase
            .choose(choice)
            .map_err(|e| opening_error(e, self.game.size()))?;
        Ok(swap)
    }

    /// The computer's opening `action` played on a copy of the game: the game, the phase after
    /// it and the stones of the phase, which the session takes together or not at all.
    ///
    /// # Errors
    /// `stale` without a phase in progress; `internal` if the action does not fit it (a bug).
    pub fn computer_action(&self, action: &OpeningAction) -> Result<(Game, SwapGame, usize)> {
        let mut swap = self.swap_in_progress().ok_or(Error::Stale)?;
        let mut game = self.game.clone();
        let mut stones = game.moves().len();
        let applied = (|| {
            if let Some(choice) = action.choice {
                swap.phase.choose(choice)?;
            }
            for &p in &action.stones {
                if swap.phase.is_done() {
                    // White's move after the choice is the game's, not the opening's.
                    game.try_play(p).map_err(OpeningError::Play)?;
                } else {
                    swap.phase.place(&mut game, p)?;
                    stones = game.moves().len();
                }
            }
            Ok::<_, OpeningError>(())
        })();
        if let Err(e) = applied {
            log::error!("the computer's opening action {action:?} does not fit: {e}");
            return Err(Error::Internal);
        }
        Ok((game, swap, stones))
    }

    /// Keeps `swap` as the game's phase, and once it is done the human's colour and the
    /// `stones` of the opening, which stay.
    pub fn decided(&mut self, mut swap: SwapGame, stones: usize) {
        if let Some(color) = swap.human_color() {
            swap.stones = stones;
            if self.setup.mode == Mode::Computer {
                self.setup.human_color = color;
            }
        }
        self.setup.swap = Some(swap);
    }

    /// A move against the computer made while analysis is on marks the game as analysed: its
    /// result is counted apart in the stats (the player had the engine's help).
    pub fn mark_analysed(&mut self, analysis_on: bool) {
        if analysis_on && self.setup.mode == Mode::Computer {
            self.setup.analysed = true;
        }
    }

    /// The game to count in the statistics, once: a game against the computer that ended on
    /// the board or on time (`flag`: whose flag fell), not counted before. It is counted from
    /// now on.
    pub fn to_count(&mut self, flag: Option<Color>) -> Option<Counted> {
        let winner = match (self.game.result(), flag) {
            (Some(result), _) => result.winner,
            (None, Some(loser)) => Some(loser.other()),
            (None, None) => return None,
        };
        if self.setup.mode != Mode::Computer || self.setup.stats_counted {
            return None;
        }
        let outcome = match winner {
            None => HumanResult::Draw,
            Some(c) if c == self.setup.human_color => HumanResult::Win,
            Some(_) => HumanResult::Loss,
        };
        self.setup.stats_counted = true;
        let s = &self.setup;
        Some((s.game_uid, s.level, outcome, s.analysed))
    }
}

#[cfg(test)]
mod tests {
    use wuzi::Rule;

    use super::*;
    use crate::settings::Settings;

    fn pt(text: &str) -> Point {
        Point::from_rif(text, 15).unwrap()
    }

    /// A fresh freestyle session as `settings` (changed by `edit`) say.
    fn session(edit: impl FnOnce(&mut Settings)) -> Session {
        let mut settings = Settings::default();
        edit(&mut settings);
        let game = Game::new(Rule::Freestyle, 15).unwrap();
        let setup = GameSetup::from_settings(&settings, 1, &game, None);
        Session { game, setup }
    }

    fn vs_computer(human: Color) -> Session {
        session(|s| {
            s.mode = Mode::Computer;
            s.human_color = human;
        })
    }

    #[test]
    fn a_request_is_for_the_current_game_and_its_stones() {
        let mut s = vs_computer(Color::Black);
        assert!(s.check_position(1, 0).is_ok());
        s.play(pt("h8")).unwrap();
        assert!(matches!(s.check_position(1, 0), Err(Error::Stale)));
        assert!(matches!(s.check_position(2, 1), Err(Error::Stale)));
        assert!(s.check_position(1, 1).is_ok());
        assert_eq!(s.position(), (1, 1, Some(pt("h8")), Color::White, None));
    }

    #[test]
    fn the_humans_stone_is_the_referees_to_refuse_or_a_point_off_the_board() {
        let mut s = vs_computer(Color::Black);
        assert!(matches!(s.parse_point("z99"), Err(Error::OffBoard(_))));
        assert!(matches!(s.parse_point("h"), Err(Error::BadArgument(_))));
        s.play(s.parse_point("h8").unwrap()).unwrap();
        assert!(matches!(s.play(pt("h8")), Err(Error::Occupied(_))));
        assert_eq!(s.game.moves().len(), 1, "a refused stone changes nothing");
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_and_the_humans_move_and_redo_both() {
        let mut s = vs_computer(Color::Black);
        for p in ["h8", "h9", "i8", "i9"] {
            s.game.try_play(pt(p)).unwrap();
        }
        s.undo();
        assert_eq!(s.game.moves(), [pt("h8"), pt("h9")]);
        s.redo();
        assert_eq!(s.game.moves().len(), 4);
        let mut local = session(|s| s.mode = Mode::Local);
        for p in ["h8", "h9"] {
            local.game.try_play(pt(p)).unwrap();
        }
        local.undo();
        assert_eq!(
            local.game.moves(),
            [pt("h8")],
            "between two players one move"
        );
    }

    #[test]
    fn replayed_positions_carry_nothing_to_redo() {
        let mut s = session(|s| s.mode = Mode::Local);
        for p in ["h8", "h9", "i8"] {
            s.game.try_play(pt(p)).unwrap();
        }
        s.game.undo();
        let earlier = s.replayed(1).unwrap();
        assert_eq!(earlier.moves(), [pt("h8")]);
        assert!(!earlier.can_redo());
    }

    #[test]
    fn a_swap_phase_decides_who_acts_and_on_whose_time() {
        // The computer opens (the human plays white): it proposes, the human chooses.
        let mut s = session(|s| {
            s.mode = Mode::Computer;
            s.human_color = Color::White;
            s.opening_rule = OpeningRule::Swap;
        });
        assert_eq!(s.opening_task(), Some(OpeningTask::Propose));
        assert_eq!(
            (s.clock_side(), s.clock_side_role()),
            (Color::Black, Side::Opener)
        );
        assert!(matches!(
            s.human_choice(Choice::Black),
            Err(Error::NoChoiceDue)
        ));
        let proposal = OpeningAction {
            choice: None,
            stones: vec![pt("h8"), pt("h9"), pt("i8")],
        };
        let (game, swap, stones) = s.computer_action(&proposal).unwrap();
        assert_eq!(s.game.moves().len(), 0, "played on a copy");
        s.game = game;
        s.decided(swap, stones);
        assert_eq!(
            (s.clock_side(), s.clock_side_role()),
            (Color::White, Side::Chooser)
        );
        assert!(matches!(s.play(pt("j8")), Err(Error::ChoiceDue)));
        // The human takes black: the colours are decided, the three stones stay.
        let swap = s.human_choice(Choice::Black).unwrap();
        s.decided(swap, s.game.moves().len());
        assert_eq!(s.setup.human_color, Color::Black);
        assert_eq!(s.setup.fixed_moves(), 3);
        assert!(s.swap_in_progress().is_none() && s.opening_task().is_none());
        assert!(
            s.setup.computer_to_move(&s.game),
            "white's fourth stone is the computer's"
        );
        // An action that does not fit the phase is a bug, and changes nothing.
        assert!(matches!(s.computer_action(&proposal), Err(Error::Stale)));
    }

    #[test]
    fn the_computer_cannot_be_answered_for_nor_a_phase_action_misplayed() {
        let mut s = session(|s| {
            s.mode = Mode::Computer;
            s.human_color = Color::Black;
            s.opening_rule = OpeningRule::Swap;
        });
        for p in ["h8", "h9", "i8"] {
            s.play(pt(p)).unwrap();
        }
        assert!(matches!(
            s.human_choice(Choice::White),
            Err(Error::NotYourTurn)
        ));
        assert_eq!(s.opening_task(), Some(OpeningTask::Colour));
        let misfit = OpeningAction {
            choice: None,
            stones: vec![pt("j8")],
        };
        assert!(matches!(s.computer_action(&misfit), Err(Error::Internal)));
        assert_eq!(s.game.moves().len(), 3);
    }

    #[test]
    fn a_finished_game_against_the_computer_is_counted_once() {
        let mut s = vs_computer(Color::White);
        assert_eq!(s.to_count(None), None, "not finished");
        s.mark_analysed(true);
        // Black's flag fell: white, the human, won.
        let (uid, level, outcome, analysed) = s.to_count(Some(Color::Black)).unwrap();
        assert_eq!(
            (uid, level, outcome, analysed),
            (s.setup.game_uid, s.setup.level, HumanResult::Win, true)
        );
        assert_eq!(s.to_count(Some(Color::Black)), None, "once");
        let mut local = session(|s| s.mode = Mode::Local);
        local.mark_analysed(true);
        assert!(!local.setup.analysed);
        assert_eq!(
            local.to_count(Some(Color::Black)),
            None,
            "two players: never"
        );
    }
}
