//! The root: iterative deepening, aspiration windows, `MultiPV` slots, and the answer.

use super::history::MAX_PLY;
use super::trend::Trend;
use super::{Decision, Frame, INFINITE, MATE, MATE_BOUND, NO_EVAL, SearchInfo, Searcher, piece_to};
use soppo_core::movegen::{MoveList, generate_legal};
use soppo_core::{Move, Position};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The result of one thread's iterative deepening.
pub(super) struct ThreadResult {
    lines: Vec<(i32, Vec<Move>)>,
    depth: u32,
    info: Option<SearchInfo>,
    moves: Vec<Move>,
}

impl Searcher<'_, '_> {
    /// Iterative deepening at the root; `report` gets each finished line (main thread only).
    pub(super) fn iterate(
        &mut self,
        pos: &mut Position,
        start: Instant,
        report: &mut dyn FnMut(SearchInfo),
    ) -> ThreadResult {
        if let Some(stack) = &mut self.nnue {
            stack.reset(pos);
        }
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
        let mut trend = Trend::new(moves.len());
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
            if self.is_main() {
                if let Some((score, pv)) = result.lines.first()
                    && let Some(&best) = pv.first()
                {
                    trend.record(best, *score, std::mem::take(&mut self.root_best_changes));
                }
                if self.shared.control.should_stop_after_iteration(trend.time_factor()) {
                    break;
                }
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
        let mut delta = self.tp().aspiration;
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
            excluded: None,
        };
        for i in pv_idx..moves.len() {
            let m = moves[i];
            let quiet = (m.is_drop() || (!m.is_promotion() && pos.piece_on(m.to()).is_none())) && !pos.gives_check(m);
            self.stack[0].piece_to = Some(piece_to(pos, m));
            self.pv_len[1] = 1;
            self.make(pos, m);
            let score = if i == pv_idx {
                -self.search::<true>(pos, depth - 1, -beta, -alpha, 1, false)
            } else {
                // Late quiet root moves are first searched shallower, as everywhere else:
                // shogi positions have about a hundred legal moves, and searching each of them
                // to the full depth spent most of an iteration on moves that never become best.
                let r = if quiet && depth >= 3 && i - pv_idx >= 4 {
                    (self.reduction(depth, i - pv_idx + 1) - 1).clamp(0, depth - 2)
                } else {
                    0
                };
                let mut s = -self.search::<false>(pos, depth - 1 - r, -alpha - 1, -alpha, 1, true);
                if r > 0 && s > alpha && !self.stopped {
                    s = -self.search::<false>(pos, depth - 1, -alpha - 1, -alpha, 1, true);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search::<true>(pos, depth - 1, -beta, -alpha, 1, false);
                }
                s
            };
            self.unmake(pos, m);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha || i == pv_idx {
                    if i > pv_idx && pv_idx == 0 {
                        // Another move takes the lead: the time manager reads this as unrest.
                        self.root_best_changes += 1;
                    }
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
    pub(super) fn decide(&self, can_declare: bool, result: ThreadResult) -> (Decision, Option<SearchInfo>) {
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
        // `ResignValue` is in centipawns as USI reports them.
        if (*score <= -MATE_BOUND || (resign_value < 99_999 && crate::eval::to_centipawns(*score) <= -resign_value))
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
