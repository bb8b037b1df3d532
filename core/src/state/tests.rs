//! The app's rules, tested on [`AppCore`] directly.

use super::*;
use crate::parts::analysis::ANALYSIS_LINES;
use crate::parts::clock::TimeLimit;
use crate::parts::engine::EngineSlot;
use crate::parts::opening::{Choice, OpeningRule};
use crate::parts::search::SearchKind;
use crate::parts::setup::{SetupPlayers, SetupRequest};
use crate::store::MemoryStore;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use wuzi::{Engine, Point, SearchResult, Verdict};

/// The state saved in `dir`, its clock standing still (tests compare views, which hold times).
fn core_in(dir: &MemoryStore) -> AppCore {
    timed_core_in(dir).0
}

/// The state saved in `dir` and the handle that moves its clock (milliseconds since load).
fn timed_core_in(dir: &MemoryStore) -> (AppCore, Arc<std::sync::atomic::AtomicU64>) {
    let (time, ms) = TimeSource::fake();
    (AppCore::load_with_time(dir.clone(), time), ms)
}

/// The game on screen and its move number, as the UI sends them with each request.
pub(super) fn pos(core: &AppCore) -> (u64, usize) {
    let v = core.view();
    (v.game_id, v.move_number)
}

/// Plays `point` as the human in the current position.
fn play(core: &mut AppCore, point: &str) -> GameView {
    let (id, n) = pos(core);
    core.game().play(point, id, n).unwrap()
}

/// A search result naming `best`, standing in for the engine where the test picks the
/// computer's moves itself. Shared with the other modules' tests.
pub(super) fn answer(best: &str, size: u8) -> SearchResult {
    SearchResult {
        best: Some(Point::from_rif(best, size).unwrap()),
        score: 0,
        depth: 1,
        nodes: 1,
        pv: Vec::new(),
        verdict: Verdict::Eval {
            score: 0,
            to_move: Color::Black,
        },
        elapsed: Duration::ZERO,
    }
}

/// The computer answers `best` in the current position.
fn computer(core: &mut AppCore, best: &str) -> GameView {
    let (id, n) = pos(core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.search().finish_move(&job, &answer(best, 15)).unwrap()
}

fn vs_computer(core: &mut AppCore, human: Color) {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Computer),
            rule: Some(Rule::Freestyle),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
            renju_opening: None,
            opening_rule: None,
        })
        .unwrap();
}

#[test]
fn a_reset_engine_slot_builds_a_fresh_engine() {
    let mut slot = EngineSlot::new(1);
    assert!(!slot.is_built());
    slot.get().set_threads(3);
    assert!(slot.is_built());
    slot.reset();
    assert!(!slot.is_built());
    assert_eq!(slot.get().threads(), 0, "a new engine, not the old one");
}

#[test]
fn black_without_a_legal_point_ends_the_game_as_a_draw() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Computer),
            rule: Some(Rule::Renju),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(Color::Black),
            renju_opening: None,
            opening_rule: None,
        })
        .unwrap();
    let text = include_str!("../../../tests/fixtures/renju-no-legal-move.txt");
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let mut view = core.view();
    for pair in moves.chunks(2) {
        play(&mut core, pair[0]);
        view = computer(&mut core, pair[1]);
    }
    let result = view.result.expect("the computer's last move ends the game");
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"winner": null, "reason": "no-legal-move", "line": []})
    );
    assert!(!view.computer_to_move);
    let easy = core.stats().levels()[1];
    assert_eq!((easy.wins, easy.losses, easy.draws), (0, 0, 1));
    // The saved game reloads as the same draw.
    core.save_now().unwrap().wait().unwrap();
    let reloaded = core_in(&dir).view();
    assert_eq!(reloaded.result.map(|r| r.reason), Some("no-legal-move"));
}

#[test]
fn a_first_start_is_a_fresh_game_from_the_default_settings() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let state = core.app_state();
    assert!(state.notices.is_empty());
    assert_eq!(state.settings, Settings::default());
    let v = state.game;
    assert_eq!((v.game_id, v.move_number, v.size), (1, 0, 15));
    assert_eq!(
        (v.mode, v.level, v.human_color),
        (Mode::Computer, Level::Easy, Color::Black)
    );
    assert!(!v.computer_to_move && !v.can_undo && !v.can_redo && v.result.is_none());
}

