//! The search itself: the roots of every search ([`Dfpn::search_from`], alone or beside
//! other threads), the recursive MID with its thresholds ([`Dfpn::mid`]), the expansion and
//! look-up of a node's children ([`Dfpn::expand`]), their evaluation ([`Dfpn::evaluate`]),
//! and the result a node stores ([`Dfpn::finish`]).

use super::hands;
use super::interposition::{
    LOOSE_DROPS, NO_CHAIN, PROMOTION_PAIRS, USELESS_TEST_DEPTH, drop_rank, effective_replies, promotion_pair,
    tsume_mated,
};
use super::parallel::PARALLEL_MIN_NODES;
use super::shared::Job;
use super::tt::{self, DEP_NONE, INF, Record, UNBOUNDED};
use super::{Dfpn, DfpnStats, DfpnVerdict};
use crate::mate::exact::InterpositionGap;
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::{Bitboard, Color, Hand, Move, PieceKind, Position, Square};
use std::sync::PoisonError;
use std::sync::atomic::Ordering;

/// Largest proof/disproof number of an unresolved node.
const NEAR_INF: u32 = INF - 1;

/// `dep` of a result cut short by the depth limit: never path-independent.
const DEP_LIMIT: i16 = -1;

/// Deepest ply searched (Microcosmos needs 1525; the recursion frame is kept small).
pub(super) const MAX_DEPTH: usize = 4000;

/// Nodes between two calls of the caller's stop predicate.
pub(super) const POLL_INTERVAL: u64 = 4096;

/// Bits of the counting filter in front of the path repetition scan.
pub(super) const FILTER_BITS: u32 = 12;

/// Entries (a power of two) of each thread's cache of positions without a mate in one.
pub(super) const NO_MATE1_ENTRIES: usize = 1 << 16;

/// A child in its parent's arena slice: the move and the child's last known result.
#[derive(Clone, Copy)]
pub(super) struct Child {
    mv: Move,
    /// The full key of the position after the move (for the busy marks of parallel search).
    key: u64,
    /// The table key of the position after the move.
    bkey: u64,
    /// A new OR node whose test for mate in one was put off (see [`Dfpn::settle_new_child`]):
    /// [`Dfpn::mid`] makes it first.
    mate1_pending: bool,
    /// The unpromoted kind the (attacker's) move captures, for proof-hand bookkeeping.
    captured: Option<PieceKind>,
    pn: u32,
    dn: u32,
    /// Proof hand if proven, disproof hand if disproven, else the child's attacker hand.
    hand: Hand,
    /// Proven: the proof's length. Disproven: the bound it is disproven at ([`UNBOUNDED`]
    /// for "no mate at any length").
    len: u16,
    dep: i16,
    /// The interposition chain the move belongs to ([`NO_CHAIN`] for most moves).
    chain: u16,
}

/// A node's result as returned to its parent.
#[derive(Clone, Copy)]
struct NodeResult {
    pn: u32,
    dn: u32,
    hand: Hand,
    len: u16,
    dep: i16,
}

impl NodeResult {
    /// An OR node proven by a mate in one, with its proof hand.
    fn mate_in_one(proof: Hand) -> Self {
        NodeResult {
            pn: 0,
            dn: INF,
            hand: proof,
            len: 1,
            dep: DEP_NONE,
        }
    }
}

/// splitmix64's finaliser: a cheap, well-mixed 64-bit hash step.
#[inline(always)]
pub(super) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The slot of a full key in the cache of positions without a mate in one: its high bits.
#[inline(always)]
fn no_mate1_slot(key: u64) -> usize {
    (key >> (64 - NO_MATE1_ENTRIES.trailing_zeros())) as usize
}

#[inline(always)]
fn filter_index(key: u64) -> usize {
    (key >> (64 - FILTER_BITS)) as usize
}

/// Saturating proof-number sum: any resolved (`INF`) term makes it `INF`, otherwise it stops
/// at `NEAR_INF`.
#[inline(always)]
fn pn_add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(NEAR_INF)
    }
}

impl Dfpn {
    /// Attacker colour and material signature for the table keys of a search from `pos`.
    pub(super) fn set_root_context(&mut self, pos: &Position) {
        self.attacker = pos.side_to_move();
        self.signature = material_signature(pos, self.attacker);
    }

