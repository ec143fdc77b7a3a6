//! The opening book: `<BookDir>/<BookFile>` loaded at `isready` (once per file: a file is read
//! again only when it or `BookOnTheFly` changed), and a `go` answered from it when the
//! position is in it and the book options let a move through (see [`crate::book::choose`]).
//!
//! A book move is answered at once with an `info` line per move it was drawn from (the drawn
//! move last, as `multipv 1`, its book line as `pv`) and one `bestmove`; `go ponder` and `go
//! infinite` hold that answer for `ponderhit` or `stop` like a search's. `go mate` never uses
//! the book.

use super::Controller;
use super::job::{Answer, Job};
use crate::book::Book;
use crate::book::choose::{self, Legal};
use crate::paths::{self, FileState};
use crate::search::{Decision, ScoreValue, SearchControl, SearchInfo};
use soppo_core::{Move, Position};
use soppo_usi::GoParams;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// The book in use and what was last tried.
#[derive(Default)]
pub(super) struct Books {
    current: Option<Arc<Book>>,
    /// The file, its state and `BookOnTheFly` when last tried: the same again is not tried again.
    tried: Option<(PathBuf, Option<FileState>, bool)>,
}

/// The book file the options name, if they name one: `BookFile` in `BookDir` (a full path in
/// `BookFile` is taken as it is; a relative `BookDir` from the executable's folder).
pub fn book_path(options: &crate::options::Options) -> Option<PathBuf> {
    let s = &options.book;
    s.names_a_book().then(|| paths::resolve(&s.dir).join(s.file.trim()))
}

