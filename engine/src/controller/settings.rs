//! From the options to what a job runs with: the threads the machine can run, the search's
//! settings and limits, the mate solver's configuration, the clock.

use super::Controller;
use super::tables::{hash_mb_allowed, idle_cores};
use crate::mate::MateConfig;
use crate::memory::TableMemory;
use crate::search::{Budget, Limits, SearchSettings};
use crate::time;
use soppo_usi::GoParams;
use std::io::Write;

impl<W: Write> Controller<W> {
    /// The threads a job runs: `Threads`, but no more than the machine runs at once. More only
    /// share the same cores and starve the clock: `Threads 512` on two cores spent 4.5 s on
    /// the first iteration of a `go byoyomi 1000`. Said once for each `Threads` value cut.
    pub(super) fn job_threads(&mut self) -> u32 {
        let asked = self.options.threads.max(1);
        let cores = u32::try_from(idle_cores()).unwrap_or(u32::MAX);
        if asked <= cores {
            return asked;
        }
        if self.threads_told != asked {
            self.threads_told = asked;
            self.emit_info(&format!(
                "Threads {asked}: this machine runs {cores} threads at once, so the search runs {cores}"
            ));
        }
        cores
    }

    /// `go` with the options' `DepthLimit` and `NodesLimit` where it sets none of its own.
    pub(super) fn with_option_limits(&self, go: &GoParams) -> GoParams {
        let o = &self.options;
        GoParams {
            depth: go.depth.or((o.depth_limit > 0).then_some(o.depth_limit)),
            nodes: go.nodes.or((o.nodes_limit > 0).then_some(o.nodes_limit)),
            ..go.clone()
        }
    }

    /// The time budget of `go` (with its limits from [`Controller::with_option_limits`]) in
    /// the current position.
    pub(super) fn budget(&self, go: &GoParams) -> Budget {
        let (side, ply) = (self.position.side_to_move(), self.position.move_number());
        time::budget(go, side, ply, &self.options.time)
    }

    /// The limits of a search for `go` (with the options' limits merged in).
    pub(super) fn search_limits(go: &GoParams) -> Limits {
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            hold_answer: go.ponder || go.infinite,
        }
    }

    /// The search's settings, on `threads` threads.
    pub(super) fn search_settings(&self, threads: u32) -> SearchSettings {
        SearchSettings {
            threads,
            network: self.networks.current(),
            ..self.options.search.clone()
        }
    }

    /// The mate solver's configuration, on `threads` threads, while the engine holds `held_mb`
    /// MiB of search table that the job lets go early: its tables are sized like the search's
    /// (`USI_Hash`), within what the machine can hold.
    pub(super) fn mate_config(&self, threads: u32, held_mb: u64) -> MateConfig {
        let hash_mb = hash_mb_allowed(self.options.hash_mb, TableMemory::of_this_machine(), held_mb);
        MateConfig {
            hash_mb: usize::try_from(hash_mb).unwrap_or(usize::MAX),
            threads: threads as usize,
            ..self.options.mate.clone()
        }
    }
}
