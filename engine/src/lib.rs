//! The Soppo engine: USI front-end, controller, search, mate search, time management.
//!
//! The engine's documentation is for the people who work on it, who read it with
//! `cargo doc --document-private-items`: module overviews link to the private modules and
//! constants they describe, so those links are allowed here (CI builds them with warnings
//! denied, which still catches a link to an item that does not exist).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bench;
pub mod book;
pub mod controller;
pub mod eval;
pub mod frontend;
pub mod mate;
pub mod memory;
pub mod options;
pub mod pages;
pub mod paths;
pub mod search;
pub mod time;
pub mod tt;
