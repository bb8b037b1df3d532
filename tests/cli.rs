//! The real `wuzi` binary: `judge`, `forbidden`, `openings` and `play` (through stdin).

// The binary exists only with the `cli` feature (on by default).
#![cfg(feature = "cli")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_wuzi");

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the wuzi binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs a command that must succeed and print exactly one line; returns it.
fn one_line(args: &[&str]) -> String {
    let out = run(args, "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "{args:?}: {stdout}");
    assert!(stdout.ends_with('\n'));
    stdout.trim_end().to_string()
}

/// Runs a command that must fail with exit 2, one line on stderr and nothing on stdout.
fn bad_input(args: &[&str]) -> String {
    let out = run(args, "");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
    stderr
}

// renju.net's "4x4 forbidden" diagram (fixture RN01).
const RN01_BLACK: &str = "e13 c12 e12 b11 e11 a10";
const RN01_WHITE: &str = "o15 o11 e10 o8 o5 o2";

fn judge(rule: &str, black: &str, white: &str, to_move: &str, point: &str) -> String {
    one_line(&[
        "judge",
        "--rule",
        rule,
        "--black",
        black,
        "--white",
        white,
        "--to-move",
        to_move,
        "--point",
        point,
    ])
}

#[test]
fn judge_reports_every_outcome() {
    assert_eq!(
        judge("renju", RN01_BLACK, RN01_WHITE, "black", "e14"),
        r#"{"point":"e14","outcome":"forbidden","reason":"double-four"}"#
    );
    assert_eq!(
        judge("renju", "f8,g8,h6,h7", "", "black", "H8"),
        r#"{"point":"h8","outcome":"forbidden","reason":"double-three"}"#
    );
    assert_eq!(
        judge("renju", "d8 e8 f8 g8 i8", "a1 a3 a5 a7", "black", "h8"),
        r#"{"point":"h8","outcome":"forbidden","reason":"overline"}"#
    );
    assert_eq!(
        judge("renju", "e8 f8 g8 h8", "a1 a3 a5 a7", "black", "i8"),
        r#"{"point":"i8","outcome":"win","reason":"five"}"#
    );
    assert_eq!(
        judge(
            "renju",
            "a1 a3 a5 a7 a9 a11 o15",
            "c8 d8 e8 f8 h8 i8",
            "white",
            "g8"
        ),
        r#"{"point":"g8","outcome":"win","reason":"overline"}"#
    );
    assert_eq!(
        judge(
            "standard",
            "a1 a3 a5 a7 a9 a11 o15",
            "c8 d8 e8 f8 h8 i8",
            "white",
            "g8"
        ),
        r#"{"point":"g8","outcome":"continue"}"#
    );
    assert_eq!(
        judge("freestyle", "d8 e8 f8 g8 i8", "", "black", "h8"),
        r#"{"point":"h8","outcome":"win","reason":"overline"}"#
    );
    // White has no forbidden moves.
    assert_eq!(
        judge("renju", "a1 a3 a5 a7", "f8 g8 h6 h7", "white", "h8"),
        r#"{"point":"h8","outcome":"continue"}"#
    );
    assert_eq!(
        judge("renju", "h8", "", "white", "h8"),
        r#"{"point":"h8","outcome":"occupied"}"#
    );
    assert_eq!(
        judge("renju", "", "", "black", "h8"),
        r#"{"point":"h8","outcome":"continue"}"#
    );
    assert_eq!(
        one_line(&[
            "judge",
            "--rule",
            "renju",
            "--size",
            "9",
            "--black",
            "",
            "--white",
            "",
            "--to-move",
            "black",
            "--point",
            "i9",
        ]),
        r#"{"point":"i9","outcome":"continue"}"#
    );
    // --flag=value works too.
    assert_eq!(
        one_line(&[
            "judge",
            "--rule=renju",
            "--black=",
            "--white=",
            "--to-move=black",
            "--point=a1"
        ]),
        r#"{"point":"a1","outcome":"continue"}"#
    );
}

#[test]
fn judge_refuses_bad_input() {
    let base = [
        ("--rule", "renju"),
        ("--black", "h8 i9"),
        ("--white", "j10"),
        ("--to-move", "white"),
        ("--point", "g7"),
    ];
    let with = |name: &str, value: Option<&str>| -> Vec<String> {
        let mut v = vec!["judge".to_string()];
        for (n, val) in base {
            if n == name {
                if let Some(x) = value {
                    v.push(n.to_string());
                    v.push(x.to_string());
                }
            } else {
                v.push(n.to_string());
                v.push(val.to_string());
            }
        }
        v
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (with("--rule", Some("go")), "rule"),
        (with("--black", Some("h8 8h")), "malformed"),
        (with("--black", Some("h8,,zz")), "malformed"),
        (with("--white", Some("p1")), "off the 15x15 board"),
        (with("--point", Some("a16")), "off the 15x15 board"),
        (with("--point", Some("")), "point"),
        (with("--black", Some("h8 i9 h8")), "listed twice"),
        (with("--white", Some("i9")), "both black and white"),
        (with("--to-move", Some("red")), "colour"),
        (with("--rule", None), "--rule"),
        (with("--black", None), "--black"),
        (with("--white", None), "--white"),
        (with("--to-move", None), "--to-move"),
        (with("--point", None), "--point"),
    ];
    for (args, needle) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = bad_input(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    for size in ["4", "21", "abc", "", "-3", "15.0"] {
        let mut args = with("--rule", Some("renju"));
        args.extend(["--size".to_string(), size.to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert!(bad_input(&args).contains("--size"), "{size}");
    }
    // A point on 15x15 that is off a 9x9 board.
    let err = bad_input(&[
        "judge",
        "--rule",
        "renju",
        "--size",
        "9",
        "--black",
        "j10",
        "--white",
        "",
        "--to-move",
        "black",
        "--point",
        "a1",
    ]);
    assert!(err.contains("off the 9x9 board"), "{err}");
    bad_input(&["judge", "--rule", "renju", "--colour", "x"]);
    bad_input(&["judge", "--rule"]);
    bad_input(&["judge", "renju"]);
    bad_input(&["judge", "--rule", "renju", "--rule", "renju"]);
    bad_input(&["referee"]);
    bad_input(&[]);
}

#[test]
fn forbidden_lists_points_with_reasons() {
    assert_eq!(
        one_line(&[
            "forbidden",
            "--rule",
            "renju",
            "--black",
            RN01_BLACK,
            "--white",
            RN01_WHITE
        ]),
        r#"{"forbidden":[{"point":"e14","reason":"double-four"}]}"#
    );
    assert_eq!(
        one_line(&[
            "forbidden",
            "--rule",
            "renju",
            "--black",
            "f8 g8 h6 h7",
            "--white",
            ""
        ]),
        r#"{"forbidden":[{"point":"h8","reason":"double-three"}]}"#
    );
    // A point where black makes five is legal even though it would also be a double-four.
    let five = one_line(&[
        "forbidden",
        "--rule",
        "renju",
        "--black",
        "d8 e8 f8 g8 h5 h6 h7",
        "--white",
        "",
    ]);
    assert!(!five.contains("\"h8\""), "{five}");
    assert_eq!(
        one_line(&[
            "forbidden",
            "--rule",
            "standard",
            "--black",
            "f8 g8 h6 h7",
            "--white",
            ""
        ]),
        r#"{"forbidden":[]}"#
    );
    assert_eq!(
        one_line(&["forbidden", "--rule", "renju", "--black", "", "--white", ""]),
        r#"{"forbidden":[]}"#
    );
    bad_input(&[
        "forbidden",
        "--rule",
        "renju",
        "--black",
        "h8 h8",
        "--white",
        "",
    ]);
    bad_input(&["forbidden", "--rule", "renju", "--black", "h8"]);
    bad_input(&[
        "forbidden",
        "--rule",
        "renju",
        "--size",
        "30",
        "--black",
        "",
        "--white",
        "",
    ]);
    bad_input(&["forbidden", "--black", "", "--white", ""]);
}

#[test]
fn help_goes_to_stdout() {
    let out = run(&["judge", "--help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().contains("--to-move"));
    let out = run(&["help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().contains("forbidden"));
}

#[test]
fn play_through_stdin() {
    let moves = "f8 a1 g8 a3 h6 a5 h7 a7 h8 e8 zz a9 undo a9 h8 a11 i8 o1";
    let input = moves.split_whitespace().collect::<Vec<_>>().join("\n") + "\nquit\n";
    let out = run(&["play", "--rule", "renju"], &input);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "Wuzi: renju rules on 15x15",
        "h8 is forbidden for black (double-three",
        "malformed point \"zz\"",
        "Took back a9.",
        "Black wins with five in a row: e8 f8 g8 h8 i8.",
        "The game is over: undo or quit.",
        "Goodbye.",
        "└─┴",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in:\n{stdout}");
    }

    // End of input without quit is fine; options are checked.
    let out = run(&["play", "--size", "9"], "e5\n");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("freestyle rules on 9x9"), "{stdout}");
    assert!(stdout.contains("End of input"), "{stdout}");
    bad_input(&["play", "--size", "3"]);
    bad_input(&["play", "--rule", "chess"]);
}

#[test]
fn openings_lists_the_26_renju_openings() {
    let out = run(&["openings", "--renju"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 26, "{stdout}");
    assert_eq!(lines[3], "4D Kagetsu 花月 花月 h8 h9 i9");
    assert_eq!(lines[25], "13I Suisei 彗星 彗星 h8 i9 f6");
    bad_input(&["openings"]);
    bad_input(&["openings", "--renju", "--freestyle"]);
}
