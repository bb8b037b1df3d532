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

/// A verdict as the player reads it: what the text of [`Verdict`]'s `Display` says, as data,
/// so that an app can put it in its own words.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// The game is over: `color` has five.
    Won(Color),
    /// A forced win in `plies` plies (the next move and the five included); `by_fours`: by
    /// continuous fours (VCF).
    Wins {
        /// The winner.
        color: Color,
        /// Plies until the five.
        plies: u32,
        /// A VCF.
        by_fours: bool,
    },
    /// Within `EVEN_MARGIN`.
    Even,
    /// `color` is ahead by up to `WINNING_MARGIN`.
    Better(Color),
    /// `color` is ahead by more than `WINNING_MARGIN`.
    Winning(Color),
}

impl Verdict {
    /// What the verdict says, as data.
    #[must_use]
    pub fn outlook(self) -> Outlook {
        match self {
            Verdict::Win {
                color, plies: 0, ..
            } => Outlook::Won(color),
            Verdict::Win {
                color,
                plies,
                by_fours,
            } => Outlook::Wins {
                color,
                plies,
                by_fours,
            },
            Verdict::Eval { score, to_move } => {
                let leader = if score > 0 { to_move } else { to_move.other() };
                if score.abs() <= EVEN_MARGIN {
                    Outlook::Even
                } else if score.abs() <= WINNING_MARGIN {
                    Outlook::Better(leader)
                } else {
                    Outlook::Winning(leader)
                }
            }
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outlook() {
            // A finished game (the five is on the board).
            Outlook::Won(color) => write!(f, "{color} has won"),
            Outlook::Wins {
                color,
                plies,
                by_fours: true,
            } => write!(f, "{color} wins by VCF in {plies}"),
            Outlook::Wins { color, plies, .. } => write!(f, "{color} wins in {plies}"),
            Outlook::Even => f.write_str("even"),
            Outlook::Better(leader) => write!(f, "{leader} is better"),
            Outlook::Winning(leader) => write!(f, "{leader} is winning"),
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
