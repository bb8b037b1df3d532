//! The search's board: stones plus incrementally maintained line patterns.
//!
//! [`Position`] owns a [`Board`] and, for every point, a 20-bit key per direction describing
//! the ten neighbours along that line. Placing or removing a stone touches only the cells
//! within ±5 along the four lines through it (40 cells), and for each of those re-reads the
//! pattern table for both colours, re-derives the point's [`Threat`] class and score, and
//! adjusts per-colour score sums and per-class counts. The counts make questions such as
//! "does the side to move have a five?" O(1) at every node.

use crate::ai::net::{net, Accumulators, CELL_WORDS};
use crate::ai::pattern::{tables, weight, KeyTable, Neighbour, Pattern};
use crate::ai::weights::{combo_key, combo_patterns, ranks, weights, Weights, COMBOS};
use crate::{Board, Cell, Color, Point, Rule, CELLS, DIRECTIONS};

/// What one move would achieve for one colour, combining its four line patterns.
///
/// Ordered by force for the search's purposes: everything from [`Threat::Four`] up makes at
/// least one four.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    #[default]
    None = 0,
    /// Makes an open three (threatens an open four).
    Three,
    /// Makes two open threes at once (3-3).
    ThreeThree,
    /// Makes a four: the opponent must answer on one point.
    Four,
    /// Makes a four and an open three at once (4-3).
    FourThree,
    /// Makes an open four or two fours (4-4): wins next move unless the opponent has five.
    Flex4,
    /// Makes five.
    Five,
}

/// Number of [`Threat`] classes.
pub const THREATS: usize = 7;

impl Threat {
    /// Whether the move makes at least one four.
    #[must_use]
    pub const fn is_four(self) -> bool {
        matches!(self, Threat::Four | Threat::FourThree | Threat::Flex4)
    }
}

/// Value of each line pattern for the colour that would play there, in evaluation units.
const PATTERN_SCORE: [i32; 12] = [0, 0, 2, 5, 10, 26, 30, 80, 90, 500, 500, 3000];

/// What four line patterns add up to.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Combo {
    threat: Threat,
    /// Black under renju: the patterns allow a forbidden move here (the referee decides).
    maybe_forbidden: bool,
    /// Move-ordering value.
    score: i16,
    /// Evaluation weight of the combination for its colour, waiting and to move.
    w: [i16; 2],
    /// Move-ordering value of the combination for its colour, waiting and to move.
    pol: [i16; 2],
}

/// Combines four line patterns; `renju_black` when the colour has forbidden moves.
fn combine(patterns: [Pattern; 4], renju_black: bool) -> Combo {
    let mut fours = 0;
    let mut flex4 = false;
    let mut threes = 0;
    let mut five = false;
    let mut overline = false;
    let mut score = 0;
    for p in patterns {
        score += PATTERN_SCORE[p as usize];
        match p {
            Pattern::Five => five = true,
            Pattern::FourFour => fours += 2,
            Pattern::F4 => {
                fours += 1;
                flex4 = true;
            }
            Pattern::B4 => fours += 1,
            Pattern::F3 => threes += 1,
            Pattern::Overline => overline = true,
            _ => {}
        }
    }
    let maybe_forbidden = renju_black && !five && (overline || fours >= 2 || threes >= 2);
    let threat = if five {
        Threat::Five
    } else if flex4 || (fours >= 2 && !renju_black) {
        Threat::Flex4
    } else if fours >= 1 && threes >= 1 {
        Threat::FourThree
    } else if fours >= 1 {
        Threat::Four
    } else if threes >= 2 {
        Threat::ThreeThree
    } else if threes == 1 {
        Threat::Three
    } else {
        Threat::None
    };
    score += match threat {
        Threat::Flex4 => 1500,
        Threat::FourThree => 800,
        Threat::ThreeThree => 400,
        _ => 0,
    };
    if maybe_forbidden {
        // Black cannot count on a point it may not play.
        score = 0;
    }
    Combo {
        threat,
        maybe_forbidden,
        score: i16::try_from(score).expect("at most 4 x 3000 + 1500"),
        w: [0; 2],
        pol: [0; 2],
    }
}

/// What one step of direction `d`'s pattern adds to [`combo_key`].
const COMBO_KEY_STEP: [u16; 4] = [1728, 144, 12, 1];

