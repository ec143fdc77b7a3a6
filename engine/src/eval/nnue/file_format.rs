//! YaneuraOu's `nn.bin` file format, for the two shapes Soppo reads (facts from YaneuraOu's
//! `eval/nnue/`, gathered in `../shared/research/yaneuraou-nets.md`; the code is ours).
//!
//! Little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | version, [`VERSION`] |
//! | 4 | the whole architecture's hash (the transformer's hash ^ the network's) |
//! | 4 + n | the architecture string's length and the string |
//! | 4 | the feature transformer's hash |
//! | 2 × 256, 2 × 256 × inputs | its biases (`i16`) and weights (`i16`, input-major) |
//! | 4 | the network's hash |
//! | 4 × 32, 32 × 512 | 512 → 32: biases (`i32`), weights (`i8`, output-major) |
//! | 4 × 32, 32 × 32 | 32 → 32 |
//! | 4, 32 | 32 → 1 |
//!
//! (Each weight row is padded to a multiple of 32 inputs: none of these rows needs it.)
//! Nothing follows. A file is accepted only when its version, its three hashes and its exact
//! size are those of a supported shape: YaneuraOu itself only warns on a hash mismatch and
//! never reads the architecture string, but a file of another shape with the same hash
//! (HalfKPE9 shares HalfKP's) would be read as nonsense; the size tells them apart.

use super::features::Features;
use super::network::{HALF, L1, L2, Network};

/// The file format's version.
pub const VERSION: u32 = 0x7AF3_2F16;

/// The header before the architecture string: version, hash, the string's length.
const PREFIX: usize = 12;

/// The longest architecture string read (the ones in circulation have 150–300 bytes).
pub const MAX_ARCHITECTURE: usize = 4096;

/// Bytes of the dense layers' block, its hash included.
const NETWORK_BYTES: usize = 4 + (4 * L1 + L1 * 2 * HALF) + (4 * L2 + L2 * L1) + (4 + L2);

/// The hash of YaneuraOu's network layers: the input slice of 512, then affine layers of 32,
/// 32 and 1 with clipped `ReLU` between them.
const fn network_hash() -> u32 {
    const fn affine(outputs: u32, previous: u32) -> u32 {
        0xCC03_DAE4u32.wrapping_add(outputs) ^ (previous >> 1) ^ (previous << 31)
    }
    const fn clipped_relu(previous: u32) -> u32 {
        0x538D_24C7u32.wrapping_add(previous)
    }
    let input_slice = 0xEC42_E90D ^ (2 * HALF as u32);
    affine(
        1,
        clipped_relu(affine(L2 as u32, clipped_relu(affine(L1 as u32, input_slice)))),
    )
}

/// The network block's hash.
pub const NETWORK_HASH: u32 = network_hash();

impl Features {
    /// The feature transformer block's hash.
    pub const fn transformer_hash(self) -> u32 {
        self.hash() ^ (2 * HALF as u32)
    }

    /// The hash a file of this shape starts with.
    pub const fn file_hash(self) -> u32 {
        self.transformer_hash() ^ NETWORK_HASH
    }

    /// The architecture string YaneuraOu writes for this shape.
    pub fn architecture(self) -> String {
        format!(
            "Features={}[{}->{HALF}x2],Network=AffineTransform[1<-{L2}](ClippedReLU[{L2}](AffineTransform[{L2}<-{L1}](ClippedReLU[{L1}](AffineTransform[{L1}<-{}](InputSlice[{}(0:{})])))))",
            self.name(),
            self.inputs(),
            2 * HALF,
            2 * HALF,
            2 * HALF
        )
    }

    /// The size of a file of this shape whose architecture string has `architecture` bytes.
    pub const fn file_bytes(self, architecture: usize) -> usize {
        PREFIX + architecture + 4 + 2 * HALF + 2 * HALF * self.inputs() + NETWORK_BYTES
    }

    /// `K_P 256x2-32-32`, as Soppo names a shape.
    pub fn shape_name(self) -> String {
        format!("{} {HALF}x2-{L1}-{L2}", self.short_name())
    }
}

/// Why a file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("not a net: {len} bytes, fewer than a header")]
    TooShort { len: u64 },
    #[error("not a YaneuraOu NNUE file (version {found:#010x}; expected {VERSION:#010x})")]
    Version { found: u32 },
    #[error("an architecture string of {len} bytes (more than {MAX_ARCHITECTURE}): not a net Soppo reads")]
    LongArchitecture { len: usize },
    #[error(
        "an unsupported architecture \"{architecture}\" (hash {hash:#010x}); Soppo reads K_P and HalfKP 256x2-32-32"
    )]
    Unsupported { architecture: String, hash: u32 },
    #[error(
        "{len} bytes, where a {shape} net has {expected}{}: a damaged file, or a net of another shape with the same hash{}",
        if *compressed { " (this one is LEB128-compressed)" } else { "" },
        if architecture.is_empty() { String::new() } else { format!(" (its architecture: \"{architecture}\")") }
    )]
    Size {
        shape: String,
        /// The file's architecture string where it is not the shape's own, else empty.
        architecture: String,
        len: u64,
        expected: u64,
        compressed: bool,
    },
    #[error("the {block} block's hash is {found:#010x}, where a {shape} net has {expected:#010x}")]
    BlockHash {
        shape: String,
        block: &'static str,
        found: u32,
        expected: u32,
    },
}

