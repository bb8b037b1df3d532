//! The app's state and every rule of the shell, free of Tauri so it can be tested directly:
//! which requests are stale, who is to move, what undo takes back, what gets counted and saved.
//!
//! The webview layer (`commands.rs`) locks [`AppCore`] on the blocking pool, calls one method,
//! and for a search runs the returned [`SearchJob`] there too between
//! [`AppCore::begin_search`] and [`AppCore::finish_move`] / [`AppCore::finish_hint`], without
//! holding the lock meanwhile. Saving never happens under the lock either: a change queues a
//! snapshot for the [`Saver`]'s thread, in the order of the changes, and the newest one wins.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use wuzi::{Color, Engine, Game, Level, Limits, Point, Rule, SavedGame, SearchResult};

use crate::error::{Error, Result};
use crate::saver::{SaveTicket, Saver};
use crate::settings::{check_size, level_number, Mode, Outcome, Settings, Stats};
use crate::storage::{Loaded, Storage, GAME_FILE, SETTINGS_FILE, STATS_FILE};
use crate::view::{AppState, GameView, Hint, Session};

/// The state the commands share, registered with `.manage()`.
pub type Core = Mutex<AppCore>;

/// The engine, registered with `.manage()` apart from [`Core`] so a search holds only it.
pub type EngineState = Mutex<EngineSlot>;

/// The engine, created by the first search: its tables (tens of MiB, filled on creation) then
/// cost nothing at start-up and are built on the blocking pool, not on the main thread.
#[derive(Debug)]
pub struct EngineSlot {
    tt_mib: usize,
    engine: Option<Engine>,
}

impl EngineSlot {
    /// An empty slot for an engine with a `tt_mib` MiB transposition table.
    #[must_use]
    pub fn new(tt_mib: usize) -> EngineSlot {
        EngineSlot {
            tt_mib,
            engine: None,
        }
    }

    /// The engine, created on first use.
    pub fn get(&mut self) -> &mut Engine {
        self.engine.get_or_insert_with(|| Engine::new(self.tt_mib))
    }

    /// Drops the engine, so that the next search builds a fresh one: after a panic its
    /// tables may be half-written (`pbrain-wuzi` does the same).
    pub fn reset(&mut self) {
        self.engine = None;
    }

    /// Whether an engine has been built since the slot was made or reset.
    #[must_use]
    pub const fn is_built(&self) -> bool {
        self.engine.is_some()
    }
}

/// Told once after a start that found the saved game unusable (a code the UI translates).
pub const NOTICE_GAME_DAMAGED: &str = "gameDamaged";
/// Told once after a start that found the settings unusable.
pub const NOTICE_SETTINGS_DAMAGED: &str = "settingsDamaged";
/// Told once after a start without a usable data folder: the player can play, but nothing is
/// kept when the app closes.
pub const NOTICE_NOT_SAVED: &str = "notSaved";
/// Told once after a start that found the statistics unusable.
pub const NOTICE_STATS_DAMAGED: &str = "statsDamaged";

/// Hints always come from the strongest search (DESIGN.md: "the same engine's best move"),
/// whatever level the computer plays at; the lower levels are handicapped on purpose.
const HINT_LEVEL: Level = Level::Master;

/// The options of `new_game`; a missing field takes the current setting.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewGameOptions {
    /// Against the computer or two players.
    pub mode: Option<Mode>,
    /// The rule.
    pub rule: Option<Rule>,
    /// The board size.
    pub size: Option<u8>,
    /// The computer's level, 1..=5.
    #[serde(default, with = "optional_level")]
    pub level: Option<Level>,
    /// The human's colour against the computer.
    pub human_color: Option<Color>,
}

mod optional_level {
    use serde::{Deserialize, Deserializer};
    use wuzi::Level;

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "crate::settings::level_number")] Level);
        Ok(Option::<Wrap>::deserialize(d)?.map(|Wrap(l)| l))
    }
}

/// The record formats of `export_record`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// `h8 i9 g7 …`
    Moves,
    /// Smart Game Format, `GM[4]`.
    Sgf,
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// The computer's reply, played when it arrives.
    Move,
    /// Advice for the side to move, only reported.
    Hint,
}

/// A search to run off the lock: a copy of the position and everything the engine needs.
#[derive(Debug)]
pub struct SearchJob {
    game: Game,
    level: Level,
    limits: Limits,
    seed: u64,
    cancel: Arc<AtomicBool>,
    game_id: u64,
    move_number: usize,
}

impl SearchJob {
    /// The flag that cancels this search, for [`AppCore::abandon_search`].
    #[must_use]
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Runs the search; returns early (with the best move so far) once cancelled.
    pub fn run(&self, engine: &mut Engine) -> SearchResult {
        engine.search(&self.game, self.level, self.limits, &self.cancel, self.seed)
    }
}

/// The game file: the engine's save format plus who plays it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SavedSession {
    version: u32,
    game_id: u64,
    mode: Mode,
    #[serde(with = "level_number")]
    level: Level,
    human_color: Color,
    stats_counted: bool,
    /// Absent from saves before issue 11 §3: such a game gets a fresh one when loaded.
    #[serde(default)]
    game_uid: u64,
    game: SavedGame,
}

const SESSION_VERSION: u32 = 1;

impl SavedSession {
    fn new(game: &Game, s: &Session) -> SavedSession {
        SavedSession {
            version: SESSION_VERSION,
            game_id: s.game_id,
            mode: s.mode,
            level: s.level,
            human_color: s.human_color,
            stats_counted: s.stats_counted,
            game_uid: s.game_uid,
            game: game.to_saved(),
        }
    }

