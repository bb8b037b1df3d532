//! Board coordinates.
//!
//! Internally (and in the Gomocup protocol) a point is `(x, y)`: `x` the column from the left,
//! `y` the row from the **top**, both 0-based. Players and records use RIF notation: a column
//! letter `a`… from the left and a row number `1`… from the **bottom**, so `h8` is the centre of
//! the 15×15 board. Converting between the two needs the board size.

use std::fmt;

use crate::rule::MAX_SIZE;
use crate::text::quote;

/// An intersection: `x` = column from the left, `y` = row from the top, both 0-based.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    x: u8,
    y: u8,
}

/// Why a point could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePointError {
    /// Nothing to read.
    Empty,
    /// Not of the form `h8` (RIF) or `7,7` (Gomocup).
    Malformed(String),
    /// Well formed but outside a board of this size.
    OffBoard {
        /// The text as given.
        text: String,
        /// The board size.
        size: u8,
    },
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePointError::Empty => f.write_str("empty point"),
            ParsePointError::Malformed(s) => {
                write!(
                    f,
                    "malformed point {} (expected a column letter and a row number, like h8)",
                    quote(s)
                )
            }
            ParsePointError::OffBoard { text, size } => {
                write!(f, "point {} is off the {size}x{size} board", quote(text))
            }
        }
    }
}

impl std::error::Error for ParsePointError {}

impl Point {
    /// A point from its column and its row counted from the top.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Column, 0-based from the left.
    #[must_use]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// Row, 0-based from the top.
    #[must_use]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// Whether the point lies on a `size`×`size` board.
    #[must_use]
    pub const fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// The centre of a `size`×`size` board (`h8` on 15×15).
    #[must_use]
    pub const fn center(size: u8) -> Point {
        Point::new(size / 2, size / 2)
    }

    /// Reads RIF notation (`h8`, `H8`, `o15`) on a board of `size`.
    ///
    /// # Errors
    /// [`ParsePointError`] if the text is not a letter followed by a number, or is off the board.
    pub fn from_rif(text: &str, size: u8) -> Result<Point, ParsePointError> {
        let t = text.trim();
        let mut chars = t.chars();
        let letter = chars.next().ok_or(ParsePointError::Empty)?;
        let digits = chars.as_str();
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(ParsePointError::Malformed(t.to_string()));
        }
        let col = u32::from(letter.to_ascii_lowercase() as u8 - b'a');
        let row: u32 = digits
            .parse()
            .map_err(|_| ParsePointError::Malformed(t.to_string()))?;
        if col >= u32::from(size) || row == 0 || row > u32::from(size) {
            return Err(ParsePointError::OffBoard {
                text: t.to_string(),
                size,
            });
        }
        // Both fit in u8: col < size and 1 <= row <= size, with size <= MAX_SIZE.
        Ok(Point::new(col as u8, size - row as u8))
    }

    /// Reads Gomocup notation `x,y` (0-based, `y` from the top) on a board of `size`.
    ///
    /// # Errors
    /// [`ParsePointError`] if the text is not two numbers separated by a comma, or is off the board.
    pub fn from_gomocup(text: &str, size: u8) -> Result<Point, ParsePointError> {
        let t = text.trim();
        let (xs, ys) = t
            .split_once(',')
            .ok_or_else(|| ParsePointError::Malformed(t.to_string()))?;
        let parse = |s: &str| -> Result<u32, ParsePointError> {
            let s = s.trim();
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParsePointError::Malformed(t.to_string()));
            }
            s.parse()
                .map_err(|_| ParsePointError::Malformed(t.to_string()))
        };
        let (x, y) = (parse(xs)?, parse(ys)?);
        if x >= u32::from(size) || y >= u32::from(size) {
            return Err(ParsePointError::OffBoard {
                text: t.to_string(),
                size,
            });
        }
        Ok(Point::new(x as u8, y as u8))
    }

    /// RIF notation on a board of `size` (`h8`); display it or call `to_string()`.
    #[must_use]
    pub const fn rif(self, size: u8) -> Rif {
        Rif { point: self, size }
    }

    /// Gomocup notation `x,y`.
    #[must_use]
    pub fn gomocup(self) -> String {
        format!("{},{}", self.x, self.y)
    }

    /// Every point of a `size`×`size` board, row by row from the top.
    pub fn all(size: u8) -> impl Iterator<Item = Point> {
        let size = size.min(MAX_SIZE);
        (0..size).flat_map(move |y| (0..size).map(move |x| Point::new(x, y)))
    }

    /// The image of this point under one of the 8 symmetries of a `size`×`size` board
    /// (`sym` in `0..8`: bit 0 mirrors x, bit 1 mirrors y, bit 2 transposes first).
    #[must_use]
    pub const fn transform(self, sym: u8, size: u8) -> Point {
        let (mut x, mut y) = (self.x, self.y);
        if sym & 4 != 0 {
            let t = x;
            x = y;
            y = t;
        }
        if sym & 1 != 0 {
            x = size - 1 - x;
        }
        if sym & 2 != 0 {
            y = size - 1 - y;
        }
        Point::new(x, y)
    }
}