/// A file's header: what a reader knows after [`Header::read`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub hash: u32,
    /// The architecture string, as written (lossily decoded).
    pub architecture: String,
    /// The string's length in bytes.
    pub architecture_bytes: usize,
}

/// A string from a file, printable and short enough to quote in a message.
fn quoted(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(200)
        .collect();
    if text.chars().count() > 200 {
        out.push('…');
    }
    out
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

impl Header {
    /// The bytes the header's fixed part takes; [`Header::read`] asks for this many first,
    /// then for the architecture string.
    pub const PREFIX: usize = PREFIX;

    /// Reads the header from the start of a file of `len` bytes, taking bytes from `take`
    /// (asked first for [`Header::PREFIX`] bytes, then for the architecture string), so that
    /// a file is never read further than its header to refuse it.
    pub fn read(len: u64, mut take: impl FnMut(usize) -> Option<Vec<u8>>) -> Result<Header, FormatError> {
        let too_short = FormatError::TooShort { len };
        let prefix = take(PREFIX).ok_or(too_short.clone())?;
        let version = u32_at(&prefix, 0);
        if version != VERSION {
            return Err(FormatError::Version { found: version });
        }
        let hash = u32_at(&prefix, 4);
        let architecture_bytes = u32_at(&prefix, 8) as usize;
        if architecture_bytes > MAX_ARCHITECTURE {
            return Err(FormatError::LongArchitecture {
                len: architecture_bytes,
            });
        }
        let name = take(architecture_bytes).ok_or(too_short)?;
        Ok(Header {
            hash,
            architecture: quoted(&name),
            architecture_bytes,
        })
    }

    /// The shape the header names, if Soppo reads it and the file's size `len` is that
    /// shape's; `after` is the file's bytes after the header, as far as known (to tell a
    /// compressed file in the message).
    pub fn shape(&self, len: u64, after: &[u8]) -> Result<Features, FormatError> {
        let Some(features) = Features::ALL.into_iter().find(|f| f.file_hash() == self.hash) else {
            return Err(FormatError::Unsupported {
                architecture: self.architecture.clone(),
                hash: self.hash,
            });
        };
        let expected = features.file_bytes(self.architecture_bytes) as u64;
        if len != expected {
            let own = self.architecture == features.architecture();
            return Err(FormatError::Size {
                shape: features.shape_name(),
                architecture: if own { String::new() } else { self.architecture.clone() },
                len,
                expected,
                compressed: after.windows(17).take(8).any(|w| w == b"COMPRESSED_LEB128"),
            });
        }
        Ok(features)
    }
}

/// Reads little-endian values off the front of a byte slice (the caller has checked the
/// length).
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("N bytes")
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn fill_i16(&mut self, out: &mut [i16]) {
        let (head, rest) = self.0.split_at(2 * out.len());
        for (o, b) in out.iter_mut().zip(head.chunks_exact(2)) {
            *o = i16::from_le_bytes([b[0], b[1]]);
        }
        self.0 = rest;
    }
    fn fill_i32(&mut self, out: &mut [i32]) {
        for o in out {
            *o = self.i32();
        }
    }
    fn fill_i8(&mut self, out: &mut [i8]) {
        let (head, rest) = self.0.split_at(out.len());
        for (o, &b) in out.iter_mut().zip(head) {
            *o = b as i8;
        }
        self.0 = rest;
    }
}

/// Reads a whole file.
pub fn read(bytes: &[u8]) -> Result<Network, FormatError> {
    let len = bytes.len() as u64;
    let mut at = 0;
    let header = Header::read(len, |n| {
        let chunk = bytes.get(at..at + n)?.to_vec();
        at += n;
        Some(chunk)
    })?;
    let features = header.shape(len, &bytes[at..])?;
    let shape = features.shape_name();
    let mut r = Reader(&bytes[at..]);
    let check = |block, found, expected| {
        if found == expected {
            Ok(())
        } else {
            Err(FormatError::BlockHash {
                shape: shape.clone(),
                block,
                found,
                expected,
            })
        }
    };
    check("feature transformer", r.u32(), features.transformer_hash())?;
    let mut net = Network::zeroed(features);
    r.fill_i16(&mut net.ft_bias[..]);
    r.fill_i16(&mut net.ft_weights);
    check("network", r.u32(), NETWORK_HASH)?;
    r.fill_i32(&mut net.l1_bias);
    r.fill_i8(&mut net.l1_weights);
    r.fill_i32(&mut net.l2_bias);
    r.fill_i8(&mut net.l2_weights);
    net.out_bias = r.i32();
    r.fill_i8(&mut net.out_weights);
    debug_assert!(r.0.is_empty());
    Ok(net)
}

