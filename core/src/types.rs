//! The basic vocabulary: colours, files, ranks, squares, piece kinds and pieces.
//!
//! Numbering follows `YaneuraOu` so that tables and debugging output can be compared with the
//! reference engine: square index = `file * 9 + rank` with file 0 = USI file `1` and rank 0 =
//! USI rank `a` (so `1a` = 0, `1i` = 8, `9i` = 80); piece kinds Pawn = 1 … Gold = 7, King = 8,
//! promoted kind = base kind + 8.

use std::fmt;
use std::num::NonZeroU8;
use std::ops::Not;

/// The side to move. Black (sente, USI `b`) moves first in an even game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour's USI letter in an SFEN side-to-move field.
    pub const fn to_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A file, 0-based: `File(0)` is the USI file `1` (the right edge seen from Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const COUNT: usize = 9;

    /// `index` in 0..9.
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 { Some(File(index)) } else { None }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The USI digit `'1'..='9'`.
    pub const fn to_char(self) -> char {
        (b'1' + self.0) as char
    }
}

/// A rank, 0-based: `Rank(0)` is the USI rank `a` (Black's far side).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const COUNT: usize = 9;

    /// `index` in 0..9.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 9 { Some(Rank(index)) } else { None }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The USI letter `'a'..='i'`.
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The rank as seen by `c`: 0 is the farthest rank from `c`'s own side.
    #[inline(always)]
    pub const fn relative(self, c: Color) -> u8 {
        match c {
            Color::Black => self.0,
            Color::White => 8 - self.0,
        }
    }
}

/// One of the 81 squares.
#[must_use]
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 81;

    /// Square from a 0-based index `0..81`.
    #[inline(always)]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 81 { Some(Square(index)) } else { None }
    }

    /// Square from an index already known to be `< 81`.
    #[inline(always)]
    pub(crate) const fn from_index(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    #[inline(always)]
    pub const fn from_file_rank(file: File, rank: Rank) -> Square {
        Square(file.0 * 9 + rank.0)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 / 9)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9)
    }

    /// Whether the square lies in `c`'s promotion zone (the three ranks farthest from `c`).
    #[inline(always)]
    pub const fn in_zone(self, c: Color) -> bool {
        self.rank().relative(c) < 3
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.0 as i8 / 9 + df;
        let r = self.0 as i8 % 9 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 9 {
            Some(Square((f * 9 + r) as u8))
        } else {
            None
        }
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }

    /// Parses the two USI characters of a square (`"7g"`).
    pub const fn from_usi(file: u8, rank: u8) -> Option<Square> {
        if file >= b'1' && file <= b'9' && rank >= b'a' && rank <= b'i' {
            Some(Square((file - b'1') * 9 + (rank - b'a')))
        } else {
            None
        }
    }

    /// The square mirrored through the board's centre (as seen by the other player).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The square on the same rank in the mirrored file (1 ↔ 9, 2 ↔ 8, …; the fifth file stays).
    #[inline(always)]
    pub const fn mirror(self) -> Square {
        Square((8 - self.0 / 9) * 9 + self.0 % 9)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A kind of piece, without colour. Promoted kind = base kind + 8.
#[must_use]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

impl PieceKind {
    /// Every kind in numbering order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand and dropped, in hand order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The hand kinds from the most valuable down: the order in which SFEN and KIF write a
    /// hand (`2R B 4G …`, `飛二　角　金四 …`).
    pub const HAND_BY_VALUE: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// Kind from its number (1..=14).
    pub const fn from_u8(v: u8) -> Option<PieceKind> {
        Some(match v {
            1 => PieceKind::Pawn,
            2 => PieceKind::Lance,
            3 => PieceKind::Knight,
            4 => PieceKind::Silver,
            5 => PieceKind::Bishop,
            6 => PieceKind::Rook,
            7 => PieceKind::Gold,
            8 => PieceKind::King,
            9 => PieceKind::ProPawn,
            10 => PieceKind::ProLance,
            11 => PieceKind::ProKnight,
            12 => PieceKind::ProSilver,
            13 => PieceKind::Horse,
            14 => PieceKind::Dragon,
            _ => return None,
        })
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) < 7
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > 8
    }

    /// The promoted kind; only meaningful when `can_promote`.
    #[inline(always)]
    pub const fn promote(self) -> PieceKind {
        match self {
            PieceKind::Pawn => PieceKind::ProPawn,
            PieceKind::Lance => PieceKind::ProLance,
            PieceKind::Knight => PieceKind::ProKnight,
            PieceKind::Silver => PieceKind::ProSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            k => k,
        }
    }

    /// The kind this piece becomes in hand when captured.
    #[inline(always)]
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// Whether a piece of this kind moves like a gold (gold and the four promoted minors).
    #[inline(always)]
    pub const fn is_gold_like(self) -> bool {
        matches!(
            self,
            PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver
        )
    }

    /// The SFEN letter of a Black piece of this (unpromoted) kind; promoted kinds print
    /// as `+` followed by the base letter.
    pub const fn base_letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// Kind from an SFEN letter of either case (unpromoted kinds only).
    pub const fn from_letter(c: u8) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            b'P' => PieceKind::Pawn,
            b'L' => PieceKind::Lance,
            b'N' => PieceKind::Knight,
            b'S' => PieceKind::Silver,
            b'B' => PieceKind::Bishop,
            b'R' => PieceKind::Rook,
            b'G' => PieceKind::Gold,
            b'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// The number of pieces of this base kind in a full set (both sides).
    pub const fn full_set_count(self) -> u32 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }
}

