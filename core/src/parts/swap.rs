//! The opening rules Swap and Swap2 in a game session (issue 10 §3): the [`OpeningPhase`] of
//! the current game and who plays which role in it. The state (`state/swap.rs`) wires it to
//! the commands; the computer's part is in `search.rs`.
//!
//! Against the computer the human opens (places stones 1–3) when the "you play" colour is
//! black, the computer when it is white, as the side that moves first in a game without an
//! opening rule. The phase decides who acts; once it is done, the human's colour is the one
//! the phase gave them, and the game goes on (and is counted) as any other.
//!
//! Undo corrects the stones of the phase until the choice that follows them is made, and
//! never takes back a choice or the stones before it: once the colours are decided, the
//! opening's stones stay on the board, as a renju opening's do.

use serde::{Deserialize, Serialize};
use wuzi::{Color, Game};

use crate::parts::opening::{OpeningPhase, OpeningRule, Side, Stage};
use crate::settings::Mode;

/// The opening phase of a Swap or Swap2 game and who plays which role in it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SwapGame {
    /// Where the phase stands.
    pub phase: OpeningPhase,
    /// The human's role against the computer (between two players both roles are at the
    /// device, and this says nothing).
    pub human: Side,
    /// The stones on the board when the colours were decided (3 or 5); 0 before.
    #[serde(default)]
    pub stones: usize,
}

impl SwapGame {
    /// The phase of a new game under `rule` on the empty `game`, with the human opening when
    /// `human_color` is black; `None` without an opening rule or under renju (which has its
    /// own openings).
    #[must_use]
    pub fn start(rule: OpeningRule, game: &Game, human_color: Color) -> Option<SwapGame> {
        let phase = OpeningPhase::start(rule, game).ok().flatten()?;
        Some(SwapGame {
            phase,
            human: if human_color == Color::Black {
                Side::Opener
            } else {
                Side::Chooser
            },
            stones: 0,
        })
    }

    /// Whether the phase still decides who acts.
    #[must_use]
    pub const fn in_progress(&self) -> bool {
        !self.phase.is_done()
    }

    /// Whether the human (always, between two players) acts in the phase now.
    #[must_use]
    pub fn human_acts(&self, mode: Mode) -> bool {
        match self.phase.actor() {
            Some(actor) => mode == Mode::Local || actor == self.human,
            None => false,
        }
    }

    /// The human's colour once the phase is done.
    #[must_use]
    pub fn human_color(&self) -> Option<Color> {
        match self.phase.stage() {
            Stage::Done { black } if black == self.human => Some(Color::Black),
            Stage::Done { .. } => Some(Color::White),
            _ => None,
        }
    }

    /// The colour whose time the opener's is: black until the colours are decided (the side
    /// that moves first without an opening rule), then the opener's own.
    #[must_use]
    pub fn opener_color(&self) -> Color {
        match self.phase.stage() {
            Stage::Done {
                black: Side::Chooser,
            } => Color::White,
            _ => Color::Black,
        }
    }

    /// Whose time each stone of the phase is on the clock, by ply: the opener's three, then
    /// (Swap2, after `placeTwo`) the chooser's two, whatever their colours.
    #[must_use]
    pub fn clock_owners(&self) -> Vec<Color> {
        let opener = self.opener_color();
        let chooser_placed = match self.phase.stage() {
            Stage::PlaceTwo | Stage::ChooseColour => true,
            Stage::Done { .. } => self.stones == 5,
            Stage::PlaceThree | Stage::ChooseAfterThree => false,
        };
        let mut owners = vec![opener; 3];
        if chooser_placed {
            owners.extend([opener.other(); 2]);
        }
        owners
    }

    /// The colour whose time `role`'s is (see [`SwapGame::opener_color`]).
    #[must_use]
    pub fn clock_color(&self, role: Side) -> Color {
        match role {
            Side::Opener => self.opener_color(),
            Side::Chooser => self.opener_color().other(),
        }
    }

    /// Whether a saved phase fits its game.
    #[must_use]
    pub fn fits(&self, game: &Game) -> bool {
        let n = game.moves().len();
        let stones = match self.phase.stage() {
            Stage::Done { .. } => (self.stones == 3 || self.stones == 5) && n >= self.stones,
            _ => self.stones == 0,
        };
        game.setup().is_none() && stones && self.phase.fits(game)
    }

    /// Undo may take a stone back now: one of the phase's, placed by the human (between two
    /// players: by either).
    #[must_use]
    pub fn can_take_back(&self, game: &Game, mode: Mode) -> bool {
        self.phase
            .take_back_by(game)
            .is_some_and(|side| mode == Mode::Local || side == self.human)
    }
}
