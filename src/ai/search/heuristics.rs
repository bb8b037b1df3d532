//! The move-ordering state a search thread keeps across searches, and its per-ply frames.

use super::MAX_PLY;
use crate::CELLS;

/// Largest history value; updates move a value towards ±this ("gravity").
const HISTORY_MAX: i32 = 16_384;

/// Per-ply search state.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Frame {
    /// Static evaluation at this ply (for "improving").
    pub(super) eval: i32,
    /// The best learned order value ([`Position::policy`]) among the candidates generated at
    /// this ply: the yardstick of the policy-driven reductions and pruning.
    pub(super) top_policy: i32,
    /// The move played from this ply (0 = none yet, [`NULL_MOVE`] = a pass).
    pub(super) mv: u16,
}

/// A pass in [`Frame::mv`] (no on-board point has this index).
pub(super) const NULL_MOVE: u16 = u16::MAX;

/// Ordering state that persists across searches.
#[derive(Debug)]
pub struct Heuristics {
    /// `history[colour][point]`: how often a quiet move to the point caused a cutoff.
    pub(super) history: Box<[[i32; CELLS]; 2]>,
    /// `counter[colour][previous move]`: the quiet reply that last refuted it.
    pub(super) counter: Box<[[u16; CELLS]; 2]>,
    pub(super) killers: [[u16; 2]; MAX_PLY + 1],
    pub(super) frames: [Frame; MAX_PLY + 1],
    pub(super) moves: Vec<Vec<(u16, i32)>>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            history: Box::new([[0; CELLS]; 2]),
            counter: Box::new([[0; CELLS]; 2]),
            killers: [[0; 2]; MAX_PLY + 1],
            frames: [Frame::default(); MAX_PLY + 1],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(400)).collect(),
        }
    }
}

impl Heuristics {
    /// Forgets history, counter-moves and killers.
    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| h.fill(0));
        self.counter.iter_mut().for_each(|c| c.fill(0));
        self.killers = [[0; 2]; MAX_PLY + 1];
    }

    pub(super) fn age(&mut self) {
        self.history
            .iter_mut()
            .for_each(|h| h.iter_mut().for_each(|v| *v /= 2));
        self.killers = [[0; 2]; MAX_PLY + 1];
    }

    /// Moves `h` towards `bonus`'s sign, more slowly the closer it already is to the limit.
    pub(super) fn nudge(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}
