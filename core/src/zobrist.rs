//! Zobrist keys, generated at compile time by `SplitMix64` from a fixed seed so that keys never
//! change with a dependency upgrade.
//!
//! The board key covers pieces on squares and the side to move; the hand key is additive
//! (count × per-kind key), so a hand change is one addition or subtraction and hands compare
//! without rehashing. The full key combines both.

use crate::rng::SplitMix64;
use crate::types::{Color, Piece, PieceKind, Square};

struct Tables {
    board: [[u64; 81]; 32],
    hand: [[u64; 8]; 2],
}

// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
const fn build() -> Tables {
    let mut t = Tables {
        board: [[0; 81]; 32],
        hand: [[0; 8]; 2],
    };
    let mut rng = SplitMix64::new(0x50_70_70_6f); // "Soppo"
    let mut p = 0;
    while p < 32 {
        let mut s = 0;
        while s < 81 {
            // Bit 0 is reserved for the side to move.
            t.board[p][s] = rng.next_u64() & !1;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            t.hand[c][k] = rng.next_u64() & !1;
            k += 1;
        }
        c += 1;
    }
    t
}

static TABLES: Tables = build();

/// Key of `piece` on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    TABLES.board[piece.index()][sq.index()]
}

/// Key added per piece of `kind` in `c`'s hand.
#[inline(always)]
pub fn hand_piece(c: Color, kind: PieceKind) -> u64 {
    TABLES.hand[c.index()][kind.index()]
}

/// Key toggled when White is to move. Kept in bit 0 so the side can be read off any key.
pub const SIDE: u64 = 1;
