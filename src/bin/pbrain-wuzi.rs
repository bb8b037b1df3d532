//! `pbrain-wuzi`: the Wuzi engine as a Gomocup (piskvork) brain on stdin/stdout.
//!
//! Three threads, so the brain keeps reading while it thinks (the protocol's advice for
//! brains used by people, who may change limits, take back or quit during a search):
//! - the **reader** splits stdin into lines and forwards them, stamped with their arrival
//!   time (a turn's clock starts when the manager sent the command);
//! - the **engine** thread owns the [`Engine`] and runs one search at a time, a move or a
//!   Swap2 decision ([`ThinkRequest::run`]; Master's search adds Lazy SMP helper threads: the
//!   machine's cores, at most 8, or `INFO thread_num`);
//! - the **controller** (main thread) parses, drives the [`BrainSession`], writes and flushes every
//!   answer, raises the cancel flag when the budget runs out, and answers the request's
//!   fallback itself (a legal move, `SWAP`, or a table opening) if the search still has not
//!   returned by the last safe moment.
//!
//! While a search runs, `END` exits at once, `STOP`/`YXSTOP` cuts it short, `INFO` applies
//! from the next move, and any other command waits for the move to go out (commands that
//! change the game first cut the search short), so every command gets its answers in order.
//!
//! Command line: `pbrain-wuzi [--level L] [--param name=value[,...]] [--nodes N] [--threads N]
//! [--weights RULE=FILE] [--net RULE=FILE]`. The level
//! (default Master) lets every level be matched against outside engines; `--param` sets the
//! search constants ([`Params`]) for tuning matches between builds; `--nodes` searches a
//! fixed number of nodes per move on one thread, whatever the clock says (the manager's limits
//! still bound the answer), so a self-play match does not depend on the machine's load;
//! `--threads` fixes Master's thread count whatever `INFO thread_num` says, so one build can
//! play itself with two threads against one; `--weights` evaluates a rule with the tables in
//! a file (the format of `src/ai/weights/*.txt`), so one build can play refitted tables
//! against its own, and `--net` with a learned network ([`wuzi::ai::net`]). A bad command line (or an unreadable or malformed table file) exits with
//! status 2 and the usage on stderr, never a word on the protocol channel.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use wuzi::ai::eval::{install_weights, Weights};
use wuzi::ai::net::{install_net, Net};
use wuzi::gomocup::{
    BrainSession, Budget, Command, Line, LineReader, Next, Parsed, Parser, Reply, ThinkRequest,
    Thought,
};
use wuzi::text::quote;
use wuzi::{Engine, Level, Limits, Params, Rule};

/// The engine's stack: deep searches recurse, and the default 2 MiB of a spawned thread is
/// not much.
const ENGINE_STACK: usize = 64 << 20;

enum Event {
    Line(Line, Instant),
    Eof,
    Done { id: u64, thought: Option<Thought> },
}

/// Work for the engine thread.
enum Task {
    /// Build the engine with this table size now, outside any turn: allocating and clearing a
    /// large table takes a noticeable part of a short turn, and START/INFO time is not
    /// charged to a turn.
    Warm(usize),
    Search(Box<Job>),
}

struct Job {
    /// What to search: a move or a Swap2 decision, with its budget, table size and threads.
    request: Box<ThinkRequest>,
    cancel: Arc<AtomicBool>,
}

struct InFlight {
    id: u64,
    started: Instant,
    budget: Budget,
    cancel: Arc<AtomicBool>,
}

