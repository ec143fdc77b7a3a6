//! Static evaluation, from the side to move's point of view, in internal units (YaneuraOu's:
//! a pawn about 90; [`to_centipawns`] for USI's `score cp`). Two evaluations:
//!
//! - [`classic`]: the hand-crafted, king-relative evaluation with a small network on top,
//!   built into the binary (`docs/EVAL.md`);
//! - [`nnue`]: the YaneuraOu nets (`nn.bin`, `K_P` and `HalfKP` 256x2-32-32) a user loads.
//!
//! [`Evaluation`] says which the search uses.

pub mod classic;
pub mod nnue;

pub use classic::evaluate;

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
/// the evaluation's own, tuned material is in [`classic::params::DEFAULT_PARAMS`]).
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
