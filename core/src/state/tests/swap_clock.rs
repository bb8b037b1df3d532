//! The clock through a Swap / Swap2 opening phase: each role's time, a choice's time, a flag in
//! the phase, the computer's budget, and saves of either branch.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use serde_json::json;
use wuzi::{Color, Level};

use crate::parts::clock::TimeSource;
use crate::parts::opening::{Choice, OpeningRule};
use crate::parts::search::{ComputerAnswer, OpeningTask, SearchKind};
use crate::settings::Mode;
use crate::state::AppCore;
use crate::store::{MemoryStore, GAME_FILE};

use super::{action, choose, core_in, pos, stage, swap_game, try_play, wait};

/// The state saved in `dir` with a time limit of `minutes` a side, and the handle that moves
/// its clock.
fn clocked_core_in(dir: &MemoryStore, minutes: u32) -> (AppCore, Arc<AtomicU64>) {
    let (time, ms) = TimeSource::fake();
    let mut core = AppCore::load_with_time(dir.clone(), time);
    core.set_settings(json!({ "clockMinutes": minutes }))
        .unwrap();
    (core, ms)
}

#[test]
fn the_clock_counts_each_players_time_through_a_swap2_phase_and_follows_them_to_their_colours() {
    let dir = MemoryStore::new();
    let (mut core, ms) = clocked_core_in(&dir, 5);
    swap_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
    let v = try_play(&mut core, "h8").unwrap();
    // The opener places white's stone 2 on its own (black's) time.
    assert_eq!(
        (v.to_move, v.clock.side, v.clock.running),
        (Color::White, Some(Color::Black), true)
    );
    wait(&ms, 1000);
    try_play(&mut core, "h9").unwrap();
    wait(&ms, 2000);
    let v = try_play(&mut core, "i9").unwrap();
    assert_eq!(v.clock.side, Some(Color::White), "the chooser thinks");
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 0));
    // The choice to place two is thought over on the chooser's time, and is stone 4's.
    wait(&ms, 4000);
    choose(&mut core, Choice::PlaceTwo).unwrap();
    wait(&ms, 1000);
    let v = try_play(&mut core, "g7").unwrap();
    assert_eq!(v.clock.side, Some(Color::White), "still the chooser");
    wait(&ms, 500);
    let v = try_play(&mut core, "j10").unwrap();
    assert_eq!(v.clock.side, Some(Color::Black), "the opener chooses");
    assert_eq!(
        v.clock.move_ms,
        [Some(0), Some(1000), Some(2000), Some(5000), Some(500)]
    );
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 5500));
    // The opener takes white and plays stone 6: its time goes with it to white.
    wait(&ms, 3000);
    let v = choose(&mut core, Choice::White).unwrap();
    assert_eq!(
        (v.to_move, v.clock.side),
        (Color::White, Some(Color::White))
    );
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (5500, 6000));
    assert_eq!(
        (v.clock.black_left_ms, v.clock.white_left_ms),
        (Some(294_500), Some(294_000))
    );
    wait(&ms, 1000);
    let v = try_play(&mut core, "k11").unwrap();
    assert_eq!(v.clock.move_ms[5], Some(4000), "the choice and stone 6");
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (5500, 7000));
    // Saved and loaded, the times are still the players'.
    drop(core);
    let (time, _) = TimeSource::fake();
    let core = AppCore::load_with_time(dir.clone(), time);
    let back = core.view().clock;
    assert_eq!(
        (back.black_ms, back.white_ms, back.move_ms.len()),
        (5500, 7000, 6)
    );
}

#[test]
fn a_swap_choice_is_its_choosers_time_and_undo_in_the_phase_gives_none_back() {
    let dir = MemoryStore::new();
    let (mut core, ms) = clocked_core_in(&dir, 5);
    swap_game(&mut core, Mode::Local, OpeningRule::Swap, Color::Black);
    try_play(&mut core, "h8").unwrap();
    wait(&ms, 1000);
    try_play(&mut core, "h9").unwrap();
    wait(&ms, 2000);
    try_play(&mut core, "a1").unwrap();
    // A mistaken stone 3 taken back: its time stays the opener's, and the chooser's
    // half second since, on the chooser's clock, stays the chooser's.
    wait(&ms, 500);
    let v = core.game().undo();
    assert_eq!(v.moves.len(), 2);
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (3000, 500));
    assert_eq!(v.clock.side, Some(Color::Black));
    wait(&ms, 500);
    try_play(&mut core, "i9").unwrap();
    // The chooser takes black: the opener, now white, plays stone 4; the times change
    // sides with the players, and the choice's 4 s are the chooser's (black's) though it
    // plays no stone on them.
    wait(&ms, 4000);
    let v = choose(&mut core, Choice::Black).unwrap();
    assert_eq!(
        (v.to_move, v.clock.side),
        (Color::White, Some(Color::White))
    );
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (4500, 3500));
    assert_eq!(
        v.clock.move_ms,
        [Some(0), Some(1000), Some(500)],
        "stone 3's second try; the first one's 2 s stay on the total"
    );
    wait(&ms, 700);
    let v = try_play(&mut core, "j10").unwrap();
    assert_eq!(v.clock.move_ms[3], Some(700));
    assert_eq!((v.clock.black_ms, v.clock.white_ms), (4500, 4200));
}

