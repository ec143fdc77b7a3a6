//! An efficiently updatable neural network (NNUE) evaluation of the K+P shape: the inputs
//! ([`features`]), the quantized network and its file format ([`network`]), the accumulators
//! along the search's line ([`accumulator`]) and the scalar and AVX2 inner loops ([`simd`]).
//! See `docs/EVAL.md`, "The NNUE evaluation".

pub mod accumulator;
pub mod features;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use network::{Network, NetworkError};
pub use simd::Kernel;

use std::io::Read;
use std::path::Path;

/// The network built into the binary, the one `EvalFile` empty (its default) stands for.
///
/// None yet: no trained network has beaten the classic evaluation so far (issue 58), and a
/// network of random weights plays nonsense. To embed one, put the file at
/// `engine/src/eval/nnue/default.nnue` and make this
/// `Some(include_bytes!("default.nnue"))`; making it the default evaluation as well is
/// `Evaluation::DEFAULT`.
pub const EMBEDDED: Option<&[u8]> = None;

/// The embedded network, if the build has one (an embedded file that does not read is a
/// build error, caught by the tests).
pub fn embedded() -> Option<Result<Network, NetworkError>> {
    EMBEDDED.map(Network::from_bytes)
}

/// Why a network file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot be read ({0})")]
    Io(#[from] std::io::Error),
    #[error("not a regular file (a directory, a device or a pipe)")]
    NotAFile,
    #[error("{0}")]
    Network(#[from] NetworkError),
}

/// Reads the network file at `path`. Only regular files are opened (a pipe could block the
/// engine), and no more than one network's size is read, whatever the file holds.
pub fn load(path: &Path) -> Result<Network, LoadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile);
    }
    let len = meta.len();
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(network::FILE_BYTES + 1);
    file.take(network::FILE_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    match Network::from_bytes(&bytes) {
        Err(NetworkError::TrailingBytes { .. }) => Err(NetworkError::TrailingBytes {
            extra: usize::try_from(len).unwrap_or(usize::MAX) - network::FILE_BYTES,
        }
        .into()),
        r => Ok(r?),
    }
}

/// A network of random weights, the same for the same `seed`: for the tests, the benches and
/// the inference measurements (`cargo run --release -p soppo-engine --example random-net`).
pub fn random_net(seed: u64) -> Network {
    let mut rng = soppo_core::rng::SplitMix64::new(seed);
    let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i32;
    let mut net = Network::zeroed();
    net.ft_bias.iter_mut().for_each(|b| *b = small(64) as i16);
    net.ft_weights.iter_mut().for_each(|w| *w = small(48) as i16);
    net.l1_bias.iter_mut().for_each(|b| *b = small(4000));
    net.l1_weights.iter_mut().for_each(|w| *w = small(24) as i8);
    net.l2_bias.iter_mut().for_each(|b| *b = small(4000));
    net.l2_weights.iter_mut().for_each(|w| *w = small(64) as i8);
    net.out_bias = small(4000);
    net.out_weights.iter_mut().for_each(|w| *w = small(127) as i8);
    net
}

#[cfg(test)]
mod tests;
