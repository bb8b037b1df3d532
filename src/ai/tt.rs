//! The transposition table: a bounded, Zobrist-keyed cache of search results.
//!
//! Buckets of two entries. A probe checks both; a store replaces the entry with the same key,
//! else the one that is older (from a previous search) or, within one search, shallower. The
//! size is fixed at construction from a MiB budget, so memory stays bounded on phones.

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

/// One stored result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    key: u32,
    /// Best move as a padded index, 0 for none.
    pub mv: u16,
    /// Score, with mate scores relative to the stored node.
    pub score: i16,
    /// Remaining depth of the search that stored it.
    pub depth: i8,
    /// Bound type.
    pub bound: Bound,
    age: u8,
}

/// The table.
#[derive(Debug)]
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table using at most `mib` MiB (at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> Table {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        // Largest power of two that fits, so the index is a mask.
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Table {
            buckets: vec![[Entry::default(); 2]; n],
            mask: n - 1,
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
        self.age = 0;
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, hash: u64) -> (usize, u32) {
        ((hash as usize) & self.mask, (hash >> 32) as u32)
    }

    /// The entry stored for `hash`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        let (i, key) = self.slot(hash);
        self.buckets[i]
            .iter()
            .find(|e| e.key == key && e.bound != Bound::None)
            .copied()
    }

    /// Stores a result for `hash`.
    #[inline]
    pub fn store(&mut self, hash: u64, mv: u16, score: i16, depth: i8, bound: Bound) {
        let (i, key) = self.slot(hash);
        let age = self.age;
        let bucket = &mut self.buckets[i];
        let victim = if let Some(k) = bucket.iter().position(|e| e.key == key) {
            k
        } else {
            let worth = |e: &Entry| i32::from(e.depth) - if e.age == age { 0 } else { 64 };
            usize::from(worth(&bucket[1]) < worth(&bucket[0]))
        };
        let e = &mut bucket[victim];
        // Keep the old best move when the new result has none.
        let mv = if mv == 0 && e.key == key { e.mv } else { mv };
        *e = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            age,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        t.store(0x1234_5678_9abc_def0, 77, -5, 3, Bound::Exact);
        let e = t.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (77, -5, 3, Bound::Exact));
        assert!(t.probe(0x1234_5679_9abc_def0).is_none());
        t.clear();
        assert!(t.probe(0x1234_5678_9abc_def0).is_none());
    }

    #[test]
    fn size_is_bounded() {
        let t = Table::new(2);
        assert!(t.buckets.len() * std::mem::size_of::<[Entry; 2]>() <= 2 << 20);
    }
}
