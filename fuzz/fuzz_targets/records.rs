//! Feeds arbitrary text to the record readers (move strings and SGF). They must never panic,
//! and whatever they accept must be a legal game that round-trips through the writers.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::notation::{parse_moves_game, parse_record, parse_sgf, write_moves, write_sgf};
use wuzi::Rule;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first byte picks the defaults so every rule and a few sizes get exercised.
    let rule = Rule::ALL[usize::from(data.first().copied().unwrap_or(0)) % 3];
    let size = [15, 5, 19, 20][usize::from(data.first().copied().unwrap_or(0) >> 2) % 4];

    if let Ok(game) = parse_sgf(text, rule, size) {
        let again = parse_sgf(&write_sgf(&game), Rule::Freestyle, 15).expect("written SGF reads");
        // Set-up positions (AB/AW/PL) come back too, stones and side to move alike.
        assert_eq!(again.setup(), game.setup());
        assert_eq!(again.board(), game.board());
        assert_eq!(again.moves(), game.moves());
        assert_eq!((again.rule(), again.size()), (game.rule(), game.size()));
    }
    if let Ok(game) = parse_moves_game(text, rule, size) {
        let again =
            parse_moves_game(&write_moves(&game), rule, size).expect("written moves read");
        assert_eq!(again.moves(), game.moves());
    }
    if let Err(e) = parse_record(text, rule, size) {
        // Every error can be shown to a user.
        assert!(!e.to_string().is_empty());
    }
});
