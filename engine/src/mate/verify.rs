//! Re-verification of a mate line before it is printed: one check per [`Claim`] a line makes,
//! and one error type ([`VerifyError`]) saying where and why a line fails its claim.

use super::exact::{Exact, Poll};
use soppo_core::{Move, Position};
use std::fmt;

/// What a line claims, and so what [`verify`] holds it to. Every claim includes the moves:
/// an odd number of plies, every move legal, every attacker move a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The tsume answer: at every attacker move the remaining length is the shortest mate, and
    /// every defender move is a counted defence (never a useless interposition) of the longest
    /// length available; mate under tsume rules at the end. A line longer than
    /// [`EXACT_CHECK_MAX_PLIES`] is held to [`Claim::TsumeMate`] only: showing a long line
    /// shortest at every ply costs as much as finding it.
    Answer,
    /// A mate under tsume rules at the end: no evasion but useless interpositions (which a
    /// tsume line leaves out). What a proven line not shown shortest promises.
    TsumeMate,
    /// Checkmate under game rules at the end.
    Checkmate,
}

/// Why a line fails its [`Claim`]. `ply` is 0-based; the message counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The verifier's search was stopped or ran out of its node budget: nothing is shown
    /// either way.
    Stopped {
        ply: usize,
    },
    /// A mate has an odd number of plies.
    EvenLength {
        plies: usize,
    },
    Illegal {
        ply: usize,
        mv: Move,
    },
    NotCheck {
        ply: usize,
        mv: Move,
    },
    /// No mate within the plies the line has left from here.
    NoMateWithin {
        ply: usize,
        plies: i32,
    },
    /// A mate shorter than the line's remaining `plies` exists here: the line is longer than
    /// it claims.
    ShorterMateExists {
        ply: usize,
        plies: i32,
    },
    /// The attacker's move does not mate within the line's remaining `plies`.
    MoveDoesNotMate {
        ply: usize,
        mv: Move,
        plies: i32,
    },
    /// The defender's move is a useless interposition or is mated sooner than another defence.
    NotLongestDefence {
        ply: usize,
        mv: Move,
    },
    /// The final position is not mate under tsume rules.
    NotMateAtEnd {
        ply: usize,
    },
    /// The final position is not checkmate.
    NotCheckmateAtEnd {
        ply: usize,
    },
}

impl VerifyError {
    /// The ply (0-based) where the line goes wrong.
    pub fn ply(&self) -> usize {
        match *self {
            VerifyError::EvenLength { plies } => plies,
            VerifyError::Stopped { ply }
            | VerifyError::Illegal { ply, .. }
            | VerifyError::NotCheck { ply, .. }
            | VerifyError::NoMateWithin { ply, .. }
            | VerifyError::ShorterMateExists { ply, .. }
            | VerifyError::MoveDoesNotMate { ply, .. }
            | VerifyError::NotLongestDefence { ply, .. }
            | VerifyError::NotMateAtEnd { ply }
            | VerifyError::NotCheckmateAtEnd { ply } => ply,
        }
    }

