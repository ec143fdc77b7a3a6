//! SFEN parsing and printing.
//!
//! Accepted: the four fields `board side hand move-number`, the move number optional
//! (tsume collections often omit it), single-king tsume positions, handicap positions with
//! White to move, hands with repeated letters and multi-digit counts, and positions with
//! more pieces of a kind than one set has (some public test suites use them) as long as
//! every piece could still be held in a hand. Rejected with the field and byte offset:
//! malformed fields, more pieces than a hand can record, two kings of a colour, nifu on the
//! board, pieces that could never move again, and the side not to move standing in check.

use super::Position;
use crate::attacks::dead_ranks;
use crate::hand::Hand;
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use std::fmt::Write as _;
use thiserror::Error;

/// The standard starting position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN was rejected. Offsets are byte offsets into the text given to the parser.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SfenError {
    #[error("SFEN has {found} fields; expected board, side to move, hand and an optional move number")]
    FieldCount { found: usize },
    #[error("SFEN board field, byte {offset}: {reason}")]
    Board { offset: usize, reason: String },
    #[error("SFEN side-to-move field, byte {offset}: expected `b` or `w`, found `{found}`")]
    Side { offset: usize, found: String },
    #[error("SFEN hand field, byte {offset}: {reason}")]
    Hand { offset: usize, reason: String },
    #[error("SFEN move-number field, byte {offset}: `{found}` is not a move number")]
    MoveNumber { offset: usize, found: String },
    #[error("SFEN describes an impossible position: {0}")]
    Illegal(String),
}

/// Splits on ASCII whitespace, keeping each token's byte offset.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        out.push((start, &text[start..i]));
    }
    out
}

impl Position {
    /// Parses an SFEN (`startpos` is accepted as a name for the start position).
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let fields = tokens(text);
        if fields.len() == 1 && fields[0].1 == "startpos" {
            return Position::from_sfen(STARTPOS_SFEN);
        }
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount { found: fields.len() });
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0].0, fields[0].1)?;
        pos.side = match fields[1].1 {
            "b" => Color::Black,
            "w" => Color::White,
            other => {
                return Err(SfenError::Side {
                    offset: fields[1].0,
                    found: other.chars().take(8).collect(),
                });
            }
        };
        parse_hand(&mut pos, fields[2].0, fields[2].1)?;
        if let Some(&(offset, num)) = fields.get(3) {
            pos.move_number =
                num.parse::<u32>()
                    .ok()
                    .filter(|n| *n < 1_000_000)
                    .ok_or_else(|| SfenError::MoveNumber {
                        offset,
                        found: num.chars().take(12).collect(),
                    })?;
        }
        validate(&pos)?;
        pos.init_state();
        Ok(pos)
    }

    /// The same position seen by the other player: the board turned half a turn, every piece
    /// and both hands changing colour, the other side to move, the move number kept. The
    /// history is not carried over (the result starts a new game record), so repetition
    /// look-ups see only the position itself.
    ///
    /// A position and its turned twin must be judged alike by anything colour-blind (the
    /// evaluation, mate tests, move counts); tests use it to check that symmetry.
    #[must_use]
    pub fn turned(&self) -> Position {
        let mut pos = Position::empty();
        for (index, piece) in self.board.iter().enumerate() {
            if let Some(p) = piece {
                let sq = Square::from_index(index as u8).flip();
                pos.put_piece(Piece::new(!p.color(), p.kind()), sq);
            }
        }
        pos.hands = [self.hands[1], self.hands[0]];
        pos.side = !self.side;
        pos.move_number = self.move_number;
        pos.init_state();
        pos
    }

    /// The position with its files mirrored (left and right swapped), the same side to move and
    /// the same hands: the rules are symmetric so, and an evaluation should be too (the NNUE's
    /// trainer adds these twins to its data with `--mirror`).
    #[must_use]
    pub fn mirrored(&self) -> Position {
        let mut pos = Position::empty();
        for (index, piece) in self.board.iter().enumerate() {
            if let Some(p) = piece {
                pos.put_piece(*p, Square::from_index(index as u8).mirror());
            }
        }
        pos.hands = self.hands;
        pos.side = self.side;
        pos.move_number = self.move_number;
        pos.init_state();
        pos
    }

    /// The position as SFEN, hands in the canonical order `RBGSNLPrbgsnlp`.
    pub fn to_sfen(&self) -> String {
        format_sfen(
            |sq| self.piece_on(sq),
            |c, k| self.hands[c.index()].count(k),
            self.side,
            self.move_number,
        )
    }
}

