//! Static exchange evaluation: does a move win at least `threshold` centipawns if both sides
//! then capture on its target square, least valuable attacker first, and may stop at any time?
//!
//! Used to split captures into good and bad ones, and to prune moves that put a piece where
//! it is lost for nothing. Sliders behind a capturer (x-rays) join the exchange because the
//! attackers are recomputed with each capturer removed from the occupancy. Promotions during
//! the exchange and pins are ignored: SEE is a guess for ordering and pruning, not a rule.

use crate::eval::board_value;
use soppo_core::{Bitboard, Color, Move, PieceKind, Position, Square};

/// Attackers in the order an exchange uses them: cheapest first.
const ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

fn attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    (pos.attackers_to(Color::Black, sq, occ) | pos.attackers_to(Color::White, sq, occ)) & occ
}

/// What `m` wins before any reply: the piece it takes plus its promotion gain (0 for drops).
pub fn capture_gain(pos: &Position, m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    let taken = pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind()));
    let promotion = if m.is_promotion() {
        pos.piece_on(m.from())
            .map_or(0, |p| board_value(p.kind().promote()) - board_value(p.kind()))
    } else {
        0
    };
    taken + promotion
}

/// Whether `m` (pseudo-legal for the side to move) wins at least `threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let us = pos.side_to_move();
    let to = m.to();
    let (moved_value, mut occ) = if m.is_drop() {
        (board_value(m.dropped_kind()), pos.occupied())
    } else {
        let Some(p) = pos.piece_on(m.from()) else { return false };
        let kind = if m.is_promotion() { p.kind().promote() } else { p.kind() };
        (board_value(kind), pos.occupied().without(m.from()))
    };
    // What we gain if the opponent does not recapture.
    let mut swap = capture_gain(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    // What we keep if the opponent recaptures and we stop.
    swap = moved_value - swap;
    if swap <= 0 {
        return true;
    }
    occ = occ.with(to);
    let mut stm = us;
    let mut att = attackers(pos, to, occ);
    // 1 while the side that made the last capture is winning the exchange.
    let mut res = true;
    loop {
        stm = !stm;
        att &= occ;
        let mine = att & pos.pieces(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        let Some((sq, kind)) = ORDER
            .iter()
            .find_map(|&k| (mine & pos.kind_bb(k)).lsb().map(|s| (s, k)))
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only take when nothing can take it back.
            return if (att & pos.pieces(!stm)).is_nonempty() {
                !res
            } else {
                res
            };
        }
        swap = board_value(kind) - swap;
        if swap < i32::from(res) {
            break;
        }
        occ = occ.without(sq);
        att = attackers(pos, to, occ);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(sfen: &str, usi: &str, threshold: i32) -> bool {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = pos.parse_move(usi).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn free_capture_wins_the_piece() {
        // Black's bishop takes an undefended rook.
        let sfen = "4k4/9/9/9/5r3/9/3B5/9/4K4 b - 1";
        assert!(see(sfen, "6g4e", 990));
        assert!(!see(sfen, "6g4e", 991));
    }

    #[test]
    fn defended_pawn_taken_by_a_rook_loses() {
        // The pawn on 5d is defended by the gold on 5c: rook takes pawn, gold takes rook.
        let sfen = "4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1";
        assert!(!see(sfen, "5h5d", 0));
        assert!(see(sfen, "5h5d", 90 - 990));
    }

    #[test]
    fn xray_support_counts() {
        // Pawn takes pawn on 5d defended by a gold; Black's rook behind the pawn recaptures.
        // P×P (+90), G×P (−90), R×G (+540), nothing left: Black is up a pawn and a gold.
        let sfen = "4k4/9/4g4/4p4/4P4/9/9/4R4/4K4 b - 1";
        assert!(see(sfen, "5e5d", 90));
        assert!(see(sfen, "5e5d", 0));
    }

    #[test]
    fn drop_into_an_attacked_square_loses_the_piece() {
        // A silver dropped where a pawn takes it for nothing.
        let sfen = "4k4/9/4p4/9/9/9/9/9/4K4 b S 1";
        assert!(!see(sfen, "S*5d", 0));
        assert!(see(sfen, "S*5e", 0));
    }

    #[test]
    fn the_king_cannot_recapture_into_a_defended_square() {
        // Black's gold takes the pawn next to White's king; the king cannot take back because
        // Black's lance defends the square.
        let sfen = "4k4/4p4/4G4/9/9/9/9/4L4/4K4 b - 1";
        assert!(see(sfen, "5c5b", 90));
    }
}