    /// The game replayed through the referee, or `None` if the file describes no legal game.
    fn restore(self) -> Option<(Game, Session)> {
        if self.version != SESSION_VERSION {
            return None;
        }
        let game = Game::from_saved(&self.game).ok()?;
        let session = Session {
            game_id: self.game_id,
            mode: self.mode,
            level: self.level,
            human_color: self.human_color,
            stats_counted: self.stats_counted,
            game_uid: if self.game_uid == 0 {
                new_game_uid()
            } else {
                self.game_uid
            },
        };
        Some((game, session))
    }
}

/// Everything the commands work on.
#[derive(Debug)]
pub struct AppCore {
    game: Game,
    session: Session,
    settings: Settings,
    stats: Stats,
    /// Notice codes for the next `get_state` (given once).
    notices: Vec<&'static str>,
    /// The cancel flag of the running search, if any; at most one runs at a time.
    search: Option<Arc<AtomicBool>>,
    /// `None`: no data folder, nothing is saved (and the player was told).
    saver: Option<Saver>,
}

/// A game's [`Session::game_uid`]: 64 random bits, never 0 (0 means "none" in old saves).
fn new_game_uid() -> u64 {
    crate::storage::random_u64().max(1)
}

fn fresh_game(rule: Rule, size: u8) -> Game {
    // Sizes reach here only after `check_size`; 15 is the fallback the engine always accepts.
    Game::new(rule, size)
        .or_else(|_| Game::new(rule, 15))
        .expect("15 is a valid board size")
}

