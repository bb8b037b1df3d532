//! `wuzi-tools match`: one level against another, the ladder's measuring stick (docs/ladder.md).
//!
//! Games come in pairs: both games of a pair start from the same opening (one of Piskvork's,
//! the set Gomocup managers ship, under a random board symmetry), once with A as black and
//! once with B as black, so neither the opening nor the first move favours a side.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wuzi::ai::openings::{piskvork_openings, Opening};
use wuzi::{Color, Engine, Game, Level, Limits, Point, Rule};

use crate::args::{level_named, number_flag, usage, CliError, Flags};

const HELP: &str = "\
usage: wuzi-tools match --a LEVEL --b LEVEL --games N [--time-ms T] [--rule R] [--size N] [--seed S]
                        [--threads-a N] [--threads-b N]

Plays N games of level A against level B (levels 1..5 or beginner..master), in pairs from the
same Piskvork opening (random choice and symmetry, from the seed) with colours swapped. Prints a markdown table (wins, losses,
draws, score, move times per side) and a last line `result: key=value ...` for scripts.
--time-ms sets both sides' per-move time (default: each level's own budget). --threads-a and
--threads-b set a side's search threads (Master only; default 0 = automatic: the machine's
cores, at most 8). Progress goes to stderr. Exit 2 for bad input.
";

/// Transposition table per side.
const TT_MIB: usize = 32;

/// One side's tally.
#[derive(Default)]
struct Side {
    wins: u32,
    losses: u32,
    draws: u32,
    wins_as_black: u32,
    forfeits: u32,
    times: Vec<Duration>,
}

impl Side {
    fn score(&self) -> f64 {
        let n = self.wins + self.losses + self.draws;
        if n == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) * 100.0 / f64::from(n)
    }

    fn percentile_ms(&self, pct: usize) -> u128 {
        let mut v: Vec<u128> = self.times.iter().map(Duration::as_millis).collect();
        v.sort_unstable();
        if v.is_empty() {
            return 0;
        }
        // Nearest rank: the smallest value with at least pct% of the samples at or below it.
        let rank = (pct * v.len()).div_ceil(100).max(1);
        v[rank - 1]
    }

    fn avg_ms(&self) -> u128 {
        if self.times.is_empty() {
            return 0;
        }
        self.times.iter().map(Duration::as_millis).sum::<u128>() / self.times.len() as u128
    }

    fn max_ms(&self) -> u128 {
        self.times
            .iter()
            .map(Duration::as_millis)
            .max()
            .unwrap_or(0)
    }
}

