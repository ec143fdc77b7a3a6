//! `fit-mate3 [--data DIR] [--folds N] [--seed N] [--nomate-ratio R]`: fits the weights of the
//! static 3-ply mate score ([`soppo_core::mate_eval`], after Tanaka et al.) by least squares,
//! with stratified k-fold cross-validation, and compares them with the paper's Table 1.
//!
//! **Data set** (files of the shared data directory, `README.md` there for the formats):
//! - every position of `games_lishogi500.tsv` (each game replayed from its `startpos moves …`
//!   column, the final position included), either side to move, labelled by an exact search
//!   under game rules ([`mate_within_3`]): target 100 when the side to move mates within
//!   3 plies, else 0 (the paper's "mate positions" and "no-mate positions" from games);
//! - `mate3_yaneuraou.tsv` (all rows) and `mate_curated.tsv` rows stated `3`: 3-ply tsume
//!   problems, target 90 as in the paper (whatever the game-rule search says: some are tsume
//!   answers that game rules lengthen with futile interpositions);
//! - `mate1_nshogi.tsv`: mate-in-1 positions, target 100 (a mate in 1 is a mate within 3).
//!
//! Positions where the side to move is in check are left out everywhere: the attacker must
//! answer the check before it can attack, which none of the features sees (and the paper's
//! positions are attacker-to-move attacking positions). Positions where the defender is in
//! check (malformed) or has no king are left out as well.
//!
//! **Balance.** Game positions without a mate are the vast majority (most of every game is
//! nowhere near a mate). We keep every mate-labelled position and a seeded random sample of
//! the no-mate game positions, `--nomate-ratio` times as many as the mate-labelled ones
//! (default 1264/1492 ≈ 0.847, the paper's no-mate : mate-or-tsume ratio), so that the
//! precision figures are comparable with the paper's balanced database.
//!
//! **Cross-validation** as in the paper (§4.2): each class (game mate, tsume, mate in 1,
//! no mate) is shuffled (seeded) and split into k parts; fold i fits on the other k−1 parts
//! of every class and is scored on part i. "Mate" precision = mate-labelled share of the
//! held-out positions with F ≥ 60, recall = share of the held-out mate-labelled positions
//! with F ≥ 60; likewise "no mate" with F ≤ 20. The paper's fixed weights are scored on the
//! same held-out parts. The final weights are fitted on all the data.

use crate::games::{legal_move, parse_game};
use crate::{progress, shared_data, tsv};
use anyhow::{Context, Result, ensure};
use soppo_core::Position;
use soppo_core::mate_eval::{Mate3Features, Mate3Weights};
use soppo_core::movegen::{MoveList, generate_checks, generate_legal};
use soppo_core::rng::SplitMix64;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The paper's no-mate : (mate + tsume) ratio, 1264 : (1112 + 380).
pub const PAPER_NOMATE_RATIO: f64 = 1264.0 / 1492.0;

/// The options of `fit-mate3`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The shared data directory (default: `$SOPPO_SHARED_DATA`, else shared/data beside the
    /// checkout).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Number of cross-validation folds.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub folds: usize,
    /// Seed of the no-mate sample and of the fold shuffle.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// No-mate game positions kept per mate-labelled position (default: the paper's
    /// 1264 / 1492).
    #[arg(long, value_name = "R", default_value_t = PAPER_NOMATE_RATIO)]
    pub nomate_ratio: f64,
}

/// Where a sample comes from; the cross-validation splits each class separately.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Class {
    GameMate,
    Tsume,
    MateInOne,
    NoMate,
}

impl Class {
    const ALL: [Class; 4] = [Class::GameMate, Class::Tsume, Class::MateInOne, Class::NoMate];

    fn target(self) -> f64 {
        match self {
            Class::GameMate | Class::MateInOne => 100.0,
            Class::Tsume => 90.0,
            Class::NoMate => 0.0,
        }
    }

    fn is_mate(self) -> bool {
        self != Class::NoMate
    }
}

