//! The network: inputs ([`Features`]) → 256 per perspective, both concatenated (the side to
//! move's first) → 32 → 32 → 1, clipped `ReLU` between layers, as YaneuraOu's
//! `256x2-32-32` nets; its quantized weights, and the reference (scalar, from scratch)
//! forward pass that every faster path must equal.
//!
//! The arithmetic is YaneuraOu's, so that a net gives the value it gives there:
//! - an accumulator is the transformer's biases plus the rows of the active inputs, in `i16`
//!   (wrapping);
//! - the transformer's outputs are clipped to 0..=127 (`u8`);
//! - each hidden layer is `bias + Σ w·x` in `i32`, shifted right by 6 (rounding down), clipped
//!   to 0..=127;
//! - the output layer's sum divided by `FV_SCALE` (C++ `/`, truncating toward zero) and
//!   clamped to ±[`VALUE_MAX_EVAL`] is the value, in YaneuraOu's internal units (a pawn about
//!   90), from the side to move's point of view ([`value`]).
//!
//! The quantization a trainer maps its float network onto: transformer weights and biases ×
//! [`FT_SCALE`] (1.0 = 127), hidden and output weights × [`WEIGHT_SCALE`] (1.0 = 64), their
//! biases × `FT_SCALE × WEIGHT_SCALE`; so the output sum is the float output × [`OUTPUT_SCALE`].

use super::features::Features;
use super::file_format::{self, FormatError};
use soppo_core::{Color, Position};

/// Outputs of the feature transformer per perspective.
pub const HALF: usize = 256;
/// Outputs of the first and second hidden layers.
pub const L1: usize = 32;
pub const L2: usize = 32;

/// Scale of the feature transformer's weights and of activations (1.0 = 127).
pub const FT_SCALE: i32 = 127;
/// Scale of the hidden and output layers' weights (1.0 = 64: the hidden sums' shift by 6).
pub const WEIGHT_SCALE: i32 = 64;
/// The output sum of a float output of 1.0.
pub const OUTPUT_SCALE: i32 = FT_SCALE * WEIGHT_SCALE;
/// The largest feature-transformer weight or bias, as a float, Soppo's trainer writes.
pub const FT_WEIGHT_LIMIT: f32 = 2.0;
/// The largest hidden or output weight, as a float (`i8::MAX / WEIGHT_SCALE`).
pub const WEIGHT_LIMIT: f32 = 127.0 / 64.0;

/// `FV_SCALE`'s default: the output sum per unit of value.
pub const DEFAULT_FV_SCALE: i32 = 16;
/// The largest value a net gives (YaneuraOu's `VALUE_MAX_EVAL`).
pub const VALUE_MAX_EVAL: i32 = 31_753;

/// The value of an output sum: `out / fv_scale`, truncated toward zero, clamped to
/// ±[`VALUE_MAX_EVAL`]. `fv_scale` is at least 1 (the option's range).
#[inline(always)]
pub const fn value(out: i32, fv_scale: i32) -> i32 {
    let v = out / if fv_scale > 0 { fv_scale } else { 1 };
    if v > VALUE_MAX_EVAL {
        VALUE_MAX_EVAL
    } else if v < -VALUE_MAX_EVAL {
        -VALUE_MAX_EVAL
    } else {
        v
    }
}

/// A net with quantized weights, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub features: Features,
    pub ft_bias: Box<[i16; HALF]>,
    /// `ft_weights[input * HALF + j]`.
    pub ft_weights: Box<[i16]>,
    pub l1_bias: [i32; L1],
    /// `l1_weights[o * 2 * HALF + i]`.
    pub l1_weights: Box<[i8]>,
    pub l2_bias: [i32; L2],
    /// `l2_weights[o * L1 + i]`.
    pub l2_weights: Box<[i8]>,
    pub out_bias: i32,
    pub out_weights: [i8; L2],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.features.shape_name())
    }
}

