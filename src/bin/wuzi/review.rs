//! `wuzi review`: every move of a game classified against the engine's choice, one line of
//! JSON per move.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use wuzi::ai::review::review;
use wuzi::Engine;

use crate::args::{CliError, Flags};
use crate::hint::{budget_flags, game_flags, GAME_FLAGS, POSITION_HELP};

const HELP: &str = "\
usage: wuzi review --rule R [--size N] --moves \"h8 i9 ...\" [--time-ms T | --nodes K]
                   [--setup \"AB ..; AW ..; PL B|W\" | --sgf FILE]

Reviews the game (black first, RIF points separated by spaces; it may be finished): each
position is searched once by Master (T ms each, default 300, or K nodes each for a
deterministic review), and every move is printed as one line of JSON:
  {\"ply\":17,\"move\":\"k9\",\"color\":\"black\",\"class\":\"blunder\",\"best\":\"j10\",
   \"score_before\":40,\"score_after\":-650}
class is best (the engine's choice), good, lost, inaccuracy, mistake, blunder or missed-win (a
forced win existed and the move let it go); a move after which the opponent has a forced win,
where none was proven against the mover before, is at least a mistake. In a proven lost
position a move is judged by how long it holds out against the best defence: as long, lost;
sooner by a move or more, inaccuracy; in half the plies or fewer, mistake. In the opening (fewer
than 5 stones) a move more than 2 rows or columns from every stone (from the centre on an empty
board) gives away the first move and is at least an inaccuracy. Scores are the mover's
(mate scores are +-(30000 - plies)). Exit 2 with one line on stderr for bad input.
";

/// Transposition table for a review.
const TT_MIB: usize = 64;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[&GAME_FLAGS[..], &["time-ms", "nodes"]].concat(),
        &format!("{HELP}\n{POSITION_HELP}"),
    )?;
    let (game, size) = game_flags(&flags)?;
    let limits = budget_flags(&flags, 300)?;
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
