//! The transposition table: a shared array of four-entry clusters, read and written by every
//! search thread without locks.
//!
//! Each entry is two `AtomicU64`s: the data word and the key xor the data word. A reader
//! accepts an entry only when the xor of the two matches its key, so a torn write by another
//! thread reads as a miss, never as another position's data (the lock-less scheme of Hyatt and
//! Mann). The table is sized from `USI_Hash` when the engine gets `isready`.
//!
//! Data word layout (low to high): move 16 bits, score 16 (i16), static evaluation 16 (i16),
//! depth + 2 in 8, bound 2, generation 6.

use crate::pages::{AllocFailed, PART, Zeroable, ZeroedSlice};
use soppo_core::Move;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

/// Whether a stored score is exact or a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What a probe returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    /// The static evaluation of the position (side to move's view); `NO_EVAL` when unknown.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The evaluation field of an entry stored without one (in check).
pub const NO_EVAL: i32 = i16::MIN as i32;

const CLUSTER: usize = 4;
const BYTES_PER_ENTRY: u64 = 16;
const GENERATION_MASK: u8 = 0x3f;

/// Four entries (two words each) on one 64-byte cache line: a look-up touches one line.
#[repr(C, align(64))]
struct Cluster([AtomicU64; CLUSTER * 2]);

// SAFETY: a cluster is atomic integers, and all zero is four empty entries.
unsafe impl Zeroable for Cluster {}

/// A table of `2^k` clusters of four entries (at least one cluster).
pub struct TranspositionTable {
    /// In zeroed memory from the operating system: lazily zeroed, with huge pages where the
    /// system gives them, which spares the TLB misses of look-ups spread over the table.
    clusters: ZeroedSlice<Cluster>,
    mask: usize,
    generation: AtomicU8,
    /// A search may have written since the table was made or last cleared (set when a search
    /// starts, so that the stores themselves pay nothing).
    dirty: AtomicBool,
}

impl std::fmt::Debug for TranspositionTable {
    // The entries are not worth printing: the size says which table it is.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("size_mb", &self.size_mb())
            .finish_non_exhaustive()
    }
}

