//! The Tauri 2 host of Wuzi: the app core (`wuzi-core`) behind IPC commands, its documents
//! as files on disk, and the window.
//!
//! The rules live in the engine and the app's logic in the core ([`wuzi_core::state::AppCore`],
//! tested without a webview); this crate gives the core what only a host has: the commands
//! (`commands`), the threads its jobs run on (Tauri's blocking pool), the data folder and the
//! save thread (`storage`, `saver`: the core's [`wuzi_core::store::Store`]).

#[macro_use]
mod command_list;
pub mod commands;
pub mod saver;
pub mod storage;

#[cfg(test)]
#[path = "../../core/src/import_graph.rs"]
mod import_graph;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use tauri::{Manager, Runtime};
use wuzi_core::parts::engine::EngineSlot;
use wuzi_core::state::AppCore;

use crate::commands::{BackgroundEngine, Core};
use crate::saver::Saver;
use crate::storage::{Storage, DATA_DIR_ENV};

/// Transposition-table size: phones have less memory to spare (32 MiB).
const TT_MIB: usize = if cfg!(mobile) { 32 } else { 64 };

/// The background engine's table (analysis, review): smaller, it lives beside the game's.
const BACKGROUND_TT_MIB: usize = if cfg!(mobile) { 16 } else { 32 };

/// Threads of the background engine: all cores but one, so the window (and the tap that
/// places a stone) always has a core while analysis runs.
fn background_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get().saturating_sub(1))
        .max(1)
}

/// The app's state at start: loaded from `override_dir` (`$WUZI_DATA_DIR`) if set, else from
/// `default_dir` (the platform's app data folder, if it could be resolved). Without a folder
/// that can be created the game is still playable, not saved, and the player is told so; there
/// is no shared fallback folder (such as `/tmp`) where another user or instance could read or
/// clobber the files.
#[must_use]
pub fn start_core(
    override_dir: Option<OsString>,
    default_dir: std::result::Result<PathBuf, String>,
) -> AppCore {
    let dir = match default_dir {
        Ok(default) => Ok(Storage::choose_dir(override_dir, default)),
        Err(e) => match override_dir {
            Some(dir) if !dir.is_empty() => Ok(dir.into()),
            _ => Err(format!("no app data folder: {e}")),
        },
    };
    let storage = dir.and_then(|dir| {
        Storage::open(&dir).map_err(|e| format!("cannot use {}: {e}", dir.display()))
    });
    match storage {
        Ok(storage) => AppCore::load(Saver::new(storage)),
        Err(why) => {
            log::error!("{why}; playing without saving");
            AppCore::unsaved()
        }
    }
}

/// `generate_handler!` for the commands `src/command_list.rs` lists.
macro_rules! handler {
    ($($name:ident),* $(,)?) => {
        tauri::generate_handler![$(commands::$name),*]
    };
}

/// Registers the plugins, the engine, the commands and the state loading on `builder`.
///
/// The saved state is loaded in `setup` (the data folder is known only then) unless the caller
/// already managed a [`Core`], as tests do.
pub fn run_app<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    #[cfg(mobile)]
    let builder = builder.plugin(tauri_plugin_haptics::init());
    builder
        .manage(Mutex::new(EngineSlot::new(TT_MIB)))
        .manage(BackgroundEngine(Mutex::new(EngineSlot::with_threads(
            BACKGROUND_TT_MIB,
            background_threads(),
        ))))
        .setup(|app| {
            if app.try_state::<Core>().is_none() {
                let default_dir = app.path().app_data_dir().map_err(|e| e.to_string());
                let core = start_core(std::env::var_os(DATA_DIR_ENV), default_dir);
                app.manage(Mutex::new(core));
            }
            Ok(())
        })
        .invoke_handler(app_commands!(handler))
}

