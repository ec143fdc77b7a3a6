use super::model::{Adam, Grad, Loss, Model, Scratch, Shape};
use super::quantize::{dequantize, quantize};
use super::*;
use soppo_core::Move;

/// A sample given by its inputs, for shapes other than the engine's.
struct Direct(Vec<(Vec<u16>, Vec<u16>, f32)>);

impl Samples for Direct {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn fill(&self, i: usize, us: &mut Vec<u16>, them: &mut Vec<u16>) -> Option<f32> {
        let (a, b, t) = &self.0[i];
        us.clone_from(a);
        them.clone_from(b);
        Some(*t)
    }
}

/// The summed loss of `samples` and whether each clipped `ReLU` of each sample is on its slope.
fn loss_and_pattern(model: &Model, samples: &Direct, loss: Loss) -> (f64, Vec<bool>) {
    let mut s = Scratch::default();
    let (mut sum, mut pattern) = (0.0, Vec::new());
    for (us, them, t) in &samples.0 {
        let y = model.forward(us, them, &mut s);
        sum += f64::from(loss.at(y, *t).0);
        pattern.extend(s.pattern());
    }
    (sum, pattern)
}

/// The analytic gradient of the summed loss.
fn gradient(model: &Model, samples: &Direct, loss: Loss) -> Grad {
    let mut g = Grad::new(model.shape);
    let mut s = Scratch::default();
    for (us, them, t) in &samples.0 {
        let y = model.forward(us, them, &mut s);
        model.backward(us, them, loss.at(y, *t).1, &mut s, &mut g);
    }
    g
}

/// Finite differences of the summed loss against the trainer's gradient for `params` of
/// every tensor (`None`: all of them); returns the parameters compared and the largest
/// relative error among gradients above 10⁻³.
/// `eps` is the finite differences' step, `noise` the absolute error that f32 sums allow (a
/// few units in the last place of the loss, over `2 eps`).
fn check_gradient(
    model: &Model,
    samples: &Direct,
    loss: Loss,
    params: Option<usize>,
    (eps, noise): (f32, f64),
) -> (usize, f64) {
    let analytic = gradient(model, samples, loss);
    let (_, pattern) = loss_and_pattern(model, samples, loss);
    let (mut compared, mut worst) = (0, 0.0f64);
    let mut rng = SplitMix64::new(11);
    for t in 0..8 {
        let len = model.tensors()[t].len();
        let picks: Vec<usize> = match params {
            None => (0..len).collect(),
            Some(n) => (0..n.min(len)).map(|_| rng.below(len as u64) as usize).collect(),
        };
        for i in picks {
            let mut plus = model.clone();
            plus.tensors_mut()[t][i] += eps;
            let mut minus = model.clone();
            minus.tensors_mut()[t][i] -= eps;
            let ((lp, pp), (lm, pm)) = (
                loss_and_pattern(&plus, samples, loss),
                loss_and_pattern(&minus, samples, loss),
            );
            if pp != pattern || pm != pattern {
                // The step crosses a corner of a clipped ReLU: no derivative to compare.
                continue;
            }
            let numeric = (lp - lm) / (2.0 * f64::from(eps));
            let exact = f64::from(analytic.model.tensors()[t][i]);
            let error = (numeric - exact).abs();
            assert!(
                error <= 1e-2 * numeric.abs().max(exact.abs()) + noise,
                "tensor {t} parameter {i}: numeric {numeric:.6e}, trainer {exact:.6e}"
            );
            if exact.abs() > 1e-3 {
                worst = worst.max(error / exact.abs());
            }
            compared += 1;
        }
    }
    (compared, worst)
}

