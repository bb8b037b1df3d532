//! The AI: line patterns → incremental position → threat search (VCF/VCT) → evaluation →
//! principal-variation alpha-beta → playing levels.
//!
//! The main types are re-exported at the crate root:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use wuzi::{Board, Color, Engine, Level, Limits, Point, Rule};
//!
//! let mut board = Board::new(15).unwrap();
//! for x in 3..7 {
//!     board.place(Point::new(x, 7), Color::Black);
//! }
//! for x in 3..6 {
//!     board.place(Point::new(x, 9), Color::White);
//! }
//! let mut engine = Engine::new(4);
//! let cancel = AtomicBool::new(false);
//! let r = engine.search_board(&board, Rule::Renju, Color::Black, Level::Hard,
//!                             Limits::nodes(10_000), &cancel, 1);
//! // Black completes the five.
//! assert!(matches!(r.best, Some(p) if p == Point::new(2, 7) || p == Point::new(7, 7)));
//! ```
//!
//! The layer modules (`pattern`, `position`, `threat`, `eval`, `params`, `search`, `tt`,
//! `openings`) are public as well, for the engine's tools in the `wuzi-tools` crate (`tools/`), which must
//! not copy engine code: the tuner reads a position's pattern combinations and threat mask
//! ([`eval::combo_rank`], [`eval::eval_terms`], [`position::Position`]) and writes tables
//! ([`eval::Weights::to_text`], [`eval::install_weights`]); the match manager asks
//! [`threat::ThreatSearch`] whether a position is decided; the bench and matches play from
//! [`openings::piskvork_openings`].

mod engine;
pub mod eval;
mod level;
pub mod net;
pub mod openings;
pub mod params;
pub mod pattern;
pub mod position;
mod quick;
pub mod review;
pub mod search;
pub mod swap2;
pub mod threat;
pub mod tt;
mod verdict;
mod weights;

pub use engine::{Engine, SearchResult, MAX_THREADS};
pub use level::{Level, Limits, ParseLevelError};
pub use params::{ParamError, Params};
pub use quick::quick_move;
pub use verdict::{Outlook, Verdict};
