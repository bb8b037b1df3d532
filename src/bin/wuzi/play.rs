//! `wuzi play`: two players at one terminal, or one player against the engine.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;

use wuzi::{
    Color, Draw, Engine, Forbidden, Game, GameResult, Level, PlayError, Point, Rule, WinKind,
};

use crate::args::{usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi play [--rule freestyle|standard|renju] [--size N]
                 [--vs-ai [--level 1..5|beginner..master] [--ai-color black|white]]

Two players take turns at one terminal, black first. Type a point such as h8 (column letter,
row number from the bottom), or: undo, redo, help, quit. Default: freestyle on 15x15.
With --vs-ai the engine plays one side (default: master, as white); undo then takes back the
engine's reply and your move together.
";

/// The engine as an opponent.
pub struct Computer {
    pub color: Color,
    pub level: Level,
    pub engine: Engine,
    pub seed: u64,
}

impl Computer {
    fn reply(&mut self, game: &Game) -> Option<Point> {
        self.seed = self.seed.wrapping_add(1);
        let limits = self.level.default_limits();
        let cancel = AtomicBool::new(false);
        self.engine
            .search(game, self.level, limits, &cancel, self.seed)
            .best
    }
}

const COMMANDS_HINT: &str = "type a point like h8, or undo, redo, help, quit";

pub fn run(args: &[String]) -> Result<(), CliError> {
    // `--vs-ai` is a switch; the shared flag parser only knows `--name value`.
    let vs_ai = args.iter().any(|a| a == "--vs-ai");
    let args: Vec<String> = args.iter().filter(|a| *a != "--vs-ai").cloned().collect();
    let flags = Flags::parse(&args, &["rule", "size", "level", "ai-color"], HELP)?;
    let rule = flags.rule(Some(Rule::default()))?;
    let size = flags.size()?;
    let game = Game::new(rule, size).map_err(|e| usage(e.to_string()))?;
    let mut computer = if vs_ai {
        Some(Computer {
            color: match flags.get("ai-color") {
                Some(_) => flags.color("ai-color")?,
                None => Color::White,
            },
            level: crate::hint::level_flag(&flags, Level::Master)?,
            engine: Engine::new(32),
            seed: 0,
        })
    } else if flags.get("level").is_some() || flags.get("ai-color").is_some() {
        return Err(usage("--level and --ai-color need --vs-ai"));
    } else {
        None
    };
    let stdin = io::stdin();
    // Piped input is not echoed by a terminal; echo it so the transcript reads like a session.
    let echo = !stdin.is_terminal();
    let stdout = io::stdout();
    session_vs(
        game,
        &mut stdin.lock(),
        &mut stdout.lock(),
        echo,
        computer.as_mut(),
    )?;
    Ok(())
}

/// Runs a game reading commands from `input` until `quit` or end of input; `echo` writes each
/// command after its prompt.
#[cfg(test)]
pub fn session(
    game: Game,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<()> {
    session_vs(game, input, out, echo, None)
}

/// [`session`] with the engine playing one side when `computer` is given.
pub fn session_vs(
    mut game: Game,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
    mut computer: Option<&mut Computer>,
) -> io::Result<()> {
    let size = game.size();
    writeln!(
        out,
        "Wuzi: {} rules on {size}x{size}. Black moves first; {COMMANDS_HINT}.",
        game.rule()
    )?;
    if let Some(c) = &computer {
        writeln!(out, "The computer ({}) plays {}.", c.level, c.color)?;
    }
    write!(out, "{}", draw_board(&game))?;
    loop {
        if let Some(c) = computer.as_deref_mut() {
            if game.result().is_none() && game.to_move() == c.color {
                let Some(p) = c.reply(&game) else {
                    writeln!(out, "The computer has no move.")?;
                    return Ok(());
                };
                let result = game.try_play(p).map_err(io::Error::other)?;
                writeln!(out, "Computer plays {}.", p.rif(size))?;
                write!(out, "{}", draw_board(&game))?;
                if let Some(result) = result {
                    writeln!(out, "{}", announce(&result, size))?;
                }
                continue;
            }
        }
        match game.result() {
            Some(_) => write!(out, "Game over: undo or quit: ")?,
            None => write!(out, "{} to move: ", capitalised(game.to_move()))?,
        }
        out.flush()?;
        let line = match read_command(input)? {
            Input::End => {
                writeln!(out)?;
                writeln!(out, "End of input: goodbye.")?;
                return Ok(());
            }
            Input::TooLong(n) => {
                if echo {
                    writeln!(out, "(a line of {n} bytes)")?;
                }
                writeln!(
                    out,
                    "That line is too long (over {LINE_MAX} bytes); {COMMANDS_HINT}."
                )?;
                continue;
            }
            Input::NotText => {
                if echo {
                    writeln!(out, "(not UTF-8 text)")?;
                }
                writeln!(out, "That line is not UTF-8 text; {COMMANDS_HINT}.")?;
                continue;
            }
            Input::Line(l) => l,
        };
        let command = line.trim().to_ascii_lowercase();
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        match command.as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                writeln!(out, "Goodbye.")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{COMMANDS_HINT}.")?,
            "undo" | "u" => match game.undo() {
                Some(p) => {
                    writeln!(out, "Took back {}.", p.rif(size))?;
                    // Against the computer, take back its reply and your move together.
                    if computer.as_ref().is_some_and(|c| game.to_move() == c.color) {
                        if let Some(q) = game.undo() {
                            writeln!(out, "Took back {}.", q.rif(size))?;
                        }
                    }
                    write!(out, "{}", draw_board(&game))?;
                }
                None => writeln!(out, "Nothing to undo.")?,
            },
            "redo" => match game.redo() {
                Some(p) => {
                    writeln!(out, "Replayed {}.", p.rif(size))?;
                    write!(out, "{}", draw_board(&game))?;
                    if let Some(result) = game.result() {
                        writeln!(out, "{}", announce(result, size))?;
                    }
                }
                None => writeln!(out, "Nothing to redo.")?,
            },
            text => match Point::from_rif(text, size) {
                Err(e) => writeln!(out, "{e}; {COMMANDS_HINT}.")?,
                Ok(p) => match game.try_play(p) {
                    Ok(result) => {
                        write!(out, "{}", draw_board(&game))?;
                        if let Some(result) = result {
                            writeln!(out, "{}", announce(&result, size))?;
                        }
                    }
                    Err(e) => writeln!(out, "{}", refusal(&e, size))?,
                },
            },
        }
    }
}

/// Longest command line `wuzi play` reads; the rest of a longer line is skipped unread.
const LINE_MAX: usize = 1024;

/// One line of the player's input.
enum Input {
    Line(String),
    /// Longer than [`LINE_MAX`] bytes (this many).
    TooLong(usize),
    /// Not UTF-8.
    NotText,
    End,
}

/// Reads one line, keeping at most [`LINE_MAX`] bytes of it in memory.
fn read_command(input: &mut impl BufRead) -> io::Result<Input> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if len == 0 {
                return Ok(Input::End);
            }
            break;
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let take = end.map_or(chunk.len(), |i| i + 1);
        let room = (LINE_MAX + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        len += take;
        input.consume(take);
        if end.is_some() {
            break;
        }
    }
    if len > LINE_MAX + 1 || (len == LINE_MAX + 1 && !buf.ends_with(b"\n")) {
        return Ok(Input::TooLong(len));
    }
    Ok(String::from_utf8(buf).map_or(Input::NotText, Input::Line))
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn refusal(e: &PlayError, size: u8) -> String {
    match e {
        PlayError::Occupied(p) => format!("{} is occupied; choose an empty point.", p.rif(size)),
        PlayError::Forbidden { point, reason } => format!(
            "{} is forbidden for black ({}); choose another point.",
            point.rif(size),
            explain(*reason)
        ),
        PlayError::GameOver => "The game is over: undo or quit.".to_string(),
        PlayError::OffBoard(_) | PlayError::Size(_) => format!("{e}; {COMMANDS_HINT}."),
    }
}

fn explain(reason: Forbidden) -> &'static str {
    match reason {
        Forbidden::Overline => "overline: six or more in a row",
        Forbidden::DoubleFour => "double-four: two fours at once",
        Forbidden::DoubleThree => "double-three: two open threes at once",
    }
}

