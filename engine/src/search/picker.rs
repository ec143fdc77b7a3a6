//! The staged move picker of the main search: the table move first (before any move is
//! generated), then captures and promotions that do not lose material by SEE (most valuable
//! victim first, capture history breaking ties), the two killers and the counter move, the
//! quiet moves by history, and last the captures that lose material. In check, every evasion
//! is scored in one list: captures by victim, then quiet evasions by history.

use super::history::{History, piece_to};
use super::see::{capture_gain, see_ge};
use arrayvec::ArrayVec;
use soppo_core::movegen::{MoveList, generate_legal};
use soppo_core::{Move, Position};

/// More than the most legal moves a shogi position can have (593).
const MAX_MOVES: usize = 600;
type Scored = ArrayVec<(i32, Move), MAX_MOVES>;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TableMove,
    Generate,
    GoodCaptures,
    Refutations,
    Quiets,
    BadCaptures,
    Evasions,
    Done,
}

/// Where a picked move came from; the search prunes and reduces by it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    TableMove,
    GoodCapture,
    Refutation,
    Quiet,
    BadCapture,
    Evasion,
}

pub struct Picked {
    pub mv: Move,
    pub kind: Kind,
    /// Ordering score (history for quiets).
    pub score: i32,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    refutation_index: usize,
    captures: Scored,
    bad_captures: Scored,
    quiets: Scored,
    next: usize,
    prev1: Option<usize>,
    prev2: Option<usize>,
    /// Skip quiet moves (late-move pruning decided the rest are not worth it).
    pub skip_quiets: bool,
}

fn is_tactical(pos: &Position, m: Move) -> bool {
    !m.is_drop() && (pos.piece_on(m.to()).is_some() || m.is_promotion())
}

/// Picks the best-scored move of `list[from..]`, moving it to position `from`.
fn pick_best(list: &mut [(i32, Move)], from: usize) -> Option<(i32, Move)> {
    let rest = list.get_mut(from..)?;
    let (best, _) = rest.iter().enumerate().max_by_key(|(_, (s, _))| *s)?;
    rest.swap(0, best);
    Some(rest[0])
}

impl MovePicker {
    pub fn new(
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        prev1: Option<usize>,
        prev2: Option<usize>,
    ) -> MovePicker {
        let killers = hist.killers[ply];
        MovePicker {
            stage: if tt_move.is_some() {
                Stage::TableMove
            } else {
                Stage::Generate
            },
            tt_move,
            refutations: [killers[0], killers[1], hist.counter(prev1)],
            refutation_index: 0,
            captures: Scored::new(),
            bad_captures: Scored::new(),
            quiets: Scored::new(),
            next: 0,
            prev1,
            prev2,
            skip_quiets: false,
        }
    }

    fn generate(&mut self, pos: &Position, hist: &History) {
        let mut list = MoveList::new();
        generate_legal::<false>(pos, &mut list);
        let us = pos.side_to_move();
        let in_check = pos.in_check();
        for &m in &list {
            if Some(m) == self.tt_move {
                continue;
            }
            let pt = piece_to(pos, m);
            if is_tactical(pos, m) {
                let captured = pos
                    .piece_on(m.to())
                    .map_or(soppo_core::PieceKind::Pawn, soppo_core::Piece::kind);
                let s = capture_gain(pos, m) * 16 + hist.capture(pt, captured) / 8;
                if in_check {
                    self.quiets.push(((1 << 24) + s, m));
                } else {
                    self.captures.push((s, m));
                }
            } else {
                let s = hist.quiet_score(us, m, pt, self.prev1, self.prev2);
                self.quiets.push((s, m));
            }
        }
        if in_check {
            self.stage = Stage::Evasions;
        } else {
            self.stage = Stage::GoodCaptures;
        }
        self.next = 0;
    }

