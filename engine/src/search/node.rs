//! The main alpha-beta node (PVS with all of its pruning, reductions and extensions).

use super::history::{MAX_PLY, piece_to, stat_bonus};
use super::picker::{Kind, MovePicker};
use super::see::see_ge;
use super::{INFINITE, MATE, MATE_BOUND, Searcher, mate3, score_from_tt, score_to_tt, soppo};
use crate::tt::{Bound, NO_EVAL};
use soppo_core::repetition::Repetition;
use soppo_core::{Move, PieceKind, Position};

impl Searcher<'_, '_> {
    #[allow(clippy::too_many_lines)]
    pub(super) fn search<const PV: bool>(
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
            return self.evaluate(pos);
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
        // Set while this node is searched again without its table move (singular extension):
        // that search must neither use nor overwrite the node's table entry.
        let excluded = self.stack[ply].excluded;
        self.hist.clear_killers(ply + 1);
        let key = pos.key();
        let tt_hit = self.shared.tt.probe(key);
        let tt_move = tt_hit.and_then(|h| h.mv).filter(|&m| pos.is_legal_move(m));
        let tt_score = tt_hit.map(|h| score_from_tt(h.score, ply));
        if let Some(h) = tt_hit
            && !PV
            && excluded.is_none()
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
        // Every table entry is stored after its node's own mate-in-one test (it depends on
        // the position alone), so an entry without a mate score says there is none to find.
        debug_assert!(
            in_check || tt_score.is_none_or(|s| s >= MATE_BOUND) || pos.mate_in_one().is_none(),
            "a table entry without a mate score for a position with a mate in one: {}",
            pos.to_sfen()
        );
        if !in_check
            && excluded.is_none()
            && tt_score.is_none_or(|s| s >= MATE_BOUND)
            && let Some(m) = pos.mate_in_one()
        {
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
                _ => self.evaluate(pos),
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

        let tp = *self.tp();
        if !PV && !in_check && excluded.is_none() && eval.abs() < MATE_BOUND {
            // No razoring: in shogi a quiet drop far below alpha can still turn the game, and
            // matches at fixed nodes preferred the search without it.
            // Reverse futility: far above beta at low depth.
            let margin = tp.rfp_margin * depth - tp.rfp_improving * i32::from(improving);
            if depth <= 8 && eval - margin >= beta && beta > -MATE_BOUND {
                return eval.midpoint(beta);
            }
            // Null move: if passing still beats beta, a real move will too.
            if depth >= 3 && eval >= beta && !self.stack[ply - 1].null && beta > -MATE_BOUND && ply >= 1 {
                let r = 3 + depth / 4 + ((eval - beta) / tp.nmp_eval_div).min(3);
                self.stack[ply].piece_to = None;
                self.stack[ply].null = true;
                // The network's accumulators stay: a null move changes no input.
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

        // Likewise an entry of the main search (depth 1 or more) without a mate score was
        // stored after this position's 3-ply mate test had come back empty (a node that
        // finds a mate returns without storing; quiescence entries have depth 0 or less).
        // Entries left from searches with `StaticMateEval` off never ran the test: switching
        // it on mid-game only loses this shortcut on them (and trips the debug check).
        let known_no_mate3 = tt_hit.is_some_and(|h| h.depth >= 1) && tt_score.is_some_and(|s| s < MATE_BOUND);
        debug_assert!(
            !known_no_mate3
                || in_check
                || !self.settings().static_mate_eval
                || !mate3::worth_trying(pos)
                || mate3::mate_in_three(pos).is_none(),
            "a main-search entry without a mate score for a position with a 3-ply mate: {}",
            pos.to_sfen()
        );
        if !in_check
            && excluded.is_none()
            && !known_no_mate3
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
        // Move-count pruning. Stockfish's (3 + d²)/2 keeps only a handful of quiet moves at low
        // depth; shogi positions have about a hundred (drops), and at fixed nodes the milder
        // limit won clearly (docs/EXPERIMENTS.md).
        let lmp_limit =
            (tp.lmp_base + tp.lmp_mult * depth * depth / 10).max(0) as usize / if improving { 1 } else { 2 };

        while let Some(picked) = picker.next(pos, &self.hist) {
            let m = picked.mv;
            if Some(m) == excluded {
                continue;
            }
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
                    if !PV && lmr_depth <= 7 && eval != NO_EVAL && eval + tp.fut_base + tp.fut_mult * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= 3 && picked.kind == Kind::Quiet && picked.score < -tp.hist_prune * depth {
                        continue;
                    }
                    if lmr_depth <= 8 && !see_ge(pos, m, -tp.see_quiet * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 7 && !see_ge(pos, m, -tp.see_tactical * depth) {
                    continue;
                }
            }
            let mut extension = i32::from(gives_check && self.extends_check(pos, m, ply));
            // Singular extension: when every other move falls clearly short of the table
            // move's score, the table move is searched one ply deeper; when another move also
            // reaches beta, the node is cut at once (multi-cut).
            if Some(m) == tt_move
                && excluded.is_none()
                && depth >= 6
                && (ply as i32) < 2 * self.root_depth
                && let (Some(h), Some(tts)) = (tt_hit, tt_score)
                && h.depth >= depth - 3
                && h.bound != Bound::Upper
                && tts.abs() < MATE_BOUND
            {
                let singular_beta = tts - tp.singular_mult * depth / 10;
                self.stack[ply].excluded = Some(m);
                let v = self.search::<false>(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut_node);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tts >= beta {
                    extension -= 1;
                }
            }
            self.shared.tt.prefetch(pos.key_after(m));
            let pt = piece_to(pos, m);
            self.stack[ply].piece_to = Some(pt);
            // A child searched with a null window leaves no line: start it empty.
            self.pv_len[ply + 1] = ply + 1;
            self.make(pos, m);
            let new_depth = depth - 1 + extension;
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
                        r -= picked.score / tp.lmr_hist_div;
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
            self.unmake(pos, m);
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
            if excluded.is_some() {
                // Only the table move: it was left out, so nothing here reaches alpha.
                return alpha;
            }
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
        // A search without the table move must not overwrite the node's entry.
        if excluded.is_some() {
            return best;
        }
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval, depth, bound);
        best
    }

    /// Check extension: a check that does not lose material is searched one ply deeper, so
    /// that a forcing attack is not cut off at the horizon (in shogi most attacks are checks,
    /// drops included). A check that hangs the checking piece is usually a spite check and is
    /// not extended. Extensions stop beyond twice the root depth, as in Stockfish, so a long
    /// series of checks cannot make the search endless.
    fn extends_check(&self, pos: &Position, m: Move, ply: usize) -> bool {
        (ply as i32) < 2 * self.root_depth && see_ge(pos, m, 0)
    }
}
