//! `SWAP2BOARD` through the binary, compared with the library's Swap2 policy.

use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use wuzi::ai::swap2::{ColourChoice, ThreeStoneChoice};
use wuzi::gomocup::DEFAULT_TT_MIB;
use wuzi::{Engine, Game, Limits, Point, Rule};

use super::Brain;

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
