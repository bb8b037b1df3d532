//! Turning the manager's clock (`timeout_turn`, `timeout_match`, `time_left`) and memory
//! limit (`max_memory`) into a per-move [`Budget`] and a transposition-table size.
//!
//! The manager measures a turn from sending the command to reading the answer, including
//! pipe latency and our own command handling, and forfeits a brain that is late, so every
//! figure here keeps a margin below the hard limit. A budget has three steps: the search's own
//! time limit, a later point where the driver raises the cancel flag in case the search
//! overran it, and a last point where the driver answers with its quick fallback move even if
//! the search never returned. The last point always lies below `timeout_turn`.

use std::time::Duration;

/// `time_left` value the manager sends when the match time is unlimited.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Per-move search time when the manager sent no time limits at all (a human playing through
/// a GUI): Master's default budget.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Search time for `timeout_turn 0` ("play as fast as possible").
pub const FASTEST_MOVE_TIME: Duration = Duration::from_millis(10);

/// Latest answer for `timeout_turn 0`: the search may overrun a 10 ms limit by far (a root
/// threat search checks the clock rarely), and "as fast as possible" should not mean half a
/// second, so the fallback move goes out by then.
pub const FASTEST_ANSWER: Duration = Duration::from_millis(50);

/// Transposition-table size when `max_memory` is 0 (no limit) or not sent.
pub const DEFAULT_TT_MIB: usize = 64;

/// Largest transposition table the brain asks for, whatever the memory limit.
pub const MAX_TT_MIB: usize = 1024;

/// Memory kept outside the transposition table: code, stacks, threat tables, the board.
pub const MEMORY_RESERVE: u64 = 16 << 20;

/// The manager's clock as far as it has told us.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// `timeout_turn` in ms (`Some(0)` = as fast as possible); `None` until sent.
    pub turn_ms: Option<u64>,
    /// `timeout_match` in ms (`Some(0)` = no limit); `None` until sent.
    pub match_ms: Option<u64>,
    /// The last `time_left` in ms, if any; [`UNLIMITED_TIME_LEFT`] means no limit.
    pub time_left_ms: Option<i64>,
    /// Time added to the clock after each of our moves, in ms (the app's clocks; the Gomocup
    /// protocol has none, so its manager's clock leaves this 0).
    pub increment_ms: u64,
}

/// How long one move may take, measured from when the command arrived.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The search's own time limit: it never searches longer.
    pub search: Duration,
    /// The time the search aims to use ([`crate::Limits::target`]): it stops past this once
    /// its best move is settled and goes on towards `search` while it is not.
    pub target: Duration,
    /// When the driver raises the cancel flag if the search is still running.
    pub cancel_after: Duration,
    /// When the driver answers with the fallback move if the search still has not returned;
    /// below `timeout_turn` whenever one is set.
    pub give_up_after: Duration,
}

/// The share of the search limit a move aims to use under a match clock, when the turn limit
/// is the smaller of the two: a settled search stops before the limit and leaves the rest on
/// the clock for later moves, an unsettled one runs on to it.
const TARGET_SHARE: u32 = 80;

impl Budget {
    fn from_search(search: Duration, target: Duration, hard: Option<Duration>) -> Budget {
        let search = search.max(Duration::from_millis(1));
        match hard {
            // Cancel halfway between the soft limit and the hard one; answer by the hard one.
            Some(hard) => {
                let search = search.min(hard);
                Budget {
                    search,
                    target: target.min(search),
                    cancel_after: search + (hard - search) / 2,
                    give_up_after: hard,
                }
            }
            None => Budget {
                search,
                target: target.min(search),
                cancel_after: search + Duration::from_millis(100),
                give_up_after: search + Duration::from_millis(500),
            },
        }
    }
}

/// The margin kept below `timeout_turn` for pipe latency and process scheduling: a twentieth
/// of the limit, at least 15 ms and at most 250 ms. The search limit keeps another 8% below
/// that (see [`TimeControl::budget`]), so at a 1 s turn the search stops by 874 ms and the
/// answer is due by 950 ms; the slowest answers measured by `wuzi-arena` came 30-45 ms after
/// the search limit on a loaded 2-core machine (docs/ai.md, *Time*).
#[must_use]
pub fn turn_margin(turn_ms: u64) -> u64 {
    (turn_ms / 20).clamp(15, 250)
}

impl TimeControl {
    /// The match time still available, in ms: `time_left` when the manager sent one (as the
    /// protocol requires for limited matches), otherwise `timeout_match` minus `used`. `None`
    /// when the match is not limited.
    #[must_use]
    pub fn match_left_ms(&self, used: Duration) -> Option<i64> {
        match self.time_left_ms {
            Some(UNLIMITED_TIME_LEFT) => None,
            Some(left) => Some(left),
            None => match self.match_ms {
                None | Some(0) => None,
                Some(m) => Some(
                    i64::try_from(m)
                        .unwrap_or(i64::MAX)
                        .saturating_sub(i64::try_from(used.as_millis()).unwrap_or(i64::MAX)),
                ),
            },
        }
    }

