//! What the player chose and what they achieved: [`Settings`] and per-level [`Stats`], in the
//! shapes the UI sees (App IPC contract) and the save files hold.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wuzi::openings::renju::{self, Opening};
use wuzi::{Color, Level, Rule, MAX_SIZE, MIN_SIZE};

use crate::error::{Error, Result};
use crate::parts::clock::TimeLimit;
use crate::parts::opening::OpeningRule;

/// Against the computer, or two people on one device.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One person against the engine.
    Computer,
    /// Two people taking turns on one device.
    Local,
}

/// Whether a tap places at once or first shows a ghost stone to confirm.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmMove {
    /// On for touch screens, off for mice (the UI decides).
    Auto,
    /// Always confirm.
    On,
    /// Never confirm.
    Off,
}

/// The UI language.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Language {
    /// Follow the system.
    #[serde(rename = "system")]
    System,
    /// English.
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    ZhCn,
}

/// Light, dark, or whatever the system prefers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

/// How a renju game begins (issue 10 §3): from an empty board, or with the three stones of
/// one of the 26 canonical openings played as moves 1–3. Travels as `"free"`, `"random"` or
/// the opening's code (`"4D"`, `"13I"`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum RenjuStart {
    /// An empty board.
    #[default]
    Free,
    /// One of the 26 openings, drawn afresh for every game.
    Random,
    /// This opening.
    Opening(&'static Opening),
}

impl RenjuStart {
    /// The opening of a new game, `None` for a free start; `roll` draws a random one (any
    /// number, used modulo 26).
    #[must_use]
    pub fn opening(self, roll: u64) -> Option<&'static Opening> {
        match self {
            RenjuStart::Free => None,
            // The remainder is below 26: the cast cannot truncate.
            RenjuStart::Random => renju::get((roll % renju::ALL.len() as u64) as usize),
            RenjuStart::Opening(o) => Some(o),
        }
    }
}

impl Serialize for RenjuStart {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            RenjuStart::Free => s.serialize_str("free"),
            RenjuStart::Random => s.serialize_str("random"),
            RenjuStart::Opening(o) => s.serialize_str(&o.code()),
        }
    }
}

impl<'de> Deserialize<'de> for RenjuStart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<RenjuStart, D::Error> {
        let text = String::deserialize(d)?;
        match text.as_str() {
            "free" => Ok(RenjuStart::Free),
            "random" => Ok(RenjuStart::Random),
            // Only the codes: a name would be a second spelling of the same setting.
            code => renju::ALL
                .iter()
                .find(|o| o.code() == code)
                .map(RenjuStart::Opening)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "no renju start {} (free, random or a code 1D–13D, 1I–13I)",
                        wuzi::text::quote(code)
                    ))
                }),
        }
    }
}

/// Levels travel as their number 1..=5, as the UI shows them.
pub(crate) mod level_number {
    use serde::{de::Error as _, Deserialize, Deserializer, Serializer};
    use wuzi::Level;

    pub(crate) fn serialize<S: Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(level.number())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let n = u8::deserialize(d)?;
        Level::from_number(n).ok_or_else(|| D::Error::custom(format!("no level {n} (1..=5)")))
    }
}

/// An optional level, as its number 1..=5 (a missing field is `None`).
pub(crate) mod optional_level {
    use serde::{Deserialize, Deserializer};
    use wuzi::Level;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Level>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super::level_number")] Level);
        Ok(Option::<Wrap>::deserialize(d)?.map(|Wrap(l)| l))
    }
}

/// The player's choices; the game fields are the defaults for the next new game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// Against the computer or two players.
    pub mode: Mode,
    /// The human's colour against the computer.
    pub human_color: Color,
    /// The computer's level.
    #[serde(with = "level_number")]
    pub level: Level,
    /// Freestyle, standard or renju.
    pub rule: Rule,
    /// Board size.
    pub size: u8,
    /// How a renju game begins; absent from settings before issue 10 §3.
    pub renju_opening: RenjuStart,
    /// The opening rule of freestyle and standard games (`none`, `swap`, `swap2`); absent
    /// from settings before issue 10 §3.
    pub opening_rule: OpeningRule,
    /// Confirm-before-placing.
    pub confirm_move: ConfirmMove,
    /// Show move numbers on the stones.
    pub move_numbers: bool,
    /// Stone click sound.
    pub sound: bool,
    /// Haptic tick on mobile.
    pub vibration: bool,
    /// UI language.
    pub language: Language,
    /// Colour theme.
    pub theme: Theme,
    /// Time per side in minutes for the next game, one of [`CLOCK_MINUTES`]; 0 = no limit.
    /// Absent from settings before issue 10 §4.
    pub clock_minutes: u32,
    /// Seconds added to a side's time after each of its moves, one of [`CLOCK_INCREMENTS`].
    pub clock_increment: u32,
}