/// A tiny network whose units sit mostly on their slopes, and positions of a few inputs.
fn tiny() -> (Model, Direct) {
    let shape = Shape {
        inputs: 12,
        half: 6,
        l1: 5,
        l2: 4,
    };
    let mut model = Model::random(shape, 3);
    // Bigger weights than at the start of training, so that every layer matters.
    model.ft_w.iter_mut().for_each(|w| *w *= 3.0);
    model.l1_w.iter_mut().for_each(|w| *w *= 2.0);
    model.out_w.iter_mut().for_each(|w| *w *= 20.0);
    model.out_b[0] = 0.1;
    let mut rng = SplitMix64::new(5);
    let samples = (0..6)
        .map(|k| {
            let mut pick = |n: usize| {
                let mut v: Vec<u16> = (0..12).collect();
                rng.shuffle(&mut v);
                v.truncate(n);
                v
            };
            let (us, them) = (pick(3 + k % 3), pick(4));
            (us, them, [0.1, 0.5, 0.9][k % 3])
        })
        .collect();
    (model, Direct(samples))
}

#[test]
fn the_gradient_is_the_losss_derivative_on_a_tiny_network() {
    let (model, samples) = tiny();
    let loss = Loss::new(600.0);
    let (compared, worst) = check_gradient(&model, &samples, loss, None, (4e-3, 1e-5));
    let total: usize = model.tensors().iter().map(|t| t.len()).sum();
    // Most parameters are compared (the rest sit next to a corner of a clipped ReLU).
    assert!(compared * 10 >= total * 8, "{compared} of {total}");
    eprintln!("tiny network: {compared} of {total} parameters, largest relative error {worst:.2e}");
    // A different scale K changes the slope: still exact.
    check_gradient(&model, &samples, Loss::new(250.0), None, (4e-3, 1e-5));
}

/// Positions of random games from the start (legal moves drawn at random).
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(120) {
            let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
        }
        if !pos.legal_moves().is_empty() {
            out.push(Position::from_sfen(&pos.to_sfen()).unwrap());
        }
    }
    out
}

#[test]
fn the_gradient_is_the_losss_derivative_on_the_engines_shape() {
    let mut model = Model::random(Shape::NNUE, 8);
    model.out_w.iter_mut().for_each(|w| *w *= 20.0);
    let samples = Direct(
        random_positions(3, 4)
            .iter()
            .zip([0.2, 0.6, 0.9])
            .map(|(pos, t)| {
                let (mut us, mut them) = (Vec::new(), Vec::new());
                fill_inputs(pos, &mut us, &mut them);
                (us, them, t)
            })
            .collect(),
    );
    // Sums of 40 rows and of 512 products: more rounding in the loss, a longer step.
    let (compared, worst) = check_gradient(&model, &samples, Loss::new(600.0), Some(60), (1e-2, 2e-5));
    assert!(compared > 300, "{compared}");
    eprintln!("engine's shape: {compared} sampled parameters, largest relative error {worst:.2e}");
    // The transformer's rows without an active input have no gradient and are not touched.
    let g = gradient(&model, &samples, Loss::new(600.0));
    let mut active: Vec<u16> = samples
        .0
        .iter()
        .flat_map(|(a, b, _)| a.iter().chain(b))
        .copied()
        .collect();
    active.sort_unstable();
    active.dedup();
    let mut rows = g.rows.clone();
    rows.sort_unstable();
    assert_eq!(rows, active);
    let half = Shape::NNUE.half;
    for i in 0..Shape::NNUE.inputs {
        if active.binary_search(&(i as u16)).is_err() {
            assert!(g.model.ft_w[i * half..(i + 1) * half].iter().all(|&x| x == 0.0));
        }
    }
}

/// The shared data's lishogi games, if present: every position of the first `games`.
fn lishogi_positions(games: usize) -> Vec<Position> {
    let path = crate::shared_data::dir(None).join("games_lishogi500.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping the lishogi positions: {} not found", path.display());
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in text.lines().take(games) {
        let Ok((mut pos, moves)) = crate::games::parse_game(line.split('\t').next().unwrap_or("")) else {
            continue;
        };
        for m in moves {
            pos.do_move(pos.parse_move(m).unwrap());
            out.push(Position::from_sfen(&pos.to_sfen()).unwrap());
        }
    }
    out
}

