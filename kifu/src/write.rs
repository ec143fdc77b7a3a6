//! Writes KIF (柿木形式) as the GUIs read it: the start position as a board diagram (BOD) with
//! both hands and the side to move, then the main line, then its variations (`変化：N手`).
//!
//! ```
//! use soppo_core::Position;
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
//! let mate = pos.parse_move("G*5b").unwrap();
//! let kif = soppo_kifu::write_kif(&pos, &[mate], &[], &[]);
//! assert!(kif.contains("   1 ５二金打"));
//! let back = soppo_kifu::read(kif.as_bytes(), soppo_kifu::Format::Kif).unwrap();
//! assert_eq!(back.moves, ["G*5b"]);
//! ```

use soppo_core::{Color, Move, Piece, PieceKind, Position, Square};
use std::fmt::Write;

/// A line that leaves the main line: it replaces the main line's move `ply` (1-based) and
/// goes on from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    pub ply: usize,
    pub moves: Vec<Move>,
}

const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The KIF text of `moves` from `start`, with `variations` of the main line and `comments`
/// (`#` lines) at the top. Moves that are not legal in turn are not written; a variation
/// whose branch ply is outside the main line is left out.
pub fn write_kif(start: &Position, moves: &[Move], variations: &[Variation], comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments {
        for line in c.lines() {
            let _ = writeln!(out, "# {line}");
        }
    }
    write_board(&mut out, start);
    out.push_str("手数----指手---------消費時間--\n");
    write_moves(&mut out, start, moves, 1, None);
    // Depth first, as the GUIs write a tree: the variation that branches last comes first.
    let mut order: Vec<&Variation> = variations
        .iter()
        .filter(|v| (1..=moves.len()).contains(&v.ply))
        .collect();
    order.sort_by_key(|v| std::cmp::Reverse(v.ply));
    for v in order {
        let mut pos = start.clone();
        let mut prev_to = None;
        for &m in &moves[..v.ply - 1] {
            pos.do_move(m);
            prev_to = Some(m.to());
        }
        let _ = writeln!(out, "\n変化：{}手", v.ply);
        write_moves(&mut out, &pos, &v.moves, v.ply, prev_to);
    }
    out
}

/// The bytes of KIF `text` for a file named `name`: Shift JIS for `.kif` (as the Windows GUIs
/// read it), UTF-8 otherwise (`.kifu`).
pub fn kif_file_bytes(text: &str, name: &str) -> Vec<u8> {
    let is_kif = std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("kif"));
    if is_kif {
        encoding_rs::SHIFT_JIS.encode(text).0.into_owned()
    } else {
        text.as_bytes().to_vec()
    }
}

/// The move lines of `moves` from `pos`, numbered from `first`, ending with `詰み` when the
/// last position is checkmate.
fn write_moves(out: &mut String, pos: &Position, moves: &[Move], first: usize, mut prev_to: Option<Square>) {
    let mut pos = pos.clone();
    let mut n = first;
    for &m in moves {
        if !pos.is_legal_move(m) {
            return;
        }
        let _ = writeln!(out, "{n:>4} {}", move_text(&pos, m, prev_to));
        prev_to = Some(m.to());
        pos.do_move(m);
        n += 1;
    }
    if pos.is_checkmate() {
        let _ = writeln!(out, "{n:>4} 詰み");
    }
}

/// One move as KIF writes it: `７六歩(77)`, `同　銀(42)`, `５二金打`, `２二角成(88)`.
fn move_text(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    let to = m.to();
    let mut s = if prev_to == Some(to) {
        String::from("同　")
    } else {
        square_text(to)
    };
    if m.is_drop() {
        s.push_str(kind_name(m.dropped_kind()));
        s.push('打');
        return s;
    }
    let from = m.from();
    let kind = pos.piece_on(from).map_or(PieceKind::Pawn, Piece::kind);
    s.push_str(kind_name(kind));
    let us = pos.side_to_move();
    if m.is_promotion() {
        s.push('成');
    } else if kind.can_promote() && (from.in_zone(us) || to.in_zone(us)) {
        s.push_str("不成");
    }
    let _ = write!(s, "({}{})", from.file().index() + 1, from.rank().index() + 1);
    s
}

fn square_text(sq: Square) -> String {
    [FILE_DIGITS[sq.file().index()], RANK_KANJI[sq.rank().index()]]
        .iter()
        .collect()
}

/// A piece's Japanese name in a move (`玉` for either king; two characters for the promoted
/// lance, knight and silver).
pub fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// A piece's one-character name on the board diagram.
fn board_char(kind: PieceKind) -> char {
    match kind {
        PieceKind::ProLance => '杏',
        PieceKind::ProKnight => '圭',
        PieceKind::ProSilver => '全',
        other => kind_name(other).chars().next().unwrap_or('・'),
    }
}

/// `十八` for 18: KIF's kanji counts.
fn kanji_number(n: u32) -> String {
    const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    let (tens, ones) = (n / 10, n % 10);
    let mut s = String::new();
    if tens > 1 {
        s.push_str(DIGITS[tens as usize % 10]);
    }
    if tens > 0 {
        s.push('十');
    }
    s.push_str(DIGITS[ones as usize]);
    s
}

fn hand_text(pos: &Position, c: Color) -> String {
    let hand = pos.hand(c);
    let parts: Vec<String> = PieceKind::HAND_BY_VALUE
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| {
            let n = hand.count(k);
            let count = if n > 1 { kanji_number(n) } else { String::new() };
            format!("{}{count}", kind_name(k))
        })
        .collect();
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

fn write_board(out: &mut String, pos: &Position) {
    let _ = writeln!(out, "後手の持駒：{}", hand_text(pos, Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9u8 {
        out.push('|');
        for file in (0..9u8).rev() {
            let sq = Square::new(file * 9 + rank).expect("a square: file and rank below 9");
            match pos.piece_on(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color() == Color::White { 'v' } else { ' ' });
                    out.push(board_char(p.kind()));
                }
            }
        }
        let _ = writeln!(out, "|{}", RANK_KANJI[usize::from(rank)]);
    }
    out.push_str("+---------------------------+\n");
    let _ = writeln!(out, "先手の持駒：{}", hand_text(pos, Color::Black));
    if pos.side_to_move() == Color::White {
        out.push_str("後手番\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_counts() {
        let got: Vec<String> = [1, 2, 9, 10, 11, 18, 20].iter().map(|&n| kanji_number(n)).collect();
        assert_eq!(got, ["一", "二", "九", "十", "十一", "十八", "二十"]);
    }

    #[test]
    fn moves_as_kif_writes_them() {
        let pos = Position::from_sfen("3sks3/9/4P4/9/9/9/9/9/4K4 b GL 1").unwrap();
        let g = pos.parse_move("G*5b").unwrap();
        assert_eq!(move_text(&pos, g, None), "５二金打");
        let mut p = pos.clone();
        p.do_move(g);
        let take = p.parse_move("4a5b").unwrap();
        assert_eq!(move_text(&p, take, Some(g.to())), "同　銀(41)");
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/1B7/4K4 b - 1").unwrap();
        let promote = pos.parse_move("8h3c+").unwrap();
        assert_eq!(move_text(&pos, promote, None), "３三角成(88)");
        let stay = pos.parse_move("8h3c").unwrap();
        assert_eq!(move_text(&pos, stay, None), "３三角不成(88)");
    }
}
