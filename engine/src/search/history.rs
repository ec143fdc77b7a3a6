//! Move-ordering statistics of one search thread: killers, counter moves, the butterfly
//! history (colour × origin or dropped kind × target), the continuation history (the piece
//! and target of the previous move → the piece and target of this one) and the capture
//! history (moved piece × target × captured kind).
//!
//! Every table is updated with "gravity": a bonus `b` moves an entry `h` by
//! `b - h·|b| / LIMIT`, so entries stay within ±`LIMIT` and old evidence fades.

use soppo_core::{Color, Move, Piece, PieceKind, Position, Square};
use std::sync::{Mutex, MutexGuard, PoisonError};

pub const LIMIT: i32 = 16_384;
/// Origins: the 81 squares, then one slot per droppable kind.
const ORIGINS: usize = 81 + 16;
/// A (piece, target) pair: the piece's dense index (0..32) × 81.
pub const PIECE_TO: usize = 32 * 81;

pub const MAX_PLY: usize = 128;

/// The (piece, target) index of a move about to be played in `pos`.
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let us = pos.side_to_move();
    let piece = if m.is_drop() {
        Piece::new(us, m.dropped_kind())
    } else {
        match pos.piece_on(m.from()) {
            Some(p) if m.is_promotion() => Piece::new(us, p.kind().promote()),
            Some(p) => p,
            None => Piece::new(us, PieceKind::Pawn),
        }
    };
    piece.index() * 81 + m.to().index()
}

fn origin(m: Move) -> usize {
    if m.is_drop() {
        81 + m.dropped_kind().index()
    } else {
        m.from().index()
    }
}

fn gravity(h: &mut i16, bonus: i32) {
    let v = i32::from(*h);
    let b = bonus.clamp(-LIMIT, LIMIT);
    *h = (v + b - v * b.abs() / LIMIT) as i16;
}

/// The bonus for a move that caused (or, negated, failed to cause) a cut-off at `depth`.
pub fn stat_bonus(depth: i32) -> i32 {
    (depth * 170 - 80).clamp(0, 1600)
}

pub struct History {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    counter: Box<[Option<Move>]>,
    butterfly: Box<[i16]>,
    continuation: Box<[i16]>,
    capture: Box<[i16]>,
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            counter: vec![None; PIECE_TO].into_boxed_slice(),
            butterfly: vec![0; 2 * ORIGINS * Square::COUNT].into_boxed_slice(),
            // Zeroed pages come from the allocator at no cost until touched.
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            capture: vec![0; PIECE_TO * 16].into_boxed_slice(),
        }
    }

    fn butterfly_index(c: Color, m: Move) -> usize {
        (c.index() * ORIGINS + origin(m)) * Square::COUNT + m.to().index()
    }

    pub fn butterfly(&self, c: Color, m: Move) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(c, m)])
    }

    /// Continuation score of a move with (piece, target) `pt` after a move with `prev`.
    pub fn continuation(&self, prev: Option<usize>, pt: usize) -> i32 {
        prev.map_or(0, |p| i32::from(self.continuation[p * PIECE_TO + pt]))
    }

    pub fn capture(&self, pt: usize, captured: PieceKind) -> i32 {
        i32::from(self.capture[pt * 16 + captured.index()])
    }

    pub fn counter(&self, prev: Option<usize>) -> Option<Move> {
        prev.and_then(|p| self.counter[p])
    }

    /// A quiet move's ordering score: butterfly plus the continuations one and two plies back.
    pub fn quiet_score(&self, c: Color, m: Move, pt: usize, prev1: Option<usize>, prev2: Option<usize>) -> i32 {
        self.butterfly(c, m) + self.continuation(prev1, pt) + self.continuation(prev2, pt) / 2
    }

    /// A quiet move `best` caused a cut-off; `tried` are the quiet moves searched before it.
    #[allow(clippy::too_many_arguments)]
    pub fn update_quiet(
        &mut self,
        c: Color,
        best: (Move, usize),
        tried: &[(Move, usize)],
        prev1: Option<usize>,
        prev2: Option<usize>,
        ply: usize,
        depth: i32,
    ) {
        let bonus = stat_bonus(depth);
        let k = &mut self.killers[ply];
        if k[0] != Some(best.0) {
            k[1] = k[0];
            k[0] = Some(best.0);
        }
        if let Some(p) = prev1 {
            self.counter[p] = Some(best.0);
        }
        self.quiet_bonus(c, best, prev1, prev2, bonus);
        for &t in tried {
            self.quiet_bonus(c, t, prev1, prev2, -bonus);
        }
    }

    fn quiet_bonus(
        &mut self,
        c: Color,
        (m, pt): (Move, usize),
        prev1: Option<usize>,
        prev2: Option<usize>,
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[Self::butterfly_index(c, m)], bonus);
        for p in [prev1, prev2].into_iter().flatten() {
            gravity(&mut self.continuation[p * PIECE_TO + pt], bonus);
        }
    }

    /// A capture caused a cut-off, or failed to (negative bonus).
    pub fn update_capture(&mut self, pt: usize, captured: PieceKind, bonus: i32) {
        gravity(&mut self.capture[pt * 16 + captured.index()], bonus);
    }

    /// Killers two plies down belong to another part of the tree.
    pub fn clear_killers(&mut self, ply: usize) {
        if ply < self.killers.len() {
            self.killers[ply] = [None; 2];
        }
    }
}

