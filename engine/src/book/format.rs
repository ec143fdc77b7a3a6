//! YaneuraOu's text book format (`.db`), line by line: the header, `sfen` lines that start a
//! position, and candidate lines `move ponder value depth count`.
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! 7g7f 3c3d 50 16 12
//! 2g2f none 42 16 3
//! ```
//!
//! Lines starting `#` or `//` are comments; `ponder` may be `none`; `value`, `depth` and
//! `count` may be left out (0, 0 and 1, as YaneuraOu reads them). The value is in the
//! evaluation's internal units (a pawn about 90) from the mover's view, the depth the search's.

use soppo_core::{Move, Position};
use std::fmt::Write as _;

/// The first line of a book YaneuraOu writes.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One candidate move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// How often the move was played (YaneuraOu's "count"; 1 when the line has none).
    pub count: u64,
    /// The move's value, internal units, from the mover's view.
    pub value: i32,
    /// The depth the value was searched to.
    pub depth: i32,
    pub mv: Move,
    /// The expected reply, if the book names one.
    pub ponder: Option<Move>,
}

impl Candidate {
    /// The candidate line, as YaneuraOu writes it.
    pub fn to_line(&self) -> String {
        let ponder = self.ponder.map_or_else(|| "none".to_owned(), |m| m.to_string());
        format!("{} {ponder} {} {} {}", self.mv, self.value, self.depth, self.count)
    }

    /// The same candidate for the position turned half a turn (see [`Position::turned`]).
    #[must_use]
    pub fn turned(&self) -> Candidate {
        Candidate {
            mv: turn_move(self.mv),
            ponder: self.ponder.map(turn_move),
            ..*self
        }
    }
}

/// `m` on the board turned half a turn: each square through the centre.
fn turn_move(m: Move) -> Move {
    if m.is_drop() {
        Move::drop(m.dropped_kind(), m.to().flip())
    } else {
        Move::normal(m.from().flip(), m.to().flip(), m.is_promotion())
    }
}

/// What a line of a book is.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// Blank, the header, or a comment.
    Nothing,
    /// `sfen <board> <side> <hands> [<ply>]`: the SFEN text without the `sfen ` prefix.
    Position(&'a str),
    Candidate(Candidate, ExtraFields),
}

/// Whether a candidate line had fields beyond `move ponder value depth count` (ignored).
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub struct ExtraFields(pub bool);

/// Reads one line (without its line end; a `\r` and a leading BOM are allowed). `Err` says why
/// the line cannot be used.
pub fn parse_line(line: &str) -> Result<Line<'_>, String> {
    let line = line.trim_start_matches('\u{feff}').trim();
    if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
        return Ok(Line::Nothing);
    }
    if let Some(sfen) = line.strip_prefix("sfen ") {
        return Ok(Line::Position(sfen.trim()));
    }
    parse_candidate(line).map(|(c, extra)| Line::Candidate(c, extra))
}

fn parse_candidate(line: &str) -> Result<(Candidate, ExtraFields), String> {
    let mut fields = line.split_ascii_whitespace();
    let move_text = fields.next().unwrap_or_default();
    let mv = Move::from_usi(move_text).map_err(|e| e.to_string())?;
    let ponder = match fields.next() {
        None | Some("none" | "None" | "resign") => None,
        Some(text) => Some(Move::from_usi(text).map_err(|e| format!("ponder move: {e}"))?),
    };
    let mut number = |name: &str, default: i64| -> Result<i64, String> {
        fields.next().map_or(Ok(default), |text| {
            text.parse::<i64>()
                .map_err(|_| format!("{name} `{}` is not a whole number", clip(text)))
        })
    };
    let value = number("value", 0)?;
    let depth = number("depth", 0)?;
    let count = number("count", 1)?;
    let candidate = Candidate {
        count: u64::try_from(count).map_err(|_| format!("count {count} is negative"))?,
        value: i32::try_from(value).map_err(|_| format!("value {value} is out of range"))?,
        depth: i32::try_from(depth).map_err(|_| format!("depth {depth} is out of range"))?,
        mv,
        ponder,
    };
    Ok((candidate, ExtraFields(fields.next().is_some())))
}

/// At most 24 characters of `text`, for messages.
pub fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(24).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

/// The position of a `sfen` line's text and the ply it names (`None` when the line has none).
pub fn parse_position(sfen: &str) -> Result<(Position, Option<u32>), String> {
    let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
    let (board, ply) = match fields.len() {
        3 => (fields.join(" "), None),
        4 => {
            let ply = fields[3]
                .parse::<u32>()
                .ok()
                .filter(|&p| p > 0)
                .ok_or_else(|| format!("ply `{}` is not a positive whole number", clip(fields[3])))?;
            (fields[..3].join(" "), Some(ply))
        }
        n => {
            return Err(format!(
                "a position has 3 or 4 fields (board, side, hands, ply), found {n}"
            ));
        }
    };
    let pos = Position::from_sfen(&format!("{board} 1")).map_err(|e| e.to_string())?;
    Ok((pos, ply))
}

