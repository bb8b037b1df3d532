//! Wuzi in the browser: the app core (`wuzi-core`) and the engine, built to
//! `wasm32-unknown-unknown` and run in a Web Worker behind the same `ui/api.js` as the Tauri
//! app (`scripts/web.sh` builds the site). [`host::WebHost`] answers the commands, and
//! [`store::WebStore`] keeps the documents in the page's storage; the JavaScript side is
//! `web/worker.js` and `web/web-host.js`.

#[macro_use]
#[path = "../../src-tauri/src/command_list.rs"]
mod command_list;
pub mod host;
pub mod store;
#[cfg(target_arch = "wasm32")]
mod wasm;

#[cfg(test)]
mod tests;