#[test]
fn the_view_matches_the_ipc_contract() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    play(&mut core, "h8");
    let v = serde_json::to_value(core.view()).unwrap();
    assert_eq!(
        v,
        json!({
            "gameId": 1, "moveNumber": 1, "size": 15, "rule": "freestyle", "mode": "computer",
            "level": 2, "humanColor": "black", "moves": ["h8"], "toMove": "white",
            "result": null, "forbidden": [], "canUndo": true, "canRedo": false,
            "computerToMove": true, "analysed": false, "review": null, "opening": null,
            "swap": null, "setup": null,
            "clock": {
                "running": true, "side": "white", "blackMs": 0, "whiteMs": 0, "blackLeftMs": null,
                "whiteLeftMs": null, "totalMs": 0, "limit": null, "moveMs": [0], "owners": [], "flag": null
            }
        })
    );
    let kagetsu = renju::by_name("Kagetsu").unwrap();
    let v = renju_from(
        &mut core,
        Mode::Local,
        Color::Black,
        RenjuStart::Opening(kagetsu),
    );
    assert_eq!(
        serde_json::to_value(v.opening).unwrap(),
        json!({ "code": "4D", "name": "Kagetsu", "chinese": "花月" })
    );
    let openings = serde_json::to_value(core.app_state()).unwrap()["renjuOpenings"].clone();
    assert_eq!(openings.as_array().map(Vec::len), Some(26));
    assert_eq!(
        openings[25],
        json!({ "code": "13I", "name": "Suisei", "chinese": "彗星" })
    );
}

#[test]
fn bad_requests_change_nothing() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    play(&mut core, "h8");
    let before = core.view();
    let (id, n) = pos(&core);
    let code = |r: Result<GameView>| r.unwrap_err().code();
    assert_eq!(code(core.game().play("h9", id, n - 1)), "stale");
    assert_eq!(code(core.game().play("h9", id + 1, n)), "stale");
    assert_eq!(code(core.game().play("zz", id, n)), "badArgument");
    assert_eq!(code(core.game().play("", id, n)), "badArgument");
    assert_eq!(code(core.game().play("p1", id, n)), "offBoard");
    assert_eq!(code(core.game().play("h8", id, n)), "occupied");
    let size4 = core.game().new_game(NewGameOptions {
        size: Some(4),
        ..NewGameOptions::default()
    });
    assert_eq!(code(size4), "badArgument");
    assert_eq!(code(core.game().import_record("h8 h8")), "badRecord");
    assert_eq!(core.view(), before);
    assert_eq!(core.settings().size, 15);
}

#[test]
fn errors_quote_little_of_huge_input() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let (id, n) = pos(&core);
    let huge = "\u{1b}q".repeat(50_000);
    let sgf = format!("(;GM[4]SZ[{huge}];B[hh])");
    let rule = format!("(;GM[4]RU[{huge}];B[hh])");
    let errors = [
        core.game().play(&huge, id, n).unwrap_err(),
        core.game().import_record(&huge).unwrap_err(),
        core.game()
            .import_record(&format!("h8 {huge}"))
            .unwrap_err(),
        core.game().import_record(&sgf).unwrap_err(),
        core.game().import_record(&rule).unwrap_err(),
        core.set_settings(json!({ huge.clone(): 1 })).unwrap_err(),
    ];
    for e in errors {
        let wire = serde_json::to_string(&e).unwrap();
        assert!(wire.len() < 1_000, "{} bytes: {:.300}", wire.len(), wire);
    }
    assert_eq!(core.view().moves.len(), 0);
}

#[test]
fn renju_refuses_forbidden_points_and_lists_them() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            rule: Some(Rule::Renju),
            ..NewGameOptions::default()
        })
        .unwrap();
    // Black f8 g8 on the row and h9 h10 on the column: h8 would make two open threes.
    for p in ["f8", "a1", "g8", "a3", "h9", "a5", "h10", "a7"] {
        play(&mut core, p);
    }
    let v = core.view();
    let h8 = v
        .forbidden
        .iter()
        .find(|f| f.point == "h8")
        .expect("h8 is listed as forbidden");
    assert_eq!(h8.reason, "double-three");
    let (id, n) = pos(&core);
    let err = core.game().play("h8", id, n).unwrap_err();
    assert_eq!(err.code(), "forbidden");
    assert_eq!(core.view(), v);
}

#[test]
fn the_computer_moves_only_on_its_turn_and_one_search_at_a_time() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let (id, n) = pos(&core);
    assert_eq!(
        core.search()
            .begin(SearchKind::Move, id, n)
            .unwrap_err()
            .code(),
        "notYourTurn"
    );
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    assert_eq!(
        core.game().play("h9", id, n).unwrap_err().code(),
        "notYourTurn"
    );
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(
        core.search()
            .begin(SearchKind::Hint, id, n)
            .unwrap_err()
            .code(),
        "busy"
    );
    let v = core.search().finish_move(&job, &answer("i9", 15)).unwrap();
    assert_eq!(v.moves, ["h8", "i9"]);
    assert!(!v.computer_to_move);
    // The slot is free again.
    let hint = core.search().begin(SearchKind::Hint, v.game_id, 2).unwrap();
    let h = core.search().finish_hint(&hint, &answer("g7", 15)).unwrap();
    assert_eq!(
        (h.point.as_deref(), h.game_id, h.move_number),
        (Some("g7"), v.game_id, 2)
    );
}

