//! Time management: how long to think on this move, for byoyomi, Fischer and sudden-death
//! clocks, with the network-delay margins of the options.
//!
//! Two budgets come out: the *optimum* (no new iteration starts after half of it) and the
//! *maximum* (the search stops at once). The part of the optimum that would otherwise carry
//! over to later moves is *scalable*: the search stretches or shrinks it by how settled its
//! root is (`search::trend`). The main time and the increments still to come are
//! spread evenly over the moves still to play (estimated from the ply); a move may take up to
//! four such shares, never more than a fifth of the main time. In pure byoyomi the optimum is
//! set beyond the maximum, so that the byoyomi is used up. The maximum never exceeds what is
//! on the clock plus the byoyomi and increment, less a safety margin: `NetworkDelay2` (the
//! worst-case lag), but at most a fifth of that total, so that fast games with a 100–200 ms
//! byoyomi still use most of it, and at most a tenth of it once that tenth is 100 ms or more.
//! The search stops within about 20 ms of its maximum (measured over thousands of match
//! moves), so 100 ms keeps a byoyomi of one second safe, where keeping a fifth (200 ms) back
//! left Soppo 100 ms less to think than the opponents it plays at that setting.

use soppo_core::Color;
use soppo_usi::GoParams;
use std::time::Duration;

pub use crate::search::Budget as TimeBudget;

/// How the clock is read (the USI options `NetworkDelay`, `NetworkDelay2`,
/// `MinimumThinkingTime` and `SlowMover` set these).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeSettings {
    /// The lag paid on every move, ms.
    pub network_delay_ms: u64,
    /// The worst-case lag, kept back from the hard limit, ms.
    pub network_delay2_ms: u64,
    /// The least a move thinks where the clock affords it, ms.
    pub minimum_thinking_time_ms: u64,
    /// Time a move, per cent of the plan.
    pub slow_mover_percent: u64,
}

impl TimeSettings {
    pub const DEFAULT: TimeSettings = TimeSettings {
        network_delay_ms: 120,
        network_delay2_ms: 1120,
        minimum_thinking_time_ms: 2000,
        slow_mover_percent: 100,
    };
}

impl Default for TimeSettings {
    fn default() -> TimeSettings {
        TimeSettings::DEFAULT
    }
}

/// Clock values beyond this (about 11 days) are treated as this: no game needs more, and the
/// arithmetic below stays far from overflow.
const MAX_CLOCK_MS: u64 = 1_000_000_000;

/// How long a bare `go` (no clock, no depth, node or time limit, neither `infinite` nor
/// `ponder`) thinks. cshogi and ShogiArena send a bare `go` when a match has no time limits and
/// then wait for `bestmove`, so it must end on its own; YaneuraOu answers one after about 100 ms,
/// as if no time were left on the clock. A fixed tenth of a second gives a quick, sane move
/// (several plies deep) and keeps such matches moving.
pub const BARE_GO_TIME: Duration = Duration::from_millis(100);

