//! The real `soppo` binary under races: `go` answered by `stop`/`ponderhit` after random
//! delays of a few milliseconds, and random command sequences mixing valid and invalid lines.
//! Whatever the timing, every `go` gets exactly one answer (`bestmove`, or `checkmate` for
//! `go mate`), in order, legal in the position it was asked about, and the engine stays alive.
//!
//! The randomness is seeded from the clock and printed; set `SOPPO_TEST_SEED` to replay a run.

use soppo_core::Position;
use soppo_core::declaration::EnteringKingRule;
use soppo_core::rng::SplitMix64 as Rng;
use soppo_tests::engine::{Engine, PROMPT, check_bestmove, check_mate_line, parse_checkmate, test_seed, usi_position};
use soppo_usi::{CheckmateResult, GuiMessage, parse_gui_line_mending};
use std::time::{Duration, Instant};

/// A random pause of 0 to `max_us` microseconds.
fn pause(rng: &mut Rng, max_us: u64) {
    let us = rng.below(max_us + 1);
    if us > 0 {
        std::thread::sleep(Duration::from_micros(us));
    }
}

/// Reads whatever the engine has printed so far without waiting, so the transcript keeps the
/// real interleaving of commands and answers.
fn drain(e: &mut Engine) {
    while e.next_line(Duration::ZERO).is_some() {}
}

/// Waits until `answers` lines satisfying `is_answer` have arrived in total.
fn wait_for_answers(e: &mut Engine, is_answer: impl Fn(&str) -> bool, answers: usize, timeout: Duration) {
    let deadline = Instant::now() + timeout;
    while e.count(&is_answer) < answers {
        let left = deadline.saturating_duration_since(Instant::now());
        if e.next_line(left).is_none() {
            // The deadline passed or the output ended.
            let got = e.count(&is_answer);
            e.fail(&format!("{got} answers for {answers} go commands within {timeout:?}"));
        }
    }
}

fn is_answer(line: &str) -> bool {
    line.starts_with("bestmove") || line.starts_with("checkmate")
}

#[test]
fn a_thousand_go_stop_pairs_in_one_session() {
    const PAIRS: usize = 1000;
    let seed = test_seed();
    println!("seed {seed} (SOPPO_TEST_SEED={seed} replays this run)");
    let mut rng = Rng::new(seed);
    let args = "startpos moves 7g7f 3c3d";
    let p = usi_position(args).expect("test position");
    let mut e = Engine::start();
    e.send(&format!("position {args}"));
    let started = Instant::now();
    let mut kinds = [0usize; 6];
    for _ in 0..PAIRS {
        let kind = rng.below(6) as usize;
        kinds[kind] += 1;
        let (go, release) = match kind {
            0 => ("go btime 100 wtime 100 byoyomi 100", "stop"),
            1 => ("go infinite", "stop"),
            2 => ("go ponder btime 100 wtime 100 byoyomi 100", "ponderhit"),
            3 => ("go ponder btime 100 wtime 100 byoyomi 100", "stop"),
            4 => ("go depth 2", "stop"),
            // "Move now" in a human game: ponderhit and stop back to back.
            _ => ("go ponder btime 100 wtime 100 byoyomi 100", "ponderhit\nstop"),
        };
        e.send(go);
        pause(&mut rng, 3000);
        for line in release.lines() {
            e.send(line);
        }
        pause(&mut rng, 3000);
        drain(&mut e);
    }
    wait_for_answers(&mut e, |l| l.starts_with("bestmove"), PAIRS, Duration::from_secs(60));
    e.sync();
    let bestmoves: Vec<String> = e
        .received()
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .cloned()
        .collect();
    e.check(bestmoves.len() == PAIRS, || {
        format!("{} bestmoves for {PAIRS} go commands", bestmoves.len())
    });
    e.check(e.checkmates() == 0, || "checkmate lines without go mate".into());
    for line in &bestmoves {
        if let Err(why) = check_bestmove(&p, line, EnteringKingRule::Csa27) {
            e.fail(&format!("`{line}`: {why}"));
        }
    }
    println!(
        "{PAIRS} pairs (clock+stop {}, infinite+stop {}, ponder+ponderhit {}, ponder+stop {}, depth 2+stop {}, \
         ponder+ponderhit+stop {}) in {:.1} s",
        kinds[0],
        kinds[1],
        kinds[2],
        kinds[3],
        kinds[4],
        kinds[5],
        started.elapsed().as_secs_f64()
    );
    e.quit(PROMPT);
}

