//! End-to-end tests of `soppo-tools tune-eval`: a tiny typed-in game file (always), and the
//! shared lishogi games (skipped with a message when `../shared/data` is missing).

use std::path::Path;

mod common;

use common::{TempFile, last_line, run_on, shared_data_with, stdout_of};

/// The numbers of the summary line: positions, K, training loss before and after, held-out
/// loss before and after (`NaN` when nothing is held out).
fn summary(line: &str) -> (usize, f64, [f64; 4]) {
    let rest = line
        .strip_prefix("tune-eval: ")
        .unwrap_or_else(|| panic!("bad summary: {line}"));
    let (n, rest) = rest.split_once(" positions, K ").unwrap();
    let (k, rest) = rest.split_once(", training loss ").unwrap();
    let (train, held_out) = rest.split_once(", held-out loss ").unwrap();
    let pair = |s: &str| -> [f64; 2] {
        let (a, b) = s.split_once(" -> ").unwrap_or_else(|| panic!("bad summary: {line}"));
        [a.parse().unwrap(), b.parse().unwrap()]
    };
    let [t0, t1] = pair(train);
    let [h0, h1] = pair(held_out);
    (n.parse().unwrap(), k.parse().unwrap(), [t0, t1, h0, h1])
}

/// Short games whose results follow the material: the side that wins material wins.
const TINY_GAMES: &str = "\
# bishop exchange, then Black wins a pawn with the dropped bishop; Black won
startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 8c8d 4e3d 8d8e 3d4e 8e8f 8g8f 8b8f\t12\tblack\t-
# the same, White won (a contradicting label keeps the fit honest)
startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 8c8d 4e3d 8d8e 3d4e 8e8f\t10\twhite\t-
# rook pawns exchanged, rook for bishop; White won
startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d2b+ 3a2b\t12\tgote\t-
# a mate: White is mated in the final position
sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2r 1 moves 5i4h R*1a 4h5h R*9a G*5b\t5\tcheckmate\t-
# White drops rooks and wins
sfen 4k4/9/9/9/9/9/9/9/4K4 b P2r 1 moves 5i5h R*5e 5h4h R*4e 4h3h\t5\twhite\t-
# a game without a stated winner: skipped by default
startpos moves 7g7f 3c3d\t2\tnot-mate\t-
";

#[test]
fn tuning_a_tiny_set_lowers_the_loss() {
    let games = TempFile::new("tune-tiny.tsv", TINY_GAMES);
    let out = run_on(
        "tune-eval",
        games.path(),
        &["--skip-plies", "0", "--holdout", "0", "--epochs", "50"],
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(
        text.contains("games: 6 read, 0 repeats left out, 5 with a known result"),
        "{text}"
    );
    assert!(text.contains("pub const DEFAULT_PARAMS: Params = Params(["), "{text}");
    let (n, k, [before, after, held_before, _]) = summary(last_line(&text));
    assert!(n >= 20, "{text}");
    assert!(k > 0.0, "{text}");
    assert!(after < before - 1e-4, "training loss {before} -> {after}\n{text}");
    assert!(held_before.is_nan(), "nothing is held out: {text}");
}

#[test]
fn unknown_endings_and_illegal_moves_are_clean_errors() {
    let bad_ending = TempFile::new("tune-bad-ending.tsv", "startpos moves 7g7f\t1\tresigned?\t-\n");
    let out = run_on("tune-eval", bad_ending.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let illegal = TempFile::new("tune-illegal.tsv", "startpos moves 7g7f 7g7f\t2\tblack\t-\n");
    let out = run_on("tune-eval", illegal.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn tuning_on_the_shared_games() {
    let Some(data) = shared_data_with("games_lishogi500.tsv") else {
        return;
    };
    let out = run_on("tune-eval", &data.join("games_lishogi500.tsv"), &["--epochs", "60"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    // 192 of the 500 games end in checkmate; the others say nothing about the winner.
    assert!(
        text.contains("games: 500 read, 0 repeats left out, 192 with a known result"),
        "{text}"
    );
    let (n, k, [before, after, held_before, held_after]) = summary(last_line(&text));
    assert!(n > 10_000, "{text}");
    assert!(k > 0.0 && k < 0.01, "{text}");
    assert!(after < before, "{text}");
    assert!(held_before.is_finite() && held_after.is_finite(), "{text}");
}

#[test]
fn only_the_named_groups_move() {
    let games = TempFile::new("tune-only.tsv", TINY_GAMES);
    let written = TempFile::new("tune-only-weights.rs", "");
    let write = written.path().to_str().expect("a UTF-8 path");
    let out = run_on(
        "tune-eval",
        games.path(),
        &[
            "--skip-plies",
            "0",
            "--holdout",
            "0",
            "--epochs",
            "50",
            "--only",
            "tempo,king_rank",
            "--write",
            write,
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let embedded =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/src/eval/classic/weights.rs"))
            .unwrap();
    let fitted = std::fs::read_to_string(written.path()).unwrap();
    // The file is one `// group` comment and then that group's lines.
    let groups = |text: &str| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for line in text.lines().map(str::trim) {
            if let Some(name) = line.strip_prefix("// ") {
                out.push((name.to_string(), String::new()));
            } else if let Some(last) = out.last_mut() {
                last.1.push_str(line);
            }
        }
        out
    };
    let (before, after) = (groups(&embedded), groups(&fitted));
    assert_eq!(
        before.iter().map(|g| &g.0).collect::<Vec<_>>(),
        after.iter().map(|g| &g.0).collect::<Vec<_>>()
    );
    let mut moved = Vec::new();
    for (b, a) in before.iter().zip(&after) {
        if b.1 != a.1 {
            moved.push(b.0.as_str());
        }
    }
    assert!(!moved.is_empty(), "nothing was fitted:\n{fitted}");
    assert!(
        moved.iter().all(|g| *g == "tempo" || *g == "king_rank"),
        "groups outside --only moved: {moved:?}"
    );
}
