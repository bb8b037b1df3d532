//! The setup of a `match` or `sprt` run: its flags read into an [`Arena`] (engines,
//! conditions, openings), the engines checked before the first game, and the run's title.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use wuzi::Rule;

use crate::args::{split_command, Flags};
use crate::brain::{Brain, BrainSpec, Silence};
use crate::error::{usage, ArenaError};
use crate::game::{info_lines, GameConfig, ABOUT_TIMEOUT};
use crate::openings::{self, Opening};
use crate::protocol::Answer;
use crate::report::{turn_text, Tally};
use crate::runner::Arena;

/// The help text every run command shares.
pub const COMMON_HELP: &str = "\
Engines (any Gomocup / piskvork brain):
  --a CMD, --b CMD        command lines, split like a shell (quotes allowed), e.g.
                          \"/path/pbrain-wuzi\"; a wrapper script should `exec` the engine
  --name-a X, --name-b Y  names in reports (default: the program's file name)
  --cwd-a DIR, --cwd-b DIR  working directories (e.g. where an engine finds its config)
Conditions:
  --rule R                freestyle | standard | renju (default freestyle)
  --size N                board size 5..20 (default 15)
  --turn-ms T             INFO timeout_turn, ms per move (default 1000)
  --turn-ms-a T, --turn-ms-b T  that brain's own timeout_turn (time odds: what more time
                          is worth); its deadlines, overruns and time shares use it
  --match-ms M            INFO timeout_match, ms per brain and game, counted as the sum
                          of its move times (default unlimited)
  --tolerance-ms X        a move later than its limit + X loses on time (default 1000);
                          slower moves within it are reported as overruns
  --threads N             INFO thread_num (default 1)
  --memory-mib N          INFO max_memory in MiB (default 256)
  --start-ms N            how long a brain may take to answer START (default 30000)
Run:
  --openings FILE         one opening a line, RIF moves written for 15x15 (`h8 i9 g7`), `#`
                          comments; default: every game starts from the empty board
  --concurrency N         pairs played at once (default 2)
  --seed S                order of the openings (default 1)
  --games-out FILE        one JSON object per game (JSON lines)
  --stderr-dir DIR        keep each brain's stderr, one file per game (default: discarded)

Each pair plays one opening twice with colours swapped (A black, then B black). Brains are
started fresh for every game. Exit code 0 when the run completed, 2 for bad input.
";

/// The flags every run command knows.
pub const COMMON_FLAGS: &[&str] = &[
    "a",
    "b",
    "name-a",
    "name-b",
    "cwd-a",
    "cwd-b",
    "rule",
    "size",
    "turn-ms",
    "turn-ms-a",
    "turn-ms-b",
    "match-ms",
    "tolerance-ms",
    "threads",
    "memory-mib",
    "start-ms",
    "openings",
    "concurrency",
    "seed",
    "games-out",
    "stderr-dir",
];

/// Longest time flag in ms: a day.
const MAX_MS: u64 = 86_400_000;

/// Most worker threads: every pair runs two brain processes, and more than this would only
/// measure the machine's overload.
const MAX_CONCURRENCY: usize = 64;

/// The parsed run: the arena plus where the games go.
pub struct Setup {
    /// The engines, conditions and openings.
    pub arena: Arena,
    /// `--games-out`.
    pub games_out: Option<PathBuf>,
    commands: [String; 2],
    openings_file: Option<PathBuf>,
}

impl Setup {
    /// An empty tally for this run's engines and conditions.
    pub fn tally(&self) -> Tally {
        let arena = &self.arena;
        Tally::new(
            &arena.a.name,
            &arena.b.name,
            arena.turns(),
            arena.config.rule,
            arena.config.size,
        )
    }

