//! Two threads or more: df-pn decides existence on its own thread while the exact search looks
//! for the tsume answer on the caller's. A disproof ends both; an exact answer ends both; a
//! df-pn proof is kept as the fallback answer while the exact search goes on until the
//! deadline.
//!
//! [`SideBySide`] holds what both threads see; [`ExactThread`] is the exact search's side,
//! whose [`Phase`] says how far it has lent its thread to df-pn.

use super::answer::{Candidate, DfpnOutcome, FirstProofCell};
use super::dfpn::{self, Assistant, Dfpn, DfpnStats};
use super::dfpn_answer::run_dfpn;
use super::exact::{Exact, Poll};
use super::progress::{
    Deepening, FIRST_LINE_AFTER, LINE_REPORT_INTERVAL, dfpn_progress, exact_answer, exact_deepening, first_line_clock,
};
use super::{MateConfig, MateOutcome, MateProgress};
use crate::search::SearchControl;
use soppo_core::{Move, Position};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The df-pn nodes after which a first proof still not found gets the exact search's thread
/// (see [`assist_after`]). A proof found in parallel is as sound, but a different one each
/// time, and the tightened lines walked from it were worse: Shogi Zuko 99 (847 k nodes alone)
/// printed 111 to 119 plies at 4 to 6 s with the help against 117 without. Proofs this large
/// (Microcosmos, 23 M nodes) are where the second thread pays most.
const ASSIST_MIN_DFPN_NODES: u64 = 2_000_000;

/// The df-pn nodes after which a first proof still not found makes the exact search pause
/// until it is (see [`ExactThread::wants_to_pause`]).
const PAUSE_MIN_DFPN_NODES: u64 = 250_000;

/// How long the exact search runs alone before df-pn joins it.
pub(super) const DFPN_DELAY: Duration = Duration::from_millis(50);

/// With two threads or more: how long the exact search runs on its own thread at least before
/// it lends that thread to df-pn's first proof (and goes on after it); the proof must also
/// have taken [`ASSIST_MIN_DFPN_NODES`]. Most problems the exact search can answer at all it
/// answers within this time; the long ones need the proof.
fn assist_after(time_limit: Option<Duration>) -> Duration {
    let cap = Duration::from_millis(500);
    time_limit.map_or(cap, |t| (t / 8).min(cap))
}

/// Solves `pos` with the exact search on this thread and df-pn on `config.threads - 1` others
/// (see the module notes).
pub(super) fn solve(
    pos: &Position,
    deadline: Option<Instant>,
    config: &MateConfig,
    control: &SearchControl,
    start: Instant,
    mut progress: impl FnMut(&MateProgress) + Send,
) -> MateOutcome {
    let solve = SideBySide::new(deadline, control, start, &mut progress);
    let hash_mb = (config.hash_mb - config.hash_mb / 4).max(1);
    let mut dfpn = Dfpn::new(hash_mb);
    dfpn.set_drop_chains(config.drop_chains);
    // The exact search has a thread of its own; df-pn gets the others.
    dfpn.set_threads(config.threads - 1);
    let mut assistant = dfpn.assistant();
    std::thread::scope(|scope| {
        let solve = &solve;
        let worker = std::thread::Builder::new()
            .name("soppo-dfpn".into())
            .stack_size(dfpn::STACK_BYTES)
            .spawn_scoped(scope, move || solve.dfpn_thread(&mut dfpn, pos));
        let exact_answer = ExactThread::new(solve).run(pos, config, &mut assistant);
        // Without an answer (out of time, or every length up to the longest tried), df-pn
        // goes on until its own verdict or the deadline.
        if exact_answer.is_some() {
            solve.exact_done.store(true, Ordering::Relaxed);
        }
        let found = worker.ok().and_then(|w| w.join().ok()).unwrap_or(DfpnOutcome::Unknown);
        exact_answer.unwrap_or_else(|| found.into_answer())
    })
}

/// What both threads of a side-by-side solve see.
struct SideBySide<'a> {
    deadline: Option<Instant>,
    control: &'a SearchControl,
    start: Instant,
    /// Both threads report: the exact search its lengths, df-pn its proven line.
    progress: Mutex<&'a mut (dyn FnMut(&MateProgress) + Send)>,
    /// The exact search has its answer: df-pn can stop.
    exact_done: AtomicBool,
    /// df-pn disproved the mate, or found an answer by itself: the exact search can stop.
    disproven: AtomicBool,
    dfpn_nodes: AtomicU64,
    dfpn_hashfull: AtomicU32,
    exact_nodes: AtomicU64,
    /// Once df-pn holds a shortest line the exact search may still improve on, the exact
    /// search gets as long again as the answer has taken so far: until this time.
    exact_until: OnceLock<Instant>,
    /// How df-pn's first search ended, once it has.
    first_proof: FirstProofCell,
    /// Whether df-pn has its answer.
    dfpn_finished: AtomicBool,
    /// When the exact search may stop to help df-pn (see [`assist_after`]).
    assist_at: Instant,
}

