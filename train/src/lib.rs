//! `soppo-train`: the training commands of `soppo-tools`, and the pieces they share.
//!
//! Commands (each a module with its command-line [`clap::Args`] and a `run`):
//! - [`selfplay`]: games of the engine against itself, with the searched scores;
//! - [`tune_eval`]: logistic (Texel) tuning of the evaluation's linear weights;
//! - [`train_classic_net`]: training of the evaluation's hidden layer;
//! - [`fit_mate3`]: the fit of the static 3-ply mate score, with cross-validation;
//! - [`gen_data`]: the NNUE's training data, from self-play;
//! - [`train_nnue`]: the NNUE's trainer.
//!
//! Shared pieces:
//! - [`nnue_data`]: the NNUE's data files (records, checksummed blocks, the reader and writer);
//! - [`games`]: game records (the TSV game files `selfplay` writes and the tuners read);
//! - [`samples`]: training positions from game files, their labels and the training /
//!   held-out split;
//! - [`logistic`]: the logistic model the tuners fit (σ, log loss, the scale K);
//! - [`adam`]: the one optimiser of every trainer;
//! - [`holdout`]: the one held-out split of every trainer;
//! - [`tsv`]: the tab-separated data files;
//! - [`progress`]: progress bars;
//! - [`shared_data`]: where the shared data directory is.
//!
//! The seeded random numbers come from [`soppo_core::rng`].

pub mod adam;
pub mod fit_mate3;
pub mod games;
pub mod gen_data;
pub mod holdout;
pub mod logistic;
pub mod nnue_data;
pub mod progress;
pub mod samples;
pub mod selfplay;
pub mod shared_data;
pub mod train_classic_net;
pub mod train_nnue;
pub mod tsv;
pub mod tune_eval;