    pub(super) fn search_root(
        &mut self,
        pos: &mut Position,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> DfpnVerdict {
        self.search_from(pos, UNBOUNDED, max_nodes, stop, true)
    }

    /// A search from `pos`; with `trust_entry` false the root's own table entry is not taken
    /// as the answer (its children are looked up and searched as needed).
    pub(super) fn search_from(
        &mut self,
        pos: &mut Position,
        bound: u16,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) -> DfpnVerdict {
        let epoch = self.shared.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        self.epoch = epoch;
        let big = self.parallel && max_nodes >= PARALLEL_MIN_NODES;
        if big {
            // Assistants may join it at any time.
            *self.shared.job.lock().unwrap_or_else(PoisonError::into_inner) = Some(Job {
                epoch,
                pos: pos.clone(),
                bound,
                trust_entry,
            });
        }
        let verdict = if self.helpers.is_empty() || !big {
            self.together = self.shared.assistants.load(Ordering::Relaxed) > 0;
            self.search_alone(pos, bound, max_nodes, stop, trust_entry)
        } else {
            self.search_together(pos, bound, max_nodes, stop, trust_entry)
        };
        self.together = false;
        self.shared.stopped.store(epoch, Ordering::SeqCst);
        if big {
            *self.shared.job.lock().unwrap_or_else(PoisonError::into_inner) = None;
        }
        match verdict {
            // Another thread may have settled the root and ended this one's search.
            DfpnVerdict::Unknown => self.shared.settled(epoch),
            v => v,
        }
    }

    /// [`Dfpn::search_from`] on this thread (beside others if `together` is set), inside the
    /// tables' gate.
    pub(super) fn search_alone(
        &mut self,
        pos: &mut Position,
        bound: u16,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) -> DfpnVerdict {
        self.shared.enter();
        self.inside = true;
        let verdict = self.search_entered(pos, bound, max_nodes, stop, trust_entry);
        self.inside = false;
        self.shared.leave();
        verdict
    }

    /// [`Dfpn::search_alone`] once the gate is entered.
    fn search_entered(
        &mut self,
        pos: &mut Position,
        bound: u16,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) -> DfpnVerdict {
        self.nodes = 0;
        self.reported = 0;
        self.max_nodes = max_nodes;
        self.next_poll = POLL_INTERVAL;
        self.aborted = false;
        self.set_root_context(pos);
        if trust_entry {
            let probe = self.probe_node(pos, bound);
            if probe.pn == 0 {
                return DfpnVerdict::Proven;
            }
            if probe.dn == 0 {
                return DfpnVerdict::Disproven;
            }
        }
        if self.try_mate_in_one(pos).is_some() {
            return DfpnVerdict::Proven;
        }
        // A search begun when it is time to stop ends at once, not at its first poll: the
        // line walks run many small searches, and each ran on for a poll interval (Shogi Zuko
        // 99's answer came up to 97 ms after the time limit).
        if stop(&self.stats()) {
            self.aborted = true;
            return DfpnVerdict::Unknown;
        }
        let key = pos.key();
        self.path_keys[0] = key;
        self.path_hashes[0] = mix(key ^ 0x5eed);
        self.path_moves.clear();
        self.filter[filter_index(key)] += 1;
        let r = self.mid(pos, 0, true, false, bound, INF, INF, stop);
        self.filter[filter_index(key)] -= 1;
        if r.pn == 0 {
            DfpnVerdict::Proven
        } else if r.dn == 0 && r.dep == DEP_NONE && r.len >= bound {
            DfpnVerdict::Disproven
        } else {
            DfpnVerdict::Unknown
        }
    }

    /// The table entry of the node `pos` (attacker's hand, superior/inferior answers) for
    /// mate in at most `bound` plies.
    pub(super) fn probe_node(&self, pos: &Position, bound: u16) -> tt::Probe {
        self.shared
            .tt
            .probe(pos.board_key() ^ self.signature, pos.hand(self.attacker), bound)
    }

    /// At an OR node: if the attacker mates in one, stores the proof and returns its hand.
    fn try_mate_in_one(&mut self, pos: &mut Position) -> Option<Hand> {
        let key = pos.key();
        if self.known_no_mate1(key) {
            return None;
        }
        let Some(m) = pos.mate_in_one() else {
            self.no_mate1[no_mate1_slot(key)] = key;
            return None;
        };
        let captured = captured_kind(pos, m);
        pos.do_move(m);
        let leaf = hands::checkmate_proof(pos);
        pos.undo_move(m);
        let proof = hands::proof_before_attack(leaf, m, captured);
        let rec = Record {
            hand: proof,
            pn: 0,
            dn: INF,
            len: 1,
            dep: DEP_NONE,
            work: 1,
        };
        self.shared.tt.store(pos.board_key() ^ self.signature, rec);
        Some(proof)
    }

    /// Whether the position of full key `key` is known to have no mate in one.
    #[inline]
    fn known_no_mate1(&self, key: u64) -> bool {
        self.no_mate1[no_mate1_slot(key)] == key
    }

    /// An attacker-to-move node searched for mate in one ply: proven when a check mates at
    /// once, game rules or tsume rules (only useless interpositions left, with the filter on).
    /// Results that depend on the filter hold for the exact hand.
    fn one_ply_leaf(&mut self, pos: &mut Position) -> NodeResult {
        let hand = pos.hand(self.attacker);
        if let Some(proof) = self.try_mate_in_one(pos) {
            return NodeResult::mate_in_one(proof);
        }
        let mut mated = false;
        if self.settings.useless_filter {
            let mut checks = MoveList::new();
            generate_checks::<true>(pos, &mut checks);
            for &m in &checks {
                pos.do_move(m);
                mated = InterpositionGap::of(pos).is_some() && tsume_mated(pos, self.attacker, USELESS_TEST_DEPTH);
                pos.undo_move(m);
                if mated {
                    break;
                }
            }
        }
        if mated {
            // Stored like a mate in one, for the line walks.
            let rec = Record {
                hand,
                pn: 0,
                dn: INF,
                len: 1,
                dep: DEP_NONE,
                work: 1,
            };
            self.shared.tt.store(pos.board_key() ^ self.signature, rec);
        }
        NodeResult {
            pn: if mated { 0 } else { INF },
            dn: if mated { INF } else { 0 },
            hand,
            len: 1,
            dep: DEP_NONE,
        }
    }

    fn count_node(&mut self, stop: &mut dyn FnMut(&DfpnStats) -> bool) {
        self.nodes += 1;
        self.searched += 1;
        if self.nodes >= self.max_nodes || self.shared.stopped.load(Ordering::Relaxed) == self.epoch {
            self.aborted = true;
        }
        if self.shared.room_wanted() {
            self.make_room();
        }
        if self.nodes >= self.next_poll {
            self.next_poll += POLL_INTERVAL;
            if self.id == 0 {
                // An assistant joined: mark this thread's path so that it keeps away.
                self.together |= self.shared.assistants.load(Ordering::Relaxed) > 0;
            } else {
                // A helper's nodes, for the owner's reports.
                self.shared
                    .helper_nodes
                    .fetch_add(self.nodes - self.reported, Ordering::Relaxed);
                self.reported = self.nodes;
            }
            if self.id == 0 && self.publish_path {
                self.shared.publish_line(&self.path_moves);
            }
            if stop(&self.stats()) {
                self.aborted = true;
            }
        }
    }

    /// Grows the tables or collects garbage when they ask for it (or waits while another
    /// thread of a parallel search does).
    #[inline(never)]
    fn make_room(&mut self) {
        if self.inside {
            self.shared.make_room();
        } else {
            self.shared.enter();
            self.shared.make_room();
            self.shared.leave();
        }
    }

    /// The depth of the path position equal to `key` (a child at `depth`), if any. Only
    /// positions with the same side to move, two plies apart, can be equal.
    #[inline]
    fn repetition(&self, key: u64, depth: usize) -> Option<usize> {
        if self.filter[filter_index(key)] == 0 {
            return None;
        }
        let mut i = depth;
        while i >= 2 {
            i -= 2;
            if self.path_keys[i] == key {
                return Some(i);
            }
        }
        None
    }

    /// Generates the node's children (searched for mate in at most `bound` plies) into the
    /// arena and looks each up. Returns whether a child repeats a position of the current
    /// path, and whether useless interpositions were tested (the node's proof or disproof
    /// then holds for its exact hand only). Kept out of line so the 2 KB move list is not part
    /// of every recursion frame.
    #[inline(never)]
    fn expand(&mut self, pos: &mut Position, depth: usize, or_node: bool, bound: u16) -> (bool, bool) {
        let mut list = MoveList::new();
        let mut exact_hand = false;
        if or_node {
            generate_checks::<true>(pos, &mut list);
        } else {
            generate_legal::<true>(pos, &mut list);
            if bound != UNBOUNDED && self.settings.useless_filter {
                exact_hand = self.useless_removed(pos, &mut list);
            }
        }
        let child_bound = child_bound(bound);
        let mut rep_seen = false;
        // First pass: each child's key, repetitions, and a prefetch of its table cluster, so
        // that the look-ups of the second pass find their clusters on the way into the cache.
        let first = self.children.len();
        // Whether a defender piece other than the king covers a square, worked out once per
        // square (up to seven kinds drop on each).
        let mut looked_at = Bitboard::EMPTY;
        let mut covered = Bitboard::EMPTY;
        let mut supported = |pos: &Position, to: Square| {
            if !looked_at.contains(to) {
                looked_at.set(to);
                let us = pos.side_to_move();
                let guards = pos.pieces(us).and_not(pos.pieces_of(us, PieceKind::King));
                if pos.is_attacked_by(us, to, pos.occupied(), guards) {
                    covered.set(to);
                }
            }
            covered.contains(to)
        };
        for &m in &list {
            let captured = captured_kind(pos, m);
            let chain = if or_node {
                if promotion_pair(pos, m, &list) {
                    PROMOTION_PAIRS + (m.from().index() * 81 + m.to().index()) as u16
                } else {
                    NO_CHAIN
                }
            } else if !m.is_drop() || !self.settings.drop_chains {
                NO_CHAIN
            } else if supported(pos, m.to()) || pos.gives_check(m) {
                m.to().index() as u16 + 1
            } else {
                LOOSE_DROPS
            };
            // The child's keys and the attacker's hand, without playing the move.
            let (board_after, hand_after) = pos.keys_after(m);
            let mut hand = pos.hand(self.attacker);
            if or_node {
                if m.is_drop() {
                    hand.remove(m.dropped_kind());
                } else if let Some(k) = captured {
                    hand.add(k);
                }
            }
            let bkey = board_after ^ self.signature;
            let mut c = Child {
                mv: m,
                key: board_after ^ hand_after,
                bkey,
                mate1_pending: false,
                captured,
                pn: 1,
                dn: 1,
                hand,
                len: 0,
                dep: DEP_NONE,
                chain,
            };
            if let Some(i) = self.repetition(board_after ^ hand_after, depth + 1) {
                c.pn = INF;
                c.dn = 0;
                c.len = UNBOUNDED;
                c.dep = i as i16;
                rep_seen = true;
            } else {
                self.shared.tt.prefetch(bkey);
                if !or_node {
                    // The new OR child's mate-in-one test looks there first.
                    crate::pages::prefetch(&raw const self.no_mate1[no_mate1_slot(c.key)]);
                }
                if self.shared.rep_stored.load(Ordering::Relaxed) {
                    // The path-keyed look-up of the second pass, if it happens.
                    let rep_key = mix(bkey ^ self.child_path_hash(depth, m));
                    if self.shared.may_hold_rep(rep_key) {
                        self.shared.rep_tt.prefetch(rep_key);
                    }
                }
            }
            self.children.push(c);
        }
        // The order `evaluate` wants (it depends on the moves only), before the look-ups: the
        // second pass needs to know which children wait behind others of their chain.
        let start = first;
        if or_node {
            // A promotion before its non-promotion, for `evaluate`'s chains.
            self.children[start..].sort_by_key(|c| (c.chain, !c.mv.is_promotion()));
        } else {
            // Chains for `evaluate`: each contiguous, nearest the king first, weakest kind first.
            let king = pos.king_square(pos.side_to_move()).map_or(0, soppo_core::Square::index);
            self.children[start..].sort_by_key(|c| {
                if c.chain == NO_CHAIN {
                    return (NO_CHAIN, 0, 0);
                }
                let to = c.mv.to().index();
                let distance = (to / 9).abs_diff(king / 9).max((to % 9).abs_diff(king % 9));
                (c.chain, distance, drop_rank(c.mv.dropped_kind()))
            });
        }
        // Second pass: look-ups, and the initial values of new children.
        let mut chain = NO_CHAIN;
        let mut chain_open = false;
        for i in start..self.children.len() {
            let mut c = self.children[i];
            if c.chain != chain {
                chain = c.chain;
                chain_open = false;
            }
            // Whether an earlier drop of the chain is unproven: this one then takes no part in
            // `evaluate` unless it is known to refute the check.
            let waiting = chain != NO_CHAIN && chain_open;
            self.settle_new_child(pos, &mut c, or_node, child_bound, depth, waiting);
            chain_open |= c.pn != 0;
            self.children[i] = c;
        }
        (rep_seen, exact_hand)
    }

    /// A child's values from the table, or a new child's initial values. `waiting`: an
    /// earlier interposition of its chain is unproven, so `evaluate` will pass over this one
    /// unless it is known to refute the check. A waiting new OR node is not tested for mate in
    /// one now: it may never be searched. On Shogi Zuko 99 skipping such tests left 1.12 M of
    /// 1.74 M, and only one test in fifty finds a mate. [`Dfpn::mid`] makes the test if the
    /// node is searched.
    #[inline]
    fn settle_new_child(
        &mut self,
        pos: &mut Position,
        c: &mut Child,
        or_node: bool,
        child_bound: u16,
        depth: usize,
        waiting: bool,
    ) {
        if c.dep != DEP_NONE {
            return;
        }
        if !or_node && child_bound == 0 {
            // No mate in 0 plies: a counted evasion outlasts the bound.
            (c.pn, c.dn, c.len) = (INF, 0, 0);
            return;
        }
        let m = c.mv;
        if !or_node && child_bound == 1 {
            if waiting {
                // `mid` settles it with the same leaf search if it is ever searched.
                return;
            }
            // Settled here rather than by a search of its own (most nodes of a bounded
            // search are at its horizon).
            pos.do_move(m);
            let r = self.one_ply_leaf(pos);
            pos.undo_move(m);
            (c.pn, c.dn, c.hand, c.len) = (r.pn, r.dn, r.hand, r.len);
            return;
        }
        let p = self.shared.tt.probe(c.bkey, c.hand, child_bound);
        let rep = if self.shared.rep_stored.load(Ordering::Relaxed) && p.pn != 0 && p.dn != 0 {
            let rep_key = mix(c.bkey ^ self.child_path_hash(depth, m));
            self.shared
                .may_hold_rep(rep_key)
                .then(|| self.shared.rep_tt.probe_rep(rep_key, c.hand, child_bound))
                .flatten()
        } else {
            None
        };
        if let Some(r) = rep {
            (c.pn, c.dn, c.hand, c.len, c.dep) = (r.pn, r.dn, r.hand, r.len, r.dep);
        } else if p.pn == 0 || p.dn == 0 || p.found {
            (c.pn, c.dn, c.hand, c.len) = (p.pn, p.dn, p.hand, p.len);
        } else if or_node {
            // df-pn+ initial value of a new AND node: checks with fewer replies first.
            // (Measured: 1 + replies/4 beats both 1 and the full reply count on the
            // YaneuraOu mate sets, and /4 beats /2; counting a square's interposing drops
            // once took Zuko 99 from 2.0 M to 1.4 M nodes.)
            pos.do_move(m);
            c.pn = 1 + effective_replies(pos, self.settings.drop_chains) / 4;
            pos.undo_move(m);
        } else if waiting {
            c.mate1_pending = true;
        } else if !self.known_no_mate1(c.key) {
            pos.do_move(m);
            if let Some(proof) = self.try_mate_in_one(pos) {
                // A new OR node below an AND node: df-pn+'s mate-in-one at creation.
                (c.pn, c.dn, c.hand, c.len) = (0, INF, proof, 1);
            }
            pos.undo_move(m);
        }
    }

    #[inline(always)]
    fn child_path_hash(&self, depth: usize, m: Move) -> u64 {
        mix(self.path_hashes[depth] ^ (u64::from(m.raw()) << 20) ^ depth as u64)
    }

    /// The node's (φ, δ) from its children, the child of least δ and the second least δ.
    /// φ/δ are (pn, dn) at OR nodes and (dn, pn) at AND nodes.
    ///
    /// At AND nodes interposing drops form chains (contiguous after sorting): the drops on one
    /// square, weakest kind first; and all drops that no defender piece but the king supports
    /// and that give no check, nearest the king first. Only the first unproven drop of a chain
    /// takes part; the next waits until it is proven. Such drops share most of their subtrees
    /// (the attacker usually captures the piece and goes on), so searching them side by side
    /// would count and explore that work several times; a waiting drop that is already known
    /// to refute the check still counts. At OR nodes the same rule, with "disproven", chains a
    /// non-promotion behind its promotion.
    ///
    /// δ is the children's φ summed, but at most [`SUM_CAP`] above their weak sum (the largest
    /// φ plus one for every other child with φ > 0, after Ueda et al.'s weak proof-number
    /// search). Where transpositions share subtrees the sum counts them again at every level
    /// and can grow geometrically with depth, until a threshold handed down is only a few
    /// units above a node's numbers and every descent from the root makes that little
    /// progress (Shogi Muso #21: numbers near 2.6 × 10⁹ rising by about 18 a descent, no
    /// proof in 60 s). Below the cap, which ordinary problems never reach, it is the sum.
    #[inline]
    fn evaluate(&self, start: usize, end: usize, or_node: bool) -> Evaluation {
        self.evaluate_avoiding(start, end, or_node, usize::MAX)
    }

    /// [`Dfpn::evaluate`] as if the child at `avoid` were not there when picking the best and
    /// second best (it still counts in the sum). The best is `start` with δ = `INF` if no other
    /// child qualifies.
    #[inline]
    fn evaluate_avoiding(&self, start: usize, end: usize, or_node: bool, avoid: usize) -> Evaluation {
        let mut best = start;
        let mut best_delta = INF;
        let mut second = INF;
        let mut sum = 0u32;
        let (mut largest, mut open) = (0u32, 0u32);
        let mut chain = NO_CHAIN;
        let mut chain_open = false;
        for (i, c) in self.children[start..end].iter().enumerate() {
            let (cphi, cdelta) = if or_node { (c.dn, c.pn) } else { (c.pn, c.dn) };
            if c.chain != NO_CHAIN {
                if c.chain != chain {
                    chain = c.chain;
                    chain_open = false;
                }
                if chain_open && cdelta != 0 {
                    continue;
                }
                chain_open |= cphi != 0;
            }
            sum = pn_add(sum, cphi);
            if cphi != 0 {
                open += 1;
                largest = largest.max(cphi);
            }
            if start + i == avoid {
                continue;
            }
            if cdelta < best_delta {
                second = best_delta;
                best_delta = cdelta;
                best = start + i;
            } else if cdelta < second {
                second = cdelta;
            }
        }
        Evaluation {
            phi: best_delta,
            delta: summed_delta(sum, largest, open, self.settings.capped_sums),
            sum,
            best,
            second,
            open,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        pos: &mut Position,
        depth: usize,
        or_node: bool,
        mate1_pending: bool,
        bound: u16,
        mut th_phi: u32,
        mut th_delta: u32,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> NodeResult {
        self.count_node(stop);
        let start_nodes = self.nodes;
        if depth >= MAX_DEPTH {
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: pos.hand(self.attacker),
                len: UNBOUNDED,
                dep: DEP_LIMIT,
            };
        }
        if or_node && bound == 1 {
            return self.one_ply_leaf(pos);
        }
        if or_node && bound == 0 {
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: pos.hand(self.attacker),
                len: 0,
                dep: DEP_NONE,
            };
        }
        if mate1_pending && let Some(proof) = self.try_mate_in_one(pos) {
            return NodeResult::mate_in_one(proof);
        }
        if self.together {
            self.shared.mark(self.path_keys[depth], self.id, true);
        }
        let start = self.children.len();
        let (rep_seen, exact_hand) = self.expand(pos, depth, or_node, bound);
        let end = self.children.len();
        let mut first = true;
        loop {
            let Evaluation {
                phi,
                delta,
                sum,
                mut best,
                mut second,
                open,
            } = self.evaluate(start, end, or_node);
            if first && rep_seen {
                // TCA: a child on the path makes our own numbers unreliable for the parent's
                // thresholds; search at least until they change.
                th_phi = th_phi.max(phi.saturating_add(1));
                th_delta = th_delta.max(delta.saturating_add(1));
            }
            first = false;
            if phi >= th_phi || delta >= th_delta || self.aborted {
                break;
            }
            if self.together && self.shared.busy_elsewhere(self.children[best].key, self.id) {
                // Another thread is searching the best child: take the next best instead if
                // it is nearly as good, counting the busy child's δ half as much again (after
                // Kaneko's virtual proof numbers), so the threads spread over the tree.
                let Evaluation {
                    best: alt,
                    second: alt_second,
                    ..
                } = self.evaluate_avoiding(start, end, or_node, best);
                let d = |c: &Child| if or_node { c.pn } else { c.dn };
                let busy_delta = d(&self.children[best]);
                let virtual_delta = busy_delta.saturating_add(busy_delta / 2 + 1).min(NEAR_INF);
                let alt_delta = d(&self.children[alt]);
                if alt != best && alt_delta <= virtual_delta && alt_delta < th_phi {
                    best = alt;
                    second = virtual_delta.min(alt_second);
                }
            }
            let c = self.children[best];
            let cphi = if or_node { c.dn } else { c.pn };
            // δ(n) < th_δ here, so no child has φ = INF and δ(n) >= cφ.
            let child_th_phi = child_phi_threshold(th_delta, sum, open, cphi, self.settings.capped_sums);
            // 1+ε (ε = 1/4): let the best child run past the second best before switching.
            // Without it sibling see-saws re-descend long lines for every unit of progress.
            let child_th_delta = th_phi.min(second.saturating_add(1).max(second.saturating_add(second / 4)));
            let m = c.mv;
            pos.do_move(m);
            let key = pos.key();
            self.path_keys[depth + 1] = key;
            self.path_hashes[depth + 1] = self.child_path_hash(depth, m);
            self.filter[filter_index(key)] += 1;
            self.path_moves.truncate(depth);
            self.path_moves.push(m);
            let r = self.mid(
                pos,
                depth + 1,
                !or_node,
                c.mate1_pending,
                child_bound(bound),
                child_th_phi,
                child_th_delta,
                stop,
            );
            self.path_moves.truncate(depth);
            self.filter[filter_index(key)] -= 1;
            pos.undo_move(m);
            let ch = &mut self.children[best];
            (ch.pn, ch.dn, ch.hand, ch.len, ch.dep) = (r.pn, r.dn, r.hand, r.len, r.dep);
            ch.mate1_pending = false;
        }
        let r = self.finish(pos, depth, or_node, start, end, exact_hand);
        self.children.truncate(start);
        if self.together {
            self.shared.mark(self.path_keys[depth], self.id, false);
        }
        let work = u32::try_from(self.nodes - start_nodes + 1).unwrap_or(u32::MAX);
        let key = pos.board_key() ^ self.signature;
        if r.dep == DEP_NONE {
            let rec = Record {
                hand: r.hand,
                pn: r.pn,
                dn: r.dn,
                len: if r.pn == 0 || r.dn == 0 { r.len } else { bound },
                dep: DEP_NONE,
                work,
            };
            self.shared.tt.store(key, rec);
        } else {
            // Repetition-dependent: only valid for this very path.
            let exact = pos.hand(self.attacker);
            let rec = Record {
                hand: exact,
                pn: r.pn,
                dn: r.dn,
                len: r.len,
                dep: r.dep,
                work,
            };
            self.shared.store_rep(mix(key ^ self.path_hashes[depth]), rec);
        }
        r
    }

    /// The node's result from its children, with proof/disproof hands and length (the
    /// proof's length, or the bound disproven at). With `exact_hand` (useless interpositions
    /// were left out) the result holds for the attacker's exact hand only.
    fn finish(
        &self,
        pos: &Position,
        depth: usize,
        or_node: bool,
        start: usize,
        end: usize,
        exact_hand: bool,
    ) -> NodeResult {
        let Evaluation { phi, delta, .. } = self.evaluate(start, end, or_node);
        let (pn, dn) = if or_node { (phi, delta) } else { (delta, phi) };
        let kids = &self.children[start..end];
        let hand = pos.hand(self.attacker);
        if pn == 0 {
            let (proof, len) = if or_node {
                let Some(c) = kids.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len) else {
                    unreachable!()
                };
                (hands::proof_before_attack(c.hand, c.mv, c.captured), c.len + 1)
            } else if exact_hand {
                (hand, kids.iter().map(|c| c.len.saturating_add(1)).max().unwrap_or(0))
            } else if kids.is_empty() {
                (hands::checkmate_proof(pos), 0)
            } else {
                let mut proof = Hand::EMPTY;
                let mut len = 0;
                for c in kids {
                    proof = hands::max(proof, c.hand);
                    len = len.max(c.len.saturating_add(1));
                }
                (
                    hands::keep_kinds_defender_lacks(proof, hand, pos.hand(!self.attacker)),
                    len,
                )
            };
            debug_assert!(hand.dominates(proof));
            return NodeResult {
                pn: 0,
                dn: INF,
                hand: proof,
                len,
                dep: DEP_NONE,
            };
        }
        if dn == 0 {
            // Lengths: T(OR) = min over checks of 1 + T(child), T(AND) = max over counted
            // evasions of 1 + T(child); a child disproven at b has T > b.
            let (disproof, mut dep, len) = if or_node {
                let mut d = hands::full();
                let mut dep = DEP_NONE;
                let mut len = UNBOUNDED;
                for c in kids {
                    d = hands::min(d, hands::disproof_before_attack(c.hand, c.mv, c.captured));
                    dep = dep.min(c.dep);
                    len = len.min(c.len);
                }
                (hands::drop_kinds_attacker_lacks(d, hand), dep, len.saturating_add(1))
            } else {
                // Prefer a refutation that does not depend on the path, then the strongest.
                let Some(c) = kids.iter().filter(|c| c.dn == 0).max_by_key(|c| (c.dep, c.len)) else {
                    unreachable!()
                };
                (if exact_hand { hand } else { c.hand }, c.dep, c.len.saturating_add(1))
            };
            debug_assert!(disproof.dominates(hand));
            if dep != DEP_NONE && i32::from(dep) >= depth as i32 {
                // Every repetition it relies on is to this node or below: path-independent.
                dep = DEP_NONE;
            }
            return NodeResult {
                pn: INF,
                dn: 0,
                hand: disproof,
                len,
                dep,
            };
        }
        NodeResult {
            pn,
            dn,
            hand,
            len: 0,
            dep: DEP_NONE,
        }
    }
}

