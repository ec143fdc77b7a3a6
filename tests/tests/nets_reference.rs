//! Soppo's `eval` against YaneuraOu's `e` with the same net, position by position: the proof
//! that Soppo reads YaneuraOu's nets exactly (numbering, scaling, rounding).
//!
//! - `K_P 256x2-32-32`: the reference binary `../shared/opponents/yaneuraou-kp256` with both
//!   local nets (`../shared/opponents/eval-*/nn.bin`); skipped with a message when they are
//!   absent.
//! - `HalfKP 256x2-32-32`: a HalfKP build of the reference, named by `SOPPO_YO_HALFKP` (built
//!   from the source tarball in `../shared/opponents/src/`, outside the project: `make normal
//!   TARGET_CPU=AVX2 COMPILER=g++ YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE`), with a net of
//!   random weights written by Soppo; skipped with a message when the variable is not set.
//!
//! At the default `FV_SCALE` (16) and another. The positions: every 25th position of the 500 lishogi games (both colours to move), and
//! positions of random capture-loving games (many pieces in hand, promoted pieces), 1,000 or
//! more in all; all with both kings (YaneuraOu's HalfKP is undefined without them). Both
//! engines read one batch of `position` / `e` lines each and print one `eval = V` per line.

use soppo_core::Position;
use soppo_core::rng::SplitMix64;
use soppo_engine::eval::nnue::{self, Features};
use soppo_tests::engine::soppo_binary;
use soppo_tests::{load, shared_data_dir};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The positions compared, as SFENs.
fn positions() -> Option<Vec<String>> {
    let games = load("games_lishogi500.tsv")?;
    let mut out = Vec::new();
    let mut n = 0;
    for g in &games {
        let moves: Vec<&str> = g.col(0).split_whitespace().skip(2).collect();
        let mut pos = Position::startpos();
        for m in moves {
            let Ok(mv) = soppo_core::Move::from_usi(m) else { break };
            if !pos.is_legal_move(mv) {
                break;
            }
            pos.do_move(mv);
            n += 1;
            if n % 25 == 0 {
                out.push(pos.to_sfen());
            }
        }
    }
    // Random games that capture whenever they can: hands fill up, pieces promote.
    let mut rng = SplitMix64::new(65);
    for _ in 0..120 {
        let mut pos = Position::startpos();
        for ply in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_drop() && pos.piece_on(m.to()).is_some())
                .collect();
            let pool = if captures.is_empty() || rng.below(4) == 0 {
                &moves[..]
            } else {
                &captures[..]
            };
            pos.do_move(pool[rng.below(pool.len() as u64) as usize]);
            if ply % 16 == 15 {
                out.push(pos.to_sfen());
            }
        }
    }
    // Each position once (games share their openings), both kings on the board.
    let mut seen = std::collections::HashSet::new();
    out.retain(|sfen| seen.insert(soppo_tests::sfen_without_move_number(sfen)));
    out.retain(|sfen| {
        let p = Position::from_sfen(sfen).expect("an SFEN of ours");
        soppo_core::Color::ALL.iter().all(|&c| p.king_square(c).is_some())
    });
    Some(out)
}

/// Runs `engine` once with `options` set, then `position sfen …` and `e` for each position;
/// returns the values it printed, in order.
fn values(engine: &Path, options: &[(&str, String)], sfens: &[String]) -> Vec<i32> {
    let mut input = String::from("usi\n");
    for (name, value) in options {
        let _ = writeln!(input, "setoption name {name} value {value}");
    }
    input.push_str("isready\n");
    for sfen in sfens {
        let _ = write!(input, "position sfen {sfen}\ne\n");
    }
    input.push_str("quit\n");
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", engine.display()));
    // Written from a thread: the engine answers while it reads, and both pipes are bounded.
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the engine's output");
    writer.join().expect("the writer");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("eval = "))
        .map(|v| {
            v.trim()
                .parse()
                .unwrap_or_else(|_| panic!("`eval = {v}` from {}", engine.display()))
        })
        .collect()
}

