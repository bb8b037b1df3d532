//! Opening positions for self-play, in Piskvork's format.
//!
//! One opening per line: comma-separated `x,y` offsets from the centre, black first and
//! alternating (`0,0, 1,0, 1,3`). The bundled list is `openings-piskvork.txt` from the Piskvork
//! distribution (the one Gomocup managers ship).

use std::fmt;

use crate::{Point, MAX_SIZE};

/// The bundled opening list.
pub const PISKVORK_OPENINGS: &str = include_str!("openings-piskvork.txt");

/// A sequence of stones relative to the centre, black first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `(dx, dy)` from the centre; `dy` grows downwards like Gomocup's `y`.
    pub stones: Vec<(i8, i8)>,
}

/// A line of an opening file that is not a list of `x,y` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningParseError {
    /// 1-based line number.
    pub line: usize,
    /// The offending text.
    pub text: String,
}

impl fmt::Display for OpeningParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {:?} is not a list of x,y offsets",
            self.line, self.text
        )
    }
}

impl std::error::Error for OpeningParseError {}

impl Opening {
    /// The stones as points on a `size` board, or `None` if one falls off it.
    #[must_use]
    pub fn points(&self, size: u8) -> Option<Vec<Point>> {
        let c = i16::from(size / 2);
        self.stones
            .iter()
            .map(|&(dx, dy)| {
                let (x, y) = (c + i16::from(dx), c + i16::from(dy));
                (0..i16::from(size))
                    .contains(&x)
                    .then_some(())
                    .filter(|()| (0..i16::from(size)).contains(&y))
                    .map(|()| Point::new(x as u8, y as u8))
            })
            .collect()
    }
}

/// Parses an opening list (blank lines and `#` comments are skipped).
///
/// # Errors
/// [`OpeningParseError`] for a line with an odd number of numbers, a number that does not fit
/// a board, or other text.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningParseError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = || OpeningParseError {
            line: n + 1,
            text: line.to_string(),
        };
        let nums: Vec<i8> = line
            .split(',')
            .map(|s| s.trim().parse::<i8>().map_err(|_| err()))
            .collect::<Result<_, _>>()?;
        let limit = MAX_SIZE as i8;
        if nums.len() % 2 != 0 || nums.is_empty() || nums.iter().any(|v| v.abs() >= limit) {
            return Err(err());
        }
        out.push(Opening {
            stones: nums.chunks(2).map(|c| (c[0], c[1])).collect(),
        });
    }
    Ok(out)
}

/// The bundled Piskvork openings.
///
/// # Panics
/// Never: the bundled file is checked by a unit test.
#[must_use]
pub fn piskvork_openings() -> Vec<Opening> {
    parse_openings(PISKVORK_OPENINGS).expect("bundled openings parse")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_list_parses() {
        let all = piskvork_openings();
        assert_eq!(all.len(), 41);
        assert_eq!(all[0].stones, vec![(0, 0), (1, 0), (1, 3)]);
        // Most fit on 15x15; the far-flung ones are for 20x20.
        let fit15 = all.iter().filter(|o| o.points(15).is_some()).count();
        assert!(fit15 >= 38, "{fit15}");
        assert!(all.iter().all(|o| o.points(20).is_some()));
        assert_eq!(all[0].points(15).unwrap()[2], Point::new(8, 10));
    }

    #[test]
    fn bad_lines_are_errors() {
        assert_eq!(parse_openings("0,0, 1\n").unwrap_err().line, 1);
        assert_eq!(parse_openings("\n0,0\nx,y").unwrap_err().line, 3);
        assert!(parse_openings("0,0, 99,0").is_err());
        assert_eq!(parse_openings("# c\n\n0,0").unwrap().len(), 1);
    }
}
