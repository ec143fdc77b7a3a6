//! The network: `K+P[1696]` → 256 per perspective, both concatenated (the side to move's first),
//! → 32 → 32 → 1, clipped `ReLU` between layers; its quantized weights, their file format, and
//! the reference (scalar, from scratch) forward pass that every faster path must equal.
//!
//! Quantization (the trainer's float network maps onto it exactly so):
//! - feature transformer: weights and biases × [`FT_SCALE`] (127) in `i16`; an accumulator is
//!   the bias plus the weights of the active inputs, in `i16` (the trainer keeps float weights
//!   within ±[`FT_WEIGHT_LIMIT`], so 41 terms stay far inside `i16`);
//! - activations: `clamp(x, 0, 127)` as `u8`, 127 standing for 1.0;
//! - hidden and output layers: weights × [`WEIGHT_SCALE`] (64) in `i8` (floats within ±127/64),
//!   biases × 127 × 64 in `i32`; a hidden layer's sum is shifted right by 6 (÷ 64) and clamped
//!   to 0..=127 again;
//! - the output sum, in units of 1 / (127 × 64), times [`OUTPUT_CP`] centipawns per unit of
//!   the float output, is the evaluation from the side to move's point of view.
//!
//! File layout (all little-endian): [`MAGIC`]; the architecture string's length (`u32`) and the
//! string ([`ARCHITECTURE`]); the feature transformer's biases (`HALF` × `i16`) and weights
//! (`INPUTS` × `HALF` × `i16`, input-major); the first hidden layer's biases (`L1` × `i32`) and
//! weights (`L1` × `2·HALF` × `i8`, output-major); the second's (`L2` × `i32`, `L2` × `L1` ×
//! `i8`); the output's bias (`i32`) and weights (`L2` × `i8`); last, the CRC-32 of everything
//! before it (`u32`).

use super::features::{self, INPUTS};
use soppo_core::{Color, Position};

/// Outputs of the feature transformer per perspective.
pub const HALF: usize = 256;
/// Outputs of the first and second hidden layers.
pub const L1: usize = 32;
pub const L2: usize = 32;

/// Scale of the feature transformer's weights and of activations (1.0 = 127).
pub const FT_SCALE: i32 = 127;
/// Scale of the hidden and output layers' weights (1.0 = 64).
pub const WEIGHT_SCALE: i32 = 64;
/// The largest feature-transformer weight or bias, as a float, the trainer may write.
pub const FT_WEIGHT_LIMIT: f32 = 2.0;
/// The largest hidden or output weight, as a float (`i8::MAX / WEIGHT_SCALE`).
pub const WEIGHT_LIMIT: f32 = 127.0 / 64.0;
/// Centipawns per unit of the float output.
pub const OUTPUT_CP: i32 = 600;

/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"SOPPONN1";
/// The shape, written in the file so that a network of another shape is refused by name.
pub const ARCHITECTURE: &str = "K+P[1696]->256x2-32-32-1 clipped-relu i16/i8";

/// A network with quantized weights, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
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
        f.write_str(ARCHITECTURE)
    }
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("not a Soppo network file (it does not start with {:?})", std::str::from_utf8(MAGIC).unwrap_or(""))]
    NotANetwork,
    #[error("a network of another architecture ({found:?}; this engine reads {ARCHITECTURE:?})")]
    Architecture { found: String },
    #[error("truncated: {len} bytes, a network of this architecture has {expected}")]
    Truncated { len: usize, expected: usize },
    #[error("{extra} bytes after the network's end")]
    TrailingBytes { extra: usize },
    #[error("its checksum does not match (the file is damaged)")]
    Checksum,
}

/// The size of a network file.
pub const FILE_BYTES: usize = MAGIC.len()
    + 4
    + ARCHITECTURE.len()
    + 2 * HALF
    + 2 * INPUTS * HALF
    + 4 * L1
    + L1 * 2 * HALF
    + 4 * L2
    + L2 * L1
    + 4
    + L2
    + 4;

/// Reads little-endian values off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.take())
    }
}

impl Network {
    /// A network with every weight and bias zero (evaluates every position as 0).
    pub fn zeroed() -> Network {
        Network {
            ft_bias: Box::new([0; HALF]),
            ft_weights: vec![0; INPUTS * HALF].into_boxed_slice(),
            l1_bias: [0; L1],
            l1_weights: vec![0; L1 * 2 * HALF].into_boxed_slice(),
            l2_bias: [0; L2],
            l2_weights: vec![0; L2 * L1].into_boxed_slice(),
            out_bias: 0,
            out_weights: [0; L2],
        }
    }

    /// Reads a network file (see the module's layout), refusing anything else with the reason.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let name_len = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let name = bytes.get(12..12 + name_len.min(bytes.len()));
        let name = name.map(String::from_utf8_lossy).unwrap_or_default();
        if name != ARCHITECTURE {
            let found: String = name.chars().take(80).collect();
            return Err(NetworkError::Architecture { found });
        }
        match bytes.len() {
            n if n < FILE_BYTES => {
                return Err(NetworkError::Truncated {
                    len: n,
                    expected: FILE_BYTES,
                });
            }
            n if n > FILE_BYTES => return Err(NetworkError::TrailingBytes { extra: n - FILE_BYTES }),
            _ => {}
        }
        let (body, sum) = bytes.split_at(FILE_BYTES - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(sum.try_into().expect("4 bytes")) {
            return Err(NetworkError::Checksum);
        }
        let mut r = Reader(&body[12 + name_len..]);
        let mut net = Network::zeroed();
        net.ft_bias.iter_mut().for_each(|b| *b = r.i16());
        net.ft_weights.iter_mut().for_each(|w| *w = r.i16());
        net.l1_bias.iter_mut().for_each(|b| *b = r.i32());
        net.l1_weights.iter_mut().for_each(|w| *w = r.i8());
        net.l2_bias.iter_mut().for_each(|b| *b = r.i32());
        net.l2_weights.iter_mut().for_each(|w| *w = r.i8());
        net.out_bias = r.i32();
        net.out_weights.iter_mut().for_each(|w| *w = r.i8());
        debug_assert!(r.0.is_empty());
        Ok(net)
    }

