//! The engine-backed `wuzi` subcommands: `hint` (also from a set-up position), `analyze`,
//! `review` and `play --vs-ai`, run as real processes with a watchdog. (The tools that were
//! `wuzi` subcommands, `bench`, `match`, `datagen` and `tune`, are tested with their binary in
//! `tools/tests/cli_tools.rs`.)

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const WATCHDOG: Duration = Duration::from_secs(120);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn wuzi(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wuzi");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_string();
    let writer = thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("watchdog: wuzi {args:?} did not finish");
        }
        thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

fn hint(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["hint", "--time-ms", "300"];
    all.extend_from_slice(args);
    let r = wuzi(&all, "");
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one line of JSON: {:?}", r.stdout);
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]))
}

fn bad(args: &[&str]) {
    let r = wuzi(args, "");
    assert_eq!(r.code, 2, "{args:?} should be refused: {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {:?}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?}: {:?}", r.stdout);
}

#[test]
fn hint_takes_the_five_with_the_documented_fields() {
    let v = hint(&["--rule", "freestyle", "--moves", "h8 h9 i8 i9 j8 j9 k8 k9"]);
    let m = v["move"].as_str().unwrap();
    assert!(m == "g8" || m == "l8", "{v}");
    for key in ["score", "depth", "nodes"] {
        assert!(v[key].is_number(), "{key} in {v}");
    }
    assert!(v["verdict"].is_string(), "{v}");
    let pv = v["pv"].as_array().unwrap();
    assert_eq!(pv.first().and_then(|p| p.as_str()), Some(m), "{v}");
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.len(),
        6,
        "exactly move, score, depth, nodes, verdict, pv: {v}"
    );
}

#[test]
fn hint_blocks_a_five() {
    // White h9..k9 is a four, closed at g9 by black: black must take l9.
    let v = hint(&["--rule", "standard", "--moves", "h8 h9 i8 i9 j8 j9 g9 k9"]);
    assert_eq!(v["move"], "l9", "{v}");
}

#[test]
fn hint_respects_renju_forbidden_points() {
    // White threatens five at h8, which is a double-three for black.
    let moves = "f8 h9 g8 h10 f6 h11 g7 h12 h13 a1";
    let v = hint(&["--rule", "renju", "--moves", moves, "--level", "hard"]);
    assert_ne!(v["move"], "h8", "{v}");
    let v = hint(&["--rule", "freestyle", "--moves", moves, "--level", "4"]);
    assert_eq!(v["move"], "h8", "{v}");
}

#[test]
fn hint_refuses_bad_input() {
    bad(&["hint", "--rule", "renju", "--moves", "h8 h8"]);
    bad(&["hint", "--rule", "renju", "--moves", "h8 z99"]);
    bad(&["hint", "--rule", "go", "--moves", "h8"]);
    bad(&["hint", "--size", "99", "--moves", "h8"]);
    bad(&["hint", "--moves", "h8", "--level", "9"]);
    bad(&["hint", "--moves", "h8", "--time-ms", "soon"]);
    bad(&["hint", "--moves", "h8", "--colour", "red"]);
    // Black's five is already on the board.
    bad(&["hint", "--moves", "a1 h8 b1 h9 c1 h10 d1 h11 e1"]);
}

