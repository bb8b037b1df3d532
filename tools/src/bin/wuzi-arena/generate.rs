//! `wuzi-arena openings`: balanced opening positions judged by Wuzi's own engine.
//!
//! Self-play from one position measures little: with near-deterministic engines both games
//! of every pair repeat, and an opening one side wins by force gives a 1–1 pair whoever is
//! stronger. So the openings are random, quiet and close to even: K stones placed
//! alternately (black first) on random points of the central 7×7, kept when
//! - the referee accepts every stone (no renju forbidden point) and nobody has five;
//! - neither side has a four or an open three on the board (no forcing play yet), and
//! - Wuzi at Master strength, searching a fixed node budget (so the result is repeatable on
//!   any machine), finds no forced win for either side and scores the position within
//!   `±max-score` for the side to move.
//!
//! Positions equal under one of the board's eight symmetries count once. The output is an
//! openings file (see [`crate::openings`]): a header with the command, then one opening a
//! line with the engine's score as a comment.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::thread;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use wuzi::notation::moves_to_string;
use wuzi::{win_at, Board, Color, Engine, Game, Level, Limits, Point, Rule, Verdict};

use crate::args::Flags;
use crate::error::{usage, ArenaError};
use crate::openings::{unplace, FILE_SIZE};

const HELP: &str = "\
usage: wuzi-arena openings --count N --stones K [--rule R] [--size 15] [--seed S]
                           [--nodes 20000] [--max-score 150]

Prints N balanced openings of K stones (an openings file for --openings): random stones in
the central 7x7, alternating black and white, legal under the rule, with no five, four or open
three on the board, kept when Wuzi at Master strength searching --nodes nodes (deterministic)
finds no forced win and scores the position within +-max-score for the side to move. Lines are
written for 15x15 (the file format). Progress goes to stderr.
";

/// Transposition table of the judging engine (cleared before every position, so each
/// verdict depends on the position alone).
const TT_MIB: usize = 16;

/// The engine recurses deeply; a spawned thread's default stack is not enough.
const STACK: usize = 64 << 20;

/// Candidate positions tried per opening asked for before giving up.
const TRIES_PER_OPENING: usize = 500;

/// `wuzi-arena openings`.
///
/// # Errors
/// [`ArenaError`] for bad flags, or when too few positions pass the filters.
pub fn run(args: &[String]) -> Result<(), ArenaError> {
    let flags = Flags::parse(
        args,
        &[
            "rule",
            "size",
            "count",
            "stones",
            "seed",
            "nodes",
            "max-score",
        ],
        HELP,
    )?;
    let spec = Spec {
        rule: flags.rule(Rule::Freestyle)?,
        size: flags.size()?,
        count: flags.required_number("count")?,
        stones: flags.required_number("stones")?,
        seed: flags.number("seed", 1)?,
        nodes: flags.number("nodes", 20_000)?,
        max_score: flags.number("max-score", 150)?,
    };
    if spec.count == 0 {
        return Err(usage("--count must be at least 1"));
    }
    if spec.size < 7 {
        return Err(usage(
            "--size must be at least 7 (the stones go in the central 7x7)",
        ));
    }
    if !(1..=20).contains(&spec.stones) {
        return Err(usage("--stones must be from 1 to 20"));
    }
    if spec.max_score < 0 {
        return Err(usage("--max-score must be at least 0"));
    }
    if spec.nodes == 0 {
        return Err(usage("--nodes must be at least 1"));
    }
    let worker = thread::Builder::new()
        .name("openings".into())
        .stack_size(STACK)
        .spawn(move || generate(&spec))
        .map_err(|e| ArenaError::Generate(format!("cannot start the search thread: {e}")))?;
    let text = worker
        .join()
        .map_err(|_| ArenaError::Generate("the search thread panicked".to_string()))??;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(ArenaError::Output)
}

/// What to generate.
#[derive(Copy, Clone, Debug)]
struct Spec {
    rule: Rule,
    size: u8,
    count: usize,
    stones: usize,
    seed: u64,
    nodes: u64,
    max_score: i32,
}

