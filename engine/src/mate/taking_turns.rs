//! One thread: the exact search and df-pn take turns. The exact search runs first (see
//! [`exact_first_budget`]); when it needs longer, df-pn decides whether there is a mate and
//! looks for the shortest one ([`run_dfpn`], on a thread of its own with a deep stack), then
//! the exact search resumes where it stopped, with df-pn's line to fall back on.

use super::answer::{Candidate, DfpnOutcome, FirstProofCell};
use super::dfpn::{self, Dfpn, DfpnStats};
use super::dfpn_answer::run_dfpn;
use super::exact::{Exact, Poll};
use super::progress::{
    Deepening, EXACT_FIRST_LINE_AFTER, FIRST_LINE_AFTER, LINE_REPORT_INTERVAL, dfpn_progress, exact_answer,
    exact_deepening, first_line_clock, legal_prefix,
};
use super::{MateConfig, MateOutcome, MateProgress};
use crate::search::SearchControl;
use soppo_core::{Move, Position};
use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

/// Solves `pos` on this thread, the exact search and df-pn taking turns (see the module
/// notes).
pub(super) fn solve(
    pos: &Position,
    time_limit: Option<Duration>,
    deadline: Option<Instant>,
    config: &MateConfig,
    control: &SearchControl,
    start: Instant,
    progress: impl FnMut(&MateProgress) + Send,
) -> MateOutcome {
    let attacker = pos.side_to_move();
    let phase_end: Cell<Option<Instant>> = Cell::new(Some(start + exact_first_budget(time_limit)));
    let out_of_time = || control.stop_requested() || deadline.is_some_and(|d| Instant::now() >= d);
    // The exact search's stop callback reports the line it works on, as df-pn does, so that a
    // GUI has a line to show before df-pn's turn; both report through this one callback.
    let progress = RefCell::new(progress);
    // What the reports have said so far: the most nodes, and whether a proven line was shown.
    let (reported_nodes, proven_shown) = (Cell::new(0u64), Cell::new(false));
    // A `Copy` closure: `&mut { report }` below lends a copy where a `FnMut` is wanted.
    let report = |p: &MateProgress| {
        reported_nodes.set(reported_nodes.get().max(p.nodes));
        proven_shown.set(proven_shown.get() || p.proven_line.is_some());
        (*progress.borrow_mut())(p);
    };
    // df-pn's nodes, added to the exact search's own counts once it resumes after df-pn's
    // turn (df-pn's reports already include the exact search's), so that the count a GUI
    // shows never goes down.
    let dfpn_nodes = Cell::new(0u64);
    let exact_report = |p: &MateProgress| {
        report(&MateProgress {
            nodes: p.nodes + dfpn_nodes.get(),
            ..p.clone()
        });
    };
    let root = pos.clone();
    let mut last_report = first_line_clock(EXACT_FIRST_LINE_AFTER);
    let mut stop = |poll: &Poll| {
        if !poll.line.is_empty() && last_report.elapsed() >= LINE_REPORT_INTERVAL {
            last_report = Instant::now();
            exact_report(&MateProgress {
                depth: 0,
                nodes: poll.nodes,
                elapsed: start.elapsed(),
                hashfull_permille: poll.hashfull_permille(),
                proven_line: None,
                // Once a mating line is shown, the exact search's unfinished line would only
                // replace it on the GUI's screen with one that does not mate.
                searching_line: (!proven_shown.get()).then(|| legal_prefix(&root, poll.line)),
            });
        }
        out_of_time() || phase_end.get().is_some_and(|e| Instant::now() >= e)
    };
    let mut exact = Exact::new(attacker, (config.hash_mb / 4).max(1), &mut stop);
    exact.set_super_piece(config.super_piece);
    let mut pos = pos.clone();
    let mut next = 1;
    // What to answer if the exact search does not finish: df-pn's best line.
    let mut held: Option<Candidate> = None;
    let mut exact_until: Option<Instant> = None;
    let mut dfpn_done = false;
    loop {
        match exact_deepening(&mut exact, &mut pos, &mut next, start, &mut { exact_report }) {
            Deepening::Found(len) => {
                // The answer is found: building and checking its line may take the rest of the
                // time, not just what was left of the exact search's first turn.
                phase_end.set(None);
                let found = exact_answer(&mut exact, &mut pos, len);
                return Candidate::answer(Candidate::better(held, found));
            }
            Deepening::NoMate => return MateOutcome::NoMate,
            // Out of time, or the exact search's last turn is over: a proven line that is not
            // shown shortest is still a mate, better than nothing.
            Deepening::Stopped if out_of_time() || dfpn_done => return Candidate::answer(held),
            Deepening::Stopped => {}
        }
        // The exact search needs longer: let df-pn decide whether there is a mate at all, then
        // look for the shortest one for half the time left.
        dfpn_done = true;
        let found = prove(
            &pos,
            config,
            &out_of_time,
            deadline,
            start,
            &mut { report },
            exact.nodes,
        );
        dfpn_nodes.set(reported_nodes.get().saturating_sub(exact.nodes));
        if found.is_final() {
            return found.into_answer();
        }
        match found {
            DfpnOutcome::Mate(candidate) => {
                // With df-pn's shortest line held (not shown to be the tsume answer), the exact
                // search goes on to the deadline; without one (`go mate infinite`) it gets as
                // long again as the answer has taken so far, so that the answer comes.
                if matches!(candidate, Some(Candidate::UncheckedShortest(_))) && deadline.is_none() {
                    exact_until = Some(Instant::now() + start.elapsed());
                }
                held = candidate;
            }
            DfpnOutcome::Unknown if out_of_time() => return MateOutcome::Timeout,
            DfpnOutcome::Unknown | DfpnOutcome::NoMate => {}
        }
        phase_end.set(exact_until);
        exact.resume();
    }
}

