//! `gen-data [--games N] [--nodes N | --depth N] [--threads N] [--out DIR] [--name NAME] …`:
//! the NNUE's training data, from games of the engine against itself, in the block format of
//! [`nnue_data`].
//!
//! Starts: a share `--handicap-share` of the games start from one of the twenty handicap
//! positions of `tools/openings/handicaps.tsv` (embedded), the others from a game of
//! `--openings` (the lishogi games of the shared data by default) cut at a random ply in
//! `--min-ply..=--max-ply`; then `--random-plies` random moves that lose no material by
//! exchange (drawn again, up to ten times, while a search of `--nodes` sees the side to move
//! further than `--random-balance` from even; not for handicaps, which are uneven by design).
//! Each game's start and node counts depend on `--seed` and the game's number alone.
//!
//! Play: both sides search a fixed `--nodes` a move (times a factor drawn from 1 ± `--jitter`
//! per move, so that games from one start part ways) or a fixed `--depth`, with one thread and
//! a table of their own cleared per game. A game ends in checkmate (the side to move has no
//! move, or its search sees itself mated and resigns), a declaration win, sennichite (a draw)
//! or perpetual check (a loss for the checker), or a draw at `--max-plies`.
//!
//! Records: every position of the game before a move, with the search's score and best move,
//! except (the filters)
//! - positions in check (the score of an evasion is a tactical matter, not an evaluation);
//! - positions whose best move captures or promotes (captures pending: the static
//!   evaluation of such a position misses what the exchange will change; the best move is
//!   the test, no static-exchange evaluation);
//! - mate scores, and scores beyond ±`--score-limit` centipawns (near-mates: the result
//!   is settled and the evaluation has nothing left to learn there).
//!
//! The game's result is set on each of its records once the game is over.
//!
//! Output: `DIR/NAME.bin` (`DIR` `$XDG_CACHE_HOME/soppo/data`, else `~/.cache/soppo/data`;
//! `NAME` from the limit and seed, e.g. `nodes5000-seed1`), a block of whole games written each
//! time `--block-records` records have gathered. A run goes on where the file stops: it reads
//! the file's whole blocks (saying what it dropped of a block cut off at the end, which it cuts
//! away), checks that the file was made with the same settings, and plays the games numbered
//! below `--games` that the file does not hold; a kill loses the games in flight and the block
//! being gathered, no more.

use crate::nnue_data::{self, DataWriter, FLAG_HANDICAP, Record};
use crate::selfplay::{StartRules, Winner, opening_games, search_once, start_position};
use crate::{progress, shared_data, tsv};
use anyhow::{Context, Result, bail, ensure};
use soppo_core::repetition::Repetition;
use soppo_core::rng::splitmix64;
use soppo_core::{Color, Position};
use soppo_engine::eval::Evaluation;
use soppo_engine::eval::nnue;
use soppo_engine::search::{Decision, Limits, ScoreValue, SearchSettings};
use soppo_engine::tt::TranspositionTable;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// The handicap starts (the giver to move, both colours).
const HANDICAPS: &str = include_str!("../../tools/openings/handicaps.tsv");

/// The options of `gen-data`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Games the file is to hold (a run plays those of `0..N` it does not hold yet).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u32,
    /// Nodes searched a move.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub nodes: u64,
    /// Search a fixed depth a move instead of `--nodes` (which the balance check of random
    /// plies still uses).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Games played at once, one search thread each (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Seed of the starts and the node counts.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Directory of the data files (default `$XDG_CACHE_HOME/soppo/data` or
    /// `~/.cache/soppo/data`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The run's name: the file is `DIR/NAME.bin` (default from the limit and the seed, e.g.
    /// `nodes5000-seed1`).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Games whose openings start the games (the `tune-eval` game format; default
    /// `games_lishogi500.tsv` of the shared data).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Earliest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub min_ply: usize,
    /// Latest ply at which an opening is cut.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub max_ply: usize,
    /// Random plies after the cut (moves that lose no material by exchange).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub random_plies: usize,
    /// A start after random plies further than this from even (centipawns, by a search of
    /// `--nodes`) is drawn again.
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub random_balance: i32,
    /// Share of the games that start from a handicap position.
    #[arg(long, value_name = "F", default_value_t = 0.05)]
    pub handicap_share: f64,
    /// Plies after which a game is a draw.
    #[arg(long, value_name = "N", default_value_t = 320)]
    pub max_plies: usize,
    /// Each move searches `--nodes` times a factor drawn from 1 ± this share.
    #[arg(long, value_name = "F", default_value_t = 0.2)]
    pub jitter: f64,
    /// Positions whose score is beyond ± this (centipawns) are not recorded (mate scores
    /// never are).
    #[arg(long, value_name = "CP", default_value_t = 3000)]
    pub score_limit: i32,
    /// Records gathered before a block is written (a kill loses at most one block).
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub block_records: usize,
    /// Evaluate with this network (`Evaluation NNUE`) instead of the classic evaluation: the
    /// next round's data from the last round's net.
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
}

