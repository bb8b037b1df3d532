//! What the brain writes: the protocol's reply lines, and stones as its messages show them.

use std::fmt;

use crate::Point;

/// The `ABOUT` answer.
pub const ABOUT: &str = concat!(
    "name=\"Wuzi\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"Wuzi developers\", country=\"International\", www=\"",
    env!("CARGO_PKG_REPOSITORY"),
    "\""
);

/// One line for the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// The brain's move, `x,y`.
    Move(Point),
    /// `ERROR message`: a known command the brain cannot carry out.
    Error(String),
    /// `UNKNOWN message`: a command the brain does not know.
    Unknown(String),
    /// `MESSAGE text`: for the user.
    Message(String),
    /// `DEBUG text`: for the brain's author.
    Debug(String),
    /// The [`ABOUT`] line.
    About,
    /// `SWAP`: under Swap2, the brain takes the colour that has just moved.
    Swap,
    /// Several stones on one line, `x,y x,y …`: Swap2's three opening stones, or the
    /// chooser's two more stones after three.
    Stones(Vec<Point>),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A message must stay one line: a stray line end would be read as the answer.
        let one_line = |s: &str| s.replace(['\r', '\n'], " ");
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(p) => write!(f, "{},{}", p.x(), p.y()),
            Reply::Error(m) => write!(f, "ERROR {}", one_line(m)),
            Reply::Unknown(m) => write!(f, "UNKNOWN {}", one_line(m)),
            Reply::Message(m) => write!(f, "MESSAGE {}", one_line(m)),
            Reply::Debug(m) => write!(f, "DEBUG {}", one_line(m)),
            Reply::About => f.write_str(ABOUT),
            Reply::Swap => f.write_str("SWAP"),
            Reply::Stones(points) => {
                let text: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", p.x(), p.y()))
                    .collect();
                f.write_str(&text.join(" "))
            }
        }
    }
}

/// Stones as the protocol writes them, `x,y x,y`.
pub(super) fn gomocup_points(points: &[Point]) -> String {
    Reply::Stones(points.to_vec()).to_string()
}

/// Stones in RIF notation (`h8 i9`), for messages.
pub(super) fn rif_points(points: &[Point], size: u8) -> String {
    let text: Vec<String> = points.iter().map(|p| p.rif(size).to_string()).collect();
    text.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_lines() {
        assert_eq!(Reply::Move(Point::new(3, 12)).to_string(), "3,12");
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(Reply::Error("a\r\nb".into()).to_string(), "ERROR a  b");
        assert!(Reply::About
            .to_string()
            .starts_with("name=\"Wuzi\", version=\"0.1.0\", author=\"Wuzi developers\""));
    }
}
