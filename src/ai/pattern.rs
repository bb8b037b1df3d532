//! Line patterns: what a stone on an empty point would make along one line.
//!
//! For every empty point, every direction and every colour the search keeps the *pattern* the
//! colour would make by playing there, judged from the eleven cells `-5..=+5` around the point
//! (the point itself counted as the colour's stone). Opponent stones and walls both block.
//! Diagrams use `O` for the colour's stones, `x` for a blocker (opponent stone or wall), `_` for
//! an empty point, and `*` for the point being judged:
//!
//! | pattern | example | meaning |
//! | --- | --- | --- |
//! | [`Pattern::Five`] | `OO*OO` | makes five (under exact-five rules: exactly five) |
//! | [`Pattern::Overline`] | `OOO*OO` | makes six or more where only exactly five wins |
//! | [`Pattern::FourFour`] | `O_O*O_O` | two different fours on one line (a renju double-four) |
//! | [`Pattern::F4`] | `_OO*O_` | open (straight) four: two ways to five, cannot be stopped |
//! | [`Pattern::B4`] | `xOO*O_`, `OO*_O` | four: exactly one way to five |
//! | [`Pattern::F3`] | `_O*O_`, `_O*_O_` | open three: one more stone makes an open four |
//! | [`Pattern::B3`] | `xO*O__` | closed three: one more stone makes a four |
//! | [`Pattern::F2`] | `__*O__` | open two: one more stone makes an open three |
//! | [`Pattern::B2`] | `x*O___` | closed two |
//! | [`Pattern::F1`] | `__*___` | a lone stone with room to grow on both sides |
//! | [`Pattern::B1`] | `x*____` | a lone stone with room on one side |
//! | [`Pattern::Dead`] | `x*__Ox` | no five can ever pass through here |
//!
//! The classification is recursive (a three is what becomes an open four with one more stone),
//! computed once into a lookup table keyed by the 2-bit codes of the ten neighbours. Whether an
//! open three is a *real* renju three (the recursive legality of the completing move) is not a
//! line property: the referee decides it for the rare points where it matters.

use std::sync::OnceLock;

/// The shape one colour would make along one line by playing an empty point.
///
/// Variants are ordered by strength, so `p >= Pattern::B4` means "makes a four".
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    /// No five can pass through this point on this line.
    #[default]
    Dead = 0,
    /// Six or more in a row where only exactly five wins: no win, and forbidden for renju black.
    Overline,
    /// One stone with room for a five on one side only.
    B1,
    /// One stone with room on both sides.
    F1,
    /// A closed two: one more stone makes a closed three.
    B2,
    /// An open two: one more stone makes an open three.
    F2,
    /// A closed three: one more stone makes a four.
    B3,
    /// An open three: one more stone makes an open four.
    F3,
    /// A four: exactly one point completes a five.
    B4,
    /// An open (straight) four `_OOOO_`.
    F4,
    /// Two separate fours on one line such as `O_OOO_O`.
    FourFour,
    /// A five.
    Five,
}

impl Pattern {
    const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::FourFour,
        Pattern::Five,
    ];

    /// The pattern with this discriminant.
    #[must_use]
    pub const fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize % 12]
    }

    /// Whether this line holds a four (one or two ways to five).
    #[must_use]
    pub const fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::FourFour)
    }
}

/// Number of distinct pattern keys: ten neighbours of three states each.
pub const KEYS: usize = 59_049;

/// A neighbour's state seen from the judged colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Neighbour {
    /// No stone.
    Empty = 0,
    /// The judged colour's stone.
    Own = 1,
    /// An opponent stone or the edge of the board.
    Blocked = 2,
}

/// The weight of the neighbour at `offset` (−5..=5, not 0) in a base-3 pattern key.
///
/// Keys are base-3 numbers over the neighbours from −5 (most significant) to +5, so placing
/// or removing a stone adjusts a key by `state × weight` without reading the other cells.
#[inline]
#[must_use]
pub const fn weight(offset: i32) -> u16 {
    const W: [u16; 11] = [19683, 6561, 2187, 729, 243, 0, 81, 27, 9, 3, 1];
    W[(offset + 5) as usize]
}