/// The file of `net`, with the architecture string YaneuraOu writes.
pub fn write(net: &Network) -> Vec<u8> {
    let f = net.features;
    let name = f.architecture();
    let mut out = Vec::with_capacity(f.file_bytes(name.len()));
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&f.file_hash().to_le_bytes());
    out.extend_from_slice(&(name.len() as u32).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&f.transformer_hash().to_le_bytes());
    net.ft_bias.iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
    net.ft_weights
        .iter()
        .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    out.extend_from_slice(&NETWORK_HASH.to_le_bytes());
    net.l1_bias.iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
    out.extend(net.l1_weights.iter().map(|&w| w as u8));
    net.l2_bias.iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
    out.extend(net.l2_weights.iter().map(|&w| w as u8));
    out.extend_from_slice(&net.out_bias.to_le_bytes());
    out.extend(net.out_weights.iter().map(|&w| w as u8));
    debug_assert_eq!(out.len(), f.file_bytes(name.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::random_net;

    /// The hashes and size of the two local K_P nets (`../shared/opponents/eval-*/nn.bin`)
    /// and of HalfKP, as the research note states them.
    #[test]
    fn the_hashes_and_sizes_are_the_references() {
        assert_eq!(NETWORK_HASH, 0x6333_7156);
        assert_eq!(Features::KP.file_hash(), 0x5C64_64A9);
        assert_eq!(Features::HalfKP.file_hash(), 0x3E5A_A6EE);
        let kp = Features::KP.architecture();
        assert_eq!(
            kp,
            "Features=K+P[1710->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))"
        );
        assert_eq!(Features::KP.file_bytes(kp.len()), 893_917);
    }

    #[test]
    fn a_net_reads_back_as_it_was_written() {
        for f in [Features::KP, Features::HalfKP] {
            let net = random_net(f, 1);
            let bytes = write(&net);
            assert_eq!(bytes.len(), f.file_bytes(f.architecture().len()));
            assert!(read(&bytes).unwrap() == net);
        }
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        let bytes = write(&random_net(Features::KP, 2));
        assert_eq!(read(b"hello"), Err(FormatError::TooShort { len: 5 }));
        assert_eq!(read(&[]), Err(FormatError::TooShort { len: 0 }));
        let mut other = bytes.clone();
        other[0] ^= 1;
        assert!(matches!(read(&other), Err(FormatError::Version { .. })));
        let cut = &bytes[..bytes.len() / 2];
        assert!(matches!(read(cut), Err(FormatError::Size { compressed: false, .. })));
        assert!(matches!(read(&bytes[..PREFIX + 20]), Err(FormatError::TooShort { .. })));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(read(&longer), Err(FormatError::Size { .. })));
        let mut unknown = bytes.clone();
        unknown[4] ^= 1;
        let e = read(&unknown).unwrap_err();
        assert!(matches!(e, FormatError::Unsupported { .. }), "{e}");
        assert!(e.to_string().contains("Features=K+P[1710->256x2]"), "{e}");
        let name_len = Features::KP.architecture().len();
        let mut block = bytes.clone();
        block[PREFIX + name_len] ^= 1;
        assert!(matches!(
            read(&block),
            Err(FormatError::BlockHash {
                block: "feature transformer",
                ..
            })
        ));
        let mut net_block = bytes.clone();
        net_block[PREFIX + name_len + 4 + 2 * HALF + 2 * HALF * 1710] ^= 0x80;
        assert!(matches!(
            read(&net_block),
            Err(FormatError::BlockHash { block: "network", .. })
        ));
        let mut long_name = bytes;
        long_name[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert_eq!(read(&long_name), Err(FormatError::LongArchitecture { len: 5000 }));
    }

    #[test]
    fn a_compressed_file_is_named_in_the_message() {
        let f = Features::HalfKP;
        let name = f.architecture();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&f.file_hash().to_le_bytes());
        bytes.extend_from_slice(&(name.len() as u32).to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend_from_slice(&f.transformer_hash().to_le_bytes());
        bytes.extend_from_slice(b"COMPRESSED_LEB128");
        bytes.extend_from_slice(&[0; 1000]);
        let e = read(&bytes).unwrap_err();
        assert!(e.to_string().contains("LEB128-compressed"), "{e}");
    }
}
