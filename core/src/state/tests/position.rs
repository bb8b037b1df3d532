//! The one path of a change of the position (`position.rs`), for every mutator.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::json;
use wuzi::{Color, Point, Rule};

use crate::parts::analysis::AnalysisJob;
use crate::parts::clock::TimeSource;
use crate::parts::opening::{Choice, OpeningRule};
use crate::parts::review::ReviewJob;
use crate::parts::search::{ComputerAnswer, OpeningAction, SearchKind};
use crate::parts::setup::{SetupPlayers, SetupRequest};
use crate::settings::Mode;
use crate::state::{AppCore, NewGameOptions};
use crate::store::MemoryStore;

use super::{answer, play, pos, timed_core_in, vs_computer, wait};

/// The background work running before a change: a hint search, an analysis job, a review.
struct Running {
    hint: Option<Arc<AtomicBool>>,
    analysis: AnalysisJob,
    review: Option<ReviewJob>,
}

/// Starts what can run in the current position (a hint only where the human is to move and no
/// other search runs, a review only with moves to review).
fn start_work(core: &mut AppCore, hint: bool) -> Running {
    let (id, n) = pos(core);
    let hint = hint.then(|| {
        core.search()
            .begin(SearchKind::Hint, id, n)
            .unwrap()
            .cancel_flag()
    });
    // The review first: it stops the analysis, which then starts again.
    let review = (n > 0).then(|| core.review().begin(id, n).unwrap());
    let analysis = core.analysis().begin(id, n).unwrap();
    Running {
        hint,
        analysis,
        review,
    }
}

/// What `name` must have done through the path: the search cancelled, the analysis job and
/// the review cancelled unless the stones stayed (`same_stones`), the clock synced with the
/// game and holding `clock_ms`, black's and white's time (the time each thought so far banked
/// or recorded for it, or a new game's fresh clock), and the game saved as it now stands, its
/// clock too.
fn after_change(
    core: &mut AppCore,
    dir: &MemoryStore,
    running: &Running,
    name: &str,
    same_stones: bool,
    clock_ms: (u64, u64),
) {
    if let Some(hint) = &running.hint {
        assert!(hint.load(Ordering::SeqCst), "{name}: the hint goes on");
    }
    assert_eq!(
        running.analysis.cancelled(),
        !same_stones,
        "{name}: the analysis job"
    );
    if let Some(review) = &running.review {
        assert_eq!(
            review.cancel_flag().load(Ordering::SeqCst),
            !same_stones,
            "{name}: the review"
        );
    }
    let v = core.view();
    let under_way = !v.moves.is_empty() || v.setup.is_some();
    assert_eq!(
        v.clock.running,
        under_way && v.result.is_none(),
        "{name}: the clock"
    );
    assert_eq!(
        (v.clock.black_ms, v.clock.white_ms),
        clock_ms,
        "{name}: the time on the clock"
    );
    core.flush().unwrap().wait().unwrap();
    // Loaded on a clock that stands still, so the saved time is read as it was written.
    let saved = AppCore::load_with_time(dir.clone(), TimeSource::fake().0).view();
    assert_eq!(
        (&saved.game_id, &saved.moves, &saved.swap, &saved.result),
        (&v.game_id, &v.moves, &v.swap, &v.result),
        "{name}: the save"
    );
    assert_eq!(
        (saved.clock.total_ms, &saved.clock.move_ms),
        (v.clock.total_ms, &v.clock.move_ms),
        "{name}: the saved clock"
    );
}

/// The set-up position of the `start_setup` case.
fn a_setup() -> SetupRequest {
    serde_json::from_value(json!({ "rule": "renju", "size": 15, "black": ["h8", "i9"],
        "white": ["h9"], "toMove": "white" }))
    .unwrap()
}

/// A new game between two players with `opening_rule`.
fn local_game(core: &mut AppCore, opening_rule: OpeningRule) {
    core.game()
        .new_game(NewGameOptions {
            mode: Some(Mode::Local),
            rule: Some(Rule::Freestyle),
            opening_rule: Some(opening_rule),
            ..Default::default()
        })
        .unwrap();
}

