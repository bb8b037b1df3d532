//! The reach yardstick (`wuzi-tools reach`): how soon the search proves wins that were there.
//!
//! Self-play at a fast time control rarely tests the long threat lines that decide games
//! against stronger engines: a change that shortens the proof of a 15-ply win can read
//! nothing there. Reach measures it directly. Its positions come from finished games, cut by
//! a rule that knows nothing of any evaluation (`scripts/reach-positions.py`: the position a
//! fixed odd number of plies before the winning five, the winner to move). Each is searched
//! at Master strength with a fresh table, one thread, until the search proves the side to
//! move's win or the budget runs out. Whether a win exists in a position is not known: one
//! that no configuration proves counts against none, so two configurations are compared on
//! the positions either proves.
//!
//! Either budget is spent whole unless the search proves the win first, as in a match with
//! the whole turn: a forced answer does not end the search. With a node budget alone the
//! search is deterministic (the same nodes on every machine), so the nodes-to-proof of two
//! configurations compare exactly.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi::{Engine, Game, Level, Limits, Params, Point, Rule, Verdict};

/// Transposition table of each search, in MiB (as in the gauntlets).
pub const TT_MIB: usize = 128;

/// One position of a reach file: the moves that lead to it and the line's comment.
#[derive(Clone, Debug)]
pub struct ReachPosition {
    /// 1-based line number in the file.
    pub line: usize,
    /// The game up to the position.
    pub game: Game,
    /// The line's `#` comment, trimmed (empty when there is none).
    pub note: String,
}

/// A reach file that could not be read: the line and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachFileError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ReachFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ReachFileError {}

/// Parses a reach file: one position a line as RIF moves (black first, separated by
/// spaces), `#` starts a comment, blank lines are skipped. Every position must be legal
/// under `rule` on a `size` board and not finished.
///
/// # Errors
/// The first line that is not such a position.
pub fn parse_positions(
    text: &str,
    rule: Rule,
    size: u8,
) -> Result<Vec<ReachPosition>, ReachFileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let (body, note) = raw.split_once('#').unwrap_or((raw, ""));
        if body.trim().is_empty() {
            continue;
        }
        let err = |message: String| ReachFileError { line, message };
        let moves = body
            .split_whitespace()
            .map(|m| Point::from_rif(m, size).map_err(|e| err(format!("{m:?}: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let game = Game::from_moves(rule, size, &moves).map_err(|e| err(e.to_string()))?;
        if game.result().is_some() {
            return Err(err("the game is already over".into()));
        }
        out.push(ReachPosition {
            line,
            game,
            note: note.trim().to_string(),
        });
    }
    Ok(out)
}

/// What one search of one position found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// Plies to the five when the search proved the side to move's win.
    pub win_plies: Option<u32>,
    /// Nodes searched (threat search included).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Attempt {
    /// Whether the side to move's win was proven.
    #[must_use]
    pub fn proven(&self) -> bool {
        self.win_plies.is_some()
    }
}

/// Searches `game` at Master strength on one thread with `params`, within `limits`, on a
/// cleared `engine`; the search ends early only when it proves a win.
pub fn attempt(engine: &mut Engine, game: &Game, params: &Params, limits: Limits) -> Attempt {
    engine.clear();
    engine.set_threads(1);
    engine.set_params(params.clone());
    let r = engine.search(game, Level::Master, limits, &AtomicBool::new(false), 0);
    let win_plies = match r.verdict {
        Verdict::Win { color, plies, .. } if color == game.to_move() => Some(plies),
        _ => None,
    };
    Attempt {
        win_plies,
        nodes: r.nodes,
        elapsed: r.elapsed,
    }
}

/// A budget as a reach search uses it: `nodes`, `time` or both, spent whole unless the
/// search proves the win first (as with a match's whole turn, a forced answer or a proven
/// loss searches on). With no time limit the clock is [`NO_CLOCK`], which no search reaches,
/// so the search is deterministic; with neither limit the node budget is [`DEFAULT_NODES`],
/// so no budget is endless.
#[must_use]
pub fn budget(nodes: Option<u64>, time: Option<Duration>) -> Limits {
    let t = time.unwrap_or(NO_CLOCK);
    Limits {
        time: Some(t),
        target: Some(t),
        nodes: nodes.or(time.is_none().then_some(DEFAULT_NODES)),
        depth: None,
    }
}

/// The node budget of a position when neither nodes nor time are given.
pub const DEFAULT_NODES: u64 = 2_000_000;

/// The time limit of a search with only a node budget: a whole-turn clock far beyond any
/// budget this tool spends.
pub const NO_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// One configuration's totals over a reach file.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Positions searched.
    pub positions: usize,
    /// Positions whose win was proven.
    pub proven: usize,
    /// Median nodes to proof over the proven positions (0 when none).
    pub median_nodes: u64,
    /// Median time to proof over the proven positions.
    pub median_time: Duration,
}

/// Totals of a list of attempts.
#[must_use]
pub fn summarize(attempts: &[Attempt]) -> Summary {
    let (mut nodes, mut times): (Vec<u64>, Vec<Duration>) = attempts
        .iter()
        .filter(|a| a.proven())
        .map(|a| (a.nodes, a.elapsed))
        .unzip();
    nodes.sort_unstable();
    times.sort_unstable();
    Summary {
        positions: attempts.len(),
        proven: nodes.len(),
        median_nodes: nodes.get(nodes.len() / 2).copied().unwrap_or(0),
        median_time: times.get(times.len() / 2).copied().unwrap_or_default(),
    }
}

