//! A set-up position with the clock, the Swap / Swap2 opening rules, the save and the stats.

use std::time::Duration;

use serde_json::json;
use wuzi::{Color, Rule};

use crate::parts::opening::{Choice, OpeningRule};
use crate::parts::search::SearchKind;
use crate::settings::Mode;
use crate::state::{AppCore, NewGameOptions};
use crate::store::{MemoryStore, GAME_FILE};

use super::{
    computer, core_in, fresh, play, players, pos, setup_request, timed_core_in, vs_computer, wait,
};

/// The games counted in the stats, at every level.
fn games_counted(core: &AppCore) -> u32 {
    core.stats()
        .levels()
        .iter()
        .map(|l| l.wins + l.losses + l.draws)
        .sum()
}

#[test]
fn a_set_up_game_times_its_moves_from_the_position_with_the_limit_against_the_computer() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    core.set_settings(json!({ "clockMinutes": 5, "clockIncrement": 2 }))
        .unwrap();
    let request = setup_request(Rule::Freestyle, &["h8", "i9"], &["h9"], Color::White);
    let v = core
        .game()
        .start_setup(&request, &players(Mode::Computer, Color::Black))
        .unwrap();
    // The computer (white) is to move from the position, so its time runs at once; the set-up
    // stones are no moves and have no times.
    assert!(v.clock.running, "a set-up game is under way from its start");
    assert_eq!(v.clock.side, Some(Color::White));
    assert_eq!(v.clock.limit, core.settings().time_limit());
    assert!(v.clock.limit.is_some());
    assert!(v.clock.move_ms.is_empty());
    // Its search is bounded by its clock like in any timed game: nearly out of time, Easy
    // spends less than its usual 100 ms.
    wait(&t, 299_900);
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.search().cancel();
    assert!(
        job.limits.time.unwrap() < Duration::from_millis(100),
        "{:?}",
        job.limits
    );
    let v = computer(&mut core, "g7");
    assert_eq!(v.clock.move_ms, [Some(299_900)]);
    assert_eq!(
        v.clock.white_left_ms,
        Some(300_000 + 2_000 - 299_900),
        "the increment follows a timed move"
    );
    wait(&t, 1_500);
    let v = play(&mut core, "j10");
    assert_eq!(v.clock.move_ms, [Some(299_900), Some(1_500)]);
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (1_500, 299_900));
    // The computer's flag falls on the clock of the set-up game; it is not counted.
    wait(&t, 3_000);
    let v = core.clock().check();
    assert_eq!(v.result.as_ref().map(|r| r.reason), Some("time"));
    assert_eq!(v.result.unwrap().winner, Some(Color::Black));
    assert_eq!(games_counted(&core), 0, "a set-up game is never counted");

    // Between two players (and so in analysis) a set-up position is study: no limit, but the
    // moves are timed from the position all the same.
    let v = core
        .game()
        .start_setup(&request, &players(Mode::Local, Color::Black))
        .unwrap();
    assert_eq!((v.clock.limit, v.clock.running), (None, true));
    wait(&t, 400);
    assert_eq!(play(&mut core, "g7").clock.move_ms, [Some(400)]);
    // The empty board with black to move is an ordinary game: its clock waits for a stone.
    let empty = setup_request(Rule::Freestyle, &[], &[], Color::Black);
    let v = core
        .game()
        .start_setup(&empty, &players(Mode::Computer, Color::Black))
        .unwrap();
    assert_eq!(v.setup, None);
    assert!(!v.clock.running);
}

#[test]
fn a_set_up_position_starts_without_a_swap_opening_whatever_the_setting() {
    let (_dir, mut core) = fresh();
    core.set_settings(json!({ "openingRule": "swap2", "rule": "freestyle" }))
        .unwrap();
    core.game().new_game(NewGameOptions::default()).unwrap();
    assert!(core.view().swap.is_some(), "an ordinary game has its phase");
    let request = setup_request(Rule::Freestyle, &["h8", "i9"], &["h9"], Color::White);
    // Against the computer as white: white to move is the human's turn at once, with no
    // opening phase and no choice due.
    let v = core
        .game()
        .start_setup(&request, &players(Mode::Computer, Color::White))
        .unwrap();
    assert_eq!(v.swap, None);
    assert!(!v.computer_to_move);
    let v = play(&mut core, "g7");
    assert_eq!(v.moves, ["g7"]);
    assert!(v.computer_to_move);
    let v = computer(&mut core, "j10");
    assert!(v.swap.is_none() && v.can_undo);
    let err = core
        .game()
        .choose_opening(Choice::Black, v.game_id, v.move_number)
        .unwrap_err();
    assert_eq!(err.code(), "noChoiceDue");
    // Two players, and the empty board too: the editor's game never has a phase.
    for (req, mode) in [
        (request.clone(), Mode::Local),
        (
            setup_request(Rule::Freestyle, &[], &[], Color::Black),
            Mode::Local,
        ),
    ] {
        let v = core
            .game()
            .start_setup(&req, &players(mode, Color::Black))
            .unwrap();
        assert_eq!(v.swap, None);
    }
    assert_eq!(
        core.settings().opening_rule,
        OpeningRule::Swap2,
        "left alone"
    );
    // The next New game follows the setting again.
    assert!(core
        .game()
        .new_game(NewGameOptions::default())
        .unwrap()
        .swap
        .is_some());
}

