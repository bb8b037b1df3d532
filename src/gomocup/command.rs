//! Lines from the manager → typed [`Command`]s.
//!
//! The parser is line based but not stateless: `BOARD` and `SWAP2BOARD` open a block of
//! coordinate lines that ends with `DONE`, so [`Parser::feed`] keeps the block between calls.
//! It never panics on any input; everything it cannot read becomes an [`Parsed::Error`] or
//! [`Parsed::Unknown`] carrying a message for the manager.

use std::fmt;

/// Longest command word or argument quoted back to the manager in a message, so that a
/// megabyte of garbage does not come back as a megabyte-long `UNKNOWN` line.
const QUOTE_MAX: usize = 40;

/// Most coordinate lines one `BOARD` block may hold (a full 20×20 board). More are an error,
/// and are not stored, so a runaway block cannot eat memory.
pub const MAX_BLOCK_LINES: usize = 400;

/// A coordinate pair as the manager sent it: `x` = column, `y` = row from the top, both
/// 0-based. Not yet checked against the board size (the parser does not know it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column from the left.
    pub x: u32,
    /// Row from the top.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The third number of a `BOARD` line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: only in a continuous game — a point that belongs to an already counted winning
    /// line or is forbidden under renju. Neither side's stone, but nobody may play there.
    Marker,
}

/// One line of a `BOARD` block.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardLine {
    /// Where.
    pub at: Coord,
    /// What.
    pub field: Field,
}

/// An `INFO key value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: milliseconds per move; 0 = play as fast as possible.
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds for the whole match; 0 = no limit.
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left in the match (may be negative; `2147483647` = no limit).
    TimeLeft(i64),
    /// `max_memory`: bytes; 0 = no limit.
    MaxMemory(u64),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `rule`: bitmask, 1 = exactly five, 2 = continuous game, 4 = renju, 8 = caro.
    Rule(u32),
    /// `evaluate x,y`: the mouse position, for debug builds only.
    Evaluate(Coord),
    /// `folder`: a folder for persistent files.
    Folder(String),
    /// A key this brain does not know; the protocol says to ignore it.
    Other {
        /// The key, lower case.
        key: String,
        /// The rest of the line.
        value: String,
    },
}

/// A command from the manager, fully read (a `BOARD` block only once its `DONE` arrived).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new square board of side `n` (not yet checked against the supported range).
    Start(u32),
    /// `RECTSTART w,h`: a rectangular board.
    RectStart {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// `RESTART`: an empty board of the same size.
    Restart,
    /// `BEGIN`: the brain opens the game on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played here; the brain answers a move.
    Turn(Coord),
    /// `BOARD` … `DONE`: a whole new position, in the order the manager sent it; the brain
    /// answers a move.
    Board(Vec<BoardLine>),
    /// `INFO key value`; no answer.
    Info(Info),
    /// `END`: terminate at once, without output.
    End,
    /// `ABOUT`: one line about the brain.
    About,
    /// `TAKEBACK x,y`: remove the stone at x,y (the last move) and answer `OK`.
    Takeback(Coord),
    /// `SWAP2BOARD` … `DONE`: the swap2 opening stage, with the stones placed so far.
    Swap2Board(Vec<Coord>),
    /// `STOP` / `YXSTOP` (Yixin-Board extension): answer the best move so far now.
    Stop,
}

