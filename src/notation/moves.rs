//! Move strings, `h8 i9 g7` (see the [module docs](super)).

use super::RecordError;
use crate::{Game, Point, Rule};

/// The game's moves as a move string, `h8 i9 g7`. A set-up position is not part of it (see
/// the [module docs](super)).
#[must_use]
pub fn write_moves(game: &Game) -> String {
    moves_to_string(game.moves(), game.size())
}

/// Points as a move string on a board of `size`, `h8 i9 g7`.
#[must_use]
pub fn moves_to_string(moves: &[Point], size: u8) -> String {
    let mut out = String::with_capacity(moves.len() * 4);
    for (i, p) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&p.rif(size).to_string());
    }
    out
}

/// Reads the points of a move string on a board of `size`, without judging them; each with
/// its byte offset.
///
/// # Errors
/// [`RecordError::BadPoint`] for a token that is not a point on the board.
pub fn parse_points(text: &str, size: u8) -> Result<Vec<(Point, usize)>, RecordError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' {
            i += 1;
            continue;
        }
        let start = i;
        // A token is one character and then its digits (a row number has at most two), so
        // "h8i9" splits into "h8" and "i9". Anything else becomes one malformed token up to the
        // next separator so the error shows it whole.
        let mut end = start + text[start..].chars().next().map_or(1, char::len_utf8);
        if b.is_ascii_alphabetic() {
            while end < bytes.len() && bytes[end].is_ascii_digit() && end - start < 3 {
                end += 1;
            }
        }
        let is_point_shape = b.is_ascii_alphabetic()
            && end > start + 1
            && (end == bytes.len() || !bytes[end].is_ascii_digit());
        if !is_point_shape {
            while end < bytes.len() && !bytes[end].is_ascii_whitespace() && bytes[end] != b',' {
                end += 1;
            }
            // Keep `end` on a character boundary.
            while !text.is_char_boundary(end) {
                end += 1;
            }
        }
        let token = &text[start..end];
        let p = Point::from_rif(token, size).map_err(|error| RecordError::BadPoint {
            move_number: out.len() + 1,
            offset: start,
            error,
        })?;
        out.push((p, start));
        i = end;
    }
    Ok(out)
}

/// Reads a move string (black first) and replays it through the referee.
///
/// # Errors
/// [`RecordError::BadPoint`] for a token that is not a point on the board (also for an
/// unsupported `size`, reported on move 1) and [`RecordError::Illegal`] for a move the referee
/// refuses.
pub fn parse_moves_game(text: &str, rule: Rule, size: u8) -> Result<Game, RecordError> {
    let points = parse_points(text, size)?;
    let mut game = Game::new(rule, size).map_err(|e| RecordError::BadSize {
        offset: 0,
        text: e.0.to_string(),
    })?;
    for (i, (p, offset)) in points.into_iter().enumerate() {
        game.try_play(p).map_err(|error| RecordError::Illegal {
            move_number: i + 1,
            offset,
            point: p.rif(size).to_string(),
            error,
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::pt;
    use crate::ParsePointError;

    #[test]
    fn move_strings_are_read_leniently() {
        for text in [
            "h8 i9 g7",
            "h8i9g7",
            "H8,I9,G7",
            "  h8 ,\n i9\t g7  ",
            "h8, i9,g7,",
        ] {
            let pts: Vec<Point> = parse_points(text, 15)
                .unwrap()
                .into_iter()
                .map(|(p, _)| p)
                .collect();
            assert_eq!(pts, [pt("h8"), pt("i9"), pt("g7")], "{text:?}");
        }
        assert!(parse_points("", 15).unwrap().is_empty());
        let two_digit: Vec<Point> = parse_points("a15o1b12", 15)
            .unwrap()
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(two_digit, [pt("a15"), pt("o1"), pt("b12")]);
    }

    #[test]
    fn bad_move_strings_name_the_move_and_offset() {
        let e = parse_points("h8 z9 g7", 15).unwrap_err();
        assert!(matches!(
            e,
            RecordError::BadPoint {
                move_number: 2,
                offset: 3,
                error: ParsePointError::OffBoard { .. }
            }
        ));
        assert!(e.to_string().contains("move 2"), "{e}");
        for bad in ["h8 8h", "h8 h", "h8 h123", "h8 é5", "h8 h8x"] {
            assert!(parse_points(bad, 15).is_err(), "{bad:?}");
        }
        let e = parse_moves_game("h8 i9 h8", Rule::Renju, 15).unwrap_err();
        assert!(matches!(
            e,
            RecordError::Illegal {
                move_number: 3,
                offset: 6,
                ..
            }
        ));
        assert!(e.to_string().contains("h8 is already occupied"), "{e}");
        let e = parse_moves_game("f8 a1 g8 a3 h6 a5 h7 a7 h8", Rule::Renju, 15).unwrap_err();
        assert!(e.to_string().contains("move 9"), "{e}");
        assert!(e.to_string().contains("double-three"), "{e}");
    }
}
