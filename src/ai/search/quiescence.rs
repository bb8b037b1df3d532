//! The quiescence search at the full-width search's leaves: stand pat or play a four, block
//! a five, answer an open three (see the module documentation of [`super`]).

use super::{from_tt, Searcher, MATE};
use crate::ai::position::{Position, Threat};
use crate::ai::tt::Bound;

impl Searcher<'_> {
    /// Quiescence: the side to move stands pat on the evaluation or plays one of its fours
    /// (at most `fours` more in a row, the last `qs_chain` of them only near the side's
    /// previous four); it must block an opponent's five, and it must answer an opponent's
    /// open three (by a defence or a four of its own) instead of standing pat.
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        fours: i32,
    ) -> i32 {
        let (mut alpha, beta) = match self.enter(pos, ply, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let me = pos.to_move();
        let op = me.other();
        // The table: a quiescence result is stored at depth `fours - qs_fours - 1` (below
        // every full-width entry), so an entry settles this node when it was searched with
        // at least as many fours in hand.
        let use_tt = self.cfg.params.qs_tt > 0;
        let chain = self.cfg.params.qs_chain_under(pos.rule());
        let qs_depth = fours - self.cfg.params.qs_fours_under(pos.rule()) - 1;
        let hash = pos.hash();
        let entry = if use_tt { self.tt.probe(hash) } else { None };
        if let Some(e) = entry {
            if i32::from(e.depth) >= qs_depth {
                let s = from_tt(e.score, ply);
                if e.bound.settles(s, alpha, beta) {
                    return s;
                }
            }
        }
        let alpha0 = alpha;
        if pos.count(op, Threat::Five) == 1 {
            // Forced block (no decision, no stand-pat).
            let Some(b) = pos.find(op, Threat::Five) else {
                return self.static_eval(pos);
            };
            if !pos.is_legal(me, b) {
                return -(MATE - (ply as i32 + 2));
            }
            self.heur.frames[ply].mv = b as u16;
            pos.play(b);
            let s = -self.qsearch(pos, ply + 1, -beta, -alpha, fours);
            pos.undo();
            return s;
        }
        let threatened = Self::has_flex4(pos, op);
        let raw_eval = match entry {
            Some(e) if self.cfg.noise == 0 => i32::from(e.eval),
            _ => self.static_eval(pos),
        };
        let stand = raw_eval + self.correction(pos, self.corr_slots(pos));
        let mut best = -MATE;
        if !threatened {
            if stand >= beta {
                if use_tt && entry.is_none() {
                    self.store(hash, 0, stand, raw_eval, qs_depth, Bound::Lower, ply);
                }
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
            if fours <= 0 || pos.four_moves(me) == 0 {
                return stand;
            }
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        let mut best_move = 0u16;
        // Own fours; and under threat, every point that stops the opponent's open four.
        let mut list = std::mem::take(&mut self.heur.moves[ply]);
        list.clear();
        // Past the first fours, only a four near the side's previous four continues the chain.
        let anchor = if fours <= chain && ply >= 2 {
            Some(usize::from(self.heur.frames[ply - 2].mv))
        } else {
            None
        };
        let n = pos.points().len();
        for k in 0..n {
            let i = pos.points()[k] as usize;
            if !pos.is_empty(i) {
                continue;
            }
            let tm = pos.threat(me, i);
            let four = tm.is_four()
                && fours > 0
                && match anchor {
                    Some(a) => near(a, i),
                    None => true,
                };
            let block = threatened && pos.threat(op, i) >= Threat::Four;
            if four || block {
                let s = if i as u16 == tt_move { 1 << 21 } else { 0 }
                    + if tm.is_four() { 1 << 20 } else { 0 }
                    + pos.cell_score(me, i)
                    + pos.cell_score(op, i);
                list.push((i as u16, s));
            }
        }
        list.sort_unstable_by_key(|&(i, s)| (std::cmp::Reverse(s), i));
        let mut any = false;
        for &(m, _) in &list {
            let m = m as usize;
            if !pos.is_legal(me, m) {
                continue;
            }
            any = true;
            let is_four = pos.threat(me, m).is_four();
            self.heur.frames[ply].mv = m as u16;
            self.tt.prefetch(pos.hash_after(m));
            pos.play(m);
            let s = -self.qsearch(pos, ply + 1, -beta, -alpha, fours - i32::from(is_four));
            pos.undo();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    best_move = m as u16;
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.heur.moves[ply] = list;
        if !any {
            // Under threat with no legal answer in the list: the open four comes.
            return if threatened {
                -(MATE - (ply as i32 + 4))
            } else {
                stand
            };
        }
        // A full-width entry of this position is worth more than the quiescence result.
        let full_width = matches!(entry, Some(e) if e.depth >= 0);
        if use_tt && !self.stopped && !full_width {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(hash, best_move, best, raw_eval, qs_depth, bound, ply);
        }
        best
    }
}

/// Whether `b` lies within two points of `a` in both directions, or within four along one of
/// `a`'s lines (padded indices).
fn near(a: usize, b: usize) -> bool {
    let s = crate::STRIDE;
    let (dx, dy) = ((a % s).abs_diff(b % s), (a / s).abs_diff(b / s));
    let d = dx.max(dy);
    d <= 2 || (d <= 4 && (dx == 0 || dy == 0 || dx == dy))
}

#[cfg(test)]
mod tests {
    use super::near;
    use crate::STRIDE;

    #[test]
    fn near_is_the_five_by_five_square_and_four_along_each_line() {
        let at = |x: usize, y: usize| (y + 5) * STRIDE + x + 5;
        let a = at(7, 7);
        let mut count = 0;
        for y in 0..15 {
            for x in 0..15 {
                if (x, y) != (7, 7) && near(a, at(x, y)) {
                    count += 1;
                }
            }
        }
        // 24 points of the square, and 16 more: distance 3 and 4 along each of the eight
        // directions.
        assert_eq!(count, 24 + 16);
        assert!(near(a, at(11, 11)) && near(a, at(3, 7)) && near(a, at(7, 3)));
        assert!(!near(a, at(10, 8)) && !near(a, at(12, 7)) && !near(a, at(4, 9)));
        assert!(near(at(9, 9), a), "symmetric");
    }
}
