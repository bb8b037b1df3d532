//! The `#[tauri::command]`s of the App IPC contract (docs/architecture.md): each one parses
//! its arguments, locks the state, and calls one method of the core (`wuzi-core`): of [`AppCore`]
//! itself or of the handle of its concern (`core.game()`, `core.search()`, `core.analysis()`,
//! `core.review()`, `core.clock()`).
//! Searches run on the blocking pool with only the engine locked.
//!
//! Tauri runs a command that is not `async` on the main thread, where it holds up the window.
//! Only commands that just read a field stay so; every command that changes the state (and so
//! queues a save), parses input or waits for the disk is `async` and does its work on the
//! blocking pool (`on_core`). The writes themselves happen on the save thread
//! (`saver.rs`), in the order of the changes; `save_now` waits for them there.

use std::sync::{Mutex, MutexGuard, PoisonError};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use tauri::ipc::{Channel, JavaScriptChannelId};
use tauri::{AppHandle, Manager, Runtime, State, Webview};

use wuzi_core::error::{Error, Result};
use wuzi_core::parts::analysis::AnalysisJob;
use wuzi_core::parts::engine::EngineSlot;
use wuzi_core::parts::opening::Choice;
use wuzi_core::parts::search::{SearchJob, SearchKind};
use wuzi_core::parts::setup::{SetupPlayers, SetupRequest};
use wuzi_core::settings::{Settings, Stats};
use wuzi_core::state::{AppCore, NewGameOptions, RecordFormat};
use wuzi_core::view::{AnalysisUpdate, AppState, GameView, Hint, ReviewProgress};

/// The state the commands share, registered with `.manage()`.
pub type Core = Mutex<AppCore>;

/// The engine, registered with `.manage()` apart from [`Core`] so a search holds only it.
pub type EngineState = Mutex<EngineSlot>;

/// The engine of the background work (analysis, and game review), apart from the one that
/// plays: an analysis never makes the computer's move or a hint wait for the engine, and its
/// tables never evict the game's.
#[derive(Debug)]
pub struct BackgroundEngine(pub Mutex<EngineSlot>);

/// A command argument that Tauri always accepts and the command checks, so a missing or
/// malformed argument is refused with `badArgument` in the contract's `{ code, message }` shape
/// rather than with Tauri's own string error.
#[derive(Debug)]
pub struct Arg<T>(std::result::Result<T, String>);

impl<T> Arg<T> {
    /// The value, or `badArgument`.
    ///
    /// # Errors
    /// [`Error::BadArgument`] if the argument was missing or malformed.
    pub fn get(self) -> Result<T> {
        self.0.map_err(Error::BadArgument)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Arg<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Arg<T>, D::Error> {
        // Tauri hands a missing key to `deserialize_option` as `None`.
        Ok(Arg(match Option::<serde_json::Value>::deserialize(d)? {
            None => Err("missing argument".to_string()),
            Some(value) => T::deserialize(value).map_err(|e| e.to_string()),
        }))
    }
}

/// Locks a mutex even if a panic poisoned it: every method leaves the state consistent before
/// anything can panic, so the data is still good.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `f` on the state on the blocking pool, never on the main thread.
async fn on_core<R: Runtime, T: Send + 'static>(
    app: AppHandle<R>,
    f: impl FnOnce(&mut AppCore) -> Result<T> + Send + 'static,
) -> Result<T> {
    tauri::async_runtime::spawn_blocking(move || f(&mut lock(&app.state::<Core>())))
        .await
        .unwrap_or_else(|e| {
            log::error!("a command panicked: {e}");
            Err(Error::Internal)
        })
}

/// Runs `work` on the blocking pool with the game's engine (or with `background`'s, for
/// analysis and review) locked; `None` if it panicked, the engine then being dropped
/// ([`EngineSlot::run`]).
async fn on_engine<R: Runtime, T: Send + 'static>(
    app: &AppHandle<R>,
    background: bool,
    work: impl FnOnce(&mut wuzi::Engine) -> T + Send + 'static,
) -> Option<T> {
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        let slot = if background {
            &app.state::<BackgroundEngine>().inner().0
        } else {
            app.state::<EngineState>().inner()
        };
        lock(slot).run(work)
    })
    .await
    .unwrap_or_else(|e| {
        log::error!("an engine task failed: {e}");
        None
    })
}

