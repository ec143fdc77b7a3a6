//! A composer's check of a tsume problem: not one answer, but whether the problem is sound
//! along its main line.
//!
//! The main line is the one given (a problem file's moves) or the exact search's answer. Along
//! it, with the exact tsume search (useless interpositions are never counted as defences):
//!
//! - at every attacker move, a second check that mates within the line's remaining length is
//!   **余詰** (`yozume`); at the last move of a problem longer than one move (最終手余詰),
//!   and where it is the main move with or without promotion (成不成非限定), it is reported
//!   but tolerated. A detour
//!   that returns to the main line (迂回手順) takes more plies than are left, so the length
//!   bound never counts it; a different order of the same moves within the length is a second
//!   solution and is reported.
//! - at every attacker move, a mate shorter than the line's remaining length is **早詰**
//!   (`hayazume`): the main line is longer than the problem.
//! - at every defender move, a counted defence that lasts longer than the main line's is
//!   **変長** (`hencho`): the main line is not the longest defence.
//! - at every defender move, another counted defence of the same length whose answer leaves
//!   the attacker no more pieces in hand than the main line does is **変同** (`hendo`),
//!   reported but tolerated. Another kind of piece dropped on the main line's interposition
//!   square and answered by the main line's moves is the same answer, not a variation.
//! - the attacker holding pieces at the end of the main line is **駒余り** (`komaamari`).
//!
//! A problem is sound when every flaw found is tolerated. Every question is asked of the exact
//! search within one time budget; where it runs out, the report says which ply and which
//! question is undecided instead of guessing.

use super::exact::{Exact, Poll};
use super::problem::{NotAProblem, not_a_problem};
use super::verify::{Claim, VerifyError, verify};
use soppo_core::movegen::{MoveList, generate_checks};
use soppo_core::{Move, Position};
use std::fmt;
use std::time::{Duration, Instant};

/// A flaw of a tsume problem along its main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlawKind {
    /// 余詰: a second mating move within the remaining length.
    Yozume,
    /// 変同: another longest defence, no worse for the attacker's hand.
    Hendo,
    /// 変長: a defence that lasts longer than the main line's.
    Hencho,
    /// 早詰: a mate shorter than the main line's remaining length.
    Hayazume,
    /// 駒余り: the attacker holds pieces at the end of the main line.
    Komaamari,
}

impl FlawKind {
    /// The name in JSON output (`yozume`, `hendo`, `hencho`, `hayazume`, `komaamari`).
    pub fn code(self) -> &'static str {
        match self {
            FlawKind::Yozume => "yozume",
            FlawKind::Hendo => "hendo",
            FlawKind::Hencho => "hencho",
            FlawKind::Hayazume => "hayazume",
            FlawKind::Komaamari => "komaamari",
        }
    }

    /// The composers' word.
    pub fn japanese(self) -> &'static str {
        match self {
            FlawKind::Yozume => "余詰",
            FlawKind::Hendo => "変同",
            FlawKind::Hencho => "変長",
            FlawKind::Hayazume => "早詰",
            FlawKind::Komaamari => "駒余り",
        }
    }
}

/// One flaw found along the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flaw {
    pub kind: FlawKind,
    /// The move number (1-based) where the flaw's line leaves the main line; for 駒余り, the
    /// last move.
    pub ply: usize,
    /// The flaw's line, from the position before move `ply`: the second mate, the other
    /// defence, the shorter mate; for 駒余り, the main line's last move.
    pub line: Vec<Move>,
    /// Reported but not unsound: 余詰 at the last move or by promoting or not (成不成非限定),
    /// and 変同.
    pub tolerated: bool,
}

