//! A measurement, not a check: the round trip of the `play` command while the app saves after
//! every move (issue 11 §2), driven through Tauri's IPC layer (mock runtime) exactly as the
//! webview calls it, with the save files on a real disk (cargo's target folder).
//!
//! ```sh
//! cargo test -p wuzi-app --test play_latency -- --ignored --nocapture
//! WUZI_BENCH_PLAYS=4000 cargo test -p wuzi-app --test play_latency -- --ignored --nocapture
//! ```
//!
//! The moves come back to back, the worst case for a writer that is still busy with the last
//! save; a person plays at most a few moves a second.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::WebviewWindow;
use wuzi_app_lib::saver::Saver;
use wuzi_app_lib::storage::Storage;
use wuzi_core::state::AppCore;

fn invoke(webview: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Value {
    get_ipc_response(
        webview,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<Value>().unwrap())
    .unwrap_or_else(|e| panic!("{cmd}: {e:?}"))
}

/// Points three apart in both directions: no line of five can form, so a game never ends.
fn spread_points() -> Vec<String> {
    let mut v = Vec::new();
    for y in (1..=15).step_by(3) {
        for x in (0..15u8).step_by(3) {
            v.push(format!("{}{y}", char::from(b'a' + x)));
        }
    }
    v
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[test]
#[ignore = "a measurement; run it by name with --ignored --nocapture"]
fn play_round_trip_while_saving() {
    let plays: usize = std::env::var("WUZI_BENCH_PLAYS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("play-latency-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let core = AppCore::load(Saver::new(Storage::open(&dir).unwrap()));
    let app = wuzi_app_lib::run_app(mock_builder().manage(Mutex::new(core)))
        .build(tauri::generate_context!())
        .unwrap();
    let w = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();

    let points = spread_points();
    let mut times = Vec::with_capacity(plays);
    let mut view = Value::Null;
    while times.len() < plays {
        if view.is_null() || view["moveNumber"].as_u64().unwrap() as usize == points.len() {
            view = invoke(
                &w,
                "new_game",
                json!({ "options": { "mode": "local", "rule": "freestyle", "size": 15 } }),
            );
        }
        let n = view["moveNumber"].as_u64().unwrap() as usize;
        let args = json!({ "point": points[n], "gameId": view["gameId"], "moveNumber": n });
        let start = Instant::now();
        view = invoke(&w, "play", args);
        times.push(start.elapsed());
    }
    invoke(&w, "save_now", json!({}));
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);

    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "play round trip while saving: N={plays} median={:.3} ms p90={:.3} ms p99={:.3} ms max={:.3} ms",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.9)),
        ms(percentile(&times, 0.99)),
        ms(*times.last().unwrap()),
    );
}
