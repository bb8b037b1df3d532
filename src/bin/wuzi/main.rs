//! `wuzi`: the engine on the command line.
//!
//! `main` only dispatches: each subcommand lives in its own module with a
//! `run(&[String]) -> Result<(), CliError>` and one line in [`COMMANDS`].
//!
//! The engine's development tools (`bench`, `match`, `datagen`, `tune`) are not here: they
//! are the `wuzi-tools` binary of the `wuzi-tools` crate (`tools/`), so that nothing built
//! from this crate links them.

mod analyze;
mod args;
mod forbidden;
mod hint;
mod judge;
mod openings;
mod play;
mod review;

use std::process::ExitCode;

use args::CliError;

/// A subcommand: its name, a one-line summary and its entry point.
type Command = (
    &'static str,
    &'static str,
    fn(&[String]) -> Result<(), CliError>,
);

const COMMANDS: &[Command] = &[
    ("judge", "judge one move in a position (JSON)", judge::run),
    (
        "forbidden",
        "list black's forbidden points under renju (JSON)",
        forbidden::run,
    ),
    (
        "play",
        "two players at one terminal, or against the engine",
        play::run,
    ),
    (
        "hint",
        "the engine's best move in a position (JSON)",
        hint::run,
    ),
    (
        "analyze",
        "the engine's best lines in a position, multi-PV (JSON)",
        analyze::run,
    ),
    (
        "review",
        "every move of a game classified against the engine (JSON lines)",
        review::run,
    ),
    (
        "openings",
        "renju's 26 canonical openings (--renju)",
        openings::run,
    ),
];

/// Subcommands that moved to the `wuzi-tools` binary: named, they get a pointer there.
const MOVED_TO_TOOLS: [&str; 4] = ["bench", "match", "datagen", "tune"];

fn usage() -> String {
    let mut s = String::from("usage: wuzi <command> [options]\n\ncommands:\n");
    for (name, summary, _) in COMMANDS {
        s.push_str(&format!("  {name:<10} {summary}\n"));
    }
    s.push_str("\nrun `wuzi <command> --help` for a command's options\n");
    s
}

fn main() -> ExitCode {
    let argv: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let Ok(argv) = argv else {
        eprintln!("wuzi: arguments must be valid UTF-8");
        return ExitCode::from(2);
    };
    let Some((name, rest)) = argv.split_first() else {
        let names: Vec<&str> = COMMANDS.iter().map(|(n, _, _)| *n).collect();
        eprintln!(
            "wuzi: missing command ({}; try `wuzi help`)",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    if matches!(name.as_str(), "help" | "--help" | "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some((_, _, run)) = COMMANDS.iter().find(|(n, _, _)| n == name) else {
        if MOVED_TO_TOOLS.contains(&name.as_str()) {
            eprintln!(
                "wuzi: `{name}` is a tool now: `wuzi-tools {name}` \
                 (cargo run --release -p wuzi-tools -- {name} ...)"
            );
            return ExitCode::from(2);
        }
        eprintln!("wuzi: unknown command {name:?} (try `wuzi help`)");
        return ExitCode::from(2);
    };
    match run(rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Help(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi {name}: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
