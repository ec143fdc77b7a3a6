//! The USI message types.
//!
//! Moves, SFEN strings and option values are carried as text: this module knows the shape of
//! the protocol, not the rules of shogi. Every type's `Display` (see `fmt.rs`) prints the exact
//! wire form without the line terminator.
//!
//! A message is *representable* when its text fields fit the wire syntax, so that printing it
//! and parsing the line gives the same message back. Tokens (option names, moves, SFEN fields,
//! `bench` arguments) must be non-empty and free of spaces and tabs; free text (a `setoption`
//! value, an `id` text, an `info string`) must not begin or end with whitespace; the other
//! restrictions are noted on the fields. Every message the parsers return is representable.

use std::time::Duration;

/// A line the GUI sends to the engine.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GuiMessage {
    /// `usi`: the engine answers with `id`, `option` lines and `usiok`.
    Usi,
    /// `isready`: the engine answers `readyok` once everything before it has been applied.
    IsReady,
    /// `usinewgame`: the next search belongs to a new game.
    UsiNewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name as sent. Names are single tokens in USI; when a GUI sends several
        /// tokens before `value` they are joined with single spaces.
        name: String,
        /// The rest of the line after `value`, inner whitespace kept as sent. `None` when the
        /// `value` keyword is absent (buttons), `Some("")` when it is present with nothing after
        /// it.
        value: Option<String>,
    },
    /// `position (startpos | sfen <fields>) [moves <m1> ... <mn>]`.
    Position {
        /// Where the game starts.
        start: PositionStart,
        /// The moves played from the start, as tokens. Their syntax is not checked: null moves
        /// (`pass`, `0000`) pass through.
        moves: Vec<String>,
    },
    /// `go ...`: start a search (or a mate search).
    Go(GoParams),
    /// `stop`: answer now.
    Stop,
    /// `ponderhit [btime .. wtime .. byoyomi ..]`: the predicted move was played; the ponder
    /// search becomes a normal one. ShogiHome's early ponder sends a bare `go ponder` and the
    /// clock with `ponderhit`: those times come here (all `None` for a plain `ponderhit`).
    PonderHit(GoParams),
    /// `gameover [win|lose|draw]`; the result is seen from the engine's side, and absent from
    /// cshogi.
    GameOver(Option<GameResult>),
    /// `quit`.
    Quit,
    /// `d`: print the current position (debug command).
    Display,
    /// `perft <depth>` (debug command; a bare `perft` is depth 1).
    Perft(u32),
    /// `bench [args...]` (debug command), with its arguments as raw tokens.
    Bench(Vec<String>),
    /// `eval` (or `e`, as YaneuraOu spells it): print the static value of the current
    /// position (debug command).
    Eval,
    /// `book`: print the opening book's candidates in the current position and those a move
    /// would be drawn from (debug command).
    Book,
}

/// The start of a `position` command.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PositionStart {
    /// `startpos`: the even-game initial position.
    StartPos,
    /// `sfen <board> <side> <hand> [<move number>]`: the fields joined by single spaces. The
    /// fields are tokens, none of them equal to `moves`.
    Sfen(String),
}

impl PositionStart {
    /// The SFEN given, `None` for `startpos`.
    pub fn sfen(&self) -> Option<&str> {
        match self {
            PositionStart::StartPos => None,
            PositionStart::Sfen(sfen) => Some(sfen),
        }
    }
}

/// The parameters of `go`. The default is a bare `go` (no limit at all).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct GoParams {
    /// `btime`: black's (sente's) remaining main time.
    pub btime: Option<Duration>,
    /// `wtime`: white's (gote's) remaining main time.
    pub wtime: Option<Duration>,
    /// `byoyomi`: the per-move byoyomi, the same for both sides.
    pub byoyomi: Option<Duration>,
    /// `binc`: black's Fischer increment.
    pub binc: Option<Duration>,
    /// `winc`: white's Fischer increment.
    pub winc: Option<Duration>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the predicted position until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `depth`: stop at this depth.
    pub depth: Option<u32>,
    /// `nodes`: stop at this node count.
    pub nodes: Option<u64>,
    /// `movetime`: a fixed time for this move.
    pub movetime: Option<Duration>,
    /// `mate`: solve a tsume problem and answer with `checkmate`, not `bestmove`.
    pub mate: Option<MateParam>,
}

/// The argument of `go mate`. Durations are whole milliseconds on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MateParam {
    /// `go mate <ms>`: the time limit.
    Timeout(Duration),
    /// `go mate infinite`, or a bare `go mate`.
    Infinite,
}

