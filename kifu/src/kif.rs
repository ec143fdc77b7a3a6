//! KIF (柿木形式) records: header lines `key：value` (of which the handicap `手合割` and the
//! hands `先手の持駒` / `後手の持駒` matter), a board diagram (BOD), and the numbered move lines
//! of the main line up to its end word (`投了`…). The first variation (`変化：`) and everything
//! after it are skipped; so are comments (`*`, `#`, `&`) and the result line (`まで…`).
//!
//! A move names its destination (`７六`, `同`), the piece as it stands before moving (`歩`,
//! `成銀`, `全`…), then `成`, `不成` or `打`, and its origin `(77)`. Without an origin (KI2
//! style) the move is found among the legal moves when only one fits.

use crate::setup::{Replay, Setup};
use crate::{Format, GameRecord, KifuError};
use soppo_core::{Color, Piece, PieceKind, Position, STARTPOS_SFEN, Square};

/// `手合割` values and White's two back ranks in them (Black's side is always complete). In a
/// handicap game the handicapper (上手) plays White and moves first.
const HANDICAPS: [(&str, &str); 14] = [
    ("平手", "lnsgkgsnl/1r5b1"),
    ("香落ち", "lnsgkgsn1/1r5b1"),
    ("右香落ち", "1nsgkgsnl/1r5b1"),
    ("角落ち", "lnsgkgsnl/1r7"),
    ("飛車落ち", "lnsgkgsnl/7b1"),
    ("飛香落ち", "lnsgkgsn1/7b1"),
    ("二枚落ち", "lnsgkgsnl/9"),
    ("三枚落ち", "lnsgkgsn1/9"),
    ("四枚落ち", "1nsgkgsn1/9"),
    ("五枚落ち", "2sgkgsn1/9"),
    ("左五枚落ち", "1nsgkgs2/9"),
    ("六枚落ち", "2sgkgs2/9"),
    ("八枚落ち", "3gkg3/9"),
    ("十枚落ち", "4k4/9"),
];

/// The start position of a `手合割` value, if it is one of [`HANDICAPS`].
fn handicap(name: &str) -> Option<String> {
    let (_, white) = HANDICAPS.iter().find(|(n, _)| *n == name)?;
    let side = if name == "平手" { 'b' } else { 'w' };
    Some(format!("{white}/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL {side} - 1"))
}

/// The words that end the main line in place of a move.
const END_WORDS: &str = "投了 中断 詰み 不詰 千日手 持将棋 切れ負け 反則勝ち 反則負け 入玉勝ち 入玉宣言 不戦勝 不戦敗";

/// ASCII white space and the ideographic space (U+3000) that KIF uses as a separator.
fn is_space(c: char) -> bool {
    c.is_ascii_whitespace() || c == '\u{3000}'
}

/// Whether a (trimmed) line is one only KIF has (for [`crate::detect_format`]).
pub(crate) fn is_kif_line(line: &str) -> bool {
    const KEYS: &str = "#KIF 手合割 開始日時 先手： 後手： 先手の持駒 後手の持駒 手数----";
    if KEYS.split(' ').any(|k| line.starts_with(k)) {
        return true;
    }
    let body = line.trim_start_matches(|c: char| c.is_ascii_digit());
    body.len() < line.len()
        && body.starts_with(is_space)
        && body
            .trim_start_matches(is_space)
            .starts_with(|c| c == '同' || ('１'..='９').contains(&c))
}

/// Reads a KIF record (already decoded).
pub(crate) fn parse(text: &str) -> Result<GameRecord, KifuError> {
    let mut start = Start::default();
    let mut game: Option<Replay> = None;
    let mut end = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_matches(is_space);
        if line.is_empty() || line.starts_with(['*', '#', '&']) {
            continue;
        }
        if line.starts_with("変化") {
            break; // the first variation: the main line is over
        }
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            let game = match &mut game {
                Some(g) => g,
                None => game.insert(Replay::new(start.position()?)),
            };
            if let Some(word) = move_line(game, line, n)? {
                end = Some(word);
                break;
            }
        } else {
            start.line(line, n, game.is_some())?;
        }
    }
    match game {
        Some(g) => Ok(g.finish(end)),
        None if start.given() => Ok(Replay::new(start.position()?).finish(end)),
        None => Err(KifuError::NoGame { format: Format::Kif }),
    }
}

