//! The position editor (issue 10 §5).

use std::sync::atomic::Ordering;

use wuzi::{Color, Engine, Rule};

use crate::error::Error;
use crate::parts::search::SearchKind;
use crate::parts::setup::SetupRequest;
use crate::settings::Mode;
use crate::state::{AppCore, RecordFormat};
use crate::store::MemoryStore;
use crate::view::GameView;

use super::{answer, computer, core_in, fresh, play, players, pos, setup_request};

#[test]
fn a_refused_setup_says_why_and_leaves_the_game_untouched() {
    let (_dir, mut core) = fresh();
    play(&mut core, "h8");
    computer(&mut core, "i9");
    let before = core.app_state();
    let settings = core.settings().clone();
    let five = ["d8", "e8", "f8", "g8", "h8"];
    let six = ["c8", "d8", "e8", "f8", "g8", "h8"];
    let cases: [(SetupRequest, &str, &str); 8] = [
        (
            setup_request(Rule::Freestyle, &five, &["a1"], Color::White),
            "badSetup",
            "five",
        ),
        (
            setup_request(Rule::Standard, &["a1"], &five, Color::Black),
            "badSetup",
            "five",
        ),
        (
            setup_request(Rule::Renju, &six, &[], Color::White),
            "badSetup",
            "overline",
        ),
        (
            setup_request(Rule::Renju, &[], &six, Color::Black),
            "badSetup",
            "five",
        ),
        (
            setup_request(Rule::Renju, &["h8"], &["h8"], Color::Black),
            "badSetup",
            "duplicate",
        ),
        (
            setup_request(Rule::Renju, &["h8", "h8"], &[], Color::Black),
            "badSetup",
            "duplicate",
        ),
        (
            setup_request(Rule::Renju, &["z99"], &[], Color::Black),
            "badSetup",
            "offBoard",
        ),
        (
            setup_request(Rule::Renju, &["eight"], &[], Color::Black),
            "badArgument",
            "",
        ),
    ];
    for (request, code, reason) in cases {
        let err = core.game().check_setup(&request).unwrap_err();
        assert_eq!(err.code(), code, "{request:?}: {err}");
        if let Error::BadSetup(r) = &err {
            assert_eq!(r.reason, reason, "{request:?}");
        }
        let err = core
            .game()
            .start_setup(&request, &players(Mode::Local, Color::Black))
            .unwrap_err();
        assert_eq!(err.code(), code);
    }
    // Standard counts only exactly five: a six is a legal, unfinished position there.
    let request = setup_request(Rule::Standard, &six, &["a1"], Color::White);
    assert!(core.game().check_setup(&request).is_ok());
    let mut big = setup_request(Rule::Renju, &[], &[], Color::Black);
    big.size = 21;
    assert_eq!(
        core.game().check_setup(&big).unwrap_err().code(),
        "badArgument"
    );
    big.size = 5;
    big.black = vec!["a1".to_string(); 26];
    assert_eq!(
        core.game().check_setup(&big).unwrap_err().code(),
        "badArgument"
    );
    let mut huge = setup_request(Rule::Renju, &[], &[], Color::Black);
    huge.black = vec!["a99".repeat(10_000)];
    let err = core.game().check_setup(&huge).unwrap_err();
    assert!(err.to_string().len() < 300, "{err}");
    assert!(serde_json::to_string(&err).unwrap().len() < 400);

    assert_eq!(core.app_state(), before, "nothing changed");
    assert_eq!(core.settings(), &settings);
}

#[test]
fn a_set_up_position_is_played_against_the_computer_saved_and_restored() {
    let dir = MemoryStore::new();
    let request = setup_request(
        Rule::Renju,
        &["h8", "i9", "g7"],
        &["h9", "j7"],
        Color::White,
    );
    let before = {
        let mut core = core_in(&dir);
        let settings = core.settings().clone();
        core.game().check_setup(&request).unwrap();
        let old_id = core.view().game_id;
        let v = core
            .game()
            .start_setup(&request, &players(Mode::Computer, Color::Black))
            .unwrap();
        assert!(v.game_id > old_id);
        assert_eq!(v.rule, Rule::Renju);
        assert_eq!(v.to_move, Color::White);
        assert!(v.computer_to_move, "white to move: the computer's turn");
        assert!(!v.can_undo);
        let s = v.setup.clone().expect("the setup travels with the view");
        assert_eq!(s.black, ["i9", "h8", "g7"], "row by row from the top");
        assert_eq!(s.white, ["h9", "j7"]);
        assert_eq!(s.to_move, Color::White);
        assert_eq!(
            core.settings(),
            &settings,
            "the settings stay for the next game"
        );

        let v = computer(&mut core, "k6");
        assert_eq!(v.moves, ["k6"]);
        assert!(!v.computer_to_move);
        let v = play(&mut core, "f6");
        assert!(v.can_undo);
        computer(&mut core, "l5");
        let v = core.game().undo();
        assert_eq!(
            v.moves,
            ["k6"],
            "undo takes back the reply and your move; the computer's first move and the setup stay"
        );
        assert!(!v.can_undo);
        assert_eq!(v.setup.as_ref().map(|s| s.black.len()), Some(3));
        play(&mut core, "f6");
        core.app_state()
    };
    let mut core = core_in(&dir);
    let after = core.app_state();
    assert_eq!(after, before, "the setup survives a restart");
    assert!(after.game.setup.is_some());
    let sgf = core.game().export_record(RecordFormat::Sgf).unwrap();
    assert!(
        sgf.contains("AB[") && sgf.contains("AW[") && sgf.contains("PL[W]"),
        "{sgf}"
    );
    assert_eq!(
        core.game()
            .export_record(RecordFormat::Moves)
            .unwrap_err()
            .code(),
        "needsSgf"
    );
    let v = core.game().import_record(&sgf).unwrap();
    assert_eq!(v.setup, after.game.setup);
    assert_eq!(v.moves, after.game.moves);
}

