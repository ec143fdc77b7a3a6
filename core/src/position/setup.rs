//! A position as a USI `position` command gives it: a start and the moves played from it.

use super::{Position, SfenError};
use crate::mv::MoveParseError;
use thiserror::Error;

/// The spellings of a pass (a null move) accepted among a `position` command's moves: `pass`
/// and `0000` (ShogiGUI's analysis sends them) and `null`.
pub const NULL_MOVE_TEXTS: [&str; 3] = ["pass", "0000", "null"];

/// Why [`Position::from_usi_moves`] refused a position. Moves are numbered from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error(transparent)]
    Sfen(#[from] SfenError),
    #[error("move {number} ({text}): {reason}")]
    Move {
        number: usize,
        text: String,
        reason: MoveParseError,
    },
    #[error("move {number} ({text}) passes while in check")]
    PassInCheck { number: usize, text: String },
}

impl Position {
    /// The position a USI `position` command describes: `sfen` (`None` for `startpos`) and
    /// then `moves`, each legal where it is played or a pass ([`NULL_MOVE_TEXTS`]) made
    /// while not in check. The first move that cannot be played refuses the whole command.
    pub fn from_usi_moves(sfen: Option<&str>, moves: &[impl AsRef<str>]) -> Result<Position, SetupError> {
        let mut pos = match sfen {
            None => Position::startpos(),
            Some(sfen) => Position::from_sfen(sfen)?,
        };
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let number = i + 1;
            if NULL_MOVE_TEXTS.contains(&text) {
                if pos.in_check() {
                    return Err(SetupError::PassInCheck {
                        number,
                        text: text.to_owned(),
                    });
                }
                pos.do_null_move();
                continue;
            }
            let m = pos.parse_move(text).map_err(|reason| SetupError::Move {
                number,
                text: text.to_owned(),
                reason,
            })?;
            pos.do_move(m);
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::STARTPOS_SFEN;

    #[test]
    fn start_and_moves() {
        let none: [&str; 0] = [];
        assert_eq!(Position::from_usi_moves(None, &none).unwrap().to_sfen(), STARTPOS_SFEN);
        let p = Position::from_usi_moves(Some(STARTPOS_SFEN), &["7g7f", "3c3d"]).unwrap();
        assert_eq!(
            p.to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        let owned = vec!["7g7f".to_string(), "3c3d".to_string()];
        assert_eq!(Position::from_usi_moves(None, &owned).unwrap().to_sfen(), p.to_sfen());
    }

    #[test]
    fn passes() {
        for pass in NULL_MOVE_TEXTS {
            let p = Position::from_usi_moves(None, &["7g7f", pass, "6g6f"]).unwrap();
            assert_eq!(p.side_to_move(), crate::Color::White);
        }
        // White's bishop drop checks Black, who may not pass.
        let sfen = "4k4/9/9/9/9/9/9/9/4K4 w b 1";
        let err = Position::from_usi_moves(Some(sfen), &["B*3g", "pass"]).unwrap_err();
        assert_eq!(
            err,
            SetupError::PassInCheck {
                number: 2,
                text: "pass".into()
            }
        );
        assert_eq!(err.to_string(), "move 2 (pass) passes while in check");
    }

    #[test]
    fn errors_say_which_move() {
        let err = Position::from_usi_moves(None, &["7g7f", "7g7f"]).unwrap_err();
        assert!(matches!(
            err,
            SetupError::Move {
                number: 2,
                reason: MoveParseError::Illegal(_),
                ..
            }
        ));
        assert_eq!(
            err.to_string(),
            "move 2 (7g7f): move 7g7f is not legal in this position"
        );
        let err = Position::from_usi_moves(None, &["xyz"]).unwrap_err();
        assert!(
            err.to_string().starts_with("move 1 (xyz): `xyz` is not USI move text"),
            "{err}"
        );
        let err = Position::from_usi_moves(Some("garbage"), &["7g7f"]).unwrap_err();
        assert!(matches!(err, SetupError::Sfen(SfenError::FieldCount { found: 1 })));
        assert_eq!(err.to_string(), SfenError::FieldCount { found: 1 }.to_string());
    }
}
