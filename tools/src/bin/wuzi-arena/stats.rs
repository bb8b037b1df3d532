//! Match statistics: pentanomial pair counts, logistic Elo with its 95% interval, and the
//! generalised SPRT (GSPRT) fishtest uses to stop a test as soon as the games decide it.
//!
//! # Why pairs
//! Both games of a pair start from the same opening with colours swapped, so the opening's
//! and the first move's bias cancel within the pair, and the two games are correlated. Treating
//! them as independent games (the trinomial W/D/L model) overstates the variance when
//! openings are lopsided; counting the five possible pair results — A scores 0, ½, 1, 1½ or
//! 2 points out of 2, i.e. a pair score of 0, 0.25, 0.5, 0.75 or 1 — measures it directly.
//! That vector `[LL, LD, DD+WL, WD, WW]` is the *pentanomial*.
//!
//! # Elo
//! With `N` pairs, mean pair score `m` and per-pair variance `v = Σ pᵢ (xᵢ − m)²`, the
//! logistic Elo difference is `E(m) = −400 · log₁₀(1/m − 1)`; its 95% interval maps
//! `m ± 1.96 · √(v/N)` through `E` (the ± printed is half the width of that interval, which
//! is not symmetric around `E(m)`); it is unbounded while the pair scores do not vary yet.
//!
//! # GSPRT
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. Each bound becomes an expected score
//! `sᵢ = 1 / (1 + 10^(−eloᵢ/400))`. Approximating the pair scores as normal with the
//! observed variance, the log-likelihood ratio of H1 against H0 after `N` pairs is
//!
//! ```text
//! LLR = N · (s1 − s0) · (2m − s0 − s1) / (2v)
//! ```
//!
//! (fishtest's `LLR_logistic` on pentanomial data; it follows from the two normal
//! log-likelihoods with means `s0`, `s1` and the common variance `v`). The test stops when
//! `LLR ≤ ln(β / (1 − α))` (H0 accepted) or `LLR ≥ ln((1 − β) / α)` (H1 accepted); with
//! α = β = 0.05 the bounds are ±2.944.
//!
//! # Zero variance
//! The formula needs the variance, which is zero while every pair so far ended the same way
//! (only 1–1 pairs, or a brain that loses every game). The LLR is then 0: the test waits for
//! the results to spread. Fishtest instead counts an empty bin as 10⁻³ pairs, which is
//! harmless with its batches of many games but not with pairs arriving one at a time: two
//! won pairs (four games) give an LLR of 7.6 and accept H1. In a simulation of equal
//! engines (pair results `[.12, .08, .6, .08, .12]`, 200 SPRTs with bounds 0 and 5 Elo) the
//! regularised LLR accepted H1 in 9% of the runs, 14 of them within 20 pairs, against the
//! promised α = 5%; waiting for spread accepted it in 3.5%, never within 20 pairs (and at
//! +5 Elo it accepted H0 in 3.3% of 150 runs, within β). A run in which A wins (or splits)
//! every pair never reaches a verdict this way, and ends at `--max-pairs`; its report shows
//! why.

use wuzi::Color;

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Counts of the five pair results, indexed by A's points in the pair times two:
/// `[LL, LD, DD or WL, WD, WW]`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// The pair score of each bin.
    pub const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Counts one pair in which A scored `half_points` / 2 points out of 2 (0..=4).
    pub fn add(&mut self, half_points: usize) {
        if let Some(n) = self.0.get_mut(half_points) {
            *n += 1;
        }
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and per-pair variance of the pair score over `weights`.
    fn moments(weights: [f64; 5]) -> Option<(f64, f64)> {
        let n: f64 = weights.iter().sum();
        if n <= 0.0 {
            return None;
        }
        let m = weights
            .iter()
            .zip(Self::SCORES)
            .map(|(w, x)| w * x)
            .sum::<f64>()
            / n;
        let v = weights
            .iter()
            .zip(Self::SCORES)
            .map(|(w, x)| w * (x - m) * (x - m))
            .sum::<f64>()
            / n;
        Some((m, v))
    }

    /// Mean pair score and per-pair variance of the counts as they are; `None` without
    /// pairs.
    #[must_use]
    pub fn mean_var(&self) -> Option<(f64, f64)> {
        Self::moments(self.0.map(|c| c as f64))
    }

    /// The Elo estimate and its 95% interval; `None` without pairs. The interval is
    /// unbounded until the pair scores vary (fewer than two pairs, or all alike): a variance
    /// of zero says nothing about the spread, and an interval of ±0 would claim certainty.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        let (m, v) = self.mean_var()?;
        let elo = elo_from_score(m);
        if self.pairs() < 2 || v <= 0.0 {
            return Some(EloEstimate {
                elo,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            });
        }
        let d = Z95 * (v / self.pairs() as f64).sqrt();
        Some(EloEstimate {
            elo,
            low: elo_from_score(m - d),
            high: elo_from_score(m + d),
        })
    }

    /// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`); 0 until the pair
    /// scores vary (see the module docs).
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((m, v)) = self.mean_var().filter(|&(_, v)| v > 0.0) else {
            return 0.0;
        };
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        self.pairs() as f64 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }
}

