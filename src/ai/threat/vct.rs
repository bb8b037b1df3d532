//! The VCT half of the solver: attacking fours and open threes, quiet VCF threats, and the
//! defender trying every defence (see the module documentation of [`super`]).

use super::{ThreatSearch, QUIET_AT_ROOT, QUIET_INNER, VCT_SALT};
use crate::ai::position::{Position, Threat};
use crate::Color;

impl ThreatSearch {
    pub(super) fn vct_node(
        &mut self,
        pos: &mut Position,
        depth: u32,
        vcf_depth: u32,
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
        if depth == 0 || self.tick() {
            return None;
        }
        let key = pos.hash() ^ VCT_SALT ^ u64::from(vcf_depth) << 56;
        let root = first.is_some();
        if !root {
            if let Some(r) = self.lookup(key, depth) {
                return r;
            }
        }
        let block = match Self::must_block(pos, d) {
            Err(()) => {
                self.store(key, depth, None);
                return None;
            }
            Ok(b) => b,
        };
        if block.is_none() {
            let mut f = 0;
            if let Some(p) = self.vcf_node(pos, vcf_depth, Some(&mut f)) {
                if let Some(out) = first {
                    *out = f;
                }
                self.store(key, depth, Some(p));
                return Some(p);
            }
        }
        let mut moves = self.take_buffer();
        if let Some(b) = block {
            moves.push(b as u16);
        } else {
            for &i in pos.points() {
                let t = pos.threat(a, i as usize);
                if t >= Threat::Three && t != Threat::Five && pos.is_empty(i as usize) {
                    moves.push(i);
                }
            }
            moves.sort_unstable_by_key(|&i| {
                std::cmp::Reverse((
                    pos.threat(a, i as usize) >= Threat::Four,
                    pos.cell_score(a, i as usize) + pos.cell_score(d, i as usize) / 2,
                ))
            });
        }
        let mut result = None;
        let mut best_move = 0;
        for &m in &moves {
            let m = m as usize;
            if !pos.is_legal(a, m) {
                continue;
            }
            pos.play(m);
            let r = if pos.threat_is_four_after(a, m) {
                self.after_four(pos, a, m, depth, vcf_depth, |s, p, dep, vd| {
                    s.vct_node(p, dep, vd, None)
                })
            } else {
                self.defend(pos, a, depth - 1, vcf_depth)
            };
            pos.undo();
            if let Some(p) = r {
                result = Some(p + 1);
                best_move = m as u16;
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.give_buffer(moves);
        if result.is_none() && block.is_none() && depth >= 2 && !self.aborted {
            let width = if root { QUIET_AT_ROOT } else { QUIET_INNER };
            if let Some((m, p)) = self.quiet_threats(pos, depth, vcf_depth, width) {
                result = Some(p + 1);
                best_move = m;
            }
        }
        if let Some(f) = first {
            *f = best_move;
        }
        self.store(key, depth, result);
        result
    }

    /// Quiet moves that threaten a VCF (renju's *fukumi*): not a four or an open three, but
    /// the attacker would win by fours if the defender passed. The best `width` candidates by
    /// pattern score are tried; each is answered by every defence that could refute the VCF
    /// it threatens (see [`ThreatSearch::vcf_defences`]), so the proof stays sound.
    pub(super) fn quiet_threats(
        &mut self,
        pos: &mut Position,
        depth: u32,
        vcf_depth: u32,
        width: usize,
    ) -> Option<(u16, u32)> {
        let a = pos.to_move();
        let d = a.other();
        let mut quiet = self.take_buffer();
        for &i in pos.points() {
            let iu = i as usize;
            // Threes too: a three whose listed defences all fail may still threaten a VCF.
            if pos.is_empty(iu) && pos.is_near(iu) && pos.threat(a, iu) < Threat::Four {
                quiet.push(i);
            }
        }
        quiet.sort_unstable_by_key(|&i| {
            std::cmp::Reverse(pos.cell_score(a, i as usize) + pos.cell_score(d, i as usize))
        });
        quiet.truncate(width);
        let mut found = None;
        let mut defences = self.take_buffer();
        for &m in &quiet {
            let m = m as usize;
            if !pos.is_legal(a, m) {
                continue;
            }
            pos.play(m);
            pos.flip_side();
            defences.clear();
            let threat = self.vcf_defences(pos, vcf_depth, &mut defences);
            pos.flip_side();
            let r = if threat {
                // Likely refutations first: the attacker's hot spots, the defender's threats.
                // The point breaks ties, so a point listed twice sits twice in a row for
                // `dedup` (equal scores alone could separate the copies).
                defences.sort_unstable_by_key(|&i| {
                    let score = pos.cell_score(a, i as usize) + pos.cell_score(d, i as usize);
                    (std::cmp::Reverse(score), i)
                });
                defences.dedup();
                let moves = std::mem::replace(&mut defences, self.take_buffer());
                self.worst_defence(pos, d, moves, depth - 1, vcf_depth)
            } else {
                None
            };
            pos.undo();
            if let Some(p) = r {
                found = Some((m as u16, p));
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.give_buffer(defences);
        self.give_buffer(quiet);
        found
    }

    /// The attacker `a` made a non-four threat; the defender (to move) tries every defence.
    pub(super) fn defend(
        &mut self,
        pos: &mut Position,
        a: Color,
        depth: u32,
        vcf_depth: u32,
    ) -> Option<u32> {
        let d = a.other();
        if pos.count(d, Threat::Five) > 0 || self.tick() {
            return None;
        }
        // The threat must be real: an open four (or 4-4) the attacker may legally make.
        let mut moves = self.take_buffer();
        for &i in pos.points() {
            if pos.is_empty(i as usize) && pos.threat(a, i as usize) == Threat::Flex4 {
                moves.push(i);
            }
        }
        let real = moves.iter().any(|&i| pos.is_legal(a, i as usize));
        moves.clear();
        if !real {
            self.give_buffer(moves);
            return None;
        }
        for &i in pos.points() {
            let iu = i as usize;
            if pos.is_empty(iu)
                && (pos.threat(a, iu) >= Threat::Four || pos.threat(d, iu).is_four())
            {
                moves.push(i);
            }
        }
        self.worst_defence(pos, d, moves, depth, vcf_depth)
    }

    /// The defender `d` (to move) tries each legal move of `moves` against the attacker's VCT:
    /// `None` as soon as one refutes it, else the longest win in plies after the defence.
    /// Returns `moves` to the buffer pool.
    pub(super) fn worst_defence(
        &mut self,
        pos: &mut Position,
        d: Color,
        moves: Vec<u16>,
        depth: u32,
        vcf_depth: u32,
    ) -> Option<u32> {
        let mut worst = Some(0);
        for &m in &moves {
            let m = m as usize;
            if !pos.is_legal(d, m) {
                continue;
            }
            pos.play(m);
            // Deepening per defence: the shortest win is found before the attacker's
            // failing alternatives are searched to full depth.
            let r = self.deepening(depth, |s, d| s.vct_node(pos, d, vcf_depth, None));
            pos.undo();
            match r {
                None => {
                    worst = None;
                    break;
                }
                Some(p) => worst = worst.map(|w: u32| w.max(p)),
            }
        }
        self.give_buffer(moves);
        worst.map(|w| w + 1)
    }
}
