//! Fitting the evaluation to data: self-play generation and logistic regression ("Texel
//! tuning").
//!
//! 1. [`generate`] plays games of the engine against itself from random openings at a fixed
//!    node budget per move (deterministic for a seed), recording every move's search score.
//! 2. [`samples`] replays the games and keeps the *quiet* positions (no five to make or block,
//!    no open four to make or stop, no proven win), each with its features — the counts of
//!    every (colour, to move or waiting, pattern combination) over the empty points, and the
//!    threat mask (see [`wuzi::ai::eval`]) — and a target: a blend of the game's result and
//!    the search score, from the side to move's view.
//! 3. [`fit`] finds the weights minimising the cross-entropy between
//!    `sigmoid(eval / SCALE)` and the targets, with Adam over full batches. A combination's
//!    weight is the sum of its four patterns' weights plus a correction of its own; the
//!    corrections carry a stronger L2 penalty, so rare combinations stay close to the sum of
//!    their parts.
//!
//! The resulting [`Weights`] are written to `src/ai/weights/<rule>.txt` with the commands that
//! produced them in the header (`wuzi-tools datagen`, `wuzi-tools tune`).

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use wuzi::ai::eval::{
    cell_units, combo_rank, eval_terms, Weights, CELL_RESOLUTION, COMBOS, EVAL_LIMIT, MASKS, SCALE,
};
use wuzi::ai::pattern::Pattern;
use wuzi::ai::position::{combo_score, Position, Threat};
use wuzi::ai::search::MATE_BOUND;
use wuzi::ai::threat::ThreatSearch;
use wuzi::ai::{Engine, Level, Limits};
use wuzi::{Board, Color, Game, Point, Rule};

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuneGame {
    /// The rule it was played under.
    pub rule: Rule,
    /// Board size.
    pub size: u8,
    /// How many of the first moves were the random opening.
    pub opening: usize,
    /// Every move, black first.
    pub moves: Vec<Point>,
    /// The search score of each move after the opening, from the mover's view (`None` for
    /// opening moves).
    pub scores: Vec<Option<i32>>,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
}

