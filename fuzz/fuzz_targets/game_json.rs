//! Feeds arbitrary text to the reader of the engine's save format, the `game` object of the
//! app's game.json (`SavedGame` through serde, then `Game::from_saved`). It must never panic,
//! and whatever it loads must be a legal game that saves and loads back as the same game:
//! load → save → load gives the same position, history and redo list, and saving is stable.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::{Game, SavedGame};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(saved) = serde_json::from_str::<SavedGame>(text) else {
        return;
    };
    let game = match Game::from_saved(&saved) {
        Ok(game) => game,
        Err(e) => {
            // Every error can be shown to a user (the app logs it and moves the file aside).
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let resaved = game.to_saved();
    let json = serde_json::to_string(&resaved).expect("a saved game serializes");
    let read: SavedGame = serde_json::from_str(&json).expect("written JSON reads");
    assert_eq!(read, resaved, "{json}");
    let again = Game::from_saved(&read).expect("a saved game loads");
    assert_eq!((again.rule(), again.size()), (game.rule(), game.size()));
    assert_eq!(again.setup(), game.setup(), "{json}");
    assert_eq!(again.board(), game.board(), "{json}");
    assert_eq!(again.moves(), game.moves(), "{json}");
    assert_eq!(again.redo_moves(), game.redo_moves(), "{json}");
    assert_eq!(again.to_move(), game.to_move(), "{json}");
    assert_eq!(again.result(), game.result(), "{json}");
    assert_eq!(again.to_saved(), resaved, "saving is stable: {json}");
    // What was read is what is saved, point for point, once spelled the canonical way.
    assert_eq!(resaved.moves.len(), saved.moves.len());
    assert_eq!(resaved.redo.len(), saved.redo.len());
});
