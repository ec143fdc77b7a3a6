//! The real `soppo` binary over USI, one session per test: every command of the protocol as
//! real GUIs send it (shared/research/usi-protocol.md §0, §2.6, §8), checked line by line.
//!
//! Every line the engine prints is checked by the session helper (`soppo_tests::engine`): it
//! must be printable ASCII, parse as a USI engine message, never start with `error`, and a
//! `bestmove <move>` must come right after an `info ... pv <move> ...`. Every `bestmove` and
//! every `checkmate` line is also checked against the rules core here. Timeouts are safety
//! nets, not speed claims; ordering is checked with `isready` barriers (the engine handles
//! commands in order, so whatever it owes for earlier commands comes before `readyok`).

use soppo_core::declaration::EnteringKingRule;
use soppo_core::{Color, Position};
use soppo_tests::engine::{
    Engine, PROMPT, SEARCH, check_bestmove, check_mate_line, parse_bestmove, parse_checkmate, usi_position,
};
use soppo_usi::{BestMove, CheckmateResult, EngineMessage, IdInfo, InfoAttr, OptionKind, parse_engine_line};
use std::time::{Duration, Instant};

// ----- positions -----------------------------------------------------------------------------

/// A mate in 3 (cshogi's test suite), White to move: 2d2e 1d2e|1d1e 3c2d.
const MATE3: &str = "+B+R5n1/5gk2/p1pps1gp1/4ppnsK/6pP1/1PPSP3L/PR1P1PP2/6S2/L2G1G3 w B2N2LP2p 1";

/// A tsume problem without the attacker's king (mate in 5).
const TSUME5: &str = "4k4/9/3P1P3/9/9/9/9/9/9 b GS 1";

/// The attacker has nothing that can give check: no mate, provably at once.
const NO_CHECKS: &str = "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1";

/// Shogi Zuko #1 (a 71-ply problem): far beyond a few hundred milliseconds.
const HARD_MATE: &str = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N5K b SP2gn2l11p 1";

/// Black to move is already checkmated (dragon on 2h, guarded by the pawn on 2g).
const BLACK_MATED: &str = "4k4/9/9/9/9/9/7p1/7+r1/8K b - 1";

/// Black may declare an entering-king win under the CSA 27-point rule (54 points, 10 pieces).
const DECLARATION: &str = "2BR4K/1GBG2+P+P+P/3GN4/9/9/9/9/9/6k2 b RG4S3N4L15P 1";

/// Left-lance handicap: White (uwate) moves first.
const LANCE_HANDICAP: &str = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

/// A middle-game position (Black to move) with many legal moves.
const MIDGAME: &str = "ln1g3nl/1r2k1gb1/p1sppps1p/2p3pp1/1p7/2P1P1PP1/PPSP1PS1P/1BG2G1R1/LN2K2NL b - 25";

/// [`MIDGAME`] as `position` arguments.
const MIDGAME_ARGS: &str = "sfen ln1g3nl/1r2k1gb1/p1sppps1p/2p3pp1/1p7/2P1P1PP1/PPSP1PS1P/1BG2G1R1/LN2K2NL b - 25";

const DEFAULT_RULE: EnteringKingRule = EnteringKingRule::Csa27;

fn pos(args: &str) -> Position {
    usi_position(args).unwrap_or_else(|e| panic!("test position `{args}`: {e}"))
}

// ----- helpers -------------------------------------------------------------------------------

/// Sends `position <args>`, then `go`, waits for the one `bestmove` and checks it against the
/// position; then an `isready` barrier checks that no second `bestmove` came. Returns the
/// bestmove line.
fn search(e: &mut Engine, args: &str, go: &str, timeout: Duration) -> String {
    let p = pos(args);
    e.send(&format!("position {args}"));
    let before = e.bestmoves();
    e.send(go);
    let line = e.bestmove(timeout);
    check_answer(e, &p, &line, go);
    let _ = e.sync();
    let n = e.bestmoves() - before;
    e.check(n == 1, || format!("`{go}`: {n} bestmove lines, expected exactly one"));
    line
}

fn check_answer(e: &Engine, p: &Position, line: &str, what: &str) {
    if let Err(why) = check_bestmove(p, line, DEFAULT_RULE) {
        e.fail(&format!("`{what}` answered `{line}` in {}: {why}", p.to_sfen()));
    }
}

fn check_mate_answer(e: &Engine, p: &Position, line: &str) {
    if let CheckmateResult::Mate(moves) = parse_checkmate(line)
        && let Err(why) = check_mate_line(p, &moves)
    {
        e.fail(&format!("`{line}` from {}: {why}", p.to_sfen()));
    }
}

/// Lets a held search run for a moment, then checks with a barrier that it has said nothing
/// final yet. The pause gives a premature answer the chance to show; it is not a speed claim.
fn assert_silent(e: &mut Engine, what: &str) {
    std::thread::sleep(Duration::from_millis(400));
    let lines = e.sync();
    e.check(
        !lines
            .iter()
            .any(|l| l.starts_with("bestmove") || l.starts_with("checkmate")),
        || format!("{what}: answered before being released"),
    );
}

/// Sends `go` (a held search: `go infinite`, `go ponder ...`), checks that it says nothing final
/// while held, releases it with `release` (`stop`, `ponderhit`) and checks its one `bestmove`
/// against `p`.
fn held_then_released(e: &mut Engine, p: &Position, go: &str, release: &str, timeout: Duration) {
    let before = e.bestmoves();
    e.send(go);
    assert_silent(e, go);
    e.send(release);
    let line = e.bestmove(timeout);
    check_answer(e, p, &line, &format!("{go} + {release}"));
    e.sync();
    e.check(e.bestmoves() == before + 1, || {
        format!("`{go}` + {release}: not exactly one bestmove")
    });
}

fn has_info_string(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info string "))
}

// ----- usi, isready, usinewgame --------------------------------------------------------------

