//! Invariants over random legal games (proptest): make/undo, hashing, win detection against a
//! brute-force scan, forbidden moves against a slow referee written straight from the RIF
//! definitions (along random games and on random black-heavy positions) and under the 8
//! symmetries, set-up positions (the referee's refusals against a brute-force scan, records,
//! saves and undo from random set-up games), undo/redo, records and saves, and the threat
//! solver's defence sets (every move left out of one loses to the VCF it answers).

mod slow_referee;

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::sample::Index;
use wuzi::ai::position::{Position, Threat};
use wuzi::ai::threat::ThreatSearch;
use wuzi::notation::{parse_moves_game, parse_sgf, write_moves, write_sgf};
use wuzi::{
    forbidden_at, forbidden_points, win_at, Board, Color, Forbidden, Game, Point, Rule, Setup,
    SetupError, WinKind,
};

use slow_referee::{check_forbidden, Grid, DIRS};

/// Plays `picks` as choices among the legal moves near the stones already on the board (so
/// that games are dense and tactical), stopping when the game ends or nothing is legal.
fn random_game(rule: Rule, size: u8, picks: &[Index]) -> Game {
    play_random(Game::new(rule, size).unwrap(), picks)
}

/// Goes on with `game` as [`random_game`] does.
fn play_random(mut game: Game, picks: &[Index]) -> Game {
    let size = game.size();
    for pick in picks {
        if game.is_over() {
            break;
        }
        let board = game.board();
        let near: Vec<Point> = Point::all(size)
            .filter(|&p| board.is_empty_at(p))
            .filter(|&p| {
                board.stone_count() == 0 && p == Point::center(size)
                    || board
                        .stones()
                        .any(|(q, _)| p.x().abs_diff(q.x()) <= 2 && p.y().abs_diff(q.y()) <= 2)
            })
            .filter(|&p| game.check(p).is_ok())
            .collect();
        if near.is_empty() {
            break;
        }
        game.try_play(*pick.get(&near)).unwrap();
    }
    game
}

/// Games from a set-up position: the position of a random unfinished game, with either side
/// to move (so stone counts are often unlike any game's), then more random moves.
fn setup_strategy() -> impl Strategy<Value = Game> {
    (
        game_strategy(60),
        any::<bool>(),
        prop::collection::vec(any::<Index>(), 0..30),
    )
        .prop_filter_map("the position is already decided", |(g, white, picks)| {
            if g.is_over() {
                return None;
            }
            let to_move = if white { Color::White } else { Color::Black };
            let setup = Setup::from_board(g.board(), to_move);
            let start = Game::from_setup(g.rule(), &setup)
                .expect("an unfinished game's position is a valid setup");
            Some(play_random(start, &picks))
        })
}

fn game_strategy(max_moves: usize) -> impl Strategy<Value = Game> {
    (
        prop::sample::select(Rule::ALL.to_vec()),
        prop::sample::select(vec![5u8, 7, 9, 15, 20]),
        prop::collection::vec(any::<Index>(), 0..max_moves),
    )
        .prop_map(|(rule, size, picks)| random_game(rule, size, &picks))
}

/// Renju games only, on boards where forbidden shapes come up often.
fn renju_strategy(max_moves: usize) -> impl Strategy<Value = Game> {
    (
        prop::sample::select(vec![9u8, 11, 15]),
        prop::collection::vec(any::<Index>(), 0..max_moves),
    )
        .prop_map(|(size, picks)| random_game(Rule::Renju, size, &picks))
}

/// One stretch of stones: where it starts, its direction, length, which of its cells stay
/// empty (bits) and whether it is black.
type Segment = (Index, usize, u8, u8, bool);

/// Positions that no game need reach: short stretches of mostly black stones, some with gaps,
/// laid along random lines of a small board. Fours, five points, overlines and threes inside
/// threes meet far more often than in random play, and nothing is filtered out (black may
/// already have a five or an overline on the board: the referee is judged all the same).
fn position_strategy() -> impl Strategy<Value = Board> {
    // Tuned so that about one position in ten holds a three whose straight-four point makes
    // a five (random games: fewer than one in a hundred).
    let segment = (
        any::<Index>(),
        0usize..4,
        3u8..6,
        any::<u8>(),
        prop::bool::weighted(0.75),
    );
    (
        prop::sample::select(vec![11u8, 13]),
        prop::collection::vec(segment, 12..36),
    )
        .prop_map(|(size, segments)| random_position(size, &segments))
}

