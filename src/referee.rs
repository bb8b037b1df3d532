//! The referee: wins under each rule and RIF renju forbidden moves.
//!
//! Everything here works on the padded cell array of [`Board`], so a scan along a line never
//! needs a bounds check: it stops at the first [`Cell::Wall`].
//!
//! # Renju vocabulary (black only)
//! With `X` black, `O` white, `.` empty and `p` the stone just played:
//! - **five**: exactly five in a row, `XXXXX`. A move that makes a five is never forbidden.
//! - **overline**: six or more in a row through `p`, `XXXXXX`.
//! - **four**: a line through `p` where one more black stone makes exactly five, e.g. `XXXX.`,
//!   `XX.XX`, `X.XXX`. A *straight four* `.XXXX.` has two such points but is one four;
//!   `X.XXX.X` and `XX.XX.XX` (with `p` in the middle part) are two fours on one line.
//! - **three**: a line through `p` (holding no four) where one more black stone, which makes
//!   no five and is itself not forbidden, makes a straight four: `.XXX.`, `.XX.X.`. The "itself
//!   not forbidden" part is the recursive *false three* rule: the check runs again with `p` on
//!   the board.
//!
//! A black move that does not make a five is forbidden if it makes an overline, two or more
//! fours, or two or more threes. Only fours and threes that include `p` count, and a line that
//! holds a four is not also a three, so a four-three (4×3) is legal while 4×3×3 is not.
//!
//! A point that would turn a line into a straight four but at the same time makes a five on
//! another line does not make the line a three: that stone ends the game with the five, the
//! straight four never comes to be (RIF defines a three as a row that can become a straight
//! four; Rapfi's referee agrees). The line is still a three when its other straight-four point
//! qualifies. The property tests check all of this against a slow referee
//! written from these definitions.

use std::fmt;

use crate::board::{Cell, DIRECTIONS};
use crate::{Board, Color, Point, Rule};

/// Why a black move is forbidden under renju.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Forbidden {
    /// Six or more black stones in a row (`XXXXXX`).
    Overline,
    /// Two or more fours at once (including two on one line, `X.XXX.X`).
    DoubleFour,
    /// Two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// `"overline"`, `"double-four"` or `"double-three"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a winning run was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum WinKind {
    /// Exactly five in a row.
    Five,
    /// Six or more in a row, where the rule lets that win (freestyle; white under renju).
    Overline,
}

impl WinKind {
    /// `"five"` or `"overline"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WinKind::Five => "five",
            WinKind::Overline => "overline",
        }
    }
}

impl fmt::Display for WinKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A win: who made it, how, and every stone of the winning run (from one end to the other).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Win {
    /// The winner.
    pub color: Color,
    /// Five or overline.
    pub kind: WinKind,
    /// Every stone of the winning run, in order along the line.
    pub line: Vec<Point>,
}

/// Steps from `idx` by `k` times `dir`. Callers stay within the wall padding.
#[inline]
fn step(idx: usize, dir: isize, k: isize) -> usize {
    (idx as isize + dir * k) as usize
}

/// The ends of the run of `want` stones through `idx` along `dir`: the first cells on each side
/// that do not hold `want` (`idx` itself counts as `want` whatever it holds).
#[inline]
fn run_ends(board: &Board, idx: usize, dir: isize, want: Cell) -> (usize, usize) {
    let mut lo = step(idx, dir, -1);
    while board.cell(lo) == want {
        lo = step(lo, dir, -1);
    }
    let mut hi = step(idx, dir, 1);
    while board.cell(hi) == want {
        hi = step(hi, dir, 1);
    }
    (lo, hi)
}

/// Length of the run of black stones through `idx` along `dir`, counting `idx` as black.
#[inline]
fn black_run(board: &Board, idx: usize, dir: isize) -> usize {
    let (lo, hi) = run_ends(board, idx, dir, Cell::Black);
    ((hi - lo) / dir.unsigned_abs()) - 1
}

