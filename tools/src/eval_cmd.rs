//! `soppo-tools eval`: the static evaluation of a position, group by group, to see which
//! terms make a score (for example a score far from what a stronger engine says).

use anyhow::Context;
use soppo_core::Position;
use soppo_engine::eval::features::counts;
use soppo_engine::eval::params::{DEFAULT_PARAMS, FINE, NUM_PARAMS, param_name};

/// One group's share of the evaluation, in centipawns, and its largest single terms.
struct Group {
    name: &'static str,
    total: f64,
    terms: Vec<(String, f64)>,
}

/// Prints the evaluation of `sfen` (side to move's view) by parameter group.
pub fn run(sfen: &str, top: usize) -> anyhow::Result<()> {
    let pos = Position::from_sfen(sfen)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("bad SFEN")?;
    let c = counts(&pos);
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
        if cp != 0.0 {
            g.terms.push((term, cp));
        }
    }
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
    println!("{:>11} {:+8}", "total", soppo_engine::eval::evaluate(&pos));
    Ok(())
}
