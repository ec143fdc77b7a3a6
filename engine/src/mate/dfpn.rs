//! A df-pn (Nagai) checkmate prover: can the side to move force mate with continuous checks?
//!
//! OR nodes (attacker to move) expand to every legal check, AND nodes (defender in check) to
//! every legal evasion. A check the defender cannot answer is mate; pawn-drop mate never
//! appears because the core's move generation excludes it.
//!
//! Implementation notes:
//! - Recursive MID with thresholds and the 1+ε trick (df-pn+ style: a node's children are
//!   looked up once, when it is expanded, and kept in a per-node slice of one shared arena;
//!   an OR child created below an AND node is tried with mate-in-one first).
//! - The transposition table ([`tt`]) is keyed by board, side and material signature, with
//!   the attacker's hand stored beside the key, so that proofs and disproofs answer superior
//!   and inferior hands. Proven nodes store proof pieces, disproven nodes disproof pieces
//!   ([`hands`]).
//! - Repetition: a child repeating a position of the current path is lost for the attacker
//!   (perpetual check is no mate). A result that depends on such a repetition carries the
//!   depth of the shallowest repeated ancestor (`dep`). Once the search climbs to that
//!   ancestor the result no longer depends on the path (a minimal proof never passes twice
//!   through one position) and is stored normally; until then it is stored only under a key
//!   that includes the path from the root, in a small table of its own, so it never answers
//!   another path (no graph history interaction errors).
//! - Threshold control (after Kishimoto's TCA): a node with a child on the current path
//!   raises its thresholds above its own proof and disproof numbers on entry, so it does not
//!   return at once to a parent that would re-enter it with the same thresholds.
//! - Double counting and delayed expansion (after KomoringHeights' idea, in our own form):
//!   moves that share most of their subtrees form chains in which only the first unresolved
//!   move is searched and counted. At AND nodes: the interposing drops on one square, weakest
//!   kind first, and the "loose" drops (supported by no defender piece but the king, giving no
//!   check), nearest the king first. At OR nodes: a pawn, bishop or rook check without
//!   promotion after the same move with promotion. See [`Dfpn::set_drop_chains`].
//! - Proofs carry their length in plies, from which [`Dfpn::mate_line`] walks a mating line.
//! - Length bounds (after KomoringHeights' `MinLength`): a search can ask for mate in at most
//!   `b` plies. [`Dfpn::shortest_line`] proves, then asks again with the bound two plies
//!   below the proof's length until that fails, and walks the line with bounded look-ups.
//!   Bounded searches leave out the useless interpositions that are cheap to recognise (see
//!   [`useless_interpositions_removed`]); every other interposition counts, so their length
//!   is never below the tsume answer's.
//! - Parallel search ([`Dfpn::set_threads`], [`Dfpn::assistant`]): every thread runs the whole
//!   search on the shared tables (their slots are atomic words with a check, so a racing
//!   read sees a whole entry or none). A thread marks the nodes on its path; one that finds
//!   its best child marked by another takes the next best instead when that is within half
//!   as much again (after Kaneko's virtual proof numbers), so the threads spread over the
//!   tree. The first thread to settle the root ends the others. Growing a table waits until
//!   every other thread has stepped out at its next node.

mod hands;
mod shared;
#[cfg(test)]
pub(crate) mod tests;
mod tt;

use super::exact::{InterpositionGap, some_capture_without_piece};
use shared::{Job, Shared};
use soppo_core::movegen::{MoveList, count_evasions, generate_checks, generate_legal};
use soppo_core::{Bitboard, Color, Hand, Move, PieceKind, Position, Square};
use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use tt::{DEP_NONE, INF, Record, UNBOUNDED};

/// Threads of a parallel search at most (a bit each in the busy marks).
pub const MAX_THREADS: usize = 8;
/// Searches smaller than this run on one thread: starting the others would cost more.
const PARALLEL_MIN_NODES: u64 = 100_000;
/// Stack of a searching thread: the recursion goes [`MAX_DEPTH`] deep (address space only;
/// pages are touched as the search deepens).
pub(crate) const STACK_BYTES: usize = 1 << 30;

/// `Child::chain` of a move outside every interposition chain.
const NO_CHAIN: u16 = 0;
/// The chain of the interposing drops that no defender piece but the king supports and that
/// do not check.
const LOOSE_DROPS: u16 = 82;
/// Chains of a non-promotion and its promotion start here (one per origin and target).
const PROMOTION_PAIRS: u16 = 100;