/// Compares the two engines on `sfens` with the net in `dir` at `FV_SCALE` `fv_scale`;
/// returns how many values are distinct (a net whose layers saturate would give few).
fn compare(reference: &Path, dir: &Path, fv_scale: u32, sfens: &[String], what: &str) -> usize {
    let what = format!("{what}, FV_SCALE {fv_scale}");
    let dir_text = dir.display().to_string();
    let theirs = values(
        reference,
        &[
            ("USI_Hash", "16".into()),
            ("Threads", "1".into()),
            ("BookFile", "no_book".into()),
            ("EvalDir", dir_text.clone()),
            ("FV_SCALE", fv_scale.to_string()),
        ],
        sfens,
    );
    let ours = values(
        &soppo_binary(),
        &[
            ("EvalDir", dir_text),
            ("Evaluation", "NNUE".into()),
            ("FV_SCALE", fv_scale.to_string()),
        ],
        sfens,
    );
    assert_eq!(
        theirs.len(),
        sfens.len(),
        "{what}: the reference printed {} values",
        theirs.len()
    );
    assert_eq!(ours.len(), sfens.len(), "{what}: Soppo printed {} values", ours.len());
    let differ: Vec<String> = sfens
        .iter()
        .zip(ours.iter().zip(&theirs))
        .filter(|(_, (a, b))| a != b)
        .take(5)
        .map(|(s, (a, b))| format!("{s}: Soppo {a}, reference {b}"))
        .collect();
    assert!(differ.is_empty(), "{what}: values differ, e.g.\n{}", differ.join("\n"));
    let distinct = ours.iter().collect::<std::collections::HashSet<_>>().len();
    println!(
        "{what}: {} positions, 0 differences, {distinct} distinct values",
        sfens.len()
    );
    distinct
}

fn opponents() -> Option<PathBuf> {
    Some(shared_data_dir()?.parent()?.join("opponents"))
}

#[test]
fn kp_values_equal_yaneuraous_with_both_local_nets() {
    let Some(dir) = opponents().filter(|d| d.join("yaneuraou-kp256").is_file()) else {
        eprintln!("skipped: ../shared/opponents/yaneuraou-kp256 is absent");
        return;
    };
    let sfens = positions().expect("the lishogi games beside the reference");
    assert!(sfens.len() >= 1000, "{} positions", sfens.len());
    for net in ["eval-suishopetite", "eval-uonuma"] {
        let net_dir = dir.join(net);
        if !net_dir.join("nn.bin").is_file() {
            eprintln!("skipped {net}: no nn.bin");
            continue;
        }
        for fv_scale in [16, 24] {
            compare(
                &dir.join("yaneuraou-kp256"),
                &net_dir,
                fv_scale,
                &sfens,
                &format!("K_P {net}"),
            );
        }
    }
}

#[test]
fn half_kp_values_equal_a_half_kp_build_of_yaneuraou_with_a_random_net() {
    let Some(reference) = std::env::var_os("SOPPO_YO_HALFKP").map(PathBuf::from) else {
        eprintln!("skipped: SOPPO_YO_HALFKP (a HalfKP build of YaneuraOu) is not set");
        return;
    };
    let Some(sfens) = positions() else {
        eprintln!("skipped: ../shared/data is absent");
        return;
    };
    let dir = std::env::temp_dir().join(format!("soppo-halfkp-reference-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("nn.bin"), nnue::random_net(Features::HalfKP, 65).to_bytes()).unwrap();
    let distinct = compare(&reference, &dir, 16, &sfens, "HalfKP random net");
    compare(&reference, &dir, 7, &sfens, "HalfKP random net");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        distinct * 10 >= sfens.len() * 9,
        "{distinct} distinct values of {}",
        sfens.len()
    );
}
