//! `soppo-tools`: command-line tools around the Soppo rules core.
//!
//! - `soppo-tools perft --sfen <SFEN> --depth N [--divide]`: count the leaves of the legal
//!   move tree (optionally per root move);
//! - `soppo-tools perft --suite FILE [--max-nodes N]`: run a TSV suite of known perft counts;
//! - `soppo-tools tsume "<SFEN>" [--time-ms N] [--hash-mb MB]`: solve a mate problem, print USI and Japanese;
//! - `soppo-tools mate FILE [--time-ms N] [--limit N] [--skip-stated-nomate]`: run a mate suite;
//! - `soppo-tools fit-mate3 [--data DIR] [--folds N] [--seed N] [--nomate-ratio R]`: fit the
//!   static 3-ply mate score (Tanaka et al.) on the shared data, with cross-validation;
//! - `soppo-tools tune-eval [GAMES…] [--epochs N] …`: logistic (Texel) tuning of the
//!   evaluation's weights on game results; prints the new `DEFAULT_PARAMS`;
//! - `soppo-tools selfplay --openings FILE --games N [--nodes N] [--threads N] --out FILE`:
//!   games of the engine against itself, with the searched scores, for `tune-eval`;
//! - `soppo-tools eval "<SFEN>" [--top N]`: the static evaluation, group by group;
//! - `soppo-tools mate-measure <MEASUREMENT> …`: measurements of the mate solver's parts.

mod eval_cmd;
mod fit_mate3;
mod kif;
mod mate_cmd;
mod mate_measure;
mod perft_cmd;
mod selfplay;
mod suite;
mod train_net;
mod tsume_cmd;
mod tune_eval;

use clap::{ArgGroup, Args, Parser, Subcommand};
use soppo_engine::mate::MateConfig;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Command-line tools for the Soppo shogi engine.
#[derive(Debug, Parser)]
#[command(name = "soppo-tools", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (non-promotions included).
    Perft(PerftArgs),
    /// Solve one mate problem; print the solution in USI and in Japanese notation.
    Tsume(TsumeArgs),
    /// Run a file of mate problems (plain SFEN lines or `sfen<TAB>length<TAB>…` rows).
    Mate(MateArgs),
    /// Fit the static 3-ply mate score (Tanaka et al.) by least squares, with k-fold
    /// cross-validation against the paper's weights.
    FitMate3(FitMate3Args),
    /// Tune the evaluation's weights by logistic (Texel) regression on game results and print
    /// the new `DEFAULT_PARAMS` constant.
    TuneEval(TuneEvalArgs),
    /// Train the evaluation's hidden layer on self-play games, on top of the embedded linear
    /// weights, and write it as `engine/src/eval/net.bin`.
    TrainNet(TrainNetArgs),
    /// Play the engine against itself at a fixed number of nodes a move and write the games
    /// (with the searched scores) for `tune-eval`.
    Selfplay(SelfplayArgs),
    /// Print the static evaluation of a position (side to move's view), group by group.
    Eval(EvalArgs),
    /// Measure the mate solver's parts on their own (df-pn, the exact search's super piece).
    MateMeasure(mate_measure::MeasureArgs),
}

#[derive(Debug, Args)]
struct EvalArgs {
    /// Position as SFEN, or `-` to evaluate one SFEN a line from standard input.
    sfen: String,
    /// Largest terms printed per group.
    #[arg(long, value_name = "N", default_value_t = 4)]
    top: usize,
}

#[derive(Debug, Args)]
struct SelfplayArgs {
    /// Games whose openings start the self-play games (the `tune-eval` game format).
    #[arg(long, value_name = "FILE")]
    openings: PathBuf,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// Nodes searched a move.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    nodes: u64,
    /// Games played at once (one search thread each).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Seed of the choice of openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Where to write the games.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Earliest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 8)]
    min_ply: usize,
    /// Latest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 32)]
    max_ply: usize,
    /// Plies after which a game is a draw.
    #[arg(long, value_name = "N", default_value_t = 320)]
    max_plies: usize,
    /// A lead (centipawns) both sides' searches see for four plies in a row ends the game.
    #[arg(long, value_name = "CP", default_value_t = 3000)]
    adjudicate: i32,
    /// Each move searches `--nodes` times a factor drawn from 1 ± this share.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    jitter: f64,
    /// Plies played at random after the cut (moves that lose no material by exchange), so
    /// that the games reach positions no opening of the file does.
    #[arg(long, value_name = "N", default_value_t = 0)]
    random_plies: usize,
    /// After the random plies, a start whose searched score is further from even than this
    /// (centipawns) is drawn again (up to ten times, then the cut opening is used as it is).
    #[arg(long, value_name = "CP", default_value_t = 300)]
    random_balance: i32,
}

