//! End-to-end tests of `soppo-tools tsume` and `soppo-tools mate`.

use soppo_core::Position;

mod common;

use common::{TempFile, last_line, run, run_on, shared_data_with, stdout_of};

const MATE1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
/// The first problem of `mate3_yaneuraou.tsv` (White attacks).
const MATE3: &str = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
const NO_MATE: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";

#[test]
fn tsume_one_ply() {
    let out = run(["tsume", MATE1]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"G*5b"), "{text}");
    assert!(lines.contains(&"▲５二金"), "{text}");
}

#[test]
fn tsume_three_ply() {
    let out = run(["tsume", MATE3, "--time-ms", "20000"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0].split(' ').take(3).collect::<Vec<_>>(),
        ["mate", "in", "3"],
        "{text}"
    );
    // The USI line is a mate (checked here with the rules core) ...
    let pos = Position::from_sfen(MATE3).unwrap();
    let mut p = pos.clone();
    let usi: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(usi.len(), 3, "{text}");
    for (i, t) in usi.iter().enumerate() {
        let m = p.parse_move(t).unwrap();
        assert!(p.is_legal_move(m), "{t} illegal");
        if i % 2 == 0 {
            assert!(p.gives_check(m), "{t} is no check");
        }
        p.do_move(m);
    }
    assert!(p.is_checkmate(), "{text}");
    // ... and the Japanese line has three moves, White (△) first.
    let jp: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(jp.len(), 3, "{text}");
    assert!(
        jp[0].starts_with('△') && jp[1].starts_with('▲') && jp[2].starts_with('△'),
        "{text}"
    );
    // The answer is unique: B*5g, the only reply 4h5h, the only mate 7i6i.
    assert_eq!(lines[1], "B*5g 4h5h 7i6i", "{text}");
    assert_eq!(lines[2], "△５七角 ▲５八玉 △６九馬", "{text}");
}

#[test]
fn tsume_no_mate_exits_1() {
    let out = run(["tsume", NO_MATE, "--time-ms", "5000"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stdout_of(&out).starts_with("checkmate nomate"), "{out:?}");
}

#[test]
fn tsume_bad_sfen_is_a_clean_error() {
    let out = run(["tsume", "not a position"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn mate_suite_reports_mismatches() {
    let tsv = format!(
        "# typed-in problems\n{MATE1}\t1\tG*5b\tone\n\n{MATE3}\t3\t-\tthree\n{MATE3}\t1\t-\twrong on purpose\n"
    );
    let file = TempFile::new("suite.tsv", &tsv);
    let out = run_on("mate", file.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = stdout_of(&out);
    assert_eq!(last_line(&text), "mate suite: 2 passed, 1 failed", "{text}");
    assert!(text.contains("line 5:"), "{text}");
    assert!(text.contains("stated 1  got mate 3"), "{text}");
}

#[test]
fn mate_suite_nomate_rows_and_plain_sfen() {
    let tsv = format!("{NO_MATE}\tnomate\t-\n{MATE3}\tnomate<=1\t-\n{MATE1}\tnomate\t-\tdisputed\n");
    let file = TempFile::new("nomate.tsv", &tsv);
    let out = run_on("mate", file.path(), &["--time-ms", "5000"]);
    assert_eq!(last_line(&stdout_of(&out)), "mate suite: 2 passed, 1 failed", "{out:?}");
    let out = run_on("mate", file.path(), &["--time-ms", "5000", "--skip-stated-nomate"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(last_line(&stdout_of(&out)), "mate suite: 0 passed, 0 failed", "{out:?}");

    let plain = TempFile::new("plain.sfen", &format!("{MATE1}\nsfen {MATE3}\n# comment\n"));
    let out = run_on("mate", plain.path(), &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(last_line(&stdout_of(&out)), "mate suite: 2 passed, 0 failed", "{out:?}");
    let out = run_on("mate", plain.path(), &["--limit", "1"]);
    assert_eq!(last_line(&stdout_of(&out)), "mate suite: 1 passed, 0 failed", "{out:?}");
}

#[test]
fn mate_missing_file_is_a_clean_error() {
    let out = run(["mate", "/nonexistent/soppo/problems.tsv"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn mate3_data_first_50() {
    let Some(data) = shared_data_with("mate3_yaneuraou.tsv") else {
        return;
    };
    let out = run_on("mate", &data.join("mate3_yaneuraou.tsv"), &["--limit", "50"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        last_line(&stdout_of(&out)),
        "mate suite: 50 passed, 0 failed",
        "{out:?}"
    );
}
