//! The network's inputs: K+P, per perspective.
//!
//! For one perspective (the side whose view it is, "own"; the other "enemy"), every piece of the
//! position is one active input:
//!
//! | inputs | what | count |
//! |---|---|---|
//! | `0..81` | the own king's square | 81 |
//! | `81..162` | the enemy king's square | 81 |
//! | `162..1620` | a piece on the board: owner (own, enemy) × kind ([`BOARD_KINDS`]) × square | 2 × 9 × 81 |
//! | `1620..1696` | a piece in hand: owner × kind × which one of that kind (the first pawn, the second …) | 2 × 38 |
//!
//! Squares are seen from the perspective's side: for White the board is turned round
//! ([`Square::flip`]), so that both perspectives read their own pieces the same way. A
//! promoted pawn, lance, knight or silver counts as a gold (they move alike). Every non-king
//! piece is on the board or in a hand, so a position always has exactly 40 active inputs per
//! perspective (fewer only in positions without the full set, such as tsume problems), and a
//! move changes at most two or three of them: the moved piece's square (and kind, when it
//! promotes), a captured piece going to the hand, a dropped piece leaving it, a king's square.

use crate::eval::features::piece_group;
use soppo_core::{Color, Piece, PieceKind, Position, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 1696;

/// The most inputs active at once in one perspective (two kings and 38 other pieces).
pub const MAX_ACTIVE: usize = 40;

/// Board kinds as the inputs tell them apart: the evaluation's piece groups
/// ([`piece_group`]), promoted minor pieces counting as golds.
pub const BOARD_KINDS: usize = 9;

const OWN_KING: usize = 0;
const ENEMY_KING: usize = 81;
const BOARD: usize = 162;
const HAND: usize = BOARD + 2 * BOARD_KINDS * Square::COUNT;
/// Inputs of one owner's hand: 18 pawns, 4 lances, knights, silvers and golds, 2 bishops and
/// rooks.
const HAND_PER_OWNER: usize = 38;

const _: () = assert!(HAND + 2 * HAND_PER_OWNER == INPUTS);

/// Where a hand kind's inputs start within an owner's 38 (`None` for kinds never in hand).
const fn hand_offset(kind: PieceKind) -> Option<usize> {
    Some(match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 18,
        PieceKind::Knight => 22,
        PieceKind::Silver => 26,
        PieceKind::Gold => 30,
        PieceKind::Bishop => 34,
        PieceKind::Rook => 36,
        _ => return None,
    })
}

/// 0 for the perspective's own pieces, 1 for the enemy's.
const fn owner(perspective: Color, c: Color) -> usize {
    (perspective as usize ^ c as usize) & 1
}

/// The square as the perspective sees it.
const fn seen(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Black => sq.index(),
        Color::White => sq.flip().index(),
    }
}

/// The input of piece `p` on `sq`, seen from `perspective` (a king's square included).
pub fn board_input(perspective: Color, p: Piece, sq: Square) -> usize {
    let s = seen(perspective, sq);
    match piece_group(p.kind()) {
        None if p.color() == perspective => OWN_KING + s,
        None => ENEMY_KING + s,
        Some(k) => BOARD + (owner(perspective, p.color()) * BOARD_KINDS + k) * Square::COUNT + s,
    }
}

/// The input of the `nth` (1-based) piece of `kind` in `holder`'s hand, seen from
/// `perspective`.
///
/// # Panics
/// When `kind` is not a hand kind or `nth` is 0 or beyond the full set.
pub fn hand_input(perspective: Color, holder: Color, kind: PieceKind, nth: u32) -> usize {
    let offset = hand_offset(kind).expect("a kind that can be in hand");
    assert!(nth >= 1 && nth <= kind.full_set_count(), "{kind:?} number {nth}");
    HAND + owner(perspective, holder) * HAND_PER_OWNER + offset + nth as usize - 1
}

/// Calls `f` with every active input of `pos` seen from `perspective`, board pieces first
/// (in square order), then the hands (Black's, then White's, in [`PieceKind::HAND`] order).
pub fn for_each_active(pos: &Position, perspective: Color, mut f: impl FnMut(usize)) {
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            f(board_input(perspective, p, sq));
        }
    }
    for holder in Color::ALL {
        let hand = pos.hand(holder);
        for kind in PieceKind::HAND {
            for nth in 1..=hand.count(kind).min(kind.full_set_count()) {
                f(hand_input(perspective, holder, kind, nth));
            }
        }
    }
}

/// Every active input of `pos` seen from `perspective`.
pub fn active(pos: &Position, perspective: Color) -> arrayvec::ArrayVec<u16, MAX_ACTIVE> {
    let mut out = arrayvec::ArrayVec::new();
    for_each_active(pos, perspective, |i| {
        // A legal position has at most 40 pieces; more (a malformed setup) are left out.
        let _ = out.try_push(i as u16);
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(pos: &Position, c: Color) -> Vec<u16> {
        let mut v = active(pos, c).to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_start_position_has_forty_distinct_inputs_in_range() {
        let pos = Position::startpos();
        for c in Color::ALL {
            let v = sorted(&pos, c);
            assert_eq!(v.len(), 40);
            assert!(v.windows(2).all(|w| w[0] < w[1]), "distinct");
            assert!(v.iter().all(|&i| (i as usize) < INPUTS));
        }
        // Symmetric start: both perspectives see the same inputs.
        assert_eq!(sorted(&pos, Color::Black), sorted(&pos, Color::White));
    }

    #[test]
    fn a_position_turned_round_with_colours_swapped_looks_the_same() {
        // A middle game with pieces in both hands and promoted pieces.
        let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        let pos = Position::from_sfen(sfen).unwrap();
        let turned = pos.turned();
        assert_eq!(sorted(&pos, Color::White), sorted(&turned, Color::Black));
        assert_eq!(sorted(&pos, Color::Black), sorted(&turned, Color::White));
        assert_eq!(sorted(&pos, Color::Black).len(), 40);
    }

    #[test]
    fn hand_inputs_count_each_piece_and_stay_apart_from_the_board() {
        let mut seen = std::collections::HashSet::new();
        for holder in Color::ALL {
            for kind in PieceKind::HAND {
                for nth in 1..=kind.full_set_count() {
                    let i = hand_input(Color::Black, holder, kind, nth);
                    assert!((HAND..INPUTS).contains(&i));
                    assert!(seen.insert(i), "{holder:?} {kind:?} {nth}");
                }
            }
        }
        assert_eq!(seen.len(), 2 * HAND_PER_OWNER);
    }
}