    /// Whether the verifier gave up (budget or stop) rather than found a fault.
    pub fn is_stopped(&self) -> bool {
        matches!(self, VerifyError::Stopped { .. })
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}: ", self.ply() + 1)?;
        match self {
            VerifyError::Stopped { .. } => f.write_str("verification was stopped"),
            VerifyError::EvenLength { plies } => write!(f, "a mate has an odd number of plies, not {plies}"),
            VerifyError::Illegal { mv, .. } => write!(f, "{mv} is not legal"),
            VerifyError::NotCheck { mv, .. } => write!(f, "{mv} does not give check"),
            VerifyError::NoMateWithin { plies, .. } => write!(f, "no mate in {plies} plies here"),
            VerifyError::ShorterMateExists { plies, .. } => write!(f, "a mate shorter than {plies} plies exists here"),
            VerifyError::MoveDoesNotMate { mv, plies, .. } => write!(f, "{mv} does not mate in {plies} plies"),
            VerifyError::NotLongestDefence { mv, .. } => write!(
                f,
                "{mv} is not a longest counted defence (useless interposition, or mated sooner)"
            ),
            VerifyError::NotMateAtEnd { .. } => f.write_str("the final position is not mate"),
            VerifyError::NotCheckmateAtEnd { .. } => f.write_str("the final position is not checkmate"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Checks `line` from `root` (attacker to move) against `claim`.
///
/// # Errors
/// The first ply where the line fails its claim, or [`VerifyError::Stopped`] where the node
/// budget ([`VERIFY_NODE_BUDGET`]) ran out first.
pub fn verify(root: &Position, line: &[Move], claim: Claim) -> Result<(), VerifyError> {
    verify_until(root, line, claim, &mut || false)
}

/// [`verify`] that gives up ([`VerifyError::Stopped`], never a pass) when `stop` returns true.
///
/// # Errors
/// As [`verify`].
pub fn verify_until(
    root: &Position,
    line: &[Move],
    claim: Claim,
    stop: &mut dyn FnMut() -> bool,
) -> Result<(), VerifyError> {
    if claim == Claim::Checkmate {
        return checkmate(root, line);
    }
    // Showing a line shortest can cost as much as finding it: give up after a budget.
    let mut budget = |p: &Poll| p.nodes >= VERIFY_NODE_BUDGET || stop();
    let hash_mb = if claim == Claim::Answer { 64 } else { 16 };
    let mut exact = Exact::new(root.side_to_move(), hash_mb, &mut budget);
    let result = match claim {
        Claim::Answer => answer(&mut exact, root, line),
        Claim::TsumeMate | Claim::Checkmate => tsume_mate(&mut exact, root, line),
    };
    stopped_if_aborted(&exact, result)
}

/// [`Claim::Answer`] checked with the solver's own exact search (and its table).
pub(super) fn verify_answer_with(exact: &mut Exact<'_>, root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    let result = answer(exact, root, line);
    stopped_if_aborted(exact, result)
}

/// Nodes [`verify`] may search before it gives up.
pub const VERIFY_NODE_BUDGET: u64 = 20_000_000;

/// Lines longer than this are held to [`Claim::TsumeMate`] where they claim to be the answer
/// (see [`Claim::Answer`]).
pub const EXACT_CHECK_MAX_PLIES: usize = 31;

/// A search cut short by the budget or a stop proves nothing either way: any failure it gave
/// is [`VerifyError::Stopped`].
fn stopped_if_aborted(exact: &Exact<'_>, result: Result<(), VerifyError>) -> Result<(), VerifyError> {
    result.map_err(|e| {
        if exact.aborted {
            VerifyError::Stopped { ply: e.ply() }
        } else {
            e
        }
    })
}

/// [`Claim::Checkmate`].
fn checkmate(root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    let mut pos = root.clone();
    play_checks(&mut pos, line)?;
    if pos.is_checkmate() {
        Ok(())
    } else {
        Err(VerifyError::NotCheckmateAtEnd { ply: line.len() })
    }
}

/// [`Claim::TsumeMate`].
fn tsume_mate(exact: &mut Exact<'_>, root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    let mut pos = root.clone();
    play_checks(&mut pos, line)?;
    if exact.and_node(&mut pos, 0) {
        Ok(())
    } else {
        Err(VerifyError::NotMateAtEnd { ply: line.len() })
    }
}

/// [`Claim::Answer`].
fn answer(exact: &mut Exact<'_>, root: &Position, line: &[Move]) -> Result<(), VerifyError> {
    if line.len() > EXACT_CHECK_MAX_PLIES {
        return tsume_mate(exact, root, line);
    }
    if line.len().is_multiple_of(2) {
        return Err(VerifyError::EvenLength { plies: line.len() });
    }
    let mut pos = root.clone();
    let len = i32::try_from(line.len()).unwrap_or(i32::MAX);
    for (ply, &mv) in line.iter().enumerate() {
        let plies = len - i32::try_from(ply).unwrap_or(i32::MAX);
        if !pos.is_legal_move(mv) {
            return Err(VerifyError::Illegal { ply, mv });
        }
        if ply.is_multiple_of(2) {
            if !exact.or_node(&mut pos, plies) {
                return Err(VerifyError::NoMateWithin { ply, plies });
            }
            if plies > 2 && exact.or_node(&mut pos, plies - 2) {
                return Err(VerifyError::ShorterMateExists { ply, plies });
            }
            pos.do_move(mv);
            if !pos.in_check() {
                return Err(VerifyError::NotCheck { ply, mv });
            }
            if !exact.and_node(&mut pos, plies - 1) {
                return Err(VerifyError::MoveDoesNotMate { ply, mv, plies });
            }
        } else {
            if !exact.longest_defences(&mut pos, plies).contains(&mv) {
                return Err(VerifyError::NotLongestDefence { ply, mv });
            }
            pos.do_move(mv);
        }
        if exact.aborted {
            return Err(VerifyError::Stopped { ply });
        }
    }
    if exact.and_node(&mut pos, 0) {
        Ok(())
    } else {
        Err(VerifyError::NotMateAtEnd { ply: line.len() })
    }
}

/// Plays `line` on `pos`, checking its length, that every move is legal and that every
/// attacker move checks.
fn play_checks(pos: &mut Position, line: &[Move]) -> Result<(), VerifyError> {
    if line.len().is_multiple_of(2) {
        return Err(VerifyError::EvenLength { plies: line.len() });
    }
    for (ply, &mv) in line.iter().enumerate() {
        if !pos.is_legal_move(mv) {
            return Err(VerifyError::Illegal { ply, mv });
        }
        pos.do_move(mv);
        if ply.is_multiple_of(2) && !pos.in_check() {
            return Err(VerifyError::NotCheck { ply, mv });
        }
    }
    Ok(())
}
