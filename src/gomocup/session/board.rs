//! The game on the board: `START`, `BEGIN`, `TURN`, `BOARD` and `TAKEBACK`.

use std::time::Duration;

use super::{BrainSession, Reply, Response};
use crate::gomocup::command::{BoardLine, Coord, Field};
use crate::{Game, Point, MAX_SIZE, MIN_SIZE};

impl BrainSession {
    pub(super) fn start(&mut self, n: u32) -> Response {
        self.deferred_total = 0;
        let size = match u8::try_from(n) {
            Ok(s) if (MIN_SIZE..=MAX_SIZE).contains(&s) => s,
            _ => {
                return self.answer(Reply::Error(format!(
                    "unsupported board size {n} (use {MIN_SIZE} to {MAX_SIZE})"
                )))
            }
        };
        match Game::new(self.rule, size) {
            Ok(g) => {
                self.game = Some(g);
                self.markers.clear();
                self.used = Duration::ZERO;
                self.answer(Reply::Ok)
            }
            Err(e) => self.answer(Reply::Error(e.to_string())),
        }
    }

    pub(super) fn point(&self, c: Coord) -> Result<Point, String> {
        let size = self.game.as_ref().map_or(0, Game::size);
        match (u8::try_from(c.x), u8::try_from(c.y)) {
            (Ok(x), Ok(y)) if x < size && y < size => Ok(Point::new(x, y)),
            _ => Err(format!("{c} is off the {size}x{size} board")),
        }
    }

    pub(super) fn begin(&mut self) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        if !g.moves().is_empty() || !self.markers.is_empty() {
            return self.answer(Reply::Error("BEGIN on a board that is not empty".into()));
        }
        self.think_move()
    }

    pub(super) fn turn(&mut self, c: Coord) -> Response {
        if self.game.is_none() {
            return self.no_game();
        }
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.answer(Reply::Error(format!("TURN {e}"))),
        };
        if self.markers.contains(&p) {
            return self.answer(Reply::Error(format!("TURN {c}: the point is blocked")));
        }
        let game = self.game.as_mut().expect("checked above");
        if let Err(e) = game.try_play(p) {
            return self.answer(Reply::Error(format!("TURN {c}: {e}")));
        }
        self.think_move()
    }

    pub(super) fn board(&mut self, lines: &[BoardLine]) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        let (rule, size) = (g.rule(), g.size());
        let mut own = Vec::new();
        let mut opponent = Vec::new();
        let mut markers = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for line in lines {
            let p = match self.point(line.at) {
                Ok(p) => p,
                Err(e) => return self.answer(Reply::Error(format!("BOARD {e}"))),
            };
            if !seen.insert(p) {
                return self.answer(Reply::Error(format!(
                    "BOARD {}: the point is given twice",
                    line.at
                )));
            }
            match line.field {
                Field::Own => own.push(p),
                Field::Opponent => opponent.push(p),
                Field::Marker => markers.push(p),
            }
        }
        // The brain is to move, so it is black exactly when both sides have as many stones.
        let (black, white) = if own.len() == opponent.len() {
            (own, opponent)
        } else if opponent.len() == own.len() + 1 {
            (opponent, own)
        } else {
            return self.answer(Reply::Error(format!(
                "BOARD with {} own and {} opponent stones: the brain cannot be the side to move",
                own.len(),
                opponent.len()
            )));
        };
        // Each side's stones keep the order they were sent in (renju managers send the
        // moves in order; gomoku ones may not, and then any alternation gives the position).
        let moves = interleave(&black, &white);
        match Game::from_moves(rule, size, &moves) {
            Ok(g) => {
                self.game = Some(g);
                self.markers = markers;
                self.think_move()
            }
            Err(e) => self.answer(Reply::Error(format!("BOARD is not a legal position: {e}"))),
        }
    }

    pub(super) fn takeback(&mut self, c: Coord) -> Response {
        let Some(g) = &self.game else {
            return self.no_game();
        };
        let p = match self.point(c) {
            Ok(p) => p,
            Err(e) => return self.answer(Reply::Error(format!("TAKEBACK {e}"))),
        };
        if let Some(i) = self.markers.iter().position(|&m| m == p) {
            self.markers.remove(i);
            return self.answer(Reply::Ok);
        }
        let Some(i) = g.moves().iter().position(|&m| m == p) else {
            return self.answer(Reply::Error(format!("TAKEBACK {c}: no stone there")));
        };
        if i + 1 == g.moves().len() {
            self.game.as_mut().expect("checked above").undo();
            return self.answer(Reply::Ok);
        }
        // Not the last move (a gomoku BOARD may have listed stones in any order): remove the
        // stone from its side and rebuild, which works whenever the counts still alternate.
        let (mut black, mut white): (Vec<Point>, Vec<Point>) = (Vec::new(), Vec::new());
        for (j, &m) in g.moves().iter().enumerate() {
            if j != i {
                if j % 2 == 0 {
                    black.push(m);
                } else {
                    white.push(m);
                }
            }
        }
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return self.answer(Reply::Error(format!(
                "TAKEBACK {c}: not the last move, and removing it leaves the sides unbalanced"
            )));
        }
        match Game::from_moves(g.rule(), g.size(), &interleave(&black, &white)) {
            Ok(ng) => {
                self.game = Some(ng);
                self.answer(Reply::Ok)
            }
            Err(e) => self.answer(Reply::Error(format!("TAKEBACK {c}: {e}"))),
        }
    }
}

