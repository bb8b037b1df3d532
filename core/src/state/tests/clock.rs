//! The game clock (issue 10 §4), on a fake time source moved by hand.

use std::time::Duration;

use serde_json::json;
use wuzi::{Color, Level};

use crate::parts::clock::TimeLimit;
use crate::parts::search::SearchKind;
use crate::state::{AppCore, NewGameOptions, NOTICE_GAME_DAMAGED};
use crate::store::{MemoryStore, GAME_FILE};

use super::{
    answer, computer, core_in, fresh, play, pos, timed_core_in, two_players, vs_computer, wait,
};

fn timed_vs_computer(core: &mut AppCore, minutes: u32, human: Color) {
    core.set_settings(json!({ "clockMinutes": minutes }))
        .unwrap();
    vs_computer(core, human);
}

#[test]
fn the_clock_runs_for_the_side_to_move_from_the_first_stone() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    vs_computer(&mut core, Color::Black);
    wait(&t, 5_000);
    let v = core.view();
    assert_eq!(
        (v.clock.total_ms, v.clock.running),
        (0, false),
        "no stone, no clock"
    );
    play(&mut core, "h8");
    wait(&t, 800);
    computer(&mut core, "i9");
    wait(&t, 3_000);
    let v = core.view();
    assert!(v.clock.running);
    assert_eq!(v.clock.move_ms, [Some(0), Some(800)]);
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (3_000, 800));
    assert_eq!(v.clock.limit, None);
    // Paused (a sheet, the background): nothing counts, and the pause is saved.
    let v = core.clock().set_paused(true);
    assert!(!v.clock.running);
    wait(&t, 60_000);
    assert_eq!(core.view().clock.black_ms, 3_000);
    core.clock().set_paused(false);
    wait(&t, 1_000);
    play(&mut core, "g7");
    assert_eq!(core.view().clock.move_ms, [Some(0), Some(800), Some(4_000)]);
    // The times are kept with the game.
    let v = core.clock().set_paused(true);
    core.save_now().unwrap().wait().unwrap();
    let reloaded = core_in(&dir).view();
    assert_eq!(reloaded.clock.move_ms, v.clock.move_ms);
    assert_eq!(reloaded.clock.total_ms, v.clock.total_ms);
}

#[test]
fn undo_and_redo_move_the_times_with_the_moves_and_never_give_time_back() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    two_players(&mut core);
    play(&mut core, "h8");
    wait(&t, 2_000);
    play(&mut core, "i9");
    wait(&t, 500);
    let before = core.view().clock;
    let v = core.game().undo();
    assert_eq!(v.clock.move_ms, [Some(0)]);
    assert_eq!(
        (v.clock.black_ms, v.clock.white_ms),
        (before.black_ms, before.white_ms)
    );
    wait(&t, 100);
    let v = core.game().redo();
    assert_eq!(v.clock.move_ms, [Some(0), Some(2_000)]);
    assert_eq!(v.clock.total_ms, before.total_ms + 100);
}

#[test]
fn the_computers_budget_comes_from_its_time_left() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    let limits = |core: &mut AppCore| {
        let (id, n) = pos(core);
        let job = core.search().begin(SearchKind::Move, id, n).unwrap();
        core.search().cancel();
        job.limits
    };
    // Untimed: the level's own budget.
    vs_computer(&mut core, Color::White);
    assert_eq!(limits(&mut core), Level::Easy.default_limits());
    // Five minutes: Easy keeps its handicap while it has time …
    timed_vs_computer(&mut core, 5, Color::White);
    assert_eq!(limits(&mut core), Level::Easy.default_limits());
    // … Master plans with its clock, as a Gomocup brain with the same time left would, and
    // with an increment it also aims to spend most of what each move earns back.
    let master = |core: &mut AppCore, increment_ms: u64| {
        core.set_settings(json!({ "clockIncrement": increment_ms / 1000 }))
            .unwrap();
        core.game()
            .new_game(NewGameOptions {
                level: Some(Level::Master),
                ..NewGameOptions::default()
            })
            .unwrap();
        let got = limits(core);
        let budget = wuzi::gomocup::TimeControl {
            turn_ms: None,
            match_ms: Some(300_000),
            time_left_ms: Some(300_000),
            increment_ms,
        }
        .budget(0, Duration::ZERO);
        assert_eq!(
            (got.time, got.target),
            (Some(budget.search), Some(budget.target))
        );
        got.target.unwrap()
    };
    let plain = master(&mut core, 0);
    let earning = master(&mut core, 5_000);
    assert_eq!(earning - plain, Duration::from_millis(4_500));
    core.set_settings(json!({ "clockIncrement": 0 })).unwrap();
    // Nearly out of time, Easy spends less than its usual 100 ms.
    computer(&mut core, "h8");
    play(&mut core, "i9");
    core.game()
        .new_game(NewGameOptions {
            level: Some(Level::Easy),
            ..NewGameOptions::default()
        })
        .unwrap();
    computer(&mut core, "h8");
    play(&mut core, "i9");
    wait(&t, 299_900);
    let late = limits(&mut core);
    assert!(late.time.unwrap() < Duration::from_millis(100), "{late:?}");
}

