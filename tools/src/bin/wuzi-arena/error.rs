//! The one error type of `wuzi-arena`.
//!
//! Everything that stops a run before or between games is an [`ArenaError`]: bad flags, an
//! unreadable or malformed openings file, a brain that cannot even be started. A brain that
//! misbehaves *during* a game is not an error of the tool: it loses that game, and the run
//! goes on.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::openings::OpeningsError;

/// Why `wuzi-arena` stopped.
#[derive(Debug)]
pub enum ArenaError {
    /// `--help` was asked for: print this text and exit 0.
    Help(String),
    /// Bad command-line input.
    Usage(String),
    /// A file that could not be read or written.
    File {
        /// The file.
        path: PathBuf,
        /// What we were doing with it.
        action: &'static str,
        /// Why it failed.
        error: io::Error,
    },
    /// An openings file with a line that is not a playable opening.
    Openings {
        /// The file.
        path: PathBuf,
        /// The offending line.
        error: OpeningsError,
    },
    /// A brain that does not start or does not accept `START` (checked once before a run, so
    /// that a typo in a path is not reported as 2 000 lost games).
    Brain {
        /// The brain's name.
        name: String,
        /// What went wrong.
        why: String,
    },
    /// A games file (`times --games`) with a line that is not a replayable game.
    Games {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The opening generator found fewer openings than asked for.
    Generate(String),
    /// Writing to standard output failed (a closed pipe, a full disk).
    Output(io::Error),
}

impl ArenaError {
    /// The process exit code: 0 for `--help`, 2 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            ArenaError::Help(_) => 0,
            _ => 2,
        }
    }
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Help(text) => f.write_str(text),
            ArenaError::Usage(m) => f.write_str(m),
            ArenaError::File {
                path,
                action,
                error,
            } => write!(f, "cannot {action} {}: {error}", path.display()),
            ArenaError::Openings { path, error } => write!(f, "{}: {error}", path.display()),
            ArenaError::Games { path, line, why } => {
                write!(f, "{}, line {line}: {why}", path.display())
            }
            ArenaError::Brain { name, why } => write!(f, "brain {name}: {why}"),
            ArenaError::Generate(m) => f.write_str(m),
            ArenaError::Output(e) => write!(f, "writing the output failed: {e}"),
        }
    }
}

impl std::error::Error for ArenaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArenaError::File { error, .. } => Some(error),
            ArenaError::Openings { error, .. } => Some(error),
            ArenaError::Output(e) => Some(e),
            _ => None,
        }
    }
}

/// Shorthand for a usage error.
pub fn usage(msg: impl Into<String>) -> ArenaError {
    ArenaError::Usage(msg.into())
}
