//! The opening rules Swap and Swap2 in the app (issue 10 §3): the game session's
//! [`SwapGame`] (`parts/swap.rs`) wired to the commands, the computer's roles in it, undo,
//! saves and the view. The human's choices are [`GameHandle::choose_opening`], the computer's
//! actions [`SearchHandle::finish_opening`].
//!
//! Against the computer the human opens (places stones 1–3) when the "you play" colour is
//! black, the computer when it is white, as the side that moves first in a game without an
//! opening rule. The phase decides who acts; once it is done, the human's colour is the one
//! the phase gave them, and the game goes on (and is counted) as any other.
//!
//! Undo corrects the stones of the phase until the choice that follows them is made, and
//! never takes back a choice or the stones before it: once the colours are decided, the
//! opening's stones stay on the board, as a renju opening's do.

use wuzi::{Color, Point};

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::opening::{Choice, OpeningError, OpeningRule, Side, Stage};
use crate::parts::search::{ComputerAnswer, OpeningAction, OpeningTask, SearchJob};
use crate::parts::swap::SwapGame;
use crate::settings::Mode;
use crate::state::game::GameHandle;
use crate::state::search::SearchHandle;
use crate::state::AppCore;
use crate::view::GameView;
/// The IPC error for a refused opening action on a board of `size`.
fn opening_error(e: OpeningError, size: u8) -> Error {
    match e {
        OpeningError::ChoiceDue => Error::ChoiceDue,
        OpeningError::NoChoiceDue => Error::NoChoiceDue,
        OpeningError::Play(e) => Error::from_play(e, size),
        other => Error::BadArgument(other.to_string()),
    }
}

impl AppCore {
    /// The opening phase of the current game, while it decides who acts.
    pub(super) fn swap_in_progress(&self) -> Option<SwapGame> {
        self.session.swap.filter(SwapGame::in_progress)
    }

    /// What the computer does in the phase now, if it acts in it.
    pub(super) fn opening_task(&self) -> Option<OpeningTask> {
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

    /// The human places a stone of the phase at `p`.
    pub(super) fn place_opening_stone(&mut self, mut swap: SwapGame, p: Point) -> Result<()> {
        let size = self.game.size();
        swap.phase
            .place(&mut self.game, p)
            .map_err(|e| opening_error(e, size))?;
        self.session.swap = Some(swap);
        Ok(())
    }

    /// The role that acts in the phase now (the opener when none does: only asked in it).
    fn clock_side_role(&self) -> Side {
        self.swap_in_progress()
            .and_then(|s| s.phase.actor())
            .unwrap_or(Side::Opener)
    }

    /// The clock after `role` made a choice (the phase is already the one after it): when it
    /// decided the colours and the opener is white, the times change sides with their players;
    /// the choice's thinking stays on the move under way if `role` `acts_next` (its next stone
    /// includes it), else on `role`'s side's total.
    fn clock_after_choice(&mut self, role: Side, acts_next: bool) {
        let Some(swap) = self.session.swap else {
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

    /// Keeps `swap` as the game's phase, and once it is done the human's colour and the
    /// `stones` of the opening, which stay.
    fn decided(&mut self, mut swap: SwapGame, stones: usize) {
        if let Some(color) = swap.human_color() {
            swap.stones = stones;
            if self.session.mode == Mode::Computer {
                self.session.human_color = color;
            }
        }
        self.session.swap = Some(swap);
    }
}

impl GameHandle<'_> {
    /// The player makes `choice` in the opening phase of the position `(game_id, move_number)`
    /// they saw: take black, keep white, or (Swap2, after three stones) place two more.
    ///
    /// # Errors
    /// `stale` for an old position, `noChoiceDue` without a phase or while stones are due,
    /// `notYourTurn` when the computer is to choose, `badArgument` for a choice the stage does
    /// not offer. Nothing changes then.
    pub fn choose_opening(
        &mut self,
        choice: Choice,
        game_id: u64,
        move_number: usize,
    ) -> Result<GameView> {
        self.core.check_live(game_id, move_number)?;
        let mut swap = self.core.swap_in_progress().ok_or(Error::NoChoiceDue)?;
        if swap.phase.choices().is_empty() {
            return Err(Error::NoChoiceDue);
        }
        if !swap.human_acts(self.core.session.mode) {
            return Err(Error::NotYourTurn);
        }
        let size = self.core.game.size();
        swap.phase
            .choose(choice)
            .map_err(|e| opening_error(e, size))?;
        let role = self.core.clock_side_role();
        self.core.change_position(Change::Decided, |core| {
            core.decided(swap, core.game.moves().len());
            // The chooser goes on thinking on its next stone, or its time is its side's.
            let acts_next = core.clock_side() == swap.clock_color(role);
            core.clock_after_choice(role, acts_next);
            Ok(())
        })?;
        Ok(self.core.view())
    }
}

impl SearchHandle<'_> {
    /// Plays the computer's opening action, if it is still wanted; the phase and the game
    /// change together or not at all.
    ///
    /// # Errors
    /// `cancelled` / `stale` as for [`SearchHandle::finish_move`]; `internal` if the action does
    /// not fit the phase (a bug: nothing is played).
    pub fn finish_opening(
        &mut self,
        job: &SearchJob,
        action: Option<&OpeningAction>,
    ) -> Result<GameView> {
        self.end(job)?;
        // Its time ran out while it thought: the flag falls, and the action comes too late.
        if self.core.check_flag() {
            return Err(Error::GameOver);
        }
        let action = action.ok_or(Error::Cancelled)?;
        let mut swap = self.core.swap_in_progress().ok_or(Error::Stale)?;
        let role = self.core.clock_side_role();
        let mut game = self.core.game.clone();
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
        self.core
            .change_position(Change::Played { by_human: false }, |core| {
                core.game = game;
                core.decided(swap, stones);
                // One role did it all, on one search: its thinking is its first stone's (the
                // choice's included, the path records it), or its side's when it only chose.
                if action.choice.is_some() {
                    core.clock_after_choice(role, !action.stones.is_empty());
                }
                Ok(())
            })?;
        Ok(self.core.view())
    }

    /// The computer's turn, whichever it is: see [`SearchHandle::finish_move`] and
    /// [`SearchHandle::finish_opening`].
    ///
    /// # Errors
    /// As theirs.
    pub fn finish_computer(
        &mut self,
        job: &SearchJob,
        answer: &ComputerAnswer,
    ) -> Result<GameView> {
        match answer {
            ComputerAnswer::Move(result) => self.finish_move(job, result),
            ComputerAnswer::Opening(action) => self.finish_opening(job, action.as_ref()),
        }
    }
}
