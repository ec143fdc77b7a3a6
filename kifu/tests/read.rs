//! Reading typed-in KIF and CSA samples, errors with their line numbers, inputs that must not
//! make the readers panic, and random legal games written by the small writers below and read
//! back unchanged.

use soppo_core::rng::SplitMix64;
use soppo_core::{Color, Move, PieceKind, Position, STARTPOS_SFEN, Square};
use soppo_kifu::{Format, GameRecord, KifuError, read};
use std::fmt::Write as _;

fn kif(text: &str) -> Result<GameRecord, KifuError> {
    read(text.as_bytes(), Format::Kif)
}

fn csa(text: &str) -> Result<GameRecord, KifuError> {
    read(text.as_bytes(), Format::Csa)
}

/// The error's text, for errors that must have one.
fn kif_err(text: &str) -> String {
    kif(text).expect_err("must fail").to_string()
}

fn csa_err(text: &str) -> String {
    csa(text).expect_err("must fail").to_string()
}

const HIRATE_KIF: &str = "\
# ---- Kifu for Windows 棋譜ファイル ----
開始日時：2024/01/01 10:00:00
手合割：平手\u{3000}\u{3000}
先手：先手さん
後手：後手さん
手数----指手---------消費時間--
*対局開始
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(３３)   ( 0:02/00:00:02)
   3 ２二角成(88) ( 0:03/00:00:04)
   4 同\u{3000}銀(31)   ( 0:01/00:00:03)
&しおり
   5 ４五角打     ( 0:05/00:00:09)
   6 ５二玉(51)   ( 0:01/00:00:04)+
   7 投了
まで6手で後手の勝ち
";

const HIRATE_MOVES: [&str; 6] = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "5a5b"];

#[test]
fn hirate_kif_in_utf8_shift_jis_and_crlf_with_bom() {
    let game = kif(HIRATE_KIF).unwrap();
    assert_eq!(game.start_sfen, STARTPOS_SFEN);
    assert_eq!(game.moves, HIRATE_MOVES);
    assert_eq!(game.end.as_deref(), Some("投了"));
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(HIRATE_KIF);
    assert!(!unmappable);
    assert_eq!(read(&sjis, Format::Kif).unwrap(), game);
    let crlf = format!("\u{feff}{}", HIRATE_KIF.replace('\n', "\r\n"));
    assert_eq!(kif(&crlf).unwrap(), game);
    assert_eq!(
        game.usi_position(),
        format!("sfen {STARTPOS_SFEN} moves {}", HIRATE_MOVES.join(" "))
    );
}

const BOD_KIF: &str = "\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| 杏 ・ 全 ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ 銀 ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金\u{3000}歩二
先手番
手数----指手---------消費時間--
   1 ３三銀不成(44)
   2 ４一玉(51)
   3 ６二成銀(73)
   4 ３一玉(41)
   5 ２二銀成(33)
   6 同\u{3000}玉(31)
   7 ９二成香(93)
   8 ２一玉(22)
   9 ３二金打
  10 中断
";

#[test]
fn board_diagram_with_hands_promotions_and_non_promotions() {
    let text = BOD_KIF;
    let game = kif(text).unwrap();
    assert_eq!(game.start_sfen, "4k4/9/+L1+S6/5S3/9/9/9/9/4K4 b G2P 1");
    let moves = ["4d3c", "5a4a", "7c6b", "4a3a", "3c2b+", "3a2b", "9c9b", "2b2a", "G*3b"];
    assert_eq!(game.moves, moves);
    assert_eq!(game.end.as_deref(), Some("中断"));
    // The same diagram with White to move, a White hand, `竜` and `王`, and no moves.
    let white = text
        .replace("後手の持駒：なし", "後手の持駒：飛\u{3000}歩十八")
        .replace("| 杏 ・ 全", "|v竜 ・ 全")
        .replace("| ・ ・ ・ ・ 玉", "| ・ ・ ・ ・ 王")
        .replace("先手番", "後手番");
    let white = white.split("手数").next().unwrap();
    let game = kif(white).unwrap();
    assert_eq!(game.start_sfen, "4k4/9/+r1+S6/5S3/9/9/9/9/4K4 w G2Pr18p 1");
    assert!(game.moves.is_empty() && game.end.is_none());
}

