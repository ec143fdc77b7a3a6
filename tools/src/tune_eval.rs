//! `tune-eval [GAMES…] [--skip-plies N] [--not-mate skip|side-to-move-loses] [--holdout F]
//! [--epochs N] [--lr X] [--l2 X] [--l2-kp X] [--seed N] [--all-positions]`: logistic ("Texel") tuning of
//! the evaluation's weights ([`soppo_engine::eval::params`]) on game results.
//!
//! **Input**: TSV files of games, one a line: `startpos moves …` (or `sfen … moves …`), the
//! number of plies, how the game ended, the final SFEN (the format of
//! `games_lishogi500.tsv` in the shared data; self-play games written the same way work too).
//! The winner is read from the third column:
//! - `checkmate`: the side to move in the final position is mated and lost;
//! - `black` / `sente` / `white` / `gote` / `draw`: said outright;
//! - `not-mate` (resignation, time, …; the lishogi file does not say which): skipped, or with
//!   `--not-mate side-to-move-loses` counted as a loss of the side to move at the end (players
//!   usually resign on their own turn; a guess, so off by default).
//!
//! **Positions**: every position of a game after the first `--skip-plies` plies (opening
//! positions say little about the result), except positions where the side to move is in
//! check. Unless `--all-positions`, a position that is not quiet (a capture sequence changes
//! the material balance) is replaced by the end of that sequence, found by a small
//! capture-only search on material ([`soppo_engine::eval::material`]): the static evaluation
//! of a position in the middle of an exchange would not mean what it says.
//!
//! **Fit**: the predicted score of a position is `1 / (1 + exp(-K·eval))`, the loss the mean
//! log loss against the result (1 win, ½ draw, 0 loss for the side to move). K is fitted first
//! (golden-section search) on the embedded material weights alone, which ties the scale to
//! centipawns; then the weights are optimised by Adam on the full training set, with an L2
//! pull towards the embedded weights. The material weights stay fixed unless
//! `--tune-material`: they anchor the scale the search's margins are written in. A game read
//! twice (same opening, same moves) counts once, and games, not positions, are split into
//! training and held-out sets by their opening (positions of one game, and games from one
//! opening, are strongly correlated). The losses before and after are those of the integer weights as the engine
//! uses them; the new `DEFAULT_PARAMS` constant is printed ready to paste into
//! `engine/src/eval/params.rs`.

#![allow(
    clippy::cast_precision_loss,
    reason = "position counts and evaluations far below 2^52; the split only needs a rough fraction"
)]

use crate::fit_mate3::parse_game;
use anyhow::{Context, Result, bail, ensure};
use indicatif::{ProgressBar, ProgressStyle};
use soppo_core::movegen::{MoveList, generate_captures};
use soppo_core::{Color, Move, Position};
use soppo_engine::eval::features::{counts, evaluate_with};
use soppo_engine::eval::net;
use soppo_engine::eval::params::{
    DEFAULT_PARAMS, FINE, HAND, KING_DANGER, KP_OWN, NUM_PARAMS, Params, is_fine, is_used, param_name,
};
use soppo_engine::eval::{EVAL_LIMIT, board_value, material};
use std::path::PathBuf;

/// What a `not-mate` game counts as.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotMate {
    /// Leave the game out.
    Skip,
    /// The side to move at the end lost (it resigned or ran out of time on its turn).
    SideToMoveLoses,
}

/// Options of one run.
#[derive(Debug, Clone)]
pub struct Options {
    pub games: Vec<PathBuf>,
    pub skip_plies: usize,
    pub not_mate: NotMate,
    pub holdout: f64,
    pub epochs: usize,
    pub lr: f64,
    pub l2: f64,
    /// The pull for the piece–king tables (`kp_own`, `kp_enemy`).
    pub l2_kp: f64,
    pub seed: u64,
    pub all_positions: bool,
    pub tune_material: bool,
    /// Weight of the searched score in the target (games with a score column only).
    pub score_weight: f64,
    /// The searched score of a position is replaced by the mean of the side to move's scores
    /// over its next `score_horizon` moves (see [`scores_over_horizon`]); 1: the score itself.
    pub score_horizon: usize,
    /// Where to write the new weights as `engine/src/eval/weights.rs`.
    pub write: Option<PathBuf>,
    /// Parameter groups to tune (by [`param_name`]); empty: all of them.
    pub only: Vec<String>,
    /// Keep the network's inputs ([`soppo_engine::eval::net::inputs`]) as each sample's
    /// features instead of the linear counts (`train-net`).
    pub net_inputs: bool,
}

