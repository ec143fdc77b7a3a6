//! The NNUE evaluation: the nets shogi users have, in YaneuraOu's `nn.bin` format, of the two
//! shapes most of them are: K+P and HalfKP, each `256x2-32-32`. The numbering of pieces
//! ([`bona_piece`]), the input sets ([`features`]), the file format ([`file_format`]), the
//! quantized network and its reference forward pass ([`network`]), the accumulators along the
//! search's line ([`accumulator`]) and the scalar and AVX2 inner loops ([`simd`]).
//! See `docs/EVAL.md`, "YaneuraOu nets".
//!
//! No net is built into the binary: a net is the user's, loaded from a file ([`load`]).

pub mod accumulator;
pub mod bona_piece;
pub mod features;
pub mod file_format;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, AccumulatorStats};
pub use features::Features;
pub use file_format::FormatError;
pub use network::{DEFAULT_FV_SCALE, Network};
pub use simd::Kernel;

use file_format::Header;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Why a net file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot be read ({0})")]
    Io(#[from] std::io::Error),
    #[error("not a regular file (a directory, a device or a pipe)")]
    NotAFile,
    #[error("{0}")]
    Format(#[from] FormatError),
}

/// Reads the net file at `path`. Only regular files are opened (a pipe could block the
/// engine); the header is read first, and the rest only when the header names a shape Soppo
/// reads and the file has that shape's exact size: never more than a net's size is read.
pub fn load(path: &Path) -> Result<Network, LoadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    let len = meta.len();
    let mut file = std::fs::File::open(path)?;
    let header = Header::read(len, |n| {
        let mut buf = vec![0; n];
        file.read_exact(&mut buf).ok().map(|()| buf)
    })?;
    let mut after = Vec::with_capacity(32);
    (&mut file).take(32).read_to_end(&mut after)?;
    let features = header.shape(len, &after)?;
    let size = features.file_bytes(header.architecture_bytes);
    file.seek(SeekFrom::Start(0))?;
    let mut bytes = Vec::with_capacity(size);
    file.take(size as u64).read_to_end(&mut bytes)?;
    Ok(Network::from_bytes(&bytes)?)
}

/// A net of random weights of the shape `features`, the same for the same `seed`: for the
/// tests, the benches and the comparisons with the reference
/// (the `random-net` example). Its weights are small enough that few activations saturate, so
/// that positions get distinct values.
pub fn random_net(features: Features, seed: u64) -> Network {
    let mut rng = soppo_core::rng::SplitMix64::new(seed);
    let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i32;
    let mut net = Network::zeroed(features);
    net.ft_bias.iter_mut().for_each(|b| *b = (small(24) + 32) as i16);
    net.ft_weights.iter_mut().for_each(|w| *w = small(12) as i16);
    net.l1_bias.iter_mut().for_each(|b| *b = small(2000) + 2000);
    net.l1_weights.iter_mut().for_each(|w| *w = small(8) as i8);
    // The second layer's units share most of their weights (summing to about zero, so that
    // each unit's bias centres it in its range), and the output weighs them all alike in sign:
    // the units move together, and values spread over thousands rather than averaging out
    // (32 independent units would spread them over a few hundred).
    let mut shared: Vec<i32> = (0..network::L1).map(|_| small(12)).collect();
    let mean = shared.iter().sum::<i32>() / network::L1 as i32;
    for w in &mut shared {
        *w -= mean;
    }
    for (i, w) in net.l2_weights.iter_mut().enumerate() {
        *w = (shared[i % network::L1] + small(3)).clamp(-127, 127) as i8;
    }
    net.l2_bias.iter_mut().for_each(|b| *b = 64 * 64 + small(1000));
    // Centred: the output weights times units at mid-range.
    net.out_bias = -95 * 64 * network::L2 as i32 + small(4000);
    net.out_weights.iter_mut().for_each(|w| *w = (small(32) + 95) as i8);
    net
}

#[cfg(test)]
mod tests;
