//! The front-end thread: reads standard input as bytes, decodes leniently, parses each line
//! and passes it to the controller. `stop`, `gameover` and `quit` also set the running job's
//! stop flag at once, so the search stops even before the controller reads the command.

use crate::controller::{Command, CurrentControl};
use crate::usi::{GuiMessage, parse_gui_line_mending};
use crossbeam_channel::Sender;
use std::io::BufRead;

/// Reads `input` until the end or `quit`, sending a command per non-empty line.
pub fn read_commands(mut input: impl BufRead, commands: &Sender<Command>, current: &CurrentControl) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
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