/// Everything the UI needs at start; the notice (e.g. a damaged save) is given once.
#[tauri::command]
pub fn get_state(core: State<'_, Core>) -> AppState {
    lock(&core).app_state()
}

/// Starts a new game with `options` (missing fields take the current settings).
#[tauri::command]
pub async fn new_game<R: Runtime>(
    app: AppHandle<R>,
    options: Arg<NewGameOptions>,
) -> Result<GameView> {
    let options = options.get()?;
    on_core(app, move |core| core.game().new_game(options)).await
}

/// The player's move at `point` (RIF) in the position `(gameId, moveNumber)` they saw.
#[tauri::command]
pub async fn play<R: Runtime>(
    app: AppHandle<R>,
    point: Arg<String>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
) -> Result<GameView> {
    let (point, game_id, move_number) = (point.get()?, game_id.get()?, move_number.get()?);
    on_core(app, move |core| {
        core.game().play(&point, game_id, move_number)
    })
    .await
}

/// Runs one search for the position `(game_id, move_number)` on the blocking pool (`run`) and
/// hands the job and its result to `finish` under the state lock.
async fn search<R: Runtime, A: Send + 'static, T: Send + 'static>(
    app: AppHandle<R>,
    kind: SearchKind,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
    run: fn(&SearchJob, &mut wuzi::Engine) -> A,
    finish: fn(&mut AppCore, &SearchJob, &A) -> Result<T>,
) -> Result<T> {
    let (game_id, move_number) = (game_id.get()?, move_number.get()?);
    let job = lock(&app.state::<Core>())
        .search()
        .begin(kind, game_id, move_number)?;
    let cancel = job.cancel_flag();
    let ran = on_engine(&app, false, move |engine| {
        let result = run(&job, engine);
        (job, result)
    })
    .await;
    let core = app.state::<Core>();
    let mut core = lock(&core);
    match ran {
        Some((job, result)) => finish(&mut core, &job, &result),
        None => {
            // The search panicked: free the slot so the next request is not refused as busy.
            core.search().abandon(&cancel);
            Err(Error::Cancelled)
        }
    }
}

/// The computer's reply for `(gameId, moveNumber)` (in a Swap / Swap2 opening phase: its
/// stones or its choice); rejected with `stale`/`cancelled` if the position changed or the
/// search was cancelled while it thought.
#[tauri::command]
pub async fn computer_move<R: Runtime>(
    app: AppHandle<R>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
) -> Result<GameView> {
    search(
        app,
        SearchKind::Move,
        game_id,
        move_number,
        SearchJob::play,
        |core, job, answer| core.search().finish_computer(job, answer),
    )
    .await
}

/// The player's choice in the Swap / Swap2 opening phase of `(gameId, moveNumber)`: `black`,
/// `white` or `placeTwo`.
#[tauri::command]
pub async fn choose_opening<R: Runtime>(
    app: AppHandle<R>,
    choice: Arg<Choice>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
) -> Result<GameView> {
    let (choice, game_id, move_number) = (choice.get()?, game_id.get()?, move_number.get()?);
    on_core(app, move |core| {
        core.game().choose_opening(choice, game_id, move_number)
    })
    .await
}

/// Stops the running search (the app went to the background, or the player lost patience).
#[tauri::command]
pub fn cancel_search(core: State<'_, Core>) {
    lock(&core).search().cancel();
}

/// Takes back the last move (against the computer: its reply and your move).
#[tauri::command]
pub async fn undo<R: Runtime>(app: AppHandle<R>) -> Result<GameView> {
    on_core(app, |core| Ok(core.game().undo())).await
}

/// Replays the last undone move (against the computer: and its reply).
#[tauri::command]
pub async fn redo<R: Runtime>(app: AppHandle<R>) -> Result<GameView> {
    on_core(app, |core| Ok(core.game().redo())).await
}

/// The engine's best move and verdict for the side to move in `(gameId, moveNumber)`.
#[tauri::command]
pub async fn hint<R: Runtime>(
    app: AppHandle<R>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
) -> Result<Hint> {
    search(
        app,
        SearchKind::Hint,
        game_id,
        move_number,
        SearchJob::run,
        |core, job, result| core.search().finish_hint(job, result),
    )
    .await
}

