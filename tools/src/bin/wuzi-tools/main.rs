//! `wuzi-tools`: the engine's development tools on the command line — the search bench, the
//! reach yardstick, level-against-level matches, and the self-play data and fit of the
//! evaluation tables.
//!
//! They were subcommands of the `wuzi` command line; they live in this crate so that nothing
//! built from the product crate links them. Same conventions as `wuzi`: `main` only
//! dispatches, each subcommand is a `run(&[String]) -> Result<(), CliError>` with one line in
//! [`COMMANDS`]; exit 0 on success, 2 for bad input, 1 for I/O errors.

// The flag parser of the `wuzi` command line, one source file for both binaries so the two
// keep the same conventions. The tools use only its generic part.
#[allow(dead_code)]
#[path = "../../../../src/bin/wuzi/args.rs"]
mod args;
mod bench;
mod matches;
mod net;
mod reach;
mod tune;

use std::process::ExitCode;

use args::CliError;

/// A subcommand: its name, a one-line summary and its entry point.
type Command = (
    &'static str,
    &'static str,
    fn(&[String]) -> Result<(), CliError>,
);

const COMMANDS: &[Command] = &[
    (
        "bench",
        "the fixed search bench: nodes, nodes/s, time",
        bench::run,
    ),
    (
        "reach",
        "how soon the search proves the wins of a positions file",
        reach::run,
    ),
    (
        "match",
        "one level against another: a results table",
        matches::run,
    ),
    (
        "datagen",
        "self-play games for fitting the evaluation",
        tune::datagen,
    ),
    (
        "tune",
        "fit the evaluation tables to self-play data",
        tune::run,
    ),
    (
        "train-net",
        "train the learned evaluation on self-play data",
        net::run,
    ),
];

fn usage() -> String {
    let mut s = String::from("usage: wuzi-tools <command> [options]\n\ncommands:\n");
    for (name, summary, _) in COMMANDS {
        s.push_str(&format!("  {name:<10} {summary}\n"));
    }
    s.push_str("\nrun `wuzi-tools <command> --help` for a command's options\n");
    s
}

fn main() -> ExitCode {
    let argv: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let Ok(argv) = argv else {
        eprintln!("wuzi-tools: arguments must be valid UTF-8");
        return ExitCode::from(2);
    };
    let Some((name, rest)) = argv.split_first() else {
        let names: Vec<&str> = COMMANDS.iter().map(|(n, _, _)| *n).collect();
        eprintln!(
            "wuzi-tools: missing command ({}; try `wuzi-tools help`)",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    if matches!(name.as_str(), "help" | "--help" | "-h") {
        print!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let Some((_, _, run)) = COMMANDS.iter().find(|(n, _, _)| n == name) else {
        eprintln!("wuzi-tools: unknown command {name:?} (try `wuzi-tools help`)");
        return ExitCode::from(2);
    };
    match run(rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Help(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi-tools {name}: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