/// How far a node's summed number may run above its weak sum (see [`Dfpn::evaluate`]): far
/// above what ordinary problems reach (the 5,000 YaneuraOu samples, Shogi Zuko 99 and
/// Microcosmos never do; the curated rows' nodes change by 0.002 %), so that only runaway
/// double counting is cut.
const SUM_CAP: u32 = 1 << 20;

/// δ from the children's φ: their `sum`, capped at [`SUM_CAP`] above the weak sum (the
/// `largest` φ plus one for each of the other `open` children) when `capped`.
#[inline]
fn summed_delta(sum: u32, largest: u32, open: u32, capped: bool) -> u32 {
    if capped && largest != INF {
        sum.min(largest.saturating_add(open.saturating_sub(1)).saturating_add(SUM_CAP))
    } else {
        sum
    }
}

/// The φ threshold of the child searched next, whose φ is `cphi`, at a node whose threshold
/// on δ is `th_delta` (above its δ): the child's φ at which the node's δ reaches `th_delta`.
/// With capped sums δ reaches it once both the sum (the other children's φ plus the child's)
/// and the capped weak sum (the child's φ + open - 1 + cap, once the child's is the largest)
/// do, so the child runs until the later of the two. That can overshoot by as much as the
/// largest sibling's φ when a sibling alone holds the weak sum above `th_delta`.
#[inline]
fn child_phi_threshold(th_delta: u32, sum: u32, open: u32, cphi: u32, capped: bool) -> u32 {
    let sum_part = th_delta.saturating_sub(sum.saturating_sub(cphi));
    if capped {
        let weak_part = th_delta.saturating_sub(open.saturating_sub(1).saturating_add(SUM_CAP));
        sum_part.max(weak_part)
    } else {
        sum_part
    }
}

