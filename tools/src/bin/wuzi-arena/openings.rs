//! The openings file: one opening a line, its moves in order in RIF notation (`h8 i9 g7`),
//! `#` starting a comment (a whole line or the end of one), blank lines ignored.
//!
//! Every line is written for a 15×15 board, so one file serves every size: on another board
//! the opening is moved so that the 15×15 centre `h8` lands on that board's centre (`j10` on
//! 19×19), and a line whose stones would fall off the board is an error rather than silently
//! dropped — a measurement must not quietly play a different opening set than the file says.
//! Each opening is replayed through the referee under the match's rule, so a stone on an
//! occupied point, a move forbidden for black under renju or an opening that already holds a
//! five is refused with its line number before any brain is started.

use std::fmt;

use wuzi::notation::{moves_to_string, parse_points, RecordError};
use wuzi::{Game, PlayError, Point, Rule, SizeError};

/// The board size opening lines are written for.
pub const FILE_SIZE: u8 = 15;

/// One opening, placed on the match's board and replayed by the referee.
#[derive(Clone, Debug)]
pub struct Opening {
    /// 1-based line in the file (0 for the empty opening).
    pub line: usize,
    /// The position after the opening's stones.
    pub game: Game,
}

impl Opening {
    /// The empty opening: black opens the game with `BEGIN`.
    ///
    /// # Errors
    /// [`SizeError`] for an unsupported board size.
    pub fn empty(rule: Rule, size: u8) -> Result<Opening, SizeError> {
        Ok(Opening {
            line: 0,
            game: Game::new(rule, size)?,
        })
    }

    /// The stones in move order, black first, on the match's board.
    #[must_use]
    pub fn moves(&self) -> &[Point] {
        self.game.moves()
    }

    /// The moves in RIF notation (`h8 i9 g7`; empty for no stones).
    #[must_use]
    pub fn text(&self) -> String {
        moves_to_string(self.moves(), self.game.size())
    }

    /// How reports name it: `h8 i9 g7 (line 12)`, or `empty board`.
    #[must_use]
    pub fn label(&self) -> String {
        if self.line == 0 {
            "empty board".to_string()
        } else {
            format!("{} (line {})", self.text(), self.line)
        }
    }
}

/// Why a line of an openings file is not a playable opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError {
    /// 1-based line number (0: the file as a whole).
    pub line: usize,
    /// The line without its comment.
    pub text: String,
    /// What is wrong with it.
    pub kind: OpeningsErrorKind,
}

/// What is wrong with an opening line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsErrorKind {
    /// A token that is not a point on the 15×15 board.
    BadPoint(RecordError),
    /// A move the referee refuses (occupied, forbidden for black under renju).
    Illegal(RecordError),
    /// The opening already holds a winning line.
    AlreadyOver,
    /// The opening does not fit the match's board once centred on it.
    DoesNotFit {
        /// The match's board size.
        size: u8,
    },
    /// The file holds no opening at all.
    NoOpenings,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let OpeningsErrorKind::NoOpenings = self.kind {
            return f.write_str("the file holds no opening (one per line, like `h8 i9 g7`)");
        }
        write!(f, "line {} ({:?}): ", self.line, self.text)?;
        match &self.kind {
            OpeningsErrorKind::BadPoint(e) => write!(f, "{e} (openings are written for 15x15)"),
            OpeningsErrorKind::Illegal(e) => e.fmt(f),
            OpeningsErrorKind::AlreadyOver => f.write_str("the opening already holds a five"),
            OpeningsErrorKind::DoesNotFit { size } => write!(
                f,
                "centred on the {size}x{size} board the opening falls off it; remove the line \
                 or use a larger board"
            ),
            OpeningsErrorKind::NoOpenings => Ok(()),
        }
    }
}

impl std::error::Error for OpeningsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            OpeningsErrorKind::BadPoint(e) | OpeningsErrorKind::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

/// Moves a point of the 15×15 file board onto a board of `size`, centre onto centre.
#[must_use]
pub fn place(p: Point, size: u8) -> Option<Point> {
    let shift = i16::from(size / 2) - i16::from(FILE_SIZE / 2);
    let (x, y) = (i16::from(p.x()) + shift, i16::from(p.y()) + shift);
    let range = 0..i16::from(size);
    (range.contains(&x) && range.contains(&y)).then(|| Point::new(x as u8, y as u8))
}

/// The inverse of [`place`]: a point of a `size` board on the 15×15 file board.
#[must_use]
pub fn unplace(p: Point, size: u8) -> Option<Point> {
    let shift = i16::from(FILE_SIZE / 2) - i16::from(size / 2);
    let (x, y) = (i16::from(p.x()) + shift, i16::from(p.y()) + shift);
    let range = 0..i16::from(FILE_SIZE);
    (range.contains(&x) && range.contains(&y)).then(|| Point::new(x as u8, y as u8))
}

