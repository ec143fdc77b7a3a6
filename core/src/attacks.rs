//! Attack tables: step pieces by table, sliders by rays and the nearest blocker.
//!
//! Everything here is computed at compile time (`const`), so there is no start-up work and no
//! global mutable state. A slider's attacks along one ray are the ray from its square minus
//! the ray from the first blocker (found with one `lsb`/`msb`), which is branch-light and
//! needs only 8 × 81 ray boards.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, PieceKind, Square};

/// The eight ray directions as (file delta, rank delta). Rank delta −1 is towards rank `a`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Direction {
    /// Towards rank a (Black's forward).
    N = 0,
    /// Towards rank i.
    S = 1,
    /// Towards file 1.
    E = 2,
    /// Towards file 9.
    W = 3,
    NE = 4,
    SW = 5,
    NW = 6,
    SE = 7,
}

/// Indexed by `Direction`; `d ^ 1` is the opposite of `d`.
const DELTAS: [(i8, i8); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1), (1, -1), (-1, 1)];

/// Whether the square index grows along the direction (so the nearest blocker is the lsb).
const fn is_positive(dir: usize) -> bool {
    let (df, dr) = DELTAS[dir];
    df * 9 + dr > 0
}

// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
const fn build_rays() -> [[Bitboard; 81]; 8] {
    let mut t = [[Bitboard::EMPTY; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 81 {
            let (df, dr) = DELTAS[d];
            let mut b = Bitboard::EMPTY;
            let mut cur = Square::from_index(i as u8).offset(df, dr);
            while let Some(s) = cur {
                b = b.with(s);
                cur = s.offset(df, dr);
            }
            t[d][i] = b;
            i += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[Bitboard; 81]; 8] = build_rays();

// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
const fn build_steps(deltas: &[(i8, i8)]) -> [[Bitboard; 81]; 2] {
    let mut t = [[Bitboard::EMPTY; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 81 {
            let mut b = Bitboard::EMPTY;
            let mut k = 0;
            while k < deltas.len() {
                let (df, dr) = deltas[k];
                // White's pieces move in the mirrored rank direction.
                let dr = if c == 0 { dr } else { -dr };
                if let Some(s) = Square::from_index(i as u8).offset(df, dr) {
                    b = b.with(s);
                }
                k += 1;
            }
            t[c][i] = b;
            i += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[Bitboard; 81]; 2] = build_steps(&[(0, -1)]);
static KNIGHT: [[Bitboard; 81]; 2] = build_steps(&[(-1, -2), (1, -2)]);
static SILVER: [[Bitboard; 81]; 2] = build_steps(&[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)]);
static GOLD: [[Bitboard; 81]; 2] = build_steps(&[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)]);
static KING: [[Bitboard; 81]; 2] = build_steps(&[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (-1, 1), (1, 1)]);

// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
const fn build_between() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DELTAS[d];
            let mut acc = Bitboard::EMPTY;
            let mut cur = Square::from_index(a as u8).offset(df, dr);
            while let Some(s) = cur {
                t[a][s.index()] = acc;
                acc = acc.with(s);
                cur = s.offset(df, dr);
            }
            d += 1;
        }
        a += 1;
    }
    t
}

// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
const fn build_line() -> [[Bitboard; 81]; 81] {
    let mut t = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DELTAS[d];
            // The whole line through `a` in this direction, both ways, `a` included.
            let opposite = d ^ 1;
            let full = RAYS_CONST[d][a]
                .or(RAYS_CONST[opposite][a])
                .with(Square::from_index(a as u8));
            let mut cur = Square::from_index(a as u8).offset(df, dr);
            while let Some(s) = cur {
                t[a][s.index()] = full;
                cur = s.offset(df, dr);
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const RAYS_CONST: [[Bitboard; 81]; 8] = build_rays();
static BETWEEN: [[Bitboard; 81]; 81] = build_between();
static LINE: [[Bitboard; 81]; 81] = build_line();

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` (edge to edge) when they are aligned; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b` (`a != b`).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// The empty-board ray from `sq` in `dir` (excluding `sq`).
#[inline(always)]
pub fn ray(dir: Direction, sq: Square) -> Bitboard {
    RAYS[dir as usize][sq.index()]
}

#[inline(always)]
fn ray_attacks(dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let r = RAYS[dir][sq.index()];
    let blockers = r & occ;
    let first = if is_positive(dir) {
        blockers.lsb()
    } else {
        blockers.msb()
    };
    match first {
        Some(b) => r ^ RAYS[dir][b.index()],
        None => r,
    }
}

#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}

#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}

#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}

/// A lance's attacks: forward along its file up to and including the first blocker.
#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match c {
        Color::Black => ray_attacks(Direction::N as usize, sq, occ),
        Color::White => ray_attacks(Direction::S as usize, sq, occ),
    }
}

/// A lance's attacks on an empty board.
#[inline(always)]
pub fn lance_pseudo_attacks(c: Color, sq: Square) -> Bitboard {
    match c {
        Color::Black => RAYS[Direction::N as usize][sq.index()],
        Color::White => RAYS[Direction::S as usize][sq.index()],
    }
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attacks(Direction::NE as usize, sq, occ)
        | ray_attacks(Direction::NW as usize, sq, occ)
        | ray_attacks(Direction::SE as usize, sq, occ)
        | ray_attacks(Direction::SW as usize, sq, occ)
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attacks(Direction::N as usize, sq, occ)
        | ray_attacks(Direction::S as usize, sq, occ)
        | ray_attacks(Direction::E as usize, sq, occ)
        | ray_attacks(Direction::W as usize, sq, occ)
}

#[inline(always)]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    let i = sq.index();
    RAYS[4][i] | RAYS[5][i] | RAYS[6][i] | RAYS[7][i]
}

