//! The fast paths against the reference: every kernel against [`Network::evaluate`] on random
//! positions and nets of both shapes, and the incremental accumulators against a refresh after
//! random sequences of moves, null moves and take-backs.

use super::network::{DEFAULT_FV_SCALE, HALF};
use super::*;
use proptest::prelude::*;
use soppo_core::rng::SplitMix64;
use soppo_core::{Move, PieceKind, Position};
use std::sync::{Arc, LazyLock};

/// Starts: the even one, the bench's middle games and endgames (pieces in hand, promoted
/// pieces), a tsume-style one without the attacker's king, one with every piece in hand.
const STARTS: [&str; 8] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l8/9/p8/3k5/1ppn5/1P2pG3/P1P2S3/LB1SG4/1N2K4 b RB2G2SNL5Prnl6p 81",
    "ln1S1nbnl/1g1s1k1g1/p1ppppp1p/1p2R2p1/9/P8/B2PPPP1P/2GS2S2/L2K1G2+r b nl3p 61",
    "4k4/9/4P4/9/9/9/9/9/9 b 2GS2r2b2g3s4n4l17p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
];

/// A network whose weights span their whole types: accumulators wrap round `i16`, the
/// activations are mostly clipped at 0 or 127, and `maddubs` sees −128 weights.
fn extreme_net(features: Features, seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut net = Network::zeroed(features);
    let mut any = || rng.next_u64();
    net.ft_bias.iter_mut().for_each(|b| *b = any() as i16);
    net.ft_weights.iter_mut().for_each(|w| *w = any() as i16);
    net.l1_bias.iter_mut().for_each(|b| *b = (any() as i32) >> 8);
    net.l1_weights.iter_mut().for_each(|w| *w = any() as i8);
    net.l2_bias.iter_mut().for_each(|b| *b = (any() as i32) >> 8);
    net.l2_weights.iter_mut().for_each(|w| *w = any() as i8);
    net.out_bias = (any() as i32) >> 8;
    net.out_weights.iter_mut().for_each(|w| *w = any() as i8);
    net
}

/// The nets the tests use: random ones of small weights and extreme ones, of both shapes.
static NETS: LazyLock<Vec<Arc<Network>>> = LazyLock::new(|| {
    vec![
        Arc::new(random_net(Features::KP, 1)),
        Arc::new(random_net(Features::HalfKP, 7)),
        Arc::new(extreme_net(Features::KP, 3)),
        Arc::new(extreme_net(Features::HalfKP, 4)),
    ]
});

/// A random legal move, captures, promotions and drops preferred half the time.
fn random_move(pos: &Position, choice: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let tactical: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_drop() || m.is_promotion() || pos.piece_on(m.to()).is_some())
        .collect();
    let pool: &[Move] = if choice & 1 == 1 && !tactical.is_empty() {
        &tactical
    } else {
        &moves
    };
    Some(pool[(choice >> 1) as usize % pool.len()])
}

/// What a sequence of steps went through, to check the tests cover every kind of change.
#[derive(Default, Debug)]
struct Seen {
    drops: u32,
    promotions: u32,
    captures: u32,
    king_moves: u32,
    nulls: u32,
    undos: u32,
    evaluated: u32,
}

impl Seen {
    fn record(&mut self, pos: &Position, m: Move) {
        if m.is_drop() {
            self.drops += 1;
            return;
        }
        self.promotions += u32::from(m.is_promotion());
        self.captures += u32::from(pos.piece_on(m.to()).is_some());
        self.king_moves += u32::from(pos.piece_on(m.from()).is_some_and(|p| p.kind() == PieceKind::King));
    }
}

enum Step {
    Move(Move),
    Null,
}

