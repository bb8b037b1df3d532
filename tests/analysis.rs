//! Multi-PV analysis (`Engine::analyze`): distinct first moves, best first, forced wins and
//! forced defences in the right place; game review (`wuzi::ai::review`) on hand-made games.
//! Node limits keep every run identical.

use std::sync::atomic::AtomicBool;

use wuzi::ai::review::{review, MoveClass, MoveReview};
use wuzi::{Color, Engine, Game, Limits, Point, Rule, SearchResult, Verdict};

fn game(rule: Rule, moves: &str) -> Game {
    let points: Vec<Point> = moves
        .split_whitespace()
        .map(|s| Point::from_rif(s, 15).unwrap())
        .collect();
    Game::from_moves(rule, 15, &points).unwrap()
}

fn analyze(game: &Game, lines: usize, nodes: u64) -> Vec<SearchResult> {
    Engine::new(16).analyze(
        game,
        lines,
        Limits::nodes(nodes),
        &AtomicBool::new(false),
        7,
    )
}

fn rif(p: Option<Point>) -> String {
    p.map_or_else(|| "-".into(), |p| p.rif(15).to_string())
}

#[test]
fn lines_have_distinct_moves_ordered_by_score() {
    let g = game(Rule::Freestyle, "h8 i9 h9 h10 i8");
    let lines = analyze(&g, 4, 120_000);
    assert_eq!(lines.len(), 4);
    let moves: Vec<String> = lines.iter().map(|r| rif(r.best)).collect();
    for (k, m) in moves.iter().enumerate() {
        assert!(!moves[..k].contains(m), "repeated first move: {moves:?}");
        let p = Point::from_rif(m, 15).unwrap();
        assert!(g.check(p).is_ok(), "{m} is not a legal move");
    }
    for pair in lines.windows(2) {
        assert!(pair[0].score >= pair[1].score, "scores out of order");
    }
    for r in &lines {
        assert_eq!(
            r.pv.first().copied(),
            r.best,
            "each PV starts with its move"
        );
    }
    // Node limits: the same analysis again gives the same lines.
    let again: Vec<String> = analyze(&g, 4, 120_000)
        .iter()
        .map(|r| rif(r.best))
        .collect();
    assert_eq!(moves, again);
}

#[test]
fn a_forced_win_by_fours_is_the_first_line() {
    // Black: h8 i8 j8 (closed by white g8) and k10 k11 k12 (closed by white k13); k8 makes
    // two fours at once.
    let g = game(Rule::Freestyle, "h8 g8 i8 k13 j8 a1 k10 c1 k11 o1 k12 a15");
    assert_eq!(g.to_move(), Color::Black);
    let lines = analyze(&g, 3, 60_000);
    assert_eq!(lines.len(), 3);
    match lines[0].verdict {
        Verdict::Win {
            color: Color::Black,
            by_fours: true,
            ..
        } => {}
        v => panic!("first line {}: {v}", rif(lines[0].best)),
    }
    // Whatever the other lines are, none scores above the win.
    assert!(lines.iter().all(|r| r.score <= lines[0].score));
}

#[test]
fn a_forced_block_is_the_only_line() {
    // White h10 i10 j10 k10 is a four closed by black g10: only l10 holds. Every other move
    // loses at once and the search does not rank them: they are no candidates (they used to
    // come back as the first free points of the board, a15 and b15, scored -M2).
    let g = game(Rule::Freestyle, "g10 h10 a1 i10 a3 j10 a5 k10");
    let lines = analyze(&g, 3, 30_000);
    let moves: Vec<String> = lines.iter().map(|r| rif(r.best)).collect();
    assert_eq!(moves, ["l10"]);
    // Two fives to block: black is lost whatever it does; the engine's move alone.
    let g = game(
        Rule::Freestyle,
        "g10 h10 a1 i10 a3 j10 a5 k10 a7 h11 a9 h12 a11 h13",
    );
    assert_eq!(g.to_move(), Color::Black);
    let lines = analyze(&g, 3, 30_000);
    assert_eq!(
        lines.len(),
        1,
        "{:?}",
        lines.iter().map(|r| rif(r.best)).collect::<Vec<_>>()
    );
    assert!(lines[0].score < -29_000);
}

#[test]
fn a_five_of_ones_own_ranks_before_the_block() {
    // Black threatens five at l10 (h10-k10 closed by g10); white has its own four
    // b2-b5 closed by b1: b6 wins at once, l10 blocks, and nothing else is a line.
    let g = game(Rule::Freestyle, "h10 g10 i10 b2 j10 b3 b1 b4 a15 b5 k10");
    assert_eq!(g.to_move(), Color::White);
    let lines = analyze(&g, 3, 30_000);
    let moves: Vec<String> = lines.iter().map(|r| rif(r.best)).collect();
    assert_eq!(moves, ["b6", "l10"]);
}

#[test]
fn renju_lines_never_choose_a_forbidden_point() {
    // White threatens five at h8, which is a double-three for black: black loses whatever
    // it does, and no line may be h8.
    let g = game(Rule::Renju, "f8 h9 g8 h10 f6 h11 g7 h12 h13 a1");
    let lines = analyze(&g, 5, 30_000);
    assert!(!lines.is_empty());
    for r in &lines {
        let p = r.best.unwrap();
        assert!(g.check(p).is_ok(), "{} is not legal", rif(r.best));
    }
}

#[test]
fn a_finished_game_has_no_lines() {
    let g = game(Rule::Freestyle, "a1 h8 b1 h9 c1 h10 d1 h11 e1");
    assert!(g.result().is_some());
    assert!(analyze(&g, 3, 10_000).is_empty());
}