#[test]
fn the_tools_point_to_wuzi_tools() {
    for name in ["bench", "match", "datagen", "tune"] {
        bad(&[name, "--help"]);
        let r = wuzi(&[name], "");
        assert!(
            r.stderr.contains(&format!("`wuzi-tools {name}`")),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn play_against_the_computer_and_undo_both_moves() {
    let r = wuzi(&["play", "--vs-ai", "--level", "1"], "h8\nundo\nquit\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("The computer (beginner) plays white."),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.matches("Computer plays ").count(),
        1,
        "{}",
        r.stdout
    );
    assert_eq!(r.stdout.matches("Took back ").count(), 2, "{}", r.stdout);
    assert!(r.stdout.contains("Took back h8."), "{}", r.stdout);
    // As black the computer opens before any input.
    let r = wuzi(
        &["play", "--vs-ai", "--ai-color", "black", "--level", "easy"],
        "quit\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Computer plays "), "{}", r.stdout);
    bad(&["play", "--level", "2"]);
}

#[test]
fn analyze_prints_distinct_lines_with_the_documented_fields() {
    let r = wuzi(
        &[
            "analyze",
            "--rule",
            "freestyle",
            "--moves",
            "h8 i9 h9",
            "--multipv",
            "3",
            "--nodes",
            "60000",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["to_move"], "white", "{v}");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let mut seen = Vec::new();
    let mut last = i64::MAX;
    for line in lines {
        let m = line["move"].as_str().unwrap().to_string();
        assert!(!seen.contains(&m), "{v}");
        let score = line["score"].as_i64().unwrap();
        assert!(score <= last, "best first: {v}");
        last = score;
        assert_eq!(line["pv"][0].as_str(), Some(m.as_str()), "{v}");
        assert!(line["verdict"].is_string() && line["win"].is_null(), "{v}");
        seen.push(m);
    }
    // A five in one: the first line is the win, with its structured verdict.
    let r = wuzi(
        &[
            "analyze",
            "--rule",
            "freestyle",
            "--moves",
            "h8 h9 i8 i9 j8 j9 k8 k9",
            "--nodes",
            "20000",
            "--multipv",
            "2",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let first = &v["lines"][0];
    assert!(first["move"] == "g8" || first["move"] == "l8", "{v}");
    assert_eq!(first["win"]["color"], "black", "{v}");
    assert_eq!(first["win"]["plies"], 1, "{v}");
}

#[test]
fn analyze_refuses_bad_input() {
    bad(&["analyze", "--moves", "h8", "--multipv", "0"]);
    bad(&["analyze", "--moves", "h8", "--multipv", "21"]);
    bad(&["analyze", "--moves", "h8", "--nodes", "9", "--time-ms", "9"]);
    bad(&["analyze", "--moves", "h8 h8"]);
    bad(&["analyze", "--moves", "a1 h8 b1 h9 c1 h10 d1 h11 e1"]);
}

#[test]
fn review_prints_one_classified_line_per_move() {
    let r = wuzi(
        &[
            "review",
            "--rule",
            "freestyle",
            "--moves",
            "h8 h10 h7 i10 g9 j10 a1",
            "--nodes",
            "20000",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "{}", r.stdout);
    let classes = [
        "best",
        "good",
        "lost",
        "inaccuracy",
        "mistake",
        "blunder",
        "missed-win",
    ];
    for (k, v) in lines.iter().enumerate() {
        assert_eq!(v["ply"], k + 1, "{v}");
        assert!(classes.contains(&v["class"].as_str().unwrap()), "{v}");
        for key in ["score_before", "score_after"] {
            assert!(v[key].is_i64(), "{v}");
        }
    }
    assert_eq!(lines[6]["move"], "a1");
    assert_eq!(lines[6]["color"], "black");
    assert!(["mistake", "blunder"].contains(&lines[6]["class"].as_str().unwrap()));
    bad(&["review", "--moves", "h8 h8"]);
    bad(&["review", "--moves", "h8", "--nodes", "5", "--time-ms", "5"]);
}

/// White to move with two stones more than black, and a four closed at c4: h4 wins.
const SETUP: &str = "AB c4 h10 i10 j10; AW d4 e4 f4 g4 m12 n12; PL W";

#[test]
fn hint_and_analyze_read_a_setup() {
    let v = hint(&["--rule", "renju", "--setup", SETUP]);
    assert_eq!(v["move"], "h4", "{v}");
    // The same position from an SGF file with setup properties (rows from the top: c4 = cl).
    let path = std::env::temp_dir().join(format!("wuzi-cli-setup-{}.sgf", std::process::id()));
    std::fs::write(
        &path,
        "(;GM[4]SZ[15]RU[renju]AB[cl][hf][if][jf]AW[dl][el][fl][gl][md][nd]PL[W])",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let v = hint(&["--sgf", file]);
    assert_eq!(v["move"], "h4", "{v}");
    let r = wuzi(&["analyze", "--sgf", file, "--nodes", "20000"], "");
    let _ = std::fs::remove_file(&path);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["to_move"], "white", "{v}");
    assert_eq!(v["lines"][0]["move"], "h4", "{v}");
    // Moves after the setup: white elsewhere, black to move must block the five at h4.
    let v = hint(&["--rule", "renju", "--setup", SETUP, "--moves", "a15"]);
    assert_eq!(v["move"], "h4", "{v}");
}

#[test]
fn bad_setups_are_refused() {
    bad(&["hint", "--setup", "AB h8 h8"]);
    bad(&["hint", "--setup", "AB h8; AW h8"]);
    bad(&["hint", "--setup", "AB d8 e8 f8 g8 h8"]);
    bad(&["hint", "--rule", "renju", "--setup", "AB c8 d8 e8 f8 g8 h8"]);
    bad(&["hint", "--setup", "AB h8; PL red"]);
    bad(&["hint", "--setup", "AX h8"]);
    bad(&["hint", "--setup", SETUP, "--moves", "d4"]);
    bad(&["hint", "--sgf", "/nonexistent/wuzi.sgf"]);
    bad(&["analyze", "--sgf", "x.sgf", "--moves", "h8"]);
    bad(&["review", "--sgf", "x.sgf", "--setup", "AB h8"]);
}
