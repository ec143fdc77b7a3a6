//! Writes a network of random weights, the same for the same seed, for measuring the network's
//! speed (`soppo bench 13 1 <file>`) and trying the `EvalFile` option:
//!
//! ```sh
//! cargo run --release -p soppo-engine --example random-net -- random.nnue [seed]
//! ```

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: random-net <file> [seed]");
        std::process::exit(2);
    };
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let bytes = soppo_engine::eval::nnue::random_net(seed).to_bytes();
    if let Err(e) = std::fs::write(&path, &bytes) {
        eprintln!("random-net: {path}: {e}");
        std::process::exit(1);
    }
    println!("{path}: {} bytes, seed {seed}", bytes.len());
}
