//! Game review: one at a time, kept with the game, dropped when the moves change.

use std::sync::atomic::Ordering;

use wuzi::{Color, Engine, Point};

use crate::state::AppCore;
use crate::store::{MemoryStore, GAME_FILE};

use super::{computer, core_in, fresh, play, pos, two_players, vs_computer};

/// A local game black wins on move 9 (h8 … l8 against a1 … a4).
fn local_five(core: &mut AppCore) {
    two_players(core);
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        play(core, p);
    }
}

/// A made-up engine review of `core`'s game: every move "best" but the 4th, a blunder.
fn made_up_review(core: &AppCore) -> Vec<wuzi::ai::review::MoveReview> {
    use wuzi::ai::review::{MoveClass, MoveReview};
    let size = core.session.game.size();
    core.session
        .game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &p)| MoveReview {
            ply: i + 1,
            point: p,
            color: if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            },
            class: if i == 3 {
                MoveClass::Blunder
            } else {
                MoveClass::Best
            },
            best: Some(Point::from_rif(if i == 3 { "l8" } else { "o15" }, size).unwrap()),
            score_before: 10 * i as i32,
            score_after: -20 * i as i32,
        })
        .collect()
}

#[test]
fn a_review_runs_once_at_a_time_for_the_position_shown() {
    let (_dir, mut core) = fresh();
    let (id, n) = pos(&core);
    assert_eq!(
        core.review().begin(id, n).unwrap_err().code(),
        "badArgument",
        "no moves"
    );
    local_five(&mut core);
    let (id, n) = pos(&core);
    assert_eq!(core.review().begin(id + 1, n).unwrap_err().code(), "stale");
    assert_eq!(core.review().begin(id, n - 1).unwrap_err().code(), "stale");
    let job = core.review().begin(id, n).unwrap();
    assert_eq!(job.positions(), 10);
    assert_eq!(core.review().begin(id, n).unwrap_err().code(), "busy");
    // Cancelled: nothing is kept, and the slot is free again.
    core.review().cancel();
    let found = made_up_review(&core);
    assert_eq!(
        core.review().finish(&job, &found).unwrap_err().code(),
        "cancelled"
    );
    assert!(core.view().review.is_none());
    assert!(core.review().begin(id, n).is_ok());
}

#[test]
fn an_unfinished_record_is_reviewed_against_the_computer_and_counts_as_analysed() {
    let dir = MemoryStore::new();
    {
        let mut core = core_in(&dir);
        vs_computer(&mut core, Color::Black);
        core.game()
            .import_record("h8 i9 h9 h10 g8 i8 j7 f9")
            .unwrap();
        assert!(!core.view().analysed);
        let (id, n) = pos(&core);
        let job = core
            .review()
            .begin(id, n)
            .expect("an unfinished game can be reviewed");
        assert!(
            core.view().analysed,
            "the review shows the engine's judgement"
        );
        let found = made_up_review(&core);
        assert_eq!(core.review().finish(&job, &found).unwrap().moves.len(), 8);
        core.save_now().unwrap().wait().unwrap();
    }
    let mut core = core_in(&dir);
    assert!(core.view().analysed, "kept in the save");
    // A finished game is history: reviewing it changes nothing in the statistics.
    vs_computer(&mut core, Color::Black);
    for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    let (id, n) = pos(&core);
    core.review().begin(id, n).unwrap();
    assert!(!core.view().analysed);
}

#[test]
fn a_finished_review_is_shown_kept_in_the_save_and_dropped_when_the_moves_change() {
    let dir = MemoryStore::new();
    {
        let mut core = core_in(&dir);
        local_five(&mut core);
        let (id, n) = pos(&core);
        let job = core.review().begin(id, n).unwrap();
        let found = made_up_review(&core);
        let v = core.review().finish(&job, &found).unwrap();
        let review = v.review.expect("the review comes with the view");
        assert_eq!(review.moves.len(), 9);
        assert_eq!(review.black_chances.len(), 10, "start to end");
        assert_eq!(
            (
                review.moves[3].class.as_str(),
                review.moves[3].best.as_deref()
            ),
            ("blunder", Some("l8"))
        );
        assert_eq!(review.moves[3].color, Color::White);
        // Black's chances: the mover's score_before, from black's side (white's 30 → below 0.5).
        assert!(review.black_chances[3] < 500 && review.black_chances[2] > 500);
        core.save_now().unwrap().wait().unwrap();
    }
    let mut core = core_in(&dir);
    assert!(core.app_state().notices.is_empty());
    let review = core.view().review.expect("kept in the save");
    assert_eq!(review.moves[8].point, "l8");
    // Undo: the review is of other moves now; redo does not bring it back.
    core.game().undo();
    assert!(core.view().review.is_none());
    core.game().redo();
    assert!(core.view().review.is_none());
    core.save_now().unwrap().wait().unwrap();
    let text = String::from_utf8(dir.get(GAME_FILE).unwrap()).unwrap();
    assert!(!text.contains("\"review\""), "{text}");
}

