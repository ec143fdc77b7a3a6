//! End-to-end tests of `soppo-tools mate-measure` on tiny inputs.

use std::path::PathBuf;

mod common;

use common::{TempFile, stdout_of, tools};

const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// A YaneuraOu 5-ply sample with a 3-ply mate, which df-pn's first proof does not find.
const SHORTER_THAN_STATED: &str = "ln6+P/2sk1G3/p1ppn2pp/5BP2/9/2N6/P1PPPP2P/1SG6/LN1KR+r3 w 2G2L5Pb2s 72";
/// Two problems where interpositions abound, with their lengths (`SFEN<TAB>length` lines).
const INTERPOSITIONS: &str = "k8/p8/2N6/2N6/9/9/9/9/8R b r2b4g4s2n4l17p 1\t1\n\
                              9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1\t3\n";

#[test]
fn prove_reports_the_verdict_and_a_checked_line() {
    let out = tools()
        .args([
            "mate-measure",
            "prove",
            MATE1,
            "--hash-mb",
            "16",
            "--seconds",
            "10",
            "--phases",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains(": Proven in "), "{text}");
    assert!(text.contains("mate line Some(1) plies, check Some(Ok(()))"), "{text}");
}

#[test]
fn shortest_comes_down_to_the_shorter_mate() {
    let out = tools()
        .args([
            "mate-measure",
            "shortest",
            SHORTER_THAN_STATED,
            "--hash-mb",
            "16",
            "--seconds",
            "20",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    // (line, shortest, bound, nodes, check)
    assert!(
        text.contains("shortest: (line, shortest, bound, nodes, check) Some((3, true, 3, "),
        "{text}"
    );
    assert!(text.contains("Ok(()))) in "), "{text}");
}

#[test]
fn super_piece_on_a_file_of_problems_answers_alike() {
    let file = TempFile::new("interpositions.tsv", INTERPOSITIONS);
    let out = tools()
        .args(["mate-measure", "super-piece-generated", "--file"])
        .arg(file.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains("read 2 problems from"), "{text}");
    assert!(text.contains(": 2 problems, 0 differ;"), "{text}");
    // The data-file form takes an absolute path as it is.
    let out = tools()
        .args(["mate-measure", "super-piece", "--verbose", "--files"])
        .arg(file.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(
        text.contains("super piece, all rows: 2 answered both ways, 0 differ"),
        "{text}"
    );
}

#[test]
fn a_missing_data_file_is_a_clean_error() {
    let out = tools()
        .args([
            "mate-measure",
            "rows",
            "--data",
            "/nonexistent",
            "--file",
            "mate11_yaneuraou.tsv",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot read /nonexistent/mate11_yaneuraou.tsv"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// The shared data directory, if it is there (`$SOPPO_SHARED_DATA`, else beside the checkout).
fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("SOPPO_SHARED_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
        PathBuf::from,
    );
    if dir.join("mudaai6.tsv").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: shared data not found at {} (set SOPPO_SHARED_DATA)",
            dir.display()
        );
        None
    }
}

#[test]
fn shortest_vs_exact_on_the_useless_interposition_set() {
    let Some(data) = shared_data() else { return };
    let out = tools()
        .args(["mate-measure", "shortest-vs-exact", "--files", "mudaai6.tsv", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains("mudaai6.tsv: 6 rows, "), "{text}");
}
