//! CSA records (V2.2 and older): `V` version, `N+` / `N-` names, `$` information and `'`
//! comment lines; the start position from `PI` (with removed pieces, `PI82HI22KA`), `P1`..`P9`
//! board rows and `P+` / `P-` placements (`00AL`: every remaining piece to that hand); the side
//! to move `+` / `-`; moves `+7776FU` naming the piece as it stands after the move; times
//! `T12`; ends `%TORYO`…; several statements on one line separated by commas.
//!
//! A file of several games (separated by `/` lines) gives its first game only.

use crate::setup::{Replay, Setup};
use crate::{Format, GameRecord, KifuError};
use soppo_core::{Color, Piece, PieceKind, Position, Square};

/// CSA piece names in kind-number order (index 0 unused).
const NAMES: [&str; 15] = [
    "", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

fn kind_of(name: &[u8]) -> Option<PieceKind> {
    let i = NAMES.iter().position(|n| n.as_bytes() == name)?;
    PieceKind::from_u8(i as u8)
}

fn color_of(sign: u8) -> Option<Color> {
    match sign {
        b'+' => Some(Color::Black),
        b'-' => Some(Color::White),
        _ => None,
    }
}

/// The square of the two digits `xy` (file, rank); `None` for `00` or anything else.
fn square(xy: &[u8]) -> Option<Square> {
    match xy {
        &[f @ b'1'..=b'9', r @ b'1'..=b'9'] => Square::new((f - b'1') * 9 + (r - b'1')),
        _ => None,
    }
}

/// A move statement `+7776FU`: colour, origin (`None` for a drop, `00`), destination, and the
/// piece after the move.
fn parse_move(s: &[u8]) -> Option<(Color, Option<Square>, Square, PieceKind)> {
    let [sign, from @ .., tf, tr, k1, k2] = s else {
        return None;
    };
    let from = match from {
        b"00" => None,
        _ => Some(square(from)?),
    };
    Some((color_of(*sign)?, from, square(&[*tf, *tr])?, kind_of(&[*k1, *k2])?))
}

/// Whether a (trimmed) line is one only CSA has (for [`crate::detect_format`]).
pub(crate) fn is_csa_line(line: &str) -> bool {
    let b = line.as_bytes();
    line.starts_with("V2")
        || line.starts_with("PI")
        || matches!(b, [b'P', b'1'..=b'9', b'+' | b'-' | b' ', ..])
        || matches!(b, [b'P', b'+' | b'-', b'0'..=b'9', ..])
        || (b.len() == 7 && parse_move(b).is_some())
}

/// Reads a CSA record (already decoded).
pub(crate) fn parse(text: &str) -> Result<GameRecord, KifuError> {
    let mut setup: Option<Setup> = None;
    let mut setup_line = 0; // where the start position begins, for its errors
    let mut side: Option<Color> = None;
    let mut game: Option<Replay> = None;
    let mut end = None;
    'lines: for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        // Whole-line statements whose text may hold commas.
        if line.starts_with(['\'', '$', 'N']) {
            continue;
        }
        for stmt in line.split(',').map(str::trim) {
            let err = |reason: &str| KifuError::at(n, stmt, reason);
            let b = stmt.as_bytes();
            match b {
                [] | [b'V' | b'T', ..] => {}
                [b'\'', ..] => continue 'lines,
                [b'/', ..] => break 'lines,
                [b'%', ..] => {
                    end = Some(stmt.to_string());
                    break 'lines;
                }
                [b'P', ..] if game.is_some() => return Err(err("the start position is given after the first move")),
                [b'P', rest @ ..] => {
                    if setup.is_none() {
                        setup_line = n;
                    }
                    let s = setup.get_or_insert_with(Setup::empty);
                    position_statement(s, rest).map_err(|r| err(&r))?;
                }
                [sign @ (b'+' | b'-')] if game.is_none() => side = color_of(*sign),
                [b'+' | b'-', ..] => {
                    let Some((color, from, to, kind)) = parse_move(b) else {
                        return Err(err("not a CSA move"));
                    };
                    let game = if let Some(g) = &mut game {
                        g
                    } else {
                        let Some(s) = &mut setup else {
                            return Err(err("a move before the start position (PI or P1..P9)"));
                        };
                        s.side = side.unwrap_or(color);
                        let pos = s.position().map_err(|reason| KifuError::Line {
                            line: setup_line,
                            reason,
                        })?;
                        game.insert(Replay::new(pos))
                    };
                    if color != game.pos().side_to_move() {
                        return Err(err("the other side is to move"));
                    }
                    play(game, from, to, kind).map_err(|r| err(&r))?;
                }
                _ => return Err(err("not a CSA statement")),
            }
        }
    }
    if game.is_none()
        && let Some(s) = &mut setup
    {
        s.side = side.unwrap_or(Color::Black);
        let pos = s.position().map_err(|reason| KifuError::Line {
            line: setup_line,
            reason,
        })?;
        game = Some(Replay::new(pos));
    }
    game.map(|g| g.finish(end))
        .ok_or(KifuError::NoGame { format: Format::Csa })
}

