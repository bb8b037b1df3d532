//! The computer's and the hint's searches: one at a time, only on the computer's turn, stale
//! answers dropped; the engine slot they run on.

use std::sync::atomic::Ordering;

use crate::parts::engine::EngineSlot;
use crate::parts::search::SearchKind;
use crate::state::NewGameOptions;

use super::{answer, computer, fresh, play, pos, two_players};

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
fn the_computer_moves_only_on_its_turn_and_one_search_at_a_time() {
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
    two_players(&mut core);
    let (id, n) = pos(&core);
    let hint = core.search().begin(SearchKind::Hint, id, n).unwrap();
    play(&mut core, "h8");
    assert!(hint.cancel.load(Ordering::SeqCst));
    assert!(core.search().finish_hint(&hint, &answer("h8", 15)).is_err());
}
