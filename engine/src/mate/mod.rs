//! The `go mate` solver: exact tsume answers.
//!
//! [`solve`] runs an exact tsume-rule search ([`exact`]) by iterative deepening over odd
//! lengths: the first length that holds is the shortest mate, the line takes the longest
//! counted defence, and useless interpositions are neither counted nor printed. The line is
//! re-verified ([`verify()`] with [`Claim::Answer`]) before it is returned.
//!
//! When the exact search needs longer, df-pn ([`dfpn`]) decides whether there is a mate, and
//! then its length-bounded searches look for the shortest one ([`Dfpn::shortest_line`]). A
//! shortest line the verifier shows exact is a [`MateOutcome::Mate`]; a longer one (where the
//! exact check costs as much as the solving) is a [`MateOutcome::Shortest`]. A line short
//! enough for the exact search that the verifier cannot finish in its second is only a
//! fallback: the exact search gets another turn, as long as the answer has taken so far.
//!
//! With one thread the two searches take turns ([`taking_turns`]); with two or more they run
//! side by side from the start ([`side_by_side`]). df-pn's part is the same either way
//! ([`dfpn_answer`]), and so are the exact search's deepening and the reports ([`progress`]).
//! Which line wins is decided in one place, [`answer`]: each search offers a candidate, and
//! the order of the candidate kinds is the preference.
//!
//! This file is the module's whole API: [`solve`] and [`solve_with`] with [`MateConfig`],
//! [`MateOutcome`] and [`MateProgress`]; whether a position is a mate problem at all
//! ([`not_a_problem`]); a composer's check of a problem along its main line
//! ([`check_problem`]); and the verifier's check of a line against what it
//! claims ([`verify()`], [`Claim`], [`VerifyError`]). The solver's parts on their own, for
//! measurements and tests, are in `lab`, built only with the `lab` feature (which
//! `soppo-tools` turns on) and for the engine's own tests.
//!
//! [`Dfpn::shortest_line`]: dfpn::Dfpn::shortest_line

mod answer;
mod compose;
mod dfpn;
mod dfpn_answer;
mod exact;
#[cfg(any(test, feature = "lab"))]
pub mod lab;
mod problem;
mod progress;
mod side_by_side;
mod taking_turns;
mod verify;

pub use compose::{CheckError, CheckLimits, CheckReport, Flaw, FlawKind, Question, Undecided, check_problem};
pub use problem::{NotAProblem, not_a_problem};
pub use verify::{Claim, VerifyError, verify};

use crate::search::SearchControl;
use soppo_core::movegen::{MoveList, generate_checks};
use soppo_core::{Move, Position};
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

impl MateOutcome {
    /// Checks the answer's line against what its kind claims: a [`MateOutcome::Mate`] is the
    /// tsume answer ([`Claim::Answer`]); a [`MateOutcome::Shortest`] is too, except that where
    /// showing it exact takes more than the verifier's budget its moves and final mate are
    /// checked ([`Claim::TsumeMate`]); a [`MateOutcome::Proven`] line mates under tsume rules.
    /// An answer without a line passes.
    ///
    /// # Errors
    /// Where and why the line fails its claim.
    pub fn verify(&self, root: &Position) -> Result<(), VerifyError> {
        match self {
            MateOutcome::Mate(line) => verify(root, line, Claim::Answer),
            MateOutcome::Shortest(line) => match verify(root, line, Claim::Answer) {
                Err(e) if e.is_stopped() => verify(root, line, Claim::TsumeMate),
                other => other,
            },
            MateOutcome::Proven(line) => verify(root, line, Claim::TsumeMate),
            MateOutcome::NoMate | MateOutcome::Timeout => Ok(()),
        }
    }
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
    ///
    /// [`Dfpn::set_drop_chains`]: dfpn::Dfpn::set_drop_chains
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

/// Searches for a mate of the side to move under tsume rules. A position that is not a mate
/// problem ([`not_a_problem`]) has none.
pub fn solve_with(
    pos: &Position,
    time_limit: Option<Duration>,
    config: &MateConfig,
    control: &SearchControl,
    progress: impl FnMut(&MateProgress) + Send,
) -> MateOutcome {
    let start = Instant::now();
    let deadline = time_limit.map(|t| start + t);
    if not_a_problem(pos).is_some() {
        return MateOutcome::NoMate;
    }
    let mut checks = MoveList::new();
    generate_checks::<true>(pos, &mut checks);
    if checks.is_empty() {
        return MateOutcome::NoMate;
    }
    if config.threads >= 2 {
        return side_by_side::solve(pos, deadline, config, control, start, progress);
    }
    taking_turns::solve(pos, time_limit, deadline, config, control, start, progress)
}

#[cfg(test)]
mod tests;
