//! `wuzi-tools train-net`: the learned evaluation trained on self-play data
//! ([`wuzi_tools::net`]).

use std::time::Instant;

use wuzi_tools::net::{self, TrainConfig};

use crate::args::{number_flag, usage, CliError, Flags};
use crate::tune::{hold_out, read_games};

const HELP: &str = "\
usage: wuzi-tools train-net --rule R --data FILE[,FILE...] --out FILE [--lambda L]
                            [--epochs E] [--batch B] [--rate R] [--decay D] [--seed S]
                            [--residual 0|1]

Trains the learned evaluation (wuzi::ai::net) of rule R on the quiet positions of the games in
the data files (from wuzi-tools datagen), with the targets of `wuzi-tools tune` (L x result +
(1 - L) x sigmoid(search score / 200), default L 0.5): minibatch Adam (B positions a step,
default 256) on the cross-entropy, E epochs (default 8), step size R (default 0.001) times D
(default 0.75) after each epoch; every position under one of the board's eight symmetries drawn
anew each epoch. S (default 1) seeds the initial values, the order and the symmetries, so the
file depends only on the flags and the data. Every tenth game is held out: each epoch prints
the training loss and the held-out loss beside the built-in tables'. Writes the network file
(read by `pbrain-wuzi --net R=FILE`) to FILE. --residual 1 trains a correction that the
engine adds to the built-in tables' evaluation instead of a whole evaluation.
";

pub fn run(args: &[String]) -> Result<(), CliError> {
    let flags = Flags::parse(
        args,
        &[
            "rule", "data", "out", "lambda", "epochs", "batch", "rate", "decay", "seed", "residual",
        ],
        HELP,
    )?;
    let rule = flags.rule(None)?;
    let out = flags.required("out")?;
    let lambda = number_flag::<f64>(&flags, "lambda")?.unwrap_or(0.5);
    if !(0.0..=1.0).contains(&lambda) {
        return Err(usage("--lambda must be from 0 to 1"));
    }
    let mut cfg = TrainConfig::default();
    if let Some(e) = number_flag::<usize>(&flags, "epochs")? {
        cfg.epochs = e;
    }
    if let Some(b) = number_flag::<usize>(&flags, "batch")? {
        if b == 0 {
            return Err(usage("--batch must be at least 1"));
        }
        cfg.batch = b;
    }
    if let Some(r) = number_flag::<f32>(&flags, "rate")? {
        cfg.rate = r;
    }
    if let Some(d) = number_flag::<f32>(&flags, "decay")? {
        cfg.decay = d;
    }
    if let Some(s) = number_flag::<u64>(&flags, "seed")? {
        cfg.seed = s;
    }
    cfg.residual = match flags.get("residual") {
        None | Some("0") => false,
        Some("1") => true,
        Some(v) => return Err(usage(format!("--residual {v}: expected 0 or 1"))),
    };
    let games = read_games(flags.required("data")?, rule)?;
    let (train, held) = hold_out(&games);
    let start = Instant::now();
    let data = net::samples(&train, lambda);
    let check = net::samples(&held, lambda);
    if data.is_empty() {
        return Err(usage("no quiet positions in the data"));
    }
    eprintln!(
        "{} games, {} quiet positions for training, {} held out; built-in tables' held-out loss {:.5} ({:.0} s)",
        games.len(),
        data.len(),
        check.len(),
        net::tables_loss(&held, &check),
        start.elapsed().as_secs_f64()
    );
    let t = net::train(&train, &data, &cfg, |epoch, loss, t| {
        eprintln!(
            "epoch {epoch}: training loss {loss:.5}, held-out {:.5} ({:.0} s)",
            net::loss(t, &held, &check),
            start.elapsed().as_secs_f64()
        );
    });
    let bytes = t.w.to_bytes();
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, out)?;
    eprintln!("wrote {out} ({} bytes)", bytes.len());
    Ok(())
}
