//! Check generation with Bonanza's reverse-attack tables.
//!
//! A piece of kind X gives check from exactly the squares that an X of the *defender's*
//! colour would attack from the defender's king square (the reverse attack, 逆利き). So:
//! - drops that check: reverse attacks of X from the king, on empty squares;
//! - board moves that check directly: destinations in the reverse attacks of X (or of the
//!   promoted X, when the move may promote);
//! - which pieces can possibly do so: for the step pieces and the lance, a table per king
//!   square and colour of the origin squares from which some move reaches a checking square
//!   (Bonanza's `chk_tbl`). Pieces outside it are never looked at, so check generation does
//!   not scan the whole board; sliders are few and are looked at one by one.
//!
//! Discovered checks come from the pieces that block one of our sliders' lines to the king.

use super::{MoveList, push_board_move};
use crate::attacks::{
    aligned, attacks, between, dead_ranks, gold_attacks, knight_attacks, lance_pseudo_attacks, pawn_attacks,
    promotion_zone, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};
use std::sync::LazyLock;

/// The minor kinds that have a candidate table, in table order.
const TABLE_KINDS: [PieceKind; 5] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
];

/// `CANDIDATES[attacker][kind slot][king square]`: the squares a piece of that kind of the
/// attacker may stand on and give check with one move (empty-board superset).
static CANDIDATES: LazyLock<Box<[[[Bitboard; 81]; 5]; 2]>> = LazyLock::new(|| {
    let mut t = Box::new([[[Bitboard::EMPTY; 81]; 5]; 2]);
    for us in Color::ALL {
        let them = !us;
        for (slot, &kind) in TABLE_KINDS.iter().enumerate() {
            for ksq in Square::all() {
                // Checking destinations: reverse attacks of the kind (and of gold for a
                // promoting minor) from the king square.
                let mut dests = step_or_lance_pseudo(them, kind, ksq);
                if kind.can_promote() {
                    dests |= gold_attacks(them, ksq);
                }
                // Origins: squares from which the kind reaches one of them (reverse again).
                let mut origins = Bitboard::EMPTY;
                for d in dests {
                    origins |= step_or_lance_pseudo(them, kind, d);
                }
                t[us.index()][slot][ksq.index()] = origins.without(ksq);
            }
        }
    }
    t
});

fn step_or_lance_pseudo(c: Color, kind: PieceKind, sq: Square) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(c, sq),
        PieceKind::Lance => lance_pseudo_attacks(c, sq),
        PieceKind::Knight => knight_attacks(c, sq),
        PieceKind::Silver => silver_attacks(c, sq),
        _ => gold_attacks(c, sq),
    }
}

/// The origin squares from which a `kind` piece of `us` might give check to a king on
/// `ksq` in one move (Bonanza's check table). `kind` is pawn, lance, knight, silver or gold.
pub fn check_candidates(us: Color, kind: PieceKind, ksq: Square) -> Bitboard {
    let slot = match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        _ => 4,
    };
    CANDIDATES[us.index()][slot][ksq.index()]
}

/// Every legal move that gives check.
pub fn generate_checks<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    generate::<ALL, false, true>(pos, list);
}

/// Legal checking board moves only (no drops), for callers that treat drops themselves.
pub(crate) fn generate_board_checks<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    generate::<ALL, false, false>(pos, list);
}

/// Legal checks that are neither captures nor pawn promotions (the quiet and drop stages).
pub fn generate_quiet_checks<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    generate::<ALL, true, true>(pos, list);
}

