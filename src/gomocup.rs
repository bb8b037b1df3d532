//! The Gomocup ("piskvork") brain protocol, as a pure state machine.
//!
//! A manager (Piskvork, a tournament runner, a GUI) talks to a brain over stdin/stdout, one
//! command a line (the commands Wuzi handles: docs/architecture.md). This module holds everything
//! but the threads: [`LineReader`] splits the byte stream, [`Parser`] turns lines into typed
//! [`Command`]s, [`BrainSession`] applies them to the game and says what to answer or that a move
//! must be searched, and [`TimeControl`] turns the manager's clock into a per-move [`Budget`].
//! The `pbrain-wuzi` binary adds a reader thread and an engine thread around it.
//!
//! ```
//! use wuzi::gomocup::{Response, Parsed, Parser, BrainSession};
//!
//! let mut parser = Parser::new();
//! let mut session = BrainSession::new();
//! let mut answers = Vec::new();
//! for line in ["START 15", "INFO rule 4", "ABOUT"] {
//!     for parsed in parser.feed(line) {
//!         let Response { replies, .. } = session.handle(parsed);
//!         answers.extend(replies.iter().map(ToString::to_string));
//!     }
//! }
//! assert_eq!(answers[0], "OK");
//! assert!(answers[1].starts_with("name=\"Wuzi\""));
//! ```

mod command;
mod lines;
mod session;
mod time;

pub use crate::ai::quick_move;
pub use command::{
    BoardLine, Command, Coord, Field, Info, ParseError, Parsed, Parser, MAX_BLOCK_LINES,
};
pub use lines::{Line, LineReader, DEFAULT_LINE_LIMIT};
pub use session::{
    BrainSession, Next, Reply, Response, Swap2Decision, ThinkKind, ThinkRequest, Thought, ABOUT,
};
pub use time::{
    memory_too_small, tt_mib_for, turn_margin, Budget, TimeControl, DEFAULT_MOVE_TIME,
    DEFAULT_TT_MIB, FASTEST_ANSWER, FASTEST_MOVE_TIME, MAX_TT_MIB, MEMORY_RESERVE,
    UNLIMITED_TIME_LEFT,
};
