//! SGF records, with set-up positions (see the [module docs](super)).

use super::RecordError;
use crate::{Color, Game, Point, Rule, Setup, SetupError, MAX_SIZE, MIN_SIZE};

/// position, if any, in the root node.
#[must_use]
pub fn write_sgf(game: &Game) -> String {
    let size = game.size();
    let mut out = format!("(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[{size}]RU[{}]", game.rule());
    let mut color = Color::Black;
    if let Some(setup) = game.setup() {
        for (id, points) in [("AB", &setup.black), ("AW", &setup.white)] {
            if !points.is_empty() {
                out.push_str(id);
                for &p in points {
                    push_sgf_point(&mut out, p);
                }
            }
        }
        out.push_str(&format!("PL[{}]", sgf_color(setup.to_move)));
        color = setup.to_move;
    }
    for &p in game.moves() {
        out.push(';');
        out.push(sgf_color(color));
        push_sgf_point(&mut out, p);
        color = color.other();
    }
    out.push(')');
    out
}

const fn sgf_color(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

fn push_sgf_point(out: &mut String, p: Point) {
    out.push('[');
    out.push(char::from(b'a' + p.x()));
    out.push(char::from(b'a' + p.y()));
    out.push(']');
}

/// An SGF point `hh` on a board of `size`.
fn sgf_point(text: &str, size: u8) -> Option<Point> {
    match text.as_bytes() {
        &[x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            let (x, y) = (x - b'a', y - b'a');
            (x < size && y < size).then(|| Point::new(x, y))
        }
        _ => None,
    }
}

/// Setup properties read before the first move: each value with its offset.
#[derive(Default)]
struct PendingSetup {
    black: Vec<(String, usize)>,
    white: Vec<(String, usize)>,
    to_move: Option<Color>,
    /// Where the first setup property value starts.
    offset: Option<usize>,
}

impl PendingSetup {
    /// The points of one colour's values: single points and `aa:cc` rectangles. A point
    /// already in `seen` is refused at once, so no input, however long, builds more than one
    /// board's worth of points.
    fn points(
        values: &[(String, usize)],
        size: u8,
        seen: &mut [bool],
    ) -> Result<Vec<Point>, RecordError> {
        let mut out = Vec::new();
        for (text, offset) in values {
            let bad = || RecordError::BadSetupPoint {
                offset: *offset,
                text: text.clone(),
            };
            let v = text.trim();
            let (a, b) = match v.split_once(':') {
                Some((a, b)) => (
                    sgf_point(a, size).ok_or_else(bad)?,
                    sgf_point(b, size).ok_or_else(bad)?,
                ),
                None => {
                    let p = sgf_point(v, size).ok_or_else(bad)?;
                    (p, p)
                }
            };
            // At most the whole board (400 points), however the corners are given.
            for y in a.y().min(b.y())..=a.y().max(b.y()) {
                for x in a.x().min(b.x())..=a.x().max(b.x()) {
                    let point = Point::new(x, y);
                    let cell = &mut seen[usize::from(y) * usize::from(size) + usize::from(x)];
                    if *cell {
                        return Err(RecordError::Setup {
                            offset: *offset,
                            error: SetupError::Duplicate { point, size },
                        });
                    }
                    *cell = true;
                    out.push(point);
                }
            }
        }
        Ok(out)
    }

    /// The game starting from this setup; `first_move` is the colour of the record's first
    /// move, which decides the side to move when `PL` is absent.
    fn start(
        &self,
        rule: Rule,
        size: u8,
        size_offset: usize,
        first_move: Option<Color>,
    ) -> Result<Game, RecordError> {
        let Some(setup_offset) = self.offset else {
            return new_game(rule, size, size_offset);
        };
        // Points are read against the size now known, wherever SZ stood in the root node.
        Game::new(rule, size).map_err(|e| RecordError::BadSize {
            offset: size_offset,
            text: e.0.to_string(),
        })?;
        let mut seen = vec![false; usize::from(size) * usize::from(size)];
        let black = PendingSetup::points(&self.black, size, &mut seen)?;
        let white = PendingSetup::points(&self.white, size, &mut seen)?;
        let to_move = self.to_move.or(first_move).unwrap_or({
            if black.len() > white.len() {
                Color::White
            } else {
                Color::Black
            }
        });
        let setup = Setup {
            size,
            black,
            white,
            to_move,
        };
        Game::from_setup(rule, &setup).map_err(|error| RecordError::Setup {
            offset: setup_offset,
            error,
        })
    }
}

/// An SGF reader over bytes; values are sliced out at ASCII brackets, so slices stay on
/// character boundaries.
struct Sgf<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Sgf<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn syntax(&self, expected: &'static str) -> RecordError {
        RecordError::Syntax {
            offset: self.pos,
            expected,
        }
    }

    /// A property name: its upper-case letters (lower-case ones are FF[3] decoration).
    fn ident(&mut self) -> String {
        let mut id = String::new();
        while let Some(b) = self.peek().filter(u8::is_ascii_alphabetic) {
            if b.is_ascii_uppercase() {
                id.push(char::from(b));
            }
            self.pos += 1;
        }
        id
    }

    /// One `[value]`, with `\`-escapes resolved; returns the value and its offset.
    fn value(&mut self) -> Result<(String, usize), RecordError> {
        if self.peek() != Some(b'[') {
            return Err(self.syntax("'['"));
        }
        self.pos += 1;
        let start = self.pos;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.syntax("']' closing a property value")),
                Some(b']') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok((out, start));
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    // The escaped character is taken literally (a soft line break is dropped).
                    match self.text[self.pos..].chars().next() {
                        None => return Err(self.syntax("']' closing a property value")),
                        Some(c) => {
                            if c != '\n' && c != '\r' {
                                out.push(c);
                            }
                            self.pos += c.len_utf8();
                        }
                    }
                    run = self.pos;
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}