/// `p` already holds a stone of `color`: does it win under `rule`?
///
/// An exact five wins under every rule. A longer run wins only where the rule allows it
/// (freestyle for both colours, renju for white); under standard rules, or for black under
/// renju, an overline is no win and the game goes on. If the stone makes both a five and an
/// overline on different lines, the five is reported. Returns `None` for an empty or
/// off-board `p`.
///
/// # Examples
/// ```
/// use wuzi::{win_at, Board, Color, Point, Rule, WinKind};
///
/// let mut board = Board::new(15).unwrap();
/// for x in 3..8 {
///     board.place(Point::new(x, 7), Color::White);
/// }
/// let win = win_at(&board, Point::new(5, 7), Rule::Renju).unwrap();
/// assert_eq!((win.color, win.kind, win.line.len()), (Color::White, WinKind::Five, 5));
/// ```
#[must_use]
pub fn win_at(board: &Board, p: Point, rule: Rule) -> Option<Win> {
    let color = board.get(p)?;
    let want = Cell::stone(color);
    let idx = Board::index_of(p);
    let mut overline: Option<(usize, usize, isize)> = None;
    for dir in DIRECTIONS {
        let (lo, hi) = run_ends(board, idx, dir, want);
        let len = (hi - lo) / dir.unsigned_abs() - 1;
        if len == 5 {
            return Some(make_win(color, WinKind::Five, lo, hi, dir));
        }
        if len > 5 && overline.is_none() && !rule.exact_five(color) {
            overline = Some((lo, hi, dir));
        }
    }
    overline.map(|(lo, hi, dir)| make_win(color, WinKind::Overline, lo, hi, dir))
}

fn make_win(color: Color, kind: WinKind, lo: usize, hi: usize, dir: isize) -> Win {
    let mut line = Vec::new();
    let mut i = step(lo, dir, 1);
    while i != hi {
        line.push(Board::point_of(i));
        i = step(i, dir, 1);
    }
    Win { color, kind, line }
}

/// `p` is empty and black is to play it under renju: is it forbidden?
///
/// A move that makes exactly five is never forbidden. Otherwise the reasons are checked in the
/// order overline, double-four, double-three, and the first that applies is returned (a 4×4×3
/// fork is a double-four). Returns `None` for an occupied or off-board `p`.
///
/// The board is used as scratch space (stones are placed and removed while checking the
/// recursive false-three rule) and is restored exactly, hash included, before returning.
///
/// # Examples
/// ```
/// use wuzi::{forbidden_at, Board, Color, Forbidden, Point};
///
/// let mut board = Board::new(15).unwrap();
/// for rif in ["f8", "g8", "h6", "h7"] {
///     board.place(Point::from_rif(rif, 15).unwrap(), Color::Black);
/// }
/// let h8 = Point::from_rif("h8", 15).unwrap();
/// assert_eq!(forbidden_at(&mut board, h8), Some(Forbidden::DoubleThree));
/// assert_eq!(board.stone_count(), 4);
/// ```
pub fn forbidden_at(board: &mut Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty_at(p) {
        return None;
    }
    forbidden_idx(board, Board::index_of(p))
}

/// Every empty point that is forbidden for black, with the reason, in row-major order from the
/// top. Empty unless `rule` is [`Rule::Renju`]. Points where black would make five are legal
/// and so never listed.
#[must_use]
pub fn forbidden_points(board: &Board, rule: Rule) -> Vec<(Point, Forbidden)> {
    if !rule.has_forbidden(Color::Black) {
        return Vec::new();
    }
    let mut scratch = board.clone();
    let mut out = Vec::new();
    for p in Point::all(board.size()) {
        if scratch.is_empty_at(p) {
            if let Some(reason) = forbidden_idx(&mut scratch, Board::index_of(p)) {
                out.push((p, reason));
            }
        }
    }
    out
}

/// How many black stones there are within four cells of `idx` along `dir` on each side, not
/// looking past a white stone or the wall. A line can only hold a three through `idx` with at
/// least two of them, a four with three, two fours with four and an overline with five.
#[inline]
fn nearby_black(board: &Board, idx: usize, dir: isize) -> u32 {
    let mut n = 0;
    for sign in [1, -1] {
        for k in 1..=4 {
            match board.cell(step(idx, dir, sign * k)) {
                Cell::Black => n += 1,
                Cell::Empty => {}
                Cell::White | Cell::Wall => break,
            }
        }
    }
    n
}

