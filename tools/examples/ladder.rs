//! Calibrates the level ladder by self-play: each level against the one below.
//!
//! `cargo run --release -p wuzi-tools --example ladder -- [games] [time-scale%] [rule] [pairs...]`
//! e.g. `-- 40 50 freestyle 2 3` plays Medium–Easy and Hard–Medium, 40 games each, with every
//! level's default time budget halved. Pairs are named by the stronger level's number.

use std::time::{Duration, Instant};

use wuzi::ai::openings::piskvork_openings;
use wuzi::{Level, Limits, Rule};
use wuzi_tools::{play_match, MatchConfig, ResultForA};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(40);
    let scale: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let rule: Rule = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Rule::Freestyle);
    let pairs: Vec<u8> = if args.len() > 3 {
        args[3..].iter().filter_map(|s| s.parse().ok()).collect()
    } else {
        vec![2, 3, 4, 5]
    };
    let scaled = |l: Level| -> Limits {
        let t = l
            .default_limits()
            .time
            .unwrap_or(Duration::from_millis(100));
        Limits::time(t * scale / 100)
    };
    println!("| pair | rule | budgets | games | W | L | D | score |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for hi in pairs {
        let (Some(a), Some(b)) = (Level::from_number(hi), Level::from_number(hi - 1)) else {
            continue;
        };
        let (la, lb) = (scaled(a), scaled(b));
        let cfg = MatchConfig {
            a,
            b,
            games,
            rule,
            size: 15,
            limits_a: Some(la),
            limits_b: Some(lb),
            openings: piskvork_openings(),
            seed: 2026,
            tt_mib: 32,
        };
        let start = Instant::now();
        let r = play_match(&cfg, |g| {
            let o = match g.outcome {
                ResultForA::Win => "W",
                ResultForA::Loss => "L",
                ResultForA::Draw => "D",
            };
            let moves: Vec<String> = g.moves.iter().map(|p| p.rif(15).to_string()).collect();
            eprintln!(
                "{a} vs {b} game {} ({} as {}): {o} in {} moves: {}",
                g.index,
                a,
                g.a_color,
                g.moves.len(),
                moves.join(" ")
            );
        });
        println!(
            "| {a} vs {b} | {rule} | {:?} / {:?} | {} | {} | {} | {} | {:.1}% |",
            la.time.unwrap_or_default(),
            lb.time.unwrap_or_default(),
            r.games,
            r.a_wins,
            r.b_wins,
            r.draws,
            r.score_percent()
        );
        eprintln!("pair took {:?}", start.elapsed());
    }
}