/// Lookup tables from pattern key to [`Pattern`], one for "five or more wins" and one for
/// "exactly five wins". 58 KiB each, so both stay in the L2 cache during search.
#[derive(Debug)]
pub struct PatternTables {
    free: Box<KeyTable>,
    exact: Box<KeyTable>,
}

/// A pattern per base-3 key, padded to every `u16` so that indexing by a key needs no bounds
/// check on the hot path (keys stop at 3^10 - 1; the padding is never read).
pub type KeyTable = [Pattern; 1 << 16];

impl PatternTables {
    /// The pattern for a base-3 key, for a colour that needs exactly five (`exact`) or not.
    #[inline]
    #[must_use]
    pub fn get(&self, exact: bool, key: u16) -> Pattern {
        self.table(exact)[usize::from(key)]
    }

    /// The whole table for a colour that needs exactly five (`exact`) or not.
    #[must_use]
    pub fn table(&self, exact: bool) -> &KeyTable {
        if exact {
            &self.exact
        } else {
            &self.free
        }
    }
}

/// The process-wide tables, built on first use (a few milliseconds).
#[must_use]
pub fn tables() -> &'static PatternTables {
    static TABLES: OnceLock<PatternTables> = OnceLock::new();
    TABLES.get_or_init(|| PatternTables {
        free: build_table(false),
        exact: build_table(true),
    })
}

/// Three-state line used while building: 0 empty, 1 own, 2 blocked. Index 5 is the centre.
type Line = [u8; 11];

fn line_index(line: &Line) -> usize {
    // Same order as the keys: neighbour −5 is the most significant digit.
    line.iter()
        .enumerate()
        .filter(|&(i, _)| i != 5)
        .fold(0, |acc, (_, &c)| acc * 3 + c as usize)
}

fn run_through_centre(line: &Line) -> usize {
    let mut n = 1;
    let mut i = 4;
    while line[i] == 1 {
        n += 1;
        if i == 0 {
            break;
        }
        i -= 1;
    }
    let mut i = 6;
    while i < 11 && line[i] == 1 {
        n += 1;
        i += 1;
    }
    n
}

fn makes_five(line: &Line, exact: bool) -> bool {
    let n = run_through_centre(line);
    if exact {
        n == 5
    } else {
        n >= 5
    }
}

fn classify(line: &mut Line, exact: bool, memo: &mut [u8]) -> Pattern {
    let idx = line_index(line);
    if memo[idx] != u8::MAX {
        return Pattern::from_u8(memo[idx]);
    }
    let p = classify_uncached(line, exact, memo);
    memo[idx] = p as u8;
    p
}

fn classify_uncached(line: &mut Line, exact: bool, memo: &mut [u8]) -> Pattern {
    let run = run_through_centre(line);
    if run >= 5 {
        return if exact && run > 5 {
            Pattern::Overline
        } else {
            Pattern::Five
        };
    }
    // Five points: empty cells that complete a five through the centre.
    let mut fives = [false; 11];
    let mut five_count = 0;
    for e in 0..11 {
        if e != 5 && line[e] == 0 {
            line[e] = 1;
            if makes_five(line, exact) {
                fives[e] = true;
                five_count += 1;
            }
            line[e] = 0;
        }
    }
    if five_count >= 2 {
        // Straight four: a run of exactly four through the centre with both ends completing.
        let (mut lo, mut hi) = (5, 5);
        while lo > 0 && line[lo - 1] == 1 {
            lo -= 1;
        }
        while hi < 10 && line[hi + 1] == 1 {
            hi += 1;
        }
        let straight = hi - lo + 1 == 4
            && lo > 0
            && hi < 10
            && fives[lo - 1]
            && fives[hi + 1]
            && five_count == 2;
        return if straight {
            Pattern::F4
        } else {
            Pattern::FourFour
        };
    }
    if five_count == 1 {
        return Pattern::B4;
    }
    let mut best = Pattern::Dead;
    for e in 0..11 {
        if e != 5 && line[e] == 0 {
            line[e] = 1;
            let next = classify(line, exact, memo);
            line[e] = 0;
            let here = match next {
                Pattern::F4 => Pattern::F3,
                Pattern::B4 | Pattern::FourFour => Pattern::B3,
                Pattern::F3 => Pattern::F2,
                Pattern::B3 => Pattern::B2,
                Pattern::F2 => Pattern::F1,
                Pattern::B2 => Pattern::B1,
                _ => Pattern::Dead,
            };
            best = best.max(here);
        }
    }
    best
}

