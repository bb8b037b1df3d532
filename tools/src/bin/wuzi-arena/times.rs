//! Move times where an engine has to think, and the `times` command.
//!
//! The mean over all moves mixes thinking with moves nothing is left to think about: blocking
//! a four takes a millisecond, and once a side has a proven win both engines answer at once.
//! A move counts as *open* when the position before it is [`is_open`]: no five to make or stop,
//! no open four to make or stop, and no VCF for either side within a threat-search node budget
//! (so a few thousand games classify in seconds). Its times are what the time management
//! decides. `wuzi-arena times` reads a games file written by `--games-out` and prints the
//! table of a match report for it, without playing anything.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use wuzi::ai::position::Position;
use wuzi::ai::threat::ThreatSearch;
use wuzi::notation::parse_points;
use wuzi::{Board, Color, Point, Rule};
use wuzi_tools::tune::{is_open, OPEN_VCF_NODES};

use crate::args::Flags;
use crate::error::{usage, ArenaError};
use crate::stats::Times;

/// Threat-search cache entries per game: positions of one game share their VCF results.
const CACHE_ENTRIES: usize = 1 << 12;

/// One game's moves and move times, with who played them.
#[derive(Clone, Debug)]
pub struct TimedGame {
    /// Every stone in move order, black first, the opening included.
    pub moves: Vec<Point>,
    /// How many of `moves` were the opening.
    pub opening_len: usize,
    /// The time of the move at ply `opening_len + k` is `times_ms[k]`.
    pub times_ms: Vec<f64>,
    /// The engine (an index into the report's names) that played black, and white.
    pub engines: [usize; 2],
}

impl TimedGame {
    /// The engine that played `times_ms[k]`.
    #[must_use]
    pub fn engine(&self, k: usize) -> usize {
        self.engines[Color::to_move_after(self.opening_len + k).index()]
    }

    /// For each timed move, whether the position before it is open (see the module docs),
    /// with at most `nodes` threat-search nodes per side and position.
    ///
    /// # Errors
    /// A message when the moves cannot be replayed (a point taken twice, more times than
    /// moves).
    pub fn open_moves(&self, rule: Rule, size: u8, nodes: u64) -> Result<Vec<bool>, String> {
        let timed_end = self.opening_len + self.times_ms.len();
        if timed_end > self.moves.len() {
            return Err(format!(
                "{} move times after a {}-move opening, but only {} moves",
                self.times_ms.len(),
                self.opening_len,
                self.moves.len()
            ));
        }
        let board = Board::new(size).map_err(|e| e.to_string())?;
        let mut pos = Position::new(&board, rule, Color::Black);
        let mut threats = ThreatSearch::new(CACHE_ENTRIES);
        let mut open = Vec::with_capacity(self.times_ms.len());
        for (ply, &p) in self.moves[..timed_end].iter().enumerate() {
            if ply >= self.opening_len {
                open.push(is_open(&mut pos, &mut threats, nodes));
            }
            let idx = Board::index_of(p);
            if !pos.is_empty(idx) {
                return Err(format!("move {} is on a stone", ply + 1));
            }
            pos.play(idx);
        }
        Ok(open)
    }

    /// Adds the times of the moves in open positions to `out[engine]` (see
    /// [`TimedGame::open_moves`]); adds nothing when the game cannot be replayed.
    ///
    /// # Errors
    /// As [`TimedGame::open_moves`].
    pub fn add_open_times(
        &self,
        out: &mut [Times],
        rule: Rule,
        size: u8,
        nodes: u64,
    ) -> Result<(), String> {
        let open = self.open_moves(rule, size, nodes)?;
        for (k, (&ms, open)) in self.times_ms.iter().zip(open).enumerate() {
            if open {
                out[self.engine(k)].push(ms);
            }
        }
        Ok(())
    }
}

/// The games of a games file (JSON lines as `--games-out` writes them), each with its 1-based
/// line number, and the engine names in the order they first appear (in a match file: A, then
/// B).
///
/// # Errors
/// The 1-based line number and what is wrong with it.
#[allow(clippy::type_complexity)]
pub fn parse_games(
    text: &str,
    size: u8,
) -> Result<(Vec<String>, Vec<(usize, TimedGame)>), (usize, String)> {
    let mut names: Vec<String> = Vec::new();
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fail = |why: String| (n + 1, why);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| fail(format!("not JSON: {e}")))?;
        let text_field = |key: &str| {
            v[key]
                .as_str()
                .ok_or_else(|| fail(format!("no {key:?} text")))
        };
        let points = |key: &str| -> Result<Vec<Point>, (usize, String)> {
            let p =
                parse_points(text_field(key)?, size).map_err(|e| fail(format!("{key}: {e}")))?;
            Ok(p.into_iter().map(|(p, _)| p).collect())
        };
        let mut engine = |key: &str| -> Result<usize, (usize, String)> {
            let name = text_field(key)?;
            Ok(match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    names.push(name.to_string());
                    names.len() - 1
                }
            })
        };
        let engines = [engine("black")?, engine("white")?];
        let opening_len = points("opening")?.len();
        let moves = points("moves")?;
        let times_ms = v["times_ms"]
            .as_array()
            .and_then(|a| a.iter().map(serde_json::Value::as_f64).collect())
            .ok_or_else(|| fail("no \"times_ms\" list of numbers".to_string()))?;
        games.push((
            n + 1,
            TimedGame {
                moves,
                opening_len,
                times_ms,
                engines,
            },
        ));
    }
    Ok((names, games))
}

