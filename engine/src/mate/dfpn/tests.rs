use super::interposition::useless_interpositions_removed;
use super::tt::{DEP_NONE, INF, Record};
use super::{Dfpn, DfpnVerdict};
use crate::mate::lab::{self, SHOGI_ZUKO_99 as ZUKO_99};
use soppo_core::{Move, Position};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("bad sfen {sfen}: {e}"))
}

fn solve(d: &mut Dfpn, sfen: &str, max_nodes: u64) -> DfpnVerdict {
    d.solve(&pos(sfen), max_nodes, &mut |_| false)
}

/// [`lab::check_line`] from `sfen`.
fn check_line(sfen: &str, line: &[Move]) -> Result<(), String> {
    lab::check_line(&pos(sfen), line)
}

/// Proves `sfen`, then checks its mate line; returns the line length.
fn assert_mate(d: &mut Dfpn, sfen: &str, max_nodes: u64) -> usize {
    assert_eq!(solve(d, sfen, max_nodes), DfpnVerdict::Proven, "{sfen}");
    let line = d
        .mate_line(&pos(sfen))
        .unwrap_or_else(|| panic!("no mate line for {sfen}"));
    if let Err(e) = check_line(sfen, &line) {
        panic!("{sfen}: bad line {line:?}: {e}");
    }
    line.len()
}

#[test]
fn mate_in_one() {
    let mut d = Dfpn::new(16);
    let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    assert_eq!(assert_mate(&mut d, sfen, 1000), 1);
}

#[test]
fn mate_in_three() {
    let mut d = Dfpn::new(16);
    let sfen = "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
    // Any mating line will do (not necessarily the shortest); it cannot be shorter than 3.
    assert!(assert_mate(&mut d, sfen, 100_000) >= 3);
}

/// Proves `sfen`, then forgets every result except those of the root and of the position
/// after the line's first check, and asks for the line again: the walk has to re-search below
/// entries that say "proven" (at the root) and the defender's replies (after the check).
fn line_after_forgetting(sfen: &str) -> Vec<Move> {
    let mut d = Dfpn::new(16);
    let root = pos(sfen);
    assert_eq!(solve(&mut d, sfen, 1_000_000), DfpnVerdict::Proven);
    let first = d.mate_line(&root).expect("line")[0];
    let mut after = root.clone();
    after.do_move(first);
    d.set_root_context(&root);
    let kept = [&root, &after].map(|p| (p.board_key() ^ d.signature, d.probe_node(p, super::tt::UNBOUNDED)));
    d.clear();
    for (key, probe) in kept {
        assert_eq!(probe.pn, 0);
        let rec = Record {
            hand: probe.hand,
            pn: 0,
            dn: INF,
            len: probe.len,
            dep: DEP_NONE,
            work: 1,
        };
        d.shared.tt.store(key, rec);
    }
    d.mate_line(&root).expect("a line after re-searching")
}

#[test]
fn mate_line_searches_again_when_results_are_lost() {
    // A re-search at a defender node once left the defender recorded as the attacker, and one
    // at the root stopped at the root's own entry: both walks failed.
    let sfen = "9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1";
    let line = line_after_forgetting(sfen);
    check_line(sfen, &line).unwrap();
    assert!(line.len() >= 5, "{line:?}");
}

/// The verdicts a switch that only steers the search must leave alone, with it on and off:
/// the mudaai problems are mates and the perpetual check is not.
fn switch_keeps_verdicts(set: impl Fn(&mut Dfpn, bool)) {
    for on in [true, false] {
        let mut d = Dfpn::new(16);
        set(&mut d, on);
        for sfen in [
            "5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1",
            "9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1",
            "1p4g+b1/3l2gks/4sn2s/3pn1S1g/2pn1pl1l/2n1p1p2/R6g1/KR7/B6L1 b 12p 1",
        ] {
            assert_mate(&mut d, sfen, 5_000_000);
        }
        assert_eq!(
            solve(&mut d, "7nk/9/7+R1/9/9/9/9/9/K8 b - 1", 2_000_000),
            DfpnVerdict::Disproven
        );
    }
}

