//! The one error type of the IPC boundary.
//!
//! Every command fails with an [`Error`], which reaches the webview as `{ code, message }`: `code`
//! is a stable camelCase name the UI can branch on (see the App IPC contract in
//! docs/architecture.md), `message` is English text for logs and fallbacks; refusals of a point
//! add `point` (RIF) and, for renju, `reason` (`double-three`, `double-four`, `overline`).

use serde::ser::SerializeStruct;
use wuzi::{Color, Forbidden, PlayError, SetupError};

/// Why a command did nothing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The point is not on this board.
    #[error("{0} is off the board")]
    OffBoard(String),
    /// The point already holds a stone.
    #[error("{0} is already taken")]
    Occupied(String),
    /// Black may not play there under renju.
    #[error("{point} is forbidden for black ({reason})")]
    Forbidden {
        /// The point in RIF notation.
        point: String,
        /// Which renju restriction it breaks.
        reason: Forbidden,
    },
    /// The game has a result; start a new one or undo.
    #[error("the game is over")]
    GameOver,
    /// A player move when the computer is to move, or a computer move when it is not.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The request was made for a position that has changed since.
    #[error("the position has changed since this request was made")]
    Stale,
    /// The search was cancelled before it answered.
    #[error("the search was cancelled")]
    Cancelled,
    /// The text to import is not a game record this app can read.
    #[error("not a readable game record: {0}")]
    BadRecord(String),
    /// An argument is missing, malformed or out of range.
    #[error("bad argument: {0}")]
    BadArgument(String),
    /// Reading or writing the save files failed.
    #[error("could not save: {0}")]
    Io(#[from] std::io::Error),
    /// A search is already running; wait for it or cancel it.
    #[error("the computer is already thinking")]
    Busy,
    /// A stone was played in the opening phase (Swap, Swap2) while a choice is due.
    #[error("a choice of the opening is due, not a stone")]
    ChoiceDue,
    /// An opening choice was made while none is due (no opening phase, or stones are due).
    #[error("no choice of the opening is due now")]
    NoChoiceDue,
    /// A bug: the command's work panicked. The state is as the last completed change left it.
    #[error("internal error")]
    Internal,
    /// The referee refuses a set-up position (issue 10 §5): a five already on the board, a
    /// renju black overline, a point given twice, a stone off the board.
    #[error("{}", .0.message)]
    BadSetup(SetupRefusal),
    /// A move string cannot hold a set-up position's stones: export the game as SGF.
    #[error("a move string cannot hold the set-up stones; export the game as SGF")]
    NeedsSgf,
}

/// Why a set-up position was refused, as data the UI words in its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupRefusal {
    /// `five`, `overline`, `duplicate` or `offBoard`.
    pub reason: &'static str,
    /// Whose stones: the side with the five, black for an overline, the colour of the stone
    /// off the board; `None` for a point given twice.
    pub color: Option<Color>,
    /// The stones concerned (RIF): the line, the point given twice, the point off the board as
    /// given (cut short).
    pub points: Vec<String>,
    /// The engine's English text, for logs.
    pub message: String,
}

impl Error {
    /// The stable code the UI branches on.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Error::OffBoard(_) => "offBoard",
            Error::Occupied(_) => "occupied",
            Error::Forbidden { .. } => "forbidden",
            Error::GameOver => "gameOver",
            Error::NotYourTurn => "notYourTurn",
            Error::Stale => "stale",
            Error::Cancelled => "cancelled",
            Error::BadRecord(_) => "badRecord",
            Error::BadArgument(_) => "badArgument",
            Error::Io(_) => "io",
            Error::Busy => "busy",
            Error::ChoiceDue => "choiceDue",
            Error::NoChoiceDue => "noChoiceDue",
            Error::Internal => "internal",
            Error::BadSetup(_) => "badSetup",
            Error::NeedsSgf => "needsSgf",
        }
    }

    /// The referee's refusal of a set-up position, with points in RIF for a board of `size`.
    #[must_use]
    pub fn from_setup(error: &SetupError, size: u8) -> Error {
        let rif_all = |line: &[wuzi::Point]| line.iter().map(|p| p.rif(size).to_string()).collect();
        let (reason, color, points) = match error {
            SetupError::Size(e) => return Error::BadArgument(e.to_string()),
            SetupError::OffBoard { point, color, .. } => {
                ("offBoard", Some(*color), vec![point.gomocup()])
            }
            SetupError::Duplicate { point, .. } => ("duplicate", None, rif_all(&[*point])),
            SetupError::Five { win, .. } => ("five", Some(win.color), rif_all(&win.line)),
            SetupError::Overline { line, .. } => ("overline", Some(Color::Black), rif_all(line)),
        };
        Error::BadSetup(SetupRefusal {
            reason,
            color,
            points,
            message: error.to_string(),
        })
    }

    /// The engine's refusal of a move, with points in RIF notation for a board of `size`.
    #[must_use]
    pub fn from_play(error: PlayError, size: u8) -> Error {
        match error {
            PlayError::OffBoard(p) => Error::OffBoard(p.rif(size).to_string()),
            PlayError::Occupied(p) => Error::Occupied(p.rif(size).to_string()),
            PlayError::GameOver => Error::GameOver,
            PlayError::Forbidden { point, reason } => Error::Forbidden {
                point: point.rif(size).to_string(),
                reason,
            },
            PlayError::Size(e) => Error::BadArgument(e.to_string()),
        }
    }
}