impl AppCore {
    /// The app's state at start: loaded from `override_dir` (`$WUZI_DATA_DIR`) if set, else
    /// from `default_dir` (the platform's app data folder, if it could be resolved). Without
    /// a folder that can be created the game is still playable, not saved, and the player is
    /// told so; there is no shared fallback folder (such as `/tmp`) where another user or
    /// instance could read or clobber the files.
    #[must_use]
    pub fn start(
        override_dir: Option<std::ffi::OsString>,
        default_dir: std::result::Result<std::path::PathBuf, String>,
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
            Ok(storage) => AppCore::load(storage),
            Err(why) => {
                log::error!("{why}; playing without saving");
                AppCore::unsaved()
            }
        }
    }

    /// A fresh state that is never saved, with [`NOTICE_NOT_SAVED`] for the player.
    #[must_use]
    pub fn unsaved() -> AppCore {
        let settings = Settings::default();
        AppCore {
            game: fresh_game(settings.rule, settings.size),
            session: Session {
                game_id: 1,
                mode: settings.mode,
                level: settings.level,
                human_color: settings.human_color,
                stats_counted: false,
                game_uid: new_game_uid(),
            },
            settings,
            stats: Stats::default(),
            notices: vec![NOTICE_NOT_SAVED],
            search: None,
            saver: None,
        }
    }

    /// The state saved in `storage`, or a fresh one; damaged files give a fresh part and a
    /// notice, never an error.
    #[must_use]
    pub fn load(storage: Storage) -> AppCore {
        let mut notices = Vec::new();
        let settings = match storage.load(SETTINGS_FILE, |s: Settings| {
            s.validate().is_ok().then_some(s)
        }) {
            Loaded::Found(s) => s,
            Loaded::Missing => Settings::default(),
            Loaded::Damaged => {
                notices.push(NOTICE_SETTINGS_DAMAGED);
                Settings::default()
            }
        };
        let stats = match storage.load(STATS_FILE, Some) {
            Loaded::Found(s) => s,
            Loaded::Missing => Stats::default(),
            Loaded::Damaged => {
                notices.push(NOTICE_STATS_DAMAGED);
                Stats::default()
            }
        };
        let saved = storage.load(GAME_FILE, SavedSession::restore);
        let damaged_game = matches!(saved, Loaded::Damaged);
        let (game, session) = match saved {
            Loaded::Found(found) => found,
            Loaded::Missing | Loaded::Damaged => {
                if damaged_game {
                    notices.push(NOTICE_GAME_DAMAGED);
                }
                let session = Session {
                    game_id: 1,
                    mode: settings.mode,
                    level: settings.level,
                    human_color: settings.human_color,
                    stats_counted: false,
                    game_uid: new_game_uid(),
                };
                (fresh_game(settings.rule, settings.size), session)
            }
        };
        let core = AppCore {
            game,
            session,
            settings,
            stats,
            notices,
            search: None,
            saver: Some(Saver::new(storage)),
        };
        if !core.notices.is_empty() {
            // Replace the damaged files now rather than at the first move.
            core.save(&[SETTINGS_FILE, STATS_FILE, GAME_FILE]);
        }
        core
    }

    /// The whole state for the UI's start; the notice is handed out once.
    pub fn app_state(&mut self) -> AppState {
        AppState {
            game: self.view(),
            settings: self.settings.clone(),
            stats: self.stats.clone(),
            notices: std::mem::take(&mut self.notices),
        }
    }

    /// The current game as the UI draws it.
    #[must_use]
    pub fn view(&self) -> GameView {
        GameView::new(&self.game, &self.session)
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The stats.
    #[must_use]
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Starts a new game; the options also become the defaults for the next one.
    ///
    /// # Errors
    /// [`Error::BadArgument`] for a size the engine does not play; nothing changes then.
    pub fn new_game(&mut self, options: NewGameOptions) -> Result<GameView> {
        let mut settings = self.settings.clone();
        settings.mode = options.mode.unwrap_or(settings.mode);
        settings.rule = options.rule.unwrap_or(settings.rule);
        settings.size = options.size.unwrap_or(settings.size);
        settings.level = options.level.unwrap_or(settings.level);
        settings.human_color = options.human_color.unwrap_or(settings.human_color);
        check_size(settings.size)?;

        self.cancel_search();
        self.game = fresh_game(settings.rule, settings.size);
        self.session = Session {
            game_id: self.session.game_id.wrapping_add(1),
            mode: settings.mode,
            level: settings.level,
            human_color: settings.human_color,
            stats_counted: false,
            game_uid: new_game_uid(),
        };
        if settings != self.settings {
            self.settings = settings;
            self.save_settings();
        }
        self.save_game();
        Ok(self.view())
    }

    fn check_position(&self, game_id: u64, move_number: usize) -> Result<()> {
        if game_id == self.session.game_id && move_number == self.game.moves().len() {
            Ok(())
        } else {
            Err(Error::Stale)
        }
    }

    fn parse_point(&self, text: &str) -> Result<Point> {
        let size = self.game.size();
        Point::from_rif(text, size).map_err(|e| match e {
            wuzi::ParsePointError::OffBoard { text, .. } => Error::OffBoard(text),
            other => Error::BadArgument(other.to_string()),
        })
    }

    /// The human plays `point` in the position `(game_id, move_number)` they saw.
    ///
    /// # Errors
    /// `stale` for an old position, `gameOver`, `notYourTurn` while the computer is to move,
    /// `badArgument` / `offBoard` / `occupied` / `forbidden` for the point. Nothing changes then.
    pub fn play(&mut self, point: &str, game_id: u64, move_number: usize) -> Result<GameView> {
        self.check_position(game_id, move_number)?;
        if self.game.result().is_some() {
            return Err(Error::GameOver);
        }
        if self.session.computer_to_move(&self.game) {
            return Err(Error::NotYourTurn);
        }
        let p = self.parse_point(point)?;
        let size = self.game.size();
        self.game
            .try_play(p)
            .map_err(|e| Error::from_play(e, size))?;
        // A hint for the previous position is of no use any more.
        self.cancel_search();
        self.after_move();
        Ok(self.view())
    }

    /// Registers a search for the position `(game_id, move_number)` and returns it to be run
    /// without the lock.
    ///
    /// # Errors
    /// `stale`, `gameOver`, `notYourTurn` (a move asked while the human is to move), `busy`
    /// while another search runs.
    pub fn begin_search(
        &mut self,
        kind: SearchKind,
        game_id: u64,
        move_number: usize,
    ) -> Result<SearchJob> {
        self.check_position(game_id, move_number)?;
        if self.game.result().is_some() {
            return Err(Error::GameOver);
        }
        if kind == SearchKind::Move && !self.session.computer_to_move(&self.game) {
            return Err(Error::NotYourTurn);
        }
        if self.search.is_some() {
            return Err(Error::Busy);
        }
        let level = match kind {
            SearchKind::Move => self.session.level,
            SearchKind::Hint => HINT_LEVEL,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        self.search = Some(Arc::clone(&cancel));
        Ok(SearchJob {
            game: self.game.clone(),
            level,
            limits: level.default_limits(),
            // Lower levels play with randomness; a fresh seed per search keeps games varied.
            seed: std::collections::hash_map::RandomState::new().hash_one((game_id, move_number)),
            cancel,
            game_id,
            move_number,
        })
    }

    /// Takes the finished `job` off the running slot; says whether its answer still applies.
    fn end_search(&mut self, job: &SearchJob) -> Result<()> {
        self.abandon_search(&job.cancel);
        if job.cancel.load(Ordering::SeqCst) {
            return Err(Error::Cancelled);
        }
        self.check_position(job.game_id, job.move_number)
    }

    /// Frees the running slot if it still holds this search (it may already be cancelled and
    /// replaced); the command layer calls it when a search failed to return at all.
    pub fn abandon_search(&mut self, job_cancel: &Arc<AtomicBool>) {
        if self
            .search
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, job_cancel))
        {
            self.search = None;
        }
    }

    /// Plays the computer's answer, if it is still wanted.
    ///
    /// # Errors
    /// `cancelled` if the search was cancelled, `stale` if the position changed meanwhile;
    /// nothing is played then.
    pub fn finish_move(&mut self, job: &SearchJob, result: &SearchResult) -> Result<GameView> {
        self.end_search(job)?;
        // The engine answers `None` only when no legal move is left, which the referee already
        // scores as a finished game.
        let best = result.best.ok_or(Error::GameOver)?;
        let size = self.game.size();
        self.game
            .try_play(best)
            .map_err(|e| Error::from_play(e, size))?;
        self.after_move();
        Ok(self.view())
    }

    /// Reports the hint, if it is still for the current position.
    ///
    /// # Errors
    /// `cancelled` or `stale` as for [`AppCore::finish_move`].
    pub fn finish_hint(&mut self, job: &SearchJob, result: &SearchResult) -> Result<Hint> {
        self.end_search(job)?;
        let size = self.game.size();
        Ok(Hint {
            point: result.best.map(|p| p.rif(size).to_string()),
            verdict: result.verdict.into(),
            score: result.score,
            game_id: job.game_id,
            move_number: job.move_number,
        })
    }

    /// Stops the running search, if any; its answer will be rejected as `cancelled`.
    pub fn cancel_search(&mut self) {
        if let Some(cancel) = self.search.take() {
            cancel.store(true, Ordering::SeqCst);
        }
    }

    /// Takes back the last move; against the computer, its reply and the human's move before it.
    pub fn undo(&mut self) -> GameView {
        if !self.session.can_undo(&self.game) {
            return self.view();
        }
        self.cancel_search();
        match self.session.mode {
            Mode::Local => {
                self.game.undo();
            }
            Mode::Computer => {
                while self.game.undo().is_some() {
                    // After an undo the side to move is the side that made the undone move.
                    if self.game.to_move() == self.session.human_color {
                        break;
                    }
                }
            }
        }
        self.save_game();
        self.view()
    }

    /// Replays the last undone move; against the computer, also the computer's reply after it.
    pub fn redo(&mut self) -> GameView {
        if !self.game.can_redo() {
            return self.view();
        }
        self.cancel_search();
        self.game.redo();
        if self.session.mode == Mode::Computer {
            while self.session.computer_to_move(&self.game) && self.game.redo().is_some() {}
        }
        self.after_move();
        self.view()
    }

    /// The game as a record.
    #[must_use]
    pub fn export_record(&self, format: RecordFormat) -> String {
        match format {
            RecordFormat::Moves => wuzi::notation::write_moves(&self.game),
            RecordFormat::Sgf => wuzi::notation::write_sgf(&self.game),
        }
    }

    /// Replaces the game by the one in `text` (a move string or SGF), as a new game. A move
    /// string (or an SGF without `RU`/`SZ`) is read under the current game's rule and size.
    ///
    /// # Errors
    /// [`Error::BadRecord`] if the text is not a record of a legal game; nothing changes then.
    pub fn import_record(&mut self, text: &str) -> Result<GameView> {
        let game = wuzi::notation::parse_record(text, self.game.rule(), self.game.size())
            .map_err(|e| Error::BadRecord(e.to_string()))?;
        self.cancel_search();
        self.session = Session {
            game_id: self.session.game_id.wrapping_add(1),
            // A finished record is history, not a game won against the computer now.
            stats_counted: game.result().is_some(),
            game_uid: new_game_uid(),
            ..self.session
        };
        self.game = game;
        self.save_game();
        Ok(self.view())
    }

    /// Changes the fields of the settings named in `patch`.
    ///
    /// # Errors
    /// [`Error::BadArgument`] for an unknown field or a bad value; nothing changes then.
    pub fn set_settings(&mut self, patch: serde_json::Value) -> Result<Settings> {
        let settings = self.settings.patched(patch)?;
        if settings != self.settings {
            self.settings = settings;
            self.save_settings();
        }
        Ok(self.settings.clone())
    }

    /// Whether the player wants haptic feedback.
    #[must_use]
    pub fn vibration(&self) -> bool {
        self.settings.vibration
    }

    /// Queues everything for writing and returns the ticket that waits until it is on disk.
    ///
    /// # Errors
    /// [`Error::Io`] if the app has no data folder and saves nothing.
    pub fn save_now(&self) -> Result<SaveTicket> {
        self.save(&[SETTINGS_FILE, STATS_FILE, GAME_FILE]);
        self.flush().ok_or_else(|| {
            Error::Io(std::io::Error::other(
                "saving is off: the app has no data folder",
            ))
        })
    }

    /// A ticket for the snapshots already queued (the app's exit waits for it); `None` when
    /// nothing is saved.
    #[must_use]
    pub fn flush(&self) -> Option<SaveTicket> {
        self.saver.as_ref().map(Saver::flush)
    }

    fn after_move(&mut self) {
        if let Some(result) = self.game.result() {
            if self.session.mode == Mode::Computer && !self.session.stats_counted {
                let outcome = match result.winner {
                    None => Outcome::Draw,
                    Some(c) if c == self.session.human_color => Outcome::Win,
                    Some(_) => Outcome::Loss,
                };
                self.session.stats_counted = true;
                let uid = self.session.game_uid;
                if self.stats.record_game(uid, self.session.level, outcome) {
                    // Stats first: a crash between the two writes leaves the count and an
                    // older game, whose replayed end `record_game` recognises; the other
                    // order would leave a game marked counted that the stats never counted.
                    self.save(&[STATS_FILE, GAME_FILE]);
                    return;
                }
            }
        }
        self.save_game();
    }

    fn save_game(&self) {
        self.save(&[GAME_FILE]);
    }

    fn save_settings(&self) {
        self.save(&[SETTINGS_FILE]);
    }

    /// Queues a snapshot of `files` for the save thread, written in this order. A failed write
    /// must not undo the move the player just made: the writer logs it, the next change of the
    /// file tries again, and `save_now` reports its own failure.
    fn save(&self, files: &[&'static str]) {
        let Some(saver) = &self.saver else { return };
        let batch = files
            .iter()
            .filter_map(|&name| {
                let json = match name {
                    SETTINGS_FILE => serde_json::to_vec_pretty(&self.settings),
                    STATS_FILE => serde_json::to_vec_pretty(&self.stats.to_file()),
                    GAME_FILE => {
                        serde_json::to_vec_pretty(&SavedSession::new(&self.game, &self.session))
                    }
                    _ => return None,
                };
                json.map_err(|e| log::error!("cannot write {name}: {e}"))
                    .ok()
                    .map(|bytes| (name, bytes))
            })
            .collect();
        saver.queue(batch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::tests::TempDir;
    use serde_json::json;
    use std::time::Duration;
    use wuzi::Verdict;

    fn core_in(dir: &TempDir) -> AppCore {
        AppCore::load(Storage::open(&dir.0).unwrap())
    }

    fn pos(core: &AppCore) -> (u64, usize) {
        let v = core.view();
        (v.game_id, v.move_number)
    }

    /// Plays `point` as the human in the current position.
    fn play(core: &mut AppCore, point: &str) -> GameView {
        let (id, n) = pos(core);
        core.play(point, id, n).unwrap()
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
        let job = core.begin_search(SearchKind::Move, id, n).unwrap();
        core.finish_move(&job, &answer(best, 15)).unwrap()
    }

    fn vs_computer(core: &mut AppCore, human: Color) {
        core.new_game(NewGameOptions {
            mode: Some(Mode::Computer),
            rule: Some(Rule::Freestyle),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(human),
        })
        .unwrap();
    }

    #[test]
    fn a_reset_engine_slot_builds_a_fresh_engine() {
        let mut slot = EngineSlot::new(1);
        assert!(!slot.is_built());
        slot.get().set_threads(3);
        assert!(slot.is_built());
        slot.reset();
        assert!(!slot.is_built());
        assert_eq!(slot.get().threads(), 0, "a new engine, not the old one");
    }

    #[test]
    fn black_without_a_legal_point_ends_the_game_as_a_draw() {
        let dir = TempDir::new("no-legal-move");
        let mut core = core_in(&dir);
        core.new_game(NewGameOptions {
            mode: Some(Mode::Computer),
            rule: Some(Rule::Renju),
            size: Some(15),
            level: Some(Level::Easy),
            human_color: Some(Color::Black),
        })
        .unwrap();
        let text = include_str!("../../tests/fixtures/renju-no-legal-move.txt");
        let moves: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect();
        let mut view = core.view();
        for pair in moves.chunks(2) {
            play(&mut core, pair[0]);
            view = computer(&mut core, pair[1]);
        }
        let result = view.result.expect("the computer's last move ends the game");
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"winner": null, "reason": "no-legal-move", "line": []})
        );
        assert!(!view.computer_to_move);
        let easy = core.stats().levels()[1];
        assert_eq!((easy.wins, easy.losses, easy.draws), (0, 0, 1));
        // The saved game reloads as the same draw.
        core.save_now().unwrap().wait().unwrap();
        let reloaded = core_in(&dir).view();
        assert_eq!(reloaded.result.map(|r| r.reason), Some("no-legal-move"));
    }

    #[test]
    fn without_a_data_folder_the_game_is_played_unsaved_and_the_player_told() {
        let dir = TempDir::new("no-folder");
        let file = dir.0.join("a-file");
        std::fs::write(&file, b"").unwrap();
        for mut core in [
            // The platform named no data folder.
            AppCore::start(None, Err("no home folder".into())),
            // The folder cannot be created (a file is in the way).
            AppCore::start(None, Ok(file.join("data"))),
            AppCore::start(Some(file.join("data").into()), Ok(dir.0.join("unused"))),
        ] {
            let state = core.app_state();
            assert_eq!(state.notices, vec![NOTICE_NOT_SAVED]);
            assert_eq!(
                core.app_state().notices,
                Vec::<&str>::new(),
                "the notice is given once"
            );
            // Playable, and every change is kept in memory.
            let v = play(&mut core, "h8");
            assert_eq!(v.moves, ["h8"]);
            core.set_settings(json!({ "theme": "dark" })).unwrap();
            assert_eq!(core.undo().moves, Vec::<String>::new());
            assert_eq!(core.save_now().unwrap_err().code(), "io");
        }
        // Nothing was written anywhere it could be found again.
        let names: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
        assert_eq!(names.len(), 1);

        // The override is used even when the platform has no folder.
        let mut core = AppCore::start(Some(dir.0.join("kept").into()), Err("none".into()));
        assert_eq!(core.app_state().notices, Vec::<&str>::new());
        play(&mut core, "h8");
        core.save_now().unwrap().wait().unwrap();
        assert!(dir.0.join("kept").join(GAME_FILE).is_file());
    }

    #[test]
    fn a_first_start_is_a_fresh_game_from_the_default_settings() {
        let dir = TempDir::new("first-start");
        let mut core = core_in(&dir);
        let state = core.app_state();
        assert!(state.notices.is_empty());
        assert_eq!(state.settings, Settings::default());
        let v = state.game;
        assert_eq!((v.game_id, v.move_number, v.size), (1, 0, 15));
        assert_eq!(
            (v.mode, v.level, v.human_color),
            (Mode::Computer, Level::Easy, Color::Black)
        );
        assert!(!v.computer_to_move && !v.can_undo && !v.can_redo && v.result.is_none());
    }

    #[test]
    fn the_view_matches_the_ipc_contract() {
        let dir = TempDir::new("contract");
        let mut core = core_in(&dir);
        play(&mut core, "h8");
        let v = serde_json::to_value(core.view()).unwrap();
        assert_eq!(
            v,
            json!({
                "gameId": 1, "moveNumber": 1, "size": 15, "rule": "freestyle", "mode": "computer",
                "level": 2, "humanColor": "black", "moves": ["h8"], "toMove": "white",
                "result": null, "forbidden": [], "canUndo": true, "canRedo": false,
                "computerToMove": true
            })
        );
    }

    #[test]
    fn bad_requests_change_nothing() {
        let dir = TempDir::new("bad-requests");
        let mut core = core_in(&dir);
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
        play(&mut core, "h8");
        let before = core.view();
        let (id, n) = pos(&core);
        let code = |r: Result<GameView>| r.unwrap_err().code();
        assert_eq!(code(core.play("h9", id, n - 1)), "stale");
        assert_eq!(code(core.play("h9", id + 1, n)), "stale");
        assert_eq!(code(core.play("zz", id, n)), "badArgument");
        assert_eq!(code(core.play("", id, n)), "badArgument");
        assert_eq!(code(core.play("p1", id, n)), "offBoard");
        assert_eq!(code(core.play("h8", id, n)), "occupied");
        let size4 = core.new_game(NewGameOptions {
            size: Some(4),
            ..NewGameOptions::default()
        });
        assert_eq!(code(size4), "badArgument");
        assert_eq!(code(core.import_record("h8 h8")), "badRecord");
        assert_eq!(core.view(), before);
        assert_eq!(core.settings().size, 15);
    }

    #[test]
    fn errors_quote_little_of_huge_input() {
        let dir = TempDir::new("huge-input");
        let mut core = core_in(&dir);
        let (id, n) = pos(&core);
        let huge = "\u{1b}q".repeat(50_000);
        let sgf = format!("(;GM[4]SZ[{huge}];B[hh])");
        let rule = format!("(;GM[4]RU[{huge}];B[hh])");
        let errors = [
            core.play(&huge, id, n).unwrap_err(),
            core.import_record(&huge).unwrap_err(),
            core.import_record(&format!("h8 {huge}")).unwrap_err(),
            core.import_record(&sgf).unwrap_err(),
            core.import_record(&rule).unwrap_err(),
            core.set_settings(json!({ huge.clone(): 1 })).unwrap_err(),
        ];
        for e in errors {
            let wire = serde_json::to_string(&e).unwrap();
            assert!(wire.len() < 1_000, "{} bytes: {:.300}", wire.len(), wire);
        }
        assert_eq!(core.view().moves.len(), 0);
    }

    #[test]
    fn renju_refuses_forbidden_points_and_lists_them() {
        let dir = TempDir::new("renju");
        let mut core = core_in(&dir);
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            rule: Some(Rule::Renju),
            ..NewGameOptions::default()
        })
        .unwrap();
        // Black f8 g8 on the row and h9 h10 on the column: h8 would make two open threes.
        for p in ["f8", "a1", "g8", "a3", "h9", "a5", "h10", "a7"] {
            play(&mut core, p);
        }
        let v = core.view();
        let h8 = v
            .forbidden
            .iter()
            .find(|f| f.point == "h8")
            .expect("h8 is listed as forbidden");
        assert_eq!(h8.reason, "double-three");
        let (id, n) = pos(&core);
        let err = core.play("h8", id, n).unwrap_err();
        assert_eq!(err.code(), "forbidden");
        assert_eq!(core.view(), v);
    }

    #[test]
    fn the_computer_moves_only_on_its_turn_and_one_search_at_a_time() {
        let dir = TempDir::new("turns");
        let mut core = core_in(&dir);
        let (id, n) = pos(&core);
        assert_eq!(
            core.begin_search(SearchKind::Move, id, n)
                .unwrap_err()
                .code(),
            "notYourTurn"
        );
        play(&mut core, "h8");
        let (id, n) = pos(&core);
        assert_eq!(core.play("h9", id, n).unwrap_err().code(), "notYourTurn");
        let job = core.begin_search(SearchKind::Move, id, n).unwrap();
        assert_eq!(
            core.begin_search(SearchKind::Hint, id, n)
                .unwrap_err()
                .code(),
            "busy"
        );
        let v = core.finish_move(&job, &answer("i9", 15)).unwrap();
        assert_eq!(v.moves, ["h8", "i9"]);
        assert!(!v.computer_to_move);
        // The slot is free again.
        let hint = core.begin_search(SearchKind::Hint, v.game_id, 2).unwrap();
        let h = core.finish_hint(&hint, &answer("g7", 15)).unwrap();
        assert_eq!(
            (h.point.as_deref(), h.game_id, h.move_number),
            (Some("g7"), v.game_id, 2)
        );
    }

    #[test]
    fn a_late_answer_for_an_old_position_is_dropped() {
        let dir = TempDir::new("late");
        let mut core = core_in(&dir);
        play(&mut core, "h8");
        let (id, n) = pos(&core);

        // Undo while the computer thinks: the search is cancelled and its answer refused.
        let job = core.begin_search(SearchKind::Move, id, n).unwrap();
        core.undo();
        assert!(job.cancel.load(Ordering::SeqCst), "undo stops the search");
        let err = core.finish_move(&job, &answer("i9", 15)).unwrap_err();
        assert_eq!(err.code(), "cancelled");
        assert_eq!(core.view().moves, Vec::<String>::new());

        // A new game while it thinks.
        play(&mut core, "h8");
        let (id, n) = pos(&core);
        let job = core.begin_search(SearchKind::Move, id, n).unwrap();
        core.new_game(NewGameOptions::default()).unwrap();
        assert_eq!(
            core.finish_move(&job, &answer("i9", 15))
                .unwrap_err()
                .code(),
            "cancelled"
        );
        assert_eq!(core.view().move_number, 0);

        // A request for a position that is not the current one never starts.
        play(&mut core, "h8");
        let (id, n) = pos(&core);
        assert_eq!(
            core.begin_search(SearchKind::Move, id - 1, n)
                .unwrap_err()
                .code(),
            "stale"
        );
        assert_eq!(
            core.begin_search(SearchKind::Move, id, n + 1)
                .unwrap_err()
                .code(),
            "stale"
        );

        // cancel_search: refused as cancelled, and the computer may be asked again.
        let job = core.begin_search(SearchKind::Move, id, n).unwrap();
        core.cancel_search();
        assert_eq!(
            core.finish_move(&job, &answer("i9", 15))
                .unwrap_err()
                .code(),
            "cancelled"
        );
        assert!(core.view().computer_to_move);
        computer(&mut core, "i9");

        // A hint outlived by a move of the other player is stale for that player.
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
        let (id, n) = pos(&core);
        let hint = core.begin_search(SearchKind::Hint, id, n).unwrap();
        play(&mut core, "h8");
        assert!(hint.cancel.load(Ordering::SeqCst));
        assert!(core.finish_hint(&hint, &answer("h8", 15)).is_err());
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
        let dir = TempDir::new("undo-pair");
        let mut core = core_in(&dir);
        play(&mut core, "h8");
        computer(&mut core, "i9");
        play(&mut core, "g7");
        computer(&mut core, "j10");
        let v = core.undo();
        assert_eq!(v.moves, ["h8", "i9"]);
        assert!(!v.computer_to_move && v.can_redo);
        // Redo brings back your move and its reply.
        let v = core.redo();
        assert_eq!(v.moves, ["h8", "i9", "g7", "j10"]);
        core.undo();
        // While the computer is to move, undo takes back only your move.
        play(&mut core, "f6");
        assert!(core.view().computer_to_move);
        let v = core.undo();
        assert_eq!(v.moves, ["h8", "i9"]);
        assert!(!v.computer_to_move);
    }

    #[test]
    fn as_white_the_computer_opens_and_its_opening_cannot_be_undone_alone() {
        let dir = TempDir::new("white");
        let mut core = core_in(&dir);
        vs_computer(&mut core, Color::White);
        let v = core.view();
        assert!(v.computer_to_move && !v.can_undo);
        let v = computer(&mut core, "h8");
        assert!(
            !v.can_undo,
            "undoing only the computer's opening would let it replay it"
        );
        assert_eq!(core.undo().moves, ["h8"]);
        play(&mut core, "i9");
        computer(&mut core, "g7");
        assert_eq!(core.undo().moves, ["h8"]);
    }

    #[test]
    fn local_undo_takes_back_one_move() {
        let dir = TempDir::new("local-undo");
        let mut core = core_in(&dir);
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
        play(&mut core, "h8");
        play(&mut core, "i9");
        assert_eq!(core.undo().moves, ["h8"]);
        assert_eq!(core.redo().moves, ["h8", "i9"]);
        assert_eq!(core.undo().moves, ["h8"]);
        assert_eq!(core.undo().moves, Vec::<String>::new());
        // Nothing left: undo changes nothing.
        let v = core.undo();
        assert_eq!((v.move_number, v.can_undo), (0, false));
    }

    #[test]
    fn a_finished_game_is_counted_once() {
        let dir = TempDir::new("stats");
        let mut core = core_in(&dir);
        for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
            play(&mut core, human);
            computer(&mut core, reply);
        }
        let v = play(&mut core, "l8");
        let result = v.result.expect("black has five");
        assert_eq!(result.winner, Some(Color::Black));
        assert_eq!(result.reason, "five");
        assert_eq!(result.line, ["h8", "i8", "j8", "k8", "l8"]);
        assert!(!v.computer_to_move);
        let (id, n) = pos(&core);
        assert_eq!(core.play("a9", id, n).unwrap_err().code(), "gameOver");
        assert_eq!(
            core.begin_search(SearchKind::Hint, id, n)
                .unwrap_err()
                .code(),
            "gameOver"
        );
        let easy = |core: &AppCore| core.stats().levels()[1];
        assert_eq!((easy(&core).wins, easy(&core).losses), (1, 0));

        // Undo and win again: the same game is not counted twice.
        core.undo();
        core.redo();
        assert!(core.view().result.is_some());
        assert_eq!(easy(&core).wins, 1);

        // A loss in a new game counts.
        core.new_game(NewGameOptions::default()).unwrap();
        for (human, reply) in [("a15", "h8"), ("b15", "i8"), ("c15", "j8"), ("d15", "k8")] {
            play(&mut core, human);
            computer(&mut core, reply);
        }
        play(&mut core, "f15");
        let v = computer(&mut core, "l8");
        assert_eq!(v.result.unwrap().winner, Some(Color::White));
        assert_eq!((easy(&core).wins, easy(&core).losses), (1, 1));

        // Local games are not counted.
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
        for p in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"] {
            play(&mut core, p);
        }
        assert_eq!((easy(&core).wins, easy(&core).losses), (1, 1));
    }

    #[test]
    fn a_crash_between_the_stats_and_the_game_write_never_counts_a_game_twice() {
        let dir = TempDir::new("crash-between-writes");
        let easy = |core: &AppCore| core.stats().levels()[1];
        let game_before_the_win = {
            let mut core = core_in(&dir);
            vs_computer(&mut core, Color::Black);
            for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
                play(&mut core, human);
                computer(&mut core, reply);
            }
            core.save_now().unwrap().wait().unwrap();
            let saved = std::fs::read(dir.0.join(GAME_FILE)).unwrap();
            assert!(play(&mut core, "l8").result.is_some());
            assert_eq!(easy(&core).wins, 1);
            saved
        };
        // The crash: the stats with the win reached the disk, the game's last write did not.
        std::fs::write(dir.0.join(GAME_FILE), game_before_the_win).unwrap();

        let mut core = core_in(&dir);
        assert_eq!(core.view().moves.len(), 8, "the last saved position");
        assert_eq!(easy(&core).wins, 1);
        // The player makes the winning move again: the same game, not a second win.
        assert!(play(&mut core, "l8").result.is_some());
        assert_eq!(easy(&core).wins, 1);
        drop(core);
        let mut core = core_in(&dir);
        assert_eq!(easy(&core).wins, 1);

        // A new game is a new game.
        vs_computer(&mut core, Color::Black);
        for (human, reply) in [("h8", "a1"), ("i8", "a2"), ("j8", "a3"), ("k8", "a4")] {
            play(&mut core, human);
            computer(&mut core, reply);
        }
        play(&mut core, "l8");
        assert_eq!(easy(&core).wins, 2);
    }

    #[test]
    fn everything_is_restored_after_a_restart() {
        let dir = TempDir::new("restart");
        let before = {
            let mut core = core_in(&dir);
            core.set_settings(json!({ "theme": "dark", "level": 3 }))
                .unwrap();
            vs_computer(&mut core, Color::Black);
            play(&mut core, "h8");
            computer(&mut core, "i9");
            play(&mut core, "g7");
            computer(&mut core, "a1");
            core.undo();
            core.app_state()
        };
        let mut core = core_in(&dir);
        let after = core.app_state();
        assert_eq!(after, before);
        assert_eq!(after.game.moves, ["h8", "i9"]);
        assert!(after.game.can_redo, "redo survives a restart");
        // Ids keep growing across restarts so an answer from before never matches.
        assert!(core.new_game(NewGameOptions::default()).unwrap().game_id > before.game.game_id);
    }

    #[test]
    fn a_damaged_save_gives_a_fresh_game_and_a_notice_once() {
        let dir = TempDir::new("damaged");
        {
            let mut core = core_in(&dir);
            core.set_settings(json!({ "sound": false })).unwrap();
            play(&mut core, "h8");
        }
        std::fs::write(dir.0.join(GAME_FILE), b"{\"version\":1,\"gameId\":").unwrap();
        let mut core = core_in(&dir);
        let state = core.app_state();
        assert_eq!(state.notices, vec![NOTICE_GAME_DAMAGED]);
        assert_eq!(state.game.move_number, 0);
        assert!(!state.settings.sound, "undamaged files are still used");
        assert!(dir.0.join("game.json.corrupt").is_file());
        assert_eq!(
            core.app_state().notices,
            Vec::<&str>::new(),
            "the notice is given once"
        );
    }

    #[test]
    fn a_tampered_save_that_does_not_replay_is_damage_too() {
        let dir = TempDir::new("tampered");
        let session = json!({
            "version": 1, "gameId": 4, "mode": "local", "level": 2, "humanColor": "black",
            "statsCounted": false,
            "game": { "version": 1, "rule": "freestyle", "size": 15, "moves": ["h8", "h8"], "redo": [] }
        });
        std::fs::write(dir.0.join(GAME_FILE), session.to_string()).unwrap();
        std::fs::write(dir.0.join(SETTINGS_FILE), b"not json").unwrap();
        std::fs::write(dir.0.join(STATS_FILE), b"[]").unwrap();
        let mut core = core_in(&dir);
        let state = core.app_state();
        assert_eq!(
            state.notices,
            vec![
                NOTICE_SETTINGS_DAMAGED,
                NOTICE_STATS_DAMAGED,
                NOTICE_GAME_DAMAGED
            ]
        );
        assert_eq!(state.game.move_number, 0);
        assert_eq!(state.settings, Settings::default());
        // The fresh files were written at once: the next start is clean.
        assert_eq!(core_in(&dir).app_state().notices, Vec::<&str>::new());
    }

    #[test]
    fn settings_patches_persist_and_bad_ones_change_nothing() {
        let dir = TempDir::new("settings");
        let mut core = core_in(&dir);
        let s = core
            .set_settings(json!({ "vibration": false, "size": 19 }))
            .unwrap();
        assert!(!s.vibration && s.size == 19);
        assert!(!core.vibration());
        assert_eq!(
            core.set_settings(json!({ "vibration": true, "size": 99 }))
                .unwrap_err()
                .code(),
            "badArgument"
        );
        assert!(!core.vibration());
        // The running game keeps its size; the next one uses the setting.
        assert_eq!(core.view().size, 15);
        assert_eq!(core.new_game(NewGameOptions::default()).unwrap().size, 19);
        core.flush().unwrap().wait().unwrap();
        assert_eq!(core_in(&dir).settings(), core.settings());
    }

    #[test]
    fn new_game_options_become_the_defaults() {
        let dir = TempDir::new("options");
        let mut core = core_in(&dir);
        let options: NewGameOptions = serde_json::from_value(json!({
            "mode": "computer", "rule": "renju", "size": 13, "level": 5, "humanColor": "white"
        }))
        .unwrap();
        let v = core.new_game(options).unwrap();
        assert_eq!(
            (v.game_id, v.size, v.rule, v.level),
            (2, 13, Rule::Renju, Level::Master)
        );
        assert!(v.computer_to_move);
        let s = core.settings();
        assert_eq!(
            (s.size, s.rule, s.level, s.human_color),
            (13, Rule::Renju, Level::Master, Color::White)
        );
        for bad in [
            json!({ "level": 6 }),
            json!({ "colour": "white" }),
            json!({ "mode": "online" }),
        ] {
            assert!(serde_json::from_value::<NewGameOptions>(bad).is_err());
        }
    }

    #[test]
    fn records_round_trip_as_a_new_game() {
        let dir = TempDir::new("records");
        let mut core = core_in(&dir);
        core.new_game(NewGameOptions {
            mode: Some(Mode::Local),
            ..NewGameOptions::default()
        })
        .unwrap();
        for p in ["h8", "i9", "g7"] {
            play(&mut core, p);
        }
        let before = core.view();
        for format in [RecordFormat::Moves, RecordFormat::Sgf] {
            let text = core.export_record(format);
            let v = core.import_record(&text).unwrap();
            assert_eq!(v.moves, before.moves, "{format:?}: {text}");
            assert!(v.game_id > before.game_id);
        }
    }
}
