//! Persistence: the save documents read at a start and written after a change, through the
//! host's [`Store`] (or nowhere without one), and the game file's format, [`SavedSession`].
//! When a change saves is the app state's (`position.rs`); what a start does with damaged
//! documents is here: a fresh part and a notice, never an error.

use serde::{Deserialize, Serialize};
use wuzi::openings::renju::{self, Opening};
use wuzi::{Color, Game, Level, Rule, SavedGame};

use crate::parts::clock::{GameClock, SavedClock};
use crate::parts::review::GameReview;
use crate::parts::session::Session;
use crate::parts::swap::SwapGame;
use crate::settings::{level_number, Mode, Settings, Stats};
use crate::store::{load, Loaded, SaveTicket, Store, GAME_FILE, SETTINGS_FILE, STATS_FILE};
use crate::view::GameSetup;

/// Told once after a start that found the saved game unusable (a code the UI translates).
pub const NOTICE_GAME_DAMAGED: &str = "gameDamaged";
/// Told once after a start that found the settings unusable.
pub const NOTICE_SETTINGS_DAMAGED: &str = "settingsDamaged";
/// Told once after a start without a usable data folder: the player can play, but nothing is
/// kept when the app closes.
pub const NOTICE_NOT_SAVED: &str = "notSaved";
/// Told once after a start that found the statistics unusable.
pub const NOTICE_STATS_DAMAGED: &str = "statsDamaged";

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
    pub(crate) fn restore(self) -> Option<(Session, Option<GameReview>, GameClock)> {
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

/// What a start found in the store: each document, or a fresh one and a notice for a damaged
/// one.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) settings: Settings,
    pub(crate) stats: Stats,
    /// The saved game with its review and clock; `None` without a usable one.
    pub(crate) game: Option<(Session, Option<GameReview>, GameClock)>,
    /// Notice codes for the player, in the order settings, stats, game.
    pub(crate) notices: Vec<&'static str>,
}

/// Where the documents go: the host's store, or nowhere.
#[derive(Debug)]
pub(crate) struct Persistence {
    /// `None`: no storage, nothing is saved (and the player was told).
    store: Option<Box<dyn Store>>,
}

impl Persistence {
    /// Saves nothing: the app has no data folder.
    pub(crate) fn none() -> Persistence {
        Persistence { store: None }
    }

    /// Reads the documents of `store`, which the app saves to from now on.
    pub(crate) fn open(store: impl Store + 'static) -> (Persistence, Found) {
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
        let game = match load(&store, GAME_FILE, SavedSession::restore) {
            Loaded::Found(found) => Some(found),
            Loaded::Missing => None,
            Loaded::Damaged => {
                notices.push(NOTICE_GAME_DAMAGED);
                None
            }
        };
        let found = Found {
            settings,
            stats,
            game,
            notices,
        };
        (
            Persistence {
                store: Some(Box::new(store)),
            },
            found,
        )
    }

    /// Hands a snapshot of `files` to the store, written in this order: `settings`, `stats`,
    /// and the game file as `game` makes it. A failed write must not undo the move the player
    /// just made: the store logs it, the next change of the file tries again, and `save_now`
    /// reports its own failure.
    pub(crate) fn write(
        &self,
        files: &[&'static str],
        settings: &Settings,
        stats: &Stats,
        game: impl Fn() -> SavedSession,
    ) {
        let Some(store) = &self.store else { return };
        let batch = files
            .iter()
            .filter_map(|&name| {
                let json = match name {
                    SETTINGS_FILE => serde_json::to_vec_pretty(settings),
                    STATS_FILE => serde_json::to_vec_pretty(&stats.to_file()),
                    GAME_FILE => serde_json::to_vec_pretty(&game()),
                    _ => return None,
                };
                json.map_err(|e| log::error!("cannot write {name}: {e}"))
                    .ok()
                    .map(|bytes| (name, bytes))
            })
            .collect();
        store.write(batch);
    }

    /// A ticket for the snapshots already queued; `None` when nothing is saved.
    pub(crate) fn flush(&self) -> Option<SaveTicket> {
        self.store.as_deref().map(Store::flush)
    }
}

#[cfg(test)]
mod tests {
    use wuzi::Point;

    use super::*;
    use crate::store::{aside_name, MemoryStore};

    /// A game between two players with two stones.
    fn session() -> Session {
        let settings = Settings {
            mode: Mode::Local,
            ..Settings::default()
        };
        let mut game = Game::new(Rule::Freestyle, 15).unwrap();
        for p in ["h8", "h9"] {
            game.try_play(Point::from_rif(p, 15).unwrap()).unwrap();
        }
        let setup = GameSetup::from_settings(&settings, 4, &game, None);
        Session { game, setup }
    }

    #[test]
    fn a_first_start_finds_nothing_and_is_told_nothing() {
        let (persist, found) = Persistence::open(MemoryStore::new());
        assert_eq!(found.settings, Settings::default());
        assert!(found.game.is_none() && found.notices.is_empty());
        assert!(persist.flush().is_some());
    }

    #[test]
    fn what_is_written_is_found_at_the_next_start() {
        let dir = MemoryStore::new();
        let (persist, _) = Persistence::open(dir.clone());
        let settings = Settings {
            vibration: !Settings::default().vibration,
            ..Settings::default()
        };
        let s = session();
        let clock = GameClock::new(&s.game, None);
        let saved = || SavedSession::new(&s, None, clock.to_saved(web_time::Instant::now()));
        persist.write(&[STATS_FILE], &settings, &Stats::default(), saved);
        assert_eq!(dir.names(), [STATS_FILE], "only the files named");
        persist.write(
            &[SETTINGS_FILE, GAME_FILE],
            &settings,
            &Stats::default(),
            saved,
        );
        let (_, found) = Persistence::open(dir);
        assert_eq!(found.settings, settings);
        let (game, review, _) = found.game.expect("the game");
        assert_eq!(game.game.moves(), s.game.moves());
        assert_eq!(game.setup, s.setup);
        assert!(review.is_none() && found.notices.is_empty());
    }

    #[test]
    fn damaged_documents_are_set_aside_with_a_notice_each() {
        let dir = MemoryStore::new();
        for name in [GAME_FILE, SETTINGS_FILE, STATS_FILE] {
            dir.put(name, "{ not json");
        }
        let (_, found) = Persistence::open(dir.clone());
        assert_eq!(
            found.notices,
            [
                NOTICE_SETTINGS_DAMAGED,
                NOTICE_STATS_DAMAGED,
                NOTICE_GAME_DAMAGED
            ]
        );
        assert_eq!(found.settings, Settings::default());
        assert!(found.game.is_none());
        for name in [GAME_FILE, SETTINGS_FILE, STATS_FILE] {
            assert!(dir.get(name).is_none(), "{name} is set aside");
            assert!(dir.get(&aside_name(name, 0)).is_some(), "{name} is kept");
        }
    }

    #[test]
    fn without_a_store_nothing_is_written() {
        let persist = Persistence::none();
        persist.write(
            &[GAME_FILE],
            &Settings::default(),
            &Stats::default(),
            || unreachable!("nothing to write to"),
        );
        assert!(persist.flush().is_none());
    }
}