/// The SFEN of a board (`piece_on`), hands (`in_hand`), side to move and move number, hands in
/// the canonical order `RBGSNLPrbgsnlp`. Any board is written, legal or not: for readers that
/// put a position together square by square and then check it with [`Position::from_sfen`].
pub fn format_sfen(
    piece_on: impl Fn(Square) -> Option<Piece>,
    in_hand: impl Fn(Color, PieceKind) -> u32,
    side: Color,
    move_number: u32,
) -> String {
    let mut s = String::with_capacity(96);
    for rank in 0..9u8 {
        let mut empty = 0;
        for file in (0..9u8).rev() {
            match piece_on(Square::from_index(file * 9 + rank)) {
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(s, "{empty}");
                        empty = 0;
                    }
                    let _ = write!(s, "{p}");
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        if rank < 8 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(side.to_char());
    s.push(' ');
    let order = PieceKind::HAND_BY_VALUE;
    let mut any = false;
    for c in Color::ALL {
        for k in order {
            let n = in_hand(c, k);
            if n > 0 {
                any = true;
                if n > 1 {
                    let _ = write!(s, "{n}");
                }
                let letter = k.base_letter();
                s.push(if c == Color::Black {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    if !any {
        s.push('-');
    }
    let _ = write!(s, " {move_number}");
    s
}

fn parse_board(pos: &mut Position, base: usize, text: &str) -> Result<(), SfenError> {
    let err = |i: usize, reason: String| SfenError::Board {
        offset: base + i,
        reason,
    };
    let bytes = text.as_bytes();
    let mut rank = 0u8;
    let mut file = 9u8; // files still to fill on this rank, counting down from 9
    let mut promoted = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' => {
                if promoted {
                    return Err(err(i, "`+` must be followed by a piece letter".into()));
                }
                if file != 0 {
                    return Err(err(
                        i,
                        format!("rank {} has {} squares, expected 9", rank + 1, 9 - file),
                    ));
                }
                rank += 1;
                if rank > 8 {
                    return Err(err(i, "more than 9 ranks".into()));
                }
                file = 9;
            }
            b'1'..=b'9' => {
                if promoted {
                    return Err(err(i, "`+` must be followed by a piece letter".into()));
                }
                let n = b - b'0';
                if n > file {
                    return Err(err(i, format!("rank {} has more than 9 squares", rank + 1)));
                }
                file -= n;
            }
            b'+' => {
                if promoted {
                    return Err(err(i, "`++` is not a piece".into()));
                }
                promoted = true;
            }
            _ => {
                let Some(kind) = PieceKind::from_letter(b) else {
                    return Err(err(
                        i,
                        format!("`{}` is not a piece letter", char::from(b).escape_default()),
                    ));
                };
                if file == 0 {
                    return Err(err(i, format!("rank {} has more than 9 squares", rank + 1)));
                }
                let kind = if promoted {
                    if !kind.can_promote() {
                        return Err(err(i, format!("`+{}` cannot be promoted", char::from(b))));
                    }
                    kind.promote()
                } else {
                    kind
                };
                promoted = false;
                let color = if b.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                file -= 1;
                let (Some(f), Some(r)) = (File::new(file), Rank::new(rank)) else {
                    unreachable!()
                };
                let sq = Square::from_file_rank(f, r);
                if kind == PieceKind::King && pos.kings[color.index()].is_some() {
                    return Err(err(i, format!("a second {color:?} king")));
                }
                if dead_ranks(color, kind).contains(sq) {
                    return Err(err(i, format!("{} on {sq} could never move", Piece::new(color, kind))));
                }
                pos.put_piece(Piece::new(color, kind), sq);
            }
        }
        i += 1;
    }
    if promoted {
        return Err(err(bytes.len(), "`+` at the end of the board".into()));
    }
    if rank != 8 || file != 0 {
        return Err(err(
            bytes.len(),
            format!(
                "the board ends at rank {}, square {}: expected 9 full ranks",
                rank + 1,
                9 - file
            ),
        ));
    }
    Ok(())
}

fn parse_hand(pos: &mut Position, base: usize, text: &str) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let err = |i: usize, reason: String| SfenError::Hand {
        offset: base + i,
        reason,
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let mut n: u32 = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            n = n.saturating_mul(10).saturating_add(u32::from(bytes[i] - b'0'));
            i += 1;
        }
        let count = if i == start { 1 } else { n };
        if i < bytes.len() && count == 0 {
            return Err(err(start, "a count of 0".into()));
        }
        let Some(&b) = bytes.get(i) else {
            return Err(err(start, "a count with no piece letter".into()));
        };
        let kind = match PieceKind::from_letter(b) {
            Some(k) if k != PieceKind::King => k,
            _ => {
                return Err(err(
                    i,
                    format!("`{}` is not a hand piece", char::from(b).escape_default()),
                ));
            }
        };
        let color = if b.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let have = pos.hands[color.index()].count(kind);
        if have.saturating_add(count) > Hand::capacity(kind) {
            return Err(err(
                start,
                format!("more than {} {kind:?} pieces in hand", Hand::capacity(kind)),
            ));
        }
        pos.hands[color.index()].set(kind, have + count);
        i += 1;
    }
    Ok(())
}

/// The checks of a parsed position beyond its fields' syntax (also for [`Position::unpack`]).
pub(super) fn validate(pos: &Position) -> Result<(), SfenError> {
    // More pieces of a kind than one set has are accepted (test suites use such positions,
    // and cshogi accepts them) as long as every capture still fits in a hand.
    for kind in PieceKind::HAND {
        let on_board = (pos.kind_bb(kind) | pos.kind_bb(kind.promote())).count();
        let in_hands = pos.hands[0].count(kind) + pos.hands[1].count(kind);
        if on_board + in_hands > Hand::capacity(kind) {
            return Err(SfenError::Illegal(format!(
                "{} {kind:?} pieces on board and in hand; at most {} can be represented (a set has {})",
                on_board + in_hands,
                Hand::capacity(kind),
                kind.full_set_count()
            )));
        }
    }
    for c in Color::ALL {
        let pawns = pos.pieces_of(c, PieceKind::Pawn);
        for f in 0..9 {
            if (pawns & crate::attacks::file_mask(f)).has_more_than_one() {
                return Err(SfenError::Illegal(format!(
                    "two unpromoted {c:?} pawns on file {} (nifu)",
                    f + 1
                )));
            }
        }
    }
    let waiting = !pos.side;
    if let Some(k) = pos.kings[waiting.index()]
        && pos.is_attacked(pos.side, k)
    {
        return Err(SfenError::Illegal(format!(
            "{waiting:?} is not to move but its king on {k} is in check"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            STARTPOS_SFEN,
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
        ] {
            assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
        }
    }

    #[test]
    fn mirrored_positions_swap_left_and_right() {
        // Typed by hand: 9i → 1i, 8i → 2i, 5a stays, 3c → 7c; hands and side stay.
        let p = Position::from_sfen("4k4/9/6p2/9/9/9/9/9/K+R7 w G2p 7").unwrap();
        assert_eq!(p.mirrored().to_sfen(), "4k4/9/2p6/9/9/9/9/9/7+RK w G2p 7");
        // The start position's rooks and bishops change places.
        assert_eq!(
            Position::startpos().mirrored().to_sfen(),
            "lnsgkgsnl/1b5r1/ppppppppp/9/9/9/PPPPPPPPP/1R5B1/LNSGKGSNL b - 1"
        );
        let mid = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").unwrap();
        assert_eq!(mid.mirrored().mirrored().to_sfen(), mid.to_sfen());
        assert_eq!(mid.mirrored().legal_moves().len(), mid.legal_moves().len());
        assert_eq!(mid.mirrored().in_check(), mid.in_check());
    }

    #[test]
    fn turned_positions_are_the_same_game_seen_from_the_other_side() {
        // Typed by hand: Black's king on 9i and dragon on 8i become White's on 1a and 2a,
        // White's king on 5a becomes Black's on 5i; the hands change owners.
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/K+R7 b G2p 7").unwrap();
        assert_eq!(p.turned().to_sfen(), "7+rk/9/9/9/9/9/9/9/4K4 w 2Pg 7");
        // The start position is its own twin with the other side to move.
        assert_eq!(
            Position::startpos().turned().to_sfen(),
            STARTPOS_SFEN.replace(" b ", " w ")
        );
        for s in [
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "lnsgkgsnl/1r5b1/p1ppppppp/9/1p7/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 3",
        ] {
            let p = Position::from_sfen(s).unwrap();
            let t = p.turned();
            assert_ne!(t.to_sfen(), s);
            assert_eq!(t.turned().to_sfen(), s);
            // Keys are rebuilt, not copied: they must be those of a freshly parsed twin.
            let parsed = Position::from_sfen(&t.to_sfen()).unwrap();
            assert_eq!((t.board_key(), t.hand_key()), (parsed.board_key(), parsed.hand_key()));
            assert_eq!(t.legal_moves().len(), p.legal_moves().len(), "{s}");
            assert_eq!(t.in_check(), p.in_check(), "{s}");
        }
    }

    #[test]
    fn missing_move_number_and_repeated_hand_letters() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b PPG2P").unwrap();
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/9 b G4P 1");
    }

    #[test]
    fn errors_name_field_and_offset() {
        let e = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1").unwrap_err();
        assert_eq!(
            e,
            SfenError::Board {
                offset: 56,
                reason: "`X` is not a piece letter".into()
            }
        );
        let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 x - 1").unwrap_err();
        assert!(matches!(e, SfenError::Side { offset: 20, .. }), "{e:?}");
        let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b 3K 1").unwrap_err();
        assert!(matches!(e, SfenError::Hand { offset: 23, .. }), "{e:?}");
        let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b - x1").unwrap_err();
        assert!(matches!(e, SfenError::MoveNumber { offset: 24, .. }), "{e:?}");
        assert!(matches!(
            Position::from_sfen("").unwrap_err(),
            SfenError::FieldCount { found: 0 }
        ));
    }
}