/// A float network of the size training gives: weights spread to a good share of their
/// limits, and the hidden units spread over their whole range.
fn trained_like(seed: u64) -> Model {
    let mut model = Model::random(Shape::NNUE, seed);
    model.ft_w.iter_mut().for_each(|w| *w *= 3.0);
    model.l1_w.iter_mut().for_each(|w| *w *= 3.0);
    model.l2_w.iter_mut().for_each(|w| *w *= 3.0);
    model.out_w.iter_mut().for_each(|w| *w *= 30.0);
    model.clip();
    model
}

/// The bound [`QuantizationError::max_cp`] stays within for the networks of these tests, on
/// the quantization grid as quantization-aware training keeps them, and that of the mean;
/// the worst case, [`quantize::error_bound_cp`], is far looser.
const QUANTIZATION_BOUND_CP: (f64, f64) = (40.0, 6.0);

#[test]
fn the_quantized_network_stays_within_its_bound_of_the_float_one() {
    let mut positions = random_positions(2000, 9);
    positions.extend(lishogi_positions(100));
    let samples: Vec<Sample> = positions
        .iter()
        .map(|p| Sample {
            packed: p.pack().unwrap(),
            target: 0.5,
        })
        .collect();
    let indices: Vec<u32> = (0..samples.len() as u32).collect();
    for seed in 1..=3 {
        let off_grid = trained_like(seed);
        let mut model = off_grid.clone();
        quantize::snap(&mut model);
        let (net, clipped) = quantize(&model);
        assert_eq!(clipped, 0);
        assert!(quantize(&off_grid).0 == net, "snapping changes no integer");
        let q = quantization_error(&model, &net, &samples, &indices, 2);
        // Off the grid, the weights' rounding adds far more.
        let off = quantization_error(&off_grid, &net, &samples, &indices, 2);
        // The float outputs spread over hundreds of centipawns: the bound is not trivial.
        let mut s = Scratch::default();
        let mut inputs = (Vec::new(), Vec::new());
        let spread = positions
            .iter()
            .map(|p| float_cp(&model, p, &mut inputs, &mut s).abs())
            .fold(0.0, f64::max);
        eprintln!(
            "seed {seed}: {} positions, quantized vs float max {:.2} cp, mean {:.3} cp (float outputs up to \
             {spread:.0} cp); against the weights off the grid: max {:.1} cp, mean {:.1} cp",
            q.positions, q.max_cp, q.mean_cp, off.max_cp, off.mean_cp
        );
        assert_eq!(q.positions, samples.len());
        assert!(spread > 300.0, "{spread}");
        let worst = quantize::error_bound_cp(&model);
        eprintln!("seed {seed}: the worst case for this network is {worst:.1} cp");
        assert!(q.max_cp <= worst, "{q:?} beyond the worst case {worst}");
        assert!(q.max_cp <= QUANTIZATION_BOUND_CP.0, "{q:?}");
        assert!(q.mean_cp <= QUANTIZATION_BOUND_CP.1, "{q:?}");
    }
}

#[test]
fn a_network_read_back_quantizes_to_itself() {
    let (net, _) = quantize(&trained_like(4));
    let again = quantize(&dequantize(&net)).0;
    assert!(again == net, "dequantize then quantize changed the network");
    let bytes = net.to_bytes();
    assert!(Network::from_bytes(&bytes).unwrap() == net);
}

/// Samples of random positions labelled by a material count (a target the network can
/// learn: it is a sum over the inputs).
fn material_samples(n: usize, seed: u64) -> Vec<Sample> {
    random_positions(n, seed)
        .iter()
        .map(|p| {
            let cp = f32::from(soppo_engine::eval::material(p).clamp(-30_000, 30_000) as i16);
            Sample {
                packed: p.pack().unwrap(),
                target: sigmoid(cp / 600.0),
            }
        })
        .collect()
}

