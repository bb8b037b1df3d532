//! The search's board: stones plus incrementally maintained line patterns.
//!
//! [`Position`] owns a [`Board`] and, for every point, a 20-bit key per direction describing
//! the ten neighbours along that line. Placing or removing a stone touches only the cells
//! within ±5 along the four lines through it (40 cells), and for each of those re-reads the
//! pattern table for both colours, re-derives the point's [`Threat`] class and score, and
//! adjusts per-colour score sums and per-class counts. The counts make questions such as
//! "does the side to move have a five?" O(1) at every node.

use crate::ai::net::{net, Accumulators, CELL_WORDS};
use crate::ai::pattern::{tables, weight, KeyTable, Neighbour, Pattern};
use crate::ai::weights::{combo_key, ranks, weights, Weights};
use crate::{Board, Cell, Color, Point, Rule, CELLS, DIRECTIONS};

mod combo;
mod queries;

pub use combo::{combo_score, Threat, THREATS};
use combo::{combo_tables, Combo, COMBO_KEY_STEP};
#[cfg(test)]
mod tests;

/// Per-cell cache for one colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct CellInfo {
    patterns: [Pattern; 4],
    /// [`combo_key`] of `patterns`, kept up to date with them.
    key: u16,
    /// What the four patterns add up to: a copy of the combination table's entry, so readers
    /// need no second lookup and a changed line costs one load and one store.
    combo: Combo,
}

/// What black's forbidden empty points hold (see [`Position::forbidden_black`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ForbiddenPoints {
    /// How many there are.
    pub points: i32,
    /// Black's evaluation weights summed over them, waiting and to move.
    pub w: [i32; 2],
    /// How many of them hold each [`Threat`] class for black.
    pub threats: [u32; THREATS],
}

