//! The position: board, bitboards, hands, side to move, keys and the undo stack.

mod legality;
mod packed;
mod setup;
mod sfen;

pub use packed::{PACKED_BYTES, PackError, PackedPosition, UnpackError};
pub use setup::{NULL_MOVE_TEXTS, SetupError};
pub use sfen::{STARTPOS_SFEN, SfenError, format_sfen};

use crate::attacks::{
    aligned, attacks, between, bishop_attacks, bishop_pseudo_attacks, gold_attacks, king_attacks, knight_attacks,
    lance_attacks, lance_pseudo_attacks, pawn_attacks, rook_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::mv::Move;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

/// What `do_move` computes for each position and `undo_move` needs to restore.
#[derive(Clone, Debug)]
pub struct StateInfo {
    /// Zobrist key of the board and side to move.
    pub board_key: u64,
    /// Additive Zobrist key of both hands.
    pub hand_key: u64,
    /// Pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Per colour: pieces of either colour that alone shield that colour's king from an enemy
    /// slider. Own pieces among them are pinned; the enemy's can give discovered check.
    pub blockers: [Bitboard; 2],
    /// The piece taken by the move that led here.
    pub captured: Option<Piece>,
    /// The move that led here (`None` at the root and after a null move).
    pub last_move: Option<Move>,
    /// Per colour: how many consecutive moves of that colour, up to this position, gave check.
    pub continuous_checks: [u16; 2],
    /// Plies since the last null move or the root (repetition look-back limit).
    pub plies_from_null: u16,
    /// The hand of the side to move in this position (superior/inferior repetitions).
    pub stm_hand: Hand,
}

/// A shogi position with its history since it was set up.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 15],
    /// Gold and the four promoted minors (they all move like a gold), both colours.
    golds: Bitboard,
    /// Horse, dragon and king: every piece with the king's one-step moves.
    hdk: Bitboard,
    /// Bishop and horse.
    bishops_horses: Bitboard,
    /// Rook and dragon.
    rooks_dragons: Bitboard,
    hands: [Hand; 2],
    side: Color,
    /// The SFEN move number of the current position.
    move_number: u32,
    kings: [Option<Square>; 2],
    states: Vec<StateInfo>,
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_sfen(STARTPOS_SFEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start position SFEN is valid: {e}"),
        }
    }

    /// An empty board (no kings) for building positions piece by piece.
    fn empty() -> Position {
        Position {
            board: [None; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 15],
            golds: Bitboard::EMPTY,
            hdk: Bitboard::EMPTY,
            bishops_horses: Bitboard::EMPTY,
            rooks_dragons: Bitboard::EMPTY,
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            move_number: 1,
            kings: [None; 2],
            states: Vec::with_capacity(256),
        }
    }

    // ----- accessors -------------------------------------------------------------------------

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number (1 at the start of a game).
    #[inline(always)]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Plies played since this position was set up.
    #[inline(always)]
    pub fn plies_played(&self) -> usize {
        self.states.len() - 1
    }

    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Pieces of one kind, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline(always)]
    pub fn pieces_of(&self, c: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[c.index()]
    }

    /// Gold-movers (gold and promoted minors) of `c`.
    #[inline(always)]
    pub fn golds(&self, c: Color) -> Bitboard {
        self.golds & self.by_color[c.index()]
    }

    /// Horses, dragons and the king of `c`.
    #[inline(always)]
    pub fn hdk(&self, c: Color) -> Bitboard {
        self.hdk & self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn bishops_horses(&self, c: Color) -> Bitboard {
        self.bishops_horses & self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn rooks_dragons(&self, c: Color) -> Bitboard {
        self.rooks_dragons & self.by_color[c.index()]
    }

    #[inline(always)]
    pub(crate) fn state(&self) -> &StateInfo {
        match self.states.last() {
            Some(s) => s,
            None => unreachable!("the state stack is never empty"),
        }
    }

    /// The states from the set-up position to now (oldest first).
    pub fn history(&self) -> &[StateInfo] {
        &self.states
    }

    /// Pieces checking the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.is_nonempty()
    }

    /// Pieces (of either colour) that alone shield `c`'s king from an enemy slider.
    #[inline(always)]
    pub fn blockers_for_king(&self, c: Color) -> Bitboard {
        self.state().blockers[c.index()]
    }

    /// `c`'s own pieces pinned to `c`'s king.
    #[inline(always)]
    pub fn pinned(&self, c: Color) -> Bitboard {
        self.state().blockers[c.index()] & self.by_color[c.index()]
    }

    /// The position's full key (board, side to move and hands).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let st = self.state();
        st.board_key ^ st.hand_key
    }

    /// Key of the board and side to move only (for hand-dominance tables).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.state().board_key
    }

    #[inline(always)]
    pub fn hand_key(&self) -> u64 {
        self.state().hand_key
    }

    /// The piece captured by the last move, if any.
    pub fn captured_piece(&self) -> Option<Piece> {
        self.state().captured
    }

    /// The move that led to this position, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.state().last_move
    }

    /// Board key and hand key recomputed from scratch (to check the incremental ones).
    pub fn compute_keys(&self) -> (u64, u64) {
        let mut board = if self.side == Color::White { zobrist::SIDE } else { 0 };
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                board ^= zobrist::piece_square(p, sq);
            }
        }
        let mut hand = 0u64;
        for c in Color::ALL {
            for k in PieceKind::HAND {
                hand = hand
                    .wrapping_add(zobrist::hand_piece(c, k).wrapping_mul(u64::from(self.hands[c.index()].count(k))));
            }
        }
        (board, hand)
    }

    // ----- attacks ---------------------------------------------------------------------------

    /// Pieces of colour `c` that attack `sq`, with the given occupancy for sliders.
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        // Reverse attacks: a piece of `c` attacks `sq` iff the same piece of the other colour
        // standing on `sq` would attack the piece's square.
        let o = !c;
        let mine = self.by_color[c.index()];
        let mut att = ((pawn_attacks(o, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (knight_attacks(o, sq) & self.by_kind[PieceKind::Knight.index()])
            | (silver_attacks(o, sq) & self.by_kind[PieceKind::Silver.index()])
            | (gold_attacks(o, sq) & self.golds)
            | (king_attacks(sq) & self.hdk))
            & mine;
        // Sliders: only trace rays when some slider stands on one of the lines at all.
        let lances = self.by_kind[PieceKind::Lance.index()] & mine;
        if (lance_pseudo_attacks(o, sq) & lances).is_nonempty() {
            att |= lance_attacks(o, sq, occ) & lances;
        }
        let bh = self.bishops_horses & mine;
        if (bishop_pseudo_attacks(sq) & bh).is_nonempty() {
            att |= bishop_attacks(sq, occ) & bh;
        }
        let rd = self.rooks_dragons & mine;
        if (rook_pseudo_attacks(sq) & rd).is_nonempty() {
            att |= rook_attacks(sq, occ) & rd;
        }
        att
    }

    /// Whether some piece of colour `c` among `mask` attacks `sq` under occupancy `occ`
    /// (early exits: step pieces first, rays only when a slider is on the line).
    #[inline]
    pub fn is_attacked_by(&self, c: Color, sq: Square, occ: Bitboard, mask: Bitboard) -> bool {
        let o = !c;
        let mine = self.by_color[c.index()] & mask;
        let steps = ((pawn_attacks(o, sq) & self.by_kind[PieceKind::Pawn.index()])
            | (knight_attacks(o, sq) & self.by_kind[PieceKind::Knight.index()])
            | (silver_attacks(o, sq) & self.by_kind[PieceKind::Silver.index()])
            | (gold_attacks(o, sq) & self.golds)
            | (king_attacks(sq) & self.hdk))
            & mine;
        if steps.is_nonempty() {
            return true;
        }
        let lances = self.by_kind[PieceKind::Lance.index()] & mine;
        if (lance_pseudo_attacks(o, sq) & lances).is_nonempty() && (lance_attacks(o, sq, occ) & lances).is_nonempty() {
            return true;
        }
        let bh = self.bishops_horses & mine;
        if (bishop_pseudo_attacks(sq) & bh).is_nonempty() && (bishop_attacks(sq, occ) & bh).is_nonempty() {
            return true;
        }
        let rd = self.rooks_dragons & mine;
        (rook_pseudo_attacks(sq) & rd).is_nonempty() && (rook_attacks(sq, occ) & rd).is_nonempty()
    }

    /// Whether colour `c` attacks `sq` (current occupancy).
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square) -> bool {
        self.attackers_to(c, sq, self.occupied()).is_nonempty()
    }

    /// The squares next to `center` that colour `c` attacks under occupancy `occ` (only
    /// pieces that can reach that neighbourhood are looked at).
    pub fn attacks_around(&self, c: Color, center: Square, occ: Bitboard) -> Bitboard {
        let region = king_attacks(center);
        let mine = self.by_color[c.index()];
        let pawns = self.by_kind[PieceKind::Pawn.index()] & mine;
        let mut att = match c {
            Color::Black => pawns.shift_up(),
            Color::White => pawns.shift_down(),
        };
        let near = crate::attacks::near_box(center) & mine;
        for s in self.by_kind[PieceKind::Knight.index()] & mine & crate::attacks::knight_box(center) {
            att |= knight_attacks(c, s);
        }
        for s in self.by_kind[PieceKind::Silver.index()] & near {
            att |= silver_attacks(c, s);
        }
        for s in self.golds & near {
            att |= gold_attacks(c, s);
        }
        for s in self.hdk & near {
            att |= king_attacks(s);
        }
        for s in self.by_kind[PieceKind::Lance.index()] & mine {
            att |= lance_attacks(c, s, occ);
        }
        for s in self.bishops_horses & mine {
            att |= bishop_attacks(s, occ);
        }
        for s in self.rooks_dragons & mine {
            att |= rook_attacks(s, occ);
        }
        att & region
    }

    /// Every square attacked by `c` (slow; for evaluation and tests).
    pub fn attacked_squares(&self, c: Color) -> Bitboard {
        let occ = self.occupied();
        let mut out = Bitboard::EMPTY;
        for sq in self.pieces(c) {
            if let Some(p) = self.piece_on(sq) {
                out |= attacks(c, p.kind(), sq, occ);
            }
        }
        out
    }

    /// The blockers shielding `c`'s king from the enemy's sliders.
    fn slider_blockers(&self, c: Color) -> Bitboard {
        let Some(ksq) = self.kings[c.index()] else {
            return Bitboard::EMPTY;
        };
        let them = self.by_color[(!c).index()];
        let snipers = ((rook_pseudo_attacks(ksq) & self.rooks_dragons)
            | (bishop_pseudo_attacks(ksq) & self.bishops_horses)
            | (lance_pseudo_attacks(c, ksq) & self.by_kind[PieceKind::Lance.index()]))
            & them;
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.is_nonempty() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ----- board editing ---------------------------------------------------------------------

    #[inline(always)]
    fn toggle_piece_bbs(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        let kind = p.kind();
        self.by_color[p.color().index()] ^= b;
        self.by_kind[kind.index()] ^= b;
        match kind {
            PieceKind::Gold
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver => self.golds ^= b,
            PieceKind::King => self.hdk ^= b,
            PieceKind::Horse => {
                self.hdk ^= b;
                self.bishops_horses ^= b;
            }
            PieceKind::Dragon => {
                self.hdk ^= b;
                self.rooks_dragons ^= b;
            }
            PieceKind::Bishop => self.bishops_horses ^= b,
            PieceKind::Rook => self.rooks_dragons ^= b,
            _ => {}
        }
    }

    #[inline(always)]
    fn put_piece(&mut self, p: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(p);
        self.toggle_piece_bbs(p, sq);
        if p.kind() == PieceKind::King {
            self.kings[p.color().index()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let Some(p) = self.board[sq.index()].take() else {
            unreachable!("remove_piece on an empty square");
        };
        self.toggle_piece_bbs(p, sq);
        p
    }

    /// Fills in the state of a freshly set-up position.
    fn init_state(&mut self) {
        let (board_key, hand_key) = self.compute_keys();
        self.states.clear();
        self.states.push(StateInfo {
            board_key,
            hand_key,
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            captured: None,
            last_move: None,
            continuous_checks: [0; 2],
            plies_from_null: 0,
            stm_hand: self.hands[self.side.index()],
        });
        self.refresh_check_info();
    }

    /// Recomputes checkers and blockers of the top state.
    #[inline]
    fn refresh_check_info(&mut self) {
        let us = self.side;
        let checkers = match self.kings[us.index()] {
            Some(k) => self.attackers_to(!us, k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        let blockers = [self.slider_blockers(Color::Black), self.slider_blockers(Color::White)];
        let Some(st) = self.states.last_mut() else {
            unreachable!()
        };
        st.checkers = checkers;
        st.blockers = blockers;
    }

    // ----- making and unmaking moves ---------------------------------------------------------

    /// The key [`Position::key`] will have after `m` (legal or pseudo-legal), without playing
    /// it: a search can start loading the child's table entry while it is still busy here.
    pub fn key_after(&self, m: Move) -> u64 {
        let (board_key, hand_key) = self.keys_after(m);
        board_key ^ hand_key
    }

    /// The board key ([`Position::board_key`]) and hand key the position will have after `m`
    /// (legal or pseudo-legal), without playing it.
    pub fn keys_after(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let st = self.state();
        let mut board_key = st.board_key ^ zobrist::SIDE;
        let mut hand_key = st.hand_key;
        let to = m.to();
        if m.is_drop() {
            let kind = m.dropped_kind();
            hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, kind));
            board_key ^= zobrist::piece_square(Piece::new(us, kind), to);
        } else {
            if let Some(cap) = self.board[to.index()] {
                board_key ^= zobrist::piece_square(cap, to);
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, cap.kind().unpromote()));
            }
            if let Some(p) = self.board[m.from().index()] {
                let moved = if m.is_promotion() {
                    Piece::new(us, p.kind().promote())
                } else {
                    p
                };
                board_key ^= zobrist::piece_square(p, m.from()) ^ zobrist::piece_square(moved, to);
            }
        }
        (board_key, hand_key)
    }

    /// Plays `m`, which must be legal (pseudo-legal moves that leave the own king in check
    /// corrupt nothing but make the position illegal).
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let prev = self.state();
        let mut board_key = prev.board_key ^ zobrist::SIDE;
        let mut hand_key = prev.hand_key;
        let plies_from_null = prev.plies_from_null.saturating_add(1);
        let prev_checks = prev.continuous_checks;
        let mut captured = None;
        let to = m.to();
        if m.is_drop() {
            let kind = m.dropped_kind();
            let p = Piece::new(us, kind);
            self.hands[us.index()].remove(kind);
            hand_key = hand_key.wrapping_sub(zobrist::hand_piece(us, kind));
            self.put_piece(p, to);
            board_key ^= zobrist::piece_square(p, to);
        } else {
            let from = m.from();
            if self.board[to.index()].is_some() {
                let cap = self.remove_piece(to);
                board_key ^= zobrist::piece_square(cap, to);
                let hk = cap.kind().unpromote();
                self.hands[us.index()].add(hk);
                hand_key = hand_key.wrapping_add(zobrist::hand_piece(us, hk));
                if cap.kind() == PieceKind::King {
                    // Only reachable from illegal play; keep the structure consistent.
                    self.kings[cap.color().index()] = None;
                }
                captured = Some(cap);
            }
            let p = self.remove_piece(from);
            board_key ^= zobrist::piece_square(p, from);
            let moved = if m.is_promotion() {
                Piece::new(us, p.kind().promote())
            } else {
                p
            };
            self.put_piece(moved, to);
            board_key ^= zobrist::piece_square(moved, to);
        }
        self.side = !us;
        self.move_number += 1;
        self.states.push(StateInfo {
            board_key,
            hand_key,
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            captured,
            last_move: Some(m),
            continuous_checks: prev_checks,
            plies_from_null,
            stm_hand: self.hands[(!us).index()],
        });
        self.refresh_check_info();
        let gave_check = self.in_check();
        let Some(st) = self.states.last_mut() else {
            unreachable!()
        };
        st.continuous_checks[us.index()] = if gave_check { prev_checks[us.index()] + 1 } else { 0 };
        debug_assert_eq!(self.compute_keys(), (self.board_key(), self.hand_key()));
    }

    /// Takes back `m`, the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let Some(st) = self.states.pop() else {
            panic!("undo_move with no move to undo");
        };
        debug_assert_eq!(st.last_move, Some(m));
        self.side = !self.side;
        self.move_number -= 1;
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            let kind = m.dropped_kind();
            self.remove_piece(to);
            self.hands[us.index()].add(kind);
        } else {
            let moved = self.remove_piece(to);
            let original = if m.is_promotion() {
                Piece::new(us, moved.kind().unpromote())
            } else {
                moved
            };
            self.put_piece(original, m.from());
            if let Some(cap) = st.captured {
                self.hands[us.index()].remove(cap.kind().unpromote());
                self.put_piece(cap, to);
            }
        }
    }

    /// Takes one piece of `kind` out of `c`'s hand without a move, keeping the keys right.
    ///
    /// Tsume analysis needs it: the useless-interposition test asks whether the attacker
    /// still mates after capturing an interposed piece *without using it*. Undo with
    /// [`Position::give_hand_piece`] before taking back the move that led here.
    pub fn take_hand_piece(&mut self, c: Color, kind: PieceKind) {
        self.hands[c.index()].remove(kind);
        let side = self.side;
        let hand = self.hands[side.index()];
        let Some(st) = self.states.last_mut() else {
            unreachable!()
        };
        st.hand_key = st.hand_key.wrapping_sub(zobrist::hand_piece(c, kind));
        st.stm_hand = hand;
    }

    /// Puts one piece of `kind` into `c`'s hand without a move (the inverse of
    /// [`Position::take_hand_piece`]).
    pub fn give_hand_piece(&mut self, c: Color, kind: PieceKind) {
        self.hands[c.index()].add(kind);
        let side = self.side;
        let hand = self.hands[side.index()];
        let Some(st) = self.states.last_mut() else {
            unreachable!()
        };
        st.hand_key = st.hand_key.wrapping_add(zobrist::hand_piece(c, kind));
        st.stm_hand = hand;
    }

    /// Puts `p` on `sq`, which holds some other piece, without a move (neither may be a
    /// king).
    ///
    /// Tsume analysis needs it: the super-piece method searches one interposed piece for
    /// several kinds at once and turns it into each real kind only where that kind matters.
    /// Put the old piece back before taking back the move that led here.
    pub fn replace_piece(&mut self, sq: Square, p: Piece) {
        let old = self.remove_piece(sq);
        debug_assert!(old.kind() != PieceKind::King && p.kind() != PieceKind::King);
        self.put_piece(p, sq);
        let Some(st) = self.states.last_mut() else {
            unreachable!()
        };
        st.board_key ^= zobrist::piece_square(old, sq) ^ zobrist::piece_square(p, sq);
        self.refresh_check_info();
        debug_assert_eq!(self.compute_keys(), (self.board_key(), self.hand_key()));
    }

    /// Passes the turn (for null-move search and USI `pass`). Must not be in check.
    pub fn do_null_move(&mut self) {
        let prev = self.state();
        let mut st = prev.clone();
        st.board_key ^= zobrist::SIDE;
        st.captured = None;
        st.last_move = None;
        st.plies_from_null = 0;
        st.continuous_checks[self.side.index()] = 0;
        st.stm_hand = self.hands[(!self.side).index()];
        self.side = !self.side;
        self.move_number += 1;
        self.states.push(st);
        self.refresh_check_info();
    }

    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = !self.side;
        self.move_number -= 1;
    }

    // ----- checks ----------------------------------------------------------------------------

    /// Whether `m` (pseudo-legal) gives check to the opponent's king.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.kings[(!us).index()] else {
            return false;
        };
        let to = m.to();
        let occ = self.occupied();
        if m.is_drop() {
            return attacks(us, m.dropped_kind(), to, occ.with(to)).contains(ksq);
        }
        let from = m.from();
        let Some(p) = self.piece_on(from) else {
            return false;
        };
        let kind = if m.is_promotion() { p.kind().promote() } else { p.kind() };
        if attacks(us, kind, to, occ.without(from).with(to)).contains(ksq) {
            return true;
        }
        // Discovered check: the piece uncovered one of our sliders and left the line.
        (self.blockers_for_king(!us) & self.pieces(us)).contains(from) && !aligned(ksq, from, to)
    }

    /// The squares from which a piece of `kind` (ours) would attack the enemy king, on the
    /// current occupancy. Empty when the enemy has no king.
    pub fn check_squares(&self, kind: PieceKind) -> Bitboard {
        let us = self.side;
        match self.kings[(!us).index()] {
            Some(ksq) => attacks(!us, kind, ksq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }
}

impl PartialEq for Position {
    /// Positions are equal when board, hands and side to move agree (history is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl std::fmt::Display for Position {
    /// A board diagram, Black at the bottom, then hands and the SFEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "   9  8  7  6  5  4  3  2  1")?;
        for rank in 0..9u8 {
            f.write_str(" ")?;
            for file in (0..9u8).rev() {
                let sq = Square::from_index(file * 9 + rank);
                match self.piece_on(sq) {
                    Some(p) => {
                        let s = p.to_string();
                        write!(f, "{s:>3}")?;
                    }
                    None => f.write_str("  .")?,
                }
            }
            writeln!(f, "  {}", (b'a' + rank) as char)?;
        }
        writeln!(f, "Black hand: {:?}", self.hands[0])?;
        writeln!(f, "White hand: {:?}", self.hands[1])?;
        writeln!(f, "Side to move: {:?}", self.side)?;
        write!(f, "sfen {}", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replaced piece leaves the position exactly as if it had been set up that way: same
    /// keys, check and pin information, and the replacement undoes cleanly under later moves.
    #[test]
    fn replace_piece_matches_a_fresh_setup() {
        // White's interposed piece on 5b blocks the rook's check along file 5.
        let mut pos = Position::from_sfen("4k4/4g4/9/9/9/9/9/9/4R4 b - 1").unwrap();
        let before = (pos.key(), pos.pinned(Color::White));
        assert!(pos.pinned(Color::White).contains(Square::from_usi(b'5', b'b').unwrap()));
        let sq = Square::from_usi(b'5', b'b').unwrap();
        pos.replace_piece(sq, Piece::new(Color::White, PieceKind::Silver));
        let fresh = Position::from_sfen("4k4/4s4/9/9/9/9/9/9/4R4 b - 1").unwrap();
        assert_eq!(pos.key(), fresh.key());
        assert_eq!(pos.pinned(Color::White), fresh.pinned(Color::White));
        assert_eq!(pos.to_sfen(), fresh.to_sfen());
        let m = pos.parse_move("5i5h").unwrap();
        pos.do_move(m);
        pos.undo_move(m);
        pos.replace_piece(sq, Piece::new(Color::White, PieceKind::Gold));
        assert_eq!((pos.key(), pos.pinned(Color::White)), before);
    }

    /// The keys predicted before a move are the keys after playing it, for every legal move
    /// along a walk through captures, promotions and drops.
    #[test]
    fn keys_after_predicts_do_move() {
        let mut pos =
            Position::from_sfen("ln1g3nl/1r2k1sb1/p1ppppgpp/1p4p2/9/2P1P4/PP1P1PPPP/1BS1G2R1/LN1GK1SNL b Ps 1")
                .unwrap();
        let mut checked = 0;
        for step in 0..40 {
            let mut list = crate::movegen::MoveList::new();
            crate::movegen::generate_legal::<true>(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            for &m in &list {
                let predicted = pos.keys_after(m);
                pos.do_move(m);
                assert_eq!(predicted, (pos.board_key(), pos.hand_key()), "{m:?}");
                pos.undo_move(m);
                checked += 1;
            }
            // Prefer captures and drops so that hands change along the walk.
            let pick = list
                .iter()
                .copied()
                .find(|&m| m.is_drop() || pos.piece_on(m.to()).is_some())
                .unwrap_or(list[step % list.len()]);
            pos.do_move(pick);
        }
        assert!(checked > 1000, "{checked}");
    }
}
