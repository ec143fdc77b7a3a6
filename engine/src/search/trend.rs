//! How settled the root is, iteration by iteration, and so how much of its planned time a
//! move on a carry-over clock (sudden death, Fischer) should take.
//!
//! A search whose best move has not changed for many iterations and whose score holds will
//! rarely change its mind if it goes on, so it answers early and leaves the time for later
//! moves; one whose best move keeps changing, or whose score is falling, is where more time
//! decides the game. The three factors follow Stockfish's time management (best-move
//! stability, best-move changes, falling evaluation); the constants are ours, scaled to
//! Soppo's score units (a pawn is about 100).

use soppo_core::Move;

/// Consecutive iterations with the same best move after which the move counts as settled.
const SETTLED_ITERATIONS: u32 = 6;
/// The time factor of a settled best move.
const SETTLED_FACTOR: f64 = 0.65;
/// The time factor of a best move that changed in the last iteration or two.
const FRESH_FACTOR: f64 = 1.15;
/// How much each (decayed) change of the best move adds.
const CHANGE_WEIGHT: f64 = 0.8;
/// Score units of fall (against the mean of the earlier iterations) that add 100 % time.
const FALL_PER_DOUBLING: f64 = 400.0;

/// What the main thread's iterations have shown so far in one search.
#[derive(Clone, Debug, Default)]
pub(super) struct Trend {
    best: Option<Move>,
    /// Completed iterations in a row that ended with `best`.
    same_best: u32,
    /// Changes of the best move, within and between iterations, halved at each iteration.
    changes: f64,
    /// The first line's score after each completed iteration.
    scores: Vec<i32>,
    /// The root has a single legal move.
    forced: bool,
}

impl Trend {
    pub(super) fn new(root_moves: usize) -> Trend {
        Trend {
            forced: root_moves == 1,
            ..Trend::default()
        }
    }

    /// Records a completed iteration: its best move and score, and how often the best move
    /// changed while it was searched.
    pub(super) fn record(&mut self, best: Move, score: i32, changes_within: u32) {
        self.changes = self.changes / 2.0 + f64::from(changes_within);
        if self.best == Some(best) {
            self.same_best += 1;
        } else {
            if self.best.is_some() {
                self.changes += 1.0;
            }
            self.best = Some(best);
            self.same_best = 1;
        }
        self.scores.push(score);
    }

    /// The factor to apply to the planned time: below 1 for a settled root, above 1 for an
    /// unsettled one; between 0.1 (a single legal move) and 2.5.
    pub(super) fn time_factor(&self) -> f64 {
        if self.forced {
            return 0.1;
        }
        let Some((&last, earlier)) = self.scores.split_last() else {
            return 1.0;
        };
        let stability = if self.same_best >= SETTLED_ITERATIONS {
            SETTLED_FACTOR
        } else if self.same_best <= 2 && self.scores.len() > 2 {
            FRESH_FACTOR
        } else {
            1.0
        };
        let instability = 1.0 + CHANGE_WEIGHT * self.changes.min(2.0);
        // Mate scores say nothing about a fall in the usual sense: they are left out.
        let falling = if earlier.is_empty() || last.abs() >= super::MATE_BOUND {
            1.0
        } else {
            // The mean of the last four iterations before this one (mates left out).
            let (sum, count) = earlier[earlier.len().saturating_sub(4)..]
                .iter()
                .filter(|s| s.abs() < super::MATE_BOUND)
                .fold((0.0, 0.0), |(sum, count), &s| (sum + f64::from(s), count + 1.0));
            if count == 0.0 {
                1.0
            } else {
                (1.0 + (sum / count - f64::from(last)) / FALL_PER_DOUBLING).clamp(0.8, 1.6)
            }
        };
        (stability * instability * falling).clamp(0.1, 2.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use soppo_core::Position;
    use soppo_core::movegen::{MoveList, generate_legal};

    fn two_moves() -> (Move, Move) {
        let pos = Position::startpos();
        let mut list = MoveList::new();
        generate_legal::<false>(&pos, &mut list);
        (list[0], list[1])
    }

    #[test]
    fn a_settled_root_with_a_steady_score_takes_less_than_planned() {
        let (a, _) = two_moves();
        let mut t = Trend::new(30);
        for d in 0..10 {
            t.record(a, 50 + d % 2, 0);
        }
        let f = t.time_factor();
        assert!(f < 0.8, "{f}");
    }

    #[test]
    fn a_changing_best_move_takes_more_than_planned() {
        let (a, b) = two_moves();
        let mut t = Trend::new(30);
        for d in 0..10 {
            t.record(if d % 2 == 0 { a } else { b }, 50, 1);
        }
        let f = t.time_factor();
        assert!(f > 1.5, "{f}");
        assert!(f <= 2.5, "{f}");
    }

    #[test]
    fn a_falling_score_takes_more_than_a_steady_one() {
        let (a, _) = two_moves();
        let mut steady = Trend::new(30);
        let mut falling = Trend::new(30);
        for d in 0..8 {
            steady.record(a, 100, 0);
            falling.record(a, 100 - 60 * d, 0);
        }
        assert!(falling.time_factor() > steady.time_factor() * 1.3);
        // A rise is no reason to hurry more than a steady score.
        let mut rising = Trend::new(30);
        for d in 0..8 {
            rising.record(a, 100 + 60 * d, 0);
        }
        assert!(rising.time_factor() >= steady.time_factor() * 0.8);
    }

    #[test]
    fn mate_scores_are_not_read_as_a_fall() {
        let (a, _) = two_moves();
        let mut t = Trend::new(30);
        for _ in 0..8 {
            t.record(a, 100, 0);
        }
        let before = t.time_factor();
        t.record(a, -(super::super::MATE - 9), 0);
        assert!((t.time_factor() - before).abs() < 1e-9);
    }

    #[test]
    fn a_single_legal_move_is_played_at_once_and_nothing_recorded_means_as_planned() {
        let (a, _) = two_moves();
        let mut t = Trend::new(1);
        t.record(a, 0, 0);
        assert!(t.time_factor() <= 0.1);
        assert!((Trend::new(30).time_factor() - 1.0).abs() < 1e-9);
    }
}
