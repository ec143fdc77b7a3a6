//! A fuzzer for the USI front end and the controller: random and mutated GUI lines fed to the
//! real `soppo` binary.
//!
//! Lines come from a corpus of what real GUIs send (every command, with the values they use and
//! some they should not), mutated now and then: tokens deleted, repeated, swapped or replaced by
//! extreme numbers and keywords, bytes flipped, raw bytes and invalid UTF-8 inserted, lines cut
//! short or joined. They go out in batches; each batch ends with `stop` and `isready`, and then
//!
//! - every `go` (a line the engine's own parser reads as one) has had exactly one answer, in
//!   order: `checkmate` for `go mate`, `bestmove` otherwise, legal in the position the engine had
//!   (tracked with [`Position::from_usi_moves`], which the engine uses too), or a mating line
//!   that holds;
//! - `readyok` comes, so the engine is alive and answering;
//! - every line printed was a USI message in printable ASCII, none beginning with `error`
//!   ([`crate::engine::check_engine_line`]).
//!
//! Lines that would end or block the session on purpose are not sent: `quit`, `bench` (it
//! cannot be stopped), `perft` deeper than 3, a `USI_Hash` above 1024 MiB (each new size costs
//! an `isready` up to 3 s; the hash limits have their own tests). The short run is
//! `tests/usi_fuzz.rs`; the long one the `usi-fuzz` binary of this package.

use crate::engine::{Engine, PROMPT, check_bestmove, check_mate_line, parse_checkmate, transcript_lines};
use soppo_core::Position;
use soppo_core::declaration::EnteringKingRule;
use soppo_core::rng::SplitMix64 as Rng;
use soppo_usi::{CheckmateResult, EngineMessage, GuiMessage, OptionKind, parse_engine_line, parse_gui_line_mending};
use std::time::{Duration, Instant};

/// How a fuzz run goes.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Lines to send in all (the `stop`/`isready` ending each batch not counted).
    pub lines: u64,
    /// Lines in a batch.
    pub batch: usize,
    /// Lines in one engine process before a fresh one is started.
    pub lines_per_session: u64,
    pub seed: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    pub lines: u64,
    /// Lines that were mutated or raw garbage rather than taken from the corpus as they are.
    pub mutated: u64,
    pub gos: u64,
    pub batches: u64,
    pub sessions: u64,
    pub elapsed: Duration,
}

/// Runs the fuzzer; `progress` is told after every batch. A misbehaviour of the engine panics
/// with the reason and the end of the session's transcript.
pub fn run(config: &FuzzConfig, mut progress: impl FnMut(&FuzzReport)) -> FuzzReport {
    let started = Instant::now();
    let mut rng = Rng::new(config.seed);
    let mut report = FuzzReport::default();
    while report.lines < config.lines {
        let mut session = Session::start();
        report.sessions += 1;
        let session_end = (report.lines + config.lines_per_session).min(config.lines);
        while report.lines < session_end {
            let n = (config.batch as u64).min(session_end - report.lines);
            session.batch(&mut rng, n, &mut report);
            report.batches += 1;
            report.elapsed = started.elapsed();
            progress(&report);
        }
        session.engine.quit(PROMPT);
    }
    report.elapsed = started.elapsed();
    report
}

/// A `go` sent, with what its answer must be checked against.
struct Pending {
    line: String,
    mate: bool,
    pos: Position,
}

/// One engine process and what the engine holds, as far as the answers need it.
struct Session {
    engine: Engine,
    position: Position,
    entering_king_rule: EnteringKingRule,
}

impl Session {
    fn start() -> Session {
        let engine = Engine::start();
        check_entering_king_rules(&engine);
        Session {
            engine,
            position: Position::startpos(),
            entering_king_rule: EnteringKingRule::default(),
        }
    }

