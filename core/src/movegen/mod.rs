//! Move generation: the staged sets the search uses and the complete legal set.
//!
//! The const parameter `ALL` selects whether the non-promotions of pawns, bishops and rooks
//! are generated where promotion is possible. They are legal (perft counts them, and a
//! few tsume problems need a bishop that declines to promote) but almost never good, so the
//! search leaves them out and the mate solver and perft keep them.
//!
//! Staged sets (all pseudo-legal: they may leave the mover's king in check; filter with
//! [`Position::is_legal`]): captures (with every promotion variant) plus non-capturing pawn
//! promotions; quiet board moves (everything else that moves a piece); drops (nifu, dead
//! ranks and pawn-drop mate already excluded). When not in check their union, filtered, is
//! the legal set. Evasions, checks and the legal set are fully legal.

mod checks;
mod list;

pub use list::{MAX_MOVES, MoveList};

use crate::attacks::{attacks, between, dead_ranks, king_attacks, promotion_zone};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};

/// Pushes the promotion variants of a board move of a `kind` piece from `from` to `to`.
#[inline(always)]
fn push_board_move<const ALL: bool>(list: &mut MoveList, us: Color, kind: PieceKind, from: Square, to: Square) {
    let zone = promotion_zone(us);
    if kind.can_promote() && (zone.contains(to) || zone.contains(from)) {
        list.push(Move::normal(from, to, true));
        let keep_unpromoted = match kind {
            PieceKind::Pawn => ALL && !dead_ranks(us, kind).contains(to),
            PieceKind::Bishop | PieceKind::Rook => ALL,
            PieceKind::Lance | PieceKind::Knight => !dead_ranks(us, kind).contains(to),
            _ => true,
        };
        if keep_unpromoted {
            list.push(Move::normal(from, to, false));
        }
    } else {
        list.push(Move::normal(from, to, false));
    }
}

/// Board moves of every non-king piece of the side to move whose origin is not in
/// `exclude` and whose destination is in `target`.
#[inline(always)]
fn board_moves<const ALL: bool>(pos: &Position, target: Bitboard, exclude: Bitboard, list: &mut MoveList) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    // Pawns all at once: one shift of the whole pawn board.
    let pawns = pos.pieces_of(us, PieceKind::Pawn).and_not(exclude);
    let pawn_targets = match us {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    } & target;
    let zone = promotion_zone(us);
    for to in pawn_targets {
        let from = match us {
            Color::Black => Square::from_index(to.index() as u8 + 1),
            Color::White => Square::from_index(to.index() as u8 - 1),
        };
        if zone.contains(to) {
            list.push(Move::normal(from, to, true));
            if ALL && !dead_ranks(us, PieceKind::Pawn).contains(to) {
                list.push(Move::normal(from, to, false));
            }
        } else {
            list.push(Move::normal(from, to, false));
        }
    }
    let others = pos
        .pieces(us)
        .and_not(pos.kind_bb(PieceKind::Pawn) | pos.kind_bb(PieceKind::King) | exclude);
    for from in others {
        let Some(p) = pos.piece_on(from) else { continue };
        let kind = p.kind();
        let dests = attacks(us, kind, from, occ) & target;
        for to in dests {
            push_board_move::<ALL>(list, us, kind, from, to);
        }
    }
}

/// King steps onto `target` squares (not checked for safety).
#[inline(always)]
fn king_moves(pos: &Position, target: Bitboard, list: &mut MoveList) {
    let us = pos.side_to_move();
    if let Some(k) = pos.king_square(us) {
        for to in king_attacks(k) & target {
            list.push(Move::normal(k, to, false));
        }
    }
}

/// Drops of every held kind onto `target` (empty squares), obeying nifu, dead ranks and the
/// pawn-drop-mate rule.
#[inline(always)]
fn drops(pos: &Position, target: Bitboard, list: &mut MoveList) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    for kind in [PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight] {
        if hand.has(kind) {
            for to in drop_targets(pos, kind, target) {
                list.push(Move::drop(kind, to));
            }
        }
    }
    // The four kinds that may be dropped anywhere: loop squares once, kinds inside.
    let mut free = [PieceKind::Pawn; 4];
    let mut n = 0;
    for k in [PieceKind::Silver, PieceKind::Gold, PieceKind::Bishop, PieceKind::Rook] {
        if hand.has(k) {
            free[n] = k;
            n += 1;
        }
    }
    if n > 0 {
        for to in target {
            for &k in &free[..n] {
                list.push(Move::drop(k, to));
            }
        }
    }
}

