//! Flag parsing shared by the subcommands: `--name value` or `--name=value`, each flag at
//! most once, unknown flags refused. Small enough that a parser crate is not worth its weight.

use std::fmt;
use std::io;

use wuzi::{Board, Color, Level, Point, Rule, MAX_SIZE, MIN_SIZE};

/// Why a subcommand failed.
#[derive(Debug)]
pub enum CliError {
    /// Bad command-line input: exit code 2.
    Usage(String),
    /// The terminal went away: exit code 1.
    Io(io::Error),
    /// `--help` was asked for: print this text and exit 0.
    Help(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Io(_) => 1,
            CliError::Help(_) => 0,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => f.write_str(m),
            CliError::Io(e) => write!(f, "i/o error: {e}"),
            CliError::Help(h) => f.write_str(h),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

/// Shorthand for a usage error.
pub fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

/// Parsed `--flag value` pairs.
#[derive(Debug)]
pub struct Flags {
    pairs: Vec<(String, String)>,
}

impl Flags {
    /// Parses `args` allowing only the flags in `known` (names without `--`); `help` is the
    /// text for `--help`.
    pub fn parse(args: &[String], known: &[&str], help: &str) -> Result<Flags, CliError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--help" || arg == "-h" {
                return Err(CliError::Help(help.to_string()));
            }
            let Some(flag) = arg.strip_prefix("--") else {
                return Err(usage(format!("unexpected argument {arg:?}")));
            };
            let (name, value) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage(format!("--{flag} needs a value")))?;
                    (flag.to_string(), v.clone())
                }
            };
            if !known.contains(&name.as_str()) {
                return Err(usage(format!("unknown flag --{name}")));
            }
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(usage(format!("--{name} given twice")));
            }
            pairs.push((name, value));
        }
        Ok(Flags { pairs })
    }

    /// The value of `--name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `--name`, which must be given.
    pub fn required(&self, name: &str) -> Result<&str, CliError> {
        self.get(name)
            .ok_or_else(|| usage(format!("missing flag --{name}")))
    }

    /// `--rule`, or `default` when absent and `default` is given.
    pub fn rule(&self, default: Option<Rule>) -> Result<Rule, CliError> {
        match (self.get("rule"), default) {
            (Some(v), _) => v.parse().map_err(|e| usage(format!("--rule: {e}"))),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(usage("missing flag --rule")),
        }
    }

    /// `--size`, 15 when absent.
    pub fn size(&self) -> Result<u8, CliError> {
        let Some(v) = self.get("size") else {
            return Ok(15);
        };
        v.trim()
            .parse::<u8>()
            .ok()
            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
            .ok_or_else(|| {
                usage(format!(
                    "--size: {v:?} is not a board size from {MIN_SIZE} to {MAX_SIZE}"
                ))
            })
    }

    /// `--to-move`.
    pub fn color(&self, name: &str) -> Result<Color, CliError> {
        self.required(name)?
            .parse()
            .map_err(|e| usage(format!("--{name}: {e}")))
    }

    /// A single RIF point.
    pub fn point(&self, name: &str, size: u8) -> Result<Point, CliError> {
        let v = self.required(name)?;
        Point::from_rif(v, size).map_err(|e| usage(format!("--{name}: {e}")))
    }

    /// The position from `--black` and `--white` (RIF points separated by spaces or commas,
    /// possibly none). A point listed twice, or for both colours, is an error.
    pub fn position(&self, size: u8) -> Result<Board, CliError> {
        let mut board = Board::new(size).map_err(|e| usage(e.to_string()))?;
        for (name, color) in [("black", Color::Black), ("white", Color::White)] {
            let list = self.required(name)?;
            for text in list
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
            {
                let p = Point::from_rif(text, size).map_err(|e| usage(format!("--{name}: {e}")))?;
                match board.get(p) {
                    None => board.place(p, color),
                    Some(c) if c == color => {
                        return Err(usage(format!("--{name}: {} is listed twice", p.rif(size))))
                    }
                    Some(_) => {
                        return Err(usage(format!(
                            "{} is listed for both black and white",
                            p.rif(size)
                        )))
                    }
                }
            }
        }
        Ok(board)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_in_both_forms() {
        let f = Flags::parse(
            &strings(&["--rule", "renju", "--size=13"]),
            &["rule", "size"],
            "",
        )
        .unwrap();
        assert_eq!(f.rule(None).unwrap(), Rule::Renju);
        assert_eq!(f.size().unwrap(), 13);
    }

    #[test]
    fn bad_flags_are_usage_errors() {
        for args in [
            &["--rule"][..],
            &["--colour", "x"],
            &["rule", "renju"],
            &["--rule", "a", "--rule", "b"],
        ] {
            let e = Flags::parse(&strings(args), &["rule"], "").unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
        }
    }

    #[test]
    fn positions_refuse_duplicates() {
        let parse = |b: &str, w: &str| {
            Flags::parse(
                &strings(&["--black", b, "--white", w]),
                &["black", "white"],
                "",
            )
            .unwrap()
            .position(15)
        };
        assert_eq!(parse("h8, i9 j10", "").unwrap().stone_count(), 3);
        assert!(parse("h8 h8", "").is_err());
        assert!(parse("h8", "H8").is_err());
        assert!(parse("h8", "p1").is_err());
    }
}