#[test]
fn a_flag_falls_in_the_opening_phase_for_whoever_acts() {
    // Between two players: the chooser thinks too long over its choice.
    let dir = MemoryStore::new();
    let (mut core, ms) = clocked_core_in(&dir, 5);
    swap_game(&mut core, Mode::Local, OpeningRule::Swap2, Color::Black);
    for p in ["h8", "h9", "i9"] {
        try_play(&mut core, p).unwrap();
    }
    wait(&ms, 300_000);
    let before = core.view();
    assert!(
        before.result.is_none(),
        "not yet: the flag falls when asked"
    );
    let err = choose(&mut core, Choice::PlaceTwo).unwrap_err();
    assert_eq!(err.code(), "gameOver");
    let v = core.view();
    let result = v.result.clone().unwrap();
    assert_eq!(
        (result.winner, result.reason, v.clock.flag),
        (Some(Color::Black), "time", Some(Color::White)),
        "the chooser (white's time) lost to the opener"
    );
    assert_eq!(stage(&v), "chooseAfterThree");
    assert!(!v.can_undo);

    // Against the computer, which thinks too long over its choice: the human opener
    // wins, and the computer's answer is not played.
    let dir = MemoryStore::new();
    let (mut core, ms) = clocked_core_in(&dir, 5);
    swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
    for p in ["h8", "h9", "i9"] {
        try_play(&mut core, p).unwrap();
    }
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.opening, Some(OpeningTask::AfterThree));
    wait(&ms, 300_001);
    let err = core
        .search()
        .finish_computer(
            &job,
            &ComputerAnswer::Opening(Some(action(Some(Choice::Black), &[]))),
        )
        .unwrap_err();
    assert_eq!(err.code(), "gameOver");
    let v = core.view();
    assert_eq!(v.result.as_ref().unwrap().winner, Some(Color::Black));
    assert_eq!((stage(&v), v.moves.len()), ("chooseAfterThree", 3));
    let easy = core.stats().levels()[1];
    assert_eq!((easy.wins, easy.losses), (1, 0), "the human won on time");
}

#[test]
fn the_computers_opening_decision_keeps_within_its_clock() {
    let dir = MemoryStore::new();
    let (mut core, ms) = clocked_core_in(&dir, 5);
    swap_game(&mut core, Mode::Computer, OpeningRule::Swap2, Color::Black);
    for p in ["h8", "h9", "i9"] {
        try_play(&mut core, p).unwrap();
    }
    let master = Level::Master.default_limits();
    let (id, n) = pos(&core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert_eq!(job.limits, master, "plenty of time: Master's own budget");
    core.search().cancel();
    // Two seconds left on the chooser's clock: the decision takes less than Master's.
    wait(&ms, 298_000);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    assert!(job.limits.time < master.time, "{:?}", job.limits);
    // Its stones come at one instant: the thinking is the first one's.
    let v = core
        .search()
        .finish_computer(
            &job,
            &ComputerAnswer::Opening(Some(action(Some(Choice::PlaceTwo), &["g7", "j10"]))),
        )
        .unwrap();
    assert_eq!(&v.clock.move_ms[3..], [Some(298_000), Some(0)]);
    assert_eq!(v.clock.side, Some(Color::Black), "the human opener chooses");
}

#[test]
fn saves_of_either_branch_load_and_a_damaged_clock_or_phase_drops_alone() {
    let dir = MemoryStore::new();
    let save = |version: u32, swap: serde_json::Value, clock: serde_json::Value| {
        let mut file = json!({ "version": version, "gameId": 4, "mode": "local", "level": 2,
            "humanColor": "black", "statsCounted": false, "gameUid": 7,
            "game": { "version": 1, "rule": "freestyle", "size": 15,
                      "moves": ["h8", "h9"], "redo": [] } });
        if !swap.is_null() {
            file["swap"] = swap;
        }
        if !clock.is_null() {
            file["clock"] = clock;
        }
        dir.put(GAME_FILE, file.to_string());
        core_in(&dir).view()
    };
    let swap = json!({ "phase": { "rule": "swap2", "stage": "placeThree" }, "human": "opener" });
    let clock = json!({ "limit": { "baseMs": 300_000, "incrementMs": 0 },
                        "moves": [0, 1500], "pendingMs": 500 });
    // Version 1 from main, and from the Swap branch (its phase, no clock).
    let v = save(1, serde_json::Value::Null, serde_json::Value::Null);
    assert_eq!((v.swap, v.moves.len(), v.clock.limit), (None, 2, None));
    let v = save(1, swap.clone(), serde_json::Value::Null);
    assert_eq!(
        (stage(&v), v.clock.move_ms.as_slice()),
        ("placeThree", &[None, None][..])
    );
    // Version 2 from the clock branch (no phase), and with both.
    let v = save(2, serde_json::Value::Null, clock.clone());
    assert_eq!((v.swap, v.clock.white_ms), (None, 1500));
    let v = save(2, swap.clone(), clock.clone());
    assert_eq!(stage(&v), "placeThree");
    // Both stones were the opener's, and its third is under way.
    assert_eq!(
        (v.clock.black_ms, v.clock.white_ms, v.clock.side),
        (2000, 0, Some(Color::Black))
    );
    // A damaged clock leaves the phase, a damaged phase the clock, and the game stays.
    let v = save(2, swap.clone(), json!({ "moves": "x" }));
    assert_eq!(
        (stage(&v), v.clock.limit, v.moves.len()),
        ("placeThree", None, 2)
    );
    let v = save(2, json!({ "phase": 7 }), clock);
    assert_eq!((v.swap, v.clock.white_ms, v.moves.len()), (None, 1500, 2));
}
