//! Wuzi's engine tools, kept out of the product: nothing that ships (the app in `src-tauri/`,
//! the `pbrain-wuzi` Gomocup brain, the `wuzi` command line) links this crate.
//!
//! - [`tune`]: self-play data and the logistic fit of the evaluation tables (`wuzi-tools
//!   datagen`, `wuzi-tools tune`);
//! - [`matches`](mod@matches): level-against-level self-play in one process ([`play_match`], the
//!   `ladder` example);
//! - [`net`](mod@net): training the learned evaluation (`wuzi-tools train-net`);
//! - [`bench`](mod@bench): the deterministic search bench (`wuzi-tools bench`), whose node counts
//!   `docs/bench-nodes.txt` records;
//! - [`reach`](mod@reach): how soon the search proves the wins of a positions file (`wuzi-tools
//!   reach`).
//!
//! The binaries: `wuzi-tools` (`bench`, `reach`, `match`, `datagen`, `tune`, `train-net`) and `wuzi-arena` (a
//! Gomocup match manager for SPRT and gauntlets). The engine's internals they need come from
//! the public layer modules of [`wuzi::ai`]; nothing of the engine is copied here.

#![deny(missing_docs)]

pub mod bench;
pub mod matches;
pub mod net;
pub mod reach;
pub mod tune;

pub use matches::{play_match, GameRecord, MatchConfig, MatchReport, ResultForA};
