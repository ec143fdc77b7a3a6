//! Move-generation benchmarks: legal moves, checks, mate in one and the static 3-ply mate
//! features per position, and perft from the start position.
//!
//! Positions: `../shared/data/bench_positions.tsv` (YaneuraOu's bench set and mate-engine test
//! positions) when it is beside the checkout, otherwise YaneuraOu's four default bench
//! positions typed in below.
//! Run: `cargo bench -p soppo-core --bench movegen`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use soppo_core::Position;
use soppo_core::mate_eval::{Mate3Features, mate3_score};
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::perft::perft;
use std::hint::black_box;

const FALLBACK: [&str; 4] = [
    "lnsgkgsnl/1r7/p1ppp1bpp/1p3pp2/7P1/2P6/PP1PPPP1P/1B3S1R1/LNSGKG1NL b - 9",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
];

fn positions() -> Vec<Position> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/bench_positions.tsv");
    let sfens: Vec<String> = if let Ok(text) = std::fs::read_to_string(path) {
        text.lines()
            .filter_map(|l| l.split('\t').next())
            .map(str::to_owned)
            .collect()
    } else {
        eprintln!("bench_positions.tsv not found beside the checkout; using YaneuraOu's four bench positions");
        FALLBACK.iter().map(|s| (*s).to_owned()).collect()
    };
    sfens
        .iter()
        .map(|s| Position::from_sfen(s).expect("bench SFEN"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut ps = positions();
    let n = ps.len() as u64;
    let mut g = c.benchmark_group("per_position");
    g.throughput(Throughput::Elements(n));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut total = 0;
            for p in &ps {
                let mut l = MoveList::new();
                generate_legal::<true>(black_box(p), &mut l);
                total += l.len();
            }
            total
        });
    });
    g.bench_function("checks", |b| {
        b.iter(|| {
            let mut total = 0;
            for p in &ps {
                let mut l = MoveList::new();
                generate_checks::<true>(black_box(p), &mut l);
                total += l.len();
            }
            total
        });
    });
    g.bench_function("mate_in_one", |b| {
        b.iter(|| {
            let mut mates = 0;
            for p in &mut ps {
                if black_box(&mut *p).mate_in_one().is_some() {
                    mates += 1;
                }
            }
            mates
        });
    });
    g.bench_function("mate3_features", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for p in &ps {
                if let Some(f) = Mate3Features::extract(black_box(p)) {
                    total += u32::from(f.escapes) + u32::from(f.attacker_control);
                }
            }
            total
        });
    });
    g.bench_function("mate3_score", |b| {
        b.iter(|| ps.iter().map(|p| mate3_score(black_box(p))).sum::<f32>());
    });
    g.finish();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(719_731));
    g.bench_function("startpos_4", |b| {
        b.iter(|| perft(&mut Position::startpos(), black_box(4)));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
