//! `tsume-check <SFEN | FILE> [--line "<USI moves>"] [--json] [--time-ms N]`: a composer's
//! check of a tsume problem along its main line (余詰, 変同, 変長, 早詰, 駒余り), the problem
//! given as SFEN or as a KIF or CSA file whose moves, if any, are the intended main line.

use crate::kif;
use crate::tsume_cmd::usi_line;
use anyhow::{Context, Result, bail};
use serde_json::json;
use soppo_core::{Move, Position};
use soppo_engine::mate::{CheckLimits, CheckReport, FlawKind, check_problem};
use std::path::Path;
use std::time::{Duration, Instant};

/// Largest problem file read: a tsume record is a few kilobytes.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// What to check and how.
pub struct CheckArgs<'a> {
    /// An SFEN, or the path of a KIF or CSA file.
    pub input: &'a str,
    /// The intended main line in USI, instead of the file's moves or the solver's answer.
    pub line: Option<&'a str>,
    pub json: bool,
    pub time: Option<Duration>,
    pub hash_mb: usize,
    /// Where to write the main line and each flaw's line as KIF (Shift JIS for `.kif`, UTF-8
    /// otherwise).
    pub kif: Option<&'a Path>,
}

/// Prints the check's report. Returns whether the problem was found sound (exit code 0);
/// unsound or undecided is 1.
///
/// # Errors
/// An input that cannot be read, a line that is not legal, or a position that is not a mate
/// problem: a message naming the file, line and fault.
pub fn run(args: &CheckArgs) -> Result<bool> {
    let (pos, file_line) = read_problem(args.input)?;
    let line = match args.line {
        Some(text) => Some(parse_line(&pos, text)?),
        None => file_line.filter(|l| !l.is_empty()),
    };
    let limits = CheckLimits {
        time: args.time,
        hash_mb: args.hash_mb,
        ..CheckLimits::default()
    };
    let started = Instant::now();
    let bar = soppo_train::progress::with_template(
        line.as_ref().map_or(0, |l| l.len() as u64),
        "checking move {pos}/{len} {bar:30} {elapsed_precise}",
    );
    let report = check_problem(&pos, line.as_deref(), &limits, &mut |ply, of| {
        bar.set_length(of as u64);
        bar.set_position(ply as u64);
    });
    bar.finish_and_clear();
    let report = report.with_context(|| format!("{}: cannot check the problem", args.input))?;
    let elapsed = started.elapsed();
    if let Some(path) = args.kif {
        write_kif_file(path, &pos, &report)?;
    }
    if args.json {
        println!("{}", to_json(&pos, &report, elapsed));
    } else {
        print_text(&pos, &report, elapsed);
    }
    Ok(report.sound() == Some(true))
}

/// The position and, from a file, its moves.
fn read_problem(input: &str) -> Result<(Position, Option<Vec<Move>>)> {
    let path = Path::new(input);
    // A file by its name or its existence; anything else is read as an SFEN.
    let kifu_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["kif", "kifu", "csa"].contains(&e.to_ascii_lowercase().as_str()));
    let looks_like_sfen = !kifu_name && !path.exists();
    if looks_like_sfen || input.trim() == "startpos" {
        let pos = crate::perft_cmd::parse_position(input)?;
        return Ok((pos, None));
    }
    let meta = std::fs::metadata(path).with_context(|| format!("{input}: cannot read"))?;
    if meta.len() > MAX_FILE_BYTES {
        bail!(
            "{input}: {} bytes, larger than a problem file can be ({MAX_FILE_BYTES} bytes at most); not read",
            meta.len()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("{input}: cannot read"))?;
    if bytes.contains(&0) {
        bail!("{input}: a binary file (it holds NUL bytes), not a KIF or CSA record");
    }
    let format = soppo_kifu::detect_format(input, &bytes)
        .with_context(|| format!("{input}: neither KIF nor CSA (by its name and its first lines)"))?;
    let record = soppo_kifu::read(&bytes, format).map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
    let pos = Position::from_sfen(&record.start_sfen)
        .with_context(|| format!("{input}: the start position `{}` is impossible", record.start_sfen))?;
    // soppo-kifu has checked every move's legality; the USI text parses back.
    let moves = parse_line(&pos, &record.moves.join(" ")).with_context(|| format!("{input}: its moves"))?;
    Ok((pos, Some(moves)))
}

