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

    fn vcf_node(&mut self, pos: &mut Position, depth: u32, first: Option<&mut u16>) -> Option<u32> {
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

    fn vcf_node_dyn(&mut self, pos: &mut Position, depth: u32, _vcf_depth: u32) -> Option<u32> {
        self.vcf_node(pos, depth, None)
    }

    /// The attacker `a` has just played the four `m`: resolve the defender's forced reply.
    /// Returns the plies from the defender's move to the five.
    fn after_four(
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

    fn vct_node(
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
    fn quiet_threats(
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
    fn vcf_defences(&mut self, pos: &mut Position, vcf_depth: u32, out: &mut Vec<u16>) -> bool {
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
    fn push_lines_around(pos: &Position, idx: usize, out: &mut Vec<u16>) {
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

    /// The attacker `a` made a non-four threat; the defender (to move) tries every defence.
    fn defend(&mut self, pos: &mut Position, a: Color, depth: u32, vcf_depth: u32) -> Option<u32> {
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
    fn worst_defence(
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

impl Position {
    /// Whether `c`'s stone just played at `m` made a four (some line through it has a five point).
    #[must_use]
    pub fn threat_is_four_after(&self, c: Color, m: usize) -> bool {
        (0..4).any(|d| self.five_point_on_line(c, m, d).is_some())
    }
}
