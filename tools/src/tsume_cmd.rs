//! `tsume "<sfen>" [--time-ms N] [--kif FILE]`: solve one mate problem and print the answer in
//! USI and in Japanese notation (and write it as KIF).

use crate::kif;
use crate::mate_cmd::{Outcome, SolveResult, millis, solve_position, verify_outcome};
use crate::perft_cmd::parse_position;
use anyhow::{Context, Result};
use soppo_core::Move;
use soppo_engine::mate::MateConfig;
use std::path::Path;
use std::time::Duration;

/// Whether a mate was found (exit code 0) or not (1).
pub fn run(sfen: &str, time_limit: Option<Duration>, config: &MateConfig, kif: Option<&Path>) -> Result<bool> {
    let pos = parse_position(sfen)?;
    let SolveResult {
        outcome,
        nodes,
        elapsed,
    } = solve_position(&pos, time_limit, config);
    let ms = millis(elapsed);
    let verified = verify_outcome(&pos, &outcome);
    let (line, what) = match outcome {
        Outcome::Mate(line) => {
            println!("mate in {} ({ms}, {nodes} nodes)", line.len());
            (line, "solution")
        }
        Outcome::Shortest(line) => {
            println!(
                "shortest mate in {} ({ms}, {nodes} nodes), shown by df-pn: every interposition not shown useless is counted",
                line.len()
            );
            (line, "solution")
        }
        Outcome::Proven(line) => {
            println!(
                "proven mate, line of {} plies ({ms}, {nodes} nodes); not shown shortest in the time given",
                line.len()
            );
            (line, "line")
        }
        Outcome::NoMate => {
            println!("checkmate nomate ({ms}, {nodes} nodes)");
            return Ok(false);
        }
        Outcome::Timeout => {
            println!("checkmate timeout ({ms}, {nodes} nodes)");
            return Ok(false);
        }
    };
    println!("{}", usi_line(&line));
    println!("{}", kif::japanese(&pos, &line).join(" "));
    if let Some(path) = kif {
        let comment = format!("soppo-tools tsume: {what}, {} plies", line.len());
        let text = soppo_kifu::write_kif(&pos, &line, &[], &[comment]);
        let name = path.to_string_lossy();
        std::fs::write(path, soppo_kifu::kif_file_bytes(&text, &name))
            .with_context(|| format!("cannot write {name}"))?;
    }
    if let Err(why) = verified {
        println!("warning: the {what} does not verify: {why}");
    }
    Ok(true)
}

/// Moves in USI, separated by spaces.
pub fn usi_line(line: &[Move]) -> String {
    line.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}