#[test]
fn a_raised_cancel_flag_gives_no_lines() {
    let g = game(Rule::Freestyle, "h8");
    let lines = Engine::new(4).analyze(&g, 3, Limits::nodes(10_000), &AtomicBool::new(true), 1);
    assert!(lines.is_empty());
}

fn reviewed(rule: Rule, moves: &str) -> Vec<MoveReview> {
    let g = game(rule, moves);
    let mut calls = Vec::new();
    let out = review(
        &mut Engine::new(16),
        &g,
        Limits::nodes(30_000),
        &AtomicBool::new(false),
        |done, total| calls.push((done, total)),
    );
    assert_eq!(out.len(), g.moves().len(), "every move is reviewed");
    let n = g.moves().len() + 1;
    assert_eq!(calls.last(), Some(&(n, n)), "progress reaches the end");
    assert_eq!(calls.len(), n, "one progress call per position");
    out
}

#[test]
fn ignoring_an_open_three_is_at_least_a_mistake() {
    // White h10 i10 j10 is an open three; black a1 lets white make an open four.
    let r = reviewed(Rule::Freestyle, "h8 h10 h7 i10 g9 j10 a1");
    let last = &r[6];
    assert_eq!(last.point.rif(15).to_string(), "a1");
    assert!(last.class >= MoveClass::Mistake, "{last:?}");
    assert!(last.score_after < -29_000, "white wins by force: {last:?}");
    let best = last.best.unwrap().rif(15).to_string();
    assert!(
        ["f10", "g10", "k10", "l10"].contains(&best.as_str()),
        "{last:?}"
    );
}

#[test]
fn the_only_defence_is_best_and_a_five_ends_the_review() {
    let r = reviewed(Rule::Freestyle, "g10 h10 a1 i10 a3 j10 a5 k10 l10");
    assert_eq!(r[8].class, MoveClass::Best, "{:?}", r[8]);
    // A game won by a five: the five is the engine's move too.
    let r = reviewed(Rule::Freestyle, "h8 h9 i8 i9 j8 j9 k8 k9 l8");
    assert_eq!(r[8].class, MoveClass::Best, "{:?}", r[8]);
    assert!(r[8].score_after > 29_000, "{:?}", r[8]);
}

#[test]
fn letting_a_double_four_go_is_a_missed_win() {
    // From ply 9 black has a double four at k8 (h8-i8-j8 closed by g8, k10-k11-k12 closed
    // by k13); at ply 17 it plays m3 and white can take k8 first. White's stones on j9, j7,
    // l11 and l10 leave black no other way to win afterwards (with white's stones in the
    // corners black still had a 14-ply VCT after k8, which a deeper search finds).
    let r = reviewed(
        Rule::Freestyle,
        "h8 g8 i8 k13 j8 j9 k10 j7 k11 l11 k12 a15 a14 l10 m1 h10 m3",
    );
    let last = &r[16];
    assert_eq!(last.class, MoveClass::MissedWin, "{last:?}");
    assert_eq!(last.best.unwrap().rif(15).to_string(), "k8");
    assert!(last.score_before > 29_000, "{last:?}");
}

#[test]
fn a_cancelled_review_returns_what_it_has() {
    let g = game(Rule::Freestyle, "h8 h10 h7 i10");
    let out = review(
        &mut Engine::new(4),
        &g,
        Limits::nodes(5_000),
        &AtomicBool::new(true),
        |_, _| panic!("no position is searched"),
    );
    assert!(out.is_empty());
}

#[test]
fn a_first_stone_away_from_the_centre_gives_away_the_first_move() {
    // The evaluation of a near-empty board hardly tells a1 from h8; a1 used to be "good".
    for rule in [Rule::Freestyle, Rule::Renju] {
        let r = reviewed(rule, "a1");
        assert!(r[0].class >= MoveClass::Inaccuracy, "{rule}: {:?}", r[0]);
        assert_eq!(
            r[0].best.map(|p| p.rif(15).to_string()).as_deref(),
            Some("h8")
        );
        let r = reviewed(rule, "h8");
        assert_eq!(r[0].class, MoveClass::Best, "{rule}: {:?}", r[0]);
    }
}

#[test]
fn moves_in_a_lost_position_are_not_praised() {
    // White's open four h10-k10 at ply 8: black is lost in 2 whatever it plays, so a3 holds
    // out as long as any move (it used to be "good"). Black's o3 at ply 7 left white's open
    // three h10-j10 unblocked: that made the loss.
    let r = reviewed(Rule::Freestyle, "o1 h10 o15 i10 a15 j10 o3 k10 a3");
    assert!(r[6].class >= MoveClass::Mistake, "{:?}", r[6]);
    assert_eq!(r[8].class, MoveClass::Lost, "{:?}", r[8]);
    assert!(r[8].score_before < -29_000, "{:?}", r[8]);
}

#[test]
fn leaving_a_four_in_a_lost_position_is_a_mistake() {
    // White: the four h10-k10 (g10 is black's) and the open three d4-f4. Black must block at
    // l10 and still loses (white's g4 makes an open four); a1 instead lets the five in at once.
    let lost = "g10 h10 o1 i10 o15 j10 a15 d4 o3 e4 a13 f4 c14 k10";
    let r = reviewed(Rule::Freestyle, &format!("{lost} a1"));
    let last = &r[14];
    assert!(
        last.score_before < -29_000,
        "a proven loss before: {last:?}"
    );
    assert_eq!(last.class, MoveClass::Mistake, "{last:?}");
    let r = reviewed(Rule::Freestyle, &format!("{lost} l10"));
    assert_eq!(r[14].class, MoveClass::Lost, "{:?}", r[14]);
}