    /// The network as a file (see the module's layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(ARCHITECTURE.len() as u32).to_le_bytes());
        out.extend_from_slice(ARCHITECTURE.as_bytes());
        self.ft_bias
            .iter()
            .for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        self.ft_weights
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.l1_bias
            .iter()
            .for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        self.l1_weights
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.l2_bias
            .iter()
            .for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        self.l2_weights
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        self.out_weights
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        let sum = crc32fast::hash(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len(), FILE_BYTES);
        out
    }

    /// One perspective's accumulator, from scratch: the bias plus the active inputs' weights.
    pub fn refresh(&self, pos: &Position, perspective: Color) -> [i16; HALF] {
        let mut acc = *self.ft_bias;
        features::for_each_active(pos, perspective, |input| {
            let w = &self.ft_weights[input * HALF..(input + 1) * HALF];
            for (a, &w) in acc.iter_mut().zip(w) {
                *a = a.wrapping_add(w);
            }
        });
        acc
    }

    /// The evaluation of two accumulators, the side to move's first, in centipawns from its
    /// point of view: the reference forward pass (scalar, exact integer arithmetic).
    pub fn propagate(&self, own: &[i16; HALF], enemy: &[i16; HALF]) -> i32 {
        let mut input = [0u8; 2 * HALF];
        for (x, &a) in input.iter_mut().zip(own.iter().chain(enemy.iter())) {
            *x = a.clamp(0, 127) as u8;
        }
        let mut h1 = [0u8; L1];
        for (o, h) in h1.iter_mut().enumerate() {
            let w = &self.l1_weights[o * 2 * HALF..(o + 1) * 2 * HALF];
            let sum: i32 = self.l1_bias[o]
                + w.iter()
                    .zip(&input)
                    .map(|(&w, &x)| i32::from(w) * i32::from(x))
                    .sum::<i32>();
            *h = (sum >> 6).clamp(0, 127) as u8;
        }
        let mut h2 = [0u8; L2];
        for (o, h) in h2.iter_mut().enumerate() {
            let w = &self.l2_weights[o * L1..(o + 1) * L1];
            let sum: i32 = self.l2_bias[o]
                + w.iter()
                    .zip(&h1)
                    .map(|(&w, &x)| i32::from(w) * i32::from(x))
                    .sum::<i32>();
            *h = (sum >> 6).clamp(0, 127) as u8;
        }
        let out: i32 = self.out_bias
            + self
                .out_weights
                .iter()
                .zip(&h2)
                .map(|(&w, &x)| i32::from(w) * i32::from(x))
                .sum::<i32>();
        // i64: the product may pass i32 for an output far beyond any evaluation.
        (i64::from(out) * i64::from(OUTPUT_CP) / i64::from(FT_SCALE * WEIGHT_SCALE)) as i32
    }

    /// The evaluation of `pos` from scratch (the reference for every faster path).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        self.propagate(&self.refresh(pos, us), &self.refresh(pos, !us))
    }
}

/// A network of small random weights (deterministic), for tests.
#[cfg(test)]
pub(crate) fn random_network(seed: u64) -> Network {
    let mut rng = soppo_core::rng::SplitMix64::new(seed);
    let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
    let mut net = Network::zeroed();
    net.ft_bias.iter_mut().for_each(|b| *b = small(40) as i16);
    net.ft_weights.iter_mut().for_each(|w| *w = small(30) as i16);
    net.l1_bias.iter_mut().for_each(|b| *b = small(2000) as i32);
    net.l1_weights.iter_mut().for_each(|w| *w = small(20) as i8);
    net.l2_bias.iter_mut().for_each(|b| *b = small(2000) as i32);
    net.l2_weights.iter_mut().for_each(|w| *w = small(40) as i8);
    net.out_bias = small(3000) as i32;
    net.out_weights.iter_mut().for_each(|w| *w = small(100) as i8);
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_file_reads_back_as_it_was_written() {
        let net = random_network(1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        let bytes = random_network(2).to_bytes();
        assert_eq!(Network::from_bytes(b"hello"), Err(NetworkError::NotANetwork));
        assert_eq!(Network::from_bytes(&[]), Err(NetworkError::NotANetwork));
        let cut = &bytes[..bytes.len() / 2];
        assert!(matches!(Network::from_bytes(cut), Err(NetworkError::Truncated { .. })));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Network::from_bytes(&longer),
            Err(NetworkError::TrailingBytes { extra: 1 })
        );
        let mut damaged = bytes.clone();
        damaged[5000] ^= 1;
        assert_eq!(Network::from_bytes(&damaged), Err(NetworkError::Checksum));
        let mut other = bytes;
        other[12] = b'X';
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetworkError::Architecture { .. })
        ));
    }

    #[test]
    fn the_evaluation_is_the_side_to_moves_and_stays_in_range() {
        let net = random_network(3);
        let pos = Position::startpos();
        let v = net.evaluate(&pos);
        assert!(v.abs() < 30_000, "{v}");
        // The start position is symmetric: after a null move the same from the other side.
        let mut p = pos.clone();
        p.do_null_move();
        assert_eq!(net.evaluate(&p), v);
        assert_eq!(Network::zeroed().evaluate(&pos), 0);
    }
}
