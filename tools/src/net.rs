//! Training the learned evaluation ([`wuzi::ai::net`]) on self-play games.
//!
//! The positions and targets are those of the tables' fit ([`crate::tune::samples`]): every
//! quiet position after a game's opening whose search score is not a proven result, with the
//! target `λ × result + (1 − λ) × sigmoid(score / SCALE)` for the side to move. Each epoch
//! shows every training position once, in a seeded order and under one of the board's eight
//! symmetries drawn for it, to minibatch Adam on the cross-entropy of the network's output.
//! The network's features are read from [`Position`] exactly as the engine reads them, so a
//! trained file plays what it learned; the model here is the engine's in `f32` (the engine
//! rounds the point lanes to integers).

// The forward and backward passes index several flat parameter arrays with the same lane and
// unit numbers; iterators over one of them would hide the others' offsets.
#![allow(clippy::needless_range_loop)]

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use wuzi::ai::eval::{eval_terms_marking, evaluate, SCALE};
use wuzi::ai::net::{line_code, NetWeights, ACC, CELL_WORDS, CODES, HEAD, POOL};
use wuzi::ai::position::Position;
use wuzi::{Board, Color};

use crate::tune::{for_each_sample, TuneGame};

/// MASKS of the evaluation (one hidden-layer input per threat mask).
const MASKS: usize = wuzi::ai::eval::MASKS;

/// One training position: a game, how many of its moves are on the board, and the target.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    game: u32,
    ply: u16,
    target: f32,
}

/// The quiet positions of `games` with their targets (see the module docs).
#[must_use]
pub fn samples(games: &[TuneGame], lambda: f64) -> Vec<Sample> {
    let mut out = Vec::new();
    for_each_sample(games, lambda, |game, ply, _, target| {
        out.push(Sample {
            game: game as u32,
            ply: ply as u16,
            target: target as f32,
        });
    });
    out
}

/// What the network reads of one position.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// The side to move ([`Color::index`]).
    pub side: usize,
    /// The threat mask.
    pub mask: usize,
    /// The tables' evaluation in logits (what a correcting network adds to).
    pub base: f32,
    /// Per empty point: black's four line codes (`None` at a point forbidden to black) and
    /// white's.
    pub points: Vec<(Option<[u16; 4]>, [u16; 4])>,
}

/// The features of the position after `ply` moves of `game`, turned by symmetry `sym`
/// (0–7, see [`wuzi::Point::transform`]).
#[must_use]
pub fn features(game: &TuneGame, ply: usize, sym: u8) -> Features {
    let mut board = Board::new(game.size).expect("a game's board size");
    let mut c = Color::Black;
    for &m in &game.moves[..ply] {
        board.place(m.transform(sym, game.size), c);
        c = c.other();
    }
    let mut pos = Position::new(&board, game.rule, c);
    position_features(&mut pos)
}

/// The features of a position.
#[must_use]
pub fn position_features(pos: &mut Position) -> Features {
    let mut dead_cells = [0; CELL_WORDS];
    let terms = eval_terms_marking(pos, &mut dead_cells);
    let base = (f64::from(evaluate(pos)) / SCALE) as f32;
    let mut points = Vec::with_capacity(pos.points().len());
    for k in 0..pos.points().len() {
        let i = usize::from(pos.points()[k]);
        if !pos.is_empty(i) {
            continue;
        }
        let code = |c: Color| -> [u16; 4] {
            std::array::from_fn(|d| line_code(pos.line_key(c, d, i)) as u16)
        };
        let dead = dead_cells[i / 64] & (1 << (i % 64)) != 0;
        points.push(((!dead).then(|| code(Color::Black)), code(Color::White)));
    }
    Features {
        side: pos.to_move().index(),
        mask: terms.mask,
        base,
        points,
    }
}

