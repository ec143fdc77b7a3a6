//! `selfplay --openings FILE --games N [--nodes N] [--threads N] [--seed N] --out FILE`:
//! games of the engine against itself, in process, to tune the evaluation on.
//!
//! Each game starts from a game of the openings file (the TSV game format of `tune-eval`) cut
//! at a random ply in `--min-ply..=--max-ply`, followed by `--random-plies` random moves that
//! lose no material by exchange (a start further than `--random-balance` from even by a search
//! of `--nodes` is drawn again), then both sides search a fixed number of nodes
//! a move (one thread, a table of their own, cleared per game), varied by up to `--jitter`
//! (a share, drawn per move) so that no two games are the same. A game ends in checkmate or
//! resignation (the mover sees itself mated), a declaration win, sennichite or perpetual check
//! (the official fourth occurrence), a draw at `--max-plies`, or by adjudication once both
//! sides' searches agree that one of them leads by `--adjudicate` centipawns or more for four
//! plies in a row.
//!
//! Output, one game a line, in the format `tune-eval` reads: `sfen <start> moves …`, the number
//! of plies played, the winner (`black`, `white` or `draw`), the final SFEN, and a fifth
//! column: the searched score before each move, in centipawns from the mover's view (mates
//! as ±30000), comma-separated; and a sixth: `opening:N`, the line of the openings file the
//! game was cut from (0-based, comments and blank lines not counted), by which the tuners keep
//! all games of one line on one side of their training / held-out split.

use crate::games::{legal_move, parse_game};
use crate::{progress, tsv};
use anyhow::{Context, Result, ensure};
use soppo_core::repetition::Repetition;
use soppo_core::rng::splitmix64;
use soppo_core::{Color, Move, Position};
use soppo_engine::search::{self, Decision, Limits, ScoreValue, SearchControl, SearchEvent, SearchSettings};
use soppo_engine::tt::TranspositionTable;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The options of `selfplay`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Games whose openings start the self-play games (the `tune-eval` game format).
    #[arg(long, value_name = "FILE")]
    pub openings: PathBuf,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: usize,
    /// Nodes searched a move.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once (one search thread each).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Seed of the choice of openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Where to write the games.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Earliest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub min_ply: usize,
    /// Latest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub max_ply: usize,
    /// Plies after which a game is a draw.
    #[arg(long, value_name = "N", default_value_t = 320)]
    pub max_plies: usize,
    /// A lead (centipawns) both sides' searches see for four plies in a row ends the game.
    #[arg(long, value_name = "CP", default_value_t = 3000)]
    pub adjudicate: i32,
    /// Each move searches `--nodes` times a factor drawn from 1 ± this share.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    pub jitter: f64,
    /// Plies played at random after the cut (moves that lose no material by exchange), so
    /// that the games reach positions no opening of the file does.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_plies: usize,
    /// After the random plies, a start whose searched score is further from even than this
    /// (centipawns) is drawn again (up to ten times, then the cut opening is used as it is).
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub random_balance: i32,
    /// Evaluate with the classic evaluation's linear sum alone, without its network: the games
    /// a new network is trained on from scratch, whose scores then owe nothing to the network
    /// it replaces.
    #[arg(long)]
    pub linear: bool,
}

/// Starts drawn after random plies before the cut opening is used as it is.
const RANDOM_TRIES: u64 = 10;

/// A mate score as the fifth column writes it.
const MATE_CP: i32 = 30_000;

/// How one game ended, for Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Winner {
    Black,
    White,
    Draw,
}

impl Winner {
    pub(crate) fn of(c: Color) -> Winner {
        match c {
            Color::Black => Winner::Black,
            Color::White => Winner::White,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Winner::Black => "black",
            Winner::White => "white",
            Winner::Draw => "draw",
        }
    }
}

/// The search settings of every self-play search: the engine's defaults, one thread, the
/// classic evaluation's network unless `--linear`.
fn settings(opts: &Args) -> SearchSettings {
    SearchSettings {
        threads: 1,
        classic_net: !opts.linear,
        ..SearchSettings::default()
    }
}

