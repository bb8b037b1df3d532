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
//! intersection, `[data-win="true"]` on the winning stones, `#status`, `#undo`, and
//! `body[data-busy]` while a move, a computer reply or a hint is in flight (see docs/ui.md).
//!
//! Tests never sleep to synchronise: they wait for a condition on the page ([`support::wait_for`]
//! polls it with a deadline and fails with what it waited for). The few sleeps left let time
//! pass on purpose (a clock running down, a kill at a random moment) and say so.
//!
//! One module a feature; [`support`] holds what they share.

mod analysis;
mod clock;
mod crash;
mod editor;
mod openings;
mod play;
mod records;
mod review;
mod stress;
mod support;
