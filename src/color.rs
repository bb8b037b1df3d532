//! The two sides.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// A side: black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Color {
    /// Moves first; the only side with forbidden moves under renju.
    Black = 0,
    /// Moves second.
    White = 1,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour that moves after `stones` stones were placed alternately from an empty board.
    #[must_use]
    pub const fn to_move_after(stones: usize) -> Color {
        if stones % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// `"black"` or `"white"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour name that is not `black`/`white` (or `b`/`w`, `x`/`o`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError(pub String);

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown colour {} (expected black or white)",
            crate::text::quote(&self.0)
        )
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// One value per colour, indexable by [`Color`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Builds both values from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_flips() {
        assert_eq!(Color::Black.other(), Color::White);
        assert_eq!(Color::White.other().other(), Color::White);
    }

    #[test]
    fn parse_and_print_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
        assert_eq!("W".parse::<Color>(), Ok(Color::White));
        assert!("red".parse::<Color>().is_err());
    }

    #[test]
    fn by_color_indexes() {
        let mut v = ByColor::new_with(|c| c.index() * 10);
        v[Color::White] += 1;
        assert_eq!((v[Color::Black], v[Color::White]), (0, 11));
    }
}
