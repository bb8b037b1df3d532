//! `wuzi-tools bench`: the engine's fixed bench ([`wuzi_tools::bench`]): fixed positions searched to a
//! fixed depth. The node count is deterministic, so a change in search behaviour shows up as a
//! changed number in `docs/bench-nodes.txt`; nodes/s measures speed.

use wuzi::ai::net::{install_net, Net};
use wuzi_tools::bench;

use crate::args::{number_flag, usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi-tools bench [--depth D] [--threads N] [--net RULE=FILE]

Searches the engine's fixed bench positions (wuzi_tools::bench) to depth D (default 6) at
Master strength with a fresh engine each, single threaded and without a time limit, and prints
the positions, depth, total nodes, nodes/s and time. The node count at a given depth is
deterministic; docs/bench-nodes.txt records it.

--threads N (N > 1) runs the same positions once with one thread and once with N threads
(Lazy SMP; each search ends when any thread completes depth D) and also prints the N-thread
nodes and time, the ratio of their nodes/s (about N when each thread had a core, about 1 on a
busy machine) and the time-to-depth speed-up (1-thread time / N-thread time). Multi-threaded
node counts and times vary from run to run.

--net RULE=FILE evaluates RULE's positions with the learned network in FILE (from
wuzi-tools train-net), to measure what it costs.
";

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 6;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["depth", "threads", "net"], HELP)?;
    if let Some(v) = flags.get("net") {
        let (rule, path) = v
            .split_once('=')
            .ok_or_else(|| usage(format!("--net {v}: expected RULE=FILE")))?;
        let rule: wuzi::Rule = rule.parse().map_err(|e| usage(format!("--net {v}: {e}")))?;
        let bytes = std::fs::read(path)?;
        let net = Net::from_bytes(&bytes).map_err(|e| usage(format!("--net {path}: {e}")))?;
        install_net(rule, net).map_err(|e| usage(format!("--net: {e}")))?;
    }
    let depth = number_flag::<u32>(&flags, "depth")?.unwrap_or(DEFAULT_DEPTH);
    if !(1..=30).contains(&depth) {
        return Err(usage("--depth must be from 1 to 30"));
    }
    let threads = number_flag::<usize>(&flags, "threads")?.unwrap_or(1);
    if !(1..=wuzi::MAX_THREADS).contains(&threads) {
        return Err(usage(format!(
            "--threads must be from 1 to {}",
            wuzi::MAX_THREADS
        )));
    }
    let r = bench::run(depth);
    println!("positions: {}", r.positions);
    println!("depth: {}", r.depth);
    println!("nodes: {}", r.nodes);
    println!("nodes/s: {}", r.nps());
    println!("time: {} ms", r.elapsed.as_millis());
    if threads > 1 {
        let m = bench::run_threads(depth, threads);
        let speedup = r.elapsed.as_secs_f64() / m.elapsed.as_secs_f64().max(1e-9);
        println!("threads: {}", m.threads);
        println!("threaded nodes: {}", m.nodes);
        println!("threaded nodes/s: {}", m.nps());
        println!("threaded time: {} ms", m.elapsed.as_millis());
        // About N when every thread had a core of its own, about 1 when they shared one: on
        // a busy machine this tells whether the speed-up below means anything.
        println!(
            "threaded/single nodes/s: {:.2}",
            m.nps() as f64 / r.nps().max(1) as f64
        );
        println!("time-to-depth speed-up: {speedup:.2}x");
    }
    Ok(())
}
