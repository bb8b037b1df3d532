//! The manager's side of the Gomocup protocol: reading a brain's answer lines and writing the
//! commands that ask for a move.
//!
//! A brain may surround its answer with `MESSAGE`, `DEBUG`, `UNKNOWN` and `ERROR` lines, and
//! it may answer `SUGGEST x,y` instead of `x,y` (the manager then confirms with `PLAY x,y`
//! and the brain repeats the move). Everything else that is not two comma-separated numbers
//! is garbage, which loses the game. Nothing here trusts the brain: any byte sequence
//! classifies without a panic.

use wuzi::{Color, Point, Rule};

/// Longest piece of a brain's line kept for reports, so a megabyte of garbage does not end up
/// in the games file.
pub const QUOTE_MAX: usize = 120;

/// One line from a brain, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// An empty line (managers ignore them).
    Blank,
    /// `MESSAGE`, `DEBUG`, `UNKNOWN` or `ERROR` (upper case, as the keyword is), with the
    /// rest of the line.
    Chatter {
        /// The keyword.
        kind: &'static str,
        /// What follows it.
        text: String,
    },
    /// `OK` (the answer to `START`, or an `OK - …` variant).
    Ok,
    /// A move `x,y`: column, row from the top, 0-based, not yet checked against the board.
    Move {
        /// Column.
        x: u32,
        /// Row from the top.
        y: u32,
    },
    /// `SUGGEST x,y`.
    Suggest {
        /// Column.
        x: u32,
        /// Row from the top.
        y: u32,
    },
    /// Anything else.
    Garbage,
}

const CHATTER: [&str; 4] = ["MESSAGE", "DEBUG", "UNKNOWN", "ERROR"];

/// Classifies one line (without its line end).
#[must_use]
pub fn classify(line: &str) -> Answer {
    let t = line.trim();
    if t.is_empty() {
        return Answer::Blank;
    }
    let (word, rest) = match t.find(char::is_whitespace) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    for kind in CHATTER {
        if word.eq_ignore_ascii_case(kind) {
            return Answer::Chatter {
                kind,
                text: quote(rest),
            };
        }
    }
    if word.eq_ignore_ascii_case("OK") {
        return Answer::Ok;
    }
    if word.eq_ignore_ascii_case("SUGGEST") {
        return match coords(rest) {
            Some((x, y)) => Answer::Suggest { x, y },
            None => Answer::Garbage,
        };
    }
    match coords(t) {
        Some((x, y)) => Answer::Move { x, y },
        None => Answer::Garbage,
    }
}

/// `x,y` with optional spaces around either number; numbers of at most four digits (no board
/// comes near that, and longer ones would only overflow).
fn coords(text: &str) -> Option<(u32, u32)> {
    let (xs, ys) = text.split_once(',')?;
    let num = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((num(xs)?, num(ys)?))
}

