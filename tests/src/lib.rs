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

/// Random and mutated GUI lines against the real binary (see the module).
pub mod fuzz;

/// Driving the real `soppo` binary over USI: building it once per test process, a session
/// helper that checks every line the engine prints, and checks of its answers against the rules
/// core.
pub mod engine {
    use soppo_core::Position;
    use soppo_usi::{BestMove, CheckmateResult, EngineMessage, InfoAttr, parse_engine_line};
    use std::fmt::Write as _;
    use std::io::{BufRead, BufReader, Write};
    use std::path::{Path, PathBuf};
    use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
    use std::sync::OnceLock;
    use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
    use std::time::{Duration, Instant};

    /// Environment variable naming a prebuilt `soppo` binary to test instead of building one.
    pub const SOPPO_BIN_ENV: &str = "SOPPO_BIN";

    /// A generous safety net for answers that should come at once: not a speed claim.
    pub const PROMPT: Duration = Duration::from_secs(10);

    /// A safety net for searches that end on their own (depth, nodes or clock limits).
    pub const SEARCH: Duration = Duration::from_secs(30);

    /// The workspace root (the tests package's parent directory).
    pub fn workspace_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The release `soppo` binary, built once per test process with
    /// `cargo build --release -p soppo-engine --bin soppo` (cargo does not build another
    /// package's binaries for this package's tests). `$SOPPO_BIN` skips the build.
    ///
    /// # Panics
    /// When the build fails or the binary is missing afterwards.
    pub fn soppo_binary() -> PathBuf {
        static BINARY: OnceLock<PathBuf> = OnceLock::new();
        BINARY.get_or_init(build_soppo).clone()
    }

    fn build_soppo() -> PathBuf {
        if let Some(path) = std::env::var_os(SOPPO_BIN_ENV) {
            let path = PathBuf::from(path);
            assert!(path.is_file(), "{SOPPO_BIN_ENV}={} is not a file", path.display());
            return path;
        }
        let root = workspace_root();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(&cargo)
            .args(["build", "--release", "-p", "soppo-engine", "--bin", "soppo"])
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", Path::new(&cargo).display()));
        assert!(
            output.status.success(),
            "building soppo failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
        let target = if target.is_absolute() {
            target
        } else {
            root.join(target)
        };
        let binary = target
            .join("release")
            .join(format!("soppo{}", std::env::consts::EXE_SUFFIX));
        assert!(binary.is_file(), "built soppo but {} does not exist", binary.display());
        binary
    }

    /// Checks one line printed by the engine: 7-bit printable ASCII, not starting with `error`
    /// (that aborts a ShogiArena session), and a USI engine message.
    pub fn check_engine_line(raw: &[u8]) -> Result<EngineMessage, String> {
        let text = String::from_utf8_lossy(raw);
        if let Some(b) = raw.iter().find(|&&b| !(b == b' ' || b.is_ascii_graphic())) {
            return Err(format!("byte 0x{b:02x} is not printable ASCII in {text:?}"));
        }
        if text.starts_with("error") {
            return Err(format!("line starts with `error`: {text:?}"));
        }
        parse_engine_line(&text).map_err(|e| format!("not a USI engine message ({e}): {text:?}"))
    }

    /// What the reader thread reports.
    enum Event {
        Line(Vec<u8>),
        Eof,
    }

    /// One `soppo` process spoken to over USI. Every line it prints is checked with
    /// [`check_engine_line`] as it is read; a bad line fails the test with the transcript.
    /// Dropping the session kills the process.
    pub struct Engine {
        child: Child,
        stdin: Option<ChildStdin>,
        events: Receiver<Event>,
        eof: bool,
        /// Every line received so far, in order.
        received: Vec<String>,
        /// `> sent` and `< received` lines, for failure messages.
        transcript: Vec<String>,
        started: Instant,
    }

    impl Engine {
        /// Starts `soppo` with nothing said yet.
        pub fn spawn() -> Engine {
            let binary = soppo_binary();
            let mut child = Command::new(&binary)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
            let stdin = child.stdin.take();
            let stdout = child.stdout.take().expect("piped stdout");
            let (tx, events) = channel();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut buf = Vec::new();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            if buf.last() == Some(&b'\n') {
                                buf.pop();
                            }
                            if tx.send(Event::Line(buf)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Event::Eof);
            });
            Engine {
                child,
                stdin,
                events,
                eof: false,
                received: Vec::new(),
                transcript: Vec::new(),
                started: Instant::now(),
            }
        }

