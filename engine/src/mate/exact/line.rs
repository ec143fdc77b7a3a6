//! The answer line of the exact search: the shortest mate, the longest counted defence, and
//! among equal defences the one leaving the attacker the fewest pieces.

use super::{Exact, InterpositionGap};
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::{Move, Position};

impl Exact<'_> {
    /// The counted evasions of a defender-to-move position whose longest defence is `m` plies
    /// that defend that long: the defender's candidate moves for the answer line. Useless
    /// interpositions are never among them.
    pub(crate) fn longest_defences(&mut self, pos: &mut Position, m: i32) -> Vec<Move> {
        let mut evasions = MoveList::new();
        generate_legal::<true>(pos, &mut evasions);
        let gap = InterpositionGap::of(pos);
        let is_interposition = |e: Move| gap.is_some_and(|g| g.is_interposition(e));
        let mut longest = Vec::new();
        for &e in evasions.iter().filter(|&&e| !is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            // Known to be mated within `m - 1`; it defends `m` plies unless it is mated sooner.
            if !self.or_node(pos, m - 3) {
                longest.push(e);
            }
            self.leave(pos, e);
        }
        let mut d = None;
        for &e in evasions.iter().filter(|&&e| is_interposition(e)) {
            if !self.enter(pos, e) {
                continue;
            }
            let lasts = self.or_node(pos, m - 1) && !self.or_node(pos, m - 3);
            self.leave(pos, e);
            if !lasts {
                continue;
            }
            let d = *d.get_or_insert_with(|| {
                if longest.is_empty() {
                    self.other_defence(pos, m, &evasions, &is_interposition)[0]
                } else {
                    m
                }
            });
            if self.enter(pos, e) {
                let useless = self.is_useless(pos, e.to(), d);
                self.leave(pos, e);
                if !useless {
                    longest.push(e);
                }
            }
        }
        longest
    }

    /// The answer line from an attacker-to-move position whose shortest mate is `len` plies:
    /// the first check that mates in time, then the longest counted defence, preferring among
    /// equal defences the one that leaves the attacker the fewest pieces in hand at the end.
    pub(crate) fn principal_line(&mut self, pos: &mut Position, len: i32, line: &mut Vec<Move>) {
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        // The mating move of the last ply: a drop where one mates, so that the attacker ends
        // with no more pieces in hand than it must (the no-surplus rule between equal lines).
        if len == 1 {
            checks.sort_by_key(|m| !m.is_drop());
        }
        for &m in &checks {
            if !self.enter(pos, m) {
                continue;
            }
            if self.and_node(pos, len - 1) {
                line.push(m);
                self.defence_line(pos, len - 1, line);
                self.leave(pos, m);
                return;
            }
            self.leave(pos, m);
            if self.aborted {
                return;
            }
        }
    }

    /// The answer line from a defender-to-move position whose longest counted defence is `m`
    /// plies: a longest defence (the fewest pieces left over among ties), then [`Exact::principal_line`].
    pub(crate) fn defence_line(&mut self, pos: &mut Position, m: i32, line: &mut Vec<Move>) {
        let tied = self.longest_defences(pos, m);
        if tied.is_empty() {
            return;
        }
        // Ties are settled by the pieces left in the attacker's hand at the end of each line;
        // building every tied line costs time, so only short ones are compared.
        let mut chosen = (tied[0], Vec::new());
        if tied.len() > 1 && m <= 16 {
            let mut fewest = u32::MAX;
            for &e in &tied {
                if !self.enter(pos, e) {
                    continue;
                }
                let mut sub = Vec::new();
                self.principal_line(pos, m - 1, &mut sub);
                let surplus = self.surplus_after(pos, &sub);
                self.leave(pos, e);
                if surplus < fewest {
                    fewest = surplus;
                    chosen = (e, sub);
                }
            }
        } else if self.enter(pos, tied[0]) {
            self.principal_line(pos, m - 1, &mut chosen.1);
            self.leave(pos, tied[0]);
        }
        line.push(chosen.0);
        line.extend(chosen.1);
    }

    /// The pieces the attacker holds after `sub` is played from `pos` (which is left as it was).
    pub(crate) fn surplus_after(&self, pos: &mut Position, sub: &[Move]) -> u32 {
        for &m in sub {
            pos.do_move(m);
        }
        let surplus = pos.hand(self.attacker).total();
        for &m in sub.iter().rev() {
            pos.undo_move(m);
        }
        surplus
    }
}
