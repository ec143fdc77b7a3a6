//! `soppo`: the USI engine binary.
//!
//! This is the interim shell that ships with the rules core: it speaks enough USI for a GUI
//! to load the engine and play legal moves (mate in one when there is one, otherwise the
//! move that keeps the most material after the opponent's best capture), answers `go mate`
//! with a mate in one or `checkmate nomate`/`notimplemented`, and offers the `d` and `perft`
//! debugging commands. The full front-end, search and mate solver replace it.

use soppo_core::perft::perft;
use soppo_core::{Move, Position};
use std::io::{BufRead, Write};

mod interim_search;

fn main() -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        let mut words = text.split_whitespace();
        match words.next() {
            Some("usi") => {
                writeln!(out, "id name Soppo {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Soppo developers")?;
                writeln!(out, "usiok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("position") => match parse_position(text) {
                Ok(p) => pos = p,
                Err(e) => writeln!(out, "info string position not set ({e}); keeping the previous position")?,
            },
            Some("go") => {
                if words.next() == Some("mate") {
                    let answer = match pos.clone().mate_in_one() {
                        Some(m) => format!("checkmate {m}"),
                        None => "checkmate notimplemented".to_string(),
                    };
                    writeln!(out, "{answer}")?;
                } else {
                    match interim_search::best_move(&mut pos) {
                        Some(m) => writeln!(out, "bestmove {m}")?,
                        None => writeln!(out, "bestmove resign")?,
                    }
                }
            }
            Some("d") => writeln!(out, "{pos}")?,
            Some("perft") => {
                let depth = words.next().and_then(|d| d.parse::<u32>().ok()).unwrap_or(1).min(8);
                let nodes = perft(&mut pos.clone(), depth);
                writeln!(out, "Nodes searched: {nodes}")?;
            }
            Some("quit") => break,
            // setoption, usinewgame, stop, ponderhit, gameover: nothing to do in this shell.
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

/// Parses `position startpos|sfen <sfen> [moves m1 m2 ...]`.
fn parse_position(text: &str) -> Result<Position, String> {
    let rest = text.trim_start_matches("position").trim();
    let (setup, moves) = match rest.find(" moves") {
        Some(i) => (&rest[..i], rest[i + 6..].trim()),
        None => (rest, ""),
    };
    let mut pos = if setup == "startpos" {
        Position::startpos()
    } else if let Some(sfen) = setup.strip_prefix("sfen") {
        Position::from_sfen(sfen.trim()).map_err(|e| e.to_string())?
    } else {
        return Err(format!("expected `startpos` or `sfen`, found `{setup}`"));
    };
    for (i, text) in moves.split_whitespace().enumerate() {
        let m: Move = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.do_move(m);
    }
    Ok(pos)
}
