//! A position in 32 bytes: board, hands and side to move (not the move number or the
//! history), for training data.
//!
//! The code is a bit string, written from the lowest bit of byte 0 upwards:
//!
//! 1. the side to move: 1 bit (0 Black, 1 White);
//! 2. both kings' squares as one number, `black × 82 + white`, each a square index `0..81`
//!    or 81 for no king: 13 bits;
//! 3. every square in index order except the kings': `0` for an empty square, else `1`, the
//!    kind's code, a promotion bit for kinds that promote, and the colour bit (0 Black);
//!    kind codes, bits in the order written: pawn `0`, lance `100`, knight `101`, silver
//!    `110`, gold `1110`, bishop `11110`, rook `11111` (a promoted piece has its base kind's
//!    code and the promotion bit set);
//! 4. for each hand kind in [`PieceKind::HAND`] order, with `r` the pieces of that kind a
//!    full set has and the board does not: Black's count in `bits(r)` bits, then White's in
//!    `bits(r − black)` bits, where `bits(n)` is the width of `n` in binary (0 bits for 0);
//!    what is left of `r` is out of play (a handicap's pieces, a tsume problem's unused ones);
//! 5. zeros to the end.
//!
//! Every code is canonical: [`Position::unpack`] refuses a string with anything else after
//! the hands, so a position has exactly one packing and `pack(unpack(b)) == b` whenever
//! `unpack(b)` succeeds.
//!
//! Size: with both kings and all 38 other pieces on the board, the side and kings take 14
//! bits, the 79 other squares one bit each and the pieces 18 × 3 + 16 × 5 + 4 × 7 bits more:
//! 255 bits in all. A piece taken off the
//! board saves its code less one bit (3, 5 or 7) and its kind's hand fields cost at most
//! `2 · bits(r)`, which is never more than that: every position with at most one full set of
//! each kind and at least one king fits 32 bytes (a missing king costs its square's bit).
//! Refused by [`Position::pack`]: more pieces of a kind than a set has (SFEN accepts them
//! for some test suites), and, in principle, no king at all with every other piece on the
//! board (257 bits).

use super::{Position, SfenError, sfen};
use crate::attacks::dead_ranks;
use crate::types::{Color, Piece, PieceKind, Square};
use thiserror::Error;

/// Bytes of a packed position.
pub const PACKED_BYTES: usize = 32;

/// A packed position (see the module's documentation).
pub type PackedPosition = [u8; PACKED_BYTES];

const BITS: usize = PACKED_BYTES * 8;
/// The code of a missing king.
const NO_KING: usize = 81;
const KING_CODES: usize = 82;
const KING_BITS: u32 = 13;
const _: () = assert!(KING_CODES * KING_CODES <= 1 << KING_BITS);

/// Why a position cannot be packed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PackError {
    #[error("more {0:?} pieces than one set has")]
    MoreThanASet(PieceKind),
    #[error("the position needs more than {BITS} bits (no king and nearly every piece on the board)")]
    TooLong,
}

/// Why 32 bytes are not a packed position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum UnpackError {
    #[error("not a packed position: {0}")]
    Code(&'static str),
    #[error("the packed position is impossible: {0}")]
    Position(#[from] SfenError),
}

/// A kind's code (first bit written in the lowest bit) and its length.
const fn kind_code(base: PieceKind) -> (u32, u32) {
    match base {
        PieceKind::Pawn => (0b0, 1),
        PieceKind::Lance => (0b001, 3),
        PieceKind::Knight => (0b101, 3),
        PieceKind::Silver => (0b011, 3),
        PieceKind::Gold => (0b0111, 4),
        PieceKind::Bishop => (0b01111, 5),
        // King (never coded: the kings' squares come first) and rook.
        _ => (0b11111, 5),
    }
}

/// The width of `n` in binary (0 for 0).
const fn width(n: u32) -> u32 {
    u32::BITS - n.leading_zeros()
}

/// Writes bits upwards from bit 0; a scratch longer than the code, so that a position that
/// does not fit is found when it is done rather than by bounds checks on every bit.
struct Writer {
    bytes: [u8; 2 * PACKED_BYTES],
    len: usize,
}

impl Writer {
    fn put(&mut self, value: u32, bits: u32) {
        for i in 0..bits {
            if self.len < 8 * self.bytes.len() {
                if value >> i & 1 != 0 {
                    self.bytes[self.len / 8] |= 1 << (self.len % 8);
                }
                self.len += 1;
            }
        }
    }
}

/// Reads bits upwards from bit 0; an error past the end.
struct Reader<'a> {
    bytes: &'a PackedPosition,
    pos: usize,
}

