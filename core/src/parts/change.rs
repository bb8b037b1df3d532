//! The kinds of change of the position, for the one path every change takes (the state's
//! `position.rs`): a mutator names its kind, the path decides which hooks it needs.

use wuzi::{Color, Point};

use crate::parts::swap::SwapGame;

/// What kind of change of the position a mutator makes: decides what the hooks do with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Stones were played: the human's move (`by_human`: it marks the game analysed while
    /// analysis is on), the computer's, or an action of the opening phase.
    Played {
        /// The human played them.
        by_human: bool,
    },
    /// Moves were taken back.
    Undone,
    /// Undone moves were played again (by the human's redo).
    Redone,
    /// Another game replaced this one: a new game, an imported record, a set-up position.
    /// `analysis_off` turns analysis off as well (the UI turns it on again where it wants it).
    Replaced {
        /// Analysis goes off with the old game.
        analysis_off: bool,
    },
    /// A choice of the opening phase: the stones stay, the phase (and maybe the colours) moved
    /// on. The chooser's time is the change's own (the state's `swap.rs`); analysis and review
    /// describe the same stones and go on.
    Decided,
    /// The side to move's flag fell: the game ended on time.
    FlagFell,
}

/// What the hooks last ran for: the game, its stones and its opening phase.
pub type Position = (u64, usize, Option<Point>, Color, Option<SwapGame>);
