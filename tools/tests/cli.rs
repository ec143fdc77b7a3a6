//! End-to-end tests of the `soppo-tools` binary.

mod common;

use common::{TempFile, last_line, run, stdout_of, tools};
use std::path::Path;
use std::process::Output;

/// `soppo-tools perft --suite FILE ARGS…`.
fn run_suite(file: &Path, args: &[&str]) -> Output {
    tools()
        .args(["perft", "--suite"])
        .arg(file)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn startpos_depth_3() {
    let out = run(["perft", "--sfen", "startpos", "--depth", "3"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(last_line(&stdout_of(&out)), "Nodes searched: 25470");
}

#[test]
fn full_sfen_is_accepted() {
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let out = run(["perft", "--sfen", sfen, "--depth", "2"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(last_line(&stdout_of(&out)), "Nodes searched: 900");
}

#[test]
fn divide_sums_to_total() {
    let out = run(["perft", "--sfen", "startpos", "--depth", "3", "--divide"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    let last = *lines.last().unwrap();
    let total: u64 = last
        .strip_prefix("Nodes searched: ")
        .expect("last line is the total")
        .parse()
        .unwrap();
    assert_eq!(total, 25470);
    // Root moves, then one blank line, then the total.
    assert_eq!(lines[lines.len() - 2], "");
    let rows = &lines[..lines.len() - 2];
    assert_eq!(rows.len(), 30, "one line per root move");
    let mut names = Vec::new();
    let mut sum = 0u64;
    for row in rows {
        let (mv, count) = row
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad divide line `{row}`"));
        names.push(mv.to_string());
        sum += count.parse::<u64>().unwrap();
    }
    assert_eq!(sum, total);
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "divide lines are sorted by move text");
    assert!(names.contains(&"7g7f".to_string()));
}

#[test]
fn bad_sfen_is_a_clean_error() {
    for bad in [
        "not an sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "",
    ] {
        let out = run(["perft", "--sfen", bad, "--depth", "2"]);
        assert!(!out.status.success(), "`{bad}` was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("SFEN"), "no message for `{bad}`: {err}");
        assert!(!err.contains("panicked"), "panic for `{bad}`: {err}");
    }
}

#[test]
fn missing_arguments_are_a_clean_error() {
    let out = run(["perft", "--depth", "2"]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn suite_reports_passes_and_failures() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let suite = format!(
        "# a comment\n\n{start}\t1\t30\tstart d1\n{start}\t2\t900\tstart d2\nstartpos\t3\t25470\tstart d3\n{start}\t2\t901\tdeliberately wrong\n"
    );
    let file = TempFile::new("suite_mixed.tsv", &suite);
    let out = run_suite(file.path(), &[]);
    assert!(!out.status.success(), "a failed row must give a non-zero exit: {out:?}");
    let text = stdout_of(&out);
    assert!(
        last_line(&text).starts_with("perft suite: 3 passed, 1 failed"),
        "{text}"
    );
    assert!(text.contains("expected 901 got 900"), "mismatch report: {text}");
}

#[test]
fn suite_skips_large_rows_and_flags_bad_sfens() {
    let suite = "startpos\t1\t30\nstartpos\t3\t25470\nnonsense b - 1\t1\t5\n";
    let file = TempFile::new("suite_skip.tsv", suite);
    let out = run_suite(file.path(), &["--max-nodes", "1000"]);
    assert!(!out.status.success());
    let text = stdout_of(&out);
    assert_eq!(last_line(&text), "perft suite: 1 passed, 1 failed, 1 skipped", "{text}");
    assert!(text.contains("nonsense"), "{text}");
}

#[test]
fn suite_all_passing_exits_zero() {
    let file = TempFile::new("suite_ok.tsv", "startpos\t1\t30\nstartpos\t2\t900\n");
    let out = run_suite(file.path(), &[]);
    assert!(out.status.success(), "{out:?}");
    assert!(last_line(&stdout_of(&out)).starts_with("perft suite: 2 passed, 0 failed"));
}

#[test]
fn missing_suite_file_is_a_clean_error() {
    let out = run(["perft", "--suite", "/nonexistent/soppo/suite.tsv"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read suite file"), "{err}");
}
