//! Renju's 26 canonical openings (珠型 / 开局): the first three moves of a renju game.
//!
//! Black plays the centre (`h8` on 15×15), white one of the eight points around it and black
//! a third stone within the central 5×5 square. Up to the board's symmetries this gives 26
//! positions: 13 **direct** ones (直指, 直接打ち), white next to black along a line (`h9`), and
//! 13 **indirect** ones (斜指, 間接打ち), white diagonally next to it (`i9`). Each has a
//! traditional Japanese name, romanised here without long-vowel marks (`Kyugetsu` for
//! Kyūgetsu), and its Chinese name; numbers run 1–13 within each family (`4D` is Kagetsu).
//!
//! | | direct (white `h9`) | | indirect (white `i9`) |
//! |---|---|---|---|
//! | 1D | Kansei 寒星 `h10` | 1I | Chosei 长星 `j10` |
//! | 2D | Keigetsu 溪月 `i10` | 2I | Kyogetsu 峡月 `j9` |
//! | 3D | Sosei 疏星 `j10` | 3I | Kosei 恒星 `j8` |
//! | 4D | Kagetsu 花月 `i9` | 4I | Suigetsu 水月 `j7` |
//! | 5D | Zangetsu 残月 `j9` | 5I | Ryusei 流星 `j6` |
//! | 6D | Ugetsu 雨月 `i8` | 6I | Ungetsu 云月 `i8` |
//! | 7D | Kinsei 金星 `j8` | 7I | Hogetsu 浦月 `i7` |
//! | 8D | Shogetsu 松月 `h7` | 8I | Rangetsu 岚月 `i6` |
//! | 9D | Kyugetsu 丘月 `i7` | 9I | Gingetsu 银月 `h7` |
//! | 10D | Shingetsu 新月 `j7` | 10I | Meisei 明星 `h6` |
//! | 11D | Zuisei 瑞星 `h6` | 11I | Shagetsu 斜月 `g7` |
//! | 12D | Sangetsu 山月 `i6` | 12I | Meigetsu 名月 `g6` |
//! | 13D | Yusei 游星 `j6` | 13I | Suisei 彗星 `f6` |
//!
//! # Sources
//! Checked in December 2026 against public references:
//! - names, kanji and the numbering 1D–13D / 1I–13I: English Wikipedia, "Renju opening
//!   pattern"; renju.in, "Debuts in Renju" (canonical debut list); odoke.moto-nari.com
//!   (直接1号–13号, 間接1号–13号).
//! - the third stones: the sources draw them in diagrams (images), which could not be read
//!   here, so the points come from the project's brief and were checked against what the
//!   texts do say. The traditional naming rule (odoke.moto-nari.com) gives a 月 name when
//!   black's two stones are adjacent (連) or a knight's move apart (桂) and a 星 name when one
//!   point lies between them (間): it holds for all 26. renju.jp's table of Yamaguchi Yusui's
//!   "珠型名の由来" lists the class of each opening; the part that could be read (1D–9D:
//!   間 桂 間 連 桂 連 間 連 連) agrees. The Hamamatsu Renju club notes that Keigetsu is
//!   Kyogetsu's shape elsewhere on the board ("渓月は峡月（盤端関係違いの同形）"), true of
//!   `i10` and `j9` and of no other pair; and Shogetsu's "moon above the tree" (松月,
//!   樹上に月) fits `h7` under `h8`–`h9`. The tests below check the first and third.
//! - Not confirmed from text: which point *within* one class an opening has where the texts
//!   say nothing more (e.g. Kagetsu `i9` and Kyugetsu `i7`, both diagonal to `h8`), and the
//!   classes of 10D–13I in renju.jp's table.
//! - Spellings: the issue text's "Ugetsu/浦月" mixes two openings: Ugetsu is 雨月 (6D), 浦月 is
//!   Hogetsu (7I). The English Wikipedia romanises 明星 as "Myojo"; that spelling is accepted
//!   by [`by_name`] too.
//!
//! # Examples
//! ```
//! use wuzi::openings::renju;
//! use wuzi::{Color, Point, Rule};
//!
//! let kagetsu = renju::by_name("kagetsu").unwrap();
//! assert_eq!(renju::by_name("花月"), Some(kagetsu));
//! assert_eq!(kagetsu.code(), "4D");
//! let game = kagetsu.game(15).unwrap();
//! let rif: Vec<String> = game.moves().iter().map(|p| p.rif(15).to_string()).collect();
//! assert_eq!(rif, ["h8", "h9", "i9"]);
//! assert_eq!((game.rule(), game.to_move()), (Rule::Renju, Color::White));
//! ```

use std::fmt;

use rand::Rng;