/// Plays a move whose piece is `kind` after it (so a promotion shows as a changed name).
fn play(game: &mut Replay, from: Option<Square>, to: Square, kind: PieceKind) -> Result<(), String> {
    let Some(from) = from else {
        return game.play_drop(kind, to);
    };
    let before = game.own_piece(from)?;
    let promote = if before == kind {
        false
    } else if before.can_promote() && before.promote() == kind {
        true
    } else {
        let (b, k) = (NAMES[before.index()], NAMES[kind.index()]);
        return Err(format!("the piece on {from} is a {b}, not a {k}"));
    };
    game.play_board(from, to, promote)
}

/// A position statement after its `P`: `I…`, a board row `1`..`9`, or placements `+…` / `-…`.
fn position_statement(s: &mut Setup, rest: &[u8]) -> Result<(), String> {
    match rest {
        [b'I', removed @ ..] => {
            *s = Setup::of(&Position::startpos());
            for chunk in chunks4(removed)? {
                let sq = square(&chunk[..2]).ok_or("bad square")?;
                let kind = kind_of(&chunk[2..]).ok_or("bad piece name")?;
                let slot = &mut s.board[sq.index()];
                if slot.is_none_or(|p| p.kind() != kind) {
                    return Err(format!("no {} on {sq} to remove", NAMES[kind.index()]));
                }
                *slot = None;
            }
        }
        [r @ b'1'..=b'9', cells @ ..] => {
            // Nine three-character cells, file 9 first; trailing spaces may be trimmed.
            if cells.len() > 27 || !cells.is_ascii() {
                return Err("not a board row".into());
            }
            let rank = usize::from(r - b'1');
            for j in 0..9 {
                let byte = |k: usize| cells.get(j * 3 + k).copied().unwrap_or(b' ');
                s.board[(8 - j) * 9 + rank] = match [byte(0), byte(1), byte(2)] {
                    [b' ', b'*' | b' ', b' '] => None,
                    [sign, k1, k2] => {
                        let color = color_of(sign).ok_or("bad board cell")?;
                        Some(Piece::new(color, kind_of(&[k1, k2]).ok_or("bad piece name")?))
                    }
                };
            }
        }
        [sign @ (b'+' | b'-'), placements @ ..] => {
            let color = color_of(*sign).ok_or("bad sign")?;
            for chunk in chunks4(placements)? {
                if chunk == b"00AL" {
                    all_to_hand(s, color);
                    continue;
                }
                let kind = kind_of(&chunk[2..]).ok_or("bad piece name")?;
                match square(&chunk[..2]) {
                    Some(sq) => s.board[sq.index()] = Some(Piece::new(color, kind)),
                    None if &chunk[..2] == b"00" && PieceKind::HAND.contains(&kind) => {
                        s.hands[color.index()][kind.index()] += 1;
                    }
                    None => return Err("bad square".into()),
                }
            }
        }
        _ => return Err("not a position statement".into()),
    }
    Ok(())
}

/// `rest` in four-byte groups (`82HI`), or an error if it does not split so.
fn chunks4(rest: &[u8]) -> Result<std::slice::ChunksExact<'_, u8>, String> {
    if rest.len().is_multiple_of(4) {
        Ok(rest.chunks_exact(4))
    } else {
        Err("placements come in groups of four characters (`82HI`)".into())
    }
}

/// `00AL`: every piece of a full set not on the board or in a hand goes to `color`'s hand.
fn all_to_hand(s: &mut Setup, color: Color) {
    for kind in PieceKind::HAND {
        let on_board = s
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind().unpromote() == kind)
            .count() as u32;
        let in_hands = s.hands[0][kind.index()] + s.hands[1][kind.index()];
        let left = kind.full_set_count().saturating_sub(on_board + in_hands);
        s.hands[color.index()][kind.index()] += left;
    }
}
