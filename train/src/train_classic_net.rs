//! `train-classic-net GAMES… [--epochs N] [--batch N] [--lr X] [--weight-decay X] [--threads N]
//! [--init FILE] [--write FILE]`: trains the evaluation's hidden layer
//! ([`soppo_engine::eval::classic::net`]) on self-play games, on top of the embedded linear weights,
//! which stay as they are.
//!
//! The positions, the labels (results blended with the searched scores averaged over the next
//! moves) and the training / held-out split by game are those of `tune-eval` with the same
//! options. The prediction for a position is `σ(K · (linear + net))`, `linear` the embedded
//! linear evaluation and `net` the network's output in centipawns; the loss is the mean log
//! loss. The network starts at zero output (output weights zero), or from the network of
//! `--init` (to go on training, on new games, what was learnt from games no longer at hand),
//! and is trained by Adam with decoupled weight decay on minibatches, the batch's gradient
//! split over `--threads`. The epoch with the best held-out loss (the starting network's
//! counts as epoch 0) is kept, quantized exactly as the engine computes it, and its held-out
//! loss measured again in integers before it is written.

#![allow(
    clippy::cast_precision_loss,
    reason = "sample counts and feature counts far below 2^24"
)]

use crate::adam::{Moments, Step};
use crate::games::NotMate;
use crate::logistic::{log_loss, sigmoid};
use crate::progress;
use crate::samples::{self, Features, LoadStats, Sample};
use anyhow::{Context, Result, ensure};
use soppo_core::rng::splitmix64;
use soppo_engine::eval::classic::net::{HIDDEN, INPUTS, Net, ONE, OUT_SCALE};
use std::path::PathBuf;

/// The options of `train-classic-net`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Self-play game files (with the searched-score column).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Leave out the positions of the first N plies of every game.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip_plies: usize,
    /// Share of the games held out to measure the fit.
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub holdout: f64,
    /// Seed of the split, the initial weights and the order of the samples.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Weight of the searched score in the target (as `tune-eval`).
    #[arg(long, value_name = "X", default_value_t = 0.4)]
    pub score_weight: f64,
    /// Searched scores averaged over the next N moves (as `tune-eval`).
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub score_horizon: usize,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub epochs: usize,
    /// Positions a step.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub batch: usize,
    /// Adam step size.
    #[arg(long, value_name = "X", default_value_t = 1e-3)]
    pub lr: f64,
    /// Decoupled weight decay of the input weights (per step, times the step size).
    #[arg(long, value_name = "X", default_value_t = 0.01)]
    pub weight_decay: f64,
    /// Threads a batch is split over.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub threads: usize,
    /// Where to write the network (e.g. `engine/src/eval/classic/net.bin`).
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Start from this network (e.g. `engine/src/eval/classic/net.bin`) instead of a zero output.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
}

/// The network's output weights are trained in pawns (100 centipawns): Adam's steps are the
/// same size for every parameter, and a hidden unit's effect is worth pawns, not centipawns.
const PAWN: f32 = 100.0;

/// Training positions in flat arrays: the inputs of sample `s` are
/// `inputs[start[s]..start[s + 1]]`, each scaled into −1..=1 by the largest count seen.
struct Data {
    start: Vec<u32>,
    index: Vec<u16>,
    value: Vec<f32>,
    linear: Vec<f32>,
    target: Vec<f32>,
}

impl Data {
    fn new(samples: &[Sample], scale: &[f32], k: f64, score_weight: f64) -> Data {
        let mut d = Data {
            start: vec![0],
            index: Vec::new(),
            value: Vec::new(),
            linear: Vec::with_capacity(samples.len()),
            target: Vec::with_capacity(samples.len()),
        };
        for s in samples {
            for &(i, n) in &s.features {
                d.index.push(i);
                d.value.push(n as f32 / scale[i as usize]);
            }
            d.start.push(d.index.len() as u32);
            d.linear.push(s.linear as f32);
            d.target.push(s.target(k, score_weight) as f32);
        }
        d
    }

    fn len(&self) -> usize {
        self.linear.len()
    }

    fn inputs(&self, s: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let range = self.start[s] as usize..self.start[s + 1] as usize;
        self.index[range.clone()]
            .iter()
            .zip(&self.value[range])
            .map(|(&i, &x)| (i as usize, x))
    }
}

/// A value in −0.5..0.5 from the top 53 bits of `bits`.
fn centred(bits: u64) -> f32 {
    ((bits >> 11) as f64 / (1u64 << 53) as f64 - 0.5) as f32
}

