//! The Swap and Swap2 opening rules (issue 10 §3) in the app: the phase played by two players
//! and against the computer, the engine's roles, saves of the phase, refused requests.

use serde_json::json;
use wuzi::{Color, Engine, Rule};

use crate::error::Result;
use crate::parts::opening::{Choice, OpeningRule, Side};
use crate::parts::search::{ComputerAnswer, OpeningAction, OpeningTask, SearchKind};
use crate::settings::{Mode, Settings};
use crate::state::{AppCore, NewGameOptions, RecordFormat};
use crate::store::{MemoryStore, GAME_FILE, SETTINGS_FILE};
use crate::view::GameView;

use super::{action, answer, choose, core_in, fresh, pos, stage, swap_game, try_play};

/// The computer's turn, with `action` standing in for the engine's decision.
fn computer_acts(core: &mut AppCore, action: OpeningAction) -> GameView {
    let (id, n) = pos(core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert!(job.opening.is_some(), "an opening task, not a move");
    core.search()
        .finish_computer(&job, &ComputerAnswer::Opening(Some(action)))
        .unwrap()
}

/// The computer's ordinary move `best`.
fn computer_moves(core: &mut AppCore, best: &str) -> GameView {
    let (id, n) = pos(core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.opening, None, "an ordinary move");
    core.search()
        .finish_computer(&job, &ComputerAnswer::Move(answer(best, 15)))
        .unwrap()
}

/// `result` is refused with `code` and the game on screen did not change.
fn refused(core: &mut AppCore, code: &str, result: impl FnOnce(&mut AppCore) -> Result<GameView>) {
    let before = core.view();
    let err = result(core).unwrap_err();
    assert_eq!(err.code(), code, "{err}");
    assert_eq!(core.view(), before);
}

#[test]
fn the_opening_rule_is_a_setting_and_renju_keeps_its_own_openings() {
    let (dir, mut core) = fresh();
    assert_eq!(core.settings().opening_rule, OpeningRule::None);
    assert_eq!(core.view().swap, None, "no opening rule by default");
    core.set_settings(json!({ "openingRule": "swap2", "mode": "local" }))
        .unwrap();
    drop(core);
    let first = MemoryStore::new();
    first.put(SETTINGS_FILE, dir.get(SETTINGS_FILE).unwrap());
    let v = core_in(&first).view();
    assert_eq!(
        stage(&v),
        "placeThree",
        "the first game follows the settings"
    );
    let mut core = core_in(&dir);
    let v = swap_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
    assert_eq!(core.settings().opening_rule, OpeningRule::Swap2);
    let swap = v.swap.unwrap();
    assert_eq!(
        serde_json::to_value(&swap).unwrap(),
        json!({ "rule": "swap2", "stage": "placeThree", "actor": "opener", "you": null,
                "youAct": true, "choices": [], "black": null, "stones": 0 })
    );
    let v = core
        .game()
        .new_game(NewGameOptions {
            rule: Some(Rule::Renju),
            ..NewGameOptions::default()
        })
        .unwrap();
    assert_eq!(v.swap, None, "renju ignores Swap2");
    assert_eq!(
        core.settings().opening_rule,
        OpeningRule::Swap2,
        "kept for later"
    );
    let s = core.set_settings(json!({ "openingRule": "swap" })).unwrap();
    assert_eq!(s.opening_rule, OpeningRule::Swap);
    assert!(core
        .set_settings(json!({ "openingRule": "swap3" }))
        .is_err());
    // Settings from before the opening rules still load, without one.
    let old: Settings = serde_json::from_value(json!({ "mode": "local" })).unwrap();
    assert_eq!(old.opening_rule, OpeningRule::None);
}

#[test]
fn two_players_play_a_swap2_phase_with_taps_and_choices() {
    let (_dir, mut core) = fresh();
    swap_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
    refused(&mut core, "noChoiceDue", |c| choose(c, Choice::Black));
    try_play(&mut core, "h8").unwrap();
    try_play(&mut core, "h9").unwrap();
    // A mistaken stone is corrected with undo and redo, within the stones due.
    let v = try_play(&mut core, "a1").unwrap();
    assert_eq!(stage(&v), "chooseAfterThree");
    assert!(v.can_undo && !v.can_redo);
    let v = core.game().undo();
    assert_eq!(
        (stage(&v), v.moves.len(), v.can_redo),
        ("placeThree", 2, true)
    );
    let v = core.game().redo();
    assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
    core.game().undo();
    let v = try_play(&mut core, "i9").unwrap();
    assert_eq!(stage(&v), "chooseAfterThree");
    let swap = v.swap.unwrap();
    assert_eq!(
        (swap.actor, swap.choices.as_slice()),
        (
            Some(Side::Chooser),
            &[Choice::Black, Choice::White, Choice::PlaceTwo][..]
        )
    );
    assert!(!v.computer_to_move);
    // A stone while the choice is due, or a hint, is refused.
    refused(&mut core, "choiceDue", |c| try_play(c, "j10"));
    let (id, n) = pos(&core);
    assert_eq!(
        core.search()
            .begin(SearchKind::Hint, id, n)
            .unwrap_err()
            .code(),
        "choiceDue"
    );
    let v = choose(&mut core, Choice::PlaceTwo).unwrap();
    assert_eq!(stage(&v), "placeTwo");
    assert!(!v.can_undo, "the choice is made: stone 3 stays");
    try_play(&mut core, "g7").unwrap();
    let v = try_play(&mut core, "j10").unwrap();
    assert_eq!(stage(&v), "chooseColour");
    assert_eq!(
        v.swap.as_ref().unwrap().choices,
        [Choice::Black, Choice::White]
    );
    refused(&mut core, "badArgument", |c| choose(c, Choice::PlaceTwo));
    let v = choose(&mut core, Choice::White).unwrap();
    let swap = v.swap.as_ref().unwrap();
    assert_eq!(
        (swap.stage, swap.black, swap.stones),
        ("done", Some(Side::Chooser), 5)
    );
    assert!(!v.can_undo, "the opening stones stay");
    refused(&mut core, "noChoiceDue", |c| choose(c, Choice::Black));
    // The game goes on normally: white plays stone 6, and undo stops at the opening.
    let v = try_play(&mut core, "k11").unwrap();
    assert_eq!(v.moves, ["h8", "h9", "i9", "g7", "j10", "k11"]);
    assert!(v.can_undo);
    let v = core.game().undo();
    assert!(!v.can_undo && v.moves.len() == 5);
    assert_eq!(
        core.game().export_record(RecordFormat::Moves).unwrap(),
        "h8 h9 i9 g7 j10",
        "the record keeps the opening stones in order"
    );
    assert!(core
        .game()
        .export_record(RecordFormat::Sgf)
        .unwrap()
        .contains(";B[hh];W[hg];B[ig]"));
}

#[test]
fn against_the_computer_the_human_opens_as_black_and_the_computer_answers() {
    let (_dir, mut core) = fresh();
    let v = swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
    let swap = v.swap.unwrap();
    assert_eq!((swap.you, swap.you_act), (Some(Side::Opener), true));
    try_play(&mut core, "h8").unwrap();
    let v = try_play(&mut core, "h9").unwrap();
    assert!(
        !v.computer_to_move,
        "the human placed white's stone 2 and places stone 3"
    );
    let v = try_play(&mut core, "i9").unwrap();
    assert!(v.computer_to_move, "the computer chooses now");
    assert!(v.can_undo, "until it has chosen, stone 3 may be taken back");
    refused(&mut core, "notYourTurn", |c| choose(c, Choice::Black));
    // The computer places two more and hands the choice back.
    let v = computer_acts(&mut core, action(Some(Choice::PlaceTwo), &["g7", "j10"]));
    assert_eq!(stage(&v), "chooseColour");
    assert!(!v.computer_to_move && !v.can_undo);
    assert!(v.swap.as_ref().unwrap().you_act);
    // The human takes white and plays stone 6.
    let v = choose(&mut core, Choice::White).unwrap();
    assert_eq!((v.human_color, v.to_move), (Color::White, Color::White));
    assert!(!v.computer_to_move);
    try_play(&mut core, "k11").unwrap();
    let v = computer_moves(&mut core, "a1");
    assert_eq!(v.moves, ["h8", "h9", "i9", "g7", "j10", "k11", "a1"]);
    let v = core.game().undo();
    assert_eq!(v.moves.len(), 5, "the pair after the opening");
    assert!(!v.can_undo);
}

#[test]
fn the_computer_opens_when_the_human_plays_white_and_the_stats_count_the_colour_chosen() {
    let (_dir, mut core) = fresh();
    let v = swap_game(&mut core, Mode::Computer, OpeningRule::Swap, Color::White);
    assert!(v.computer_to_move);
    refused(&mut core, "notYourTurn", |c| try_play(c, "h8"));
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.opening, Some(OpeningTask::Propose));
    core.search()
        .finish_computer(
            &job,
            &ComputerAnswer::Opening(Some(action(None, &["h8", "h9", "i9"]))),
        )
        .unwrap();
    let v = core.view();
    assert_eq!(stage(&v), "chooseAfterThree");
    assert_eq!(
        v.swap.as_ref().unwrap().choices,
        [Choice::Black, Choice::White]
    );
    assert!(!v.computer_to_move && !v.can_undo);
    // Taking black hands stone 4 to the computer, now white.
    let v = choose(&mut core, Choice::Black).unwrap();
    assert_eq!(v.human_color, Color::Black);
    assert!(v.computer_to_move);
    computer_moves(&mut core, "a1");
    for (b, w) in [("j10", "a2"), ("k11", "a3")] {
        try_play(&mut core, b).unwrap();
        computer_moves(&mut core, w);
    }
    let v = try_play(&mut core, "g7").unwrap();
    assert_eq!(v.result.as_ref().unwrap().winner, Some(Color::Black));
    let easy = core.stats().levels()[1];
    assert_eq!((easy.wins, easy.losses), (1, 0), "the human won as black");
}

