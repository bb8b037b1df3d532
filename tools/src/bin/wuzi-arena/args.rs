//! Flag parsing (`--name value` or `--name=value`, each flag at most once, unknown flags
//! refused) and the shell-like splitting of a brain's command line.
//!
//! Small enough that a parser crate is not worth its weight; the same conventions as the
//! `wuzi` command line.

use std::str::FromStr;

use wuzi::{Rule, MAX_SIZE, MIN_SIZE};

use crate::error::{usage, ArenaError};

/// Parsed `--flag value` pairs.
#[derive(Debug)]
pub struct Flags {
    pairs: Vec<(String, String)>,
}

impl Flags {
    /// Parses `args` allowing only the flags in `known` (names without `--`); `help` is the
    /// text for `--help`.
    ///
    /// # Errors
    /// [`ArenaError::Help`] for `--help`, [`ArenaError::Usage`] for an unknown, repeated or
    /// valueless flag or a stray argument.
    pub fn parse(args: &[String], known: &[&str], help: &str) -> Result<Flags, ArenaError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--help" || arg == "-h" {
                return Err(ArenaError::Help(help.to_string()));
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
                return Err(usage(format!("unknown flag --{name} (try --help)")));
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
    pub fn required(&self, name: &str) -> Result<&str, ArenaError> {
        self.get(name)
            .ok_or_else(|| usage(format!("missing flag --{name}")))
    }

    /// A number flag, `default` when absent.
    pub fn number<T: FromStr>(&self, name: &str, default: T) -> Result<T, ArenaError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse()
                .map_err(|_| usage(format!("--{name}: {v:?} is not a valid number"))),
        }
    }

    /// A number flag, `None` when absent.
    pub fn optional_number<T: FromStr>(&self, name: &str) -> Result<Option<T>, ArenaError> {
        match self.get(name) {
            None => Ok(None),
            Some(_) => self.required_number(name).map(Some),
        }
    }

    /// A number flag that must be given.
    pub fn required_number<T: FromStr>(&self, name: &str) -> Result<T, ArenaError> {
        let v = self.required(name)?;
        v.trim()
            .parse()
            .map_err(|_| usage(format!("--{name}: {v:?} is not a valid number")))
    }

    /// `--rule`, `default` when absent.
    pub fn rule(&self, default: Rule) -> Result<Rule, ArenaError> {
        match self.get("rule") {
            Some(v) => v.parse().map_err(|e| usage(format!("--rule: {e}"))),
            None => Ok(default),
        }
    }

    /// `--size`, 15 when absent.
    pub fn size(&self) -> Result<u8, ArenaError> {
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
}

/// Splits a command line the way a POSIX shell splits words, without expanding anything:
/// whitespace separates words, `'…'` quotes literally, `"…"` quotes with `\"` and `\\`
/// escapes, and a backslash outside quotes escapes the next character. So
/// `"/opt/my brain/pbrain-x" --level 'very hard'` is three words.
///
/// # Errors
/// [`ArenaError::Usage`] for an unterminated quote or a command with no words.
pub fn split_command(text: &str) -> Result<Vec<String>, ArenaError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word is open: `''` is an empty word, plain whitespace is none.
    let mut open = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if open {
                    words.push(std::mem::take(&mut word));
                    open = false;
                }
            }
            '\'' => {
                open = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(usage(format!("unterminated ' in {text:?}"))),
                    }
                }
            }
            '"' => {
                open = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(usage(format!("unterminated \" in {text:?}"))),
                        },
                        Some(c) => word.push(c),
                        None => return Err(usage(format!("unterminated \" in {text:?}"))),
                    }
                }
            }
            '\\' => {
                open = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(usage(format!("trailing backslash in {text:?}"))),
                }
            }
            c => {
                open = true;
                word.push(c);
            }
        }
    }
    if open {
        words.push(word);
    }
    if words.is_empty() {
        return Err(usage("empty brain command"));
    }
    Ok(words)
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
            &strings(&["--rule", "renju", "--size=13", "--pairs", "7"]),
            &["rule", "size", "pairs"],
            "",
        )
        .unwrap();
        assert_eq!(f.rule(Rule::Freestyle).unwrap(), Rule::Renju);
        assert_eq!(f.size().unwrap(), 13);
        assert_eq!(f.number::<u32>("pairs", 1).unwrap(), 7);
        assert_eq!(f.number::<u32>("other", 3).unwrap(), 3);
        assert_eq!(f.optional_number::<u32>("pairs").unwrap(), Some(7));
        assert_eq!(f.optional_number::<u32>("other").unwrap(), None);
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
            assert!(matches!(e, ArenaError::Usage(_)), "{args:?}");
            assert_eq!(e.exit_code(), 2);
        }
        let f = Flags::parse(&strings(&["--size", "4"]), &["size"], "").unwrap();
        assert!(f.size().is_err());
        let f = Flags::parse(&strings(&["--pairs", "-1"]), &["pairs"], "").unwrap();
        assert!(f.number::<u32>("pairs", 1).is_err());
        assert!(f.optional_number::<u32>("pairs").is_err());
    }

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("  /bin/pbrain-x   --level hard ").unwrap(),
            strings(&["/bin/pbrain-x", "--level", "hard"])
        );
        assert_eq!(
            split_command(r#""/opt/my brain/x" 'a b' c\ d "q\"x" ''"#).unwrap(),
            strings(&["/opt/my brain/x", "a b", "c d", "q\"x", ""])
        );
        assert!(split_command("x 'open").is_err());
        assert!(split_command("x \"open").is_err());
        assert!(split_command("   ").is_err());
    }
}
