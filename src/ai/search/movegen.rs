//! Move generation for the search: the open-four check, the four-three defences that narrow
//! a node's moves, and the scored, ordered candidate list (see the module documentation of
//! [`super`]).

use super::{jitter, Searcher, NULL_MOVE};
use crate::ai::params::{
    FOUR_THREE_VCF_DEPTH, FOUR_THREE_VCF_NODES, ORDER_COUNTER, ORDER_HISTORY_DIV, ORDER_KILLER,
};
use crate::ai::position::{Position, Threat};
use crate::{Color, CELLS};

impl Searcher<'_> {
    /// Whether `c` has an open four (or 4-4) it may legally play.
    pub(super) fn has_flex4(pos: &mut Position, c: Color) -> bool {
        if pos.count(c, Threat::Flex4) == 0 {
            return false;
        }
        if !pos.rule().has_forbidden(c) {
            return true;
        }
        let n = pos.points().len();
        for k in 0..n {
            let i = pos.points()[k] as usize;
            if pos.is_empty(i) && pos.threat(c, i) == Threat::Flex4 && pos.is_legal(c, i) {
                return true;
            }
        }
        false
    }

    /// [`Params::four_three`]: when the opponent (not to move) has a four-three point and the
    /// solver proves its VCF, fills [`Searcher::defences`] with every move that could stop
    /// it and returns true.
    pub(super) fn four_three_defences(&mut self, pos: &mut Position) -> bool {
        let op = pos.to_move().other();
        let on = self.cfg.params.four_three_under(pos.rule());
        if on == 0 || !self.cfg.selective || pos.count(op, Threat::FourThree) == 0 {
            return false;
        }
        let mut list = std::mem::take(&mut self.defence_list);
        list.clear();
        let proven = self.threats.defences_against_vcf(
            pos,
            FOUR_THREE_VCF_DEPTH,
            FOUR_THREE_VCF_NODES,
            &mut list,
        );
        if proven {
            self.defences = [0; CELLS.div_ceil(64)];
            for &i in &list {
                self.defences[usize::from(i) / 64] |= 1 << (i % 64);
            }
        }
        self.defence_list = list;
        proven
    }

    /// Fills `self.heur.moves[ply]` with the scored candidate moves for the side to move,
    /// best first (only the best `keep` when `keep > 0`). When the opponent threatens an open
    /// four (`defend`), only the points that stop it and the side's own fours are candidates.
    /// With `restrict`, only the points of [`Searcher::defences`] are candidates.
    /// Returns false when the side to move has no legal candidate.
    pub(super) fn generate(
        &mut self,
        pos: &mut Position,
        ply: usize,
        tt_move: u16,
        defend: bool,
        restrict: bool,
        keep: usize,
    ) -> bool {
        let me = pos.to_move();
        let op = me.other();
        let mut list = std::mem::take(&mut self.heur.moves[ply]);
        list.clear();
        if pos.count(op, Threat::Five) == 1 {
            if let Some(b) = pos.find(op, Threat::Five) {
                if pos.is_legal(me, b) {
                    list.push((b as u16, 0));
                }
            }
            self.heur.moves[ply] = list;
            return !self.heur.moves[ply].is_empty();
        }
        let prev = if ply > 0 {
            self.heur.frames[ply - 1].mv
        } else {
            0
        };
        let counter = if prev != 0 && prev != NULL_MOVE {
            self.heur.counter[me.index()][usize::from(prev)]
        } else {
            0
        };
        let killers = self.heur.killers[ply];
        let n = pos.points().len();
        for k in 0..n {
            let i = pos.points()[k] as usize;
            if !pos.is_empty(i) || !pos.is_near(i) {
                continue;
            }
            let tm = pos.threat(me, i);
            let to = pos.threat(op, i);
            if defend && !tm.is_four() && to < Threat::Four {
                continue;
            }
            if restrict && self.defences[i / 64] & (1 << (i % 64)) == 0 {
                continue;
            }
            let mut s = pos.policy(i) + self.heur.history[me.index()][i] / ORDER_HISTORY_DIV;
            if self.helper > 0 {
                s += jitter(pos.hash(), i, self.helper);
            }
            let m = i as u16;
            if m == tt_move {
                s += 1 << 28;
            } else if m == killers[0] {
                s += ORDER_KILLER[0];
            } else if m == killers[1] {
                s += ORDER_KILLER[1];
            } else if m == counter {
                s += ORDER_COUNTER;
            }
            list.push((m, s));
        }
        // Renju: drop black's forbidden points (the referee runs only where patterns allow).
        if pos.rule().has_forbidden(me) {
            list.retain(|&(i, _)| pos.is_legal(me, i as usize));
        }
        // Select the searched prefix, then sort only it (the key is a total order, so the
        // result equals a full sort's prefix).
        let order = |&(i, s): &(u16, i32)| (std::cmp::Reverse(s), i);
        if keep > 0 && list.len() > keep {
            list.select_nth_unstable_by_key(keep, order);
            list.truncate(keep);
        }
        list.sort_unstable_by_key(order);
        // Of the moves that will be searched (legal, within the width).
        self.heur.frames[ply].top_policy = list
            .iter()
            .map(|&(m, _)| pos.policy(usize::from(m)))
            .max()
            .unwrap_or(0);
        self.heur.moves[ply] = list;
        !self.heur.moves[ply].is_empty()
    }
}
