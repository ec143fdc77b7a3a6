//! The interim mate search behind `go mate`: iterative deepening over odd depths of an
//! AND/OR search (attacker checks, defender any legal reply), under game rules.
//!
//! It answers a mate only when proven (the shortest, with the longest defence), `nomate` only
//! when proven (a search that was never cut off by its depth limit found no mate), and
//! otherwise `timeout`. The interposition-aware df-pn solver of the mate-solver issue replaces
//! it behind the same interface.

use crate::search::SearchControl;
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::{Move, Position};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    Mate(Vec<Move>),
    NoMate,
    Timeout,
}

/// Progress of a mate search, for `info` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateProgress {
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

struct Solver<'a> {
    control: &'a SearchControl,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    /// Set when some line was cut off by the depth limit (so "no mate" is not proven).
    cut_off: bool,
    /// Set when some line failed because it repeated a position of the current path: such a
    /// failure depends on the path and must not be remembered for the position.
    repeated: bool,
    /// Positions known to have no mate within this many plies (independent of the path).
    no_mate_within: HashMap<u64, u32>,
    path: Vec<u64>,
}

const MAX_DEPTH: u32 = 127;
/// Most positions remembered as "no mate within N" (about 100 MB).
const MAX_REMEMBERED: usize = 4_000_000;

/// Searches for a mate of the side to move. `progress` is called after each depth.
pub fn solve(
    pos: &Position,
    time_limit: Option<Duration>,
    control: &SearchControl,
    mut progress: impl FnMut(&MateProgress),
) -> MateOutcome {
    let start = Instant::now();
    let mut s = Solver {
        control,
        deadline: time_limit.map(|t| start + t),
        nodes: 0,
        aborted: false,
        cut_off: false,
        repeated: false,
        no_mate_within: HashMap::new(),
        path: Vec::new(),
    };
    let mut pos = pos.clone();
    let mut depth = 1;
    while depth <= MAX_DEPTH {
        s.cut_off = false;
        let found = s.or_node(&mut pos, depth);
        if s.aborted {
            return MateOutcome::Timeout;
        }
        progress(&MateProgress {
            depth,
            nodes: s.nodes,
            elapsed: start.elapsed(),
        });
        if found {
            let mut line = Vec::new();
            s.principal_line(&mut pos, depth, &mut line);
            if s.aborted {
                return MateOutcome::Timeout;
            }
            return MateOutcome::Mate(line);
        }
        if !s.cut_off {
            return MateOutcome::NoMate;
        }
        depth += 2;
    }
    MateOutcome::Timeout
}

