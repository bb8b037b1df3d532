//! A game: the board plus history, undo/redo, side to move and result, all checked by the
//! referee.

use std::fmt;

use crate::referee::{self, forbidden_at, win_at, Forbidden, Win};
use crate::{Board, Color, Point, Rule, Setup, SetupError, SizeError};

/// Why a move was refused. The game is left untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The point is not on the board.
    OffBoard(Point),
    /// The point already holds a stone.
    Occupied(Point),
    /// The game already has a result.
    GameOver,
    /// Black may not play here under renju.
    Forbidden {
        /// The refused point.
        point: Point,
        /// Which forbidden shape it makes.
        reason: Forbidden,
    },
    /// The board size is not supported (only from [`Game::from_moves`]).
    Size(SizeError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard(p) => write!(f, "point {} is off the board", p.gomocup()),
            PlayError::Occupied(p) => write!(f, "point {} is already occupied", p.gomocup()),
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::Forbidden { point, reason } => {
                write!(
                    f,
                    "point {} is forbidden for black ({reason})",
                    point.gomocup()
                )
            }
            PlayError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayError::Size(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SizeError> for PlayError {
    fn from(e: SizeError) -> PlayError {
        PlayError::Size(e)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The winning run; `None` for a draw.
    pub win: Option<Win>,
    /// Why the game is drawn; `None` when it was won.
    pub draw: Option<Draw>,
}

impl GameResult {
    const fn drawn(why: Draw) -> GameResult {
        GameResult {
            winner: None,
            win: None,
            draw: Some(why),
        }
    }
}

/// Why a game ended without a winner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Draw {
    /// Every point holds a stone.
    FullBoard,
    /// The side to move has no legal point: under renju, every empty point is forbidden for
    /// black. The game cannot go on, so it ends as a full board would.
    NoLegalMove,
}

impl fmt::Display for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Draw::FullBoard => "the board is full",
            Draw::NoLegalMove => "black has no legal move",
        })
    }
}

/// A game under one rule on one board size: moves alternate from black, every move is checked
/// by the referee, and undone moves can be redone until a new move is played.
///
/// A game may also start from a set-up position ([`Game::from_setup`]): its stones are then
/// part of the starting position, not moves. [`Game::moves`] holds only the moves played
/// after it, move 1 is played by the setup's side to move, and [`Game::undo`] stops at the
/// set-up position.
///
/// # Examples
/// ```
/// use wuzi::{Game, Point, Rule, PlayError};
///
/// let mut game = Game::new(Rule::Renju, 15).unwrap();
/// let h8 = Point::from_rif("h8", 15).unwrap();
/// game.try_play(h8).unwrap();
/// assert_eq!(game.try_play(h8), Err(PlayError::Occupied(h8)));
/// assert_eq!(game.undo(), Some(h8));
/// assert_eq!(game.redo(), Some(h8));
/// assert_eq!(game.moves(), &[h8]);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rule: Rule,
    board: Board,
    /// The set-up position the game started from; `None` for the empty board, black first.
    setup: Option<Setup>,
    moves: Vec<Point>,
    /// Undone moves, the next one to redo last.
    redo: Vec<Point>,
    result: Option<GameResult>,
}

impl Game {
    /// An empty board of `size` under `rule`, black to move.
    ///
    /// # Errors
    /// [`SizeError`] unless `5 <= size <= 20`.
    pub fn new(rule: Rule, size: u8) -> Result<Game, SizeError> {
        Ok(Game {
            rule,
            board: Board::new(size)?,
            setup: None,
            moves: Vec::new(),
            redo: Vec::new(),
            result: None,
        })
    }

