//! Parsers for USI lines, built from nom combinators over whitespace-separated tokens.
//!
//! A line is trimmed (ASCII whitespace, `\r` included, and a leading byte-order mark), then
//! split into tokens on runs of spaces and tabs. Keywords are case-sensitive. Free text (a
//! `setoption` value, an `id` text, an `info string`) is the rest of the line, inner whitespace
//! kept. Numbers are plain decimal digits (a sign only where a negative value makes sense);
//! numbers too large for their field saturate. No input makes a parser panic.

use std::fmt::Write as _;
use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, one_of, space0};
use nom::combinator::{all_consuming, opt, recognize, rest, verify};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::fmt::EMPTY_VALUE;
use super::msg::{
    BestMove, CheckmateResult, EngineMessage, GameResult, GoParams, GuiMessage, IdInfo, InfoAttr, MateParam, MatePlies,
    OptionKind, PositionStart, Score, ScoreBound, UsiOption,
};

/// Why a line could not be parsed. The messages are plain sentences on one line, fit to be sent
/// back in an `info string`: the text taken from the input is escaped to printable ASCII and
/// shortened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The line is empty or blank.
    #[error("empty line")]
    Empty,
    /// The first token is not a known command (it is kept as sent).
    #[error("unknown command `{}`", show(.0))]
    UnknownCommand(String),
    /// The command is known but its arguments are malformed.
    #[error("{command}: {reason}")]
    Invalid {
        /// The command, e.g. `go`.
        command: &'static str,
        /// What is wrong, e.g. "`btime` needs a number of milliseconds, found `abc`".
        reason: String,
    },
    /// Strict parsing only: the line means something but is not written the way `Display`
    /// writes it (extra spaces, another token order, a defaulted argument...).
    #[error("`{}` is not in canonical form, expected `{}`", show(.line), show(.expected))]
    NotCanonical {
        /// The line as given.
        line: String,
        /// The canonical form of the same message.
        expected: String,
    },
}

/// The longest piece of input quoted in an error message, in characters.
const SHOW_MAX: usize = 40;

/// Quotes input text in an error message: printable ASCII only, at most [`SHOW_MAX`] characters.
fn show(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == SHOW_MAX {
            out.push_str("...");
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            let _ = write!(out, "{}", c.escape_default());
        }
    }
    out
}

/// A parse failure carrying the reason; `None` for a plain backtracking error from a combinator.
#[derive(Debug)]
struct Fail(Option<String>);

impl<I> nom::error::ParseError<I> for Fail {
    fn from_error_kind(_input: I, _kind: nom::error::ErrorKind) -> Self {
        Self(None)
    }

    fn append(_input: I, _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail>;

/// Stops parsing with a reason (a nom failure: no backtracking).
fn fail<T>(reason: String) -> Res<'static, T> {
    Err(nom::Err::Failure(Fail(Some(reason))))
}

/// Describes a token in a reason: "`tok`", or "nothing" when the line ended.
fn found(token: Option<&str>) -> String {
    match token {
        Some(token) => format!("`{}`", show(token)),
        None => "nothing".to_owned(),
    }
}

fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The next token, after any separators.
fn token(input: &str) -> Res<'_, &str> {
    preceded(space0, take_till1(is_separator)).parse(input)
}

/// The next token without consuming it.
fn peek_token(input: &str) -> Option<&str> {
    token(input).ok().map(|(_, token)| token)
}

/// The next token if it is `word`.
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fail> {
    verify(token, move |token: &str| token == word)
}

/// The next token unless it is one of `stops`.
fn token_except<'a>(stops: &'static [&'static str]) -> impl Parser<&'a str, Output = &'a str, Error = Fail> {
    verify(token, move |token: &str| !stops.contains(&token))
}

/// The rest of the line after the separators, as sent.
fn text(input: &str) -> Res<'_, &str> {
    preceded(space0, rest).parse(input)
}

/// Ends a command: the rest of the line is ignored, or rejected when `strict`.
fn finish<T>(input: &str, strict: bool, value: T) -> Res<'_, T> {
    match peek_token(input) {
        Some(extra) if strict => fail(format!("unexpected {}", found(Some(extra)))),
        _ => Ok(("", value)),
    }
}

