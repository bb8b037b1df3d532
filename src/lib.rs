//! Wuzi (五子): a Gomoku / Renju rules engine and AI.
//!
//! The crate is layered like strong Gomoku engines: [`Board`] (stones, Zobrist hash) → the
//! referee (wins, renju forbidden moves) → [`Game`] (history, undo/redo, results) → records
//! ([`notation`]) → the AI.
//!
//! ```
//! use wuzi::{Board, Color, Point};
//!
//! let mut board = Board::new(15).unwrap();
//! let centre = Point::from_rif("h8", 15).unwrap();
//! board.place(centre, Color::Black);
//! assert_eq!(board.get(centre), Some(Color::Black));
//! ```

#![deny(missing_docs)]

mod board;
mod color;
pub mod gomocup;
mod point;
mod referee;
mod rule;

pub use board::{Board, Cell, SizeError, CELLS, DIRECTIONS, PAD, STRIDE, ZOBRIST};
pub use color::{ByColor, Color, ParseColorError};
pub use point::{ParsePointError, Point, Rif};
pub use referee::{forbidden_at, forbidden_points, win_at, Forbidden, Win, WinKind};
pub use rule::{ParseRuleError, Rule, MAX_SIZE, MIN_SIZE};
