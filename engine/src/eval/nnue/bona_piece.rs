//! YaneuraOu's numbering of pieces as network inputs ("BonaPiece", after Bonanza), which every
//! `nn.bin` in circulation is trained on. Facts from YaneuraOu's `evaluate.h`
//! (`../shared/research/yaneuraou-nets.md` gathers them); the tables are ours.
//!
//! Seen from one side (the perspective, "own"; the other "enemy"):
//!
//! | numbers | what |
//! |---|---|
//! | 0 | [`ZERO`]: a piece on neither the board nor a hand (handicaps, tsume problems) |
//! | 1..90 | a piece in hand: per kind, own then enemy, one number per piece (the first pawn, the second …) |
//! | 90..1548 | a piece on the board: per kind, own then enemy, 81 squares each |
//! | 1548..1710 | the own king's square, then the enemy king's ([`F_KING`], [`E_KING`]) |
//!
//! Board kinds come in the order pawn, lance, knight, silver, gold, bishop, horse, rook,
//! dragon; a promoted pawn, lance, knight or silver counts as a gold. Squares are numbered as
//! Soppo numbers them (`9 × (file − 1) + (rank − 1)`); for White the board is turned round
//! (`80 − square`), so both sides read their own pieces alike.

use soppo_core::{Color, Piece, PieceKind, Square};

/// The number of a piece that is nowhere.
pub const ZERO: u16 = 0;
/// End of the hand numbers.
pub const FE_HAND_END: u16 = 90;
/// End of the non-king numbers (hands and board).
pub const FE_END: u16 = 1548;
/// The own king's square, from here.
pub const F_KING: u16 = FE_END;
/// The enemy king's square, from here.
pub const E_KING: u16 = F_KING + 81;
/// End of every number, kings included.
pub const FE_END2: u16 = E_KING + 81;

/// Where a hand kind's numbers start: `[own, enemy]`, in [`PieceKind::HAND`] order.
const HAND_BASE: [[u16; 2]; 7] = [
    [1, 20],  // pawn
    [39, 44], // lance
    [49, 54], // knight
    [59, 64], // silver
    [69, 74], // gold
    [79, 82], // bishop
    [85, 88], // rook
];

/// Where a board kind's 81 numbers start: `[own, enemy]`, by [`PieceKind::index`] (0 and the
/// king unused: the king's numbers are [`F_KING`] and [`E_KING`]).
const BOARD_BASE: [[u16; 2]; 15] = {
    const fn block(k: u16) -> [u16; 2] {
        [FE_HAND_END + 162 * k, FE_HAND_END + 162 * k + 81]
    }
    let gold = block(4);
    [
        [0, 0],   // (none)
        block(0), // pawn
        block(1), // lance
        block(2), // knight
        block(3), // silver
        block(5), // bishop
        block(7), // rook
        gold,     // gold
        [F_KING, E_KING],
        gold,     // promoted pawn
        gold,     // promoted lance
        gold,     // promoted knight
        gold,     // promoted silver
        block(6), // horse
        block(8), // dragon
    ]
};

const _: () = assert!(BOARD_BASE[14][1] + 81 == FE_END);

/// 0 for the perspective's own pieces, 1 for the enemy's.
#[inline(always)]
const fn side(perspective: Color, owner: Color) -> usize {
    (perspective as usize ^ owner as usize) & 1
}

/// The square as `perspective` sees it.
#[inline(always)]
pub const fn seen(perspective: Color, sq: Square) -> u16 {
    match perspective {
        Color::Black => sq.index() as u16,
        Color::White => 80 - sq.index() as u16,
    }
}

/// The number of piece `p` on `sq`, seen from `perspective` (a king's too).
#[inline(always)]
pub const fn board(perspective: Color, p: Piece, sq: Square) -> u16 {
    BOARD_BASE[p.kind().index()][side(perspective, p.color())] + seen(perspective, sq)
}

/// The number of the `nth` (1-based) piece of `kind` in `holder`'s hand, seen from
/// `perspective`. `kind` must be a hand kind.
#[inline(always)]
pub const fn hand(perspective: Color, holder: Color, kind: PieceKind, nth: u32) -> u16 {
    let k = match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    };
    HAND_BASE[k][side(perspective, holder)] + nth as u16 - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The numbers YaneuraOu's `evaluate.h` states for the block starts.
    #[test]
    fn the_blocks_start_where_the_reference_says() {
        let b = |kind| board(Color::Black, Piece::new(Color::Black, kind), Square::new(0).unwrap());
        let e = |kind| board(Color::Black, Piece::new(Color::White, kind), Square::new(80).unwrap()) - 80;
        assert_eq!(
            [
                PieceKind::Pawn,
                PieceKind::Lance,
                PieceKind::Knight,
                PieceKind::Silver,
                PieceKind::Gold
            ]
            .map(b),
            [90, 252, 414, 576, 738]
        );
        assert_eq!(
            [PieceKind::Bishop, PieceKind::Horse, PieceKind::Rook, PieceKind::Dragon].map(b),
            [900, 1062, 1224, 1386]
        );
        assert_eq!([PieceKind::Pawn, PieceKind::Dragon].map(e), [171, 1467]);
        assert_eq!(b(PieceKind::ProSilver), b(PieceKind::Gold));
        assert_eq!(b(PieceKind::King), 1548);
        assert_eq!(e(PieceKind::King), 1629);
        let h = |holder, kind| hand(Color::Black, holder, kind, 1);
        assert_eq!(PieceKind::HAND.map(|k| h(Color::Black, k)), [1, 39, 49, 59, 69, 79, 85]);
        assert_eq!(
            PieceKind::HAND.map(|k| h(Color::White, k)),
            [20, 44, 54, 64, 74, 82, 88]
        );
    }

    /// Every piece on every square and every hand piece has its own number in range, and the
    /// other side sees each with owner and square swapped.
    #[test]
    fn numbers_are_distinct_and_turn_round_with_the_board() {
        let mut all = HashSet::new();
        for c in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    let p = Piece::new(c, kind);
                    let n = board(Color::Black, p, sq);
                    assert!((FE_HAND_END..FE_END2).contains(&n), "{p:?} {sq:?}");
                    assert_eq!(board(Color::White, Piece::new(!c, kind), sq.flip()), n);
                    if !kind.is_promoted() || kind == PieceKind::Horse || kind == PieceKind::Dragon {
                        assert!(all.insert(n), "{p:?} {sq:?}");
                    }
                }
            }
            for kind in PieceKind::HAND {
                for nth in 1..=kind.full_set_count() {
                    let n = hand(Color::Black, c, kind, nth);
                    assert!(n > ZERO && n < FE_HAND_END);
                    assert_eq!(hand(Color::White, !c, kind, nth), n);
                    assert!(all.insert(n), "{c:?} {kind:?} {nth}");
                }
            }
        }
        // 2 × 38 hand numbers (each kind's block has one number more than its pieces, unused:
        // 19, 38, 43 …).
        assert_eq!(all.len(), 2 * 38 + 2 * 9 * 81 + 2 * 81);
    }
}
