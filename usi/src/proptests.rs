//! Property tests: printed messages parse back to themselves, and no input makes a parser panic.

use std::time::Duration;

use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;
use proptest::sample::select;

use super::*;

/// Every keyword the parsers know, to steer random lines into deep paths.
const KEYWORDS: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "ponder",
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "infinite",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "stop",
    "ponderhit",
    "gameover",
    "win",
    "lose",
    "draw",
    "quit",
    "d",
    "perft",
    "bench",
    "id",
    "author",
    "usiok",
    "readyok",
    "option",
    "type",
    "check",
    "spin",
    "combo",
    "button",
    "string",
    "filename",
    "default",
    "min",
    "max",
    "var",
    "<empty>",
    "bestmove",
    "resign",
    "checkmate",
    "nomate",
    "timeout",
    "notimplemented",
    "info",
    "seldepth",
    "time",
    "nps",
    "hashfull",
    "multipv",
    "score",
    "cp",
    "lowerbound",
    "upperbound",
    "currmove",
    "pv",
    "+",
    "-",
    "true",
    "false",
];

/// A token: printable ASCII or kana, no blanks.
fn token() -> impl Strategy<Value = String> {
    "[!-~あ-ん]{1,8}"
}

/// A token other than the given words.
fn token_except(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    token().prop_filter("reserved word", move |token| !words.contains(&token.as_str()))
}

/// A move in USI notation, or a null move.
fn usi_move() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[1-9][a-i][1-9][a-i]\\+?",
        2 => "[PLNSGBR]\\*[1-9][a-i]",
        1 => select(&["pass", "0000"][..]).prop_map(str::to_owned),
    ]
}

/// Free text: empty, or not beginning or ending with a blank.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[!-~あ-ん]([ \t!-~あ-ん]{0,30}[!-~あ-ん])?"]
}

/// Tokens joined by single spaces, the first one free, the others not equal to `stop`.
fn words(stop: &'static [&'static str]) -> impl Strategy<Value = String> {
    (token(), vec(token_except(stop), 0..3))
        .prop_map(|(first, rest)| std::iter::once(first).chain(rest).collect::<Vec<_>>().join(" "))
}

fn millis() -> impl Strategy<Value = Duration> {
    prop_oneof![0..100_000u64, any::<u64>()].prop_map(Duration::from_millis)
}

fn go_params() -> impl Strategy<Value = GoParams> {
    let mate = of(prop_oneof![
        Just(MateParam::Infinite),
        millis().prop_map(MateParam::Timeout)
    ]);
    (
        (
            of(millis()),
            of(millis()),
            of(millis()),
            of(millis()),
            of(millis()),
            of(millis()),
        ),
        (any::<bool>(), any::<bool>(), of(any::<u32>()), of(any::<u64>()), mate),
    )
        .prop_map(
            |((btime, wtime, byoyomi, binc, winc, movetime), (infinite, ponder, depth, nodes, mate))| GoParams {
                btime,
                wtime,
                byoyomi,
                binc,
                winc,
                infinite,
                ponder,
                depth,
                nodes,
                movetime,
                mate,
            },
        )
}

fn gui_message() -> impl Strategy<Value = GuiMessage> {
    let start = prop_oneof![
        Just(PositionStart::StartPos),
        vec(token_except(&["moves"]), 3..=4).prop_map(|fields| PositionStart::Sfen(fields.join(" "))),
    ];
    let result = of(select(&[GameResult::Win, GameResult::Lose, GameResult::Draw][..]));
    prop_oneof![
        select(vec![
            GuiMessage::Usi,
            GuiMessage::IsReady,
            GuiMessage::UsiNewGame,
            GuiMessage::Stop,
            GuiMessage::Quit,
            GuiMessage::Display,
            GuiMessage::Eval,
            GuiMessage::Book,
        ]),
        go_params().prop_map(|mut clock| {
            // `ponderhit` carries a clock only: no `go`-only words.
            clock.mate = None;
            GuiMessage::PonderHit(clock)
        }),
        (words(&["value"]), of(text())).prop_map(|(name, value)| GuiMessage::SetOption { name, value }),
        (start, vec(prop_oneof![usi_move(), token()], 0..8))
            .prop_map(|(start, moves)| GuiMessage::Position { start, moves }),
        go_params().prop_map(GuiMessage::Go),
        result.prop_map(GuiMessage::GameOver),
        any::<u32>().prop_map(GuiMessage::Perft),
        vec(token(), 0..4).prop_map(GuiMessage::Bench),
    ]
}