fn random_position(size: u8, segments: &[Segment]) -> Board {
    let mut board = Board::new(size).unwrap();
    let points: Vec<Point> = Point::all(size).collect();
    for &(start, dir, len, gaps, black) in segments {
        let (dx, dy) = DIRS[dir];
        let start = *start.get(&points);
        for k in 0..i32::from(len) {
            if k > 0 && gaps & (1 << k) != 0 {
                continue;
            }
            let (x, y) = (i32::from(start.x()) + k * dx, i32::from(start.y()) + k * dy);
            if !(0..i32::from(size)).contains(&x) || !(0..i32::from(size)).contains(&y) {
                break;
            }
            let p = Point::new(x as u8, y as u8);
            if board.is_empty_at(p) {
                board.place(p, if black { Color::Black } else { Color::White });
            }
        }
    }
    board
}

/// The winning run through `p` by brute force: (kind, stones) or `None`.
fn brute_win(b: &Board, p: Point, rule: Rule) -> Option<(Color, WinKind, BTreeSet<Point>)> {
    let g = Grid::from_board(b);
    let c = b.get(p)?;
    let (x, y) = (i32::from(p.x()), i32::from(p.y()));
    let runs: Vec<Vec<(i32, i32)>> = DIRS.iter().map(|&d| g.run(x, y, d, c)).collect();
    let to_set = |r: &Vec<(i32, i32)>| -> BTreeSet<Point> {
        r.iter()
            .map(|&(a, b)| Point::new(a as u8, b as u8))
            .collect()
    };
    if let Some(r) = runs.iter().find(|r| r.len() == 5) {
        return Some((c, WinKind::Five, to_set(r)));
    }
    if rule.exact_five(c) {
        return None;
    }
    runs.iter()
        .find(|r| r.len() > 5)
        .map(|r| (c, WinKind::Overline, to_set(r)))
}

fn empty_points(b: &Board) -> Vec<Point> {
    Point::all(b.size()).filter(|&p| b.is_empty_at(p)).collect()
}

