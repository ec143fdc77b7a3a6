//! The bounded transposition table of the df-pn prover.
//!
//! Open addressing in clusters of [`CLUSTER`] entries: a key selects a cluster and a look-up
//! scans all of it. Several entries may share one board key with different attacker hands,
//! which is what makes superior/inferior look-ups possible: a proven entry answers every hand
//! that dominates its proof hand, a disproven one every hand dominated by its disproof hand.
//!
//! Length bounds: a proven entry's `len` is the length of the proof found, so it answers a
//! search for "mate in at most `b` plies" only when `len <= b`; a disproven entry's `len` is
//! the bound it was disproven at ([`UNBOUNDED`] for "no mate at any length"), so it answers
//! only searches with `b <= len`. Both kinds can be kept for one position at once.
//!
//! Path-dependent results (disproofs that rely on a repetition with a node above the one
//! stored) live in the same table under a different key that mixes in a hash of the path
//! from the root (`dep` < [`DEP_NONE`] marks them); they only answer the same path.
//!
//! Replacement: a full cluster evicts its least valuable entry (an unresolved one with the
//! least work; resolved results are worth more). When the table passes 90 % occupancy a
//! garbage collection drops the less-worked half of the unresolved entries, then if needed of
//! the resolved ones. Losing an entry only costs re-search, never correctness.

use crate::pages::{Zeroable, ZeroedSlice};
use soppo_core::Hand;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Entries scanned per look-up.
pub(super) const CLUSTER: usize = 8;
/// "No repetition dependence" marker of `dep`.
pub(super) const DEP_NONE: i16 = i16::MAX;
/// Proof/disproof number of a resolved node.
pub(super) const INF: u32 = u32::MAX;
/// Length bound of an unbounded search, and `len` of a disproof valid at every length.
pub(super) const UNBOUNDED: u16 = u16::MAX;

/// A decoded entry (what a [`Slot`] holds).
#[derive(Clone, Copy, Default)]
struct Entry {
    /// Board key (mixed with the material signature); 0 marks an empty slot.
    key: u64,
    /// Attacker hand: exact for unresolved entries, proof/disproof hand for resolved ones.
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry (replacement priority).
    work: u32,
    /// Plies of the proof found (proven entries); the bound disproven at (disproven entries);
    /// the bound searched at (unresolved entries, whose numbers only guide that search).
    len: u16,
    /// `DEP_NONE` for ordinary entries; otherwise a path-keyed repetition-dependent entry.
    dep: i16,
}

impl Entry {
    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Replacement value: resolved entries outrank unresolved ones of any work.
    fn value(&self) -> u64 {
        u64::from(self.work)
            + if self.is_final() && self.dep == DEP_NONE {
                1 << 32
            } else {
                0
            }
    }
}

/// One entry as four words that several searching threads may read and write at once.
///
/// Word 0 is the key (0: empty). A writer stores words 1 to 3 and then the key; a reader that
/// races with a writer may see words of two different entries, so word 3 carries a check of
/// the other words and an entry that fails it is taken for an empty (or lost) one. A wrong
/// result could pass the check only by a 2^-32 chance, and only when two threads write and
/// read the very same slot at the same moment.
#[derive(Default)]
#[repr(C, align(32))]
struct Slot([AtomicU64; 4]);

