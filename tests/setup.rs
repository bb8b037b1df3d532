//! Set-up positions seen from outside the game: the engine plays them, review starts from
//! them. Stone counts are deliberately unlike any game's, so nothing can lean on the number
//! of stones to tell whose move it is.

use std::sync::atomic::AtomicBool;

use wuzi::ai::review;
use wuzi::{Color, Engine, Game, Level, Limits, Point, Rule, Setup};

fn pts(list: &str) -> Vec<Point> {
    list.split_whitespace()
        .map(|s| Point::from_rif(s, 15).unwrap())
        .collect()
}

fn game(rule: Rule, black: &str, white: &str, to_move: Color) -> Game {
    let setup = Setup {
        size: 15,
        black: pts(black),
        white: pts(white),
        to_move,
    };
    Game::from_setup(rule, &setup).unwrap()
}

fn master(game: &Game) -> Option<Point> {
    let mut engine = Engine::new(8);
    let r = engine.search(
        game,
        Level::Master,
        Limits::nodes(20_000),
        &AtomicBool::new(false),
        1,
    );
    r.best
}

#[test]
fn master_wins_in_one_for_white_with_more_stones() {
    // White (six stones against four) has a four closed at c4: h4 wins. Black's open three
    // on row 10 is a decoy that a side-to-move mix-up would answer.
    for rule in [Rule::Renju, Rule::Freestyle] {
        let g = game(rule, "c4 h10 i10 j10", "d4 e4 f4 g4 m12 n12", Color::White);
        assert_eq!(master(&g), Some(pts("h4")[0]), "{rule}");
    }
}

#[test]
fn master_blocks_a_four_from_a_setup() {
    // Black has a four closed at g8 and white has nothing forcing: white, to move with two
    // stones more than black, must take l8.
    for rule in Rule::ALL {
        let g = game(rule, "h8 i8 j8 k8", "g8 a1 a3 c14 o15 m2", Color::White);
        assert_eq!(master(&g), Some(pts("l8")[0]), "{rule}");
    }
    // The same shape with colours swapped and black to move with fewer stones.
    let g = game(
        Rule::Freestyle,
        "g8 a1",
        "h8 i8 j8 k8 c14 o15",
        Color::Black,
    );
    assert_eq!(master(&g), Some(pts("l8")[0]));
}

#[test]
fn review_starts_from_the_setup() {
    let mut g = game(
        Rule::Freestyle,
        "h8 i8 j8 k8",
        "g8 a1 a3 c14 o15 m2",
        Color::White,
    );
    // White misses the block and black completes the five.
    g.try_play(pts("a5")[0]).unwrap();
    let end = g.try_play(pts("l8")[0]).unwrap().unwrap();
    assert_eq!(end.winner, Some(Color::Black));
    let mut engine = Engine::new(8);
    let reviews = review::review(
        &mut engine,
        &g,
        Limits::nodes(5_000),
        &AtomicBool::new(false),
        |_, _| {},
    );
    assert_eq!(reviews.len(), 2);
    assert_eq!(reviews[0].color, Color::White);
    assert_eq!(reviews[0].best, Some(pts("l8")[0]));
    assert!(
        reviews[0].class >= review::MoveClass::Mistake,
        "{:?}",
        reviews[0]
    );
    assert_eq!(reviews[1].color, Color::Black);
}
