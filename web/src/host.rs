//! The browser's host of the app core: the commands of the App IPC contract
//! (docs/architecture.md) by name, with JSON arguments and replies, as the Web Worker
//! (`web/worker.js`) receives them from `ui/api.js`. Plain Rust, so it is tested natively.
//!
//! A worker has one thread, so the host runs the core's jobs itself: a search or a review
//! inside its command, an analysis one round per [`WebHost::step`], which the worker calls
//! between messages so that a move or `stop_analysis` gets in between two rounds. Lazy SMP
//! has no threads to use: both engines search with one.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wuzi_core::error::{Error, Result};
use wuzi_core::parts::analysis::{AnalysisJob, ROUND_BUDGETS_MS};
use wuzi_core::parts::engine::EngineSlot;
use wuzi_core::parts::search::{SearchJob, SearchKind};
use wuzi_core::state::AppCore;
use wuzi_core::store::Store;
use wuzi_core::view::ReviewProgress;

/// The game's engine table: a browser tab is given less memory than the desktop app (a phone's).
const TT_MIB: usize = 32;

/// The background engine's table (analysis, review).
const BACKGROUND_TT_MIB: usize = 16;

/// Where a command's stream goes (`onUpdate`, `onProgress`): the id of the page's channel and
/// the message.
pub type Sink<'a> = &'a mut dyn FnMut(u32, Value);

/// The analysis whose rounds are still to run.
#[derive(Debug)]
struct Rounds {
    job: AnalysisJob,
    channel: u32,
    next: usize,
}

/// The core, its two engines and the analysis under way.
#[derive(Debug)]
pub struct WebHost {
    core: AppCore,
    engine: EngineSlot,
    background: EngineSlot,
    analysis: Option<Rounds>,
}

/// A command's argument `name`, or `badArgument` if it is missing or malformed (as the Tauri
/// host's `Arg<T>`).
fn arg<T: DeserializeOwned>(args: &Value, name: &str) -> Result<T> {
    match args.get(name) {
        None | Some(Value::Null) => Err(Error::BadArgument(format!("missing argument {name}"))),
        Some(value) => T::deserialize(value).map_err(|e| Error::BadArgument(e.to_string())),
    }
}

/// The id of the channel the page passed as `name` (`__CHANNEL__:<id>`, as Tauri's).
fn channel(args: &Value, name: &str) -> Result<u32> {
    let text: String = arg(args, name)?;
    text.strip_prefix("__CHANNEL__:")
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| Error::BadArgument(format!("{name} is not a channel")))
}

fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The rejection as the page sees it: `{ code, message, … }`.
fn rejection(e: &Error) -> Value {
    json(e)
}

/// One method per command of the list (`src-tauri/src/command_list.rs`, included by
/// `lib.rs`), called by name: a command missing here does not compile.
macro_rules! dispatch {
    ($($name:ident),* $(,)?) => {
        impl WebHost {
            /// Runs the command `name` with `args`; its reply, or its rejection.
            ///
            /// # Errors
            /// The command's rejection as `{ code, message, … }`; an unknown command is a
            /// `badArgument`.
            pub fn call(&mut self, name: &str, args: &Value, send: Sink<'_>) -> std::result::Result<Value, Value> {
                let out = match name {
                    $(stringify!($name) => self.$name(args, send),)*
                    _ => Err(Error::BadArgument(format!("no command {name}"))),
                };
                out.map_err(|e| rejection(&e))
            }

            /// The commands, in the list's order.
            pub const COMMANDS: &'static [&'static str] = &[$(stringify!($name)),*];
        }
    };
}
app_commands!(dispatch);

impl WebHost {
    /// The core saved in `store` (a damaged document: a fresh part and a notice).
    #[must_use]
    pub fn new(store: impl Store + 'static) -> WebHost {
        WebHost {
            core: AppCore::load(store),
            engine: EngineSlot::with_threads(TT_MIB, 1),
            background: EngineSlot::with_threads(BACKGROUND_TT_MIB, 1),
            analysis: None,
        }
    }

    /// A core that saves nothing, with the notice saying so: the page has no storage.
    #[must_use]
    pub fn unsaved() -> WebHost {
        WebHost {
            core: AppCore::unsaved(),
            engine: EngineSlot::with_threads(TT_MIB, 1),
            background: EngineSlot::with_threads(BACKGROUND_TT_MIB, 1),
            analysis: None,
        }
    }

    /// Runs the next round of the analysis under way, sending it if it is still wanted;
    /// whether another round is to come.
    pub fn step(&mut self, send: Sink<'_>) -> bool {
        let Some(rounds) = &mut self.analysis else {
            return false;
        };
        let round = rounds.next;
        let wanted = self.core.analysis().is_current(&rounds.job);
        let found = if wanted {
            let job = &rounds.job;
            self.background.run(|e| job.run_round(e, round)).flatten()
        } else {
            None
        };
        match found {
            Some(update) if self.core.analysis().is_current(&rounds.job) => {
                send(rounds.channel, json(&update));
                rounds.next += 1;
                if rounds.next < ROUND_BUDGETS_MS.len() {
                    return true;
                }
            }
            _ => {}
        }
        self.analysis = None;
        false
    }

