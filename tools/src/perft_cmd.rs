//! `perft --sfen ... --depth N [--divide]`.

use anyhow::{Context, Result};
use soppo_core::Position;
use soppo_core::perft::{divide, perft};
use std::time::{Duration, Instant};

/// Parses an SFEN given on the command line: `startpos`, or an SFEN with an optional leading
/// `sfen ` (as in the USI `position` command).
pub fn parse_position(text: &str) -> Result<Position> {
    let trimmed = text.trim();
    let body = trimmed.strip_prefix("sfen ").unwrap_or(trimmed);
    Position::from_sfen(body).with_context(|| format!("cannot parse SFEN `{trimmed}`"))
}

/// Millions of nodes per second (0 when no time was measured).
#[allow(
    clippy::cast_precision_loss,
    reason = "a rate for display: 52 bits of mantissa are plenty"
)]
pub fn mnps(nodes: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 { nodes as f64 / secs / 1e6 } else { 0.0 }
}

/// Runs one perft and prints the result; the last stdout line is `Nodes searched: N`.
pub fn run_single(sfen: &str, depth: u32, show_divide: bool) -> Result<()> {
    let mut pos = parse_position(sfen)?;
    let start = Instant::now();
    let total = if show_divide {
        let mut rows: Vec<(String, u64)> = divide(&mut pos, depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        rows.sort();
        // Depth 0 has no root moves: the count is the root itself.
        let total = if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        };
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        println!();
        total
    } else {
        perft(&mut pos, depth)
    };
    let elapsed = start.elapsed();
    eprintln!("Time: {:.3} s, {:.2} Mnps", elapsed.as_secs_f64(), mnps(total, elapsed));
    println!("Nodes searched: {total}");
    Ok(())
}