/// An option value: empty, or tokens that are not option keywords.
fn option_value() -> impl Strategy<Value = String> {
    const RESERVED: &[&str] = &["default", "min", "max", "var", "<empty>"];
    prop_oneof![
        Just(String::new()),
        vec(token_except(RESERVED), 1..3).prop_map(|words| words.join(" ")),
    ]
}

fn option_kind() -> impl Strategy<Value = OptionKind> {
    prop_oneof![
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (any::<i64>(), any::<i64>(), any::<i64>()).prop_map(|(default, min, max)| OptionKind::Spin {
            default,
            min,
            max
        }),
        (option_value(), vec(option_value(), 0..4)).prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        Just(OptionKind::Button),
        option_value().prop_map(|default| OptionKind::String { default }),
        option_value().prop_map(|default| OptionKind::Filename { default }),
    ]
}

fn score() -> impl Strategy<Value = Score> {
    let bound = of(select(&[ScoreBound::Lower, ScoreBound::Upper][..]));
    let plies = prop_oneof![
        any::<i32>().prop_map(MatePlies::Plies),
        Just(MatePlies::Plus),
        Just(MatePlies::Minus),
    ];
    prop_oneof![
        (any::<i32>(), bound.clone()).prop_map(|(value, bound)| Score::Cp { value, bound }),
        (plies, bound).prop_map(|(plies, bound)| Score::Mate { plies, bound }),
    ]
}

/// An `info` attribute other than `pv` and `string`.
fn plain_info_attr() -> impl Strategy<Value = InfoAttr> {
    prop_oneof![
        any::<u32>().prop_map(InfoAttr::Depth),
        any::<u32>().prop_map(InfoAttr::SelDepth),
        millis().prop_map(InfoAttr::Time),
        any::<u64>().prop_map(InfoAttr::Nodes),
        any::<u64>().prop_map(InfoAttr::Nps),
        (0..=1000u32).prop_map(InfoAttr::HashFull),
        (1..10u32).prop_map(InfoAttr::MultiPv),
        score().prop_map(InfoAttr::Score),
        usi_move().prop_map(InfoAttr::CurrMove),
    ]
}

fn engine_message() -> impl Strategy<Value = EngineMessage> {
    let mv = prop_oneof![
        6 => usi_move().prop_map(BestMove::Move),
        1 => Just(BestMove::Resign),
        1 => Just(BestMove::Win),
    ];
    let checkmate = prop_oneof![
        vec(usi_move(), 1..8).prop_map(CheckmateResult::Mate),
        Just(CheckmateResult::NoMate),
        Just(CheckmateResult::Timeout),
        Just(CheckmateResult::NotImplemented),
    ];
    let info =
        (vec(plain_info_attr(), 0..8), of(vec(usi_move(), 0..6)), of(text())).prop_map(|(mut attrs, pv, string)| {
            attrs.extend(pv.map(InfoAttr::Pv));
            attrs.extend(string.map(InfoAttr::String));
            EngineMessage::Info(attrs)
        });
    prop_oneof![
        text().prop_map(|name| EngineMessage::Id(IdInfo::Name(name))),
        text().prop_map(|author| EngineMessage::Id(IdInfo::Author(author))),
        Just(EngineMessage::UsiOk),
        Just(EngineMessage::ReadyOk),
        (words(&["type"]), option_kind()).prop_map(|(name, kind)| EngineMessage::Option(UsiOption { name, kind })),
        (mv, of(usi_move())).prop_map(|(mv, ponder)| EngineMessage::BestMove { mv, ponder }),
        checkmate.prop_map(EngineMessage::Checkmate),
        any::<i32>().prop_map(EngineMessage::EvalValue),
        info,
    ]
}

/// Lines made of keywords, numbers and junk, joined by assorted blanks.
fn token_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => select(KEYWORDS).prop_map(str::to_owned),
        2 => "-?[0-9]{1,25}",
        2 => "[!-~]{1,6}",
        1 => any::<String>(),
    ];
    let blank = select(&[" ", "\t", "  ", " \t ", "\r", "\n"][..]);
    (vec((blank, piece), 0..14), select(&["", "\r\n", "\n", " "][..])).prop_map(|(pieces, end)| {
        let mut line = String::new();
        for (i, (blank, piece)) in pieces.into_iter().enumerate() {
            if i > 0 {
                line.push_str(blank);
            }
            line.push_str(&piece);
        }
        line.push_str(end);
        line
    })
}