#[test]
fn a_game_saved_in_the_opening_phase_loads_back_into_it() {
    let dir = MemoryStore::new();
    let before = {
        let mut core = core_in(&dir);
        swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::White);
        computer_acts(&mut core, action(None, &["h8", "h9", "i9"]));
        choose(&mut core, Choice::PlaceTwo).unwrap();
        try_play(&mut core, "g7").unwrap();
        core.view()
    };
    let mut core = core_in(&dir);
    assert_eq!(core.view(), before);
    assert_eq!(stage(&before), "placeTwo");
    let v = try_play(&mut core, "j10").unwrap();
    assert!(
        v.computer_to_move,
        "the computer (the opener) chooses a colour"
    );
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.opening, Some(OpeningTask::Colour));
    // It keeps white and plays stone 6: the human is black, to move.
    let v = core
        .search()
        .finish_computer(
            &job,
            &ComputerAnswer::Opening(Some(action(Some(Choice::White), &["k11"]))),
        )
        .unwrap();
    assert_eq!((v.human_color, v.to_move), (Color::Black, Color::Black));
    assert_eq!(v.swap.as_ref().unwrap().stones, 5, "k11 is the game's move");
    drop(core);
    let core = core_in(&dir);
    let v = core.view();
    assert_eq!((v.human_color, v.moves.len()), (Color::Black, 6));
    assert!(!v.can_undo, "only the computer's move after the opening");
}

