//! `wuzi judge`: what happens if the side to move plays one point.

use wuzi::{forbidden_at, win_at};

use crate::args::{CliError, Flags};

const HELP: &str = "\
usage: wuzi judge --rule R [--size N] --black \"h8 i9 ...\" --white \"...\" --to-move black|white --point P

Prints one line of JSON, e.g. {\"point\":\"e14\",\"outcome\":\"forbidden\",\"reason\":\"double-four\"}
outcome: win | forbidden | continue | occupied; reason (win, forbidden): five | overline |
double-three | double-four. Points are RIF (h8 = centre of 15x15), separated by spaces or commas.
Exit 0 when judged, 2 for bad input.
";

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &["rule", "size", "black", "white", "to-move", "point"],
        HELP,
    )?;
    let rule = flags.rule(None)?;
    let size = flags.size()?;
    let mut board = flags.position(size)?;
    let color = flags.color("to-move")?;
    let p = flags.point("point", size)?;

    let (outcome, reason) = if !board.is_empty_at(p) {
        ("occupied", None)
    } else if let Some(reason) = rule
        .has_forbidden(color)
        .then(|| forbidden_at(&mut board, p))
        .flatten()
    {
        ("forbidden", Some(reason.name()))
    } else {
        board.place(p, color);
        match win_at(&board, p, rule) {
            Some(win) => ("win", Some(win.kind.name())),
            None => ("continue", None),
        }
    };
    let verdict = Verdict {
        point: p.rif(size).to_string(),
        outcome,
        reason,
    };
    println!(
        "{}",
        serde_json::to_string(&verdict).map_err(std::io::Error::from)?
    );
    Ok(())
}

/// The output line; a struct rather than a JSON map so the keys keep this order.
#[derive(serde::Serialize)]
struct Verdict {
    point: String,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
}