/// Every combination of four patterns by rank ([`combo_patterns`]), per rule and colour, with
/// the rule's weights. Indexed by rank rather than by the ordered patterns, the two tables
/// take 2 × 16 KiB instead of 2 × 243 KiB, so they stay in the cache beside [`ranks`].
fn combo_tables(rule: Rule) -> &'static [Vec<Combo>; 2] {
    static TABLES: [std::sync::OnceLock<[Vec<Combo>; 2]>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    let slot = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
    };
    TABLES[slot].get_or_init(|| {
        let w = weights(rule);
        Color::ALL.map(|c| {
            let renju_black = rule.has_forbidden(c);
            (0..COMBOS)
                .map(|r| {
                    let mut combo = combine(combo_patterns(r), renju_black);
                    combo.w = [w.cell[c.index()][0][r], w.cell[c.index()][1][r]];
                    combo.pol = [w.policy[c.index()][0][r], w.policy[c.index()][1][r]];
                    combo
                })
                .collect()
        })
    })
}

/// The pattern-sum move-ordering value of a combination for a colour with (`renju_black`)
/// or without forbidden moves, and its threat class.
#[must_use]
pub fn combo_score(patterns: [Pattern; 4], renju_black: bool) -> (i32, Threat, bool) {
    let c = combine(patterns, renju_black);
    (i32::from(c.score), c.threat, c.maybe_forbidden)
}

/// Per-cell cache for one colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct CellInfo {
    patterns: [Pattern; 4],
    /// [`combo_key`] of `patterns`, kept up to date with them.
    key: u16,
    /// What the four patterns add up to: a copy of the combination table's entry, so readers
    /// need no second lookup and a changed line costs one load and one store.
    combo: Combo,
}

/// What black's forbidden empty points hold (see [`Position::forbidden_black`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ForbiddenPoints {
    /// How many there are.
    pub points: i32,
    /// Black's evaluation weights summed over them, waiting and to move.
    pub w: [i32; 2],
    /// How many of them hold each [`Threat`] class for black.
    pub threats: [u32; THREATS],
}

