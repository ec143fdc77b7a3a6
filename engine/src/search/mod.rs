//! The search: iterative deepening with aspiration windows, principal-variation alpha-beta
//! over a shared lock-free transposition table, and Lazy SMP over `Threads` (helper threads
//! search the same root and share only the table).
//!
//! At each node: repetition, `MaxMovesToDraw`, mate-distance pruning and entering-king
//! declaration; the table; mate in one; reverse futility and null move at non-PV
//! nodes; the static 3-ply mate gate ([`mate3`]); internal iterative reduction; then the moves
//! of the staged picker ([`picker`]) with move-count, futility, history and SEE pruning, soppo
//! pruning in the endgame ([`soppo`]), late-move reductions, a one-ply extension of checks
//! that do not lose material, and singular extension of the table move (with multi-cut).
//! Quiescence searches captures and promotions (SEE- and delta-pruned), quiet checks at its
//! first ply, and every evasion when in check.
//!
//! Modules: [`root`] (deepening, aspiration, `MultiPV`, the answer), [`node`] (the
//! alpha-beta node), [`qsearch`], [`picker`], [`history`], [`see`], [`mate3`], [`soppo`],
//! [`tunables`] (the numeric constants, which a `tune` build makes options), [`trend`] (how
//! settled the root is, for the time manager).
//!
//! The search never prints. It sends [`SearchEvent`]s to the controller, which alone speaks
//! USI.

mod history;
mod limits;
mod mate3;
mod node;
mod picker;
mod qsearch;
mod root;
mod see;
mod soppo;
mod trend;
pub mod tunables;

pub use limits::{Budget, Limits, SearchControl};

use crate::eval::nnue::{AccumulatorStack, AccumulatorStats, DEFAULT_FV_SCALE, Kernel, Network};
use crate::eval::{EVAL_LIMIT, Evaluation};
use crate::tt::{NO_EVAL, TranspositionTable};
pub use history::Histories;
use history::{History, MAX_PLY, piece_to};
pub use see::see_ge;
pub use soppo::SoppoCut;
use soppo_core::declaration::EnteringKingRule;
use soppo_core::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
const INFINITE: i32 = MATE + 1;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// A score as USI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreValue {
    Centipawns(i32),
    /// Mate in this many plies; negative when the side to move is being mated.
    MateIn(i32),
}

impl ScoreValue {
    /// The score of an internal value (mates beyond [`MATE_BOUND`]).
    pub fn from_internal(v: i32) -> ScoreValue {
        if v >= MATE_BOUND {
            ScoreValue::MateIn(MATE - v)
        } else if v <= -MATE_BOUND {
            ScoreValue::MateIn(-(MATE + v))
        } else {
            ScoreValue::Centipawns(v)
        }
    }
}

/// One line of progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: ScoreValue,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What the search decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Move { best: Move, ponder: Option<Move> },
    Resign,
    Win,
}

/// Messages from a search to the controller, tagged with the search's id.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    Info(u64, SearchInfo),
    /// Fewer threads than `Threads` asked for could be started: the search goes on with
    /// `started` (the main thread counted) and the system's reason for the first refusal.
    ThreadsShort {
        id: u64,
        asked: usize,
        started: usize,
        why: String,
    },
    /// How the main thread's net accumulators were computed (a search with a net), just
    /// before `Done`: for the measurements.
    Accumulators(u64, AccumulatorStats),
    Done(u64, Decision, Option<SearchInfo>),
}

/// Settings of a search (the USI options set them; see `options`).
#[derive(Clone, Debug)]
pub struct SearchSettings {
    pub multi_pv: u32,
    pub resign_value: i32,
    pub max_moves_to_draw: u32,
    pub entering_king_rule: EnteringKingRule,
    /// Run a 3-ply mate search where the static 3-ply mate score says it is worth it.
    pub static_mate_eval: bool,
    /// Soppo pruning: off, SS-Cut or DS-Cut, and SS-Cut's distance.
    pub soppo_cut: SoppoCut,
    pub soppo_distance: u32,
    /// Search threads (Lazy SMP).
    pub threads: u32,
    /// The search's constants (only a `tune` build reads them from here).
    pub tunables: tunables::Tunables,
    /// The static evaluation: the classic one, or the net in `network`.
    pub evaluation: Evaluation,
    /// The net [`Evaluation::Nnue`] and [`Evaluation::Auto`] evaluate with (the controller
    /// loads it); without one the classic evaluation is used.
    pub network: Option<Arc<Network>>,
    /// The net's inner loops: `None` for the fastest this CPU runs (the bench can ask for
    /// the scalar ones).
    pub kernel: Option<Kernel>,
    /// `FV_SCALE`: the net's output sum per unit of value.
    pub fv_scale: i32,
    /// Whether the classic evaluation adds its network to its linear sum (always, but for the
    /// self-play that trains a new network from the linear sum alone: `selfplay --linear`).
    pub classic_net: bool,
}