/// The result in `gameover`, from the engine's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `win`.
    Win,
    /// `lose`.
    Lose,
    /// `draw`.
    Draw,
}

/// A line the engine sends to the GUI.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EngineMessage {
    /// `id name <text>` or `id author <text>`.
    Id(IdInfo),
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `option name <name> type <kind> ...`.
    Option(UsiOption),
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move played, or `resign`, or `win` (entering-king declaration).
        mv: BestMove,
        /// The expected reply, offered for pondering. A token.
        ponder: Option<String>,
    },
    /// `checkmate ...`: the answer to `go mate`.
    Checkmate(CheckmateResult),
    /// `info <attr>...`. Printed in the given order except that `pv` attributes are moved to the
    /// end and `string` attributes after them; so a representable list has at most one `string`
    /// and keeps `pv` and `string` last.
    Info(Vec<InfoAttr>),
    /// `eval = <value>`: the answer to the debug command `eval`, the static value in the
    /// evaluation's internal units from the side to move's view (as YaneuraOu's `e` prints).
    EvalValue(i32),
}

/// The text of an `id` line (free text, may contain spaces).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IdInfo {
    /// `id name <text>`.
    Name(String),
    /// `id author <text>`.
    Author(String),
}

/// The move of a `bestmove` line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BestMove {
    /// A move in USI notation (a token other than `resign` and `win`).
    Move(String),
    /// `resign`.
    Resign,
    /// `win`: the entering-king declaration.
    Win,
}

/// The answer to `go mate`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CheckmateResult {
    /// `checkmate <m1> ... <mk>`: the mating line from the root. Must not be empty, and a single
    /// move must not be one of the words below.
    Mate(Vec<String>),
    /// `checkmate nomate`: no mate exists (proven).
    NoMate,
    /// `checkmate timeout`: the limit was reached, or the search was stopped.
    Timeout,
    /// `checkmate notimplemented`: the engine has no mate solver.
    NotImplemented,
}

/// One attribute of an `info` line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum InfoAttr {
    /// `depth <plies>`.
    Depth(u32),
    /// `seldepth <plies>`.
    SelDepth(u32),
    /// `time <ms>`: time since `go`, printed in whole milliseconds.
    Time(Duration),
    /// `nodes <count>`.
    Nodes(u64),
    /// `nps <nodes per second>`.
    Nps(u64),
    /// `hashfull <permille>`.
    HashFull(u32),
    /// `multipv <1-based index>`.
    MultiPv(u32),
    /// `score ...`.
    Score(Score),
    /// `currmove <move>`.
    CurrMove(String),
    /// `pv <m1> ... <mn>`: tokens, none of them an `info` keyword.
    Pv(Vec<String>),
    /// `string <text>`: free text to the end of the line.
    String(String),
}

/// The score of an `info` line, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// `score cp <centipawns> [lowerbound|upperbound]`.
    Cp {
        /// Centipawns, a pawn being about 100.
        value: i32,
        /// Set when the search failed high or low.
        bound: Option<ScoreBound>,
    },
    /// `score mate <plies|+|-> [lowerbound|upperbound]`.
    Mate {
        /// The distance to mate.
        plies: MatePlies,
        /// Set when the search failed high or low.
        bound: Option<ScoreBound>,
    },
}

/// The distance in `score mate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatePlies {
    /// A number of plies: positive when the side to move mates, negative when it is mated.
    Plies(i32),
    /// `mate +`: the side to move mates, distance unknown.
    Plus,
    /// `mate -`: the side to move is mated, distance unknown.
    Minus,
}

/// A bound flag after a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// `lowerbound`: the true score is at least this (fail high).
    Lower,
    /// `upperbound`: the true score is at most this (fail low).
    Upper,
}

/// An `option` line: an engine option declared in answer to `usi`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UsiOption {
    /// The option name: one token by the USI rules (several tokens, none equal to `type`, are
    /// parsed and joined with single spaces).
    pub name: String,
    /// The type, default and range.
    pub kind: OptionKind,
}

/// The type of an engine option. String values (defaults, combo values) are tokens or
/// space-separated tokens, none of them an `option` keyword (`default`, `min`, `max`, `var`);
/// an empty value is written `<empty>` on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// `type check default <true|false>`.
    Check {
        /// The default value.
        default: bool,
    },
    /// `type spin default <n> min <n> max <n>`.
    Spin {
        /// The default value.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo default <v> var <v1> var <v2> ...`.
    Combo {
        /// The default value, one of `vars`.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default <s>`.
    String {
        /// The default value.
        default: String,
    },
    /// `type filename default <s>`: a file path (the GUI shows a file picker).
    Filename {
        /// The default value.
        default: String,
    },
}
