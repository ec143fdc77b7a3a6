//! A small network on top of the linear evaluation: one hidden layer of [`HIDDEN`] clipped
//! `ReLU` units over the same features the linear sum uses, with each side's features kept
//! apart, and one output in centipawns that is added to the linear sum.
//!
//! Why: the linear weights are fitted out (docs/journal/EVAL-history.md): refits that predict
//! held-out games better no longer win games. A sum cannot say that an attack on the king
//! matters more when the attacker also holds pieces, or that a material lead matters less
//! when one's own king is open; a hidden layer can, from the features we already compute.
//!
//! The piece–king tables stay in the linear sum only (see [`FEATURES`]).
//!
//! The network is trained by `soppo-tools train-classic-net` on the residual of the embedded linear
//! weights and embedded as `net.bin` (format in [`Net::from_bytes`]). Inference is integer
//! arithmetic, so every machine gets the same evaluation and the same `bench`.

use super::features::{Sink, accumulate};
use super::params::{FINE, KING_DANGER, KP_OWN, NUM_PARAMS, Params};
use soppo_core::Position;
use std::sync::LazyLock;

/// Hidden units.
pub const HIDDEN: usize = 16;
/// Linear features the network sees: all but the piece–king tables. Those are 2,754 of the
/// 2,871, each seen in few positions; as inputs they made a network with 16 times the weights
/// that learnt the training games by heart (docs/EVAL.md).
pub const FEATURES: usize = NUM_PARAMS - (KING_DANGER - KP_OWN);
/// Inputs: every feature the network sees, once for the side to move and once for the
/// opponent.
pub const INPUTS: usize = 2 * FEATURES;
/// A hidden unit's activation of 1.0 (its clip) in the integer accumulators.
pub const ONE: i32 = 1 << 16;
/// Output weights and bias are in 1/`OUT_SCALE` centipawn.
pub const OUT_SCALE: i64 = 64;
/// First bytes of a network file.
pub const MAGIC: &[u8; 8] = b"SOPNET03";

/// The quantized network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// Input weights, one row of [`HIDDEN`] per input, in 1/[`ONE`] per unit of the raw
    /// feature count (the [`Sink`]'s `n`).
    pub w: Vec<[i32; HIDDEN]>,
    /// Hidden biases, in 1/[`ONE`].
    pub b: [i32; HIDDEN],
    /// Output weights, in 1/[`OUT_SCALE`] centipawn per unit of activation.
    pub v: [i32; HIDDEN],
    /// Output bias, in 1/[`OUT_SCALE`] centipawn.
    pub c: i32,
}

/// Why a network file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a Soppo network file (bad magic)")]
    Magic,
    #[error("the network has {inputs} inputs and {hidden} hidden units; this build needs {INPUTS} and {HIDDEN}")]
    Shape { inputs: usize, hidden: usize },
    #[error("the network file is {got} bytes; its shape needs {want}")]
    Length { got: usize, want: usize },
}

/// The network's feature number of linear feature `index` (not in the piece–king tables).
#[inline(always)]
pub const fn feature(index: usize) -> usize {
    if index >= KING_DANGER {
        index - (KING_DANGER - KP_OWN)
    } else {
        index
    }
}

fn read_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

impl Net {
    /// A network whose output is always zero.
    pub fn zero() -> Net {
        Net {
            w: vec![[0; HIDDEN]; INPUTS],
            b: [0; HIDDEN],
            v: [0; HIDDEN],
            c: 0,
        }
    }

    /// Size of a network file of this build's shape.
    pub const BYTES: usize = 16 + 4 * (INPUTS * HIDDEN + 2 * HIDDEN + 1);

