//! Analysis mode: one job at a time for the position shown, its rounds, an analysed game
//! counted apart.

use wuzi::{Color, Engine};

use crate::parts::analysis::ANALYSIS_LINES;
use crate::state::{AppCore, NewGameOptions};
use crate::store::{MemoryStore, GAME_FILE};

use super::{computer, core_in, fresh, play, pos, two_players, vs_computer};

#[test]
fn a_new_analysis_or_a_change_of_position_cancels_the_running_one() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    play(&mut core, "h8");
    let (id, n) = pos(&core);
    let first = core.analysis().begin(id, n).unwrap();
    assert!(core.analysis().is_current(&first));
    // Restarted (a review step, say): the old job is cancelled, its rounds are not wanted.
    let second = core.analysis().begin(id, 0).unwrap();
    assert!(second.generation() > first.generation());
    assert!(first.cancelled());
    assert!(
        !core.analysis().is_current(&first),
        "a stale generation is dropped"
    );
    assert!(core.analysis().is_current(&second));

    // Every change of the position stops the running job; analysis itself stays on.
    for change in ["play", "undo", "redo", "import", "computer"] {
        let (id, n) = pos(&core);
        let job = core.analysis().begin(id, n).unwrap();
        match change {
            "play" => {
                play(&mut core, "i9");
            }
            "undo" => {
                core.game().undo();
            }
            "redo" => {
                core.game().redo();
            }
            "import" => {
                core.game().import_record("h8 i9 g7").unwrap();
            }
            _ => {
                vs_computer(&mut core, Color::Black);
                play(&mut core, "h8");
                let (id, n) = pos(&core);
                let job = core.analysis().begin(id, n).unwrap();
                computer(&mut core, "i9");
                assert!(job.cancelled(), "{change}");
                continue;
            }
        }
        assert!(job.cancelled(), "{change}");
        assert!(!core.analysis().is_current(&job), "{change}");
        assert!(core.analysis().is_on(), "{change}");
    }

    // A new game and stop_analysis turn it off.
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    core.analysis().stop();
    assert!(job.cancelled() && !core.analysis().is_on());
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    core.game().new_game(NewGameOptions::default()).unwrap();
    assert!(job.cancelled() && !core.analysis().is_on());
}

#[test]
fn analysis_of_a_position_that_is_not_shown_is_refused_and_changes_nothing() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let running = core.analysis().begin(id, n).unwrap();
    let before = core.view();
    for (game_id, move_number, code) in [
        (id + 1, n, "stale"),
        (id - 1, 0, "stale"),
        (id, n + 1, "stale"),
        (id, usize::MAX, "stale"),
    ] {
        let err = core.analysis().begin(game_id, move_number).unwrap_err();
        assert_eq!(err.code(), code, "{game_id} {move_number}");
    }
    assert!(
        core.analysis().is_current(&running),
        "a refusal cancels nothing"
    );
    play(&mut core, "l8");
    let (id, n) = pos(&core);
    assert_eq!(core.analysis().begin(id, n).unwrap_err().code(), "gameOver");
    // The positions before the end (review) can still be analysed.
    assert!(core.analysis().begin(id, n - 1).is_ok());
    assert_eq!(core.view().moves.len(), before.moves.len() + 1);
}

#[test]
fn an_analysis_round_reports_the_lines_from_blacks_point_of_view() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    // White to move, facing black's open four: white is lost whatever it plays.
    for p in ["h8", "a1", "i8", "a2", "j8", "a4", "g8"] {
        play(&mut core, p);
    }
    let (id, n) = pos(&core);
    let job = core.analysis().begin(id, n).unwrap();
    let mut engine = Engine::new(4);
    let update = job.run_round(&mut engine, 0).expect("not cancelled");
    assert_eq!(
        (update.generation, update.game_id, update.move_number),
        (job.generation(), id, n)
    );
    assert_eq!((update.round, update.done), (1, false));
    assert_eq!(update.to_move, Color::White);
    assert!(!update.lines.is_empty() && update.lines.len() <= ANALYSIS_LINES);
    let mut points: Vec<_> = update.lines.iter().map(|l| l.point.clone()).collect();
    points.dedup();
    assert_eq!(points.len(), update.lines.len(), "distinct first moves");
    assert!(update.black_score > 20_000, "black wins: {update:?}");
    assert!(update.black_win > 0.99);
    let best = &update.lines[0];
    assert_eq!(best.black_score, -best.score);
    assert_eq!(best.verdict.kind, "wins");
    assert_eq!(best.verdict.color, Some(Color::Black));
    assert_eq!(best.pv.first(), Some(&best.point));
    assert!(update.nodes > 0 && update.depth > 0);

    // A cancelled job sends nothing.
    core.analysis().stop();
    assert_eq!(job.run_round(&mut engine, 1), None);
}

#[test]
fn a_game_played_on_with_analysis_is_counted_as_analysed_and_saved_so() {
    let dir = MemoryStore::new();
    let analysed = |core: &AppCore| core.stats().levels()[1].analysed;
    {
        let mut core = core_in(&dir);
        vs_computer(&mut core, Color::Black);
        play(&mut core, "h8");
        computer(&mut core, "a1");
        assert!(!core.view().analysed, "analysis is off by default");
        let (id, n) = pos(&core);
        core.analysis().begin(id, n).unwrap();
        play(&mut core, "i8");
        assert!(core.view().analysed);
        computer(&mut core, "a2");
        core.analysis().stop();
        core.save_now().unwrap().wait().unwrap();
    }
    let mut core = core_in(&dir);
    assert!(core.view().analysed, "kept in the save");
    for (human, reply) in [("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    let easy = core.stats().levels()[1];
    assert_eq!((easy.wins, easy.analysed), (1, 1));

    // Without analysis the next game counts plainly; two players are never counted.
    vs_computer(&mut core, Color::Black);
    for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
        play(&mut core, human);
        computer(&mut core, reply);
    }
    play(&mut core, "l8");
    assert_eq!((core.stats().levels()[1].wins, analysed(&core)), (2, 1));
}

#[test]
fn a_save_from_before_analysis_still_loads() {
    let dir = MemoryStore::new();
    dir.put(
        GAME_FILE,
        r#"{"version":1,"gameId":4,"mode":"computer","level":2,"humanColor":"black",
            "statsCounted":false,"gameUid":77,
            "game":{"version":1,"rule":"freestyle","size":15,"moves":["h8","i9"],"redo":[]}}"#,
    );
    let core = core_in(&dir);
    let v = core.view();
    assert_eq!((v.game_id, v.moves.len(), v.analysed), (4, 2, false));
}