/// An Elo difference with its 95% interval (infinite ends when the score interval reaches 0%
/// or 100%).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl EloEstimate {
    /// Half the interval's width: the `±` in reports.
    #[must_use]
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// `+9.4 ± 31.0` (`inf` where the interval is unbounded).
    #[must_use]
    pub fn text(&self) -> String {
        format!("{} ± {}", signed(self.elo), unsigned(self.margin()))
    }
}

/// `+9.4`, `-3.0`, `+inf`.
#[must_use]
pub fn signed(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    // No "-0.0" for an even score (or a tiny negative one that rounds to zero).
    let x = if x.abs() < 0.05 { 0.0 } else { x };
    format!("{x:+.1}")
}

/// `31.0`, `inf`.
#[must_use]
pub fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

/// The logistic Elo difference that gives expected score `s` (±∞ at 0 and 1).
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The SPRT stopping bounds on the LLR: `(ln(β/(1−α)), ln((1−β)/α))`.
#[must_use]
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Move-time samples in ms.
#[derive(Clone, Debug, Default)]
pub struct Times(Vec<f64>);

impl Times {
    /// Adds one sample.
    pub fn push(&mut self, ms: f64) {
        self.0.push(ms);
    }

    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Arithmetic mean (0 without samples).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.0.is_empty() {
            0.0
        } else {
            self.0.iter().sum::<f64>() / self.0.len() as f64
        }
    }

    /// The nearest-rank percentile: the smallest sample with at least `pct`% of the samples
    /// at or below it (0 without samples).
    #[must_use]
    pub fn percentile(&self, pct: f64) -> f64 {
        let mut v = self.0.clone();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return 0.0;
        }
        let rank = ((pct / 100.0 * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[rank - 1]
    }

    /// The largest sample (0 without samples).
    #[must_use]
    pub fn max(&self) -> f64 {
        self.0.iter().copied().fold(0.0, f64::max)
    }

    /// How many samples exceed `limit`.
    #[must_use]
    pub fn over(&self, limit: f64) -> usize {
        self.0.iter().filter(|&&t| t > limit).count()
    }
}

/// Wins, losses and draws from one side's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Wins.
    pub w: u64,
    /// Losses.
    pub l: u64,
    /// Draws.
    pub d: u64,
}

