//! Japanese move notation (棋譜の表記方法) for printing solutions as tsume fans read them:
//! `▲２二金打 △同玉 ▲３三銀不成 …`.

use soppo_core::{Color, Move, PieceKind, Position, Square};

const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The Japanese name of a piece kind (`玉` for either king).
pub use soppo_kifu::kind_name as piece_name;

/// `５二` for square 5b.
pub fn square_name(sq: Square) -> String {
    let mut s = String::new();
    s.push(FILE_DIGITS[sq.file().index()]);
    s.push(RANK_KANJI[sq.rank().index()]);
    s
}

/// Formats `line`, played from `pos`, in Japanese notation (one string per move, each with
/// its ▲/△ mark). Stops at the first move that is not legal.
pub fn japanese(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    let mut prev_to: Option<Square> = None;
    for &m in line {
        if !pos.is_legal_move(m) {
            break;
        }
        out.push(format_move(&pos, m, prev_to));
        prev_to = Some(m.to());
        pos.do_move(m);
    }
    out
}

/// One move in Japanese notation; `prev_to` is the previous move's destination (for `同`).
pub fn format_move(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    let us = pos.side_to_move();
    let mut s = String::from(match us {
        Color::Black => "▲",
        Color::White => "△",
    });
    let to = m.to();
    if prev_to == Some(to) {
        s.push('同');
    } else {
        s.push_str(&square_name(to));
    }
    if m.is_drop() {
        let kind = m.dropped_kind();
        s.push_str(piece_name(kind));
        let board_piece_can_go = pos.legal_moves().iter().any(|&other| {
            !other.is_drop() && other.to() == to && pos.piece_on(other.from()).is_some_and(|p| p.kind() == kind)
        });
        if board_piece_can_go {
            s.push('打');
        }
        return s;
    }
    let from = m.from();
    let Some(piece) = pos.piece_on(from) else {
        return s;
    };
    let kind = piece.kind();
    s.push_str(piece_name(kind));
    s.push_str(relative(pos, m, kind));
    if m.is_promotion() {
        s.push('成');
    } else if kind.can_promote() && (from.in_zone(us) || to.in_zone(us)) {
        s.push_str("不成");
    }
    s
}

/// How far `c` sees a square to its right (Black's right is file 1).
fn rightness(c: Color, sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    match c {
        Color::Black => 8 - f,
        Color::White => f,
    }
}

/// Ranks moved forward (toward the opponent) by `c` going from `from` to `to`.
fn forward(c: Color, from: Square, to: Square) -> i32 {
    let (a, b) = (from.rank().index() as i32, to.rank().index() as i32);
    match c {
        Color::Black => a - b,
        Color::White => b - a,
    }
}

fn direction(c: Color, from: Square, to: Square) -> &'static str {
    match forward(c, from, to) {
        d if d > 0 => "上",
        0 => "寄",
        _ => "引",
    }
}

/// `左`/`右` when the mover is strictly the leftmost/rightmost of `froms` (which include it).
fn side(c: Color, mover: Square, froms: &[Square]) -> Option<&'static str> {
    let r = rightness(c, mover);
    let others = froms.iter().filter(|&&f| f != mover).map(|&f| rightness(c, f));
    let (mut all_left, mut all_right) = (true, true);
    for o in others {
        all_left &= o < r; // others lie to our left: we are the rightmost
        all_right &= o > r;
    }
    if all_left {
        Some("右")
    } else if all_right {
        Some("左")
    } else {
        None
    }
}