#[derive(Copy, Clone, Debug)]
struct Sample {
    features: Mate3Features,
    class: Class,
}

/// Whether the side to move mates within 3 plies under game rules: a mate in 1, or a check
/// after which every legal reply allows a mate in 1. Checks come from the legal check
/// generator, which never produces a pawn-drop mate; so does [`Position::mate_in_one`].
pub fn mate_within_3(pos: &mut Position) -> bool {
    if pos.mate_in_one().is_some() {
        return true;
    }
    let mut checks = MoveList::new();
    generate_checks::<true>(pos, &mut checks);
    checks.iter().any(|&m| {
        pos.do_move(m);
        let mut replies = MoveList::new();
        generate_legal::<true>(pos, &mut replies);
        // No reply at all would be a mate in 1, already excluded; `all` is true then anyway.
        let mated = replies.iter().all(|&r| {
            pos.do_move(r);
            let mate = pos.mate_in_one().is_some();
            pos.undo_move(r);
            mate
        });
        pos.undo_move(m);
        mated
    })
}

/// Why a position is left out, if it is: the side to move in check, the defender in check
/// (malformed) or without a king.
fn excluded(pos: &Position) -> bool {
    let attacker = pos.side_to_move();
    match pos.king_square(!attacker) {
        None => true,
        Some(k) => pos.in_check() || pos.is_attacked(attacker, k),
    }
}

/// Counts kept while labelling.
#[derive(Default, Debug)]
struct LabelStats {
    game_positions: usize,
    game_skipped: usize,
    game_mates: usize,
    tsume_rows: usize,
    tsume_skipped: usize,
    /// Tsume rows (target 90) that the exact game-rule test also finds a mate within 3 in.
    tsume_confirmed: usize,
    mate1_rows: usize,
    mate1_skipped: usize,
}

/// Reads and labels everything; returns (mate-labelled samples, all no-mate game samples).
fn load(dir: &Path, stats: &mut LabelStats) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let read = |name: &str| tsv::read(&dir.join(name));
    let games = read("games_lishogi500.tsv")?;
    let mate3 = read("mate3_yaneuraou.tsv")?;
    let curated = read("mate_curated.tsv")?;
    let mate1 = read("mate1_nshogi.tsv")?;
    let mut tsume: Vec<&str> = tsv::rows(&mate3).map(|r| r.first()).collect();
    tsume.extend(tsv::rows(&curated).filter(|r| r.get(1) == Some("3")).map(|r| r.first()));
    let mate1: Vec<&str> = tsv::rows(&mate1).map(|r| r.first()).collect();
    let game_rows: Vec<tsv::Row> = tsv::rows(&games).collect();
    let game_work: usize = game_rows
        .iter()
        .map(|r| r.first().split_whitespace().count().saturating_sub(1))
        .sum();
    let bar = progress::counted((game_work + tsume.len() + mate1.len()) as u64, "labelling");
    let mut mates = Vec::new();
    let mut nomates = Vec::new();
    for r in &game_rows {
        let context = || format!("games_lishogi500.tsv line {}", r.line);
        let (mut pos, moves) = parse_game(r.first()).with_context(context)?;
        // Label the start and the position after every move (the final position too).
        for k in 0..=moves.len() {
            stats.game_positions += 1;
            if excluded(&pos) {
                stats.game_skipped += 1;
            } else if let Some(features) = Mate3Features::extract(&pos) {
                let mate = mate_within_3(&mut pos);
                stats.game_mates += usize::from(mate);
                let class = if mate { Class::GameMate } else { Class::NoMate };
                (if mate { &mut mates } else { &mut nomates }).push(Sample { features, class });
            }
            if let Some(text) = moves.get(k) {
                pos.do_move(legal_move(&pos, text).with_context(context)?);
            }
            bar.inc(1);
        }
    }
    for (sfens, class) in [(&tsume, Class::Tsume), (&mate1, Class::MateInOne)] {
        for &sfen in sfens {
            bar.inc(1);
            let mut pos = Position::from_sfen(sfen).with_context(|| format!("bad SFEN `{sfen}`"))?;
            let skipped = excluded(&pos);
            if class == Class::Tsume {
                stats.tsume_rows += 1;
                stats.tsume_skipped += usize::from(skipped);
            } else {
                stats.mate1_rows += 1;
                stats.mate1_skipped += usize::from(skipped);
            }
            if skipped {
                continue;
            }
            if class == Class::Tsume && mate_within_3(&mut pos) {
                stats.tsume_confirmed += 1;
            }
            if let Some(features) = Mate3Features::extract(&pos) {
                mates.push(Sample { features, class });
            }
        }
    }
    bar.finish_and_clear();
    Ok((mates, nomates))
}

