//! The real `soppo` binary with YaneuraOu-format nets: `EvalDir`, `EvalFile`, `Evaluation`,
//! `FV_SCALE` and `eval_options.txt` as a GUI user sets them, the `eval` command's values
//! against the library's reference forward pass, searches with a net, and every kind of bad
//! file refused with one `info string` while the engine keeps working.
//!
//! The values against YaneuraOu's own `e` are checked by `nets_reference.rs` (it needs the
//! reference binary beside the checkout).

use soppo_core::Position;
use soppo_engine::eval::nnue::{self, DEFAULT_FV_SCALE, Features, Network};
use soppo_tests::engine::{Engine, PROMPT, SEARCH, check_bestmove, parse_bestmove, usi_position};
use soppo_usi::BestMove;
use std::path::{Path, PathBuf};

/// A middle-game position (Black to move) with many legal moves.
const MIDGAME_ARGS: &str = "sfen ln1g3nl/1r2k1gb1/p1sppps1p/2p3pp1/1p7/2P1P1PP1/PPSP1PS1P/1BG2G1R1/LN2K2NL b - 25";

/// Positions the `eval` values are compared on: both sides to move, hands, promotions, a
/// king walked out, a tsume problem without the attacker's king.
const POSITIONS: [&str; 7] = [
    "startpos",
    "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "sfen l8/9/p8/3k5/1ppn5/1P2pG3/P1P2S3/LB1SG4/1N2K4 b RB2G2SNL5Prnl6p 81",
    "sfen 6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    MIDGAME_ARGS,
    "sfen 4k4/9/4P4/9/9/9/9/9/9 b 2GS2r2b2g3s4n4l17p 1",
];

/// A folder of its own for a test's files, emptied first; its name has a space and Japanese
/// characters, as a user's folder may.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soppo nets 将棋-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// Writes `net` as `dir/nn.bin`.
fn put_net(dir: &Path, net: &Network) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("nn.bin");
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// The `info string` lines among `lines`.
fn info_strings(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.strip_prefix("info string ")).collect()
}

/// A path as the engine's `info string` writes it (printable ASCII, the rest escaped).
fn shown(path: &Path) -> String {
    path.display()
        .to_string()
        .chars()
        .flat_map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                vec![c]
            } else {
                c.escape_default().collect()
            }
        })
        .collect()
}

/// The engine's `eval` of the position `args`.
fn eval(e: &mut Engine, args: &str) -> i32 {
    e.send(&format!("position {args}"));
    e.send("eval");
    let line = e.expect_line(|l| l.starts_with("eval = "), PROMPT);
    line["eval = ".len()..]
        .trim()
        .parse()
        .unwrap_or_else(|_| e.fail(&format!("`{line}` is not `eval = <value>`")))
}

fn position(args: &str) -> Position {
    usi_position(args).unwrap_or_else(|e| panic!("{args}: {e}"))
}

/// Sends `position` and `go`, checks the one `bestmove` against the position.
fn search(e: &mut Engine, args: &str, go: &str) -> String {
    e.send(&format!("position {args}"));
    e.send(go);
    let line = e.bestmove(SEARCH);
    if let Err(why) = check_bestmove(&position(args), &line, soppo_core::declaration::EnteringKingRule::Csa27) {
        e.fail(&format!("`{go}` in {args}: `{line}`: {why}"));
    }
    e.sync();
    line
}

