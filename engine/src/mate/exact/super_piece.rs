//! The super piece of Kitamura, Handa and Oshita inside the exact search: the drops on one
//! square searched as one piece, with the real positions it stands for (its variants).

use super::Exact;
use soppo_core::attacks::{attacks, between};
use soppo_core::movegen::MoveList;
use soppo_core::{Bitboard, Hand, Move, Piece, PieceKind, Position, Square};

/// A set of the real positions a super-piece search stands for: bit `i` is variant `i` of the
/// current [`Context`]. Outside a super-piece search there is a single "variant", bit 0
/// ([`ONE`]), so the same set arithmetic serves both: a search answers with the set of variants
/// for which its claim holds.
pub(super) type Variants = u128;

/// The one variant of an ordinary (concrete) search.
pub(super) const ONE: Variants = 1;

/// Most variants one context may have.
pub(super) const MAX_VARIANTS: usize = 128;

/// A length per variant.
pub(super) type Lengths = [i32; MAX_VARIANTS];

/// The bit numbers of a set, lowest first.
pub(super) fn bits(set: Variants) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

/// One real position of a super-piece search, told apart from the searched position by the kind
/// of the active super piece and by the pieces its defender holds less (`debt`): the searched
/// position keeps the defender's hand from before any super piece was dropped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Variant {
    pub(super) kind: PieceKind,
    pub(super) debt: Hand,
}

/// Where each variant of a list being built stands: an open-addressing table (twice the
/// largest list), so that building a list of `n` variants costs `n` look-ups, not `n²`.
pub(super) struct VariantIndex {
    pub(super) slots: [(u64, u8); 2 * MAX_VARIANTS],
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
pub(super) struct Context {
    pub(super) variants: Vec<Variant>,
    pub(super) salt: u64,
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
pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Where the super piece is. It stays a super piece only while nothing depends on its kind:
/// unmoved on the square it was dropped on, in the attacker's hand after a capture, or out of
/// play after the capture of a useless-interposition test.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SuperAt {
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
/// on its real position from there ([`Exact::per_variant`]); at a defender node where the super
/// piece could evade, only its own moves are, and the other evasions once for every variant.
/// That is the paper's "re-search the kinds whose powers were removed", done where the power is
/// used, so every answer is exact for every variant.
#[derive(Clone, Copy)]
pub(super) struct Super {
    pub(super) at: SuperAt,
    pub(super) shown: PieceKind,
    /// Index of its [`Context`].
    pub(super) ctx: usize,
}

/// How an attacker's check is searched under a super piece.
pub(super) enum CheckUse {
    /// The same move for every kind.
    Plain,
    /// Its legality depends on the kind: each kind on its real position.
    PerKind,
    /// It drops the super piece: searched per kind separately.
    Skip,
}

impl Exact<'_> {
    pub(super) fn variant(&self, i: usize) -> Variant {
        let ctx = self.sup.map_or(0, |s| s.ctx);
        self.contexts[ctx].variants[i]
    }

    /// The kinds the active super piece has in the variants of `set`.
    pub(super) fn active_kinds(&self, set: Variants) -> impl Iterator<Item = PieceKind> + '_ {
        bits(set).map(|i| self.variant(i).kind)
    }

    /// Turns the position into the real one of variant `v` (`real`) or back. The edits are
    /// independent of each other, so one sequence serves both ways.
    pub(super) fn materialize(&self, pos: &mut Position, s: Super, v: Variant, real: bool) {
        let (from, to) = if real { (s.shown, v.kind) } else { (v.kind, s.shown) };
        self.swap_active(pos, s, from, to);
        let defender = !self.attacker;
        for kind in PieceKind::HAND {
            for _ in 0..v.debt.count(kind) {
                if real {
                    pos.take_hand_piece(defender, kind);
                } else {
                    pos.give_hand_piece(defender, kind);
                }
            }
        }
    }

    /// Makes the active super piece a `to` where it is a `from` (on its square or in the
    /// attacker's hand; nothing once it is out of play).
    fn swap_active(&self, pos: &mut Position, s: Super, from: PieceKind, to: PieceKind) {
        match s.at {
            SuperAt::Board(q) => pos.replace_piece(q, Piece::new(!self.attacker, to)),
            SuperAt::AttackerHand => {
                pos.take_hand_piece(self.attacker, from);
                pos.give_hand_piece(self.attacker, to);
            }
            SuperAt::Gone => {}
        }
    }