/// Why candidates were thrown away, for the header.
#[derive(Default, Debug)]
struct Rejected {
    illegal: usize,
    threat: usize,
    duplicate: usize,
    forced: usize,
    score: usize,
}

fn generate(spec: &Spec) -> Result<String, ArenaError> {
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let c = spec.size / 2;
    let centre: Vec<Point> = (c - 3..=c + 3)
        .flat_map(|y| (c - 3..=c + 3).map(move |x| Point::new(x, y)))
        .collect();
    let mut engine = Engine::new(TT_MIB);
    let cancel = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut kept: Vec<(String, i32)> = Vec::new();
    let mut rejected = Rejected::default();
    let mut tried = 0;
    let limit = spec.count * TRIES_PER_OPENING;
    while kept.len() < spec.count && tried < limit {
        tried += 1;
        if tried % 1000 == 0 {
            eprintln!("openings: {} of {} ({tried} tried)", kept.len(), spec.count);
        }
        let points: Vec<Point> = centre
            .choose_multiple(&mut rng, spec.stones)
            .copied()
            .collect();
        let Ok(game) = Game::from_moves(spec.rule, spec.size, &points) else {
            rejected.illegal += 1;
            continue;
        };
        if game.is_over() {
            rejected.illegal += 1;
            continue;
        }
        if Color::ALL
            .iter()
            .any(|&color| has_threat(game.board(), spec.rule, color))
        {
            rejected.threat += 1;
            continue;
        }
        if !seen.insert(canonical(game.board())) {
            rejected.duplicate += 1;
            continue;
        }
        engine.clear();
        let seed = game.board().hash();
        let r = engine.search(
            &game,
            Level::Master,
            Limits::nodes(spec.nodes),
            &cancel,
            seed,
        );
        if matches!(r.verdict, Verdict::Win { .. }) {
            rejected.forced += 1;
            continue;
        }
        if r.score.abs() > spec.max_score {
            rejected.score += 1;
            continue;
        }
        let on_file: Option<Vec<Point>> = points.iter().map(|&p| unplace(p, spec.size)).collect();
        let Some(on_file) = on_file else {
            // The central 7x7 of any board from 7 to 20 lies inside the file's 15x15.
            rejected.illegal += 1;
            continue;
        };
        kept.push((moves_to_string(&on_file, FILE_SIZE), r.score));
        if kept.len() % 10 == 0 {
            eprintln!("openings: {} of {} ({tried} tried)", kept.len(), spec.count);
        }
    }
    if kept.len() < spec.count {
        return Err(ArenaError::Generate(format!(
            "found only {} of {} openings in {tried} tries ({rejected:?}); try another \
             --stones or a larger --max-score",
            kept.len(),
            spec.count
        )));
    }
    let to_move = Color::to_move_after(spec.stones);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Openings for wuzi-arena (one a line, RIF moves on 15x15, black first), made with\n\
         #   wuzi-arena openings --rule {} --size {} --count {} --stones {} --seed {} --nodes {} --max-score {}\n\
         # {} stones on random points of the central 7x7, legal under {}, no five, four or open\n\
         # three on the board; kept when Wuzi (Master, {} nodes) finds no forced win and scores\n\
         # the position within +-{} for {to_move} to move (the score after each line).\n\
         # {} kept of {tried} tried; rejected: {} illegal, {} with a four or open three,\n\
         # {} symmetric duplicates, {} forced wins, {} beyond the score limit.",
        spec.rule,
        spec.size,
        spec.count,
        spec.stones,
        spec.seed,
        spec.nodes,
        spec.max_score,
        spec.stones,
        spec.rule,
        spec.nodes,
        spec.max_score,
        kept.len(),
        rejected.illegal,
        rejected.threat,
        rejected.duplicate,
        rejected.forced,
        rejected.score,
    );
    let width = kept.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
    for (moves, score) in kept {
        let _ = writeln!(out, "{moves:width$}  # {score:+}");
    }
    Ok(out)
}