    /// The budget for the next move, with `stones` stones on the board and `used` of match
    /// time spent so far by this brain (only consulted when the manager sends no `time_left`).
    #[must_use]
    pub fn budget(&self, stones: usize, used: Duration) -> Budget {
        // The latest we may answer, from each limit that applies.
        let turn_hard = match self.turn_ms {
            Some(0) | None => None,
            Some(t) => Some(t.saturating_sub(turn_margin(t)).max(1)),
        };
        let left = self.match_left_ms(used);
        let (match_hard, match_share) = match left {
            None => (None, None),
            Some(left) if left <= 0 => (Some(1), Some(1)),
            Some(left) => {
                let left = u64::try_from(left).unwrap_or(0);
                // Keep a twentieth of the clock (at most a second) for the rest of the game,
                // and never spend more than a third of what is left on one move. Each move
                // earns its increment back, so the aim spends most of it on top of the share.
                let usable = left - (left / 20).min(1000);
                let moves_to_go = 30u64.saturating_sub(stones as u64 / 4).max(10);
                let share = usable / moves_to_go + self.increment_ms / 10 * 9;
                (Some((usable / 3).max(1)), Some(share.max(1)))
            }
        };
        let hard = match (turn_hard, match_hard) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
        .map(Duration::from_millis);
        if self.turn_ms == Some(0) {
            let hard = hard.map_or(FASTEST_ANSWER, |h| h.min(FASTEST_ANSWER));
            return Budget::from_search(FASTEST_MOVE_TIME, FASTEST_MOVE_TIME, Some(hard));
        }
        // The search may run to 92% of the hard limit: it looks at the clock every
        // millisecond or so, and the answer still has to be written.
        let search = hard.map_or(DEFAULT_MOVE_TIME, |h| h * 92 / 100);
        // With only a turn limit, time a move leaves unused is lost: the target is the whole
        // limit, so the search stops early only on a proven win (a forced answer searches
        // on, filling the table for the next move). A match clock
        // is shared over the moves to come instead.
        let target = match match_share {
            Some(share) => (search * TARGET_SHARE / 100).min(Duration::from_millis(share)),
            None => search,
        };
        Budget::from_search(search, target, hard)
    }
}

/// The transposition-table size in MiB for a `max_memory` limit in bytes (0 = no limit):
/// three quarters of what is left after [`MEMORY_RESERVE`], rounded down to a power of two
/// (tables index by a bit mask), between 1 and [`MAX_TT_MIB`].
#[must_use]
pub fn tt_mib_for(max_memory: u64) -> usize {
    if max_memory == 0 {
        return DEFAULT_TT_MIB;
    }
    let mib = (max_memory.saturating_sub(MEMORY_RESERVE) / 4 * 3) >> 20;
    let mib = usize::try_from(mib)
        .unwrap_or(MAX_TT_MIB)
        .clamp(1, MAX_TT_MIB);
    1 << mib.ilog2()
}