#[test]
fn a_set_up_game_is_never_counted_and_the_empty_board_is_an_ordinary_game() {
    let (_dir, mut core) = fresh();
    let request = setup_request(
        Rule::Freestyle,
        &["h8", "i8", "j8", "k8"],
        &["a1", "a2", "a3"],
        Color::Black,
    );
    core.game()
        .start_setup(&request, &players(Mode::Computer, Color::Black))
        .unwrap();
    let v = play(&mut core, "l8");
    assert_eq!(v.result.unwrap().winner, Some(Color::Black));
    let total: u32 = core
        .stats()
        .levels()
        .iter()
        .map(|l| l.wins + l.losses + l.draws)
        .sum();
    assert_eq!(total, 0, "a position set up at will is practice");

    let empty = setup_request(Rule::Freestyle, &[], &[], Color::Black);
    let v = core
        .game()
        .start_setup(&empty, &players(Mode::Local, Color::White))
        .unwrap();
    assert_eq!(v.setup, None);
    assert_eq!(v.mode, Mode::Local);
    assert_eq!(v.to_move, Color::Black);

    // White to move on an empty board is a setup all the same.
    let white_first = setup_request(Rule::Freestyle, &[], &[], Color::White);
    let v = core
        .game()
        .start_setup(&white_first, &players(Mode::Local, Color::White))
        .unwrap();
    assert_eq!(v.to_move, Color::White);
    assert!(v.setup.is_some());
    let v = play(&mut core, "h8");
    assert_eq!(v.moves, ["h8"]);
    assert_eq!(v.to_move, Color::Black);
}

#[test]
fn starting_a_setup_cancels_the_search_analysis_and_review_of_the_old_game() {
    let (_dir, mut core) = fresh();
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    let request = setup_request(Rule::Freestyle, &["h8"], &["h9"], Color::Black);
    core.game()
        .start_setup(&request, &players(Mode::Local, Color::Black))
        .unwrap();
    assert!(job.cancel_flag().load(Ordering::Relaxed));
    assert_eq!(
        core.search()
            .finish_move(&job, &answer("i9", 15))
            .unwrap_err()
            .code(),
        "cancelled"
    );
    assert_eq!(core.view().moves.len(), 0);
}

/// White to move from a set-up position where black has a four on row 8: c8 is white's only
/// move.
fn four_to_block(core: &mut AppCore) -> GameView {
    let request = setup_request(
        Rule::Freestyle,
        &["d8", "e8", "f8", "g8", "a15"],
        &["h8", "o1", "o2"],
        Color::White,
    );
    core.game()
        .start_setup(&request, &players(Mode::Local, Color::Black))
        .unwrap()
}

#[test]
fn a_set_up_position_is_analysed_from_its_own_stones() {
    let (_dir, mut core) = fresh();
    let v = four_to_block(&mut core);
    let job = core.analysis().begin(v.game_id, 0).unwrap();
    let update = job
        .run_round(&mut Engine::new(4), 0)
        .expect("not cancelled");
    assert_eq!(update.to_move, Color::White);
    assert_eq!(update.lines[0].point, "c8", "{update:?}");
}

#[test]
fn a_set_up_game_is_reviewed_from_its_stones_and_its_review_survives_a_restart() {
    let dir = MemoryStore::new();
    let review = {
        let mut core = core_in(&dir);
        four_to_block(&mut core);
        for p in ["c8", "h10", "a1"] {
            play(&mut core, p);
        }
        let (id, n) = pos(&core);
        let job = core.review().begin(id, n).unwrap();
        let found = job.run(&mut Engine::new(4), |_, _| {});
        let review = core.review().finish(&job, &found).unwrap().review.unwrap();
        let colors: Vec<Color> = review.moves.iter().map(|m| m.color).collect();
        assert_eq!(colors, [Color::White, Color::Black, Color::White]);
        assert_eq!(review.moves[0].class, "best", "c8 is the only move");
        review
    };
    let core = core_in(&dir);
    assert_eq!(
        core.view().review,
        Some(review),
        "the review fits the set-up game"
    );
}