#[test]
fn a_late_answer_for_an_old_position_is_dropped() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    play(&mut core, "h8");
    let (id, n) = pos(&core);

    // Undo while the computer thinks: the search is cancelled and its answer refused.
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.game().undo();
    assert!(job.cancel.load(Ordering::SeqCst), "undo stops the search");
    let err = core
        .search()
        .finish_move(&job, &answer("i9", 15))
        .unwrap_err();
    assert_eq!(err.code(), "cancelled");
    assert_eq!(core.view().moves, Vec::<String>::new());

    // A new game while it thinks.
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.game().new_game(NewGameOptions::default()).unwrap();
    assert_eq!(
        core.search()
            .finish_move(&job, &answer("i9", 15))
            .unwrap_err()
            .code(),
        "cancelled"
    );
    assert_eq!(core.view().move_number, 0);

    // A request for a position that is not the current one never starts.
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    assert_eq!(
        core.search()
            .begin(SearchKind::Move, id - 1, n)
            .unwrap_err()
            .code(),
        "stale"
    );
    assert_eq!(
        core.search()
            .begin(SearchKind::Move, id, n + 1)
            .unwrap_err()
            .code(),
        "stale"
    );

    // cancel_search: refused as cancelled, and the computer may be asked again.
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.search().cancel();
    assert_eq!(
        core.search()
            .finish_move(&job, &answer("i9", 15))
            .unwrap_err()
            .code(),
        "cancelled"
    );
    assert!(core.view().computer_to_move);
    computer(&mut core, "i9");

    // A hint outlived by a move of the other player is stale for that player.
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    let (id, n) = pos(&core);
    let hint = core.search().begin(SearchKind::Hint, id, n).unwrap();
    play(&mut core, "h8");
    assert!(hint.cancel.load(Ordering::SeqCst));
    assert!(core.search().finish_hint(&hint, &answer("h8", 15)).is_err());
}

#[test]
fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    play(&mut core, "h8");
    computer(&mut core, "i9");
    play(&mut core, "g7");
    computer(&mut core, "j10");
    let v = core.game().undo();
    assert_eq!(v.moves, ["h8", "i9"]);
    assert!(!v.computer_to_move && v.can_redo);
    // Redo brings back your move and its reply.
    let v = core.game().redo();
    assert_eq!(v.moves, ["h8", "i9", "g7", "j10"]);
    core.game().undo();
    // While the computer is to move, undo takes back only your move.
    play(&mut core, "f6");
    assert!(core.view().computer_to_move);
    let v = core.game().undo();
    assert_eq!(v.moves, ["h8", "i9"]);
    assert!(!v.computer_to_move);
}

#[test]
fn as_white_the_computer_opens_and_its_opening_cannot_be_undone_alone() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    vs_computer(&mut core, Color::White);
    let v = core.view();
    assert!(v.computer_to_move && !v.can_undo);
    let v = computer(&mut core, "h8");
    assert!(
        !v.can_undo,
        "undoing only the computer's opening would let it replay it"
    );
    assert_eq!(core.game().undo().moves, ["h8"]);
    play(&mut core, "i9");
    computer(&mut core, "g7");
    assert_eq!(core.game().undo().moves, ["h8"]);
}

#[test]
fn local_undo_takes_back_one_move() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    play(&mut core, "h8");
    play(&mut core, "i9");
    assert_eq!(core.game().undo().moves, ["h8"]);
    assert_eq!(core.game().redo().moves, ["h8", "i9"]);
    assert_eq!(core.game().undo().moves, ["h8"]);
    assert_eq!(core.game().undo().moves, Vec::<String>::new());
    // Nothing left: undo changes nothing.
    let v = core.game().undo();
    assert_eq!((v.move_number, v.can_undo), (0, false));
}

#[test]
fn a_finished_game_is_counted_once() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    let v = play(&mut core, "l8");
    let result = v.result.expect("black has five");
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(result.reason, "five");
    assert_eq!(result.line, ["h8", "i8", "j8", "k8", "l8"]);
    assert!(!v.computer_to_move);
    let (id, n) = pos(&core);
    assert_eq!(
        core.game().play("a9", id, n).unwrap_err().code(),
        "gameOver"
    );
    assert_eq!(
        core.search()
            .begin(SearchKind::Hint, id, n)
            .unwrap_err()
            .code(),
        "gameOver"
    );
    let easy = |core: &AppCore| core.stats().levels()[1];
    assert_eq!((easy(&core).wins, easy(&core).losses), (1, 0));

    // Undo and win again: the same game is not counted twice.
    core.game().undo();
    core.game().redo();
    assert!(core.view().result.is_some());
    assert_eq!(easy(&core).wins, 1);

    // A loss in a new game counts.
    core.game().new_game(NewGameOptions::default()).unwrap();
    for (human, reply) in [("a15", "h8"), ("b15", "i8"), ("c15", "j8"), ("d15", "k8")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "f15");
    let v = computer(&mut core, "l8");
    assert_eq!(v.result.unwrap().winner, Some(Color::White));
    assert_eq!((easy(&core).wins, easy(&core).losses), (1, 1));

    // Local games are not counted.
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        play(&mut core, p);
    }
    assert_eq!((easy(&core).wins, easy(&core).losses), (1, 1));
}