impl<W: Write> Controller<W> {
    /// Loads the book the options name unless that file, unchanged, was tried already.
    pub(super) fn ensure_book(&mut self) {
        let Some(path) = book_path(&self.options) else {
            self.books = Books::default();
            return;
        };
        let on_the_fly = self.options.book.on_the_fly;
        let key = (path.clone(), FileState::of(&path), on_the_fly);
        if self.books.tried.as_ref() == Some(&key) {
            return;
        }
        self.books.tried = Some(key);
        // The memory of the old book goes back before the new one is read.
        let old = self.books.current.take().map(|b| b.path().display().to_string());
        let shown = path.display().to_string();
        match Book::load(&path, on_the_fly) {
            Ok((book, r)) => {
                let mut text = format!(
                    "book: loaded {shown}: {} positions, {} moves in {} ms, {} MB in memory{}",
                    r.positions,
                    r.candidates,
                    r.elapsed.as_millis(),
                    book.memory_bytes().div_ceil(1 << 20),
                    if on_the_fly {
                        " (BookOnTheFly: moves read from the file)"
                    } else {
                        ""
                    }
                );
                if r.no_header {
                    text.push_str("; no #YANEURAOU-DB2016 header (read anyway)");
                }
                if r.duplicates > 0 {
                    let _ = write!(text, "; {} positions given more than once (merged)", r.duplicates);
                }
                if r.extra_fields > 0 {
                    let _ = write!(text, "; {} lines with fields past the count (ignored)", r.extra_fields);
                }
                if r.skipped > 0 {
                    let quoted: Vec<String> = r.quoted.iter().map(|(n, why)| format!("line {n}: {why}")).collect();
                    let _ = write!(text, "; {} lines skipped ({})", r.skipped, quoted.join("; "));
                }
                self.emit_info(&text);
                self.books.current = Some(Arc::new(book));
            }
            Err(why) => {
                let what = match &why {
                    crate::book::BookError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        format!("book: no file {shown}")
                    }
                    _ => format!("book: {shown}: {why}"),
                };
                let now = old.map_or_else(
                    || "no book is used".to_owned(),
                    |o| format!("the book {o} is no longer used"),
                );
                self.emit_info(&format!("{what}; {now}"));
            }
        }
    }

    /// Answers `go` from the book when the position is in it and a move passes the book's
    /// rules; `false` when the search is to answer.
    pub(super) fn go_from_book(&mut self, id: u64, go: &GoParams) -> bool {
        let Some(book) = self.books.current.clone() else {
            return false;
        };
        let settings = self.options.book.clone();
        if !choose::consulted(&self.position, &settings, &mut self.rng) {
            return false;
        }
        let found = match book.find(&self.position, settings.ignore_ply, settings.flipped) {
            Ok(Some(found)) => found,
            Ok(None) => return false,
            Err(why) => {
                self.emit_info(&format!("book: {}: {why}", book.path().display()));
                return false;
            }
        };
        let filtered = choose::filter(&self.position, &found, &settings);
        for note in &filtered.notes {
            self.emit_info(&format!("book: {note}"));
        }
        if filtered.eligible.is_empty() {
            return false;
        }
        let chosen = choose::draw(&filtered.eligible, settings.consider_count, &mut self.rng);
        // The other moves drawn from first: the line right before `bestmove` is the drawn
        // move's (GUIs take the last `pv` as the engine's line).
        let others = filtered.eligible.iter().filter(|l| l.mv != chosen.mv);
        for (i, l) in others.enumerate() {
            let info = self.book_info(&book, l, i as u32 + 2);
            self.emit(&super::report::info_message(&info));
        }
        let info = self.book_info(&book, &chosen, 1);
        self.emit(&super::report::info_message(&info));
        self.last_info = Some(info.clone());
        let ponder = self.book_ponder(&book, &chosen);
        let decision = Decision::Move {
            best: chosen.mv,
            ponder,
        };
        self.job = Some(Job {
            id,
            control: Arc::new(SearchControl::new(go.ponder, crate::search::Budget::default())),
            handle: None,
            held: go.ponder || go.infinite,
            answer: Some(Answer::Best(decision, Some(info))),
            is_mate: false,
            is_ponder: go.ponder,
        });
        if !(go.ponder || go.infinite) {
            self.deliver();
        }
        true
    }

    /// The `info` of a book move: its value and depth, and its line through the book.
    fn book_info(&self, book: &Book, l: &Legal, multipv: u32) -> SearchInfo {
        let depth = u32::try_from(l.candidate.depth).unwrap_or(0);
        SearchInfo {
            depth,
            seldepth: depth,
            multipv,
            score: ScoreValue::from_internal(l.candidate.value),
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: self.book_line(book, l.mv),
        }
    }

    /// `first` and then, while the book has the position, its first legal move, up to
    /// `BookPvMoves` moves; a repeated position ends the line.
    fn book_line(&self, book: &Book, first: Move) -> Vec<Move> {
        let s = &self.options.book;
        let mut pos = self.position.clone();
        let mut line = vec![first];
        let mut seen = vec![pos.key()];
        pos.do_move(first);
        while line.len() < s.pv_moves as usize && !seen.contains(&pos.key()) {
            seen.push(pos.key());
            let next = book
                .find(&pos, s.ignore_ply, s.flipped)
                .ok()
                .flatten()
                .and_then(|found| found.into_iter().find(|c| pos.is_legal_move(c.mv)));
            let Some(c) = next else { break };
            line.push(c.mv);
            pos.do_move(c.mv);
        }
        line
    }

    /// The ponder move of a book move: the book's, when legal; else the first legal move of
    /// the position after it, when the book has that position.
    fn book_ponder(&self, book: &Book, chosen: &Legal) -> Option<Move> {
        let mut pos: Position = self.position.clone();
        pos.do_move(chosen.mv);
        if let Some(p) = chosen.candidate.ponder.filter(|&p| pos.is_legal_move(p)) {
            return Some(p);
        }
        let s = &self.options.book;
        book.find(&pos, s.ignore_ply, s.flipped)
            .ok()
            .flatten()
            .and_then(|found| found.into_iter().map(|c| c.mv).find(|&m| pos.is_legal_move(m)))
    }

    /// `book`: the book's moves in the current position (value, depth, count), and those a
    /// move would be drawn from with the current options (`BookIgnoreRate` aside).
    pub(super) fn book_debug(&mut self) {
        self.ensure_book();
        let Some(book) = self.books.current.clone() else {
            self.emit_info("book: no book loaded (BookFile names none, or it could not be read)");
            return;
        };
        let s = self.options.book.clone();
        let found = match book.find(&self.position, s.ignore_ply, s.flipped) {
            Ok(Some(found)) => found,
            Ok(None) => {
                self.emit_info("book: this position is not in the book");
                return;
            }
            Err(why) => {
                self.emit_info(&format!("book: {}: {why}", book.path().display()));
                return;
            }
        };
        let listed: Vec<String> = found
            .iter()
            .map(|c| format!("{} (value {}, depth {}, count {})", c.mv, c.value, c.depth, c.count))
            .collect();
        self.emit_info(&format!("book: {} moves: {}", found.len(), listed.join(", ")));
        let filtered = choose::filter(&self.position, &found, &s);
        for note in &filtered.notes {
            self.emit_info(&format!("book: {note}"));
        }
        let past = if self.position.move_number() > s.moves {
            format!(
                " (but ply {} is past BookMoves {})",
                self.position.move_number(),
                s.moves
            )
        } else if !s.own_book {
            " (but USI_OwnBook is false)".to_owned()
        } else {
            String::new()
        };
        let eligible: Vec<String> = filtered.eligible.iter().map(|l| l.mv.to_string()).collect();
        self.emit_info(&format!("book: drawn from: {}{past}", eligible.join(" ")));
    }
}