/// Largest size of the table of path-keyed results (see `Dfpn::rep_tt`), in megabytes.
const REP_TABLE_MAX_MB: usize = 4;
/// Largest proof/disproof number of an unresolved node.
const NEAR_INF: u32 = INF - 1;
/// `dep` of a result cut short by the depth limit: never path-independent.
const DEP_LIMIT: i16 = -1;
/// Deepest ply searched (Microcosmos needs 1525; the recursion frame is kept small).
const MAX_DEPTH: usize = 4000;
/// Nodes between two calls of the caller's stop predicate.
const POLL_INTERVAL: u64 = 4096;
/// Bits of the counting filter in front of the path repetition scan.
const FILTER_BITS: u32 = 12;
/// Entries (a power of two) of each thread's cache of positions without a mate in one.
const NO_MATE1_ENTRIES: usize = 1 << 16;
/// Entries (a power of two) of each thread's cache of useless-interposition tests.
const USELESS_CACHE_ENTRIES: usize = 1 << 12;
/// The flag of a `useless_cache` entry that holds an answer (an empty one has none).
const USELESS_CACHED: u128 = 1 << 127;
/// Nodes a re-search of `mate_line` may spend on one position.
const LINE_RESEARCH_NODES: u64 = 20_000_000;
/// Node budget of one search that tries to shorten a defender reply's proof by two plies
/// ([`Dfpn::tightened_line`]).
const TIGHTEN_NODES: u64 = 5_000;

/// How the line walks of the length-bounded searches choose the defender's replies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Replies {
    /// The reply with the longest stored proof.
    Stored,
    /// The reply with the longest proof after small searches tried to shorten each.
    Tightened,
    /// A reply shown to last longest (bounded disproofs, as long as they take).
    ShownLongest,
}
/// Longest line `mate_line` will walk.
const MAX_LINE: usize = 8000;

/// The outcome of [`Dfpn::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfpnVerdict {
    /// The side to move forces mate with continuous checks.
    Proven,
    /// It does not.
    Disproven,
    /// Node limit, stop request, depth limit or lost results: no verdict.
    Unknown,
}

/// Search statistics (for the stop predicate and `info` lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DfpnStats {
    pub nodes: u64,
    pub hashfull_permille: u32,
    /// During [`Dfpn::shortest_line`]: whether the line walked for the shortest length proven
    /// so far lasts that whole length (the defender gives up no sooner than the proof allows).
    pub line_fills_bound: bool,
}

/// A line from [`Dfpn::shortest_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortLine {
    /// Legal, every attacker move a check, mate at the end under tsume rules.
    pub line: Vec<Move>,
    /// Whether no shorter mate exists under the bounded searches' counting (see the module
    /// notes) and the defender's replies are shown longest; false when the search was stopped
    /// before that was shown.
    pub shortest: bool,
    /// The shortest length proven: a mate in at most this many plies exists. Without
    /// `shortest` the line may be shorter (the defender's replies are not shown longest).
    pub bound: u16,
    /// Nodes searched by all the searches it took.
    pub nodes: u64,
}

/// How deep [`tsume_mated`] follows interpositions whose capture might mate.
const USELESS_TEST_DEPTH: u32 = 3;

