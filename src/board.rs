//! The stones on the board, built for the search's hot path.
//!
//! Cells live in a padded one-dimensional array: `STRIDE` = 32 cells a row with [`PAD`] = 5
//! wall cells around the playing area, so that any window of ±5 cells in any of the four line
//! directions from an on-board point stays inside the array and meets [`Cell::Wall`] instead of
//! needing a bounds check. Placing and removing a stone is O(1) and keeps a Zobrist hash.
//!
//! The board does not know whose turn it is or which rule applies: that is [`crate::Game`]'s
//! and the referee's business. Search code uses [`Board::place`] / [`Board::remove`] directly.

use std::fmt;

use crate::rule::{MAX_SIZE, MIN_SIZE};
use crate::{Color, Point};

/// Cells per padded row.
pub const STRIDE: usize = 32;
/// Wall cells on each side of the playing area.
pub const PAD: usize = 5;
/// Length of the padded cell array.
pub const CELLS: usize = STRIDE * (MAX_SIZE as usize + 2 * PAD);

/// Index steps for the four line directions: horizontal, vertical, diagonal `\`, anti-diagonal `/`.
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// The content of one padded cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    #[default]
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Outside the playing area.
    Wall = 3,
}

impl Cell {
    /// The stone of `color`.
    #[must_use]
    pub const fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone here, if any.
    #[must_use]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Empty | Cell::Wall => None,
        }
    }
}

/// A board size outside `5..=20`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SizeError(pub u32);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is not supported (use {MIN_SIZE} to {MAX_SIZE})",
            self.0
        )
    }
}

impl std::error::Error for SizeError {}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; CELLS]; 2] {
    let mut table = [[0u64; CELLS]; 2];
    let mut state = 0x5755_5A49_2020_2026_u64; // "WUZI" and a year: any fixed seed will do.
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, v) = splitmix64(state);
            state = s;
            table[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    table
}

/// Zobrist keys per colour and padded index, fixed at compile time so hashes are stable
/// across runs (the search bench and saved caches rely on it).
pub static ZOBRIST: [[u64; CELLS]; 2] = zobrist_table();

/// The stones on a square board of size 5 to 20.
#[derive(Clone)]
pub struct Board {
    size: u8,
    cells: [Cell; CELLS],
    hash: u64,
    stones: usize,
}

impl Board {
    /// An empty `size`×`size` board.
    ///
    /// # Errors
    /// [`SizeError`] unless `5 <= size <= 20`.
    pub fn new(size: u8) -> Result<Board, SizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SizeError(u32::from(size)));
        }
        let mut cells = [Cell::Wall; CELLS];
        for p in Point::all(size) {
            cells[Self::index_of(p)] = Cell::Empty;
        }
        Ok(Board {
            size,
            cells,
            hash: 0,
            stones: 0,
        })
    }

    /// The side length.
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Whether `p` lies on this board.
    #[must_use]
    pub const fn contains(&self, p: Point) -> bool {
        p.on_board(self.size)
    }

    /// The padded index of a point (valid for any point with coordinates below [`MAX_SIZE`]).
    #[must_use]
    pub const fn index_of(p: Point) -> usize {
        (p.y() as usize + PAD) * STRIDE + p.x() as usize + PAD
    }

    /// The point at a padded index.
    ///
    /// # Panics
    /// In debug builds, if `idx` is inside the wall border.
    #[must_use]
    pub const fn point_of(idx: usize) -> Point {
        debug_assert!(idx / STRIDE >= PAD && idx % STRIDE >= PAD);
        Point::new((idx % STRIDE - PAD) as u8, (idx / STRIDE - PAD) as u8)
    }

    /// The cell at a padded index.
    #[inline]
    #[must_use]
    pub fn cell(&self, idx: usize) -> Cell {
        self.cells[idx]
    }

    /// The whole padded cell array (for pattern code that scans windows).
    #[must_use]
    pub fn cells(&self) -> &[Cell; CELLS] {
        &self.cells
    }

    /// The stone at `p`, or `None` for an empty or off-board point.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.contains(p) {
            self.cells[Self::index_of(p)].color()
        } else {
            None
        }
    }

    /// Whether `p` is on the board and empty.
    #[must_use]
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.contains(p) && self.cells[Self::index_of(p)] == Cell::Empty
    }

    /// Number of stones on the board.
    #[must_use]
    pub const fn stone_count(&self) -> usize {
        self.stones
    }

    /// Whether every point holds a stone.
    #[must_use]
    pub const fn is_full(&self) -> bool {
        self.stones == self.size as usize * self.size as usize
    }

    /// The Zobrist hash of the stones (the empty board hashes to 0).
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Puts a stone of `color` on the empty point `p`, without checking any rule.
    ///
    /// # Panics
    /// In debug builds, if `p` is off the board or occupied.
    #[inline]
    pub fn place(&mut self, p: Point, color: Color) {
        let idx = Self::index_of(p);
        debug_assert!(self.contains(p), "place off the board: {p:?}");
        debug_assert_eq!(self.cells[idx], Cell::Empty, "place on a stone: {p:?}");
        self.cells[idx] = Cell::stone(color);
        self.hash ^= ZOBRIST[color.index()][idx];
        self.stones += 1;
    }

    /// Takes the stone off `p`: the exact inverse of [`Board::place`].
    ///
    /// # Panics
    /// In debug builds, if `p` holds no stone.
    #[inline]
    pub fn remove(&mut self, p: Point) {
        let idx = Self::index_of(p);
        let color = self.cells[idx].color();
        debug_assert!(color.is_some(), "remove from an empty point: {p:?}");
        if let Some(color) = color {
            self.cells[idx] = Cell::Empty;
            self.hash ^= ZOBRIST[color.index()][idx];
            self.stones -= 1;
        }
    }

    /// The hash recomputed from scratch (for tests of the incremental one).
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        Point::all(self.size)
            .filter_map(|p| {
                let idx = Self::index_of(p);
                self.cells[idx].color().map(|c| ZOBRIST[c.index()][idx])
            })
            .fold(0, |h, k| h ^ k)
    }

    /// How many stones of `color` stand in an unbroken run through `p` along direction `dir`
    /// (an index step from [`DIRECTIONS`]), counting `p` itself as if it were `color`.
    #[must_use]
    pub fn run_length(&self, p: Point, dir: isize, color: Color) -> usize {
        let start = Self::index_of(p) as isize;
        let want = Cell::stone(color);
        let mut n = 1;
        for sign in [1, -1] {
            let mut i = start + sign * dir;
            while self.cells[i as usize] == want {
                n += 1;
                i += sign * dir;
            }
        }
        n
    }

    /// All stones, in row-major order from the top.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        Point::all(self.size).filter_map(|p| self.get(p).map(|c| (p, c)))
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.cells[..] == other.cells[..]
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} hash={:016x}",
            self.size, self.size, self.hash
        )?;
        fmt::Display::fmt(self, f)
    }
}

