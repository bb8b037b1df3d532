//! Splitting the manager's byte stream into lines.
//!
//! Managers end lines with CR LF, but the protocol also allows LF or CR alone, so a line ends
//! at either byte (CR LF then yields an empty line, which the parser ignores). A line may be
//! arbitrarily long; the reader keeps at most `limit` bytes of it and drops the rest without
//! buffering it, so a gigabyte without a newline costs no memory.

use std::io::{self, BufRead};

/// The default longest line kept, in bytes. A full `BOARD` block is sent one stone a line, so
/// no legitimate line comes near this.
pub const DEFAULT_LINE_LIMIT: usize = 64 * 1024;

/// One line read from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its terminator (invalid UTF-8 replaced by U+FFFD).
    Text(String),
    /// A line longer than the limit; only its length is kept.
    TooLong(usize),
}

/// Reads [`Line`]s from any [`BufRead`].
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader keeping lines up to [`DEFAULT_LINE_LIMIT`] bytes.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_limit(inner, DEFAULT_LINE_LIMIT)
    }

    /// A reader keeping lines up to `limit` bytes.
    pub fn with_limit(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            limit,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of input. A last line without a terminator is
    /// still returned.
    ///
    /// # Errors
    /// I/O errors from the underlying reader (interrupted reads are retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut len = 0usize;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(if len == 0 {
                    None
                } else {
                    Some(self.finish(len))
                });
            }
            let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(chunk.len());
            let room = self.limit.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            len += take;
            match end {
                Some(i) => {
                    self.inner.consume(i + 1);
                    return Ok(Some(self.finish(len)));
                }
                None => {
                    let n = chunk.len();
                    self.inner.consume(n);
                }
            }
        }
    }

    fn finish(&mut self, len: usize) -> Line {
        if len > self.limit {
            Line::TooLong(len)
        } else {
            Line::Text(String::from_utf8_lossy(&self.buf).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8], limit: usize) -> Vec<Line> {
        // A tiny buffer so lines straddle many fill_buf calls.
        let mut r = LineReader::with_limit(io::BufReader::with_capacity(3, bytes), limit);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn all_line_ends() {
        assert_eq!(
            lines(b"START 20\r\nBEGIN\nTURN 1,2\rEND", 100),
            vec![
                text("START 20"),
                text(""),
                text("BEGIN"),
                text("TURN 1,2"),
                text("END")
            ]
        );
    }

    #[test]
    fn long_lines_are_cut_and_flagged() {
        let mut input = vec![b'A'; 10_000];
        input.extend_from_slice(b"\r\nABOUT\n");
        assert_eq!(
            lines(&input, 100),
            vec![Line::TooLong(10_000), text(""), text("ABOUT")]
        );
        assert_eq!(lines(b"12345\n", 5), vec![text("12345")]);
        assert_eq!(lines(b"123456\n", 5), vec![Line::TooLong(6)]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            lines(b"AB\xff\xfeC\n", 100),
            vec![text("AB\u{fffd}\u{fffd}C")]
        );
    }

    #[test]
    fn empty_input() {
        assert!(lines(b"", 10).is_empty());
    }
}