impl Command {
    /// Whether this command changes the game or asks for a move, so that a search still
    /// running for the previous request should be cut short before it is handled.
    #[must_use]
    pub fn interrupts_search(&self) -> bool {
        matches!(
            self,
            Command::Start(_)
                | Command::RectStart { .. }
                | Command::Restart
                | Command::Begin
                | Command::Turn(_)
                | Command::Board(_)
                | Command::Takeback(_)
                | Command::Swap2Board(_)
                | Command::Stop
        )
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A known command with missing or malformed arguments.
    BadArguments {
        /// The command word, upper case.
        command: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// An `INFO` line whose value could not be read. The manager does not read answers to
    /// `INFO`, so the session reports this later as a `MESSAGE`, never as an `ERROR` line.
    BadInfo {
        /// The key, lower case.
        key: String,
        /// What was wrong.
        reason: String,
    },
    /// A line inside a `BOARD` / `SWAP2BOARD` block that is not `x,y,field` / `x,y`.
    BadBlockLine {
        /// `"BOARD"` or `"SWAP2BOARD"`.
        block: &'static str,
        /// 1-based line number inside the block.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// A block with more than [`MAX_BLOCK_LINES`] lines.
    BlockTooLong {
        /// `"BOARD"` or `"SWAP2BOARD"`.
        block: &'static str,
    },
    /// A block interrupted by another command before its `DONE`.
    UnterminatedBlock {
        /// `"BOARD"` or `"SWAP2BOARD"`.
        block: &'static str,
    },
    /// `DONE` outside a block.
    StrayDone,
    /// A line longer than the reader's limit (it was cut; its content is not trusted).
    LineTooLong {
        /// The full length in bytes.
        len: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadArguments { command, reason } => write!(f, "{command}: {reason}"),
            ParseError::BadInfo { key, reason } => write!(f, "INFO {key}: {reason}"),
            ParseError::BadBlockLine {
                block,
                line,
                reason,
            } => write!(f, "{block} line {line}: {reason}"),
            ParseError::BlockTooLong { block } => {
                write!(f, "{block}: more than {MAX_BLOCK_LINES} lines")
            }
            ParseError::UnterminatedBlock { block } => {
                write!(f, "{block}: another command arrived before DONE")
            }
            ParseError::StrayDone => f.write_str("DONE without BOARD"),
            ParseError::LineTooLong { len } => write!(f, "line too long ({len} bytes)"),
        }
    }
}

impl std::error::Error for ParseError {}

/// What one line amounted to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A complete command.
    Command(Command),
    /// A known command that could not be read: answer `ERROR <message>`.
    Error(ParseError),
    /// Not a command this brain knows: answer `UNKNOWN <message>`.
    Unknown(String),
}

#[derive(Clone, Debug)]
enum Block {
    Board {
        lines: Vec<BoardLine>,
        error: Option<ParseError>,
        count: usize,
    },
    Swap2 {
        coords: Vec<Coord>,
        error: Option<ParseError>,
        count: usize,
    },
}

/// Turns manager lines into [`Parsed`] items, keeping `BOARD`/`SWAP2BOARD` blocks open across
/// lines.
///
/// ```
/// use wuzi::gomocup::{Command, Coord, Parsed, Parser};
///
/// let mut parser = Parser::new();
/// assert_eq!(
///     parser.feed("turn 7, 8\r"),
///     vec![Parsed::Command(Command::Turn(Coord { x: 7, y: 8 }))]
/// );
/// assert!(parser.feed("BOARD").is_empty()); // the block stays open until DONE
/// assert!(parser.feed("7,7,1").is_empty());
/// assert!(matches!(parser.feed("DONE")[..], [Parsed::Command(Command::Board(_))]));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    /// A parser outside any block.
    #[must_use]
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a `BOARD` or `SWAP2BOARD` block is open (waiting for `DONE`).
    #[must_use]
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Reads one line (its line end may still be attached). Returns nothing for an empty line
    /// or a line that went into an open block, one item usually, and two when a command
    /// interrupts an open block (the block's error first, then the command).
    pub fn feed(&mut self, line: &str) -> Vec<Parsed> {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() {
            return Vec::new();
        }
        if let Some(block) = self.block.as_mut() {
            let word = first_word(line).to_ascii_uppercase();
            if word == "DONE" {
                return vec![self.close_block()];
            }
            if starts_like_coordinates(line) {
                block.push(line);
                return Vec::new();
            }
            if is_command_word(&word) {
                let block_name = self.block_name();
                self.block = None;
                let mut out = vec![Parsed::Error(ParseError::UnterminatedBlock {
                    block: block_name,
                })];
                out.extend(self.feed(line));
                return out;
            }
            block.push(line);
            return Vec::new();
        }
        self.parse_command(line).into_iter().collect()
    }

    /// Reports a line the reader had to cut. Inside a block it spoils the block (answered at
    /// `DONE`); outside it is an error of its own.
    pub fn feed_too_long(&mut self, len: usize) -> Vec<Parsed> {
        match self.block.as_mut() {
            Some(block) => {
                block.fail(ParseError::LineTooLong { len });
                Vec::new()
            }
            None => vec![Parsed::Error(ParseError::LineTooLong { len })],
        }
    }

