//! The controller: owns the game, the options, the transposition table and the worker (a
//! search or a mate search), and is the one place that answers `go` with `bestmove` or
//! `checkmate`.
//!
//! - [`job`]: the life of a job, from `go` to its one answer, whatever races `stop`,
//!   `ponderhit`, `gameover` and `quit` run against the worker's own end;
//! - [`tables`]: the search's table, sized to the machine and made resident at `isready`;
//! - [`network`]: the network of `Evaluation NNUE`, loaded from `EvalFile` at `isready`;
//! - [`book`]: the opening book, loaded at `isready`, and `go` answered from it;
//! - [`settings`]: from the options to what a job runs with;
//! - [`report`]: every USI message the controller prints, made from the workers' events;
//! - [`debug`]: the commands beyond USI (`d`, `perft`, `bench`).

mod book;
mod debug;
mod job;
mod network;
mod report;
mod settings;
mod tables;
#[cfg(test)]
mod tests;

use crate::options::Options;
use crate::search::{Histories, SearchControl, SearchInfo};
use crate::tt::TranspositionTable;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use job::{Job, WorkerEvent};
use soppo_core::Position;
use soppo_core::rng::SplitMix64;
use soppo_usi::{EngineMessage, GoParams, GuiMessage, IdInfo};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tables::{LateTable, TABLE_READY_TIME};

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
    /// The network of `Evaluation NNUE`.
    networks: network::Networks,
    /// The opening book.
    books: book::Books,
    /// Draws among book moves (and `BookIgnoreRate`'s chance): seeded from the clock, so each
    /// game may open differently.
    rng: SplitMix64,
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
            networks: network::Networks::default(),
            books: book::Books::default(),
            rng: SplitMix64::new(clock_seed()),
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

    /// Says `text` in an `info string` (see [`report::info_string`]).
    fn emit_info(&mut self, text: &str) {
        self.emit(&report::info_string(text));
    }

    /// Handles one command; `false` to quit.
    fn handle(&mut self, cmd: Command) -> bool {
        let msg = match cmd {
            Command::Eof => return false,
            Command::Bad(why) => {
                self.emit_info(&why);
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
                    self.emit_info(note);
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
                // A search under way keeps the network it started with.
                self.ensure_network();
                self.ensure_book();
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
            GuiMessage::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Ok(()) => self.network_option_set(&name),
                Err(why) => self.emit_info(&why),
            },
            GuiMessage::Position { start, moves } => match Position::from_usi_moves(start.sfen(), &moves) {
                Ok(p) => self.position = p,
                Err(why) => self.emit_info(&format!("position not set: {why}; the previous position is kept")),
            },
            GuiMessage::Go(go) => self.go(&go),
            // The answer goes out before the next line is read: a `readyok` for an `isready`
            // sent right after `stop` must not overtake the `bestmove`.
            GuiMessage::Stop => self.finish_job_now(),
            GuiMessage::PonderHit(clock) => {
                // Only a ponder search turns into a normal one; a stray ponderhit is ignored.
                let clock_budget =
                    (clock != GoParams::default()).then(|| self.budget(&self.with_option_limits(&clock)));
                if let Some(job) = self.job.as_ref().filter(|j| j.is_ponder) {
                    if let Some(b) = clock_budget {
                        // ShogiHome's early ponder: the clock comes with the hit.
                        job.control().set_budget(b);
                    }
                    job.control().ponderhit();
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
            GuiMessage::Display => self.display(),
            GuiMessage::Perft(depth) => self.perft(depth),
            GuiMessage::Bench(args) => self.bench(&args),
            GuiMessage::Eval => self.eval(),
            GuiMessage::Book => self.book_debug(),
        }
        true
    }
}

/// A seed that differs from run to run: the clock's nanoseconds and the process id.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}
