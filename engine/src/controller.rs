//! The controller: owns the game, the options, the transposition table and the worker (a
//! search or a mate search), and is the one place that answers `go` with `bestmove` or
//! `checkmate`.
//!
//! Every `go` starts a job with an id. The worker always ends with exactly one `Done` event
//! for its id; the controller turns it into exactly one answer, at once for a normal search,
//! or when `stop`/`ponderhit` releases it for `go ponder` and `go infinite`. Stale events from
//! an earlier job are ignored, so no race between `stop`, `ponderhit`, `gameover`, `quit` and
//! the worker's own end can produce a second answer or lose one.

use crate::bench;
use crate::mate::{self, MateOutcome, MateProgress};
use crate::memory::TableMemory;
use crate::options::{InterpositionMethod, Options};
use crate::search::{
    self, Budget, Decision, Histories, Limits, ScoreValue, SearchControl, SearchEvent, SearchInfo, SearchSettings,
};
use crate::time;
use crate::tt::TranspositionTable;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use soppo_core::Position;
use soppo_core::perft::perft;
use soppo_usi::{
    BestMove, CheckmateResult, EngineMessage, GoParams, GuiMessage, IdInfo, InfoAttr, MateParam, MatePlies, Score,
};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the front-end passes on.
#[derive(Debug)]
pub enum Command {
    Gui(GuiMessage),
    /// A message read only after mending (a `go` value that could not be read, taken as zero),
    /// with a note per mended value, said in `info string`s just before the message is handled.
    Mended(GuiMessage, Vec<String>),
    /// A line that could not be understood, with the reason (said in an `info string`).
    Bad(String),
    /// End of input: the same as `quit`.
    Eof,
}

/// How long a `go mate` may hold on to the search's table (see `Controller::go`): the exact
/// search answers most problems sooner, and df-pn, whose tables take the memory, starts after
/// 50 ms.
const MATE_KEEPS_TABLE: Duration = Duration::from_millis(100);

/// How long `isready` may spend making a new search table resident: a table the system cannot
/// fault in faster is made smaller. ShogiArena's compliance check wants `readyok` within 5 s,
/// ShogiHome and ShogiArena give up after 10 s (`research/usi-protocol.md` §1, §7).
const TABLE_READY_TIME: Duration = Duration::from_secs(3);

/// The longest `info string` text sent, in characters (what a GUI can show on a line or two).
const MAX_INFO_STRING_CHARS: usize = 400;

/// What becomes of the part of a new table the system could not fault in by its deadline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LateTable {
    /// At `isready`: the table shrinks to what is resident, so no search pays for the rest.
    Shrink,
    /// Inside a `go`'s time: the table keeps its size and the searches fault the rest in.
    Lazy,
}

/// Events from the worker threads.
#[derive(Debug)]
enum WorkerEvent {
    Search(SearchEvent),
    MateInfo(u64, MateProgress),
    /// A mate job's answer, with the search's table if the job kept it (see `Controller::go`).
    MateDone(u64, MateOutcome, Option<Arc<TranspositionTable>>),
}

/// The answer a finished job owes, held while a ponder/infinite job waits for release.
#[derive(Debug)]
enum Answer {
    Best(Decision, Option<SearchInfo>),
    Mate(MateOutcome),
}

struct Job {
    id: u64,
    control: Arc<SearchControl>,
    handle: Option<JoinHandle<()>>,
    /// `go ponder` or `go infinite` not yet released by `ponderhit`/`stop`.
    held: bool,
    /// The worker's answer, when it finished while held.
    answer: Option<Answer>,
    is_mate: bool,
    /// `go ponder`: only this kind of job is released by `ponderhit`.
    is_ponder: bool,
}

/// The slot through which the front-end can stop the running job at once.
pub type CurrentControl = Arc<Mutex<Option<Arc<SearchControl>>>>;

