//! Playing levels and search limits.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How strong the computer plays, from 1 (Beginner) to 5 (Master).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Level {
    /// A one-ply pattern scorer with randomness: takes fives, blocks fives and open fours,
    /// misses subtler threats.
    Beginner,
    /// A shallow search.
    Easy,
    /// A deeper search with threat extensions.
    #[default]
    Medium,
    /// Full search with VCF at the root and at the leaves.
    Hard,
    /// The strongest: deeper search plus VCT.
    Master,
}

/// Limits on one search. `None` means "no limit of this kind"; a search with no limit at all
/// stops at the level's own depth cap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Wall-clock budget: the search never takes longer.
    pub time: Option<Duration>,
    /// The time the search aims to use when `time` is set: iterative deepening stops past
    /// it once the best move is settled, and goes on towards `time` while it is not. `None`:
    /// half of `time`. A target of `time` or more keeps deepening until `time` (a per-move
    /// clock with nothing to save for later); then only a proven win ends it early, and a forced
    /// answer or a proven loss searches on, filling the table for the next move.
    pub target: Option<Duration>,
    /// Node budget (deterministic, unlike time).
    pub nodes: Option<u64>,
    /// Deepest full-width iteration.
    pub depth: Option<u32>,
}

impl Limits {
    /// Only a node budget: the search is deterministic for a given seed.
    #[must_use]
    pub const fn nodes(n: u64) -> Limits {
        Limits {
            time: None,
            target: None,
            nodes: Some(n),
            depth: None,
        }
    }

    /// This budget shared equally between `n` searches: the time, target and node limits
    /// divided by `n` (at least 1 ms or 1 node each), the depth cap unchanged.
    #[must_use]
    pub fn shared(self, n: usize) -> Limits {
        let n = n.max(1);
        let k = u32::try_from(n).unwrap_or(u32::MAX);
        let ms = Duration::from_millis(1);
        Limits {
            time: self.time.map(|t| (t / k).max(ms)),
            target: self.target.map(|t| (t / k).max(ms)),
            nodes: self.nodes.map(|v| (v / n as u64).max(1)),
            depth: self.depth,
        }
    }

    /// Only a time budget.
    #[must_use]
    pub const fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            target: None,
            nodes: None,
            depth: None,
        }
    }
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Master,
    ];

    /// 1 (Beginner) to 5 (Master).
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The level with this number (1..=5).
    #[must_use]
    pub const fn from_number(n: u8) -> Option<Level> {
        match n {
            1..=5 => Some(Level::ALL[n as usize - 1]),
            _ => None,
        }
    }

    /// Lower-case name, e.g. `"hard"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Master => "master",
        }
    }

    /// The per-move budget the app uses: Hard 300 ms, Master 1 s (docs/ai.md, *Levels*).
    #[must_use]
    pub const fn default_limits(self) -> Limits {
        let ms = match self {
            Level::Beginner => 50,
            Level::Easy => 100,
            Level::Medium => 200,
            Level::Hard => 300,
            Level::Master => 1000,
        };
        Limits::time(Duration::from_millis(ms))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {} (expected beginner, easy, medium, hard, master or 1-5)",
            crate::text::quote(&self.0)
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Reads a name (`"hard"`, any case) or a number (`"4"`).
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        let t = s.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<u8>() {
            return Level::from_number(n).ok_or_else(|| ParseLevelError(s.to_string()));
        }
        Level::ALL
            .into_iter()
            .find(|l| l.name() == t)
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
            assert_eq!(l.number().to_string().parse::<Level>(), Ok(l));
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        assert!("6".parse::<Level>().is_err());
        assert!("0".parse::<Level>().is_err());
        assert!("godlike".parse::<Level>().is_err());
    }

    #[test]
    fn budgets_follow_the_spec() {
        assert_eq!(
            Level::Hard.default_limits().time,
            Some(Duration::from_millis(300))
        );
        assert_eq!(
            Level::Master.default_limits().time,
            Some(Duration::from_secs(1))
        );
        assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
    }
}