/// The check of an entry's words (the high half of word 3).
#[inline(always)]
fn check(key: u64, w1: u64, w2: u64, w3_low: u64) -> u64 {
    ((key ^ w1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ w2.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ w3_low.wrapping_mul(0x1656_67B1_9E37_79F9))
        >> 32
}

impl Slot {
    #[inline(always)]
    fn key(&self) -> u64 {
        self.0[0].load(Ordering::Relaxed)
    }

    /// The entry under `key` (the slot's key as just read), unless its words are torn.
    #[inline(always)]
    fn read(&self, key: u64) -> Option<Entry> {
        let w1 = self.0[1].load(Ordering::Relaxed);
        let w2 = self.0[2].load(Ordering::Relaxed);
        let w3 = self.0[3].load(Ordering::Relaxed);
        if check(key, w1, w2, w3 & 0xFFFF_FFFF) != w3 >> 32 {
            return None;
        }
        Some(Entry {
            key,
            hand: Hand::from_raw(w1 as u32),
            pn: (w1 >> 32) as u32,
            dn: w2 as u32,
            work: (w2 >> 32) as u32,
            len: w3 as u16,
            dep: (w3 >> 16) as u16 as i16,
        })
    }

    /// The entry, if the slot holds a whole one.
    #[inline(always)]
    fn load(&self) -> Option<Entry> {
        match self.key() {
            0 => None,
            key => self.read(key),
        }
    }

    #[inline(always)]
    fn write(&self, e: &Entry) {
        let w1 = u64::from(e.hand.raw()) | (u64::from(e.pn) << 32);
        let w2 = u64::from(e.dn) | (u64::from(e.work) << 32);
        let low = u64::from(e.len) | (u64::from(e.dep as u16) << 16);
        let w3 = low | (check(e.key, w1, w2, low) << 32);
        self.0[1].store(w1, Ordering::Relaxed);
        self.0[2].store(w2, Ordering::Relaxed);
        self.0[3].store(w3, Ordering::Relaxed);
        self.0[0].store(e.key, Ordering::Relaxed);
    }

    #[inline(always)]
    fn empty(&self) {
        self.0[0].store(0, Ordering::Relaxed);
    }
}

/// What a look-up found.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// Proof hand (proven), disproof hand (disproven), else the looked-up hand.
    pub hand: Hand,
    pub len: u16,
    pub dep: i16,
    pub found: bool,
}

/// A result to store.
#[derive(Clone, Copy, Debug)]
pub(super) struct Record {
    /// Exact hand (unresolved or path-keyed), proof hand (proven), disproof hand (disproven).
    pub hand: Hand,
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub dep: i16,
    pub work: u32,
}

/// The table's first size. It doubles whenever it is half full, up to the size asked for:
/// most problems use a few megabytes, and a table spread over a whole gigabyte makes almost
/// every look-up a TLB miss (Shogi Zuko 99 ran at 0.34 M nodes/s in 1 GB and 0.56 M in 16 MB).
const FIRST_BYTES: usize = 8 << 20;

/// The table, shared by the threads of a parallel search: look-ups and stores take `&self`.
/// Growing and collecting garbage move entries around, so they wait for
/// [`Table::make_room`], which its callers run while no other thread uses the table; a store
/// that finds the table full only asks for it ([`Table::wants_room`]).
pub(super) struct Table {
    slots: ZeroedSlice<Slot>,
    clusters: AtomicU64,
    /// The cluster count the table may grow to.
    max_clusters: usize,
    /// Entries in use: exact with one thread; with several, racing stores can make it drift a
    /// little until the next growth or collection counts again.
    used: AtomicUsize,
    /// Occupancy that doubles the table (below its full size) or collects garbage (at it).
    full_at: AtomicUsize,
    wants_room: AtomicBool,
}

// SAFETY: a `Slot` is four atomic integers; all zero is the empty slot.
unsafe impl Zeroable for Slot {}

impl Table {
    pub fn new(hash_mb: usize) -> Table {
        let bytes = hash_mb.max(1).saturating_mul(1 << 20);
        let max_clusters = (bytes / (size_of::<Slot>() * CLUSTER)).max(1);
        let mut t = Table {
            slots: ZeroedSlice::new(0),
            clusters: AtomicU64::new(0),
            max_clusters,
            used: AtomicUsize::new(0),
            full_at: AtomicUsize::new(0),
            wants_room: AtomicBool::new(false),
        };
        t.clear();
        t
    }

