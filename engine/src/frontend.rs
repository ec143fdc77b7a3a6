//! The front-end thread: reads standard input as bytes, decodes leniently, parses each line
//! and passes it to the controller. `stop`, `gameover` and `quit` also set the running job's
//! stop flag at once, so the search stops even before the controller reads the command.

use crate::controller::{Command, CurrentControl};
use crossbeam_channel::Sender;
use soppo_usi::{GuiMessage, parse_gui_line_mending};
use std::io::{BufRead, Read};

/// The longest line read (2 MiB): a `position` of some 400,000 moves, far beyond any game.
/// A longer line is ignored, with an `info string`, so that input without line breaks cannot
/// grow the engine's memory without bound.
pub const MAX_LINE_BYTES: usize = 2 << 20;

/// Reads `input` until the end or `quit`, sending a command per non-empty line.
pub fn read_commands(mut input: impl BufRead, commands: &Sender<Command>, current: &CurrentControl) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut input).take(MAX_LINE_BYTES as u64).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.len() == MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            let rest = skip_line(&mut input);
            let why = format!(
                "a line of more than {} MiB was ignored ({} bytes)",
                MAX_LINE_BYTES >> 20,
                MAX_LINE_BYTES as u64 + rest
            );
            if commands.send(Command::Bad(why)).is_err() {
                return;
            }
            continue;
        }
        // Lenient decoding: GUIs on Japanese Windows may send CP932 in option values.
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let cmd = match parse_gui_line_mending(line) {
            Ok((msg, notes)) => {
                if matches!(msg, GuiMessage::Stop | GuiMessage::Quit | GuiMessage::GameOver(_))
                    && let Ok(slot) = current.lock()
                    && let Some(control) = slot.as_ref()
                {
                    control.stop();
                }
                if notes.is_empty() {
                    Command::Gui(msg)
                } else {
                    Command::Mended(msg, notes)
                }
            }
            Err(e) => Command::Bad(e.to_string()),
        };
        let quit = matches!(cmd, Command::Gui(GuiMessage::Quit));
        if commands.send(cmd).is_err() || quit {
            return;
        }
    }
    let _ = commands.send(Command::Eof);
}

/// Reads and drops input up to and including the next line break; returns the bytes dropped.
fn skip_line(input: &mut impl BufRead) -> u64 {
    let mut dropped = 0;
    loop {
        let (used, done) = match input.fill_buf() {
            Ok([]) | Err(_) => return dropped,
            Ok(data) => match data.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (data.len(), false),
            },
        };
        input.consume(used);
        dropped += used as u64;
        if done {
            return dropped;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlong_line_is_reported_and_the_next_one_read() {
        let mut input = "x".repeat(MAX_LINE_BYTES + 1000).into_bytes();
        input.extend_from_slice(b"\nisready\nquit\n");
        let (tx, rx) = crossbeam_channel::unbounded();
        read_commands(&input[..], &tx, &CurrentControl::default());
        let got: Vec<Command> = rx.try_iter().collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            matches!(&got[0], Command::Bad(why) if why.contains("2 MiB") && why.contains(&(MAX_LINE_BYTES + 1001).to_string())),
            "{:?}",
            got[0]
        );
        assert!(matches!(got[1], Command::Gui(GuiMessage::IsReady)));
        assert!(matches!(got[2], Command::Gui(GuiMessage::Quit)));
    }
}
