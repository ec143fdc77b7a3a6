//! `mate FILE [--time-ms N] [--limit N] [--skip-stated-nomate]`: run a file of mate problems
//! (plain SFEN lines, or the `sfen<TAB>length<TAB>solution<TAB>note` files of the shared data).

use crate::perft_cmd::parse_position;
use anyhow::Result;
use soppo_core::Position;
use soppo_engine::mate::{MateConfig, MateProgress, solve_with};
use soppo_engine::search::SearchControl;
use soppo_train::{progress, tsv};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

pub use soppo_engine::mate::MateOutcome as Outcome;

/// The answer of the solver, with its cost.
#[derive(Debug, Clone)]
pub struct SolveResult {
    pub outcome: Outcome,
    /// Nodes of the last progress report (0 when the solver reported none).
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Runs the mate solver on `pos` with the given tables and threads.
pub fn solve_position(pos: &Position, time_limit: Option<Duration>, config: &MateConfig) -> SolveResult {
    let control = SearchControl::default();
    let start = Instant::now();
    let mut nodes = 0;
    let outcome = solve_with(pos, time_limit, config, &control, |p: &MateProgress| nodes = p.nodes);
    SolveResult {
        outcome,
        nodes,
        elapsed: start.elapsed(),
    }
}

/// A duration for display: `12.3 ms`.
pub fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Checks the line of a solver's answer as its kind promises it ([`Outcome::verify`]); an
/// answer without a line passes.
///
/// # Errors
/// Why the line is not what its kind promises.
pub fn verify_outcome(pos: &Position, outcome: &Outcome) -> std::result::Result<(), String> {
    outcome.verify(pos).map_err(|e| e.to_string())
}

/// The length column of a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stated {
    /// A mate of at most this many plies.
    Plies(u32),
    /// `?`: the source states no answer (in the shared data: mate-engine test positions of
    /// unknown length, and no-mate candidates whose status is not known). Such a row has no
    /// reference: a sound answer neither passes nor fails, only a broken one fails.
    Unknown,
    /// `?`, but the note gives the length of a mate cshogi found (`cshogi_min=N`,
    /// `cshogi_mate<=N`). cshogi counts useless interpositions as defences, so the tsume
    /// answer is at most that long: judged as a stated length.
    CshogiFound(u32),
    /// `nomate`.
    NoMate,
    /// `nomate<=N`: no mate within N plies.
    NoMateWithin(u32),
    /// A plain SFEN line: solved when mated.
    Unstated,
}

impl fmt::Display for Stated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stated::Plies(n) => write!(f, "{n}"),
            Stated::Unknown => f.write_str("?"),
            Stated::CshogiFound(n) => write!(f, "? (cshogi {n})"),
            Stated::NoMate => f.write_str("nomate"),
            Stated::NoMateWithin(n) => write!(f, "nomate<={n}"),
            Stated::Unstated => f.write_str("mate"),
        }
    }
}

impl Stated {
    fn parse(text: &str) -> std::result::Result<Stated, String> {
        let t = text.trim();
        if t == "?" {
            Ok(Stated::Unknown)
        } else if t == "nomate" {
            Ok(Stated::NoMate)
        } else if let Some(n) = t.strip_prefix("nomate<=") {
            n.parse()
                .map(Stated::NoMateWithin)
                .map_err(|e| format!("bad length `{t}`: {e}"))
        } else {
            t.parse()
                .map(Stated::Plies)
                .map_err(|e| format!("bad length `{t}`: {e}"))
        }
    }

    /// A `?` row with cshogi's mate length in its note becomes [`Stated::CshogiFound`].
    fn with_note(self, note: &str) -> Stated {
        if self != Stated::Unknown {
            return self;
        }
        let found = note.split(';').find_map(|field| {
            let field = field.trim();
            field
                .strip_prefix("cshogi_min=")
                .or_else(|| field.strip_prefix("cshogi_mate<="))
                .and_then(|n| n.parse().ok())
        });
        found.map_or(self, Stated::CshogiFound)
    }

    fn is_nomate(self) -> bool {
        matches!(self, Stated::NoMate | Stated::NoMateWithin(_))
    }
}

/// A row whose length column could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRow {
    pub line: usize,
    pub sfen: String,
    pub why: String,
}

/// One problem of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number.
    pub line: usize,
    pub sfen: String,
    pub stated: Stated,
}

