//! `wuzi-arena match` and `wuzi-arena sprt`: the same pair runner, stopped after a fixed
//! number of pairs or by the SPRT (see [`crate::stats`] for the statistics).

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;

use crate::args::Flags;
use crate::error::{usage, ArenaError};
use crate::gamelog::games_json;
use crate::runner::{Flow, PairResult};
use crate::setup::{Setup, COMMON_FLAGS, COMMON_HELP};
use crate::stats::sprt_bounds;

/// `wuzi-arena match`.
///
/// # Errors
/// [`ArenaError`] for bad flags, unreadable files or brains that do not start.
pub fn run_match(args: &[String]) -> Result<(), ArenaError> {
    let help = format!(
        "usage: wuzi-arena match --a CMD --b CMD --pairs N [options]\n\n\
         Plays N pairs of A against B and reports A's score, Elo with its 95% interval,\n\
         results per colour and both engines' move times.\n\n  \
         --pairs N               pairs of games (required)\n\n{COMMON_HELP}"
    );
    let mut known = COMMON_FLAGS.to_vec();
    known.push("pairs");
    let flags = Flags::parse(args, &known, &help)?;
    let pairs: usize = flags.required_number("pairs")?;
    if pairs == 0 {
        return Err(usage("--pairs must be at least 1"));
    }
    let mut setup = Setup::from_flags(&flags)?;
    let mut out = Out::new(setup.games_out.as_ref())?;
    let abouts = setup.preflight()?;
    out.line(&setup.title("match", &format!("{pairs} pairs")))?;
    out.text(&abouts)?;

    let arena = &setup.arena;
    let mut tally = setup.tally();
    let mut failure = None;
    arena.run(pairs, |pair| {
        tally.add(&pair);
        let opening = &arena.openings[pair.opening];
        let line = tally.match_line(&pair, pairs, &opening.label());
        let opening = opening.text();
        match out.pair(&line, &pair, &tally.names, &opening, arena.config.size) {
            Ok(()) => Flow::Continue,
            Err(e) => {
                failure = Some(e);
                Flow::Stop
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    out.line("")?;
    out.text(&tally.report(&setup.title("match result", "")))?;
    out.line("")?;
    out.text(&tally.markdown())
}

/// `wuzi-arena sprt`.
///
/// # Errors
/// [`ArenaError`] for bad flags, unreadable files or brains that do not start.
pub fn run_sprt(args: &[String]) -> Result<(), ArenaError> {
    let help = format!(
        "usage: wuzi-arena sprt --a CMD --b CMD [--elo0 0 --elo1 5] [options]\n\n\
         Plays pairs of A against B until the pentanomial GSPRT accepts H0 (A is elo0 stronger)\n\
         or H1 (A is elo1 stronger), or --max-pairs is reached. The last line is a verdict to\n\
         paste into a commit message.\n\n  \
         --elo0 E0, --elo1 E1    logistic Elo bounds (default 0 and 5)\n  \
         --alpha A, --beta B     error probabilities (default 0.05 each)\n  \
         --max-pairs N           stop without a verdict after N pairs (default 5000)\n\n{COMMON_HELP}"
    );
    let mut known = COMMON_FLAGS.to_vec();
    known.extend(["elo0", "elo1", "alpha", "beta", "max-pairs"]);
    let flags = Flags::parse(args, &known, &help)?;
    let elo0: f64 = flags.number("elo0", 0.0)?;
    let elo1: f64 = flags.number("elo1", 5.0)?;
    let alpha: f64 = flags.number("alpha", 0.05)?;
    let beta: f64 = flags.number("beta", 0.05)?;
    let max_pairs: usize = flags.number("max-pairs", 5000)?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(usage("--elo0 must be below --elo1"));
    }
    for (name, p) in [("alpha", alpha), ("beta", beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(usage(format!("--{name} must be between 0 and 0.5")));
        }
    }
    if max_pairs == 0 {
        return Err(usage("--max-pairs must be at least 1"));
    }
    let mut setup = Setup::from_flags(&flags)?;
    let mut out = Out::new(setup.games_out.as_ref())?;
    let abouts = setup.preflight()?;
    let bounds = sprt_bounds(alpha, beta);
    let errors = if alpha == beta {
        format!("alpha=beta={alpha}")
    } else {
        format!("alpha={alpha} beta={beta}")
    };
    let head = format!("SPRT elo0={elo0} elo1={elo1} {errors}");
    out.line(&setup.title(
        "sprt",
        &format!(
            "{head}, LLR bounds ({:.2}, {:.2}), at most {max_pairs} pairs",
            bounds.0, bounds.1
        ),
    ))?;
    out.text(&abouts)?;

    let arena = &setup.arena;
    let mut tally = setup.tally();
    let mut failure = None;
    let mut verdict = None;
    let mut llr = 0.0;
    arena.run(max_pairs, |pair| {
        tally.add(&pair);
        llr = tally.penta.llr(elo0, elo1);
        let line = tally.sprt_line(llr, bounds);
        let opening = arena.openings[pair.opening].text();
        if let Err(e) = out.pair(&line, &pair, &tally.names, &opening, arena.config.size) {
            failure = Some(e);
            return Flow::Stop;
        }
        if llr <= bounds.0 {
            verdict = Some("H0 accepted");
        } else if llr >= bounds.1 {
            verdict = Some("H1 accepted");
        }
        if verdict.is_some() {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    out.line("")?;
    out.text(&tally.report(&setup.title("sprt result", &head)))?;
    out.line("")?;
    out.text(&tally.markdown())?;
    out.line("")?;
    let verdict = verdict.unwrap_or("no verdict (--max-pairs reached)");
    out.line(&tally.verdict_line(&head, verdict, llr))
}

/// Standard output plus the optional games file, flushed line by line so a long run can be
/// watched (and survives an interruption up to the last finished pair).
struct Out {
    games: Option<(PathBuf, File)>,
}

impl Out {
    fn new(games_out: Option<&PathBuf>) -> Result<Out, ArenaError> {
        let games = match games_out {
            None => None,
            Some(path) => Some((
                path.clone(),
                File::create(path).map_err(|error| ArenaError::File {
                    path: path.clone(),
                    action: "create games file",
                    error,
                })?,
            )),
        };
        Ok(Out { games })
    }

    fn text(&mut self, text: &str) -> Result<(), ArenaError> {
        let stdout = io::stdout();
        let mut lock = stdout.lock();
        lock.write_all(text.as_bytes())
            .and_then(|()| lock.flush())
            .map_err(ArenaError::Output)
    }

    fn line(&mut self, line: &str) -> Result<(), ArenaError> {
        self.text(&format!("{line}\n"))
    }

    fn pair(
        &mut self,
        line: &str,
        pair: &PairResult,
        names: &[String; 2],
        opening: &str,
        size: u8,
    ) -> Result<(), ArenaError> {
        self.line(line)?;
        if let Some((path, file)) = &mut self.games {
            file.write_all(games_json(pair, names, opening, size).as_bytes())
                .and_then(|()| file.flush())
                .map_err(|error| ArenaError::File {
                    path: path.clone(),
                    action: "write games file",
                    error,
                })?;
        }
        Ok(())
    }
}