impl Solver<'_> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256)
            && (self.control.stop_requested() || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move: is there a check after which every reply is mated within `depth - 1`?
    fn or_node(&mut self, pos: &mut Position, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let key = pos.key();
        if let Some(&d) = self.no_mate_within.get(&key)
            && d >= depth
        {
            // A bounded "no mate" leaves the question open beyond the bound.
            self.cut_off |= d < MAX_DEPTH;
            return false;
        }
        if pos.mate_in_one().is_some() {
            return true;
        }
        if depth < 3 {
            // Nothing mates in one: within one ply there is no mate, but longer lines may exist.
            self.note_cut_off(pos);
            return false;
        }
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        let cut_before = self.cut_off;
        let rep_before = self.repeated;
        self.cut_off = false;
        self.repeated = false;
        let mut found = false;
        for &m in &checks {
            pos.do_move(m);
            if self.path.contains(&pos.key()) {
                // Perpetual check is not mate.
                self.repeated = true;
                pos.undo_move(m);
                continue;
            }
            self.path.push(pos.key());
            let ok = self.and_node(pos, depth - 1);
            self.path.pop();
            pos.undo_move(m);
            if ok {
                found = true;
                break;
            }
            if self.aborted {
                return false;
            }
        }
        if self.no_mate_within.len() >= MAX_REMEMBERED {
            // Bounded memory: forget everything (only speed is lost, never correctness).
            self.no_mate_within.clear();
        }
        if !found && !self.repeated && !self.aborted {
            // Proven for this depth whatever the path: remember it.
            if self.cut_off {
                let e = self.no_mate_within.entry(key).or_insert(0);
                *e = (*e).max(depth);
            } else {
                self.no_mate_within.insert(key, MAX_DEPTH);
            }
        }
        self.cut_off |= cut_before;
        self.repeated |= rep_before;
        found
    }

    /// Defender to move (in check): is every reply mated within `depth`?
    fn and_node(&mut self, pos: &mut Position, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let mut replies = MoveList::new();
        generate_legal::<true>(pos, &mut replies);
        if replies.is_empty() {
            return true;
        }
        if depth == 0 {
            self.cut_off = true;
            return false;
        }
        for &m in &replies {
            pos.do_move(m);
            self.path.push(pos.key());
            let ok = self.or_node(pos, depth - 1);
            self.path.pop();
            pos.undo_move(m);
            if !ok {
                return false;
            }
        }
        true
    }

    /// A position where the attacker has checks but no mate in one, at the depth limit.
    fn note_cut_off(&mut self, pos: &Position) {
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        if !checks.is_empty() {
            self.cut_off = true;
        }
    }

    /// The shortest mate in at most `depth` plies from this attacker-to-move position.
    fn shortest(&mut self, pos: &mut Position, depth: u32) -> Option<u32> {
        let mut d = 1;
        while d <= depth {
            if self.or_node(pos, d) {
                return Some(d);
            }
            if self.aborted {
                return None;
            }
            d += 2;
        }
        None
    }

    /// Builds the answer line: at attacker nodes the check with the shortest mate, at defender
    /// nodes the reply with the longest one.
    fn principal_line(&mut self, pos: &mut Position, depth: u32, line: &mut Vec<Move>) {
        let Some(len) = self.shortest(pos, depth) else { return };
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        for &m in &checks {
            pos.do_move(m);
            self.path.push(pos.key());
            let ok = self.and_node(pos, len - 1);
            if ok {
                line.push(m);
                let mut replies = MoveList::new();
                generate_legal::<true>(pos, &mut replies);
                let mut best: Option<(u32, Move)> = None;
                for &r in &replies {
                    pos.do_move(r);
                    self.path.push(pos.key());
                    let sub = self.shortest(pos, len - 2);
                    self.path.pop();
                    pos.undo_move(r);
                    if let Some(sub) = sub
                        && best.is_none_or(|(b, _)| sub > b)
                    {
                        best = Some((sub, r));
                    }
                }
                if let Some((sub, r)) = best {
                    line.push(r);
                    pos.do_move(r);
                    self.path.push(pos.key());
                    self.principal_line(pos, sub, line);
                    self.path.pop();
                    pos.undo_move(r);
                }
                self.path.pop();
                pos.undo_move(m);
                return;
            }
            self.path.pop();
            pos.undo_move(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve_sfen(sfen: &str) -> MateOutcome {
        let pos = Position::from_sfen(sfen).unwrap();
        let control = SearchControl::new(false, crate::search::Budget::default());
        solve(&pos, Some(Duration::from_secs(20)), &control, |_| {})
    }

    fn text(o: &MateOutcome) -> String {
        match o {
            MateOutcome::Mate(line) => line.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn mate_in_one() {
        assert_eq!(text(&solve_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1")), "G*5b");
    }

    #[test]
    fn mate_in_three_with_longest_defence() {
        // 1. G*5b is not mate (the king escapes), but a three-ply mate exists.
        let o = solve_sfen("3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1");
        let MateOutcome::Mate(line) = &o else { panic!("{o:?}") };
        assert_eq!(line.len() % 2, 1);
        let mut p = Position::from_sfen("3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1").unwrap();
        for m in line {
            assert!(p.is_legal_move(*m), "{m}");
            p.do_move(*m);
        }
        assert!(p.is_checkmate());
    }

    #[test]
    fn no_checks_means_no_mate() {
        assert_eq!(solve_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1"), MateOutcome::NoMate);
    }
}