#[test]
fn drop_chains_do_not_change_verdicts() {
    // Chains only decide the order in which interposing drops are searched.
    switch_keeps_verdicts(Dfpn::set_drop_chains);
}

#[test]
fn capped_sums_do_not_change_verdicts() {
    // The cap only steers the search. Shogi Muso #21 is the runaway sums it is for: with
    // plain sums it was not proven in 216 M nodes.
    switch_keeps_verdicts(Dfpn::set_capped_sums);
    let mut d = Dfpn::new(64);
    assert_mate(
        &mut d,
        "s2k3r1/1B2p+R3/1n7/2Pg5/p1S+b5/2p6/1+p7/9/9 b S3gs3n4l13p 1",
        8_000_000,
    );
}

#[test]
fn no_checks_is_disproven() {
    let mut d = Dfpn::new(16);
    assert_eq!(
        solve(&mut d, "4k4/9/9/9/9/9/9/9/4K4 b - 1", 1000),
        DfpnVerdict::Disproven
    );
    assert!(d.mate_line(&pos("4k4/9/9/9/9/9/9/9/4K4 b - 1")).is_none());
}

#[test]
fn lone_gold_cannot_mate() {
    let mut d = Dfpn::new(16);
    // One gold against a bare king in the open: checks, never mate.
    assert_eq!(
        solve(&mut d, "9/9/9/9/4k4/9/9/9/K8 b G 1", 1_000_000),
        DfpnVerdict::Disproven
    );
}

#[test]
fn perpetual_check_is_not_mate() {
    let mut d = Dfpn::new(16);
    // A dragon can check the king between 1a and 1b forever (and the defender's full hand
    // stops any real mate): a solver that counted repetitions as mates would prove these.
    for sfen in [
        "7nk/9/7+R1/9/9/9/9/9/K8 b - 1",
        "8k/9/7+R1/9/9/9/9/9/K8 b - 1",
        "k8/9/1+R7/9/9/9/9/9/8K b - 1",
        "9/9/9/9/4k4/9/9/9/K8 b R 1",
    ] {
        let v = solve(&mut d, sfen, 2_000_000);
        assert_ne!(v, DfpnVerdict::Proven, "{sfen}");
        assert_eq!(v, DfpnVerdict::Disproven, "{sfen}");
    }
}

#[test]
fn mudaai_problems_are_mates() {
    let mut d = Dfpn::new(64);
    for sfen in [
        "5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1",
        "9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1",
        "9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1",
        "6Bnl/8k/7p1/7b1/9/9/9/9/9 b Rr4g4s3n3l17p 1",
        "1p4g+b1/3l2gks/4sn2s/3pn1S1g/2pn1pl1l/2n1p1p2/R6g1/KR7/B6L1 b 12p 1",
        "9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1",
    ] {
        assert_mate(&mut d, sfen, 5_000_000);
    }
}

/// Shogi Zuko 99 (117 plies) proven, with a mating line. The proof takes 846,938 nodes, about
/// 3 s in the test profile; the budget of 5 M nodes (under 20 s) is the test's time limit, and
/// a change that multiplies the proof's size fails it.
#[test]
fn shogi_zuko_99() {
    let mut d = Dfpn::new(256);
    // The line need not be the shortest mate (nor the defender's longest resistance).
    assert_mate(&mut d, ZUKO_99, 5_000_000);
}

#[test]
fn stop_and_node_limit_give_unknown() {
    let mut d = Dfpn::new(16);
    assert_eq!(solve(&mut d, ZUKO_99, 10), DfpnVerdict::Unknown);
    d.clear();
    assert_eq!(d.solve(&pos(ZUKO_99), u64::MAX, &mut |_| true), DfpnVerdict::Unknown);
}

#[test]
fn tiny_table_never_lies() {
    // A table of 1 MB cannot hold Zuko 99's proof: results are replaced and garbage collected
    // all the time, yet the answer is a proof or Unknown.
    let mut d = Dfpn::new(1);
    let v = solve(&mut d, ZUKO_99, 3_000_000);
    assert_ne!(v, DfpnVerdict::Disproven);
    if v == DfpnVerdict::Proven {
        let line = d.mate_line(&pos(ZUKO_99)).expect("line");
        check_line(ZUKO_99, &line).unwrap();
    }
}

