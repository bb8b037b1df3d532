//! User input inside messages: quoted, on one line, and bounded, so that a hostile or
//! mistaken input of any size gives an error message of a few hundred bytes at most.

use std::fmt::{self, Write};

/// Most characters of user input a message quotes; longer input is cut and marked `…`.
pub const QUOTE_MAX: usize = 100;

/// User text as a message shows it (see [`quote`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quoted<'a>(&'a str);

/// Shows `text` in double quotes with control characters, quotes and backslashes escaped, cut
/// after [`QUOTE_MAX`] characters.
///
/// ```
/// use wuzi::text::quote;
///
/// assert_eq!(quote("h8\n").to_string(), r#""h8\n""#);
/// assert_eq!(quote(&"x".repeat(5000)).to_string().chars().count(), 100 + 3);
/// ```
#[must_use]
pub const fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for (i, c) in self.0.chars().enumerate() {
            if i == QUOTE_MAX {
                f.write_char('…')?;
                break;
            }
            if c.is_control() || c == '"' || c == '\\' {
                write!(f, "{}", c.escape_debug())?;
            } else {
                f.write_char(c)?;
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_is_cut() {
        assert_eq!(quote("z99").to_string(), "\"z99\"");
        assert_eq!(quote("a\"b\\").to_string(), r#""a\"b\\""#);
        let long = "棋".repeat(10_000);
        let q = quote(&long).to_string();
        assert_eq!(q.chars().count(), QUOTE_MAX + 3);
        assert!(q.ends_with("…\""));
        // Escapes stay bounded too: at most ten bytes per character.
        assert!(quote(&"\u{1b}".repeat(10_000)).to_string().len() < 1_000);
    }
}
