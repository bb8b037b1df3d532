//! Tallying finished pairs and printing them: a progress line per pair, the final report and
//! a Markdown row for the docs.

use std::cell::OnceCell;
use std::fmt::Write as _;

use wuzi::{Color, Rule};
use wuzi_tools::tune::OPEN_VCF_NODES;

use crate::game::Reason;
use crate::runner::PairResult;
use crate::stats::{Pentanomial, Times, Wld};
use crate::times::{times_table, TimedGame, TimesRow};

/// One engine's numbers.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Its move times at the manager's side of the pipe.
    pub times: Times,
    /// Its losses per [`Reason`] (indexed like [`Reason::ALL`]).
    pub losses: [u64; 6],
}

impl EngineTally {
    fn lost_by(&self, reason: Reason) -> u64 {
        self.losses[reason_index(reason)]
    }
}

fn reason_index(reason: Reason) -> usize {
    Reason::ALL.iter().position(|&r| r == reason).unwrap_or(0)
}

/// Everything counted so far, from engine A's point of view.
#[derive(Clone, Debug)]
pub struct Tally {
    /// `[A, B]`.
    pub names: [String; 2],
    /// `[A, B]` per-move limits, for overruns and time shares.
    pub turn_ms: [u64; 2],
    /// The rule, to replay the games for their open positions.
    pub rule: Rule,
    /// The board size.
    pub size: u8,
    /// A's overall results.
    pub a: Wld,
    /// A's results as black.
    pub a_black: Wld,
    /// A's results as white.
    pub a_white: Wld,
    /// Pair results.
    pub penta: Pentanomial,
    /// `[A, B]`.
    pub engines: [EngineTally; 2],
    /// Games ended per [`Reason`] (indexed like [`Reason::ALL`]).
    pub endings: [u64; 6],
    /// Every game's moves and times, classified for the report only (not while games run).
    games: Vec<TimedGame>,
    /// `[A, B]` move times in open positions, once computed.
    open: OnceCell<[Times; 2]>,
}

impl Tally {
    /// Nothing counted yet.
    #[must_use]
    pub fn new(a: &str, b: &str, turn_ms: [u64; 2], rule: Rule, size: u8) -> Tally {
        Tally {
            names: [a.to_string(), b.to_string()],
            turn_ms,
            rule,
            size,
            a: Wld::default(),
            a_black: Wld::default(),
            a_white: Wld::default(),
            penta: Pentanomial::default(),
            engines: [EngineTally::default(), EngineTally::default()],
            endings: [0; 6],
            games: Vec::new(),
            open: OnceCell::new(),
        }
    }

    /// Counts a finished pair.
    pub fn add(&mut self, pair: &PairResult) {
        for (g, a_color) in pair.games.iter().zip([Color::Black, Color::White]) {
            self.a.add(a_color, g.winner);
            match a_color {
                Color::Black => self.a_black.add(a_color, g.winner),
                Color::White => self.a_white.add(a_color, g.winner),
            }
            for (i, &ms) in g.times_ms.iter().enumerate() {
                let engine = usize::from(g.mover(i) != a_color);
                self.engines[engine].times.push(ms);
            }
            if let Some(w) = g.winner {
                let loser = usize::from(w == a_color);
                self.engines[loser].losses[reason_index(g.reason)] += 1;
            }
            self.endings[reason_index(g.reason)] += 1;
            self.games.push(TimedGame {
                moves: g.moves.clone(),
                opening_len: g.opening_len,
                times_ms: g.times_ms.clone(),
                engines: match a_color {
                    Color::Black => [0, 1],
                    Color::White => [1, 0],
                },
            });
        }
        self.penta.add(pair.a_half_points());
        self.open = OnceCell::new();
    }

    /// `[A, B]` move times in open positions (see [`crate::times`]), classified on the first
    /// call after a pair was added.
    pub fn open_times(&self) -> &[Times; 2] {
        self.open.get_or_init(|| {
            let mut open = [Times::default(), Times::default()];
            for g in &self.games {
                // The referee accepted every move, so every game replays; one that did not
                // would only be left out.
                let _ = g.add_open_times(&mut open, self.rule, self.size, OPEN_VCF_NODES);
            }
            open
        })
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.a.games()
    }

    /// `elo +9.4 ± 31.0`, or `elo -` before any pair.
    fn elo_text(&self) -> String {
        self.penta
            .elo()
            .map_or_else(|| "-".to_string(), |e| e.text())
    }

    /// The progress line of `wuzi-arena match` after `pair`.
    #[must_use]
    pub fn match_line(&self, pair: &PairResult, total: usize, opening: &str) -> String {
        let half = pair.a_half_points();
        let pts = |h: usize| match h % 2 {
            0 => format!("{}", h / 2),
            _ => format!("{}.5", h / 2),
        };
        format!(
            "pair {:>4}/{total} ({opening}): {} {}-{} {}   games {}  W-L-D {}  score {:.1}%  elo {}",
            pair.index + 1,
            self.names[0],
            pts(half),
            pts(4 - half),
            self.names[1],
            self.games(),
            self.a.dashed(),
            self.a.score_percent(),
            self.elo_text(),
        )
    }

