//! End-to-end tests of `soppo-tools eval`: the group totals add up to the evaluation, and a
//! side a rook down is behind.

mod common;

use common::{stdout_of, tools};

/// The group totals and the total line of an `eval` run.
fn run(sfen: &str) -> (Vec<(String, i64)>, i64) {
    let out = tools().args(["eval", sfen]).output().unwrap();
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
    let (groups, total) = run("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(groups.iter().any(|(g, _)| g == "king_danger"), "{groups:?}");
    let sum: i64 = groups.iter().map(|(_, v)| v).sum();
    // Each group total is rounded on its own; the evaluation rounds the sum once.
    let slack = i64::try_from(groups.len()).unwrap();
    assert!((sum - total).abs() <= slack, "groups sum to {sum}, total {total}");
    assert!(total.abs() < 300, "the start position is near even: {total}");
}

#[test]
fn a_rook_down_is_behind() {
    let (_, total) = run("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1");
    assert!(total < -500, "Black without its rook: {total}");
    let (_, total) = run("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL w - 1");
    assert!(total > 500, "White to move against Black without its rook: {total}");
}

#[test]
fn a_broken_sfen_is_a_clean_error() {
    let out = tools().args(["eval", "not a position"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
