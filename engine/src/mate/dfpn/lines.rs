//! Lines from proofs: the mating line of a proof ([`Dfpn::mate_line`]), the bounded
//! shortening that shows a mate shortest ([`Dfpn::shortest_line`]), and the walks that pick the
//! defender's replies from stored, tightened or shown-longest proofs ([`Dfpn::bounded_line`],
//! [`Dfpn::tightened_line`]).

use super::interposition::{USELESS_TEST_DEPTH, tsume_mated, useless_interpositions_removed};
use super::tt::UNBOUNDED;
use super::{Dfpn, DfpnStats, DfpnVerdict};
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::{Move, Position};

/// Nodes a re-search of `mate_line` may spend on one position.
const LINE_RESEARCH_NODES: u64 = 20_000_000;

/// Node budget of one search that tries to shorten a defender reply's proof by two plies
/// ([`Dfpn::tightened_line`]).
const TIGHTEN_NODES: u64 = 5_000;

/// How the line walks of the length-bounded searches choose the defender's replies.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::mate) enum Replies {
    /// The reply with the longest stored proof.
    Stored,
    /// The reply with the longest proof after small searches tried to shorten each.
    Tightened,
    /// A reply shown to last longest (bounded disproofs, as long as they take).
    ShownLongest,
}

/// Longest line `mate_line` will walk.
const MAX_LINE: usize = 8000;

/// A line from [`Dfpn::shortest_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortLine {
    /// Legal, every attacker move a check, mate at the end under tsume rules.
    pub line: Vec<Move>,
    /// Whether no shorter mate exists under the bounded searches' counting (see the module
    /// notes) and the defender's replies are shown longest; false when the search was stopped
    /// before that was shown.
    pub shortest: bool,
    /// The shortest length proven: a mate in at most this many plies exists. Without
    /// `shortest` the line may be shorter (the defender's replies are not shown longest).
    pub bound: u16,
    /// Nodes searched by all the searches it took.
    pub nodes: u64,
}

impl Dfpn {
    /// A mating line from `pos` (attacker to move) after a proof: every attacker move checks,
    /// the defender plays the reply with the longest stored proof, and the line ends in
    /// checkmate. Missing results are searched again. `None` if no mate could be shown.
    #[cfg(any(test, feature = "lab"))]
    pub fn mate_line(&mut self, pos: &Position) -> Option<Vec<Move>> {
        self.mate_line_until(pos, &mut |_| false)
    }