fn train(samples: &[Sample], threads: usize, epochs: u32, seed: u64) -> (Trainer, Vec<f64>) {
    let mut t = Trainer::new(
        Model::random(Shape::NNUE, seed),
        Adam::new(Shape::NNUE),
        Loss::new(600.0),
        threads,
        true,
    );
    let all: Vec<u32> = (0..samples.len() as u32).collect();
    let mut losses = vec![t.mean_loss(samples, &all)];
    for epoch in 0..epochs {
        let mut order = all.clone();
        SplitMix64::new(u64::from(epoch)).shuffle(&mut order);
        for batch in order.chunks(32) {
            let total = u64::from(epochs) * samples.len().div_ceil(32) as u64;
            t.step(samples, batch, cosine(t.adam.step, total, 2e-3, 2e-4));
        }
        losses.push(t.mean_loss(samples, &all));
    }
    (t, losses)
}

/// How many hidden units of the first layer are on their slope for some of `samples`.
fn live_first_layer_units(model: &Model, samples: &[Sample]) -> usize {
    let (mut us, mut them, mut s) = (Vec::new(), Vec::new(), Scratch::default());
    let mut live = vec![false; model.shape.l1];
    for i in 0..samples.len() {
        samples.fill(i, &mut us, &mut them);
        model.forward(&us, &them, &mut s);
        let first = s.pattern().skip(2 * model.shape.half).take(model.shape.l1);
        for (l, on) in live.iter_mut().zip(first) {
            *l |= on;
        }
    }
    live.iter().filter(|&&l| l).count()
}

#[test]
fn training_reduces_the_loss_and_repeats_exactly() {
    let samples = material_samples(400, 21);
    // Several initial networks: with the transformer's biases at ½ instead of 0, every input
    // of the first hidden layer sat near ½, Adam's first steps moved all 512 weights of a unit
    // one way, and for half the seeds every unit left its slope within an epoch (the loss
    // stayed at the constant prediction's).
    for seed in 1..=3 {
        let (t, losses) = train(&samples, 2, 20, seed);
        eprintln!("seed {seed}: training loss by epoch: {losses:.5?}");
        assert!(
            losses.last().unwrap() < &(losses[0] * 0.25),
            "seed {seed}: the loss did not fall to a quarter: {losses:?}"
        );
        let live = live_first_layer_units(t.network(), &samples);
        assert!(
            live >= Shape::NNUE.l1 / 2,
            "seed {seed}: only {live} first-layer units alive"
        );
    }
    let (a, losses) = train(&samples, 2, 20, 1);
    let (b, again) = train(&samples, 2, 20, 1);
    assert_eq!(losses, again);
    assert!(a.model == b.model, "two runs with one seed and thread count differ");
}

