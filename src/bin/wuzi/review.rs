//! `wuzi review`: every move of a game classified against the engine's choice, one line of
//! JSON per move.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi::ai::review::review;
use wuzi::notation::parse_moves_game;
use wuzi::{Engine, Limits, Rule};

use crate::args::{usage, CliError, Flags};
use crate::hint::number_flag;

const HELP: &str = "\
usage: wuzi review --rule R [--size N] --moves \"h8 i9 ...\" [--time-ms T | --nodes K]

Reviews the game (black first, RIF points separated by spaces; it may be finished): each
position is searched once by Master (T ms each, default 300, or K nodes each for a
deterministic review), and every move is printed as one line of JSON:
  {\"ply\":17,\"move\":\"k9\",\"color\":\"black\",\"class\":\"blunder\",\"best\":\"j10\",
   \"score_before\":40,\"score_after\":-650}
class is best (the engine's choice), good, inaccuracy, mistake, blunder or missed-win (a forced
win existed and the move let it go); a move after which the opponent has a forced win, where
none was proven against the mover before, is at least a mistake. Scores are the mover's
(mate scores are +-(30000 - plies)). Exit 2 with one line on stderr for bad input.
";

/// Transposition table for a review.
const TT_MIB: usize = 64;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["rule", "size", "moves", "time-ms", "nodes"], HELP)?;
    let rule = flags.rule(Some(Rule::default()))?;
    let size = flags.size()?;
    let game = parse_moves_game(flags.get("moves").unwrap_or(""), rule, size)
        .map_err(|e| usage(format!("--moves: {e}")))?;
    let limits = match (
        number_flag::<u64>(&flags, "nodes")?,
        number_flag::<u64>(&flags, "time-ms")?,
    ) {
        (Some(_), Some(_)) => return Err(usage("--nodes and --time-ms exclude each other")),
        (Some(k), None) => Limits::nodes(k.max(1)),
        (None, ms) => Limits::time(Duration::from_millis(ms.unwrap_or(300).max(1))),
    };
    let mut engine = Engine::new(TT_MIB);
    let reviewed = review(
        &mut engine,
        &game,
        limits,
        &AtomicBool::new(false),
        |_, _| {},
    );
    let rif = |p: wuzi::Point| p.rif(size).to_string();
    let mut out = std::io::stdout().lock();
    for r in reviewed {
        let line = Line {
            ply: r.ply,
            r#move: rif(r.point),
            color: r.color.to_string(),
            class: r.class.name(),
            best: r.best.map(rif),
            score_before: r.score_before,
            score_after: r.score_after,
        };
        let json = serde_json::to_string(&line).map_err(std::io::Error::from)?;
        writeln!(out, "{json}")?;
    }
    Ok(())
}

/// One output line; a struct so the keys keep this order.
#[derive(serde::Serialize)]
struct Line {
    ply: usize,
    r#move: String,
    color: String,
    class: &'static str,
    best: Option<String>,
    score_before: i32,
    score_after: i32,
}