    /// [`Dfpn::mate_line`] whose re-searches end (with `None`) when `stop` returns true.
    pub fn mate_line_until(&mut self, pos: &Position, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<Vec<Move>> {
        let mut p = pos.clone();
        let attacker = p.side_to_move();
        self.set_root_context(&p);
        let mut line = Vec::new();
        let mut seen = vec![p.key()];
        while line.len() < MAX_LINE {
            let or_node = p.side_to_move() == attacker;
            let mut list = MoveList::new();
            if or_node {
                generate_checks::<true>(&p, &mut list);
            } else {
                generate_legal::<true>(&p, &mut list);
                if list.is_empty() {
                    return p.in_check().then_some(line);
                }
            }
            let picked = self.pick_line_move(&mut p, &list, or_node, &seen);
            let m = if let Some(m) = picked {
                m
            } else if self.research_for_line(&mut p, &list, or_node, stop) {
                self.pick_line_move(&mut p, &list, or_node, &seen)?
            } else {
                return None;
            };
            p.do_move(m);
            line.push(m);
            seen.push(p.key());
        }
        None
    }

    /// The shortest mate from `pos` under the bounded searches' counting (see the module
    /// notes) and its line. Proves (unless the table already holds a proof), then searches
    /// for a mate two plies shorter than the last one found until there is none. In the line
    /// the attacker plays a check proven within the remaining length, and the defender a
    /// counted reply shown to last longest (the attacker has no mate two plies sooner after
    /// it). `None` if there is no mate or the search was stopped before a line was walked;
    /// a stop after some line was found gives that line with `shortest` false.
    #[cfg(any(test, feature = "lab"))]
    pub fn shortest_line(&mut self, pos: &Position, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<ShortLine> {
        self.shortest_line_reporting(pos, stop, &mut |_, _| {})
    }

    /// [`Dfpn::shortest_line`], handing `on_shorter` each line the shortening walks that lasts
    /// its whole bound (the attacker mates within the bound, so the defender could not have
    /// lasted longer against it; not yet shown shortest), so that a long shortening is seen
    /// to progress. A line shorter than its bound is not handed on: its defender may have
    /// given up early.
    pub fn shortest_line_reporting(
        &mut self,
        pos: &Position,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        on_shorter: &mut dyn FnMut(&[Move], &DfpnStats),
    ) -> Option<ShortLine> {
        let mut p = pos.clone();
        let mut nodes = 0;
        let mut len = None;
        for trust_entry in [true, false] {
            let verdict = self.search_from(&mut p, UNBOUNDED, u64::MAX, stop, trust_entry);
            nodes += self.nodes;
            if verdict != DfpnVerdict::Proven {
                return None;
            }
            let probe = self.probe_node(&p, UNBOUNDED);
            if probe.pn == 0 {
                len = Some(probe.len);
                break;
            }
        }
        let mut len = len?;
        // A line for every length proven, so that a stop leaves the best one found so far.
        self.line_fills_bound = false;
        let mut line = self.bounded_line(pos, len, Replies::Stored, stop, &mut nodes)?;
        self.line_fills_bound = line.len() == usize::from(len);
        let mut shortest = len <= 1;
        while !shortest {
            let bound = len - 2;
            let verdict = self.search_from(&mut p, bound, u64::MAX, stop, true);
            nodes += self.nodes;
            log::debug!(
                "df-pn, mate in at most {bound} plies: {verdict:?} ({} nodes)",
                self.nodes
            );
            match verdict {
                DfpnVerdict::Proven => {
                    let probe = self.probe_node(&p, bound);
                    len = if probe.pn == 0 { probe.len } else { bound };
                    match self.bounded_line(pos, len, Replies::Stored, stop, &mut nodes) {
                        Some(shorter) => line = shorter,
                        None => break,
                    }
                    self.line_fills_bound = line.len() == usize::from(len);
                    if self.line_fills_bound {
                        on_shorter(&line, &self.stats());
                    }
                    shortest = len <= 1;
                }
                DfpnVerdict::Disproven => shortest = true,
                DfpnVerdict::Unknown => break,
            }
        }
        if shortest && len > 1 {
            // The length is shown shortest; now the defender's replies are shown longest.
            match self.bounded_line(pos, len, Replies::ShownLongest, stop, &mut nodes) {
                Some(exact) => line = exact,
                None => shortest = false,
            }
        }
        self.line_fills_bound = false;
        Some(ShortLine {
            line,
            shortest,
            bound: len,
            nodes,
        })
    }

    /// A better line than [`Dfpn::shortest_line`]'s when that was stopped before the line was
    /// shown shortest: from `pos`, where a mate in at most `len` plies is proven, the defender
    /// takes the reply whose proof could not be shortened by small searches ([`Replies::Tightened`]).
    /// Such a line is what a solver that does not prove shortness (shtsume) answers. `None` if
    /// `stop` ends the walk (a half-tightened line is no better than the first one).
    pub fn tightened_line(
        &mut self,
        pos: &Position,
        len: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> Option<Vec<Move>> {
        // The walk ranks replies by proofs that small searches could not shorten; proofs
        // found by several threads at once are looser (each thread proves other replies its
        // own way), and the line ended early with them. So this walk searches alone.
        let parallel = std::mem::replace(&mut self.parallel, false);
        let line = self.tightened_line_alone(pos, len, stop);
        self.parallel = parallel;
        line
    }

    fn tightened_line_alone(
        &mut self,
        pos: &Position,
        len: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> Option<Vec<Move>> {
        let mut nodes = 0;
        // The root first: after that, every attacker position of the walk follows a reply
        // whose proof could not be shortened, so its bound is already as tight.
        let mut len = len;
        while len >= 3 && !stop(&self.stats()) {
            let Some(shorter) = self.shorter_proof(pos, len, stop) else {
                break;
            };
            len = shorter;
        }
        let line = self.bounded_line(pos, len, Replies::Tightened, stop, &mut nodes);
        if stop(&self.stats()) {
            return None;
        }
        line
    }

    /// Attacker to move at `p`, mate in at most `len` plies proven: the length of a proof
    /// within `len - 2` if a search of at most [`TIGHTEN_NODES`] nodes finds one.
    fn shorter_proof(&mut self, p: &Position, len: u16, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<u16> {
        if self.search_from(&mut p.clone(), len - 2, TIGHTEN_NODES, stop, true) != DfpnVerdict::Proven {
            return None;
        }
        let probe = self.probe_node(p, len - 2);
        (probe.pn == 0).then_some(probe.len)
    }

    /// The line of [`Dfpn::shortest_line`] from `pos`, where a mate in at most `len` plies
    /// is proven, with the defender's replies chosen as `replies` says.
    pub(in crate::mate) fn bounded_line(
        &mut self,
        pos: &Position,
        len: u16,
        replies: Replies,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<Vec<Move>> {
        let mut p = pos.clone();
        let attacker = p.side_to_move();
        let mut line = Vec::new();
        let mut remaining = len;
        let mut tighten = replies == Replies::Tightened;
        while line.len() < MAX_LINE {
            if replies == Replies::Tightened && stop(&self.stats()) {
                // A tightened walk that was stopped is not used (`tightened_line_alone`), and
                // every reply searched again would take up to a poll interval to notice.
                return None;
            }
            let (m, after) = if p.side_to_move() == attacker {
                if let Some(found) = self.bounded_check(&mut p, remaining) {
                    found
                } else {
                    // Results were lost: search the node again within its bound.
                    let verdict = self.search_from(&mut p.clone(), remaining, u64::MAX, stop, false);
                    *nodes += self.nodes;
                    if verdict != DfpnVerdict::Proven {
                        return None;
                    }
                    self.bounded_check(&mut p, remaining)?
                }
            } else {
                let mut evasions = MoveList::new();
                generate_legal::<true>(&p, &mut evasions);
                if self.settings.useless_filter {
                    useless_interpositions_removed(&mut p, attacker, &mut evasions);
                }
                if evasions.is_empty() {
                    return Some(line);
                }
                match replies {
                    Replies::ShownLongest => self.longest_reply(&mut p, &evasions, remaining, stop, nodes)?,
                    Replies::Stored => {
                        self.longest_stored_reply(&mut p, &evasions, remaining, &mut false, stop, nodes)?
                    }
                    Replies::Tightened => {
                        self.longest_stored_reply(&mut p, &evasions, remaining, &mut tighten, stop, nodes)?
                    }
                }
            };
            p.do_move(m);
            line.push(m);
            remaining = after;
        }
        None
    }

    /// Attacker to move, mate in at most `bound` proven: a check whose reply position is
    /// proven within `bound - 1`, the shortest stored, with the bound for that position.
    fn bounded_check(&mut self, p: &mut Position, bound: u16) -> Option<(Move, u16)> {
        let mut checks = MoveList::new();
        generate_checks::<true>(p, &mut checks);
        let attacker = p.side_to_move();
        let mut best: Option<(Move, u16)> = None;
        for &m in &checks {
            p.do_move(m);
            let mated = if self.settings.useless_filter {
                tsume_mated(p, attacker, USELESS_TEST_DEPTH)
            } else {
                !p.has_evasion()
            };
            let len = if mated {
                Some(0)
            } else {
                let probe = self.probe_node(p, bound - 1);
                (probe.pn == 0).then_some(probe.len)
            };
            p.undo_move(m);
            if let Some(len) = len
                && best.is_none_or(|(_, b)| len < b)
            {
                best = Some((m, len));
            }
        }
        best
    }

    /// Defender to move, its longest counted defence at most `bound` plies: the counted reply
    /// (`evasions`) whose stored proof within `bound - 1` is longest, with that proof's length
    /// (replies without one are searched again). With `tighten`, each reply's proof is first
    /// shortened two plies at a time by searches of at most [`TIGHTEN_NODES`] nodes: a stored
    /// proof is only an upper bound, and a reply whose proof is long only because the first
    /// proof found was long would let the line end early.
    fn longest_stored_reply(
        &mut self,
        p: &mut Position,
        evasions: &MoveList,
        bound: u16,
        tighten: &mut bool,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<(Move, u16)> {
        let mut best: Option<(Move, u16)> = None;
        for &e in evasions {
            p.do_move(e);
            let mut probe = self.probe_node(p, bound - 1);
            if probe.pn != 0 {
                let verdict = self.search_from(&mut p.clone(), bound - 1, LINE_RESEARCH_NODES, stop, true);
                *nodes += self.nodes;
                probe = self.probe_node(p, bound - 1);
                if verdict != DfpnVerdict::Proven || probe.pn != 0 {
                    p.undo_move(e);
                    return None;
                }
            }
            let mut len = probe.len;
            // Only a reply that might beat the best so far is worth shortening.
            while *tighten && len >= 3 && best.is_none_or(|(_, b)| len > b) {
                if stop(&self.stats()) {
                    // Out of time: the rest of the walk takes the stored proofs as they are
                    // (each search would otherwise run to its first poll before it stopped).
                    *tighten = false;
                    break;
                }
                let shorter = self.shorter_proof(p, len, stop);
                *nodes += self.nodes;
                let Some(shorter) = shorter else {
                    break;
                };
                len = shorter;
            }
            p.undo_move(e);
            if best.is_none_or(|(_, b)| len > b) {
                best = Some((e, len));
            }
        }
        best
    }

    /// Defender to move, its longest counted defence at most `bound` plies: a counted reply
    /// (`evasions`) of the longest defence, with that defence's length less one (the bound of
    /// the attacker's position after it). A reply lasts `m` plies when the attacker is not
    /// shown to mate two plies sooner after it; `m` goes down from `bound` until one does.
    fn longest_reply(
        &mut self,
        p: &mut Position,
        evasions: &MoveList,
        bound: u16,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
        nodes: &mut u64,
    ) -> Option<(Move, u16)> {
        // Longest stored proof first: the likeliest to last.
        let mut order: Vec<(u16, Move)> = evasions
            .iter()
            .map(|&e| {
                p.do_move(e);
                let probe = self.probe_node(p, UNBOUNDED);
                p.undo_move(e);
                (if probe.pn == 0 { probe.len } else { UNBOUNDED }, e)
            })
            .collect();
        order.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
        let mut m = bound;
        while m >= 2 {
            if m == 2 {
                // Every counted reply is mated, and no mate is shorter than one ply.
                return Some((order[0].1, 1));
            }
            for pass in 0..2 {
                for &(_, e) in &order {
                    p.do_move(e);
                    let lasts = if pass == 0 {
                        let probe = self.probe_node(p, m - 3);
                        probe.dn == 0
                    } else {
                        let verdict = self.search_from(&mut p.clone(), m - 3, u64::MAX, stop, true);
                        *nodes += self.nodes;
                        if verdict == DfpnVerdict::Unknown {
                            p.undo_move(e);
                            return None;
                        }
                        verdict == DfpnVerdict::Disproven
                    };
                    p.undo_move(e);
                    if lasts {
                        return Some((e, m - 1));
                    }
                }
            }
            m -= 2;
        }
        None
    }

    /// Results needed by `mate_line` were lost (replaced) or never stored for this hand:
    /// searches the node (OR) or its unresolved replies (AND) again. False if one fails.
    fn research_for_line(
        &mut self,
        p: &mut Position,
        list: &MoveList,
        or_node: bool,
        stop: &mut dyn FnMut(&DfpnStats) -> bool,
    ) -> bool {
        // The re-searches start from attacker-to-move positions, so this node's context (the
        // attacker, not the side to move at an AND node) is put back afterwards.
        let context = (self.attacker, self.signature);
        // The node's own entry may say "proven" while its children's proofs are gone: the
        // re-search must look below it, not stop at that entry.
        let mut proven = |d: &mut Dfpn, p: &Position| {
            d.search_from(&mut p.clone(), UNBOUNDED, LINE_RESEARCH_NODES, stop, false) == DfpnVerdict::Proven
        };
        let ok = if or_node {
            proven(self, p)
        } else {
            list.iter().all(|&e| {
                p.do_move(e);
                let ok = self.probe_node(p, UNBOUNDED).pn == 0 || proven(self, p);
                p.undo_move(e);
                ok
            })
        };
        (self.attacker, self.signature) = context;
        ok
    }

    /// For `mate_line`: the attacker's check with the shortest stored proof, or the defender's
    /// reply with the longest; `None` when a needed result is missing.
    fn pick_line_move(&mut self, p: &mut Position, list: &MoveList, or_node: bool, seen: &[u64]) -> Option<Move> {
        let mut best: Option<(Move, u16)> = None;
        for &m in list {
            p.do_move(m);
            let key = p.key();
            let len = if or_node && !p.has_evasion() {
                Some(0)
            } else {
                let probe = self.probe_node(p, UNBOUNDED);
                (probe.pn == 0).then_some(probe.len)
            };
            p.undo_move(m);
            let repeats = seen.contains(&key);
            let Some(l) = len else {
                if or_node {
                    continue;
                }
                return None;
            };
            if or_node {
                if !repeats && best.is_none_or(|(_, b)| l < b) {
                    best = Some((m, l));
                }
            } else {
                // A reply back into the line would let the walk cycle; it is proven too,
                // so any other reply will do; take it only if nothing else is left.
                let l = if repeats { 0 } else { l.saturating_add(1) };
                if best.is_none_or(|(_, b)| l > b) {
                    best = Some((m, l));
                }
            }
        }
        best.map(|(m, _)| m)
    }
}