impl Options {
    /// Whether weight `i` is fitted (the others keep their embedded values).
    fn tunes(&self, i: usize) -> bool {
        is_used(i)
            && (self.tune_material || i >= HAND + 7)
            && (self.only.is_empty() || self.only.iter().any(|g| g == param_name(i).0))
    }
}

/// One training position: its nonzero feature counts (1/16 units, see
/// [`soppo_engine::eval::features::Counts`]) and the result for the side to move.
pub(crate) struct Sample {
    pub(crate) features: Vec<(u16, i32)>,
    pub(crate) result: f64,
    /// The searched score of the position (centipawns, side to move's view), when the game
    /// file records one.
    pub(crate) score: Option<f64>,
    /// The embedded linear evaluation of the position (centipawns, unclamped), for `train-net`
    /// (zero when the features are the linear counts).
    pub(crate) linear: i32,
}

/// A searched score beyond this (centipawns) is a won or lost position, not a measure of
/// the evaluation: such positions are left out.
const DECIDED_SCORE: f64 = 4000.0;

impl Sample {
    /// What the prediction is fitted to: the result, or with a searched score a blend of the
    /// result and the score's own prediction.
    pub(crate) fn target(&self, k: f64, score_weight: f64) -> f64 {
        match self.score {
            Some(score) => score_weight * sigmoid(k * score) + (1.0 - score_weight) * self.result,
            None => self.result,
        }
    }
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The result of a game for Black (1 win, ½ draw, 0 loss), if the row says.
fn black_result(ending: &str, final_pos: &Position, not_mate: NotMate) -> Result<Option<f64>> {
    let stm_loses = || {
        if final_pos.side_to_move() == Color::Black {
            0.0
        } else {
            1.0
        }
    };
    Ok(match ending.trim().to_ascii_lowercase().as_str() {
        "checkmate" => Some(stm_loses()),
        "black" | "sente" | "black-win" | "sente-win" => Some(1.0),
        "white" | "gote" | "white-win" | "gote-win" => Some(0.0),
        "draw" => Some(0.5),
        "not-mate" => match not_mate {
            NotMate::Skip => None,
            NotMate::SideToMoveLoses => Some(stm_loses()),
        },
        other => bail!("unknown game ending `{other}`"),
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

pub(crate) fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{what} {{bar:40}} {{pos}}/{{len}} {{elapsed_precise}} eta {{eta}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Counts of what was read and kept.
#[derive(Default, Debug)]
pub(crate) struct LoadStats {
    pub(crate) games: usize,
    pub(crate) games_used: usize,
    /// Games left out because the same game (opening and moves) was read before.
    pub(crate) repeated: usize,
    pub(crate) positions: usize,
    pub(crate) in_check: usize,
    pub(crate) resolved: usize,
}

/// FNV-1a hash of a string: the key of an opening in the training / held-out split.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// splitmix64: a tiny seeded generator, enough for splitting games and choosing openings.
pub(crate) fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Reads every game and returns (training, held-out) samples.
pub(crate) fn load(opts: &Options, stats: &mut LoadStats) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let mut lines = Vec::new();
    for path in &opts.games {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        lines.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .map(str::to_owned),
        );
    }
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let bar = progress(lines.len() as u64, "reading games");
    // Self-play at a fixed number of nodes is deterministic: two games from the same opening
    // by the same weights are the same game, and files of several runs repeat openings. A
    // repeated game is read once, and games are split into training and held-out sets by
    // their opening, so that no held-out position was seen in training.
    let mut seen = std::collections::HashSet::new();
    for (index, line) in lines.iter().enumerate() {
        bar.inc(1);
        stats.games += 1;
        let cols: Vec<&str> = line.split('\t').collect();
        if !seen.insert(cols[0]) {
            stats.repeated += 1;
            continue;
        }
        // The opening of a self-play game is the openings-file line it was cut from, when the
        // game records it (sixth column `opening:N`): cuts of one line at different plies share
        // its first moves. Older files give only the start position (a cut game); games from
        // the initial position (human games) are each their own.
        let opening = if let Some(&source) = cols.get(5).filter(|c| c.starts_with("opening:")) {
            source
        } else if cols[0].starts_with("sfen ") {
            cols[0].split(" moves").next().unwrap_or(cols[0])
        } else {
            cols[0]
        };
        ensure!(
            cols.len() >= 3,
            "game {}: expected at least 3 tab-separated columns",
            index + 1
        );
        let (mut pos, moves) = parse_game(cols[0]).with_context(|| format!("game {}", index + 1))?;
        let scores = parse_scores(cols.get(4).copied(), moves.len())
            .with_context(|| format!("game {}", index + 1))?
            .map(|s| scores_over_horizon(&s, opts.score_horizon));
        // (position, searched score) of every position kept. With scores, the position before
        // each searched move is kept when that move is quiet (no capture, no promotion): the
        // static evaluation is only ever asked about quiet positions.
        let mut positions = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| anyhow::anyhow!("game {}, ply {}: `{text}`: {e:?}", index + 1, ply + 1))?;
            ensure!(
                pos.is_legal_move(m),
                "game {}, ply {}: illegal move `{text}`",
                index + 1,
                ply + 1
            );
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
        let Some(black) = black_result(cols[2], &pos, opts.not_mate).with_context(|| format!("game {}", index + 1))?
        else {
            continue;
        };
        stats.games_used += 1;
        let into = if (splitmix(opts.seed ^ fnv1a(opening)) as f64 / u64::MAX as f64) < opts.holdout {
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
            let (features, linear) = if opts.net_inputs {
                (merged_net_inputs(&p), evaluate_with(&p, &DEFAULT_PARAMS))
            } else {
                let c = counts(&p);
                let features = (0..NUM_PARAMS)
                    .filter(|&i| c.0[i] != 0)
                    .map(|i| (i as u16, c.0[i]))
                    .collect();
                (features, 0)
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
pub(crate) fn merged_net_inputs(pos: &Position) -> Vec<(u16, i32)> {
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
/// A score at or beyond this is no score at all: a labelling script's mark for a position it did
/// not score (`tools/scripts/label_with_gps.py` writes 100,000 before captures and promotions).
/// The fit skips such positions as decided, and horizon averages leave them out.
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

/// The fifth column of a game row: the searched score before each move, comma-separated;
/// `None` when the row has none.
fn parse_scores(column: Option<&str>, moves: usize) -> Result<Option<Vec<f64>>> {
    let Some(column) = column.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let scores = column
        .split(',')
        .map(|v| v.trim().parse::<f64>().with_context(|| format!("bad score `{v}`")))
        .collect::<Result<Vec<f64>>>()?;
    ensure!(
        scores.len() == moves,
        "{} scores for {moves} moves in the score column",
        scores.len()
    );
    Ok(Some(scores))
}

/// The engine's integer evaluation of a sample under integer weights.
fn int_eval(s: &Sample, params: &Params) -> f64 {
    let total: i64 = s
        .features
        .iter()
        .map(|&(i, n)| i64::from(params.0[i as usize]) * i64::from(n))
        .sum();
    (total / i64::from(FINE)).clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as f64
}

/// Log loss (cross-entropy) of predicting `1 / (1 + exp(-k·eval))` for `target`.
pub(crate) fn log_loss(eval: f64, target: f64, k: f64) -> f64 {
    let p = sigmoid(k * eval).clamp(1e-12, 1.0 - 1e-12);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// Mean log loss of integer weights against the targets.
fn mean_loss(samples: &[Sample], params: &Params, k: f64, score_weight: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples
        .iter()
        .map(|s| log_loss(int_eval(s, params), s.target(k, score_weight), k))
        .sum::<f64>()
        / samples.len() as f64
}

/// The K that minimises the loss of `params` (golden-section search on a log scale; the loss
/// is unimodal in K).
fn fit_k(samples: &[Sample], params: &Params) -> f64 {
    fit_k_by(|k| mean_loss(samples, params, k, 0.0))
}

/// The K that minimises `loss(K)` (golden-section search on a log scale).
pub(crate) fn fit_k_by(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = ((1e-5f64).ln(), (0.1f64).ln());
    let loss = |x: f64| loss(x.exp());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi).exp()
}

/// Adam on the mean log loss plus `l2 · Σ (w − w₀)²` (`l2_kp` for the piece–king tables),
/// full batch; returns the rounded weights.
fn optimise(train: &[Sample], start: &Params, k: f64, opts: &Options) -> Params {
    let w0: Vec<f64> = start.0.iter().map(|&v| f64::from(v)).collect();
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; NUM_PARAMS], vec![0.0; NUM_PARAMS]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let n = train.len().max(1) as f64;
    let bar = progress(opts.epochs as u64, "tuning");
    for epoch in 1..=opts.epochs {
        bar.inc(1);
        let mut grad = vec![0.0; NUM_PARAMS];
        for s in train {
            let eval: f64 = s
                .features
                .iter()
                .map(|&(i, c)| w[i as usize] * f64::from(c))
                .sum::<f64>()
                / f64::from(FINE);
            let p = sigmoid(k * eval);
            // d(log loss)/d(eval) = k (p − target); d(eval)/d(w_i) = count_i / FINE.
            let g = k * (p - s.target(k, opts.score_weight)) / n / f64::from(FINE);
            for &(i, c) in &s.features {
                grad[i as usize] += g * f64::from(c);
            }
        }
        let t = epoch as i32;
        for i in (0..NUM_PARAMS).filter(|&i| opts.tunes(i)) {
            let l2 = if (KP_OWN..KING_DANGER).contains(&i) {
                opts.l2_kp
            } else {
                opts.l2
            };
            let g = grad[i] + 2.0 * l2 * (w[i] - w0[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(t));
            let v_hat = v[i] / (1.0 - beta2.powi(t));
            // The step is in centipawns for every weight: a weight in 1/16 centipawn takes
            // sixteen times the step of one in centipawns.
            let lr = if is_fine(i) { opts.lr } else { opts.lr / f64::from(FINE) };
            w[i] -= lr * m_hat / (v_hat.sqrt() + eps);
        }
    }
    bar.finish_and_clear();
    let mut out = start.clone();
    for (o, x) in out.0.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    out
}

/// The text of `engine/src/eval/weights.rs` holding `params`.
fn weights_file(params: &Params) -> String {
    format!(
        "//! The embedded evaluation weights (see `params.rs` for the layout); `soppo-tools tune-eval\n\
         //! --write engine/src/eval/weights.rs` rewrites this file.\n\n\
         use super::params::Params;\n\n\
         // Fitted by `soppo-tools tune-eval` (docs/EVAL.md says on what data and how).\n{}",
        params.to_rust_const()
    )
}

/// Runs the tuner and prints its report; the last line is the summary.
pub fn run(opts: &Options) -> Result<()> {
    let mut stats = LoadStats::default();
    let (train, held_out) = load(opts, &mut stats)?;
    ensure!(
        !train.is_empty(),
        "no training positions (games with a known result: {})",
        stats.games_used
    );
    println!(
        "games: {} read, {} repeats left out, {} with a known result; positions: {} kept ({} training, \
         {} held out), {} in check left out, {} replaced by the end of their captures",
        stats.games,
        stats.repeated,
        stats.games_used,
        stats.positions,
        train.len(),
        held_out.len(),
        stats.in_check,
        stats.resolved
    );
    let start = DEFAULT_PARAMS;
    // K is fitted on material alone, so that it ties the scale of the evaluation to
    // centipawns; fitted on the full starting weights it would also absorb their errors.
    let mut material_only = start.clone();
    for (i, w) in material_only.0.iter_mut().enumerate() {
        if i >= HAND + 7 {
            *w = 0;
        }
    }
    let scored: Vec<&Sample> = train.iter().filter(|s| s.score.is_some()).collect();
    let k = if scored.is_empty() {
        fit_k(&train, &material_only)
    } else {
        // With searched scores, K is the scale at which the scores best predict the results:
        // the evaluation is then fitted to say what the search says, on the same scale.
        fit_k_by(|k| {
            scored
                .iter()
                .map(|s| log_loss(s.score.unwrap_or(0.0), s.result, k))
                .sum::<f64>()
                / scored.len() as f64
        })
    };
    println!(
        "K = {k:.6} per centipawn (a score of {:.0} cp predicts 73%); K of the full starting weights {:.6}; \
         {} training positions with a searched score (weight {})",
        1.0 / k,
        fit_k(&train, &start),
        scored.len(),
        opts.score_weight
    );
    let w = opts.score_weight;
    let train_before = mean_loss(&train, &start, k, w);
    let held_out_before = mean_loss(&held_out, &start, k, w);
    let params = optimise(&train, &start, k, opts);
    let train_after = mean_loss(&train, &params, k, w);
    let held_out_after = mean_loss(&held_out, &params, k, w);
    let held_out_results = (
        mean_loss(&held_out, &start, k, 0.0),
        mean_loss(&held_out, &params, k, 0.0),
    );
    println!("\n{}", params.to_rust_const());
    if let Some(path) = &opts.write {
        std::fs::write(path, weights_file(&params)).with_context(|| format!("cannot write {}", path.display()))?;
        println!("weights written to {}", path.display());
    }
    println!(
        "held-out loss against the results alone: {:.5} -> {:.5}",
        held_out_results.0, held_out_results.1
    );
    let verdict = if held_out.is_empty() {
        "no held-out games"
    } else if held_out_after < held_out_before {
        "held-out loss improved"
    } else {
        "held-out loss did NOT improve: keep the embedded weights"
    };
    println!("{verdict}");
    println!(
        "tune-eval: {} positions, K {k:.6}, training loss {train_before:.5} -> {train_after:.5}, \
         held-out loss {held_out_before:.5} -> {held_out_after:.5}",
        stats.positions
    );
    Ok(())
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

    #[test]
    fn results_from_the_ending_column() {
        let black_to_move = Position::from_sfen(STARTPOS_SFEN).unwrap();
        assert_eq!(
            black_result("checkmate", &black_to_move, NotMate::Skip).unwrap(),
            Some(0.0)
        );
        assert_eq!(black_result("not-mate", &black_to_move, NotMate::Skip).unwrap(), None);
        assert_eq!(
            black_result("not-mate", &black_to_move, NotMate::SideToMoveLoses).unwrap(),
            Some(0.0)
        );
        assert_eq!(black_result("gote", &black_to_move, NotMate::Skip).unwrap(), Some(0.0));
        assert_eq!(black_result("draw", &black_to_move, NotMate::Skip).unwrap(), Some(0.5));
        assert!(black_result("resign?", &black_to_move, NotMate::Skip).is_err());
    }

    /// Splits a file of games like [`split_test_games`]'s and returns the numbers of training
    /// and held-out positions for seeds 1..=8, with the load statistics of each.
    fn split_sizes(text: &str) -> Vec<(usize, usize, (usize, usize, usize))> {
        let path = std::env::temp_dir().join(format!("soppo-tune-eval-{}-{}.tsv", std::process::id(), fnv1a(text)));
        std::fs::write(&path, text).unwrap();
        let sizes = (1..=8)
            .map(|seed| {
                let opts = Options {
                    games: vec![path.clone()],
                    skip_plies: 0,
                    not_mate: NotMate::Skip,
                    holdout: 0.5,
                    epochs: 0,
                    lr: 0.0,
                    l2: 0.0,
                    l2_kp: 0.0,
                    seed,
                    all_positions: false,
                    tune_material: false,
                    score_weight: 0.4,
                    score_horizon: 1,
                    write: None,
                    only: Vec::new(),
                    net_inputs: false,
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
