//! Renju openings (issue 10 §3): the opening's stones, undo, the random choice, the save.

use serde_json::json;
use wuzi::openings::renju;
use wuzi::{Color, Rule};

use crate::settings::{Mode, RenjuStart};
use crate::state::{NewGameOptions, RecordFormat};
use crate::store::GAME_FILE;

use super::{computer, core_in, fresh, play, renju_from};

#[test]
fn a_renju_opening_is_moves_one_to_three_and_the_human_colour_decides_move_four() {
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
    let (dir, mut core) = fresh();
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