/// At most [`QUOTE_MAX`] characters of a brain's text.
#[must_use]
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The `INFO rule` value: 0 freestyle, 1 exactly five, 4 renju.
#[must_use]
pub const fn rule_bits(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// What a brain is asked at its turn, given the moves so far and whether it has seen the game
/// before: `BEGIN` on the empty board; its first turn after a non-empty opening is a `BOARD`
/// with every stone in move order (1 = its own, 2 = the opponent's), so it also sees the
/// opponent's first reply; later turns (and white's first turn without an opening) are
/// `TURN x,y` with the opponent's last move.
#[must_use]
pub fn move_request(moves: &[Point], me: Color, synced: bool, opening_len: usize) -> String {
    match moves.last() {
        None => "BEGIN\r\n".to_string(),
        Some(last) if synced || (opening_len == 0 && moves.len() == 1) => {
            format!("TURN {}\r\n", last.gomocup())
        }
        Some(_) => {
            let mut s = String::from("BOARD\r\n");
            for (i, p) in moves.iter().enumerate() {
                let field = if Color::to_move_after(i) == me { 1 } else { 2 };
                s.push_str(&format!("{},{},{field}\r\n", p.x(), p.y()));
            }
            s.push_str("DONE\r\n");
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_with_spaces() {
        assert_eq!(classify("7,7"), Answer::Move { x: 7, y: 7 });
        assert_eq!(classify("  12 , 3 \r"), Answer::Move { x: 12, y: 3 });
        assert_eq!(classify("19,0"), Answer::Move { x: 19, y: 0 });
        // Off the board is still a move; the referee refuses it.
        assert_eq!(classify("99,99"), Answer::Move { x: 99, y: 99 });
    }

    #[test]
    fn garbage_never_panics() {
        for line in [
            "7;7",
            "7,",
            ",7",
            "-1,3",
            "7,7,1",
            "x,y",
            "99999999999999,1",
            "7 7",
            "SUGGEST",
            "SUGGEST 1;2",
            "hello world",
            "\u{fffd}\u{fffd}",
            "７,７",
            "OKAY",
        ] {
            assert_eq!(classify(line), Answer::Garbage, "{line:?}");
        }
    }

    #[test]
    fn chatter_is_recognised_in_any_case() {
        assert_eq!(
            classify("MESSAGE depth 7 eval 30"),
            Answer::Chatter {
                kind: "MESSAGE",
                text: "depth 7 eval 30".into()
            }
        );
        assert!(matches!(
            classify("debug x"),
            Answer::Chatter { kind: "DEBUG", .. }
        ));
        assert!(matches!(
            classify("UNKNOWN"),
            Answer::Chatter {
                kind: "UNKNOWN",
                ..
            }
        ));
        assert!(matches!(
            classify("ERROR too small"),
            Answer::Chatter { kind: "ERROR", .. }
        ));
        // A word that only starts like a keyword is not one.
        assert_eq!(classify("MESSAGES 1,2"), Answer::Garbage);
        assert_eq!(classify(""), Answer::Blank);
        assert_eq!(classify(" \t "), Answer::Blank);
    }

    #[test]
    fn ok_and_suggest() {
        assert_eq!(classify("OK"), Answer::Ok);
        assert_eq!(classify("ok - everything is good"), Answer::Ok);
        assert_eq!(classify("SUGGEST 3,4"), Answer::Suggest { x: 3, y: 4 });
    }

    #[test]
    fn long_text_is_quoted_short() {
        let long = "é".repeat(1000);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_MAX + 1);
        assert_eq!(quote("short"), "short");
    }

    #[test]
    fn requests_follow_the_protocol() {
        let p = |x, y| Point::new(x, y);
        assert_eq!(move_request(&[], Color::Black, false, 0), "BEGIN\r\n");
        // No opening: white's first turn is a plain TURN.
        assert_eq!(
            move_request(&[p(7, 7)], Color::White, false, 0),
            "TURN 7,7\r\n"
        );
        // After a 3-stone opening white gets the board, in move order, own stones 1.
        let opening = [p(7, 7), p(8, 6), p(6, 8)];
        assert_eq!(
            move_request(&opening, Color::White, false, 3),
            "BOARD\r\n7,7,2\r\n8,6,1\r\n6,8,2\r\nDONE\r\n"
        );
        // Black's first turn then includes white's reply.
        let four = [p(7, 7), p(8, 6), p(6, 8), p(9, 9)];
        assert_eq!(
            move_request(&four, Color::Black, false, 3),
            "BOARD\r\n7,7,1\r\n8,6,2\r\n6,8,1\r\n9,9,2\r\nDONE\r\n"
        );
        assert_eq!(move_request(&four, Color::Black, true, 3), "TURN 9,9\r\n");
        assert_eq!(rule_bits(Rule::Renju), 4);
        assert_eq!(rule_bits(Rule::Standard), 1);
        assert_eq!(rule_bits(Rule::Freestyle), 0);
    }
}
