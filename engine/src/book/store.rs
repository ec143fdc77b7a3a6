//! A book file loaded once and looked up by position: an index of every position's key (the
//! Zobrist key of board, side to move and hands) and ply, sorted, found by binary search. The
//! candidates are held in memory, or, with `BookOnTheFly`, read from the file at each look-up
//! (the index alone then stays in memory: 24 bytes a position).
//!
//! Keys rather than SFEN text: the same position written with its hands in another order (GUIs
//! differ) is the same position. A position whose `sfen` line has no ply matches at any ply.
//! The same position given twice is merged as YaneuraOu merges it: a move given again takes
//! the later line's value and depth, and the counts add up.

use super::format::{self, Candidate, Line};
use crate::paths::FileState;
use soppo_core::Position;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

/// At most this many skipped lines are quoted in the load report (all are counted).
const QUOTED_SKIPS: usize = 3;
/// A position with more candidates than this is cut (no shogi position has more legal moves).
const MAX_CANDIDATES: usize = 600;

/// One position of the index.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The ply of the `sfen` line; 0 when it has none.
    ply: u32,
    /// Candidates (`len` of them) from `start`: an index into the candidates held in memory,
    /// or the file offset of the first candidate line.
    len: u32,
    start: u64,
}

/// A loaded book.
#[derive(Debug)]
pub struct Book {
    /// The file as it was loaded: a look-up on disk checks it is still the same file.
    state: FileState,
    /// Sorted by key, then by place in the file.
    entries: Vec<Entry>,
    /// The candidates in file order; `None` with `BookOnTheFly` (read from the file).
    candidates: Option<Vec<Candidate>>,
}

/// What loading found besides the positions.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub positions: usize,
    pub candidates: usize,
    /// Positions given more than once (merged).
    pub duplicates: usize,
    /// Lines not used, and the first few of them: (line number, why).
    pub skipped: usize,
    pub quoted: Vec<(usize, String)>,
    /// Candidate lines with fields beyond `move ponder value depth count` (ignored).
    pub extra_fields: usize,
    /// The file does not start with [`format::HEADER`].
    pub no_header: bool,
    pub elapsed: Duration,
}

/// Why a book cannot be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a file")]
    NotAFile,
    #[error("a binary file (an Apery `book.bin`?), not a YaneuraOu text book")]
    Binary,
    #[error("no position in it (not a YaneuraOu book?)")]
    Empty,
    #[error("more than 4,294,967,295 candidates")]
    TooLarge,
    #[error("the file changed since it was loaded (it is read again at the next isready)")]
    Changed,
}

impl LoadReport {
    /// Counts a line not used, quoting the first few.
    fn skip(&mut self, line: usize, why: String) {
        self.skipped += 1;
        if self.quoted.len() < QUOTED_SKIPS {
            self.quoted.push((line, why));
        }
    }
}

