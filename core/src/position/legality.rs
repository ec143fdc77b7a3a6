//! Legality of single moves: moves from outside (GUI, transposition table) and the king-safety
//! filter for generated pseudo-legal moves.

use super::Position;
use crate::attacks::{aligned, attacks, between, dead_ranks, file_mask, king_attacks, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::mv::{Move, MoveParseError};
use crate::types::{PieceKind, Square};

impl Position {
    /// Whether `m` obeys the movement rules in this position, ignoring the safety of the
    /// mover's king and the pawn-drop-mate rule: the piece exists and moves that way, the path
    /// is clear, promotion is allowed or forced as the rules say, drops come from the hand
    /// onto an empty square with no nifu and no dead piece. Safe on any 16-bit move.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let kind = m.dropped_kind();
            return self.piece_on(to).is_none()
                && self.hands[us.index()].has(kind)
                && !dead_ranks(us, kind).contains(to)
                && (kind != PieceKind::Pawn
                    || (self.pieces_of(us, PieceKind::Pawn) & file_mask(to.file().index())).is_empty());
        }
        let from = m.from();
        let Some(p) = self.piece_on(from) else { return false };
        if p.color() != us {
            return false;
        }
        if let Some(target) = self.piece_on(to)
            && target.color() == us
        {
            return false;
        }
        let kind = p.kind();
        if !attacks(us, kind, from, self.occupied()).contains(to) {
            return false;
        }
        if m.is_promotion() {
            kind.can_promote() && (from.in_zone(us) || to.in_zone(us))
        } else {
            !dead_ranks(us, kind).contains(to)
        }
    }

    /// Whether the pseudo-legal move `m` is legal: it does not leave the mover's king in
    /// check, and a pawn drop does not give mate.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side;
        if m.is_drop() {
            if let Some(ksq) = self.kings[us.index()] {
                let checkers = self.checkers();
                if checkers.is_nonempty() {
                    // A drop can only interpose against a single distant checker.
                    if checkers.has_more_than_one() || !between(ksq, checkers.single()).contains(m.to()) {
                        return false;
                    }
                }
            }
            return m.dropped_kind() != PieceKind::Pawn || !self.is_pawn_drop_mate(m.to());
        }
        let Some(ksq) = self.kings[us.index()] else { return true };
        let from = m.from();
        let to = m.to();
        if from == ksq {
            return !self.attackers_to(!us, to, self.occupied().without(from)).is_nonempty();
        }
        if self.pinned(us).contains(from) && !aligned(ksq, from, to) {
            return false;
        }
        let checkers = self.checkers();
        if checkers.is_nonempty() {
            if checkers.has_more_than_one() {
                return false;
            }
            let c = checkers.single();
            return to == c || between(ksq, c).contains(to);
        }
        true
    }

    /// Full validation of a move that may come from anywhere.
    #[inline]
    pub fn is_legal_move(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal(m)
    }

    /// Parses USI move text and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let m = Move::from_usi(text)?;
        if self.is_legal_move(m) {
            Ok(m)
        } else {
            Err(MoveParseError::Illegal(m.to_string()))
        }
    }

    /// Whether dropping a pawn of the side to move on `to` would checkmate (uchifuzume).
    /// Only a pawn dropped straight in front of the enemy king can.
    pub fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(ksq) = self.kings[them.index()] else {
            return false;
        };
        if !pawn_attacks(us, to).contains(ksq) {
            return false;
        }
        let occ = self.occupied().with(to);
        // Can a defender other than the king take the pawn without exposing its king?
        let takers = self.attackers_to(them, to, occ).without(ksq);
        let pinned = self.pinned(them);
        for s in takers {
            if !pinned.contains(s) || aligned(ksq, s, to) {
                return false;
            }
        }
        // Can the king step anywhere (taking the pawn included) out of attack?
        let occ_no_king = occ.without(ksq);
        let escapes = king_attacks(ksq).and_not(self.pieces(them));
        for s in escapes {
            if self.attackers_to(us, s, occ_no_king).is_empty() {
                return false;
            }
        }
        true
    }

    /// Slow, independent legality test (plays the move on a copy and asks whether the mover's
    /// king is attacked). Meant for tests that check the fast paths.
    pub fn is_legal_slow(&self, m: Move) -> bool {
        if !self.is_pseudo_legal(m) {
            return false;
        }
        let us = self.side;
        let mut after = self.clone();
        after.do_move(m);
        if let Some(k) = after.kings[us.index()]
            && after.is_attacked(!us, k)
        {
            return false;
        }
        if m.is_drop() && m.dropped_kind() == PieceKind::Pawn && after.in_check() {
            // Pawn-drop mate: the opponent has no legal reply at all.
            let mut any = false;
            let occ = after.occupied();
            let mover = after.side;
            'outer: for from in after.pieces(mover) {
                let Some(p) = after.piece_on(from) else { continue };
                let targets = attacks(mover, p.kind(), from, occ).and_not(after.pieces(mover));
                for to in targets {
                    for promote in [false, true] {
                        let mv = Move::normal(from, to, promote);
                        if after.is_pseudo_legal(mv) && after.leaves_king_safe(mv) {
                            any = true;
                            break 'outer;
                        }
                    }
                }
            }
            if !any {
                // Interposition is impossible against an adjacent pawn check.
                return false;
            }
        }
        true
    }

    /// Plays `m` on a copy and reports whether the mover's king is then unattacked.
    fn leaves_king_safe(&self, m: Move) -> bool {
        let us = self.side;
        let mut after = self.clone();
        after.do_move(m);
        after.kings[us.index()].is_none_or(|k| !after.is_attacked(!us, k))
    }

    /// Squares where the side to move may drop an unpromoted pawn without nifu
    /// (the dead last rank and pawn-drop mate are not excluded here).
    #[inline]
    pub(crate) fn pawn_drop_files_ok(&self) -> Bitboard {
        let pawns = self.pieces_of(self.side, PieceKind::Pawn);
        let mut ok = Bitboard::FULL;
        for s in pawns {
            ok &= !file_mask(s.file().index());
        }
        ok
    }
}
