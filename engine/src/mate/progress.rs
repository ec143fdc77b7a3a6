//! What both solves share: the exact search's iterative deepening, which reports each length
//! it finishes, the answer it gives, and the reports of the lines being searched.

use super::MateProgress;
use super::answer::{Candidate, MateLength};
use super::dfpn::DfpnStats;
use super::exact::Exact;
use super::verify;
use soppo_core::{Move, Position};
use std::time::{Duration, Instant};

/// Longest mate the exact search looks for.
const MAX_PLIES: i32 = 255;

/// How [`exact_deepening`] ended.
pub(super) enum Deepening {
    /// A mate of this length: the shortest.
    Found(MateLength),
    /// No mate at any length (no length was cut off by the depth bound).
    NoMate,
    /// Stopped, or every length up to [`MAX_PLIES`] tried.
    Stopped,
}

/// Iterative deepening of the exact search over odd lengths from `*next`.
pub(super) fn exact_deepening(
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
            // `l` is odd and at most `MAX_PLIES`.
            return Deepening::Found(MateLength::new(l.unsigned_abs() as usize).expect("an odd length"));
        }
        if !cut_off {
            return Deepening::NoMate;
        }
        *next += 2;
    }
    Deepening::Stopped
}

/// The exact search's answer once [`exact_deepening`] found the shortest mate's length: its
/// line, built and verified with the search's own table. `None` when the search was stopped
/// meanwhile, or (a bug if it happens) the line fails the verifier: a line that fails is
/// never printed.
pub(super) fn exact_answer(exact: &mut Exact<'_>, pos: &mut Position, len: MateLength) -> Option<Candidate> {
    let mut line = Vec::new();
    exact.principal_line(pos, i32::try_from(len.plies()).unwrap_or(i32::MAX), &mut line);
    if exact.aborted {
        return None;
    }
    match verify::verify_answer_with(exact, pos, &line) {
        Ok(()) => Some(Candidate::Exact(line)),
        Err(e) => {
            log::error!("mate line failed verification: {e}");
            None
        }
    }
}

/// A progress report of df-pn (no length to show), counting `other_nodes` (the exact
/// search's) too.
pub(super) fn dfpn_progress(
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
pub(super) const LINE_REPORT_INTERVAL: Duration = Duration::from_secs(1);

/// When df-pn's first report comes, after its start: a GUI shows a line at once.
pub(super) const FIRST_LINE_AFTER: Duration = Duration::from_millis(50);

/// The time of a "last report" that makes the first report due `first` from now, and the
/// later ones every [`LINE_REPORT_INTERVAL`].
pub(super) fn first_line_clock(first: Duration) -> Instant {
    let now = Instant::now();
    now.checked_sub(LINE_REPORT_INTERVAL.saturating_sub(first))
        .unwrap_or(now)
}

/// When the exact search's first report of its line comes (one thread; with two, df-pn's
/// line comes [`FIRST_LINE_AFTER`] after its [`DFPN_DELAY`](super::side_by_side::DFPN_DELAY)): a GUI
/// shows a line at once.
pub(super) const EXACT_FIRST_LINE_AFTER: Duration = Duration::from_millis(100);

/// The longest start of `line` that is legal from `root`. The exact search's current line
/// may go on through a position that exists only under a super piece (a dropped piece kept in
/// hand, another kind in its place); such moves are not shown.
pub(super) fn legal_prefix(root: &Position, line: &[Move]) -> Vec<Move> {
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
