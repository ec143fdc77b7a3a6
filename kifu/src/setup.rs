//! What both readers share: a start position put together square by square (KIF's board
//! diagram, CSA's `P` lines), checked by turning it into a `soppo-core` position, and the
//! replay that checks each record move against the position it is played in.

use crate::GameRecord;
use soppo_core::position::format_sfen;
use soppo_core::{Color, Move, Piece, PieceKind, Position, Square};

/// A start position being assembled: any board, any hands, a side to move.
#[derive(Clone)]
pub(crate) struct Setup {
    pub board: [Option<Piece>; 81],
    /// Pieces in hand by colour, indexed by the kind's number (1..=7; 0 and 8 stay unused).
    pub hands: [[u32; 9]; 2],
    pub side: Color,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [[0; 9]; 2],
            side: Color::Black,
        }
    }

    /// The setup of an existing position.
    pub fn of(pos: &Position) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.board[sq.index()] = pos.piece_on(sq);
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                s.hands[c.index()][k.index()] = pos.hand(c).count(k);
            }
        }
        s.side = pos.side_to_move();
        s
    }

    /// The position, if `soppo-core` accepts it (one king a side at most, no two pawns on a
    /// file, no piece that could never move, the side not to move not in check…).
    pub fn position(&self) -> Result<Position, String> {
        Position::from_sfen(&self.sfen()).map_err(|e| format!("impossible start position: {e}"))
    }

    /// The SFEN, move number 1.
    fn sfen(&self) -> String {
        format_sfen(
            |sq| self.board[sq.index()],
            |c, k| self.hands[c.index()][k.index()],
            self.side,
            1,
        )
    }
}

/// A game being replayed: the current position and the USI moves played so far.
pub(crate) struct Replay {
    pos: Position,
    start_sfen: String,
    moves: Vec<String>,
}

impl Replay {
    pub fn new(pos: Position) -> Replay {
        Replay {
            start_sfen: pos.to_sfen(),
            pos,
            moves: Vec::new(),
        }
    }

    pub fn pos(&self) -> &Position {
        &self.pos
    }

    /// The destination of the last move (what KIF's `同` refers to).
    pub fn last_to(&self) -> Option<Square> {
        self.pos.last_move().map(Move::to)
    }

    /// The kind of the side to move's piece on `from`, or why there is none.
    pub fn own_piece(&self, from: Square) -> Result<PieceKind, String> {
        match self.pos.piece_on(from) {
            Some(p) if p.color() == self.pos.side_to_move() => Ok(p.kind()),
            Some(_) => Err(format!("the piece on {from} belongs to the side not to move")),
            None => Err(format!("no piece on {from}")),
        }
    }

    /// Plays the board move `from`-`to` if it is legal.
    pub fn play_board(&mut self, from: Square, to: Square, promote: bool) -> Result<(), String> {
        // `Move::normal` wants distinct squares.
        if from == to {
            return Err("not a legal move".into());
        }
        self.play(Move::normal(from, to, promote))
    }

    /// Drops `kind` on `to` if that is legal.
    pub fn play_drop(&mut self, kind: PieceKind, to: Square) -> Result<(), String> {
        if !PieceKind::HAND.contains(&kind) {
            return Err("that piece cannot be dropped".into());
        }
        self.play(Move::drop(kind, to))
    }

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        if !self.pos.is_legal_move(m) {
            return Err(format!("{m} is not a legal move"));
        }
        self.moves.push(m.to_string());
        self.pos.do_move(m);
        Ok(())
    }

    pub fn finish(self, end: Option<String>) -> GameRecord {
        GameRecord {
            start_sfen: self.start_sfen,
            moves: self.moves,
            end,
        }
    }
}