pub struct Controller<W: Write> {
    out: W,
    options: Options,
    position: Position,
    tt: Option<Arc<TranspositionTable>>,
    /// Move-ordering statistics kept between the searches of one game.
    histories: Arc<Histories>,
    next_id: u64,
    job: Option<Job>,
    current: CurrentControl,
    events_tx: Sender<WorkerEvent>,
    events_rx: Receiver<WorkerEvent>,
    /// The search `info` that is the last line sent, if it is one: the final `info` before
    /// `bestmove` is then not sent twice in a row.
    last_info: Option<SearchInfo>,
    /// A `gameover` or `usinewgame` came after the last `go`: the next `isready` empties the
    /// search table.
    new_game: bool,
    /// The `USI_Hash` the table was made for (its size may be smaller: a power of two, within
    /// the machine's memory).
    tt_asked_mb: u64,
    /// The last `Threads` value said to be more than the machine runs (see `job_threads`).
    threads_told: u32,
}

impl<W: Write> Controller<W> {
    pub fn new(out: W, current: CurrentControl) -> Controller<W> {
        let (events_tx, events_rx) = unbounded();
        Controller {
            out,
            options: Options::default(),
            position: Position::startpos(),
            tt: None,
            histories: Arc::new(Histories::new()),
            new_game: false,
            tt_asked_mb: 0,
            threads_told: 0,
            next_id: 1,
            job: None,
            current,
            events_tx,
            events_rx,
            last_info: None,
        }
    }

    /// Runs until `quit` or the end of input.
    pub fn run(&mut self, commands: &Receiver<Command>) {
        loop {
            select! {
                recv(commands) -> cmd => {
                    let cmd = cmd.unwrap_or(Command::Eof);
                    if !self.handle(cmd) {
                        break;
                    }
                }
                recv(self.events_rx) -> ev => {
                    if let Ok(ev) = ev {
                        self.on_event(ev);
                    }
                }
            }
        }
        self.abandon_job();
    }

    fn emit(&mut self, msg: &EngineMessage) {
        self.last_info = None;
        // A GUI that has gone away cannot be told anything; keep running until quit/EOF.
        let _ = writeln!(self.out, "{msg}");
        let _ = self.out.flush();
    }

    fn info_string(&mut self, text: &str) {
        // One line of printable ASCII (cshogi decodes some lines as Shift-JIS, others in the
        // locale's encoding): anything else, line breaks included, is escaped, as the parser
        // escapes what it quotes. Not endless either: a message may quote what the GUI sent,
        // and a 70 KB option name need not come back whole.
        let mut out = String::new();
        let mut chars = text.trim().chars();
        for c in chars.by_ref().take(MAX_INFO_STRING_CHARS) {
            if c == ' ' || c.is_ascii_graphic() {
                out.push(c);
            } else {
                out.extend(c.escape_default());
            }
        }
        let rest = chars.count();
        if rest > 0 {
            let _ = write!(out, "... ({rest} more characters)");
        }
        self.emit(&EngineMessage::Info(vec![InfoAttr::String(out)]));
    }