    pub fn from_flags(flags: &Flags) -> Result<Setup, ArenaError> {
        let rule = flags.rule(Rule::Freestyle)?;
        let size = flags.size()?;
        let turn_ms: u64 = flags.number("turn-ms", 1000)?;
        let turn_a: Option<u64> = flags.optional_number("turn-ms-a")?;
        let turn_b: Option<u64> = flags.optional_number("turn-ms-b")?;
        for (name, ms) in [
            ("turn-ms", Some(turn_ms)),
            ("turn-ms-a", turn_a),
            ("turn-ms-b", turn_b),
        ] {
            if ms == Some(0) {
                return Err(usage(format!(
                    "--{name} must be at least 1 (0, \"as fast as possible\", has no deadline)"
                )));
            }
        }
        let match_ms = flags.optional_number::<u64>("match-ms")?.filter(|&m| m > 0);
        let tolerance_ms: u64 = flags.number("tolerance-ms", 1000)?;
        let start_ms: u64 = flags.number("start-ms", 30_000)?;
        // Deadlines are instants: keep every duration far from overflowing one.
        for (name, ms) in [
            ("turn-ms", Some(turn_ms)),
            ("turn-ms-a", turn_a),
            ("turn-ms-b", turn_b),
            ("match-ms", match_ms),
            ("tolerance-ms", Some(tolerance_ms)),
            ("start-ms", Some(start_ms)),
        ] {
            if ms.is_some_and(|ms| ms > MAX_MS) {
                return Err(usage(format!("--{name} must be at most {MAX_MS} (a day)")));
            }
        }
        let threads: u32 = flags.number("threads", 1)?;
        let memory_mib: u64 = flags.number("memory-mib", 256)?;
        if memory_mib == 0 || memory_mib > 1 << 20 {
            return Err(usage("--memory-mib must be from 1 to 1048576"));
        }
        let concurrency: usize = flags.number("concurrency", 2)?;
        if concurrency == 0 || concurrency > MAX_CONCURRENCY {
            return Err(usage(format!(
                "--concurrency must be from 1 to {MAX_CONCURRENCY}"
            )));
        }
        let seed: u64 = flags.number("seed", 1)?;

        let spec = |side: &str| -> Result<BrainSpec, ArenaError> {
            let words = split_command(flags.required(side)?)
                .map_err(|e| usage(format!("--{side}: {e}")))?;
            let cwd = flags.get(&format!("cwd-{side}")).map(PathBuf::from);
            if let Some(dir) = &cwd {
                if !dir.is_dir() {
                    return Err(usage(format!(
                        "--cwd-{side}: {} is not a directory",
                        dir.display()
                    )));
                }
            }
            let name = flags.get(&format!("name-{side}")).map(str::to_string);
            BrainSpec::new(words, name, cwd).map_err(|e| usage(format!("--{side}: {e}")))
        };
        let (mut a, mut b) = (spec("a")?, spec("b")?);
        (a.turn_ms, b.turn_ms) = (turn_a, turn_b);
        if a.name == b.name {
            if flags.get("name-a").is_some() || flags.get("name-b").is_some() {
                return Err(usage("--name-a and --name-b must differ"));
            }
            a.name.push_str("-A");
            b.name.push_str("-B");
        }

        let openings_file = flags.get("openings").map(PathBuf::from);
        let openings = match &openings_file {
            None => vec![Opening::empty(rule, size).map_err(|e| usage(e.to_string()))?],
            Some(path) => {
                let text = fs::read_to_string(path).map_err(|error| ArenaError::File {
                    path: path.clone(),
                    action: "read openings file",
                    error,
                })?;
                openings::parse(&text, rule, size).map_err(|error| ArenaError::Openings {
                    path: path.clone(),
                    error,
                })?
            }
        };
        let stderr_dir = flags.get("stderr-dir").map(PathBuf::from);
        if let Some(dir) = &stderr_dir {
            fs::create_dir_all(dir).map_err(|error| ArenaError::File {
                path: dir.clone(),
                action: "create stderr directory",
                error,
            })?;
        }
        let commands = [
            flags.required("a")?.to_string(),
            flags.required("b")?.to_string(),
        ];
        Ok(Setup {
            arena: Arena {
                config: GameConfig {
                    rule,
                    size,
                    turn_ms,
                    match_ms,
                    tolerance_ms,
                    threads,
                    memory_bytes: memory_mib << 20,
                    start_timeout: Duration::from_millis(start_ms),
                    stderr_dir,
                },
                a,
                b,
                openings,
                concurrency,
                seed,
            },
            games_out: flags.get("games-out").map(PathBuf::from),
            commands,
            openings_file,
        })
    }