impl TuneGame {
    /// One line: `rule size opening result moves… | scores…` (`result` is `b`, `w` or `d`;
    /// scores of opening moves are `-`).
    #[must_use]
    pub fn to_line(&self) -> String {
        let result = match self.winner {
            Some(Color::Black) => "b",
            Some(Color::White) => "w",
            None => "d",
        };
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|p| p.rif(self.size).to_string())
            .collect();
        let scores: Vec<String> = self
            .scores
            .iter()
            .map(|s| s.map_or("-".to_string(), |v| v.to_string()))
            .collect();
        format!(
            "{} {} {} {} {} | {}",
            self.rule,
            self.size,
            self.opening,
            result,
            moves.join(" "),
            scores.join(" ")
        )
    }

    /// Reads a line written by [`TuneGame::to_line`].
    ///
    /// # Errors
    /// A message saying what is wrong with the line.
    pub fn from_line(line: &str) -> Result<TuneGame, String> {
        let (head, scores) = line.split_once('|').ok_or("no '|'")?;
        let mut words = head.split_whitespace();
        let mut next = |what: &str| words.next().ok_or(format!("missing {what}"));
        let rule: Rule = next("rule")?.parse().map_err(|e| format!("{e}"))?;
        let size: u8 = next("size")?.parse().map_err(|_| "bad size")?;
        let opening: usize = next("opening")?.parse().map_err(|_| "bad opening")?;
        let winner = match next("result")? {
            "b" => Some(Color::Black),
            "w" => Some(Color::White),
            "d" => None,
            r => return Err(format!("bad result {r:?}")),
        };
        let moves = words
            .map(|w| Point::from_rif(w, size).map_err(|e| format!("{e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let scores = scores
            .split_whitespace()
            .map(|w| {
                if w == "-" {
                    Ok(None)
                } else {
                    w.parse().map(Some).map_err(|_| format!("bad score {w:?}"))
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if scores.len() != moves.len() || opening > moves.len() {
            return Err("scores and moves differ in number".into());
        }
        Ok(TuneGame {
            rule,
            size,
            opening,
            moves,
            scores,
            winner,
        })
    }
}

/// How to generate games.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Rule of every game.
    pub rule: Rule,
    /// Board size.
    pub size: u8,
    /// Number of games.
    pub games: usize,
    /// Search nodes per move.
    pub nodes: u64,
    /// Stones in the random opening: from `opening.0` to `opening.1`.
    pub opening: (usize, usize),
    /// Seed of the openings; game `i` uses `seed + i`.
    pub seed: u64,
    /// Worker threads (the output does not depend on it).
    pub threads: usize,
}

/// A random opening for game `seed`: `n` stones within the central 7×7, alternating colours,
/// legal, and with no five, four or open three on the board for either side.
fn random_opening(rule: Rule, size: u8, n: usize, rng: &mut StdRng) -> Vec<Point> {
    let c = i32::from(size / 2);
    'retry: loop {
        let mut game = Game::new(rule, size).expect("valid size");
        let mut moves = Vec::with_capacity(n);
        while moves.len() < n {
            let p = Point::new(
                (c + rng.gen_range(-3..=3)) as u8,
                (c + rng.gen_range(-3..=3)) as u8,
            );
            if game.check(p).is_ok() {
                game.try_play(p).expect("checked");
                moves.push(p);
            }
        }
        let pos = Position::new(game.board(), rule, game.to_move());
        for side in Color::ALL {
            if pos.count(side, Threat::Five) > 0 || pos.count(side, Threat::Flex4) > 0 {
                continue 'retry;
            }
        }
        return moves;
    }
}

/// Plays one self-play game.
fn play_one(cfg: &GenConfig, index: usize, engine: &mut Engine) -> TuneGame {
    let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_add(index as u64));
    let n = rng.gen_range(cfg.opening.0..=cfg.opening.1);
    let opening = random_opening(cfg.rule, cfg.size, n, &mut rng);
    let mut game = Game::from_moves(cfg.rule, cfg.size, &opening).expect("legal opening");
    let mut scores = vec![None; opening.len()];
    let cancel = AtomicBool::new(false);
    engine.clear();
    let mut winner = None;
    while !game.is_over() {
        let r = engine.search(
            &game,
            Level::Master,
            Limits::nodes(cfg.nodes),
            &cancel,
            index as u64,
        );
        let Some(best) = r.best else { break };
        if game.try_play(best).is_err() {
            break;
        }
        scores.push(Some(r.score));
        if r.score > MATE_BOUND {
            // A proven win: the rest is tactics, not evaluation.
            winner = Some(game.to_move().other());
            break;
        }
    }
    if let Some(res) = game.result() {
        winner = res.winner;
    }
    TuneGame {
        rule: cfg.rule,
        size: cfg.size,
        opening: opening.len(),
        moves: game.moves().to_vec(),
        scores,
        winner,
    }
}

/// Plays `cfg.games` self-play games on `cfg.threads` threads, calling `sink` with each game
/// in order (game 0 first), whatever thread finished it.
pub fn generate(cfg: &GenConfig, mut sink: impl FnMut(&TuneGame) + Send) {
    let next = Mutex::new(0usize);
    let done: Mutex<(usize, std::collections::BTreeMap<usize, TuneGame>)> =
        Mutex::new((0, std::collections::BTreeMap::new()));
    let sink = Mutex::new(&mut sink);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(16);
                engine.set_threads(1);
                loop {
                    let i = {
                        let mut n = next.lock().expect("not poisoned");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    if i >= cfg.games {
                        break;
                    }
                    let g = play_one(cfg, i, &mut engine);
                    let mut d = done.lock().expect("not poisoned");
                    d.1.insert(i, g);
                    // Hand over every game that is next in order.
                    loop {
                        let want = d.0;
                        let Some(g) = d.1.remove(&want) else { break };
                        (sink.lock().expect("not poisoned"))(&g);
                        d.0 += 1;
                    }
                }
            });
        }
    });
}

/// Number of fitted parameters: combination corrections, per-pattern weights, threat masks.
const CELL_PARAMS: usize = 4 * COMBOS;
const PATTERN_PARAMS: usize = 4 * 12;
const THREAT_PARAMS: usize = 2 * MASKS;
const PARAMS: usize = CELL_PARAMS + PATTERN_PARAMS + THREAT_PARAMS;

