//! The save format (feature `serde`): [`SavedGame`], the versioned form the app keeps a game in
//! (`game.json`), and its checked load back into a [`Game`].

use std::fmt;

use super::{Game, PlayError};
use crate::{Color, ParsePointError, Point, Rule, Setup, SetupError, SizeError};

/// A game as written to disk (feature `serde`): moves in RIF notation, black first, or
/// after a set-up position.
///
/// Loading checks the setup and replays every move through the referee, so a damaged or
/// tampered file can never produce an illegal position.
///
/// ```json
/// {"version":1,"rule":"renju","size":15,"moves":["h8","i9"],"redo":["g7"]}
/// {"version":2,"rule":"renju","size":15,
///  "setup":{"black":["h8","i9"],"white":["h9"],"to_move":"white"},"moves":["j10"]}
/// ```
///
/// A game without a setup is written as version 1, so that older readers still load it;
/// one with a setup is version 2, which older readers refuse rather than load without
/// its stones.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    /// Format version; only [`SavedGame::VERSION`] is understood.
    pub version: u32,
    /// The rule.
    pub rule: Rule,
    /// The board size.
    pub size: u8,
    /// The set-up position the game started from (version 2); absent for the empty board
    /// with black to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<SavedSetup>,
    /// Moves played, black first (or from the setup's side to move), RIF (`"h8"`).
    pub moves: Vec<String>,
    /// Undone moves that redo would replay, next one first, RIF.
    #[serde(default)]
    pub redo: Vec<String>,
}

impl SavedGame {
    /// The newest version this crate reads and writes (version 1, without a setup, is
    /// read and written too).
    pub const VERSION: u32 = 2;
}

/// The set-up position of a [`SavedGame`]: stones in RIF notation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedSetup {
    /// The black stones.
    pub black: Vec<String>,
    /// The white stones.
    pub white: Vec<String>,
    /// The side to move at the set-up position.
    pub to_move: Color,
}

/// Which list of a [`SavedGame`] an error is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SaveList {
    /// `moves`.
    Moves,
    /// `redo`.
    Redo,
    /// `setup.black`.
    SetupBlack,
    /// `setup.white`.
    SetupWhite,
}

impl fmt::Display for SaveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SaveList::Moves => "moves",
            SaveList::Redo => "redo",
            SaveList::SetupBlack => "setup.black",
            SaveList::SetupWhite => "setup.white",
        })
    }
}

/// Why a [`SavedGame`] could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A format version this crate does not know.
    UnknownVersion(u32),
    /// An unsupported board size.
    Size(SizeError),
    /// A set-up position the referee refuses.
    Setup(SetupError),
    /// A move or setup stone that is not a point on the board.
    BadPoint {
        /// Which list.
        list: SaveList,
        /// 1-based position in that list.
        number: usize,
        /// Why.
        error: ParsePointError,
    },
    /// A move the referee refuses at that point of the game.
    Illegal {
        /// Which list.
        list: SaveList,
        /// 1-based position in that list.
        number: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: PlayError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::UnknownVersion(v) => write!(
                f,
                "saved game version {v} is not supported (expected 1 to {})",
                SavedGame::VERSION
            ),
            LoadError::Size(e) => e.fmt(f),
            LoadError::Setup(e) => write!(f, "setup: {e}"),
            LoadError::BadPoint {
                list,
                number,
                error,
            } => write!(f, "{list} entry {number}: {error}"),
            LoadError::Illegal {
                list,
                number,
                text,
                error,
            } => write!(f, "{list} entry {number} ({text}) is illegal: {error}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Size(e) => Some(e),
            LoadError::Setup(e) => Some(e),
            LoadError::BadPoint { error, .. } => Some(error),
            LoadError::Illegal { error, .. } => Some(error),
            LoadError::UnknownVersion(_) => None,
        }
    }
}

impl Game {
    /// The game in the save format.
    #[must_use]
    pub fn to_saved(&self) -> SavedGame {
        let size = self.size();
        let rif = |p: &Point| p.rif(size).to_string();
        let setup = self.setup().map(|s| SavedSetup {
            black: s.black.iter().map(rif).collect(),
            white: s.white.iter().map(rif).collect(),
            to_move: s.to_move,
        });
        SavedGame {
            version: if setup.is_some() {
                SavedGame::VERSION
            } else {
                1
            },
            rule: self.rule(),
            size,
            setup,
            moves: self.moves().iter().map(rif).collect(),
            redo: self.redo_moves().iter().map(rif).collect(),
        }
    }

