//! What the solver's searches give and how one answer is chosen from them.
//!
//! The exact search and df-pn each offer [`Candidate`] lines; the order of its variants is the
//! preference between them, and [`Candidate::better`] applies it, the one place that says which
//! line wins. A candidate that is [`final`](Candidate::is_final) ends the solve; the others are
//! held while the exact search goes on, and the best held one is printed if it does not finish.
//! df-pn's part of a solve ends in a [`DfpnOutcome`]; the length of its first proof, which
//! decides how the two searches share the machine, is a [`FirstProof`] published once.

use super::MateOutcome;
use super::verify::EXACT_CHECK_MAX_PLIES;
use soppo_core::Move;
use std::fmt;
use std::sync::OnceLock;

/// The length of a mate, in plies (odd: the attacker moves first and last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MateLength(u16);

impl MateLength {
    /// A mate of `plies` plies; `None` when that is not a mate's length (even, or beyond
    /// `u16`).
    pub fn new(plies: usize) -> Option<MateLength> {
        let plies = u16::try_from(plies).ok()?;
        (plies % 2 == 1).then_some(MateLength(plies))
    }

    pub fn plies(self) -> usize {
        usize::from(self.0)
    }

    /// Whether the exact search can show a line of this length shortest at every ply (see
    /// [`EXACT_CHECK_MAX_PLIES`]); longer lines are checked for their moves and final mate.
    pub fn within_exact_reach(self) -> bool {
        self.plies() <= EXACT_CHECK_MAX_PLIES
    }
}

impl fmt::Display for MateLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} plies", self.0)
    }
}

/// A line the solver may answer with. The variants go from the weakest claim to the
/// strongest, and that order is the preference between them ([`Candidate::better`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Candidate {
    /// A mating line df-pn proved (legal, every attacker move a check, mate under tsume rules
    /// at the end), not shown shortest.
    Proven(Vec<Move>),
    /// df-pn's line shown shortest under its counting, which the verifier ran out of time to
    /// show exact, short enough for the exact search: that search goes on and may still find
    /// the tsume answer (df-pn can count a useless interposition as a defence).
    UncheckedShortest(Vec<Move>),
    /// df-pn's line shown shortest, too long for the exact search (or too costly to show
    /// exact): the answer, printed as [`MateOutcome::Shortest`].
    Shortest(Vec<Move>),
    /// The tsume answer, verified: shortest mate, longest counted defence.
    Exact(Vec<Move>),
}

impl Candidate {
    /// The place of this candidate in the preference: higher is better.
    fn rank(&self) -> u8 {
        match self {
            Candidate::Proven(_) => 0,
            Candidate::UncheckedShortest(_) => 1,
            Candidate::Shortest(_) => 2,
            Candidate::Exact(_) => 3,
        }
    }

    /// Whether this candidate ends the solve: nothing the other search could find would be
    /// preferred to it.
    pub(super) fn is_final(&self) -> bool {
        matches!(self, Candidate::Shortest(_) | Candidate::Exact(_))
    }

    /// The better of `held` and `offered`; on a tie, `held` (the first found).
    pub(super) fn better(held: Option<Candidate>, offered: Option<Candidate>) -> Option<Candidate> {
        match (held, offered) {
            (Some(h), Some(o)) => Some(if o.rank() > h.rank() { o } else { h }),
            (h, o) => h.or(o),
        }
    }

    /// The answer printed for this candidate.
    pub(super) fn into_outcome(self) -> MateOutcome {
        match self {
            Candidate::Proven(l) => MateOutcome::Proven(l),
            Candidate::UncheckedShortest(l) | Candidate::Shortest(l) => MateOutcome::Shortest(l),
            Candidate::Exact(l) => MateOutcome::Mate(l),
        }
    }

    /// The answer when the searches are over: the best candidate held, or a timeout.
    pub(super) fn answer(best: Option<Candidate>) -> MateOutcome {
        best.map_or(MateOutcome::Timeout, Candidate::into_outcome)
    }
}

/// How df-pn's part of a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum DfpnOutcome {
    /// Stopped before a verdict.
    Unknown,
    /// There is no mate.
    NoMate,
    /// There is a mate; df-pn's best line for it, if it built one before it was stopped.
    Mate(Option<Candidate>),
}

impl DfpnOutcome {
    /// The candidate line, if any.
    pub(super) fn candidate(&self) -> Option<&Candidate> {
        match self {
            DfpnOutcome::Mate(c) => c.as_ref(),
            DfpnOutcome::Unknown | DfpnOutcome::NoMate => None,
        }
    }

    /// Whether this outcome ends the solve (no mate, or a final candidate).
    pub(super) fn is_final(&self) -> bool {
        matches!(self, DfpnOutcome::NoMate) || self.candidate().is_some_and(Candidate::is_final)
    }