/// Parses an openings file for a match under `rule` on a `size` board.
///
/// # Errors
/// [`OpeningsError`] naming the first line that is not a legal, unfinished opening that fits
/// the board, or [`OpeningsErrorKind::NoOpenings`] for a file without openings.
pub fn parse(text: &str, rule: Rule, size: u8) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |kind| OpeningsError {
            line: n + 1,
            text: line.to_string(),
            kind,
        };
        let points =
            parse_points(line, FILE_SIZE).map_err(|e| err(OpeningsErrorKind::BadPoint(e)))?;
        let moves = points
            .iter()
            .map(|&(p, _)| place(p, size))
            .collect::<Option<Vec<Point>>>()
            .ok_or_else(|| err(OpeningsErrorKind::DoesNotFit { size }))?;
        let mut game =
            Game::new(rule, size).map_err(|e| err(OpeningsErrorKind::Illegal(size_error(e))))?;
        for (i, (&p, &(_, offset))) in moves.iter().zip(&points).enumerate() {
            game.try_play(p).map_err(|error| {
                let kind = if error == PlayError::GameOver {
                    OpeningsErrorKind::AlreadyOver
                } else {
                    OpeningsErrorKind::Illegal(RecordError::Illegal {
                        move_number: i + 1,
                        offset,
                        point: p.rif(size).to_string(),
                        error,
                    })
                };
                err(kind)
            })?;
        }
        if game.is_over() {
            return Err(err(OpeningsErrorKind::AlreadyOver));
        }
        out.push(Opening { line: n + 1, game });
    }
    if out.is_empty() {
        return Err(OpeningsError {
            line: 0,
            text: String::new(),
            kind: OpeningsErrorKind::NoOpenings,
        });
    }
    Ok(out)
}

fn size_error(e: SizeError) -> RecordError {
    RecordError::BadSize {
        offset: 0,
        text: e.0.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rif(s: &str, size: u8) -> Point {
        Point::from_rif(s, size).unwrap()
    }

    #[test]
    fn lines_comments_and_blanks() {
        let text = "# header\n\nh8 i9 g7\n  H8,I9  # a comment\n";
        let all = parse(text, Rule::Freestyle, 15).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].line, 3);
        assert_eq!(
            all[0].moves(),
            [rif("h8", 15), rif("i9", 15), rif("g7", 15)]
        );
        assert_eq!(all[0].text(), "h8 i9 g7");
        assert_eq!(all[1].line, 4);
        assert_eq!(all[1].moves().len(), 2);
    }

    #[test]
    fn other_sizes_are_centred() {
        let all = parse("h8 i9", Rule::Freestyle, 19).unwrap();
        assert_eq!(all[0].text(), "j10 k11");
        assert_eq!(all[0].moves()[0], Point::center(19));
        let all = parse("h8 i9", Rule::Freestyle, 20).unwrap();
        assert_eq!(all[0].moves()[0], Point::center(20));
        // a1 of 15x15 is off a 13x13 board once centred.
        let e = parse("h8\na1 h9\n", Rule::Freestyle, 13).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, OpeningsErrorKind::DoesNotFit { size: 13 });
        for size in [7u8, 13, 15, 19, 20] {
            for p in Point::all(size) {
                if let Some(q) = unplace(p, size) {
                    assert_eq!(place(q, size), Some(p));
                }
            }
        }
    }

    #[test]
    fn bad_lines_are_typed_errors() {
        let e = parse("h8 i9\nh8 zz\n", Rule::Freestyle, 15).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, OpeningsErrorKind::BadPoint(_)), "{e}");
        assert!(e.to_string().starts_with("line 2 (\"h8 zz\")"), "{e}");

        let e = parse("h8 i9 h8", Rule::Freestyle, 15).unwrap_err();
        assert!(matches!(e.kind, OpeningsErrorKind::Illegal(_)), "{e}");
        assert!(e.to_string().contains("occupied"), "{e}");

        let e = parse("p1", Rule::Freestyle, 15).unwrap_err();
        assert!(matches!(e.kind, OpeningsErrorKind::BadPoint(_)), "{e}");

        let e = parse("# nothing\n\n", Rule::Freestyle, 15).unwrap_err();
        assert_eq!(e.kind, OpeningsErrorKind::NoOpenings);

        let five = "a1 a15 b1 b15 c1 c15 d1 d15 e1";
        let e = parse(five, Rule::Freestyle, 15).unwrap_err();
        assert_eq!(e.kind, OpeningsErrorKind::AlreadyOver);
        let e = parse(&format!("{five} o15"), Rule::Freestyle, 15).unwrap_err();
        assert_eq!(e.kind, OpeningsErrorKind::AlreadyOver);
    }

    #[test]
    fn renju_forbidden_openings_are_refused() {
        // h8 would give black two open threes (f8-g8-h8 and h6-h7-h8).
        let line = "f8 a1 g8 a3 h6 a5 h7 a7 h8";
        assert!(parse(line, Rule::Freestyle, 15).is_ok());
        let e = parse(line, Rule::Renju, 15).unwrap_err();
        assert!(e.to_string().contains("forbidden"), "{e}");
    }
}