/// A token of decimal digits, saturated at `u64::MAX`.
fn unsigned(token: &str) -> Option<u64> {
    let digits: Res<'_, &str> = all_consuming(digit1).parse(token);
    let (_, digits) = digits.ok()?;
    Some(digits.bytes().fold(0u64, |acc, digit| {
        acc.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
    }))
}

/// A token of decimal digits with an optional sign, saturated at the `i64` range.
fn signed(token: &str) -> Option<i64> {
    let number: Res<'_, &str> = all_consuming(recognize((opt(one_of("+-")), digit1))).parse(token);
    let (_, number) = number.ok()?;
    let (negative, digits) = match number.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, number.trim_start_matches('+')),
    };
    let magnitude = i128::from(unsigned(digits)?);
    let value = if negative { -magnitude } else { magnitude };
    Some(value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
}

fn saturate_u32(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn saturate_i32(value: i64) -> i32 {
    value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The value after `key`: a token that `convert` accepts, else a failure saying what `key`
/// needs (`what`) and what was found.
fn value_of<'a, T>(input: &'a str, key: &str, what: &str, convert: impl Fn(&str) -> Option<T>) -> Res<'a, T> {
    match token(input) {
        Ok((after, token)) => match convert(token) {
            Some(value) => Ok((after, value)),
            None => fail(format!("`{key}` needs {what}, found {}", found(Some(token)))),
        },
        Err(_) => fail(format!("`{key}` needs {what}, found nothing")),
    }
}

// ---------------------------------------------------------------------------------------------
// GUI → engine

/// Parses a line sent by a GUI, leniently, the way real GUIs write them: tokens of `go` in any
/// order and unknown ones ignored, extra tokens after argument-less commands ignored, `moves`
/// optional in `position`, a bare `go mate` meaning `infinite`, a bare `perft` meaning depth 1.
pub fn parse_gui_line(line: &str) -> Result<GuiMessage, ParseError> {
    gui_line(clean(line), false, None)
}

/// Reads a GUI line as [`parse_gui_line`] does, except that a `go` (or `ponderhit`) with a value
/// that cannot be read (`go nodes -1`, `go btime abc`, `go mate x`) is not refused: the value
/// counts as zero, the smallest search, so that the GUI still gets its `bestmove` or
/// `checkmate` at once instead of waiting for an answer that never comes. Returns the message
/// and one note per value read as zero, each a sentence fit for an `info string`.
pub fn parse_gui_line_mending(line: &str) -> Result<(GuiMessage, Vec<String>), ParseError> {
    let mut notes = Vec::new();
    let message = gui_line(clean(line), false, Some(&mut notes))?;
    Ok((message, notes))
}

/// Parses a line in exactly the form `Display` prints (one trailing `\n` or `\r\n` allowed):
/// `parse_gui_line_strict(&msg.to_string()) == Ok(msg)` for every representable message, and
/// any other line is rejected (unknown or repeated tokens, other spacing or order, defaulted
/// arguments).
pub fn parse_gui_line_strict(line: &str) -> Result<GuiMessage, ParseError> {
    let line = line
        .strip_suffix('\n')
        .map_or(line, |line| line.strip_suffix('\r').unwrap_or(line));
    let message = gui_line(clean(line), true, None)?;
    let expected = message.to_string();
    if expected == line {
        Ok(message)
    } else {
        Err(ParseError::NotCanonical {
            line: line.to_owned(),
            expected,
        })
    }
}

