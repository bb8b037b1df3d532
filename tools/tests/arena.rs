//! The real `wuzi-arena` binary managing real brains: two `pbrain-wuzi` processes, and
//! misbehaving scripted brains that must lose (by an illegal move, on time, by crashing)
//! while the run completes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use wuzi::notation::parse_moves_game;
use wuzi::Rule;

const ARENA: &str = env!("CARGO_BIN_EXE_wuzi-arena");

/// The product's `pbrain-wuzi`. It is a binary of another package (`wuzi`), so Cargo names no
/// `CARGO_BIN_EXE_` for it here: it is the one built beside `wuzi-arena` in the same target
/// directory. `cargo test --workspace` builds both; `cargo test -p wuzi-tools` alone needs
/// `cargo build -p wuzi --bin pbrain-wuzi` first (or an up-to-date one is not tested).
fn pbrain() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = Path::new(ARENA)
            .parent()
            .expect("wuzi-arena is in a directory");
        let path = dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
        assert!(
            path.is_file(),
            "no {}: run `cargo test --workspace`, or `cargo build -p wuzi --bin pbrain-wuzi` \
             before `cargo test -p wuzi-tools`",
            path.display()
        );
        path.to_str().expect("a UTF-8 target path").to_string()
    })
}

/// A POSIX-shell brain that answers `START` and then misbehaves at its first move as its
/// first argument says: `garbage` (a MESSAGE, then text that is not a move), `occupied`
/// (7,7, which every test opening holds), `offboard`, `silent` (never answers a move nor
/// `ABOUT`) or `crash` (exits).
const BAD_BRAIN: &str = r#"
mode=$1
cr=$(printf '\r')
while IFS= read -r line; do
  line=${line%"$cr"}
  case "$line" in
    START*) echo OK ;;
    ABOUT) [ "$mode" = silent ] || echo 'name="bad", version="1"' ;;
    BEGIN|DONE|TURN*)
      case "$mode" in
        garbage) echo "MESSAGE thinking hard"; echo "my move is the centre" ;;
        occupied) echo "7,7" ;;
        offboard) echo "15,3" ;;
        silent) ;;
        crash) exit 3 ;;
      esac ;;
    END) exit 0 ;;
  esac
done
"#;

