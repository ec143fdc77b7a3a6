//! Checkpoints of the float network and of Adam's state, to go on training after a stop.
//!
//! Layout (little-endian): [`MAGIC`]; the version (`u32`, 1); the shape (inputs, half, l1,
//! l2: `u32` each); the epochs done (`u32`); Adam's step count (`u64`); then the parameters,
//! Adam's first moments and its second moments, each as the model's tensors in
//! [`Model::tensors`] order (`f32` each); last, the CRC-32 of everything before it.

use super::model::{Adam, Model, Shape};
use anyhow::{Context, Result, bail, ensure};
use std::path::Path;

/// The first bytes of a checkpoint.
pub const MAGIC: &[u8; 8] = b"SOPPONNT";
const VERSION: u32 = 1;

/// A training's state after some epochs.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub model: Model,
    pub adam: Adam,
    pub epochs: u32,
}

/// The checkpoint's bytes.
pub fn to_bytes(model: &Model, adam: &Adam, epochs: u32) -> Vec<u8> {
    let s = model.shape;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        s.inputs as u32,
        s.half as u32,
        s.l1 as u32,
        s.l2 as u32,
        epochs,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&adam.step.to_le_bytes());
    for m in [model, &adam.m, &adam.v] {
        for t in m.tensors() {
            for x in t {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The checkpoint of [`to_bytes`].
pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint> {
    ensure!(
        bytes.len() >= MAGIC.len() + 36 && &bytes[..MAGIC.len()] == MAGIC,
        "not a checkpoint of train-nnue"
    );
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    ensure!(
        crc32fast::hash(body) == u32::from_le_bytes(crc.try_into().expect("4 bytes")),
        "the checkpoint's checksum does not match (the file is damaged)"
    );
    let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
    if u32_at(8) != VERSION {
        bail!("a checkpoint of version {}, this build reads {VERSION}", u32_at(8));
    }
    let shape = Shape {
        inputs: u32_at(12) as usize,
        half: u32_at(16) as usize,
        l1: u32_at(20) as usize,
        l2: u32_at(24) as usize,
    };
    let epochs = u32_at(28);
    let step = u64::from_le_bytes(body[32..40].try_into().expect("8 bytes"));
    let mut model = Model::zeros(shape);
    let mut adam = Adam::new(shape);
    adam.step = step;
    let floats: usize = model.tensors().iter().map(|t| t.len()).sum();
    ensure!(
        body.len() == 40 + 3 * 4 * floats,
        "a checkpoint of {} bytes; its shape {shape:?} needs {}",
        bytes.len(),
        40 + 3 * 4 * floats + 4
    );
    let mut values = body[40..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
    for m in [&mut model, &mut adam.m, &mut adam.v] {
        for t in m.tensors_mut() {
            for x in t.iter_mut() {
                *x = values.next().expect("the length was checked");
            }
        }
    }
    Ok(Checkpoint { model, adam, epochs })
}

/// Writes a checkpoint (to a temporary file first, so that a kill leaves the last one whole).
pub fn save(path: &Path, model: &Model, adam: &Adam, epochs: u32) -> Result<()> {
    let tmp = path.with_extension("ckpt.tmp");
    std::fs::write(&tmp, to_bytes(model, adam, epochs)).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Reads a checkpoint.
pub fn load(path: &Path) -> Result<Checkpoint> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    from_bytes(&bytes).with_context(|| format!("{}", path.display()))
}