/// Captures (every promotion variant) and non-capturing pawn promotions. Pseudo-legal.
pub fn generate_captures<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = pos.pieces(!us);
    board_moves::<ALL>(pos, them, Bitboard::EMPTY, list);
    king_moves(pos, them, list);
    // Non-capturing pawn pushes into the zone (promotion variant only).
    let empty = !pos.occupied();
    let pawns = pos.pieces_of(us, PieceKind::Pawn);
    let pushes = match us {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    } & empty
        & promotion_zone(us);
    for to in pushes {
        let from = match us {
            Color::Black => Square::from_index(to.index() as u8 + 1),
            Color::White => Square::from_index(to.index() as u8 - 1),
        };
        list.push(Move::normal(from, to, true));
    }
}

/// Non-capturing board moves except pawn promotions. Pseudo-legal.
pub fn generate_quiets<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let empty = !pos.occupied();
    let pawns = pos.pieces_of(us, PieceKind::Pawn);
    // Pawns: non-promoting pushes only (promotions belong to the captures stage).
    let pushes = match us {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    } & empty;
    let zone = promotion_zone(us);
    for to in pushes {
        let from = match us {
            Color::Black => Square::from_index(to.index() as u8 + 1),
            Color::White => Square::from_index(to.index() as u8 - 1),
        };
        if !zone.contains(to) || (ALL && !dead_ranks(us, PieceKind::Pawn).contains(to)) {
            list.push(Move::normal(from, to, false));
        }
    }
    board_moves::<ALL>(pos, empty, pawns, list);
    king_moves(pos, empty, list);
}

/// Drops. Legal when not in check.
pub fn generate_drops(pos: &Position, list: &mut MoveList) {
    drops(pos, !pos.occupied(), list);
}

/// All pseudo-legal moves when not in check (captures, quiets and drops together).
pub fn generate_non_evasions<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let target = !pos.pieces(us);
    board_moves::<ALL>(pos, target, Bitboard::EMPTY, list);
    king_moves(pos, target, list);
    drops(pos, !pos.occupied(), list);
}

/// Legal replies to a check. Must be in check.
pub fn generate_evasions<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let checkers = pos.checkers();
    debug_assert!(checkers.is_nonempty());
    let Some(ksq) = pos.king_square(us) else { return };
    let occ_no_king = pos.occupied().without(ksq);
    let steps = king_attacks(ksq).and_not(pos.pieces(us));
    if steps.has_more_than_one() {
        // Several squares to test: the enemy's attacks on the king's neighbourhood at once
        // cost less than one early-exit test per square.
        for to in steps.and_not(pos.attacks_around(!us, ksq, occ_no_king)) {
            list.push(Move::normal(ksq, to, false));
        }
    } else {
        for to in steps {
            if !pos.is_attacked_by(!us, to, occ_no_king, Bitboard::FULL) {
                list.push(Move::normal(ksq, to, false));
            }
        }
    }
    if checkers.has_more_than_one() {
        return;
    }
    let checker = checkers.single();
    let gap = between(ksq, checker);
    // A pinned piece can neither take the checker nor block: its line passes through the
    // king, which is not on the checking line's other squares.
    board_moves::<ALL>(pos, gap.with(checker), pos.pinned(us), list);
    if gap.is_nonempty() {
        drops(pos, gap, list);
    }
}

/// The legal replies to a check, counted without listing them (`ALL` as for
/// [`generate_legal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvasionCounts {
    /// King steps, captures of the checker and interpositions by a board move.
    pub board: u32,
    /// Interposing drops, every kind on every square counted.
    pub drops: u32,
    /// The squares where at least one drop interposes.
    pub drop_squares: Bitboard,
}