/// Board + incremental pattern state; see the module docs.
#[derive(Clone)]
pub struct Position {
    board: Board,
    rule: Rule,
    to_move: Color,
    /// Line-pattern table per colour (exactly-five or five-or-more).
    pats: [&'static KeyTable; 2],
    /// Pattern-combination table per colour (black's differs under renju).
    combos: [&'static [Combo]; 2],
    /// Combination rank of each ordered four patterns ([`combo_key`]).
    ranks: &'static [u16; 12 * 12 * 12 * 12],
    weights: &'static Weights,
    /// `keys[colour][d][idx]`: base-3 key of the neighbours of `idx` along direction `d`, as
    /// seen by `colour`.
    keys: Box<[[[u16; CELLS]; 4]; 2]>,
    info: Box<[[CellInfo; CELLS]; 2]>,
    /// `wsum[colour][to_move]`: the colour's evaluation weights summed over empty points.
    wsum: [[i32; 2]; 2],
    threat_count: [[u16; THREATS]; 2],
    /// Black's empty points whose patterns allow a forbidden move (renju), one bit per padded
    /// index, and how many there are.
    maybe_forbidden: Box<[u64; CELL_WORDS]>,
    maybe_forbidden_count: u16,
    /// Stones within the 5×5 square around each cell: a candidate move has one.
    near: Box<[u8; CELLS]>,
    /// On-board padded indices, row-major.
    points: Vec<u16>,
    history: Vec<u16>,
    /// What each move in `history` changed, for [`Position::undo`]: the sums before it and
    /// its first entry in `journal`.
    frames: Vec<Frame>,
    /// Every (cell, colour) record a move replaced, with its old value.
    journal: Vec<Replaced>,
    /// The learned evaluation's state, when a network is installed for the rule
    /// ([`crate::ai::net`]).
    net: Option<Accumulators>,
}

/// The running sums before a move (see [`Position::undo`]).
#[derive(Copy, Clone, Debug)]
struct Frame {
    journal: usize,
    wsum: [[i32; 2]; 2],
    threat_count: [[u16; THREATS]; 2],
}

/// A cell record as it was before a move changed it.
#[derive(Copy, Clone, Debug)]
struct Replaced {
    cell: u16,
    colour: u8,
    info: CellInfo,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("rule", &self.rule)
            .field("to_move", &self.to_move)
            .field("board", &self.board)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Position {
    /// Compares everything the incremental updates maintain (for from-scratch checks).
    fn eq(&self, other: &Position) -> bool {
        let empty_info_eq = self.points.iter().all(|&i| {
            let i = i as usize;
            self.board.cell(i) != Cell::Empty
                || (self.info[0][i] == other.info[0][i] && self.info[1][i] == other.info[1][i])
        });
        self.board == other.board
            && self.board.hash() == other.board.hash()
            && self.rule == other.rule
            && self.to_move == other.to_move
            && self.keys[..] == other.keys[..]
            && empty_info_eq
            && self.wsum == other.wsum
            && self.threat_count == other.threat_count
            && self.maybe_forbidden[..] == other.maybe_forbidden[..]
            && self.maybe_forbidden_count == other.maybe_forbidden_count
            && self.near[..] == other.near[..]
    }
}

impl Position {
    /// Builds the state from scratch for `board` under `rule` with `to_move` to play.
    #[must_use]
    pub fn new(board: &Board, rule: Rule, to_move: Color) -> Position {
        let points: Vec<u16> = Point::all(board.size())
            .map(|p| Board::index_of(p) as u16)
            .collect();
        let mut pos = Position {
            board: board.clone(),
            rule,
            to_move,
            pats: Color::ALL.map(|c| tables().table(rule.exact_five(c))),
            combos: {
                let t = combo_tables(rule);
                [&t[0][..], &t[1][..]]
            },
            ranks: ranks(),
            weights: weights(rule),
            keys: Box::new([[[0; CELLS]; 4]; 2]),
            info: Box::new([[CellInfo::default(); CELLS]; 2]),
            wsum: [[0; 2]; 2],
            threat_count: [[0; THREATS]; 2],
            maybe_forbidden: Box::new([0; CELLS.div_ceil(64)]),
            maybe_forbidden_count: 0,
            near: Box::new([0; CELLS]),
            points,
            history: Vec::with_capacity(400),
            frames: Vec::with_capacity(400),
            journal: Vec::with_capacity(4096),
            net: None,
        };
        pos.rebuild();
        pos
    }

    fn rebuild(&mut self) {
        self.net = net(self.rule).map(|n| Accumulators::new(n, &self.points));
        let cells = *self.board.cells();
        for c in Color::ALL {
            for (d, &step) in DIRECTIONS.iter().enumerate() {
                for &i in &self.points {
                    let i = i as usize;
                    let mut key = 0;
                    for off in [-5i32, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                        let j = (i as isize + off as isize * step) as usize;
                        key += neighbour(cells[j], c) as u16 * weight(off);
                    }
                    self.keys[c.index()][d][i] = key;
                }
            }
        }
        self.wsum = [[0; 2]; 2];
        self.threat_count = [[0; THREATS]; 2];
        self.maybe_forbidden.fill(0);
        self.maybe_forbidden_count = 0;
        self.near.fill(0);
        for k in 0..self.points.len() {
            let i = self.points[k] as usize;
            if cells[i] == Cell::Empty {
                for c in Color::ALL {
                    let mut info = CellInfo::default();
                    for d in 0..4 {
                        info.patterns[d] = self.pattern_from_key(c, self.keys[c.index()][d][i]);
                    }
                    self.finish_info(c, &mut info);
                    self.info[c.index()][i] = info;
                    self.add_info(c, i, 1);
                }
            } else {
                self.bump_near(i, 1);
            }
        }
    }

    #[inline]
    fn pattern_from_key(&self, c: Color, key: u16) -> Pattern {
        self.pats[c.index()][usize::from(key)]
    }

    #[inline]
    fn finish_info(&self, c: Color, info: &mut CellInfo) {
        info.key = combo_key(info.patterns);
        info.combo = self.combos[c.index()][usize::from(self.ranks[usize::from(info.key)])];
    }

    #[inline]
    fn add_info(&mut self, c: Color, i: usize, sign: i32) {
        let info = &self.info[c.index()][i].combo;
        self.wsum[c.index()][0] += sign * i32::from(info.w[0]);
        self.wsum[c.index()][1] += sign * i32::from(info.w[1]);
        let maybe_forbidden = info.maybe_forbidden;
        let t = &mut self.threat_count[c.index()][info.threat as usize];
        if sign > 0 {
            *t += 1;
        } else {
            *t -= 1;
        }
        if maybe_forbidden {
            self.mark_maybe_forbidden(i, sign > 0);
        }
    }

    /// Sets or clears `i` in the set of black's maybe-forbidden points.
    #[inline]
    fn mark_maybe_forbidden(&mut self, i: usize, on: bool) {
        let bit = 1u64 << (i % 64);
        if on {
            self.maybe_forbidden[i / 64] |= bit;
            self.maybe_forbidden_count += 1;
        } else {
            self.maybe_forbidden[i / 64] &= !bit;
            self.maybe_forbidden_count -= 1;
        }
    }

    fn bump_near(&mut self, i: usize, delta: i8) {
        const S: isize = crate::STRIDE as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let j = (i as isize + dy * S + dx) as usize;
                self.near[j] = self.near[j].wrapping_add_signed(delta);
            }
        }
    }

    /// Plays `idx` (a padded index of an empty point) for the side to move.
    ///
    /// # Panics
    /// In debug builds, if the point is not empty.
    pub fn play(&mut self, idx: usize) {
        let c = self.to_move;
        debug_assert_eq!(self.board.cell(idx), Cell::Empty);
        self.frames.push(Frame {
            journal: self.journal.len(),
            wsum: self.wsum,
            threat_count: self.threat_count,
        });
        for col in Color::ALL {
            self.add_info(col, idx, -1);
        }
        self.board.place(Board::point_of(idx), c);
        self.bump_near(idx, 1);
        self.update_lines::<true>(idx, c);
        self.history.push(idx as u16);
        self.to_move = c.other();
    }

    /// Takes back the last move.
    ///
    /// # Panics
    /// If no move was played through [`Position::play`].
    pub fn undo(&mut self) {
        let idx = self.history.pop().expect("undo without a move") as usize;
        let frame = self.frames.pop().expect("a frame per move");
        let c = self
            .board
            .cell(idx)
            .color()
            .expect("undo of an empty point");
        self.board.remove(Board::point_of(idx));
        self.bump_near(idx, -1);
        self.update_lines::<false>(idx, c);
        // The records the move replaced come back as they were; `idx`'s own records were not
        // touched while it held a stone, and the sums come from the frame.
        while self.journal.len() > frame.journal {
            let r = self.journal.pop().expect("longer than the frame's start");
            let (ci, j) = (usize::from(r.colour), usize::from(r.cell));
            let was_maybe_forbidden = self.info[ci][j].combo.maybe_forbidden;
            self.info[ci][j] = r.info;
            if r.info.combo.maybe_forbidden != was_maybe_forbidden {
                self.mark_maybe_forbidden(j, r.info.combo.maybe_forbidden);
            }
        }
        if self.info[0][idx].combo.maybe_forbidden {
            self.mark_maybe_forbidden(idx, true);
        }
        self.wsum = frame.wsum;
        self.threat_count = frame.threat_count;
        self.to_move = self.to_move.other();
    }

    /// Passes the turn without a stone (used by threat searches to ask "what if I do nothing").
    pub fn flip_side(&mut self) {
        self.to_move = self.to_move.other();
    }

    /// Moves the keys of the 40 points on `idx`'s lines for a stone of `stone` placed there
    /// (`PLAY`) or taken away; when placed, re-reads the empty points' patterns.
    ///
    /// A stone is Own for its colour and Blocked for the other; it moves each neighbour's key
    /// by its state times the weight of its offset from that neighbour, down when taken back
    /// (in wrapping arithmetic: keys never leave 0..3^10). An undo restores the records from
    /// the journal instead of re-reading them.
    fn update_lines<const PLAY: bool>(&mut self, idx: usize, stone: Color) {
        let (own, other) = (stone.index(), stone.other().index());
        let sign = if PLAY { 1u16 } else { u16::MAX };
        if let Some(net) = &mut self.net {
            net.mark_lines(idx, &self.board);
        }
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for off in [-5isize, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                let j = idx.wrapping_add_signed(off * step);
                let cell = self.board.cell(j);
                if cell == Cell::Wall {
                    continue;
                }
                let w = weight(-off as i32).wrapping_mul(sign);
                let keys = &mut self.keys;
                keys[own][d][j] = keys[own][d][j].wrapping_add(w * Neighbour::Own as u16);
                keys[other][d][j] =
                    keys[other][d][j].wrapping_add(w.wrapping_mul(Neighbour::Blocked as u16));
                if PLAY && cell == Cell::Empty {
                    self.refresh(j, d);
                }
            }
        }
    }