impl<'a> SideBySide<'a> {
    fn new(
        deadline: Option<Instant>,
        control: &'a SearchControl,
        start: Instant,
        progress: &'a mut (dyn FnMut(&MateProgress) + Send),
    ) -> Self {
        SideBySide {
            deadline,
            control,
            start,
            progress: Mutex::new(progress),
            exact_done: AtomicBool::new(false),
            disproven: AtomicBool::new(false),
            dfpn_nodes: AtomicU64::new(0),
            dfpn_hashfull: AtomicU32::new(0),
            exact_nodes: AtomicU64::new(0),
            exact_until: OnceLock::new(),
            first_proof: FirstProofCell::new(),
            dfpn_finished: AtomicBool::new(false),
            assist_at: start + assist_after(deadline.map(|d| d.saturating_duration_since(start))),
        }
    }

    fn out_of_time(&self) -> bool {
        self.control.stop_requested() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether df-pn should stop: out of time, or the exact search has its answer.
    fn dfpn_stop(&self) -> bool {
        self.out_of_time() || self.exact_done.load(Ordering::Relaxed)
    }

    /// Hands `p` to the caller's progress callback (from either thread).
    fn report(&self, p: &MateProgress) {
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        (*progress)(p);
    }

    /// df-pn's part on its own thread: [`run_dfpn`] after [`DFPN_DELAY`], with its progress
    /// reported and its results told to the exact search.
    fn dfpn_thread(&self, dfpn: &mut Dfpn, pos: &Position) -> DfpnOutcome {
        // Most problems are answered by the exact search within milliseconds; setting up
        // df-pn's table (zero-filled, hundreds of MB) would cost more than that.
        let begun = Instant::now();
        while begun.elapsed() < DFPN_DELAY {
            if self.dfpn_stop() {
                return DfpnOutcome::Unknown;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // While the first proof runs, the line it works on is reported once a second (the
        // exact search reports its lengths, without a line, in between).
        let watcher = dfpn.line_watcher();
        let mut last_report = first_line_clock(FIRST_LINE_AFTER);
        let mut stop = |stats: &DfpnStats| {
            self.dfpn_nodes.store(stats.nodes, Ordering::Relaxed);
            self.dfpn_hashfull.store(stats.hashfull_permille, Ordering::Relaxed);
            if self.first_proof.get().is_none() && last_report.elapsed() >= LINE_REPORT_INTERVAL {
                last_report = Instant::now();
                let line = watcher.current_line();
                if !line.is_empty() {
                    self.report(&dfpn_progress(
                        stats,
                        self.exact_nodes.load(Ordering::Relaxed),
                        self.start,
                        None,
                        Some(line),
                    ));
                }
            }
            self.dfpn_stop()
        };
        let mut on_line = |line: &[Move], stats: &DfpnStats| {
            self.report(&dfpn_progress(
                stats,
                self.exact_nodes.load(Ordering::Relaxed),
                self.start,
                Some(line.to_vec()),
                None,
            ));
        };
        let found = run_dfpn(dfpn, pos, self.deadline, &mut stop, &mut on_line, &self.first_proof);
        if found.is_final() {
            self.disproven.store(true, Ordering::Relaxed);
        } else if matches!(found.candidate(), Some(Candidate::UncheckedShortest(_))) && self.deadline.is_none() {
            // As with one thread: the exact search goes on to the deadline, or as long again
            // as the answer has taken when there is none.
            let _ = self.exact_until.set(Instant::now() + self.start.elapsed());
        }
        self.dfpn_finished.store(true, Ordering::SeqCst);
        found
    }

    /// While the exact search's thread helps df-pn: whether to stop helping (the first proof
    /// is done when it helps only that one, df-pn has its answer, or the time is up). Reports
    /// progress once a second meanwhile, `last_report` being the milliseconds from the start
    /// of the last report.
    fn done_helping(&self, for_good: bool, last_report: &AtomicU64) -> bool {
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        if now >= last_report.load(Ordering::Relaxed) + 1000 {
            last_report.store(now, Ordering::Relaxed);
            self.report(&MateProgress {
                depth: 0,
                nodes: self.exact_nodes.load(Ordering::Relaxed) + self.dfpn_nodes.load(Ordering::Relaxed),
                elapsed: self.start.elapsed(),
                hashfull_permille: self.dfpn_hashfull.load(Ordering::Relaxed),
                proven_line: None,
                searching_line: None,
            });
        }
        (!for_good && self.first_proof.get().is_some())
            || self.dfpn_finished.load(Ordering::Relaxed)
            || self.out_of_time()
            || self.disproven.load(Ordering::Relaxed)
    }
}

/// How far the exact search's thread has lent itself to df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// It has not lent its thread yet: it may pause for df-pn's first proof, or help it.
    Searching,
    /// It helped df-pn's first proof and went on where it stopped; it may still lend its
    /// thread for good to a proof longer than it ever reaches.
    HelpedFirstProof,
    /// It lends its thread no more: it builds and checks its answer, or its thread went to
    /// df-pn for good.
    Settled,
}

/// The exact search's side of a [`SideBySide`] solve, on the caller's thread. Its phase is
/// read by the search's stop callback while the search holds that callback, hence a `Cell`.
struct ExactThread<'s, 'a> {
    solve: &'s SideBySide<'a>,
    phase: Cell<Phase>,
}

impl<'s, 'a> ExactThread<'s, 'a> {
    fn new(solve: &'s SideBySide<'a>) -> Self {
        ExactThread {
            solve,
            phase: Cell::new(Phase::Searching),
        }
    }

    /// Whether the exact search should lend its thread to df-pn now: to a first proof that
    /// is taking long, or for good to a proof longer than the exact search ever reaches (the
    /// bounded shortening then gets both threads).
    fn wants_to_assist(&self) -> bool {
        let s = self.solve;
        self.phase.get() != Phase::Settled
            && Instant::now() >= s.assist_at
            && match s.first_proof.get() {
                None => {
                    self.phase.get() == Phase::Searching
                        && s.dfpn_nodes.load(Ordering::Relaxed) >= ASSIST_MIN_DFPN_NODES
                }
                Some(proof) => proof.beyond_exact_reach(),
            }
    }

    /// Whether the exact search should step aside while df-pn's first proof runs: the proof
    /// is large (the problem is long, beyond the exact search's reach) but not yet large
    /// enough for the exact search to help it ([`ExactThread::wants_to_assist`]). Both
    /// searches live in memory, and beside the exact search the proof took about a sixth
    /// longer (Shogi Zuko 99); a proof of this size is what answers such problems.
    fn wants_to_pause(&self) -> bool {
        let s = self.solve;
        self.phase.get() == Phase::Searching
            && s.first_proof.get().is_none()
            && (PAUSE_MIN_DFPN_NODES..ASSIST_MIN_DFPN_NODES).contains(&s.dfpn_nodes.load(Ordering::Relaxed))
            && Instant::now() >= s.assist_at
    }

    /// While [`ExactThread::wants_to_pause`], waits (inside the exact search's poll, which
    /// then goes on where it was) until the first proof is done, grows large enough for
    /// [`ExactThread::wants_to_assist`], or the time is up; otherwise returns at once.
    fn pause_for_first_proof(&self) {
        let s = self.solve;
        while self.wants_to_pause() && !s.out_of_time() && !s.disproven.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The exact search's stop callback.
    fn stop(&self, poll: &Poll) -> bool {
        let s = self.solve;
        s.exact_nodes.store(poll.nodes, Ordering::Relaxed);
        self.pause_for_first_proof();
        s.out_of_time()
            || s.disproven.load(Ordering::Relaxed)
            || s.exact_until.get().is_some_and(|&until| Instant::now() >= until)
            || self.wants_to_assist()
    }

    /// The exact search's answer: the tsume answer, or no mate; `None` if it has none (out of
    /// time, stopped by df-pn's answer, or every length up to the longest tried).
    fn run(&self, pos: &Position, config: &MateConfig, assistant: &mut Assistant) -> Option<MateOutcome> {
        let s = self.solve;
        let mut stop = |poll: &Poll| self.stop(poll);
        let mut exact = Exact::new(pos.side_to_move(), (config.hash_mb / 4).max(1), &mut stop);
        exact.set_super_piece(config.super_piece);
        let mut p = pos.clone();
        let mut next = 1;
        let mut report = |m: &MateProgress| {
            s.report(&MateProgress {
                nodes: m.nodes + s.dfpn_nodes.load(Ordering::Relaxed),
                ..m.clone()
            });
        };
        loop {
            match exact_deepening(&mut exact, &mut p, &mut next, s.start, &mut report) {
                Deepening::Found(len) => {
                    // Building and checking the line must not stop to assist df-pn.
                    self.phase.set(Phase::Settled);
                    return exact_answer(&mut exact, &mut p, len).map(Candidate::into_outcome);
                }
                Deepening::NoMate => return Some(MateOutcome::NoMate),
                Deepening::Stopped
                    if self.wants_to_assist() && !s.out_of_time() && !s.disproven.load(Ordering::Relaxed) =>
                {
                    // A first proof that takes long gets this thread too, and the exact search
                    // goes on where it stopped once the proof is done; a proof the exact
                    // search cannot reach gets the thread until df-pn has its answer.
                    let for_good = s.first_proof.get().is_some();
                    self.phase.set(if for_good {
                        Phase::Settled
                    } else {
                        Phase::HelpedFirstProof
                    });
                    self.assist(assistant, for_good);
                    exact.resume();
                }
                Deepening::Stopped => return None,
            }
        }
    }

    /// Lends this thread to df-pn's searches until [`SideBySide::done_helping`].
    fn assist(&self, assistant: &mut Assistant, for_good: bool) {
        let s = self.solve;
        // While this thread helps, it goes on reporting progress once a second.
        let last_report = AtomicU64::new(0);
        let done = || s.done_helping(for_good, &last_report);
        // A thread of its own for the deep recursion (this one's stack is the caller's); the
        // borrow ends with the scope.
        std::thread::scope(|inner| {
            let _ = std::thread::Builder::new()
                .name("soppo-dfpn-assistant".into())
                .stack_size(dfpn::STACK_BYTES)
                .spawn_scoped(inner, move || assistant.assist(&done));
        });
    }
}