struct Player {
    level: Level,
    limits: Limits,
    engine: Engine,
    /// Search threads as set (0 = automatic).
    threads: usize,
}

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[
            "a",
            "b",
            "games",
            "time-ms",
            "rule",
            "size",
            "seed",
            "threads-a",
            "threads-b",
        ],
        HELP,
    )?;
    let a = level_named(&flags, "a", Level::Master)?;
    let b = level_named(&flags, "b", Level::Master)?;
    if flags.get("a").is_none() || flags.get("b").is_none() {
        return Err(usage("both --a and --b are required"));
    }
    let games: u32 = number_flag(&flags, "games")?.ok_or_else(|| usage("missing flag --games"))?;
    if games == 0 {
        return Err(usage("--games must be at least 1"));
    }
    let rule = flags.rule(Some(Rule::default()))?;
    let size = flags.size()?;
    let seed: u64 = number_flag(&flags, "seed")?.unwrap_or(1);
    let time = number_flag::<u64>(&flags, "time-ms")?.map(Duration::from_millis);
    let limits = |level: Level| {
        let mut l = level.default_limits();
        if let Some(t) = time {
            l.time = Some(t);
        }
        l
    };
    let threads = |name: &str| -> Result<usize, CliError> {
        let n = number_flag::<usize>(&flags, name)?.unwrap_or(0);
        if n > wuzi::MAX_THREADS {
            return Err(usage(format!(
                "--{name} must be from 0 (automatic) to {}",
                wuzi::MAX_THREADS
            )));
        }
        Ok(n)
    };
    let player = |level: Level, threads: usize| {
        let mut engine = Engine::new(TT_MIB);
        engine.set_threads(threads);
        Player {
            level,
            limits: limits(level),
            engine,
            threads,
        }
    };
    let mut players = [
        player(a, threads("threads-a")?),
        player(b, threads("threads-b")?),
    ];
    let mut sides = [Side::default(), Side::default()];
    let mut rng = StdRng::seed_from_u64(seed);
    let book = piskvork_openings();
    let mut opening = Vec::new();
    let started = Instant::now();
    for g in 0..games {
        if g % 2 == 0 {
            opening = pick_opening(&book, &mut rng, rule, size);
        }
        // Even games: A is black. Odd games: the same opening with B as black.
        let black = (g % 2) as usize;
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(u64::from(g));
        let (winner, moves) = play_game(
            &mut players,
            black,
            &opening,
            rule,
            size,
            game_seed,
            &mut sides,
        );
        let outcome = match winner {
            Some(w) => {
                sides[w].wins += 1;
                sides[1 - w].losses += 1;
                if w == black {
                    sides[w].wins_as_black += 1;
                }
                format!("{} wins", ["A", "B"][w])
            }
            None => {
                sides[0].draws += 1;
                sides[1].draws += 1;
                "draw".to_string()
            }
        };
        eprintln!(
            "game {}/{games}: A {} as {}, {outcome} after {moves} moves ({:.0} s elapsed)",
            g + 1,
            a,
            if black == 0 { "black" } else { "white" },
            started.elapsed().as_secs_f64()
        );
    }
    print!(
        "{}",
        report(&players, &sides, games, rule, size, seed, time)
    );
    Ok(())
}

/// A random opening from `book` under a random symmetry, legal under `rule` on `size`.
fn pick_opening(book: &[Opening], rng: &mut StdRng, rule: Rule, size: u8) -> Vec<Point> {
    let fitting: Vec<Vec<Point>> = book.iter().filter_map(|o| o.points(size)).collect();
    for _ in 0..1000 {
        if fitting.is_empty() {
            break;
        }
        let sym = rng.gen_range(0..8u8);
        let stones: Vec<Point> = fitting[rng.gen_range(0..fitting.len())]
            .iter()
            .map(|p| p.transform(sym, size))
            .collect();
        if Game::from_moves(rule, size, &stones).is_ok_and(|g| g.result().is_none()) {
            return stones;
        }
    }
    // No book opening fits this board (very small sizes): start from the centre.
    vec![Point::center(size)]
}

/// Plays one game; `black` is the index of the player with black. Returns the winner's index
/// (`None` for a draw) and the number of moves played.
fn play_game(
    players: &mut [Player; 2],
    black: usize,
    opening: &[Point],
    rule: Rule,
    size: u8,
    seed: u64,
    sides: &mut [Side; 2],
) -> (Option<usize>, usize) {
    let mut game = Game::from_moves(rule, size, opening).expect("openings are legal");
    for p in players.iter_mut() {
        p.engine.clear();
    }
    let index_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let cancel = AtomicBool::new(false);
    loop {
        if let Some(result) = game.result() {
            return (result.winner.map(index_of), game.moves().len());
        }
        let who = index_of(game.to_move());
        let player = &mut players[who];
        let t = Instant::now();
        let r = player.engine.search(
            &game,
            player.level,
            player.limits,
            &cancel,
            seed ^ game.moves().len() as u64,
        );
        sides[who].times.push(t.elapsed());
        // An engine that has no move or an illegal one loses the game: a bug, counted.
        if !r.best.is_some_and(|p| game.try_play(p).is_ok()) {
            sides[who].forfeits += 1;
            return (Some(1 - who), game.moves().len());
        }
    }
}