/// How a game's start is drawn (from `selfplay`'s options, or `gen-data`'s).
#[derive(Clone, Debug)]
pub(crate) struct StartRules {
    pub seed: u64,
    pub min_ply: usize,
    pub max_ply: usize,
    pub random_plies: usize,
    pub random_balance: i32,
    /// Nodes of the balance check's search.
    pub nodes: u64,
    /// The balance check's search settings.
    pub settings: SearchSettings,
}

impl From<&Args> for StartRules {
    fn from(opts: &Args) -> StartRules {
        StartRules {
            seed: opts.seed,
            min_ply: opts.min_ply,
            max_ply: opts.max_ply,
            random_plies: opts.random_plies,
            random_balance: opts.random_balance,
            nodes: opts.nodes,
            settings: settings(opts),
        }
    }
}

/// The start position of game `index` and the line of `openings` (the games of the openings
/// file) it was cut from. `tt` is the game's table, used by the balance check after random
/// plies (the game clears it).
pub(crate) fn start_position(
    openings: &[&str],
    index: usize,
    opts: &StartRules,
    tt: &TranspositionTable,
) -> Result<(Position, usize)> {
    // The random plies start from this draw too: each game's start depends on the seed and
    // its index alone, whatever thread plays it.
    let r = splitmix64(opts.seed ^ (index as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let source = (r % openings.len() as u64) as usize;
    let span = (opts.max_ply.saturating_sub(opts.min_ply) + 1) as u64;
    let cut = opts.min_ply + ((r >> 32) % span) as usize;
    let context = || format!("opening {source}");
    let (mut pos, moves) = parse_game(openings[source]).with_context(context)?;
    for text in moves.iter().take(cut) {
        pos.do_move(legal_move(&pos, text).with_context(context)?);
        if pos.legal_moves().is_empty() {
            break;
        }
    }
    if opts.random_plies > 0 {
        // Games from one cut opening differ only by the node jitter, and the file has 500
        // openings: a network trained on them learns those openings rather than shogi. Random
        // plies that lose no material by exchange reach new positions; a start that one side
        // already wins is drawn again.
        let settings = &opts.settings;
        for attempt in 0..RANDOM_TRIES {
            let mut p = pos.clone();
            let mut state = splitmix64(r ^ splitmix64(attempt + 1));
            for _ in 0..opts.random_plies {
                let safe: Vec<Move> = p
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| search::see_ge(&p, m, 0))
                    .collect();
                if safe.is_empty() {
                    break;
                }
                state = splitmix64(state);
                p.do_move(safe[(state % safe.len() as u64) as usize]);
            }
            if p.legal_moves().is_empty() {
                continue;
            }
            tt.clear();
            let (_, score) = think(&p, tt, settings, opts.nodes.max(1));
            if score.abs() <= opts.random_balance {
                pos = p;
                break;
            }
        }
    }
    // A fresh position: the game's history starts here.
    Ok((Position::from_sfen(&pos.to_sfen())?, source))
}

/// One search of `pos` within `limits`: the decision and the last score reported, from the
/// mover's view (`None` when the search reported none).
pub(crate) fn search_once(
    pos: &Position,
    tt: &TranspositionTable,
    settings: &SearchSettings,
    limits: &Limits,
) -> (Decision, Option<ScoreValue>) {
    let control = Arc::new(SearchControl::default());
    let mut score = None;
    let mut decision = Decision::Resign;
    search::run(0, pos.clone(), tt, &control, limits, settings, &mut |e| match e {
        SearchEvent::Info(_, info) => score = Some(info.score),
        SearchEvent::Done(_, d, _) => decision = d,
        SearchEvent::ThreadsShort { .. } | SearchEvent::Accumulators(..) => {}
    });
    (decision, score)
}

/// One search of `nodes` nodes: the decision and the score from the mover's view (mates as
/// ±[`MATE_CP`]).
fn think(pos: &Position, tt: &TranspositionTable, settings: &SearchSettings, nodes: u64) -> (Decision, i32) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (decision, score) = search_once(pos, tt, settings, &limits);
    let score = match score {
        Some(ScoreValue::Centipawns(v)) => v,
        Some(ScoreValue::MateIn(n)) if n >= 0 => MATE_CP,
        Some(ScoreValue::MateIn(_)) => -MATE_CP,
        None => 0,
    };
    (decision, score)
}