/// Board + incremental pattern state; see the module docs.
#[derive(Clone)]
pub struct Position {
    board: Board,
    rule: Rule,
    to_move: Color,
    /// Line-pattern table per colour (exactly-five or five-or-more).
    pats: [&'static KeyTable; 2],
    /// Pattern-combination table per colour (black's differs under renju).
    combos: [&'static [Combo]; 2],
    /// Combination rank of each ordered four patterns ([`combo_key`]).
    ranks: &'static [u16; 12 * 12 * 12 * 12],
    weights: &'static Weights,
    /// `keys[colour][d][idx]`: base-3 key of the neighbours of `idx` along direction `d`, as
    /// seen by `colour`.
    keys: Box<[[[u16; CELLS]; 4]; 2]>,
    info: Box<[[CellInfo; CELLS]; 2]>,
    /// `wsum[colour][to_move]`: the colour's evaluation weights summed over empty points.
    wsum: [[i32; 2]; 2],
    threat_count: [[u16; THREATS]; 2],
    /// Black's empty points whose patterns allow a forbidden move (renju), one bit per padded
    /// index, and how many there are.
    maybe_forbidden: Box<[u64; CELLS.div_ceil(64)]>,
    maybe_forbidden_count: u16,
    /// Stones within the 5×5 square around each cell: a candidate move has one.
    near: Box<[u8; CELLS]>,
    /// On-board padded indices, row-major.
    points: Vec<u16>,
    history: Vec<u16>,
    /// What each move in `history` changed, for [`Position::undo`]: the sums before it and
    /// its first entry in `journal`.
    frames: Vec<Frame>,
    /// Every (cell, colour) record a move replaced, with its old value.
    journal: Vec<Replaced>,
    /// The learned evaluation's state, when a network is installed for the rule
    /// ([`crate::ai::net`]).
    net: Option<Accumulators>,
}

/// The running sums before a move (see [`Position::undo`]).
#[derive(Copy, Clone, Debug)]
struct Frame {
    journal: usize,
    wsum: [[i32; 2]; 2],
    threat_count: [[u16; THREATS]; 2],
}

/// A cell record as it was before a move changed it.
#[derive(Copy, Clone, Debug)]
struct Replaced {
    cell: u16,
    colour: u8,
    info: CellInfo,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("rule", &self.rule)
            .field("to_move", &self.to_move)
            .field("board", &self.board)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Position {
    /// Compares everything the incremental updates maintain (for from-scratch checks).
    fn eq(&self, other: &Position) -> bool {
        let empty_info_eq = self.points.iter().all(|&i| {
            let i = i as usize;
            self.board.cell(i) != Cell::Empty
                || (self.info[0][i] == other.info[0][i] && self.info[1][i] == other.info[1][i])
        });
        self.board == other.board
            && self.board.hash() == other.board.hash()
            && self.rule == other.rule
            && self.to_move == other.to_move
            && self.keys[..] == other.keys[..]
            && empty_info_eq
            && self.wsum == other.wsum
            && self.threat_count == other.threat_count
            && self.maybe_forbidden[..] == other.maybe_forbidden[..]
            && self.maybe_forbidden_count == other.maybe_forbidden_count
            && self.near[..] == other.near[..]
    }
}

impl Position {
    /// Builds the state from scratch for `board` under `rule` with `to_move` to play.
    #[must_use]
    pub fn new(board: &Board, rule: Rule, to_move: Color) -> Position {
        let points: Vec<u16> = Point::all(board.size())
            .map(|p| Board::index_of(p) as u16)
            .collect();
        let mut pos = Position {
            board: board.clone(),
            rule,
            to_move,
            pats: Color::ALL.map(|c| tables().table(rule.exact_five(c))),
            combos: {
                let t = combo_tables(rule);
                [&t[0][..], &t[1][..]]
            },
            ranks: ranks(),
            weights: weights(rule),
            keys: Box::new([[[0; CELLS]; 4]; 2]),
            info: Box::new([[CellInfo::default(); CELLS]; 2]),
            wsum: [[0; 2]; 2],
            threat_count: [[0; THREATS]; 2],
            maybe_forbidden: Box::new([0; CELLS.div_ceil(64)]),
            maybe_forbidden_count: 0,
            near: Box::new([0; CELLS]),
            points,
            history: Vec::with_capacity(400),
            frames: Vec::with_capacity(400),
            journal: Vec::with_capacity(4096),
            net: None,
        };
        pos.rebuild();
        pos
    }

    fn rebuild(&mut self) {
        self.net = net(self.rule).map(|n| Accumulators::new(n, &self.points));
        let cells = *self.board.cells();
        for c in Color::ALL {
            for (d, &step) in DIRECTIONS.iter().enumerate() {
                for &i in &self.points {
                    let i = i as usize;
                    let mut key = 0;
                    for off in [-5i32, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                        let j = (i as isize + off as isize * step) as usize;
                        key += neighbour(cells[j], c) as u16 * weight(off);
                    }
                    self.keys[c.index()][d][i] = key;
                }
            }
        }
        self.wsum = [[0; 2]; 2];
        self.threat_count = [[0; THREATS]; 2];
        self.maybe_forbidden.fill(0);
        self.maybe_forbidden_count = 0;
        self.near.fill(0);
        for k in 0..self.points.len() {
            let i = self.points[k] as usize;
            if cells[i] == Cell::Empty {
                for c in Color::ALL {
                    let mut info = CellInfo::default();
                    for d in 0..4 {
                        info.patterns[d] = self.pattern_from_key(c, self.keys[c.index()][d][i]);
                    }
                    self.finish_info(c, &mut info);
                    self.info[c.index()][i] = info;
                    self.add_info(c, i, 1);
                }
            } else {
                self.bump_near(i, 1);
            }
        }
    }

    #[inline]
    fn pattern_from_key(&self, c: Color, key: u16) -> Pattern {
        self.pats[c.index()][usize::from(key)]
    }

    #[inline]
    fn finish_info(&self, c: Color, info: &mut CellInfo) {
        info.key = combo_key(info.patterns);
        info.combo = self.combos[c.index()][usize::from(self.ranks[usize::from(info.key)])];
    }

    #[inline]
    fn add_info(&mut self, c: Color, i: usize, sign: i32) {
        let info = &self.info[c.index()][i].combo;
        self.wsum[c.index()][0] += sign * i32::from(info.w[0]);
        self.wsum[c.index()][1] += sign * i32::from(info.w[1]);
        let maybe_forbidden = info.maybe_forbidden;
        let t = &mut self.threat_count[c.index()][info.threat as usize];
        if sign > 0 {
            *t += 1;
        } else {
            *t -= 1;
        }
        if maybe_forbidden {
            self.mark_maybe_forbidden(i, sign > 0);
        }
    }

    /// Sets or clears `i` in the set of black's maybe-forbidden points.
    #[inline]
    fn mark_maybe_forbidden(&mut self, i: usize, on: bool) {
        let bit = 1u64 << (i % 64);
        if on {
            self.maybe_forbidden[i / 64] |= bit;
            self.maybe_forbidden_count += 1;
        } else {
            self.maybe_forbidden[i / 64] &= !bit;
            self.maybe_forbidden_count -= 1;
        }
    }

    fn bump_near(&mut self, i: usize, delta: i8) {
        const S: isize = crate::STRIDE as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let j = (i as isize + dy * S + dx) as usize;
                self.near[j] = self.near[j].wrapping_add_signed(delta);
            }
        }
    }

    /// Plays `idx` (a padded index of an empty point) for the side to move.
    ///
    /// # Panics
    /// In debug builds, if the point is not empty.
    pub fn play(&mut self, idx: usize) {
        let c = self.to_move;
        debug_assert_eq!(self.board.cell(idx), Cell::Empty);
        self.frames.push(Frame {
            journal: self.journal.len(),
            wsum: self.wsum,
            threat_count: self.threat_count,
        });
        for col in Color::ALL {
            self.add_info(col, idx, -1);
        }
        self.board.place(Board::point_of(idx), c);
        self.bump_near(idx, 1);
        self.update_lines::<true>(idx, c);
        self.history.push(idx as u16);
        self.to_move = c.other();
    }

    /// Takes back the last move.
    ///
    /// # Panics
    /// If no move was played through [`Position::play`].
    pub fn undo(&mut self) {
        let idx = self.history.pop().expect("undo without a move") as usize;
        let frame = self.frames.pop().expect("a frame per move");
        let c = self
            .board
            .cell(idx)
            .color()
            .expect("undo of an empty point");
        self.board.remove(Board::point_of(idx));
        self.bump_near(idx, -1);
        self.update_lines::<false>(idx, c);
        // The records the move replaced come back as they were; `idx`'s own records were not
        // touched while it held a stone, and the sums come from the frame.
        while self.journal.len() > frame.journal {
            let r = self.journal.pop().expect("longer than the frame's start");
            let (ci, j) = (usize::from(r.colour), usize::from(r.cell));
            let was_maybe_forbidden = self.info[ci][j].combo.maybe_forbidden;
            self.info[ci][j] = r.info;
            if r.info.combo.maybe_forbidden != was_maybe_forbidden {
                self.mark_maybe_forbidden(j, r.info.combo.maybe_forbidden);
            }
        }
        if self.info[0][idx].combo.maybe_forbidden {
            self.mark_maybe_forbidden(idx, true);
        }
        self.wsum = frame.wsum;
        self.threat_count = frame.threat_count;
        self.to_move = self.to_move.other();
    }

    /// Passes the turn without a stone (used by threat searches to ask "what if I do nothing").
    pub fn flip_side(&mut self) {
        self.to_move = self.to_move.other();
    }

    /// Moves the keys of the 40 points on `idx`'s lines for a stone of `stone` placed there
    /// (`PLAY`) or taken away; when placed, re-reads the empty points' patterns.
    ///
    /// A stone is Own for its colour and Blocked for the other; it moves each neighbour's key
    /// by its state times the weight of its offset from that neighbour, down when taken back
    /// (in wrapping arithmetic: keys never leave 0..3^10). An undo restores the records from
    /// the journal instead of re-reading them.
    fn update_lines<const PLAY: bool>(&mut self, idx: usize, stone: Color) {
        let (own, other) = (stone.index(), stone.other().index());
        let sign = if PLAY { 1u16 } else { u16::MAX };
        if let Some(net) = &mut self.net {
            net.mark_lines(idx, &self.board);
        }
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for off in [-5isize, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                let j = idx.wrapping_add_signed(off * step);
                let cell = self.board.cell(j);
                if cell == Cell::Wall {
                    continue;
                }
                let w = weight(-off as i32).wrapping_mul(sign);
                let keys = &mut self.keys;
                keys[own][d][j] = keys[own][d][j].wrapping_add(w * Neighbour::Own as u16);
                keys[other][d][j] =
                    keys[other][d][j].wrapping_add(w.wrapping_mul(Neighbour::Blocked as u16));
                if PLAY && cell == Cell::Empty {
                    self.refresh(j, d);
                }
            }
        }
    }

