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

/// The point values ([`Weights::cell`]) are kept in 1/`CELL_RESOLUTION` of an evaluation
/// unit. A value is summed over every empty point that holds its combination, a hundred and
/// more for the weak ones, so a rounding step of one whole unit moved evaluations by tens of
/// units: random ±1 steps on the renju point values cost about 60 Elo in self-play.
pub const CELL_RESOLUTION: i32 = 16;

/// One rule's evaluation tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `cell[colour][to_move as usize][rank]`, in 1/[`CELL_RESOLUTION`] of an evaluation unit
    /// (the evaluation sums them, then rounds to whole units).
    pub cell: [[Vec<i16>; 2]; 2],
    /// `threat[colour to move][mask]`, in evaluation units.
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
    /// values each), and `policy` tables labelled like the `cell` ones. A line
    /// `cell-resolution R` (R = 1, 2, 4, 8 or 16) before the `cell` lines says that their
    /// values are in 1/R of an evaluation unit; without it they are whole units (the format of
    /// the tables fitted before [`CELL_RESOLUTION`]). They are stored in
    /// 1/[`CELL_RESOLUTION`] units either way.
    ///
    /// # Errors
    /// When a table is missing, has the wrong length or holds something other than integers
    /// in `i16` range.
    pub fn from_text(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        let mut seen = [false; 10];
        // How many stored steps one step of the file's cell values is.
        let mut cell_step: Option<i32> = None;
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(r) = line.strip_prefix("cell-resolution") {
                let r = r.trim();
                let step = match r.parse::<i32>() {
                    Ok(r) if r > 0 && CELL_RESOLUTION % r == 0 => CELL_RESOLUTION / r,
                    _ => {
                        return Err(WeightsError(format!(
                            "cell-resolution {r:.20?}: expected a divisor of {CELL_RESOLUTION}"
                        )))
                    }
                };
                if cell_step.is_some() || seen[..4].iter().any(|&s| s) {
                    return Err(WeightsError(
                        "cell-resolution must come once, before the cell lines".into(),
                    ));
                }
                cell_step = Some(step);
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
            let step = if kind == "cell" {
                cell_step.unwrap_or(CELL_RESOLUTION)
            } else {
                1
            };
            table.clear();
            for v in words {
                let x = i32::from(parse_value(v)?) * step;
                let x = i16::try_from(x)
                    .map_err(|_| WeightsError(format!("{v:.20?} is out of range")))?;
                table.push(x);
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
        // The coarsest unit that says every point value exactly; whole units need no line
        // (the older format, so whole-unit fits stay byte for byte what they were).
        let step = [CELL_RESOLUTION, 8, 4, 2, 1]
            .into_iter()
            .find(|&step| {
                self.cell
                    .iter()
                    .flatten()
                    .flatten()
                    .all(|&v| i32::from(v) % step == 0)
            })
            .unwrap_or(1);
        if step != CELL_RESOLUTION {
            out.push_str(&format!("cell-resolution {}\n", CELL_RESOLUTION / step));
        }
        for (c, name) in ["black", "white"].iter().enumerate() {
            for (s, side) in ["waiting", "to-move"].iter().enumerate() {
                let values: Vec<i16> = self.cell[c][s]
                    .iter()
                    .map(|&v| (i32::from(v) / step) as i16)
                    .collect();
                out.push_str(&format!("cell {name} {side} {}\n", join(&values)));
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

/// The index of `rule` in per-rule tables (the evaluation's, the learned networks').
pub(crate) const fn rule_slot(rule: Rule) -> usize {
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

    /// The text of `w` with its point values written in 1/`r` units (`None`: whole units and
    /// no `cell-resolution` line, the older format).
    fn text_at(w: &Weights, r: Option<i32>) -> String {
        // `w` is in whole units, which is how `to_text` writes it.
        let per_unit = r.unwrap_or(1);
        let mut out = String::new();
        if let Some(r) = r {
            out.push_str(&format!("cell-resolution {r}\n"));
        }
        for line in w.to_text("").lines() {
            assert!(!line.starts_with("cell-resolution"));
            if let Some(rest) = line.strip_prefix("cell ") {
                let words: Vec<&str> = rest.split_whitespace().collect();
                out.push_str(&format!("cell {} {}", words[0], words[1]));
                for v in &words[2..] {
                    let v: i32 = v.parse().unwrap();
                    out.push_str(&format!(" {}", v * per_unit));
                }
                out.push('\n');
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    #[test]
    fn point_values_are_read_at_the_resolution_the_file_gives() {
        // The built-in tables were fitted in whole units, so every resolution can say them.
        let w = weights(Rule::Renju);
        for r in [None, Some(1), Some(2), Some(4), Some(8), Some(16)] {
            assert_eq!(&Weights::from_text(&text_at(w, r)).unwrap(), w, "{r:?}");
        }
        let whole = text_at(w, None);
        assert_eq!(whole, w.to_text(""), "whole units are written as before");
        // Finer values are written at the coarsest resolution that holds them.
        let mut fine = w.clone();
        fine.cell[0][0][0] += 4;
        let text = fine.to_text("");
        assert!(text.starts_with("cell-resolution 4\n"), "{:.40}", text);
        assert_eq!(Weights::from_text(&text).unwrap(), fine);
        fine.cell[1][1][7] -= 1;
        assert!(fine.to_text("").starts_with("cell-resolution 16\n"));
        assert_eq!(Weights::from_text(&fine.to_text("")).unwrap(), fine);
        // A finer value than the engine keeps, a resolution given twice or after the cell
        // lines, and a whole-unit value that does not fit once refined are errors.
        for bad in [
            "cell-resolution 3",
            "cell-resolution 0",
            "cell-resolution 32",
        ] {
            let e = Weights::from_text(&format!("{bad}\n{whole}")).unwrap_err();
            assert!(e.0.contains("divisor"), "{bad}: {e}");
        }
        let twice = format!("cell-resolution 4\ncell-resolution 4\n{whole}");
        assert!(Weights::from_text(&twice).is_err());
        let late = format!("{whole}cell-resolution 4\n");
        assert!(Weights::from_text(&late).is_err());
        let huge: String = whole
            .lines()
            .map(|line| match line.strip_prefix("cell black waiting ") {
                Some(values) => {
                    let rest = values.split_once(' ').unwrap().1;
                    format!("cell black waiting 3000 {rest}\n")
                }
                None => format!("{line}\n"),
            })
            .collect();
        let e = Weights::from_text(&huge).unwrap_err();
        assert!(e.0.contains("out of range"), "{e}");
    }
}