/// The disambiguation suffix (`上`, `引`, `寄`, `右`, `左`, `直`, or a pair) for a board move.
fn relative(pos: &Position, m: Move, kind: PieceKind) -> &'static str {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let mut froms: Vec<Square> = vec![from];
    for other in &pos.legal_moves() {
        if other.is_drop() || other.to() != to || froms.contains(&other.from()) {
            continue;
        }
        if pos.piece_on(other.from()).is_some_and(|p| p.kind() == kind) {
            froms.push(other.from());
        }
    }
    if froms.len() < 2 {
        return "";
    }
    // 1. The movement alone (上/寄/引).
    let dir = direction(us, from, to);
    let same_dir: Vec<Square> = froms.iter().copied().filter(|&f| direction(us, f, to) == dir).collect();
    if same_dir.len() == 1 {
        return dir;
    }
    // 2. 直 for gold-movers and silvers going straight forward; otherwise 左/右.
    let straight = from.file() == to.file() && forward(us, from, to) > 0;
    if straight && (kind.is_gold_like() || kind == PieceKind::Silver) {
        return "直";
    }
    if let Some(s) = side(us, from, &froms) {
        return s;
    }
    // 3. Both: 左/右 among the pieces making the same movement, then the movement.
    match (side(us, from, &same_dir), dir) {
        (Some("右"), "上") => "右上",
        (Some("右"), "寄") => "右寄",
        (Some("右"), "引") => "右引",
        (Some("左"), "上") => "左上",
        (Some("左"), "寄") => "左寄",
        (Some("左"), "引") => "左引",
        _ => dir,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(sfen: &str, moves: &[&str]) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut p = pos.clone();
        let mut line = Vec::new();
        for t in moves {
            let m = p.parse_move(t).unwrap();
            p.do_move(m);
            line.push(m);
        }
        japanese(&pos, &line)
    }

    fn one(sfen: &str, mv: &str) -> String {
        fmt(sfen, &[mv]).remove(0)
    }

    #[test]
    fn drop_without_and_with_uchi() {
        assert_eq!(one("4k4/9/4P4/9/9/9/9/9/9 b G 1", "G*5b"), "▲５二金");
        // A board gold on 4c could also reach 5b: the drop needs 打.
        assert_eq!(one("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b"), "▲５二金");
        assert_eq!(one("8k/9/5G3/9/9/9/9/9/4K4 b G 1", "G*5b"), "▲５二金打");
    }

    #[test]
    fn same_square_and_white_mark() {
        let v = fmt("3sks3/9/4P4/9/9/9/9/9/4K4 b G 1", &["G*5b", "4a5b"]);
        assert_eq!(v, vec!["▲５二金", "△同銀左"]);
        let v = fmt("4k4/9/9/9/9/9/9/9/4K4 b S 1", &["S*5b", "5a5b"]);
        assert_eq!(v, vec!["▲５二銀", "△同玉"]);
    }

    #[test]
    fn promotion_and_non_promotion() {
        assert_eq!(one("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c+"), "▲５三銀成");
        assert_eq!(one("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c"), "▲５三銀不成");
        // Leaving the zone also offers promotion.
        assert_eq!(one("k8/9/4B4/9/9/9/9/9/4K4 b - 1", "5c3e"), "▲３五角不成");
        // Outside the zone: no suffix.
        assert_eq!(one("4k4/9/9/9/4B4/9/9/9/4K4 b - 1", "5e3g"), "▲３七角");
        // A gold never promotes.
        assert_eq!(one("k8/9/9/4G4/9/9/9/9/4K4 b - 1", "5d5c"), "▲５三金");
        // White's zone is ranks g..i.
        assert_eq!(one("4k4/9/9/9/9/4p4/9/9/K8 w - 1", "5f5g+"), "△５七歩成");
        assert_eq!(one("4k4/9/9/9/9/4p4/9/9/K8 w - 1", "5f5g"), "△５七歩不成");
    }

    #[test]
    fn two_golds() {
        // Golds on 6c and 4c both reach 5b moving up: 左/右.
        let sfen = "k8/9/3G1G3/9/9/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "6c5b"), "▲５二金左");
        assert_eq!(one(sfen, "4c5b"), "▲５二金右");
        // Golds on 5c and 4b reaching 5b: 上 / 寄.
        let sfen = "k8/5G3/4G4/9/9/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "5c5b"), "▲５二金上");
        assert_eq!(one(sfen, "4b5b"), "▲５二金寄");
        // Golds on 6c, 5c, 4c: 左, 直, 右.
        let sfen = "k8/9/3GGG3/9/9/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "6c5b"), "▲５二金左");
        assert_eq!(one(sfen, "5c5b"), "▲５二金直");
        assert_eq!(one(sfen, "4c5b"), "▲５二金右");
        // Golds on 6c, 6b, 4c: 6c needs 左上, 6b is the only one moving sideways.
        let sfen = "k8/3G5/3G1G3/9/9/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "6c5b"), "▲５二金左上");
        assert_eq!(one(sfen, "6b5b"), "▲５二金寄");
        assert_eq!(one(sfen, "4c5b"), "▲５二金右");
    }

    #[test]
    fn white_left_right_is_mirrored() {
        // White golds on 6g and 4g reaching 5h: for White, file 9 is on the right.
        let sfen = "4k4/9/9/9/9/9/3g1g3/9/K8 w - 1";
        assert_eq!(one(sfen, "6g5h"), "△５八金右");
        assert_eq!(one(sfen, "4g5h"), "△５八金左");
    }

    #[test]
    fn silvers_backwards() {
        let sfen = "k8/9/9/9/3S1S3/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "6e5f"), "▲５六銀左");
        assert_eq!(one(sfen, "4e5f"), "▲５六銀右");
    }

    #[test]
    fn knights_dragons_and_horses() {
        // Knights on 6e and 4e both reach 5c: 左/右; inside the zone 不成 is offered.
        let sfen = "k8/9/9/9/3N1N3/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "6e5c"), "▲５三桂左不成");
        assert_eq!(one(sfen, "4e5c+"), "▲５三桂右成");
        // Dragons on 9a and 8d reaching 8b: 引 / 上.
        let sfen = "+R8/9/9/1+R7/9/9/9/9/4K1k2 b - 1";
        assert_eq!(one(sfen, "9a8b"), "▲８二龍引");
        assert_eq!(one(sfen, "8d8b"), "▲８二龍上");
        // Dragons on 1a and 3a reaching 2a (both sideways): 左/右, never 直.
        let sfen = "6+R1+R/9/9/9/9/9/9/9/k3K4 b - 1";
        assert_eq!(one(sfen, "3a2a"), "▲２一龍左");
        assert_eq!(one(sfen, "1a2a"), "▲２一龍右");
        // Dragons on 1c and 2b both moving back to 2d: 右 (1c) / 左 (2b), not 引.
        let sfen = "k8/7+R1/8+R/9/9/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "1c2d"), "▲２四龍右");
        assert_eq!(one(sfen, "2b2d"), "▲２四龍左");
        // Horses on 9a and 8a both moving back to 8b: 左 (9a) / 右 (8a).
        let sfen = "+B+B7/9/9/9/9/9/9/9/4K1k2 b - 1";
        assert_eq!(one(sfen, "9a8b"), "▲８二馬左");
        assert_eq!(one(sfen, "8a8b"), "▲８二馬右");
        // Horses on 5e and 3e both moving up to 4d: 左/右.
        let sfen = "1k7/9/9/9/4+B1+B2/9/9/9/4K4 b - 1";
        assert_eq!(one(sfen, "5e4d"), "▲４四馬左");
        assert_eq!(one(sfen, "3e4d"), "▲４四馬右");
    }

    #[test]
    fn unambiguous_moves_have_no_suffix() {
        assert_eq!(one("k8/9/9/4G4/9/9/9/9/4K4 b - 1", "5d4c"), "▲４三金");
        assert_eq!(one("k8/9/9/9/9/9/9/9/4K4 b - 1", "5i4h"), "▲４八玉");
    }
}
