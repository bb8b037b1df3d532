//! The app's state and every rule of the app, free of any host so it can be tested directly:
//! which requests are stale, who is to move, what undo takes back, what gets counted and saved.
//!
//! [`AppCore`] is a thin composition of owned parts (`crate::parts`), each with its own state
//! and tests: the game session ([`crate::parts::session::Session`]: the game, who plays it and
//! its opening phase), its clock ([`crate::parts::session_clock::SessionClock`]), the search
//! slot, analysis, review. It keeps what concerns the whole app: loading, the view, the start
//! state, settings and stats, saving. Everything else is reached through a small handle per
//! concern, borrowed from the core for one call, each in its own file:
//! - [`AppCore::game`] ([`game::GameHandle`], `game.rs`): new game, the human's move, undo,
//!   redo; records (`records.rs`), the position editor (`setup.rs`) and the choices of the
//!   Swap / Swap2 opening phase (`swap.rs`) are its methods too;
//! - [`AppCore::search`] ([`search::SearchHandle`], `search.rs`): the computer's turn and the
//!   hint (the computer's opening actions in `swap.rs`);
//! - [`AppCore::analysis`] ([`analysis::AnalysisHandle`], `analysis.rs`);
//! - [`AppCore::review`] ([`review::ReviewHandle`], `review.rs`);
//! - [`AppCore::clock`] ([`clock::ClockHandle`], `clock.rs`).
//!
//! Every change of the position, whichever handle makes it, goes through the one path in
//! `position.rs` (`AppCore::change_position`), which runs every hook. Saving is in
//! `persist.rs`. These files wire the parts to the commands; the rules that need only one part
//! are that part's.
//!
//! A host (the Tauri app's `commands.rs`) locks [`AppCore`] off the UI's thread, calls one
//! method, and for a search runs the returned [`crate::parts::search::SearchJob`] there too
//! between [`search::SearchHandle::begin`] and [`search::SearchHandle::finish_computer`] /
//! [`search::SearchHandle::finish_hint`], without holding the lock meanwhile. Saving never
//! waits under the lock either: a change hands a snapshot to the host's [`Store`], in the order
//! of the changes.

use serde::{Deserialize, Serialize};
use wuzi::openings::renju::{self, Opening};
use wuzi::{Color, Game, Level, Rule, SavedGame};

use crate::error::{Error, Result};
use crate::parts::analysis::Analysis;
use crate::parts::change::Position;
use crate::parts::clock::{GameClock, SavedClock, TimeSource};
use crate::parts::opening::OpeningRule;
use crate::parts::review::{GameReview, Reviews};
use crate::parts::search::Searches;
use crate::parts::session::Session;
use crate::parts::session_clock::SessionClock;
use crate::parts::swap::SwapGame;
use crate::settings::{level_number, Mode, RenjuStart, Settings, Stats};
use crate::store::{load, Loaded, Store, GAME_FILE, SETTINGS_FILE, STATS_FILE};
use crate::view::{AppState, GameSetup, GameView, ReviewView};

pub mod analysis;
pub mod clock;
pub mod game;
mod persist;
mod position;
mod records;
pub mod review;
pub mod search;
mod setup;
mod swap;

/// Told once after a start that found the saved game unusable (a code the UI translates).
pub const NOTICE_GAME_DAMAGED: &str = "gameDamaged";
/// Told once after a start that found the settings unusable.
pub const NOTICE_SETTINGS_DAMAGED: &str = "settingsDamaged";
/// Told once after a start without a usable data folder: the player can play, but nothing is
/// kept when the app closes.
pub const NOTICE_NOT_SAVED: &str = "notSaved";
/// Told once after a start that found the statistics unusable.
pub const NOTICE_STATS_DAMAGED: &str = "statsDamaged";

/// Hints always come from the strongest search (the same engine and its best move),
/// whatever level the computer plays at; the lower levels are handicapped on purpose.
pub(crate) const HINT_LEVEL: Level = Level::Master;

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
    #[serde(default, with = "crate::settings::optional_level")]
    pub level: Option<Level>,
    /// The human's colour against the computer.
    pub human_color: Option<Color>,
    /// How a renju game begins (ignored under the other rules).
    pub renju_opening: Option<RenjuStart>,
    /// The opening rule of a freestyle or standard game (ignored under renju).
    pub opening_rule: Option<OpeningRule>,
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

