//! Training positions from game files, for `tune-eval` and `train-classic-net`: which positions of a
//! game are kept, what each is labelled with, and the training / held-out split.
//!
//! **Positions**: every position of a game after the first `skip_plies` plies (opening positions
//! say little about the result), except positions where the side to move is in check. Games
//! with searched scores (self-play) give the position before each quiet move (no capture, no
//! promotion) whose score does not already say the game is decided; the others give the
//! position after every move, and unless `all_positions`, a position that is not quiet (a
//! capture sequence changes the material balance) is replaced by the end of that sequence,
//! found by a small capture-only search on material ([`soppo_engine::eval::material`]): the
//! static evaluation of a position in the middle of an exchange would not mean what it says.
//!
//! **Split**: a game read twice (same opening, same moves) counts once, and games, not
//! positions, are split into training and held-out sets by their opening
//! ([`crate::games::opening_key`]): positions of one game, and games from one opening, are
//! strongly correlated.

#![allow(
    clippy::cast_precision_loss,
    reason = "position counts and evaluations far below 2^52; the split only needs a rough fraction"
)]

use crate::games::{NotMate, black_result, opening_key, parse_game, parse_scores};
use crate::holdout;
use crate::logistic::{self, log_loss, sigmoid};
use crate::{progress, tsv};
use anyhow::{Context, Result, ensure};
use soppo_core::movegen::{MoveList, generate_captures};
use soppo_core::{Color, Move, Position};
use soppo_engine::eval::classic::features::{counts, evaluate_with};
use soppo_engine::eval::classic::net;
use soppo_engine::eval::classic::params::{DEFAULT_PARAMS, NUM_PARAMS};
use soppo_engine::eval::{EVAL_LIMIT, board_value, material};
use std::path::PathBuf;

/// What a sample's features are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Features {
    /// The linear evaluation's feature counts ([`soppo_engine::eval::classic::features::counts`]).
    Linear,
    /// The network's inputs ([`soppo_engine::eval::classic::net::inputs`]), with the embedded linear
    /// evaluation beside them.
    NetInputs,
}

/// Which games are read and how their positions are chosen, labelled and split.
#[derive(Debug, Clone)]
pub struct Load {
    pub games: Vec<PathBuf>,
    /// Leave out the positions of the first N plies of every game.
    pub skip_plies: usize,
    pub not_mate: NotMate,
    /// Share of the games held out.
    pub holdout: f64,
    /// Seed of the split.
    pub seed: u64,
    /// Keep positions that are not quiet as they are.
    pub all_positions: bool,
    /// The searched score of a position is replaced by the mean of the side to move's scores
    /// over its next `score_horizon` moves, decided and unscored ones aside; 1: the score itself.
    pub score_horizon: usize,
    pub features: Features,
}

/// One training position: its nonzero features (linear counts in 1/16 units, see
/// [`soppo_engine::eval::classic::features::Counts`], or network inputs) and the result for the side to
/// move.
pub struct Sample {
    pub features: Vec<(u16, i32)>,
    pub result: f64,
    /// The searched score of the position (centipawns, side to move's view), when the game
    /// file records one.
    pub score: Option<f64>,
    /// The embedded linear evaluation of the position (centipawns, unclamped), with
    /// [`Features::NetInputs`] (zero with the linear counts).
    pub linear: i32,
}

/// A searched score beyond this (centipawns) is a won or lost position, not a measure of
/// the evaluation: such positions are left out.
const DECIDED_SCORE: f64 = 4000.0;

impl Sample {
    /// What the prediction is fitted to: the result, or with a searched score a blend of the
    /// result and the score's own prediction.
    pub fn target(&self, k: f64, score_weight: f64) -> f64 {
        match self.score {
            Some(score) => score_weight * sigmoid(k * score) + (1.0 - score_weight) * self.result,
            None => self.result,
        }
    }
}

/// The K at which the searched scores of `samples` best predict their results (`None` when
/// none has a score): fitted to say what the search says, an evaluation is then on the
/// search's scale.
pub fn search_k(samples: &[Sample]) -> Option<f64> {
    let scored: Vec<&Sample> = samples.iter().filter(|s| s.score.is_some()).collect();
    (!scored.is_empty()).then(|| {
        logistic::fit_k(|k| {
            scored
                .iter()
                .map(|s| log_loss(s.score.unwrap_or(0.0), s.result, k))
                .sum::<f64>()
                / scored.len() as f64
        })
    })
}

