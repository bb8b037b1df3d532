//! `INFO`: the manager's clock, memory, threads and rule, and the problems reported later.

use super::{BrainSession, DEFERRED_MAX};
use crate::gomocup::command::{self, Info};
use crate::gomocup::time::memory_too_small;
use crate::{Game, Rule};

impl BrainSession {
    pub(super) fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(t) => self.clock.turn_ms = Some(t),
            Info::TimeoutMatch(m) => self.clock.match_ms = Some(m),
            Info::TimeLeft(l) => self.clock.time_left_ms = Some(l),
            Info::MaxMemory(m) => {
                self.max_memory = m;
                if memory_too_small(m) {
                    self.defer(format!(
                        "max_memory {m} bytes is below what the brain needs; using a 1 MiB table"
                    ));
                }
            }
            Info::Rule(bits) => self.set_rule(bits),
            // Not in the protocol's list, but Yixin-Board and some managers send it.
            Info::Other { key, value } if key == "thread_num" => match value.parse::<usize>() {
                Ok(n) => self.threads = n,
                Err(_) => self.defer(format!(
                    "ignored INFO thread_num: {} is not a number",
                    command::quote(&value)
                )),
            },
            // game_type, evaluate (debug builds only) and folder change nothing here: the
            // brain plays the same against anyone and keeps no files.
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) | Info::Other { .. } => {}
        }
    }

    fn set_rule(&mut self, bits: u32) {
        let rule = rule_from_bits(bits);
        // The message names what is actually played, whatever the bits asked for.
        let mut unsupported = Vec::new();
        if bits & 8 != 0 {
            unsupported.push("caro (8)".to_string());
        }
        if bits & 2 != 0 && bits != 2 {
            unsupported.push("continuous game (2; the game ends at five)".to_string());
        }
        if bits & !15 != 0 {
            unsupported.push(format!("unknown bits {}", bits & !15));
        }
        if !unsupported.is_empty() {
            self.defer(format!(
                "INFO rule {bits}: {} not supported; playing {rule}",
                unsupported.join(", ")
            ));
        }
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        if let Some(g) = &self.game {
            // Keep the stones if they are legal under the new rule; otherwise start afresh,
            // as the manager will send the position again anyway.
            let moves = g.moves().to_vec();
            let size = g.size();
            self.game = Some(match Game::from_moves(rule, size, &moves) {
                Ok(g) => g,
                Err(e) => {
                    self.defer(format!(
                        "position is not legal under {rule} ({e}); board cleared"
                    ));
                    Game::new(rule, size).expect("size was accepted before")
                }
            });
        }
    }

    /// Keeps a message for the next answer; a flood of bad `INFO` lines is counted, not
    /// echoed, so the output stays small whatever the input.
    pub(super) fn defer(&mut self, message: String) {
        if self.deferred_total < DEFERRED_MAX {
            self.deferred_total += 1;
            self.deferred.push(message);
        } else {
            self.dropped += 1;
        }
    }
}

/// The rule for an `INFO rule` bitmask: bit 4 is renju, and so is the value 2 (Yixin-Board
/// sends 2 for renju, although the protocol text gives bit 2 to continuous games); otherwise
/// bit 1 is exactly five (caro, bit 8, is exactly five too, but its blocked-five rule is not
/// supported).
#[must_use]
fn rule_from_bits(bits: u32) -> Rule {
    if bits & 4 != 0 || bits == 2 {
        Rule::Renju
    } else if bits & (1 | 8) != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;

    #[test]
    fn info_rule_bits() {
        let mut s = started();
        for (bits, rule) in [
            (4, Rule::Renju),
            (0, Rule::Freestyle),
            (2, Rule::Renju),
            (1, Rule::Standard),
            (5, Rule::Renju),
            (0, Rule::Freestyle),
        ] {
            run(&mut s, &[&format!("INFO rule {bits}")]);
            assert_eq!(s.rule(), rule, "rule {bits}");
            assert_eq!(s.game().unwrap().rule(), rule, "rule {bits}");
        }
        // Caro is not supported: exactly five, and a MESSAGE before the next answer.
        assert!(run(&mut s, &["INFO rule 8"]).replies.is_empty());
        assert_eq!(s.rule(), Rule::Standard);
        let o = run(&mut s, &["ABOUT"]);
        assert!(matches!(&o.replies[0], Reply::Message(m) if m.contains("caro")));
        assert_eq!(o.replies.last(), Some(&Reply::About));
        // The message names the rule played, whatever else the bits ask for.
        for (bits, rule) in [
            (12, Rule::Renju),
            (9, Rule::Standard),
            (6, Rule::Renju),
            (16, Rule::Freestyle),
            (17, Rule::Standard),
        ] {
            run(&mut s, &[&format!("INFO rule {bits}")]);
            assert_eq!(s.rule(), rule, "rule {bits}");
            let o = run(&mut s, &["ABOUT"]);
            let Reply::Message(m) = &o.replies[0] else {
                panic!("rule {bits}: {:?}", o.replies)
            };
            assert!(m.ends_with(&format!("playing {rule}")), "rule {bits}: {m}");
        }
    }

    #[test]
    fn bad_info_is_reported_later_as_a_message() {
        let mut s = started();
        let o = run(&mut s, &["INFO timeout_turn soon"]);
        assert!(o.replies.is_empty());
        let o = run(&mut s, &["INFO max_memory 1000"]);
        assert!(o.replies.is_empty());
        let o = run(&mut s, &["BEGIN"]);
        let messages: Vec<&Reply> = o
            .replies
            .iter()
            .filter(|r| matches!(r, Reply::Message(_)))
            .collect();
        assert_eq!(messages.len(), 2, "{:?}", o.replies);
        assert!(matches!(o.next, Next::Think(_)));
    }

    #[test]
    fn time_and_memory_reach_the_request() {
        let mut s = started();
        let req = request(run(
            &mut s,
            &[
                "INFO timeout_turn 1000",
                "INFO timeout_match 100000",
                "INFO time_left 100000",
                "INFO max_memory 83886080",
                "BEGIN",
            ],
        ));
        assert_eq!(req.tt_mib, 32);
        assert_eq!(req.threads, 0);
        assert!(req.budget.give_up_after <= Duration::from_millis(950));
        s.finish(req.id, None, Duration::ZERO);
        let req = request(run(&mut s, &["INFO timeout_turn 0", "TURN 0,0"]));
        assert_eq!(req.budget.search, crate::gomocup::FASTEST_MOVE_TIME);
    }

    #[test]
    fn thread_num_reaches_the_request() {
        let mut s = started();
        let req = request(run(&mut s, &["INFO thread_num 3", "BEGIN"]));
        assert_eq!(req.threads, 3);
        s.finish(req.id, None, Duration::ZERO);
        // A bad value changes nothing and is reported before the next answer.
        let o = run(&mut s, &["INFO thread_num many", "TURN 0,0"]);
        assert!(
            o.replies
                .iter()
                .any(|r| matches!(r, Reply::Message(m) if m.contains("thread_num"))),
            "{:?}",
            o.replies
        );
        assert_eq!(request(o).threads, 3);
    }
}