/// Trims a line: ASCII whitespace (`\r`, `\n` included) at both ends and a leading byte-order
/// mark.
fn clean(line: &str) -> &str {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    line.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Turns a command parser's result into the public one.
fn conclude<T>(command: &'static str, result: Res<'_, T>) -> Result<T, ParseError> {
    match result {
        Ok((_, value)) => Ok(value),
        Err(nom::Err::Failure(Fail(Some(reason))) | nom::Err::Error(Fail(Some(reason)))) => {
            Err(ParseError::Invalid { command, reason })
        }
        Err(_) => Err(ParseError::Invalid {
            command,
            reason: "malformed arguments".to_owned(),
        }),
    }
}

/// `notes`, when given, collects the `go` values read as zero instead of refusing the line.
fn gui_line(line: &str, strict: bool, notes: Option<&mut Vec<String>>) -> Result<GuiMessage, ParseError> {
    let Ok((args, command)) = token(line) else {
        return Err(ParseError::Empty);
    };
    let (name, result) = match command {
        "usi" => ("usi", finish(args, strict, GuiMessage::Usi)),
        "isready" => ("isready", finish(args, strict, GuiMessage::IsReady)),
        "usinewgame" => ("usinewgame", finish(args, strict, GuiMessage::UsiNewGame)),
        "setoption" => ("setoption", setoption(args)),
        "position" => ("position", position(args)),
        "go" => ("go", go(args, strict, notes)),
        "stop" => ("stop", finish(args, strict, GuiMessage::Stop)),
        "ponderhit" => ("ponderhit", ponderhit(args, strict, notes)),
        "gameover" => ("gameover", gameover(args, strict)),
        "quit" => ("quit", finish(args, strict, GuiMessage::Quit)),
        "d" => ("d", finish(args, strict, GuiMessage::Display)),
        "eval" => ("eval", finish(args, strict, GuiMessage::Eval)),
        "e" if !strict => ("e", finish(args, strict, GuiMessage::Eval)),
        "book" => ("book", finish(args, strict, GuiMessage::Book)),
        "perft" => ("perft", perft(args, strict)),
        "bench" => ("bench", bench(args)),
        _ => return Err(ParseError::UnknownCommand(command.to_owned())),
    };
    conclude(name, result)
}

/// `setoption name <name...> [value <text>]`.
fn setoption(input: &str) -> Res<'_, GuiMessage> {
    let Ok((input, _)) = keyword("name").parse(input) else {
        return fail(format!("expected `name`, found {}", found(peek_token(input))));
    };
    let Ok((input, first)) = token(input) else {
        return fail("`name` needs an option name, found nothing".to_owned());
    };
    // The first token is the name even if it reads `value`.
    let (input, more) = many0(token_except(&["value"])).parse(input)?;
    let name = std::iter::once(first).chain(more).collect::<Vec<_>>().join(" ");
    let (input, value) = opt(preceded(keyword("value"), text)).parse(input)?;
    Ok((
        input,
        GuiMessage::SetOption {
            name,
            value: value.map(str::to_owned),
        },
    ))
}

/// `position (startpos | sfen <3 or 4 fields>) [moves <m>...]`.
fn position(input: &str) -> Res<'_, GuiMessage> {
    let (input, start) = match token(input) {
        Ok((input, "startpos")) => (input, PositionStart::StartPos),
        Ok((input, "sfen")) => {
            let (input, fields) = many0(token_except(&["moves"])).parse(input)?;
            if !(3..=4).contains(&fields.len()) {
                return fail(format!(
                    "`sfen` needs 3 or 4 fields (board, side to move, hands, optional move number), found {}",
                    fields.len()
                ));
            }
            (input, PositionStart::Sfen(fields.join(" ")))
        }
        Ok((_, other)) => return fail(format!("expected `startpos` or `sfen`, found {}", found(Some(other)))),
        Err(_) => return fail("expected `startpos` or `sfen`, found nothing".to_owned()),
    };
    let (input, moves) = match token(input) {
        Ok((input, "moves")) => many0(token).parse(input)?,
        Ok((_, other)) => {
            return fail(format!(
                "expected `moves` or the end of the line, found {}",
                found(Some(other))
            ));
        }
        Err(_) => (input, Vec::new()),
    };
    let moves = moves.into_iter().map(str::to_owned).collect();
    Ok((input, GuiMessage::Position { start, moves }))
}

/// The keys of `go` that take a value (or, for `mate`, may take one).
const GO_KEYS: &[&str] = &[
    "btime", "wtime", "byoyomi", "binc", "winc", "movetime", "depth", "nodes", "mate", "ponder", "infinite",
];

