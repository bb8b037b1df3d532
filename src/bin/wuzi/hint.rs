//! `wuzi hint`: the engine's best move for the side to move, as one line of JSON.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi::notation::parse_moves_game;
use wuzi::{Engine, Level, Rule};

use crate::args::{usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi hint --rule R [--size N] --moves \"h8 i9 ...\" [--level L] [--time-ms T] [--seed S]

Searches the position after the moves (black first, RIF points separated by spaces) and prints
one line of JSON:
  {\"move\":\"j10\",\"score\":123,\"depth\":9,\"nodes\":45678,\"verdict\":\"black is better\",\"pv\":[\"j10\",...]}
score is from the side to move's point of view. --level 1..5 or beginner..master (default
master), --time-ms overrides the level's time budget. Exit 2 with one line on stderr for bad
input, or when the game is already over.
";

/// Transposition table for a one-off search: small, it lives for one command.
const TT_MIB: usize = 32;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &["rule", "size", "moves", "level", "time-ms", "seed"],
        HELP,
    )?;
    let (game, size) = game_flags(&flags)?;
    if let Some(result) = game.result() {
        return Err(game_over(result));
    }
    let level = level_flag(&flags, Level::Master)?;
    let mut limits = level.default_limits();
    if let Some(ms) = number_flag::<u64>(&flags, "time-ms")? {
        limits.time = Some(Duration::from_millis(ms));
    }
    let seed = number_flag::<u64>(&flags, "seed")?.unwrap_or(0);

    let mut engine = Engine::new(TT_MIB);
    let r = engine.search(&game, level, limits, &AtomicBool::new(false), seed);
    let rif = |p: wuzi::Point| p.rif(size).to_string();
    let hint = Hint {
        r#move: r.best.map(rif),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        verdict: r.verdict.to_string(),
        pv: r.pv.iter().copied().map(rif).collect(),
    };
    println!(
        "{}",
        serde_json::to_string(&hint).map_err(std::io::Error::from)?
    );
    Ok(())
}

/// `--rule`, `--size` and `--moves`: the game after the moves, and its size.
pub fn game_flags(flags: &Flags) -> Result<(wuzi::Game, u8), CliError> {
    let rule = flags.rule(Some(Rule::default()))?;
    let size = flags.size()?;
    let game = parse_moves_game(flags.get("moves").unwrap_or(""), rule, size)
        .map_err(|e| usage(format!("--moves: {e}")))?;
    Ok((game, size))
}

/// `--nodes K` or `--time-ms T` (not both): a node budget, or a time budget of
/// `default_ms` when neither is given.
pub fn budget_flags(flags: &Flags, default_ms: u64) -> Result<wuzi::Limits, CliError> {
    match (
        number_flag::<u64>(flags, "nodes")?,
        number_flag::<u64>(flags, "time-ms")?,
    ) {
        (Some(_), Some(_)) => Err(usage("--nodes and --time-ms exclude each other")),
        (Some(k), None) => Ok(wuzi::Limits::nodes(k.max(1))),
        (None, ms) => Ok(wuzi::Limits::time(Duration::from_millis(
            ms.unwrap_or(default_ms).max(1),
        ))),
    }
}

/// The refusal for a position whose game is already over.
pub fn game_over(result: &wuzi::GameResult) -> CliError {
    usage(match result.winner {
        Some(c) => format!("the game is over: {c} has won"),
        None => format!(
            "the game is over: a draw, {}",
            result.draw.unwrap_or(wuzi::Draw::FullBoard)
        ),
    })
}

/// `--level`, as a number or a name.
pub fn level_flag(flags: &Flags, default: Level) -> Result<Level, CliError> {
    level_named(flags, "level", default)
}

/// A level flag under another name (`--a`, `--b`).
pub fn level_named(flags: &Flags, name: &str, default: Level) -> Result<Level, CliError> {
    match flags.get(name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|e| usage(format!("--{name}: {e}"))),
    }
}

/// An optional numeric flag.
pub fn number_flag<T: std::str::FromStr>(flags: &Flags, name: &str) -> Result<Option<T>, CliError> {
    match flags.get(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| usage(format!("--{name}: {v:?} is not a valid number"))),
    }
}

/// The output line; a struct so the keys keep this order.
#[derive(serde::Serialize)]
struct Hint {
    r#move: Option<String>,
    score: i32,
    depth: u32,
    nodes: u64,
    verdict: String,
    pv: Vec<String>,
}