    /// Handles one command; `false` to quit.
    fn handle(&mut self, cmd: Command) -> bool {
        let msg = match cmd {
            Command::Eof => return false,
            Command::Bad(why) => {
                self.info_string(&why);
                return true;
            }
            Command::Gui(msg) => msg,
            Command::Mended(msg, notes) => {
                // A `go` while busy answers the old job first (see `go`); its notes come after
                // that answer, so that they stand right before the answer they belong to.
                if matches!(msg, GuiMessage::Go(_)) && self.job.is_some() {
                    self.finish_job_now();
                }
                for note in &notes {
                    self.info_string(note);
                }
                msg
            }
        };
        match msg {
            GuiMessage::Usi => {
                self.emit(&EngineMessage::Id(IdInfo::Name(format!(
                    "Soppo {}",
                    env!("CARGO_PKG_VERSION")
                ))));
                self.emit(&EngineMessage::Id(IdInfo::Author("the Soppo developers".into())));
                for o in Options::declarations() {
                    self.emit(&EngineMessage::Option(o));
                }
                self.emit(&EngineMessage::UsiOk);
            }
            GuiMessage::IsReady => {
                if self.job.is_none() {
                    // The table's work is done here, while the GUI waits for `readyok`: after
                    // `usinewgame` the first `go` may follow at once with the clock running.
                    self.ensure_tt(Instant::now() + TABLE_READY_TIME, LateTable::Shrink);
                    if std::mem::take(&mut self.new_game) {
                        self.clear_tt();
                    }
                }
                self.emit(&EngineMessage::ReadyOk);
            }
            GuiMessage::UsiNewGame => {
                if self.job.is_none() {
                    // The table is emptied at the next `isready` (ShogiArena sends it after
                    // `usinewgame`; GUIs that send it before have sent `gameover` before it).
                    self.new_game = true;
                    self.histories.clear();
                }
            }
            GuiMessage::SetOption { name, value } => {
                if let Err(why) = self.options.set(&name, value.as_deref()) {
                    self.info_string(&why);
                }
            }
            GuiMessage::Position { start, moves } => match Position::from_usi_moves(start.sfen(), &moves) {
                Ok(p) => self.position = p,
                Err(why) => self.info_string(&format!("position not set: {why}; the previous position is kept")),
            },
            GuiMessage::Go(go) => self.go(&go),
            // The answer goes out before the next line is read: a `readyok` for an `isready`
            // sent right after `stop` must not overtake the `bestmove`.
            GuiMessage::Stop => self.finish_job_now(),
            GuiMessage::PonderHit(clock) => {
                // Only a ponder search turns into a normal one; a stray ponderhit is ignored.
                let (side, ply) = (self.position.side_to_move(), self.position.move_number());
                let clock_budget =
                    (clock != GoParams::default()).then(|| time::budget(&clock, side, ply, &self.options));
                if let Some(job) = self.job.as_ref().filter(|j| j.is_ponder) {
                    if let Some(b) = clock_budget {
                        // ShogiHome's early ponder: the clock comes with the hit.
                        job.control.set_budget(b);
                    }
                    job.control.ponderhit();
                    self.release();
                }
            }
            GuiMessage::GameOver(result) => {
                // The pending answer goes out now, before the next line is read.
                self.finish_job_now();
                self.new_game = true;
                log::info!("game over: {result:?}");
            }
            GuiMessage::Quit => return false,
            GuiMessage::Display => {
                let board = self.position.to_string();
                for line in board.lines() {
                    self.info_string(line);
                }
            }
            GuiMessage::Perft(depth) => self.perft(depth),
            GuiMessage::Bench(args) => self.bench(&args),
        }
        true
    }

    /// Makes the search's table the size `USI_Hash` asks for, as far as the machine allows
    /// (see [`crate::memory`]), resident by `deadline` or as `late` says, and says in an
    /// `info string` when it could not.
    fn ensure_tt(&mut self, deadline: Instant, late: LateTable) {
        let asked = self.options.hash_mb;
        if self.tt.is_some() && self.tt_asked_mb == asked {
            return;
        }
        let limit = TableMemory::of_this_machine();
        let held = self.tt.as_ref().map_or(0, |t| t.size_mb());
        let allowed = hash_mb_allowed(asked, limit, held);
        if allowed < asked
            && let Some(limit) = limit
        {
            self.info_string(&format!(
                "USI_Hash {asked} MiB is more than this machine can hold: its tables get at most {allowed} MiB ({})",
                limit.explain(held)
            ));
        }
        // The new table is mapped before the old one goes: a mapping takes no memory until its
        // pages are touched, and a size the system refuses then leaves the old table in place.
        let mut size = TranspositionTable::size_mb_for(allowed);
        let mut refused = None;
        let table = loop {
            match TranspositionTable::try_new(size) {
                Ok(t) => break Some(t),
                Err(e) if size > 1 => {
                    refused.get_or_insert((size, e));
                    size = TranspositionTable::size_mb_for(size / 2);
                }
                Err(e) => {
                    refused.get_or_insert((size, e));
                    break None;
                }
            }
        };
        match (table, refused) {
            (Some(mut table), refused) => {
                if let Some((tried, e)) = refused {
                    self.info_string(&format!(
                        "USI_Hash {asked} MiB: a {tried} MiB table could not be allocated ({e}); the table has {} MiB",
                        table.size_mb()
                    ));
                }
                // Drop the old table first so both are never resident together.
                self.tt = None;
                // Its pages are faulted in now rather than by the first searches: with a
                // gigabyte faulted in while searching, the first moves at byoyomi 200 took
                // 240–570 ms against a budget of 160. Nothing else runs now, so every core
                // helps; and what the system cannot fault in by the deadline is not kept.
                let mapped = table.size_mb();
                let threads = self.clear_threads().max(idle_cores());
                if !table.make_resident_until(threads, deadline, late == LateTable::Shrink) && late == LateTable::Shrink
                {
                    self.info_string(&format!(
                        "USI_Hash {asked} MiB: the system could not make {mapped} MiB resident within {} s; the table has {} MiB",
                        TABLE_READY_TIME.as_secs(),
                        table.size_mb()
                    ));
                }
                self.tt = Some(Arc::new(table));
                self.tt_asked_mb = asked;
            }
            (None, refused) => {
                let why = refused.map_or_else(String::new, |(_, e)| e.to_string());
                let kept = self.tt.as_ref().map_or_else(
                    || "the search runs with a 1 MiB table".to_owned(),
                    |t| format!("the previous {} MiB table is kept", t.size_mb()),
                );
                self.info_string(&format!(
                    "USI_Hash {asked} MiB: no table could be allocated ({why}); {kept}"
                ));
                // Not asked again at every `isready`: only a new `USI_Hash` tries again.
                self.tt_asked_mb = asked;
            }
        }
    }