/// The budget for a `go` with the side to move `us` at game ply `ply`. `go` carries every
/// depth and node limit of the search, the options' `DepthLimit` and `NodesLimit` included:
/// without a clock they alone end it.
pub fn budget(go: &GoParams, us: Color, ply: u32, opts: &TimeSettings) -> TimeBudget {
    if go.infinite {
        return TimeBudget::default();
    }
    let ms = |d: Option<Duration>| {
        d.map_or(0, |d| {
            u64::try_from(d.as_millis()).unwrap_or(u64::MAX).min(MAX_CLOCK_MS)
        })
    };
    if let Some(mt) = go.movetime {
        let t = ms(Some(mt)).saturating_sub(opts.network_delay_ms).max(1);
        let d = Duration::from_millis(t);
        return TimeBudget {
            optimum: Some(d),
            maximum: Some(d),
            ponder_credit: false,
            scalable: Duration::ZERO,
            scalable_max: Duration::ZERO,
        };
    }
    let (remaining, inc) = match us {
        Color::Black => (go.btime, go.binc),
        Color::White => (go.wtime, go.winc),
    };
    if remaining.is_none() && go.byoyomi.is_none() && inc.is_none() {
        if go.depth.is_some() || go.nodes.is_some() {
            // No clock but a depth or node limit (`go depth 5`, `go nodes N`, or the
            // `DepthLimit`/`NodesLimit` options): that limit alone ends the search.
            return TimeBudget::default();
        }
        // A bare `go` (or a bare `go ponder`, from its `ponderhit` on): new iterations may
        // start until the maximum, as in byoyomi alone, so that it thinks the whole time.
        return TimeBudget {
            optimum: Some(BARE_GO_TIME * 2),
            maximum: Some(BARE_GO_TIME),
            ponder_credit: false,
            scalable: Duration::ZERO,
            scalable_max: Duration::ZERO,
        };
    }
    let remaining = ms(remaining);
    let byoyomi = ms(go.byoyomi);
    let inc = ms(inc);
    let total = remaining + byoyomi + inc;
    let margin = opts.network_delay2_ms.min(total / 5).min((total / 10).max(100));
    let hard_cap = total.saturating_sub(margin).max(1);

    // Moves still to play, estimated from the game ply: games run about 120 plies.
    let moves_to_go = 60u64.saturating_sub(u64::from(ply) / 4).max(20);
    // The main time and the increments still to come are spread evenly over those moves.
    let pool = remaining + inc * (moves_to_go - 1);
    let share = pool / moves_to_go * opts.slow_mover_percent / 100;
    // The lag is paid on every move, so it comes out of the share (at most half of it).
    let mut optimum = share.saturating_sub(opts.network_delay_ms).max(share / 2);
    // `MinimumThinkingTime` only while the clock affords it: never beyond the even share. A
    // fixed minimum of two seconds with five seconds left spent the clock in three moves and
    // left sudden-death games to be played out at no time at all (docs/journal/BENCHMARKS.md,
    // "Sudden death, Fischer and pondering under a real clock").
    optimum = optimum.max(opts.minimum_thinking_time_ms.min(share));
    // One long move (an iteration that began before half the optimum) may take four shares,
    // but never more than a fifth of the main time (plus the increment).
    let mut maximum = (optimum * 4).min(remaining / 5 + inc).max(optimum);
    // What the move plans to spend of time that would otherwise carry over to later moves.
    let carried = optimum;
    if byoyomi > 0 {
        // The byoyomi is lost if unused: plan to spend it.
        optimum += byoyomi.saturating_sub(opts.network_delay_ms);
        maximum += byoyomi;
    }
    maximum = maximum.max(optimum);
    let mut optimum = optimum.min(hard_cap);
    let maximum = maximum.min(hard_cap);
    let byoyomi_only = byoyomi > 0 && remaining < byoyomi;
    // The search's stability scales only what would carry over: never a byoyomi.
    let mut scalable = carried.min(optimum);
    // A stretched move plans at most a twentieth of the main time (plus the increment): early
    // on that allows the search's whole stretch, and where the plan already counts on twenty
    // moves to go nothing. A first version that stretched there too ran its clock down to
    // under 30 ms in the longest games, against 300-480 ms for the plan without stretching
    // (docs/journal/BENCHMARKS.md, "Time from how settled the search is").
    let mut scalable_max = scalable.max((remaining / 20 + inc).min(maximum));
    if byoyomi_only {
        // Only the byoyomi is left, and what is not used is lost: new iterations may start
        // until the maximum, and the one cut off there still counts (a root move it finished
        // with a better score replaces the old best). Stopping at three quarters of the
        // maximum, as before, left more of it unused: 153 ms a move against 160 ms at byoyomi
        // 200 (docs/journal/BENCHMARKS.md, "The whole byoyomi used").
        optimum = maximum * 2;
        scalable = 0;
        scalable_max = 0;
    }
    TimeBudget {
        optimum: Some(Duration::from_millis(optimum)),
        maximum: Some(Duration::from_millis(maximum)),
        // What a byoyomi-only move leaves unused is lost: there pondering saves nothing.
        ponder_credit: !byoyomi_only,
        scalable: Duration::from_millis(scalable),
        scalable_max: Duration::from_millis(scalable_max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(btime: u64, wtime: u64, byoyomi: u64, inc: u64) -> GoParams {
        let d = |v: u64| (v > 0).then(|| Duration::from_millis(v));
        GoParams {
            btime: d(btime),
            wtime: d(wtime),
            byoyomi: d(byoyomi),
            binc: d(inc),
            winc: d(inc),
            ..GoParams::default()
        }
    }

    #[test]
    fn byoyomi_only_uses_most_of_it_and_never_all() {
        let opts = TimeSettings::default();
        for byo in [100u64, 200, 1000, 5000, 10_000] {
            let b = budget(&go(0, 0, byo, 0), Color::Black, 40, &opts);
            let max = b.maximum.unwrap().as_millis() as u64;
            assert!(max < byo, "{byo}: {max}");
            assert!(
                max >= byo * 4 / 5 || max + opts.network_delay2_ms >= byo,
                "{byo}: {max}"
            );
            // Iterations may start until the maximum.
            assert!(b.optimum.unwrap() / 2 >= b.maximum.unwrap(), "{byo}: {b:?}");
        }
    }

    #[test]
    fn the_margin_is_a_fifth_of_a_short_byoyomi_and_a_tenth_of_a_long_one() {
        let opts = TimeSettings::default();
        for (byo, max) in [
            (200u64, 160u64),
            (500, 400),
            (1000, 900),
            (3000, 2700),
            (20_000, 18_880),
        ] {
            let b = budget(&go(0, 0, byo, 0), Color::White, 40, &opts);
            assert_eq!(b.maximum, Some(Duration::from_millis(max)), "byoyomi {byo}");
        }
    }

    #[test]
    fn sudden_death_never_exceeds_the_clock() {
        let opts = TimeSettings::default();
        for remaining in [50u64, 500, 5_000, 60_000, 600_000] {
            let b = budget(&go(remaining, remaining, 0, 0), Color::White, 80, &opts);
            assert!(b.maximum.unwrap().as_millis() as u64 <= remaining);
            assert!(b.optimum <= b.maximum);
        }
    }

    /// Plays one side of a game on a clock: every move takes `spend(budget)` ms. Returns the
    /// clock after each move; panics if a move would take more than the clock holds.
    fn clock_after_each_move(start: u64, inc: u64, moves: u32, spend: fn(&TimeBudget) -> u64) -> Vec<u64> {
        let opts = TimeSettings::default();
        let mut clock = start;
        (0..moves)
            .map(|i| {
                let b = budget(&go(clock, clock, 0, inc), Color::Black, 2 * i, &opts);
                let used = spend(&b);
                assert!(
                    used <= clock + inc,
                    "move {i}: {used} ms with {clock} + {inc} on the clock"
                );
                clock = clock + inc - used;
                clock
            })
            .collect()
    }

    fn ms(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    #[test]
    fn sudden_death_spreads_the_clock_over_the_game() {
        // A search stops starting iterations at half the optimum and usually ends near it.
        for start in [5_000u64, 60_000, 600_000] {
            let clock = clock_after_each_move(start, 0, 120, |b| ms(b.optimum));
            // After 40 moves (80 plies) close to half is left, not nothing ...
            assert!(clock[39] >= start / 3, "{start}: {} left after 40 moves", clock[39]);
            // ... and something is still left after 120 moves.
            assert!(clock[119] > 0, "{start}: {clock:?}");
            // No move takes more than a tenth of what was on the clock.
            let mut before = start;
            for (i, &after) in clock.iter().enumerate() {
                assert!(
                    before - after <= before / 10,
                    "{start}: move {i} took {} of {before}",
                    before - after
                );
                before = after;
            }
        }
    }

    #[test]
    fn sudden_death_survives_moves_that_run_to_the_maximum() {
        for start in [1_000u64, 5_000, 60_000] {
            // The worst case: every move runs to the maximum.
            let clock = clock_after_each_move(start, 0, 150, |b| ms(b.maximum));
            assert!(clock[29] >= start / 20, "{start}: {} left after 30 moves", clock[29]);
            assert!(clock[149] > 0, "{start}: {clock:?}");
        }
        // With an increment the clock never empties, even when every move runs to the maximum.
        let clock = clock_after_each_move(10_000, 1_000, 200, |b| ms(b.maximum));
        assert!(clock.iter().all(|&c| c >= 50), "{clock:?}");
    }

    #[test]
    fn fischer_spends_the_increment() {
        let opts = TimeSettings {
            minimum_thinking_time_ms: 0,
            ..TimeSettings::default()
        };
        let b = budget(&go(60_000, 60_000, 0, 10_000), Color::Black, 20, &opts);
        assert!(b.optimum.unwrap() >= Duration::from_secs(9));
        assert!(b.maximum.unwrap() <= Duration::from_secs(70));
    }

    #[test]
    fn only_time_that_carries_over_is_scalable() {
        let opts = TimeSettings::default();
        let ms = |d: Duration| d.as_millis() as u64;
        // Sudden death and Fischer: all of the optimum.
        for (clock, inc) in [(60_000u64, 0u64), (60_000, 1_000)] {
            let b = budget(&go(clock, clock, 0, inc), Color::White, 30, &opts);
            assert_eq!(Some(b.scalable), b.optimum, "{clock} + {inc}");
            assert!(b.scalable > Duration::ZERO);
        }
        // Main time and byoyomi: the main time's share only, not the byoyomi.
        let b = budget(&go(60_000, 60_000, 10_000, 0), Color::Black, 30, &opts);
        assert!(ms(b.scalable) > 0 && ms(b.scalable) <= 60_000 / 20, "{b:?}");
        assert!(ms(b.optimum.unwrap()) >= ms(b.scalable) + 9_000, "{b:?}");
        // Early in a game the stretch may reach twice the plan; where the plan counts on
        // twenty moves to go, hardly at all.
        let early = budget(&go(60_000, 60_000, 0, 0), Color::Black, 20, &opts);
        assert!(early.scalable_max >= early.scalable * 2, "{early:?}");
        let late = budget(&go(60_000, 60_000, 0, 0), Color::Black, 200, &opts);
        assert!(ms(late.scalable_max) * 10 <= ms(late.scalable) * 11, "{late:?}");
        // Byoyomi alone, and movetime: nothing.
        assert_eq!(
            budget(&go(0, 0, 1_000, 0), Color::Black, 30, &opts).scalable,
            Duration::ZERO
        );
        let movetime = GoParams {
            movetime: Some(Duration::from_secs(1)),
            ..GoParams::default()
        };
        assert_eq!(budget(&movetime, Color::Black, 1, &opts).scalable, Duration::ZERO);
    }

    #[test]
    fn a_depth_or_node_limit_without_a_clock_means_no_time_limit() {
        let opts = TimeSettings::default();
        for go in [
            GoParams {
                depth: Some(5),
                ..GoParams::default()
            },
            GoParams {
                nodes: Some(10_000),
                ..GoParams::default()
            },
        ] {
            assert_eq!(budget(&go, Color::Black, 1, &opts), TimeBudget::default(), "{go:?}");
        }
    }

    #[test]
    fn a_bare_go_thinks_briefly_and_movetime_keeps_the_lag_margin() {
        let opts = TimeSettings::default();
        for go in [
            GoParams::default(),
            GoParams {
                ponder: true,
                ..GoParams::default()
            },
        ] {
            let b = budget(&go, Color::Black, 1, &opts);
            // It stops at BARE_GO_TIME, and iterations may start until then.
            assert_eq!(b.maximum, Some(BARE_GO_TIME), "{go:?}");
            assert_eq!(b.optimum, Some(BARE_GO_TIME * 2), "{go:?}");
        }
        let b = budget(
            &GoParams {
                movetime: Some(Duration::from_secs(1)),
                ..GoParams::default()
            },
            Color::Black,
            1,
            &opts,
        );
        assert_eq!(b.maximum, Some(Duration::from_millis(880)));
    }
}
