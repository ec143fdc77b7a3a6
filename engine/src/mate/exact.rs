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

use soppo_core::attacks::{attacks, between, king_attacks};
use soppo_core::movegen::{MoveList, count_legal, generate_checks, generate_legal};
use soppo_core::{Bitboard, Color, Hand, Move, Piece, PieceKind, Position, Square};

/// A bound meaning "at any length".
const UNBOUNDED: i32 = i32::MAX;

/// What is known about one position.
#[derive(Clone, Copy)]
struct Bounds {
    /// The smallest bound known to hold (`i32::MAX` when none is).
    holds_from: i32,
    /// The largest bound known to fail (-1 when none is; [`UNBOUNDED`] when no bound holds).
    fails_up_to: i32,
}

/// One table slot: a position key and its bounds (16 bytes).
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// `holds_from + 1`, with 0 for "none".
    holds_from: u16,
    /// `fails_up_to + 1`, with 0 for "none" and `u16::MAX` for [`UNBOUNDED`].
    fails_up_to: u16,
    used: bool,
}

impl Slot {
    /// Slots are kept as two words so that a fresh table is all zeros: it is then allocated
    /// zeroed, lazily, by the operating system instead of being written at start-up.
    fn unpack(raw: [u64; 2]) -> Slot {
        Slot {
            key: raw[0],
            holds_from: (raw[1] & 0xffff) as u16,
            fails_up_to: ((raw[1] >> 16) & 0xffff) as u16,
            used: raw[1] >> 32 != 0,
        }
    }

    fn pack(self) -> [u64; 2] {
        [
            self.key,
            u64::from(self.holds_from) | u64::from(self.fails_up_to) << 16 | u64::from(self.used) << 32,
        ]
    }

    fn bounds(self) -> Bounds {
        Bounds {
            holds_from: if self.holds_from == 0 {
                i32::MAX
            } else {
                i32::from(self.holds_from) - 1
            },
            fails_up_to: match self.fails_up_to {
                0 => -1,
                u16::MAX => UNBOUNDED,
                f => i32::from(f) - 1,
            },
        }
    }

    /// How much work the slot stands for: results at larger bounds cost more to redo.
    fn worth(self) -> u16 {
        self.holds_from.max(self.fails_up_to)
    }
}

/// A table of 4-slot buckets. It starts small (most problems are short, and touching a large
/// table costs page faults) and doubles while more than half full, up to its memory limit; then,
/// when a bucket is full, the slot worth least is replaced: forgetting costs only time, never
/// correctness.
struct Table {
    buckets: Vec<[[u64; 2]; 4]>,
    used: usize,
    max_buckets: usize,
}

/// The size a table starts at.
const INITIAL_TABLE_MB: usize = 4;

impl Table {
    fn new(megabytes: usize) -> Self {
        let per_mb = (1 << 20) / std::mem::size_of::<[[u64; 2]; 4]>();
        let max_buckets = (megabytes.max(1) * per_mb).max(1);
        let n = (INITIAL_TABLE_MB * per_mb).min(max_buckets);
        Table {
            buckets: vec![[[0; 2]; 4]; n],
            used: 0,
            max_buckets,
        }
    }

    fn grow(&mut self) {
        let n = (self.buckets.len() * 2).min(self.max_buckets);
        let old = std::mem::replace(&mut self.buckets, vec![[[0; 2]; 4]; n]);
        self.used = 0;
        for raw in old.into_iter().flatten() {
            let slot = Slot::unpack(raw);
            if slot.used {
                let b = self.bucket(slot.key);
                if let Some(free) = self.buckets[b].iter_mut().find(|r| !Slot::unpack(**r).used) {
                    *free = raw;
                    self.used += 1;
                }
            }
        }
    }

    fn bucket(&self, key: u64) -> usize {
        // The high bits of the key pick the bucket (the low bit is the side to move).
        ((u128::from(key >> 1) * self.buckets.len() as u128) >> 63) as usize
    }

