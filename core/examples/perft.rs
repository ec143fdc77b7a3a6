use soppo_core::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d: u32 = args[1].parse().unwrap();
    let sfen = args.get(2).map(String::as_str).unwrap_or(STARTPOS_SFEN);
    let mut p = Position::from_sfen(sfen).unwrap();
    let t = std::time::Instant::now();
    let n = perft::perft(&mut p, d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {:.3}s {:.1} Mnps", s, n as f64 / s / 1e6);
}
