//! df-pn on its own: first proofs, shortest lines and line walks.

use super::{ProverArgs, data_rows, nps, sfens};
use clap::Args;
use soppo_core::Position;
use soppo_engine::mate::lab::{self, Dfpn, DfpnVerdict};
use soppo_engine::mate::{Claim, verify};
use std::path::Path;
use std::time::{Duration, Instant};

/// A problem named on the command line: `zuko99`, `zuko1`, `microcosmos`, or an SFEN.
struct Problem {
    name: String,
    pos: Position,
    /// The table (MB) and seconds [`shortest`] gives it unless told otherwise.
    shortest_defaults: (usize, u64),
}

impl Problem {
    fn parse(arg: &str) -> anyhow::Result<Problem> {
        let (name, sfen, shortest_defaults) = match arg {
            "zuko99" => ("Zuko 99", lab::SHOGI_ZUKO_99, (1024, 60)),
            "zuko1" => ("Zuko 1", lab::SHOGI_ZUKO_1, (256, 120)),
            "microcosmos" => ("Microcosmos", lab::MICROCOSMOS, (1024, 900)),
            sfen => (sfen, sfen, (1024, 60)),
        };
        let pos = Position::from_sfen(sfen).map_err(|e| anyhow::anyhow!("bad problem `{arg}`: {e}"))?;
        Ok(Problem {
            name: name.to_string(),
            pos,
            shortest_defaults,
        })
    }
}

#[derive(Debug, Args)]
pub struct ProveArgs {
    /// `zuko99`, `zuko1`, `microcosmos`, or a position as SFEN (attacker to move).
    #[arg(default_value = "zuko99")]
    problem: String,
    /// The table's size in MB.
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    hash_mb: usize,
    /// Time limit of the proof.
    #[arg(long, value_name = "S", default_value_t = 300)]
    seconds: u64,
    /// After the proof, also walk the tightened line from the first proof's length (what
    /// `go mate` does first for proofs of 33 to 511 plies): its length, time and nodes.
    #[arg(long)]
    phases: bool,
    #[command(flatten)]
    prover: ProverArgs,
}

/// df-pn's first proof of one problem, and its mating line.
pub fn prove(args: &ProveArgs) -> anyhow::Result<bool> {
    let problem = Problem::parse(&args.problem)?;
    let (name, pos) = (&problem.name, &problem.pos);
    let mut d = args.prover.prover(args.hash_mb);
    let t = Instant::now();
    let limit = Duration::from_secs(args.seconds);
    let v = d.solve(pos, u64::MAX, &mut |_| t.elapsed() > limit);
    let secs = t.elapsed().as_secs_f64();
    let s = d.stats();
    println!(
        "{name}: {v:?} in {secs:.2} s, {} nodes, {:.0} nps, hashfull {}‰",
        s.nodes,
        nps(s.nodes, secs),
        s.hashfull_permille
    );
    let mut passed = true;
    if v == DfpnVerdict::Proven {
        let t = Instant::now();
        let line = d.mate_line(pos);
        let ok = line.as_ref().map(|l| lab::check_line(pos, l));
        passed = matches!(ok, Some(Ok(())));
        println!(
            "{name}: mate line {:?} plies, check {ok:?}, {:.2} s",
            line.as_ref().map(Vec::len),
            t.elapsed().as_secs_f64()
        );
        if args.phases {
            line_phases(&mut d, name, pos);
        }
    }
    Ok(passed)
}

/// After a proof: the tightened walk straight from the first proof's length, its length, time
/// and nodes.
fn line_phases(d: &mut Dfpn, name: &str, pos: &Position) {
    let Some(first) = d.proven_length(pos) else {
        return;
    };
    let t = Instant::now();
    let before = d.stats().nodes;
    let line = d.tightened_line(pos, first, &mut |_| false);
    println!(
        "{name}: tightened from the first proof's {first} plies: {:?} plies, {:.3} s, {} nodes",
        line.as_ref().map(Vec::len),
        t.elapsed().as_secs_f64(),
        d.stats().nodes.saturating_sub(before)
    );
}

#[derive(Debug, Args)]
pub struct ShortestArgs {
    /// `zuko99`, `zuko1`, `microcosmos`, or a position as SFEN (attacker to move).
    #[arg(default_value = "zuko99")]
    problem: String,
    /// The table's size in MB (default: 256 for `zuko1`, else 1024).
    #[arg(long, value_name = "MB")]
    hash_mb: Option<usize>,
    /// Time limit (default: 120 s for `zuko1`, 900 s for `microcosmos`, else 60 s).
    #[arg(long, value_name = "S")]
    seconds: Option<u64>,
    #[command(flatten)]
    prover: ProverArgs,
}