/// USI moves, each legal in turn from `pos`.
fn parse_line(pos: &Position, text: &str) -> Result<Vec<Move>> {
    let mut p = pos.clone();
    let mut line = Vec::new();
    for (i, t) in text.split_whitespace().enumerate() {
        let m = p
            .parse_move(t)
            .map_err(|e| anyhow::anyhow!("--line: move {} `{t}` is not legal here: {e}", i + 1))?;
        p.do_move(m);
        line.push(m);
    }
    Ok(line)
}

/// The Japanese notation of `line` from the position after `main[..ply - 1]`.
fn japanese_from(pos: &Position, main: &[Move], ply: usize, line: &[Move]) -> String {
    let mut p = pos.clone();
    for &m in &main[..ply.saturating_sub(1).min(main.len())] {
        p.do_move(m);
    }
    kif::japanese(&p, line).join(" ")
}

/// The verdict in words.
fn verdict(report: &CheckReport) -> &'static str {
    match report.sound() {
        Some(true) => "sound",
        Some(false) => "unsound",
        None => "undecided",
    }
}

/// Writes the main line, with each flaw's line as a variation, as KIF.
fn write_kif_file(path: &Path, pos: &Position, report: &CheckReport) -> Result<()> {
    let mut comments = vec![format!("soppo-tools tsume-check: {}", verdict(report))];
    for f in &report.flaws {
        let note = if f.tolerated { ", tolerated" } else { "" };
        comments.push(format!(
            "move {}: {} ({}{note})",
            f.ply,
            f.kind.japanese(),
            f.kind.code()
        ));
    }
    if let Some(u) = report.undecided {
        comments.push(format!("undecided at move {}: {}", u.ply, u.question));
    }
    // 駒余り's line is the main line's own last move: no variation.
    let variations: Vec<soppo_kifu::Variation> = report
        .flaws
        .iter()
        .filter(|f| f.kind != FlawKind::Komaamari && !f.line.is_empty())
        .map(|f| soppo_kifu::Variation {
            ply: f.ply,
            moves: f.line.clone(),
        })
        .collect();
    let text = soppo_kifu::write_kif(pos, &report.main_line, &variations, &comments);
    let name = path.to_string_lossy();
    std::fs::write(path, soppo_kifu::kif_file_bytes(&text, &name)).with_context(|| format!("cannot write {name}"))
}

fn print_text(pos: &Position, report: &CheckReport, elapsed: Duration) {
    println!("problem: {}", pos.to_sfen());
    match report.shortest {
        Some(n) => println!("shortest mate: {n} plies"),
        None => println!("shortest mate: not found in the time given"),
    }
    if !report.main_line.is_empty() {
        println!(
            "main line ({} plies): {}",
            report.main_line.len(),
            kif::japanese(pos, &report.main_line).join(" ")
        );
    }
    for f in &report.flaws {
        let note = if f.tolerated { ", tolerated" } else { "" };
        println!(
            "move {}: {} ({}{note}): {}",
            f.ply,
            f.kind.japanese(),
            f.kind.code(),
            japanese_from(pos, &report.main_line, f.ply, &f.line)
        );
    }
    if let Some(u) = report.undecided {
        println!("undecided at move {}: {} (out of time)", u.ply, u.question);
    }
    println!(
        "{} ({:.1} s, {} nodes)",
        verdict(report),
        elapsed.as_secs_f64(),
        report.nodes
    );
}

fn to_json(pos: &Position, report: &CheckReport, elapsed: Duration) -> serde_json::Value {
    let flaws: Vec<_> = report
        .flaws
        .iter()
        .map(|f| {
            json!({
                "kind": f.kind.code(),
                "ply": f.ply,
                "line": usi_line(&f.line),
                "tolerated": f.tolerated,
            })
        })
        .collect();
    json!({
        "sfen": pos.to_sfen(),
        "shortest": report.shortest,
        "sound": report.sound(),
        "main_line": usi_line(&report.main_line),
        "flaws": flaws,
        "undecided": report.undecided.map(|u| json!({"ply": u.ply, "question": u.question.to_string()})),
        "nodes": report.nodes,
        "time_ms": elapsed.as_millis() as u64,
    })
}
