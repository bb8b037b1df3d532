//! Feeds arbitrary text to the record readers (move strings and SGF). They must never panic,
//! and whatever they accept must be a legal game that round-trips through the writers: read →
//! write → read gives the same game, and writing it again gives the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi::notation::{
    moves_to_string, parse_moves_game, parse_points, parse_record, parse_sgf, write_moves,
    write_sgf,
};
use wuzi::{Game, Point, Rule};

/// Everything a record carries: rule, size, set-up position, stones, moves, side to move and
/// result.
fn assert_same_game(again: &Game, game: &Game, written: &str) {
    assert_eq!(
        (again.rule(), again.size()),
        (game.rule(), game.size()),
        "{written}"
    );
    // Set-up positions (AB/AW/PL) come back too, stones and side to move alike.
    assert_eq!(again.setup(), game.setup(), "{written}");
    assert_eq!(again.board(), game.board(), "{written}");
    assert_eq!(again.moves(), game.moves(), "{written}");
    assert_eq!(again.to_move(), game.to_move(), "{written}");
    assert_eq!(again.result(), game.result(), "{written}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first byte picks the defaults so every rule and a few sizes get exercised.
    let rule = Rule::ALL[usize::from(data.first().copied().unwrap_or(0)) % 3];
    let size = [15, 5, 19, 20][usize::from(data.first().copied().unwrap_or(0) >> 2) % 4];

    if let Ok(game) = parse_sgf(text, rule, size) {
        let written = write_sgf(&game);
        // The written record names its rule and size: other defaults must not matter.
        let again = parse_sgf(&written, Rule::Freestyle, 15).expect("written SGF reads");
        assert_same_game(&again, &game, &written);
        assert_eq!(write_sgf(&again), written, "writing is stable");
    }
    match parse_points(text, size) {
        Ok(points) => {
            let offsets_ascend = points.windows(2).all(|w| w[0].1 < w[1].1);
            assert!(offsets_ascend, "{points:?}");
            assert!(points.iter().all(|(_, at)| *at < text.len()), "{points:?}");
            let ps: Vec<Point> = points.iter().map(|(p, _)| *p).collect();
            let written = moves_to_string(&ps, size);
            let again = parse_points(&written, size).expect("written points read");
            let again: Vec<Point> = again.into_iter().map(|(p, _)| p).collect();
            assert_eq!(again, ps, "{written}");
        }
        // A move string a point list refuses is refused as a game too.
        Err(_) => assert!(parse_moves_game(text, rule, size).is_err()),
    }
    if let Ok(game) = parse_moves_game(text, rule, size) {
        let written = write_moves(&game);
        let again = parse_moves_game(&written, rule, size).expect("written moves read");
        assert_same_game(&again, &game, &written);
    }
    match parse_record(text, rule, size) {
        // Every error can be shown to a user.
        Err(e) => assert!(!e.to_string().is_empty()),
        // Whatever is read also reads as SGF once written (how the app exports it).
        Ok(game) => {
            let written = write_sgf(&game);
            let again = parse_record(&written, rule, size).expect("exported SGF reads");
            assert_same_game(&again, &game, &written);
        }
    }
});
