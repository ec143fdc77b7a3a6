//! `soppo-tools`: command-line tools around the Soppo rules core.
//!
//! - `soppo-tools perft --sfen <SFEN> --depth N [--divide]`: count the leaves of the legal
//!   move tree (optionally per root move);
//! - `soppo-tools perft --suite FILE [--max-nodes N]`: run a TSV suite of known perft counts;
//! - `soppo-tools tsume "<SFEN>" [--time-ms N] [--hash-mb MB]`: solve a mate problem, print USI and Japanese;
//! - `soppo-tools tsume-check <SFEN | FILE> [--line "<USI moves>"] [--json] [--time-ms N]`: a
//!   composer's check of a problem (余詰, 変同, 変長, 早詰, 駒余り) along its main line;
//! - `soppo-tools mate FILE [--time-ms N] [--limit N] [--skip-stated-nomate]`: run a mate suite;
//! - `soppo-tools fit-mate3 [--data DIR] [--folds N] [--seed N] [--nomate-ratio R]`: fit the
//!   static 3-ply mate score (Tanaka et al.) on the shared data, with cross-validation;
//! - `soppo-tools tune-eval [GAMES…] [--epochs N] …`: logistic (Texel) tuning of the
//!   evaluation's weights on game results; prints the new `DEFAULT_PARAMS`;
//! - `soppo-tools selfplay --openings FILE --games N [--nodes N] [--threads N] --out FILE`:
//!   games of the engine against itself, with the searched scores, for `tune-eval`;
//! - `soppo-tools gen-data [--games N] [--nodes N | --depth N] [--threads N] [--out DIR]`: the
//!   NNUE's training data from self-play, resumable;
//! - `soppo-tools train-nnue DATA… --out NET [--epochs N] …`: trains the NNUE on it;
//! - `soppo-tools eval "<SFEN>" [--top N]`: the static evaluation, group by group;
//! - `soppo-tools mate-measure <MEASUREMENT> …`: measurements of the mate solver's parts;
//! - `soppo-tools makebook GAMES… --out BOOK [--min-count N] [--max-ply P] [--think --depth D]`:
//!   a YaneuraOu `.db` opening book from game records (KIF, CSA, `startpos moves …` lines);
//! - `soppo-tools book-stats BOOK`: loading time, memory and look-up time of a book.

mod book_stats_cmd;
mod eval_cmd;
mod kif;
mod makebook_cmd;
mod mate_cmd;
mod mate_measure;
mod perft_cmd;
mod suite;
mod tsume_check_cmd;
mod tsume_cmd;

use clap::{ArgGroup, Args, Parser, Subcommand};
use soppo_engine::mate::MateConfig;
use soppo_train::{fit_mate3, gen_data, selfplay, train_classic_net, train_nnue, tune_eval};
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
    /// A composer's check of a tsume problem along its main line: every 余詰 (a second mate),
    /// 変同 (another defence as long), 変長 (a longer defence), 早詰 (a shorter mate) and 駒余り
    /// (pieces left over), or "sound". Exit status 0 when sound, 1 when unsound or undecided.
    TsumeCheck(TsumeCheckArgs),
    /// Run a file of mate problems (plain SFEN lines or `sfen<TAB>length<TAB>…` rows).
    Mate(MateArgs),
    /// Fit the static 3-ply mate score (Tanaka et al.) by least squares, with k-fold
    /// cross-validation against the paper's weights.
    FitMate3(fit_mate3::Args),
    /// Tune the evaluation's weights by logistic (Texel) regression on game results and print
    /// the new `DEFAULT_PARAMS` constant.
    TuneEval(tune_eval::Args),
    /// Train the evaluation's hidden layer on self-play games, on top of the embedded linear
    /// weights, and write it as `engine/src/eval/classic/net.bin`.
    TrainClassicNet(train_classic_net::Args),
    /// Play the engine against itself at a fixed number of nodes a move and write the games
    /// (with the searched scores) for `tune-eval`.
    Selfplay(selfplay::Args),
    /// Generate the NNUE's training data by self-play (resumable; a file per run in
    /// `~/.cache/soppo/data` by default).
    GenData(gen_data::Args),
    /// Train the NNUE on `gen-data` files and write it in the engine's network format.
    TrainNnue(train_nnue::Args),
    /// Print the static evaluation of a position (side to move's view), group by group.
    Eval(EvalArgs),
    /// Measure the mate solver's parts on their own (df-pn, the exact search's super piece).
    MateMeasure(mate_measure::MeasureArgs),
    /// Make a YaneuraOu `.db` opening book from game records (KIF, CSA, `startpos moves …`
    /// lines), optionally with Soppo's own value and depth for each move (`--think`).
    Makebook(makebook_cmd::Args),
    /// Load a `.db` book as the engine does and measure loading time, memory and look-ups.
    BookStats(book_stats_cmd::Args),
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
struct TsumeArgs {
    /// Position as SFEN, attacker to move.
    sfen: String,
    /// Time limit in milliseconds (none by default).
    #[arg(long, value_name = "N")]
    time_ms: Option<u64>,
    /// Also write the answer as KIF to this file (Shift JIS for `.kif`, UTF-8 otherwise).
    #[arg(long, value_name = "FILE")]
    kif: Option<PathBuf>,
    #[command(flatten)]
    solver: SolverArgs,
}