/// `go <token>...`: any order; unknown tokens are ignored unless `strict`. A repeated key keeps
/// its last value. With `notes`, a value that cannot be read counts as zero (see
/// [`go_value`]) instead of refusing the line.
fn go<'a>(mut input: &'a str, strict: bool, mut notes: Option<&mut Vec<String>>) -> Res<'a, GuiMessage> {
    let mut params = GoParams::default();
    while let Ok((after, key)) = token(input) {
        input = after;
        let time_slot = match key {
            "btime" => Some(&mut params.btime),
            "wtime" => Some(&mut params.wtime),
            "byoyomi" => Some(&mut params.byoyomi),
            "binc" => Some(&mut params.binc),
            "winc" => Some(&mut params.winc),
            "movetime" => Some(&mut params.movetime),
            _ => None,
        };
        if let Some(slot) = time_slot {
            // A negative time (a clock that ran over) counts as zero, as GUIs mean it.
            let read = value_of(input, key, "a number of milliseconds", |token| {
                unsigned(token)
                    .or_else(|| signed(token).filter(|v| !strict && *v < 0).map(|_| 0))
                    .map(Duration::from_millis)
            });
            let (after, time) = go_value(input, read, Duration::ZERO, &mut notes)?;
            *slot = Some(time);
            input = after;
            continue;
        }
        match key {
            "ponder" => params.ponder = true,
            "infinite" => params.infinite = true,
            "depth" => {
                let read = value_of(input, key, "a number of plies", |token| {
                    unsigned(token).map(saturate_u32)
                });
                let (after, depth) = go_value(input, read, 0, &mut notes)?;
                params.depth = Some(depth);
                input = after;
            }
            "nodes" => {
                let read = value_of(input, key, "a number of nodes", unsigned);
                let (after, nodes) = go_value(input, read, 0, &mut notes)?;
                params.nodes = Some(nodes);
                input = after;
            }
            "mate" => {
                let read = mate_param(input);
                let (after, mate) = go_value(input, read, MateParam::Timeout(Duration::ZERO), &mut notes)?;
                params.mate = Some(mate);
                input = after;
            }
            _ if strict => return fail(format!("unexpected {}", found(Some(key)))),
            _ => {}
        }
    }
    Ok((input, GuiMessage::Go(params)))
}

/// A `go` value as `read` found it at `input`. When it could not be read and `notes` is given,
/// `zero` instead, with a note saying why: a GUI that sent `go nodes -1` still waits for its
/// `bestmove`, and the smallest search gives it at once. The unreadable token is skipped
/// unless it is a key of its own (`go byoyomi ponder` keeps the `ponder`).
fn go_value<'a, T>(input: &'a str, read: Res<'a, T>, zero: T, notes: &mut Option<&mut Vec<String>>) -> Res<'a, T> {
    match (read, notes.as_deref_mut()) {
        (Err(nom::Err::Failure(Fail(Some(reason)))), Some(notes)) => {
            notes.push(format!("go: {reason}; read as 0"));
            let after = match token(input) {
                Ok((after, token)) if !GO_KEYS.contains(&token) => after,
                _ => input,
            };
            Ok((after, zero))
        }
        (read, _) => read,
    }
}

/// The argument of `go mate`: milliseconds, `infinite`, or nothing (another key or the end of
/// the line) for infinite.
fn mate_param(input: &str) -> Res<'_, MateParam> {
    match token(input) {
        Ok((after, "infinite")) => Ok((after, MateParam::Infinite)),
        Ok((_, key)) if GO_KEYS.contains(&key) => Ok((input, MateParam::Infinite)),
        Ok((after, token)) => match unsigned(token) {
            Some(ms) => Ok((after, MateParam::Timeout(Duration::from_millis(ms)))),
            None => fail(format!(
                "`mate` needs a number of milliseconds or `infinite`, found {}",
                found(Some(token))
            )),
        },
        Err(_) => Ok((input, MateParam::Infinite)),
    }
}

/// `ponderhit [<go parameters>]`: the optional clock of an early ponder.
fn ponderhit<'a>(input: &'a str, strict: bool, notes: Option<&mut Vec<String>>) -> Res<'a, GuiMessage> {
    let (rest, msg) = go(input, strict, notes)?;
    match msg {
        GuiMessage::Go(clock) => Ok((rest, GuiMessage::PonderHit(clock))),
        other => Ok((rest, other)),
    }
}

