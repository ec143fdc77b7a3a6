//! The float network, its forward and backward passes, and Adam.
//!
//! The shape is the engine's K+P net ([`Shape::NNUE`]: 1,710 inputs → `HALF` per perspective,
//! the side to move's accumulator first in the concatenation, → `L1` → `L2` → 1, clipped
//! `ReLU` `clamp(x, 0, 1)` after the feature transformer and each hidden layer: YaneuraOu's
//! `K_P 256x2-32-32`), with the sizes given at run time so that the gradient check can use a
//! tiny one. The output × [`OUTPUT_CP`] is the value (in the evaluation's internal units) from
//! the side to move's view.
//!
//! Sparse first layer: a position has 40 active inputs per perspective out of 1,710, so
//! the forward pass adds 80 rows of the transformer, and the backward pass adds the
//! accumulator's gradient into those rows only, noting which rows it touched; Adam then steps
//! those rows alone (`PyTorch`'s `SparseAdam`: a row's moments move only when the row has a
//! gradient). Why not dense Adam: with a batch of thousands of positions most rows are touched
//! anyway and the cost is the same, but a row that is rare (a piece on a square it seldom
//! reaches) would, densely, keep moving on its stale momentum for thousands of steps after its
//! last gradient, a drift towards the weight limits that the data never asked for.

use crate::adam::Step;
use crate::logistic::sigmoid;
use soppo_core::rng::SplitMix64;
use soppo_engine::eval::nnue::Features;
use soppo_engine::eval::nnue::network::{DEFAULT_FV_SCALE, FT_WEIGHT_LIMIT, HALF, L1, L2, OUTPUT_SCALE, WEIGHT_LIMIT};

/// The value of a float output of 1.0 in the quantized net at the default `FV_SCALE`: the
/// output sum's scale over `FV_SCALE` (508).
pub const OUTPUT_CP: i32 = OUTPUT_SCALE / DEFAULT_FV_SCALE;

/// The layer sizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub half: usize,
    pub l1: usize,
    pub l2: usize,
}

impl Shape {
    /// The engine's network.
    pub const NNUE: Shape = Shape {
        inputs: Features::KP.inputs(),
        half: HALF,
        l1: L1,
        l2: L2,
    };
}

/// The parameters (or a gradient, or Adam's moments, of the same shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub shape: Shape,
    /// `ft_w[input * half + j]`.
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    /// `l1_w[o * 2 * half + i]`.
    pub l1_w: Vec<f32>,
    pub l1_b: Vec<f32>,
    /// `l2_w[o * l1 + i]`.
    pub l2_w: Vec<f32>,
    pub l2_b: Vec<f32>,
    pub out_w: Vec<f32>,
    /// One value.
    pub out_b: Vec<f32>,
}

/// A uniform draw in `-a..a`.
fn uniform(rng: &mut SplitMix64, a: f32) -> f32 {
    #[allow(clippy::cast_precision_loss, reason = "24 bits, exact")]
    let u = (rng.next_u64() >> 40) as f32 / (1u32 << 24) as f32;
    (2.0 * u - 1.0) * a
}

impl Model {
    /// Every parameter zero.
    pub fn zeros(shape: Shape) -> Model {
        Model {
            shape,
            ft_w: vec![0.0; shape.inputs * shape.half],
            ft_b: vec![0.0; shape.half],
            l1_w: vec![0.0; shape.l1 * 2 * shape.half],
            l1_b: vec![0.0; shape.l1],
            l2_w: vec![0.0; shape.l2 * shape.l1],
            l2_b: vec![0.0; shape.l2],
            out_w: vec![0.0; shape.l2],
            out_b: vec![0.0],
        }
    }