#[test]
fn a_crash_between_the_stats_and_the_game_write_never_counts_a_game_twice() {
    let dir = MemoryStore::new();
    let easy = |core: &AppCore| core.stats().levels()[1];
    let game_before_the_win = {
        let mut core = core_in(&dir);
        vs_computer(&mut core, Color::Black);
        for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
            play(&mut core, human);
            computer(&mut core, reply);
        }
        core.save_now().unwrap().wait().unwrap();
        let saved = dir.get(GAME_FILE).unwrap();
        assert!(play(&mut core, "l8").result.is_some());
        assert_eq!(easy(&core).wins, 1);
        saved
    };
    // The crash: the stats with the win reached the disk, the game's last write did not.
    dir.put(GAME_FILE, game_before_the_win);

    let mut core = core_in(&dir);
    assert_eq!(core.view().moves.len(), 8, "the last saved position");
    assert_eq!(easy(&core).wins, 1);
    // The player makes the winning move again: the same game, not a second win.
    assert!(play(&mut core, "l8").result.is_some());
    assert_eq!(easy(&core).wins, 1);
    drop(core);
    let mut core = core_in(&dir);
    assert_eq!(easy(&core).wins, 1);

    // A new game is a new game.
    vs_computer(&mut core, Color::Black);
    for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    assert_eq!(easy(&core).wins, 2);
}

#[test]
fn everything_is_restored_after_a_restart() {
    let dir = MemoryStore::new();
    let before = {
        let mut core = core_in(&dir);
        core.set_settings(json!({ "theme": "dark", "level": 3 }))
            .unwrap();
        vs_computer(&mut core, Color::Black);
        play(&mut core, "h8");
        computer(&mut core, "i9");
        play(&mut core, "g7");
        computer(&mut core, "a1");
        core.game().undo();
        core.app_state()
    };
    let mut core = core_in(&dir);
    let after = core.app_state();
    assert_eq!(after, before);
    assert_eq!(after.game.moves, ["h8", "i9"]);
    assert!(after.game.can_redo, "redo survives a restart");
    // Ids keep growing across restarts so an answer from before never matches.
    assert!(
        core.game()
            .new_game(NewGameOptions::default())
            .unwrap()
            .game_id
            > before.game.game_id
    );
}

#[test]
fn a_damaged_save_gives_a_fresh_game_and_a_notice_once() {
    let dir = MemoryStore::new();
    {
        let mut core = core_in(&dir);
        core.set_settings(json!({ "sound": false })).unwrap();
        play(&mut core, "h8");
    }
    dir.put(GAME_FILE, b"{\"version\":1,\"gameId\":");
    let mut core = core_in(&dir);
    let state = core.app_state();
    assert_eq!(state.notices, vec![NOTICE_GAME_DAMAGED]);
    assert_eq!(state.game.move_number, 0);
    assert!(!state.settings.sound, "undamaged files are still used");
    assert!(dir.get("game.json.corrupt").is_some());
    assert_eq!(
        core.app_state().notices,
        Vec::<&str>::new(),
        "the notice is given once"
    );
}

#[test]
fn a_tampered_save_that_does_not_replay_is_damage_too() {
    let dir = MemoryStore::new();
    let session = json!({
        "version": 1, "gameId": 4, "mode": "local", "level": 2, "humanColor": "black",
        "statsCounted": false,
        "game": { "version": 1, "rule": "freestyle", "size": 15, "moves": ["h8", "h8"], "redo": [] }
    });
    dir.put(GAME_FILE, session.to_string());
    dir.put(SETTINGS_FILE, b"not json");
    dir.put(STATS_FILE, b"[]");
    let mut core = core_in(&dir);
    let state = core.app_state();
    assert_eq!(
        state.notices,
        vec![
            NOTICE_SETTINGS_DAMAGED,
            NOTICE_STATS_DAMAGED,
            NOTICE_GAME_DAMAGED
        ]
    );
    assert_eq!(state.game.move_number, 0);
    assert_eq!(state.settings, Settings::default());
    // The fresh files were written at once: the next start is clean.
    assert_eq!(core_in(&dir).app_state().notices, Vec::<&str>::new());
}

#[test]
fn settings_patches_persist_and_bad_ones_change_nothing() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let s = core
        .set_settings(json!({ "vibration": false, "size": 19 }))
        .unwrap();
    assert!(!s.vibration && s.size == 19);
    assert!(!core.vibration());
    assert_eq!(
        core.set_settings(json!({ "vibration": true, "size": 99 }))
            .unwrap_err()
            .code(),
        "badArgument"
    );
    assert!(!core.vibration());
    // The running game keeps its size; the next one uses the setting.
    assert_eq!(core.view().size, 15);
    assert_eq!(
        core.game()
            .new_game(NewGameOptions::default())
            .unwrap()
            .size,
        19
    );
    core.flush().unwrap().wait().unwrap();
    assert_eq!(core_in(&dir).settings(), core.settings());
}

