//! End-to-end tests of `soppo-tools tsume-check` (a composer's check: 余詰, 変同, 変長, 早詰,
//! 駒余り) with SFEN, KIF and CSA input, JSON and KIF output, and bad input; and of
//! `soppo-tools tsume --kif`.

mod common;

use common::{TempDir, run, stdout_of, tools};
use soppo_core::Position;

/// A 9-ply problem of the `ShogiBoardQ` collection with a second mate at the last move only (tolerated).
const PROBLEM: &str = "+L8/2B6/kN7/s8/1R7/9/9/9/9 b rb4g3s3n3l18p 1";
const LINE: &str = "9a9b 9c9b 8c9a+ 9b9c 9a9b 9c9b 7b8a+ 9b9c 8e8b+";

fn json(args: &[&str]) -> (serde_json::Value, std::process::Output) {
    let out = run(args);
    let text = stdout_of(&out);
    let value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: `{text}` {out:?}"));
    (value, out)
}

fn moves(pos: &Position, text: &str) -> Vec<soppo_core::Move> {
    let mut p = pos.clone();
    text.split_whitespace()
        .map(|t| {
            let m = p.parse_move(t).unwrap();
            p.do_move(m);
            m
        })
        .collect()
}

#[test]
fn json_says_shortest_sound_and_each_flaw() {
    let (v, out) = json(&["tsume-check", PROBLEM, "--line", LINE, "--json"]);
    assert!(out.status.success(), "sound: exit 0 ({out:?})");
    assert_eq!(v["shortest"], 9);
    assert_eq!(v["sound"], true);
    assert_eq!(v["main_line"], LINE);
    let flaws = v["flaws"].as_array().unwrap();
    assert_eq!(flaws.len(), 1, "{v}");
    assert_eq!(flaws[0]["kind"], "yozume");
    assert_eq!(flaws[0]["ply"], 9);
    assert_eq!(flaws[0]["line"], "8a8b");
    assert_eq!(flaws[0]["tolerated"], true);
    // An unsound one: pieces left over, exit 1.
    let (v, out) = json(&["tsume-check", "4k4/9/4P4/9/9/9/9/9/9 b GS 1", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["sound"], false);
    assert!(v["flaws"].as_array().unwrap().iter().any(|f| f["kind"] == "komaamari"));
    // Out of time: sound is null and the question is named.
    let (v, out) = json(&["tsume-check", PROBLEM, "--json", "--time-ms", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(v["sound"].is_null(), "{v}");
    assert!(
        v["undecided"]["ply"].as_u64().is_some_and(|p| (1..=9).contains(&p)),
        "{v}"
    );
    assert!(
        v["undecided"]["question"].as_str().is_some_and(|q| !q.is_empty()),
        "{v}"
    );
}

#[test]
fn kif_and_csa_files_are_read_their_moves_the_main_line() {
    let dir = TempDir::new("tsume-check-files");
    let pos = Position::from_sfen(PROBLEM).unwrap();
    let line = moves(&pos, LINE);
    let text = soppo_kifu::write_kif(&pos, &line, &[], &[]);
    for name in ["problem.kif", "problem.kifu"] {
        let path = dir.path().join(name);
        std::fs::write(&path, soppo_kifu::kif_file_bytes(&text, name)).unwrap();
        let (v, out) = json(&["tsume-check", path.to_str().unwrap(), "--json"]);
        assert!(out.status.success(), "{name}: {out:?}");
        assert_eq!(v["main_line"], LINE, "{name}");
        assert_eq!(v["sfen"], PROBLEM, "{name}");
    }
    // CSA: the same problem, no moves: the solver's line is checked.
    let csa = "V2.2\nP1+NY *  *  *  *  *  *  *  * \nP2 *  * +KA *  *  *  *  *  * \nP3-OU+KE *  *  *  *  *  *  * \n\
               P4-GI *  *  *  *  *  *  *  * \nP5 * +HI *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \n\
               P-00HI00KA00KI00KI00KI00KI00GI00GI00GI00KE00KE00KE00KY00KY00KY\n\
               P-00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU\n+\n";
    let path = dir.path().join("problem.csa");
    std::fs::write(&path, csa).unwrap();
    let (v, out) = json(&["tsume-check", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(v["shortest"], 9);
    assert_eq!(v["sfen"], PROBLEM);
}

#[test]
fn the_answer_and_each_flaw_are_written_as_kif_that_reads_back() {
    let dir = TempDir::new("tsume-check-kif-out");
    let sfen = "4k4/9/3P1P3/9/9/9/9/9/9 b GS 1";
    let path = dir.path().join("check.kifu");
    let out = run(["tsume-check", sfen, "--kif", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "a second mate at move 1: unsound");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("変化：1手"), "{text}");
    assert!(text.contains("余詰"), "{text}");
    let back = soppo_kifu::read(text.as_bytes(), soppo_kifu::Format::Kif).unwrap();
    assert_eq!(back.start_sfen, sfen);
    assert_eq!(back.moves.len(), 5);
    // `tsume --kif`, Shift_JIS for `.kif`.
    let path = dir.path().join("answer.kif");
    let out = run(["tsume", PROBLEM, "--kif", path.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let bytes = std::fs::read(&path).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "Shift_JIS, not UTF-8");
    let back = soppo_kifu::read(&bytes, soppo_kifu::Format::Kif).unwrap();
    assert_eq!(back.start_sfen, PROBLEM);
    assert_eq!(back.moves.len(), 9);
}

#[test]
fn bad_input_is_named_and_nothing_is_half_printed() {
    let dir = TempDir::new("tsume-check-bad");
    let cases: Vec<(String, &str)> = {
        let bad_kif = dir.path().join("bad.kif");
        std::fs::write(
            &bad_kif,
            "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n",
        )
        .unwrap();
        let illegal = dir.path().join("illegal.kifu");
        let pos = Position::from_sfen(PROBLEM).unwrap();
        let text = soppo_kifu::write_kif(&pos, &[], &[], &[]) + "   1 ５五飛(82)\n";
        std::fs::write(&illegal, text).unwrap();
        let binary = dir.path().join("binary.kif");
        std::fs::write(&binary, [0u8, 1, 2, 3, 0xff, 0]).unwrap();
        let huge = dir.path().join("huge.kif");
        std::fs::write(&huge, vec![b'#'; 2 << 20]).unwrap();
        vec![
            (bad_kif.display().to_string(), "bad.kif"),
            (illegal.display().to_string(), "line"),
            (binary.display().to_string(), "binary"),
            (huge.display().to_string(), "larger than a problem file"),
            ("9/9/9/9/9/9/9/9/4K4 b G 1".to_string(), "no king to mate"),
            ("4k4/9/9/9/9/9/9/4r4/4K4 b G 1".to_string(), "in check"),
            ("4k4/9/9/9/9/9/9/9/9 b P 1".to_string(), "no mate"),
            ("4k4/9/4P4/9/9/9/9/9/9 b G 1".to_string(), "does not mate"),
            (dir.path().join("missing.kif").display().to_string(), "missing.kif"),
        ]
    };
    for (input, said) in &cases {
        let mut cmd = tools();
        cmd.arg("tsume-check").arg(input).arg("--json");
        if input.starts_with("4k4/9/4P4") {
            cmd.args(["--line", "G*4b"]);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{input}: {out:?}");
        assert!(
            out.stdout.is_empty(),
            "{input}: printed {:?}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{input}: `{err}` does not say `{said}`");
    }
}
