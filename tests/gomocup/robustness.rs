//! Searches cut short by new commands, `END` or end of input, and floods of bad lines.

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::{rif, Brain};

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
    let text = include_str!("../fixtures/renju-no-legal-move.txt");
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