// ----- shared data (`shared/data` beside the checkout, or $SOPPO_SHARED_DATA) -----------

pub(crate) fn data_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SOPPO_SHARED_DATA").map(PathBuf::from),
        Some(manifest.join("../shared/data")),
        Some(manifest.join("../../shared/data")),
    ];
    let found = candidates.into_iter().flatten().find(|p| p.is_dir());
    if found.is_none() {
        eprintln!("skipping: shared data not found (set SOPPO_SHARED_DATA)");
    }
    found
}

/// The SFEN (first column) of the first `n` data rows of `file`; `None` if the data is absent.
fn sfens(file: &str, n: usize) -> Option<Vec<String>> {
    let path = data_dir()?.join(file);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} not readable", path.display());
        return None;
    };
    Some(
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(n)
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect(),
    )
}

fn mates_from_file(file: &str, n: usize) {
    let Some(rows) = sfens(file, n) else { return };
    let mut d = Dfpn::new(64);
    let t = Instant::now();
    for sfen in &rows {
        assert_mate(&mut d, sfen, 10_000_000);
    }
    eprintln!(
        "{file}: {} mates proven with lines in {:.2} s",
        rows.len(),
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn data_mate3() {
    mates_from_file("mate3_yaneuraou.tsv", 200);
}

#[test]
fn data_mate5() {
    mates_from_file("mate5_yaneuraou.tsv", 200);
}

#[test]
fn data_mate7() {
    mates_from_file("mate7_yaneuraou.tsv", 200);
}

#[test]
fn data_mate9() {
    mates_from_file("mate9_yaneuraou.tsv", 200);
}

#[test]
fn data_mate11() {
    mates_from_file("mate11_yaneuraou.tsv", 200);
}

#[test]
fn data_mudaai() {
    let Some(rows) = sfens("mudaai6.tsv", usize::MAX) else {
        return;
    };
    let mut d = Dfpn::new(64);
    for sfen in &rows {
        assert_mate(&mut d, sfen, 5_000_000);
    }
}

/// `nomate.tsv`: rows labelled `nomate` must never be proven. Rows labelled `nomate<=N` only
/// claim no mate within N plies (under tsume rules; some have longer mates under game
/// rules): if proven, the line must be valid and longer than N.
#[test]
fn data_nomate_never_proven() {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read_to_string(dir.join("nomate.tsv")).expect("nomate.tsv");
    let mut d = Dfpn::new(64);
    for row in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut cols = row.split('\t');
        let (Some(sfen), Some(label)) = (cols.next(), cols.next()) else {
            panic!("bad row {row}")
        };
        let v = solve(&mut d, sfen, 2_000_000);
        if let Some(n) = label.strip_prefix("nomate<=") {
            if v == DfpnVerdict::Proven {
                let n: usize = n.parse().expect("length");
                assert!(assert_mate(&mut d, sfen, 2_000_000) > n, "{sfen}");
            }
        } else {
            assert_ne!(v, DfpnVerdict::Proven, "{sfen}");
        }
    }
}

/// [`lab::shortest_against_exact`] on `n` rows of `file` (panics on the first row that fails).
/// Returns (rows, equal, longer).
fn shortest_against_exact(file: &str, n: usize) -> Option<(usize, usize, usize)> {
    let rows = sfens(file, n)?;
    let (mut equal, mut longer) = (0, 0);
    for sfen in &rows {
        let (len, exact) = lab::shortest_against_exact(&pos(sfen)).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        if len == exact {
            equal += 1;
        } else {
            longer += 1;
        }
    }
    Some((rows.len(), equal, longer))
}

#[test]
fn shortest_lines_are_never_below_the_tsume_answer() {
    for file in ["mate5_yaneuraou.tsv", "mate9_yaneuraou.tsv", "mudaai6.tsv"] {
        if let Some((rows, equal, longer)) = shortest_against_exact(file, 60) {
            eprintln!("{file}: {rows} rows, {equal} exact length, {longer} longer");
        }
    }
}

/// A YaneuraOu 5-ply sample with a 3-ply mate, which df-pn's first proof does not find:
/// `shortest_line` comes down to 3 plies, and the line is the tsume answer.
#[test]
fn shortest_line_finds_the_shorter_mate() {
    let sfen = "ln6+P/2sk1G3/p1ppn2pp/5BP2/9/2N6/P1PPPP2P/1SG6/LN1KR+r3 w 2G2L5Pb2s 72";
    let mut d = Dfpn::new(16);
    let got = d.shortest_line(&pos(sfen), &mut |_| false).expect("a mate");
    assert!(got.shortest);
    assert_eq!((got.line.len(), got.bound), (3, 3), "{:?}", got.line);
    crate::mate::verify::verify(&pos(sfen), &got.line, crate::mate::Claim::Answer).unwrap();
}

/// `stats().nodes` counts every node since the last `solve`, across the bounded searches and
/// line walks after it (the `info` lines of `go mate` report it), and a new `solve` restarts it.
#[test]
fn stats_count_every_search_since_the_last_solve() {
    let sfen = "ln6+P/2sk1G3/p1ppn2pp/5BP2/9/2N6/P1PPPP2P/1SG6/LN1KR+r3 w 2G2L5Pb2s 72";
    let root = pos(sfen);
    let mut d = Dfpn::new(16);
    assert_eq!(d.solve(&root, u64::MAX, &mut |_| false), DfpnVerdict::Proven);
    let proof = d.stats().nodes;
    assert!(proof > 0);
    let short = d.shortest_line(&root, &mut |_| false).expect("a mate");
    assert!(short.nodes > 0, "the shorter mate takes searches");
    assert!(
        d.stats().nodes >= proof + short.nodes,
        "{} < {proof} + {}",
        d.stats().nodes,
        short.nodes
    );
    d.clear();
    assert_eq!(d.solve(&root, u64::MAX, &mut |_| false), DfpnVerdict::Proven);
    assert_eq!(d.stats().nodes, proof, "a fresh solve counts from zero, node for node");
}

/// The paper's Fig. 2 shape with the rook three files from the king (every drop between is
/// useless): a mate in one ply for the bounded searches, whose final position still has legal
/// interpositions. (From eight files away, as in the paper, the nested interpositions go
/// deeper than the bounded searches look, and they count them: 9 plies.)
#[test]
fn shortest_line_does_not_count_useless_interpositions() {
    let sfen = "k8/9/PPN6/9/9/9/9/9/3R5 b r2b4g4s4n4l16p 1";
    let mut d = Dfpn::new(16);
    let got = d.shortest_line(&pos(sfen), &mut |_| false).expect("a mate");
    assert!(got.shortest);
    assert_eq!(got.line.iter().map(ToString::to_string).collect::<Vec<_>>(), ["6i6a+"]);
    crate::mate::verify::verify(&pos(sfen), &got.line, crate::mate::Claim::Answer).unwrap();
    // Without the filter every drop counts, and the shortest game-rule mate is longer.
    let mut counting_all = Dfpn::new(16);
    counting_all.set_useless_filter(false);
    let longer = counting_all.shortest_line(&pos(sfen), &mut |_| false).expect("a mate");
    assert!(longer.line.len() > 1, "{:?}", longer.line);
}

/// A search asked to stop before it begins ends at once: a line walk runs many small
/// searches, and each used to run for a poll interval first.
#[test]
fn a_search_stopped_before_it_begins_searches_nothing() {
    let mut d = Dfpn::new(16);
    assert_eq!(d.solve(&pos(ZUKO_99), u64::MAX, &mut |_| true), DfpnVerdict::Unknown);
    assert_eq!(d.stats().nodes, 0);
    // And a walk stopped at once gives no line (Shogi Zuko 5, 21 plies).
    let zuko_5 = "n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1";
    let mut d = Dfpn::new(16);
    assert_eq!(solve(&mut d, zuko_5, u64::MAX), DfpnVerdict::Proven);
    let proven = d.proven_length(&pos(zuko_5)).expect("a proof");
    assert!(d.tightened_line(&pos(zuko_5), proven, &mut |_| false).is_some());
    let before = d.stats().nodes;
    assert!(d.tightened_line(&pos(zuko_5), proven, &mut |_| true).is_none());
    assert_eq!(d.stats().nodes, before, "nothing searched");
}

/// The cache of useless-interposition tests gives back what the test itself removes, and
/// the test says which places of the list it removed.
#[test]
fn cached_useless_interposition_tests_remove_the_same_evasions() {
    let mut p = pos("k8/9/PPN6/9/9/9/9/9/3R5 b r2b4g4s4n4l16p 1");
    p.do_move(Move::from_usi("6i6a+").unwrap());
    let mut all = soppo_core::MoveList::new();
    soppo_core::movegen::generate_legal::<true>(&p, &mut all);
    let mut direct = all.clone();
    let removed = useless_interpositions_removed(&mut p, soppo_core::Color::Black, &mut direct)
        .expect("the check can be interposed");
    assert!(direct.len() < all.len(), "some drops are useless");
    let kept: Vec<Move> = all
        .iter()
        .enumerate()
        .filter(|&(i, _)| removed & (1 << i) == 0)
        .map(|(_, &m)| m)
        .collect();
    assert_eq!(kept, &*direct, "the bits name the places removed");
    let mut d = Dfpn::new(1);
    d.attacker = soppo_core::Color::Black;
    for _ in 0..2 {
        // The second time from the cache.
        let mut list = all.clone();
        assert!(d.useless_removed(&mut p, &mut list));
        assert_eq!(&*list, &*direct);
        assert!(
            d.useless_cache.iter().any(|&(k, _)| k == p.key()),
            "the answer is cached"
        );
    }
}

/// Stopped while it shows Shogi Zuko 99 has no mate shorter than 117 plies (after the proof
/// and the easy shorter bounds, about 1.7 M nodes): the line proven so far, not marked
/// shortest, and a bound no shorter than the answer.
#[test]
fn stopped_shortest_line_is_not_marked_shortest() {
    let mut d = Dfpn::new(64);
    // The stop is polled every `POLL_INTERVAL` nodes: about 4 M nodes in all.
    let mut polls = 0;
    let got = d.shortest_line(&pos(ZUKO_99), &mut |_| {
        polls += 1;
        polls > 1000
    });
    let s = got.expect("a line");
    assert!(!s.shortest);
    assert!(s.bound >= 117, "{}", s.bound);
    check_line(ZUKO_99, &s.line).unwrap();
}

/// [`lab::walks_against_shortest`] on `n` rows of `file` (panics on the first row that fails).
/// Returns (rows, rows the stored walk gets right, rows the tightened walk gets right).
fn tightened_against_shortest(file: &str, n: usize) -> Option<(usize, usize, usize)> {
    let rows = sfens(file, n)?;
    let (mut stored_right, mut tightened_right) = (0, 0);
    for sfen in &rows {
        let walks = lab::walks_against_shortest(&pos(sfen)).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let Some(shortest) = walks.shortest else {
            eprintln!("not shown shortest: {sfen}");
            continue;
        };
        stored_right += usize::from(walks.stored == shortest);
        tightened_right += usize::from(walks.tightened == shortest);
    }
    Some((rows.len(), stored_right, tightened_right))
}

#[test]
fn tightened_walks_find_the_shortest_length_far_more_often_than_stored_ones() {
    for file in ["mate9_yaneuraou.tsv", "mate11_yaneuraou.tsv"] {
        if let Some((rows, stored, tightened)) = tightened_against_shortest(file, 60) {
            eprintln!("{file}: {rows} rows; shortest length from the stored walk {stored}, tightened {tightened}");
            // Measured on 1000 rows each: 329 and 263 stored, 963 and 931 tightened.
            assert!(tightened > stored, "{file}: tightened {tightened}, stored {stored}");
            assert!(tightened * 10 >= rows * 9, "{file}: tightened {tightened} of {rows}");
        }
    }
}

/// Positions whose df-pn search takes a few hundred thousand nodes on one thread (rows 100,
/// 104 and 112 of `mate_curated.tsv`), enough for a parallel search to start its helpers.
const PARALLEL_ROWS: [(&str, DfpnVerdict); 3] = [
    (
        "6lnk/6+Rbl/2n4pp/7s1/1p2P2NP/p1P2PPP1/1P4GS1/6GK1/LNr5L b B2G2S6Pp 1",
        DfpnVerdict::Proven,
    ),
    (
        "l4g2l/7k1/p1+Pp3pp/5ss1P/3Pp1gP1/P3SL3/N2GPK3/1+rP6/+p6RL w BG2N2Pbsn3p 1",
        DfpnVerdict::Proven,
    ),
    (
        "l2+S1p2K/1B4G2/p4+N1p1/3+B3sk/5P1s1/P1G3p1p/2P1Pr1+n1/9/LNS5L b R2GL8Pnp 1",
        DfpnVerdict::Disproven,
    ),
];

/// Two threads on one table reach the verdicts one thread reaches, with mate lines that
/// check out, and the helper's nodes are counted.
#[test]
fn two_threads_prove_and_disprove_what_one_does() {
    for (sfen, verdict) in PARALLEL_ROWS {
        let mut d = Dfpn::new(32);
        d.set_threads(2);
        assert_eq!(solve(&mut d, sfen, 20_000_000), verdict, "{sfen}");
        assert!(
            d.shared.helper_nodes.load(Ordering::Relaxed) > 0,
            "the helper searched ({sfen})"
        );
        assert!(d.stats().nodes > d.searched, "stats count the helper's nodes");
        if verdict == DfpnVerdict::Proven {
            let line = d.mate_line(&pos(sfen)).expect("a mate line");
            check_line(sfen, &line).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        }
    }
}

/// An assistant on another thread joins the owner's search, and the verdict and line are
/// the owner's to report.
#[test]
fn an_assistant_joins_the_owners_search() {
    let (sfen, verdict) = PARALLEL_ROWS[1];
    let mut d = Dfpn::new(32);
    let mut assistant = d.assistant();
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let finished = &finished;
        std::thread::Builder::new()
            .stack_size(super::STACK_BYTES)
            .spawn_scoped(s, move || assistant.assist(&|| finished.load(Ordering::Relaxed)))
            .expect("a thread");
        // Wait until the assistant is ready, so that it takes part from the start.
        while d.shared.assistants.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        assert_eq!(solve(&mut d, sfen, 20_000_000), verdict);
        finished.store(true, Ordering::Relaxed);
    });
    assert!(
        d.shared.helper_nodes.load(Ordering::Relaxed) > 0,
        "the assistant searched"
    );
    assert_eq!(d.shared.assistants.load(Ordering::SeqCst), 0, "the assistant left");
    let line = d.mate_line(&pos(sfen)).expect("a mate line");
    check_line(sfen, &line).unwrap();
}