#[test]
fn checkpoints_read_back_and_refuse_damage() {
    let (t, _) = train(&material_samples(40, 3), 1, 1, 1);
    let bytes = checkpoint::to_bytes(&t.model, &t.adam, 7);
    let c = checkpoint::from_bytes(&bytes).unwrap();
    assert!(c.model == t.model && c.adam.m == t.adam.m && c.adam.v == t.adam.v);
    assert_eq!((c.epochs, c.adam.step), (7, t.adam.step));
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    assert!(checkpoint::from_bytes(&damaged).is_err());
    assert!(checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(checkpoint::from_bytes(b"SOPPONN1").is_err());
}

#[test]
fn the_schedule_goes_from_lr_to_lr_end() {
    assert!((cosine(0, 100, 1e-3, 1e-4) - 1e-3).abs() < 1e-9);
    assert!((cosine(50, 100, 1e-3, 1e-4) - 5.5e-4).abs() < 1e-8);
    assert!((cosine(100, 100, 1e-3, 1e-4) - 1e-4).abs() < 1e-9);
    assert!((cosine(500, 100, 1e-3, 1e-4) - 1e-4).abs() < 1e-9);
}

#[test]
fn targets_mix_the_score_and_the_result() {
    let r = Record {
        packed: Position::startpos().pack().unwrap(),
        score: 600,
        best: 0,
        ply: 0,
        result: -1,
        flags: 0,
        game: 0,
    };
    assert!((target(&r, 1.0, 600.0) - sigmoid(1.0)).abs() < 1e-6);
    assert!(target(&r, 0.0, 600.0).abs() < 1e-6);
    assert!((target(&r, 0.5, 600.0) - sigmoid(1.0) / 2.0).abs() < 1e-6);
    // Held-out games are a share of the games, the same for one seed.
    let held = (0..10_000).filter(|&g| held_out(1, 0, g, 0.05)).count();
    assert!((400..600).contains(&held), "{held}");
    assert_eq!(held, (0..10_000).filter(|&g| held_out(1, 0, g, 0.05)).count());
}

#[test]
fn the_classic_teacher_scores_a_record_by_the_classic_evaluation() {
    // Black is a rook up: the classic evaluation's score, not the record's 0, is the target.
    let pos = Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1").unwrap();
    let r = Record {
        packed: pos.pack().unwrap(),
        score: 0,
        best: 0,
        ply: 0,
        result: 1,
        flags: 0,
        game: 0,
    };
    let cp = eval_cp(&pos);
    assert!(cp > 500.0, "{cp}");
    let classic = teacher_target(&r, Teacher::Classic, 1.0, 600.0).unwrap();
    assert!((classic - sigmoid(cp / 600.0)).abs() < 1e-6);
    assert!((teacher_target(&r, Teacher::Search, 1.0, 600.0).unwrap() - 0.5).abs() < 1e-6);
    // The result's share is the game's either way.
    assert!((teacher_target(&r, Teacher::Classic, 0.0, 600.0).unwrap() - 1.0).abs() < 1e-6);
}

#[test]
fn random_walks_reach_children_out_of_check_and_repeat() {
    let starts = random_positions(40, 77);
    let mut total = 0;
    for (n, start) in starts.iter().enumerate() {
        let seed = n as u64;
        // One-ply walks: each position is a child of the start, and not in check.
        let children: std::collections::HashSet<PackedPosition> = start
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut p = start.clone();
                p.do_move(m);
                p.pack().unwrap()
            })
            .collect();
        let one = expand::walk_positions(start, seed, 5, 1);
        assert!(one.len() <= 5);
        for p in &one {
            assert!(!p.in_check());
            assert!(
                children.contains(&p.pack().unwrap()),
                "{} is no child of {}",
                p.to_sfen(),
                start.to_sfen()
            );
        }
        // Longer walks: at most walks × plies positions, whole ones (they pack and unpack to
        // themselves, the move number aside), the same for the same seed.
        let three = expand::walk_positions(start, seed, 4, 3);
        assert!(three.len() <= 12);
        for p in &three {
            assert!(!p.in_check());
            let board = |sfen: String| sfen.rsplit_once(' ').unwrap().0.to_owned();
            assert_eq!(
                board(Position::unpack(&p.pack().unwrap()).unwrap().to_sfen()),
                board(p.to_sfen())
            );
        }
        let again: Vec<String> = expand::walk_positions(start, seed, 4, 3)
            .iter()
            .map(Position::to_sfen)
            .collect();
        assert_eq!(again, three.iter().map(Position::to_sfen).collect::<Vec<_>>());
        total += three.len();
    }
    assert!(total > 40 * 6, "walks from 40 starts gave only {total} positions");
}

#[test]
fn expanded_samples_carry_the_classic_score_on_any_thread_count() {
    let samples: Vec<Sample> = random_positions(30, 5)
        .iter()
        .map(|p| Sample {
            packed: p.pack().unwrap(),
            target: 0.5,
        })
        .collect();
    let one = expand::expand_all(&samples, 9, 3, 2, 0.8, 600.0, 1);
    let three = expand::expand_all(&samples, 9, 3, 2, 0.8, 600.0, 3);
    assert!(one.len() > 30);
    assert_eq!(one.len(), three.len());
    for (a, b) in one.iter().zip(&three) {
        assert_eq!(a.packed, b.packed);
        let pos = Position::unpack(&a.packed).unwrap();
        let want = 0.8 * sigmoid(eval_cp(&pos) / 600.0) + 0.2 * 0.5;
        assert!((a.target - want).abs() < 1e-6);
        assert_eq!(a.target.to_bits(), b.target.to_bits());
    }
}
