//! The transposition table: a bounded, Zobrist-keyed cache of search results, shared by the
//! search threads without locks (Lazy SMP).
//!
//! Buckets of two entries. A probe checks both; a store replaces the entry with the same key,
//! else the one that is older (from a previous search) or, within one search, shallower. The
//! size is fixed at construction from a MiB budget, so memory stays bounded on phones.
//!
//! Each entry is two `AtomicU64` words: the packed data and `hash ^ data` (the "lockless
//! hashing" XOR trick). Threads load and store the words with `Relaxed` ordering and no lock,
//! so a store may interleave with another store or a probe of the same entry. A probe accepts
//! an entry only when `key word ^ data word == hash`; an entry torn by a race (the key word of
//! one store, the data word of another) fails that check unless the two data words are equal,
//! so a probe returns whole data stored for exactly the hash asked, or nothing. Every bit
//! pattern of the data word decodes to a valid [`Entry`], so even a (64-bit) hash collision
//! costs at most a wrong score or a move hint, never undefined behaviour or a panic; the
//! search re-checks a hinted move against its own legal candidates before playing it.
//!
//! A probe mostly misses the CPU's caches (the table is far larger), so the search asks for a
//! child's bucket before it plays the move ([`Table::prefetch`]) and the load overlaps the
//! move's line updates. The hint is the crate's one use of `unsafe`: a prefetch instruction
//! reads nothing into the program and cannot fault.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score relates to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The exact value.
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a node searched with the window
    /// `(alpha, beta)`: exact, a lower bound at or above beta, or an upper bound at or below
    /// alpha.
    #[must_use]
    pub const fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    const fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One stored result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Best move as a padded index, 0 for none.
    pub mv: u16,
    /// Score, with mate scores relative to the stored node.
    pub score: i16,
    /// Static evaluation of the node (saves recomputing it on a hit).
    pub eval: i16,
    /// Remaining depth of the search that stored it.
    pub depth: i8,
    /// Bound type.
    pub bound: Bound,
    age: u8,
}

impl Entry {
    /// Data word layout: move (bits 0-15), score (16-31), static evaluation (32-47), depth
    /// (48-55), bound (56-57), age (58-63, so ages compare modulo 64).
    const fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u8 as u64) << 48
            | (self.bound as u64) << 56
            | ((self.age & AGE_MASK) as u64) << 58
    }

    const fn unpack(d: u64) -> Entry {
        Entry {
            mv: d as u16,
            score: (d >> 16) as u16 as i16,
            eval: (d >> 32) as u16 as i16,
            depth: (d >> 48) as u8 as i8,
            bound: Bound::from_bits(d >> 56),
            age: (d >> 58) as u8,
        }
    }
}

/// Ages are kept in six bits.
const AGE_MASK: u8 = 63;

/// Two entries, each `[hash ^ data, data]`; 32 bytes, aligned so a bucket never straddles a
/// cache line.
#[derive(Debug, Default)]
#[repr(align(32))]
struct Bucket([AtomicU64; 4]);

impl Bucket {
    /// Entry `k` as (stored hash, data). The hash of a torn entry is garbage and never
    /// matches the hash probed (see the module docs).
    #[inline]
    fn load(&self, k: usize) -> (u64, Entry) {
        let x = self.0[2 * k].load(Ordering::Relaxed);
        let d = self.0[2 * k + 1].load(Ordering::Relaxed);
        (x ^ d, Entry::unpack(d))
    }

    #[inline]
    fn save(&self, k: usize, hash: u64, e: Entry) {
        let d = e.pack();
        self.0[2 * k].store(hash ^ d, Ordering::Relaxed);
        self.0[2 * k + 1].store(d, Ordering::Relaxed);
    }
}

/// The table. `Sync`: any number of threads may probe and store at once through `&Table`.
#[derive(Debug)]
pub struct Table {
    buckets: Box<[Bucket]>,
    mask: usize,
    /// Bumped once per search (by the thread that starts it); read by every store.
    age: AtomicU8,
}

impl Table {
    /// A table using at most `mib` MiB (at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Largest power of two that fits, so the index is a mask.
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Table {
            buckets: std::iter::repeat_with(Bucket::default).take(n).collect(),
            mask: n - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            for w in &mut b.0 {
                *w.get_mut() = 0;
            }
        }
        *self.age.get_mut() = 0;
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[(hash as usize) & self.mask]
    }

    /// Starts bringing `hash`'s bucket into the cache for a probe soon after (the child
    /// node's, once the move is played). A hint only: no result depends on it.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        prefetch(std::ptr::from_ref(self.bucket(hash)).cast());
    }

    /// The entry stored for `hash`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let b = self.bucket(hash);
        (0..2)
            .map(|k| b.load(k))
            .find(|&(h, e)| h == hash && e.bound != Bound::None)
            .map(|(_, e)| e)
    }

    /// Stores a result for `hash`.
    ///
    /// Not atomic as a whole: a concurrent store to the same bucket may win or be lost, which
    /// only costs a cached result.
    #[inline]
    pub fn store(&self, hash: u64, mv: u16, score: i16, eval: i16, depth: i8, bound: Bound) {
        let b = self.bucket(hash);
        let age = self.age.load(Ordering::Relaxed) & AGE_MASK;
        let old = [b.load(0), b.load(1)];
        let victim = if let Some(k) = old.iter().position(|&(h, _)| h == hash) {
            k
        } else {
            let worth = |e: &Entry| i32::from(e.depth) - if e.age == age { 0 } else { 64 };
            usize::from(worth(&old[1].1) < worth(&old[0].1))
        };
        let (h, e) = old[victim];
        // Keep the old best move when the new result has none.
        let mv = if mv == 0 && h == hash { e.mv } else { mv };
        b.save(
            victim,
            hash,
            Entry {
                mv,
                score,
                eval,
                depth,
                bound,
                age,
            },
        );
    }
}

