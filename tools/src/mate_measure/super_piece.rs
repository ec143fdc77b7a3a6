//! The exact search with the super piece on and off: the same answers (length and line), and
//! the nodes each way.

use super::data_rows;
use super::generated::interposition_heavy_set;
use clap::Args;
use soppo_core::{Move, Position};
use soppo_engine::mate::lab::{ExactAnswer, as_tsume, distant_drop_checks, exact_answer};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line switches")]
pub struct SuperPieceArgs {
    /// Data files, comma-separated.
    #[arg(
        long,
        value_name = "FILES",
        value_delimiter = ',',
        default_value = "mudaai6.tsv,mate_curated.tsv"
    )]
    files: Vec<String>,
    /// Rows per file, from the first.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    rows: usize,
    /// Longest mate looked for, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 15)]
    max_plies: i32,
    /// Nodes per problem and mode at most.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    budget: u64,
    /// Keep only problems without the attacker's king.
    #[arg(long)]
    tsume_only: bool,
    /// Turn every row into a tsume problem first (the attacker's king leaves, the defender
    /// holds every piece left).
    #[arg(long)]
    as_tsume: bool,
    /// Print every row, not only the interposition-heavy ones (at least three checks of the
    /// answer answerable by a drop between) and those whose answers differ.
    #[arg(long)]
    verbose: bool,
}

/// An answer's length and line, for display.
fn show(a: Option<&(i32, Vec<Move>)>) -> String {
    a.map_or("-".to_string(), |(l, line)| {
        format!(
            "{l}: {}",
            line.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        )
    })
}

/// The exact answer and the milliseconds it took.
fn timed_answer(pos: &Position, super_piece: bool, max_plies: i32, budget: u64) -> (ExactAnswer, f64) {
    let t = Instant::now();
    let answer = exact_answer(pos, super_piece, max_plies, budget);
    (answer, t.elapsed().as_secs_f64() * 1e3)
}

