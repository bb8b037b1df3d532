//! Undo and redo, against the computer and between two players.

use wuzi::Color;

use super::{computer, fresh, play, two_players, vs_computer};

#[test]
fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
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
    let (_dir, mut core) = fresh();
    two_players(&mut core);
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
