//! The first search: iterative deepening, principal-variation alpha-beta with a transposition
//! table, quiescence on captures, check extension, mate in one at every node, repetition and
//! max-moves draws, entering-king declaration. The evaluation is material only; the search
//! issue replaces both.
//!
//! The search never prints. It sends [`SearchEvent`]s to the controller, which alone speaks
//! USI.

mod limits;
mod mate3;
mod soppo;

pub use limits::{Budget, Limits, SearchControl};

use crate::eval::{board_value, evaluate};
use crate::options::{Options, SoppoCut};
use crate::tt::{Bound, TranspositionTable};
use soppo_core::declaration::EnteringKingRule;
use soppo_core::movegen::{MoveList, generate_captures, generate_evasions, generate_legal};
use soppo_core::repetition::Repetition;
use soppo_core::{Move, Position};
use std::sync::Arc;
use std::time::Instant;

/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
const INFINITE: i32 = MATE + 1;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
const MAX_PLY: usize = 128;

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
        }
    }
}

struct Searcher<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    limits: &'a Limits,
    settings: &'a SearchSettings,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// History scores by origin and destination square.
    history: Box<[[i32; 81]]>,
    soppo: soppo::Soppo,
}

/// Runs a whole search on `pos` and reports each event to `report`. Always ends with exactly
/// one `Done` event.
pub fn run(
    id: u64,
    mut pos: Position,
    tt: &TranspositionTable,
    control: &Arc<SearchControl>,
    limits: &Limits,
    settings: &SearchSettings,
    report: &mut dyn FnMut(SearchEvent),
) {
    let mut s = Searcher {
        tt,
        control,
        limits,
        settings,
        nodes: 0,
        seldepth: 0,
        stopped: false,
        killers: [[None; 2]; MAX_PLY + 1],
        history: vec![[0; 81]; 81].into_boxed_slice(),
        soppo: soppo::Soppo::new(settings.soppo_cut, settings.soppo_distance),
    };
    let (decision, last) = s.iterate(id, &mut pos, report);
    report(SearchEvent::Done(id, decision, last));
}