/// The forbidden check on an empty padded index.
fn forbidden_idx(board: &mut Board, idx: usize) -> Option<Forbidden> {
    // Cheap pre-filter, before touching the board: every forbidden shape needs two "threat
    // candidates" among the four lines (two lines with 2+ nearby black stones, or one line with
    // 4+, which is also what a five or an overline needs). Most empty points fail this.
    let mut candidates = 0;
    for dir in DIRECTIONS {
        match nearby_black(board, idx, dir) {
            0 | 1 => {}
            2 | 3 => candidates += 1,
            _ => candidates += 2,
        }
    }
    if candidates < 2 {
        return None;
    }

    let p = Board::point_of(idx);
    board.place(p, Color::Black);
    let verdict = forbidden_placed(board, idx);
    board.remove(p);
    verdict
}

/// The forbidden check with the black stone already on `idx`.
fn forbidden_placed(board: &mut Board, idx: usize) -> Option<Forbidden> {
    let mut runs = [0usize; 4];
    for (d, dir) in DIRECTIONS.into_iter().enumerate() {
        runs[d] = black_run(board, idx, dir);
        if runs[d] == 5 {
            return None;
        }
    }
    if runs.iter().any(|&r| r > 5) {
        return Some(Forbidden::Overline);
    }

    let mut fours = 0;
    let mut has_four = [false; 4];
    for (d, dir) in DIRECTIONS.into_iter().enumerate() {
        let n = fours_in_line(board, idx, dir);
        has_four[d] = n > 0;
        fours += n;
    }
    if fours >= 2 {
        return Some(Forbidden::DoubleFour);
    }

    let mut threes = 0;
    for (d, dir) in DIRECTIONS.into_iter().enumerate() {
        if has_four[d] {
            continue;
        }
        if is_three(board, idx, dir) {
            threes += 1;
            if threes == 2 {
                return Some(Forbidden::DoubleThree);
            }
        }
    }
    None
}

/// Whether black playing the empty `idx` makes exactly five along `dir`.
#[inline]
fn makes_five(board: &Board, idx: usize, dir: isize) -> bool {
    board.cell(idx) == Cell::Empty && black_run(board, idx, dir) == 5
}

/// How many fours through the black stone on `idx` lie along `dir` (0, 1 or 2).
///
/// Any point that completes a five through `idx` is the first non-black cell on one side of
/// the run through `idx`, so there are at most two. Both completing it is one straight four
/// `.XXXX.` when the run already holds four stones, and two separate fours (`X.XXX.X`,
/// `XX.XX.XX`) otherwise.
fn fours_in_line(board: &Board, idx: usize, dir: isize) -> u32 {
    let (lo, hi) = run_ends(board, idx, dir, Cell::Black);
    let run = (hi - lo) / dir.unsigned_abs() - 1;
    let left = makes_five(board, lo, dir);
    let right = makes_five(board, hi, dir);
    match (left, right) {
        (true, true) if run == 4 => 1,
        _ => u32::from(left) + u32::from(right),
    }
}

/// Whether the black stone on `idx` (with no four along `dir`) makes a real three along `dir`:
/// some empty point, which makes no five and is itself not forbidden, turns the line into a
/// straight four through `idx`.
///
/// Such a point must join the run through `idx`, so it is the first non-black cell on one side.
/// A point that also makes a five (on another line: on this one it makes four) would end the
/// game instead, so it does not make the line a three; [`forbidden_idx`] alone would call it
/// legal, because a five is never forbidden.
fn is_three(board: &mut Board, idx: usize, dir: isize) -> bool {
    let (lo, hi) = run_ends(board, idx, dir, Cell::Black);
    for q in [lo, hi] {
        if board.cell(q) != Cell::Empty {
            continue;
        }
        let qp = Board::point_of(q);
        board.place(qp, Color::Black);
        let straight = is_straight_four(board, idx, dir);
        board.remove(qp);
        if straight && !makes_any_five(board, q) && forbidden_idx(board, q).is_none() {
            return true;
        }
    }
    false
}

/// Whether black playing the empty `idx` makes exactly five along some line.
fn makes_any_five(board: &Board, idx: usize) -> bool {
    DIRECTIONS
        .into_iter()
        .any(|dir| makes_five(board, idx, dir))
}

