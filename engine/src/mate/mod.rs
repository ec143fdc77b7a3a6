//! The `go mate` solver: exact tsume answers.
//!
//! [`solve`] runs an exact tsume-rule search ([`exact`]) by iterative deepening over odd
//! lengths: the first length that holds is the shortest mate, the line takes the longest
//! counted defence, and useless interpositions are neither counted nor printed. The line is
//! re-verified ([`verify`]) before it is returned.
//!
//! When the exact search needs longer, df-pn ([`dfpn`]) decides whether there is a mate, and
//! then its length-bounded searches look for the shortest one ([`Dfpn::shortest_line`]). A
//! shortest line the verifier shows exact is a [`MateOutcome::Mate`]; a longer one (where the
//! exact check costs as much as the solving) is a [`MateOutcome::Shortest`]. A line short
//! enough for the exact search that the verifier cannot finish in its second is only a
//! fallback: the exact search gets another turn, as long as the answer has taken so far.

pub mod dfpn;
pub(crate) mod exact;
mod side_by_side;
pub mod verify;

use crate::search::SearchControl;
use dfpn::{Dfpn, DfpnStats, DfpnVerdict};
use exact::{Exact, Poll};
use soppo_core::movegen::{MoveList, generate_checks};
use soppo_core::{Move, Position};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// The tsume answer, verified: shortest mate, longest counted defence.
    Mate(Vec<Move>),
    /// A mate too long for the exact search, shown shortest by df-pn's bounded searches, with
    /// the longest defences: legal, all checks, mate under tsume rules at the end. It is the
    /// tsume answer unless some interposition counted as a defence is useless by the full rule
    /// (df-pn leaves out those whose capture mates at once; see [`dfpn`]).
    Shortest(Vec<Move>),
    /// A proven mating line that could not be shown shortest in the time given (df-pn's
    /// line: legal, all checks, mate under tsume rules at the end: no evasion but useless
    /// interpositions, which the line leaves out).
    Proven(Vec<Move>),
    NoMate,
    Timeout,
}

/// Progress of a mate search, for `info` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// The length (plies) the exact search has finished; 0 while df-pn works.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull_permille: u32,
    /// A mating line df-pn has proven (legal, all checks, mate at the end; not shown
    /// shortest), reported once when it is found, so that a GUI can show it while the exact
    /// search goes on.
    pub proven_line: Option<Vec<Move>>,
    /// While no mate is proven: the line df-pn's first proof is working on (see
    /// [`dfpn::LineWatcher`]) or, with one thread during its turn, the exact search's current
    /// path from the root; for a GUI to show as the current line. Not a proof.
    pub searching_line: Option<Vec<Move>>,
}

/// Longest mate the exact search looks for.
const MAX_PLIES: i32 = 255;

/// How the solver may use the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateConfig {
    /// Memory for the solver's tables, in MB.
    pub hash_mb: usize,
    /// With two threads or more, the exact search and df-pn run side by side from the start
    /// (each on its own thread) instead of taking turns.
    pub threads: usize,
    /// df-pn chains interposing drops (see [`Dfpn::set_drop_chains`]); false tries every
    /// drop side by side (`MateInterposition PerKind`).
    pub drop_chains: bool,
    /// The exact search treats the drops on one square as one super piece (Kitamura et al.);
    /// false searches each kind on its own (`MateSuperPiece false`). Answers are the same.
    pub super_piece: bool,
}

impl Default for MateConfig {
    fn default() -> Self {
        MateConfig {
            hash_mb: 256,
            threads: 1,
            drop_chains: true,
            super_piece: true,
        }
    }
}

/// Searches for a mate of the side to move under tsume rules with the default configuration.
/// `progress` is called after each length.
pub fn solve(
    pos: &Position,
    time_limit: Option<Duration>,
    control: &SearchControl,
    progress: impl FnMut(&MateProgress) + Send,
) -> MateOutcome {
    solve_with(pos, time_limit, &MateConfig::default(), control, progress)
}