#[test]
fn usi_handshake_declares_id_and_the_expected_options() {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", PROMPT);
    let msgs: Vec<EngineMessage> = lines.iter().map(|l| parse_engine_line(l).expect("checked")).collect();
    e.check(
        matches!(msgs.first(), Some(EngineMessage::Id(IdInfo::Name(n))) if !n.is_empty()),
        || "the first line after usi must be `id name <text>`".into(),
    );
    e.check(
        msgs.iter()
            .any(|m| matches!(m, EngineMessage::Id(IdInfo::Author(a)) if !a.is_empty())),
        || "no `id author`".into(),
    );
    let options: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            EngineMessage::Option(o) => Some(o.clone()),
            _ => None,
        })
        .collect();
    let find = |name: &str| options.iter().find(|o| o.name == name).map(|o| o.kind.clone());
    e.check(matches!(find("USI_Hash"), Some(OptionKind::Spin { .. })), || {
        "USI_Hash spin missing".into()
    });
    e.check(matches!(find("USI_Ponder"), Some(OptionKind::Check { .. })), || {
        "USI_Ponder check missing".into()
    });
    e.check(
        matches!(find("Threads"), Some(OptionKind::Spin { min, .. }) if min >= 1),
        || "Threads spin missing".into(),
    );
    e.check(
        matches!(find("MultiPV"), Some(OptionKind::Spin { default: 1, .. })),
        || "MultiPV spin (default 1) missing".into(),
    );
    for o in &options {
        e.check(!o.name.contains(' '), || {
            format!("option name with a space: {:?}", o.name)
        });
        if let OptionKind::Spin { default, min, max } = o.kind {
            e.check(min <= default && default <= max, || {
                format!("{}: default outside min..max", o.name)
            });
        }
        if let OptionKind::Combo { default, vars } = &o.kind {
            e.check(vars.contains(default), || {
                format!("{}: default not among the vars", o.name)
            });
        }
    }
    let mut names: Vec<String> = options.iter().map(|o| o.name.to_lowercase()).collect();
    names.sort();
    names.dedup();
    e.check(names.len() == options.len(), || "an option is declared twice".into());
    // Nothing is printed after usiok until asked (the `isready` of the barrier may say, in an
    // `info string`, that there is no net to load); a second `usi` answers the same way.
    let extra = e.sync();
    e.check(extra.iter().all(|l| l.starts_with("info string ")), || {
        format!("unexpected lines after usiok: {extra:?}")
    });
    e.send("usi");
    let again = e.collect_until(|l| l == "usiok", PROMPT);
    e.check(again == lines, || "a second `usi` answered differently".into());
    e.quit(PROMPT);
}

#[test]
fn quit_right_after_usi_exits_cleanly() {
    // GUIs start the engine just to read its options, then send quit.
    let mut e = Engine::spawn();
    e.send("usi");
    e.collect_until(|l| l == "usiok", PROMPT);
    e.send("setoption name USI_Hash value 8");
    e.quit(PROMPT);
}

#[test]
fn end_of_input_exits_like_quit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.close_stdin();
    let status = e.wait_exit(PROMPT);
    e.check(status.is_some(), || {
        "the engine kept running after its input ended".into()
    });
}

#[test]
fn isready_and_usinewgame_in_either_order_and_repeated() {
    let mut e = Engine::start();
    for _ in 0..3 {
        let lines = e.sync();
        e.check(lines.is_empty(), || {
            format!("isready printed more than readyok: {lines:?}")
        });
    }
    // ShogiArena's order (usinewgame first), then Shogidokoro's (isready first), twice.
    for order in [
        ["usinewgame", "isready"],
        ["isready", "usinewgame"],
        ["usinewgame", "isready"],
    ] {
        for cmd in order {
            if cmd == "isready" {
                e.sync();
            } else {
                e.send(cmd);
            }
        }
        search(&mut e, "startpos", "go depth 1", SEARCH);
    }
    e.send("usinewgame");
    e.send("usinewgame");
    search(&mut e, "startpos moves 7g7f", "go depth 2", SEARCH);
    e.quit(PROMPT);
}

#[test]
fn hash_resize_at_isready_then_search() {
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 64");
    e.sync();
    search(&mut e, "startpos", "go depth 3", SEARCH);
    e.send("setoption name USI_Hash value 1");
    e.sync();
    search(&mut e, "startpos", "go depth 3", SEARCH);
    e.quit(PROMPT);
}

// ----- setoption -----------------------------------------------------------------------------

#[test]
fn setoption_declared_undeclared_case_insensitive_and_bad_values() {
    let mut e = Engine::start();
    // Accepted without complaint: declared names, any case, and what GUIs always send.
    for line in [
        "setoption name USI_Hash value 16",
        "setoption name usi_hash value 16",
        "setoption name USI_Ponder value true",
        "setoption name usi_ponder value false",
        "setoption name Threads value 1",
        "setoption name threads value 2",
        "setoption name MULTIPV value 1",
        "setoption name EnteringKingRule value CSARule27",
    ] {
        e.send(line);
        let lines = e.sync();
        e.check(!has_info_string(&lines), || format!("`{line}` was refused: {lines:?}"));
    }
    // Refused with an `info string`, and the engine carries on.
    for line in [
        "setoption name NoSuchOption value 3",
        "setoption name Threads value abc",
        "setoption name Threads value 0",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 99999999999999999999999",
        "setoption name USI_Hash value -5",
        "setoption name USI_Ponder value maybe",
        "setoption name EnteringKingRule value Bogus",
        "setoption name Threads",
        "setoption name",
        "setoption",
    ] {
        e.send(line);
        let lines = e.sync();
        e.check(has_info_string(&lines), || {
            format!("`{line}` got no `info string`: {lines:?}")
        });
    }
    // A value with spaces (a path) for an undeclared name: one line, not a crash.
    e.send("setoption name EvalDir value C:\\Program Files\\eval dir");
    e.sync();
    search(&mut e, "startpos", "go depth 2", SEARCH);
    e.quit(PROMPT);
}

#[test]
fn multipv_changes_between_searches() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.sync();
    let p = pos("startpos");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.collect_until(|l| l.starts_with("bestmove"), SEARCH);
    check_answer(&e, &p, lines.last().unwrap(), "go depth 3");
    let multipv = |k: u32| {
        lines.iter().any(
            |l| matches!(parse_engine_line(l), Ok(EngineMessage::Info(attrs)) if attrs.contains(&InfoAttr::MultiPv(k))),
        )
    };
    e.check(multipv(2) && multipv(3), || {
        "MultiPV 3 printed no `multipv 2`/`multipv 3` lines".into()
    });
    e.send("setoption name MultiPV value 1");
    e.sync();
    let before = e.received().len();
    search(&mut e, "startpos", "go depth 3", SEARCH);
    let after = &e.received()[before..];
    e.check(!after.iter().any(|l| l.contains(" multipv 2 ")), || {
        "MultiPV back to 1 still prints multipv 2".into()
    });
    e.quit(PROMPT);
}

