//! Whether a position is a mate problem at all. The SFEN reader already refuses two kings of a
//! side and the side not to move in check; what it lets through for game and test positions,
//! but no mate problem can be, is caught here, so that `go mate` answers `checkmate nomate`
//! with an `info string` saying why instead of searching.

use soppo_core::{Color, PieceKind, Position, Square};
use std::fmt;

/// Why a position is not a mate problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAProblem {
    /// The side not to move (the defender) has no king: there is nothing to mate.
    NoKingToMate(Color),
    /// More pieces of a kind, on the board and in both hands, than a set holds (the
    /// defender's hand is every piece left over; here none is).
    TooManyPieces { kind: PieceKind, count: u32 },
}

impl fmt::Display for NotAProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NotAProblem::NoKingToMate(c) => write!(f, "{} has no king to mate", color_name(c)),
            NotAProblem::TooManyPieces { kind, count } => write!(
                f,
                "{count} {}s on the board and in hand, where a set has {}",
                kind_name(kind),
                kind.full_set_count()
            ),
        }
    }
}

impl std::error::Error for NotAProblem {}

/// The English name of a hand piece's kind.
fn kind_name(kind: PieceKind) -> &'static str {
    match kind.unpromote() {
        PieceKind::Pawn => "pawn",
        PieceKind::Lance => "lance",
        PieceKind::Knight => "knight",
        PieceKind::Silver => "silver",
        PieceKind::Gold => "gold",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        _ => "king",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The first reason `pos` is not a mate problem of the side to move, if there is one.
pub fn not_a_problem(pos: &Position) -> Option<NotAProblem> {
    let defender = !pos.side_to_move();
    if pos.king_square(defender).is_none() {
        return Some(NotAProblem::NoKingToMate(defender));
    }
    PieceKind::HAND.into_iter().find_map(|kind| {
        let on_board = Square::all()
            .filter(|&sq| pos.piece_on(sq).is_some_and(|p| p.kind().unpromote() == kind))
            .count();
        let in_hand = Color::ALL.into_iter().map(|c| pos.hand(c).count(kind)).sum::<u32>();
        let count = u32::try_from(on_board).unwrap_or(u32::MAX).saturating_add(in_hand);
        (count > kind.full_set_count()).then_some(NotAProblem::TooManyPieces { kind, count })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(sfen: &str) -> Option<NotAProblem> {
        not_a_problem(&Position::from_sfen(sfen).unwrap())
    }

    #[test]
    fn problems_pass_and_the_faults_are_named() {
        assert_eq!(check("4k4/9/4P4/9/9/9/9/9/9 b G 1"), None);
        assert_eq!(check("4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1"), None);
        assert_eq!(check("startpos"), None);
        assert_eq!(
            check("9/9/9/9/9/9/9/9/4K4 b G 1"),
            Some(NotAProblem::NoKingToMate(Color::White))
        );
        assert_eq!(
            check("4k4/9/9/9/9/9/9/9/9 w G 1"),
            Some(NotAProblem::NoKingToMate(Color::Black))
        );
        let three_rooks = check("4k4/9/9/9/9/9/9/9/+R8 b Rr 1");
        assert_eq!(
            three_rooks,
            Some(NotAProblem::TooManyPieces {
                kind: PieceKind::Rook,
                count: 3
            })
        );
        assert_eq!(
            three_rooks.unwrap().to_string(),
            "3 rooks on the board and in hand, where a set has 2"
        );
        assert_eq!(
            check("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
            Some(NotAProblem::TooManyPieces {
                kind: PieceKind::Pawn,
                count: 19
            })
        );
        assert_eq!(
            check("9/9/9/9/9/9/9/9/4K4 b G 1").unwrap().to_string(),
            "White has no king to mate"
        );
    }
}