/// The `times` report of a games file's text: a title line and the move-time table.
///
/// # Errors
/// The 1-based line number of a game that cannot be read or replayed, and why.
pub fn report(
    text: &str,
    rule: Rule,
    size: u8,
    turn_ms: u64,
    nodes: u64,
) -> Result<String, (usize, String)> {
    let (names, games) = parse_games(text, size)?;
    let mut all = vec![Times::default(); names.len()];
    let mut open = vec![Times::default(); names.len()];
    for (line, g) in &games {
        for (k, &ms) in g.times_ms.iter().enumerate() {
            all[g.engine(k)].push(ms);
        }
        g.add_open_times(&mut open, rule, size, nodes)
            .map_err(|why| (*line, why))?;
    }
    let rows: Vec<TimesRow<'_>> = names
        .iter()
        .zip(&all)
        .zip(&open)
        .map(|((name, all), open)| TimesRow {
            name,
            turn_ms,
            all,
            open,
        })
        .collect();
    Ok(format!(
        "{} games, {rule} {size}x{size}, {turn_ms} ms/move\n{}",
        games.len(),
        times_table(&rows, nodes)
    ))
}

/// `wuzi-arena times`.
///
/// # Errors
/// [`ArenaError`] for bad flags or an unreadable or malformed games file.
pub fn run(args: &[String]) -> Result<(), ArenaError> {
    let help = format!(
        "usage: wuzi-arena times --games FILE --rule R [--size N] [--turn-ms T] [--vcf-nodes N]\n\n\
         Move times per engine from a games file written by `match`/`sprt --games-out`, without\n\
         replaying: all moves as in the match report, and the moves in open positions (no five\n\
         to make or stop, no open four, no VCF for either side), where the time management\n\
         decides how long a move takes.\n\n  \
         --games FILE            the JSON lines of --games-out (required)\n  \
         --rule R                freestyle | standard | renju: the rule the games were played\n                          \
         under (required: the file does not say)\n  \
         --size N                board size 5..20 (default 15)\n  \
         --turn-ms T             the games' timeout_turn, for mean/turn and overruns\n                          \
         (default 1000)\n  \
         --vcf-nodes N           threat-search nodes per side and position (default {OPEN_VCF_NODES})\n"
    );
    let flags = Flags::parse(
        args,
        &["games", "rule", "size", "turn-ms", "vcf-nodes"],
        &help,
    )?;
    let path = PathBuf::from(flags.required("games")?);
    flags.required("rule")?;
    let rule = flags.rule(Rule::Freestyle)?;
    let size = flags.size()?;
    let turn_ms: u64 = flags.number("turn-ms", 1000)?;
    if turn_ms == 0 {
        return Err(usage("--turn-ms must be at least 1"));
    }
    let nodes: u64 = flags.number("vcf-nodes", OPEN_VCF_NODES)?;
    let text = fs::read_to_string(&path).map_err(|error| ArenaError::File {
        path: path.clone(),
        action: "read games file",
        error,
    })?;
    let out = report(&text, rule, size, turn_ms, nodes)
        .map_err(|(line, why)| ArenaError::Games { path, line, why })?;
    print!("{out}");
    Ok(())
}

/// One engine's line of [`times_table`].
pub struct TimesRow<'a> {
    /// The engine's name.
    pub name: &'a str,
    /// Its `timeout_turn` in ms, for overruns and time shares.
    pub turn_ms: u64,
    /// All its move times.
    pub all: &'a Times,
    /// Its move times in open positions.
    pub open: &'a Times,
}

