//! Scripted Gomocup sessions against the real `pbrain-wuzi` binary.
//!
//! Every read has a watchdog: a brain that hangs fails the test with the transcript instead
//! of hanging the test run, and the child is killed when the harness is dropped.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use wuzi::ai::swap2::{ColourChoice, ThreeStoneChoice};
use wuzi::gomocup::DEFAULT_TT_MIB;
use wuzi::{Engine, Game, Limits, Point, Rule};

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

#[test]
fn begin_turn_about_end() {
    let mut b = Brain::start();
    b.send("INFO timeout_match 100000");
    b.send("INFO timeout_turn 500");
    b.send("INFO max_memory 83886080");
    b.send("INFO game_type 1");
    b.send("INFO rule 0");
    b.send("INFO folder /tmp");
    b.start_game(15);
    b.send("INFO time_left 100000");
    b.send("BEGIN");
    b.read_move();
    for _ in 0..3 {
        let p = b.free_point();
        b.turn(p.0, p.1);
    }
    let about = b.answer("ABOUT");
    assert!(about.starts_with("name=\"Wuzi\", version=\""), "{about}");
    assert!(about.contains("author=\"Wuzi developers\""), "{about}");
    b.end();
}

#[test]
fn every_level_and_tuning_parameters_from_the_command_line() {
    for args in [
        &["--level", "beginner"][..],
        &["--level=easy"],
        &["--level", "3"],
        &["--level", "hard", "--param", "qs_fours=1,rfp_margin=50"],
        &["--param=null_move=0"],
        &["--nodes", "5000"],
    ] {
        let mut b = Brain::start_with(args);
        b.send("INFO timeout_turn 200");
        b.start_game(15);
        b.send("BEGIN");
        b.read_move();
        for _ in 0..4 {
            let p = b.free_point();
            b.turn(p.0, p.1);
        }
        b.end();
    }
}

#[test]
fn a_node_budget_plays_the_same_game_whatever_the_clock() {
    // `--nodes` replaces the clock, so the same moves get the same answers even though the
    // second run is given a much shorter (still sufficient) turn.
    let play = |turn_ms: u32| {
        let mut b = Brain::start_with(&["--nodes", "20000"]);
        b.send("INFO thread_num 1");
        b.send(&format!("INFO timeout_turn {turn_ms}"));
        b.start_game(15);
        let mut answers = vec![b.turn(7, 7)];
        for _ in 0..2 {
            let p = b.free_point();
            answers.push(b.turn(p.0, p.1));
        }
        b.end();
        answers
    };
    assert_eq!(play(30_000), play(5_000));
}

#[test]
fn bad_command_line_is_refused_with_usage() {
    for args in [
        &["--level", "godlike"][..],
        &["--param", "nonsense=1"],
        &["--param", "rfp_margin"],
        &["--level"],
        &["--nodes", "0"],
        &["--nodes=many"],
        &["extra"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("usage: pbrain-wuzi"), "{args:?}: {err}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: nothing on the protocol channel"
        );
    }
    let help = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--level"));
}

#[test]
fn takes_a_five_when_it_has_one() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 1000");
    b.start_game(15);
    // Own four on row 3 from x=3 to 6, blocked at x=2: only 7,3 wins. The opponent has an
    // open three elsewhere, which must not distract it.
    let mv = b.board(&[
        (2, 3, 2),
        (3, 3, 1),
        (3, 5, 2),
        (4, 3, 1),
        (4, 5, 2),
        (5, 3, 1),
        (5, 5, 2),
        (6, 3, 1),
        (10, 10, 2),
    ]);
    assert_eq!(mv, (7, 3));
    b.end();
}

#[test]
fn blocks_the_opponents_five() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 1000");
    b.start_game(15);
    // Opponent four on the diagonal 5,5..8,8, blocked at 4,4 by us: 9,9 must be blocked.
    let mv = b.board(&[
        (4, 4, 1),
        (5, 5, 2),
        (0, 14, 1),
        (6, 6, 2),
        (14, 0, 1),
        (7, 7, 2),
        (8, 8, 2),
    ]);
    assert_eq!(mv, (9, 9));
    b.end();
}

