//! What the threads of one df-pn search share: the tables, the signal that ends them, the
//! marks of the nodes each thread is searching, and the gate that lets one thread grow a
//! table while the others wait.

use super::DfpnVerdict;
use super::tt::{Record, Table};
use soppo_core::{Move, Position};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

/// Slots of the busy marks (a byte each, a bit per thread).
const BUSY_BITS: u32 = 16;
/// Bits of the filter in front of the table of path-keyed results (16 KB: it stays in the
/// first-level cache; 128 KB was no better on Shogi Zuko 99).
const REP_FILTER_BITS: u32 = 17;

pub(super) struct Shared {
    pub tt: Table,
    /// Path-keyed (repetition-dependent) results, kept apart in a table small enough to stay
    /// in the caches: every unresolved child is looked up there once one exists, and in the
    /// main table each such look-up was a second cache miss.
    pub rep_tt: Table,
    /// Whether any path-keyed entry was stored (skips their look-up until one exists).
    pub rep_stored: AtomicBool,
    /// A bit for the hash of every key stored in `rep_tt` since it was last cleared. Few
    /// look-ups there find anything (Shogi Zuko 99: about 1,200 in 3 M), yet each cost two
    /// cache misses, its prefetch's and its own, at every new child; a clear bit spares both.
    rep_filter: Box<[AtomicU64]>,
    /// The number of the owner's latest search (from 1).
    pub epoch: AtomicU64,
    /// A search that is over: every thread working on it ends at its next node.
    pub stopped: AtomicU64,
    /// A helper's verdict on the root: `epoch << 2 | 1` proven, `epoch << 2 | 2` disproven.
    result: AtomicU64,
    /// The owner's current search, for assistants that join it (see `Dfpn::assistant`).
    pub job: Mutex<Option<Job>>,
    /// Assistants waiting for or working on the owner's searches.
    pub assistants: AtomicUsize,
    /// Nodes the helper threads searched since the last `solve`.
    pub helper_nodes: AtomicU64,
    /// Bit `t` of a slot: thread `t` has a node of this hash on its path.
    busy: Box<[AtomicU8]>,
    gate: Gate,
    /// The owner's current path during a first proof (see `Dfpn::line_watcher`).
    line: Mutex<Vec<Move>>,
}

impl Shared {
    pub fn new(hash_mb: usize, rep_mb: usize) -> Shared {
        Shared {
            tt: Table::new(hash_mb),
            rep_tt: Table::new(rep_mb),
            rep_stored: AtomicBool::new(false),
            rep_filter: (0..1usize << (REP_FILTER_BITS - 6))
                .map(|_| AtomicU64::new(0))
                .collect(),
            epoch: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
            result: AtomicU64::new(0),
            job: Mutex::new(None),
            assistants: AtomicUsize::new(0),
            helper_nodes: AtomicU64::new(0),
            busy: (0..1usize << BUSY_BITS).map(|_| AtomicU8::new(0)).collect(),
            gate: Gate::default(),
            line: Mutex::new(Vec::new()),
        }
    }

    /// Replaces the published line (see `Dfpn::line_watcher`).
    pub fn publish_line(&self, moves: &[Move]) {
        let mut line = self.line.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        line.clear();
        line.extend_from_slice(moves);
    }

    /// The line last published.
    pub fn published_line(&self) -> Vec<Move> {
        self.line
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Empties both tables (no other thread may be searching).
    #[cfg(any(test, feature = "lab"))]
    pub fn clear(&mut self) {
        self.tt.clear();
        self.rep_tt.clear();
        self.rep_stored.store(false, Ordering::Relaxed);
        for w in &self.rep_filter {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// Stores a path-keyed result under its path-mixed key.
    pub fn store_rep(&self, key: u64, rec: Record) {
        let (word, bit) = Self::rep_filter_bit(key);
        // The bit first: another thread that sees the entry also sees the bit (or, in a
        // race, misses the entry, which only costs a search).
        self.rep_filter[word].fetch_or(bit, Ordering::Relaxed);
        self.rep_tt.store(key, rec);
        if !self.rep_stored.load(Ordering::Relaxed) {
            self.rep_stored.store(true, Ordering::Relaxed);
        }
    }

    /// False if no path-keyed result was stored under `key` (true may be a false alarm).
    #[inline(always)]
    pub fn may_hold_rep(&self, key: u64) -> bool {
        let (word, bit) = Self::rep_filter_bit(key);
        self.rep_filter[word].load(Ordering::Relaxed) & bit != 0
    }

    /// The filter word and bit of a path-mixed key: its top bits.
    #[inline(always)]
    fn rep_filter_bit(key: u64) -> (usize, u64) {
        let b = key >> (64 - REP_FILTER_BITS);
        ((b >> 6) as usize, 1 << (b & 63))
    }

    /// A helper settled the root of search `epoch`: every thread on it can stop.
    pub fn settle(&self, epoch: u64, verdict: DfpnVerdict) {
        let code = match verdict {
            DfpnVerdict::Proven => 1,
            DfpnVerdict::Disproven => 2,
            DfpnVerdict::Unknown => return,
        };
        self.result.store(epoch << 2 | code, Ordering::SeqCst);
        self.stopped.store(epoch, Ordering::SeqCst);
    }

    /// What a helper found for search `epoch` (Unknown if nothing).
    pub fn settled(&self, epoch: u64) -> DfpnVerdict {
        let r = self.result.load(Ordering::SeqCst);
        match (r >> 2 == epoch, r & 3) {
            (true, 1) => DfpnVerdict::Proven,
            (true, 2) => DfpnVerdict::Disproven,
            _ => DfpnVerdict::Unknown,
        }
    }

    #[inline(always)]
    fn busy_slot(&self, key: u64) -> &AtomicU8 {
        &self.busy[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_BITS)) as usize]
    }

    /// Thread `id` enters (`on`) or leaves a node of full key `key`.
    #[inline(always)]
    pub fn mark(&self, key: u64, id: usize, on: bool) {
        let bit = 1u8 << id;
        if on {
            self.busy_slot(key).fetch_or(bit, Ordering::Relaxed);
        } else {
            self.busy_slot(key).fetch_and(!bit, Ordering::Relaxed);
        }
    }

    /// Whether a thread other than `id` has the node of full key `key` on its path.
    #[inline(always)]
    pub fn busy_elsewhere(&self, key: u64, id: usize) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) & !(1u8 << id) != 0
    }

    /// Whether a table asked for room or another thread is making it: the caller should call
    /// [`Shared::make_room`].
    #[inline(always)]
    pub fn room_wanted(&self) -> bool {
        self.tt.wants_room() || self.rep_tt.wants_room() || self.gate.closed()
    }

    /// Makes room in the tables that want it while no other thread uses them, or waits while
    /// another thread does. The caller has entered the gate.
    pub fn make_room(&self) {
        self.gate.alone(|| {
            self.tt.make_room();
            self.rep_tt.make_room();
        });
    }

    /// A thread starts using the tables (waits while another makes room).
    pub fn enter(&self) {
        self.gate.enter();
    }

    /// A thread stops using the tables.
    pub fn leave(&self) {
        self.gate.leave();
    }
}

