//! Scripted Gomocup sessions against the real `pbrain-wuzi` binary.
//!
//! Every read has a watchdog: a brain that hangs fails the test with the transcript instead
//! of hanging the test run, and the child is killed when the harness is dropped.
//!
//! The sessions are split by feature: `play` (commands, levels, tactics, renju),
//! `robustness` (searches cut short, end of input, floods of bad lines) and `swap2`.

mod play;
mod robustness;
mod swap2;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest wait for one answer. Searches in these tests are limited to ~1 s by INFO, so this
/// only trips on a hang.
const WATCHDOG: Duration = Duration::from_secs(30);

struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
    stones: HashSet<(u32, u32)>,
    size: u32,
}

impl Brain {
    fn start() -> Brain {
        Brain::start_with(&[])
    }

    fn start_with(args: &[&str]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn pbrain-wuzi");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
            stones: HashSet::new(),
            size: 0,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            "> {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(80)])
        ));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\r\n").as_bytes());
    }

    fn fail(&self, why: &str) -> ! {
        panic!("{why}\ntranscript:\n{}", self.transcript.join("\n"));
    }

    /// The next line that is not MESSAGE/DEBUG, within `wait`; `None` on timeout.
    fn next_answer_within(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let upper = line.to_ascii_uppercase();
                    if upper.starts_with("MESSAGE") || upper.starts_with("DEBUG") {
                        continue;
                    }
                    return Some(line);
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => self.fail("brain closed its output"),
            }
        }
    }

    fn next_answer(&mut self) -> String {
        match self.next_answer_within(WATCHDOG) {
            Some(l) => l,
            None => self.fail("watchdog: no answer"),
        }
    }

    fn answer(&mut self, line: &str) -> String {
        self.send(line);
        self.next_answer()
    }

    fn expect(&mut self, line: &str, prefix: &str) -> String {
        let a = self.answer(line);
        if !a.starts_with(prefix) {
            self.fail(&format!("{line:?}: expected {prefix:?}, got {a:?}"));
        }
        a
    }

    fn start_game(&mut self, size: u32) {
        self.expect(&format!("START {size}"), "OK");
        self.size = size;
        self.stones.clear();
    }

    /// Reads a move answer, checks it is on the board and on an empty point, records it.
    fn read_move(&mut self) -> (u32, u32) {
        let a = self.next_answer();
        let parsed = a.split_once(',').and_then(|(x, y)| {
            Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?))
        });
        let Some((x, y)) = parsed else {
            self.fail(&format!("expected a move, got {a:?}"))
        };
        if x >= self.size || y >= self.size {
            self.fail(&format!("move {x},{y} is off the board"));
        }
        if !self.stones.insert((x, y)) {
            self.fail(&format!("move {x},{y} is on an occupied point"));
        }
        (x, y)
    }

    fn turn(&mut self, x: u32, y: u32) -> (u32, u32) {
        self.send(&format!("TURN {x},{y}"));
        self.stones.insert((x, y));
        self.read_move()
    }

    /// Sends a BOARD block (own stones field 1, opponent's field 2) and reads the move.
    fn board(&mut self, stones: &[(u32, u32, u8)]) -> (u32, u32) {
        self.send("BOARD");
        for &(x, y, f) in stones {
            self.send(&format!("{x},{y},{f}"));
            self.stones.insert((x, y));
        }
        self.send("DONE");
        self.read_move()
    }

    /// A point neither side has used, for the opponent's next move.
    fn free_point(&self) -> (u32, u32) {
        (0..self.size)
            .flat_map(|y| (0..self.size).map(move |x| (x, y)))
            .find(|p| !self.stones.contains(p))
            .expect("a free point")
    }

    /// Sends END and checks the brain exits promptly, writing nothing more.
    fn end(mut self) {
        self.send("END");
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                break;
            }
            if t.elapsed() > Duration::from_secs(3) {
                self.fail("brain did not exit within 3 s of END");
            }
            thread::sleep(Duration::from_millis(10));
        }
        // MESSAGE/DEBUG lines written before END arrived may still be in the pipe; an
        // answer (a move above all) must not be.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            let upper = line.to_ascii_uppercase();
            if !upper.starts_with("MESSAGE") && !upper.starts_with("DEBUG") {
                self.fail(&format!("answer after END: {line:?}"));
            }
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// RIF (`h8`) to Gomocup `x,y` on a 15×15 board.
fn rif(s: &str) -> (u32, u32) {
    let x = u32::from(s.as_bytes()[0] - b'a');
    let row: u32 = s[1..].parse().unwrap();
    (x, 15 - row)
}
