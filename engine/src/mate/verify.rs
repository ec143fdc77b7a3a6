//! Re-verification of a mate line before it is printed.
//!
//! Lines longer than [`EXACT_CHECK_MAX_PLIES`] get the legality, check and final-mate tests
//! only.
//!
//! A line passes when it has an odd number of plies, every move is legal, every attacker move
//! gives check, and the final position is mate under tsume rules (no evasion except useless
//! interpositions). Under tsume rules it must also be exact: at every attacker move the
//! remaining length is the shortest mate, and every defender move is a counted defence (never a
//! useless interposition) of the longest length available.

use super::exact::{Exact, Poll};
use soppo_core::{Move, Position};
use std::fmt;

/// Why a line is not a correct tsume answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The ply (0-based) where the line goes wrong.
    pub ply: usize,
    pub reason: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: {}", self.ply + 1, self.reason)
    }
}

impl std::error::Error for VerifyError {}

/// The reason given when the verifier's search was stopped or ran out of budget.
const STOPPED: &str = "verification was stopped";

impl VerifyError {
    /// Whether the verifier gave up (budget or stop) rather than found a fault.
    pub fn is_stopped(&self) -> bool {
        self.reason == STOPPED
    }
}

/// Checks `line` from `root` (attacker to move) as a tsume answer.
///
/// # Errors
/// The first ply where the line is illegal, not a check, not shortest, not the longest counted
/// defence, a useless interposition, or does not end in mate; or where the node budget ran out.
pub fn verify(root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    verify_until(root, line, &mut || false)
}

/// [`verify`] that gives up (an error, never a pass) when `stop` returns true.
///
/// # Errors
/// As [`verify`], or "verification was stopped".
pub fn verify_until(root: &Position, line: &[Move], stop: &mut dyn FnMut() -> bool) -> Result<(), VerifyError> {
    // Showing a line shortest can cost as much as finding it: give up after a budget (an
    // error, never a pass).
    let mut budget = |p: &Poll| p.nodes >= VERIFY_NODE_BUDGET || stop();
    let mut exact = Exact::new(root.side_to_move(), 64, &mut budget);
    verify_with(&mut exact, root, line)
}

/// Checks `line` from `root` as a mating line under game rules: an odd number of plies, every
/// move legal, every attacker move a check, checkmate at the end. This is what a df-pn line
/// not shown shortest is held to.
///
/// # Errors
/// The first ply where the line is illegal or not a check, or the end if it is not checkmate.
pub fn verify_mating_line(root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    if line.len().is_multiple_of(2) {
        return Err(even_length(line.len()));
    }
    let mut pos = root.clone();
    play_checks(&mut pos, line)?;
    if !pos.is_checkmate() {
        return Err(VerifyError {
            ply: line.len(),
            reason: "the final position is not checkmate".into(),
        });
    }
    Ok(())
}

/// Checks `line` from `root` as a mating line under tsume rules without showing it shortest:
/// an odd number of plies, every move legal, every attacker move a check, and mate under
/// tsume rules at the end (no evasion but useless interpositions).
///
/// # Errors
/// The first ply where the line is illegal or not a check, or the end if it is not mate.
pub fn verify_moves_and_mate(root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    if line.len().is_multiple_of(2) {
        return Err(even_length(line.len()));
    }
    let mut pos = root.clone();
    play_checks(&mut pos, line)?;
    let mut budget = |p: &Poll| p.nodes >= VERIFY_NODE_BUDGET;
    let mut exact = Exact::new(root.side_to_move(), 16, &mut budget);
    if exact.and_node(&mut pos, 0) {
        Ok(())
    } else {
        Err(VerifyError {
            ply: line.len(),
            reason: if exact.aborted {
                STOPPED
            } else {
                "the final position is not mate"
            }
            .into(),
        })
    }
}

fn even_length(len: usize) -> VerifyError {
    VerifyError {
        ply: len,
        reason: format!("a mate has an odd number of plies, not {len}"),
    }
}

/// Plays `line` on `pos`, checking that every move is legal and every attacker move checks.
fn play_checks(pos: &mut Position, line: &[Move]) -> Result<(), VerifyError> {
    for (ply, &m) in line.iter().enumerate() {
        if !pos.is_legal_move(m) {
            return Err(VerifyError {
                ply,
                reason: format!("{m} is not legal"),
            });
        }
        pos.do_move(m);
        if ply.is_multiple_of(2) && !pos.in_check() {
            return Err(VerifyError {
                ply,
                reason: format!("{m} does not give check"),
            });
        }
    }
    Ok(())
}

/// Nodes [`verify`] may search before it gives up.
pub const VERIFY_NODE_BUDGET: u64 = 20_000_000;

/// Lines longer than this are checked for legality, checks and the final mate only: showing
/// a long line shortest at every ply costs as much as finding it.
pub const EXACT_CHECK_MAX_PLIES: usize = 31;

pub(crate) fn verify_with(exact: &mut Exact<'_>, root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    // A search cut short by the budget or a stop proves nothing either way.
    verify_plies(exact, root, line).map_err(|e| {
        if exact.aborted {
            VerifyError {
                ply: e.ply,
                reason: STOPPED.into(),
            }
        } else {
            e
        }
    })
}

fn verify_plies(exact: &mut Exact<'_>, root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    let fail = |ply: usize, reason: String| Err(VerifyError { ply, reason });
    if line.len().is_multiple_of(2) {
        return Err(even_length(line.len()));
    }
    let mut pos = root.clone();
    let len = i32::try_from(line.len()).unwrap_or(i32::MAX);
    if line.len() > EXACT_CHECK_MAX_PLIES {
        // Legality, checks and a final mate under tsume rules only.
        play_checks(&mut pos, line)?;
        return if exact.and_node(&mut pos, 0) {
            Ok(())
        } else {
            fail(line.len(), "the final position is not mate".into())
        };
    }
    for (ply, &m) in line.iter().enumerate() {
        let remaining = len - i32::try_from(ply).unwrap_or(i32::MAX);
        if !pos.is_legal_move(m) {
            return fail(ply, format!("{m} is not legal"));
        }
        if ply.is_multiple_of(2) {
            if !exact.or_node(&mut pos, remaining) {
                return fail(ply, format!("no mate in {remaining} plies here"));
            }
            if remaining > 2 && exact.or_node(&mut pos, remaining - 2) {
                return fail(ply, format!("a mate shorter than {remaining} plies exists here"));
            }
            pos.do_move(m);
            if !pos.in_check() {
                return fail(ply, format!("{m} does not give check"));
            }
            if !exact.and_node(&mut pos, remaining - 1) {
                return fail(ply, format!("{m} does not mate in {remaining} plies"));
            }
        } else {
            if !exact.longest_defences(&mut pos, remaining).contains(&m) {
                return fail(
                    ply,
                    format!("{m} is not a longest counted defence (useless interposition, or mated sooner)"),
                );
            }
            pos.do_move(m);
        }
        if exact.aborted {
            return fail(ply, STOPPED.into());
        }
    }
    if !exact.and_node(&mut pos, 0) {
        return fail(line.len(), "the final position is not mate".into());
    }
    Ok(())
}