/// Asks the CPU to load the cache line at `p` (x86-64 and AArch64; elsewhere nothing).
#[inline]
#[allow(unsafe_code)]
fn prefetch(p: *const u8) {
    // SAFETY: PREFETCHT0 is a hint: it never faults, whatever the address, and changes no
    // register or memory the program can see. SSE, which it needs, is part of x86-64.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    // SAFETY: PRFM is a hint: it never faults, whatever the address, and writes nothing; the
    // options say so to the compiler.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        std::arch::asm!(
            "prfm pldl1keep, [{p}]",
            p = in(reg) p,
            options(nostack, readonly, preserves_flags)
        );
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        t.store(0x1234_5678_9abc_def0, 77, -5, 12, 3, Bound::Exact);
        let e = t.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (77, -5, 12, 3, Bound::Exact)
        );
        assert!(t.probe(0x1234_5679_9abc_def0).is_none());
        t.clear();
        assert!(t.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn size_is_bounded() {
        for mib in [1, 2, 3, 16] {
            let t = Table::new(mib);
            assert!(t.buckets.len() * std::mem::size_of::<Bucket>() <= mib << 20);
            assert!(t.buckets.len() * std::mem::size_of::<Bucket>() * 2 > mib << 20);
        }
    }

    #[test]
    fn every_field_round_trips_through_the_packed_word() {
        for (mv, score, eval, depth, bound, age) in [
            (0, 0, 0, 0, Bound::None, 0),
            (
                u16::MAX,
                i16::MIN,
                i16::MAX,
                i8::MIN,
                Bound::Exact,
                AGE_MASK,
            ),
            (441, -29_990, -7, -1, Bound::Lower, 7),
            (1, i16::MAX, i16::MIN, i8::MAX, Bound::Upper, 60),
        ] {
            let e = Entry {
                mv,
                score,
                eval,
                depth,
                bound,
                age,
            };
            assert_eq!(Entry::unpack(e.pack()), e);
        }
    }

    #[test]
    fn replacement_prefers_same_key_then_stale_or_shallow() {
        let t = Table::new(1);
        let n = t.buckets.len() as u64;
        // Three hashes in one bucket.
        let (a, b, c) = (5 + (1 << 40), 5 + (2 << 40), 5 + (3 << 40));
        assert_eq!(a & (n - 1), c & (n - 1));
        t.new_search();
        t.store(a, 10, 1, 0, 6, Bound::Exact);
        t.store(b, 20, 2, 0, 2, Bound::Lower);
        // A move-less result keeps the stored move.
        t.store(a, 0, 3, 0, 7, Bound::Upper);
        assert_eq!(
            t.probe(a).map(|e| (e.mv, e.score, e.depth)),
            Some((10, 3, 7))
        );
        // The shallower entry goes.
        t.store(c, 30, 4, 0, 3, Bound::Exact);
        assert!(t.probe(b).is_none());
        assert!(t.probe(a).is_some() && t.probe(c).is_some());
        // In a later search, an old entry goes before a current one, even a deeper one.
        t.new_search();
        t.store(b, 20, 2, 0, 1, Bound::Lower);
        assert!(t.probe(c).is_none() && t.probe(a).is_some());
        let d = 5 + (4 << 40);
        t.store(d, 40, 5, 0, 0, Bound::Exact);
        assert!(t.probe(a).is_none());
        assert_eq!(t.probe(b).map(|e| e.mv), Some(20));
        assert_eq!(t.probe(d).map(|e| e.mv), Some(40));
    }

    /// Several threads store and probe overlapping keys in a tiny table (so buckets are
    /// fought over): a probe must only ever return data stored for the very hash it asked.
    /// Each stored entry encodes its own hash in the move and score, so a wrong one shows.
    #[test]
    fn concurrent_stores_never_answer_for_another_key() {
        let t = Table::new(1);
        // Four keys for each of 16 buckets: the threads keep racing on the same entries.
        let n = 16;
        let keys: Vec<u64> = (0..4 * n)
            .map(|i| (i % n) | ((i / n + 1) << 32) | (i << 50))
            .collect();
        let fingerprint = |h: u64| -> (u16, i16, i8) {
            let m = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (
                (m >> 48) as u16,
                (m >> 32) as u16 as i16,
                (m >> 24) as u8 as i8,
            )
        };
        let checked = std::sync::atomic::AtomicU64::new(0);
        let go = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let (t, keys, checked, go) = (&t, &keys, &checked, &go);
                s.spawn(move || {
                    go.wait();
                    let mut x = 0x1234_5678u64 ^ thread;
                    for _ in 0..4_000_000 {
                        // xorshift: a cheap, different key sequence per thread.
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let h = keys[((x >> 1) % keys.len() as u64) as usize];
                        let (mv, score, depth) = fingerprint(h);
                        if x & 1 == 0 {
                            t.store(h, mv, score, 0, depth, Bound::Exact);
                        } else if let Some(e) = t.probe(h) {
                            assert_eq!((e.mv, e.score, e.depth), (mv, score, depth), "{h:x}");
                            checked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        // The test is void unless probes actually hit.
        assert!(checked.load(Ordering::Relaxed) > 10_000);
    }
}
