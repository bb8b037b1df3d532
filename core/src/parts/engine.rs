//! The engine as the app core holds it: a slot that builds it on first use and drops it after a
//! panic. The host decides on which thread it runs (Tauri: the blocking pool).

use wuzi::Engine;

/// The engine, created by the first search: its tables (tens of MiB, filled on creation) then
/// cost nothing at start-up and are built on the blocking pool, not on the main thread.
#[derive(Debug)]
pub struct EngineSlot {
    tt_mib: usize,
    /// Master's search threads, 0 = automatic ([`Engine::set_threads`]).
    threads: usize,
    engine: Option<Engine>,
}

impl EngineSlot {
    /// An empty slot for an engine with a `tt_mib` MiB transposition table.
    #[must_use]
    pub fn new(tt_mib: usize) -> EngineSlot {
        EngineSlot::with_threads(tt_mib, 0)
    }

    /// An empty slot for an engine searching with `threads` threads (0 = automatic).
    #[must_use]
    pub fn with_threads(tt_mib: usize, threads: usize) -> EngineSlot {
        EngineSlot {
            tt_mib,
            threads,
            engine: None,
        }
    }

    /// The engine, created on first use.
    pub fn get(&mut self) -> &mut Engine {
        let threads = self.threads;
        self.engine.get_or_insert_with(|| {
            let mut engine = Engine::new(self.tt_mib);
            engine.set_threads(threads);
            engine
        })
    }

    /// Drops the engine, so that the next search builds a fresh one: after a panic its
    /// tables may be half-written (`pbrain-wuzi` does the same).
    pub fn reset(&mut self) {
        self.engine = None;
    }

    /// Runs `f` on the engine, built on first use. If the engine panics, it is dropped (as
    /// [`EngineSlot::reset`]) and the answer is `None`: every search, analysis round and
    /// review runs through here, so a panic is handled in this one place.
    pub fn run<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> Option<T> {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self.get())));
        if ran.is_err() {
            log::error!("the engine panicked; starting a fresh one");
            self.reset();
        }
        ran.ok()
    }

    /// Whether an engine has been built since the slot was made or reset.
    #[must_use]
    pub const fn is_built(&self) -> bool {
        self.engine.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_engine_gives_none_and_a_fresh_engine() {
        let mut slot = EngineSlot::new(1);
        assert!(!slot.is_built());
        assert_eq!(slot.run(|_| 7), Some(7));
        assert!(slot.is_built());
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let ran: Option<()> = slot.run(|_| panic!("a test panic"));
        std::panic::set_hook(hook);
        assert_eq!(ran, None);
        assert!(!slot.is_built(), "the engine is dropped");
        assert_eq!(slot.run(|_| 8), Some(8));
    }
}