/// The network in floating point: `w` row by row (one row of [`HIDDEN`] per input), biases,
/// output weights and bias in pawns.
#[derive(Clone)]
struct Model {
    w: Vec<f32>,
    b: [f32; HIDDEN],
    v: [f32; HIDDEN],
    c: f32,
}

impl Model {
    fn new(seed: u64) -> Model {
        // Small random input weights, hidden units in the middle of their range, and a zero
        // output: training starts from the linear evaluation's own predictions.
        let mut state = seed;
        let w = (0..INPUTS * HIDDEN)
            .map(|_| {
                state = splitmix64(state);
                centred(state) * 0.1
            })
            .collect();
        Model {
            w,
            b: [0.5; HIDDEN],
            v: [0.0; HIDDEN],
            c: 0.0,
        }
    }

    /// The floating-point model that [`quantize`] turns back into `net` (up to rounding), for
    /// inputs scaled by `scale`.
    fn from_net(net: &Net, scale: &[f32]) -> Model {
        let one = ONE as f32;
        let out = OUT_SCALE as f32 * PAWN;
        let mut w = vec![0.0; INPUTS * HIDDEN];
        for (i, row) in net.w.iter().enumerate() {
            for (j, &q) in row.iter().enumerate() {
                w[i * HIDDEN + j] = q as f32 * scale[i] / one;
            }
        }
        Model {
            w,
            b: net.b.map(|q| q as f32 / one),
            v: net.v.map(|q| q as f32 / out),
            c: net.c as f32 / out,
        }
    }

    /// Hidden pre-activations of sample `s`.
    fn hidden(&self, data: &Data, s: usize) -> [f32; HIDDEN] {
        let mut h = self.b;
        for (i, x) in data.inputs(s) {
            let row = &self.w[i * HIDDEN..(i + 1) * HIDDEN];
            for (h, w) in h.iter_mut().zip(row) {
                *h += w * x;
            }
        }
        h
    }

    /// The network's output in centipawns for hidden pre-activations `h`.
    fn output(&self, h: &[f32; HIDDEN]) -> f32 {
        let mut out = self.c;
        for (h, v) in h.iter().zip(&self.v) {
            out += h.clamp(0.0, 1.0) * v;
        }
        out * PAWN
    }

    fn mean_loss(&self, data: &Data, k: f64) -> f64 {
        (0..data.len())
            .map(|s| {
                let eval = f64::from(data.linear[s] + self.output(&self.hidden(data, s)));
                log_loss(eval, f64::from(data.target[s]), k)
            })
            .sum::<f64>()
            / data.len().max(1) as f64
    }
}

/// Gradient of the summed loss over some samples.
struct Grad {
    w: Vec<f32>,
    b: [f32; HIDDEN],
    v: [f32; HIDDEN],
    c: f32,
}

impl Grad {
    fn new() -> Grad {
        Grad {
            w: vec![0.0; INPUTS * HIDDEN],
            b: [0.0; HIDDEN],
            v: [0.0; HIDDEN],
            c: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w.fill(0.0);
        self.b = [0.0; HIDDEN];
        self.v = [0.0; HIDDEN];
        self.c = 0.0;
    }

    fn add(&mut self, model: &Model, data: &Data, samples: &[u32], k: f32) {
        for &s in samples {
            let s = s as usize;
            let h = model.hidden(data, s);
            let eval = data.linear[s] + model.output(&h);
            // d(log loss)/d(eval) = K (p − target).
            let g = k * (sigmoid(f64::from(k * eval)) as f32 - data.target[s]) * PAWN;
            self.c += g;
            let mut gh = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                self.v[j] += g * h[j].clamp(0.0, 1.0);
                if h[j] > 0.0 && h[j] < 1.0 {
                    gh[j] = g * model.v[j];
                }
            }
            for (b, g) in self.b.iter_mut().zip(&gh) {
                *b += g;
            }
            for (i, x) in data.inputs(s) {
                let row = &mut self.w[i * HIDDEN..(i + 1) * HIDDEN];
                for (w, g) in row.iter_mut().zip(&gh) {
                    *w += g * x;
                }
            }
        }
    }

    fn absorb(&mut self, other: &Grad) {
        for (a, b) in self.w.iter_mut().zip(&other.w) {
            *a += b;
        }
        for j in 0..HIDDEN {
            self.b[j] += other.b[j];
            self.v[j] += other.v[j];
        }
        self.c += other.c;
    }
}