/// Plays the steps `choices` say from `sfen` with one stack per kernel; after each step every
/// stack's accumulator equals a refresh and every kernel's evaluation equals the reference.
fn walk(net: &Arc<Network>, sfen: &str, choices: &[u64], seen: &mut Seen) {
    let mut pos = Position::from_sfen(sfen).unwrap();
    let mut stacks: Vec<AccumulatorStack> = Kernel::available()
        .into_iter()
        .map(|k| AccumulatorStack::new(Arc::clone(net), k, DEFAULT_FV_SCALE))
        .collect();
    for s in &mut stacks {
        s.reset(&pos);
    }
    let mut line: Vec<Step> = Vec::new();
    for &choice in choices {
        match choice % 8 {
            // Take back, a few plies at a time sometimes (the lazy stack then has computed
            // entries above the top, which must not be reused).
            0 | 1 if !line.is_empty() => {
                for _ in 0..=choice / 8 % 3 {
                    match line.pop() {
                        Some(Step::Move(m)) => {
                            pos.undo_move(m);
                            stacks.iter_mut().for_each(AccumulatorStack::pop);
                        }
                        Some(Step::Null) => pos.undo_null_move(),
                        None => break,
                    }
                    seen.undos += 1;
                }
            }
            2 if !pos.in_check() && !matches!(line.last(), Some(Step::Null)) => {
                pos.do_null_move();
                line.push(Step::Null);
                seen.nulls += 1;
            }
            _ => {
                let Some(m) = random_move(&pos, choice / 8) else {
                    continue;
                };
                seen.record(&pos, m);
                for s in &mut stacks {
                    s.push(&pos, m);
                }
                pos.do_move(m);
                line.push(Step::Move(m));
            }
        }
        // Not every position is evaluated: the lazy stack then has several plies to catch up.
        if choice % 3 == 0 {
            continue;
        }
        let reference = net.evaluate(&pos, DEFAULT_FV_SCALE);
        let acc = Accumulator::refresh(net, &pos);
        for s in &mut stacks {
            let kernel = s.kernel();
            assert_eq!(
                s.current(&pos),
                &acc,
                "{} accumulator in {}",
                kernel.name(),
                pos.to_sfen()
            );
            assert_eq!(
                s.evaluate(&pos),
                reference,
                "{} evaluation in {}",
                kernel.name(),
                pos.to_sfen()
            );
        }
        seen.evaluated += 1;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Incremental equals a refresh after random sequences of moves (drops, promotions,
    /// captures and king moves among them), null moves and take-backs.
    #[test]
    fn incremental_accumulators_equal_a_refresh(
        net in 0..NETS.len(),
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u64>(), 1..160),
    ) {
        walk(&NETS[net], STARTS[start], &choices, &mut Seen::default());
    }
}

/// The same walk, long and deterministic, with a count of what it went through: every kind of
/// change is there many times.
#[test]
fn long_walks_cover_every_kind_of_change() {
    let mut rng = SplitMix64::new(58);
    let mut seen = Seen::default();
    for (i, sfen) in STARTS.iter().enumerate() {
        let net = &NETS[i % NETS.len()];
        for _ in 0..3 {
            let choices: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
            walk(net, sfen, &choices, &mut seen);
        }
    }
    for (what, n) in [
        ("drops", seen.drops),
        ("promotions", seen.promotions),
        ("captures", seen.captures),
        ("king moves", seen.king_moves),
        ("null moves", seen.nulls),
        ("take-backs", seen.undos),
    ] {
        assert!(n >= 20, "only {n} {what}: {seen:?}");
    }
    assert!(seen.evaluated > 3000, "{seen:?}");
}

/// Every kernel against the reference on positions of random games, many networks.
#[test]
fn every_kernel_equals_the_reference_on_random_positions() {
    let mut rng = SplitMix64::new(9);
    let mut checked = 0;
    for seed in 0..6u64 {
        let features = Features::ALL[(seed / 2) as usize % 2];
        let net = if seed % 2 == 0 {
            random_net(features, 100 + seed)
        } else {
            extreme_net(features, 100 + seed)
        };
        for sfen in STARTS {
            let mut pos = Position::from_sfen(sfen).unwrap();
            for _ in 0..60 {
                let us = pos.side_to_move();
                let (own, enemy) = (net.refresh(&pos, us), net.refresh(&pos, !us));
                let reference = net.propagate(&own, &enemy);
                for k in Kernel::available() {
                    assert_eq!(
                        k.propagate(&net, &own, &enemy),
                        reference,
                        "{} in {}",
                        k.name(),
                        pos.to_sfen()
                    );
                }
                checked += 1;
                let Some(m) = random_move(&pos, rng.next_u64()) else {
                    break;
                };
                pos.do_move(m);
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

/// The kernels on accumulators of every value, not only those of positions: the clipping and
/// the packing see negative, small, 127-and-above and extreme values.
#[test]
fn every_kernel_equals_the_reference_on_arbitrary_accumulators() {
    let mut rng = SplitMix64::new(11);
    let nets = [random_net(Features::KP, 5), extreme_net(Features::KP, 6)];
    for net in &nets {
        for round in 0..300 {
            let mut acc = [[0i16; HALF]; 2];
            for a in acc.iter_mut().flatten() {
                let r = rng.next_u64();
                *a = match round % 3 {
                    0 => r as i16,
                    1 => (r % 300) as i16 - 100,
                    _ => [i16::MIN, -1, 0, 1, 126, 127, 128, i16::MAX][(r % 8) as usize],
                };
            }
            let reference = net.propagate(&acc[0], &acc[1]);
            for k in Kernel::available() {
                assert_eq!(k.propagate(net, &acc[0], &acc[1]), reference, "{}", k.name());
            }
        }
    }
}

/// The kernels' updates against each other and the scalar sum, on extreme rows.
#[test]
fn every_kernel_updates_alike() {
    let net = extreme_net(Features::HalfKP, 12);
    let mut rng = SplitMix64::new(13);
    for _ in 0..500 {
        let mut parent = [0i16; HALF];
        for a in &mut parent {
            *a = rng.next_u64() as i16;
        }
        let pick = |rng: &mut SplitMix64| rng.below(net.features.inputs() as u64) as usize;
        let removed: Vec<usize> = (0..rng.below(3)).map(|_| pick(&mut rng)).collect();
        let added: Vec<usize> = (0..rng.below(3)).map(|_| pick(&mut rng)).collect();
        let mut expected = parent;
        for (j, e) in expected.iter_mut().enumerate() {
            for &r in &removed {
                *e = e.wrapping_sub(net.ft_weights[r * HALF + j]);
            }
            for &a in &added {
                *e = e.wrapping_add(net.ft_weights[a * HALF + j]);
            }
        }
        for k in Kernel::available() {
            let mut out = [0i16; HALF];
            k.update(&net, &parent, &mut out, &removed, &added);
            assert_eq!(out, expected, "{}", k.name());
        }
    }
}

#[test]
fn the_machine_running_the_tests_is_tested_with_avx2_where_it_has_it() {
    #[cfg(target_arch = "x86_64")]
    assert_eq!(Kernel::avx2().is_some(), std::arch::is_x86_feature_detected!("avx2"));
    assert_eq!(Kernel::best(), Kernel::avx2().unwrap_or(Kernel::SCALAR));
}

#[test]
fn files_that_are_missing_too_long_or_no_net_are_refused() {
    let dir = std::env::temp_dir().join(format!("soppo-nnue-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.bin");
    assert!(matches!(load(&missing), Err(LoadError::Io(_))));
    let net = random_net(Features::KP, 2);
    let good = dir.join("good.bin");
    std::fs::write(&good, net.to_bytes()).unwrap();
    assert!(load(&good).unwrap() == net);
    let mut long = net.to_bytes();
    long.extend_from_slice(&[0; 5000]);
    let long_path = dir.join("long.bin");
    std::fs::write(&long_path, long).unwrap();
    assert!(matches!(
        load(&long_path),
        Err(LoadError::Format(FormatError::Size { .. }))
    ));
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    assert!(matches!(
        load(&empty),
        Err(LoadError::Format(FormatError::TooShort { len: 0 }))
    ));
    assert!(matches!(load(&dir), Err(LoadError::NotAFile)));
    #[cfg(unix)]
    assert!(matches!(
        load(std::path::Path::new("/dev/zero")),
        Err(LoadError::NotAFile)
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A random net of either shape gives positions distinct values (its layers do not saturate),
/// so that comparing values with the reference compares something.
#[test]
fn random_nets_give_distinct_values() {
    let mut rng = SplitMix64::new(21);
    for features in Features::ALL {
        let net = random_net(features, 5);
        let mut values = std::collections::HashSet::new();
        let mut n = 0;
        for sfen in STARTS {
            let mut pos = Position::from_sfen(sfen).unwrap();
            for _ in 0..40 {
                values.insert(net.evaluate(&pos, DEFAULT_FV_SCALE));
                n += 1;
                let Some(m) = random_move(&pos, rng.next_u64()) else {
                    break;
                };
                pos.do_move(m);
            }
        }
        assert!(
            values.len() * 10 >= n * 9,
            "{features:?}: {} distinct of {n}",
            values.len()
        );
    }
}