    /// The variants of `set` for which `holds` is true, each asked on its real position by an
    /// ordinary search. With `all_or_none` it stops at the first variant that fails and
    /// answers nothing.
    pub(super) fn per_variant(
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

    /// The variants whose defender lacks some kind the position's defender holds (its debt
    /// takes the last one). For the others a drop is possible exactly where it is in the
    /// position, so a mate in one found with the position's hand is theirs as well, and at a
    /// bound of one ply only the usual checks (those leaving interpositions) need a search.
    pub(super) fn short_handed(&self, pos: &Position) -> Variants {
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
    pub(super) fn mated_in_one(&self, pos: &mut Position) -> Variants {
        let all = self.domain;
        let Some(s) = self.sup.filter(|s| s.at != SuperAt::Gone) else {
            return if pos.mate_in_one().is_some() { all } else { 0 };
        };
        let mut tried = 0u32;
        let mut mated = 0;
        for i in bits(all) {
            let kind = self.variant(i).kind;
            if tried & (1 << kind.index()) != 0 {
                continue;
            }
            tried |= 1 << kind.index();
            self.swap_active(pos, s, s.shown, kind);
            let found = pos.mate_in_one().is_some();
            self.swap_active(pos, s, kind, s.shown);
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
    pub(super) fn super_only_drops(&self, pos: &Position) -> Variants {
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

    pub(super) fn check_use(&self, pos: &Position, m: Move) -> CheckUse {
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
    pub(super) fn evasion_label(&self, pos: &Position, e: Move) -> Variants {
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
    pub(super) fn super_piece_may_evade(&self, pos: &Position, q: Square) -> bool {
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

    /// Whether drops on one square are searched together here: in an ordinary search, or
    /// after earlier super pieces were captured and taken out of play (their variants then
    /// differ only in the defender's hand).
    pub(super) fn groups_drops(&self) -> bool {
        self.super_piece && self.sup.is_none_or(|s| s.at == SuperAt::Gone)
    }

    /// How many kinds the defender may drop on `q`.
    pub(super) fn kinds_dropped_on(evasions: &MoveList, q: Square) -> u32 {
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
    pub(super) fn super_interposition(
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
        let ok = self.or_variants(pos, m - 1);
        let unproven = all & !ok;
        let mut useless = 0;
        if unproven != 0 && !self.aborted {
            let cut = self.cut_off;
            self.domain = unproven;
            useless = self.useless_variants(pos, q, d);
            self.cut_off = cut;
        }
        self.leave_super(pos, drop);
        (ok | useless) & all
    }

    pub(super) fn enter_super(&mut self, pos: &mut Position, drop: Move, variants: Vec<Variant>) -> bool {
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
        self.moves.push(drop);
        true
    }

    pub(super) fn leave_super(&mut self, pos: &mut Position, drop: Move) {
        self.path.pop();
        self.moves.pop();
        self.contexts.pop();
        self.restore();
        pos.take_hand_piece(!self.attacker, drop.dropped_kind());
        pos.undo_move(drop);
    }

    /// The drops `here` on `q` (several kinds) searched together as one super piece over every
    /// variant that holds the kind: per drop, the current variants in which it is shown mated
    /// within `m - 1` plies or useless (`d`: the longest defence by the evasions that do not
    /// interpose, per current variant). Too many variants (more than [`MAX_VARIANTS`]) settle nothing.
    pub(super) fn drops_settled_together(
        &mut self,
        pos: &mut Position,
        q: Square,
        here: &[Move],
        d: &Lengths,
        m: i32,
    ) -> Vec<Variants> {
        let mut variants: Vec<Variant> = Vec::new();
        let mut child_d: Lengths = [0; MAX_VARIANTS];
        // (current variant, kind, super-piece variant)
        let mut children: Vec<(usize, PieceKind, usize)> = Vec::new();
        let mut seen = VariantIndex::default();
        'build: for &e in here {
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
        here.iter()
            .map(|e| {
                children
                    .iter()
                    .filter(|&&(_, k, j)| k == e.dropped_kind() && settled & (1 << j) != 0)
                    .fold(0, |set, &(i, _, _)| set | 1 << i)
            })
            .collect()
    }
}