/// What the lines before the moves say about the start position.
#[derive(Default)]
struct Start {
    /// The `手合割` line and its position (`None`: a name not in [`HANDICAPS`]).
    handicap: Option<(usize, Option<String>)>,
    /// The board diagram with its hands, once any of it is seen, and its first line.
    bod: Option<(usize, Setup)>,
    /// Board rows read so far.
    rows: usize,
}

impl Start {
    fn given(&self) -> bool {
        self.handicap.is_some() || self.bod.is_some()
    }

    /// The board diagram, started on line `n` if this is its first line.
    fn bod(&mut self, n: usize) -> &mut Setup {
        &mut self.bod.get_or_insert_with(|| (n, Setup::empty())).1
    }

    /// The start position: the board diagram if there is one, else the handicap, else the
    /// standard start.
    fn position(&self) -> Result<Position, KifuError> {
        if let Some((n, setup)) = &self.bod {
            if self.rows != 9 {
                return Err(KifuError::Line {
                    line: *n,
                    reason: format!("the board diagram has {} rows, not 9", self.rows),
                });
            }
            return setup.position().map_err(|reason| KifuError::Line { line: *n, reason });
        }
        let (n, sfen) = match &self.handicap {
            Some((n, None)) => {
                return Err(KifuError::Line {
                    line: *n,
                    reason: "unknown 手合割 and no board diagram".into(),
                });
            }
            Some((n, Some(sfen))) => (*n, sfen.as_str()),
            None => (1, STARTPOS_SFEN),
        };
        // The table's positions are valid (a test checks): this error never happens.
        Position::from_sfen(sfen).map_err(|e| KifuError::Line {
            line: n,
            reason: e.to_string(),
        })
    }

    /// Reads line `n`, any line but a move line; `moving` once the moves have begun, after
    /// which the start position can no longer change.
    fn line(&mut self, line: &str, n: usize, moving: bool) -> Result<(), KifuError> {
        let err = |reason: &str| Err(KifuError::at(n, line, reason));
        // Column labels and frame of the diagram, the move-list heading, the result line.
        if line.starts_with(['９', '+']) || line.starts_with("手数") || line.starts_with("まで") {
            return Ok(());
        }
        let (key, value) = match line.split_once(['：', ':']) {
            Some((k, v)) => (k.trim_matches(is_space), v.trim_matches(is_space)),
            None => (line, ""),
        };
        let hand = match key {
            "先手の持駒" | "下手の持駒" => Some(Color::Black),
            "後手の持駒" | "上手の持駒" => Some(Color::White),
            _ => None,
        };
        let positional = hand.is_some() || key == "手合割" || line.starts_with('|') || line.ends_with("手番");
        if positional && moving {
            return err("the start position is given after the first move");
        }
        if let Some(c) = hand {
            let counts = parse_hand(value).map_err(|r| KifuError::at(n, line, r))?;
            let setup = self.bod(n);
            for (k, count) in counts {
                let held = &mut setup.hands[c.index()][k.index()];
                *held = held.saturating_add(count);
            }
        } else if key == "手合割" {
            self.handicap = Some((n, handicap(value)));
        } else if line.starts_with('|') {
            let row = parse_row(line).map_err(|r| KifuError::at(n, line, r))?;
            let rank = self.rows;
            if rank >= 9 {
                return err("a tenth board row");
            }
            let setup = self.bod(n);
            for (j, p) in row.into_iter().enumerate() {
                // The row lists files 9 to 1; file index 8 is file 9.
                setup.board[(8 - j) * 9 + rank] = p;
            }
            self.rows += 1;
        } else if matches!(line, "先手番" | "下手番" | "後手番" | "上手番") {
            self.bod(n).side = if matches!(line, "先手番" | "下手番") {
                Color::Black
            } else {
                Color::White
            };
        } else if value.is_empty() && key.len() == line.len() {
            // No `：` at all: not a header, a diagram line or a move.
            return err("not a KIF line");
        }
        Ok(())
    }
}

/// One-character piece names in kind-number order (`杏` `圭` `全`: promoted lance, knight and
/// silver, as board diagrams write them).
const PIECE_CHARS: &str = "歩香桂銀角飛金玉と杏圭全馬龍";

/// A piece named by one character, as in moves and board diagrams (`王` is `玉`, `竜` is `龍`).
fn piece_char(c: char) -> Option<PieceKind> {
    let c = match c {
        '王' => '玉',
        '竜' => '龍',
        c => c,
    };
    PieceKind::from_u8(PIECE_CHARS.chars().position(|p| p == c)? as u8 + 1)
}

