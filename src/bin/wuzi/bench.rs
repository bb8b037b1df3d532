//! `wuzi bench`: a fixed-depth search over fixed positions. The node count is deterministic,
//! so a change in search behaviour shows up as a changed number in `docs/bench-nodes.txt`;
//! nodes/s measures speed.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi::notation::parse_moves_game;
use wuzi::{Engine, Level, Limits, Rule};

use crate::args::{usage, CliError, Flags};
use crate::hint::number_flag;

const HELP: &str = "\
usage: wuzi bench [--depth D]

Searches a fixed set of positions to depth D (default 6) with a fresh engine each, single
threaded and without a time limit, and prints the nodes per position, then the total nodes,
nodes/s and time. The total node count at a given depth is deterministic.
";

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 6;

/// The bench positions: (rule, moves). Openings and early middle games under each rule, none
/// decided at the root by a threat search (which would cost one node and measure nothing).
pub const POSITIONS: &[(Rule, &str)] = &[
    (Rule::Freestyle, "h8"),
    (Rule::Freestyle, "h8 i9 g7 j10 g9"),
    (Rule::Freestyle, "h8 i9 i8 g8 j7 k6 h7"),
    (Rule::Standard, "h8 h9 i9 g7 j10 k11 i8 i10 g9"),
    (Rule::Renju, "h8 i9 j8 i8 i7 g9 h9 h10 j7"),
    (Rule::Renju, "h8 h9 i7 g9 j9 i10 g8 f7"),
    (Rule::Renju, "h8 i9 i8 g8 j7 k6 h7 h6 g6 f5"),
];

/// Table size per bench search: fixed, so the node count does not depend on the machine.
const TT_MIB: usize = 16;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["depth"], HELP)?;
    let depth = number_flag::<u32>(&flags, "depth")?.unwrap_or(DEFAULT_DEPTH);
    if !(1..=30).contains(&depth) {
        return Err(usage("--depth must be from 1 to 30"));
    }
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (i, &(rule, moves)) in POSITIONS.iter().enumerate() {
        let game = parse_moves_game(moves, rule, 15).expect("bench positions are legal");
        let mut engine = Engine::new(TT_MIB);
        let limits = Limits {
            time: None,
            nodes: None,
            depth: Some(depth),
        };
        let t = Instant::now();
        let r = engine.search(&game, Level::Hard, limits, &AtomicBool::new(false), 0);
        let spent = t.elapsed();
        total_nodes += r.nodes;
        total_time += spent;
        println!(
            "position {:>2} ({rule}, {} stones): best {} nodes {} time {} ms",
            i + 1,
            game.moves().len(),
            r.best.map_or("-".to_string(), |p| p.rif(15).to_string()),
            r.nodes,
            spent.as_millis()
        );
    }
    let secs = total_time.as_secs_f64().max(1e-9);
    println!("depth: {depth}");
    println!("nodes: {total_nodes}");
    println!("nodes/s: {:.0}", total_nodes as f64 / secs);
    println!("time: {} ms", total_time.as_millis());
    Ok(())
}