/// The move-time table of a report: per engine (see [`TimesRow`]) the moves, mean, median,
/// 99th percentile, maximum, mean as a share of its turn and overruns, then the open moves'
/// count, mean, median and share of the turn, with footnotes. `nodes` is the threat-search
/// budget the open positions were classified with.
#[must_use]
pub fn times_table(rows: &[TimesRow<'_>], nodes: u64) -> String {
    let mut s = String::new();
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        s,
        "move times at the manager, ms: {:w$}  {:>6}  {:>8}  {:>8}  {:>8}  {:>8}  {:>9}  {:>9}",
        "engine",
        "moves",
        "mean",
        "p50",
        "p99",
        "max",
        "mean/turn",
        "overruns",
        w = width
    );
    for row in rows {
        let (t, turn) = (row.all, row.turn_ms as f64);
        let _ = writeln!(
            s,
            "                               {:width$}  {:>6}  {:>8.1}  {:>8.1}  {:>8.1}  {:>8.1}  {:>8.1}%  {:>9}",
            row.name,
            t.len(),
            t.mean(),
            t.percentile(50.0),
            t.percentile(99.0),
            t.max(),
            t.mean() * 100.0 / turn,
            t.over(turn),
        );
    }
    let turns: Vec<String> = rows.iter().map(|r| r.turn_ms.to_string()).collect();
    let turn = if turns.iter().all(|t| *t == turns[0]) {
        format!("turn-ms {}", turns.first().map_or("", String::as_str))
    } else {
        format!("each engine's turn-ms ({})", turns.join(" / "))
    };
    let _ = writeln!(
        s,
        "(overruns: moves slower than {turn}; losing on time needs turn-ms + tolerance)"
    );
    let _ = writeln!(
        s,
        "in open positions, ms:         {:w$}  {:>6}  {:>8}  {:>8}  {:>9}",
        "engine",
        "moves",
        "mean",
        "p50",
        "mean/turn",
        w = width
    );
    for row in rows {
        let t = row.open;
        let _ = writeln!(
            s,
            "                               {:width$}  {:>6}  {:>8.1}  {:>8.1}  {:>8.1}%",
            row.name,
            t.len(),
            t.mean(),
            t.percentile(50.0),
            t.mean() * 100.0 / row.turn_ms as f64,
        );
    }
    let _ = writeln!(
        s,
        "(open: the position before the move has no five to make or stop, no open four and no \
         VCF for either side, threat search {nodes} nodes a side)"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of `a` against `b` from the opening h8 h9. In the first (a black) black
    /// makes an open three with j8 and then an open four: the moves before j8's answer are
    /// open, the rest is forced. The second (b black) stops after two open moves.
    const GAMES: &str = r#"{"pair":1,"game":1,"opening":"h8 h9","black":"a","white":"b","moves":"h8 h9 i8 h10 j8 h11 k8 l8 g8","result":"black","times_ms":[100.0,200.0,300.0,400.0,500.0,2.0,3.0]}

{"pair":1,"game":2,"opening":"h8 h9","black":"b","white":"a","moves":"h8 h9 i8 h10","result":"white","reason":"timeout","times_ms":[50,60]}
"#;

    #[test]
    fn open_moves_are_the_undecided_ones() {
        let (names, games) = parse_games(GAMES, 15).unwrap();
        assert_eq!(names, ["a", "b"]);
        assert_eq!([games[0].0, games[1].0], [1, 3]);
        let games: Vec<TimedGame> = games.into_iter().map(|(_, g)| g).collect();
        assert_eq!(games[0].engines, [0, 1]);
        assert_eq!(games[1].engines, [1, 0]);
        assert_eq!(games[0].engine(0), 0);
        assert_eq!(
            games[0].open_moves(Rule::Freestyle, 15, OPEN_VCF_NODES),
            Ok(vec![true, true, true, false, false, false, false])
        );
        assert_eq!(
            games[1].open_moves(Rule::Renju, 15, OPEN_VCF_NODES),
            Ok(vec![true, true])
        );
        let mut open = vec![Times::default(); 2];
        for g in &games {
            g.add_open_times(&mut open, Rule::Freestyle, 15, OPEN_VCF_NODES)
                .unwrap();
        }
        assert_eq!(open[0].len(), 3); // a: 100, 300 (black), 60 (white)
        assert_eq!(open[1].len(), 2); // b: 200 (white), 50 (black)
    }

    #[test]
    fn times_reports_all_and_open_moves() {
        let out = report(GAMES, Rule::Freestyle, 15, 250, OPEN_VCF_NODES).unwrap();
        // a: all 100 300 500 3 60, open 100 300 60; b: all 200 400 2 50, open 200 50.
        let expected = "\
2 games, freestyle 15x15, 250 ms/move
move times at the manager, ms: engine   moves      mean       p50       p99       max  mean/turn   overruns
                               a            5     192.6     100.0     500.0     500.0      77.0%          2
                               b            4     163.0      50.0     400.0     400.0      65.2%          1
(overruns: moves slower than turn-ms 250; losing on time needs turn-ms + tolerance)
in open positions, ms:         engine   moves      mean       p50  mean/turn
                               a            3     153.3     100.0      61.3%
                               b            2     125.0      50.0      50.0%
(open: the position before the move has no five to make or stop, no open four and no VCF for either side, threat search 20000 nodes a side)
";
        assert_eq!(out, expected);
    }

    #[test]
    fn bad_games_files_name_the_line() {
        let bad = |text: &str| report(text, Rule::Freestyle, 15, 1000, 100).unwrap_err();
        assert_eq!(bad("\n{}").0, 2);
        assert_eq!(bad("nonsense").0, 1);
        let taken = r#"{"opening":"h8","black":"a","white":"b","moves":"h8 h8","times_ms":[1]}"#;
        let (line, why) = bad(&format!("\n\n{taken}\n"));
        assert_eq!(line, 3);
        assert!(why.contains("on a stone"), "{why}");
        let short = r#"{"opening":"h8","black":"a","white":"b","moves":"h8 h9","times_ms":[1,2]}"#;
        assert_eq!(bad(short).0, 1);
    }
}