/// Super piece on vs off on every row of the files and on the interposition-heavy ones: rows
/// answered both ways, rows that differ, nodes each way; the median ratio on the heavy rows;
/// the time. Fails if an answer differs.
#[allow(clippy::cast_precision_loss)]
pub fn on_files(data: &Path, args: &SuperPieceArgs) -> anyhow::Result<bool> {
    let mut times = [0.0f64; 2];
    // [all rows, heavy rows]: (answered both ways, differing, nodes on, nodes off)
    let mut sums = [(0usize, 0usize, 0u64, 0u64); 2];
    let mut ratios: Vec<f64> = Vec::new();
    for file in &args.files {
        for row in data_rows(data, file)?.into_iter().take(args.rows) {
            let sfen = row.first().map_or("", String::as_str);
            let converted;
            let sfen = if args.as_tsume {
                let Some(t) = as_tsume(sfen) else { continue };
                converted = t;
                converted.as_str()
            } else {
                sfen
            };
            let Ok(pos) = Position::from_sfen(sfen) else {
                continue;
            };
            if args.tsume_only && pos.king_square(pos.side_to_move()).is_some() {
                continue;
            }
            let (off, off_ms) = timed_answer(&pos, false, args.max_plies, args.budget);
            let Some((_, off_line)) = &off.mate else { continue };
            let heavy = distant_drop_checks(&pos, off_line) >= 3;
            let (on, on_ms) = timed_answer(&pos, true, args.max_plies, args.budget);
            times[0] += on_ms;
            times[1] += off_ms;
            let same = on.mate == off.mate;
            for (i, s) in sums.iter_mut().enumerate() {
                if i == 0 || heavy {
                    s.0 += 1;
                    s.1 += usize::from(!same);
                    s.2 += on.nodes;
                    s.3 += off.nodes;
                }
            }
            let ratio = off.nodes as f64 / on.nodes.max(1) as f64;
            if heavy {
                ratios.push(ratio);
            }
            if heavy || !same || args.verbose {
                println!(
                    "{file}\t{sfen}\ton {} ({on_ms:.1} ms)\toff {} ({off_ms:.1} ms)\t{ratio:.2}x\t{}{}",
                    on.nodes,
                    off.nodes,
                    show(on.mate.as_ref()),
                    if same {
                        String::new()
                    } else {
                        format!("\tDIFFERS off {}", show(off.mate.as_ref()))
                    }
                );
            }
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
    for (name, s) in ["all rows", "interposition-heavy rows"].iter().zip(sums) {
        println!(
            "super piece, {name}: {} answered both ways, {} differ; nodes on {} off {} ({:.2}x fewer)",
            s.0,
            s.1,
            s.2,
            s.3,
            s.3 as f64 / s.2.max(1) as f64
        );
    }
    println!("heavy rows: median ratio {median:.2}x over {}", ratios.len());
    println!("time: on {:.0} ms, off {:.0} ms", times[0], times[1]);
    Ok(sums[0].1 == 0)
}

#[derive(Debug, Args)]
pub struct GeneratedArgs {
    /// Seed of the generated set.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Problems generated.
    #[arg(long, value_name = "N", default_value_t = 100)]
    count: usize,
    /// Longest mate looked for, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 13)]
    max_plies: i32,
    /// Nodes per problem and mode at most.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    budget: u64,
    /// Read the set from this file of `SFEN<TAB>length` lines instead of generating it (which
    /// takes minutes); further columns and other lines are skipped, so a saved printout of an
    /// earlier run will do.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Super piece on vs off on the generated set: same answers (length and line), nodes each way,
/// the median and spread of the per-problem ratio. Every problem is printed (SFEN, length,
/// nodes on and off). Fails if an answer differs.
#[allow(clippy::cast_precision_loss)]
pub fn generated(args: &GeneratedArgs) -> anyhow::Result<bool> {
    let t = Instant::now();
    let set = if let Some(file) = &args.file {
        let text = std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
        let set: Vec<(String, i32)> = text
            .lines()
            .filter_map(|l| {
                let mut columns = l.split('\t');
                let sfen = columns.next()?;
                Some((sfen.to_string(), columns.next()?.trim().parse().ok()?))
            })
            .collect();
        println!("read {} problems from {}", set.len(), file.display());
        set
    } else {
        let (set, tried) = interposition_heavy_set(args.seed, args.count, args.max_plies, 300_000);
        println!(
            "generated {} interposition-heavy problems from {tried} candidates in {:.1} s",
            set.len(),
            t.elapsed().as_secs_f64()
        );
        set
    };
    let (mut on_sum, mut off_sum, mut differ) = (0u64, 0u64, 0usize);
    let (mut on_ms, mut off_ms) = (0.0, 0.0);
    let mut ratios = Vec::new();
    for (sfen, len) in &set {
        let pos = Position::from_sfen(sfen).map_err(|e| anyhow::anyhow!("bad SFEN {sfen}: {e}"))?;
        let (off, ms) = timed_answer(&pos, false, args.max_plies, args.budget);
        off_ms += ms;
        let (on, ms) = timed_answer(&pos, true, args.max_plies, args.budget);
        on_ms += ms;
        let same = on.mate == off.mate;
        differ += usize::from(!same);
        on_sum += on.nodes;
        off_sum += off.nodes;
        let ratio = off.nodes as f64 / on.nodes.max(1) as f64;
        ratios.push(ratio);
        println!(
            "{sfen}\t{len}\ton {}\toff {}\t{ratio:.2}x{}",
            on.nodes,
            off.nodes,
            if same { "" } else { "\tDIFFERS" }
        );
    }
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| {
        ratios
            .get(((ratios.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    println!(
        "super piece, generated set (seed {}): {} problems, {differ} differ; nodes on {on_sum} off {off_sum} ({:.2}x fewer); per problem: min {:.2}x, quartiles {:.2}x / {:.2}x / {:.2}x, max {:.2}x; time on {on_ms:.0} ms, off {off_ms:.0} ms",
        args.seed,
        set.len(),
        off_sum as f64 / on_sum.max(1) as f64,
        at(0.0),
        at(0.25),
        at(0.5),
        at(0.75),
        at(1.0)
    );
    Ok(differ == 0)
}
