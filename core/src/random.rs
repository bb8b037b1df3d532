//! Randomness for ids and draws that must differ between games and app starts (not the
//! engine's: its searches are seeded).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

/// 64 unpredictable bits from the platform (the browser's `crypto.getRandomValues` on the
/// web). Should the platform refuse, the standard library's per-process hash keys stand in.
#[must_use]
pub fn random_u64() -> u64 {
    let mut bytes = [0; 8];
    match getrandom::getrandom(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(e) => {
            log::warn!("no platform randomness ({e}); using the hash keys");
            let mut h = RandomState::new().build_hasher();
            h.write_u64(0x5775_7a69);
            h.finish()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_differ() {
        let draws: std::collections::BTreeSet<u64> = (0..8).map(|_| random_u64()).collect();
        assert_eq!(draws.len(), 8);
    }
}
