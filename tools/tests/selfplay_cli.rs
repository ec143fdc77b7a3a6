//! End-to-end test of `soppo-tools selfplay`: a few short games from typed-in openings, every
//! move replayed and checked, and the file read back by `tune-eval`.

use soppo_core::{Color, Position, STARTPOS_SFEN};

mod common;

use common::{TempFile, last_line, run_on, stdout_of, tools};
use std::path::Path;
use std::process::Output;

/// `soppo-tools selfplay --openings OPENINGS --out OUT ARGS…`.
fn selfplay(openings: &Path, out: &Path, args: &[&str]) -> Output {
    tools()
        .arg("selfplay")
        .arg("--openings")
        .arg(openings)
        .arg("--out")
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

const OPENINGS: &str = "\
startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c\t6\tdraw\t-
startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b\t6\tdraw\t-
";

#[test]
fn selfplay_games_are_legal_complete_and_tunable() {
    let openings = TempFile::new("selfplay-openings.tsv", OPENINGS);
    let games = TempFile::new("selfplay-games.tsv", "");
    let out = selfplay(
        openings.path(),
        games.path(),
        &[
            "--games",
            "3",
            "--nodes",
            "300",
            "--threads",
            "2",
            "--min-ply",
            "2",
            "--max-ply",
            "6",
            "--max-plies",
            "60",
            "--random-plies",
            "2",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(last_line(&text).starts_with("selfplay: 3 games"), "{text}");

    let written = std::fs::read_to_string(games.path()).unwrap();
    let rows: Vec<&str> = written.lines().collect();
    assert_eq!(rows.len(), 3, "{written}");
    for row in rows {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 6, "{row}");
        // The line of the openings file the game was cut from (two lines).
        let source: usize = cols[5].strip_prefix("opening:").unwrap().parse().unwrap();
        assert!(source < 2, "{row}");
        let (start, moves) = cols[0]
            .strip_prefix("sfen ")
            .and_then(|r| r.split_once(" moves "))
            .unwrap_or_else(|| panic!("{row}"));
        let mut pos = Position::from_sfen(start).unwrap();
        // The start is an opening position a few plies in, not the initial position.
        assert_ne!(pos.to_sfen(), Position::from_sfen(STARTPOS_SFEN).unwrap().to_sfen());
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert_eq!(cols[1].parse::<usize>().unwrap(), moves.len(), "{row}");
        assert!(moves.len() <= 60, "{row}");
        for text in &moves {
            let m = pos.parse_move(text).unwrap();
            assert!(pos.is_legal_move(m), "illegal {text} in {row}");
            pos.do_move(m);
        }
        assert_eq!(pos.to_sfen(), Position::from_sfen(cols[3]).unwrap().to_sfen(), "{row}");
        let scores: Vec<i32> = cols[4].split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(scores.len(), moves.len(), "{row}");
        assert!(["black", "white", "draw"].contains(&cols[2]), "{row}");
        // A game that ended with the mover out of moves was lost by the mover.
        if pos.legal_moves().is_empty() {
            let winner = if pos.side_to_move() == Color::Black {
                "white"
            } else {
                "black"
            };
            assert_eq!(cols[2], winner, "{row}");
        }
    }

    let tuned = run_on(
        "tune-eval",
        games.path(),
        &["--skip-plies", "0", "--holdout", "0", "--epochs", "3"],
    );
    assert!(tuned.status.success(), "{tuned:?}");
    let report = stdout_of(&tuned);
    assert!(report.contains("training positions with a searched score"), "{report}");
    assert!(
        !report.contains(" 0 training positions with a searched score"),
        "{report}"
    );
}

/// Plays `games` games from one opening position (the same cut every time) and returns the
/// game lines.
fn games_from_one_opening(games: usize, jitter: &str) -> Vec<String> {
    let openings = TempFile::new(&format!("selfplay-one-opening-{jitter}.tsv"), OPENINGS);
    let out_file = TempFile::new(&format!("selfplay-one-opening-games-{jitter}.tsv"), "");
    let games = games.to_string();
    let out = selfplay(
        openings.path(),
        out_file.path(),
        // The search looks at its node count every 512 nodes: ±20 % of 4,000 spans a few
        // of those steps.
        &[
            "--games",
            &games,
            "--nodes",
            "4000",
            "--threads",
            "2",
            "--min-ply",
            "6",
            "--max-ply",
            "6",
            "--max-plies",
            "24",
            "--seed",
            "5",
            "--jitter",
            jitter,
        ],
    );
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(out_file.path())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn varied_node_counts_part_games_from_one_opening() {
    // Both openings cut at ply 6 give two start positions; eight games land on them.
    let fixed = games_from_one_opening(8, "0");
    let varied = games_from_one_opening(8, "0.2");
    let distinct = |games: &[String]| {
        let mut lines: Vec<&str> = games.iter().map(|g| g.split('\t').next().unwrap()).collect();
        lines.sort_unstable();
        lines.dedup();
        lines.len()
    };
    // A fixed node count is deterministic: at most one game per start position.
    assert_eq!(fixed.len(), 8);
    assert!(distinct(&fixed) <= 2, "{fixed:#?}");
    assert_eq!(varied.len(), 8);
    assert!(distinct(&varied) >= 5, "{varied:#?}");

    // And `train-classic-net` reads such a file and writes a network of the engine's shape.
    let games = TempFile::new("selfplay-varied-games.tsv", &(varied.join("\n") + "\n"));
    let net = TempFile::new("selfplay-varied-net.bin", "");
    let out = tools()
        .arg("train-classic-net")
        .arg(games.path())
        // Seed 1 puts the two openings-file lines on different sides of the split.
        .args(["--holdout", "0.5", "--epochs", "2", "--seed", "1"])
        .arg("--write")
        .arg(net.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(last_line(&text).starts_with("train-classic-net: "), "{text}");
    let bytes = std::fs::read(net.path()).unwrap();
    assert_eq!(
        soppo_engine::eval::classic::net::Net::from_bytes(&bytes).map(|_| ()),
        Ok(()),
        "{text}"
    );
}