fn announce(result: &GameResult, size: u8) -> String {
    match (&result.winner, &result.win) {
        (Some(color), Some(win)) => {
            let line: Vec<String> = win.line.iter().map(|p| p.rif(size).to_string()).collect();
            let how = match win.kind {
                WinKind::Five => "five in a row",
                WinKind::Overline => "an overline",
            };
            format!(
                "{} wins with {how}: {}.",
                capitalised(*color),
                line.join(" ")
            )
        }
        _ => format!("Draw: {}.", result.draw.unwrap_or(Draw::FullBoard)),
    }
}

/// The board with column letters and row numbers on every edge, `●` black, `○` white, the
/// last move as `◉`/`◎`, and under renju with black to move, forbidden points as `×`.
pub fn draw_board(game: &Game) -> String {
    let size = game.size();
    let board = game.board();
    let last = game.last_move();
    let forbidden: Vec<Point> = game
        .forbidden_points()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let letters: String = (0..size)
        .map(|x| format!("{} ", char::from(b'a' + x)))
        .collect();
    let mut s = format!("    {}\n", letters.trim_end());
    for y in 0..size {
        let row = size - y;
        s.push_str(&format!("{row:>2}  "));
        for x in 0..size {
            let p = Point::new(x, y);
            let glyph = match board.get(p) {
                Some(Color::Black) if last == Some(p) => '◉',
                Some(Color::White) if last == Some(p) => '◎',
                Some(Color::Black) => '●',
                Some(Color::White) => '○',
                None if forbidden.contains(&p) => '×',
                None => grid(x, y, size),
            };
            s.push(glyph);
            if x + 1 < size {
                s.push('─');
            }
        }
        s.push_str(&format!("  {row}\n"));
    }
    s.push_str(&format!("    {}\n", letters.trim_end()));
    s
}

