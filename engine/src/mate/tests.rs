use super::answer::{self, Candidate, DfpnOutcome};
use super::dfpn::{Dfpn, DfpnVerdict};
use super::dfpn_answer::{ShortAnswer, run_dfpn, shortest_answer, unshown_answer};
use super::lab::as_tsume;
use super::progress::legal_prefix;
use super::*;

fn solve_sfen(sfen: &str) -> MateOutcome {
    let pos = Position::from_sfen(sfen).unwrap();
    let control = SearchControl::new(false, crate::search::Budget::default());
    solve(&pos, Some(Duration::from_secs(30)), &control, |_| {})
}

fn text(o: &MateOutcome) -> String {
    match o {
        MateOutcome::Mate(line) => line.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        other => format!("{other:?}"),
    }
}

/// Solves `sfen`, expects a mate of exactly `plies`, and checks the line independently of the
/// solver's own verification: legal, every attacker move a check.
fn expect_mate(sfen: &str, plies: usize) -> Vec<Move> {
    let o = solve_sfen(sfen);
    let MateOutcome::Mate(line) = o else {
        panic!("{sfen}: {o:?}")
    };
    assert_eq!(line.len(), plies, "{sfen}: {}", text(&MateOutcome::Mate(line.clone())));
    let mut p = Position::from_sfen(sfen).unwrap();
    for (i, m) in line.iter().enumerate() {
        assert!(p.is_legal_move(*m), "{sfen}: {m} illegal");
        p.do_move(*m);
        if i % 2 == 0 {
            assert!(p.in_check(), "{sfen}: {m} is no check");
        }
    }
    assert!(verify::verify(&Position::from_sfen(sfen).unwrap(), &line, Claim::Answer).is_ok());
    line
}