#[test]
fn every_change_of_the_position_runs_every_hook() {
    type Time = Arc<AtomicU64>;
    // Each mutator, from a position its case sets up; `true` where the stones stay.
    type Case = (
        &'static str,
        bool,
        fn(&mut AppCore),
        fn(&mut AppCore, &Time),
    );
    let cases: [Case; 10] = [
        (
            "play",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                play(c, "i9");
            },
        ),
        (
            "undo",
            false,
            |c| {
                play(c, "h8");
                play(c, "i9");
            },
            |c, _| {
                c.game().undo();
            },
        ),
        (
            "redo",
            false,
            |c| {
                play(c, "h8");
                play(c, "i9");
                c.game().undo();
            },
            |c, _| {
                c.game().redo();
            },
        ),
        (
            "new_game",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                c.game().new_game(NewGameOptions::default()).unwrap();
            },
        ),
        (
            "import_record",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                c.game().import_record("h8 i9 j10").unwrap();
            },
        ),
        (
            "start_setup",
            false,
            |c| {
                play(c, "h8");
            },
            |c, _| {
                let players = SetupPlayers {
                    mode: Mode::Local,
                    human_color: None,
                    level: None,
                };
                c.game().start_setup(&a_setup(), &players).unwrap();
            },
        ),
        (
            "finish_move",
            false,
            |c| {
                vs_computer(c, Color::Black);
                play(c, "h8");
            },
            |c, _| {
                let (id, n) = pos(c);
                let job = c.search().begin(SearchKind::Move, id, n).unwrap();
                c.search().finish_move(&job, &answer("i9", 15)).unwrap();
            },
        ),
        (
            "finish_opening",
            false,
            |c| {
                c.game()
                    .new_game(NewGameOptions {
                        mode: Some(Mode::Computer),
                        human_color: Some(Color::Black),
                        rule: Some(Rule::Freestyle),
                        opening_rule: Some(OpeningRule::Swap),
                        ..Default::default()
                    })
                    .unwrap();
                for p in ["h8", "h9", "i9"] {
                    play(c, p);
                }
            },
            |c, _| {
                let (id, n) = pos(c);
                let job = c.search().begin(SearchKind::Move, id, n).unwrap();
                let action = OpeningAction {
                    choice: Some(Choice::White),
                    stones: vec![Point::from_rif("j10", 15).unwrap()],
                };
                let answer = ComputerAnswer::Opening(Some(action));
                c.search().finish_computer(&job, &answer).unwrap();
            },
        ),
        (
            "choose_opening",
            true,
            |c| {
                local_game(c, OpeningRule::Swap);
                for p in ["h8", "h9", "i9"] {
                    play(c, p);
                }
            },
            |c, _| {
                let (id, n) = pos(c);
                c.game().choose_opening(Choice::White, id, n).unwrap();
            },
        ),
        (
            "check_flag",
            false,
            |c| {
                c.set_settings(json!({ "clockMinutes": 5 })).unwrap();
                local_game(c, OpeningRule::None);
                play(c, "h8");
            },
            |c, time| {
                wait(time, 300_001);
                assert!(c.clock().check_flag(), "the flag falls");
            },
        ),
    ];
    for (name, same_stones, before, change) in cases {
        let dir = MemoryStore::new();
        let (mut core, time) = timed_core_in(&dir);
        local_game(&mut core, OpeningRule::None);
        before(&mut core);
        // A hint can run whenever the human is to move and no choice is due.
        let v = core.view();
        let hint = !v.computer_to_move && v.swap.as_ref().map_or(true, |s| s.choices.is_empty());
        let running = start_work(&mut core, hint);
        // Whoever's time runs thinks for a second before the change: the path must keep that
        // time on the clock, unless the change brings a new game with a clock of its own.
        wait(&time, 1_000);
        let v = core.view();
        let at = time.load(Ordering::SeqCst);
        change(&mut core, &time);
        let waited = time.load(Ordering::SeqCst) - at;
        assert_ne!(core.view(), v, "{name} changed nothing");
        // Time that passed during the change counts up to what the side had left: past a
        // fallen flag it stops.
        let left = match v.clock.side {
            Some(Color::Black) => v.clock.black_left_ms,
            _ => v.clock.white_left_ms,
        };
        let thought = left.map_or(waited, |left| waited.min(left));
        let new_clock = matches!(name, "new_game" | "import_record" | "start_setup");
        let clock_ms = match v.clock.side {
            _ if new_clock => (0, 0),
            Some(Color::Black) => (v.clock.black_ms + thought, v.clock.white_ms),
            _ => (v.clock.black_ms, v.clock.white_ms + thought),
        };
        after_change(&mut core, &dir, &running, name, same_stones, clock_ms);
    }
}