    /// Empties the table and gives back the memory of its growth.
    pub fn clear(&mut self) {
        // The whole size is allocated at once, zeroed lazily by the operating system: only the
        // prefix in use is ever touched, and growing needs no second buffer (a copy into a new
        // one would hold both, half as much again as the size asked for, at the last doubling).
        self.slots = ZeroedSlice::new(0);
        // A size the system cannot map (more than it has, where the caller did not hold
        // `USI_Hash` to the machine) gives a smaller table rather than an abort.
        self.slots = loop {
            match ZeroedSlice::try_new(self.max_clusters * CLUSTER) {
                Ok(slots) => break slots,
                Err(e) if self.max_clusters > 1 => {
                    log::warn!("mate table: {e}; trying half");
                    self.max_clusters /= 2;
                }
                // One cluster: a fixed size far below any system's refusal.
                Err(_) => break ZeroedSlice::new(CLUSTER),
            }
        };
        let clusters = (FIRST_BYTES / (size_of::<Slot>() * CLUSTER)).clamp(1, self.max_clusters);
        self.clusters.store(clusters as u64, Ordering::Relaxed);
        self.full_at.store(self.full_at_for(clusters), Ordering::Relaxed);
        self.used.store(0, Ordering::Relaxed);
        self.wants_room.store(false, Ordering::Relaxed);
    }

    fn full_at_for(&self, clusters: usize) -> usize {
        if clusters < self.max_clusters {
            clusters * CLUSTER / 2
        } else {
            clusters * CLUSTER / 10 * 9
        }
    }

    /// The size asked for, in megabytes.
    #[cfg(any(test, feature = "lab"))]
    pub fn megabytes(&self) -> usize {
        ((self.max_clusters * CLUSTER * size_of::<Slot>()) >> 20).max(1)
    }

    /// Occupancy against the size asked for, as USI's `hashfull` means it.
    pub fn hashfull_permille(&self) -> u32 {
        (self.used.load(Ordering::Relaxed) as u64 * 1000 / (self.max_clusters * CLUSTER) as u64).min(1000) as u32
    }

    /// Whether a store found the table full: [`Table::make_room`] should run soon.
    #[inline(always)]
    pub fn wants_room(&self) -> bool {
        self.wants_room.load(Ordering::Relaxed)
    }

    /// Grows the table, or collects garbage at its full size, if it is full. The caller makes
    /// sure no other thread uses the table meanwhile (entries move); a thread that did would
    /// only lose entries, never read a wrong one.
    pub fn make_room(&self) {
        self.wants_room.store(false, Ordering::Relaxed);
        if self.used.load(Ordering::Relaxed) < self.full_at.load(Ordering::Relaxed) {
            return;
        }
        let clusters = self.clusters.load(Ordering::Relaxed) as usize;
        if clusters < self.max_clusters {
            self.grow((clusters * 2).min(self.max_clusters));
        } else {
            self.collect_garbage();
        }
    }