/// Physical memory in MiB, where `/proc/meminfo` says (Linux).
fn physical_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// A `USI_Hash` the machine cannot hold (the advertised maximum, which aborted the engine, and
/// 1.5 times physical memory, which starved the clock) is held to what fits, with an
/// `info string`; `readyok` comes promptly and a `go byoyomi 300` after it answers in time.
#[test]
fn a_hash_beyond_the_machine_is_held_to_what_fits_and_keeps_the_clock() {
    let mut sizes = vec![1_048_576];
    sizes.extend(physical_mb().map(|mb| mb * 3 / 2));
    let mut e = Engine::start();
    let p = pos("startpos moves 7g7f 3c3d");
    for mb in sizes {
        e.send(&format!("setoption name USI_Hash value {mb}"));
        let lines = e.sync();
        let said = format!("USI_Hash {mb} MiB is more than this machine can hold");
        e.check(
            lines.iter().any(|l| l.starts_with("info string ") && l.contains(&said)),
            || format!("no `info string {said} ...` before readyok: {lines:?}"),
        );
        e.send("position startpos moves 7g7f 3c3d");
        let sent = Instant::now();
        e.send("go byoyomi 300");
        // The engine stops at about 240 ms; the rest is room for a loaded machine.
        let line = e.bestmove(Duration::from_secs(2));
        check_answer(&e, &p, &line, &format!("go byoyomi 300 at USI_Hash {mb}"));
        e.check(sent.elapsed() < Duration::from_secs(2), || {
            format!("USI_Hash {mb}: go byoyomi 300 took {:?}", sent.elapsed())
        });
    }
    // Still alive, and a size that fits is taken as asked, without a word.
    e.send("setoption name USI_Hash value 16");
    let lines = e.sync();
    e.check(!lines.iter().any(|l| l.contains("USI_Hash")), || format!("{lines:?}"));
    e.quit(PROMPT);
}

// ----- position ------------------------------------------------------------------------------

#[test]
fn positions_of_every_shape_are_set() {
    let mut e = Engine::start();
    let mid = MIDGAME.rsplit_once(' ').unwrap().0;
    // Consecutive positions differ in side to move or in the men that can move, so a
    // position that was not set shows as an illegal bestmove.
    let cases = [
        "startpos".to_string(),
        "startpos moves 7g7f".into(),
        "startpos moves 7g7f 3c3d".into(),
        format!("sfen {LANCE_HANDICAP}"),
        format!("sfen {MIDGAME}"),
        format!("sfen {LANCE_HANDICAP} moves 3c3d"),
        format!("sfen {mid}"),
        format!("sfen {LANCE_HANDICAP} moves 3c3d 7g7f"),
        format!("sfen {mid} moves 2h3h"),
        "startpos moves pass".into(),
        "startpos moves 7g7f pass".into(),
        "startpos moves 7g7f 0000 6g6f".into(),
        "startpos moves".into(),
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f".into(),
        // Non-promotions that engines often prune are legal input.
        "startpos moves 7g7f 3c3d 8h2b 3a2b".into(),
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1".into(),
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
    ];
    for args in &cases {
        search(&mut e, args, "go depth 1", SEARCH);
    }
    // Extra whitespace and CRLF line ends.
    let p = pos("startpos moves 7g7f");
    e.send("position  startpos\tmoves   7g7f  \r");
    e.send("go depth 1");
    let line = e.bestmove(SEARCH);
    check_answer(&e, &p, &line, "go depth 1 after a spaced-out position");
    e.quit(PROMPT);
}

#[test]
fn illegal_position_keeps_the_last_good_one() {
    let mut e = Engine::start();
    // White to move here; every bad command below would leave Black to move if it were
    // applied, even partly, so an answer for the wrong position is an illegal move.
    let good = "startpos moves 7g7f";
    let p = pos(good);
    e.send(&format!("position {good}"));
    let bad = [
        "position sfen garbage",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b ZZ 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "position startpos moves 2g2f 8c8d 9z9z",
        "position startpos moves 2g2f 8c8d 2f2f",
        "position startpos moves 2g2f 8c8d 5i5g",
        "position startpos moves 7g7f 3c3d 2g2f 4a3b 8h2b+ 3b2b P*2c 2b2c P*2e 8c8d P*2d",
        "position startpos moves 7g7f 3c3d 7f7e 3d3e P*7f",
        "position startpos moves 2g2f 3c3d 8h2b",
        // A null move while in check.
        "position sfen 4k4/9/9/9/9/9/9/9/4K4 w r 1 moves R*5h pass",
        "position startpos foo",
        "position",
        "position sfen",
        "position moves 7g7f",
    ];
    for line in bad {
        e.send(line);
        let lines = e.sync();
        e.check(has_info_string(&lines), || {
            format!("`{line}` got no `info string`: {lines:?}")
        });
        e.send("go depth 1");
        let best = e.bestmove(SEARCH);
        check_answer(&e, &p, &best, &format!("go depth 1 after `{line}`"));
    }
    e.quit(PROMPT);
}

// ----- go variants ---------------------------------------------------------------------------

#[test]
fn go_with_clocks_byoyomi_fischer_and_odd_token_orders() {
    let mut e = Engine::start();
    let white = "startpos moves 7g7f";
    for (args, go) in [
        ("startpos", "go btime 1000 wtime 1000 byoyomi 1000"),
        (white, "go btime 1000 wtime 1000 byoyomi 1000"),
        // cshogi with a byoyomi-only clock sends no btime/wtime.
        ("startpos", "go byoyomi 1000"),
        (white, "go byoyomi 1000"),
        ("startpos", "go btime 0 wtime 0 byoyomi 500"),
        // Fischer, and the first move of a Fischer game (Shogidokoro sends btime 0).
        ("startpos", "go btime 2000 wtime 2000 binc 100 winc 100"),
        (white, "go btime 2000 wtime 2000 binc 100 winc 100"),
        ("startpos", "go btime 0 wtime 0 binc 500 winc 500"),
        // Sudden death with little time left.
        (white, "go btime 300 wtime 300"),
        // ShogiArena's token order; unknown tokens are ignored.
        ("startpos", "go byoyomi 500 wtime 1000 btime 1000"),
        (white, "go btime 1000 wtime 1000 byoyomi 500 movestogo 10 rtime 5"),
        (MIDGAME_ARGS, "go btime 1000 wtime 1000 byoyomi 1000"),
    ] {
        search(&mut e, args, go, SEARCH);
    }
    e.quit(PROMPT);
}

