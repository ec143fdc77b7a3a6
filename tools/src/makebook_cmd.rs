//! `soppo-tools makebook`: a YaneuraOu `.db` opening book from game records.
//!
//! Every position of the games up to ply `--max-ply` (the SFEN move number, 1 at the start)
//! that the games reach at least `--min-count` times is kept, with each move played from it
//! and how often (the book's `count`). With `--think`, each of those moves gets Soppo's own
//! value and depth: the position after the move is searched to `--depth` − 1 plies, and the
//! move's value is the negated score, its depth `--depth` (the move itself is the first ply);
//! the reply the search chose becomes the move's `ponder`. Without `--think` the values and
//! depths are 0 and the ponder is the reply most played. Thinking is resumable: each searched
//! move is appended to `<out>.think` as it finishes and read back by the next run.
//!
//! Games come as KIF (`.kif`, `.kifu`; UTF-8 or `Shift_JIS`) or CSA (`.csa`) files, or as text
//! files of one game a line: `startpos moves …` or `sfen <SFEN> moves …` (a leading
//! `position`, and anything after a tab, are ignored: the project's `.tsv` game files read as
//! they are).
//!
//! The book is written sorted by SFEN (with the ply), as YaneuraOu writes its books, so that
//! YaneuraOu reads it too (with `BookOnTheFly` as well).

use anyhow::{Context, Result, bail};
use soppo_core::{Move, Position};
use soppo_engine::book::{Candidate, format};
use soppo_engine::search::{self, Decision, Limits, MATE, ScoreValue, SearchControl, SearchEvent, SearchSettings};
use soppo_engine::tt::TranspositionTable;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game records: KIF, CSA, or text files of `startpos moves …` / `sfen … moves …` lines.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The book to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Keep positions the games reach at least this many times.
    #[arg(long, default_value_t = 2)]
    pub min_count: u32,
    /// Keep positions up to this ply (the SFEN move number; YaneuraOu's `BookMoves` counts
    /// the same way).
    #[arg(long, default_value_t = 16)]
    pub max_ply: u32,
    /// Search each move for its value, depth and ponder.
    #[arg(long)]
    pub think: bool,
    /// The depth of `--think` (the move itself counted).
    #[arg(long, default_value_t = 16)]
    pub depth: u32,
    /// Searches run at once (one thread each).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Each search's table, MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: u64,
}

/// A kept position: how often the games reached it and the moves played from it.
#[derive(Default)]
struct Seen {
    times: u32,
    /// Each move and how often it was played, in the order first played.
    moves: Vec<(Move, u64)>,
}

/// A thought-out move: value (internal units, the mover's view), depth, the reply.
#[derive(Clone, Copy)]
struct Thought {
    value: i32,
    depth: i32,
    reply: Option<Move>,
}