/// Starts analysing the position after the first `moveNumber` moves of game `gameId` (the
/// one on screen) and answers with the analysis' generation at once; its rounds arrive on
/// `onUpdate` until the position changes, `stop_analysis`, or the last round. The analysis
/// before it is cancelled.
#[tauri::command]
pub async fn start_analysis<R: Runtime>(
    app: AppHandle<R>,
    webview: Webview<R>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
    on_update: Arg<JavaScriptChannelId>,
) -> Result<u64> {
    let (game_id, move_number) = (game_id.get()?, move_number.get()?);
    let channel: Channel<AnalysisUpdate> = on_update.get()?.channel_on(webview);
    let job = on_core(app.clone(), move |core| {
        core.analysis().begin(game_id, move_number)
    })
    .await?;
    let generation = job.generation();
    // The rounds run detached: the command answers now, the updates come on the channel.
    tauri::async_runtime::spawn_blocking(move || {
        run_analysis(&app, &job, |update| channel.send(update).is_ok());
    });
    Ok(generation)
}

/// Runs `job`'s rounds with the background engine, handing each finished one to `send` while
/// it is still wanted; stops when the job is cancelled, `send` fails (the webview is gone) or
/// the rounds are done. The state is locked only to ask whether a round is still wanted.
pub fn run_analysis<R: Runtime>(
    app: &AppHandle<R>,
    job: &AnalysisJob,
    send: impl FnMut(AnalysisUpdate) -> bool,
) {
    let engine = app.state::<BackgroundEngine>();
    // A cancelled job ahead of this one still holds the engine for the moment its search
    // takes to notice.
    let mut engine = lock(&engine.0);
    job.run_rounds(
        &mut engine,
        |job| lock(&app.state::<Core>()).analysis().is_current(job),
        send,
    );
}

/// Turns analysis off: the running analysis stops and sends nothing more.
#[tauri::command]
pub fn stop_analysis(core: State<'_, Core>) {
    lock(&core).analysis().stop();
}

/// Reviews every move of game `gameId` as it stands (`moveNumber` moves) in the background,
/// with progress on `onProgress`, and answers with the game's view holding the finished review
/// (also kept in the save). Rejects `cancelled` after `cancel_review` or a change of the game.
#[tauri::command]
pub async fn start_review<R: Runtime>(
    app: AppHandle<R>,
    webview: Webview<R>,
    game_id: Arg<u64>,
    move_number: Arg<usize>,
    on_progress: Arg<JavaScriptChannelId>,
) -> Result<GameView> {
    let (game_id, move_number) = (game_id.get()?, move_number.get()?);
    let channel: Channel<ReviewProgress> = on_progress.get()?.channel_on(webview);
    let job = on_core(app.clone(), move |core| {
        core.review().begin(game_id, move_number)
    })
    .await?;
    let cancel = job.cancel_flag();
    let ran = on_engine(&app, true, move |engine| {
        let found = job.run(engine, |done, total| {
            // A webview that went away just stops hearing about it.
            let _ = channel.send(ReviewProgress {
                game_id,
                done,
                total,
            });
        });
        (job, found)
    })
    .await;
    let core = app.state::<Core>();
    let mut core = lock(&core);
    match ran {
        Some((job, found)) => core.review().finish(&job, &found),
        None => {
            core.review().abandon(&cancel);
            Err(Error::Cancelled)
        }
    }
}

/// Stops the running review; it answers `cancelled` and nothing is kept.
#[tauri::command]
pub fn cancel_review(core: State<'_, Core>) {
    lock(&core).review().cancel();
}

/// Pauses the game clock (`paused: true`: the app went to the background or a sheet opened)
/// or lets it run again; answers the game with its clock.
#[tauri::command]
pub async fn set_clock_paused<R: Runtime>(
    app: AppHandle<R>,
    paused: Arg<bool>,
) -> Result<GameView> {
    let paused = paused.get()?;
    on_core(app, move |core| Ok(core.clock().set_paused(paused))).await
}

/// The game as it stands on the clock: the UI asks when the time it shows for the side to
/// move runs out, and the flag falls here if it did.
#[tauri::command]
pub async fn check_clock<R: Runtime>(app: AppHandle<R>) -> Result<GameView> {
    on_core(app, |core| Ok(core.clock().check())).await
}

