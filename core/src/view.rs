//! The shapes the webview receives (App IPC contract in docs/architecture.md): plain data with
//! points in RIF notation, built from the engine's `Game` on every reply.

use serde::Serialize;
use wuzi::openings::renju::Opening;
use wuzi::{Color, Draw, Game, Level, Outlook, Point, Rule, Verdict, WinKind, MIN_SIZE};

use crate::parts::clock::ClockView;
use crate::parts::opening::{Choice, OpeningRule, Side, Stage};
use crate::parts::review::{GameReview, ReviewedMove};
use crate::parts::swap::SwapGame;
use crate::settings::{level_number, Mode, Settings, Stats};

/// Who plays the current game, and its identity for stale-reply checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// Changes with every new game or import.
    pub game_id: u64,
    /// Against the computer or two players.
    pub mode: Mode,
    /// The computer's level.
    pub level: Level,
    /// The human's colour against the computer.
    pub human_color: Color,
    /// Whether this game's result is already in the stats, so undo + replay cannot count twice;
    /// also set from the start for a position set up in the editor, which is practice and
    /// never counted.
    pub stats_counted: bool,
    /// Random and kept in the save: the stats remember the uids they counted, so a game whose
    /// save predates its count (a crash between the two writes) is not counted again.
    pub game_uid: u64,
    /// Moves were played against the computer with analysis on: the result is counted as
    /// analysed.
    pub analysed: bool,
    /// The renju opening whose three stones are moves 1–3: undo never takes them back.
    pub opening: Option<&'static Opening>,
    /// The Swap / Swap2 opening phase of a freestyle or standard game (issue 10 §3).
    pub swap: Option<SwapGame>,
}

impl GameSetup {
    /// Who plays a new game `game_id` of `game` as `settings` say, the opening rule's phase
    /// included, with a fresh [`GameSetup::game_uid`]; `opening` is the renju opening `game`
    /// begins with.
    #[must_use]
    pub fn from_settings(
        settings: &Settings,
        game_id: u64,
        game: &Game,
        opening: Option<&'static Opening>,
    ) -> GameSetup {
        GameSetup {
            game_id,
            mode: settings.mode,
            level: settings.level,
            human_color: settings.human_color,
            stats_counted: false,
            game_uid: GameSetup::new_uid(),
            analysed: false,
            opening,
            swap: SwapGame::start(settings.opening_rule, game, settings.human_color),
        }
    }

    /// A fresh [`GameSetup::game_uid`]: 64 random bits, never 0 (0 means "none" in old saves).
    #[must_use]
    pub fn new_uid() -> u64 {
        crate::random::random_u64().max(1)
    }

    /// Whose time the game's first moves are on the clock (see [`SwapGame::clock_owners`]).
    #[must_use]
    pub fn clock_owners(&self) -> Vec<Color> {
        self.swap.map_or_else(Vec::new, |s| s.clock_owners())
    }

    /// The moves undo leaves on the board: the opening's stones.
    #[must_use]
    pub fn fixed_moves(&self) -> usize {
        self.opening.map_or(0, |o| o.moves(MIN_SIZE).len()) + self.swap.map_or(0, |s| s.stones)
    }

    /// Whether the engine, not a person, plays the side to move of `game`.
    #[must_use]
    pub fn computer_to_move(&self, game: &Game) -> bool {
        if self.mode != Mode::Computer || game.result().is_some() {
            return false;
        }
        match self.swap.filter(SwapGame::in_progress) {
            Some(swap) => !swap.human_acts(self.mode),
            None => game.to_move() != self.human_color,
        }
    }

    /// Whether `redo` would replay anything: inside the opening phase, only the stones of the
    /// stage under way, and only the human's.
    #[must_use]
    pub fn can_redo(&self, game: &Game) -> bool {
        match self.swap.filter(SwapGame::in_progress) {
            Some(swap) => {
                game.can_redo() && swap.phase.choices().is_empty() && swap.human_acts(self.mode)
            }
            None => game.can_redo(),
        }
    }