/// Whether `color` has a four (a point that makes five) or an open three (a point that makes
/// two different five points at once) anywhere on the board. Only points within four of a
/// stone can matter.
pub(crate) fn has_threat(board: &Board, rule: Rule, color: Color) -> bool {
    let mut scratch = board.clone();
    let near: Vec<Point> = Point::all(board.size())
        .filter(|&p| board.is_empty_at(p) && near_stone(board, p))
        .collect();
    for &p in &near {
        scratch.place(p, color);
        if win_at(&scratch, p, rule).is_some() {
            return true;
        }
        let mut fives = 0;
        for &q in &near {
            if q != p && scratch.is_empty_at(q) {
                scratch.place(q, color);
                if win_at(&scratch, q, rule).is_some() {
                    fives += 1;
                }
                scratch.remove(q);
            }
        }
        scratch.remove(p);
        if fives >= 2 {
            return true;
        }
    }
    false
}

fn near_stone(board: &Board, p: Point) -> bool {
    board.stones().any(|(s, _)| {
        let dx = i16::from(s.x()) - i16::from(p.x());
        let dy = i16::from(s.y()) - i16::from(p.y());
        dx.abs() <= 4 && dy.abs() <= 4
    })
}

/// The same key for positions equal under a board symmetry: the smallest of the eight
/// images' sorted stone lists.
pub(crate) fn canonical(board: &Board) -> Vec<(u8, u8, Color)> {
    let size = board.size();
    (0..8u8)
        .map(|sym| {
            let mut v: Vec<(u8, u8, Color)> = board
                .stones()
                .map(|(p, c)| {
                    let q = p.transform(sym, size);
                    (q.y(), q.x(), c)
                })
                .collect();
            v.sort_unstable();
            v
        })
        .min()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(15).unwrap();
        for (list, c) in [(black, Color::Black), (white, Color::White)] {
            for s in list {
                b.place(Point::from_rif(s, 15).unwrap(), c);
            }
        }
        b
    }

    #[test]
    fn threats_are_found() {
        // Open three h8-i8-j8.
        assert!(has_threat(
            &board(&["h8", "i8", "j8"], &[]),
            Rule::Freestyle,
            Color::Black
        ));
        // Split three h8-j8-k8 (open).
        assert!(has_threat(
            &board(&["h8", "j8", "k8"], &[]),
            Rule::Freestyle,
            Color::Black
        ));
        // A closed three is not forcing.
        assert!(!has_threat(
            &board(&["h8", "i8", "j8"], &["g8", "a1"]),
            Rule::Freestyle,
            Color::Black
        ));
        // A closed four is.
        assert!(has_threat(
            &board(&["h8", "i8", "j8", "k8"], &["g8"]),
            Rule::Freestyle,
            Color::Black
        ));
        // Two stones are quiet; white has nothing.
        let quiet = board(&["h8", "i9"], &["j8"]);
        assert!(!has_threat(&quiet, Rule::Freestyle, Color::Black));
        assert!(!has_threat(&quiet, Rule::Freestyle, Color::White));
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let a = board(&["h8", "i9"], &["j8"]);
        let b = board(&["h8", "g7"], &["f8"]); // a rotated by 180 degrees
        let c = board(&["h8", "i9"], &["g8"]);
        assert_eq!(canonical(&a), canonical(&b));
        assert_ne!(canonical(&a), canonical(&c));
    }

    #[test]
    fn generation_is_deterministic() {
        let spec = Spec {
            rule: Rule::Renju,
            size: 15,
            count: 3,
            stones: 3,
            seed: 7,
            nodes: 2_000,
            max_score: 400,
        };
        let one = generate(&spec).unwrap();
        assert_eq!(one, generate(&spec).unwrap());
        let all = crate::openings::parse(&one, Rule::Renju, 15).unwrap();
        assert_eq!(all.len(), 3);
        assert!(all.iter().all(|o| o.moves().len() == 3));
    }
}