    fn batch(&mut self, rng: &mut Rng, lines: u64, report: &mut FuzzReport) {
        let mut pending = Vec::new();
        let mut sent = 0;
        while sent < lines {
            let (bytes, mutated) = fuzz_line(rng);
            // What the engine's front end will make of it (see `frontend::read_commands`).
            let text = String::from_utf8_lossy(&bytes).trim().to_owned();
            let parsed = parse_gui_line_mending(&text).map(|(m, _)| m);
            if let Ok(msg) = &parsed
                && !worth_sending(msg)
            {
                continue;
            }
            let mut raw = bytes;
            raw.push(b'\n');
            self.engine.send_raw(&raw);
            sent += 1;
            report.lines += 1;
            report.mutated += u64::from(mutated);
            match parsed {
                Ok(GuiMessage::Go(go)) => pending.push(Pending {
                    line: text,
                    mate: go.mate.is_some(),
                    pos: self.position.clone(),
                }),
                Ok(GuiMessage::Position { start, moves }) => {
                    // A position the engine refuses leaves the previous one, here too.
                    if let Ok(p) = Position::from_usi_moves(start.sfen(), &moves) {
                        self.position = p;
                    }
                }
                Ok(GuiMessage::SetOption { name, value }) => {
                    if let Some(rule) = entering_king_rule(&name, value.as_deref()) {
                        self.entering_king_rule = rule;
                    }
                }
                _ => {}
            }
            // Read as we go, so that the engine never blocks on a full pipe and the
            // transcript keeps the real interleaving.
            while self.engine.next_line(Duration::ZERO).is_some() {}
        }
        self.engine.send("stop");
        self.check_answers(&pending);
        self.engine.sync();
        report.gos += pending.len() as u64;
        self.engine.forget(transcript_lines());
    }

    /// Waits for the batch's answers and checks each against its `go`.
    fn check_answers(&mut self, pending: &[Pending]) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let is_answer = |l: &str| l.starts_with("bestmove") || l.starts_with("checkmate");
        // Those read while the batch was sent, then the rest.
        let mut answers: Vec<String> = self
            .engine
            .received()
            .iter()
            .filter(|l| is_answer(l))
            .cloned()
            .collect();
        while answers.len() < pending.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.engine.next_line(left) {
                Some(line) if is_answer(&line) => answers.push(line),
                Some(_) => {}
                None => {
                    let gos: Vec<String> = pending.iter().map(|p| p.line.chars().take(80).collect()).collect();
                    self.engine.fail(&format!(
                        "{} answers for {} go commands within 30 s of `stop`; the gos: {gos:#?}",
                        answers.len(),
                        pending.len()
                    ))
                }
            }
        }
        if answers.len() > pending.len() {
            self.engine
                .fail(&format!("{} answers for {} go commands", answers.len(), pending.len()));
        }
        for (answer, go) in answers.iter().zip(pending) {
            let result = if go.mate {
                match answer.starts_with("checkmate").then(|| parse_checkmate(answer)) {
                    None => Err("go mate must be answered by checkmate".to_owned()),
                    Some(CheckmateResult::Mate(moves)) => check_mate_line(&go.pos, &moves),
                    Some(_) => Ok(()),
                }
            } else if answer == "bestmove resign" {
                // Always a legal answer: the engine resigns where its search sees itself mated
                // or below `ResignValue`, which a mutated `setoption` may have set.
                Ok(())
            } else if answer.starts_with("bestmove") {
                check_bestmove(&go.pos, answer, self.entering_king_rule)
            } else {
                Err("a normal go must be answered by bestmove".to_owned())
            };
            if let Err(why) = result {
                self.engine.fail(&format!(
                    "`{}` in {}: answered `{answer}`: {why}",
                    go.line,
                    go.pos.to_sfen()
                ));
            }
        }
    }
}

/// Whether a line the engine reads as `msg` belongs in a fuzz run (see the module's notes).
fn worth_sending(msg: &GuiMessage) -> bool {
    match msg {
        GuiMessage::Quit | GuiMessage::Bench(_) => false,
        GuiMessage::Perft(depth) => *depth <= 3,
        GuiMessage::SetOption { name, value } if name.eq_ignore_ascii_case("USI_Hash") => value
            .as_deref()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .is_none_or(|mb| mb <= 1024),
        _ => true,
    }
}

/// The values of the engine's `EnteringKingRule` option (`engine/src/options.rs`).
const ENTERING_KING_RULES: [(&str, EnteringKingRule); 5] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule24H", EnteringKingRule::Csa24Handicap),
    ("CSARule27", EnteringKingRule::Csa27),
    ("CSARule27H", EnteringKingRule::Csa27Handicap),
];

