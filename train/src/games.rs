//! Game records: the TSV game files that `selfplay` writes and the tuners read, one game a line.
//!
//! Columns: the game as a USI position (`startpos moves …` or `sfen <board> <side> <hand> <n>
//! moves …`), the number of plies, how it ended (see [`black_result`]), the final SFEN; self-play
//! files add a fifth column, the searched score before each move (centipawns, mover's view,
//! comma-separated), and a sixth, `opening:N`, the line of the openings file the game was cut
//! from (see [`opening_key`]). `games_lishogi500.tsv` of the shared data has the first four.

use anyhow::{Context, Result, bail, ensure};
use soppo_core::{Color, Move, Position, STARTPOS_SFEN};

/// Sets up `startpos moves …` or `sfen <board> <side> <hand> <n> moves …` and returns the
/// start and the moves' text.
pub fn parse_game(text: &str) -> Result<(Position, Vec<&str>)> {
    let mut tokens = text.split_whitespace();
    let pos = match tokens.next() {
        Some("startpos") => Position::from_sfen(STARTPOS_SFEN)?,
        Some("sfen") => {
            let sfen: Vec<&str> = tokens.by_ref().take(4).collect();
            Position::from_sfen(&sfen.join(" ")).with_context(|| format!("bad SFEN in `{text}`"))?
        }
        _ => bail!("game line does not start with `startpos` or `sfen`: `{text}`"),
    };
    let moves: Vec<&str> = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.collect(),
        Some(t) => bail!("expected `moves`, got `{t}`"),
    };
    Ok((pos, moves))
}

/// The move `text` (USI) in `pos`, which must be legal there.
pub fn legal_move(pos: &Position, text: &str) -> Result<Move> {
    let m = pos.parse_move(text).map_err(|e| anyhow::anyhow!("`{text}`: {e:?}"))?;
    ensure!(pos.is_legal_move(m), "illegal move `{text}`");
    Ok(m)
}

/// What a `not-mate` game counts as.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotMate {
    /// Leave the game out.
    Skip,
    /// The side to move at the end lost (it resigned or ran out of time on its turn).
    SideToMoveLoses,
}

/// The result of a game for Black (1 win, ½ draw, 0 loss), if the ending column says:
/// - `checkmate`: the side to move in the final position is mated and lost;
/// - `black` / `sente` / `white` / `gote` / `draw` (or `black-win` …): said outright;
/// - `not-mate` (resignation, time, …; the lishogi file does not say which): as `not_mate`
///   says.
pub fn black_result(ending: &str, final_pos: &Position, not_mate: NotMate) -> Result<Option<f64>> {
    let stm_loses = || {
        if final_pos.side_to_move() == Color::Black {
            0.0
        } else {
            1.0
        }
    };
    Ok(match ending.trim().to_ascii_lowercase().as_str() {
        "checkmate" => Some(stm_loses()),
        "black" | "sente" | "black-win" | "sente-win" => Some(1.0),
        "white" | "gote" | "white-win" | "gote-win" => Some(0.0),
        "draw" => Some(0.5),
        "not-mate" => match not_mate {
            NotMate::Skip => None,
            NotMate::SideToMoveLoses => Some(stm_loses()),
        },
        other => bail!("unknown game ending `{other}`"),
    })
}

/// The fifth column of a game row: the searched score before each move, comma-separated;
/// `None` when the row has none.
pub fn parse_scores(column: Option<&str>, moves: usize) -> Result<Option<Vec<f64>>> {
    let Some(column) = column.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let scores = column
        .split(',')
        .map(|v| v.trim().parse::<f64>().with_context(|| format!("bad score `{v}`")))
        .collect::<Result<Vec<f64>>>()?;
    ensure!(
        scores.len() == moves,
        "{} scores for {moves} moves in the score column",
        scores.len()
    );
    Ok(Some(scores))
}

/// The opening a game row comes from, by which the tuners keep related games on one side of
/// their training / held-out split. A self-play game names the openings-file line it was cut
/// from (sixth column `opening:N`): cuts of one line at different plies share its first moves.
/// Older files give only the start position (a cut game); a game from the initial position (a
/// human game) is its own.
pub fn opening_key<'a>(cols: &[&'a str]) -> &'a str {
    let game = cols[0];
    if let Some(&source) = cols.get(5).filter(|c| c.starts_with("opening:")) {
        source
    } else if game.starts_with("sfen ") {
        game.split(" moves").next().unwrap_or(game)
    } else {
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_from_the_ending_column() {
        let black_to_move = Position::from_sfen(STARTPOS_SFEN).unwrap();
        assert_eq!(
            black_result("checkmate", &black_to_move, NotMate::Skip).unwrap(),
            Some(0.0)
        );
        assert_eq!(black_result("not-mate", &black_to_move, NotMate::Skip).unwrap(), None);
        assert_eq!(
            black_result("not-mate", &black_to_move, NotMate::SideToMoveLoses).unwrap(),
            Some(0.0)
        );
        assert_eq!(black_result("gote", &black_to_move, NotMate::Skip).unwrap(), Some(0.0));
        assert_eq!(black_result("draw", &black_to_move, NotMate::Skip).unwrap(), Some(0.5));
        assert!(black_result("resign?", &black_to_move, NotMate::Skip).is_err());
    }
}