#[test]
fn mate_in_one() {
    assert_eq!(text(&solve_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1")), "G*5b");
}

#[test]
fn mate_in_three_with_longest_defence() {
    expect_mate("3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1", 3);
}

#[test]
fn no_checks_means_no_mate() {
    assert_eq!(solve_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1"), MateOutcome::NoMate);
}

/// The six useless-interposition regression positions of research/mate-anchors.md (public
/// issue trackers): game-rule solvers answer 5 to 13 plies; tsume rules say 3, 3, 3, 1, 1, 5.
#[test]
fn useless_interpositions_are_not_defences() {
    let cases = [
        ("5pk2/7P1/4+R1+P1+b/8b/6R2/9/9/9/9 b 4g4s4n4l15p 1", 3),
        ("9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1", 3),
        ("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1", 3),
        ("6Bnl/8k/7p1/7b1/9/9/9/9/9 b Rr4g4s3n3l17p 1", 1),
        ("1p4g+b1/3l2gks/4sn2s/3pn1S1g/2pn1pl1l/2n1p1p2/R6g1/KR7/B6L1 b 12p 1", 1),
        ("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1", 5),
    ];
    for (sfen, plies) in cases {
        expect_mate(sfen, plies);
    }
}

/// The paper's Fig. 2 shape: a rook promoting on 1a checks a king on 9a from eight files
/// away (a knight guards 8a). Every drop between is useless, so it is a one-ply mate.
#[test]
fn long_distance_interpositions_are_useless() {
    let sfen = "k8/9/PPN6/9/9/9/9/9/8R b r2b4g4s3n4l16p 1";
    let line = expect_mate(sfen, 1);
    assert_eq!(line[0].to_string(), "1i1a+");
    // Without the knight guarding 8a, a piece dropped there is taken back by the king: an
    // effective interposition, so the rook check is no mate in one.
    let mut pos = Position::from_sfen("k8/9/PP7/9/9/9/9/9/8R b r2b4g4s4n4l16p 1").unwrap();
    let mut never = |_: &exact::Poll| false;
    let mut exact = exact::Exact::new(pos.side_to_move(), 16, &mut never);
    assert!(!exact.or_node(&mut pos, 1));
}

/// The only mating drop would be a pawn-drop mate, which is illegal.
#[test]
fn pawn_drop_mate_is_not_a_mate() {
    assert_eq!(solve_sfen("7nk/9/7G1/9/9/9/9/9/9 b P 1"), MateOutcome::NoMate);
}

/// The verifier rejects a line that counts a useless interposition as the defence.
#[test]
fn verifier_rejects_useless_interposition_lines() {
    let pos = Position::from_sfen("6Bnl/8k/7p1/7b1/9/9/9/9/9 b Rr4g4s3n3l17p 1").unwrap();
    let good = expect_mate("6Bnl/8k/7p1/7b1/9/9/9/9/9 b Rr4g4s3n3l17p 1", 1);
    // Any interposition answering the same check, then the capture, is a three-ply line.
    let mut p = pos.clone();
    p.do_move(good[0]);
    let interposition = p
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.is_drop())
        .expect("a drop interposes");
    p.do_move(interposition);
    let capture = p
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !m.is_drop() && m.to() == interposition.to() && p.gives_check(*m))
        .expect("the checker captures");
    let long = [good[0], interposition, capture];
    // Counting the interposition makes the line three plies where one mates: the first fault.
    assert_eq!(
        verify::verify(&pos, &long, Claim::Answer),
        Err(VerifyError::ShorterMateExists { ply: 0, plies: 3 })
    );
    // From the check on, the interposition itself is the fault.
    let mut checked = pos.clone();
    checked.do_move(good[0]);
    let mut never = |_: &exact::Poll| false;
    let mut exact = exact::Exact::new(pos.side_to_move(), 16, &mut never);
    assert!(!exact.longest_defences(&mut checked, 2).contains(&interposition));
    // The interpositions are legal evasions, yet none is counted as a defence.
    let mut p = pos.clone();
    p.do_move(good[0]);
    assert!(p.has_legal_move());
    let mut never = |_: &exact::Poll| false;
    let mut exact = exact::Exact::new(pos.side_to_move(), 16, &mut never);
    assert!(exact.longest_defences(&mut p, 0).is_empty());
}

#[test]
fn verifier_rejects_non_shortest_and_non_mating_lines() {
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    let not_mate = [pos.parse_move("G*4b").unwrap()];
    assert_eq!(
        verify::verify(&pos, &not_mate, Claim::Answer),
        Err(VerifyError::MoveDoesNotMate {
            ply: 0,
            mv: not_mate[0],
            plies: 1
        })
    );
    assert_eq!(
        verify::verify(&pos, &not_mate, Claim::TsumeMate),
        Err(VerifyError::NotMateAtEnd { ply: 1 })
    );
    assert_eq!(
        verify::verify(&pos, &not_mate, Claim::Checkmate),
        Err(VerifyError::NotCheckmateAtEnd { ply: 1 })
    );
    for claim in [Claim::Answer, Claim::TsumeMate, Claim::Checkmate] {
        assert_eq!(
            verify::verify(&pos, &[], claim),
            Err(VerifyError::EvenLength { plies: 0 })
        );
    }
    let mate = pos.parse_move("G*5b").unwrap();
    assert_eq!(verify::verify(&pos, &[mate], Claim::Answer), Ok(()));
}

/// Perpetual check is not mate: a dragon can check these kings forever, and only df-pn's
/// repetition-aware proof of "no mate" ends the search.
#[test]
fn perpetual_check_is_no_mate() {
    for sfen in ["7nk/9/7+R1/9/9/9/9/9/K8 b - 1", "k8/9/1+R7/9/9/9/9/9/8K b - 1"] {
        let pos = Position::from_sfen(sfen).unwrap();
        let control = SearchControl::new(false, crate::search::Budget::default());
        let o = solve(&pos, Some(Duration::from_secs(8)), &control, |_| {});
        assert_eq!(o, MateOutcome::NoMate, "{sfen}");
    }
}

/// A side to move that is itself in check may only mate with evasions that give check.
#[test]
fn attacker_in_check_uses_checking_evasions() {
    // Black's king on 5i is checked by the lance on 5h; no evasion gives check.
    assert_eq!(solve_sfen("4k4/9/4P4/9/9/9/9/4l4/4K4 b G 1"), MateOutcome::NoMate);
    // Here the rook on 5e checks Black's king; taking it with the rook from 1e checks back,
    // and the mate follows (9 plies, verified shortest by the tsume verifier).
    let line = expect_mate("4k4/9/9/9/4r3R/9/9/9/4K4 b 2G 1", 9);
    assert_eq!(line[0].to_string(), "1e5e");
}

/// With one thread, once df-pn has shown a mating line and the exact search has its turn
/// again (Shogi Zuko 99, 117 plies, far beyond the exact search), the reports a GUI shows
/// neither count fewer nodes than before nor replace the mating line with the exact
/// search's unfinished one.
#[test]
fn reports_after_a_proven_line_keep_it_and_never_count_down() {
    let sfen = "k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let control = SearchControl::new(false, crate::search::Budget::default());
    let config = MateConfig {
        hash_mb: 256,
        threads: 1,
        ..MateConfig::default()
    };
    let mut reports = Vec::new();
    let o = solve_with(&pos, Some(Duration::from_secs(5)), &config, &control, |p| {
        reports.push((p.nodes, p.proven_line.is_some(), p.searching_line.is_some()));
    });
    let mut most = 0;
    let mut proven = false;
    for &(nodes, proven_line, searching_line) in &reports {
        assert!(nodes >= most, "{nodes} nodes after {most}: {reports:?}");
        assert!(
            !(proven && searching_line),
            "an unfinished line after a mating one: {reports:?}"
        );
        most = nodes;
        proven |= proven_line;
    }
    if let MateOutcome::Proven(line) = &o {
        assert!(proven, "the line was reported");
        assert_eq!(verify::verify(&pos, line, Claim::TsumeMate), Ok(()));
    }
}

/// With two threads the exact search and df-pn run side by side: the same exact answers,
/// df-pn's disproof of perpetual checks, and `stop` still answered at once.
#[test]
fn two_threads_give_the_same_answers() {
    let config = MateConfig {
        hash_mb: 64,
        threads: 2,
        ..MateConfig::default()
    };
    let run = |sfen: &str, secs: u64| {
        let pos = Position::from_sfen(sfen).unwrap();
        let control = SearchControl::new(false, crate::search::Budget::default());
        solve_with(&pos, Some(Duration::from_secs(secs)), &config, &control, |_| {})
    };
    for (sfen, plies) in [
        ("3sks3/9/4+P4/9/9/9/9/9/9 b G2S 1", 3),
        ("6Bnl/8k/7p1/7b1/9/9/9/9/9 b Rr4g4s3n3l17p 1", 1),
        ("9/6Spk/9/5R1+B1/9/9/9/9/9 b Nrb4g3s3n4l17p 1", 5),
    ] {
        match run(sfen, 30) {
            MateOutcome::Mate(line) => {
                assert_eq!(line.len(), plies, "{sfen}");
                assert!(verify::verify(&Position::from_sfen(sfen).unwrap(), &line, Claim::Answer).is_ok());
            }
            o => panic!("{sfen}: {o:?}"),
        }
    }
    assert_eq!(run("7nk/9/7+R1/9/9/9/9/9/K8 b - 1", 8), MateOutcome::NoMate);
    assert_eq!(run("7nk/9/7G1/9/9/9/9/9/9 b P 1", 8), MateOutcome::NoMate);
    // Microcosmos-class: far beyond a short limit; a stop arrives while both threads work.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b B4G2S9P2rb2s4n4l9p 1").unwrap();
    let control = std::sync::Arc::new(SearchControl::new(false, crate::search::Budget::default()));
    let stopper = {
        let c = std::sync::Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            c.stop();
        })
    };
    let t = Instant::now();
    let o = solve_with(&pos, None, &config, &control, |_| {});
    stopper.join().unwrap();
    assert_eq!(o, MateOutcome::Timeout);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