    /// Whether undo has something to take back: against the computer that means one of the
    /// human's own moves (undoing only the computer's opening move would just let it replay).
    #[must_use]
    pub fn can_undo(&self, game: &Game) -> bool {
        if let Some(swap) = self.swap.filter(SwapGame::in_progress) {
            return swap.can_take_back(game, self.mode);
        }
        let fixed = self.fixed_moves();
        match self.mode {
            Mode::Local => game.can_undo() && game.moves().len() > fixed,
            Mode::Computer => {
                // Moves alternate from the set-up position's side to move (black on an empty
                // board); the human's first move after the fixed ones is the first that is
                // theirs.
                let first = game.setup().map_or(Color::Black, |s| s.to_move);
                let parity = usize::from(first != self.human_color);
                let own = fixed + usize::from(fixed % 2 != parity);
                game.moves().len() > own
            }
        }
    }
}

/// The game as the UI draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameView {
    /// See [`GameSetup::game_id`].
    pub game_id: u64,
    /// Stones on the board; with `game_id` it names the position.
    pub move_number: usize,
    /// Board size.
    pub size: u8,
    /// The rule.
    pub rule: Rule,
    /// Against the computer or two players.
    pub mode: Mode,
    /// The computer's level, 1..=5.
    #[serde(with = "level_number")]
    pub level: Level,
    /// The human's colour against the computer.
    pub human_color: Color,
    /// Played moves in RIF, black first.
    pub moves: Vec<String>,
    /// The side to move.
    pub to_move: Color,
    /// Set once the game is over.
    pub result: Option<ResultView>,
    /// Black's forbidden points when black is to move under renju.
    pub forbidden: Vec<ForbiddenView>,
    /// Whether `undo` would change anything.
    pub can_undo: bool,
    /// Whether `redo` would change anything.
    pub can_redo: bool,
    /// The UI should now call `computer_move`.
    pub computer_to_move: bool,
    /// Moves were played against the computer with analysis on.
    pub analysed: bool,
    /// The game's finished review (issue 10 §2), while the moves are the ones reviewed.
    pub review: Option<ReviewView>,
    /// The renju opening the game started from (its stones are moves 1–3).
    pub opening: Option<OpeningView>,
    /// The Swap / Swap2 opening of the game, if it has one.
    pub swap: Option<SwapView>,
    /// The game clock (issue 10 §4).
    pub clock: ClockView,
    /// The set-up position the game started from (issue 10 §5): its stones are on the board
    /// before move 1, which `setup.toMove` plays; `None` for a game from the empty board.
    pub setup: Option<SetupView>,
}

/// A set-up position: the stones on the board before the first move, and who plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetupView {
    /// Black's stones (RIF).
    pub black: Vec<String>,
    /// White's stones (RIF).
    pub white: Vec<String>,
    /// Who plays move 1.
    pub to_move: Color,
}

/// A Swap / Swap2 opening as the UI shows it: the rule, where the phase stands and who acts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SwapView {
    /// `swap` or `swap2`.
    pub rule: OpeningRule,
    /// `placeThree`, `chooseAfterThree`, `placeTwo`, `chooseColour` or `done`.
    pub stage: &'static str,
    /// The role that acts now (`opener`, `chooser`); `None` once done.
    pub actor: Option<Side>,
    /// Against the computer, the human's role; `None` between two players.
    pub you: Option<Side>,
    /// The human acts now (between two players: whoever holds the device).
    pub you_act: bool,
    /// The choices open now, when a choice is due: `black`, `white`, `placeTwo`.
    pub choices: Vec<Choice>,
    /// Once done: the role that plays black.
    pub black: Option<Side>,
    /// The opening's stones, which undo never takes back, once done (3 or 5).
    pub stones: usize,
}

