//! The short judgement shown with a hint: "black wins by VCF in 7", "even", "white is better".

use std::fmt;

use crate::Color;

/// Evaluations within this margin read as "even".
pub const EVEN_MARGIN: i32 = 120;
/// Evaluations beyond this read as "winning" rather than "better".
pub const WINNING_MARGIN: i32 = 900;

/// What the search concluded about the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win was found.
    Win {
        /// The winner.
        color: Color,
        /// Plies until the five, counting the next move and the five itself.
        plies: u32,
        /// The win uses only fours (VCF).
        by_fours: bool,
    },
    /// No forced result: an evaluation.
    Eval {
        /// Evaluation from the side to move's view.
        score: i32,
        /// The side to move.
        to_move: Color,
    },
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // A finished game (the five is on the board).
            Verdict::Win {
                color, plies: 0, ..
            } => write!(f, "{color} has won"),
            Verdict::Win {
                color,
                plies,
                by_fours: true,
            } => write!(f, "{color} wins by VCF in {plies}"),
            Verdict::Win { color, plies, .. } => write!(f, "{color} wins in {plies}"),
            Verdict::Eval { score, to_move } => {
                if score.abs() <= EVEN_MARGIN {
                    return f.write_str("even");
                }
                let leader = if score > 0 { to_move } else { to_move.other() };
                if score.abs() <= WINNING_MARGIN {
                    write!(f, "{leader} is better")
                } else {
                    write!(f, "{leader} is winning")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_matches_the_contract() {
        let v = Verdict::Win {
            color: Color::Black,
            plies: 7,
            by_fours: true,
        };
        assert_eq!(v.to_string(), "black wins by VCF in 7");
        let v = Verdict::Win {
            color: Color::White,
            plies: 9,
            by_fours: false,
        };
        assert_eq!(v.to_string(), "white wins in 9");
        let done = Verdict::Win {
            color: Color::White,
            plies: 0,
            by_fours: false,
        };
        assert_eq!(done.to_string(), "white has won");
        let e = |score, to_move| Verdict::Eval { score, to_move }.to_string();
        assert_eq!(e(0, Color::Black), "even");
        assert_eq!(e(EVEN_MARGIN, Color::White), "even");
        assert_eq!(e(EVEN_MARGIN + 1, Color::Black), "black is better");
        assert_eq!(e(-(EVEN_MARGIN + 1), Color::Black), "white is better");
        assert_eq!(e(WINNING_MARGIN + 1, Color::White), "white is winning");
        assert_eq!(e(-WINNING_MARGIN - 1, Color::White), "black is winning");
    }
}