    /// The starting network: small uniform weights, scaled so that each layer's
    /// pre-activations spread over a third of the clipped range around its middle (biases
    /// ½) for positions of 40 active inputs, and a small output.
    pub fn random(shape: Shape, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed ^ 0x4E4E_5545_494E_4954);
        let mut m = Model::zeros(shape);
        // 40 rows of std a/√3 sum to a std of 3.7a: ±0.06 gives about 0.2.
        m.ft_w.iter_mut().for_each(|w| *w = uniform(&mut rng, 0.06));
        m.ft_b.fill(0.0);
        #[allow(clippy::cast_precision_loss, reason = "small sizes")]
        let fan = |n: usize| 1.0 / (n as f32).sqrt();
        m.l1_w
            .iter_mut()
            .for_each(|w| *w = uniform(&mut rng, fan(2 * shape.half)));
        m.l1_b.fill(0.5);
        m.l2_w.iter_mut().for_each(|w| *w = uniform(&mut rng, fan(shape.l1)));
        m.l2_b.fill(0.5);
        m.out_w.iter_mut().for_each(|w| *w = uniform(&mut rng, 0.05));
        m
    }

    /// The parameter tensors in a fixed order (checkpoints, Adam).
    pub fn tensors(&self) -> [&[f32]; 8] {
        [
            &self.ft_w,
            &self.ft_b,
            &self.l1_w,
            &self.l1_b,
            &self.l2_w,
            &self.l2_b,
            &self.out_w,
            &self.out_b,
        ]
    }

    /// [`Model::tensors`], writable.
    pub fn tensors_mut(&mut self) -> [&mut [f32]; 8] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.l1_w,
            &mut self.l1_b,
            &mut self.l2_w,
            &mut self.l2_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    /// Keeps the weights within what quantization can hold (the network module's limits).
    pub fn clip(&mut self) {
        let all: Vec<u16> = (0..self.shape.inputs as u16).collect();
        self.clip_rows(&all);
    }

    /// [`Model::clip`] of the feature transformer's `rows` and of every other tensor.
    pub fn clip_rows(&mut self, rows: &[u16]) {
        let half = self.shape.half;
        for &i in rows {
            for w in &mut self.ft_w[i as usize * half..(i as usize + 1) * half] {
                *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
            }
        }
        for w in &mut self.ft_b {
            *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
        }
        for w in self.l1_w.iter_mut().chain(&mut self.l2_w).chain(&mut self.out_w) {
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }

    /// The forward pass of one position (`us`, `them`: the active inputs of the side to move
    /// and of the other side); leaves the activations in `s` and returns the output.
    pub fn forward(&self, us: &[u16], them: &[u16], s: &mut Scratch) -> f32 {
        let Shape { half, l1, l2, .. } = self.shape;
        s.resize(self.shape);
        let (acc_us, acc_them) = s.acc.split_at_mut(half);
        for (acc, active) in [(acc_us, us), (acc_them, them)] {
            acc.copy_from_slice(&self.ft_b);
            for &i in active {
                add(acc, &self.ft_w[i as usize * half..(i as usize + 1) * half]);
            }
        }
        for (x, &a) in s.x.iter_mut().zip(&s.acc) {
            *x = a.clamp(0.0, 1.0);
        }
        for o in 0..l1 {
            s.z1[o] = self.l1_b[o] + dot(&self.l1_w[o * 2 * half..(o + 1) * 2 * half], &s.x);
            s.h1[o] = s.z1[o].clamp(0.0, 1.0);
        }
        for o in 0..l2 {
            s.z2[o] = self.l2_b[o] + dot(&self.l2_w[o * l1..(o + 1) * l1], &s.h1);
            s.h2[o] = s.z2[o].clamp(0.0, 1.0);
        }
        self.out_b[0] + dot(&self.out_w, &s.h2)
    }

    /// The backward pass of the position [`Model::forward`] just saw (its activations in
    /// `s`), for `dy`, the loss's derivative by the output: adds the gradient into `g`.
    pub fn backward(&self, us: &[u16], them: &[u16], dy: f32, s: &mut Scratch, g: &mut Grad) {
        let Shape { half, l1, l2, .. } = self.shape;
        let m = &mut g.model;
        m.out_b[0] += dy;
        s.d1.fill(0.0);
        for o in 0..l2 {
            m.out_w[o] += dy * s.h2[o];
            let d = if inside(s.z2[o]) { dy * self.out_w[o] } else { 0.0 };
            if d != 0.0 {
                m.l2_b[o] += d;
                axpy(&mut m.l2_w[o * l1..(o + 1) * l1], d, &s.h1);
                axpy(&mut s.d1, d, &self.l2_w[o * l1..(o + 1) * l1]);
            }
        }
        s.dx.fill(0.0);
        for o in 0..l1 {
            let d = if inside(s.z1[o]) { s.d1[o] } else { 0.0 };
            if d != 0.0 {
                m.l1_b[o] += d;
                axpy(&mut m.l1_w[o * 2 * half..(o + 1) * 2 * half], d, &s.x);
                axpy(&mut s.dx, d, &self.l1_w[o * 2 * half..(o + 1) * 2 * half]);
            }
        }
        for (d, &a) in s.dx.iter_mut().zip(&s.acc) {
            if !inside(a) {
                *d = 0.0;
            }
        }
        let (dx_us, dx_them) = s.dx.split_at(half);
        add(&mut m.ft_b, dx_us);
        add(&mut m.ft_b, dx_them);
        for (active, dx) in [(us, dx_us), (them, dx_them)] {
            for &i in active {
                let i = i as usize;
                add(&mut m.ft_w[i * half..(i + 1) * half], dx);
                if !g.touched[i] {
                    g.touched[i] = true;
                    g.rows.push(i as u16);
                }
            }
        }
    }
}

/// Whether a clipped `ReLU`'s input is where it has a slope (its derivative is taken as 0 at
/// the corners).
fn inside(z: f32) -> bool {
    z > 0.0 && z < 1.0
}

/// `a += b`.
fn add(a: &mut [f32], b: &[f32]) {
    for (a, b) in a.iter_mut().zip(b) {
        *a += b;
    }
}

/// `a += k · b`.
fn axpy(a: &mut [f32], k: f32, b: &[f32]) {
    for (a, b) in a.iter_mut().zip(b) {
        *a += k * b;
    }
}