pub fn run(args: &Args) -> Result<()> {
    if args.think && args.depth < 2 {
        bail!("--depth must be at least 2 (the move and a search after it)");
    }
    let mut games = Vec::new();
    let mut unread = Vec::new();
    for path in &args.inputs {
        read_games(path, &mut games, &mut unread).with_context(|| path.display().to_string())?;
    }
    for (place, why) in unread.iter().take(5) {
        eprintln!("skipped {place}: {why}");
    }
    // Keyed by the SFEN YaneuraOu writes (with the ply): the book's own order.
    let mut seen: HashMap<String, Seen> = HashMap::new();
    for (start, moves) in &games {
        let mut pos = start.clone();
        for &m in moves {
            if pos.move_number() > args.max_ply {
                break;
            }
            let entry = seen.entry(pos.to_sfen()).or_default();
            entry.times += 1;
            match entry.moves.iter_mut().find(|(mv, _)| *mv == m) {
                Some((_, n)) => *n += 1,
                None => entry.moves.push((m, 1)),
            }
            pos.do_move(m);
        }
    }
    let kept: BTreeMap<String, Seen> = seen.into_iter().filter(|(_, s)| s.times >= args.min_count).collect();
    let pairs: Vec<(String, Move)> = kept
        .iter()
        .flat_map(|(sfen, s)| s.moves.iter().map(move |(m, _)| (sfen.clone(), *m)))
        .collect();
    eprintln!(
        "{} games read ({} skipped); {} positions kept (reached at least {} times up to ply {}), {} moves",
        games.len(),
        unread.len(),
        kept.len(),
        args.min_count,
        args.max_ply,
        pairs.len()
    );
    let thoughts = if args.think {
        think(args, &pairs)?
    } else {
        HashMap::new()
    };
    let mut positions: Vec<(Position, Vec<Candidate>)> = Vec::with_capacity(kept.len());
    for (sfen, s) in &kept {
        let pos = Position::from_sfen(sfen)?;
        let mut candidates: Vec<Candidate> = s
            .moves
            .iter()
            .map(|&(mv, count)| {
                let t = thoughts.get(&(sfen.clone(), mv));
                let ponder = t.map_or_else(|| most_played_reply(&kept, &pos, mv), |t| t.reply);
                Candidate {
                    count,
                    value: t.map_or(0, |t| t.value),
                    depth: t.map_or(0, |t| t.depth),
                    mv,
                    ponder,
                }
            })
            .collect();
        // YaneuraOu's order: most played first, then the best value.
        candidates.sort_by(|a, b| b.count.cmp(&a.count).then(b.value.cmp(&a.value)));
        positions.push((pos, candidates));
    }
    let text = format::write_book(positions.iter().map(|(p, c)| (p, c.as_slice())));
    std::fs::write(&args.out, text).with_context(|| args.out.display().to_string())?;
    eprintln!("wrote {} ({} positions)", args.out.display(), positions.len());
    Ok(())
}

/// The reply most played in the position after `mv` (the first played among equals), if the
/// book keeps that position.
fn most_played_reply(kept: &BTreeMap<String, Seen>, pos: &Position, mv: Move) -> Option<Move> {
    let mut after = pos.clone();
    after.do_move(mv);
    let s = kept.get(&after.to_sfen())?;
    // `max_by_key` keeps the last of equals: over the reversed list, the first played.
    s.moves.iter().rev().max_by_key(|(_, n)| *n).map(|(m, _)| *m)
}

/// Reads the games of `path` into `games`; what could not be read goes to `unread`.
fn read_games(path: &Path, games: &mut Vec<(Position, Vec<Move>)>, unread: &mut Vec<(String, String)>) -> Result<()> {
    let bytes = std::fs::read(path)?;
    let name = path.display().to_string();
    if let Some(record) = kifu_record(&name, &bytes) {
        match record.and_then(|(sfen, moves)| replay(Some(&sfen), &moves)) {
            Ok(game) => games.push(game),
            Err(why) => unread.push((name, why)),
        }
        return Ok(());
    }
    let text = String::from_utf8_lossy(&bytes);
    for (n, line) in text.lines().enumerate() {
        let line = line.split('\t').next().unwrap_or_default().trim();
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (start, moves) = match line.split_once(" moves") {
            Some((start, moves)) => (start.trim(), moves.split_whitespace().collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let sfen = if start == "startpos" {
            None
        } else if let Some(sfen) = start.strip_prefix("sfen ") {
            Some(sfen.trim())
        } else {
            unread.push((format!("{name}:{}", n + 1), "not `startpos …` or `sfen …`".to_owned()));
            continue;
        };
        match replay(sfen, &moves) {
            Ok(game) => games.push(game),
            Err(why) => unread.push((format!("{name}:{}", n + 1), why)),
        }
    }
    Ok(())
}

/// The start position and the moves of a game, every move checked legal.
fn replay(sfen: Option<&str>, moves: &[impl AsRef<str>]) -> Result<(Position, Vec<Move>), String> {
    let start = match sfen {
        Some(s) => Position::from_sfen(s).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    let mut pos = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for text in moves {
        let m = pos.parse_move(text.as_ref()).map_err(|e| e.to_string())?;
        pos.do_move(m);
        played.push(m);
    }
    Ok((start, played))
}

/// Searches every pair not yet in `<out>.think`, appending each as it finishes; returns all.
fn think(args: &Args, pairs: &[(String, Move)]) -> Result<HashMap<(String, Move), Thought>> {
    let cache = think_file(&args.out);
    let mut done = read_thoughts(&cache, args.depth)?;
    let todo: Vec<&(String, Move)> = pairs.iter().filter(|p| !done.contains_key(*p)).collect();
    eprintln!(
        "thinking: {} moves at depth {} ({} already in {})",
        todo.len(),
        args.depth,
        pairs.len() - todo.len(),
        cache.display()
    );
    let file = std::fs::OpenOptions::new().create(true).append(true).open(&cache)?;
    let file = Mutex::new(file);
    let results = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let bar = soppo_train::progress::counted(todo.len() as u64, "think");
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                let tt = TranspositionTable::new(args.hash_mb.max(1));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&&(ref sfen, mv)) = todo.get(i) else { break };
                    let t = match think_one(sfen, mv, args.depth, &tt) {
                        Ok(t) => t,
                        Err(e) => {
                            *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                            break;
                        }
                    };
                    let reply = t.reply.map_or_else(|| "none".to_owned(), |m| m.to_string());
                    let line = format!("{sfen}\t{mv}\t{}\t{}\t{reply}\n", t.depth, t.value);
                    let mut f = file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let _ = f.write_all(line.as_bytes()).and_then(|()| f.flush());
                    drop(f);
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(((sfen.clone(), mv), t));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    if let Some(e) = failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(e);
    }
    done.extend(results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner));
    Ok(done)
}