impl Searcher<'_> {
    fn iterate(
        &mut self,
        id: u64,
        pos: &mut Position,
        report: &mut dyn FnMut(SearchEvent),
    ) -> (Decision, Option<SearchInfo>) {
        let start = Instant::now();
        let mut root_moves = MoveList::new();
        generate_legal::<false>(pos, &mut root_moves);
        if root_moves.is_empty() {
            // Non-promotions only: fall back to the complete set before giving up.
            generate_legal::<true>(pos, &mut root_moves);
        }
        if root_moves.is_empty() {
            return (Decision::Resign, None);
        }
        if !self.limits.hold_answer && pos.can_declare_win(self.settings.entering_king_rule) {
            return (Decision::Win, None);
        }
        let mut moves: Vec<Move> = root_moves.to_vec();
        let multi_pv = (self.settings.multi_pv.max(1) as usize).min(moves.len());
        let mut best_lines: Vec<(i32, Vec<Move>)> = Vec::new();
        let mut last_info = None;
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        for depth in 1..=max_depth {
            self.soppo.refresh();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_idx in 0..multi_pv {
                let mut best = -INFINITE;
                let mut best_pv = Vec::new();
                let mut alpha = -INFINITE;
                for i in pv_idx..moves.len() {
                    let m = moves[i];
                    pos.do_move(m);
                    let mut child_pv = Vec::new();
                    let score = if i == pv_idx {
                        -self.search(pos, depth as i32 - 1, -INFINITE, -alpha, 1, &mut child_pv)
                    } else {
                        let mut s = -self.search(pos, depth as i32 - 1, -alpha - 1, -alpha, 1, &mut child_pv);
                        if s > alpha && !self.stopped {
                            child_pv.clear();
                            s = -self.search(pos, depth as i32 - 1, -INFINITE, -alpha, 1, &mut child_pv);
                        }
                        s
                    };
                    pos.undo_move(m);
                    if self.stopped {
                        break;
                    }
                    if score > best {
                        best = score;
                        alpha = alpha.max(score);
                        best_pv.clear();
                        best_pv.push(m);
                        best_pv.extend_from_slice(&child_pv);
                        // Keep the best move at the front of the unsearched part.
                        moves[pv_idx..=i].rotate_right(1);
                    }
                }
                if self.stopped {
                    break;
                }
                lines.push((best, best_pv));
            }
            if self.stopped && lines.is_empty() {
                break;
            }
            // A partly finished iteration still improves on the last one when its best line
            // was searched completely (the first multipv slot was finished).
            if !lines.is_empty() {
                best_lines = lines;
                for (k, (score, pv)) in best_lines.iter().enumerate() {
                    let info = self.info(depth, k as u32 + 1, *score, pv.clone(), start);
                    report(SearchEvent::Info(id, info.clone()));
                    if k == 0 {
                        last_info = Some(info);
                    }
                }
            }
            if self.stopped || self.control.should_stop_after_iteration() {
                break;
            }
            // A proven mate for the side to move cannot improve with depth.
            if let Some((score, _)) = best_lines.first()
                && *score >= MATE_BOUND
                && (MATE - score) as u32 <= depth
            {
                break;
            }
        }
        let Some((score, pv)) = best_lines.first() else {
            return (
                Decision::Move {
                    best: moves[0],
                    ponder: None,
                },
                None,
            );
        };
        let best = pv.first().copied().unwrap_or(moves[0]);
        let resign_threshold = -self.settings.resign_value;
        if (*score <= -MATE_BOUND || (self.settings.resign_value < 99_999 && *score <= resign_threshold))
            && !self.limits.hold_answer
        {
            return (Decision::Resign, last_info);
        }
        (
            Decision::Move {
                best,
                ponder: pv.get(1).copied(),
            },
            last_info,
        )
    }

    fn info(&self, depth: u32, multipv: u32, score: i32, pv: Vec<Move>, start: Instant) -> SearchInfo {
        let elapsed = start.elapsed();
        let ms = elapsed.as_millis() as u64;
        let nps = if elapsed.as_micros() > 0 {
            self.nodes * 1_000_000 / elapsed.as_micros() as u64
        } else {
            0
        };
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: ScoreValue::from_internal(score),
            nodes: self.nodes,
            nps,
            time_ms: ms,
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    fn poll(&mut self) {
        if self.nodes.is_multiple_of(1024) && self.control.must_stop(self.limits, self.nodes) {
            self.stopped = true;
        }
    }

    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        self.poll();
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
        if self.settings.max_moves_to_draw > 0 && pos.move_number() > self.settings.max_moves_to_draw + 1 {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        // Mate-distance pruning.
        let alpha_md = alpha.max(-(MATE - ply as i32));
        let beta_md = beta.min(MATE - ply as i32 - 1);
        if alpha_md >= beta_md {
            return alpha_md;
        }
        if pos.can_declare_win(self.settings.entering_king_rule) {
            return MATE - ply as i32 - 1;
        }
        let in_check = pos.in_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let tt_hit = self.tt.probe(key);
        let tt_move = tt_hit.and_then(|h| h.mv).filter(|&m| pos.is_legal_move(m));
        if let Some(h) = tt_hit
            && !pv_node
            && h.depth >= depth
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
        if !in_check && let Some(m) = pos.mate_in_one() {
            pv.clear();
            pv.push(m);
            return MATE - ply as i32 - 1;
        }
        if !in_check
            && self.settings.static_mate_eval
            && mate3::worth_trying(pos)
            && let Some(m) = mate3::mate_in_three(pos)
        {
            pv.clear();
            pv.push(m);
            return MATE - ply as i32 - 3;
        }
        let mut list = MoveList::new();
        generate_legal::<false>(pos, &mut list);
        if list.is_empty() {
            return -(MATE - ply as i32);
        }
        let ordered = self.order(pos, &list, tt_move, ply);
        let depth = if in_check { depth + 1 } else { depth };
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let soppo_limit = if in_check || !(self.soppo.enabled() || self.soppo.gathering()) || !soppo::is_endgame(pos) {
            None
        } else {
            // Gathering DS-Cut statistics without pruning yet: an unreachable limit.
            Some(self.soppo.limit().unwrap_or(u32::MAX))
        };
        for (i, &m) in ordered.iter().enumerate() {
            let capture = !m.is_drop() && pos.piece_on(m.to()).is_some();
            let gives_check = pos.gives_check(m);
            let soppo_d = soppo_limit.and_then(|_| soppo::candidate_distance(pos, m, gives_check));
            if i > 0
                && let (Some(d), Some(limit)) = (soppo_d, soppo_limit)
                && d > limit
            {
                continue;
            }
            pos.do_move(m);
            let mut child_pv = Vec::new();
            let score = if i == 0 {
                -self.search(pos, depth - 1, -beta, -alpha, ply + 1, &mut child_pv)
            } else {
                // Late quiet moves get a reduced null-window look first.
                let reduction = i32::from(depth >= 3 && i >= 4 && !capture && !gives_check && !in_check);
                let mut s = -self.search(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, &mut child_pv);
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.search(pos, depth - 1, -alpha - 1, -alpha, ply + 1, &mut child_pv);
                }
                if s > alpha && s < beta && !self.stopped {
                    child_pv.clear();
                    s = -self.search(pos, depth - 1, -beta, -alpha, ply + 1, &mut child_pv);
                }
                s
            };
            pos.undo_move(m);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        if let Some(d) = soppo_d
                            && self.soppo.gathering()
                        {
                            self.soppo.record_cutoff(d);
                        }
                        if !capture {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            if !m.is_drop() {
                                let h = &mut self.history[m.from().index()][m.to().index()];
                                *h = (*h + depth * depth).min(1 << 20);
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    fn qsearch(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let mut list = MoveList::new();
        if in_check {
            generate_evasions::<false>(pos, &mut list);
            if list.is_empty() {
                return -(MATE - ply as i32);
            }
        } else {
            let stand_pat = evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            if qply > 12 {
                return stand_pat;
            }
            generate_captures::<false>(pos, &mut list);
            list.retain(|m| pos.is_legal(*m) && pos.piece_on(m.to()).is_some());
        }
        // Most valuable victim first.
        let mut moves: Vec<(i32, Move)> = list
            .iter()
            .map(|&m| (pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind())), m))
            .collect();
        moves.sort_by_key(|(v, _)| -v);
        let mut best = if in_check { -INFINITE } else { alpha };
        for (_, m) in moves {
            pos.do_move(m);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.undo_move(m);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// TT move, then captures by victim value, then killers, then the rest by history.
    fn order(&self, pos: &Position, list: &MoveList, tt_move: Option<Move>, ply: usize) -> Vec<Move> {
        let mut scored: Vec<(i32, Move)> = list
            .iter()
            .map(|&m| {
                let s = if Some(m) == tt_move {
                    1 << 30
                } else if let Some(victim) = (!m.is_drop()).then(|| pos.piece_on(m.to())).flatten() {
                    (1 << 28) + board_value(victim.kind()) * 16
                        - pos.piece_on(m.from()).map_or(0, |p| board_value(p.kind())) / 16
                } else if self.killers[ply].contains(&Some(m)) {
                    1 << 27
                } else if m.is_drop() {
                    0
                } else {
                    self.history[m.from().index()][m.to().index()]
                };
                (s, m)
            })
            .collect();
        scored.sort_by_key(|(s, _)| -s);
        scored.into_iter().map(|(_, m)| m).collect()
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
