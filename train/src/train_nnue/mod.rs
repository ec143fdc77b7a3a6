//! `train-nnue DATA… --out NET [--epochs N] [--batch N] [--lr X] [--lr-end X] [--lambda X]
//! [--scale K] [--holdout F] [--threads N] [--init NET | --resume CKPT] [--teacher search|classic]
//! [--expand N --expand-plies P]`: trains the engine's NNUE ([`soppo_engine::eval::nnue`]) on the
//! records of `gen-data`.
//!
//! - Inputs: [`Features::for_each_active`] (K+P) of each record's position, for the side to move
//!   and for the other side; the float network has the engine's shape ([`model`]).
//! - Target: `λ · σ(score / K) + (1 − λ) · result`, `score` the search's score and `result`
//!   the game's (1 win, ½ draw, 0 loss), both from the side to move's view; `λ` is
//!   `--lambda` (0.5), `K` is `--scale` (600, in the evaluation's units: the float output
//!   times [`OUTPUT_CP`], 508, over `K` is the win-probability logit).
//! - `--teacher classic`: `score` the classic evaluation's static score instead.
//! - `--expand`: the positions of random walks from every training position, their `score` the
//!   classic evaluation's static score ([`expand`]).
//! - Loss: the mean of `(σ(output_cp / K) − target)²`.
//! - Optimiser: Adam (β = 0.9, 0.999), sparse in the feature transformer's rows (see
//!   [`model`]); the weights clipped after each step to what quantization holds; the passes
//!   on the weights as quantization rounds them (quantization-aware, see [`quantize`]).
//! - Step size: a cosine from `--lr` down to `--lr-end` over all the steps of all epochs.
//! - Threads: a batch is cut into `--threads` consecutive parts; each thread sums the
//!   gradient of its part into a buffer of its own, and the buffers are added in thread
//!   order. With a fixed seed and thread count a run repeats exactly.
//! - Held out: a share `--holdout` of the games (by a hash of the seed, the file's place in
//!   the arguments and the game's number), never trained on; its loss is printed after each
//!   epoch.
//! - After each epoch: the network quantized into the engine's [`Network`] and written to
//!   `--out` as a YaneuraOu `K_P 256x2-32-32` `nn.bin` ([`Network::to_bytes`]), the largest and mean `|quantized − float|` evaluation over
//!   the held-out positions printed (the quantized evaluation is the engine's reference,
//!   [`Network::evaluate`]), and a checkpoint of the float network and Adam's state written to
//!   `--checkpoint` (default: `--out` with `.ckpt`), from which `--resume` goes on.
//! - Start: small random weights ([`Model::random`]), or `--init` a network file.

pub mod checkpoint;
pub mod expand;
pub mod model;
pub mod quantize;

use crate::holdout;
use crate::logistic::sigmoid;
use crate::nnue_data::{self, Record};
use crate::progress;
use anyhow::{Context, Result, ensure};
use model::OUTPUT_CP;
use model::{Adam, Grad, Loss, Model, Scratch, Shape};
use soppo_core::rng::{SplitMix64, splitmix64};
use soppo_core::{PackedPosition, Position};
use soppo_engine::eval::nnue::Features;
use soppo_engine::eval::nnue::network::{DEFAULT_FV_SCALE, Network};
use std::path::PathBuf;
use std::time::Instant;

