//! An efficiently updatable neural network (NNUE) evaluation of the K+P shape: the inputs
//! ([`features`]), the quantized network and its file format ([`network`]).

pub mod features;
pub mod network;

pub use network::{Network, NetworkError};