/// An error message is fit for an `info string` (see [`check_message`]).
fn check_error(err: &ParseError) -> Result<(), TestCaseError> {
    check_message(&err.to_string())
}

/// A message for an `info string` is one line of printable ASCII that does not start with
/// "error".
fn check_message(text: &str) -> Result<(), TestCaseError> {
    prop_assert!(text.bytes().all(|b| b == b' ' || b.is_ascii_graphic()), "{:?}", text);
    prop_assert!(!text.to_ascii_lowercase().starts_with("error"), "{:?}", text);
    Ok(())
}

/// Runs every parser on `line`; whatever the lenient parsers accept prints in a form that parses
/// back to the same message.
fn check_any_line(line: &str) -> Result<(), TestCaseError> {
    match parse_gui_line(line) {
        Ok(message) => {
            let printed = message.to_string();
            prop_assert_eq!(parse_gui_line_strict(&printed), Ok(message), "{:?}", line);
        }
        Err(err) => check_error(&err)?,
    }
    check_mending(line)?;
    match parse_gui_line_strict(line) {
        Ok(message) => prop_assert_eq!(message.to_string(), line.trim_end_matches(['\r', '\n'])),
        Err(err) => check_error(&err)?,
    }
    match parse_engine_line(line) {
        Ok(message) => {
            let printed = message.to_string();
            let again = parse_engine_line(&printed);
            prop_assert_eq!(again.map(|again| again.to_string()), Ok(printed), "{:?}", line);
        }
        Err(err) => check_error(&err)?,
    }
    Ok(())
}

/// The front-end's parser: a line the lenient parser reads comes out the same and without notes;
/// otherwise every note is one line of printable ASCII not starting with "error", and what it
/// reads prints in a form that parses back to the same message.
fn check_mending(line: &str) -> Result<(), TestCaseError> {
    let mended = parse_gui_line_mending(line);
    match (parse_gui_line(line), &mended) {
        (Ok(message), _) => prop_assert_eq!(mended, Ok((message, Vec::new())), "{:?}", line),
        (Err(_), Ok((message, notes))) => {
            prop_assert!(!notes.is_empty(), "{:?}", line);
            for note in notes {
                check_message(note)?;
            }
            prop_assert_eq!(
                parse_gui_line_strict(&message.to_string()),
                Ok(message.clone()),
                "{:?}",
                line
            );
        }
        (Err(_), Err(err)) => check_error(err)?,
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gui_messages_round_trip(message in gui_message()) {
        let line = message.to_string();
        prop_assert_eq!(parse_gui_line_strict(&line), Ok(message.clone()), "{:?}", line);
        prop_assert_eq!(parse_gui_line(&line), Ok(message.clone()), "{:?}", line);
        prop_assert_eq!(parse_gui_line(&format!("  {line}\r\n")), Ok(message), "{:?}", line);
    }

    #[test]
    fn engine_messages_round_trip(message in engine_message()) {
        let line = message.to_string();
        prop_assert_eq!(parse_engine_line(&line), Ok(message.clone()), "{:?}", line);
        prop_assert_eq!(parse_engine_line(&format!("{line}\r\n")), Ok(message), "{:?}", line);
    }

    #[test]
    fn arbitrary_strings_never_panic(line in any::<String>()) {
        check_any_line(&line)?;
    }

    #[test]
    fn token_soup_never_panics(line in token_soup()) {
        check_any_line(&line)?;
    }

    /// Whatever follows `go` or `ponderhit`, the front-end reads a message it can answer.
    #[test]
    fn go_is_always_read_when_mending(command in select(&["go", "ponderhit"][..]), rest in token_soup()) {
        let line = format!("{command} {rest}");
        let read = parse_gui_line_mending(&line);
        prop_assert!(
            matches!(read, Ok((GuiMessage::Go(_) | GuiMessage::PonderHit(_), _))),
            "{:?} read as {:?}", line, read
        );
        check_any_line(&line)?;
    }

    #[test]
    fn commands_with_junk_never_panic(command in select(KEYWORDS), rest in token_soup()) {
        check_any_line(&format!("{command} {rest}"))?;
    }
}
