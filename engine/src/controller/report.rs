//! The one place that turns what the engine's workers report into USI messages: search
//! progress and answers, mate-search progress and answers, and the `info string`s the
//! controller says. The search and the solver never print; the controller prints only what
//! comes from here.

use crate::mate::{MateOutcome, MateProgress};
use crate::search::{Decision, ScoreValue, SearchInfo};
use soppo_core::Position;
use soppo_usi::{BestMove, CheckmateResult, EngineMessage, InfoAttr, MatePlies, Score};
use std::fmt::Write as _;
use std::time::Duration;

/// The longest `info string` text sent, in characters: room for a long path and a net's
/// architecture string, and still bounded when a message quotes what the GUI sent.
const MAX_INFO_STRING_CHARS: usize = 1000;

/// `info string <text>`: one line of printable ASCII (cshogi decodes some lines as Shift-JIS,
/// others in the locale's encoding). Anything else, line breaks included, is escaped, as the
/// parser escapes what it quotes. Not endless either: a message may quote what the GUI sent,
/// and a 70 KB option name need not come back whole.
pub fn info_string(text: &str) -> EngineMessage {
    let mut out = String::new();
    let mut chars = text.trim().chars();
    for c in chars.by_ref().take(MAX_INFO_STRING_CHARS) {
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    let rest = chars.count();
    if rest > 0 {
        let _ = write!(out, "... ({rest} more characters)");
    }
    EngineMessage::Info(vec![InfoAttr::String(out)])
}

/// The `info` line of a mate search's progress report.
pub fn mate_info_message(p: &MateProgress) -> EngineMessage {
    let ms = p.elapsed.as_millis() as u64;
    let nps = (p.nodes * 1000).checked_div(ms).unwrap_or(0);
    // Depth 0 marks df-pn progress, which has no length to show.
    let depth = (p.depth > 0).then_some(InfoAttr::Depth(p.depth));
    let attrs = depth.into_iter().chain([
        InfoAttr::Nodes(p.nodes),
        InfoAttr::Nps(nps),
        InfoAttr::Time(p.elapsed),
        InfoAttr::HashFull(p.hashfull_permille),
    ]);
    // A proven (not yet shortest) line is shown as the current best line; before any proof,
    // the line df-pn is working on.
    let pv = p
        .proven_line
        .as_ref()
        .or(p.searching_line.as_ref())
        .map(|line| InfoAttr::Pv(line.iter().map(ToString::to_string).collect()));
    EngineMessage::Info(attrs.chain(pv).collect())
}

/// The `info` line of a search's progress report.
pub fn info_message(info: &SearchInfo) -> EngineMessage {
    let score = match info.score {
        // The internal units (a pawn about 90) as USI's centipawns, as YaneuraOu reports.
        ScoreValue::Centipawns(v) => Score::Cp {
            value: crate::eval::to_centipawns(v),
            bound: None,
        },
        ScoreValue::MateIn(n) => Score::Mate {
            plies: MatePlies::Plies(n),
            bound: None,
        },
    };
    let mut attrs = vec![
        InfoAttr::Depth(info.depth),
        InfoAttr::SelDepth(info.seldepth),
        InfoAttr::MultiPv(info.multipv),
        InfoAttr::Score(score),
        InfoAttr::Nodes(info.nodes),
        InfoAttr::Nps(info.nps),
        InfoAttr::Time(Duration::from_millis(info.time_ms)),
        InfoAttr::HashFull(info.hashfull),
    ];
    if !info.pv.is_empty() {
        attrs.push(InfoAttr::Pv(info.pv.iter().map(ToString::to_string).collect()));
    }
    EngineMessage::Info(attrs)
}

/// The `bestmove` of a search's decision.
pub fn bestmove(decision: &Decision) -> EngineMessage {
    match decision {
        Decision::Move { best, ponder } => EngineMessage::BestMove {
            mv: BestMove::Move(best.to_string()),
            ponder: ponder.map(|p| p.to_string()),
        },
        Decision::Resign => EngineMessage::BestMove {
            mv: BestMove::Resign,
            ponder: None,
        },
        Decision::Win => EngineMessage::BestMove {
            mv: BestMove::Win,
            ponder: None,
        },
    }
}

/// A mate search's answer: an `info string` saying what kind of line it is where it is not the
/// exact tsume answer, then the `checkmate`.
pub fn mate_answer(outcome: MateOutcome) -> Vec<EngineMessage> {
    let mut messages = Vec::new();
    match &outcome {
        MateOutcome::Proven(line) => messages.push(info_string(&format!(
            "mate proven; this {}-ply line was not shown shortest in the time given",
            line.len()
        ))),
        MateOutcome::Shortest(line) => messages.push(info_string(&format!(
            "shortest mate, {} plies, counting every interposition not shown useless",
            line.len()
        ))),
        _ => {}
    }
    let result = match outcome {
        MateOutcome::Mate(line) | MateOutcome::Shortest(line) | MateOutcome::Proven(line) => {
            CheckmateResult::Mate(line.iter().map(ToString::to_string).collect())
        }
        MateOutcome::NoMate => CheckmateResult::NoMate,
        MateOutcome::Timeout => CheckmateResult::Timeout,
    };
    messages.push(EngineMessage::Checkmate(result));
    messages
}

/// The answer owed when no worker could answer (its thread could not start): `checkmate
/// timeout` for `go mate`, else the first legal move (or `resign` without one).
pub fn answer_without_worker(is_mate: bool, pos: &Position) -> EngineMessage {
    if is_mate {
        return EngineMessage::Checkmate(CheckmateResult::Timeout);
    }
    let fallback = pos.legal_moves().first().copied();
    let mv = fallback.map_or(BestMove::Resign, |m| BestMove::Move(m.to_string()));
    EngineMessage::BestMove { mv, ponder: None }
}
