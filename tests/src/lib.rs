//! Shared helpers for the integration tests: finding and reading the known-answer data in
//! `shared/data` (beside the checkout), setting up positions and playing move lists.

use soppo_core::{Move, PieceKind, Position, STARTPOS_SFEN, Square};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Environment variable naming the shared data directory explicitly.
pub const SHARED_DATA_ENV: &str = "SOPPO_SHARED_DATA";

/// The shared data directory: `$SOPPO_SHARED_DATA` when set, else `shared/data` beside the
/// checkout (`<tests package>/../../shared/data`). `None` (after printing why) when the
/// default location does not exist: the caller should skip.
///
/// # Panics
/// When `SOPPO_SHARED_DATA` is set but is not a directory: asking for the data explicitly
/// and not getting it is an error, not a reason to skip.
pub fn shared_data_dir() -> Option<PathBuf> {
    let default = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("shared")
        .join("data");
    locate_data_dir(std::env::var_os(SHARED_DATA_ENV).map(PathBuf::from), &default)
}

/// [`shared_data_dir`] with its inputs given: the environment override and the default.
pub fn locate_data_dir(from_env: Option<PathBuf>, default: &Path) -> Option<PathBuf> {
    if let Some(dir) = from_env {
        assert!(dir.is_dir(), "{SHARED_DATA_ENV}={} is not a directory", dir.display());
        return Some(dir);
    }
    if default.is_dir() {
        Some(default.to_path_buf())
    } else {
        eprintln!(
            "skipping: ../shared/data not found at {} (shared data lives beside the checkout; \
             set {SHARED_DATA_ENV} to use another directory)",
            default.display()
        );
        None
    }
}

/// One record of a TSV file: its 1-based line number and its tab-separated columns.
#[derive(Debug, Clone)]
pub struct Record {
    pub line: usize,
    pub cols: Vec<String>,
}

impl Record {
    /// Column `i`, or a panic naming the line.
    pub fn col(&self, i: usize) -> &str {
        match self.cols.get(i) {
            Some(c) => c,
            None => panic!("line {}: no column {} in {:?}", self.line, i + 1, self.cols),
        }
    }

    /// The last column (the note, or the verified answer in some files).
    pub fn last(&self) -> &str {
        self.cols.last().map_or("", String::as_str)
    }
}

/// Splits TSV text into records, skipping blank lines and `#` comments.
pub fn parse_tsv(text: &str) -> Vec<Record> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Record {
            line: i + 1,
            cols: l.split('\t').map(|c| c.trim().to_string()).collect(),
        })
        .collect()
}

/// Reads `name` from the shared data directory. `None` (after printing a skip message) when
/// the directory is absent.
///
/// # Panics
/// When the directory exists but the file does not, or it cannot be read, or it is empty:
/// incomplete data must not pass silently.
pub fn load(name: &str) -> Option<Vec<Record>> {
    let dir = shared_data_dir()?;
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} exists but {name} cannot be read: {e}", dir.display()));
    let records = parse_tsv(&text);
    assert!(!records.is_empty(), "{} has no records", path.display());
    Some(records)
}

/// Parses an SFEN, panicking with the line number on failure.
pub fn position(line: usize, sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("line {line}: cannot parse SFEN `{sfen}`: {e}"))
}

/// The move tokens of a moves column (`-` or empty means none).
pub fn move_tokens(moves: &str) -> Vec<&str> {
    if moves.trim() == "-" {
        Vec::new()
    } else {
        moves.split_whitespace().collect()
    }
}

/// Plays USI moves, each of which must be legal.
pub fn play(pos: &mut Position, moves: &[&str]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        pos.do_move(m);
    }
    Ok(())
}