    fn get(&self, key: u64) -> Option<Bounds> {
        self.buckets[self.bucket(key)]
            .iter()
            .map(|&raw| Slot::unpack(raw))
            .find(|s| s.used && s.key == key)
            .map(Slot::bounds)
    }

    fn update(&mut self, key: u64, bound: i32, holds: bool) {
        if self.used * 2 > self.buckets.len() * 4 && self.buckets.len() < self.max_buckets {
            self.grow();
        }
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        let slots = bucket.map(Slot::unpack);
        let i = slots
            .iter()
            .position(|s| s.used && s.key == key)
            .or_else(|| slots.iter().position(|s| !s.used))
            .unwrap_or_else(|| (0..4).min_by_key(|&i| slots[i].worth()).unwrap_or(0));
        let mut slot = slots[i];
        if !(slot.used && slot.key == key) {
            self.used += usize::from(!slot.used);
            slot = Slot {
                key,
                holds_from: 0,
                fails_up_to: 0,
                used: true,
            };
        }
        if holds {
            let v = u16::try_from(bound + 1).unwrap_or(u16::MAX - 1);
            if slot.holds_from == 0 || v < slot.holds_from {
                slot.holds_from = v;
            }
        } else {
            let v = if bound == UNBOUNDED {
                u16::MAX
            } else {
                u16::try_from(bound + 1).unwrap_or(u16::MAX - 1)
            };
            slot.fails_up_to = slot.fails_up_to.max(v);
        }
        bucket[i] = slot.pack();
    }

    /// Use of the memory limit, per mille.
    fn hashfull_permille(&self) -> u32 {
        u32::try_from(self.used * 1000 / (self.max_buckets * 4)).unwrap_or(1000)
    }
}

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

/// A set of the real positions a super-piece search stands for: bit `i` is variant `i` of the
/// current [`Context`]. Outside a super-piece search there is a single "variant", bit 0
/// ([`ONE`]), so the same set arithmetic serves both: a search answers with the set of variants
/// for which its claim holds.
type Variants = u64;

/// The one variant of an ordinary (concrete) search.
const ONE: Variants = 1;

/// Most variants one context may have.
const MAX_VARIANTS: usize = 64;

/// A length per variant.
type Lengths = [i32; MAX_VARIANTS];

/// The bit numbers of a set, lowest first.
fn bits(set: Variants) -> impl Iterator<Item = usize> {
    (0..MAX_VARIANTS).filter(move |&i| set & (1 << i) != 0)
}

/// One real position of a super-piece search, told apart from the searched position by the kind
/// of the active super piece and by the pieces its defender holds less (`debt`): the searched
/// position keeps the defender's hand from before any super piece was dropped.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Variant {
    kind: PieceKind,
    debt: Hand,
}

/// Where each variant of a list being built stands: an open-addressing table (twice the
/// largest list), so that building a list of `n` variants costs `n` look-ups, not `n²`.
struct VariantIndex {
    slots: [(u64, u8); 2 * MAX_VARIANTS],
}

impl Default for VariantIndex {
    fn default() -> Self {
        VariantIndex {
            slots: [(0, 0); 2 * MAX_VARIANTS],
        }
    }
}

impl VariantIndex {
    fn tag(v: Variant) -> u64 {
        (u64::from(v.debt.raw()) << 8 | v.kind.index() as u64) + 1
    }

    fn slot(&self, tag: u64) -> usize {
        let mut i = (mix(tag) as usize) % self.slots.len();
        while self.slots[i].0 != 0 && self.slots[i].0 != tag {
            i = (i + 1) % self.slots.len();
        }
        i
    }

    fn get(&self, v: Variant) -> Option<usize> {
        let tag = Self::tag(v);
        let (t, j) = self.slots[self.slot(tag)];
        (t == tag).then_some(usize::from(j))
    }

    fn insert(&mut self, v: Variant, j: usize) {
        let tag = Self::tag(v);
        let i = self.slot(tag);
        self.slots[i] = (tag, u8::try_from(j).unwrap_or(u8::MAX));
    }
}