#[test]
fn a_flag_falls_without_a_tap_loses_the_game_and_is_final() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    timed_vs_computer(&mut core, 5, Color::Black);
    play(&mut core, "h8");
    computer(&mut core, "i9");
    wait(&t, 299_999);
    assert!(core.clock().check().result.is_none());
    wait(&t, 2);
    // Nobody tapped: the UI's timer asks, and the flag falls.
    let v = core.clock().check();
    let result = v.result.clone().unwrap();
    assert_eq!((result.winner, result.reason), (Some(Color::White), "time"));
    assert_eq!(
        (v.clock.flag, v.clock.black_left_ms),
        (Some(Color::Black), Some(0))
    );
    assert!(!v.can_undo && !v.can_redo && !v.computer_to_move && !v.clock.running);
    assert_eq!(core.stats().levels()[1].losses, 1);
    // A move after the flag is refused and changes nothing; undo and redo do nothing.
    let (id, n) = pos(&core);
    assert_eq!(
        core.game().play("g7", id, n).unwrap_err().code(),
        "gameOver"
    );
    assert_eq!(core.game().undo(), v);
    assert_eq!(core.game().redo(), v);
    wait(&t, 10_000);
    assert_eq!(core.view(), v);
    // It is kept: the restart shows the same lost game, counted once.
    drop(core);
    let mut core = core_in(&dir);
    assert_eq!(core.view().result, v.result);
    assert_eq!(core.app_state().stats.levels()[1].losses, 1);
}

#[test]
fn a_flag_that_fell_while_the_app_was_busy_is_noticed_by_the_next_command() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    core.set_settings(json!({ "clockMinutes": 5, "clockIncrement": 2, "mode": "local" }))
        .unwrap();
    core.game().new_game(NewGameOptions::default()).unwrap();
    play(&mut core, "h8");
    wait(&t, 302_000);
    // White had 5 min (no timed move yet, so no increment): too late for this move.
    let (id, n) = pos(&core);
    assert_eq!(
        core.game().play("i9", id, n).unwrap_err().code(),
        "gameOver"
    );
    let v = core.view();
    assert_eq!(v.moves, ["h8"]);
    assert_eq!(v.result.unwrap().winner, Some(Color::Black));
}

#[test]
fn the_computer_too_late_loses_on_time_and_its_move_is_not_played() {
    let dir = MemoryStore::new();
    let (mut core, t) = timed_core_in(&dir);
    timed_vs_computer(&mut core, 5, Color::Black);
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    wait(&t, 300_001);
    let err = core
        .search()
        .finish_move(&job, &answer("i9", 15))
        .unwrap_err();
    assert_eq!(err.code(), "gameOver");
    let v = core.view();
    assert_eq!(
        (v.moves.len(), v.result.unwrap().winner),
        (1, Some(Color::Black))
    );
    assert_eq!(core.stats().levels()[1].wins, 1);
}

#[test]
fn records_and_old_saves_have_untimed_moves_and_a_damaged_clock_never_loses_the_game() {
    let dir = MemoryStore::new();
    // A save from before the clock (version 1): the game, untimed.
    dir.put(
        GAME_FILE,
        r#"{"version":1,"gameId":4,"mode":"local","level":2,"humanColor":"black",
            "statsCounted":false,"gameUid":77,
            "game":{"version":1,"rule":"freestyle","size":15,"moves":["h8","i9"],"redo":[]}}"#,
    );
    let (mut core, t) = timed_core_in(&dir);
    let v = core.view();
    assert_eq!(
        (v.moves.len(), v.clock.move_ms.clone()),
        (2, vec![None, None])
    );
    wait(&t, 1_000);
    play(&mut core, "j10");
    assert_eq!(core.view().clock.move_ms, [None, None, Some(1_000)]);
    core.save_now().unwrap().wait().unwrap();
    let text = String::from_utf8(dir.get(GAME_FILE).unwrap()).unwrap();
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["version"], 2);
    assert_eq!(saved["clock"]["moves"], json!([null, null, 1000]));
    // A clock field that does not read: dropped, the game loads as it was.
    for bad in [
        json!("ticking"),
        json!({ "moves": [1, 2, 3], "limit": { "baseMs": -5 } }),
    ] {
        saved["clock"] = bad;
        dir.put(GAME_FILE, saved.to_string());
        let core = core_in(&dir);
        let v = core.view();
        assert_eq!(v.moves, ["h8", "i9", "j10"]);
        assert_eq!((v.clock.move_ms.len(), v.clock.limit), (3, None));
        assert!(core.notices.is_empty(), "not a damaged game");
    }
    // A newer format than this app knows is not guessed at.
    saved["version"] = json!(3);
    dir.put(GAME_FILE, saved.to_string());
    assert_eq!(core_in(&dir).notices, [NOTICE_GAME_DAMAGED]);
    // A loaded record: its moves untimed, no limit whatever the settings say.
    let mut core = core_in(&dir);
    core.set_settings(json!({ "clockMinutes": 10 })).unwrap();
    let v = core.game().import_record("h8 i9 g7").unwrap();
    assert_eq!(
        (v.clock.move_ms, v.clock.limit),
        (vec![None, None, None], None)
    );
}

#[test]
fn time_limits_are_only_those_offered() {
    let (_dir, mut core) = fresh();
    for bad in [
        json!({ "clockMinutes": 7 }),
        json!({ "clockMinutes": -5 }),
        json!({ "clockMinutes": "5" }),
        json!({ "clockIncrement": 1 }),
    ] {
        assert_eq!(
            core.set_settings(bad.clone()).unwrap_err().code(),
            "badArgument",
            "{bad}"
        );
    }
    assert_eq!(core.settings().clock_minutes, 0);
    let s = core
        .set_settings(json!({ "clockMinutes": 20, "clockIncrement": 5 }))
        .unwrap();
    assert_eq!(
        s.time_limit(),
        Some(TimeLimit {
            base_ms: 1_200_000,
            increment_ms: 5_000
        })
    );
    let v = core.game().new_game(NewGameOptions::default()).unwrap();
    assert_eq!(v.clock.limit, s.time_limit());
    assert_eq!(v.clock.black_left_ms, Some(1_200_000));
}
