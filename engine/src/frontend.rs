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
        let line = decode_line(&buf);
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

/// One input line as text: UTF-8 when it is valid UTF-8, else `Shift_JIS` (CP932, as a GUI on
/// Japanese Windows sends a folder name such as `C:\将棋\評価関数` in the ANSI code page),
/// else UTF-8 with U+FFFD for the bytes that are neither.
///
/// UTF-8 is tried first: Japanese text in `Shift_JIS` is rarely valid UTF-8 (a lead byte
/// 0x81–0x9F is a UTF-8 continuation byte, and a trail byte below 0x80 cannot follow a UTF-8
/// lead byte), so a `Shift_JIS` line seldom passes for UTF-8.
pub fn decode_line(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.into();
    }
    encoding_rs::SHIFT_JIS
        .decode_without_bom_handling_and_without_replacement(bytes)
        .unwrap_or_else(|| String::from_utf8_lossy(bytes))
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

    fn commands_of(input: &[u8]) -> Vec<Command> {
        let (tx, rx) = crossbeam_channel::unbounded();
        read_commands(input, &tx, &CurrentControl::default());
        rx.try_iter().collect()
    }

    fn option_value(cmd: &Command) -> Option<&str> {
        match cmd {
            Command::Gui(GuiMessage::SetOption { value, .. }) => value.as_deref(),
            _ => None,
        }
    }

    #[test]
    fn crlf_line_ends_are_read_as_plain_ones() {
        let got = commands_of(b"usi\r\nisready\r\nsetoption name EvalDir value C:\\Soppo\\eval\r\n\r\nquit\r\n");
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(matches!(got[0], Command::Gui(GuiMessage::Usi)));
        assert!(matches!(got[1], Command::Gui(GuiMessage::IsReady)));
        assert_eq!(option_value(&got[2]), Some("C:\\Soppo\\eval"));
        assert!(matches!(got[3], Command::Gui(GuiMessage::Quit)));
    }

    #[test]
    fn a_japanese_path_reads_the_same_in_utf8_and_in_shift_jis() {
        let path = "C:\\Users\\将棋 太郎\\ソッポ\\評価関数";
        let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(path);
        assert!(!unmappable);
        assert!(
            std::str::from_utf8(&sjis).is_err(),
            "the test needs bytes that are not UTF-8"
        );
        for bytes in [path.as_bytes(), &sjis[..]] {
            let mut line = b"setoption name EvalDir value ".to_vec();
            line.extend_from_slice(bytes);
            line.extend_from_slice(b"\r\n");
            let got = commands_of(&line);
            assert_eq!(option_value(&got[0]), Some(path), "{got:?}");
        }
    }

    #[test]
    fn decoding_keeps_utf8_then_tries_shift_jis_then_replaces() {
        assert_eq!(decode_line("水匠 5/nn.bin".as_bytes()), "水匠 5/nn.bin");
        // "将棋" in Shift_JIS.
        assert_eq!(decode_line(&[0x8F, 0xAB, 0x8A, 0xFB]), "将棋");
        // 0xFF is neither UTF-8 nor Shift_JIS.
        assert_eq!(decode_line(b"a\xFFb \xE5\xB0"), "a\u{FFFD}b \u{FFFD}");
    }

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
