//! A short fuzz run against the real binary (see `soppo_tests::fuzz`): 20,000 random and
//! mutated GUI lines, every `go` answered exactly once and legally, `readyok` after every batch.
//! The randomness is seeded from the clock and printed; set `SOPPO_TEST_SEED` to replay a run.
//! Long runs: `cargo run --release -p soppo-tests --bin usi-fuzz -- --lines 1000000`.

use soppo_tests::engine::test_seed;
use soppo_tests::fuzz::{self, FuzzConfig};

#[test]
fn random_and_mutated_lines_never_break_the_engine() {
    let seed = test_seed();
    println!("seed {seed} (SOPPO_TEST_SEED={seed} replays this run)");
    let config = FuzzConfig {
        lines: 20_000,
        batch: 200,
        lines_per_session: 10_000,
        seed,
    };
    let report = fuzz::run(&config, |_| {});
    println!("{report:?}");
    assert_eq!(report.lines, config.lines);
    assert_eq!(report.batches, 100);
    assert!(report.gos > 1000, "{report:?}");
    assert!(report.mutated > report.lines / 2, "{report:?}");
}
