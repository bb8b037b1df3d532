//! The app core's owned parts, free of Tauri and of the app state that composes them: each
//! owns its own state, is tested on its own, and imports only parts below it (the import
//! graph is checked for circles by `import_graph.rs`).
//!
//! - [`change`]: the kinds of change of the position, which decide the hooks that run;
//! - [`opening`]: the Swap / Swap2 opening phase, the rule's state machine;
//! - [`swap`]: that phase in a game session, with who plays which role;
//! - [`clock`]: the game clock, plain data that never reads the time itself;
//! - [`engine`]: the engine, built on first use and dropped after a panic;
//! - [`search`]: the computer's and the hint's search jobs and their one running slot;
//! - [`session`]: the game session: the game and who plays it, its opening phase included;
//! - [`session_clock`]: the game clock tied to the session, with its time source and pause;
//! - [`analysis`]: analysis mode's jobs and the running one;
//! - [`review`]: game review's jobs, the running one and the finished review;
//! - [`setup`]: a position from the editor, checked by the referee.

pub mod analysis;
pub mod change;
pub mod clock;
pub mod engine;
pub mod opening;
pub mod review;
pub mod search;
pub mod session;
pub mod session_clock;
pub mod setup;
pub mod swap;