#[test]
fn bad_lines_get_errors_and_the_brain_keeps_working() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 300");
    b.expect("TURN 7,7", "ERROR"); // no START yet
    b.expect("START 99", "ERROR");
    b.expect("START", "ERROR");
    b.expect("START -3", "ERROR");
    b.start_game(15);
    b.expect("RECTSTART 20,10", "ERROR");
    b.expect("TURN 1", "ERROR");
    b.expect("TURN a,b", "ERROR");
    b.expect("TURN 15,3", "ERROR");
    b.expect("TURN 3,99999999999", "ERROR");
    b.expect("Hello brain", "UNKNOWN");
    b.expect("PLAY 1,1", "UNKNOWN");
    b.expect("DONE", "ERROR");
    let huge = vec![b'7'; 3 << 20];
    b.send_raw(&huge);
    b.send_raw(b"\r\n");
    let a = b.next_answer();
    assert!(a.starts_with("ERROR"), "{a}");
    b.send("INFO timeout_turn lots"); // no answer to INFO, even a bad one
    b.send("INFO no_such_key 5");
    let first = b.turn(7, 7);
    // Occupied points are refused, and the position is unchanged.
    b.expect("TURN 7,7", "ERROR");
    b.expect(&format!("TURN {},{}", first.0, first.1), "ERROR");
    b.expect("BOARD\r\n1,1,1\r\n2,2,9\r\nDONE", "ERROR");
    b.expect("BOARD\r\n1,1,1\r\n2,2,1\r\nDONE", "ERROR");
    let p = b.free_point();
    b.turn(p.0, p.1);
    b.end();
}

#[test]
fn every_line_end_and_any_case() {
    let mut b = Brain::start();
    b.send_raw(b"info timeout_turn 300\rstart 15\n");
    assert_eq!(b.next_answer(), "OK");
    b.size = 15;
    b.send_raw(b"\r\n\n\rabout\r");
    assert!(b.next_answer().starts_with("name="));
    b.send_raw(b"tUrN 7,7\n");
    b.stones.insert((7, 7));
    b.read_move();
    b.end();
}

#[test]
fn takeback_really_removes_the_stone() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 300");
    b.start_game(15);
    b.send("BEGIN");
    b.read_move();
    let p = b.free_point();
    let reply = b.turn(p.0, p.1);
    b.expect(&format!("TAKEBACK {},{}", reply.0, reply.1), "OK");
    b.expect(&format!("TAKEBACK {},{}", p.0, p.1), "OK");
    b.expect("TAKEBACK 14,14", "ERROR"); // nothing there
    b.stones.remove(&p);
    b.stones.remove(&reply);
    // The point the brain had played is free again: the opponent may take it.
    b.turn(reply.0, reply.1);
    b.end();
}

#[test]
fn restart_clears_the_board() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 300");
    b.start_game(15);
    let reply = b.turn(7, 7);
    b.expect("RESTART", "OK");
    b.stones.clear();
    // Both earlier stones are gone.
    b.turn(reply.0, reply.1);
    b.expect("RESTART", "OK");
    b.stones.clear();
    b.turn(7, 7);
    b.end();
}

/// White's only five point h8 is a double-three for black: under renju the brain (black)
/// may not block there; under freestyle it must.
fn forbidden_block_position() -> Vec<(u32, u32, u8)> {
    let black = ["f8", "g8", "f6", "g7", "h13"];
    let white = ["h9", "h10", "h11", "h12", "a1"];
    let mut out = Vec::new();
    for (b, w) in black.iter().zip(white) {
        let (x, y) = rif(b);
        out.push((x, y, 1));
        let (x, y) = rif(w);
        out.push((x, y, 2));
    }
    out
}

#[test]
fn renju_never_plays_a_forbidden_point() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 500");
    b.send("INFO rule 4");
    b.start_game(15);
    let mv = b.board(&forbidden_block_position());
    assert_ne!(mv, rif("h8"), "played the forbidden double-three");
    b.expect("RESTART", "OK");
    b.stones.clear();
    b.send("INFO rule 0");
    let mv = b.board(&forbidden_block_position());
    assert_eq!(mv, rif("h8"), "freestyle: must block the five");
    b.end();
}

#[test]
fn end_during_a_long_search_exits_at_once() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 30000");
    b.start_game(15);
    b.send("BOARD");
    for (x, y, f) in [(7, 7, 1), (8, 8, 2), (6, 8, 1), (8, 6, 2)] {
        b.send(&format!("{x},{y},{f}"));
    }
    b.send("DONE");
    thread::sleep(Duration::from_millis(300));
    b.end();
}