#[test]
fn new_game_options_become_the_defaults() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let options: NewGameOptions = serde_json::from_value(json!({
        "mode": "computer", "rule": "renju", "size": 13, "level": 5, "humanColor": "white"
    }))
    .unwrap();
    let v = core.game().new_game(options).unwrap();
    assert_eq!(
        (v.game_id, v.size, v.rule, v.level),
        (2, 13, Rule::Renju, Level::Master)
    );
    assert!(v.computer_to_move);
    let s = core.settings();
    assert_eq!(
        (s.size, s.rule, s.level, s.human_color),
        (13, Rule::Renju, Level::Master, Color::White)
    );
    for bad in [
        json!({ "level": 6 }),
        json!({ "colour": "white" }),
        json!({ "mode": "online" }),
    ] {
        assert!(serde_json::from_value::<NewGameOptions>(bad).is_err());
    }
}

#[test]
fn records_round_trip_as_a_new_game() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    for p in ["h8", "i9", "g7"] {
        play(&mut core, p);
    }
    let before = core.view();
    for format in [RecordFormat::Moves, RecordFormat::Sgf] {
        let text = core.game().export_record(format).unwrap();
        let v = core.game().import_record(&text).unwrap();
        assert_eq!(v.moves, before.moves, "{format:?}: {text}");
        assert!(v.game_id > before.game_id);
    }
}

#[test]
fn a_new_analysis_or_a_change_of_position_cancels_the_running_one() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    let first = core.analysis().begin(id, n).unwrap();
    assert!(core.analysis().is_current(&first));
    // Restarted (a review step, say): the old job is cancelled, its rounds are not wanted.
    let second = core.analysis().begin(id, 0).unwrap();
    assert!(second.generation() > first.generation());
    assert!(first.cancelled());
    assert!(
        !core.analysis().is_current(&first),
        "a stale generation is dropped"
    );
    assert!(core.analysis().is_current(&second));

    // Every change of the position stops the running job; analysis itself stays on.
    for change in ["play", "undo", "redo", "import", "computer"] {
        let (id, n) = pos(&core);
        let job = core.analysis().begin(id, n).unwrap();
        match change {
            "play" => {
                play(&mut core, "i9");
            }
            "undo" => {
                core.game().undo();
            }
            "redo" => {
                core.game().redo();
            }
            "import" => {
                core.game().import_record("h8 i9 g7").unwrap();
            }
            _ => {
                vs_computer(&mut core, Color::Black);
                play(&mut core, "h8");
                let (id, n) = pos(&core);
                let job = core.analysis().begin(id, n).unwrap();
                computer(&mut core, "i9");
                assert!(job.cancelled(), "{change}");
                continue;
            }
        }
        assert!(job.cancelled(), "{change}");
        assert!(!core.analysis().is_current(&job), "{change}");
        assert!(core.analysis().is_on(), "{change}");
    }

    // A new game and stop_analysis turn it off.
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    core.analysis().stop();
    assert!(job.cancelled() && !core.analysis().is_on());
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    core.game().new_game(NewGameOptions::default()).unwrap();
    assert!(job.cancelled() && !core.analysis().is_on());
}

#[test]
fn analysis_of_a_position_that_is_not_shown_is_refused_and_changes_nothing() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let running = core.analysis().begin(id, n).unwrap();
    let before = core.view();
    for (game_id, move_number, code) in [
        (id + 1, n, "stale"),
        (id - 1, 0, "stale"),
        (id, n + 1, "stale"),
        (id, usize::MAX, "stale"),
    ] {
        let err = core.analysis().begin(game_id, move_number).unwrap_err();
        assert_eq!(err.code(), code, "{game_id} {move_number}");
    }
    assert!(
        core.analysis().is_current(&running),
        "a refusal cancels nothing"
    );
    play(&mut core, "l8");
    let (id, n) = pos(&core);
    assert_eq!(core.analysis().begin(id, n).unwrap_err().code(), "gameOver");
    // The positions before the end (review) can still be analysed.
    assert!(core.analysis().begin(id, n - 1).is_ok());
    assert_eq!(core.view().moves.len(), before.moves.len() + 1);
}

#[test]
fn an_analysis_round_reports_the_lines_from_blacks_point_of_view() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    // White to move, facing black's open four: white is lost whatever it plays.
    for p in ["h8", "a1", "i8", "a2", "j8", "a4", "g8"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    let mut engine = Engine::new(4);
    let update = job.run_round(&mut engine, 0).expect("not cancelled");
    assert_eq!(
        (update.generation, update.game_id, update.move_number),
        (job.generation(), id, n)
    );
    assert_eq!((update.round, update.done), (1, false));
    assert_eq!(update.to_move, Color::White);
    assert!(!update.lines.is_empty() && update.lines.len() <= ANALYSIS_LINES);
    let mut points: Vec<_> = update.lines.iter().map(|l| l.point.clone()).collect();
    points.dedup();
    assert_eq!(points.len(), update.lines.len(), "distinct first moves");
    assert!(update.black_score > 20_000, "black wins: {update:?}");
    assert!(update.black_win > 0.99);
    let best = &update.lines[0];
    assert_eq!(best.black_score, -best.score);
    assert_eq!(best.verdict.kind, "wins");
    assert_eq!(best.verdict.color, Some(Color::Black));
    assert_eq!(best.pv.first(), Some(&best.point));
    assert!(update.nodes > 0 && update.depth > 0);

    // A cancelled job sends nothing.
    core.analysis().stop();
    assert_eq!(job.run_round(&mut engine, 1), None);
}

