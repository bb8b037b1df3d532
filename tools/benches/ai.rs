//! Criterion micro-benchmarks of the AI layers: pattern updates (make + undo), move
//! generation through a shallow search, fixed-depth search, and VCF and VCT solving per puzzle.
//!
//! Run with `cargo bench -p wuzi-tools --bench ai`; medians are quoted in docs/ai.md.

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use wuzi::ai::position::Position;
use wuzi::ai::threat::ThreatSearch;
use wuzi::{Board, Color, Engine, Level, Limits, Point, Rule};

fn midgame() -> Position {
    // A crowded middle game from the shared puzzles (gobang critical-defense).
    let black = [
        "H8", "F8", "G9", "H9", "G10", "E9", "H7", "E12", "F12", "D11", "G12", "C10", "H12", "G11",
        "B9", "E13", "C15", "I6", "C9", "J11", "D9",
    ];
    let white = [
        "G7", "G8", "F10", "H10", "I8", "F9", "H6", "F11", "E11", "G6", "D12", "F13", "I12", "G13",
        "A8", "J10", "D14", "I13", "J9", "J6", "A9",
    ];
    let mut b = Board::new(15).unwrap();
    for s in black {
        b.place(Point::from_rif(s, 15).unwrap(), Color::Black);
    }
    for s in white {
        b.place(Point::from_rif(s, 15).unwrap(), Color::White);
    }
    Position::new(&b, Rule::Renju, Color::Black)
}

fn pattern_update(c: &mut Criterion) {
    let mut pos = midgame();
    let empties: Vec<usize> = pos
        .points()
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| pos.is_empty(i) && pos.is_near(i))
        .collect();
    c.bench_function("pattern/make+undo (all near points)", |b| {
        b.iter(|| {
            for &i in &empties {
                pos.play(i);
                pos.undo();
            }
        });
    });
    c.bench_function("eval/evaluate", |b| {
        b.iter(|| wuzi::ai::eval::evaluate(std::hint::black_box(&mut pos)));
    });
    c.bench_function("position/from scratch", |b| {
        let board = pos.board().clone();
        b.iter(|| Position::new(&board, Rule::Renju, Color::Black));
    });
}

fn search(c: &mut Criterion) {
    let games = wuzi_tools::bench::positions();
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for depth in [2u32, 4] {
        group.bench_with_input(
            BenchmarkId::new("bench positions", depth),
            &depth,
            |b, &d| {
                let mut engine = Engine::new(16);
                b.iter(|| {
                    let limits = Limits {
                        depth: Some(d),
                        ..Limits::default()
                    };
                    for g in &games {
                        engine.clear();
                        engine.search(g, Level::Hard, limits, &cancel, 0);
                    }
                });
            },
        );
    }
    group.finish();
}

/// The puzzles of `kind` ("VCF" or "VCT") as (id, board, rule, side to move, JSON).
fn puzzles(kind: &str) -> Vec<(String, Board, Rule, Color, serde_json::Value)> {
    let text = include_str!("../../tests/fixtures/puzzles.jsonl");
    let mut out = vec![];
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["kind"].as_str() != Some(kind) {
            continue;
        }
        let size = v["size"].as_u64().unwrap() as u8;
        let mut b = Board::new(size).unwrap();
        for (k, col) in [("black", Color::Black), ("white", Color::White)] {
            for s in v[k].as_array().unwrap() {
                b.place(Point::from_rif(s.as_str().unwrap(), size).unwrap(), col);
            }
        }
        let rule: Rule = v["rule"].as_str().unwrap().parse().unwrap();
        let to_move: Color = v["to_move"].as_str().unwrap().parse().unwrap();
        let id = v["id"].as_str().unwrap().to_string();
        out.push((id, b, rule, to_move, v));
    }
    out
}

fn vcf(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf");
    group.sample_size(20);
    for (id, b, rule, to_move, _) in puzzles("VCF") {
        group.bench_function(id, |bench| {
            bench.iter(|| {
                // A fresh solver each time: no cached proofs.
                let mut pos = Position::new(&b, rule, to_move);
                let mut ts = ThreatSearch::new(1 << 16);
                assert!(ts.vcf(&mut pos, 255).is_some());
            });
        });
    }
    group.finish();
}

/// Time to prove each published VCT (the puzzles with a solution depth) from a cold solver.
fn vct(c: &mut Criterion) {
    let mut group = c.benchmark_group("vct");
    group.sample_size(10);
    for (id, b, rule, to_move, v) in puzzles("VCT") {
        let Some(depth) = v["expect"]["solved_with_depth"][0]
            .as_str()
            .and_then(|d| d.parse::<u32>().ok())
        else {
            continue;
        };
        group.bench_function(id, |bench| {
            bench.iter(|| {
                let mut pos = Position::new(&b, rule, to_move);
                let mut ts = ThreatSearch::new(1 << 18);
                assert!(ts.vct(&mut pos, depth, 20).is_some());
            });
        });
    }
    group.finish();
}

criterion_group!(benches, pattern_update, search, vcf, vct);
criterion_main!(benches);