#[test]
fn go_depth_nodes_movetime() {
    let mut e = Engine::start();
    for (args, go) in [
        ("startpos", "go depth 3"),
        ("startpos moves 7g7f 3c3d", "go depth 3"),
        ("startpos", "go nodes 5000"),
        (MIDGAME_ARGS, "go nodes 5000"),
        ("startpos", "go movetime 300"),
        ("startpos moves 2g2f", "go movetime 300"),
        ("startpos", "go depth 1 nodes 100000"),
    ] {
        let before = e.received().len();
        search(&mut e, args, go, SEARCH);
        if go == "go depth 3" {
            for line in &e.received()[before..] {
                if let Ok(EngineMessage::Info(attrs)) = parse_engine_line(line) {
                    let deep = attrs.iter().any(|a| matches!(a, InfoAttr::Depth(d) if *d > 3));
                    e.check(!deep, || format!("`{go}` reported a depth above 3: {line}"));
                }
            }
        }
    }
    e.quit(PROMPT);
}

#[test]
fn go_infinite_is_silent_until_stop_and_isready_does_not_stop_it() {
    let mut e = Engine::start();
    let p = pos("startpos moves 7g7f 3c3d");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go infinite");
    assert_silent(&mut e, "go infinite");
    // More barriers while it searches: readyok each time, no bestmove.
    assert_silent(&mut e, "go infinite after a second isready");
    e.send("stop");
    let line = e.bestmove(PROMPT);
    check_answer(&e, &p, &line, "go infinite + stop");
    e.sync();
    e.check(e.bestmoves() == 1, || {
        format!("{} bestmoves for one go infinite", e.bestmoves())
    });
    // A stray stop afterwards is ignored.
    e.send("stop");
    e.sync();
    e.check(e.bestmoves() == 1, || "a stop while idle produced a bestmove".into());
    // `infinite` anywhere in the line.
    held_then_released(
        &mut e,
        &p,
        "go btime 1000 wtime 1000 byoyomi 1000 infinite",
        "stop",
        PROMPT,
    );
    e.quit(PROMPT);
}

/// A bare `go` (cshogi's and ShogiArena's `go` for a match without time limits, which then
/// wait for `bestmove`) ends on its own, quickly, as YaneuraOu's does; so do a bare `go ponder`
/// after a bare `ponderhit`. `go infinite` (above) still waits for `stop`.
#[test]
fn a_bare_go_answers_on_its_own() {
    let mut e = Engine::start();
    for args in ["startpos", "startpos moves 7g7f 3c3d 2g2f"] {
        let p = pos(args);
        e.send(&format!("position {args}"));
        let before = e.bestmoves();
        let sent = Instant::now();
        e.send("go");
        // The engine thinks 100 ms; two seconds leave room for a loaded machine.
        let line = e.bestmove(Duration::from_secs(2));
        let took = sent.elapsed();
        check_answer(&e, &p, &line, "bare go");
        e.check(took >= Duration::from_millis(90), || {
            format!("a bare go answered after {took:?}: it should think, briefly")
        });
        e.sync();
        e.check(e.bestmoves() == before + 1, || {
            "a bare go: not exactly one bestmove".into()
        });
    }
    // A bare `go ponder` waits for the hit; a bare `ponderhit` then thinks as a bare `go`.
    let p = pos("startpos moves 7g7f");
    e.send("position startpos moves 7g7f");
    e.send("go ponder");
    assert_silent(&mut e, "bare go ponder");
    e.send("ponderhit");
    let line = e.bestmove(Duration::from_secs(2));
    check_answer(&e, &p, &line, "bare go ponder + bare ponderhit");
    e.quit(PROMPT);
}

/// `stop` then `isready` at once: the stopped search's `bestmove` must come before `readyok`
/// (readyok only after every earlier command is applied; a bestmove after the next isready is
/// taken by Shogidokoro as the next game's first move, §2.1 and §8.5 of the research notes).
#[test]
fn stop_then_isready_answers_bestmove_before_readyok() {
    let mut e = Engine::start();
    let p = pos("startpos");
    e.send("position startpos");
    for go in [
        "go infinite",
        "go ponder btime 1000 wtime 1000 byoyomi 1000",
        "go btime 60000 wtime 60000 byoyomi 10000",
    ] {
        let before = e.bestmoves();
        e.send(go);
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        let lines = e.sync();
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        e.check(best.len() == 1, || {
            format!(
                "`{go}` + stop + isready: {} bestmoves before readyok, expected 1",
                best.len()
            )
        });
        check_answer(&e, &p, best[0], &format!("{go} + stop"));
        e.sync();
        e.check(e.bestmoves() == before + 1, || {
            format!("`{go}` + stop: not exactly one bestmove")
        });
    }
    e.quit(PROMPT);
}

#[test]
fn ponder_then_ponderhit_answers_once_after_the_hit() {
    let mut e = Engine::start();
    for go in [
        "go ponder btime 1000 wtime 1000 byoyomi 1000",
        // ShogiArena puts `ponder` after the times.
        "go btime 1000 wtime 1000 byoyomi 1000 ponder",
        "go ponder btime 2000 wtime 2000 binc 100 winc 100",
    ] {
        let args = "startpos moves 7g7f 3c3d 2g2f";
        e.send(&format!("position {args}"));
        held_then_released(&mut e, &pos(args), go, "ponderhit", SEARCH);
    }
    e.quit(PROMPT);
}

/// ShogiHome's "early ponder" (a YaneuraOu extension): a bare `go ponder`, then the clock
/// arrives with the hit, `ponderhit btime .. wtime .. byoyomi ..`. The search must then end on
/// that clock by itself (the GUI sends no `stop`).
#[test]
fn early_ponder_takes_the_clock_from_ponderhit() {
    let mut e = Engine::start();
    let args = "startpos moves 7g7f";
    e.send(&format!("position {args}"));
    e.send("go ponder");
    assert_silent(&mut e, "bare go ponder");
    e.send("ponderhit btime 1000 wtime 1000 byoyomi 500");
    let line = e.bestmove(SEARCH);
    check_answer(&e, &pos(args), &line, "go ponder + ponderhit with times");
    e.quit(PROMPT);
}