/// Searches for a mate of the side to move under tsume rules.
pub fn solve_with(
    pos: &Position,
    time_limit: Option<Duration>,
    config: &MateConfig,
    control: &SearchControl,
    progress: impl FnMut(&MateProgress) + Send,
) -> MateOutcome {
    let start = Instant::now();
    let deadline = time_limit.map(|t| start + t);
    let mut checks = MoveList::new();
    generate_checks::<true>(pos, &mut checks);
    if checks.is_empty() {
        return MateOutcome::NoMate;
    }
    if config.threads >= 2 {
        return side_by_side::solve(pos, deadline, config, control, start, progress);
    }
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
    // What to answer if the exact search does not finish: df-pn's proven or shortest line.
    let mut fallback: Option<MateOutcome> = None;
    let mut exact_until: Option<Instant> = None;
    let mut dfpn_done = false;
    loop {
        match exact_deepening(&mut exact, &mut pos, &mut next, start, &mut { exact_report }) {
            Deepening::Found(len) => {
                // The answer is found: building and checking its line may take the rest of the
                // time, not just what was left of the exact search's first turn.
                phase_end.set(None);
                let mut line = Vec::new();
                exact.principal_line(&mut pos, len, &mut line);
                if exact.aborted {
                    return fallback.unwrap_or(MateOutcome::Timeout);
                }
                return match verify::verify_with(&mut exact, &pos, &line) {
                    Ok(()) => MateOutcome::Mate(line),
                    Err(e) => {
                        // Never print a line that fails the checks; this is a bug if it happens.
                        log::error!("mate line failed verification: {e}");
                        fallback.unwrap_or(MateOutcome::Timeout)
                    }
                };
            }
            Deepening::NoMate => return MateOutcome::NoMate,
            Deepening::Stopped if out_of_time() => {
                // A proven line that is not shown shortest is still a mate: better than nothing.
                return fallback.unwrap_or(MateOutcome::Timeout);
            }
            Deepening::Stopped if dfpn_done => return fallback.unwrap_or(MateOutcome::Timeout),
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
        match found.verdict {
            DfpnVerdict::Disproven => return MateOutcome::NoMate,
            DfpnVerdict::Proven => {
                if let Some(answer) = found.answer {
                    return answer;
                }
                // With df-pn's shortest line to fall back on (not shown to be the tsume answer),
                // the exact search goes on to the deadline; without one (`go mate infinite`) it
                // gets as long again as the answer has taken so far, so that the answer comes.
                if found.fallback.is_some() && deadline.is_none() {
                    exact_until = Some(Instant::now() + start.elapsed());
                }
                fallback = found.fallback.or(found.line.map(MateOutcome::Proven));
            }
            DfpnVerdict::Unknown if out_of_time() => return MateOutcome::Timeout,
            DfpnVerdict::Unknown => {}
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

enum Deepening {
    Found(i32),
    NoMate,
    Stopped,
}

/// Iterative deepening of the exact search over odd lengths from `*next`.
fn exact_deepening(
    exact: &mut Exact<'_>,
    pos: &mut Position,
    next: &mut i32,
    start: Instant,
    progress: &mut impl FnMut(&MateProgress),
) -> Deepening {
    while *next <= MAX_PLIES {
        let l = *next;
        let found = exact.or_node(pos, l);
        let cut_off = exact.take_cut_off();
        if exact.aborted {
            return Deepening::Stopped;
        }
        progress(&MateProgress {
            depth: l.unsigned_abs(),
            nodes: exact.nodes,
            elapsed: start.elapsed(),
            hashfull_permille: exact.hashfull_permille(),
            proven_line: None,
            searching_line: None,
        });
        if found {
            return Deepening::Found(l);
        }
        if !cut_off {
            return Deepening::NoMate;
        }
        *next += 2;
    }
    Deepening::Stopped
}

/// `first_proof` of [`run_dfpn`] when df-pn's first search ended without a proof.
const NO_PROOF: u32 = u32::MAX;

/// What df-pn found.
struct DfpnAnswer {
    verdict: DfpnVerdict,
    /// A mating line checked move by move (not shown shortest).
    line: Option<Vec<Move>>,
    /// A final answer from the bounded searches ([`shortest_answer`]).
    answer: Option<MateOutcome>,
    /// The answer to give if the exact search does not finish: df-pn's shortest line when the
    /// verifier ran out of time before showing it exact.
    fallback: Option<MateOutcome>,
}

impl DfpnAnswer {
    const UNKNOWN: DfpnAnswer = DfpnAnswer {
        verdict: DfpnVerdict::Unknown,
        line: None,
        answer: None,
        fallback: None,
    };
}

/// df-pn's part of an answer: decides whether there is a mate; if there is, reports a mating
/// line (`on_line`) and then, until `stop` returns true or for half the time left before
/// `deadline`, looks for the shortest mate ([`Dfpn::shortest_line`]). The other half may go to
/// tightening a line that was not shown shortest.
fn run_dfpn(
    dfpn: &mut Dfpn,
    pos: &Position,
    deadline: Option<Instant>,
    stop: &mut dyn FnMut(&DfpnStats) -> bool,
    on_line: &mut dyn FnMut(&[Move], &DfpnStats),
    first_proof: &AtomicU32,
) -> DfpnAnswer {
    let verdict = dfpn.solve(pos, u64::MAX, stop);
    let proven = dfpn.proven_length(pos).filter(|_| verdict == DfpnVerdict::Proven);
    first_proof.store(proven.map_or(NO_PROOF, u32::from), Ordering::SeqCst);
    if verdict != DfpnVerdict::Proven {
        return DfpnAnswer {
            verdict,
            line: None,
            answer: None,
            fallback: None,
        };
    }
    let line = dfpn
        .mate_line_until(pos, stop)
        .filter(|l| verify::verify_mating_line(pos, l).is_ok());
    if let Some(line) = &line {
        on_line(line, &dfpn.stats());
    }
    // The length of the last line shown: the shortening's lines are shown only when shorter.
    let mut shown = line.as_ref().map_or(usize::MAX, Vec::len);
    // A long proof is seldom shown shortest in the time a user gives, and a line whose
    // defender replies are only "longest stored" often ends early. Such a line is tightened
    // first (small searches: it is the answer a solver that does not prove shortness gives),
    // and the bounded shortening gets the time that is left. Short proofs go the other way:
    // their shortening usually finishes at once and is exact. So do huge ones: a walk of
    // a thousand plies costs about as much as the shortening, and it is better done once,
    // from the shortened bound (Microcosmos: 1529 plies at 150 s tightened first, 1525 after).
    let first_len = dfpn.proven_length(pos);
    let mut better = None;
    let tighten_first = first_len
        .is_some_and(|l| usize::from(l) > verify::EXACT_CHECK_MAX_PLIES && usize::from(l) <= TIGHTEN_FIRST_MAX_PLIES);
    if tighten_first && line.is_some() {
        better = first_len
            .and_then(|l| dfpn.tightened_line(pos, l, stop))
            .filter(|l| verify::verify_moves_and_mate(pos, l).is_ok());
        if let Some(l) = &better {
            on_line(l, &dfpn.stats());
            shown = l.len();
        }
    }
    // The shortening gets half the time left, the tightening walk the rest; but while the
    // shortening's line lasts its whole bound, no walk can give a longer defence within that
    // bound, so the shortening keeps the time, up to the deadline.
    let shorten_until = deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / 2
    });
    let mut shorten_stop = |stats: &DfpnStats| {
        stop(stats) || (!stats.line_fills_bound && shorten_until.is_some_and(|u| Instant::now() >= u))
    };
    // Each shorter line that lasts its bound is shown as it is found (once its moves and final
    // mate are checked): on a long problem the shortening is most of the time (Microcosmos:
    // the 1525-ply line at 34 s of 60).
    let mut on_shorter = |l: &[Move], stats: &DfpnStats| {
        if l.len() < shown && verify::verify_moves_and_mate(pos, l).is_ok() {
            on_line(l, stats);
            shown = l.len();
        }
    };
    let Some(short) = dfpn.shortest_line_reporting(pos, &mut shorten_stop, &mut on_shorter) else {
        return DfpnAnswer {
            verdict,
            line: better.or(line),
            answer: None,
            fallback: None,
        };
    };
    // A line not shown shortest may let the defender give up early (its replies are the
    // longest stored, not shown longest). If time is left, small searches tighten the
    // replies' proofs and walk the line again; that line, when the walk is not cut short by
    // the time limit and passes the move checks, is the answer. Otherwise df-pn's first line
    // is kept unless there is none. A line tightened before is walked again only if the
    // shortening has since proved a shorter mate than that line.
    // A line as long as its bound is kept as it is: the attacker mates within the bound
    // whatever the defender does, so no walk can make the defence last longer. (Microcosmos:
    // the shortening's 1525-ply line, where the walk took another 9 s to find the same length.)
    let bound = usize::from(short.bound);
    // The shortening's line is an answer only once its moves and final mate are checked.
    let unshown_ok = !short.shortest && {
        let ok = verify::verify_moves_and_mate(pos, &short.line).is_ok();
        if !ok {
            // Never happens unless there is a bug; the line is not used.
            log::error!("df-pn's bounded line does not mate");
        }
        ok
    };
    let fills_bound = unshown_ok && short.line.len() == bound;
    let needs_tightening = !short.shortest && !fills_bound && better.as_ref().is_none_or(|b| bound < b.len());
    if needs_tightening && !stop(&dfpn.stats()) {
        // It may take the rest of the time: the line is the answer either way.
        let tighter = dfpn
            .tightened_line(pos, short.bound, stop)
            .filter(|l| verify::verify_moves_and_mate(pos, l).is_ok());
        if let Some(l) = &tighter {
            on_line(l, &dfpn.stats());
        }
        better = tighter.or(better);
    }
    let unshown = unshown_ok.then(|| short.line.clone());
    if fills_bound && bound < shown && better.as_ref().is_none_or(|b| b.len() != bound) {
        // It will be the answer (see `unshown_answer`).
        on_line(&short.line, &dfpn.stats());
    }
    // Showing a line exact costs about what the exact search would have needed to find it,
    // and that search has already had its turn: the verifier gets a second at most.
    let verify_until = Instant::now() + VERIFY_TIME;
    let mut verify_stop = || {
        let now = Instant::now();
        stop(&DfpnStats::default()) || now >= verify_until
    };
    match shortest_answer(pos, short, &mut verify_stop) {
        ShortAnswer::Final(answer) => DfpnAnswer {
            verdict,
            line,
            answer: Some(answer),
            fallback: None,
        },
        ShortAnswer::Fallback(answer) => DfpnAnswer {
            verdict,
            line,
            answer: None,
            fallback: Some(answer),
        },
        ShortAnswer::Line(short) => {
            on_line(&short, &dfpn.stats());
            DfpnAnswer {
                verdict,
                line: Some(short),
                answer: None,
                fallback: None,
            }
        }
        ShortAnswer::Nothing => DfpnAnswer {
            verdict,
            line: match unshown {
                Some(short) => unshown_answer(line, better, short, bound),
                None => better.or(line),
            },
            answer: None,
            fallback: None,
        },
    }
}

/// The answer when no line was shown shortest, from df-pn's first line, the tightened line
/// and the shortening's line, whose attacker mates within `bound` plies against any defence.
/// A line that lasts that whole bound comes first: a longer one has the attacker miss a
/// quicker mate, a shorter one has the defender give up before the proof says it must. A
/// tightened line of the same length is kept (its replies were checked by small searches).
/// Otherwise the tightened line, then the first line, then the shortening's.
fn unshown_answer(
    first: Option<Vec<Move>>,
    tightened: Option<Vec<Move>>,
    short: Vec<Move>,
    bound: usize,
) -> Option<Vec<Move>> {
    if short.len() == bound && tightened.as_ref().is_none_or(|t| t.len() != bound) {
        return Some(short);
    }
    tightened.or(first).or(Some(short))
}

/// What a line from [`Dfpn::shortest_line`] is worth.
enum ShortAnswer {
    /// The answer to print.
    Final(MateOutcome),
    /// The answer to print unless the exact search, which can reach this length, finds the
    /// tsume answer in the time left.
    Fallback(MateOutcome),
    /// The shortest mating line under df-pn's counting, not the tsume answer (the verifier
    /// finds a useless interposition counted as a defence).
    Line(Vec<Move>),
    Nothing,
}

/// A df-pn line shown shortest becomes the answer once it passes the tsume verifier: up to
/// [`verify::EXACT_CHECK_MAX_PLIES`] plies the verifier shows it exact ([`MateOutcome::Mate`]);
/// longer, or when showing it exact takes more than the time or budget, its moves and final
/// mate are checked ([`MateOutcome::Shortest`]). A line the verifier finds not exact (an
/// interposition it counts is useless by the full rule) is still a mating line.
fn shortest_answer(pos: &Position, short: dfpn::ShortLine, stop: &mut dyn FnMut() -> bool) -> ShortAnswer {
    if !short.shortest {
        // Checked by the caller, which may still answer with it (see `unshown_answer`).
        return ShortAnswer::Nothing;
    }
    if verify::verify_moves_and_mate(pos, &short.line).is_err() {
        // Never happens unless there is a bug; the line is not used.
        log::error!("df-pn's bounded line does not mate");
        return ShortAnswer::Nothing;
    }
    match verify::verify_until(pos, &short.line, stop) {
        Ok(()) if short.line.len() <= verify::EXACT_CHECK_MAX_PLIES => {
            ShortAnswer::Final(MateOutcome::Mate(short.line))
        }
        Ok(()) => ShortAnswer::Final(MateOutcome::Shortest(short.line)),
        // Not shown exact in time. A line the exact search can reach may still hide a useless
        // interposition counted as a defence: that search goes on, with this line to fall back on.
        Err(e) if e.is_stopped() && short.line.len() <= verify::EXACT_CHECK_MAX_PLIES => {
            ShortAnswer::Fallback(MateOutcome::Shortest(short.line))
        }
        Err(e) if e.is_stopped() => ShortAnswer::Final(MateOutcome::Shortest(short.line)),
        Err(e) => {
            log::debug!("df-pn's shortest line is not the tsume answer: {e}");
            ShortAnswer::Line(short.line)
        }
    }
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
) -> DfpnAnswer {
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
                run_dfpn(&mut dfpn, pos, deadline, &mut stop, &mut on_line, &AtomicU32::new(0))
            });
        let Ok(worker) = worker else {
            return DfpnAnswer::UNKNOWN;
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
        worker.join().unwrap_or(DfpnAnswer::UNKNOWN)
    })
}