    /// Rebuilds a game from its set-up position (if any) by replaying the saved moves,
    /// then the redo moves, through the referee, and undoing the latter again.
    ///
    /// # Errors
    /// [`LoadError`] for an unknown version, a bad size, a malformed or off-board point,
    /// a setup the referee refuses, or a move it refuses (occupied, forbidden, after the
    /// game ended).
    pub fn from_saved(saved: &SavedGame) -> Result<Game, LoadError> {
        if !(1..=SavedGame::VERSION).contains(&saved.version) {
            return Err(LoadError::UnknownVersion(saved.version));
        }
        let mut game = match &saved.setup {
            None => Game::new(saved.rule, saved.size).map_err(LoadError::Size)?,
            Some(s) => {
                let points = |list: SaveList, texts: &[String]| {
                    texts
                        .iter()
                        .enumerate()
                        .map(|(i, text)| {
                            Point::from_rif(text, saved.size).map_err(|error| LoadError::BadPoint {
                                list,
                                number: i + 1,
                                error,
                            })
                        })
                        .collect::<Result<Vec<Point>, LoadError>>()
                };
                let setup = Setup {
                    size: saved.size,
                    black: points(SaveList::SetupBlack, &s.black)?,
                    white: points(SaveList::SetupWhite, &s.white)?,
                    to_move: s.to_move,
                };
                Game::from_setup(saved.rule, &setup).map_err(|e| match e {
                    SetupError::Size(e) => LoadError::Size(e),
                    e => LoadError::Setup(e),
                })?
            }
        };
        for (list, texts) in [
            (SaveList::Moves, &saved.moves),
            (SaveList::Redo, &saved.redo),
        ] {
            for (i, text) in texts.iter().enumerate() {
                let number = i + 1;
                let p = Point::from_rif(text, saved.size).map_err(|error| LoadError::BadPoint {
                    list,
                    number,
                    error,
                })?;
                game.try_play(p).map_err(|error| LoadError::Illegal {
                    list,
                    number,
                    text: text.clone(),
                    error,
                })?;
            }
        }
        for _ in &saved.redo {
            game.undo();
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::pts;

    fn setup(black: &str, white: &str, to_move: Color) -> Setup {
        Setup {
            size: 15,
            black: pts(black),
            white: pts(white),
            to_move,
        }
    }

    #[test]
    fn save_round_trip_and_errors() {
        let mut g = Game::from_moves(Rule::Renju, 15, &pts("h8 i9 g7 j10")).unwrap();
        g.undo();
        let saved = g.to_saved();
        assert_eq!(saved.moves, ["h8", "i9", "g7"]);
        assert_eq!(saved.redo, ["j10"]);
        let back = Game::from_saved(&saved).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.redo_moves(), g.redo_moves());
        assert_eq!(back.board(), g.board());

        let mut bad = saved.clone();
        bad.version = 0;
        assert_eq!(
            Game::from_saved(&bad).unwrap_err(),
            LoadError::UnknownVersion(0)
        );
        let mut bad = saved.clone();
        bad.moves[1] = "z99".into();
        assert!(matches!(
            Game::from_saved(&bad),
            Err(LoadError::BadPoint { number: 2, .. })
        ));
        let mut bad = saved.clone();
        bad.redo = vec!["h8".into()];
        assert!(matches!(
            Game::from_saved(&bad),
            Err(LoadError::Illegal {
                list: SaveList::Redo,
                number: 1,
                ..
            })
        ));
        let mut bad = saved;
        bad.size = 30;
        assert!(matches!(Game::from_saved(&bad), Err(LoadError::Size(_))));
    }

    #[test]
    fn a_setup_is_saved_and_loaded() {
        let mut g =
            Game::from_setup(Rule::Renju, &setup("h8 i9", "h9 g7 j7", Color::White)).unwrap();
        g.try_play(pts("j10")[0]).unwrap();
        g.try_play(pts("f6")[0]).unwrap();
        g.undo();
        let saved = g.to_saved();
        assert_eq!(saved.version, 2);
        let s = saved.setup.as_ref().unwrap();
        assert_eq!(
            (s.black.len(), s.white.len(), s.to_move),
            (2, 3, Color::White)
        );
        let back = Game::from_saved(&saved).unwrap();
        assert_eq!(back.setup(), g.setup());
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.redo_moves(), g.redo_moves());
        assert_eq!(back.board(), g.board());
        assert_eq!(back.to_move(), Color::Black);
        // Without a setup the old version is written, so older apps still read the save.
        assert_eq!(Game::new(Rule::Renju, 15).unwrap().to_saved().version, 1);
        assert!(Game::new(Rule::Renju, 15)
            .unwrap()
            .to_saved()
            .setup
            .is_none());

        let mut bad = saved.clone();
        bad.setup.as_mut().unwrap().white[1] = "h8".into();
        assert!(matches!(
            Game::from_saved(&bad),
            Err(LoadError::Setup(SetupError::Duplicate { .. }))
        ));
        let mut bad = saved.clone();
        bad.setup.as_mut().unwrap().black[0] = "q3".into();
        let e = Game::from_saved(&bad).unwrap_err();
        assert!(matches!(
            e,
            LoadError::BadPoint {
                list: SaveList::SetupBlack,
                number: 1,
                ..
            }
        ));
        assert!(e.to_string().starts_with("setup.black entry 1"), "{e}");
        let mut bad = saved;
        bad.version = 3;
        assert_eq!(
            Game::from_saved(&bad).unwrap_err(),
            LoadError::UnknownVersion(3)
        );
    }
}