/// The model in `f32` with its gradients and Adam moments.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The values (the file's order).
    pub w: NetWeights,
    grad: NetWeights,
    m: NetWeights,
    v: NetWeights,
    step: i32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of `pred` against `target`, clamped away from 0 and 1.
fn cross_entropy(pred: f32, target: f32) -> f64 {
    let p = f64::from(pred).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(target);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

impl Trainer {
    /// A model with small random values drawn from `seed`; a correcting one (`residual`)
    /// starts close to the tables.
    #[must_use]
    pub fn new(seed: u64, residual: bool) -> Trainer {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut w = NetWeights::zeros();
        for v in &mut w.emb {
            *v = rng.gen_range(-0.05..0.05);
        }
        for v in &mut w.bias {
            *v = 0.1;
        }
        let a = 1.0 / (ACC as f32).sqrt();
        for v in &mut w.w1 {
            *v = rng.gen_range(-a..a);
        }
        for v in &mut w.b1 {
            *v = 0.5;
        }
        w.residual = residual;
        let a = if residual { 0.1 } else { 1.0 } / (HEAD as f32).sqrt();
        for v in &mut w.w2 {
            *v = rng.gen_range(-a..a);
        }
        Trainer {
            w,
            grad: NetWeights::zeros(),
            m: NetWeights::zeros(),
            v: NetWeights::zeros(),
            step: 0,
        }
    }

    /// The point accumulators, the pooled input, the hidden pre-activations and the output.
    fn forward(&self, f: &Features) -> (Vec<[f32; ACC]>, [f32; ACC], [f32; HEAD], f32) {
        let w = &self.w;
        let p = f.side;
        let emb = |colour: usize, code: u16| {
            let at = ((p * 2 + colour) * CODES + usize::from(code)) * ACC;
            &w.emb[at..at + ACC]
        };
        let mut accs = Vec::with_capacity(f.points.len());
        let mut pooled = [0f32; ACC];
        for (black, white) in &f.points {
            let mut a: [f32; ACC] = std::array::from_fn(|l| w.bias[p * ACC + l]);
            match black {
                Some(codes) => {
                    for &c in codes {
                        let e = emb(0, c);
                        for l in 0..ACC {
                            a[l] += e[l];
                        }
                    }
                }
                None => {
                    for l in 0..ACC {
                        a[l] += w.dead[p * ACC + l];
                    }
                }
            }
            for &c in white {
                let e = emb(1, c);
                for l in 0..ACC {
                    a[l] += e[l];
                }
            }
            for l in 0..ACC {
                pooled[l] += a[l].clamp(0.0, 1.0);
            }
            accs.push(a);
        }
        let x: [f32; ACC] = std::array::from_fn(|l| pooled[l] / POOL);
        let mut z = [0f32; HEAD];
        let mut out = w.b2[p] + if w.residual { f.base } else { 0.0 };
        for h in 0..HEAD {
            let mut s = w.b1[p * HEAD + h] + w.mask[(p * MASKS + f.mask) * HEAD + h];
            for l in 0..ACC {
                s += w.w1[(p * HEAD + h) * ACC + l] * x[l];
            }
            z[h] = s;
            out += w.w2[p * HEAD + h] * s.clamp(0.0, 1.0);
        }
        (accs, x, z, out)
    }

    /// The model's probability that the side to move wins.
    #[must_use]
    pub fn predict(&self, f: &Features) -> f32 {
        sigmoid(self.forward(f).3)
    }

    /// Adds one position's gradient of the cross-entropy to the batch's; returns its loss.
    pub fn accumulate(&mut self, f: &Features, target: f32) -> f64 {
        let (accs, x, z, out) = self.forward(f);
        let pred = sigmoid(out);
        let loss = cross_entropy(pred, target);
        let p = f.side;
        let d_out = pred - target;
        let (w, g) = (&self.w, &mut self.grad);
        g.b2[p] += d_out;
        let mut dx = [0f32; ACC];
        for h in 0..HEAD {
            let k = p * HEAD + h;
            g.w2[k] += d_out * z[h].clamp(0.0, 1.0);
            if z[h] <= 0.0 || z[h] >= 1.0 {
                continue;
            }
            let dz = d_out * w.w2[k];
            g.b1[k] += dz;
            g.mask[(p * MASKS + f.mask) * HEAD + h] += dz;
            for l in 0..ACC {
                g.w1[k * ACC + l] += dz * x[l];
                dx[l] += dz * w.w1[k * ACC + l];
            }
        }
        let dp: [f32; ACC] = std::array::from_fn(|l| dx[l] / POOL);
        for ((black, white), a) in f.points.iter().zip(&accs) {
            let da: [f32; ACC] =
                std::array::from_fn(|l| if a[l] > 0.0 && a[l] < 1.0 { dp[l] } else { 0.0 });
            if da.iter().all(|&v| v == 0.0) {
                continue;
            }
            let add = |part: &mut Vec<f32>, at: usize| {
                for l in 0..ACC {
                    part[at + l] += da[l];
                }
            };
            add(&mut g.bias, p * ACC);
            match black {
                Some(codes) => {
                    for &c in codes {
                        add(&mut g.emb, (p * 2 * CODES + usize::from(c)) * ACC);
                    }
                }
                None => add(&mut g.dead, p * ACC),
            }
            for &c in white {
                add(&mut g.emb, ((p * 2 + 1) * CODES + usize::from(c)) * ACC);
            }
        }
        loss
    }

    /// One Adam step with the batch's gradient (averaged over `n` positions), which it clears.
    pub fn apply(&mut self, n: usize, rate: f32) {
        self.step += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(self.step);
        let c2 = 1.0 - b2.powi(self.step);
        let scale = 1.0 / n as f32;
        let (w, g, m, v) = (
            self.w.parts_mut(),
            self.grad.parts_mut(),
            self.m.parts_mut(),
            self.v.parts_mut(),
        );
        for k in 0..8 {
            for i in 0..w[k].len() {
                let gi = g[k][i] * scale;
                g[k][i] = 0.0;
                m[k][i] = b1 * m[k][i] + (1.0 - b1) * gi;
                v[k][i] = b2 * v[k][i] + (1.0 - b2) * gi * gi;
                w[k][i] -= rate * (m[k][i] / c1) / ((v[k][i] / c2).sqrt() + 1e-8);
            }
        }
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size in the first epoch; it falls by `decay` each epoch after.
    pub rate: f32,
    /// The step size's factor per epoch.
    pub decay: f32,
    /// Seeds the initial values, the order and the symmetries.
    pub seed: u64,
    /// Train a correction of the tables' evaluation ([`NetWeights::residual`]).
    pub residual: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 8,
            batch: 256,
            rate: 1e-3,
            decay: 0.75,
            seed: 1,
            residual: false,
        }
    }
}

