//! Saving and loading: a finished game counted once, a restart, damaged and tampered saves.

use serde_json::json;
use wuzi::Color;

use crate::parts::search::SearchKind;
use crate::settings::Settings;
use crate::state::{
    AppCore, NewGameOptions, NOTICE_GAME_DAMAGED, NOTICE_SETTINGS_DAMAGED, NOTICE_STATS_DAMAGED,
};
use crate::store::{MemoryStore, GAME_FILE, SETTINGS_FILE, STATS_FILE};

use super::{computer, core_in, fresh, play, pos, two_players, vs_computer};

#[test]
fn a_finished_game_is_counted_once() {
    let (_dir, mut core) = fresh();
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
    two_players(&mut core);
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
