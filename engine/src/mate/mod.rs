//! The `go mate` solver: exact tsume answers.
//!
//! [`solve`] runs an exact tsume-rule search ([`exact`]) by iterative deepening over odd
//! lengths: the first length that holds is the shortest mate, the line takes the longest
//! counted defence, and useless interpositions are neither counted nor printed. The line is
//! re-verified ([`verify`]) before it is returned.

pub(crate) mod exact;
pub mod verify;

use crate::search::SearchControl;
use exact::Exact;
use soppo_core::movegen::{MoveList, generate_checks};
use soppo_core::{Move, Position};
use std::time::{Duration, Instant};

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    Mate(Vec<Move>),
    NoMate,
    Timeout,
}

/// Progress of a mate search, for `info` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// The length (plies) being searched.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull_permille: u32,
}

/// Longest mate the exact search looks for.
const MAX_PLIES: i32 = 255;

/// How the solver may use the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateConfig {
    /// Memory for the solver's tables, in MB.
    pub hash_mb: usize,
}

impl Default for MateConfig {
    fn default() -> Self {
        MateConfig { hash_mb: 256 }
    }
}

/// Searches for a mate of the side to move under tsume rules with the default configuration.
/// `progress` is called after each length.
pub fn solve(
    pos: &Position,
    time_limit: Option<Duration>,
    control: &SearchControl,
    progress: impl FnMut(&MateProgress),
) -> MateOutcome {
    solve_with(pos, time_limit, &MateConfig::default(), control, progress)
}

/// Searches for a mate of the side to move under tsume rules.
pub fn solve_with(
    pos: &Position,
    time_limit: Option<Duration>,
    config: &MateConfig,
    control: &SearchControl,
    mut progress: impl FnMut(&MateProgress),
) -> MateOutcome {
    let start = Instant::now();
    let deadline = time_limit.map(|t| start + t);
    let mut checks = MoveList::new();
    generate_checks::<true>(pos, &mut checks);
    if checks.is_empty() {
        return MateOutcome::NoMate;
    }
    let mut stop = |_nodes: u64| control.stop_requested() || deadline.is_some_and(|d| Instant::now() >= d);
    let mut exact = Exact::new(pos.side_to_move(), config.hash_mb, &mut stop);
    let mut pos = pos.clone();
    let mut l = 1;
    while l <= MAX_PLIES {
        let found = exact.or_node(&mut pos, l);
        let cut_off = exact.take_cut_off();
        if exact.aborted {
            return MateOutcome::Timeout;
        }
        progress(&MateProgress {
            depth: l.unsigned_abs(),
            nodes: exact.nodes,
            elapsed: start.elapsed(),
            hashfull_permille: exact.hashfull_permille(),
        });
        if found {
            let mut line = Vec::new();
            exact.principal_line(&mut pos, l, &mut line);
            if exact.aborted {
                return MateOutcome::Timeout;
            }
            return match verify::verify_with(&mut exact, &pos, &line) {
                Ok(()) => MateOutcome::Mate(line),
                Err(e) => {
                    // Never print a line that fails the checks; this is a bug if it happens.
                    log::error!("mate line failed verification: {e}");
                    MateOutcome::Timeout
                }
            };
        }
        if !cut_off {
            return MateOutcome::NoMate;
        }
        l += 2;
    }
    MateOutcome::Timeout
}

#[cfg(test)]
mod tests;
