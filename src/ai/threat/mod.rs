//! Threat-space search: VCF (victory by continuous fours) and VCT (fours and open threes).
//!
//! Both are AND/OR searches over a [`Position`] for the side to move (the attacker):
//! - **VCF**: the attacker plays only moves that make a four; the defender's reply is forced
//!   (the single five point), unless the defender can make five first. A four that leaves two
//!   five points (open four, or 4-4 where allowed) wins at once.
//! - **VCT**: the attacker may also make open threes; the defender then tries every move that
//!   could stop the open four (the attacker's four points) and every four of its own.
//!
//! Renju is honoured on both sides: black's attacking moves must be legal (no forbidden
//! double-three / double-four / overline, checked with the referee when the patterns allow
//! it), a black three whose completing points are all forbidden is no threat, and when black
//! must defend on a point that is forbidden for black, white wins.
//!
//! Results go into a small table of their own keyed by position hash and search kind.

mod vcf;
mod vct;

use crate::ai::position::{Position, Threat};
use crate::Color;

const VCF_SALT: u64 = 0x5643_4600_0000_0001;
const VCT_SALT: u64 = 0x5643_5400_0000_0002;
/// Quiet VCF threats tried at the root of a VCT, and at its inner attacking nodes.
const QUIET_AT_ROOT: usize = usize::MAX;
const QUIET_INNER: usize = 16;

#[derive(Copy, Clone, Debug, Default)]
struct CacheEntry {
    key: u64,
    /// Winning plies (> 0) or 0 for "no win within `depth`".
    plies: u16,
    depth: u8,
}

/// VCF/VCT solver with its own cache. Reuse it across searches.
#[derive(Debug)]
pub struct ThreatSearch {
    cache: Vec<CacheEntry>,
    nodes: u64,
    budget: u64,
    deadline: Option<web_time::Instant>,
    aborted: bool,
    /// Reusable move buffers, one per recursion level, so the hot path does not allocate.
    buffers: Vec<Vec<u16>>,
}

impl Default for ThreatSearch {
    fn default() -> ThreatSearch {
        ThreatSearch::new(1 << 16)
    }
}

/// Outcome of a threat search for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// The first move (padded index).
    pub first: u16,
    /// Plies to the five, counting the first move and the five itself.
    pub plies: u32,
}

/// Runs `search`, which restores the position and never evaluates, without the learned
/// network's bookkeeping ([`Position::pause_net`]).
fn unmarked<R>(pos: &mut Position, search: impl FnOnce(&mut Position) -> R) -> R {
    let was = pos.pause_net();
    let r = search(pos);
    pos.resume_net(was);
    r
}

impl ThreatSearch {
    /// A solver whose cache holds `entries` results (rounded up to a power of two).
    #[must_use]
    pub fn new(entries: usize) -> ThreatSearch {
        let n = entries.next_power_of_two().max(1024);
        ThreatSearch {
            cache: vec![CacheEntry::default(); n],
            nodes: 0,
            budget: u64::MAX,
            deadline: None,
            aborted: false,
            buffers: Vec::new(),
        }
    }

    /// Forgets cached results.
    pub fn clear(&mut self) {
        self.cache.fill(CacheEntry::default());
    }