use crate::{Game, Point, Rule, SizeError};

/// Where white's first stone stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// White next to black along a line (直指): `h9`.
    Direct,
    /// White diagonally next to black (斜指): `i9`.
    Indirect,
}

impl Family {
    /// `'D'` or `'I'`, as in `4D`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Family::Direct => 'D',
            Family::Indirect => 'I',
        }
    }

    /// White's stone as `(right, up)` from the centre.
    const fn white(self) -> (i8, i8) {
        match self {
            Family::Direct => (0, 1),
            Family::Indirect => (1, 1),
        }
    }
}

/// One canonical opening.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    family: Family,
    number: u8,
    name: &'static str,
    chinese: &'static str,
    japanese: &'static str,
    /// Black's second stone as `(right, up)` from the centre (RIF orientation).
    third: (i8, i8),
}

const fn op(
    family: Family,
    number: u8,
    name: &'static str,
    chinese: &'static str,
    japanese: &'static str,
    third: (i8, i8),
) -> Opening {
    Opening {
        family,
        number,
        name,
        chinese,
        japanese,
        third,
    }
}

use Family::{Direct as D, Indirect as I};

/// All 26 openings: 1D–13D, then 1I–13I.
pub static ALL: [Opening; 26] = [
    op(D, 1, "Kansei", "寒星", "寒星", (0, 2)),
    op(D, 2, "Keigetsu", "溪月", "渓月", (1, 2)),
    op(D, 3, "Sosei", "疏星", "疎星", (2, 2)),
    op(D, 4, "Kagetsu", "花月", "花月", (1, 1)),
    op(D, 5, "Zangetsu", "残月", "残月", (2, 1)),
    op(D, 6, "Ugetsu", "雨月", "雨月", (1, 0)),
    op(D, 7, "Kinsei", "金星", "金星", (2, 0)),
    op(D, 8, "Shogetsu", "松月", "松月", (0, -1)),
    op(D, 9, "Kyugetsu", "丘月", "丘月", (1, -1)),
    op(D, 10, "Shingetsu", "新月", "新月", (2, -1)),
    op(D, 11, "Zuisei", "瑞星", "瑞星", (0, -2)),
    op(D, 12, "Sangetsu", "山月", "山月", (1, -2)),
    op(D, 13, "Yusei", "游星", "遊星", (2, -2)),
    op(I, 1, "Chosei", "长星", "長星", (2, 2)),
    op(I, 2, "Kyogetsu", "峡月", "峡月", (2, 1)),
    op(I, 3, "Kosei", "恒星", "恒星", (2, 0)),
    op(I, 4, "Suigetsu", "水月", "水月", (2, -1)),
    op(I, 5, "Ryusei", "流星", "流星", (2, -2)),
    op(I, 6, "Ungetsu", "云月", "雲月", (1, 0)),
    op(I, 7, "Hogetsu", "浦月", "浦月", (1, -1)),
    op(I, 8, "Rangetsu", "岚月", "嵐月", (1, -2)),
    op(I, 9, "Gingetsu", "银月", "銀月", (0, -1)),
    op(I, 10, "Meisei", "明星", "明星", (0, -2)),
    op(I, 11, "Shagetsu", "斜月", "斜月", (-1, -1)),
    op(I, 12, "Meigetsu", "名月", "名月", (-1, -2)),
    op(I, 13, "Suisei", "彗星", "彗星", (-2, -2)),
];

/// Other spellings [`by_name`] accepts.
const ALIASES: [(&str, &str); 1] = [("myojo", "Meisei")];

impl Opening {
    /// Direct or indirect.
    #[must_use]
    pub const fn family(&self) -> Family {
        self.family
    }

    /// 1 to 13 within the family.
    #[must_use]
    pub const fn number(&self) -> u8 {
        self.number
    }

    /// The short code, `4D` or `13I`.
    #[must_use]
    pub fn code(&self) -> String {
        format!("{}{}", self.number, self.family.letter())
    }