/// A question the check could not answer in its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The shortest mate's length.
    Shortest,
    /// Whether a shorter mate exists here.
    ShorterMate,
    /// Whether a second check mates within the remaining length.
    SecondMate,
    /// Whether a defence lasts longer, or as long.
    OtherDefence,
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Question::Shortest => "the shortest mate's length",
            Question::ShorterMate => "whether a shorter mate exists (早詰)",
            Question::SecondMate => "whether a second move mates (余詰)",
            Question::OtherDefence => "whether another defence lasts as long or longer (変同, 変長)",
        })
    }
}

/// Where the check ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undecided {
    /// The move number (1-based) being checked.
    pub ply: usize,
    pub question: Question,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// The shortest mate's length in plies; `None` when it was not found in time.
    pub shortest: Option<usize>,
    /// The main line checked.
    pub main_line: Vec<Move>,
    /// Every flaw found, in the order of the main line.
    pub flaws: Vec<Flaw>,
    /// The first question left unanswered, if the time ran out; the check stops there.
    pub undecided: Option<Undecided>,
    /// Nodes the exact search took.
    pub nodes: u64,
}

impl CheckReport {
    /// `Some(false)` when an untolerated flaw was found, `None` when none was but a question
    /// is undecided, `Some(true)` when the problem is sound.
    pub fn sound(&self) -> Option<bool> {
        if self.flaws.iter().any(|f| !f.tolerated) {
            Some(false)
        } else if self.undecided.is_some() {
            None
        } else {
            Some(true)
        }
    }
}

/// Why a position and line cannot be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    #[error("not a mate problem: {0}")]
    NotAProblem(NotAProblem),
    #[error("not a mate problem: the side to move is in check")]
    AttackerInCheck,
    #[error("there is no mate")]
    NoMate,
    #[error("the main line does not mate: {0}")]
    LineNotMate(VerifyError),
    #[error("the main line's move {ply} ({mv}) does not force mate: a defence escapes")]
    LineNotForced { ply: usize, mv: Move },
}

/// How long and with how much memory the check may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckLimits {
    pub time: Option<Duration>,
    pub hash_mb: usize,
    /// The longest mate looked for.
    pub max_plies: usize,
}

impl Default for CheckLimits {
    fn default() -> Self {
        CheckLimits {
            time: None,
            hash_mb: 256,
            max_plies: 255,
        }
    }
}