/// Two configurations on the same positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Proven by both.
    pub both: usize,
    /// Proven by A only.
    pub only_a: usize,
    /// Proven by B only.
    pub only_b: usize,
    /// Of the positions both proved, those where A needed fewer nodes, and B fewer.
    pub a_fewer_nodes: usize,
    /// See `a_fewer_nodes`.
    pub b_fewer_nodes: usize,
    /// Geometric mean of B's nodes over A's, on the positions both proved (1 when none).
    pub node_ratio: f64,
    /// Geometric mean of B's time over A's, on the positions both proved (1 when none).
    pub time_ratio: f64,
}

/// Compares A's and B's attempts, position by position (the slices are in the same order).
#[must_use]
pub fn compare(a: &[Attempt], b: &[Attempt]) -> Comparison {
    let mut c = Comparison {
        both: 0,
        only_a: 0,
        only_b: 0,
        a_fewer_nodes: 0,
        b_fewer_nodes: 0,
        node_ratio: 1.0,
        time_ratio: 1.0,
    };
    let (mut log_nodes, mut log_time) = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        match (x.proven(), y.proven()) {
            (true, true) => {
                c.both += 1;
                c.a_fewer_nodes += usize::from(x.nodes < y.nodes);
                c.b_fewer_nodes += usize::from(y.nodes < x.nodes);
                log_nodes += (y.nodes.max(1) as f64 / x.nodes.max(1) as f64).ln();
                let (tx, ty) = (x.elapsed.as_secs_f64(), y.elapsed.as_secs_f64());
                log_time += (ty.max(1e-6) / tx.max(1e-6)).ln();
            }
            (true, false) => c.only_a += 1,
            (false, true) => c.only_b += 1,
            (false, false) => {}
        }
    }
    if c.both > 0 {
        c.node_ratio = (log_nodes / c.both as f64).exp();
        c.time_ratio = (log_time / c.both as f64).exp();
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(nodes: u64, ms: u64, proven: bool) -> Attempt {
        Attempt {
            win_plies: proven.then_some(5),
            nodes,
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn parses_positions_and_refuses_bad_lines() {
        let text = "# header\n\nh8 i9 j10  # game 1\nh8 h9\n";
        let p = parse_positions(text, Rule::Renju, 15).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].line, p[0].note.as_str()), (3, "game 1"));
        assert_eq!(p[0].game.moves().len(), 3);
        assert_eq!((p[1].line, p[1].note.as_str()), (4, ""));

        let bad = parse_positions("h8\nh8 h8\n", Rule::Renju, 15).unwrap_err();
        assert_eq!(bad.line, 2);
        let bad = parse_positions("h8 z99\n", Rule::Renju, 15).unwrap_err();
        assert_eq!(bad.line, 1);
        let five = "h8 a1 i8 a2 j8 a3 k8 a4 l8";
        let bad = parse_positions(five, Rule::Freestyle, 15).unwrap_err();
        assert!(bad.message.contains("over"), "{bad}");
    }

    #[test]
    fn proves_a_short_win_and_not_a_quiet_position() {
        // Black to move has an open three on row 8 beside a three on column h: the open
        // four wins in 3 plies.
        let text = "h8 a1 i8 a3 j8 a5\nh8\n";
        let p = parse_positions(text, Rule::Freestyle, 15).unwrap();
        let mut engine = Engine::new(8);
        let params = Params::default();
        let won = attempt(&mut engine, &p[0].game, &params, budget(Some(20_000), None));
        assert_eq!(won.win_plies, Some(3));
        let quiet = attempt(&mut engine, &p[1].game, &params, budget(Some(20_000), None));
        assert!(!quiet.proven());
        assert!(
            quiet.nodes >= 20_000,
            "the budget is spent: {}",
            quiet.nodes
        );
    }

    #[test]
    fn no_budget_is_endless() {
        let none = budget(None, None);
        assert_eq!(none.nodes, Some(DEFAULT_NODES));
        assert_eq!(none.time, Some(NO_CLOCK));
        let timed = budget(None, Some(Duration::from_millis(500)));
        assert_eq!(
            (timed.nodes, timed.time),
            (None, Some(Duration::from_millis(500)))
        );
        assert_eq!(budget(Some(7), None).nodes, Some(7));
    }

    #[test]
    fn summary_and_comparison_count_the_proofs() {
        let a = [
            at(100, 10, true),
            at(400, 40, true),
            at(9, 1, false),
            at(50, 5, true),
        ];
        let b = [
            at(200, 20, true),
            at(100, 10, true),
            at(30, 3, true),
            at(9, 1, false),
        ];
        let s = summarize(&a);
        assert_eq!((s.positions, s.proven, s.median_nodes), (4, 3, 100));
        assert_eq!(s.median_time, Duration::from_millis(10));
        let c = compare(&a, &b);
        assert_eq!((c.both, c.only_a, c.only_b), (2, 1, 1));
        assert_eq!((c.a_fewer_nodes, c.b_fewer_nodes), (1, 1));
        // B: twice A's nodes on one, a quarter on the other: geometric mean √(2 · ¼).
        assert!(
            (c.node_ratio - 0.5f64.sqrt()).abs() < 1e-9,
            "{}",
            c.node_ratio
        );
        assert!(
            (c.time_ratio - 0.5f64.sqrt()).abs() < 1e-9,
            "{}",
            c.time_ratio
        );
        assert_eq!(summarize(&[]).median_nodes, 0);
    }
}