/// The name of a kind in error messages.
fn piece_name(kind: PieceKind) -> char {
    PIECE_CHARS.chars().nth(kind.index() - 1).unwrap_or('?')
}

/// A digit 1..=9 written in ASCII, full width (`７`) or kanji (`七`).
fn digit(c: char) -> Option<u8> {
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '０' as u32,
        _ => "一二三四五六七八九".chars().position(|k| k == c)? as u32 + 1,
    };
    Some(d as u8)
}

/// The square of file `f` and rank `r`, both 1..=9.
fn square(f: char, r: char) -> Option<Square> {
    let (f, r) = (digit(f)?, digit(r)?);
    Square::new((f - 1) * 9 + (r - 1))
}

/// A hand: `なし`, or pieces with kanji counts separated by spaces (`銀二　歩十八`).
fn parse_hand(value: &str) -> Result<Vec<(PieceKind, u32)>, String> {
    if value.is_empty() || value == "なし" {
        return Ok(Vec::new());
    }
    value
        .split(is_space)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let mut chars = item.chars();
            let kind = chars
                .next()
                .and_then(piece_char)
                .filter(|k| PieceKind::HAND.contains(k))
                .ok_or_else(|| format!("`{item}` is not a piece in hand"))?;
            let count = kanji_count(chars.as_str()).ok_or_else(|| format!("bad count in `{item}`"))?;
            Ok((kind, count))
        })
        .collect()
}

/// A count in kanji (`""` = 1, `二`, `十`, `十八`) or digits.
fn kanji_count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(1);
    }
    if let Ok(n) = s.parse() {
        return Some(n);
    }
    let (tens, ones) = match s.split_once('十') {
        Some((t, o)) => (if t.is_empty() { 1 } else { kanji_count(t)? }, o),
        None => (0, s),
    };
    let mut ones_chars = ones.chars();
    let ones = match (ones_chars.next(), ones_chars.next()) {
        (None, _) => 0,
        (Some(c), None) => u32::from(digit(c)?),
        _ => return None,
    };
    tens.checked_mul(10)?.checked_add(ones)
}

/// One board-diagram row `| v香v桂 ・ … 香|一`: nine squares from file 9 to file 1.
fn parse_row(line: &str) -> Result<[Option<Piece>; 9], String> {
    let inner = line.strip_prefix('|').and_then(|l| l.split('|').next()).unwrap_or("");
    let mut row = [None; 9];
    let mut count = 0;
    let mut color = Color::Black;
    for c in inner.chars() {
        let square = match c {
            'v' | 'V' => {
                color = Color::White;
                continue;
            }
            ' ' | '\u{3000}' | '^' => continue,
            '・' => None,
            _ => Some(Piece::new(color, piece_char(c).ok_or(format!("`{c}` is not a piece"))?)),
        };
        *row.get_mut(count).ok_or("more than nine squares")? = square;
        count += 1;
        color = Color::Black;
    }
    if count < 9 {
        return Err(format!("{count} squares, not 9"));
    }
    Ok(row)
}

/// A move as a KIF line states it.
struct KifMove {
    /// `None` for `同`.
    to: Option<Square>,
    /// The piece before it moves (or the dropped piece).
    kind: PieceKind,
    promote: bool,
    drop: bool,
    from: Option<Square>,
}

/// Reads a move line (`   1 ７六歩(77)   ( 0:01/00:00:01)`) and plays its move. Returns the end
/// word when the line is one (`  65 投了`).
fn move_line(game: &mut Replay, line: &str, n: usize) -> Result<Option<String>, KifuError> {
    let body = line.trim_start_matches(|c: char| c.is_ascii_digit());
    if !body.starts_with(is_space) {
        return Err(KifuError::at(n, line, "not a KIF line"));
    }
    let body = body.trim_start_matches(is_space);
    if let Some(word) = END_WORDS.split(' ').find(|w| body.starts_with(w)) {
        return Ok(Some(word.to_string()));
    }
    let (mv, token) = parse_move(body).map_err(|r| KifuError::at(n, body, r))?;
    resolve(game, &mv).map_err(|r| KifuError::at(n, token, r))?;
    Ok(None)
}