/// df-pn's bounded shortening on one problem: the line, whether it is shown shortest, the
/// shortest bound proven when it stops, and the line's check.
pub fn shortest(args: &ShortestArgs) -> anyhow::Result<bool> {
    let problem = Problem::parse(&args.problem)?;
    let (hash_mb, seconds) = problem.shortest_defaults;
    let (hash_mb, seconds) = (args.hash_mb.unwrap_or(hash_mb), args.seconds.unwrap_or(seconds));
    let mut d = args.prover.prover(hash_mb);
    let t = Instant::now();
    let got = d.shortest_line(&problem.pos, &mut |_| t.elapsed().as_secs() >= seconds);
    let check = got.as_ref().map(|s| lab::check_line(&problem.pos, &s.line));
    println!(
        "{} shortest: (line, shortest, bound, nodes, check) {:?} in {:.2} s",
        problem.name,
        got.as_ref()
            .zip(check.as_ref())
            .map(|(s, check)| (s.line.len(), s.shortest, s.bound, s.nodes, check)),
        t.elapsed().as_secs_f64()
    );
    Ok(check.is_none_or(|c| c.is_ok()))
}

#[derive(Debug, Args)]
pub struct RowsArgs {
    /// The data file.
    #[arg(long, value_name = "FILE", default_value = "mate11_yaneuraou.tsv")]
    file: String,
    /// Rows run, from the first.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    rows: usize,
    /// The table's size in MB.
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    /// Nodes per row at most.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    max_nodes: u64,
    /// Also print each row's verdict and nodes (`row N: verdict, nodes, ms`).
    #[arg(long)]
    per_row: bool,
    #[command(flatten)]
    prover: ProverArgs,
}

/// df-pn's first proofs on the first rows of a file: how many are proven, the nodes (in all
/// and the most on one row), the time and speed.
pub fn rows(data: &Path, args: &RowsArgs) -> anyhow::Result<bool> {
    let rows = sfens(data, &args.file, args.rows)?;
    let mut d = args.prover.prover(args.hash_mb);
    let t = Instant::now();
    let mut nodes = 0;
    let mut proven = 0;
    let mut max_row_nodes = 0;
    // One table for all rows (results stay valid across positions; clearing 256 MB a
    // thousand times would dominate the measurement).
    for (i, sfen) in rows.iter().enumerate() {
        let pos = parse(sfen)?;
        let row_start = Instant::now();
        let verdict = d.solve(&pos, args.max_nodes, &mut |_| false);
        if verdict == DfpnVerdict::Proven {
            proven += 1;
        }
        if args.per_row {
            println!(
                "row {}: {verdict:?}, {} nodes, {} ms",
                i + 1,
                d.stats().nodes,
                row_start.elapsed().as_millis()
            );
        }
        nodes += d.stats().nodes;
        max_row_nodes = max_row_nodes.max(d.stats().nodes);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} x{}: {proven} proven in {secs:.2} s, {nodes} nodes (max {max_row_nodes} on one row), {:.0} nps",
        args.file,
        rows.len(),
        nps(nodes, secs)
    );
    Ok(true)
}

#[derive(Debug, Args)]
pub struct CuratedArgs {
    /// The table's size in MB (a fresh table per problem).
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    /// Nodes per problem at most.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_nodes: u64,
    #[command(flatten)]
    prover: ProverArgs,
}

/// (SFEN, stated length) of every `mate_curated.tsv` row except Microcosmos, then Shogi Zuko 99.
fn curated_rows(data: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let mut rows: Vec<(String, String)> = data_rows(data, "mate_curated.tsv")?
        .into_iter()
        .filter_map(|cols| Some((cols.first()?.clone(), cols.get(1)?.clone())))
        .filter(|(_, len)| len != "1525")
        .collect();
    rows.push((lab::SHOGI_ZUKO_99.to_string(), "117".to_string()));
    Ok(rows)
}