#[derive(Debug, Args)]
struct TsumeCheckArgs {
    /// The problem: an SFEN (attacker to move), or a KIF (Shift JIS or UTF-8) or CSA file
    /// whose moves, if any, are the intended main line.
    input: String,
    /// The intended main line in USI moves (instead of the file's moves or the solver's
    /// answer).
    #[arg(long, value_name = "MOVES")]
    line: Option<String>,
    /// Print one JSON object (`shortest`, `sound`, `flaws` with `kind`, `ply`, `line` …).
    #[arg(long)]
    json: bool,
    /// Time budget in milliseconds (none by default); what is not decided by then is said.
    #[arg(long, value_name = "N")]
    time_ms: Option<u64>,
    /// Memory for the exact search's table in MB.
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    /// Also write the main line, each flaw's line a variation, as KIF to this file
    /// (Shift JIS for `.kif`, UTF-8 otherwise).
    #[arg(long, value_name = "FILE")]
    kif: Option<PathBuf>,
}

/// The mate solver's settings, as the engine's `Mate*` options and `USI_Hash` set them.
#[derive(Debug, Args)]
struct SolverArgs {
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
    #[command(flatten)]
    solver: SolverArgs,
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

impl SolverArgs {
    fn config(&self) -> MateConfig {
        MateConfig {
            hash_mb: self.hash_mb,
            threads: self.threads,
            drop_chains: !self.per_kind,
            super_piece: !self.no_super_piece,
        }
    }
}

fn exit_code(ok: bool) -> ExitCode {
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Tsume(args) => Ok(exit_code(tsume_cmd::run(
            &args.sfen,
            args.time_ms.map(Duration::from_millis),
            &args.solver.config(),
            args.kif.as_deref(),
        )?)),
        Command::TsumeCheck(args) => Ok(exit_code(tsume_check_cmd::run(&tsume_check_cmd::CheckArgs {
            input: &args.input,
            line: args.line.as_deref(),
            json: args.json,
            time: args.time_ms.map(Duration::from_millis),
            hash_mb: args.hash_mb,
            kif: args.kif.as_deref(),
        })?)),
        Command::Mate(args) => {
            let summary = mate_cmd::run(
                &args.file,
                Some(Duration::from_millis(args.time_ms)),
                args.limit,
                args.skip_stated_nomate,
                &args.solver.config(),
            )?;
            Ok(exit_code(summary.failed == 0))
        }
        Command::FitMate3(args) => fit_mate3::run(&args).map(|()| ExitCode::SUCCESS),
        Command::TuneEval(args) => tune_eval::run(&args).map(|()| ExitCode::SUCCESS),
        Command::TrainClassicNet(args) => train_classic_net::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Selfplay(args) => selfplay::run(&args).map(|()| ExitCode::SUCCESS),
        Command::GenData(args) => gen_data::run(&args).map(|()| ExitCode::SUCCESS),
        Command::TrainNnue(args) => train_nnue::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Eval(args) => eval_cmd::run(&args.sfen, args.top).map(|()| ExitCode::SUCCESS),
        Command::MateMeasure(args) => mate_measure::run(args),
        Command::Makebook(args) => makebook_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::BookStats(args) => book_stats_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Perft(args) => {
            if let Some(path) = args.suite {
                let summary = suite::run_suite(&path, args.max_nodes)?;
                Ok(exit_code(summary.failed == 0))
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
    // Diagnostics (`RUST_LOG=soppo_engine=debug`) go to standard error; nothing by default.
    env_logger::init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
