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
//!   its own fours (a bounded VCF over the evaluation: any four first, then a chain of fours
//!   each near the one before), must block a five, and must answer an
//!   open three; so no leaf is judged in the middle of a forcing sequence. Its results go to
//!   the transposition table below every full-width entry, and come back from it.
//! - **Selectivity** for quiet positions: reverse futility and null-move pruning, razoring,
//!   late-move (move-count) and futility pruning of quiet moves, and log-shaped late-move
//!   reductions, all disabled whenever the opponent has a threat to answer.
//! - **Ordering**: transposition-table move, then pattern scores (attack plus most of the
//!   defence value), killers, counter-moves and a history table with gravity.
//! - **Correction history** (under renju): the static evaluation is corrected by the running
//!   mean of how far searches came out above it in positions of the same threat profile, plus
//!   half that of positions reached by the same last two moves.
//! - **Root**: aspiration windows, and time management that spends more time when the best
//!   move or the score is unstable and stops early when it is settled (see [`Config::soft`]).
//!
//! Lazy SMP: [`Searcher::prepare`] settles the root (forced moves, threat searches, the root
//! move list) once, in the main thread; then the main thread and any number of helpers (made
//! with [`Searcher::join_group`]) run [`Searcher::deepen`] on the same root over one shared
//! [`Table`], each with its own position, threat solver and heuristics. Helpers differ a little
//! (odd helpers start one ply deeper, every helper jitters its move order) so their trees
//! diverge and fill the table with results the others reuse.

//!
//! The parts, one file each:
//! - `mod.rs` (this file): [`Config`], [`ThreadResult`], [`Prepared`], [`Searcher`] and its
//!   bookkeeping (node counts, stopping, the evaluation with a level's noise);
//! - `movegen.rs`: move generation: the open-four check, the four-three defences that
//!   narrow a node's moves, the scored and ordered candidate list;
//! - `node.rs`: the search below the root: the forced checks and the principal-variation
//!   node with its pruning and reductions;
//! - `quiescence.rs`: the quiescence search at the leaves (fours, forced blocks, answers to
//!   an open three) and its use of the table;
//! - `root.rs`: the root: forced moves and threat searches before the deepening, the
//!   iterative deepening with its aspiration windows, the principal variation;
//! - `clock.rs`: the time management between iterations;
//! - `heuristics.rs`: the move-ordering state kept across searches (history,
//!   counter-moves, killers) and the per-ply frames.
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

use crate::ai::eval::evaluate_with_momentum;
use crate::ai::params::Params;
use crate::ai::position::{Position, Threat};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::Table;
use crate::{Color, CELLS};

mod clock;
mod heuristics;
mod movegen;
mod node;
mod quiescence;
mod root;

use clock::Clock;
pub use heuristics::Heuristics;
use heuristics::{CORR_GRAIN, CORR_SLOTS, NULL_MOVE};

/// Score of a win on the board now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search goes, extensions and quiescence included.
pub const MAX_PLY: usize = 128;

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

/// What [`Searcher::prepare`] leaves to do.
#[derive(Clone, Debug)]
pub enum Prepared {
    /// The root settled the move (a five, a forced block, a threat-search win, no candidate).
    Decided(ThreadResult),
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
        evaluate_with_momentum(pos, self.cfg.params.momentum) + self.noise(pos)
    }

    /// The correction-history slot of a position: the side to move and how many points make
    /// each kind of threat for either side (capped); `None` where its rule does not use the
    /// correction history.
    fn corr_slot(&self, pos: &Position) -> Option<usize> {
        if self.cfg.params.corr_hist_under(pos.rule()) == 0 {
            return None;
        }
        let me = pos.to_move();
        let mut key: u64 = me.index() as u64;
        for c in [me, me.other()] {
            for (t, cap) in [
                (Threat::Three, 7),
                (Threat::ThreeThree, 3),
                (Threat::Four, 7),
                (Threat::FourThree, 3),
                (Threat::Flex4, 3),
            ] {
                key = key * (cap + 1) + u64::from(pos.count(c, t)).min(cap);
            }
        }
        Some(Self::corr_index(0, me, key))
    }

    /// The entry of correction table `table` (0 threat profile, 1 move pair) for `me` to move
    /// that `key` hashes to.
    fn corr_index(table: usize, me: Color, key: u64) -> usize {
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CORR_SLOTS.trailing_zeros());
        (2 * table + me.index()) * CORR_SLOTS + mixed as usize
    }

    /// The pair table's slot of a position: the side to move and the points of the last two
    /// moves; `None` with fewer than two moves, after a pass, or where the rule does not use
    /// the pair table.
    fn pair_slot(&self, pos: &Position) -> Option<usize> {
        if self.cfg.params.pair_corr_under(pos.rule()) == 0 {
            return None;
        }
        let [.., before, last] = pos.history() else {
            return None;
        };
        let me = pos.to_move();
        if pos.board().cell(usize::from(*last)).color() != Some(me.other()) {
            return None;
        }
        let key = (u64::from(*last) << 16 | u64::from(*before)).wrapping_add(1);
        Some(Self::corr_index(1, me, key))
    }

    /// Both correction tables' slots of a position ([`Searcher::corr_slot`],
    /// [`Searcher::pair_slot`]).
    fn corr_slots(&self, pos: &Position) -> [Option<usize>; 2] {
        [self.corr_slot(pos), self.pair_slot(pos)]
    }

    /// The correction the correction history adds to a static evaluation at `pos`, whose
    /// slots are `slots` ([`Searcher::corr_slots`]): each table's entry weighted by its
    /// percentage.
    fn correction(&self, pos: &Position, slots: [Option<usize>; 2]) -> i32 {
        let weighted =
            |slot: Option<usize>, pct: i32| slot.map_or(0, |s| i32::from(self.heur.corr[s]) * pct);
        (weighted(slots[0], self.cfg.params.corr_hist_under(pos.rule()))
            + weighted(slots[1], self.cfg.params.pair_corr_under(pos.rule())))
            / (100 * CORR_GRAIN)
    }
}
