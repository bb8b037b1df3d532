//! Set-up positions: a game that starts from stones placed at will (a position from a book, a
//! problem, a game played elsewhere) instead of from the empty board.

use std::fmt;

use crate::board::{Cell, DIRECTIONS};
use crate::referee::{win_at, Win};
use crate::{Board, Color, Point, Rule, SizeError};

/// A position to start a game from: the stones of each colour and the side to move.
///
/// This is plain data and may describe nonsense (stones off the board, a point given twice, a
/// five already made); [`Game::from_setup`](crate::Game::from_setup) is the checked
/// constructor that turns it into a game or says what is wrong with it, as shakmaty's
/// `Setup` → `Chess::from_setup` does. The stone counts need not match any game: white to move
/// with more white stones than black is a valid position.
///
/// # Examples
/// ```
/// use wuzi::{Color, Game, Point, Rule, Setup};
///
/// let rif = |s: &str| Point::from_rif(s, 15).unwrap();
/// let setup = Setup {
///     size: 15,
///     black: vec![rif("h8"), rif("i9")],
///     white: vec![rif("h9"), rif("g7"), rif("j7")],
///     to_move: Color::White,
/// };
/// let mut game = Game::from_setup(Rule::Renju, &setup).unwrap();
/// assert_eq!(game.to_move(), Color::White);
/// assert!(game.moves().is_empty());
/// game.try_play(rif("j10")).unwrap();
/// assert_eq!(game.undo(), Some(rif("j10")));
/// // The setup stones are not moves: undo stops at the set-up position.
/// assert_eq!(game.undo(), None);
/// assert_eq!(game.board().stone_count(), 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board side length.
    pub size: u8,
    /// The black stones, in any order.
    pub black: Vec<Point>,
    /// The white stones, in any order.
    pub white: Vec<Point>,
    /// The side to move first from this position.
    pub to_move: Color,
}

impl Setup {
    /// The empty board of `size` with black to move: the start of an ordinary game.
    #[must_use]
    pub const fn empty(size: u8) -> Setup {
        Setup {
            size,
            black: Vec::new(),
            white: Vec::new(),
            to_move: Color::Black,
        }
    }

    /// The stones of `board` with `to_move` to play.
    #[must_use]
    pub fn from_board(board: &Board, to_move: Color) -> Setup {
        let mut setup = Setup::empty(board.size());
        setup.to_move = to_move;
        for (p, c) in board.stones() {
            match c {
                Color::Black => setup.black.push(p),
                Color::White => setup.white.push(p),
            }
        }
        setup
    }

    /// Whether this is the ordinary start: no stones and black to move.
    #[must_use]
    pub fn is_empty_start(&self) -> bool {
        self.black.is_empty() && self.white.is_empty() && self.to_move == Color::Black
    }

    /// The stones of `color`.
    #[must_use]
    pub fn stones(&self, color: Color) -> &[Point] {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// Checks the position under `rule` and returns its board, with the points of each colour
    /// sorted (row-major from the top) so that equal positions compare equal.
    pub(crate) fn validate(&self, rule: Rule) -> Result<(Setup, Board), SetupError> {
        let size = self.size;
        let mut board = Board::new(size).map_err(SetupError::Size)?;
        for color in Color::ALL {
            for &point in self.stones(color) {
                if !point.on_board(size) {
                    return Err(SetupError::OffBoard { point, color, size });
                }
                if !board.is_empty_at(point) {
                    return Err(SetupError::Duplicate { point, size });
                }
                board.place(point, color);
            }
        }
        // A five (as the rule counts fives) is checked before renju's black overline, so a
        // position holding both is reported by its five.
        for (p, _) in board.stones() {
            if let Some(win) = win_at(&board, p, rule) {
                return Err(SetupError::Five { win, size });
            }
        }
        if rule.has_forbidden(Color::Black) {
            for &p in &self.black {
                if let Some(line) = overline_through(&board, p) {
                    return Err(SetupError::Overline { line, size });
                }
            }
        }
        let mut normal = self.clone();
        for points in [&mut normal.black, &mut normal.white] {
            points.sort_unstable_by_key(|p| (p.y(), p.x()));
        }
        Ok((normal, board))
    }
}

/// The black run of six or more through `p`, if there is one.
fn overline_through(board: &Board, p: Point) -> Option<Vec<Point>> {
    let idx = Board::index_of(p);
    for dir in DIRECTIONS {
        let mut lo = idx;
        while board.cell(lo.wrapping_add_signed(-dir)) == Cell::Black {
            lo = lo.wrapping_add_signed(-dir);
        }
        let mut line = Vec::new();
        let mut i = lo;
        while board.cell(i) == Cell::Black {
            line.push(Board::point_of(i));
            i = i.wrapping_add_signed(dir);
        }
        if line.len() >= 6 {
            return Some(line);
        }
    }
    None
}

/// Why a [`Setup`] cannot start a game. Nothing is built when this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The board size is not supported.
    Size(SizeError),
    /// A stone off the board.
    OffBoard {
        /// The point as given.
        point: Point,
        /// Whose stone.
        color: Color,
        /// The board size.
        size: u8,
    },
    /// A point given twice (for one colour or for both).
    Duplicate {
        /// The point.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// One side already has a winning line under the rule (exactly five under standard;
    /// five or more under freestyle, and for white under renju).
    Five {
        /// The line, as the referee reports a win.
        win: Win,
        /// The board size.
        size: u8,
    },
    /// Under renju, black already has six or more in a row (a position no legal game reaches).
    Overline {
        /// The black stones of the run, from one end to the other.
        line: Vec<Point>,
        /// The board size.
        size: u8,
    },
}

fn write_line(f: &mut fmt::Formatter<'_>, line: &[Point], size: u8) -> fmt::Result {
    match (line.first(), line.last()) {
        (Some(a), Some(b)) => write!(f, "{}-{}", a.rif(size), b.rif(size)),
        _ => Ok(()),
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size(e) => e.fmt(f),
            SetupError::OffBoard { point, color, size } => write!(
                f,
                "a {color} stone at {} is off the {size}x{size} board",
                point.gomocup()
            ),
            SetupError::Duplicate { point, size } => {
                write!(f, "{} is given more than one stone", point.rif(*size))
            }
            SetupError::Five { win, size } => {
                write!(
                    f,
                    "the position is already won: {} has a {} at ",
                    win.color, win.kind
                )?;
                write_line(f, &win.line, *size)
            }
            SetupError::Overline { line, size } => {
                f.write_str("black has an overline at ")?;
                write_line(f, line, *size)?;
                f.write_str(", which renju never allows")
            }
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Size(e) => Some(e),
            _ => None,
        }
    }
}
