//! End-to-end tests of the real desktop app: the release UI in the real webview (WebKitGTK),
//! driven over WebDriver through `tauri-driver`.
//!
//! They need an X display, `tauri-driver` (`cargo install tauri-driver --locked`) and
//! `WebKitWebDriver` (Debian: `webkit2gtk-driver`), so they are ignored by default and run by
//! `scripts/e2e.sh` under Xvfb. Each test starts its own `tauri-driver` on free ports with
//! `WUZI_DATA_DIR` pointing at a fresh folder, and stops it with SIGTERM (which also ends
//! `WebKitWebDriver`; SIGKILL would leave it holding its port).
//!
//! The UI's test hooks: `#board[data-size]`, one `[role=gridcell][data-point][data-stone]` per
//! intersection, `[data-win="true"]` on the winning stones, `#status`, `#undo`.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

/// The app under test: the debug build cargo made for this test, or `$WUZI_E2E_APP` (the
/// release binary, for the cold-start measurement).
fn app_binary() -> String {
    std::env::var("WUZI_E2E_APP").unwrap_or_else(|_| env!("CARGO_BIN_EXE_wuzi-app").to_string())
}

/// Where screenshots and measurements go (gitignored).
fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../artifacts");
    std::fs::create_dir_all(&dir).expect("create artifacts/");
    dir
}

/// A fresh folder for the app's save files, removed afterwards.
struct DataDir(PathBuf);

impl DataDir {
    fn new(tag: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("wuzi-e2e-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create data dir");
        DataDir(dir)
    }

    /// Starts the app with these settings: the first game follows them.
    fn with_settings(tag: &str, settings: Value) -> DataDir {
        let dir = DataDir::new(tag);
        std::fs::write(dir.0.join("settings.json"), settings.to_string()).expect("seed settings");
        dir
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

fn find_tauri_driver() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join("tauri-driver"))
        .find(|p| p.is_file());
    let in_cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .map(|d| d.join("bin/tauri-driver"))
        .filter(|p| p.is_file());
    on_path.or(in_cargo_home).expect(
        "tauri-driver not found on PATH or in ~/.cargo/bin: cargo install tauri-driver --locked",
    )
}

/// A running `tauri-driver`; the app it launches inherits `WUZI_DATA_DIR`.
struct Driver {
    child: Child,
    port: u16,
    data_dir: PathBuf,
}

