//! Exact tsume answers: a bounded AND/OR search under tsume rules, with the recursive
//! useless-interposition (mudaai) test of Kitamura, Handa and Oshita.
//!
//! Lengths are in plies. For an attacker-to-move position `P`, `mate_len(P)` is the shortest
//! mate; for a defender-to-move position `Q` (in check), `def_len(Q)` is the longest defence:
//! the maximum over the *counted* evasions `e` of `1 + mate_len(Q·e)`, and 0 when nothing is
//! counted. Every evasion is counted except a useless interposition. Let `D` be the longest
//! defence by the evasions that do not interpose, or 0 if there are none. An interposition
//! `e` is useless when the attacker can capture the interposed piece with a check and then,
//! without ever using that piece, keep the defence to at most `D` plies, not counting the
//! interposition and the capture. The capture position is judged by the same rules, so the
//! test is recursive.
//!
//! [`Exact::or_node`] answers "`mate_len(P) <= l`?" and [`Exact::and_node`] answers
//! "`def_len(Q) <= m`?". Both are exact for that definition, so iterative deepening over `l`
//! finds the shortest mate. A table keeps, per position, the smallest bound known to hold and
//! the largest known to fail.
//!
//! Why `D` must be computed exactly rather than bounded: `def_len` is not monotone in the
//! attacker's hand under this rule. A spare piece can shorten the other defences, lower `D`, and
//! so make an interposition count that was useless before.
//!
//! The drops on one square after the first are searched together as one super piece
//! ([`super_piece`]): a search then answers for a set of real positions (variants) at once, and
//! splits into the variants only where a move depends on the piece's kind. Answers are the same
//! with it off (`MateSuperPiece false`).

mod line;
mod super_piece;
mod table;

use super_piece::{CheckUse, Context, Lengths, MAX_VARIANTS, ONE, Super, SuperAt, Variants, bits, mix};
use table::Table;

use soppo_core::attacks::{attacks, between, king_attacks};
use soppo_core::movegen::{MoveList, count_legal, generate_checks, generate_legal};
use soppo_core::{Bitboard, Color, Move, PieceKind, Position, Square};

/// A bound meaning "at any length".
const UNBOUNDED: i32 = i32::MAX;

/// Where a defender may interpose against the current check, if anywhere.
#[derive(Clone, Copy)]
pub(crate) struct InterpositionGap {
    pub king: Square,
    pub squares: Bitboard,
}

impl InterpositionGap {
    /// The empty squares between a single distant checker and the king.
    pub(crate) fn of(pos: &Position) -> Option<InterpositionGap> {
        let checkers = pos.checkers();
        if checkers.is_empty() || checkers.has_more_than_one() {
            return None;
        }
        let king = pos.king_square(pos.side_to_move())?;
        let squares = between(checkers.single(), king);
        squares.is_nonempty().then_some(InterpositionGap { king, squares })
    }

    /// Whether `m` (a legal evasion) blocks the check by occupying a square between.
    pub(crate) fn is_interposition(&self, m: Move) -> bool {
        self.squares.contains(m.to()) && (m.is_drop() || m.from() != self.king)
    }
}

/// What the exact search shows its `stop` callback at each poll.
pub(crate) struct Poll<'b> {
    /// Nodes searched so far.
    pub nodes: u64,
    /// The moves from the root to the node being searched, up to where the search left the
    /// real game for a hypothetical position (a piece taken out of a hand in a
    /// useless-interposition test). Moves under a super piece may still be illegal in the real
    /// game (see [`legal_prefix`](crate::mate::progress::legal_prefix)).
    pub line: &'b [Move],
    table: &'b Table,
}

impl Poll<'_> {
    pub(crate) fn hashfull_permille(&self) -> u32 {
        self.table.hashfull_permille()
    }
}

