//! Soppo's rules core: everything about shogi positions and moves, with no I/O and no threads.
//!
//! - [`types`]: colours, squares, piece kinds and pieces;
//! - [`Bitboard`] and the [`attacks`] tables;
//! - [`Hand`], [`Move`], [`Position`] (SFEN, a USI `position`'s start and moves, do/undo, checks,
//!   legality, the 32-byte packing of training data);
//! - [`movegen`]: staged and legal generation, Bonanza-style check generation;
//! - mate in one ([`Position::mate_in_one`]), repetition and entering-king declaration rules;
//! - [`mate_eval`]: a static (search-free) estimate of a 3-ply mate;
//! - [`perft`];
//! - [`rng`]: the small seeded generator of the Zobrist keys, the tools and the tests.

pub mod attacks;
pub mod bitboard;
pub mod declaration;
pub mod hand;
pub mod mate_eval;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod position;
pub mod repetition;
pub mod rng;
pub mod types;
pub mod zobrist;

mod mate1;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use movegen::MoveList;
pub use mv::{Move, MoveParseError};
pub use position::{
    PACKED_BYTES, PackError, PackedPosition, Position, STARTPOS_SFEN, SetupError, SfenError, StateInfo, UnpackError,
};
pub use types::{Color, File, Piece, PieceKind, Rank, Square};
