//! End-to-end tests of `soppo-tools gen-data` and `train-nnue`: a tiny run, a kill simulated
//! by cutting its file in the middle of a record, the resumed run (which must read the whole
//! blocks, say what it dropped and play exactly the missing games), and a network trained on
//! the result.

use soppo_engine::eval::nnue::Network;
use soppo_train::nnue_data::{self, HEADER_BYTES, Record};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

use common::{TempDir, last_line, stdout_of, tools};

const OPENINGS: &str = "\
startpos moves 7g7f 3c3d 2g2f 4c4d 2f2e 2b3c\t6\tdraw\t-
startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b\t6\tdraw\t-
";

/// `gen-data` of a tiny run named `tiny` in `dir`: 300 nodes a move, games of at most 40
/// plies, a block for every game.
fn gen_data(dir: &Path, games: u32, extra: &[&str]) -> Output {
    let openings = dir.join("openings.tsv");
    std::fs::write(&openings, OPENINGS).unwrap();
    tools()
        .arg("gen-data")
        .arg("--openings")
        .arg(&openings)
        .arg("--out")
        .arg(dir)
        .args(["--name", "tiny", "--games", &games.to_string()])
        .args([
            "--nodes",
            "300",
            "--max-plies",
            "40",
            "--threads",
            "2",
            "--block-records",
            "1",
        ])
        .args([
            "--min-ply",
            "2",
            "--max-ply",
            "6",
            "--random-plies",
            "2",
            "--handicap-share",
            "0.3",
        ])
        .args(extra)
        .output()
        .unwrap()
}

fn data_file(dir: &Path) -> PathBuf {
    dir.join("tiny.bin")
}

/// The records of each game.
fn by_game(records: &[Record]) -> BTreeMap<u32, Vec<Record>> {
    let mut games: BTreeMap<u32, Vec<Record>> = BTreeMap::new();
    for r in records {
        games.entry(r.game).or_default().push(*r);
    }
    games
}

/// Where the blocks of a whole data file start.
fn block_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        starts.push(at);
        let size = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        at += HEADER_BYTES + size;
    }
    starts
}

#[test]
fn gen_data_writes_resumes_after_a_kill_and_feeds_train_nnue() {
    let dir = TempDir::new("gen-data-resume");
    let out = gen_data(dir.path(), 4, &[]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(last_line(&text).starts_with("gen-data: 4 games"), "{text}");
    assert!(text.contains("positions/s"), "{text}");
    let path = data_file(dir.path());
    let first = nnue_data::read(&path).unwrap();
    assert!(first.tail.is_none());
    let mut games = first.games.clone();
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 3]);
    assert!(first.records.len() > 20, "{} records", first.records.len());
    for r in &first.records {
        let pos = r.position().unwrap();
        assert!(!pos.in_check());
        assert!(i32::from(r.score).abs() <= 3000);
        assert!((-1..=1).contains(&r.result));
    }

    // A kill in the middle of the last block's records.
    let bytes = std::fs::read(&path).unwrap();
    let last = *block_starts(&bytes).last().unwrap();
    let cut = last + HEADER_BYTES + nnue_data::RECORD_BYTES + 5;
    assert!(cut < bytes.len());
    std::fs::write(&path, &bytes[..cut]).unwrap();
    let lost = nnue_data::read(&path).unwrap();
    let lost_game = *first.games.last().unwrap();
    assert_eq!(lost.games, first.games[..3]);
    assert_eq!(lost.tail.as_ref().unwrap().bytes, (cut - last) as u64);

    // train-nnue reads such a file up to its last whole block, and says so.
    let net = dir.path().join("net.nnue");
    let train = |args: &[&str]| {
        tools()
            .arg("train-nnue")
            .arg(&path)
            .arg("--out")
            .arg(&net)
            .args(["--batch", "64", "--holdout", "0.3", "--threads", "2"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = train(&["--epochs", "1"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains("dropped") && text.contains("cut off"), "{text}");
    assert!(
        text.contains(&format!("{} positions of 3 games", lost.records.len())),
        "{text}"
    );

    // The resumed run says what it dropped, keeps the whole blocks, replays the lost game
    // and plays two more.
    let out = gen_data(dir.path(), 6, &[]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains("dropped") && text.contains("cut off"), "{text}");
    assert!(text.contains("resuming") && text.contains("3 games"), "{text}");
    assert!(last_line(&text).starts_with("gen-data: 6 games"), "{text}");
    assert!(last_line(&text).contains("(3 this run"), "{text}");
    let resumed = nnue_data::read(&path).unwrap();
    assert!(resumed.tail.is_none());
    assert_eq!(resumed.records[..lost.records.len()], lost.records[..]);
    let mut games = resumed.games.clone();
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 3, 4, 5]);
    assert!(resumed.games[3..].contains(&lost_game));

    // The same as a run that was never killed: game by game, the same records.
    let fresh_dir = TempDir::new("gen-data-fresh");
    let out = gen_data(fresh_dir.path(), 6, &[]);
    assert!(out.status.success(), "{out:?}");
    let fresh = nnue_data::read(&data_file(fresh_dir.path())).unwrap();
    assert_eq!(by_game(&fresh.records), by_game(&resumed.records));

    // Other settings under the same name are refused; the file is left alone.
    let out = gen_data(dir.path(), 6, &["--seed", "2"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("other settings"),
        "{out:?}"
    );
    assert_eq!(nnue_data::read(&path).unwrap().records, resumed.records);

    // A network of the engine's format, a checkpoint to go on from.
    let out = train(&["--epochs", "2"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(last_line(&text).starts_with("train-nnue: "), "{text}");
    assert!(
        text.contains("epoch 2: training loss") && text.contains("held-out loss"),
        "{text}"
    );
    assert!(text.contains("quantized vs float"), "{text}");
    let bytes = std::fs::read(&net).unwrap();
    assert!(Network::from_bytes(&bytes).is_ok(), "{text}");
    let checkpoint = net.with_extension("ckpt");
    assert!(checkpoint.exists());
    let out = train(&["--epochs", "3", "--resume", checkpoint.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert!(text.contains("after 2 epochs") && text.contains("epoch 3: "), "{text}");
    assert!(!text.contains("epoch 1: "), "{text}");
}