/// The options of `train-nnue`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Data files of `gen-data`.
    #[arg(required = true, value_name = "DATA")]
    pub data: Vec<PathBuf>,
    /// Where to write the network (after every epoch).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Where to write the checkpoint (default: `--out` with the extension `.ckpt`).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Go on from this checkpoint (its epochs count towards `--epochs`).
    #[arg(long, value_name = "FILE", conflicts_with = "init")]
    pub resume: Option<PathBuf>,
    /// Start from this network file instead of random weights.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub epochs: u32,
    /// Positions a step.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size at the start.
    #[arg(long, value_name = "X", default_value_t = 1e-3)]
    pub lr: f32,
    /// The step size at the end of the cosine schedule.
    #[arg(long, value_name = "X", default_value_t = 1e-4)]
    pub lr_end: f32,
    /// Weight of the search's score in the target (the game's result has the rest).
    #[arg(long, value_name = "X", default_value_t = 0.5)]
    pub lambda: f32,
    /// K, the centipawns of one unit of the logistic: win probability σ(cp / K).
    #[arg(long, value_name = "K", default_value_t = 600.0)]
    pub scale: f32,
    /// Share of the games held out to measure the fit.
    #[arg(long, value_name = "F", default_value_t = 0.05)]
    pub holdout: f64,
    /// Seed of the split, the initial weights and the order of the positions.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Threads a batch is split over (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Train on each training position's mirror image too (files swapped left and right, the
    /// same label: the rules are symmetric so); the held-out positions stay as they are.
    #[arg(long)]
    pub mirror: bool,
    /// What scores the positions for the target: `search` (the score `gen-data` recorded) or
    /// `classic` (the classic evaluation's static score of the position).
    #[arg(long, value_enum, default_value_t = Teacher::Search)]
    pub teacher: Teacher,
    /// Random walks from each training position whose positions are trained on too, scored
    /// by the classic evaluation's static score.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub expand: u32,
    /// Plies of each walk of `--expand` (every position on it counts).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub expand_plies: u32,
}

/// The score in a position's training target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Teacher {
    /// The search's score, as `gen-data` recorded it.
    Search,
    /// The classic evaluation's static score.
    Classic,
}

/// Training positions and their labels.
pub trait Samples: Sync {
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `us` and `them` with sample `i`'s active inputs (the side to move's and the
    /// other side's) and returns its target; `None` for a sample that cannot be used.
    fn fill(&self, i: usize, us: &mut Vec<u16>, them: &mut Vec<u16>) -> Option<f32>;
}

/// A position of the data and its target.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    pub packed: PackedPosition,
    pub target: f32,
}

/// The active inputs of `pos` for the side to move and for the other side.
pub fn fill_inputs(pos: &Position, us: &mut Vec<u16>, them: &mut Vec<u16>) {
    us.clear();
    them.clear();
    let side = pos.side_to_move();
    Features::KP.for_each_active(pos, side, |i| us.push(i as u16));
    Features::KP.for_each_active(pos, !side, |i| them.push(i as u16));
}

impl Samples for [Sample] {
    fn len(&self) -> usize {
        <[Sample]>::len(self)
    }

    fn fill(&self, i: usize, us: &mut Vec<u16>, them: &mut Vec<u16>) -> Option<f32> {
        let pos = Position::unpack(&self[i].packed).ok()?;
        fill_inputs(&pos, us, them);
        Some(self[i].target)
    }
}

/// The classic evaluation's static score of `pos`, centipawns (side to move's view).
pub fn eval_cp(pos: &Position) -> f32 {
    #[allow(clippy::cast_precision_loss, reason = "scores far below 2^24")]
    let cp = soppo_engine::eval::evaluate(pos) as f32;
    cp
}