/// The exact tsume-rule search. `stop` is polled every 128 nodes: a node can cost tens of
/// microseconds (useless-interposition tests), and `stop` must be answered within 50 ms.
// Its flags are independent (stop state, two result qualifiers, a setting), not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct Exact<'a> {
    stop: &'a mut dyn FnMut(&Poll) -> bool,
    pub nodes: u64,
    pub aborted: bool,
    /// Set when some failure may be due to a depth bound (so "no mate" is not proven).
    cut_off: bool,
    /// Set when some failure came from repeating a position of the current path: such a
    /// result depends on the path and must not be stored.
    repeated: bool,
    table: Table,
    path: Vec<u64>,
    /// The moves that led to the keys of `path` (for [`Poll::line`]).
    moves: Vec<Move>,
    /// How many of `moves` are real (see [`Poll::line`]).
    real_moves: usize,
    attacker: Color,
    /// Whether drops on one square are searched together as a super piece.
    super_piece: bool,
    /// The super piece on the current path, if any.
    sup: Option<Super>,
    /// The variants the current node is searched for ([`ONE`] without a super piece).
    domain: Variants,
    /// `sup` and `domain` of the nodes above, restored by [`Exact::leave`].
    saved: Vec<(Option<Super>, Variants)>,
    /// The variant lists of the super pieces on the current path.
    contexts: Vec<Context>,
}

impl<'a> Exact<'a> {
    pub(crate) fn new(attacker: Color, hash_mb: usize, stop: &'a mut dyn FnMut(&Poll) -> bool) -> Self {
        Exact {
            stop,
            nodes: 0,
            aborted: false,
            cut_off: false,
            repeated: false,
            table: Table::new(hash_mb),
            path: Vec::new(),
            moves: Vec::new(),
            real_moves: usize::MAX,
            attacker,
            super_piece: true,
            sup: None,
            domain: ONE,
            saved: Vec::new(),
            contexts: Vec::new(),
        }
    }

    /// Searches the drops on one square together as a super piece (the default) or each kind
    /// on its own (`MateSuperPiece false`, for comparison). Answers are the same either way.
    pub(crate) fn set_super_piece(&mut self, on: bool) {
        self.super_piece = on;
    }

    /// Lets a stopped search go on (results stored before the stop are all sound).
    pub(crate) fn resume(&mut self) {
        self.aborted = false;
        self.cut_off = false;
        self.repeated = false;
        self.path.clear();
        self.moves.clear();
        self.real_moves = usize::MAX;
        self.saved.clear();
        self.contexts.clear();
        self.sup = None;
        self.domain = ONE;
    }

