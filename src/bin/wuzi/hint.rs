//! `wuzi hint`: the engine's best move for the side to move, as one line of JSON.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi::notation::{parse_moves_game, parse_points, parse_sgf};
use wuzi::{Color, Engine, Game, Level, Rule, Setup};

use crate::args::{level_named, number_flag, usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi hint --rule R [--size N] --moves \"h8 i9 ...\" [--level L] [--time-ms T] [--seed S]
                 [--setup \"AB h8 i9; AW h9; PL W\" | --sgf FILE]

Searches the position after the moves (black first, RIF points separated by spaces) and prints
one line of JSON:
  {\"move\":\"j10\",\"score\":123,\"depth\":9,\"nodes\":45678,\"verdict\":\"black is better\",\"pv\":[\"j10\",...]}
score is from the side to move's point of view. --level 1..5 or beginner..master (default
master), --time-ms overrides the level's time budget. Exit 2 with one line on stderr for bad
input, or when the game is already over.
";

/// How the position flags are described in every command's help.
pub const POSITION_HELP: &str = "\
The position: --moves from the empty board; or --setup \"AB h8 i9; AW h9 g7; PL W\" (black and
white stones in RIF, the side to move; without PL the side with fewer stones, black when even)
followed by --moves from there; or --sgf FILE, an SGF record (with AB/AW/PL setup or not) whose
RU/SZ override --rule/--size.
";

/// The flags [`game_flags`] reads, for each command's list of known flags.
pub const GAME_FLAGS: [&str; 5] = ["rule", "size", "moves", "setup", "sgf"];

/// Transposition table for a one-off search: small, it lives for one command.
const TT_MIB: usize = 32;

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[&GAME_FLAGS[..], &["level", "time-ms", "seed"]].concat(),
        &format!("{HELP}\n{POSITION_HELP}"),
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

/// `--rule`, `--size`, `--moves`, `--setup` and `--sgf` (see [`POSITION_HELP`]): the game,
/// and its size.
pub fn game_flags(flags: &Flags) -> Result<(Game, u8), CliError> {
    let rule = flags.rule(Some(Rule::default()))?;
    let size = flags.size()?;
    if let Some(path) = flags.get("sgf") {
        for other in ["moves", "setup"] {
            if flags.get(other).is_some() {
                return Err(usage(format!("--sgf and --{other} exclude each other")));
            }
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("--sgf: cannot read {path:?}: {e}")))?;
        let game = parse_sgf(&text, rule, size).map_err(|e| usage(format!("--sgf: {e}")))?;
        let size = game.size();
        return Ok((game, size));
    }
    let moves = flags.get("moves").unwrap_or("");
    let Some(text) = flags.get("setup") else {
        let game =
            parse_moves_game(moves, rule, size).map_err(|e| usage(format!("--moves: {e}")))?;
        return Ok((game, size));
    };
    let setup = parse_setup(text, size).map_err(|e| usage(format!("--setup: {e}")))?;
    let mut game = Game::from_setup(rule, &setup).map_err(|e| usage(format!("--setup: {e}")))?;
    let points = parse_points(moves, size).map_err(|e| usage(format!("--moves: {e}")))?;
    for (i, (p, _)) in points.into_iter().enumerate() {
        game.try_play(p).map_err(|e| {
            usage(format!(
                "--moves: move {} ({}) is illegal: {e}",
                i + 1,
                p.rif(size)
            ))
        })?;
    }
    Ok((game, size))
}

/// Reads `AB h8 i9; AW h9 g7; PL W`: fields separated by `;`, each a key and its values
/// (RIF points separated by spaces or commas for `AB`/`AW`; a colour for `PL`, `W`, `white`
/// or anything else [`Color`]'s parser reads), keys in any case and order; a key given twice adds to it. Without `PL` the side
/// with fewer stones moves, black when the counts are equal (as for SGF without `PL`).
pub fn parse_setup(text: &str, size: u8) -> Result<Setup, String> {
    let mut setup = Setup::empty(size);
    let mut to_move = None;
    for field in text.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        let (key, rest) = field.split_once(char::is_whitespace).unwrap_or((field, ""));
        match key.to_ascii_uppercase().as_str() {
            "AB" | "AW" => {
                let points = parse_points(rest, size).map_err(|e| format!("{key}: {e}"))?;
                let list = if key.eq_ignore_ascii_case("AB") {
                    &mut setup.black
                } else {
                    &mut setup.white
                };
                list.extend(points.into_iter().map(|(p, _)| p));
            }
            "PL" => {
                to_move = Some(rest.parse().map_err(|e| format!("PL: {e}"))?);
            }
            _ => {
                return Err(format!(
                    "unknown field {key:?} (expected AB, AW or PL, separated by ';')"
                ))
            }
        }
    }
    setup.to_move = to_move.unwrap_or(if setup.black.len() > setup.white.len() {
        Color::White
    } else {
        Color::Black
    });
    Ok(setup)
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

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::Point;

    #[test]
    fn setup_text_is_read_in_any_order_and_case() {
        let p = |s: &str| Point::from_rif(s, 15).unwrap();
        let s = parse_setup(" aw h9, g7 ; AB h8 i9;pl white ", 15).unwrap();
        assert_eq!(s.black, [p("h8"), p("i9")]);
        assert_eq!(s.white, [p("h9"), p("g7")]);
        assert_eq!(s.to_move, Color::White);
        assert_eq!(
            parse_setup("AB h8 i9; AW h9", 15).unwrap().to_move,
            Color::White
        );
        assert_eq!(
            parse_setup("AB h8; AW h9", 15).unwrap().to_move,
            Color::Black
        );
        assert_eq!(
            parse_setup("AW h9 j9; PL B", 15).unwrap().to_move,
            Color::Black
        );
        assert_eq!(parse_setup("AB h8; AB i9", 15).unwrap().black.len(), 2);
        assert_eq!(parse_setup("", 15).unwrap(), Setup::empty(15));
        for bad in ["AB z99", "AX h8", "PL red", "PL", "AB h8 PL W", "h8"] {
            assert!(parse_setup(bad, 15).is_err(), "{bad:?}");
        }
    }
}