    /// A game under `rule` starting from the set-up position `setup`, with no moves yet.
    ///
    /// The referee refuses a position that no game could go on from: stones off the board or
    /// two on one point, a five already on the board for either side (under standard, exactly
    /// five; under freestyle, five or more; under renju, exactly five for black and five or
    /// more for white), and under renju any black overline. Any stone counts and either side
    /// to move are accepted. A position with no empty point (or, under renju with black to
    /// move, only forbidden ones) starts as a drawn game.
    ///
    /// The empty board with black to move gives the same game as [`Game::new`].
    ///
    /// # Errors
    /// [`SetupError`] naming the first problem found; no game is built.
    ///
    /// # Examples
    /// ```
    /// use wuzi::{Color, Game, Point, Rule, Setup, SetupError};
    ///
    /// let row = |n: u8| (0..n).map(|x| Point::new(x, 7)).collect::<Vec<_>>();
    /// let mut setup = Setup::empty(15);
    /// setup.black = row(6);
    /// // Six in a row: no win under standard rules, so the position can be played on...
    /// assert!(Game::from_setup(Rule::Standard, &setup).is_ok());
    /// // ...but renju never lets black make one, and freestyle counts it as won.
    /// assert!(matches!(Game::from_setup(Rule::Renju, &setup), Err(SetupError::Overline { .. })));
    /// assert!(matches!(Game::from_setup(Rule::Freestyle, &setup), Err(SetupError::Five { .. })));
    /// ```
    pub fn from_setup(rule: Rule, setup: &Setup) -> Result<Game, SetupError> {
        let (setup, board) = setup.validate(rule)?;
        let mut game = Game {
            rule,
            board,
            setup: (!setup.is_empty_start()).then_some(setup),
            moves: Vec::new(),
            redo: Vec::new(),
            result: None,
        };
        game.result = game.draw_without_move();
        Ok(game)
    }

    /// The set-up position the game started from, if it did not start from the empty board
    /// with black to move. Its points are sorted row-major from the top.
    #[must_use]
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    /// The game as it was before its first move: the set-up position (or the empty board),
    /// with no moves and nothing to redo.
    #[must_use]
    pub fn at_start(&self) -> Game {
        let mut start = Game {
            rule: self.rule,
            board: self.board.clone(),
            setup: self.setup.clone(),
            moves: Vec::new(),
            redo: Vec::new(),
            result: None,
        };
        for &p in &self.moves {
            start.board.remove(p);
        }
        start.result = start.draw_without_move();
        start
    }

    /// The side that plays move 1.
    fn first_to_move(&self) -> Color {
        self.setup.as_ref().map_or(Color::Black, |s| s.to_move)
    }

    /// Replays `moves` (black first) from the empty board.
    ///
    /// # Errors
    /// [`PlayError::Size`] for an unsupported size, or the first refused move's error.
    pub fn from_moves(rule: Rule, size: u8, moves: &[Point]) -> Result<Game, PlayError> {
        let mut game = Game::new(rule, size)?;
        for &p in moves {
            game.try_play(p)?;
        }
        Ok(game)
    }