impl Book {
    /// Loads `path`; with `on_the_fly`, only the index is kept in memory.
    pub fn load(path: &Path, on_the_fly: bool) -> Result<(Book, LoadReport), BookError> {
        let started = Instant::now();
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() {
            return Err(BookError::NotAFile);
        }
        let state = FileState::of(path).ok_or(BookError::NotAFile)?;
        let mut reader = BufReader::with_capacity(1 << 20, File::open(path)?);
        if reader.fill_buf()?.iter().take(4096).any(|&b| b == 0) {
            return Err(BookError::Binary);
        }
        let mut report = LoadReport::default();
        let mut entries: Vec<Entry> = Vec::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        // The entry being read: its candidates follow its `sfen` line.
        let mut current: Option<Entry> = None;
        let mut offset = 0u64;
        let mut raw = Vec::new();
        let mut number = 0usize;
        loop {
            raw.clear();
            let read = reader.read_until(b'\n', &mut raw)?;
            if read == 0 {
                break;
            }
            offset += read as u64;
            number += 1;
            let text = String::from_utf8_lossy(&raw);
            if number == 1 {
                report.no_header = !text.trim_start_matches('\u{feff}').starts_with(format::HEADER);
            }
            match format::parse_line(&text) {
                Ok(Line::Nothing) => {}
                Ok(Line::Position(sfen)) => {
                    entries.extend(current.take().filter(|e| e.len > 0));
                    match format::parse_position(sfen) {
                        Ok((pos, ply)) => {
                            let start = if on_the_fly { offset } else { candidates.len() as u64 };
                            current = Some(Entry {
                                key: pos.key(),
                                ply: ply.unwrap_or(0),
                                len: 0,
                                start,
                            });
                        }
                        Err(why) => report.skip(number, format!("position skipped: {why}")),
                    }
                }
                Ok(Line::Candidate(c, extra)) => match current.as_mut() {
                    Some(e) if (e.len as usize) < MAX_CANDIDATES => {
                        e.len += 1;
                        report.candidates += 1;
                        report.extra_fields += usize::from(extra.0);
                        if !on_the_fly {
                            candidates.push(c);
                        }
                    }
                    Some(_) => report.skip(number, format!("more than {MAX_CANDIDATES} candidates")),
                    None => report.skip(number, "a candidate with no position before it".to_owned()),
                },
                Err(why) => {
                    report.skip(number, format!("`{}`: {why}", format::clip(text.trim())));
                }
            }
        }
        entries.extend(current.take().filter(|e| e.len > 0));
        if entries.is_empty() {
            return Err(BookError::Empty);
        }
        if candidates.len() > u32::MAX as usize {
            return Err(BookError::TooLarge);
        }
        entries.sort_unstable_by_key(|e| (e.key, e.start));
        report.positions = entries.len();
        report.duplicates = entries
            .windows(2)
            .filter(|w| w[0].key == w[1].key && w[0].ply == w[1].ply)
            .count();
        report.positions -= report.duplicates;
        entries.shrink_to_fit();
        candidates.shrink_to_fit();
        report.elapsed = started.elapsed();
        let book = Book {
            state,
            entries,
            candidates: (!on_the_fly).then_some(candidates),
        };
        Ok((book, report))
    }

    pub fn path(&self) -> &Path {
        &self.state.path
    }

    /// Whether the candidates are read from the file at each look-up.
    pub fn on_the_fly(&self) -> bool {
        self.candidates.is_none()
    }

