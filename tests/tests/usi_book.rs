//! The real `soppo` binary with a YaneuraOu `.db` opening book: `BookDir` and `BookFile` as a
//! GUI user sets them, `go` answered at once from the book with YaneuraOu's rules (the moves
//! drawn from, the `info` and `ponder`), the book held for `go ponder` and `go infinite`,
//! never used by `go mate` or past `BookMoves`, an illegal book move skipped, and every kind of
//! bad file reported in one `info string` while the engine keeps answering.
//!
//! The choice against YaneuraOu's own on a real book is checked by
//! `tools/scripts/book_reference.py` (it needs the reference binary beside the checkout).

use soppo_tests::engine::{Engine, PROMPT, SEARCH, check_bestmove, usi_position};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

/// The start position: 7g7f and 2g2f within `BookEvalDiff` 30 of the first, 5g5f not; after
/// 7g7f, 3c3d.
fn small_book() -> String {
    format!(
        "#YANEURAOU-DB2016 1.00\nsfen {START}\n7g7f 3c3d 50 16 3\n2g2f none 40 16 2\n5g5f none 0 16 1\n\
         sfen {AFTER_7G7F}\n3c3d none -50 16 1\n"
    )
}

/// A folder of its own for a test's files, emptied first; its name has a space and Japanese
/// characters, as a user's folder may.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soppo book 定跡-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// An engine with `dir/file` as its book; the lines `isready` printed.
fn with_book(dir: &Path, file: &str) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send(&format!("setoption name BookDir value {}", dir.display()));
    e.send(&format!("setoption name BookFile value {file}"));
    let lines = e.sync();
    (e, lines)
}

fn info_strings(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.strip_prefix("info string ")).collect()
}

/// `go` in the position `args`; the lines up to and with the `bestmove`, checked legal.
fn go(e: &mut Engine, args: &str, go: &str) -> Vec<String> {
    e.send(&format!("position {args}"));
    e.send(go);
    let lines = e.collect_until(|l| l.starts_with("bestmove"), SEARCH);
    let best = lines.last().cloned().unwrap_or_default();
    let pos = usi_position(args).unwrap_or_else(|why| panic!("{args}: {why}"));
    if let Err(why) = check_bestmove(&pos, &best, soppo_core::declaration::EnteringKingRule::Csa27) {
        e.fail(&format!("`{go}` in {args}: `{best}`: {why}"));
    }
    lines
}

/// The move of a `bestmove` line.
fn best_of(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_default()
        .to_owned()
}

/// Whether the lines show a search (an `info` with nodes searched).
fn searched(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info depth") && !l.contains(" nodes 0 "))
}

