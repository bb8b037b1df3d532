//! Beginner, the level that does not search.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::ai::position::{Position, Threat};
use crate::ai::search::ThreadResult;
use crate::{Board, Point};

/// Beginner: one ply of pattern scoring with heavy randomness. It always takes a five, blocks
/// a five, and stops an open four from being made; everything subtler is left to chance.
pub(super) fn beginner(pos: &mut Position, seed: u64) -> ThreadResult {
    let mut rng = StdRng::seed_from_u64(seed ^ pos.hash());
    let me = pos.to_move();
    let op = me.other();
    let pick = |pos: &mut Position, i: usize| ThreadResult {
        best: Some(i),
        score: crate::ai::eval::evaluate(pos),
        depth: 1,
        nodes: 1,
        pv: vec![i],
        by_fours: false,
    };
    if let Some(f) = pos.find(me, Threat::Five) {
        return pick(pos, f);
    }
    let mut cands: Vec<usize> = pos
        .points()
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| pos.is_empty(i) && pos.is_near(i))
        .collect();
    if let Some(b) = pos.find(op, Threat::Five) {
        cands = vec![b];
    } else if pos.count(me, Threat::Flex4) == 0 && pos.count(op, Threat::Flex4) > 0 {
        let blocks: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| pos.threat(op, i) == Threat::Flex4)
            .collect();
        if !blocks.is_empty() {
            cands = blocks;
        }
    }
    cands.retain(|&i| pos.is_legal(me, i));
    if cands.is_empty() {
        let centre = Board::index_of(Point::center(pos.board().size()));
        let any = std::iter::once(centre)
            .chain(pos.points().iter().map(|&i| i as usize))
            .find(|&i| pos.is_empty(i));
        let Some(any) = any.filter(|&i| pos.is_legal(me, i)).or_else(|| {
            let n = pos.points().len();
            (0..n).find_map(|k| {
                let i = pos.points()[k] as usize;
                (pos.is_empty(i) && pos.is_legal(me, i)).then_some(i)
            })
        }) else {
            return ThreadResult::default();
        };
        return pick(pos, any);
    }
    // Rank by a noisy one-ply score, then pick uniformly among the best few: good moves are
    // likely, the best one is not guaranteed, and nothing beyond one ply is seen.
    let mut scored: Vec<(i32, usize)> = cands
        .iter()
        .map(|&i| {
            let s = pos.cell_score(me, i) + pos.cell_score(op, i) / 2;
            (s * rng.gen_range(30..=100) / 100 + rng.gen_range(0..30), i)
        })
        .collect();
    scored.sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
    let best = scored[rng.gen_range(0..scored.len().min(4))].1;
    pick(pos, best)
}
