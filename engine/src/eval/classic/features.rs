//! The evaluation's features, written once for both users: the engine sums weights as it goes
//! ([`Score`]), the tuner records how often each weight was used ([`Counts`]). Sharing the
//! code guarantees that what is tuned is exactly what is played.
//!
//! Every feature is counted from the side to move's point of view: `+n` for the side to move,
//! `-n` for the opponent, so the colour-flipped position gives the same counts.

use super::params::{self, FINE, NUM_PARAMS, Params};
use soppo_core::attacks::{
    bishop_attacks, gold_attacks, king_attacks, knight_attacks, lance_attacks, rook_attacks, silver_attacks,
};
use soppo_core::{Bitboard, Color, PieceKind, Position, Square};

/// Receives `n` uses of parameter `index`.
pub trait Sink {
    fn add(&mut self, index: usize, n: i32);
    /// The features that follow belong to side `side` (0: the side to move, 1: the
    /// opponent). The linear sinks ignore it: their counts are signed already. The network
    /// ([`super::net`]) keeps the two sides' features apart.
    #[inline(always)]
    fn side(&mut self, _side: usize) {}
    /// A use of a piece–king table weight (the network leaves those out).
    #[inline(always)]
    fn add_kp(&mut self, index: usize, n: i32) {
        self.add(index, n);
    }
}

/// Sums the weights: the evaluation in 1/16 centipawn.
pub struct Score<'a> {
    pub params: &'a Params,
    pub total: i32,
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.total += self.params.0[index] * n;
    }
}

/// Counts the uses of every weight (in the same 1/16 units as [`Score`]).
pub struct Counts(pub [i32; NUM_PARAMS]);

impl Sink for Counts {
    fn add(&mut self, index: usize, n: i32) {
        self.0[index] += n;
    }
}

/// Squares by Chebyshev distance from each square: `RINGS[k][d]`, the last entry holding
/// every square at that distance or more (far squares matter little, and each distance costs
/// two population counts per control level and king).
static RINGS: [[Bitboard; params::DISTANCES]; 81] = build_rings();

const fn build_rings() -> [[Bitboard; params::DISTANCES]; 81] {
    let mut rings = [[Bitboard::EMPTY; params::DISTANCES]; 81];
    let mut k: usize = 0;
    while k < 81 {
        let mut s: usize = 0;
        while s < 81 {
            let (fk, rk) = ((k / 9) as i32, (k % 9) as i32);
            let (fs, rs) = ((s / 9) as i32, (s % 9) as i32);
            let df = (fk - fs).abs();
            let dr = (rk - rs).abs();
            let d = if df > dr { df } else { dr } as usize;
            let d = if d < params::DISTANCES {
                d
            } else {
                params::DISTANCES - 1
            };
            let Some(sq) = Square::new(s as u8) else { panic!() };
            rings[k][d] = rings[k][d].or(Bitboard::from_square(sq));
            s += 1;
        }
        k += 1;
    }
    rings
}

/// Squares a side controls at least once, twice, three times: bit-sliced counters saturating
/// at three, so that adding a piece's attacks costs a few bitboard operations.
#[derive(Copy, Clone, Default)]
struct Control {
    at: [Bitboard; params::LEVELS],
}

impl Control {
    #[inline(always)]
    fn add(&mut self, a: Bitboard) {
        self.at[2] |= self.at[1] & a;
        self.at[1] |= self.at[0] & a;
        self.at[0] |= a;
    }

    /// The squares where this side has strictly more controls than `other`.
    #[inline(always)]
    fn majority(&self, other: &Control) -> Bitboard {
        (self.at[0] & !other.at[0]) | (self.at[1] & !other.at[1]) | (self.at[2] & !other.at[2])
    }
}

/// Control of side `c` by every piece but the king (the king is added by the caller: it does
/// not count as a defender of its own neighbourhood).
#[inline(always)]
fn control_without_king(pos: &Position, c: Color, occ: Bitboard) -> Control {
    let mut ctl = Control::default();
    // Pawns all attack different squares, so one shifted bitboard adds them all at once.
    let pawns = pos.pieces_of(c, PieceKind::Pawn);
    ctl.add(match c {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    });
    for s in pos.pieces_of(c, PieceKind::Lance) {
        ctl.add(lance_attacks(c, s, occ));
    }
    for s in pos.pieces_of(c, PieceKind::Knight) {
        ctl.add(knight_attacks(c, s));
    }
    for s in pos.pieces_of(c, PieceKind::Silver) {
        ctl.add(silver_attacks(c, s));
    }
    for s in pos.golds(c) {
        ctl.add(gold_attacks(c, s));
    }
    for s in pos.bishops_horses(c) {
        let mut a = bishop_attacks(s, occ);
        if pos.kind_bb(PieceKind::Horse).contains(s) {
            a |= king_attacks(s);
        }
        ctl.add(a);
    }
    for s in pos.rooks_dragons(c) {
        let mut a = rook_attacks(s, occ);
        if pos.kind_bb(PieceKind::Dragon).contains(s) {
            a |= king_attacks(s);
        }
        ctl.add(a);
    }
    ctl
}

