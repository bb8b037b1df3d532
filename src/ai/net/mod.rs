//! A small learned evaluation (an experiment: used only when a network file is installed
//! for the rule, `pbrain-wuzi --net RULE=FILE`; trained by `wuzi-tools train-net`).
//!
//! For every empty point, each of the four lines through it and each colour, the
//! [`Position`](crate::ai::position::Position) keeps the base-3 key of the point's ten
//! neighbours on that line as that colour sees them (empty, own, blocked). The network reads
//! the eight nearest (four on each side) as one of [`CODES`] *line codes*; a window and its
//! mirror image are the same code, so a shape counts the same from either end. For the side
//! to move `p`, a point's accumulator has [`ACC`] lanes:
//!
//! ```text
//! a(point) = bias[p] + Σ_lines (E[p][black][code_black] + E[p][white][code_white])
//! ```
//!
//! Under renju, a point forbidden to black has `dead[p]` in place of black's four terms (a
//! shape black can only complete there is dead, as in the tables). The network sums the
//! clipped accumulators over the empty points, `x = Σ clamp(a, 0, 1) / POOL`, and one hidden
//! layer reads `x` and the threat mask ([`crate::ai::eval::threat_mask`]):
//!
//! ```text
//! v = w2[p] · clamp(W1[p] x + M[p][mask] + b1[p], 0, 1) + b2[p]
//! ```
//!
//! a logit of the side to move's result; the evaluation is `v × SCALE`
//! ([`crate::ai::eval::SCALE`]). The point lanes are integers ([`QA`] to a unit), so the sum
//! over the points is exact under any order of moves and undos: a move marks the points whose
//! windows it changed, and the side to move's accumulators are brought up to date when the
//! evaluation asks (the threat searches, which never evaluate, pay only for the marks).
//!
//! A network file holds every value as a little-endian `f32` after a header (see
//! [`Net::from_bytes`]); the engine rounds the point lanes to integers when it reads one.

use std::sync::OnceLock;

mod accumulators;

pub(crate) use accumulators::Accumulators;

use crate::ai::pattern::weight;
use crate::ai::weights::{rule_slot, MASKS};
use crate::{Rule, CELLS};

/// Lanes of a point's accumulator.
pub const ACC: usize = 16;
/// Width of the hidden layer.
pub const HEAD: usize = 32;
/// Line codes: the 3⁸ windows of four neighbours a side, a window and its mirror image as one.
pub const CODES: usize = 3321;
/// Accumulator units per 1.0.
pub const QA: i32 = 256;
/// The pooled sum is divided by this before the hidden layer.
pub const POOL: f32 = 32.0;

/// Words of a one-bit-per-cell set over the padded cells: the network's dirty marks, and
/// black's forbidden points for [`Position::net_value`](crate::ai::position::Position::net_value).
pub const CELL_WORDS: usize = CELLS.div_ceil(64);

/// The file header's first eight bytes.
const MAGIC: &[u8; 8] = b"WUZINET1";

/// The offsets of the eight neighbours a line code reads, in digit order.
const WINDOW: [i32; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

/// The line code of a ten-neighbour pattern key (see the module docs).
#[inline]
#[must_use]
pub fn line_code(key: u16) -> usize {
    usize::from(code_table()[usize::from(key)])
}

fn code_table() -> &'static [u16] {
    static TABLE: OnceLock<Box<[u16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut dense = vec![u16::MAX; 6561];
        let mut next = 0u16;
        let mirror = |k: usize| {
            let mut m = 0;
            let mut k = k;
            for _ in 0..8 {
                m = m * 3 + k % 3;
                k /= 3;
            }
            m
        };
        for k in 0..6561 {
            let c = k.min(mirror(k));
            if dense[c] == u16::MAX {
                dense[c] = next;
                next += 1;
            }
        }
        assert_eq!(usize::from(next), CODES);
        (0..59_049usize)
            .map(|key| {
                let mut k8 = 0;
                for &off in WINDOW.iter().rev() {
                    k8 = k8 * 3 + key / usize::from(weight(off)) % 3;
                }
                dense[k8.min(mirror(k8))]
            })
            .collect()
    })
}

