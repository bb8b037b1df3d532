//! The search's constants in one place.
//!
//! - [`Params`]: the tunables, each declared once in `tunables!` (name, default, lowest
//!   value, meaning). The struct, its defaults, [`Params::NAMES`] and [`Params::set`] all come
//!   from that one list, so a new tunable is one line here plus its use in the search. The
//!   defaults are the values self-play accepted (docs/ai-experiments.md); match runs try
//!   other values without a rebuild (`pbrain-wuzi --param name=value`).
//! - The fixed constants below them: values the search uses as they are, named so that a
//!   reader finds them here rather than as literals in the move loop.

use crate::text::quote;
use crate::Rule;

/// Declares the tunables: `name: default, min lowest;` with their doc comments.
macro_rules! tunables {
    ($( $(#[doc = $doc:expr])* $name:ident: $default:expr, min $min:expr; )*) => {
        /// The search's tunable constants (see the module documentation).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $( $name: $default, )* }
            }
        }

        impl Params {
            /// The parameter names [`Params::set`] knows, in declaration order.
            pub const NAMES: [&'static str; [$(stringify!($name)),*].len()] =
                [$(stringify!($name)),*];

            /// The field called `name` and its lowest allowed value.
            fn slot(&mut self, name: &str) -> Option<(&mut i32, i32)> {
                match name {
                    $( stringify!($name) => Some((&mut self.$name, $min)), )*
                    _ => None,
                }
            }
        }
    };
}

tunables! {
    /// Reverse futility: a quiet node at depth `d` returns its evaluation when it exceeds
    /// beta by `rfp_margin × d` (0 = off).
    rfp_margin: 70, min 0;
    /// Null-move pruning (0 = off, 1 = on).
    null_move: 1, min 0;
    /// Razoring below alpha by `razor_margin × d` at depth 1-2 (0 = off).
    razor_margin: 200, min 0;
    /// Move-count pruning after `(lmp_base + d²) / 2` quiet moves, twice as many when the
    /// evaluation improves (0 = off).
    lmp_base: 3, min 0;
    /// Futility pruning of quiet moves below alpha by `90 + futility_margin × d` (0 = off).
    futility_margin: 80, min 0;
    /// Late-move reduction `lmr_base/100 + ln d · ln m / (lmr_div/100)` plies.
    lmr_base: 40, min 0;
    /// See `lmr_base`.
    lmr_div: 220, min 1;
    /// Own fours the quiescence search may play in a row.
    qs_fours: 1, min 0;
    /// The quiescence search reads and writes the transposition table (0 = off, 1 = on): a
    /// stored bound that settles the window returns at once, the stored evaluation saves a
    /// new one, the stored move is tried first.
    qs_tt: 1, min 0;
    /// First aspiration half-window at the root.
    aspiration: 40, min 1;
    /// The time target's share of the time limit in percent, when no target is given.
    soft_percent: 50, min 1;
    /// A search whose best move has settled stops past this share of its time target, in
    /// percent (see the search's `Clock`).
    settle_percent: 70, min 1;
    /// Policy-driven reduction: a late quiet move whose learned order value
    /// ([`Position::policy`](crate::ai::position::Position::policy), 1/100 logit) lies `g`
    /// below the node's best is reduced a further `g / policy_lmr` plies (0 = off).
    policy_lmr: 300, min 0;
    /// The share of the time target the root VCT may use, in percent (see
    /// [`Searcher::prepare`](crate::ai::search::Searcher::prepare)).
    vct_time: 10, min 0;
    /// Fail-high reduction under freestyle and standard: at a non-PV cut node whose
    /// evaluation exceeds beta by `fh_margin × d`, every move that makes no four is searched a
    /// ply shallower (0 = off).
    fh_margin: 0, min 0;
    /// [`fh_margin`](Params::fh_margin) under renju.
    renju_fh_margin: 20, min 0;
    /// Defence against a four-three under freestyle and standard (0 = off, 1 = on): below
    /// the root, when the opponent has a point that makes a four and an open three at once
    /// (and no open four to make) and a small VCF search proves its win, only the moves that
    /// could stop that VCF are searched, none of them pruned or reduced.
    four_three: 0, min 0;
    /// [`four_three`](Params::four_three) under renju.
    renju_four_three: 1, min 0;
    /// Correction history under freestyle and standard, in percent of the learned correction
    /// added to the static evaluation (0 = off): the search keeps, per side to move and per
    /// count of each side's threat points, the running mean of how far its results came out
    /// above the evaluation.
    corr_hist: 0, min 0;
    /// [`corr_hist`](Params::corr_hist) under renju.
    renju_corr_hist: 100, min 0;
    /// Move-pair correction history under freestyle and standard, in percent (0 = off): a
    /// second correction table, keyed by the side to move and the points of the last two
    /// moves, added to the threat-profile one.
    pair_corr: 0, min 0;
    /// [`pair_corr`](Params::pair_corr) under renju.
    renju_pair_corr: 50, min 0;
    /// The evaluation's momentum, every rule, in 64ths (0 = off): the point values' sum moves
    /// away from the one of the position before the last move (seen from the side to move)
    /// by `momentum`/64 of their difference, so what the last move changed counts
    /// `1 + momentum/64` times; negative values average the two instead.
    momentum: 16, min -64;
    /// Fours the quiescence may play after its first `qs_fours` under freestyle and standard,
    /// each within two points of the side's previous four or four along one of its lines
    /// (0 = off): a narrow continuous-four chain at the leaves.
    qs_chain: 0, min 0;
    /// [`qs_chain`](Params::qs_chain) under renju.
    renju_qs_chain: 4, min 0;
}

/// The tunables that come as a pair, one value under renju and one under freestyle and
/// standard: the value that applies under a rule.
impl Params {
    /// [`fh_margin`](Params::fh_margin) or [`renju_fh_margin`](Params::renju_fh_margin).
    pub fn fh_margin_under(&self, rule: Rule) -> i32 {
        by_rule(rule, self.fh_margin, self.renju_fh_margin)
    }

    /// [`four_three`](Params::four_three) or [`renju_four_three`](Params::renju_four_three).
    pub fn four_three_under(&self, rule: Rule) -> i32 {
        by_rule(rule, self.four_three, self.renju_four_three)
    }

    /// [`corr_hist`](Params::corr_hist) or [`renju_corr_hist`](Params::renju_corr_hist).
    pub fn corr_hist_under(&self, rule: Rule) -> i32 {
        by_rule(rule, self.corr_hist, self.renju_corr_hist)
    }

    /// [`pair_corr`](Params::pair_corr) or [`renju_pair_corr`](Params::renju_pair_corr).
    pub fn pair_corr_under(&self, rule: Rule) -> i32 {
        by_rule(rule, self.pair_corr, self.renju_pair_corr)
    }

    /// [`qs_chain`](Params::qs_chain) or [`renju_qs_chain`](Params::renju_qs_chain).
    pub fn qs_chain_under(&self, rule: Rule) -> i32 {
        by_rule(rule, self.qs_chain, self.renju_qs_chain)
    }

    /// The fours a quiescence search starts with under a rule: the first
    /// [`qs_fours`](Params::qs_fours) and then the chain ([`Params::qs_chain_under`]).
    pub fn qs_fours_under(&self, rule: Rule) -> i32 {
        self.qs_fours + self.qs_chain_under(rule)
    }
}

/// `renju` under renju, `other` under freestyle and standard.
fn by_rule(rule: Rule, other: i32, renju: i32) -> i32 {
    if rule == Rule::Renju {
        renju
    } else {
        other
    }
}

/// The highest value [`Params::set`] takes.
const PARAM_MAX: i32 = 10_000;

/// A `--param` that names no parameter or has no integer value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for ParamError {}

impl Params {
    /// Sets the parameter `name` to `value`.
    ///
    /// # Errors
    /// When `name` is not one of [`Params::NAMES`] or `value` is not an integer from the
    /// parameter's lowest value (the `min` declared with it in `tunables!`) to 10000.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let Some((slot, min)) = self.slot(name) else {
            return Err(ParamError(format!(
                "unknown parameter {} (known: {})",
                quote(name),
                Params::NAMES.join(", ")
            )));
        };
        let v: i32 = value
            .trim()
            .parse()
            .ok()
            .filter(|v| (min..=PARAM_MAX).contains(v))
            .ok_or_else(|| {
                ParamError(format!(
                    "{}: {} is not from {min} to {PARAM_MAX}",
                    quote(name),
                    quote(value)
                ))
            })?;
        *slot = v;
        Ok(())
    }

    /// Sets every `NAME=VALUE` of a comma-separated list, as `--param` takes it (blank items
    /// are skipped). All or nothing: on an error the parameters are left as they were.
    ///
    /// # Errors
    /// When an item has no `=`, or [`Params::set`] refuses its name or value.
    pub fn set_list(&mut self, list: &str) -> Result<(), ParamError> {
        let mut p = self.clone();
        for item in list.split(',').filter(|s| !s.trim().is_empty()) {
            let (name, value) = item.split_once('=').ok_or_else(|| {
                ParamError(format!("{}: expected NAME=VALUE", quote(item.trim())))
            })?;
            p.set(name.trim(), value)?;
        }
        *self = p;
        Ok(())
    }

    /// Late-move reductions in 1/64 ply by depth and move number (both capped at 63).
    pub(crate) fn lmr_table(&self) -> Box<[[i32; 64]; 64]> {
        let mut t = Box::new([[0; 64]; 64]);
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = base + (d as f64).ln() * (m as f64).ln() / div;
                *r = (v * LMR_ONE as f64) as i32;
            }
        }
        t
    }
}

