//! `wuzi analyze`: the engine's best lines (multi-PV) in a position, as one line of JSON.

use std::sync::atomic::AtomicBool;

use wuzi::{Engine, Verdict};

use crate::args::{number_flag, usage, CliError, Flags};
use crate::hint::{budget_flags, game_flags, game_over, GAME_FLAGS, POSITION_HELP};

const HELP: &str = "\
usage: wuzi analyze --rule R [--size N] --moves \"h8 i9 ...\" [--multipv N] [--time-ms T]
                    [--nodes K] [--seed S] [--setup \"AB ..; AW ..; PL B|W\" | --sgf FILE]

Searches the position after the moves (black first, RIF points separated by spaces) for its N
best moves (default 3, at most 20), each line with the earlier lines' moves excluded, and
prints one line of JSON, best line first:
  {\"to_move\":\"white\",\"depth\":9,\"nodes\":45678,\"lines\":[{\"move\":\"j10\",\"score\":123,
   \"depth\":9,\"verdict\":\"white is better\",\"win\":null,\"pv\":[\"j10\",...]},...]}
score is from the side to move's point of view; win is null or {\"color\":\"black\",\"plies\":9,
\"by_fours\":true} when the line is a forced win. --time-ms is the whole analysis' time
(default 2000), shared by the lines; --nodes K instead makes it deterministic (K nodes in all).
Fewer lines come back when fewer legal moves exist, and against a five threat only a five of
one's own and the block are lines (a forced block comes back alone). Exit 2 with one line on stderr for bad
input, or when the game is already over.
";

/// Most lines one analysis may ask for.
const MAX_LINES: usize = 20;

/// Transposition table for a one-off analysis.
const TT_MIB: usize = 64;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[&GAME_FLAGS[..], &["multipv", "time-ms", "nodes", "seed"]].concat(),
        &format!("{HELP}\n{POSITION_HELP}"),
    )?;
    let (game, size) = game_flags(&flags)?;
    if let Some(result) = game.result() {
        return Err(game_over(result));
    }
    let lines = number_flag::<usize>(&flags, "multipv")?.unwrap_or(3);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(usage(format!(
            "--multipv: {lines} is not in 1..={MAX_LINES}"
        )));
    }
    let limits = budget_flags(&flags, 2000)?;
    let seed = number_flag::<u64>(&flags, "seed")?.unwrap_or(0);

    let mut engine = Engine::new(TT_MIB);
    let found = engine.analyze(&game, lines, limits, &AtomicBool::new(false), seed);
    let rif = |p: wuzi::Point| p.rif(size).to_string();
    let report = Analysis {
        to_move: game.to_move().to_string(),
        depth: found.iter().map(|r| r.depth).max().unwrap_or(0),
        nodes: found.iter().map(|r| r.nodes).sum(),
        lines: found
            .iter()
            .map(|r| Line {
                r#move: r.best.map(rif),
                score: r.score,
                depth: r.depth,
                verdict: r.verdict.to_string(),
                win: match r.verdict {
                    Verdict::Win {
                        color,
                        plies,
                        by_fours,
                    } => Some(Win {
                        color: color.to_string(),
                        plies,
                        by_fours,
                    }),
                    Verdict::Eval { .. } => None,
                },
                pv: r.pv.iter().copied().map(rif).collect(),
            })
            .collect(),
    };
    println!(
        "{}",
        serde_json::to_string(&report).map_err(std::io::Error::from)?
    );
    Ok(())
}

/// The output line; structs so the keys keep this order.
#[derive(serde::Serialize)]
struct Analysis {
    to_move: String,
    depth: u32,
    nodes: u64,
    lines: Vec<Line>,
}

#[derive(serde::Serialize)]
struct Line {
    r#move: Option<String>,
    score: i32,
    depth: u32,
    verdict: String,
    win: Option<Win>,
    pv: Vec<String>,
}

#[derive(serde::Serialize)]
struct Win {
    color: String,
    plies: u32,
    by_fours: bool,
}