    /// Empties the search table if a search has used it. (Every search thread is joined
    /// before its answer goes out, so between searches the controller's handle is the only
    /// one and the fast clear applies, unless a worker was given up on.)
    fn clear_tt(&mut self) {
        let threads = self.clear_threads();
        let Some(tt) = self.tt.as_mut() else { return };
        if !tt.is_dirty() {
            return;
        }
        match Arc::get_mut(tt) {
            Some(alone) => alone.clear_exclusive(threads),
            None => tt.clear(),
        }
    }

    /// The threads a job runs: `Threads`, but no more than the machine runs at once. More only
    /// share the same cores and starve the clock: `Threads 512` on two cores spent 4.5 s on
    /// the first iteration of a `go byoyomi 1000`. Said once for each `Threads` value cut.
    fn job_threads(&mut self) -> u32 {
        let asked = self.options.threads.max(1);
        let cores = u32::try_from(idle_cores()).unwrap_or(u32::MAX);
        if asked <= cores {
            return asked;
        }
        if self.threads_told != asked {
            self.threads_told = asked;
            self.info_string(&format!(
                "Threads {asked}: this machine runs {cores} threads at once, so the search runs {cores}"
            ));
        }
        cores
    }

    /// Threads for emptying a table the search may still be using: as many as it may use.
    fn clear_threads(&self) -> usize {
        usize::try_from(self.options.threads).unwrap_or(1).max(1)
    }