    #[inline]
    fn refresh(&mut self, j: usize, d: usize) {
        for c in Color::ALL {
            let ci = c.index();
            let p = self.pattern_from_key(c, self.keys[ci][d][j]);
            let info = &mut self.info[ci][j];
            let was = info.patterns[d];
            if was == p {
                continue;
            }
            self.journal.push(Replaced {
                cell: j as u16,
                colour: ci as u8,
                info: *info,
            });
            info.patterns[d] = p;
            info.key = info.key.wrapping_add(
                (p as u16)
                    .wrapping_sub(was as u16)
                    .wrapping_mul(COMBO_KEY_STEP[d]),
            );
            let new = self.combos[ci][usize::from(self.ranks[usize::from(info.key)])];
            let old = std::mem::replace(&mut info.combo, new);
            // The same as removing the old info and adding the new, with fewer writes.
            self.wsum[ci][0] += i32::from(new.w[0]) - i32::from(old.w[0]);
            self.wsum[ci][1] += i32::from(new.w[1]) - i32::from(old.w[1]);
            if new.threat != old.threat {
                self.threat_count[ci][old.threat as usize] -= 1;
                self.threat_count[ci][new.threat as usize] += 1;
            }
            if new.maybe_forbidden != old.maybe_forbidden {
                self.mark_maybe_forbidden(j, new.maybe_forbidden);
            }
        }
    }
}

/// How `c` sees a cell.
const fn neighbour(cell: Cell, c: Color) -> Neighbour {
    match cell {
        Cell::Empty => Neighbour::Empty,
        Cell::Wall => Neighbour::Blocked,
        Cell::Black | Cell::White => {
            if cell as u8 == Cell::stone(c) as u8 {
                Neighbour::Own
            } else {
                Neighbour::Blocked
            }
        }
    }
}