    /// The romanised Japanese name, `Kagetsu`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The Chinese name (simplified characters), `花月`.
    #[must_use]
    pub const fn chinese(&self) -> &'static str {
        self.chinese
    }

    /// The Japanese name in kanji, `花月` (differs from the Chinese name for some openings:
    /// `渓月` / `溪月`, `長星` / `长星`).
    #[must_use]
    pub const fn japanese(&self) -> &'static str {
        self.japanese
    }

    /// The position in [`ALL`] (0 to 25).
    #[must_use]
    pub fn index(&self) -> usize {
        let family = match self.family {
            Family::Direct => 0,
            Family::Indirect => 13,
        };
        family + usize::from(self.number) - 1
    }

    /// The three moves, black first, around the centre of a `size`×`size` board (`h8`, then
    /// `h9` or `i9`, then the third stone on 15×15).
    ///
    /// # Panics
    /// If `size` is below [`MIN_SIZE`](crate::MIN_SIZE) (every supported board holds them).
    #[must_use]
    pub fn moves(&self, size: u8) -> [Point; 3] {
        assert!(size >= crate::MIN_SIZE, "board size {size} is too small");
        let c = Point::center(size);
        let at = |(right, up): (i8, i8)| {
            Point::new(
                c.x().wrapping_add_signed(right),
                c.y().wrapping_add_signed(-up),
            )
        };
        [at((0, 0)), at(self.family.white()), at(self.third)]
    }

    /// A renju game on a `size`×`size` board with the three opening moves played (as ordinary
    /// moves 1–3, so records keep them in order); white is to move.
    ///
    /// # Errors
    /// [`SizeError`] for an unsupported board size.
    pub fn game(&self, size: u8) -> Result<Game, SizeError> {
        let mut game = Game::new(Rule::Renju, size)?;
        for p in self.moves(size) {
            game.try_play(p)
                .expect("every canonical opening is legal on every board size");
        }
        Ok(game)
    }
}

impl fmt::Display for Opening {
    /// `Kagetsu (花月, 4D)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {})", self.name, self.chinese, self.code())
    }
}

/// The opening at `index` in [`ALL`] (0 to 25).
#[must_use]
pub fn get(index: usize) -> Option<&'static Opening> {
    ALL.get(index)
}

