//! `wuzi-tools reach`: the reach yardstick ([`wuzi_tools::reach`]): how soon the search proves
//! the wins of a fixed set of positions, for one configuration or two side by side.

use std::time::Duration;

use wuzi::Params;
use wuzi_tools::reach::{attempt, budget, compare, parse_positions, summarize, Attempt, TT_MIB};

use crate::args::{number_flag, usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi-tools reach --positions FILE --rule R [--size N] [--nodes K] [--time-ms T]
                        [--param NAME=V,...] [--param-b NAME=V,...]

Searches every position of FILE (one a line as RIF moves, `#` comments; made by
scripts/reach-positions.py) at Master strength, one thread, a fresh 128 MiB table each,
until the search proves the side to move's win or the budget runs out: --nodes K
(deterministic; default 2000000 when --time-ms is not given) or --time-ms T (the whole of T
unless the win is proven first). --param sets the search constants as pbrain-wuzi's --param
does; with --param-b every position is searched a second time with those (B), right after A.
Prints a line per position and then, per configuration, the positions proven and the median
nodes and time to proof; with B, the positions each proved alone and, over those both proved,
which needed fewer nodes and the geometric mean of B's nodes and time over A's. Progress
lines go to stdout as they come. Exit 2 for bad input, 1 when FILE cannot be read.
";

fn params(flags: &Flags, name: &str) -> Result<Option<Params>, CliError> {
    let Some(list) = flags.get(name) else {
        return Ok(None);
    };
    let mut p = Params::default();
    p.set_list(list)
        .map_err(|e| usage(format!("--{name}: {e}")))?;
    Ok(Some(p))
}

fn show(a: &Attempt) -> String {
    match a.win_plies {
        Some(plies) => format!(
            "win in {plies:>2} after {:>9} nodes {:>7.2} s",
            a.nodes,
            a.elapsed.as_secs_f64()
        ),
        None => format!(
            "not proven   ({:>9} nodes {:>7.2} s)",
            a.nodes,
            a.elapsed.as_secs_f64()
        ),
    }
}

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[
            "positions",
            "rule",
            "size",
            "nodes",
            "time-ms",
            "param",
            "param-b",
        ],
        HELP,
    )?;
    let rule = flags.rule(None)?;
    let size = flags.size()?;
    let path = flags.required("positions")?;
    let text = std::fs::read_to_string(path)?;
    let positions =
        parse_positions(&text, rule, size).map_err(|e| usage(format!("{path}: {e}")))?;
    if positions.is_empty() {
        return Err(usage(format!("{path}: no positions")));
    }
    let nodes = number_flag::<u64>(&flags, "nodes")?;
    let time = number_flag::<u64>(&flags, "time-ms")?.map(Duration::from_millis);
    if nodes == Some(0) || time == Some(Duration::ZERO) {
        return Err(usage("--nodes and --time-ms must be positive"));
    }
    let limits = budget(nodes, time);
    let a_params = params(&flags, "param")?.unwrap_or_default();
    let b_params = params(&flags, "param-b")?;

    let mut engine = wuzi::Engine::new(TT_MIB);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (i, p) in positions.iter().enumerate() {
        let x = attempt(&mut engine, &p.game, &a_params, limits);
        let mut line = format!(
            "{:>4}/{} line {:>4}  A: {}",
            i + 1,
            positions.len(),
            p.line,
            show(&x)
        );
        a.push(x);
        if let Some(bp) = &b_params {
            let y = attempt(&mut engine, &p.game, bp, limits);
            line.push_str(&format!("  B: {}", show(&y)));
            b.push(y);
        }
        println!("{line}  # {}", p.note);
    }
    for (name, list) in [("A", &a), ("B", &b)] {
        if list.is_empty() {
            continue;
        }
        let s = summarize(list);
        println!(
            "{name}: proven {} of {}, median to proof {} nodes, {:.2} s",
            s.proven,
            s.positions,
            s.median_nodes,
            s.median_time.as_secs_f64()
        );
    }
    if !b.is_empty() {
        let c = compare(&a, &b);
        println!(
            "both proven {}, A only {}, B only {}; fewer nodes: A {} B {}; B/A nodes {:.3}, time {:.3} (geometric means)",
            c.both, c.only_a, c.only_b, c.a_fewer_nodes, c.b_fewer_nodes, c.node_ratio, c.time_ratio
        );
    }
    Ok(())
}