fn grid(x: u8, y: u8, size: u8) -> char {
    let (left, right, top, bottom) = (x == 0, x + 1 == size, y == 0, y + 1 == size);
    match (top, bottom, left, right) {
        (true, _, true, _) => '┌',
        (true, _, _, true) => '┐',
        (_, true, true, _) => '└',
        (_, true, _, true) => '┘',
        (true, _, _, _) => '┬',
        (_, true, _, _) => '┴',
        (_, _, true, _) => '├',
        (_, _, _, true) => '┤',
        _ => '┼',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rif(s: &str) -> Point {
        Point::from_rif(s, 15).unwrap()
    }

    #[test]
    fn draws_a_small_board_exactly() {
        let mut g = Game::new(Rule::Freestyle, 5).unwrap();
        g.try_play(Point::new(2, 2)).unwrap();
        g.try_play(Point::new(0, 0)).unwrap();
        let expected = "    a b c d e
 5  ◎─┬─┬─┬─┐  5
 4  ├─┼─┼─┼─┤  4
 3  ├─┼─●─┼─┤  3
 2  ├─┼─┼─┼─┤  2
 1  └─┴─┴─┴─┘  1
    a b c d e
";
        assert_eq!(draw_board(&g), expected);
    }

    #[test]
    fn marks_forbidden_points_for_black_under_renju() {
        let mut g = Game::new(Rule::Renju, 15).unwrap();
        for m in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"] {
            g.try_play(rif(m)).unwrap();
        }
        let drawn = draw_board(&g);
        let row8 = drawn.lines().find(|l| l.starts_with(" 8 ")).unwrap();
        // h8 is the 8th column: 2 characters per column after the 4-character margin.
        assert_eq!(row8.chars().nth(4 + 7 * 2), Some('×'), "{row8}");
        assert!(drawn.contains('◎'), "last move a7 is marked");
    }

    fn run_session(rule: Rule, input: &str) -> String {
        let mut out = Vec::new();
        session(
            Game::new(rule, 15).unwrap(),
            &mut input.as_bytes(),
            &mut out,
            true,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn session_handles_bad_input_undo_and_eof() {
        let out = run_session(Rule::Renju, "h8\nh8\nz99\nfoo\nundo\nundo\n");
        assert!(out.contains("h8 is occupied"), "{out}");
        assert!(out.contains("malformed point"), "{out}");
        assert!(out.contains("Took back h8."), "{out}");
        assert!(out.contains("Nothing to undo."), "{out}");
        assert!(out.contains("End of input"), "{out}");
    }

    #[test]
    fn huge_lines_and_bytes_that_are_not_text_are_answered_not_fatal() {
        let mut input = Vec::new();
        input.extend_from_slice(b"h8\n");
        input.extend(vec![b'x'; 3 << 20]);
        input.extend_from_slice(b"\n\xff\xfeh9\n");
        input.extend(vec![b'z'; 5000]); // a last line without a newline
        let mut out = Vec::new();
        session(
            Game::new(Rule::Freestyle, 15).unwrap(),
            &mut input.as_slice(),
            &mut out,
            true,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("(a line of 3145729 bytes)"), "{out:.2000}");
        assert_eq!(
            out.matches("That line is too long").count(),
            2,
            "{out:.2000}"
        );
        assert!(out.contains("That line is not UTF-8 text"), "{out:.2000}");
        assert!(out.contains("End of input"), "{out:.2000}");
        // The move before the flood stands, and nothing of the flood is echoed.
        assert!(out.contains("White to move"), "{out:.2000}");
        assert!(out.len() < 10_000, "{} bytes of output", out.len());
    }

    #[test]
    fn session_refuses_forbidden_and_announces_a_win() {
        let moves = "f8 a1 g8 a3 h6 a5 h7 a7 h8 e8 a9 h8 a11 i8 o1 quit";
        let input = moves.split_whitespace().collect::<Vec<_>>().join("\n");
        let out = run_session(Rule::Renju, &format!("{input}\n"));
        assert!(
            out.contains("h8 is forbidden for black (double-three"),
            "{out}"
        );
        assert!(
            out.contains("Black wins with five in a row: e8 f8 g8 h8 i8."),
            "{out}"
        );
        assert!(out.contains("The game is over: undo or quit."), "{out}");
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }
}
