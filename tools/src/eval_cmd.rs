//! `soppo-tools eval`: the static evaluation of a position, group by group, to see which
//! terms make a score (for example a score far from what a stronger engine says).

use anyhow::Context;
use soppo_core::Position;
use soppo_engine::eval::classic::features::{counts, evaluate_with};
use soppo_engine::eval::classic::params::{DEFAULT_PARAMS, FINE, NUM_PARAMS, param_name};

/// One group's share of the evaluation, in centipawns, and its largest single terms.
struct Group {
    name: &'static str,
    total: f64,
    terms: Vec<(String, f64)>,
}

/// Prints the evaluation of `sfen` (side to move's view) by parameter group; with `-`, the
/// evaluation of every SFEN read from standard input, one tab-separated line each: the total,
/// then every linear group's share and the network's in centipawns (a header line names
/// them), for analysis in bulk.
pub fn run(sfen: &str, top: usize) -> anyhow::Result<()> {
    if sfen == "-" {
        return run_batch();
    }
    let pos = Position::from_sfen(sfen)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("bad SFEN")?;
    let mut groups = groups(&pos, true);
    println!("{}", pos.to_sfen());
    println!("side to move: {:?}", pos.side_to_move());
    for g in &mut groups {
        g.terms.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        let shown: Vec<String> = g
            .terms
            .iter()
            .take(top)
            .map(|(t, cp)| format!("{t} {cp:+.0}"))
            .collect();
        println!("{:>11} {:+8.0}  {}", g.name, g.total, shown.join(", "));
    }
    println!("{:>11} {:+8}", "network", network_share(&pos));
    println!("{:>11} {:+8}", "total", soppo_engine::eval::evaluate(&pos));
    Ok(())
}

/// The hidden layer's share of the evaluation: the whole evaluation less the linear sum
/// (zero in a build without a network).
fn network_share(pos: &Position) -> i32 {
    match &*soppo_engine::eval::classic::net::NET {
        Some(net) => {
            soppo_engine::eval::classic::net::evaluate_with(pos, &DEFAULT_PARAMS, net)
                - evaluate_with(pos, &DEFAULT_PARAMS)
        }
        None => 0,
    }
}

/// The evaluation of `pos` by parameter group, in parameter order; with `terms`, each group
/// also lists its nonzero single terms.
fn groups(pos: &Position, terms: bool) -> Vec<Group> {
    let c = counts(pos);
    let mut groups: Vec<Group> = Vec::new();
    for i in 0..NUM_PARAMS {
        let (name, term) = param_name(i);
        let cp = f64::from(DEFAULT_PARAMS.0[i]) * f64::from(c.0[i]) / f64::from(FINE);
        if groups.last().is_none_or(|g| g.name != name) {
            groups.push(Group {
                name,
                total: 0.0,
                terms: Vec::new(),
            });
        }
        let g = groups.last_mut().expect("a group was just pushed");
        g.total += cp;
        if terms && cp != 0.0 {
            g.terms.push((term, cp));
        }
    }
    groups
}

fn run_batch() -> anyhow::Result<()> {
    use std::io::{BufRead, Write};
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut header = false;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let sfen = line.trim();
        if sfen.is_empty() {
            continue;
        }
        let pos = Position::from_sfen(sfen)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("line {}: bad SFEN", n + 1))?;
        let groups = groups(&pos, false);
        if !header {
            let names: Vec<&str> = groups.iter().map(|g| g.name).collect();
            writeln!(out, "total\t{}\tnetwork", names.join("\t"))?;
            header = true;
        }
        let values: Vec<String> = groups.iter().map(|g| format!("{:.0}", g.total)).collect();
        writeln!(
            out,
            "{}\t{}\t{}",
            soppo_engine::eval::evaluate(&pos),
            values.join("\t"),
            network_share(&pos)
        )?;
    }
    Ok(())
}