/// The mean cross-entropy of the model on `data` (no symmetry).
#[must_use]
pub fn loss(t: &Trainer, games: &[TuneGame], data: &[Sample]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let f = features(&games[s.game as usize], usize::from(s.ply), 0);
            cross_entropy(t.predict(&f), s.target)
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The mean cross-entropy of the built-in evaluation on `data`.
#[must_use]
pub fn tables_loss(games: &[TuneGame], data: &[Sample]) -> f64 {
    let sum: f64 = data
        .iter()
        .map(|s| {
            let f = features(&games[s.game as usize], usize::from(s.ply), 0);
            cross_entropy(sigmoid(f.base), s.target)
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// Trains a model on `data` (positions of `games`); `log` hears each epoch's number and mean
/// training loss.
pub fn train(
    games: &[TuneGame],
    data: &[Sample],
    cfg: &TrainConfig,
    mut log: impl FnMut(usize, f64, &Trainer),
) -> Trainer {
    let mut t = Trainer::new(cfg.seed, cfg.residual);
    let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_add(1));
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rate = cfg.rate;
    for epoch in 0..cfg.epochs {
        order.shuffle(&mut rng);
        let mut total = 0.0;
        for chunk in order.chunks(cfg.batch) {
            for &k in chunk {
                let s = data[k];
                let f = features(
                    &games[s.game as usize],
                    usize::from(s.ply),
                    rng.gen_range(0..8),
                );
                total += t.accumulate(&f, s.target);
            }
            t.apply(chunk.len(), rate);
        }
        log(epoch + 1, total / data.len().max(1) as f64, &t);
        rate *= cfg.decay;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::ai::net::Net;
    use wuzi::{Point, Rule};

    fn game(moves: &str, winner: Option<Color>) -> TuneGame {
        let moves: Vec<Point> = moves
            .split_whitespace()
            .map(|m| Point::from_rif(m, 15).unwrap())
            .collect();
        let scores = (0..moves.len())
            .map(|k| (k >= 2).then_some(if k % 2 == 0 { 40 } else { -40 }))
            .collect();
        TuneGame {
            rule: Rule::Renju,
            size: 15,
            opening: 2,
            moves,
            scores,
            winner,
        }
    }

    #[test]
    fn training_learns_the_data_and_the_engine_reads_it_alike() {
        let games = vec![
            game("h8 h9 i8 i9 j8 j9 g7 k10 f6", Some(Color::Black)),
            game("h8 i9 g7 j10 f6 k11 e5 l12 d4", Some(Color::Black)),
        ];
        let data = samples(&games, 0.5);
        assert!(data.len() >= 6, "{}", data.len());
        let cfg = TrainConfig {
            epochs: 60,
            batch: 4,
            rate: 3e-3,
            decay: 1.0,
            seed: 3,
            residual: false,
        };
        let first = loss(&Trainer::new(cfg.seed, cfg.residual), &games, &data);
        let t = train(&games, &data, &cfg, |_, _, _| {});
        let last = loss(&t, &games, &data);
        assert!(last < first - 0.02, "{first} -> {last}");
        // The engine's integer network gives the trainer's output, to the rounding of the
        // point lanes.
        let net: &'static Net = Box::leak(Box::new(Net::new(&t.w)));
        for s in &data {
            let g = &games[s.game as usize];
            let f = features(g, usize::from(s.ply), 0);
            let mut board = Board::new(15).unwrap();
            let mut c = Color::Black;
            for &m in &g.moves[..usize::from(s.ply)] {
                board.place(m, c);
                c = c.other();
            }
            let mut pos = Position::new(&board, Rule::Renju, c);
            let engine = net_logit(&mut pos, net);
            let trainer = t.forward(&f).3;
            assert!((engine - trainer).abs() < 0.05, "{engine} vs {trainer}");
        }
    }

    /// The engine's output for `pos` with `net`.
    fn net_logit(pos: &mut Position, net: &'static Net) -> f32 {
        let mut with = pos.clone();
        with.use_net(net);
        let mut dead = [0; CELL_WORDS];
        let terms = eval_terms_marking(&mut with, &mut dead);
        with.net_value(terms.mask, &dead).unwrap().0
    }

    #[test]
    fn symmetric_positions_have_the_same_features_up_to_order() {
        let g = game("h8 h9 i8 i9 j8 j9 g7 k10 f6", None);
        let base = features(&g, 7, 0);
        for sym in 1..8 {
            let f = features(&g, 7, sym);
            assert_eq!(f.side, base.side);
            assert_eq!(f.mask, base.mask);
            let mut a = base.points.clone();
            let mut b = f.points.clone();
            for v in [&mut a, &mut b] {
                for (black, white) in v.iter_mut() {
                    if let Some(c) = black {
                        c.sort_unstable();
                    }
                    white.sort_unstable();
                }
                v.sort_unstable();
            }
            assert_eq!(a, b, "symmetry {sym}");
        }
    }
}