    /// Whether an analysis round is waiting for [`WebHost::step`].
    #[must_use]
    pub const fn analysing(&self) -> bool {
        self.analysis.is_some()
    }

    /// Runs a search for `(gameId, moveNumber)` on the game's engine and hands it back.
    fn search<A, T: Serialize>(
        &mut self,
        kind: SearchKind,
        args: &Value,
        run: fn(&SearchJob, &mut wuzi::Engine) -> A,
        finish: fn(&mut AppCore, &SearchJob, &A) -> Result<T>,
    ) -> Result<Value> {
        let (game_id, move_number) = (arg(args, "gameId")?, arg(args, "moveNumber")?);
        let job = self.core.search().begin(kind, game_id, move_number)?;
        let cancel: Arc<AtomicBool> = job.cancel_flag();
        match self.engine.run(|e| run(&job, e)) {
            Some(result) => finish(&mut self.core, &job, &result).map(|v| json(&v)),
            None => {
                self.core.search().abandon(&cancel);
                Err(Error::Cancelled)
            }
        }
    }

    fn get_state(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(&self.core.app_state()))
    }

    fn new_game(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let options = arg(args, "options")?;
        self.core.game().new_game(options).map(|v| json(&v))
    }

    fn play(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let point: String = arg(args, "point")?;
        let (game_id, move_number) = (arg(args, "gameId")?, arg(args, "moveNumber")?);
        self.core
            .game()
            .play(&point, game_id, move_number)
            .map(|v| json(&v))
    }

    fn computer_move(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        self.search(
            SearchKind::Move,
            args,
            SearchJob::play,
            |core, job, answer| core.search().finish_computer(job, answer),
        )
    }

    fn choose_opening(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let choice = arg(args, "choice")?;
        let (game_id, move_number) = (arg(args, "gameId")?, arg(args, "moveNumber")?);
        self.core
            .game()
            .choose_opening(choice, game_id, move_number)
            .map(|v| json(&v))
    }

    fn cancel_search(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        self.core.search().cancel();
        Ok(Value::Null)
    }

    fn undo(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(&self.core.game().undo()))
    }

    fn redo(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(&self.core.game().redo()))
    }

    fn hint(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        self.search(
            SearchKind::Hint,
            args,
            SearchJob::run,
            |core, job, result| core.search().finish_hint(job, result),
        )
    }

    fn export_record(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let format = arg(args, "format")?;
        self.core.game().export_record(format).map(Value::String)
    }

    fn import_record(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let text: String = arg(args, "text")?;
        self.core.game().import_record(&text).map(|v| json(&v))
    }

    fn get_settings(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(self.core.settings()))
    }

    fn set_settings(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let patch = arg(args, "settings")?;
        self.core.set_settings(patch).map(|s| json(&s))
    }

    fn get_stats(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(self.core.stats()))
    }

    fn save_now(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        self.core.save_now()?.wait().map_err(Error::Io)?;
        Ok(Value::Null)
    }

    /// No vibration from a web page the player did not ask for; the UI calls it everywhere.
    fn haptic_tick(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(Value::Null)
    }

    fn start_analysis(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let (game_id, move_number) = (arg(args, "gameId")?, arg(args, "moveNumber")?);
        let channel = channel(args, "onUpdate")?;
        let job = self.core.analysis().begin(game_id, move_number)?;
        let generation = job.generation();
        self.analysis = Some(Rounds {
            job,
            channel,
            next: 0,
        });
        Ok(json(&generation))
    }

    fn stop_analysis(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        self.core.analysis().stop();
        self.analysis = None;
        Ok(Value::Null)
    }

    fn start_review(&mut self, args: &Value, send: Sink<'_>) -> Result<Value> {
        let (game_id, move_number) = (arg(args, "gameId")?, arg(args, "moveNumber")?);
        let channel = channel(args, "onProgress")?;
        let job = self.core.review().begin(game_id, move_number)?;
        let cancel = job.cancel_flag();
        let found = self.background.run(|e| {
            job.run(e, |done, total| {
                send(
                    channel,
                    json(&ReviewProgress {
                        game_id,
                        done,
                        total,
                    }),
                );
            })
        });
        match found {
            Some(found) => self.core.review().finish(&job, &found).map(|v| json(&v)),
            None => {
                self.core.review().abandon(&cancel);
                Err(Error::Cancelled)
            }
        }
    }

    fn cancel_review(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        self.core.review().cancel();
        Ok(Value::Null)
    }

    fn set_clock_paused(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let paused = arg(args, "paused")?;
        Ok(json(&self.core.clock().set_paused(paused)))
    }

    fn check_clock(&mut self, _: &Value, _: Sink<'_>) -> Result<Value> {
        Ok(json(&self.core.clock().check()))
    }

    fn check_setup(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let setup = arg(args, "setup")?;
        self.core.game().check_setup(&setup).map(|()| Value::Null)
    }

    fn start_setup(&mut self, args: &Value, _: Sink<'_>) -> Result<Value> {
        let (setup, players) = (arg(args, "setup")?, arg(args, "players")?);
        self.core
            .game()
            .start_setup(&setup, &players)
            .map(|v| json(&v))
    }
}
