//! The accumulators along the search's line: one per ply, each the feature transformer's output
//! for both perspectives, updated from the ply before by the few inputs the move changed.
//!
//! A move is recorded when it is made ([`AccumulatorStack::push`], with the position before the
//! move): the moved piece leaves its square and arrives, promoted or not, on the target; a
//! capture takes the captured piece off the board and puts it into the mover's hand as its
//! next one of that kind; a drop takes the hand's last one of that kind and puts it on the
//! board. A king move is the same: K+P has no input that depends on where a king stands other
//! than the king's own square, so nothing is ever refreshed. The accumulator itself is only
//! computed when a position is evaluated (lazily): a node the table or a mate cuts never pays
//! for it, and an evaluation computes the pending plies above the last computed one in order.
//!
//! A null move changes no input (the accumulators are kept per colour, not per side to move):
//! the stack is left as it is and the evaluation reads the side to move from the position.

use super::features::{board_input, hand_input};
use super::network::{HALF, Network};
use super::simd::Kernel;
use soppo_core::{Color, Move, Piece, PieceKind, Position, Square};
use std::sync::Arc;

/// The feature transformer's output for both perspectives, indexed by [`Color::index`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator(pub [[i16; HALF]; 2]);

impl Accumulator {
    /// From scratch (the reference).
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        Accumulator([net.refresh(pos, Color::Black), net.refresh(pos, Color::White)])
    }
}

/// One input, independent of the perspective.
#[derive(Clone, Copy, Debug)]
enum Input {
    Board(Piece, Square),
    /// The `nth` piece of a kind in a hand.
    Hand(Color, PieceKind, u32),
}

impl Input {
    #[inline(always)]
    fn index(self, perspective: Color) -> usize {
        match self {
            Input::Board(p, sq) => board_input(perspective, p, sq),
            Input::Hand(holder, kind, nth) => hand_input(perspective, holder, kind, nth),
        }
    }
}

/// The inputs one move turns off and on.
#[derive(Clone, Copy, Debug)]
struct Change {
    removed: [Input; 2],
    added: [Input; 2],
    n_removed: u8,
    n_added: u8,
}

const NO_INPUT: Input = Input::Hand(Color::Black, PieceKind::Pawn, 1);

impl Change {
    const NONE: Change = Change {
        removed: [NO_INPUT; 2],
        added: [NO_INPUT; 2],
        n_removed: 0,
        n_added: 0,
    };

    fn remove(&mut self, i: Input) {
        self.removed[usize::from(self.n_removed)] = i;
        self.n_removed += 1;
    }

    fn add(&mut self, i: Input) {
        self.added[usize::from(self.n_added)] = i;
        self.n_added += 1;
    }

    /// What `m` changes, from the position before it. Hand pieces beyond the full set of a
    /// kind have no input (as in [`super::features::for_each_active`]), nor has a captured king
    /// in hand.
    #[inline]
    fn of_move(pos: &Position, m: Move) -> Change {
        let us = pos.side_to_move();
        let to = m.to();
        let mut c = Change::NONE;
        if m.is_drop() {
            let kind = m.dropped_kind();
            let n = pos.hand(us).count(kind);
            if (1..=kind.full_set_count()).contains(&n) {
                c.remove(Input::Hand(us, kind, n));
            }
            c.add(Input::Board(Piece::new(us, kind), to));
            return c;
        }
        let from = m.from();
        let Some(p) = pos.piece_on(from) else {
            debug_assert!(false, "no piece to move on {from:?}");
            return c;
        };
        let moved = if m.is_promotion() {
            Piece::new(us, p.kind().promote())
        } else {
            p
        };
        c.remove(Input::Board(p, from));
        c.add(Input::Board(moved, to));
        if let Some(captured) = pos.piece_on(to) {
            c.remove(Input::Board(captured, to));
            let kind = captured.kind().unpromote();
            let n = pos.hand(us).count(kind) + 1;
            if kind != PieceKind::King && n <= kind.full_set_count() {
                c.add(Input::Hand(us, kind, n));
            }
        }
        c
    }
}

/// Plies the stack holds before it grows (the search's deepest line is 128 plies).
const INITIAL_PLIES: usize = 140;

#[derive(Clone)]
struct Entry {
    acc: Accumulator,
    /// The move's change from the entry below (unused at the bottom).
    change: Change,
    /// Whether `acc` holds this ply's accumulator yet.
    computed: bool,
}

/// The accumulators of one search thread, along its current line.
pub struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    entries: Vec<Entry>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack for `net` computing with `kernel`, at the start position until
    /// [`AccumulatorStack::reset`].
    pub fn new(net: Arc<Network>, kernel: Kernel) -> AccumulatorStack {
        let acc = Accumulator::refresh(&net, &Position::startpos());
        let entry = Entry {
            acc,
            change: Change::NONE,
            computed: true,
        };
        AccumulatorStack {
            net,
            kernel,
            entries: vec![entry; INITIAL_PLIES],
            top: 0,
        }
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Starts again from `pos` (computed from scratch).
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        self.entries[0].acc = Accumulator::refresh(&self.net, pos);
        self.entries[0].computed = true;
    }

    /// Records `m`; call with the position before `pos.do_move(m)`.
    #[inline]
    pub fn push(&mut self, pos: &Position, m: Move) {
        self.top += 1;
        if self.top == self.entries.len() {
            let e = self.entries[0].clone();
            self.entries.push(e);
        }
        let e = &mut self.entries[self.top];
        e.change = Change::of_move(pos, m);
        e.computed = false;
    }

    /// Forgets the last move pushed (call with `undo_move`).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "a pop without a push");
        self.top = self.top.saturating_sub(1);
    }

    /// How many moves are pushed.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The accumulator of the position on top, computed from the last computed one below.
    pub fn current(&mut self) -> &Accumulator {
        let mut first = self.top;
        while !self.entries[first].computed {
            first -= 1;
        }
        for i in first + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let (parent, e) = (&below[i - 1].acc, &mut above[0]);
            let c = e.change;
            for perspective in Color::ALL {
                let mut removed = [0; 2];
                let mut added = [0; 2];
                let (nr, na) = (usize::from(c.n_removed), usize::from(c.n_added));
                for (r, input) in removed.iter_mut().zip(&c.removed[..nr]) {
                    *r = input.index(perspective);
                }
                for (a, input) in added.iter_mut().zip(&c.added[..na]) {
                    *a = input.index(perspective);
                }
                let p = perspective.index();
                self.kernel
                    .update(&self.net, &parent.0[p], &mut e.acc.0[p], &removed[..nr], &added[..na]);
            }
            e.computed = true;
        }
        &self.entries[self.top].acc
    }

    /// The evaluation of `pos`, the position on top, in centipawns from the side to move's
    /// point of view (not clamped).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let us = pos.side_to_move().index();
        let kernel = self.kernel;
        self.current();
        let acc = &self.entries[self.top].acc;
        let v = kernel.propagate(&self.net, &acc.0[us], &acc.0[1 - us]);
        debug_assert_eq!(acc, &Accumulator::refresh(&self.net, pos), "{}", pos.to_sfen());
        v
    }
}
