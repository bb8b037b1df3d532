//! The position editor (issue 10 §5): a position set up in the UI is checked by the engine's
//! referee (`Game::from_setup`) and, once accepted, started as a new game for analysis, against
//! the computer or between two players.

use serde::Deserialize;
use wuzi::{Color, Game, Level, Point, Rule, Setup};

use crate::error::{Error, Result};
use crate::settings::{check_size, Mode};

/// How much of a bad point's text an error quotes: the input may be anything.
const QUOTED_CHARS: usize = 12;

/// A position as the editor sends it (`check_setup`, `start_setup`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetupRequest {
    /// The rule the position is judged and played under.
    pub rule: Rule,
    /// The board size.
    pub size: u8,
    /// Black's stones, RIF, in any order.
    pub black: Vec<String>,
    /// White's stones, RIF, in any order.
    pub white: Vec<String>,
    /// Who plays first from the position.
    pub to_move: Color,
}

/// Who plays a set-up position (`start_setup`); a missing field takes the current setting.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SetupPlayers {
    /// Against the computer or two players (analysis is two players with analysis on).
    pub mode: Mode,
    /// The human's colour against the computer.
    #[serde(default)]
    pub human_color: Option<Color>,
    /// The computer's level, 1..=5.
    #[serde(default, with = "crate::settings::optional_level")]
    pub level: Option<Level>,
}

impl SetupRequest {
    /// The game starting from this position.
    ///
    /// # Errors
    /// [`Error::BadArgument`] for an unsupported size, more stones than points or text that is
    /// not a point; [`Error::BadSetup`] for a stone off the board or a position the referee
    /// refuses (a five already made, a renju black overline, a point given twice).
    pub fn game(&self) -> Result<Game> {
        let size = self.size;
        check_size(size)?;
        let points = usize::from(size) * usize::from(size);
        if self.black.len() + self.white.len() > points {
            return Err(Error::BadArgument(format!(
                "{} stones do not fit on a {size}x{size} board",
                self.black.len() + self.white.len()
            )));
        }
        let parse = |list: &[String], color: Color| -> Result<Vec<Point>> {
            list.iter()
                .map(|text| {
                    Point::from_rif(text, size).map_err(|e| match e {
                        wuzi::ParsePointError::OffBoard { text, .. } => {
                            Error::BadSetup(crate::error::SetupRefusal {
                                reason: "offBoard",
                                color: Some(color),
                                points: vec![text.chars().take(QUOTED_CHARS).collect()],
                                message: format!("a {color} stone is off the {size}x{size} board"),
                            })
                        }
                        other => Error::BadArgument(other.to_string()),
                    })
                })
                .collect()
        };
        let setup = Setup {
            size,
            black: parse(&self.black, Color::Black)?,
            white: parse(&self.white, Color::White)?,
            to_move: self.to_move,
        };
        Game::from_setup(self.rule, &setup).map_err(|e| Error::from_setup(&e, size))
    }
}
