//! Repetition (sennichite) and perpetual check.
//!
//! The official rule: the game ends when the same position (board, hands and side to move)
//! occurs for the fourth time. It is a draw, unless one side gave check with every one of its
//! moves in the cycle; that side loses. Search engines instead look for the *first*
//! recurrence (a repeated position is treated as its final result at once), and also
//! recognise the same board with hands that are strictly better or worse for the side to
//! move (superior/inferior repetition). Both views are offered.

use crate::position::Position;

/// The repetition status of the current position, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// No repetition.
    None,
    /// A draw by repetition.
    Draw,
    /// The side to move wins: the opponent gave check on every move of the cycle.
    Win,
    /// The side to move loses: it gave check on every move of the cycle.
    Loss,
    /// The same board and side to move, with the side to move holding strictly more in hand.
    Superior,
    /// The same board and side to move, with the side to move holding strictly less in hand.
    Inferior,
}

impl Position {
    /// Search view: the result of the nearest earlier occurrence of this position within
    /// `max_plies` plies (and not across a null move), judged at the first recurrence.
    pub fn repetition(&self, max_plies: usize) -> Repetition {
        let states = self.history();
        let n = states.len() - 1;
        let cur = &states[n];
        let limit = (cur.plies_from_null as usize).min(max_plies).min(n);
        let mut d = 4;
        while d <= limit {
            let old = &states[n - d];
            if old.board_key == cur.board_key {
                if old.hand_key == cur.hand_key {
                    return self.cycle_result(d);
                }
                if cur.stm_hand.dominates(old.stm_hand) {
                    return Repetition::Superior;
                }
                if old.stm_hand.dominates(cur.stm_hand) {
                    return Repetition::Inferior;
                }
            }
            d += 2;
        }
        Repetition::None
    }

    /// Game view: `Draw`, `Win` or `Loss` once the current position occurs for the fourth
    /// time (perpetual check judged over the plies since its first occurrence), else `None`.
    pub fn game_repetition(&self) -> Repetition {
        let states = self.history();
        let n = states.len() - 1;
        let cur = &states[n];
        let limit = (cur.plies_from_null as usize).min(n);
        let mut seen = 0;
        let mut d = 4;
        while d <= limit {
            let old = &states[n - d];
            if old.board_key == cur.board_key && old.hand_key == cur.hand_key {
                seen += 1;
                if seen == 3 {
                    return self.cycle_result(d);
                }
            }
            d += 2;
        }
        Repetition::None
    }

    /// The result of a cycle of `plies` plies ending in the current position.
    fn cycle_result(&self, plies: usize) -> Repetition {
        let st = self.history().last().map_or([0, 0], |s| s.continuous_checks);
        let us = self.side_to_move();
        // Each side made plies / 2 moves in the cycle.
        let moves_each = (plies / 2) as u16;
        if st[(!us).index()] >= moves_each {
            Repetition::Win
        } else if st[us.index()] >= moves_each {
            Repetition::Loss
        } else {
            Repetition::Draw
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(sfen: &str, moves: &str) -> Position {
        let mut p = Position::from_sfen(sfen).unwrap();
        for t in moves.split_whitespace() {
            let m = p.parse_move(t).unwrap();
            p.do_move(m);
        }
        p
    }

    #[test]
    fn quiet_cycle_is_a_draw() {
        let p = play(crate::STARTPOS_SFEN, "5i5h 5a5b 5h5i 5b5a");
        assert_eq!(p.repetition(16), Repetition::Draw);
        assert_eq!(p.game_repetition(), Repetition::None);
        let p = play(
            crate::STARTPOS_SFEN,
            "5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a",
        );
        assert_eq!(p.game_repetition(), Repetition::Draw);
    }

    #[test]
    fn perpetual_check_loses() {
        let p = play("2k6/9/KR7/9/9/9/9/9/9 b - 1", "8c7c 7a8a 7c8c 8a7a");
        assert_eq!(p.repetition(16), Repetition::Loss);
        let p = play("2k6/9/KR7/9/9/9/9/9/9 b - 1", "8c7c 7a8a 7c8c 8a7a 8c7c");
        assert_eq!(p.repetition(16), Repetition::Win);
    }
}
