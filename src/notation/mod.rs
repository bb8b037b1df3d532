//! Game records: move strings (`h8 i9 g7`) and SGF.
//!
//! # Move strings
//! Written as RIF points separated by single spaces, black first: `h8 i9 g7`. Read leniently:
//! upper or lower case, separated by any mix of whitespace and commas, or not separated at all
//! (`h8i9g7`, since each point is one letter followed by its row number).
//!
//! # SGF
//! Written as `(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[renju];B[hh];W[ii];B[gg])`. Points use the
//! SGF convention: two letters, column then row, both from `a` at the **top-left** corner, so
//! `hh` is `h8` on 15×15 and `aa` is `a15`. (This is the convention of Go SGF and of most
//! Gomoku tools; it is *not* RIF, whose rows count from the bottom.)
//!
//! Read leniently:
//! - whitespace between tokens; lower-case letters inside property names (old `FF[3]` style
//!   such as `AddBlack`) are ignored; properties it does not know (`PB`, `C`, `DT`, …) are
//!   skipped;
//! - `GM` must be 4 (Gomoku/Renju) if present; `SZ` a single number from 5 to 20; `RU` one of
//!   `freestyle`, `standard`, `renju` (any case; `gomoku` = freestyle). Missing `SZ`/`RU` take
//!   the defaults passed in;
//! - only the main line is read: at each branch the first variation;
//! - moves `B[..]`/`W[..]` must alternate from black (or from the side to move of a set-up
//!   position). A pass (`B[]`, or `tt` on boards up to 19×19) is rejected: Gomoku has no
//!   passes.
//!
//! ## Set-up positions
//! A game that starts from a set-up position ([`Game::from_setup`]) is written with its stones
//! and side to move in the root node, then its moves:
//! `(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[renju]AB[hh][ii]AW[hg]PL[W];W[jf])`. `AB`/`AW` are
//! written only when that colour has stones, `PL` always.
//!
//! When reading, `AB`, `AW` (one point per value, or an FF\[4\] rectangle such as `[ff:hh]`)
//! and `PL` (`B` or `W`) are taken from every node before the first move; after it they are
//! refused, as is `AE`, since the referee judges whole positions, not edits. The position is
//! checked by [`Game::from_setup`] (no point twice, no five already made, no black overline
//! under renju). Without `PL`, the side to move is the colour of the first move; when there
//! is no move either, it is the side with fewer stones, and black when the counts are equal,
//! as it would be in a game played from the empty board.
//!
//! A move string has no way to hold a set-up position: [`write_moves`] writes only the moves
//! played after it, so use SGF for such a game.
//!
//! Every record is replayed through the referee: an illegal move (occupied, forbidden for
//! black under renju, after the game was won) is an error naming the move number.
//!
//! ```
//! use wuzi::notation::{parse_moves_game, parse_sgf, write_moves, write_sgf};
//! use wuzi::Rule;
//!
//! let game = parse_moves_game("H8, i9 g7", Rule::Renju, 15).unwrap();
//! assert_eq!(write_moves(&game), "h8 i9 g7");
//! let sgf = write_sgf(&game);
//! assert_eq!(sgf, "(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[renju];B[hh];W[ig];B[gi])");
//! assert_eq!(parse_sgf(&sgf, Rule::Freestyle, 19).unwrap().moves(), game.moves());
//! ```

mod moves;
mod sgf;

use std::fmt;

use crate::text::quote;
use crate::{Color, Game, ParsePointError, PlayError, Rule, SetupError, MAX_SIZE, MIN_SIZE};

pub use moves::{moves_to_string, parse_moves_game, parse_points, write_moves};
pub use sgf::{parse_sgf, write_sgf};