    /// Grows the table in place to `clusters` clusters. Multiply-shift keeps the order of keys,
    /// so an entry of cluster `i` moves to a cluster at or after `i` (`2i` or `2i + 1` when the
    /// size doubles): walking the old clusters from the last, each one's entries move into
    /// clusters that are already re-homed or untouched. Doubling loses nothing; a last step to
    /// a size below double may merge two clusters' entries, and the least valuable of an
    /// overfull cluster are dropped, as a full cluster's store would.
    fn grow(&self, clusters: usize) {
        let old = self.clusters.load(Ordering::Relaxed) as usize;
        debug_assert!(old < clusters && clusters <= self.max_clusters);
        self.clusters.store(clusters as u64, Ordering::Relaxed);
        self.full_at.store(self.full_at_for(clusters), Ordering::Relaxed);
        let mut kept = 0;
        for i in (0..old).rev() {
            let mut moving = [Entry::default(); CLUSTER];
            for (m, s) in moving.iter_mut().zip(&self.slots[i * CLUSTER..(i + 1) * CLUSTER]) {
                if let Some(e) = s.load() {
                    *m = e;
                }
                s.empty();
            }
            for e in moving.into_iter().filter(|e| e.key != 0) {
                let base = self.cluster(e.key);
                debug_assert!(base >= i * CLUSTER);
                let cluster = &self.slots[base..base + CLUSTER];
                if let Some(slot) = cluster.iter().find(|s| s.key() == 0) {
                    slot.write(&e);
                    kept += 1;
                } else if let Some((victim, _)) = cluster
                    .iter()
                    .map(|s| (s, s.load().map_or(0, |v| v.value())))
                    .min_by_key(|&(_, value)| value)
                    .filter(|&(_, value)| value < e.value())
                {
                    victim.write(&e);
                }
            }
        }
        self.used.store(kept, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> usize {
        // Multiply-shift maps the high key bits onto the cluster count without a division.
        ((((key >> 32) * self.clusters.load(Ordering::Relaxed)) >> 32) as usize) * CLUSTER
    }

    /// Never 0, which marks empty slots.
    #[inline(always)]
    fn tag(key: u64) -> u64 {
        key | 1
    }

    /// Starts loading the cluster of `key` into the cache. Looking up every child of a node
    /// otherwise waits for one memory round trip per child, which is most of df-pn's time.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let base = self.cluster(key);
        let p = self.slots[base..base + CLUSTER].as_ptr().cast::<u8>();
        for line in 0..(CLUSTER * size_of::<Slot>()).div_ceil(64) {
            crate::pages::prefetch(p.wrapping_add(line * 64));
        }
    }

    /// Ordinary look-up of `(key, hand)` with superior/inferior answers, for a search for
    /// mate in at most `bound` plies.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand, bound: u16) -> Probe {
        let tag = Self::tag(key);
        let base = self.cluster(key);
        let mut r = Probe {
            pn: 1,
            dn: 1,
            hand,
            len: 0,
            dep: DEP_NONE,
            found: false,
        };
        for s in &self.slots[base..base + CLUSTER] {
            if s.key() != tag {
                continue;
            }
            let Some(e) = s.read(tag) else { continue };
            if e.dep != DEP_NONE {
                continue;
            }
            if e.pn == 0 {
                if e.len <= bound && hand.dominates(e.hand) {
                    return Probe {
                        pn: 0,
                        dn: INF,
                        hand: e.hand,
                        len: e.len,
                        dep: DEP_NONE,
                        found: true,
                    };
                }
            } else if e.dn == 0 {
                if e.len >= bound && e.hand.dominates(hand) {
                    return Probe {
                        pn: INF,
                        dn: 0,
                        hand: e.hand,
                        len: e.len,
                        dep: DEP_NONE,
                        found: true,
                    };
                }
            } else if e.len != bound {
                // Numbers from a search for another length say little about this one.
            } else if e.hand == hand {
                r.pn = r.pn.max(e.pn);
                r.dn = r.dn.max(e.dn);
                r.found = true;
            } else if hand.dominates(e.hand) {
                // More attacker pieces: at least as hard to disprove.
                r.dn = r.dn.max(e.dn);
            } else if e.hand.dominates(hand) {
                // Fewer attacker pieces: at least as hard to prove.
                r.pn = r.pn.max(e.pn);
            }
        }
        r
    }

    /// Look-up of a path-keyed (repetition-dependent) disproof: exact key and hand only, and
    /// only if it was disproven at `bound` or above.
    #[inline]
    pub fn probe_rep(&self, key: u64, hand: Hand, bound: u16) -> Option<Probe> {
        let tag = Self::tag(key);
        let base = self.cluster(key);
        self.slots[base..base + CLUSTER]
            .iter()
            .filter(|s| s.key() == tag)
            .filter_map(|s| s.read(tag))
            .find(|e| e.dep != DEP_NONE && e.hand == hand && e.len >= bound)
            .map(|e| Probe {
                pn: e.pn,
                dn: e.dn,
                hand: e.hand,
                len: e.len,
                dep: e.dep,
                found: true,
            })
    }

