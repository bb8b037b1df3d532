//! A slow, independent referee on plain coordinates, written straight from the RIF
//! definitions, to judge the real one against.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use wuzi::{forbidden_at, forbidden_points, Board, Color, Forbidden, Point, Rule};

use super::empty_points;

pub(super) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

type Xy = (i32, i32);
/// Each four (its four black stones) with the points that complete it to exactly five.
type Fours = BTreeMap<Vec<Xy>, BTreeSet<Xy>>;

#[derive(Clone)]
pub(super) struct Grid {
    size: i32,
    cells: Vec<Option<Color>>,
}

impl Grid {
    pub(super) fn from_board(b: &Board) -> Grid {
        let size = i32::from(b.size());
        let mut cells = vec![None; (size * size) as usize];
        for (p, c) in b.stones() {
            cells[(i32::from(p.y()) * size + i32::from(p.x())) as usize] = Some(c);
        }
        Grid { size, cells }
    }

    fn on(&self, x: i32, y: i32) -> bool {
        (0..self.size).contains(&x) && (0..self.size).contains(&y)
    }

    fn get(&self, x: i32, y: i32) -> Option<Color> {
        if self.on(x, y) {
            self.cells[(y * self.size + x) as usize]
        } else {
            None
        }
    }

    fn set(&mut self, x: i32, y: i32, c: Option<Color>) {
        self.cells[(y * self.size + x) as usize] = c;
    }

    /// The run of `c` through `(x, y)` along `(dx, dy)`, as coordinates from one end.
    pub(super) fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32), c: Color) -> Vec<(i32, i32)> {
        let mut start = (x, y);
        while self.get(start.0 - dx, start.1 - dy) == Some(c) {
            start = (start.0 - dx, start.1 - dy);
        }
        let mut out = vec![start];
        let mut cur = start;
        while self.get(cur.0 + dx, cur.1 + dy) == Some(c) {
            cur = (cur.0 + dx, cur.1 + dy);
            out.push(cur);
        }
        out
    }

    /// Fours through black `(x, y)` along `d`: each four (its four black stones) with the
    /// points that complete it to exactly five.
    fn fours(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> Fours {
        let mut out: BTreeMap<_, BTreeSet<_>> = BTreeMap::new();
        for s in -4..=0 {
            let window: Vec<(i32, i32)> = (s..s + 5).map(|k| (x + k * dx, y + k * dy)).collect();
            if !window.iter().all(|&(a, b)| self.on(a, b)) {
                continue;
            }
            let black: Vec<_> = window
                .iter()
                .copied()
                .filter(|&(a, b)| self.get(a, b) == Some(Color::Black))
                .collect();
            let empty: Vec<_> = window
                .iter()
                .copied()
                .filter(|&(a, b)| self.get(a, b).is_none())
                .collect();
            let before = (x + (s - 1) * dx, y + (s - 1) * dy);
            let after = (x + (s + 5) * dx, y + (s + 5) * dy);
            if black.len() == 4
                && empty.len() == 1
                && self.get(before.0, before.1) != Some(Color::Black)
                && self.get(after.0, after.1) != Some(Color::Black)
            {
                out.entry(black).or_default().insert(empty[0]);
            }
        }
        out
    }

    /// RIF forbidden check for black on the empty `(x, y)`, straight from the definitions.
    fn forbidden(&mut self, x: i32, y: i32) -> Option<Forbidden> {
        self.set(x, y, Some(Color::Black));
        let verdict = self.forbidden_placed(x, y);
        self.set(x, y, None);
        verdict
    }

    fn forbidden_placed(&mut self, x: i32, y: i32) -> Option<Forbidden> {
        let runs: Vec<usize> = DIRS
            .iter()
            .map(|&d| self.run(x, y, d, Color::Black).len())
            .collect();
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&r| r > 5) {
            return Some(Forbidden::Overline);
        }
        let fours: Vec<usize> = DIRS.iter().map(|&d| self.fours(x, y, d).len()).collect();
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (i, &d) in DIRS.iter().enumerate() {
            if fours[i] == 0 && self.three(x, y, d) {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }

    /// Some empty point on the line makes a straight four (one four with two completion
    /// points) that contains it and `(x, y)`, makes no five on any line (that stone would win,
    /// not make the straight four), and is itself not forbidden.
    fn three(&mut self, x: i32, y: i32, (dx, dy): (i32, i32)) -> bool {
        for k in -4..=4 {
            let q = (x + k * dx, y + k * dy);
            if k == 0 || !self.on(q.0, q.1) || self.get(q.0, q.1).is_some() {
                continue;
            }
            self.set(q.0, q.1, Some(Color::Black));
            let straight = self
                .fours(x, y, (dx, dy))
                .iter()
                .any(|(stones, ends)| stones.contains(&q) && ends.len() >= 2);
            let five = DIRS
                .iter()
                .any(|&d| self.run(q.0, q.1, d, Color::Black).len() == 5);
            self.set(q.0, q.1, None);
            if straight && !five && self.forbidden(q.0, q.1).is_none() {
                return true;
            }
        }
        false
    }

    /// Every empty point forbidden for black, row by row from the top.
    fn all_forbidden(&mut self) -> Vec<(Point, Forbidden)> {
        let mut out = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                if self.get(x, y).is_none() {
                    if let Some(reason) = self.forbidden(x, y) {
                        out.push((Point::new(x as u8, y as u8), reason));
                    }
                }
            }
        }
        out
    }
}

/// `forbidden_at` on every empty point and `forbidden_points` both agree with the slow referee,
/// and `forbidden_at` leaves the board as it found it.
pub(super) fn check_forbidden(board: &Board) -> Result<(), TestCaseError> {
    let mut grid = Grid::from_board(board);
    let slow = grid.all_forbidden();
    let mut scratch = board.clone();
    for p in empty_points(board) {
        let want = slow.iter().find(|(q, _)| *q == p).map(|&(_, r)| r);
        prop_assert_eq!(
            forbidden_at(&mut scratch, p),
            want,
            "at {:?} on\n{}",
            p,
            board
        );
    }
    prop_assert_eq!(&scratch, board);
    prop_assert_eq!(scratch.hash(), board.hash());
    prop_assert_eq!(forbidden_points(board, Rule::Renju), slow, "on\n{}", board);
    Ok(())
}