/// A node's numbers from its children ([`Dfpn::evaluate`]).
struct Evaluation {
    /// φ: the least child δ.
    phi: u32,
    /// δ: the children's φ summed, capped above their weak sum.
    delta: u32,
    /// The children's φ summed.
    sum: u32,
    /// The child of least δ, and the second least δ.
    best: usize,
    second: u32,
    /// Children with φ > 0 that take part.
    open: u32,
}

/// The bound of a node's children: one ply less ([`UNBOUNDED`] stays unbounded).
#[inline(always)]
fn child_bound(bound: u16) -> u16 {
    if bound == UNBOUNDED {
        bound
    } else {
        bound.saturating_sub(1)
    }
}

/// The unpromoted kind `m` captures, if any.
#[inline(always)]
fn captured_kind(pos: &Position, m: Move) -> Option<PieceKind> {
    if m.is_drop() {
        None
    } else {
        pos.piece_on(m.to()).map(|p| p.kind().unpromote())
    }
}

/// A hash of the total material per kind (board and both hands) and of the attacker's colour.
/// Proof and disproof hands are only meaningful among positions with the same material (the
/// defender's hand is then implied), and OR/AND roles depend on who attacks, so both go into
/// every table key.
pub(super) fn material_signature(pos: &Position, attacker: Color) -> u64 {
    let mut counts = [0u64; 16];
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            counts[p.kind().unpromote().index()] += 1;
        }
    }
    for c in Color::ALL {
        let h = pos.hand(c);
        for k in PieceKind::HAND {
            counts[k.index()] += u64::from(h.count(k));
        }
    }
    let mut sig = mix(attacker.index() as u64 + 1);
    for (i, &n) in counts.iter().enumerate() {
        sig = mix(sig ^ (n << 8) ^ i as u64);
    }
    sig
}

