//! The VCF half of the solver: attacking fours, the defender's forced replies, and the
//! set of moves that could refute a VCF (see the module documentation of [`super`]).

use super::{ThreatSearch, VCF_SALT};
use crate::ai::position::{Position, Threat};
use crate::Color;

impl ThreatSearch {
    pub(super) fn vcf_node(
        &mut self,
        pos: &mut Position,
        depth: u32,
        first: Option<&mut u16>,
    ) -> Option<u32> {
        let a = pos.to_move();
        let d = a.other();
        if pos.count(a, Threat::Five) > 0 {
            if let Some(f) = first {
                *f = pos.find(a, Threat::Five).unwrap_or(0) as u16;
            }
            return Some(1);
        }
        if depth == 0 || pos.four_moves(a) == 0 || self.tick() {
            return None;
        }
        let key = pos.hash() ^ VCF_SALT;
        let root = first.is_some();
        if !root {
            if let Some(r) = self.lookup(key, depth) {
                return r;
            }
        }
        let mut moves = self.take_buffer();
        match Self::must_block(pos, d) {
            Err(()) => {}
            Ok(Some(b)) => {
                if pos.threat(a, b).is_four() {
                    moves.push(b as u16);
                }
            }
            Ok(None) => {
                for &i in pos.points() {
                    let t = pos.threat(a, i as usize);
                    if t.is_four() && pos.is_empty(i as usize) {
                        moves.push(i);
                    }
                }
                // Open fours and 4-3s first: they end the search soonest.
                moves.sort_unstable_by_key(|&i| {
                    std::cmp::Reverse((pos.threat(a, i as usize), pos.cell_score(a, i as usize)))
                });
            }
        }
        let mut result = None;
        let mut best_move = 0;
        for &m in &moves {
            let m = m as usize;
            if !pos.is_legal(a, m) {
                continue;
            }
            pos.play(m);
            let r = self.after_four(pos, a, m, depth, 0, Self::vcf_node_dyn);
            pos.undo();
            if let Some(p) = r {
                // The first proof is enough: a shortest one costs far more nodes.
                result = Some(p + 1);
                best_move = m as u16;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.give_buffer(moves);
        if let Some(f) = first {
            *f = best_move;
        }
        self.store(key, depth, result);
        result
    }

    pub(super) fn vcf_node_dyn(
        &mut self,
        pos: &mut Position,
        depth: u32,
        _vcf_depth: u32,
    ) -> Option<u32> {
        self.vcf_node(pos, depth, None)
    }

    /// The attacker `a` has just played the four `m`: resolve the defender's forced reply.
    /// Returns the plies from the defender's move to the five.
    pub(super) fn after_four(
        &mut self,
        pos: &mut Position,
        a: Color,
        m: usize,
        depth: u32,
        vcf_depth: u32,
        next: fn(&mut ThreatSearch, &mut Position, u32, u32) -> Option<u32>,
    ) -> Option<u32> {
        let d = a.other();
        if pos.count(d, Threat::Five) > 0 {
            return None; // the defender makes five instead of blocking
        }
        let fives = pos.count(a, Threat::Five);
        if fives >= 2 {
            return Some(2);
        }
        if fives == 0 {
            return None;
        }
        let e = (0..4)
            .find_map(|dir| {
                if pos.pattern(a, m, dir) >= crate::ai::pattern::Pattern::B4 {
                    pos.five_point_on_line(a, m, dir)
                } else {
                    None
                }
            })
            .or_else(|| pos.find(a, Threat::Five))?;
        if !pos.is_legal(d, e) {
            return Some(2); // black cannot block on a forbidden point
        }
        pos.play(e);
        let r = next(self, pos, depth - 1, vcf_depth);
        pos.undo();
        r.map(|p| p + 1)
    }

    /// If the side to move (the attacker) has a VCF, collects into `out` every defender move
    /// that could refute it, and returns true.
    ///
    /// One winning line is followed to its end. A defender stone that is not on that line
    /// (an attacking move, a forced block, a final five point) leaves every attacking four
    /// a four and every forced reply forced, unless it gives the defender a five threat of
    /// its own somewhere along the line, and such a stone is a point where the defender would
    /// make a four or five in one of the line's positions — those are collected too. When
    /// the win comes from a block that is forbidden for black, the points near that block
    /// (which could change its status) are added. The set can hold duplicates.
    pub(super) fn vcf_defences(
        &mut self,
        pos: &mut Position,
        vcf_depth: u32,
        out: &mut Vec<u16>,
    ) -> bool {
        let a = pos.to_move();
        let d = a.other();
        let mut played = 0;
        let mut left = vcf_depth;
        let won = loop {
            for &i in pos.points() {
                let iu = i as usize;
                if pos.is_empty(iu)
                    && (pos.threat(d, iu).is_four() || pos.threat(d, iu) == Threat::Five)
                {
                    out.push(i);
                }
            }
            let mut f = 0;
            if left == 0 || self.vcf_node(pos, left, Some(&mut f)).is_none() {
                break false;
            }
            out.push(f);
            if pos.threat(a, f as usize) == Threat::Five {
                break true;
            }
            pos.play(f as usize);
            played += 1;
            left -= 1;
            if pos.count(a, Threat::Five) >= 2 {
                for &i in pos.points() {
                    if pos.is_empty(i as usize) && pos.threat(a, i as usize) == Threat::Five {
                        out.push(i);
                    }
                }
                break true;
            }
            let Some(e) = pos.find(a, Threat::Five) else {
                break false;
            };
            out.push(e as u16);
            if !pos.is_legal(d, e) {
                Self::push_lines_around(pos, e, out);
                break true;
            }
            pos.play(e);
            played += 1;
        };
        for _ in 0..played {
            pos.undo();
        }
        won
    }

    /// The empty points within four steps of `idx` along its four lines.
    pub(super) fn push_lines_around(pos: &Position, idx: usize, out: &mut Vec<u16>) {
        for &step in &crate::DIRECTIONS {
            for k in 1..=4isize {
                for j in [idx as isize + k * step, idx as isize - k * step] {
                    let j = j as usize;
                    // Walls pad the board by five cells, so four steps stay inside it.
                    if pos.is_empty(j) {
                        out.push(j as u16);
                    }
                }
            }
        }
    }
}