/// The rule a `setoption name <name> value <value>` sets, read as the engine reads it: name
/// and value matched ignoring case, the value trimmed. `None` for another option or a value
/// the engine refuses, which leaves the rule as it was.
fn entering_king_rule(name: &str, value: Option<&str>) -> Option<EnteringKingRule> {
    if !name.eq_ignore_ascii_case("EnteringKingRule") {
        return None;
    }
    let value = value.unwrap_or("").trim();
    ENTERING_KING_RULES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(value))
        .map(|&(_, rule)| rule)
}

/// Fails unless the engine's `usi` answer declares `EnteringKingRule` with the values of
/// [`ENTERING_KING_RULES`] and the default [`EnteringKingRule::default`], which the fuzzer
/// assumes of a fresh engine.
fn check_entering_king_rules(engine: &Engine) {
    let declared = engine.received().iter().find_map(|l| match parse_engine_line(l) {
        Ok(EngineMessage::Option(o)) if o.name == "EnteringKingRule" => Some(o.kind),
        _ => None,
    });
    let names: Vec<&str> = ENTERING_KING_RULES.iter().map(|(n, _)| *n).collect();
    let matches = match &declared {
        Some(OptionKind::Combo { default, vars }) => {
            *vars == names && entering_king_rule("EnteringKingRule", Some(default)) == Some(EnteringKingRule::default())
        }
        _ => false,
    };
    engine.check(matches, || {
        format!(
            "the engine declares EnteringKingRule as {declared:?}; the fuzzer assumes {names:?}, default {:?}",
            EnteringKingRule::default()
        )
    });
}

/// What GUIs send, with the values they use and some they should not.
const CORPUS: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "setoption name USI_Hash value 16",
    "setoption name USI_Hash value 1",
    "setoption name USI_Ponder value true",
    "setoption name Threads value 2",
    "setoption name Threads value 1",
    "setoption name MultiPV value 3",
    "setoption name MultiPV value 800",
    "setoption name NetworkDelay value 0",
    "setoption name NetworkDelay2 value 0",
    "setoption name MinimumThinkingTime value 100",
    "setoption name ResignValue value 500",
    "setoption name EnteringKingRule value CSARule24",
    "setoption name MaxMovesToDraw value 4",
    "setoption name DepthLimit value 3",
    "setoption name DepthLimit value 0",
    "setoption name NodesLimit value 2000",
    "setoption name NodesLimit value 0",
    "setoption name SoppoCut value Dynamic",
    "setoption name StaticMateEval value false",
    "setoption name MateSuperPiece value false",
    "setoption name MateInterposition value PerKind",
    "setoption name Unknown Option value 3",
    "setoption name USI_Hash",
    "position startpos",
    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
    "position startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c",
    "position startpos moves 7g7f pass 2g2f",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "position sfen 8k/9/9/9/9/9/9/9/K8 b - 1",
    "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
    "position sfen LNSGKGSNL/9/PPPPPPPPP/9/9/9/ppppppppp/9/lnsgkgsnl w - 1 moves 5a5b",
    "go byoyomi 100",
    "go btime 0 wtime 0 byoyomi 200",
    "go btime 1000 wtime 1000 byoyomi 0",
    "go btime 5000 wtime 5000 binc 100 winc 100",
    "go depth 3",
    "go nodes 5000",
    "go movetime 50",
    "go",
    "go infinite",
    "go ponder btime 1000 wtime 1000 byoyomi 100",
    "go ponder",
    "go mate 200",
    "go mate infinite",
    "go mate",
    "stop",
    "ponderhit",
    "ponderhit btime 1000 wtime 1000 byoyomi 100",
    "gameover win",
    "gameover lose",
    "gameover draw",
    "gameover",
    "d",
    "perft 2",
];

/// Words and values a mutation puts in.
const WORDS: &[&str] = &[
    "go",
    "position",
    "sfen",
    "startpos",
    "moves",
    "setoption",
    "name",
    "value",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "0",
    "-1",
    "1",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999",
    "9223372036854775807",
    "NaN",
    "7g7f",
    "P*5e",
    "8h2b+",
    "0000",
    "pass",
    "null",
    "resign",
    "win",
    "+",
    "/",
    "b",
    "w",
    "-",
    "true",
    "false",
    "",
];