    /// Bytes held in memory (the index and the candidates).
    pub fn memory_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entry>()
            + self
                .candidates
                .as_ref()
                .map_or(0, |c| c.capacity() * size_of::<Candidate>())
    }

    /// The candidates of `pos` in YaneuraOu's order (most played first, then best value; a
    /// stable sort over the file's order), or `None` when the position is not in the book.
    /// With `ignore_ply` the position matches at any ply (`IgnoreBookPly`); with `flipped` a
    /// position found only with its colours reversed is used, its moves turned round
    /// (`FlippedBook`).
    pub fn find(&self, pos: &Position, ignore_ply: bool, flipped: bool) -> Result<Option<Vec<Candidate>>, BookError> {
        let ply = pos.move_number();
        if let Some(found) = self.find_key(pos.key(), ply, ignore_ply)? {
            return Ok(Some(found));
        }
        if !flipped {
            return Ok(None);
        }
        let turned = pos.turned();
        Ok(self
            .find_key(turned.key(), ply, ignore_ply)?
            .map(|found| found.iter().map(Candidate::turned).collect()))
    }

    fn find_key(&self, key: u64, ply: u32, ignore_ply: bool) -> Result<Option<Vec<Candidate>>, BookError> {
        let first = self.entries.partition_point(|e| e.key < key);
        let matching = self.entries[first..]
            .iter()
            .take_while(|e| e.key == key)
            .filter(|e| ignore_ply || e.ply == ply || e.ply == 0);
        let mut merged: Vec<Candidate> = Vec::new();
        let mut any = false;
        for entry in matching {
            any = true;
            for c in self.read_entry(entry)? {
                // YaneuraOu's merge of a position given twice: the later line wins, the
                // counts add up.
                match merged.iter_mut().find(|m| m.mv == c.mv) {
                    Some(m) => {
                        *m = Candidate {
                            count: m.count.saturating_add(c.count),
                            ..c
                        }
                    }
                    None => merged.push(c),
                }
            }
        }
        if !any {
            return Ok(None);
        }
        merged.sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
        Ok(Some(merged))
    }

    fn read_entry(&self, entry: &Entry) -> Result<Vec<Candidate>, BookError> {
        if let Some(all) = &self.candidates {
            let start = entry.start as usize;
            return Ok(all[start..start + entry.len as usize].to_vec());
        }
        if FileState::of(&self.state.path).as_ref() != Some(&self.state) {
            return Err(BookError::Changed);
        }
        let mut file = File::open(&self.state.path)?;
        file.seek(SeekFrom::Start(entry.start))?;
        // The entry's lines were read at loading: a bound on what is read again.
        let reader = BufReader::new(file.take(64 * 1024));
        let mut out = Vec::with_capacity(entry.len as usize);
        for line in reader.split(b'\n') {
            if out.len() == entry.len as usize {
                break;
            }
            // The same lines as loading used: comments and lines it skipped are skipped.
            match format::parse_line(&String::from_utf8_lossy(&line?)) {
                Ok(Line::Candidate(c, _)) => out.push(c),
                Ok(Line::Nothing) | Err(_) => {}
                Ok(Line::Position(_)) => break,
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use soppo_core::Move;
    use std::io::Write;
    use std::path::PathBuf;

    fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
        let path = dir.join(name);
        std::fs::File::create(&path).unwrap().write_all(text).unwrap();
        path
    }

    fn moves(found: &[Candidate]) -> Vec<String> {
        found.iter().map(|c| c.mv.to_string()).collect()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("soppo-book-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn both_storages_find_the_same_candidates_in_yaneuraous_order() {
        let dir = temp_dir("order");
        let text = format!(
            "{}\r\nsfen {START}\r\n2g2f none 10 16 1\r\n7g7f 3c3d 40 16 5\r\n5g5f none 60 16 1\r\n\
             sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n8c8d none -20 16 3\n",
            format::HEADER
        );
        let path = write(&dir, "a.db", text.as_bytes());
        for on_the_fly in [false, true] {
            let (book, report) = Book::load(&path, on_the_fly).unwrap();
            assert_eq!((report.positions, report.candidates, report.skipped), (2, 4, 0));
            assert!(!report.no_header);
            let found = book.find(&Position::startpos(), false, false).unwrap().unwrap();
            assert_eq!(moves(&found), ["7g7f", "5g5f", "2g2f"], "{on_the_fly}");
            assert_eq!(found[0].ponder, Move::from_usi("3c3d").ok());
            let after = Position::from_usi_moves(None, &["7g7f"]).unwrap();
            assert_eq!(moves(&book.find(&after, false, false).unwrap().unwrap()), ["8c8d"]);
            // The wrong ply is not the position, unless plies are ignored.
            let later = Position::from_sfen(&START.replace(" 1", " 3")).unwrap();
            assert!(book.find(&later, false, false).unwrap().is_none());
            assert!(book.find(&later, true, false).unwrap().is_some());
        }
    }

    #[test]
    fn a_position_is_found_with_colours_reversed_and_its_moves_turned() {
        let dir = temp_dir("flip");
        // White to move in the starting position's mirror image: the turned start position.
        let text = format!("sfen {}\n3c3d 7g7f 40 16 5\n", Position::startpos().turned().to_sfen());
        let path = write(&dir, "f.db", text.as_bytes());
        let (book, report) = Book::load(&path, false).unwrap();
        assert!(report.no_header);
        let start = Position::startpos();
        assert!(book.find(&start, false, false).unwrap().is_none());
        let found = book.find(&start, false, true).unwrap().unwrap();
        assert_eq!(moves(&found), ["7g7f"]);
        assert_eq!(found[0].ponder, Move::from_usi("3c3d").ok());
    }

    #[test]
    fn duplicates_merge_and_bad_lines_are_reported_not_fatal() {
        let dir = temp_dir("bad");
        let text = format!(
            "\u{feff}{}\n7g7f none 1 1 1\nsfen {START}\n7g7f none 10 16 2\n7g7x none 1 1 1\n2g2f none 5 16 1\n\
             sfen nonsense b - 1\n1a1b none 0 0 1\nsfen {START}\n7g7f none 30 18 3 extra\nsfen {START}\n2g2f none",
            format::HEADER
        );
        let path = write(&dir, "d.db", text.as_bytes());
        for on_the_fly in [false, true] {
            let (book, report) = Book::load(&path, on_the_fly).unwrap();
            assert!(!report.no_header, "a BOM before the header is allowed");
            assert_eq!(report.duplicates, 2, "{report:?}");
            assert_eq!(report.positions, 1);
            assert_eq!(report.extra_fields, 1);
            // The orphan candidate, `7g7x`, the bad position and its candidate.
            assert_eq!(report.skipped, 4, "{report:?}");
            assert_eq!(report.quoted[0].0, 2);
            assert!(report.quoted[1].1.contains("7g7x"), "{report:?}");
            let found = book.find(&Position::startpos(), false, false).unwrap().unwrap();
            // 7g7f: the later line's value and depth, counts 2 + 3; 2g2f: counts 1 + 1 (the
            // truncated last line reads with its defaults).
            assert_eq!(
                found
                    .iter()
                    .map(|c| (c.mv.to_string(), c.value, c.depth, c.count))
                    .collect::<Vec<_>>(),
                [("7g7f".to_owned(), 30, 18, 5), ("2g2f".to_owned(), 0, 0, 2)],
                "{on_the_fly}"
            );
        }
    }

    #[test]
    fn files_that_are_not_books_are_refused() {
        let dir = temp_dir("refused");
        let empty = write(&dir, "empty.db", b"");
        assert!(matches!(Book::load(&empty, false), Err(BookError::Empty)));
        let header_only = write(&dir, "header.db", format!("{}\n", format::HEADER).as_bytes());
        assert!(matches!(Book::load(&header_only, false), Err(BookError::Empty)));
        let binary = write(&dir, "book.bin", &[0x12, 0, 0x34, 0, 0xff, 0x7f]);
        assert!(matches!(Book::load(&binary, false), Err(BookError::Binary)));
        assert!(matches!(Book::load(&dir, false), Err(BookError::NotAFile)));
        assert!(matches!(
            Book::load(&dir.join("missing.db"), false),
            Err(BookError::Io(_))
        ));
        let kif = write(&dir, "game.kif", "手合割：平手\n1 ７六歩(77)\n".as_bytes());
        assert!(matches!(Book::load(&kif, false), Err(BookError::Empty)));
    }

    #[test]
    fn a_book_changed_on_disk_is_not_read_on_the_fly() {
        let dir = temp_dir("changed");
        let path = write(&dir, "c.db", format!("sfen {START}\n7g7f none 0 16 1\n").as_bytes());
        let (book, _) = Book::load(&path, true).unwrap();
        assert!(book.find(&Position::startpos(), false, false).unwrap().is_some());
        write(
            &dir,
            "c.db",
            format!("sfen {START}\n2g2f none 0 16 1\n7g7f none 0 0 1\n").as_bytes(),
        );
        assert!(matches!(
            book.find(&Position::startpos(), false, false),
            Err(BookError::Changed)
        ));
    }
}