/// The time limits offered per side, in minutes (0: none).
pub const CLOCK_MINUTES: [u32; 4] = [0, 5, 10, 20];

/// The increments offered, in seconds per move.
pub const CLOCK_INCREMENTS: [u32; 3] = [0, 2, 5];

impl Default for Settings {
    /// A casual player opens the app and plays the computer at once: black, easy, freestyle 15×15.
    fn default() -> Settings {
        Settings {
            mode: Mode::Computer,
            human_color: Color::Black,
            level: Level::Easy,
            rule: Rule::Freestyle,
            size: 15,
            renju_opening: RenjuStart::Free,
            opening_rule: OpeningRule::None,
            confirm_move: ConfirmMove::Auto,
            move_numbers: false,
            sound: true,
            vibration: true,
            language: Language::System,
            theme: Theme::System,
            clock_minutes: 0,
            clock_increment: 0,
        }
    }
}

impl Settings {
    /// These settings with the fields named in `patch` (a JSON object, possibly partial)
    /// replaced.
    ///
    /// # Errors
    /// [`Error::BadArgument`] if `patch` is not an object, names an unknown field, or gives a
    /// value of the wrong kind or out of range. `self` is never changed.
    pub fn patched(&self, patch: serde_json::Value) -> Result<Settings> {
        let serde_json::Value::Object(patch) = patch else {
            return Err(Error::BadArgument("settings must be an object".into()));
        };
        let mut merged = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => unreachable!("Settings serialises to an object"),
        };
        for (key, value) in patch {
            if !merged.contains_key(&key) {
                return Err(Error::BadArgument(format!(
                    "unknown setting {}",
                    wuzi::text::quote(&key)
                )));
            }
            merged.insert(key, value);
        }
        let settings: Settings = serde_json::from_value(merged.into())
            .map_err(|e| Error::BadArgument(format!("settings: {e}")))?;
        settings.validate()?;
        Ok(settings)
    }

    /// # Errors
    /// [`Error::BadArgument`] if the board size is outside what the engine plays, or the time
    /// limit or increment is not one of those offered.
    pub fn validate(&self) -> Result<()> {
        check_size(self.size)?;
        if !CLOCK_MINUTES.contains(&self.clock_minutes) {
            return Err(Error::BadArgument(format!(
                "time limit {} min is not one of {CLOCK_MINUTES:?}",
                self.clock_minutes
            )));
        }
        if !CLOCK_INCREMENTS.contains(&self.clock_increment) {
            return Err(Error::BadArgument(format!(
                "increment {} s is not one of {CLOCK_INCREMENTS:?}",
                self.clock_increment
            )));
        }
        Ok(())
    }

    /// The time limit a new game gets, if any.
    #[must_use]
    pub fn time_limit(&self) -> Option<TimeLimit> {
        (self.clock_minutes > 0).then(|| TimeLimit {
            base_ms: u64::from(self.clock_minutes) * 60_000,
            increment_ms: u64::from(self.clock_increment) * 1000,
        })
    }
}

/// # Errors
/// [`Error::BadArgument`] unless `MIN_SIZE <= size <= MAX_SIZE`.
pub fn check_size(size: u8) -> Result<()> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(Error::BadArgument(format!(
            "board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
        )))
    }
}

/// Finished games against one level, from the human's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelStats {
    /// The level's number, 1..=5.
    pub level: u8,
    /// Games the human won.
    pub wins: u32,
    /// Games the computer won.
    pub losses: u32,
    /// Full boards.
    pub draws: u32,
    /// Of these games, those played on with analysis on (issue 10 §1); absent from older
    /// stats files.
    #[serde(default)]
    pub analysed: u32,
}

/// How many counted games the stats remember. A game can be counted again only from a save
/// older than its count (a crash between the two writes), which the next start reads; one
/// would do, a few cost nothing.
const COUNTED_KEPT: usize = 32;

