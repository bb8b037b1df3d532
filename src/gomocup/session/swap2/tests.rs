//! The `SWAP2BOARD` answers, through the real engine at node limits.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::super::testing::*;
use super::super::*;
use crate::ai::swap2::{ColourChoice, ThreeStoneChoice};
use crate::ai::{Engine, Level, Limits};
use crate::{Color, Game, Point, Rule};

/// Runs a request through the real engine, as the driver does, with a node limit so
/// the answer is reproducible.
fn run_engine(req: &ThinkRequest, nodes: u64) -> Thought {
    req.run(
        &mut Engine::new(8),
        Level::Master,
        Limits::nodes(nodes),
        &AtomicBool::new(false),
    )
}

fn points(xy: &[(u8, u8)]) -> Vec<Point> {
    xy.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

/// `SWAP2BOARD` with these stones, as a started session receives it.
fn swap2_board(s: &mut BrainSession, stones: &[(u8, u8)]) -> Response {
    let mut lines = vec!["SWAP2BOARD".to_string()];
    lines.extend(stones.iter().map(|(x, y)| format!("{x},{y}")));
    lines.push("DONE".into());
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    run(s, &lines)
}

/// The app's Swap2 opening policy for [`SEED`] at [`OPENING_NODES`], as the driver runs it.
fn policy_opening() -> Vec<Point> {
    Engine::new(8)
        .propose_opening(
            Rule::Freestyle,
            15,
            Limits::nodes(OPENING_NODES),
            &AtomicBool::new(false),
            SEED,
        )
        .unwrap()
}

/// Seed 7 is one whose first table opening (h8 i8 g9) the search rejects as unbalanced
/// at this budget, so the proposal shows that the policy searched.
const SEED: u64 = 7;
const OPENING_NODES: u64 = 80_000;

#[test]
fn swap2_case_1_proposes_the_policys_balanced_opening() {
    let mut s = BrainSession::with_seed(SEED);
    run(&mut s, &["START 15"]);
    let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
    assert!(
        matches!(o.replies.last(), Some(Reply::Debug(m)) if m.starts_with("swap2 opening")),
        "{:?}",
        o.replies
    );
    let req = request(o);
    assert_eq!(req.kind, ThinkKind::Swap2Opening);
    assert_eq!(req.seed, SEED);
    assert!(req.game.moves().is_empty());
    let table = points(&[(7, 7), (8, 7), (6, 6)]);
    assert_eq!(req.fallback, Reply::Stones(table.clone()));
    // The driver's search is the app's policy, for the same seed and limits.
    let t = run_engine(&req, OPENING_NODES);
    let expected = policy_opening();
    assert_ne!(
        expected, table,
        "the search should reject the first opening"
    );
    assert_eq!(t.swap2, Some(Swap2Decision::Opening(expected.clone())));
    let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
    assert_eq!(replies.last(), Some(&Reply::Stones(expected.clone())));
    let line = replies.last().unwrap().to_string();
    assert_eq!(line.split(' ').count(), 3, "{line}");
    assert!(
        line.split(' ').all(|xy| xy.split(',').count() == 2),
        "{line}"
    );
    assert_eq!(s.game().unwrap().moves(), &expected[..]);
    // The next proposal steps the seed, so a match does not repeat one opening.
    let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
    assert_eq!(req.seed, SEED + 1);
    assert!(s.game().unwrap().moves().is_empty());
}

#[test]
fn swap2_case_1_falls_back_to_the_table_opening() {
    let mut s = BrainSession::with_seed(SEED);
    run(&mut s, &["START 15"]);
    let table = points(&[(7, 7), (8, 7), (6, 6)]);
    // Nothing in time, a proposal on taken or off-table points, or a decision of the
    // wrong kind: the fallback opening goes out, and the game holds it.
    for t in [
        None,
        Some(Thought::default()),
        Some(Thought {
            swap2: Some(Swap2Decision::Opening(points(&[(7, 7), (7, 7), (9, 9)]))),
            ..Thought::default()
        }),
        Some(Thought {
            swap2: Some(Swap2Decision::Opening(points(&[(7, 7), (8, 8)]))),
            ..Thought::default()
        }),
        Some(Thought {
            swap2: Some(Swap2Decision::Colour(ColourChoice::Black)),
            ..Thought::default()
        }),
    ] {
        let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
        let replies = s.finish(req.id, t.clone(), Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback), "{t:?}: {replies:?}");
        assert!(replies
            .iter()
            .any(|r| matches!(r, Reply::Debug(m) if m.contains("fallback"))));
        let Reply::Stones(stones) = &req.fallback else {
            panic!("{:?}", req.fallback)
        };
        assert_eq!(s.game().unwrap().moves(), &stones[..]);
    }
    // The first fallback was the seed's own table opening.
    let mut s = BrainSession::with_seed(SEED);
    run(&mut s, &["START 15"]);
    assert_eq!(
        request(run(&mut s, &["SWAP2BOARD", "DONE"])).fallback,
        Reply::Stones(table)
    );
}