    /// The rule in force.
    #[must_use]
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The board side length.
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.board.size()
    }

    /// The stones.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played so far (after the set-up position, if any), black first unless the
    /// setup says otherwise.
    #[must_use]
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The most recent move.
    #[must_use]
    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// The undone moves that [`Game::redo`] would replay, next one first.
    #[must_use]
    pub fn redo_moves(&self) -> Vec<Point> {
        self.redo.iter().rev().copied().collect()
    }

    /// The side to move (also after the game ended: the side that would have moved).
    #[must_use]
    pub fn to_move(&self) -> Color {
        let first = self.first_to_move();
        if self.moves.len() % 2 == 0 {
            first
        } else {
            first.other()
        }
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether the game has a result.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Whether the side to move may play `p` now, without playing it.
    ///
    /// # Errors
    /// The [`PlayError`] that [`Game::try_play`] would return.
    pub fn check(&self, p: Point) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.board.contains(p) {
            return Err(PlayError::OffBoard(p));
        }
        if !self.board.is_empty_at(p) {
            return Err(PlayError::Occupied(p));
        }
        if self.rule.has_forbidden(self.to_move()) {
            let mut scratch = self.board.clone();
            if let Some(reason) = forbidden_at(&mut scratch, p) {
                return Err(PlayError::Forbidden { point: p, reason });
            }
        }
        Ok(())
    }

    /// Plays `p` for the side to move and returns the result if the move ended the game.
    /// A new move clears the redo list.
    ///
    /// # Errors
    /// [`PlayError`] if the game is over, or `p` is off the board, occupied or forbidden; the
    /// game is then left exactly as it was (redo list included).
    pub fn try_play(&mut self, p: Point) -> Result<Option<GameResult>, PlayError> {
        self.check(p)?;
        self.redo.clear();
        self.apply(p);
        Ok(self.result.clone())
    }

    /// Places a move already known to be legal and updates the result.
    fn apply(&mut self, p: Point) {
        let color = self.to_move();
        self.board.place(p, color);
        self.moves.push(p);
        self.result = if let Some(win) = win_at(&self.board, p, self.rule) {
            Some(GameResult {
                winner: Some(color),
                win: Some(win),
                draw: None,
            })
        } else {
            self.draw_without_move()
        };
    }

    /// The draw that ends the game when the side to move cannot play at all.
    fn draw_without_move(&self) -> Option<GameResult> {
        if self.board.is_full() {
            Some(GameResult::drawn(Draw::FullBoard))
        } else if !self.has_legal_point() {
            Some(GameResult::drawn(Draw::NoLegalMove))
        } else {
            None
        }
    }

    /// Whether the side to move has an empty point it may play (only renju's black can lack
    /// one). Stops at the first legal point, which is almost always among the first few.
    fn has_legal_point(&self) -> bool {
        if !self.rule.has_forbidden(self.to_move()) {
            return true;
        }
        let mut scratch = self.board.clone();
        Point::all(self.size())
            .any(|p| scratch.is_empty_at(p) && forbidden_at(&mut scratch, p).is_none())
    }

    /// Takes back the last move (also after the game ended) and returns it; `None` at the
    /// start of the game (the empty board or the set-up position).
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        self.board.remove(p);
        self.result = None;
        self.redo.push(p);
        Some(p)
    }

    /// Replays the last undone move and returns it.
    pub fn redo(&mut self) -> Option<Point> {
        let p = self.redo.pop()?;
        // The move was legal in this very position before it was undone.
        debug_assert!(self.check(p).is_ok());
        self.apply(p);
        Some(p)
    }

    /// Whether there is a move to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whether there is a move to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The points forbidden for black right now: non-empty only under renju, with black to move
    /// and the game not over.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Point, Forbidden)> {
        if self.result.is_some() || !self.rule.has_forbidden(self.to_move()) {
            return Vec::new();
        }
        referee::forbidden_points(&self.board, self.rule)
    }
}

#[cfg(feature = "serde")]
mod save;