/// A point printed in RIF notation for a given board size; see [`Point::rif`].
#[derive(Copy, Clone, Debug)]
pub struct Rif {
    point: Point,
    size: u8,
}

impl fmt::Display for Rif {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a' + self.point.x);
        let row = u32::from(self.size) - u32::from(self.point.y);
        write!(f, "{letter}{row}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_is_h8_on_15() {
        assert_eq!(Point::center(15).rif(15).to_string(), "h8");
        assert_eq!(Point::from_rif("h8", 15), Ok(Point::new(7, 7)));
        assert_eq!(Point::from_rif("H8", 15), Ok(Point::new(7, 7)));
    }

    #[test]
    fn rows_count_from_the_bottom() {
        assert_eq!(Point::from_rif("a1", 15), Ok(Point::new(0, 14)));
        assert_eq!(Point::from_rif("o15", 15), Ok(Point::new(14, 0)));
        assert_eq!(Point::new(0, 0).rif(19).to_string(), "a19");
    }

    #[test]
    fn rejects_bad_text() {
        assert!(matches!(
            Point::from_rif("", 15),
            Err(ParsePointError::Empty)
        ));
        assert!(matches!(
            Point::from_rif("8h", 15),
            Err(ParsePointError::Malformed(_))
        ));
        assert!(matches!(
            Point::from_rif("h", 15),
            Err(ParsePointError::Malformed(_))
        ));
        assert!(matches!(
            Point::from_rif("p1", 15),
            Err(ParsePointError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::from_rif("a0", 15),
            Err(ParsePointError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::from_rif("a16", 15),
            Err(ParsePointError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::from_rif("é5", 15),
            Err(ParsePointError::Malformed(_))
        ));
        assert!(matches!(
            Point::from_rif("a999", 15),
            Err(ParsePointError::Malformed(_))
        ));
    }

    #[test]
    fn gomocup_round_trip() {
        let p = Point::from_gomocup("3, 12", 15).unwrap();
        assert_eq!(p, Point::new(3, 12));
        assert_eq!(p.gomocup(), "3,12");
        assert!(Point::from_gomocup("15,0", 15).is_err());
        assert!(Point::from_gomocup("-1,0", 15).is_err());
        assert!(Point::from_gomocup("1;0", 15).is_err());
    }

    #[test]
    fn every_rif_round_trips() {
        for size in [5u8, 13, 15, 19, 20] {
            for p in Point::all(size) {
                let s = p.rif(size).to_string();
                assert_eq!(Point::from_rif(&s, size), Ok(p), "{s}");
            }
        }
    }

    #[test]
    fn symmetries_are_bijections() {
        for sym in 0..8 {
            let mut seen = std::collections::HashSet::new();
            for p in Point::all(7) {
                let q = p.transform(sym, 7);
                assert!(q.on_board(7));
                assert!(seen.insert(q));
            }
        }
    }
}
