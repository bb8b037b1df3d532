//! Iterative-deepening principal-variation alpha-beta over a [`Position`].
//!
//! Gomoku is a game of threats, so the search is built around them:
//! - **Forced nodes.** A five for the side to move wins at once; two opponent five points
//!   lose; one opponent five point leaves a single forced block (searched at the same depth);
//!   a legal open four (or 4-4 where allowed) wins in three. When the opponent threatens an
//!   open four (it has an open three), only the defences and the side's own fours are
//!   generated, and nothing at such a node is pruned or reduced.
//! - **Threat extensions.** Moves that make a four are searched one ply deeper (within a ply
//!   limit), so continuous-four wins are seen inside the main search.
//! - **Quiescence.** At depth 0 the side to move may stand pat on the static evaluation, play
//!   its own fours (a bounded VCF over the evaluation), must block a five, and must answer an
//!   open three; so no leaf is judged in the middle of a forcing sequence.
//! - **Selectivity** for quiet positions: reverse futility and null-move pruning, razoring,
//!   late-move (move-count) and futility pruning of quiet moves, and log-shaped late-move
//!   reductions, all disabled whenever the opponent has a threat to answer.
//! - **Ordering**: transposition-table move, then pattern scores (attack plus most of the
//!   defence value), killers, counter-moves and a history table with gravity.
//! - **Root**: aspiration windows, and time management that spends more time when the best
//!   move or the score is unstable and stops early when it is settled (see [`Config::soft`]).
//!
//! Lazy SMP: [`Searcher::prepare`] settles the root (forced moves, threat searches, the root
//! move list) once, in the main thread; then the main thread and any number of helpers (made
//! with [`Searcher::join_group`]) run [`Searcher::deepen`] on the same root over one shared
//! [`Table`], each with its own position, threat solver and heuristics. Helpers differ a little
//! (odd helpers start one ply deeper, every helper jitters its move order) so their trees
//! diverge and fill the table with results the others reuse.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::ai::eval::evaluate;
use crate::ai::params::{
    Params, EXTENSION_PLY_FACTOR, EXTENSION_PLY_SLACK, FOUR_THREE_VCF_DEPTH, FOUR_THREE_VCF_NODES,
    FUTILITY_BASE, HISTORY_BONUS, HISTORY_BONUS_MAX, LMR_CUT, LMR_HISTORY_DIV, LMR_KILLER,
    LMR_NOT_IMPROVING, LMR_NOT_QUIET, LMR_ONE, LMR_PV, NULL_MOVE_R, NULL_MOVE_R_DIV, ORDER_COUNTER,
    ORDER_HISTORY_DIV, ORDER_KILLER, ROOT_DEFENCE_BUDGET, ROOT_DEFENCE_TIME_DIV, ROOT_VCF_BUDGET,
    ROOT_VCF_TIME_DIV,
};
use crate::ai::position::{Position, Threat};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::{Bound, Table};
use crate::{Color, Rule, CELLS};

/// Score of a win on the board now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search goes, extensions and quiescence included.
pub const MAX_PLY: usize = 128;
/// Largest history value; updates move a value towards ±this ("gravity").
const HISTORY_MAX: i32 = 16_384;

/// What a search may use and do; the levels fill this in.
#[derive(Clone, Debug)]
pub struct Config {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Time budget: the search never runs longer (checked every 1024 nodes).
    pub time: Option<Duration>,
    /// Time target: iterative deepening stops once this much time is used and the best
    /// move is settled; up to [`Config::time`] when it is not. `None`: half of `time`.
    pub soft: Option<Duration>,
    /// Node budget (search nodes plus threat-search nodes).
    pub nodes: Option<u64>,
    /// Attacking moves allowed in the root VCF (0 = no root VCF).
    pub root_vcf_depth: u32,
    /// Attacking moves allowed in the root VCT (0 = none) and its node budget.
    pub root_vct: (u32, u64),
    /// Extend moves that make fours.
    pub extensions: bool,
    /// Selective search: pruning and reductions of quiet moves in quiet positions.
    pub selective: bool,
    /// At the root, answer an opponent's VCF threat only with moves that refute it.
    pub root_defence: bool,
    /// Moves searched at inner nodes, best-ordered first (0 = all).
    pub width: usize,
    /// Amplitude of the deterministic per-position evaluation noise (weaker levels).
    pub noise: i32,
    /// Seed for the noise.
    pub seed: u64,
    /// Tunable constants.
    pub params: Params,
    /// Root moves (padded indices) the search must not choose: multi-PV searches each line
    /// with the earlier lines' moves excluded. Empty for a normal search.
    pub exclude: Vec<u16>,
}