/// A book's text: the header, then each position (SFEN with its ply) and its candidates, in
/// the order given. YaneuraOu finds positions by their SFEN text, so the SFEN is written the
/// way it writes it ([`Position::to_sfen`]: hands in the order `RBGSNLPrbgsnlp`).
pub fn write_book<'a>(positions: impl IntoIterator<Item = (&'a Position, &'a [Candidate])>) -> String {
    let mut out = String::new();
    out.push_str(HEADER);
    out.push('\n');
    for (pos, candidates) in positions {
        let _ = writeln!(out, "sfen {}", pos.to_sfen());
        for c in candidates {
            out.push_str(&c.to_line());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::from_usi(text).unwrap()
    }

    #[test]
    fn candidate_lines_in_every_form_yaneuraou_reads() {
        let full = parse_line("7g7f 3c3d 50 16 12").unwrap();
        let want = Candidate {
            count: 12,
            value: 50,
            depth: 16,
            mv: mv("7g7f"),
            ponder: Some(mv("3c3d")),
        };
        assert_eq!(full, Line::Candidate(want, ExtraFields(false)));
        let Line::Candidate(short, _) = parse_line("P*5e none\r").unwrap() else {
            panic!()
        };
        assert_eq!((short.ponder, short.value, short.depth, short.count), (None, 0, 0, 1));
        assert_eq!(short.mv, mv("P*5e"));
        let Line::Candidate(extra, ExtraFields(true)) = parse_line("8h2b+ none -30 20 0 7 win").unwrap() else {
            panic!()
        };
        assert_eq!((extra.value, extra.depth, extra.count), (-30, 20, 0));
        assert_eq!(want.to_line(), "7g7f 3c3d 50 16 12");
    }

    #[test]
    fn comments_headers_and_positions() {
        assert_eq!(parse_line("\u{feff}#YANEURAOU-DB2016 1.00"), Ok(Line::Nothing));
        assert_eq!(parse_line("// a note"), Ok(Line::Nothing));
        assert_eq!(parse_line("   "), Ok(Line::Nothing));
        assert_eq!(
            parse_line("sfen 4k4/9/9/9/9/9/9/9/4K4 b G 3\r"),
            Ok(Line::Position("4k4/9/9/9/9/9/9/9/4K4 b G 3"))
        );
        let (pos, ply) = parse_position("4k4/9/9/9/9/9/9/9/4K4 b G 3").unwrap();
        assert_eq!(ply, Some(3));
        assert_eq!(pos.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
        assert_eq!(parse_position("4k4/9/9/9/9/9/9/9/4K4 w -").unwrap().1, None);
    }

    #[test]
    fn malformed_lines_say_why() {
        for (line, why) in [
            ("7g7x 3c3d", "not USI move text"),
            ("7g7f 3c3d fifty", "value `fifty`"),
            ("7g7f 3c3d 1 2 -3", "count -3 is negative"),
            ("7g7f 3c3z", "ponder move"),
            ("7g7f none 99999999999", "out of range"),
        ] {
            let err = parse_line(line).unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
        assert!(
            parse_position("4k4/9/9/9/9/9/9/9/4K4 b - x")
                .unwrap_err()
                .contains("ply")
        );
        assert!(
            parse_position("4k4/9/9/9/9/9/9/9/4K4 b - 1 2")
                .unwrap_err()
                .contains("fields")
        );
        assert!(parse_position("4k4/9/9/9/9/9/9/9/4K4X b - 1").is_err());
    }

    #[test]
    fn a_turned_candidate_turns_each_square() {
        let c = Candidate {
            count: 1,
            value: 0,
            depth: 0,
            mv: mv("7g7f"),
            ponder: Some(mv("P*5e")),
        };
        let t = c.turned();
        assert_eq!((t.mv, t.ponder), (mv("3c3d"), Some(mv("P*5e"))));
        assert_eq!(Candidate { mv: mv("8h2b+"), ..c }.turned().mv, mv("2b8h+"));
        assert_eq!(t.turned(), c);
    }

    #[test]
    fn a_written_book_reads_back() {
        let pos = Position::startpos();
        let cands = [Candidate {
            count: 2,
            value: -5,
            depth: 16,
            mv: mv("2g2f"),
            ponder: None,
        }];
        let text = write_book([(&pos, &cands[..])]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADER);
        assert_eq!(lines[1], format!("sfen {}", pos.to_sfen()));
        assert_eq!(parse_line(lines[2]), Ok(Line::Candidate(cands[0], ExtraFields(false))));
    }
}
