//! Micro-benchmarks of the rules layer on ten middle-game renju positions:
//! `cargo bench --bench rules -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use wuzi::{forbidden_at, forbidden_points, win_at, Board, Color, Game, Point, Rule};

/// A deterministic generator so every run benches the same positions.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Ten renju games of 30 to 66 moves, played at random among legal moves close to the
/// stones (as in real games, where play stays in one area), stopped before anyone wins.
fn positions() -> Vec<Game> {
    (0..10u64)
        .map(|seed| {
            let mut rng = SplitMix(seed);
            let target = 30 + 4 * seed as usize;
            let mut game = Game::new(Rule::Renju, 15).unwrap();
            game.try_play(Point::center(15)).unwrap();
            while game.moves().len() < target {
                let board = game.board();
                let near: Vec<Point> = Point::all(15)
                    .filter(|&p| board.is_empty_at(p))
                    .filter(|&p| {
                        board
                            .stones()
                            .any(|(q, _)| p.x().abs_diff(q.x()) <= 1 && p.y().abs_diff(q.y()) <= 1)
                    })
                    .filter(|&p| game.check(p).is_ok())
                    .collect();
                let p = near[(rng.next() % near.len() as u64) as usize];
                if game.try_play(p).unwrap().is_some() {
                    game.undo();
                }
            }
            game
        })
        .collect()
}

fn bench_rules(c: &mut Criterion) {
    let games = positions();
    let boards: Vec<Board> = games.iter().map(|g| g.board().clone()).collect();
    let empties: Vec<Vec<Point>> = boards
        .iter()
        .map(|b| Point::all(15).filter(|&p| b.is_empty_at(p)).collect())
        .collect();
    let stones: usize = boards.iter().map(Board::stone_count).sum();
    let forbidden: usize = boards
        .iter()
        .map(|b| forbidden_points(b, Rule::Renju).len())
        .sum();
    eprintln!(
        "10 positions, {stones} stones, {} empty points, {forbidden} forbidden points in all",
        empties.iter().map(Vec::len).sum::<usize>()
    );

    c.bench_function("place+remove every empty point (10 positions)", |b| {
        let mut boards = boards.clone();
        b.iter(|| {
            for (board, empty) in boards.iter_mut().zip(&empties) {
                for &p in empty {
                    board.place(p, Color::Black);
                    board.remove(p);
                }
            }
            black_box(&boards);
        });
    });

    c.bench_function("win_at every stone (10 positions)", |b| {
        let stones: Vec<Vec<Point>> = boards
            .iter()
            .map(|b| b.stones().map(|(p, _)| p).collect())
            .collect();
        b.iter(|| {
            let mut wins = 0;
            for (board, list) in boards.iter().zip(&stones) {
                for &p in list {
                    wins += usize::from(win_at(board, p, Rule::Renju).is_some());
                }
            }
            black_box(wins)
        });
    });

    c.bench_function("forbidden_at every empty point (10 positions)", |b| {
        let mut boards = boards.clone();
        b.iter(|| {
            let mut n = 0;
            for (board, empty) in boards.iter_mut().zip(&empties) {
                for &p in empty {
                    n += usize::from(forbidden_at(board, p).is_some());
                }
            }
            black_box(n)
        });
    });

    c.bench_function("forbidden_points (10 positions)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| forbidden_points(black_box(board), Rule::Renju).len())
                .sum::<usize>()
        });
    });
}

criterion_group!(benches, bench_rules);
criterion_main!(benches);