#[test]
fn ponder_then_stop_and_ponderhit_then_stop_answer_once() {
    let mut e = Engine::start();
    let args = "startpos moves 7g7f 3c3d";
    let p = pos(args);
    e.send(&format!("position {args}"));
    held_then_released(
        &mut e,
        &p,
        "go ponder btime 60000 wtime 60000 byoyomi 10000",
        "stop",
        PROMPT,
    );
    // "Move now" in human games: ponderhit and stop back to back.
    e.send("go ponder btime 60000 wtime 60000 byoyomi 10000");
    e.send("ponderhit");
    e.send("stop");
    let line = e.bestmove(PROMPT);
    check_answer(&e, &p, &line, "go ponder + ponderhit + stop");
    e.sync();
    e.check(e.bestmoves() == 2, || {
        "ponderhit + stop: not exactly one bestmove".into()
    });
    // A stray ponderhit while idle or during a non-ponder search changes nothing.
    e.send("ponderhit");
    e.sync();
    e.send("go infinite");
    e.send("ponderhit");
    assert_silent(&mut e, "go infinite + ponderhit");
    e.send("stop");
    e.bestmove(PROMPT);
    e.sync();
    e.check(e.bestmoves() == 3, || {
        "stray ponderhit: wrong number of bestmoves".into()
    });
    e.quit(PROMPT);
}

#[test]
fn a_new_go_while_searching_answers_the_old_one_first() {
    let mut e = Engine::start();
    let p = pos("startpos");
    e.send("position startpos");
    e.send("go infinite");
    e.send("go depth 1");
    let first = e.bestmove(PROMPT);
    check_answer(&e, &p, &first, "go infinite interrupted by go");
    let second = e.bestmove(SEARCH);
    check_answer(&e, &p, &second, "the second go");
    e.sync();
    e.check(e.bestmoves() == 2, || "two gos, not two bestmoves".into());
    e.quit(PROMPT);
}

// ----- gameover and quit ---------------------------------------------------------------------

#[test]
fn gameover_mid_search_answers_at_once() {
    let mut e = Engine::start();
    let args = "startpos moves 2g2f 8c8d";
    let p = pos(args);
    e.send(&format!("position {args}"));
    let mut expected = 0;
    for result in ["gameover win", "gameover lose", "gameover draw", "gameover"] {
        for go in [
            "go btime 600000 wtime 600000 byoyomi 60000",
            "go infinite",
            "go ponder btime 60000 wtime 60000 byoyomi 10000",
        ] {
            e.send(go);
            std::thread::sleep(Duration::from_millis(50));
            e.send(result);
            // The pending bestmove goes out before the next command is handled.
            let lines = e.sync();
            expected += 1;
            let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
            e.check(best.len() == 1, || {
                format!("`{go}` + `{result}`: {} bestmoves before readyok", best.len())
            });
            check_answer(&e, &p, best[0], &format!("{go} + {result}"));
            e.send("usinewgame");
        }
    }
    // Gameover while idle: nothing.
    e.send("gameover win");
    e.sync();
    e.check(e.bestmoves() == expected, || {
        format!("{} bestmoves, expected {expected}", e.bestmoves())
    });
    e.quit(PROMPT);
}

/// A held search (`go infinite`, `go ponder`) that has already finished on its own (a mated
/// root, a proven short mate) still owes its answer when `gameover` or a new `go` ends it.
#[test]
fn gameover_or_new_go_after_a_held_search_has_finished() {
    let mut e = Engine::start();
    let mut expected = 0;
    for (sfen, go, end) in [
        (BLACK_MATED, "go infinite", "gameover"),
        (
            BLACK_MATED,
            "go ponder btime 1000 wtime 1000 byoyomi 1000",
            "gameover lose",
        ),
        (MATE3, "go infinite", "gameover win"),
        (BLACK_MATED, "go infinite", "go depth 1"),
        (MATE3, "go ponder btime 1000 wtime 1000 byoyomi 1000", "go depth 1"),
    ] {
        let p = pos(&format!("sfen {sfen}"));
        e.send(&format!("position sfen {sfen}"));
        e.send(go);
        // Time for the search to finish by itself (it is then held, silent).
        assert_silent(&mut e, go);
        e.send(end);
        let lines = e.sync();
        expected += if end.starts_with("go") { 2 } else { 1 };
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        e.check(!best.is_empty(), || {
            format!("`{go}` finished while held, then `{end}`: no bestmove before readyok")
        });
        check_answer(&e, &p, best[0], &format!("{go} + {end}"));
        if end.starts_with("go") {
            let line = if best.len() > 1 {
                best[1].clone()
            } else {
                e.bestmove(SEARCH)
            };
            check_answer(&e, &p, &line, end);
        }
        e.sync();
        e.check(e.bestmoves() == expected, || {
            format!("{} bestmoves, expected {expected}", e.bestmoves())
        });
    }
    e.quit(PROMPT);
}

#[test]
fn quit_mid_search_exits_promptly() {
    let hard = format!("sfen {HARD_MATE}");
    for (args, go) in [
        ("startpos", "go infinite"),
        ("startpos", "go btime 600000 wtime 600000 byoyomi 60000"),
        (
            "startpos moves 7g7f",
            "go ponder btime 600000 wtime 600000 byoyomi 60000",
        ),
        (hard.as_str(), "go mate infinite"),
        ("startpos", "go depth 200"),
    ] {
        let mut e = Engine::start();
        e.send(&format!("position {args}"));
        e.send(go);
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        e.send("quit");
        let status = e.wait_exit(Duration::from_secs(5));
        e.check(status.is_some_and(|s| s.success()), || {
            format!(
                "`{go}` then quit: not a clean exit within 5 s ({status:?}, {:?})",
                start.elapsed()
            )
        });
    }
}

// ----- go mate -------------------------------------------------------------------------------

