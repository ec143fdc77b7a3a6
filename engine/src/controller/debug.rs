//! The commands beyond USI: `d` (the board), `perft`, `bench`, `eval`.

use super::Controller;
use crate::bench;
use crate::eval::nnue::Kernel;
use soppo_core::perft::perft;
use soppo_usi::EngineMessage;
use std::io::Write;
use std::time::Instant;

impl<W: Write> Controller<W> {
    /// `d`: the board, a line an `info string`.
    pub(super) fn display(&mut self) {
        let board = self.position.to_string();
        for line in board.lines() {
            self.emit_info(line);
        }
    }

    /// `eval` (and `e`): the static value of the position, with the evaluation the options
    /// choose (the net when the search would use it), in the evaluation's internal units from
    /// the side to move's view: with a net, what YaneuraOu's `e` prints for it.
    pub(super) fn eval(&mut self) {
        self.ensure_network();
        let settings = self.search_settings(1);
        let v = match settings.network.as_ref().filter(|_| settings.uses_network()) {
            Some(net) => net.evaluate(&self.position, settings.fv_scale),
            None => crate::eval::evaluate(&self.position),
        };
        self.emit(&EngineMessage::EvalValue(v));
    }

    pub(super) fn perft(&mut self, depth: u32) {
        if self.job.is_some() {
            self.emit_info("perft is not available while searching");
            return;
        }
        // Deeper perfts take minutes and cannot be interrupted: use soppo-tools for those.
        let depth = depth.min(6);
        let start = Instant::now();
        let mut pos = self.position.clone();
        let nodes = perft(&mut pos, depth);
        let ms = start.elapsed().as_millis();
        self.emit_info(&format!("perft {depth}: {nodes} nodes in {ms} ms"));
    }

    pub(super) fn bench(&mut self, args: &[String]) {
        if self.job.is_some() {
            self.emit_info("bench is not available while searching");
            return;
        }
        // The bench cannot be stopped (the controller waits for it): deeper or wider runs are
        // for `soppo bench` on the command line.
        let asked_depth: u32 = args
            .first()
            .and_then(|a| a.parse().ok())
            .unwrap_or(bench::DEFAULT_DEPTH);
        let asked_threads: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
        let (depth, threads) = (asked_depth.clamp(1, bench::DEFAULT_DEPTH), asked_threads.clamp(1, 512));
        if (depth, threads) != (asked_depth, asked_threads) {
            self.emit_info(&format!(
                "bench {asked_depth} {asked_threads}: runs as bench {depth} {threads} (deeper or wider with `soppo bench` on the command line)"
            ));
        }
        // With the evaluation the options choose (the node count is the signature only with
        // the classic one).
        self.ensure_network();
        let settings = self.search_settings(threads);
        let nnue = settings
            .uses_network()
            .then(|| settings.network.map(|net| (net, Kernel::best())))
            .flatten();
        let report = bench::run_with_settings(depth, &bench::bench_settings(threads, nnue));
        for line in report.lines() {
            self.emit_info(line);
        }
    }
}