/// Whether `max_memory` (bytes, 0 = no limit) is too small for the brain to stay inside it
/// even with a minimal table.
#[must_use]
pub fn memory_too_small(max_memory: u64) -> bool {
    max_memory != 0 && max_memory < MEMORY_RESERVE + (1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(turn: Option<u64>, matc: Option<u64>, left: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            match_ms: matc,
            time_left_ms: left,
            increment_ms: 0,
        }
    }

    fn check_order(b: Budget) {
        assert!(b.search >= ms(1), "{b:?}");
        assert!(b.target <= b.search, "{b:?}");
        assert!(b.search <= b.cancel_after, "{b:?}");
        assert!(b.cancel_after <= b.give_up_after, "{b:?}");
    }

    #[test]
    fn nothing_known_uses_the_default() {
        let b = TimeControl::default().budget(0, Duration::ZERO);
        assert_eq!(b.search, DEFAULT_MOVE_TIME);
        check_order(b);
    }

    #[test]
    fn turn_limit_is_never_exceeded() {
        for t in [1u64, 5, 16, 30, 100, 250, 1000, 5000, 30_000, u64::MAX / 2] {
            for stones in [0usize, 50, 399] {
                let b = tc(Some(t), None, None).budget(stones, Duration::ZERO);
                check_order(b);
                assert!(b.give_up_after < ms(t) || t <= 1, "turn {t}: {b:?}");
                if t >= 100 {
                    assert!(b.search >= ms(t) * 3 / 4, "turn {t} wastes time: {b:?}");
                    assert!(b.target >= ms(t) / 2, "turn {t} aims too low: {b:?}");
                }
            }
        }
        let b = tc(Some(1000), None, None).budget(0, Duration::ZERO);
        assert_eq!(b.give_up_after, ms(950));
        assert_eq!(b.search, ms(874));
        // No match clock: nothing to save for later moves, the whole limit is the aim.
        assert_eq!(b.target, b.search);
    }

    #[test]
    fn zero_turn_means_fastest() {
        let b = tc(Some(0), None, None).budget(10, Duration::ZERO);
        assert_eq!(b.search, FASTEST_MOVE_TIME);
        assert_eq!(b.give_up_after, FASTEST_ANSWER);
        check_order(b);
        // A nearly spent match clock still wins.
        let b = tc(Some(0), Some(60_000), Some(30)).budget(10, Duration::ZERO);
        assert!(b.give_up_after < ms(30), "{b:?}");
        check_order(b);
    }

    #[test]
    fn match_clock_is_shared_over_the_remaining_moves() {
        let b = tc(Some(5000), Some(180_000), Some(180_000)).budget(0, Duration::ZERO);
        // 171 s usable over 30 moves = 5.7 s, capped by the turn limit.
        assert_eq!(b.give_up_after, ms(4750));
        assert!(b.search <= ms(4750) * 92 / 100);
        // 171 s over 30 moves: aim at 5.7 s, capped by the turn.
        assert_eq!(b.target, b.search * 80 / 100);
        let late = tc(Some(5000), Some(180_000), Some(20_000)).budget(60, Duration::ZERO);
        // 19 s usable over 15 moves is the aim; at most a third of it, within the turn.
        assert_eq!(late.target, ms(19_000 / 15));
        assert_eq!(late.search, ms(4370));
        check_order(late);
        let broke = tc(Some(5000), Some(180_000), Some(-30)).budget(60, Duration::ZERO);
        assert!(broke.give_up_after <= ms(1), "{broke:?}");
        check_order(broke);
    }

    #[test]
    fn an_increment_is_mostly_spent_on_top_of_the_share() {
        // 5 min + 5 s a move, no turn limit (the app's Master): 299 s usable over 30 moves
        // plus nine tenths of the increment.
        let mut t = tc(None, Some(300_000), Some(300_000));
        let plain = t.budget(0, Duration::ZERO);
        t.increment_ms = 5000;
        let b = t.budget(0, Duration::ZERO);
        assert_eq!(plain.target, ms(299_000 / 30));
        assert_eq!(b.target, ms(299_000 / 30 + 4500));
        assert_eq!(
            (b.search, b.give_up_after),
            (plain.search, plain.give_up_after)
        );
        check_order(b);
        // Short of time, a third of what is left still caps the move, increment or not.
        t.time_left_ms = Some(6000);
        let b = t.budget(200, Duration::ZERO);
        assert_eq!(b.give_up_after, ms((6000 - 300) / 3));
        assert_eq!(b.target, b.search * TARGET_SHARE / 100);
        check_order(b);
    }

    #[test]
    fn unlimited_time_left_is_ignored() {
        let b = tc(Some(2000), Some(0), Some(UNLIMITED_TIME_LEFT)).budget(0, Duration::ZERO);
        assert_eq!(b.give_up_after, ms(1900));
        assert_eq!(b.target, b.search);
        assert_eq!(
            tc(None, None, Some(UNLIMITED_TIME_LEFT)).match_left_ms(Duration::ZERO),
            None
        );
    }

    #[test]
    fn match_time_without_time_left_counts_our_own_use() {
        let t = tc(None, Some(10_000), None);
        assert_eq!(t.match_left_ms(ms(4000)), Some(6000));
        let b = t.budget(0, ms(4000));
        // 6000 - 300 reserve = 5700: at most 1900 per move, 190 as the share.
        assert_eq!(b.give_up_after, ms(1900));
        assert_eq!(b.search, ms(1748));
        assert_eq!(b.target, ms(190));
    }

    #[test]
    fn tt_size_follows_max_memory() {
        assert_eq!(tt_mib_for(0), DEFAULT_TT_MIB);
        assert_eq!(tt_mib_for(83_886_080), 32); // 80 MiB: (80-16)*3/4 = 48 → 32
        assert_eq!(tt_mib_for(350 << 20), 128);
        assert_eq!(tt_mib_for(1 << 20), 1);
        assert_eq!(tt_mib_for(u64::MAX), MAX_TT_MIB);
        assert!(memory_too_small(10 << 20));
        assert!(!memory_too_small(0));
        assert!(!memory_too_small(64 << 20));
    }
}