/// `gameover [win|lose|draw]`.
fn gameover(input: &str, strict: bool) -> Res<'_, GuiMessage> {
    let (input, result) = match token(input) {
        Ok((after, "win")) => (after, Some(GameResult::Win)),
        Ok((after, "lose")) => (after, Some(GameResult::Lose)),
        Ok((after, "draw")) => (after, Some(GameResult::Draw)),
        // An unknown result word still ends the game (MyShogi proposes `unknown`).
        Ok((after, _)) if !strict => (after, None),
        Ok((_, other)) => {
            return fail(format!(
                "expected `win`, `lose` or `draw`, found {}",
                found(Some(other))
            ));
        }
        Err(_) => (input, None),
    };
    finish(input, strict, GuiMessage::GameOver(result))
}

/// `perft [depth]`.
fn perft(input: &str, strict: bool) -> Res<'_, GuiMessage> {
    let (input, depth) = match peek_token(input) {
        Some(_) => value_of(input, "perft", "a depth", |token| unsigned(token).map(saturate_u32))?,
        None => (input, 1),
    };
    finish(input, strict, GuiMessage::Perft(depth))
}

/// `bench [args...]`.
fn bench(input: &str) -> Res<'_, GuiMessage> {
    let (input, args) = many0(token).parse(input)?;
    Ok((input, GuiMessage::Bench(args.into_iter().map(str::to_owned).collect())))
}

// ---------------------------------------------------------------------------------------------
// Engine → GUI

/// Parses a line printed by an engine (for test clients). Unknown tokens are errors; free text
/// (`id`, `info string`) is kept as sent. `parse_engine_line(&msg.to_string()) == Ok(msg)` for
/// every representable message.
pub fn parse_engine_line(line: &str) -> Result<EngineMessage, ParseError> {
    let line = clean(line);
    let Ok((args, command)) = token(line) else {
        return Err(ParseError::Empty);
    };
    let (name, result) = match command {
        "id" => ("id", id(args)),
        "usiok" => ("usiok", finish(args, true, EngineMessage::UsiOk)),
        "readyok" => ("readyok", finish(args, true, EngineMessage::ReadyOk)),
        "option" => ("option", option(args)),
        "bestmove" => ("bestmove", bestmove(args)),
        "checkmate" => ("checkmate", checkmate(args)),
        "info" => ("info", info(args)),
        "eval" => ("eval", eval_value(args)),
        _ => return Err(ParseError::UnknownCommand(command.to_owned())),
    };
    conclude(name, result)
}

/// `eval = <value>`.
fn eval_value(input: &str) -> Res<'_, EngineMessage> {
    let Ok((input, "=")) = token(input) else {
        return fail(format!("expected `=`, found {}", found(peek_token(input))));
    };
    match token(input) {
        Ok((rest, v)) => match v.parse() {
            Ok(v) => Ok((rest, EngineMessage::EvalValue(v))),
            Err(_) => fail(format!("`{v}` is not a value")),
        },
        Err(_) => fail("expected a value".to_owned()),
    }
}

/// `id (name|author) <text>`.
fn id(input: &str) -> Res<'_, EngineMessage> {
    let (input, make): (_, fn(String) -> IdInfo) = match token(input) {
        Ok((after, "name")) => (after, IdInfo::Name),
        Ok((after, "author")) => (after, IdInfo::Author),
        other => {
            let other = other.ok().map(|(_, token)| token);
            return fail(format!("expected `name` or `author`, found {}", found(other)));
        }
    };
    let (input, value) = text(input)?;
    Ok((input, EngineMessage::Id(make(value.to_owned()))))
}

/// The keys of an `option` line after the type.
const OPTION_KEYS: &[&str] = &["default", "min", "max", "var"];

