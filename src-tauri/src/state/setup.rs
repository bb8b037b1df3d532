//! The position editor (issue 10 §5): a position set up in the UI is checked by the engine's
//! referee (`Game::from_setup`) and, once accepted, started as a new game for analysis, against
//! the computer or between two players.

use serde::Deserialize;
use wuzi::Setup;

use super::*;
use crate::settings::check_size;

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
    #[serde(default, with = "super::optional_level")]
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

impl AppCore {
    /// Whether `request` can start a game; changes nothing either way.
    ///
    /// # Errors
    /// As [`SetupRequest::game`].
    pub fn check_setup(&self, request: &SetupRequest) -> Result<()> {
        request.game().map(drop)
    }

    /// Replaces the game by one starting from `request`, played by `players`, as a new game.
    /// The settings stay as they were: they are the defaults of the next ordinary game. A set-up
    /// position is practice: its result is never counted in the statistics.
    ///
    /// # Errors
    /// As [`SetupRequest::game`]; nothing changes then.
    pub fn start_setup(
        &mut self,
        request: &SetupRequest,
        players: &SetupPlayers,
    ) -> Result<GameView> {
        let game = request.game()?;
        self.cancel_search();
        // As after `new_game`: the UI turns analysis on again when the player asked for it.
        self.stop_analysis();
        self.review = None;
        self.cancel_review();
        self.session = GameSetup {
            game_id: self.session.game_id.wrapping_add(1),
            mode: players.mode,
            level: players.level.unwrap_or(self.settings.level),
            human_color: players.human_color.unwrap_or(self.settings.human_color),
            // The empty board with black to move is an ordinary game and counts as one.
            stats_counted: game.setup().is_some(),
            game_uid: new_game_uid(),
            analysed: false,
            opening: None,
            // An edited position starts as it stands: a Swap / Swap2 opening (issue 10 §3) is
            // for the empty board, and its stones here were the player's own choice.
            swap: None,
        };
        self.game = game;
        // The clock times the moves from the position (its stones have no times) and runs at
        // once: the side to move is already thinking. A time limit is for a game against the
        // computer, where it also bounds the computer's search; between two players and in
        // analysis a set-up position is study, like a loaded record, and has none.
        let limit = match players.mode {
            Mode::Computer => self.settings.time_limit(),
            Mode::Local => None,
        };
        self.clock = GameClock::new(&self.game, limit);
        self.sync_clock();
        self.save_game();
        Ok(self.view())
    }
}