/// Ends the app through its normal exit (the `RunEvent::Exit` below, which writes the queued
/// saves) on SIGTERM, SIGINT or SIGHUP: a logout, a `kill`, Ctrl+C in a terminal. Left to
/// their default, these signals end the process at once and the last save can be lost.
#[cfg(all(unix, desktop))]
fn exit_on_signals<R: Runtime>(app: tauri::AppHandle<R>) {
    use tokio::signal::unix::{signal, SignalKind};
    tauri::async_runtime::spawn(async move {
        let streams = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
            signal(SignalKind::hangup()),
        );
        let (Ok(mut term), Ok(mut int), Ok(mut hup)) = streams else {
            log::error!("no signal handlers: a kill would end the app before its last save");
            return;
        };
        let name = tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
            _ = hup.recv() => "SIGHUP",
        };
        log::info!("{name}: writing the saves and exiting");
        app.exit(0);
    });
}

/// Runs the app (desktop `main`, and the entry point of the mobile library).
///
/// # Panics
/// If the window system cannot start; there is nothing else to fall back to.
#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    // The log plugin installs the process's one logger, so it is registered here and not in
    // `run_app`, which the tests call once per mock app. Its default targets: stdout (on
    // Android logcat, on iOS the system log) and a file in the app's log folder.
    let logs = tauri_plugin_log::Builder::new()
        .level(log::LevelFilter::Info)
        .build();
    let app = run_app(tauri::Builder::default().plugin(logs))
        .build(tauri::generate_context!())
        .expect("error while building the Wuzi app");
    #[cfg(all(unix, desktop))]
    exit_on_signals(app.handle().clone());
    app.run(|app, event| {
        if let tauri::RunEvent::Exit = event {
            // Saves are written by a thread of their own; the last ones must reach the
            // disk before the process ends.
            let core = app.try_state::<Core>();
            let ticket =
                core.and_then(|c| c.lock().unwrap_or_else(PoisonError::into_inner).flush());
            if let Some(ticket) = ticket {
                if let Err(e) = ticket.wait() {
                    log::error!("the last save before exit failed: {e}");
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    //! The IPC layer through Tauri's mock runtime: command names, camelCase arguments, reply
    //! shapes and the `{ code, message }` errors, as the webview sees them.

    use super::*;
    use crate::storage::tests::TempDir;
    use serde_json::{json, Value};
    use tauri::ipc::{CallbackFn, InvokeBody};
    use tauri::test::{get_ipc_response, mock_builder, INVOKE_KEY};
    use tauri::webview::InvokeRequest;
    use tauri::WebviewWindow;
    use wuzi_core::state::{NewGameOptions, NOTICE_NOT_SAVED};
    use wuzi_core::store::GAME_FILE;

    fn app(
        dir: &TempDir,
    ) -> (
        tauri::App<tauri::test::MockRuntime>,
        WebviewWindow<tauri::test::MockRuntime>,
    ) {
        let core = AppCore::load(Saver::new(Storage::open(&dir.0).unwrap()));
        let app = run_app(mock_builder().manage(Mutex::new(core)))
            // The real context, so the real capabilities decide what the window may call.
            .build(tauri::generate_context!())
            .unwrap();
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();
        (app, webview)
    }

    fn invoke(
        webview: &WebviewWindow<tauri::test::MockRuntime>,
        cmd: &str,
        args: Value,
    ) -> Result<Value, Value> {
        get_ipc_response(
            webview,
            InvokeRequest {
                cmd: cmd.into(),
                callback: CallbackFn(0),
                error: CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: InvokeBody::Json(args),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            },
        )
        .map(|body| body.deserialize::<Value>().unwrap())
    }

    #[test]
    fn commands_speak_the_contract() {
        let dir = TempDir::new("ipc");
        let (_app, w) = app(&dir);
        let state = invoke(&w, "get_state", json!({})).unwrap();
        assert_eq!(state["game"]["gameId"], 1);
        assert_eq!(state["notices"], serde_json::json!([]));

        let v = invoke(
            &w,
            "play",
            json!({ "point": "h8", "gameId": 1, "moveNumber": 0 }),
        )
        .unwrap();
        assert_eq!(v["moves"], json!(["h8"]));
        assert_eq!(v["computerToMove"], true);

        let v = invoke(&w, "computer_move", json!({ "gameId": 1, "moveNumber": 1 })).unwrap();
        assert_eq!(v["moveNumber"], 2);
        assert_eq!(v["computerToMove"], false);

        let err = invoke(&w, "computer_move", json!({ "gameId": 1, "moveNumber": 1 })).unwrap_err();
        assert_eq!(err["code"], "stale");
        assert!(err["message"].is_string());

        let v = invoke(&w, "undo", json!({})).unwrap();
        assert_eq!(v["moveNumber"], 0);
        let hint = invoke(&w, "hint", json!({ "gameId": 1, "moveNumber": 0 })).unwrap();
        assert!(hint["point"].is_string(), "{hint}");
        let kinds = ["won", "wins", "even", "better", "winning"];
        assert!(
            kinds.contains(&hint["verdict"]["kind"].as_str().unwrap()),
            "{hint}"
        );
        assert!(hint["verdict"]["byFours"].is_boolean(), "{hint}");
        assert_eq!(
            (hint["gameId"].clone(), hint["moveNumber"].clone()),
            (json!(1), json!(0))
        );

        let s = invoke(
            &w,
            "set_settings",
            json!({ "settings": { "theme": "dark" } }),
        )
        .unwrap();
        assert_eq!(s["theme"], "dark");
        assert_eq!(
            invoke(&w, "get_settings", json!({})).unwrap()["theme"],
            "dark"
        );
        assert_eq!(
            invoke(&w, "get_stats", json!({})).unwrap()["levels"]
                .as_array()
                .unwrap()
                .len(),
            5
        );
        assert_eq!(invoke(&w, "save_now", json!({})).unwrap(), Value::Null);
        assert_eq!(invoke(&w, "cancel_search", json!({})).unwrap(), Value::Null);
        assert_eq!(invoke(&w, "haptic_tick", json!({})).unwrap(), Value::Null);
        let v = invoke(&w, "set_clock_paused", json!({ "paused": true })).unwrap();
        assert_eq!(v["clock"]["running"], false);
        // Undone to an empty board: the clock waits for the first stone.
        let v = invoke(&w, "set_clock_paused", json!({ "paused": false })).unwrap();
        assert_eq!(v["clock"]["running"], false);
        let v = invoke(&w, "check_clock", json!({})).unwrap();
        assert!(
            v["clock"]["moveMs"].is_array() && v["result"].is_null(),
            "{v}"
        );

        let v = invoke(
            &w,
            "new_game",
            json!({ "options": { "mode": "local", "rule": "renju", "size": 13, "level": 1, "humanColor": "black" } }),
        )
        .unwrap();
        assert_eq!(
            (v["gameId"].clone(), v["size"].clone(), v["mode"].clone()),
            (json!(2), json!(13), json!("local"))
        );
        invoke(
            &w,
            "play",
            json!({ "point": "g7", "gameId": 2, "moveNumber": 0 }),
        )
        .unwrap();
        let text = invoke(&w, "export_record", json!({ "format": "moves" })).unwrap();
        let v = invoke(&w, "import_record", json!({ "text": text })).unwrap();
        assert_eq!(
            (v["gameId"].clone(), v["moves"].clone()),
            (json!(3), json!(["g7"]))
        );
    }

    #[test]
    fn malformed_arguments_are_refused_as_bad_arguments_and_change_nothing() {
        let dir = TempDir::new("ipc-bad");
        let (_app, w) = app(&dir);
        let before = invoke(&w, "get_state", json!({})).unwrap();
        for (cmd, args) in [
            ("play", json!({ "point": 5, "gameId": 1, "moveNumber": 0 })),
            ("play", json!({ "gameId": 1, "moveNumber": 0 })),
            (
                "play",
                json!({ "point": "h8", "game_id": 1, "moveNumber": 0 }),
            ),
            (
                "play",
                json!({ "point": "h8", "gameId": -1, "moveNumber": 0 }),
            ),
            ("computer_move", json!({ "gameId": "1", "moveNumber": 0 })),
            ("new_game", json!({ "options": { "size": 99 } })),
            ("new_game", json!({ "options": "big" })),
            ("new_game", json!({})),
            ("export_record", json!({ "format": "pdf" })),
            ("import_record", json!({})),
            ("set_settings", json!({ "settings": { "level": "max" } })),
            (
                "set_settings",
                json!({ "settings": { "openingRule": "swap3" } }),
            ),
            (
                "choose_opening",
                json!({ "choice": "red", "gameId": 1, "moveNumber": 0 }),
            ),
            ("choose_opening", json!({ "gameId": 1, "moveNumber": 0 })),
            ("new_game", json!({ "options": { "openingRule": 2 } })),
            ("set_settings", json!({ "settings": { "clockMinutes": 3 } })),
            ("set_clock_paused", json!({})),
            ("set_clock_paused", json!({ "paused": "yes" })),
        ] {
            let err = invoke(&w, cmd, args.clone()).unwrap_err();
            assert_eq!(err["code"], "badArgument", "{cmd} {args}: {err}");
        }
        assert_eq!(invoke(&w, "get_state", json!({})).unwrap(), before);
        // A well-formed choice with no opening phase is refused as such.
        let err = invoke(
            &w,
            "choose_opening",
            json!({ "choice": "black", "gameId": 1, "moveNumber": 0 }),
        )
        .unwrap_err();
        assert_eq!(err["code"], "noChoiceDue");
        assert_eq!(invoke(&w, "get_state", json!({})).unwrap(), before);
    }

    #[test]
    fn a_set_up_position_is_checked_started_and_exported_over_the_ipc() {
        let dir = TempDir::new("ipc-setup");
        let (_app, w) = app(&dir);
        let before = invoke(&w, "get_state", json!({})).unwrap();
        let five = json!({ "rule": "freestyle", "size": 15, "black": ["d8", "e8", "f8", "g8", "h8"],
                           "white": ["a1"], "toMove": "white" });
        for cmd in ["check_setup", "start_setup"] {
            let err = invoke(
                &w,
                cmd,
                json!({ "setup": five, "players": { "mode": "local" } }),
            )
            .unwrap_err();
            assert_eq!(err["code"], "badSetup", "{cmd}: {err}");
            assert_eq!(err["reason"], "five");
            assert_eq!(err["color"], "black");
            assert_eq!(err["points"], json!(["d8", "e8", "f8", "g8", "h8"]));
        }
        for (cmd, args) in [
            ("check_setup", json!({})),
            (
                "check_setup",
                json!({ "setup": { "rule": "renju", "size": 15 } }),
            ),
            (
                "check_setup",
                json!({ "setup": { "rule": "renju", "size": 15, "black": ["h8"], "white": [],
                                   "toMove": "black", "extra": 1 } }),
            ),
            (
                "check_setup",
                json!({ "setup": { "rule": "go", "size": 15, "black": [], "white": [], "toMove": "black" } }),
            ),
            (
                "check_setup",
                json!({ "setup": { "rule": "renju", "size": 99, "black": [], "white": [], "toMove": "black" } }),
            ),
            (
                "check_setup",
                json!({ "setup": { "rule": "renju", "size": 15, "black": ["h8!"], "white": [], "toMove": "black" } }),
            ),
            ("start_setup", json!({ "setup": five })),
            (
                "start_setup",
                json!({ "setup": five, "players": { "mode": "both" } }),
            ),
        ] {
            let err = invoke(&w, cmd, args.clone()).unwrap_err();
            assert_eq!(err["code"], "badArgument", "{cmd} {args}: {err}");
        }
        assert_eq!(invoke(&w, "get_state", json!({})).unwrap(), before);

        let setup = json!({ "rule": "renju", "size": 15, "black": ["h8", "i9"], "white": ["h9"],
                            "toMove": "white" });
        assert_eq!(
            invoke(&w, "check_setup", json!({ "setup": setup })).unwrap(),
            Value::Null
        );
        assert_eq!(invoke(&w, "get_state", json!({})).unwrap(), before);
        let v = invoke(
            &w,
            "start_setup",
            json!({ "setup": setup, "players": { "mode": "computer", "humanColor": "black", "level": 1 } }),
        )
        .unwrap();
        assert_eq!(v["gameId"], 2);
        assert_eq!(v["moves"], json!([]));
        assert_eq!(v["toMove"], "white");
        assert_eq!(v["computerToMove"], true);
        assert_eq!(
            v["setup"],
            json!({ "black": ["i9", "h8"], "white": ["h9"], "toMove": "white" })
        );
        let err = invoke(&w, "export_record", json!({ "format": "moves" })).unwrap_err();
        assert_eq!(err["code"], "needsSgf");
        let sgf = invoke(&w, "export_record", json!({ "format": "sgf" })).unwrap();
        assert!(
            sgf.as_str().unwrap().contains("AB[ig][hh]AW[hg]PL[W]"),
            "{sgf}"
        );
        let v = invoke(&w, "import_record", json!({ "text": sgf })).unwrap();
        assert_eq!(v["setup"]["toMove"], "white");
        assert_eq!(v["gameId"], 3);
    }

    #[test]
    fn start_analysis_answers_its_generation_and_refuses_bad_arguments() {
        let dir = TempDir::new("ipc-analysis");
        let (_app, w) = app(&dir);
        let before = invoke(&w, "get_state", json!({})).unwrap();
        for args in [
            json!({ "gameId": 1, "moveNumber": 0 }),
            json!({ "gameId": 1, "moveNumber": 0, "onUpdate": "no channel" }),
            json!({ "gameId": 1, "moveNumber": "0", "onUpdate": "__CHANNEL__:7" }),
        ] {
            let err = invoke(&w, "start_analysis", args.clone()).unwrap_err();
            assert_eq!(err["code"], "badArgument", "{args}: {err}");
        }
        let err = invoke(
            &w,
            "start_analysis",
            json!({ "gameId": 1, "moveNumber": 1, "onUpdate": "__CHANNEL__:7" }),
        )
        .unwrap_err();
        assert_eq!(err["code"], "stale");
        assert_eq!(invoke(&w, "get_state", json!({})).unwrap(), before);

        let first = invoke(
            &w,
            "start_analysis",
            json!({ "gameId": 1, "moveNumber": 0, "onUpdate": "__CHANNEL__:7" }),
        )
        .unwrap();
        let second = invoke(
            &w,
            "start_analysis",
            json!({ "gameId": 1, "moveNumber": 0, "onUpdate": "__CHANNEL__:8" }),
        )
        .unwrap();
        assert!(second.as_u64().unwrap() > first.as_u64().unwrap());
        assert_eq!(invoke(&w, "stop_analysis", json!({})).unwrap(), Value::Null);
    }

    #[test]
    fn analysis_rounds_go_out_only_while_they_are_wanted() {
        let dir = TempDir::new("ipc-analysis-rounds");
        let (app, _w) = app(&dir);
        let handle = app.handle().clone();
        let core = app.state::<Core>();
        fn lock(c: &Core) -> std::sync::MutexGuard<'_, AppCore> {
            c.lock().unwrap_or_else(PoisonError::into_inner)
        }
        let (old, new) = {
            let mut c = lock(&core);
            let v = c
                .game()
                .new_game(NewGameOptions {
                    mode: Some(wuzi_core::settings::Mode::Local),
                    ..Default::default()
                })
                .unwrap();
            let v = c.game().play("h8", v.game_id, 0).unwrap();
            let old = c.analysis().begin(v.game_id, 1).unwrap();
            let new = c.analysis().begin(v.game_id, 1).unwrap();
            (old, new)
        };
        // The older generation sends nothing, not even a round already under way.
        let mut sent = Vec::new();
        commands::run_analysis(&handle, &old, |u| {
            sent.push(u);
            true
        });
        assert!(sent.is_empty());
        // The current one sends round after round until the receiver is gone.
        commands::run_analysis(&handle, &new, |u| {
            sent.push(u);
            sent.len() < 2
        });
        assert_eq!(
            sent.iter()
                .map(|u| (u.generation, u.move_number, u.round))
                .collect::<Vec<_>>(),
            [(new.generation(), 1, 1), (new.generation(), 1, 2)]
        );
        assert!(sent.iter().all(|u| u.lines.len() == 3 && u.nodes > 0));
        // A move between two rounds: the next round is cut short and never sent.
        let job = {
            let mut c = lock(&core);
            let v = c.view();
            c.analysis().begin(v.game_id, v.move_number).unwrap()
        };
        let mut rounds = 0;
        commands::run_analysis(&handle, &job, |_| {
            rounds += 1;
            let mut c = lock(&core);
            let v = c.view();
            c.game().play("j10", v.game_id, v.move_number).unwrap();
            true
        });
        assert_eq!(rounds, 1);
    }

    #[test]
    fn start_review_answers_the_reviewed_game_and_refuses_bad_arguments() {
        let dir = TempDir::new("ipc-review");
        let (_app, w) = app(&dir);
        invoke(&w, "new_game", json!({ "options": { "mode": "local" } })).unwrap();
        let v = invoke(
            &w,
            "play",
            json!({ "point": "h8", "gameId": 2, "moveNumber": 0 }),
        )
        .unwrap();
        assert_eq!(v["review"], Value::Null);
        for args in [
            json!({ "gameId": 2, "moveNumber": 1 }),
            json!({ "gameId": 2, "moveNumber": 1, "onProgress": 3 }),
            json!({ "gameId": "2", "moveNumber": 1, "onProgress": "__CHANNEL__:3" }),
        ] {
            let err = invoke(&w, "start_review", args.clone()).unwrap_err();
            assert_eq!(err["code"], "badArgument", "{args}: {err}");
        }
        let err = invoke(
            &w,
            "start_review",
            json!({ "gameId": 2, "moveNumber": 0, "onProgress": "__CHANNEL__:3" }),
        )
        .unwrap_err();
        assert_eq!(err["code"], "stale");
        let v = invoke(
            &w,
            "start_review",
            json!({ "gameId": 2, "moveNumber": 1, "onProgress": "__CHANNEL__:3" }),
        )
        .unwrap();
        assert_eq!(v["review"]["moves"][0]["point"], "h8", "{v}");
        assert_eq!(
            v["review"]["blackChances"].as_array().unwrap().len(),
            2,
            "{v}"
        );
        assert_eq!(
            invoke(&w, "get_state", json!({})).unwrap()["game"]["review"],
            v["review"]
        );
        assert_eq!(invoke(&w, "cancel_review", json!({})).unwrap(), Value::Null);
    }

    #[test]
    fn without_a_data_folder_the_game_is_played_unsaved_and_the_player_told() {
        let dir = TempDir::new("no-folder");
        let file = dir.0.join("a-file");
        std::fs::write(&file, b"").unwrap();
        for mut core in [
            // The platform named no data folder.
            start_core(None, Err("no home folder".into())),
            // The folder cannot be created (a file is in the way).
            start_core(None, Ok(file.join("data"))),
            start_core(Some(file.join("data").into()), Ok(dir.0.join("unused"))),
        ] {
            let state = core.app_state();
            assert_eq!(state.notices, vec![NOTICE_NOT_SAVED]);
            assert_eq!(
                core.app_state().notices,
                Vec::<&str>::new(),
                "the notice is given once"
            );
            // Playable, and every change is kept in memory.
            let v = core.game().play("h8", 1, 0).unwrap();
            assert_eq!(v.moves, ["h8"]);
            core.set_settings(json!({ "theme": "dark" })).unwrap();
            assert_eq!(core.game().undo().moves, Vec::<String>::new());
            assert_eq!(core.save_now().unwrap_err().code(), "io");
        }
        // Nothing was written anywhere it could be found again.
        let names: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
        assert_eq!(names.len(), 1);

        // The override is used even when the platform has no folder.
        let mut core = start_core(Some(dir.0.join("kept").into()), Err("none".into()));
        assert_eq!(core.app_state().notices, Vec::<&str>::new());
        core.game().play("h8", 1, 0).unwrap();
        core.save_now().unwrap().wait().unwrap();
        assert!(dir.0.join("kept").join(GAME_FILE).is_file());
    }

    /// The host's modules import each other without circles (`import_graph.rs`, the core's).
    #[test]
    fn the_hosts_modules_import_each_other_without_circles() {
        import_graph::check(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &[("crate", "commands"), ("saver", "storage")],
        );
    }

    #[test]
    fn only_the_main_window_may_call_the_commands() {
        let dir = TempDir::new("ipc-acl");
        let (app, _main) = app(&dir);
        let other = tauri::WebviewWindowBuilder::new(&app, "other", Default::default())
            .build()
            .unwrap();
        let err = invoke(&other, "get_state", json!({})).unwrap_err();
        assert!(err.to_string().contains("not allowed"), "{err}");
    }
}