/// Wins, losses and draws against each level; one entry per level, in level order.
///
/// Serialised as the UI sees it; the stats file is [`Stats::to_file`], which also holds the
/// ids of the last games counted, so a game is never counted twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    levels: Vec<LevelStats>,
    /// The `game_uid`s of the last games counted, oldest first.
    #[serde(skip)]
    counted: Vec<u64>,
}

/// The stats file: the counts and the ids of the games they include.
#[derive(Debug, Serialize)]
pub struct StatsFile<'a> {
    levels: &'a [LevelStats],
    counted: &'a [u64],
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            levels: Level::ALL
                .iter()
                .map(|l| LevelStats {
                    level: l.number(),
                    ..LevelStats::default()
                })
                .collect(),
            counted: Vec::new(),
        }
    }
}

/// How a finished game ended for the human.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HumanResult {
    /// The human won.
    Win,
    /// The computer won.
    Loss,
    /// Nobody won.
    Draw,
}

impl Stats {
    /// One more finished game against `level`.
    pub fn record(&mut self, level: Level, outcome: HumanResult) {
        if let Some(entry) = self.levels.iter_mut().find(|e| e.level == level.number()) {
            let count = match outcome {
                HumanResult::Win => &mut entry.wins,
                HumanResult::Loss => &mut entry.losses,
                HumanResult::Draw => &mut entry.draws,
            };
            *count = count.saturating_add(1);
        }
    }

    /// Counts the finished game `game_uid` unless it is already counted; says whether it
    /// counted it. The stats and the game are two files: if a crash lands between their
    /// writes, the restart can see a counted game whose save predates the count, and its
    /// replayed end must not count again. `analysed`: the player had analysis on.
    pub fn record_game(
        &mut self,
        game_uid: u64,
        level: Level,
        outcome: HumanResult,
        analysed: bool,
    ) -> bool {
        if self.counted.contains(&game_uid) {
            return false;
        }
        self.record(level, outcome);
        if analysed {
            if let Some(entry) = self.levels.iter_mut().find(|e| e.level == level.number()) {
                entry.analysed = entry.analysed.saturating_add(1);
            }
        }
        if self.counted.len() == COUNTED_KEPT {
            self.counted.remove(0);
        }
        self.counted.push(game_uid);
        true
    }

    /// What the stats file holds.
    #[must_use]
    pub fn to_file(&self) -> StatsFile<'_> {
        StatsFile {
            levels: &self.levels,
            counted: &self.counted,
        }
    }

    /// The entries, in level order.
    #[must_use]
    pub fn levels(&self) -> &[LevelStats] {
        &self.levels
    }
}

