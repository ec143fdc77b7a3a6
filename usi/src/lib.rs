//! The USI protocol's messages: types, their wire form (`Display`) and parsers.
//!
//! Self-contained: moves, SFENs and option values are carried as text, and nothing here depends
//! on the rules of shogi or on the engine. The engine's front-end and controller use it, and so
//! does the test client of `soppo-tests`, which needs nothing else of the engine.
//!
//! - [`parse_gui_line`] reads what a GUI sends, as leniently as real GUIs need
//!   (Shogidokoro, ShogiGUI, ShogiHome, cshogi, ShogiArena).
//! - [`parse_gui_line_mending`] reads the same, but answers a `go` whose values cannot be read
//!   with the smallest search instead of refusing it (what the engine's front-end uses).
//! - [`parse_gui_line_strict`] accepts only the canonical form, the one `Display` prints.
//! - [`parse_engine_line`] reads what an engine prints, for test clients.
//!
//! ```
//! use soppo_usi::{parse_gui_line, EngineMessage, BestMove, GuiMessage, GoParams};
//! use std::time::Duration;
//!
//! let go = parse_gui_line("go btime 0 wtime 0 byoyomi 10000\r\n").unwrap();
//! let expected = GoParams { btime: Some(Duration::ZERO), wtime: Some(Duration::ZERO),
//!     byoyomi: Some(Duration::from_secs(10)), ..GoParams::default() };
//! assert_eq!(go, GuiMessage::Go(expected));
//!
//! let answer = EngineMessage::BestMove { mv: BestMove::Move("7g7f".into()), ponder: Some("3c3d".into()) };
//! assert_eq!(answer.to_string(), "bestmove 7g7f ponder 3c3d");
//! ```

mod fmt;
mod msg;
mod parse;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use msg::*;
pub use parse::{ParseError, parse_engine_line, parse_gui_line, parse_gui_line_mending, parse_gui_line_strict};