    /// Whether a failure of the last top-level query may be due to its bound.
    pub(crate) fn take_cut_off(&mut self) -> bool {
        std::mem::take(&mut self.cut_off)
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(128) {
            let poll = Poll {
                nodes: self.nodes,
                line: &self.moves[..self.moves.len().min(self.real_moves)],
                table: &self.table,
            };
            if (self.stop)(&poll) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    pub(crate) fn hashfull_permille(&self) -> u32 {
        self.table.hashfull_permille()
    }

    fn lookup(&self, key: u64, bound: i32) -> Option<bool> {
        let b = self.table.get(key)?;
        if bound >= b.holds_from {
            Some(true)
        } else if bound <= b.fails_up_to {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, bound: i32, holds: bool) {
        self.table.update(key, bound, holds);
    }

    /// The table and path key of the current node: the position's key, or under a super piece
    /// that key mixed with where the piece is and the variants searched for (a table entry then
    /// speaks for all of them).
    fn node_key(&self, pos: &Position) -> u64 {
        let key = pos.key();
        let Some(s) = self.sup else {
            return key;
        };
        let (tag, sq) = match s.at {
            SuperAt::Board(q) => (1u64, q.index() as u64),
            SuperAt::AttackerHand => (2, 0),
            SuperAt::Gone => (3, 0),
        };
        let salt = mix(self.contexts[s.ctx].salt ^ self.domain as u64 ^ (self.domain >> 64) as u64)
            ^ mix(tag | sq << 8 | (s.shown.index() as u64) << 16);
        // The key's low bit (the side to move) is kept.
        key ^ (salt & !1)
    }

    /// Plays `m` for the variants in `label` and pushes the new key; `false` (nothing played)
    /// when that repeats the path.
    fn enter_with(&mut self, pos: &mut Position, m: Move, label: Variants) -> bool {
        self.saved.push((self.sup, self.domain));
        if let Some(s) = self.sup.as_mut()
            && !m.is_drop()
            && s.at == SuperAt::Board(m.to())
        {
            s.at = SuperAt::AttackerHand;
        }
        self.domain = label;
        pos.do_move(m);
        let key = self.node_key(pos);
        if self.path.contains(&key) {
            pos.undo_move(m);
            self.restore();
            self.repeated = true;
            return false;
        }
        self.path.push(key);
        self.moves.push(m);
        true
    }

    fn enter(&mut self, pos: &mut Position, m: Move) -> bool {
        self.enter_with(pos, m, self.domain)
    }

    fn leave(&mut self, pos: &mut Position, m: Move) {
        self.path.pop();
        self.moves.pop();
        pos.undo_move(m);
        self.restore();
    }

    fn restore(&mut self) {
        if let Some((sup, domain)) = self.saved.pop() {
            self.sup = sup;
            self.domain = domain;
        }
    }

    /// Attacker to move: is there a mate in at most `l` plies?
    pub(crate) fn or_node(&mut self, pos: &mut Position, l: i32) -> bool {
        debug_assert!(self.sup.is_none());
        self.or_variants(pos, l) == ONE
    }

    /// Defender to move, in check: is the longest counted defence at most `m` plies?
    pub(crate) fn and_node(&mut self, pos: &mut Position, m: i32) -> bool {
        debug_assert!(self.sup.is_none());
        self.and_variants(pos, m) == ONE
    }

    /// The variants for which the attacker mates in at most `l` plies.
    fn or_variants(&mut self, pos: &mut Position, l: i32) -> Variants {
        let all = self.domain;
        if l < 1 {
            self.cut_off = true;
            return 0;
        }
        if self.tick() {
            return 0;
        }
        let key = self.node_key(pos);
        if let Some(known) = self.lookup(key, l) {
            if !known && self.table.get(key).is_some_and(|b| b.fails_up_to != UNBOUNDED) {
                self.cut_off = true;
            }
            return if known { all } else { 0 };
        }
        let sup = self.sup;
        // The attacker's own moves may depend on the kind: where a kind of the super piece
        // could check the attacker's king, pin a piece to it or guard a square next to it,
        // each variant is searched on its real position.
        if let Some(Super {
            at: SuperAt::Board(q),
            shown,
            ..
        }) = sup
            && let Some(own_king) = pos.king_square(self.attacker)
        {
            let near = Bitboard::from_square(own_king) | king_attacks(own_king);
            let reaches = |k: PieceKind| (attacks(!self.attacker, k, q, Bitboard::EMPTY) & near).is_nonempty();
            if reaches(shown) || self.active_kinds(all).any(reaches) {
                return self.per_variant(pos, all, false, |s, pos, _| s.or_node(pos, l));
            }
        }
        let mut found = self.mated_in_one(pos);
        if found == all {
            self.store(key, 1, true);
            return all;
        }
        // A variant whose defender holds less than the position's may be mated in one where
        // the position is not. When some may, and the bound is one ply (nothing left to
        // share), or before a longer search, those variants are asked on their real positions,
        // where the fast routine applies.
        let short = self.short_handed(pos) & !found;
        if short != 0 {
            found |= if l == 1 {
                self.per_variant(pos, short, false, |s, pos, _| s.or_node(pos, 1))
            } else {
                self.per_variant(pos, short, false, |_, pos, _| pos.mate_in_one().is_some())
            };
            if found == all {
                if l > 1 {
                    self.store(key, 1, true);
                }
                return all;
            }
            if l == 1 && found & !short == all & !short {
                return found;
            }
        }
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        let super_drops = self.super_only_drops(pos);
        if checks.is_empty() && super_drops == 0 {
            self.store(key, UNBOUNDED, false);
            return 0;
        }
        let (cut_before, rep_before) = (self.cut_off, self.repeated);
        self.cut_off = false;
        self.repeated = false;
        // Checks that leave the defender fewest replies first (as df-pn+ initialises proof
        // numbers): a mate is usually among them, and a found mate ends the node. At l = 1 no
        // check mates under game rules (mate_in_one said so), so only a check that leaves
        // nothing but interpositions can be a tsume mate in one (they may all be useless);
        // the order does not matter there.
        let mut order: Vec<(usize, Move)> = checks
            .iter()
            .map(|&m| {
                if l == 1 {
                    return (0, m);
                }
                pos.do_move(m);
                let replies = count_legal::<false>(pos);
                pos.undo_move(m);
                (replies, m)
            })
            .collect();
        order.sort_by_key(|&(n, _)| n);
        if l == 1 {
            self.cut_off = true;
        }
        for &(_, m) in &order {
            let want = all & !found;
            let got = match self.check_use(pos, m) {
                CheckUse::Skip => 0,
                CheckUse::PerKind => self.per_variant(pos, want, false, |s, pos, _| {
                    if !pos.is_legal(m) || !s.enter(pos, m) {
                        return false;
                    }
                    let ok = s.and_node(pos, l - 1);
                    s.leave(pos, m);
                    ok
                }),
                CheckUse::Plain => {
                    if !self.enter_with(pos, m, want) {
                        continue;
                    }
                    let ok = if l > 1 || InterpositionGap::of(pos).is_some() {
                        self.and_variants(pos, l - 1)
                    } else {
                        0
                    };
                    self.leave(pos, m);
                    ok
                }
            };
            found |= got;
            if found == all {
                break;
            }
            if self.aborted {
                return 0;
            }
        }
        // The attacker drops the super piece itself: a move that exists only in the variants
        // of one kind.
        let rest = super_drops & !found;
        if rest != 0 && !self.aborted {
            found |= self.per_variant(pos, rest, false, |s, pos, v| {
                let mut checks = MoveList::new();
                generate_checks::<true>(pos, &mut checks);
                for &m in checks.iter().filter(|m| m.is_drop() && m.dropped_kind() == v.kind) {
                    if !s.enter(pos, m) {
                        continue;
                    }
                    let ok = s.and_node(pos, l - 1);
                    s.leave(pos, m);
                    if ok {
                        return true;
                    }
                    if s.aborted {
                        break;
                    }
                }
                false
            });
        }
        if found == all {
            self.store(key, l, true);
        } else if found == 0 && !self.repeated && !self.aborted {
            self.store(key, if self.cut_off { l } else { UNBOUNDED }, false);
        }
        self.cut_off |= cut_before;
        self.repeated |= rep_before;
        found
    }

    /// The variants for which the longest counted defence is at most `m` plies.
    fn and_variants(&mut self, pos: &mut Position, m: i32) -> Variants {
        let all = self.domain;
        if self.tick() {
            return 0;
        }
        let key = self.node_key(pos);
        if let Some(known) = self.lookup(key, m) {
            if !known {
                self.cut_off = true;
            }
            return if known { all } else { 0 };
        }
        // Where some kind of the super piece could capture the checker or move between, the
        // other evasions (the same in every variant) are still searched once for all variants,
        // and only the super piece's own moves per variant, on the real positions. With the
        // attacker's king on the board the whole node is searched per variant, as before: the
        // kind then matters below again and again (checks and pins against that king), and on
        // the game positions of the data the shared search cost more nodes than it saved.
        let split_on = match self.sup {
            Some(Super {
                at: SuperAt::Board(q), ..
            }) if self.super_piece_may_evade(pos, q) => Some(q),
            _ => None,
        };
        if split_on.is_some() && pos.king_square(self.attacker).is_some() {
            return self.per_variant(pos, all, true, |s, pos, _| s.and_node(pos, m));
        }
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        if evasions.is_empty() && split_on.is_none() {
            self.store(key, 0, true);
            return all;
        }
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        let (cut_before, rep_before) = (self.cut_off, self.repeated);
        self.cut_off = false;
        self.repeated = false;
        let mut holds = self.and_node_inner(pos, m, &evasions, &is_interposition, None);
        if let Some(q) = split_on
            && holds == all
            && !self.aborted
        {
            holds = self.per_variant(pos, all, true, |s, pos, _| s.own_moves_hold(pos, m, q));
        }
        if !self.aborted && (holds == all || (holds == 0 && !self.repeated)) {
            self.store(key, m, holds == all);
        }
        self.cut_off |= cut_before;
        self.repeated |= rep_before;
        holds
    }

    /// On a real position (defender in check): whether every evasion by the piece on `q` is
    /// mated within `m - 1` plies or is a useless interposition.
    fn own_moves_hold(&mut self, pos: &mut Position, m: i32, q: Square) -> bool {
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        self.and_node_inner(pos, m, &evasions, &is_interposition, Some(q)) == ONE
    }

    fn and_node_inner(
        &mut self,
        pos: &mut Position,
        m: i32,
        evasions: &MoveList,
        is_interposition: &dyn Fn(Move) -> bool,
        only_from: Option<Square>,
    ) -> Variants {
        let all = self.domain;
        // With `only_from`, only the moves of the piece there are searched (the others are
        // known to hold); the other defences' length still comes from every evasion.
        let taken = |e: Move| only_from.is_none_or(|q| !e.is_drop() && e.from() == q);
        // Every evasion that does not interpose counts and must be mated in time. A defence
        // that lasts longer in some variant ends the node: under a super piece the answer is
        // then "not shown for all variants" (0), which is sound, and the kinds are searched one
        // by one above.
        for &e in evasions.iter().filter(|&&e| !is_interposition(e) && taken(e)) {
            let label = self.evasion_label(pos, e);
            if label == 0 {
                continue;
            }
            if m < 2 {
                self.cut_off = true;
                return 0;
            }
            if !self.enter_with(pos, e, label) {
                return 0;
            }
            let ok = self.or_variants(pos, m - 1);
            self.leave(pos, e);
            if ok != label {
                return 0;
            }
        }
        let mut other_defence: Option<Lengths> = None;
        // With the super piece, the first drop on each square is searched on its own, as
        // without it, in the same order: where one of them defends, the node fails at the
        // same cost. The other drops on a square (two kinds or more) wait for the second pass,
        // which searches them together as a super piece.
        let mut first_drop_on = Bitboard::EMPTY;
        let mut waiting: Vec<Move> = Vec::new();
        for &e in evasions.iter().filter(|&&e| is_interposition(e) && taken(e)) {
            if e.is_drop() && self.groups_drops() {
                if first_drop_on.contains(e.to()) {
                    if Self::kinds_dropped_on(evasions, e.to()) >= 3 {
                        waiting.push(e);
                        continue;
                    }
                } else {
                    first_drop_on |= Bitboard::from_square(e.to());
                }
            }
            if !self.interposition_holds(pos, e, m, Variants::MAX, &mut other_defence, evasions, is_interposition) {
                return 0;
            }
        }
        while let Some(&first) = waiting.first() {
            let q = first.to();
            let here: Vec<Move> = waiting.iter().copied().filter(|e| e.to() == q).collect();
            waiting.retain(|e| e.to() != q);
            let d = match other_defence {
                Some(d) => d,
                None => *other_defence.insert(self.other_defence(pos, m, evasions, is_interposition)),
            };
            let settled = self.drops_settled_together(pos, q, &here, &d, m);
            for (&e, &done) in here.iter().zip(&settled) {
                if !self.interposition_holds(pos, e, m, !done, &mut other_defence, evasions, is_interposition) {
                    return 0;
                }
            }
        }
        all
    }

    /// Whether the interposition `e` is mated within `m - 1` plies or useless, in every variant
    /// of `restrict` in which it exists.
    #[allow(clippy::too_many_arguments)]
    fn interposition_holds(
        &mut self,
        pos: &mut Position,
        e: Move,
        m: i32,
        restrict: Variants,
        other_defence: &mut Option<Lengths>,
        evasions: &MoveList,
        is_interposition: &dyn Fn(Move) -> bool,
    ) -> bool {
        let label = self.evasion_label(pos, e) & restrict;
        if label == 0 {
            return true;
        }
        if !self.enter_with(pos, e, label) {
            return false;
        }
        let mut ok = self.or_variants(pos, m - 1);
        if ok != label && !self.aborted {
            // Only a useless interposition may fail the bound. A depth cut-off inside
            // the test does not matter: had the interposition no mate at all, it could not
            // be useless either, and `or_variants` above already recorded its own cut-off.
            let cut = self.cut_off;
            self.leave(pos, e);
            let d = match *other_defence {
                Some(d) => d,
                None => *other_defence.insert(self.other_defence(pos, m, evasions, is_interposition)),
            };
            let entered = self.enter_with(pos, e, label & !ok);
            debug_assert!(entered);
            ok |= self.useless_variants(pos, e.to(), &d);
            self.cut_off = cut;
        }
        self.leave(pos, e);
        ok == label
    }

    /// `D` per variant: the longest defence by the evasions that do not interpose (all known to
    /// be mated within `m`), or 0 when there are none.
    fn other_defence(
        &mut self,
        pos: &mut Position,
        m: i32,
        evasions: &MoveList,
        is_interposition: &dyn Fn(Move) -> bool,
    ) -> Lengths {
        let mut d = [0; MAX_VARIANTS];
        if let Some(s) = self.sup {
            // Exact per variant, on its real position: a bound from the super piece's searches
            // could be too large, and would let an interposition pass as useless.
            let domain = self.domain;
            for i in bits(domain) {
                let v = self.variant(i);
                self.materialize(pos, s, v, true);
                self.sup = None;
                self.domain = ONE;
                let mut real = MoveList::new();
                generate_legal::<true>(pos, &mut real);
                let gap = InterpositionGap::of(pos);
                let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
                d[i] = self.other_defence(pos, m, &real, &is_interposition)[0];
                self.sup = Some(s);
                self.domain = domain;
                self.materialize(pos, s, v, false);
                if self.aborted {
                    break;
                }
            }
            return d;
        }
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            if let Some(len) = self.shortest_len(pos, m - 1) {
                d[0] = d[0].max(1 + len);
            }
            self.leave(pos, e);
        }
        d
    }

    /// After an interposition on `sq` (attacker to move): can the attacker capture the
    /// interposed piece with a check and then, without using it, hold the defence to `d`?
    pub(crate) fn is_useless(&mut self, pos: &mut Position, sq: Square, d: i32) -> bool {
        debug_assert!(self.sup.is_none());
        self.useless_variants(pos, sq, &[d; MAX_VARIANTS]) == ONE
    }

    /// [`Exact::is_useless`] for the variants of the domain, variant `i` held to `d[i]`.
    fn useless_variants(&mut self, pos: &mut Position, sq: Square, d: &Lengths) -> Variants {
        let all = self.domain;
        let mut useless = 0;
        let mut left = all;
        while left != 0 && !self.aborted {
            let bound = d[left.trailing_zeros() as usize];
            let group = bits(left).filter(|&i| d[i] == bound).fold(0, |set, i| set | 1 << i);
            left &= !group;
            self.domain = group;
            useless |= self.capture_holds(pos, sq, bound);
            self.domain = all;
        }
        useless
    }

    /// The variants for which some check capturing the piece on `sq`, the piece then taken out
    /// of play, leaves a defence of at most `d` plies.
    fn capture_holds(&mut self, pos: &mut Position, sq: Square, d: i32) -> Variants {
        // After a stop `and_variants` answers at once, so the remaining captures cost only their
        // generation.
        let all = self.domain;
        let attacker = self.attacker;
        let mut found = 0;
        some_capture_without_piece(pos, sq, attacker, |pos| {
            let saved = (self.sup, self.domain);
            if let Some(s) = self.sup.as_mut()
                && s.at == SuperAt::Board(sq)
            {
                s.at = SuperAt::Gone;
            }
            self.domain = all & !found;
            let key = self.node_key(pos);
            if self.path.contains(&key) {
                self.repeated = true;
            } else {
                // The capture is not on `moves`, and the position below is hypothetical.
                let real = self.real_moves;
                self.real_moves = real.min(self.moves.len());
                self.path.push(key);
                found |= self.and_variants(pos, d);
                self.path.pop();
                self.real_moves = real;
            }
            (self.sup, self.domain) = saved;
            found == all
        });
        found
    }

    /// The shortest mate of at most `max` plies (attacker to move), if any.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn shortest(&mut self, pos: &mut Position, max: i32) -> Option<i32> {
        debug_assert!(self.sup.is_none());
        self.shortest_len(pos, max)
    }

    /// The shortest mate of at most `max` plies, in an ordinary search.
    fn shortest_len(&mut self, pos: &mut Position, max: i32) -> Option<i32> {
        let mut l = 1;
        while l <= max {
            if self.or_variants(pos, l) == ONE {
                return Some(l);
            }
            if self.aborted {
                return None;
            }
            l += 2;
        }
        None
    }
}

/// After an interposition on `sq` (attacker to move): whether some check capturing the piece
/// there, with the piece taken out of the attacker's hand, leaves a position (defender to move)
/// for which `holds` is true. Every useless-interposition test asks this with its own `holds`.
pub(crate) fn some_capture_without_piece(
    pos: &mut Position,
    sq: Square,
    attacker: Color,
    mut holds: impl FnMut(&mut Position) -> bool,
) -> bool {
    let mut checks = MoveList::new();
    generate_checks::<true>(pos, &mut checks);
    for &c in checks.iter().filter(|c| !c.is_drop() && c.to() == sq) {
        pos.do_move(c);
        let Some(captured) = pos.captured_piece() else {
            pos.undo_move(c);
            continue;
        };
        let kind = captured.kind().unpromote();
        pos.take_hand_piece(attacker, kind);
        let found = holds(pos);
        pos.give_hand_piece(attacker, kind);
        pos.undo_move(c);
        if found {
            return true;
        }
    }
    false
}