    /// The progress line of `wuzi-arena sprt`.
    #[must_use]
    pub fn sprt_line(&self, llr: f64, bounds: (f64, f64)) -> String {
        let p = self.penta.0;
        format!(
            "pairs {}  games {}  W-L-D {}  pentanomial [{},{},{},{},{}]  elo {}  LLR {:.2} ({:.2}, {:.2})",
            self.penta.pairs(),
            self.games(),
            self.a.dashed(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            self.elo_text(),
            llr,
            bounds.0,
            bounds.1
        )
    }

    /// The final report (several lines, ending in a newline).
    #[must_use]
    pub fn report(&self, title: &str) -> String {
        let mut s = String::new();
        let a = &self.names[0];
        let _ = writeln!(s, "{title}");
        let _ = writeln!(
            s,
            "games {}  ({} pairs)   {a}: W {}  L {}  D {}   score {:.1}%",
            self.games(),
            self.penta.pairs(),
            self.a.w,
            self.a.l,
            self.a.d,
            self.a.score_percent()
        );
        let _ = writeln!(
            s,
            "elo {} (95%, logistic, from the pentanomial pair results {:?} = LL LD DD/WL WD WW)",
            self.elo_text(),
            self.penta.0
        );
        let b = &self.names[1];
        let _ = writeln!(
            s,
            "{a} as black: W-L-D {}    {a} as white: W-L-D {}",
            self.a_black.with_noise(),
            self.a_white.with_noise(),
        );
        let _ = writeln!(
            s,
            "{b} as black: W-L-D {}    {b} as white: W-L-D {}",
            self.a_white.mirrored().with_noise(),
            self.a_black.mirrored().with_noise(),
        );
        let endings: Vec<String> = Reason::ALL
            .iter()
            .zip(self.endings)
            .map(|(r, n)| format!("{} {n}", r.name()))
            .collect();
        let _ = writeln!(s, "endings: {}", endings.join(", "));
        let open = self.open_times();
        let rows: Vec<TimesRow<'_>> = (0..2)
            .map(|i| TimesRow {
                name: &self.names[i],
                turn_ms: self.turn_ms[i],
                all: &self.engines[i].times,
                open: &open[i],
            })
            .collect();
        s.push_str(&times_table(&rows, OPEN_VCF_NODES));
        for (name, e) in self.names.iter().zip(&self.engines) {
            let _ = writeln!(
                s,
                "losses of {name}: timeout {}, illegal move {}, forbidden {}, crash {}",
                e.lost_by(Reason::Timeout),
                e.lost_by(Reason::Illegal),
                e.lost_by(Reason::Forbidden),
                e.lost_by(Reason::Crash),
            );
        }
        s
    }

    /// A Markdown table (header, separator and one row) summarising the run.
    #[must_use]
    pub fn markdown(&self) -> String {
        let [a, b] = &self.names;
        let (rule, size) = (self.rule, self.size);
        let [ta, tb] = [&self.engines[0].times, &self.engines[1].times];
        let [oa, ob] = self.open_times();
        format!(
            "| A | B | rule | ms/move | games | A W-L-D | A score | Elo (95%) | A as black | A as white | B as black | B as white | A ms mean / p99 | B ms mean / p99 | open ms mean A / B |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n\
             | {a} | {b} | {rule} {size}x{size} | {} | {} | {} | {:.1}% | {} | {} | {} | {} | {} | {:.0} / {:.0} | {:.0} / {:.0} | {:.0} / {:.0} |\n",
            turn_text(self.turn_ms),
            self.games(),
            self.a.dashed(),
            self.a.score_percent(),
            self.elo_text(),
            self.a_black.with_noise(),
            self.a_white.with_noise(),
            self.a_white.mirrored().with_noise(),
            self.a_black.mirrored().with_noise(),
            ta.mean(),
            ta.percentile(99.0),
            tb.mean(),
            tb.percentile(99.0),
            oa.mean(),
            ob.mean(),
        )
    }

    /// The SPRT verdict line, for commit messages.
    #[must_use]
    pub fn verdict_line(&self, head: &str, verdict: &str, llr: f64) -> String {
        let elo = self
            .penta
            .elo()
            .map_or_else(|| "-".to_string(), |e| e.text());
        format!(
            "{head}: {verdict} after {} games (W {} L {} D {}), elo {elo}, LLR {:.2}",
            self.games(),
            self.a.w,
            self.a.l,
            self.a.d,
            llr
        )
    }
}

/// `"200"` when both sides had the same turn, `"400 / 200"` (A / B) under time odds.
#[must_use]
pub fn turn_text(turn_ms: [u64; 2]) -> String {
    if turn_ms[0] == turn_ms[1] {
        turn_ms[0].to_string()
    } else {
        format!("{} / {}", turn_ms[0], turn_ms[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRecord;
    use wuzi::Point;

    #[test]
    fn pairs_count_from_a_view() {
        let mut t = Tally::new("a", "b", [100, 100], Rule::Renju, 15);
        // Game 1: A black wins; game 2: A white, B (black) wins by A's illegal move.
        let pair = PairResult {
            index: 0,
            opening: 0,
            games: [
                GameRecord::sample(Some(Color::Black), Reason::Five, &[10.0, 20.0, 30.0]),
                GameRecord::sample(Some(Color::Black), Reason::Illegal, &[40.0, 150.0]),
            ],
        };
        t.add(&pair);
        assert_eq!(pair.a_half_points(), 2);
        assert_eq!(t.a, Wld { w: 1, l: 1, d: 0 });
        assert_eq!(t.a_black.w, 1);
        assert_eq!(t.a_white.l, 1);
        assert_eq!(t.penta.0, [0, 0, 1, 0, 0]);
        // After a 3-stone opening white moves first. Game 1: white = B moves 10, 30; A 20.
        // Game 2: white = A moves 40; B 150.
        assert_eq!(t.engines[0].times.len(), 2);
        assert_eq!(t.engines[1].times.len(), 3);
        assert_eq!(t.engines[1].times.over(100.0), 1);
        assert_eq!(t.engines[0].lost_by(Reason::Illegal), 1);
        assert_eq!(t.engines[1].lost_by(Reason::Five), 1);
        let line = t.sprt_line(0.5, (-2.94, 2.94));
        assert!(
            line.starts_with("pairs 1  games 2  W-L-D 1-1-0  pentanomial [0,0,1,0,0]  elo +0.0 ± inf  LLR 0.50 (-2.94, 2.94)"),
            "{line}"
        );
        let md = t.markdown();
        assert_eq!(md.lines().count(), 3);
        assert!(
            md.lines()
                .nth(2)
                .unwrap()
                .starts_with("| a | b | renju 15x15 | 100 | 2 | 1-1-0 | 50.0% |"),
            "{md}"
        );
    }

    #[test]
    fn colour_rows_carry_their_noise_and_the_opponents_view() {
        let w = Wld { w: 12, l: 12, d: 0 };
        // 24 games at 50%: 1.96 * 0.5 / sqrt(24) = 20.0 points.
        assert!(
            (w.noise_percent() - 20.0).abs() < 0.05,
            "{}",
            w.noise_percent()
        );
        assert_eq!(Wld { w: 3, l: 0, d: 0 }.noise_percent(), 0.0);
        assert_eq!(Wld::default().noise_percent(), 0.0);
        let v = Wld { w: 1, l: 25, d: 0 };
        assert_eq!(v.mirrored().dashed(), "25-1-0");
        assert!(
            v.with_noise().starts_with("1-25-0 (3.8% ± 7.4)"),
            "{}",
            v.with_noise()
        );
    }

    #[test]
    fn reports_show_open_move_times() {
        let rif = |s: &str| Point::from_rif(s, 15).unwrap();
        let game = |moves: &str, winner, times: &[f64]| GameRecord {
            opening_len: 2,
            moves: moves.split(' ').map(rif).collect(),
            winner,
            reason: Reason::Five,
            detail: None,
            times_ms: times.to_vec(),
            messages: Vec::new(),
        };
        // The same game twice, A black and then B black: after i8 h10 j8 black has an open
        // three (h8 i8 j8), so only the first three moves are open.
        let pair = PairResult {
            index: 0,
            opening: 0,
            games: [
                game(
                    "h8 h9 i8 h10 j8 h11 k8 l8 g8",
                    Some(Color::Black),
                    &[100.0, 200.0, 300.0, 400.0, 500.0, 2.0, 3.0],
                ),
                game(
                    "h8 h9 i8 h10 j8 h11 k8 l8 g8",
                    Some(Color::Black),
                    &[10.0, 20.0, 30.0, 40.0, 50.0, 4.0, 5.0],
                ),
            ],
        };
        let mut t = Tally::new("a", "b", [1000, 1000], Rule::Freestyle, 15);
        t.add(&pair);
        // Open: A 100, 300 (black), 20 (white); B 200 (white), 10, 30 (black).
        assert_eq!(t.open_times()[0].len(), 3);
        assert_eq!(t.open_times()[0].mean(), 140.0);
        assert_eq!(t.open_times()[1].mean(), 80.0);
        let report = t.report("title");
        let indent = " ".repeat(31);
        let table = [
            "in open positions, ms:         engine   moves      mean       p50  mean/turn"
                .to_string(),
            format!("{indent}a            3     140.0     100.0      14.0%"),
            format!("{indent}b            3      80.0      30.0       8.0%"),
        ]
        .join("\n");
        assert!(report.contains(&table), "{report}");
        assert!(t.markdown().ends_with("| 140 / 80 |\n"), "{}", t.markdown());
    }
}
