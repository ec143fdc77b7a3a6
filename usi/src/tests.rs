//! Unit tests: every command and answer with its exact wire form, and the lines real GUIs send.

use std::time::Duration;

use super::*;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|&word| word.to_owned()).collect()
}

fn gui(line: &str) -> GuiMessage {
    parse_gui_line(line).unwrap_or_else(|err| panic!("{line:?}: {err}"))
}

fn engine(line: &str) -> EngineMessage {
    parse_engine_line(line).unwrap_or_else(|err| panic!("{line:?}: {err}"))
}

fn go(line: &str) -> GoParams {
    match gui(line) {
        GuiMessage::Go(params) => params,
        other => panic!("{line:?} parsed as {other:?}"),
    }
}

fn gui_error(line: &str) -> String {
    match parse_gui_line(line) {
        Ok(message) => panic!("{line:?} parsed as {message:?}"),
        Err(err) => err.to_string(),
    }
}

fn engine_error(line: &str) -> String {
    match parse_engine_line(line) {
        Ok(message) => panic!("{line:?} parsed as {message:?}"),
        Err(err) => err.to_string(),
    }
}

/// `message` prints as `wire`, and `wire` parses back to it (strictly, for GUI messages).
fn assert_gui_wire(message: &GuiMessage, wire: &str) {
    assert_eq!(message.to_string(), wire);
    assert_eq!(parse_gui_line_strict(wire).as_ref(), Ok(message), "strict {wire:?}");
    assert_eq!(parse_gui_line(wire).as_ref(), Ok(message), "lenient {wire:?}");
}

fn assert_engine_wire(message: &EngineMessage, wire: &str) {
    assert_eq!(message.to_string(), wire);
    assert_eq!(parse_engine_line(wire).as_ref(), Ok(message), "{wire:?}");
}

// --- GUI → engine: simple commands -----------------------------------------------------------

#[test]
fn simple_commands() {
    let cases = [
        (GuiMessage::Usi, "usi"),
        (GuiMessage::IsReady, "isready"),
        (GuiMessage::UsiNewGame, "usinewgame"),
        (GuiMessage::Stop, "stop"),
        (GuiMessage::PonderHit(GoParams::default()), "ponderhit"),
        (GuiMessage::Quit, "quit"),
        (GuiMessage::Display, "d"),
        (GuiMessage::Eval, "eval"),
        (GuiMessage::Book, "book"),
    ];
    for (message, wire) in cases {
        assert_gui_wire(&message, wire);
        // Windows line ends, surrounding blanks, tabs.
        assert_eq!(gui(&format!("{wire}\r\n")), message);
        assert_eq!(gui(&format!(" \t{wire} \t\r")), message);
        // Lenient: trailing tokens are ignored; strict: rejected.
        assert_eq!(gui(&format!("{wire} extra tokens")), message);
        assert!(parse_gui_line_strict(&format!("{wire} extra")).is_err());
    }
}

#[test]
fn strict_allows_one_line_terminator() {
    assert_eq!(parse_gui_line_strict("usi\n"), Ok(GuiMessage::Usi));
    assert_eq!(parse_gui_line_strict("usi\r\n"), Ok(GuiMessage::Usi));
    assert!(parse_gui_line_strict(" usi").is_err());
    assert!(parse_gui_line_strict("usi ").is_err());
    assert!(parse_gui_line_strict("usi\n\n").is_err());
}

#[test]
fn empty_and_unknown_lines() {
    for line in ["", " ", "\t", "\r\n", "\n", "  \t \r\n", "\u{feff}"] {
        assert_eq!(parse_gui_line(line), Err(ParseError::Empty), "{line:?}");
        assert_eq!(parse_gui_line_strict(line), Err(ParseError::Empty), "{line:?}");
        assert_eq!(parse_engine_line(line), Err(ParseError::Empty), "{line:?}");
    }
    assert_eq!(
        parse_gui_line("foo bar"),
        Err(ParseError::UnknownCommand("foo".to_owned()))
    );
    // Commands are case-sensitive.
    assert_eq!(parse_gui_line("USI"), Err(ParseError::UnknownCommand("USI".to_owned())));
    assert_eq!(
        parse_gui_line("debug on"),
        Err(ParseError::UnknownCommand("debug".to_owned()))
    );
    assert_eq!(parse_gui_line("usi\r"), Ok(GuiMessage::Usi));
    assert_eq!(parse_gui_line("\u{feff}usi"), Ok(GuiMessage::Usi), "byte-order mark");
    assert_eq!(gui_error("foo"), "unknown command `foo`");
    assert_eq!(
        parse_engine_line("bogus"),
        Err(ParseError::UnknownCommand("bogus".to_owned()))
    );
}

// --- setoption -------------------------------------------------------------------------------

fn setoption(name: &str, value: Option<&str>) -> GuiMessage {
    GuiMessage::SetOption {
        name: name.to_owned(),
        value: value.map(str::to_owned),
    }
}

