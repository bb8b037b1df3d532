//! `wuzi-arena yardstick`: opening sets that know nothing of Wuzi's evaluation.
//!
//! A gauntlet against an outside engine measures Wuzi where the openings put it. The
//! balanced files of [`crate::generate`] keep only positions that Wuzi's own search scores
//! near even, so they measure it where it is comfortable: they suit self-play SPRT, not an
//! absolute yardstick. The two sets here are chosen by rules alone:
//!
//! - `renju26`: renju's 26 canonical openings, the first three stones every RIF game starts
//!   from, in their traditional order (1D–13D, 1I–13I), from [`wuzi::openings::renju`].
//! - `central`: every opening of K stones (alternating, black first) with black's first stone
//!   on the centre and the others inside the central `area × area` square, legal under the
//!   rule, with no five, four or open three on the board, counted once per class of the
//!   board's eight symmetries; `--count` of them are drawn by a seeded shuffle (all when
//!   `--count` is omitted). With `--stones 2,3 --area 5` there are 5 two-stone classes and 75
//!   three-stone ones.
//!
//! Both print an openings file (see [`crate::openings`]) whose header holds the command.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Write};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use wuzi::notation::moves_to_string;
use wuzi::openings::renju;
use wuzi::{Color, Game, Point, Rule};

use crate::args::Flags;
use crate::error::{usage, ArenaError};
use crate::generate::{canonical, has_threat};
use crate::openings::FILE_SIZE;

const HELP: &str = "\
usage: wuzi-arena yardstick --set renju26
       wuzi-arena yardstick --set central [--stones 2,3] [--area 5] [--count N] [--seed 1]
                            [--rule freestyle]

Prints an openings file chosen by a rule that knows nothing of Wuzi's evaluation, for
gauntlets against outside engines (play each opening with both colours):
  renju26  renju's 26 canonical openings (1D-13D, 1I-13I), black h8, white h9 or i9, black's
           third stone in the central 5x5
  central  every opening of K stones (each K of --stones), alternating from black, black's
           first on the centre and the rest in the central AREA x AREA square, legal under
           --rule, no five, four or open three on the board, one per class of the eight board
           symmetries; --count of them drawn by a shuffle seeded with --seed (default: all)
Lines are written for 15x15 (the file format).
";

