//! The search: iterative deepening with aspiration windows, principal-variation alpha-beta
//! over a shared lock-free transposition table, and Lazy SMP over `Threads` (helper threads
//! search the same root and share only the table).
//!
//! At each node: repetition, `MaxMovesToDraw`, mate-distance pruning and entering-king
//! declaration; the table; mate in one; razoring, reverse futility and null move at non-PV
//! nodes; the static 3-ply mate gate ([`mate3`]); internal iterative reduction; then the moves
//! of the staged picker ([`picker`]) with move-count, futility, history and SEE pruning, soppo
//! pruning in the endgame ([`soppo`]), and late-move reductions. Quiescence searches captures
//! and promotions (SEE- and delta-pruned) and every evasion when in check.
//!
//! The search never prints. It sends [`SearchEvent`]s to the controller, which alone speaks
//! USI.

mod history;
mod limits;
mod mate3;
mod picker;
mod see;
mod soppo;

pub use limits::{Budget, Limits, SearchControl};

use crate::eval::{board_value, evaluate};
use crate::options::{Options, SoppoCut};
use crate::tt::{Bound, NO_EVAL, TranspositionTable};
use history::{History, MAX_PLY, piece_to, stat_bonus};
use picker::{Kind, MovePicker};
use see::see_ge;
use soppo_core::declaration::EnteringKingRule;
use soppo_core::movegen::{MoveList, generate_captures, generate_evasions, generate_legal};
use soppo_core::repetition::Repetition;
use soppo_core::{Move, PieceKind, Position};
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
    fn from_internal(v: i32) -> ScoreValue {
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
    Done(u64, Decision, Option<SearchInfo>),
}

/// Settings a search takes from the options.
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
}

impl SearchSettings {
    /// The settings the USI options ask for.
    pub fn from_options(o: &Options) -> SearchSettings {
        SearchSettings {
            multi_pv: o.multi_pv,
            resign_value: o.resign_value,
            max_moves_to_draw: o.max_moves_to_draw,
            entering_king_rule: o.entering_king_rule,
            static_mate_eval: o.static_mate_eval,
            soppo_cut: o.soppo_cut,
            soppo_distance: o.soppo_distance,
            threads: o.threads,
        }
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
}

/// The result of one thread's iterative deepening.
struct ThreadResult {
    lines: Vec<(i32, Vec<Move>)>,
    depth: u32,
    info: Option<SearchInfo>,
    moves: Vec<Move>,
}

struct Searcher<'a, 'b> {
    shared: &'b Shared<'a>,
    index: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    hist: Box<History>,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    reductions: [[u8; 64]; 64],
    soppo: soppo::Soppo,
    root_depth: i32,
}

/// Runs a whole search on `pos` and reports each event to `report`. Always ends with exactly
/// one `Done` event.
pub fn run(
    id: u64,
    pos: Position,
    tt: &TranspositionTable,
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
    let (decision, last) = std::thread::scope(|scope| {
        for index in 1..threads {
            let shared = &shared;
            let p = pos.clone();
            // Deep lines need deep stacks; a helper that cannot start is simply not there.
            let _ = std::thread::Builder::new()
                .name(format!("soppo-helper-{index}"))
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let mut p = p;
                    let mut s = Searcher::new(shared, index);
                    s.iterate(&mut p, start, &mut |_| {});
                });
        }
        let mut main = Searcher::new(&shared, 0);
        let mut p = pos;
        let result = main.iterate(&mut p, start, &mut |info| report(SearchEvent::Info(id, info)));
        shared.done.store(true, Ordering::Relaxed);
        main.decide(can_declare, result)
    });
    report(SearchEvent::Done(id, decision, last));
}

fn reduction_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            // Late-move reduction grows with the log of both depth and move number.
            let v = 0.6 + f64::from(d as u8).ln() * f64::from(m as u8).ln() / 2.2;
            *r = v.max(0.0) as u8;
        }
    }
    t
}