impl SwapView {
    fn new(swap: &SwapGame, mode: Mode) -> SwapView {
        let phase = swap.phase;
        let (stage, black) = match phase.stage() {
            Stage::PlaceThree => ("placeThree", None),
            Stage::ChooseAfterThree => ("chooseAfterThree", None),
            Stage::PlaceTwo => ("placeTwo", None),
            Stage::ChooseColour => ("chooseColour", None),
            Stage::Done { black } => ("done", Some(black)),
        };
        SwapView {
            rule: phase.rule(),
            stage,
            actor: phase.actor(),
            you: (mode == Mode::Computer).then_some(swap.human),
            you_act: swap.human_acts(mode),
            choices: phase.choices(),
            black,
            stones: swap.stones,
        }
    }
}

/// One of renju's 26 canonical openings, named for the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningView {
    /// `4D`: the value of the `renjuOpening` setting that picks it.
    pub code: String,
    /// `Kagetsu`.
    pub name: &'static str,
    /// `花月`.
    pub chinese: &'static str,
}

impl From<&Opening> for OpeningView {
    fn from(o: &Opening) -> OpeningView {
        OpeningView {
            code: o.code(),
            name: o.name(),
            chinese: o.chinese(),
        }
    }
}

/// The 26 openings in their canonical order (1D–13D, 1I–13I), for the new-game choice.
#[must_use]
pub fn renju_openings() -> Vec<OpeningView> {
    wuzi::openings::renju::ALL
        .iter()
        .map(OpeningView::from)
        .collect()
}

/// A finished review as the UI shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    /// Search time per position, in milliseconds.
    pub ms_per_position: u64,
    /// One entry per move, in order.
    pub moves: Vec<ReviewedMove>,
    /// Black's winning chances in permille (0..=1000) in each position, start to end
    /// (moves + 1 values): the evaluation graph.
    pub black_chances: Vec<u16>,
}

impl From<&GameReview> for ReviewView {
    fn from(r: &GameReview) -> ReviewView {
        ReviewView {
            ms_per_position: r.ms_per_position,
            moves: r.reviewed.clone(),
            black_chances: r
                .black_chances()
                .iter()
                // In 0..=1000 by construction: the cast cannot truncate.
                .map(|c| (c.clamp(0.0, 1.0) * 1000.0).round() as u16)
                .collect(),
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// `"five"`, `"overline"`, `"draw"` (the board is full), `"no-legal-move"` (a draw:
    /// under renju every empty point is forbidden for black) or `"time"` (the loser's time ran
    /// out).
    pub reason: &'static str,
    /// The winning stones in RIF; empty for a draw.
    pub line: Vec<String>,
}

/// One point black may not play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForbiddenView {
    /// RIF.
    pub point: String,
    /// `"overline"`, `"double-four"` or `"double-three"`.
    pub reason: String,
}

/// Everything the UI needs at start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppState {
    /// The current game.
    pub game: GameView,
    /// The settings.
    pub settings: Settings,
    /// The stats.
    pub stats: Stats,
    /// Codes of what the player should be told once (`gameDamaged`, `settingsDamaged`,
    /// `statsDamaged`, `notSaved`); the UI words them.
    pub notices: Vec<&'static str>,
    /// Renju's 26 canonical openings, for the new-game choice.
    pub renju_openings: Vec<OpeningView>,
}

/// The engine's advice for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hint {
    /// The suggested point in RIF; `None` if there is no legal move.
    pub point: Option<String>,
    /// What the engine concluded, as data the UI words in its own language.
    pub verdict: VerdictView,
    /// The search score from the side to move's view.
    pub score: i32,
    /// The position the hint is for.
    pub game_id: u64,
    /// The position the hint is for.
    pub move_number: usize,
}

/// The engine's verdict as data: `kind` is `won` (the five is on the board), `wins` (a forced
/// win in `plies` plies; `byFours`: by continuous fours), `even`, `better` or `winning`;
/// `color` is the winner or the side ahead (`None` when even).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerdictView {
    /// `won`, `wins`, `even`, `better` or `winning`.
    pub kind: &'static str,
    /// The winner or the side ahead.
    pub color: Option<Color>,
    /// Plies to the five, for `wins`.
    pub plies: Option<u32>,
    /// The forced win is a VCF.
    pub by_fours: bool,
}