/// A stats file is read leniently: entries for unknown levels are dropped, missing levels start
/// at zero, so a file from another version never loses the counts that still make sense.
impl<'de> Deserialize<'de> for Stats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stats, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            levels: Vec<LevelStats>,
            #[serde(default)]
            counted: Vec<u64>,
        }
        let raw = Raw::deserialize(d)?;
        let mut stats = Stats::default();
        let skip = raw.counted.len().saturating_sub(COUNTED_KEPT);
        stats.counted = raw.counted[skip..].to_vec();
        for entry in raw.levels {
            if let Some(slot) = stats.levels.iter_mut().find(|e| e.level == entry.level) {
                *slot = entry;
            }
        }
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_match_the_ipc_contract() {
        let v = serde_json::to_value(Settings::default()).unwrap();
        assert_eq!(
            v,
            json!({
                "mode": "computer", "humanColor": "black", "level": 2, "rule": "freestyle",
                "size": 15, "renjuOpening": "free", "openingRule": "none", "confirmMove": "auto", "moveNumbers": false, "sound": true,
                "vibration": true, "language": "system", "theme": "system",
                "clockMinutes": 0, "clockIncrement": 0
            })
        );
    }

    #[test]
    fn a_patch_changes_only_the_named_fields() {
        let s = Settings::default()
            .patched(json!({ "level": 5, "language": "zh-CN", "rule": "renju" }))
            .unwrap();
        assert_eq!(s.level, Level::Master);
        assert_eq!(s.language, Language::ZhCn);
        assert_eq!(s.rule, Rule::Renju);
        assert_eq!(s.size, 15);
        assert!(s.sound);
    }

    #[test]
    fn renju_starts_travel_as_codes_and_old_settings_start_free() {
        for (text, start) in [
            ("free", RenjuStart::Free),
            ("random", RenjuStart::Random),
            (
                "4D",
                RenjuStart::Opening(renju::by_name("Kagetsu").unwrap()),
            ),
            (
                "7I",
                RenjuStart::Opening(renju::by_name("Hogetsu").unwrap()),
            ),
        ] {
            let s = Settings::default()
                .patched(json!({ "renjuOpening": text }))
                .unwrap();
            assert_eq!(s.renju_opening, start);
            assert_eq!(serde_json::to_value(&s).unwrap()["renjuOpening"], text);
        }
        let old: Settings = serde_json::from_value(json!({ "rule": "renju" })).unwrap();
        assert_eq!(old.renju_opening, RenjuStart::Free);
        assert_eq!(RenjuStart::Free.opening(7), None);
        let kagetsu = renju::by_name("4D").unwrap();
        assert_eq!(RenjuStart::Opening(kagetsu).opening(7), Some(kagetsu));
        let drawn: std::collections::BTreeSet<_> = (0..26)
            .filter_map(|roll| RenjuStart::Random.opening(roll))
            .map(Opening::index)
            .collect();
        assert_eq!(drawn.len(), 26, "every opening can be drawn");
    }

    #[test]
    fn bad_patches_are_refused() {
        let base = Settings::default();
        for bad in [
            json!({ "level": 6 }),
            json!({ "level": 0 }),
            json!({ "size": 4 }),
            json!({ "size": 21 }),
            json!({ "size": "15" }),
            json!({ "theme": "blue" }),
            json!({ "renjuOpening": "Kagetsu" }),
            json!({ "renjuOpening": "14D" }),
            json!({ "renjuOpening": 4 }),
            json!({ "volume": 3 }),
            json!([1, 2]),
            json!(null),
        ] {
            let err = base.patched(bad.clone()).unwrap_err();
            assert_eq!(err.code(), "badArgument", "{bad}");
        }
    }

    #[test]
    fn stats_count_per_level_and_read_leniently() {
        let mut stats = Stats::default();
        stats.record(Level::Hard, HumanResult::Win);
        stats.record(Level::Hard, HumanResult::Loss);
        stats.record(Level::Hard, HumanResult::Win);
        stats.record(Level::Beginner, HumanResult::Draw);
        let hard = stats.levels()[3];
        assert_eq!(
            (hard.level, hard.wins, hard.losses, hard.draws),
            (4, 2, 1, 0)
        );
        assert_eq!(stats.levels()[0].draws, 1);

        let text = serde_json::to_string(&stats).unwrap();
        assert_eq!(serde_json::from_str::<Stats>(&text).unwrap(), stats);
        let odd: Stats = serde_json::from_value(json!({ "levels": [
            { "level": 9, "wins": 1, "losses": 0, "draws": 0 },
            { "level": 2, "wins": 3, "losses": 1, "draws": 0 }
        ]}))
        .unwrap();
        assert_eq!(odd.levels().len(), 5);
        assert_eq!(odd.levels()[1].wins, 3);
    }

    #[test]
    fn a_game_is_counted_once_and_the_file_remembers_it() {
        let mut stats = Stats::default();
        assert!(stats.record_game(7, Level::Easy, HumanResult::Win, false));
        assert!(!stats.record_game(7, Level::Easy, HumanResult::Win, true));
        assert_eq!(stats.levels()[1].wins, 1);
        assert_eq!(stats.levels()[1].analysed, 0);
        assert!(stats.record_game(8, Level::Easy, HumanResult::Loss, true));
        assert_eq!(
            (stats.levels()[1].losses, stats.levels()[1].analysed),
            (1, 1)
        );
        // The file keeps the ids; the UI's shape does not show them.
        let file = serde_json::to_value(stats.to_file()).unwrap();
        assert_eq!(file["counted"], json!([7, 8]));
        assert_eq!(serde_json::to_value(&stats).unwrap().get("counted"), None);
        let mut read: Stats = serde_json::from_value(file).unwrap();
        assert_eq!(read, stats);
        assert!(!read.record_game(7, Level::Easy, HumanResult::Win, false));
        // Only the last few are kept, the newest always.
        for uid in 100..200 {
            read.record_game(uid, Level::Hard, HumanResult::Loss, false);
        }
        assert_eq!(read.levels()[3].losses, 100);
        assert!(!read.record_game(199, Level::Hard, HumanResult::Loss, false));
        let file = serde_json::to_value(read.to_file()).unwrap();
        assert_eq!(file["counted"].as_array().unwrap().len(), COUNTED_KEPT);
    }
}