    fn block_name(&self) -> &'static str {
        match self.block {
            Some(Block::Swap2 { .. }) => "SWAP2BOARD",
            _ => "BOARD",
        }
    }

    fn close_block(&mut self) -> Parsed {
        match self.block.take() {
            Some(Block::Board { error: Some(e), .. })
            | Some(Block::Swap2 { error: Some(e), .. }) => Parsed::Error(e),
            Some(Block::Board { lines, .. }) => Parsed::Command(Command::Board(lines)),
            Some(Block::Swap2 { coords, .. }) => Parsed::Command(Command::Swap2Board(coords)),
            None => Parsed::Error(ParseError::StrayDone),
        }
    }

    fn parse_command(&mut self, line: &str) -> Option<Parsed> {
        let word = first_word(line);
        let args = line[word.len()..].trim();
        let upper = word.to_ascii_uppercase();
        let bad = |command: &'static str, reason: String| {
            Some(Parsed::Error(ParseError::BadArguments { command, reason }))
        };
        let command = match upper.as_str() {
            "START" => match parse_number::<u32>(args) {
                Ok(n) => Command::Start(n),
                Err(reason) => return bad("START", format!("board size {reason}")),
            },
            "RECTSTART" => match parse_coord(args) {
                Ok(c) => Command::RectStart {
                    width: c.x,
                    height: c.y,
                },
                Err(reason) => return bad("RECTSTART", reason),
            },
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "END" => Command::End,
            "ABOUT" => Command::About,
            "STOP" | "YXSTOP" => Command::Stop,
            "TURN" => match parse_coord(args) {
                Ok(c) => Command::Turn(c),
                Err(reason) => return bad("TURN", reason),
            },
            "TAKEBACK" => match parse_coord(args) {
                Ok(c) => Command::Takeback(c),
                Err(reason) => return bad("TAKEBACK", reason),
            },
            "BOARD" => {
                self.block = Some(Block::Board {
                    lines: Vec::new(),
                    error: None,
                    count: 0,
                });
                return None;
            }
            "SWAP2BOARD" => {
                self.block = Some(Block::Swap2 {
                    coords: Vec::new(),
                    error: None,
                    count: 0,
                });
                return None;
            }
            "DONE" => return Some(Parsed::Error(ParseError::StrayDone)),
            "INFO" => match parse_info(args) {
                Ok(info) => Command::Info(info),
                Err(e) => return Some(Parsed::Error(e)),
            },
            _ => return Some(Parsed::Unknown(format!("unknown command {}", quote(word)))),
        };
        Some(Parsed::Command(command))
    }
}

impl Block {
    fn push(&mut self, line: &str) {
        let (count, name) = match self {
            Block::Board { count, .. } => (count, "BOARD"),
            Block::Swap2 { count, .. } => (count, "SWAP2BOARD"),
        };
        *count += 1;
        let n = *count;
        if n > MAX_BLOCK_LINES {
            self.fail(ParseError::BlockTooLong { block: name });
            return;
        }
        match self {
            Block::Board { lines, .. } => match parse_board_line(line) {
                Ok(l) => lines.push(l),
                Err(reason) => self.fail(ParseError::BadBlockLine {
                    block: name,
                    line: n,
                    reason,
                }),
            },
            Block::Swap2 { coords, .. } => match parse_coord(line) {
                Ok(c) => coords.push(c),
                Err(reason) => self.fail(ParseError::BadBlockLine {
                    block: name,
                    line: n,
                    reason,
                }),
            },
        }
    }

    /// Keeps the first error: it is the one the manager can act on.
    fn fail(&mut self, e: ParseError) {
        let error = match self {
            Block::Board { error, .. } | Block::Swap2 { error, .. } => error,
        };
        if error.is_none() {
            *error = Some(e);
        }
    }
}

fn first_word(line: &str) -> &str {
    line.split(char::is_whitespace).next().unwrap_or("")
}

/// Whether a line inside a block is meant as a coordinate line (so a bad one is an error in
/// the block rather than a command interrupting it).
fn starts_like_coordinates(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == ',')
}