impl serde::Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // `point` and `reason` as data, so the UI words a refusal without reading `message`.
        let (point, reason) = match self {
            Error::OffBoard(p) | Error::Occupied(p) => (Some(p.as_str()), None),
            Error::Forbidden { point, reason } => (Some(point.as_str()), Some(reason.name())),
            Error::BadSetup(r) => (None, Some(r.reason)),
            _ => (None, None),
        };
        let setup = match self {
            Error::BadSetup(r) => Some(r),
            _ => None,
        };
        let mut s = serializer.serialize_struct(
            "Error",
            2 + usize::from(point.is_some())
                + usize::from(reason.is_some())
                + 2 * usize::from(setup.is_some()),
        )?;
        s.serialize_field("code", self.code())?;
        s.serialize_field("message", &self.to_string())?;
        if let Some(point) = point {
            s.serialize_field("point", point)?;
        }
        if let Some(reason) = reason {
            s.serialize_field("reason", &reason)?;
        }
        if let Some(r) = setup {
            s.serialize_field("color", &r.color)?;
            s.serialize_field("points", &r.points)?;
        }
        s.end()
    }
}

/// What every command returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::Point;

    #[test]
    fn serialises_as_code_and_message() {
        let json = serde_json::to_value(Error::Occupied("h8".into())).unwrap();
        assert_eq!(
            json,
            serde_json::json!({ "code": "occupied", "message": "h8 is already taken", "point": "h8" })
        );
        let forbidden = Error::Forbidden {
            point: "h8".into(),
            reason: Forbidden::DoubleFour,
        };
        assert_eq!(
            serde_json::to_value(forbidden).unwrap(),
            serde_json::json!({
                "code": "forbidden",
                "message": "h8 is forbidden for black (double-four)",
                "point": "h8",
                "reason": "double-four"
            })
        );
        let io = Error::from(std::io::Error::other("disk full"));
        assert_eq!(serde_json::to_value(io).unwrap()["code"], "io");
    }

    #[test]
    fn a_refused_setup_names_its_reason_colour_and_stones() {
        let rif = |s: &str| Point::from_rif(s, 15).unwrap();
        let setup = wuzi::Setup {
            size: 15,
            black: ["d8", "e8", "f8", "g8", "h8", "i8"].map(rif).to_vec(),
            white: vec![rif("a1")],
            to_move: Color::White,
        };
        let refused = |rule| {
            let e = wuzi::Game::from_setup(rule, &setup).unwrap_err();
            serde_json::to_value(Error::from_setup(&e, 15)).unwrap()
        };
        assert_eq!(
            refused(wuzi::Rule::Renju),
            serde_json::json!({
                "code": "badSetup",
                "message": "black has an overline at d8-i8, which renju never allows",
                "reason": "overline",
                "color": "black",
                "points": ["d8", "e8", "f8", "g8", "h8", "i8"]
            })
        );
        let five = refused(wuzi::Rule::Freestyle);
        assert_eq!(five["reason"], "five");
        assert_eq!(five["points"].as_array().unwrap().len(), 6);
        let dup = wuzi::Setup {
            black: vec![rif("h8")],
            white: vec![rif("h8")],
            ..setup.clone()
        };
        let e = wuzi::Game::from_setup(wuzi::Rule::Freestyle, &dup).unwrap_err();
        let json = serde_json::to_value(Error::from_setup(&e, 15)).unwrap();
        assert_eq!(json["reason"], "duplicate");
        assert_eq!(json["color"], serde_json::Value::Null);
        assert_eq!(json["points"], serde_json::json!(["h8"]));
    }

    #[test]
    fn play_errors_name_the_point_in_rif() {
        let e = Error::from_play(
            PlayError::Forbidden {
                point: Point::new(7, 7),
                reason: Forbidden::DoubleThree,
            },
            15,
        );
        assert_eq!(e.code(), "forbidden");
        assert_eq!(e.to_string(), "h8 is forbidden for black (double-three)");
    }
}