impl Reader<'_> {
    fn bit(&mut self) -> Result<bool, UnpackError> {
        if self.pos >= BITS {
            return Err(UnpackError::Code("the code runs past 256 bits"));
        }
        let b = self.bytes[self.pos / 8] >> (self.pos % 8) & 1 != 0;
        self.pos += 1;
        Ok(b)
    }

    fn bits(&mut self, n: u32) -> Result<u32, UnpackError> {
        let mut v = 0;
        for i in 0..n {
            v |= u32::from(self.bit()?) << i;
        }
        Ok(v)
    }

    /// A kind's code, read bit by bit.
    fn kind(&mut self) -> Result<PieceKind, UnpackError> {
        if !self.bit()? {
            return Ok(PieceKind::Pawn);
        }
        Ok(match (self.bit()?, self.bit()?) {
            (false, false) => PieceKind::Lance,
            (false, true) => PieceKind::Knight,
            (true, false) => PieceKind::Silver,
            (true, true) => {
                if !self.bit()? {
                    PieceKind::Gold
                } else if self.bit()? {
                    PieceKind::Rook
                } else {
                    PieceKind::Bishop
                }
            }
        })
    }
}

/// The index of a hand kind in [`PieceKind::HAND`].
fn hand_index(kind: PieceKind) -> usize {
    PieceKind::HAND.iter().position(|&k| k == kind).unwrap_or(0)
}

impl Position {
    /// The position in [`PACKED_BYTES`] bytes (see the module's documentation); the move
    /// number and the history are not kept.
    pub fn pack(&self) -> Result<PackedPosition, PackError> {
        let w = self.code()?;
        if w.len > BITS {
            return Err(PackError::TooLong);
        }
        let mut out = [0; PACKED_BYTES];
        out.copy_from_slice(&w.bytes[..PACKED_BYTES]);
        Ok(out)
    }

