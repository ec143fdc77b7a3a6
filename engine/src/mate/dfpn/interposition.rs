//! Interpositions, in two ways. Chains: interposing drops on one square, the "loose" drops,
//! and a non-promotion behind its promotion form chains in which only the first unresolved
//! move is searched and counted (the keys are given in [`Dfpn::expand`], the rule is
//! [`Dfpn::evaluate`]'s; [`Dfpn::set_drop_chains`] switches the drop chains off). Useless
//! interpositions: the bounded searches leave out those that are cheap to show useless
//! ([`useless_interpositions_removed`], cached per thread by [`Dfpn::useless_removed`]).

use super::Dfpn;
use crate::mate::exact::{InterpositionGap, some_capture_without_piece};
use soppo_core::movegen::{MoveList, count_evasions, generate_legal};
use soppo_core::{Color, Move, PieceKind, Position, Square};

/// `Child::chain` of a move outside every interposition chain.
pub(super) const NO_CHAIN: u16 = 0;

/// The chain of the interposing drops that no defender piece but the king supports and that
/// do not check.
pub(super) const LOOSE_DROPS: u16 = 82;

/// Chains of a non-promotion and its promotion start here (one per origin and target).
pub(super) const PROMOTION_PAIRS: u16 = 100;

/// Entries (a power of two) of each thread's cache of useless-interposition tests.
pub(super) const USELESS_CACHE_ENTRIES: usize = 1 << 12;

/// The flag of a `useless_cache` entry that holds an answer (an empty one has none).
pub(super) const USELESS_CACHED: u128 = 1 << 127;

/// How deep [`tsume_mated`] follows interpositions whose capture might mate.
pub(in crate::mate) const USELESS_TEST_DEPTH: u32 = 3;

impl Dfpn {
    /// [`useless_interpositions_removed`] through `useless_cache`: whether the test applied.
    pub(super) fn useless_removed(&mut self, pos: &mut Position, list: &mut MoveList) -> bool {
        let key = pos.key();
        let slot = (key >> (64 - USELESS_CACHE_ENTRIES.trailing_zeros())) as usize;
        let (cached_key, removed) = self.useless_cache[slot];
        if cached_key == key && removed & USELESS_CACHED != 0 {
            let mut place = 0;
            list.retain(|_| {
                let keep = removed & (1 << place) == 0;
                place += 1;
                keep
            });
            return true;
        }
        let places = list.len();
        let removed = useless_interpositions_removed(pos, self.attacker, list);
        if let Some(removed) = removed
            && places < 128
        {
            self.useless_cache[slot] = (key, removed | USELESS_CACHED);
        }
        removed.is_some()
    }
}

/// At a defender node of a bounded search: removes from `evasions` the interpositions that
/// tsume rules do not count, where that can be decided cheaply. `None` if the test does not
/// apply; otherwise a bit for the place in `evasions` (as given, up to the 127th) of each
/// evasion removed.
///
/// An interposition is useless when the attacker can capture the piece with a check and then,
/// without it, hold the defence to the longest other defence `D` or less. A capture that mates
/// at once without the piece ("mates" again under tsume rules, see [`tsume_mated`]) holds
/// it to 0, so such interpositions are useless whatever `D` is; and when every evasion
/// interposes, `D` is 0 and this is the whole test. Otherwise `D` is at least 2, so a capture
/// after which every reply is mated in one also shows the interposition useless. The other
/// interpositions are counted: telling whether they are useless needs the exact lengths of the
/// other defences.
pub(super) fn useless_interpositions_removed(
    pos: &mut Position,
    attacker: Color,
    evasions: &mut MoveList,
) -> Option<u128> {
    let gap = InterpositionGap::of(pos)?;
    if !evasions.iter().any(|&e| gap.is_interposition(e)) {
        return None;
    }
    // With an evasion that does not interpose, the longest other defence is at least 2 plies
    // (that evasion, then a mate in one at best), so a capture after which every reply is
    // mated in one also makes the interposition useless.
    let others = evasions.iter().any(|&e| !gap.is_interposition(e));
    let mut removed = 0u128;
    let mut place = 0;
    evasions.retain(|e| {
        place += 1;
        if !gap.is_interposition(*e) {
            return true;
        }
        pos.do_move(*e);
        // One level is used here: an empty list then means `tsume_mated` at full depth.
        let useless = capture_mates_without_piece(pos, e.to(), attacker, USELESS_TEST_DEPTH - 1)
            || (others && capture_leaves_mate_in_one(pos, e.to(), attacker));
        pos.undo_move(*e);
        if useless && place <= 127 {
            removed |= 1 << (place - 1);
        }
        !useless
    });
    Some(removed)
}

