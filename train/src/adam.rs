//! Adam, the one optimiser of every trainer here (`tune-eval`, `train-classic-net`,
//! `train-nnue`): per-parameter moments, bias-corrected, `β₁` 0.9, `β₂` 0.999, `ε` 10⁻⁸, in
//! `f32` or `f64`.

use std::ops::{Add, Div, Mul, Sub};

/// The float types Adam runs on.
pub trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> + PartialOrd
{
    fn of(x: f64) -> Self;
    #[must_use]
    fn sqrt(self) -> Self;
    #[must_use]
    fn powi(self, n: i32) -> Self;
}

impl Real for f32 {
    #[allow(clippy::cast_possible_truncation, reason = "the constants fit")]
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    fn powi(self, n: i32) -> f32 {
        f32::powi(self, n)
    }
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

/// One step's constants: the step size and the bias corrections of step `t` (from 1), and a
/// decoupled weight decay (as `AdamW`; 0 for none).
#[derive(Copy, Clone, Debug)]
pub struct Step<T> {
    lr: T,
    decay: T,
    c1: T,
    c2: T,
}

impl<T: Real> Step<T> {
    /// Step number `t` (1 for the first) with step size `lr` and weight decay `decay`.
    pub fn new(t: u64, lr: T, decay: T) -> Step<T> {
        let t = i32::try_from(t.max(1)).unwrap_or(i32::MAX);
        let one = T::of(1.0);
        Step {
            lr,
            decay,
            c1: one - T::of(BETA1).powi(t),
            c2: one - T::of(BETA2).powi(t),
        }
    }

    /// The same step with another step size (a per-parameter rate).
    #[must_use]
    pub fn with_lr(self, lr: T) -> Step<T> {
        Step { lr, ..self }
    }

    /// Updates one parameter `p` with gradient `g` and its moments `m`, `v`.
    #[inline]
    pub fn update(&self, p: &mut T, g: T, m: &mut T, v: &mut T) {
        let one = T::of(1.0);
        *m = T::of(BETA1) * *m + (one - T::of(BETA1)) * g;
        *v = T::of(BETA2) * *v + (one - T::of(BETA2)) * g * g;
        let m_hat = *m / self.c1;
        let v_hat = *v / self.c2;
        *p = *p - self.lr * (m_hat / (v_hat.sqrt() + T::of(EPSILON)) + self.decay * *p);
    }

    /// Updates the parameters `p` with the gradient `g` times `scale`, and their moments.
    #[inline]
    pub fn update_all(&self, p: &mut [T], g: &[T], scale: T, m: &mut [T], v: &mut [T]) {
        for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            self.update(p, g * scale, m, v);
        }
    }
}

/// Adam's moments of a flat parameter vector.
#[derive(Clone, Debug)]
pub struct Moments<T> {
    pub m: Vec<T>,
    pub v: Vec<T>,
}

impl<T: Real> Moments<T> {
    pub fn new(n: usize) -> Moments<T> {
        Moments {
            m: vec![T::of(0.0); n],
            v: vec![T::of(0.0); n],
        }
    }

    /// One step of `params` down `grad` (already averaged).
    pub fn step(&mut self, step: &Step<T>, params: &mut [T], grad: &[T]) {
        step.update_all(params, grad, T::of(1.0), &mut self.m, &mut self.v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adam walks down a quadratic bowl, in both float types.
    #[test]
    fn adam_finds_the_bottom_of_a_bowl() {
        let mut p = vec![3.0f64, -2.0];
        let mut moments = Moments::new(2);
        for t in 1..=2000 {
            let grad: Vec<f64> = p.iter().map(|x| 2.0 * (x - 1.0)).collect();
            moments.step(&Step::new(t, 0.01, 0.0), &mut p, &grad);
        }
        assert!(p.iter().all(|x| (x - 1.0).abs() < 1e-3), "{p:?}");
        let (mut q, mut m, mut v) = (5.0f32, 0.0, 0.0);
        for t in 1..=3000 {
            let g = 2.0 * q;
            Step::new(t, 0.01f32, 0.0).update(&mut q, g, &mut m, &mut v);
        }
        assert!(q.abs() < 1e-2, "{q}");
    }

    /// The first step moves every parameter by the step size, whatever its gradient's scale
    /// (Adam's bias correction), and decay pulls towards zero.
    #[test]
    fn the_first_step_is_the_step_size() {
        for g in [1e-2f64, 1.0, 1e4] {
            let (mut p, mut m, mut v) = (0.0, 0.0, 0.0);
            Step::new(1, 0.1, 0.0).update(&mut p, g, &mut m, &mut v);
            assert!((p + 0.1).abs() < 1e-6, "{g}: {p}");
        }
        let (mut p, mut m, mut v) = (1.0f64, 0.0, 0.0);
        Step::new(1, 0.1, 0.5).update(&mut p, 0.0, &mut m, &mut v);
        assert!((p - 0.95).abs() < 1e-12, "{p}");
    }
}
