//! Static evaluation: material, with pieces in hand worth a little more than on the board
//! (a piece in hand can go anywhere). The search issue replaces it with a full evaluation.

use soppo_core::{Color, PieceKind, Position};

/// Centipawn value of a piece on the board.
pub const fn board_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 90,
        PieceKind::Lance => 315,
        PieceKind::Knight => 405,
        PieceKind::Silver => 495,
        PieceKind::Gold | PieceKind::ProSilver | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight => 540,
        PieceKind::Bishop => 855,
        PieceKind::Rook => 990,
        PieceKind::Horse => 945,
        PieceKind::Dragon => 1395,
        PieceKind::King => 0,
    }
}

/// Centipawn value of a piece in hand.
pub const fn hand_value(kind: PieceKind) -> i32 {
    board_value(kind) * 11 / 10
}

/// Material balance from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            let v = board_value(p.kind());
            score += if p.color() == Color::Black { v } else { -v };
        }
    }
    for kind in PieceKind::HAND {
        let v = hand_value(kind);
        score += v * pos.hand(Color::Black).count(kind) as i32;
        score -= v * pos.hand(Color::White).count(kind) as i32;
    }
    if pos.side_to_move() == Color::Black {
        score
    } else {
        -score
    }
}
