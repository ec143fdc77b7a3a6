//! `tune-eval [GAMES…] [--skip-plies N] [--not-mate skip|side-to-move-loses] [--holdout F]
//! [--epochs N] [--lr X] [--l2 X] [--l2-kp X] [--seed N] [--all-positions]`: logistic ("Texel") tuning of
//! the evaluation's weights ([`soppo_engine::eval::classic::params`]) on game results.
//!
//! **Input**: game files ([`crate::games`]): `games_lishogi500.tsv` of the shared data by
//! default, self-play games as `selfplay` writes them. A game's result is read from its ending
//! column ([`crate::games::black_result`]); `not-mate` games (resignation, time, …; the lishogi
//! file does not say which) are skipped, or with `--not-mate side-to-move-loses` counted as a
//! loss of the side to move at the end (players usually resign on their own turn; a guess, so
//! off by default). The positions and the training / held-out split are those of
//! [`crate::samples`].
//!
//! **Fit**: the predicted score of a position is `1 / (1 + exp(-K·eval))`, the loss the mean
//! log loss against the result (1 win, ½ draw, 0 loss for the side to move). K is fitted first
//! (golden-section search) on the embedded material weights alone, which ties the scale to
//! centipawns; then the weights are optimised by Adam on the full training set, with an L2
//! pull towards the embedded weights. The material weights stay fixed unless
//! `--tune-material`: they anchor the scale the search's margins are written in. The losses
//! before and after are those of the integer weights as the engine uses them; the new
//! `DEFAULT_PARAMS` constant is printed ready to paste into `engine/src/eval/classic/params.rs`.

#![allow(
    clippy::cast_precision_loss,
    reason = "position counts and evaluations far below 2^52"
)]

use crate::adam::{Moments, Step};
use crate::games::NotMate;
use crate::logistic::{self, log_loss, sigmoid};
use crate::progress;
use crate::samples::{self, Features, LoadStats, Sample};
use crate::shared_data;
use anyhow::{Context, Result, ensure};
use soppo_engine::eval::EVAL_LIMIT;
use soppo_engine::eval::classic::params::{
    DEFAULT_PARAMS, FINE, HAND, KING_DANGER, KP_OWN, NUM_PARAMS, Params, is_fine, is_used, param_name,
};
use std::path::PathBuf;

/// The options of `tune-eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Game files (`startpos moves …<TAB>plies<TAB>ending<TAB>final SFEN` per line; default:
    /// `games_lishogi500.tsv` of the shared data directory).
    pub games: Vec<PathBuf>,
    /// Leave out the positions of the first N plies of every game.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub skip_plies: usize,
    /// What a game that ended without checkmate and without a stated winner counts as.
    #[arg(long, value_enum, default_value_t = NotMate::Skip)]
    pub not_mate: NotMate,
    /// Share of the games held out to measure the fit.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    pub holdout: f64,
    /// Full passes of Adam over the training positions.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub epochs: usize,
    /// Adam step size, in 1/16 centipawn (weights in centipawns take a sixteenth of it).
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    pub lr: f64,
    /// Strength of the pull towards the embedded weights (per squared weight unit).
    #[arg(long, value_name = "X", default_value_t = 1e-7)]
    pub l2: f64,
    /// Strength of the pull of the piece–king tables (`kp_own`, `kp_enemy`) towards the
    /// embedded weights, in place of `--l2` (default: `--l2`). These 2,754 weights see few
    /// positions each, and a fit left free learns odd things from them (see docs/EVAL.md).
    #[arg(long, value_name = "X")]
    pub l2_kp: Option<f64>,
    /// Seed of the training / held-out split.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Keep positions that are not quiet as they are (default: replace each by the end of
    /// its captures).
    #[arg(long)]
    pub all_positions: bool,
    /// Tune the material weights too (default: fixed, they anchor the centipawn scale).
    #[arg(long)]
    pub tune_material: bool,
    /// Weight of the searched score in the target, for games with a score column (as
    /// `selfplay` writes them); the game result has the rest.
    #[arg(long, value_name = "X", default_value_t = 0.7)]
    pub score_weight: f64,
    /// Label each position with the mean of the side to move's searched scores over its next
    /// N moves (N = 1: the position's own score).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub score_horizon: usize,
    /// Also write the new weights to this file (normally `engine/src/eval/classic/weights.rs`).
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Tune only these parameter groups (comma-separated names as the printed constant has
    /// them, e.g. `king_danger`); every other weight stays as embedded.
    #[arg(long, value_name = "GROUPS", value_delimiter = ',')]
    pub only: Vec<String>,
}