/// Why a record could not be read. Offsets are byte offsets into the text; move numbers count
/// from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A move string token that is not a point on the board.
    BadPoint {
        /// Which move.
        move_number: usize,
        /// Where it starts.
        offset: usize,
        /// Why.
        error: ParsePointError,
    },
    /// A move the referee refuses.
    Illegal {
        /// Which move.
        move_number: usize,
        /// Where it starts in the text.
        offset: usize,
        /// The move in RIF notation.
        point: String,
        /// Why.
        error: PlayError,
    },
    /// A pass (`B[]`, `tt`): Gomoku has none.
    Pass {
        /// Which move.
        move_number: usize,
        /// Where it starts.
        offset: usize,
    },
    /// A move by the side that is not to move.
    WrongColor {
        /// Which move.
        move_number: usize,
        /// Where it starts.
        offset: usize,
        /// The side that should have moved.
        expected: Color,
    },
    /// A malformed SGF point (not two letters on the board).
    BadSgfPoint {
        /// Which move.
        move_number: usize,
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// An unsupported `SZ` value.
    BadSize {
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// An `RU` value that names no known rule.
    UnknownRule {
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// A `GM` other than 4: not a Gomoku record.
    NotGomoku {
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// A malformed `AB`/`AW` value (not an SGF point or rectangle on the board).
    BadSetupPoint {
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// A `PL` value other than `B` or `W`.
    BadPlayer {
        /// Where it starts.
        offset: usize,
        /// The value as written.
        text: String,
    },
    /// A set-up position the referee refuses.
    Setup {
        /// Where the offending stone is written (the first setup value when the error is
        /// about the whole position).
        offset: usize,
        /// Why.
        error: SetupError,
    },
    /// A property this reader refuses (`AE`; setup properties, `SZ` or `RU` after the first
    /// move).
    Unsupported {
        /// Where it starts.
        offset: usize,
        /// The property name.
        property: String,
    },
    /// Text that is not SGF syntax.
    Syntax {
        /// Where.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
}

fn describe_play_error(f: &mut fmt::Formatter<'_>, point: &str, e: &PlayError) -> fmt::Result {
    match e {
        PlayError::OffBoard(_) => write!(f, "{point} is off the board"),
        PlayError::Occupied(_) => write!(f, "{point} is already occupied"),
        PlayError::GameOver => write!(f, "the game was already over before {point}"),
        PlayError::Forbidden { reason, .. } => {
            write!(f, "{point} is forbidden for black ({reason})")
        }
        PlayError::Size(e) => write!(f, "{e}"),
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadPoint {
                move_number,
                offset,
                error,
            } => write!(f, "move {move_number} (byte {offset}): {error}"),
            RecordError::Illegal {
                move_number,
                offset,
                point,
                error,
            } => {
                write!(f, "move {move_number} (byte {offset}) is illegal: ")?;
                describe_play_error(f, point, error)
            }
            RecordError::Pass {
                move_number,
                offset,
            } => write!(
                f,
                "move {move_number} (byte {offset}) is a pass, which Gomoku does not have"
            ),
            RecordError::WrongColor {
                move_number,
                offset,
                expected,
            } => write!(
                f,
                "move {move_number} (byte {offset}) should be played by {expected}"
            ),
            RecordError::BadSgfPoint {
                move_number,
                offset,
                text,
            } => write!(
                f,
                "move {move_number} (byte {offset}): {} is not an SGF point on the board",
                quote(text)
            ),
            RecordError::BadSize { offset, text } => write!(
                f,
                "SZ {} at byte {offset}: the board size must be a number from {MIN_SIZE} to {MAX_SIZE}",
                quote(text)
            ),
            RecordError::UnknownRule { offset, text } => write!(
                f,
                "RU {} at byte {offset}: unknown rule (expected freestyle, standard or renju)",
                quote(text)
            ),
            RecordError::NotGomoku { offset, text } => write!(
                f,
                "GM {} at byte {offset}: not a Gomoku record (expected GM[4])",
                quote(text)
            ),
            RecordError::BadSetupPoint { offset, text } => write!(
                f,
                "setup stone {} at byte {offset} is not an SGF point or rectangle on the board",
                quote(text)
            ),
            RecordError::BadPlayer { offset, text } => write!(
                f,
                "PL {} at byte {offset}: expected B or W",
                quote(text)
            ),
            RecordError::Setup { offset, error } => {
                write!(f, "the set-up position (byte {offset}) is refused: {error}")
            }
            RecordError::Unsupported { offset, property } => {
                write!(
                    f,
                    "property {} at byte {offset} is not supported",
                    quote(property)
                )
            }
            RecordError::Syntax { offset, expected } => {
                write!(f, "SGF syntax error at byte {offset}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::BadPoint { error, .. } => Some(error),
            RecordError::Illegal { error, .. } => Some(error),
            RecordError::Setup { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads either format: SGF if the text starts with `(`, a move string otherwise. `rule` and
/// `size` apply to move strings, and to SGF records without `RU`/`SZ`.
///
/// # Errors
/// As [`parse_sgf`] or [`parse_moves_game`].
pub fn parse_record(text: &str, rule: Rule, size: u8) -> Result<Game, RecordError> {
    if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('(')
    {
        parse_sgf(text, rule, size)
    } else {
        parse_moves_game(text, rule, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_record_detects_the_format() {
        let a = parse_record("(;B[hh];W[ii])", Rule::Renju, 15).unwrap();
        let b = parse_record("h8 i7", Rule::Renju, 15).unwrap();
        assert_eq!(a.moves(), b.moves());
    }
}