const USAGE: &str = "usage: pbrain-wuzi [--level beginner|easy|medium|hard|master] \
[--param name=value[,name=value...]] [--nodes N] [--threads N] [--weights RULE=FILE]
                   [--net RULE=FILE]
  A Gomocup (piskvork) brain on stdin/stdout.
  --level L     the level to play (name or 1-5; default master)
  --nodes N     search N nodes a move on one thread instead of timing the search (matches
                that must not depend on the machine's load; keep timeout_turn generous)
  --threads N   Master searches with N threads (1-64) whatever INFO thread_num says (matches
                of one build against itself with another thread count)
  --weights RULE=FILE  evaluate RULE (freestyle, standard or renju) with the tables in FILE
                (the format of src/ai/weights/*.txt) instead of the built-in ones
  --net RULE=FILE  evaluate RULE with the learned network in FILE (from wuzi-tools
                train-net) instead of the tables
  --param P     search constants for tuning matches; names: ";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Options {
    level: Level,
    params: Params,
    /// A fixed node budget per move instead of the clock.
    nodes: Option<u64>,
    /// A fixed thread count instead of the manager's `INFO thread_num`.
    threads: Option<usize>,
    /// Evaluation tables read from files, by rule, instead of the built-in ones.
    weights: Vec<(Rule, Weights)>,
    /// Learned networks read from files, by rule.
    nets: Vec<(Rule, Net)>,
    help: bool,
}

/// A `RULE=FILE` flag value.
fn rule_file<'a>(flag: &str, v: &'a str) -> Result<(Rule, &'a str), String> {
    let (rule, path) = v
        .split_once('=')
        .ok_or_else(|| format!("{flag} {}: expected RULE=FILE", quote(v)))?;
    let rule = rule
        .parse::<Rule>()
        .map_err(|e| format!("{flag} {}: {e}", quote(v)))?;
    Ok((rule, path))
}

/// Reads the command line (without the program name).
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        level: Level::Master,
        ..Options::default()
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => o.help = true,
            "--level" => {
                o.level = value("--level")?
                    .parse::<Level>()
                    .map_err(|e| e.to_string())?;
            }
            "--param" => {
                o.params
                    .set_list(&value("--param")?)
                    .map_err(|e| format!("--param: {e}"))?;
            }
            "--nodes" => {
                let v = value("--nodes")?;
                match v.parse::<u64>() {
                    Ok(n) if n > 0 => o.nodes = Some(n),
                    _ => return Err(format!("--nodes {}: expected a positive count", quote(&v))),
                }
            }
            "--threads" => {
                let v = value("--threads")?;
                match v.parse::<usize>() {
                    Ok(n) if (1..=wuzi::MAX_THREADS).contains(&n) => o.threads = Some(n),
                    _ => {
                        return Err(format!(
                            "--threads {}: expected 1 to {}",
                            quote(&v),
                            wuzi::MAX_THREADS
                        ))
                    }
                }
            }
            "--weights" => {
                let v = value("--weights")?;
                let (rule, path) = rule_file("--weights", &v)?;
                if o.weights.iter().any(|(r, _)| *r == rule) {
                    return Err(format!("--weights: {rule} given twice"));
                }
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("--weights {}: {e}", quote(path)))?;
                let w = Weights::from_text(&text)
                    .map_err(|e| format!("--weights {}: {e}", quote(path)))?;
                o.weights.push((rule, w));
            }
            "--net" => {
                let v = value("--net")?;
                let (rule, path) = rule_file("--net", &v)?;
                if o.nets.iter().any(|(r, _)| *r == rule) {
                    return Err(format!("--net: {rule} given twice"));
                }
                let bytes =
                    std::fs::read(path).map_err(|e| format!("--net {}: {e}", quote(path)))?;
                let net =
                    Net::from_bytes(&bytes).map_err(|e| format!("--net {}: {e}", quote(path)))?;
                o.nets.push((rule, net));
            }
            _ => return Err(format!("unexpected argument {}", quote(&arg))),
        }
    }
    Ok(o)
}

fn main() {
    let mut options = match parse_args(std::env::args().skip(1)) {
        Ok(o) if o.help => {
            println!("{USAGE}{}", Params::NAMES.join(", "));
            return;
        }
        Ok(o) => o,
        Err(e) => {
            eprintln!("pbrain-wuzi: {e}\n{USAGE}{}", Params::NAMES.join(", "));
            process::exit(2);
        }
    };
    // Before any search reads the built-in tables (nothing has yet).
    for (rule, w) in options.weights.drain(..) {
        if let Err(e) = install_weights(rule, w) {
            eprintln!("pbrain-wuzi: --weights: {e}");
            process::exit(2);
        }
    }
    for (rule, net) in options.nets.drain(..) {
        if let Err(e) = install_net(rule, net) {
            eprintln!("pbrain-wuzi: --net: {e}");
            process::exit(2);
        }
    }
    let (tx, rx) = mpsc::channel::<Event>();
    spawn_reader(tx.clone());
    let jobs = spawn_engine(tx, &options);

    let mut controller = Controller {
        parser: Parser::new(),
        session: BrainSession::new(),
        queue: VecDeque::new(),
        in_flight: None,
        jobs,
        warmed: 0,
    };
    controller.warm();
    let mut eof = false;
    loop {
        // At the end of input, finish what was asked (a script may pipe `BEGIN` and close
        // stdin) and then exit; queued commands run whenever no search is in flight.
        if eof && controller.in_flight.is_none() {
            break;
        }
        let event = match &controller.in_flight {
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
            Some(f) => {
                let now = Instant::now();
                let give_up = f.started + f.budget.give_up_after;
                if now >= give_up {
                    controller.give_up();
                    continue;
                }
                let cancel_at = f.started + f.budget.cancel_after;
                let wake = if now >= cancel_at {
                    f.cancel.store(true, Ordering::Relaxed);
                    give_up
                } else {
                    cancel_at
                };
                match rx.recv_timeout(wake - now) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        };
        match event {
            Event::Eof => eof = true,
            Event::Done { id, thought } => controller.done(id, thought),
            Event::Line(line, at) => {
                let parsed = match line {
                    Line::Text(t) => controller.parser.feed(&t),
                    Line::TooLong(n) => controller.parser.feed_too_long(n),
                };
                for p in parsed {
                    controller.receive(p, at);
                }
            }
        }
    }
    quit();
}

struct Controller {
    parser: Parser,
    session: BrainSession,
    queue: VecDeque<(Parsed, Instant)>,
    in_flight: Option<InFlight>,
    jobs: Sender<Task>,
    /// Table size last sent to the engine thread.
    warmed: usize,
}

impl Controller {
    fn receive(&mut self, parsed: Parsed, at: Instant) {
        let Some(f) = &self.in_flight else {
            self.process(parsed, at);
            return;
        };
        match &parsed {
            Parsed::Command(Command::End) => quit(),
            Parsed::Command(Command::Stop) => f.cancel.store(true, Ordering::Relaxed),
            Parsed::Command(Command::Info(_))
            | Parsed::Error(wuzi::gomocup::ParseError::BadInfo { .. }) => {
                let outcome = self.session.handle(parsed);
                write_replies(&outcome.replies);
                self.warm();
            }
            Parsed::Command(c) => {
                if c.interrupts_search() {
                    f.cancel.store(true, Ordering::Relaxed);
                }
                self.queue.push_back((parsed, at));
            }
            Parsed::Error(_) | Parsed::Unknown(_) => self.queue.push_back((parsed, at)),
        }
    }

    fn process(&mut self, parsed: Parsed, at: Instant) {
        let outcome = self.session.handle(parsed);
        write_replies(&outcome.replies);
        match outcome.next {
            Next::Idle => self.warm(),
            Next::Quit => quit(),
            Next::Think(req) => {
                let cancel = Arc::new(AtomicBool::new(false));
                self.in_flight = Some(InFlight {
                    id: req.id,
                    started: at,
                    budget: req.budget,
                    cancel: Arc::clone(&cancel),
                });
                self.warmed = req.tt_mib;
                let job = Job {
                    request: req,
                    cancel,
                };
                if self.jobs.send(Task::Search(Box::new(job))).is_err() {
                    // The engine thread is gone: answer the fallback rather than hang.
                    self.give_up();
                }
            }
        }
    }

    /// Asks the engine thread to build its table if the wanted size changed.
    fn warm(&mut self) {
        let mib = self.session.tt_mib();
        if mib != self.warmed {
            self.warmed = mib;
            // A dead engine thread shows up at the next search, which then answers the
            // fallback move.
            let _ = self.jobs.send(Task::Warm(mib));
        }
    }

    fn done(&mut self, id: u64, thought: Option<Thought>) {
        let Some(f) = &self.in_flight else { return };
        if f.id != id {
            return; // a search we already answered for
        }
        let spent = f.started.elapsed();
        self.in_flight = None;
        write_replies(&self.session.finish(id, thought, spent));
        self.drain();
    }

    fn give_up(&mut self) {
        let Some(f) = self.in_flight.take() else {
            return;
        };
        f.cancel.store(true, Ordering::Relaxed);
        write_replies(&self.session.finish(f.id, None, f.started.elapsed()));
        self.drain();
    }

    fn drain(&mut self) {
        while self.in_flight.is_none() {
            let Some((parsed, at)) = self.queue.pop_front() else {
                break;
            };
            self.process(parsed, at);
        }
    }
}

fn spawn_reader(tx: Sender<Event>) {
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut reader = LineReader::new(stdin.lock());
            loop {
                match reader.next_line() {
                    Ok(Some(line)) => {
                        if tx.send(Event::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                    Ok(None) | Err(_) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                }
            }
        })
        .expect("spawning the reader thread");
}

fn spawn_engine(tx: Sender<Event>, options: &Options) -> Sender<Task> {
    let (level, params, nodes, threads) = (
        options.level,
        options.params.clone(),
        options.nodes,
        options.threads,
    );
    let (jobs, rx) = mpsc::channel::<Task>();
    thread::Builder::new()
        .name("engine".into())
        .stack_size(ENGINE_STACK)
        .spawn(move || {
            let mut engine: Option<(usize, Engine)> = None;
            for task in rx {
                let (mib, job) = match task {
                    Task::Warm(mib) => (mib, None),
                    Task::Search(job) => (job.request.tt_mib, Some(job)),
                };
                if !matches!(&engine, Some((m, _)) if *m == mib) {
                    // Free the old table before allocating the new one.
                    drop(engine.take());
                    let mut e = Engine::new(mib);
                    e.set_params(params.clone());
                    engine = Some((mib, e));
                }
                let Some(job) = job else { continue };
                let (_, e) = engine.as_mut().expect("just set");
                let req = &job.request;
                // Master uses every core (at most 8) unless the manager sent INFO thread_num
                // or the command line fixed a count; the other levels search on one thread
                // whatever this says.
                e.set_threads(threads.unwrap_or(req.threads));
                // A node budget alone: one thread, no clock-driven stop, so the answer does
                // not depend on the machine's load (the driver's deadlines still apply).
                let limits = match nodes {
                    Some(n) => Limits::nodes(n),
                    None => Limits {
                        time: Some(req.budget.search),
                        target: Some(req.budget.target),
                        nodes: None,
                        depth: None,
                    },
                };
                // A move or a Swap2 decision alike: the request knows which engine call it is.
                let result = panic::catch_unwind(AssertUnwindSafe(|| {
                    req.run(e, level, limits, &job.cancel)
                }));
                let thought = match result {
                    Ok(t) => Some(t),
                    Err(_) => {
                        // A panicking search may leave the tables inconsistent: start afresh.
                        engine = None;
                        None
                    }
                };
                if tx
                    .send(Event::Done {
                        id: job.request.id,
                        thought,
                    })
                    .is_err()
                {
                    return;
                }
            }
        })
        .expect("spawning the engine thread");
    jobs
}

fn write_replies(replies: &[Reply]) {
    if replies.is_empty() {
        return;
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for r in replies {
        // The manager reads line by line; flush each so none waits in a buffer.
        if writeln!(out, "{r}").and_then(|()| out.flush()).is_err() {
            // Nobody is listening any more.
            process::exit(0);
        }
    }
}

fn quit() -> ! {
    let _ = io::stdout().flush();
    process::exit(0)
}