impl Network {
    /// A net with every weight and bias zero (evaluates every position as 0).
    pub fn zeroed(features: Features) -> Network {
        Network {
            features,
            ft_bias: Box::new([0; HALF]),
            ft_weights: vec![0; features.inputs() * HALF].into_boxed_slice(),
            l1_bias: [0; L1],
            l1_weights: vec![0; L1 * 2 * HALF].into_boxed_slice(),
            l2_bias: [0; L2],
            l2_weights: vec![0; L2 * L1].into_boxed_slice(),
            out_bias: 0,
            out_weights: [0; L2],
        }
    }

    /// Reads a net file ([`file_format`]), refusing anything else with the reason.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        file_format::read(bytes)
    }

    /// The net as a file YaneuraOu reads too.
    pub fn to_bytes(&self) -> Vec<u8> {
        file_format::write(self)
    }

    /// The transformer's row of `input`.
    #[inline(always)]
    pub fn row(&self, input: usize) -> &[i16; HALF] {
        self.ft_weights[input * HALF..(input + 1) * HALF]
            .try_into()
            .expect("HALF weights")
    }

    /// One perspective's accumulator, from scratch: the biases plus the active inputs' rows.
    pub fn refresh(&self, pos: &Position, perspective: Color) -> [i16; HALF] {
        let mut acc = *self.ft_bias;
        self.features.for_each_active(pos, perspective, |input| {
            for (a, &w) in acc.iter_mut().zip(self.row(input)) {
                *a = a.wrapping_add(w);
            }
        });
        acc
    }

    /// The output sum of two accumulators, the side to move's first: the reference forward
    /// pass (scalar, exact integer arithmetic, every sum wrapping as `i32` does in C++ on
    /// the machines these nets run on).
    pub fn propagate(&self, own: &[i16; HALF], enemy: &[i16; HALF]) -> i32 {
        let mut input = [0u8; 2 * HALF];
        for (x, &a) in input.iter_mut().zip(own.iter().chain(enemy.iter())) {
            *x = a.clamp(0, 127) as u8;
        }
        let dense = |bias: i32, w: &[i8], x: &[u8]| {
            w.iter()
                .zip(x)
                .fold(bias, |s, (&w, &x)| s.wrapping_add(i32::from(w) * i32::from(x)))
        };
        let mut h1 = [0u8; L1];
        for (o, h) in h1.iter_mut().enumerate() {
            let sum = dense(
                self.l1_bias[o],
                &self.l1_weights[o * 2 * HALF..(o + 1) * 2 * HALF],
                &input,
            );
            *h = (sum >> 6).clamp(0, 127) as u8;
        }
        let mut h2 = [0u8; L2];
        for (o, h) in h2.iter_mut().enumerate() {
            let sum = dense(self.l2_bias[o], &self.l2_weights[o * L1..(o + 1) * L1], &h1);
            *h = (sum >> 6).clamp(0, 127) as u8;
        }
        dense(self.out_bias, &self.out_weights, &h2)
    }

    /// The value of `pos` from scratch (the reference for every faster path): see [`value`].
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> i32 {
        let us = pos.side_to_move();
        value(
            self.propagate(&self.refresh(pos, us), &self.refresh(pos, !us)),
            fv_scale,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::random_net;

    #[test]
    fn values_truncate_toward_zero_and_are_clamped() {
        assert_eq!(value(31, 16), 1);
        assert_eq!(value(-31, 16), -1);
        assert_eq!(value(-15, 16), 0);
        assert_eq!(value(i32::MAX, 16), VALUE_MAX_EVAL);
        assert_eq!(value(i32::MIN, 1), -VALUE_MAX_EVAL);
        assert_eq!(value(240, 24), 10);
    }

    #[test]
    fn the_evaluation_is_the_side_to_moves_and_stays_in_range() {
        for f in Features::ALL {
            let net = random_net(f, 3);
            let pos = Position::startpos();
            let v = net.evaluate(&pos, DEFAULT_FV_SCALE);
            assert!(v.abs() <= VALUE_MAX_EVAL, "{v}");
            // The start position is symmetric: after a null move the same from the other side.
            let mut p = pos.clone();
            p.do_null_move();
            assert_eq!(net.evaluate(&p, DEFAULT_FV_SCALE), v);
            assert_eq!(Network::zeroed(f).evaluate(&pos, DEFAULT_FV_SCALE), 0);
        }
    }
}