    /// Nodes visited since the last [`ThreatSearch::set_budget`].
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Limits the next searches to `nodes` nodes in total (a search that runs out reports no
    /// win and caches nothing it could not prove).
    pub fn set_budget(&mut self, nodes: u64) {
        self.nodes = 0;
        self.budget = nodes;
        self.deadline = None;
        self.aborted = false;
    }

    /// Also stops the next searches at `deadline` (checked every 256 nodes); cleared by
    /// [`ThreatSearch::set_budget`].
    pub fn set_deadline(&mut self, deadline: web_time::Instant) {
        self.deadline = Some(deadline);
    }

    /// Whether the budget ran out.
    #[must_use]
    pub const fn aborted(&self) -> bool {
        self.aborted
    }

    fn lookup(&self, key: u64, depth: u32) -> Option<Option<u32>> {
        let e = &self.cache[key as usize & (self.cache.len() - 1)];
        if e.key != key {
            return None;
        }
        if e.plies > 0 {
            Some(Some(u32::from(e.plies)))
        } else if u32::from(e.depth) >= depth {
            Some(None)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, depth: u32, result: Option<u32>) {
        if self.aborted {
            return;
        }
        let len = self.cache.len();
        let e = &mut self.cache[key as usize & (len - 1)];
        *e = CacheEntry {
            key,
            plies: result.map_or(0, |p| p.min(u32::from(u16::MAX)) as u16),
            depth: depth.min(255) as u8,
        };
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        }
        if self.nodes & 255 == 0 {
            if let Some(d) = self.deadline {
                if web_time::Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn take_buffer(&mut self) -> Vec<u16> {
        self.buffers.pop().unwrap_or_else(|| Vec::with_capacity(64))
    }

    fn give_buffer(&mut self, mut b: Vec<u16>) {
        b.clear();
        self.buffers.push(b);
    }

    /// Searches a VCF for the side to move with at most `depth` attacking moves.
    pub fn vcf(&mut self, pos: &mut Position, depth: u32) -> Option<ThreatWin> {
        let mut first = 0;
        unmarked(pos, |pos| self.vcf_node(pos, depth, Some(&mut first)))
            .map(|plies| ThreatWin { first, plies })
    }

    /// Searches a VCT for the side to move with at most `depth` attacking moves, trying VCF
    /// (with `vcf_depth`) first at every attacking node.
    pub fn vct(&mut self, pos: &mut Position, depth: u32, vcf_depth: u32) -> Option<ThreatWin> {
        let mut first = 0;
        unmarked(pos, |pos| {
            self.deepening(depth, |s, d| {
                s.vct_node(pos, d, vcf_depth, Some(&mut first))
            })
        })
        .map(|plies| ThreatWin { first, plies })
    }

    /// Runs `search` at depth 1, 2, … `depth` until it proves a win or the budget runs out.
    /// Short proofs are found before the budget sinks into deep failing lines, and failures
    /// cached at one depth prune the next.
    fn deepening(
        &mut self,
        depth: u32,
        mut search: impl FnMut(&mut ThreatSearch, u32) -> Option<u32>,
    ) -> Option<u32> {
        for d in 1..=depth {
            let r = search(self, d);
            if r.is_some() || self.aborted {
                return r;
            }
        }
        None
    }

    /// Whether the side to move, playing `m` (a padded index), wins by continuous fours within
    /// `depth` attacking moves (counting `m`). Returns the plies to the five.
    pub fn vcf_after(&mut self, pos: &mut Position, m: usize, depth: u32) -> Option<u32> {
        unmarked(pos, |pos| self.vcf_after_unmarked(pos, m, depth))
    }

    fn vcf_after_unmarked(&mut self, pos: &mut Position, m: usize, depth: u32) -> Option<u32> {
        let a = pos.to_move();
        if !pos.is_empty(m) || !pos.is_legal(a, m) || depth == 0 {
            return None;
        }
        if pos.threat(a, m) == Threat::Five {
            return Some(1);
        }
        pos.play(m);
        let r = if pos.threat_is_four_after(a, m) {
            self.after_four(pos, a, m, depth, 0, Self::vcf_node_dyn)
        } else {
            None
        };
        pos.undo();
        r.map(|p| p + 1)
    }

    /// Whether the side to move, playing `m`, wins by fours and threes within `depth`
    /// attacking moves against every defence this solver considers.
    pub fn vct_after(
        &mut self,
        pos: &mut Position,
        m: usize,
        depth: u32,
        vcf_depth: u32,
    ) -> Option<u32> {
        unmarked(pos, |pos| self.vct_after_unmarked(pos, m, depth, vcf_depth))
    }

    fn vct_after_unmarked(
        &mut self,
        pos: &mut Position,
        m: usize,
        depth: u32,
        vcf_depth: u32,
    ) -> Option<u32> {
        let a = pos.to_move();
        if !pos.is_empty(m) || !pos.is_legal(a, m) || depth == 0 {
            return None;
        }
        if pos.threat(a, m) == Threat::Five {
            return Some(1);
        }
        pos.play(m);
        let four = pos.threat_is_four_after(a, m);
        let r = self.deepening(depth, |s, d| {
            if four {
                s.after_four(pos, a, m, d, vcf_depth, |s, p, dep, vd| {
                    s.vct_node(p, dep, vd, None)
                })
            } else {
                s.defend(pos, a, d - 1, vcf_depth)
            }
        });
        pos.undo();
        r.map(|p| p + 1)
    }

    /// Every move that could stop a VCF of the side *not* to move, found within `depth`
    /// attacking moves and `nodes` threat nodes, into `out` (with duplicates); false when no
    /// such VCF was proven, and then `out` means nothing. Any defence that refutes the VCF is
    /// in the set (see `vcf_defences`), so a search may drop every other move of the side to
    /// move. The solver's own budget and deadline are left as they were.
    pub fn defences_against_vcf(
        &mut self,
        pos: &mut Position,
        depth: u32,
        nodes: u64,
        out: &mut Vec<u16>,
    ) -> bool {
        let saved = (self.budget, self.deadline, self.aborted);
        self.budget = self.nodes.saturating_add(nodes);
        self.deadline = None;
        self.aborted = false;
        pos.flip_side();
        let won = unmarked(pos, |pos| self.vcf_defences(pos, depth, out));
        pos.flip_side();
        let proven = won && !self.aborted;
        (self.budget, self.deadline, self.aborted) = saved;
        proven
    }

    /// The defender's five point the attacker must block, or `Err(())` if the defender has two.
    fn must_block(pos: &Position, d: Color) -> Result<Option<usize>, ()> {
        match pos.count(d, Threat::Five) {
            0 => Ok(None),
            1 => Ok(pos.find(d, Threat::Five)),
            _ => Err(()),
        }
    }
}

impl Position {
    /// Whether `c`'s stone just played at `m` made a four (some line through it has a five point).
    #[must_use]
    pub fn threat_is_four_after(&self, c: Color, m: usize) -> bool {
        (0..4).any(|d| self.five_point_on_line(c, m, d).is_some())
    }
}