    fn go(&mut self, go: &GoParams) {
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
        // Only `go ponder` and `go infinite` wait for `ponderhit`/`stop`; a bare `go` ends on
        // its own (see `time::BARE_GO_TIME`).
        let held = go.ponder || go.infinite;
        let budget = if go.mate.is_some() {
            Budget::default()
        } else {
            time::budget(
                go,
                self.position.side_to_move(),
                self.position.move_number(),
                &self.options,
            )
        };
        // The clock starts here, before the table's work below: a table allocated now (after
        // `go mate`, or a new `USI_Hash`, without an `isready` since) takes its time out of
        // this move's budget instead of running past it.
        let control = Arc::new(SearchControl::new(go.ponder, budget));
        if let Ok(mut slot) = self.current.lock() {
            *slot = Some(Arc::clone(&control));
        }
        // The mate solver has tables of its own, sized by `USI_Hash` too: with the search's kept
        // as well, the engine held twice `USI_Hash` on a long problem (Microcosmos, `go mate
        // 60000` at `USI_Hash 1024`: 1.9 GB resident). So the mate job takes the search's table
        // along and lets it go at the first progress report after `MATE_KEEPS_TABLE` (by then
        // df-pn is at work and its tables grow; the solver reports at least once a second); a
        // problem answered sooner hands it back with its answer. A table let go is allocated
        // again at the next `isready` (or `go`).
        let mut kept = if go.mate.is_some() {
            self.tt.take()
        } else {
            // A table made now (no `isready` since `USI_Hash` changed or a `go mate` let it
            // go) takes its time from this move, at most half of it, and keeps its size.
            let half = budget
                .maximum
                .map_or(TABLE_READY_TIME, |m| (m / 2).min(TABLE_READY_TIME));
            self.ensure_tt(Instant::now() + half, LateTable::Lazy);
            None
        };
        // The table the mate job takes along is let go early (above), so the solver's tables
        // may count its memory as theirs.
        let held_mb = kept.as_ref().map_or(0, |t| t.size_mb());
        let threads = self.job_threads();
        let pos = self.position.clone();
        let worker_control = Arc::clone(&control);
        let is_mate = go.mate.is_some();
        let handle = if let Some(mate) = go.mate {
            let limit = match mate {
                MateParam::Timeout(t) => Some(t),
                MateParam::Infinite => None,
            };
            let tx = self.events_tx.clone();
            // The mate solver has its own tables, sized like the search's (USI_Hash).
            let config = mate::MateConfig {
                hash_mb: usize::try_from(hash_mb_allowed(
                    self.options.hash_mb,
                    TableMemory::of_this_machine(),
                    held_mb,
                ))
                .unwrap_or(usize::MAX),
                threads: threads as usize,
                drop_chains: self.options.interposition_method == InterpositionMethod::Chains,
                super_piece: self.options.mate_super_piece,
            };
            std::thread::Builder::new()
                .name("soppo-mate".into())
                .stack_size(64 << 20)
                .spawn(move || {
                    let outcome = mate::solve_with(&pos, limit, &config, &worker_control, |p| {
                        if p.elapsed >= MATE_KEEPS_TABLE {
                            kept = None;
                        }
                        let _ = tx.send(WorkerEvent::MateInfo(id, p.clone()));
                    });
                    let _ = tx.send(WorkerEvent::MateDone(id, outcome, kept));
                })
        } else {
            let depth = go
                .depth
                .or((self.options.depth_limit > 0).then_some(self.options.depth_limit));
            let nodes = go
                .nodes
                .or((self.options.nodes_limit > 0).then_some(self.options.nodes_limit));
            let limits = Limits {
                depth,
                nodes,
                hold_answer: go.ponder || go.infinite,
            };
            let settings = SearchSettings {
                threads,
                ..SearchSettings::from_options(&self.options)
            };
            let tt = self.tt.clone().unwrap_or_else(|| Arc::new(TranspositionTable::new(1)));
            let tx = self.events_tx.clone();
            let histories = Arc::clone(&self.histories);
            std::thread::Builder::new()
                .name("soppo-search".into())
                .stack_size(64 << 20)
                .spawn(move || {
                    search::run_keeping(
                        id,
                        pos,
                        &tt,
                        &histories,
                        &worker_control,
                        &limits,
                        &settings,
                        &mut |ev| {
                            let _ = tx.send(WorkerEvent::Search(ev));
                        },
                    );
                })
        };
        match handle {
            Ok(h) => {
                self.job = Some(Job {
                    id,
                    control,
                    handle: Some(h),
                    held,
                    answer: None,
                    is_mate,
                    is_ponder: go.ponder,
                });
            }
            Err(e) => {
                // No thread: answer at once so the GUI is not left waiting.
                self.info_string(&format!("could not start the search thread: {e}"));
                if is_mate {
                    self.emit(&EngineMessage::Checkmate(CheckmateResult::Timeout));
                } else {
                    let fallback = self.position.legal_moves().first().copied();
                    let mv = fallback.map_or(BestMove::Resign, |m| BestMove::Move(m.to_string()));
                    self.emit(&EngineMessage::BestMove { mv, ponder: None });
                }
            }
        }
    }

    /// `ponderhit`: the answer is no longer held; deliver it if the search already ended.
    fn release(&mut self) {
        let Some(job) = &mut self.job else { return };
        job.held = false;
        if job.answer.is_some() {
            self.deliver();
        }
    }