    #[inline]
    fn refresh(&mut self, j: usize, d: usize) {
        for c in Color::ALL {
            let ci = c.index();
            let p = self.pattern_from_key(c, self.keys[ci][d][j]);
            let info = &mut self.info[ci][j];
            let was = info.patterns[d];
            if was == p {
                continue;
            }
            self.journal.push(Replaced {
                cell: j as u16,
                colour: ci as u8,
                info: *info,
            });
            info.patterns[d] = p;
            info.key = info.key.wrapping_add(
                (p as u16)
                    .wrapping_sub(was as u16)
                    .wrapping_mul(COMBO_KEY_STEP[d]),
            );
            let new = self.combos[ci][usize::from(self.ranks[usize::from(info.key)])];
            let old = std::mem::replace(&mut info.combo, new);
            // The same as removing the old info and adding the new, with fewer writes.
            self.wsum[ci][0] += i32::from(new.w[0]) - i32::from(old.w[0]);
            self.wsum[ci][1] += i32::from(new.w[1]) - i32::from(old.w[1]);
            if new.threat != old.threat {
                self.threat_count[ci][old.threat as usize] -= 1;
                self.threat_count[ci][new.threat as usize] += 1;
            }
            if new.maybe_forbidden != old.maybe_forbidden {
                self.mark_maybe_forbidden(j, new.maybe_forbidden);
            }
        }
    }