/// The variants of one super piece (and of those captured before it), with a key salt that
/// stands for the list.
struct Context {
    variants: Vec<Variant>,
    salt: u64,
}

impl Context {
    fn new(variants: Vec<Variant>) -> Context {
        let salt = variants.iter().fold(0x51_7cc1_b727_220a_u64, |h, v| {
            mix(h ^ (u64::from(v.debt.raw()) << 8 | v.kind.index() as u64))
        });
        Context { variants, salt }
    }
}

/// splitmix64's finaliser.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Where the super piece is. It stays a super piece only while nothing depends on its kind:
/// unmoved on the square it was dropped on, in the attacker's hand after a capture, or out of
/// play after the capture of a useless-interposition test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SuperAt {
    Board(Square),
    AttackerHand,
    Gone,
}

/// The super piece of Kitamura, Handa and Oshita: one interposed piece standing for every kind
/// in the search's domain. The position holds it as `shown`. The real position of a variant has
/// the variant's kind in its place (on its square, or in the attacker's hand instead of `shown`)
/// and the variant's debt fewer in the defender's hand. A super piece dropped after an earlier
/// one was captured and taken out of play multiplies the variants (the paper's several super
/// pieces, with their hand-count limits kept exactly by the debts).
///
/// Where a move depends on the kind (the super piece moves, the attacker drops it, a pawn drop
/// it might capture could be mate, it could reach the attacker's king), each variant is searched
/// on its real position from there ([`Exact::per_variant`]). That is the paper's "re-search the
/// kinds whose powers were removed", done where the power is used, so every answer is exact for
/// every variant.
#[derive(Clone, Copy)]
struct Super {
    at: SuperAt,
    shown: PieceKind,
    /// Index of its [`Context`].
    ctx: usize,
}

/// How an attacker's check is searched under a super piece.
enum CheckUse {
    /// The same move for every kind.
    Plain,
    /// Its legality depends on the kind: each kind on its real position.
    PerKind,
    /// It drops the super piece: searched per kind separately.
    Skip,
}

