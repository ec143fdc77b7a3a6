//! Reads each game record named on the command line (KIF or CSA, by extension or content) and
//! prints one line per file: `<path>\tsfen <start> moves <usi moves…>`, or `<path>\tERROR <why>`.
//!
//! ```sh
//! cargo run --release -p soppo-kifu --example kifu2usi -- game.kif game.csa
//! ```

use std::io::Write as _;

fn convert(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let format = soppo_kifu::detect_format(path, &bytes).ok_or("neither KIF nor CSA")?;
    let game = soppo_kifu::read(&bytes, format).map_err(|e| e.to_string())?;
    Ok(game.usi_position())
}

fn main() {
    let mut out = std::io::stdout().lock();
    for path in std::env::args().skip(1) {
        let line = match convert(&path) {
            Ok(position) => format!("{path}\t{position}"),
            Err(e) => format!("{path}\tERROR {e}"),
        };
        if writeln!(out, "{line}").is_err() {
            return; // stdout closed (a pipe to `head`): nothing more to say
        }
    }
}