impl Driver {
    fn start(data_dir: &Path) -> Driver {
        let (port, native_port) = (free_port(), free_port());
        let mut cmd = Command::new(find_tauri_driver());
        cmd.args(["--port", &port.to_string()])
            .args(["--native-port", &native_port.to_string()])
            .env("WUZI_DATA_DIR", data_dir)
            .stdout(Stdio::null());
        if Path::new("/usr/bin/WebKitWebDriver").is_file() {
            cmd.args(["--native-driver", "/usr/bin/WebKitWebDriver"]);
        }
        let child = cmd.spawn().expect("start tauri-driver");
        // tauri-driver listens at once but starts WebKitWebDriver beside it; a session asked
        // for before the latter listens fails.
        let deadline = Instant::now() + Duration::from_secs(20);
        for p in [port, native_port] {
            while TcpStream::connect(("127.0.0.1", p)).is_err() {
                assert!(
                    Instant::now() < deadline,
                    "tauri-driver did not listen on {p}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Driver {
            child,
            port,
            data_dir: data_dir.to_path_buf(),
        }
    }

    /// A session with a freshly launched app. A launch that fails outright (once in CI, GTK
    /// could not open the Xvfb display) leaves WebKitWebDriver's session request hanging, so
    /// each attempt has a deadline, and a failed one gets a fresh driver; three failures in a
    /// row fail the test. Every retry is reported on stderr.
    async fn session(&mut self) -> Client {
        const ATTEMPTS: u32 = 3;
        for attempt in 1..=ATTEMPTS {
            let mut caps = serde_json::Map::new();
            caps.insert("browserName".into(), json!("wry"));
            caps.insert(
                "tauri:options".into(),
                json!({ "application": app_binary() }),
            );
            let url = format!("http://127.0.0.1:{}", self.port);
            let mut builder = ClientBuilder::new(HttpConnector::new());
            builder.capabilities(caps);
            let connect = builder.connect(&url);
            match tokio::time::timeout(Duration::from_secs(60), connect).await {
                Ok(Ok(client)) => return client,
                Ok(Err(e)) => eprintln!("e2e: session attempt {attempt} failed: {e}"),
                Err(_) => eprintln!("e2e: session attempt {attempt} got no answer in 60 s"),
            }
            if attempt < ATTEMPTS {
                let data_dir = self.data_dir.clone();
                // The old driver is stopped when it is replaced (Drop).
                *self = Driver::start(&data_dir);
            }
        }
        panic!("no WebDriver session after {ATTEMPTS} attempts");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn js(c: &Client, script: &str, args: Vec<Value>) -> Value {
    c.execute(script, args).await.expect("execute script")
}

/// Polls `condition` (a JS expression) until it is true.
async fn wait_for(c: &Client, what: &str, condition: &str, timeout: Duration) {
    let script = format!("return !!({condition});");
    let deadline = Instant::now() + timeout;
    loop {
        if js(c, &script, vec![]).await == json!(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = js(
                c,
                "const s = document.querySelector('#status'); return s && s.textContent;",
                vec![],
            )
            .await;
            panic!("timed out waiting for {what} ({condition}); #status = {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const BOARD_READY: &str = "document.querySelectorAll('#board [role=gridcell]').length > 0";

async fn wait_board(c: &Client) {
    wait_for(c, "the board", BOARD_READY, Duration::from_secs(20)).await;
}

/// `{ point: stone }` for every stone on the board.
async fn stones(c: &Client) -> Value {
    js(
        c,
        "const o = {}; for (const e of document.querySelectorAll('#board [data-point]')) \
         { const s = e.getAttribute('data-stone'); if (s) o[e.getAttribute('data-point')] = s; } return o;",
        vec![],
    )
    .await
}

async fn count_stones(c: &Client, color: &str) -> usize {
    let all = stones(c).await;
    all.as_object()
        .map_or(0, |m| m.values().filter(|v| *v == color).count())
}

/// Waits until the board shows `n` white stones.
async fn wait_whites(c: &Client, what: &str, n: usize, timeout: Duration) {
    let condition =
        format!("document.querySelectorAll('#board [data-stone=\"white\"]').length === {n}");
    wait_for(c, what, &condition, timeout).await;
}

/// Waits until the board shows `n` stones of either colour.
async fn wait_stones(c: &Client, what: &str, n: usize, timeout: Duration) {
    let condition = format!(
        "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === {n}"
    );
    wait_for(c, what, &condition, timeout).await;
}

/// The text of `#meta` (the game's mode, rule and opening).
async fn meta_text(c: &Client) -> Value {
    js(
        c,
        "return document.querySelector('#meta').textContent;",
        vec![],
    )
    .await
}

/// The viewport position of intersection `point`: the centre of its gridcell when the cells
/// are laid over the intersections, otherwise computed from the board's rectangle and size.
async fn point_xy(c: &Client, point: &str) -> (i64, i64) {
    let v = js(
        c,
        "const b = document.querySelector('#board');
         const n = Number(b.dataset.size);
         const cell = b.querySelector(`[data-point=\"${arguments[0]}\"]`);
         const r = cell.getBoundingClientRect();
         if (r.width > 0 && r.height > 0) return [r.left + r.width / 2, r.top + r.height / 2];
         const br = b.getBoundingClientRect();
         const col = arguments[0].charCodeAt(0) - 97, row = Number(arguments[0].slice(1));
         const pitch = Math.min(br.width, br.height) / n;
         return [br.left + pitch * (col + 0.5), br.top + pitch * (n - row + 0.5)];",
        vec![json!(point)],
    )
    .await;
    let x = v[0].as_f64().expect("x");
    let y = v[1].as_f64().expect("y");
    (x.round() as i64, y.round() as i64)
}

/// A real mouse click at `point`'s pixel position inside `#board`.
async fn click_point(c: &Client, point: &str) {
    let (x, y) = point_xy(c, point).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x,
            y,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.expect("click");
    c.release_actions().await.expect("release");
}

/// Clicks an element (a button, a label) as a user would.
async fn click(c: &Client, what: Locator<'_>) {
    let element = c
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(what)
        .await
        .unwrap_or_else(|e| panic!("find {what:?}: {e}"));
    element
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {what:?}: {e}"));
}

/// Places a stone at `point` and waits until the board shows it.
async fn place(c: &Client, point: &str, color: &str) {
    click_point(c, point).await;
    wait_for(
        c,
        &format!("{color} at {point}"),
        &format!("document.querySelector('#board [data-point=\"{point}\"]').getAttribute('data-stone') === '{color}'"),
        Duration::from_secs(5),
    )
    .await;
}

async fn status_text(c: &Client) -> String {
    // textContent, not WebDriver's element text, which is empty for clipped one-line elements.
    js(
        c,
        "return document.querySelector('#status').textContent.trim();",
        vec![],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

async fn screenshot(c: &Client, name: &str) {
    // The DOM can be ahead of the painted frame; let the webview paint (and animations end).
    tokio::time::sleep(Duration::from_millis(600)).await;
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join(name), png).expect("write screenshot");
}

fn settings(mode: &str) -> Value {
    json!({ "mode": mode, "humanColor": "black", "level": 2, "rule": "freestyle", "size": 15,
            "confirmMove": "off", "language": "en" })
}

/// Window sizes (width, height): a small desktop window and a phone.
const DESKTOP: (u32, u32) = (480, 800);
const PHONE: (u32, u32) = (390, 844);

/// Starts a driver on `data` and a session whose window is `size`, and waits for the board.
/// The folder comes first so that, bound as `let (data, driver, c)`, it is dropped last: after
/// the session and the driver (and the app they end).
async fn launch_in(data: DataDir, size: (u32, u32)) -> (DataDir, Driver, Client) {
    let mut driver = Driver::start(&data.0);
    let c = driver.session().await;
    c.set_window_size(size.0, size.1)
        .await
        .expect("window size");
    wait_board(&c).await;
    (data, driver, c)
}

/// [`launch_in`] a fresh data folder seeded with `settings`.
async fn launch(tag: &str, settings: Value, size: (u32, u32)) -> (DataDir, Driver, Client) {
    launch_in(DataDir::with_settings(tag, settings), size).await
}

/// Ends the session (and with it the app), then launches the app again on the same data and
/// waits for its board.
async fn restart(driver: &mut Driver, c: Client) -> Client {
    c.close().await.expect("end session");
    let c = driver.session().await;
    wait_board(&c).await;
    c
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn computer_answers_undo_takes_back_the_pair_and_a_restart_restores_the_game() {
    // The first start is a two-player game at level 1; the player switches in Settings.
    let mut first = settings("local");
    first["level"] = json!(1);
    let (_data, mut driver, c) = launch("computer", first, DESKTOP).await;
    place(&c, "a1", "black").await;

    click(&c, Locator::Css("#settings")).await;
    click(
        &c,
        Locator::XPath("//input[@name='mode'][@value='computer']/parent::label"),
    )
    .await;
    click(
        &c,
        Locator::XPath("//input[@name='level'][@value='2']/parent::label"),
    )
    .await;
    click(&c, Locator::Css("#apply-new-game")).await;
    wait_for(
        &c,
        "a new game against Easy",
        "document.querySelector('#meta').textContent.includes('Easy') \
         && document.querySelectorAll('#board [data-stone=\"black\"]').length === 0",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        stones(&c).await,
        json!({}),
        "the new game starts on an empty board"
    );

    place(&c, "h8", "black").await;
    wait_whites(&c, "the computer's reply", 1, Duration::from_secs(30)).await;
    assert_eq!(count_stones(&c, "black").await, 1);

    click(&c, Locator::Css("#undo")).await;
    wait_stones(&c, "undo of both moves", 0, Duration::from_secs(5)).await;

    place(&c, "g7", "black").await;
    wait_whites(&c, "the computer's reply", 1, Duration::from_secs(30)).await;
    place(&c, "j9", "black").await;
    wait_whites(
        &c,
        "the computer's second reply",
        2,
        Duration::from_secs(30),
    )
    .await;
    let before = stones(&c).await;
    screenshot(&c, "desktop-vs-computer-480x800.png").await;

    // The app is gone with the session; a new one must find the game on disk.
    let c = restart(&mut driver, c).await;
    wait_stones(&c, "the restored stones", 4, Duration::from_secs(10)).await;
    assert_eq!(
        stones(&c).await,
        before,
        "the restarted app shows the same game"
    );
    c.close().await.expect("end session");
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn two_players_play_to_five_and_the_winning_line_is_marked() {
    let (_data, _driver, c) = launch("local", settings("local"), DESKTOP).await;

    let black = ["h8", "i8", "j8", "k8", "l8"];
    let white = ["h9", "i9", "j9", "k9"];
    for (i, b) in black.iter().enumerate() {
        place(&c, b, "black").await;
        if let Some(w) = white.get(i) {
            place(&c, w, "white").await;
        }
    }
    wait_for(
        &c,
        "the winning line",
        "document.querySelectorAll('#board [data-win=\"true\"]').length === 5",
        Duration::from_secs(5),
    )
    .await;
    let mut marked: Vec<String> = js(
        &c,
        "return [...document.querySelectorAll('#board [data-win=\"true\"]')].map(e => e.getAttribute('data-point'));",
        vec![],
    )
    .await
    .as_array()
    .expect("array")
    .iter()
    .map(|v| v.as_str().unwrap_or_default().to_string())
    .collect();
    marked.sort();
    assert_eq!(marked, black);
    let status = status_text(&c).await.to_lowercase();
    assert!(
        status.contains("black") && status.contains("win"),
        "#status tells the result: {status:?}"
    );

    // A tap after the end places nothing.
    click_point(&c, "a1").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(count_stones(&c, "white").await, 4);

    screenshot(&c, "desktop-five-480x800.png").await;
    c.set_window_size(390, 844).await.expect("phone size");
    tokio::time::sleep(Duration::from_millis(500)).await;
    screenshot(&c, "phone-five-390x844.png").await;
    c.close().await.expect("end session");
}

/// Cold start to a playable board, as the WebDriver client sees it: from asking for a session
/// (which launches the app) to gridcells in `#board`. Prints and records the median of 5.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn cold_start_to_a_playable_board() {
    let data = DataDir::new("cold-start");
    let mut driver = Driver::start(&data.0);
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let c = driver.session().await;
        wait_board(&c).await;
        times.push(start.elapsed());
        c.close().await.expect("end session");
    }
    times.sort();
    let ms: Vec<u128> = times.iter().map(Duration::as_millis).collect();
    let line = format!("cold start to board (ms, sorted): {ms:?}; median {}", ms[2]);
    println!("{line}");
    std::fs::write(artifacts().join("cold-start.txt"), line + "\n").expect("write result");
}

/// The process id of the app that `driver` launched: the one running [`app_binary`] with this
/// test's `WUZI_DATA_DIR`, so no other process is ever touched.
fn app_pid(data_dir: &Path) -> Option<u32> {
    let exe = std::fs::canonicalize(app_binary()).ok()?;
    let marker = format!("WUZI_DATA_DIR={}", data_dir.display()).into_bytes();
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let path = entry.path();
            let ours = std::fs::read_link(path.join("exe")).ok()? == exe
                && std::fs::read(path.join("environ"))
                    .ok()?
                    .split(|b| *b == 0)
                    .any(|var| var == marker.as_slice());
            ours.then_some(pid)
        })
}

/// SIGKILL to the app under test (no chance to flush anything), then waits until it is gone.
fn kill_app(data_dir: &Path) {
    let pid = app_pid(data_dir).expect("the app's process");
    let status = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -KILL {pid}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while Path::new(&format!("/proc/{pid}/exe")).exists() {
        assert!(Instant::now() < deadline, "the app {pid} did not die");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Calls an app command from the page, as `ui/api.js` does.
async fn invoke(c: &Client, cmd: &str, args: Value) -> Value {
    let v = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             window.__TAURI__.core.invoke(arguments[0], arguments[1])
               .then((v) => done({ ok: v }), (e) => done({ err: e }));",
            vec![json!(cmd), args],
        )
        .await
        .expect("execute async script");
    match v.get("ok") {
        Some(ok) => ok.clone(),
        None => panic!("{cmd} failed: {v}"),
    }
}

/// A small deterministic generator (xorshift64*), seeded per run and printed, so a failing
/// run can be repeated with `WUZI_E2E_SEED`.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// What the restarted app may show: a position and the games counted up to it.
#[derive(Clone, Debug, PartialEq)]
struct Expect {
    stones: Value,
    /// Finished games before the current one.
    counted_before: u64,
    /// The current game is over (and so counted).
    over: bool,
    /// The stats already count the current game's end although the game shown is not over
    /// (a kill inside the window, between the stats and the game write).
    ahead: bool,
}

/// Black (the human) has played more stones than white: the computer is to move, and a
/// restarted app asks it at once, so the board may show its reply by the time it is read.
fn computer_to_move(stones: &Value) -> bool {
    let m = stones.as_object().expect("stones");
    let black = m.values().filter(|v| *v == "black").count();
    black > m.len() - black
}

/// `shown` is `expected`, or `expected` plus the computer's reply to it.
fn shows(shown: &Value, expected: &Value) -> bool {
    if shown == expected {
        return true;
    }
    let (s, e) = (shown.as_object().unwrap(), expected.as_object().unwrap());
    computer_to_move(expected)
        && s.len() == e.len() + 1
        && e.iter().all(|(k, v)| s.get(k) == Some(v))
        && s.iter()
            .filter(|(k, _)| !e.contains_key(*k))
            .all(|(_, v)| v == "white")
}

async fn counted(c: &Client) -> u64 {
    let stats = invoke(c, "get_stats", json!({})).await;
    stats["levels"]
        .as_array()
        .expect("levels")
        .iter()
        .map(|l| {
            l["wins"].as_u64().unwrap()
                + l["losses"].as_u64().unwrap()
                + l["draws"].as_u64().unwrap()
        })
        .sum()
}

/// Kills the app with SIGKILL at random points of scripted games against the computer: right
/// after a change is confirmed (the computer's reply is on the board, the game is over, a new
/// game was answered), a random 0–300 ms later, or while a move is in flight. Each restart must
/// show the last confirmed position and count every finished game exactly once.
///
/// The documented window (docs/architecture.md, "Threads"): a reply reaches the UI before its
/// snapshot is on disk, by at most the write in progress plus its own write. A kill inside it
/// may restart on an earlier confirmed position; the test accepts that only for positions
/// confirmed less than [`SAVE_WINDOW`] before the kill, and prints how often it happened.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn sigkill_at_random_points_keeps_the_last_confirmed_move_and_the_stats() {
    const KILLS: u32 = 16;
    /// Far above two atomic writes (~12 ms each here, ~160 ms at worst under heavy load).
    const SAVE_WINDOW: Duration = Duration::from_millis(500);
    let seed = std::env::var("WUZI_E2E_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        });
    eprintln!("sigkill e2e: WUZI_E2E_SEED={seed}");
    let mut rng = Rng(seed);
    let mut first = settings("computer");
    first["level"] = json!(1);
    let data = DataDir::with_settings("sigkill", first);
    let points: Vec<String> = (0..49)
        .map(|i| format!("{}{}", char::from(b'e' + (i % 7) as u8), 5 + i / 7))
        .collect();

    // The confirmed positions since the last restart, each with the time of its confirmation.
    let mut history = vec![(
        Expect {
            stones: json!({}),
            counted_before: 0,
            over: false,
            ahead: false,
        },
        Instant::now(),
    )];
    let mut in_flight: Option<Expect> = None;
    let mut killed_at = Instant::now();
    let (mut in_window, mut games) = (0, 0);
    for kill in 0..=KILLS {
        let mut driver = Driver::start(&data.0);
        let c = driver.session().await;
        wait_for(
            &c,
            "the restored game",
            "document.documentElement.dataset.ready === 'true'",
            Duration::from_secs(20),
        )
        .await;
        let shown = stones(&c).await;
        let over = invoke(&c, "get_state", json!({})).await["game"]["result"] != Value::Null;
        let total = counted(&c).await;
        // The last confirmed position; an in-flight move; earlier positions inside the window.
        let (last, _) = history.last().cloned().expect("a confirmed position");
        let window_start = killed_at.checked_sub(SAVE_WINDOW).unwrap_or(killed_at);
        // Each candidate says whether it lies inside the save window, and whether the app may
        // have gone past it unseen: a move in flight can be answered by the computer with a
        // five, counted (stats are written first) and killed before that game is on disk.
        let candidates = std::iter::once((last.clone(), false, false))
            .chain(in_flight.take().map(|e| (e, false, true)))
            .chain(
                history
                    .windows(2)
                    .rev()
                    .filter(|w| w[1].1 >= window_start)
                    .map(|w| (w[0].0.clone(), true, false)),
            );
        let (mut now, window, unseen_reply) = candidates
            .into_iter()
            .find(|(e, _, _)| shows(&shown, &e.stones))
            .unwrap_or_else(|| {
                panic!("restart {kill} shows {shown}; the last confirmed position was {last:?}")
            });
        if window {
            in_window += 1;
        }
        now.over = over;
        now.stones = shown;
        // Stats are written before the game: inside the window they may already hold the end
        // of a game that the restart shows unfinished; that game is then not counted again.
        let expected = now.counted_before + u64::from(now.over || now.ahead);
        assert!(
            total == expected || ((window || unseen_reply) && !now.over && total == expected + 1),
            "restart {kill}: {total} games counted, expected {expected} ({now:?})"
        );
        now.ahead = total > now.counted_before && !now.over;
        history = vec![(now, Instant::now())];
        if kill == KILLS {
            c.close().await.ok();
            break;
        }
        let mut confirmed = history[0].0.clone();
        let confirm = |e: &Expect, history: &mut Vec<(Expect, Instant)>| {
            history.push((e.clone(), Instant::now()));
        };

        if computer_to_move(&confirmed.stones) && !confirmed.over {
            // The restarted app asks the computer at once; its reply is the next change (and
            // may already be on the board).
            let whites = confirmed.stones.as_object().unwrap().values();
            let whites = whites.filter(|v| *v == "white").count();
            wait_for(
                &c,
                "the computer's reply after the restart",
                &format!(
                    "document.querySelectorAll('#board [data-stone=\"white\"]').length > {whites} \
                     || document.querySelectorAll('#board [data-win=\"true\"]').length >= 5"
                ),
                Duration::from_secs(30),
            )
            .await;
            confirmed.stones = stones(&c).await;
            confirmed.over =
                invoke(&c, "get_state", json!({})).await["game"]["result"] != Value::Null;
            confirm(&confirmed, &mut history);
        }

        // Play on for a few moves, then pick the kind of kill.
        for _ in 0..rng.below(4) {
            if confirmed.over {
                break;
            }
            let free: Vec<&String> = points
                .iter()
                .filter(|p| confirmed.stones.get(p.as_str()).is_none())
                .collect();
            let p = free[rng.below(free.len() as u64) as usize];
            let whites = count_stones(&c, "white").await;
            place(&c, p, "black").await;
            wait_for(
                &c,
                "the computer's reply or the end",
                &format!(
                    "document.querySelectorAll('#board [data-stone=\"white\"]').length > {whites} \
                     || document.querySelectorAll('#board [data-win=\"true\"]').length >= 5"
                ),
                Duration::from_secs(30),
            )
            .await;
            // The human's move alone was a saved position too, confirmed before the reply.
            let mut played = confirmed.clone();
            played.stones[p.as_str()] = json!("black");
            confirm(&played, &mut history);
            confirmed.stones = stones(&c).await;
            confirmed.over =
                invoke(&c, "get_state", json!({})).await["game"]["result"] != Value::Null;
            confirm(&confirmed, &mut history);
        }
        if confirmed.over {
            // A new game, confirmed by its reply; the finished one stays counted.
            invoke(&c, "new_game", json!({ "options": {} })).await;
            games += 1;
            confirmed = Expect {
                stones: json!({}),
                counted_before: confirmed.counted_before + 1,
                over: false,
                ahead: false,
            };
            confirm(&confirmed, &mut history);
        }
        match rng.below(3) {
            0 => {}
            1 => tokio::time::sleep(Duration::from_millis(rng.below(300))).await,
            _ => {
                // A move in flight: the restart shows the position before it or after it (and
                // the move may end the game: the restart's `over` decides).
                let free: Vec<&String> = points
                    .iter()
                    .filter(|p| confirmed.stones.get(p.as_str()).is_none())
                    .collect();
                let p = free[rng.below(free.len() as u64) as usize].clone();
                let mut after = confirmed.clone();
                after.stones[&p] = json!("black");
                in_flight = Some(after);
                click_point(&c, &p).await;
                tokio::time::sleep(Duration::from_millis(rng.below(40))).await;
            }
        }
        killed_at = Instant::now();
        kill_app(&data.0);
        // The session's app is gone; the driver is replaced by a fresh one (SIGTERM).
        drop(c);
        drop(driver);
    }
    eprintln!(
        "sigkill e2e: {KILLS} kills, {games} new games, {in_window} restarts on a position \
         before the last confirmed one (inside the save window)"
    );
}

/// Analysis mode in the real app (issue 10 §1): on → an evaluation, a best line and candidates
/// from the real engine; every move → a new analysis (another generation, the new position)
/// whose first round is timed from the tap; and the stone of a tap made while the analysis
/// searches is on the board at once. Prints and records the medians.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn analysis_follows_every_move_and_never_holds_up_a_tap() {
    let (_data, _driver, c) = launch("analysis", settings("local"), PHONE).await;
    place(&c, "h8", "black").await;
    place(&c, "i9", "white").await;

    click(&c, Locator::Css("#analysis")).await;
    wait_for(
        &c,
        "the first analysis",
        "document.querySelector('#eval').dataset.ply === '2' && document.querySelectorAll('#board .mark.cand').length === 3",
        Duration::from_secs(10),
    )
    .await;
    let eval = |c: &Client| {
        let c = c.clone();
        async move {
            js(
                &c,
                "const e = document.querySelector('#eval');
                 return { score: e.dataset.score, generation: Number(e.dataset.generation), ply: e.dataset.ply,
                          text: document.querySelector('#eval-text').textContent,
                          verdict: document.querySelector('#eval-verdict').textContent,
                          info: document.querySelector('#eval-info').textContent,
                          pv: [...document.querySelectorAll('#board .mark.pv')].map(m => m.dataset.point),
                          cands: [...document.querySelectorAll('#board .mark.cand')].map(m => m.dataset.point) };",
                vec![],
            )
            .await
        }
    };
    let first = eval(&c).await;
    assert!(first["score"].as_str().is_some(), "{first}");
    assert_eq!(
        first["text"]
            .as_str()
            .unwrap()
            .trim_start_matches(['+', '−']),
        first["score"].as_str().unwrap().trim_start_matches('-'),
        "{first}"
    );
    assert!(!first["verdict"].as_str().unwrap().is_empty(), "{first}");
    assert!(
        first["info"].as_str().unwrap().starts_with("depth "),
        "{first}"
    );
    assert!(!first["pv"].as_array().unwrap().is_empty(), "{first}");
    screenshot(&c, "analysis-390x844.png").await;

    // Each move: timestamps of the tap, the stone on the board and the new analysis' first
    // round, taken in the page.
    js(
        &c,
        "window.__m = [];
         const board = document.querySelector('#board');
         board.addEventListener('pointerdown', () => window.__m.push({ tap: performance.now() }), { capture: true });
         new MutationObserver(() => {
           const m = window.__m.at(-1);
           if (m && m.stone === undefined) m.stone = performance.now();
         }).observe(board, { subtree: true, attributeFilter: ['data-stone'] });
         new MutationObserver(() => {
           const m = window.__m.at(-1);
           const e = document.querySelector('#eval');
           if (m && m.shown === undefined && m.ply !== undefined && e.dataset.ply === String(m.ply) && e.dataset.score !== undefined)
             m.shown = performance.now();
         }).observe(document.querySelector('#eval'), { attributes: true });",
        vec![],
    )
    .await;
    let moves = [
        ("g7", "black"),
        ("i7", "white"),
        ("g9", "black"),
        ("f8", "white"),
        ("j10", "black"),
        ("k11", "white"),
        ("f6", "black"),
    ];
    let mut previous = first;
    for (k, (point, color)) in moves.iter().enumerate() {
        let ply = k + 3;
        // Let the analysis get into its longer rounds, so the tap lands while it searches.
        tokio::time::sleep(Duration::from_millis(400)).await;
        click_point(&c, point).await;
        js(
            &c,
            "window.__m.at(-1).ply = arguments[0];",
            vec![json!(ply)],
        )
        .await;
        place_seen(&c, point, color).await;
        wait_for(
            &c,
            &format!("the analysis after move {ply}"),
            &format!("document.querySelector('#eval').dataset.ply === '{ply}'"),
            Duration::from_secs(10),
        )
        .await;
        let now = eval(&c).await;
        assert!(
            now["generation"].as_u64() > previous["generation"].as_u64(),
            "a new analysis for the new position: {previous} → {now}"
        );
        assert!(
            !now["cands"].as_array().unwrap().iter().any(|p| p == point),
            "no candidate on the stone just played: {now}"
        );
        previous = now;
    }
    let marks = js(&c, "return window.__m;", vec![]).await;
    let spans = |from: &str, to: &str| -> Vec<f64> {
        let mut v: Vec<f64> = marks
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| Some(m[to].as_f64()? - m[from].as_f64()?))
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let to_stone = spans("tap", "stone");
    let to_line = spans("tap", "shown");
    assert_eq!(to_stone.len(), moves.len(), "{marks}");
    assert_eq!(to_line.len(), moves.len(), "{marks}");
    let median = |v: &[f64]| v[v.len() / 2];
    let line = format!(
        "analysis on, {} moves, tap → stone on the board (ms, sorted): {:?}, median {:.1}; \
         tap → first analysis round on screen (ms, sorted): {:?}, median {:.0}",
        moves.len(),
        to_stone
            .iter()
            .map(|x| (x * 10.0).round() / 10.0)
            .collect::<Vec<_>>(),
        median(&to_stone),
        to_line.iter().map(|x| x.round()).collect::<Vec<_>>(),
        median(&to_line),
    );
    println!("{line}");
    std::fs::write(
        artifacts().join("analysis-latency.txt"),
        format!("{line}\n"),
    )
    .expect("write result");
    assert!(
        median(&to_stone) < 50.0,
        "a tap places its stone at once while analysis runs: {line}"
    );

    // Off: the panel and the marks go.
    click(&c, Locator::Css("#analysis")).await;
    wait_for(
        &c,
        "analysis off",
        "document.querySelector('#panel').hidden && !document.querySelector('#board .mark')",
        Duration::from_secs(5),
    )
    .await;
    c.close().await.expect("end session");
}

/// Waits until the board shows `color` at `point` (the click was already made).
async fn place_seen(c: &Client, point: &str, color: &str) {
    wait_for(
        c,
        &format!("{color} at {point}"),
        &format!("document.querySelector('#board [data-point=\"{point}\"]').getAttribute('data-stone') === '{color}'"),
        Duration::from_secs(5),
    )
    .await;
}

/// A legal 60-move freestyle game with no run longer than two (for the review timing).
const SIXTY_MOVES: &str = "e5 d5 f5 g5 i5 h5 j5 k5 d6 e6 g6 f6 h6 i6 k6 j6 e7 d7 f7 g7 i7 h7 \
    j7 k7 d8 e8 g8 f8 h8 i8 k8 j8 e9 d9 f9 g9 i9 h9 j9 k9 d10 e10 g10 f10 h10 i10 k10 j10 e11 \
    d11 f11 g11 i11 h11 j11 k11 d12 e12 g12 f12";

/// Waits until sheet `id` is open and stands still (its rise and its backdrop's fade have
/// ended): WebDriver clicks the point where an element was, and during the rise that point may
/// be another button.
async fn wait_sheet_still(c: &Client, id: &str) {
    wait_for(
        c,
        &format!("#{id} open and still"),
        &format!(
            "(() => {{ const d = document.getElementById('{id}'); \
             return d.open && d.getAnimations({{ subtree: true }}).every((a) => a.playState === 'finished'); }})()"
        ),
        Duration::from_secs(5),
    )
    .await;
}

/// Opens the settings sheet and waits for it to stand still.
async fn open_settings(c: &Client) {
    click(c, Locator::Css("#settings")).await;
    wait_sheet_still(c, "settings-sheet").await;
}

/// Waits until `#review-progress` says `moves / moves` for a finished review; returns how long
/// that took.
async fn review_to_the_end(c: &Client, moves: usize, timeout: Duration) -> Duration {
    let start = Instant::now();
    wait_for(
        c,
        &format!("the review's progress at {moves} / {moves}"),
        &format!(
            "document.querySelector('#review-progress').textContent === '{moves} / {moves}' \
             && document.querySelector('#review-progress').hasAttribute('data-done')"
        ),
        timeout,
    )
    .await;
    start.elapsed()
}

/// Game review in the real app (issue 10 §2): a finished game is reviewed by the real engine
/// with its progress shown to the end, then stepped through; a loaded 60-move record is
/// reviewed too, and both review times are recorded.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_finished_game_and_a_loaded_record_are_reviewed_to_the_end() {
    let (_data, _driver, c) = launch("review", settings("local"), PHONE).await;
    let black = ["h8", "i8", "j8", "k8", "l8"];
    let white = ["h9", "i10", "a1", "a2"];
    for (i, b) in black.iter().enumerate() {
        place(&c, b, "black").await;
        if let Some(w) = white.get(i) {
            place(&c, w, "white").await;
        }
    }
    // The sheet rises into place; click once it stands still.
    wait_sheet_still(&c, "gameover-sheet").await;
    click(&c, Locator::Css("#review-open")).await;
    let nine = review_to_the_end(&c, 9, Duration::from_secs(30)).await;
    let classes: Vec<String> = js(
        &c,
        "return [...document.querySelectorAll('#review-graph .graph-tick')].map(t => t.dataset.ply + ':' + t.dataset.class);",
        vec![],
    )
    .await
    .as_array()
    .unwrap()
    .iter()
    .map(|v| v.as_str().unwrap().to_string())
    .collect();
    // White's a1 and a2 ignored black's three and four: the engine calls at least one of them
    // a mistake or worse (ply 6 or 8).
    assert!(
        classes
            .iter()
            .any(|t| ["6", "8"].contains(&t.split(':').next().unwrap())
                && !t.ends_with("inaccuracy")),
        "{classes:?}"
    );
    click(&c, Locator::Css("#review-first")).await;
    assert_eq!(count_stones(&c, "black").await, 0);
    for _ in 0..6 {
        click(&c, Locator::Css("#review-next")).await;
    }
    assert_eq!(
        count_stones(&c, "black").await + count_stones(&c, "white").await,
        6
    );
    let text = js(
        &c,
        "return document.querySelector('#review-move').textContent;",
        vec![],
    )
    .await;
    assert!(
        text.as_str().unwrap().starts_with("6. White A1 — "),
        "{text}"
    );
    screenshot(&c, "review-390x844.png").await;

    // A loaded record: 60 moves, reviewed at the default 300 ms a position.
    click(&c, Locator::Css("#review-close")).await;
    open_settings(&c).await;
    c.find(Locator::Css("#record-text"))
        .await
        .expect("record box")
        .send_keys(SIXTY_MOVES)
        .await
        .expect("type the record");
    click(&c, Locator::Css("#import-record")).await;
    wait_stones(&c, "the record on the board", 60, Duration::from_secs(5)).await;
    open_settings(&c).await;
    click(&c, Locator::Css("#review-record")).await;
    let sixty = review_to_the_end(&c, 60, Duration::from_secs(120)).await;
    let line = format!(
        "review to the end (debug app, 300 ms a position): 9 moves {} ms, 60 moves {} ms",
        nine.as_millis(),
        sixty.as_millis()
    );
    println!("{line}");
    std::fs::write(artifacts().join("review-time.txt"), format!("{line}\n")).expect("write");
    c.close().await.expect("end session");
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_renju_game_starts_from_a_chosen_canonical_opening_and_keeps_it() {
    let mut first = settings("computer");
    first["rule"] = json!("renju");
    first["level"] = json!(1);
    let (_data, mut driver, c) = launch("renju-opening", first, DESKTOP).await;
    assert_eq!(stones(&c).await, json!({}), "a free start by default");

    open_settings(&c).await;
    // The native <select> is chosen as a script would after the picker closes: WebDriver cannot
    // drive GTK's popup.
    let options = js(
        &c,
        "const s = document.querySelector('#renju-opening');
         const shown = s.getBoundingClientRect().height > 0;
         s.value = '7I';
         s.dispatchEvent(new Event('change', { bubbles: true }));
         return [shown, s.options.length];",
        vec![],
    )
    .await;
    assert_eq!(
        options,
        json!([true, 28]),
        "free, random and the 26 openings"
    );
    click(&c, Locator::Css("#settings-sheet [data-close]")).await;
    wait_for(
        &c,
        "the settings sheet closed",
        "!document.querySelector('#settings-sheet').open",
        Duration::from_secs(5),
    )
    .await;
    // On an empty board the changed game options start the new game as the sheet closes.
    // Hogetsu: h8 i9 i7, then the computer (white) plays move 4.
    wait_whites(
        &c,
        "the opening and the computer's move 4",
        2,
        Duration::from_secs(30),
    )
    .await;
    let on_board = stones(&c).await;
    for (point, color) in [("h8", "black"), ("i9", "white"), ("i7", "black")] {
        assert_eq!(on_board[point], color, "{point} in {on_board}");
    }
    let meta = meta_text(&c).await;
    assert!(
        meta.as_str().unwrap_or_default().contains("Hogetsu"),
        "{meta}"
    );
    let record = invoke(&c, "export_record", json!({ "format": "moves" })).await;
    assert!(
        record.as_str().is_some_and(|r| r.starts_with("h8 i9 i7 ")),
        "{record}"
    );
    let undo_disabled = js(
        &c,
        "return document.querySelector('#undo').disabled;",
        vec![],
    )
    .await;
    assert_eq!(
        undo_disabled,
        json!(true),
        "only the computer's move 4 to undo"
    );
    screenshot(&c, "renju-opening-480x800.png").await;

    let c = restart(&mut driver, c).await;
    wait_for(
        &c,
        "the restored game and its opening",
        "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === 4 \
         && document.querySelector('#meta').textContent.includes('Hogetsu')",
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(stones(&c).await, on_board);
    c.close().await.expect("end session");
}

/// The view of the game on screen, from the shell.
async fn game_view(c: &Client) -> Value {
    invoke(c, "get_state", json!({})).await["game"].clone()
}

/// Points two apart in both directions along the edges: a player who plays only these never
/// makes a line, so the game is the computer's to end.
fn idle_points() -> impl Iterator<Item = String> {
    const COLS: [&str; 8] = ["a", "c", "e", "g", "i", "k", "m", "o"];
    [1, 3, 13, 15]
        .into_iter()
        .flat_map(|row| COLS.iter().map(move |col| format!("{col}{row}")))
}

/// A Swap2 game against the computer in the real app (issue 10 §3): the computer opens with
/// three stones, the player places two more, the computer picks a colour with its search, and
/// the game is played to its end and counted for the side the player got.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_swap2_game_against_the_computer_is_played_to_its_end() {
    let mut first = settings("computer");
    first["humanColor"] = json!("white");
    first["level"] = json!(1);
    first["openingRule"] = json!("swap2");
    let (_data, _driver, c) = launch("swap2", first, PHONE).await;
    // The computer opens: three stones, then the choice is the player's.
    let proposed = Instant::now();
    wait_for(
        &c,
        "the computer's three stones and the choice buttons",
        "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === 3 \
         && !document.querySelector('#swap-two').hidden",
        Duration::from_secs(30),
    )
    .await;
    println!(
        "swap2: the computer proposed its opening in {} ms (debug app)",
        proposed.elapsed().as_millis()
    );
    assert_eq!(count_stones(&c, "black").await, 2);
    assert_eq!(
        status_text(&c).await,
        "Choose: take black, keep white and play the 4th stone, or place two more"
    );
    let meta = meta_text(&c).await;
    assert!(
        meta.as_str().unwrap_or_default().contains("Swap2"),
        "{meta}"
    );
    for id in ["#swap-black", "#swap-white", "#swap-two"] {
        let h = js(
            &c,
            "return document.querySelector(arguments[0]).getBoundingClientRect().height;",
            vec![json!(id)],
        )
        .await;
        assert!(h.as_f64().unwrap_or(0.0) >= 44.0, "{id}: {h}");
    }
    screenshot(&c, "swap2-390x844.png").await;
    let opening: Vec<String> = game_view(&c).await["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();

    // Place two more (white, black) far from the centre, and hand the choice back.
    click(&c, Locator::Css("#swap-two")).await;
    wait_for(
        &c,
        "the stones due",
        "document.querySelector('#status').textContent === 'Place stone 1 of 2'",
        Duration::from_secs(5),
    )
    .await;
    place(&c, "b14", "white").await;
    place(&c, "n2", "black").await;
    wait_for(
        &c,
        "the computer's colour choice",
        "document.querySelector('#swap-row').hidden",
        Duration::from_secs(30),
    )
    .await;
    let v = game_view(&c).await;
    assert_eq!(v["swap"]["stage"], "done", "{v}");
    let human = v["humanColor"].as_str().unwrap().to_string();
    println!(
        "swap2: the computer took {}, the player plays {human}",
        if human == "black" { "white" } else { "black" }
    );
    let mut expected: Vec<String> = opening.clone();
    expected.extend(["b14".to_string(), "n2".to_string()]);
    assert_eq!(
        v["moves"].as_array().unwrap()[..5],
        json!(expected).as_array().unwrap()[..]
    );

    // Play on with moves that never make a line until the computer ends the game.
    let mut idle = idle_points();
    for _ in 0..60 {
        wait_for(
            &c,
            "the player's turn or the end",
            "document.querySelector('#gameover-sheet').open \
             || (!document.querySelector('#turn').hasAttribute('data-thinking') \
                 && document.querySelector('#status').textContent === 'Your move')",
            Duration::from_secs(30),
        )
        .await;
        let v = game_view(&c).await;
        if !v["result"].is_null() {
            break;
        }
        let taken = stones(&c).await;
        let point = idle
            .by_ref()
            .find(|p| taken.get(p).is_none())
            .expect("an idle point left");
        let n = v["moveNumber"].as_u64().unwrap();
        click_point(&c, &point).await;
        wait_for(
            &c,
            "the move played",
            &format!(
                "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length > {n} \
                 || document.querySelector('#gameover-sheet').open"
            ),
            Duration::from_secs(5),
        )
        .await;
    }
    wait_for(
        &c,
        "the game-over sheet",
        "document.querySelector('#gameover-sheet').open",
        Duration::from_secs(30),
    )
    .await;
    let v = game_view(&c).await;
    let winner = v["result"]["winner"].as_str().unwrap_or("none").to_string();
    assert_ne!(winner, human, "the player never made a line");
    assert_eq!(v["humanColor"], json!(human), "the colour the phase gave");
    let record = invoke(&c, "export_record", json!({ "format": "moves" })).await;
    assert!(
        record.as_str().unwrap().starts_with(&expected.join(" ")),
        "{record}"
    );
    let stats = invoke(&c, "get_stats", json!({})).await;
    let beginner = &stats["levels"][0];
    assert_eq!(
        (beginner["losses"].as_u64(), beginner["wins"].as_u64()),
        (Some(1), Some(0)),
        "{stats}"
    );
    println!(
        "swap2: {} moves, {winner} won",
        v["moves"].as_array().unwrap().len()
    );
    c.close().await.expect("end session");
}

/// Two players on one device: the Swap2 phase is taps and buttons, and a restart in the middle
/// of it comes back into it.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn two_players_play_a_swap2_opening_and_a_restart_resumes_it() {
    let mut first = settings("local");
    first["openingRule"] = json!("swap2");
    let (_data, mut driver, c) = launch("swap2-local", first, DESKTOP).await;
    assert_eq!(status_text(&c).await, "Opener: place stone 1 of 3");
    place(&c, "h8", "black").await;
    place(&c, "h9", "white").await;

    let c = restart(&mut driver, c).await;
    wait_for(
        &c,
        "the phase restored",
        "document.querySelector('#status').textContent === 'Opener: place stone 3 of 3'",
        Duration::from_secs(10),
    )
    .await;
    place(&c, "i9", "black").await;
    wait_for(
        &c,
        "the chooser's buttons",
        "!document.querySelector('#swap-white').hidden",
        Duration::from_secs(5),
    )
    .await;
    assert!(status_text(&c).await.starts_with("Chooser — take black"));
    // A tap on the board while the choice is due places nothing.
    click_point(&c, "j10").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(stones(&c).await.as_object().unwrap().len(), 3);
    click(&c, Locator::Css("#swap-white")).await;
    wait_for(
        &c,
        "the phase over",
        "document.querySelector('#swap-row').hidden \
         && document.querySelector('#status').textContent === 'White to move'",
        Duration::from_secs(5),
    )
    .await;
    place(&c, "j10", "white").await;
    click(&c, Locator::Css("#undo")).await;
    wait_for(
        &c,
        "the undo",
        "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === 3 \
         && document.querySelector('#undo').disabled",
        Duration::from_secs(5),
    )
    .await;
    c.close().await.expect("end session");
}

/// `#clock-<color>`'s milliseconds as drawn (time left with a limit, else time spent).
async fn clock_ms(c: &Client, color: &str) -> i64 {
    js(
        c,
        "return Number(document.querySelector(`#clock-${arguments[0]}`).dataset.ms);",
        vec![json!(color)],
    )
    .await
    .as_i64()
    .unwrap_or(-1)
}

/// The first of `candidates` that is empty on the board now. Against the computer a test
/// cannot know in advance where it will have played: a fixed point may be taken already.
async fn empty_point(c: &Client, candidates: &[&str]) -> String {
    let taken = stones(c).await;
    candidates
        .iter()
        .find(|p| taken.get(**p).is_none())
        .map(|p| (*p).to_string())
        .unwrap_or_else(|| panic!("no empty point among {candidates:?}: {taken}"))
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn the_clock_runs_for_the_side_to_move_and_a_flag_falls_without_a_tap() {
    // Against the computer with five minutes a side, as chosen in the settings; black, and no
    // opening rule (the clock of a Swap2 phase is the next test's), said here, not assumed.
    let mut chosen = settings("computer");
    chosen["level"] = json!(1);
    chosen["clockMinutes"] = json!(5);
    chosen["humanColor"] = json!("black");
    chosen["openingRule"] = json!("none");
    let (_data, driver, c) = launch("clock", chosen, PHONE).await;
    assert_eq!(clock_ms(&c, "black").await, 300_000, "no stone, no clock");
    // Three black stones, each on a point the board shows empty at the time of the tap: the
    // computer replies anywhere near them (it once had i9 before the third tap).
    const NEAR_THE_CENTRE: [&str; 12] = [
        "h8", "h9", "i9", "g7", "j10", "g9", "i7", "f6", "k11", "f10", "k6", "e5",
    ];
    for nth in 1..=3 {
        let mine = empty_point(&c, &NEAR_THE_CENTRE).await;
        place(&c, &mine, "black").await;
        wait_whites(&c, "the computer's reply", nth, Duration::from_secs(20)).await;
    }
    let v = game_view(&c).await;
    assert_eq!(
        (v["moves"].as_array().map(Vec::len), &v["result"]),
        (Some(6), &Value::Null),
        "three moves each, the game on: {v}"
    );
    // Black to move: its time left goes down, the computer's stands.
    wait_for(
        &c,
        "the clock running for black",
        "document.querySelector('#clock[data-running]') \
         && document.querySelector('#clock-black').hasAttribute('data-active')",
        Duration::from_secs(5),
    )
    .await;
    let (black, white) = (clock_ms(&c, "black").await, clock_ms(&c, "white").await);
    assert!(white < 300_000, "the computer's thinking counts: {white}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let black_later = clock_ms(&c, "black").await;
    assert!(
        (1000..5000).contains(&(black - black_later)),
        "black's clock ran: {black} → {black_later}"
    );
    assert_eq!(clock_ms(&c, "white").await, white);
    let total = js(
        &c,
        "return document.querySelector('#clock-total').textContent;",
        vec![],
    )
    .await;
    assert!(
        total.as_str().is_some_and(|t| t.starts_with("Game 0:")),
        "{total}"
    );
    screenshot(&c, "clock-390x844.png").await;

    // The settings sheet pauses it; the limit chosen there is for the next game.
    open_settings(&c).await;
    let paused_at = clock_ms(&c, "black").await;
    click(
        &c,
        Locator::Css("#settings-sheet input[name='clockMinutes'][value='10']"),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let settings_now = invoke(&c, "get_settings", json!({})).await;
    assert_eq!(settings_now["clockMinutes"], 10);
    let state = invoke(&c, "get_state", json!({})).await;
    assert_eq!(
        state["game"]["clock"]["running"], false,
        "paused under the sheet"
    );
    assert_eq!(state["game"]["clock"]["limit"]["baseMs"], 300_000);
    assert!(clock_ms(&c, "black").await >= paused_at - 300);
    click(&c, Locator::Css("#settings-sheet [data-close]")).await;
    wait_for(
        &c,
        "the clock running again",
        "document.querySelector('#clock[data-running]')",
        Duration::from_secs(5),
    )
    .await;
    c.close().await.expect("end session");
    drop(driver);

    // A saved game where black has two seconds left: the app opens on it and, with nobody
    // touching anything, black loses on time.
    let data = DataDir::with_settings("clock-flag", settings("local"));
    std::fs::write(
        data.0.join("game.json"),
        json!({
            "version": 2, "gameId": 7, "mode": "local", "level": 2, "humanColor": "black",
            "statsCounted": false, "gameUid": 99,
            "game": { "version": 1, "rule": "freestyle", "size": 15, "moves": ["h8", "i9"], "redo": [] },
            "clock": { "limit": { "baseMs": 300_000, "incrementMs": 0 }, "moves": [1000, 2000],
                       "pendingMs": 297_000 }
        })
        .to_string(),
    )
    .expect("seed the game");
    let (_data, mut driver, c) = launch_in(data, PHONE).await;
    wait_for(
        &c,
        "the game-over sheet",
        "document.querySelector('#gameover-sheet').open",
        Duration::from_secs(10),
    )
    .await;
    let sheet = js(
        &c,
        "return ['#gameover-title', '#gameover-reason'].map((s) => document.querySelector(s).textContent);",
        vec![],
    )
    .await;
    assert_eq!(sheet, json!(["White wins", "Black ran out of time"]));
    assert_eq!(status_text(&c).await, "White wins — on time");
    let state = invoke(&c, "get_state", json!({})).await;
    assert_eq!(state["game"]["result"]["reason"], "time");
    assert_eq!(state["game"]["clock"]["flag"], "black");
    assert_eq!(state["game"]["clock"]["blackMs"], 300_000);
    let refused = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             window.__TAURI__.core.invoke('play', { point: 'j10', gameId: 7, moveNumber: 2 })
               .then(() => done('played'), (e) => done(e.code));",
            vec![],
        )
        .await
        .expect("execute async script");
    assert_eq!(refused, json!("gameOver"));
    screenshot(&c, "clock-flag-390x844.png").await;

    // It stays lost after a restart.
    let c = restart(&mut driver, c).await;
    wait_for(
        &c,
        "the lost game restored",
        "document.querySelector('#status').textContent.includes('on time')",
        Duration::from_secs(10),
    )
    .await;
    c.close().await.expect("end session");
}

/// The clock in a Swap2 opening between two players (issue 10 §3 with §4): it runs for whoever
/// acts, not for the colour of the stone, and when the chooser takes black its thinking over the
/// choice is black's.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn the_clock_runs_for_whoever_acts_in_a_swap2_opening() {
    let mut first = settings("local");
    first["openingRule"] = json!("swap2");
    first["clockMinutes"] = json!(5);
    let (_data, _driver, c) = launch("swap2-clock", first, PHONE).await;
    place(&c, "h8", "black").await;
    // White's stone 2 is due, but it is the opener's (black's side's) time that runs.
    wait_for(
        &c,
        "the opener's clock running for stone 2",
        "document.querySelector('#clock[data-running][data-swap-phase]') \
         && document.querySelector('#clock-black').hasAttribute('data-active') \
         && !document.querySelector('#clock-white').hasAttribute('data-active')",
        Duration::from_secs(5),
    )
    .await;
    let v = game_view(&c).await;
    assert_eq!(
        (&v["toMove"], &v["clock"]["side"]),
        (&json!("white"), &json!("black"))
    );
    let label = js(
        &c,
        "return document.querySelector('#clock-black').getAttribute('aria-label');",
        vec![],
    )
    .await;
    assert!(
        label.as_str().unwrap_or_default().starts_with("Opener"),
        "{label}"
    );
    place(&c, "h9", "white").await;
    place(&c, "i9", "black").await;
    wait_for(
        &c,
        "the chooser's clock running for the choice",
        "!document.querySelector('#swap-black').hidden \
         && document.querySelector('#clock-white').hasAttribute('data-active')",
        Duration::from_secs(5),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    click(&c, Locator::Css("#swap-black")).await;
    wait_for(
        &c,
        "the phase over, white (the opener) to move",
        "document.querySelector('#swap-row').hidden \
         && !document.querySelector('#clock').hasAttribute('data-swap-phase') \
         && document.querySelector('#clock-white').hasAttribute('data-active')",
        Duration::from_secs(5),
    )
    .await;
    let v = game_view(&c).await;
    assert_eq!(v["clock"]["side"], "white");
    assert_eq!(v["clock"]["owners"], json!(["white", "white", "white"]));
    let black_ms = v["clock"]["blackMs"].as_u64().unwrap_or(0);
    assert!(
        black_ms >= 1000,
        "the chooser's choice is black's time now: {v}"
    );
    screenshot(&c, "swap2-clock-390x844.png").await;
    c.close().await.expect("end session");
}

/// Whether the element matching `css` is displayed (not `hidden`, not inside a hidden parent).
async fn shown(c: &Client, css: &str) -> bool {
    js(
        c,
        "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;",
        vec![json!(css)],
    )
    .await
        == json!(true)
}

/// Opens the position editor from the settings sheet and waits until it shows, the sheet gone.
async fn open_editor(c: &Client) {
    open_settings(c).await;
    click(c, Locator::Css("#edit-position")).await;
    wait_for(
        c,
        "the editor",
        "!document.querySelector('#editor').hidden && !document.querySelector('#settings-sheet').open",
        Duration::from_secs(5),
    )
    .await;
}

/// Taps Done in the editor on a playable position and waits for the sheet that asks how to
/// play it to stand still.
async fn finish_editing(c: &Client) {
    click(c, Locator::Css("#edit-done")).await;
    wait_sheet_still(c, "setup-sheet").await;
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_set_up_position_is_refused_with_a_five_then_played_against_the_computer() {
    let (_data, mut driver, c) = launch("editor", settings("computer"), PHONE).await;

    open_editor(&c).await;
    // Black in hand: a five on row 8 and a white stone beside it.
    for point in ["d8", "e8", "f8", "g8", "h8"] {
        place(&c, point, "black").await;
    }
    click(&c, Locator::Css("#edit-white")).await;
    place(&c, "i8", "white").await;
    click(&c, Locator::Css("#edit-done")).await;
    wait_for(
        &c,
        "the refusal",
        "document.querySelector('#edit-message').textContent.includes('five in a row')",
        Duration::from_secs(5),
    )
    .await;
    let message = js(
        &c,
        "return document.querySelector('#edit-message').textContent;",
        vec![],
    )
    .await;
    assert_eq!(
        message,
        json!("Black already has five in a row (D8–H8): a position to play cannot be won already")
    );
    assert!(shown(&c, "#editor").await, "the editor stays open");
    let marked = js(
        &c,
        "return [...document.querySelectorAll('#board [data-win=\"true\"]')].map((e) => e.dataset.point).sort();",
        vec![],
    )
    .await;
    assert_eq!(marked, json!(["d8", "e8", "f8", "g8", "h8"]));
    let game = invoke(&c, "get_state", json!({})).await["game"].clone();
    assert_eq!(
        (
            game["gameId"].clone(),
            game["moves"].clone(),
            game["setup"].clone()
        ),
        (json!(1), json!([]), Value::Null),
        "the refused position changed nothing"
    );
    screenshot(&c, "editor-390x844.png").await;

    // White at h8 instead, and white to move: black threatens c8, so the computer (white)
    // must answer there.
    place(&c, "h8", "white").await;
    click(&c, Locator::Css("#edit-to-move")).await;
    wait_for(
        &c,
        "white to move",
        "document.querySelector('#edit-to-move').dataset.color === 'white'",
        Duration::from_secs(5),
    )
    .await;
    finish_editing(&c).await;
    screenshot(&c, "editor-choice-390x844.png").await;
    click(&c, Locator::Css("#setup-computer-black")).await;
    wait_for(
        &c,
        "the computer's answer at c8",
        "document.querySelector('#editor').hidden \
         && document.querySelector('#board [data-point=\"c8\"]').getAttribute('data-stone') === 'white'",
        Duration::from_secs(30),
    )
    .await;
    let on_board = stones(&c).await;
    assert_eq!(
        on_board,
        json!({ "d8": "black", "e8": "black", "f8": "black", "g8": "black",
                "h8": "white", "i8": "white", "c8": "white" })
    );
    wait_for(
        &c,
        "the human's turn",
        "document.querySelector('#status').textContent === 'Your move'",
        Duration::from_secs(5),
    )
    .await;
    let sgf = invoke(&c, "export_record", json!({ "format": "sgf" })).await;
    let sgf = sgf.as_str().unwrap_or_default();
    assert!(
        sgf.contains("AB[dh][eh][fh][gh]") && sgf.contains("PL[W]") && sgf.contains(";W[ch]"),
        "{sgf}"
    );
    // The human's move, then a restart finds the set-up game as it was.
    place(&c, "j8", "black").await;
    wait_whites(
        &c,
        "the computer's second answer",
        4,
        Duration::from_secs(30),
    )
    .await;
    let on_board = stones(&c).await;

    let c = restart(&mut driver, c).await;
    wait_stones(&c, "the restored set-up game", 9, Duration::from_secs(10)).await;
    assert_eq!(stones(&c).await, on_board);
    let meta = meta_text(&c).await;
    assert!(
        meta.as_str()
            .unwrap_or_default()
            .contains("set-up position"),
        "{meta}"
    );
    c.close().await.expect("end session");
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_set_up_position_is_analysed_from_its_own_stones() {
    let (_data, _driver, c) = launch("editor-analyse", settings("computer"), PHONE).await;
    open_editor(&c).await;
    for point in ["d8", "e8", "f8", "g8"] {
        place(&c, point, "black").await;
    }
    click(&c, Locator::Css("#edit-white")).await;
    place(&c, "h8", "white").await;
    click(&c, Locator::Css("#edit-to-move")).await;
    finish_editing(&c).await;
    let tapped = Instant::now();
    click(&c, Locator::Css("#setup-analyse")).await;
    // White must block at c8: the best candidate there proves the engine saw the set-up stones.
    wait_for(
        &c,
        "the analysis' best move at c8",
        "document.querySelector('#eval').hasAttribute('data-score') \
         && document.querySelector('.mark.cand[data-rank=\"1\"]')?.dataset.point === 'c8'",
        Duration::from_secs(20),
    )
    .await;
    eprintln!(
        "e2e: Analyse it → first line on screen in {} ms",
        tapped.elapsed().as_millis()
    );
    let status = status_text(&c).await;
    assert_eq!(status, "White to move");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#analysis').getAttribute('aria-pressed');",
            vec![]
        )
        .await,
        json!("true")
    );
    c.close().await.expect("end session");
}

/// Whether the process `pid` catches `signal` (its bit in `SigCgt` of `/proc/<pid>/status`).
#[cfg(target_os = "linux")]
fn catches(pid: u32, signal: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
}

/// SIGTERM (a logout, `kill`) ends the app through its normal exit, the one that writes the
/// queued saves: the process catches the signal, says so in its log and exits with status 0,
/// where left to the signal's default it would die at once (and a save still queued in the
/// window measured above would be lost). The app is started directly, without WebDriver, so
/// the test owns the process and sees how it ended.
#[cfg(target_os = "linux")]
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn sigterm_ends_the_app_through_its_saving_exit() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    const SIGTERM: u32 = 15;
    /// The app, killed if the test fails before it exits.
    struct App(Child);
    impl Drop for App {
        fn drop(&mut self) {
            if let Ok(None) = self.0.try_wait() {
                let _ = self.0.kill();
                let _ = self.0.wait();
            }
        }
    }
    let data = DataDir::new("sigterm");
    let mut guard = App(Command::new(app_binary())
        .env("WUZI_DATA_DIR", &data.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the app"));
    let app = &mut guard.0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !catches(app.id(), SIGTERM) {
        assert!(
            app.try_wait().expect("poll the app").is_none(),
            "the app ended before it caught SIGTERM"
        );
        assert!(Instant::now() < deadline, "the app never caught SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-TERM", &app.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -TERM {}", app.id());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = app.try_wait().expect("poll the app") {
            break status;
        }
        assert!(Instant::now() < deadline, "the app did not exit on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut log = String::new();
    app.stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut log)
        .expect("read the app's log");
    assert_eq!(
        (status.code(), status.signal()),
        (Some(0), None),
        "exit status {status}; log:\n{log}"
    );
    assert!(
        log.contains("SIGTERM: writing the saves and exiting"),
        "log:\n{log}"
    );
}

/// The text of the message inside the settings sheet's record section, or `null` while it is
/// hidden (or outside the open sheet, where the player would not see it).
async fn record_message(c: &Client) -> Value {
    js(
        c,
        "const sheet = document.querySelector('#settings-sheet');
         const box = document.querySelector('#record-message');
         if (!sheet.open || !box || !sheet.contains(box) || box.getClientRects().length === 0) return null;
         const r = box.getBoundingClientRect(), s = sheet.getBoundingClientRect();
         if (r.top < s.top || r.bottom > s.bottom) return 'outside the sheet: ' + box.textContent;
         return box.querySelector('.sheet-message-text').textContent;",
        vec![],
    )
    .await
}

/// Types `text` into the record box of the open settings sheet and presses Load record.
async fn load_record(c: &Client, text: &str) {
    let field = c
        .find(Locator::Css("#record-text"))
        .await
        .expect("record box");
    field.clear().await.expect("clear the record box");
    field.send_keys(text).await.expect("type the record");
    click(c, Locator::Css("#import-record")).await;
}

/// Waits for the game-over sheet a finished record brings, then closes it.
async fn close_game_over(c: &Client) {
    wait_sheet_still(c, "gameover-sheet").await;
    click(c, Locator::Css("#gameover-sheet [data-close]")).await;
    wait_for(
        c,
        "the game-over sheet to close",
        "!document.querySelector('#gameover-sheet').open",
        Duration::from_secs(5),
    )
    .await;
}

/// What a player met with records (issue 26 §1–4), at the default window size against the
/// computer under freestyle: the editor clear of the header; a garbage record's error inside the
/// sheet until dismissed; finished records of another rule kept (SGF, then a move list read
/// under the game's rule); an unfinished loaded game reviewed against the computer.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn loaded_records_are_kept_reviewed_and_their_errors_shown_in_the_sheet() {
    let (_data, _driver, c) = launch("records", settings("computer"), DESKTOP).await;

    // §4: the editor's rows push the board up, never the status bar onto the header.
    open_editor(&c).await;
    let overlap = js(
        &c,
        "const brand = document.querySelector('.brand'), bar = document.querySelector('.statusbar');
         if (brand.getClientRects().length === 0) return 'no header';
         const a = brand.getBoundingClientRect(), b = bar.getBoundingClientRect();
         return [a.top, a.bottom, b.top, b.bottom];",
        vec![],
    )
    .await;
    screenshot(&c, "editor-480x800.png").await;
    if let Some(r) = overlap.as_array() {
        let (brand_bottom, bar_top) = (r[1].as_f64().unwrap(), r[2].as_f64().unwrap());
        assert!(
            brand_bottom <= bar_top + 0.5,
            "header [top, bottom] and status bar [top, bottom]: {overlap}"
        );
    }
    click(&c, Locator::Css("#edit-cancel")).await;
    wait_for(
        &c,
        "the editor to close",
        "document.querySelector('#editor').hidden",
        Duration::from_secs(5),
    )
    .await;

    // §2: a garbage record is refused inside the sheet, and the refusal stays there.
    open_settings(&c).await;
    load_record(&c, "hello world ((").await;
    wait_for(
        &c,
        "the refusal inside the sheet",
        "document.querySelector('#record-message .sheet-message-text')?.textContent",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        record_message(&c).await,
        json!("That record could not be read")
    );
    let since = js(&c, "return performance.now();", vec![]).await;
    // Longer than the status line's notices last (2.6 s).
    wait_for(
        &c,
        "four seconds",
        &format!("performance.now() > {since} + 4000"),
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        record_message(&c).await,
        json!("That record could not be read"),
        "the refusal stays until dismissed"
    );
    screenshot(&c, "record-error-480x800.png").await;
    click(&c, Locator::Css("#record-message .sheet-message-close")).await;
    wait_for(
        &c,
        "the refusal dismissed",
        "document.querySelector('#record-message').hidden",
        Duration::from_secs(5),
    )
    .await;
    // Copying says what happened, in the sheet, whether the clipboard took it or not.
    click(&c, Locator::Css("#copy-moves")).await;
    wait_for(
        &c,
        "the copy's outcome inside the sheet",
        "document.querySelector('#record-message')?.hidden === false",
        Duration::from_secs(5),
    )
    .await;
    let copied = record_message(&c).await;
    assert!(
        copied == json!("Copied")
            || copied
                .as_str()
                .is_some_and(|m| m.starts_with("Could not copy")),
        "{copied}"
    );
    println!("copy moves: {copied}");

    // §1: a finished record of another rule is the game now: it stays, under its own rule.
    load_record(
        &c,
        "(;GM[4]FF[4]SZ[15]RU[standard];B[hh];W[ao];B[ih];W[co];B[jh];W[eo];B[kh];W[go];B[lh])",
    )
    .await;
    close_game_over(&c).await;
    let view = game_view(&c).await;
    assert_eq!(view["rule"], json!("standard"));
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(9));
    assert!(view["result"].is_object(), "{view}");
    assert_eq!(
        count_stones(&c, "black").await + count_stones(&c, "white").await,
        9
    );
    assert!(
        meta_text(&c).await.as_str().unwrap().contains("Standard"),
        "{}",
        meta_text(&c).await
    );
    // A move list is read under the game's rule (standard), not the settings' (freestyle).
    open_settings(&c).await;
    load_record(&c, "h8 a1 i8 a3 j8 a5 k8 a7 l8").await;
    close_game_over(&c).await;
    let view = game_view(&c).await;
    assert_eq!(view["rule"], json!("standard"));
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        count_stones(&c, "black").await + count_stones(&c, "white").await,
        9
    );

    // §3: an unfinished loaded game is reviewed against the computer too.
    open_settings(&c).await;
    load_record(&c, "h8 i9 h9 h10 g8 i8 j7 f9").await;
    wait_for(
        &c,
        "the sheet to close on the loaded game",
        "!document.querySelector('#settings-sheet').open",
        Duration::from_secs(5),
    )
    .await;
    wait_stones(&c, "the record on the board", 8, Duration::from_secs(5)).await;
    open_settings(&c).await;
    let disabled = js(
        &c,
        "return document.querySelector('#review-record').disabled;",
        vec![],
    )
    .await;
    assert_eq!(disabled, json!(false), "Review the game is enabled");
    click(&c, Locator::Css("#review-record")).await;
    review_to_the_end(&c, 8, Duration::from_secs(60)).await;
    let view = game_view(&c).await;
    assert_eq!(view["mode"], json!("computer"));
    assert!(view["result"].is_null(), "{view}");
    assert_eq!(
        view["analysed"],
        json!(true),
        "a game reviewed while it is played against the computer counts as analysed"
    );
    screenshot(&c, "review-loaded-480x800.png").await;
    c.close().await.expect("end session");
}
