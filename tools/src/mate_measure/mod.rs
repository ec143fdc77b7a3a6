//! `soppo-tools mate-measure …`: measurements of the mate solver's parts on their own (df-pn's
//! proofs, shortest lines and line walks; the exact search with and without the super piece),
//! through the engine's measurement API (`soppo_engine::mate::lab`). Each prints what it
//! measured; those that also check answers (super piece on and off alike, df-pn's shortest
//! lines never below the tsume answer, checked lines) exit with 1 when a check fails.
//!
//! Data files are named relative to the shared data directory (`--data`, else
//! `$SOPPO_SHARED_DATA`, else `shared/data` beside the checkout); an absolute path is taken as
//! it is.

mod dfpn;
mod generated;
mod super_piece;

use clap::{Args, Subcommand};
use soppo_engine::mate::lab::{self, Dfpn};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The shared data directory when `--data` is not given: this variable, else `shared/data`
/// beside the checkout.
const SHARED_DATA_ENV: &str = "SOPPO_SHARED_DATA";

#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// The shared data directory (default: `$SOPPO_SHARED_DATA`, else shared/data beside the
    /// checkout).
    #[arg(long, value_name = "DIR", global = true)]
    data: Option<PathBuf>,
    #[command(subcommand)]
    measure: Measure,
}

#[derive(Debug, Subcommand)]
enum Measure {
    /// df-pn's first proof of one problem: verdict, nodes, speed, and the mating line.
    Prove(dfpn::ProveArgs),
    /// df-pn's bounded shortening on one problem (`Dfpn::shortest_line`) until it shows the
    /// mate shortest or the time is up.
    Shortest(dfpn::ShortestArgs),
    /// df-pn's first proofs on the rows of a data file, one table for all rows.
    Rows(dfpn::RowsArgs),
    /// df-pn's first proofs on every `mate_curated.tsv` row but Microcosmos, then Shogi Zuko
    /// 99: a fresh table per problem; prints the rows above a million nodes.
    Curated(dfpn::CuratedArgs),
    /// df-pn's shortest lines on every `mate_curated.tsv` row but Microcosmos, then Shogi Zuko
    /// 99, against the stated lengths.
    ShortestCurated(dfpn::ShortestCuratedArgs),
    /// df-pn's shortest lines against the exact tsume search: shown shortest, never below the
    /// tsume answer (a check: exit 1 on a row that fails).
    ShortestVsExact(dfpn::FilesArgs),
    /// Line walks from the first proof's length, with stored and with tightened replies,
    /// against the length shown shortest.
    TightenedWalks(dfpn::FilesArgs),
    /// The exact search with the super piece on and off on data files: the same answers (a
    /// check), and the nodes each way.
    SuperPiece(super_piece::SuperPieceArgs),
    /// The super piece on and off on a generated set of interposition-heavy tsume problems.
    SuperPieceGenerated(super_piece::GeneratedArgs),
}

/// Runs one measurement. The searches recurse deep (Microcosmos: 1525 plies), so they run on a
/// thread with the stack the solver asks for.
pub fn run(args: MeasureArgs) -> anyhow::Result<ExitCode> {
    let data = data_dir(args.data);
    let measure = args.measure;
    let worker = std::thread::Builder::new()
        .name("mate-measure".into())
        .stack_size(lab::STACK_BYTES)
        .spawn(move || match &measure {
            Measure::Prove(a) => dfpn::prove(a),
            Measure::Shortest(a) => dfpn::shortest(a),
            Measure::Rows(a) => dfpn::rows(&data, a),
            Measure::Curated(a) => dfpn::curated(&data, a),
            Measure::ShortestCurated(a) => dfpn::shortest_curated(&data, a),
            Measure::ShortestVsExact(a) => dfpn::shortest_vs_exact(&data, a),
            Measure::TightenedWalks(a) => dfpn::tightened_walks(&data, a),
            Measure::SuperPiece(a) => super_piece::on_files(&data, a),
            Measure::SuperPieceGenerated(a) => super_piece::generated(a),
        })?;
    let passed = worker
        .join()
        .map_err(|_| anyhow::anyhow!("the measurement panicked"))??;
    Ok(if passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn data_dir(arg: Option<PathBuf>) -> PathBuf {
    arg.or_else(|| std::env::var_os(SHARED_DATA_ENV).map(PathBuf::from))
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

/// The data rows of `file` (a name in `data`, or a path): lines that are neither empty nor
/// comments, split at tabs.
fn data_rows(data: &Path, file: &str) -> anyhow::Result<Vec<Vec<String>>> {
    let path = data.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: {e} (the shared data directory is --data, ${SHARED_DATA_ENV} or shared/data beside the checkout)",
            path.display()
        )
    })?;
    Ok(text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect())
}

/// The SFEN (first column) of the first `n` data rows of `file`.
fn sfens(data: &Path, file: &str, n: usize) -> anyhow::Result<Vec<String>> {
    Ok(data_rows(data, file)?
        .into_iter()
        .take(n)
        .map(|mut cols| cols.swap_remove(0))
        .collect())
}

/// The df-pn prover's settings common to the measurements that take them.
#[derive(Debug, Args)]
struct ProverArgs {
    /// Threads of the df-pn search.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Every interposing drop searched side by side instead of in chains (an A/B switch, like
    /// `setoption name MateInterposition value PerKind`).
    #[arg(long)]
    per_kind: bool,
    /// A node's summed number is df-pn's plain sum, not capped above the weak sum of weak
    /// proof-number search (an A/B switch; see `Dfpn::set_capped_sums`).
    #[arg(long)]
    plain_sums: bool,
}

impl ProverArgs {
    /// A prover with a table of `hash_mb` MB and these settings.
    fn prover(&self, hash_mb: usize) -> Dfpn {
        let mut d = Dfpn::new(hash_mb);
        d.set_drop_chains(!self.per_kind);
        d.set_capped_sums(!self.plain_sums);
        d.set_threads(self.threads);
        d
    }
}

/// Nodes a second, for display.
#[allow(clippy::cast_precision_loss)]
fn nps(nodes: u64, secs: f64) -> f64 {
    nodes as f64 / secs
}