/// The search settings of every search of a run: the engine's defaults, one thread, and the
/// network of `--net` when there is one (else the classic evaluation). [`describe`] names the
/// evaluation, so that a resumed run cannot mix evaluations.
fn search_settings(opts: &Args) -> Result<SearchSettings> {
    let mut settings = SearchSettings {
        threads: 1,
        ..SearchSettings::default()
    };
    if let Some(path) = &opts.net {
        let net = nnue::load(path).with_context(|| format!("--net {}", path.display()))?;
        settings.evaluation = Evaluation::Nnue;
        settings.network = Some(Arc::new(net));
    }
    Ok(settings)
}

/// The evaluation the searches use, as the run's description names it: `classic`, or `nnue`
/// and the CRC-32 of the net's file.
fn evaluation_name(settings: &SearchSettings) -> String {
    match &settings.network {
        Some(net) if settings.evaluation == Evaluation::Nnue => {
            format!("nnue-{:08x}", crc32fast::hash(&net.to_bytes()))
        }
        _ => "classic".to_owned(),
    }
}

/// The run's settings as its file's description block holds them.
fn describe(opts: &Args, openings: &str, settings: &SearchSettings) -> String {
    let mut s = String::from("soppo gen-data\n");
    let _ = writeln!(s, "seed={}", opts.seed);
    match opts.depth {
        Some(d) => {
            let _ = writeln!(s, "depth={d}");
        }
        None => {
            let _ = writeln!(s, "nodes={}\njitter={}", opts.nodes, opts.jitter);
        }
    }
    let _ = writeln!(
        s,
        "openings=crc32:{:08x}\nmin-ply={}\nmax-ply={}\nrandom-plies={}\nrandom-balance={}\n\
         balance-nodes={}\nhandicap-share={}\nhandicaps=crc32:{:08x}\nmax-plies={}\nscore-limit={}\nevaluation={}",
        crc32fast::hash(openings.as_bytes()),
        opts.min_ply,
        opts.max_ply,
        opts.random_plies,
        opts.random_balance,
        opts.nodes,
        opts.handicap_share,
        crc32fast::hash(HANDICAPS.as_bytes()),
        opts.max_plies,
        opts.score_limit,
        evaluation_name(settings),
    );
    s
}

/// The data directory: `$XDG_CACHE_HOME/soppo/data`, else `$HOME/.cache/soppo/data`.
pub fn default_dir() -> Result<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .context("neither XDG_CACHE_HOME nor HOME is set: give --out")?;
    Ok(cache.join("soppo").join("data"))
}

/// The file of a run.
fn data_path(opts: &Args) -> Result<PathBuf> {
    let dir = match &opts.out {
        Some(d) => d.clone(),
        None => default_dir()?,
    };
    let name = opts.name.clone().unwrap_or_else(|| match opts.depth {
        Some(d) => format!("depth{d}-seed{}", opts.seed),
        None => format!("nodes{}-seed{}", opts.nodes, opts.seed),
    });
    ensure!(
        !name.is_empty() && !name.contains(['/', '\\']),
        "--name must be a file name, not `{name}`"
    );
    Ok(dir.join(format!("{name}.bin")))
}

/// Positions left out, by filter.
#[derive(Copy, Clone, Debug, Default)]
struct Filtered {
    in_check: u64,
    capture_or_promotion: u64,
    beyond_limit: u64,
}

impl Filtered {
    fn add(&mut self, o: Filtered) {
        self.in_check += o.in_check;
        self.capture_or_promotion += o.capture_or_promotion;
        self.beyond_limit += o.beyond_limit;
    }
}

/// A finished game.
struct Game {
    number: u32,
    records: Vec<Record>,
    winner: Winner,
    plies: usize,
    filtered: Filtered,
}

/// What every game of a run shares.
struct Run<'a> {
    opts: &'a Args,
    openings: Vec<&'a str>,
    handicaps: Vec<&'a str>,
    settings: SearchSettings,
}