#[cfg(test)]
mod sum_tests {
    use super::{INF, NEAR_INF, SUM_CAP, child_phi_threshold, pn_add, summed_delta};

    /// δ of a node whose children's φ are `phis`, as `Dfpn::evaluate` sums them.
    fn delta(phis: &[u32], capped: bool) -> u32 {
        let sum = phis.iter().fold(0, |s, &p| pn_add(s, p));
        let open = phis.iter().filter(|&&p| p != 0).count() as u32;
        let largest = phis.iter().copied().max().unwrap_or(0);
        summed_delta(sum, largest, open, capped)
    }

    #[test]
    fn ordinary_numbers_are_summed_and_runaway_ones_capped() {
        for capped in [true, false] {
            assert_eq!(delta(&[3, 0, 5, 1], capped), 9);
            assert_eq!(delta(&[], capped), 0);
            assert_eq!(delta(&[7, INF], capped), INF);
        }
        let huge = [3_000_000, 3_000_000, 2_000_000, 0];
        assert_eq!(delta(&huge, false), 8_000_000);
        assert_eq!(delta(&huge, true), 3_000_000 + 2 + SUM_CAP);
        assert_eq!(delta(&[NEAR_INF, NEAR_INF], false), NEAR_INF);
        assert_eq!(delta(&[NEAR_INF, NEAR_INF], true), NEAR_INF);
    }

