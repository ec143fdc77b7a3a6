use super::*;

/// Every event of a depth-`depth` search of `sfen` on a fresh 4 MB table, starting from the
/// statistics kept in `histories`.
fn events_keeping(sfen: &str, depth: u32, settings: &SearchSettings, histories: &Histories) -> Vec<SearchEvent> {
    let pos = Position::from_sfen(sfen).unwrap();
    let tt = TranspositionTable::new(4);
    let control = Arc::new(SearchControl::default());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut events = Vec::new();
    run_keeping(1, pos, &tt, histories, &control, &limits, settings, &mut |e| {
        events.push(e);
    });
    events
}

fn events(sfen: &str, depth: u32, settings: &SearchSettings) -> Vec<SearchEvent> {
    events_keeping(sfen, depth, settings, &Histories::new())
}

fn think(sfen: &str, depth: u32) -> Decision {
    let events = events(sfen, depth, &SearchSettings::default());
    let dones: Vec<&SearchEvent> = events.iter().filter(|e| matches!(e, SearchEvent::Done(..))).collect();
    assert_eq!(dones.len(), 1);
    match dones[0] {
        SearchEvent::Done(_, d, _) => d.clone(),
        _ => unreachable!(),
    }
}

/// Nodes of a depth-`depth` search of `sfen` with `threads` threads, from the statistics kept
/// in `histories`.
fn nodes_keeping(sfen: &str, depth: u32, threads: u32, histories: &Histories) -> u64 {
    let settings = SearchSettings {
        threads,
        ..SearchSettings::default()
    };
    events_keeping(sfen, depth, &settings, histories)
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Info(_, i) => Some(i.nodes),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn move_ordering_statistics_are_kept_between_searches_until_cleared() {
    let sfen = "ln1g3nl/1r1sgkb2/p1pppp1pp/6s2/1p5P1/2P6/PPSPPPP1P/1BG1K2R1/LN3GSNL b - 1";
    let histories = Histories::new();
    let first = nodes_keeping(sfen, 6, 1, &histories);
    let (tables, learned) = histories.learned();
    assert_eq!(tables, 1);
    assert!(learned > 0);
    // The same search again, the table fresh but the statistics kept: another tree.
    let second = nodes_keeping(sfen, 6, 1, &histories);
    assert_ne!(first, second);
    // Cleared (a new game), the search is the first one again, node for node.
    histories.clear();
    assert_eq!(histories.learned(), (0, 0));
    assert_eq!(nodes_keeping(sfen, 6, 1, &histories), first);
    // Every thread keeps its own tables.
    nodes_keeping(sfen, 4, 2, &histories);
    assert_eq!(histories.learned().0, 2);
}

#[test]
fn multipv_reports_distinct_legal_first_moves() {
    let settings = SearchSettings {
        multi_pv: 3,
        ..SearchSettings::default()
    };
    let ev = events(soppo_core::STARTPOS_SFEN, 4, &settings);
    let last_depth: Vec<&SearchInfo> = ev
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Info(_, i) if i.depth == 4 => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(last_depth.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    let firsts: Vec<Move> = last_depth.iter().map(|i| i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let start = Position::startpos();
    assert!(firsts.iter().all(|&m| start.is_legal_move(m)));
}

#[test]
fn multipv_larger_than_the_legal_moves_is_clamped() {
    // White's king has exactly two legal moves.
    let settings = SearchSettings {
        multi_pv: 10,
        ..SearchSettings::default()
    };
    let sfen = "k8/2G6/9/9/9/9/9/9/4K4 w - 1";
    let n = Position::from_sfen(sfen).unwrap().legal_moves().len() as u32;
    let ev = events(sfen, 2, &settings);
    let slots = ev
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Info(_, i) if i.depth == 2 => Some(i.multipv),
            _ => None,
        })
        .max();
    assert_eq!(slots, Some(n));
}

#[test]
fn two_threads_answer_once_with_a_legal_move() {
    let settings = SearchSettings {
        threads: 2,
        ..SearchSettings::default()
    };
    let ev = events(soppo_core::STARTPOS_SFEN, 6, &settings);
    let dones: Vec<&Decision> = ev
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Done(_, d, _) => Some(d),
            _ => None,
        })
        .collect();
    assert_eq!(dones.len(), 1);
    match dones[0] {
        Decision::Move { best, .. } => assert!(Position::startpos().is_legal_move(*best)),
        d => panic!("{d:?}"),
    }
}

