//! End-to-end tests of `soppo-tools fit-mate3`: a tiny typed-in data directory (always), and
//! the shared data (skipped with a message when `../shared/data` is missing).

use std::path::Path;
use std::process::Output;

mod common;

use common::{TempDir, last_line, shared_data_with, stdout_of, tools};

/// `soppo-tools fit-mate3 --data DIR ARGS…`.
fn fit(dir: &Path, args: &[&str]) -> Output {
    tools()
        .arg("fit-mate3")
        .arg("--data")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

/// The numbers of the summary line: positions, then the four percentages (`None` for `-%`,
/// undefined).
fn summary_numbers(line: &str) -> (usize, Vec<Option<f64>>) {
    let rest = line
        .strip_prefix("fit-mate3: ")
        .unwrap_or_else(|| panic!("bad summary: {line}"));
    let (n, rest) = rest.split_once(" positions, mate precision ").unwrap();
    assert!(
        rest.contains("(F>=60), no-mate precision") && rest.ends_with("(F<=20)"),
        "{line}"
    );
    let pcts: Vec<Option<f64>> = rest
        .split_whitespace()
        .filter_map(|t| t.strip_suffix('%'))
        .map(|t| t.parse().ok())
        .collect();
    assert_eq!(pcts.len(), 4, "{line}");
    (n.parse().unwrap(), pcts)
}

/// The tiny data set in a directory of its own (`name` keeps tests running in parallel apart).
fn tiny_data_dir(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    // Games: a mate in 1 followed by a quiet king move, and the start of a real opening.
    dir.write(
        "games_lishogi500.tsv",
        "sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves 5i5h 5a4a\t2\tnot-mate\t-\n\
         startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e\t6\tnot-mate\t-\n",
    );
    dir.write(
        "mate3_yaneuraou.tsv",
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42\t3\t-\tnote\n",
    );
    dir.write(
        "mate_curated.tsv",
        "# comment\n3sks3/9/4S4/9/9/8B/9/9/9 b S 1\t3\t-\tnote\n4k4/9/4P4/9/9/9/9/9/9 b G 1\t1\tG*5b\tnot a 3\n",
    );
    dir.write(
        "mate1_nshogi.tsv",
        "4k4/9/4P4/9/9/9/9/9/9 b G 1\t1\t-\tnote\n8k/9/7GP/9/9/9/9/9/K8 b G 1\t1\t-\tnote\n",
    );
    dir
}

#[test]
fn fit_on_a_tiny_data_dir() {
    let dir = tiny_data_dir("tiny");
    let out = fit(dir.path(), &["--folds", "2", "--seed", "3"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    // The game positions are labelled by the exact search; the tsume and mate-in-1 rows are
    // taken as stated (the curated row stated 1 is not a 3-ply tsume and is left out).
    assert!(text.contains("tsume (3-ply, target 90): 2 rows, 0 skipped"), "{text}");
    assert!(text.contains("mate in 1 (target 100): 2 rows, 0 skipped"), "{text}");
    assert!(
        text.contains("pub const FITTED: Mate3Weights = Mate3Weights {"),
        "{text}"
    );
    assert!(text.contains("hand rook"), "{text}");
    let (n, pcts) = summary_numbers(last_line(&text));
    assert!(n >= 6, "{text}");
    assert!(pcts.iter().flatten().all(|p| (0.0..=100.0).contains(p)), "{text}");
    // Same seed, same output.
    let again = fit(dir.path(), &["--folds", "2", "--seed", "3"]);
    assert_eq!(stdout_of(&again), text);
}

#[test]
fn bad_arguments_are_clean_errors() {
    let out = fit(Path::new("/nonexistent/soppo/data"), &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error:") && err.contains("not found"), "{err}");
    let dir = tiny_data_dir("tiny-bad-folds");
    let out = fit(dir.path(), &["--folds", "1"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn fit_on_the_shared_data() {
    let Some(data) = shared_data_with("games_lishogi500.tsv") else {
        return;
    };
    // Labelling all ~39 000 game positions with the exact search takes well under a second.
    let out = fit(&data, &[]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    // One row per fold (default 10), then the mean.
    let fold_rows = text
        .lines()
        .filter(|l| l.contains('|') && l.split_whitespace().next().is_some_and(|t| t.parse::<usize>().is_ok()))
        .count();
    assert_eq!(fold_rows, 10, "{text}");
    assert!(text.lines().any(|l| l.starts_with("mean ")), "{text}");
    let (n, pcts) = summary_numbers(last_line(&text));
    assert!(n > 5000, "{text}");
    // Mate precision and no-mate precision stay high, as in the paper.
    assert!(pcts[0].unwrap() > 90.0 && pcts[2].unwrap() > 95.0, "{text}");
}
