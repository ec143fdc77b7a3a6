//! The mate solver's parts on their own, for measurements (`soppo-tools mate-measure`) and
//! for the solver's tests; `go mate` needs none of it ([`solve_with`](super::solve_with) is
//! its way in).
//!
//! - The df-pn prover ([`Dfpn`]): first proofs, mating lines, the bounded shortening and the
//!   tightened walks, with its switches ([`Dfpn::set_drop_chains`], [`Dfpn::set_threads`],
//!   [`Dfpn::set_useless_filter`]). Its searches recurse deep: run them on a thread with a
//!   stack of [`STACK_BYTES`].
//! - The exact tsume search with or without the super piece ([`exact_answer`],
//!   [`exact_shortest`]).
//! - Comparisons of the two on one problem ([`shortest_against_exact`],
//!   [`walks_against_shortest`]), and the check every df-pn line must pass ([`check_line`]).
//! - Problems: the named long ones ([`SHOGI_ZUKO_1`], [`SHOGI_ZUKO_99`], [`MICROCOSMOS`]), game
//!   positions turned into tsume problems ([`as_tsume`]), and how interposition-heavy an answer
//!   is ([`distant_drop_checks`]).

pub use super::dfpn::{Assistant, Dfpn, DfpnStats, DfpnVerdict, LineWatcher, STACK_BYTES, ShortLine};

use super::dfpn::Replies;
use super::exact::{Exact, InterpositionGap, Poll};
use super::verify::{Claim, verify};
use soppo_core::movegen::{MoveList, generate_legal};
use soppo_core::{Color, Move, PieceKind, Position, Square};

/// Shogi Zuko #1 (stated 71 plies; 69 under tsume rules).
pub const SHOGI_ZUKO_1: &str = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N5K b SP2gn2l11p 1";

/// Shogi Zuko #99 (117 plies): df-pn proves it in under a million nodes, far beyond the exact
/// search's reach.
pub const SHOGI_ZUKO_99: &str =
    "k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1";

/// Microcosmos (1525 plies), the longest known tsume problem.
pub const MICROCOSMOS: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

/// Replays `line` from `root` against [`Claim::TsumeMate`]: every move legal, every attacker
/// move a check, and at the end mate under tsume rules (no evasion but useless
/// interpositions), as every df-pn line promises.
///
/// # Errors
/// The first problem, as text.
pub fn check_line(root: &Position, line: &[Move]) -> Result<(), String> {
    verify(root, line, Claim::TsumeMate).map_err(|e| e.to_string())
}

/// The exact search's answer to a problem (see [`exact_answer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactAnswer {
    /// The shortest mate's length and its answer line; `None` when there is none within the
    /// plies asked for, or the node budget ran out first.
    pub mate: Option<(i32, Vec<Move>)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The exact search's shortest mate from `root` (up to `max_plies`) and answer line, with the
/// super piece on or off, within `node_budget` nodes.
pub fn exact_answer(root: &Position, super_piece: bool, max_plies: i32, node_budget: u64) -> ExactAnswer {
    let mut pos = root.clone();
    let mut stop = |p: &Poll| p.nodes >= node_budget;
    let mut exact = Exact::new(pos.side_to_move(), 64, &mut stop);
    exact.set_super_piece(super_piece);
    let mut answer = None;
    let mut l = 1;
    while l <= max_plies && !exact.aborted {
        if exact.or_node(&mut pos, l) {
            let mut line = Vec::new();
            exact.principal_line(&mut pos, l, &mut line);
            answer = (!exact.aborted).then_some((l, line));
            break;
        }
        l += 2;
    }
    ExactAnswer {
        mate: answer,
        nodes: exact.nodes,
    }
}

/// The length of the shortest mate from `root` of at most `max_plies` plies under tsume rules
/// (the exact search, with a 16 MB table and no node limit), if there is one.
pub fn exact_shortest(root: &Position, max_plies: i32) -> Option<i32> {
    let mut never = |_: &Poll| false;
    let mut exact = Exact::new(root.side_to_move(), 16, &mut never);
    exact.shortest(&mut root.clone(), max_plies)
}

/// [`Dfpn::shortest_line`] against the exact tsume search on one problem: the length must be
/// shown shortest and never below the exact answer (bounded searches count every
/// interposition they cannot show useless, so they can only be longer), and the line must
/// pass [`check_line`]. Returns (df-pn's length, the exact length); a fresh 16 MB table each.
///
/// # Errors
/// What went wrong: no mate, not shown shortest, a bad line, no exact answer within 31 plies,
/// or a length below the exact one.
pub fn shortest_against_exact(root: &Position) -> Result<(usize, usize), String> {
    let mut d = Dfpn::new(16);
    let got = d.shortest_line(root, &mut |_| false).ok_or("no mate")?;
    if !got.shortest {
        return Err("not shown shortest".into());
    }
    check_line(root, &got.line)?;
    let exact = exact_shortest(root, 31).ok_or("no exact answer within 31 plies")? as usize;
    let len = got.line.len();
    if len < exact {
        return Err(format!("{len} plies, exact {exact}"));
    }
    Ok((len, exact))
}

