//! The root: what is settled before the deepening (fives, forced blocks, open fours, the
//! threat searches, the move list filtered against the opponent's VCF), the iterative
//! deepening with its aspiration windows, and the principal variation.

use std::sync::atomic::Ordering;
use std::time::Duration;
use web_time::Instant;

use super::{is_mate, Clock, Prepared, Searcher, ThreadResult, MATE, MATE_BOUND};
use crate::ai::params::{
    ROOT_DEFENCE_BUDGET, ROOT_DEFENCE_TIME_DIV, ROOT_VCF_BUDGET, ROOT_VCF_TIME_DIV,
};
use crate::ai::position::{Position, Threat};
use crate::Color;

impl Searcher<'_> {
    /// Any legal move for the side to move (fallback when no candidate qualifies).
    fn any_legal(pos: &mut Position, exclude: &[u16]) -> Option<usize> {
        let me = pos.to_move();
        let ok = |pos: &mut Position, i: usize| {
            pos.is_empty(i) && pos.is_legal(me, i) && !exclude.contains(&(i as u16))
        };
        let centre = crate::Board::index_of(crate::Point::center(pos.board().size()));
        if ok(pos, centre) {
            return Some(centre);
        }
        let n = pos.points().len();
        (0..n).find_map(|k| {
            let i = pos.points()[k] as usize;
            ok(pos, i).then_some(i)
        })
    }

    /// Runs the whole search in this thread: [`Searcher::prepare`], then
    /// [`Searcher::deepen`].
    pub fn run(&mut self, pos: &mut Position) -> ThreadResult {
        self.start = Instant::now();
        match self.prepare(pos) {
            Prepared::Decided(out) => out,
            Prepared::Search(root) => self.deepen(pos, root),
        }
    }

    /// The root work done once per search, by the main thread: starts a new table
    /// generation, then plays a five, blocks a five, makes an open four, runs the root VCF
    /// and VCT, and builds the root move list (filtered against the opponent's VCF).
    pub fn prepare(&mut self, pos: &mut Position) -> Prepared {
        self.tt.new_search();
        self.heur.age();
        self.threats.set_budget(u64::MAX);
        let me = pos.to_move();
        let op = me.other();
        let mut out = ThreadResult::default();
        let exclude = std::mem::take(&mut self.cfg.exclude);
        let prepared = self.prepare_excluding(pos, me, op, &exclude, &mut out);
        self.cfg.exclude = exclude;
        prepared
    }

    /// [`Searcher::prepare`] with the root moves in `exclude` never chosen: a shortcut whose
    /// move is excluded is skipped (the search below finds what else there is).
    fn prepare_excluding(
        &mut self,
        pos: &mut Position,
        me: Color,
        op: Color,
        exclude: &[u16],
        out: &mut ThreadResult,
    ) -> Prepared {
        let allowed = |i: usize| !exclude.contains(&(i as u16));
        if let Some(f) = pos.find(me, Threat::Five).filter(|&f| allowed(f)) {
            return Prepared::Decided(ThreadResult {
                best: Some(f),
                score: MATE - 1,
                pv: vec![f],
                by_fours: true,
                nodes: 1,
                depth: 1,
            });
        }
        let op_fives = pos.count(op, Threat::Five);
        if op_fives >= 1 {
            let b = pos.find(op, Threat::Five);
            let legal = b.filter(|&b| pos.is_legal(me, b) && allowed(b));
            let lost = op_fives >= 2 || legal.is_none();
            if lost {
                let best = legal.or_else(|| Self::any_legal(pos, exclude));
                return Prepared::Decided(ThreadResult {
                    best,
                    score: -(MATE - 2),
                    pv: best.into_iter().collect(),
                    nodes: 1,
                    depth: 1,
                    by_fours: false,
                });
            }
        }
        if op_fives == 0 {
            if Self::has_flex4(pos, me) {
                let n = pos.points().len();
                let f = (0..n).find_map(|k| {
                    let i = pos.points()[k] as usize;
                    (pos.is_empty(i)
                        && pos.threat(me, i) == Threat::Flex4
                        && pos.is_legal(me, i)
                        && allowed(i))
                    .then_some(i)
                });
                if f.is_some() {
                    return Prepared::Decided(ThreadResult {
                        best: f,
                        score: MATE - 3,
                        pv: f.into_iter().collect(),
                        nodes: 1,
                        depth: 1,
                        by_fours: true,
                    });
                }
            }
            if self.cfg.root_vcf_depth > 0 {
                self.threats.set_budget(
                    self.cfg
                        .nodes
                        .map_or(ROOT_VCF_BUDGET, |n| (n / 2).min(ROOT_VCF_BUDGET)),
                );
                if let Some(t) = self.cfg.time {
                    self.threats
                        .set_deadline(self.start + t / ROOT_VCF_TIME_DIV);
                }
                if let Some(w) = self
                    .threats
                    .vcf(pos, self.cfg.root_vcf_depth)
                    .filter(|w| allowed(w.first as usize))
                {
                    return Prepared::Decided(ThreadResult {
                        best: Some(w.first as usize),
                        score: MATE - w.plies as i32,
                        pv: vec![w.first as usize],
                        nodes: self.threats.nodes(),
                        depth: 1,
                        by_fours: true,
                    });
                }
            }
            let (vct_depth, vct_budget) = self.cfg.root_vct;
            if vct_depth > 0 {
                let budget = self.cfg.nodes.map_or(vct_budget, |n| vct_budget.min(n / 4));
                let used = self.threats.nodes();
                self.threats.set_budget(budget);
                if let Some(t) = self.cfg.time {
                    // The VCT may use a part of the move's time; the search needs the rest.
                    let share = self.cfg.params.vct_time.clamp(0, 100) as u32;
                    self.threats
                        .set_deadline(self.start + self.soft_time(t) * share / 100);
                }
                let r = self.threats.vct(pos, vct_depth, 12);
                let vct_nodes = self.threats.nodes();
                // Keep the node accounting: threat nodes so far count against the budget.
                self.nodes += used + vct_nodes;
                self.threats.set_budget(u64::MAX);
                if let Some(w) = r.filter(|w| allowed(w.first as usize)) {
                    return Prepared::Decided(ThreadResult {
                        best: Some(w.first as usize),
                        score: MATE - w.plies as i32,
                        pv: vec![w.first as usize],
                        nodes: self.nodes,
                        depth: 1,
                        by_fours: false,
                    });
                }
            } else {
                self.nodes += self.threats.nodes();
                self.threats.set_budget(u64::MAX);
            }
        }
        let threatened = op_fives == 0 && Self::has_flex4(pos, op);
        if !self.generate(pos, 0, 0, threatened, false, 0) {
            out.best = Self::any_legal(pos, exclude);
            out.pv = out.best.into_iter().collect();
            out.nodes = self.nodes + self.threats.nodes();
            return Prepared::Decided(std::mem::take(out));
        }
        let mut root: Vec<(u16, i32)> = self.heur.moves[0].clone();
        if !exclude.is_empty() {
            root.retain(|&(m, _)| allowed(m as usize));
            if root.is_empty() {
                // Every generated move is excluded: no further line (multi-PV).
                out.nodes = self.nodes + self.threats.nodes();
                return Prepared::Decided(std::mem::take(out));
            }
        }
        // (Refuting VCT threats the same way was tried and lost strength in self-play: the
        // checks eat the time budget and a depth-limited VCT misjudges quiet defences.)
        if self.cfg.root_defence && op_fives == 0 && root.len() > 1 {
            self.refute_opponent_threat(pos, &mut root);
        }
        Prepared::Search(root)
    }

    /// The time target for a time budget `t` (see [`Config::soft`]).
    fn soft_time(&self, t: Duration) -> Duration {
        let share = self.cfg.params.soft_percent.clamp(1, 100) as u32;
        self.cfg.soft.unwrap_or(t * share / 100).min(t)
    }

    /// One iteration over the root moves at `depth` within the window `(alpha, beta)`.
    /// Returns the scores of the moves searched (all unless stopped), in search order.
    fn root_iteration(
        &mut self,
        pos: &mut Position,
        root: &[(u16, i32)],
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Vec<(u16, i32)> {
        let me = pos.to_move();
        let mut alpha = alpha;
        let mut scores: Vec<(u16, i32)> = Vec::with_capacity(root.len());
        for (k, &(m, _)) in root.iter().enumerate() {
            let mi = m as usize;
            let makes_four = pos.threat(me, mi).is_four();
            let ext = self.cfg.extensions && makes_four;
            let nd = if ext { depth as i32 } else { depth as i32 - 1 };
            self.heur.frames[0].mv = m;
            pos.play(mi);
            let score = if k == 0 {
                -self.node(pos, nd, 1, -beta, -alpha, false)
            } else {
                let mut s = -self.node(pos, nd, 1, -alpha - 1, -alpha, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(pos, nd, 1, -beta, -alpha, false);
                }
                s
            };
            pos.undo();
            if self.stopped {
                break;
            }
            scores.push((m, score));
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        scores
    }

    /// Iterative deepening over `root` (from [`Searcher::prepare`], in this thread or the
    /// main one), with aspiration windows from depth 4. The main thread searches depths 1,
    /// 2, …; a helper ages its own heuristics first, odd helpers start at depth 2, and
    /// helpers do not stop early for want of time (the main thread decides that for the
    /// group).
    pub fn deepen(&mut self, pos: &mut Position, root: Vec<(u16, i32)>) -> ThreadResult {
        let mut root = root;
        let mut out = ThreadResult::default();
        if root.is_empty() {
            // Not from `prepare`; answer something legal rather than panic.
            out.best = Self::any_legal(pos, &self.cfg.exclude);
            out.pv = out.best.into_iter().collect();
            return out;
        }
        if self.helper > 0 {
            self.heur.age();
            self.threats.set_budget(u64::MAX);
        }
        out.best = Some(root[0].0 as usize);
        out.pv = vec![root[0].0 as usize];
        let forced = root.len() == 1;
        // Time management: the main thread's clock decides; helpers follow it.
        let mut clock = self
            .cfg
            .time
            .map(|t| Clock::new(t, self.soft_time(t), self.cfg.params.settle_percent));
        // With the whole turn to spend (a target at the limit), only a proven win ends the
        // deepening early: a forced answer or a proven loss searches on, which fills the
        // shared table for the next move (and may find a longer defence).
        let whole = clock.as_ref().is_some_and(|c| c.whole);
        let first = if self.helper % 2 == 1 { 2 } else { 1 };
        for depth in first.min(self.cfg.max_depth.max(1))..=self.cfg.max_depth.max(1) {
            self.seldepth = 0;
            let prev_best = out.best;
            let mut delta = self.cfg.params.aspiration;
            let (mut alpha, mut beta) = if depth >= 4 && !is_mate(out.score) {
                (out.score - delta, out.score + delta)
            } else {
                (-MATE, MATE)
            };
            let mut scores;
            loop {
                scores = self.root_iteration(pos, &root, depth, alpha, beta);
                if self.stopped {
                    break;
                }
                let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(-MATE);
                if best <= alpha && alpha > -MATE {
                    alpha = (alpha - delta).max(-MATE);
                    delta *= 2;
                } else if best >= beta && beta < MATE {
                    beta = (beta + delta).min(MATE);
                    delta *= 2;
                    // The move that failed high goes first in the re-search.
                    if let Some(&(m, _)) = scores.iter().max_by_key(|&&(_, s)| s) {
                        if let Some(k) = root.iter().position(|&(r, _)| r == m) {
                            let e = root.remove(k);
                            root.insert(0, e);
                        }
                    }
                } else {
                    break;
                }
            }
            if scores.is_empty() {
                break;
            }
            let (best_move, best_score) = scores
                .iter()
                .copied()
                .max_by_key(|&(m, s)| {
                    (s, std::cmp::Reverse(root.iter().position(|&(r, _)| r == m)))
                })
                .unwrap_or((root[0].0, -MATE));
            // A partial iteration still improves the choice when its best beat the old one
            // (the old best move was searched first), but only within the window.
            if !self.stopped || (best_score > alpha && best_score < beta) {
                out.best = Some(best_move as usize);
                out.score = best_score;
            }
            if !self.stopped {
                out.depth = depth;
            }
            // Reorder: searched moves by score, unsearched keep their order.
            let mut searched: Vec<(u16, i32)> = scores.clone();
            searched.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let rest: Vec<(u16, i32)> = root
                .iter()
                .copied()
                .filter(|&(m, _)| !scores.iter().any(|&(s, _)| s == m))
                .collect();
            root = searched;
            root.extend(rest);
            let settled = if whole {
                out.score > MATE_BOUND
            } else {
                forced || is_mate(out.score)
            };
            if self.stopped || settled {
                break;
            }
            if self.helper == 0 {
                if let Some(clock) = clock.as_mut() {
                    let elapsed = self.start.elapsed();
                    if !clock.deepen_again(elapsed, depth, out.best != prev_best, out.score) {
                        break;
                    }
                }
            }
        }
        if let Some(d) = self.done {
            // Whichever thread ends its deepening first ends the group's search: the main
            // thread by its own rules, a helper only by completing the last depth or proving
            // a win or loss (a stopped helper raising it again changes nothing).
            d.store(true, Ordering::Relaxed);
        }
        out.nodes = self.nodes + self.threats.nodes();
        out.pv = self.extract_pv(pos, out.best);
        out
    }

    /// If the opponent threatens a VCF, keeps only the root moves after which it no longer
    /// has one, plus the side's own fours (which may win first). Leaves the list alone when
    /// nothing refutes it: then every move loses and the search picks the longest defence.
    fn refute_opponent_threat(&mut self, pos: &mut Position, root: &mut Vec<(u16, i32)>) {
        let me = pos.to_move();
        let deadline = self
            .cfg
            .time
            .map(|t| self.start + self.soft_time(t) / ROOT_DEFENCE_TIME_DIV);
        let vcf_depth = self.cfg.root_vcf_depth.max(20);
        let probe = |s: &mut Searcher<'_>, pos: &mut Position| -> bool {
            s.threats.set_budget(ROOT_DEFENCE_BUDGET);
            if let Some(d) = deadline {
                s.threats.set_deadline(d);
            }
            let found = s.threats.vcf(pos, vcf_depth).is_some();
            s.nodes += s.threats.nodes();
            found
        };
        pos.flip_side();
        let threat = probe(self, pos);
        pos.flip_side();
        if !threat {
            self.threats.set_budget(u64::MAX);
            return;
        }
        let kept: Vec<(u16, i32)> = root
            .iter()
            .copied()
            .filter(|&(m, _)| {
                if pos.threat(me, m as usize).is_four() {
                    return true;
                }
                pos.play(m as usize);
                // An unfinished search proves nothing: the move is kept.
                let still = probe(self, pos);
                pos.undo();
                !still
            })
            .collect();
        self.threats.set_budget(u64::MAX);
        if !kept.is_empty() {
            *root = kept;
        }
    }

    fn extract_pv(&self, pos: &mut Position, first: Option<usize>) -> Vec<usize> {
        let mut pv = Vec::new();
        let Some(f) = first else { return pv };
        pv.push(f);
        pos.play(f);
        let mut played = 1;
        while played < 32 {
            let Some(e) = self.tt.probe(pos.hash()) else {
                break;
            };
            // The table is shared and racy: re-check the move before playing it.
            let m = e.mv as usize;
            if m == 0
                || !pos.points().contains(&(m as u16))
                || !pos.is_empty(m)
                || !pos.is_legal(pos.to_move(), m)
            {
                break;
            }
            pv.push(m);
            pos.play(m);
            played += 1;
        }
        for _ in 0..played {
            pos.undo();
        }
        pv
    }
}