/// A scratch directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("wuzi-arena-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn arena(args: &[&str]) -> Output {
    Command::new(ARENA)
        .args(args)
        .output()
        .expect("wuzi-arena runs")
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn games(path: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Replays a recorded game through the referee and checks that its result is the referee's.
fn check_game(g: &serde_json::Value, rule: Rule) {
    let moves = g["moves"].as_str().unwrap();
    let game = parse_moves_game(moves, rule, 15)
        .unwrap_or_else(|e| panic!("illegal record {moves:?}: {e}"));
    let opening_len = g["opening"].as_str().unwrap().split_whitespace().count();
    let times = g["times_ms"].as_array().unwrap();
    assert_eq!(times.len(), game.moves().len() - opening_len, "{g}");
    match (g["reason"].as_str().unwrap(), g["result"].as_str().unwrap()) {
        ("five", winner) => {
            let result = game.result().expect("a five ends the game");
            let color = result.winner.expect("a five has a winner");
            assert_eq!(color.name(), winner, "{g}");
        }
        ("full", "draw") => assert!(
            game.result().is_some_and(|r| r.winner.is_none()),
            "a full board, or black without a legal point: {g}"
        ),
        other => panic!("unexpected ending {other:?} between two pbrain-wuzi: {g}"),
    }
}

#[test]
fn two_pbrains_play_pairs() {
    let dir = TempDir::new("pbrains");
    let openings = dir.file(
        "openings.txt",
        "# two openings\nh8 i9 g7\nh8 g9 j9  # comment\n",
    );
    let games_out = dir.path("games.jsonl");
    let out = arena(&[
        "match",
        "--a",
        pbrain(),
        "--b",
        pbrain(),
        "--name-a",
        "one",
        "--name-b",
        "two",
        "--rule",
        "renju",
        "--turn-ms",
        "50",
        "--memory-mib",
        "16",
        "--openings",
        openings.to_str().unwrap(),
        "--pairs",
        "2",
        "--concurrency",
        "2",
        "--games-out",
        games_out.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("\ngames 4  (2 pairs)"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("pair ")).count(), 2);
    assert!(
        stdout.contains("| one | two | renju 15x15 | 50 | 4 |"),
        "{stdout}"
    );
    assert!(stdout.contains("losses of one: timeout 0, illegal move 0, forbidden 0, crash 0"));
    let all = games(&games_out);
    assert_eq!(all.len(), 4);
    for g in &all {
        check_game(g, Rule::Renju);
    }
    // Each pair: the same opening, colours swapped.
    for pair in all.chunks(2) {
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["black"], "one");
        assert_eq!(pair[1]["black"], "two");
    }
    // `times` on the games file counts the moves as the report did, open positions included
    // (the means may differ in the last digit: the file keeps tenths of a millisecond).
    let out = arena(&[
        "times",
        "--games",
        games_out.to_str().unwrap(),
        "--rule",
        "renju",
        "--turn-ms",
        "50",
    ]);
    let times = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        times.starts_with("4 games, renju 15x15, 50 ms/move\n"),
        "{times}"
    );
    let counts = |report: &str| -> Vec<String> {
        let start = report.find("move times at the manager").unwrap();
        let end = report.find("(open: ").unwrap();
        report[start..end]
            .lines()
            .filter(|l| l.starts_with(' '))
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    let counted = counts(&stdout);
    assert_eq!(counted.len(), 4, "{stdout}");
    assert_eq!(counts(&times), counted, "{times}\n{stdout}");
}

/// Plays one pair of pbrain-wuzi (A) against the bad brain (B) and returns the games.
fn against_bad_brain(mode: &str) -> (String, Vec<serde_json::Value>) {
    against_bad_brain_with(mode, &[])
}

/// [`against_bad_brain`] with more flags for the arena.
fn against_bad_brain_with(mode: &str, extra: &[&str]) -> (String, Vec<serde_json::Value>) {
    let dir = TempDir::new(&format!("{mode}{}", extra.len()));
    let script = dir.file("bad.sh", BAD_BRAIN);
    let openings = dir.file("openings.txt", "h8 i9 g7\n");
    let games_out = dir.path("games.jsonl");
    let bad = format!("sh '{}' {mode}", script.display());
    let mut args = vec![
        "match",
        "--a",
        pbrain(),
        "--b",
        &bad,
        "--name-b",
        "bad",
        "--turn-ms",
        "50",
        "--tolerance-ms",
        "200",
        "--start-ms",
        "1000",
        "--memory-mib",
        "16",
        "--openings",
        openings.to_str().unwrap(),
        "--pairs",
        "1",
        "--concurrency",
        "1",
        "--games-out",
        games_out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = arena(&args);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("\ngames 2  (1 pairs)"), "{stdout}");
    let all = games(&games_out);
    assert_eq!(all.len(), 2);
    for g in &all {
        assert_eq!(g["winner"], "pbrain-wuzi", "{g}");
        let loser = if g["black"] == "bad" {
            "black"
        } else {
            "white"
        };
        let winner = if loser == "black" { "white" } else { "black" };
        assert_eq!(g["result"], winner, "{g}");
        // The bad brain never got a stone on the board.
        let moves = g["moves"].as_str().unwrap().split_whitespace().count();
        let expected = if loser == "white" { 3 } else { 4 };
        assert_eq!(moves, expected, "{g}");
    }
    (stdout, all)
}

#[test]
fn garbage_loses_by_illegal_move() {
    let (stdout, all) = against_bad_brain("garbage");
    for g in &all {
        assert_eq!(g["reason"], "illegal", "{g}");
        assert!(
            g["detail"]
                .as_str()
                .unwrap()
                .contains("my move is the centre"),
            "{g}"
        );
        assert_eq!(g["messages"][0], "MESSAGE thinking hard", "{g}");
    }
    assert!(stdout.contains("losses of bad: timeout 0, illegal move 2, forbidden 0, crash 0"));
}

#[test]
fn occupied_and_offboard_points_lose() {
    for mode in ["occupied", "offboard"] {
        let (_, all) = against_bad_brain(mode);
        for g in &all {
            assert_eq!(g["reason"], "illegal", "{g}");
        }
        assert!(all[0]["detail"]
            .as_str()
            .unwrap()
            .contains(if mode == "occupied" {
                "occupied"
            } else {
                "off the 15x15 board"
            }));
    }
}

#[test]
fn silence_loses_on_time() {
    let (stdout, all) = against_bad_brain("silent");
    for g in &all {
        assert_eq!(g["reason"], "timeout", "{g}");
        assert!(g["detail"].as_str().unwrap().contains("250 ms"), "{g}");
    }
    assert!(stdout.contains("losses of bad: timeout 2"), "{stdout}");
    // It does not answer ABOUT either: noted once, and no game waits for it.
    assert!(
        stdout.contains("B = bad: (no answer to ABOUT within 1s)"),
        "{stdout}"
    );
}

#[test]
fn time_odds_give_each_brain_its_own_turn() {
    // The silent brain is B: with its own 150 ms turn it loses at 150 + 200 ms, not 250.
    let (stdout, all) = against_bad_brain_with("silent", &["--turn-ms-b", "150"]);
    for g in &all {
        assert_eq!(g["reason"], "timeout", "{g}");
        assert!(g["detail"].as_str().unwrap().contains("350 ms"), "{g}");
    }
    assert!(
        stdout.contains(", 50 / 150 ms/move (tolerance 200 ms)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(overruns: moves slower than each engine's turn-ms (50 / 150);"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| freestyle 15x15 | 50 / 150 |"),
        "{stdout}"
    );
}

#[test]
fn exiting_loses_by_crash() {
    let (_, all) = against_bad_brain("crash");
    for g in &all {
        assert_eq!(g["reason"], "crash", "{g}");
    }
}

/// A scripted brain for the SPRT tests. `late` answers its first move with the first empty
/// point of 0,0 / 1,0 / 2,0 and resigns (with garbage) at its next turn; `now` resigns at
/// once; `counted FILE` counts its starts in FILE and plays `now` on starts 3, 7, 11, …
/// (the second game of every pair after the preflight start), `late` otherwise.
const SCRIPTED_BRAIN: &str = r#"
mode=$1
if [ "$mode" = counted ]; then
  n=$(cat "$2" 2>/dev/null || echo 0)
  n=$((n + 1))
  echo "$n" > "$2"
  if [ $((n % 4)) -eq 3 ]; then mode=now; else mode=late; fi
fi
cr=$(printf '\r')
occ=";"
while IFS= read -r line; do
  line=${line%"$cr"}
  case "$line" in
    START*) echo OK ;;
    ABOUT) echo 'name="scripted"' ;;
    [0-9]*,[0-9]*,[0-9]*) occ="$occ$line;" ;;
    BEGIN|DONE)
      if [ "$mode" = now ]; then
        echo "resign"
      else
        for p in 0,0 1,0 2,0; do
          case "$occ" in *";$p,"*) ;; *) echo "$p"; break ;; esac
        done
      fi ;;
    TURN*) echo "resign" ;;
    END) exit 0 ;;
  esac
