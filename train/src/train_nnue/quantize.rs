//! The float network to the engine's quantized [`Network`] and back.
//!
//! As the network module states: the transformer's weights and biases × [`FT_SCALE`] in
//! `i16`; the hidden and output weights × [`WEIGHT_SCALE`] in `i8`; their biases × `FT_SCALE ×
//! WEIGHT_SCALE` in `i32`; each rounded to nearest (the `K_P 256x2-32-32` net YaneuraOu reads,
//! [`Network::to_bytes`]). One addition of ours: the engine divides a
//! hidden layer's sum by 64 with a shift, which rounds down; the hidden biases get half of
//! that step (+32) so that the shift rounds to nearest instead, and [`dequantize`] takes it off
//! again. The output's division by `FV_SCALE` rounds towards zero (under a unit).
//!
//! Quantization-aware training: the trainer's forward and backward passes use the weights as
//! quantization will round them ([`snap`]), and Adam steps the unrounded ones (the gradient
//! passes the rounding unchanged, the "straight-through" estimate). The float network that
//! training measures is then the quantized network's weights in float arithmetic, and
//! quantization adds only the rounding of the hidden activations to 1/127 and of the output
//! to a unit. Without it, the rounding of the 512 weights of each first hidden unit to
//! 1/64 alone moves a unit's input by a few hundredths, and the evaluation by tens of
//! centipawns (see the tests).

use super::model::OUTPUT_CP;
use super::model::{Model, Shape};
use soppo_engine::eval::nnue::Features;
use soppo_engine::eval::nnue::network::{FT_SCALE, HALF, L1, L2, Network, WEIGHT_SCALE};

/// The hidden biases' rounding offset: half a step of the engine's `>> 6`.
const HALF_SHIFT: i32 = 32;

const _: () = assert!(WEIGHT_SCALE == 1 << 6, "the engine shifts a hidden sum by 6");

#[allow(clippy::cast_precision_loss, reason = "small constants")]
const FT: f32 = FT_SCALE as f32;
#[allow(clippy::cast_precision_loss, reason = "small constants")]
const W: f32 = WEIGHT_SCALE as f32;
#[allow(clippy::cast_precision_loss, reason = "small constants")]
const BIAS: f32 = (FT_SCALE * WEIGHT_SCALE) as f32;

/// `x` rounded into `lo..=hi`; counts in `clipped` the values that did not fit.
fn fit(x: f32, lo: i32, hi: i32, clipped: &mut usize) -> i32 {
    let r = x.round();
    #[allow(clippy::cast_precision_loss, reason = "i16/i32 limits, well within f32's range")]
    if r < lo as f32 || r > hi as f32 {
        *clipped += 1;
    }
    (r as i64).clamp(i64::from(lo), i64::from(hi)) as i32
}

/// The quantized network of `model` (which must have the engine's shape) and the number of
/// values that were beyond what their integers hold and were clipped (0 for a model kept
/// within the limits by [`Model::clip`]).
pub fn quantize(model: &Model) -> (Network, usize) {
    assert_eq!(model.shape, Shape::NNUE, "only the engine's shape quantizes");
    let mut c = 0;
    let mut net = Network::zeroed(Features::KP);
    let ft = |x: f32, c: &mut usize| fit(x * FT, -i32::from(i16::MAX), i32::from(i16::MAX), c) as i16;
    let w = |x: f32, c: &mut usize| fit(x * W, -127, 127, c) as i8;
    let bias = |x: f32, c: &mut usize| fit(x * BIAS, i32::MIN / 2, i32::MAX / 2, c);
    for (q, &x) in net.ft_bias.iter_mut().zip(&model.ft_b) {
        *q = ft(x, &mut c);
    }
    for (q, &x) in net.ft_weights.iter_mut().zip(&model.ft_w) {
        *q = ft(x, &mut c);
    }
    for (q, &x) in net.l1_bias.iter_mut().zip(&model.l1_b) {
        *q = bias(x, &mut c) + HALF_SHIFT;
    }
    for (q, &x) in net.l1_weights.iter_mut().zip(&model.l1_w) {
        *q = w(x, &mut c);
    }
    for (q, &x) in net.l2_bias.iter_mut().zip(&model.l2_b) {
        *q = bias(x, &mut c) + HALF_SHIFT;
    }
    for (q, &x) in net.l2_weights.iter_mut().zip(&model.l2_w) {
        *q = w(x, &mut c);
    }
    net.out_bias = bias(model.out_b[0], &mut c);
    for (q, &x) in net.out_weights.iter_mut().zip(&model.out_w) {
        *q = w(x, &mut c);
    }
    (net, c)
}

