//! `wuzi-tools datagen` and `wuzi-tools tune`: self-play data and the evaluation fitted to it
//! ([`wuzi_tools::tune`]).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

use wuzi::ai::eval::{install_weights, Weights, CELL_RESOLUTION};
use wuzi::Rule;
use wuzi_tools::tune::{self, FitConfig, GenConfig, TuneGame};

use crate::args::{number_flag, usage, CliError, Flags};

const DATAGEN_HELP: &str = "\
usage: wuzi-tools datagen --rule R --games N --out FILE [--nodes K] [--seed S] [--threads T]
                          [--opening-min A] [--opening-max B] [--size N] [--weights FILE]

Plays N games of Master against itself (K search nodes per move, default 20000; one thread per
game, T games at once, default 2) from random openings of A to B stones (default 3 to 6) in the
central 7x7, and writes one line per game to FILE: rule, size, opening length, result, the
moves, '|', each move's search score. Game i uses seed S+i, so the file depends only on the
flags, not on T or the machine. A game stops at a five, a full board, or as soon as a side
proves a forced win. --weights plays with the evaluation tables in FILE (the format of
src/ai/weights/*.txt) instead of the built-in ones: the data of a fit is made again with the
tables that made it (e.g. `wuzi-tools tune --init hand` for the first round).
";

const TUNE_HELP: &str = "\
usage: wuzi-tools tune --rule R --data FILE[,FILE...] --out FILE [--lambda L] [--epochs E]
                       [--rate R] [--l2-combo X] [--l2 Y] [--cell-resolution C]
                       [--command TEXT]
       wuzi-tools tune --rule R --init hand --out FILE

Fits the evaluation tables of rule R to the quiet positions of the games in the data files
(from wuzi-tools datagen): logistic regression of the target L x result + (1 - L) x sigmoid(search
score / 200) (default L 0.5) on the pattern-combination and threat-mask counts, full-batch
Adam for E steps (default 400); then the move-order tables by softmax regression of the moves
the search played (--policy-epochs, default E; --l2-policy). Prints the losses as it goes and
writes the tables (the format
of src/ai/weights/*.txt) to FILE, with a header naming the command (--command overrides the
text, e.g. to record the datagen command too). --init hand writes the hand-made pattern-sum tables
instead (the starting point the fitted ones are compared with). --cell-resolution C keeps the
point values to 1/C of an evaluation unit (1, 2, 4, 8 or 16; default 1, whole units, as the
shipped tables).
";

pub fn datagen(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[
            "rule",
            "size",
            "games",
            "out",
            "nodes",
            "seed",
            "threads",
            "opening-min",
            "opening-max",
            "weights",
        ],
        DATAGEN_HELP,
    )?;
    let rule = flags.rule(None)?;
    if let Some(path) = flags.get("weights") {
        let text = std::fs::read_to_string(path)?;
        let w = Weights::from_text(&text).map_err(|e| usage(format!("--weights {path}: {e}")))?;
        install_weights(rule, w).map_err(|e| usage(format!("--weights: {e}")))?;
    }
    let size = flags.size()?;
    let games = number_flag::<usize>(&flags, "games")?.ok_or_else(|| usage("missing --games"))?;
    let nodes = number_flag::<u64>(&flags, "nodes")?.unwrap_or(20_000);
    let seed = number_flag::<u64>(&flags, "seed")?.unwrap_or(1);
    let threads = number_flag::<usize>(&flags, "threads")?.unwrap_or(2);
    let lo = number_flag::<usize>(&flags, "opening-min")?.unwrap_or(3);
    let hi = number_flag::<usize>(&flags, "opening-max")?.unwrap_or(6);
    if lo > hi || hi > 20 {
        return Err(usage(
            "--opening-min must be at most --opening-max (at most 20)",
        ));
    }
    if !(1..=64).contains(&threads) {
        return Err(usage("--threads must be from 1 to 64"));
    }
    let out = flags.required("out")?;
    let mut w = BufWriter::new(File::create(out)?);
    let cfg = GenConfig {
        rule,
        size,
        games,
        nodes,
        opening: (lo, hi),
        seed,
        threads,
    };
    let start = Instant::now();
    let mut n = 0usize;
    let mut err = None;
    tune::generate(&cfg, |g| {
        n += 1;
        if err.is_none() {
            err = writeln!(w, "{}", g.to_line()).err();
        }
        if n % 100 == 0 {
            eprintln!("{n} games, {:.0} s", start.elapsed().as_secs_f64());
        }
    });
    if let Some(e) = err {
        return Err(e.into());
    }
    w.flush()?;
    eprintln!("{n} games in {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[
            "rule",
            "data",
            "out",
            "lambda",
            "epochs",
            "rate",
            "l2-combo",
            "l2",
            "l2-policy",
            "cell-resolution",
            "policy-epochs",
            "init",
            "command",
        ],
        TUNE_HELP,
    )?;
    let rule = flags.rule(None)?;
    let out = flags.required("out")?;
    if let Some(init) = flags.get("init") {
        if init != "hand" {
            return Err(usage("--init: the only starting point is \"hand\""));
        }
        let w = tune::hand_weights(rule);
        std::fs::write(
            out,
            w.to_text(&format!(
                "Hand-made pattern-sum tables for {rule}.\nwuzi-tools tune --rule {rule} --init hand --out {out}"
            )),
        )?;
        return Ok(());
    }
    let lambda = number_flag::<f64>(&flags, "lambda")?.unwrap_or(0.5);
    if !(0.0..=1.0).contains(&lambda) {
        return Err(usage("--lambda must be from 0 to 1"));
    }
    let mut cfg = FitConfig::default();
    if let Some(e) = number_flag::<usize>(&flags, "epochs")? {
        cfg.epochs = e;
    }
    if let Some(r) = number_flag::<f64>(&flags, "rate")? {
        cfg.rate = r;
    }
    if let Some(x) = number_flag::<f64>(&flags, "l2-combo")? {
        cfg.l2_combo = x;
    }
    if let Some(x) = number_flag::<f64>(&flags, "l2")? {
        cfg.l2 = x;
    }
    if let Some(x) = number_flag::<f64>(&flags, "l2-policy")? {
        cfg.l2_policy = x;
    }
    if let Some(c) = number_flag::<i32>(&flags, "cell-resolution")? {
        if c <= 0 || CELL_RESOLUTION % c != 0 {
            return Err(usage(format!(
                "--cell-resolution must divide {CELL_RESOLUTION} (1, 2, 4, 8 or 16)"
            )));
        }
        cfg.cell_resolution = c;
    }
    let policy_epochs = number_flag::<usize>(&flags, "policy-epochs")?.unwrap_or(cfg.epochs);
    let games = read_games(flags.required("data")?, rule)?;
    let (train, held) = hold_out(&games);
    let start = Instant::now();
    let data = tune::samples(&train, lambda);
    let check = tune::samples(&held, lambda);
    eprintln!(
        "{} games, {} quiet positions for fitting, {} held out ({:.0} s)",
        games.len(),
        data.len(),
        check.len(),
        start.elapsed().as_secs_f64()
    );
    if data.is_empty() {
        return Err(usage("no quiet positions in the data"));
    }
    let built_in = wuzi::ai::eval::weights(rule);
    let mut w = tune::fit(&data, &cfg, |step, loss| {
        eprintln!("step {step}: loss {loss:.5}");
    });
    eprintln!(
        "evaluation fitted in {:.0} s; held-out loss {:.5} (built-in tables {:.5})",
        start.elapsed().as_secs_f64(),
        tune::loss(&w, &check),
        tune::loss(built_in, &check)
    );
    let moves = tune::policy_samples(&train);
    let moves_check = tune::policy_samples(&held);
    eprintln!("{} searched positions for the move order", moves.len());
    if !moves.is_empty() {
        let pcfg = FitConfig {
            epochs: policy_epochs,
            ..cfg.clone()
        };
        tune::fit_policy(&moves, &pcfg, &mut w, |step, loss, top1| {
            eprintln!(
                "policy step {step}: loss {loss:.5}, top-1 {:.1}%",
                top1 * 100.0
            );
        });
        let (l, t) = tune::policy_loss(&w, &moves_check);
        let (bl, bt) = tune::policy_loss(built_in, &moves_check);
        eprintln!(
            "move order held out: loss {l:.4}, top-1 {:.1}% (built-in: {bl:.4}, {:.1}%)",
            t * 100.0,
            bt * 100.0
        );
    }
    let command = flags.get("command").map_or_else(
        || format!("wuzi-tools tune {}", args.join(" ")),
        ToString::to_string,
    );
    std::fs::write(
        out,
        w.to_text(&format!(
            "Evaluation tables for {rule}, fitted to {} quiet positions of {} games;\n\
             move order fitted to the {} searched positions.\n{command}",
            data.len(),
            games.len(),
            moves.len()
        )),
    )?;
    Ok(())
}

/// The games of `rule` in the comma-separated data files `paths` (from `wuzi-tools datagen`).
pub fn read_games(paths: &str, rule: Rule) -> Result<Vec<TuneGame>, CliError> {
    let mut games = Vec::new();
    for path in paths.split(',') {
        let f = File::open(path).map_err(|e| usage(format!("--data {path}: {e}")))?;
        for (k, line) in BufReader::new(f).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let g =
                TuneGame::from_line(&line).map_err(|e| usage(format!("{path}:{}: {e}", k + 1)))?;
            if g.rule == rule {
                games.push(g);
            }
        }
    }
    Ok(games)
}

/// Every tenth game held out to measure a fit on positions it has not seen: `(train, held)`.
pub fn hold_out(games: &[TuneGame]) -> (Vec<TuneGame>, Vec<TuneGame>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (k, g) in games.iter().enumerate() {
        if k % 10 == 9 {
            b.push(g.clone());
        } else {
            a.push(g.clone());
        }
    }
    (a, b)
}