#[test]
fn every_reported_line_is_legal() {
    // A tactical middle game: every pv printed at every depth must replay legally.
    let sfen = "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1";
    let ev = events(sfen, 7, &SearchSettings::default());
    let mut lines = 0;
    for e in &ev {
        if let SearchEvent::Info(_, info) = e {
            let mut p = Position::from_sfen(sfen).unwrap();
            for &m in &info.pv {
                assert!(p.is_legal_move(m), "illegal {m} in {:?}", info.pv);
                p.do_move(m);
            }
            lines += 1;
        }
    }
    assert!(lines >= 7);
}

#[test]
fn finds_a_mate_in_three_and_reports_it() {
    // Black mates in three: a rook check from the side, then a gold.
    let sfen = "7nl/7k1/6ppp/9/9/9/9/9/K8 b RG 1";
    let ev = events(sfen, 5, &SearchSettings::default());
    let last = ev
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Info(_, i) => Some(i.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        matches!(last.score, ScoreValue::MateIn(n) if n > 0 && n <= 3),
        "{last:?}"
    );
}

#[test]
fn takes_a_free_rook() {
    // The bishop on 6g can take the undefended rook on 4e.
    let d = think("4k4/9/9/9/5r3/9/3B5/9/4K4 b - 1", 3);
    assert!(
        matches!(d, Decision::Move { best, .. } if best == Move::from_usi("6g4e").unwrap()),
        "{d:?}"
    );
}

#[test]
fn mates_in_one_and_resigns_when_mated() {
    let d = think("4k4/9/4P4/9/9/9/9/9/9 b G 1", 2);
    assert_eq!(
        d,
        Decision::Move {
            best: Move::from_usi("G*5b").unwrap(),
            ponder: None
        }
    );
    // White is checkmated: no legal move.
    let d = think("4k4/4G4/4P4/9/9/9/9/9/9 w - 1", 2);
    assert_eq!(d, Decision::Resign);
}

/// With a net of either shape the search evaluates through its accumulators: in a test build every
/// evaluation is checked against a refresh (a debug assertion), over real search lines with
/// null moves, captures, drops and promotions; the moves are legal, with one thread or two,
/// on the scalar kernel and the fastest alike, and the two kernels search the same tree.
#[test]
fn the_network_searches_legal_moves_with_every_kernel_and_the_same_tree() {
    use crate::eval::nnue::Features;
    for (net, sfen) in [
        (Features::KP, soppo_core::STARTPOS_SFEN),
        (
            Features::HalfKP,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ),
        (
            Features::KP,
            "l8/9/p8/3k5/1ppn5/1P2pG3/P1P2S3/LB1SG4/1N2K4 b RB2G2SNL5Prnl6p 81",
        ),
        (
            Features::HalfKP,
            "l8/9/p8/3k5/1ppn5/1P2pG3/P1P2S3/LB1SG4/1N2K4 b RB2G2SNL5Prnl6p 81",
        ),
    ] {
        let net = Arc::new(crate::eval::nnue::random_net(net, 3));
        let pos = Position::from_sfen(sfen).unwrap();
        let mut trees = Vec::new();
        for kernel in Kernel::available() {
            for threads in [1, 2] {
                let settings = SearchSettings {
                    threads,
                    evaluation: Evaluation::Nnue,
                    network: Some(Arc::clone(&net)),
                    kernel: Some(kernel),
                    ..SearchSettings::default()
                };
                let ev = events(sfen, 6, &settings);
                let Some(SearchEvent::Done(_, Decision::Move { best, .. }, info)) = ev.last() else {
                    panic!("no move from {sfen}: {:?}", ev.last());
                };
                assert!(pos.is_legal_move(*best), "{best} in {sfen}");
                if threads == 1 {
                    trees.push((info.as_ref().map(|i| i.nodes), *best));
                }
            }
        }
        assert!(trees.windows(2).all(|w| w[0] == w[1]), "{sfen}: {trees:?}");
        // Not the classic evaluation's tree.
        let classic = events(sfen, 6, &SearchSettings::default());
        let nodes = |ev: &[SearchEvent]| match ev.last() {
            Some(SearchEvent::Done(_, _, Some(i))) => Some(i.nodes),
            _ => None,
        };
        assert_ne!(nodes(&classic), trees[0].0, "{sfen}");
    }
}
