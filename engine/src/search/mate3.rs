//! Short mate search at search nodes, gated by the static 3-ply mate score.
//!
//! A 3-ply mate search costs about as much as searching every check with all its replies, far
//! too much for every node. Tanaka et al.'s static score ([`soppo_core::mate_eval`]) says
//! where it is worth it: only where the score reaches [`MATE3_GATE`], which on held-out data
//! picks out 84 % of the 3-ply mates with 96 % precision on a balanced set (51 % on raw game
//! positions; docs/RESULTS.md).

use soppo_core::mate_eval::mate3_score;
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::{Move, Position};

/// The score from which the 3-ply mate search runs (the paper's "almost always mate").
pub const MATE3_GATE: f32 = 60.0;

/// Whether the static score says a 3-ply mate search is worth running here.
pub fn worth_trying(pos: &Position) -> bool {
    mate3_score(pos) >= MATE3_GATE
}

/// A check after which every reply allows a mate in one (game rules), if there is one. The side
/// to move must not be in check. A reply that checks back is taken as a refutation (the mate
/// in one routine needs the attacker out of check): this may miss a mate, never invent one.
pub fn mate_in_three(pos: &mut Position) -> Option<Move> {
    debug_assert!(!pos.in_check());
    let mut checks = MoveList::new();
    generate_checks::<false>(pos, &mut checks);
    checks.iter().copied().find(|&m| {
        pos.do_move(m);
        let mut replies = MoveList::new();
        generate_legal::<false>(pos, &mut replies);
        let mated = !replies.is_empty()
            && replies.iter().all(|&e| {
                pos.do_move(e);
                let ok = !pos.in_check() && pos.mate_in_one().is_some();
                pos.undo_move(e);
                ok
            });
        pos.undo_move(m);
        mated
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use soppo_core::movegen::generate_checks;

    /// An independent brute force over all checks and all replies, with non-promotions.
    fn brute_mate3(pos: &mut Position) -> bool {
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        checks.iter().copied().any(|m| {
            pos.do_move(m);
            let replies = pos.legal_moves();
            let ok = !replies.is_empty()
                && replies.iter().all(|&e| {
                    pos.do_move(e);
                    let mut c = MoveList::new();
                    generate_checks::<true>(pos, &mut c);
                    let ok = c.iter().copied().any(|k| {
                        pos.do_move(k);
                        let mate = pos.is_checkmate();
                        pos.undo_move(k);
                        mate
                    });
                    pos.undo_move(e);
                    ok
                });
            pos.undo_move(m);
            ok
        })
    }

    #[test]
    fn finds_a_three_ply_mate_and_only_real_ones() {
        // 1. G*5b is not mate, but two silvers and a gold mate in 3.
        let mut pos = Position::from_sfen("3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1").unwrap();
        let m = mate_in_three(&mut pos).expect("a 3-ply mate");
        pos.do_move(m);
        assert!(pos.in_check());
        pos.undo_move(m);
        let mut quiet = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(mate_in_three(&mut quiet), None);
        assert!(!brute_mate3(&mut quiet));
    }

    /// Never a false mate: wherever it answers, the brute force agrees (`mate_in_three` may miss
    /// mates whose replies check back, or that need a non-promotion).
    #[test]
    fn agrees_with_brute_force_on_typed_positions() {
        for sfen in [
            "3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1",
            "ln1g3+Rl/2sk1s+P2/2ppppb1p/p1b3p2/8P/P4P3/2PPP1P2/1+r2GS3/LN+p2KGNL b GN2Ps 36",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4P4/9/9/9/9/9/4K4 b GS 1",
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            if pos.in_check() {
                continue;
            }
            if mate_in_three(&mut pos).is_some() {
                assert!(brute_mate3(&mut pos), "{sfen}");
            }
        }
    }
}