/// The game as `"moves"` (`h8 i9 g7`) or `"sgf"`.
#[tauri::command]
pub fn export_record(core: State<'_, Core>, format: Arg<RecordFormat>) -> Result<String> {
    let format = format.get()?;
    lock(&core).game().export_record(format)
}

/// Loads a move string or SGF as a new game.
#[tauri::command]
pub async fn import_record<R: Runtime>(app: AppHandle<R>, text: Arg<String>) -> Result<GameView> {
    let text = text.get()?;
    on_core(app, move |core| core.game().import_record(&text)).await
}

/// Checks a position set up in the editor without starting it: `null`, or `badSetup` naming
/// why the referee refuses it.
#[tauri::command]
pub async fn check_setup<R: Runtime>(app: AppHandle<R>, setup: Arg<SetupRequest>) -> Result<()> {
    let setup = setup.get()?;
    on_core(app, move |core| core.game().check_setup(&setup)).await
}

/// Starts a new game from a position set up in the editor, played by `players`.
#[tauri::command]
pub async fn start_setup<R: Runtime>(
    app: AppHandle<R>,
    setup: Arg<SetupRequest>,
    players: Arg<SetupPlayers>,
) -> Result<GameView> {
    let (setup, players) = (setup.get()?, players.get()?);
    on_core(app, move |core| core.game().start_setup(&setup, &players)).await
}

/// The settings.
#[tauri::command]
pub fn get_settings(core: State<'_, Core>) -> Settings {
    lock(&core).settings().clone()
}

/// Changes the settings named in `settings` (a full or partial object).
#[tauri::command]
pub async fn set_settings<R: Runtime>(
    app: AppHandle<R>,
    settings: Arg<serde_json::Value>,
) -> Result<Settings> {
    let patch = settings.get()?;
    on_core(app, move |core| core.set_settings(patch)).await
}

/// Wins, losses and draws per level.
#[tauri::command]
pub fn get_stats(core: State<'_, Core>) -> Stats {
    lock(&core).stats().clone()
}

/// Writes everything now (the UI calls it on `visibilitychange`/`pagehide`) and answers once
/// it is on disk: the state is snapshotted under the lock, the wait happens without it.
#[tauri::command]
pub async fn save_now<R: Runtime>(app: AppHandle<R>) -> Result<()> {
    let ticket = on_core(app, |core| core.save_now()).await?;
    tauri::async_runtime::spawn_blocking(move || ticket.wait())
        .await
        .map_err(|e| {
            log::error!("waiting for the save panicked: {e}");
            Error::Internal
        })?
        .map_err(Error::Io)
}

/// A short haptic tick for a placed stone, if the player allows vibration. Phones only; on the
/// desktop it does nothing, so the UI can call it everywhere.
#[tauri::command]
pub fn haptic_tick<R: Runtime>(app: AppHandle<R>, core: State<'_, Core>) {
    let wanted = lock(&core).vibration();
    #[cfg(mobile)]
    if wanted {
        use tauri_plugin_haptics::{HapticsExt, ImpactFeedbackStyle};
        // A device without a vibrator is not an error worth showing.
        let _ = app.haptics().impact_feedback(ImpactFeedbackStyle::Light);
    }
    #[cfg(not(mobile))]
    let _ = (app, wanted);
}

#[cfg(test)]
mod tests {
    /// Tauri runs a command that is not `async` on the main thread, where it holds up the
    /// window: only commands that just read memory may be plain (issue 11 §2).
    #[test]
    fn only_commands_that_read_memory_run_on_the_main_thread() {
        let mut lines = include_str!("commands.rs").lines();
        let mut plain = Vec::new();
        while let Some(line) = lines.next() {
            if line.trim() != "#[tauri::command]" {
                continue;
            }
            let signature = lines.next().expect("a function after the attribute").trim();
            let name = |rest: &str| rest.split(['(', '<']).next().unwrap_or("").to_string();
            match signature.strip_prefix("pub fn ") {
                Some(rest) => plain.push(name(rest)),
                None => assert!(signature.starts_with("pub async fn "), "{signature}"),
            }
        }
        plain.sort();
        assert_eq!(
            plain,
            [
                "cancel_review",
                "cancel_search",
                "export_record",
                "get_settings",
                "get_state",
                "get_stats",
                "haptic_tick",
                "stop_analysis"
            ]
        );
    }
}