/// Lines a GUI (or a broken GUI) might send, valid and invalid. No `quit`, no slow debug
/// commands, no option that changes what a legal answer is (`EnteringKingRule`).
const LINES: &[&str] = &[
    "isready",
    "isready",
    "usinewgame",
    "usi",
    "stop",
    "stop",
    "ponderhit",
    "gameover win",
    "gameover lose",
    "gameover draw",
    "gameover",
    "setoption name MultiPV value 2",
    "setoption name MultiPV value 1",
    "setoption name USI_Ponder value true",
    "setoption name USI_Hash value 8",
    "setoption name Threads value 1",
    "setoption name NoSuchOption value 1",
    "setoption name MultiPV value abc",
    "setoption",
    "position startpos",
    "position startpos moves 7g7f",
    "position startpos moves 7g7f 3c3d",
    "position startpos moves 2g2f 8c8d 2f2e 8d8e",
    "position startpos moves 7g7f pass",
    "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
    "position sfen +B+R5n1/5gk2/p1pps1gp1/4ppnsK/6pP1/1PPSP3L/PR1P1PP2/6S2/L2G1G3 w B2N2LP2p 1",
    "position sfen 4k4/9/3P1P3/9/9/9/9/9/9 b GS 1",
    "position sfen 4k4/9/9/9/9/9/7p1/7+r1/8K b - 1",
    "position sfen 2BR4K/1GBG2+P+P+P/3GN4/9/9/9/9/9/6k2 b RG4S3N4L15P 1",
    "position sfen garbage",
    "position startpos moves 7g7f 7g7f",
    "position startpos moves 9z9z",
    "position",
    "go btime 100 wtime 100 byoyomi 100",
    "go byoyomi 50",
    "go btime 200 wtime 200 binc 20 winc 20",
    "go depth 1",
    "go depth 3",
    "go nodes 2000",
    "go movetime 30",
    "go infinite",
    "go",
    "go ponder btime 100 wtime 100 byoyomi 100",
    "go btime 100 wtime 100 byoyomi 100 ponder",
    "go mate 100",
    "go mate infinite",
    "go btime abc",
    "go mate abc",
    "go nodes -1",
    "go depth -3 btime 100 wtime 100",
    "foo",
    "",
    "   ",
    "\u{1b}[2J",
    "d",
    "perft 1",
];

/// What the session owes: one answer per accepted `go`, for the position it was asked on.
struct Expected {
    go: String,
    mate: bool,
    pos: Position,
}

#[test]
fn random_command_sequences_keep_the_engine_answering() {
    const SESSIONS: usize = 16;
    const COMMANDS: usize = 200;
    let seed = test_seed();
    println!("seed {seed} (SOPPO_TEST_SEED={seed} replays this run)");
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut total_gos = 0;
    for session in 0..SESSIONS {
        let mut e = Engine::start();
        let mut pos = usi_position("startpos").expect("startpos");
        let mut expected: Vec<Expected> = Vec::new();
        for _ in 0..COMMANDS {
            // Now and then raw invalid UTF-8 instead of a listed line.
            if rng.below(40) == 0 {
                e.send_raw(b"\xff\xfe go \x80\n");
                continue;
            }
            let line = *rng.pick(LINES);
            e.send(line);
            match parse_gui_line_mending(line).map(|(message, _)| message) {
                Ok(GuiMessage::Position { .. }) => {
                    if let Ok(p) = usi_position(line.trim_start_matches("position").trim()) {
                        pos = p;
                    }
                }
                Ok(GuiMessage::Go(go)) => {
                    expected.push(Expected {
                        go: line.to_string(),
                        mate: go.mate.is_some(),
                        pos: pos.clone(),
                    });
                }
                _ => {}
            }
            pause(&mut rng, 2000);
            drain(&mut e);
        }
        // Release whatever is still held, then every go must have had its one answer.
        e.send("stop");
        wait_for_answers(&mut e, is_answer, expected.len(), Duration::from_secs(30));
        e.sync();
        let answers: Vec<String> = e.received().iter().filter(|l| is_answer(l)).cloned().collect();
        e.check(answers.len() == expected.len(), || {
            format!(
                "session {session}: {} answers for {} go commands",
                answers.len(),
                expected.len()
            )
        });
        // Answers come in the order of the gos: check each against its own position.
        for (i, (answer, exp)) in answers.iter().zip(&expected).enumerate() {
            let result = if exp.mate {
                if !answer.starts_with("checkmate") {
                    Err("go mate must be answered by checkmate".to_string())
                } else if let CheckmateResult::Mate(moves) = parse_checkmate(answer) {
                    check_mate_line(&exp.pos, &moves)
                } else {
                    Ok(())
                }
            } else if answer.starts_with("bestmove") {
                check_bestmove(&exp.pos, answer, EnteringKingRule::Csa27)
            } else {
                Err("a normal go must be answered by bestmove".to_string())
            };
            if let Err(why) = result {
                e.fail(&format!(
                    "session {session}, go #{} `{}` in {}: answered `{answer}`: {why}",
                    i + 1,
                    exp.go,
                    exp.pos.to_sfen()
                ));
            }
        }
        total_gos += expected.len();
        e.quit(PROMPT);
    }
    println!(
        "{SESSIONS} sessions x {COMMANDS} commands, {total_gos} go commands answered, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