    /// Stores a result. Resolved results also sweep the entries of the same board they make
    /// redundant (unresolved or less general resolved ones).
    pub fn store(&self, key: u64, rec: Record) {
        let Record {
            hand,
            pn,
            dn,
            len,
            dep,
            work,
        } = rec;
        if self.used.load(Ordering::Relaxed) >= self.full_at.load(Ordering::Relaxed) {
            self.wants_room.store(true, Ordering::Relaxed);
        }
        let tag = Self::tag(key);
        let base = self.cluster(key);
        let mut slot = None;
        for i in base..base + CLUSTER {
            let s = &self.slots[i];
            let k = s.key();
            if k == 0 {
                slot.get_or_insert(i);
                continue;
            }
            if k != tag {
                continue;
            }
            let Some(e) = s.read(tag) else {
                // Torn by a racing store: as good as lost.
                s.empty();
                self.used.fetch_sub(1, Ordering::Relaxed);
                slot.get_or_insert(i);
                continue;
            };
            if (e.dep == DEP_NONE) != (dep == DEP_NONE) {
                continue;
            }
            if dep != DEP_NONE || (pn != 0 && dn != 0) {
                // Unresolved or path-keyed: update the exact entry in place.
                if e.hand == hand && e.len == len && (dep != DEP_NONE || !e.is_final()) {
                    s.write(&Entry {
                        key: tag,
                        hand,
                        pn,
                        dn,
                        work: e.work.saturating_add(work),
                        len,
                        dep,
                    });
                    return;
                }
                continue;
            }
            let redundant = if pn == 0 {
                // Subsumed: unresolved with a hand we now prove, or proven with a larger proof
                // hand and a proof no shorter.
                (e.pn != 0 && e.dn != 0 && e.hand.dominates(hand))
                    || (e.pn == 0 && e.len >= len && e.hand.dominates(hand))
            } else {
                (e.pn != 0 && e.dn != 0 && hand.dominates(e.hand))
                    || (e.dn == 0 && e.len <= len && hand.dominates(e.hand))
            };
            if redundant {
                s.empty();
                self.used.fetch_sub(1, Ordering::Relaxed);
                slot.get_or_insert(i);
            }
        }
        let i = slot.unwrap_or_else(|| {
            // Evict the least valuable entry of the cluster.
            let value = |i: usize| self.slots[i].load().map_or(0, |e| e.value());
            let mut victim = base;
            for i in base + 1..base + CLUSTER {
                if value(i) < value(victim) {
                    victim = i;
                }
            }
            self.used.fetch_sub(1, Ordering::Relaxed);
            victim
        });
        self.slots[i].write(&Entry {
            key: tag,
            hand,
            pn,
            dn,
            work,
            len,
            dep,
        });
        self.used.fetch_add(1, Ordering::Relaxed);
    }

