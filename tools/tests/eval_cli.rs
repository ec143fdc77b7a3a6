//! End-to-end tests of `soppo-tools eval`: the group totals add up to the evaluation, and a
//! side a rook down is behind.

mod common;

use common::{run, stdout_of, tools};

/// The group totals and the total line of an `eval` run.
fn groups_and_total(sfen: &str) -> (Vec<(String, i64)>, i64) {
    let out = run(["eval", sfen]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let mut groups = Vec::new();
    let mut total = None;
    for line in text.lines().skip(2) {
        let mut words = line.split_whitespace();
        let (Some(name), Some(value)) = (words.next(), words.next()) else {
            continue;
        };
        let value: i64 = value.parse().unwrap_or_else(|_| panic!("bad line: {line}\n{text}"));
        if name == "total" {
            total = Some(value);
        } else {
            groups.push((name.to_string(), value));
        }
    }
    (groups, total.unwrap_or_else(|| panic!("no total line:\n{text}")))
}

#[test]
fn group_totals_add_up_to_the_evaluation() {
    let (groups, total) = groups_and_total("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(groups.iter().any(|(g, _)| g == "king_danger"), "{groups:?}");
    let sum: i64 = groups.iter().map(|(_, v)| v).sum();
    // Each group total is rounded on its own; the evaluation rounds the sum once.
    let slack = i64::try_from(groups.len()).unwrap();
    assert!((sum - total).abs() <= slack, "groups sum to {sum}, total {total}");
    assert!(total.abs() < 300, "the start position is near even: {total}");
}

#[test]
fn a_rook_down_is_behind() {
    let (_, total) = groups_and_total("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1");
    assert!(total < -500, "Black without its rook: {total}");
    let (_, total) = groups_and_total("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL w - 1");
    assert!(total > 500, "White to move against Black without its rook: {total}");
}

#[test]
fn a_broken_sfen_is_a_clean_error() {
    let out = run(["eval", "not a position"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_batch_from_standard_input_matches_one_position_at_a_time() {
    let sfens = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL w - 1",
        "4k4/9/9/9/9/9/1+r5+b1/3GSG3/4K4 b - 1",
    ];
    let input = sfens.join("\n") + "\n";
    let out = tools().args(["eval", "-"]).write_stdin(input).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        sfens.len() + 1,
        "a header and one line a position:\n{text}"
    );
    let header: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(header[0], "total");
    for (sfen, line) in sfens.iter().zip(&lines[1..]) {
        let values: Vec<i64> = line.split('\t').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), header.len(), "{line}");
        let (groups, total) = groups_and_total(sfen);
        assert_eq!(values[0], total, "{sfen}");
        let named: Vec<(String, i64)> = header[1..]
            .iter()
            .map(|h| (*h).to_string())
            .zip(values[1..].iter().copied())
            .collect();
        assert_eq!(named, groups, "{sfen}");
    }
}

#[test]
fn a_broken_sfen_in_a_batch_is_a_clean_error() {
    let out = tools()
        .args(["eval", "-"])
        .write_stdin("not a position\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"), "{out:?}");
}