/// Rounds every value of `model` (of any shape) to the grid [`quantize`] puts it on, in
/// place: `quantize` of the result gives the same network, and its float evaluation differs
/// from the engine's only by the rounding of activations.
pub fn snap(model: &mut Model) {
    let all: Vec<u16> = (0..model.shape.inputs as u16).collect();
    let source = model.clone();
    snap_from(&source, model, &all);
}

/// `grid` becomes `model` rounded as [`snap`] rounds it, except the feature transformer's
/// rows not in `rows`, which are left as they are (the trainer's rows that Adam did not step).
pub fn snap_from(model: &Model, grid: &mut Model, rows: &[u16]) {
    let round = |from: &[f32], to: &mut [f32], scale: f32, limit: f32| {
        for (t, &x) in to.iter_mut().zip(from) {
            *t = (x * scale).round().clamp(-limit, limit) / scale;
        }
    };
    let ft_limit = f32::from(i16::MAX);
    let half = model.shape.half;
    for &i in rows {
        let r = i as usize * half..(i as usize + 1) * half;
        round(&model.ft_w[r.clone()], &mut grid.ft_w[r], FT, ft_limit);
    }
    round(&model.ft_b, &mut grid.ft_b, FT, ft_limit);
    round(&model.l1_w, &mut grid.l1_w, W, 127.0);
    round(&model.l2_w, &mut grid.l2_w, W, 127.0);
    round(&model.out_w, &mut grid.out_w, W, 127.0);
    #[allow(clippy::cast_precision_loss, reason = "a bound far beyond any bias")]
    let bias_limit = (i32::MAX / 2) as f32;
    round(&model.l1_b, &mut grid.l1_b, BIAS, bias_limit);
    round(&model.l2_b, &mut grid.l2_b, BIAS, bias_limit);
    round(&model.out_b, &mut grid.out_b, BIAS, bias_limit);
}

/// The most the engine's evaluation can differ from the float evaluation, in value units, for
/// a model on the grid ([`snap`]): with equal weights the accumulators are equal, each hidden
/// activation is rounded by at most 1/254 (half of 1/127; clamping does not widen a gap), a
/// second-layer unit's input moves by at most `Σ|w|/254` more, and the output by `Σ|w_out| ×`
/// the second layer's gap, times [`OUTPUT_CP`], plus the output division's truncation (under
/// a unit) and a hundredth for float arithmetic. A worst case: the errors seldom line up.
pub fn error_bound_cp(model: &Model) -> f64 {
    let l1 = model.shape.l1;
    let step = 1.0 / 254.0;
    let h2_gap = |o: usize| {
        step + model.l2_w[o * l1..(o + 1) * l1]
            .iter()
            .map(|w| f64::from(w.abs()) * step)
            .sum::<f64>()
    };
    let out: f64 = model
        .out_w
        .iter()
        .enumerate()
        .map(|(o, w)| f64::from(w.abs()) * h2_gap(o))
        .sum();
    out * f64::from(OUTPUT_CP) + 1.0 + 0.01
}

/// The float network that [`quantize`] turns back into `net` (to go on training from a
/// network file).
#[allow(clippy::cast_precision_loss, reason = "quantized values, exact in f32")]
pub fn dequantize(net: &Network) -> Model {
    let mut m = Model::zeros(Shape::NNUE);
    m.ft_b = net.ft_bias.iter().map(|&q| f32::from(q) / FT).collect();
    m.ft_w = net.ft_weights.iter().map(|&q| f32::from(q) / FT).collect();
    m.l1_b = net.l1_bias.iter().map(|&q| (q - HALF_SHIFT) as f32 / BIAS).collect();
    m.l1_w = net.l1_weights.iter().map(|&q| f32::from(q) / W).collect();
    m.l2_b = net.l2_bias.iter().map(|&q| (q - HALF_SHIFT) as f32 / BIAS).collect();
    m.l2_w = net.l2_weights.iter().map(|&q| f32::from(q) / W).collect();
    m.out_b = vec![net.out_bias as f32 / BIAS];
    m.out_w = net.out_weights.iter().map(|&q| f32::from(q) / W).collect();
    debug_assert_eq!(
        (m.ft_b.len(), m.l1_b.len(), m.l2_b.len(), m.out_w.len()),
        (HALF, L1, L2, L2)
    );
    m
}