/// Why a network file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetError(pub String);

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// The network's values as `f32`, in the order of the file (the trainer's view of it).
/// Indices: `emb[((p * 2 + colour) * CODES + code) * ACC + lane]`, `bias`/`dead[p * ACC +
/// lane]`, `w1[(p * HEAD + h) * ACC + lane]`, `mask[(p * MASKS + mask) * HEAD + h]`,
/// `b1`/`w2[p * HEAD + h]`, `b2[p]`, where `p` and `colour` are [`crate::Color::index`].
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// Line-code embeddings.
    pub emb: Vec<f32>,
    /// Accumulator bias.
    pub bias: Vec<f32>,
    /// Black's four line terms at a point forbidden to black (renju).
    pub dead: Vec<f32>,
    /// Hidden layer weights.
    pub w1: Vec<f32>,
    /// Hidden layer input per threat mask.
    pub mask: Vec<f32>,
    /// Hidden layer bias.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: Vec<f32>,
    /// Whether the output is added to the tables' evaluation (a correction of it) instead
    /// of being the whole evaluation.
    pub residual: bool,
}

impl NetWeights {
    /// All zeros, the right sizes.
    #[must_use]
    pub fn zeros() -> NetWeights {
        NetWeights {
            emb: vec![0.0; 4 * CODES * ACC],
            bias: vec![0.0; 2 * ACC],
            dead: vec![0.0; 2 * ACC],
            w1: vec![0.0; 2 * HEAD * ACC],
            mask: vec![0.0; 2 * MASKS * HEAD],
            b1: vec![0.0; 2 * HEAD],
            w2: vec![0.0; 2 * HEAD],
            b2: vec![0.0; 2],
            residual: false,
        }
    }

    /// The eight parts, mutable, in the file's order.
    pub fn parts_mut(&mut self) -> [&mut Vec<f32>; 8] {
        [
            &mut self.emb,
            &mut self.bias,
            &mut self.dead,
            &mut self.w1,
            &mut self.mask,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
        ]
    }

    fn parts(&self) -> [&Vec<f32>; 8] {
        [
            &self.emb, &self.bias, &self.dead, &self.w1, &self.mask, &self.b1, &self.w2, &self.b2,
        ]
    }

    /// The file's bytes: the header (`WUZINET1`, then `ACC`, `HEAD`, `CODES`, `MASKS` and
    /// the kind, 0 for a whole evaluation and 1 for a correction of the tables, as
    /// little-endian `u32`) and every value as a little-endian `f32`.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [ACC, HEAD, CODES, MASKS, usize::from(self.residual)] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for part in self.parts() {
            for v in part {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Reads what [`NetWeights::to_bytes`] wrote.
    ///
    /// # Errors
    /// A wrong header or size, or a value that is not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetWeights, NetError> {
        let header = MAGIC.len() + 20;
        if bytes.len() < header || &bytes[..8] != MAGIC {
            return Err(NetError("not a Wuzi network file".into()));
        }
        let dims: Vec<u32> = bytes[8..header]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if dims[..4] != [ACC, HEAD, CODES, MASKS].map(|n| n as u32) {
            return Err(NetError(format!(
                "network shape {:?}, this engine reads {:?}",
                &dims[..4],
                [ACC, HEAD, CODES, MASKS]
            )));
        }
        if dims[4] > 1 {
            return Err(NetError(format!("unknown network kind {}", dims[4])));
        }
        let mut w = NetWeights::zeros();
        w.residual = dims[4] == 1;
        let total: usize = w.parts().iter().map(|p| p.len()).sum();
        if bytes.len() != header + 4 * total {
            return Err(NetError(format!(
                "{} bytes, a network of this shape has {}",
                bytes.len(),
                header + 4 * total
            )));
        }
        let mut values = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        for part in w.parts_mut() {
            for v in part.iter_mut() {
                *v = values.next().expect("length checked");
                if !v.is_finite() {
                    return Err(NetError("a value is not finite".into()));
                }
            }
        }
        Ok(w)
    }
}

/// A network ready for the search: the point lanes rounded to integers.
#[derive(Clone, Debug)]
pub struct Net {
    emb: Box<[[i16; ACC]]>,
    bias: [[i16; ACC]; 2],
    dead: [[i16; ACC]; 2],
    /// `w1[p][lane][h]` (transposed from the file, so the hidden units add up in lanes).
    w1: Box<[[[f32; HEAD]; ACC]; 2]>,
    mask: Box<[[f32; HEAD]]>,
    b1: [[f32; HEAD]; 2],
    w2: [[f32; HEAD]; 2],
    b2: [f32; 2],
    residual: bool,
}

/// The largest point-lane value: nine terms of it still fit an `i16`.
const LANE_MAX: f32 = 3_600.0;

fn lanes(v: &[f32]) -> [i16; ACC] {
    std::array::from_fn(|l| (v[l] * QA as f32).round().clamp(-LANE_MAX, LANE_MAX) as i16)
}

