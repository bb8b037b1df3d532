//! Game openings: the agreed starting stones of a game under an opening rule.
//!
//! These are positions players start real games from, named as players name them. The AI's
//! self-play opening lists (Piskvork's file) live apart, in [`crate::ai::openings`].
//!
//! - [`renju`]: renju's 26 canonical openings (13 direct, 13 indirect), the first three
//!   moves of every game under the RIF opening rules.

pub mod renju;