/// Finds an opening by its romanised name in any case (`kagetsu`, `KAGETSU`; long vowels may
/// be marked, `Kyūgetsu`), its Chinese or Japanese name (`花月`, `渓月`, `溪月`), or its code
/// (`4D`, `13i`). Surrounding whitespace is ignored.
#[must_use]
pub fn by_name(name: &str) -> Option<&'static Opening> {
    let key: String = name
        .trim()
        .chars()
        .map(|c| match c {
            'ō' | 'Ō' => 'o',
            'ū' | 'Ū' => 'u',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    let key = ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map_or(key.as_str(), |(_, name)| name);
    ALL.iter().find(|o| {
        o.name.eq_ignore_ascii_case(key)
            || o.chinese == key
            || o.japanese == key
            || o.code().eq_ignore_ascii_case(key)
    })
}

/// An opening chosen uniformly at random.
pub fn random(rng: &mut impl Rng) -> &'static Opening {
    &ALL[rng.gen_range(0..ALL.len())]
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::Color;

    /// A position as sets of black and white points, the least image under the 8 symmetries.
    fn canonical(moves: [Point; 3], size: u8) -> (Vec<Point>, Vec<Point>) {
        (0..8)
            .map(|sym| {
                let t = |p: Point| p.transform(sym, size);
                let mut black = vec![t(moves[0]), t(moves[2])];
                black.sort_unstable();
                (black, vec![t(moves[1])])
            })
            .min()
            .expect("eight images")
    }

    #[test]
    fn twenty_six_openings_numbered_in_order() {
        assert_eq!(ALL.len(), 26);
        for (i, o) in ALL.iter().enumerate() {
            let family = if i < 13 { D } else { I };
            assert_eq!((o.family(), usize::from(o.number())), (family, i % 13 + 1));
            assert_eq!(o.index(), i);
            assert_eq!(get(i), Some(o));
        }
        assert_eq!(get(26), None);
    }

    #[test]
    fn they_are_all_the_openings_and_each_once() {
        // Every white point next to h8 and every third point in the central 5x5, up to the
        // board's symmetries: exactly the 26 of the table, none twice.
        let size = 15;
        let c = Point::center(size);
        let near = |d: u8| {
            (c.x() - d..=c.x() + d)
                .flat_map(move |x| (c.y() - d..=c.y() + d).map(move |y| Point::new(x, y)))
        };
        let mut all = BTreeSet::new();
        for w in near(1).filter(|&p| p != c) {
            for b in near(2).filter(|&p| p != c && p != w) {
                all.insert(canonical([c, w, b], size));
            }
        }
        let table: BTreeSet<_> = ALL.iter().map(|o| canonical(o.moves(size), size)).collect();
        assert_eq!(table.len(), 26, "two table entries are the same opening");
        assert_eq!(table, all);
    }

    #[test]
    fn every_opening_is_a_legal_renju_start_on_every_size() {
        for size in crate::MIN_SIZE..=crate::MAX_SIZE {
            for o in &ALL {
                let g = o.game(size).unwrap();
                let [b1, w, b3] = o.moves(size);
                assert_eq!(g.moves(), [b1, w, b3]);
                assert_eq!(b1, Point::center(size));
                assert!(w.x().abs_diff(b1.x()) <= 1 && w.y().abs_diff(b1.y()) <= 1);
                assert!(b3.x().abs_diff(b1.x()) <= 2 && b3.y().abs_diff(b1.y()) <= 2);
                assert!(g.result().is_none());
                assert_eq!(g.to_move(), Color::White);
            }
        }
        assert!(ALL[0].game(4).is_err());
    }

    #[test]
    fn the_table_matches_the_coordinates_players_use() {
        let rif = |o: &Opening| o.moves(15).map(|p| p.rif(15).to_string());
        assert_eq!(rif(by_name("Kagetsu").unwrap()), ["h8", "h9", "i9"]);
        assert_eq!(rif(by_name("Yusei").unwrap()), ["h8", "h9", "j6"]);
        assert_eq!(rif(by_name("Chosei").unwrap()), ["h8", "i9", "j10"]);
        assert_eq!(rif(by_name("Suisei").unwrap()), ["h8", "i9", "f6"]);
        assert_eq!(rif(by_name("Shagetsu").unwrap()), ["h8", "i9", "g7"]);
    }

    #[test]
    fn names_follow_the_traditional_rule() {
        // 月 when black's stones touch (連) or are a knight's move apart (桂), 星 when one
        // point lies between them (間).
        for o in &ALL {
            let (dx, dy) = (o.third.0.unsigned_abs(), o.third.1.unsigned_abs());
            let gap = dx.max(dy) == 2 && (dx.min(dy) == 0 || dx == dy);
            let moon = o.japanese.ends_with('月');
            assert_eq!(moon, !gap, "{o}");
            assert!(o.name.ends_with(if moon { "getsu" } else { "sei" }), "{o}");
            assert_eq!(o.chinese.ends_with('月'), moon, "{o}");
        }
    }

    #[test]
    fn keigetsu_is_kyogetsu_elsewhere_on_the_board() {
        // The same three-stone shape up to symmetry and translation.
        fn shape(o: &Opening) -> Vec<(i8, i8, bool)> {
            let stones = [((0, 0), true), (o.family.white(), false), (o.third, true)];
            (0..8)
                .map(|sym: u8| {
                    let mut s: Vec<(i8, i8, bool)> = stones
                        .iter()
                        .map(|&((x, y), black)| {
                            let (x, y) = if sym & 4 != 0 { (y, x) } else { (x, y) };
                            let x = if sym & 1 != 0 { -x } else { x };
                            let y = if sym & 2 != 0 { -y } else { y };
                            (x, y, black)
                        })
                        .collect();
                    let (mx, my) = (
                        s.iter().map(|t| t.0).min().unwrap_or(0),
                        s.iter().map(|t| t.1).min().unwrap_or(0),
                    );
                    for t in &mut s {
                        t.0 -= mx;
                        t.1 -= my;
                    }
                    s.sort_unstable();
                    s
                })
                .min()
                .expect("eight images")
        }
        let kei = by_name("Keigetsu").unwrap();
        let kyo = by_name("Kyogetsu").unwrap();
        assert_eq!(shape(kei), shape(kyo));
        // No other opening has that shape.
        let same = ALL.iter().filter(|o| shape(o) == shape(kyo)).count();
        assert_eq!(same, 2);
    }

    #[test]
    fn lookup_round_trips() {
        for o in &ALL {
            for key in [
                o.name.to_string(),
                o.name.to_uppercase(),
                o.name.to_lowercase(),
                format!("  {}\t", o.name),
                o.chinese.to_string(),
                o.japanese.to_string(),
                o.code(),
                o.code().to_lowercase(),
            ] {
                assert_eq!(by_name(&key), Some(o), "{key:?}");
            }
        }
        assert_eq!(by_name("Kyūgetsu").unwrap().code(), "9D");
        assert_eq!(by_name("SHŌGETSU").unwrap().code(), "8D");
        assert_eq!(by_name("Myojo").unwrap().name(), "Meisei");
        assert_eq!(by_name("溪月"), by_name("渓月"));
        for bad in ["", "getsu", "14D", "0I", "4X", "Kagetsu4D"] {
            assert_eq!(by_name(bad), None, "{bad:?}");
        }
        assert_eq!(ALL[3].to_string(), "Kagetsu (花月, 4D)");
    }

    #[test]
    fn random_picks_every_opening() {
        let mut rng = StdRng::seed_from_u64(7);
        let seen: BTreeSet<usize> = (0..2000).map(|_| random(&mut rng).index()).collect();
        assert_eq!(seen.len(), 26);
    }
}