#[cfg(feature = "serde")]
pub use save::{LoadError, SaveList, SavedGame, SavedSetup};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{pt, pts};
    use crate::WinKind;

    #[test]
    fn game_can_move_between_threads() {
        fn shareable<T: Clone + fmt::Debug + Send + Sync + 'static>() {}
        shareable::<Game>();
        shareable::<PlayError>();
    }

    #[test]
    fn sides_alternate_from_black() {
        let mut g = Game::new(Rule::Freestyle, 15).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.try_play(Point::new(7, 7)).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.board().get(Point::new(7, 7)), Some(Color::Black));
    }

    #[test]
    fn errors_leave_the_game_untouched() {
        let mut g =
            Game::from_moves(Rule::Renju, 15, &pts("f8 a1 g8 a3 h6 a5 h7 a7 o1 o3")).unwrap();
        g.undo();
        g.undo();
        let before = (g.moves().to_vec(), g.redo_moves(), g.board().clone());
        let h8 = pt("h8");
        assert_eq!(
            g.try_play(h8),
            Err(PlayError::Forbidden {
                point: h8,
                reason: Forbidden::DoubleThree
            })
        );
        assert_eq!(
            g.try_play(Point::new(15, 0)),
            Err(PlayError::OffBoard(Point::new(15, 0)))
        );
        let f8 = pt("f8");
        assert_eq!(g.try_play(f8), Err(PlayError::Occupied(f8)));
        assert_eq!(
            (g.moves().to_vec(), g.redo_moves(), g.board().clone()),
            before
        );
        assert!(g.can_redo());
    }

    #[test]
    fn a_new_move_clears_redo() {
        let mut g = Game::from_moves(Rule::Standard, 15, &pts("h8 i9 g7")).unwrap();
        assert_eq!(g.undo(), Some(pts("g7")[0]));
        assert_eq!(g.undo(), Some(pts("i9")[0]));
        assert_eq!(g.redo_moves(), pts("i9 g7"));
        g.try_play(pts("j10")[0]).unwrap();
        assert!(!g.can_redo());
        assert_eq!(g.redo(), None);
    }

    #[test]
    fn five_ends_the_game_and_undo_reopens_it() {
        let mut g = Game::from_moves(Rule::Renju, 15, &pts("e8 a1 f8 a3 g8 a5 h8 a7")).unwrap();
        let r = g.try_play(pts("i8")[0]).unwrap().unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(r.win.as_ref().unwrap().kind, WinKind::Five);
        assert_eq!(g.try_play(pts("o15")[0]), Err(PlayError::GameOver));
        assert!(g.forbidden_points().is_empty());
        g.undo();
        assert!(g.result().is_none());
        g.redo();
        assert_eq!(g.result(), Some(&r));
    }

    #[test]
    fn full_board_is_a_draw() {
        // Rows end up alternating colours, and rows 2-3 are swapped so that no column or
        // diagonal is one colour either: the last stone fills the board with no five.
        #[rustfmt::skip]
        let order = [
            (0, 0), (1, 0), (2, 0), (3, 0), (4, 0),
            (0, 1), (1, 1), (2, 1), (3, 1), (4, 1),
            (1, 2), (0, 2), (3, 2), (2, 2), (4, 3),
            (4, 2), (0, 3), (1, 3), (2, 3), (3, 3),
            (0, 4), (1, 4), (2, 4), (3, 4), (4, 4),
        ];
        let moves: Vec<Point> = order.iter().map(|&(x, y)| Point::new(x, y)).collect();
        let g = Game::from_moves(Rule::Freestyle, 5, &moves).unwrap();
        assert!(g.board().is_full());
        assert_eq!(
            g.result(),
            Some(&GameResult {
                winner: None,
                win: None,
                draw: Some(Draw::FullBoard),
            })
        );
    }

    /// The moves of `tests/fixtures/renju-no-legal-move.txt`.
    fn no_legal_move_game() -> Vec<Point> {
        let text = include_str!("../tests/fixtures/renju-no-legal-move.txt");
        let moves: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        pts(&moves.join(" "))
    }

    #[test]
    fn black_with_no_legal_point_is_a_draw() {
        let moves = no_legal_move_game();
        let (&last, before) = moves.split_last().unwrap();
        let mut g = Game::from_moves(Rule::Renju, 15, before).unwrap();
        assert!(g.result().is_none(), "white still has points to play");
        assert_eq!(g.try_play(last), Ok(g.result().cloned()));
        let drawn = GameResult {
            winner: None,
            win: None,
            draw: Some(Draw::NoLegalMove),
        };
        assert_eq!(g.result(), Some(&drawn));
        assert_eq!(drawn.draw.unwrap().to_string(), "black has no legal move");
        // Not a full board: five empty points, each forbidden for black.
        let mut b = g.board().clone();
        let empty: Vec<Point> = Point::all(15).filter(|&p| b.is_empty_at(p)).collect();
        assert_eq!(empty.len(), 5);
        for &p in &empty {
            assert!(forbidden_at(&mut b, p).is_some(), "{}", p.rif(15));
        }
        assert_eq!(g.check(empty[0]), Err(PlayError::GameOver));
        assert!(
            g.forbidden_points().is_empty(),
            "a finished game has no move to forbid"
        );
        // Undo reopens the game, redo ends it the same way, and a replay agrees.
        assert_eq!(g.undo(), Some(last));
        assert!(g.result().is_none());
        g.redo();
        assert_eq!(g.result(), Some(&drawn));
        assert_eq!(
            Game::from_moves(Rule::Renju, 15, &moves).unwrap().result(),
            Some(&drawn)
        );
        // Only renju's black can be without a move: under freestyle the game goes on.
        let free = Game::from_moves(Rule::Freestyle, 15, &moves).unwrap();
        assert!(free.result().is_none());
        assert!(free.check(empty[0]).is_ok());
    }

    #[test]
    fn from_moves_reports_size_and_illegal_moves() {
        assert_eq!(
            Game::from_moves(Rule::Renju, 4, &[]).unwrap_err(),
            PlayError::Size(SizeError(4))
        );
        let err = Game::from_moves(Rule::Renju, 15, &pts("h8 h8")).unwrap_err();
        assert!(matches!(err, PlayError::Occupied(_)));
        assert!(err.to_string().contains("occupied"));
    }

    #[test]
    fn forbidden_points_only_for_black_to_move() {
        let g = Game::from_moves(Rule::Renju, 15, &pts("f8 a1 g8 a3 h6 a5 h7 a7")).unwrap();
        assert!(g.forbidden_points().iter().any(|(p, _)| *p == pts("h8")[0]));
        let mut w = g.clone();
        w.try_play(pts("o1")[0]).unwrap();
        assert!(w.forbidden_points().is_empty());
    }

    fn setup(black: &str, white: &str, to_move: Color) -> Setup {
        Setup {
            size: 15,
            black: pts(black),
            white: pts(white),
            to_move,
        }
    }

    #[test]
    fn a_setup_starts_the_game_and_undo_stops_there() {
        let s = setup("h8 i9", "h9 g7 j7", Color::White);
        let mut g = Game::from_setup(Rule::Renju, &s).unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert!(g.moves().is_empty() && !g.can_undo());
        assert_eq!(g.board().stone_count(), 5);
        assert_eq!(g.board().get(pts("g7")[0]), Some(Color::White));
        assert_eq!(g.board().hash(), g.board().hash_from_scratch());
        // Stored sorted, so the same position given in another order is the same setup.
        let reordered = setup("i9 h8", "j7 h9 g7", Color::White);
        let again = Game::from_setup(Rule::Renju, &reordered).unwrap();
        assert_eq!(again.setup(), g.setup());
        assert_eq!(g.setup().unwrap().black, pts("i9 h8"));

        g.try_play(pts("j10")[0]).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.try_play(pts("f6")[0]).unwrap();
        assert_eq!(g.moves(), pts("j10 f6"));
        assert_eq!(g.board().get(pts("j10")[0]), Some(Color::White));
        assert_eq!(g.board().get(pts("f6")[0]), Some(Color::Black));
        let start = g.at_start();
        assert_eq!(start.board(), again.board());
        assert!(start.moves().is_empty() && !start.can_redo());
        assert_eq!(start.to_move(), Color::White);
        assert_eq!(g.undo(), Some(pts("f6")[0]));
        assert_eq!(g.undo(), Some(pts("j10")[0]));
        assert_eq!(g.undo(), None, "the setup stones are not moves");
        assert_eq!(g.board(), again.board());
        assert_eq!(g.redo(), Some(pts("j10")[0]));
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn the_empty_setup_is_an_ordinary_game() {
        let g = Game::from_setup(Rule::Standard, &Setup::empty(13)).unwrap();
        assert!(g.setup().is_none());
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.size(), 13);
        // White to move on the empty board is a real setup, though.
        let mut white_first = Setup::empty(13);
        white_first.to_move = Color::White;
        let g = Game::from_setup(Rule::Standard, &white_first).unwrap();
        assert_eq!(g.setup(), Some(&white_first));
        assert_eq!(g.to_move(), Color::White);
    }

    #[test]
    fn bad_setups_are_refused_with_a_reason() {
        let b = Color::Black;
        let mut off = setup("h8", "", b);
        off.white.push(Point::new(15, 3));
        let e = Game::from_setup(Rule::Renju, &off).unwrap_err();
        assert_eq!(
            e,
            SetupError::OffBoard {
                point: Point::new(15, 3),
                color: Color::White,
                size: 15
            }
        );
        assert!(e.to_string().contains("off the 15x15 board"), "{e}");
        for (black, white) in [("h8 h8", ""), ("h8", "h8"), ("h8 i9", "j10 i9")] {
            let e = Game::from_setup(Rule::Freestyle, &setup(black, white, b)).unwrap_err();
            assert!(
                matches!(e, SetupError::Duplicate { .. }),
                "{black} / {white}"
            );
            assert!(e.to_string().contains("more than one stone"), "{e}");
        }
        let mut tiny = setup("", "", b);
        tiny.size = 4;
        assert_eq!(
            Game::from_setup(Rule::Renju, &tiny).unwrap_err(),
            SetupError::Size(SizeError(4))
        );

        // A five for either side, under every rule.
        for rule in Rule::ALL {
            let e = Game::from_setup(rule, &setup("d8 e8 f8 g8 h8", "a1", b)).unwrap_err();
            let SetupError::Five { win, .. } = &e else {
                panic!("{rule}: {e:?}")
            };
            assert_eq!((win.color, win.kind), (Color::Black, WinKind::Five));
            assert_eq!(
                e.to_string(),
                "the position is already won: black has a five at d8-h8"
            );
            let e = Game::from_setup(rule, &setup("a1", "k2 k3 k4 k5 k6", b)).unwrap_err();
            assert!(matches!(&e, SetupError::Five { win, .. } if win.color == Color::White));
        }
        // Six in a row: not a five under standard, a win under freestyle, and under renju
        // a win for white and an impossible position for black.
        let six_black = setup("c8 d8 e8 f8 g8 h8", "", b);
        let six_white = setup("", "c8 d8 e8 f8 g8 h8", b);
        assert!(Game::from_setup(Rule::Standard, &six_black).is_ok());
        assert!(Game::from_setup(Rule::Standard, &six_white).is_ok());
        for s in [&six_black, &six_white] {
            let e = Game::from_setup(Rule::Freestyle, s).unwrap_err();
            assert!(matches!(&e, SetupError::Five { win, .. } if win.kind == WinKind::Overline));
        }
        let e = Game::from_setup(Rule::Renju, &six_white).unwrap_err();
        assert!(matches!(&e, SetupError::Five { win, .. } if win.color == Color::White));
        let e = Game::from_setup(Rule::Renju, &six_black).unwrap_err();
        assert_eq!(
            e,
            SetupError::Overline {
                line: pts("c8 d8 e8 f8 g8 h8"),
                size: 15
            }
        );
        assert!(e.to_string().contains("overline at c8-h8"), "{e}");
        // A diagonal overline is found too, from any of its stones.
        let diag = setup("j10 i9 h8 g7 f6 e5 a1", "", b);
        assert!(matches!(
            Game::from_setup(Rule::Renju, &diag),
            Err(SetupError::Overline { .. })
        ));
        // Four in a row with the fifth point free is a position to play on.
        assert!(Game::from_setup(Rule::Renju, &setup("d8 e8 f8 g8", "", b)).is_ok());
    }

    #[test]
    fn a_setup_with_no_move_left_starts_drawn() {
        // The final position of the no-legal-move game, white to move there instead: black
        // has no legal point, but white does, so play goes on; with black to move it is over.
        let moves = no_legal_move_game();
        let end = Game::from_moves(Rule::Renju, 15, &moves).unwrap();
        let s = Setup::from_board(end.board(), Color::Black);
        let g = Game::from_setup(Rule::Renju, &s).unwrap();
        assert_eq!(g.result().and_then(|r| r.draw), Some(Draw::NoLegalMove));
        assert!(!g.can_undo());
        let mut w = s.clone();
        w.to_move = Color::White;
        assert!(Game::from_setup(Rule::Renju, &w)
            .unwrap()
            .result()
            .is_none());
    }
}
