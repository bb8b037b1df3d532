//! The learned evaluation's incremental state ([`wuzi::ai::net`]) seen from outside: after any
//! sequence of moves, undos and threat searches a position's network value is, bit for bit,
//! that of the same stones set up from scratch.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wuzi::ai::eval::eval_terms_marking;
use wuzi::ai::net::{Net, NetWeights, CELL_WORDS};
use wuzi::ai::position::Position;
use wuzi::ai::threat::ThreatSearch;
use wuzi::{Board, Color, Rule};

/// A network with every value drawn at random, leaked for the positions that hold it.
fn random_net(seed: u64) -> &'static Net {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = NetWeights::zeros();
    for part in w.parts_mut() {
        for v in part.iter_mut() {
            *v = rng.gen_range(-0.5..0.5);
        }
    }
    Box::leak(Box::new(Net::new(&w)))
}

/// The network's logit for `pos`.
fn value(pos: &mut Position) -> f32 {
    let mut dead = [0; CELL_WORDS];
    let terms = eval_terms_marking(pos, &mut dead);
    pos.net_value(terms.mask, &dead).expect("a network").0
}

#[test]
fn the_incremental_value_is_the_value_from_scratch() {
    let net = random_net(7);
    let mut rng = StdRng::seed_from_u64(11);
    for rule in [Rule::Freestyle, Rule::Renju] {
        for size in [13u8, 15, 19] {
            let board = Board::new(size).unwrap();
            let mut pos = Position::new(&board, rule, Color::Black);
            pos.use_net(net);
            let mut dead_seen = 0;
            for step in 0..160 {
                let empty: Vec<usize> = pos
                    .points()
                    .iter()
                    .map(|&i| usize::from(i))
                    .filter(|&i| pos.is_empty(i))
                    .collect();
                if !pos.history().is_empty() && (empty.is_empty() || rng.gen_bool(0.3)) {
                    pos.undo();
                } else {
                    pos.play(empty[rng.gen_range(0..empty.len())]);
                }
                if step % 3 != 0 {
                    continue;
                }
                if step % 2 == 0 {
                    // A threat search leaves the position, and the network's state, as they
                    // were.
                    let mut threats = ThreatSearch::new(1 << 10);
                    threats.set_budget(300);
                    let _ = threats.vct(&mut pos, 3, 6);
                }
                dead_seen += pos.forbidden_black().points;
                let got = value(&mut pos);
                let mut fresh = Position::new(pos.board(), rule, pos.to_move());
                fresh.use_net(net);
                assert_eq!(
                    got.to_bits(),
                    value(&mut fresh).to_bits(),
                    "{rule} {size} step {step}"
                );
            }
            if rule == Rule::Renju && size == 15 {
                assert!(dead_seen > 0, "no forbidden point was evaluated");
            }
        }
    }
}
