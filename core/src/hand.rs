//! A player's pieces in hand, packed into one `u32`.
//!
//! Each of the seven kinds has its own bit field followed by one spare bit that is always
//! zero. The spare bits make "hand A holds at least as much of every kind as hand B" a single
//! subtraction: no field borrows unless some field of A is smaller, and the lowest such field
//! then sets its spare bit. The mate solver uses this dominance test to reuse proofs.

use crate::types::PieceKind;
use std::fmt;

/// Pieces in hand of one player.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

// Field layout: a shift per hand kind; a spare bit sits just above every field. Fields are
// wider than a normal set needs (pawns 5 bits, the rest 3 bits) so that positions with more
// pieces than one set, which some public test suites use, still fit.
const PAWN_SHIFT: u32 = 0; // bits 0..5, spare 5
const LANCE_SHIFT: u32 = 6; // bits 6..9, spare 9
const KNIGHT_SHIFT: u32 = 10;
const SILVER_SHIFT: u32 = 14;
const GOLD_SHIFT: u32 = 18;
const BISHOP_SHIFT: u32 = 22;
const ROOK_SHIFT: u32 = 26;

const BORROW_MASK: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 25) | (1 << 29);

#[inline(always)]
const fn field(kind: PieceKind) -> (u32, u32) {
    match kind {
        PieceKind::Pawn => (PAWN_SHIFT, 0x1f),
        PieceKind::Lance => (LANCE_SHIFT, 0x7),
        PieceKind::Knight => (KNIGHT_SHIFT, 0x7),
        PieceKind::Silver => (SILVER_SHIFT, 0x7),
        PieceKind::Gold => (GOLD_SHIFT, 0x7),
        PieceKind::Bishop => (BISHOP_SHIFT, 0x7),
        PieceKind::Rook => (ROOK_SHIFT, 0x7),
        _ => panic!("not a hand piece kind"),
    }
}

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    /// The raw packed value (stable within one build; for hashing and tables).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The hand whose [`Hand::raw`] value is `raw` (for tables that store hands as integers;
    /// a value that no hand produced gives a meaningless hand, never undefined behaviour).
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    /// How many pieces of `kind` (a hand kind) are held.
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let (shift, mask) = field(kind);
        (self.0 >> shift) & mask
    }

    /// Whether at least one piece of `kind` is held.
    #[inline(always)]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) != 0
    }

    /// The most pieces of `kind` a hand can record (31 pawns, 7 of any other kind).
    #[inline(always)]
    pub const fn capacity(kind: PieceKind) -> u32 {
        field(kind).1
    }

    /// One more piece of `kind`. The caller keeps counts within [`Hand::capacity`].
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        let (shift, _) = field(kind);
        debug_assert!(self.count(kind) < Hand::capacity(kind));
        self.0 += 1 << shift;
    }

    /// One piece of `kind` fewer; the piece must be held.
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        let (shift, _) = field(kind);
        debug_assert!(self.count(kind) > 0);
        self.0 -= 1 << shift;
    }

    /// Sets the count of `kind`; `n` must not exceed [`Hand::capacity`].
    pub fn set(&mut self, kind: PieceKind, n: u32) {
        let (shift, mask) = field(kind);
        assert!(n <= mask);
        self.0 = (self.0 & !(mask << shift)) | (n << shift);
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this hand holds at least as many pieces of every kind as `other`.
    #[inline(always)]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW_MASK == 0
    }

    /// Whether this hand holds any kind other than pawns.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !(0x1f << PAWN_SHIFT) != 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// The kinds held, in hand order, each once.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::HAND.into_iter().filter(move |&k| self.has(k))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        f.write_str("Hand(")?;
        for k in PieceKind::HAND {
            let n = self.count(k);
            if n > 0 {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                write!(f, "{}{}", k.base_letter(), n)?;
            }
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_dominance() {
        let mut a = Hand::EMPTY;
        for _ in 0..18 {
            a.add(PieceKind::Pawn);
        }
        for k in [PieceKind::Lance, PieceKind::Knight, PieceKind::Silver, PieceKind::Gold] {
            for _ in 0..4 {
                a.add(k);
            }
        }
        a.add(PieceKind::Bishop);
        a.add(PieceKind::Bishop);
        a.add(PieceKind::Rook);
        a.add(PieceKind::Rook);
        assert_eq!(a.count(PieceKind::Pawn), 18);
        assert_eq!(a.count(PieceKind::Rook), 2);
        assert_eq!(a.total(), 38);
        assert!(a.dominates(a));
        assert!(a.dominates(Hand::EMPTY));
        assert!(!Hand::EMPTY.dominates(a));
        let mut b = a;
        b.remove(PieceKind::Gold);
        assert!(a.dominates(b));
        assert!(!b.dominates(a));
        // Incomparable hands: neither dominates.
        let mut c = Hand::EMPTY;
        c.add(PieceKind::Rook);
        let mut d = Hand::EMPTY;
        d.add(PieceKind::Pawn);
        d.add(PieceKind::Pawn);
        assert!(!c.dominates(d));
        assert!(!d.dominates(c));
    }

    #[test]
    fn dominance_matches_fieldwise_comparison() {
        // Exhaustive over small hands of three kinds, including the narrow fields.
        let kinds = [PieceKind::Pawn, PieceKind::Bishop, PieceKind::Gold];
        let mk = |v: [u32; 3]| {
            let mut h = Hand::EMPTY;
            for (k, n) in kinds.iter().zip(v) {
                h.set(*k, n);
            }
            h
        };
        for a in 0..27u32 {
            for b in 0..27u32 {
                let va = [a % 3 * 9, a / 3 % 3, a / 9 % 3];
                let vb = [b % 3 * 9, b / 3 % 3, b / 9 % 3];
                let expect = va.iter().zip(vb.iter()).all(|(x, y)| x >= y);
                assert_eq!(mk(va).dominates(mk(vb)), expect, "{va:?} {vb:?}");
            }
        }
    }
}