/// The outcome of [`Searcher::run`] or [`Searcher::deepen`].
#[derive(Clone, Debug, Default)]
pub struct ThreadResult {
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

/// Per-ply search state.
#[derive(Copy, Clone, Debug, Default)]
struct Frame {
    /// Static evaluation at this ply (for "improving").
    eval: i32,
    /// The best learned order value ([`Position::policy`]) among the candidates generated at
    /// this ply: the yardstick of the policy-driven reductions and pruning.
    top_policy: i32,
    /// The move played from this ply (0 = none yet, [`NULL_MOVE`] = a pass).
    mv: u16,
}

/// A pass in [`Frame::mv`] (no on-board point has this index).
const NULL_MOVE: u16 = u16::MAX;

/// Ordering state that persists across searches.
#[derive(Debug)]
pub struct Heuristics {
    /// `history[colour][point]`: how often a quiet move to the point caused a cutoff.
    history: Box<[[i32; CELLS]; 2]>,
    /// `counter[colour][previous move]`: the quiet reply that last refuted it.
    counter: Box<[[u16; CELLS]; 2]>,
    killers: [[u16; 2]; MAX_PLY + 1],
    frames: [Frame; MAX_PLY + 1],
    moves: Vec<Vec<(u16, i32)>>,
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

    fn age(&mut self) {
        self.history
            .iter_mut()
            .for_each(|h| h.iter_mut().for_each(|v| *v /= 2));
        self.killers = [[0; 2]; MAX_PLY + 1];
    }

