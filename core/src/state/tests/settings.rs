//! Settings and the new game options that become the defaults.

use serde_json::json;
use wuzi::{Color, Level, Rule};

use crate::state::NewGameOptions;

use super::{core_in, fresh};

#[test]
fn settings_patches_persist_and_bad_ones_change_nothing() {
    let (dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
