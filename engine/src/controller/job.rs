//! The life of a job: every `go` starts one with an id, on a worker thread (a search or a
//! mate search), and the worker ends with exactly one `Done` event for its id. The controller
//! turns it into exactly one answer, at once for a normal search, or when `stop`/`ponderhit`
//! releases it for `go ponder` and `go infinite`. Events of an earlier job are ignored.

use super::Controller;
use super::report;
use super::tables::{LateTable, TABLE_READY_TIME};
use crate::mate::{self, MateOutcome, MateProgress};
use crate::search::{self, Budget, Decision, SearchControl, SearchEvent, SearchInfo};
use crate::tt::TranspositionTable;
use soppo_usi::{GoParams, MateParam};
use std::io::Write;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a `go mate` may hold on to the search's table (see `Controller::go`): the exact
/// search answers most problems sooner, and df-pn, whose tables take the memory, starts after
/// 50 ms.
const MATE_KEEPS_TABLE: Duration = Duration::from_millis(100);

/// Events from the worker threads.
#[derive(Debug)]
pub(super) enum WorkerEvent {
    Search(SearchEvent),
    MateInfo(u64, MateProgress),
    /// A mate job's answer, with the search's table if the job kept it (see `Controller::go`).
    MateDone(u64, MateOutcome, Option<Arc<TranspositionTable>>),
}

/// The answer a finished job owes, held while a ponder/infinite job waits for release.
#[derive(Debug)]
pub(super) enum Answer {
    Best(Decision, Option<SearchInfo>),
    Mate(MateOutcome),
}

pub(super) struct Job {
    pub(super) id: u64,
    pub(super) control: Arc<SearchControl>,
    /// The worker; none for a book move.
    pub(super) handle: Option<JoinHandle<()>>,
    /// `go ponder` or `go infinite` not yet released by `ponderhit`/`stop`.
    pub(super) held: bool,
    /// The worker's answer, when it finished while held (a book move's from the start).
    pub(super) answer: Option<Answer>,
    pub(super) is_mate: bool,
    /// `go ponder`: only this kind of job is released by `ponderhit`.
    pub(super) is_ponder: bool,
}

impl Job {
    pub(super) fn control(&self) -> &SearchControl {
        &self.control
    }
}

impl<W: Write> Controller<W> {
    pub(super) fn go(&mut self, go: &GoParams) {
        // A game under way keeps its table: a `usinewgame` sent right before this `go` (after
        // `isready`, without `gameover`) leaves the last game's entries, which are only hints,
        // rather than spend the clock's time on emptying it.
        self.new_game = false;
        if self.job.is_some() {
            // A `go` while busy: finish the old job first so it still gets its one answer.
            self.finish_job_now();
        }
        let id = self.next_id;
        self.next_id += 1;
        let go = self.with_option_limits(go);
        if go.mate.is_none() && self.go_from_book(id, &go) {
            return;
        }
        if go.mate.is_some() && self.go_mate_refused(id, &go) {
            return;
        }
        let budget = if go.mate.is_some() {
            Budget::default()
        } else {
            self.budget(&go)
        };
        // The clock starts here, before the table's work below: a table allocated now (after
        // `go mate`, or a new `USI_Hash`, without an `isready` since) takes its time out of
        // this move's budget instead of running past it.
        let control = Arc::new(SearchControl::new(go.ponder, budget));
        if let Ok(mut slot) = self.current.lock() {
            *slot = Some(Arc::clone(&control));
        }
        let started = match go.mate {
            Some(mate) => self.start_mate(id, mate, &control),
            None => self.start_search(id, &go, &control),
        };
        match started {
            Ok(handle) => {
                self.job = Some(Job {
                    id,
                    control,
                    handle: Some(handle),
                    // Only `go ponder` and `go infinite` wait for `ponderhit`/`stop`; a bare
                    // `go` ends on its own (see `time::BARE_GO_TIME`).
                    held: go.ponder || go.infinite,
                    answer: None,
                    is_mate: go.mate.is_some(),
                    is_ponder: go.ponder,
                });
            }
            Err(e) => {
                // No thread: answer at once so the GUI is not left waiting.
                self.emit_info(&format!("could not start the search thread: {e}"));
                let answer = report::answer_without_worker(go.mate.is_some(), &self.position);
                self.emit(&answer);
            }
        }
    }