/// After an interposition on `sq` (attacker to move): whether a check capturing the piece
/// there, with the piece taken out of the attacker's hand, leaves the defender only replies
/// that are mated in one (a defence of at most 2 plies).
fn capture_leaves_mate_in_one(pos: &mut Position, sq: Square, attacker: Color) -> bool {
    some_capture_without_piece(pos, sq, attacker, |pos| {
        let mut replies = MoveList::new();
        generate_legal::<true>(pos, &mut replies);
        replies.iter().all(|&r| {
            pos.do_move(r);
            let mated = pos.mate_in_one().is_some();
            pos.undo_move(r);
            mated
        })
    })
}

/// After an interposition on `sq` (attacker to move): whether a check capturing the piece
/// there mates under tsume rules even with the piece taken out of the attacker's hand.
fn capture_mates_without_piece(pos: &mut Position, sq: Square, attacker: Color, depth: u32) -> bool {
    some_capture_without_piece(pos, sq, attacker, |pos| tsume_mated(pos, attacker, depth))
}

/// Defender to move, in check: whether no evasion counts under tsume rules, i.e. there is
/// none, or all interpose and each is useless by [`capture_mates_without_piece`]. Deeper than
/// `depth` nested interpositions, interpositions count (a longer, never a wrong, answer).
pub(in crate::mate) fn tsume_mated(pos: &mut Position, attacker: Color, depth: u32) -> bool {
    let mut evasions = MoveList::new();
    generate_legal::<true>(pos, &mut evasions);
    if evasions.is_empty() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let Some(gap) = InterpositionGap::of(pos) else {
        return false;
    };
    evasions.iter().all(|&e| {
        if !gap.is_interposition(e) {
            return false;
        }
        pos.do_move(e);
        let useless = capture_mates_without_piece(pos, e.to(), attacker, depth - 1);
        pos.undo_move(e);
        useless
    })
}

/// Whether `m` is one of a pair of checks that differ only in promotion, for a pawn, bishop
/// or rook: the promoted piece does everything the unpromoted one does, so the non-promotion
/// (needed only in rare problems, e.g. against a pawn-drop mate) waits until the promotion
/// fails.
pub(super) fn promotion_pair(pos: &Position, m: Move, checks: &MoveList) -> bool {
    if m.is_drop() {
        return false;
    }
    let Some(kind) = pos.piece_on(m.from()).map(soppo_core::Piece::kind) else {
        return false;
    };
    if !matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook) {
        return false;
    }
    let other = Move::normal(m.from(), m.to(), !m.is_promotion());
    checks.contains(&other)
}

/// The defender's replies to a check as the search meets them: with `chains`, interposing
/// drops on one square count once (they form a chain there, see `Dfpn::evaluate`).
pub(super) fn effective_replies(pos: &Position, chains: bool) -> u32 {
    let c = count_evasions::<true>(pos);
    c.board + if chains { c.drop_squares.count() } else { c.drops }
}

/// The place of a dropped kind in an interposition chain: the weaker the piece, the sooner.
/// (Strongest first cost 4–10× the nodes on Shogi Zuko 99 and the mate11 set.)
#[inline(always)]
pub(super) fn drop_rank(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}
