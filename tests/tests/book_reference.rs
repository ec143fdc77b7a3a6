//! Soppo's choice of book move against YaneuraOu's on the same `.db` book: for each position,
//! the set of moves a book move is drawn from must be the same in both engines, under
//! YaneuraOu's default book options and under others (`NarrowBook`, `BookEvalDiff`,
//! `BookEvalBlackLimit`, `BookDepthLimit` 0, `IgnoreBookPly`, `FlippedBook` off,
//! `BookOnTheFly`).
//!
//! The book is written here: positions of random games from the start (hands, promotions),
//! each with one to five legal moves of random values, depths and counts (zero counts
//! included), some past ply 16, and each position's turned twin looked up too. Soppo's set is
//! what its `book` command prints; YaneuraOu's is the set of book moves it plays over 60 `go`s
//! (a move drawn with probability 1/5 is missed with probability 1.5e-6).
//!
//! Needs the reference binary `../shared/opponents/yaneuraou-kp256` (and a net for it, which it
//! loads at `isready`); skipped with a message when it is absent. Real books made by `soppo-tools
//! makebook` are checked the same way by `tools/scripts/book_reference.py`.

use soppo_core::rng::SplitMix64;
use soppo_core::{Move, Position};
use soppo_tests::engine::{Engine, PROMPT, workspace_root};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const DRAWS: usize = 60;

/// A configuration of the comparison: its name, the book options set, the look-ups.
type Config<'a> = (&'a str, Vec<(&'a str, &'a str)>, Vec<String>);

/// The reference engine, driven line by line.
struct Reference {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Reference {
    fn start(binary: &Path, options: &[(&str, String)]) -> Reference {
        let mut child = Command::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut r = Reference { child, stdin, lines };
        r.send("usi");
        r.until("usiok");
        for (name, value) in options {
            r.send(&format!("setoption name {name} value {value}"));
        }
        r.send("isready");
        r.until("readyok");
        r
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .expect("writing to the reference");
    }

    /// The lines up to the first whose first word is `word` (included).
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("the reference said no `{word}`: {out:?}"));
            let done = line.split_whitespace().next() == Some(word);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// The book moves played in `sfen` over [`DRAWS`] `go`s (none when a search answers).
    fn drawn(&mut self, sfen: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        for _ in 0..DRAWS {
            self.send(&format!("position sfen {sfen}"));
            self.send("go depth 1");
            let lines = self.until("bestmove");
            let searched = lines.iter().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.first() == Some(&"info")
                    && w.iter()
                        .position(|&x| x == "nodes")
                        .is_some_and(|i| w.get(i + 1) != Some(&"0"))
            });
            if searched {
                return BTreeSet::new();
            }
            let best = lines
                .last()
                .and_then(|l| l.split_whitespace().nth(1))
                .unwrap_or_default();
            seen.insert(best.to_owned());
        }
        seen
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The book's text and the SFENs (with plies) to look up.
fn random_book(seed: u64) -> (String, Vec<String>) {
    let mut rng = SplitMix64::new(seed);
    let mut book: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut lookups = Vec::new();
    while book.len() < 150 {
        let mut pos = Position::startpos();
        let plies = 1 + rng.below(22);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let mut picked: Vec<Move> = moves.to_vec();
        rng.shuffle(&mut picked);
        picked.truncate(1 + rng.below(5) as usize);
        let lines = picked
            .iter()
            .map(|m| {
                let value = rng.below(401) as i32 - 200;
                let depth = [8, 15, 16, 20, 30][rng.below(5) as usize];
                let count = rng.below(12);
                format!("{m} none {value} {depth} {count}")
            })
            .collect();
        let sfen = pos.to_sfen();
        lookups.push(sfen.clone());
        lookups.push(pos.turned().to_sfen());
        book.insert(sfen, lines);
    }
    let mut text = String::from("#YANEURAOU-DB2016 1.00\n");
    for (sfen, lines) in &book {
        let _ = writeln!(text, "sfen {sfen}");
        for l in lines {
            let _ = writeln!(text, "{l}");
        }
    }
    (text, lookups)
}