#[test]
fn a_book_in_bookdir_answers_go_at_once_drawing_from_yaneuraous_set() {
    let dir = scratch_dir("draw");
    std::fs::write(dir.join("user_book1.db"), small_book()).unwrap();
    let (mut e, lines) = with_book(&dir, "user_book1.db");
    let said = info_strings(&lines);
    e.check(
        said.iter()
            .any(|s| s.starts_with("book: loaded") && s.contains("2 positions, 4 moves")),
        || format!("isready did not say the book loaded: {lines:?}"),
    );
    let mut drawn = BTreeSet::new();
    for _ in 0..40 {
        let started = Instant::now();
        let lines = go(&mut e, "startpos", "go btime 60000 wtime 60000 byoyomi 10000");
        let took = started.elapsed();
        let best = best_of(&lines);
        e.check(took < Duration::from_secs(2), || format!("a book move took {took:?}"));
        e.check(!searched(&lines), || format!("a search ran for a book move: {lines:?}"));
        // The other move drawn from, then the drawn move's info with its book line.
        let mut infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
        e.check(infos.len() == 2, || format!("want 2 book infos: {lines:?}"));
        infos.reverse();
        e.check(
            infos[0].contains(" multipv 1 ") && infos[0].contains(&format!(" pv {best}")),
            || format!("the first info is not the drawn move's: {lines:?}"),
        );
        if best == "7g7f" {
            // 50 internal units are 55 centipawns; the book goes on with 3c3d.
            e.check(
                infos[0].contains("depth 16 ") && infos[0].contains("score cp 55 "),
                || format!("7g7f's info: {lines:?}"),
            );
            e.check(infos[0].ends_with("pv 7g7f 3c3d"), || {
                format!("7g7f's book line: {lines:?}")
            });
            e.check(lines.last().is_some_and(|l| l == "bestmove 7g7f ponder 3c3d"), || {
                format!("7g7f's ponder: {lines:?}")
            });
        }
        drawn.insert(best);
    }
    let want: BTreeSet<String> = ["2g2f", "7g7f"].into_iter().map(str::to_owned).collect();
    e.check(drawn == want, || format!("drawn {drawn:?}, want {want:?}"));
    // The `book` command shows every move and the set drawn from.
    e.send("position startpos");
    e.send("book");
    let lines = e.sync();
    e.check(info_strings(&lines).contains(&"book: drawn from: 7g7f 2g2f"), || {
        format!("`book`: {lines:?}")
    });
    // A position not in the book is searched.
    let lines = go(&mut e, "startpos moves 2g2f", "go depth 3");
    e.check(searched(&lines), || format!("2g2f is not in the book: {lines:?}"));
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flipped_positions_ponder_infinite_mate_and_book_moves() {
    let dir = scratch_dir("modes");
    // The start position with colours reversed (White to move), and a position at ply 17.
    let turned = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let late = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 17";
    let text = format!("sfen {turned}\n3c3d none 20 20 1\nsfen {late}\n2g2f none 20 20 1\n");
    std::fs::write(dir.join("b.db"), text).unwrap();
    let (mut e, _) = with_book(&dir, "b.db");
    // Found turned round.
    let lines = go(&mut e, "startpos", "go byoyomi 10000");
    e.check(best_of(&lines) == "7g7f" && !searched(&lines), || {
        format!("FlippedBook: {lines:?}")
    });
    e.send("setoption name FlippedBook value false");
    e.sync();
    let lines = go(&mut e, "startpos", "go depth 2");
    e.check(searched(&lines), || {
        format!("FlippedBook false still used the book: {lines:?}")
    });
    e.send("setoption name FlippedBook value true");
    // Past BookMoves (16): searched; with BookMoves 17, from the book.
    let lines = go(&mut e, &format!("sfen {late}"), "go depth 2");
    e.check(searched(&lines), || format!("ply 17 used the book: {lines:?}"));
    e.send("setoption name BookMoves value 17");
    let lines = go(&mut e, &format!("sfen {late}"), "go depth 2");
    e.check(best_of(&lines) == "2g2f", || format!("BookMoves 17: {lines:?}"));
    // USI_OwnBook false: searched.
    e.send("setoption name USI_OwnBook value false");
    let lines = go(&mut e, &format!("sfen {late}"), "go depth 2");
    e.check(searched(&lines), || {
        format!("USI_OwnBook false used the book: {lines:?}")
    });
    e.send("setoption name USI_OwnBook value true");
    // `go ponder` from the book holds its answer for `ponderhit`; `go infinite` for `stop`.
    for (go_line, release) in [("go ponder byoyomi 1000", "ponderhit"), ("go infinite", "stop")] {
        e.send("position startpos");
        e.send(go_line);
        let early = e
            .next_line(Duration::from_millis(300))
            .into_iter()
            .chain(e.sync())
            .collect::<Vec<_>>();
        e.check(!early.iter().any(|l| l.starts_with("bestmove")), || {
            format!("`{go_line}` answered before `{release}`: {early:?}")
        });
        e.send(release);
        let best = e.bestmove(PROMPT);
        e.check(best.starts_with("bestmove 7g7f"), || {
            format!("`{go_line}`, `{release}`: {best}")
        });
    }
    // `go mate` never plays from the book.
    e.send("position startpos");
    e.send("go mate 300");
    let answer = e.checkmate(SEARCH);
    e.check(answer == "checkmate nomate" || answer == "checkmate timeout", || {
        answer.clone()
    });
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_book_move_is_skipped_with_an_info_string() {
    let dir = scratch_dir("illegal");
    let path = dir.join("i.db");
    std::fs::write(&path, format!("sfen {START}\n7g7e none 90 20 9\n2g2f none 0 20 1\n")).unwrap();
    // `BookFile` a full path, `BookDir` left at its default.
    let mut e = Engine::start();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = e.sync();
    e.check(
        info_strings(&lines).iter().any(|s| s.starts_with("book: loaded")),
        || format!("a full path in BookFile: {lines:?}"),
    );
    let lines = go(&mut e, "startpos", "go byoyomi 1000");
    e.check(
        info_strings(&lines).iter().any(|s| s.contains("7g7e is illegal")) && best_of(&lines) == "2g2f",
        || format!("{lines:?}"),
    );
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_book_files_are_reported_once_and_the_engine_keeps_playing() {
    let dir = scratch_dir("bad");
    let good = small_book();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("missing.db", Vec::new(), "book: no file"),
        ("empty.db", b"".to_vec(), "no position in it"),
        ("book.bin", vec![0x10, 0, 0, 0, 0x42, 0, 0xff], "a binary file"),
        ("folder.db", Vec::new(), "not a file"),
        (
            "game.kif",
            "手合割：平手\n   1 ７六歩(77)\n".as_bytes().to_vec(),
            "no position in it",
        ),
        (
            "truncated.db",
            good.as_bytes()[..good.len() - 9].to_vec(),
            "book: loaded",
        ),
        (
            "crlf-bom.db",
            format!("\u{feff}{}", good.replace('\n', "\r\n")).into_bytes(),
            "book: loaded",
        ),
        (
            "junk.db",
            format!("{good}7g7f 3c3d 10 16 1 win lose\nsfen {START}\nx7g7f\n7g7f none\nsfen 9/9 b - 1\n").into_bytes(),
            "lines skipped",
        ),
    ];
    for (name, bytes, said) in cases {
        let path = dir.join(name);
        match name {
            "missing.db" => {}
            "folder.db" => std::fs::create_dir_all(&path).unwrap(),
            _ => std::fs::write(&path, bytes).unwrap(),
        }
        let (mut e, lines) = with_book(&dir, name);
        let book_lines: Vec<&str> = info_strings(&lines)
            .into_iter()
            .filter(|s| s.starts_with("book: "))
            .collect();
        e.check(book_lines.len() == 1 && book_lines[0].contains(said), || {
            format!("{name}: want one book info string with `{said}`: {lines:?}")
        });
        // Loaded or not, the engine answers every `go` with a legal move.
        go(&mut e, "startpos", "go depth 3");
        go(&mut e, "startpos moves 7g7f", "go depth 3");
        e.quit(PROMPT);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