/// df-pn's part on its own: a YaneuraOu 5-ply sample whose first proof is 5 plies long comes
/// down to the 3-ply mate, which the verifier shows exact: the answer is a `Mate`. Both lines
/// are reported as they are found.
#[test]
fn dfpn_shortest_line_becomes_the_answer() {
    let sfen = "ln6+P/2sk1G3/p1ppn2pp/5BP2/9/2N6/P1PPPP2P/1SG6/LN1KR+r3 w 2G2L5Pb2s 72";
    let pos = Position::from_sfen(sfen).unwrap();
    let mut lines = Vec::new();
    let mut dfpn = Dfpn::new(16);
    let first_proof = answer::FirstProofCell::new();
    let found = run_dfpn(
        &mut dfpn,
        &pos,
        None,
        &mut |_| false,
        &mut |l, _| {
            lines.push(l.len());
        },
        &first_proof,
    );
    assert_eq!(
        first_proof.get(),
        Some(&answer::FirstProof::Proven(answer::MateLength::new(5).unwrap())),
        "the first proof's length is announced"
    );
    assert_eq!(
        lines,
        [5, 3],
        "df-pn's first line is reported, then the shortening's shorter one"
    );
    assert!(found.is_final());
    match found {
        DfpnOutcome::Mate(Some(Candidate::Exact(line))) => assert_eq!(line.len(), 3, "{line:?}"),
        other => panic!("{other:?}"),
    }
}

