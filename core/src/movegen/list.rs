//! A stack-allocated list of moves.

use crate::mv::Move;
use arrayvec::ArrayVec;
use std::ops::{Deref, DerefMut};

/// Room for every pseudo-legal move of any reachable position (the known maximum of legal
/// moves is 593; pseudo-legal lists add a few king steps and pinned-piece moves).
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack.
#[derive(Clone, Default)]
pub struct MoveList(ArrayVec<Move, MAX_MOVES>);

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList(ArrayVec::new())
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.0.push(m);
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Removes the move at `i`, moving the last move into its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, i: usize) -> Move {
        self.0.swap_remove(i)
    }

    /// Keeps the moves for which `f` is true, in order.
    #[inline]
    pub fn retain(&mut self, f: impl FnMut(&mut Move) -> bool) {
        self.0.retain(f);
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