/// `option name <name...> type <kind> [default <v>] [min <n>] [max <n>] [var <v>]...`.
fn option(input: &str) -> Res<'_, EngineMessage> {
    let Ok((input, _)) = keyword("name").parse(input) else {
        return fail(format!("expected `name`, found {}", found(peek_token(input))));
    };
    let Ok((input, first)) = token(input) else {
        return fail("`name` needs an option name, found nothing".to_owned());
    };
    let (input, more) = many0(token_except(&["type"])).parse(input)?;
    let name = std::iter::once(first).chain(more).collect::<Vec<_>>().join(" ");
    let Ok((input, _)) = keyword("type").parse(input) else {
        return fail(format!(
            "expected `type` after the option name, found {}",
            found(peek_token(input))
        ));
    };
    let Ok((mut input, kind)) = token(input) else {
        return fail("`type` needs an option type, found nothing".to_owned());
    };
    if !["check", "spin", "combo", "button", "string", "filename"].contains(&kind) {
        return fail(format!(
            "expected `check`, `spin`, `combo`, `button`, `string` or `filename`, found {}",
            found(Some(kind))
        ));
    }

    let mut default = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    while let Ok((after, key)) = token(input) {
        if !OPTION_KEYS.contains(&key) {
            return fail(format!("unexpected {}", found(Some(key))));
        }
        let allowed = match kind {
            "check" | "string" | "filename" => key == "default",
            "spin" => key != "var",
            "combo" => key == "default" || key == "var",
            _ => false,
        };
        if !allowed {
            return fail(format!("`{key}` does not apply to type `{kind}`"));
        }
        let (after, words) = many0(token_except(OPTION_KEYS)).parse(after)?;
        if words.is_empty() {
            return fail(format!("`{key}` needs a value, found {}", found(peek_token(after))));
        }
        let value = words.join(" ");
        let value = if value == EMPTY_VALUE { String::new() } else { value };
        let slot = match key {
            "default" => &mut default,
            "min" => &mut min,
            "max" => &mut max,
            _ => {
                vars.push(value);
                input = after;
                continue;
            }
        };
        if slot.is_some() {
            return fail(format!("`{key}` appears twice"));
        }
        *slot = Some(value);
        input = after;
    }

    let spin = |key: &str, value: Option<String>| match value {
        Some(value) => match signed(&value) {
            Some(number) => Ok(number),
            None => Err(format!("`{key}` needs an integer, found {}", found(Some(&value)))),
        },
        None => Err(format!("a spin option needs `{key}`")),
    };
    let kind = match kind {
        "check" => match default.as_deref() {
            Some("true") => OptionKind::Check { default: true },
            Some("false") => OptionKind::Check { default: false },
            other => return fail(format!("`default` needs `true` or `false`, found {}", found(other))),
        },
        "spin" => match (spin("default", default), spin("min", min), spin("max", max)) {
            (Ok(default), Ok(min), Ok(max)) => OptionKind::Spin { default, min, max },
            (Err(reason), _, _) | (_, Err(reason), _) | (_, _, Err(reason)) => return fail(reason),
        },
        "combo" => OptionKind::Combo {
            default: default.unwrap_or_default(),
            vars,
        },
        "string" => OptionKind::String {
            default: default.unwrap_or_default(),
        },
        "filename" => OptionKind::Filename {
            default: default.unwrap_or_default(),
        },
        _ => OptionKind::Button,
    };
    Ok((input, EngineMessage::Option(UsiOption { name, kind })))
}

/// `bestmove (<move>|resign|win) [ponder <move>]`.
fn bestmove(input: &str) -> Res<'_, EngineMessage> {
    let (input, mv) = match token(input) {
        Ok((after, "resign")) => (after, BestMove::Resign),
        Ok((after, "win")) => (after, BestMove::Win),
        Ok((_, "ponder")) | Err(_) => return fail(format!("expected a move, found {}", found(peek_token(input)))),
        Ok((after, mv)) => (after, BestMove::Move(mv.to_owned())),
    };
    let (input, ponder) = match token(input) {
        Ok((after, "ponder")) => match token(after) {
            Ok((after, mv)) => (after, Some(mv.to_owned())),
            Err(_) => return fail("`ponder` needs a move, found nothing".to_owned()),
        },
        Ok((_, other)) => {
            return fail(format!(
                "expected `ponder` or the end of the line, found {}",
                found(Some(other))
            ));
        }
        Err(_) => (input, None),
    };
    finish(input, true, EngineMessage::BestMove { mv, ponder })
}