/// A line to send: from the corpus, mutated one to three times three lines in four, or now and
/// then raw bytes. Never a line break inside. Returns whether it was changed.
fn fuzz_line(rng: &mut Rng) -> (Vec<u8>, bool) {
    let base = rng.pick(CORPUS).as_bytes().to_vec();
    let line = match rng.below(16) {
        0..=3 => return (base, false),
        4 => (0..rng.below(200)).map(|_| rng.next_u64() as u8).collect(),
        _ => {
            let mut line = base;
            for _ in 0..=rng.below(3) {
                line = mutate(rng, line);
            }
            line
        }
    };
    // A line break would make two lines; the engine's parse of each is not what was checked.
    let line = line.into_iter().map(|b| if b == b'\n' { b' ' } else { b }).collect();
    (line, true)
}

fn mutate(rng: &mut Rng, line: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&line).into_owned();
    let mut tokens: Vec<String> = text.split(' ').map(str::to_owned).collect();
    let at = |rng: &mut Rng, n: usize| rng.below(n.max(1) as u64) as usize;
    match rng.below(11) {
        0 if !tokens.is_empty() => {
            let i = at(rng, tokens.len());
            tokens.remove(i);
        }
        1 => {
            let i = at(rng, tokens.len());
            let word = tokens.get(i).cloned().unwrap_or_default();
            tokens.insert(i, word);
        }
        2 if tokens.len() > 1 => {
            let (i, j) = (at(rng, tokens.len()), at(rng, tokens.len()));
            tokens.swap(i, j);
        }
        3 if !tokens.is_empty() => {
            let i = at(rng, tokens.len());
            (*rng.pick(WORDS)).clone_into(&mut tokens[i]);
        }
        4 => {
            let i = at(rng, tokens.len() + 1).min(tokens.len());
            tokens.insert(i, (*rng.pick(WORDS)).to_owned());
        }
        5 if !tokens.is_empty() => {
            // A token repeated into a long line (up to some 40 KB).
            let i = at(rng, tokens.len());
            let times = 1 + rng.below(4000) as usize;
            let word = tokens[i].clone();
            tokens.splice(i..=i, std::iter::repeat_n(word, times));
        }
        6 => {
            let mut bytes = line;
            let cut = at(rng, bytes.len() + 1).min(bytes.len());
            bytes.truncate(cut);
            return bytes;
        }
        7 if !line.is_empty() => {
            let mut bytes = line;
            let i = at(rng, bytes.len());
            bytes[i] ^= 1 << rng.below(8);
            return bytes;
        }
        8 => {
            let mut bytes = line;
            let i = at(rng, bytes.len() + 1).min(bytes.len());
            let junk = *rng.pick(&[
                &b"\r"[..],
                b"\t",
                b"\0",
                b"\xff\xfe",
                b"\xe3\x81\x82",
                b"  ",
                b"\x1b[2J",
                b"\x80",
            ]);
            bytes.splice(i..i, junk.iter().copied());
            return bytes;
        }
        9 => {
            let mut bytes = line;
            bytes.push(b' ');
            bytes.extend_from_slice(rng.pick(CORPUS).as_bytes());
            return bytes;
        }
        _ => return text.to_ascii_uppercase().into_bytes(),
    }
    tokens.join(" ").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_lines_have_no_line_break_and_many_are_mutated() {
        let mut rng = Rng::new(7);
        let lines: Vec<(Vec<u8>, bool)> = (0..2000).map(|_| fuzz_line(&mut rng)).collect();
        assert!(lines.iter().all(|(l, _)| !l.contains(&b'\n')));
        let mutated = lines.iter().filter(|(_, m)| *m).count();
        assert!((1000..1900).contains(&mutated), "{mutated}");
        // Some mutated lines still read as commands, and some as `go`.
        let gos = lines
            .iter()
            .filter(|(l, m)| {
                *m && matches!(
                    parse_gui_line_mending(&String::from_utf8_lossy(l)),
                    Ok((GuiMessage::Go(_), _))
                )
            })
            .count();
        assert!(gos > 20, "{gos}");
    }

    #[test]
    fn lines_that_would_end_or_block_the_session_are_not_sent() {
        let read = |line: &str| parse_gui_line_mending(line).expect("a valid line").0;
        assert!(!worth_sending(&read("quit")));
        assert!(!worth_sending(&read("bench")));
        assert!(!worth_sending(&read("perft 5")));
        assert!(!worth_sending(&read("setoption name usi_hash value 4096")));
        assert!(worth_sending(&read("setoption name USI_Hash value 64")));
        assert!(worth_sending(&read("perft 3")));
        assert!(worth_sending(&read("go infinite")));
    }
}
