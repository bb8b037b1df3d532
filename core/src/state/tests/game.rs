//! The game itself: moves, the view and its contract, refused requests, renju's forbidden
//! points.

use serde_json::json;
use wuzi::openings::renju;
use wuzi::{Color, Level, Rule};

use crate::error::Result;
use crate::settings::{Mode, RenjuStart, Settings};
use crate::state::NewGameOptions;
use crate::view::GameView;

use super::{computer, core_in, fresh, play, pos, renju_from, two_players};

#[test]
fn black_without_a_legal_point_ends_the_game_as_a_draw() {
    let (dir, mut core) = fresh();
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
    let text = include_str!("../../../../tests/fixtures/renju-no-legal-move.txt");
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
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
    two_players(&mut core);
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
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