    /// Reads a network file: [`MAGIC`], the number of inputs and of hidden units (`u32`
    /// little-endian each), then little-endian `i32`s: the input weights row by row (the
    /// side to move's features, then the opponent's), the hidden biases, the output weights
    /// and the output bias.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let (inputs, hidden) = (read_i32(bytes, 8) as usize, read_i32(bytes, 12) as usize);
        if inputs != INPUTS || hidden != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        if bytes.len() != Self::BYTES {
            return Err(NetError::Length {
                got: bytes.len(),
                want: Self::BYTES,
            });
        }
        let mut at = 16;
        let mut next = || {
            let x = read_i32(bytes, at);
            at += 4;
            x
        };
        let mut net = Net::zero();
        for x in net.w.iter_mut().flatten().chain(&mut net.b).chain(&mut net.v) {
            *x = next();
        }
        net.c = next();
        Ok(net)
    }

    /// The network file of [`Net::from_bytes`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for x in self.w.iter().flatten().chain(&self.b).chain(&self.v).chain([&self.c]) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The hidden accumulators (biases included) for a list of input uses, as [`inputs`]
    /// gives them: the slow way, for the trainer and the tests.
    pub fn hidden(&self, uses: &[(u16, i32)]) -> [i32; HIDDEN] {
        let mut h = self.b;
        for &(i, n) in uses {
            for (h, w) in h.iter_mut().zip(&self.w[usize::from(i)]) {
                *h += w * n;
            }
        }
        h
    }

    /// The output (centipawns) for hidden accumulators that already include the biases.
    #[inline(always)]
    pub fn output(&self, hidden: &[i32; HIDDEN]) -> i32 {
        let mut total = i64::from(self.c) * i64::from(ONE);
        for (h, v) in hidden.iter().zip(&self.v) {
            total += i64::from((*h).clamp(0, ONE)) * i64::from(*v);
        }
        (total / (i64::from(ONE) * OUT_SCALE)) as i32
    }
}

/// The embedded network, if the build has one: an empty `net.bin` means none, and the
/// evaluation is the linear sum alone.
pub static NET: LazyLock<Option<Net>> = LazyLock::new(|| {
    let bytes: &[u8] = include_bytes!("net.bin");
    if bytes.is_empty() {
        None
    } else {
        Some(Net::from_bytes(bytes).expect("the embedded net.bin matches this build (checked by a test)"))
    }
});

/// Sums the linear weights and the network's hidden accumulators in one pass.
struct NetScore<'a> {
    params: &'a Params,
    net: &'a Net,
    total: i32,
    offset: usize,
    hidden: [i32; HIDDEN],
}

impl Sink for NetScore<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.total += self.params.0[index] * n;
        // Most control counts at far distances are zero: skip their rows.
        if n != 0 {
            let row = &self.net.w[self.offset + feature(index)];
            for (h, w) in self.hidden.iter_mut().zip(row) {
                *h += w * n;
            }
        }
    }

    #[inline(always)]
    fn add_kp(&mut self, index: usize, n: i32) {
        self.total += self.params.0[index] * n;
    }

    #[inline(always)]
    fn side(&mut self, side: usize) {
        self.offset = side * FEATURES;
    }
}

/// Records the network's inputs: `(input, n)` for every feature use (an input may repeat).
pub struct NetInputs {
    offset: usize,
    pub uses: Vec<(u16, i32)>,
}

impl Default for NetInputs {
    fn default() -> Self {
        NetInputs {
            offset: 0,
            uses: Vec::with_capacity(256),
        }
    }
}

impl Sink for NetInputs {
    fn add(&mut self, index: usize, n: i32) {
        if n != 0 {
            self.uses.push(((self.offset + feature(index)) as u16, n));
        }
    }

    fn add_kp(&mut self, _index: usize, _n: i32) {}

    fn side(&mut self, side: usize) {
        self.offset = side * FEATURES;
    }
}

/// The network's inputs of `pos` (see [`NetInputs`]).
pub fn inputs(pos: &Position) -> Vec<(u16, i32)> {
    let mut sink = NetInputs::default();
    accumulate(pos, &mut sink);
    sink.uses
}

/// The linear evaluation plus the network's output, in centipawns, side to move's view.
#[inline]
pub fn evaluate_with(pos: &Position, params: &Params, net: &Net) -> i32 {
    // Copies compiled for the instruction sets the CPU has (the build targets baseline
    // x86-64): POPCNT for the bit counts, AVX2 for the hidden rows. The detection results are
    // cached by the standard library. All copies compute the same integers.
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has just been checked to support AVX2 and POPCNT.
            return unsafe { evaluate_avx2(pos, params, net) };
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has just been checked to support POPCNT.
            return unsafe { evaluate_popcnt(pos, params, net) };
        }
    }
    evaluate_portable(pos, params, net)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn evaluate_avx2(pos: &Position, params: &Params, net: &Net) -> i32 {
    evaluate_portable(pos, params, net)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position, params: &Params, net: &Net) -> i32 {
    evaluate_portable(pos, params, net)
}

#[inline(always)]
fn evaluate_portable(pos: &Position, params: &Params, net: &Net) -> i32 {
    let mut s = NetScore {
        params,
        net,
        total: 0,
        offset: 0,
        hidden: net.b,
    };
    accumulate(pos, &mut s);
    s.total / FINE + net.output(&s.hidden)
}
