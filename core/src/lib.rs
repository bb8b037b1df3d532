//! Wuzi's app core, free of any host: the game session with its opening phase, the clock, the
//! computer's and the hint's searches, analysis, game review, persistence, settings and stats,
//! behind the commands of the App IPC contract (docs/architecture.md).
//!
//! [`state::AppCore`] holds the logic over the owned parts in [`parts`]. What only a host can
//! give comes in from outside, so the same core runs in the Tauri app and in the browser:
//! - **storage**: a [`store::Store`] reads the save documents and writes them atomically
//!   (the Tauri host: files in the app's data folder, written by a save thread);
//! - **time**: the clock reads a [`parts::clock::TimeSource`] (tests move a fake one);
//! - **threads**: the core never starts one. A search, an analysis or a review is a job the
//!   core hands out ([`parts::search::SearchJob`], [`parts::analysis::AnalysisJob`],
//!   [`parts::review::ReviewJob`]); the host runs it where it likes, with an engine from an
//!   [`parts::engine::EngineSlot`], and hands the result back to the core.

pub mod error;
pub mod parts;
pub mod random;
pub mod settings;
pub mod state;
pub mod store;
pub mod view;

#[cfg(test)]
pub(crate) mod import_graph;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The core's modules import each other without circles (`import_graph.rs`).
    #[test]
    fn the_cores_modules_import_each_other_without_circles() {
        crate::import_graph::check(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &[
                ("state", "parts::clock"),
                ("parts::swap", "parts::opening"),
                ("state::persist", "store"),
            ],
        );
    }
}