/// The design row of a sample: 1 for the constant, then the features.
fn row(s: &Sample) -> [f64; Mate3Weights::COUNT] {
    let f = s.features.to_array();
    let mut x = [1.0; Mate3Weights::COUNT];
    for (xi, fi) in x[1..].iter_mut().zip(f) {
        *xi = f64::from(fi);
    }
    x
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting. A column whose best pivot
/// is negligible is linearly dependent on earlier ones (for instance a hand kind that never
/// occurs in the training data): its unknown is set to 0 and the system solved without it.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    let scale = (0..N).map(|i| a[i][i].abs()).fold(0.0, f64::max).max(1.0);
    let eps = scale * 1e-12;
    let mut pivot_col = [usize::MAX; N];
    let mut r = 0;
    for c in 0..N {
        if r == N {
            break;
        }
        let Some(p) = (r..N).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())) else {
            break;
        };
        if a[p][c].abs() <= eps {
            continue;
        }
        a.swap(r, p);
        b.swap(r, p);
        let (pivot_row, pivot_b) = (a[r], b[r]);
        for i in r + 1..N {
            let factor = a[i][c] / pivot_row[c];
            if factor != 0.0 {
                for (x, p) in a[i][c..].iter_mut().zip(&pivot_row[c..]) {
                    *x -= factor * p;
                }
                b[i] -= factor * pivot_b;
            }
        }
        pivot_col[r] = c;
        r += 1;
    }
    let mut x = [0.0; N];
    for i in (0..r).rev() {
        let c = pivot_col[i];
        let rest: f64 = (c + 1..N).map(|j| a[i][j] * x[j]).sum();
        x[c] = (b[i] - rest) / a[i][c];
    }
    x
}

/// Ordinary least squares through the normal equations `XᵀX·w = Xᵀy`.
fn fit<'a>(samples: impl Iterator<Item = &'a Sample>) -> Mate3Weights {
    const N: usize = Mate3Weights::COUNT;
    let mut xtx = [[0.0f64; N]; N];
    let mut xty = [0.0f64; N];
    for s in samples {
        let x = row(s);
        let y = s.class.target();
        for ((row, t), &xi) in xtx.iter_mut().zip(&mut xty).zip(&x) {
            *t += xi * y;
            for (cell, &xj) in row.iter_mut().zip(&x) {
                *cell += xi * xj;
            }
        }
    }
    Mate3Weights::from_array(solve(xtx, xty).map(|w| w as f32))
}

/// Held-out counts of one fold for one set of weights.
#[derive(Default, Copy, Clone, Debug)]
struct Confusion {
    /// F ≥ 60: mate-labelled, no-mate.
    hi_mate: usize,
    hi_nomate: usize,
    /// F ≤ 20: no-mate, mate-labelled.
    lo_nomate: usize,
    lo_mate: usize,
    mates: usize,
    nomates: usize,
}

/// Precision and recall as percentages (`None` when undefined: nothing predicted or present).
#[derive(Copy, Clone, Debug)]
struct Rates {
    mate_p: Option<f64>,
    mate_r: Option<f64>,
    nomate_p: Option<f64>,
    nomate_r: Option<f64>,
}