/// The engine's network for `model`, with inputs scaled back from −1..=1 to raw counts.
fn quantize(model: &Model, scale: &[f32]) -> (Net, usize) {
    let mut net = Net::zero();
    let one = ONE as f32;
    let mut clipped = 0;
    for (i, row) in net.w.iter_mut().enumerate() {
        for (j, q) in row.iter_mut().enumerate() {
            let x = (model.w[i * HIDDEN + j] / scale[i] * one).round();
            // Far beyond any trained weight; kept so that no count can overflow the i32 sums.
            let limit = 1e8f32;
            if x.abs() > limit {
                clipped += 1;
            }
            *q = x.clamp(-limit, limit) as i32;
        }
    }
    let out = OUT_SCALE as f32 * PAWN;
    for j in 0..HIDDEN {
        net.b[j] = (model.b[j] * one).round() as i32;
        net.v[j] = (model.v[j] * out).round() as i32;
    }
    net.c = (model.c * out).round() as i32;
    (net, clipped)
}

/// Mean log loss of the quantized network as the engine computes it.
fn quantized_loss(net: &Net, samples: &[Sample], k: f64, score_weight: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let eval = f64::from(s.linear + net.output(&net.hidden(&s.features)));
            log_loss(eval, s.target(k, score_weight), k)
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Each input's largest count in `samples` (at least 1): the trainer sees counts scaled into
/// −1..=1.
fn input_scales(samples: &[Sample]) -> Vec<f32> {
    let mut scale = vec![1.0f32; INPUTS];
    for s in samples {
        for &(i, n) in &s.features {
            scale[i as usize] = scale[i as usize].max(n.unsigned_abs() as f32);
        }
    }
    scale
}

/// Runs the trainer and prints its report; the last line is the summary.
pub fn run(opts: &Args) -> Result<()> {
    ensure!(
        opts.batch > 0 && opts.threads > 0,
        "--batch and --threads must be positive"
    );
    let mut stats = LoadStats::default();
    let (train, held_out) = samples::load(
        &samples::Load {
            games: opts.games.clone(),
            skip_plies: opts.skip_plies,
            not_mate: NotMate::Skip,
            holdout: opts.holdout,
            seed: opts.seed,
            all_positions: false,
            score_horizon: opts.score_horizon,
            features: Features::NetInputs,
        },
        &mut stats,
    )?;
    ensure!(!train.is_empty(), "no training positions");

    // K as `tune-eval` fits it: the scale at which the searched scores predict the results.
    let k = samples::search_k(&train).context("the games have no searched scores")?;
    let scale = input_scales(&train);
    let data = Data::new(&train, &scale, k, opts.score_weight);
    let held = Data::new(&held_out, &scale, k, opts.score_weight);
    println!(
        "games: {} read, {} repeats left out, {} with a known result; positions: {} training, {} held out; K = {k:.6}",
        stats.games,
        stats.repeated,
        stats.games_used,
        data.len(),
        held.len()
    );

    let mut model = match &opts.init {
        None => Model::new(opts.seed),
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let net = Net::from_bytes(&bytes)
                .with_context(|| format!("{} is not a network of this build", path.display()))?;
            Model::from_net(&net, &scale)
        }
    };
    let zero_held = held
        .linear
        .iter()
        .zip(&held.target)
        .map(|(&l, &t)| log_loss(f64::from(l), f64::from(t), k))
        .sum::<f64>()
        / held.len().max(1) as f64;
    println!("held-out loss of the linear evaluation alone: {zero_held:.5}");
    let start_held = model.mean_loss(&held, k);
    if opts.init.is_some() {
        println!("held-out loss of the starting network: {start_held:.5}");
    }
    let (mut best, mut best_loss) = (model.clone(), start_held);
    let (mut adam_w, mut adam_b, mut adam_v, mut adam_c) = (
        Moments::new(INPUTS * HIDDEN),
        Moments::new(HIDDEN),
        Moments::new(HIDDEN),
        Moments::new(1),
    );
    let mut grads: Vec<Grad> = (0..opts.threads).map(|_| Grad::new()).collect();
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut rng = opts.seed ^ 0x5EED;
    let mut t = 0;
    let lr = opts.lr as f32;
    for epoch in 1..=opts.epochs {
        for i in (1..order.len()).rev() {
            rng = splitmix64(rng);
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let bar = progress::counted(order.len().div_ceil(opts.batch) as u64, &format!("epoch {epoch}"));
        for batch in order.chunks(opts.batch) {
            bar.inc(1);
            let per = batch.len().div_ceil(opts.threads);
            std::thread::scope(|scope| {
                for (grad, part) in grads.iter_mut().zip(batch.chunks(per)) {
                    let model = &model;
                    let data = &data;
                    scope.spawn(move || {
                        grad.clear();
                        grad.add(model, data, part, k as f32);
                    });
                }
            });
            let (first, rest) = grads.split_first_mut().expect("at least one thread");
            for (g, part) in rest.iter().zip(batch.chunks(per).skip(1)) {
                if !part.is_empty() {
                    first.absorb(g);
                }
            }
            let n = batch.len() as f32;
            first.w.iter_mut().for_each(|g| *g /= n);
            t += 1;
            let step = Step::new(t, lr, 0.0);
            adam_w.step(&Step::new(t, lr, opts.weight_decay as f32), &mut model.w, &first.w);
            let (gb, gv) = (first.b.map(|g| g / n), first.v.map(|g| g / n));
            adam_b.step(&step, &mut model.b, &gb);
            adam_v.step(&step, &mut model.v, &gv);
            let mut c = [model.c];
            adam_c.step(&step, &mut c, &[first.c / n]);
            model.c = c[0];
        }
        bar.finish_and_clear();
        let (train_loss, held_loss) = (model.mean_loss(&data, k), model.mean_loss(&held, k));
        println!("epoch {epoch}: training loss {train_loss:.5}, held-out loss {held_loss:.5}");
        if held_loss < best_loss {
            best_loss = held_loss;
            best = model.clone();
        }
    }
    let (net, clipped) = quantize(&best, &scale);
    let int_zero = quantized_loss(&Net::zero(), &held_out, k, opts.score_weight);
    let int_net = quantized_loss(&net, &held_out, k, opts.score_weight);
    let results = (
        quantized_loss(&Net::zero(), &held_out, k, 0.0),
        quantized_loss(&net, &held_out, k, 0.0),
    );
    println!(
        "held-out loss against the results alone: {:.5} -> {:.5}",
        results.0, results.1
    );
    if clipped > 0 {
        println!("{clipped} input weights clipped in quantization");
    }
    if let Some(path) = &opts.write {
        std::fs::write(path, net.to_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        println!("network written to {}", path.display());
    }
    println!(
        "train-classic-net: {} positions, K {k:.6}, held-out loss {int_zero:.5} (linear) -> {int_net:.5} (with the network, integers)",
        data.len() + held.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::merged_net_inputs;
    use soppo_core::Position;

    #[test]
    fn the_quantized_network_computes_what_the_trained_one_does() {
        let sfens = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
            "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
            "ln3g1nl/3sgsk2/3p1pbp1/pr2p1p1p/1NP6/PP1PP3P/3S1PPP1/2RBG1SK1/L4G1NL b 2Pgs 41",
        ];
        let samples: Vec<Sample> = sfens
            .iter()
            .map(|sfen| Sample {
                features: merged_net_inputs(&Position::from_sfen(sfen).unwrap()),
                result: 0.5,
                score: None,
                linear: 0,
            })
            .collect();
        let scale = input_scales(&samples);
        let data = Data::new(&samples, &scale, 0.001, 0.0);
        // Random input weights, and output weights and biases of the size training gives.
        let mut model = Model::new(9);
        let mut state = 5u64;
        let mut draw = |range: f32| {
            state = splitmix64(state);
            centred(state) * 2.0 * range
        };
        for w in &mut model.w {
            *w *= 8.0;
        }
        for j in 0..HIDDEN {
            model.b[j] = 0.5 + draw(0.5);
            model.v[j] = draw(3.0);
        }
        model.c = draw(0.5);
        let (net, clipped) = quantize(&model, &scale);
        assert_eq!(clipped, 0);
        let mut clipped_units = 0;
        for (s, sample) in samples.iter().enumerate() {
            let h = model.hidden(&data, s);
            clipped_units += h.iter().filter(|&&x| !(0.0..=1.0).contains(&x)).count();
            let float = model.output(&h);
            let int = net.output(&net.hidden(&sample.features));
            assert!(
                (float - int as f32).abs() <= 2.0,
                "{}: float {float} integer {int}",
                sfens[s]
            );
        }
        // Both sides of the clip were exercised.
        assert!(clipped_units > 0);
    }

    #[test]
    fn a_network_read_back_for_further_training_quantizes_to_itself() {
        let net = soppo_engine::eval::classic::net::NET
            .clone()
            .expect("the build embeds a network");
        // Scales as training data gives them: each input's largest count.
        let scale: Vec<f32> = (0..INPUTS).map(|i| (1 + i % 23) as f32).collect();
        let (back, clipped) = quantize(&Model::from_net(&net, &scale), &scale);
        assert_eq!(clipped, 0);
        assert!(
            net.v.iter().any(|&v| v != 0),
            "the embedded network is not the zero one"
        );
        assert_eq!(back, net);
    }
}
