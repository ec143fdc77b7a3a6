//! df-pn's part of an answer, with either solve: the first proof, its line, the bounded
//! shortening ([`Dfpn::shortest_line`]) and the tightened walks, and which [`Candidate`]
//! their lines make.

use super::answer::{Candidate, DfpnOutcome, FirstProof, FirstProofCell, MateLength};
use super::dfpn::{self, Dfpn, DfpnStats, DfpnVerdict};
use super::verify::{self, Claim};
use soppo_core::{Move, Position};
use std::time::{Duration, Instant};

/// df-pn's part of an answer: decides whether there is a mate; if there is, reports a mating
/// line (`on_line`) and then, until `stop` returns true or for half the time left before
/// `deadline`, looks for the shortest mate ([`Dfpn::shortest_line`]). The other half may go to
/// tightening a line that was not shown shortest.
pub(super) fn run_dfpn(
    dfpn: &mut Dfpn,
    pos: &Position,
    deadline: Option<Instant>,
    stop: &mut dyn FnMut(&DfpnStats) -> bool,
    on_line: &mut dyn FnMut(&[Move], &DfpnStats),
    first_proof: &FirstProofCell,
) -> DfpnOutcome {
    let verdict = dfpn.solve(pos, u64::MAX, stop);
    let proven = dfpn
        .proven_length(pos)
        .filter(|_| verdict == DfpnVerdict::Proven)
        .and_then(|l| MateLength::new(usize::from(l)));
    // Set once, here: a cell set before would be a second solve on it, which none is.
    let _ = first_proof.set(proven.map_or(FirstProof::None, FirstProof::Proven));
    match verdict {
        DfpnVerdict::Proven => {}
        DfpnVerdict::Disproven => return DfpnOutcome::NoMate,
        DfpnVerdict::Unknown => return DfpnOutcome::Unknown,
    }
    let line = dfpn
        .mate_line_until(pos, stop)
        .filter(|l| verify::verify(pos, l, Claim::Checkmate).is_ok());
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
            .filter(|l| verify::verify(pos, l, Claim::TsumeMate).is_ok());
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
        if l.len() < shown && verify::verify(pos, l, Claim::TsumeMate).is_ok() {
            on_line(l, stats);
            shown = l.len();
        }
    };
    let Some(short) = dfpn.shortest_line_reporting(pos, &mut shorten_stop, &mut on_shorter) else {
        return DfpnOutcome::Mate(better.or(line).map(Candidate::Proven));
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
        let ok = verify::verify(pos, &short.line, Claim::TsumeMate).is_ok();
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
            .filter(|l| verify::verify(pos, l, Claim::TsumeMate).is_ok());
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
    let candidate = match shortest_answer(pos, short, &mut verify_stop) {
        ShortAnswer::Candidate(c) => Some(c),
        ShortAnswer::Line(short) => {
            on_line(&short, &dfpn.stats());
            Some(Candidate::Proven(short))
        }
        ShortAnswer::Nothing => match unshown {
            Some(short) => unshown_answer(line, better, short, bound),
            None => better.or(line),
        }
        .map(Candidate::Proven),
    };
    DfpnOutcome::Mate(candidate)
}

/// The answer when no line was shown shortest, from df-pn's first line, the tightened line
/// and the shortening's line, whose attacker mates within `bound` plies against any defence.
/// A line that lasts that whole bound comes first: a longer one has the attacker miss a
/// quicker mate, a shorter one has the defender give up before the proof says it must. A
/// tightened line of the same length is kept (its replies were checked by small searches).
/// Otherwise the tightened line, then the first line, then the shortening's.
pub(super) fn unshown_answer(
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
#[derive(Debug)]
pub(super) enum ShortAnswer {
    /// A line shown shortest and checked: [`Candidate::Exact`] or [`Candidate::Shortest`]
    /// (final), or [`Candidate::UncheckedShortest`] (the exact search, which can reach this
    /// length, may still find the tsume answer in the time left).
    Candidate(Candidate),
    /// The shortest mating line under df-pn's counting, not the tsume answer (the verifier
    /// finds a useless interposition counted as a defence).
    Line(Vec<Move>),
    Nothing,
}

/// A df-pn line shown shortest becomes the answer once it passes the tsume verifier: up to
/// [`verify::EXACT_CHECK_MAX_PLIES`] plies the verifier shows it exact ([`Candidate::Exact`]);
/// longer, or when showing it exact takes more than the time or budget, its moves and final
/// mate are checked ([`Candidate::Shortest`]). A line the verifier finds not exact (an
/// interposition it counts is useless by the full rule) is still a mating line.
pub(super) fn shortest_answer(pos: &Position, short: dfpn::ShortLine, stop: &mut dyn FnMut() -> bool) -> ShortAnswer {
    if !short.shortest {
        // Checked by the caller, which may still answer with it (see `unshown_answer`).
        return ShortAnswer::Nothing;
    }
    if verify::verify(pos, &short.line, Claim::TsumeMate).is_err() {
        // Never happens unless there is a bug; the line is not used.
        log::error!("df-pn's bounded line does not mate");
        return ShortAnswer::Nothing;
    }
    let within_reach = short.line.len() <= verify::EXACT_CHECK_MAX_PLIES;
    ShortAnswer::Candidate(match verify::verify_until(pos, &short.line, Claim::Answer, stop) {
        Ok(()) if within_reach => Candidate::Exact(short.line),
        Ok(()) => Candidate::Shortest(short.line),
        // Not shown exact in time. A line the exact search can reach may still hide a useless
        // interposition counted as a defence: that search goes on, with this line held.
        Err(e) if e.is_stopped() && within_reach => Candidate::UncheckedShortest(short.line),
        Err(e) if e.is_stopped() => Candidate::Shortest(short.line),
        Err(e) => {
            log::debug!("df-pn's shortest line is not the tsume answer: {e}");
            return ShortAnswer::Line(short.line);
        }
    })
}

/// Longest first proof whose line is tightened before the bounded shortening (see
/// [`run_dfpn`]).
const TIGHTEN_FIRST_MAX_PLIES: usize = 511;

/// Longest the verifier may try to show a df-pn shortest line exact.
const VERIFY_TIME: Duration = Duration::from_secs(1);
