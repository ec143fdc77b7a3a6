//! The exact search's table: per position, the smallest bound known to hold and the largest
//! known to fail.

use super::UNBOUNDED;

/// What is known about one position.
#[derive(Clone, Copy)]
pub(super) struct Bounds {
    /// The smallest bound known to hold (`i32::MAX` when none is).
    pub(super) holds_from: i32,
    /// The largest bound known to fail (-1 when none is; [`UNBOUNDED`] when no bound holds).
    pub(super) fails_up_to: i32,
}

/// One table slot: a position key and its bounds (16 bytes).
#[derive(Clone, Copy, Default)]
pub(super) struct Slot {
    key: u64,
    /// `holds_from + 1`, with 0 for "none".
    holds_from: u16,
    /// `fails_up_to + 1`, with 0 for "none" and `u16::MAX` for [`UNBOUNDED`].
    fails_up_to: u16,
    used: bool,
}

impl Slot {
    /// Slots are kept as two words so that a fresh table is all zeros: it is then allocated
    /// zeroed, lazily, by the operating system instead of being written at start-up.
    fn unpack(raw: [u64; 2]) -> Slot {
        Slot {
            key: raw[0],
            holds_from: (raw[1] & 0xffff) as u16,
            fails_up_to: ((raw[1] >> 16) & 0xffff) as u16,
            used: raw[1] >> 32 != 0,
        }
    }

    fn pack(self) -> [u64; 2] {
        [
            self.key,
            u64::from(self.holds_from) | u64::from(self.fails_up_to) << 16 | u64::from(self.used) << 32,
        ]
    }

    fn bounds(self) -> Bounds {
        Bounds {
            holds_from: if self.holds_from == 0 {
                i32::MAX
            } else {
                i32::from(self.holds_from) - 1
            },
            fails_up_to: match self.fails_up_to {
                0 => -1,
                u16::MAX => UNBOUNDED,
                f => i32::from(f) - 1,
            },
        }
    }

    /// How much work the slot stands for: results at larger bounds cost more to redo.
    fn worth(self) -> u16 {
        self.holds_from.max(self.fails_up_to)
    }
}

/// A table of 4-slot buckets. It starts small (most problems are short, and touching a large
/// table costs page faults) and doubles while more than half full, up to its memory limit; then,
/// when a bucket is full, the slot worth least is replaced: forgetting costs only time, never
/// correctness.
pub(super) struct Table {
    buckets: Vec<[[u64; 2]; 4]>,
    used: usize,
    max_buckets: usize,
}

/// The size a table starts at.
pub(super) const INITIAL_TABLE_MB: usize = 4;

impl Table {
    pub(super) fn new(megabytes: usize) -> Self {
        let per_mb = (1 << 20) / std::mem::size_of::<[[u64; 2]; 4]>();
        let max_buckets = megabytes.max(1).saturating_mul(per_mb).max(1);
        let n = (INITIAL_TABLE_MB * per_mb).min(max_buckets);
        Table {
            buckets: vec![[[0; 2]; 4]; n],
            used: 0,
            max_buckets,
        }
    }

    fn grow(&mut self) {
        let n = (self.buckets.len() * 2).min(self.max_buckets);
        // A size the system cannot give ends the growth (the table then replaces entries, which
        // costs only time) rather than the engine.
        let mut bigger = Vec::new();
        if bigger.try_reserve_exact(n).is_err() {
            log::warn!(
                "exact mate table: {n} buckets could not be allocated; it stays at {}",
                self.buckets.len()
            );
            self.max_buckets = self.buckets.len();
            return;
        }
        bigger.resize(n, [[0; 2]; 4]);
        let old = std::mem::replace(&mut self.buckets, bigger);
        self.used = 0;
        for raw in old.into_iter().flatten() {
            let slot = Slot::unpack(raw);
            if slot.used {
                let b = self.bucket(slot.key);
                if let Some(free) = self.buckets[b].iter_mut().find(|r| !Slot::unpack(**r).used) {
                    *free = raw;
                    self.used += 1;
                }
            }
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // The high bits of the key pick the bucket (the low bit is the side to move).
        ((u128::from(key >> 1) * self.buckets.len() as u128) >> 63) as usize
    }

    pub(super) fn get(&self, key: u64) -> Option<Bounds> {
        self.buckets[self.bucket(key)]
            .iter()
            .map(|&raw| Slot::unpack(raw))
            .find(|s| s.used && s.key == key)
            .map(Slot::bounds)
    }

    pub(super) fn update(&mut self, key: u64, bound: i32, holds: bool) {
        if self.used * 2 > self.buckets.len() * 4 && self.buckets.len() < self.max_buckets {
            self.grow();
        }
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let slots = bucket.map(Slot::unpack);
        let i = slots
            .iter()
            .position(|s| s.used && s.key == key)
            .or_else(|| slots.iter().position(|s| !s.used))
            .unwrap_or_else(|| (0..4).min_by_key(|&i| slots[i].worth()).unwrap_or(0));
        let mut slot = slots[i];
        if !(slot.used && slot.key == key) {
            self.used += usize::from(!slot.used);
            slot = Slot {
                key,
                holds_from: 0,
                fails_up_to: 0,
                used: true,
            };
        }
        if holds {
            let v = u16::try_from(bound + 1).unwrap_or(u16::MAX - 1);
            if slot.holds_from == 0 || v < slot.holds_from {
                slot.holds_from = v;
            }
        } else {
            let v = if bound == UNBOUNDED {
                u16::MAX
            } else {
                u16::try_from(bound + 1).unwrap_or(u16::MAX - 1)
            };
            slot.fails_up_to = slot.fails_up_to.max(v);
        }
        bucket[i] = slot.pack();
    }

    /// Use of the memory limit, per mille.
    pub(super) fn hashfull_permille(&self) -> u32 {
        u32::try_from(self.used * 1000 / (self.max_buckets * 4)).unwrap_or(1000)
    }
}
