//! The `wuzi-tools` subcommands: `bench`, `reach`, `match`, `datagen` and `tune`, run as real processes
//! with a watchdog.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const WATCHDOG: Duration = Duration::from_secs(120);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn tools(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi-tools"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wuzi-tools");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_string();
    let writer = thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("watchdog: wuzi-tools {args:?} did not finish");
        }
        thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

fn bad(args: &[&str]) {
    let r = tools(args, "");
    assert_eq!(r.code, 2, "{args:?} should be refused: {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {:?}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?}: {:?}", r.stdout);
}

#[test]
fn tiny_match_prints_the_table_and_result_line() {
    let r = tools(
        &[
            "match",
            "--a",
            "2",
            "--b",
            "beginner",
            "--games",
            "2",
            "--time-ms",
            "20",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("| A | easy (2) |"), "{}", r.stdout);
    assert!(r.stdout.contains("| B | beginner (1) |"), "{}", r.stdout);
    let result = r
        .stdout
        .lines()
        .find(|l| l.starts_with("result: "))
        .expect("result line");
    let field = |k: &str| -> u64 {
        result
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{k} in {result}"))
    };
    assert_eq!(field("games"), 2);
    assert_eq!(field("a_wins") + field("b_wins") + field("draws"), 2);
    assert!(field("a_moves") > 0 && field("b_moves") > 0, "{result}");
    assert_eq!(field("forfeits"), 0, "{result}");
    assert_eq!(
        r.stderr.lines().filter(|l| l.starts_with("game ")).count(),
        2
    );
}

#[test]
fn match_refuses_bad_input() {
    bad(&["match", "--a", "2", "--b", "1", "--games", "0"]);
    bad(&["match", "--a", "2", "--games", "2"]);
    bad(&["match", "--a", "7", "--b", "1", "--games", "2"]);
    bad(&[
        "match", "--a", "2", "--b", "1", "--games", "2", "--rule", "caro",
    ]);
}

fn bench_nodes(depth: &str) -> u64 {
    let r = tools(&["bench", "--depth", depth], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for key in ["nodes/s: ", "time: "] {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(key)),
            "{key}: {}",
            r.stdout
        );
    }
    r.stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes: "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no node count: {}", r.stdout))
}

#[test]
fn bench_node_count_is_deterministic() {
    let first = bench_nodes("3");
    assert!(first > 0);
    assert_eq!(bench_nodes("3"), first);
    bad(&["bench", "--depth", "0"]);
}

#[test]
fn threaded_bench_reports_the_speed_up() {
    let r = tools(&["bench", "--depth", "3", "--threads", "2"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The single-threaded count is printed first and stays the deterministic one.
    assert_eq!(
        r.stdout.lines().find_map(|l| l.strip_prefix("nodes: ")),
        Some(bench_nodes("3").to_string().as_str()),
        "{}",
        r.stdout
    );
    for key in [
        "threads: 2",
        "threaded nodes: ",
        "threaded time: ",
        "threaded/single nodes/s: ",
        "time-to-depth speed-up: ",
    ] {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(key)),
            "{key}: {}",
            r.stdout
        );
    }
    bad(&["bench", "--threads", "0"]);
    bad(&["bench", "--threads", "65"]);
    bad(&[
        "match",
        "--a",
        "5",
        "--b",
        "5",
        "--games",
        "2",
        "--threads-a",
        "65",
    ]);
}

