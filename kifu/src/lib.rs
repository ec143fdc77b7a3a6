//! Reads shogi game records, KIF (柿木形式, [`kif`]) and CSA ([`csa`]), into a start position
//! and the moves of the main line as legal USI moves; writes KIF with variations
//! ([`write_kif`]).
//!
//! Every move is resolved against the position it is played in (`soppo-core` checks its
//! legality), so a record that reads without error replays exactly. Errors carry the 1-based
//! line number and the offending text; no input makes the readers panic.
//!
//! ```
//! let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let game = soppo_kifu::read(kif.as_bytes(), soppo_kifu::Format::Kif).unwrap();
//! assert_eq!(game.moves, ["7g7f", "3c3d"]);
//! assert_eq!(game.end.as_deref(), Some("投了"));
//! ```

pub mod csa;
pub mod kif;
mod setup;
mod text;
mod write;

use std::fmt;
use std::path::Path;
use thiserror::Error;

pub use text::decode_text;
pub use write::{Variation, kif_file_bytes, kind_name, write_kif};

/// A game-record format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// KIF (柿木形式), `.kif` (usually Shift JIS) or `.kifu` (UTF-8).
    Kif,
    /// CSA, `.csa`.
    Csa,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Kif => "KIF",
            Format::Csa => "CSA",
        })
    }
}

/// One game: where it starts and the moves of its main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position as a full SFEN, move number included
    /// (`lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1` for an even game).
    pub start_sfen: String,
    /// The moves in USI notation, each legal in the position it is played in.
    pub moves: Vec<String>,
    /// How the record says the game ended, as written (`投了`, `%TORYO`), if it says.
    pub end: Option<String>,
}

impl GameRecord {
    /// The game as the argument of a USI `position` command: `sfen <start> moves <moves…>`.
    pub fn usi_position(&self) -> String {
        let mut s = format!("sfen {}", self.start_sfen);
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KifuError {
    /// The bytes hold NUL bytes: not a text file.
    #[error("binary file")]
    Binary,
    /// The bytes are neither UTF-8 nor Shift JIS (CP932).
    #[error("neither UTF-8 nor Shift_JIS text")]
    Encoding,
    /// A line that could not be read or a move that is not legal.
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    /// Nothing in the text says where a game starts or what was played.
    #[error("not a {format} file: no moves and no position")]
    NoGame { format: Format },
}

impl KifuError {
    /// The 1-based line the error is about, if it is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            KifuError::Line { line, .. } => Some(*line),
            _ => None,
        }
    }

    /// An error about `text` on `line`: "line 12: `７六歩(78)`: no piece on 7h".
    pub(crate) fn at(line: usize, text: &str, reason: impl fmt::Display) -> KifuError {
        // Quote at most a screenful of a long garbage line.
        let text: String = text.chars().take(40).collect();
        KifuError::Line {
            line,
            reason: format!("`{text}`: {reason}"),
        }
    }
}

/// Guesses the format of a record: by the extension of `path_or_name` (`.kif`, `.kifu`, `.csa`,
/// in any case), else by the first line of `bytes` that only one of the formats has.
pub fn detect_format(path_or_name: &str, bytes: &[u8]) -> Option<Format> {
    let ext = Path::new(path_or_name).extension().and_then(|e| e.to_str());
    match ext.map(str::to_ascii_lowercase).as_deref() {
        Some("kif" | "kifu") => return Some(Format::Kif),
        Some("csa") => return Some(Format::Csa),
        _ => {}
    }
    sniff(&decode_text(bytes).ok()?)
}

/// The content test of [`detect_format`].
fn sniff(text: &str) -> Option<Format> {
    text.lines().map(str::trim).find_map(|line| {
        if kif::is_kif_line(line) {
            Some(Format::Kif)
        } else if csa::is_csa_line(line) {
            Some(Format::Csa)
        } else {
            None
        }
    })
}

/// Reads one game from the bytes of a record in `format` (UTF-8 or Shift JIS, see
/// [`decode_text`]). A CSA file holding several games (separated by `/`) gives its first.
pub fn read(bytes: &[u8], format: Format) -> Result<GameRecord, KifuError> {
    let text = decode_text(bytes)?;
    match format {
        Format::Kif => kif::parse(&text),
        Format::Csa => csa::parse(&text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(detect_format("a/b.KIF", b""), Some(Format::Kif));
        assert_eq!(detect_format("x.kifu", b""), Some(Format::Kif));
        assert_eq!(detect_format("x.csa", b""), Some(Format::Csa));
        assert_eq!(detect_format("x.txt", "V2.2\nPI\n+\n".as_bytes()), Some(Format::Csa));
        assert_eq!(detect_format("x", "+\n+7776FU\n".as_bytes()), Some(Format::Csa));
        assert_eq!(
            detect_format("x", "開始日時：2024\n手合割：平手\n".as_bytes()),
            Some(Format::Kif)
        );
        assert_eq!(detect_format("x", "   1 ７六歩(77)\n".as_bytes()), Some(Format::Kif));
        assert_eq!(detect_format("x", b"hello\n"), None);
        assert_eq!(detect_format("x", b"\0\0"), None);
    }
}