#[test]
fn a_saved_phase_that_does_not_fit_is_dropped_and_the_game_loads() {
    let dir = MemoryStore::new();
    let save = |swap: serde_json::Value| {
        dir.put(
            GAME_FILE,
            json!({ "version": 1, "gameId": 4, "mode": "local", "level": 2,
                "humanColor": "black", "statsCounted": false, "gameUid": 7, "swap": swap,
                "game": { "version": 1, "rule": "freestyle", "size": 15,
                          "moves": ["h8", "i9"], "redo": [] } })
            .to_string(),
        );
    };
    let phase = |stage: serde_json::Value| json!({ "phase": { "rule": "swap2", "stage": stage }, "human": "opener" });
    save(phase(json!("placeThree")));
    assert_eq!(stage(&core_in(&dir).view()), "placeThree");
    for bad in [
        phase(json!("chooseColour")),
        phase(json!("sideways")),
        json!(42),
    ] {
        save(bad.clone());
        let v = core_in(&dir).view();
        assert_eq!((v.swap, v.moves.len()), (None, 2), "{bad}");
    }
}

#[test]
fn bad_requests_in_the_phase_change_nothing() {
    let (_dir, mut core) = fresh();
    swap_game(&mut core, Mode::Local, OpeningRule::Swap, Color::Black);
    try_play(&mut core, "h8").unwrap();
    refused(&mut core, "occupied", |c| try_play(c, "h8"));
    refused(&mut core, "offBoard", |c| try_play(c, "z99"));
    refused(&mut core, "stale", |c| {
        c.game().choose_opening(Choice::Black, 99, 1)
    });
    try_play(&mut core, "h9").unwrap();
    try_play(&mut core, "i9").unwrap();
    refused(&mut core, "badArgument", |c| choose(c, Choice::PlaceTwo));
    refused(&mut core, "choiceDue", |c| try_play(c, "j10"));
    let v = core.game().redo();
    assert_eq!(v.moves.len(), 3, "nothing to redo");
}

/// The real engine in each of the computer's roles (Master's budget, about a second each).
#[test]
fn the_engine_plays_every_role_of_a_swap2_opening() {
    let (_dir, mut core) = fresh();
    let mut engine = Engine::new(8);
    swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::White);
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    let v = core
        .search()
        .finish_computer(&job, &job.play(&mut engine))
        .unwrap();
    assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
    choose(&mut core, Choice::PlaceTwo).unwrap();
    try_play(&mut core, "a1").unwrap();
    try_play(&mut core, "a15").unwrap();
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    let v = core
        .search()
        .finish_computer(&job, &job.play(&mut engine))
        .unwrap();
    let swap = v.swap.unwrap();
    assert_eq!(swap.stage, "done");
    // Whichever colour it took, the game goes on with the right side to move.
    assert_eq!(v.computer_to_move, v.to_move != v.human_color);
    assert!(v.moves.len() == 5 || v.moves.len() == 6);

    // As the chooser facing the human's three stones.
    swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
    for p in ["h8", "i9", "i7"] {
        try_play(&mut core, p).unwrap();
    }
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.opening, Some(OpeningTask::AfterThree));
    let v = core
        .search()
        .finish_computer(&job, &job.play(&mut engine))
        .unwrap();
    assert!(
        ["done", "chooseColour"].contains(&stage(&v)),
        "{:?}",
        v.swap
    );
}