/// The piece group of the hanging terms (P L N S gold-like B R H D), `None` for the king.
#[inline(always)]
pub(crate) const fn piece_group(kind: PieceKind) -> Option<usize> {
    Some(match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold | PieceKind::ProPawn | PieceKind::ProLance | PieceKind::ProKnight | PieceKind::ProSilver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        PieceKind::Horse => 7,
        PieceKind::Dragon => 8,
        PieceKind::King => return None,
    })
}

/// The pieces of `us` by piece group (the order of [`piece_group`]). In a piece–king table the cell
/// of a piece is its file distance to the king, then its rank offset (−8..=8, positive when
/// the piece is further forward than the king, as `us` sees it).
#[inline(always)]
fn group_bitboards(pos: &Position, us: Color) -> [Bitboard; params::GROUPS] {
    [
        pos.pieces_of(us, PieceKind::Pawn),
        pos.pieces_of(us, PieceKind::Lance),
        pos.pieces_of(us, PieceKind::Knight),
        pos.pieces_of(us, PieceKind::Silver),
        pos.golds(us),
        pos.pieces_of(us, PieceKind::Bishop),
        pos.pieces_of(us, PieceKind::Rook),
        pos.pieces_of(us, PieceKind::Horse),
        pos.pieces_of(us, PieceKind::Dragon),
    ]
}