fn is_command_word(upper: &str) -> bool {
    matches!(
        upper,
        "START"
            | "RECTSTART"
            | "RESTART"
            | "BEGIN"
            | "END"
            | "ABOUT"
            | "STOP"
            | "YXSTOP"
            | "TURN"
            | "TAKEBACK"
            | "BOARD"
            | "SWAP2BOARD"
            | "INFO"
    )
}

/// Quotes user text for a message: printable ASCII only, at most [`QUOTE_MAX`] characters.
pub(super) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(QUOTE_MAX + 5);
    out.push('"');
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_MAX {
            out.push_str("...");
            break;
        }
        out.push(if c.is_ascii_graphic() || c == ' ' {
            c
        } else {
            '?'
        });
    }
    out.push('"');
    out
}

fn parse_number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("is missing".to_string());
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} is not a number", quote(t)));
    }
    t.parse()
        .map_err(|_| format!("{} is out of range", quote(t)))
}

fn parse_coord(text: &str) -> Result<Coord, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [x, y] if !x.is_empty() && !y.is_empty() => Ok(Coord {
            x: parse_number(x).map_err(|e| format!("x {e}"))?,
            y: parse_number(y).map_err(|e| format!("y {e}"))?,
        }),
        _ => Err(format!("expected x,y but got {}", quote(text))),
    }
}

fn parse_board_line(text: &str) -> Result<BoardLine, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, f] = parts[..] else {
        return Err(format!("expected x,y,field but got {}", quote(text)));
    };
    let at = Coord {
        x: parse_number(x).map_err(|e| format!("x {e}"))?,
        y: parse_number(y).map_err(|e| format!("y {e}"))?,
    };
    let field = match f {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Marker,
        _ => return Err(format!("field {} is not 1, 2 or 3", quote(f))),
    };
    Ok(BoardLine { at, field })
}

