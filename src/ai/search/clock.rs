//! Master's time management between iterations.

use std::time::Duration;

/// Master's time management between iterations: aim at the target, spend more while the
/// best move changes or the score drops, never pass the limit.
#[derive(Debug)]
pub(super) struct Clock {
    limit: Duration,
    target: Duration,
    /// The target is the whole limit (a per-move clock with nothing to save for later
    /// moves): only a proven win ends the search before the limit; a forced answer or a
    /// proven loss searches on (see [`Searcher::deepen`]).
    pub(super) whole: bool,
    /// Share of the target after which a settled search stops.
    settle: f64,
    /// Recent best-move changes, halved every iteration.
    instability: f64,
    last_score: Option<i32>,
}

impl Clock {
    pub(super) fn new(limit: Duration, target: Duration, settle_percent: i32) -> Clock {
        Clock {
            limit,
            target: target.min(limit),
            whole: target >= limit,
            settle: f64::from(settle_percent.max(1)) / 100.0,
            instability: 0.0,
            last_score: None,
        }
    }

    /// After an iteration at `depth` that took the search to `elapsed`: whether to start the
    /// next one. A settled search stops past `settle` (70%) of the target; each recent change
    /// of the best move adds 80% more (fading by half per iteration), a score that fell by 30
    /// or more another 30%; the limit is never passed. A target equal to the limit deepens
    /// until the limit: a partial iteration still searches the best move first and can only
    /// replace it by a move that beats it.
    pub(super) fn deepen_again(
        &mut self,
        elapsed: Duration,
        depth: u32,
        changed: bool,
        score: i32,
    ) -> bool {
        if self.whole {
            return elapsed < self.limit;
        }
        self.instability = self.instability / 2.0 + if changed { 1.0 } else { 0.0 };
        let mut factor = self.settle + 0.8 * self.instability;
        if depth > 4 && self.last_score.is_some_and(|s| score < s - 30) {
            factor *= 1.3;
        }
        self.last_score = Some(score);
        let stop = self.target.mul_f64(factor).min(self.limit);
        elapsed < stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_settled_search_stops_before_its_target() {
        let mut c = Clock::new(ms(1000), ms(600), 70);
        // Depth 1 always "changes" from the ordering's guess.
        assert!(c.deepen_again(ms(1), 1, true, 10));
        for d in 2..8 {
            assert!(c.deepen_again(ms(100), d, false, 10));
        }
        assert!(c.deepen_again(ms(400), 8, false, 10));
        assert!(!c.deepen_again(ms(430), 9, false, 10));
    }

    #[test]
    fn an_unsettled_search_goes_on_but_never_past_the_limit() {
        let mut c = Clock::new(ms(1000), ms(600), 70);
        assert!(c.deepen_again(ms(500), 5, true, 10));
        assert!(c.deepen_again(ms(700), 6, true, 10));
        assert!(!c.deepen_again(ms(1000), 7, true, 10));
        // A falling score buys time too.
        let mut d = Clock::new(ms(1000), ms(600), 70);
        assert!(d.deepen_again(ms(100), 5, false, 50));
        assert!(d.deepen_again(ms(450), 6, false, 0));
        let mut e = Clock::new(ms(1000), ms(600), 70);
        assert!(e.deepen_again(ms(100), 5, false, 50));
        assert!(!e.deepen_again(ms(450), 6, false, 50));
    }

    #[test]
    fn a_target_at_the_limit_uses_the_whole_limit() {
        let mut c = Clock::new(ms(1000), ms(1000), 70);
        assert!(c.deepen_again(ms(1), 1, true, 10));
        for d in 2..12 {
            assert!(c.deepen_again(ms(90 * u64::from(d)), d, false, 10));
        }
        assert!(c.deepen_again(ms(999), 12, false, 10));
        assert!(!c.deepen_again(ms(1000), 13, false, 10));
        // A target past the limit means the same.
        let mut d = Clock::new(ms(500), ms(2000), 70);
        assert!(d.deepen_again(ms(450), 9, false, 10));
    }
}