fn report(
    players: &[Player; 2],
    sides: &[Side; 2],
    games: u32,
    rule: Rule,
    size: u8,
    seed: u64,
    time: Option<Duration>,
) -> String {
    let budget = match time {
        Some(t) => format!("{} ms per move for both", t.as_millis()),
        None => format!(
            "level budgets (A {} ms, B {} ms)",
            players[0].limits.time.map_or(0, |t| t.as_millis()),
            players[1].limits.time.map_or(0, |t| t.as_millis())
        ),
    };
    let mut s = String::new();
    let threads = |p: &Player| {
        let n = p.engine.threads_for(p.level, p.limits);
        match p.threads {
            0 => format!("{n} thread{} (auto)", if n == 1 { "" } else { "s" }),
            _ => format!("{n} thread{}", if n == 1 { "" } else { "s" }),
        }
    };
    let _ = writeln!(
        s,
        "{} (A, {}) vs {} (B, {}): {games} games, {rule} {size}x{size}, {budget}, seed {seed}\n",
        players[0].level,
        threads(&players[0]),
        players[1].level,
        threads(&players[1])
    );
    s.push_str("| side | level | wins | losses | draws | score | wins as black | avg ms | p50 ms | p99 ms | max ms | moves |\n");
    s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (i, (p, side)) in players.iter().zip(sides).enumerate() {
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} | {} | {} | {:.1}% | {} | {} | {} | {} | {} | {} |",
            ["A", "B"][i],
            p.level,
            p.level.number(),
            side.wins,
            side.losses,
            side.draws,
            side.score(),
            side.wins_as_black,
            side.avg_ms(),
            side.percentile_ms(50),
            side.percentile_ms(99),
            side.max_ms(),
            side.times.len()
        );
    }
    let forfeits = sides[0].forfeits + sides[1].forfeits;
    if forfeits > 0 {
        let _ = writeln!(
            s,
            "\nForfeits (no legal move returned): A {}, B {}.",
            sides[0].forfeits, sides[1].forfeits
        );
    }
    let [sa, sb] = sides;
    let _ = writeln!(
        s,
        "\nresult: games={games} a_wins={} b_wins={} draws={} a_score={:.1} a_moves={} a_p50_ms={} a_p99_ms={} a_max_ms={} b_moves={} b_p50_ms={} b_p99_ms={} b_max_ms={} forfeits={forfeits}",
        sa.wins,
        sb.wins,
        sa.draws,
        sa.score(),
        sa.times.len(),
        sa.percentile_ms(50),
        sa.percentile_ms(99),
        sa.max_ms(),
        sb.times.len(),
        sb.percentile_ms(50),
        sb.percentile_ms(99),
        sb.max_ms(),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let side = Side {
            times: (1..=100).map(Duration::from_millis).collect(),
            ..Side::default()
        };
        assert_eq!(side.percentile_ms(50), 50);
        assert_eq!(side.percentile_ms(99), 99);
        assert_eq!(side.max_ms(), 100);
        let one = Side {
            times: vec![Duration::from_millis(7)],
            ..Side::default()
        };
        assert_eq!((one.percentile_ms(50), one.percentile_ms(99)), (7, 7));
        assert_eq!(Side::default().percentile_ms(99), 0);
    }

    #[test]
    fn score_counts_draws_as_half() {
        let side = Side {
            wins: 3,
            losses: 1,
            draws: 2,
            ..Side::default()
        };
        assert!((side.score() - 66.666).abs() < 0.01);
    }

    #[test]
    fn openings_are_legal_varied_and_reproducible() {
        let book = piskvork_openings();
        let mut r1 = StdRng::seed_from_u64(5);
        let mut r2 = StdRng::seed_from_u64(5);
        let a: Vec<Vec<Point>> = (0..10)
            .map(|_| pick_opening(&book, &mut r1, Rule::Renju, 15))
            .collect();
        let b: Vec<Vec<Point>> = (0..10)
            .map(|_| pick_opening(&book, &mut r2, Rule::Renju, 15))
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|o| *o != a[0]));
        for o in &a {
            assert!(o.len() >= 3, "{o:?}");
            Game::from_moves(Rule::Renju, 15, o).unwrap();
        }
        // Without a fitting book opening the game still gets a start.
        assert_eq!(
            pick_opening(&[], &mut r1, Rule::Freestyle, 5),
            vec![Point::center(5)]
        );
    }
}
