//! `perft --suite FILE [--max-nodes N]`: known perft counts from a TSV file.

use crate::perft_cmd::{mnps, parse_position};
use anyhow::{Context, Result, bail};
use soppo_core::perft::perft;
use soppo_train::{progress, tsv};
use std::path::Path;
use std::time::Instant;

/// One suite row: `sfen<TAB>depth<TAB>nodes[<TAB>note]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based line number in the file.
    pub line: usize,
    pub sfen: String,
    pub depth: u32,
    pub nodes: u64,
}

/// A line of the file: a row, or the reason it could not be read.
pub type Parsed = std::result::Result<Row, (usize, String)>;

/// Splits a suite file into rows, skipping blank lines and `#` comments.
pub fn parse_suite(text: &str) -> Vec<Parsed> {
    tsv::rows(text)
        .map(|row| {
            let (line, cols) = (row.line, &row.cols);
            if cols.len() < 3 {
                return Err((
                    line,
                    format!("expected sfen<TAB>depth<TAB>nodes, found {} column(s)", cols.len()),
                ));
            }
            let depth = cols[1]
                .parse::<u32>()
                .map_err(|e| (line, format!("bad depth `{}`: {e}", cols[1])))?;
            let nodes = cols[2]
                .parse::<u64>()
                .map_err(|e| (line, format!("bad node count `{}`: {e}", cols[2])))?;
            Ok(Row {
                line,
                sfen: cols[0].to_string(),
                depth,
                nodes,
            })
        })
        .collect()
}

/// Totals of a suite run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// Runs every row (rows above `max_nodes` are skipped) and prints a mismatch report and the
/// closing line `perft suite: P passed, F failed, S skipped`.
pub fn run_suite(path: &Path, max_nodes: Option<u64>) -> Result<Summary> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read suite file {}", path.display()))?;
    let rows = parse_suite(&text);
    if rows.is_empty() {
        bail!("suite file {} has no rows", path.display());
    }
    let limit = max_nodes.unwrap_or(u64::MAX);
    let mut summary = Summary::default();
    let mut failures: Vec<String> = Vec::new();

    let to_run: Vec<&Parsed> = rows
        .iter()
        .filter(|r| r.as_ref().map_or(true, |row| row.nodes <= limit))
        .collect();
    summary.skipped = rows.len() - to_run.len();
    let work: u64 = to_run
        .iter()
        .map(|r| r.as_ref().map_or(1, |row| row.nodes.max(1)))
        .sum();

    let pb = progress::with_template(
        work,
        "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% eta {eta} {msg}",
    );
    let start = Instant::now();
    let mut searched: u64 = 0;
    for (i, parsed) in to_run.iter().enumerate() {
        let (weight, report) = match parsed {
            Err((line, reason)) => (1, Some(format!("line {line}: unreadable row: {reason}"))),
            Ok(row) => {
                pb.set_message(format!(
                    "row {}/{} (line {}) depth {}",
                    i + 1,
                    to_run.len(),
                    row.line,
                    row.depth
                ));
                let weight = row.nodes.max(1);
                match parse_position(&row.sfen) {
                    Err(e) => (
                        weight,
                        Some(format!(
                            "line {}: sfen {} depth {}: {e:#}",
                            row.line, row.sfen, row.depth
                        )),
                    ),
                    Ok(mut pos) => {
                        let got = perft(&mut pos, row.depth);
                        searched += got;
                        if got == row.nodes {
                            (weight, None)
                        } else {
                            let msg = format!(
                                "line {}: MISMATCH sfen {} depth {} expected {} got {}",
                                row.line, row.sfen, row.depth, row.nodes, got
                            );
                            (weight, Some(msg))
                        }
                    }
                }
            }
        };
        match report {
            None => summary.passed += 1,
            Some(msg) => {
                summary.failed += 1;
                pb.suspend(|| eprintln!("{msg}"));
                failures.push(msg);
            }
        }
        pb.inc(weight);
    }
    pb.finish_and_clear();
    let elapsed = start.elapsed();

    if !failures.is_empty() {
        println!();
        println!("{} failure(s):", failures.len());
        for f in &failures {
            println!("  {f}");
        }
    }
    eprintln!(
        "Time: {:.3} s, {} nodes, {:.2} Mnps",
        elapsed.as_secs_f64(),
        searched,
        mnps(searched, elapsed)
    );
    println!(
        "perft suite: {} passed, {} failed, {} skipped",
        summary.passed, summary.failed, summary.skipped
    );
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows_comments_and_errors() {
        let text = "# comment\n\nstartpos\t1\t30\tnote\nstartpos\tx\t30\nstartpos\t2\n";
        let rows = parse_suite(text);
        assert_eq!(rows.len(), 3);
        assert_eq!(
            rows[0],
            Ok(Row {
                line: 3,
                sfen: "startpos".into(),
                depth: 1,
                nodes: 30
            })
        );
        assert!(matches!(rows[1], Err((4, _))));
        assert!(matches!(rows[2], Err((5, _))));
    }
}
