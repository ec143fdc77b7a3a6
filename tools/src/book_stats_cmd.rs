//! `soppo-tools book-stats BOOK`: what a book costs the engine. Loads it as `isready` does
//! (in memory, and with `BookOnTheFly`), says the time and the memory held, then times
//! look-ups: every position of the book (up to `--positions`) found, and as many positions one
//! move past them, which are mostly not in the book.

use anyhow::{Context, Result};
use soppo_core::Position;
use soppo_engine::book::{Book, format};
use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The book (`.db`).
    pub book: PathBuf,
    /// Look up at most this many of its positions.
    #[arg(long, default_value_t = 100_000)]
    pub positions: usize,
}

/// Megabytes, for printing (a file or a memory size is far below 2^52 bytes).
#[allow(clippy::cast_precision_loss)]
fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

pub fn run(args: &Args) -> Result<()> {
    let size = std::fs::metadata(&args.book)
        .with_context(|| args.book.display().to_string())?
        .len();
    println!("{}: {:.1} MB", args.book.display(), mb(size));
    let positions = sample_positions(args)?;
    for on_the_fly in [false, true] {
        let rss_before = resident_bytes();
        let (book, report) = Book::load(&args.book, on_the_fly)?;
        let rss_after = resident_bytes();
        let rss = match (rss_before, rss_after) {
            (Some(b), Some(a)) => format!(", resident memory +{:.1} MB", mb(a.saturating_sub(b))),
            _ => String::new(),
        };
        println!(
            "{}: loaded in {} ms, {} positions, {} moves, {} lines skipped; held {:.1} MB{rss}",
            if on_the_fly {
                "BookOnTheFly true "
            } else {
                "BookOnTheFly false"
            },
            report.elapsed.as_millis(),
            report.positions,
            report.candidates,
            report.skipped,
            mb(book.memory_bytes() as u64),
        );
        let mut found = Vec::with_capacity(positions.len());
        let mut missed = Vec::with_capacity(positions.len());
        let mut hits = 0usize;
        for pos in &positions {
            let started = Instant::now();
            let got = book.find(pos, false, true)?;
            found.push(started.elapsed());
            hits += usize::from(got.is_some());
            let next = pos.legal_moves().first().copied().map(|m| {
                let mut p = pos.clone();
                p.do_move(m);
                p
            });
            if let Some(next) = next {
                let started = Instant::now();
                let _ = book.find(&next, false, true)?;
                missed.push(started.elapsed());
            }
        }
        println!(
            "  look-up of its positions: {hits}/{} found, median {:.2} µs, 99th percentile {:.2} µs",
            positions.len(),
            micros(percentile(&mut found, 50)),
            micros(percentile(&mut found, 99))
        );
        println!(
            "  look-up one move past them (then the turned position too): median {:.2} µs",
            micros(percentile(&mut missed, 50))
        );
        drop(book);
    }
    Ok(())
}

/// The book's positions (up to `--positions`, evenly through the file), read from its `sfen`
/// lines.
fn sample_positions(args: &Args) -> Result<Vec<Position>> {
    let file = std::fs::File::open(&args.book)?;
    let mut all = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        if let Ok(format::Line::Position(sfen)) = format::parse_line(&line)
            && let Ok((pos, ply)) = format::parse_position(sfen)
        {
            // The ply, as the look-up matches it.
            let board = sfen.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            let with_ply = Position::from_sfen(&format!("{board} {}", ply.unwrap_or(1))).unwrap_or(pos);
            all.push(with_ply);
        }
    }
    let step = (all.len() / args.positions.max(1)).max(1);
    Ok(all.into_iter().step_by(step).take(args.positions).collect())
}

fn percentile(times: &mut [Duration], p: usize) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort_unstable();
    times[(times.len() - 1) * p / 100]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The process's resident memory (Linux's `/proc/self/statm`), if known.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
