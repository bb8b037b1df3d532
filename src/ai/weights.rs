//! The evaluation's tables: the ranks of the 1 365 combinations of four line patterns, and
//! each rule's learned values per combination and per threat mask ([`Weights`], read from
//! `src/ai/weights/<rule>.txt`). [`crate::ai::eval`] sums them over a position;
//! [`crate::ai::position`] keeps those sums up to date.

use std::sync::OnceLock;

use crate::ai::pattern::Pattern;
use crate::Rule;

/// Number of multisets of four line patterns.
pub const COMBOS: usize = 1365;

/// Number of threat masks per colour (see [`threat_mask`](crate::ai::eval::threat_mask)).
pub const MASKS: usize = 256;

/// Index of four line patterns, in direction order, in [`ranks`]: `((p0*12+p1)*12+p2)*12+p3`.
#[inline]
#[must_use]
pub(crate) fn combo_key(p: [Pattern; 4]) -> u16 {
    ((p[0] as u16 * 12 + p[1] as u16) * 12 + p[2] as u16) * 12 + p[3] as u16
}

/// Combination rank of every ordered 4-tuple of patterns, by [`combo_key`].
pub(crate) fn ranks() -> &'static [u16; 12 * 12 * 12 * 12] {
    static RANKS: OnceLock<Box<[u16; 12 * 12 * 12 * 12]>> = OnceLock::new();
    RANKS.get_or_init(|| {
        let mut sorted_rank = std::collections::HashMap::new();
        let mut n = 0u16;
        for a in 0..12u8 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        sorted_rank.insert([a, b, c, d], n);
                        n += 1;
                    }
                }
            }
        }
        debug_assert_eq!(usize::from(n), COMBOS);
        let mut t = Box::new([0u16; 12 * 12 * 12 * 12]);
        for (k, r) in t.iter_mut().enumerate() {
            let mut p = [k / 1728, k / 144 % 12, k / 12 % 12, k % 12].map(|v| v as u8);
            p.sort_unstable_by(|x, y| y.cmp(x));
            *r = sorted_rank[&p];
        }
        t
    })
}

/// The rank of a combination of four line patterns, in `0..COMBOS` (the order of the
/// patterns does not matter).
#[must_use]
pub fn combo_rank(p: [Pattern; 4]) -> usize {
    usize::from(ranks()[usize::from(combo_key(p))])
}

/// The four patterns of the combination with this rank, strongest first.
#[must_use]
pub fn combo_patterns(rank: usize) -> [Pattern; 4] {
    let mut n = 0;
    for a in 0..12u8 {
        for b in 0..=a {
            for c in 0..=b {
                for d in 0..=c {
                    if n == rank {
                        return [a, b, c, d].map(Pattern::from_u8);
                    }
                    n += 1;
                }
            }
        }
    }
    [Pattern::Dead; 4]
}

/// One rule's evaluation tables, in evaluation units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `cell[colour][to_move as usize][rank]`.
    pub cell: [[Vec<i16>; 2]; 2],
    /// `threat[colour to move][mask]`.
    pub threat: [Vec<i16>; 2],
    /// Move ordering, `policy[colour][to_move as usize][rank]`: a move's order score is its
    /// mover's value at the point plus the opponent's (waiting) value there, in 1/100 of a
    /// logit of the chance that the search plays it.
    pub policy: [[Vec<i16>; 2]; 2],
}

/// A weights file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad weights file: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