impl SearchSettings {
    /// The defaults, which the USI options start from.
    pub const DEFAULT: SearchSettings = SearchSettings {
        multi_pv: 1,
        resign_value: 99_999,
        max_moves_to_draw: 0,
        entering_king_rule: EnteringKingRule::Csa27,
        static_mate_eval: true,
        soppo_cut: SoppoCut::Off,
        soppo_distance: 5,
        threads: 1,
        tunables: tunables::DEFAULT,
        evaluation: Evaluation::DEFAULT,
        network: None,
        kernel: None,
        fv_scale: DEFAULT_FV_SCALE,
        classic_net: true,
    };
}

impl SearchSettings {
    /// The accumulators of a search thread, if the network evaluates.
    fn nnue_stack(&self) -> Option<AccumulatorStack> {
        let net = self.network.as_ref().filter(|_| self.evaluation.wants_net())?;
        Some(AccumulatorStack::new(
            Arc::clone(net),
            self.kernel.unwrap_or_else(Kernel::best),
            self.fv_scale,
        ))
    }

    /// Whether the net evaluates (`Evaluation` not `Classic`, and a net to evaluate with).
    pub fn uses_network(&self) -> bool {
        self.evaluation.wants_net() && self.network.is_some()
    }
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings::DEFAULT
    }
}

/// What the threads of one search share besides the table.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    limits: &'a Limits,
    settings: &'a SearchSettings,
    /// Set when the main thread is done: helpers stop.
    done: AtomicBool,
    /// Nodes of each thread, published every few hundred nodes.
    nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// Per-ply state along the current line.
#[derive(Copy, Clone, Default)]
struct Frame {
    /// Static evaluation, `NO_EVAL` in check.
    eval: i32,
    /// The (piece, target) of the move played from this ply, `None` for a null move.
    piece_to: Option<usize>,
    null: bool,
    /// The move left out by a singular-extension search of this node.
    excluded: Option<Move>,
}

struct Searcher<'a, 'b> {
    shared: &'b Shared<'a>,
    index: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    hist: History,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    reductions: [[u8; 64]; 64],
    soppo: soppo::Soppo,
    root_depth: i32,
    /// Times the best root move changed in the current iteration (main thread).
    root_best_changes: u32,
    /// The network's accumulators along the line, when the network evaluates.
    nnue: Option<AccumulatorStack>,
}

/// Runs a whole search on `pos` and reports each event to `report`. Always ends with exactly
/// one `Done` event. Move-ordering statistics start empty.
pub fn run(
    id: u64,
    pos: Position,
    tt: &TranspositionTable,
    control: &Arc<SearchControl>,
    limits: &Limits,
    settings: &SearchSettings,
    report: &mut dyn FnMut(SearchEvent),
) {
    run_keeping(id, pos, tt, &Histories::new(), control, limits, settings, report);
}

