//! The opening phase of Swap and Swap2 (issue 10 §3), as a state machine over the game: who
//! places which stones and who chooses what, until the colours are decided. Free of Tauri and
//! of the engine, so every transition is tested here; the commands drive it for the human and
//! the `wuzi::ai::swap2` decisions drive it for the computer.
//!
//! ```text
//! PlaceThree ──3 stones (b w b)──▶ ChooseAfterThree ──Black──────────────▶ Done (chooser black)
//!  (opener)                         (chooser)        ──White──────────────▶ Done (opener black;
//!                                                                            the chooser, white,
//!                                                                            plays stone 4)
//!                                                    ──PlaceTwo (Swap2)──▶ PlaceTwo
//!                                                                           (chooser: w b)
//!                                                                               │ 2 stones
//!                                                                               ▼
//!                                 Done (opener black) ◀──Black── ChooseColour (opener)
//!                                 Done (chooser black) ◀─White──┘
//! ```
//!
//! The stones are ordinary moves of the game (black first, alternating), so records keep them in
//! order. An action the stage does not allow is refused with an [`OpeningError`] and changes
//! neither the phase nor the game.

use serde::{Deserialize, Serialize};
use wuzi::{Game, PlayError, Point, Rule};

/// The opening rule of a freestyle or standard game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    /// Black simply moves first.
    #[default]
    None,
    /// The opener places three stones, the other side picks a colour.
    Swap,
    /// Gomocup's rule: as Swap, but the chooser may also place two more stones and hand the
    /// colour choice back.
    Swap2,
}

/// The two roles of the phase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Places the first three stones.
    Opener,
    /// Answers them.
    Chooser,
}

impl Side {
    /// The other role.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::Opener => Side::Chooser,
            Side::Chooser => Side::Opener,
        }
    }
}

/// Where the phase stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    /// The opener places stones 1–3 (black, white, black).
    PlaceThree,
    /// The chooser takes black, keeps white, or (Swap2) places two more stones.
    ChooseAfterThree,
    /// Swap2: the chooser places stones 4 and 5 (white, black).
    PlaceTwo,
    /// Swap2: the opener picks a colour after five stones.
    ChooseColour,
    /// The colours are decided; the game goes on normally.
    Done {
        /// The side that plays black from now on.
        black: Side,
    },
}

/// A choice made by buttons.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Choice {
    /// Play black.
    Black,
    /// Play white (after three stones: white's stone 4 is the next move).
    White,
    /// Swap2, after three stones: place two more and hand the choice back.
    PlaceTwo,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// Swap and Swap2 are for freestyle and standard; renju has its own openings.
    #[error("{0} has no Swap or Swap2 opening")]
    Rule(Rule),
    /// A stone was placed while a choice is due.
    #[error("a choice is due, not a stone")]
    ChoiceDue,
    /// A choice was made while stones are due, or after the phase.
    #[error("no choice is due now")]
    NoChoiceDue,
    /// A choice this stage does not offer (placing two under Swap, or after five stones).
    #[error("{0:?} is not a choice here")]
    NotOffered(Choice),
    /// Undo or redo has no stone of the phase to take back or replay.
    #[error("no stone of the opening to take back or replay")]
    NothingToTakeBack,
    /// The referee refused the stone.
    #[error(transparent)]
    Play(#[from] PlayError),
}

/// The phase of one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpeningPhase {
    rule: OpeningRule,
    stage: Stage,
}

impl OpeningPhase {
    /// The phase of a new game under `rule`, on the empty `game`; `None` for
    /// [`OpeningRule::None`].
    ///
    /// # Errors
    /// [`OpeningError::Rule`] under renju.
    pub fn start(rule: OpeningRule, game: &Game) -> Result<Option<OpeningPhase>, OpeningError> {
        if rule == OpeningRule::None {
            return Ok(None);
        }
        if game.rule() == Rule::Renju {
            return Err(OpeningError::Rule(game.rule()));
        }
        Ok(Some(OpeningPhase {
            rule,
            stage: Stage::PlaceThree,
        }))
    }