impl Run<'_> {
    /// Whether game `number` starts from a handicap.
    fn is_handicap(&self, number: u32) -> bool {
        let r = splitmix64(self.opts.seed ^ splitmix64(u64::from(number) ^ 0x4841_4E44_4943_4150));
        #[allow(clippy::cast_precision_loss, reason = "53 bits, exact")]
        let u = (r >> 11) as f64 / (1u64 << 53) as f64;
        u < self.opts.handicap_share
    }

    /// The search limits of move `ply` of game `number`.
    fn limits(&self, number: u32, ply: usize) -> Limits {
        if let Some(depth) = self.opts.depth {
            return Limits {
                depth: Some(depth),
                ..Limits::default()
            };
        }
        // As `selfplay`: a node count drawn per move lets games from one start part ways.
        let r = splitmix64(self.opts.seed ^ splitmix64((u64::from(number) << 16) | ply as u64));
        let u = f64::from((r >> 32) as u32) / f64::from(u32::MAX);
        let factor = 1.0 + self.opts.jitter * (2.0 * u - 1.0);
        #[allow(clippy::cast_precision_loss, reason = "node counts far below 2^52")]
        let nodes = ((self.opts.nodes as f64 * factor).round() as u64).max(1);
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Game `number`'s start and whether it is a handicap.
    fn start(&self, number: u32, tt: &TranspositionTable) -> Result<(Position, bool)> {
        let opts = self.opts;
        let handicap = self.is_handicap(number);
        let rules = StartRules {
            seed: opts.seed,
            min_ply: if handicap { 0 } else { opts.min_ply },
            max_ply: if handicap { 0 } else { opts.max_ply },
            random_plies: opts.random_plies,
            random_balance: if handicap { i32::MAX } else { opts.random_balance },
            nodes: opts.nodes,
            settings: self.settings.clone(),
        };
        let list = if handicap { &self.handicaps } else { &self.openings };
        let (pos, _) = start_position(list, number as usize, &rules, tt)?;
        Ok((pos, handicap))
    }

    /// Plays game `number`.
    fn play(&self, number: u32, tt: &TranspositionTable) -> Result<Game> {
        let opts = self.opts;
        let (mut pos, handicap) = self.start(number, tt)?;
        tt.clear();
        let mut records: Vec<(Record, Color)> = Vec::new();
        let mut filtered = Filtered::default();
        let mut plies = 0;
        let winner = loop {
            let us = pos.side_to_move();
            if pos.legal_moves().is_empty() {
                break Winner::of(!us);
            }
            match pos.game_repetition() {
                Repetition::Draw => break Winner::Draw,
                Repetition::Win => break Winner::of(us),
                Repetition::Loss => break Winner::of(!us),
                _ => {}
            }
            if plies >= opts.max_plies {
                break Winner::Draw;
            }
            let (decision, score) = search_once(&pos, tt, &self.settings, &self.limits(number, plies));
            let best = match decision {
                Decision::Move { best, .. } => best,
                Decision::Resign => break Winner::of(!us),
                Decision::Win => break Winner::of(us),
            };
            ensure!(pos.is_legal_move(best), "the search chose an illegal move {best}");
            if pos.in_check() {
                filtered.in_check += 1;
            } else if best.is_promotion() || (!best.is_drop() && pos.piece_on(best.to()).is_some()) {
                filtered.capture_or_promotion += 1;
            } else {
                match score {
                    Some(ScoreValue::Centipawns(v)) if v.abs() <= opts.score_limit => {
                        let record = Record {
                            packed: pos.pack().context("a position that does not pack")?,
                            score: v.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                            best: best.raw(),
                            ply: pos.move_number().saturating_sub(1).min(u16::MAX.into()) as u16,
                            result: 0,
                            flags: if handicap { FLAG_HANDICAP } else { 0 },
                            game: number,
                        };
                        records.push((record, us));
                    }
                    _ => filtered.beyond_limit += 1,
                }
            }
            pos.do_move(best);
            plies += 1;
        };
        let records = records
            .into_iter()
            .map(|(mut r, side)| {
                r.result = match winner {
                    Winner::Draw => 0,
                    w if w == Winner::of(side) => 1,
                    _ => -1,
                };
                r
            })
            .collect();
        Ok(Game {
            number,
            records,
            winner,
            plies,
            filtered,
        })
    }
}

