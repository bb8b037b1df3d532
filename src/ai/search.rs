//! Iterative-deepening principal-variation alpha-beta over a [`Position`].
//!
//! Per node, before any move is generated: a five for the side to move wins at once; two
//! opponent five points lose; one opponent five point leaves a single forced block; a legal
//! open four (or 4-4 where allowed) wins in three. When the opponent threatens an open four,
//! only the defences and the side's own fours are searched. Moves that make fours are
//! extended (threat extensions), quiet late moves reduced. At the leaves the side to move's
//! VCF is probed. A Zobrist-keyed transposition table, killer moves and a history table order
//! the moves; mate scores count plies from the root.
//!
//! Lazy SMP: [`Searcher::prepare`] settles the root (forced moves, threat searches, the root
//! move list) once, in the main thread; then the main thread and any number of helpers (made
//! with [`Searcher::join_group`]) run [`Searcher::deepen`] on the same root over one shared
//! [`Table`], each with its own position, threat solver and heuristics. Helpers differ a little
//! (odd helpers start one ply deeper, every helper jitters its move order) so their trees
//! diverge and fill the table with results the others reuse.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ai::eval::evaluate;
use crate::ai::position::{Position, Threat};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::{Bound, Table};
use crate::{Color, CELLS};

/// Score of a win on the board now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Node budget of the root VCF (it cannot be interrupted by the clock).
const ROOT_VCF_BUDGET: u64 = 400_000;
/// Deepest ply the search goes, extensions included.
pub const MAX_PLY: usize = 128;

/// What a search may use and do; the levels fill this in.
#[derive(Clone, Debug)]
pub struct Config {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Time budget.
    pub time: Option<Duration>,
    /// Node budget (search nodes plus threat-search nodes).
    pub nodes: Option<u64>,
    /// Attacking moves allowed in the root VCF (0 = no root VCF).
    pub root_vcf_depth: u32,
    /// Attacking moves allowed in the root VCT (0 = none) and its node budget.
    pub root_vct: (u32, u64),
    /// Attacking moves allowed in VCF probes at the leaves (0 = no probes).
    pub leaf_vcf_depth: u32,
    /// Extend moves that make fours.
    pub extensions: bool,
    /// At the root, answer an opponent's VCF threat only with moves that refute it.
    pub root_defence: bool,
    /// Moves searched at inner nodes, best-ordered first.
    pub width: usize,
    /// Amplitude of the deterministic per-position evaluation noise (weaker levels).
    pub noise: i32,
    /// Seed for the noise.
    pub seed: u64,
}

/// The outcome of [`Searcher::run`] or [`Searcher::deepen`].
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Best move (padded index), if any legal move exists.
    pub best: Option<usize>,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited (search and threat search).
    pub nodes: u64,
    /// Principal variation (padded indices).
    pub pv: Vec<usize>,
    /// The win was proven by continuous fours.
    pub by_fours: bool,
}

/// Ordering state that persists across searches.
#[derive(Debug)]
pub struct Heuristics {
    history: Box<[[i32; CELLS]; 2]>,
    killers: [[u16; 2]; MAX_PLY],
    moves: Vec<Vec<(u16, i32)>>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            history: Box::new([[0; CELLS]; 2]),
            killers: [[0; 2]; MAX_PLY],
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(400)).collect(),
        }
    }
}

impl Heuristics {
    /// Forgets history and killers.
    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| h.fill(0));
        self.killers = [[0; 2]; MAX_PLY];
    }

    fn age(&mut self) {
        self.history
            .iter_mut()
            .for_each(|h| h.iter_mut().for_each(|v| *v /= 4));
        self.killers = [[0; 2]; MAX_PLY];
    }
}

/// What [`Searcher::prepare`] leaves to do.
#[derive(Clone, Debug)]
pub enum Prepared {
    /// The root settled the move (a five, a forced block, a threat-search win, no candidate).
    Decided(Outcome),
    /// Iterative deepening must choose among these root moves (padded index, order score),
    /// best-ordered first; never empty.
    Search(Vec<(u16, i32)>),
}

/// One search thread.
pub struct Searcher<'a> {
    cfg: Config,
    tt: &'a Table,
    threats: &'a mut ThreatSearch,
    heur: &'a mut Heuristics,
    cancel: &'a AtomicBool,
    /// Raised when the group's search is over (Lazy SMP); polled with `cancel`.
    done: Option<&'a AtomicBool>,
    /// 0 for the main thread, 1.. for Lazy SMP helpers.
    helper: u32,
    start: Instant,
    nodes: u64,
    stopped: bool,
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("cfg", &self.cfg)
            .field("helper", &self.helper)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// A helper thread's move-order perturbation: 0..8, fixed per (position, move, helper), so