/// A USI `position` argument: `startpos [moves ...]` or `sfen <4 fields> [moves ...]`
/// (a bare SFEN is accepted too). Returns the start position and the move tokens.
pub fn parse_usi_position(text: &str) -> Result<(Position, Vec<&str>), String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (sfen, rest) = match tokens.first() {
        Some(&"startpos") => (STARTPOS_SFEN.to_string(), &tokens[1..]),
        Some(&"sfen") => {
            let end = tokens.iter().position(|t| *t == "moves").unwrap_or(tokens.len());
            (tokens[1..end].join(" "), &tokens[end..])
        }
        Some(_) => {
            let end = tokens.iter().position(|t| *t == "moves").unwrap_or(tokens.len());
            (tokens[..end].join(" "), &tokens[end..])
        }
        None => return Err("empty position".to_string()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", ms)) => ms.to_vec(),
        Some((t, _)) => return Err(format!("expected `moves`, found `{t}`")),
    };
    let pos = Position::from_sfen(&sfen).map_err(|e| format!("bad SFEN `{sfen}`: {e}"))?;
    Ok((pos, moves))
}

/// Every legal move that checkmates at once, found by playing each legal move (pawn-drop
/// mate is illegal, so it is never among them).
pub fn brute_force_mates(pos: &mut Position) -> Vec<Move> {
    let mut mates = Vec::new();
    for &m in &pos.legal_moves() {
        pos.do_move(m);
        if pos.is_checkmate() {
            mates.push(m);
        }
        pos.undo_move(m);
    }
    mates
}

/// Every move encoding: each board move with and without promotion, each drop of each hand
/// kind on each square. A superset of any position's legal moves.
pub fn all_move_encodings() -> Vec<Move> {
    let mut out = Vec::with_capacity(81 * 80 * 2 + 7 * 81);
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                out.push(Move::normal(from, to, false));
                out.push(Move::normal(from, to, true));
            }
        }
    }
    for kind in PieceKind::HAND {
        for to in Square::all() {
            out.push(Move::drop(kind, to));
        }
    }
    out
}

/// Whether the pseudo-legal `m` leaves the mover's king unattacked (played on a copy).
fn leaves_king_safe(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let mut after = pos.clone();
    after.do_move(m);
    after.king_square(us).is_none_or(|k| !after.is_attacked(!us, k))
}

/// Whether the pseudo-legal `m` is a pawn drop that checks and leaves the opponent no
/// king-safe reply at all (uchifuzume), decided by trying every move encoding.
pub fn is_pawn_drop_mate_slow(pos: &Position, m: Move, encodings: &[Move]) -> bool {
    if !(m.is_drop() && m.dropped_kind() == PieceKind::Pawn) {
        return false;
    }
    let mut after = pos.clone();
    after.do_move(m);
    after.in_check()
        && !encodings
            .iter()
            .any(|&r| after.is_pseudo_legal(r) && leaves_king_safe(&after, r))
}

/// The legal moves by brute force over every move encoding, independent of the move
/// generators and of the fast legality test: movement rules (`is_pseudo_legal`), then king
/// safety on a copy, then the pawn-drop-mate rule by trying every reply.
pub fn slow_legal_moves(pos: &Position, encodings: &[Move]) -> Vec<Move> {
    encodings
        .iter()
        .copied()
        .filter(|&m| pos.is_pseudo_legal(m) && leaves_king_safe(pos, m) && !is_pawn_drop_mate_slow(pos, m, encodings))
        .collect()
}

/// The board, side and hand fields of an SFEN (the move number dropped).
pub fn sfen_without_move_number(sfen: &str) -> String {
    sfen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// Pieces of a kind in a full set, by SFEN letter (upper case, unpromoted).
const SET_COUNTS: [(char, u32); 8] = [
    ('K', 2),
    ('R', 2),
    ('B', 2),
    ('G', 4),
    ('S', 4),
    ('N', 4),
    ('L', 4),
    ('P', 18),
];

/// Reads the SFEN text alone (independently of the core) and describes every kind with more
/// pieces on the board and in hand than a set has, e.g. `"5 L > 4"`. `None` when the
/// material fits in one set or the text is not SFEN-shaped enough to count.
pub fn over_full_material(sfen: &str) -> Option<String> {
    let mut fields = sfen.split_whitespace();
    let board = fields.next()?;
    let _side = fields.next()?;
    let hand = fields.next()?;
    let mut counts: BTreeMap<char, u32> = BTreeMap::new();
    for c in board.chars().filter(char::is_ascii_alphabetic) {
        *counts.entry(c.to_ascii_uppercase()).or_default() += 1;
    }
    if hand != "-" {
        let mut n = 0u32;
        for c in hand.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d;
            } else {
                *counts.entry(c.to_ascii_uppercase()).or_default() += n.max(1);
                n = 0;
            }
        }
    }
    let mut out = String::new();
    for (letter, max) in SET_COUNTS {
        let n = counts.get(&letter).copied().unwrap_or(0);
        if n > max {
            let _ = write!(out, "{}{n} {letter} > {max}", if out.is_empty() { "" } else { ", " });
        }
    }
    if out.is_empty() { None } else { Some(out) }
}