#[test]
fn a_new_command_during_a_search_gets_the_move_first() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 30000");
    b.start_game(15);
    b.send("BOARD");
    for (x, y, f) in [(7, 7, 1), (8, 8, 2), (6, 8, 1), (8, 6, 2)] {
        b.send(&format!("{x},{y},{f}"));
        b.stones.insert((x, y));
    }
    b.send("DONE");
    thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    b.send("ABOUT"); // waits for the move
    b.send("RESTART"); // cuts the search short
    b.read_move();
    assert!(b.next_answer().starts_with("name="));
    assert_eq!(b.next_answer(), "OK");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "RESTART did not cut the 30 s search short"
    );
    // YXSTOP likewise answers the best move so far.
    b.stones.clear();
    b.send("BEGIN");
    thread::sleep(Duration::from_millis(200));
    b.send("YXSTOP");
    b.read_move();
    b.end();
}

#[test]
fn end_of_input_still_answers_what_was_asked() {
    let mut b = Brain::start();
    b.size = 15;
    b.send_raw(b"INFO timeout_turn 300\r\nSTART 15\r\nBEGIN\r\nABOUT\r\n");
    drop(b.stdin.take());
    assert_eq!(b.next_answer(), "OK");
    b.read_move();
    assert!(b.next_answer().starts_with("name="));
    let t = Instant::now();
    while b.child.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(3), "no exit after EOF");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn timeout_turn_zero_answers_fast_and_eof_exits() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 0");
    b.start_game(20);
    b.turn(10, 10);
    b.turn(0, 19);
    // Closing stdin ends the brain like END does.
    drop(b.stdin.take());
    let t = Instant::now();
    while b.child.try_wait().unwrap().is_none() {
        assert!(t.elapsed() < Duration::from_secs(3), "no exit on EOF");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn renju_board_where_black_has_no_legal_point_is_a_draw() {
    let text = include_str!("fixtures/renju-no-legal-move.txt");
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let mut b = Brain::start();
    b.send("INFO timeout_turn 500");
    b.send("INFO rule 4");
    b.start_game(15);
    b.send("BOARD");
    for (i, m) in moves.iter().enumerate() {
        let (x, y) = rif(m);
        // The brain has black, the side to move: black stones are its own (1).
        let field = if i % 2 == 0 { 1 } else { 2 };
        b.send(&format!("{x},{y},{field}"));
    }
    b.send("DONE");
    let answer = b.next_answer();
    assert!(
        answer.starts_with("ERROR") && answer.contains("draw") && answer.contains("no legal move"),
        "{answer}"
    );
    b.end();
}

/// Issue 11 §6: a flood of bad `INFO` and unknown commands, 3 000 lines of 60 KB, gets a few
/// hundred KB of answers at most, and the brain still plays.
#[test]
fn a_flood_of_huge_bad_lines_gives_bounded_output() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let junk = "\u{1b}x\"".repeat(20_000); // 60 000 bytes, escapes included
        let _ = writeln!(stdin, "INFO timeout_turn 300");
        for i in 0..3_000 {
            let line = match i % 5 {
                0 => format!("INFO thread_num {junk}"),
                1 => format!("INFO timeout_turn {junk}"),
                2 => format!("INFO rule {junk}"),
                3 => format!("INFO {junk} 5"),
                _ => junk.clone(),
            };
            if writeln!(stdin, "{line}").is_err() {
                return;
            }
        }
        // Closing stdin after BEGIN: the brain answers the move, then exits.
        let _ = writeln!(stdin, "START 15\nBEGIN");
    });
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    let text = String::from_utf8_lossy(&out);
    assert!(out.len() < 300_000, "{} bytes of output", out.len());
    assert!(
        text.lines()
            .any(|l| l.contains(',') && l.split(',').all(|n| n.parse::<u32>().is_ok())),
        "no move in the output"
    );
    assert!(text.contains("more such messages"), "{:.2000}", text);
}

/// Stones as a Swap2 answer lists them, `x,y x,y …`; fails on anything else.
fn stones_in(b: &Brain, answer: &str) -> Vec<(u32, u32)> {
    answer
        .split(' ')
        .map(|xy| {
            xy.split_once(',')
                .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                .unwrap_or_else(|| b.fail(&format!("expected stones, got {answer:?}")))
        })
        .collect()
}

fn to_points(stones: &[(u32, u32)]) -> Vec<Point> {
    stones
        .iter()
        .map(|&(x, y)| Point::new(x as u8, y as u8))
        .collect()
}

/// The line the protocol expects for these stones.
fn stones_line(points: &[Point]) -> String {
    let text: Vec<String> = points
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    text.join(" ")
}