#[test]
fn setoption_wire() {
    assert_gui_wire(&setoption("USI_Hash", Some("256")), "setoption name USI_Hash value 256");
    assert_gui_wire(
        &setoption("USI_Ponder", Some("true")),
        "setoption name USI_Ponder value true",
    );
    assert_gui_wire(
        &setoption("Book", Some("my book file.db")),
        "setoption name Book value my book file.db",
    );
    assert_gui_wire(&setoption("ClearHash", None), "setoption name ClearHash");
    assert_gui_wire(&setoption("BookFile", Some("")), "setoption name BookFile value");
    // Inner whitespace of a value is kept (paths).
    assert_gui_wire(
        &setoption("EvalDir", Some(r"C:\My  Evals\x")),
        r"setoption name EvalDir value C:\My  Evals\x",
    );
}

#[test]
fn setoption_lenient() {
    // Real-client lines: Shogidokoro/ShogiHome always send USI_Hash and USI_Ponder.
    assert_eq!(
        gui("setoption name USI_Ponder value true"),
        setoption("USI_Ponder", Some("true"))
    );
    assert_eq!(
        gui("setoption name USI_Hash value 32\r\n"),
        setoption("USI_Hash", Some("32"))
    );
    assert_eq!(
        gui("setoption name Book value my book file.db"),
        setoption("Book", Some("my book file.db"))
    );
    assert_eq!(
        gui("setoption  name\tBook   value   my book file.db  \r\n"),
        setoption("Book", Some("my book file.db"))
    );
    // `value` with nothing after it: an empty value; no `value`: none.
    assert_eq!(gui("setoption name BookFile value"), setoption("BookFile", Some("")));
    assert_eq!(gui("setoption name BookFile value   "), setoption("BookFile", Some("")));
    assert_eq!(gui("setoption name ClearHash"), setoption("ClearHash", None));
    // Names with spaces (ShogiArena allows them) are joined with single spaces.
    assert_eq!(
        gui("setoption name Book  File value x"),
        setoption("Book File", Some("x"))
    );
    // The token after `name` is the name, even `value`.
    assert_eq!(gui("setoption name value value 3"), setoption("value", Some("3")));
    // A value may contain the word `value`.
    assert_eq!(
        gui("setoption name A value x value y"),
        setoption("A", Some("x value y"))
    );
    // Non-ASCII values (cshogi encodes with the OS locale) pass through.
    assert_eq!(
        gui("setoption name EvalDir value 評価関数"),
        setoption("EvalDir", Some("評価関数"))
    );
}

#[test]
fn setoption_errors() {
    assert_eq!(gui_error("setoption"), "setoption: expected `name`, found nothing");
    assert_eq!(
        gui_error("setoption USI_Hash value 3"),
        "setoption: expected `name`, found `USI_Hash`"
    );
    assert_eq!(
        gui_error("setoption name"),
        "setoption: `name` needs an option name, found nothing"
    );
    assert!(parse_gui_line_strict("setoption name a  b").is_err());
    assert!(parse_gui_line_strict("setoption name a value ").is_err());
}

// --- position --------------------------------------------------------------------------------

const HANDICAP: &str = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";

fn position(start: PositionStart, moves: &[&str]) -> GuiMessage {
    GuiMessage::Position {
        start,
        moves: strings(moves),
    }
}