#[test]
fn a_review_of_moves_that_changed_meanwhile_is_not_kept() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    for p in ["h8", "a1", "i8"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let job = core.review().begin(id, n).unwrap();
    let found = made_up_review(&core);
    play(&mut core, "a2");
    assert!(job.cancel_flag().load(Ordering::SeqCst), "a move stops it");
    assert!(core.review().finish(&job, &found).is_err());
    assert!(core.view().review.is_none());
}

#[test]
fn a_damaged_review_in_the_save_is_dropped_and_the_game_still_loads() {
    let game = r#""game":{"version":1,"rule":"freestyle","size":15,"moves":["h8","i9"],"redo":[]}"#;
    let entry = |ply: u32, point: &str, color: &str, class: &str| {
        format!(
            r#"{{"ply":{ply},"point":"{point}","color":"{color}","class":"{class}","best":null,"scoreBefore":0,"scoreAfter":0}}"#
        )
    };
    let good = format!(
        r#"{{"moves":["h8","i9"],"msPerPosition":300,"reviewed":[{},{}]}}"#,
        entry(1, "h8", "black", "best"),
        entry(2, "i9", "white", "good")
    );
    for (review, kept) in [
        (good.clone(), true),
        (good.replace("\"good\"", "\"superb\""), false),
        (good.replace("\"i9\",\"color\"", "\"j9\",\"color\""), false),
        (good.replace("[\"h8\",\"i9\"]", "[\"h8\"]"), false),
        (good.replace("\"white\"", "\"black\""), false),
        (good.replace("\"ply\":2", "\"ply\":7"), false),
        (good.replace("\"best\":null", "\"best\":\"z99\""), false),
        ("\"a review\"".to_string(), false),
        ("[1, 2, 3]".to_string(), false),
        ("null".to_string(), false),
    ] {
        let dir = MemoryStore::new();
        dir.put(
            GAME_FILE,
            format!(
                r#"{{"version":1,"gameId":4,"mode":"local","level":2,"humanColor":"black",
                   "statsCounted":false,"gameUid":77,{game},"review":{review}}}"#
            ),
        );
        let mut core = core_in(&dir);
        assert!(core.app_state().notices.is_empty(), "{review}");
        let v = core.view();
        assert_eq!((v.game_id, v.moves.len()), (4, 2), "{review}");
        assert_eq!(v.review.is_some(), kept, "{review}");
    }
}

#[test]
fn a_real_review_reports_progress_and_classifies_every_move() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    // White ignores black's open three twice; black makes five.
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let job = core.review().begin(id, n).unwrap();
    let mut seen = Vec::new();
    let found = job.run(&mut Engine::new(4), |done, total| seen.push((done, total)));
    assert_eq!(seen.last(), Some(&(10, 10)));
    assert!(seen.windows(2).all(|w| w[1].0 == w[0].0 + 1));
    let review = core.review().finish(&job, &found).unwrap().review.unwrap();
    assert_eq!(review.moves.len(), 9);
    // a3 let black's open three become an open four: from a game to a lost one.
    let a3 = &review.moves[5];
    assert_eq!(a3.point, "a3");
    assert!(
        ["mistake", "blunder"].contains(&a3.class.as_str()),
        "{a3:?}"
    );
    assert_ne!(a3.best.as_deref(), Some("a3"));
    assert_eq!(review.moves[8].class, "best", "the five");
    assert!(*review.black_chances.last().unwrap() == 1000);
}
