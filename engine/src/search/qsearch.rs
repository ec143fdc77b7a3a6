//! Quiescence search: captures and promotions (SEE- and delta-pruned), quiet checks at the
//! first ply (SEE-pruned), every evasion when in check, and mate in one.

use super::history::MAX_PLY;
use super::see::{capture_gain, see_ge};
use super::{INFINITE, MATE, MATE_BOUND, Searcher, score_from_tt, score_to_tt};
use crate::eval::board_value;
use crate::tt::{Bound, NO_EVAL};
use soppo_core::movegen::{MoveList, generate_captures, generate_evasions};
use soppo_core::{Move, Position};

impl Searcher<'_, '_> {
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos);
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
            // As in the main search: an entry without a mate score was stored after this
            // position's mate-in-one test had failed.
            let known_no_mate = tt_hit.is_some_and(|h| score_from_tt(h.score, ply) < MATE_BOUND);
            debug_assert!(
                !known_no_mate || pos.mate_in_one().is_none(),
                "a table entry without a mate score for a position with a mate in one: {}",
                pos.to_sfen()
            );
            if !known_no_mate && let Some(m) = pos.mate_in_one() {
                if PV {
                    self.single_pv(ply, m);
                }
                return MATE - ply as i32 - 1;
            }
            eval = match tt_hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.evaluate(pos),
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
            if qply == 0 {
                // Quiet checks (drops included) at the first quiescence ply: in shogi a drop
                // check wins material or mates as often as a capture does. Deeper plies stay
                // captures only, so the check sequence ends.
                let mut checks = MoveList::new();
                soppo_core::movegen::generate_checks::<false>(pos, &mut checks);
                for &m in &checks {
                    if m.is_drop() || (pos.piece_on(m.to()).is_none() && !m.is_promotion()) {
                        list.push(m);
                    }
                }
            }
        }
        // Most valuable victim first, least valuable attacker second. The scored list is
        // filled in place and read by reference: collecting it and moving it into the loop
        // copied its 4.8 KB twice a node (4 % of the search's time).
        let mut moves: arrayvec::ArrayVec<(i32, Move), 600> = arrayvec::ArrayVec::new();
        for &m in &list {
            let (victim, attacker) = if m.is_drop() {
                (0, 0)
            } else {
                (
                    pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind())),
                    pos.piece_on(m.from()).map_or(0, |p| board_value(p.kind())),
                )
            };
            moves.push((victim * 16 - attacker / 16, m));
        }
        moves.sort_unstable_by_key(|(v, _)| -v);
        let mut best_move = None;
        for &(_, m) in &moves {
            if !in_check {
                if !pos.is_legal(m) {
                    continue;
                }
                // Delta pruning: even winning the victim outright does not reach alpha.
                if eval + capture_gain(pos, m) + self.tp().qs_delta <= alpha && !pos.gives_check(m) {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            self.shared.tt.prefetch(pos.key_after(m));
            self.pv_len[ply + 1] = ply + 1;
            self.make(pos, m);
            let score = -self.qsearch::<PV>(pos, -beta, -alpha, ply + 1, qply + 1);
            self.unmake(pos, m);
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