    /// The stones.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule.
    #[must_use]
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// Zobrist hash of the stones and the side to move.
    #[must_use]
    pub fn hash(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.hash(),
            Color::White => self.board.hash() ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Moves played since construction, as padded indices.
    #[must_use]
    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// On-board padded indices, row-major.
    #[must_use]
    pub fn points(&self) -> &[u16] {
        &self.points
    }

    /// Whether the padded index is an empty on-board point.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, idx: usize) -> bool {
        self.board.cell(idx) == Cell::Empty
    }

    /// Whether the empty point has a stone within two rows and columns.
    #[inline]
    #[must_use]
    pub fn is_near(&self, idx: usize) -> bool {
        self.near[idx] > 0
    }

    /// What `c` would make by playing the empty point `idx` (stale for occupied points).
    #[inline]
    #[must_use]
    pub fn threat(&self, c: Color, idx: usize) -> Threat {
        self.info[c.index()][idx].combo.threat
    }

    /// The line pattern `c` would make at `idx` along direction `d` (index into [`DIRECTIONS`]).
    #[inline]
    #[must_use]
    pub fn pattern(&self, c: Color, idx: usize, d: usize) -> Pattern {
        self.info[c.index()][idx].patterns[d]
    }

    /// The base-3 key of the ten neighbours of `idx` along direction `d` as `c` sees them
    /// (empty, own, blocked; see [`crate::ai::pattern::weight`]).
    #[inline]
    #[must_use]
    pub fn line_key(&self, c: Color, d: usize, idx: usize) -> u16 {
        self.keys[c.index()][d][idx]
    }

    /// The potential score of the empty point `idx` for `c`.
    ///
    /// This is one of the engine's two move orders, on purpose. The main search orders its
    /// quiet and threat moves by [`Position::policy`], fitted to the moves self-play chose
    /// among every candidate. The forcing searches (the quiescence search's fours and blocks,
    /// the VCF/VCT solver's fours, threes and quiet threats) rank a handful of forcing moves
    /// by what each makes for both sides, which is this score (the evaluation's combination
    /// value of the point); the policy was not fitted to those lists.
    #[inline]
    #[must_use]
    pub fn cell_score(&self, c: Color, idx: usize) -> i32 {
        i32::from(self.info[c.index()][idx].combo.score)
    }