    /// Answers `go mate` at once with `checkmate nomate`, after an `info string` saying why,
    /// when the position is not a mate problem ([`mate::not_a_problem`]); `false` when the
    /// solver is to answer.
    fn go_mate_refused(&mut self, id: u64, go: &GoParams) -> bool {
        let Some(why) = mate::not_a_problem(&self.position) else {
            return false;
        };
        self.emit_info(&format!("go mate: not a mate problem: {why}"));
        self.job = Some(Job {
            id,
            control: Arc::new(SearchControl::new(go.ponder, Budget::default())),
            handle: None,
            held: go.ponder || go.infinite,
            answer: Some(Answer::Mate(MateOutcome::NoMate)),
            is_mate: true,
            is_ponder: go.ponder,
        });
        if !(go.ponder || go.infinite) {
            self.deliver();
        }
        true
    }

    /// Starts a mate search on its own thread.
    fn start_mate(
        &mut self,
        id: u64,
        mate: MateParam,
        control: &Arc<SearchControl>,
    ) -> std::io::Result<JoinHandle<()>> {
        let limit = match mate {
            MateParam::Timeout(t) => Some(t),
            MateParam::Infinite => None,
        };
        // The mate solver has tables of its own, sized by `USI_Hash` too: with the search's kept
        // as well, the engine held twice `USI_Hash` on a long problem (Microcosmos, `go mate
        // 60000` at `USI_Hash 1024`: 1.9 GB resident). So the mate job takes the search's table
        // along and lets it go at the first progress report after `MATE_KEEPS_TABLE` (by then
        // df-pn is at work and its tables grow; the solver reports at least once a second); a
        // problem answered sooner hands it back with its answer. A table let go is allocated
        // again at the next `isready` (or `go`). The solver's tables may count its memory as
        // theirs.
        let mut kept = self.tt.take();
        let held_mb = kept.as_ref().map_or(0, |t| t.size_mb());
        let threads = self.job_threads();
        let config = self.mate_config(threads, held_mb);
        let pos = self.position.clone();
        let control = Arc::clone(control);
        let tx = self.events_tx.clone();
        std::thread::Builder::new()
            .name("soppo-mate".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let outcome = mate::solve_with(&pos, limit, &config, &control, |p| {
                    if p.elapsed >= MATE_KEEPS_TABLE {
                        kept = None;
                    }
                    let _ = tx.send(WorkerEvent::MateInfo(id, p.clone()));
                });
                let _ = tx.send(WorkerEvent::MateDone(id, outcome, kept));
            })
    }

    /// Starts a search on its own thread (helpers of its own start from there).
    fn start_search(
        &mut self,
        id: u64,
        go: &GoParams,
        control: &Arc<SearchControl>,
    ) -> std::io::Result<JoinHandle<()>> {
        // A table made now (no `isready` since `USI_Hash` changed or a `go mate` let it go)
        // takes its time from this move, at most half of it, and keeps its size.
        let half = control
            .budget()
            .maximum
            .map_or(TABLE_READY_TIME, |m| (m / 2).min(TABLE_READY_TIME));
        self.ensure_tt(Instant::now() + half, LateTable::Lazy);
        self.ensure_network();
        let limits = Self::search_limits(go);
        let threads = self.job_threads();
        let settings = self.search_settings(threads);
        let tt = self.tt.clone().unwrap_or_else(|| Arc::new(TranspositionTable::new(1)));
        let histories = Arc::clone(&self.histories);
        let pos = self.position.clone();
        let control = Arc::clone(control);
        let tx = self.events_tx.clone();
        std::thread::Builder::new()
            .name("soppo-search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                search::run_keeping(id, pos, &tt, &histories, &control, &limits, &settings, &mut |ev| {
                    let _ = tx.send(WorkerEvent::Search(ev));
                });
            })
    }

    /// `ponderhit`: the answer is no longer held; deliver it if the search already ended.
    pub(super) fn release(&mut self) {
        let Some(job) = &mut self.job else { return };
        job.held = false;
        if job.answer.is_some() {
            self.deliver();
        }
    }

    /// Stops the job and answers at once (gameover, or a new `go` while busy).
    pub(super) fn finish_job_now(&mut self) {
        let Some(job) = &mut self.job else { return };
        job.control.stop();
        job.held = false;
        if job.answer.is_some() {
            // The worker already finished (a held ponder/infinite search): answer now.
            self.deliver();
            return;
        }
        let id = job.id;
        let waited_since = Instant::now();
        while self.job.is_some() {
            match self.events_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(ev) => self.on_event(ev),
                Err(_) if waited_since.elapsed() > Duration::from_secs(10) => {
                    log::warn!("job {id} did not finish; dropping it");
                    self.job = None;
                }
                Err(_) => {}
            }
        }
    }

    /// At quit: stop the worker and wait for it briefly; no answer is owed any more.
    pub(super) fn abandon_job(&mut self) {
        if let Some(mut job) = self.job.take() {
            job.control.stop();
            if let Some(h) = job.handle.take() {
                let _ = h.join();
            }
        }
    }

    pub(super) fn on_event(&mut self, ev: WorkerEvent) {
        let current = self.job.as_ref().map(|j| j.id);
        match ev {
            WorkerEvent::Search(SearchEvent::Info(id, info)) if Some(id) == current => {
                self.emit(&report::info_message(&info));
                self.last_info = Some(info);
            }
            WorkerEvent::Search(SearchEvent::ThreadsShort {
                id,
                asked,
                started,
                why,
            }) if Some(id) == current => {
                self.emit_info(&format!(
                    "Threads {asked}: only {started} search threads could be started ({why}); the search goes on with them"
                ));
            }
            WorkerEvent::MateInfo(id, p) if Some(id) == current => {
                self.emit(&report::mate_info_message(&p));
            }
            WorkerEvent::Search(SearchEvent::Done(id, decision, last)) if Some(id) == current => {
                self.finished(Answer::Best(decision, last));
            }
            WorkerEvent::MateDone(id, outcome, kept) if Some(id) == current => {
                if self.tt.is_none() {
                    self.tt = kept;
                }
                self.finished(Answer::Mate(outcome));
            }
            _ => {}
        }
    }

    fn finished(&mut self, answer: Answer) {
        let Some(job) = &mut self.job else { return };
        job.answer = Some(answer);
        if !job.held {
            self.deliver();
        }
    }

    /// Sends the job's one answer and retires the job.
    pub(super) fn deliver(&mut self) {
        let Some(mut job) = self.job.take() else { return };
        if let Ok(mut slot) = self.current.lock() {
            *slot = None;
        }
        if let Some(h) = job.handle.take() {
            let _ = h.join();
        }
        match job.answer.take() {
            Some(Answer::Best(decision, last)) => {
                // A final `info` with the answer's line right before `bestmove` (GUIs attach
                // the last pv that starts with the best move), unless it was the last line sent.
                if let Some(info) = last.filter(|i| self.last_info.as_ref() != Some(i)) {
                    self.emit(&report::info_message(&info));
                }
                self.last_info = None;
                self.emit(&report::bestmove(&decision));
            }
            Some(Answer::Mate(outcome)) => {
                for message in report::mate_answer(outcome) {
                    self.emit(&message);
                }
            }
            None => {
                // Cannot happen (deliver is only called with an answer); answer safely anyway.
                let answer = report::answer_without_worker(job.is_mate, &self.position);
                self.emit(&answer);
            }
        }
    }
}