    /// The answer when the exact search has none: a timeout unless df-pn decided.
    pub(super) fn into_answer(self) -> MateOutcome {
        match self {
            DfpnOutcome::NoMate => MateOutcome::NoMate,
            DfpnOutcome::Mate(c) => Candidate::answer(c),
            DfpnOutcome::Unknown => MateOutcome::Timeout,
        }
    }
}

/// How df-pn's first search ended: a proof of this length, or none (no mate, or stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FirstProof {
    Proven(MateLength),
    None,
}

/// Where df-pn publishes its [`FirstProof`] for the other thread: empty while the first search
/// runs, set once when it ends.
pub(super) type FirstProofCell = OnceLock<FirstProof>;

impl FirstProof {
    /// Whether the proof is longer than the exact search reaches (see
    /// [`MateLength::within_exact_reach`]).
    pub(super) fn beyond_exact_reach(self) -> bool {
        matches!(self, FirstProof::Proven(len) if !len.within_exact_reach())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> Vec<Move> {
        let m = soppo_core::Position::startpos().parse_move("7g7f").unwrap();
        vec![m; n]
    }

    #[test]
    fn the_stronger_claim_wins_and_a_tie_keeps_the_first() {
        let proven = Candidate::Proven(line(9));
        let unchecked = Candidate::UncheckedShortest(line(11));
        let shortest = Candidate::Shortest(line(13));
        let exact = Candidate::Exact(line(15));
        let order = [&proven, &unchecked, &shortest, &exact];
        for (i, a) in order.iter().enumerate() {
            for (j, b) in order.iter().enumerate() {
                let got = Candidate::better(Some((*a).clone()), Some((*b).clone())).unwrap();
                assert_eq!(&got, if j > i { *b } else { *a });
            }
        }
        assert_eq!(
            Candidate::better(Some(Candidate::Proven(line(3))), Some(Candidate::Proven(line(5)))),
            Some(Candidate::Proven(line(3)))
        );
        assert_eq!(Candidate::better(None, Some(proven.clone())), Some(proven.clone()));
        assert_eq!(Candidate::better(Some(proven.clone()), None), Some(proven));
        assert_eq!(Candidate::better(None, None), None);
    }

    #[test]
    fn only_shortest_and_exact_are_final_and_each_prints_its_kind() {
        assert!(!Candidate::Proven(line(3)).is_final());
        assert!(!Candidate::UncheckedShortest(line(3)).is_final());
        assert!(Candidate::Shortest(line(3)).is_final());
        assert!(Candidate::Exact(line(3)).is_final());
        assert_eq!(Candidate::Proven(line(3)).into_outcome(), MateOutcome::Proven(line(3)));
        assert_eq!(
            Candidate::UncheckedShortest(line(3)).into_outcome(),
            MateOutcome::Shortest(line(3))
        );
        assert_eq!(
            Candidate::Shortest(line(3)).into_outcome(),
            MateOutcome::Shortest(line(3))
        );
        assert_eq!(Candidate::Exact(line(3)).into_outcome(), MateOutcome::Mate(line(3)));
        assert_eq!(Candidate::answer(None), MateOutcome::Timeout);
    }

    #[test]
    fn dfpn_outcomes_decide_or_defer() {
        assert!(DfpnOutcome::NoMate.is_final());
        assert!(!DfpnOutcome::Unknown.is_final());
        assert!(!DfpnOutcome::Mate(None).is_final());
        assert!(!DfpnOutcome::Mate(Some(Candidate::Proven(line(5)))).is_final());
        assert!(DfpnOutcome::Mate(Some(Candidate::Exact(line(5)))).is_final());
        assert_eq!(DfpnOutcome::NoMate.into_answer(), MateOutcome::NoMate);
        assert_eq!(DfpnOutcome::Unknown.into_answer(), MateOutcome::Timeout);
        assert_eq!(DfpnOutcome::Mate(None).into_answer(), MateOutcome::Timeout);
    }

    #[test]
    fn mate_lengths_are_odd_and_the_exact_reach_is_31_plies() {
        assert_eq!(MateLength::new(4), None);
        assert_eq!(MateLength::new(0), None);
        assert_eq!(MateLength::new(70_001), None);
        let l = MateLength::new(31).unwrap();
        assert_eq!(l.plies(), 31);
        assert!(l.within_exact_reach());
        assert!(!MateLength::new(33).unwrap().within_exact_reach());
        assert!(FirstProof::Proven(MateLength::new(33).unwrap()).beyond_exact_reach());
        assert!(!FirstProof::Proven(l).beyond_exact_reach());
        assert!(!FirstProof::None.beyond_exact_reach());
        assert_eq!(l.to_string(), "31 plies");
    }
}