/// Reads the problems of a file (tab-separated rows or plain SFEN lines), skipping blank
/// lines and `#` comments. Unreadable length columns are reported with their line number.
pub fn parse_problems(text: &str) -> Vec<std::result::Result<Problem, BadRow>> {
    tsv::rows(text)
        .map(|row| {
            let (line, sfen) = (row.line, row.first().to_string());
            let stated = match row.get(1).filter(|c| !c.is_empty()) {
                None => Ok(Stated::Unstated),
                Some(c) => Stated::parse(c).map(|s| s.with_note(row.get(3).unwrap_or(""))),
            };
            match stated {
                Ok(stated) => Ok(Problem { line, sfen, stated }),
                Err(why) => Err(BadRow { line, sfen, why }),
            }
        })
        .collect()
}

/// What the solver answered, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Got {
    Mate(u32),
    /// A long mate shown shortest by df-pn's bounded searches (see `MateOutcome::Shortest`).
    Shortest(u32),
    /// A proven mating line not shown shortest in the time given.
    Proven(u32),
    BadMate(String),
    NoMate,
    Timeout,
    BadInput(String),
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Got::Mate(n) => write!(f, "mate {n}"),
            Got::Shortest(n) => write!(f, "shortest mate {n} (df-pn)"),
            Got::Proven(n) => write!(f, "proven mate, line of {n} plies not shown shortest"),
            Got::BadMate(why) => write!(f, "unverified mate ({why})"),
            Got::NoMate => f.write_str("nomate"),
            Got::Timeout => f.write_str("timeout"),
            Got::BadInput(why) => write!(f, "bad input ({why})"),
        }
    }
}

/// How a problem's answer compares with its stated one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    Passed,
    Failed,
    /// The row states no answer (`?`) and the solver's is sound: a verified mate, a proven
    /// no-mate, or a timeout.
    NoReference,
}

/// Judges `got` against `stated`.
pub fn judge(stated: Stated, got: &Got) -> Judgement {
    if stated == Stated::Unknown {
        return if matches!(got, Got::BadMate(_) | Got::BadInput(_)) {
            Judgement::Failed
        } else {
            Judgement::NoReference
        };
    }
    if passes(stated, got) {
        Judgement::Passed
    } else {
        Judgement::Failed
    }
}

/// Whether `got` answers `stated` (rows that state an answer).
pub fn passes(stated: Stated, got: &Got) -> bool {
    match (stated, got) {
        (Stated::Plies(n) | Stated::CshogiFound(n), Got::Mate(len) | Got::Shortest(len)) => *len <= n,
        (Stated::NoMateWithin(n), Got::Mate(len) | Got::Shortest(len)) => *len > n,
        _ => matches!(
            (stated, got),
            (Stated::Unstated, Got::Mate(_) | Got::Shortest(_) | Got::Proven(_))
                | (Stated::NoMate | Stated::NoMateWithin(_), Got::NoMate | Got::Timeout)
        ),
    }
}

/// Totals of a run.
#[derive(Debug, Default)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    /// Rows without a stated answer, answered soundly (see [`Judgement::NoReference`]).
    pub unreferenced: usize,
}

struct Mismatch {
    line: usize,
    sfen: String,
    stated: String,
    got: String,
}

