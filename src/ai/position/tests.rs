use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_walk(rule: Rule, size: u8, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let board = Board::new(size).unwrap();
    let mut pos = Position::new(&board, rule, Color::Black);
    let empty = pos.clone();
    let mut snapshots = vec![];
    for _ in 0..(usize::from(size) * usize::from(size) * 2 / 3) {
        let empties: Vec<usize> = pos
            .points()
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| pos.is_empty(i))
            .collect();
        if empties.is_empty() {
            break;
        }
        // Cluster the stones so that real shapes appear.
        let near: Vec<usize> = empties
            .iter()
            .copied()
            .filter(|&i| pos.is_near(i))
            .collect();
        let pick = if !near.is_empty() && rng.gen_bool(0.9) {
            near[rng.gen_range(0..near.len())]
        } else {
            empties[rng.gen_range(0..empties.len())]
        };
        snapshots.push(pos.clone());
        let hash_after = pos.hash_after(pick);
        pos.play(pick);
        assert_eq!(pos.hash(), hash_after, "hash_after({pick})");
        let scratch = Position::new(pos.board(), rule, pos.to_move());
        assert!(pos == scratch, "incremental != scratch after {pick}");
    }
    while let Some(snap) = snapshots.pop() {
        pos.undo();
        assert!(pos == snap, "undo did not restore");
        let scratch = Position::new(pos.board(), rule, pos.to_move());
        assert!(pos == scratch);
    }
    assert!(pos == empty);
}

#[test]
fn incremental_equals_scratch() {
    for (k, rule) in Rule::ALL.into_iter().enumerate() {
        for size in [5u8, 9, 15, 20] {
            random_walk(rule, size, 17 + k as u64 * 31 + u64::from(size));
        }
    }
}

#[test]
fn five_and_four_counts() {
    let mut b = Board::new(15).unwrap();
    for x in 3..7 {
        b.place(Point::new(x, 7), Color::Black);
    }
    let pos = Position::new(&b, Rule::Freestyle, Color::Black);
    // Open four: two five points.
    assert_eq!(pos.count(Color::Black, Threat::Five), 2);
    assert_eq!(pos.count(Color::White, Threat::Five), 0);
    let f = pos.find(Color::Black, Threat::Five).unwrap();
    assert_eq!(Board::point_of(f), Point::new(2, 7));
}