fn build_table(exact: bool) -> Box<KeyTable> {
    let mut memo = vec![u8::MAX; KEYS];
    let mut line: Line = [0; 11];
    line[5] = 1;
    let mut table: Box<KeyTable> = vec![Pattern::Dead; 1 << 16]
        .into_boxed_slice()
        .try_into()
        .expect("length is 1 << 16");
    for (code, slot) in table.iter_mut().take(KEYS).enumerate() {
        let mut c = code;
        for i in (0..11).rev() {
            if i == 5 {
                continue;
            }
            line[i] = (c % 3) as u8;
            c /= 3;
        }
        *slot = classify(&mut line, exact, &mut memo);
    }
    table
}

/// Builds a key from a text line such as `"_OO*O_x"`, where `*` marks the judged point, `O`
/// its colour, `x` the opponent and `_` empty. Cells beyond the text are the edge. For tests
/// and docs.
#[must_use]
pub fn key_from_text(text: &str) -> u16 {
    let bytes = text.as_bytes();
    let centre = bytes.iter().position(|&b| b == b'*').unwrap_or(0) as i32;
    let mut key = 0;
    for offset in [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
        let i = centre + offset;
        let v = if i < 0 || i >= bytes.len() as i32 {
            Neighbour::Blocked
        } else {
            match bytes[i as usize] {
                b'O' => Neighbour::Own,
                b'_' | b'.' => Neighbour::Empty,
                _ => Neighbour::Blocked,
            }
        };
        key += v as u16 * weight(offset);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(text: &str, exact: bool) -> Pattern {
        tables().get(exact, key_from_text(text))
    }

    #[test]
    fn documented_examples() {
        let cases = [
            ("__OO*OO__", Pattern::Five),
            ("___*_____", Pattern::F1),
            ("x*_______", Pattern::B1),
            ("__*O_____", Pattern::F2),
            ("x*O______", Pattern::B2),
            ("__O*O___", Pattern::F3),
            ("__O*_O__", Pattern::F3),
            ("xO*O____", Pattern::B3),
            ("__OO*O__", Pattern::F4),
            ("xOO*O__", Pattern::B4),
            ("__OO*_O__", Pattern::B4),
            ("__O_O*O_O__", Pattern::FourFour),
            ("x*__Ox", Pattern::Dead),
        ];
        for (text, want) in cases {
            assert_eq!(pat(text, false), want, "{text}");
            assert_eq!(pat(text, true), want, "{text} (exact)");
        }
    }

    #[test]
    fn overline_depends_on_the_rule() {
        assert_eq!(pat("_OOO*OO_", false), Pattern::Five);
        assert_eq!(pat("_OOO*OO_", true), Pattern::Overline);
        // The left gap would make six, so for exact five only the right end completes.
        assert_eq!(pat("O_OOO*__", true), Pattern::B4);
        assert_eq!(pat("O_OOO*__", false), Pattern::F4);
    }

    #[test]
    fn weights_are_base_three() {
        assert_eq!(weight(5), 1);
        assert_eq!(weight(1), 3u16.pow(4));
        assert_eq!(weight(-1), 3u16.pow(5));
        assert_eq!(weight(-5), 3u16.pow(9));
        assert_eq!(usize::from(key_from_text("xxxxx*xxxxx")), KEYS - 1);
    }

    #[test]
    fn blocked_fours_and_threes() {
        assert_eq!(pat("xOOO*x", false), Pattern::Dead);
        assert_eq!(pat("xOOO*_x", false), Pattern::B4);
        assert_eq!(pat("x_OO*_x", false), Pattern::B3);
        assert_eq!(pat("x_O*O_x", false), Pattern::B3);
        assert_eq!(pat("_x_O*O__x", false), Pattern::F3);
    }
}
