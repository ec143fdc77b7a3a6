//! Writes a net of random weights in YaneuraOu's `nn.bin` format, the same for the same seed,
//! for measuring the net's speed (`soppo bench 13 1 <file>`), trying `EvalDir`, and comparing
//! Soppo's values with the reference's (`tests/tests/nets_reference.rs`, with `SOPPO_YO_HALFKP`):
//!
//! ```sh
//! cargo run --release -p soppo-engine --example random-net -- nn.bin [K_P|HalfKP] [seed]
//! ```

use soppo_engine::eval::nnue::{Features, random_net};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: random-net <file> [K_P|HalfKP] [seed]");
        std::process::exit(2);
    };
    let features = match args.next().as_deref() {
        None | Some("K_P" | "KP") => Features::KP,
        Some("HalfKP") => Features::HalfKP,
        Some(other) => {
            eprintln!("random-net: `{other}` is not K_P or HalfKP");
            std::process::exit(2);
        }
    };
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let bytes = random_net(features, seed).to_bytes();
    if let Err(e) = std::fs::write(&path, &bytes) {
        eprintln!("random-net: {path}: {e}");
        std::process::exit(1);
    }
    println!("{path}: {}, {} bytes, seed {seed}", features.shape_name(), bytes.len());
}