/// One training position: sparse feature counts and a target in `[0, 1]`.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(feature, count)` pairs of all positions, back to back.
    features: Vec<(u16, u16)>,
    /// Where each position's features start in `features` (one more than positions).
    starts: Vec<u32>,
    /// Target per position.
    targets: Vec<f32>,
}

impl Samples {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn position(&self, k: usize) -> &[(u16, u16)] {
        &self.features[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// Whether the evaluation decides this position (no forced play for either side).
#[must_use]
pub fn is_quiet(pos: &mut Position) -> bool {
    let me = pos.to_move();
    let op = me.other();
    pos.count(me, Threat::Five) == 0
        && pos.count(op, Threat::Five) == 0
        && pos.count(op, Threat::Flex4) == 0
        && pos.count(me, Threat::Flex4) == 0
}

/// Threat-search nodes per side that [`is_open`] is usually given: enough for the VCFs of real
/// games (most searches end in a few hundred nodes), small enough to classify every position
/// of an 800-game match in seconds.
pub const OPEN_VCF_NODES: u64 = 20_000;

/// Attacking moves a VCF of [`is_open`] may have: any length (the node budget bounds it).
const OPEN_VCF_DEPTH: u32 = 255;

/// Whether nothing decides the position yet, so that a player has to think: it is
/// [`is_quiet`] (no five to make or stop, no open four to make or stop) and neither side has
/// a VCF — the side to move as the position stands, the other as if it could move now —
/// within `nodes` threat-search nodes each. A search that runs out of nodes counts as no VCF.
/// (An open four to make is a one-move VCF, and one to stop is the opponent's: so this is "no
/// five to make or stop and no VCF for either side", with [`is_quiet`] as the cheap first test.)
///
/// `threats` may be reused across the positions of a game (its cache only saves work); `pos`
/// is left as it was. `wuzi-arena` measures move times in these *open* positions, where the
/// time management decides how long a move takes.
#[must_use]
pub fn is_open(pos: &mut Position, threats: &mut ThreatSearch, nodes: u64) -> bool {
    if !is_quiet(pos) {
        return false;
    }
    for side in 0..2 {
        if side == 1 {
            pos.flip_side();
        }
        threats.set_budget(nodes);
        let win = threats.vcf(pos, OPEN_VCF_DEPTH).is_some();
        if side == 1 {
            pos.flip_side();
        }
        if win {
            return false;
        }
    }
    true
}

/// The features of a position (see the module docs), accumulated into `out` as
/// `(feature, count)` pairs. Under renju a point forbidden to black holds nothing for black
/// (as in [`wuzi::ai::eval::eval_terms`]).
pub fn features(pos: &mut Position, out: &mut Vec<(u16, u16)>) {
    let me = pos.to_move();
    let mut ids: Vec<u16> = Vec::with_capacity(pos.points().len() * 10 + 1);
    let t = CELL_PARAMS + PATTERN_PARAMS + me.index() * MASKS + eval_terms(pos).mask;
    ids.push(t as u16);
    for k in 0..pos.points().len() {
        let i = pos.points()[k] as usize;
        if !pos.is_empty(i) {
            continue;
        }
        for c in Color::ALL {
            let table = c.index() * 2 + usize::from(c == me);
            let patterns: [Pattern; 4] = if pos.is_legal(c, i) {
                std::array::from_fn(|d| pos.pattern(c, i, d))
            } else {
                [Pattern::Dead; 4]
            };
            ids.push((table * COMBOS + combo_rank(patterns)) as u16);
            for p in patterns {
                ids.push((CELL_PARAMS + table * 12 + p as usize) as u16);
            }
        }
    }
    ids.sort_unstable();
    let start = out.len();
    for id in ids {
        match out[start..].last_mut() {
            Some((f, n)) if *f == id => *n += 1,
            _ => out.push((id, 1)),
        }
    }
}

/// The quiet positions of `games` after their openings, with targets
/// `lambda × result + (1 − lambda) × sigmoid(score / SCALE)` from the side to move's view.
/// Positions whose search found a forced win or loss are skipped.
#[must_use]
pub fn samples(games: &[TuneGame], lambda: f64) -> Samples {
    let mut out = Samples {
        starts: vec![0],
        ..Samples::default()
    };
    for_each_sample(games, lambda, |_, _, pos, target| {
        features(pos, &mut out.features);
        out.starts.push(out.features.len() as u32);
        out.targets.push(target as f32);
    });
    out
}

/// Calls `f(game, ply, position, target)` for every quiet position of `games` after its
/// opening whose search score is not a proven result (see [`samples`]), in order; `ply`
/// moves of game number `game` are on the board.
pub fn for_each_sample(
    games: &[TuneGame],
    lambda: f64,
    mut f: impl FnMut(usize, usize, &mut Position, f64),
) {
    for (k, g) in games.iter().enumerate() {
        let Ok(board) = Board::new(g.size) else {
            continue;
        };
        let mut pos = Position::new(&board, g.rule, Color::Black);
        for (ply, &m) in g.moves.iter().enumerate() {
            if ply >= g.opening {
                if let Some(score) = g.scores[ply] {
                    if score.abs() <= MATE_BOUND && is_quiet(&mut pos) {
                        let me = pos.to_move();
                        let result = match g.winner {
                            Some(w) if w == me => 1.0,
                            Some(_) => 0.0,
                            None => 0.5,
                        };
                        let search = sigmoid(f64::from(score) / SCALE);
                        f(k, ply, &mut pos, lambda * result + (1.0 - lambda) * search);
                    }
                }
            }
            let idx = Board::index_of(m);
            if !pos.is_empty(idx) {
                break;
            }
            pos.play(idx);
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fitting options.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam step size, in evaluation units.
    pub rate: f64,
    /// L2 penalty on combination corrections (per position, per unit²).
    pub l2_combo: f64,
    /// L2 penalty on pattern and threat weights.
    pub l2: f64,
    /// L2 penalty on move-ordering values (per position, per logit²).
    pub l2_policy: f64,
    /// The fitted point values are rounded to 1/`cell_resolution` of an evaluation unit (a
    /// divisor of [`CELL_RESOLUTION`]; 1, whole units, reproduces the shipped tables).
    pub cell_resolution: i32,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            epochs: 400,
            rate: 2.0,
            l2_combo: 1e-6,
            l2: 1e-8,
            l2_policy: 1e-5,
            cell_resolution: 1,
        }
    }
}

/// The evaluation weights `params` stand for.
fn to_weights(params: &[f64], cell_resolution: i32) -> Weights {
    let step = CELL_RESOLUTION / cell_resolution;
    let mut w = Weights::zero();
    for table in 0..4 {
        let (c, s) = (table / 2, table % 2);
        for rank in 0..COMBOS {
            let patterns = wuzi::ai::eval::combo_patterns(rank);
            let mut v = params[table * COMBOS + rank];
            for p in patterns {
                v += params[CELL_PARAMS + table * 12 + p as usize];
            }
            let v = (v * f64::from(cell_resolution)).round() * f64::from(step);
            w.cell[c][s][rank] = v.clamp(-30_000.0, 30_000.0) as i16;
        }
    }
    for c in 0..2 {
        for m in 0..MASKS {
            let v = params[CELL_PARAMS + PATTERN_PARAMS + c * MASKS + m];
            w.threat[c][m] = v.round().clamp(-30_000.0, 30_000.0) as i16;
        }
    }
    w
}

/// The mean cross-entropy of `w` on `data` (for reports; the evaluation is clamped as the
/// engine clamps it).
#[must_use]
pub fn loss(w: &Weights, data: &Samples) -> f64 {
    let mut total = 0.0;
    for k in 0..data.len() {
        let e = eval_of(w, data.position(k));
        let p = sigmoid(e / SCALE).clamp(1e-9, 1.0 - 1e-9);
        let t = f64::from(data.targets[k]);
        total -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
    }
    total / data.len().max(1) as f64
}

/// The evaluation the engine computes for a position with these features.
fn eval_of(w: &Weights, feats: &[(u16, u16)]) -> f64 {
    let (mut cells, mut threats) = (0i32, 0i32);
    for &(f, n) in feats {
        let f = usize::from(f);
        if f < CELL_PARAMS {
            let table = f / COMBOS;
            cells += i32::from(w.cell[table / 2][table % 2][f % COMBOS]) * i32::from(n);
        } else if f >= CELL_PARAMS + PATTERN_PARAMS {
            let t = f - CELL_PARAMS - PATTERN_PARAMS;
            threats += i32::from(w.threat[t / MASKS][t % MASKS]) * i32::from(n);
        }
    }
    f64::from((cell_units(cells) + threats).clamp(-EVAL_LIMIT, EVAL_LIMIT))
}

/// Fits weights to `data` (see the module docs), starting from zero, and reports progress to
/// `log` every 50 steps with the loss.
pub fn fit(data: &Samples, cfg: &FitConfig, mut log: impl FnMut(usize, f64)) -> Weights {
    let n = data.len().max(1) as f64;
    let mut params = vec![0.0f64; PARAMS];
    let mut m = vec![0.0f64; PARAMS];
    let mut v = vec![0.0f64; PARAMS];
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut grad = vec![0.0f64; PARAMS];
    for step in 1..=cfg.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for k in 0..data.len() {
            let feats = data.position(k);
            let mut e = 0.0;
            for &(f, c) in feats {
                e += params[usize::from(f)] * f64::from(c);
            }
            let p = sigmoid(e / SCALE);
            let t = f64::from(data.targets[k]);
            let pc = p.clamp(1e-9, 1.0 - 1e-9);
            total -= t * pc.ln() + (1.0 - t) * (1.0 - pc).ln();
            // d(cross-entropy)/d(eval) = (p - t) / SCALE.
            let g = (p - t) / SCALE;
            for &(f, c) in feats {
                grad[usize::from(f)] += g * f64::from(c);
            }
        }
        for (i, g) in grad.iter_mut().enumerate() {
            *g /= n;
            let l2 = if i < CELL_PARAMS {
                cfg.l2_combo
            } else {
                cfg.l2
            };
            *g += 2.0 * l2 * params[i];
        }
        let (c1, c2) = (
            1.0 - f64::powi(b1, step as i32),
            1.0 - f64::powi(b2, step as i32),
        );
        for i in 0..PARAMS {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            params[i] -= cfg.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if step % 50 == 0 || step == cfg.epochs {
            log(step, total / n);
        }
    }
    to_weights(&params, cfg.cell_resolution)
}

/// Move-ordering training data: for each position, the candidate moves' two table indices
/// (mover's combination, opponent's combination) and which candidate the search played.
#[derive(Clone, Debug, Default)]
pub struct PolicySamples {
    /// `(mover feature, opponent feature)` per candidate, all positions back to back.
    candidates: Vec<(u16, u16)>,
    /// Where each position's candidates start (one more than positions).
    starts: Vec<u32>,
    /// Index of the played move among its position's candidates.
    chosen: Vec<u16>,
}

impl PolicySamples {
    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }
}

/// The policy feature of colour `c`'s combination at `idx`, with `c` moving or waiting.
fn policy_feature(pos: &Position, c: Color, idx: usize, moving: bool) -> u16 {
    let patterns: [Pattern; 4] = std::array::from_fn(|d| pos.pattern(c, idx, d));
    ((c.index() * 2 + usize::from(moving)) * COMBOS + combo_rank(patterns)) as u16
}

/// The searched positions of `games` after their openings, with the candidates the search
/// generates there (the points near stones; only the answers to an open three when the
/// opponent has one; none when a five must be blocked) and the move it chose.
#[must_use]
pub fn policy_samples(games: &[TuneGame]) -> PolicySamples {
    let mut out = PolicySamples {
        starts: vec![0],
        ..PolicySamples::default()
    };
    for g in games {
        let Ok(board) = Board::new(g.size) else {
            continue;
        };
        let mut pos = Position::new(&board, g.rule, Color::Black);
        for (ply, &m) in g.moves.iter().enumerate() {
            let played = Board::index_of(m);
            if !pos.is_empty(played) {
                break;
            }
            let me = pos.to_move();
            let op = me.other();
            let searched = ply >= g.opening && g.scores[ply].is_some();
            if searched && pos.count(op, Threat::Five) == 0 && pos.count(me, Threat::Five) == 0 {
                let defend = pos.count(op, Threat::Flex4) > 0;
                let start = out.candidates.len();
                let mut chosen = None;
                let n = pos.points().len();
                for k in 0..n {
                    let i = pos.points()[k] as usize;
                    if !pos.is_empty(i) || !pos.is_near(i) {
                        continue;
                    }
                    if defend && !pos.threat(me, i).is_four() && pos.threat(op, i) < Threat::Four {
                        continue;
                    }
                    if !pos.is_legal(me, i) {
                        continue;
                    }
                    if i == played {
                        chosen = Some(out.candidates.len() - start);
                    }
                    out.candidates.push((
                        policy_feature(&pos, me, i, true),
                        policy_feature(&pos, op, i, false),
                    ));
                }
                match chosen {
                    Some(c) if out.candidates.len() - start > 1 => {
                        out.chosen.push(c as u16);
                        out.starts.push(out.candidates.len() as u32);
                    }
                    _ => out.candidates.truncate(start),
                }
            }
            pos.play(played);
        }
    }
    out
}

/// The mean cross-entropy and top-1 accuracy of `w`'s move-ordering tables on `data`.
#[must_use]
pub fn policy_loss(w: &Weights, data: &PolicySamples) -> (f64, f64) {
    let value = |f: u16| {
        let f = usize::from(f);
        let table = f / COMBOS;
        f64::from(w.policy[table / 2][table % 2][f % COMBOS]) / 100.0
    };
    let (mut total, mut hits) = (0.0, 0usize);
    for k in 0..data.len() {
        let cands = &data.candidates[data.starts[k] as usize..data.starts[k + 1] as usize];
        let chosen = usize::from(data.chosen[k]);
        let z: Vec<f64> = cands.iter().map(|&(a, b)| value(a) + value(b)).collect();
        let best = z.iter().copied().fold(f64::MIN, f64::max);
        let sum: f64 = z.iter().map(|v| (v - best).exp()).sum();
        total -= z[chosen] - best - sum.ln();
        let arg = (0..z.len()).fold(0, |a, j| if z[j] > z[a] { j } else { a });
        hits += usize::from(arg == chosen);
    }
    let n = data.len().max(1) as f64;
    (total / n, hits as f64 / n)
}

/// Fits the move-ordering tables to `data` by softmax regression (the chance of each
/// candidate is proportional to `exp(score)`, scores in logits), full-batch Adam; stores the
/// scores ×100 into `w.policy`. Reports the mean cross-entropy and the top-1 accuracy every
/// 50 steps.
pub fn fit_policy(
    data: &PolicySamples,
    cfg: &FitConfig,
    w: &mut Weights,
    mut log: impl FnMut(usize, f64, f64),
) {
    const N: usize = 4 * COMBOS;
    let n = data.len().max(1) as f64;
    let mut params = vec![0.0f64; N];
    let (mut m, mut v, mut grad) = (vec![0.0; N], vec![0.0; N], vec![0.0; N]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let rate = cfg.rate / 100.0;
    let mut probs = Vec::new();
    for step in 1..=cfg.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let (mut total, mut hits) = (0.0, 0usize);
        for k in 0..data.len() {
            let cands = &data.candidates[data.starts[k] as usize..data.starts[k + 1] as usize];
            let chosen = usize::from(data.chosen[k]);
            probs.clear();
            let mut best = f64::MIN;
            let mut arg = 0;
            for (j, &(a, b)) in cands.iter().enumerate() {
                let z = params[usize::from(a)] + params[usize::from(b)];
                if z > best {
                    best = z;
                    arg = j;
                }
                probs.push(z);
            }
            hits += usize::from(arg == chosen);
            let sum: f64 = probs.iter().map(|z| (z - best).exp()).sum();
            total -= probs[chosen] - best - sum.ln();
            for (j, &(a, b)) in cands.iter().enumerate() {
                let p = (probs[j] - best).exp() / sum;
                let g = p - if j == chosen { 1.0 } else { 0.0 };
                grad[usize::from(a)] += g;
                grad[usize::from(b)] += g;
            }
        }
        for i in 0..N {
            let g = grad[i] / n + 2.0 * cfg.l2_policy * params[i];
            let (c1, c2) = (
                1.0 - f64::powi(b1, step as i32),
                1.0 - f64::powi(b2, step as i32),
            );
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            params[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if step % 50 == 0 || step == cfg.epochs {
            log(step, total / n, hits as f64 / n);
        }
    }
    for (i, p) in params.iter().enumerate() {
        let table = i / COMBOS;
        w.policy[table / 2][table % 2][i % COMBOS] =
            (p * 100.0).round().clamp(-30_000.0, 30_000.0) as i16;
    }
}

/// The hand-made evaluation the engine started from, as weights: a colour's pattern-sum
/// score of each combination over 8, plus a tempo bonus for the side to move's threats; and
/// the hand-made move order: the pattern-sum score for the mover plus 7/8 of the opponent's.
/// Kept as the reference the fitted tables are compared with.
#[must_use]
pub fn hand_weights(rule: Rule) -> Weights {
    let mut w = Weights::zero();
    for c in Color::ALL {
        let renju_black = rule.has_forbidden(c);
        for rank in 0..COMBOS {
            let patterns = wuzi::ai::eval::combo_patterns(rank);
            let (score, threat, _) = combo_score(patterns, renju_black);
            let tempo = match threat {
                Threat::Three => 8,
                Threat::ThreeThree => 40,
                Threat::Four => 12,
                Threat::FourThree => 60,
                _ => 0,
            };
            w.cell[c.index()][0][rank] = (-score / 8 * CELL_RESOLUTION) as i16;
            w.cell[c.index()][1][rank] = ((score / 8 + tempo) * CELL_RESOLUTION) as i16;
            // Order moves by attack plus most of the defence value.
            w.policy[c.index()][0][rank] = (score * 7 / 8) as i16;
            w.policy[c.index()][1][rank] = score as i16;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_round_trip() {
        let cfg = GenConfig {
            rule: Rule::Renju,
            size: 15,
            games: 2,
            nodes: 300,
            opening: (3, 4),
            seed: 9,
            threads: 2,
        };
        let mut games = Vec::new();
        generate(&cfg, |g| games.push(g.clone()));
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(g.opening >= 3 && g.opening <= 4);
            assert_eq!(TuneGame::from_line(&g.to_line()).as_ref(), Ok(g));
            // Every game is legal under its rule.
            assert!(Game::from_moves(g.rule, g.size, &g.moves).is_ok());
        }
        // The same seed gives the same games, whatever the thread count.
        let mut again = Vec::new();
        generate(&GenConfig { threads: 1, ..cfg }, |g| again.push(g.clone()));
        assert_eq!(games, again);
        assert!(TuneGame::from_line("freestyle 15 0 x | ").is_err());
    }

    #[test]
    fn features_reproduce_the_engine_evaluation() {
        // Renju games reach positions with points forbidden to black, where both sides of
        // the equation drop black's shapes through them; eight renju games, so that some do
        // whichever moves the engine prefers.
        let mut forbidden_seen = 0;
        for rule in [Rule::Freestyle, Rule::Renju] {
            let cfg = GenConfig {
                rule,
                size: 15,
                games: if rule == Rule::Renju { 8 } else { 3 },
                nodes: 500,
                opening: (4, 4),
                seed: 3,
                threads: 1,
            };
            let mut games = Vec::new();
            generate(&cfg, |g| games.push(g.clone()));
            let w = wuzi::ai::eval::weights(rule);
            for g in &games {
                let board = Board::new(g.size).unwrap();
                let mut pos = Position::new(&board, g.rule, Color::Black);
                for &m in &g.moves {
                    let mut f = Vec::new();
                    features(&mut pos, &mut f);
                    let e = wuzi::ai::eval::evaluate(&mut pos);
                    assert_eq!(eval_of(w, &f) as i32, e);
                    forbidden_seen += pos.forbidden_black().points;
                    pos.play(Board::index_of(m));
                }
            }
        }
        assert!(forbidden_seen > 0, "no position had a forbidden point");
    }

    /// A position with `black` and `white` stones at `(x, y)`, `to_move` to play.
    fn position(black: &[(u8, u8)], white: &[(u8, u8)], to_move: Color) -> Position {
        let mut board = Board::new(15).unwrap();
        for (stones, c) in [(black, Color::Black), (white, Color::White)] {
            for &(x, y) in stones {
                board.place(Point::new(x, y), c);
            }
        }
        Position::new(&board, Rule::Freestyle, to_move)
    }

    fn open(pos: &mut Position) -> bool {
        let mut threats = ThreatSearch::new(1024);
        let before = pos.hash();
        let open = is_open(pos, &mut threats, OPEN_VCF_NODES);
        assert_eq!(pos.hash(), before, "is_open changed the position");
        open
    }

    #[test]
    fn open_positions_have_nothing_forced() {
        // A quiet middle game: ten stones, no three or four for either side.
        let black = [(7, 7), (8, 8), (6, 9), (9, 6), (5, 7)];
        let white = [(8, 7), (7, 8), (6, 6), (9, 9), (10, 7)];
        for to_move in Color::ALL {
            assert!(open(&mut position(&black, &white, to_move)), "{to_move}");
        }
        // Black has a four on the board, open or closed (a five to make, or to stop): not
        // open.
        let four = [(3, 7), (4, 7), (5, 7), (6, 7)];
        for white in [&[(3, 8), (4, 8), (5, 9)][..], &[(2, 7), (4, 8), (5, 9)]] {
            for to_move in Color::ALL {
                let mut pos = position(&four, white, to_move);
                assert!(!is_quiet(&mut pos));
                assert!(!open(&mut pos), "{to_move}");
            }
        }
        // Black wins by fours: (6, 7) makes a four on row 7 (white must block (7, 7)) and a
        // three on column 6 that then becomes an open four. Quiet (no five, no open four to
        // make or stop), yet decided whoever is to move: black plays it, or white faces it.
        let black = [(3, 7), (4, 7), (5, 7), (6, 8), (6, 9)];
        let white = [(2, 7), (9, 9), (10, 3)];
        for to_move in Color::ALL {
            let mut pos = position(&black, &white, to_move);
            assert!(is_quiet(&mut pos), "{to_move}");
            assert!(!open(&mut pos), "{to_move}");
        }
        let mut pos = position(&black, &white, Color::Black);
        let mut threats = ThreatSearch::new(1024);
        let win = threats.vcf(&mut pos, OPEN_VCF_DEPTH).unwrap();
        assert_eq!(Board::point_of(win.first as usize), Point::new(6, 7));
    }

    #[test]
    fn fitting_lowers_the_loss() {
        let mut games = Vec::new();
        let cfg = GenConfig {
            rule: Rule::Freestyle,
            size: 15,
            games: 6,
            nodes: 300,
            opening: (3, 5),
            seed: 1,
            threads: 2,
        };
        generate(&cfg, |g| games.push(g.clone()));
        let data = samples(&games, 0.0);
        assert!(!data.is_empty());
        let fitted = fit(
            &data,
            &FitConfig {
                epochs: 200,
                ..FitConfig::default()
            },
            |_, _| {},
        );
        let zero = Weights::zero();
        assert!(loss(&fitted, &data) < loss(&zero, &data));
        // The same fit kept to 1/16 unit: whole units are its rounding, at most half a unit
        // (8/16) away, and the finer values are not all whole.
        let fine = fit(
            &data,
            &FitConfig {
                epochs: 200,
                cell_resolution: 16,
                ..FitConfig::default()
            },
            |_, _| {},
        );
        let (mut whole, mut finer) = (true, false);
        for (t_coarse, t_fine) in fitted.cell.iter().flatten().zip(fine.cell.iter().flatten()) {
            for (&c, &f) in t_coarse.iter().zip(t_fine) {
                whole &= i32::from(c) % CELL_RESOLUTION == 0;
                finer |= i32::from(f) % CELL_RESOLUTION != 0;
                assert!((i32::from(c) - i32::from(f)).abs() <= CELL_RESOLUTION / 2);
            }
        }
        assert!(whole && finer);
        assert_eq!(fine.threat, fitted.threat);
    }
}