/// `<out>.think`: the searched moves of a run, for the next one.
fn think_file(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".think");
    PathBuf::from(name)
}

/// The moves already searched to `depth` (other depths are searched again).
fn read_thoughts(path: &Path, depth: u32) -> Result<HashMap<(String, Move), Thought>> {
    let mut out = HashMap::new();
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(out);
    };
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        let f: Vec<&str> = line.split('\t').collect();
        // A line cut short by an interrupted run is searched again.
        let [sfen, mv, d, value, reply] = f[..] else { continue };
        let (Ok(mv), Ok(d), Ok(value)) = (Move::from_usi(mv), d.parse::<i32>(), value.parse::<i32>()) else {
            continue;
        };
        if d != depth as i32 {
            continue;
        }
        let reply = Move::from_usi(reply).ok();
        out.insert((sfen.to_owned(), mv), Thought { value, depth: d, reply });
    }
    Ok(out)
}

/// Searches the position after `mv` to `depth − 1`.
fn think_one(sfen: &str, mv: Move, depth: u32, tt: &TranspositionTable) -> Result<Thought> {
    let mut pos = Position::from_sfen(sfen)?;
    if !pos.is_legal_move(mv) {
        bail!("{mv} is not legal in {sfen}");
    }
    pos.do_move(mv);
    tt.clear();
    let settings = SearchSettings {
        threads: 1,
        ..SearchSettings::default()
    };
    let limits = Limits {
        depth: Some(depth - 1),
        ..Limits::default()
    };
    let control = Arc::new(SearchControl::default());
    let (mut score, mut best) = (None, None);
    search::run(0, pos, tt, &control, &limits, &settings, &mut |e| match e {
        SearchEvent::Info(_, info) => score = Some(info.score),
        SearchEvent::Done(_, Decision::Move { best: b, .. }, _) => best = Some(b),
        _ => {}
    });
    // The score of the position after the move, from the mover's view; a mate one ply further.
    let value = match score {
        Some(ScoreValue::Centipawns(v)) => -v,
        Some(ScoreValue::MateIn(n)) if n >= 0 => -(MATE - (n + 1)),
        Some(ScoreValue::MateIn(n)) => MATE - (1 - n),
        None => 0,
    };
    Ok(Thought {
        value,
        depth: depth as i32,
        reply: best,
    })
}

/// A KIF or CSA record's start SFEN and USI moves; `None` when the file is neither.
fn kifu_record(name: &str, bytes: &[u8]) -> Option<Result<(String, Vec<String>), String>> {
    let format = soppo_kifu::detect_format(name, bytes)?;
    Some(
        soppo_kifu::read(bytes, format)
            .map(|record| (record.start_sfen, record.moves))
            .map_err(|e| e.to_string()),
    )
}