// Fixed constants of the search. Reductions are counted in 1/64 ply.

/// One ply of late-move reduction (the reductions are computed in 1/64 ply).
pub(crate) const LMR_ONE: i32 = 64;
/// Late-move reduction adjustments, in 1/64 ply: less at PV nodes, for moves that are not
/// quiet and for killers; more at expected cut nodes and when the evaluation is not
/// improving. History lowers it by `history / LMR_HISTORY_DIV`.
pub(crate) const LMR_PV: i32 = 64;
/// See [`LMR_PV`].
pub(crate) const LMR_CUT: i32 = 64;
/// See [`LMR_PV`].
pub(crate) const LMR_NOT_QUIET: i32 = 64;
/// See [`LMR_PV`].
pub(crate) const LMR_KILLER: i32 = 64;
/// See [`LMR_PV`].
pub(crate) const LMR_NOT_IMPROVING: i32 = 32;
/// See [`LMR_PV`].
pub(crate) const LMR_HISTORY_DIV: i32 = 128;
/// Null-move reduction at depth `d`: `NULL_MOVE_R + d / NULL_MOVE_R_DIV` plies.
pub(crate) const NULL_MOVE_R: i32 = 3;
/// See [`NULL_MOVE_R`].
pub(crate) const NULL_MOVE_R_DIV: i32 = 4;
/// Futility pruning's fixed part of the margin (see [`Params::futility_margin`]).
pub(crate) const FUTILITY_BASE: i32 = 90;
/// Four extensions stop past ply `EXTENSION_PLY_FACTOR × depth + EXTENSION_PLY_SLACK` of an
/// iteration, so a long run of fours cannot grow the tree without bound.
pub(crate) const EXTENSION_PLY_FACTOR: usize = 2;
/// See [`EXTENSION_PLY_FACTOR`].
pub(crate) const EXTENSION_PLY_SLACK: usize = 12;
/// Move-order bonuses of the first and second killer and of the counter-move, on top of the
/// learned order value (1/100 logit) plus `history / ORDER_HISTORY_DIV`.
pub(crate) const ORDER_KILLER: [i32; 2] = [300, 250];
/// See [`ORDER_KILLER`].
pub(crate) const ORDER_COUNTER: i32 = 200;
/// See [`ORDER_KILLER`].
pub(crate) const ORDER_HISTORY_DIV: i32 = 64;
/// A cutoff at depth `d` moves the history of its move by `HISTORY_BONUS × d²` (at most
/// [`HISTORY_BONUS_MAX`]) towards the limit, and that of the quiet moves tried before it away.
pub(crate) const HISTORY_BONUS: i32 = 16;
/// See [`HISTORY_BONUS`].
pub(crate) const HISTORY_BONUS_MAX: i32 = 2048;
/// The root VCF may use the time limit divided by this.
pub(crate) const ROOT_VCF_TIME_DIV: u32 = 4;
/// Node budget of the root VCF (it cannot be interrupted by the clock).
pub(crate) const ROOT_VCF_BUDGET: u64 = 400_000;
/// The probes that check root moves against an opponent's VCF use at most this many nodes
/// each, and all together the time target divided by [`ROOT_DEFENCE_TIME_DIV`].
pub(crate) const ROOT_DEFENCE_BUDGET: u64 = 20_000;
/// See [`ROOT_DEFENCE_BUDGET`].
pub(crate) const ROOT_DEFENCE_TIME_DIV: u32 = 3;
/// The defence against a four-three (see [`Params::four_three`]) looks for the opponent's
/// VCF with at most this many attacking moves …
pub(crate) const FOUR_THREE_VCF_DEPTH: u32 = 4;
/// … and this many threat nodes.
pub(crate) const FOUR_THREE_VCF_NODES: u64 = 300;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_set_by_name_within_their_range() {
        let mut p = Params::default();
        p.set("soft_percent", "7").unwrap();
        assert_eq!(p.soft_percent, 7);
        assert!(p.set("soft_percent", "0").is_err());
        assert!(p.set("qs_fours", "-1").is_err());
        assert!(p.set("qs_fours", "10001").is_err());
        assert!(p.set("nonsense", "1").is_err());
        p.set("qs_fours", "0").unwrap();
        assert_eq!(p.qs_fours, 0);
        // A tunable whose lowest value is negative takes negative values down to it.
        p.set("momentum", "-64").unwrap();
        assert_eq!(p.momentum, -64);
        assert!(p.set("momentum", "-65").is_err());
        for name in Params::NAMES {
            let mut q = Params::default();
            q.set(name, "9").unwrap();
            assert_ne!(q, Params::default(), "{name} sets a field");
        }
    }

    #[test]
    fn a_list_is_set_whole_or_not_at_all() {
        let mut p = Params::default();
        p.set_list(" qs_fours=0, soft_percent = 7 ,").unwrap();
        assert_eq!((p.qs_fours, p.soft_percent), (0, 7));
        let before = p.clone();
        for bad in [
            "qs_fours=1,nonsense=2",
            "qs_fours=1,soft_percent",
            "qs_fours=x",
            "=3",
        ] {
            assert!(p.set_list(bad).is_err(), "{bad}");
            assert_eq!(p, before, "{bad} left the parameters as they were");
        }
        p.set_list("").unwrap();
        assert_eq!(p, before);
    }
}