    /// Moves `h` towards `bonus`'s sign, more slowly the closer it already is to the limit.
    fn nudge(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// What [`Searcher::prepare`] leaves to do.
#[derive(Clone, Debug)]
pub enum Prepared {
    /// The root settled the move (a five, a forced block, a threat-search win, no candidate).
    Decided(ThreadResult),
    /// Iterative deepening must choose among these root moves (padded index, order score),
    /// best-ordered first; never empty.
    Search(Vec<(u16, i32)>),
}

/// Master's time management between iterations: aim at the target, spend more while the
/// best move changes or the score drops, never pass the limit.
#[derive(Debug)]
struct Clock {
    limit: Duration,
    target: Duration,
    /// The target is the whole limit (a per-move clock with nothing to save for later
    /// moves): only a proven win ends the search before the limit; a forced answer or a
    /// proven loss searches on (see [`Searcher::deepen`]).
    whole: bool,
    /// Share of the target after which a settled search stops.
    settle: f64,
    /// Recent best-move changes, halved every iteration.
    instability: f64,
    last_score: Option<i32>,
}

impl Clock {
    fn new(limit: Duration, target: Duration, settle_percent: i32) -> Clock {
        Clock {
            limit,
            target: target.min(limit),
            whole: target >= limit,
            settle: f64::from(settle_percent.max(1)) / 100.0,
            instability: 0.0,
            last_score: None,
        }
    }

    /// After an iteration at `depth` that took the search to `elapsed`: whether to start the
    /// next one. A settled search stops past `settle` (70%) of the target; each recent change
    /// of the best move adds 80% more (fading by half per iteration), a score that fell by 30
    /// or more another 30%; the limit is never passed. A target equal to the limit deepens
    /// until the limit: a partial iteration still searches the best move first and can only
    /// replace it by a move that beats it.
    fn deepen_again(&mut self, elapsed: Duration, depth: u32, changed: bool, score: i32) -> bool {
        if self.whole {
            return elapsed < self.limit;
        }
        self.instability = self.instability / 2.0 + if changed { 1.0 } else { 0.0 };
        let mut factor = self.settle + 0.8 * self.instability;
        if depth > 4 && self.last_score.is_some_and(|s| score < s - 30) {
            factor *= 1.3;
        }
        self.last_score = Some(score);
        let stop = self.target.mul_f64(factor).min(self.limit);
        elapsed < stop
    }
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
    /// Deepest ply reached in the current iteration (selective depth).
    seldepth: usize,
    /// Late-move reductions from [`Config::params`].
    lmr: Box<[[i32; 64]; 64]>,
    /// The moves that could stop the opponent's VCF at the node being generated, one bit per
    /// padded index (see [`Params::four_three`]), and the list they are collected in.
    defences: [u64; CELLS.div_ceil(64)],
    defence_list: Vec<u16>,
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
/// only near-equal moves swap and each helper's tree differs from the main thread's.
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

/// Whether a score is a proven win or loss.
const fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
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
        let cfg_lmr = cfg.params.lmr_table();
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
            seldepth: 0,
            lmr: cfg_lmr,
            defences: [0; CELLS.div_ceil(64)],
            defence_list: Vec::with_capacity(64),
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

    fn static_eval(&self, pos: &mut Position) -> i32 {
        evaluate(pos) + self.noise(pos)
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

    /// [`Params::four_three`]: when the opponent (not to move) has a four-three point and the
    /// solver proves its VCF, fills [`Searcher::defences`] with every move that could stop
    /// it and returns true.
    fn four_three_defences(&mut self, pos: &mut Position) -> bool {
        let op = pos.to_move().other();
        let on = if pos.rule() == Rule::Renju {
            self.cfg.params.renju_four_three
        } else {
            self.cfg.params.four_three
        };
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
    fn generate(
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

    /// What every node of both searches does first: count itself, stop when asked, note the
    /// depth reached, score a decided position, narrow the window to the distance of the
    /// nearest possible mate, and stop at the ply cap. `Ok(window)` to search on with the
    /// narrowed `(alpha, beta)`, `Err(score)` to return at once.
    #[inline]
    fn enter(
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

    /// Quiescence: the side to move stands pat on the evaluation or plays one of its fours
    /// (at most `fours` more in a row); it must block an opponent's five, and it must answer
    /// an opponent's open three (by a defence or a four of its own) instead of standing pat.
    fn qsearch(
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
        let stand = self.static_eval(pos);
        let mut best = -MATE;
        if !threatened {
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
            if fours <= 0 || pos.four_moves(me) == 0 {
                return stand;
            }
        }
        // Own fours; and under threat, every point that stops the opponent's open four.
        let mut list = std::mem::take(&mut self.heur.moves[ply]);
        list.clear();
        let n = pos.points().len();
        for k in 0..n {
            let i = pos.points()[k] as usize;
            if !pos.is_empty(i) {
                continue;
            }
            let tm = pos.threat(me, i);
            let four = tm.is_four() && fours > 0;
            let block = threatened && pos.threat(op, i) >= Threat::Four;
            if four || block {
                let s = if tm.is_four() { 1 << 20 } else { 0 }
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
            pos.play(m);
            let s = -self.qsearch(pos, ply + 1, -beta, -alpha, fours - i32::from(is_four));
            pos.undo();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
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
        best
    }

    #[allow(clippy::too_many_lines)]
    fn node(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta, self.cfg.params.qs_fours);
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
                let cut_here = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut_here {
                    return s;
                }
            }
        }
        let forced = pos.count(op, Threat::Five) == 1;
        let threatened = !forced && Self::has_flex4(pos, op);
        // Against a four-three only its defences are searched, all of them in full.
        let restricted = !forced && !threatened && self.four_three_defences(pos);
        let eval = match entry {
            Some(e) if self.cfg.noise == 0 => i32::from(e.eval),
            _ => self.static_eval(pos),
        };
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
                let s = self.qsearch(pos, ply, alpha, alpha + 1, p.qs_fours);
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
        let fh_margin = if pos.rule() == Rule::Renju {
            p.renju_fh_margin
        } else {
            p.fh_margin
        };
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
        self.tt.store(
            hash,
            best_move,
            to_tt(best, ply),
            eval.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            depth.clamp(-1, 120) as i8,
            bound,
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_settled_search_stops_before_its_target() {
        let mut c = Clock::new(ms(1000), ms(600), 70);
        // Depth 1 always "changes" from the ordering's guess.
        assert!(c.deepen_again(ms(1), 1, true, 10));
        for d in 2..8 {
            assert!(c.deepen_again(ms(100), d, false, 10));
        }
        assert!(c.deepen_again(ms(400), 8, false, 10));
        assert!(!c.deepen_again(ms(430), 9, false, 10));
    }

    #[test]
    fn an_unsettled_search_goes_on_but_never_past_the_limit() {
        let mut c = Clock::new(ms(1000), ms(600), 70);
        assert!(c.deepen_again(ms(500), 5, true, 10));
        assert!(c.deepen_again(ms(700), 6, true, 10));
        assert!(!c.deepen_again(ms(1000), 7, true, 10));
        // A falling score buys time too.
        let mut d = Clock::new(ms(1000), ms(600), 70);
        assert!(d.deepen_again(ms(100), 5, false, 50));
        assert!(d.deepen_again(ms(450), 6, false, 0));
        let mut e = Clock::new(ms(1000), ms(600), 70);
        assert!(e.deepen_again(ms(100), 5, false, 50));
        assert!(!e.deepen_again(ms(450), 6, false, 50));
    }

    #[test]
    fn a_target_at_the_limit_uses_the_whole_limit() {
        let mut c = Clock::new(ms(1000), ms(1000), 70);
        assert!(c.deepen_again(ms(1), 1, true, 10));
        for d in 2..12 {
            assert!(c.deepen_again(ms(90 * u64::from(d)), d, false, 10));
        }
        assert!(c.deepen_again(ms(999), 12, false, 10));
        assert!(!c.deepen_again(ms(1000), 13, false, 10));
        // A target past the limit means the same.
        let mut d = Clock::new(ms(500), ms(2000), 70);
        assert!(d.deepen_again(ms(450), 9, false, 10));
    }
}
