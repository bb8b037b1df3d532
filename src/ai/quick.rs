//! A legal move without a search: the fallback when a search fails or runs out of time.

use crate::{forbidden_at, win_at, Board, Color, Game, Point};

/// A legal move for the side to move found without searching: a five if there is one, else a
/// block of the opponent's five, else the empty point with the most stones close by (the
/// centre on an empty board). Never an occupied point, a point in `avoid`, or a point
/// forbidden for black under renju. `None` when no legal move exists.
///
/// The Gomocup driver answers this move when the search fails or overruns its budget.
#[must_use]
pub fn quick_move(game: &Game, avoid: &[Point]) -> Option<Point> {
    let me = game.to_move();
    let rule = game.rule();
    let size = game.size();
    let mut board = game.board().clone();
    let empties: Vec<Point> = Point::all(size)
        .filter(|&p| board.is_empty_at(p) && !avoid.contains(&p))
        .collect();
    let legal =
        |p: Point| !rule.has_forbidden(me) || forbidden_at(&mut game.board().clone(), p).is_none();
    let wins_for = |board: &mut Board, p: Point, c: Color| {
        board.place(p, c);
        let win = win_at(board, p, rule).is_some_and(|w| w.color == c);
        board.remove(p);
        win
    };
    for c in [me, me.other()] {
        let hits: Vec<Point> = empties
            .iter()
            .copied()
            .filter(|&p| wins_for(&mut board, p, c))
            .collect();
        if let Some(&p) = hits.iter().find(|&&p| legal(p)) {
            return Some(p);
        }
    }
    let centre = Point::center(size);
    let score = |p: Point| -> i64 {
        let mut s = 0i64;
        for dy in -2i32..=2 {
            for dx in -2i32..=2 {
                let (x, y) = (i32::from(p.x()) + dx, i32::from(p.y()) + dy);
                if (dx, dy) == (0, 0) || x < 0 || y < 0 {
                    continue;
                }
                let q = Point::new(x as u8, y as u8);
                if game.board().get(q).is_some() {
                    s += if dx.abs() <= 1 && dy.abs() <= 1 { 4 } else { 1 };
                }
            }
        }
        let d = i64::from(p.x().abs_diff(centre.x()).max(p.y().abs_diff(centre.y())));
        s * 100 - d
    };
    let mut ranked = empties;
    ranked.sort_by_key(|&p| std::cmp::Reverse(score(p)));
    ranked.into_iter().find(|&p| legal(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::pt;
    use crate::{Forbidden, Rule};

    fn interleave(black: &[Point], white: &[Point]) -> Vec<Point> {
        let mut out = Vec::with_capacity(black.len() + white.len());
        for i in 0..black.len().max(white.len()) {
            out.extend(black.get(i));
            out.extend(white.get(i));
        }
        out
    }

    #[test]
    fn quick_move_wins_then_blocks() {
        // Black h8..k8 (four) and white h9..k9 (four), black to move: black must win.
        let mut g = Game::new(Rule::Freestyle, 15).unwrap();
        for m in ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9"] {
            g.try_play(pt(m)).unwrap();
        }
        let p = quick_move(&g, &[]).unwrap();
        assert!(p == pt("g8") || p == pt("l8"), "{}", p.rif(15));
        // Black only has three: it must block white's four.
        g.undo();
        g.undo();
        g.try_play(pt("a1")).unwrap();
        g.try_play(pt("k9")).unwrap();
        let p = quick_move(&g, &[]).unwrap();
        assert!(p == pt("g9") || p == pt("l9"), "{}", p.rif(15));
        // Unless that point is off limits.
        let p = quick_move(&g, &[pt("g9"), pt("l9")]).unwrap();
        assert!(g.board().is_empty_at(p) && p != pt("g9") && p != pt("l9"));
    }

    #[test]
    fn quick_move_never_plays_a_forbidden_block() {
        // White's only five point h8 is a double-three for black (f8 g8 h8 and f6 g7 h8):
        // black may not block there, so it must play something else.
        let black = ["f8", "g8", "f6", "g7", "h13"];
        let white = ["h9", "h10", "h11", "h12", "a1"];
        let moves: Vec<Point> = interleave(&black.map(pt), &white.map(pt));
        let g = Game::from_moves(Rule::Renju, 15, &moves).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(
            forbidden_at(&mut g.board().clone(), pt("h8")),
            Some(Forbidden::DoubleThree)
        );
        let p = quick_move(&g, &[]).unwrap();
        assert_ne!(p, pt("h8"));
        assert!(g.board().is_empty_at(p));
        // Under freestyle the same block is fine and is chosen.
        let g = Game::from_moves(Rule::Freestyle, 15, &moves).unwrap();
        assert_eq!(quick_move(&g, &[]), Some(pt("h8")));
    }

    #[test]
    fn quick_move_is_always_legal_in_random_renju_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..40 {
            let mut g = Game::new(Rule::Renju, 15).unwrap();
            for _ in 0..rng.gen_range(0..60) {
                if g.is_over() {
                    break;
                }
                let p = Point::new(rng.gen_range(3..12), rng.gen_range(3..12));
                let _ = g.try_play(p);
            }
            if g.is_over() {
                continue;
            }
            let p = quick_move(&g, &[]).unwrap();
            assert_eq!(g.check(p), Ok(()), "{}", p.rif(15));
        }
    }

    #[test]
    fn no_free_point_means_no_quick_move() {
        // Every point off limits is the same to quick_move as a full board.
        let g = Game::new(Rule::Freestyle, 5).unwrap();
        let all: Vec<Point> = Point::all(5).collect();
        assert_eq!(quick_move(&g, &all), None);
        assert_eq!(quick_move(&g, &all[1..]), Some(all[0]));
    }
}
