//! The search's table: its size against what the machine can hold ([`crate::memory`]), made
//! resident at `isready` within a deadline, emptied between games.

use super::Controller;
use crate::memory::TableMemory;
use crate::tt::TranspositionTable;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long `isready` may spend making a new search table resident: a table the system cannot
/// fault in faster is made smaller. ShogiArena's compliance check wants `readyok` within 5 s,
/// ShogiHome and ShogiArena give up after 10 s (`research/usi-protocol.md` §1, §7).
pub(super) const TABLE_READY_TIME: Duration = Duration::from_secs(3);

/// What becomes of the part of a new table the system could not fault in by its deadline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum LateTable {
    /// At `isready`: the table shrinks to what is resident, so no search pays for the rest.
    Shrink,
    /// Inside a `go`'s time: the table keeps its size and the searches fault the rest in.
    Lazy,
}

impl<W: Write> Controller<W> {
    /// Makes the search's table the size `USI_Hash` asks for, as far as the machine allows
    /// (see [`crate::memory`]), resident by `deadline` or as `late` says, and says in an
    /// `info string` when it could not.
    pub(super) fn ensure_tt(&mut self, deadline: Instant, late: LateTable) {
        let asked = self.options.hash_mb;
        if self.tt.is_some() && self.tt_asked_mb == asked {
            return;
        }
        let limit = TableMemory::of_this_machine();
        let held = self.tt.as_ref().map_or(0, |t| t.size_mb());
        let allowed = hash_mb_allowed(asked, limit, held);
        if allowed < asked
            && let Some(limit) = limit
        {
            self.emit_info(&format!(
                "USI_Hash {asked} MiB is more than this machine can hold: its tables get at most {allowed} MiB ({})",
                limit.explain(held)
            ));
        }
        // The new table is mapped before the old one goes: a mapping takes no memory until its
        // pages are touched, and a size the system refuses then leaves the old table in place.
        let mut size = TranspositionTable::size_mb_for(allowed);
        let mut refused = None;
        let table = loop {
            match TranspositionTable::try_new(size) {
                Ok(t) => break Some(t),
                Err(e) if size > 1 => {
                    refused.get_or_insert((size, e));
                    size = TranspositionTable::size_mb_for(size / 2);
                }
                Err(e) => {
                    refused.get_or_insert((size, e));
                    break None;
                }
            }
        };
        match (table, refused) {
            (Some(mut table), refused) => {
                if let Some((tried, e)) = refused {
                    self.emit_info(&format!(
                        "USI_Hash {asked} MiB: a {tried} MiB table could not be allocated ({e}); the table has {} MiB",
                        table.size_mb()
                    ));
                }
                // Drop the old table first so both are never resident together.
                self.tt = None;
                // Its pages are faulted in now rather than by the first searches: with a
                // gigabyte faulted in while searching, the first moves at byoyomi 200 took
                // 240–570 ms against a budget of 160. Nothing else runs now, so every core
                // helps; and what the system cannot fault in by the deadline is not kept.
                let mapped = table.size_mb();
                let threads = self.clear_threads().max(idle_cores());
                if !table.make_resident_until(threads, deadline, late == LateTable::Shrink) && late == LateTable::Shrink
                {
                    self.emit_info(&format!(
                        "USI_Hash {asked} MiB: the system could not make {mapped} MiB resident within {} s; the table has {} MiB",
                        TABLE_READY_TIME.as_secs(),
                        table.size_mb()
                    ));
                }
                self.tt = Some(Arc::new(table));
                self.tt_asked_mb = asked;
            }
            (None, refused) => {
                let why = refused.map_or_else(String::new, |(_, e)| e.to_string());
                let kept = self.tt.as_ref().map_or_else(
                    || "the search runs with a 1 MiB table".to_owned(),
                    |t| format!("the previous {} MiB table is kept", t.size_mb()),
                );
                self.emit_info(&format!(
                    "USI_Hash {asked} MiB: no table could be allocated ({why}); {kept}"
                ));
                // Not asked again at every `isready`: only a new `USI_Hash` tries again.
                self.tt_asked_mb = asked;
            }
        }
    }

    /// Empties the search table if a search has used it. (Every search thread is joined
    /// before its answer goes out, so between searches the controller's handle is the only
    /// one and the fast clear applies, unless a worker was given up on.)
    pub(super) fn clear_tt(&mut self) {
        let threads = self.clear_threads();
        let Some(tt) = self.tt.as_mut() else { return };
        if !tt.is_dirty() {
            return;
        }
        match Arc::get_mut(tt) {
            Some(alone) => alone.clear_exclusive(threads),
            None => tt.clear(),
        }
    }

    /// Threads for emptying a table the search may still be using: as many as it may use.
    fn clear_threads(&self) -> usize {
        usize::try_from(self.options.threads).unwrap_or(1).max(1)
    }
}

/// What `USI_Hash` (MiB) may have on a machine with this memory limit, while the engine holds
/// `held_mb` MiB of tables it lets go first (see [`crate::memory`]).
pub(super) fn hash_mb_allowed(asked: u64, limit: Option<TableMemory>, held_mb: u64) -> u64 {
    limit.map_or(asked, |l| asked.min(l.usable_mb(held_mb))).max(1)
}

/// The cores that can share work while no search runs (at `isready`).
pub(super) fn idle_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}