#[inline(always)]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    let i = sq.index();
    RAYS[0][i] | RAYS[1][i] | RAYS[2][i] | RAYS[3][i]
}

#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | king_attacks(sq)
}

#[inline(always)]
pub fn dragon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | king_attacks(sq)
}

/// The squares a piece of `kind` and colour `c` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn attacks(c: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(c, sq),
        PieceKind::Lance => lance_attacks(c, sq, occ),
        PieceKind::Knight => knight_attacks(c, sq),
        PieceKind::Silver => silver_attacks(c, sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver => {
            gold_attacks(c, sq)
        }
        PieceKind::King => king_attacks(sq),
        PieceKind::Horse => horse_attacks(sq, occ),
        PieceKind::Dragon => dragon_attacks(sq, occ),
    }
}

/// The squares `piece` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn piece_attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    attacks(piece.color(), piece.kind(), sq, occ)
}

/// Squares of the ranks `c` promotes in (the three ranks farthest from `c`).
pub const fn promotion_zone(c: Color) -> Bitboard {
    match c {
        Color::Black => RANKS_ABC,
        Color::White => RANKS_GHI,
    }
}

const fn rank_mask(ranks: u32) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < 81 {
        if ranks >> (i % 9) & 1 != 0 {
            b = b.with(Square::from_index(i as u8));
        }
        i += 1;
    }
    b
}

const RANKS_ABC: Bitboard = rank_mask(0b000_000_111);
const RANKS_GHI: Bitboard = rank_mask(0b111_000_000);

/// The ranks on which a piece of `kind` owned by `c` would have no legal move: the last rank
/// for pawns and lances, the last two for knights. Nothing may be dropped or left unpromoted
/// there.
pub const fn dead_ranks(c: Color, kind: PieceKind) -> Bitboard {
    match (kind, c) {
        (PieceKind::Pawn | PieceKind::Lance, Color::Black) => RANK_A,
        (PieceKind::Pawn | PieceKind::Lance, Color::White) => RANK_I,
        (PieceKind::Knight, Color::Black) => RANKS_AB,
        (PieceKind::Knight, Color::White) => RANKS_HI,
        _ => Bitboard::EMPTY,
    }
}

// Named constants so that callers get precomputed masks, not a loop at run time.
const RANK_A: Bitboard = rank_mask(0b1);
const RANK_I: Bitboard = rank_mask(0b1_0000_0000);
const RANKS_AB: Bitboard = rank_mask(0b11);
const RANKS_HI: Bitboard = rank_mask(0b1_1000_0000);

