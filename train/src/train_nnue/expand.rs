//! `--expand`: more training positions from each recorded one, by random walks.
//!
//! A few hundred thousand positions of self-play are far too few for the network's 435 k
//! weights: it learns its training games by heart (see `docs/journal/NNUE.md`). Its job is to
//! judge every position the search reaches, and the search spends most of its nodes a move or
//! two off a game's line, after moves no game would play. The positions of short random walks
//! from the recorded ones are such positions; the classic evaluation scores them (microseconds
//! each, against milliseconds for a search), and the network learns, besides the searched
//! scores of the games, what the classic evaluation makes of the positions around them.

use super::Sample;
use soppo_core::Position;
use soppo_core::rng::{SplitMix64, splitmix64};

/// The positions of `walks` random walks of up to `plies` plies from `start` (each ply a
/// uniformly drawn legal move), leaving out the positions in check (the search does not
/// evaluate those: it searches their evasions). A walk ends early at a position without
/// legal moves. The same `seed` gives the same positions.
pub fn walk_positions(start: &Position, seed: u64, walks: u32, plies: u32) -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..walks {
        let mut pos = start.clone();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(*rng.pick(&moves));
            if !pos.in_check() {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// The samples of [`walk_positions`] from `s`, their target `λ · σ(classic / K) + (1 − λ) · ½`
/// (no game was played from them: the result's share is a draw's).
pub fn expand(s: &Sample, seed: u64, walks: u32, plies: u32, lambda: f32, k: f32) -> Vec<Sample> {
    let Ok(start) = Position::unpack(&s.packed) else {
        return Vec::new();
    };
    walk_positions(&start, seed, walks, plies)
        .iter()
        .filter_map(|pos| {
            let packed = pos.pack().ok()?;
            Some(Sample {
                packed,
                target: classic_target(pos, lambda, k),
            })
        })
        .collect()
}

/// `λ · σ(classic / K) + (1 − λ) · ½`, the classic evaluation's static score of `pos` as a
/// target.
pub fn classic_target(pos: &Position, lambda: f32, k: f32) -> f32 {
    super::mixed_target(super::eval_cp(pos), 0.5, lambda, k)
}

/// [`expand`] of every sample of `samples` on `threads` threads, in order (sample `i`'s walks
/// seeded by `seed` and `i`: the same on any thread count).
pub fn expand_all(
    samples: &[Sample],
    seed: u64,
    walks: u32,
    plies: u32,
    lambda: f32,
    k: f32,
    threads: usize,
) -> Vec<Sample> {
    let per = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<Sample>> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(per)
            .enumerate()
            .map(|(t, part)| {
                scope.spawn(move || {
                    let mut v = Vec::new();
                    for (i, s) in part.iter().enumerate() {
                        let seed = splitmix64(seed ^ splitmix64((t * per + i) as u64));
                        v.extend(expand(s, seed, walks, plies, lambda, k));
                    }
                    v
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an expanding thread panicked"))
            .collect()
    });
    parts.into_iter().flatten().collect()
}
