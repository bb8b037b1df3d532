//! The opening rules Swap and Swap2 in the app (issue 10 §3): the game session's
//! [`SwapGame`] (`parts/swap.rs`) wired to the commands, the computer's roles in it, undo,
//! saves and the view.
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
        self.core.check_position(game_id, move_number)?;
        self.core.check_flag();
        if self.core.over() {
            return Err(Error::GameOver);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parts::clock::TimeSource;
    use crate::parts::search::SearchKind;
    use crate::settings::Settings;
    use crate::state::tests::{answer, pos};
    use crate::state::{NewGameOptions, RecordFormat};
    use crate::store::MemoryStore;
    use crate::store::{GAME_FILE, SETTINGS_FILE};
    use serde_json::json;
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;
    use wuzi::{Engine, Level, Rule};

    fn core_in(dir: &MemoryStore) -> AppCore {
        AppCore::load(dir.clone())
    }

    fn play(core: &mut AppCore, point: &str) -> Result<GameView> {
        let (id, n) = pos(core);
        core.game().play(point, id, n)
    }

    fn choose(core: &mut AppCore, choice: Choice) -> Result<GameView> {
        let (id, n) = pos(core);
        core.game().choose_opening(choice, id, n)
    }

    fn pt(text: &str) -> Point {
        Point::from_rif(text, 15).unwrap()
    }

    fn new_game(core: &mut AppCore, mode: Mode, rule: OpeningRule, human: Color) -> GameView {
        core.game()
            .new_game(NewGameOptions {
                mode: Some(mode),
                rule: Some(Rule::Freestyle),
                size: Some(15),
                level: Some(Level::Easy),
                human_color: Some(human),
                renju_opening: None,
                opening_rule: Some(rule),
            })
            .unwrap()
    }

    /// The computer's turn, with `action` standing in for the engine's decision.
    fn computer_acts(core: &mut AppCore, action: OpeningAction) -> GameView {
        let (id, n) = pos(core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert!(job.opening.is_some(), "an opening task, not a move");
        core.search()
            .finish_computer(&job, &ComputerAnswer::Opening(Some(action)))
            .unwrap()
    }

    /// The computer's ordinary move `best`.
    fn computer_moves(core: &mut AppCore, best: &str) -> GameView {
        let (id, n) = pos(core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.opening, None, "an ordinary move");
        core.search()
            .finish_computer(&job, &ComputerAnswer::Move(answer(best, 15)))
            .unwrap()
    }

    fn action(choice: Option<Choice>, stones: &[&str]) -> OpeningAction {
        OpeningAction {
            choice,
            stones: stones.iter().map(|s| pt(s)).collect(),
        }
    }

    /// `result` is refused with `code` and the game on screen did not change.
    fn refused(
        core: &mut AppCore,
        code: &str,
        result: impl FnOnce(&mut AppCore) -> Result<GameView>,
    ) {
        let before = core.view();
        let err = result(core).unwrap_err();
        assert_eq!(err.code(), code, "{err}");
        assert_eq!(core.view(), before);
    }

    fn stage(v: &GameView) -> &'static str {
        v.swap.as_ref().expect("a swap game").stage
    }

    #[test]
    fn the_opening_rule_is_a_setting_and_renju_keeps_its_own_openings() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        assert_eq!(core.settings().opening_rule, OpeningRule::None);
        assert_eq!(core.view().swap, None, "no opening rule by default");
        core.set_settings(json!({ "openingRule": "swap2", "mode": "local" }))
            .unwrap();
        drop(core);
        let first = MemoryStore::new();
        first.put(SETTINGS_FILE, dir.get(SETTINGS_FILE).unwrap());
        let v = core_in(&first).view();
        assert_eq!(
            stage(&v),
            "placeThree",
            "the first game follows the settings"
        );
        let mut core = core_in(&dir);
        let v = new_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
        assert_eq!(core.settings().opening_rule, OpeningRule::Swap2);
        let swap = v.swap.unwrap();
        assert_eq!(
            serde_json::to_value(&swap).unwrap(),
            json!({ "rule": "swap2", "stage": "placeThree", "actor": "opener", "you": null,
                    "youAct": true, "choices": [], "black": null, "stones": 0 })
        );
        let v = core
            .game()
            .new_game(NewGameOptions {
                rule: Some(Rule::Renju),
                ..NewGameOptions::default()
            })
            .unwrap();
        assert_eq!(v.swap, None, "renju ignores Swap2");
        assert_eq!(
            core.settings().opening_rule,
            OpeningRule::Swap2,
            "kept for later"
        );
        let s = core.set_settings(json!({ "openingRule": "swap" })).unwrap();
        assert_eq!(s.opening_rule, OpeningRule::Swap);
        assert!(core
            .set_settings(json!({ "openingRule": "swap3" }))
            .is_err());
        // Settings from before the opening rules still load, without one.
        let old: Settings = serde_json::from_value(json!({ "mode": "local" })).unwrap();
        assert_eq!(old.opening_rule, OpeningRule::None);
    }

    #[test]
    fn two_players_play_a_swap2_phase_with_taps_and_choices() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        new_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
        refused(&mut core, "noChoiceDue", |c| choose(c, Choice::Black));
        play(&mut core, "h8").unwrap();
        play(&mut core, "h9").unwrap();
        // A mistaken stone is corrected with undo and redo, within the stones due.
        let v = play(&mut core, "a1").unwrap();
        assert_eq!(stage(&v), "chooseAfterThree");
        assert!(v.can_undo && !v.can_redo);
        let v = core.game().undo();
        assert_eq!(
            (stage(&v), v.moves.len(), v.can_redo),
            ("placeThree", 2, true)
        );
        let v = core.game().redo();
        assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
        core.game().undo();
        let v = play(&mut core, "i9").unwrap();
        assert_eq!(stage(&v), "chooseAfterThree");
        let swap = v.swap.unwrap();
        assert_eq!(
            (swap.actor, swap.choices.as_slice()),
            (
                Some(Side::Chooser),
                &[Choice::Black, Choice::White, Choice::PlaceTwo][..]
            )
        );
        assert!(!v.computer_to_move);
        // A stone while the choice is due, or a hint, is refused.
        refused(&mut core, "choiceDue", |c| play(c, "j10"));
        let (id, n) = pos(&core);
        assert_eq!(
            core.search()
                .begin(SearchKind::Hint, id, n)
                .unwrap_err()
                .code(),
            "choiceDue"
        );
        let v = choose(&mut core, Choice::PlaceTwo).unwrap();
        assert_eq!(stage(&v), "placeTwo");
        assert!(!v.can_undo, "the choice is made: stone 3 stays");
        play(&mut core, "g7").unwrap();
        let v = play(&mut core, "j10").unwrap();
        assert_eq!(stage(&v), "chooseColour");
        assert_eq!(
            v.swap.as_ref().unwrap().choices,
            [Choice::Black, Choice::White]
        );
        refused(&mut core, "badArgument", |c| choose(c, Choice::PlaceTwo));
        let v = choose(&mut core, Choice::White).unwrap();
        let swap = v.swap.as_ref().unwrap();
        assert_eq!(
            (swap.stage, swap.black, swap.stones),
            ("done", Some(Side::Chooser), 5)
        );
        assert!(!v.can_undo, "the opening stones stay");
        refused(&mut core, "noChoiceDue", |c| choose(c, Choice::Black));
        // The game goes on normally: white plays stone 6, and undo stops at the opening.
        let v = play(&mut core, "k11").unwrap();
        assert_eq!(v.moves, ["h8", "h9", "i9", "g7", "j10", "k11"]);
        assert!(v.can_undo);
        let v = core.game().undo();
        assert!(!v.can_undo && v.moves.len() == 5);
        assert_eq!(
            core.game().export_record(RecordFormat::Moves).unwrap(),
            "h8 h9 i9 g7 j10",
            "the record keeps the opening stones in order"
        );
        assert!(core
            .game()
            .export_record(RecordFormat::Sgf)
            .unwrap()
            .contains(";B[hh];W[hg];B[ig]"));
    }

    #[test]
    fn against_the_computer_the_human_opens_as_black_and_the_computer_answers() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        let v = new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
        let swap = v.swap.unwrap();
        assert_eq!((swap.you, swap.you_act), (Some(Side::Opener), true));
        play(&mut core, "h8").unwrap();
        let v = play(&mut core, "h9").unwrap();
        assert!(
            !v.computer_to_move,
            "the human placed white's stone 2 and places stone 3"
        );
        let v = play(&mut core, "i9").unwrap();
        assert!(v.computer_to_move, "the computer chooses now");
        assert!(v.can_undo, "until it has chosen, stone 3 may be taken back");
        refused(&mut core, "notYourTurn", |c| choose(c, Choice::Black));
        // The computer places two more and hands the choice back.
        let v = computer_acts(&mut core, action(Some(Choice::PlaceTwo), &["g7", "j10"]));
        assert_eq!(stage(&v), "chooseColour");
        assert!(!v.computer_to_move && !v.can_undo);
        assert!(v.swap.as_ref().unwrap().you_act);
        // The human takes white and plays stone 6.
        let v = choose(&mut core, Choice::White).unwrap();
        assert_eq!((v.human_color, v.to_move), (Color::White, Color::White));
        assert!(!v.computer_to_move);
        play(&mut core, "k11").unwrap();
        let v = computer_moves(&mut core, "a1");
        assert_eq!(v.moves, ["h8", "h9", "i9", "g7", "j10", "k11", "a1"]);
        let v = core.game().undo();
        assert_eq!(v.moves.len(), 5, "the pair after the opening");
        assert!(!v.can_undo);
    }

    #[test]
    fn the_computer_opens_when_the_human_plays_white_and_the_stats_count_the_colour_chosen() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        let v = new_game(&mut core, Mode::Computer, OpeningRule::Swap, Color::White);
        assert!(v.computer_to_move);
        refused(&mut core, "notYourTurn", |c| play(c, "h8"));
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.opening, Some(OpeningTask::Propose));
        core.search()
            .finish_computer(
                &job,
                &ComputerAnswer::Opening(Some(action(None, &["h8", "h9", "i9"]))),
            )
            .unwrap();
        let v = core.view();
        assert_eq!(stage(&v), "chooseAfterThree");
        assert_eq!(
            v.swap.as_ref().unwrap().choices,
            [Choice::Black, Choice::White]
        );
        assert!(!v.computer_to_move && !v.can_undo);
        // Taking black hands stone 4 to the computer, now white.
        let v = choose(&mut core, Choice::Black).unwrap();
        assert_eq!(v.human_color, Color::Black);
        assert!(v.computer_to_move);
        computer_moves(&mut core, "a1");
        for (b, w) in [("j10", "a2"), ("k11", "a3")] {
            play(&mut core, b).unwrap();
            computer_moves(&mut core, w);
        }
        let v = play(&mut core, "g7").unwrap();
        assert_eq!(v.result.as_ref().unwrap().winner, Some(Color::Black));
        let easy = core.stats().levels()[1];
        assert_eq!((easy.wins, easy.losses), (1, 0), "the human won as black");
    }

    #[test]
    fn a_game_saved_in_the_opening_phase_loads_back_into_it() {
        let dir = MemoryStore::new();
        let before = {
            let mut core = core_in(&dir);
            new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::White);
            computer_acts(&mut core, action(None, &["h8", "h9", "i9"]));
            choose(&mut core, Choice::PlaceTwo).unwrap();
            play(&mut core, "g7").unwrap();
            core.view()
        };
        let mut core = core_in(&dir);
        assert_eq!(core.view(), before);
        assert_eq!(stage(&before), "placeTwo");
        let v = play(&mut core, "j10").unwrap();
        assert!(
            v.computer_to_move,
            "the computer (the opener) chooses a colour"
        );
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.opening, Some(OpeningTask::Colour));
        // It keeps white and plays stone 6: the human is black, to move.
        let v = core
            .search()
            .finish_computer(
                &job,
                &ComputerAnswer::Opening(Some(action(Some(Choice::White), &["k11"]))),
            )
            .unwrap();
        assert_eq!((v.human_color, v.to_move), (Color::Black, Color::Black));
        assert_eq!(v.swap.as_ref().unwrap().stones, 5, "k11 is the game's move");
        drop(core);
        let core = core_in(&dir);
        let v = core.view();
        assert_eq!((v.human_color, v.moves.len()), (Color::Black, 6));
        assert!(!v.can_undo, "only the computer's move after the opening");
    }

    #[test]
    fn a_saved_phase_that_does_not_fit_is_dropped_and_the_game_loads() {
        let dir = MemoryStore::new();
        let save = |swap: serde_json::Value| {
            dir.put(
                GAME_FILE,
                json!({ "version": 1, "gameId": 4, "mode": "local", "level": 2,
                    "humanColor": "black", "statsCounted": false, "gameUid": 7, "swap": swap,
                    "game": { "version": 1, "rule": "freestyle", "size": 15,
                              "moves": ["h8", "i9"], "redo": [] } })
                .to_string(),
            );
        };
        let phase = |stage: serde_json::Value| json!({ "phase": { "rule": "swap2", "stage": stage }, "human": "opener" });
        save(phase(json!("placeThree")));
        assert_eq!(stage(&core_in(&dir).view()), "placeThree");
        for bad in [
            phase(json!("chooseColour")),
            phase(json!("sideways")),
            json!(42),
        ] {
            save(bad.clone());
            let v = core_in(&dir).view();
            assert_eq!((v.swap, v.moves.len()), (None, 2), "{bad}");
        }
    }

    #[test]
    fn bad_requests_in_the_phase_change_nothing() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        new_game(&mut core, Mode::Local, OpeningRule::Swap, Color::Black);
        play(&mut core, "h8").unwrap();
        refused(&mut core, "occupied", |c| play(c, "h8"));
        refused(&mut core, "offBoard", |c| play(c, "z99"));
        refused(&mut core, "stale", |c| {
            c.game().choose_opening(Choice::Black, 99, 1)
        });
        play(&mut core, "h9").unwrap();
        play(&mut core, "i9").unwrap();
        refused(&mut core, "badArgument", |c| choose(c, Choice::PlaceTwo));
        refused(&mut core, "choiceDue", |c| play(c, "j10"));
        let v = core.game().redo();
        assert_eq!(v.moves.len(), 3, "nothing to redo");
    }

    /// The real engine in each of the computer's roles (Master's budget, about a second each).
    #[test]
    fn the_engine_plays_every_role_of_a_swap2_opening() {
        let dir = MemoryStore::new();
        let mut core = core_in(&dir);
        let mut engine = Engine::new(8);
        new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::White);
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        let v = core
            .search()
            .finish_computer(&job, &job.play(&mut engine))
            .unwrap();
        assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
        choose(&mut core, Choice::PlaceTwo).unwrap();
        play(&mut core, "a1").unwrap();
        play(&mut core, "a15").unwrap();
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        let v = core
            .search()
            .finish_computer(&job, &job.play(&mut engine))
            .unwrap();
        let swap = v.swap.unwrap();
        assert_eq!(swap.stage, "done");
        // Whichever colour it took, the game goes on with the right side to move.
        assert_eq!(v.computer_to_move, v.to_move != v.human_color);
        assert!(v.moves.len() == 5 || v.moves.len() == 6);

        // As the chooser facing the human's three stones.
        new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
        for p in ["h8", "i9", "i7"] {
            play(&mut core, p).unwrap();
        }
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.opening, Some(OpeningTask::AfterThree));
        let v = core
            .search()
            .finish_computer(&job, &job.play(&mut engine))
            .unwrap();
        assert!(
            ["done", "chooseColour"].contains(&stage(&v)),
            "{:?}",
            v.swap
        );
    }

    // -----------------------------------------------------------------------------------------
    // The opening phase on the clock (issue 10 §3 with §4).

    fn timed_core_in(dir: &MemoryStore, minutes: u32) -> (AppCore, Arc<AtomicU64>) {
        let (time, ms) = TimeSource::fake();
        let mut core = AppCore::load_with_time(dir.clone(), time);
        core.set_settings(json!({ "clockMinutes": minutes }))
            .unwrap();
        (core, ms)
    }

    fn wait(ms: &Arc<AtomicU64>, by: u64) {
        ms.fetch_add(by, std::sync::atomic::Ordering::SeqCst);
    }

    #[test]
    fn the_clock_counts_each_players_time_through_a_swap2_phase_and_follows_them_to_their_colours()
    {
        let dir = MemoryStore::new();
        let (mut core, ms) = timed_core_in(&dir, 5);
        new_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
        let v = play(&mut core, "h8").unwrap();
        // The opener places white's stone 2 on its own (black's) time.
        assert_eq!(
            (v.to_move, v.clock.side, v.clock.running),
            (Color::White, Some(Color::Black), true)
        );
        wait(&ms, 1000);
        play(&mut core, "h9").unwrap();
        wait(&ms, 2000);
        let v = play(&mut core, "i9").unwrap();
        assert_eq!(v.clock.side, Some(Color::White), "the chooser thinks");
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 0));
        // The choice to place two is thought over on the chooser's time, and is stone 4's.
        wait(&ms, 4000);
        choose(&mut core, Choice::PlaceTwo).unwrap();
        wait(&ms, 1000);
        let v = play(&mut core, "g7").unwrap();
        assert_eq!(v.clock.side, Some(Color::White), "still the chooser");
        wait(&ms, 500);
        let v = play(&mut core, "j10").unwrap();
        assert_eq!(v.clock.side, Some(Color::Black), "the opener chooses");
        assert_eq!(
            v.clock.move_ms,
            [Some(0), Some(1000), Some(2000), Some(5000), Some(500)]
        );
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 5500));
        // The opener takes white and plays stone 6: its time goes with it to white.
        wait(&ms, 3000);
        let v = choose(&mut core, Choice::White).unwrap();
        assert_eq!(
            (v.to_move, v.clock.side),
            (Color::White, Some(Color::White))
        );
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (5500, 6000));
        assert_eq!(
            (v.clock.black_left_ms, v.clock.white_left_ms),
            (Some(294_500), Some(294_000))
        );
        wait(&ms, 1000);
        let v = play(&mut core, "k11").unwrap();
        assert_eq!(v.clock.move_ms[5], Some(4000), "the choice and stone 6");
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (5500, 7000));
        // Saved and loaded, the times are still the players'.
        drop(core);
        let (time, _) = TimeSource::fake();
        let core = AppCore::load_with_time(dir.clone(), time);
        let back = core.view().clock;
        assert_eq!(
            (back.black_ms, back.white_ms, back.move_ms.len()),
            (5500, 7000, 6)
        );
    }

    #[test]
    fn a_swap_choice_is_its_choosers_time_and_undo_in_the_phase_gives_none_back() {
        let dir = MemoryStore::new();
        let (mut core, ms) = timed_core_in(&dir, 5);
        new_game(&mut core, Mode::Local, OpeningRule::Swap, Color::Black);
        play(&mut core, "h8").unwrap();
        wait(&ms, 1000);
        play(&mut core, "h9").unwrap();
        wait(&ms, 2000);
        play(&mut core, "a1").unwrap();
        // A mistaken stone 3 taken back: its time stays the opener's, and the chooser's
        // half second since, on the chooser's clock, stays the chooser's.
        wait(&ms, 500);
        let v = core.game().undo();
        assert_eq!(v.moves.len(), 2);
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 500));
        assert_eq!(v.clock.side, Some(Color::Black));
        wait(&ms, 500);
        play(&mut core, "i9").unwrap();
        // The chooser takes black: the opener, now white, plays stone 4; the times change
        // sides with the players, and the choice's 4 s are the chooser's (black's) though it
        // plays no stone on them.
        wait(&ms, 4000);
        let v = choose(&mut core, Choice::Black).unwrap();
        assert_eq!(
            (v.to_move, v.clock.side),
            (Color::White, Some(Color::White))
        );
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (4500, 3500));
        assert_eq!(
            v.clock.move_ms,
            [Some(0), Some(1000), Some(500)],
            "stone 3's second try; the first one's 2 s stay on the total"
        );
        wait(&ms, 700);
        let v = play(&mut core, "j10").unwrap();
        assert_eq!(v.clock.move_ms[3], Some(700));
        assert_eq!((v.clock.black_ms, v.clock.white_ms), (4500, 4200));
    }

    #[test]
    fn a_flag_falls_in_the_opening_phase_for_whoever_acts() {
        // Between two players: the chooser thinks too long over its choice.
        let dir = MemoryStore::new();
        let (mut core, ms) = timed_core_in(&dir, 5);
        new_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
        for p in ["h8", "h9", "i9"] {
            play(&mut core, p).unwrap();
        }
        wait(&ms, 300_000);
        let before = core.view();
        assert!(
            before.result.is_none(),
            "not yet: the flag falls when asked"
        );
        let err = choose(&mut core, Choice::PlaceTwo).unwrap_err();
        assert_eq!(err.code(), "gameOver");
        let v = core.view();
        let result = v.result.clone().unwrap();
        assert_eq!(
            (result.winner, result.reason, v.clock.flag),
            (Some(Color::Black), "time", Some(Color::White)),
            "the chooser (white's time) lost to the opener"
        );
        assert_eq!(stage(&v), "chooseAfterThree");
        assert!(!v.can_undo);

        // Against the computer, which thinks too long over its choice: the human opener
        // wins, and the computer's answer is not played.
        let dir = MemoryStore::new();
        let (mut core, ms) = timed_core_in(&dir, 5);
        new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
        for p in ["h8", "h9", "i9"] {
            play(&mut core, p).unwrap();
        }
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.opening, Some(OpeningTask::AfterThree));
        wait(&ms, 300_001);
        let err = core
            .search()
            .finish_computer(
                &job,
                &ComputerAnswer::Opening(Some(action(Some(Choice::Black), &[]))),
            )
            .unwrap_err();
        assert_eq!(err.code(), "gameOver");
        let v = core.view();
        assert_eq!(v.result.as_ref().unwrap().winner, Some(Color::Black));
        assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
        let easy = core.stats().levels()[1];
        assert_eq!((easy.wins, easy.losses), (1, 0), "the human won on time");
    }

    #[test]
    fn the_computers_opening_decision_keeps_within_its_clock() {
        let dir = MemoryStore::new();
        let (mut core, ms) = timed_core_in(&dir, 5);
        new_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
        for p in ["h8", "h9", "i9"] {
            play(&mut core, p).unwrap();
        }
        let master = Level::Master.default_limits();
        let (id, n) = pos(&core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert_eq!(job.limits, master, "plenty of time: Master's own budget");
        core.search().cancel();
        // Two seconds left on the chooser's clock: the decision takes less than Master's.
        wait(&ms, 298_000);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        assert!(job.limits.time < master.time, "{:?}", job.limits);
        // Its stones come at one instant: the thinking is the first one's.
        let v = core
            .search()
            .finish_computer(
                &job,
                &ComputerAnswer::Opening(Some(action(Some(Choice::PlaceTwo), &["g7", "j10"]))),
            )
            .unwrap();
        assert_eq!(&v.clock.move_ms[3..], [Some(298_000), Some(0)]);
        assert_eq!(v.clock.side, Some(Color::Black), "the human opener chooses");
    }

    #[test]
    fn saves_of_either_branch_load_and_a_damaged_clock_or_phase_drops_alone() {
        let dir = MemoryStore::new();
        let save = |version: u32, swap: serde_json::Value, clock: serde_json::Value| {
            let mut file = json!({ "version": version, "gameId": 4, "mode": "local", "level": 2,
                "humanColor": "black", "statsCounted": false, "gameUid": 7,
                "game": { "version": 1, "rule": "freestyle", "size": 15,
                          "moves": ["h8", "h9"], "redo": [] } });
            if !swap.is_null() {
                file["swap"] = swap;
            }
            if !clock.is_null() {
                file["clock"] = clock;
            }
            dir.put(GAME_FILE, file.to_string());
            core_in(&dir).view()
        };
        let swap =
            json!({ "phase": { "rule": "swap2", "stage": "placeThree" }, "human": "opener" });
        let clock = json!({ "limit": { "baseMs": 300_000, "incrementMs": 0 },
                            "moves": [0, 1500], "pendingMs": 500 });
        // Version 1 from main, and from the Swap branch (its phase, no clock).
        let v = save(1, serde_json::Value::Null, serde_json::Value::Null);
        assert_eq!((v.swap, v.moves.len(), v.clock.limit), (None, 2, None));
        let v = save(1, swap.clone(), serde_json::Value::Null);
        assert_eq!(
            (stage(&v), v.clock.move_ms.as_slice()),
            ("placeThree", &[None, None][..])
        );
        // Version 2 from the clock branch (no phase), and with both.
        let v = save(2, serde_json::Value::Null, clock.clone());
        assert_eq!((v.swap, v.clock.white_ms), (None, 1500));
        let v = save(2, swap.clone(), clock.clone());
        assert_eq!(stage(&v), "placeThree");
        // Both stones were the opener's, and its third is under way.
        assert_eq!(
            (v.clock.black_ms, v.clock.white_ms, v.clock.side),
            (2000, 0, Some(Color::Black))
        );
        // A damaged clock leaves the phase, a damaged phase the clock, and the game stays.
        let v = save(2, swap.clone(), json!({ "moves": "x" }));
        assert_eq!(
            (stage(&v), v.clock.limit, v.moves.len()),
            ("placeThree", None, 2)
        );
        let v = save(2, json!({ "phase": 7 }), clock);
        assert_eq!((v.swap, v.clock.white_ms, v.moves.len()), (None, 1500, 2));
    }
}