impl TranspositionTable {
    /// A table of at most `mb` MiB (rounded down to a power of two clusters). Aborts when the
    /// memory cannot be had: for small fixed sizes; a size from `USI_Hash` goes through
    /// [`TranspositionTable::try_new`].
    pub fn new(mb: u64) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("a {mb} MiB table: {e}"))
    }

    /// A table of at most `mb` MiB (rounded down to a power of two clusters), or the error
    /// when the system cannot give it. Nothing is touched yet: the pages are mapped, not
    /// resident, until [`TranspositionTable::clear_exclusive`] or the first searches.
    pub fn try_new(mb: u64) -> Result<TranspositionTable, AllocFailed> {
        let clusters = Self::clusters_for(mb);
        Ok(TranspositionTable {
            clusters: ZeroedSlice::try_new(clusters)?,
            mask: clusters - 1,
            generation: AtomicU8::new(0),
            dirty: AtomicBool::new(false),
        })
    }

    fn clusters_for(mb: u64) -> usize {
        let bytes = mb.clamp(1, 1 << 40).saturating_mul(1024 * 1024);
        let clusters = (bytes / (BYTES_PER_ENTRY * CLUSTER as u64)).clamp(1, usize::MAX as u64 / 2);
        1usize << clusters.ilog2()
    }

    /// The size in MiB of a table asked to be at most `mb` MiB (see [`TranspositionTable::new`]).
    pub fn size_mb_for(mb: u64) -> u64 {
        (Self::clusters_for(mb) as u64 * CLUSTER as u64 * BYTES_PER_ENTRY / (1024 * 1024)).max(1)
    }

    /// Size in MiB.
    pub fn size_mb(&self) -> u64 {
        (self.mask as u64 + 1) * CLUSTER as u64 * BYTES_PER_ENTRY / (1024 * 1024)
    }

    /// Empties the table (new game), writing every word: for a table other threads may still
    /// hold.
    pub fn clear(&self) {
        self.dirty.store(false, Ordering::Relaxed);
        for w in self.clusters[..=self.mask].iter().flat_map(|c| &c.0) {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// [`TranspositionTable::clear`] for a table held alone, at memory speed (`memset`
    /// instead of atomic stores) on up to `threads` threads. It also makes a new table's pages
    /// resident, so that the first searches do not fault them in while the clock runs.
    pub fn clear_exclusive(&mut self, threads: usize) {
        *self.dirty.get_mut() = false;
        *self.generation.get_mut() = 0;
        self.clusters.zero(threads);
    }

    /// Makes a table fresh from [`TranspositionTable::try_new`] resident, on up to `threads`
    /// threads, but begins nothing after `deadline`. Returns whether all of it is resident.
    /// When it is not and `shrink` is set, the table shrinks to the largest power of two of
    /// clusters already resident (the rest given back); otherwise the rest stays as the system
    /// gave it, zero, to be faulted in by the searches.
    pub fn make_resident_until(&mut self, threads: usize, deadline: Instant, shrink: bool) -> bool {
        *self.dirty.get_mut() = false;
        *self.generation.get_mut() = 0;
        let done = self.clusters.zero_until(threads, Some(deadline));
        if done > self.mask {
            return true;
        }
        if !shrink {
            return false;
        }
        let clusters = 1usize << done.max(1).ilog2();
        // A power of two of 64-byte clusters of at least 16 MiB ends at a part's boundary.
        if clusters * size_of::<Cluster>() >= PART {
            self.clusters.truncate(clusters);
        }
        self.mask = clusters - 1;
        false
    }

    /// Whether a search may have written since the table was made or last cleared (every
    /// search starts with [`TranspositionTable::new_search`], which sets it).
    pub fn is_dirty(&self) -> bool {
        self.dirty.load(Ordering::Relaxed)
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.dirty.store(true, Ordering::Relaxed);
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & GENERATION_MASK, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> usize {
        // The low bits choose the cluster; the check word keeps all 64 bits of the key.
        (key as usize & self.mask) * CLUSTER * 2
    }

    /// Word `i` of the table, counting across clusters.
    #[inline(always)]
    fn word(&self, i: usize) -> &AtomicU64 {
        &self.clusters[i / (CLUSTER * 2)].0[i % (CLUSTER * 2)]
    }

    fn read(&self, i: usize) -> (u64, u64) {
        let data = self.word(i).load(Ordering::Relaxed);
        let check = self.word(i + 1).load(Ordering::Relaxed);
        (data, check ^ data)
    }

    /// Starts loading the cluster of `key` into the cache. The search calls it with a child's
    /// key before it plays the move, so that the child's look-up does not wait for memory (in
    /// `soppo bench` the look-up's load was 15 % of all time).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::pages::prefetch(&raw const self.clusters[key as usize & self.mask]);
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let base = self.cluster(key);
        (0..CLUSTER).find_map(|e| {
            let (data, k) = self.read(base + e * 2);
            (data != 0 && k == key).then(|| decode(data))
        })
    }

    /// Stores an entry. The same position's entry is overwritten unless it holds a deeper
    /// non-exact result of this search; otherwise the shallowest, oldest entry of the cluster
    /// gives way. A store without a move keeps the old entry's move.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let base = self.cluster(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut victim = base;
        let mut victim_worth = i32::MAX;
        let mut mv = mv;
        for e in 0..CLUSTER {
            let i = base + e * 2;
            let (data, k) = self.read(i);
            if data != 0 && k == key {
                let old = decode(data);
                if mv.is_none() {
                    mv = old.mv;
                }
                if bound != Bound::Exact && old.depth > depth + 2 && entry_generation(data) == generation {
                    // Keep the deeper result, but remember a new best move.
                    if mv != old.mv {
                        let d = encode(mv, old.score, old.eval, old.depth, old.bound, generation);
                        self.write(i, key, d);
                    }
                    return;
                }
                victim = i;
                break;
            }
            // Worth of keeping: depth, minus eight plies per search of age.
            let age = i32::from(generation.wrapping_sub(entry_generation(data)) & GENERATION_MASK);
            let worth = if data == 0 {
                i32::MIN
            } else {
                decode(data).depth - 8 * age
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(victim, key, encode(mv, score, eval, depth, bound, generation));
    }

    fn write(&self, i: usize, key: u64, data: u64) {
        self.word(i).store(data, Ordering::Relaxed);
        self.word(i + 1).store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the entries of the first clusters written by the current search.
    pub fn hashfull(&self) -> u32 {
        let clusters = (self.mask + 1).min(250);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut used = 0;
        for c in 0..clusters {
            for e in 0..CLUSTER {
                let data = self.word((c * CLUSTER + e) * 2).load(Ordering::Relaxed);
                if data != 0 && entry_generation(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (clusters * CLUSTER)) as u32
    }
}

fn entry_generation(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

fn encode(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let b: u64 = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let score = score.clamp(-32_767, 32_767) as i16 as u16;
    let eval = eval.clamp(i32::from(i16::MIN), 32_767) as i16 as u16;
    let d = (depth + 2).clamp(0, 255) as u64;
    u64::from(mv.map_or(0, Move::raw))
        | (u64::from(score) << 16)
        | (u64::from(eval) << 32)
        | (d << 48)
        | (b << 56)
        | (u64::from(generation & GENERATION_MASK) << 58)
}

fn decode(data: u64) -> TtHit {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    TtHit {
        mv: Move::from_raw(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8) - 2,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_usi("7g7f").ok();
        tt.store(0x1234_5678_9abc_def0, m, -321, 45, 7, Bound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: m,
                score: -321,
                eval: 45,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn cluster_keeps_four_positions_and_replaces_the_shallowest() {
        let tt = TranspositionTable::new(1);
        let stride = (tt.mask as u64) + 1;
        // Five keys that share one cluster.
        let keys: Vec<u64> = (1..=5).map(|i| 7 + i * stride).collect();
        for (d, &k) in keys[..4].iter().enumerate() {
            tt.store(k, None, d as i32, NO_EVAL, 10 - d as i32, Bound::Exact);
        }
        assert!(keys[..4].iter().all(|&k| tt.probe(k).is_some()));
        tt.store(keys[4], None, 0, NO_EVAL, 20, Bound::Exact);
        // The shallowest (depth 7, the fourth key) went.
        assert!(tt.probe(keys[3]).is_none());
        assert!(tt.probe(keys[4]).is_some());
        assert!(tt.probe(keys[0]).is_some());
    }

    #[test]
    fn a_shallow_bound_does_not_overwrite_a_deep_result_but_keeps_its_move() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef;
        let m1 = Move::from_usi("7g7f").ok();
        let m2 = Move::from_usi("2g2f").ok();
        tt.store(key, m1, 100, 0, 12, Bound::Lower);
        tt.store(key, m2, -50, 0, 3, Bound::Upper);
        let hit = tt.probe(key).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (12, 100, m2));
        // A store without a move keeps the old move.
        tt.store(key, None, 7, 0, 14, Bound::Exact);
        assert_eq!(tt.probe(key).unwrap().mv, m2);
    }

    #[test]
    fn both_clears_empty_the_table_and_a_search_makes_it_dirty() {
        let mut tt = TranspositionTable::new(4);
        assert!(!tt.is_dirty());
        let keys: Vec<u64> = (1..=5000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        for round in 0..2 {
            tt.new_search();
            assert!(tt.is_dirty());
            for &k in &keys {
                tt.store(k, None, 1, 2, 3, Bound::Exact);
            }
            assert!(tt.hashfull() > 0);
            if round == 0 {
                tt.clear();
            } else {
                tt.clear_exclusive(2);
            }
            assert!(!tt.is_dirty());
            assert_eq!(tt.hashfull(), 0);
            assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        }
    }
}
