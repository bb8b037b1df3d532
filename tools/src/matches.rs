//! Self-play matches between levels in one process, for calibrating the ladder (the `ladder`
//! example).

use std::sync::atomic::AtomicBool;

use wuzi::ai::openings::Opening;
use wuzi::{Color, Engine, Game, Level, Limits, Point, Rule};

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// First player (plays black in even-numbered games).
    pub a: Level,
    /// Second player.
    pub b: Level,
    /// Number of games; colours alternate and each opening is played once with each colour.
    pub games: u32,
    /// Rule of every game.
    pub rule: Rule,
    /// Board size.
    pub size: u8,
    /// Per-move limits for `a` (`None`: the level's default).
    pub limits_a: Option<Limits>,
    /// Per-move limits for `b` (`None`: the level's default).
    pub limits_b: Option<Limits>,
    /// Openings, used in order (those that do not fit the board or are illegal are skipped);
    /// empty means every game starts from the empty board.
    pub openings: Vec<Opening>,
    /// Seed for every random choice; a node-limited match is reproducible.
    pub seed: u64,
    /// Transposition-table size per engine.
    pub tt_mib: usize,
}

/// How one game ended for player `a`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResultForA {
    /// `a` won.
    Win,
    /// `a` lost.
    Loss,
    /// Full board or move cap.
    Draw,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: u32,
    /// The colour `a` played.
    pub a_color: Color,
    /// Index into the opening list used, if any.
    pub opening: Option<usize>,
    /// All moves, opening included, black first.
    pub moves: Vec<Point>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// The result from `a`'s side.
    pub outcome: ResultForA,
}

/// The match totals from `a`'s side.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Games played.
    pub games: u32,
    /// Games `a` won.
    pub a_wins: u32,
    /// Games `b` won.
    pub b_wins: u32,
    /// Draws.
    pub draws: u32,
    /// Every game.
    pub records: Vec<GameRecord>,
}

impl MatchReport {
    /// `a`'s score in percent (a draw counts half).
    #[must_use]
    pub fn score_percent(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (f64::from(self.a_wins) + f64::from(self.draws) / 2.0) * 100.0 / f64::from(self.games)
    }
}

/// Sets up the opening for game `g`: the first opening (cycling, from the one for this pair
/// of games) that fits and is legal.
fn start(cfg: &MatchConfig, pair: usize) -> (Game, Option<usize>) {
    let fresh = || Game::new(cfg.rule, cfg.size).ok();
    for k in 0..cfg.openings.len() {
        let i = (pair + k) % cfg.openings.len();
        let Some(points) = cfg.openings[i].points(cfg.size) else {
            continue;
        };
        if let Ok(g) = Game::from_moves(cfg.rule, cfg.size, &points) {
            if !g.is_over() {
                return (g, Some(i));
            }
        }
    }
    (
        fresh().unwrap_or_else(|| Game::new(cfg.rule, 15).expect("15 is a valid size")),
        None,
    )
}

/// Plays the match, calling `on_game` after each game (for progress output).
///
/// An engine that fails to produce a legal move while one exists loses that game (this is a
/// bug guard; the engine never does it in the tests).
pub fn play_match(cfg: &MatchConfig, mut on_game: impl FnMut(&GameRecord)) -> MatchReport {
    let mut report = MatchReport::default();
    let mut engine_a = Engine::new(cfg.tt_mib);
    let mut engine_b = Engine::new(cfg.tt_mib);
    let cancel = AtomicBool::new(false);
    for g in 0..cfg.games {
        let a_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (mut game, opening) = start(cfg, (g / 2) as usize);
        engine_a.clear();
        engine_b.clear();
        let cap = usize::from(cfg.size) * usize::from(cfg.size);
        let mut forfeit: Option<Color> = None;
        while !game.is_over() && game.moves().len() < cap {
            let side = game.to_move();
            let (engine, level, limits) = if side == a_color {
                (&mut engine_a, cfg.a, cfg.limits_a)
            } else {
                (&mut engine_b, cfg.b, cfg.limits_b)
            };
            let seed = cfg
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(g) << 20)
                .wrapping_add(game.moves().len() as u64);
            let limits = limits.unwrap_or_else(|| level.default_limits());
            let r = engine.search(&game, level, limits, &cancel, seed);
            match r.best.map(|p| game.try_play(p)) {
                Some(Ok(_)) => {}
                _ => {
                    forfeit = Some(side);
                    break;
                }
            }
        }
        let winner = match forfeit {
            Some(loser) if Point::all(cfg.size).any(|p| game.check(p).is_ok()) => {
                Some(loser.other())
            }
            Some(_) => None,
            None => game.result().and_then(|r| r.winner),
        };
        let outcome = match winner {
            Some(c) if c == a_color => ResultForA::Win,
            Some(_) => ResultForA::Loss,
            None => ResultForA::Draw,
        };
        match outcome {
            ResultForA::Win => report.a_wins += 1,
            ResultForA::Loss => report.b_wins += 1,
            ResultForA::Draw => report.draws += 1,
        }
        report.games += 1;
        let record = GameRecord {
            index: g,
            a_color,
            opening,
            moves: game.moves().to_vec(),
            winner,
            outcome,
        };
        on_game(&record);
        report.records.push(record);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi::ai::openings::piskvork_openings;

    #[test]
    fn easy_beats_beginner_in_a_short_match() {
        let cfg = MatchConfig {
            a: Level::Easy,
            b: Level::Beginner,
            games: 4,
            rule: Rule::Freestyle,
            size: 15,
            limits_a: Some(Limits::nodes(3_000)),
            limits_b: None,
            openings: piskvork_openings(),
            seed: 3,
            tt_mib: 2,
        };
        let mut seen = 0;
        let r = play_match(&cfg, |rec| {
            seen += 1;
            assert!(rec.moves.len() >= 3);
        });
        assert_eq!(seen, 4);
        assert_eq!(r.games, 4);
        assert_eq!(r.a_wins + r.b_wins + r.draws, 4);
        assert!(r.a_wins >= 3, "{r:?}");
        // Reproducible with node limits.
        let again = play_match(&cfg, |_| {});
        let moves = |r: &MatchReport| {
            r.records
                .iter()
                .map(|g| g.moves.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&r), moves(&again));
    }
}
