//! `bench`: fixed-depth searches on a fixed set of positions, one thread, a fresh 16 MB table
//! per position. The node total is the search's signature (`Bench: N` in commits): it must be
//! the same on every run. It runs with the classic evaluation unless given a network
//! ([`run_with_settings`]), which measures the network's speed (its node count is another).

use crate::eval::Evaluation;
use crate::eval::nnue::{AccumulatorStats, Kernel, Network};
use crate::search::{self, Limits, SearchControl, SearchEvent, SearchSettings};
use crate::tt::TranspositionTable;
use soppo_core::Position;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

pub const DEFAULT_DEPTH: u32 = 13;

/// YaneuraOu's four default bench positions (opening, middle game, a mating attack, the
/// move-generation festival position), then positions of our own: the initial position and
/// four positions from lishogi games (a castle battle at ply 40, middle games at plies 60 and
/// 70, an endgame with most pieces in hand at ply 80).
const POSITIONS: [&str; 9] = [
    "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln3g1nl/3sgsk2/3p1pbp1/pr2p1p1p/1NP6/PP1PP3P/3S1PPP1/2RBG1SK1/L4G1NL b 2P 41",
    "ln1S1nbnl/1g1s1k1g1/p1ppppp1p/1p2R2p1/9/P8/B2PPPP1P/2GS2S2/L2K1G2+r b nl3p 61",
    "l3k2+B1/1b2r1g2/2ppg3p/pp2ppNp1/6p2/PPPSS3P/2K2GN1L/4R4/L2GL3+n b 2Sn5p 71",
    "l8/9/p8/3k5/1ppn5/1P2pG3/P1P2S3/LB1SG4/1N2K4 b RB2G2SNL5Prnl6p 81",
];

/// Runs the bench and returns its report; the last line is `<nodes> nodes <nps> nps`.
pub fn run(depth: u32) -> String {
    run_with(depth, 1)
}

/// The bench with `threads` search threads (Lazy SMP). Only one thread gives a repeatable
/// node count; more threads measure the time to depth.
pub fn run_with(depth: u32, threads: u32) -> String {
    run_with_settings(depth, &bench_settings(threads, None))
}

/// The bench's settings: `threads` threads, the network `nnue` (with its kernel) or the classic
/// evaluation, and the defaults of every other option (`MultiPV` 1, no resignation).
pub fn bench_settings(threads: u32, nnue: Option<(Arc<Network>, Kernel)>) -> SearchSettings {
    let (evaluation, network, kernel) = match nnue {
        Some((net, kernel)) => (Evaluation::Nnue, Some(net), Some(kernel)),
        None => (Evaluation::Classic, None, None),
    };
    SearchSettings {
        threads: threads.max(1),
        evaluation,
        network,
        kernel,
        ..SearchSettings::default()
    }
}

/// The bench with these settings.
pub fn run_with_settings(depth: u32, settings: &SearchSettings) -> String {
    let mut report = String::new();
    let mut total = 0u64;
    let mut accumulators = AccumulatorStats::default();
    let start = Instant::now();
    for (i, sfen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_sfen(sfen) else { continue };
        let tt = TranspositionTable::new(16);
        let control = Arc::new(SearchControl::new(false, search::Budget::default()));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut nodes = 0;
        let t = Instant::now();
        search::run(0, pos, &tt, &control, &limits, settings, &mut |e| match e {
            SearchEvent::Info(_, info) => nodes = nodes.max(info.nodes),
            SearchEvent::Accumulators(_, s) => {
                accumulators.updates += s.updates;
                accumulators.refreshes += s.refreshes;
            }
            _ => {}
        });
        total += nodes;
        let _ = writeln!(
            report,
            "Position {}/{}: {nodes} nodes {} ms ({sfen})",
            i + 1,
            POSITIONS.len(),
            t.elapsed().as_millis()
        );
    }
    if accumulators != AccumulatorStats::default() {
        let all = (accumulators.updates + accumulators.refreshes).max(1);
        #[allow(clippy::cast_precision_loss, reason = "a percentage")]
        let share = 100.0 * accumulators.refreshes as f64 / all as f64;
        let _ = writeln!(
            report,
            "NNUE accumulators (main thread): {} perspectives updated, {} refreshed ({:.2} %)",
            accumulators.updates, accumulators.refreshes, share
        );
    }
    let micros = start.elapsed().as_micros().max(1) as u64;
    let _ = write!(report, "{total} nodes {} nps", total * 1_000_000 / micros);
    report
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_runs_count_the_same_nodes() {
        let a = super::run(5);
        let b = super::run(5);
        let nodes = |r: &str| r.lines().last().and_then(|l| l.split(' ').next()).map(str::to_owned);
        assert_eq!(nodes(&a), nodes(&b));
        assert!(nodes(&a).is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 1000)));
    }
}