impl<'a, 'b> Searcher<'a, 'b> {
    fn new(shared: &'b Shared<'a>, index: usize) -> Searcher<'a, 'b> {
        Searcher {
            shared,
            index,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            hist: Box::new(History::new()),
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![[None; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            reductions: reduction_table(),
            soppo: soppo::Soppo::new(shared.settings.soppo_cut, shared.settings.soppo_distance),
            root_depth: 1,
        }
    }

    fn settings(&self) -> &SearchSettings {
        self.shared.settings
    }

    fn is_main(&self) -> bool {
        self.index == 0
    }

    /// Iterative deepening at the root; `report` gets each finished line (main thread only).
    fn iterate(&mut self, pos: &mut Position, start: Instant, report: &mut dyn FnMut(SearchInfo)) -> ThreadResult {
        let mut root_moves = MoveList::new();
        generate_legal::<false>(pos, &mut root_moves);
        if root_moves.is_empty() {
            // Non-promotions only: fall back to the complete set before giving up.
            generate_legal::<true>(pos, &mut root_moves);
        }
        let mut moves: Vec<Move> = root_moves.to_vec();
        let mut result = ThreadResult {
            lines: Vec::new(),
            depth: 0,
            info: None,
            moves: moves.clone(),
        };
        if moves.is_empty()
            || (!self.shared.limits.hold_answer && pos.can_declare_win(self.settings().entering_king_rule))
        {
            return result;
        }
        let multi_pv = (self.settings().multi_pv.max(1) as usize).min(moves.len());
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        // Helpers start one iteration deeper every other thread, so they do not all search
        // the same depth at the same time.
        let first_depth = 1 + (self.index % 2) as u32;
        let mut previous: Vec<i32> = Vec::new();
        for depth in first_depth..=max_depth {
            self.root_depth = depth as i32;
            self.soppo.refresh();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            let mut first_info = None;
            for pv_idx in 0..multi_pv {
                let prev = previous.get(pv_idx).copied();
                let Some(line) = self.aspiration(pos, &mut moves, pv_idx, depth as i32, prev) else {
                    break;
                };
                lines.push(line);
                if self.is_main() {
                    let (score, pv) = lines.last().cloned().unwrap_or_default();
                    let info = self.info(depth, pv_idx as u32 + 1, score, pv, start);
                    if pv_idx == 0 {
                        first_info = Some(info.clone());
                    }
                    report(info);
                }
            }
            if lines.is_empty() {
                break;
            }
            // Finished lines of a partly finished iteration still replace the old ones: the
            // first line was searched completely.
            if self.stopped && lines.len() < result.lines.len() {
                let old: Vec<_> = std::mem::take(&mut result.lines)
                    .into_iter()
                    .filter(|(_, pv)| !lines_has(&lines, pv))
                    .collect();
                lines.extend(old);
                lines.truncate(multi_pv);
            }
            // Keep the reported order: best line first (MultiPV lines are ordered by slot).
            previous = lines.iter().map(|(s, _)| *s).collect();
            result.lines = lines;
            result.depth = depth;
            if first_info.is_some() {
                result.info = first_info.take();
            }
            if self.stopped || self.helper_should_stop() {
                break;
            }
            if self.is_main() && self.shared.control.should_stop_after_iteration() {
                break;
            }
            // A proven mate for the side to move cannot improve with depth.
            if let Some((score, _)) = result.lines.first()
                && *score >= MATE_BOUND
                && (MATE - score) as u32 <= depth
            {
                break;
            }
        }
        result.moves = moves;
        result
    }

    fn helper_should_stop(&self) -> bool {
        !self.is_main() && self.shared.done.load(Ordering::Relaxed)
    }

    /// One `MultiPV` slot at one depth with an aspiration window around the previous score.
    fn aspiration(
        &mut self,
        pos: &mut Position,
        moves: &mut [Move],
        pv_idx: usize,
        depth: i32,
        previous: Option<i32>,
    ) -> Option<(i32, Vec<Move>)> {
        let mut delta = 24;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= 4 && p.abs() < MATE_BOUND => ((p - delta).max(-INFINITE), (p + delta).min(INFINITE)),
            _ => (-INFINITE, INFINITE),
        };
        loop {
            let (score, pv) = self.root_search(pos, moves, pv_idx, depth, alpha, beta);
            if self.stopped {
                // A fail-high line that already beats the window's floor is still good news.
                return (score > alpha && !pv.is_empty() && score < beta).then_some((score, pv));
            }
            if score <= alpha && alpha > -INFINITE {
                beta = alpha.midpoint(beta);
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
            } else {
                return Some((score, pv));
            }
            delta += delta / 2 + 8;
            if delta > 1200 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Searches `moves[pv_idx..]` at the root; the best move is moved to `moves[pv_idx]`.
    fn root_search(
        &mut self,
        pos: &mut Position,
        moves: &mut [Move],
        pv_idx: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Vec<Move>) {
        let mut best = -INFINITE;
        let mut best_pv = Vec::new();
        self.stack[0] = Frame {
            eval: NO_EVAL,
            piece_to: None,
            null: false,
        };
        for i in pv_idx..moves.len() {
            let m = moves[i];
            self.stack[0].piece_to = Some(piece_to(pos, m));
            self.pv_len[1] = 1;
            pos.do_move(m);
            let score = if i == pv_idx {
                -self.search::<true>(pos, depth - 1, -beta, -alpha, 1, false)
            } else {
                let mut s = -self.search::<false>(pos, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search::<true>(pos, depth - 1, -beta, -alpha, 1, false);
                }
                s
            };
            pos.undo_move(m);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha || i == pv_idx {
                    best_pv.clear();
                    best_pv.push(m);
                    best_pv.extend(self.pv[1][1..self.pv_len[1].max(1)].iter().flatten());
                    legal_prefix(pos, &mut best_pv);
                    // Keep the best move at the front of the unsearched part.
                    moves[pv_idx..=i].rotate_right(1);
                }
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_pv)
    }

    /// The answer from the finished lines.
    fn decide(&self, can_declare: bool, result: ThreadResult) -> (Decision, Option<SearchInfo>) {
        if result.moves.is_empty() {
            return (Decision::Resign, None);
        }
        if result.lines.is_empty() {
            if can_declare {
                return (Decision::Win, None);
            }
            return (
                Decision::Move {
                    best: result.moves[0],
                    ponder: None,
                },
                None,
            );
        }
        let (score, pv) = &result.lines[0];
        let best = pv.first().copied().unwrap_or(result.moves[0]);
        let resign_value = self.settings().resign_value;
        if (*score <= -MATE_BOUND || (resign_value < 99_999 && *score <= -resign_value))
            && !self.shared.limits.hold_answer
        {
            return (Decision::Resign, result.info);
        }
        (
            Decision::Move {
                best,
                ponder: pv.get(1).copied(),
            },
            result.info,
        )
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

    #[allow(clippy::too_many_lines)]
    fn search<const PV: bool>(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        if depth <= 0 {
            return self.qsearch::<PV>(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        match pos.repetition(16) {
            Repetition::Draw => return 0,
            Repetition::Win => return MATE - ply as i32,
            Repetition::Loss => return -(MATE - ply as i32),
            _ => {}
        }
        let max_moves = self.settings().max_moves_to_draw;
        if max_moves > 0 && pos.move_number() > max_moves + 1 {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if pos.can_declare_win(self.settings().entering_king_rule) {
            return MATE - ply as i32 - 1;
        }
        let in_check = pos.in_check();
        self.hist.clear_killers(ply + 1);
        let key = pos.key();
        let tt_hit = self.shared.tt.probe(key);
        let tt_move = tt_hit.and_then(|h| h.mv).filter(|&m| pos.is_legal_move(m));
        let tt_score = tt_hit.map(|h| score_from_tt(h.score, ply));
        if let Some(h) = tt_hit
            && !PV
            && h.depth >= depth
            && let Some(score) = tt_score
        {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        if !in_check && let Some(m) = pos.mate_in_one() {
            let score = MATE - ply as i32 - 1;
            if PV {
                self.single_pv(ply, m);
            }
            self.shared.tt.store(
                key,
                Some(m),
                score_to_tt(score, ply),
                NO_EVAL,
                (depth + 6).min(MAX_PLY as i32),
                Bound::Exact,
            );
            return score;
        }

        // Static evaluation, sharpened by the table's score when its bound allows.
        let eval = if in_check {
            NO_EVAL
        } else {
            let raw = match tt_hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => evaluate(pos),
            };
            match (tt_hit, tt_score) {
                (Some(h), Some(s))
                    if s.abs() < MATE_BOUND
                        && (h.bound == Bound::Exact
                            || (h.bound == Bound::Lower && s > raw)
                            || (h.bound == Bound::Upper && s < raw)) =>
                {
                    s
                }
                _ => raw,
            }
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && self.stack[ply - 2].eval != NO_EVAL && eval > self.stack[ply - 2].eval;

        if !PV && !in_check && eval.abs() < MATE_BOUND {
            // Razoring: far below alpha at low depth, only captures can help.
            if depth <= 3 && eval + 200 + 220 * depth * depth < alpha {
                let v = self.qsearch::<false>(pos, alpha - 1, alpha, ply, 0);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta at low depth.
            let margin = 110 * depth - 55 * i32::from(improving);
            if depth <= 8 && eval - margin >= beta && beta > -MATE_BOUND {
                return eval.midpoint(beta);
            }
            // Null move: if passing still beats beta, a real move will too.
            if depth >= 3 && eval >= beta && !self.stack[ply - 1].null && beta > -MATE_BOUND && ply >= 1 {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply].piece_to = None;
                self.stack[ply].null = true;
                pos.do_null_move();
                let v = -self.search::<false>(pos, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                pos.undo_null_move();
                self.stack[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }
        self.stack[ply].null = false;

        if !in_check
            && self.settings().static_mate_eval
            && mate3::worth_trying(pos)
            && let Some(m) = mate3::mate_in_three(pos)
        {
            if PV {
                self.single_pv(ply, m);
            }
            return MATE - ply as i32 - 3;
        }

        // Internal iterative reduction: without a table move this node was not searched
        // before, so the ordering is poor; search it one ply shallower.
        let mut depth = depth;
        if (PV || cut_node) && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }

        let soppo_limit = if in_check || !(self.soppo.enabled() || self.soppo.gathering()) || !soppo::is_endgame(pos) {
            None
        } else {
            // Gathering DS-Cut statistics without pruning yet: an unreachable limit.
            Some(self.soppo.limit().unwrap_or(u32::MAX))
        };

        let prev1 = self.stack[ply - 1].piece_to;
        let prev2 = if ply >= 2 { self.stack[ply - 2].piece_to } else { None };
        let mut picker = MovePicker::new(tt_move, &self.hist, ply, prev1, prev2);
        let us = pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut searched = 0usize;
        // Moves picked so far, pruned ones included: move-count pruning and reductions count
        // every move the picker ranked above this one.
        let mut move_count = 0usize;
        let mut quiets_tried: arrayvec::ArrayVec<(Move, usize), 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<(usize, PieceKind), 32> = arrayvec::ArrayVec::new();
        let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some(picked) = picker.next(pos, &self.hist) {
            let m = picked.mv;
            let captured = if m.is_drop() {
                None
            } else {
                pos.piece_on(m.to()).map(soppo_core::Piece::kind)
            };
            let tactical = captured.is_some() || (!m.is_drop() && m.is_promotion());
            let gives_check = pos.gives_check(m);
            let soppo_d = soppo_limit.and_then(|_| soppo::candidate_distance(pos, m, gives_check));
            move_count += 1;
            if searched > 0
                && let (Some(d), Some(limit)) = (soppo_d, soppo_limit)
                && d > limit
            {
                continue;
            }
            let reduction = self.reduction(depth, move_count);
            // Shallow-depth pruning, once a move has kept us from being mated.
            if best > -MATE_BOUND && !in_check && searched > 0 {
                if !tactical && !gives_check {
                    if depth <= 8 && move_count > lmp_limit {
                        picker.skip_quiets = true;
                        continue;
                    }
                    let lmr_depth = (depth - 1 - reduction).max(0);
                    if !PV && lmr_depth <= 7 && eval != NO_EVAL && eval + 140 + 110 * lmr_depth <= alpha {
                        continue;
                    }
                    if lmr_depth <= 3 && picked.kind == Kind::Quiet && picked.score < -3000 * depth {
                        continue;
                    }
                    if lmr_depth <= 8 && !see_ge(pos, m, -20 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 7 && !see_ge(pos, m, -160 * depth) {
                    continue;
                }
            }
            let pt = piece_to(pos, m);
            self.stack[ply].piece_to = Some(pt);
            // A child searched with a null window leaves no line: start it empty.
            self.pv_len[ply + 1] = ply + 1;
            pos.do_move(m);
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.search::<PV>(pos, new_depth, -beta, -alpha, ply + 1, !PV && !cut_node)
            } else {
                let mut s;
                let late = depth >= 2 && searched > usize::from(PV) && (!tactical || picked.kind == Kind::BadCapture);
                if late {
                    let mut r = reduction;
                    r += i32::from(cut_node);
                    r -= i32::from(PV);
                    r -= i32::from(picked.kind == Kind::Refutation);
                    r -= i32::from(gives_check);
                    r += i32::from(!improving);
                    if picked.kind == Kind::Quiet {
                        r -= picked.score / 8000;
                    }
                    let r = r.clamp(0, new_depth - 1);
                    s = -self.search::<false>(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                    if s > alpha && r > 0 && !self.stopped {
                        s = -self.search::<false>(pos, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                    }
                } else {
                    s = -self.search::<false>(pos, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if PV && s > alpha && s < beta && !self.stopped {
                    s = -self.search::<true>(pos, new_depth, -beta, -alpha, ply + 1, false);
                }
                s
            };
            pos.undo_move(m);
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if let Some(d) = soppo_d
                            && self.soppo.gathering()
                        {
                            self.soppo.record_cutoff(d);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if Some(m) != best_move {
                if let Some(c) = captured {
                    let _ = captures_tried.try_push((pt, c));
                } else if !tactical {
                    let _ = quiets_tried.try_push((m, pt));
                }
            }
        }
        if searched == 0 {
            // No legal move (every move is searched before anything is pruned): mated.
            return if in_check || !pos.has_legal_move() {
                -(MATE - ply as i32)
            } else {
                // Only pawn, bishop or rook non-promotions are legal: never better than the
                // promotions left out, so score it statically.
                eval
            };
        }
        if best >= beta
            && let Some(bm) = best_move
        {
            let bonus = stat_bonus(depth);
            let captured = if bm.is_drop() {
                None
            } else {
                pos.piece_on(bm.to()).map(soppo_core::Piece::kind)
            };
            if let Some(c) = captured {
                self.hist.update_capture(piece_to(pos, bm), c, bonus);
            } else if bm.is_drop() || !bm.is_promotion() {
                self.hist
                    .update_quiet(us, (bm, piece_to(pos, bm)), &quiets_tried, prev1, prev2, ply, depth);
            }
            for &(cpt, c) in &captures_tried {
                self.hist.update_capture(cpt, c, -bonus);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, depth, bound);
        best
    }

    fn qsearch<const PV: bool>(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let key = pos.key();
        let tt_hit = self.shared.tt.probe(key);
        if let Some(h) = tt_hit
            && !PV
            && h.depth >= 0
        {
            let score = score_from_tt(h.score, ply);
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let mut list = MoveList::new();
        let mut best;
        let mut eval = NO_EVAL;
        if in_check {
            generate_evasions::<false>(pos, &mut list);
            if list.is_empty() {
                return -(MATE - ply as i32);
            }
            best = -INFINITE;
        } else {
            if let Some(m) = pos.mate_in_one() {
                if PV {
                    self.single_pv(ply, m);
                }
                return MATE - ply as i32 - 1;
            }
            eval = match tt_hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => evaluate(pos),
            };
            if eval >= beta {
                if tt_hit.is_none() {
                    self.shared.tt.store(key, None, eval, eval, -1, Bound::Lower);
                }
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            if qply > 16 {
                return eval;
            }
            generate_captures::<false>(pos, &mut list);
        }
        // Most valuable victim first, least valuable attacker second.
        let mut moves: arrayvec::ArrayVec<(i32, Move), 600> = list
            .iter()
            .map(|&m| {
                let victim = if m.is_drop() {
                    0
                } else {
                    pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind()))
                };
                let attacker = if m.is_drop() {
                    0
                } else {
                    pos.piece_on(m.from()).map_or(0, |p| board_value(p.kind()))
                };
                (victim * 16 - attacker / 16, m)
            })
            .collect();
        moves.sort_unstable_by_key(|(v, _)| -v);
        let mut best_move = None;
        for (_, m) in moves {
            if !in_check {
                if !pos.is_legal(m) {
                    continue;
                }
                // Delta pruning: even winning the victim outright does not reach alpha.
                let victim = pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind()));
                let promo = if m.is_promotion() {
                    pos.piece_on(m.from())
                        .map_or(0, |p| board_value(p.kind().promote()) - board_value(p.kind()))
                } else {
                    0
                };
                if eval + victim + promo + 200 <= alpha && !pos.gives_check(m) {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            self.pv_len[ply + 1] = ply + 1;
            pos.do_move(m);
            let score = -self.qsearch::<PV>(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.undo_move(m);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, 0, bound);
        best
    }
}

/// Cuts `pv` at its first move that is not legal in sequence from `pos` (a table collision or
/// a stale line must never reach the GUI).
fn legal_prefix(pos: &Position, pv: &mut Vec<Move>) {
    let mut p = pos.clone();
    let mut keep = 0;
    for &m in pv.iter() {
        if !p.is_legal_move(m) {
            break;
        }
        p.do_move(m);
        keep += 1;
    }
    pv.truncate(keep);
}

fn lines_has(lines: &[(i32, Vec<Move>)], pv: &[Move]) -> bool {
    lines.iter().any(|(_, p)| p.first() == pv.first())
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
mod tests {
    use super::*;

    fn think(sfen: &str, depth: u32) -> Decision {
        let pos = Position::from_sfen(sfen).unwrap();
        let tt = TranspositionTable::new(1);
        let control = Arc::new(SearchControl::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let settings = SearchSettings::from_options(&Options::default());
        let mut events = Vec::new();
        run(1, pos, &tt, &control, &limits, &settings, &mut |e| events.push(e));
        let dones: Vec<&SearchEvent> = events.iter().filter(|e| matches!(e, SearchEvent::Done(..))).collect();
        assert_eq!(dones.len(), 1);
        match dones[0] {
            SearchEvent::Done(_, d, _) => d.clone(),
            SearchEvent::Info(..) => unreachable!(),
        }
    }

    fn events(sfen: &str, depth: u32, settings: &SearchSettings) -> Vec<SearchEvent> {
        let pos = Position::from_sfen(sfen).unwrap();
        let tt = TranspositionTable::new(4);
        let control = Arc::new(SearchControl::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut events = Vec::new();
        run(1, pos, &tt, &control, &limits, settings, &mut |e| events.push(e));
        events
    }

    #[test]
    fn multipv_reports_distinct_legal_first_moves() {
        let settings = SearchSettings {
            multi_pv: 3,
            ..SearchSettings::from_options(&Options::default())
        };
        let ev = events(soppo_core::STARTPOS_SFEN, 4, &settings);
        let last_depth: Vec<&SearchInfo> = ev
            .iter()
            .filter_map(|e| match e {
                SearchEvent::Info(_, i) if i.depth == 4 => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(last_depth.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
        let firsts: Vec<Move> = last_depth.iter().map(|i| i.pv[0]).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{firsts:?}"
        );
        let start = Position::startpos();
        assert!(firsts.iter().all(|&m| start.is_legal_move(m)));
    }

    #[test]
    fn multipv_larger_than_the_legal_moves_is_clamped() {
        // White's king has exactly two legal moves.
        let settings = SearchSettings {
            multi_pv: 10,
            ..SearchSettings::from_options(&Options::default())
        };
        let sfen = "k8/2G6/9/9/9/9/9/9/4K4 w - 1";
        let n = Position::from_sfen(sfen).unwrap().legal_moves().len() as u32;
        let ev = events(sfen, 2, &settings);
        let slots = ev
            .iter()
            .filter_map(|e| match e {
                SearchEvent::Info(_, i) if i.depth == 2 => Some(i.multipv),
                _ => None,
            })
            .max();
        assert_eq!(slots, Some(n));
    }

    #[test]
    fn two_threads_answer_once_with_a_legal_move() {
        let settings = SearchSettings {
            threads: 2,
            ..SearchSettings::from_options(&Options::default())
        };
        let ev = events(soppo_core::STARTPOS_SFEN, 6, &settings);
        let dones: Vec<&Decision> = ev
            .iter()
            .filter_map(|e| match e {
                SearchEvent::Done(_, d, _) => Some(d),
                SearchEvent::Info(..) => None,
            })
            .collect();
        assert_eq!(dones.len(), 1);
        match dones[0] {
            Decision::Move { best, .. } => assert!(Position::startpos().is_legal_move(*best)),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn every_reported_line_is_legal() {
        // A tactical middle game: every pv printed at every depth must replay legally.
        let sfen = "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1";
        let ev = events(sfen, 7, &SearchSettings::from_options(&Options::default()));
        let mut lines = 0;
        for e in &ev {
            if let SearchEvent::Info(_, info) = e {
                let mut p = Position::from_sfen(sfen).unwrap();
                for &m in &info.pv {
                    assert!(p.is_legal_move(m), "illegal {m} in {:?}", info.pv);
                    p.do_move(m);
                }
                lines += 1;
            }
        }
        assert!(lines >= 7);
    }

    #[test]
    fn finds_a_mate_in_three_and_reports_it() {
        // Black mates in three: a rook check from the side, then a gold.
        let sfen = "7nl/7k1/6ppp/9/9/9/9/9/K8 b RG 1";
        let ev = events(sfen, 5, &SearchSettings::from_options(&Options::default()));
        let last = ev
            .iter()
            .rev()
            .find_map(|e| match e {
                SearchEvent::Info(_, i) => Some(i.clone()),
                SearchEvent::Done(..) => None,
            })
            .unwrap();
        assert!(
            matches!(last.score, ScoreValue::MateIn(n) if n > 0 && n <= 3),
            "{last:?}"
        );
    }

    #[test]
    fn takes_a_free_rook() {
        // The bishop on 6g can take the undefended rook on 4e.
        let d = think("4k4/9/9/9/5r3/9/3B5/9/4K4 b - 1", 3);
        assert!(
            matches!(d, Decision::Move { best, .. } if best == Move::from_usi("6g4e").unwrap()),
            "{d:?}"
        );
    }

    #[test]
    fn mates_in_one_and_resigns_when_mated() {
        let d = think("4k4/9/4P4/9/9/9/9/9/9 b G 1", 2);
        assert_eq!(
            d,
            Decision::Move {
                best: Move::from_usi("G*5b").unwrap(),
                ponder: None
            }
        );
        // White is checkmated: no legal move.
        let d = think("4k4/4G4/4P4/9/9/9/9/9/9 w - 1", 2);
        assert_eq!(d, Decision::Resign);
    }
}
