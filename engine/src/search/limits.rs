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

    fn budget(&self) -> Budget {
        self.budget.lock().map(|b| *b).unwrap_or_default()
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the time budget starts now.
    pub fn ponderhit(&self) {
        if let Ok(mut t) = self.clock_start.lock() {
            *t = Instant::now();
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

    /// Checked after each iteration: is another one worth starting?
    pub fn should_stop_after_iteration(&self) -> bool {
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
        budget.optimum.is_some_and(|o| elapsed >= o / 2) || budget.maximum.is_some_and(|m| elapsed >= m)
    }
}