    /// Stops the job and answers at once (gameover, or a new `go` while busy).
    fn finish_job_now(&mut self) {
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
    fn abandon_job(&mut self) {
        if let Some(mut job) = self.job.take() {
            job.control.stop();
            if let Some(h) = job.handle.take() {
                let _ = h.join();
            }
        }
    }

    fn on_event(&mut self, ev: WorkerEvent) {
        let current = self.job.as_ref().map(|j| j.id);
        match ev {
            WorkerEvent::Search(SearchEvent::Info(id, info)) if Some(id) == current => {
                self.emit(&info_message(&info));
                self.last_info = Some(info);
            }
            WorkerEvent::Search(SearchEvent::ThreadsShort {
                id,
                asked,
                started,
                why,
            }) if Some(id) == current => {
                self.info_string(&format!(
                    "Threads {asked}: only {started} search threads could be started ({why}); the search goes on with them"
                ));
            }
            WorkerEvent::MateInfo(id, p) if Some(id) == current => {
                self.emit(&mate_info_message(&p));
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
    fn deliver(&mut self) {
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
                    self.emit(&info_message(&info));
                }
                self.last_info = None;
                let msg = match decision {
                    Decision::Move { best, ponder } => EngineMessage::BestMove {
                        mv: BestMove::Move(best.to_string()),
                        ponder: ponder.map(|p| p.to_string()),
                    },
                    Decision::Resign => EngineMessage::BestMove {
                        mv: BestMove::Resign,
                        ponder: None,
                    },
                    Decision::Win => EngineMessage::BestMove {
                        mv: BestMove::Win,
                        ponder: None,
                    },
                };
                self.emit(&msg);
            }
            Some(Answer::Mate(outcome)) => {
                if let MateOutcome::Proven(line) = &outcome {
                    self.info_string(&format!(
                        "mate proven; this {}-ply line was not shown shortest in the time given",
                        line.len()
                    ));
                }
                if let MateOutcome::Shortest(line) = &outcome {
                    self.info_string(&format!(
                        "shortest mate, {} plies, counting every interposition not shown useless",
                        line.len()
                    ));
                }
                let result = match outcome {
                    MateOutcome::Mate(line) | MateOutcome::Shortest(line) | MateOutcome::Proven(line) => {
                        CheckmateResult::Mate(line.iter().map(ToString::to_string).collect())
                    }
                    MateOutcome::NoMate => CheckmateResult::NoMate,
                    MateOutcome::Timeout => CheckmateResult::Timeout,
                };
                self.emit(&EngineMessage::Checkmate(result));
            }
            None => {
                // Cannot happen (deliver is only called with an answer); answer safely anyway.
                let msg = if job.is_mate {
                    EngineMessage::Checkmate(CheckmateResult::Timeout)
                } else {
                    EngineMessage::BestMove {
                        mv: BestMove::Resign,
                        ponder: None,
                    }
                };
                self.emit(&msg);
            }
        }
    }

    fn perft(&mut self, depth: u32) {
        if self.job.is_some() {
            self.info_string("perft is not available while searching");
            return;
        }
        // Deeper perfts take minutes and cannot be interrupted: use soppo-tools for those.
        let depth = depth.min(6);
        let start = Instant::now();
        let mut pos = self.position.clone();
        let nodes = perft(&mut pos, depth);
        let ms = start.elapsed().as_millis();
        self.info_string(&format!("perft {depth}: {nodes} nodes in {ms} ms"));
    }

    fn bench(&mut self, args: &[String]) {
        if self.job.is_some() {
            self.info_string("bench is not available while searching");
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
            self.info_string(&format!(
                "bench {asked_depth} {asked_threads}: runs as bench {depth} {threads} (deeper or wider with `soppo bench` on the command line)"
            ));
        }
        let report = bench::run_with(depth, threads);
        for line in report.lines() {
            self.info_string(line);
        }
    }
}

/// What `USI_Hash` (MiB) may have on a machine with this memory limit, while the engine holds
/// `held_mb` MiB of tables it lets go first (see [`crate::memory`]).
fn hash_mb_allowed(asked: u64, limit: Option<TableMemory>, held_mb: u64) -> u64 {
    limit.map_or(asked, |l| asked.min(l.usable_mb(held_mb))).max(1)
}

/// The cores that can share work while no search runs (at `isready`).
fn idle_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The `info` line of a mate search's progress report.
fn mate_info_message(p: &MateProgress) -> EngineMessage {
    let ms = p.elapsed.as_millis() as u64;
    let nps = (p.nodes * 1000).checked_div(ms).unwrap_or(0);
    // Depth 0 marks df-pn progress, which has no length to show.
    let depth = (p.depth > 0).then_some(InfoAttr::Depth(p.depth));
    let attrs = depth.into_iter().chain([
        InfoAttr::Nodes(p.nodes),
        InfoAttr::Nps(nps),
        InfoAttr::Time(p.elapsed),
        InfoAttr::HashFull(p.hashfull_permille),
    ]);
    // A proven (not yet shortest) line is shown as the current best line; before any proof,
    // the line df-pn is working on.
    let pv = p
        .proven_line
        .as_ref()
        .or(p.searching_line.as_ref())
        .map(|line| InfoAttr::Pv(line.iter().map(ToString::to_string).collect()));
    EngineMessage::Info(attrs.chain(pv).collect())
}

fn info_message(info: &SearchInfo) -> EngineMessage {
    let score = match info.score {
        ScoreValue::Centipawns(v) => Score::Cp { value: v, bound: None },
        ScoreValue::MateIn(n) => Score::Mate {
            plies: MatePlies::Plies(n),
            bound: None,
        },
    };
    let mut attrs = vec![
        InfoAttr::Depth(info.depth),
        InfoAttr::SelDepth(info.seldepth),
        InfoAttr::MultiPv(info.multipv),
        InfoAttr::Score(score),
        InfoAttr::Nodes(info.nodes),
        InfoAttr::Nps(info.nps),
        InfoAttr::Time(Duration::from_millis(info.time_ms)),
        InfoAttr::HashFull(info.hashfull),
    ];
    if !info.pv.is_empty() {
        attrs.push(InfoAttr::Pv(info.pv.iter().map(ToString::to_string).collect()));
    }
    EngineMessage::Info(attrs)
}

#[cfg(test)]
mod tests {
    use super::{Command, Controller, CurrentControl, mate_info_message};
    use crate::mate::MateProgress;
    use soppo_core::{Move, Position};
    use soppo_usi::parse_gui_line;
    use std::time::{Duration, Instant};

