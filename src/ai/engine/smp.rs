//! Lazy SMP: the main search thread and its helpers deepen one root over the shared
//! transposition table (see [`Engine`]).

use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use super::Engine;
use crate::ai::position::Position;
use crate::ai::search::{Config, Heuristics, Prepared, Searcher, ThreadResult};
use crate::ai::threat::ThreatSearch;
use crate::ai::tt::Table;

/// A Lazy SMP helper thread's own tables. Helpers never run the root threat searches, and
/// Master probes no VCF at the leaves, so their threat solver only needs a small cache.
#[derive(Debug)]
pub(super) struct Helper {
    threats: ThreatSearch,
    heur: Heuristics,
}

impl Helper {
    /// Forgets what earlier searches taught this helper.
    pub(super) fn clear(&mut self) {
        self.threats.clear();
        self.heur.clear();
    }
}

/// Stack of a helper thread: helpers run only the alpha-beta search (at most
/// [`crate::ai::search::MAX_PLY`] plies), not the root threat searches; 8 MiB is reserved, not
/// committed, so it costs little.
const HELPER_STACK: usize = 8 << 20;

/// Raises the group's `done` flag when dropped, so helpers stop even if the main thread's
/// search unwinds.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Engine {
    /// Lazy SMP: the main thread settles the root once (forced moves, root VCF/VCT, root
    /// moves), then it and `threads - 1` helpers deepen the same root over the shared table
    /// until the main thread finishes (by its own time rule or depth), a helper completes the
    /// last depth or proves a result, the time runs out or `cancel` is raised.
    ///
    /// The answer is that of the thread with the deepest completed iteration, the main thread
    /// on a tie: each thread's answer is a full iteration's result (or a later partial one
    /// that beat it), so a deeper completed iteration is the better informed, and a helper
    /// that started one ply ahead often completes the ply the main thread had no time for.
    /// Nodes are summed over all threads.
    pub(super) fn smp_search(
        &mut self,
        pos: &mut Position,
        cfg: Config,
        threads: usize,
        cancel: &AtomicBool,
    ) -> ThreadResult {
        let done = AtomicBool::new(false);
        let Engine {
            tt,
            threats,
            heur,
            helpers,
            ..
        } = self;
        let tt: &Table = tt;
        let mut main = Searcher::new(cfg.clone(), tt, threats, heur, cancel).join_group(
            &done,
            0,
            Instant::now(),
        );
        let root = match main.prepare(pos) {
            Prepared::Decided(out) => return out,
            // A single root move needs no helpers: the main thread answers it after one
            // iteration or, with the whole turn to spend, searches on to fill the table.
            Prepared::Search(root) if root.len() == 1 => return main.deepen(pos, root),
            Prepared::Search(root) => root,
        };
        let group_start = main.started();
        while helpers.len() < threads - 1 {
            helpers.push(Helper {
                threats: ThreatSearch::new(1 << 12),
                heur: Heuristics::default(),
            });
        }
        std::thread::scope(|s| {
            let raise = RaiseOnDrop(&done);
            let mut handles = Vec::with_capacity(threads - 1);
            for (k, h) in helpers.iter_mut().take(threads - 1).enumerate() {
                let (cfg, root, mut hpos, done) = (cfg.clone(), root.clone(), pos.clone(), &done);
                let spawned = std::thread::Builder::new()
                    .name(format!("wuzi-helper-{}", k + 1))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(s, move || {
                        Searcher::new(cfg, tt, &mut h.threats, &mut h.heur, cancel)
                            .join_group(done, k as u32 + 1, group_start)
                            .deepen(&mut hpos, root)
                    });
                // A thread the system refuses only means fewer helpers.
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            let mut best = main.deepen(pos, root);
            drop(raise);
            let mut nodes = best.nodes;
            for handle in handles {
                // A panicked helper contributes nothing; the main thread's answer stands.
                let Ok(out) = handle.join() else { continue };
                nodes += out.nodes;
                if out.depth > best.depth && out.best.is_some() {
                    best = out;
                }
            }
            best.nodes = nodes;
            best
        })
    }
}