    /// The learned move-ordering value of the empty point `idx` for the side to move: its own
    /// combination there plus the opponent's (see [`crate::ai::eval::Weights::policy`]).
    #[inline]
    #[must_use]
    pub fn policy(&self, idx: usize) -> i32 {
        let me = self.to_move.index();
        i32::from(self.info[me][idx].combo.pol[1]) + i32::from(self.info[1 - me][idx].combo.pol[0])
    }

    /// The evaluation weights of `c`'s combinations summed over the empty points, as if `c`
    /// were to move (`to_move`) or waiting.
    #[inline]
    #[must_use]
    pub fn weight_sum(&self, c: Color, to_move: bool) -> i32 {
        self.wsum[c.index()][usize::from(to_move)]
    }

    /// The evaluation tables of this position's rule.
    #[inline]
    #[must_use]
    pub fn weights(&self) -> &'static Weights {
        self.weights
    }

    /// How many empty points give `c` exactly the class `t`.
    #[inline]
    #[must_use]
    pub fn count(&self, c: Color, t: Threat) -> u32 {
        u32::from(self.threat_count[c.index()][t as usize])
    }

    /// How many empty points give `c` a four or better (not counting fives).
    #[must_use]
    pub fn four_moves(&self, c: Color) -> u32 {
        self.count(c, Threat::Four)
            + self.count(c, Threat::FourThree)
            + self.count(c, Threat::Flex4)
    }

    /// The first empty point (in row-major order) where `c` makes the threat `t`.
    #[must_use]
    pub fn find(&self, c: Color, t: Threat) -> Option<usize> {
        if self.count(c, t) == 0 {
            return None;
        }
        self.points
            .iter()
            .map(|&i| i as usize)
            .find(|&i| self.is_empty(i) && self.threat(c, i) == t)
    }

    /// Whether the patterns allow black's move at `idx` to be forbidden (renju only).
    #[inline]
    #[must_use]
    pub fn maybe_forbidden(&self, idx: usize) -> bool {
        self.info[0][idx].combo.maybe_forbidden
    }

    /// Black's forbidden empty points under renju (the referee asked only where the patterns
    /// allow one), summed up for the evaluation: a shape that black can only complete through
    /// such a point is dead.
    pub fn forbidden_black(&mut self) -> ForbiddenPoints {
        self.forbidden_black_into(None)
    }

    /// [`Position::forbidden_black`], also setting the points' bits in `cells` (one bit per
    /// padded index).
    pub fn forbidden_black_cells(&mut self, cells: &mut [u64; CELL_WORDS]) -> ForbiddenPoints {
        self.forbidden_black_into(Some(cells))
    }

    fn forbidden_black_into(
        &mut self,
        mut cells: Option<&mut [u64; CELL_WORDS]>,
    ) -> ForbiddenPoints {
        let mut out = ForbiddenPoints::default();
        if self.maybe_forbidden_count == 0 {
            return out;
        }
        for word in 0..self.maybe_forbidden.len() {
            let mut bits = self.maybe_forbidden[word];
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if crate::forbidden_at(&mut self.board, Board::point_of(i)).is_some() {
                    let info = &self.info[0][i].combo;
                    if let Some(cells) = cells.as_deref_mut() {
                        cells[word] |= 1 << (i % 64);
                    }
                    out.points += 1;
                    out.w[0] += i32::from(info.w[0]);
                    out.w[1] += i32::from(info.w[1]);
                    out.threats[info.threat as usize] += 1;
                }
            }
        }
        out
    }

    /// Whether a learned network evaluates this position ([`crate::ai::net`]).
    #[inline]
    #[must_use]
    pub fn has_net(&self) -> bool {
        self.net.is_some()
    }

    /// Stops the network's bookkeeping until [`Position::resume_net`] gets the returned
    /// value back: for searches that never evaluate and leave the position as they found it
    /// (the threat searches), whose moves then cost the network nothing.
    pub fn pause_net(&mut self) -> bool {
        self.net
            .as_mut()
            .is_some_and(|n| std::mem::replace(&mut n.paused, true))
    }

    /// Ends a [`Position::pause_net`]; the position must be as it was then.
    pub fn resume_net(&mut self, was: bool) {
        if let Some(n) = self.net.as_mut() {
            n.paused = was;
        }
    }

    /// Evaluates with `net` from now on, whatever is installed for the rule (tests and tools
    /// that must not touch the process-wide networks of [`crate::ai::net::install_net`]).
    pub fn use_net(&mut self, net: &'static crate::ai::net::Net) {
        self.net = Some(Accumulators::new(net, &self.points));
    }

    /// The network's logit of the side to move's result, given the position's threat mask
    /// and black's forbidden points (a bit set, see [`Position::forbidden_black_cells`]), and whether it
    /// corrects the tables' evaluation ([`crate::ai::net::Net::residual`]); `None` without a
    /// network.
    pub fn net_value(&mut self, mask: usize, dead: &[u64; CELL_WORDS]) -> Option<(f32, bool)> {
        let p = self.to_move.index();
        let net = self.net.as_mut()?;
        Some(net.value(p, &self.keys, &self.board, mask, dead))
    }

    /// Whether `c` may legally play the empty point `idx`: the referee is asked only when the
    /// patterns allow a forbidden move.
    pub fn is_legal(&mut self, c: Color, idx: usize) -> bool {
        if c == Color::White || !self.maybe_forbidden(idx) {
            return true;
        }
        crate::forbidden_at(&mut self.board, Board::point_of(idx)).is_none()
    }

    /// Along direction `d` through `idx`, the empty point where `c` would complete a five
    /// (the defence square of a four just made at `idx`).
    #[must_use]
    pub fn five_point_on_line(&self, c: Color, idx: usize, d: usize) -> Option<usize> {
        let step = DIRECTIONS[d];
        for k in 1..=4isize {
            for j in [idx as isize + k * step, idx as isize - k * step] {
                let j = j as usize;
                if self.is_empty(j) && self.threat(c, j) == Threat::Five {
                    return Some(j);
                }
            }
        }
        None
    }
}