#[test]
fn one_save_format_holds_a_setup_with_its_clock_and_every_older_kind_still_loads() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    core.set_settings(json!({ "clockMinutes": 10 })).unwrap();
    let request = setup_request(Rule::Renju, &["h8", "i9"], &["h9"], Color::White);
    core.game()
        .start_setup(&request, &players(Mode::Computer, Color::Black))
        .unwrap();
    wait(&t, 900);
    computer(&mut core, "g7");
    wait(&t, 1_200);
    play(&mut core, "j10");
    let before = core.clock().set_paused(true);
    core.save_now().unwrap().wait().unwrap();
    let text = String::from_utf8(dir.get(GAME_FILE).unwrap()).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["version"], 2);
    assert_eq!(
        saved["game"]["version"], 2,
        "the engine's save, with its setup"
    );
    assert_eq!(saved["game"]["setup"]["to_move"], "white");
    assert_eq!(saved["clock"]["moves"], json!([900, 1200]));
    assert!(saved.get("swap").is_none());
    let v = core_in(&dir).view();
    assert_eq!(
        (&v.setup, &v.moves, &v.clock.move_ms, v.clock.limit),
        (
            &before.setup,
            &before.moves,
            &before.clock.move_ms,
            before.clock.limit
        )
    );
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (1_200, 900));

    // Damaged or foreign optional fields are dropped alone: the set-up game still loads.
    let mut damaged = saved.clone();
    damaged["clock"] = json!({ "moves": "lots" });
    damaged["review"] = json!(17);
    damaged["swap"] = json!({ "phase": "???" });
    dir.put(GAME_FILE, damaged.to_string());
    let core = core_in(&dir);
    let v = core.view();
    assert!(core.notices.is_empty(), "not a damaged game");
    assert_eq!((&v.setup, &v.moves), (&before.setup, &before.moves));
    assert_eq!(
        (v.clock.move_ms.clone(), v.clock.limit),
        (vec![None, None], None)
    );
    assert_eq!((v.swap.clone(), v.review.clone()), (None, None));

    // A well-formed Swap2 phase does not fit a set-up game either: dropped, the game kept.
    let mut other = saved.clone();
    let swap = {
        let d = MemoryStore::new();
        let mut c = core_in(&d);
        c.game()
            .new_game(NewGameOptions {
                mode: Some(Mode::Local),
                rule: Some(Rule::Freestyle),
                opening_rule: Some(OpeningRule::Swap2),
                ..NewGameOptions::default()
            })
            .unwrap();
        c.save_now().unwrap().wait().unwrap();
        let text = String::from_utf8(d.get(GAME_FILE).unwrap()).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["swap"].clone()
    };
    assert!(swap.is_object(), "{swap}");
    other["game"]["rule"] = json!("freestyle");
    other["swap"] = swap;
    dir.put(GAME_FILE, other.to_string());
    let v = core_in(&dir).view();
    assert_eq!((v.swap, v.setup.is_some(), v.moves.len()), (None, true, 2));

    // A set-up game saved by the editor before the clock: version 1 around the engine's
    // version-2 game. It loads untimed, its clock running from the position.
    dir.put(
        GAME_FILE,
        r#"{"version":1,"gameId":9,"mode":"computer","level":1,"humanColor":"black",
            "statsCounted":true,"gameUid":5,"analysed":false,
            "game":{"version":2,"rule":"freestyle","size":15,
                    "setup":{"black":["h8","i9"],"white":["h9"],"to_move":"white"},
                    "moves":["g7"],"redo":[]}}"#,
    );
    let core = core_in(&dir);
    let v = core.view();
    assert!(core.notices.is_empty());
    assert_eq!(v.setup.as_ref().map(|s| s.to_move), Some(Color::White));
    assert_eq!(
        (v.moves.clone(), v.to_move),
        (vec!["g7".to_string()], Color::Black)
    );
    assert_eq!((v.clock.move_ms, v.clock.limit), (vec![None], None));
    assert!(v.clock.running);
}

#[test]
fn an_imported_setup_is_not_counted_like_the_editors() {
    let (dir, mut core) = fresh();
    vs_computer(&mut core, Color::Black);
    // Black to move with four in a row: an SGF with a setup, played to a win against the computer.
    let v = core
        .game()
        .import_record("(;GM[4]FF[4]SZ[15]RU[freestyle]AB[hh][ih][jh][kh]AW[aa][ab][ac]PL[B])")
        .unwrap();
    assert!(v.setup.is_some(), "{v:?}");
    assert_eq!(v.mode, Mode::Computer);
    let v = play(&mut core, "l8");
    assert_eq!(v.result.unwrap().winner, Some(Color::Black));
    assert_eq!(games_counted(&core), 0, "a set-up position is practice");
    // An older save of such a game, marked not counted, is not counted after a restart either.
    core.game().undo();
    core.save_now().unwrap().wait().unwrap();
    let text = String::from_utf8(dir.get(GAME_FILE).unwrap()).unwrap();
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    saved["statsCounted"] = json!(false);
    dir.put(GAME_FILE, saved.to_string());
    let mut core = core_in(&dir);
    assert!(core.view().setup.is_some());
    let v = play(&mut core, "l8");
    assert!(v.result.is_some());
    assert_eq!(games_counted(&core), 0);
    // An imported record without a setup still counts once played to its end.
    vs_computer(&mut core, Color::Black);
    core.game().import_record("h8 a1 i8 a2 j8 a3 k8").unwrap();
    computer(&mut core, "a4");
    play(&mut core, "l8");
    assert_eq!(games_counted(&core), 1);
}
