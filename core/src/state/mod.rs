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

use serde::Deserialize;
use wuzi::{Color, Game, Level, Rule};

use crate::error::{Error, Result};
use crate::parts::analysis::Analysis;
use crate::parts::change::Position;
use crate::parts::clock::{GameClock, TimeSource};
use crate::parts::opening::OpeningRule;
use crate::parts::review::Reviews;
use crate::parts::search::Searches;
use crate::parts::session::Session;
use crate::parts::session_clock::SessionClock;
use crate::settings::{Mode, RenjuStart, Settings, Stats};
use crate::store::{SaveTicket, Store, GAME_FILE, SETTINGS_FILE, STATS_FILE};
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

use persist::{Persistence, SavedSession};
pub use persist::{
    NOTICE_GAME_DAMAGED, NOTICE_NOT_SAVED, NOTICE_SETTINGS_DAMAGED, NOTICE_STATS_DAMAGED,
};

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
    /// Where the documents are saved (`persist.rs`).
    persist: Persistence,
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
        persist: Persistence,
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
            persist,
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
            Persistence::none(),
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
        let (persist, found) = Persistence::open(store);
        let (session, review, clock) = found.game.unwrap_or_else(|| {
            // The first game follows the settings, its opening rule too.
            let (session, clock) = first_game(&found.settings);
            (session, None, clock)
        });
        let mut core = AppCore::compose(
            session,
            SessionClock::new(clock, time),
            found.settings,
            found.stats,
            found.notices,
            Reviews::restored(review),
            persist,
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

    /// Queues everything for writing and returns the ticket that waits until it is stored.
    ///
    /// # Errors
    /// [`Error::Io`] if the app has no storage and saves nothing.
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
        self.persist.flush()
    }

    /// Hands a snapshot of `files` to the store, written in this order (`persist.rs`).
    fn save(&self, files: &[&'static str]) {
        self.persist.write(files, &self.settings, &self.stats, || {
            SavedSession::new(
                &self.session,
                self.reviews.of(&self.session.game),
                self.clock.to_saved(),
            )
        });
    }

    /// Whether the player wants haptic feedback.
    #[must_use]
    pub fn vibration(&self) -> bool {
        self.settings.vibration
    }
}

#[cfg(test)]
mod tests;
