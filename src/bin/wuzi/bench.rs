//! `wuzi bench`: the engine's fixed bench ([`wuzi::ai::bench`]): fixed positions searched to a
//! fixed depth. The node count is deterministic, so a change in search behaviour shows up as a
//! changed number in `docs/bench-nodes.txt`; nodes/s measures speed.

use wuzi::ai::bench;

use crate::args::{usage, CliError, Flags};
use crate::hint::number_flag;

const HELP: &str = "\
usage: wuzi bench [--depth D]

Searches the engine's fixed bench positions (wuzi::ai::bench) to depth D (default 6) at Hard
strength with a fresh engine each, single threaded and without a time limit, and prints the
positions, depth, total nodes, nodes/s and time. The node count at a given depth is
deterministic; docs/bench-nodes.txt records it.
";

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 6;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["depth"], HELP)?;
    let depth = number_flag::<u32>(&flags, "depth")?.unwrap_or(DEFAULT_DEPTH);
    if !(1..=30).contains(&depth) {
        return Err(usage("--depth must be from 1 to 30"));
    }
    let r = bench::run(depth);
    println!("positions: {}", r.positions);
    println!("depth: {}", r.depth);
    println!("nodes: {}", r.nodes);
    println!("nodes/s: {}", r.nps());
    println!("time: {} ms", r.elapsed.as_millis());
    Ok(())
}
