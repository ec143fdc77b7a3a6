//! Parallel search: helper threads that search beside the owner on the shared tables
//! ([`Dfpn::set_threads`]), an assistant that another thread lends for a while
//! ([`Dfpn::assistant`]), and the watcher that shows another thread the line a first proof is
//! on ([`Dfpn::line_watcher`]).

use super::shared::Shared;
use super::{Dfpn, DfpnStats, DfpnVerdict};
use soppo_core::{Move, Position};
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

/// Threads of a parallel search at most (a bit each in the busy marks).
pub const MAX_THREADS: usize = 8;

/// Searches smaller than this run on one thread: starting the others would cost more.
pub(super) const PARALLEL_MIN_NODES: u64 = 100_000;

/// Stack of a searching thread: the recursion goes [`MAX_DEPTH`] deep (address space only;
/// pages are touched as the search deepens).
///
/// [`MAX_DEPTH`]: super::search::MAX_DEPTH
pub const STACK_BYTES: usize = 1 << 30;

/// Reads the line a [`Dfpn`] is working on from another thread (see [`Dfpn::line_watcher`]).
pub struct LineWatcher {
    shared: Arc<Shared>,
}

impl LineWatcher {
    /// The moves from the root of the first proof under way to the node df-pn was searching
    /// at its last poll (every few thousand nodes); empty when no first proof is under way.
    pub fn current_line(&self) -> Vec<Move> {
        self.shared.published_line()
    }
}

/// A thread's share in another thread's df-pn searches (see [`Dfpn::assistant`]). Run it on a
/// thread with a stack of [`STACK_BYTES`].
pub struct Assistant {
    worker: Dfpn,
}

impl Assistant {
    /// Works on the owner's current search, then on each that follows, until `done` returns
    /// true (polled every few thousand nodes, and every millisecond while no search runs).
    pub fn assist(&mut self, done: &(dyn Fn() -> bool + Sync)) {
        let shared = Arc::clone(&self.worker.shared);
        shared.assistants.fetch_add(1, Ordering::SeqCst);
        let mut last = 0;
        while !done() {
            let job = shared
                .job
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone()
                .filter(|j| j.epoch != last && shared.stopped.load(Ordering::SeqCst) != j.epoch);
            let Some(mut job) = job else {
                std::thread::sleep(std::time::Duration::from_millis(1));
                continue;
            };
            last = job.epoch;
            self.worker.epoch = job.epoch;
            let w = &mut self.worker;
            w.work_on(&mut job.pos, job.bound, u64::MAX, &mut |_| done(), job.trust_entry);
        }
        shared.assistants.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Dfpn {
    /// A handle that shows, from any thread, the line this solver's first proof
    /// ([`Dfpn::solve`]) is working on: df-pn's current path from the root, each attacker move
    /// the check that looks nearest to mate and each defender move the reply that looks
    /// hardest to refute (the most-proving path). It is what a GUI can show while no mate is
    /// proven yet; it is not a proof.
    pub fn line_watcher(&self) -> LineWatcher {
        LineWatcher {
            shared: Arc::clone(&self.shared),
        }
    }

    /// How many threads search together (1: this one alone). Searches of fewer than
    /// [`PARALLEL_MIN_NODES`] nodes always run on one thread.
    pub fn set_threads(&mut self, threads: usize) {
        // The last id is the assistant's.
        let threads = threads.clamp(1, MAX_THREADS - 1);
        self.helpers.truncate(threads - 1);
        while self.helpers.len() < threads - 1 {
            let mut h = Self::worker(Arc::clone(&self.shared), self.helpers.len() + 1);
            h.settings = self.settings;
            self.helpers.push(h);
        }
    }

    /// A helper for another thread: [`Assistant::assist`] joins this prover's searches (those
    /// of at least [`PARALLEL_MIN_NODES`] nodes) on the shared tables until told to stop.
    pub fn assistant(&self) -> Assistant {
        let mut worker = Self::worker(Arc::clone(&self.shared), MAX_THREADS - 1);
        worker.settings = self.settings;
        Assistant { worker }
    }

    /// [`Dfpn::search_from`] on this thread and the helpers' at once, on the shared tables.
    /// Each thread runs the whole search; the busy marks steer them apart (see [`Dfpn::mid`]),
    /// and what one stores the others find. The first to settle the root ends the others.
    pub(super) fn search_together(
        &mut self,
        pos: &mut Position,
        bound: u16,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) -> DfpnVerdict {
        let threads = self.helpers.len() as u64 + 1;
        let budget = (max_nodes / threads).max(1);
        let epoch = self.epoch;
        let mut helpers = std::mem::take(&mut self.helpers);
        let verdict = std::thread::scope(|scope| {
            for h in &mut helpers {
                let mut p = pos.clone();
                let spawned = std::thread::Builder::new()
                    .name("soppo-dfpn-helper".into())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        h.epoch = epoch;
                        h.work_on(&mut p, bound, budget, &mut |_| false, trust_entry);
                    });
                // Without a thread (the system refused one) the others search without it.
                drop(spawned);
            }
            self.together = true;
            let verdict = self.search_alone(pos, bound, budget, stop, trust_entry);
            self.shared.stopped.store(epoch, Ordering::SeqCst);
            verdict
        });
        self.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        verdict
    }

    /// A helper's or an assistant's part in search `self.epoch`: the whole search from `pos`
    /// beside the owner's, on the shared tables; a verdict on the root ends every thread's.
    fn work_on(
        &mut self,
        pos: &mut Position,
        bound: u16,
        budget: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) {
        self.together = true;
        let verdict = self.search_alone(pos, bound, budget, stop, trust_entry);
        self.together = false;
        self.shared
            .helper_nodes
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed);
        self.reported = self.nodes;
        self.shared.settle(self.epoch, verdict);
    }
}