fn parse_info(args: &str) -> Result<Info, ParseError> {
    let key = first_word(args).to_ascii_lowercase();
    if key.is_empty() {
        return Err(ParseError::BadArguments {
            command: "INFO",
            reason: "key is missing".to_string(),
        });
    }
    let value = args[key.len()..].trim();
    let bad = |reason: String| ParseError::BadInfo {
        key: key.clone(),
        reason,
    };
    let info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(parse_number(value).map_err(bad)?),
        "timeout_match" => Info::TimeoutMatch(parse_number(value).map_err(bad)?),
        "time_left" => Info::TimeLeft(parse_number(value).map_err(bad)?),
        "max_memory" => Info::MaxMemory(parse_number(value).map_err(bad)?),
        "game_type" => Info::GameType(parse_number(value).map_err(bad)?),
        "rule" => Info::Rule(parse_number(value).map_err(bad)?),
        "evaluate" => Info::Evaluate(parse_coord(value).map_err(bad)?),
        "folder" => Info::Folder(value.to_string()),
        _ => Info::Other {
            key,
            value: value.to_string(),
        },
    };
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Parsed {
        let mut p = Parser::new();
        let mut out = p.feed(line);
        assert_eq!(out.len(), 1, "{line:?} gave {out:?}");
        out.remove(0)
    }

    fn cmd(line: &str) -> Command {
        match one(line) {
            Parsed::Command(c) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> ParseError {
        match one(line) {
            Parsed::Error(e) => e,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn simple_commands_any_case_and_line_end() {
        assert_eq!(cmd("START 20"), Command::Start(20));
        assert_eq!(cmd("start 15\r\n"), Command::Start(15));
        assert_eq!(cmd("  Begin\r"), Command::Begin);
        assert_eq!(cmd("RESTART"), Command::Restart);
        assert_eq!(cmd("end"), Command::End);
        assert_eq!(cmd("About"), Command::About);
        assert_eq!(cmd("YXSTOP"), Command::Stop);
        assert_eq!(cmd("TURN 10,11"), Command::Turn(Coord { x: 10, y: 11 }));
        assert_eq!(cmd("turn 3 , 4"), Command::Turn(Coord { x: 3, y: 4 }));
        assert_eq!(
            cmd("TAKEBACK 9,10"),
            Command::Takeback(Coord { x: 9, y: 10 })
        );
        assert_eq!(
            cmd("RECTSTART 30,20"),
            Command::RectStart {
                width: 30,
                height: 20
            }
        );
    }

    #[test]
    fn empty_lines_are_ignored() {
        let mut p = Parser::new();
        assert!(p.feed("").is_empty());
        assert!(p.feed("\r\n").is_empty());
        assert!(p.feed("   \t").is_empty());
    }

    #[test]
    fn malformed_arguments_are_errors() {
        assert!(matches!(
            err("START"),
            ParseError::BadArguments {
                command: "START",
                ..
            }
        ));
        assert!(matches!(err("START abc"), ParseError::BadArguments { .. }));
        assert!(matches!(
            err("START 99999999999999999999"),
            ParseError::BadArguments { .. }
        ));
        for bad in [
            "TURN",
            "TURN 1",
            "TURN 1,",
            "TURN ,1",
            "TURN a,b",
            "TURN -1,3",
            "TURN 1,2,3",
            "TURN 1;2",
            "TURN 4294967296,1",
        ] {
            assert!(
                matches!(
                    err(bad),
                    ParseError::BadArguments {
                        command: "TURN",
                        ..
                    }
                ),
                "{bad}"
            );
        }
        assert!(matches!(err("TAKEBACK x"), ParseError::BadArguments { .. }));
        assert!(matches!(err("DONE"), ParseError::StrayDone));
    }

    #[test]
    fn unknown_commands_are_quoted_briefly() {
        let Parsed::Unknown(msg) = one("FOOBAR 1 2 3") else {
            panic!()
        };
        assert!(msg.contains("\"FOOBAR\""), "{msg}");
        let huge = "X".repeat(100_000);
        let Parsed::Unknown(msg) = one(&huge) else {
            panic!()
        };
        assert!(msg.len() < 100, "{}", msg.len());
        let Parsed::Unknown(msg) = one("\u{1b}[31m\u{7f}") else {
            panic!()
        };
        assert!(
            msg.chars().all(|c| c.is_ascii_graphic() || c == ' '),
            "{msg}"
        );
    }

    #[test]
    fn info_values() {
        assert_eq!(
            cmd("INFO timeout_turn 5000"),
            Command::Info(Info::TimeoutTurn(5000))
        );
        assert_eq!(
            cmd("info TIMEOUT_MATCH 180000"),
            Command::Info(Info::TimeoutMatch(180_000))
        );
        assert_eq!(
            cmd("INFO time_left -30"),
            Command::Info(Info::TimeLeft(-30))
        );
        assert_eq!(
            cmd("INFO max_memory 83886080"),
            Command::Info(Info::MaxMemory(83_886_080))
        );
        assert_eq!(cmd("INFO rule 4"), Command::Info(Info::Rule(4)));
        assert_eq!(cmd("INFO game_type 1"), Command::Info(Info::GameType(1)));
        assert_eq!(
            cmd("INFO evaluate 3,4"),
            Command::Info(Info::Evaluate(Coord { x: 3, y: 4 }))
        );
        assert_eq!(
            cmd("INFO folder C:\\My Brains\\tmp"),
            Command::Info(Info::Folder("C:\\My Brains\\tmp".into()))
        );
        assert_eq!(
            cmd("INFO thread_num 4"),
            Command::Info(Info::Other {
                key: "thread_num".into(),
                value: "4".into()
            })
        );
        assert!(matches!(
            err("INFO timeout_turn soon"),
            ParseError::BadInfo { ref key, .. } if key == "timeout_turn"
        ));
        assert!(matches!(
            err("INFO timeout_turn -5"),
            ParseError::BadInfo { .. }
        ));
        assert!(matches!(err("INFO rule"), ParseError::BadInfo { .. }));
        assert!(matches!(err("INFO"), ParseError::BadArguments { .. }));
    }

    #[test]
    fn board_block_collects_until_done() {
        let mut p = Parser::new();
        assert!(p.feed("BOARD").is_empty());
        assert!(p.in_block());
        for l in ["10,10,1", "10,11,2\r", "", "11, 11, 1", "9,10,3"] {
            assert!(p.feed(l).is_empty(), "{l}");
        }
        let out = p.feed("done");
        assert!(!p.in_block());
        let Parsed::Command(Command::Board(lines)) = &out[0] else {
            panic!("{out:?}")
        };
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            BoardLine {
                at: Coord { x: 10, y: 10 },
                field: Field::Own
            }
        );
        assert_eq!(lines[1].field, Field::Opponent);
        assert_eq!(lines[2].at, Coord { x: 11, y: 11 });
        assert_eq!(lines[3].field, Field::Marker);
    }

    #[test]
    fn bad_board_lines_spoil_the_block_and_report_the_first() {
        let mut p = Parser::new();
        p.feed("BOARD");
        p.feed("1,1,1");
        p.feed("2,2,7");
        p.feed("3,3");
        let out = p.feed("DONE");
        assert_eq!(
            out,
            vec![Parsed::Error(ParseError::BadBlockLine {
                block: "BOARD",
                line: 2,
                reason: "field \"7\" is not 1, 2 or 3".into()
            })]
        );
        // The parser is usable again afterwards.
        assert_eq!(
            p.feed("TURN 1,1"),
            vec![Parsed::Command(Command::Turn(Coord { x: 1, y: 1 }))]
        );
    }

    #[test]
    fn garbage_inside_a_block_is_a_block_error() {
        let mut p = Parser::new();
        p.feed("BOARD");
        assert!(p.feed("hello world").is_empty());
        assert!(matches!(
            p.feed("DONE")[..],
            [Parsed::Error(ParseError::BadBlockLine { line: 1, .. })]
        ));
    }

    #[test]
    fn a_command_interrupts_an_open_block() {
        let mut p = Parser::new();
        p.feed("BOARD");
        p.feed("1,1,1");
        let out = p.feed("END");
        assert_eq!(
            out,
            vec![
                Parsed::Error(ParseError::UnterminatedBlock { block: "BOARD" }),
                Parsed::Command(Command::End)
            ]
        );
        assert!(!p.in_block());
    }

    #[test]
    fn runaway_block_is_bounded() {
        let mut p = Parser::new();
        p.feed("BOARD");
        for i in 0..1000 {
            p.feed(&format!("{},{},1", i % 20, i / 20));
        }
        assert!(matches!(
            p.feed("DONE")[..],
            [Parsed::Error(ParseError::BlockTooLong { block: "BOARD" })]
        ));
    }

    #[test]
    fn swap2_block() {
        let mut p = Parser::new();
        p.feed("SWAP2BOARD");
        p.feed("7,7");
        p.feed("8,7");
        assert_eq!(
            p.feed("DONE"),
            vec![Parsed::Command(Command::Swap2Board(vec![
                Coord { x: 7, y: 7 },
                Coord { x: 8, y: 7 }
            ]))]
        );
        p.feed("SWAP2BOARD");
        assert_eq!(
            p.feed("DONE"),
            vec![Parsed::Command(Command::Swap2Board(vec![]))]
        );
    }

    #[test]
    fn too_long_lines() {
        let mut p = Parser::new();
        assert_eq!(
            p.feed_too_long(1 << 20),
            vec![Parsed::Error(ParseError::LineTooLong { len: 1 << 20 })]
        );
        p.feed("BOARD");
        assert!(p.feed_too_long(99_999).is_empty());
        assert!(matches!(
            p.feed("DONE")[..],
            [Parsed::Error(ParseError::LineTooLong { len: 99_999 })]
        ));
    }

    #[test]
    fn interrupting_commands() {
        assert!(cmd("TURN 1,1").interrupts_search());
        assert!(cmd("RESTART").interrupts_search());
        assert!(!cmd("INFO time_left 100").interrupts_search());
        assert!(!cmd("ABOUT").interrupts_search());
        assert!(!cmd("END").interrupts_search());
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text, any line split: the parser never panics, and a block is always closed
        /// by DONE with exactly one result.
        #[test]
        fn any_text_parses_without_panic(lines in proptest::collection::vec(any::<String>(), 0..20)) {
            let mut p = Parser::new();
            for l in &lines {
                let out = p.feed(l);
                prop_assert!(out.len() <= 2);
            }
            let was_open = p.in_block();
            let out = p.feed("DONE");
            prop_assert_eq!(out.len(), 1);
            if !was_open {
                prop_assert_eq!(&out[0], &Parsed::Error(ParseError::StrayDone));
            }
            prop_assert!(!p.in_block());
        }
    }
}