impl From<Verdict> for VerdictView {
    fn from(v: Verdict) -> VerdictView {
        let view = |kind, color: Option<Color>| VerdictView {
            kind,
            color,
            plies: None,
            by_fours: false,
        };
        match v.outlook() {
            Outlook::Won(c) => view("won", Some(c)),
            Outlook::Wins {
                color,
                plies,
                by_fours,
            } => VerdictView {
                kind: "wins",
                color: Some(color),
                plies: Some(plies),
                by_fours,
            },
            Outlook::Even => view("even", None),
            Outlook::Better(c) => view("better", Some(c)),
            Outlook::Winning(c) => view("winning", Some(c)),
        }
    }
}

fn rif_all(points: &[Point], size: u8) -> Vec<String> {
    points.iter().map(|p| p.rif(size).to_string()).collect()
}

impl GameView {
    /// The view of `game` as played in `session`.
    #[must_use]
    pub fn new(game: &Game, session: &GameSetup) -> GameView {
        let size = game.size();
        let result = game.result().map(|r| ResultView {
            winner: r.winner,
            reason: match (r.win.as_ref().map(|w| w.kind), r.draw) {
                (Some(WinKind::Five), _) => "five",
                (Some(WinKind::Overline), _) => "overline",
                (None, Some(Draw::NoLegalMove)) => "no-legal-move",
                (None, _) => "draw",
            },
            line: r
                .win
                .as_ref()
                .map_or_else(Vec::new, |w| rif_all(&w.line, size)),
        });
        GameView {
            game_id: session.game_id,
            move_number: game.moves().len(),
            size,
            rule: game.rule(),
            mode: session.mode,
            level: session.level,
            human_color: session.human_color,
            moves: rif_all(game.moves(), size),
            to_move: game.to_move(),
            result,
            forbidden: game
                .forbidden_points()
                .into_iter()
                .map(|(p, why)| ForbiddenView {
                    point: p.rif(size).to_string(),
                    reason: why.to_string(),
                })
                .collect(),
            can_undo: session.can_undo(game),
            can_redo: session.can_redo(game),
            computer_to_move: session.computer_to_move(game),
            analysed: session.analysed,
            review: None,
            opening: session.opening.map(OpeningView::from),
            swap: session
                .swap
                .as_ref()
                .map(|s| SwapView::new(s, session.mode)),
            clock: ClockView::default(),
            setup: game.setup().map(|s| SetupView {
                black: rif_all(&s.black, size),
                white: rif_all(&s.white, size),
                to_move: s.to_move,
            }),
        }
    }
}

/// Progress of a running review (`start_review`'s channel): `done` of `total` positions
/// searched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewProgress {
    /// The game reviewed.
    pub game_id: u64,
    /// Positions searched so far.
    pub done: usize,
    /// Positions in all (moves + 1).
    pub total: usize,
}

/// One round of the background analysis (`start_analysis`'s channel): the best lines of the
/// position `(game_id, move_number)` after a search of `elapsed_ms`. Rounds grow; each one
/// replaces the last on screen.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisUpdate {
    /// The analysis this round belongs to (`start_analysis`'s answer); the UI drops others.
    pub generation: u64,
    /// The game analysed.
    pub game_id: u64,
    /// The position analysed: the game's first `move_number` moves.
    pub move_number: usize,
    /// The side to move there.
    pub to_move: Color,
    /// 1-based number of this round.
    pub round: u32,
    /// The last round: the analysis stops after it.
    pub done: bool,
    /// The deepest iteration among the lines.
    pub depth: u32,
    /// Nodes searched in this round, all lines.
    pub nodes: u64,
    /// Nodes per second in this round.
    pub nps: u64,
    /// The round's search time in milliseconds.
    pub elapsed_ms: u64,
    /// The best line's score from black's point of view (proven wins ±(30000 − plies)).
    pub black_score: i32,
    /// Black's expected score (0..1, the review's logistic scale) from the best line.
    pub black_win: f64,
    /// The best lines, best first, distinct first moves.
    pub lines: Vec<AnalysisLine>,
}

