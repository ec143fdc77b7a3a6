//! `usi-fuzz`: the long fuzz run of the USI front end and controller (see `soppo_tests::fuzz`),
//! against the release `soppo` (built first unless `SOPPO_BIN` names one).

use clap::Parser;
use soppo_tests::fuzz::{self, FuzzConfig};

/// Feeds random and mutated GUI lines to the real engine and checks every answer.
#[derive(Parser)]
struct Args {
    /// Lines to send.
    #[arg(long, default_value_t = 1_000_000)]
    lines: u64,
    /// Lines between the `stop` + `isready` checks.
    #[arg(long, default_value_t = 200)]
    batch: usize,
    /// Lines per engine process.
    #[arg(long, default_value_t = 50_000)]
    lines_per_session: u64,
    /// Random seed (a run is replayed by its seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args = Args::parse();
    let config = FuzzConfig {
        lines: args.lines,
        batch: args.batch.max(1),
        lines_per_session: args.lines_per_session.max(1),
        seed: args.seed,
    };
    let mut last_tenth = 0;
    let report = fuzz::run(&config, |r| {
        let tenth = r.lines * 10 / config.lines.max(1);
        if tenth != last_tenth {
            last_tenth = tenth;
            eprintln!(
                "{} lines ({} mutated), {} go answered, {} batches, {} sessions, {:.0} s",
                r.lines,
                r.mutated,
                r.gos,
                r.batches,
                r.sessions,
                r.elapsed.as_secs_f64()
            );
        }
    });
    println!(
        "usi-fuzz: seed {}: {} lines ({} mutated or raw), {} go commands each answered once and legally, readyok after all {} batches, {} engine processes, {:.0} s",
        config.seed,
        report.lines,
        report.mutated,
        report.gos,
        report.batches,
        report.sessions,
        report.elapsed.as_secs_f64()
    );
}