/// `checkmate (<move>...|nomate|timeout|notimplemented)`.
fn checkmate(input: &str) -> Res<'_, EngineMessage> {
    let (input, words) = many0(token).parse(input)?;
    let result = match words.as_slice() {
        [] => {
            return fail("expected a move list or `nomate`, `timeout` or `notimplemented`, found nothing".to_owned());
        }
        ["nomate"] => CheckmateResult::NoMate,
        ["timeout"] => CheckmateResult::Timeout,
        ["notimplemented"] => CheckmateResult::NotImplemented,
        moves => CheckmateResult::Mate(moves.iter().map(|&mv| mv.to_owned()).collect()),
    };
    Ok((input, EngineMessage::Checkmate(result)))
}

/// The attribute keys of `info`; a `pv` ends at the next one.
const INFO_KEYS: &[&str] = &[
    "depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv", "score", "currmove", "pv", "string",
];

/// `info <attr>...`.
fn info(input: &str) -> Res<'_, EngineMessage> {
    let (input, attrs) = many0(info_attr).parse(input)?;
    Ok((input, EngineMessage::Info(attrs)))
}

/// One `info` attribute; a plain error at the end of the line.
fn info_attr(input: &str) -> Res<'_, InfoAttr> {
    let (input, key) = token(input)?;
    let count = |input, what| value_of(input, key, what, unsigned);
    let small = |input, what| value_of(input, key, what, |token| unsigned(token).map(saturate_u32));
    match key {
        "depth" => small(input, "a number of plies").map(|(i, v)| (i, InfoAttr::Depth(v))),
        "seldepth" => small(input, "a number of plies").map(|(i, v)| (i, InfoAttr::SelDepth(v))),
        "hashfull" => small(input, "a permille").map(|(i, v)| (i, InfoAttr::HashFull(v))),
        "multipv" => small(input, "a line number").map(|(i, v)| (i, InfoAttr::MultiPv(v))),
        "nodes" => count(input, "a number of nodes").map(|(i, v)| (i, InfoAttr::Nodes(v))),
        "nps" => count(input, "a number of nodes per second").map(|(i, v)| (i, InfoAttr::Nps(v))),
        "time" => count(input, "a number of milliseconds").map(|(i, v)| (i, InfoAttr::Time(Duration::from_millis(v)))),
        "score" => score(input).map(|(i, v)| (i, InfoAttr::Score(v))),
        "currmove" => match token(input) {
            Ok((after, mv)) => Ok((after, InfoAttr::CurrMove(mv.to_owned()))),
            Err(_) => fail("`currmove` needs a move, found nothing".to_owned()),
        },
        "pv" => {
            let (input, moves) = many0(token_except(INFO_KEYS)).parse(input)?;
            Ok((input, InfoAttr::Pv(moves.into_iter().map(str::to_owned).collect())))
        }
        "string" => text(input).map(|(i, v)| (i, InfoAttr::String(v.to_owned()))),
        other => fail(format!("unknown attribute {}", found(Some(other)))),
    }
}

/// `score (cp <n> | mate <n|+|->) [lowerbound|upperbound]`, after `score`.
fn score(input: &str) -> Res<'_, Score> {
    let (input, score) = match token(input) {
        Ok((after, "cp")) => {
            let (after, value) = value_of(after, "cp", "an integer", |token| signed(token).map(saturate_i32))?;
            (after, Score::Cp { value, bound: None })
        }
        Ok((after, "mate")) => {
            let (after, plies) = value_of(after, "mate", "a number of plies, `+` or `-`", |token| match token {
                "+" => Some(MatePlies::Plus),
                "-" => Some(MatePlies::Minus),
                _ => signed(token).map(|plies| MatePlies::Plies(saturate_i32(plies))),
            })?;
            (after, Score::Mate { plies, bound: None })
        }
        other => {
            let other = other.ok().map(|(_, token)| token);
            return fail(format!("`score` needs `cp` or `mate`, found {}", found(other)));
        }
    };
    let bound = alt((keyword("lowerbound"), keyword("upperbound"))).parse(input);
    let (input, bound) = match bound {
        Ok((after, "lowerbound")) => (after, Some(ScoreBound::Lower)),
        Ok((after, _)) => (after, Some(ScoreBound::Upper)),
        Err(_) => (input, None),
    };
    let score = match score {
        Score::Cp { value, .. } => Score::Cp { value, bound },
        Score::Mate { plies, .. } => Score::Mate { plies, bound },
    };
    Ok((input, score))
}
