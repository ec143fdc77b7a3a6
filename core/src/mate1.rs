//! Mate in one: the checking moves after which the defender has no legal reply.
//!
//! Candidates come from the reverse-attack check generator (adjacent checks, knight checks,
//! distant checks and discovered checks alike); each is played and the defender's replies are
//! looked for with an early-exit evasion test, cheapest first: a safe king step, then a
//! capture of the checker, then an interposition. Pawn-drop mate is never produced, because
//! the check generator does not generate it.

use crate::attacks::{aligned, attacks, between, dead_ranks, king_attacks};
use crate::movegen::{MoveList, generate_checks};
use crate::mv::Move;
use crate::position::Position;
use crate::types::PieceKind;

impl Position {
    /// A move that checkmates at once, if there is one (non-promotions included).
    pub fn mate_in_one(&mut self) -> Option<Move> {
        let mut checks = MoveList::new();
        generate_checks::<true>(self, &mut checks);
        for &m in checks.iter() {
            self.do_move(m);
            let mated = !self.has_evasion();
            self.undo_move(m);
            if mated {
                return Some(m);
            }
        }
        None
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
            if self.attackers_to(them, to, occ_no_king).is_empty() {
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