fn interleave(black: &[Point], white: &[Point]) -> Vec<Point> {
    let mut out = Vec::with_capacity(black.len() + white.len());
    for i in 0..black.len().max(white.len()) {
        out.extend(black.get(i));
        out.extend(white.get(i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use crate::Color;

    #[test]
    fn start_checks_the_size() {
        let mut s = BrainSession::new();
        assert!(error(&run(&mut s, &["START 99"])).contains("99"));
        assert!(error(&run(&mut s, &["START 4"])).contains("unsupported"));
        assert!(error(&run(&mut s, &["RESTART"])).contains("START"));
        assert!(error(&run(&mut s, &["BEGIN"])).contains("START"));
        assert_eq!(run(&mut s, &["START 20"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().size(), 20);
        assert_eq!(run(&mut s, &["RESTART"]).replies, vec![Reply::Ok]);
        assert!(error(&run(&mut s, &["RECTSTART 20,10"])).contains("rectangular"));
    }

    #[test]
    fn turn_errors_leave_the_game_alone() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        assert!(error(&run(&mut s, &["TURN 7,7"])).contains("occupied"));
        assert!(error(&run(&mut s, &["TURN 8,8"])).contains("occupied"));
        assert!(error(&run(&mut s, &["TURN 15,0"])).contains("off the 15x15"));
        assert!(error(&run(&mut s, &["TURN 4294967295,4294967295"])).contains("off"));
        assert!(error(&run(&mut s, &["TURN 1;2"])).contains("TURN"));
        assert_eq!(s.game().unwrap().moves().len(), 2);
        // And the brain keeps working.
        request(run(&mut s, &["TURN 0,0"]));
    }

    #[test]
    fn board_decides_the_colour() {
        let mut s = started();
        // Two each: the brain is black.
        let req = request(run(
            &mut s,
            &["BOARD", "7,7,1", "8,8,2", "7,8,1", "8,7,2", "DONE"],
        ));
        assert_eq!(req.game.to_move(), Color::Black);
        assert_eq!(
            req.game.moves(),
            &[
                Point::new(7, 7),
                Point::new(8, 8),
                Point::new(7, 8),
                Point::new(8, 7)
            ]
        );
        s.finish(req.id, None, Duration::ZERO);
        // One more opponent stone, listed own stones first: the brain is white.
        let req = request(run(&mut s, &["BOARD", "7,8,1", "7,7,2", "8,8,2", "DONE"]));
        assert_eq!(req.game.to_move(), Color::White);
        assert_eq!(req.game.board().get(Point::new(7, 8)), Some(Color::White));
        assert_eq!(req.game.board().get(Point::new(8, 8)), Some(Color::Black));
        s.finish(req.id, None, Duration::ZERO);
        // An empty BOARD: the brain opens as black.
        let req = request(run(&mut s, &["BOARD", "DONE"]));
        assert_eq!(req.game.to_move(), Color::Black);
        s.finish(req.id, None, Duration::ZERO);
    }

    #[test]
    fn bad_boards_are_refused_and_the_old_position_kept() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        let before = s.game().unwrap().moves().to_vec();
        for (lines, want) in [
            (
                vec!["BOARD", "1,1,1", "2,2,1", "DONE"],
                "cannot be the side",
            ),
            (
                vec!["BOARD", "1,1,2", "2,2,2", "3,3,2", "DONE"],
                "cannot be",
            ),
            (vec!["BOARD", "1,1,1", "1,1,2", "DONE"], "twice"),
            (vec!["BOARD", "1,15,1", "2,2,2", "DONE"], "off the"),
            (vec!["BOARD", "1,1,1", "2,2,9", "DONE"], "field"),
            (vec!["BOARD", "1,1", "DONE"], "x,y,field"),
        ] {
            let o = run(&mut s, &lines);
            assert!(error(&o).contains(want), "{lines:?}: {:?}", o.replies);
            assert_eq!(s.game().unwrap().moves(), &before[..]);
        }
    }

    #[test]
    fn a_finished_game_gets_an_error() {
        let mut s = started();
        let o = run(
            &mut s,
            &[
                "BOARD", "0,0,2", "5,5,1", "1,0,2", "5,6,1", "2,0,2", "5,7,1", "3,0,2", "5,8,1",
                "4,0,2", "DONE",
            ],
        );
        assert!(error(&o).contains("over"), "{:?}", o.replies);
    }

    #[test]
    fn markers_are_never_played() {
        let mut s = started();
        let req = request(run(&mut s, &["BOARD", "7,7,3", "DONE"]));
        assert_ne!(req.fallback, Reply::Move(Point::new(7, 7)));
        let replies = s.finish(req.id, thought(Point::new(7, 7)), Duration::ZERO);
        assert_eq!(replies.last(), Some(&req.fallback));
        assert!(error(&run(&mut s, &["TURN 7,7"])).contains("blocked"));
    }

    #[test]
    pub(super) fn takeback() {
        let mut s = started();
        let req = request(run(&mut s, &["TURN 7,7"]));
        s.finish(req.id, thought(Point::new(8, 8)), Duration::ZERO);
        assert!(error(&run(&mut s, &["TAKEBACK 3,3"])).contains("no stone"));
        assert!(error(&run(&mut s, &["TAKEBACK 30,3"])).contains("off"));
        assert_eq!(run(&mut s, &["TAKEBACK 8,8"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().moves(), &[Point::new(7, 7)]);
        assert_eq!(run(&mut s, &["takeback 7,7"]).replies, vec![Reply::Ok]);
        assert!(s.game().unwrap().moves().is_empty());
        // A stone that is not the last move (gomoku BOARD order) can still go if the sides
        // stay balanced afterwards.
        let req = request(run(
            &mut s,
            &["BOARD", "1,1,1", "2,2,1", "3,3,2", "4,4,2", "DONE"],
        ));
        s.finish(req.id, thought(Point::new(9, 9)), Duration::ZERO);
        assert_eq!(run(&mut s, &["TAKEBACK 1,1"]).replies, vec![Reply::Ok]);
        assert_eq!(s.game().unwrap().moves().len(), 4);
        assert_eq!(s.game().unwrap().board().get(Point::new(1, 1)), None);
    }
}