#[test]
fn a_net_in_evaldir_loads_at_isready_and_eval_gives_its_values() {
    let dir = scratch_dir("evaldir");
    for (i, features) in Features::ALL.into_iter().enumerate() {
        let net = nnue::random_net(features, 65 + i as u64);
        let folder = dir.join(format!("{} 水匠", features.short_name()));
        let path = put_net(&folder, &net);
        let mut e = Engine::start();
        e.send(&format!("setoption name EvalDir value {}", folder.display()));
        let lines = e.sync();
        let said = info_strings(&lines);
        let expected = format!(
            "NNUE: loaded {} ({}, {} bytes)",
            shown(&path),
            features.shape_name(),
            net.to_bytes().len()
        );
        e.check(said.contains(&expected.as_str()), || {
            format!("isready did not say `{expected}`: {lines:?}")
        });
        for args in POSITIONS {
            let p = position(args);
            let want = net.evaluate(&p, DEFAULT_FV_SCALE);
            let got = eval(&mut e, args);
            e.check(got == want, || {
                format!("{features:?} eval of {args}: {got}, the reference {want}")
            });
        }
        // `e`, as YaneuraOu spells it; `FV_SCALE` divides the output sum.
        e.send("setoption name FV_SCALE value 24");
        e.sync();
        e.send("position startpos");
        e.send("e");
        let line = e.expect_line(|l| l.starts_with("eval = "), PROMPT);
        let want = net.evaluate(&Position::startpos(), 24);
        e.check(line == format!("eval = {want}"), || {
            format!("`e` with FV_SCALE 24: {line}, want {want}")
        });
        // The classic evaluation when asked for it, and nothing loaded again for that.
        e.send("setoption name Evaluation value Classic");
        let lines = e.sync();
        e.check(info_strings(&lines).is_empty(), || format!("Classic said: {lines:?}"));
        let classic = soppo_engine::eval::evaluate(&position(MIDGAME_ARGS));
        let got = eval(&mut e, MIDGAME_ARGS);
        e.check(got == classic, || {
            format!("Evaluation Classic: eval {got}, the classic value {classic}")
        });
        e.quit(PROMPT);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_options_txt_beside_the_net_sets_fv_scale() {
    let dir = scratch_dir("eval-options");
    let net = nnue::random_net(Features::KP, 7);
    let path = put_net(&dir, &net);
    std::fs::write(
        dir.join("eval_options.txt"),
        "FV_SCALE 32\r\n# a comment\nEvalDir nowhere\n",
    )
    .unwrap();
    let mut e = Engine::start();
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let lines = e.sync();
    let said = info_strings(&lines);
    e.check(
        said.iter().any(|s| s.ends_with("eval_options.txt: FV_SCALE = 32")),
        || format!("the options file was not said: {lines:?}"),
    );
    e.check(
        said.iter()
            .any(|s| s.contains("EvalDir is not set from a net's folder")),
        || format!("EvalDir from the options file was not refused: {lines:?}"),
    );
    let want = net.evaluate(&position(MIDGAME_ARGS), 32);
    let got = eval(&mut e, MIDGAME_ARGS);
    e.check(got == want, || {
        format!("eval with FV_SCALE 32 from the file: {got}, want {want}")
    });
    // The file's value stands over the GUI's at every isready, as in YaneuraOu.
    e.send("setoption name FV_SCALE value 16");
    e.sync();
    let got = eval(&mut e, MIDGAME_ARGS);
    e.check(got == want, || {
        format!("the GUI's FV_SCALE overrode the net's file: {got}, want {want}")
    });
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_search_with_a_net_plays_legal_moves_and_scores_otherwise_than_classic() {
    let dir = scratch_dir("search");
    let path = put_net(&dir, &nnue::random_net(Features::KP, 58));
    let mut e = Engine::start();
    e.send("setoption name Evaluation value Classic");
    e.sync();
    search(&mut e, MIDGAME_ARGS, "go depth 1");
    let classic = last_score(&e);
    e.send("setoption name Evaluation value NNUE");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.sync();
    search(&mut e, MIDGAME_ARGS, "go depth 1");
    let with_net = last_score(&e);
    e.check(classic.is_some() && with_net.is_some() && classic != with_net, || {
        format!("the same depth-1 score with the net as without: {classic:?}, {with_net:?}")
    });
    for (args, go) in [
        ("startpos", "go depth 6"),
        (MIDGAME_ARGS, "go nodes 20000"),
        (POSITIONS[2], "go depth 5"),
        (POSITIONS[3], "go movetime 300"),
        ("startpos moves 7g7f 3c3d 8h2b+", "go btime 0 wtime 0 byoyomi 200"),
    ] {
        search(&mut e, args, go);
    }
    // A short game with the net, both sides.
    e.send("usinewgame");
    e.sync();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        let args = if moves.is_empty() {
            "startpos".to_owned()
        } else {
            format!("startpos moves {}", moves.join(" "))
        };
        match parse_bestmove(&search(&mut e, &args, "go nodes 3000")).0 {
            BestMove::Move(m) => moves.push(m),
            BestMove::Resign | BestMove::Win => break,
        }
    }
    e.check(!moves.is_empty(), || "no move played with the net".into());
    e.send("setoption name Evaluation value Classic");
    e.send("usinewgame");
    e.sync();
    search(&mut e, MIDGAME_ARGS, "go depth 1");
    e.check(last_score(&e) == classic, || {
        "Evaluation Classic did not come back".into()
    });
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The last `info ... score` of the search that answered with the last `bestmove`.
fn last_score(e: &Engine) -> Option<String> {
    let lines = e.received();
    let end = lines.iter().rposition(|l| l.starts_with("bestmove"))?;
    lines[..end]
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && l.contains(" score "))
        .and_then(|l| l.split(" score ").nth(1))
        .map(|s| s.split(' ').take(2).collect::<Vec<_>>().join(" "))
}

#[test]
fn without_a_net_auto_says_so_once_and_evaluates_classic() {
    let dir = scratch_dir("auto");
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name EvalDir value {}",
        dir.join("no such folder").display()
    ));
    let lines = e.sync();
    let said = info_strings(&lines);
    e.check(
        said.len() == 1
            && said[0].contains("no net at")
            && said[0].contains("Evaluation Auto uses the classic evaluation"),
        || format!("Auto without a net: {lines:?}"),
    );
    let classic = soppo_engine::eval::evaluate(&position(MIDGAME_ARGS));
    let got = eval(&mut e, MIDGAME_ARGS);
    e.check(got == classic, || {
        format!("Auto without a net: eval {got}, the classic value {classic}")
    });
    let lines = e.sync();
    e.check(info_strings(&lines).is_empty(), || format!("said again: {lines:?}"));
    search(&mut e, "startpos", "go depth 3");
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_net_files_get_one_info_string_and_the_net_loaded_before_is_kept() {
    let dir = scratch_dir("bad");
    let net = nnue::random_net(Features::KP, 3);
    let good = net.to_bytes();
    let arch = 12 + Features::KP.architecture().len();
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        Some(b)
    };
    let cases: Vec<(&str, Option<Vec<u8>>, &str)> = vec![
        ("missing", None, "no net at"),
        (
            "truncated",
            Some(good[..good.len() / 3].to_vec()),
            "where a K_P 256x2-32-32 net has 893917",
        ),
        (
            "trailing",
            with(&|b| b.push(0)),
            "893918 bytes, where a K_P 256x2-32-32 net has 893917",
        ),
        ("version", with(&|b| b[0] ^= 1), "not a YaneuraOu NNUE file"),
        ("unsupported", with(&|b| b[4] ^= 1), "unsupported architecture"),
        (
            "block hash",
            with(&|b| b[arch] ^= 1),
            "feature transformer block's hash",
        ),
        (
            "text",
            Some(b"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n".to_vec()),
            "not a YaneuraOu NNUE file",
        ),
        ("empty", Some(Vec::new()), "not a net: 0 bytes"),
    ];
    let good_dir = dir.join("good");
    let good_path = put_net(&good_dir, &net);
    let mut e = Engine::start();
    e.send("setoption name Evaluation value NNUE");
    // First with no net at all, then with a good one loaded: each time refused by name, and
    // the engine still answers `go`.
    for loaded_first in [false, true] {
        if loaded_first {
            e.send(&format!("setoption name EvalDir value {}", good_dir.display()));
            let lines = e.sync();
            e.check(info_strings(&lines).iter().any(|s| s.contains("NNUE: loaded")), || {
                format!("a good net was not loaded: {lines:?}")
            });
        }
        for (name, bytes, why) in &cases {
            let folder = dir.join(name);
            std::fs::create_dir_all(&folder).unwrap();
            let path = folder.join("nn.bin");
            if let Some(bytes) = bytes {
                std::fs::write(&path, bytes).unwrap();
            }
            e.send(&format!("setoption name EvalDir value {}", folder.display()));
            let lines = e.sync();
            let said = info_strings(&lines);
            e.check(said.len() == 1, || format!("{name}: not one info string: {lines:?}"));
            let text = shown(&path);
            e.check(said[0].contains(&text) && said[0].contains(why), || {
                format!("{name}: no info string naming the file and saying `{why}`: {lines:?}")
            });
            let kept = if loaded_first {
                format!("the net {} is kept", shown(&good_path))
            } else {
                "Evaluation NNUE has no net".to_owned()
            };
            e.check(said[0].contains(&kept), || {
                format!("{name}: not said `{kept}`: {lines:?}")
            });
            search(&mut e, MIDGAME_ARGS, "go depth 3");
        }
        // A folder where the file should be, and a folder that is a file.
        let folder = dir.join("dir");
        std::fs::create_dir_all(folder.join("nn.bin")).unwrap();
        e.send(&format!("setoption name EvalDir value {}", folder.display()));
        let lines = e.sync();
        e.check(
            info_strings(&lines).iter().any(|s| s.contains("not a regular file")),
            || format!("a folder named nn.bin: {lines:?}"),
        );
    }
    // A huge file (sparse: a good header, then nothing up to 4 GiB) is refused by its size
    // without being read; a named pipe is refused without waiting for a writer.
    let huge = dir.join("huge");
    std::fs::create_dir_all(&huge).unwrap();
    let file = std::fs::File::create(huge.join("nn.bin")).unwrap();
    std::io::Write::write_all(&mut &file, &good[..arch + 8]).unwrap();
    file.set_len(4 << 30).unwrap();
    drop(file);
    let mut refusals = vec![(huge, "4294967296 bytes, where a K_P 256x2-32-32 net has 893917")];
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        std::fs::create_dir_all(&fifo).unwrap();
        let made = std::process::Command::new("mkfifo").arg(fifo.join("nn.bin")).status();
        if made.is_ok_and(|s| s.success()) {
            refusals.push((fifo, "not a regular file"));
        } else {
            eprintln!("mkfifo did not run: the named pipe case is skipped");
        }
    }
    for (folder, why) in &refusals {
        e.send(&format!("setoption name EvalDir value {}", folder.display()));
        let lines = e.sync();
        let said = info_strings(&lines);
        e.check(said.len() == 1 && said[0].contains(why), || {
            format!("{}: not one info string saying `{why}`: {lines:?}", folder.display())
        });
        e.check(
            said[0].contains(&format!("the net {} is kept", shown(&good_path))),
            || format!("{}: the good net not kept: {lines:?}", folder.display()),
        );
    }
    // The kept net still evaluates as the good file does.
    let want = net.evaluate(&position(MIDGAME_ARGS), DEFAULT_FV_SCALE);
    let got = eval(&mut e, MIDGAME_ARGS);
    e.check(got == want, || format!("the kept net: eval {got}, want {want}"));
    e.quit(PROMPT);
    let _ = std::fs::remove_dir_all(&dir);
}