#[derive(Debug, Args)]
struct TrainNetArgs {
    /// Self-play game files (with the searched-score column).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Leave out the positions of the first N plies of every game.
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip_plies: usize,
    /// Share of the games held out to measure the fit.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    holdout: f64,
    /// Seed of the split, the initial weights and the order of the samples.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Weight of the searched score in the target (as `tune-eval`).
    #[arg(long, value_name = "X", default_value_t = 0.4)]
    score_weight: f64,
    /// Searched scores averaged over the next N moves (as `tune-eval`).
    #[arg(long, value_name = "N", default_value_t = 8)]
    score_horizon: usize,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 10)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    batch: usize,
    /// Adam step size.
    #[arg(long, value_name = "X", default_value_t = 1e-3)]
    lr: f64,
    /// Decoupled weight decay of the input weights (per step, times the step size).
    #[arg(long, value_name = "X", default_value_t = 0.01)]
    weight_decay: f64,
    /// Threads a batch is split over.
    #[arg(long, value_name = "N", default_value_t = 2)]
    threads: usize,
    /// Where to write the network (e.g. `engine/src/eval/net.bin`).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
    /// Start from this network (e.g. `engine/src/eval/net.bin`) instead of a zero output.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct TuneEvalArgs {
    /// Game files (`startpos moves …<TAB>plies<TAB>ending<TAB>final SFEN` per line; default:
    /// `games_lishogi500.tsv` of the shared data directory).
    games: Vec<PathBuf>,
    /// Leave out the positions of the first N plies of every game.
    #[arg(long, value_name = "N", default_value_t = 16)]
    skip_plies: usize,
    /// What a game that ended without checkmate and without a stated winner counts as.
    #[arg(long, value_enum, default_value_t = tune_eval::NotMate::Skip)]
    not_mate: tune_eval::NotMate,
    /// Share of the games held out to measure the fit.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    holdout: f64,
    /// Full passes of Adam over the training positions.
    #[arg(long, value_name = "N", default_value_t = 400)]
    epochs: usize,
    /// Adam step size, in 1/16 centipawn (weights in centipawns take a sixteenth of it).
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    lr: f64,
    /// Strength of the pull towards the embedded weights (per squared weight unit).
    #[arg(long, value_name = "X", default_value_t = 1e-7)]
    l2: f64,
    /// Strength of the pull of the piece–king tables (`kp_own`, `kp_enemy`) towards the
    /// embedded weights, in place of `--l2` (default: `--l2`). These 2,754 weights see few
    /// positions each, and a fit left free learns odd things from them (see docs/EVAL.md).
    #[arg(long, value_name = "X")]
    l2_kp: Option<f64>,
    /// Seed of the training / held-out split.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Keep positions that are not quiet as they are (default: replace each by the end of
    /// its captures).
    #[arg(long)]
    all_positions: bool,
    /// Tune the material weights too (default: fixed, they anchor the centipawn scale).
    #[arg(long)]
    tune_material: bool,
    /// Weight of the searched score in the target, for games with a score column (as
    /// `selfplay` writes them); the game result has the rest.
    #[arg(long, value_name = "X", default_value_t = 0.7)]
    score_weight: f64,
    /// Label each position with the mean of the side to move's searched scores over its next
    /// N moves (N = 1: the position's own score).
    #[arg(long, value_name = "N", default_value_t = 1)]
    score_horizon: usize,
    /// Also write the new weights to this file (normally `engine/src/eval/weights.rs`).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
    /// Tune only these parameter groups (comma-separated names as the printed constant has
    /// them, e.g. `king_danger`); every other weight stays as embedded.
    #[arg(long, value_name = "GROUPS", value_delimiter = ',')]
    only: Vec<String>,
}

#[derive(Debug, Args)]
struct FitMate3Args {
    /// The shared data directory (default: `$SOPPO_SHARED_DATA`, else shared/data beside the
    /// checkout).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Number of cross-validation folds.
    #[arg(long, value_name = "N", default_value_t = 10)]
    folds: usize,
    /// Seed of the no-mate sample and of the fold shuffle.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// No-mate game positions kept per mate-labelled position (default: the paper's
    /// 1264 / 1492).
    #[arg(long, value_name = "R", default_value_t = fit_mate3::PAPER_NOMATE_RATIO)]
    nomate_ratio: f64,
}

#[derive(Debug, Args)]
struct TsumeArgs {
    /// Position as SFEN, attacker to move.
    sfen: String,
    /// Time limit in milliseconds (none by default).
    #[arg(long, value_name = "N")]
    time_ms: Option<u64>,
    /// Memory for the solver's tables in MB.
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    /// Threads: with 2 or more, df-pn runs beside the exact search from the start, and the
    /// exact search's thread helps df-pn with long proofs.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// df-pn tries every interposing drop side by side instead of in chains (an A/B switch,
    /// like `setoption name MateInterposition value PerKind`).
    #[arg(long)]
    per_kind: bool,
    /// The exact search tries each interposing kind on its own instead of one super piece
    /// per square (an A/B switch, like `setoption name MateSuperPiece value false`).
    #[arg(long)]
    no_super_piece: bool,
}

