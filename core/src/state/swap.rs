//! The opening rules Swap and Swap2 in the app (issue 10 §3): the game session's phase
//! (`parts/swap.rs`, its rules in `parts/session.rs`) wired to the commands. The human's
//! choices are [`GameHandle::choose_opening`], the computer's actions
//! [`SearchHandle::finish_opening`].
//!
//! Against the computer the human opens (places stones 1–3) when the "you play" colour is
//! black, the computer when it is white, as the side that moves first in a game without an
//! opening rule. The phase decides who acts; once it is done, the human's colour is the one
//! the phase gave them, and the game goes on (and is counted) as any other.
//!
//! Undo corrects the stones of the phase until the choice that follows them is made, and
//! never takes back a choice or the stones before it: once the colours are decided, the
//! opening's stones stay on the board, as a renju opening's do.

use crate::error::{Error, Result};
use crate::parts::change::Change;
use crate::parts::opening::Choice;
use crate::parts::search::{ComputerAnswer, OpeningAction, SearchJob};
use crate::state::game::GameHandle;
use crate::state::search::SearchHandle;
use crate::view::GameView;

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
        let swap = self.core.session.human_choice(choice)?;
        let role = self.core.session.clock_side_role();
        self.core.change_position(Change::Decided, |core| {
            core.session.decided(swap, core.session.game.moves().len());
            // The chooser goes on thinking on its next stone, or its time is its side's.
            let acts_next = core.session.clock_side() == swap.clock_color(role);
            core.clock.after_choice(&core.session, role, acts_next);
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
        if self.core.clock().check_flag() {
            return Err(Error::GameOver);
        }
        let action = action.ok_or(Error::Cancelled)?;
        let role = self.core.session.clock_side_role();
        let (game, swap, stones) = self.core.session.computer_action(action)?;
        self.core
            .change_position(Change::Played { by_human: false }, |core| {
                core.session.game = game;
                core.session.decided(swap, stones);
                // One role did it all, on one search: its thinking is its first stone's (the
                // choice's included, the path records it), or its side's when it only chose.
                if action.choice.is_some() {
                    core.clock
                        .after_choice(&core.session, role, !action.stones.is_empty());
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