        /// Starts `soppo`, does the `usi` handshake, sets a small hash (`USI_Hash` 16 MB, so
        /// that parallel tests stay light) and waits for `readyok`.
        pub fn start() -> Engine {
            let mut e = Engine::spawn();
            e.send("usi");
            e.collect_until(|l| l == "usiok", PROMPT);
            e.send("setoption name USI_Hash value 16");
            e.sync();
            e
        }

        /// Sends one line (a `\n` is added).
        pub fn send(&mut self, line: &str) {
            self.transcript.push(format!("> {line}"));
            let mut bytes = line.as_bytes().to_vec();
            bytes.push(b'\n');
            self.write(&bytes);
        }

        /// Sends raw bytes as they are (no line end added).
        pub fn send_raw(&mut self, bytes: &[u8]) {
            self.transcript
                .push(format!("> (raw) {:?}", String::from_utf8_lossy(bytes)));
            self.write(bytes);
        }

        fn write(&mut self, bytes: &[u8]) {
            let Some(stdin) = self.stdin.as_mut() else {
                self.fail("writing after stdin was closed");
            };
            if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
                self.fail(&format!("cannot write to the engine (did it exit?): {e}"));
            }
        }

        /// Closes the engine's standard input (end of input).
        pub fn close_stdin(&mut self) {
            self.transcript.push("> (end of input)".into());
            self.stdin = None;
        }

        /// The next line, or `None` on timeout or end of output.
        pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
            if self.eof {
                return None;
            }
            match self.events.recv_timeout(timeout) {
                Ok(Event::Line(raw)) => Some(self.accept(&raw)),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    self.transcript.push("< (end of output)".into());
                    None
                }
                Err(RecvTimeoutError::Timeout) => None,
            }
        }

        fn accept(&mut self, raw: &[u8]) -> String {
            let text = String::from_utf8_lossy(raw).into_owned();
            self.transcript.push(format!("< {text}"));
            if let Err(why) = check_engine_line(raw) {
                self.fail(&why);
            }
            self.received.push(text.clone());
            if let Some(mv) = text.strip_prefix("bestmove ") {
                self.check_final_info(mv);
            }
            text
        }

        /// Checklist item 16: right before a `bestmove <move>`, an `info ... pv <move> ...`.
        fn check_final_info(&mut self, bestmove_args: &str) {
            let mv = bestmove_args.split_whitespace().next().unwrap_or("");
            if matches!(mv, "resign" | "win") {
                return;
            }
            let before = self.received.len().checked_sub(2).map(|i| self.received[i].clone());
            let pv_first = before.as_deref().and_then(pv_of).and_then(|pv| pv.first().cloned());
            if pv_first.as_deref() != Some(mv) {
                self.fail(&format!(
                    "`bestmove {mv}` is not right after an `info ... pv {mv} ...` line (line before: {before:?})"
                ));
            }
        }

        /// Reads lines until one satisfies `pred` and returns it.
        ///
        /// # Panics
        /// On timeout or end of output, with the transcript.
        pub fn expect_line(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> String {
            self.collect_until(pred, timeout)
                .pop()
                .expect("collect_until returns the matching line")
        }

        /// Reads lines until one satisfies `pred`; returns them all, the matching one last.
        ///
        /// # Panics
        /// On timeout or end of output, with the transcript.
        pub fn collect_until(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
            self.collect_until_named("the expected line", pred, timeout)
        }

        /// [`Engine::collect_until`], naming what is awaited in the failure message.
        fn collect_until_named(&mut self, what: &str, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
            let deadline = Instant::now() + timeout;
            let mut lines = Vec::new();
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.next_line(left) {
                    Some(line) => {
                        let done = pred(&line);
                        lines.push(line);
                        if done {
                            return lines;
                        }
                    }
                    None if self.eof => self.fail(&format!("the engine's output ended while waiting for {what}")),
                    None => self.fail(&format!("no {what} within {timeout:?}")),
                }
            }
        }

        /// Sends `isready` and waits for `readyok`; returns the lines before it. Because the
        /// engine handles commands in order, everything it printed for earlier commands that
        /// answer at once is in there.
        pub fn sync(&mut self) -> Vec<String> {
            self.send("isready");
            let mut lines = self.collect_until_named("`readyok` (answer to isready)", |l| l == "readyok", PROMPT);
            lines.pop();
            lines
        }

        /// Waits for the next `bestmove` line and returns it.
        pub fn bestmove(&mut self, timeout: Duration) -> String {
            let mut lines = self.collect_until_named("`bestmove`", |l| l.starts_with("bestmove"), timeout);
            lines.pop().expect("the matching line")
        }

        /// Waits for the next `checkmate` line and returns it.
        pub fn checkmate(&mut self, timeout: Duration) -> String {
            let mut lines = self.collect_until_named("`checkmate`", |l| l.starts_with("checkmate"), timeout);
            lines.pop().expect("the matching line")
        }

        /// Every line received so far.
        pub fn received(&self) -> &[String] {
            &self.received
        }

        /// How many lines received so far satisfy `pred`.
        pub fn count(&self, pred: impl Fn(&str) -> bool) -> usize {
            self.received.iter().filter(|l| pred(l)).count()
        }

        /// How many `bestmove` lines were received so far.
        pub fn bestmoves(&self) -> usize {
            self.count(|l| l.starts_with("bestmove"))
        }

        /// How many `checkmate` lines were received so far.
        pub fn checkmates(&self) -> usize {
            self.count(|l| l.starts_with("checkmate"))
        }

        /// Waits up to `timeout` for the process to exit, reading its output meanwhile.
        pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
            let deadline = Instant::now() + timeout;
            loop {
                while !self.eof {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if self.next_line(left.min(Duration::from_millis(20))).is_none() {
                        break;
                    }
                }
                match self.child.try_wait() {
                    Ok(Some(status)) => {
                        // Whatever it printed before exiting is still checked.
                        while self.next_line(Duration::from_secs(5)).is_some() {}
                        return Some(status);
                    }
                    Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                    Ok(None) => return None,
                    Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
                }
            }
        }

        /// Sends `quit` and checks that the process exits successfully within `timeout`.
        /// Returns every line received in the session.
        pub fn quit(mut self, timeout: Duration) -> Vec<String> {
            self.send("quit");
            match self.wait_exit(timeout) {
                Some(status) if status.success() => std::mem::take(&mut self.received),
                Some(status) => self.fail(&format!("the engine exited with {status} after quit")),
                None => self.fail(&format!("the engine did not exit within {timeout:?} of quit")),
            }
        }

        /// Forgets all but the last `keep` transcript lines and every line received so far
        /// (what [`Engine::count`] and [`Engine::received`] see), so that a long session does
        /// not hold all it said.
        pub fn forget(&mut self, keep: usize) {
            let drop = self.transcript.len().saturating_sub(keep);
            self.transcript.drain(..drop);
            self.received.clear();
        }

        /// The last `n` transcript lines, numbered.
        pub fn transcript_tail(&self, n: usize) -> String {
            let skip = self.transcript.len().saturating_sub(n);
            let mut s = String::new();
            if skip > 0 {
                let _ = writeln!(s, "  ... ({skip} earlier lines)");
            }
            for (i, l) in self.transcript.iter().enumerate().skip(skip) {
                let _ = writeln!(s, "  {:5} {l}", i + 1);
            }
            s
        }

        /// Fails the test with `msg` and the end of the transcript.
        pub fn fail(&self, msg: &str) -> ! {
            panic!(
                "{msg}\nsession transcript ({:.1} s since start; > sent, < received):\n{}",
                self.started.elapsed().as_secs_f64(),
                self.transcript_tail(transcript_lines())
            );
        }

        /// Fails the test unless `ok`.
        pub fn check(&self, ok: bool, msg: impl FnOnce() -> String) {
            if !ok {
                self.fail(&msg());
            }
        }
    }

    impl Drop for Engine {
        fn drop(&mut self) {
            self.stdin = None;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    /// The moves of an `info ... pv ...` line, or `None` for other lines.
    pub fn pv_of(line: &str) -> Option<Vec<String>> {
        match parse_engine_line(line) {
            Ok(EngineMessage::Info(attrs)) => attrs.into_iter().find_map(|a| match a {
                InfoAttr::Pv(pv) => Some(pv),
                _ => None,
            }),
            _ => None,
        }
    }

    /// How many transcript lines a failure prints: `$SOPPO_TRANSCRIPT_LINES`, default 80.
    pub fn transcript_lines() -> usize {
        std::env::var("SOPPO_TRANSCRIPT_LINES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(80)
    }

    /// The move and ponder move of a `bestmove` line.
    ///
    /// # Panics
    /// When `line` is not a `bestmove` line.
    pub fn parse_bestmove(line: &str) -> (BestMove, Option<String>) {
        match parse_engine_line(line) {
            Ok(EngineMessage::BestMove { mv, ponder }) => (mv, ponder),
            other => panic!("not a bestmove line: {line:?} ({other:?})"),
        }
    }

    /// The result of a `checkmate` line.
    ///
    /// # Panics
    /// When `line` is not a `checkmate` line.
    pub fn parse_checkmate(line: &str) -> CheckmateResult {
        match parse_engine_line(line) {
            Ok(EngineMessage::Checkmate(r)) => r,
            other => panic!("not a checkmate line: {line:?} ({other:?})"),
        }
    }

    /// The position of the arguments of a USI `position` command (`startpos ...` or
    /// `sfen ...`), null moves (`pass`, `0000`) included, set up with the rules core.
    pub fn usi_position(args: &str) -> Result<Position, String> {
        if !matches!(args.split_whitespace().next(), Some("startpos" | "sfen")) {
            return Err(format!("not a position: `{args}`"));
        }
        let (mut pos, moves) = crate::parse_usi_position(args)?;
        for text in moves {
            if matches!(text, "pass" | "0000") {
                pos.do_null_move();
            } else {
                play_checked(&mut pos, text)?;
            }
        }
        Ok(pos)
    }

    /// Plays `text` after checking that it is among the legal moves by two routes: the move
    /// generator's complete list (non-promotions included) and `parse_move`'s legality test.
    pub fn play_checked(pos: &mut Position, text: &str) -> Result<(), String> {
        let generated = pos.legal_moves().iter().any(|m| m.to_string() == text);
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("`{text}` is not legal here: {e}"))?;
        if !generated {
            return Err(format!("`{text}` passes parse_move but is not generated as legal"));
        }
        pos.do_move(m);
        Ok(())
    }

    /// Checks a `bestmove` line against the position it answers: a legal move (and a legal
    /// ponder move after it), `resign` only when there is no legal move, `win` only when the
    /// declaration holds under `rule`.
    pub fn check_bestmove(
        pos: &Position,
        line: &str,
        rule: soppo_core::declaration::EnteringKingRule,
    ) -> Result<(), String> {
        let (mv, ponder) = parse_bestmove(line);
        match mv {
            BestMove::Move(text) => {
                let mut after = pos.clone();
                play_checked(&mut after, &text)?;
                if let Some(p) = ponder {
                    play_checked(&mut after, &p).map_err(|e| format!("ponder move: {e}"))?;
                }
                Ok(())
            }
            BestMove::Resign if pos.legal_moves().is_empty() => Ok(()),
            BestMove::Resign => Err(format!("resigns with {} legal moves", pos.legal_moves().len())),
            BestMove::Win if pos.can_declare_win(rule) => Ok(()),
            BestMove::Win => Err(format!("declares a win that does not hold under {rule:?}")),
        }
    }

    /// Checks a mating line from `pos`: odd length, every move legal, every attacker move a
    /// check, and the last position checkmate.
    pub fn check_mate_line(pos: &Position, moves: &[String]) -> Result<(), String> {
        if moves.len().is_multiple_of(2) {
            return Err(format!(
                "a mating line has an odd number of moves, this one {}",
                moves.len()
            ));
        }
        let mut p = pos.clone();
        for (i, m) in moves.iter().enumerate() {
            play_checked(&mut p, m).map_err(|e| format!("move {}: {e}", i + 1))?;
            if i % 2 == 0 && !p.in_check() {
                return Err(format!("attacker move {} ({m}) does not check", i + 1));
            }
        }
        if p.is_checkmate() {
            Ok(())
        } else {
            Err(format!("the line ends in {} which is not checkmate", p.to_sfen()))
        }
    }

    /// The seed for a randomised test: `$SOPPO_TEST_SEED` when set, else from the clock. The
    /// caller prints it so that a failure can be replayed.
    pub fn test_seed() -> u64 {
        std::env::var("SOPPO_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
    }
}