impl Brain {
    /// Sends `SWAP2BOARD` with `stones` and returns the answer.
    fn swap2board(&mut self, stones: &[(u32, u32)]) -> String {
        self.send("SWAP2BOARD");
        for (x, y) in stones {
            self.send(&format!("{x},{y}"));
        }
        self.answer("DONE")
    }

    /// Checks a Swap2 answer to `stones` (3 or 5): `SWAP`, one stone, or (after three) two
    /// stones, each legal in turn; returns the stones answered.
    fn check_choice(&self, stones: &[(u32, u32)], answer: &str) -> Vec<(u32, u32)> {
        if answer == "SWAP" {
            return Vec::new();
        }
        let more = stones_in(self, answer);
        let allowed = if stones.len() == 3 { 2 } else { 1 };
        if more.len() > allowed {
            self.fail(&format!("{answer:?} after {} stones", stones.len()));
        }
        let all: Vec<(u32, u32)> = stones.iter().chain(&more).copied().collect();
        if Game::from_moves(Rule::Freestyle, 15, &to_points(&all)).is_err() {
            self.fail(&format!("{answer:?} is not legal after {stones:?}"));
        }
        more
    }
}

/// Black (h8, i7) is far ahead: white's only stone is in the corner.
const BLACK_AHEAD: [(u32, u32); 3] = [(7, 7), (0, 0), (8, 8)];
/// Close to even by Master's search.
const BALANCED_THREE: [(u32, u32); 3] = [(7, 7), (7, 6), (9, 9)];
/// White's two central stones against black's three corners.
const WHITE_AHEAD_FIVE: [(u32, u32); 5] = [(0, 0), (7, 7), (14, 0), (8, 8), (0, 14)];
/// Black's open three against white's corner stones.
const BLACK_AHEAD_FIVE: [(u32, u32); 5] = [(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)];
const SWAP2_NODES: u64 = 40_000;

/// A fresh brain searching `SWAP2_NODES` a move, so its Swap2 answers can be compared with
/// the library's policy run by a fresh engine of the same table size.
fn node_limited_brain() -> Brain {
    let mut b = Brain::start_with(&["--nodes", &SWAP2_NODES.to_string()]);
    b.send("INFO timeout_turn 30000");
    b.start_game(15);
    b
}

fn policy_game(stones: &[(u32, u32)]) -> Game {
    Game::from_moves(Rule::Freestyle, 15, &to_points(stones)).unwrap()
}

/// What the library's Swap2 chooser decides after these three stones, with the brain's
/// table size, node budget and seed (the board's hash).
fn policy_after_three(stones: &[(u32, u32)]) -> Option<ThreeStoneChoice> {
    let g = policy_game(stones);
    Engine::new(DEFAULT_TT_MIB).choose_after_three(
        &g,
        Limits::nodes(SWAP2_NODES),
        &AtomicBool::new(false),
        g.board().hash(),
    )
}

#[test]
fn swap2board_case_1_proposes_a_searched_opening() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 1000");
    b.start_game(15);
    for _ in 0..2 {
        let answer = b.swap2board(&[]);
        let stones = stones_in(&b, &answer);
        assert_eq!(stones.len(), 3, "{answer}");
        let g = Game::from_moves(Rule::Freestyle, 15, &to_points(&stones))
            .unwrap_or_else(|e| b.fail(&format!("{answer}: {e}")));
        assert!(g.result().is_none());
        assert!(stones
            .iter()
            .all(|&(x, y)| x.abs_diff(7) <= 4 && y.abs_diff(7) <= 4));
        // The policy's own proposal, not the fallback table opening.
        let said = b.transcript.join("\n");
        assert!(said.contains("MESSAGE swap2: opening"), "{said}");
        assert!(!said.contains("fallback"), "{said}");
    }
    // The manager then hands the five stones back (case 3): SWAP or a sixth stone.
    let answer = b.swap2board(&BALANCED_THREE);
    let more = b.check_choice(&BALANCED_THREE, &answer);
    if more.len() == 2 {
        let five: Vec<(u32, u32)> = BALANCED_THREE.iter().chain(&more).copied().collect();
        let answer = b.swap2board(&five);
        b.check_choice(&five, &answer);
    }
    b.end();
}

