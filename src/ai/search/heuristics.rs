//! The state a search thread keeps across searches (move-ordering history, counter-moves,
//! killers, the correction history) and its per-ply frames.

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

/// Slots of one side's correction history (a power of two).
pub(super) const CORR_SLOTS: usize = 1 << 14;
/// A correction-history entry holds the correction in 1/`CORR_GRAIN` evaluation units.
pub(super) const CORR_GRAIN: i32 = 16;
/// Largest correction-history entry: a correction of at most 256 evaluation units.
pub(super) const CORR_LIMIT: i32 = 256 * CORR_GRAIN;

/// A pass in [`Frame::mv`] (no on-board point has this index).
pub(super) const NULL_MOVE: u16 = u16::MAX;

/// Ordering state that persists across searches.
#[derive(Debug)]
pub struct Heuristics {
    /// `history[colour][point]`: how often a quiet move to the point caused a cutoff.
    pub(super) history: Box<[[i32; CELLS]; 2]>,
    /// `counter[colour][previous move]`: the quiet reply that last refuted it.
    pub(super) counter: Box<[[u16; CELLS]; 2]>,
    /// `corr[colour to move × CORR_SLOTS + slot]`: the running mean of how far searches came
    /// out above the static evaluation in positions of the same threat counts (see
    /// [`Searcher::corr_slot`](super::Searcher)), in 1/[`CORR_GRAIN`] units; from
    /// `2 × CORR_SLOTS` on, the same per side to move and last two moves (the pair table,
    /// [`Searcher::pair_slot`](super::Searcher)).
    pub(super) corr: Box<[i16]>,
    pub(super) killers: [[u16; 2]; MAX_PLY + 1],
    pub(super) frames: [Frame; MAX_PLY + 1],
    pub(super) moves: Vec<Vec<(u16, i32)>>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            history: Box::new([[0; CELLS]; 2]),
            counter: Box::new([[0; CELLS]; 2]),
            corr: vec![0; 4 * CORR_SLOTS].into_boxed_slice(),
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
        self.corr.fill(0);
        self.killers = [[0; 2]; MAX_PLY + 1];
    }

    pub(super) fn age(&mut self) {
        self.history
            .iter_mut()
            .for_each(|h| h.iter_mut().for_each(|v| *v /= 2));
        self.killers = [[0; 2]; MAX_PLY + 1];
    }

    /// Moves a correction entry towards `target` (in 1/[`CORR_GRAIN`] units), by a weight that
    /// grows with the search's depth.
    pub(super) fn correct(&mut self, slot: usize, target: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let e = &mut self.corr[slot];
        let v = (i32::from(*e) * (256 - w) + target.clamp(-CORR_LIMIT, CORR_LIMIT) * w) / 256;
        *e = v as i16;
    }

    /// Moves `h` towards `bonus`'s sign, more slowly the closer it already is to the limit.
    pub(super) fn nudge(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_the_result_by_depth_and_stay_bounded() {
        let mut h = Heuristics::default();
        h.correct(5, 100 * CORR_GRAIN, 0);
        assert_eq!(i32::from(h.corr[5]), 100 * CORR_GRAIN / 256);
        let mut deep = Heuristics::default();
        deep.correct(5, 100 * CORR_GRAIN, 15);
        assert_eq!(i32::from(deep.corr[5]), 100 * CORR_GRAIN * 16 / 256);
        // Repeated results converge on their mean; far results are clamped to the limit.
        for _ in 0..2000 {
            h.correct(7, -40 * CORR_GRAIN, 20);
            h.correct(9, 10_000 * CORR_GRAIN, 20);
        }
        assert!((i32::from(h.corr[7]) + 40 * CORR_GRAIN).abs() <= CORR_GRAIN);
        assert!(
            i32::from(h.corr[9]) <= CORR_LIMIT && i32::from(h.corr[9]) > CORR_LIMIT - CORR_GRAIN
        );
        h.clear();
        assert!(h.corr.iter().all(|&v| v == 0));
    }
}