    /// At the threshold the node's δ reaches `th`; below it (plain sums) it does not; and the
    /// threshold is above the child's φ, so every descent makes progress.
    #[test]
    fn a_child_searched_to_its_threshold_lifts_the_node_to_its_own() {
        let families: [&[u32]; 5] = [
            &[1, 2, 3],
            &[5, 0, 9, 1],
            &[2_000_000, 1_500_000, 7],
            &[40, 3_000_000, 3_000_000, 1, 0],
            &[1_048_000, 1_048_000, 1_048_000],
        ];
        for capped in [true, false] {
            for phis in families {
                let now = delta(phis, capped);
                for child in (0..phis.len()).filter(|&i| phis[i] != 0) {
                    for th in [now + 1, now + 2, now + 1000, now + SUM_CAP, now.saturating_mul(2)] {
                        let sum = phis.iter().fold(0, |s, &p| pn_add(s, p));
                        let open = phis.iter().filter(|&&p| p != 0).count() as u32;
                        let t = child_phi_threshold(th, sum, open, phis[child], capped);
                        assert!(t > phis[child], "{phis:?} child {child} th {th}: no progress");
                        let mut after = phis.to_vec();
                        after[child] = t;
                        assert!(
                            delta(&after, capped) >= th,
                            "{phis:?} child {child} th {th}: stops short"
                        );
                        if !capped {
                            after[child] = t - 1;
                            assert!(delta(&after, capped) < th, "{phis:?} child {child} th {th}: overshoots");
                        }
                    }
                }
            }
        }
    }
}
