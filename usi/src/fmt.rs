//! `Display` for the USI messages: the exact wire form, without the line terminator.
//!
//! Whole lines: [`GuiMessage`], [`GoParams`] (`go ...`), [`EngineMessage`], [`IdInfo`]
//! (`id ...`), [`UsiOption`] (`option ...`), [`CheckmateResult`] (`checkmate ...`).
//! Fragments: [`PositionStart`] (`startpos`, `sfen ...`), [`MateParam`] (`5000`, `infinite`),
//! [`GameResult`] (`win`), [`BestMove`] (`7g7f`, `resign`), [`InfoAttr`] (`depth 5`),
//! [`Score`] (`score cp 34`), [`MatePlies`] (`7`, `+`), [`ScoreBound`] (`lowerbound`),
//! [`OptionKind`] (`type spin default 1 min 1 max 8`).

use std::fmt::{self, Display, Formatter};
use std::time::Duration;

use super::msg::{
    BestMove, CheckmateResult, EngineMessage, GameResult, GoParams, GuiMessage, IdInfo, InfoAttr, MateParam, MatePlies,
    OptionKind, PositionStart, Score, ScoreBound, UsiOption,
};

/// How an empty option value is written.
pub(crate) const EMPTY_VALUE: &str = "<empty>";

/// Writes ` <word>` for each word.
fn write_words(f: &mut Formatter<'_>, words: &[String]) -> fmt::Result {
    for word in words {
        write!(f, " {word}")?;
    }
    Ok(())
}

/// Writes ` <key> <text>`, or ` <key>` when the text is empty (no trailing space).
fn write_text(f: &mut Formatter<'_>, key: &str, text: &str) -> fmt::Result {
    if text.is_empty() {
        write!(f, " {key}")
    } else {
        write!(f, " {key} {text}")
    }
}

/// An option value, `<empty>` when empty.
fn option_value(value: &str) -> &str {
    if value.is_empty() { EMPTY_VALUE } else { value }
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

impl Display for GuiMessage {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usi => f.write_str("usi"),
            Self::IsReady => f.write_str("isready"),
            Self::UsiNewGame => f.write_str("usinewgame"),
            Self::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write_text(f, "value", value),
                    None => Ok(()),
                }
            }
            Self::Position { start, moves } => {
                write!(f, "position {start}")?;
                if moves.is_empty() {
                    Ok(())
                } else {
                    f.write_str(" moves")?;
                    write_words(f, moves)
                }
            }
            Self::Go(params) => params.fmt(f),
            Self::Stop => f.write_str("stop"),
            Self::PonderHit(clock) => {
                // The clock prints as `go` does, without the word `go`.
                let go = clock.to_string();
                write!(f, "ponderhit{}", go.strip_prefix("go").unwrap_or(&go))
            }
            Self::GameOver(None) => f.write_str("gameover"),
            Self::GameOver(Some(result)) => write!(f, "gameover {result}"),
            Self::Quit => f.write_str("quit"),
            Self::Display => f.write_str("d"),
            Self::Eval => f.write_str("eval"),
            Self::Book => f.write_str("book"),
            Self::Perft(depth) => write!(f, "perft {depth}"),
            Self::Bench(args) => {
                f.write_str("bench")?;
                write_words(f, args)
            }
        }
    }
}

impl Display for PositionStart {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::StartPos => f.write_str("startpos"),
            Self::Sfen(sfen) => write!(f, "sfen {sfen}"),
        }
    }
}

/// `go [ponder] [btime] [wtime] [byoyomi] [binc] [winc] [movetime] [depth] [nodes] [mate]
/// [infinite]`.
impl Display for GoParams {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let times = [
            ("btime", self.btime),
            ("wtime", self.wtime),
            ("byoyomi", self.byoyomi),
            ("binc", self.binc),
            ("winc", self.winc),
            ("movetime", self.movetime),
        ];
        for (key, time) in times {
            if let Some(time) = time {
                write!(f, " {key} {}", millis(time))?;
            }
        }
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(mate) = self.mate {
            write!(f, " mate {mate}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl Display for MateParam {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Timeout(time) => write!(f, "{}", millis(*time)),
            Self::Infinite => f.write_str("infinite"),
        }
    }
}