    /// Sends one GUI line and waits until any search it started has answered.
    fn send(c: &mut Controller<Vec<u8>>, line: &str) {
        let msg = parse_gui_line(line).expect("a valid line");
        assert!(c.handle(Command::Gui(msg)));
        let since = Instant::now();
        while c.job.is_some() {
            assert!(since.elapsed() < Duration::from_secs(60), "`{line}` did not finish");
            if let Ok(ev) = c.events_rx.recv_timeout(Duration::from_millis(100)) {
                c.on_event(ev);
            }
        }
    }

    /// Whether the table holds a position one move from the start (the root of every search
    /// below; the root itself is not stored).
    fn holds_root(c: &Controller<Vec<u8>>) -> bool {
        let tt = c.tt.as_ref().expect("a table after isready");
        let mut pos = Position::startpos();
        pos.legal_moves().into_iter().any(|&m| {
            pos.do_move(m);
            let found = tt.probe(pos.key()).is_some();
            pos.undo_move(m);
            found
        })
    }

    #[test]
    fn go_mate_lets_the_search_table_go_on_a_long_problem_only() {
        let mut c = Controller::new(Vec::new(), CurrentControl::default());
        send(&mut c, "setoption name USI_Hash value 1");
        send(&mut c, "isready");
        send(&mut c, "position startpos");
        send(&mut c, "go depth 3");
        assert!(holds_root(&c));
        // Mate in one (the gold drops on 5b, guarded by the pawn on 5c), answered at once: the
        // table comes back with the answer, entries and all.
        send(&mut c, "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        send(&mut c, "go mate 5000");
        assert!(holds_root(&c), "the table is kept through a quick `go mate`");
        // Shogi Zuko 99 (117 plies) runs to its limit: the table is let go while it solves.
        send(
            &mut c,
            "position sfen k1+P4n1/2L+P2sL1/r4+P+P1P/+BpP+Pl1+Rg1/NP1S+PP+p1g/2L+p1g+P1+P/Ps1G1+P1N1/1sN1P4/B8 b - 1",
        );
        send(&mut c, "go mate 400");
        assert!(
            c.tt.is_none(),
            "the search's table is not held through a long `go mate`"
        );
        send(&mut c, "isready");
        assert!(c.tt.as_ref().is_some_and(|t| !t.is_dirty() && t.size_mb() == 1));
        // A `go` straight after a long `go mate`, with no `isready` between, allocates it too.
        send(&mut c, "go mate 400");
        assert!(c.tt.is_none());
        send(&mut c, "position startpos");
        send(&mut c, "go depth 3");
        assert!(holds_root(&c));
        let out = String::from_utf8(c.out.clone()).unwrap();
        let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("checkmate")).collect();
        assert_eq!(answers, ["checkmate G*5b", "checkmate timeout", "checkmate timeout"]);
        assert_eq!(out.lines().filter(|l| l.starts_with("bestmove")).count(), 2);
    }

