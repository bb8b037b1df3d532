//! `wuzi-arena`: a Gomocup (piskvork protocol) match manager for testing engine changes.
//!
//! It plays any two brain commands against each other — two builds of `pbrain-wuzi`, or
//! Wuzi against an outside engine — with Wuzi's own referee ([`wuzi::Game`]) deciding every
//! move, so renju forbidden points, exact-five and overlines are judged exactly as in the
//! game. Games come in pairs from balanced openings with colours swapped; the report gives a
//! score, a logistic Elo difference with its 95% interval from the pentanomial pair results,
//! results per colour and both engines' move times measured at the manager's side of the
//! pipe. `sprt` runs pairs until a generalised SPRT decides between two Elo hypotheses, the
//! way fishtest tests engine patches. `openings` generates the opening files with Wuzi's
//! engine.
//!
//! Layout: `args` (flags, command splitting) → `openings` (the file format) → `protocol`
//! (answer lines, move requests) → `brain` (a process and its reader thread) → `game` (one
//! refereed game) → `runner` (worker threads playing pairs) → `stats` (win/loss/draw
//! counts, Elo, LLR) → `report` (text, Markdown) and `gamelog` (one JSON line a game) →
//! `play` (the `match` and `sprt` commands); `generate` is the `openings` command,
//! `yardstick` the `yardstick` command (opening sets chosen by rules alone, for gauntlets),
//! `times` the `times` command (move times in open positions, also used by the report).

mod args;
mod brain;
mod error;
mod game;
mod gamelog;
mod generate;
mod openings;
mod play;
mod protocol;
mod report;
mod runner;
mod setup;
mod stats;
mod times;
mod yardstick;

use std::process::ExitCode;

use error::ArenaError;

/// A subcommand: its name, a one-line summary and its entry point.
type Command = (
    &'static str,
    &'static str,
    fn(&[String]) -> Result<(), ArenaError>,
);

const COMMANDS: &[Command] = &[
    (
        "match",
        "play N pairs of two brains; score, Elo, colours, move times",
        play::run_match,
    ),
    (
        "sprt",
        "play pairs until the GSPRT accepts H0 or H1 (for engine changes)",
        play::run_sprt,
    ),
    (
        "openings",
        "generate balanced openings with Wuzi's engine",
        generate::run,
    ),
    (
        "yardstick",
        "opening sets chosen by rules alone, for outside-engine gauntlets",
        yardstick::run,
    ),
    (
        "times",
        "move times of a games file: all moves and open positions",
        times::run,
    ),
];

fn usage() -> String {
    let mut s = String::from("usage: wuzi-arena <command> [options]\n\ncommands:\n");
    for (name, summary, _) in COMMANDS {
        s.push_str(&format!("  {name:<10} {summary}\n"));
    }
    s.push_str("\nrun `wuzi-arena <command> --help` for a command's options\n");
    s
}

fn main() -> ExitCode {
    let argv: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let Ok(argv) = argv else {
        eprintln!("wuzi-arena: arguments must be valid UTF-8");
        return ExitCode::from(2);
    };
    let Some((name, rest)) = argv.split_first() else {
        eprint!("wuzi-arena: missing command\n\n{}", usage());
        return ExitCode::from(2);
    };
    if matches!(name.as_str(), "help" | "--help" | "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some((_, _, run)) = COMMANDS.iter().find(|(n, _, _)| n == name) else {
        eprintln!("wuzi-arena: unknown command {name:?} (try `wuzi-arena help`)");
        return ExitCode::from(2);
    };
    match run(rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ArenaError::Help(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi-arena {name}: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
