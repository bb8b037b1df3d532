//! Feeds arbitrary bytes to the Gomocup line reader and command parser, as a manager (or
//! anything on the brain's stdin) could send them. They must never panic; every message it would send back must
//! be one short printable line; and every command it reads must read the same when written out
//! again in the protocol's own spelling (parse → print → parse).

#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::gomocup::{
    BoardLine, Command, Field, Info, Line, LineReader, Parsed, Parser, MAX_BLOCK_LINES,
};

/// The protocol lines that send `command` (the parser's input, one line each).
fn lines(command: &Command) -> Vec<String> {
    let coord = |x: u32, y: u32| format!("{x},{y}");
    match command {
        Command::Start(n) => vec![format!("START {n}")],
        Command::RectStart { width, height } => vec![format!("RECTSTART {width},{height}")],
        Command::Restart => vec!["RESTART".into()],
        Command::Begin => vec!["BEGIN".into()],
        Command::Turn(c) => vec![format!("TURN {}", coord(c.x, c.y))],
        Command::Takeback(c) => vec![format!("TAKEBACK {}", coord(c.x, c.y))],
        Command::End => vec!["END".into()],
        Command::About => vec!["ABOUT".into()],
        Command::Stop => vec!["STOP".into()],
        Command::Board(board) => {
            let mut out = vec!["BOARD".to_string()];
            for BoardLine { at, field } in board {
                let f = match field {
                    Field::Own => 1,
                    Field::Opponent => 2,
                    Field::Marker => 3,
                };
                out.push(format!("{},{f}", coord(at.x, at.y)));
            }
            out.push("DONE".into());
            out
        }
        Command::Swap2Board(coords) => {
            let mut out = vec!["SWAP2BOARD".to_string()];
            out.extend(coords.iter().map(|c| coord(c.x, c.y)));
            out.push("DONE".into());
            out
        }
        Command::Info(info) => vec![match info {
            Info::TimeoutTurn(n) => format!("INFO timeout_turn {n}"),
            Info::TimeoutMatch(n) => format!("INFO timeout_match {n}"),
            Info::TimeLeft(n) => format!("INFO time_left {n}"),
            Info::MaxMemory(n) => format!("INFO max_memory {n}"),
            Info::GameType(n) => format!("INFO game_type {n}"),
            Info::Rule(n) => format!("INFO rule {n}"),
            Info::Evaluate(c) => format!("INFO evaluate {}", coord(c.x, c.y)),
            Info::Folder(f) => format!("INFO folder {f}"),
            Info::Other { key, value } => format!("INFO {key} {value}"),
        }],
    }
}

/// What goes back to the manager must be one line it can read, and short.
fn assert_one_short_line(message: &str) {
    assert!(!message.is_empty());
    assert!(message.len() <= 200, "{} bytes: {message:?}", message.len());
    assert!(
        !message.chars().any(char::is_control),
        "a control character in {message:?}"
    );
}

/// Longest line the reader keeps here: small, so fuzzed input reaches the too-long path.
const LINE_LIMIT: usize = 64;

fuzz_target!(|data: &[u8]| {
    // The brain's own path: bytes → lines (cut past the limit) → parser.
    let mut reader = LineReader::with_limit(data, LINE_LIMIT);
    let mut parser = Parser::new();
    let mut parsed = Vec::new();
    while let Some(line) = reader.next_line().expect("reading a slice cannot fail") {
        parsed.extend(match line {
            Line::Text(text) => {
                // Each byte kept is one character at most (U+FFFD for an invalid one).
                assert!(text.chars().count() <= LINE_LIMIT, "{text:?}");
                assert!(!text.contains(['\n', '\r']), "{text:?}");
                parser.feed(&text)
            }
            Line::TooLong(len) => {
                assert!(len > LINE_LIMIT);
                parser.feed_too_long(len)
            }
        });
    }
    for item in parsed {
        match item {
            Parsed::Command(command) => {
                if let Command::Board(b) = &command {
                    assert!(b.len() <= MAX_BLOCK_LINES);
                }
                if let Command::Swap2Board(b) = &command {
                    assert!(b.len() <= MAX_BLOCK_LINES);
                }
                let mut fresh = Parser::new();
                let mut again = Vec::new();
                for line in lines(&command) {
                    again.extend(fresh.feed(&line));
                }
                assert!(!fresh.in_block(), "{command:?}");
                assert_eq!(again, vec![Parsed::Command(command.clone())]);
            }
            Parsed::Error(e) => assert_one_short_line(&e.to_string()),
            Parsed::Unknown(message) => assert_one_short_line(&message),
        }
    }
});
