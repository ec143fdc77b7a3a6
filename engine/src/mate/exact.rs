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

use soppo_core::attacks::between;
use soppo_core::movegen::{MoveList, count_legal, generate_checks, generate_legal};
use soppo_core::{Bitboard, Color, Move, Position, Square};

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

/// The exact tsume-rule search. `stop` is polled every 1024 nodes.
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
        }
    }

    /// Lets a stopped search go on (results stored before the stop are all sound).
    pub(crate) fn resume(&mut self) {
        self.aborted = false;
        self.cut_off = false;
        self.repeated = false;
        self.path.clear();
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

    /// Plays `m` and pushes the new key; `false` (nothing played) when that repeats the path.
    fn enter(&mut self, pos: &mut Position, m: Move) -> bool {
        pos.do_move(m);
        let key = pos.key();
        if self.path.contains(&key) {
            pos.undo_move(m);
            self.repeated = true;
            return false;
        }
        self.path.push(key);
        true
    }

    fn leave(&mut self, pos: &mut Position, m: Move) {
        self.path.pop();
        pos.undo_move(m);
    }

    /// Attacker to move: is there a mate in at most `l` plies?
    pub(crate) fn or_node(&mut self, pos: &mut Position, l: i32) -> bool {
        if l < 1 {
            self.cut_off = true;
            return false;
        }
        if self.tick() {
            return false;
        }
        let key = pos.key();
        if let Some(known) = self.lookup(key, l) {
            if !known && self.table.get(key).is_some_and(|b| b.fails_up_to != UNBOUNDED) {
                self.cut_off = true;
            }
            return known;
        }
        if pos.mate_in_one().is_some() {
            self.store(key, 1, true);
            return true;
        }
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        if checks.is_empty() {
            self.store(key, UNBOUNDED, false);
            return false;
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
        let mut found = false;
        for &(_, m) in &order {
            if !self.enter(pos, m) {
                continue;
            }
            let ok = (l > 1 || InterpositionGap::of(pos).is_some()) && self.and_node(pos, l - 1);
            self.leave(pos, m);
            if ok {
                found = true;
                break;
            }
            if self.aborted {
                return false;
            }
        }
        if found {
            self.store(key, l, true);
        } else if !self.repeated && !self.aborted {
            self.store(key, if self.cut_off { l } else { UNBOUNDED }, false);
        }
        self.cut_off |= cut_before;
        self.repeated |= rep_before;
        found
    }

    /// Defender to move, in check: is the longest counted defence at most `m` plies?
    pub(crate) fn and_node(&mut self, pos: &mut Position, m: i32) -> bool {
        if self.tick() {
            return false;
        }
        let key = pos.key();
        if let Some(known) = self.lookup(key, m) {
            if !known {
                self.cut_off = true;
            }
            return known;
        }
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        if evasions.is_empty() {
            self.store(key, 0, true);
            return true;
        }
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        let (cut_before, rep_before) = (self.cut_off, self.repeated);
        self.cut_off = false;
        self.repeated = false;
        let holds = self.and_node_inner(pos, m, &evasions, &is_interposition);
        if !self.aborted && (holds || !self.repeated) {
            self.store(key, m, holds);
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
    ) -> bool {
        // Every evasion that does not interpose counts and must be mated in time.
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
            if m < 2 {
                self.cut_off = true;
                return false;
            }
            if !self.enter(pos, e) {
                return false;
            }
            let ok = self.or_node(pos, m - 1);
            self.leave(pos, e);
            if !ok {
                return false;
            }
        }
        let mut other_defence: Option<i32> = None;
        for &e in evasions.iter().filter(|&&e| is_interposition(e)) {
            if !self.enter(pos, e) {
                return false;
            }
            let mut ok = self.or_node(pos, m - 1);
            if !ok && !self.aborted {
                // Only a useless interposition may fail the bound. A depth cut-off inside
                // the test does not matter: had the interposition no mate at all, it could not
                // be useless either, and `or_node` above already recorded its own cut-off.
                let cut = self.cut_off;
                self.leave(pos, e);
                let d = if let Some(d) = other_defence {
                    d
                } else {
                    let d = self.other_defence(pos, m, evasions, is_interposition);
                    other_defence = Some(d);
                    d
                };
                let entered = self.enter(pos, e);
                debug_assert!(entered);
                ok = self.is_useless(pos, e.to(), d);
                self.cut_off = cut;
            }
            self.leave(pos, e);
            if !ok {
                return false;
            }
        }
        true
    }

    /// `D`: the longest defence by the evasions that do not interpose (all known to be mated
    /// within `m`), or 0 when there are none.
    fn other_defence(
        &mut self,
        pos: &mut Position,
        m: i32,
        evasions: &MoveList,
        is_interposition: &dyn Fn(Move) -> bool,
    ) -> i32 {
        let mut d = 0;
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            if let Some(len) = self.shortest(pos, m - 1) {
                d = d.max(1 + len);
            }
            self.leave(pos, e);
        }
        d
    }

    /// After an interposition on `sq` (attacker to move): can the attacker capture the
    /// interposed piece with a check and then, without using it, hold the defence to `d`?
    pub(crate) fn is_useless(&mut self, pos: &mut Position, sq: Square, d: i32) -> bool {
        // After a stop `and_node` answers false at once, so the remaining captures cost only
        // their generation.
        let attacker = self.attacker;
        some_capture_without_piece(pos, sq, attacker, |pos| {
            let key = pos.key();
            if self.path.contains(&key) {
                self.repeated = true;
                return false;
            }
            self.path.push(key);
            let ok = self.and_node(pos, d);
            self.path.pop();
            ok
        })
    }

    /// The shortest mate of at most `max` plies (attacker to move), if any.
    pub(crate) fn shortest(&mut self, pos: &mut Position, max: i32) -> Option<i32> {
        let mut l = 1;
        while l <= max {
            if self.or_node(pos, l) {
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
                    self.other_defence(pos, m, &evasions, &is_interposition)
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