/// Rows from the top with their RIF numbers, `X` black, `O` white, `.` empty, then the column
/// letters: the same layout as `tests/fixtures/renju_cases.txt`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size {
            write!(f, "{:>2} ", self.size - y)?;
            for x in 0..self.size {
                let c = match self.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for x in 0..self.size {
            write!(f, "{}", char::from(b'a' + x))?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(4).is_err());
        assert!(Board::new(21).is_err());
        for s in [5, 13, 15, 19, 20] {
            assert_eq!(Board::new(s).unwrap().size(), s);
        }
    }

    #[test]
    fn walls_surround_the_board() {
        let b = Board::new(20).unwrap();
        for p in Point::all(20) {
            let idx = Board::index_of(p);
            for d in DIRECTIONS {
                for k in 1..=5 {
                    for i in [idx as isize + k * d, idx as isize - k * d] {
                        assert!(i >= 0 && (i as usize) < CELLS);
                    }
                }
            }
        }
        let small = Board::new(5).unwrap();
        assert_eq!(small.cell(Board::index_of(Point::new(5, 0))), Cell::Wall);
        assert_eq!(b.cell(Board::index_of(Point::new(19, 19))), Cell::Empty);
    }

    #[test]
    fn place_and_remove_restore_hash() {
        let mut b = Board::new(15).unwrap();
        let p = Point::new(7, 7);
        b.place(p, Color::Black);
        assert_ne!(b.hash(), 0);
        assert_eq!(b.hash(), b.hash_from_scratch());
        assert_eq!(b.get(p), Some(Color::Black));
        b.remove(p);
        assert_eq!(b.hash(), 0);
        assert_eq!(b, Board::new(15).unwrap());
    }

    #[test]
    fn run_length_counts_through_the_point() {
        let mut b = Board::new(15).unwrap();
        for x in [3, 4, 6] {
            b.place(Point::new(x, 2), Color::White);
        }
        assert_eq!(
            b.run_length(Point::new(5, 2), DIRECTIONS[0], Color::White),
            4
        );
        assert_eq!(
            b.run_length(Point::new(5, 2), DIRECTIONS[1], Color::White),
            1
        );
    }

    #[test]
    fn point_index_round_trip() {
        for p in Point::all(20) {
            assert_eq!(Board::point_of(Board::index_of(p)), p);
        }
    }
}