/// df-pn's first proofs on the curated problems: the problems proven, the summed nodes and
/// time, and the rows above a million nodes (the ones that decide the sum).
pub fn curated(data: &Path, args: &CuratedArgs) -> anyhow::Result<bool> {
    let rows = curated_rows(data)?;
    let mut d = args.prover.prover(args.hash_mb);
    let t = Instant::now();
    let (mut proven, mut nodes) = (0, 0);
    for (i, (sfen, len)) in rows.iter().enumerate() {
        d.clear();
        let v = d.solve(&parse(sfen)?, args.max_nodes, &mut |_| false);
        let n = d.stats().nodes;
        proven += usize::from(v == DfpnVerdict::Proven);
        nodes += n;
        if n > 1_000_000 {
            println!("row {i} (stated {len}): {v:?}, {n} nodes");
        }
    }
    println!(
        "curated x{}: {proven} proven, {nodes} nodes in {:.2} s",
        rows.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(true)
}

#[derive(Debug, Args)]
pub struct ShortestCuratedArgs {
    /// Time limit per problem.
    #[arg(long, value_name = "S", default_value_t = 20)]
    seconds: u64,
    /// The table's size in MB (a fresh table per problem).
    #[arg(long, value_name = "MB", default_value_t = 256)]
    hash_mb: usize,
    #[command(flatten)]
    prover: ProverArgs,
}

/// df-pn's shortest lines on the curated problems: each row's stated length beside ours, the
/// rows that differ, are not shown shortest, take over a second or fail their check, and the
/// time.
pub fn shortest_curated(data: &Path, args: &ShortestCuratedArgs) -> anyhow::Result<bool> {
    let rows = curated_rows(data)?;
    let mut d = args.prover.prover(args.hash_mb);
    let t = Instant::now();
    let (mut same, mut shorter, mut longer, mut open, mut bad) = (0, 0, 0, 0, 0);
    for (i, (sfen, len)) in rows.iter().enumerate() {
        let pos = parse(sfen)?;
        d.clear();
        let t0 = Instant::now();
        let limit = Duration::from_secs(args.seconds);
        let got = d.shortest_line(&pos, &mut |_| t0.elapsed() > limit);
        let el = t0.elapsed().as_secs_f64();
        let stated: usize = len.parse().unwrap_or(0);
        let Some(s) = &got else {
            open += 1;
            println!("row {i}: stated {len}, no line in {el:.2} s");
            continue;
        };
        let check = lab::check_line(&pos, &s.line);
        bad += usize::from(check.is_err());
        let n = s.line.len();
        let exact = verify(&pos, &s.line, Claim::Answer);
        if exact.is_err() {
            println!("row {i}: {n}-ply line is not the tsume answer: {exact:?}");
        }
        if !s.shortest {
            open += 1;
        } else if n == stated {
            same += 1;
        } else if n < stated {
            shorter += 1;
        } else {
            longer += 1;
        }
        if n != stated || !s.shortest || el > 1.0 || check.is_err() {
            println!(
                "row {i}: stated {len}, got {n} (shortest {}), {} nodes, {el:.2} s, line check {check:?}",
                s.shortest, s.nodes
            );
        }
    }
    println!(
        "shortest x{}: {same} as stated, {shorter} shorter, {longer} longer, {open} not shown; {:.2} s",
        rows.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(bad == 0)
}

#[derive(Debug, Args)]
pub struct FilesArgs {
    /// Data files, comma-separated.
    #[arg(
        long,
        value_name = "FILES",
        value_delimiter = ',',
        default_value = "mate3_yaneuraou.tsv,mate5_yaneuraou.tsv,mate7_yaneuraou.tsv,mate9_yaneuraou.tsv,mate11_yaneuraou.tsv"
    )]
    files: Vec<String>,
    /// Rows per file, from the first.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    rows: usize,
}

/// `lab::shortest_against_exact` on the rows of each file: rows, exact length, longer, and
/// every row that fails.
pub fn shortest_vs_exact(data: &Path, args: &FilesArgs) -> anyhow::Result<bool> {
    let mut failed = 0;
    for file in &args.files {
        let rows = sfens(data, file, args.rows)?;
        let (mut equal, mut longer) = (0, 0);
        for sfen in &rows {
            match lab::shortest_against_exact(&parse(sfen)?) {
                Ok((len, exact)) if len == exact => equal += 1,
                Ok(_) => longer += 1,
                Err(e) => {
                    failed += 1;
                    println!("{file}: {sfen}: {e}");
                }
            }
        }
        println!("{file}: {} rows, {equal} exact length, {longer} longer", rows.len());
    }
    Ok(failed == 0)
}

/// `lab::walks_against_shortest` on the rows of each file: how often the stored and the
/// tightened walk have the length shown shortest.
pub fn tightened_walks(data: &Path, args: &FilesArgs) -> anyhow::Result<bool> {
    let mut failed = 0;
    for file in &args.files {
        let t = Instant::now();
        let rows = sfens(data, file, args.rows)?;
        let (mut stored_right, mut tightened_right) = (0, 0);
        for sfen in &rows {
            match lab::walks_against_shortest(&parse(sfen)?) {
                Ok(walks) => {
                    let Some(shortest) = walks.shortest else {
                        println!("not shown shortest: {sfen}");
                        continue;
                    };
                    stored_right += usize::from(walks.stored == shortest);
                    tightened_right += usize::from(walks.tightened == shortest);
                }
                Err(e) => {
                    failed += 1;
                    println!("{file}: {sfen}: {e}");
                }
            }
        }
        println!(
            "{file}: {} rows; shortest length from the stored walk {stored_right}, tightened {tightened_right} ({:.1} s)",
            rows.len(),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(failed == 0)
}

fn parse(sfen: &str) -> anyhow::Result<Position> {
    Position::from_sfen(sfen).map_err(|e| anyhow::anyhow!("bad SFEN {sfen}: {e}"))
}