/// The move-ordering statistics of every search thread, kept from one search to the next
/// within a game: a move that refuted a plan a move ago usually still does, and a search of
/// 200 ms would otherwise spend a good part of its nodes relearning that. `usinewgame` clears
/// them; killers, which belong to plies of one tree, are dropped at every search.
#[derive(Default)]
pub struct Histories(Mutex<Vec<History>>);

impl Histories {
    pub fn new() -> Histories {
        Histories::default()
    }

    /// A search thread that panicked cannot leave the tables half-written in a way that
    /// matters (they are only hints), so a poisoned lock is used as it is.
    fn lock(m: &Mutex<Vec<History>>) -> MutexGuard<'_, Vec<History>> {
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Forgets every statistic (a new game).
    pub fn clear(&self) {
        Self::lock(&self.0).clear();
    }

    /// The tables of `threads` threads: the kept ones first, fresh ones for the rest. The
    /// store is left empty until [`Histories::put_back`], so a search that overlapped another
    /// (which the controller does not start) would only begin with fresh tables.
    pub(super) fn take(&self, threads: usize) -> Vec<History> {
        let mut kept = std::mem::take(&mut *Self::lock(&self.0));
        kept.truncate(threads);
        while kept.len() < threads {
            kept.push(History::new());
        }
        for h in &mut kept {
            h.killers = [[None; 2]; MAX_PLY + 2];
        }
        kept
    }

    /// For tests: the number of tables kept and of butterfly entries they have learned.
    #[cfg(test)]
    pub(super) fn learned(&self) -> (usize, usize) {
        let kept = Self::lock(&self.0);
        let entries = kept
            .iter()
            .map(|h| h.butterfly.iter().filter(|&&v| v != 0).count())
            .sum();
        (kept.len(), entries)
    }

    /// Keeps the tables for the next search.
    pub(super) fn put_back(&self, tables: Vec<History>) {
        *Self::lock(&self.0) = tables;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_stays_within_the_limit_and_fades() {
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, 1600);
        }
        assert!(i32::from(h) <= LIMIT && i32::from(h) > LIMIT - 200, "{h}");
        let top = h;
        gravity(&mut h, -1600);
        assert!(h < top);
    }

    #[test]
    fn a_cutoff_makes_a_killer_and_raises_its_score_over_the_tried_moves() {
        let pos = Position::startpos();
        let mut hist = History::new();
        let a = pos.parse_move("7g7f").unwrap();
        let b = pos.parse_move("2g2f").unwrap();
        let (pa, pb) = (piece_to(&pos, a), piece_to(&pos, b));
        hist.update_quiet(Color::Black, (a, pa), &[(b, pb)], None, None, 3, 6);
        assert_eq!(hist.killers[3][0], Some(a));
        assert!(hist.quiet_score(Color::Black, a, pa, None, None) > 0);
        assert!(hist.quiet_score(Color::Black, b, pb, None, None) < 0);
    }
}