    /// The code of [`Position::pack`], of any length.
    fn code(&self) -> Result<Writer, PackError> {
        let mut on_board = [0u32; 7];
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq)
                && p.kind() != PieceKind::King
            {
                on_board[hand_index(p.kind().unpromote())] += 1;
            }
        }
        for (kind, &n) in PieceKind::HAND.iter().zip(&on_board) {
            let held = self.hand(Color::Black).count(*kind) + self.hand(Color::White).count(*kind);
            if n + held > kind.full_set_count() {
                return Err(PackError::MoreThanASet(*kind));
            }
        }
        let mut w = Writer {
            bytes: [0; 2 * PACKED_BYTES],
            len: 0,
        };
        w.put(self.side_to_move() as u32, 1);
        let king = |c: Color| self.king_square(c).map_or(NO_KING, Square::index);
        w.put((king(Color::Black) * KING_CODES + king(Color::White)) as u32, KING_BITS);
        for index in 0..Square::COUNT as u8 {
            match self.board[index as usize] {
                Some(p) if p.kind() == PieceKind::King => {}
                None => w.put(0, 1),
                Some(p) => {
                    let base = p.kind().unpromote();
                    let (code, len) = kind_code(base);
                    w.put(1, 1);
                    w.put(code, len);
                    if base.can_promote() {
                        w.put(u32::from(p.kind().is_promoted()), 1);
                    }
                    w.put(p.color() as u32, 1);
                }
            }
        }
        for (kind, &n) in PieceKind::HAND.iter().zip(&on_board) {
            let rest = kind.full_set_count() - n;
            let black = self.hand(Color::Black).count(*kind);
            w.put(black, width(rest));
            w.put(self.hand(Color::White).count(*kind), width(rest - black));
        }
        Ok(w)
    }

    /// The position of a [`Position::pack`] code, with move number 1 and no history; refuses
    /// (never panics on) bytes that are not a code or a position the rules allow (the checks
    /// of [`Position::from_sfen`]: nifu, pieces that could never move, the side not to move in
    /// check).
    pub fn unpack(bytes: &PackedPosition) -> Result<Position, UnpackError> {
        let mut r = Reader { bytes, pos: 0 };
        let mut pos = Position::empty();
        pos.side = if r.bit()? { Color::White } else { Color::Black };
        let kings = r.bits(KING_BITS)? as usize;
        let (black_king, white_king) = (kings / KING_CODES, kings % KING_CODES);
        if black_king >= KING_CODES {
            return Err(UnpackError::Code("a king code beyond the squares"));
        }
        if black_king == white_king && black_king != NO_KING {
            return Err(UnpackError::Code("both kings on one square"));
        }
        let mut on_board = [0u32; 7];
        for index in 0..Square::COUNT as u8 {
            let sq = Square::from_index(index);
            let usize_index = index as usize;
            if usize_index == black_king || usize_index == white_king {
                let c = if usize_index == black_king {
                    Color::Black
                } else {
                    Color::White
                };
                pos.put_piece(Piece::new(c, PieceKind::King), sq);
                continue;
            }
            if !r.bit()? {
                continue;
            }
            let base = r.kind()?;
            let promoted = base.can_promote() && r.bit()?;
            let color = if r.bit()? { Color::White } else { Color::Black };
            let kind = if promoted { base.promote() } else { base };
            let count = &mut on_board[hand_index(base)];
            *count += 1;
            if *count > base.full_set_count() {
                return Err(UnpackError::Code("more pieces of a kind than one set has"));
            }
            if dead_ranks(color, kind).contains(sq) {
                return Err(UnpackError::Code("a piece that could never move"));
            }
            pos.put_piece(Piece::new(color, kind), sq);
        }
        for (kind, &n) in PieceKind::HAND.iter().zip(&on_board) {
            let rest = kind.full_set_count() - n;
            let black = r.bits(width(rest))?;
            if black > rest {
                return Err(UnpackError::Code("more pieces in hand than are off the board"));
            }
            let white = r.bits(width(rest - black))?;
            if white > rest - black {
                return Err(UnpackError::Code("more pieces in hand than are off the board"));
            }
            pos.hands[0].set(*kind, black);
            pos.hands[1].set(*kind, white);
        }
        while r.pos < BITS {
            if r.bit()? {
                return Err(UnpackError::Code("bits set after the end of the code"));
            }
        }
        sfen::validate(&pos)?;
        pos.init_state();
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::{Move, STARTPOS_SFEN};
    use std::path::PathBuf;

    /// The first three SFEN fields (the move number is not packed).
    fn board_side_hands(pos: &Position) -> String {
        let sfen = pos.to_sfen();
        sfen.rsplit_once(' ').map_or(sfen.clone(), |(head, _)| head.to_owned())
    }

    fn round_trip(pos: &Position) {
        let packed = pos.pack().unwrap_or_else(|e| panic!("{}: {e}", pos.to_sfen()));
        let back = Position::unpack(&packed).unwrap_or_else(|e| panic!("{}: {e}", pos.to_sfen()));
        assert_eq!(board_side_hands(&back), board_side_hands(pos));
        assert_eq!(back.key(), Position::from_sfen(&pos.to_sfen()).unwrap().key());
        assert_eq!(back.in_check(), pos.in_check());
        assert_eq!(back.pack(), Ok(packed), "{}: a second packing differs", pos.to_sfen());
    }

    #[test]
    fn typed_positions_round_trip() {
        for sfen in [
            STARTPOS_SFEN,
            // Handicaps: ten pieces (White gives), lance.
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            // A tsume problem: one king, the defender holding the rest.
            "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
            "7nl/5Psk1/8p/6Bp1/9/9/9/9/9 b RGrb3g3s3n3l15p 1",
            // No kings at all.
            "9/9/9/9/4P4/9/9/9/9 b - 1",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 3",
        ] {
            round_trip(&Position::from_sfen(sfen).unwrap());
        }
    }

    #[test]
    fn the_longest_codes_take_255_and_256_bits() {
        assert_eq!(Position::startpos().code().unwrap().len, 255);
        // Every piece on the board but one king: its square is read as empty.
        let one_king = Position::from_sfen("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap();
        assert_eq!(one_king.code().unwrap().len, 256);
        round_trip(&one_king);
        // No king and every piece on the board: the one position shape that does not fit.
        let no_king = Position::from_sfen("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1").unwrap();
        assert_eq!(no_king.pack(), Err(PackError::TooLong));
        // Any piece off the board makes room: in hand ...
        let in_hand = Position::from_sfen("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSG1GSNL b P 1").unwrap();
        round_trip(&in_hand);
        // ... or out of play.
        let out_of_play =
            Position::from_sfen("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSG1GSNL b - 1").unwrap();
        round_trip(&out_of_play);
    }

    #[test]
    fn more_than_a_set_is_refused() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 5G 1").unwrap();
        assert_eq!(pos.pack(), Err(PackError::MoreThanASet(PieceKind::Gold)));
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/P8/4K4 b 18P 1").unwrap();
        assert_eq!(pos.pack(), Err(PackError::MoreThanASet(PieceKind::Pawn)));
    }

    /// Random games (legal moves drawn at random) from the start and from handicaps, every
    /// position packed and unpacked, their twins with the colours swapped too.
    #[test]
    fn random_positions_round_trip() {
        let starts = [
            STARTPOS_SFEN,
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ];
        let mut rng = SplitMix64::new(58);
        let mut positions = 0;
        for game in 0..120 {
            let mut pos = Position::from_sfen(starts[game % starts.len()]).unwrap();
            for _ in 0..200 {
                round_trip(&pos);
                round_trip(&pos.turned());
                positions += 1;
                let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                pos.do_move(*rng.pick(&moves));
            }
        }
        assert!(positions > 10_000, "{positions}");
    }

    #[test]
    fn garbage_is_refused_without_a_panic() {
        let mut rng = SplitMix64::new(7);
        let mut accepted = 0;
        let mut check = |bytes: PackedPosition| {
            if let Ok(pos) = Position::unpack(&bytes) {
                // Whatever unpacks is a position that packs back to the same bytes.
                assert_eq!(pos.pack(), Ok(bytes));
                accepted += 1;
            }
        };
        for _ in 0..20_000 {
            let mut bytes = [0u8; PACKED_BYTES];
            for b in &mut bytes {
                *b = rng.next_u64() as u8;
            }
            check(bytes);
        }
        // Single bit flips and truncations of real codes: near misses.
        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            pos.do_move(pos.parse_move(m).unwrap());
        }
        let packed = pos.pack().unwrap();
        for bit in 0..BITS {
            let mut bytes = packed;
            bytes[bit / 8] ^= 1 << (bit % 8);
            check(bytes);
        }
        for len in 0..PACKED_BYTES {
            let mut bytes = packed;
            bytes[len..].fill(0);
            check(bytes);
            bytes[len..].fill(0xff);
            check(bytes);
        }
        assert_eq!(
            Position::unpack(&[0xff; PACKED_BYTES]).err(),
            Some(UnpackError::Code("a king code beyond the squares"))
        );
        // All zeros: Black to move, both kings on square 0.
        assert!(Position::unpack(&[0; PACKED_BYTES]).is_err());
        assert!(accepted < 1000, "{accepted} random strings were positions");
    }

    /// The shared data directory: `$SOPPO_SHARED_DATA`, else `shared/data` beside the checkout.
    fn shared_data() -> PathBuf {
        std::env::var_os("SOPPO_SHARED_DATA").map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
            PathBuf::from,
        )
    }

    #[test]
    fn every_position_of_the_lishogi_games_round_trips() {
        let path = shared_data().join("games_lishogi500.tsv");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipping: {} not found", path.display());
            return;
        };
        let (mut games, mut positions) = (0, 0);
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let game = line.split('\t').next().unwrap_or_default();
            let moves: Vec<&str> = game
                .split_once(" moves ")
                .map_or(Vec::new(), |(_, m)| m.split_whitespace().collect());
            assert!(game.starts_with("startpos"), "{game}");
            let mut pos = Position::startpos();
            round_trip(&pos);
            for text in moves {
                pos.do_move(pos.parse_move(text).unwrap());
                round_trip(&pos);
                positions += 1;
            }
            games += 1;
        }
        assert_eq!(games, 500);
        assert!(positions > 38_000, "{positions}");
    }
}