#[test]
fn go_mate_finds_verified_mates() {
    let mut e = Engine::start();
    for (sfen, go) in [
        (MATE3, "go mate 1000"),
        (MATE3, "go mate 10000"),
        (TSUME5, "go mate 10000"),
        // Answered on its own as soon as the mate is proven, without waiting for stop.
        (MATE3, "go mate infinite"),
        (TSUME5, "go mate"),
    ] {
        let p = pos(&format!("sfen {sfen}"));
        e.send(&format!("position sfen {sfen}"));
        let before = e.checkmates();
        e.send(go);
        let line = e.checkmate(SEARCH);
        e.check(matches!(parse_checkmate(&line), CheckmateResult::Mate(_)), || {
            format!("`{go}` on a short mate answered `{line}`")
        });
        check_mate_answer(&e, &p, &line);
        // A late stop must not produce a second answer.
        e.send("stop");
        e.sync();
        e.check(e.checkmates() == before + 1, || {
            format!("`{go}`: not exactly one checkmate line")
        });
    }
    e.check(e.bestmoves() == 0, || "go mate answered with bestmove".into());
    e.quit(PROMPT);
}

/// While a long `go mate` works, before any proof, it shows the line df-pn is on as the pv of
/// its `info` lines: from the root, legal, every attacker move a check. The answer is still
/// exactly one `checkmate` line.
#[test]
fn go_mate_shows_the_line_it_works_on() {
    let mut e = Engine::start();
    let p = pos(&format!("sfen {HARD_MATE}"));
    e.send("setoption name Threads value 1");
    e.send(&format!("position sfen {HARD_MATE}"));
    e.send("go mate 1500");
    let lines = e.collect_until(|l| l.starts_with("checkmate"), SEARCH);
    let attacker = p.side_to_move();
    let mut shown = 0;
    for line in &lines {
        let Ok(EngineMessage::Info(attrs)) = parse_engine_line(line) else {
            continue;
        };
        for attr in attrs {
            let InfoAttr::Pv(moves) = attr else { continue };
            shown += 1;
            let mut q = p.clone();
            for (i, m) in moves.iter().enumerate() {
                let attacking = q.side_to_move() == attacker;
                let played = soppo_tests::engine::play_checked(&mut q, m);
                e.check(played.is_ok(), || format!("pv move {} in `{line}`: {played:?}", i + 1));
                if played.is_err() {
                    break;
                }
                e.check(!attacking || q.in_check(), || {
                    format!("pv move {} in `{line}` gives no check", i + 1)
                });
            }
        }
    }
    e.check(shown > 0, || {
        format!("no pv among {} lines before the answer", lines.len())
    });
    e.sync();
    e.check(e.checkmates() == 1, || "not exactly one checkmate line".into());
    e.quit(PROMPT);
}

/// With one thread the exact search has the first turn (up to 2 s for `go mate infinite`),
/// and it shows the line it works on as df-pn does: a GUI has a line long before df-pn's turn.
#[test]
fn go_mate_shows_a_line_during_the_exact_search() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 1");
    e.send(&format!("position sfen {HARD_MATE}"));
    e.send("go mate infinite");
    let lines = e.collect_until(|l| l.starts_with("info") && l.contains(" pv "), SEARCH);
    e.send("stop");
    let first = lines.last().expect("the matching line");
    let time = match parse_engine_line(first) {
        Ok(EngineMessage::Info(attrs)) => attrs.into_iter().find_map(|a| match a {
            InfoAttr::Time(t) => Some(t),
            _ => None,
        }),
        _ => None,
    };
    e.check(time.is_some_and(|t| t < Duration::from_secs(2)), || {
        format!("the first pv came after the exact search's turn: `{first}`")
    });
    e.checkmate(SEARCH);
    e.sync();
    e.check(e.checkmates() == 1, || "not exactly one checkmate line".into());
    e.quit(PROMPT);
}

/// `MateSuperPiece` on and off give the same one-move answer to a chuuai problem (the paper's
/// Fig. 2 shape: seven squares between, every drop useless), and a bad value is refused.
#[test]
fn go_mate_with_and_without_the_super_piece() {
    // The defender could still drop between after 1i1a+ (so it is no checkmate under game
    // rules), but every such drop is useless under tsume rules.
    let sfen = "k8/p8/2N6/2N6/9/9/9/9/8R b r2b4g4s2n4l17p 1";
    let mut e = Engine::start();
    let mut answers = Vec::new();
    for value in ["false", "true"] {
        e.send(&format!("setoption name MateSuperPiece value {value}"));
        e.send(&format!("position sfen {sfen}"));
        e.send("go mate 10000");
        answers.push(e.checkmate(SEARCH));
    }
    e.check(answers.iter().all(|a| a == "checkmate 1i1a+"), || {
        format!("expected `checkmate 1i1a+` both ways, got {answers:?}")
    });
    e.send("setoption name MateSuperPiece value maybe");
    let lines = e.sync();
    e.check(has_info_string(&lines), || {
        "a bad MateSuperPiece value was not explained".into()
    });
    e.quit(PROMPT);
}

#[test]
fn go_mate_nomate_timeout_and_stop() {
    let mut e = Engine::start();
    // No check is possible: a proven no-mate.
    e.send(&format!("position sfen {NO_CHECKS}"));
    e.send("go mate 1000");
    let line = e.checkmate(SEARCH);
    e.check(line == "checkmate nomate", || {
        format!("no checks possible, answered `{line}`")
    });
    // A hard problem within 300 ms: timeout, within the limit plus a margin.
    let hard = pos(&format!("sfen {HARD_MATE}"));
    e.send(&format!("position sfen {HARD_MATE}"));
    let start = Instant::now();
    e.send("go mate 300");
    let line = e.checkmate(SEARCH);
    let took = start.elapsed();
    e.check(line == "checkmate timeout", || {
        format!("go mate 300 on a 71-ply problem answered `{line}`")
    });
    e.check(took < Duration::from_millis(300) + Duration::from_secs(3), || {
        format!("go mate 300 answered after {took:?}")
    });
    // go mate infinite: silent until stop, then exactly one checkmate line.
    e.send("go mate infinite");
    assert_silent(&mut e, "go mate infinite on a hard problem");
    e.send("stop");
    let line = e.checkmate(PROMPT);
    check_mate_answer(&e, &hard, &line);
    e.check(!matches!(parse_checkmate(&line), CheckmateResult::NoMate), || {
        "a stopped search claims nomate".into()
    });
    // gameover also ends a mate search with its one answer.
    e.send("go mate infinite");
    e.send("gameover");
    let lines = e.sync();
    e.check(lines.iter().filter(|l| l.starts_with("checkmate")).count() == 1, || {
        "go mate + gameover: not one checkmate line before readyok".into()
    });
    e.sync();
    e.check(e.checkmates() == 4, || {
        format!("{} checkmate lines for 4 go mate", e.checkmates())
    });
    e.check(e.bestmoves() == 0, || "go mate answered with bestmove".into());
    e.quit(PROMPT);
}