/// How `c` sees a cell.
const fn neighbour(cell: Cell, c: Color) -> Neighbour {
    match cell {
        Cell::Empty => Neighbour::Empty,
        Cell::Wall => Neighbour::Blocked,
        Cell::Black | Cell::White => {
            if cell as u8 == Cell::stone(c) as u8 {
                Neighbour::Own
            } else {
                Neighbour::Blocked
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn random_walk(rule: Rule, size: u8, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let board = Board::new(size).unwrap();
        let mut pos = Position::new(&board, rule, Color::Black);
        let empty = pos.clone();
        let mut snapshots = vec![];
        for _ in 0..(usize::from(size) * usize::from(size) * 2 / 3) {
            let empties: Vec<usize> = pos
                .points()
                .iter()
                .map(|&i| i as usize)
                .filter(|&i| pos.is_empty(i))
                .collect();
            if empties.is_empty() {
                break;
            }
            // Cluster the stones so that real shapes appear.
            let near: Vec<usize> = empties
                .iter()
                .copied()
                .filter(|&i| pos.is_near(i))
                .collect();
            let pick = if !near.is_empty() && rng.gen_bool(0.9) {
                near[rng.gen_range(0..near.len())]
            } else {
                empties[rng.gen_range(0..empties.len())]
            };
            snapshots.push(pos.clone());
            pos.play(pick);
            let scratch = Position::new(pos.board(), rule, pos.to_move());
            assert!(pos == scratch, "incremental != scratch after {pick}");
        }
        while let Some(snap) = snapshots.pop() {
            pos.undo();
            assert!(pos == snap, "undo did not restore");
            let scratch = Position::new(pos.board(), rule, pos.to_move());
            assert!(pos == scratch);
        }
        assert!(pos == empty);
    }

    #[test]
    fn incremental_equals_scratch() {
        for (k, rule) in Rule::ALL.into_iter().enumerate() {
            for size in [5u8, 9, 15, 20] {
                random_walk(rule, size, 17 + k as u64 * 31 + u64::from(size));
            }
        }
    }

    #[test]
    fn five_and_four_counts() {
        let mut b = Board::new(15).unwrap();
        for x in 3..7 {
            b.place(Point::new(x, 7), Color::Black);
        }
        let pos = Position::new(&b, Rule::Freestyle, Color::Black);
        // Open four: two five points.
        assert_eq!(pos.count(Color::Black, Threat::Five), 2);
        assert_eq!(pos.count(Color::White, Threat::Five), 0);
        let f = pos.find(Color::Black, Threat::Five).unwrap();
        assert_eq!(Board::point_of(f), Point::new(2, 7));
    }
}