/// While a first proof runs, the watcher shows a line from the root that df-pn is on: legal,
/// every attacker move a check; nothing once the search is over.
#[test]
fn the_watched_line_is_legal_and_checks_while_the_proof_runs() {
    let mut d = Dfpn::new(16);
    let watcher = d.line_watcher();
    let root = pos(ZUKO_99);
    let attacker = root.side_to_move();
    let mut seen = 0;
    let mut longest = 0;
    let verdict = d.solve(&root, 200_000, &mut |_| {
        let line = watcher.current_line();
        let mut p = root.clone();
        for (i, &m) in line.iter().enumerate() {
            assert!(p.is_legal_move(m), "ply {i}: {m} illegal in {line:?}");
            let attacking = p.side_to_move() == attacker;
            p.do_move(m);
            assert!(!attacking || p.in_check(), "ply {i}: {m} is no check in {line:?}");
        }
        seen += 1;
        longest = longest.max(line.len());
        false
    });
    assert_eq!(verdict, DfpnVerdict::Unknown, "200,000 nodes do not prove Zuko 99");
    assert!(seen >= 10, "polled {seen} times");
    assert!(longest >= 9, "the deepest line watched had {longest} plies");
    assert!(
        watcher.current_line().is_empty(),
        "a line is still shown after the search"
    );
}