/// `go mate` on what is not a mate problem: a position the SFEN reader refuses (two kings of a
/// side, the side not to move in check) keeps the previous one with an `info string`; one it
/// takes but no problem can be (no king to mate, more pieces than a set) is answered at once
/// with an `info string` and `checkmate nomate`. Every `go mate` gets exactly one answer.
#[test]
fn go_mate_on_what_is_not_a_problem() {
    let mut e = Engine::start();
    for (sfen, why) in [
        ("9/9/9/9/9/9/9/9/4K4 b G 1", "White has no king to mate"),
        ("4k4/9/9/9/9/9/9/9/9 w 2R 1", "Black has no king to mate"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 31P 1", "31 pawns"),
        ("4k4/9/9/9/9/9/9/9/+R8 b Rr 1", "3 rooks"),
    ] {
        e.send(&format!("position sfen {sfen}"));
        for go in ["go mate 1000", "go mate infinite"] {
            e.send(go);
            let lines = e.collect_until(|l| l.starts_with("checkmate"), SEARCH);
            e.check(
                lines.iter().any(|l| l.starts_with("info string ") && l.contains(why)),
                || format!("{sfen} `{go}`: no info string saying `{why}`: {lines:?}"),
            );
            e.check(lines.last().is_some_and(|l| l == "checkmate nomate"), || {
                format!("{sfen} `{go}`: answered {lines:?}")
            });
        }
    }
    // Refused positions: the previous one (a 5-ply mate) is kept and solved.
    e.send(&format!("position sfen {TSUME5}"));
    for bad in ["4k3k/9/9/9/9/9/9/9/4K4 b G 1", "4k4/4R4/9/9/9/9/9/9/4K4 b G 1"] {
        e.send(&format!("position sfen {bad}"));
        e.send("go mate 1000");
        let lines = e.collect_until(|l| l.starts_with("checkmate"), SEARCH);
        e.check(
            lines.iter().any(|l| l.starts_with("info string position not set")),
            || format!("{bad}: refused without an info string: {lines:?}"),
        );
        let answer = lines.last().expect("an answer");
        check_mate_answer(&e, &pos(&format!("sfen {TSUME5}")), answer);
        e.check(
            matches!(parse_checkmate(answer), CheckmateResult::Mate(m) if m.len() == 5),
            || format!("{bad}: the kept 5-ply problem answered `{answer}`"),
        );
    }
    e.sync();
    e.check(e.checkmates() == 10, || {
        format!("{} checkmate lines for 10 go mate", e.checkmates())
    });
    // Still working.
    search(&mut e, "startpos moves 7g7f", "go depth 2", SEARCH);
    e.quit(PROMPT);
}

// ----- resign and win ------------------------------------------------------------------------

#[test]
fn resign_when_already_checkmated() {
    let args = format!("sfen {BLACK_MATED}");
    assert!(pos(&args).is_checkmate(), "test position must be checkmate");
    let mut e = Engine::start();
    for go in ["go btime 1000 wtime 1000 byoyomi 1000", "go depth 3", "go byoyomi 100"] {
        let line = search(&mut e, &args, go, SEARCH);
        e.check(line == "bestmove resign", || format!("mated, `{go}` answered `{line}`"));
    }
    // Held under go infinite until stop, then one bestmove resign.
    e.send("go infinite");
    assert_silent(&mut e, "go infinite on a mated root");
    e.send("stop");
    let line = e.bestmove(PROMPT);
    e.check(line == "bestmove resign", || {
        format!("mated, go infinite + stop answered `{line}`")
    });
    e.send("go ponder btime 1000 wtime 1000 byoyomi 1000");
    assert_silent(&mut e, "go ponder on a mated root");
    e.send("ponderhit");
    let line = e.bestmove(PROMPT);
    e.check(line == "bestmove resign", || {
        format!("mated, go ponder + ponderhit answered `{line}`")
    });
    e.quit(PROMPT);
}

#[test]
fn win_by_declaration_but_not_before_stop() {
    let args = format!("sfen {DECLARATION}");
    let p = pos(&args);
    assert!(p.can_declare_win(EnteringKingRule::Csa27) && p.side_to_move() == Color::Black);
    let mut e = Engine::start();
    for go in ["go btime 1000 wtime 1000 byoyomi 1000", "go byoyomi 500", "go depth 3"] {
        let line = search(&mut e, &args, go, SEARCH);
        e.check(line == "bestmove win", || {
            format!("declaration holds, `{go}` answered `{line}`")
        });
    }
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder btime 1000 wtime 1000 byoyomi 1000", "ponderhit"),
    ] {
        let before = e.bestmoves();
        e.send(go);
        assert_silent(&mut e, &format!("{go} with a declaration win at the root"));
        e.send(release);
        let line = e.bestmove(SEARCH);
        check_answer(&e, &p, &line, &format!("{go} + {release}"));
        e.sync();
        e.check(e.bestmoves() == before + 1, || {
            format!("`{go}` + {release}: not exactly one bestmove")
        });
    }
    // Under a rule that forbids the declaration, a move.
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    let line = search(&mut e, &args, "go depth 2", SEARCH);
    e.check(matches!(parse_bestmove(&line).0, BestMove::Move(_)), || {
        format!("NoEnteringKing, yet answered `{line}`")
    });
    e.quit(PROMPT);
}

// ----- bad input -----------------------------------------------------------------------------

