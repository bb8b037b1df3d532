//! The app's rules, tested on [`AppCore`] directly, one file per concern; the set-ups they
//! share are here.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use wuzi::{Color, Level, Point, Rule, SearchResult, Verdict};

use crate::error::Result;
use crate::parts::clock::TimeSource;
use crate::parts::opening::{Choice, OpeningRule};
use crate::parts::search::{OpeningAction, SearchKind};
use crate::parts::setup::{SetupPlayers, SetupRequest};
use crate::settings::{Mode, RenjuStart};
use crate::state::{AppCore, NewGameOptions};
use crate::store::MemoryStore;
use crate::view::GameView;

mod analysis;
mod clock;
mod game;
mod persist;
mod position;
mod records;
mod renju;
mod review;
mod search;
mod settings;
mod setup;
mod setup_rules;
mod swap;
mod swap_clock;
mod undo;

/// The state saved in `dir`, its clock standing still (tests compare views, which hold times).
fn core_in(dir: &MemoryStore) -> AppCore {
    timed_core_in(dir).0
}

/// The state saved in `dir` and the handle that moves its clock (milliseconds since load).
fn timed_core_in(dir: &MemoryStore) -> (AppCore, Arc<AtomicU64>) {
    let (time, ms) = TimeSource::fake();
    (AppCore::load_with_time(dir.clone(), time), ms)
}

/// The game on screen and its move number, as the UI sends them with each request.
fn pos(core: &AppCore) -> (u64, usize) {
    let v = core.view();
    (v.game_id, v.move_number)
}

/// Plays `point` as the human in the current position.
fn play(core: &mut AppCore, point: &str) -> GameView {
    let (id, n) = pos(core);
    core.game().play(point, id, n).unwrap()
}

/// A search result naming `best`, standing in for the engine where the test picks the
/// computer's moves itself.
fn answer(best: &str, size: u8) -> SearchResult {
    SearchResult {
        best: Some(Point::from_rif(best, size).unwrap()),
        score: 0,
        depth: 1,
        nodes: 1,
        pv: Vec::new(),
        verdict: Verdict::Eval {
            score: 0,
            to_move: Color::Black,
        },
        elapsed: Duration::ZERO,
    }
}

/// The computer answers `best` in the current position.
fn computer(core: &mut AppCore, best: &str) -> GameView {
    let (id, n) = pos(core);
    let job = core.search().begin(SearchKind::Move, id, n).unwrap();
    core.search().finish_move(&job, &answer(best, 15)).unwrap()
}

/// A new freestyle game against the computer (Easy) with the human playing `human`.
fn vs_computer(core: &mut AppCore, human: Color) {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Computer),
            rule: Some(Rule::Freestyle),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
            renju_opening: None,
            opening_rule: None,
        })
        .unwrap();
}

/// The computer's opening action: `choice`, then `stones`.
fn action(choice: Option<Choice>, stones: &[&str]) -> OpeningAction {
    OpeningAction {
        choice,
        stones: stones.iter().map(|s| pt(s)).collect(),
    }
}

/// The human makes `choice` in the opening phase of the current position.
fn choose(core: &mut AppCore, choice: Choice) -> Result<GameView> {
    let (id, n) = pos(core);
    core.game().choose_opening(choice, id, n)
}

/// A new freestyle game (Easy) with the opening rule `rule`.
fn swap_game(core: &mut AppCore, mode: Mode, rule: OpeningRule, human: Color) -> GameView {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(mode),
            rule: Some(Rule::Freestyle),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
            renju_opening: None,
            opening_rule: Some(rule),
        })
        .unwrap()
}

/// The players of a set-up position (Easy).
fn players(mode: Mode, human: Color) -> SetupPlayers {
    SetupPlayers {
        mode,
        human_color: Some(human),
        level: Some(Level::Easy),
    }
}

/// A new renju game that begins with `start`.
fn renju_from(core: &mut AppCore, mode: Mode, human: Color, start: RenjuStart) -> GameView {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(mode),
            rule: Some(Rule::Renju),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
            renju_opening: Some(start),
            opening_rule: None,
        })
        .unwrap()
}

/// An editor's request for a 15×15 position of `rule`.
fn setup_request(rule: Rule, black: &[&str], white: &[&str], to_move: Color) -> SetupRequest {
    SetupRequest {
        rule,
        size: 15,
        black: black.iter().map(|s| (*s).to_string()).collect(),
        white: white.iter().map(|s| (*s).to_string()).collect(),
        to_move,
    }
}

/// The stage of the opening phase on screen.
fn stage(v: &GameView) -> &'static str {
    v.swap.as_ref().expect("a swap game").stage
}

/// Plays `point` as the human in the current position, refused or not.
fn try_play(core: &mut AppCore, point: &str) -> Result<GameView> {
    let (id, n) = pos(core);
    core.game().play(point, id, n)
}

/// Moves the fake clock on by `ms`.
fn wait(clock: &Arc<AtomicU64>, ms: u64) {
    clock.fetch_add(ms, Ordering::SeqCst);
}

/// A point of a 15×15 board.
fn pt(text: &str) -> Point {
    Point::from_rif(text, 15).unwrap()
}

/// A store and the state loaded from it, its clock standing still: how most tests begin.
fn fresh() -> (MemoryStore, AppCore) {
    let dir = MemoryStore::new();
    let core = core_in(&dir);
    (dir, core)
}

/// A new game between two players, its other options as the settings say.
fn two_players(core: &mut AppCore) -> GameView {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap()
}