/// Parses the move at the start of `body`; returns it and its text.
fn parse_move(body: &str) -> Result<(KifMove, &str), &'static str> {
    let mut chars = body.chars();
    let to = match chars.next() {
        Some('同' | '仝') => {
            chars = chars.as_str().trim_start_matches(is_space).chars();
            None
        }
        Some(f) => Some(
            chars
                .next()
                .and_then(|r| square(f, r))
                .ok_or("cannot read the destination")?,
        ),
        None => return Err("no move"),
    };
    let kind = match chars.next() {
        // `成香` `成桂` `成銀`: two-character names of promoted pieces.
        Some('成') => match chars.next() {
            Some('香') => PieceKind::ProLance,
            Some('桂') => PieceKind::ProKnight,
            Some('銀') => PieceKind::ProSilver,
            _ => return Err("unknown piece"),
        },
        c => c.and_then(piece_char).ok_or("unknown piece")?,
    };
    let mut mv = KifMove {
        to,
        kind,
        promote: false,
        drop: false,
        from: None,
    };
    loop {
        let rest = chars.as_str();
        match chars.next() {
            None => break,
            Some(c) if is_space(c) => {
                chars = rest.chars(); // keep the space out of the move's text
                break;
            }
            // Relative words (右 左 上 引 寄 直, and 行 入 of some writers) only disambiguate.
            Some('右' | '左' | '上' | '引' | '寄' | '直' | '行' | '入' | '生') => {}
            Some('成') => mv.promote = true,
            Some('不') if chars.next() == Some('成') => {}
            Some('打') => mv.drop = true,
            Some('(' | '（') => {
                let (f, r) = (chars.next(), chars.next());
                mv.from = Some(
                    f.zip(r)
                        .and_then(|(f, r)| square(f, r))
                        .ok_or("cannot read the origin")?,
                );
                if !matches!(chars.next(), Some(')' | '）')) {
                    return Err("cannot read the origin");
                }
                break;
            }
            Some(_) => return Err("cannot read the move"),
        }
    }
    let used = body.len() - chars.as_str().len();
    Ok((mv, &body[..used]))
}

/// Plays the legal move that `mv` describes.
fn resolve(game: &mut Replay, mv: &KifMove) -> Result<(), String> {
    let to = match mv.to {
        Some(sq) => sq,
        None => game.last_to().ok_or("`同` with no previous move")?,
    };
    if mv.drop {
        if mv.promote {
            return Err("a drop cannot promote".into());
        }
        return game.play_drop(mv.kind, to);
    }
    if let Some(from) = mv.from {
        let kind = game.own_piece(from)?;
        if kind != mv.kind {
            return Err(format!(
                "the piece on {from} is a {}, not a {}",
                piece_name(kind),
                piece_name(mv.kind)
            ));
        }
        return game.play_board(from, to, mv.promote);
    }
    // No origin: the one legal board move of this piece to `to`, else a drop.
    let pos = game.pos();
    let fits: Vec<_> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            !m.is_drop()
                && m.to() == to
                && m.is_promotion() == mv.promote
                && pos.piece_on(m.from()).is_some_and(|p| p.kind() == mv.kind)
        })
        .collect();
    match fits[..] {
        [] if !mv.promote && PieceKind::HAND.contains(&mv.kind) => game.play_drop(mv.kind, to),
        [] => Err("not a legal move".into()),
        [m] => game.play(m),
        _ => Err("ambiguous without the origin square, e.g. `(77)`".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_rows() {
        assert_eq!(kanji_count("十八"), Some(18));
        assert_eq!(kanji_count("十"), Some(10));
        assert_eq!(kanji_count("三"), Some(3));
        assert_eq!(kanji_count("12"), Some(12));
        assert_eq!(kanji_count("三四"), None);
        assert_eq!(
            parse_hand("銀二　歩十八").unwrap(),
            [(PieceKind::Silver, 2), (PieceKind::Pawn, 18)]
        );
        assert!(parse_hand("龍").is_err());
        let row = parse_row("|v香v桂 ・ ・ ・ ・ ・ 全 杏|一").unwrap();
        assert_eq!(row[0], Some(Piece::new(Color::White, PieceKind::Lance)));
        assert_eq!(row[8], Some(Piece::new(Color::Black, PieceKind::ProLance)));
        assert!(parse_row("| ・ ・|").is_err());
        assert!(parse_row("| ・ ・ ・ ・ ・ ・ ・ ・ ・ ・|").is_err());
    }

    #[test]
    fn handicap_positions_are_valid() {
        for (name, _) in HANDICAPS {
            assert!(
                handicap(name).is_some_and(|s| Position::from_sfen(&s).is_ok()),
                "{name}"
            );
        }
        assert_eq!(handicap("平手").as_deref(), Some(STARTPOS_SFEN));
    }
}
