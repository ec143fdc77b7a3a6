//! 81-square bitboards in two `u64` lanes.
//!
//! Lane 0 holds files 1–7 (squares 0..63), lane 1 holds files 8–9 (squares 63..81, bits
//! 0..18). A file never straddles the lanes, so shifting a lane by one rank (pawn pushes,
//! lance rays) never needs to carry between lanes.

use crate::types::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

const LO_MASK: u64 = (1 << 63) - 1;
const HI_MASK: u64 = (1 << 18) - 1;

/// A set of squares.
#[must_use]
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    lo: u64,
    hi: u64,
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard { lo: 0, hi: 0 };
    pub const FULL: Bitboard = Bitboard {
        lo: LO_MASK,
        hi: HI_MASK,
    };

    #[inline(always)]
    pub const fn from_lanes(lo: u64, hi: u64) -> Bitboard {
        Bitboard {
            lo: lo & LO_MASK,
            hi: hi & HI_MASK,
        }
    }

    /// The two raw lanes (files 1–7, files 8–9).
    #[inline(always)]
    pub const fn lanes(self) -> (u64, u64) {
        (self.lo, self.hi)
    }

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        let i = sq.index();
        if i < 63 {
            Bitboard { lo: 1 << i, hi: 0 }
        } else {
            Bitboard {
                lo: 0,
                hi: 1 << (i - 63),
            }
        }
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        let i = sq.index();
        if i < 63 {
            self.lo >> i & 1 != 0
        } else {
            self.hi >> (i - 63) & 1 != 0
        }
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        self.or(Bitboard::from_square(sq))
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        self.and_not(Bitboard::from_square(sq))
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        *self = self.with(sq);
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        *self = self.without(sq);
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        *self ^= Bitboard::from_square(sq);
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        (self.lo | self.hi) == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        if self.lo != 0 {
            self.hi != 0 || self.lo & (self.lo - 1) != 0
        } else {
            self.hi & self.hi.wrapping_sub(1) != 0
        }
    }

    #[inline(always)]
    pub const fn and(self, o: Bitboard) -> Bitboard {
        Bitboard {
            lo: self.lo & o.lo,
            hi: self.hi & o.hi,
        }
    }

    #[inline(always)]
    pub const fn or(self, o: Bitboard) -> Bitboard {
        Bitboard {
            lo: self.lo | o.lo,
            hi: self.hi | o.hi,
        }
    }

    #[inline(always)]
    pub const fn xor(self, o: Bitboard) -> Bitboard {
        Bitboard {
            lo: self.lo ^ o.lo,
            hi: self.hi ^ o.hi,
        }
    }

    /// `self & !o`.
    #[inline(always)]
    pub const fn and_not(self, o: Bitboard) -> Bitboard {
        Bitboard {
            lo: self.lo & !o.lo,
            hi: self.hi & !o.hi,
        }
    }

    /// Lowest-index square, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.lo != 0 {
            Some(Square::from_index(self.lo.trailing_zeros() as u8))
        } else if self.hi != 0 {
            Some(Square::from_index(63 + self.hi.trailing_zeros() as u8))
        } else {
            None
        }
    }

    /// Highest-index square, if any.
    #[inline(always)]
    pub const fn msb(self) -> Option<Square> {
        if self.hi != 0 {
            Some(Square::from_index(63 + 63 - self.hi.leading_zeros() as u8))
        } else if self.lo != 0 {
            Some(Square::from_index(63 - self.lo.leading_zeros() as u8))
        } else {
            None
        }
    }

    /// Removes and returns the lowest-index square. The board must not be empty.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            Square::from_index(i as u8)
        } else {
            debug_assert!(self.hi != 0);
            let i = self.hi.trailing_zeros();
            self.hi &= self.hi.wrapping_sub(1);
            Square::from_index(63 + i as u8)
        }
    }

    /// The only square of a one-square board (or the lowest one).
    #[inline(always)]
    pub fn single(self) -> Square {
        match self.lsb() {
            Some(s) => s,
            None => panic!("empty bitboard"),
        }
    }

    /// Every square shifted one rank towards rank `a` (Black's forward direction).
    /// Squares on rank `a` must not be set.
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard {
            lo: self.lo >> 1,
            hi: self.hi >> 1,
        }
    }

    /// Every square shifted one rank towards rank `i` (White's forward direction).
    /// Squares on rank `i` must not be set.
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard {
            lo: (self.lo << 1) & LO_MASK,
            hi: (self.hi << 1) & HI_MASK,
        }
    }

    /// Calls `f` for every square, lowest index first.
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(Square)) {
        let mut lo = self.lo;
        while lo != 0 {
            f(Square::from_index(lo.trailing_zeros() as u8));
            lo &= lo - 1;
        }
        let mut hi = self.hi;
        while hi != 0 {
            f(Square::from_index(63 + hi.trailing_zeros() as u8));
            hi &= hi - 1;
        }
    }
}

// Iterating consumes a copy of the set, square by square; the original stays usable, which
// is exactly what `for sq in board` should do.
#[allow(clippy::copy_iterator)]
impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.is_empty() { None } else { Some(self.pop_lsb()) }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        self.and(o)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        self.or(o)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        self.xor(o)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard {
            lo: !self.lo & LO_MASK,
            hi: !self.hi & HI_MASK,
        }
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        *self = self.and(o);
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        *self = self.or(o);
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        *self = self.xor(o);
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 0..9u8 {
            for file in (0..9u8).rev() {
                let sq = Square::from_index(file * 9 + rank);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_and_iteration() {
        let mut b = Bitboard::EMPTY;
        for i in [0u8, 8, 62, 63, 70, 80] {
            b.set(Square::new(i).unwrap());
        }
        assert_eq!(b.count(), 6);
        assert_eq!(b.lsb().unwrap().index(), 0);
        assert_eq!(b.msb().unwrap().index(), 80);
        let v: Vec<usize> = b.map(Square::index).collect();
        assert_eq!(v, vec![0, 8, 62, 63, 70, 80]);
        assert_eq!((!Bitboard::EMPTY).count(), 81);
        assert!(b.has_more_than_one());
        assert!(!Bitboard::from_square(Square::new(70).unwrap()).has_more_than_one());
    }
}
