//! Mate in one: the checking moves after which the defender has no legal reply.
//!
//! Candidates come from the reverse-attack check generator (adjacent checks, knight checks,
//! distant checks and discovered checks alike). Each is judged without playing it: the
//! position after the move is described by its occupancy and the moved piece, and the
//! defender's replies are looked for cheapest first: a safe king step, then a capture of the
//! checker, then an interposition by drop or by move, each tested for exposing the king to
//! the attacker's sliders. The one case this does not settle (an interposing pawn drop that
//! would itself check the attacker's king, where the pawn-drop-mate rule could forbid it) is
//! played out on the board instead. Pawn-drop mate is never produced, because the check
//! generator does not generate it.

use crate::attacks::{
    aligned, attacks, between, bishop_attacks, dead_ranks, file_mask, king_attacks, lance_attacks, line, pawn_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::movegen::{MoveList, generate_board_checks, generate_checks};
use crate::mv::Move;
use crate::position::Position;
use crate::types::PieceKind;

impl Position {
    /// A move that checkmates at once, if there is one (non-promotions included).
    pub fn mate_in_one(&self) -> Option<Move> {
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king_square(them)?;
        if self.in_check() {
            // Rare: checks that also answer our own check. Take the general path.
            let mut checks = MoveList::new();
            generate_checks::<true>(self, &mut checks);
            return checks.iter().copied().find(|&m| self.mates_by_playing(m));
        }
        let occ_no_king = self.occupied().without(ksq);
        // King steps that are free now.
        let free = king_attacks(ksq)
            .and_not(self.pieces(them))
            .and_not(self.attacks_around(us, ksq, occ_no_king));
        // Drops. A drop only adds a piece: it may cover squares itself and block our own
        // lines, never uncover one, so it can mate only from squares that cover every free
        // king step (or stand on it). A checking pawn drop never mates legally (that would be
        // the forbidden pawn-drop mate), so pawns are skipped.
        let empty = !self.occupied();
        for kind in self.hand(us).kinds() {
            if kind == PieceKind::Pawn {
                continue;
            }
            let mut to_sqs = attacks(them, kind, ksq, self.occupied()) & empty;
            to_sqs = to_sqs.and_not(dead_ranks(us, kind));
            for f in free {
                to_sqs &= attacks(them, kind, f, occ_no_king).with(f);
            }
            for to in to_sqs {
                let m = Move::drop(kind, to);
                if self.check_mates(m).unwrap_or_else(|| self.mates_by_playing(m)) {
                    return Some(m);
                }
            }
        }
        let mut checks = MoveList::new();
        generate_board_checks::<true>(self, &mut checks);
        checks
            .iter()
            .copied()
            .filter(|&m| {
                // A free king step that the moved piece does not cover stays free unless
                // vacating the origin opens one of our lines onto it, which needs the origin
                // and the square to be aligned.
                let from = m.from();
                let Some(p) = self.piece_on(from) else { return true };
                let kind = if m.is_promotion() { p.kind().promote() } else { p.kind() };
                let occ_after = occ_no_king.without(from).with(m.to());
                let covered = attacks(us, kind, m.to(), occ_after);
                !free
                    .and_not(covered)
                    .without(m.to())
                    .into_iter()
                    .any(|f| line(f, from).is_empty())
            })
            .find(|&m| self.check_mates(m).unwrap_or_else(|| self.mates_by_playing(m)))
    }

    /// Plays `m` on a copy and asks whether the opponent is left without a reply.
    fn mates_by_playing(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.do_move(m);
        !after.has_evasion()
    }

    /// Whether the legal checking move `m` mates, judged without playing it; `None` when a
    /// pawn-drop-mate question on the defender's side makes the answer need the board.
    fn check_mates(&self, m: Move) -> Option<bool> {
        let us = self.side_to_move();
        let them = !us;
        let ksq = self.king_square(them)?;
        let to = m.to();
        let (from_bb, kind) = if m.is_drop() {
            (Bitboard::EMPTY, m.dropped_kind())
        } else {
            let p = self.piece_on(m.from())?;
            let k = if m.is_promotion() { p.kind().promote() } else { p.kind() };
            (Bitboard::from_square(m.from()), k)
        };
        let occ = self.occupied().and_not(from_bb).with(to);
        let theirs = self.pieces(them).without(to);
        // Our pieces that kept their square (the moved piece is accounted for separately).
        let ours_fixed = self.pieces(us).and_not(from_bb);
        let mover_attacks = |o: Bitboard| attacks(us, kind, to, o);

        // 1. King steps: squares the moved piece covers are settled without further work.
        let occ_no_king = occ.without(ksq);
        let covered = mover_attacks(occ_no_king);
        for s in king_attacks(ksq).and_not(theirs).and_not(covered) {
            if !self.is_attacked_by(us, s, occ_no_king, ours_fixed) {
                return Some(false);
            }
        }

        // 2. Who checks after the move.
        let mut checkers = self.attackers_to(us, ksq, occ) & ours_fixed;
        if mover_attacks(occ).contains(ksq) {
            checkers.set(to);
        }
        if checkers.has_more_than_one() {
            return Some(true);
        }
        let checker = checkers.lsb()?;

        // Whether the defender's king is attacked by one of our sliders under occupancy `o`,
        // with the pieces on `gone` removed from our side (captured).
        let sliders_hit_king = |o: Bitboard, gone: Bitboard| {
            let mine = ours_fixed.and_not(gone);
            let hit = (lance_attacks(them, ksq, o) & self.kind_bb(crate::types::PieceKind::Lance))
                | (bishop_attacks(ksq, o) & self.bishops_horses(us))
                | (rook_attacks(ksq, o) & self.rooks_dragons(us));
            (hit & mine).is_nonempty() || (!gone.contains(to) && mover_attacks(o).contains(ksq))
        };

        // 3. Captures of the checker by anything but the king.
        let takers = (self.attackers_to(them, checker, occ) & theirs).without(ksq);
        for t in takers {
            if !sliders_hit_king(occ.without(t), Bitboard::from_square(checker)) {
                return Some(false);
            }
        }

        // 4. Interpositions.
        let gap = between(ksq, checker);
        if gap.is_empty() {
            return Some(true);
        }
        let hand = self.hand(them);
        for k in hand.kinds() {
            let mut sqs = gap.and_not(dead_ranks(them, k));
            if k == PieceKind::Pawn {
                // The pawn taken by the checking move (if any) no longer blocks its file.
                for p in self.pieces_of(them, PieceKind::Pawn).without(to) {
                    sqs &= !file_mask(p.file().index());
                }
                if sqs.is_empty() {
                    continue;
                }
                // An interposed pawn that checks our king might be a pawn-drop mate.
                if let Some(our_king) = self.king_square(us)
                    && sqs.into_iter().any(|s| pawn_attacks(them, s).contains(our_king))
                {
                    return None;
                }
                return Some(false);
            }
            if sqs.is_nonempty() {
                return Some(false);
            }
        }
        for s in gap {
            let movers = (self.attackers_to(them, s, occ) & theirs).without(ksq);
            for t in movers {
                if !sliders_hit_king(occ.without(t).with(s), Bitboard::EMPTY) {
                    return Some(false);
                }
            }
        }
        Some(true)
    }

    /// In check: whether the side to move has any legal reply. Out of check: whether it has
    /// any legal move at all.
    pub fn has_evasion(&self) -> bool {
        if !self.in_check() {
            return self.has_legal_move();
        }
        let us = self.side_to_move();
        let them = !us;
        let Some(ksq) = self.king_square(us) else { return true };
        let occ = self.occupied();
        let occ_no_king = occ.without(ksq);
        for to in king_attacks(ksq).and_not(self.pieces(us)) {
            if !self.is_attacked_by(them, to, occ_no_king, Bitboard::FULL) {
                return true;
            }
        }
        let checkers = self.checkers();
        if checkers.has_more_than_one() {
            return false;
        }
        let checker = checkers.single();
        let pinned = self.pinned(us);
        // Captures of the checker by anything but the king (the king was tried above).
        let takers = self.attackers_to(us, checker, occ).without(ksq);
        for from in takers {
            if !pinned.contains(from) || aligned(ksq, from, checker) {
                return true;
            }
        }
        let gap = between(ksq, checker);
        if gap.is_empty() {
            return false;
        }
        // Interposing drops: a pawn only where nifu and the last rank allow (a pawn dropped
        // between the king and a distant checker cannot be a pawn-drop mate unless it checks;
        // test that case exactly), other kinds wherever their dead ranks allow.
        let hand = self.hand(us);
        for kind in hand.kinds() {
            let mut sqs = gap.and_not(dead_ranks(us, kind));
            if kind == PieceKind::Pawn {
                sqs &= self.pawn_drop_files_ok();
                for s in sqs {
                    if !self.is_pawn_drop_mate(s) {
                        return true;
                    }
                }
            } else if sqs.is_nonempty() {
                return true;
            }
        }
        // Interposing board moves by unpinned pieces (not the king).
        let movers = self.pieces(us).and_not(pinned).without(ksq);
        for from in movers {
            let Some(p) = self.piece_on(from) else { continue };
            let reach = attacks(us, p.kind(), from, occ) & gap;
            for to in reach {
                // A pawn, lance or knight may only stop where it could move again, unless
                // it promotes, which it may do whenever the move touches the zone.
                let kind = p.kind();
                if !dead_ranks(us, kind).contains(to) || (kind.can_promote() && (to.in_zone(us) || from.in_zone(us))) {
                    return true;
                }
            }
        }
        false
    }
}