#[test]
fn swap2_proposals_avoid_marked_points() {
    let mut s = BrainSession::with_seed(SEED);
    run(&mut s, &["START 15"]);
    // A BOARD's field-3 points stay blocked until the next START. The marked point is one
    // of the stones the policy proposes for this seed (the engine knows nothing of
    // markers), taken from the policy itself so that a change of search keeps the test
    // meaningful.
    let policy = policy_opening();
    let marked = *policy
        .iter()
        .find(|&&p| p != Point::center(15))
        .expect("a proposal has stones off the centre");
    let marker = format!("{},{},3", marked.x(), marked.y());
    let req = request(run(&mut s, &["BOARD", &marker, "DONE"]));
    s.finish(req.id, None, Duration::ZERO);
    let req = request(run(&mut s, &["SWAP2BOARD", "DONE"]));
    let Reply::Stones(fallback) = &req.fallback else {
        panic!("{:?}", req.fallback)
    };
    assert!(!fallback.contains(&marked), "{fallback:?} holds {marked:?}");
    let t = run_engine(&req, OPENING_NODES);
    let Some(Swap2Decision::Opening(proposal)) = &t.swap2 else {
        panic!("{t:?}")
    };
    assert!(proposal.contains(&marked), "{proposal:?}");
    let replies = s.finish(req.id, Some(t.clone()), Duration::ZERO);
    assert_eq!(replies.last(), Some(&req.fallback), "{replies:?}");
    // Every table opening starts at the centre: marked, nothing fits, and that is an error.
    let req = request(run(&mut s, &["BOARD", "7,7,3", "DONE"]));
    s.finish(req.id, None, Duration::ZERO);
    let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
    assert!(error(&o).contains("no opening fits"), "{:?}", o.replies);
    assert!(!s.is_thinking());
}

/// Black (h8, i7) is far ahead: white's only stone is in the corner.
const BLACK_AHEAD: [(u8, u8); 3] = [(7, 7), (0, 0), (8, 8)];
/// Close to even by Master's search (about -90 for white at 20 000 to 80 000 nodes).
const BALANCED_THREE: [(u8, u8); 3] = [(7, 7), (7, 6), (9, 9)];
const CHOICE_NODES: u64 = 40_000;

/// The policy's own answer for `stones`, by a fresh engine with the request's seed.
fn after_three(stones: &[(u8, u8)], seed: u64) -> ThreeStoneChoice {
    let g = Game::from_moves(Rule::Freestyle, 15, &points(stones)).unwrap();
    Engine::new(8)
        .choose_after_three(
            &g,
            Limits::nodes(CHOICE_NODES),
            &AtomicBool::new(false),
            seed,
        )
        .unwrap()
}

#[test]
fn swap2_case_2_takes_black_when_black_is_clearly_ahead() {
    let mut s = started();
    let req = request(swap2_board(&mut s, &BLACK_AHEAD));
    assert_eq!(req.kind, ThinkKind::Swap2AfterThree);
    assert_eq!(req.game.to_move(), Color::White);
    assert_eq!(req.fallback, Reply::Swap);
    assert_eq!(req.seed, req.game.board().hash());
    let t = run_engine(&req, CHOICE_NODES);
    assert_eq!(
        t.swap2,
        Some(Swap2Decision::AfterThree(ThreeStoneChoice::TakeBlack))
    );
    assert_eq!(
        after_three(&BLACK_AHEAD, req.seed),
        ThreeStoneChoice::TakeBlack
    );
    let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
    assert_eq!(replies.last(), Some(&Reply::Swap), "{replies:?}");
    assert_eq!(Reply::Swap.to_string(), "SWAP");
    // Taking black plays nothing: the three stones stay.
    assert_eq!(s.game().unwrap().moves(), &points(&BLACK_AHEAD)[..]);
}

#[test]
fn swap2_case_2_places_two_stones_when_the_position_is_balanced() {
    let mut s = started();
    let req = request(swap2_board(&mut s, &BALANCED_THREE));
    let t = run_engine(&req, CHOICE_NODES);
    let ThreeStoneChoice::PlaceTwo([w, b]) = after_three(&BALANCED_THREE, req.seed) else {
        panic!("the policy should place two stones here")
    };
    assert_eq!(
        t.swap2,
        Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
            w, b
        ])))
    );
    let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
    assert_eq!(replies.last(), Some(&Reply::Stones(vec![w, b])));
    // The protocol's option 3: the fourth and fifth stones on one line.
    assert_eq!(
        replies.last().unwrap().to_string(),
        format!("{},{} {},{}", w.x(), w.y(), b.x(), b.y())
    );
    let game = s.game().unwrap();
    assert_eq!(game.moves().len(), 5);
    assert_eq!(&game.moves()[3..], &[w, b]);
    assert_eq!(game.to_move(), Color::White);
    // A later ordinary move is a move again.
    let req = request(run(&mut s, &["TURN 0,0"]));
    assert_eq!(req.kind, ThinkKind::Move);
}

