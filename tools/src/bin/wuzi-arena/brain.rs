//! A brain process: spawning it, writing commands, reading its answers against a deadline,
//! and making sure it is gone afterwards.
//!
//! A reader thread per brain splits its stdout into lines (with the crate's Gomocup
//! [`LineReader`], which bounds line length) and forwards each with the instant it arrived,
//! so a move's time is measured where the manager first sees it, not when a busy worker gets
//! round to it. The worker waits on that channel with `recv_timeout`, which is how a brain
//! that never answers loses on time instead of hanging the run. Dropping a [`Brain`] kills the
//! process if it is still running, so no path through a game leaves a brain behind.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use wuzi::gomocup::{Line, LineReader};

use crate::protocol::{classify, quote, Answer};

/// How many `MESSAGE` / `ERROR` / `UNKNOWN` lines of a brain are kept for the game log.
const KEEP_MESSAGES: usize = 5;

/// How long a brain has to exit by itself after `END` (the protocol's "e.g. 1 second").
const END_GRACE: Duration = Duration::from_secs(1);

/// How to run one engine.
#[derive(Clone, Debug)]
pub struct BrainSpec {
    /// The name in reports and game records.
    pub name: String,
    /// The program (absolute, or looked up in `PATH` when it has no `/`).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (the manager's when `None`).
    pub cwd: Option<PathBuf>,
    /// Whether it answers `ABOUT` (found out once before the run); only then is `ABOUT`
    /// used as the barrier after the `INFO` lines (see [`Brain::about`]).
    pub answers_about: bool,
    /// This brain's `timeout_turn` in ms when it differs from the run's (`--turn-ms-a`,
    /// `--turn-ms-b`: time-odds matches, which measure what more time is worth).
    pub turn_ms: Option<u64>,
}

impl BrainSpec {
    /// A spec from a shell-like command line (see [`crate::args::split_command`]). A relative
    /// program path with a `/` is made absolute against the manager's directory, because
    /// whether a child with another working directory resolves it against the old or the new
    /// one is platform specific.
    ///
    /// # Errors
    /// A message for an empty command or an unreadable current directory.
    pub fn new(
        words: Vec<String>,
        name: Option<String>,
        cwd: Option<PathBuf>,
    ) -> Result<BrainSpec, String> {
        let mut words = words.into_iter();
        let program = PathBuf::from(words.next().ok_or("empty command")?);
        let program = if program.is_relative() && program.components().count() > 1 {
            std::env::current_dir()
                .map_err(|e| format!("cannot read the current directory: {e}"))?
                .join(program)
        } else {
            program
        };
        let name = name.unwrap_or_else(|| {
            program
                .file_name()
                .map_or_else(|| "brain".to_string(), |n| n.to_string_lossy().into_owned())
        });
        Ok(BrainSpec {
            name,
            program,
            args: words.collect(),
            cwd,
            answers_about: true,
            turn_ms: None,
        })
    }
}

/// What the reader thread forwards.
#[derive(Debug)]
enum Event {
    Line(Line, Instant),
    Eof,
}

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The deadline passed.
    Timeout,
    /// The brain closed its output or exited.
    Closed,
}

/// A classified line and when it arrived.
#[derive(Clone, Debug)]
pub struct Received {
    /// The line, classified.
    pub answer: Answer,
    /// The line as sent (shortened), for reports.
    pub text: String,
    /// When the reader thread got it.
    pub at: Instant,
}

/// A running brain.
#[derive(Debug)]
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    closed: bool,
    /// The last few `MESSAGE` / `ERROR` / `UNKNOWN` lines, oldest first.
    messages: VecDeque<String>,
}