#[test]
fn position_wire() {
    assert_gui_wire(&position(PositionStart::StartPos, &[]), "position startpos");
    assert_gui_wire(
        &position(PositionStart::StartPos, &["7g7f"]),
        "position startpos moves 7g7f",
    );
    assert_gui_wire(
        &position(PositionStart::StartPos, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
    );
    assert_eq!(PositionStart::StartPos.sfen(), None);
    let sfen = PositionStart::Sfen(HANDICAP.to_owned());
    assert_eq!(sfen.sfen(), Some(HANDICAP));
    assert_gui_wire(&position(sfen.clone(), &[]), &format!("position sfen {HANDICAP}"));
    assert_gui_wire(
        &position(sfen, &["5a4b", "7g7f"]),
        &format!("position sfen {HANDICAP} moves 5a4b 7g7f"),
    );
}

#[test]
fn position_lenient() {
    // `moves` with no moves (some GUIs), and the keyword omitted (Shogidokoro).
    assert_eq!(gui("position startpos moves"), position(PositionStart::StartPos, &[]));
    assert_eq!(gui("position startpos"), position(PositionStart::StartPos, &[]));
    // Missing move number.
    let three = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -";
    assert_eq!(
        gui(&format!("position sfen {three} moves 5a4b")),
        position(PositionStart::Sfen(three.to_owned()), &["5a4b"])
    );
    // Extra blanks between fields are normalised.
    assert_eq!(
        gui("position  sfen\t4k4/9/9/9/9/9/9/9/4K4  b   2G  7\r\n"),
        position(PositionStart::Sfen("4k4/9/9/9/9/9/9/9/4K4 b 2G 7".to_owned()), &[])
    );
    // ShogiGUI's "send all moves" may contain null moves; they pass through unchecked.
    assert_eq!(
        gui(&format!("position sfen {HANDICAP} moves pass 7g7f 0000")),
        position(PositionStart::Sfen(HANDICAP.to_owned()), &["pass", "7g7f", "0000"])
    );
    assert_eq!(
        gui("position startpos moves 7g7f pass"),
        position(PositionStart::StartPos, &["7g7f", "pass"])
    );
    // Strict parsing wants the canonical form.
    assert!(parse_gui_line_strict("position startpos moves").is_err());
    assert!(parse_gui_line_strict("position startpos  moves 7g7f").is_err());
}

#[test]
fn position_errors() {
    assert_eq!(
        gui_error("position"),
        "position: expected `startpos` or `sfen`, found nothing"
    );
    assert_eq!(
        gui_error("position 7g7f"),
        "position: expected `startpos` or `sfen`, found `7g7f`"
    );
    assert_eq!(
        gui_error("position startpos 7g7f"),
        "position: expected `moves` or the end of the line, found `7g7f`"
    );
    let two = gui_error("position sfen 4k4/9/9/9/9/9/9/9/4K4 b");
    assert_eq!(
        two,
        "position: `sfen` needs 3 or 4 fields (board, side to move, hands, optional move number), found 2"
    );
    assert!(gui_error("position sfen moves 7g7f").contains("found 0"));
    assert!(gui_error("position sfen a b c d 7g7f").contains("found 5"));
}

// --- go --------------------------------------------------------------------------------------

#[test]
fn go_wire() {
    let cases = [
        (GoParams::default(), "go"),
        (
            GoParams {
                btime: Some(ms(60000)),
                wtime: Some(ms(50000)),
                byoyomi: Some(ms(10000)),
                ..GoParams::default()
            },
            "go btime 60000 wtime 50000 byoyomi 10000",
        ),
        (
            GoParams {
                mate: Some(MateParam::Infinite),
                ..GoParams::default()
            },
            "go mate infinite",
        ),
        (
            GoParams {
                mate: Some(MateParam::Timeout(ms(5000))),
                ..GoParams::default()
            },
            "go mate 5000",
        ),
        (
            GoParams {
                infinite: true,
                ..GoParams::default()
            },
            "go infinite",
        ),
        (
            GoParams {
                ponder: true,
                btime: Some(ms(52000)),
                wtime: Some(ms(60000)),
                binc: Some(ms(5000)),
                winc: Some(ms(5000)),
                ..GoParams::default()
            },
            "go ponder btime 52000 wtime 60000 binc 5000 winc 5000",
        ),
        (
            GoParams {
                movetime: Some(ms(1000)),
                depth: Some(12),
                nodes: Some(1_000_000),
                ..GoParams::default()
            },
            "go movetime 1000 depth 12 nodes 1000000",
        ),
    ];
    for (params, wire) in cases {
        assert_gui_wire(&GuiMessage::Go(params), wire);
    }
    // Sub-millisecond parts are not printed.
    assert_eq!(
        GoParams {
            btime: Some(Duration::from_micros(1500)),
            ..GoParams::default()
        }
        .to_string(),
        "go btime 1"
    );
}

#[test]
fn go_real_clients() {
    // cshogi, byoyomi-only time control: no btime/wtime.
    assert_eq!(
        go("go byoyomi 1000"),
        GoParams {
            byoyomi: Some(ms(1000)),
            ..GoParams::default()
        }
    );
    // ShogiGUI / Shogidokoro pure byoyomi.
    assert_eq!(
        go("go btime 0 wtime 0 byoyomi 10000\r\n"),
        GoParams {
            btime: Some(ms(0)),
            wtime: Some(ms(0)),
            byoyomi: Some(ms(10000)),
            ..GoParams::default()
        }
    );
    // Shogidokoro's first Fischer move.
    assert_eq!(
        go("go btime 0 wtime 0 binc 5000 winc 5000"),
        GoParams {
            btime: Some(ms(0)),
            wtime: Some(ms(0)),
            binc: Some(ms(5000)),
            winc: Some(ms(5000)),
            ..GoParams::default()
        }
    );
    // ShogiHome ponder, Shogidokoro ponder with byoyomi.
    let ponder = go("go ponder btime 52000 wtime 60000 binc 5000 winc 5000");
    assert!(ponder.ponder && !ponder.infinite);
    assert_eq!((ponder.btime, ponder.winc), (Some(ms(52000)), Some(ms(5000))));
    let ponder = go("go ponder btime 1000 wtime 2000 byoyomi 3000");
    assert!(ponder.ponder);
    assert_eq!(ponder.byoyomi, Some(ms(3000)));
    // ShogiHome early ponder: bare `go ponder`.
    assert_eq!(
        go("go ponder"),
        GoParams {
            ponder: true,
            ..GoParams::default()
        }
    );
    // ShogiArena puts `ponder` after the times.
    let arena = go("go btime 1000 wtime 2000 byoyomi 3000 ponder");
    assert!(arena.ponder);
    assert_eq!(arena.btime, Some(ms(1000)));
    // cshogi with a node limit, bare `go`.
    assert_eq!(
        go("go nodes 100000"),
        GoParams {
            nodes: Some(100_000),
            ..GoParams::default()
        }
    );
    assert_eq!(go("go"), GoParams::default());
    // Analysis.
    assert_eq!(
        go("go infinite"),
        GoParams {
            infinite: true,
            ..GoParams::default()
        }
    );
    // Mate requests (Shogidokoro, ShogiHome, cshogi), and YaneuraOu's bare form.
    assert_eq!(go("go mate 10000").mate, Some(MateParam::Timeout(ms(10000))));
    assert_eq!(go("go mate infinite").mate, Some(MateParam::Infinite));
    assert!(
        !go("go mate infinite").infinite,
        "`infinite` after `mate` is its argument"
    );
    assert_eq!(go("go mate").mate, Some(MateParam::Infinite));
    // MyShogi's `go mate nodes N`.
    let mate_nodes = go("go mate nodes 5000");
    assert_eq!(
        (mate_nodes.mate, mate_nodes.nodes),
        (Some(MateParam::Infinite), Some(5000))
    );
    let both = go("go infinite mate");
    assert!(both.infinite);
    assert_eq!(both.mate, Some(MateParam::Infinite));
}

#[test]
fn go_lenient() {
    // Unknown tokens (UCI leftovers, YaneuraOu extensions) are ignored, wherever they are.
    let params = go("go searchmoves 7g7f 2g2f movestogo 20 btime 100 rtime 300 wtime\t200  ");
    assert_eq!(
        params,
        GoParams {
            btime: Some(ms(100)),
            wtime: Some(ms(200)),
            ..GoParams::default()
        }
    );
    // A repeated key keeps its last value.
    assert_eq!(go("go btime 1 btime 2").btime, Some(ms(2)));
    // Huge numbers saturate.
    assert_eq!(go("go btime 99999999999999999999999999999").btime, Some(ms(u64::MAX)));
    assert_eq!(go("go depth 99999999999").depth, Some(u32::MAX));
    assert_eq!(go("go nodes 18446744073709551616").nodes, Some(u64::MAX));
    assert_eq!(
        go("go mate 99999999999999999999999").mate,
        Some(MateParam::Timeout(ms(u64::MAX)))
    );
    assert_eq!(
        GuiMessage::Go(go("go btime 99999999999999999999")).to_string(),
        "go btime 18446744073709551615"
    );
}

/// `go` read by the front-end's parser: the message and its notes.
fn mended(line: &str) -> (GuiMessage, Vec<String>) {
    parse_gui_line_mending(line).unwrap_or_else(|err| panic!("{line:?}: {err}"))
}

#[test]
fn go_mending_reads_unreadable_values_as_zero() {
    // (line, the message it becomes, the notes): a value that cannot be read counts as zero and
    // is said, the token skipped unless it is a key of its own.
    let cases: &[(&str, GoParams, &[&str])] = &[
        (
            "go nodes -1",
            GoParams {
                nodes: Some(0),
                ..GoParams::default()
            },
            &["go: `nodes` needs a number of nodes, found `-1`; read as 0"],
        ),
        (
            "go depth -3 nodes 500",
            GoParams {
                depth: Some(0),
                nodes: Some(500),
                ..GoParams::default()
            },
            &["go: `depth` needs a number of plies, found `-3`; read as 0"],
        ),
        (
            "go btime abc wtime 1000",
            GoParams {
                btime: Some(Duration::ZERO),
                wtime: Some(ms(1000)),
                ..GoParams::default()
            },
            &["go: `btime` needs a number of milliseconds, found `abc`; read as 0"],
        ),
        (
            "go btime 1000 byoyomi ponder",
            GoParams {
                btime: Some(ms(1000)),
                byoyomi: Some(Duration::ZERO),
                ponder: true,
                ..GoParams::default()
            },
            &["go: `byoyomi` needs a number of milliseconds, found `ponder`; read as 0"],
        ),
        (
            "go mate -5",
            GoParams {
                mate: Some(MateParam::Timeout(Duration::ZERO)),
                ..GoParams::default()
            },
            &["go: `mate` needs a number of milliseconds or `infinite`, found `-5`; read as 0"],
        ),
        (
            "go binc 1.5 winc x movetime",
            GoParams {
                binc: Some(Duration::ZERO),
                winc: Some(Duration::ZERO),
                movetime: Some(Duration::ZERO),
                ..GoParams::default()
            },
            &[
                "go: `binc` needs a number of milliseconds, found `1.5`; read as 0",
                "go: `winc` needs a number of milliseconds, found `x`; read as 0",
                "go: `movetime` needs a number of milliseconds, found nothing; read as 0",
            ],
        ),
        // Lines that read without mending carry no notes.
        (
            "go wtime -100",
            GoParams {
                wtime: Some(Duration::ZERO),
                ..GoParams::default()
            },
            &[],
        ),
        (
            "go mate",
            GoParams {
                mate: Some(MateParam::Infinite),
                ..GoParams::default()
            },
            &[],
        ),
    ];
    for (line, params, notes) in cases {
        let (message, got) = mended(line);
        assert_eq!(message, GuiMessage::Go(params.clone()), "{line}");
        assert_eq!(got, *notes, "{line}");
        // The plain lenient parser still refuses the lines that needed mending.
        assert_eq!(parse_gui_line(line).is_err(), !notes.is_empty(), "{line}");
    }
    // `ponderhit` carries a clock and is mended the same way.
    let (message, notes) = mended("ponderhit btime x");
    assert_eq!(
        message,
        GuiMessage::PonderHit(GoParams {
            btime: Some(Duration::ZERO),
            ..GoParams::default()
        })
    );
    assert_eq!(notes.len(), 1);
    // Other commands are not mended: their errors stand.
    assert!(parse_gui_line_mending("perft abc").is_err());
    assert!(parse_gui_line_mending("position sfen x").is_err());
    // Strict parsing never mends.
    assert!(parse_gui_line_strict("go nodes -1").is_err());
}

#[test]
fn go_errors() {
    assert_eq!(
        gui_error("go btime abc"),
        "go: `btime` needs a number of milliseconds, found `abc`"
    );
    assert_eq!(
        gui_error("go btime"),
        "go: `btime` needs a number of milliseconds, found nothing"
    );
    // A negative clock counts as zero in lenient parsing; strict parsing refuses it.
    assert_eq!(
        gui("go wtime -100"),
        GuiMessage::Go(GoParams {
            wtime: Some(Duration::ZERO),
            ..GoParams::default()
        })
    );
    assert!(parse_gui_line_strict("go wtime -100").is_err());
    assert_eq!(
        gui_error("go btime 1000 byoyomi ponder"),
        "go: `byoyomi` needs a number of milliseconds, found `ponder`"
    );
    assert_eq!(
        gui_error("go binc 1.5"),
        "go: `binc` needs a number of milliseconds, found `1.5`"
    );
    assert_eq!(
        gui_error("go depth x"),
        "go: `depth` needs a number of plies, found `x`"
    );
    assert_eq!(
        gui_error("go nodes +5"),
        "go: `nodes` needs a number of nodes, found `+5`"
    );
    assert_eq!(
        gui_error("go mate abc"),
        "go: `mate` needs a number of milliseconds or `infinite`, found `abc`"
    );
    assert_eq!(
        gui_error("go mate -1"),
        "go: `mate` needs a number of milliseconds or `infinite`, found `-1`"
    );
    // Strict parsing: no unknown tokens, canonical order, no bare `mate`.
    assert!(parse_gui_line_strict("go searchmoves 7g7f").is_err());
    assert!(parse_gui_line_strict("go wtime 1 btime 2").is_err());
    assert!(parse_gui_line_strict("go btime 1 ponder").is_err());
    assert!(parse_gui_line_strict("go mate").is_err());
    assert!(parse_gui_line_strict("go btime 01").is_err());
    assert_eq!(
        parse_gui_line_strict("go btime 1 btime 2"),
        Err(ParseError::NotCanonical {
            line: "go btime 1 btime 2".to_owned(),
            expected: "go btime 2".to_owned()
        })
    );
}

// --- gameover, debug commands ----------------------------------------------------------------

#[test]
fn gameover() {
    assert_gui_wire(&GuiMessage::GameOver(Some(GameResult::Win)), "gameover win");
    assert_gui_wire(&GuiMessage::GameOver(Some(GameResult::Lose)), "gameover lose");
    assert_gui_wire(&GuiMessage::GameOver(Some(GameResult::Draw)), "gameover draw");
    // cshogi sends a bare `gameover`.
    assert_gui_wire(&GuiMessage::GameOver(None), "gameover");
    assert_eq!(gui("gameover draw\r\n"), GuiMessage::GameOver(Some(GameResult::Draw)));
    // Any other result word still ends the game; strict parsing refuses it.
    assert_eq!(gui("gameover unknown"), GuiMessage::GameOver(None));
    assert!(parse_gui_line_strict("gameover unknown").is_err());
    assert!(parse_gui_line_strict("gameover win now").is_err());
}

#[test]
fn debug_commands() {
    assert_gui_wire(&GuiMessage::Perft(5), "perft 5");
    assert_eq!(gui("perft"), GuiMessage::Perft(1));
    assert!(parse_gui_line_strict("perft").is_err());
    assert_eq!(gui("perft 99999999999"), GuiMessage::Perft(u32::MAX));
    assert_eq!(gui_error("perft x"), "perft: `perft` needs a depth, found `x`");
    assert_gui_wire(&GuiMessage::Bench(Vec::new()), "bench");
    assert_gui_wire(&GuiMessage::Bench(strings(&["16", "1", "13"])), "bench 16 1 13");
    assert_eq!(gui("bench  a\tb "), GuiMessage::Bench(strings(&["a", "b"])));
    assert_gui_wire(&GuiMessage::Display, "d");
}

#[test]
fn shogihome_transcript() {
    let lines = [
        "usi",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "setoption name USI_Hash value 32",
        "setoption name USI_Ponder value true",
        "isready",
        "usinewgame",
        "position startpos moves 2g2f",
        "go btime 33000 wtime 30000 binc 5000 winc 5000",
        "position startpos moves 2g2f 8c8d 3a3b 5g5f",
        "go ponder btime 52000 wtime 60000 binc 5000 winc 5000",
        "stop",
        "ponderhit",
        "gameover lose",
        "quit",
    ];
    for line in lines {
        // All of them are in canonical form.
        assert_eq!(
            parse_gui_line_strict(line)
                .map(|message| message.to_string())
                .as_deref(),
            Ok(line)
        );
    }
}

// --- engine → GUI ----------------------------------------------------------------------------

#[test]
fn id_and_simple_answers() {
    assert_engine_wire(
        &EngineMessage::Id(IdInfo::Name("Soppo 0.1.0".to_owned())),
        "id name Soppo 0.1.0",
    );
    assert_engine_wire(
        &EngineMessage::Id(IdInfo::Author("Soppo developers".to_owned())),
        "id author Soppo developers",
    );
    assert_engine_wire(&EngineMessage::Id(IdInfo::Name(String::new())), "id name");
    assert_engine_wire(&EngineMessage::UsiOk, "usiok");
    assert_engine_wire(&EngineMessage::ReadyOk, "readyok");
    assert_eq!(engine("readyok\r\n"), EngineMessage::ReadyOk);
    assert_eq!(
        engine("id author  Kubo  Ryosuke "),
        EngineMessage::Id(IdInfo::Author("Kubo  Ryosuke".to_owned()))
    );
    assert_eq!(engine_error("usiok now"), "usiok: unexpected `now`");
    assert_eq!(
        engine_error("id version 1"),
        "id: expected `name` or `author`, found `version`"
    );
}

fn option(name: &str, kind: OptionKind) -> EngineMessage {
    EngineMessage::Option(UsiOption {
        name: name.to_owned(),
        kind,
    })
}

#[test]
fn options() {
    assert_engine_wire(
        &option(
            "USI_Hash",
            OptionKind::Spin {
                default: 256,
                min: 1,
                max: 33_554_432,
            },
        ),
        "option name USI_Hash type spin default 256 min 1 max 33554432",
    );
    assert_engine_wire(
        &option(
            "EnteringKingRule",
            OptionKind::Combo {
                default: "CSARule27".to_owned(),
                vars: strings(&["NoEnteringKing", "CSARule24", "CSARule27"]),
            },
        ),
        "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27",
    );
    assert_engine_wire(
        &option("Book", OptionKind::String { default: String::new() }),
        "option name Book type string default <empty>",
    );
    assert_engine_wire(
        &option(
            "EvalDir",
            OptionKind::String {
                default: "eval".to_owned(),
            },
        ),
        "option name EvalDir type string default eval",
    );
    assert_engine_wire(
        &option(
            "BookFile",
            OptionKind::Filename {
                default: "book.db".to_owned(),
            },
        ),
        "option name BookFile type filename default book.db",
    );
    assert_engine_wire(
        &option("Log", OptionKind::Filename { default: String::new() }),
        "option name Log type filename default <empty>",
    );
    assert_engine_wire(
        &option("USI_Ponder", OptionKind::Check { default: false }),
        "option name USI_Ponder type check default false",
    );
    assert_engine_wire(
        &option("ClearHash", OptionKind::Button),
        "option name ClearHash type button",
    );
    assert_engine_wire(
        &option(
            "NodesLimit",
            OptionKind::Spin {
                default: 0,
                min: 0,
                max: i64::MAX,
            },
        ),
        "option name NodesLimit type spin default 0 min 0 max 9223372036854775807",
    );
    assert_engine_wire(
        &option(
            "DrawValueBlack",
            OptionKind::Spin {
                default: -2,
                min: -30000,
                max: 30000,
            },
        ),
        "option name DrawValueBlack type spin default -2 min -30000 max 30000",
    );
    // Keys in another order; names with spaces.
    assert_eq!(
        engine("option name Threads type spin min 1 max 32 default 1"),
        option(
            "Threads",
            OptionKind::Spin {
                default: 1,
                min: 1,
                max: 32
            }
        )
    );
    assert_eq!(
        engine("option name Big Name type button"),
        option("Big Name", OptionKind::Button)
    );
    assert_eq!(
        engine("option name S type string"),
        option("S", OptionKind::String { default: String::new() })
    );
}

#[test]
fn option_errors() {
    assert_eq!(
        engine_error("option name X type foo"),
        "option: expected `check`, `spin`, `combo`, `button`, `string` or `filename`, found `foo`"
    );
    assert_eq!(
        engine_error("option name X"),
        "option: expected `type` after the option name, found nothing"
    );
    assert_eq!(
        engine_error("option type spin"),
        "option: expected `name`, found `type`"
    );
    assert_eq!(
        engine_error("option name X type check default yes"),
        "option: `default` needs `true` or `false`, found `yes`"
    );
    assert_eq!(
        engine_error("option name X type check"),
        "option: `default` needs `true` or `false`, found nothing"
    );
    assert_eq!(
        engine_error("option name X type spin default 1 min 0"),
        "option: a spin option needs `max`"
    );
    assert_eq!(
        engine_error("option name X type spin default x min 0 max 1"),
        "option: `default` needs an integer, found `x`"
    );
    assert_eq!(
        engine_error("option name X type spin default 1 default 2 min 0 max 1"),
        "option: `default` appears twice"
    );
    assert_eq!(
        engine_error("option name X type button default 1"),
        "option: `default` does not apply to type `button`"
    );
    assert_eq!(
        engine_error("option name X type combo default a var"),
        "option: `var` needs a value, found nothing"
    );
    assert_eq!(engine_error("option name X type spin foo"), "option: unexpected `foo`");
    assert_eq!(
        engine_error("option name X type spin default 1 min 0 max 1 step 1"),
        "option: `max` needs an integer, found `1 step 1`"
    );
}

#[test]
fn bestmove() {
    let bestmove = |mv: BestMove, ponder: Option<&str>| EngineMessage::BestMove {
        mv,
        ponder: ponder.map(str::to_owned),
    };
    assert_engine_wire(
        &bestmove(BestMove::Move("7g7f".to_owned()), Some("3c3d")),
        "bestmove 7g7f ponder 3c3d",
    );
    assert_engine_wire(&bestmove(BestMove::Move("P*5e".to_owned()), None), "bestmove P*5e");
    assert_engine_wire(&bestmove(BestMove::Resign, None), "bestmove resign");
    assert_engine_wire(&bestmove(BestMove::Win, None), "bestmove win");
    assert_eq!(engine_error("bestmove"), "bestmove: expected a move, found nothing");
    assert_eq!(
        engine_error("bestmove ponder 7g7f"),
        "bestmove: expected a move, found `ponder`"
    );
    assert_eq!(
        engine_error("bestmove 7g7f ponder"),
        "bestmove: `ponder` needs a move, found nothing"
    );
    assert_eq!(
        engine_error("bestmove 7g7f 3c3d"),
        "bestmove: expected `ponder` or the end of the line, found `3c3d`"
    );
}

#[test]
fn checkmate() {
    let wire = |result: CheckmateResult, line: &str| assert_engine_wire(&EngineMessage::Checkmate(result), line);
    wire(
        CheckmateResult::Mate(strings(&["2b2a+", "1a2a", "G*2b"])),
        "checkmate 2b2a+ 1a2a G*2b",
    );
    wire(CheckmateResult::NoMate, "checkmate nomate");
    wire(CheckmateResult::Timeout, "checkmate timeout");
    wire(CheckmateResult::NotImplemented, "checkmate notimplemented");
    // A bare `checkmate` breaks ShogiHome; it is not a valid answer.
    assert!(engine_error("checkmate").starts_with("checkmate: expected a move list"));
}

#[test]
fn info_wire() {
    let info = EngineMessage::Info(vec![
        InfoAttr::Depth(5),
        InfoAttr::SelDepth(7),
        InfoAttr::Score(Score::Cp { value: 34, bound: None }),
        InfoAttr::Nodes(1234),
        InfoAttr::Nps(50000),
        InfoAttr::Time(ms(25)),
        InfoAttr::HashFull(3),
        InfoAttr::MultiPv(1),
        InfoAttr::Pv(strings(&["7g7f", "3c3d"])),
    ]);
    assert_engine_wire(
        &info,
        "info depth 5 seldepth 7 score cp 34 nodes 1234 nps 50000 time 25 hashfull 3 multipv 1 pv 7g7f 3c3d",
    );
    assert_engine_wire(
        &EngineMessage::Info(vec![InfoAttr::String("hello world".to_owned())]),
        "info string hello world",
    );
    assert_engine_wire(
        &EngineMessage::Info(vec![InfoAttr::String(String::new())]),
        "info string",
    );
    assert_engine_wire(
        &EngineMessage::Info(vec![InfoAttr::CurrMove("8h2b+".to_owned())]),
        "info currmove 8h2b+",
    );
    assert_engine_wire(&EngineMessage::Info(vec![InfoAttr::Pv(Vec::new())]), "info pv");
    assert_engine_wire(&EngineMessage::Info(Vec::new()), "info");
    // `pv` and `string` are always printed last, `string` last of all.
    let shuffled = EngineMessage::Info(vec![
        InfoAttr::String("note".to_owned()),
        InfoAttr::Pv(strings(&["7g7f"])),
        InfoAttr::Depth(1),
        InfoAttr::Score(Score::Mate {
            plies: MatePlies::Plies(3),
            bound: None,
        }),
    ]);
    assert_eq!(shuffled.to_string(), "info depth 1 score mate 3 pv 7g7f string note");
}

#[test]
fn scores() {
    let cases = [
        (
            Score::Mate {
                plies: MatePlies::Plies(7),
                bound: None,
            },
            "score mate 7",
        ),
        (
            Score::Mate {
                plies: MatePlies::Plies(-4),
                bound: None,
            },
            "score mate -4",
        ),
        (
            Score::Mate {
                plies: MatePlies::Plus,
                bound: None,
            },
            "score mate +",
        ),
        (
            Score::Mate {
                plies: MatePlies::Minus,
                bound: None,
            },
            "score mate -",
        ),
        (
            Score::Cp {
                value: 100,
                bound: Some(ScoreBound::Lower),
            },
            "score cp 100 lowerbound",
        ),
        (
            Score::Cp {
                value: -35,
                bound: Some(ScoreBound::Upper),
            },
            "score cp -35 upperbound",
        ),
        (
            Score::Mate {
                plies: MatePlies::Plies(9),
                bound: Some(ScoreBound::Lower),
            },
            "score mate 9 lowerbound",
        ),
    ];
    for (score, wire) in cases {
        assert_eq!(score.to_string(), wire);
        assert_engine_wire(
            &EngineMessage::Info(vec![InfoAttr::Score(score)]),
            &format!("info {wire}"),
        );
    }
    let score = |line: &str| match engine(line) {
        EngineMessage::Info(attrs) => attrs,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        score("info score mate +5"),
        vec![InfoAttr::Score(Score::Mate {
            plies: MatePlies::Plies(5),
            bound: None
        })]
    );
    assert_eq!(
        score("info score cp 99999999999"),
        vec![InfoAttr::Score(Score::Cp {
            value: i32::MAX,
            bound: None
        })],
        "saturates"
    );
    assert_eq!(
        score("info score cp -99999999999"),
        vec![InfoAttr::Score(Score::Cp {
            value: i32::MIN,
            bound: None
        })],
        "saturates"
    );
}

#[test]
fn info_real_lines() {
    // ShogiHome log with Sunfish.
    let line = "info time 7 depth 5 seldepth 5 nodes 885 nps 126428 score cp -8 multipv 1 pv 3a3b 5g5f 3b4c";
    assert_eq!(
        engine(line),
        EngineMessage::Info(vec![
            InfoAttr::Time(ms(7)),
            InfoAttr::Depth(5),
            InfoAttr::SelDepth(5),
            InfoAttr::Nodes(885),
            InfoAttr::Nps(126_428),
            InfoAttr::Score(Score::Cp { value: -8, bound: None }),
            InfoAttr::MultiPv(1),
            InfoAttr::Pv(strings(&["3a3b", "5g5f", "3b4c"])),
        ])
    );
    // A mate search's progress line, with YaneuraOu's non-move PV tokens.
    assert_eq!(
        engine("info time 1317 nodes 1781726 nps 1352867 hashfull 35 pv 7f8e 6c6b rep_draw"),
        EngineMessage::Info(vec![
            InfoAttr::Time(ms(1317)),
            InfoAttr::Nodes(1_781_726),
            InfoAttr::Nps(1_352_867),
            InfoAttr::HashFull(35),
            InfoAttr::Pv(strings(&["7f8e", "6c6b", "rep_draw"])),
        ])
    );
    // `pv` stops at the next keyword; `string` takes the rest of the line verbatim.
    assert_eq!(
        engine("info pv 7g7f 3c3d depth 2 string a  pv of depth 2 "),
        EngineMessage::Info(vec![
            InfoAttr::Pv(strings(&["7g7f", "3c3d"])),
            InfoAttr::Depth(2),
            InfoAttr::String("a  pv of depth 2".to_owned()),
        ])
    );
}

#[test]
fn info_errors() {
    assert_eq!(
        engine_error("info depth x"),
        "info: `depth` needs a number of plies, found `x`"
    );
    assert_eq!(
        engine_error("info depth -1"),
        "info: `depth` needs a number of plies, found `-1`"
    );
    assert_eq!(engine_error("info cpuload 3"), "info: unknown attribute `cpuload`");
    assert_eq!(
        engine_error("info score 3"),
        "info: `score` needs `cp` or `mate`, found `3`"
    );
    assert_eq!(
        engine_error("info score mate x"),
        "info: `mate` needs a number of plies, `+` or `-`, found `x`"
    );
    assert_eq!(
        engine_error("info currmove"),
        "info: `currmove` needs a move, found nothing"
    );
}

// --- errors ----------------------------------------------------------------------------------

#[test]
fn error_messages_are_one_ascii_line() {
    let lines = [
        "go btime \u{1b}[31m",
        "go btime 評価",
        "position sfen\u{0}",
        "perft\u{7f}",
        "foo\nbar",
        "gameover \u{2028}",
        &format!("go depth {}", "x".repeat(10_000)),
        &format!("{} tail", "z".repeat(10_000)),
    ];
    for line in lines {
        for err in [parse_gui_line(line), parse_gui_line_strict(line)]
            .into_iter()
            .filter_map(Result::err)
        {
            let text = err.to_string();
            assert!(text.bytes().all(|b| b == b' ' || b.is_ascii_graphic()), "{text:?}");
            assert!(text.len() < 200, "{text:?}");
            assert!(!text.to_ascii_lowercase().starts_with("error"), "{text:?}");
        }
    }
    assert_eq!(
        ParseError::UnknownCommand("a\nb".to_owned()).to_string(),
        "unknown command `a\\nb`"
    );
    assert_eq!(ParseError::Empty.to_string(), "empty line");
}

#[test]
fn very_long_lines() {
    let moves = vec!["7g7f"; 20_000];
    let line = format!("position startpos moves {}", moves.join(" "));
    assert_eq!(gui(&line), position(PositionStart::StartPos, &moves));
    let junk = "x\u{0} é 99999999999999999999999999 ".repeat(50_000);
    for command in [
        "go",
        "setoption name",
        "position sfen",
        "bench",
        "perft",
        "info",
        "option name",
        "checkmate",
    ] {
        let line = format!("{command} {junk}");
        let _ = parse_gui_line(&line);
        let _ = parse_gui_line_strict(&line);
        let _ = parse_engine_line(&line);
    }
}

#[test]
fn ponderhit_with_a_clock() {
    // ShogiHome's early ponder: a bare `go ponder`, then the clock arrives with the hit.
    let clock = GoParams {
        btime: Some(Duration::from_secs(1)),
        wtime: Some(Duration::from_secs(1)),
        byoyomi: Some(Duration::from_millis(500)),
        ..GoParams::default()
    };
    assert_gui_wire(
        &GuiMessage::PonderHit(clock),
        "ponderhit btime 1000 wtime 1000 byoyomi 500",
    );
}