/// The exact tsume-rule search. `stop` is polled every 1024 nodes.
// Its flags are independent (stop state, two result qualifiers, a setting), not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct Exact<'a> {
    stop: &'a mut dyn FnMut(u64) -> bool,
    pub nodes: u64,
    pub aborted: bool,
    /// Set when some failure may be due to a depth bound (so "no mate" is not proven).
    cut_off: bool,
    /// Set when some failure came from repeating a position of the current path: such a
    /// result depends on the path and must not be stored.
    repeated: bool,
    table: Table,
    path: Vec<u64>,
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
    pub(crate) fn new(attacker: Color, hash_mb: usize, stop: &'a mut dyn FnMut(u64) -> bool) -> Self {
        Exact {
            stop,
            nodes: 0,
            aborted: false,
            cut_off: false,
            repeated: false,
            table: Table::new(hash_mb),
            path: Vec::new(),
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
        if self.nodes.is_multiple_of(1024) && (self.stop)(self.nodes) {
            self.aborted = true;
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
    /// that key mixed with where the piece is and the kinds searched for (a table entry then
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
        let salt = mix(self.contexts[s.ctx].salt ^ self.domain) ^ mix(tag | sq << 8 | (s.shown.index() as u64) << 16);
        // The key's low bit (the side to move) is kept.
        key ^ (salt & !1)
    }

    fn variant(&self, i: usize) -> Variant {
        let ctx = self.sup.map_or(0, |s| s.ctx);
        self.contexts[ctx].variants[i]
    }

    /// The kinds the active super piece has in the variants of `set`.
    fn active_kinds(&self, set: Variants) -> impl Iterator<Item = PieceKind> + '_ {
        bits(set).map(|i| self.variant(i).kind)
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
        true
    }

    fn enter(&mut self, pos: &mut Position, m: Move) -> bool {
        self.enter_with(pos, m, self.domain)
    }

    fn leave(&mut self, pos: &mut Position, m: Move) {
        self.path.pop();
        pos.undo_move(m);
        self.restore();
    }

    fn restore(&mut self) {
        if let Some((sup, domain)) = self.saved.pop() {
            self.sup = sup;
            self.domain = domain;
        }
    }

    /// Turns the position into the real one of variant `v` (`real`) or back.
    fn materialize(&self, pos: &mut Position, s: Super, v: Variant, real: bool) {
        let (attacker, defender) = (self.attacker, !self.attacker);
        if real {
            match s.at {
                SuperAt::Board(q) => pos.replace_piece(q, Piece::new(defender, v.kind)),
                SuperAt::AttackerHand => {
                    pos.take_hand_piece(attacker, s.shown);
                    pos.give_hand_piece(attacker, v.kind);
                }
                SuperAt::Gone => {}
            }
            for kind in PieceKind::HAND {
                for _ in 0..v.debt.count(kind) {
                    pos.take_hand_piece(defender, kind);
                }
            }
        } else {
            for kind in PieceKind::HAND {
                for _ in 0..v.debt.count(kind) {
                    pos.give_hand_piece(defender, kind);
                }
            }
            match s.at {
                SuperAt::Board(q) => pos.replace_piece(q, Piece::new(defender, s.shown)),
                SuperAt::AttackerHand => {
                    pos.take_hand_piece(attacker, v.kind);
                    pos.give_hand_piece(attacker, s.shown);
                }
                SuperAt::Gone => {}
            }
        }
    }

    /// The variants of `set` for which `holds` is true, each asked on its real position by an
    /// ordinary search. With `all_or_none` it stops at the first variant that fails and
    /// answers nothing.
    fn per_variant(
        &mut self,
        pos: &mut Position,
        set: Variants,
        all_or_none: bool,
        mut holds: impl FnMut(&mut Self, &mut Position, Variant) -> bool,
    ) -> Variants {
        let Some(s) = self.sup else {
            return 0;
        };
        let domain = self.domain;
        let mut out = 0;
        for i in bits(set) {
            let v = self.variant(i);
            self.materialize(pos, s, v, true);
            self.sup = None;
            self.domain = ONE;
            let ok = holds(self, pos, v);
            self.sup = Some(s);
            self.domain = domain;
            self.materialize(pos, s, v, false);
            if ok {
                out |= 1 << i;
            } else if all_or_none {
                return 0;
            }
            if self.aborted {
                break;
            }
        }
        out
    }

    /// Attacker to move: is there a mate in at most `l` plies?
    pub(crate) fn or_node(&mut self, pos: &mut Position, l: i32) -> bool {
        debug_assert!(self.sup.is_none());
        self.or_kinds(pos, l) == ONE
    }

    /// Defender to move, in check: is the longest counted defence at most `m` plies?
    pub(crate) fn and_node(&mut self, pos: &mut Position, m: i32) -> bool {
        debug_assert!(self.sup.is_none());
        self.and_kinds(pos, m) == ONE
    }

    /// The variants for which the attacker mates in at most `l` plies.
    fn or_kinds(&mut self, pos: &mut Position, l: i32) -> Variants {
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
        // each kind is searched on its real position.
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
                        self.and_kinds(pos, l - 1)
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
        // The attacker drops the super piece itself: a move that exists for one kind only.
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

    /// The variants whose defender lacks some kind the position's defender holds (its debt
    /// takes the last one). For the others a drop is possible exactly where it is in the
    /// position, so a mate in one found with the position's hand is theirs as well, and at a
    /// bound of one ply only the usual checks (those leaving interpositions) need a search.
    fn short_handed(&self, pos: &Position) -> Variants {
        if self.sup.is_none() {
            return 0;
        }
        let hand = pos.hand(!self.attacker);
        bits(self.domain)
            .filter(|&i| {
                let debt = self.variant(i).debt;
                PieceKind::HAND
                    .iter()
                    .any(|&k| hand.count(k) > 0 && hand.count(k) <= debt.count(k))
            })
            .fold(0, |set, i| set | 1 << i)
    }

    /// The variants mated in one (under game rules, which is a tsume mate too). The active super
    /// piece is given each of its kinds in turn; the position's defender holds at least what
    /// every variant's does, so a mate found there mates every variant of that kind.
    fn mated_in_one(&self, pos: &mut Position) -> Variants {
        let all = self.domain;
        let Some(s) = self.sup.filter(|s| s.at != SuperAt::Gone) else {
            return if pos.mate_in_one().is_some() { all } else { 0 };
        };
        let (attacker, defender) = (self.attacker, !self.attacker);
        let mut tried = 0u32;
        let mut mated = 0;
        for i in bits(all) {
            let kind = self.variant(i).kind;
            if tried & (1 << kind.index()) != 0 {
                continue;
            }
            tried |= 1 << kind.index();
            let found = if let SuperAt::Board(q) = s.at {
                pos.replace_piece(q, Piece::new(defender, kind));
                let found = pos.mate_in_one().is_some();
                pos.replace_piece(q, Piece::new(defender, s.shown));
                found
            } else {
                pos.take_hand_piece(attacker, s.shown);
                pos.give_hand_piece(attacker, kind);
                let found = pos.mate_in_one().is_some();
                pos.take_hand_piece(attacker, kind);
                pos.give_hand_piece(attacker, s.shown);
                found
            };
            if found {
                mated |= bits(all)
                    .filter(|&j| self.variant(j).kind == kind)
                    .fold(0, |set, j| set | 1 << j);
            }
        }
        mated
    }

    /// With the super piece in the attacker's hand: the variants in which a drop of its kind
    /// could only be the super piece (the attacker holds no other piece of that kind).
    fn super_only_drops(&self, pos: &Position) -> Variants {
        let Some(Super {
            at: SuperAt::AttackerHand,
            shown,
            ..
        }) = self.sup
        else {
            return 0;
        };
        let hand = pos.hand(self.attacker);
        bits(self.domain)
            .filter(|&i| {
                let kind = self.variant(i).kind;
                hand.count(kind) == u32::from(kind == shown)
            })
            .fold(0, |set, i| set | 1 << i)
    }

    fn check_use(&self, pos: &Position, m: Move) -> CheckUse {
        let Some(s) = self.sup else {
            return CheckUse::Plain;
        };
        if !m.is_drop() {
            return CheckUse::Plain;
        }
        let kind = m.dropped_kind();
        match s.at {
            // A pawn drop that the super piece might capture: whether it is a (forbidden)
            // pawn-drop mate can depend on the kind.
            SuperAt::Board(q) if kind == PieceKind::Pawn => {
                let (defender, occ, to) = (!self.attacker, pos.occupied(), m.to());
                let takes = |k: PieceKind| attacks(defender, k, q, occ).contains(to);
                if takes(s.shown) || self.active_kinds(self.domain).any(takes) {
                    CheckUse::PerKind
                } else {
                    CheckUse::Plain
                }
            }
            SuperAt::AttackerHand if kind == s.shown && pos.hand(self.attacker).count(kind) == 1 => CheckUse::Skip,
            _ => CheckUse::Plain,
        }
    }

    /// The variants for which the defender's evasion `e` exists.
    fn evasion_label(&self, pos: &Position, e: Move) -> Variants {
        let all = self.domain;
        let Some(s) = self.sup else {
            return all;
        };
        if e.is_drop() {
            // The position keeps the defender's hand from before the super pieces were
            // dropped: a variant has the piece only if it holds more than its debt.
            let kind = e.dropped_kind();
            let held = pos.hand(!self.attacker).count(kind);
            let pawn_file = match s.at {
                SuperAt::Board(q) if kind == PieceKind::Pawn => q.file() == e.to().file(),
                _ => false,
            };
            bits(all)
                .filter(|&i| {
                    let v = self.variant(i);
                    held > v.debt.count(kind) && !(pawn_file && v.kind == PieceKind::Pawn)
                })
                .fold(0, |set, i| set | 1 << i)
        } else if matches!(s.at, SuperAt::Board(q) if e.from() == q) {
            // The stand-in's own moves; the kinds' moves are searched per variant.
            0
        } else {
            all
        }
    }

    /// Under a super piece on `q`: whether some kind of it could capture the checker or move
    /// between, so that the evasions depend on the kind.
    fn super_piece_may_evade(&self, pos: &Position, q: Square) -> bool {
        let defender = !self.attacker;
        let checkers = pos.checkers();
        let Some(king) = pos.king_square(defender) else {
            return false;
        };
        if checkers.is_empty() || checkers.has_more_than_one() {
            return false;
        }
        let c = checkers.single();
        let targets = between(c, king) | Bitboard::from_square(c);
        let occ = pos.occupied();
        self.active_kinds(self.domain)
            .any(|k| (attacks(defender, k, q, occ) & targets).is_nonempty())
    }

    /// The variants for which the longest counted defence is at most `m` plies.
    fn and_kinds(&mut self, pos: &mut Position, m: i32) -> Variants {
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
        if let Some(Super {
            at: SuperAt::Board(q), ..
        }) = self.sup
            && self.super_piece_may_evade(pos, q)
        {
            return self.per_variant(pos, all, true, |s, pos, _| s.and_node(pos, m));
        }
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        if evasions.is_empty() {
            self.store(key, 0, true);
            return all;
        }
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        let (cut_before, rep_before) = (self.cut_off, self.repeated);
        self.cut_off = false;
        self.repeated = false;
        let holds = self.and_node_inner(pos, m, &evasions, &is_interposition);
        if !self.aborted && (holds == all || (holds == 0 && !self.repeated)) {
            self.store(key, m, holds == all);
        }
        self.cut_off |= cut_before;
        self.repeated |= rep_before;
        holds
    }

    fn and_node_inner(
        &mut self,
        pos: &mut Position,
        m: i32,
        evasions: &MoveList,
        is_interposition: &dyn Fn(Move) -> bool,
    ) -> Variants {
        let all = self.domain;
        // Every evasion that does not interpose counts and must be mated in time. A defence
        // that lasts longer in some variant ends the node: under a super piece the answer is
        // then "not shown for all variants" (0), which is sound, and the kinds are searched one
        // by one above.
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
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
            let ok = self.or_kinds(pos, m - 1);
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
        for &e in evasions.iter().filter(|&&e| is_interposition(e)) {
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
            // The super piece's variants: every variant here that holds the kind, with it.
            let mut variants: Vec<Variant> = Vec::new();
            let mut child_d: Lengths = [0; MAX_VARIANTS];
            let mut children: Vec<(usize, PieceKind, usize)> = Vec::new();
            let mut seen = VariantIndex::default();
            'build: for &e in &here {
                let kind = e.dropped_kind();
                for i in bits(self.evasion_label(pos, e)) {
                    let mut debt = if self.sup.is_some() {
                        self.variant(i).debt
                    } else {
                        Hand::EMPTY
                    };
                    debt.add(kind);
                    let v = Variant { kind, debt };
                    let j = if let Some(j) = seen.get(v) {
                        j
                    } else if variants.len() < MAX_VARIANTS {
                        seen.insert(v, variants.len());
                        variants.push(v);
                        variants.len() - 1
                    } else {
                        // Too many to search together: every kind on its own.
                        variants.clear();
                        break 'build;
                    };
                    child_d[j] = d[i];
                    children.push((i, kind, j));
                }
            }
            let settled = if variants.is_empty() {
                0
            } else {
                self.super_interposition(pos, q, variants, &child_d, m)
            };
            for &e in &here {
                let kind = e.dropped_kind();
                let done = children
                    .iter()
                    .filter(|&&(_, k, j)| k == kind && settled & (1 << j) != 0)
                    .fold(0, |set, &(i, _, _)| set | 1 << i);
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
        let mut ok = self.or_kinds(pos, m - 1);
        if ok != label && !self.aborted {
            // Only a useless interposition may fail the bound. A depth cut-off inside
            // the test does not matter: had the interposition no mate at all, it could not
            // be useless either, and `or_kinds` above already recorded its own cut-off.
            let cut = self.cut_off;
            self.leave(pos, e);
            let d = match *other_defence {
                Some(d) => d,
                None => *other_defence.insert(self.other_defence(pos, m, evasions, is_interposition)),
            };
            let entered = self.enter_with(pos, e, label & !ok);
            debug_assert!(entered);
            ok |= self.is_useless_kinds(pos, e.to(), &d);
            self.cut_off = cut;
        }
        self.leave(pos, e);
        ok == label
    }

    /// Whether drops on one square are searched together here: in an ordinary search, or
    /// after earlier super pieces were captured and taken out of play (their variants then
    /// differ only in the defender's hand).
    fn groups_drops(&self) -> bool {
        self.super_piece && self.sup.is_none_or(|s| s.at == SuperAt::Gone)
    }

    /// How many kinds the defender may drop on `q`.
    fn kinds_dropped_on(evasions: &MoveList, q: Square) -> u32 {
        evasions
            .iter()
            .filter(|d| d.is_drop() && d.to() == q)
            .fold(0u32, |set, d| set | 1 << d.dropped_kind().index())
            .count_ones()
    }

    /// Every drop on `q` of a list of variants at once: the variants shown to be mated within
    /// `m - 1` plies or useless (`d`: per variant, the longest defence by the evasions that do
    /// not interpose). The answer may leave out variants that hold; they are then searched
    /// one by one.
    fn super_interposition(
        &mut self,
        pos: &mut Position,
        q: Square,
        variants: Vec<Variant>,
        d: &Lengths,
        m: i32,
    ) -> Variants {
        // The strongest kind stands in; never a pawn (there are two kinds or more), so that the
        // stand-in does not forbid the defender's pawn drops on its file.
        let Some(shown) = variants
            .iter()
            .map(|v| v.kind)
            .max_by_key(|k| PieceKind::HAND.iter().position(|h| h == k))
        else {
            return 0;
        };
        let drop = Move::drop(shown, q);
        if !self.enter_super(pos, drop, variants) {
            return 0;
        }
        let all = self.domain;
        let ok = self.or_kinds(pos, m - 1);
        let unproven = all & !ok;
        let mut useless = 0;
        if unproven != 0 && !self.aborted {
            let cut = self.cut_off;
            self.domain = unproven;
            useless = self.is_useless_kinds(pos, q, d);
            self.cut_off = cut;
        }
        self.leave_super(pos, drop);
        (ok | useless) & all
    }

    fn enter_super(&mut self, pos: &mut Position, drop: Move, variants: Vec<Variant>) -> bool {
        pos.do_move(drop);
        pos.give_hand_piece(!self.attacker, drop.dropped_kind());
        self.saved.push((self.sup, self.domain));
        let n = variants.len();
        self.contexts.push(Context::new(variants));
        self.sup = Some(Super {
            at: SuperAt::Board(drop.to()),
            shown: drop.dropped_kind(),
            ctx: self.contexts.len() - 1,
        });
        self.domain = if n >= MAX_VARIANTS { Variants::MAX } else { (1 << n) - 1 };
        let key = self.node_key(pos);
        if self.path.contains(&key) {
            self.contexts.pop();
            self.restore();
            pos.take_hand_piece(!self.attacker, drop.dropped_kind());
            pos.undo_move(drop);
            self.repeated = true;
            return false;
        }
        self.path.push(key);
        true
    }

    fn leave_super(&mut self, pos: &mut Position, drop: Move) {
        self.path.pop();
        self.contexts.pop();
        self.restore();
        pos.take_hand_piece(!self.attacker, drop.dropped_kind());
        pos.undo_move(drop);
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
        self.is_useless_kinds(pos, sq, &[d; MAX_VARIANTS]) == ONE
    }

    /// [`Exact::is_useless`] for the variants of the domain, variant `i` held to `d[i]`.
    fn is_useless_kinds(&mut self, pos: &mut Position, sq: Square, d: &Lengths) -> Variants {
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
        // After a stop `and_kinds` answers at once, so the remaining captures cost only their
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
                self.path.push(key);
                found |= self.and_kinds(pos, d);
                self.path.pop();
            }
            (self.sup, self.domain) = saved;
            found == all
        });
        found
    }

    /// The shortest mate of at most `max` plies (attacker to move), if any.
    #[cfg(test)]
    pub(crate) fn shortest(&mut self, pos: &mut Position, max: i32) -> Option<i32> {
        debug_assert!(self.sup.is_none());
        self.shortest_len(pos, max)
    }

    /// The shortest mate of at most `max` plies, in an ordinary search.
    fn shortest_len(&mut self, pos: &mut Position, max: i32) -> Option<i32> {
        let mut l = 1;
        while l <= max {
            if self.or_kinds(pos, l) == ONE {
                return Some(l);
            }
            if self.aborted {
                return None;
            }
            l += 2;
        }
        None
    }

    /// The counted evasions of a defender-to-move position whose longest defence is `m` plies
    /// that defend that long: the defender's candidate moves for the answer line. Useless
    /// interpositions are never among them.
    pub(crate) fn longest_defences(&mut self, pos: &mut Position, m: i32) -> Vec<Move> {
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        let mut longest = Vec::new();
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            // Known to be mated within `m - 1`; it defends `m` plies unless it is mated sooner.
            if !self.or_node(pos, m - 3) {
                longest.push(e);
            }
            self.leave(pos, e);
        }
        let mut d = None;
        for &e in evasions.iter().filter(|&&e| is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            let lasts = self.or_node(pos, m - 1) && !self.or_node(pos, m - 3);
            self.leave(pos, e);
            if !lasts {
                continue;
            }
            let d = *d.get_or_insert_with(|| {
                if longest.is_empty() {
                    self.other_defence(pos, m, &evasions, &is_interposition)[0]
                } else {
                    m
                }
            });
            if self.enter(pos, e) {
                let useless = self.is_useless(pos, e.to(), d);
                self.leave(pos, e);
                if !useless {
                    longest.push(e);
                }
            }
        }
        longest
    }

    /// The answer line from an attacker-to-move position whose shortest mate is `len` plies:
    /// the first check that mates in time, then the longest counted defence, preferring among
    /// equal defences the one that leaves the attacker the fewest pieces in hand at the end.
    pub(crate) fn principal_line(&mut self, pos: &mut Position, len: i32, line: &mut Vec<Move>) {
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        for &m in &checks {
            if !self.enter(pos, m) {
                continue;
            }
            if self.and_node(pos, len - 1) {
                line.push(m);
                self.defence_line(pos, len - 1, line);
                self.leave(pos, m);
                return;
            }
            self.leave(pos, m);
            if self.aborted {
                return;
            }
        }
    }

    fn defence_line(&mut self, pos: &mut Position, m: i32, line: &mut Vec<Move>) {
        let tied = self.longest_defences(pos, m);
        if tied.is_empty() {
            return;
        }
        // Ties are settled by the pieces left in the attacker's hand at the end of each line;
        // building every tied line costs time, so only short ones are compared.
        let mut chosen = (tied[0], Vec::new());
        if tied.len() > 1 && m <= 16 {
            let mut fewest = u32::MAX;
            for &e in &tied {
                if !self.enter(pos, e) {
                    continue;
                }
                let mut sub = Vec::new();
                self.principal_line(pos, m - 1, &mut sub);
                let surplus = self.surplus_after(pos, &sub);
                self.leave(pos, e);
                if surplus < fewest {
                    fewest = surplus;
                    chosen = (e, sub);
                }
            }
        } else if self.enter(pos, tied[0]) {
            self.principal_line(pos, m - 1, &mut chosen.1);
            self.leave(pos, tied[0]);
        }
        line.push(chosen.0);
        line.extend(chosen.1);
    }

    fn surplus_after(&self, pos: &mut Position, sub: &[Move]) -> u32 {
        for &m in sub {
            pos.do_move(m);
        }
        let surplus = pos.hand(self.attacker).total();
        for &m in sub.iter().rev() {
            pos.undo_move(m);
        }
        surplus
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