/// A coloured piece: kind + 16 × colour, never zero, so `Option<Piece>` is one byte.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(kind as u8 | ((color as u8) << 4)) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() & 16 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        match PieceKind::from_u8(self.0.get() & 15) {
            Some(k) => k,
            None => unreachable!(),
        }
    }

    /// A dense index 0..32 for tables (kind + 16 × colour).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        if kind.is_promoted() {
            f.write_str("+")?;
        }
        let letter = kind.base_letter();
        let letter = match self.color() {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        };
        write!(f, "{letter}")
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbering_matches_usi() {
        assert_eq!(Square::from_usi(b'1', b'a').unwrap().index(), 0);
        assert_eq!(Square::from_usi(b'1', b'i').unwrap().index(), 8);
        assert_eq!(Square::from_usi(b'9', b'i').unwrap().index(), 80);
        assert_eq!(Square::from_usi(b'7', b'g').unwrap().to_string(), "7g");
        assert!(Square::from_usi(b'0', b'a').is_none());
        assert!(Square::from_usi(b'1', b'j').is_none());
    }

    #[test]
    fn option_piece_is_one_byte() {
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
        let p = Piece::new(Color::White, PieceKind::Dragon);
        assert_eq!(p.color(), Color::White);
        assert_eq!(p.kind(), PieceKind::Dragon);
        assert_eq!(p.to_string(), "+r");
    }

    #[test]
    fn promotion_rules_of_kinds() {
        for k in PieceKind::ALL {
            let promotable = matches!(
                k,
                PieceKind::Pawn
                    | PieceKind::Lance
                    | PieceKind::Knight
                    | PieceKind::Silver
                    | PieceKind::Bishop
                    | PieceKind::Rook
            );
            assert_eq!(k.can_promote(), promotable, "{k:?}");
            if promotable {
                assert_eq!(k.promote().unpromote(), k);
                assert_eq!(k.promote() as u8, k as u8 + 8);
            }
        }
    }

    #[test]
    fn zone() {
        let s = Square::from_usi(b'5', b'c').unwrap();
        assert!(s.in_zone(Color::Black));
        assert!(!s.in_zone(Color::White));
        let s = Square::from_usi(b'5', b'g').unwrap();
        assert!(s.in_zone(Color::White));
    }
}