/// Plays game `index`; returns its output line.
fn play(openings: &[&str], index: usize, opts: &Args, tt: &TranspositionTable) -> Result<String> {
    let settings = settings(opts);
    let (mut pos, source) = start_position(openings, index, &StartRules::from(opts), tt)?;
    let start = pos.to_sfen();
    tt.clear();
    let mut moves: Vec<Move> = Vec::new();
    let mut scores: Vec<i32> = Vec::new();
    // Plies in a row on which the mover's search saw a lead (+) or deficit (−) beyond the
    // adjudication margin, expressed for Black.
    let mut streak: (Option<Color>, usize) = (None, 0);
    let winner = loop {
        if pos.legal_moves().is_empty() {
            break Winner::of(!pos.side_to_move());
        }
        match pos.game_repetition() {
            Repetition::Draw => break Winner::Draw,
            Repetition::Win => break Winner::of(pos.side_to_move()),
            Repetition::Loss => break Winner::of(!pos.side_to_move()),
            _ => {}
        }
        if moves.len() >= opts.max_plies {
            break Winner::Draw;
        }
        // A fixed node count makes the search deterministic: two games from the same opening
        // would be the same game, and a run would repeat much of the last one. A node count
        // drawn per move lets games from one opening part ways.
        let r = splitmix64(opts.seed ^ splitmix64(((index as u64) << 16) | moves.len() as u64));
        // A uniform draw in [0, 1) from the top 32 bits (exact in an f64).
        let u = f64::from((r >> 32) as u32) / f64::from(u32::MAX);
        let factor = 1.0 + opts.jitter * (2.0 * u - 1.0);
        #[allow(clippy::cast_precision_loss, reason = "node counts far below 2^52")]
        let nodes = ((opts.nodes as f64 * factor).round() as u64).max(1);
        let (decision, score) = think(&pos, tt, &settings, nodes);
        let best = match decision {
            Decision::Move { best, .. } => best,
            Decision::Resign => break Winner::of(!pos.side_to_move()),
            Decision::Win => break Winner::of(pos.side_to_move()),
        };
        ensure!(pos.is_legal_move(best), "the search chose an illegal move {best}");
        let leader = if score >= opts.adjudicate {
            Some(pos.side_to_move())
        } else if score <= -opts.adjudicate {
            Some(!pos.side_to_move())
        } else {
            None
        };
        streak = match (leader, streak) {
            (Some(l), (Some(s), n)) if l == s => (Some(l), n + 1),
            (Some(l), _) => (Some(l), 1),
            (None, _) => (None, 0),
        };
        scores.push(score);
        moves.push(best);
        pos.do_move(best);
        if let (Some(l), n) = streak
            && n >= 4
        {
            break Winner::of(l);
        }
    };
    let moves_text: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let scores_text: Vec<String> = scores.iter().map(i32::to_string).collect();
    Ok(format!(
        "sfen {start} moves {}\t{}\t{}\t{}\t{}\topening:{source}",
        moves_text.join(" "),
        moves.len(),
        winner.as_str(),
        pos.to_sfen(),
        scores_text.join(",")
    ))
}

/// The games of an openings file (the first column of each row).
pub(crate) fn opening_games(text: &str) -> Vec<&str> {
    tsv::rows(text).map(|row| row.first()).collect()
}

/// Plays the games and writes them; prints a summary line.
pub fn run(opts: &Args) -> Result<()> {
    let text = tsv::read(&opts.openings)?;
    let openings = opening_games(&text);
    ensure!(!openings.is_empty(), "no games in {}", opts.openings.display());
    let out = std::fs::File::create(&opts.out).with_context(|| format!("cannot write {}", opts.out.display()))?;
    let out = Mutex::new(std::io::BufWriter::new(out));
    let next = AtomicUsize::new(0);
    let bar = progress::counted(opts.games as u64, "self-play");
    let tally = Mutex::new([0usize; 3]);
    std::thread::scope(|scope| -> Result<()> {
        let mut workers = Vec::new();
        for _ in 0..opts.threads.max(1) {
            workers.push(scope.spawn(|| -> Result<()> {
                let tt = TranspositionTable::new(16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= opts.games {
                        return Ok(());
                    }
                    let line = play(&openings, index, opts, &tt).with_context(|| format!("game {index}"))?;
                    let winner = line.split('\t').nth(2).unwrap_or("draw");
                    locked(&tally)[["black", "white", "draw"]
                        .iter()
                        .position(|w| *w == winner)
                        .unwrap_or(2)] += 1;
                    writeln!(locked(&out), "{line}")?;
                    bar.inc(1);
                }
            }));
        }
        for w in workers {
            w.join().map_err(|_| anyhow::anyhow!("a self-play thread panicked"))??;
        }
        Ok(())
    })?;
    locked(&out).flush()?;
    bar.finish_and_clear();
    let t = *locked(&tally);
    println!(
        "selfplay: {} games (Black {} wins, White {} wins, {} draws) written to {}",
        opts.games,
        t[0],
        t[1],
        t[2],
        opts.out.display()
    );
    Ok(())
}

