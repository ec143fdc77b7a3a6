//! The logistic model of the tuners: a score `x` (centipawns) predicts the result `σ(K·x)`, and
//! a prediction is judged by its log loss.

/// The logistic function, in `f64` or `f32`.
pub fn sigmoid<T: Logistic>(x: T) -> T {
    x.logistic()
}

/// The float types [`sigmoid`] takes.
pub trait Logistic: Copy {
    #[must_use]
    fn logistic(self) -> Self;
}

impl Logistic for f64 {
    fn logistic(self) -> f64 {
        1.0 / (1.0 + (-self).exp())
    }
}

impl Logistic for f32 {
    fn logistic(self) -> f32 {
        1.0 / (1.0 + (-self).exp())
    }
}

/// Log loss (cross-entropy) of predicting `1 / (1 + exp(-k·eval))` for `target`.
pub fn log_loss(eval: f64, target: f64, k: f64) -> f64 {
    let p = sigmoid(k * eval).clamp(1e-12, 1.0 - 1e-12);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// The K that minimises `loss(K)`, searched between 1e-5 and 0.1 (golden-section search on a
/// log scale; the losses fitted here are unimodal in K).
pub fn fit_k(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = ((1e-5f64).ln(), (0.1f64).ln());
    let loss = |x: f64| loss(x.exp());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    f64::midpoint(lo, hi).exp()
}