/// Counts the legal evasions of the side to move, which must be in check. Most of the count is
/// population counts: a mate solver asks this of every check it considers.
pub fn count_evasions<const ALL: bool>(pos: &Position) -> EvasionCounts {
    let us = pos.side_to_move();
    let none = EvasionCounts {
        board: 0,
        drops: 0,
        drop_squares: Bitboard::EMPTY,
    };
    let Some(ksq) = pos.king_square(us) else { return none };
    let occ_no_king = pos.occupied().without(ksq);
    let steps = king_attacks(ksq).and_not(pos.pieces(us));
    let mut board = steps.and_not(pos.attacks_around(!us, ksq, occ_no_king)).count();
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return EvasionCounts { board, ..none };
    }
    let checker = checkers.single();
    let gap = between(ksq, checker);
    // A pinned piece's line meets the checking line only at the king, so it counts nothing.
    board += board_move_count::<ALL>(pos, gap.with(checker));
    let (mut drops, mut drop_squares) = (0, Bitboard::EMPTY);
    if gap.is_nonempty() {
        for kind in pos.hand(us).kinds() {
            let to = drop_targets(pos, kind, gap);
            drops += to.count();
            drop_squares |= to;
        }
    }
    EvasionCounts {
        board,
        drops,
        drop_squares,
    }
}