#[test]
fn a_game_played_on_with_analysis_is_counted_as_analysed_and_saved_so() {
    let dir = MemoryStore::new();
    let analysed = |core: &AppCore| core.stats().levels()[1].analysed;
    {
        let mut core = core_in(&dir);
        vs_computer(&mut core, Color::Black);
        play(&mut core, "h8");
        computer(&mut core, "a1");
        assert!(!core.view().analysed, "analysis is off by default");
        let (id, n) = pos(&core);
        core.analysis().begin(id, n).unwrap();
        play(&mut core, "i8");
        assert!(core.view().analysed);
        computer(&mut core, "a2");
        core.analysis().stop();
        core.save_now().unwrap().wait().unwrap();
    }
    let mut core = core_in(&dir);
    assert!(core.view().analysed, "kept in the save");
    for (human, reply) in [("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    let easy = core.stats().levels()[1];
    assert_eq!((easy.wins, easy.analysed), (1, 1));

    // Without analysis the next game counts plainly; two players are never counted.
    vs_computer(&mut core, Color::Black);
    for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    assert_eq!((core.stats().levels()[1].wins, analysed(&core)), (2, 1));
}

#[test]
fn a_save_from_before_analysis_still_loads() {
    let dir = MemoryStore::new();
    dir.put(
        GAME_FILE,
        r#"{"version":1,"gameId":4,"mode":"computer","level":2,"humanColor":"black",
            "statsCounted":false,"gameUid":77,
            "game":{"version":1,"rule":"freestyle","size":15,"moves":["h8","i9"],"redo":[]}}"#,
    );
    let core = core_in(&dir);
    let v = core.view();
    assert_eq!((v.game_id, v.moves.len(), v.analysed), (4, 2, false));
}

/// A local game black wins on move 9 (h8 … l8 against a1 … a4).
fn local_five(core: &mut AppCore) {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
        play(core, p);
    }
}

/// A made-up engine review of `core`'s game: every move "best" but the 4th, a blunder.
fn made_up_review(core: &AppCore) -> Vec<wuzi::ai::review::MoveReview> {
    use wuzi::ai::review::{MoveClass, MoveReview};
    let size = core.game.size();
    core.game
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
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

fn renju_from(core: &mut AppCore, mode: Mode, human: Color, start: RenjuStart) -> GameView {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(mode),
            rule: Some(Rule::Renju),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
            renju_opening: Some(start),
            opening_rule: None,
        })
        .unwrap()
}

#[test]
fn a_renju_opening_is_moves_one_to_three_and_the_human_colour_decides_move_four() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let kagetsu = renju::by_name("Kagetsu").unwrap();
    let v = renju_from(
        &mut core,
        Mode::Computer,
        Color::Black,
        RenjuStart::Opening(kagetsu),
    );
    assert_eq!(v.moves, ["h8", "h9", "i9"]);
    assert_eq!(v.opening.as_ref().map(|o| o.code.as_str()), Some("4D"));
    assert_eq!(v.to_move, Color::White);
    assert!(v.computer_to_move && !v.can_undo);
    assert_eq!(
        core.settings().renju_opening,
        RenjuStart::Opening(kagetsu),
        "the choice is the default of the next game"
    );
    let v = computer(&mut core, "j10");
    assert!(!v.can_undo, "undo would take back only the computer's move");
    play(&mut core, "g7");
    computer(&mut core, "f6");
    let v = core.game().undo();
    assert_eq!(v.moves, ["h8", "h9", "i9", "j10"]);
    assert!(!v.can_undo);
    assert_eq!(core.game().undo().moves, ["h8", "h9", "i9", "j10"]);
    assert!(core
        .game()
        .export_record(RecordFormat::Moves)
        .unwrap()
        .starts_with("h8 h9 i9 j10"));

    // As white the human plays move 4 at once.
    let v = renju_from(
        &mut core,
        Mode::Computer,
        Color::White,
        RenjuStart::Opening(kagetsu),
    );
    assert!(!v.computer_to_move && !v.can_undo);
    let v = play(&mut core, "j10");
    assert!(v.computer_to_move && v.can_undo);
    assert_eq!(core.game().undo().moves, ["h8", "h9", "i9"]);
}

#[test]
fn two_players_cannot_undo_the_opening_stones() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let hogetsu = renju::by_name("Hogetsu").unwrap();
    let v = renju_from(
        &mut core,
        Mode::Local,
        Color::Black,
        RenjuStart::Opening(hogetsu),
    );
    assert_eq!(v.moves, ["h8", "i9", "i7"]);
    assert!(!v.can_undo && !v.computer_to_move);
    play(&mut core, "g9");
    assert_eq!(core.game().undo().moves, ["h8", "i9", "i7"]);
    let v = core.game().undo();
    assert_eq!(v.moves, ["h8", "i9", "i7"], "undo stops at the opening");
}