/// Capture-only search on material ([`material`]), side to move's view: the value of the
/// position once the captures worth making are made, and those captures (`pv`). Depth-limited:
/// shogi capture chains can be long, and the tuner only needs to see the obvious exchanges.
fn capture_search(pos: &mut Position, mut alpha: i32, beta: i32, depth: u32, pv: &mut Vec<Move>) -> i32 {
    pv.clear();
    let stand_pat = material(pos);
    if stand_pat >= beta || depth == 0 {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut list = MoveList::new();
    generate_captures::<false>(pos, &mut list);
    let mut moves: Vec<_> = list
        .iter()
        .copied()
        .filter(|&m| !m.is_drop() && pos.piece_on(m.to()).is_some() && pos.is_legal(m))
        .collect();
    // Most valuable victim first: the cut-offs come sooner.
    moves.sort_by_key(|&m| -pos.piece_on(m.to()).map_or(0, |p| board_value(p.kind())));
    let mut child = Vec::new();
    for m in moves {
        pos.do_move(m);
        let score = -capture_search(pos, -beta, -alpha, depth - 1, &mut child);
        pos.undo_move(m);
        if score >= beta {
            return score;
        }
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(m);
            pv.extend_from_slice(&child);
        }
    }
    alpha
}

/// The position at the end of the captures worth making from `pos` (itself when it is
/// quiet), and whether it had to be resolved.
fn resolve_captures(pos: &mut Position) -> bool {
    let mut pv = Vec::new();
    capture_search(pos, -EVAL_LIMIT, EVAL_LIMIT, 4, &mut pv);
    for &m in &pv {
        pos.do_move(m);
    }
    !pv.is_empty()
}

/// Counts of what was read and kept.
#[derive(Default, Debug)]
pub struct LoadStats {
    pub games: usize,
    pub games_used: usize,
    /// Games left out because the same game (opening and moves) was read before.
    pub repeated: usize,
    pub positions: usize,
    pub in_check: usize,
    pub resolved: usize,
}

/// Reads every game and returns (training, held-out) samples.
pub fn load(opts: &Load, stats: &mut LoadStats) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let texts = opts
        .games
        .iter()
        .map(|path| tsv::read(path))
        .collect::<Result<Vec<_>>>()?;
    let rows: Vec<tsv::Row> = texts.iter().flat_map(|text| tsv::rows(text)).collect();
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let bar = progress::counted(rows.len() as u64, "reading games");
    // Self-play at a fixed number of nodes is deterministic: two games from the same opening
    // by the same weights are the same game, and files of several runs repeat openings. A
    // repeated game is read once, and games are split into training and held-out sets by
    // their opening, so that no held-out position was seen in training.
    let mut seen = std::collections::HashSet::new();
    for (index, row) in rows.iter().enumerate() {
        bar.inc(1);
        stats.games += 1;
        let cols = &row.cols;
        if !seen.insert(cols[0]) {
            stats.repeated += 1;
            continue;
        }
        let opening = opening_key(cols);
        let game = || format!("game {}", index + 1);
        ensure!(cols.len() >= 3, "{}: expected at least 3 tab-separated columns", game());
        let (mut pos, moves) = parse_game(cols[0]).with_context(game)?;
        let scores = parse_scores(row.get(4), moves.len())
            .with_context(game)?
            .map(|s| scores_over_horizon(&s, opts.score_horizon));
        // (position, searched score) of every position kept. With scores, the position before
        // each searched move is kept when that move is quiet (no capture, no promotion): the
        // static evaluation is only ever asked about quiet positions.
        let mut positions = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let m = crate::games::legal_move(&pos, text).with_context(|| format!("{}, ply {}", game(), ply + 1))?;
            if let Some(scores) = &scores {
                let quiet = m.is_drop() || (pos.piece_on(m.to()).is_none() && !m.is_promotion());
                if ply >= opts.skip_plies && quiet && scores[ply].abs() < DECIDED_SCORE {
                    positions.push((Position::from_sfen(&pos.to_sfen())?, Some(scores[ply])));
                }
            }
            pos.do_move(m);
            if scores.is_none() && ply + 1 >= opts.skip_plies {
                positions.push((Position::from_sfen(&pos.to_sfen())?, None));
            }
        }
        let Some(black) = black_result(cols[2], &pos, opts.not_mate).with_context(game)? else {
            continue;
        };
        stats.games_used += 1;
        let into = if holdout::held_out(opts.seed, holdout::key(opening), opts.holdout) {
            &mut held_out
        } else {
            &mut train
        };
        for (mut p, score) in positions {
            if p.in_check() {
                stats.in_check += 1;
                continue;
            }
            if score.is_none() && !opts.all_positions && resolve_captures(&mut p) {
                stats.resolved += 1;
                if p.in_check() {
                    stats.in_check += 1;
                    continue;
                }
            }
            stats.positions += 1;
            let (features, linear) = match opts.features {
                Features::NetInputs => (merged_net_inputs(&p), evaluate_with(&p, &DEFAULT_PARAMS)),
                Features::Linear => {
                    let c = counts(&p);
                    let features = (0..NUM_PARAMS)
                        .filter(|&i| c.0[i] != 0)
                        .map(|i| (i as u16, c.0[i]))
                        .collect();
                    (features, 0)
                }
            };
            let result = if p.side_to_move() == Color::Black {
                black
            } else {
                1.0 - black
            };
            into.push(Sample {
                features,
                result,
                score,
                linear,
            });
        }
    }
    bar.finish_and_clear();
    Ok((train, held_out))
}

