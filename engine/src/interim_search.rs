//! A two-ply material search, good enough to play legal games until the real search lands.

use soppo_core::{Move, PieceKind, Position};

fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 100,
        PieceKind::Lance => 300,
        PieceKind::Knight => 350,
        PieceKind::Silver => 500,
        PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver => 550,
        PieceKind::Bishop => 800,
        PieceKind::Rook | PieceKind::Horse => 1000,
        PieceKind::Dragon => 1200,
        PieceKind::King => 20_000,
    }
}

/// Material gained by `m` (captured piece plus promotion gain).
fn gain(pos: &Position, m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    let captured = pos.piece_on(m.to()).map_or(0, |p| value(p.kind()));
    let promotion = match pos.piece_on(m.from()) {
        Some(p) if m.is_promotion() => value(p.kind().promote()) - value(p.kind()),
        _ => 0,
    };
    captured + promotion
}

/// The move that maximises material after the opponent's best immediate gain; a mate in
/// one first. `None` when there is no legal move.
pub fn best_move(pos: &mut Position) -> Option<Move> {
    if let Some(m) = pos.mate_in_one() {
        return Some(m);
    }
    let moves = pos.legal_moves();
    let mut best: Option<(i32, Move)> = None;
    for &m in &moves {
        let g = gain(pos, m);
        pos.do_move(m);
        let reply = pos.legal_moves();
        let score = if reply.is_empty() {
            // Checkmate given (mate_in_one would have found it) or a stalemate-like position.
            i32::MAX / 2
        } else {
            g - reply.iter().map(|&r| gain(pos, r)).max().unwrap_or(0)
        };
        pos.undo_move(m);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m)
}