#[test]
fn a_random_opening_is_one_of_the_26_and_free_or_other_rules_start_empty() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let v = renju_from(&mut core, Mode::Local, Color::Black, RenjuStart::Random);
        let code = v.opening.expect("an opening").code;
        let opening = renju::by_name(&code).unwrap();
        let moves: Vec<String> = opening
            .moves(15)
            .iter()
            .map(|p| p.rif(15).to_string())
            .collect();
        assert_eq!(v.moves, moves);
        seen.insert(code);
    }
    assert!(seen.len() > 1, "drawn afresh for every game: {seen:?}");
    let v = renju_from(&mut core, Mode::Local, Color::Black, RenjuStart::Free);
    assert!(v.moves.is_empty() && v.opening.is_none());
    let v = core
        .game()
        .new_game(NewGameOptions {
            rule: Some(Rule::Standard),
            renju_opening: Some(RenjuStart::Random),
            ..NewGameOptions::default()
        })
        .unwrap();
    assert!(v.moves.is_empty() && v.opening.is_none());
}

#[test]
fn the_opening_is_saved_and_an_old_or_wrong_one_is_dropped() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
    let kagetsu = renju::by_name("4D").unwrap();
    renju_from(
        &mut core,
        Mode::Local,
        Color::Black,
        RenjuStart::Opening(kagetsu),
    );
    play(&mut core, "j10");
    core.save_now().unwrap().wait().unwrap();
    drop(core);
    let mut core = core_in(&dir);
    let v = core.view();
    assert_eq!(v.opening.as_ref().map(|o| o.code.as_str()), Some("4D"));
    assert_eq!(core.game().undo().moves, ["h8", "h9", "i9"]);
    assert!(!core.view().can_undo);
    core.save_now().unwrap().wait().unwrap();
    drop(core);

    // A save whose moves do not begin with its opening keeps the game, not the opening.
    let text = String::from_utf8(dir.get(GAME_FILE).unwrap()).unwrap();
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    saved["opening"] = json!("7I");
    dir.put(GAME_FILE, saved.to_string());
    let v = core_in(&dir).view();
    assert!(v.opening.is_none() && v.can_undo);
    // An old save has no opening at all.
    saved.as_object_mut().unwrap().remove("opening");
    dir.put(GAME_FILE, saved.to_string());
    let v = core_in(&dir).view();
    assert!(v.opening.is_none() && v.moves.len() == 3);
}

// ---------------------------------------------------------------------------------------------
// The game clock (issue 10 §4), on a fake time source moved by hand.

/// Moves the fake clock on by `ms`.
fn wait(clock: &Arc<std::sync::atomic::AtomicU64>, ms: u64) {
    clock.fetch_add(ms, Ordering::SeqCst);
}

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
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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

// ---------------------------------------------------------------------------------------------
// The position editor (issue 10 §5)

fn setup_request(rule: Rule, black: &[&str], white: &[&str], to_move: Color) -> SetupRequest {
    SetupRequest {
        rule,
        size: 15,
        black: black.iter().map(|s| (*s).to_string()).collect(),
        white: white.iter().map(|s| (*s).to_string()).collect(),
        to_move,
    }
}

fn players(mode: Mode, human: Color) -> SetupPlayers {
    SetupPlayers {
        mode,
        human_color: Some(human),
        level: Some(Level::Easy),
    }
}

#[test]
fn a_refused_setup_says_why_and_leaves_the_game_untouched() {
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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

// ---------------------------------------------------------------------------------------------
// A set-up position with the clock, the Swap / Swap2 opening rules, the save and the stats

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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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
    let dir = MemoryStore::new();
    let mut core = core_in(&dir);
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

// ---------------------------------------------------------------------------------------------
// The one path of a change of the position (`position.rs`), for every mutator.

/// The background work running before a change: a hint search, an analysis job, a review.
struct Running {
    hint: Option<Arc<std::sync::atomic::AtomicBool>>,
    analysis: crate::parts::analysis::AnalysisJob,
    review: Option<crate::parts::review::ReviewJob>,
}

/// Starts what can run in the current position (a hint only where the human is to move and no
/// other search runs, a review only with moves to review).
fn start_work(core: &mut AppCore, hint: bool) -> Running {
    let (id, n) = pos(core);
    let hint = hint.then(|| {
        core.search()
            .begin(SearchKind::Hint, id, n)
            .unwrap()
            .cancel_flag()
    });
    // The review first: it stops the analysis, which then starts again.
    let review = (n > 0).then(|| core.review().begin(id, n).unwrap());
    let analysis = core.analysis().begin(id, n).unwrap();
    Running {
        hint,
        analysis,
        review,
    }
}

/// What `name` must have done through the path: the search cancelled, the analysis job and
/// the review cancelled unless the stones stayed (`same_stones`), the clock synced with the
/// game and the game saved as it now stands.
fn after_change(
    core: &mut AppCore,
    dir: &MemoryStore,
    running: &Running,
    name: &str,
    same_stones: bool,
) {
    if let Some(hint) = &running.hint {
        assert!(hint.load(Ordering::SeqCst), "{name}: the hint goes on");
    }
    assert_eq!(
        running.analysis.cancelled(),
        !same_stones,
        "{name}: the analysis job"
    );
    if let Some(review) = &running.review {
        assert_eq!(
            review.cancel_flag().load(Ordering::SeqCst),
            !same_stones,
            "{name}: the review"
        );
    }
    let v = core.view();
    let under_way = !v.moves.is_empty() || v.setup.is_some();
    assert_eq!(
        v.clock.running,
        under_way && v.result.is_none(),
        "{name}: the clock"
    );
    core.flush().unwrap().wait().unwrap();
    let saved = AppCore::load(dir.clone()).view();
    assert_eq!(
        (&saved.game_id, &saved.moves, &saved.swap, &saved.result),
        (&v.game_id, &v.moves, &v.swap, &v.result),
        "{name}: the save"
    );
}

/// The set-up position of the `start_setup` case.
fn a_setup() -> SetupRequest {
    serde_json::from_value(json!({ "rule": "renju", "size": 15, "black": ["h8", "i9"],
        "white": ["h9"], "toMove": "white" }))
    .unwrap()
}

/// A new game between two players with `opening_rule`.
fn local_game(core: &mut AppCore, opening_rule: OpeningRule) {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            rule: Some(Rule::Freestyle),
            opening_rule: Some(opening_rule),
            ..Default::default()
        })
        .unwrap();
}