/// [`run`], starting from the move-ordering statistics kept in `histories` by the previous
/// search and leaving this search's there.
#[allow(clippy::too_many_arguments)]
pub fn run_keeping(
    id: u64,
    pos: Position,
    tt: &TranspositionTable,
    histories: &Histories,
    control: &Arc<SearchControl>,
    limits: &Limits,
    settings: &SearchSettings,
    report: &mut dyn FnMut(SearchEvent),
) {
    tt.new_search();
    let threads = settings.threads.clamp(1, 512) as usize;
    let shared = Shared {
        tt,
        control,
        limits,
        settings,
        done: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let start = Instant::now();
    let can_declare = !limits.hold_answer && pos.can_declare_win(settings.entering_king_rule);
    let mut tables = histories.take(threads).into_iter();
    let main_table = tables.next().unwrap_or_else(History::new);
    let ((decision, last), accumulators) = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        let mut refused = None;
        for (index, table) in (1..threads).zip(tables) {
            let shared = &shared;
            let p = pos.clone();
            // Deep lines need deep stacks. A helper that cannot start is not there: the others
            // search on, and the controller is told.
            let spawned = std::thread::Builder::new()
                .name(format!("soppo-helper-{index}"))
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let mut p = p;
                    let mut s = Searcher::new(shared, index, table);
                    s.iterate(&mut p, start, &mut |_| {});
                    s.hist
                });
            match spawned {
                Ok(h) => helpers.push(h),
                Err(e) => {
                    refused.get_or_insert(e);
                }
            }
        }
        if let Some(e) = refused {
            report(SearchEvent::ThreadsShort {
                id,
                asked: threads,
                started: helpers.len() + 1,
                why: e.to_string(),
            });
        }
        let mut main = Searcher::new(&shared, 0, main_table);
        let mut p = pos;
        let result = main.iterate(&mut p, start, &mut |info| report(SearchEvent::Info(id, info)));
        shared.done.store(true, Ordering::Relaxed);
        let answer = main.decide(can_declare, result);
        let accumulators = main.nnue.as_ref().map(AccumulatorStack::stats);
        // The tables go back before the answer does, so the next search finds them.
        let mut kept = vec![main.hist];
        kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        histories.put_back(kept);
        (answer, accumulators)
    });
    if let Some(stats) = accumulators {
        report(SearchEvent::Accumulators(id, stats));
    }
    report(SearchEvent::Done(id, decision, last));
}

impl<'a, 'b> Searcher<'a, 'b> {
    fn new(shared: &'b Shared<'a>, index: usize, hist: History) -> Searcher<'a, 'b> {
        Searcher {
            shared,
            index,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            hist,
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![[None; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            reductions: tunables::reduction_table(tunables::active(&shared.settings.tunables)),
            soppo: soppo::Soppo::new(shared.settings.soppo_cut, shared.settings.soppo_distance),
            root_depth: 1,
            root_best_changes: 0,
            nnue: shared.settings.nnue_stack(),
        }
    }

    /// Plays `m`, with the network's accumulators.
    #[inline(always)]
    fn make(&mut self, pos: &mut Position, m: Move) {
        if let Some(stack) = &mut self.nnue {
            stack.push(pos, m);
        }
        pos.do_move(m);
    }

    /// Takes back `m`, with the network's accumulators. (A null move changes neither: the
    /// accumulators are kept per colour, and the evaluation reads the side to move.)
    #[inline(always)]
    fn unmake(&mut self, pos: &mut Position, m: Move) {
        pos.undo_move(m);
        if let Some(stack) = &mut self.nnue {
            stack.pop();
        }
    }

    /// The static evaluation of `pos`, the position the line has reached.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match &mut self.nnue {
            Some(stack) => stack.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            None if self.shared.settings.classic_net => crate::eval::evaluate(pos),
            None => crate::eval::classic::evaluate_linear(pos),
        }
    }

    fn settings(&self) -> &SearchSettings {
        self.shared.settings
    }

    /// The search's constants (see [`tunables::active`]).
    #[inline(always)]
    fn tp(&self) -> &tunables::Tunables {
        tunables::active(&self.shared.settings.tunables)
    }

    fn is_main(&self) -> bool {
        self.index == 0
    }

    fn info(&self, depth: u32, multipv: u32, score: i32, pv: Vec<Move>, start: Instant) -> SearchInfo {
        let elapsed = start.elapsed();
        let nodes = self.shared.total_nodes().max(self.nodes);
        let nps = if elapsed.as_micros() > 0 {
            nodes * 1_000_000 / elapsed.as_micros() as u64
        } else {
            0
        };
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: ScoreValue::from_internal(score),
            nodes,
            nps,
            time_ms: elapsed.as_millis() as u64,
            hashfull: self.shared.tt.hashfull(),
            pv,
        }
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(512) {
            self.shared.nodes[self.index].store(self.nodes, Ordering::Relaxed);
            let stop = if self.is_main() {
                self.shared
                    .control
                    .must_stop(self.shared.limits, self.shared.total_nodes())
            } else {
                self.shared.done.load(Ordering::Relaxed) || self.shared.control.stop_requested()
            };
            if stop {
                self.stopped = true;
            }
        }
    }

    /// The line at `ply` is `m` alone (a mate found without searching the reply).
    fn single_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        self.pv_len[ply] = ply + 1;
    }

    /// The line at `ply` is `m` followed by the child's line.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(m);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn reduction(&self, depth: i32, move_number: usize) -> i32 {
        i32::from(self.reductions[(depth as usize).min(63)][move_number.min(63)])
    }
}

fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests;
