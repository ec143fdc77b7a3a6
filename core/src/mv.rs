//! 16-bit moves and their USI text form (`7g7f`, `8h2b+`, `P*5e`).
//!
//! Layout (`YaneuraOu`'s): bits 0–6 destination square, bits 7–13 origin square (or, for a
//! drop, the dropped kind), bit 14 drop flag, bit 15 promotion flag. A move is never zero
//! (origin and destination differ, and a dropped kind is at least 1), so `Option<Move>` is
//! two bytes.

use crate::types::{PieceKind, Square};
use std::fmt;
use std::num::NonZeroU16;
use thiserror::Error;

/// A move, as text-independent as USI: it does not record which piece moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const DROP_FLAG: u16 = 1 << 14;
const PROMOTE_FLAG: u16 = 1 << 15;

impl Move {
    /// A board move from `from` to `to`, promoting if `promote`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        let v = to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE_FLAG } else { 0 };
        match NonZeroU16::new(v) {
            Some(v) => Move(v),
            // from == to == 1a without promotion is the only zero; never a move.
            None => panic!("a move needs distinct squares"),
        }
    }

    /// A drop of `kind` (a hand kind) on `to`.
    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        let v = to.index() as u16 | (kind as u16) << 7 | DROP_FLAG;
        match NonZeroU16::new(v) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    /// The raw 16 bits (for transposition tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from `raw()`. Returns `None` for bit patterns no move has.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let to = raw & 0x7f;
        let from = (raw >> 7) & 0x7f;
        if to >= 81 {
            return None;
        }
        if raw & DROP_FLAG != 0 {
            if raw & PROMOTE_FLAG != 0 || from == 0 || from > 7 {
                return None;
            }
        } else if from >= 81 || from == to {
            return None;
        }
        match NonZeroU16::new(raw) {
            Some(v) => Some(Move(v)),
            None => None,
        }
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0.get() & 0x7f) as u8)
    }

    /// The origin square of a board move; meaningless for drops.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index(((self.0.get() >> 7) & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0.get() & DROP_FLAG != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE_FLAG != 0
    }

    /// The dropped kind of a drop; meaningless for board moves.
    #[inline(always)]
    pub const fn dropped_kind(self) -> PieceKind {
        match PieceKind::from_u8(((self.0.get() >> 7) & 0x7f) as u8) {
            Some(k) => k,
            None => PieceKind::Pawn,
        }
    }

    /// Parses USI move text. Only the syntax is checked; legality needs a position.
    pub fn from_usi(text: &str) -> Result<Move, MoveParseError> {
        let b = text.as_bytes();
        let bad = || MoveParseError::Syntax(text.chars().take(16).collect());
        match b.len() {
            4 if b[1] == b'*' => {
                let kind = match b[0] {
                    b'P' => PieceKind::Pawn,
                    b'L' => PieceKind::Lance,
                    b'N' => PieceKind::Knight,
                    b'S' => PieceKind::Silver,
                    b'G' => PieceKind::Gold,
                    b'B' => PieceKind::Bishop,
                    b'R' => PieceKind::Rook,
                    _ => return Err(bad()),
                };
                let to = Square::from_usi(b[2], b[3]).ok_or_else(bad)?;
                Ok(Move::drop(kind, to))
            }
            4 | 5 => {
                let from = Square::from_usi(b[0], b[1]).ok_or_else(bad)?;
                let to = Square::from_usi(b[2], b[3]).ok_or_else(bad)?;
                let promote = match b.get(4) {
                    None => false,
                    Some(b'+') => true,
                    Some(_) => return Err(bad()),
                };
                if from == to {
                    return Err(bad());
                }
                Ok(Move::normal(from, to, promote))
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_drop() {
            write!(f, "{}*{}", self.dropped_kind().base_letter(), self.to())
        } else {
            write!(
                f,
                "{}{}{}",
                self.from(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move text could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    #[error("`{0}` is not USI move text (expected e.g. 7g7f, 8h2b+ or P*5e)")]
    Syntax(String),
    #[error("move {0} is not legal in this position")]
    Illegal(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_round_trip() {
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        for t in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i+", "9i1a"] {
            let m = Move::from_usi(t).unwrap();
            assert_eq!(m.to_string(), t);
            assert_eq!(Move::from_raw(m.raw()), Some(m));
        }
        for t in [
            "", "7g7", "7g7f=", "K*5e", "+*5e", "7g7g", "0a1a", "P*5j", "7g7f++", "p*5e",
        ] {
            assert!(Move::from_usi(t).is_err(), "{t}");
        }
    }
}