/// The game file: the engine's save format plus who plays it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SavedSession {
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
    /// Moves were played with analysis on (issue 10 §1); absent from older saves.
    #[serde(default)]
    analysed: bool,
    /// The renju opening whose stones are the game's first three moves (issue 10 §3), by its
    /// code; absent from older saves and from games without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opening: Option<String>,
    /// The Swap / Swap2 opening phase (issue 10 §3); absent from older saves and from games
    /// without one. Read leniently: a phase that cannot be read, or does not fit the game, is
    /// dropped and the game still loads, as a game without an opening rule.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    swap: Option<SwapGame>,
    game: SavedGame,
    /// The game's review (issue 10 §2); absent from older saves. Read leniently: a review
    /// that cannot be read, or does not fit the game, is dropped and the game still loads.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    review: Option<GameReview>,
    /// The game clock (issue 10 §4); absent from version 1 saves. Read leniently like the
    /// review: a clock that cannot be read is dropped and the game loads untimed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient"
    )]
    clock: Option<SavedClock>,
}

fn lenient<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

/// The game file's format. 2 added the clock; version 1 files (with or without a Swap / Swap2
/// phase, which needed no new version: its field is optional and read leniently) still load,
/// untimed. A set-up position (issue 10 §5) is the engine's: `game` is a [`SavedGame`] of its
/// own version 1 or 2 (2 adds `setup`), in a file of either version here.
const SESSION_VERSION: u32 = 2;

impl SavedSession {
    pub(crate) fn new(
        session: &Session,
        review: Option<&GameReview>,
        clock: SavedClock,
    ) -> SavedSession {
        let s = &session.setup;
        SavedSession {
            version: SESSION_VERSION,
            game_id: s.game_id,
            mode: s.mode,
            level: s.level,
            human_color: s.human_color,
            stats_counted: s.stats_counted,
            game_uid: s.game_uid,
            analysed: s.analysed,
            opening: s.opening.map(Opening::code),
            swap: s.swap,
            game: session.game.to_saved(),
            review: review.cloned(),
            clock: Some(clock),
        }
    }

    /// The game replayed through the referee, or `None` if the file describes no legal game.
    fn restore(self) -> Option<(Session, Option<GameReview>, GameClock)> {
        if !(1..=SESSION_VERSION).contains(&self.version) {
            return None;
        }
        let game = Game::from_saved(&self.game).ok()?;
        // An opening the game does not begin with is dropped rather than the game: it only
        // keeps undo from taking the opening stones back.
        let opening = self
            .opening
            .as_deref()
            .and_then(|code| renju::ALL.iter().find(|o| o.code() == code))
            .filter(|o| {
                game.rule() == Rule::Renju && game.moves().starts_with(&o.moves(game.size()))
            });
        let setup = GameSetup {
            game_id: self.game_id,
            mode: self.mode,
            level: self.level,
            human_color: self.human_color,
            // A set-up position is never counted, whatever an older save says (imported
            // records with a setup were counted before).
            stats_counted: self.stats_counted || game.setup().is_some(),
            game_uid: if self.game_uid == 0 {
                GameSetup::new_uid()
            } else {
                self.game_uid
            },
            analysed: self.analysed,
            opening,
            swap: self
                .swap
                .filter(|s| game.rule() != Rule::Renju && s.fits(&game)),
        };
        let review = self.review.filter(|r| r.fits(&game));
        let clock = match self.clock {
            Some(saved) => GameClock::restore(saved, &game, setup.clock_owners()),
            None => GameClock::new(&game, None),
        };
        Some((Session { game, setup }, review, clock))
    }
}

/// Everything the commands work on: the app's owned parts, composed. A change of the position
/// goes through `AppCore::change_position` (`position.rs`), whatever makes it.
#[derive(Debug)]
pub struct AppCore {
    /// The game, who plays it and its opening phase.
    session: Session,
    /// The game's clock, its time source and whether the UI paused it.
    clock: SessionClock,
    settings: Settings,
    stats: Stats,
    /// Notice codes for the next `get_state` (given once).
    notices: Vec<&'static str>,
    /// The running search, if any; at most one runs at a time.
    searches: Searches,
    /// Analysis: on or off, and the running job.
    analysis: Analysis,
    /// The game's finished review, and the running one.
    reviews: Reviews,
    /// `None`: no storage, nothing is saved (and the player was told).
    store: Option<Box<dyn Store>>,
    /// The position the hooks of [`AppCore::change_position`] last ran for (`position.rs`).
    hooked: Position,
}

fn fresh_game(rule: Rule, size: u8) -> Game {
    // Sizes reach here only after `check_size`; 15 is the fallback the engine always accepts.
    Game::new(rule, size)
        .or_else(|_| Game::new(rule, 15))
        .expect("15 is a valid board size")
}

/// The first game, as `settings` say, its opening rule too, and its clock.
fn first_game(settings: &Settings) -> (Session, GameClock) {
    let game = fresh_game(settings.rule, settings.size);
    let setup = GameSetup::from_settings(settings, 1, &game, None);
    let clock = GameClock::new(&game, settings.time_limit());
    (Session { game, setup }, clock)
}