impl Display for GameResult {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Win => "win",
            Self::Lose => "lose",
            Self::Draw => "draw",
        })
    }
}

impl Display for EngineMessage {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Id(id) => id.fmt(f),
            Self::UsiOk => f.write_str("usiok"),
            Self::ReadyOk => f.write_str("readyok"),
            Self::Option(option) => option.fmt(f),
            Self::BestMove { mv, ponder } => {
                write!(f, "bestmove {mv}")?;
                match ponder {
                    Some(ponder) => write!(f, " ponder {ponder}"),
                    None => Ok(()),
                }
            }
            Self::Checkmate(result) => result.fmt(f),
            Self::EvalValue(v) => write!(f, "eval = {v}"),
            Self::Info(attrs) => {
                f.write_str("info")?;
                let rank = |attr: &InfoAttr| match attr {
                    InfoAttr::Pv(_) => 1,
                    InfoAttr::String(_) => 2,
                    _ => 0,
                };
                for pass in 0..3 {
                    for attr in attrs.iter().filter(|attr| rank(attr) == pass) {
                        write!(f, " {attr}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl Display for IdInfo {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("id")?;
        match self {
            Self::Name(name) => write_text(f, "name", name),
            Self::Author(author) => write_text(f, "author", author),
        }
    }
}

impl Display for BestMove {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Move(mv) => f.write_str(mv),
            Self::Resign => f.write_str("resign"),
            Self::Win => f.write_str("win"),
        }
    }
}

impl Display for CheckmateResult {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("checkmate")?;
        match self {
            Self::Mate(moves) => write_words(f, moves),
            Self::NoMate => f.write_str(" nomate"),
            Self::Timeout => f.write_str(" timeout"),
            Self::NotImplemented => f.write_str(" notimplemented"),
        }
    }
}

impl Display for InfoAttr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Depth(depth) => write!(f, "depth {depth}"),
            Self::SelDepth(depth) => write!(f, "seldepth {depth}"),
            Self::Time(time) => write!(f, "time {}", millis(*time)),
            Self::Nodes(nodes) => write!(f, "nodes {nodes}"),
            Self::Nps(nps) => write!(f, "nps {nps}"),
            Self::HashFull(permille) => write!(f, "hashfull {permille}"),
            Self::MultiPv(index) => write!(f, "multipv {index}"),
            Self::Score(score) => score.fmt(f),
            Self::CurrMove(mv) => write!(f, "currmove {mv}"),
            Self::Pv(moves) => {
                f.write_str("pv")?;
                write_words(f, moves)
            }
            Self::String(text) => {
                if text.is_empty() {
                    f.write_str("string")
                } else {
                    write!(f, "string {text}")
                }
            }
        }
    }
}

impl Display for Score {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let bound = match self {
            Self::Cp { value, bound } => {
                write!(f, "score cp {value}")?;
                bound
            }
            Self::Mate { plies, bound } => {
                write!(f, "score mate {plies}")?;
                bound
            }
        };
        match bound {
            Some(bound) => write!(f, " {bound}"),
            None => Ok(()),
        }
    }
}

impl Display for MatePlies {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Plies(plies) => write!(f, "{plies}"),
            Self::Plus => f.write_str("+"),
            Self::Minus => f.write_str("-"),
        }
    }
}

impl Display for ScoreBound {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Lower => "lowerbound",
            Self::Upper => "upperbound",
        })
    }
}

impl Display for UsiOption {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} {}", self.name, self.kind)
    }
}

impl Display for OptionKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Check { default } => write!(f, "type check default {default}"),
            Self::Spin { default, min, max } => write!(f, "type spin default {default} min {min} max {max}"),
            Self::Combo { default, vars } => {
                write!(f, "type combo default {}", option_value(default))?;
                for var in vars {
                    write!(f, " var {}", option_value(var))?;
                }
                Ok(())
            }
            Self::Button => f.write_str("type button"),
            Self::String { default } => write!(f, "type string default {}", option_value(default)),
            Self::Filename { default } => write!(f, "type filename default {}", option_value(default)),
        }
    }
}
