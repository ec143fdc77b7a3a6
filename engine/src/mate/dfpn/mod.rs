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
//! - Capped sums: a node's summed number is the sum of its children's, but at most a fixed cap
//!   above their weak sum (Ueda et al.'s weak proof-number search), so that subtrees shared by
//!   transpositions, counted again at every level, cannot grow the numbers without bound (see
//!   `Dfpn::evaluate`).
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
//!
//! The code follows those jobs: [`search`] (the MID loop), [`lines`] (mating lines, the bounded
//! shortening and the line walks), [`interposition`] (chains and useless interpositions),
//! [`parallel`] (the threads), on the tables of [`tt`] and [`shared`], with the proof and
//! disproof hands of [`hands`].
//!
//! [`useless_interpositions_removed`]: interposition::useless_interpositions_removed

mod hands;
mod interposition;
mod lines;
mod parallel;
mod search;
mod shared;
#[cfg(test)]
pub(crate) mod tests;
mod tt;

#[cfg(any(test, feature = "lab"))]
pub(super) use lines::Replies;
pub use lines::ShortLine;
#[cfg(any(test, feature = "lab"))]
pub use parallel::LineWatcher;
pub use parallel::{Assistant, STACK_BYTES};

use interposition::USELESS_CACHE_ENTRIES;
use search::{Child, FILTER_BITS, MAX_DEPTH, NO_MATE1_ENTRIES, POLL_INTERVAL};
use shared::Shared;
use soppo_core::{Color, Move, Position};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tt::UNBOUNDED;

/// Largest size of the table of path-keyed results (see `Dfpn::rep_tt`), in megabytes.
const REP_TABLE_MAX_MB: usize = 4;

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
    ///
    /// [`useless_interpositions_removed`]: interposition::useless_interpositions_removed
    /// [`USELESS_CACHED`]: interposition::USELESS_CACHED
    useless_cache: Vec<(u64, u128)>,
    /// Whether the current search publishes its path (see [`Dfpn::line_watcher`]).
    publish_path: bool,
}

/// The prover's switches (for A/B measurements).
#[derive(Clone, Copy)]
struct Settings {
    /// Whether interposing drops form chains (see `Dfpn::evaluate`).
    drop_chains: bool,
    /// Whether bounded searches leave out the interpositions they can show useless.
    useless_filter: bool,
    /// Whether a node's summed number is capped by its weak sum (see `Dfpn::evaluate`).
    capped_sums: bool,
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
                capped_sums: true,
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
    #[cfg(any(test, feature = "lab"))]
    pub fn set_useless_filter(&mut self, on: bool) {
        self.settings.useless_filter = on;
        for h in &mut self.helpers {
            h.settings.useless_filter = on;
        }
    }

    /// Whether a node's summed number (pn at AND nodes, dn at OR nodes) is capped by its weak
    /// sum (the default, see `Dfpn::evaluate`), or is the plain sum of df-pn (for A/B
    /// measurements). Either way the verdicts are the same.
    #[cfg(any(test, feature = "lab"))]
    pub fn set_capped_sums(&mut self, on: bool) {
        self.settings.capped_sums = on;
        for h in &mut self.helpers {
            h.settings.capped_sums = on;
        }
    }

    /// Forgets every stored result.
    #[cfg(any(test, feature = "lab"))]
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

    /// The length of the proof stored for `pos` (after [`Dfpn::solve`] proved it): a mate in
    /// at most that many plies exists. `None` if the table holds no proof for it.
    pub fn proven_length(&self, pos: &Position) -> Option<u16> {
        let probe = self.probe_node(pos, UNBOUNDED);
        (probe.pn == 0).then_some(probe.len)
    }
}
