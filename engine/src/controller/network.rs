//! The network `Evaluation NNUE` evaluates with: the embedded one, or the one in `EvalFile`,
//! loaded at `isready` (or at a `go` that comes first) and handed to each search as an
//! `Arc`. A file that cannot be used is refused with an `info string` saying why, and the
//! network the engine had is kept.

use super::Controller;
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Network};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The network in use and what the engine said about it.
#[derive(Default)]
pub(super) struct Networks {
    /// The network, and where it came from (for the messages).
    current: Option<(Arc<Network>, String)>,
    /// The `EvalFile` value last tried; `None` to try at the next `isready` or `go`.
    tried: Option<String>,
    /// Whether the engine has said that `Evaluation NNUE` has no network to use, since
    /// `Evaluation` or `EvalFile` last changed.
    told_missing: bool,
}

impl Networks {
    /// The network for the search, if there is one.
    pub(super) fn current(&self) -> Option<Arc<Network>> {
        self.current.as_ref().map(|(net, _)| Arc::clone(net))
    }
}

impl<W: Write> Controller<W> {
    /// After `setoption name <name>`: `EvalFile` is read again even when its value is the
    /// same (the file may have been fixed), and whether there is a network is said again.
    pub(super) fn network_option_set(&mut self, name: &str) {
        if name.eq_ignore_ascii_case("EvalFile") {
            self.networks.tried = None;
        }
        if name.eq_ignore_ascii_case("EvalFile") || name.eq_ignore_ascii_case("Evaluation") {
            self.networks.told_missing = false;
            // The table's evaluations may be the other evaluation's: empty it at `isready`.
            self.new_game = true;
        }
    }

    /// Loads the network `EvalFile` names (the embedded one when it is empty) unless that was
    /// already tried, and says so when `Evaluation NNUE` has none to use.
    pub(super) fn ensure_network(&mut self) {
        let asked = self.options.eval_file.clone();
        if self.networks.tried.as_ref() != Some(&asked) {
            self.networks.tried = Some(asked.clone());
            self.load_network(&asked);
        }
        if self.options.search.evaluation == Evaluation::Nnue
            && self.networks.current.is_none()
            && !std::mem::replace(&mut self.networks.told_missing, true)
        {
            self.emit_info(
                "Evaluation NNUE: there is no network (none is embedded in this build and no EvalFile is loaded); the search uses the classic evaluation",
            );
        }
    }

    fn load_network(&mut self, file: &str) {
        let loaded = if file.is_empty() {
            match nnue::embedded() {
                None => Ok(None),
                Some(r) => r
                    .map(|net| Some((net, "the embedded network".to_owned())))
                    .map_err(|e| format!("the embedded network does not read ({e})")),
            }
        } else {
            nnue::load(Path::new(file))
                .map(|net| Some((net, format!("the network of {file}"))))
                .map_err(|e| format!("EvalFile {file}: {e}"))
        };
        match loaded {
            Ok(Some((net, from))) => {
                if !file.is_empty() {
                    self.emit_info(&format!("EvalFile {file}: network loaded"));
                }
                self.networks.current = Some((Arc::new(net), from));
            }
            // An empty `EvalFile` in a build without an embedded network: no network.
            Ok(None) => self.networks.current = None,
            Err(why) => {
                let kept = match &self.networks.current {
                    Some((_, from)) => format!("{from} is kept"),
                    None => "the engine has no network".to_owned(),
                };
                self.emit_info(&format!("{why}; {kept}"));
            }
        }
    }
}
