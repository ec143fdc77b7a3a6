//! Static evaluation: a hand-crafted, king-relative evaluation in the spirit of YaneuraOu's
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
//! sum cannot say (`soppo-tools train-net`). Nothing is incremental: every call recomputes
//! the control maps with bit-sliced counters.

pub mod features;
pub mod net;
pub mod nnue;
pub mod params;
mod weights;

use soppo_core::{Color, PieceKind, Position};

/// Which static evaluation the search uses (the `Evaluation` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The net when one is loaded (`<EvalDir>/nn.bin` or `EvalFile`), else the classic
    /// evaluation: a user who drops a net into `eval/` gets it, as in YaneuraOu.
    Auto,
    /// The hand-crafted evaluation with its small network on top ([`evaluate`]).
    Classic,
    /// The NNUE evaluation ([`nnue`]) with the loaded net, incremental along the search's
    /// line; the classic one when no net loads.
    Nnue,
}

impl Evaluation {
    /// The default.
    pub const DEFAULT: Evaluation = Evaluation::Auto;

    /// Whether a search with this choice evaluates with the net, when one is loaded.
    pub const fn wants_net(self) -> bool {
        !matches!(self, Evaluation::Classic)
    }
}

/// A value in the evaluation's internal units (YaneuraOu's: a pawn about 90) in centipawns
/// as USI's `score cp` reports them (a pawn 100): `100 · v / 90`, truncated toward zero, as
/// YaneuraOu converts.
pub const fn to_centipawns(v: i32) -> i32 {
    100 * v / 90
}

/// Largest evaluation returned: far from the search's mate scores.
pub const EVAL_LIMIT: i32 = 30_000;

/// Centipawn value of a piece on the board (fixed material, for move ordering and exchanges;
/// the evaluation's own, tuned material is in [`params::DEFAULT_PARAMS`]).
pub const fn board_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold | PieceKind::ProSilver | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
        PieceKind::King => 0,
    }
}

/// Centipawn value of a piece in hand (fixed material, like [`board_value`]).
pub const fn hand_value(kind: PieceKind) -> i32 {
    board_value(kind) * 11 / 10
}

/// Material balance ([`board_value`], [`hand_value`]) from the side to move's point of view.
#[inline]
pub fn material(pos: &Position) -> i32 {
    // As in `features::evaluate_with`: a copy with the POPCNT instruction when the CPU has it.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been checked to support POPCNT.
        return unsafe { material_popcnt(pos) };
    }
    material_portable(pos)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn material_popcnt(pos: &Position) -> i32 {
    material_portable(pos)
}

#[inline(always)]
fn material_portable(pos: &Position) -> i32 {
    let mut score = 0;
    for c in Color::ALL {
        let mut side = 0;
        for kind in PieceKind::ALL {
            side += board_value(kind) * pos.pieces_of(c, kind).count() as i32;
        }
        let hand = pos.hand(c);
        for kind in PieceKind::HAND {
            side += hand_value(kind) * hand.count(kind) as i32;
        }
        score += if c == pos.side_to_move() { side } else { -side };
    }
    score
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    match &*net::NET {
        Some(net) => net::evaluate_with(pos, &params::DEFAULT_PARAMS, net),
        None => features::evaluate_with(pos, &params::DEFAULT_PARAMS),
    }
    .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests;