    /// Starts each brain once and checks that it accepts `START`, so that a wrong path or an
    /// unsupported board size stops the run with one clear message instead of a run of lost
    /// games. Returns a line per brain with its answer to `ABOUT` (its name and version).
    pub fn preflight(&mut self) -> Result<String, ArenaError> {
        let cfg = &self.arena.config;
        let mut abouts = String::new();
        for (side, spec) in [("A", &mut self.arena.a), ("B", &mut self.arena.b)] {
            let fail = |why: String| ArenaError::Brain {
                name: spec.name.clone(),
                why,
            };
            let mut brain = Brain::spawn(spec, None).map_err(|e| {
                fail(format!(
                    "cannot start {}: {e}",
                    spec.program.to_string_lossy()
                ))
            })?;
            if brain.send(&format!("START {}\r\n", cfg.size)).is_err() {
                return Err(fail("exited before START".to_string()));
            }
            match brain.receive(Instant::now() + cfg.start_timeout) {
                Ok(r) if r.answer == Answer::Ok => {}
                Ok(r) => {
                    return Err(fail(format!(
                        "answered {:?} to START {}{}",
                        r.text,
                        cfg.size,
                        last_words(&brain)
                    )))
                }
                Err(Silence::Timeout) => {
                    return Err(fail(format!(
                        "did not answer START {} within {:?} (see --start-ms){}",
                        cfg.size,
                        cfg.start_timeout,
                        last_words(&brain)
                    )))
                }
                Err(Silence::Closed) => {
                    return Err(fail(format!(
                        "exited without answering START {}{}",
                        cfg.size,
                        last_words(&brain)
                    )))
                }
            }
            let wait = cfg.start_timeout.min(ABOUT_TIMEOUT);
            let about = match brain.send(&format!("{}ABOUT\r\n", info_lines(cfg, spec))) {
                Ok(()) => brain.about(Instant::now() + wait).unwrap_or_else(|_| {
                    spec.answers_about = false;
                    format!("(no answer to ABOUT within {wait:?})")
                }),
                Err(_) => return Err(fail("exited after START".to_string())),
            };
            abouts.push_str(&format!("{side} = {}: {about}\n", spec.name));
            Brain::end_all(vec![brain]);
        }
        Ok(abouts)
    }

    /// `wuzi-arena match: A (cmd) vs B (cmd), renju 15x15, 100 ms/move, …`.
    pub fn title(&self, what: &str, extra: &str) -> String {
        let a = &self.arena;
        let c = &a.config;
        let mut s = format!(
            "wuzi-arena {what}: A = {} ({}) vs B = {} ({}), {} {}x{}, {} ms/move (tolerance {} ms)",
            a.a.name,
            self.commands[0],
            a.b.name,
            self.commands[1],
            c.rule,
            c.size,
            c.size,
            turn_text(a.turns()),
            c.tolerance_ms
        );
        if let Some(m) = c.match_ms {
            s.push_str(&format!(", {m} ms/game"));
        }
        s.push_str(&format!(
            ", {} thread(s), {} MiB, ",
            c.threads,
            c.memory_bytes >> 20
        ));
        match &self.openings_file {
            Some(p) => s.push_str(&format!(
                "{} openings from {} (seed {})",
                a.openings.len(),
                p.display(),
                a.seed
            )),
            None => s.push_str("no openings (empty board)"),
        }
        if !extra.is_empty() {
            s.push_str(", ");
            s.push_str(extra);
        }
        s
    }
}

/// The brain's last messages, for an error about it.
fn last_words(brain: &Brain) -> String {
    let m = brain.messages();
    if m.is_empty() {
        String::new()
    } else {
        format!(" (it said: {})", m.join(" | "))
    }
}
