//! The transposition table: a shared array of two-word entries.
//!
//! Each entry is two `AtomicU64`s: the data word and the key xor the data word. A reader
//! accepts an entry only when the xor of the two matches its key, so a torn write by another
//! thread reads as a miss, never as another position's data (the lock-less scheme of Hyatt and
//! Mann). The table is sized from `USI_Hash` when the engine gets `isready`.

use soppo_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

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
    pub depth: i32,
    pub bound: Bound,
}

/// A table of `2^k` entries (at least one).
pub struct TranspositionTable {
    words: Box<[AtomicU64]>,
    mask: usize,
}

const BYTES_PER_ENTRY: u64 = 16;

impl TranspositionTable {
    /// A table of at most `mb` MiB (rounded down to a power of two entries).
    pub fn new(mb: u64) -> TranspositionTable {
        let entries = (mb.max(1) * 1024 * 1024 / BYTES_PER_ENTRY).max(1);
        let entries = 1usize << entries.ilog2();
        let words = std::iter::repeat_with(|| AtomicU64::new(0)).take(entries * 2).collect();
        TranspositionTable {
            words,
            mask: entries - 1,
        }
    }

    /// Size in MiB.
    pub fn size_mb(&self) -> u64 {
        (self.mask as u64 + 1) * BYTES_PER_ENTRY / (1024 * 1024)
    }

    /// Empties the table (new game).
    pub fn clear(&self) {
        for w in &*self.words {
            w.store(0, Ordering::Relaxed);
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let i = self.slot(key);
        let data = self.words[i].load(Ordering::Relaxed);
        let check = self.words[i + 1].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let mv = Move::from_raw(data as u16);
        let score = (data >> 16) as u32 as i32;
        let depth = i32::from((data >> 48) as u8) - 1;
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(TtHit {
            mv,
            score,
            depth,
            bound,
        })
    }

    /// Stores an entry, replacing whatever was in the slot unless it is the same position
    /// searched deeper.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        if let Some(old) = self.probe(key)
            && old.depth > depth
            && bound != Bound::Exact
        {
            return;
        }
        let i = self.slot(key);
        let b: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let d = (depth + 1).clamp(0, 255) as u64;
        let data = u64::from(mv.map_or(0, Move::raw)) | (u64::from(score as u32) << 16) | (d << 48) | (b << 56);
        self.words[i].store(data, Ordering::Relaxed);
        self.words[i + 1].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries in use.
    pub fn hashfull(&self) -> u32 {
        let n = (self.mask + 1).min(1000);
        let used = (0..n)
            .filter(|&e| self.words[e * 2].load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / n) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_usi("7g7f").ok();
        tt.store(0x1234_5678_9abc_def0, m, -321, 7, Bound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: m,
                score: -321,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        assert!(tt.hashfull() <= 1000);
    }
}