/// The network's inputs of `pos`, one entry per input (the same input is used by several
/// pieces), zeros left out.
pub fn merged_net_inputs(pos: &Position) -> Vec<(u16, i32)> {
    let mut uses = net::inputs(pos);
    uses.sort_unstable_by_key(|&(i, _)| i);
    let mut merged: Vec<(u16, i32)> = Vec::with_capacity(uses.len());
    for (i, n) in uses {
        match merged.last_mut() {
            Some(last) if last.0 == i => last.1 += n,
            _ => merged.push((i, n)),
        }
    }
    merged.retain(|&(_, n)| n != 0);
    merged
}

/// A searched score beyond this is clamped when averaged over a horizon: a mate score says the
/// game is decided, not by how much.
const HORIZON_CLAMP: f64 = 3000.0;
/// A score at or beyond this is no score at all: the mark that game files relabelled by a
/// second opinion carry on the positions it did not score (100,000 before captures and
/// promotions). The fit skips such positions as decided, and horizon averages leave them out.
const UNSCORED: f64 = 100_000.0;

/// Each searched score replaced by the mean of the same side's scores over its next `horizon`
/// moves (plies `p`, `p + 2`, … within the game), each clamped to ±[`HORIZON_CLAMP`], the
/// [`UNSCORED`] ones left out. The search at a later move has seen further down the line the
/// game took, so the mean is a label that looks deeper than one 8,000-node search and is far
/// less noisy than the result (a λ-return as in TD-Leaf, with equal weights). Scores that
/// already say the game is decided are left as they are (the fit skips those positions). The
/// mean is rounded to whole centipawns, ties to even, as the score files hold them.
fn scores_over_horizon(scores: &[f64], horizon: usize) -> Vec<f64> {
    if horizon <= 1 {
        return scores.to_vec();
    }
    (0..scores.len())
        .map(|p| {
            if scores[p].abs() >= DECIDED_SCORE {
                return scores[p];
            }
            let (sum, count) = scores[p..scores.len().min(p + 2 * horizon)]
                .iter()
                .step_by(2)
                .filter(|v| v.abs() < UNSCORED)
                .fold((0.0, 0.0), |(sum, count), v| {
                    (sum + v.clamp(-HORIZON_CLAMP, HORIZON_CLAMP), count + 1.0)
                });
            // `count` is at least 1: the position's own score is below `DECIDED_SCORE`.
            (sum / count).round_ties_even()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use soppo_core::STARTPOS_SFEN;

    #[test]
    fn scores_over_a_horizon_average_the_same_side_later_on() {
        // Plies alternate sides: ply 0's horizon of 2 is plies 0 and 2, not ply 1.
        let scores = [100.0, -90.0, 300.0, -310.0, 5000.0, -32000.0, 3500.0];
        assert_eq!(scores_over_horizon(&scores, 1), scores.to_vec());
        // A later decided score counts as ±3000 and a decided score itself stays as it is;
        // 3500 is not decided (below 4000) but is clamped, and nothing follows it.
        assert_eq!(
            scores_over_horizon(&scores, 2),
            vec![200.0, -200.0, 1650.0, -1655.0, 5000.0, -32000.0, 3000.0]
        );
        // A labelling script's mark for an unscored position is left out of the mean.
        assert_eq!(
            scores_over_horizon(&[100.0, 0.0, 100_000.0, 0.0, 400.0], 3),
            vec![250.0, 0.0, 100_000.0, 0.0, 400.0]
        );
        // Ties round to even, as Python's `round` does.
        assert_eq!(scores_over_horizon(&[1.0, 0.0, 2.0], 2), vec![2.0, 0.0, 2.0]);
        assert_eq!(scores_over_horizon(&[3.0, 0.0, 2.0], 2), vec![2.0, 0.0, 2.0]);
    }

    /// Splits a file of games like [`split_test_games`]'s and returns the numbers of training
    /// and held-out positions for seeds 1..=8, with the load statistics of each.
    fn split_sizes(text: &str) -> Vec<(usize, usize, (usize, usize, usize))> {
        let path = std::env::temp_dir().join(format!(
            "soppo-tune-eval-{}-{}.tsv",
            std::process::id(),
            holdout::key(text)
        ));
        std::fs::write(&path, text).unwrap();
        let sizes = (1..=8)
            .map(|seed| {
                let opts = Load {
                    games: vec![path.clone()],
                    skip_plies: 0,
                    not_mate: NotMate::Skip,
                    holdout: 0.5,
                    seed,
                    all_positions: false,
                    score_horizon: 1,
                    features: Features::Linear,
                };
                let mut stats = LoadStats::default();
                let (train, held_out) = load(&opts, &mut stats).unwrap();
                (
                    train.len(),
                    held_out.len(),
                    (stats.games, stats.repeated, stats.games_used),
                )
            })
            .collect();
        std::fs::remove_file(&path).unwrap();
        sizes
    }

    /// Twenty openings (the start after 0, 2, …, 38 king moves to and fro; they differ in
    /// their move numbers), each played as two different games, and the first game twice;
    /// `source(opening)` is the sixth column of its games, if any.
    fn split_test_games(source: impl Fn(usize) -> Option<String>) -> String {
        use std::fmt::Write as _;
        let shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"];
        let mut text = String::new();
        for opening in 0..20 {
            let mut pos = Position::from_sfen(STARTPOS_SFEN).unwrap();
            for m in shuffle.iter().cycle().take(2 * opening) {
                pos.do_move(pos.parse_move(m).unwrap());
            }
            let start = pos.to_sfen();
            for (game, moves) in [["2g2f", "8c8d"], ["7g7f", "3c3d"], ["2g2f", "8c8d"]]
                .iter()
                .enumerate()
            {
                let result = if game == 1 { "white" } else { "black" };
                let sixth = source(opening).map(|s| format!("\t{s}")).unwrap_or_default();
                writeln!(
                    text,
                    "sfen {start} moves {} {}\t2\t{result}\t-\t10,-12{sixth}",
                    moves[0], moves[1]
                )
                .unwrap();
            }
        }
        text
    }

    #[test]
    fn games_of_one_source_line_stay_on_one_side_of_the_split() {
        // Self-play games record the openings-file line they were cut from: the twenty starts
        // come from ten lines, two each, and those stay together.
        for (seed, (train, held_out, stats)) in split_sizes(&split_test_games(|o| Some(format!("opening:{}", o / 2))))
            .into_iter()
            .enumerate()
        {
            assert_eq!(stats, (60, 20, 40));
            assert_eq!(train + held_out, 80);
            assert_eq!((train % 8, held_out % 8), (0, 0), "seed {}", seed + 1);
        }
    }

    #[test]
    fn repeated_games_are_read_once_and_openings_stay_on_one_side_of_the_split() {
        let sizes = split_sizes(&split_test_games(|_| None));
        // Two positions a game (both moves are quiet), and an opening's two games on the
        // same side of the split: four positions an opening on each side. (A split by game
        // would leave an odd number of games on a side for about every other seed.) Some seed
        // splits by twos of openings only by chance: the sizes are not all multiples of 8.
        for (seed, &(train, held_out, stats)) in sizes.iter().enumerate() {
            assert_eq!(stats, (60, 20, 40));
            assert_eq!(train + held_out, 80);
            assert_eq!((train % 4, held_out % 4), (0, 0), "seed {}", seed + 1);
        }
        assert!(sizes.iter().any(|&(train, _, _)| train % 8 != 0), "{sizes:?}");
    }

    #[test]
    fn capture_resolution_takes_a_hanging_piece() {
        let mut start = Position::from_sfen(STARTPOS_SFEN).unwrap();
        assert!(!resolve_captures(&mut start));
        // After 7g7f 3c3d the bishops face each other; the exchange is even, so left alone.
        let mut open =
            Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3").unwrap();
        assert!(!resolve_captures(&mut open), "{}", open.to_sfen());
        // Black's rook takes White's undefended rook on the same file.
        let mut hanging = Position::from_sfen("4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1").unwrap();
        assert!(resolve_captures(&mut hanging));
        assert_eq!(hanging.to_sfen(), "4k4/9/9/9/4R4/9/9/9/4K4 w R 2");
    }
}