/// Longest first proof whose line is tightened before the bounded shortening (see
/// [`run_dfpn`]).
const TIGHTEN_FIRST_MAX_PLIES: usize = 511;

/// Longest the verifier may try to show a df-pn shortest line exact.
const VERIFY_TIME: Duration = Duration::from_secs(1);

/// A progress report of df-pn (no length to show), counting `other_nodes` (the exact
/// search's) too.
fn dfpn_progress(
    stats: &DfpnStats,
    other_nodes: u64,
    start: Instant,
    proven_line: Option<Vec<Move>>,
    searching_line: Option<Vec<Move>>,
) -> MateProgress {
    MateProgress {
        depth: 0,
        nodes: stats.nodes + other_nodes,
        elapsed: start.elapsed(),
        hashfull_permille: stats.hashfull_permille,
        proven_line,
        searching_line,
    }
}

/// How often df-pn's first proof reports its progress and the line it works on.
const LINE_REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// When df-pn's first report comes, after its start: a GUI shows a line at once.
const FIRST_LINE_AFTER: Duration = Duration::from_millis(50);

/// The time of a "last report" that makes the first report due `first` from now, and the
/// later ones every [`LINE_REPORT_INTERVAL`].
fn first_line_clock(first: Duration) -> Instant {
    let now = Instant::now();
    now.checked_sub(LINE_REPORT_INTERVAL.saturating_sub(first))
        .unwrap_or(now)
}

/// When the exact search's first report of its line comes (one thread; with two, df-pn's
/// line comes [`FIRST_LINE_AFTER`] after its [`DFPN_DELAY`](side_by_side::DFPN_DELAY)): a GUI
/// shows a line at once.
const EXACT_FIRST_LINE_AFTER: Duration = Duration::from_millis(100);

/// The longest start of `line` that is legal from `root`. The exact search's current line
/// may go on through a position that exists only under a super piece (a dropped piece kept in
/// hand, another kind in its place); such moves are not shown.
pub(crate) fn legal_prefix(root: &Position, line: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut legal = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal_move(m) {
            break;
        }
        pos.do_move(m);
        legal.push(m);
    }
    legal
}

#[cfg(test)]
mod interposition_set;
#[cfg(test)]
mod tests;