#[test]
fn swap2_case_3_keeps_white_only_when_its_search_says_so() {
    // White's two central stones against black's three corners: keep white and play.
    let white_ahead = [(0, 0), (7, 7), (14, 0), (8, 8), (0, 14)];
    // Black's open three h8-j8, white's stones in corners: take black.
    let black_ahead = [(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)];
    let mut s = started();
    let req = request(swap2_board(&mut s, &white_ahead));
    assert_eq!(req.kind, ThinkKind::Swap2Colour);
    assert_eq!(req.game.moves().len(), 5);
    let t = run_engine(&req, CHOICE_NODES);
    let Some(Swap2Decision::Colour(ColourChoice::White(p))) = t.swap2 else {
        panic!("white is ahead and should be kept: {t:?}")
    };
    let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
    assert_eq!(replies.last(), Some(&Reply::Move(p)), "{replies:?}");
    assert_eq!(s.game().unwrap().moves().len(), 6);
    let req = request(swap2_board(&mut s, &black_ahead));
    let t = run_engine(&req, CHOICE_NODES);
    assert_eq!(t.swap2, Some(Swap2Decision::Colour(ColourChoice::Black)));
    let replies = s.finish(req.id, Some(t), Duration::from_millis(5));
    assert_eq!(replies.last(), Some(&Reply::Swap), "{replies:?}");
    assert_eq!(s.game().unwrap().moves().len(), 5);
}

#[test]
fn swap2_choices_answer_swap_for_anything_unusable() {
    let mut s = started();
    let stone = |x, y| Point::new(x, y);
    let decision = |d: Swap2Decision| {
        Some(Thought {
            swap2: Some(d),
            ..Thought::default()
        })
    };
    for (stones, t) in [
        // Nothing in time (the driver gave up, or STOP before a decision).
        (&BALANCED_THREE[..], None),
        (&BALANCED_THREE[..], Some(Thought::default())),
        // White's stone on a taken point.
        (
            &BALANCED_THREE[..],
            decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlayWhite(
                stone(7, 7),
            ))),
        ),
        // Two stones, the second on the first.
        (
            &BALANCED_THREE[..],
            decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                stone(3, 3),
                stone(3, 3),
            ]))),
        ),
        // Two stones after five: not an option there.
        (
            &[(7, 7), (7, 6), (9, 9), (6, 6), (5, 6)][..],
            decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
                stone(3, 3),
                stone(4, 4),
            ]))),
        ),
        // A proposal where a choice was asked for.
        (
            &BALANCED_THREE[..],
            decision(Swap2Decision::Opening(points(&[(1, 1), (2, 2), (3, 3)]))),
        ),
    ] {
        let req = request(swap2_board(&mut s, stones));
        let before = s.game().unwrap().moves().to_vec();
        let replies = s.finish(req.id, t.clone(), Duration::ZERO);
        assert_eq!(replies.last(), Some(&Reply::Swap), "{t:?}: {replies:?}");
        assert!(
            t.is_none()
                || replies
                    .iter()
                    .any(|r| matches!(r, Reply::Debug(m) if m.contains("SWAP"))),
            "{replies:?}"
        );
        assert_eq!(s.game().unwrap().moves(), &before[..]);
    }
    // A marked point is never played, as a move or as one of the two stones.
    let req = request(run(&mut s, &["BOARD", "3,3,3", "DONE"]));
    s.finish(req.id, None, Duration::ZERO);
    let req = request(swap2_board(&mut s, &BALANCED_THREE));
    let t = decision(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
        stone(4, 4),
        stone(3, 3),
    ])));
    assert_eq!(
        s.finish(req.id, t, Duration::ZERO).last(),
        Some(&Reply::Swap)
    );
}

#[test]
fn swap2_refuses_other_counts_and_bad_stones() {
    let mut s = BrainSession::new();
    let o = run(&mut s, &["SWAP2BOARD", "DONE"]);
    assert!(error(&o).contains("START"));
    let mut s = started();
    let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "DONE"]);
    assert!(error(&o).contains("expected 0, 3 or 5"));
    let o = run(&mut s, &["SWAP2BOARD", "7,7", "7,7", "9,9", "DONE"]);
    assert!(error(&o).starts_with("SWAP2BOARD"));
    let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "99,9", "DONE"]);
    assert!(error(&o).starts_with("SWAP2BOARD"));
    let o = run(&mut s, &["SWAP2BOARD", "7,7", "8,7", "9,9", "1,1", "DONE"]);
    assert!(error(&o).contains("expected 0, 3 or 5"));
    // None of these changed the game or started a search.
    assert!(s.game().unwrap().moves().is_empty());
    assert!(!s.is_thinking());
    // Busy while a Swap2 decision is searched, like any other.
    let req = request(swap2_board(&mut s, &BALANCED_THREE));
    assert!(error(&swap2_board(&mut s, &BALANCED_THREE)).contains("busy"));
    s.finish(req.id, None, Duration::ZERO);
    assert!(!s.is_thinking());
}
