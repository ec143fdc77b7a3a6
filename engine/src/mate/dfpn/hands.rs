//! Hand arithmetic for proof and disproof pieces.
//!
//! A *proof hand* `P` stored with a proven node means: the same board with any attacker hand
//! `h >= P` is a mate. A *disproof hand* `D` stored with a disproven node means: the same board
//! with any attacker hand `h <= D` is not a mate. Both rely on the total material being fixed
//! within one table (see `Dfpn::material_signature`), so that the defender's hand is implied by
//! the board and the attacker's hand: more attacker pieces means fewer defender pieces.

use soppo_core::{Hand, Move, PieceKind, Position};

/// Every kind at its capacity: the disproof hand of a node before any child restricts it.
pub(super) fn full() -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, Hand::capacity(k));
    }
    h
}

/// Per-kind maximum.
pub(super) fn max(a: Hand, b: Hand) -> Hand {
    if a.dominates(b) {
        return a;
    }
    if b.dominates(a) {
        return b;
    }
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, a.count(k).max(b.count(k)));
    }
    h
}

/// Per-kind minimum.
pub(super) fn min(a: Hand, b: Hand) -> Hand {
    if a.dominates(b) {
        return b;
    }
    if b.dominates(a) {
        return a;
    }
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        h.set(k, a.count(k).min(b.count(k)));
    }
    h
}

/// The proof hand before the attacker's move `m`, from the proof hand `child` after it.
/// A dropped piece must be held beforehand; a captured piece need not be (it is won by `m`).
pub(super) fn proof_before_attack(mut child: Hand, m: Move, captured: Option<PieceKind>) -> Hand {
    if m.is_drop() {
        child.add(m.dropped_kind());
    } else if let Some(c) = captured
        && child.has(c)
    {
        child.remove(c);
    }
    child
}

/// The disproof hand before the attacker's move `m`, from the disproof hand `child` after it.
pub(super) fn disproof_before_attack(mut child: Hand, m: Move, captured: Option<PieceKind>) -> Hand {
    if m.is_drop() {
        let k = m.dropped_kind();
        if child.count(k) < Hand::capacity(k) {
            child.add(k);
        }
    } else if let Some(c) = captured
        && child.has(c)
    {
        child.remove(c);
    }
    child
}

/// At a proven AND node: the attacker must keep every piece of the kinds the defender does not
/// hold, or the defender would hold some in the looked-up position and could interpose with a
/// drop the proof never considered.
pub(super) fn keep_kinds_defender_lacks(mut proof: Hand, attacker: Hand, defender: Hand) -> Hand {
    for k in PieceKind::HAND {
        if !defender.has(k) {
            proof.set(k, proof.count(k).max(attacker.count(k)));
        }
    }
    proof
}

/// At a disproven OR node: kinds the attacker does not hold were never dropped, so the
/// disproof only holds while he still holds none of them.
pub(super) fn drop_kinds_attacker_lacks(mut disproof: Hand, attacker: Hand) -> Hand {
    for k in PieceKind::HAND {
        if !attacker.has(k) {
            disproof.set(k, 0);
        }
    }
    disproof
}

/// The proof hand of a checkmate (defender to move, no legal reply). Only an interposing drop
/// could have helped, and only against a single distant check; then every kind the defender
/// lacks must stay with the attacker.
pub(super) fn checkmate_proof(pos: &Position) -> Hand {
    let defender = pos.side_to_move();
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return Hand::EMPTY;
    }
    let Some(ksq) = pos.king_square(defender) else {
        return Hand::EMPTY;
    };
    if soppo_core::attacks::between(ksq, checkers.single()).is_empty() {
        return Hand::EMPTY;
    }
    keep_kinds_defender_lacks(Hand::EMPTY, pos.hand(!defender), pos.hand(defender))
}