impl AppCore {
    /// The core over its parts, the hooks marked as run for the position it starts from.
    fn compose(
        session: Session,
        clock: SessionClock,
        settings: Settings,
        stats: Stats,
        notices: Vec<&'static str>,
        reviews: Reviews,
        store: Option<Box<dyn Store>>,
    ) -> AppCore {
        AppCore {
            hooked: session.position(),
            session,
            clock,
            settings,
            stats,
            notices,
            searches: Searches::default(),
            analysis: Analysis::default(),
            reviews,
            store,
        }
    }

    /// A fresh state that is never saved, with [`NOTICE_NOT_SAVED`] for the player.
    #[must_use]
    pub fn unsaved() -> AppCore {
        let settings = Settings::default();
        let (session, clock) = first_game(&settings);
        AppCore::compose(
            session,
            SessionClock::new(clock, TimeSource::system()),
            settings,
            Stats::default(),
            vec![NOTICE_NOT_SAVED],
            Reviews::default(),
            None,
        )
    }

    /// The state saved in `store`, or a fresh one; damaged documents give a fresh part and a
    /// notice, never an error.
    #[must_use]
    pub fn load(store: impl Store + 'static) -> AppCore {
        AppCore::load_with_time(store, TimeSource::system())
    }

    /// [`AppCore::load`] with the clock reading `time` (tests pass a fake one).
    #[must_use]
    pub fn load_with_time(store: impl Store + 'static, time: TimeSource) -> AppCore {
        let mut notices = Vec::new();
        let settings = match load(&store, SETTINGS_FILE, |s: Settings| {
            s.validate().is_ok().then_some(s)
        }) {
            Loaded::Found(s) => s,
            Loaded::Missing => Settings::default(),
            Loaded::Damaged => {
                notices.push(NOTICE_SETTINGS_DAMAGED);
                Settings::default()
            }
        };
        let stats = match load(&store, STATS_FILE, Some) {
            Loaded::Found(s) => s,
            Loaded::Missing => Stats::default(),
            Loaded::Damaged => {
                notices.push(NOTICE_STATS_DAMAGED);
                Stats::default()
            }
        };
        let saved = load(&store, GAME_FILE, SavedSession::restore);
        let (session, review, clock) = match saved {
            Loaded::Found(found) => found,
            Loaded::Missing | Loaded::Damaged => {
                if matches!(saved, Loaded::Damaged) {
                    notices.push(NOTICE_GAME_DAMAGED);
                }
                let (session, clock) = first_game(&settings);
                (session, None, clock)
            }
        };
        let mut core = AppCore::compose(
            session,
            SessionClock::new(clock, time),
            settings,
            stats,
            notices,
            Reviews::restored(review),
            Some(Box::new(store)),
        );
        if !core.notices.is_empty() {
            // Replace the damaged documents now rather than at the first move.
            core.save(&[SETTINGS_FILE, STATS_FILE, GAME_FILE]);
        }
        core.clock.sync(&core.session);
        core
    }

    /// The whole state for the UI's start; the notice is handed out once.
    pub fn app_state(&mut self) -> AppState {
        self.clock().check_flag();
        AppState {
            game: self.view(),
            settings: self.settings.clone(),
            stats: self.stats.clone(),
            notices: std::mem::take(&mut self.notices),
            renju_openings: crate::view::renju_openings(),
        }
    }

    /// The current game as the UI draws it.
    #[must_use]
    pub fn view(&self) -> GameView {
        debug_assert_eq!(
            self.hooked,
            self.session.position(),
            "the position changed past `change_position`"
        );
        let mut view = GameView::new(&self.session.game, &self.session.setup);
        view.review = self.reviews.of(&self.session.game).map(ReviewView::from);
        self.clock.show(&self.session, &mut view);
        view
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

    /// The guard of a command that acts in the position `(game_id, move_number)` the player
    /// saw (a move, an opening choice, a search): it is still the current one, and the game
    /// is not over, its flag checked first (a fallen flag ends it now).
    ///
    /// # Errors
    /// `stale` for an old position, `gameOver` for a finished game.
    pub(crate) fn check_live(&mut self, game_id: u64, move_number: usize) -> Result<()> {
        self.session.check_position(game_id, move_number)?;
        self.clock().check_flag();
        if self.clock.over(&self.session) {
            return Err(Error::GameOver);
        }
        Ok(())
    }

    /// Changes the fields of the settings named in `patch`.
    ///
    /// # Errors
    /// [`Error::BadArgument`] for an unknown field or a bad value; nothing changes then.
    pub fn set_settings(&mut self, patch: serde_json::Value) -> Result<Settings> {
        let settings = self.settings.patched(patch)?;
        if settings != self.settings {
            self.settings = settings;
            self.save(&[SETTINGS_FILE]);
        }
        Ok(self.settings.clone())
    }

    /// Whether the player wants haptic feedback.
    #[must_use]
    pub fn vibration(&self) -> bool {
        self.settings.vibration
    }
}

#[cfg(test)]
mod tests;