/// Runs `gen-data`; the last line printed is the summary.
pub fn run(opts: &Args) -> Result<()> {
    ensure!(opts.block_records > 0, "--block-records must be positive");
    ensure!(opts.min_ply <= opts.max_ply, "--min-ply is above --max-ply");
    ensure!(
        (0.0..=1.0).contains(&opts.handicap_share),
        "--handicap-share must be within 0..=1"
    );
    ensure!(opts.score_limit >= 0, "--score-limit must not be negative");
    let threads = opts
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let openings_path = opts
        .openings
        .clone()
        .unwrap_or_else(|| shared_data::dir(None).join("games_lishogi500.tsv"));
    let text = tsv::read(&openings_path)?;
    let cx = Run {
        opts,
        openings: opening_games(&text),
        handicaps: opening_games(HANDICAPS),
        settings: search_settings(opts)?,
    };
    ensure!(!cx.openings.is_empty(), "no games in {}", openings_path.display());
    let description = describe(opts, &text, &cx.settings);
    let path = data_path(opts)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }

    let (mut writer, done, old_records) = if path.exists() {
        let existing = nnue_data::read(&path)?;
        if let Some(tail) = &existing.tail {
            println!("{}: {tail}", path.display());
        }
        match &existing.description {
            Some(d) if *d == description => {}
            Some(d) => bail!(
                "{} was made with other settings; give another --name to start a new file\n\
                 the file's:\n{d}\nthis run's:\n{description}",
                path.display()
            ),
            None => bail!("{} has no description block: not a gen-data file", path.display()),
        }
        let writer = DataWriter::resume(&path, &existing)?;
        let done: HashSet<u32> = existing.games.iter().copied().collect();
        println!(
            "resuming {}: {} games, {} positions in {} whole blocks",
            path.display(),
            done.len(),
            existing.records.len(),
            existing.blocks
        );
        (writer, done, existing.records.len() as u64)
    } else {
        (DataWriter::create(&path, &description)?, HashSet::new(), 0)
    };

    let pending: Vec<u32> = (0..opts.games).filter(|g| !done.contains(g)).collect();
    let done_before = u64::from(opts.games) - pending.len() as u64;
    let bar = progress::with_template(
        u64::from(opts.games),
        "gen-data {bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, eta {eta}]",
    );
    bar.set_position(done_before);
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Game>>();
    let mut buffer: Vec<Record> = Vec::new();
    let mut buffer_games: Vec<u32> = Vec::new();
    let (mut new_records, mut moves, mut tally, mut filtered) = (0u64, 0u64, [0u64; 3], Filtered::default());
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads.min(pending.len().max(1)) {
            let tx = tx.clone();
            let (cx, pending, next) = (&cx, &pending, &next);
            scope.spawn(move || {
                let tt = TranspositionTable::new(16);
                loop {
                    let Some(&number) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        return;
                    };
                    let game = cx.play(number, &tt).with_context(|| format!("game {number}"));
                    let failed = game.is_err();
                    if tx.send(game).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for game in rx {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    // No further games: the workers stop after the games in flight.
                    next.store(pending.len(), Ordering::Relaxed);
                    return Err(e);
                }
            };
            new_records += game.records.len() as u64;
            moves += game.plies as u64;
            tally[match game.winner {
                Winner::Black => 0,
                Winner::White => 1,
                Winner::Draw => 2,
            }] += 1;
            filtered.add(game.filtered);
            buffer.extend_from_slice(&game.records);
            buffer_games.push(game.number);
            let wrote = buffer.len() >= opts.block_records;
            if wrote {
                writer.write_records(&buffer, &buffer_games)?;
                buffer.clear();
                buffer_games.clear();
            }
            bar.inc(1);
            let secs = started.elapsed().as_secs_f64().max(1e-9);
            #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
            let status = format!(
                "{} positions ({:.0}/s)",
                old_records + new_records,
                new_records as f64 / secs
            );
            // Without a terminal (a run in the background, its output in a log) the bar is
            // hidden: a plain line at every block written says how far the run has come.
            if wrote && bar.is_hidden() {
                eprintln!(
                    "gen-data: {}/{} games, {status}, {secs:.0} s",
                    bar.position(),
                    opts.games
                );
            }
            bar.set_message(status);
        }
        Ok(())
    })?;
    if !buffer_games.is_empty() {
        writer.write_records(&buffer, &buffer_games)?;
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let rate = |n: u64| n as f64 / secs.max(1e-9);
    println!(
        "filtered out: {} in check, {} with a capture or promotion as best move, {} mate or beyond {} cp",
        filtered.in_check, filtered.capture_or_promotion, filtered.beyond_limit, opts.score_limit
    );
    println!(
        "gen-data: {} games in {} ({} this run: Black {} wins, White {} wins, {} draws), {} positions ({} this run \
         in {secs:.1} s on {threads} threads: {:.1} positions/s, {:.1} moves searched/s)",
        done_before + pending.len() as u64,
        path.display(),
        pending.len(),
        tally[0],
        tally[1],
        tally[2],
        old_records + new_records,
        new_records,
        rate(new_records),
        rate(moves),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(extra: &[&str]) -> Args {
        Cli::parse_from(std::iter::once("gen-data").chain(extra.iter().copied())).args
    }

    #[test]
    fn games_follow_the_rules_and_the_filters() {
        let opts = args(&["--nodes", "300", "--max-plies", "40", "--handicap-share", "0.5"]);
        let text = "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b\t8\tdraw\t-\n";
        let cx = Run {
            opts: &opts,
            openings: opening_games(text),
            handicaps: opening_games(HANDICAPS),
            settings: search_settings(&opts).unwrap(),
        };
        let tt = TranspositionTable::new(1);
        let mut handicaps = 0;
        for number in 0..6 {
            let game = cx.play(number, &tt).unwrap();
            let again = cx.play(number, &tt).unwrap();
            assert_eq!(game.records, again.records, "game {number} is not deterministic");
            assert!(game.plies <= 40);
            for r in &game.records {
                let pos = r.position().unwrap();
                assert!(!pos.in_check());
                let best = soppo_core::Move::from_raw(r.best).unwrap();
                assert!(pos.is_legal_move(best));
                assert!(!best.is_promotion() && (best.is_drop() || pos.piece_on(best.to()).is_none()));
                assert!(i32::from(r.score).abs() <= opts.score_limit);
                assert_eq!(r.game, number);
                assert!((-1..=1).contains(&r.result));
            }
            // Both sides' records of one game have opposite results (or both draws).
            let sides: HashSet<(bool, i8)> = game
                .records
                .iter()
                .map(|r| (r.position().unwrap().side_to_move() == Color::Black, r.result))
                .collect();
            for &(black, result) in &sides {
                assert!(!sides.contains(&(!black, result)) || result == 0, "{sides:?}");
            }
            if cx.is_handicap(number) {
                handicaps += 1;
                assert!(game.records.iter().all(|r| r.flags & FLAG_HANDICAP != 0));
            }
        }
        assert!((1..6).contains(&handicaps), "{handicaps} handicap games of 6");
    }

    /// The description of a run of `extra` arguments on `openings`.
    fn desc(extra: &[&str], openings: &str) -> String {
        let opts = args(extra);
        describe(&opts, openings, &search_settings(&opts).unwrap())
    }

    #[test]
    fn the_description_names_what_changes_the_games() {
        let a = desc(&[], "x");
        assert_eq!(
            a,
            desc(&["--games", "5", "--threads", "1", "--block-records", "9"], "x")
        );
        assert_ne!(a, desc(&["--seed", "2"], "x"));
        assert_ne!(a, desc(&["--depth", "3"], "x"));
        assert_ne!(a, desc(&[], "y"));
        // A network is named by its file's checksum: two nets, two descriptions.
        let dir = std::env::temp_dir().join(format!("soppo-gen-data-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (one, two) = (dir.join("one.nnue"), dir.join("two.nnue"));
        std::fs::write(&one, nnue::random_net(nnue::Features::KP, 1).to_bytes()).unwrap();
        std::fs::write(&two, nnue::random_net(nnue::Features::KP, 2).to_bytes()).unwrap();
        let with_one = desc(&["--net", one.to_str().unwrap()], "x");
        assert!(with_one.contains("nnue-"), "{with_one}");
        assert_ne!(a, with_one);
        assert_ne!(with_one, desc(&["--net", two.to_str().unwrap()], "x"));
        assert_eq!(with_one, desc(&["--net", one.to_str().unwrap()], "x"));
        // A file that is no network is refused, saying which.
        std::fs::write(&two, b"not a network").unwrap();
        let err = search_settings(&args(&["--net", two.to_str().unwrap()])).unwrap_err();
        assert!(format!("{err:#}").contains("two.nnue"), "{err:#}");
        std::fs::remove_dir_all(&dir).unwrap();
        let named = data_path(&args(&["--out", "runs/d"])).unwrap();
        assert_eq!(named, Path::new("runs/d/nodes5000-seed1.bin"));
        assert!(data_path(&args(&["--name", "a/b"])).is_err());
    }
}
