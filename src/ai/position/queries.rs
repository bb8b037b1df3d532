//! What the search asks a position: the stones and move history, each point's patterns,
//! threat class and weights, the per-colour counts, black's forbidden points, and the learned
//! evaluation's value.

use super::{ForbiddenPoints, Position, Threat};
use crate::ai::net::{Accumulators, CELL_WORDS};
use crate::ai::pattern::Pattern;
use crate::ai::weights::Weights;
use crate::{Board, Cell, Color, Rule, DIRECTIONS, ZOBRIST};

/// What [`Position::hash`] adds to the stones' hash when white is to move.
const WHITE_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

impl Position {
    /// The stones.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule.
    #[must_use]
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// Zobrist hash of the stones and the side to move.
    #[must_use]
    pub fn hash(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.hash(),
            Color::White => self.board.hash() ^ WHITE_TO_MOVE,
        }
    }

    /// The [`Position::hash`] the position will have once the side to move plays the empty
    /// point `idx` (for the search to prefetch the child's table entry).
    #[inline]
    #[must_use]
    pub fn hash_after(&self, idx: usize) -> u64 {
        self.hash() ^ ZOBRIST[self.to_move.index()][idx] ^ WHITE_TO_MOVE
    }

    /// Moves played since construction, as padded indices.
    #[must_use]
    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// On-board padded indices, row-major.
    #[must_use]
    pub fn points(&self) -> &[u16] {
        &self.points
    }

    /// Whether the padded index is an empty on-board point.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, idx: usize) -> bool {
        self.board.cell(idx) == Cell::Empty
    }

    /// Whether the empty point has a stone within two rows and columns.
    #[inline]
    #[must_use]
    pub fn is_near(&self, idx: usize) -> bool {
        self.near[idx] > 0
    }

    /// What `c` would make by playing the empty point `idx` (stale for occupied points).
    #[inline]
    #[must_use]
    pub fn threat(&self, c: Color, idx: usize) -> Threat {
        self.info[c.index()][idx].combo.threat
    }

    /// The line pattern `c` would make at `idx` along direction `d` (index into [`DIRECTIONS`]).
    #[inline]
    #[must_use]
    pub fn pattern(&self, c: Color, idx: usize, d: usize) -> Pattern {
        self.info[c.index()][idx].patterns[d]
    }

    /// The base-3 key of the ten neighbours of `idx` along direction `d` as `c` sees them
    /// (empty, own, blocked; see [`crate::ai::pattern::weight`]).
    #[inline]
    #[must_use]
    pub fn line_key(&self, c: Color, d: usize, idx: usize) -> u16 {
        self.keys[c.index()][d][idx]
    }

    /// The potential score of the empty point `idx` for `c`.
    ///
    /// This is one of the engine's two move orders, on purpose. The main search orders its
    /// quiet and threat moves by [`Position::policy`], fitted to the moves self-play chose
    /// among every candidate. The forcing searches (the quiescence search's fours and blocks,
    /// the VCF/VCT solver's fours, threes and quiet threats) rank a handful of forcing moves
    /// by what each makes for both sides, which is this score (the evaluation's combination
    /// value of the point); the policy was not fitted to those lists.
    #[inline]
    #[must_use]
    pub fn cell_score(&self, c: Color, idx: usize) -> i32 {
        i32::from(self.info[c.index()][idx].combo.score)
    }

    /// The learned move-ordering value of the empty point `idx` for the side to move: its own
    /// combination there plus the opponent's (see [`crate::ai::eval::Weights::policy`]).
    #[inline]
    #[must_use]
    pub fn policy(&self, idx: usize) -> i32 {
        let me = self.to_move.index();
        i32::from(self.info[me][idx].combo.pol[1]) + i32::from(self.info[1 - me][idx].combo.pol[0])
    }

    /// The evaluation weights of `c`'s combinations summed over the empty points, as if `c`
    /// were to move (`to_move`) or waiting.
    #[inline]
    #[must_use]
    pub fn weight_sum(&self, c: Color, to_move: bool) -> i32 {
        self.wsum[c.index()][usize::from(to_move)]
    }

    /// The point values' sum of the position before the last move, seen from the side to
    /// move: minus that position's own sum for its side to move (the opponent), before any
    /// forbidden point is taken out. `None` at the start and after a pass
    /// ([`Position::flip_side`]), when the last stone is the side to move's.
    #[must_use]
    pub fn parent_weight_sum(&self) -> Option<i32> {
        let (frame, &last) = (self.frames.last()?, self.history.last()?);
        let me = self.to_move;
        let op = me.other();
        if self.board.cell(usize::from(last)).color() != Some(op) {
            return None;
        }
        Some(-(frame.wsum[op.index()][1] + frame.wsum[me.index()][0]))
    }

    /// The evaluation tables of this position's rule.
    #[inline]
    #[must_use]
    pub fn weights(&self) -> &'static Weights {
        self.weights
    }

    /// How many empty points give `c` exactly the class `t`.
    #[inline]
    #[must_use]
    pub fn count(&self, c: Color, t: Threat) -> u32 {
        u32::from(self.threat_count[c.index()][t as usize])
    }

    /// How many empty points give `c` a four or better (not counting fives).
    #[must_use]
    pub fn four_moves(&self, c: Color) -> u32 {
        self.count(c, Threat::Four)
            + self.count(c, Threat::FourThree)
            + self.count(c, Threat::Flex4)
    }

    /// The first empty point (in row-major order) where `c` makes the threat `t`.
    #[must_use]
    pub fn find(&self, c: Color, t: Threat) -> Option<usize> {
        if self.count(c, t) == 0 {
            return None;
        }
        self.points
            .iter()
            .map(|&i| i as usize)
            .find(|&i| self.is_empty(i) && self.threat(c, i) == t)
    }

    /// Whether the patterns allow black's move at `idx` to be forbidden (renju only).
    #[inline]
    #[must_use]
    pub fn maybe_forbidden(&self, idx: usize) -> bool {
        self.info[0][idx].combo.maybe_forbidden
    }

    /// Black's forbidden empty points under renju (the referee asked only where the patterns
    /// allow one), summed up for the evaluation: a shape that black can only complete through
    /// such a point is dead.
    pub fn forbidden_black(&mut self) -> ForbiddenPoints {
        self.forbidden_black_into(None)
    }

    /// [`Position::forbidden_black`], also setting the points' bits in `cells` (one bit per
    /// padded index).
    pub fn forbidden_black_cells(&mut self, cells: &mut [u64; CELL_WORDS]) -> ForbiddenPoints {
        self.forbidden_black_into(Some(cells))
    }

    fn forbidden_black_into(
        &mut self,
        mut cells: Option<&mut [u64; CELL_WORDS]>,
    ) -> ForbiddenPoints {
        let mut out = ForbiddenPoints::default();
        if self.maybe_forbidden_count == 0 {
            return out;
        }
        for word in 0..self.maybe_forbidden.len() {
            let mut bits = self.maybe_forbidden[word];
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if crate::forbidden_at(&mut self.board, Board::point_of(i)).is_some() {
                    let info = &self.info[0][i].combo;
                    if let Some(cells) = cells.as_deref_mut() {
                        cells[word] |= 1 << (i % 64);
                    }
                    out.points += 1;
                    out.w[0] += i32::from(info.w[0]);
                    out.w[1] += i32::from(info.w[1]);
                    out.threats[info.threat as usize] += 1;
                }
            }
        }
        out
    }

    /// Whether a learned network evaluates this position ([`crate::ai::net`]).
    #[inline]
    #[must_use]
    pub fn has_net(&self) -> bool {
        self.net.is_some()
    }

    /// Stops the network's bookkeeping until [`Position::resume_net`] gets the returned
    /// value back: for searches that never evaluate and leave the position as they found it
    /// (the threat searches), whose moves then cost the network nothing.
    pub fn pause_net(&mut self) -> bool {
        self.net
            .as_mut()
            .is_some_and(|n| std::mem::replace(&mut n.paused, true))
    }

    /// Ends a [`Position::pause_net`]; the position must be as it was then.
    pub fn resume_net(&mut self, was: bool) {
        if let Some(n) = self.net.as_mut() {
            n.paused = was;
        }
    }

    /// Evaluates with `net` from now on, whatever is installed for the rule (tests and tools
    /// that must not touch the process-wide networks of [`crate::ai::net::install_net`]).
    pub fn use_net(&mut self, net: &'static crate::ai::net::Net) {
        self.net = Some(Accumulators::new(net, &self.points));
    }

    /// The network's logit of the side to move's result, given the position's threat mask
    /// and black's forbidden points (a bit set, see [`Position::forbidden_black_cells`]), and whether it
    /// corrects the tables' evaluation ([`crate::ai::net::Net::residual`]); `None` without a
    /// network.
    pub fn net_value(&mut self, mask: usize, dead: &[u64; CELL_WORDS]) -> Option<(f32, bool)> {
        let p = self.to_move.index();
        let net = self.net.as_mut()?;
        Some(net.value(p, &self.keys, &self.board, mask, dead))
    }

    /// Whether `c` may legally play the empty point `idx`: the referee is asked only when the
    /// patterns allow a forbidden move.
    pub fn is_legal(&mut self, c: Color, idx: usize) -> bool {
        if c == Color::White || !self.maybe_forbidden(idx) {
            return true;
        }
        crate::forbidden_at(&mut self.board, Board::point_of(idx)).is_none()
    }

    /// Along direction `d` through `idx`, the empty point where `c` would complete a five
    /// (the defence square of a four just made at `idx`).
    #[must_use]
    pub fn five_point_on_line(&self, c: Color, idx: usize, d: usize) -> Option<usize> {
        let step = DIRECTIONS[d];
        for k in 1..=4isize {
            for j in [idx as isize + k * step, idx as isize - k * step] {
                let j = j as usize;
                if self.is_empty(j) && self.threat(c, j) == Threat::Five {
                    return Some(j);
                }
            }
        }
        None
    }
}