#[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
fn pct(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| 100.0 * num as f64 / den as f64)
}

impl Confusion {
    fn of(weights: &Mate3Weights, samples: &[&Sample]) -> Confusion {
        let mut c = Confusion::default();
        for s in samples {
            let f = weights.score(&s.features);
            let mate = s.class.is_mate();
            if mate {
                c.mates += 1;
            } else {
                c.nomates += 1;
            }
            if f >= Mate3Weights::MATE_THRESHOLD {
                if mate {
                    c.hi_mate += 1;
                } else {
                    c.hi_nomate += 1;
                }
            }
            if f <= Mate3Weights::NO_MATE_THRESHOLD {
                if mate {
                    c.lo_mate += 1;
                } else {
                    c.lo_nomate += 1;
                }
            }
        }
        c
    }

    fn rates(&self) -> Rates {
        Rates {
            mate_p: pct(self.hi_mate, self.hi_mate + self.hi_nomate),
            mate_r: pct(self.hi_mate, self.mates),
            nomate_p: pct(self.lo_nomate, self.lo_nomate + self.lo_mate),
            nomate_r: pct(self.lo_nomate, self.nomates),
        }
    }
}

/// The mean of the defined values.
#[allow(clippy::cast_precision_loss, reason = "at most a few hundred folds")]
fn mean(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = values.flatten().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn mean_rates(all: &[Rates]) -> Rates {
    Rates {
        mate_p: mean(all.iter().map(|r| r.mate_p)),
        mate_r: mean(all.iter().map(|r| r.mate_r)),
        nomate_p: mean(all.iter().map(|r| r.nomate_p)),
        nomate_r: mean(all.iter().map(|r| r.nomate_r)),
    }
}

fn show(v: Option<f64>) -> String {
    v.map_or_else(|| "    -".to_owned(), |x| format!("{x:5.1}"))
}

fn show_rates(r: &Rates) -> String {
    format!(
        "{} {}   {} {}",
        show(r.mate_p),
        show(r.mate_r),
        show(r.nomate_p),
        show(r.nomate_r)
    )
}

/// The weights as the Rust constant to paste into `Mate3Weights::FITTED`.
pub fn rust_snippet(w: &Mate3Weights) -> String {
    let mut s = String::from("    pub const FITTED: Mate3Weights = Mate3Weights {\n");
    let _ = writeln!(s, "        constant: {:.2},", w.constant);
    let _ = writeln!(s, "        attacker_control: {:.2},", w.attacker_control);
    let _ = writeln!(s, "        defender_control: {:.2},", w.defender_control);
    let _ = writeln!(s, "        escapes: {:.2},", w.escapes);
    let _ = writeln!(s, "        own_control: {:.2},", w.own_control);
    let hand: Vec<String> = w.hand.iter().map(|h| format!("{h:.2}")).collect();
    let _ = writeln!(s, "        hand: [{}],", hand.join(", "));
    s.push_str("    };");
    s
}

const NAMES: [&str; Mate3Weights::COUNT] = [
    "constant",
    "attacker control (8 nbrs)",
    "defender control (3x3)",
    "escape squares",
    "own control (5x5)",
    "hand rook",
    "hand bishop",
    "hand gold",
    "hand silver",
    "hand knight",
    "hand lance",
    "hand pawn",
];

/// The whole command: label, balance, cross-validate, fit on everything, print.
pub fn run(opts: &Args) -> Result<()> {
    ensure!(opts.folds >= 2, "--folds must be at least 2");
    ensure!(
        opts.nomate_ratio.is_finite() && opts.nomate_ratio > 0.0,
        "--nomate-ratio must be positive"
    );
    let dir = &shared_data::dir(opts.data.clone());
    ensure!(
        dir.is_dir(),
        "data directory {} not found (use --data DIR or set {})",
        dir.display(),
        shared_data::ENV
    );
    println!("data: {}", dir.display());
    let start = Instant::now();
    let mut stats = LabelStats::default();
    let (mates, mut nomates) = load(dir, &mut stats)?;
    println!(
        "games: {} positions, {} skipped (side to move in check), {} mate within 3, {} no mate",
        stats.game_positions,
        stats.game_skipped,
        stats.game_mates,
        nomates.len()
    );
    println!(
        "tsume (3-ply, target 90): {} rows, {} skipped, game-rule search confirms {} mates within 3",
        stats.tsume_rows, stats.tsume_skipped, stats.tsume_confirmed
    );
    println!(
        "mate in 1 (target 100): {} rows, {} skipped",
        stats.mate1_rows, stats.mate1_skipped
    );
    println!("labelled in {:.1} s", start.elapsed().as_secs_f64());

    // Balance: a seeded sample of the no-mate game positions.
    let mut rng = SplitMix64::new(opts.seed);
    rng.shuffle(&mut nomates);
    // Every labelled game position, before balancing: the base rate an engine would meet.
    let games_all: Vec<Sample> = mates
        .iter()
        .filter(|s| s.class == Class::GameMate)
        .chain(&nomates)
        .copied()
        .collect();
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let keep = ((mates.len() as f64 * opts.nomate_ratio).round() as usize).min(nomates.len());
    nomates.truncate(keep);
    let mut data = mates;
    data.extend(nomates);
    ensure!(!data.is_empty(), "no usable positions in {}", dir.display());
    let count = |c: Class| data.iter().filter(|s| s.class == c).count();
    println!(
        "data set: {} positions = {} game mates + {} tsume + {} mates in 1 (mate-labelled) + {} no-mate \
         game positions (ratio {:.3}, sampled with seed {})",
        data.len(),
        count(Class::GameMate),
        count(Class::Tsume),
        count(Class::MateInOne),
        count(Class::NoMate),
        opts.nomate_ratio,
        opts.seed
    );

    // Stratified folds: each class shuffled and dealt round-robin.
    let mut fold_of = vec![0usize; data.len()];
    for class in Class::ALL {
        let mut idx: Vec<usize> = (0..data.len()).filter(|&i| data[i].class == class).collect();
        rng.shuffle(&mut idx);
        for (k, &i) in idx.iter().enumerate() {
            fold_of[i] = k % opts.folds;
        }
    }
    println!();
    println!("held-out precision / recall in %: mate = F>=60, no mate = F<=20");
    println!("fold     n | fitted: mate P     R   nomate P     R | paper: mate P     R   nomate P     R");
    let mut fitted_rates = Vec::new();
    let mut paper_rates = Vec::new();
    for fold in 0..opts.folds {
        let weights = fit((0..data.len()).filter(|&i| fold_of[i] != fold).map(|i| &data[i]));
        let held: Vec<&Sample> = (0..data.len())
            .filter(|&i| fold_of[i] == fold)
            .map(|i| &data[i])
            .collect();
        let f = Confusion::of(&weights, &held).rates();
        let p = Confusion::of(&Mate3Weights::PAPER, &held).rates();
        println!(
            "{:>4} {:>5} |       {} |      {}",
            fold + 1,
            held.len(),
            show_rates(&f),
            show_rates(&p)
        );
        fitted_rates.push(f);
        paper_rates.push(p);
    }
    let fitted_mean = mean_rates(&fitted_rates);
    let paper_mean = mean_rates(&paper_rates);
    println!(
        "mean {:>5} |       {} |      {}",
        data.len(),
        show_rates(&fitted_mean),
        show_rates(&paper_mean)
    );

    let final_weights = fit(data.iter());
    println!();
    println!("{:<27} {:>8} {:>8}", "weight", "paper", "fitted");
    for ((name, p), f) in NAMES
        .iter()
        .zip(Mate3Weights::PAPER.to_array())
        .zip(final_weights.to_array())
    {
        println!("{name:<27} {p:>8.1} {f:>8.2}");
    }
    println!();
    println!(
        "// Paste into core/src/mate_eval.rs (fitted on all {} positions):",
        data.len()
    );
    println!("{}", rust_snippet(&final_weights));
    let all: Vec<&Sample> = data.iter().collect();
    let in_sample = Confusion::of(&final_weights, &all).rates();
    println!("in-sample (final weights, all data): {}", show_rates(&in_sample));
    let games_ref: Vec<&Sample> = games_all.iter().collect();
    println!(
        "all {} game positions, unbalanced ({} mates, all in the fit; the no-mate ones mostly not): fitted {} | paper {}",
        games_ref.len(),
        stats.game_mates,
        show_rates(&Confusion::of(&final_weights, &games_ref).rates()),
        show_rates(&Confusion::of(&Mate3Weights::PAPER, &games_ref).rates())
    );
    println!();
    let v = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.1}"));
    println!(
        "fit-mate3: {} positions, mate precision {}% recall {}% (F>=60), no-mate precision {}% recall {}% (F<=20)",
        data.len(),
        v(fitted_mean.mate_p),
        v(fitted_mean.mate_r),
        v(fitted_mean.nomate_p),
        v(fitted_mean.nomate_r)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_small_system_and_dependent_column() {
        // 2x + y = 5, x + 3y = 10 → x = 1, y = 3; the third unknown never occurs.
        let a = [[2.0, 1.0, 0.0], [1.0, 3.0, 0.0], [0.0, 0.0, 0.0]];
        let x = solve(a, [5.0, 10.0, 0.0]);
        assert!(
            (x[0] - 1.0).abs() < 1e-12 && (x[1] - 3.0).abs() < 1e-12 && x[2] == 0.0,
            "{x:?}"
        );
    }

    #[test]
    fn exact_mate_test() {
        let mut one = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
        assert!(mate_within_3(&mut one));
        // The first mate3_yaneuraou problem: B*5g 4h5h 7i6i.
        let mut three =
            Position::from_sfen("ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42")
                .unwrap();
        assert!(mate_within_3(&mut three));
        let mut none = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        assert!(!mate_within_3(&mut none));
        assert!(!mate_within_3(&mut Position::startpos()));
    }

    /// The definition spelled out with the full legal generator and `is_checkmate` only.
    fn brute_force_mate_within_3(pos: &mut Position) -> bool {
        let checks: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        checks.into_iter().any(|m| {
            pos.do_move(m);
            let replies = pos.legal_moves();
            let mated = replies.is_empty()
                || replies.iter().all(|&r| {
                    pos.do_move(r);
                    let mates = pos.legal_moves().iter().any(|&m2| {
                        pos.do_move(m2);
                        let mate = pos.is_checkmate();
                        pos.undo_move(m2);
                        mate
                    });
                    pos.undo_move(r);
                    mates
                });
            pos.undo_move(m);
            mated
        })
    }

    #[test]
    fn exact_test_agrees_with_brute_force_on_game_endings() {
        let dir = shared_data::dir(None);
        let Ok(text) = std::fs::read_to_string(dir.join("games_lishogi500.tsv")) else {
            eprintln!("skipping: no games_lishogi500.tsv in {}", dir.display());
            return;
        };
        let (mut agreed, mut mates) = (0, 0);
        for r in tsv::rows(&text).take(60) {
            let (mut pos, moves) = parse_game(r.first()).unwrap();
            for (k, t) in moves.iter().enumerate() {
                // The last 12 positions of every game: where the mates are.
                if k + 12 >= moves.len() && !excluded(&pos) {
                    let fast = mate_within_3(&mut pos);
                    assert_eq!(fast, brute_force_mate_within_3(&mut pos), "{}", pos.to_sfen());
                    agreed += 1;
                    mates += usize::from(fast);
                }
                let m = pos.parse_move(t).unwrap();
                pos.do_move(m);
            }
        }
        assert!(agreed > 300 && mates > 20, "{agreed} positions, {mates} mates");
    }
}