impl Net {
    /// Rounds `w`'s point lanes to integers.
    #[must_use]
    pub fn new(w: &NetWeights) -> Net {
        let head =
            |v: &[f32], p: usize| -> [f32; HEAD] { std::array::from_fn(|h| v[p * HEAD + h]) };
        Net {
            emb: w.emb.chunks_exact(ACC).map(lanes).collect(),
            bias: [0, 1].map(|p| lanes(&w.bias[p * ACC..])),
            dead: [0, 1].map(|p| lanes(&w.dead[p * ACC..])),
            w1: Box::new([0, 1].map(|p| {
                std::array::from_fn(|l| std::array::from_fn(|h| w.w1[(p * HEAD + h) * ACC + l]))
            })),
            mask: w.mask.chunks_exact(HEAD).map(|c| head(c, 0)).collect(),
            b1: [0, 1].map(|p| head(&w.b1, p)),
            w2: [0, 1].map(|p| head(&w.w2, p)),
            b2: [w.b2[0], w.b2[1]],
            residual: w.residual,
        }
    }

    /// Whether the network corrects the tables' evaluation rather than replacing it.
    #[must_use]
    pub fn residual(&self) -> bool {
        self.residual
    }

    /// Reads a network file (see [`NetWeights::to_bytes`]).
    ///
    /// # Errors
    /// See [`NetWeights::from_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        NetWeights::from_bytes(bytes).map(|w| Net::new(&w))
    }

    #[inline]
    fn emb(&self, p: usize, colour: usize, key: u16) -> &[i16; ACC] {
        self.emb_code(p, colour, line_code(key) as u16)
    }

    #[inline]
    fn emb_code(&self, p: usize, colour: usize, code: u16) -> &[i16; ACC] {
        &self.emb[(p * 2 + colour) * CODES + usize::from(code)]
    }

    /// The output logit from the pooled lanes, for side to move `p` and threat mask `mask`.
    fn head(&self, p: usize, pooled: &[i32; ACC], mask: usize) -> f32 {
        let scale = 1.0 / (QA as f32 * POOL);
        let x: [f32; ACC] = std::array::from_fn(|l| pooled[l] as f32 * scale);
        let m = &self.mask[p * MASKS + mask];
        let mut out = self.b2[p];
        let mut z: [f32; HEAD] = std::array::from_fn(|h| self.b1[p][h] + m[h]);
        for (column, &x) in self.w1[p].iter().zip(&x) {
            for (z, &w) in z.iter_mut().zip(column) {
                *z += w * x;
            }
        }
        for (z, &w) in z.iter().zip(&self.w2[p]) {
            out += w * z.clamp(0.0, 1.0);
        }
        out
    }
}

static NETS: [OnceLock<Net>; 3] = [const { OnceLock::new() }; 3];

/// The network installed for `rule`, if any.
#[must_use]
pub fn net(rule: Rule) -> Option<&'static Net> {
    NETS[rule_slot(rule)].get()
}

/// Evaluates `rule` with `net` from now on (positions built before keep what they had).
///
/// # Errors
/// When a network is already installed for the rule.
pub fn install_net(rule: Rule, net: Net) -> Result<(), NetError> {
    NETS[rule_slot(rule)]
        .set(net)
        .map_err(|_| NetError(format!("a {rule} network is already in use")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_codes_fold_mirror_images() {
        let key = |digits: [u16; 10]| -> u16 {
            [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]
                .iter()
                .zip(digits)
                .map(|(&off, d)| d * weight(off))
                .sum()
        };
        // A window and its mirror image read the same code; the outer neighbours do not
        // count; another shape differs.
        let digits = [0, 1, 0, 2, 2, 1, 2, 0, 0, 0];
        let mut reversed = digits;
        reversed.reverse();
        let a = key(digits);
        assert_ne!(a, key(reversed));
        assert_eq!(line_code(a), line_code(key(reversed)));
        assert_eq!(line_code(a), line_code(key([2, 1, 0, 2, 2, 1, 2, 0, 0, 1])));
        assert_ne!(line_code(a), line_code(key([0, 1, 0, 2, 2, 2, 1, 0, 0, 0])));
        let all: std::collections::HashSet<usize> = (0..59_049u16).map(line_code).collect();
        assert_eq!(all.len(), CODES);
    }

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let mut w = NetWeights::zeros();
        w.emb[5] = 0.25;
        w.b2[1] = -1.5;
        let bytes = w.to_bytes();
        assert_eq!(NetWeights::from_bytes(&bytes), Ok(w));
        assert!(NetWeights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(NetWeights::from_bytes(b"WUZINET0").is_err());
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(NetWeights::from_bytes(&nan).is_err());
        let mut shape = bytes;
        shape[8] = 7;
        assert!(Net::from_bytes(&shape).is_err());
    }
}