/// A search an assistant can join.
#[derive(Clone)]
pub(super) struct Job {
    pub epoch: u64,
    pub pos: Position,
    pub bound: u16,
    pub trust_entry: bool,
}

/// Lets one thread at a time work on the tables alone. Threads inside the gate use the tables;
/// one that closes it waits until every other has stepped out (each does at its next node),
/// and none comes back in until it opens again.
#[derive(Default)]
struct Gate {
    inside: AtomicUsize,
    closed: AtomicBool,
}

impl Gate {
    fn enter(&self) {
        // Sequentially consistent on both sides (Dekker's pattern): either the closer sees
        // this thread inside and waits for it, or this thread sees the gate closed and backs
        // out.
        loop {
            while self.closed.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            self.inside.fetch_add(1, Ordering::SeqCst);
            if !self.closed.load(Ordering::SeqCst) {
                return;
            }
            self.inside.fetch_sub(1, Ordering::SeqCst);
        }
    }

    fn leave(&self) {
        self.inside.fetch_sub(1, Ordering::SeqCst);
    }

    #[inline(always)]
    fn closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// Runs `work` with every other thread outside, if this thread can close the gate; if
    /// another has closed it, waits outside until it opens. Either way the caller is inside
    /// again on return.
    fn alone(&self, work: impl FnOnce()) {
        if self
            .closed
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.inside.fetch_sub(1, Ordering::SeqCst);
            while self.inside.load(Ordering::SeqCst) != 0 {
                std::thread::yield_now();
            }
            work();
            self.inside.fetch_add(1, Ordering::SeqCst);
            self.closed.store(false, Ordering::SeqCst);
        } else {
            self.leave();
            self.enter();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// The filter in front of the path-keyed table never hides a stored entry, answers "no"
    /// for keys of an empty table, and forgets everything when the tables are cleared.
    #[test]
    fn the_path_keyed_filter_passes_every_stored_key() {
        use super::super::tt::{DEP_NONE, INF};
        let mut shared = Shared::new(1, 1);
        let keys: Vec<u64> = (1..=2_000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        assert!(
            keys.iter().all(|&k| !shared.may_hold_rep(k)),
            "an empty table holds nothing"
        );
        for &k in &keys {
            shared.store_rep(
                k,
                Record {
                    hand: soppo_core::Hand::EMPTY,
                    pn: INF,
                    dn: 0,
                    len: 9,
                    dep: DEP_NONE - 1,
                    work: 1,
                },
            );
        }
        assert!(shared.rep_stored.load(Ordering::Relaxed));
        assert!(
            keys.iter().all(|&k| shared.may_hold_rep(k)),
            "a stored key is never filtered out"
        );
        let found = keys
            .iter()
            .filter(|&&k| shared.rep_tt.probe_rep(k, soppo_core::Hand::EMPTY, 9).is_some())
            .count();
        assert_eq!(found, keys.len(), "each is found behind the filter");
        shared.clear();
        assert!(keys.iter().all(|&k| !shared.may_hold_rep(k)), "cleared with the tables");
    }

    /// While one thread holds the gate closed, no other thread is inside.
    #[test]
    fn the_gate_lets_one_thread_work_alone() {
        let gate = Gate::default();
        let working = AtomicBool::new(false);
        let overlaps = AtomicU32::new(0);
        let rounds = AtomicU32::new(0);
        std::thread::scope(|s| {
            for t in 0..3 {
                let (gate, working, overlaps, rounds) = (&gate, &working, &overlaps, &rounds);
                s.spawn(move || {
                    gate.enter();
                    for i in 0..2000 {
                        if (i + t) % 97 == 0 {
                            gate.alone(|| {
                                working.store(true, Ordering::SeqCst);
                                std::thread::yield_now();
                                working.store(false, Ordering::SeqCst);
                                rounds.fetch_add(1, Ordering::SeqCst);
                            });
                        } else if gate.closed() {
                            gate.leave();
                            gate.enter();
                        } else if working.load(Ordering::SeqCst) {
                            overlaps.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    gate.leave();
                });
            }
        });
        assert!(rounds.load(Ordering::SeqCst) > 0);
        assert_eq!(
            overlaps.load(Ordering::SeqCst),
            0,
            "a thread ran inside while another worked alone"
        );
        assert_eq!(gate.inside.load(Ordering::SeqCst), 0);
    }
}