/// The complete legal set.
pub fn generate_legal<const ALL: bool>(pos: &Position, list: &mut MoveList) {
    if pos.in_check() {
        generate_evasions::<ALL>(pos, list);
        return;
    }
    let start = list.len();
    generate_non_evasions::<ALL>(pos, list);
    let us = pos.side_to_move();
    let Some(ksq) = pos.king_square(us) else { return };
    let pinned = pos.pinned(us);
    // Only king moves and moves of pinned pieces can be illegal here.
    let needs_check = pinned.with(ksq);
    if needs_check.is_nonempty() {
        let mut i = start;
        while i < list.len() {
            let m = list[i];
            if !m.is_drop() && needs_check.contains(m.from()) && !pos.is_legal(m) {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// The number of legal moves (`ALL` as for [`generate_legal`]), counted without listing them
/// where possible: a piece's destinations are a bitboard, and each destination stands for one
/// or two moves depending on the promotion rules, so most of the count is popcounts. This is
/// perft's bulk count.
pub fn count_legal<const ALL: bool>(pos: &Position) -> usize {
    if pos.in_check() {
        let c = count_evasions::<ALL>(pos);
        return (c.board + c.drops) as usize;
    }
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let empty = !occ;
    let target = !pos.pieces(us);
    let king = pos.king_square(us);
    let mut n = board_move_count::<ALL>(pos, target);

    // King steps, each checked for safety.
    if let Some(k) = king {
        let occ_no_king = occ.without(k);
        for to in king_attacks(k) & target {
            if !pos.is_attacked_by(!us, to, occ_no_king, Bitboard::FULL) {
                n += 1;
            }
        }
    }

    // Drops: one move per empty square allowed for each held kind.
    for kind in pos.hand(us).kinds() {
        n += drop_targets(pos, kind, empty).count();
    }
    n as usize
}

/// Board moves of every non-king piece of the side to move onto `target`, counted as
/// [`board_moves`] would list them; a pinned piece only along its pin line.
#[inline(always)]
fn board_move_count<const ALL: bool>(pos: &Position, target: Bitboard) -> u32 {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let zone = promotion_zone(us);
    let king = pos.king_square(us);
    let pinned = pos.pinned(us);
    // Pawns (unpinned all at once; pinned ones below with the other pinned pieces).
    let pawns = pos.pieces_of(us, PieceKind::Pawn).and_not(pinned);
    let pawn_to = match us {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    } & target;
    let mut n = pawn_count::<ALL>(us, pawn_to, zone);
    // Other pieces: destinations per piece, restricted to the pin line when pinned.
    let others = pos.pieces(us).and_not(pos.kind_bb(PieceKind::King)).and_not(pawns);
    for from in others {
        let Some(p) = pos.piece_on(from) else { continue };
        let kind = p.kind();
        let mut to = attacks(us, kind, from, occ) & target;
        if pinned.contains(from)
            && let Some(k) = king
        {
            to &= crate::attacks::line(k, from);
        }
        n += destination_count::<ALL>(us, kind, from, to, zone);
    }
    n
}

/// The squares of `target` (empty squares) where the side to move may drop a `kind`: dead
/// ranks, nifu and the pawn-drop-mate rule obeyed.
#[inline(always)]
fn drop_targets(pos: &Position, kind: PieceKind, target: Bitboard) -> Bitboard {
    let us = pos.side_to_move();
    let mut to = target.and_not(dead_ranks(us, kind));
    if kind == PieceKind::Pawn {
        to &= pos.pawn_drop_files_ok();
        // Only the square in front of the enemy king can be a pawn-drop mate.
        if let Some(ek) = pos.king_square(!us)
            && let Some(s) = (crate::attacks::pawn_attacks(!us, ek) & to).lsb()
            && pos.is_pawn_drop_mate(s)
        {
            to.clear(s);
        }
    }
    to
}

/// Moves of pawns landing on `to` (one bitboard for all pawns).
#[inline(always)]
fn pawn_count<const ALL: bool>(us: Color, to: Bitboard, zone: Bitboard) -> u32 {
    let extra = if ALL {
        (to & zone).and_not(dead_ranks(us, PieceKind::Pawn)).count()
    } else {
        0
    };
    to.count() + extra
}

/// Moves of one `kind` piece from `from` to the squares of `to`, promotion variants counted
/// as `push_board_move` generates them.
#[inline(always)]
fn destination_count<const ALL: bool>(us: Color, kind: PieceKind, from: Square, to: Bitboard, zone: Bitboard) -> u32 {
    let base = to.count();
    if !kind.can_promote() {
        return base;
    }
    // Destinations where promotion is possible.
    let promotable = if zone.contains(from) { to } else { to & zone };
    match kind {
        PieceKind::Pawn => {
            if ALL {
                base + promotable.and_not(dead_ranks(us, kind)).count()
            } else {
                base
            }
        }
        PieceKind::Bishop | PieceKind::Rook => {
            if ALL {
                base + promotable.count()
            } else {
                base
            }
        }
        PieceKind::Lance | PieceKind::Knight => base + promotable.and_not(dead_ranks(us, kind)).count(),
        _ => base + promotable.count(),
    }
}

pub(crate) use checks::generate_board_checks;
pub use checks::{check_candidates, generate_checks, generate_quiet_checks};

impl Position {
    /// Every legal move, non-promotions included.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate_legal::<true>(self, &mut list);
        list
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        // Cheap cases first: a safe king step or any drop settles it.
        !self.legal_moves().is_empty()
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts agree with the generated evasions after every check along walks through
    /// positions where the defender holds many kinds (long gaps, pawn files, dead ranks).
    #[test]
    fn evasion_counts_match_the_generated_evasions() {
        let starts = [
            "ln1g3nl/1r2k1sb1/p1ppppgpp/1p4p2/9/2P1P4/PP1P1PPPP/1BS1G2R1/LN1GK1SNL b Ps 1",
            "4k4/9/9/9/9/9/9/9/B4R2L b rb4g4s4n3l18p 1",
            "k8/p8/2N6/2N6/9/9/9/9/8R b r2b4g4s2n4l17p 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w rb 1",
        ];
        let mut in_check = 0;
        for sfen in starts {
            let mut pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
            for step in 0..60 {
                let mut list = MoveList::new();
                generate_legal::<true>(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                for &m in &list {
                    pos.do_move(m);
                    if pos.in_check() {
                        in_check += 1;
                        let mut evasions = MoveList::new();
                        generate_evasions::<true>(&pos, &mut evasions);
                        let drops: Vec<Move> = evasions.iter().copied().filter(|e| e.is_drop()).collect();
                        let squares = drops.iter().fold(Bitboard::EMPTY, |b, d| b.with(d.to()));
                        let want = EvasionCounts {
                            board: (evasions.len() - drops.len()) as u32,
                            drops: drops.len() as u32,
                            drop_squares: squares,
                        };
                        assert_eq!(count_evasions::<true>(&pos), want, "{}", pos.to_sfen());
                        let mut fewer = MoveList::new();
                        generate_evasions::<false>(&pos, &mut fewer);
                        let c = count_evasions::<false>(&pos);
                        assert_eq!((c.board + c.drops) as usize, fewer.len(), "{}", pos.to_sfen());
                    }
                    pos.undo_move(m);
                }
                // Prefer captures and drops so that hands change along the walk.
                let pick = list
                    .iter()
                    .copied()
                    .find(|&m| m.is_drop() || pos.piece_on(m.to()).is_some())
                    .unwrap_or(list[(step * 7) % list.len()]);
                pos.do_move(pick);
            }
        }
        assert!(in_check > 300, "{in_check}");
    }
}