/// `a · b`, in eight lanes (so that it vectorizes; the order of the sum is fixed).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The activations of one forward pass and the backward pass's intermediate gradients.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    acc: Vec<f32>,
    x: Vec<f32>,
    z1: Vec<f32>,
    h1: Vec<f32>,
    z2: Vec<f32>,
    h2: Vec<f32>,
    d1: Vec<f32>,
    dx: Vec<f32>,
}

impl Scratch {
    /// Whether each clipped `ReLU` of the last forward pass was on its slope (the
    /// transformer's, then the hidden layers').
    pub fn pattern(&self) -> impl Iterator<Item = bool> + '_ {
        self.acc.iter().chain(&self.z1).chain(&self.z2).map(|&z| inside(z))
    }

    fn resize(&mut self, shape: Shape) {
        if self.acc.len() != 2 * shape.half || self.z1.len() != shape.l1 || self.z2.len() != shape.l2 {
            *self = Scratch {
                acc: vec![0.0; 2 * shape.half],
                x: vec![0.0; 2 * shape.half],
                z1: vec![0.0; shape.l1],
                h1: vec![0.0; shape.l1],
                z2: vec![0.0; shape.l2],
                h2: vec![0.0; shape.l2],
                d1: vec![0.0; shape.l1],
                dx: vec![0.0; 2 * shape.half],
            };
        }
    }
}

/// A gradient: dense for every tensor, with the feature transformer's rows that have one.
#[derive(Clone, Debug)]
pub struct Grad {
    pub model: Model,
    touched: Vec<bool>,
    /// The touched rows, in the order first touched.
    pub rows: Vec<u16>,
}

impl Grad {
    pub fn new(shape: Shape) -> Grad {
        Grad {
            model: Model::zeros(shape),
            touched: vec![false; shape.inputs],
            rows: Vec::new(),
        }
    }

    /// Back to zero (only the touched rows of the transformer need it).
    pub fn clear(&mut self) {
        let half = self.model.shape.half;
        for &i in &self.rows {
            let i = i as usize;
            self.model.ft_w[i * half..(i + 1) * half].fill(0.0);
            self.touched[i] = false;
        }
        self.rows.clear();
        for t in self.model.tensors_mut().into_iter().skip(1) {
            t.fill(0.0);
        }
    }

    /// Adds `other` into this gradient.
    pub fn absorb(&mut self, other: &Grad) {
        let half = self.model.shape.half;
        for &i in &other.rows {
            let i = i as usize;
            add(
                &mut self.model.ft_w[i * half..(i + 1) * half],
                &other.model.ft_w[i * half..(i + 1) * half],
            );
            if !self.touched[i] {
                self.touched[i] = true;
                self.rows.push(i as u16);
            }
        }
        for (a, b) in self.model.tensors_mut().into_iter().zip(other.model.tensors()).skip(1) {
            add(a, b);
        }
    }
}

/// The loss of one position: `(σ(y · OUTPUT_CP / K) − target)²`, `y` the network's output,
/// `K` the scale in centipawns.
#[derive(Copy, Clone, Debug)]
pub struct Loss {
    /// `OUTPUT_CP / K`.
    pub slope: f32,
}

impl Loss {
    /// The loss at scale `k` centipawns.
    #[allow(clippy::cast_precision_loss, reason = "a small constant")]
    pub fn new(k: f32) -> Loss {
        Loss {
            slope: OUTPUT_CP as f32 / k,
        }
    }

    /// The loss and its derivative by `y`.
    pub fn at(self, y: f32, target: f32) -> (f32, f32) {
        let p = sigmoid(y * self.slope);
        let e = p - target;
        (e * e, 2.0 * e * p * (1.0 - p) * self.slope)
    }
}

/// Adam's state: first and second moments and the step count.
#[derive(Clone, Debug)]
pub struct Adam {
    pub m: Model,
    pub v: Model,
    pub step: u64,
}

impl Adam {
    pub fn new(shape: Shape) -> Adam {
        Adam {
            m: Model::zeros(shape),
            v: Model::zeros(shape),
            step: 0,
        }
    }

    /// One step of `model` down the gradient `g` (a sum over positions, times `scale`), with
    /// step size `lr`; the transformer's untouched rows are left as they are. Clips the
    /// weights to the quantization limits after.
    pub fn step(&mut self, model: &mut Model, g: &Grad, scale: f32, lr: f32) {
        self.step += 1;
        let step = Step::new(self.step, lr, 0.0);
        let half = model.shape.half;
        for &i in &g.rows {
            let r = i as usize * half..(i as usize + 1) * half;
            step.update_all(
                &mut model.ft_w[r.clone()],
                &g.model.ft_w[r.clone()],
                scale,
                &mut self.m.ft_w[r.clone()],
                &mut self.v.ft_w[r],
            );
        }
        let params = model.tensors_mut().into_iter().skip(1);
        let grads = g.model.tensors().into_iter().skip(1);
        let ms = self.m.tensors_mut().into_iter().skip(1);
        let vs = self.v.tensors_mut().into_iter().skip(1);
        for (((p, g), m), v) in params.zip(grads).zip(ms).zip(vs) {
            step.update_all(p, g, scale, m, v);
        }
        model.clip_rows(&g.rows);
    }
}
