//! The rule variants and board-size limits.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// Smallest board the engine accepts.
pub const MIN_SIZE: u8 = 5;
/// Largest board the engine accepts (the Gomocup range).
pub const MAX_SIZE: u8 = 20;

/// Which rules the referee applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    #[default]
    Freestyle,
    /// Exactly five wins; an overline does not win and the game goes on.
    Standard,
    /// RIF renju: black wins with exactly five and may not make an overline, a double-four or a
    /// double-three; white wins with five or more and has no forbidden moves.
    Renju,
}

impl Rule {
    /// All variants.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// Whether `color` needs exactly five (an overline does not win for it).
    #[must_use]
    pub const fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => matches!(color, Color::Black),
        }
    }

    /// Whether `color` has forbidden moves under this rule.
    #[must_use]
    pub const fn has_forbidden(self, color: Color) -> bool {
        matches!((self, color), (Rule::Renju, Color::Black))
    }

    /// `"freestyle"`, `"standard"` or `"renju"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not one of `freestyle`, `standard`, `renju`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleError(pub String);

impl fmt::Display for ParseRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule {} (expected freestyle, standard or renju)",
            crate::text::quote(&self.0)
        )
    }
}

impl std::error::Error for ParseRuleError {}

impl FromStr for Rule {
    type Err = ParseRuleError;

    fn from_str(s: &str) -> Result<Rule, ParseRuleError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exactly-five" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            _ => Err(ParseRuleError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactness_per_rule() {
        assert!(!Rule::Freestyle.exact_five(Color::Black));
        assert!(Rule::Standard.exact_five(Color::White));
        assert!(Rule::Renju.exact_five(Color::Black));
        assert!(!Rule::Renju.exact_five(Color::White));
    }

    #[test]
    fn names_round_trip() {
        for r in Rule::ALL {
            assert_eq!(r.to_string().parse::<Rule>(), Ok(r));
        }
        assert!("go".parse::<Rule>().is_err());
    }
}