#[test]
fn every_change_of_the_position_runs_every_hook() {
    type Time = Arc<std::sync::atomic::AtomicU64>;
    // Each mutator, from a position its case sets up; `true` where the stones stay.
    type Case = (
        &'static str,
        bool,
        fn(&mut AppCore),
        fn(&mut AppCore, &Time),
    );
    let cases: [Case; 10] = [
        (
            "play",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                play(c, "i9");
            },
        ),
        (
            "undo",
            false,
            |c| {
                play(c, "h8");
                play(c, "i9");
            },
            |c, _| {
                c.game().undo();
            },
        ),
        (
            "redo",
            false,
            |c| {
                play(c, "h8");
                play(c, "i9");
                c.game().undo();
            },
            |c, _| {
                c.game().redo();
            },
        ),
        (
            "new_game",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                c.game().new_game(NewGameOptions::default()).unwrap();
            },
        ),
        (
            "import_record",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                c.game().import_record("h8 i9 j10").unwrap();
            },
        ),
        (
            "start_setup",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                let players = SetupPlayers {
                    mode: Mode::Local,
                    human_color: None,
                    level: None,
                };
                c.game().start_setup(&a_setup(), &players).unwrap();
            },
        ),
        (
            "finish_move",
            false,
            |c| {
                vs_computer(c, Color::Black);
                play(c, "h8");
            },
            |c, _| {
                let (id, n) = pos(c);
                let job = c.search().begin(SearchKind::Move, id, n).unwrap();
                c.search().finish_move(&job, &answer("i9", 15)).unwrap();
            },
        ),
        (
            "finish_opening",
            false,
            |c| {
                c.game()
                    .new_game(NewGameOptions {
                        mode: Some(Mode::Computer),
                        human_color: Some(Color::Black),
                        rule: Some(Rule::Freestyle),
                        opening_rule: Some(OpeningRule::Swap),
                        ..Default::default()
                    })
                    .unwrap();
                for p in ["h8", "h9", "i9"] {
                    play(c, p);
                }
            },
            |c, _| {
                let (id, n) = pos(c);
                let job = c.search().begin(SearchKind::Move, id, n).unwrap();
                let action = crate::parts::search::OpeningAction {
                    choice: Some(Choice::White),
                    stones: vec![Point::from_rif("j10", 15).unwrap()],
                };
                let answer = crate::parts::search::ComputerAnswer::Opening(Some(action));
                c.search().finish_computer(&job, &answer).unwrap();
            },
        ),
        (
            "choose_opening",
            true,
            |c| {
                local_game(c, OpeningRule::Swap);
                for p in ["h8", "h9", "i9"] {
                    play(c, p);
                }
            },
            |c, _| {
                let (id, n) = pos(c);
                c.game().choose_opening(Choice::White, id, n).unwrap();
            },
        ),
        (
            "check_flag",
            false,
            |c| {
                c.set_settings(json!({ "clockMinutes": 5 })).unwrap();
                local_game(c, OpeningRule::None);
                play(c, "h8");
            },
            |c, time| {
                wait(time, 300_001);
                assert!(c.clock().check_flag(), "the flag falls");
            },
        ),
    ];
    for (name, same_stones, before, change) in cases {
        let dir = MemoryStore::new();
        let (mut core, time) = timed_core_in(&dir);
        local_game(&mut core, OpeningRule::None);
        before(&mut core);
        // A hint can run whenever the human is to move and no choice is due.
        let v = core.view();
        let hint = !v.computer_to_move && v.swap.as_ref().map_or(true, |s| s.choices.is_empty());
        let running = start_work(&mut core, hint);
        change(&mut core, &time);
        assert_ne!(core.view(), v, "{name} changed nothing");
        after_change(&mut core, &dir, &running, name, same_stones);
    }
}
