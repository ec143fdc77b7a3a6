//! End-to-end tests of `soppo-tools makebook`: games from KIF, CSA and `startpos moves …`
//! lines counted into a YaneuraOu `.db` book, `--think` and its resumption, bad records.

mod common;

use common::{TempDir, tools};
use soppo_core::Position;
use soppo_engine::book::Book;

const KIF: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ６六歩(67)   ( 0:01/00:00:02)\n   4 投了\n";
const CSA: &str = "V2.2\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n";
const LINES: &str = "startpos moves 7g7f 3c3d 2g2f\t1-0\nposition startpos moves 7g7f 8c8d\nstartpos moves 7g7f 3c3d 7i7h\nstartpos moves 2g2f 7g7x\n";

fn games(dir: &TempDir) -> Vec<std::path::PathBuf> {
    dir.write("a.kif", KIF);
    dir.write("b.csa", CSA);
    dir.write("c.tsv", LINES);
    ["a.kif", "b.csa", "c.tsv"].iter().map(|f| dir.path().join(f)).collect()
}

#[test]
fn counts_positions_seen_twice_from_every_format_sorted_as_yaneuraou_writes() {
    let dir = TempDir::new("makebook-counts");
    let out = dir.path().join("user_book1.db");
    let result = tools()
        .arg("makebook")
        .args(games(&dir))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(result.status.success(), "{result:?}");
    let said = String::from_utf8_lossy(&result.stderr);
    // The line with 7g7x is skipped and said; the others are read.
    assert!(said.contains("5 games read (1 skipped)"), "{said}");
    assert!(said.contains("7g7x"), "{said}");
    let text = std::fs::read_to_string(&out).unwrap();
    // The start position: 7g7f four times (the KIF and three lines), 2g2f once (the CSA); after
    // 7g7f three times, after 7g7f 3c3d twice. Each move's ponder is the reply most played (the
    // first played among equals). Sorted by SFEN text: `pppppp1pp` before `ppppppppp`.
    let want = "#YANEURAOU-DB2016 1.00\n\
        sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n\
        6g6f none 0 0 1\n2g2f none 0 0 1\n7i7h none 0 0 1\n\
        sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
        3c3d 6g6f 0 0 3\n8c8d none 0 0 1\n\
        sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
        7g7f 3c3d 0 0 4\n2g2f none 0 0 1\n";
    assert_eq!(text, want);
    let (book, report) = Book::load(&out, false).unwrap();
    assert_eq!((report.positions, report.candidates, report.skipped), (3, 7, 0));
    assert!(book.find(&Position::startpos(), false, false).unwrap().is_some());
}

#[test]
fn think_gives_each_move_a_value_and_depth_and_resumes() {
    let dir = TempDir::new("makebook-think");
    let out = dir.path().join("thought.db");
    let make = || {
        tools()
            .arg("makebook")
            .args(games(&dir))
            .args(["--think", "--depth", "4", "--hash-mb", "4", "--out"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let first = make();
    assert!(first.status.success(), "{first:?}");
    assert!(String::from_utf8_lossy(&first.stderr).contains("thinking: 7 moves at depth 4 (0 already in"));
    let text = std::fs::read_to_string(&out).unwrap();
    let candidates: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sfen"))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(candidates.len(), 7);
    assert!(candidates.iter().all(|c| c[3] == "4"), "{text}");
    assert!(candidates.iter().any(|c| c[2] != "0"), "{text}");
    // Every move searched is in `<out>.think`: a second run searches none and writes the same.
    let second = make();
    assert!(second.status.success(), "{second:?}");
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("thinking: 0 moves at depth 4 (7 already in"),
        "{second:?}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn a_broken_record_is_skipped_with_its_line_and_a_missing_file_fails() {
    let dir = TempDir::new("makebook-bad");
    dir.write("bad.kif", "手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n");
    let out = dir.path().join("o.db");
    let result = tools()
        .arg("makebook")
        .arg(dir.path().join("bad.kif"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success() && said.contains("line 3"), "{said}");
    let missing = tools()
        .arg("makebook")
        .arg(dir.path().join("none.kif"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.kif"));
}