/// Pass counts per label, printed in label order.
#[derive(Debug, Default)]
pub struct Tally(pub BTreeMap<String, usize>);

impl Tally {
    pub fn add(&mut self, label: &str) {
        *self.0.entry(label.to_string()).or_default() += 1;
    }

    pub fn get(&self, label: &str) -> usize {
        self.0.get(label).copied().unwrap_or(0)
    }

    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    /// One line per label: `  label: n`.
    pub fn report(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.0 {
            let _ = writeln!(s, "  {k}: {v}");
        }
        s
    }
}

/// Collected failures: a test checks every record and then fails once, listing the first
/// ones (so one bad record does not hide the others).
#[derive(Debug, Default)]
pub struct Failures(pub Vec<String>);

impl Failures {
    pub fn push(&mut self, line: usize, msg: impl std::fmt::Display) {
        self.0.push(format!("line {line}: {msg}"));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Panics listing the failures (at most 40) if there are any.
    pub fn assert_none(&self, what: &str) {
        if self.0.is_empty() {
            return;
        }
        let mut s = format!("{what}: {} failure(s)\n", self.0.len());
        for f in self.0.iter().take(40) {
            let _ = writeln!(s, "  {f}");
        }
        if self.0.len() > 40 {
            let _ = writeln!(s, "  ... and {} more", self.0.len() - 40);
        }
        panic!("{s}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_skips_comments_and_blank_lines() {
        let r = parse_tsv("# c\n\na\tb\n  \nc\td\te\n");
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].line, r[0].col(1)), (3, "b"));
        assert_eq!((r[1].line, r[1].last()), (5, "e"));
    }

    #[test]
    fn data_dir_lookup() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let missing = here.join("no-such-shared-data-dir");
        assert_eq!(locate_data_dir(None, &missing), None, "absent data means skip");
        assert_eq!(locate_data_dir(None, here), Some(here.to_path_buf()));
        assert_eq!(
            locate_data_dir(Some(here.to_path_buf()), &missing),
            Some(here.to_path_buf())
        );
        let explicit_missing = std::panic::catch_unwind(|| locate_data_dir(Some(missing.clone()), here));
        assert!(
            explicit_missing.is_err(),
            "an explicit but missing directory is an error"
        );
    }

    #[test]
    fn material_count() {
        assert_eq!(over_full_material(STARTPOS_SFEN), None);
        assert_eq!(
            over_full_material("kl7/1p7/9/9/9/9/9/7P1/7LK b RB2G2S2N2L8Prb2g2s2nl8p 1").as_deref(),
            Some("5 L > 4")
        );
        assert_eq!(over_full_material("4k4/9/9/9/9/9/9/9/9 b 18P 1"), None);
        assert_eq!(
            over_full_material("4k4/9/9/9/9/9/9/9/9 b 18Pp 1").as_deref(),
            Some("19 P > 18")
        );
    }

    #[test]
    fn usi_positions() {
        let (p, ms) = parse_usi_position("startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(p.to_sfen(), STARTPOS_SFEN);
        assert_eq!(ms, ["7g7f", "3c3d"]);
        let text = format!("sfen {STARTPOS_SFEN} moves 7g7f");
        let (p, ms) = parse_usi_position(&text).unwrap();
        assert_eq!(p.to_sfen(), STARTPOS_SFEN);
        assert_eq!(ms, ["7g7f"]);
        assert!(parse_usi_position("startpos 7g7f").is_err());
    }
}