#[test]
fn bad_input_gets_info_string_or_nothing_and_the_engine_carries_on() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f");
    let p = pos("startpos moves 7g7f");
    let informative: &[&[u8]] = &[
        b"foo",
        b"foo bar baz",
        b"\xff\xfe\x80 invalid utf-8",
        b"\x00\x01\x02\x1b[31m",
        b"setoption name USI_Hash value 99999999999999999999999999",
        b"position startpos moves 7g7f 3c3d 99999999999999999999",
        b"perft abc",
    ];
    for raw in informative {
        let mut line = raw.to_vec();
        line.push(b'\n');
        e.send_raw(&line);
        // None of these is a `go`; if one started a search, this stop makes it show at once.
        e.send("stop");
        let lines = e.sync();
        e.check(has_info_string(&lines), || {
            format!("{:?} got no info string: {lines:?}", String::from_utf8_lossy(raw))
        });
        e.check(!lines.iter().any(|l| l.starts_with("bestmove")), || {
            "a line that is not a go started a search".into()
        });
    }
    // Nothing at all for blank lines.
    for raw in [&b"\n"[..], b"   \n", b"\t\n", b"\r\n", b"\n\n\n"] {
        e.send_raw(raw);
        let lines = e.sync();
        e.check(lines.is_empty(), || format!("a blank line was answered: {lines:?}"));
    }
    // Odd but harmless: a very long line, CP932 in an option value, a line without a newline
    // end followed by a proper one, a `stop` while idle. The engine must keep answering.
    let long = format!("position startpos moves {}", "7g7f 3c3d ".repeat(10_000));
    e.send(&long);
    e.sync();
    e.send_raw(b"setoption name EvalDir value \x83\x65\x83\x58\x83\x67\n");
    e.send_raw(b"stop\nisready\r\n");
    e.expect_line(|l| l == "readyok", PROMPT);
    // Huge numbers: refused with an `info string`, or taken as (nearly) unlimited. A search
    // that started must not answer on its own within the pause of `assert_silent` (the limits
    // are effectively endless and the engine's MinimumThinkingTime is 2 s, so an early answer
    // means a number wrapped around), and answers exactly once after `stop`.
    e.send("position startpos moves 7g7f");
    for go in [
        "go depth 4294967295",
        "go depth 99999999999",
        "go nodes 18446744073709551615",
        "go nodes 18446744073709551616",
        "go movetime 18446744073709551615",
        "go movetime 99999999999999999999999",
        "go btime 99999999999999999999999 wtime 99999999999999999999999 byoyomi 100",
        "go btime 18446744073709551615 wtime 18446744073709551615 byoyomi 18446744073709551615",
        "go btime 18446744073709551615 wtime 18446744073709551615 binc 18446744073709551615 winc 18446744073709551615",
        "go byoyomi 99999999999999999999999",
    ] {
        let before = e.bestmoves();
        e.send(go);
        let lines = e.sync();
        if has_info_string(&lines) {
            e.check(e.bestmoves() == before, || format!("`{go}` was refused yet answered"));
            continue;
        }
        assert_silent(&mut e, &format!("`{go}` (a huge limit wrapped around?)"));
        e.send("stop");
        let line = e.bestmove(PROMPT);
        check_answer(&e, &p, &line, go);
        e.sync();
        e.check(e.bestmoves() == before + 1, || {
            format!("`{go}` + stop: not one bestmove")
        });
    }
    // Still fully working.
    search(&mut e, "startpos moves 7g7f", "go depth 2", SEARCH);
    e.quit(PROMPT);
}

/// A `go` whose values cannot be read still owes the GUI its answer: the values count as zero
/// (the smallest search), an `info string` says so before the answer, and exactly one legal
/// `bestmove` (or `checkmate` line for `go mate`) follows.
#[test]
fn go_with_unreadable_values_is_answered_once_with_an_info_string() {
    let mut e = Engine::start();
    let mate3 = format!("sfen {MATE3}");
    for (args, go) in [
        ("startpos", "go btime abc wtime 1000"),
        ("startpos moves 7g7f", "go depth -3"),
        (MIDGAME_ARGS, "go nodes -1"),
        ("startpos", "go btime 1000 wtime 1000 byoyomi x"),
        (MIDGAME_ARGS, "go movetime"),
        (mate3.as_str(), "go mate abc"),
        ("startpos", "go mate -5"),
    ] {
        let p = pos(args);
        e.send(&format!("position {args}"));
        let (bestmoves, checkmates) = (e.bestmoves(), e.checkmates());
        let mate = go.starts_with("go mate");
        e.send(go);
        let lines = e.collect_until(|l| l.starts_with(if mate { "checkmate" } else { "bestmove" }), SEARCH);
        e.check(
            lines
                .iter()
                .any(|l| l.starts_with("info string ") && l.contains("read as 0")),
            || format!("`{go}`: no info string before the answer: {lines:?}"),
        );
        let answer = lines.last().expect("the answer");
        if mate {
            check_mate_answer(&e, &p, answer);
        } else {
            check_answer(&e, &p, answer, go);
        }
        e.sync();
        e.check(
            e.bestmoves() - bestmoves == usize::from(!mate) && e.checkmates() - checkmates == usize::from(mate),
            || format!("`{go}`: not exactly one answer"),
        );
    }
    // Still fully working.
    search(&mut e, "startpos moves 7g7f", "go depth 2", SEARCH);
    e.quit(PROMPT);
}

// ----- whole games ---------------------------------------------------------------------------

/// Two short games the way Shogidokoro and ShogiHome run them in one process: isready,
/// usinewgame, position with the whole game, go with clocks, gameover; every move checked.
#[test]
fn consecutive_games_in_one_process() {
    let mut e = Engine::start();
    for (game, start, go) in [
        (1, "startpos", "go btime 0 wtime 0 byoyomi 100"),
        (
            2,
            "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "go byoyomi 100",
        ),
        (3, "startpos", "go btime 3000 wtime 3000 binc 100 winc 100"),
    ] {
        e.sync();
        e.send("usinewgame");
        let mut moves: Vec<String> = Vec::new();
        for _ply in 0..16 {
            let args = if moves.is_empty() {
                start.to_string()
            } else {
                format!("{start} moves {}", moves.join(" "))
            };
            let line = search(&mut e, &args, go, SEARCH);
            match parse_bestmove(&line).0 {
                BestMove::Move(m) => moves.push(m),
                BestMove::Resign | BestMove::Win => break,
            }
        }
        e.send("gameover draw");
        e.check(!moves.is_empty(), || format!("game {game}: no move played"));
    }
    e.quit(PROMPT);
}