/// The mean loss of the classic evaluation's static score on `samples`, taken as the output:
/// the figure a network must beat to judge these positions better than what labelled them.
fn classic_loss(samples: &[Sample], loss: Loss) -> f64 {
    let (mut sum, mut n) = (0.0f64, 0usize);
    for s in samples {
        if let Ok(pos) = Position::unpack(&s.packed) {
            #[allow(clippy::cast_precision_loss, reason = "OUTPUT_CP is small")]
            let y = eval_cp(&pos) / OUTPUT_CP as f32;
            sum += f64::from(loss.at(y, s.target).0);
            n += 1;
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let mean = sum / n.max(1) as f64;
    mean
}

/// The model, Adam's state and the threads' buffers.
pub struct Trainer {
    /// The weights Adam steps.
    pub model: Model,
    /// `model` rounded to the quantization grid ([`quantize::snap`]; equal to `model` when
    /// quantization-aware training is off): the network the passes use and that is measured.
    grid: Model,
    quantization_aware: bool,
    pub adam: Adam,
    pub loss: Loss,
    threads: usize,
    grads: Vec<Grad>,
    scratch: Vec<Scratch>,
}

/// Per thread: the inputs' buffers.
#[derive(Default)]
struct Inputs {
    us: Vec<u16>,
    them: Vec<u16>,
}

impl Trainer {
    /// A trainer of `model`, its forward and backward passes on the quantization grid when
    /// `quantization_aware` (see [`quantize`]).
    pub fn new(model: Model, adam: Adam, loss: Loss, threads: usize, quantization_aware: bool) -> Trainer {
        let threads = threads.max(1);
        let shape = model.shape;
        let mut grid = model.clone();
        if quantization_aware {
            quantize::snap(&mut grid);
        }
        Trainer {
            model,
            grid,
            quantization_aware,
            adam,
            loss,
            threads,
            grads: (0..threads).map(|_| Grad::new(shape)).collect(),
            scratch: vec![Scratch::default(); threads],
        }
    }

    /// The network being trained, as the passes see it (on the quantization grid when
    /// quantization-aware).
    pub fn network(&self) -> &Model {
        &self.grid
    }

    /// One Adam step on the positions `batch` of `samples` with step size `lr`; returns the
    /// summed loss before the step and the positions used.
    pub fn step<S: Samples + ?Sized>(&mut self, samples: &S, batch: &[u32], lr: f32) -> (f64, usize) {
        let per = batch.len().div_ceil(self.threads).max(1);
        let (model, loss) = (&self.grid, self.loss);
        let parts: Vec<(f64, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .grads
                .iter_mut()
                .zip(&mut self.scratch)
                .zip(batch.chunks(per))
                .map(|((grad, scratch), part)| {
                    scope.spawn(move || {
                        let mut inputs = Inputs::default();
                        let (mut sum, mut n) = (0.0f64, 0usize);
                        for &i in part {
                            let Some(target) = samples.fill(i as usize, &mut inputs.us, &mut inputs.them) else {
                                continue;
                            };
                            let y = model.forward(&inputs.us, &inputs.them, scratch);
                            let (l, dy) = loss.at(y, target);
                            model.backward(&inputs.us, &inputs.them, dy, scratch, grad);
                            sum += f64::from(l);
                            n += 1;
                        }
                        (sum, n)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a training thread panicked"))
                .collect()
        });
        let (first, rest) = self.grads.split_first_mut().expect("at least one thread");
        for g in rest.iter().take(parts.len().saturating_sub(1)) {
            first.absorb(g);
        }
        let n: usize = parts.iter().map(|p| p.1).sum();
        if n > 0 {
            #[allow(clippy::cast_precision_loss, reason = "batch sizes far below 2^24")]
            self.adam.step(&mut self.model, first, 1.0 / n as f32, lr);
            // Only the rows Adam stepped have changed.
            if self.quantization_aware {
                quantize::snap_from(&self.model, &mut self.grid, &first.rows);
            } else {
                self.grid.clone_from(&self.model);
            }
        }
        for g in &mut self.grads {
            g.clear();
        }
        (parts.iter().map(|p| p.0).sum(), n)
    }

    /// The mean loss over `indices` of `samples` (all threads).
    pub fn mean_loss<S: Samples + ?Sized>(&self, samples: &S, indices: &[u32]) -> f64 {
        let (sum, n) = self.map_reduce(indices, |i, inputs, scratch| {
            let target = samples.fill(i, &mut inputs.us, &mut inputs.them)?;
            let y = self.grid.forward(&inputs.us, &inputs.them, scratch);
            Some(f64::from(self.loss.at(y, target).0))
        });
        #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let mean = sum.iter().sum::<f64>() / n.max(1) as f64;
        mean
    }

    /// `f` of every index on all threads: the values of each thread (summed) and the count.
    fn map_reduce(
        &self,
        indices: &[u32],
        f: impl Fn(usize, &mut Inputs, &mut Scratch) -> Option<f64> + Sync,
    ) -> (Vec<f64>, usize) {
        let per = indices.len().div_ceil(self.threads).max(1);
        let f = &f;
        let parts: Vec<(f64, usize)> = std::thread::scope(|scope| {
            let handles: Vec<_> = indices
                .chunks(per)
                .map(|part| {
                    scope.spawn(move || {
                        let (mut inputs, mut scratch) = (Inputs::default(), Scratch::default());
                        let (mut sum, mut n) = (0.0, 0);
                        for &i in part {
                            if let Some(v) = f(i as usize, &mut inputs, &mut scratch) {
                                sum += v;
                                n += 1;
                            }
                        }
                        (sum, n)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a thread panicked"))
                .collect()
        });
        (parts.iter().map(|p| p.0).collect(), parts.iter().map(|p| p.1).sum())
    }
}

/// How far the quantized network is from the float one.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct QuantizationError {
    /// The largest `|quantized − float|` evaluation, centipawns.
    pub max_cp: f64,
    /// The mean of it.
    pub mean_cp: f64,
    pub positions: usize,
}

/// The float model's evaluation of `pos` in centipawns (side to move's view).
pub fn float_cp(model: &Model, pos: &Position, inputs: &mut (Vec<u16>, Vec<u16>), scratch: &mut Scratch) -> f64 {
    fill_inputs(pos, &mut inputs.0, &mut inputs.1);
    f64::from(model.forward(&inputs.0, &inputs.1, scratch)) * f64::from(OUTPUT_CP)
}

/// `|net.evaluate − float|` over the positions `indices` of `samples`, on `threads` threads.
pub fn quantization_error(
    model: &Model,
    net: &Network,
    samples: &[Sample],
    indices: &[u32],
    threads: usize,
) -> QuantizationError {
    let per = indices.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(f64, f64, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = indices
            .chunks(per)
            .map(|part| {
                scope.spawn(move || {
                    let (mut inputs, mut scratch) = ((Vec::new(), Vec::new()), Scratch::default());
                    let (mut max, mut sum, mut n) = (0.0f64, 0.0f64, 0usize);
                    for &i in part {
                        let Ok(pos) = Position::unpack(&samples[i as usize].packed) else {
                            continue;
                        };
                        let float = float_cp(model, &pos, &mut inputs, &mut scratch);
                        let d = (f64::from(net.evaluate(&pos, DEFAULT_FV_SCALE)) - float).abs();
                        max = max.max(d);
                        sum += d;
                        n += 1;
                    }
                    (max, sum, n)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread panicked"))
            .collect()
    });
    let n: usize = parts.iter().map(|p| p.2).sum();
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    QuantizationError {
        max_cp: parts.iter().map(|p| p.0).fold(0.0, f64::max),
        mean_cp: parts.iter().map(|p| p.1).sum::<f64>() / n.max(1) as f64,
        positions: n,
    }
}

/// The step size at step `step` (0-based) of `total`: a cosine from `lr` to `lr_end`.
pub fn cosine(step: u64, total: u64, lr: f32, lr_end: f32) -> f32 {
    #[allow(clippy::cast_precision_loss, reason = "step counts far below 2^52")]
    let progress = (step as f64 / total.max(1) as f64).min(1.0);
    let c = f64::midpoint(1.0, (std::f64::consts::PI * progress).cos());
    lr_end + (lr - lr_end) * c as f32
}

/// `λ · σ(score / K) + (1 − λ) · result`: a score (centipawns) and a result (1, ½, 0) mixed
/// into a target.
pub fn mixed_target(score: f32, result: f32, lambda: f32, k: f32) -> f32 {
    lambda * sigmoid(score / k) + (1.0 - lambda) * result
}

/// The training target of a record.
pub fn target(r: &Record, lambda: f32, k: f32) -> f32 {
    mixed_target(f32::from(r.score), r.result_target(), lambda, k)
}

/// The training target of a record with `teacher`'s score (see [`target`]).
pub fn teacher_target(r: &Record, teacher: Teacher, lambda: f32, k: f32) -> Result<f32> {
    Ok(match teacher {
        Teacher::Search => target(r, lambda, k),
        Teacher::Classic => {
            let pos = Position::unpack(&r.packed).context("a record that does not unpack")?;
            mixed_target(eval_cp(&pos), r.result_target(), lambda, k)
        }
    })
}

/// Whether game `game` of the `file`-th data file is held out.
fn held_out(seed: u64, file: usize, game: u32, share: f64) -> bool {
    holdout::held_out(seed, ((file as u64) << 32) | u64::from(game), share)
}

/// The training and held-out positions of the data files.
fn load(opts: &Args) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (index, path) in opts.data.iter().enumerate() {
        let file = nnue_data::read(path)?;
        if let Some(tail) = &file.tail {
            println!("{}: {tail}", path.display());
        }
        let held_before = held.len();
        for r in &file.records {
            let s = Sample {
                packed: r.packed,
                target: teacher_target(r, opts.teacher, opts.lambda, opts.scale)?,
            };
            if held_out(opts.seed, index, r.game, opts.holdout) {
                held.push(s);
            } else {
                train.push(s);
                if opts.mirror {
                    train.extend(mirror(&s));
                }
            }
        }
        println!(
            "{}: {} positions of {} games in {} blocks ({} held out)",
            path.display(),
            file.records.len(),
            file.games.len(),
            file.blocks,
            held.len() - held_before
        );
    }
    Ok((train, held))
}

/// The mirror image of `s` (its files swapped) with the same target; `None` for a position
/// that does not unpack or whose mirror is itself (nothing to learn from a twin).
fn mirror(s: &Sample) -> Option<Sample> {
    let pos = Position::unpack(&s.packed).ok()?;
    let packed = pos.mirrored().pack().ok()?;
    (packed != s.packed).then_some(Sample {
        packed,
        target: s.target,
    })
}

/// Runs `train-nnue`; the last line printed is the summary.
pub fn run(opts: &Args) -> Result<()> {
    ensure!(opts.batch > 0, "--batch must be positive");
    ensure!(opts.scale > 0.0, "--scale must be positive");
    ensure!((0.0..=1.0).contains(&opts.lambda), "--lambda must be within 0..=1");
    ensure!((0.0..1.0).contains(&opts.holdout), "--holdout must be within 0..1");
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    ensure!(
        opts.expand == 0 || opts.expand_plies > 0,
        "--expand-plies must be positive with --expand"
    );
    let (mut train, held) = load(opts)?;
    if opts.expand > 0 {
        let extra = expand::expand_all(
            &train,
            opts.seed ^ 0x4558_5041_4E44,
            opts.expand,
            opts.expand_plies,
            opts.lambda,
            opts.scale,
            threads,
        );
        println!(
            "--expand: {} positions of random walks added to the {} recorded ones",
            extra.len(),
            train.len()
        );
        train.extend(extra);
    }
    ensure!(!train.is_empty(), "no training positions");
    let checkpoint_path = opts
        .checkpoint
        .clone()
        .unwrap_or_else(|| opts.out.with_extension("ckpt"));

    let (model, adam, done) = if let Some(path) = &opts.resume {
        let c = checkpoint::load(path)?;
        ensure!(
            c.model.shape == Shape::NNUE,
            "{}: a network of another shape",
            path.display()
        );
        println!("resuming from {} after {} epochs", path.display(), c.epochs);
        (c.model, c.adam, c.epochs)
    } else if let Some(path) = &opts.init {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let net = Network::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
        (quantize::dequantize(&net), Adam::new(Shape::NNUE), 0)
    } else {
        (Model::random(Shape::NNUE, opts.seed), Adam::new(Shape::NNUE), 0)
    };
    let mut trainer = Trainer::new(model, adam, Loss::new(opts.scale), threads, true);
    let train_all: Vec<u32> = (0..train.len() as u32).collect();
    let held_all: Vec<u32> = (0..held.len() as u32).collect();
    // Without held-out games, the quantization is measured on (some) training positions.
    let (check_samples, check_indices) = if held.is_empty() {
        (&train, train_all[..train_all.len().min(20_000)].to_vec())
    } else {
        (&held, held_all.clone())
    };
    let steps_per_epoch = train.len().div_ceil(opts.batch) as u64;
    let total_steps = steps_per_epoch * u64::from(opts.epochs);
    println!(
        "{} training positions, {} held out; {} steps an epoch of {} positions; λ {}, K {}, {threads} threads",
        train.len(),
        held.len(),
        steps_per_epoch,
        opts.batch,
        opts.lambda,
        opts.scale
    );
    let held_loss = |t: &Trainer| (!held.is_empty()).then(|| t.mean_loss(held.as_slice(), &held_all));
    let start_loss = held_loss(&trainer);
    if let Some(l) = start_loss {
        println!("epoch {done}: held-out loss {l:.6}");
        println!(
            "the classic evaluation's held-out loss (its static score as the output): {:.6}",
            classic_loss(&held, trainer.loss)
        );
    }
    let mut last = (start_loss, QuantizationError::default());
    let mut rate = 0.0;
    for epoch in done + 1..=opts.epochs {
        let mut order = train_all.clone();
        SplitMix64::new(opts.seed ^ splitmix64(u64::from(epoch))).shuffle(&mut order);
        let bar = progress::with_template(
            order.len() as u64,
            &format!("epoch {epoch} {{bar:30}} {{pos}}/{{len}} positions, {{msg}} [{{elapsed_precise}}, eta {{eta}}]"),
        );
        let started = Instant::now();
        let (mut sum, mut n) = (0.0f64, 0usize);
        for batch in order.chunks(opts.batch) {
            let lr = cosine(trainer.adam.step, total_steps, opts.lr, opts.lr_end);
            let (s, k) = trainer.step(train.as_slice(), batch, lr);
            sum += s;
            n += k;
            bar.inc(batch.len() as u64);
            #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
            bar.set_message(format!(
                "{:.0}/s, loss {:.6}",
                n as f64 / started.elapsed().as_secs_f64().max(1e-9),
                sum / n.max(1) as f64
            ));
        }
        bar.finish_and_clear();
        let secs = started.elapsed().as_secs_f64();
        #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let (train_loss, positions_per_s) = (sum / n.max(1) as f64, n as f64 / secs.max(1e-9));
        rate = positions_per_s;
        let held = held_loss(&trainer);
        let (net, clipped) = quantize::quantize(trainer.network());
        let q = quantization_error(trainer.network(), &net, check_samples, &check_indices, threads);
        std::fs::write(&opts.out, net.to_bytes()).with_context(|| format!("cannot write {}", opts.out.display()))?;
        checkpoint::save(&checkpoint_path, &trainer.model, &trainer.adam, epoch)?;
        println!(
            "epoch {epoch}: training loss {train_loss:.6}{}, lr {:.2e}, {positions_per_s:.0} positions/s; \
             quantized vs float: max {:.2} cp, mean {:.3} cp over {} positions (worst case {:.0} cp){}",
            held.map_or(String::new(), |l| format!(", held-out loss {l:.6}")),
            cosine(trainer.adam.step, total_steps, opts.lr, opts.lr_end),
            q.max_cp,
            q.mean_cp,
            q.positions,
            quantize::error_bound_cp(trainer.network()),
            if clipped > 0 {
                format!(" ({clipped} values clipped)")
            } else {
                String::new()
            }
        );
        last = (held, q);
    }
    println!(
        "train-nnue: {} training positions, {} held out; held-out loss {} -> {}; quantized vs float max {:.2} cp \
         (mean {:.3}) over {} positions; {rate:.0} positions/s on {threads} threads; network {}, checkpoint {}",
        train.len(),
        held.len(),
        start_loss.map_or("-".into(), |l| format!("{l:.6}")),
        last.0.map_or("-".into(), |l| format!("{l:.6}")),
        last.1.max_cp,
        last.1.mean_cp,
        last.1.positions,
        opts.out.display(),
        checkpoint_path.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests;