/// One line of an [`AnalysisUpdate`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisLine {
    /// The first move (RIF).
    pub point: String,
    /// Score for the side to move.
    pub score: i32,
    /// The same from black's point of view.
    pub black_score: i32,
    /// The side to move's expected score after this move (0..1).
    pub win: f64,
    /// Depth of this line's search.
    pub depth: u32,
    /// What the line says, as data.
    pub verdict: VerdictView,
    /// The expected line, starting with `point` (RIF).
    pub pv: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::Setup;

    fn against_computer(human_color: Color) -> GameSetup {
        GameSetup {
            game_id: 1,
            mode: Mode::Computer,
            level: Level::Easy,
            human_color,
            stats_counted: false,
            game_uid: 1,
            analysed: false,
            opening: None,
            swap: None,
        }
    }

    fn rif(s: &str) -> Point {
        Point::from_rif(s, 15).unwrap()
    }

    #[test]
    fn a_new_game_follows_the_settings_its_opening_rule_too() {
        let game = Game::new(Rule::Freestyle, 15).unwrap();
        let settings = Settings {
            mode: Mode::Computer,
            level: Level::Hard,
            human_color: Color::White,
            opening_rule: OpeningRule::Swap2,
            ..Settings::default()
        };
        let setup = GameSetup::from_settings(&settings, 7, &game, None);
        assert_eq!(
            (setup.game_id, setup.mode, setup.level, setup.human_color),
            (7, Mode::Computer, Level::Hard, Color::White)
        );
        assert!(!setup.stats_counted && !setup.analysed && setup.opening.is_none());
        let swap = setup.swap.expect("a Swap2 phase");
        assert_eq!(
            (swap.phase.rule(), swap.human),
            (OpeningRule::Swap2, Side::Chooser)
        );
        assert_ne!(setup.game_uid, 0);
        assert_ne!(
            setup.game_uid,
            GameSetup::from_settings(&settings, 7, &game, None).game_uid,
            "every game its own uid"
        );
        // Without an opening rule, or under renju, there is no phase.
        let plain = Settings {
            opening_rule: OpeningRule::None,
            ..settings.clone()
        };
        assert!(GameSetup::from_settings(&plain, 1, &game, None)
            .swap
            .is_none());
        let renju = Game::new(Rule::Renju, 15).unwrap();
        assert!(GameSetup::from_settings(&settings, 1, &renju, None)
            .swap
            .is_none());
    }

    #[test]
    fn undo_against_the_computer_needs_one_of_the_humans_moves() {
        let black = against_computer(Color::Black);
        let white = against_computer(Color::White);
        let mut g = Game::new(Rule::Freestyle, 15).unwrap();
        assert!(!black.can_undo(&g) && !white.can_undo(&g));
        g.try_play(rif("h8")).unwrap();
        assert!(black.can_undo(&g), "black's own first move");
        assert!(!white.can_undo(&g), "only the computer's opening move");
        g.try_play(rif("h9")).unwrap();
        assert!(white.can_undo(&g));

        // A set-up position with white to move: white's first move is the human's own.
        let setup = Setup {
            size: 15,
            black: vec![rif("h8"), rif("i9")],
            white: vec![rif("h9")],
            to_move: Color::White,
        };
        let mut g = Game::from_setup(Rule::Freestyle, &setup).unwrap();
        assert!(!white.can_undo(&g) && !black.can_undo(&g));
        g.try_play(rif("j10")).unwrap();
        assert!(white.can_undo(&g), "white moved first from the setup");
        assert!(!black.can_undo(&g), "only the computer's move so far");
        g.try_play(rif("g7")).unwrap();
        assert!(black.can_undo(&g));
    }
}
