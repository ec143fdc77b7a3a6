//! The Soppo engine: USI front-end, controller, search, mate search, time management.

pub mod bench;
pub mod controller;
pub mod eval;
pub mod frontend;
pub mod mate;
pub mod options;
pub mod pages;
pub mod search;
pub mod time;
pub mod tt;
pub mod usi;