/// A df-pn shortest line the verifier could not show exact in its time is only a fallback when
/// the exact search can reach its length: the exact search then goes on and may still find the
/// tsume answer (a df-pn line can count a useless interposition as a defence).
#[test]
fn unverified_short_line_is_a_fallback() {
    // mate11_yaneuraou row 609: df-pn's 11-ply line counts a useless silver drop (S*5h).
    let sfen = "ln6r/1G1g1k3/1sp1p+b3/pp1p2p2/2n6/2S1NP2P/PPP1P4/2+rGK4/1N6L w SLPbgsl5p 148";
    let pos = Position::from_sfen(sfen).unwrap();
    let mut dfpn = Dfpn::new(64);
    assert_eq!(dfpn.solve(&pos, u64::MAX, &mut |_| false), DfpnVerdict::Proven);
    let short = dfpn.shortest_line(&pos, &mut |_| false).expect("a line");
    assert!(short.shortest);
    match shortest_answer(&pos, short, &mut || true) {
        ShortAnswer::Candidate(Candidate::UncheckedShortest(line)) => assert_eq!(line.len(), 11),
        other => panic!("not a line held against the exact search: {other:?}"),
    }
}

/// With a time limit, that fallback does not cut the exact search short: on two threads it
/// goes on to the deadline and finds the tsume answer (before, it stopped at twice the time
/// df-pn took, about 3 s, and the fallback with its useless drop was printed).
#[test]
fn with_a_deadline_the_exact_search_outlasts_a_fallback() {
    let sfen = "ln6r/1G1g1k3/1sp1p+b3/pp1p2p2/2n6/2S1NP2P/PPP1P4/2+rGK4/1N6L w SLPbgsl5p 148";
    let pos = Position::from_sfen(sfen).unwrap();
    let config = MateConfig {
        hash_mb: 64,
        threads: 2,
        ..MateConfig::default()
    };
    let control = SearchControl::new(false, crate::search::Budget::default());
    match solve_with(&pos, Some(Duration::from_secs(120)), &config, &control, |_| {}) {
        MateOutcome::Mate(line) => {
            assert_eq!(line.len(), 11);
            assert_eq!(verify::verify(&pos, &line, Claim::Answer), Ok(()));
        }
        other => panic!("{other:?}"),
    }
}

/// [`lab::exact_answer`](super::lab::exact_answer) from `sfen`: the length and line, and the nodes.
fn exact_answer(sfen: &str, super_piece: bool, max: i32, budget: u64) -> (Option<(i32, Vec<Move>)>, u64) {
    let answer = super::lab::exact_answer(&Position::from_sfen(sfen).unwrap(), super_piece, max, budget);
    (answer.mate, answer.nodes)
}

/// Super piece on and off answer alike (length and line), and on interposition-heavy shapes
/// the super piece needs fewer nodes. The positions are typed in: a Fig. 2-like problem of
/// Kitamura et al. (the promoted rook's check along the first rank leaves seven squares for
/// every kind), its 3-ply extension, two useless-interposition cases, and one with the
/// attacker's king on the board; and two generated problems.
#[test]
fn super_piece_gives_the_same_answers_with_fewer_nodes() {
    let cases = [
        ("k8/p8/2N6/2N6/9/9/9/9/8R b r2b4g4s2n4l17p 1", 1, true),
        ("8k/7P1/8+P/9/9/9/9/9/R8 b 2b4g4s4n4l16p 1", 1, true),
        ("9/5g1s1/8k/6+R2/9/6R1S/5B3/9/9 b b3g2s4n4l18p 1", 3, true),
        ("k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1", 1, true),
        ("k8/9/2N6/2N6/9/9/9/9/8+R b R2b4g4s2n4l18p 1", 3, false),
        // Two of the generated interposition-heavy set (`soppo-tools mate-measure super-piece-generated`, seed 1).
        ("6+P2/8b/8k/8N/5+P1+p1/9/8R/9/9 b RB4g4s3n4l15p 1", 7, true),
        ("9/9/7k1/9/4+R4/9/9/6R2/9 b B2Nb4g4s2n4l18p 1", 7, true),
    ];
    for (sfen, plies, fewer) in cases {
        let (on, on_nodes) = exact_answer(sfen, true, 15, 50_000_000);
        let (off, off_nodes) = exact_answer(sfen, false, 15, 50_000_000);
        assert_eq!(on, off, "{sfen}");
        let (len, line) = on.expect("a mate");
        assert_eq!(len, plies, "{sfen}");
        assert!(
            verify::verify(&Position::from_sfen(sfen).unwrap(), &line, Claim::Answer).is_ok(),
            "{sfen}"
        );
        if fewer {
            assert!(
                on_nodes < off_nodes,
                "{sfen}: {on_nodes} nodes with the super piece, {off_nodes} without"
            );
        }
    }
}