/// Checks the problem `root` (attacker to move) along `line`, or along the exact search's
/// answer when `line` is `None`. `progress` is told each move number as its check begins,
/// and the main line's length.
///
/// # Errors
/// The position is not a mate problem, it has no mate, or the line given does not mate or
/// does not force it.
pub fn check_problem(
    root: &Position,
    line: Option<&[Move]>,
    limits: &CheckLimits,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<CheckReport, CheckError> {
    if let Some(why) = not_a_problem(root) {
        return Err(CheckError::NotAProblem(why));
    }
    if root.in_check() {
        return Err(CheckError::AttackerInCheck);
    }
    if let Some(line) = line {
        verify(root, line, Claim::TsumeMate).map_err(CheckError::LineNotMate)?;
    }
    let deadline = limits.time.map(|t| Instant::now() + t);
    let mut stop = |_: &Poll| deadline.is_some_and(|d| Instant::now() >= d);
    let mut exact = Exact::new(root.side_to_move(), limits.hash_mb.max(1), &mut stop);
    let max = i32::try_from(limits.max_plies).unwrap_or(i32::MAX);
    let mut checker = Checker {
        exact: &mut exact,
        flaws: Vec::new(),
        max,
    };
    let shortest = checker.shortest_mate(&mut root.clone(), 1, max);
    let report = |checker: Checker, shortest, main_line: Vec<Move>, undecided| CheckReport {
        shortest,
        main_line,
        flaws: checker.flaws,
        undecided,
        nodes: checker.exact.nodes,
    };
    let shortest = match shortest {
        Found::Length(l) => l,
        Found::None => return Err(CheckError::NoMate),
        Found::Undecided => {
            let main = line.map(<[Move]>::to_vec).unwrap_or_default();
            let undecided = Undecided {
                ply: 1,
                question: Question::Shortest,
            };
            return Ok(report(checker, None, main, Some(undecided)));
        }
    };
    let main = if let Some(l) = line {
        l.to_vec()
    } else {
        let mut l = Vec::new();
        checker.exact.principal_line(&mut root.clone(), shortest, &mut l);
        if checker.exact.aborted {
            let undecided = Undecided {
                ply: 1,
                question: Question::Shortest,
            };
            return Ok(report(checker, plies(shortest), Vec::new(), Some(undecided)));
        }
        l
    };
    let undecided = checker.walk(root, &main, progress)?;
    Ok(report(checker, plies(shortest), main, undecided))
}

fn plies(l: i32) -> Option<usize> {
    usize::try_from(l).ok()
}

fn len_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The answer to a length question.
enum Found {
    Length(i32),
    None,
    Undecided,
}

struct Checker<'e, 'a> {
    exact: &'e mut Exact<'a>,
    flaws: Vec<Flaw>,
    /// The longest mate looked for.
    max: i32,
}

impl Checker<'_, '_> {
    /// Attacker to move: the shortest mate of `from` to `to` plies (odd).
    fn shortest_mate(&mut self, pos: &mut Position, from: i32, to: i32) -> Found {
        self.deepen(pos, from, to, true)
    }

    /// Defender to move: the longest counted defence, from `from` to `to` plies (even);
    /// `Found::None` when some defence escapes mate altogether.
    fn longest_defence(&mut self, pos: &mut Position, from: i32, to: i32) -> Found {
        self.deepen(pos, from, to, false)
    }

    /// The first bound from `from` to `to`, by twos, within which the attacker mates (with
    /// the attacker to move, `or_node`) or every counted defence is mated (`and_node`);
    /// `Found::None` when a bound failed without being cut off by its depth (no larger one
    /// holds either).
    fn deepen(&mut self, pos: &mut Position, from: i32, to: i32, attacker_to_move: bool) -> Found {
        let _ = self.exact.take_cut_off();
        let mut bound = from;
        while bound <= to {
            let holds = if attacker_to_move {
                self.exact.or_node(pos, bound)
            } else {
                self.exact.and_node(pos, bound)
            };
            let cut_off = self.exact.take_cut_off();
            if self.exact.aborted {
                return Found::Undecided;
            }
            if holds {
                return Found::Length(bound);
            }
            if !cut_off {
                return Found::None;
            }
            bound += 2;
        }
        Found::Undecided
    }

    /// Walks the main line, recording flaws; the first undecided question ends the walk.
    fn walk(
        &mut self,
        root: &Position,
        main: &[Move],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Option<Undecided>, CheckError> {
        let n = len_i32(main.len());
        let main_surplus = self.exact.surplus_after(&mut root.clone(), main);
        let mut pos = root.clone();
        for (i, &mv) in main.iter().enumerate() {
            let ply = i + 1;
            progress(ply, main.len());
            let r = n - len_i32(i);
            let undecided = |question| Ok(Some(Undecided { ply, question }));
            if i % 2 == 0 {
                if r > 2 {
                    match self.shortest_mate(&mut pos, 1, r - 2) {
                        Found::Length(s) => {
                            let mut line = Vec::new();
                            self.exact.principal_line(&mut pos, s, &mut line);
                            self.flaw(FlawKind::Hayazume, ply, line, false);
                        }
                        Found::Undecided if self.exact.aborted => return undecided(Question::ShorterMate),
                        // No mate within fewer plies (every shorter length failed).
                        Found::None | Found::Undecided => {}
                    }
                }
                if self.second_mates(&mut pos, mv, r, ply) {
                    return undecided(Question::SecondMate);
                }
            } else if self.other_defences(&mut pos, &main[i..], r, ply, main_surplus)? {
                return undecided(Question::OtherDefence);
            }
            if self.exact.aborted {
                return Ok(Some(Undecided {
                    ply,
                    question: if i % 2 == 0 {
                        Question::SecondMate
                    } else {
                        Question::OtherDefence
                    },
                }));
            }
            pos.do_move(mv);
        }
        if main_surplus > 0 {
            let last = main.last().copied().into_iter().collect();
            self.flaw(FlawKind::Komaamari, main.len(), last, false);
        }
        Ok(None)
    }

    fn flaw(&mut self, kind: FlawKind, ply: usize, line: Vec<Move>, tolerated: bool) {
        self.flaws.push(Flaw {
            kind,
            ply,
            line,
            tolerated,
        });
    }

    /// Attacker to move with `r` plies left: every check but `main` that mates within them is
    /// 余詰. Returns true when the time ran out.
    fn second_mates(&mut self, pos: &mut Position, main: Move, r: i32, ply: usize) -> bool {
        let mut checks = MoveList::new();
        generate_checks::<true>(pos, &mut checks);
        for &c in checks.iter().filter(|&&c| c != main) {
            pos.do_move(c);
            let mates = self.exact.and_node(pos, r - 1);
            let mut line = vec![c];
            if mates && !self.exact.aborted {
                // Its own length, for its line.
                if let Found::Length(m) = self.longest_defence(pos, 0, r - 1) {
                    self.exact.defence_line(pos, m, &mut line);
                }
            }
            pos.undo_move(c);
            if self.exact.aborted {
                return true;
            }
            if mates {
                // 最終手余詰 (a second mate at the last move of a longer problem) and
                // 成不成非限定 (the main move with or without promotion) are tolerated.
                let promotion_only = !c.is_drop() && !main.is_drop() && c.from() == main.from() && c.to() == main.to();
                // A one-move problem's second mate is a flaw like any other: not tolerated.
                let last_of_several = r == 1 && ply > 1;
                self.flaw(FlawKind::Yozume, ply, line, last_of_several || promotion_only);
            }
        }
        false
    }

    /// Defender to move with `r` plies left on the main line, which goes on with `rest`: a longer
    /// counted defence is 変長; another of the same length whose answer leaves the attacker no
    /// more pieces than the main line's `main_surplus` is 変同. Returns true when the time ran
    /// out.
    fn other_defences(
        &mut self,
        pos: &mut Position,
        rest: &[Move],
        r: i32,
        ply: usize,
        main_surplus: u32,
    ) -> Result<bool, CheckError> {
        let main = rest[0];
        let longest = match self.longest_defence(pos, r, self.max) {
            Found::Length(m) => m,
            Found::None => {
                let mv = pos.last_move().unwrap_or(main);
                return Err(CheckError::LineNotForced { ply: ply - 1, mv });
            }
            Found::Undecided => return Ok(true),
        };
        let defences = self.exact.longest_defences(pos, longest);
        if self.exact.aborted {
            return Ok(true);
        }
        if longest > r {
            // The main line's defence gives up too soon.
            let e = defences[0];
            let mut line = vec![e];
            pos.do_move(e);
            self.exact.principal_line(pos, longest - 1, &mut line);
            pos.undo_move(e);
            self.flaw(FlawKind::Hencho, ply, line, false);
            return Ok(self.exact.aborted);
        }
        // A main-line defence that is not among the longest counted ones is mated sooner, or
        // is a useless interposition (which does not count): either way the line from the
        // attacker's move before is longer than the mate there, and 早詰 was reported at it.
        for &e in defences.iter().filter(|&&e| e != main) {
            let mut line = vec![e];
            pos.do_move(e);
            self.exact.principal_line(pos, r - 1, &mut line);
            pos.undo_move(e);
            if self.exact.aborted {
                return Ok(true);
            }
            // Another kind of piece dropped on the main line's square, answered by the main
            // line's moves, is the same answer (合駒の種類違い), not a variation.
            let same_answer = e.is_drop() && main.is_drop() && e.to() == main.to() && line[1..] == rest[1..];
            if !same_answer && self.exact.surplus_after(pos, &line) <= main_surplus {
                self.flaw(FlawKind::Hendo, ply, line, true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(pos: &Position, text: &str) -> Vec<Move> {
        let mut p = pos.clone();
        text.split_whitespace()
            .map(|t| {
                let m = p.parse_move(t).unwrap();
                p.do_move(m);
                m
            })
            .collect()
    }

    fn run(sfen: &str, line: Option<&str>) -> Result<CheckReport, CheckError> {
        let pos = Position::from_sfen(sfen).unwrap();
        let line = line.map(|l| moves(&pos, l));
        check_problem(&pos, line.as_deref(), &CheckLimits::default(), &mut |_, _| {})
    }

    /// (kind, ply, first move of the line, tolerated) of every flaw.
    fn flaws(r: &CheckReport) -> Vec<(FlawKind, usize, String, bool)> {
        r.flaws
            .iter()
            .map(|f| (f.kind, f.ply, f.line[0].to_string(), f.tolerated))
            .collect()
    }

    // Problems of the ShogiBoardQ 9-ply collection (shortest mate and a unique main line
    // checked there with KomoringHeights), typed in as positions.
    const SOUND_9: &str = "+L1k1+L4/2s6/+P2R5/9/9/9/9/9/9 b r2b4g3s4n2l17p 1";
    const FINAL_ALTERNATIVE_9: &str = "+L8/2B6/kN7/s8/1R7/9/9/9/9 b rb4g3s3n3l18p 1";
    const FINAL_ALTERNATIVE_LINE: &str = "9a9b 9c9b 8c9a+ 9b9c 9a9b 9c9b 7b8a+ 9b9c 8e8b+";
    const HENDO_9: &str = "+r1+P6/k8/9/9/NGB6/N8/9/9/9 b rb3g4s2n4l17p 1";
    const HENDO_LINE: &str = "9f8d 9b8b 8d7b+ 8b9b 9e8c+ 9b8c 8e8d 8c9b 8d9c";
    const HENCHO_9: &str = "1+L2B4/9/k2G5/9/9/9/9/9/9 b G2rb2g4s4n3l18p 1";

    #[test]
    fn a_sound_problem_is_sound_along_the_solvers_line() {
        let r = run(SOUND_9, None).unwrap();
        assert_eq!(r.shortest, Some(9));
        assert_eq!(r.main_line.len(), 9);
        assert_eq!(flaws(&r), []);
        assert_eq!(r.sound(), Some(true));
        assert_eq!(r.undecided, None);
    }

    #[test]
    fn a_second_mate_at_the_last_move_is_tolerated() {
        let r = run(FINAL_ALTERNATIVE_9, Some(FINAL_ALTERNATIVE_LINE)).unwrap();
        assert_eq!(flaws(&r), [(FlawKind::Yozume, 9, "8a8b".into(), true)]);
        assert_eq!(r.sound(), Some(true));
    }

    #[test]
    fn a_second_mate_before_the_last_move_is_unsound() {
        // Symmetric: the silver drop works on either side of the king.
        let r = run("4k4/9/3P1P3/9/9/9/9/9/9 b GS 1", Some("S*4b 5a5b G*5c 5b6a 6c6b+")).unwrap();
        let f = flaws(&r);
        assert!(f.contains(&(FlawKind::Yozume, 1, "S*6b".into(), false)), "{f:?}");
        assert_eq!(r.sound(), Some(false));
        // The flaw's line is a mate within the remaining length.
        let second = &r.flaws.iter().find(|f| f.ply == 1).unwrap().line;
        let pos = Position::from_sfen("4k4/9/3P1P3/9/9/9/9/9/9 b GS 1").unwrap();
        assert!(second.len() <= 5);
        assert_eq!(verify(&pos, second, Claim::TsumeMate), Ok(()));
    }

    #[test]
    fn a_one_move_problem_with_two_mates_is_unsound() {
        let r = run("4k4/9/4P4/9/9/9/9/9/9 b G 1", None).unwrap();
        assert_eq!(r.shortest, Some(1));
        assert_eq!(r.sound(), Some(true), "{:?}", flaws(&r));
        let r = run("8k/9/8P/8N/9/9/9/9/9 b G 1", Some("G*1b")).unwrap();
        assert_eq!(flaws(&r), [(FlawKind::Yozume, 1, "G*2b".into(), false)]);
        assert_eq!(r.sound(), Some(false));
    }

    #[test]
    fn pieces_left_in_hand_are_komaamari() {
        let r = run("4k4/9/4P4/9/9/9/9/9/9 b GS 1", None).unwrap();
        assert_eq!(r.shortest, Some(1));
        assert!(flaws(&r).contains(&(FlawKind::Komaamari, 1, "G*5b".into(), false)));
        assert_eq!(r.sound(), Some(false));
    }

    #[test]
    fn an_equal_defence_is_hendo_and_tolerated() {
        let r = run(HENDO_9, Some(HENDO_LINE)).unwrap();
        assert_eq!(flaws(&r), [(FlawKind::Hendo, 2, "9b9c".into(), true)]);
        assert_eq!(r.sound(), Some(true));
    }

    #[test]
    fn a_defence_that_gives_up_early_is_hencho() {
        // The main line's 8b8a at move 6 lasts longer than 8b7a.
        let r = run(HENCHO_9, Some("G*8d 9c9b 8a8b 9b8b 5a7c+ 8b7a 7c7b")).unwrap();
        assert!(
            flaws(&r).contains(&(FlawKind::Hencho, 6, "8b8a".into(), false)),
            "{:?}",
            flaws(&r)
        );
        assert_eq!(r.shortest, Some(9));
        assert_eq!(r.sound(), Some(false));
    }

    #[test]
    fn a_longer_line_than_the_mate_is_hayazume() {
        // At move 9 the line takes 7c7d (then an interposition) where 7b8b mates at once.
        let line = "9a9b 9c9b 8c9a+ 9b9c 9a9b 9c9b 7b8a+ 9b9c 8a7a R*8b 8e8b+";
        let r = run(FINAL_ALTERNATIVE_9, Some(line)).unwrap();
        assert!(
            flaws(&r).iter().any(|f| f.0 == FlawKind::Hayazume && f.1 == 9),
            "{:?}",
            flaws(&r)
        );
        assert_eq!(r.sound(), Some(false));
    }

    #[test]
    fn what_cannot_be_checked_is_an_error() {
        assert!(matches!(
            run("9/9/9/9/9/9/9/9/4K4 b G 1", None),
            Err(CheckError::NotAProblem(NotAProblem::NoKingToMate(_)))
        ));
        assert_eq!(
            run("4k4/9/9/9/9/9/9/4r4/4K4 b G 1", None),
            Err(CheckError::AttackerInCheck)
        );
        assert_eq!(run("4k4/9/9/9/9/9/9/9/9 b P 1", None), Err(CheckError::NoMate));
        assert!(matches!(
            run("4k4/9/4P4/9/9/9/9/9/9 b G 1", Some("G*4b")),
            Err(CheckError::LineNotMate(_))
        ));
    }

    #[test]
    fn out_of_time_is_undecided_not_a_guess() {
        let pos = Position::from_sfen(SOUND_9).unwrap();
        let limits = CheckLimits {
            time: Some(Duration::ZERO),
            ..CheckLimits::default()
        };
        let r = check_problem(&pos, None, &limits, &mut |_, _| {}).unwrap();
        assert_eq!(r.sound(), None);
        assert_eq!(
            r.undecided,
            Some(Undecided {
                ply: 1,
                question: Question::Shortest
            })
        );
    }
}
