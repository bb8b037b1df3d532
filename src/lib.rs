//! Wuzi (五子): a Gomoku / Renju rules engine and AI.
//!
//! The crate is layered like strong Gomoku engines: [`Board`] (stones, Zobrist hash) → the
//! referee ([`win_at`], [`forbidden_at`], [`forbidden_points`]: wins and RIF renju forbidden
//! moves) → [`Game`] (history, undo/redo, results; from the empty board or a set-up position,
//! [`Setup`]) → records ([`notation`]) → the AI.
//!
//! ```
//! use wuzi::{Color, Forbidden, Game, PlayError, Point, Rule};
//!
//! let rif = |s: &str| Point::from_rif(s, 15).unwrap();
//! let mut game = Game::new(Rule::Renju, 15).unwrap();
//! for m in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"] {
//!     game.try_play(rif(m)).unwrap();
//! }
//! // h8 would give black two open threes at once: forbidden under renju.
//! assert_eq!(
//!     game.try_play(rif("h8")),
//!     Err(PlayError::Forbidden { point: rif("h8"), reason: Forbidden::DoubleThree })
//! );
//! assert_eq!(game.to_move(), Color::Black);
//! game.try_play(rif("e8")).unwrap();
//! game.try_play(rif("a9")).unwrap();
//! // Now h8 makes a four and a three: legal, and the open four wins next move.
//! assert_eq!(game.try_play(rif("h8")), Ok(None));
//! game.try_play(rif("a11")).unwrap();
//! let result = game.try_play(rif("i8")).unwrap().unwrap();
//! assert_eq!(result.winner, Some(Color::Black));
//! assert_eq!(game.undo(), Some(rif("i8")));
//! ```

#![deny(missing_docs)]

pub mod ai;
mod board;
mod color;
mod game;
pub mod gomocup;
pub mod notation;
pub mod openings;
mod point;
mod referee;
mod rule;
mod setup;
#[cfg(test)]
mod testing;
pub mod text;

pub use ai::{Engine, Level, Limits, Outlook, Params, SearchResult, Verdict, MAX_THREADS};
pub use board::{Board, Cell, SizeError, CELLS, DIRECTIONS, PAD, STRIDE, ZOBRIST};
pub use color::{ByColor, Color, ParseColorError};
pub use game::{Draw, Game, GameResult, PlayError};
#[cfg(feature = "serde")]
pub use game::{LoadError, SaveList, SavedGame, SavedSetup};
pub use point::{ParsePointError, Point, Rif};
pub use referee::{forbidden_at, forbidden_points, win_at, Forbidden, Win, WinKind};
pub use rule::{ParseRuleError, Rule, MAX_SIZE, MIN_SIZE};
pub use setup::{Setup, SetupError};