#[derive(Debug, Args)]
struct MateArgs {
    /// The problem file.
    file: PathBuf,
    /// Time limit per problem in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    time_ms: u64,
    /// Run only the first N problems.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip problems stated as `nomate` / `nomate<=N`.
    #[arg(long)]
    skip_stated_nomate: bool,
    /// Memory for the solver's tables in MB.
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    /// Threads: with 2 or more, df-pn runs beside the exact search from the start, and the
    /// exact search's thread helps df-pn with long proofs.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// df-pn tries every interposing drop side by side instead of in chains (an A/B switch,
    /// like `setoption name MateInterposition value PerKind`).
    #[arg(long)]
    per_kind: bool,
    /// The exact search tries each interposing kind on its own instead of one super piece
    /// per square (an A/B switch, like `setoption name MateSuperPiece value false`).
    #[arg(long)]
    no_super_piece: bool,
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["sfen", "suite"])))]
struct PerftArgs {
    /// Position as SFEN (`startpos` for the start position).
    #[arg(long, conflicts_with = "suite", requires = "depth")]
    sfen: Option<String>,
    /// Depth in plies (with --sfen).
    #[arg(long, conflicts_with = "suite")]
    depth: Option<u32>,
    /// Print the count of every root move (sorted by move text) before the total.
    #[arg(long, requires = "sfen")]
    divide: bool,
    /// Run a suite file: `sfen<TAB>depth<TAB>nodes<TAB>note` per line ('#' comments allowed).
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// With --suite: skip rows whose expected node count exceeds this.
    #[arg(long, value_name = "N", requires = "suite")]
    max_nodes: Option<u64>,
}

fn exit_code(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Tsume(args) => Ok(exit_code(tsume_cmd::run(
            &args.sfen,
            args.time_ms.map(Duration::from_millis),
            &MateConfig {
                hash_mb: args.hash_mb,
                threads: args.threads,
                drop_chains: !args.per_kind,
                super_piece: !args.no_super_piece,
            },
        )?)),
        Command::Mate(args) => {
            let summary = mate_cmd::run(
                &args.file,
                Some(Duration::from_millis(args.time_ms)),
                args.limit,
                args.skip_stated_nomate,
                &MateConfig {
                    hash_mb: args.hash_mb,
                    threads: args.threads,
                    drop_chains: !args.per_kind,
                    super_piece: !args.no_super_piece,
                },
            )?;
            Ok(exit_code(summary.failed == 0))
        }
        Command::FitMate3(args) => {
            fit_mate3::run(&fit_mate3::Options {
                data: fit_mate3::data_dir(args.data),
                folds: args.folds,
                seed: args.seed,
                nomate_ratio: args.nomate_ratio,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::TuneEval(args) => {
            let games = if args.games.is_empty() {
                vec![fit_mate3::data_dir(None).join("games_lishogi500.tsv")]
            } else {
                args.games
            };
            tune_eval::run(&tune_eval::Options {
                games,
                skip_plies: args.skip_plies,
                not_mate: args.not_mate,
                holdout: args.holdout,
                epochs: args.epochs,
                lr: args.lr,
                l2: args.l2,
                l2_kp: args.l2_kp.unwrap_or(args.l2),
                seed: args.seed,
                all_positions: args.all_positions,
                tune_material: args.tune_material,
                score_weight: args.score_weight,
                score_horizon: args.score_horizon,
                write: args.write,
                only: args.only,
                net_inputs: false,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::TrainNet(args) => {
            train_net::run(&train_net::Options {
                games: args.games,
                skip_plies: args.skip_plies,
                holdout: args.holdout,
                seed: args.seed,
                score_weight: args.score_weight,
                score_horizon: args.score_horizon,
                epochs: args.epochs,
                batch: args.batch,
                lr: args.lr,
                weight_decay: args.weight_decay,
                threads: args.threads,
                write: args.write,
                init: args.init,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Selfplay(args) => {
            selfplay::run(&selfplay::Options {
                openings: args.openings,
                games: args.games,
                nodes: args.nodes,
                threads: args.threads,
                seed: args.seed,
                out: args.out,
                min_ply: args.min_ply,
                max_ply: args.max_ply,
                max_plies: args.max_plies,
                adjudicate: args.adjudicate,
                jitter: args.jitter,
                random_plies: args.random_plies,
                random_balance: args.random_balance,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval(args) => {
            eval_cmd::run(&args.sfen, args.top)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::MateMeasure(args) => mate_measure::run(args),
        Command::Perft(args) => {
            if let Some(path) = args.suite {
                let summary = suite::run_suite(&path, args.max_nodes)?;
                Ok(if summary.failed == 0 {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                })
            } else {
                let sfen = args
                    .sfen
                    .ok_or_else(|| anyhow::anyhow!("--sfen or --suite is required"))?;
                let depth = args
                    .depth
                    .ok_or_else(|| anyhow::anyhow!("--depth is required with --sfen"))?;
                perft_cmd::run_single(&sfen, depth, args.divide)?;
                Ok(ExitCode::SUCCESS)
            }
        }
    }
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so `println!` panics when the reader goes away
    // (`soppo-tools tsume … | head -1`). A command-line tool should end quietly instead, as
    // the usual Unix tools do.
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition at the start of `main`, before any
    // other thread exists, races with nothing.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