/// Runs the problems of `path`, prints a summary, and returns the totals.
pub fn run(
    path: &Path,
    time_limit: Option<Duration>,
    limit: Option<usize>,
    skip_nomate: bool,
    config: &MateConfig,
) -> Result<Summary> {
    let text = tsv::read(path)?;
    let mut problems = parse_problems(&text);
    if skip_nomate {
        problems.retain(|p| !matches!(p, Ok(p) if p.stated.is_nomate()));
    }
    if let Some(n) = limit {
        problems.truncate(n);
    }
    let bar = progress::with_template(problems.len() as u64, "{bar:40} {pos}/{len} {elapsed_precise} {msg}");
    let mut summary = Summary::default();
    let mut mismatches = Vec::new();
    let mut unreferenced = Vec::new();
    let mut times = Vec::new();
    let mut total_nodes = 0u64;
    let mut solved = 0usize;
    for problem in &problems {
        let (line, sfen, stated, got) = match problem {
            Err(bad) => (
                bad.line,
                bad.sfen.clone(),
                "?".to_string(),
                Got::BadInput(bad.why.clone()),
            ),
            Ok(p) => {
                let got = match parse_position(&p.sfen) {
                    Err(e) => Got::BadInput(format!("{e:#}")),
                    Ok(pos) => {
                        let r = solve_position(&pos, time_limit, config);
                        times.push(r.elapsed);
                        total_nodes += r.nodes;
                        let answer = match &r.outcome {
                            Outcome::Mate(mv) => format!("mate {}", mv.len()),
                            Outcome::Shortest(mv) => format!("shortest mate {} (df-pn)", mv.len()),
                            Outcome::Proven(mv) => format!("proven mate, line {} (not shown shortest)", mv.len()),
                            Outcome::NoMate => "nomate".to_string(),
                            Outcome::Timeout => "timeout".to_string(),
                        };
                        bar.suspend(|| {
                            println!(
                                "line {}: {answer} in {}, {} nodes (stated {})",
                                p.line,
                                millis(r.elapsed),
                                r.nodes,
                                p.stated
                            );
                        });
                        match (verify_outcome(&pos, &r.outcome), r.outcome) {
                            (Err(why), _) => Got::BadMate(why),
                            (Ok(()), Outcome::Mate(mv)) => {
                                solved += 1;
                                Got::Mate(mv.len() as u32)
                            }
                            (Ok(()), Outcome::Shortest(mv)) => Got::Shortest(mv.len() as u32),
                            (Ok(()), Outcome::Proven(mv)) => Got::Proven(mv.len() as u32),
                            (Ok(()), Outcome::NoMate) => Got::NoMate,
                            (Ok(()), Outcome::Timeout) => Got::Timeout,
                        }
                    }
                };
                match judge(p.stated, &got) {
                    Judgement::Passed => {
                        summary.passed += 1;
                        bar.inc(1);
                        continue;
                    }
                    Judgement::NoReference => {
                        summary.unreferenced += 1;
                        unreferenced.push(format!("  line {}: {}  got {got}", p.line, p.sfen));
                        bar.inc(1);
                        continue;
                    }
                    Judgement::Failed => {}
                }
                (p.line, p.sfen.clone(), p.stated.to_string(), got)
            }
        };
        summary.failed += 1;
        bar.set_message(format!("{} failed", summary.failed));
        mismatches.push(Mismatch {
            line,
            sfen,
            stated,
            got: got.to_string(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();

    times.sort_unstable();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let max = times.last().copied().unwrap_or_default();
    println!(
        "solved {solved}/{} with a verified mate; time median {}, max {}; {total_nodes} nodes",
        problems.len(),
        millis(median),
        millis(max)
    );
    if !mismatches.is_empty() {
        println!("mismatches:");
        for m in &mismatches {
            println!("  line {}: {}  stated {}  got {}", m.line, m.sfen, m.stated, m.got);
        }
    }
    if !unreferenced.is_empty() {
        println!(
            "{} rows state no answer (`?`), neither passed nor failed:",
            unreferenced.len()
        );
        for u in &unreferenced {
            println!("{u}");
        }
    }
    println!("mate suite: {} passed, {} failed", summary.passed, summary.failed);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stated_lengths() {
        let text = "# c\n\nsfen1\t3\t-\tnote\nsfen2\t?\nsfen3\tnomate\nsfen4\tnomate<=5\nsfen5\nsfen6\tx\n\
                    sfen7\t?\t-\tsrc=X;cshogi_min=7;length not stated\nsfen8\t?\t-\tsrc=X;cshogi_mate<=23\n\
                    sfen9\t?\t-\tsrc=X;cshogi=unknown\n";
        let v = parse_problems(text);
        assert_eq!(v.len(), 9);
        assert_eq!(v[6].as_ref().unwrap().stated, Stated::CshogiFound(7));
        assert_eq!(v[7].as_ref().unwrap().stated, Stated::CshogiFound(23));
        assert_eq!(v[8].as_ref().unwrap().stated, Stated::Unknown);
        assert_eq!(v[0].as_ref().unwrap().stated, Stated::Plies(3));
        assert_eq!(v[0].as_ref().unwrap().line, 3);
        assert_eq!(v[1].as_ref().unwrap().stated, Stated::Unknown);
        assert_eq!(v[2].as_ref().unwrap().stated, Stated::NoMate);
        assert_eq!(v[3].as_ref().unwrap().stated, Stated::NoMateWithin(5));
        assert_eq!(v[4].as_ref().unwrap().stated, Stated::Unstated);
        assert!(v[5].is_err());
    }

    #[test]
    fn pass_rules() {
        assert!(passes(Stated::Plies(3), &Got::Mate(3)));
        assert!(passes(Stated::Plies(3), &Got::Mate(1)));
        assert!(!passes(Stated::Plies(1), &Got::Mate(3)));
        assert!(!passes(Stated::Plies(3), &Got::Timeout));
        assert_eq!(judge(Stated::Unknown, &Got::Mate(7)), Judgement::NoReference);
        assert_eq!(judge(Stated::Unknown, &Got::NoMate), Judgement::NoReference);
        assert_eq!(judge(Stated::Unknown, &Got::Timeout), Judgement::NoReference);
        assert_eq!(judge(Stated::Unknown, &Got::BadMate(String::new())), Judgement::Failed);
        assert_eq!(judge(Stated::Plies(3), &Got::Mate(3)), Judgement::Passed);
        assert_eq!(judge(Stated::CshogiFound(7), &Got::Mate(5)), Judgement::Passed);
        assert_eq!(judge(Stated::CshogiFound(7), &Got::Timeout), Judgement::Failed);
        assert_eq!(judge(Stated::CshogiFound(3), &Got::Shortest(5)), Judgement::Failed);
        assert_eq!(judge(Stated::NoMate, &Got::Mate(3)), Judgement::Failed);
        assert!(passes(Stated::NoMateWithin(3), &Got::Mate(5)));
        assert!(!passes(Stated::NoMateWithin(3), &Got::Mate(3)));
        assert!(passes(Stated::NoMateWithin(3), &Got::Timeout));
        assert!(passes(Stated::NoMate, &Got::NoMate));
        assert!(!passes(Stated::NoMate, &Got::Mate(9)));
        assert!(!passes(Stated::Unstated, &Got::NoMate));
        assert!(!passes(Stated::Plies(3), &Got::BadMate(String::new())));
    }

    #[test]
    fn verifies_mates() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        let good = [pos.parse_move("G*5b").unwrap()];
        assert_eq!(verify_outcome(&pos, &Outcome::Mate(good.to_vec())), Ok(()));
        let bad = [pos.parse_move("G*4b").unwrap()];
        assert!(verify_outcome(&pos, &Outcome::Mate(bad.to_vec())).is_err());
        assert!(verify_outcome(&pos, &Outcome::Shortest(bad.to_vec())).is_err());
        assert!(verify_outcome(&pos, &Outcome::Proven(bad.to_vec())).is_err());
        assert!(
            verify_outcome(&pos, &Outcome::Mate(Vec::new())).is_err(),
            "an empty line"
        );
    }

    /// A proven line may end where the defender has only useless interpositions left (a tsume
    /// answer leaves them out): row 103 of `mate_curated.tsv`, a 25-ply line `go mate` printed
    /// at 3 s, ends with a lance check that only drops in front of it could answer. The check
    /// of proven lines accepts it; it still refuses a line cut one check short.
    #[test]
    fn proven_lines_are_checked_under_tsume_rules() {
        let mut pos =
            Position::from_sfen("l7l/2+Rbk4/3rp4/2p3pPs/p2P1p2p/2P1G4/P1N1PPN2/2GK2G2/L7L b B2S6Pgs2n 1").unwrap();
        let root = pos.clone();
        let text = "7b6c 5b6c 6e6d 6c5d S*5e 5d4c 5e4d 4c4d R*4a G*4c 5f4e 4d3c 2d2c+ 1d2c 4a3a+ 2c3b \
                    B*2b 3c2c P*2d 2c2d S*2e 2d2c P*2d 2c1b 1i1e";
        let mut line = Vec::new();
        for t in text.split_whitespace() {
            let m = pos.parse_move(t).unwrap();
            pos.do_move(m);
            line.push(m);
        }
        assert!(!pos.is_checkmate(), "the defender can still drop in front of the lance");
        assert_eq!(verify_outcome(&root, &Outcome::Proven(line.clone())), Ok(()));
        assert!(verify_outcome(&root, &Outcome::Proven(line[..23].to_vec())).is_err());
    }
}