#[test]
fn datagen_plays_with_the_tables_it_is_given_and_tune_reads_its_games() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("datagen-weights");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let ok = |args: &[&str]| {
        let r = tools(args, "");
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    };
    ok(&[
        "tune",
        "--rule",
        "renju",
        "--init",
        "hand",
        "--out",
        &path("hand.txt"),
    ]);
    // The same tables with every combination worth nothing: only the threat table is left.
    let hand = std::fs::read_to_string(path("hand.txt")).unwrap();
    let flat: String = hand
        .lines()
        .map(|l| match l.strip_prefix("cell ") {
            Some(rest) => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let zeros = vec!["0"; words.len() - 2].join(" ");
                format!("cell {} {} {zeros}\n", words[0], words[1])
            }
            None => format!("{l}\n"),
        })
        .collect();
    std::fs::write(path("flat.txt"), flat).unwrap();
    let gen = |weights: &str, out: &str| {
        ok(&[
            "datagen",
            "--rule",
            "renju",
            "--games",
            "6",
            "--nodes",
            "3000",
            "--seed",
            "5",
            "--weights",
            &path(weights),
            "--out",
            &path(out),
        ]);
        std::fs::read_to_string(path(out)).unwrap()
    };
    let a = gen("hand.txt", "a.txt");
    assert_eq!(a.lines().count(), 6);
    assert_eq!(
        a,
        gen("hand.txt", "a2.txt"),
        "the same flags make the same games"
    );
    assert_ne!(a, gen("flat.txt", "b.txt"), "other tables play other games");
    ok(&[
        "tune",
        "--rule",
        "renju",
        "--data",
        &path("a.txt"),
        "--epochs",
        "5",
        "--out",
        &path("fit.txt"),
    ]);
    let fit = std::fs::read_to_string(path("fit.txt")).unwrap();
    assert!(fit.starts_with("# "), "the header names the command");
    // The learned evaluation trains on the same games, the same flags write the same file,
    // and the bench evaluates with it.
    let train = |out: &str| {
        ok(&[
            "train-net",
            "--rule",
            "renju",
            "--data",
            &path("a.txt"),
            "--epochs",
            "2",
            "--batch",
            "16",
            "--seed",
            "4",
            "--out",
            &path(out),
        ]);
        std::fs::read(path(out)).unwrap()
    };
    let net = train("a.net");
    assert!(net.starts_with(b"WUZINET1"));
    assert_eq!(
        net,
        train("a2.net"),
        "the same flags train the same network"
    );
    ok(&[
        "bench",
        "--depth",
        "2",
        "--net",
        &format!("renju={}", path("a.net")),
    ]);
    let r = tools(
        &[
            "bench",
            "--depth",
            "2",
            "--net",
            &format!("renju={}", path("fit.txt")),
        ],
        "",
    );
    assert_eq!(r.code, 2, "a table file is not a network: {}", r.stderr);
    // A file that is not a table is refused with one line, and nothing is written.
    std::fs::write(path("bad.txt"), "cell black waiting 1 2 3\n").unwrap();
    let r = tools(
        &[
            "datagen",
            "--rule",
            "renju",
            "--games",
            "1",
            "--weights",
            &path("bad.txt"),
            "--out",
            &path("never.txt"),
        ],
        "",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--weights"), "{}", r.stderr);
    assert!(!dir.join("never.txt").exists());
}

/// A positions file in the test's temporary folder.
fn positions_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-reach-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn reach_proves_the_win_it_can_and_compares_two_parameter_sets() {
    // Black's open three wins in 3; the lone centre stone proves nothing.
    let path = positions_file(
        "two.txt",
        "# a header\nh8 a1 i8 a3 j8 a5  # open three\nh8\n",
    );
    let args = [
        "reach",
        "--positions",
        path.to_str().unwrap(),
        "--rule",
        "freestyle",
        "--nodes",
        "5000",
        "--param-b",
        "qs_fours=2",
    ];
    let r = tools(&args, "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].contains("line    2  A: win in  3"), "{}", r.stdout);
    assert!(lines[0].contains("B: win in  3") && lines[0].ends_with("# open three"));
    assert!(lines[1].contains("A: not proven") && lines[1].contains("B: not proven"));
    assert!(
        r.stdout.contains("A: proven 1 of 2") && r.stdout.contains("B: proven 1 of 2"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("both proven 1, A only 0, B only 0"),
        "{}",
        r.stdout
    );
    // A node budget alone is deterministic: the same output twice.
    let again = tools(&args, "");
    // Times (the numbers with a decimal point) aside.
    let counts = |out: &str| -> Vec<String> {
        out.split_whitespace()
            .filter(|w| !(w.contains('.') && w.trim_end_matches(')').parse::<f64>().is_ok()))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(again.code, 0);
    assert_eq!(counts(&r.stdout), counts(&again.stdout));
}

#[test]
fn reach_refuses_bad_input() {
    let ok = positions_file("ok.txt", "h8\n");
    let ok = ok.to_str().unwrap();
    let bad_move = positions_file("bad.txt", "h8\nh8 h8\n");
    let bad_move = bad_move.to_str().unwrap();
    let empty = positions_file("empty.txt", "# nothing\n");
    let empty = empty.to_str().unwrap();
    bad(&["reach", "--positions", bad_move, "--rule", "renju"]);
    bad(&["reach", "--positions", empty, "--rule", "renju"]);
    for extra in [
        ["--nodes", "0"],
        ["--param", "nope=1"],
        ["--param-b", "qs_fours"],
    ] {
        let mut args = vec!["reach", "--positions", ok, "--rule", "renju"];
        args.extend(extra);
        bad(&args);
    }
    bad(&["reach", "--positions", ok]);
    let missing = tools(
        &[
            "reach",
            "--positions",
            "/nonexistent/reach.txt",
            "--rule",
            "renju",
        ],
        "",
    );
    assert_eq!(missing.code, 1, "{}", missing.stderr);
}