    /// Swap or Swap2.
    #[must_use]
    pub const fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// Where the phase stands.
    #[must_use]
    pub const fn stage(&self) -> Stage {
        self.stage
    }

    /// Whether the colours are decided.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        matches!(self.stage, Stage::Done { .. })
    }

    /// The side that acts now; `None` once the phase is done (then the side to move plays).
    #[must_use]
    pub const fn actor(&self) -> Option<Side> {
        match self.stage {
            Stage::PlaceThree | Stage::ChooseColour => Some(Side::Opener),
            Stage::ChooseAfterThree | Stage::PlaceTwo => Some(Side::Chooser),
            Stage::Done { .. } => None,
        }
    }

    /// The choices open to the actor now (empty while stones are due).
    #[must_use]
    pub fn choices(&self) -> Vec<Choice> {
        match (self.stage, self.rule) {
            (Stage::ChooseAfterThree, OpeningRule::Swap2) => {
                vec![Choice::Black, Choice::White, Choice::PlaceTwo]
            }
            (Stage::ChooseAfterThree | Stage::ChooseColour, _) => {
                vec![Choice::Black, Choice::White]
            }
            _ => Vec::new(),
        }
    }

    /// The actor places a stone at `p` in `game`.
    ///
    /// # Errors
    /// [`OpeningError::ChoiceDue`] while a choice is due or after the phase (then the game's
    /// own moves are played outside it), [`OpeningError::Play`] if the referee refuses `p`.
    /// Neither the phase nor `game` changes then.
    pub fn place(&mut self, game: &mut Game, p: Point) -> Result<(), OpeningError> {
        let target = match self.stage {
            Stage::PlaceThree => 3,
            Stage::PlaceTwo => 5,
            Stage::ChooseAfterThree | Stage::ChooseColour | Stage::Done { .. } => {
                return Err(OpeningError::ChoiceDue)
            }
        };
        game.try_play(p)?;
        if game.moves().len() >= target {
            self.stage = match self.stage {
                Stage::PlaceThree => Stage::ChooseAfterThree,
                _ => Stage::ChooseColour,
            };
        }
        Ok(())
    }

    /// The actor makes `choice`.
    ///
    /// # Errors
    /// [`OpeningError::NoChoiceDue`] while stones are due or after the phase,
    /// [`OpeningError::NotOffered`] for a choice the stage does not offer. Nothing changes then.
    pub fn choose(&mut self, choice: Choice) -> Result<(), OpeningError> {
        if !matches!(self.stage, Stage::ChooseAfterThree | Stage::ChooseColour) {
            return Err(OpeningError::NoChoiceDue);
        }
        if !self.choices().contains(&choice) {
            return Err(OpeningError::NotOffered(choice));
        }
        let actor = self.actor().expect("a choice stage has an actor");
        self.stage = match choice {
            Choice::Black => Stage::Done { black: actor },
            Choice::White => Stage::Done {
                black: actor.other(),
            },
            Choice::PlaceTwo => Stage::PlaceTwo,
        };
        Ok(())
    }

    /// The side whose last stone undo may take back now, if any: stones can be corrected
    /// until the choice that follows them is made (stones 1–3 by the opener, 4–5 by the
    /// chooser), never across a choice.
    #[must_use]
    pub fn take_back_by(&self, game: &Game) -> Option<Side> {
        let n = game.moves().len();
        match self.stage {
            Stage::PlaceThree | Stage::ChooseAfterThree if (1..=3).contains(&n) => {
                Some(Side::Opener)
            }
            Stage::PlaceTwo | Stage::ChooseColour if (4..=5).contains(&n) => Some(Side::Chooser),
            _ => None,
        }
    }

    /// Takes back the last stone of the phase (see [`OpeningPhase::take_back_by`]); a choice
    /// that was due is due again once the stones are complete.
    ///
    /// # Errors
    /// [`OpeningError::NothingToTakeBack`] when no stone of the phase may be taken back;
    /// nothing changes then.
    pub fn take_back(&mut self, game: &mut Game) -> Result<(), OpeningError> {
        if self.take_back_by(game).is_none() {
            return Err(OpeningError::NothingToTakeBack);
        }
        game.undo();
        self.stage = match self.stage {
            Stage::ChooseAfterThree => Stage::PlaceThree,
            Stage::ChooseColour => Stage::PlaceTwo,
            other => other,
        };
        Ok(())
    }

    /// Replays the stone last taken back, while stones are due.
    ///
    /// # Errors
    /// [`OpeningError::ChoiceDue`] while a choice is due or after the phase,
    /// [`OpeningError::NothingToTakeBack`] when there is nothing to replay; nothing changes then.
    pub fn redo(&mut self, game: &mut Game) -> Result<(), OpeningError> {
        let Some(&p) = game.redo_moves().first() else {
            return Err(OpeningError::NothingToTakeBack);
        };
        let mut replayed = game.clone();
        let mut phase = *self;
        phase.place(&mut replayed, p)?;
        // The same stone as the game's own redo, which keeps the rest of the redo list.
        game.redo();
        *self = phase;
        Ok(())
    }

    /// Whether a saved phase fits its game: the stones due so far are on the board.
    #[must_use]
    pub fn fits(&self, game: &Game) -> bool {
        let n = game.moves().len();
        match self.stage {
            Stage::PlaceThree => n < 3,
            Stage::ChooseAfterThree => n == 3,
            Stage::PlaceTwo => (3..5).contains(&n) && self.rule == OpeningRule::Swap2,
            Stage::ChooseColour => n == 5 && self.rule == OpeningRule::Swap2,
            Stage::Done { .. } => n >= 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rule: Rule) -> Game {
        Game::new(rule, 15).unwrap()
    }

    fn pt(text: &str) -> Point {
        Point::from_rif(text, 15).unwrap()
    }

    fn placed(phase: &mut OpeningPhase, game: &mut Game, points: &[&str]) {
        for p in points {
            phase.place(game, pt(p)).unwrap();
        }
    }

    fn three(rule: OpeningRule) -> (OpeningPhase, Game) {
        let mut g = game(Rule::Freestyle);
        let mut phase = OpeningPhase::start(rule, &g).unwrap().unwrap();
        assert_eq!(
            (phase.stage(), phase.actor()),
            (Stage::PlaceThree, Some(Side::Opener))
        );
        placed(&mut phase, &mut g, &["h8", "h9"]);
        assert_eq!(phase.stage(), Stage::PlaceThree, "two stones are not three");
        placed(&mut phase, &mut g, &["i9"]);
        assert_eq!(
            (phase.stage(), phase.actor()),
            (Stage::ChooseAfterThree, Some(Side::Chooser))
        );
        (phase, g)
    }

    /// Refuses `action` and checks that neither the phase nor the game changed.
    fn refused(
        phase: &mut OpeningPhase,
        game: &mut Game,
        action: impl FnOnce(&mut OpeningPhase, &mut Game) -> Result<(), OpeningError>,
    ) -> OpeningError {
        let (before, moves) = (*phase, game.moves().to_vec());
        let err = action(phase, game).unwrap_err();
        assert_eq!((*phase, game.moves()), (before, moves.as_slice()));
        err
    }

    #[test]
    fn no_rule_has_no_phase_and_renju_refuses_one() {
        assert_eq!(
            OpeningPhase::start(OpeningRule::None, &game(Rule::Standard)),
            Ok(None)
        );
        assert!(
            OpeningPhase::start(OpeningRule::Swap2, &game(Rule::Standard))
                .unwrap()
                .is_some()
        );
        assert_eq!(
            OpeningPhase::start(OpeningRule::Swap, &game(Rule::Renju)),
            Err(OpeningError::Rule(Rule::Renju))
        );
    }

    #[test]
    fn after_three_the_chooser_takes_black_or_keeps_white() {
        for (choice, black) in [
            (Choice::Black, Side::Chooser),
            (Choice::White, Side::Opener),
        ] {
            for rule in [OpeningRule::Swap, OpeningRule::Swap2] {
                let (mut phase, g) = three(rule);
                phase.choose(choice).unwrap();
                assert_eq!(phase.stage(), Stage::Done { black });
                assert!(phase.is_done() && phase.actor().is_none());
                assert_eq!(g.moves().len(), 3);
            }
        }
    }

    #[test]
    fn swap2_place_two_hands_the_colour_choice_back_to_the_opener() {
        for (choice, black) in [
            (Choice::Black, Side::Opener),
            (Choice::White, Side::Chooser),
        ] {
            let (mut phase, mut g) = three(OpeningRule::Swap2);
            assert_eq!(
                phase.choices(),
                [Choice::Black, Choice::White, Choice::PlaceTwo]
            );
            phase.choose(Choice::PlaceTwo).unwrap();
            assert_eq!(
                (phase.stage(), phase.actor()),
                (Stage::PlaceTwo, Some(Side::Chooser))
            );
            placed(&mut phase, &mut g, &["g7"]);
            assert_eq!(phase.stage(), Stage::PlaceTwo);
            placed(&mut phase, &mut g, &["j10"]);
            assert_eq!(
                (phase.stage(), phase.actor()),
                (Stage::ChooseColour, Some(Side::Opener))
            );
            assert_eq!(phase.choices(), [Choice::Black, Choice::White]);
            phase.choose(choice).unwrap();
            assert_eq!(phase.stage(), Stage::Done { black });
            let moves: Vec<_> = g.moves().iter().map(|p| p.rif(15).to_string()).collect();
            assert_eq!(
                moves,
                ["h8", "h9", "i9", "g7", "j10"],
                "the stones in order"
            );
        }
    }

    #[test]
    fn illegal_actions_are_refused_and_change_nothing() {
        let mut g = game(Rule::Freestyle);
        let mut phase = OpeningPhase::start(OpeningRule::Swap, &g).unwrap().unwrap();
        let err = refused(&mut phase, &mut g, |ph, _| ph.choose(Choice::Black));
        assert_eq!(err, OpeningError::NoChoiceDue);
        placed(&mut phase, &mut g, &["h8"]);
        let err = refused(&mut phase, &mut g, |ph, g| ph.place(g, pt("h8")));
        assert!(
            matches!(err, OpeningError::Play(PlayError::Occupied(_))),
            "{err:?}"
        );
        placed(&mut phase, &mut g, &["h9", "i9"]);
        let err = refused(&mut phase, &mut g, |ph, g| ph.place(g, pt("j10")));
        assert_eq!(err, OpeningError::ChoiceDue);
        let err = refused(&mut phase, &mut g, |ph, _| ph.choose(Choice::PlaceTwo));
        assert_eq!(
            err,
            OpeningError::NotOffered(Choice::PlaceTwo),
            "not under Swap"
        );
        phase.choose(Choice::White).unwrap();
        let err = refused(&mut phase, &mut g, |ph, _| ph.choose(Choice::Black));
        assert_eq!(err, OpeningError::NoChoiceDue, "the phase is over");
        let err = refused(&mut phase, &mut g, |ph, g| ph.place(g, pt("j10")));
        assert_eq!(err, OpeningError::ChoiceDue);

        let (mut phase, mut g) = three(OpeningRule::Swap2);
        phase.choose(Choice::PlaceTwo).unwrap();
        let err = refused(&mut phase, &mut g, |ph, _| ph.choose(Choice::Black));
        assert_eq!(err, OpeningError::NoChoiceDue, "two stones are due");
        placed(&mut phase, &mut g, &["g7", "j10"]);
        let err = refused(&mut phase, &mut g, |ph, _| ph.choose(Choice::PlaceTwo));
        assert_eq!(err, OpeningError::NotOffered(Choice::PlaceTwo), "only once");
        let err = refused(&mut phase, &mut g, |ph, g| ph.place(g, pt("k11")));
        assert_eq!(err, OpeningError::ChoiceDue);
    }

    #[test]
    fn stones_are_taken_back_until_the_choice_after_them_and_never_across_it() {
        let (mut phase, mut g) = three(OpeningRule::Swap2);
        assert_eq!(phase.take_back_by(&g), Some(Side::Opener));
        phase.take_back(&mut g).unwrap();
        assert_eq!((phase.stage(), g.moves().len()), (Stage::PlaceThree, 2));
        phase.redo(&mut g).unwrap();
        assert_eq!(
            (phase.stage(), g.moves().len()),
            (Stage::ChooseAfterThree, 3)
        );
        let err = refused(&mut phase, &mut g, |ph, g| ph.redo(g));
        assert_eq!(err, OpeningError::NothingToTakeBack);
        phase.choose(Choice::PlaceTwo).unwrap();
        assert_eq!(phase.take_back_by(&g), None, "the choice is made");
        let err = refused(&mut phase, &mut g, |ph, g| ph.take_back(g));
        assert_eq!(err, OpeningError::NothingToTakeBack);
        placed(&mut phase, &mut g, &["g7", "j10"]);
        assert_eq!(phase.take_back_by(&g), Some(Side::Chooser));
        phase.take_back(&mut g).unwrap();
        phase.take_back(&mut g).unwrap();
        assert_eq!((phase.stage(), g.moves().len()), (Stage::PlaceTwo, 3));
        phase.redo(&mut g).unwrap();
        phase.redo(&mut g).unwrap();
        assert_eq!(phase.stage(), Stage::ChooseColour);
        phase.choose(Choice::Black).unwrap();
        let err = refused(&mut phase, &mut g, |ph, g| ph.take_back(g));
        assert_eq!(err, OpeningError::NothingToTakeBack, "the phase is over");
    }

    #[test]
    fn a_phase_saved_mid_way_restores_and_is_checked_against_its_game() {
        let (mut phase, mut g) = three(OpeningRule::Swap2);
        phase.choose(Choice::PlaceTwo).unwrap();
        placed(&mut phase, &mut g, &["g7"]);
        let text = serde_json::to_string(&phase).unwrap();
        assert_eq!(text, r#"{"rule":"swap2","stage":"placeTwo"}"#);
        let saved = g.to_saved();
        let mut back: OpeningPhase = serde_json::from_str(&text).unwrap();
        let mut g = Game::from_saved(&saved).unwrap();
        assert_eq!(back, phase);
        assert!(back.fits(&g));
        placed(&mut back, &mut g, &["j10"]);
        assert_eq!(back.stage(), Stage::ChooseColour);
        back.choose(Choice::White).unwrap();
        let done = serde_json::to_value(back).unwrap();
        assert_eq!(
            done,
            serde_json::json!({ "rule": "swap2", "stage": { "done": { "black": "chooser" } } })
        );
        assert_eq!(serde_json::from_value::<OpeningPhase>(done).unwrap(), back);

        // A phase that does not fit the moves of its game is not resumed.
        let choose: OpeningPhase =
            serde_json::from_str(r#"{"rule":"swap","stage":"chooseAfterThree"}"#).unwrap();
        assert!(!choose.fits(&g), "five stones, not three");
        let swap_place_two: OpeningPhase =
            serde_json::from_str(r#"{"rule":"swap","stage":"placeTwo"}"#).unwrap();
        let (_, three_stones) = three(OpeningRule::Swap);
        assert!(
            !swap_place_two.fits(&three_stones),
            "Swap has no extra stones"
        );
        assert!(
            serde_json::from_str::<OpeningPhase>(r#"{"rule":"swap3","stage":"placeThree"}"#)
                .is_err()
        );
    }
}
