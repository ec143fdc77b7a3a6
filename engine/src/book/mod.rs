//! Opening books in YaneuraOu's text format (`.db`): reading them ([`format`](mod@format)), holding and
//! looking them up ([`store`]), and choosing a move as YaneuraOu does with its book options
//! ([`choose`]). The controller loads the book at `isready` and answers `go` from it.

pub mod choose;
pub mod format;
pub mod store;

pub use choose::{BookSettings, NO_BOOK};
pub use format::Candidate;
pub use store::{Book, BookError, LoadReport};