/// For every square, the squares within `radius_files` files and `radius_ranks` ranks of it
/// (itself included), clipped to the board. Compile-time table builder.
// Runs at compile time only; the big local array never exists at run time.
#[allow(clippy::large_stack_arrays)]
pub(crate) const fn build_boxes(radius_files: i8, radius_ranks: i8) -> [Bitboard; 81] {
    let mut t = [Bitboard::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let mut df = -radius_files;
        while df <= radius_files {
            let mut dr = -radius_ranks;
            while dr <= radius_ranks {
                if let Some(s) = Square::from_index(i as u8).offset(df, dr) {
                    t[i] = t[i].with(s);
                }
                dr += 1;
            }
            df += 1;
        }
        i += 1;
    }
    t
}

static BOX_2: [Bitboard; 81] = build_boxes(2, 2);
static BOX_KNIGHT: [Bitboard; 81] = build_boxes(2, 3);

/// Squares within two files and two ranks of `sq`: where a one-step piece must stand to
/// attack a square next to `sq`.
#[inline(always)]
pub fn near_box(sq: Square) -> Bitboard {
    BOX_2[sq.index()]
}

/// Squares within two files and three ranks of `sq`: where a knight must stand to attack a
/// square next to `sq`.
#[inline(always)]
pub fn knight_box(sq: Square) -> Bitboard {
    BOX_KNIGHT[sq.index()]
}

/// All squares of one file.
pub const fn file_mask(file: usize) -> Bitboard {
    FILES[file]
}

const fn build_files() -> [Bitboard; 9] {
    let mut t = [Bitboard::EMPTY; 9];
    let mut i = 0;
    while i < 81 {
        t[i / 9] = t[i / 9].with(Square::from_index(i as u8));
        i += 1;
    }
    t
}

const FILES: [Bitboard; 9] = build_files();

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        let b = s.as_bytes();
        Square::from_usi(b[0], b[1]).unwrap()
    }

    /// Slow reference: walk each ray square by square.
    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut cur = sq.offset(df, dr);
            while let Some(s) = cur {
                out.set(s);
                if occ.contains(s) {
                    break;
                }
                cur = s.offset(df, dr);
            }
        }
        out
    }

    #[test]
    fn sliders_match_slow_walk() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard::from_lanes(seed, seed.rotate_left(29))
                & Bitboard::from_lanes(seed.rotate_left(7), seed.rotate_left(41));
            for s in Square::all() {
                assert_eq!(
                    bishop_attacks(s, occ),
                    slow_slider(s, occ, &[(-1, -1), (1, -1), (-1, 1), (1, 1)])
                );
                assert_eq!(
                    rook_attacks(s, occ),
                    slow_slider(s, occ, &[(0, -1), (0, 1), (-1, 0), (1, 0)])
                );
                assert_eq!(lance_attacks(Color::Black, s, occ), slow_slider(s, occ, &[(0, -1)]));
                assert_eq!(lance_attacks(Color::White, s, occ), slow_slider(s, occ, &[(0, 1)]));
            }
        }
    }

    #[test]
    fn step_tables() {
        assert_eq!(
            knight_attacks(Color::Black, sq("2i")),
            Bitboard::from_square(sq("1g")) | Bitboard::from_square(sq("3g"))
        );
        assert_eq!(
            knight_attacks(Color::White, sq("8a")),
            Bitboard::from_square(sq("7c")) | Bitboard::from_square(sq("9c"))
        );
        assert_eq!(gold_attacks(Color::Black, sq("5e")).count(), 6);
        assert!(!gold_attacks(Color::Black, sq("5e")).contains(sq("4f")));
        assert!(silver_attacks(Color::White, sq("5e")).contains(sq("5f")));
        assert_eq!(king_attacks(sq("1a")).count(), 3);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("5a"), sq("5e")).count(), 3);
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert_eq!(line(sq("5a"), sq("5e")), file_mask(4));
        assert!(line(sq("1a"), sq("2c")).is_empty());
        assert!(aligned(sq("1a"), sq("3c"), sq("9i")));
    }
}
