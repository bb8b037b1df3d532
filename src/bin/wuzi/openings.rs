//! `wuzi openings --renju`: renju's 26 canonical openings, one per line.

use wuzi::openings::renju;

use crate::args::{usage, CliError};

const HELP: &str = "\
usage: wuzi openings --renju

Lists renju's 26 canonical openings (13 direct, white h9; 13 indirect, white i9), one per
line: code, romanised name, Chinese name, Japanese name and the three moves on 15x15:
  4D Kagetsu 花月 花月 h8 h9 i9
Any of the code and names is accepted where an opening is asked for by name.
";

pub fn run(args: &[String]) -> Result<(), CliError> {
    match args {
        [flag] if flag == "--renju" => {}
        [flag] if flag == "--help" || flag == "-h" => return Err(CliError::Help(HELP.into())),
        _ => {
            return Err(usage(
                "expected --renju (the only opening list so far; see --help)",
            ))
        }
    }
    for o in &renju::ALL {
        let moves: Vec<String> = o.moves(15).iter().map(|p| p.rif(15).to_string()).collect();
        println!(
            "{} {} {} {} {}",
            o.code(),
            o.name(),
            o.chinese(),
            o.japanese(),
            moves.join(" ")
        );
    }
    Ok(())
}