/// Reads an SGF record (main line only; see the [module docs](super)) and replays it through
/// the referee. `rule` and `size` are used when the record has no `RU` / `SZ`.
///
/// # Errors
/// [`RecordError`] naming what is wrong and where: syntax, an unknown `GM`/`SZ`/`RU` value,
/// setup stones, a pass, a move out of turn, a malformed point, or an illegal move.
pub fn parse_sgf(text: &str, rule: Rule, size: u8) -> Result<Game, RecordError> {
    let mut sgf = Sgf { text, pos: 0 };
    if text.starts_with('\u{feff}') {
        sgf.pos = '\u{feff}'.len_utf8();
    }
    sgf.skip_ws();
    if sgf.peek() != Some(b'(') {
        return Err(sgf.syntax("'(' starting an SGF game tree"));
    }
    sgf.pos += 1;

    let mut rule = rule;
    let mut size = size;
    let mut size_offset = 0;
    let mut game: Option<Game> = None;
    let mut setup = PendingSetup::default();
    let mut move_number = 0;
    let mut seen_node = false;
    loop {
        sgf.skip_ws();
        match sgf.peek() {
            // The first variation continues the main line.
            Some(b'(') if seen_node => sgf.pos += 1,
            // The main line ends at the first ')'; whatever follows (other variations, other
            // game trees) is not read.
            Some(b')') if seen_node => break,
            Some(b';') => {
                seen_node = true;
                sgf.pos += 1;
            }
            None => return Err(sgf.syntax("')' closing the game tree")),
            Some(_) if !seen_node => return Err(sgf.syntax("';' starting the first node")),
            Some(b) if b.is_ascii_alphabetic() => {
                let id_offset = sgf.pos;
                let id = sgf.ident();
                sgf.skip_ws();
                let mut values = Vec::new();
                while sgf.peek() == Some(b'[') {
                    values.push(sgf.value()?);
                    sgf.skip_ws();
                }
                if values.is_empty() {
                    return Err(sgf.syntax("'[' after a property name"));
                }
                let setup_done = game.is_some();
                let refuse = || RecordError::Unsupported {
                    offset: id_offset,
                    property: id.clone(),
                };
                match id.as_str() {
                    "GM" => {
                        let (v, offset) = &values[0];
                        if v.trim() != "4" {
                            return Err(RecordError::NotGomoku {
                                offset: *offset,
                                text: v.clone(),
                            });
                        }
                    }
                    "SZ" | "RU" if setup_done => return Err(refuse()),
                    "SZ" => {
                        let (v, offset) = &values[0];
                        size = v
                            .trim()
                            .parse::<u8>()
                            .ok()
                            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                            .ok_or_else(|| RecordError::BadSize {
                                offset: *offset,
                                text: v.clone(),
                            })?;
                        size_offset = *offset;
                    }
                    "RU" => {
                        let (v, offset) = &values[0];
                        rule = v.parse().map_err(|_| RecordError::UnknownRule {
                            offset: *offset,
                            text: v.clone(),
                        })?;
                    }
                    "AE" => return Err(refuse()),
                    "AB" | "AW" | "PL" if setup_done => return Err(refuse()),
                    "AB" | "AW" => {
                        setup.offset.get_or_insert(values[0].1);
                        if id == "AB" {
                            setup.black.extend(values);
                        } else {
                            setup.white.extend(values);
                        }
                    }
                    "PL" => {
                        let (v, offset) = &values[0];
                        setup.offset.get_or_insert(*offset);
                        setup.to_move = Some(match v.trim() {
                            "B" | "b" => Color::Black,
                            "W" | "w" => Color::White,
                            _ => {
                                return Err(RecordError::BadPlayer {
                                    offset: *offset,
                                    text: v.clone(),
                                })
                            }
                        });
                    }
                    "B" | "W" => {
                        let color = if id == "B" {
                            Color::Black
                        } else {
                            Color::White
                        };
                        for (v, offset) in values {
                            move_number += 1;
                            if game.is_none() {
                                game = Some(setup.start(rule, size, size_offset, Some(color))?);
                            }
                            if let Some(g) = game.as_mut() {
                                play_sgf_move(g, color, &v, offset, move_number)?;
                            }
                        }
                    }
                    _ => {}
                }
            }
            Some(_) => return Err(sgf.syntax("a property, ';', '(' or ')'")),
        }
    }
    match game {
        Some(g) => Ok(g),
        None => setup.start(rule, size, size_offset, None),
    }
}