impl Weights {
    /// All zero.
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            cell: std::array::from_fn(|_| std::array::from_fn(|_| vec![0; COMBOS])),
            threat: std::array::from_fn(|_| vec![0; MASKS]),
            policy: std::array::from_fn(|_| std::array::from_fn(|_| vec![0; COMBOS])),
        }
    }

    /// Reads the text format written by [`Weights::to_text`]: `#` comment lines, then ten
    /// lines, each a three-word label and space-separated integers: `cell black waiting`,
    /// `cell black to-move`, `cell white waiting`, `cell white to-move` ([`COMBOS`] values
    /// each, by combination rank), `threat black to-move`, `threat white to-move` ([`MASKS`]
    /// values each), and `policy` tables labelled like the `cell` ones.
    ///
    /// # Errors
    /// When a table is missing, has the wrong length or holds something other than integers
    /// in `i16` range.
    pub fn from_text(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        let mut seen = [false; 10];
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let label: Vec<&str> = words.by_ref().take(3).collect();
            let (kind, colour, side) = match label[..] {
                [k, c, s] => (k, colour_index(c)?, side_index(s)?),
                _ => return Err(WeightsError(format!("unknown line {line:.40?}"))),
            };
            let (slot, table, want) = match (kind, side) {
                ("cell", _) => (colour * 2 + side, &mut w.cell[colour][side], COMBOS),
                ("threat", 1) => (4 + colour, &mut w.threat[colour], MASKS),
                ("policy", _) => (6 + colour * 2 + side, &mut w.policy[colour][side], COMBOS),
                _ => return Err(WeightsError(format!("unknown table {kind} {side}"))),
            };
            table.clear();
            for v in words {
                table.push(parse_value(v)?);
            }
            if table.len() != want {
                return Err(WeightsError(format!(
                    "table {slot} has {} values, not {want}",
                    table.len()
                )));
            }
            seen[slot] = true;
        }
        if seen.iter().all(|&s| s) {
            Ok(w)
        } else {
            Err(WeightsError("a table is missing".into()))
        }
    }

    /// The text format read by [`Weights::from_text`], after `header` (each line of it
    /// written as a `#` comment).
    #[must_use]
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        let join = |v: &[i16]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (c, name) in ["black", "white"].iter().enumerate() {
            for (s, side) in ["waiting", "to-move"].iter().enumerate() {
                out.push_str(&format!("cell {name} {side} {}\n", join(&self.cell[c][s])));
            }
        }
        for (c, name) in ["black", "white"].iter().enumerate() {
            out.push_str(&format!(
                "threat {name} to-move {}\n",
                join(&self.threat[c])
            ));
        }
        for (c, name) in ["black", "white"].iter().enumerate() {
            for (s, side) in ["waiting", "to-move"].iter().enumerate() {
                out.push_str(&format!(
                    "policy {name} {side} {}\n",
                    join(&self.policy[c][s])
                ));
            }
        }
        out
    }
}

fn colour_index(s: &str) -> Result<usize, WeightsError> {
    match s {
        "black" => Ok(0),
        "white" => Ok(1),
        _ => Err(WeightsError(format!("unknown colour {s:?}"))),
    }
}

fn side_index(s: &str) -> Result<usize, WeightsError> {
    match s {
        "waiting" => Ok(0),
        "to-move" => Ok(1),
        _ => Err(WeightsError(format!("unknown side {s:?}"))),
    }
}

fn parse_value(s: &str) -> Result<i16, WeightsError> {
    s.parse::<i16>()
        .map_err(|_| WeightsError(format!("{s:.20?} is not an i16")))
}

/// The tables of each rule, set once: by [`install_weights`] or, at first use, the built-in
/// ones.
static WEIGHTS: [OnceLock<Weights>; 3] = [const { OnceLock::new() }; 3];

const fn rule_slot(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
    }
}

/// The tables `rule` plays with: the ones built into the engine
/// (`src/ai/weights/<rule>.txt`) unless [`install_weights`] replaced them first.
#[must_use]
pub fn weights(rule: Rule) -> &'static Weights {
    WEIGHTS[rule_slot(rule)].get_or_init(|| {
        let text = match rule {
            Rule::Freestyle => include_str!("weights/freestyle.txt"),
            Rule::Standard => include_str!("weights/standard.txt"),
            Rule::Renju => include_str!("weights/renju.txt"),
        };
        Weights::from_text(text).expect("the built-in weights parse")
    })
}

/// Makes every later search under `rule` in this process play with `w` instead of the
/// built-in tables, so that self-play data can be made again with the tables that made it
/// (`wuzi-tools datagen --weights`).
///
/// # Errors
/// When `rule`'s tables are already in use (anything that evaluated a position under `rule`
/// fixes them for the life of the process).
pub fn install_weights(rule: Rule, w: Weights) -> Result<(), WeightsError> {
    WEIGHTS[rule_slot(rule)]
        .set(w)
        .map_err(|_| WeightsError(format!("the {rule} tables are already in use")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_cover_every_multiset_once() {
        let mut seen = vec![false; COMBOS];
        for k in 0..12 * 12 * 12 * 12 {
            seen[usize::from(ranks()[k])] = true;
        }
        assert!(seen.iter().all(|&s| s));
        for r in [0, 1, 700, COMBOS - 1] {
            assert_eq!(combo_rank(combo_patterns(r)), r);
        }
        let p = [Pattern::F3, Pattern::B1, Pattern::F2, Pattern::Dead];
        assert_eq!(
            combo_rank(p),
            combo_rank([Pattern::Dead, Pattern::F2, Pattern::F3, Pattern::B1])
        );
    }

    #[test]
    fn built_in_weights_round_trip_through_text() {
        for rule in Rule::ALL {
            let w = weights(rule);
            assert_eq!(&Weights::from_text(&w.to_text("x\ny")).unwrap(), w);
        }
        assert!(Weights::from_text("cell black waiting 1 2 3").is_err());
        assert!(Weights::from_text("nonsense").is_err());
        assert!(Weights::from_text("").is_err());
    }
}