    /// Frees room: drops unresolved and path-keyed entries with less than the median work, and
    /// if that is not enough the less-worked half of the resolved ones.
    fn collect_garbage(&self) {
        let in_use = self.slots.len();
        let mut used = self.slots.iter().filter(|s| s.load().is_some()).count();
        for pass in 0..2 {
            let resolved = pass == 1;
            let candidate = |e: &Entry| (e.is_final() && e.dep == DEP_NONE) == resolved;
            // Median work of the candidates, estimated on a strided sample.
            let step = (in_use / 4096).max(1);
            let mut sample: Vec<u32> = self
                .slots
                .iter()
                .step_by(step)
                .filter_map(Slot::load)
                .filter(|e| candidate(e))
                .map(|e| e.work)
                .collect();
            if sample.is_empty() {
                continue;
            }
            let mid = sample.len() / 2;
            let (_, &mut median, _) = sample.select_nth_unstable(mid);
            for s in self.slots.iter() {
                if s.key() == 0 {
                    continue;
                }
                match s.load() {
                    Some(e) if candidate(&e) && e.work <= median => {
                        s.empty();
                        used -= 1;
                    }
                    Some(_) => {}
                    None => s.empty(),
                }
            }
            if used < in_use / 10 * 7 {
                break;
            }
        }
        self.used.store(used, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store as a lone searching thread makes it: room is made as soon as it is wanted.
    fn store(t: &Table, key: u64, rec: Record) {
        t.store(key, rec);
        if t.wants_room() {
            t.make_room();
        }
    }

    fn proven(len: u16) -> Record {
        Record {
            hand: Hand::EMPTY,
            pn: 0,
            dn: INF,
            len,
            dep: DEP_NONE,
            work: 1,
        }
    }

    /// The table starts small and doubles as it fills; every entry survives the growth, and
    /// `hashfull` counts against the size asked for, not the size reached.
    #[test]
    fn growing_keeps_every_entry_and_hashfull_counts_the_full_size() {
        let mut t = Table::new(64);
        let first = t.clusters.load(Ordering::Relaxed);
        assert!(first < t.max_clusters as u64, "64 MB starts below its full size");
        // Keys spread evenly over the clusters (the high half picks the cluster), so no
        // cluster overflows at any size: nothing may be lost.
        let n: u64 = 150_000;
        let key = |i: u64| ((i * ((1u64 << 32) / n)) << 32) | (i << 1);
        for i in 0..n {
            store(&t, key(i), proven((i % 100) as u16 + 1));
        }
        let grown = t.clusters.load(Ordering::Relaxed);
        assert!(grown > first, "the table grew ({grown} clusters)");
        for i in 0..n {
            let p = t.probe(key(i), Hand::EMPTY, UNBOUNDED);
            assert!(p.found && p.pn == 0 && p.len == (i % 100) as u16 + 1, "entry {i} lost");
        }
        let full_size = (t.max_clusters * CLUSTER) as u64;
        assert_eq!(u64::from(t.hashfull_permille()), n * 1000 / full_size);
        t.clear();
        assert_eq!(t.clusters.load(Ordering::Relaxed), first);
        assert_eq!(t.hashfull_permille(), 0);
        assert!(!t.probe(key(7), Hand::EMPTY, UNBOUNDED).found);
    }

    /// 24 MB is not a power-of-two multiple of the first size: the last step grows by half and
    /// may merge two clusters, dropping the least valuable entries of an overfull one, and the
    /// count of entries in use stays exact.
    #[test]
    fn growing_to_a_size_below_double_keeps_nearly_everything() {
        let t = Table::new(24);
        let n: u64 = 300_000;
        // Keys spread like real ones (a multiplicative hash), so clusters fill unevenly and a
        // few overflow at half load, as they do in a search.
        let key = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for i in 0..n {
            store(&t, key(i), proven(1));
        }
        assert_eq!(
            t.clusters.load(Ordering::Relaxed) as usize,
            t.max_clusters,
            "the table reached its full size"
        );
        let found = (0..n)
            .filter(|&i| t.probe(key(i), Hand::EMPTY, UNBOUNDED).found)
            .count();
        assert!(found as u64 * 100 >= n * 99, "{found} of {n} kept");
        let in_use = t.slots.iter().filter(|s| s.key() != 0).count();
        assert_eq!(t.used.load(Ordering::Relaxed), in_use);
        assert_eq!(found, in_use, "every entry in use is found under its own key");
    }

    /// Two threads storing into and looking up a small, crowded table at once: every entry
    /// found is one that was stored under its key, whole (a slot overwritten while it is read
    /// is taken for empty, never for a mixture of two entries).
    #[test]
    fn racing_threads_never_read_a_mixed_entry() {
        let t = Table::new(1);
        // Sixteen keys of one cluster (its eight slots are overwritten all the time); each
        // key's numbers are a function of the key, so a found entry can be checked.
        let key = |i: u64| (0x1234_5678 << 32) | ((i + 1) << 8);
        let numbers = |i: u64| (1 + (i * 7919) as u32 % 100_000, 1 + (i * 104_729) as u32 % 100_000);
        let found = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for thread in 0..2u64 {
                let (t, found) = (&t, &found);
                s.spawn(move || {
                    for round in 0..1_000_000u64 {
                        // Both threads work on the same keys, in different orders.
                        let i = (round * (1 + thread * 6) + thread * 5) % 16;
                        let (pn, dn) = numbers(i);
                        t.store(
                            key(i),
                            Record {
                                hand: Hand::EMPTY,
                                pn,
                                dn,
                                len: 9,
                                dep: DEP_NONE,
                                work: 1,
                            },
                        );
                        let j = (i * 7 + 3) % 16;
                        let p = t.probe(key(j), Hand::EMPTY, 9);
                        if p.found {
                            assert_eq!((p.pn, p.dn), numbers(j), "entry {j} read mixed");
                            found.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(found.load(Ordering::Relaxed) > 10_000, "look-ups found entries");
    }
}