/// `wuzi-arena yardstick`.
///
/// # Errors
/// [`ArenaError`] for bad flags, or an output error.
pub fn run(args: &[String]) -> Result<(), ArenaError> {
    let flags = Flags::parse(
        args,
        &["set", "stones", "area", "count", "seed", "rule"],
        HELP,
    )?;
    let text = match flags.required("set")? {
        "renju26" => {
            for name in ["stones", "area", "count", "seed", "rule"] {
                if flags.get(name).is_some() {
                    return Err(usage(format!("--{name} does not apply to --set renju26")));
                }
            }
            renju26()
        }
        "central" => {
            let stones = parse_stones(flags.get("stones").unwrap_or("2,3"))?;
            let area: u8 = flags.number("area", 5)?;
            if area % 2 == 0 || !(3..=FILE_SIZE).contains(&area) {
                return Err(usage("--area must be odd, from 3 to 15"));
            }
            let count: Option<usize> = flags.optional_number("count")?;
            if count == Some(0) {
                return Err(usage("--count must be at least 1"));
            }
            let spec = Central {
                rule: flags.rule(Rule::Freestyle)?,
                stones,
                area,
                count,
                seed: flags.number("seed", 1)?,
            };
            central(&spec)?
        }
        other => {
            return Err(usage(format!(
                "unknown --set {other:?}: expected renju26 or central"
            )))
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(ArenaError::Output)
}

fn parse_stones(text: &str) -> Result<Vec<usize>, ArenaError> {
    let mut stones = Vec::new();
    for part in text.split(',') {
        let k: usize = part
            .trim()
            .parse()
            .map_err(|_| usage(format!("--stones: {part:?} is not a number")))?;
        if !(1..=9).contains(&k) {
            return Err(usage("--stones: each count must be from 1 to 9"));
        }
        if !stones.contains(&k) {
            stones.push(k);
        }
    }
    stones.sort_unstable();
    Ok(stones)
}

/// The 26 canonical renju openings as an openings file, in their traditional order.
#[must_use]
pub fn renju26() -> String {
    let mut out = String::from(
        "# Renju's 26 canonical openings for wuzi-arena (one a line, RIF moves on 15x15),\n\
         # made with\n\
         #   wuzi-arena yardstick --set renju26\n\
         # Black h8, white h9 (direct, D) or i9 (indirect, I), black's third stone in the\n\
         # central 5x5; white is to move. Chosen by the rules of renju, not by any engine.\n",
    );
    for index in 0..26 {
        let Some(o) = renju::get(index) else { break };
        let moves = moves_to_string(&o.moves(FILE_SIZE), FILE_SIZE);
        let _ = writeln!(out, "{moves:<10}  # {} {}", o.code(), o.name());
    }
    out
}

/// What `--set central` draws.
#[derive(Clone, Debug)]
pub struct Central {
    pub rule: Rule,
    pub stones: Vec<usize>,
    pub area: u8,
    pub count: Option<usize>,
    pub seed: u64,
}

/// Every class of central openings for `spec`, in a fixed order (by stone count, then by
/// the order of [`enumerate`]).
fn classes(spec: &Central) -> Vec<Vec<Point>> {
    let c = FILE_SIZE / 2;
    let r = spec.area / 2;
    let square: Vec<Point> = (c - r..=c + r)
        .flat_map(|y| (c - r..=c + r).map(move |x| Point::new(x, y)))
        .collect();
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for &k in &spec.stones {
        let mut moves = vec![Point::new(c, c)];
        enumerate(spec.rule, &square, k, &mut moves, &mut seen, &mut kept);
    }
    kept
}

/// Extends `moves` by every point of `square` in turn up to `k` stones, keeping each legal,
/// quiet position whose symmetry class is new.
fn enumerate(
    rule: Rule,
    square: &[Point],
    k: usize,
    moves: &mut Vec<Point>,
    seen: &mut HashSet<Vec<(u8, u8, Color)>>,
    kept: &mut Vec<Vec<Point>>,
) {
    let Ok(game) = Game::from_moves(rule, FILE_SIZE, moves) else {
        return;
    };
    if game.is_over() {
        return;
    }
    if moves.len() == k {
        if Color::ALL
            .iter()
            .any(|&color| has_threat(game.board(), rule, color))
        {
            return;
        }
        if seen.insert(canonical(game.board())) {
            kept.push(moves.clone());
        }
        return;
    }
    for &p in square {
        if moves.contains(&p) {
            continue;
        }
        moves.push(p);
        enumerate(rule, square, k, moves, seen, kept);
        moves.pop();
    }
}

/// The `central` set as an openings file.
///
/// # Errors
/// [`ArenaError::Generate`] when fewer classes exist than `--count` asks for.
pub fn central(spec: &Central) -> Result<String, ArenaError> {
    let all = classes(spec);
    let total = all.len();
    let count = spec.count.unwrap_or(total);
    if count > total {
        return Err(ArenaError::Generate(format!(
            "only {total} classes of central openings exist for these flags, not {count}"
        )));
    }
    let mut order: Vec<usize> = (0..total).collect();
    order.shuffle(&mut StdRng::seed_from_u64(spec.seed));
    let mut chosen: Vec<usize> = order.into_iter().take(count).collect();
    chosen.sort_unstable();
    let stones: Vec<String> = spec.stones.iter().map(ToString::to_string).collect();
    let per_count: Vec<String> = spec
        .stones
        .iter()
        .map(|&k| {
            let n = all.iter().filter(|m| m.len() == k).count();
            format!("{n} of {k} stones")
        })
        .collect();
    let mut out = String::new();
    let count_flag = spec
        .count
        .map_or(String::new(), |n| format!(" --count {n}"));
    let _ = writeln!(
        out,
        "# Central openings for wuzi-arena (one a line, RIF moves on 15x15, black first), made with\n\
         #   wuzi-arena yardstick --set central --rule {} --stones {} --area {}{count_flag} --seed {}\n\
         # Every opening of {} stones, alternating from black, black's first on h8 and the rest\n\
         # in the central {}x{}, legal under {}, no five, four or open three on the board, one per\n\
         # class of the eight board symmetries: {total} classes ({}),\n\
         # {count} of them drawn by a seeded shuffle. Chosen by these rules alone, not by any\n\
         # engine's evaluation.",
        spec.rule,
        stones.join(","),
        spec.area,
        spec.seed,
        stones.join(" or "),
        spec.area,
        spec.area,
        spec.rule,
        per_count.join(", "),
    );
    for i in chosen {
        let _ = writeln!(out, "{}", moves_to_string(&all[i], FILE_SIZE));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::parse;

    fn spec(stones: &[usize], count: Option<usize>, seed: u64) -> Central {
        Central {
            rule: Rule::Freestyle,
            stones: stones.to_vec(),
            area: 5,
            count,
            seed,
        }
    }

    #[test]
    fn renju26_is_the_canonical_table_and_parses_under_renju() {
        let text = renju26();
        let openings = parse(&text, Rule::Renju, 15).unwrap();
        assert_eq!(openings.len(), 26);
        for (i, o) in openings.iter().enumerate() {
            let canonical = renju::get(i).unwrap();
            assert_eq!(
                o.moves(),
                canonical.moves(15),
                "opening {}",
                canonical.code()
            );
            assert_eq!(o.game.to_move(), Color::White);
        }
        // 26 different positions, also up to symmetry.
        let classes: HashSet<_> = openings.iter().map(|o| canonical(o.game.board())).collect();
        assert_eq!(classes.len(), 26);
    }

    #[test]
    fn two_stone_classes_are_the_five_distances_from_the_centre() {
        let all = classes(&spec(&[2], None, 1));
        let mut offsets: Vec<(u8, u8)> = all
            .iter()
            .map(|m| {
                let dx = m[1].x().abs_diff(m[0].x());
                let dy = m[1].y().abs_diff(m[0].y());
                (dx.min(dy), dx.max(dy))
            })
            .collect();
        offsets.sort_unstable();
        assert_eq!(offsets, [(0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]);
    }

    #[test]
    fn three_stone_classes_are_counted_once_per_symmetry() {
        let all = classes(&spec(&[3], None, 1));
        assert_eq!(all.len(), 75);
        let keys: HashSet<_> = all
            .iter()
            .map(|m| canonical(Game::from_moves(Rule::Freestyle, 15, m).unwrap().board()))
            .collect();
        assert_eq!(keys.len(), all.len());
        // Renju's 26 are exactly the three-stone classes with white next to the centre.
        let adjacent = all
            .iter()
            .filter(|m| m[1].x().abs_diff(m[0].x()) <= 1 && m[1].y().abs_diff(m[0].y()) <= 1)
            .count();
        assert_eq!(adjacent, 26);
    }

    #[test]
    fn central_is_a_seeded_sample_that_parses() {
        let a = central(&spec(&[2, 3], Some(48), 1)).unwrap();
        assert_eq!(a, central(&spec(&[2, 3], Some(48), 1)).unwrap());
        assert_ne!(a, central(&spec(&[2, 3], Some(48), 2)).unwrap());
        let openings = parse(&a, Rule::Freestyle, 15).unwrap();
        assert_eq!(openings.len(), 48);
        let whole = parse(
            &central(&spec(&[2, 3], None, 1)).unwrap(),
            Rule::Freestyle,
            15,
        )
        .unwrap();
        assert_eq!(whole.len(), 80);
        assert!(central(&spec(&[2, 3], Some(81), 1)).is_err());
    }

    #[test]
    fn bad_flags_are_usage_errors() {
        let strings = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        for args in [
            &["--set", "nope"][..],
            &["--set", "renju26", "--seed", "2"],
            &["--set", "central", "--area", "4"],
            &["--set", "central", "--stones", "2,x"],
            &["--set", "central", "--count", "0"],
            &[],
        ] {
            assert!(run(&strings(args)).is_err(), "{args:?}");
        }
    }
}