#[test]
fn handicap_white_moves_first() {
    let game = kif("手合割：香落ち\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 ８八角成(22)\n   4 同　銀(79)\n").unwrap();
    assert_eq!(
        game.start_sfen,
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(game.moves, ["3c3d", "7g7f", "2b8h+", "7i8h"]);
    let game = kif("手合割：十枚落ち\n").unwrap();
    assert_eq!(game.start_sfen, "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    assert!(kif_err("手合割：その他\n   1 ７六歩(77)\n").starts_with("line 1: unknown 手合割"));
}

#[test]
fn variations_are_skipped() {
    let text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ６八銀(79)\n";
    let game = kif(text).unwrap();
    assert_eq!(game.moves, ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(game.end, None);
    // Without the origin square (KI2 style) a move is read when only one piece fits.
    let game = kif("   1 ７六歩\n   2 ３四歩\n   3 ２二角成\n   4 同　銀\n").unwrap();
    assert_eq!(game.moves, &HIRATE_MOVES[..4]);
    assert!(kif_err("   1 ７六歩\n   2 ５二金\n").contains("ambiguous"));
}

#[test]
fn kif_errors_name_their_line() {
    let cases = [
        (
            "手合割：平手\n   1 ７六歩(78)\n",
            "line 2: `７六歩(78)`: no piece on 7h",
        ),
        ("\n   1 ７五歩(77)\n", "line 2: `７五歩(77)`: 7g7e is not a legal move"),
        (
            "   1 ７六銀(77)\n",
            "line 1: `７六銀(77)`: the piece on 7g is a 歩, not a 銀",
        ),
        (
            "   1 ３四歩(33)\n",
            "line 1: `３四歩(33)`: the piece on 3c belongs to the side not to move",
        ),
        ("   1 同　歩(77)\n", "line 1: `同　歩(77)`: `同` with no previous move"),
        ("   1 ７六象(77)\n", "line 1: `７六象(77)`: unknown piece"),
        ("   1 ５五龍打\n", "line 1: `５五龍打`: that piece cannot be dropped"),
        ("   1 ５五角打\n", "line 1: `５五角打`: B*5e is not a legal move"),
        ("   1 ７六歩(77\n", "line 1: `７六歩(77`: cannot read the origin"),
        (
            "手合割：平手\n先手：a\nこんにちは\n   1 ７六歩(77)\n",
            "line 3: `こんにちは`: not a KIF line",
        ),
        (
            "   1 ７六歩(77)\n|v香|\n",
            "line 2: `|v香|`: the start position is given after the first move",
        ),
        (
            "| ・ ・ ・ ・ ・ ・ ・ ・ ・|\n",
            "line 1: the board diagram has 1 rows, not 9",
        ),
        ("", "not a KIF file: no moves and no position"),
        ("* a comment\n先手：誰か\n", "not a KIF file: no moves and no position"),
    ];
    for (text, want) in cases {
        assert_eq!(kif_err(text), want, "{text}");
    }
    assert_eq!(kif("   1 ７六歩(77)\n   2 x").unwrap_err().line(), Some(2));
    assert_eq!(read(b"\x00\x01\x02", Format::Kif), Err(KifuError::Binary));
    assert_eq!(read(b"\x00", Format::Csa), Err(KifuError::Binary));
}

#[test]
fn csa_with_pi_info_comments_times_and_commas() {
    let text = "\
V2.2
N+Sente
N-Gote
$EVENT:test, with a comma
'a comment, with a comma
PI
+
+7776FU
T1
-3334FU,T2
+8822UM
T3
-3122GI
+0045KA,T5,-5152OU,T1
%TORYO
/
PI
+
+2726FU
";
    let game = csa(text).unwrap();
    assert_eq!(game.start_sfen, STARTPOS_SFEN);
    assert_eq!(game.moves, HIRATE_MOVES);
    assert_eq!(game.end.as_deref(), Some("%TORYO"));
    // CRLF and the handicap form of PI: White (the handicapper) moves first.
    let game = csa("PI82HI22KA\r\n-\r\n-3334FU\r\n+7776FU\r\n").unwrap();
    assert_eq!(
        game.start_sfen,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(game.moves, ["3c3d", "7g7f"]);
}

const BOARD_CSA: &str = "\
P1 *  *  *  * -OU *  *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3+NY * +NG *  *  *  *  *  * 
P4 *  *  *  *  * +GI *  *  * 
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * +OU *  *  *  * 
P+00KI00FU00FU
P-00AL
+
+4433GI,-5141OU,+7362NG
-4131OU,+3322NG,-3122OU
+0032KI
";

#[test]
fn csa_board_rows_and_hands() {
    let text = BOARD_CSA;
    let game = csa(text).unwrap();
    assert_eq!(game.start_sfen, "4k4/9/+L1+S6/5S3/9/9/9/9/4K4 b G2P2r2b3g2s4n3l16p 1");
    assert_eq!(game.moves, ["4d3c", "5a4a", "7c6b", "4a3a", "3c2b+", "3a2b", "G*3b"]);
    // P+/P- placements on an empty board.
    let game = csa("P-51OU\nP+59OU00HI\n-\n").unwrap();
    assert_eq!(game.start_sfen, "4k4/9/9/9/9/9/9/9/4K4 w R 1");
}

#[test]
fn csa_errors_name_their_line() {
    let cases = [
        ("PI\n+\n+7775FU\n", "line 3: `+7775FU`: 7g7e is not a legal move"),
        ("PI\n+\n-3334FU\n", "line 3: `-3334FU`: the other side is to move"),
        (
            "PI\n+\n+7776KA\n",
            "line 3: `+7776KA`: the piece on 7g is a FU, not a KA",
        ),
        ("PI\n+\n+7876FU\n", "line 3: `+7876FU`: no piece on 7h"),
        ("PI\n+\n+7776FU,hello\n", "line 3: `hello`: not a CSA statement"),
        ("PI\n+\n+776FU\n", "line 3: `+776FU`: not a CSA move"),
        (
            "+7776FU\n",
            "line 1: `+7776FU`: a move before the start position (PI or P1..P9)",
        ),
        (
            "PI\n+\n+7776FU\nPI\n",
            "line 4: `PI`: the start position is given after the first move",
        ),
        ("PI55HI\n", "line 1: `PI55HI`: no HI on 5e to remove"),
        (
            "V2.2\nP1-OU\nP9+OU+OU\n",
            "line 2: impossible start position: SFEN board field, byte 18: a second Black king",
        ),
        ("", "not a CSA file: no moves and no position"),
        ("V2.2\n'only a comment\n", "not a CSA file: no moves and no position"),
    ];
    for (text, want) in cases {
        assert_eq!(csa_err(text), want, "{text}");
    }
}

/// Reading damaged records gives an error or a game, never a panic.
#[test]
fn damaged_records_do_not_panic() {
    let csa_text = "PI\n+\n+7776FU,T1\n-3334FU\n+8822UM\n-3122GI\n+0045KA\nP1-OU\n%TORYO\n";
    let mut rng = SplitMix64::new(7);
    for text in [HIRATE_KIF, BOD_KIF, csa_text, BOARD_CSA] {
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            for format in [Format::Kif, Format::Csa] {
                let _ = read(&bytes[..cut], format);
                let mut damaged = bytes.to_vec();
                let at = rng.below(bytes.len() as u64) as usize;
                damaged[at] = rng.below(256) as u8;
                damaged.swap(cut.min(bytes.len() - 1), at);
                let _ = read(&damaged, format);
            }
        }
    }
}

// ----- writers for the round trip --------------------------------------------------------------

const CSA_NAMES: [&str; 15] = [
    "", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];
const KIF_NAMES: [&str; 15] = [
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];
const BOD_NAMES: [&str; 15] = [
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "杏", "圭", "全", "馬", "龍",
];
const KANJI: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn digits(sq: Square) -> String {
    format!("{}{}", sq.file().index() + 1, sq.rank().index() + 1)
}

/// The position as CSA `P1`..`P9`, `P+`/`P-` hands and the side to move.
fn csa_position(pos: &Position) -> String {
    let mut s = String::new();
    for rank in 0..9 {
        let _ = write!(s, "P{}", rank + 1);
        for file in (0..9).rev() {
            let _ = match pos.piece_on(Square::new(file * 9 + rank).unwrap()) {
                Some(p) => write!(s, "{}{}", ["+", "-"][p.color().index()], CSA_NAMES[p.kind().index()]),
                None => write!(s, " * "),
            };
        }
        s += "\n";
    }
    for c in Color::ALL {
        s += ["P+", "P-"][c.index()];
        for k in PieceKind::HAND {
            s += &format!("00{}", CSA_NAMES[k.index()]).repeat(pos.hand(c).count(k) as usize);
        }
        s += "\n";
    }
    s + ["+\n", "-\n"][pos.side_to_move().index()]
}

fn csa_move(pos: &Position, m: Move) -> String {
    let sign = ["+", "-"][pos.side_to_move().index()];
    if m.is_drop() {
        return format!("{sign}00{}{}", digits(m.to()), CSA_NAMES[m.dropped_kind().index()]);
    }
    let kind = pos.piece_on(m.from()).unwrap().kind();
    let kind = if m.is_promotion() { kind.promote() } else { kind };
    format!(
        "{sign}{}{}{}",
        digits(m.from()),
        digits(m.to()),
        CSA_NAMES[kind.index()]
    )
}

fn kanji_count(n: u32) -> String {
    match n {
        1 => String::new(),
        10 => "十".into(),
        11.. => format!("十{}", KANJI[n as usize - 10]),
        _ => KANJI[n as usize].into(),
    }
}

/// The position as a KIF board diagram.
fn bod(pos: &Position) -> String {
    let hand = |c: Color| {
        let items: Vec<String> = PieceKind::HAND
            .iter()
            .rev()
            .filter(|&&k| pos.hand(c).count(k) > 0)
            .map(|&k| format!("{}{}", BOD_NAMES[k.index()], kanji_count(pos.hand(c).count(k))))
            .collect();
        if items.is_empty() {
            "なし".into()
        } else {
            items.join("\u{3000}")
        }
    };
    let mut s = format!(
        "後手の持駒：{}\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n",
        hand(Color::White)
    );
    for rank in 0..9 {
        s += "|";
        for file in (0..9).rev() {
            let _ = match pos.piece_on(Square::new(file * 9 + rank).unwrap()) {
                Some(p) => write!(s, "{}{}", [" ", "v"][p.color().index()], BOD_NAMES[p.kind().index()]),
                None => write!(s, " ・"),
            };
        }
        let _ = writeln!(s, "|{}", KANJI[rank as usize + 1]);
    }
    let _ = writeln!(s, "+---------------------------+\n先手の持駒：{}", hand(Color::Black));
    s + ["先手番\n", "後手番\n"][pos.side_to_move().index()]
}

fn kif_move(pos: &Position, m: Move, number: usize) -> String {
    let to = m.to();
    let dest = if pos.last_move().map(Move::to) == Some(to) {
        "同\u{3000}".to_string()
    } else {
        format!(
            "{}{}",
            ["１", "２", "３", "４", "５", "６", "７", "８", "９"][to.file().index()],
            KANJI[to.rank().index() + 1]
        )
    };
    let tail = if m.is_drop() {
        format!("{}打", KIF_NAMES[m.dropped_kind().index()])
    } else {
        let kind = pos.piece_on(m.from()).unwrap().kind();
        let us = pos.side_to_move();
        let could = kind.can_promote() && (m.from().in_zone(us) || to.in_zone(us));
        let suffix = if m.is_promotion() {
            "成"
        } else if could {
            "不成"
        } else {
            ""
        };
        format!("{}{suffix}({})", KIF_NAMES[kind.index()], digits(m.from()))
    };
    format!("{number:>4} {dest}{tail}   ( 0:01/00:00:{:02})\n", number % 60)
}

/// Random legal games, some from a random start position, written as CSA and as KIF and read
/// back to the same start and moves.
#[test]
fn random_games_round_trip() {
    let mut rng = SplitMix64::new(20240601);
    for game in 0..300 {
        let mut pos = Position::startpos();
        let prelude = if game % 2 == 0 { 0 } else { rng.below(80) };
        for _ in 0..prelude {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
        }
        let pos = Position::from_sfen(&pos.to_sfen()).unwrap(); // forget the history (no 同 to it)
        let sfen = pos.to_sfen();
        let start_sfen = format!("{} 1", sfen.rsplit_once(' ').unwrap().0);
        let mut csa_text = if prelude == 0 {
            "PI\n+\n".to_string()
        } else {
            csa_position(&pos)
        };
        let mut kif_text = if prelude == 0 {
            "手合割：平手\n".to_string()
        } else {
            bod(&pos)
        };
        kif_text += "手数----指手---------消費時間--\n";
        let (mut p, mut usi) = (pos.clone(), Vec::new());
        for ply in 0..rng.below(250) as usize {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = *rng.pick(&moves);
            csa_text += &csa_move(&p, m);
            csa_text += if ply % 3 == 0 { ",T1," } else { "\nT2\n" };
            kif_text += &kif_move(&p, m, ply + 1);
            usi.push(m.to_string());
            p.do_move(m);
        }
        for (text, format) in [(csa_text, Format::Csa), (kif_text, Format::Kif)] {
            let got = read(text.as_bytes(), format).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(got.start_sfen, start_sfen, "{text}");
            assert_eq!(got.moves, usi, "{text}");
        }
    }
}

/// `write_kif` on random legal games from random start positions (either side to move), with
/// a variation at a random ply: read back (variations skipped) to the same start and moves.
#[test]
fn written_kif_reads_back() {
    let mut rng = SplitMix64::new(20261206);
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
        }
        let pos = Position::from_sfen(&pos.to_sfen()).unwrap();
        let start_sfen = format!("{} 1", pos.to_sfen().rsplit_once(' ').unwrap().0);
        let (mut p, mut line) = (pos.clone(), Vec::new());
        for _ in 0..rng.below(60) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = *rng.pick(&moves);
            p.do_move(m);
            line.push(m);
        }
        let mut variations = Vec::new();
        if !line.is_empty() {
            let ply = 1 + rng.below(line.len() as u64) as usize;
            let mut q = pos.clone();
            for &m in &line[..ply - 1] {
                q.do_move(m);
            }
            let other = *rng.pick(&q.legal_moves());
            variations.push(soppo_kifu::Variation {
                ply,
                moves: vec![other],
            });
        }
        let text = soppo_kifu::write_kif(&pos, &line, &variations, &["a comment".to_string()]);
        let got = kif(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(got.start_sfen, start_sfen, "{text}");
        let usi: Vec<String> = line.iter().map(ToString::to_string).collect();
        assert_eq!(got.moves, usi, "{text}");
    }
}
