//! Moves and undos only mark the windows they change; the evaluation makes the marked points
//! again when it asks, so the state is exact whenever it is read.

use super::{line_code, Net, ACC, CELL_WORDS, QA};
use crate::{Board, Cell, CELLS, DIRECTIONS};

#[inline]
fn crelu(a: i16) -> i32 {
    i32::from(a).clamp(0, QA)
}

/// The network's incremental state inside a position: each point's accumulator for either
/// side to move, their clipped sum over the empty points, and the points changed since.
#[derive(Clone)]
pub(crate) struct Accumulators {
    net: &'static Net,
    acc: Box<[[[i16; ACC]; CELLS]; 2]>,
    /// The line codes each accumulator was made from.
    codes: Box<[[[u16; 8]; CELLS]; 2]>,
    pooled: [[i32; ACC]; 2],
    /// Points whose accumulator is in `pooled`.
    counted: [[u64; CELL_WORDS]; 2],
    /// `dirty[p][d]`: points whose line `d` changed since side `p`'s accumulator was made
    /// (a point that was taken or freed is marked on line 0).
    dirty: [[[u64; CELL_WORDS]; 4]; 2],
    /// Marks are dropped while a search that restores the position runs (see
    /// [`crate::ai::position::Position::pause_net`]).
    pub(crate) paused: bool,
}

/// The line keys of a position: `keys[colour][direction][cell]`.
pub(crate) type Keys = [[[u16; CELLS]; 4]; 2];

impl Accumulators {
    /// A state with every point of `points` still to be made.
    pub(crate) fn new(net: &'static Net, points: &[u16]) -> Accumulators {
        let mut dirty = [[0u64; CELL_WORDS]; 4];
        for &i in points {
            dirty[0][usize::from(i) / 64] |= 1 << (i % 64);
        }
        Accumulators {
            net,
            acc: Box::new([[[0; ACC]; CELLS]; 2]),
            codes: Box::new([[[0; 8]; CELLS]; 2]),
            pooled: [[0; ACC]; 2],
            counted: [[0; CELL_WORDS]; 2],
            dirty: [dirty; 2],
            paused: false,
        }
    }

    /// Marks the points whose windows a stone placed on or taken from `idx` changes: `idx`
    /// itself (on line 0) and the points within four steps on each line.
    pub(crate) fn mark_lines(&mut self, idx: usize, board: &Board) {
        if self.paused {
            return;
        }
        let mut mark = |i: usize, d: usize| {
            let bit = 1u64 << (i % 64);
            self.dirty[0][d][i / 64] |= bit;
            self.dirty[1][d][i / 64] |= bit;
        };
        mark(idx, 0);
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for off in [-4isize, -3, -2, -1, 1, 2, 3, 4] {
                let j = idx.wrapping_add_signed(off * step);
                if board.cell(j) != Cell::Wall {
                    mark(j, d);
                }
            }
        }
    }

    /// The eight line codes of point `i`: black's four lines, then white's.
    #[inline]
    fn codes(keys: &Keys, i: usize) -> [u16; 8] {
        std::array::from_fn(|k| line_code(keys[k / 4][k % 4][i]) as u16)
    }

    /// Brings side `p`'s accumulators up to date: a point that stayed empty changes by the
    /// codes of its changed lines, a point that became empty is made from all eight.
    fn refresh(&mut self, p: usize, keys: &Keys, board: &Board) {
        let net = self.net;
        for d in 0..4 {
            for word in 0..CELL_WORDS {
                let mut bits = std::mem::take(&mut self.dirty[p][d][word]);
                while bits != 0 {
                    let i = word * 64 + bits.trailing_zeros() as usize;
                    let bit = bits & bits.wrapping_neg();
                    bits &= bits - 1;
                    let counted = self.counted[p][word] & bit != 0;
                    if board.cell(i) != Cell::Empty {
                        if counted {
                            for (sum, &a) in self.pooled[p].iter_mut().zip(&self.acc[p][i]) {
                                *sum -= crelu(a);
                            }
                            self.counted[p][word] &= !bit;
                        }
                        continue;
                    }
                    let old = self.acc[p][i];
                    let a = if counted {
                        let mut a = old;
                        for (colour, lines) in keys.iter().enumerate() {
                            let k = colour * 4 + d;
                            let code = line_code(lines[d][i]) as u16;
                            let was = std::mem::replace(&mut self.codes[p][i][k], code);
                            if code == was {
                                continue;
                            }
                            let (new, was) =
                                (net.emb_code(p, colour, code), net.emb_code(p, colour, was));
                            for ((a, &new), &was) in a.iter_mut().zip(new).zip(was) {
                                *a = a.wrapping_add(new).wrapping_sub(was);
                            }
                        }
                        if a == old {
                            continue;
                        }
                        a
                    } else {
                        let now = Self::codes(keys, i);
                        let mut a = net.bias[p];
                        for (k, &code) in now.iter().enumerate() {
                            for (a, &e) in a.iter_mut().zip(net.emb_code(p, k / 4, code)) {
                                *a = a.wrapping_add(e);
                            }
                        }
                        self.codes[p][i] = now;
                        self.counted[p][word] |= bit;
                        a
                    };
                    for l in 0..ACC {
                        let before = if counted { crelu(old[l]) } else { 0 };
                        self.pooled[p][l] += crelu(a[l]) - before;
                    }
                    self.acc[p][i] = a;
                }
            }
        }
    }

    /// The network's logit for side to move `p`, threat mask `mask`, and black's forbidden
    /// points `dead` (a bit set over cells; empty outside renju).
    pub(crate) fn value(
        &mut self,
        p: usize,
        keys: &Keys,
        board: &Board,
        mask: usize,
        dead: &[u64],
    ) -> (f32, bool) {
        self.refresh(p, keys, board);
        let mut pooled = self.pooled[p];
        for (word, &bits) in dead.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let a = self.acc[p][i];
                let mut alive = a;
                for line in &keys[0] {
                    let b = self.net.emb(p, 0, line[i]);
                    for (alive, b) in alive.iter_mut().zip(b) {
                        *alive = alive.wrapping_sub(*b);
                    }
                }
                for l in 0..ACC {
                    let dead = alive[l].wrapping_add(self.net.dead[p][l]);
                    pooled[l] += crelu(dead) - crelu(a[l]);
                }
            }
        }
        (self.net.head(p, &pooled, mask), self.net.residual)
    }
}
