//! The search below the root: the forced checks every node makes and the
//! principal-variation node (see the module documentation of [`super`]); the quiescence at
//! its leaves is `quiescence.rs`.

use super::{
    from_tt, is_mate, to_tt, Heuristics, Searcher, CORR_GRAIN, MATE, MATE_BOUND, MAX_PLY, NULL_MOVE,
};
use crate::ai::params::{
    EXTENSION_PLY_FACTOR, EXTENSION_PLY_SLACK, FUTILITY_BASE, HISTORY_BONUS, HISTORY_BONUS_MAX,
    LMR_CUT, LMR_HISTORY_DIV, LMR_KILLER, LMR_NOT_IMPROVING, LMR_NOT_QUIET, LMR_ONE, LMR_PV,
    NULL_MOVE_R, NULL_MOVE_R_DIV,
};
use crate::ai::position::{Position, Threat};
use crate::ai::tt::Bound;
use crate::Color;

impl Searcher<'_> {
    /// What every node of both searches does first: count itself, stop when asked, note the
    /// depth reached, score a decided position, narrow the window to the distance of the
    /// nearest possible mate, and stop at the ply cap. `Ok(window)` to search on with the
    /// narrowed `(alpha, beta)`, `Err(score)` to return at once.
    #[inline]
    pub(super) fn enter(
        &mut self,
        pos: &mut Position,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32), i32> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return Err(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = Self::decided(pos, ply) {
            return Err(s);
        }
        let alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        if ply >= MAX_PLY - 2 {
            return Err(self.static_eval(pos));
        }
        Ok((alpha, beta))
    }

    /// Terminal and forced-result checks shared by every node. `Some(score)` when the node
    /// is decided without a search.
    #[inline]
    fn decided(pos: &mut Position, ply: usize) -> Option<i32> {
        let me = pos.to_move();
        let op = me.other();
        if pos.count(me, Threat::Five) > 0 {
            return Some(MATE - (ply as i32 + 1));
        }
        let op_fives = pos.count(op, Threat::Five);
        if op_fives >= 2 {
            return Some(-(MATE - (ply as i32 + 2)));
        }
        if op_fives == 0 && Self::has_flex4(pos, me) {
            return Some(MATE - (ply as i32 + 3));
        }
        if pos.board().is_full() {
            return Some(0);
        }
        None
    }

    /// Stores a result in the table: the score relative to this node (mate distances), the
    /// uncorrected static evaluation, the remaining depth (the quiescence's below zero).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        hash: u64,
        mv: u16,
        score: i32,
        raw_eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        self.tt.store(
            hash,
            mv,
            to_tt(score, ply),
            raw_eval.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            depth.clamp(i32::from(i8::MIN), 120) as i8,
            bound,
        );
    }

    #[allow(clippy::too_many_lines)]
    pub(super) fn node(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> i32 {
        if depth <= 0 {
            let fours = self.cfg.params.qs_fours_under(pos.rule());
            return self.qsearch(pos, ply, alpha, beta, fours);
        }
        let (mut alpha, beta) = match self.enter(pos, ply, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let me = pos.to_move();
        let op = me.other();
        let pv = beta - alpha > 1;
        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        let tt_move = entry.map_or(0, |e| e.mv);
        if let Some(e) = entry {
            if !pv && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                if e.bound.settles(s, alpha, beta) {
                    return s;
                }
            }
        }
        let forced = pos.count(op, Threat::Five) == 1;
        let threatened = !forced && Self::has_flex4(pos, op);
        // Against a four-three only its defences are searched, all of them in full.
        let restricted = !forced && !threatened && self.four_three_defences(pos);
        let raw_eval = match entry {
            Some(e) if self.cfg.noise == 0 => i32::from(e.eval),
            _ => self.static_eval(pos),
        };
        let corr_slots = self.corr_slots(pos);
        let eval = raw_eval + self.correction(pos, corr_slots);
        self.heur.frames[ply].eval = eval;
        let improving = ply >= 2 && eval > self.heur.frames[ply - 2].eval;
        let quiet_node = !forced && !threatened && !restricted;
        let mut depth = depth;

        if self.cfg.selective && !pv && quiet_node && !is_mate(beta) {
            // Reverse futility: far above beta with little depth left.
            let p = &self.cfg.params;
            if p.rfp_margin > 0
                && depth <= 6
                && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move: even passing keeps us above beta.
            if p.null_move > 0
                && depth >= 3
                && eval >= beta
                && ply > 0
                && self.heur.frames[ply - 1].mv != NULL_MOVE
                && pos.four_moves(op) == 0
            {
                let r = NULL_MOVE_R + depth / NULL_MOVE_R_DIV;
                self.heur.frames[ply].mv = NULL_MOVE;
                pos.flip_side();
                let s = -self.node(pos, depth - r, ply + 1, -beta, -beta + 1, !cut);
                pos.flip_side();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if is_mate(s) { beta } else { s };
                }
            }
            // Razoring: far below alpha, see whether threats alone can help.
            let p = &self.cfg.params;
            if p.razor_margin > 0 && depth <= 2 && eval + p.razor_margin * depth < alpha {
                let s = self.qsearch(pos, ply, alpha, alpha + 1, p.qs_fours_under(pos.rule()));
                if s <= alpha {
                    return s;
                }
            }
        }
        // Internal iterative reduction: no table move to trust, so spend less here.
        if self.cfg.selective && tt_move == 0 && depth >= 4 && !forced {
            depth -= 1;
        }

        let width = if self.cfg.width == 0 {
            0
        } else if pv {
            self.cfg.width * 2
        } else {
            self.cfg.width
        };
        // A defence set with no legal move (black's forbidden points) falls back to every move.
        let generated = self.generate(pos, ply, tt_move, threatened, restricted, width)
            || (restricted && self.generate(pos, ply, tt_move, false, false, width));
        if !generated {
            // Only forbidden points or no room: a forced block on a forbidden point loses.
            return if forced {
                -(MATE - (ply as i32 + 2))
            } else {
                0
            };
        }
        let list = std::mem::take(&mut self.heur.moves[ply]);
        let mut best = -MATE;
        let mut best_move = 0u16;
        let alpha0 = alpha;
        let p = &self.cfg.params;
        let lmp_limit = if p.lmp_base > 0 {
            (p.lmp_base + depth * depth) / if improving { 1 } else { 2 }
        } else {
            i32::MAX
        };
        let futility_margin = p.futility_margin;
        let policy_lmr = p.policy_lmr;
        // Fail-high reduction: a cut node far above beta will most likely fail high whatever
        // it plays, so its quiet lines need less depth to show it.
        let fh_margin = p.fh_margin_under(pos.rule());
        let likely_fail_high = self.cfg.selective
            && !pv
            && cut
            && quiet_node
            && fh_margin > 0
            && !is_mate(beta)
            && eval >= beta + fh_margin * depth;
        let top_policy = self.heur.frames[ply].top_policy;
        let mut searched = 0i32;
        for k in 0..list.len() {
            let m = list[k].0;
            let mi = m as usize;
            let tm = pos.threat(me, mi);
            let to = pos.threat(op, mi);
            let makes_four = tm.is_four();
            // Open threes are everywhere in a middle game, so they are not spared: only moves
            // that make a four, a double three, or take the opponent's four point are.
            let quiet = tm < Threat::ThreeThree && to < Threat::Four;
            if self.cfg.selective && !pv && quiet_node && quiet && best > -MATE_BOUND {
                // Move-count pruning: late quiet moves at low depth.
                if depth <= 6 && searched >= lmp_limit {
                    continue;
                }
                // Futility: a quiet move cannot lift a hopeless evaluation.
                if futility_margin > 0
                    && depth <= 4
                    && eval + FUTILITY_BASE + futility_margin * depth <= alpha
                {
                    continue;
                }
            }
            let ext = forced
                || (self.cfg.extensions
                    && makes_four
                    && ply < EXTENSION_PLY_FACTOR * depth as usize + EXTENSION_PLY_SLACK);
            let new_depth = if ext {
                depth
            } else if likely_fail_high && !makes_four {
                depth - 2
            } else {
                depth - 1
            };
            self.heur.frames[ply].mv = m;
            self.tt.prefetch(pos.hash_after(mi));
            pos.play(mi);
            searched += 1;
            let score = if searched == 1 {
                -self.node(pos, new_depth, ply + 1, -beta, -alpha, !pv && !cut)
            } else {
                let mut r = 0;
                if self.cfg.selective && depth >= 3 && quiet_node && !makes_four {
                    r = self.lmr[depth.min(63) as usize][(searched as usize).min(63)];
                    if pv {
                        r -= LMR_PV;
                    }
                    if cut {
                        r += LMR_CUT;
                    }
                    if !quiet {
                        r -= LMR_NOT_QUIET;
                    }
                    if m == self.heur.killers[ply][0] || m == self.heur.killers[ply][1] {
                        r -= LMR_KILLER;
                    }
                    if !improving {
                        r += LMR_NOT_IMPROVING;
                    }
                    r -= self.heur.history[me.index()][mi] / LMR_HISTORY_DIV;
                    if policy_lmr > 0 && quiet {
                        r += (top_policy - pos.policy(mi)).max(0) * LMR_ONE / policy_lmr;
                    }
                    r = (r / LMR_ONE).clamp(0, new_depth - 1);
                }
                let mut s = -self.node(pos, new_depth - r, ply + 1, -alpha - 1, -alpha, true);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.node(pos, new_depth, ply + 1, -alpha - 1, -alpha, !cut);
                }
                if s > alpha && s < beta && pv && !self.stopped {
                    s = -self.node(pos, new_depth, ply + 1, -beta, -alpha, false);
                }
                s
            };
            pos.undo();
            if self.stopped {
                self.heur.moves[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            self.reward(me, ply, depth, m, &list[..k]);
                        }
                        break;
                    }
                }
            }
        }
        self.heur.moves[ply] = list;
        if searched == 0 {
            // Everything was pruned: the evaluation is the best guess.
            return eval.min(beta);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv && best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Correction history: learn how far the search's result lies from the evaluation in
        // quiet positions, where the evaluation drives the pruning; a bound only teaches in
        // its own direction.
        if corr_slots.iter().any(Option::is_some)
            && quiet_node
            && !is_mate(best)
            && (best_move == 0 || !pos.threat(me, usize::from(best_move)).is_four())
            && match bound {
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
                _ => true,
            }
        {
            let target = (best - raw_eval) * CORR_GRAIN;
            for slot in corr_slots.into_iter().flatten() {
                self.heur.correct(slot, target, depth);
            }
        }
        self.store(hash, best_move, best, raw_eval, depth, bound, ply);
        best
    }

    /// A quiet move `m` refuted the node: remember it as a killer and counter-move, raise its
    /// history and lower that of the quiet moves tried before it.
    fn reward(&mut self, me: Color, ply: usize, depth: i32, m: u16, before: &[(u16, i32)]) {
        let kl = &mut self.heur.killers[ply];
        if kl[0] != m {
            kl[1] = kl[0];
            kl[0] = m;
        }
        if ply > 0 {
            let prev = self.heur.frames[ply - 1].mv;
            if prev != 0 && prev != NULL_MOVE {
                self.heur.counter[me.index()][usize::from(prev)] = m;
            }
        }
        let bonus = (depth * depth * HISTORY_BONUS).min(HISTORY_BONUS_MAX);
        let h = &mut self.heur.history[me.index()];
        Heuristics::nudge(&mut h[usize::from(m)], bonus);
        for &(q, _) in before {
            Heuristics::nudge(&mut h[usize::from(q)], -bonus);
        }
    }
}
