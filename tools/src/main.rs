//! `soppo-tools`: command-line tools around the Soppo rules core.
//!
//! - `soppo-tools perft --sfen <SFEN> --depth N [--divide]`: count the leaves of the legal
//!   move tree (optionally per root move);
//! - `soppo-tools perft --suite FILE [--max-nodes N]`: run a TSV suite of known perft counts.

mod perft_cmd;
mod suite;

use clap::{ArgGroup, Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

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

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
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
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