/// Whether the run through the black stone on `idx` along `dir` is a straight four `.XXXX.`:
/// four stones with an empty point at each end that makes exactly five.
fn is_straight_four(board: &Board, idx: usize, dir: isize) -> bool {
    let (lo, hi) = run_ends(board, idx, dir, Cell::Black);
    let run = (hi - lo) / dir.unsigned_abs() - 1;
    run == 4 && makes_five(board, lo, dir) && makes_five(board, hi, dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::pt;

    fn board_with(black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(15).unwrap();
        for (list, color) in [(black, Color::Black), (white, Color::White)] {
            for s in list {
                b.place(pt(s), color);
            }
        }
        b
    }

    fn judge(black: &[&str], white: &[&str], p: &str) -> Option<Forbidden> {
        let mut b = board_with(black, white);
        let before = b.clone();
        let hash = b.hash();
        let v = forbidden_at(&mut b, pt(p));
        assert_eq!(b, before);
        assert_eq!(b.hash(), hash);
        v
    }

    #[test]
    fn open_three_pair_is_double_three() {
        assert_eq!(
            judge(&["f8", "g8", "h6", "h7"], &[], "h8"),
            Some(Forbidden::DoubleThree)
        );
    }

    #[test]
    fn blocked_three_does_not_count() {
        // e8 white closes one end of f8-g8-h8, so only the vertical three is real.
        assert_eq!(judge(&["f8", "g8", "h6", "h7"], &["e8"], "h8"), None);
        // A far block still leaves .XXX.. → straight four on the open side.
        assert_eq!(
            judge(&["f8", "g8", "h6", "h7"], &["d8"], "h8"),
            Some(Forbidden::DoubleThree)
        );
    }

    #[test]
    fn split_fours_on_one_line_count_twice() {
        assert_eq!(
            judge(&["e8", "g8", "i8", "k8"], &[], "h8"),
            Some(Forbidden::DoubleFour)
        );
        assert_eq!(
            judge(&["e8", "f8", "h8", "k8", "l8"], &[], "i8"),
            Some(Forbidden::DoubleFour)
        );
    }

    #[test]
    fn straight_four_is_one_four() {
        assert_eq!(judge(&["e8", "f8", "g8"], &[], "h8"), None);
    }

    #[test]
    fn five_beats_everything() {
        // h8 makes e8-i8 exactly five and also an overline-free double four elsewhere.
        assert_eq!(
            judge(&["e8", "f8", "g8", "i8", "h5", "h6", "h7"], &[], "h8"),
            None
        );
        // Six is forbidden when there is no five.
        assert_eq!(
            judge(&["d8", "e8", "f8", "g8", "i8"], &[], "h8"),
            Some(Forbidden::Overline)
        );
    }

    #[test]
    fn four_three_is_legal_but_four_three_three_is_not() {
        assert_eq!(judge(&["e8", "f8", "g8", "h6", "h7"], &[], "h8"), None);
        assert_eq!(
            judge(&["e8", "f8", "g8", "h6", "h7", "i9", "j10"], &[], "h8"),
            Some(Forbidden::DoubleThree)
        );
    }

    #[test]
    fn straight_four_point_that_makes_five_makes_no_three() {
        // f8 _ h8 i8 turns into a straight four only at g8. With g6 g7 below, g8 is a legal
        // 4x3, so the row is a three; with g4-g7, g8 makes a five instead; with g4-g7 and g9,
        // an overline (forbidden). Only the first is a three beside the column h7 h8 h9.
        let three = ["f8", "i8", "h7", "h9"];
        let with = |extra: &[&'static str]| [&three[..], extra].concat();
        assert_eq!(
            judge(&with(&["g6", "g7"]), &[], "h8"),
            Some(Forbidden::DoubleThree)
        );
        assert_eq!(judge(&with(&["g4", "g5", "g6", "g7"]), &[], "h8"), None);
        assert_eq!(
            judge(&with(&["g4", "g5", "g6", "g7", "g9"]), &[], "h8"),
            None
        );
    }

    #[test]
    fn three_with_another_straight_four_point_stays_a_three() {
        // g8 h8 i8: f8 also makes the five f4-f8, but j8 still makes a straight four.
        let black = ["g8", "i8", "h7", "h9", "f4", "f5", "f6", "f7"];
        assert_eq!(judge(&black, &[], "h8"), Some(Forbidden::DoubleThree));
        // White on j8 or k8 leaves f8 as the only straight-four point.
        assert_eq!(judge(&black, &["j8"], "h8"), None);
        assert_eq!(judge(&black, &["k8"], "h8"), None);
    }

    #[test]
    fn d9_of_issue_11_is_legal() {
        // Column d (d7 _ d9 d10) becomes a straight four only at d8, which makes a8-e8.
        let black = [
            "e8", "j8", "i7", "l5", "i8", "g9", "f11", "h8", "a8", "h7", "j7", "d10", "f4", "k10",
            "a4", "l6", "i12", "g7", "g8", "k4", "j9", "f6", "d7", "h12", "f9", "c8", "h4", "b8",
            "k2",
        ];
        let white = [
            "f10", "i11", "o10", "j10", "m10", "n10", "i10", "d14", "i3", "g10", "i9", "e10", "f8",
            "d5", "j2", "l7", "k6", "i1", "k7",
        ];
        assert_eq!(judge(&black, &white, "d9"), None);
        let listed: Vec<String> = forbidden_points(&board_with(&black, &white), Rule::Renju)
            .into_iter()
            .map(|(p, _)| p.rif(15).to_string())
            .collect();
        assert_eq!(listed, ["h6", "j6", "f5", "g5"]);
    }

    #[test]
    fn occupied_or_off_board_is_not_judged() {
        let mut b = board_with(&["h8"], &[]);
        assert_eq!(forbidden_at(&mut b, pt("h8")), None);
        assert_eq!(forbidden_at(&mut b, Point::new(15, 3)), None);
    }

    #[test]
    fn wins_per_rule() {
        let six = board_with(&["c8", "d8", "e8", "f8", "g8", "h8"], &[]);
        assert!(win_at(&six, pt("h8"), Rule::Standard).is_none());
        assert!(win_at(&six, pt("h8"), Rule::Renju).is_none());
        let w = win_at(&six, pt("e8"), Rule::Freestyle).unwrap();
        assert_eq!(w.kind, WinKind::Overline);
        assert_eq!(w.line.len(), 6);
        assert_eq!(w.line.first(), Some(&pt("c8")));

        let mut white_six = Board::new(15).unwrap();
        for s in ["c8", "d8", "e8", "f8", "g8", "h8"] {
            white_six.place(pt(s), Color::White);
        }
        let w = win_at(&white_six, pt("c8"), Rule::Renju).unwrap();
        assert_eq!((w.color, w.kind), (Color::White, WinKind::Overline));
        assert!(win_at(&white_six, pt("c8"), Rule::Standard).is_none());

        let diag = board_with(&["a1", "b2", "c3", "d4", "e5"], &[]);
        let w = win_at(&diag, pt("c3"), Rule::Renju).unwrap();
        assert_eq!(w.kind, WinKind::Five);
        assert_eq!(w.line.len(), 5);
        assert!(w.line.contains(&pt("a1")) && w.line.contains(&pt("e5")));
        assert!(win_at(&diag, pt("h8"), Rule::Renju).is_none());
    }

    #[test]
    fn five_is_preferred_over_overline_in_another_line() {
        let b = board_with(
            &["c8", "d8", "e8", "f8", "g8", "h8", "h4", "h5", "h6", "h7"],
            &[],
        );
        let w = win_at(&b, pt("h8"), Rule::Freestyle).unwrap();
        assert_eq!(w.kind, WinKind::Five);
        assert!(w.line.contains(&pt("h4")));
    }

    #[test]
    fn forbidden_points_only_under_renju() {
        let b = board_with(&["f8", "g8", "h6", "h7"], &[]);
        assert!(forbidden_points(&b, Rule::Standard).is_empty());
        let list = forbidden_points(&b, Rule::Renju);
        assert!(list.contains(&(pt("h8"), Forbidden::DoubleThree)));
        for (p, reason) in &list {
            let mut scratch = b.clone();
            assert_eq!(forbidden_at(&mut scratch, *p), Some(*reason));
        }
    }
}