/// Calls `sink` with every feature of `pos` (side to move's view).
#[inline(always)]
pub fn accumulate<S: Sink>(pos: &Position, sink: &mut S) {
    let occ = pos.occupied();
    let stm = pos.side_to_move();
    let colors = [stm, !stm];
    let no_king = [
        control_without_king(pos, stm, occ),
        control_without_king(pos, !stm, occ),
    ];
    let kings = [pos.king_square(stm), pos.king_square(!stm)];
    let mut full = no_king;
    for (ctl, k) in full.iter_mut().zip(kings) {
        if let Some(k) = k {
            ctl.add(king_attacks(k));
        }
    }
    // The square-control terms leave the kings out: a king's own reach says nothing about
    // its safety, and counting it would reward a king for walking into the open.
    let majority = [no_king[0].majority(&no_king[1]), no_king[1].majority(&no_king[0])];

    for side in 0..2 {
        let (us, them) = (colors[side], colors[1 - side]);
        let sign = if side == 0 { 1 } else { -1 };
        let unit = sign * FINE;
        sink.side(side);

        // Material, board and hand.
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                let n = pos.pieces_of(us, kind).count() as i32;
                sink.add(params::BOARD + kind.index() - 1, unit * n);
            }
        }
        let hand = pos.hand(us);
        for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
            let n = hand.count(kind) as i32;
            sink.add(params::HAND + i, unit * n);
        }

        // Placement of every piece relative to each king (file distance, rank offset as the
        // piece's owner sees it). Walked group by group, with each king's coordinates worked
        // out once: looking every square's piece up cost a tenth of the evaluation.
        let groups = group_bitboards(pos, us);
        for (king, base) in [(kings[side], params::KP_OWN), (kings[1 - side], params::KP_ENEMY)] {
            let Some(k) = king else { continue };
            let (kfile, krank) = (k.file().index(), usize::from(k.rank().relative(us)));
            for (g, &pieces) in groups.iter().enumerate() {
                let table = base + g * params::KP_TABLE + krank + params::KP_RANKS / 2;
                for sq in pieces {
                    let (file, rank) = (sq.file().index(), usize::from(sq.rank().relative(us)));
                    sink.add_kp(table + file.abs_diff(kfile) * params::KP_RANKS - rank, sign);
                }
            }
        }

        // Control of every square, by level and by distance to each king; majority of
        // control by distance to each king.
        for (king, base, maj_base) in [
            (kings[side], params::CTRL_OWN, params::MAJ_OWN),
            (kings[1 - side], params::CTRL_ENEMY, params::MAJ_ENEMY),
        ] {
            let Some(k) = king else { continue };
            let rings = &RINGS[k.index()];
            for (level, at) in no_king[side].at.iter().enumerate() {
                for (d, ring) in rings.iter().enumerate() {
                    let n = (*at & *ring).count() as i32;
                    sink.add(base + level * params::DISTANCES + d, sign * n);
                }
            }
            for (d, ring) in rings.iter().enumerate() {
                let n = (majority[side] & *ring).count() as i32;
                sink.add(maj_base + d, sign * n);
            }
        }

        // Defended pieces, and undefended attacked ones (hanging): a hanging piece of the
        // side to move can still flee, one of the opponent can be taken at once.
        let defended = full[side].at[0];
        let attacked = full[1 - side].at[0];
        let mine = pos.pieces(us) & !pos.kind_bb(PieceKind::King);
        let majors = pos.bishops_horses(us) | pos.rooks_dragons(us);
        sink.add(params::DEFENDED, unit * (mine & defended).count() as i32);
        sink.add(params::DEFENDED + 1, unit * (majors & defended).count() as i32);
        let hang_base = if side == 0 { params::HANG_STM } else { params::HANG_OPP };
        // Hanging pieces are few: look each one up rather than counting every group.
        for sq in mine & attacked & !defended {
            if let Some(g) = pos.piece_on(sq).and_then(|p| piece_group(p.kind())) {
                // Not signed: both hanging groups are counted from the side to move's view.
                sink.add(hang_base + g, FINE);
            }
        }

        // King 8-neighbourhood and placement.
        if let Some(k) = kings[side] {
            let nb = king_attacks(k);
            let empty = nb & !occ;
            let attacked = full[1 - side].at[0];
            let guarded = no_king[side].at[0];
            let nb_terms = [
                empty & attacked & !guarded,
                empty & attacked & guarded,
                nb & pos.pieces(us) & attacked,
                nb & pos.pieces(them),
                empty & !attacked,
                nb & full[1 - side].at[1],
            ];
            for (i, bb) in nb_terms.into_iter().enumerate() {
                let n = bb.count() as i32;
                sink.add(params::KING_NB + i, unit * n);
            }
            // Empty unguarded squares next to the king are where the opponent's hand pieces
            // land with check.
            let hand = pos.hand(them);
            let droppable = hand.total() - hand.count(PieceKind::Pawn);
            let n = (empty & !guarded).count() as i32 * droppable as i32;
            sink.add(params::KING_NB + 6, unit * n);
            // King danger (products, see `params::KING_DANGER_NAMES`).
            let zone = RINGS[k.index()][0] | RINGS[k.index()][1] | RINGS[k.index()][2];
            let level_sum = |ctl: &Control| ctl.at.iter().map(|at| (*at & zone).count() as i32).sum::<i32>();
            let a = level_sum(&no_king[1 - side]);
            let d = level_sum(&no_king[side]);
            let p = (zone & pos.pieces(them) & !pos.kind_bb(PieceKind::King)).count() as i32;
            let h = droppable as i32;
            let excess = (a - d).max(0);
            let products = [a * a, a * h, p * h, a * p, excess * h, excess * excess];
            for (i, n) in products.into_iter().enumerate() {
                sink.add(params::KING_DANGER + i, sign * n);
            }
            let rank = k.rank().relative(us) as usize;
            let file = k.file().index();
            sink.add(params::KING_RANK + rank, unit);
            sink.add(params::KING_FILE + file.min(8 - file), unit);
        }
    }
    sink.add(params::TEMPO, FINE);
}

/// Every feature count of `pos` (side to move's view), in 1/16 units.
pub fn counts(pos: &Position) -> Counts {
    let mut c = Counts([0; NUM_PARAMS]);
    accumulate(pos, &mut c);
    c
}

/// Evaluation of `pos` under `params`, in centipawns, side to move's view.
#[inline]
pub fn evaluate_with(pos: &Position, params: &Params) -> i32 {
    // The evaluation is mostly population counts of bitboards. The build targets baseline
    // x86-64, which has no POPCNT instruction and counts bits in software (about fifteen
    // instructions a word), so a copy compiled with POPCNT is chosen at run time; the
    // detection result is cached by the standard library.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been checked to support POPCNT.
        return unsafe { evaluate_popcnt(pos, params) };
    }
    evaluate_portable(pos, params)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position, params: &Params) -> i32 {
    evaluate_portable(pos, params)
}

#[inline(always)]
fn evaluate_portable(pos: &Position, params: &Params) -> i32 {
    let mut s = Score { params, total: 0 };
    accumulate(pos, &mut s);
    s.total / FINE
}
