//! Commands, levels and tuning flags, tactics, takeback and restart, renju's forbidden points.

use std::process::{Command, Stdio};

use super::{rif, Brain};

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
    let play = |turn_ms: u32| first_answers(&["--nodes", "20000"], turn_ms, 3);
    assert_eq!(play(30_000), play(5_000));
}

/// A one-thread brain started with `args`: its answers to h8 and then to `moves - 1` more
/// stones on the first free points, with `turn_ms` a move.
fn first_answers(args: &[&str], turn_ms: u32, moves: usize) -> Vec<(u32, u32)> {
    let mut b = Brain::start_with(args);
    b.send("INFO thread_num 1");
    b.send(&format!("INFO timeout_turn {turn_ms}"));
    b.start_game(15);
    let mut answers = vec![b.turn(7, 7)];
    for _ in 1..moves {
        let p = b.free_point();
        answers.push(b.turn(p.0, p.1));
    }
    b.end();
    answers
}

#[test]
fn weights_from_a_file_replace_the_built_in_tables() {
    let play = |extra: &[&str]| {
        let mut args = vec!["--nodes", "20000"];
        args.extend_from_slice(extra);
        first_answers(&args, 30_000, 4)
    };
    let built_in = concat!(env!("CARGO_MANIFEST_DIR"), "/src/ai/weights/freestyle.txt");
    let text = std::fs::read_to_string(built_in).unwrap();
    // The same tables with every point value negated: an evaluation upside down.
    let flipped: Vec<String> = text
        .lines()
        .map(|line| match line.strip_prefix("cell ") {
            Some(rest) => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let values = words[2..]
                    .iter()
                    .map(|v| (-v.parse::<i32>().unwrap()).to_string());
                let mut out = vec!["cell".to_string(), words[0].into(), words[1].into()];
                out.extend(values);
                out.join(" ")
            }
            None => line.to_string(),
        })
        .collect();
    let path = std::env::temp_dir().join(format!("wuzi-flipped-{}.txt", std::process::id()));
    std::fs::write(&path, flipped.join("\n")).unwrap();
    let flipped_arg = format!("freestyle={}", path.display());
    let same = play(&["--weights", &format!("freestyle={built_in}")]);
    let upside_down = play(&["--weights", &flipped_arg]);
    let _ = std::fs::remove_file(&path);
    let default = play(&[]);
    assert_eq!(same, default, "the built-in tables read from their file");
    assert_ne!(
        upside_down, default,
        "the file's tables are the ones played"
    );
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
        &["--threads", "0"],
        &["--threads=65"],
        &["--weights", "renju"],
        &["--weights", "chess=weights.txt"],
        &["--weights", "renju=/no/such/file.txt"],
        &["--weights", "renju=Cargo.toml"],
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