/// A child in its parent's arena slice: the move and the child's last known result.
#[derive(Clone, Copy)]
struct Child {
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

/// The df-pn prover with its transposition table. Reuse one value across searches: the
/// table keeps its results (call [`Dfpn::clear`] to forget them).
// Four independent switches of one thread's search (stopped, inside the gate, searching
// beside others, allowed to): no state machine hides among them.
#[allow(clippy::struct_excessive_bools)]
pub struct Dfpn {
    /// The tables, shared with the helper threads of a parallel search.
    shared: Arc<Shared>,
    /// This thread's number in a parallel search (0 for the thread that owns the prover).
    id: usize,
    /// Provers for the other threads of a parallel search, sharing `shared`.
    helpers: Vec<Dfpn>,
    /// Whether this thread is inside the tables' gate (see [`Shared::enter`]).
    inside: bool,
    /// Whether other threads search beside this one now (marks and steers by busy nodes).
    together: bool,
    /// The number of the search this thread works on (see `Shared::epoch`).
    epoch: u64,
    /// Whether this prover's searches may run in parallel (helpers and assistants).
    parallel: bool,
    /// Nodes of the current search (its budget and poll schedule).
    nodes: u64,
    /// A helper's nodes of the current search already added to `Shared::helper_nodes`.
    reported: u64,
    /// Nodes since the last [`Dfpn::solve`], across the searches that follow it (line walks,
    /// bounded searches): what [`Dfpn::stats`] reports.
    searched: u64,
    /// See [`DfpnStats::line_fills_bound`].
    line_fills_bound: bool,
    max_nodes: u64,
    next_poll: u64,
    aborted: bool,
    attacker: Color,
    signature: u64,
    settings: Settings,
    /// Children of every node on the current path, one slice per node.
    children: Vec<Child>,
    /// Full key of the position at each depth of the current path.
    path_keys: Vec<u64>,
    /// Hash of the moves from the root to each depth (keys path-dependent entries).
    path_hashes: Vec<u64>,
    /// Counting filter over `path_keys`: a zero means "not on the path" without a scan.
    filter: Vec<u16>,
    /// The moves from the root to the current node.
    path_moves: Vec<Move>,
    /// Full keys of positions where the attacker, to move, has no mate in one (direct
    /// mapped, by the key's high bits). Children not yet searched have no table entry, so
    /// every re-expansion of a node tested its new OR children again: on Shogi Zuko 99 one
    /// in three of those tests repeated one already made, and nearly all fail. (A cache of
    /// the reply counts of new AND nodes, which repeat as often, gained nothing.)
    no_mate1: Vec<u64>,
    /// Answers of [`useless_interpositions_removed`] at defender nodes of bounded searches
    /// (direct mapped by the full key's high bits): the places in the generated list of the
    /// evasions it removed, and [`USELESS_CACHED`]. The bounded searches of a tightening walk
    /// expand the same defender positions again and again (Shogi Zuko 99: the test applied at
    /// 15,464 expansions, of 5,670 positions, about 11 µs each).
    useless_cache: Vec<(u64, u128)>,
    /// Whether the current search publishes its path (see [`Dfpn::line_watcher`]).
    publish_path: bool,
}

/// Reads the line a [`Dfpn`] is working on from another thread (see [`Dfpn::line_watcher`]).
pub struct LineWatcher {
    shared: Arc<Shared>,
}

impl LineWatcher {
    /// The moves from the root of the first proof under way to the node df-pn was searching
    /// at its last poll (every few thousand nodes); empty when no first proof is under way.
    pub fn current_line(&self) -> Vec<Move> {
        self.shared.published_line()
    }
}

/// A thread's share in another thread's df-pn searches (see [`Dfpn::assistant`]). Run it on a
/// thread with a stack of [`STACK_BYTES`].
pub struct Assistant {
    worker: Dfpn,
}

impl Assistant {
    /// Works on the owner's current search, then on each that follows, until `done` returns
    /// true (polled every few thousand nodes, and every millisecond while no search runs).
    pub fn assist(&mut self, done: &(dyn Fn() -> bool + Sync)) {
        let shared = Arc::clone(&self.worker.shared);
        shared.assistants.fetch_add(1, Ordering::SeqCst);
        let mut last = 0;
        while !done() {
            let job = shared
                .job
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone()
                .filter(|j| j.epoch != last && shared.stopped.load(Ordering::SeqCst) != j.epoch);
            let Some(mut job) = job else {
                std::thread::sleep(std::time::Duration::from_millis(1));
                continue;
            };
            last = job.epoch;
            self.worker.epoch = job.epoch;
            let w = &mut self.worker;
            w.work_on(&mut job.pos, job.bound, u64::MAX, &mut |_| done(), job.trust_entry);
        }
        shared.assistants.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The prover's switches (for A/B measurements).
#[derive(Clone, Copy)]
struct Settings {
    /// Whether interposing drops form chains (see `Dfpn::evaluate`).
    drop_chains: bool,
    /// Whether bounded searches leave out the interpositions they can show useless.
    useless_filter: bool,
}

/// splitmix64's finaliser: a cheap, well-mixed 64-bit hash step.
#[inline(always)]
fn mix(mut x: u64) -> u64 {
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
    /// A prover with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        let shared = Shared::new(hash_mb, (hash_mb / 256).clamp(1, REP_TABLE_MAX_MB));
        Self::worker(Arc::new(shared), 0)
    }

    /// A prover of thread `id` on the tables `shared`.
    fn worker(shared: Arc<Shared>, id: usize) -> Self {
        Dfpn {
            shared,
            id,
            helpers: Vec::new(),
            inside: false,
            together: false,
            epoch: 0,
            parallel: true,
            nodes: 0,
            reported: 0,
            searched: 0,
            line_fills_bound: false,
            max_nodes: u64::MAX,
            next_poll: POLL_INTERVAL,
            aborted: false,
            attacker: Color::Black,
            signature: 0,
            settings: Settings {
                drop_chains: true,
                useless_filter: true,
            },
            children: Vec::with_capacity(1 << 16),
            path_keys: vec![0; MAX_DEPTH + 2],
            path_hashes: vec![0; MAX_DEPTH + 2],
            filter: vec![0; 1 << FILTER_BITS],
            path_moves: Vec::with_capacity(MAX_DEPTH + 2),
            no_mate1: vec![0; NO_MATE1_ENTRIES],
            useless_cache: vec![(0, 0); USELESS_CACHE_ENTRIES],
            publish_path: false,
        }
    }

    /// A handle that shows, from any thread, the line this solver's first proof
    /// ([`Dfpn::solve`]) is working on: df-pn's current path from the root, each attacker move
    /// the check that looks nearest to mate and each defender move the reply that looks
    /// hardest to refute (the most-proving path). It is what a GUI can show while no mate is
    /// proven yet; it is not a proof.
    pub fn line_watcher(&self) -> LineWatcher {
        LineWatcher {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Whether interposing drops form chains (the default), or every drop is searched and
    /// counted on its own (for A/B measurements). Either way the verdicts are the same.
    pub fn set_drop_chains(&mut self, on: bool) {
        self.settings.drop_chains = on;
        for h in &mut self.helpers {
            h.settings.drop_chains = on;
        }
    }

    /// Whether bounded searches leave out the interpositions they can show useless (the
    /// default), or count every interposition as game rules do (for measurements).
    pub fn set_useless_filter(&mut self, on: bool) {
        self.settings.useless_filter = on;
        for h in &mut self.helpers {
            h.settings.useless_filter = on;
        }
    }

    /// How many threads search together (1: this one alone). Searches of fewer than
    /// [`PARALLEL_MIN_NODES`] nodes always run on one thread.
    pub fn set_threads(&mut self, threads: usize) {
        // The last id is the assistant's.
        let threads = threads.clamp(1, MAX_THREADS - 1);
        self.helpers.truncate(threads - 1);
        while self.helpers.len() < threads - 1 {
            let mut h = Self::worker(Arc::clone(&self.shared), self.helpers.len() + 1);
            h.settings = self.settings;
            self.helpers.push(h);
        }
    }

    /// A helper for another thread: [`Assistant::assist`] joins this prover's searches (those
    /// of at least [`PARALLEL_MIN_NODES`] nodes) on the shared tables until told to stop.
    pub fn assistant(&self) -> Assistant {
        let mut worker = Self::worker(Arc::clone(&self.shared), MAX_THREADS - 1);
        worker.settings = self.settings;
        Assistant { worker }
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.clear();
            return;
        }
        // Helpers hold the tables too (no search runs now): give every prover fresh ones.
        let threads = self.helpers.len() + 1;
        let (hash_mb, rep_mb) = (self.shared.tt.megabytes(), self.shared.rep_tt.megabytes());
        self.helpers.clear();
        self.shared = Arc::new(Shared::new(hash_mb, rep_mb));
        self.set_threads(threads);
    }

    pub fn stats(&self) -> DfpnStats {
        DfpnStats {
            nodes: self.searched + self.shared.helper_nodes.load(Ordering::Relaxed),
            hashfull_permille: self.shared.tt.hashfull_permille(),
            line_fills_bound: self.line_fills_bound,
        }
    }

    /// Decides whether the side to move forces mate. `stop` is polled every few thousand
    /// nodes; when it returns true, or after `max_nodes` nodes, the search ends with Unknown.
    pub fn solve(&mut self, pos: &Position, max_nodes: u64, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> DfpnVerdict {
        let mut p = pos.clone();
        self.searched = 0;
        self.shared.helper_nodes.store(0, Ordering::Relaxed);
        self.publish_path = true;
        let verdict = self.search_root(&mut p, max_nodes, stop);
        self.publish_path = false;
        self.shared.publish_line(&[]);
        verdict
    }

    /// A mating line from `pos` (attacker to move) after a proof: every attacker move checks,
    /// the defender plays the reply with the longest stored proof, and the line ends in
    /// checkmate. Missing results are searched again. `None` if no mate could be shown.
    pub fn mate_line(&mut self, pos: &Position) -> Option<Vec<Move>> {
        self.mate_line_until(pos, &mut |_| false)
    }

    /// [`Dfpn::mate_line`] whose re-searches end (with `None`) when `stop` returns true.
    pub fn mate_line_until(&mut self, pos: &Position, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<Vec<Move>> {
        let mut p = pos.clone();
        let attacker = p.side_to_move();
        self.set_root_context(&p);
        let mut line = Vec::new();
        let mut seen = vec![p.key()];
        while line.len() < MAX_LINE {
            let or_node = p.side_to_move() == attacker;
            let mut list = MoveList::new();
            if or_node {
                generate_checks::<true>(&p, &mut list);
            } else {
                generate_legal::<true>(&p, &mut list);
                if list.is_empty() {
                    return p.in_check().then_some(line);
                }
            }
            let picked = self.pick_line_move(&mut p, &list, or_node, &seen);
            let m = if let Some(m) = picked {
                m
            } else if self.research_for_line(&mut p, &list, or_node, stop) {
                self.pick_line_move(&mut p, &list, or_node, &seen)?
            } else {
                return None;
            };
            p.do_move(m);
            line.push(m);
            seen.push(p.key());
        }
        None
    }

    /// The shortest mate from `pos` under the bounded searches' counting (see the module
    /// notes) and its line. Proves (unless the table already holds a proof), then searches
    /// for a mate two plies shorter than the last one found until there is none. In the line
    /// the attacker plays a check proven within the remaining length, and the defender a
    /// counted reply shown to last longest (the attacker has no mate two plies sooner after
    /// it). `None` if there is no mate or the search was stopped before a line was walked;
    /// a stop after some line was found gives that line with `shortest` false.
    pub fn shortest_line(&mut self, pos: &Position, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<ShortLine> {
        self.shortest_line_reporting(pos, stop, &mut |_, _| {})
    }

    /// [`Dfpn::shortest_line`], handing `on_shorter` each line the shortening walks that lasts
    /// its whole bound (the attacker mates within the bound, so the defender could not have
    /// lasted longer against it; not yet shown shortest), so that a long shortening is seen
    /// to progress. A line shorter than its bound is not handed on: its defender may have
    /// given up early.
    pub fn shortest_line_reporting(
        &mut self,
        pos: &Position,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        on_shorter: &mut dyn FnMut(&[Move], &DfpnStats),
    ) -> Option<ShortLine> {
        let mut p = pos.clone();
        let mut nodes = 0;
        let mut len = None;
        for trust_entry in [true, false] {
            let verdict = self.search_from(&mut p, UNBOUNDED, u64::MAX, stop, trust_entry);
            nodes += self.nodes;
            if verdict != DfpnVerdict::Proven {
                return None;
            }
            let probe = self.probe_node(&p, UNBOUNDED);
            if probe.pn == 0 {
                len = Some(probe.len);
                break;
            }
        }
        let mut len = len?;
        // A line for every length proven, so that a stop leaves the best one found so far.
        self.line_fills_bound = false;
        let mut line = self.bounded_line(pos, len, Replies::Stored, stop, &mut nodes)?;
        self.line_fills_bound = line.len() == usize::from(len);
        let mut shortest = len <= 1;
        while !shortest {
            let bound = len - 2;
            let verdict = self.search_from(&mut p, bound, u64::MAX, stop, true);
            nodes += self.nodes;
            log::debug!(
                "df-pn, mate in at most {bound} plies: {verdict:?} ({} nodes)",
                self.nodes
            );
            match verdict {
                DfpnVerdict::Proven => {
                    let probe = self.probe_node(&p, bound);
                    len = if probe.pn == 0 { probe.len } else { bound };
                    match self.bounded_line(pos, len, Replies::Stored, stop, &mut nodes) {
                        Some(shorter) => line = shorter,
                        None => break,
                    }
                    self.line_fills_bound = line.len() == usize::from(len);
                    if self.line_fills_bound {
                        on_shorter(&line, &self.stats());
                    }
                    shortest = len <= 1;
                }
                DfpnVerdict::Disproven => shortest = true,
                DfpnVerdict::Unknown => break,
            }
        }
        if shortest && len > 1 {
            // The length is shown shortest; now the defender's replies are shown longest.
            match self.bounded_line(pos, len, Replies::ShownLongest, stop, &mut nodes) {
                Some(exact) => line = exact,
                None => shortest = false,
            }
        }
        self.line_fills_bound = false;
        Some(ShortLine {
            line,
            shortest,
            bound: len,
            nodes,
        })
    }

    /// A better line than [`Dfpn::shortest_line`]'s when that was stopped before the line was
    /// shown shortest: from `pos`, where a mate in at most `len` plies is proven, the defender
    /// takes the reply whose proof could not be shortened by small searches ([`Replies::Tightened`]).
    /// Such a line is what a solver that does not prove shortness (shtsume) answers. `None` if
    /// `stop` ends the walk (a half-tightened line is no better than the first one).
    pub fn tightened_line(
        &mut self,
        pos: &Position,
        len: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> Option<Vec<Move>> {
        // The walk ranks replies by proofs that small searches could not shorten; proofs
        // found by several threads at once are looser (each thread proves other replies its
        // own way), and the line ended early with them. So this walk searches alone.
        let parallel = std::mem::replace(&mut self.parallel, false);
        let line = self.tightened_line_alone(pos, len, stop);
        self.parallel = parallel;
        line
    }

    fn tightened_line_alone(
        &mut self,
        pos: &Position,
        len: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> Option<Vec<Move>> {
        let mut nodes = 0;
        // The root first: after that, every attacker position of the walk follows a reply
        // whose proof could not be shortened, so its bound is already as tight.
        let mut len = len;
        while len >= 3 && !stop(&self.stats()) {
            let Some(shorter) = self.shorter_proof(pos, len, stop) else {
                break;
            };
            len = shorter;
        }
        let line = self.bounded_line(pos, len, Replies::Tightened, stop, &mut nodes);
        if stop(&self.stats()) {
            return None;
        }
        line
    }

    /// Attacker to move at `p`, mate in at most `len` plies proven: the length of a proof
    /// within `len - 2` if a search of at most [`TIGHTEN_NODES`] nodes finds one.
    fn shorter_proof(&mut self, p: &Position, len: u16, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<u16> {
        if self.search_from(&mut p.clone(), len - 2, TIGHTEN_NODES, stop, true) != DfpnVerdict::Proven {
            return None;
        }
        let probe = self.probe_node(p, len - 2);
        (probe.pn == 0).then_some(probe.len)
    }

    /// The line of [`Dfpn::shortest_line`] from `pos`, where a mate in at most `len` plies
    /// is proven, with the defender's replies chosen as `replies` says.
    fn bounded_line(
        &mut self,
        pos: &Position,
        len: u16,
        replies: Replies,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<Vec<Move>> {
        let mut p = pos.clone();
        let attacker = p.side_to_move();
        let mut line = Vec::new();
        let mut remaining = len;
        let mut tighten = replies == Replies::Tightened;
        while line.len() < MAX_LINE {
            if replies == Replies::Tightened && stop(&self.stats()) {
                // A tightened walk that was stopped is not used (`tightened_line_alone`), and
                // every reply searched again would take up to a poll interval to notice.
                return None;
            }
            let (m, after) = if p.side_to_move() == attacker {
                if let Some(found) = self.bounded_check(&mut p, remaining) {
                    found
                } else {
                    // Results were lost: search the node again within its bound.
                    let verdict = self.search_from(&mut p.clone(), remaining, u64::MAX, stop, false);
                    *nodes += self.nodes;
                    if verdict != DfpnVerdict::Proven {
                        return None;
                    }
                    self.bounded_check(&mut p, remaining)?
                }
            } else {
                let mut evasions = MoveList::new();
                generate_legal::<true>(&p, &mut evasions);
                if self.settings.useless_filter {
                    useless_interpositions_removed(&mut p, attacker, &mut evasions);
                }
                if evasions.is_empty() {
                    return Some(line);
                }
                match replies {
                    Replies::ShownLongest => self.longest_reply(&mut p, &evasions, remaining, stop, nodes)?,
                    Replies::Stored => {
                        self.longest_stored_reply(&mut p, &evasions, remaining, &mut false, stop, nodes)?
                    }
                    Replies::Tightened => {
                        self.longest_stored_reply(&mut p, &evasions, remaining, &mut tighten, stop, nodes)?
                    }
                }
            };
            p.do_move(m);
            line.push(m);
            remaining = after;
        }
        None
    }

    /// Attacker to move, mate in at most `bound` proven: a check whose reply position is
    /// proven within `bound - 1`, the shortest stored, with the bound for that position.
    fn bounded_check(&mut self, p: &mut Position, bound: u16) -> Option<(Move, u16)> {
        let mut checks = MoveList::new();
        generate_checks::<true>(p, &mut checks);
        let attacker = p.side_to_move();
        let mut best: Option<(Move, u16)> = None;
        for &m in &checks {
            p.do_move(m);
            let mated = if self.settings.useless_filter {
                tsume_mated(p, attacker, USELESS_TEST_DEPTH)
            } else {
                !p.has_evasion()
            };
            let len = if mated {
                Some(0)
            } else {
                let probe = self.probe_node(p, bound - 1);
                (probe.pn == 0).then_some(probe.len)
            };
            p.undo_move(m);
            if let Some(len) = len
                && best.is_none_or(|(_, b)| len < b)
            {
                best = Some((m, len));
            }
        }
        best
    }

    /// Defender to move, its longest counted defence at most `bound` plies: the counted reply
    /// (`evasions`) whose stored proof within `bound - 1` is longest, with that proof's length
    /// (replies without one are searched again). With `tighten`, each reply's proof is first
    /// shortened two plies at a time by searches of at most [`TIGHTEN_NODES`] nodes: a stored
    /// proof is only an upper bound, and a reply whose proof is long only because the first
    /// proof found was long would let the line end early.
    fn longest_stored_reply(
        &mut self,
        p: &mut Position,
        evasions: &MoveList,
        bound: u16,
        tighten: &mut bool,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<(Move, u16)> {
        let mut best: Option<(Move, u16)> = None;
        for &e in evasions {
            p.do_move(e);
            let mut probe = self.probe_node(p, bound - 1);
            if probe.pn != 0 {
                let verdict = self.search_from(&mut p.clone(), bound - 1, LINE_RESEARCH_NODES, stop, true);
                *nodes += self.nodes;
                probe = self.probe_node(p, bound - 1);
                if verdict != DfpnVerdict::Proven || probe.pn != 0 {
                    p.undo_move(e);
                    return None;
                }
            }
            let mut len = probe.len;
            // Only a reply that might beat the best so far is worth shortening.
            while *tighten && len >= 3 && best.is_none_or(|(_, b)| len > b) {
                if stop(&self.stats()) {
                    // Out of time: the rest of the walk takes the stored proofs as they are
                    // (each search would otherwise run to its first poll before it stopped).
                    *tighten = false;
                    break;
                }
                let shorter = self.shorter_proof(p, len, stop);
                *nodes += self.nodes;
                let Some(shorter) = shorter else {
                    break;
                };
                len = shorter;
            }
            p.undo_move(e);
            if best.is_none_or(|(_, b)| len > b) {
                best = Some((e, len));
            }
        }
        best
    }

    /// Defender to move, its longest counted defence at most `bound` plies: a counted reply
    /// (`evasions`) of the longest defence, with that defence's length less one (the bound of
    /// the attacker's position after it). A reply lasts `m` plies when the attacker is not
    /// shown to mate two plies sooner after it; `m` goes down from `bound` until one does.
    fn longest_reply(
        &mut self,
        p: &mut Position,
        evasions: &MoveList,
        bound: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<(Move, u16)> {
        // Longest stored proof first: the likeliest to last.
        let mut order: Vec<(u16, Move)> = evasions
            .iter()
            .map(|&e| {
                p.do_move(e);
                let probe = self.probe_node(p, UNBOUNDED);
                p.undo_move(e);
                (if probe.pn == 0 { probe.len } else { UNBOUNDED }, e)
            })
            .collect();
        order.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
        let mut m = bound;
        while m >= 2 {
            if m == 2 {
                // Every counted reply is mated, and no mate is shorter than one ply.
                return Some((order[0].1, 1));
            }
            for pass in 0..2 {
                for &(_, e) in &order {
                    p.do_move(e);
                    let lasts = if pass == 0 {
                        let probe = self.probe_node(p, m - 3);
                        probe.dn == 0
                    } else {
                        let verdict = self.search_from(&mut p.clone(), m - 3, u64::MAX, stop, true);
                        *nodes += self.nodes;
                        if verdict == DfpnVerdict::Unknown {
                            p.undo_move(e);
                            return None;
                        }
                        verdict == DfpnVerdict::Disproven
                    };
                    p.undo_move(e);
                    if lasts {
                        return Some((e, m - 1));
                    }
                }
            }
            m -= 2;
        }
        None
    }

    /// Results needed by `mate_line` were lost (replaced) or never stored for this hand:
    /// searches the node (OR) or its unresolved replies (AND) again. False if one fails.
    fn research_for_line(
        &mut self,
        p: &mut Position,
        list: &MoveList,
        or_node: bool,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> bool {
        // The re-searches start from attacker-to-move positions, so this node's context (the
        // attacker, not the side to move at an AND node) is put back afterwards.
        let context = (self.attacker, self.signature);
        // The node's own entry may say "proven" while its children's proofs are gone: the
        // re-search must look below it, not stop at that entry.
        let mut proven = |d: &mut Dfpn, p: &Position| {
            d.search_from(&mut p.clone(), UNBOUNDED, LINE_RESEARCH_NODES, stop, false) == DfpnVerdict::Proven
        };
        let ok = if or_node {
            proven(self, p)
        } else {
            list.iter().all(|&e| {
                p.do_move(e);
                let ok = self.probe_node(p, UNBOUNDED).pn == 0 || proven(self, p);
                p.undo_move(e);
                ok
            })
        };
        (self.attacker, self.signature) = context;
        ok
    }

    // ----- root and context ----------------------------------------------------------------

    /// Attacker colour and material signature for the table keys of a search from `pos`.
    fn set_root_context(&mut self, pos: &Position) {
        self.attacker = pos.side_to_move();
        self.signature = material_signature(pos, self.attacker);
    }

    fn search_root(
        &mut self,
        pos: &mut Position,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> DfpnVerdict {
        self.search_from(pos, UNBOUNDED, max_nodes, stop, true)
    }

    /// A search from `pos`; with `trust_entry` false the root's own table entry is not taken
    /// as the answer (its children are looked up and searched as needed).
    fn search_from(
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

    /// [`Dfpn::search_from`] on this thread and the helpers' at once, on the shared tables.
    /// Each thread runs the whole search; the busy marks steer them apart (see [`Dfpn::mid`]),
    /// and what one stores the others find. The first to settle the root ends the others.
    fn search_together(
        &mut self,
        pos: &mut Position,
        bound: u16,
        max_nodes: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) -> DfpnVerdict {
        let threads = self.helpers.len() as u64 + 1;
        let budget = (max_nodes / threads).max(1);
        let epoch = self.epoch;
        let mut helpers = std::mem::take(&mut self.helpers);
        let verdict = std::thread::scope(|scope| {
            for h in &mut helpers {
                let mut p = pos.clone();
                let spawned = std::thread::Builder::new()
                    .name("soppo-dfpn-helper".into())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        h.epoch = epoch;
                        h.work_on(&mut p, bound, budget, &mut |_| false, trust_entry);
                    });
                // Without a thread (the system refused one) the others search without it.
                drop(spawned);
            }
            self.together = true;
            let verdict = self.search_alone(pos, bound, budget, stop, trust_entry);
            self.shared.stopped.store(epoch, Ordering::SeqCst);
            verdict
        });
        self.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        verdict
    }

    /// A helper's or an assistant's part in search `self.epoch`: the whole search from `pos`
    /// beside the owner's, on the shared tables; a verdict on the root ends every thread's.
    fn work_on(
        &mut self,
        pos: &mut Position,
        bound: u16,
        budget: u64,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        trust_entry: bool,
    ) {
        self.together = true;
        let verdict = self.search_alone(pos, bound, budget, stop, trust_entry);
        self.together = false;
        self.shared
            .helper_nodes
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed);
        self.reported = self.nodes;
        self.shared.settle(self.epoch, verdict);
    }

    /// [`Dfpn::search_from`] on this thread (beside others if `together` is set), inside the
    /// tables' gate.
    fn search_alone(
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

    /// The length of the proof stored for `pos` (after [`Dfpn::solve`] proved it): a mate in
    /// at most that many plies exists. `None` if the table holds no proof for it.
    pub fn proven_length(&self, pos: &Position) -> Option<u16> {
        let probe = self.probe_node(pos, UNBOUNDED);
        (probe.pn == 0).then_some(probe.len)
    }

    /// The table entry of the node `pos` (attacker's hand, superior/inferior answers) for
    /// mate in at most `bound` plies.
    fn probe_node(&self, pos: &Position, bound: u16) -> tt::Probe {
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

    /// [`useless_interpositions_removed`] through `useless_cache`: whether the test applied.
    fn useless_removed(&mut self, pos: &mut Position, list: &mut MoveList) -> bool {
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

    // ----- the search ----------------------------------------------------------------------

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
    #[inline]
    fn evaluate(&self, start: usize, end: usize, or_node: bool) -> (u32, u32, usize, u32) {
        self.evaluate_avoiding(start, end, or_node, usize::MAX)
    }

    /// [`Dfpn::evaluate`] as if the child at `avoid` were not there when picking the best and
    /// second best (it still counts in the sum). The best is `start` with δ = `INF` if no other
    /// child qualifies.
    #[inline]
    fn evaluate_avoiding(&self, start: usize, end: usize, or_node: bool, avoid: usize) -> (u32, u32, usize, u32) {
        let mut best = start;
        let mut best_delta = INF;
        let mut second = INF;
        let mut sum = 0u32;
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
        (best_delta, sum, best, second)
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
            let (phi, delta, mut best, mut second) = self.evaluate(start, end, or_node);
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
                let (_, _, alt, alt_second) = self.evaluate_avoiding(start, end, or_node, best);
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
            let child_th_phi = th_delta - (delta - cphi);
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
        let (phi, delta, _, _) = self.evaluate(start, end, or_node);
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

    /// For `mate_line`: the attacker's check with the shortest stored proof, or the defender's
    /// reply with the longest; `None` when a needed result is missing.
    fn pick_line_move(&mut self, p: &mut Position, list: &MoveList, or_node: bool, seen: &[u64]) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        for &m in list {
            p.do_move(m);
            let key = p.key();
            let len = if or_node && !p.has_evasion() {
                Some(0)
            } else {
                let probe = self.probe_node(p, UNBOUNDED);
                (probe.pn == 0).then_some(probe.len)
            };
            p.undo_move(m);
            let repeats = seen.contains(&key);
            let Some(l) = len else {
                if or_node {
                    continue;
                }
                return None;
            };
            if or_node {
                if !repeats && best.is_none_or(|(_, b)| l < b) {
                    best = Some((m, l));
                }
            } else {
                // A reply back into the line would let the walk cycle; it is proven too,
                // so any other reply will do; take it only if nothing else is left.
                let l = if repeats { 0 } else { l.saturating_add(1) };
                if best.is_none_or(|(_, b)| l > b) {
                    best = Some((m, l));
                }
            }
        }
        best.map(|(m, _)| m)
    }
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
fn useless_interpositions_removed(pos: &mut Position, attacker: Color, evasions: &mut MoveList) -> Option<u128> {
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
fn tsume_mated(pos: &mut Position, attacker: Color, depth: u32) -> bool {
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
fn promotion_pair(pos: &Position, m: Move, checks: &MoveList) -> bool {
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
fn effective_replies(pos: &Position, chains: bool) -> u32 {
    let c = count_evasions::<true>(pos);
    c.board + if chains { c.drop_squares.count() } else { c.drops }
}

/// The place of a dropped kind in an interposition chain: the weaker the piece, the sooner.
/// (Strongest first cost 4–10× the nodes on Shogi Zuko 99 and the mate11 set.)
#[inline(always)]
fn drop_rank(kind: PieceKind) -> u8 {
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
fn material_signature(pos: &Position, attacker: Color) -> u64 {
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