/// How long the exact search runs before df-pn is asked whether a mate exists at all.
fn exact_first_budget(time_limit: Option<Duration>) -> Duration {
    let cap = Duration::from_secs(2);
    time_limit.map_or(cap, |t| (t / 4).min(cap))
}

/// Runs [`run_dfpn`] on a thread with a deep stack (proofs can be thousands of plies long),
/// forwarding its progress.
fn prove(
    pos: &Position,
    config: &MateConfig,
    out_of_time: &(dyn Fn() -> bool + Sync),
    deadline: Option<Instant>,
    start: Instant,
    progress: &mut impl FnMut(&MateProgress),
    exact_nodes: u64,
) -> DfpnOutcome {
    let (tx, rx) = std::sync::mpsc::channel::<MateProgress>();
    let hash_mb = (config.hash_mb - config.hash_mb / 4).max(1);
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("soppo-dfpn".into())
            .stack_size(dfpn::STACK_BYTES)
            .spawn_scoped(scope, move || {
                let mut dfpn = Dfpn::new(hash_mb);
                dfpn.set_drop_chains(config.drop_chains);
                let watcher = dfpn.line_watcher();
                let mut last_report = first_line_clock(FIRST_LINE_AFTER);
                let mut stop = |stats: &DfpnStats| {
                    if last_report.elapsed() >= LINE_REPORT_INTERVAL {
                        last_report = Instant::now();
                        let line = watcher.current_line();
                        let searching = (!line.is_empty()).then_some(line);
                        let _ = tx.send(dfpn_progress(stats, exact_nodes, start, None, searching));
                    }
                    out_of_time()
                };
                let report_tx = tx.clone();
                let mut on_line = |line: &[Move], stats: &DfpnStats| {
                    let _ = report_tx.send(dfpn_progress(stats, exact_nodes, start, Some(line.to_vec()), None));
                };
                run_dfpn(
                    &mut dfpn,
                    pos,
                    deadline,
                    &mut stop,
                    &mut on_line,
                    &FirstProofCell::new(),
                )
            });
        let Ok(worker) = worker else {
            return DfpnOutcome::Unknown;
        };
        // Progress is forwarded from this thread: the caller's callback need not be `Send`.
        while !worker.is_finished() {
            if let Ok(p) = rx.recv_timeout(Duration::from_millis(20)) {
                progress(&p);
            }
        }
        while let Ok(p) = rx.try_recv() {
            progress(&p);
        }
        worker.join().unwrap_or(DfpnOutcome::Unknown)
    })
}