/// On rows of the data (game positions, so the attacker's king is on the board, and the
/// useless-interposition set), the super piece never changes an answer.
#[test]
fn super_piece_never_changes_an_answer_on_the_data() {
    let Some(dir) = super::dfpn::tests::data_dir() else {
        return;
    };
    let mut compared = 0;
    for (file, rows) in [
        ("mudaai6.tsv", 10),
        ("mate3_yaneuraou.tsv", 150),
        ("mate5_yaneuraou.tsv", 150),
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("skipping {file}: not readable");
            continue;
        };
        for row in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).take(rows) {
            let sfen = row.split('\t').next().unwrap_or_default();
            let (on, _) = exact_answer(sfen, true, 9, 2_000_000);
            let (off, _) = exact_answer(sfen, false, 9, 2_000_000);
            if on.is_some() && off.is_some() {
                assert_eq!(on, off, "{sfen}");
                compared += 1;
            }
        }
    }
    if compared > 0 {
        assert!(compared >= 250, "only {compared} rows answered");
    }
}

#[test]
fn a_game_position_becomes_a_tsume_problem() {
    let cases = [
        // Black to move: black's king goes, white holds what is left.
        (
            "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1",
            Some("k8/9/9/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1"),
        ),
        (
            "k8/9/1K7/9/9/9/8B/8B/9 b R 1",
            Some("k8/9/9/9/9/9/8B/8B/9 b Rr4g4s4n4l18p 1"),
        ),
        // White to move: white's king goes, black holds the rest, white's hand is kept.
        (
            "4k4/9/9/9/9/9/9/9/4K4 w 2r 1",
            Some("9/9/9/9/9/9/9/9/4K4 w 2B4G4S4N4L18P2r 1"),
        ),
        // Pieces on the board count, promoted or not.
        (
            "4k4/9/4+P4/9/9/9/9/9/4K4 b G 1",
            Some("4k4/9/4+P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"),
        ),
        // A defender without a king is no problem.
        ("9/9/9/9/9/9/9/9/4K4 b - 1", None),
    ];
    for (game, tsume) in cases {
        assert_eq!(as_tsume(game).as_deref(), tsume, "{game}");
    }
}

/// Without a line shown shortest, the answer is the one that lasts the shortest bound proven;
/// a tightened line of that length is kept; otherwise tightened, then first, then short.
#[test]
fn an_unshown_answer_prefers_the_line_that_lasts_its_bound() {
    let m = Move::drop(soppo_core::PieceKind::Gold, soppo_core::Square::new(0).unwrap());
    let line = |n: usize| vec![m; n];
    // Microcosmos: first proof 1565 plies, tightening cut short, shortening at 1525 with a
    // 1525-ply line.
    assert_eq!(
        unshown_answer(Some(line(1565)), None, line(1525), 1525),
        Some(line(1525))
    );
    // A tightened line that gives up early or runs long loses to the full one.
    assert_eq!(
        unshown_answer(Some(line(119)), Some(line(113)), line(117), 117),
        Some(line(117))
    );
    // A tightened line of the bound's length is kept (here distinguishable by its move).
    let other = vec![Move::drop(soppo_core::PieceKind::Silver, soppo_core::Square::new(1).unwrap()); 117];
    assert_eq!(
        unshown_answer(Some(line(121)), Some(other.clone()), line(117), 117),
        Some(other)
    );
    // A short line that does not last its bound comes last.
    assert_eq!(
        unshown_answer(Some(line(121)), Some(line(119)), line(111), 117),
        Some(line(119))
    );
    assert_eq!(unshown_answer(Some(line(121)), None, line(111), 117), Some(line(121)));
    assert_eq!(unshown_answer(None, None, line(111), 117), Some(line(111)));
}

/// A line shown while the exact search works stops before the first move that is not legal in
/// the real game (a super piece's drop kept in hand can make a second drop look possible).
#[test]
fn shown_lines_stop_at_the_first_illegal_move() {
    let pos = Position::from_sfen("k8/9/9/9/9/9/9/9/8R b Gr2b3g4s4n4l18p 1").unwrap();
    let moves = |s: &str| s.split(' ').map(|m| Move::from_usi(m).unwrap()).collect::<Vec<_>>();
    let line = moves("G*8b 9a8b 1i1b+ 8b7c");
    assert_eq!(legal_prefix(&pos, &line), line);
    // Black holds one gold: a second gold drop is not legal, and nothing after it is shown.
    let broken = moves("G*8b 9a8b G*7b 8b7b 1i1b+");
    assert_eq!(legal_prefix(&pos, &broken), moves("G*8b 9a8b"));
}
