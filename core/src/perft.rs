//! Perft: the number of leaf nodes of the legal move tree, non-promotions included, with
//! bulk counting at the last ply (the size of the legal list is the count).

use crate::movegen::{MoveList, count_legal, generate_legal};
use crate::mv::Move;
use crate::position::Position;

/// Leaf count at `depth` plies.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_legal::<true>(pos) as u64;
    }
    let mut list = MoveList::new();
    generate_legal::<true>(pos, &mut list);
    let mut nodes = 0;
    for &m in &list {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move(m);
    }
    nodes
}

/// Leaf count per root move (for comparing against another generator).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut list = MoveList::new();
    generate_legal::<true>(pos, &mut list);
    for &m in &list {
        pos.do_move(m);
        out.push((m, perft(pos, depth - 1)));
        pos.undo_move(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow() {
        let mut p = Position::startpos();
        let expect = [1u64, 30, 900, 25_470, 719_731];
        for (d, &n) in expect.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32), n, "depth {d}");
        }
    }

    #[test]
    fn max_moves_position() {
        let mut p = Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap();
        assert_eq!(perft(&mut p, 1), 593);
        assert_eq!(perft(&mut p, 2), 105_677);
    }
}
