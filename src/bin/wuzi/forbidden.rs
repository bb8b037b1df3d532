//! `wuzi forbidden`: every point black may not play under renju.

use wuzi::forbidden_points;

use crate::args::{CliError, Flags};

const HELP: &str = "\
usage: wuzi forbidden --rule R [--size N] --black \"h8 i9 ...\" --white \"...\"

Prints one line of JSON: {\"forbidden\":[{\"point\":\"e14\",\"reason\":\"double-four\"},...]},
row by row from the top. Points where black makes five are legal and not listed; rules other
than renju have no forbidden points. Exit 0 on success, 2 for bad input.
";

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["rule", "size", "black", "white"], HELP)?;
    let rule = flags.rule(None)?;
    let size = flags.size()?;
    let board = flags.position(size)?;
    let forbidden = forbidden_points(&board, rule)
        .into_iter()
        .map(|(p, reason)| Entry {
            point: p.rif(size).to_string(),
            reason: reason.name(),
        })
        .collect();
    let out = serde_json::to_string(&Output { forbidden }).map_err(std::io::Error::from)?;
    println!("{out}");
    Ok(())
}

#[derive(serde::Serialize)]
struct Output {
    forbidden: Vec<Entry>,
}

/// Keys in this order: point, reason.
#[derive(serde::Serialize)]
struct Entry {
    point: String,
    reason: &'static str,
}