/// The set Soppo's `book` command prints (empty when the book is not used there).
fn soppo_set(e: &mut Engine, sfen: &str) -> BTreeSet<String> {
    e.send(&format!("position sfen {sfen}"));
    e.send("book");
    let lines = e.sync();
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string book: drawn from:"))
        .filter(|rest| !rest.contains("(but"))
        .flat_map(|rest| rest.split_whitespace().map(str::to_owned))
        .collect()
}

/// With the plies of half the look-ups changed (for `IgnoreBookPly`).
fn shifted_plies(sfens: &[String]) -> Vec<String> {
    sfens
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if i % 2 == 0 {
                return s.clone();
            }
            let mut w: Vec<String> = s.split_whitespace().map(str::to_owned).collect();
            let ply: u32 = w[3].parse().unwrap_or(1);
            w[3] = (ply + 2).to_string();
            w.join(" ")
        })
        .collect()
}

fn reference_binary() -> Option<(PathBuf, PathBuf)> {
    let root = workspace_root();
    let binary = root.join("../shared/opponents/yaneuraou-kp256");
    let net = root.join("../shared/opponents/eval-suishopetite");
    (binary.is_file() && net.join("nn.bin").is_file()).then_some((binary, net))
}

#[test]
fn soppo_and_yaneuraou_draw_from_the_same_book_moves() {
    let Some((binary, net)) = reference_binary() else {
        eprintln!("skipped: no reference binary ../shared/opponents/yaneuraou-kp256 (or its net)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("soppo-book-reference-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (text, lookups) = random_book(69);
    std::fs::write(dir.join("user_book1.db"), text).unwrap();
    let book_options = [
        ("BookDir", dir.display().to_string()),
        ("BookFile", "user_book1.db".to_owned()),
    ];
    let others = [
        ("NarrowBook", "true"),
        ("BookEvalDiff", "100"),
        ("BookEvalBlackLimit", "-100"),
        ("BookDepthLimit", "0"),
        ("IgnoreBookPly", "true"),
        ("FlippedBook", "false"),
    ];
    let configs: [Config; 3] = [
        ("defaults", vec![], lookups.clone()),
        ("other options", others.to_vec(), shifted_plies(&lookups)),
        ("BookOnTheFly", vec![("BookOnTheFly", "true")], lookups.clone()),
    ];
    for (name, options, sfens) in configs {
        let mut yo_options: Vec<(&str, String)> = vec![
            ("USI_Hash", "16".into()),
            ("Threads", "1".into()),
            ("EvalDir", net.display().to_string()),
            ("NetworkDelay", "0".into()),
            ("NetworkDelay2", "0".into()),
            ("MinimumThinkingTime", "0".into()),
        ];
        yo_options.extend(book_options.iter().cloned());
        yo_options.extend(options.iter().map(|&(n, v)| (n, v.to_owned())));
        let mut yo = Reference::start(&binary, &yo_options);
        let mut e = Engine::start();
        for (n, v) in book_options
            .iter()
            .map(|(n, v)| (*n, v.as_str()))
            .chain(options.iter().copied())
        {
            e.send(&format!("setoption name {n} value {v}"));
        }
        e.sync();
        let (mut non_empty, mut several) = (0, 0);
        for sfen in &sfens {
            let ours = soppo_set(&mut e, sfen);
            let theirs = yo.drawn(sfen);
            e.check(ours == theirs, || {
                format!("{name}: position sfen {sfen}: Soppo draws from {ours:?}, YaneuraOu from {theirs:?}")
            });
            non_empty += usize::from(!ours.is_empty());
            several += usize::from(ours.len() > 1);
        }
        // The comparison means something only if the book is used, with choices.
        e.check(non_empty >= 40 && several >= 10, || {
            format!("{name}: only {non_empty} positions used the book, {several} with a choice")
        });
        eprintln!(
            "{name}: {} look-ups, the same sets; {non_empty} used the book, {several} with a choice",
            sfens.len()
        );
        e.quit(PROMPT);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