/// The lengths of three line walks from one problem (see [`walks_against_shortest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkLengths {
    /// The walk from the first proof's length with the longest stored replies.
    pub stored: usize,
    /// The walk from the first proof's length with tightened replies ([`Dfpn::tightened_line`]).
    pub tightened: usize,
    /// The length [`Dfpn::shortest_line`] shows shortest; `None` when it is not shown shortest
    /// (rare: a repetition-dependent result on the way), so there is nothing to compare with.
    pub shortest: Option<usize>,
}

/// On one problem: walks from the first proof's length with the stored replies and with
/// tightened ones (each line checked, and never longer than its bound), and the length
/// [`Dfpn::shortest_line`] shows shortest. A fresh 16 MB table for each prover.
///
/// # Errors
/// What went wrong: no proof, a walk without a line, a bad line or one longer than its bound.
pub fn walks_against_shortest(root: &Position) -> Result<WalkLengths, String> {
    let mut d = Dfpn::new(16);
    if d.solve(root, u64::MAX, &mut |_| false) != DfpnVerdict::Proven {
        return Err("not proven".into());
    }
    let first = d.proven_length(root).ok_or("no proof stored")?;
    let mut nodes = 0;
    let stored = d
        .bounded_line(root, first, Replies::Stored, &mut |_| false, &mut nodes)
        .ok_or("no stored walk")?;
    let tightened = d
        .tightened_line(root, first, &mut |_| false)
        .ok_or("no tightened walk")?;
    for line in [&stored, &tightened] {
        check_line(root, line)?;
        if line.len() > usize::from(first) {
            return Err(format!("a walk of {} plies from a bound of {first}", line.len()));
        }
    }
    let exact = Dfpn::new(16).shortest_line(root, &mut |_| false).ok_or("no mate")?;
    Ok(WalkLengths {
        stored: stored.len(),
        tightened: tightened.len(),
        shortest: exact.shortest.then_some(exact.line.len()),
    })
}

/// How many of the answer line's checks the defender could answer by a drop between: the
/// "interposition-heavy" measure of the research notes (≥ 3 makes a problem one).
pub fn distant_drop_checks(root: &Position, line: &[Move]) -> usize {
    let mut pos = root.clone();
    let mut n = 0;
    for (i, &m) in line.iter().enumerate() {
        pos.do_move(m);
        if i % 2 == 0 && drops_between(&pos) {
            n += 1;
        }
    }
    n
}

/// Defender in check: whether some drop interposes.
fn drops_between(pos: &Position) -> bool {
    let Some(gap) = InterpositionGap::of(pos) else {
        return false;
    };
    let mut evasions = MoveList::new();
    generate_legal::<true>(pos, &mut evasions);
    evasions.iter().any(|e| e.is_drop() && gap.is_interposition(*e))
}

/// A game position turned into a tsume problem: the attacker's (side to move's) king leaves the
/// board and the defender holds every piece that is neither on the board nor in the attacker's
/// hand. `None` if the SFEN does not parse or the defender has no king. Game rows rarely leave
/// the defender several kinds to drop, tsume problems always do, and the super piece is for
/// the second case.
pub fn as_tsume(sfen: &str) -> Option<String> {
    let mut pos = Position::from_sfen(sfen).ok()?;
    let attacker = pos.side_to_move();
    let defender = !attacker;
    // Without the defender's king there is nothing to mate.
    let _ = pos.king_square(defender)?;
    for kind in PieceKind::HAND {
        let total = kind.full_set_count();
        let on_board = Square::all()
            .filter(|&sq| pos.piece_on(sq).is_some_and(|p| p.kind().unpromote() == kind))
            .count() as u32;
        let rest = total.saturating_sub(on_board + pos.hand(attacker).count(kind));
        while pos.hand(defender).count(kind) > rest {
            pos.take_hand_piece(defender, kind);
        }
        while pos.hand(defender).count(kind) < rest {
            pos.give_hand_piece(defender, kind);
        }
    }
    // The attacker's king leaves: an empty square in its place, and empty runs merged (a run
    // ends at a piece, at a rank's `/` or at the end of the board).
    let king = if attacker == Color::Black { 'K' } else { 'k' };
    let text = pos.to_sfen();
    let (board, rest) = text.split_once(' ')?;
    let merged = merge_empty_runs(board, Some(king));
    let (side, hands) = {
        let mut f = rest.split(' ');
        (f.next()?, f.next()?)
    };
    let out = format!("{merged} {side} {hands} 1");
    Position::from_sfen(&out).is_ok().then_some(out)
}

/// An SFEN board with each run of empty squares written as one number: digits in `board` add
/// to the run, and so does every `removed` piece (it leaves its square empty).
pub fn merge_empty_runs(board: &str, removed: Option<char>) -> String {
    let mut merged = String::new();
    let mut empty = 0;
    for c in board.chars() {
        match c.to_digit(10) {
            Some(d) => empty += d,
            None if Some(c) == removed => empty += 1,
            None => {
                if empty > 0 {
                    merged.push_str(&empty.to_string());
                    empty = 0;
                }
                merged.push(c);
            }
        }
    }
    if empty > 0 {
        merged.push_str(&empty.to_string());
    }
    merged
}
