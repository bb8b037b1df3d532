//! `scripts/reach-brain.py`, the reach yardstick for outside Gomocup brains, against a scripted
//! stand-in brain: the outside engines it is meant for (Rapfi, AIWine) are built outside the
//! repository and cannot run in CI. The stand-in checks what the script sends (coordinates,
//! whose stone is whose, the turn) and announces a win only where the test expects one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A Gomocup brain in Python: announces `Eval +M5` when the first stone of the board (h8,
/// black's first move) is its own, so when black is to move, and an ordinary value otherwise.
/// It answers ERROR when h8 does not arrive as `7,7` or the turn is not 50 ms.
const FAKE_BRAIN: &str = r#"#!/usr/bin/env python3
import sys
board, in_board, turn = [], False, None
for line in sys.stdin:
    line = line.strip()
    if line.startswith("START"):
        print("OK", flush=True)
    elif line.startswith("INFO timeout_turn"):
        turn = int(line.split()[2])
    elif line == "BOARD":
        board, in_board = [], True
    elif line == "DONE":
        in_board = False
        if not board or not board[0].startswith("7,7,") or turn != 50:
            print("ERROR unexpected board or turn", flush=True)
            continue
        black_to_move = board[0].endswith(",1")
        value = "+M5" if black_to_move else "-31"
        print(f"MESSAGE Speed 1K | Depth 3-5 | Eval {value} | Node 10 | Time 1ms", flush=True)
        print("0,0", flush=True)
    elif in_board:
        board.append(line)
    elif line == "END":
        break
"#;

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d =
            std::env::temp_dir().join(format!("wuzi-reach-brain-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/reach-brain.py")
}

fn fake_brain(dir: &Path) -> PathBuf {
    let path = dir.join("fake-brain.py");
    std::fs::write(&path, FAKE_BRAIN).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn run(dir: &Path, positions: &str) -> Output {
    let file = dir.join("positions.txt");
    std::fs::write(&file, positions).unwrap();
    let brain = fake_brain(dir);
    Command::new("python3")
        .arg(script())
        .args(["--brain", brain.to_str().unwrap(), "--rule", "renju"])
        .args(["--turn-ms", "50", file.to_str().unwrap()])
        .output()
        .expect("python3 runs")
}

#[test]
fn counts_the_wins_a_brain_announces_by_side_and_distance() {
    let dir = Dir::new("count");
    let out = run(
        &dir.0,
        "# a comment line\n\
         h8 i9  # game 1, black to move, five 17 plies later\n\
         h8 i9 j10  # game 1, white to move, five 21 plies later\n\
         h8 i9 j10 a1  # game 2, black to move, five 21 plies later\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("   1/3 line    2  win +M5"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("   2/3 line    3  not proven (value -31)"),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("   3/3 line    4  win +M5"),
        "{stdout}"
    );
    for expected in [
        "proven 2 of 3",
        "  black to move, five 17 plies later: 1 of 1",
        "  black to move, five 21 plies later: 1 of 1",
        "  white to move, five 21 plies later: 0 of 1",
    ] {
        assert!(lines.contains(&expected), "{expected:?} in {stdout}");
    }
    assert!(!stdout.contains("white to move, five 17"), "{stdout}");
}

#[test]
fn refuses_a_bad_positions_file_before_starting_a_brain() {
    let dir = Dir::new("bad");
    for (text, says) in [
        (
            "h8 z99  # off the board\n",
            "positions.txt:1: not a 15x15 RIF move: 'z99'",
        ),
        ("# nothing\n\n", "no positions"),
        (
            "h8 i9 h8  # twice\n",
            "positions.txt:1: a point is played twice",
        ),
    ] {
        let out = run(&dir.0, text);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text:?}: {stderr}");
        assert!(stderr.contains(says), "{text:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{text:?}");
    }
}
