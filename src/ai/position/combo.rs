//! What a move makes for one colour: its four line patterns combined into a [`Threat`] class,
//! a move-ordering score and the evaluation weights, looked up in per-rule tables by rank.

use crate::ai::pattern::Pattern;
use crate::ai::weights::{combo_patterns, weights, COMBOS};
use crate::{Color, Rule};

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
pub(super) struct Combo {
    pub(super) threat: Threat,
    /// Black under renju: the patterns allow a forbidden move here (the referee decides).
    pub(super) maybe_forbidden: bool,
    /// Move-ordering value.
    pub(super) score: i16,
    /// Evaluation weight of the combination for its colour, waiting and to move.
    pub(super) w: [i16; 2],
    /// Move-ordering value of the combination for its colour, waiting and to move.
    pub(super) pol: [i16; 2],
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
pub(super) const COMBO_KEY_STEP: [u16; 4] = [1728, 144, 12, 1];

/// Every combination of four patterns by rank ([`combo_patterns`]), per rule and colour, with
/// the rule's weights. Indexed by rank rather than by the ordered patterns, the two tables
/// take 2 × 16 KiB instead of 2 × 243 KiB, so they stay in the cache beside [`ranks`].
pub(super) fn combo_tables(rule: Rule) -> &'static [Vec<Combo>; 2] {
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