fn new_game(rule: Rule, size: u8, size_offset: usize) -> Result<Game, RecordError> {
    Game::new(rule, size).map_err(|e| RecordError::BadSize {
        offset: size_offset,
        text: e.0.to_string(),
    })
}

fn play_sgf_move(
    game: &mut Game,
    color: Color,
    value: &str,
    offset: usize,
    move_number: usize,
) -> Result<(), RecordError> {
    let size = game.size();
    let v = value.trim();
    if v.is_empty() || (v == "tt" && size <= 19) {
        return Err(RecordError::Pass {
            move_number,
            offset,
        });
    }
    if color != game.to_move() {
        return Err(RecordError::WrongColor {
            move_number,
            offset,
            expected: game.to_move(),
        });
    }
    let b = v.as_bytes();
    let coord = |c: u8| c.is_ascii_lowercase().then(|| c - b'a');
    let p = match (
        b.len(),
        b.first().and_then(|&c| coord(c)),
        b.get(1).and_then(|&c| coord(c)),
    ) {
        (2, Some(x), Some(y)) if x < size && y < size => Point::new(x, y),
        _ => {
            return Err(RecordError::BadSgfPoint {
                move_number,
                offset,
                text: value.to_string(),
            })
        }
    };
    game.try_play(p).map_err(|error| RecordError::Illegal {
        move_number,
        offset,
        point: p.rif(size).to_string(),
        error,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_moves_game, write_moves};
    use crate::testing::{pt, pts};
    use crate::PlayError;

    #[test]
    fn sgf_round_trip_and_conventions() {
        let g = parse_moves_game("h8 i9 a1 o15", Rule::Standard, 15).unwrap();
        let sgf = write_sgf(&g);
        assert_eq!(
            sgf,
            "(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[standard];B[hh];W[ig];B[ao];W[oa])"
        );
        let back = parse_sgf(&sgf, Rule::Renju, 19).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!((back.rule(), back.size()), (Rule::Standard, 15));
    }

    #[test]
    fn sgf_is_read_leniently() {
        let text = "\u{feff} ( ;GaMe[4] FF[4]\nPB[Alice \\] Smith]C[a comment (with parens)]\
                    SZ[ 15 ]RU[Renju] ; B [hh] ; W[ii]C[x]\n(;B[gg])(;B[jj]))";
        let g = parse_sgf(text, Rule::Freestyle, 19).unwrap();
        assert_eq!(g.moves(), [pt("h8"), pt("i7"), pt("g9")]);
        assert_eq!(g.rule(), Rule::Renju);
        let defaults = parse_sgf("(;B[hh])", Rule::Standard, 13).unwrap();
        assert_eq!((defaults.rule(), defaults.size()), (Rule::Standard, 13));
        assert_eq!(defaults.moves(), [Point::new(7, 7)]);
        // On 20x20, `t` is an ordinary column.
        let big = parse_sgf("(;SZ[20];B[tt])", Rule::Freestyle, 15).unwrap();
        assert_eq!(big.moves(), [Point::new(19, 19)]);
        assert!(parse_sgf("(;)", Rule::Renju, 15)
            .unwrap()
            .moves()
            .is_empty());
    }

    #[test]
    fn sgf_errors_say_what_and_where() {
        type Check = fn(&RecordError) -> bool;
        let cases: [(&str, Check); 12] = [
            ("(;B[hh];W[])", |e| {
                matches!(e, RecordError::Pass { move_number: 2, .. })
            }),
            ("(;B[hh];W[tt])", |e| {
                matches!(e, RecordError::Pass { move_number: 2, .. })
            }),
            ("(;B[hh];B[ii])", |e| {
                matches!(
                    e,
                    RecordError::WrongColor {
                        move_number: 2,
                        expected: Color::White,
                        ..
                    }
                )
            }),
            ("(;W[hh])", |e| {
                matches!(e, RecordError::WrongColor { move_number: 1, .. })
            }),
            ("(;B[hh];W[hh])", |e| {
                matches!(
                    e,
                    RecordError::Illegal {
                        move_number: 2,
                        error: PlayError::Occupied(_),
                        ..
                    }
                )
            }),
            ("(;B[zz])", |e| {
                matches!(e, RecordError::BadSgfPoint { move_number: 1, .. })
            }),
            ("(;SZ[4])", |e| {
                matches!(e, RecordError::BadSize { offset: 5, .. })
            }),
            ("(;RU[go])", |e| {
                matches!(e, RecordError::UnknownRule { .. })
            }),
            ("(;GM[1])", |e| matches!(e, RecordError::NotGomoku { .. })),
            ("(;AE[hh])", |e| {
                matches!(e, RecordError::Unsupported { .. })
            }),
            ("(;B[hh]", |e| {
                matches!(e, RecordError::Syntax { offset: 7, .. })
            }),
            ("(;B[hh", |e| matches!(e, RecordError::Syntax { .. })),
        ];
        for (text, check) in cases {
            let e = parse_sgf(text, Rule::Renju, 15).unwrap_err();
            assert!(check(&e), "{text:?} gave {e:?}");
            assert!(!e.to_string().is_empty());
        }
        for text in [
            "",
            "h8",
            "(",
            "(B[hh])",
            "(;B)",
            "(;B[hh]x)",
            "(;B[hh];SZ[13])",
        ] {
            assert!(parse_sgf(text, Rule::Renju, 15).is_err(), "{text:?}");
        }
    }

    fn setup_game(rule: Rule, black: &str, white: &str, to_move: Color) -> Game {
        let setup = Setup {
            size: 15,
            black: pts(black),
            white: pts(white),
            to_move,
        };
        Game::from_setup(rule, &setup).unwrap()
    }

    #[test]
    fn sgf_keeps_a_setup_and_its_moves() {
        let mut g = setup_game(Rule::Renju, "h8 i9", "h9 g7 j7", Color::White);
        g.try_play(pt("j10")).unwrap();
        g.try_play(pt("f6")).unwrap();
        let sgf = write_sgf(&g);
        assert_eq!(
            sgf,
            "(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[renju]AB[ig][hh]AW[hg][gi][ji]PL[W]\
             ;W[jf];B[fj])"
        );
        let back = parse_sgf(&sgf, Rule::Freestyle, 19).unwrap();
        assert_eq!(back.setup(), g.setup());
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.board(), g.board());
        assert_eq!(back.to_move(), g.to_move());
        assert_eq!((back.rule(), back.size()), (Rule::Renju, 15));
        // The move string has the moves only.
        assert_eq!(write_moves(&g), "j10 f6");

        // Only the colours that have stones are written; PL always.
        let mut lone = Setup::empty(15);
        lone.to_move = Color::White;
        let g = Game::from_setup(Rule::Standard, &lone).unwrap();
        assert_eq!(
            write_sgf(&g),
            "(;GM[4]FF[4]CA[UTF-8]AP[wuzi]SZ[15]RU[standard]PL[W])"
        );
        assert_eq!(
            parse_sgf(&write_sgf(&g), Rule::Renju, 15).unwrap().setup(),
            Some(&lone)
        );
        // A plain game writes no setup properties at all.
        let plain = parse_moves_game("h8 i9", Rule::Renju, 15).unwrap();
        assert!(!write_sgf(&plain).contains("PL"));
    }

    #[test]
    fn sgf_setup_is_read_leniently() {
        // Setup in a later node before the first move, lower-case FF[3] names, a rectangle,
        // and SZ after the stones that need it.
        let g = parse_sgf(
            "(;GM[4];AddBlack[ff:gg] AW[hh]\n[ii]SZ[15];W[jj])",
            Rule::Freestyle,
            9,
        )
        .unwrap();
        let s = g.setup().unwrap();
        assert_eq!(s.black.len(), 4);
        assert_eq!(s.white.len(), 2);
        assert_eq!(s.to_move, Color::White, "no PL: the first move decides");
        assert_eq!(g.moves(), [Point::new(9, 9)]);
        // No PL and no move: the side with fewer stones moves, black when even.
        for (text, to_move) in [
            ("(;AB[hh][ii]AW[gg])", Color::White),
            ("(;AB[hh]AW[gg])", Color::Black),
            ("(;AB[hh]AW[gg][ii][jj])", Color::Black),
            ("(;AW[gg])", Color::Black),
            ("(;AB[hh]AW[gg][ii]PL[w])", Color::White),
        ] {
            let g = parse_sgf(text, Rule::Renju, 15).unwrap();
            assert_eq!(g.to_move(), to_move, "{text}");
        }
        // A PL[B] with no stones is the ordinary start.
        assert!(parse_sgf("(;PL[B];B[hh])", Rule::Renju, 15)
            .unwrap()
            .setup()
            .is_none());
    }

    #[test]
    fn bad_sgf_setups_say_what_and_where() {
        type Check = fn(&RecordError) -> bool;
        let cases: [(&str, Check); 12] = [
            ("(;AB[zz])", |e| {
                matches!(e, RecordError::BadSetupPoint { offset: 5, .. })
            }),
            ("(;AB[hh:])", |e| {
                matches!(e, RecordError::BadSetupPoint { .. })
            }),
            ("(;SZ[13]AB[oo])", |e| {
                matches!(e, RecordError::BadSetupPoint { .. })
            }),
            ("(;AB[hh]AW[ii][hh])", |e| {
                matches!(
                    e,
                    RecordError::Setup {
                        offset: 15,
                        error: SetupError::Duplicate { .. }
                    }
                )
            }),
            ("(;AB[hh][aa:bb][hh])", |e| {
                matches!(
                    e,
                    RecordError::Setup {
                        offset: 16,
                        error: SetupError::Duplicate { .. }
                    }
                )
            }),
            ("(;AB[aa][ba][ca][da][ea])", |e| {
                matches!(
                    e,
                    RecordError::Setup {
                        offset: 5,
                        error: SetupError::Five { .. }
                    }
                )
            }),
            ("(;RU[renju]AB[aa:fa])", |e| {
                matches!(
                    e,
                    RecordError::Setup {
                        error: SetupError::Overline { .. },
                        ..
                    }
                )
            }),
            ("(;AB[hh]PL[X])", |e| {
                matches!(e, RecordError::BadPlayer { offset: 11, .. })
            }),
            ("(;AB[hh]PL[W];B[ii])", |e| {
                matches!(
                    e,
                    RecordError::WrongColor {
                        move_number: 1,
                        expected: Color::White,
                        ..
                    }
                )
            }),
            ("(;B[hh];AW[ii])", |e| {
                matches!(e, RecordError::Unsupported { offset: 8, .. })
            }),
            ("(;AB[hh", |e| matches!(e, RecordError::Syntax { .. })),
            ("(;AB hh])", |e| matches!(e, RecordError::Syntax { .. })),
        ];
        for (text, check) in cases {
            let e = parse_sgf(text, Rule::Renju, 15).unwrap_err();
            assert!(check(&e), "{text:?} gave {e:?}");
            assert!(!e.to_string().is_empty());
        }
        let e = parse_sgf("(;AB[aa][ba][ca][da][ea])", Rule::Renju, 15).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the set-up position (byte 5) is refused: the position is already won: \
             black has a five at a15-e15"
        );
    }

    #[test]
    fn giant_sgf_input_is_an_error_not_a_hang() {
        // Every value the same point: refused as a duplicate.
        let many = format!("(;AB{})", "[aa]".repeat(200_000));
        assert!(matches!(
            parse_sgf(&many, Rule::Renju, 15),
            Err(RecordError::Setup {
                error: SetupError::Duplicate { .. },
                ..
            })
        ));
        // A rectangle repeated: also a duplicate, never a board of copies.
        let rects = format!("(;AW{})", "[aa:oo]".repeat(50_000));
        assert!(parse_sgf(&rects, Rule::Freestyle, 15).is_err());
        // Deep nesting and endless open values end in syntax errors.
        let nested = format!("(;{}", "(".repeat(100_000));
        assert!(matches!(
            parse_sgf(&nested, Rule::Renju, 15),
            Err(RecordError::Syntax { .. })
        ));
        let open = format!("(;AB[{}", "a".repeat(1_000_000));
        let e = parse_sgf(&open, Rule::Renju, 15).unwrap_err();
        assert!(e.to_string().len() < 300, "{e}");
    }
}