impl Brain {
    /// Starts the brain with its stderr going to `stderr` (a log file) or nowhere.
    ///
    /// # Errors
    /// The error of spawning the process (no such program, not executable, …).
    pub fn spawn(spec: &BrainSpec, stderr: Option<File>) -> io::Result<Brain> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.map_or_else(Stdio::null, Stdio::from));
        if let Some(dir) = &spec.cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let (tx, lines) = mpsc::channel();
        let reader = thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = LineReader::new(BufReader::new(stdout));
                loop {
                    match reader.next_line() {
                        Ok(Some(line)) => {
                            if tx.send(Event::Line(line, Instant::now())).is_err() {
                                return;
                            }
                        }
                        Ok(None) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        Ok(Brain {
            stdin: child.stdin.take(),
            child,
            lines,
            closed: false,
            messages: VecDeque::new(),
        })
    }

    /// Writes `text` (whole lines ending in CR LF) and flushes it.
    ///
    /// # Errors
    /// [`Silence::Closed`] if the brain no longer reads its input (it exited).
    pub fn send(&mut self, text: &str) -> Result<(), Silence> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Silence::Closed);
        };
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|_| Silence::Closed)
    }

    /// The next line that is not blank or chatter, arriving by `deadline`. Chatter is kept
    /// (see [`Brain::messages`]).
    ///
    /// # Errors
    /// [`Silence`] if the deadline passes or the brain's output ends first.
    pub fn receive(&mut self, deadline: Instant) -> Result<Received, Silence> {
        self.next_line(deadline, false)
    }

    /// The answer to `ABOUT`: the next line that is not blank, `MESSAGE` or `DEBUG` (an old
    /// brain may answer `UNKNOWN`, which counts), arriving by `deadline`.
    ///
    /// Sent after the `INFO` lines, `ABOUT` is a barrier: a brain handles commands in order,
    /// so once it answered, its `INFO` handling (a brain may resize its hash table on
    /// `INFO max_memory`) is over and does not eat into the first move's time.
    ///
    /// # Errors
    /// [`Silence`] if the deadline passes or the brain's output ends first.
    pub fn about(&mut self, deadline: Instant) -> Result<String, Silence> {
        self.next_line(deadline, true).map(|r| r.text)
    }

    fn next_line(&mut self, deadline: Instant, errors_answer: bool) -> Result<Received, Silence> {
        loop {
            if self.closed {
                return Err(Silence::Closed);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            let event = match self.lines.recv_timeout(wait) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => return Err(Silence::Timeout),
                Err(RecvTimeoutError::Disconnected) => Event::Eof,
            };
            match event {
                Event::Eof => self.closed = true,
                Event::Line(line, at) => {
                    // A line stamped by the deadline counts even if the worker was slow to
                    // pick it up.
                    if at > deadline {
                        return Err(Silence::Timeout);
                    }
                    if let Some(r) = self.keep(line, at, errors_answer) {
                        return Ok(r);
                    }
                }
            }
        }
    }

    /// Drops what the brain sent while nobody asked (late chatter, a stray second answer), so
    /// it cannot be read as the answer to the next command; chatter is still kept.
    pub fn drain(&mut self) {
        while let Ok(event) = self.lines.try_recv() {
            match event {
                Event::Eof => self.closed = true,
                Event::Line(line, at) => {
                    if let Some(r) = self.keep(line, at, false) {
                        self.remember(format!("(unasked) {}", r.text));
                    }
                }
            }
        }
    }

    /// Classifies a line; blanks and chatter are swallowed (chatter remembered), except
    /// `UNKNOWN` and `ERROR` lines when `errors_answer`.
    fn keep(&mut self, line: Line, at: Instant, errors_answer: bool) -> Option<Received> {
        let (answer, text) = match line {
            Line::Text(t) => (classify(&t), quote(t.trim())),
            Line::TooLong(n) => (Answer::Garbage, format!("<a line of {n} bytes>")),
        };
        match answer {
            Answer::Blank => None,
            Answer::Chatter { kind, text: rest } => {
                if kind != "DEBUG" {
                    self.remember(format!("{kind} {rest}"));
                }
                (errors_answer && matches!(kind, "UNKNOWN" | "ERROR")).then_some(Received {
                    answer: Answer::Chatter { kind, text: rest },
                    text,
                    at,
                })
            }
            answer => Some(Received { answer, text, at }),
        }
    }

    fn remember(&mut self, line: String) {
        if self.messages.len() == KEEP_MESSAGES {
            self.messages.pop_front();
        }
        self.messages.push_back(line);
    }

    /// The last few `MESSAGE` / `ERROR` / `UNKNOWN` lines, oldest first.
    pub fn messages(&self) -> Vec<String> {
        self.messages.iter().cloned().collect()
    }

    /// Ends several brains at once, so their grace periods overlap.
    pub fn end_all(brains: Vec<Brain>) {
        let mut brains = brains;
        for b in &mut brains {
            let _ = b.send("END\r\n");
            b.stdin = None;
        }
        let deadline = Instant::now() + END_GRACE;
        for b in &mut brains {
            b.wait_until(deadline);
        }
    }

    /// Waits for the process to exit by `deadline`; whether it did.
    fn wait_until(&mut self, deadline: Instant) -> bool {
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return true,
                Ok(None) => {}
                Err(_) => return false,
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            thread::sleep((deadline - now).min(Duration::from_millis(10)));
        }
    }

    /// Kills the process now (a forfeit, an aborted run).
    pub fn kill(&mut self) {
        self.stdin = None;
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.kill();
    }
}
