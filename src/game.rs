//! A game: the board plus history, undo/redo, side to move and result, all checked by the
//! referee.

use std::fmt;

use crate::referee::{self, forbidden_at, win_at, Forbidden, Win};
use crate::{Board, Color, Point, Rule, SizeError};

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
            moves: Vec::new(),
            redo: Vec::new(),
            result: None,
        })
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

    /// The moves played so far, black first.
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
        Color::to_move_after(self.moves.len())
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
        } else if self.board.is_full() {
            Some(GameResult::drawn(Draw::FullBoard))
        } else if !self.has_legal_point() {
            Some(GameResult::drawn(Draw::NoLegalMove))
        } else {
            None
        };
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

    /// Takes back the last move (also after the game ended) and returns it.
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
pub use save::{LoadError, SaveList, SavedGame};

#[cfg(feature = "serde")]
mod save {
    use std::fmt;

    use super::{Game, PlayError};
    use crate::{ParsePointError, Point, Rule, SizeError};

    /// A game as written to disk (feature `serde`): moves in RIF notation, black first.
    ///
    /// Loading replays every move through the referee, so a damaged or tampered file can never
    /// produce an illegal position.
    ///
    /// ```json
    /// {"version":1,"rule":"renju","size":15,"moves":["h8","i9"],"redo":["g7"]}
    /// ```
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct SavedGame {
        /// Format version; only [`SavedGame::VERSION`] is understood.
        pub version: u32,
        /// The rule.
        pub rule: Rule,
        /// The board size.
        pub size: u8,
        /// Moves played, black first, RIF (`"h8"`).
        pub moves: Vec<String>,
        /// Undone moves that redo would replay, next one first, RIF.
        #[serde(default)]
        pub redo: Vec<String>,
    }

    impl SavedGame {
        /// The version this crate writes and reads.
        pub const VERSION: u32 = 1;
    }

    /// Which list of a [`SavedGame`] an error is in.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum SaveList {
        /// `moves`.
        Moves,
        /// `redo`.
        Redo,
    }

    impl fmt::Display for SaveList {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(match self {
                SaveList::Moves => "moves",
                SaveList::Redo => "redo",
            })
        }
    }

    /// Why a [`SavedGame`] could not be loaded.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum LoadError {
        /// A format version this crate does not know.
        UnknownVersion(u32),
        /// An unsupported board size.
        Size(SizeError),
        /// A move that is not a point on the board.
        BadPoint {
            /// Which list.
            list: SaveList,
            /// 1-based position in that list.
            number: usize,
            /// Why.
            error: ParsePointError,
        },
        /// A move the referee refuses at that point of the game.
        Illegal {
            /// Which list.
            list: SaveList,
            /// 1-based position in that list.
            number: usize,
            /// The move as written.
            text: String,
            /// Why.
            error: PlayError,
        },
    }

    impl fmt::Display for LoadError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                LoadError::UnknownVersion(v) => write!(
                    f,
                    "saved game version {v} is not supported (expected {})",
                    SavedGame::VERSION
                ),
                LoadError::Size(e) => e.fmt(f),
                LoadError::BadPoint {
                    list,
                    number,
                    error,
                } => write!(f, "{list} entry {number}: {error}"),
                LoadError::Illegal {
                    list,
                    number,
                    text,
                    error,
                } => write!(f, "{list} entry {number} ({text}) is illegal: {error}"),
            }
        }
    }

    impl std::error::Error for LoadError {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            match self {
                LoadError::Size(e) => Some(e),
                LoadError::BadPoint { error, .. } => Some(error),
                LoadError::Illegal { error, .. } => Some(error),
                LoadError::UnknownVersion(_) => None,
            }
        }
    }

    impl Game {
        /// The game in the save format.
        #[must_use]
        pub fn to_saved(&self) -> SavedGame {
            let size = self.size();
            let rif = |p: &Point| p.rif(size).to_string();
            SavedGame {
                version: SavedGame::VERSION,
                rule: self.rule(),
                size,
                moves: self.moves().iter().map(rif).collect(),
                redo: self.redo_moves().iter().map(rif).collect(),
            }
        }

        /// Rebuilds a game by replaying the saved moves, then the redo moves, through the
        /// referee, and undoing the latter again.
        ///
        /// # Errors
        /// [`LoadError`] for an unknown version, a bad size, a malformed or off-board point,
        /// or a move the referee refuses (occupied, forbidden, after the game ended).
        pub fn from_saved(saved: &SavedGame) -> Result<Game, LoadError> {
            if saved.version != SavedGame::VERSION {
                return Err(LoadError::UnknownVersion(saved.version));
            }
            let mut game = Game::new(saved.rule, saved.size).map_err(LoadError::Size)?;
            for (list, texts) in [
                (SaveList::Moves, &saved.moves),
                (SaveList::Redo, &saved.redo),
            ] {
                for (i, text) in texts.iter().enumerate() {
                    let number = i + 1;
                    let p =
                        Point::from_rif(text, saved.size).map_err(|error| LoadError::BadPoint {
                            list,
                            number,
                            error,
                        })?;
                    game.try_play(p).map_err(|error| LoadError::Illegal {
                        list,
                        number,
                        text: text.clone(),
                        error,
                    })?;
                }
            }
            for _ in &saved.redo {
                game.undo();
            }
            Ok(game)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WinKind;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace()
            .map(|m| Point::from_rif(m, 15).unwrap())
            .collect()
    }

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
        let h8 = Point::from_rif("h8", 15).unwrap();
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
        let f8 = Point::from_rif("f8", 15).unwrap();
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

    #[cfg(feature = "serde")]
    #[test]
    fn save_round_trip_and_errors() {
        let mut g = Game::from_moves(Rule::Renju, 15, &pts("h8 i9 g7 j10")).unwrap();
        g.undo();
        let saved = g.to_saved();
        assert_eq!(saved.moves, ["h8", "i9", "g7"]);
        assert_eq!(saved.redo, ["j10"]);
        let back = Game::from_saved(&saved).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.redo_moves(), g.redo_moves());
        assert_eq!(back.board(), g.board());

        let mut bad = saved.clone();
        bad.version = 2;
        assert_eq!(
            Game::from_saved(&bad).unwrap_err(),
            LoadError::UnknownVersion(2)
        );
        let mut bad = saved.clone();
        bad.moves[1] = "z99".into();
        assert!(matches!(
            Game::from_saved(&bad),
            Err(LoadError::BadPoint { number: 2, .. })
        ));
        let mut bad = saved.clone();
        bad.redo = vec!["h8".into()];
        assert!(matches!(
            Game::from_saved(&bad),
            Err(LoadError::Illegal {
                list: SaveList::Redo,
                number: 1,
                ..
            })
        ));
        let mut bad = saved;
        bad.size = 30;
        assert!(matches!(Game::from_saved(&bad), Err(LoadError::Size(_))));
    }
}
