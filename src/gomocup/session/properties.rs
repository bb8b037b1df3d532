//! Random sessions: whatever a manager sends and whatever the engine answers, the brain
//! never panics and only ever answers legal stones.

use std::time::Duration;

use super::*;
use crate::ai::swap2::{ColourChoice, ThreeStoneChoice};
use crate::gomocup::Parser;
use crate::Point;
use proptest::prelude::*;

/// A line a manager (or a broken one) might send.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..25).prop_map(|n| format!("START {n}")),
        Just("RESTART".to_string()),
        Just("BEGIN".to_string()),
        (0u32..22, 0u32..22).prop_map(|(x, y)| format!("TURN {x},{y}")),
        (0u32..22, 0u32..22).prop_map(|(x, y)| format!("TAKEBACK {x},{y}")),
        Just("BOARD".to_string()),
        (0u32..22, 0u32..22, 0u32..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        Just("SWAP2BOARD".to_string()),
        (0u32..22, 0u32..22).prop_map(|(x, y)| format!("{x},{y}")),
        Just("DONE".to_string()),
        (0u32..16).prop_map(|r| format!("INFO rule {r}")),
        (0u64..3000).prop_map(|t| format!("INFO timeout_turn {t}")),
        Just("ABOUT".to_string()),
        "[ -~]{0,30}",
    ]
}

/// A line, or a whole `SWAP2BOARD` block of 0, 3 or 5 stones (rarely put together by
/// chance from single lines).
fn item() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        4 => line().prop_map(|l| vec![l]),
        1 => prop_oneof![Just(0usize), Just(3), Just(5)]
            .prop_flat_map(|n| proptest::collection::vec((3u32..12, 3u32..12), n))
            .prop_map(|stones| {
                let mut block = vec!["SWAP2BOARD".to_string()];
                block.extend(stones.iter().map(|(x, y)| format!("{x},{y}")));
                block.push("DONE".to_string());
                block
            }),
    ]
}

/// What an engine might answer, legal or not: a move, or any Swap2 decision.
fn thought(pick: &[(u8, u8)], what: u8) -> Thought {
    let p = |i: usize| Point::new(pick[i].0, pick[i].1);
    let swap2 = match what % 7 {
        0 => None,
        1 => Some(Swap2Decision::Opening(vec![p(1), p(2), p(3)])),
        2 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::TakeBlack)),
        3 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlayWhite(p(1)))),
        4 => Some(Swap2Decision::AfterThree(ThreeStoneChoice::PlaceTwo([
            p(1),
            p(2),
        ]))),
        5 => Some(Swap2Decision::Colour(ColourChoice::Black)),
        _ => Some(Swap2Decision::Colour(ColourChoice::White(p(1)))),
    };
    Thought {
        best: Some(p(0)),
        swap2,
        ..Thought::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_sessions_never_panic_and_only_give_legal_answers(
        items in proptest::collection::vec(item(), 1..60),
        picks in proptest::collection::vec(((0u8..22, 0u8..22), 0u8..7), 60),
    ) {
        let mut parser = Parser::new();
        let mut session = BrainSession::new();
        let mut pick = picks.into_iter().cycle();
        for l in items.iter().flatten() {
            for parsed in parser.feed(l) {
                let outcome = session.handle(parsed);
                let Next::Think(req) = outcome.next else { continue };
                // The engine answers some arbitrary points, legal or not.
                let points: Vec<(u8, u8)> = (0..4).map(|_| pick.next().unwrap().0).collect();
                let what = pick.next().unwrap().1;
                let before = req.game.clone();
                let t = thought(&points, what);
                let replies = session.finish(req.id, Some(t), Duration::ZERO);
                let after = session.game().unwrap();
                // Every stone answered is played in turn from the position searched.
                let mut replay = before.clone();
                let mut play = |stones: &[Point]| -> Result<(), TestCaseError> {
                    for &p in stones {
                        prop_assert_eq!(replay.check(p), Ok(()));
                        replay.try_play(p).unwrap();
                    }
                    Ok(())
                };
                match (req.kind, replies.last()) {
                    (ThinkKind::Move, Some(Reply::Move(p))) => play(&[*p])?,
                    (ThinkKind::Swap2Opening, Some(Reply::Stones(s))) => {
                        prop_assert_eq!(s.len(), 3);
                        play(s)?;
                    }
                    (ThinkKind::Swap2AfterThree | ThinkKind::Swap2Colour, Some(Reply::Swap)) => {}
                    (ThinkKind::Swap2AfterThree | ThinkKind::Swap2Colour, Some(Reply::Move(p))) => {
                        play(&[*p])?;
                    }
                    (ThinkKind::Swap2AfterThree, Some(Reply::Stones(s))) => {
                        prop_assert_eq!(s.len(), 2);
                        play(s)?;
                    }
                    (kind, other) => prop_assert!(false, "{:?}: {:?}", kind, other),
                }
                prop_assert_eq!(after.moves(), replay.moves());
            }
        }
    }
}