fn generate<const ALL: bool, const QUIET: bool, const DROPS: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else { return };
    let start = list.len();
    let occ = pos.occupied();
    let ours = pos.pieces(us);
    let empty = !occ;
    let target = if QUIET { empty } else { !ours };
    let zone = promotion_zone(us);
    // Reverse attacks from the king: where each kind would give check.
    let rev = |kind: PieceKind| attacks(them, kind, ksq, occ);
    let gold_sq = rev(PieceKind::Gold);
    let dc = pos.blockers_for_king(them) & ours;

    // Discovered-check candidates: any move off the line checks; along the line it may still
    // check directly. They are excluded from the direct generation below.
    for from in dc {
        let Some(p) = pos.piece_on(from) else { continue };
        let kind = p.kind();
        let mut tmp = MoveList::new();
        for to in attacks(us, kind, from, occ) & target {
            push_board_move::<ALL>(&mut tmp, us, kind, from, to);
        }
        for &m in &tmp {
            if QUIET && kind == PieceKind::Pawn && m.is_promotion() {
                continue;
            }
            if !aligned(ksq, from, m.to()) || pos.gives_check(m) {
                list.push(m);
            }
        }
    }

    // Pawns.
    {
        let pawns = pos.pieces_of(us, PieceKind::Pawn) & check_candidates(us, PieceKind::Pawn, ksq);
        let pawns = pawns.and_not(dc);
        let plain = rev(PieceKind::Pawn);
        let promo = if QUIET { Bitboard::EMPTY } else { gold_sq & zone };
        for from in pawns {
            let to = match us {
                Color::Black => Square::from_index(from.index() as u8 - 1),
                Color::White => Square::from_index(from.index() as u8 + 1),
            };
            if !target.contains(to) {
                continue;
            }
            if promo.contains(to) {
                list.push(Move::normal(from, to, true));
            }
            if plain.contains(to) && (!zone.contains(to) || (ALL && !dead_ranks(us, PieceKind::Pawn).contains(to))) {
                list.push(Move::normal(from, to, false));
            }
        }
    }

    // Lances, knights, silvers: may promote; candidate tables narrow the origins.
    for kind in [PieceKind::Lance, PieceKind::Knight, PieceKind::Silver] {
        let pieces = (pos.pieces_of(us, kind) & check_candidates(us, kind, ksq)).and_not(dc);
        if pieces.is_empty() {
            continue;
        }
        let plain = rev(kind).and_not(dead_ranks(us, kind));
        for from in pieces {
            let reach = attacks(us, kind, from, occ) & target;
            let from_zone = zone.contains(from);
            for to in reach & (plain | gold_sq) {
                if gold_sq.contains(to) && (from_zone || zone.contains(to)) {
                    list.push(Move::normal(from, to, true));
                }
                if plain.contains(to) {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
    }

    // Gold-movers never promote.
    {
        let golds = (pos.golds(us) & check_candidates(us, PieceKind::Gold, ksq)).and_not(dc);
        for from in golds {
            for to in gold_attacks(us, from) & target & gold_sq {
                list.push(Move::normal(from, to, false));
            }
        }
    }

    // Sliders: few, so each is looked at directly.
    let bishop_sq = rev(PieceKind::Bishop);
    let rook_sq = rev(PieceKind::Rook);
    let horse_sq = bishop_sq | crate::attacks::king_attacks(ksq);
    let dragon_sq = rook_sq | crate::attacks::king_attacks(ksq);
    for (kind, plain, promoted) in [
        (PieceKind::Bishop, bishop_sq, horse_sq),
        (PieceKind::Rook, rook_sq, dragon_sq),
    ] {
        for from in pos.pieces_of(us, kind).and_not(dc) {
            let reach = attacks(us, kind, from, occ) & target;
            let from_zone = zone.contains(from);
            for to in reach & (plain | promoted) {
                let can_promote = from_zone || zone.contains(to);
                if can_promote && promoted.contains(to) {
                    list.push(Move::normal(from, to, true));
                }
                if plain.contains(to) && (!can_promote || ALL) {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
    }
    for (kind, checking) in [(PieceKind::Horse, horse_sq), (PieceKind::Dragon, dragon_sq)] {
        for from in pos.pieces_of(us, kind).and_not(dc) {
            for to in attacks(us, kind, from, occ) & target & checking {
                list.push(Move::normal(from, to, false));
            }
        }
    }

    // Board moves may still leave our own king in check (pins, or we are in check).
    let mut i = start;
    while i < list.len() {
        if pos.is_legal(list[i]) {
            i += 1;
        } else {
            list.swap_remove(i);
        }
    }

    // Drops: onto the reverse-attack squares that are empty (and block, when in check).
    let hand = pos.hand(us);
    if !DROPS || hand.is_empty() {
        return;
    }
    let mut drop_target = empty;
    if pos.in_check() {
        let checkers = pos.checkers();
        let Some(own_king) = pos.king_square(us) else { return };
        if checkers.has_more_than_one() {
            return;
        }
        drop_target &= between(own_king, checkers.single());
    }
    for kind in hand.kinds() {
        let mut to_sqs = rev(kind) & drop_target;
        to_sqs = to_sqs.and_not(dead_ranks(us, kind));
        if kind == PieceKind::Pawn {
            to_sqs &= pos.pawn_drop_files_ok();
            if let Some(s) = to_sqs.lsb()
                && pos.is_pawn_drop_mate(s)
            {
                to_sqs.clear(s);
            }
        }
        for to in to_sqs {
            list.push(Move::drop(kind, to));
        }
    }
}