impl Wld {
    /// Games.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.w + self.l + self.d
    }

    /// Points scored in percent (0 without games).
    #[must_use]
    pub fn score_percent(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => (self.w as f64 + self.d as f64 / 2.0) * 100.0 / n as f64,
        }
    }

    /// `30-28-16`.
    #[must_use]
    pub fn dashed(&self) -> String {
        format!("{}-{}-{}", self.w, self.l, self.d)
    }

    /// Half the width of the 95% interval of [`Wld::score_percent`], in points, treating the
    /// games as independent (1.96 standard errors of the per-game score; 0 without games).
    #[must_use]
    pub fn noise_percent(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let m = self.score_percent() / 100.0;
        let var = (self.w as f64 * (1.0 - m).powi(2)
            + self.d as f64 * (0.5 - m).powi(2)
            + self.l as f64 * m.powi(2))
            / n as f64;
        1.96 * (var / n as f64).sqrt() * 100.0
    }

    /// The same games from the opponent's side.
    #[must_use]
    pub fn mirrored(&self) -> Wld {
        Wld {
            w: self.l,
            l: self.w,
            d: self.d,
        }
    }

    /// `12-13-1 (48.1% ± 19.4)`.
    #[must_use]
    pub fn with_noise(&self) -> String {
        format!(
            "{} ({:.1}% ± {:.1})",
            self.dashed(),
            self.score_percent(),
            self.noise_percent()
        )
    }

    /// Counts one game of the side that played `mine`.
    pub fn add(&mut self, mine: Color, winner: Option<Color>) {
        match winner {
            Some(w) if w == mine => self.w += 1,
            Some(_) => self.l += 1,
            None => self.d += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(score_from_elo(0.0), 0.5, 1e-15));
        // 75% is 400·log10(3) = 190.85 Elo.
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9));
        assert!(close(score_from_elo(-190.848_501_887_864_98), 0.25, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        // s1 for 5 Elo: 1/(1+10^(-1/80)).
        assert!(close(score_from_elo(5.0), 0.507_195_081_709_051_4, 1e-12));
    }

    #[test]
    fn sprt_bounds_match_wald() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        // ln(0.05/0.95) = -ln(19).
        assert!(close(lo, -2.944_438_979_166_44, 1e-12));
        assert!(close(hi, 2.944_438_979_166_44, 1e-12));
        let (lo, hi) = sprt_bounds(0.05, 0.10);
        assert!(close(lo, (0.10f64 / 0.95).ln(), 1e-15));
        assert!(close(hi, (0.90f64 / 0.05).ln(), 1e-15));
    }

    #[test]
    fn moments_by_hand() {
        // [1, 2, 3, 4, 5]: N = 15, Σ n·x = 0 + 0.5 + 1.5 + 3 + 5 = 10, m = 2/3.
        // Σ n·x² = 0 + 2/16 + 3/4 + 36/16 + 5 = 8.125, v = 8.125/15 − 4/9 = 0.097222…
        let p = Pentanomial([1, 2, 3, 4, 5]);
        let (m, v) = p.mean_var().unwrap();
        assert!(close(m, 2.0 / 3.0, 1e-15));
        assert!(close(v, 8.125 / 15.0 - 4.0 / 9.0, 1e-15));
        assert_eq!(Pentanomial::default().mean_var(), None);
    }

    #[test]
    fn llr_by_hand() {
        // The same pentanomial: LLR = N (s1 − s0)(2m − s0 − s1) / (2v), with elo0 = 0
        // (s0 = 0.5) and elo1 = 5 (s1 = 0.5071950817090514).
        let p = Pentanomial([1, 2, 3, 4, 5]);
        let (s0, s1) = (0.5, 0.507_195_081_709_051_4);
        let m = 2.0 / 3.0;
        let v = 8.125 / 15.0 - 4.0 / 9.0;
        let expected = 15.0 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        // ≈ 15 · 0.0071951 · 0.3261382 / 0.1944444 = 0.18102
        assert!(close(expected, 0.181_02, 1e-4), "{expected}");
        assert!(close(p.llr(0.0, 5.0), expected, 1e-9));
        // A symmetric result is evidence for H0 when elo0 = 0 < elo1.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        assert!(even.llr(0.0, 5.0) < 0.0);
        // Swapping the hypotheses negates the LLR.
        assert!(close(p.llr(5.0, 0.0), -p.llr(0.0, 5.0), 1e-12));
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
    }

    #[test]
    fn zero_variance_waits_for_spread() {
        // Every pair a 1-1 split, or every pair won: no spread, no evidence yet.
        let p = Pentanomial([0, 0, 7, 0, 0]);
        assert_eq!(p.mean_var(), Some((0.5, 0.0)));
        assert_eq!(p.llr(0.0, 5.0), 0.0);
        assert_eq!(Pentanomial([0, 0, 0, 0, 30]).llr(0.0, 5.0), 0.0);
        // One pair won 1.5-0.5 among six 1-1 pairs: N = 7, m = 3.75/7,
        // v = (6·(0.5 − m)² + (0.75 − m)²)/7 = 0.0076531, LLR = 7·(s1 − s0)(2m − s0 − s1)/(2v)
        // = 7 · 0.0071951 · 0.0642341 / 0.0153061 = 0.21136.
        let llr = Pentanomial([0, 0, 6, 1, 0]).llr(0.0, 5.0);
        assert!(close(llr, 0.211_36, 1e-5), "{llr}");
    }

    #[test]
    fn elo_interval() {
        // 50% with spread: 0 Elo, symmetric interval.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        let e = even.elo().unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.low, -e.high, 1e-9));
        // v = (10·0.5²·2 + 20·0.25²·2)/100 = 0.075; d = 1.96·√(0.075/100).
        let d = Z95 * (0.075f64 / 100.0).sqrt();
        assert!(close(e.high, elo_from_score(0.5 + d), 1e-9));
        assert!(close(e.margin(), elo_from_score(0.5 + d), 1e-9));
        assert_eq!(e.text(), format!("+0.0 ± {:.1}", e.margin()));
        // All won: +inf with an infinite interval.
        let e = Pentanomial([0, 0, 0, 0, 4]).elo().unwrap();
        assert_eq!(e.text(), "+inf ± inf");
        // No spread yet: an estimate, but no interval.
        assert_eq!(
            Pentanomial([0, 0, 1, 0, 0]).elo().unwrap().text(),
            "+0.0 ± inf"
        );
        assert_eq!(
            Pentanomial([0, 0, 9, 0, 0]).elo().unwrap().text(),
            "+0.0 ± inf"
        );
        assert_eq!(
            Pentanomial([0, 0, 0, 1, 0]).elo().unwrap().text(),
            "+190.8 ± inf"
        );
        assert_eq!(Pentanomial::default().elo(), None);
    }

    #[test]
    fn time_percentiles() {
        let mut t = Times::default();
        for ms in [5.0, 1.0, 4.0, 2.0, 3.0] {
            t.push(ms);
        }
        assert_eq!(t.mean(), 3.0);
        assert_eq!(t.percentile(50.0), 3.0);
        assert_eq!(t.percentile(99.0), 5.0);
        assert_eq!(t.percentile(0.0), 1.0);
        assert_eq!(t.max(), 5.0);
        assert_eq!(t.over(3.5), 2);
        assert_eq!(Times::default().percentile(50.0), 0.0);
    }
}