    /// The next move to search, or `None` when all are done. Every move returned is legal.
    pub fn next(&mut self, pos: &Position, hist: &History) -> Option<Picked> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::Generate;
                    if let Some(m) = self.tt_move {
                        return Some(Picked {
                            mv: m,
                            kind: Kind::TableMove,
                            score: i32::MAX,
                        });
                    }
                }
                Stage::Generate => self.generate(pos, hist),
                Stage::GoodCaptures => {
                    if let Some((s, m)) = pick_best(&mut self.captures, self.next) {
                        self.next += 1;
                        // A capture that loses more than a tenth of its own score waits.
                        if see_ge(pos, m, -s / 160) {
                            return Some(Picked {
                                mv: m,
                                kind: Kind::GoodCapture,
                                score: s,
                            });
                        }
                        self.bad_captures.push((s, m));
                    } else {
                        self.stage = Stage::Refutations;
                    }
                }
                Stage::Refutations => {
                    while self.refutation_index < 3 {
                        let r = self.refutations[self.refutation_index];
                        self.refutation_index += 1;
                        let Some(m) = r else { continue };
                        // Refutations must be quiet moves of this position, given once.
                        if Some(m) == self.tt_move || self.refutations[..self.refutation_index - 1].contains(&Some(m)) {
                            continue;
                        }
                        if let Some(i) = self.quiets.iter().position(|&(_, q)| q == m) {
                            self.quiets.swap_remove(i);
                            return Some(Picked {
                                mv: m,
                                kind: Kind::Refutation,
                                score: 0,
                            });
                        }
                    }
                    self.stage = Stage::Quiets;
                    self.next = 0;
                }
                Stage::Quiets => {
                    if !self.skip_quiets
                        && let Some((s, m)) = pick_best(&mut self.quiets, self.next)
                    {
                        self.next += 1;
                        return Some(Picked {
                            mv: m,
                            kind: Kind::Quiet,
                            score: s,
                        });
                    }
                    self.stage = Stage::BadCaptures;
                    self.next = 0;
                }
                Stage::BadCaptures => {
                    if let Some(&(s, m)) = self.bad_captures.get(self.next) {
                        self.next += 1;
                        return Some(Picked {
                            mv: m,
                            kind: Kind::BadCapture,
                            score: s,
                        });
                    }
                    self.stage = Stage::Done;
                }
                Stage::Evasions => {
                    if let Some((s, m)) = pick_best(&mut self.quiets, self.next) {
                        self.next += 1;
                        return Some(Picked {
                            mv: m,
                            kind: Kind::Evasion,
                            score: s,
                        });
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use soppo_core::movegen::generate_legal;
    use std::collections::HashSet;

    fn legal(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        generate_legal::<false>(pos, &mut list);
        list.iter().copied().collect()
    }

    /// Every move the picker gives, in order.
    fn picked(pos: &Position, tt_move: Option<Move>, killers: [Option<Move>; 2]) -> Vec<Move> {
        let mut hist = History::new();
        hist.killers[3] = killers;
        let mut picker = MovePicker::new(tt_move, &hist, 3, None, None);
        let mut out = Vec::new();
        while let Some(p) = picker.next(pos, &hist) {
            out.push(p.mv);
        }
        out
    }

    /// The picker gives exactly the legal moves the search generates, each once, whatever
    /// the table move and whatever killers (legal here or not, quiet or not) it is handed.
    #[test]
    fn picks_every_legal_move_once() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            // Both sides with hands, a pinned piece and promotions on both sides.
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 124",
            // In check, with interpositions by drops possible.
            "4k4/9/4r4/9/9/9/9/9/4K4 b GSNL2Pr2b3g3s3n3l16p 1",
            "ln1g3nl/1r3kg2/p1pppp1p1/6p1p/1p1s3P1/2P1P1P1P/PPSP1P3/2G1G2R1/LN2K2NL b BSbsp 31",
        ];
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let mut checked = 0;
        for sfen in sfens {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let mut foreign: Vec<Move> = Vec::new();
            for _ in 0..60 {
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                let expected: HashSet<Move> = moves.iter().copied().collect();
                for trial in 0..4 {
                    let tt = (trial % 2 == 1).then(|| moves[next(moves.len())]);
                    // Killers from this position and from earlier ones (mostly not legal here).
                    let mut pool = moves.clone();
                    pool.extend(&foreign);
                    let killers = [Some(pool[next(pool.len())]), Some(pool[next(pool.len())])];
                    let got = picked(&pos, tt, killers);
                    let got_set: HashSet<Move> = got.iter().copied().collect();
                    assert_eq!(got.len(), got_set.len(), "a move given twice in {}", pos.to_sfen());
                    assert_eq!(
                        got_set,
                        expected,
                        "picked set differs from the legal set in {}",
                        pos.to_sfen()
                    );
                    if let Some(t) = tt {
                        assert_eq!(got[0], t, "table move not first in {}", pos.to_sfen());
                    }
                    checked += 1;
                }
                foreign.extend(moves.iter().copied().take(8));
                let m = moves[next(moves.len())];
                pos.do_move(m);
            }
        }
        assert!(checked > 500, "only {checked} positions checked");
    }
}