/// only near-equal moves swap (a three scores 80-90, a two 26-30) and each helper's tree
/// differs from the main thread's.
fn jitter(hash: u64, mv: usize, helper: u32) -> i32 {
    let h =
        (hash ^ (mv as u64) << 20 ^ u64::from(helper) << 48).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 61) as i32
}

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl<'a> Searcher<'a> {
    /// A search with these tables; `cancel` is polled every 1024 nodes.
    pub fn new(
        cfg: Config,
        tt: &'a Table,
        threats: &'a mut ThreatSearch,
        heur: &'a mut Heuristics,
        cancel: &'a AtomicBool,
    ) -> Searcher<'a> {
        Searcher {
            cfg,
            tt,
            threats,
            heur,
            cancel,
            done: None,
            helper: 0,
            start: Instant::now(),
            nodes: 0,
            stopped: false,
        }
    }

    /// Makes this search part of a Lazy SMP group: it also stops when `done` is raised, and
    /// raises it when its own iterative deepening ends. `helper` is 0 for the main thread
    /// (which runs [`Searcher::prepare`]) and 1.. for helpers, which only run
    /// [`Searcher::deepen`]; `start` is when the group's search began (time limits count
    /// from it).
    #[must_use]
    pub fn join_group(mut self, done: &'a AtomicBool, helper: u32, start: Instant) -> Searcher<'a> {
        self.done = Some(done);
        self.helper = helper;
        self.start = start;
        self
    }

    /// When the search began (see [`Searcher::join_group`]).
    #[must_use]
    pub const fn started(&self) -> Instant {
        self.start
    }

    fn total_nodes(&self) -> u64 {
        self.nodes + self.threats.nodes()
    }

    fn check_stop(&mut self) {
        if self.cancel.load(Ordering::Relaxed)
            || self.done.is_some_and(|d| d.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        if let Some(n) = self.cfg.nodes {
            if self.total_nodes() >= n {
                self.stopped = true;
            }
        }
        if let Some(t) = self.cfg.time {
            if self.start.elapsed() >= t {
                self.stopped = true;
            }
        }
    }

    fn noise(&self, pos: &Position) -> i32 {
        if self.cfg.noise == 0 {
            return 0;
        }
        let h = (pos.hash() ^ self.cfg.seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 40) % (2 * self.cfg.noise as u64 + 1)) as i32 - self.cfg.noise
    }

    /// Whether `c` has an open four (or 4-4) it may legally play.
    fn has_flex4(pos: &mut Position, c: Color) -> bool {
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

    /// Fills `self.heur.moves[ply]` with the best `keep` scored candidate moves for the side
    /// to move, best first. Returns false when the side to move has no legal candidate.
    fn generate(&mut self, pos: &mut Position, ply: usize, tt_move: u16, keep: usize) -> bool {
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
        let defend = Self::has_flex4(pos, op);
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
            let mut s = pos.cell_score(me, i) + pos.cell_score(op, i) * 7 / 8;
            s += self.heur.history[me.index()][i] / 16;
            if self.helper > 0 {
                s += jitter(pos.hash(), i, self.helper);
            }
            if i as u16 == tt_move {
                s += 1 << 28;
            } else if self.heur.killers[ply.min(MAX_PLY - 1)].contains(&(i as u16)) {
                s += 300;
            }
            list.push((i as u16, s));
        }
        // Renju: drop black's forbidden points (the referee runs only where patterns allow).
        if pos.rule().has_forbidden(me) {
            list.retain(|&(i, _)| pos.is_legal(me, i as usize));
        }
        // Inner nodes search only their first `width` moves: select those, then sort only
        // them (the key is a total order, so the result equals a full sort's prefix).
        let order = |&(i, s): &(u16, i32)| (std::cmp::Reverse(s), i);
        if keep > 0 && list.len() > keep {
            list.select_nth_unstable_by_key(keep, order);
            list.truncate(keep);
        }
        list.sort_unstable_by_key(order);
        self.heur.moves[ply] = list;
        !self.heur.moves[ply].is_empty()
    }

    fn node(&mut self, pos: &mut Position, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_stop();
        }
        if self.stopped {
            return 0;
        }
        let me = pos.to_move();
        let op = me.other();
        if pos.count(me, Threat::Five) > 0 {
            return MATE - (ply as i32 + 1);
        }
        let op_fives = pos.count(op, Threat::Five);
        if op_fives >= 2 {
            return -(MATE - (ply as i32 + 2));
        }
        let mut alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if op_fives == 0 && Self::has_flex4(pos, me) {
            return MATE - (ply as i32 + 3);
        }
        if pos.board().is_full() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos) + self.noise(pos);
        }
        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        let tt_move = entry.map_or(0, |e| e.mv);
        if let Some(e) = entry {
            if i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut && beta - alpha == 1 {
                    return s;
                }
            }
        }
        if depth <= 0 && op_fives == 0 {
            if self.cfg.leaf_vcf_depth > 0 && pos.four_moves(me) > 0 {
                if let Some(w) = self.threats.vcf(pos, self.cfg.leaf_vcf_depth) {
                    return MATE - (ply as i32 + w.plies as i32);
                }
            }
            return evaluate(pos) + self.noise(pos);
        }
        let forced = op_fives == 1;
        let pv_node = beta - alpha > 1;
        let width = if pv_node {
            self.cfg.width * 2
        } else {
            self.cfg.width
        };
        if !self.generate(pos, ply, tt_move, width) {
            // Only forbidden points or no room: a forced block on a forbidden point loses.
            return if op_fives == 1 {
                -(MATE - (ply as i32 + 2))
            } else {
                0
            };
        }
        let list = std::mem::take(&mut self.heur.moves[ply]);
        let mut best = -MATE;
        let mut best_move = 0u16;
        let alpha0 = alpha;
        for (k, &(m, _)) in list.iter().enumerate() {
            if k >= width && !forced {
                break;
            }
            let mi = m as usize;
            let makes_four = pos.threat(me, mi).is_four();
            let quiet = pos.threat(me, mi) < Threat::Three && pos.threat(op, mi) < Threat::Three;
            let ext = forced || (self.cfg.extensions && makes_four && ply < 2 * depth as usize + 8);
            let new_depth = if ext { depth } else { depth - 1 };
            pos.play(mi);
            let score = if k == 0 {
                -self.node(pos, new_depth, ply + 1, -beta, -alpha)
            } else {
                let r = i32::from(depth >= 3 && k >= 4 && quiet && !ext);
                let mut s = -self.node(pos, new_depth - r, ply + 1, -alpha - 1, -alpha);
                if s > alpha && (r > 0 || s < beta) && !self.stopped {
                    s = -self.node(pos, new_depth, ply + 1, -beta, -alpha);
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
                            let kl = &mut self.heur.killers[ply];
                            if kl[0] != m {
                                kl[1] = kl[0];
                                kl[0] = m;
                            }
                            self.heur.history[me.index()][mi] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        self.heur.moves[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            hash,
            best_move,
            to_tt(best, ply),
            depth.clamp(-1, 120) as i8,
            bound,
        );
        best
    }

    /// Any legal move for the side to move (fallback when no candidate qualifies).
    fn any_legal(pos: &mut Position) -> Option<usize> {
        let me = pos.to_move();
        let centre = crate::Board::index_of(crate::Point::center(pos.board().size()));
        if pos.is_empty(centre) && pos.is_legal(me, centre) {
            return Some(centre);
        }
        let n = pos.points().len();
        (0..n).find_map(|k| {
            let i = pos.points()[k] as usize;
            (pos.is_empty(i) && pos.is_legal(me, i)).then_some(i)
        })
    }

    /// Runs the whole search in this thread: [`Searcher::prepare`], then
    /// [`Searcher::deepen`].
    pub fn run(&mut self, pos: &mut Position) -> Outcome {
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
        let mut out = Outcome::default();
        if let Some(f) = pos.find(me, Threat::Five) {
            return Prepared::Decided(Outcome {
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
            let legal = b.filter(|&b| pos.is_legal(me, b));
            let lost = op_fives >= 2 || legal.is_none();
            if lost {
                let best = legal.or_else(|| Self::any_legal(pos));
                return Prepared::Decided(Outcome {
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
                    (pos.is_empty(i) && pos.threat(me, i) == Threat::Flex4 && pos.is_legal(me, i))
                        .then_some(i)
                });
                return Prepared::Decided(Outcome {
                    best: f,
                    score: MATE - 3,
                    pv: f.into_iter().collect(),
                    nodes: 1,
                    depth: 1,
                    by_fours: true,
                });
            }
            if self.cfg.root_vcf_depth > 0 {
                self.threats.set_budget(
                    self.cfg
                        .nodes
                        .map_or(ROOT_VCF_BUDGET, |n| (n / 2).min(ROOT_VCF_BUDGET)),
                );
                if let Some(t) = self.cfg.time {
                    self.threats.set_deadline(self.start + t / 4);
                }
                if let Some(w) = self.threats.vcf(pos, self.cfg.root_vcf_depth) {
                    return Prepared::Decided(Outcome {
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
                    // The VCT may use a quarter of the move's time; the search needs the rest.
                    self.threats.set_deadline(self.start + t / 4);
                }
                let r = self.threats.vct(pos, vct_depth, 12);
                let vct_nodes = self.threats.nodes();
                self.threats.set_budget(u64::MAX);
                // Keep the node accounting: threat nodes so far count against the budget.
                self.nodes += used + vct_nodes;
                self.threats.set_budget(u64::MAX);
                if let Some(w) = r {
                    return Prepared::Decided(Outcome {
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
        if !self.generate(pos, 0, 0, usize::MAX) {
            out.best = Self::any_legal(pos);
            out.pv = out.best.into_iter().collect();
            out.nodes = self.nodes + self.threats.nodes();
            return Prepared::Decided(out);
        }
        let mut root: Vec<(u16, i32)> = self.heur.moves[0].clone();
        // (Refuting VCT threats the same way was tried and lost strength in self-play: the
        // checks eat the time budget and a depth-limited VCT misjudges quiet defences.)
        if self.cfg.root_defence && op_fives == 0 && root.len() > 1 {
            self.refute_opponent_threat(pos, &mut root);
        }
        Prepared::Search(root)
    }

    /// Iterative deepening over `root` (from [`Searcher::prepare`], in this thread or the
    /// main one). The main thread searches depths 1, 2, …; a helper ages its own heuristics
    /// first, odd helpers start at depth 2, and helpers do not stop early for want of time
    /// (the main thread decides that for the group).
    pub fn deepen(&mut self, pos: &mut Position, root: Vec<(u16, i32)>) -> Outcome {
        let mut root = root;
        let me = pos.to_move();
        let mut out = Outcome::default();
        if root.is_empty() {
            // Not from `prepare`; answer something legal rather than panic.
            out.best = Self::any_legal(pos);
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
        let first = if self.helper % 2 == 1 { 2 } else { 1 };
        for depth in first.min(self.cfg.max_depth.max(1))..=self.cfg.max_depth.max(1) {
            let mut alpha = -MATE;
            let beta = MATE;
            let mut best_score = -MATE;
            let mut best_move = root[0].0;
            let mut scores: Vec<(u16, i32)> = Vec::with_capacity(root.len());
            for (k, &(m, _)) in root.iter().enumerate() {
                let mi = m as usize;
                let makes_four = pos.threat(me, mi).is_four();
                let ext = self.cfg.extensions && makes_four;
                let nd = if ext { depth as i32 } else { depth as i32 - 1 };
                pos.play(mi);
                let score = if k == 0 {
                    -self.node(pos, nd, 1, -beta, -alpha)
                } else {
                    let mut s = -self.node(pos, nd, 1, -alpha - 1, -alpha);
                    if s > alpha && !self.stopped {
                        s = -self.node(pos, nd, 1, -beta, -alpha);
                    }
                    s
                };
                pos.undo();
                if self.stopped {
                    break;
                }
                scores.push((m, score));
                if score > best_score {
                    best_score = score;
                    best_move = m;
                    if score > alpha {
                        alpha = score;
                    }
                }
            }
            if self.stopped && scores.is_empty() {
                break;
            }
            // A partial iteration still improves the choice when its best beat the old one
            // (the old best move was searched first).
            out.best = Some(best_move as usize);
            out.score = best_score;
            if !self.stopped {
                out.depth = depth;
            }
            // Reorder: searched moves by score, unsearched keep their order.
            let searched = scores.len();
            scores.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let rest: Vec<(u16, i32)> = root[searched..].to_vec();
            root = scores;
            root.extend(rest);
            if self.stopped || forced || best_score.abs() > MATE_BOUND {
                break;
            }
            if let Some(t) = self.cfg.time {
                // The next iteration would likely not finish: stop now.
                if self.helper == 0 && self.start.elapsed() * 3 > t {
                    break;
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
        const BUDGET: u64 = 20_000;
        let me = pos.to_move();
        let deadline = self.cfg.time.map(|t| self.start + t / 3);
        let vcf_depth = self.cfg.root_vcf_depth.max(20);
        let probe = |s: &mut Searcher<'_>, pos: &mut Position| -> bool {
            s.threats.set_budget(BUDGET);
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
