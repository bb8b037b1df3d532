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
//!
//! One module a feature; [`support`] holds what they share.

mod support;
mod play;
mod crash;
mod analysis;
mod review;
mod openings;
mod clock;
mod editor;
mod records;