/// Locks `m`; a poisoned lock is taken as it is (a panicking worker ends the whole run).
fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(random_plies: usize) -> Args {
        Args {
            openings: PathBuf::new(),
            games: 1,
            nodes: 300,
            threads: 1,
            seed: 7,
            out: PathBuf::new(),
            min_ply: 2,
            max_ply: 2,
            max_plies: 10,
            adjudicate: 3000,
            jitter: 0.2,
            random_plies,
            random_balance: 300,
            linear: false,
        }
    }

    #[test]
    fn random_plies_leave_the_cut_opening_and_repeat_with_the_seed() {
        let openings = opening_games("startpos moves 7g7f 3c3d 2g2f 8c8d\t4\tnot-mate\t-\n");
        let tt = TranspositionTable::new(1);
        let (cut, source) = start_position(&openings, 0, &StartRules::from(&options(0)), &tt).unwrap();
        assert_eq!(source, 0);
        assert_eq!(
            cut.to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        let mut starts = std::collections::HashSet::new();
        for index in 0..6 {
            let (a, _) = start_position(&openings, index, &StartRules::from(&options(4)), &tt).unwrap();
            let (b, _) = start_position(&openings, index, &StartRules::from(&options(4)), &tt).unwrap();
            assert_eq!(a.to_sfen(), b.to_sfen(), "game {index}");
            // Four plies later (the side to move is the cut's again) or, when no start was
            // balanced, the cut itself.
            assert_eq!(a.side_to_move(), cut.side_to_move());
            assert!(!a.legal_moves().is_empty());
            starts.insert(a.to_sfen());
        }
        // Most games start somewhere else than the cut, and not all at the same place.
        let cut = cut.to_sfen();
        assert!(starts.iter().filter(|&s| *s != cut).count() >= 4, "{starts:?}");
    }

    #[test]
    fn the_handicap_openings_are_given_by_the_side_to_move_and_come_in_both_colours() {
        let text = include_str!("../../tools/openings/handicaps.tsv");
        let starts = opening_games(text);
        assert_eq!(starts.len(), 20);
        let mut given = Vec::new();
        for line in &starts {
            let (pos, moves) = parse_game(line).unwrap();
            assert!(moves.is_empty(), "{line}");
            assert!(!pos.legal_moves().is_empty(), "{line}");
            let us = pos.pieces(pos.side_to_move()).count();
            let them = pos.pieces(!pos.side_to_move()).count();
            // Every handicap leaves the giver with fewer pieces on the board.
            assert!(
                us < them,
                "{line}: the side to move does not give ({us} against {them})"
            );
            given.push(them - us);
        }
        for (white_gives, black_gives) in starts[..10].iter().zip(&starts[10..]) {
            let sfen = white_gives.trim_start_matches("sfen ");
            assert!(sfen.contains(" w "), "{white_gives}");
            let turned = Position::from_sfen(sfen).unwrap().turned();
            let black_gives = Position::from_sfen(black_gives.trim_start_matches("sfen ")).unwrap();
            assert_eq!(turned.to_sfen(), black_gives.to_sfen());
        }
        // Lance, right lance, bishop, rook, rook and lance, two, four, six, eight, ten pieces.
        assert_eq!(given[..10], [1, 1, 1, 1, 2, 2, 4, 6, 8, 10]);
    }
}
