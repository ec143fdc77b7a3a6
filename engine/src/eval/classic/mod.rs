//! The classic evaluation: a hand-crafted, king-relative evaluation in the spirit of YaneuraOu's
//! "material levels" (see `docs/EVAL.md`):
//!
//! - material, pieces in hand valued apart from pieces on the board;
//! - control (利き) of every square by each side's pieces (kings left out), counted up to
//!   three times (each further control worth its own, usually smaller weight) and weighted by
//!   the square's Chebyshev distance (0..4, 5 or more) to the controlling side's king and to
//!   the enemy king;
//! - squares where a side has more controls than the other, by distance to each king;
//! - defended pieces, and attacked undefended pieces (told apart by whose move it is);
//! - the king's 8-neighbourhood (empty and undefended but attacked, own pieces attacked,
//!   escape squares, …, and the opponent's droppable pieces times its unguarded squares);
//! - the king's rank and file;
//! - every piece's placement relative to its own king and to the enemy king (file distance and
//!   rank offset, per piece group);
//! - a bonus for the side to move.
//!
//! These terms are linear in [`params::NUM_PARAMS`] integer weights
//! ([`params::DEFAULT_PARAMS`]), which `soppo-tools tune-eval` fits by logistic regression on
//! self-play games (`soppo-tools selfplay`): the searched scores and the results. On top of
//! the sum, a small network ([`net`]) over the same features, each side's apart, adds what a
//! sum cannot say (`soppo-tools train-classic-net`). Nothing is incremental: every call recomputes
//! the control maps with bit-sliced counters.

pub mod features;
pub mod net;
pub mod params;
mod weights;

use super::EVAL_LIMIT;
use soppo_core::Position;

/// Static evaluation in internal units from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    match &*net::NET {
        Some(net) => net::evaluate_with(pos, &params::DEFAULT_PARAMS, net),
        None => features::evaluate_with(pos, &params::DEFAULT_PARAMS),
    }
    .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The linear sum alone, without the network on top: what the evaluation was before its
/// network, for the self-play that trains a network from scratch.
#[inline]
pub fn evaluate_linear(pos: &Position) -> i32 {
    features::evaluate_with(pos, &params::DEFAULT_PARAMS).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests;
