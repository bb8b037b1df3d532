//! Tests of [`Engine`]: legal moves at every level, determinism, the rule-dependent
//! tunables, Lazy SMP and the whole-turn rules.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::forbidden_at;
use crate::testing::pts;

fn assert_send<T: Send>() {}

#[test]
fn engine_is_send() {
    assert_send::<Engine>();
}

/// Random legal games under every rule: whatever the level, the move is legal, and
/// `None` only when no legal move exists.
/// Up to `plies` random legal moves from the empty board (fewer if the game ends).
fn random_game(rng: &mut StdRng, rule: Rule, size: u8, plies: usize) -> Game {
    let mut game = Game::new(rule, size).unwrap();
    for _ in 0..plies {
        let empties: Vec<Point> = Point::all(size)
            .filter(|&p| game.check(p).is_ok())
            .collect();
        if empties.is_empty() || game.is_over() {
            break;
        }
        let _ = game.try_play(empties[rng.gen_range(0..empties.len())]);
    }
    game
}

#[test]
fn moves_are_always_legal() {
    let mut rng = StdRng::seed_from_u64(99);
    let mut engine = Engine::new(2);
    let cancel = AtomicBool::new(false);
    for (k, rule) in Rule::ALL.into_iter().cycle().take(12).enumerate() {
        let size = [7u8, 9, 15][k % 3];
        let plies = rng.gen_range(0..usize::from(size) * usize::from(size));
        let game = random_game(&mut rng, rule, size, plies);
        if game.is_over() {
            continue;
        }
        let any_legal = Point::all(size).any(|p| game.check(p).is_ok());
        for level in Level::ALL {
            let r = engine.search(&game, level, Limits::nodes(2_000), &cancel, k as u64);
            match r.best {
                None => assert!(!any_legal, "{rule} {level}: no move\n{}", game.board()),
                Some(p) => {
                    assert!(game.board().is_empty_at(p), "{level} played on a stone");
                    if rule.has_forbidden(game.to_move()) {
                        let mut b = game.board().clone();
                        assert!(forbidden_at(&mut b, p).is_none(), "{level} forbidden {p:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn cancelled_search_still_moves() {
    let mut game = Game::new(Rule::Renju, 15).unwrap();
    game.try_play(Point::center(15)).unwrap();
    let cancel = AtomicBool::new(true);
    let r = Engine::new(1).search(&game, Level::Master, Limits::default(), &cancel, 0);
    assert!(r.best.is_some_and(|p| game.board().is_empty_at(p)));
}

#[test]
fn node_limited_search_is_deterministic() {
    let game = Game::from_moves(
        Rule::Freestyle,
        15,
        &[Point::new(7, 7), Point::new(8, 8), Point::new(8, 6)],
    )
    .unwrap();
    let cancel = AtomicBool::new(false);
    for level in [Level::Easy, Level::Hard, Level::Master] {
        let a = Engine::new(4).search(&game, level, Limits::nodes(20_000), &cancel, 5);
        let b = Engine::new(4).search(&game, level, Limits::nodes(20_000), &cancel, 5);
        assert_eq!(
            (a.best, a.nodes, a.score),
            (b.best, b.nodes, b.score),
            "{level}"
        );
    }
}

/// Nodes of a depth-7 Master search of the middle game `h8 i9 f6 i10 f8 j9 f9 f7 i8 j8 g8
/// e8` under `rule` with the parameters `set`: whether a rule-dependent term ran shows in
/// the count.
fn middle_game_nodes(rule: Rule, set: &[(&str, &str)]) -> u64 {
    let moves = pts("h8 i9 f6 i10 f8 j9 f9 f7 i8 j8 g8 e8");
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let game = Game::from_moves(rule, 15, &moves).unwrap();
    let mut params = Params::default();
    for (name, value) in set {
        params.set(name, value).unwrap();
    }
    let mut e = Engine::new(4);
    e.set_params(params);
    e.search(&game, Level::Master, limits, &cancel, 0).nodes
}

/// The tunables with one setting under renju and another under freestyle and standard:
/// (renju's name, a value unlike its default, the other rules' name, a value unlike theirs).
/// Each value changes the depth-7 middle-game search of [`middle_game_nodes`] when its rule
/// is played. (A fresh depth-7 search has learned too little for the pair table's default
/// half weight to show, so its values double it.)
const BY_RULE: [(&str, &str, &str, &str); 4] = [
    ("renju_fh_margin", "0", "fh_margin", "20"),
    ("renju_four_three", "0", "four_three", "1"),
    ("renju_corr_hist", "0", "corr_hist", "100"),
    ("renju_pair_corr", "200", "pair_corr", "200"),
];

#[test]
fn rule_dependent_tunables_follow_their_rule() {
    let nodes = middle_game_nodes;
    let renju = nodes(Rule::Renju, &[]);
    let free = nodes(Rule::Freestyle, &[]);
    for (renju_name, renju_value, other_name, other_value) in BY_RULE {
        // Each rule reads its own setting and ignores the other's.
        let set_renju = [(renju_name, renju_value)];
        let set_other = [(other_name, other_value)];
        assert_ne!(renju, nodes(Rule::Renju, &set_renju), "{renju_name}, renju");
        assert_eq!(renju, nodes(Rule::Renju, &set_other), "{other_name}, renju");
        assert_eq!(
            free,
            nodes(Rule::Freestyle, &set_renju),
            "{renju_name}, freestyle"
        );
        assert_ne!(
            free,
            nodes(Rule::Freestyle, &set_other),
            "{other_name}, freestyle"
        );
    }
}

fn board_of(size: u8, black: &str, white: &str) -> Board {
    let mut b = Board::new(size).unwrap();
    for (list, c) in [(black, Color::Black), (white, Color::White)] {
        for s in list.split_whitespace() {
            b.place(Point::from_rif(s, size).unwrap(), c);
        }
    }
    b
}

#[test]
fn thread_count_follows_level_and_limits() {
    let mut e = Engine::new(1);
    let timed = Level::Master.default_limits();
    let auto = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    assert_eq!(e.threads(), 0);
    assert_eq!(e.threads_for(Level::Master, timed), auto);
    // Lower levels are calibrated single-threaded.
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        assert_eq!(e.threads_for(level, level.default_limits()), 1);
    }
    // Deterministic searches: a node limit, or no time limit unless asked.
    assert_eq!(e.threads_for(Level::Master, Limits::nodes(1000)), 1);
    assert_eq!(e.threads_for(Level::Master, Limits::default()), 1);
    e.set_threads(4);
    assert_eq!(e.threads_for(Level::Master, Limits::default()), 4);
    assert_eq!(e.threads_for(Level::Master, timed), 4);
    assert_eq!(e.threads_for(Level::Master, Limits::nodes(1000)), 1);
    assert_eq!(e.threads_for(Level::Hard, timed), 1);
    let mut both = timed;
    both.nodes = Some(10_000);
    assert_eq!(e.threads_for(Level::Master, both), 1);
    e.set_threads(1000);
    assert_eq!(e.threads(), MAX_THREADS);
    e.set_threads(0);
    assert_eq!(e.threads_for(Level::Master, timed), auto);
}

/// Lazy SMP (3 threads, so helpers of both parities run) answers tactical positions:
/// some settled at the root before the helpers start (five, forced block, VCF), some
/// only by the deepening all threads share (open and split threes).
#[test]
fn threaded_master_finds_forced_wins_and_blocks() {
    let cases = [
        // rule, to move, black, white, acceptable answers
        (
            Rule::Freestyle,
            Color::Black,
            "h8 i8 j8 k8 c3",
            "h9 i9 j9 m12",
            "g8 l8",
        ),
        (
            Rule::Freestyle,
            Color::Black,
            "h7 i8 j9 b2",
            "h8 h9 h10 h11",
            "h12",
        ),
        (
            Rule::Renju,
            Color::White,
            "e5 f5 g5 h5 m12",
            "d5 a1 o15",
            "i5",
        ),
        (
            Rule::Freestyle,
            Color::Black,
            "h8 i8 j8 k10 k11",
            "g8 a1 a2 o15",
            "k8",
        ),
        (
            Rule::Freestyle,
            Color::Black,
            "d12 m3 b2",
            "h8 i8 j8 n14",
            "g8 k8",
        ),
        (
            Rule::Freestyle,
            Color::White,
            "e5 g5 h5 m13",
            "a1 o15",
            "d5 f5 i5",
        ),
        (
            Rule::Freestyle,
            Color::Black,
            "a15 o1 b13",
            "f6 g7 h8 m2",
            "e5 i9",
        ),
        (
            Rule::Renju,
            Color::White,
            "g9 i9 h10 h11 c4 a1",
            "d5 e6 f7 o15 a15",
            "g8",
        ),
    ];
    let cancel = AtomicBool::new(false);
    let mut engine = Engine::new(4);
    engine.set_threads(3);
    let limits = Limits::time(Duration::from_millis(300));
    for (k, &(rule, to_move, black, white, answers)) in cases.iter().enumerate() {
        let board = board_of(15, black, white);
        let r = engine.search_board(&board, rule, to_move, Level::Master, limits, &cancel, 7);
        let best = r.best.expect("a move exists");
        assert!(
            pts(answers).contains(&best),
            "case {k}: {} not in {answers}\n{board}",
            best.rif(15)
        );
    }
}

/// Random games near their end on small boards, every rule: the threaded search plays
/// only legal moves, and `None` only without a legal move.
#[test]
fn threaded_moves_are_always_legal() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut engine = Engine::new(2);
    engine.set_threads(3);
    let cancel = AtomicBool::new(false);
    let limits = Limits::time(Duration::from_millis(40));
    for (k, rule) in Rule::ALL.into_iter().cycle().take(9).enumerate() {
        let size = [7u8, 9, 11][k % 3];
        let cells = usize::from(size) * usize::from(size);
        let plies = rng.gen_range(cells / 2..cells);
        let game = random_game(&mut rng, rule, size, plies);
        if game.is_over() {
            continue;
        }
        let any_legal = Point::all(size).any(|p| game.check(p).is_ok());
        let r = engine.search(&game, Level::Master, limits, &cancel, k as u64);
        match r.best {
            None => assert!(!any_legal, "{rule}: no move\n{}", game.board()),
            Some(p) => assert!(game.check(p).is_ok(), "{rule}: illegal {p:?}"),
        }
    }
}

/// A forced block ends the search after one iteration when the target leaves time for
/// later moves; with the whole turn to spend it searches on (filling the table for the
/// next move) and still answers the block.
#[test]
fn a_forced_block_uses_the_whole_turn_only_when_asked() {
    let board = board_of(15, "h8 i8 j8 k8 c3", "g8 a1 a2 o15");
    let block = pts("l8")[0];
    let cancel = AtomicBool::new(false);
    let mut engine = Engine::new(4);
    engine.set_threads(1);
    let limit = Duration::from_millis(200);
    let half = Limits::time(limit);
    let whole = Limits {
        target: Some(limit),
        ..half
    };
    let r = engine.search_board(
        &board,
        Rule::Freestyle,
        Color::White,
        Level::Master,
        half,
        &cancel,
        1,
    );
    assert_eq!((r.best, r.depth), (Some(block), 1));
    let r = engine.search_board(
        &board,
        Rule::Freestyle,
        Color::White,
        Level::Master,
        whole,
        &cancel,
        1,
    );
    assert_eq!(r.best, Some(block));
    assert!(r.depth > 1, "depth {}", r.depth);
    // A proven win still answers at once.
    let r = engine.search_board(
        &board,
        Rule::Freestyle,
        Color::Black,
        Level::Master,
        whole,
        &cancel,
        1,
    );
    assert_eq!((r.best, r.depth), (Some(block), 1));
}

/// No time limit and no depth cap: only the cancel flag ends this search, so a helper
/// that ignored it would hang the test.
#[test]
fn threaded_search_honours_cancel() {
    let game = Game::from_moves(
        Rule::Renju,
        15,
        &[Point::new(7, 7), Point::new(8, 8), Point::new(8, 6)],
    )
    .unwrap();
    let mut engine = Engine::new(4);
    engine.set_threads(3);
    let cancel = AtomicBool::new(true);
    let r = engine.search(&game, Level::Master, Limits::default(), &cancel, 0);
    assert!(r.best.is_some_and(|p| game.check(p).is_ok()));
    cancel.store(false, Ordering::Relaxed);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            cancel.store(true, Ordering::Relaxed);
        });
        engine.search(&game, Level::Master, Limits::default(), &cancel, 0)
    });
    assert!(r.best.is_some_and(|p| game.check(p).is_ok()));
    assert!(r.nodes > 0);
}

#[test]
fn finished_game_has_no_move() {
    let moves: Vec<Point> = [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (4, 0),
    ]
    .iter()
    .map(|&(x, y)| Point::new(x, y))
    .collect();
    let game = Game::from_moves(Rule::Freestyle, 9, &moves).unwrap();
    assert!(game.is_over());
    let r = Engine::new(1).search(
        &game,
        Level::Hard,
        Limits::nodes(100),
        &AtomicBool::new(false),
        0,
    );
    assert_eq!(r.best, None);
    assert_eq!(r.verdict.to_string(), "black has won");
}
