//! The net the search evaluates with: `<EvalDir>/nn.bin`, or the file `EvalFile` names,
//! loaded at `isready` (or at a `go` or `bench` that comes first) and handed to each search as
//! an `Arc`. What was loaded is said in one `info string` (path, shape, size); a file that
//! cannot be used is refused with one `info string` saying why, and the net the engine had is
//! kept. With `Evaluation Classic` no net is loaded (a HalfKP net holds 64 MB).
//!
//! A net's folder may hold `eval_options.txt`, options the net wants (`FV_SCALE 24`), as in
//! YaneuraOu: read when the net loads, applied again at every `isready` over what the GUI set.

use super::Controller;
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Network};
use crate::options::{NET_OPTIONS, Options};
use crate::paths::{self, FileState};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file name of a net in `EvalDir`, as YaneuraOu names it.
pub const NET_FILE: &str = "nn.bin";
/// The options file beside a net.
pub const EVAL_OPTIONS_FILE: &str = "eval_options.txt";

/// The net in use and what the engine said about it.
#[derive(Default)]
pub(super) struct Networks {
    /// The net, and the file it came from.
    current: Option<(Arc<Network>, FileState)>,
    /// The file last tried (`None` when it could not even be looked at), and the options
    /// then; the same again is not tried again.
    tried: Option<(Option<FileState>, String, String, Evaluation)>,
    /// Options from the net's `eval_options.txt`: (name, value).
    eval_options: Vec<(String, String)>,
}

impl Networks {
    /// The net for the search, if there is one.
    pub(super) fn current(&self) -> Option<Arc<Network>> {
        self.current.as_ref().map(|(net, _)| Arc::clone(net))
    }
}

/// The net file the options name: `EvalFile` when it is set, else `<EvalDir>/nn.bin`; a
/// relative path from the executable's folder.
pub fn net_path(options: &Options) -> PathBuf {
    if options.eval_file.is_empty() {
        paths::resolve(&options.eval_dir).join(NET_FILE)
    } else {
        paths::resolve(&options.eval_file)
    }
}

/// The options of an `eval_options.txt` (YaneuraOu's forms: `FV_SCALE 24`, `FV_SCALE=24`, or
/// an `option name FV_SCALE type spin default 24 …` line); blank lines and `#` comments
/// skipped.
fn parse_eval_options(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let line = line.replace('=', " ");
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if first == "option" {
            let (mut name, mut value) = (None, None);
            while let Some(w) = words.next() {
                match w {
                    "name" => name = words.next(),
                    "default" => value = words.next(),
                    _ => {}
                }
            }
            if let (Some(n), Some(v)) = (name, value) {
                out.push((n.to_owned(), v.to_owned()));
            }
        } else {
            out.push((first.to_owned(), words.collect::<Vec<_>>().join(" ")));
        }
    }
    out
}

impl<W: Write> Controller<W> {
    /// After `setoption name <name>`: a change of the net's options empties the table at the
    /// next `isready` (its evaluations may be the other evaluation's).
    pub(super) fn network_option_set(&mut self, name: &str) {
        if NET_OPTIONS.iter().any(|n| n.eq_ignore_ascii_case(name)) {
            self.new_game = true;
        }
    }

    /// Loads the net the options name unless that file, unchanged, was tried already with the
    /// same options; applies the net's `eval_options.txt`.
    pub(super) fn ensure_network(&mut self) {
        let evaluation = self.options.search.evaluation;
        let path = net_path(&self.options);
        let state = FileState::of(&path);
        let key = (
            state.clone(),
            self.options.eval_dir.clone(),
            self.options.eval_file.clone(),
            evaluation,
        );
        if self.networks.tried.as_ref() != Some(&key) {
            self.networks.tried = Some(key);
            if evaluation == Evaluation::Classic {
                // Nothing to load; the memory of a net loaded before goes back.
                self.networks.current = None;
                self.networks.eval_options.clear();
            } else if self
                .networks
                .current
                .as_ref()
                .is_some_and(|(_, s)| Some(s) == state.as_ref())
            {
                // The same file, unchanged: nothing to read.
            } else {
                self.load_network(&path, evaluation);
            }
        }
        for (name, value) in self.networks.eval_options.clone() {
            if let Err(why) = self.options.set(&name, Some(&value)) {
                self.emit_info(&format!("{EVAL_OPTIONS_FILE}: {why}"));
            }
        }
    }

    fn load_network(&mut self, path: &Path, evaluation: Evaluation) {
        let shown = path.display().to_string();
        match nnue::load(path) {
            Ok(net) => {
                let state = FileState::of(path).unwrap_or(FileState {
                    path: path.to_path_buf(),
                    len: 0,
                    modified: None,
                });
                self.emit_info(&format!(
                    "NNUE: loaded {shown} ({}, {} bytes)",
                    net.features.shape_name(),
                    state.len
                ));
                self.networks.current = Some((Arc::new(net), state));
                self.read_eval_options(path);
            }
            Err(why) => {
                let missing = matches!(&why, nnue::LoadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound);
                let kept = match (&self.networks.current, evaluation) {
                    (Some((_, s)), _) => format!("the net {} is kept", s.path.display()),
                    (None, Evaluation::Auto) => "Evaluation Auto uses the classic evaluation".to_owned(),
                    (None, _) => "Evaluation NNUE has no net: the search uses the classic evaluation".to_owned(),
                };
                let what = if missing {
                    format!("NNUE: no net at {shown}")
                } else {
                    format!("NNUE: {shown}: {why}")
                };
                self.emit_info(&format!("{what}; {kept}"));
            }
        }
    }

    /// Reads the options file beside the net at `path`, if there is one, and says each option.
    fn read_eval_options(&mut self, path: &Path) {
        self.networks.eval_options.clear();
        let Some(file) = path.parent().map(|dir| dir.join(EVAL_OPTIONS_FILE)) else {
            return;
        };
        let Ok(meta) = std::fs::metadata(&file) else { return };
        // A few lines of options: a larger file is not one.
        if !meta.is_file() || meta.len() > 64 * 1024 {
            self.emit_info(&format!("{}: not read (not a small text file)", file.display()));
            return;
        }
        let text = match std::fs::read(&file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                self.emit_info(&format!("{}: cannot be read ({e})", file.display()));
                return;
            }
        };
        for (name, value) in parse_eval_options(&text) {
            if NET_OPTIONS.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
                self.emit_info(&format!("{}: {name} is not set from a net's folder", file.display()));
                continue;
            }
            self.emit_info(&format!("{}: {name} = {value}", file.display()));
            self.networks.eval_options.push((name, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_options_read_in_yaneuraous_three_forms() {
        let text = "\u{feff}FV_SCALE 24\n\n# a comment\nFV_SCALE=20\noption name FV_SCALE type spin default 28 min 1 max 128\r\n";
        assert_eq!(
            parse_eval_options(text),
            vec![
                ("FV_SCALE".to_owned(), "24".to_owned()),
                ("FV_SCALE".to_owned(), "20".to_owned()),
                ("FV_SCALE".to_owned(), "28".to_owned()),
            ]
        );
    }

    #[test]
    fn the_net_path_is_evalfile_else_nn_bin_in_evaldir() {
        let mut o = Options::default();
        let dir = paths::binary_dir().unwrap();
        assert_eq!(net_path(&o), dir.join("eval").join("nn.bin"));
        o.eval_dir = "/nets/suisho".into();
        assert_eq!(net_path(&o), Path::new("/nets/suisho/nn.bin"));
        o.eval_file = "/nets/other.bin".into();
        assert_eq!(net_path(&o), Path::new("/nets/other.bin"));
    }
}