    #[test]
    fn the_table_is_emptied_at_isready_between_games_and_kept_within_one() {
        let mut c = Controller::new(Vec::new(), CurrentControl::default());
        send(&mut c, "setoption name USI_Hash value 1");
        send(&mut c, "isready");
        assert!(!c.tt.as_ref().unwrap().is_dirty());
        // Each line, then whether the table must hold the searches' results after it.
        let script: &[(&str, Option<bool>)] = &[
            // Shogidokoro's order: isready, usinewgame, then the game.
            ("usinewgame", None),
            ("position startpos", None),
            ("go depth 4", Some(true)),
            // An isready in the middle of a game keeps the table.
            ("isready", Some(true)),
            // gameover, then isready: the next game starts with an empty table.
            ("gameover win", None),
            ("isready", Some(false)),
            ("usinewgame", None),
            ("go depth 4", Some(true)),
            // ShogiArena's order, usinewgame then isready: emptied at the isready, not before.
            ("usinewgame", Some(true)),
            ("isready", Some(false)),
            // A usinewgame right before go, with no isready after it: the clock runs, so the
            // table is not emptied then; a new game's isready still empties it.
            ("go depth 4", None),
            ("usinewgame", None),
            ("go depth 4", Some(true)),
            ("gameover lose", None),
            ("isready", Some(false)),
        ];
        for (i, &(line, holds)) in script.iter().enumerate() {
            send(&mut c, line);
            if let Some(holds) = holds {
                assert_eq!(holds_root(&c), holds, "after step {i}, `{line}`");
            }
            if holds == Some(false) {
                let tt = c.tt.as_ref().unwrap();
                assert!(!tt.is_dirty() && tt.hashfull() == 0, "after step {i}, `{line}`");
            }
        }
        let out = String::from_utf8(c.out.clone()).unwrap();
        assert_eq!(out.lines().filter(|l| l.starts_with("bestmove")).count(), 4);
        assert_eq!(out.lines().filter(|l| *l == "readyok").count(), 5);
    }

    #[test]
    fn mate_progress_shows_a_proven_line_as_pv() {
        let mut p = MateProgress {
            depth: 0,
            nodes: 5000,
            elapsed: Duration::from_millis(250),
            hashfull_permille: 3,
            proven_line: None,
            searching_line: None,
        };
        assert_eq!(
            mate_info_message(&p).to_string(),
            "info nodes 5000 nps 20000 time 250 hashfull 3"
        );
        p.depth = 7;
        p.proven_line = Some(["G*5b", "4a5b", "S*4b"].map(|m| Move::from_usi(m).unwrap()).to_vec());
        assert_eq!(
            mate_info_message(&p).to_string(),
            "info depth 7 nodes 5000 nps 20000 time 250 hashfull 3 pv G*5b 4a5b S*4b"
        );
    }
}
