//! When a search must stop: the stop flag, node and depth limits, and the time budget, which
//! starts at `ponderhit` for a ponder search.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits of one search (the time budget lives in [`SearchControl`], where `ponderhit` can
/// still change it).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `go ponder` / `go infinite`: the answer is held until `ponderhit`/`stop`, so the search
    /// never answers `win` or `resign` on its own.
    pub hold_answer: bool,
}

/// The time budget of a move: no new iteration after half of `optimum`, stop at once at
/// `maximum`. `None` for no limit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub optimum: Option<Duration>,
    pub maximum: Option<Duration>,
    /// After a `ponderhit`, the time already spent pondering on the position counts toward
    /// the optimum: true for a clock whose unused time carries over to later moves (main time,
    /// increments), false for a byoyomi that is lost unless used.
    pub ponder_credit: bool,
    /// The part of `optimum` that how settled the search is may stretch or shrink (see
    /// `search::trend`): the time that carries over to later moves when unused. All of the
    /// optimum in sudden death and Fischer, the main time's share with a byoyomi, nothing in
    /// byoyomi alone, with `movetime` or without a clock.
    pub scalable: Duration,
    /// The most the scalable part may be stretched to: a long game must not spend in its
    /// middle what its end will need.
    pub scalable_max: Duration,
}

/// Shared between the controller and a running search.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the time budget started counting (the search start, or the `ponderhit`).
    clock_start: Mutex<Instant>,
    /// Changeable while the search runs: an early `ponderhit` brings the clock.
    budget: Mutex<Budget>,
}

impl Default for SearchControl {
    fn default() -> SearchControl {
        SearchControl::new(false, Budget::default())
    }
}

impl SearchControl {
    /// A control for a search starting now; `pondering` suspends the time budget.
    pub fn new(pondering: bool, budget: Budget) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            clock_start: Mutex::new(Instant::now()),
            budget: Mutex::new(budget),
        }
    }

    /// Replaces the time budget (the clock sent with an early `ponderhit`).
    pub fn set_budget(&self, budget: Budget) {
        if let Ok(mut b) = self.budget.lock() {
            *b = budget;
        }
    }

    /// The time budget as it stands.
    pub fn budget(&self) -> Budget {
        self.budget.lock().map(|b| *b).unwrap_or_default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the time budget starts now. Where unused time
    /// carries over ([`Budget::ponder_credit`]), the time already spent on this position
    /// counts toward the optimum, as if the search had started at `go ponder` (Stockfish does
    /// the same): a search that has pondered past its optimum answers at once, and the clock
    /// keeps what it saves. The maximum still counts from now, so the credit can only shorten
    /// the move.
    pub fn ponderhit(&self) {
        let now = Instant::now();
        let pondered = self.clock_start.lock().map_or(Duration::ZERO, |mut t| {
            let pondered = now.saturating_duration_since(*t);
            *t = now;
            pondered
        });
        if let Ok(mut b) = self.budget.lock()
            && b.ponder_credit
            && let Some(optimum) = b.optimum
        {
            if pondered >= optimum {
                self.stop();
            }
            b.optimum = Some(optimum.saturating_sub(pondered));
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn elapsed(&self) -> Duration {
        self.clock_start.lock().map(|t| t.elapsed()).unwrap_or_default()
    }

    /// Checked every few thousand nodes: stop now?
    pub fn must_stop(&self, limits: &Limits, nodes: u64) -> bool {
        if self.stop_requested() {
            return true;
        }
        if limits.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        !self.is_pondering() && self.budget().maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// Checked after each iteration: is another one worth starting? `factor` scales the
    /// [scalable](Budget::scalable) part of the optimum by how settled the search is.
    pub fn should_stop_after_iteration(&self, factor: f64) -> bool {
        if self.stop_requested() {
            return true;
        }
        if self.is_pondering() {
            return false;
        }
        let elapsed = self.elapsed();
        let budget = self.budget();
        // The next iteration usually costs several times the last one: do not start it when
        // more than half of the optimum is gone.
        let optimum = budget.optimum.map(|o| {
            let scalable = budget.scalable.min(o);
            let scaled = scalable.mul_f64(factor.clamp(0.0, 4.0));
            o.saturating_sub(scalable) + scaled.min(budget.scalable_max.max(scalable))
        });
        optimum.is_some_and(|o| elapsed >= o / 2) || budget.maximum.is_some_and(|m| elapsed >= m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pondered_then_hit(optimum_ms: u64, credit: bool, ponder_ms: u64) -> SearchControl {
        let control = SearchControl::new(
            true,
            Budget {
                optimum: Some(Duration::from_millis(optimum_ms)),
                maximum: Some(Duration::from_secs(60)),
                ponder_credit: credit,
                scalable: Duration::ZERO,
                scalable_max: Duration::ZERO,
            },
        );
        std::thread::sleep(Duration::from_millis(ponder_ms));
        control.ponderhit();
        control
    }

    #[test]
    fn pondered_time_counts_toward_the_optimum_where_time_carries_over() {
        let c = pondered_then_hit(10_000, true, 30);
        assert!(!c.is_pondering());
        assert!(!c.stop_requested());
        assert!(c.budget().optimum.unwrap() <= Duration::from_millis(9_970));
        // The maximum counts from the hit, untouched.
        assert_eq!(c.budget().maximum, Some(Duration::from_secs(60)));
    }

    #[test]
    fn a_search_pondered_past_its_optimum_answers_at_the_hit() {
        let c = pondered_then_hit(5, true, 30);
        assert!(c.stop_requested());
        assert_eq!(c.budget().optimum, Some(Duration::ZERO));
    }

    #[test]
    fn the_stability_factor_moves_only_the_scalable_part_of_the_optimum() {
        let control = |scalable_ms: u64| {
            SearchControl::new(
                false,
                Budget {
                    optimum: Some(Duration::from_secs(20)),
                    maximum: Some(Duration::from_secs(60)),
                    ponder_credit: true,
                    scalable: Duration::from_millis(scalable_ms),
                    scalable_max: Duration::from_millis(scalable_ms * 2),
                },
            )
        };
        // All of it scalable (sudden death): a factor of 0 ends the search, 1 does not.
        assert!(control(20_000).should_stop_after_iteration(0.0));
        assert!(!control(20_000).should_stop_after_iteration(1.0));
        // None of it (a byoyomi): the factor is ignored.
        assert!(!control(0).should_stop_after_iteration(0.0));
        // Part of it: what is not scalable still holds the search.
        assert!(!control(10_000).should_stop_after_iteration(0.0));
        // A stretch goes no further than `scalable_max`.
        let capped = SearchControl::new(
            false,
            Budget {
                optimum: Some(Duration::from_millis(100)),
                maximum: Some(Duration::from_secs(60)),
                ponder_credit: true,
                scalable: Duration::from_millis(100),
                scalable_max: Duration::from_millis(100),
            },
        );
        std::thread::sleep(Duration::from_millis(60));
        assert!(capped.should_stop_after_iteration(4.0));
    }

    #[test]
    fn a_byoyomi_is_used_whole_after_the_hit() {
        let c = pondered_then_hit(5, false, 30);
        assert!(!c.stop_requested());
        assert_eq!(c.budget().optimum, Some(Duration::from_millis(5)));
    }
}