fn transformed(b: &Board, sym: u8) -> Board {
    let mut t = Board::new(b.size()).unwrap();
    for (p, c) in b.stones() {
        t.place(p.transform(sym, b.size()), c);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn make_undo_restores_board_and_hash(game in game_strategy(80)) {
        let mut board = Board::new(game.size()).unwrap();
        let mut color = Color::Black;
        for &p in game.moves() {
            let before = board.clone();
            let hash = board.hash();
            let empties: Vec<Point> = empty_points(&board);
            for q in empties {
                board.place(q, color);
                prop_assert_eq!(board.hash(), board.hash_from_scratch());
                board.remove(q);
                prop_assert_eq!(board.hash(), hash);
                let _ = forbidden_at(&mut board, q);
                prop_assert_eq!(board.hash(), hash);
            }
            prop_assert_eq!(&board, &before);
            board.place(p, color);
            prop_assert_eq!(board.hash(), board.hash_from_scratch());
            color = color.other();
        }
        prop_assert_eq!(&board, game.board());
        prop_assert_eq!(board.hash(), game.board().hash());
    }

    #[test]
    fn win_at_agrees_with_brute_force(game in game_strategy(120)) {
        // Every stone on the final board, and every empty point tried for both colours.
        let mut board = game.board().clone();
        for (p, _) in game.board().stones() {
            let got = win_at(&board, p, game.rule())
                .map(|w| (w.color, w.kind, w.line.into_iter().collect::<BTreeSet<_>>()));
            prop_assert_eq!(got, brute_win(&board, p, game.rule()));
        }
        for p in empty_points(&board) {
            for c in Color::ALL {
                board.place(p, c);
                let got = win_at(&board, p, game.rule())
                    .map(|w| (w.color, w.kind, w.line.into_iter().collect::<BTreeSet<_>>()));
                prop_assert_eq!(got, brute_win(&board, p, game.rule()), "{:?} at {:?}", c, p);
                board.remove(p);
            }
        }
        // A game's result is the brute-force win through its last move.
        if let (Some(r), Some(last)) = (game.result(), game.last_move()) {
            if let Some(win) = &r.win {
                prop_assert_eq!(Some(win.color), r.winner);
                prop_assert!(brute_win(game.board(), last, game.rule()).is_some());
            } else {
                // A draw: a full board, or under renju every empty point forbidden for black.
                match r.draw {
                    Some(wuzi::Draw::NoLegalMove) => {
                        prop_assert_eq!(game.rule(), Rule::Renju);
                        prop_assert_eq!(game.to_move(), Color::Black);
                        let mut board = game.board().clone();
                        for p in empty_points(game.board()) {
                            prop_assert!(forbidden_at(&mut board, p).is_some(), "{:?} is legal", p);
                        }
                    }
                    _ => prop_assert!(game.board().is_full()),
                }
            }
        }
    }

    #[test]
    fn forbidden_agrees_with_the_slow_referee(game in renju_strategy(90)) {
        // Check every position along the game, not only the last one.
        let mut replay = Game::new(game.rule(), game.size()).unwrap();
        for &m in game.moves() {
            check_forbidden(replay.board())?;
            replay.try_play(m).unwrap();
        }
        check_forbidden(replay.board())?;
    }

    #[test]
    fn forbidden_points_are_symmetric(game in renju_strategy(90)) {
        let board = game.board();
        let size = board.size();
        let base: BTreeSet<(Point, Forbidden)> =
            forbidden_points(board, Rule::Renju).into_iter().collect();
        for sym in 1..8 {
            let got: BTreeSet<(Point, Forbidden)> =
                forbidden_points(&transformed(board, sym), Rule::Renju).into_iter().collect();
            let want: BTreeSet<(Point, Forbidden)> =
                base.iter().map(|&(p, f)| (p.transform(sym, size), f)).collect();
            prop_assert_eq!(got, want, "symmetry {}", sym);
        }
    }

    #[test]
    fn undo_redo_round_trips(game in game_strategy(80), back in 0usize..100) {
        let mut g = game.clone();
        let k = back.min(g.moves().len());
        let undone: Vec<Point> = (0..k).map(|_| g.undo().unwrap()).collect();
        prop_assert_eq!(g.moves(), &game.moves()[..game.moves().len() - k]);
        prop_assert!(g.result().is_none() || k == 0);
        prop_assert_eq!(g.board().hash(), g.board().hash_from_scratch());
        let redone: Vec<Point> = (0..k).map(|_| g.redo().unwrap()).collect();
        prop_assert_eq!(undone.iter().rev().copied().collect::<Vec<_>>(), redone);
        prop_assert_eq!(g.moves(), game.moves());
        prop_assert_eq!(g.board(), game.board());
        prop_assert_eq!(g.result(), game.result());
        prop_assert!(!g.can_redo());
        prop_assert_eq!(g.undo().is_some(), !game.moves().is_empty());
    }

    #[test]
    fn records_round_trip(game in game_strategy(120)) {
        let text = write_moves(&game);
        let back = parse_moves_game(&text, game.rule(), game.size()).unwrap();
        prop_assert_eq!(back.moves(), game.moves());
        let sgf = write_sgf(&game);
        let back = parse_sgf(&sgf, Rule::Freestyle, 15).unwrap();
        prop_assert_eq!(back.moves(), game.moves());
        prop_assert_eq!((back.rule(), back.size()), (game.rule(), game.size()));
        prop_assert_eq!(back.result(), game.result());
        // The lenient forms read the same.
        let squashed = text.replace(' ', "").to_uppercase();
        let back = parse_moves_game(&squashed, game.rule(), game.size()).unwrap();
        prop_assert_eq!(back.moves(), game.moves());
    }

    #[test]
    fn setup_games_round_trip_and_undo_stops_at_the_setup(game in setup_strategy()) {
        let sgf = write_sgf(&game);
        let back = parse_sgf(&sgf, Rule::Freestyle, 15).unwrap();
        prop_assert_eq!(back.setup(), game.setup());
        prop_assert_eq!(back.moves(), game.moves());
        prop_assert_eq!(back.board(), game.board());
        prop_assert_eq!(back.result(), game.result());
        prop_assert_eq!(back.to_move(), game.to_move());
        #[cfg(feature = "serde")]
        {
            let loaded = Game::from_saved(&game.to_saved()).unwrap();
            prop_assert_eq!(loaded.setup(), game.setup());
            prop_assert_eq!(loaded.moves(), game.moves());
            prop_assert_eq!(loaded.board(), game.board());
        }
        let mut g = game.clone();
        let start = game.at_start();
        while g.undo().is_some() {}
        prop_assert_eq!(g.board(), start.board());
        prop_assert_eq!(g.to_move(), start.to_move());
        prop_assert_eq!(g.board().hash(), g.board().hash_from_scratch());
        if let Some(setup) = game.setup() {
            prop_assert_eq!(g.board(), &Game::from_setup(game.rule(), setup).unwrap().board().clone());
        }
    }

    #[test]
    fn sgf_token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(vec![
        "(", ")", ";", "[", "]", "\\", ":", " ", "B", "W", "AB", "AW", "AE", "PL", "SZ", "RU",
        "GM", "[hh]", "[ii]", "[aa:ee]", "[aa]", "[ba]", "[ca]", "[da]", "[ea]", "[fa]", "[B]",
        "[W]", "[15]", "[5]", "[renju]", "[4]", "[zz]", "[]", "[tt]", "é",
    ]), 0..60)) {
        let text = format!("(;{}", tokens.concat());
        for rule in Rule::ALL {
            match parse_sgf(&text, rule, 15) {
                Ok(game) => {
                    let again = parse_sgf(&write_sgf(&game), Rule::Freestyle, 15).unwrap();
                    prop_assert_eq!(again.setup(), game.setup());
                    prop_assert_eq!(again.moves(), game.moves());
                    prop_assert_eq!(again.board(), game.board());
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn save_load_round_trips(game in game_strategy(80), back in 0usize..10) {
        let mut g = game;
        for _ in 0..back {
            g.undo();
        }
        let saved = g.to_saved();
        let json = serde_json::to_string(&saved).unwrap();
        let parsed: wuzi::SavedGame = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&parsed, &saved);
        let loaded = Game::from_saved(&parsed).unwrap();
        prop_assert_eq!(loaded.moves(), g.moves());
        prop_assert_eq!(loaded.redo_moves(), g.redo_moves());
        prop_assert_eq!(loaded.board(), g.board());
        prop_assert_eq!(loaded.result(), g.result());
        prop_assert_eq!(loaded.rule(), g.rule());
    }
}

/// Every legal move of the side to move outside `set` leaves the opponent a VCF.
fn assert_set_complete(pos: &mut Position, set: &[u16]) -> Result<(), TestCaseError> {
    let me = pos.to_move();
    let candidates: Vec<usize> = pos.points().iter().map(|&i| usize::from(i)).collect();
    for i in candidates {
        if !pos.is_empty(i) || set.contains(&(i as u16)) || !pos.is_legal(me, i) {
            continue;
        }
        pos.play(i);
        let mut fresh = ThreatSearch::new(1 << 14);
        fresh.set_budget(2_000_000);
        let still = fresh.vcf(pos, 12).is_some();
        pos.undo();
        prop_assert!(
            still,
            "{:?} at {:?} escapes the VCF outside its defence set {:?}\n{:?}",
            me,
            Board::point_of(i),
            set.iter()
                .map(|&j| Board::point_of(usize::from(j)))
                .collect::<Vec<_>>(),
            pos.board()
        );
    }
    Ok(())
}

/// Along `game`, at every position where the side not to move has a four-three point and
/// [`ThreatSearch::defences_against_vcf`] proves its VCF: every legal move of the side to move
/// outside the returned set still loses to a VCF. Returns how many positions were checked.
fn check_defence_sets(game: &Game) -> Result<usize, TestCaseError> {
    let mut pos = Position::new(&Board::new(game.size()).unwrap(), game.rule(), Color::Black);
    let mut solver = ThreatSearch::new(1 << 12);
    let mut checked = 0;
    for &p in game.moves() {
        pos.play(Board::index_of(p));
        let me = pos.to_move();
        let op = me.other();
        if pos.count(op, Threat::FourThree) == 0
            || pos.count(op, Threat::Five) > 0
            || pos.count(me, Threat::Five) > 0
        {
            continue;
        }
        let mut set = Vec::new();
        solver.set_budget(u64::MAX);
        if !solver.defences_against_vcf(&mut pos, 4, 300, &mut set) {
            continue;
        }
        checked += 1;
        assert_set_complete(&mut pos, &set)?;
    }
    Ok(checked)
}

/// A four-three of white's (h8: a four on row 8 blocked at d8, an open three on column h):
/// the set holds h8, the four's five point and the three's ends, nothing far away, and every
/// move it leaves out loses.
#[test]
fn a_four_three_has_a_small_defence_set() {
    let mut board = Board::new(15).unwrap();
    for (x, y) in [(3, 7), (10, 2), (11, 12)] {
        board.place(Point::new(x, y), Color::Black);
    }
    for (x, y) in [(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)] {
        board.place(Point::new(x, y), Color::White);
    }
    let mut pos = Position::new(&board, Rule::Freestyle, Color::Black);
    let mut solver = ThreatSearch::new(1 << 12);
    let mut set = Vec::new();
    assert!(solver.defences_against_vcf(&mut pos, 4, 300, &mut set));
    let has = |x, y| set.contains(&(Board::index_of(Point::new(x, y)) as u16));
    assert!(has(7, 7) && has(8, 7) && has(7, 4) && has(7, 8), "{set:?}");
    assert!(!has(0, 0) && !has(12, 2) && !has(2, 12), "{set:?}");
    assert_set_complete(&mut pos, &set).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_defence_set_holds_every_move_that_stops_the_vcf(
        rule in prop::sample::select(Rule::ALL.to_vec()),
        picks in prop::collection::vec(any::<Index>(), 20..90),
    ) {
        check_defence_sets(&random_game(rule, 15, &picks))?;
    }
}

proptest! {
    // A position costs about a millisecond: many of them, so that rare shapes come up.
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn forbidden_agrees_with_the_slow_referee_on_random_positions(board in position_strategy()) {
        check_forbidden(&board)?;
    }

    #[test]
    fn setups_are_refused_exactly_when_the_slow_referee_finds_a_five_or_overline(
        board in position_strategy(),
        white in any::<bool>(),
    ) {
        let to_move = if white { Color::White } else { Color::Black };
        let setup = Setup::from_board(&board, to_move);
        let grid = Grid::from_board(&board);
        let black_overline = board.stones().any(|(p, c)| {
            c == Color::Black
                && DIRS.iter().any(|&d| {
                    grid.run(i32::from(p.x()), i32::from(p.y()), d, c).len() > 5
                })
        });
        for rule in Rule::ALL {
            let won = board.stones().any(|(p, _)| brute_win(&board, p, rule).is_some());
            match Game::from_setup(rule, &setup) {
                Ok(game) => {
                    prop_assert!(!won, "{} accepted a won position\n{}", rule, board);
                    prop_assert!(rule != Rule::Renju || !black_overline, "overline\n{}", board);
                    prop_assert_eq!(game.board(), &board);
                    prop_assert_eq!(game.to_move(), to_move);
                }
                Err(SetupError::Five { win, .. }) => {
                    prop_assert!(won, "{} refused\n{}", rule, board);
                    prop_assert!(brute_win(&board, win.line[0], rule).is_some());
                }
                Err(SetupError::Overline { line, .. }) => {
                    prop_assert!(!won && rule == Rule::Renju && black_overline);
                    prop_assert!(line.len() > 5);
                }
                Err(e) => prop_assert!(false, "unexpected {:?}", e),
            }
        }
    }
}

/// The case `win_at_agrees_with_brute_force` once drew: a renju game drawn because black's only
/// empty point (d2) is forbidden, with the board not full.
#[test]
fn a_renju_draw_without_a_legal_move_leaves_the_board_not_full() {
    let moves = "d4 d6 c2 e7 b4 d1 e2 c5 f2 e5 g4 c3 b1 d3 e3 a1 f3 d5 c6 g2 a7 g3 c1 b3 e1 g6 b7 \
                 f1 f5 b6 b5 a4 c4 d7 a6 f7 g7 g1 b2 f4 a2 a5 c7 g5 e4 e6 f6 a3";
    let game = parse_moves_game(moves, Rule::Renju, 7).unwrap();
    let r = game.result().expect("the game is over");
    assert_eq!((r.winner, r.draw), (None, Some(wuzi::Draw::NoLegalMove)));
    assert!(!game.board().is_full());
    let d2 = Point::from_rif("d2", 7).unwrap();
    assert!(forbidden_at(&mut game.board().clone(), d2).is_some());
}