done
"#;

#[test]
fn sprt_stops_at_a_verdict() {
    // From a 3-stone opening white moves first. A (`late`) wins game 1 of every pair: B as
    // white plays a legal first move and resigns at its next turn, before A's. In game 2 A is
    // white: B `now` resigns at once (a 2-0 pair), B `late` outlasts A (a 1-1 pair). So the
    // pairs go 2-0, 1-1, 2-0, … and with bounds 0 and 100 Elo the LLR is
    // 0, 0.81, 1.99, 1.61, 2.68, 2.42, 3.45: H1 at pair 7, after 14 games (11 won, 3 lost):
    // m = 11/14, Elo = 400·log10(11/3) = 225.7, v = 0.0612, 95% interval m ± 1.96·√(v/7).
    let dir = TempDir::new("sprt");
    let script = dir.file("scripted.sh", SCRIPTED_BRAIN);
    let counter = dir.path("starts");
    let openings = dir.file("openings.txt", "h8 i9 g7\n");
    let a = format!("sh '{}' late", script.display());
    let b = format!("sh '{}' counted '{}'", script.display(), counter.display());
    let out = arena(&[
        "sprt",
        "--a",
        &a,
        "--b",
        &b,
        "--name-a",
        "late",
        "--name-b",
        "counted",
        "--elo0",
        "0",
        "--elo1",
        "100",
        "--openings",
        openings.to_str().unwrap(),
        "--concurrency",
        "1",
        "--max-pairs",
        "50",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    let progress: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pairs ")).collect();
    let llrs: Vec<&str> = progress
        .iter()
        .map(|l| l.split("LLR ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(
        llrs,
        ["0.00", "0.81", "1.99", "1.61", "2.68", "2.42", "3.45"],
        "{stdout}"
    );
    assert!(
        progress[6].starts_with("pairs 7  games 14  W-L-D 11-3-0  pentanomial [0,0,3,0,4]"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "SPRT elo0=0 elo1=100 alpha=beta=0.05: H1 accepted after 14 games (W 11 L 3 D 0), \
         elo +225.7 ± 262.9, LLR 3.45"
    );
}

#[test]
fn sprt_without_spread_has_no_verdict() {
    // pbrain-wuzi wins every pair against a brain that answers garbage: the variance stays
    // zero, the LLR 0, and the run ends at --max-pairs.
    let dir = TempDir::new("sprt-flat");
    let script = dir.file("bad.sh", BAD_BRAIN);
    let openings = dir.file("openings.txt", "h8 i9 g7\nh8 j10 i7\n");
    let bad = format!("sh '{}' garbage", script.display());
    let out = arena(&[
        "sprt",
        "--a",
        pbrain(),
        "--b",
        &bad,
        "--turn-ms",
        "50",
        "--memory-mib",
        "16",
        "--openings",
        openings.to_str().unwrap(),
        "--concurrency",
        "2",
        "--max-pairs",
        "3",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    let progress: Vec<&str> = stdout.lines().filter(|l| l.starts_with("pairs ")).collect();
    assert_eq!(progress.len(), 3, "{stdout}");
    assert!(
        progress[2].starts_with("pairs 3  games 6  W-L-D 6-0-0  pentanomial [0,0,0,0,3]"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last().unwrap(),
        "SPRT elo0=0 elo1=5 alpha=beta=0.05: no verdict (--max-pairs reached) after 6 games \
         (W 6 L 0 D 0), elo +inf ± inf, LLR 0.00"
    );
}

/// `wuzi-arena match` of two pbrains for one pair, plus `extra` flags.
fn one_pair<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["match", "--a", pbrain(), "--b", pbrain(), "--pairs", "1"];
    args.extend_from_slice(extra);
    args
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = TempDir::new("input");
    let bad_openings = dir.file("openings.txt", "h8 i9\nh8 q99\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["match", "--a", pbrain(), "--pairs", "1"],
            "missing flag --b",
        ),
        (
            vec!["match", "--a", pbrain(), "--b", pbrain()],
            "missing flag --pairs",
        ),
        (one_pair(&["--rule", "go"]), "unknown rule"),
        (
            one_pair(&["--openings", bad_openings.to_str().unwrap()]),
            "line 2 (\"h8 q99\")",
        ),
        (
            one_pair(&["--openings", "/nonexistent/o.txt"]),
            "cannot read openings file /nonexistent/o.txt",
        ),
        (
            vec![
                "match",
                "--a",
                "/nonexistent/pbrain-x",
                "--b",
                pbrain(),
                "--pairs",
                "1",
            ],
            "brain pbrain-x: cannot start /nonexistent/pbrain-x",
        ),
        (
            vec![
                "match",
                "--a",
                "'unterminated",
                "--b",
                pbrain(),
                "--pairs",
                "1",
            ],
            "unterminated",
        ),
        (
            vec![
                "sprt",
                "--a",
                pbrain(),
                "--b",
                pbrain(),
                "--elo0",
                "5",
                "--elo1",
                "0",
            ],
            "--elo0 must be below --elo1",
        ),
        (
            one_pair(&["--tolerance-ms", "99999999999999"]),
            "--tolerance-ms must be at most",
        ),
        (
            one_pair(&["--turn-ms-a", "0"]),
            "--turn-ms-a must be at least 1",
        ),
        (one_pair(&["--turn-ms-b", "fast"]), "--turn-ms-b"),
        (
            vec![
                "openings",
                "--count",
                "1",
                "--stones",
                "3",
                "--max-score",
                "-1",
            ],
            "--max-score must be at least 0",
        ),
        (
            vec!["times", "--games", "/nonexistent/g.jsonl"],
            "missing flag --rule",
        ),
        (
            vec![
                "times",
                "--games",
                "/nonexistent/g.jsonl",
                "--rule",
                "renju",
            ],
            "cannot read games file /nonexistent/g.jsonl",
        ),
        (vec!["duel"], "unknown command"),
    ];
    for (args, expected) in cases {
        let out = arena(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn generated_openings_parse() {
    let out = arena(&[
        "openings", "--rule", "renju", "--count", "2", "--stones", "3", "--nodes", "1000",
        "--seed", "5",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for l in lines {
        let moves = l.split('#').next().unwrap();
        assert_eq!(
            parse_moves_game(moves, Rule::Renju, 15)
                .unwrap()
                .moves()
                .len(),
            3
        );
    }
}

/// The gauntlet's opening files are exactly what their header's command prints, so the
/// yardstick cannot drift from the rule that chose it.
#[test]
fn yardstick_files_are_reproduced_by_their_command() {
    // The repository root: the opening files are the workspace's, beside this crate.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (file, args) in [
        (
            "openings/renju26.txt",
            &["yardstick", "--set", "renju26"][..],
        ),
        (
            "openings/central15.txt",
            &[
                "yardstick",
                "--set",
                "central",
                "--rule",
                "freestyle",
                "--stones",
                "2,3",
                "--area",
                "5",
                "--count",
                "48",
                "--seed",
                "1",
            ],
        ),
    ] {
        let committed = fs::read_to_string(root.join(file)).unwrap();
        let out = arena(args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            committed,
            "{file} differs from `wuzi-arena {args:?}`"
        );
        let command = format!("#   wuzi-arena {}", args.join(" "));
        assert!(committed.contains(&command), "{file} names its command");
    }
}