#[test]
fn swap2board_case_2_takes_black_when_black_is_clearly_ahead() {
    let mut b = node_limited_brain();
    let policy = policy_after_three(&BLACK_AHEAD);
    assert_eq!(policy, Some(ThreeStoneChoice::TakeBlack));
    assert_eq!(b.swap2board(&BLACK_AHEAD), "SWAP");
    b.end();
}

#[test]
fn swap2board_case_2_places_two_stones_when_balanced() {
    let mut b = node_limited_brain();
    let policy = policy_after_three(&BALANCED_THREE);
    let Some(ThreeStoneChoice::PlaceTwo(two)) = policy else {
        panic!("the policy should place two stones here: {policy:?}")
    };
    let answer = b.swap2board(&BALANCED_THREE);
    assert_eq!(answer, stones_line(&two));
    assert_eq!(b.check_choice(&BALANCED_THREE, &answer).len(), 2);
    b.end();
}

#[test]
fn swap2board_case_3_is_the_colour_choice() {
    for (five, keeps_white) in [(WHITE_AHEAD_FIVE, true), (BLACK_AHEAD_FIVE, false)] {
        let mut b = node_limited_brain();
        let g = policy_game(&five);
        let policy = Engine::new(DEFAULT_TT_MIB)
            .choose_colour(
                &g,
                Limits::nodes(SWAP2_NODES),
                &AtomicBool::new(false),
                g.board().hash(),
            )
            .unwrap();
        let answer = b.swap2board(&five);
        match policy {
            ColourChoice::White(p) => {
                assert!(keeps_white, "{five:?}: {policy:?}");
                assert_eq!(answer, stones_line(&[p]));
            }
            ColourChoice::Black => {
                assert!(!keeps_white, "{five:?}: {policy:?}");
                assert_eq!(answer, "SWAP");
            }
        }
        b.check_choice(&five, &answer);
        b.end();
    }
}

#[test]
fn swap2board_answers_in_time_and_on_stop() {
    // timeout_turn 0: each case still gets a legal answer, searched or the fallback.
    let mut b = Brain::start();
    b.send("INFO timeout_turn 0");
    b.start_game(15);
    let t = Instant::now();
    let answer = b.swap2board(&[]);
    assert_eq!(stones_in(&b, &answer).len(), 3, "{answer}");
    for stones in [&BALANCED_THREE[..], &BLACK_AHEAD_FIVE[..]] {
        let answer = b.swap2board(stones);
        b.check_choice(stones, &answer);
    }
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    b.end();
    // A long search: YXSTOP answers at once, and RESTART cuts it short and waits.
    let mut b = Brain::start();
    b.send("INFO timeout_turn 30000");
    b.start_game(15);
    for stones in [&[][..], &BALANCED_THREE[..], &WHITE_AHEAD_FIVE[..]] {
        let t = Instant::now();
        b.send("SWAP2BOARD");
        for (x, y) in stones {
            b.send(&format!("{x},{y}"));
        }
        b.send("DONE");
        thread::sleep(Duration::from_millis(200));
        b.send("YXSTOP");
        let answer = b.next_answer();
        if stones.is_empty() {
            assert_eq!(stones_in(&b, &answer).len(), 3, "{answer}");
        } else {
            b.check_choice(stones, &answer);
        }
        assert!(t.elapsed() < Duration::from_secs(10), "STOP did not stop");
    }
    b.send("SWAP2BOARD");
    b.send("DONE");
    thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    b.send("RESTART");
    let answer = b.next_answer();
    assert_eq!(stones_in(&b, &answer).len(), 3, "{answer}");
    assert_eq!(b.next_answer(), "OK");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "RESTART did not cut the search"
    );
    b.end();
}

#[test]
fn swap2board_bad_input_gets_errors() {
    let mut b = Brain::start();
    b.send("INFO timeout_turn 300");
    b.send("SWAP2BOARD");
    b.expect("DONE", "ERROR"); // no START yet
    b.start_game(15);
    for block in [
        &["7,7", "8,7"][..],
        &["7,7", "8,7", "9,9", "1,1"],
        &["7,7", "7,7", "9,9"],
        &["7,7", "8,7", "99,9"],
        &["7,7", "8,7", "9;9"],
    ] {
        b.send("SWAP2BOARD");
        for line in block {
            b.send(line);
        }
        let a = b.answer("DONE");
        assert!(a.starts_with("ERROR"), "{block:?}: {a}");
    }
    // And the brain still answers Swap2.
    let answer = b.swap2board(&BALANCED_THREE);
    b.check_choice(&BALANCED_THREE, &answer);
    b.end();
}
