//! What every end-to-end test shares: the driver and its sessions, waiting on the page, taps
//! and clicks, the app's settings and launches.

use std::net::{TcpListener, TcpStream};
pub(crate) use std::path::{Path, PathBuf};
pub(crate) use std::process::{Child, Command, Stdio};
pub(crate) use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::ClientBuilder;
pub(crate) use fantoccini::{Client, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
pub(crate) use serde_json::{json, Value};

/// The app under test: the debug build cargo made for this test, or `$WUZI_E2E_APP` (the
/// release binary, for the cold-start measurement).
pub(crate) fn app_binary() -> String {
    std::env::var("WUZI_E2E_APP").unwrap_or_else(|_| env!("CARGO_BIN_EXE_wuzi-app").to_string())
}

/// Where screenshots and measurements go (gitignored).
pub(crate) fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../artifacts");
    std::fs::create_dir_all(&dir).expect("create artifacts/");
    dir
}

/// A fresh folder for the app's save files, removed afterwards.
pub(crate) struct DataDir(pub(crate) PathBuf);

impl DataDir {
    pub(crate) fn new(tag: &str) -> DataDir {
        let dir = std::env::temp_dir().join(format!("wuzi-e2e-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create data dir");
        DataDir(dir)
    }

    /// Starts the app with these settings: the first game follows them.
    pub(crate) fn with_settings(tag: &str, settings: Value) -> DataDir {
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

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

pub(crate) fn find_tauri_driver() -> PathBuf {
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
pub(crate) struct Driver {
    child: Child,
    port: u16,
    data_dir: PathBuf,
}

impl Driver {
    pub(crate) fn start(data_dir: &Path) -> Driver {
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
    pub(crate) async fn session(&mut self) -> Client {
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

pub(crate) async fn js(c: &Client, script: &str, args: Vec<Value>) -> Value {
    c.execute(script, args).await.expect("execute script")
}

/// Polls `condition` (a JS expression) until it is true.
pub(crate) async fn wait_for(c: &Client, what: &str, condition: &str, timeout: Duration) {
    let script = format!("return !!({condition});");
    let deadline = Instant::now() + timeout;
    loop {
        if js(c, &script, vec![]).await == json!(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = js(
                c,
                "const s = document.querySelector('#status');
                 return { status: s && s.textContent, busy: document.body.hasAttribute('data-busy') };",
                vec![],
            )
            .await;
            panic!(
                "timed out after {} ms waiting for {what} ({condition}); page: {status}",
                timeout.as_millis()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The UI has nothing in flight: no move, computer reply or hint waiting for the shell, and
/// the computer not due to move (`body[data-busy]`, kept by `render()` in ui/main.js).
pub(crate) const IDLE: &str = "!document.body.hasAttribute('data-busy')";

pub(crate) const BOARD_READY: &str =
    "document.querySelectorAll('#board [role=gridcell]').length > 0";

pub(crate) async fn wait_board(c: &Client) {
    wait_for(c, "the board", BOARD_READY, Duration::from_secs(20)).await;
}

/// `{ point: stone }` for every stone on the board.
pub(crate) async fn stones(c: &Client) -> Value {
    js(
        c,
        "const o = {}; for (const e of document.querySelectorAll('#board [data-point]')) \
         { const s = e.getAttribute('data-stone'); if (s) o[e.getAttribute('data-point')] = s; } return o;",
        vec![],
    )
    .await
}

pub(crate) async fn count_stones(c: &Client, color: &str) -> usize {
    let all = stones(c).await;
    all.as_object()
        .map_or(0, |m| m.values().filter(|v| *v == color).count())
}

/// Waits until the board shows `n` white stones.
pub(crate) async fn wait_whites(c: &Client, what: &str, n: usize, timeout: Duration) {
    let condition =
        format!("document.querySelectorAll('#board [data-stone=\"white\"]').length === {n}");
    wait_for(c, what, &condition, timeout).await;
}

/// Waits until the board shows `n` stones of either colour.
pub(crate) async fn wait_stones(c: &Client, what: &str, n: usize, timeout: Duration) {
    let condition = format!(
        "document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === {n}"
    );
    wait_for(c, what, &condition, timeout).await;
}

/// The text of `#meta` (the game's mode, rule and opening).
pub(crate) async fn meta_text(c: &Client) -> Value {
    js(
        c,
        "return document.querySelector('#meta').textContent;",
        vec![],
    )
    .await
}

/// The viewport position of intersection `point`: the centre of its gridcell when the cells
/// are laid over the intersections, otherwise computed from the board's rectangle and size.
pub(crate) async fn point_xy(c: &Client, point: &str) -> (i64, i64) {
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
pub(crate) async fn click_point(c: &Client, point: &str) {
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

/// A tap at `point` that must change nothing (the game is over, a choice is due): taps, then
/// waits until the page has handled it — a listener on `window`, which the `pointerup` reaches
/// after the board's own handler, saw it — and the UI is idle, so anything the tap started
/// would show by now.
pub(crate) async fn tap_handled(c: &Client, point: &str) {
    js(
        c,
        "window.__tapHandled = false;
         window.addEventListener('pointerup', () => { window.__tapHandled = true; }, { once: true });",
        vec![],
    )
    .await;
    click_point(c, point).await;
    wait_for(
        c,
        &format!("the tap at {point} handled"),
        &format!("window.__tapHandled && {IDLE}"),
        Duration::from_secs(5),
    )
    .await;
}

/// Resizes the window and waits until the page has its new width and stands still.
pub(crate) async fn resize(c: &Client, width: u32, height: u32) {
    let before = js(c, "return window.innerWidth;", vec![]).await;
    c.set_window_size(width, height).await.expect("window size");
    wait_for(
        c,
        &format!("the page at the new size {width}x{height}"),
        &format!("window.innerWidth !== {before}"),
        Duration::from_secs(5),
    )
    .await;
    wait_painted(c).await;
}

/// Clicks an element (a button, a label) as a user would.
pub(crate) async fn click(c: &Client, what: Locator<'_>) {
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
pub(crate) async fn place(c: &Client, point: &str, color: &str) {
    click_point(c, point).await;
    wait_for(
        c,
        &format!("{color} at {point}"),
        &format!("document.querySelector('#board [data-point=\"{point}\"]').getAttribute('data-stone') === '{color}'"),
        Duration::from_secs(5),
    )
    .await;
}

pub(crate) async fn status_text(c: &Client) -> String {
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

/// Every finite animation or transition on the page (a sheet's rise, a stone's fade-in) has
/// ended; endless ones (the thinking dot's pulse) do not count.
const ANIMATIONS_ENDED: &str = "document.getAnimations().every((a) => a.playState !== 'running' \
     || a.effect?.getComputedTiming().endTime === Infinity)";

/// Waits until the page stands still and the webview has painted what the DOM says: no finite
/// animation running, then two animation frames (the DOM can be ahead of the painted frame).
pub(crate) async fn wait_painted(c: &Client) {
    wait_for(
        c,
        "animations to end",
        ANIMATIONS_ENDED,
        Duration::from_secs(10),
    )
    .await;
    c.execute_async(
        "const done = arguments[arguments.length - 1];
         requestAnimationFrame(() => requestAnimationFrame(() => done(null)));",
        vec![],
    )
    .await
    .expect("wait for two animation frames");
}

pub(crate) async fn screenshot(c: &Client, name: &str) {
    wait_painted(c).await;
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join(name), png).expect("write screenshot");
}

pub(crate) fn settings(mode: &str) -> Value {
    json!({ "mode": mode, "humanColor": "black", "level": 2, "rule": "freestyle", "size": 15,
            "confirmMove": "off", "language": "en" })
}

/// Window sizes (width, height): a small desktop window and a phone.
pub(crate) const DESKTOP: (u32, u32) = (480, 800);

pub(crate) const PHONE: (u32, u32) = (390, 844);

/// Starts a driver on `data` and a session whose window is `size`, and waits for the board.
/// The folder comes first so that, bound as `let (data, driver, c)`, it is dropped last: after
/// the session and the driver (and the app they end).
pub(crate) async fn launch_in(data: DataDir, size: (u32, u32)) -> (DataDir, Driver, Client) {
    let mut driver = Driver::start(&data.0);
    let c = driver.session().await;
    c.set_window_size(size.0, size.1)
        .await
        .expect("window size");
    wait_board(&c).await;
    (data, driver, c)
}

/// [`launch_in`] a fresh data folder seeded with `settings`.
pub(crate) async fn launch(
    tag: &str,
    settings: Value,
    size: (u32, u32),
) -> (DataDir, Driver, Client) {
    launch_in(DataDir::with_settings(tag, settings), size).await
}

/// Ends the session (and with it the app), then launches the app again on the same data and
/// waits for its board.
pub(crate) async fn restart(driver: &mut Driver, c: Client) -> Client {
    c.close().await.expect("end session");
    let c = driver.session().await;
    wait_board(&c).await;
    c
}

/// Calls an app command from the page, as `ui/api.js` does.
pub(crate) async fn invoke(c: &Client, cmd: &str, args: Value) -> Value {
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

/// Waits until the board shows `color` at `point` (the click was already made).
pub(crate) async fn place_seen(c: &Client, point: &str, color: &str) {
    wait_for(
        c,
        &format!("{color} at {point}"),
        &format!("document.querySelector('#board [data-point=\"{point}\"]').getAttribute('data-stone') === '{color}'"),
        Duration::from_secs(5),
    )
    .await;
}

/// Waits until sheet `id` is open and stands still (its rise and its backdrop's fade have
/// ended): WebDriver clicks the point where an element was, and during the rise that point may
/// be another button.
pub(crate) async fn wait_sheet_still(c: &Client, id: &str) {
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
pub(crate) async fn open_settings(c: &Client) {
    click(c, Locator::Css("#settings")).await;
    wait_sheet_still(c, "settings-sheet").await;
}

/// Waits until `#review-progress` says `moves / moves` for a finished review; returns how long
/// that took.
pub(crate) async fn review_to_the_end(c: &Client, moves: usize, timeout: Duration) -> Duration {
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

/// The view of the game on screen, from the shell.
pub(crate) async fn game_view(c: &Client) -> Value {
    invoke(c, "get_state", json!({})).await["game"].clone()
}

/// Whether the element matching `css` is displayed (not `hidden`, not inside a hidden parent).
pub(crate) async fn shown(c: &Client, css: &str) -> bool {
    js(
        c,
        "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;",
        vec![json!(css)],
    )
    .await
        == json!(true)
}

/// Opens the position editor from the settings sheet and waits until it shows, the sheet gone.
pub(crate) async fn open_editor(c: &Client) {
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
pub(crate) async fn finish_editing(c: &Client) {
    click(c, Locator::Css("#edit-done")).await;
    wait_sheet_still(c, "setup-sheet").await;
}
