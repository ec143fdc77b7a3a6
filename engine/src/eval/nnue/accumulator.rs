//! The accumulators along the search's line: one per ply, each the feature transformer's output
//! for both perspectives, updated from the ply before by the few inputs the move changed.
//!
//! A move is recorded when it is made ([`AccumulatorStack::push`], with the position before the
//! move): the moved piece leaves its square and arrives, promoted or not, on the target; a
//! capture takes the captured piece off the board and puts it into the mover's hand as its
//! next one of that kind; a drop takes the hand's last one of that kind and puts it on the
//! board. For K+P a king move is such a change too. For HalfKP a king is no input: a move of a
//! perspective's own king changes every input of that perspective, which is then computed
//! from scratch (a refresh), and the other perspective sees only what the move captured.
//!
//! Accumulators are computed only when a position is evaluated (lazily), per perspective: from
//! the last computed ply below, applying the plies' changes in order, or from scratch at the
//! top when that perspective's king moved on the way (the plies between are then left
//! uncomputed; a take-back to one of them finds the king move again and refreshes there).
//! A node the table or a mate cuts never pays for its accumulator.
//!
//! A null move changes no input (the accumulators are kept per colour, not per side to move):
//! the stack is left as it is and the evaluation reads the side to move from the position.

use super::bona_piece;
use super::features::Features;
use super::network::{HALF, Network, value};
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
    /// The input's index for `perspective` (whose own king stands on `king`, as it sees it),
    /// if it is an input of `features` (a king is none in HalfKP).
    #[inline(always)]
    fn index(self, features: Features, perspective: Color, king: u16) -> Option<usize> {
        let bona = match self {
            Input::Board(p, _) if p.kind() == PieceKind::King && features != Features::KP => return None,
            Input::Board(p, sq) => bona_piece::board(perspective, p, sq),
            Input::Hand(holder, kind, nth) => bona_piece::hand(perspective, holder, kind, nth),
        };
        Some(features.input(bona, king))
    }
}

/// The inputs one move turns off and on, and whose king it moved.
#[derive(Clone, Copy, Debug)]
struct Change {
    removed: [Input; 2],
    added: [Input; 2],
    n_removed: u8,
    n_added: u8,
    /// The colour whose king the move moved, if it did.
    king_mover: Option<Color>,
}

const NO_INPUT: Input = Input::Hand(Color::Black, PieceKind::Pawn, 1);

impl Change {
    const NONE: Change = Change {
        removed: [NO_INPUT; 2],
        added: [NO_INPUT; 2],
        n_removed: 0,
        n_added: 0,
        king_mover: None,
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
    /// kind have no input (as in [`Features::for_each_active`]), nor has a captured king in
    /// hand.
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
        if p.kind() == PieceKind::King {
            c.king_mover = Some(us);
        }
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
    /// Whether `acc` holds this ply's accumulator yet, per perspective.
    computed: [bool; 2],
}

/// How the accumulators were computed, for the measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccumulatorStats {
    /// Perspectives brought up to date by applying a ply's changes.
    pub updates: u64,
    /// Perspectives computed from scratch (a HalfKP king move; the root).
    pub refreshes: u64,
}

/// The accumulators of one search thread, along its current line.
pub struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    fv_scale: i32,
    entries: Vec<Entry>,
    top: usize,
    stats: AccumulatorStats,
}

impl AccumulatorStack {
    /// A stack for `net` computing with `kernel`, values divided by `fv_scale` (see
    /// [`value`]), at the start position until [`AccumulatorStack::reset`].
    pub fn new(net: Arc<Network>, kernel: Kernel, fv_scale: i32) -> AccumulatorStack {
        let acc = Accumulator::refresh(&net, &Position::startpos());
        let entry = Entry {
            acc,
            change: Change::NONE,
            computed: [true; 2],
        };
        AccumulatorStack {
            net,
            kernel,
            fv_scale,
            entries: vec![entry; INITIAL_PLIES],
            top: 0,
            stats: AccumulatorStats::default(),
        }
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// How the accumulators have been computed so far.
    pub fn stats(&self) -> AccumulatorStats {
        self.stats
    }

    /// Starts again from `pos` (computed from scratch).
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        self.entries[0].acc = Accumulator::refresh(&self.net, pos);
        self.entries[0].computed = [true; 2];
        self.stats.refreshes += 2;
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
        e.computed = [false; 2];
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

    /// The accumulator of `pos`, the position on top, brought up to date.
    pub fn current(&mut self, pos: &Position) -> &Accumulator {
        let features = self.net.features;
        for perspective in Color::ALL {
            let p = perspective.index();
            // The last ply computed below the top, unless this perspective's king moved on
            // the way (HalfKP): then the top is computed from scratch.
            let mut base = self.top;
            let mut refresh = false;
            while !self.entries[base].computed[p] {
                if features.refreshes_on_king_move() && self.entries[base].change.king_mover == Some(perspective) {
                    refresh = true;
                    break;
                }
                base -= 1;
            }
            if refresh {
                self.entries[self.top].acc.0[p] = self.net.refresh(pos, perspective);
                self.entries[self.top].computed[p] = true;
                self.stats.refreshes += 1;
                continue;
            }
            // The king does not move between `base` and the top: its square now is its square
            // at every ply between. Without it (HalfKP), no input is active: refresh.
            let Some(king) = features.king(pos, perspective) else {
                self.entries[self.top].acc.0[p] = self.net.refresh(pos, perspective);
                self.entries[self.top].computed[p] = true;
                continue;
            };
            for i in base + 1..=self.top {
                let (below, above) = self.entries.split_at_mut(i);
                let (parent, e) = (&below[i - 1].acc, &mut above[0]);
                let c = e.change;
                let mut removed = [0; 2];
                let mut added = [0; 2];
                let (mut nr, mut na) = (0, 0);
                for input in &c.removed[..usize::from(c.n_removed)] {
                    if let Some(r) = input.index(features, perspective, king) {
                        removed[nr] = r;
                        nr += 1;
                    }
                }
                for input in &c.added[..usize::from(c.n_added)] {
                    if let Some(a) = input.index(features, perspective, king) {
                        added[na] = a;
                        na += 1;
                    }
                }
                self.kernel
                    .update(&self.net, &parent.0[p], &mut e.acc.0[p], &removed[..nr], &added[..na]);
                e.computed[p] = true;
                self.stats.updates += 1;
            }
        }
        &self.entries[self.top].acc
    }

    /// The value of `pos`, the position on top, from the side to move's point of view (see
    /// [`value`]).
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let us = pos.side_to_move().index();
        let kernel = self.kernel;
        self.current(pos);
        let acc = &self.entries[self.top].acc;
        let out = kernel.propagate(&self.net, &acc.0[us], &acc.0[1 - us]);
        debug_assert_eq!(acc, &Accumulator::refresh(&self.net, pos), "{}", pos.to_sfen());
        value(out, self.fv_scale)
    }
}