impl Args {
    /// Whether weight `i` is fitted (the others keep their embedded values).
    fn tunes(&self, i: usize) -> bool {
        is_used(i)
            && (self.tune_material || i >= HAND + 7)
            && (self.only.is_empty() || self.only.iter().any(|g| g == param_name(i).0))
    }

    /// The pull towards the embedded value of weight `i`.
    fn l2_of(&self, i: usize) -> f64 {
        if (KP_OWN..KING_DANGER).contains(&i) {
            self.l2_kp.unwrap_or(self.l2)
        } else {
            self.l2
        }
    }

    /// The games to read and how.
    fn load(&self) -> samples::Load {
        let games = if self.games.is_empty() {
            vec![shared_data::dir(None).join("games_lishogi500.tsv")]
        } else {
            self.games.clone()
        };
        samples::Load {
            games,
            skip_plies: self.skip_plies,
            not_mate: self.not_mate,
            holdout: self.holdout,
            seed: self.seed,
            all_positions: self.all_positions,
            score_horizon: self.score_horizon,
            features: Features::Linear,
        }
    }
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
    logistic::fit_k(|k| mean_loss(samples, params, k, 0.0))
}

/// Adam on the mean log loss plus `l2 · Σ (w − w₀)²` (`l2_kp` for the piece–king tables),
/// full batch; returns the rounded weights.
fn optimise(train: &[Sample], start: &Params, k: f64, opts: &Args) -> Params {
    let w0: Vec<f64> = start.0.iter().map(|&v| f64::from(v)).collect();
    let mut w = w0.clone();
    let mut moments = Moments::<f64>::new(NUM_PARAMS);
    let n = train.len().max(1) as f64;
    let bar = progress::counted(opts.epochs as u64, "tuning");
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
        let step = Step::new(epoch as u64, opts.lr, 0.0);
        for i in (0..NUM_PARAMS).filter(|&i| opts.tunes(i)) {
            let g = grad[i] + 2.0 * opts.l2_of(i) * (w[i] - w0[i]);
            // The step is in centipawns for every weight: a weight in 1/16 centipawn takes
            // sixteen times the step of one in centipawns.
            let lr = if is_fine(i) { opts.lr } else { opts.lr / f64::from(FINE) };
            step.with_lr(lr)
                .update(&mut w[i], g, &mut moments.m[i], &mut moments.v[i]);
        }
    }
    bar.finish_and_clear();
    let mut out = start.clone();
    for (o, x) in out.0.iter_mut().zip(&w) {
        *o = x.round() as i32;
    }
    out
}

/// The text of `engine/src/eval/classic/weights.rs` holding `params`.
fn weights_file(params: &Params) -> String {
    format!(
        "//! The embedded evaluation weights (see `params.rs` for the layout); `soppo-tools tune-eval\n\
         //! --write engine/src/eval/classic/weights.rs` rewrites this file.\n\n\
         use super::params::Params;\n\n\
         // Fitted by `soppo-tools tune-eval` (docs/EVAL.md says on what data and how).\n{}",
        params.to_rust_const()
    )
}

/// Runs the tuner and prints its report; the last line is the summary.
pub fn run(opts: &Args) -> Result<()> {
    let mut stats = LoadStats::default();
    let (train, held_out) = samples::load(&opts.load(), &mut stats)?;
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
    // With searched scores, K is the scale at which the scores best predict the results: the
    // evaluation is then fitted to say what the search says, on the same scale.
    let k = samples::search_k(&train).unwrap_or_else(|| fit_k(&train, &material_only));
    println!(
        "K = {k:.6} per centipawn (a score of {:.0} cp predicts 73%); K of the full starting weights {:.6}; \
         {} training positions with a searched score (weight {})",
        1.0 / k,
        fit_k(&train, &start),
        train.iter().filter(|s| s.score.is_some()).count(),
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
