use soppo_core::*;
use soppo_core::movegen::*;
fn brute(p: &Position) -> Vec<String> {
    let mut v = Vec::new();
    for f in Square::all() { for t in Square::all() { if f==t {continue;} for pr in [false,true] { let m = Move::normal(f,t,pr); if p.is_legal_slow(m) { v.push(m.to_string()); } } } }
    for k in PieceKind::HAND { for t in Square::all() { let m = Move::drop(k,t); if p.is_legal_slow(m) { v.push(m.to_string()); } } }
    v.sort(); v
}
fn walk(p: &mut Position, d: u32) {
    let l = p.legal_moves();
    let mut a: Vec<String> = l.iter().map(|m| m.to_string()).collect(); a.sort();
    let b = brute(p);
    if a != b { println!("MISMATCH {} gen {:?} \n brute-only {:?} gen-only {:?}", p.to_sfen(), a.len(), b.iter().filter(|x| !a.contains(x)).collect::<Vec<_>>(), a.iter().filter(|x| !b.contains(x)).collect::<Vec<_>>()); std::process::exit(1);}
    if d == 0 { return; }
    for &m in l.iter() { p.do_move(m); walk(p, d-1); p.undo_move(m); }
}
fn main() { let mut p = Position::startpos(); walk(&mut p, 3); println!("ok"); }
